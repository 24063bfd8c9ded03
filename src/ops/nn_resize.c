/*
 * Resize (ONNX opset 19 form: inputs X, roi, scales, sizes), float32, any rank.
 * Modes nearest (every nearest_mode), linear and cubic, separable over every
 * resized dimension (so "linear" is bilinear on two dims, trilinear on three,
 * and so on); every coordinate_transformation_mode; the axes attribute;
 * keep_aspect_ratio_policy "stretch"; antialias 0.
 *
 * scales or sizes decides the output shape, so it must be a constant; roi
 * only moves sample points (tf_crop_and_resize) and is read at run time.
 *
 * Run first computes, per output dim and coordinate, the input indices and
 * weights of its taps (1 nearest, 2 linear, 4 cubic; none when the point is
 * outside a tf_crop_and_resize crop: extrapolation_value) into scratch, then
 * sums, for each output element, the products of the taps of every dim. When
 * only the last two dims move (NCHW images), a per-plane loop does the same
 * sums without the N-D bookkeeping.
 * Coordinates are computed in double from the float32 scales (or, with sizes,
 * from out / in), as the ONNX reference implementation does, including its
 * resized length scale * in (not the whole output dim) in align_corners,
 * pytorch_half_pixel, half_pixel_symmetric and tf_crop_and_resize.
 */
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_resize_params);

static const char OP[] = "Resize";

typedef struct resize_tap {
  int32_t count;                      /* 0: outside the crop, extrapolate */
  int32_t index[WNN_RESIZE_MAX_TAPS]; /* input coordinates */
  float weight[WNN_RESIZE_MAX_TAPS];
} resize_tap;

/* Looks a string attribute up in a NULL-terminated list; *out is its index. */
static wnn_status read_enum(wnn_prepare_ctx *ctx, const char *name, const char *dflt,
                            const char *const *values, const char *expected, int *out) {
  const char *s;
  wnn_status st = wnn_attr_string(ctx, name, dflt, &s);
  if (st) return st;
  for (int i = 0; values[i]; i++)
    if (strcmp(s, values[i]) == 0) {
      *out = i;
      return WNN_OK;
    }
  return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: %s '%s' is not one of %s", OP, name, s,
                     expected);
}

static wnn_status read_modes(wnn_prepare_ctx *ctx, wnn_resize_params *p) {
  static const char *const modes[] = {"nearest", "linear", "cubic", NULL};
  static const char *const coords[] = {
      "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",   "align_corners",
      "asymmetric", "tf_crop_and_resize",   "tf_half_pixel_for_nn", NULL};
  static const char *const nearest[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil",
                                        NULL};
  wnn_status st;
  if ((st = read_enum(ctx, "mode", "nearest", modes, "nearest, linear, cubic", &p->mode)))
    return st;
  if ((st = read_enum(ctx, "coordinate_transformation_mode", "half_pixel", coords,
                      "half_pixel, half_pixel_symmetric, pytorch_half_pixel, align_corners, "
                      "asymmetric, tf_crop_and_resize, tf_half_pixel_for_nn",
                      &p->coord)))
    return st;
  if ((st = read_enum(ctx, "nearest_mode", "round_prefer_floor", nearest,
                      "round_prefer_floor, round_prefer_ceil, floor, ceil", &p->nearest)))
    return st;
  int64_t antialias, exclude;
  if ((st = wnn_attr_int(ctx, "antialias", 0, &antialias))) return st;
  if (antialias != 0)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: antialias = %lld is not supported, only 0",
                       OP, (long long)antialias);
  const char *policy;
  if ((st = wnn_attr_string(ctx, "keep_aspect_ratio_policy", "stretch", &policy))) return st;
  if (strcmp(policy, "stretch") != 0)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: keep_aspect_ratio_policy '%s' is not supported, only 'stretch'", OP,
                       policy);
  if ((st = wnn_attr_float(ctx, "cubic_coeff_a", -0.75f, &p->cubic_a))) return st;
  if ((st = wnn_attr_float(ctx, "extrapolation_value", 0.0f, &p->extrapolation))) return st;
  if ((st = wnn_attr_int(ctx, "exclude_outside", 0, &exclude))) return st;
  if (exclude != 0 && exclude != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: exclude_outside = %lld, expected 0 or 1",
                       OP, (long long)exclude);
  p->exclude_outside = exclude == 1;
  return WNN_OK;
}

