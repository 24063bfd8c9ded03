/* Reference GridSample (src/ops/nn_gridsample.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* ------------------------------------------------------------ GridSample */

/* The value of X at integer (iy, ix) of one plane under the padding mode:
 * reflection folds the coordinate back over the borders one at a time. */
static double grid_pixel(const wnn_gridsample_params *p, const float *plane, int64_t iy,
                         int64_t ix) {
  int64_t at[2] = {iy, ix};
  const int64_t size[2] = {(int64_t)p->h, (int64_t)p->w};
  for (int d = 0; d < 2; d++) {
    if (at[d] >= 0 && at[d] < size[d]) continue;
    if (p->padding == WNN_GRID_ZEROS) return 0.0;
    if (p->padding == WNN_GRID_BORDER || size[d] == 1) {
      at[d] = at[d] < 0 ? 0 : size[d] - 1;
      continue;
    }
    const double lo = p->align_corners ? 0.0 : -0.5;
    const double hi = p->align_corners ? (double)(size[d] - 1) : (double)size[d] - 0.5;
    double v = (double)at[d];
    while (v < lo || v > hi) v = v < lo ? 2 * lo - v : 2 * hi - v;
    at[d] = (int64_t)floor(v + 0.5);
    if (at[d] >= size[d]) at[d] = size[d] - 1;
  }
  return plane[at[0] * size[1] + at[1]];
}

static double keys_a(double t) { return wnn_ref_keys(-0.75, t); }

wnn_status wnn_ref_gridsample(const wnn_run_ctx *ctx) {
  const wnn_gridsample_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0], *yt = &ctx->outputs[0];
  const float *x = xt->data, *grid = ctx->inputs[1].data;
  float *y = yt->data;
  const int64_t n = xt->dims[0], c = xt->dims[1], h = xt->dims[2], w = xt->dims[3];
  const int64_t oh = yt->dims[2], ow = yt->dims[3];
  for (int64_t b = 0; b < n; b++)
    for (int64_t ch = 0; ch < c; ch++)
      for (int64_t i = 0; i < oh; i++)
        for (int64_t j = 0; j < ow; j++) {
          const float *g = grid + ((b * oh + i) * ow + j) * 2;
          const float *plane = x + (b * c + ch) * h * w;
          double fx, fy;
          if (p->align_corners) {
            fx = (g[0] + 1.0) / 2.0 * (double)(w - 1);
            fy = (g[1] + 1.0) / 2.0 * (double)(h - 1);
          } else {
            fx = ((g[0] + 1.0) * (double)w - 1.0) / 2.0;
            fy = ((g[1] + 1.0) * (double)h - 1.0) / 2.0;
          }
          double v = 0.0;
          if (p->mode == WNN_GRID_NEAREST) {
            v = grid_pixel(p, plane, (int64_t)nearbyint(fy), (int64_t)nearbyint(fx));
          } else {
            const int64_t x0 = (int64_t)floor(fx), y0 = (int64_t)floor(fy);
            const int64_t lo = p->mode == WNN_GRID_LINEAR ? 0 : -1;
            const int64_t hi = p->mode == WNN_GRID_LINEAR ? 1 : 2;
            for (int64_t dy = lo; dy <= hi; dy++)
              for (int64_t dx = lo; dx <= hi; dx++) {
                const double tx = fabs(fx - (double)(x0 + dx)), ty = fabs(fy - (double)(y0 + dy));
                const double wgt =
                    p->mode == WNN_GRID_LINEAR ? (1 - tx) * (1 - ty) : keys_a(tx) * keys_a(ty);
                v += wgt * grid_pixel(p, plane, y0 + dy, x0 + dx);
              }
          }
          y[((b * c + ch) * oh + i) * ow + j] = (float)v;
        }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
