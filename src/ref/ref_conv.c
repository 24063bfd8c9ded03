/* Reference Conv: the ONNX definition as one loop nest, every output element
 * a fresh dot product over (input channel of its group, ky, kx). */
#ifdef WNN_WITH_REFERENCE
#include "ops/fused_activation.h"
#include "ops/op_internal.h"
#include "ref/ref.h"

wnn_status wnn_ref_conv(const wnn_run_ctx *ctx) {
  const wnn_conv_act_params *pa = ctx->params;
  const wnn_conv_params *p = &pa->base;
  const wnn_tensor *xt = &ctx->inputs[0], *wt = &ctx->inputs[1], *yt = &ctx->outputs[0];
  const float *x = xt->data, *w = wt->data;
  const float *bias = ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  float *y = yt->data;
  const bool two_d = xt->ndim == 4;
  const int64_t n_img = xt->dims[0], c_in = xt->dims[1];
  const int64_t h = two_d ? xt->dims[2] : 1, wd = xt->dims[xt->ndim - 1];
  const int64_t m_out = wt->dims[0], cg = wt->dims[1];
  const int64_t kh = two_d ? wt->dims[2] : 1, kw = wt->dims[wt->ndim - 1];
  const int64_t oh = two_d ? yt->dims[2] : 1, ow = yt->dims[yt->ndim - 1];
  const int64_t group = (int64_t)p->group, mg = m_out / group;
  const int64_t sh = (int64_t)p->win.stride_h, sw = (int64_t)p->win.stride_w;
  const int64_t dh = (int64_t)p->win.dil_h, dw = (int64_t)p->win.dil_w;
  const int64_t pt = (int64_t)p->win.pad_t, pl = (int64_t)p->win.pad_l;

  for (int64_t n = 0; n < n_img; n++)
    for (int64_t m = 0; m < m_out; m++) {
      const int64_t g = m / mg;
      for (int64_t oy = 0; oy < oh; oy++)
        for (int64_t ox = 0; ox < ow; ox++) {
          float acc = 0.0f;
          for (int64_t c = 0; c < cg; c++)
            for (int64_t ky = 0; ky < kh; ky++)
              for (int64_t kx = 0; kx < kw; kx++) {
                const int64_t iy = oy * sh - pt + ky * dh, ix = ox * sw - pl + kx * dw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                const float xv = x[((n * c_in + g * cg + c) * h + iy) * wd + ix];
                const float wv = w[((m * cg + c) * kh + ky) * kw + kx];
                acc += xv * wv;
              }
          if (bias) acc += bias[m];
          y[((n * m_out + m) * oh + oy) * ow + ox] = wnn_fused_activation_ref(&pa->act, acc);
        }
    }
  return WNN_OK;
}
#endif /* WNN_WITH_REFERENCE */
