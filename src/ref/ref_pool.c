/* Reference MaxPool, AveragePool and GlobalAveragePool, straight from the
 * definitions: every output element visits its window in input coordinates
 * (negative in the leading pad). */
#ifdef WNN_WITH_REFERENCE
#include <math.h>

#include "ops/op_internal.h"
#include "ref/ref.h"

static wnn_status pool(const wnn_run_ctx *ctx, bool is_max) {
  const wnn_pool_params *p = ctx->params;
  const wnn_window2d *win = &p->pool.win;
  const wnn_tensor *xt = &ctx->inputs[0], *yt = &ctx->outputs[0];
  const float *x = xt->data;
  float *y = yt->data;
  const bool two_d = xt->ndim == 4;
  const int64_t planes = xt->dims[0] * xt->dims[1];
  const int64_t h = two_d ? xt->dims[2] : 1, w = xt->dims[xt->ndim - 1];
  const int64_t oh = two_d ? yt->dims[2] : 1, ow = yt->dims[yt->ndim - 1];
  const int64_t kh = (int64_t)win->k_h, kw = (int64_t)win->k_w;
  const int64_t sh = (int64_t)win->stride_h, sw = (int64_t)win->stride_w;
  const int64_t dh = (int64_t)win->dil_h, dw = (int64_t)win->dil_w;
  const int64_t pt = (int64_t)win->pad_t, pl = (int64_t)win->pad_l;
  const int64_t pb = (int64_t)win->pad_b, pr = (int64_t)win->pad_r;
  for (int64_t c = 0; c < planes; c++)
    for (int64_t oy = 0; oy < oh; oy++)
      for (int64_t ox = 0; ox < ow; ox++) {
        float max = -INFINITY;
        double sum = 0.0;
        int64_t valid = 0, padded = 0;
        for (int64_t ky = 0; ky < kh; ky++)
          for (int64_t kx = 0; kx < kw; kx++) {
            const int64_t iy = oy * sh - pt + ky * dh, ix = ox * sw - pl + kx * dw;
            if (iy >= -pt && iy < h + pb && ix >= -pl && ix < w + pr) padded++;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            const float v = x[(c * h + iy) * w + ix];
            if (isnan(v) || v > max) max = isnan(max) ? max : v;
            sum += v;
            valid++;
          }
        float out;
        if (is_max) out = max;
        else {
          const int64_t count = p->pool.count_include_pad ? padded : valid;
          out = count ? (float)(sum / (double)count) : 0.0f;
        }
        y[(c * oh + oy) * ow + ox] = out;
      }
  return WNN_OK;
}

wnn_status wnn_ref_maxpool(const wnn_run_ctx *ctx) { return pool(ctx, true); }
wnn_status wnn_ref_averagepool(const wnn_run_ctx *ctx) { return pool(ctx, false); }

wnn_status wnn_ref_globalaveragepool(const wnn_run_ctx *ctx) {
  const wnn_tensor *xt = &ctx->inputs[0];
  const float *x = xt->data;
  float *y = ctx->outputs[0].data;
  const int64_t planes = xt->dims[0] * xt->dims[1];
  const int64_t size = wnn_shape_numel(xt->ndim - 2, xt->dims + 2);
  for (int64_t c = 0; c < planes; c++) {
    double sum = 0.0;
    for (int64_t i = 0; i < size; i++) sum += x[c * size + i];
    y[c] = (float)(sum / (double)size);
  }
  return WNN_OK;
}
#endif /* WNN_WITH_REFERENCE */
