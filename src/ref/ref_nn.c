/* Reference BatchNormalization, InstanceNormalization, LayerNormalization,
 * LRN, ConvTranspose and Resize, straight from the ONNX definitions, with
 * double accumulators. Shapes come from the tensors; attributes from the
 * params prepare filled. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"

/* Product of dims [from, to). */
static int64_t span(const wnn_tensor *t, int from, int to) {
  int64_t n = 1;
  for (int d = from; d < to; d++) n *= t->dims[d];
  return n;
}

wnn_status wnn_ref_batchnormalization(const wnn_run_ctx *ctx) {
  const wnn_chnorm_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const float *x = xt->data, *scale = ctx->inputs[1].data, *b = ctx->inputs[2].data;
  const float *mean = ctx->inputs[3].data, *var = ctx->inputs[4].data;
  float *y = ctx->outputs[0].data;
  const int64_t n = xt->dims[0], c = xt->dims[1], inner = span(xt, 2, xt->ndim);
  for (int64_t ch = 0; ch < c; ch++) {
    double m = mean[ch], v = var[ch];
    if (p->training) { /* batch statistics, in double */
      double sum = 0.0, sq = 0.0;
      for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < inner; k++) sum += x[(i * c + ch) * inner + k];
      m = sum / (double)(n * inner);
      for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < inner; k++) {
          const double d = x[(i * c + ch) * inner + k] - m;
          sq += d * d;
        }
      v = sq / (double)(n * inner);
      if (ctx->num_outputs > 1)
        ((float *)ctx->outputs[1].data)[ch] = (float)(mean[ch] * p->momentum + m * (1.0 - p->momentum));
      if (ctx->num_outputs > 2)
        ((float *)ctx->outputs[2].data)[ch] = (float)(var[ch] * p->momentum + v * (1.0 - p->momentum));
    }
    for (int64_t i = 0; i < n; i++)
      for (int64_t k = 0; k < inner; k++) {
        const int64_t at = (i * c + ch) * inner + k;
        y[at] = (float)(((double)x[at] - m) / sqrt(v + p->epsilon) * scale[ch] + b[ch]);
      }
  }
  return WNN_OK;
}

wnn_status wnn_ref_instancenormalization(const wnn_run_ctx *ctx) {
  const wnn_chnorm_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const float *x = xt->data, *scale = ctx->inputs[1].data, *b = ctx->inputs[2].data;
  float *y = ctx->outputs[0].data;
  const int64_t n = xt->dims[0], c = xt->dims[1], inner = span(xt, 2, xt->ndim);
  for (int64_t i = 0; i < n * c; i++) {
    const float *xi = x + i * inner;
    double sum = 0.0, sq = 0.0;
    for (int64_t k = 0; k < inner; k++) sum += xi[k];
    const double mean = sum / (double)inner;
    for (int64_t k = 0; k < inner; k++) sq += (xi[k] - mean) * (xi[k] - mean);
    const double sd = sqrt(sq / (double)inner + p->epsilon);
    const int64_t ch = i % c;
    for (int64_t k = 0; k < inner; k++)
      y[i * inner + k] = (float)((xi[k] - mean) / sd * scale[ch] + b[ch]);
  }
  return WNN_OK;
}

/* Element i of the normalized block (dims [axis, rank) of x) read from t,
 * which broadcasts to that block with numpy's right-aligned rules. */
static float broadcast_at(const wnn_tensor *t, const wnn_tensor *x, int axis, int64_t i) {
  const float *data = t->data;
  int64_t off = 0, stride = 1;
  for (int d = x->ndim - 1; d >= axis; d--) {
    const int64_t coord = i % x->dims[d];
    i /= x->dims[d];
    const int td = d - (x->ndim - t->ndim);
    if (td < 0) continue;
    if (t->dims[td] != 1) off += coord * stride;
    stride *= t->dims[td];
  }
  return data[off];
}

