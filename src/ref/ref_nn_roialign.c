/* Reference RoiAlign (src/ops/nn_roialign.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* -------------------------------------------------------------- RoiAlign */

/* X at (row, col) of plane, bilinearly, with the RoiAlign edge rules; for max,
 * the largest weighted corner term. In double. */
static double ref_roi_sample(const float *plane, int64_t h, int64_t w, double y, double x,
                             bool max_mode) {
  if (y < -1.0 || y > (double)h || x < -1.0 || x > (double)w) return 0.0;
  y = y <= 0.0 ? 0.0 : y;
  x = x <= 0.0 ? 0.0 : x;
  int64_t ylo = (int64_t)floor(y), xlo = (int64_t)floor(x);
  int64_t yhi = ylo + 1, xhi = xlo + 1;
  if (ylo >= h - 1) ylo = yhi = h - 1, y = (double)ylo;
  if (xlo >= w - 1) xlo = xhi = w - 1, x = (double)xlo;
  const double ly = y - (double)ylo, lx = x - (double)xlo;
  const double t[4] = {(1 - ly) * (1 - lx) * plane[ylo * w + xlo],
                       (1 - ly) * lx * plane[ylo * w + xhi], ly * (1 - lx) * plane[yhi * w + xlo],
                       ly * lx * plane[yhi * w + xhi]};
  if (!max_mode) return t[0] + t[1] + t[2] + t[3];
  return fmax(fmax(t[0], t[1]), fmax(t[2], t[3]));
}

wnn_status wnn_ref_roialign(const wnn_run_ctx *ctx) {
  const wnn_roialign_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *rois = ctx->inputs[1].data;
  const int64_t *bi = ctx->inputs[2].data;
  float *y = ctx->outputs[0].data;
  const double off = p->half_pixel ? 0.5 : 0.0;
  for (size_t r = 0; r < p->num_rois; r++) {
    if (bi[r] < 0 || bi[r] >= (int64_t)p->n)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "batch index %lld", (long long)bi[r]);
    const double sx = rois[r * 4] * (double)p->spatial_scale - off;
    const double sy = rois[r * 4 + 1] * (double)p->spatial_scale - off;
    double rw = rois[r * 4 + 2] * (double)p->spatial_scale - off - sx;
    double rh = rois[r * 4 + 3] * (double)p->spatial_scale - off - sy;
    if (!p->half_pixel) rw = fmax(rw, 1.0), rh = fmax(rh, 1.0);
    const int64_t gh = p->sampling_ratio ? p->sampling_ratio : (int64_t)ceil(rh / (double)p->oh);
    const int64_t gw = p->sampling_ratio ? p->sampling_ratio : (int64_t)ceil(rw / (double)p->ow);
    for (size_t c = 0; c < p->c; c++)
      for (size_t ph = 0; ph < p->oh; ph++)
        for (size_t pw = 0; pw < p->ow; pw++) {
          double acc = 0.0, best = 0.0;
          for (int64_t iy = 0; iy < gh; iy++)
            for (int64_t ix = 0; ix < gw; ix++) {
              const double yy =
                  sy + rh / (double)p->oh * ((double)ph + ((double)iy + 0.5) / (double)gh);
              const double xx =
                  sx + rw / (double)p->ow * ((double)pw + ((double)ix + 0.5) / (double)gw);
              const double v = ref_roi_sample(x + ((size_t)bi[r] * p->c + c) * p->h * p->w,
                                              (int64_t)p->h, (int64_t)p->w, yy, xx, p->max_mode);
              acc += v;
              best = iy == 0 && ix == 0 ? v : fmax(best, v);
            }
          const double n = gh * gw > 0 ? (double)(gh * gw) : 1.0;
          y[((r * p->c + c) * p->oh + ph) * p->ow + pw] = (float)(p->max_mode ? best : acc / n);
        }
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
