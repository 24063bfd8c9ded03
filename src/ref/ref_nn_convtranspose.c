/* Reference ConvTranspose (src/ops/nn_convtranspose.c).
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* Every input element, times every kernel tap, lands on one output element. */
wnn_status wnn_ref_convtranspose(const wnn_run_ctx *ctx) {
  const wnn_convtranspose_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0], *yt = &ctx->outputs[0];
  const float *x = xt->data, *w = ctx->inputs[1].data;
  const float *bias = ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  float *y = yt->data;
  const int nd = xt->ndim;
  const int64_t n = xt->dims[0], c = xt->dims[1], m = yt->dims[1];
  const int64_t d = nd == 5 ? xt->dims[2] : 1, od_n = nd == 5 ? yt->dims[2] : 1;
  const int64_t h = nd >= 4 ? xt->dims[nd - 2] : 1, wd = xt->dims[nd - 1];
  const int64_t oh = nd >= 4 ? yt->dims[nd - 2] : 1, ow = yt->dims[nd - 1];
  const int64_t kd_n = (int64_t)p->k_d, kh = (int64_t)p->k_h, kw = (int64_t)p->k_w;
  const int64_t groups = (int64_t)p->group, cg = c / groups, mg = m / groups;
  const int64_t ovol = od_n * oh * ow;
  for (int64_t i = 0; i < n * m * ovol; i++) y[i] = bias ? bias[(i / ovol) % m] : 0.0f;
  for (int64_t b = 0; b < n; b++)
    for (int64_t ci = 0; ci < c; ci++) {
      const int64_t g = ci / cg;
      for (int64_t iz = 0; iz < d; iz++)
        for (int64_t iy = 0; iy < h; iy++)
          for (int64_t ix = 0; ix < wd; ix++) {
            const float xv = x[(((b * c + ci) * d + iz) * h + iy) * wd + ix];
            for (int64_t mo = 0; mo < mg; mo++)
              for (int64_t kz = 0; kz < kd_n; kz++)
                for (int64_t ky = 0; ky < kh; ky++)
                  for (int64_t kx = 0; kx < kw; kx++) {
                    const int64_t oz = iz * (int64_t)p->stride_d + kz * (int64_t)p->dil_d - p->pad_f;
                    const int64_t oy = iy * (int64_t)p->stride_h + ky * (int64_t)p->dil_h - p->pad_t;
                    const int64_t ox = ix * (int64_t)p->stride_w + kx * (int64_t)p->dil_w - p->pad_l;
                    if (oz < 0 || oz >= od_n || oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
                    const float wv = w[(((ci * mg + mo) * kd_n + kz) * kh + ky) * kw + kx];
                    y[(((b * m + g * mg + mo) * od_n + oz) * oh + oy) * ow + ox] += xv * wv;
                  }
          }
    }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