/* True when input i is present with at least one element. */
static bool nonempty(const wnn_prepare_ctx *ctx, int i) {
  return i < ctx->num_inputs && wnn_has_input(ctx, i) &&
         wnn_shape_numel(ctx->inputs[i].ndim, ctx->inputs[i].dims) > 0;
}

/* Checks scales (i == 2) or sizes (i == 3): 1-D, constant, n values. */
static wnn_status check_shape_input(wnn_prepare_ctx *ctx, int i, int n) {
  const char *name = i == 2 ? "scales" : "sizes";
  const wnn_tdesc *t = &ctx->inputs[i];
  wnn_status st = wnn_expect_dtype(ctx, OP, i, name, i == 2 ? WNN_DTYPE_F32 : WNN_DTYPE_I64);
  if (st) return st;
  if (!t->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input %d (%s) must be a constant: it decides the output shape", OP, i,
                       name);
  if (t->ndim != 1 || t->dims[0] != n)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) has %lld values, expected %d", OP, i,
                       name, (long long)(t->ndim == 1 ? t->dims[0] : -1), n);
  return WNN_OK;
}

wnn_status wnn_resize_prepare(wnn_prepare_ctx *ctx) {
  wnn_resize_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) is a scalar, expected rank >= 1", OP);
  if (wnn_checked_numel(x->ndim, x->dims, sizeof(float)) < 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has a bad or too large shape", OP);
  if ((st = read_modes(ctx, p))) return st;
  const int rank = x->ndim;

  /* axes: which dims scales / sizes / roi describe (default: all, in order). */
  int64_t axes_attr[WNN_MAX_DIMS];
  int axes[WNN_MAX_DIMS], num_axes;
  if ((st = wnn_attr_ints(ctx, "axes", axes_attr, WNN_MAX_DIMS, &num_axes))) return st;
  if (num_axes < 0) {
    num_axes = rank;
    for (int i = 0; i < rank; i++) axes[i] = i;
  } else {
    bool seen[WNN_MAX_DIMS] = {false};
    for (int i = 0; i < num_axes; i++) {
      if ((st = wnn_normalize_axis(ctx, OP, "axes", axes_attr[i], rank, false, &axes[i])))
        return st;
      if (seen[axes[i]])
        return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes repeats dim %d", OP, axes[i]);
      seen[axes[i]] = true;
    }
  }

  const bool has_scales = nonempty(ctx, 2), has_sizes = nonempty(ctx, 3);
  if (has_scales == has_sizes)
    return wnn_op_fail(ctx, WNN_ERR_MALFORMED, "%s: %s", OP,
                       has_scales ? "scales and sizes are both given; give one"
                                  : "neither scales (input 2) nor sizes (input 3) is given");
  int64_t out[WNN_MAX_DIMS];
  p->ndim = rank;
  for (int d = 0; d < rank; d++) {
    out[d] = x->dims[d];
    p->scales[d] = 1.0;
    p->lengths[d] = (double)x->dims[d];
    p->roi_dim[d] = false;
  }
  if ((st = check_shape_input(ctx, has_scales ? 2 : 3, num_axes))) return st;
  for (int i = 0; i < num_axes; i++) {
    const int d = axes[i];
    const int64_t in = x->dims[d];
    if (has_scales) {
      const float s = ((const float *)ctx->inputs[2].data)[i];
      if (!(s > 0.0f) || !isfinite(s))
        return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: scales[%d] = %g, must be > 0", OP, i,
                           (double)s);
      const double o = floor((double)s * (double)in);
      if (o > INT32_MAX)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output dim %d would be %.0f, too large", OP, d,
                           o);
      out[d] = (int64_t)o;
      p->scales[d] = (double)s;
      p->lengths[d] = (double)s * (double)in;
    } else {
      const int64_t sz = ((const int64_t *)ctx->inputs[3].data)[i];
      if (sz < 0 || sz > INT32_MAX)
        return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: sizes[%d] = %lld, must be in [0, %d]",
                           OP, i, (long long)sz, INT32_MAX);
      out[d] = sz;
      p->scales[d] = in > 0 ? (double)sz / (double)in : 1.0;
      p->lengths[d] = (double)sz;
    }
    if (in == 0 && out[d] > 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) dim %d is 0, cannot resize to %lld",
                         OP, d, (long long)out[d]);
    p->roi_dim[d] = true;
    p->roi_index[d] = i;
  }
  p->roi_half = num_axes;
  if (p->coord == WNN_RESIZE_TF_CROP_AND_RESIZE && nonempty(ctx, 1)) {
    const wnn_tdesc *roi = &ctx->inputs[1];
    if ((st = wnn_expect_dtype(ctx, OP, 1, "roi", WNN_DTYPE_F32))) return st;
    if (roi->ndim != 1 || roi->dims[0] != 2 * num_axes)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: input 1 (roi) has %lld values, expected %d "
                         "(start and end of each of %d axes)",
                         OP, (long long)(roi->ndim == 1 ? roi->dims[0] : -1), 2 * num_axes,
                         num_axes);
  }
  for (int d = 0; d < rank; d++)
    p->in_dims[d] = (size_t)x->dims[d], p->out_dims[d] = (size_t)out[d];
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, rank, out))) return st;
  size_t taps = 0;
  for (int d = 0; d < rank; d++) taps += p->out_dims[d];
  ctx->scratch_bytes = taps * sizeof(resize_tap);
  p->repeat = wnn_select_f32_repeat(ctx->kernels);
  return WNN_OK;
}

