/* Reference MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool, straight from the
 * definitions: every output element visits its window in input coordinates
 * (negative in the leading pad). */
#ifdef WNN_WITH_REFERENCE
#include <math.h>

#include "ops/op_internal.h"
#include "ops/nn_internal.h"
#include "ref/ref.h"

/* 3-D: signed input coordinates, each window tap checked against the input
 * and the padded input. */
static wnn_status pool3d(const wnn_run_ctx *ctx, bool is_max) {
  const wnn_pool_params *p = ctx->params;
  const wnn_pool3d_geom *g = is_max ? &((const wnn_maxpool_params *)ctx->params)->g3
                                    : &((const wnn_avgpool_params *)ctx->params)->g3;
  const bool col_major = is_max && ((const wnn_maxpool_params *)ctx->params)->col_major;
  const wnn_tensor *xt = &ctx->inputs[0], *yt = &ctx->outputs[0];
  int64_t *indices = is_max && ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  const float *x = xt->data;
  float *y = yt->data;
  const int64_t planes = xt->dims[0] * xt->dims[1];
  const int64_t *in = xt->dims + 2, *out = yt->dims + 2;
  for (int64_t c = 0; c < planes; c++)
    for (int64_t a = 0; a < out[0]; a++)
      for (int64_t b = 0; b < out[1]; b++)
        for (int64_t e = 0; e < out[2]; e++) {
          const int64_t o[3] = {a, b, e};
          float max = -INFINITY;
          int64_t argmax = -1, valid = 0, padded = 0;
          double sum = 0.0;
          for (int64_t k0 = 0; k0 < (int64_t)g->k[0]; k0++)
            for (int64_t k1 = 0; k1 < (int64_t)g->k[1]; k1++)
              for (int64_t k2 = 0; k2 < (int64_t)g->k[2]; k2++) {
                const int64_t k[3] = {k0, k1, k2};
                int64_t i[3];
                bool inside = true, in_padded = true;
                for (int d = 0; d < 3; d++) {
                  i[d] = o[d] * (int64_t)g->stride[d] - (int64_t)g->pad[d] +
                         k[d] * (int64_t)g->dil[d];
                  if (i[d] < 0 || i[d] >= in[d]) inside = false;
                  if (i[d] < -(int64_t)g->pad[d] || i[d] >= in[d] + (int64_t)g->pad_end[d])
                    in_padded = false;
                }
                padded += in_padded;
                if (!inside) continue;
                const int64_t flat = ((c * in[0] + i[0]) * in[1] + i[1]) * in[2] + i[2];
                const float v = x[flat];
                if (!isnan(max) && (isnan(v) || v > max)) {
                  max = v;
                  const int64_t plane = in[0] * in[1] * in[2];
                  argmax = col_major ? c * plane + (i[2] * in[1] + i[1]) * in[0] + i[0] : flat;
                }
                sum += v;
                valid++;
              }
          const int64_t at = ((c * out[0] + a) * out[1] + b) * out[2] + e;
          if (is_max) {
            y[at] = max;
            if (indices) indices[at] = argmax;
          } else {
            const int64_t count = p->pool.count_include_pad ? padded : valid;
            y[at] = count ? (float)(sum / (double)count) : 0.0f;
          }
        }
  return WNN_OK;
}

static wnn_status pool(const wnn_run_ctx *ctx, bool is_max) {
  if (ctx->inputs[0].ndim == 5) return pool3d(ctx, is_max);
  const wnn_pool_params *p = ctx->params;
  const wnn_window2d *win = &p->pool.win;
  const wnn_tensor *xt = &ctx->inputs[0], *yt = &ctx->outputs[0];
  const float *x = xt->data;
  float *y = yt->data;
  /* MaxPool of uint8 and int8: the same loop on the values as floats (exact),
   * -inf (no element in the window) stored as the type's minimum. */
  const bool u8 = xt->dtype == WNN_DTYPE_U8, i8 = xt->dtype == WNN_DTYPE_I8;
  const bool two_d = xt->ndim == 4;
  const int64_t planes = xt->dims[0] * xt->dims[1];
  const int64_t h = two_d ? xt->dims[2] : 1, w = xt->dims[xt->ndim - 1];
  const int64_t oh = two_d ? yt->dims[2] : 1, ow = yt->dims[yt->ndim - 1];
  const int64_t kh = (int64_t)win->k_h, kw = (int64_t)win->k_w;
  const int64_t sh = (int64_t)win->stride_h, sw = (int64_t)win->stride_w;
  const int64_t dh = (int64_t)win->dil_h, dw = (int64_t)win->dil_w;
  const int64_t pt = (int64_t)win->pad_t, pl = (int64_t)win->pad_l;
  const int64_t pb = (int64_t)win->pad_b, pr = (int64_t)win->pad_r;
  /* MaxPool's Indices: the flat input position of each maximum. */
  const wnn_maxpool_params *mp = ctx->params;
  int64_t *indices = is_max && ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  const bool col_major = indices && mp->col_major;
  for (int64_t c = 0; c < planes; c++)
    for (int64_t oy = 0; oy < oh; oy++)
      for (int64_t ox = 0; ox < ow; ox++) {
        float max = -INFINITY;
        int64_t argmax = -1;
        double sum = 0.0;
        int64_t valid = 0, padded = 0;
        for (int64_t ky = 0; ky < kh; ky++)
          for (int64_t kx = 0; kx < kw; kx++) {
            const int64_t iy = oy * sh - pt + ky * dh, ix = ox * sw - pl + kx * dw;
            if (iy >= -pt && iy < h + pb && ix >= -pl && ix < w + pr) padded++;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            const int64_t xi = (c * h + iy) * w + ix;
            const float v = u8 ? ((const uint8_t *)xt->data)[xi]
                               : i8 ? ((const int8_t *)xt->data)[xi] : x[xi];
            if (!isnan(max) && (isnan(v) || v > max)) {
              max = v;
              argmax = col_major ? c * h * w + ix * h + iy : (c * h + iy) * w + ix;
            }
            sum += v;
            valid++;
          }
        float out;
        if (is_max) out = max;
        else {
          const int64_t count = p->pool.count_include_pad ? padded : valid;
          out = count ? (float)(sum / (double)count) : 0.0f;
        }
        const int64_t yi = (c * oh + oy) * ow + ox;
        if (u8) ((uint8_t *)yt->data)[yi] = out == -INFINITY ? 0 : (uint8_t)out;
        else if (i8) ((int8_t *)yt->data)[yi] = out == -INFINITY ? -128 : (int8_t)out;
        else y[yi] = out;
        if (indices) indices[(c * oh + oy) * ow + ox] = argmax;
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
wnn_status wnn_ref_globalmaxpool(const wnn_run_ctx *ctx) {
  const wnn_tensor *xt = &ctx->inputs[0];
  const float *x = xt->data;
  float *y = ctx->outputs[0].data;
  const int64_t planes = xt->dims[0] * xt->dims[1];
  const int64_t size = wnn_shape_numel(xt->ndim - 2, xt->dims + 2);
  for (int64_t c = 0; c < planes; c++) {
    float max = -INFINITY;
    bool nan = false;
    for (int64_t i = 0; i < size; i++) {
      const float v = x[c * size + i];
      if (isnan(v)) nan = true;
      else if (v > max) max = v;
    }
    y[c] = nan ? NAN : max;
  }
  return WNN_OK;
}
#endif /* WNN_WITH_REFERENCE */
