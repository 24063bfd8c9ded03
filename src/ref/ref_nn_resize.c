/* Reference Resize (src/ops/nn_resize.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* ---------------------------------------------------------------- Resize */

/* The input coordinate that output coordinate o of dim d samples. */
static double source_coord(const wnn_resize_params *p, int d, int64_t o, const float *roi) {
  /* out: the resized length (scale * in, not rounded, with scales: the ONNX
   * reference's output_width); out_int: the output dim. */
  const double in = (double)p->in_dims[d], s = p->scales[d], out = p->lengths[d];
  const double out_int = (double)p->out_dims[d];
  switch (p->coord) {
    case WNN_RESIZE_HALF_PIXEL:
      return (o + 0.5) / s - 0.5;
    case WNN_RESIZE_HALF_PIXEL_SYMMETRIC: {
      const double adjustment = out_int / out;
      const double center = in / 2.0;
      return center * (1.0 - adjustment) + (o + 0.5) / s - 0.5;
    }
    case WNN_RESIZE_PYTORCH_HALF_PIXEL:
      return out > 1 ? (o + 0.5) / s - 0.5 : 0.0;
    case WNN_RESIZE_ALIGN_CORNERS:
      return out == 1 ? 0.0 : o * (in - 1) / (out - 1);
    case WNN_RESIZE_ASYMMETRIC:
      return o / s;
    case WNN_RESIZE_TF_HALF_PIXEL_FOR_NN:
      return (o + 0.5) / s;
    default: {
      double start = 0.0, end = 1.0;
      if (roi && p->roi_dim[d]) {
        start = roi[p->roi_index[d]];
        end = roi[p->roi_index[d] + p->roi_half];
      }
      if (out > 1) return start * (in - 1) + o * (end - start) * (in - 1) / (out - 1);
      return 0.5 * (start + end) * (in - 1);
    }
  }
}

static int64_t clampi(int64_t i, int64_t n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* Interpolates dims d.. of x at the output point `o`, base being the offset
 * of the dims before d. */
static double interp(const wnn_resize_params *p, const float *x, const float *roi, const int64_t *o,
                     int d, int64_t base) {
  if (d == p->ndim) return x[base];
  const int64_t in = (int64_t)p->in_dims[d];
  int64_t stride = 1;
  for (int k = d + 1; k < p->ndim; k++) stride *= (int64_t)p->in_dims[k];
  const double xs = source_coord(p, d, o[d], roi);
  if (p->mode == WNN_RESIZE_NEAREST) {
    int64_t i;
    const double fl = floor(xs), frac = xs - fl;
    if (p->nearest == WNN_NEAREST_FLOOR)
      i = (int64_t)fl;
    else if (p->nearest == WNN_NEAREST_CEIL)
      i = (int64_t)ceil(xs);
    else if (frac == 0.5)
      i = p->nearest == WNN_NEAREST_ROUND_PREFER_FLOOR ? (int64_t)fl : (int64_t)fl + 1;
    else
      i = frac < 0.5 ? (int64_t)fl : (int64_t)fl + 1;
    return interp(p, x, roi, o, d + 1, base + clampi(i, in) * stride);
  }
  const int64_t i0 = (int64_t)floor(xs);
  const double t = xs - (double)i0;
  if (p->mode == WNN_RESIZE_LINEAR)
    return (1 - t) * interp(p, x, roi, o, d + 1, base + clampi(i0, in) * stride) +
           t * interp(p, x, roi, o, d + 1, base + clampi(i0 + 1, in) * stride);
  double sum = 0, wsum = 0;
  for (int64_t i = i0 - 1; i <= i0 + 2; i++) {
    double wt = wnn_ref_keys(p->cubic_a, xs - (double)i);
    if (p->exclude_outside && (i < 0 || i >= in)) wt = 0;
    wsum += wt;
    if (wt != 0) sum += wt * interp(p, x, roi, o, d + 1, base + clampi(i, in) * stride);
  }
  return p->exclude_outside ? sum / wsum : sum;
}

wnn_status wnn_ref_resize(const wnn_run_ctx *ctx) {
  const wnn_resize_params *p = ctx->params;
  const wnn_tensor *yt = &ctx->outputs[0];
  const float *x = ctx->inputs[0].data;
  const float *roi = ctx->num_inputs > 1 && ctx->inputs[1].data &&
                             wnn_shape_numel(ctx->inputs[1].ndim, ctx->inputs[1].dims) > 0
                         ? ctx->inputs[1].data
                         : NULL;
  float *y = yt->data;
  const int64_t total = wnn_shape_numel(yt->ndim, yt->dims);
  for (int64_t i = 0; i < total; i++) {
    int64_t o[WNN_MAX_DIMS], rest = i;
    for (int d = p->ndim - 1; d >= 0; d--) o[d] = rest % yt->dims[d], rest /= yt->dims[d];
    bool outside = false;
    if (p->coord == WNN_RESIZE_TF_CROP_AND_RESIZE)
      for (int d = 0; d < p->ndim; d++) {
        const double xs = source_coord(p, d, o[d], roi);
        if (xs < 0 || xs > (double)(p->in_dims[d] - 1)) outside = true;
      }
    y[i] = outside ? p->extrapolation : (float)interp(p, x, roi, o, 0, 0);
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