/* The Keys cubic convolution kernel of parameter a at distance s >= 0. */
static float cubic(double a, double s) {
  if (s <= 1.0) return (float)(((a + 2.0) * s - (a + 3.0)) * s * s + 1.0);
  if (s < 2.0) return (float)(((a * s - 5.0 * a) * s + 8.0 * a) * s - 4.0 * a);
  return 0.0f;
}

static int32_t clamp_index(int64_t i, size_t n) {
  if (i < 0) return 0;
  if (i >= (int64_t)n) return (int32_t)(n - 1);
  return (int32_t)i;
}

/* The taps of output coordinate `o` of dim d. */
static resize_tap taps_of(const wnn_resize_params *p, int d, size_t o, const float *roi) {
  const size_t in = p->in_dims[d];
  /* The resized length as the ONNX reference has it: scale * in, which with
   * scales need not be a whole number (align_corners and the others divide by
   * it, not by the output dim). */
  const double s = p->scales[d], len = p->lengths[d], xo = (double)o;
  const double out = p->out_dims[d];
  double x;
  double start = 0.0, end = 1.0;
  if (roi && p->roi_dim[d]) {
    start = roi[p->roi_index[d]];
    end = roi[p->roi_index[d] + p->roi_half];
  }
  switch (p->coord) {
    case WNN_RESIZE_HALF_PIXEL:
      x = (xo + 0.5) / s - 0.5;
      break;
    case WNN_RESIZE_HALF_PIXEL_SYMMETRIC: {
      const double adjustment = out / len;
      const double offset = (double)in / 2.0 * (1.0 - adjustment);
      x = offset + (xo + 0.5) / s - 0.5;
      break;
    }
    case WNN_RESIZE_PYTORCH_HALF_PIXEL:
      x = len > 1.0 ? (xo + 0.5) / s - 0.5 : 0.0;
      break;
    case WNN_RESIZE_ALIGN_CORNERS:
      x = len == 1.0 ? 0.0 : xo * (double)(in - 1) / (len - 1.0);
      break;
    case WNN_RESIZE_ASYMMETRIC:
      x = xo / s;
      break;
    case WNN_RESIZE_TF_HALF_PIXEL_FOR_NN:
      x = (xo + 0.5) / s;
      break;
    default: /* tf_crop_and_resize */
      x = len > 1.0 ? start * (double)(in - 1) + xo * (end - start) * (double)(in - 1) / (len - 1.0)
                    : 0.5 * (start + end) * (double)(in - 1);
      break;
  }
  resize_tap t = {0};
  if (p->coord == WNN_RESIZE_TF_CROP_AND_RESIZE && (x < 0.0 || x > (double)(in - 1))) return t;
  if (p->mode == WNN_RESIZE_NEAREST) {
    double r;
    const double fl = floor(x), frac = x - fl;
    switch (p->nearest) {
      case WNN_NEAREST_ROUND_PREFER_FLOOR:
        r = frac <= 0.5 ? fl : fl + 1.0;
        break;
      case WNN_NEAREST_ROUND_PREFER_CEIL:
        r = frac < 0.5 ? fl : fl + 1.0;
        break;
      case WNN_NEAREST_FLOOR:
        r = fl;
        break;
      default:
        r = ceil(x);
        break;
    }
    t.count = 1;
    t.index[0] = clamp_index((int64_t)r, in);
    t.weight[0] = 1.0f;
    return t;
  }
  const double x0 = floor(x), frac = x - x0;
  if (p->mode == WNN_RESIZE_LINEAR) {
    t.count = 2;
    t.index[0] = clamp_index((int64_t)x0, in);
    t.index[1] = clamp_index((int64_t)x0 + 1, in);
    t.weight[0] = (float)(1.0 - frac);
    t.weight[1] = (float)frac;
    return t;
  }
  t.count = 4;
  float sum = 0.0f;
  for (int k = 0; k < 4; k++) {
    const int64_t i = (int64_t)x0 - 1 + k;
    float w = cubic(p->cubic_a, fabs(frac - (double)(k - 1)));
    if (p->exclude_outside && (i < 0 || i >= (int64_t)in)) w = 0.0f;
    t.index[k] = clamp_index(i, in);
    t.weight[k] = w;
    sum += w;
  }
  if (p->exclude_outside && sum != 0.0f)
    for (int k = 0; k < 4; k++) t.weight[k] /= sum;
  return t;
}