wnn_status wnn_ref_layernormalization(const wnn_run_ctx *ctx) {
  const wnn_layernorm_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const int axis = xt->ndim - p->norm_ndim;
  const float *x = xt->data;
  const bool has_b = ctx->num_inputs > 2 && ctx->inputs[2].data;
  float *y = ctx->outputs[0].data;
  float *mean_out = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  float *inv_out = ctx->num_outputs > 2 ? ctx->outputs[2].data : NULL;
  const int64_t rows = span(xt, 0, axis), cols = span(xt, axis, xt->ndim);
  for (int64_t r = 0; r < rows; r++) {
    const float *xr = x + r * cols;
    double sum = 0.0, sq = 0.0;
    for (int64_t k = 0; k < cols; k++) sum += xr[k];
    const double mean = sum / (double)cols;
    for (int64_t k = 0; k < cols; k++) sq += (xr[k] - mean) * (xr[k] - mean);
    const double inv = 1.0 / sqrt(sq / (double)cols + p->epsilon);
    if (mean_out) mean_out[r] = (float)mean;
    if (inv_out) inv_out[r] = (float)inv;
    for (int64_t k = 0; k < cols; k++) {
      double v = (xr[k] - mean) * inv * broadcast_at(&ctx->inputs[1], xt, axis, k);
      if (has_b) v += broadcast_at(&ctx->inputs[2], xt, axis, k);
      y[r * cols + k] = (float)v;
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_lrn(const wnn_run_ctx *ctx) {
  const wnn_lrn_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const float *x = xt->data;
  float *y = ctx->outputs[0].data;
  const int64_t n = xt->dims[0], c = xt->dims[1], inner = span(xt, 2, xt->ndim);
  const int64_t lo_off = (p->size - 1) / 2, hi_off = (p->size - 1) - lo_off; /* floor, ceil */
  for (int64_t i = 0; i < n; i++)
    for (int64_t ch = 0; ch < c; ch++)
      for (int64_t k = 0; k < inner; k++) {
        double sq = 0.0;
        for (int64_t j = ch - lo_off; j <= ch + hi_off; j++) {
          if (j < 0 || j >= c) continue;
          const double v = x[(i * c + j) * inner + k];
          sq += v * v;
        }
        const int64_t at = (i * c + ch) * inner + k;
        y[at] = (float)(x[at] / pow(p->bias + p->alpha / (double)p->size * sq, p->beta));
      }
  return WNN_OK;
}

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

static double keys(double a, double t) {
  t = fabs(t);
  if (t <= 1) return (a + 2) * t * t * t - (a + 3) * t * t + 1;
  if (t < 2) return a * t * t * t - 5 * a * t * t + 8 * a * t - 4 * a;
  return 0;
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
    double wt = keys(p->cubic_a, xs - (double)i);
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
/* ------------------------------------------------------------- MaxUnpool */

/* Each output element takes the input element whose index names it (the
 * last such one), else 0. An index names the element at the same coordinates
 * in the default unpooled shape (params dflt) as the output element has in Y. */
wnn_status wnn_ref_maxunpool(const wnn_run_ctx *ctx) {
  const wnn_maxunpool_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0], *yt = &ctx->outputs[0];
  const float *x = xt->data;
  const int64_t *ind = ctx->inputs[1].data;
  float *y = yt->data;
  const int64_t in_n = wnn_shape_numel(xt->ndim, xt->dims);
  const int64_t out_n = wnn_shape_numel(yt->ndim, yt->dims);
  const int64_t dflt_n = wnn_shape_numel(yt->ndim, p->dflt);
  for (int64_t i = 0; i < in_n; i++) {
    if (ind[i] < 0 || ind[i] >= dflt_n)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "MaxUnpool: index %lld out of range",
                          (long long)ind[i]);
    int64_t rest = ind[i];
    for (int d = yt->ndim - 1; d >= 0; d--) {
      if (rest % p->dflt[d] >= yt->dims[d])
        return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                            "MaxUnpool: index %lld lies outside output_shape", (long long)ind[i]);
      rest /= p->dflt[d];
    }
  }
  for (int64_t o = 0; o < out_n; o++) {
    /* o's coordinates in Y, and the default-shape position they name. */
    int64_t coord[WNN_MAX_DIMS], rest = o, named = 0;
    bool inside = true;
    for (int d = yt->ndim - 1; d >= 0; d--) {
      coord[d] = rest % yt->dims[d];
      rest /= yt->dims[d];
    }
    for (int d = 0; d < yt->ndim; d++) {
      if (coord[d] >= p->dflt[d]) inside = false;
      named = named * p->dflt[d] + coord[d];
    }
    y[o] = 0.0f;
    for (int64_t i = in_n - 1; inside && i >= 0; i--)
      if (ind[i] == named) {
        y[o] = x[i];
        break;
      }
  }
  return WNN_OK;
}

/* ---------------------------------------------------------------- Einsum */

/* Visits every assignment of every label once, adding the product of the
 * inputs into the output element the output labels name. */
wnn_status wnn_ref_einsum(const wnn_run_ctx *ctx) {
  const wnn_einsum_params *p = ctx->params;
  float *y = ctx->outputs[0].data;
  int64_t out_n = 1, all = 1;
  for (int k = 0; k < p->num_out; k++) out_n *= p->size[k];
  for (int k = 0; k < p->num_labels; k++) all *= p->size[k];
  for (int64_t o = 0; o < out_n; o++) y[o] = 0.0f;
  for (int64_t a = 0; a < all; a++) {
    int64_t rest = a, out_at = 0, out_stride = 1;
    int64_t coord[WNN_EINSUM_MAX_LABELS];
    for (int k = p->num_labels - 1; k >= 0; k--) coord[k] = rest % p->size[k], rest /= p->size[k];
    for (int k = p->num_out - 1; k >= 0; k--)
      out_at += coord[k] * out_stride, out_stride *= p->size[k];
    double prod = 1.0;
    for (int i = 0; i < p->num_inputs; i++) {
      int64_t off = 0;
      for (int k = 0; k < p->num_labels; k++) off += coord[k] * p->stride[i][k];
      prod *= ((const float *)ctx->inputs[i].data)[off];
    }
    y[out_at] = (float)(y[out_at] + prod);
  }
  return WNN_OK;
}

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

static double keys_a(double t) { return keys(-0.75, t); }

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