/* True when the n taps of a dim each sample exactly their own coordinate. */
static bool identity_dim(const resize_tap *table, size_t n) {
  for (size_t o = 0; o < n; o++)
    if (table[o].count != 1 || table[o].index[0] != (int32_t)o || table[o].weight[0] != 1.0f)
      return false;
  return true;
}

/* True when every one of the n taps is a single sample of weight 1. */
static bool nearest_dim(const resize_tap *table, size_t n) {
  for (size_t o = 0; o < n; o++)
    if (table[o].count != 1 || table[o].weight[0] != 1.0f) return false;
  return true;
}

/* Nearest sampling in both dims: copies. An output row that samples the
 * same input row as the row before is a copy of it; a row whose columns
 * repeat each input column k times (an integer upsampling factor) is the
 * repeat kernel; any other row is gathered. */
static void nearest_planes(size_t planes, size_t ih, size_t iw, size_t oh, size_t ow,
                           const resize_tap *ty, const resize_tap *tx,
                           wnn_f32_repeat_ukernel *repeat, const float *x, float *y) {
  const size_t k = iw ? ow / iw : 0;
  bool by_k = k >= 1 && k * iw == ow;
  for (size_t ox = 0; by_k && ox < ow; ox++) by_k = tx[ox].index[0] == (int32_t)(ox / k);
  for (size_t pl = 0; pl < planes; pl++) {
    const float *xp = x + pl * ih * iw;
    float *yp = y + pl * oh * ow;
    for (size_t oy = 0; oy < oh; oy++) {
      float *row = yp + oy * ow;
      if (oy > 0 && ty[oy].index[0] == ty[oy - 1].index[0]) {
        memcpy(row, row - ow, ow * sizeof *row);
        continue;
      }
      const float *src = xp + (size_t)ty[oy].index[0] * iw;
      if (by_k) {
        repeat(iw, k, src, row);
      } else {
        for (size_t ox = 0; ox < ow; ox++) row[ox] = src[tx[ox].index[0]];
      }
    }
  }
}

/* The common case (NCHW images resized in H and W): every plane resampled on
 * its own from the taps of the last two dims. Same sums, in the same order,
 * as the general loop, or copies when both dims sample nearest
 * (nearest_planes: the same values, except that -0 stays -0 where the sum
 * 0 + 1 * 1 * -0 gives +0). */
static void resize_planes(size_t planes, size_t ih, size_t iw, size_t oh, size_t ow,
                          const resize_tap *ty, const resize_tap *tx, float extrapolation,
                          wnn_f32_repeat_ukernel *repeat, const float *x, float *y) {
  if (repeat && nearest_dim(ty, oh) && nearest_dim(tx, ow)) {
    nearest_planes(planes, ih, iw, oh, ow, ty, tx, repeat, x, y);
    return;
  }
  for (size_t pl = 0; pl < planes; pl++) {
    const float *xp = x + pl * ih * iw;
    float *yp = y + pl * oh * ow;
    for (size_t oy = 0; oy < oh; oy++) {
      const resize_tap *a = &ty[oy];
      for (size_t ox = 0; ox < ow; ox++) {
        const resize_tap *b = &tx[ox];
        if (a->count == 0 || b->count == 0) {
          yp[oy * ow + ox] = extrapolation;
          continue;
        }
        float sum = 0.0f;
        for (int i = 0; i < a->count; i++) {
          const float *row = xp + (size_t)a->index[i] * iw;
          for (int j = 0; j < b->count; j++) sum += a->weight[i] * b->weight[j] * row[b->index[j]];
        }
        yp[oy * ow + ox] = sum;
      }
    }
  }
}

wnn_status wnn_resize_run(const wnn_run_ctx *ctx) {
  const wnn_resize_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  const float *roi = p->coord == WNN_RESIZE_TF_CROP_AND_RESIZE && ctx->num_inputs > 1 &&
                             ctx->inputs[1].data &&
                             wnn_shape_numel(ctx->inputs[1].ndim, ctx->inputs[1].dims) > 0
                         ? ctx->inputs[1].data
                         : NULL;
  float *y = ctx->outputs[0].data;
  const int nd = p->ndim;
  for (int d = 0; d < nd; d++)
    if (p->out_dims[d] == 0) return WNN_OK; /* an empty output (and maybe no scratch) */
  resize_tap *tables[WNN_MAX_DIMS];
  size_t in_stride[WNN_MAX_DIMS], total = 1;
  resize_tap *next = ctx->scratch;
  for (int d = 0; d < nd; d++) {
    tables[d] = next;
    for (size_t o = 0; o < p->out_dims[d]; o++) next[o] = taps_of(p, d, o, roi);
    next += p->out_dims[d];
    total *= p->out_dims[d];
  }
  bool planar = nd >= 2;
  size_t planes = 1;
  for (int d = 0; planar && d < nd - 2; d++) {
    planar = p->in_dims[d] == p->out_dims[d] && identity_dim(tables[d], p->out_dims[d]);
    planes *= p->out_dims[d];
  }
  if (planar) {
    resize_planes(planes, p->in_dims[nd - 2], p->in_dims[nd - 1], p->out_dims[nd - 2],
                  p->out_dims[nd - 1], tables[nd - 2], tables[nd - 1], p->extrapolation,
                  p->repeat, x, y);
    return WNN_OK;
  }
  size_t stride = 1;
  for (int d = nd - 1; d >= 0; d--) in_stride[d] = stride, stride *= p->in_dims[d];

  size_t coord[WNN_MAX_DIMS] = {0};
  for (size_t o = 0; o < total; o++) {
    const resize_tap *t[WNN_MAX_DIMS];
    bool outside = false;
    for (int d = 0; d < nd; d++) {
      t[d] = &tables[d][coord[d]];
      if (t[d]->count == 0) outside = true;
    }
    if (outside) {
      y[o] = p->extrapolation;
    } else {
      /* Sum over every combination of one tap per dim. */
      int k[WNN_MAX_DIMS] = {0};
      float sum = 0.0f;
      for (;;) {
        size_t off = 0;
        float w = 1.0f;
        for (int d = 0; d < nd; d++) {
          off += (size_t)t[d]->index[k[d]] * in_stride[d];
          w *= t[d]->weight[k[d]];
        }
        sum += w * x[off];
        int d = nd - 1;
        while (d >= 0 && ++k[d] == t[d]->count) k[d--] = 0;
        if (d < 0) break;
      }
      y[o] = sum;
    }
    for (int d = nd - 1; d >= 0 && ++coord[d] == p->out_dims[d]; d--) coord[d] = 0;
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(resize, "Resize", 0, 1, 4, 1, 1,
              WNN_ATTRS("antialias", "axes", "coordinate_transformation_mode", "cubic_coeff_a",
                        "exclude_outside", "extrapolation_value", "keep_aspect_ratio_policy",
                        "mode", "nearest_mode"));
