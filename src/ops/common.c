/* Prepare-time helpers shared by the op files (declared in op_internal.h). */
#include <string.h>

#include "ops/op_internal.h"

/* Largest dimension, stride, pad or kernel extent a window op accepts: keeps
 * every intermediate of the output-size formulas far from int64 overflow. */
#define WINDOW_MAX INT32_MAX

bool wnn_has_input(const wnn_prepare_ctx *ctx, int i) {
  return i < ctx->num_inputs && ctx->inputs[i].dtype != WNN_DTYPE_INVALID;
}

wnn_status wnn_expect_dtype(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                            wnn_dtype want) {
  const wnn_dtype got = ctx->inputs[i].dtype;
  if (got == want) return WNN_OK;
  if (got == WNN_DTYPE_INVALID)
    return wnn_op_fail(ctx, WNN_ERR_MALFORMED, "%s: input %d (%s) is required but omitted", op, i,
                       name);
  return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected %s", op, i, name,
                     wnn_dtype_name(got), wnn_dtype_name(want));
}

wnn_status wnn_expect_ndim(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                           int ndim) {
  const int got = ctx->inputs[i].ndim;
  if (got == ndim) return WNN_OK;
  return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) has %d dims, expected %d", op, i,
                     name, got, ndim);
}

wnn_status wnn_set_output(wnn_prepare_ctx *ctx, const char *op, int i, wnn_dtype dtype,
                          int ndim, const int64_t *dims) {
  if (ndim < 0 || ndim > WNN_MAX_DIMS)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output %d would have %d dims, at most %d", op, i,
                       ndim, WNN_MAX_DIMS);
  for (int d = 0; d < ndim; d++)
    if (dims[d] < 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output %d would have dim %d = %lld", op, i, d,
                         (long long)dims[d]);
  /* The same bound on every target (the byte count would not even fit a
   * 32-bit size_t on wasm32 long before it reaches int64's). */
  const size_t esize = wnn_dtype_size(dtype) ? wnn_dtype_size(dtype) : 1;
  const int64_t numel = wnn_checked_numel(ndim, dims, esize);
  if (numel < 0 || (uint64_t)numel > WNN_MAX_TENSOR_BYTES / esize) {
    char shape[160];
    wnn_format_dims(shape, sizeof shape, ndim, dims);
    return wnn_op_fail(ctx, WNN_ERR_LIMIT,
                       "%s: output %d of shape %s is larger than a tensor may be (%u bytes, "
                       "WNN_MAX_TENSOR_BYTES)", op, i, shape, WNN_MAX_TENSOR_BYTES);
  }
  wnn_tdesc *out = &ctx->outputs[i];
  out->dtype = dtype;
  out->ndim = ndim;
  if (ndim) memcpy(out->dims, dims, (size_t)ndim * sizeof dims[0]);
  out->data = NULL;
  return WNN_OK;
}

wnn_status wnn_normalize_axis(wnn_prepare_ctx *ctx, const char *op, const char *attr,
                              int64_t axis, int rank, bool inclusive, int *out) {
  const int64_t hi = inclusive ? rank : rank - 1;
  if (axis < -(int64_t)rank || axis > hi)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: %s %lld out of range [%d, %lld] for rank %d",
                       op, attr, (long long)axis, -rank, (long long)hi, rank);
  *out = (int)(axis < 0 ? axis + rank : axis);
  return WNN_OK;
}

/* ------------------------------------------------------------- windows */

/* Reads an ints attribute that must have `want` values, each in [lo, WINDOW_MAX];
 * absent: every value is dflt. */
static wnn_status read_window_ints(wnn_prepare_ctx *ctx, const char *op, const char *name,
                                   int want, int64_t lo, int64_t dflt, int64_t *out) {
  int64_t vals[4];
  int count;
  wnn_status st = wnn_attr_ints(ctx, name, vals, 4, &count);
  if (st) return st;
  if (count < 0) {
    for (int i = 0; i < want; i++) out[i] = dflt;
    return WNN_OK;
  }
  if (count != want)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: %s has %d values, expected %d", op, name,
                       count, want);
  for (int i = 0; i < want; i++) {
    if (vals[i] < lo || vals[i] > WINDOW_MAX)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: %s[%d] = %lld, must be in [%lld, %d]", op,
                         name, i, (long long)vals[i], (long long)lo, WINDOW_MAX);
    out[i] = vals[i];
  }
  return WNN_OK;
}

enum { PAD_NOTSET, PAD_VALID, PAD_SAME_UPPER, PAD_SAME_LOWER };

static wnn_status read_auto_pad(wnn_prepare_ctx *ctx, const char *op, int *mode) {
  const char *s;
  wnn_status st = wnn_attr_string(ctx, "auto_pad", "NOTSET", &s);
  if (st) return st;
  if (strcmp(s, "NOTSET") == 0) *mode = PAD_NOTSET;
  else if (strcmp(s, "VALID") == 0) *mode = PAD_VALID;
  else if (strcmp(s, "SAME_UPPER") == 0) *mode = PAD_SAME_UPPER;
  else if (strcmp(s, "SAME_LOWER") == 0) *mode = PAD_SAME_LOWER;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: auto_pad '%s' is not NOTSET, VALID, SAME_UPPER or SAME_LOWER", op, s);
  return WNN_OK;
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Output size and pads of spatial dimension d. */
static wnn_status window_dim(wnn_prepare_ctx *ctx, const char *op, wnn_window_spec *s, int d,
                             int pad_mode) {
  const int64_t in = s->in[d], stride = s->stride[d];
  const int64_t extent = (s->kernel[d] - 1) * s->dil[d] + 1; /* the dilated kernel */
  if (pad_mode == PAD_SAME_UPPER || pad_mode == PAD_SAME_LOWER) {
    s->out[d] = ceil_div(in, stride);
    int64_t total = (s->out[d] - 1) * stride + extent - in;
    if (total < 0) total = 0;
    /* SAME_UPPER puts the odd pad at the end, SAME_LOWER at the beginning. */
    s->pad_begin[d] = pad_mode == PAD_SAME_UPPER ? total / 2 : total - total / 2;
    s->pad_end[d] = total - s->pad_begin[d];
  } else {
    if (pad_mode == PAD_VALID) s->pad_begin[d] = s->pad_end[d] = 0;
    const int64_t padded = in + s->pad_begin[d] + s->pad_end[d];
    if (padded < extent)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: kernel extent %lld (kernel %lld, dilation %lld) is bigger than the "
                         "padded input %lld in spatial dim %d",
                         op, (long long)extent, (long long)s->kernel[d], (long long)s->dil[d],
                         (long long)padded, d);
    const int64_t span = padded - extent;
    s->out[d] = (s->ceil_mode ? ceil_div(span, stride) : span / stride) + 1;
    /* ceil_mode: a last window starting beyond the input and the leading pad
     * would see only padding; drop it (onnxruntime, PyTorch). */
    if (s->ceil_mode && (s->out[d] - 1) * stride >= in + s->pad_begin[d]) s->out[d]--;
  }
  if (s->pads_below_kernel && (s->pad_begin[d] >= s->kernel[d] || s->pad_end[d] >= s->kernel[d]))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: pads (%lld, %lld) in spatial dim %d must be smaller than the kernel %lld",
                       op, (long long)s->pad_begin[d], (long long)s->pad_end[d], d,
                       (long long)s->kernel[d]);
  return WNN_OK;
}

wnn_status wnn_window_prepare(wnn_prepare_ctx *ctx, const char *op, wnn_window_spec *s) {
  const int n = s->spatial;
  for (int d = 0; d < n; d++) {
    if (s->in[d] > WINDOW_MAX)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: spatial dim %d is %lld, at most %d supported", op,
                         d, (long long)s->in[d], WINDOW_MAX);
    if (s->kernel[d] < 1 || s->kernel[d] > WINDOW_MAX)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel dim %d is %lld, must be >= 1", op,
                         d, (long long)s->kernel[d]);
  }
  wnn_status st;
  int64_t pads[4];
  int pad_mode = PAD_NOTSET, pads_count;
  if ((st = read_window_ints(ctx, op, "strides", n, 1, 1, s->stride))) return st;
  if ((st = read_window_ints(ctx, op, "dilations", n, 1, 1, s->dil))) return st;
  if ((st = read_auto_pad(ctx, op, &pad_mode))) return st;
  if ((st = wnn_attr_ints(ctx, "pads", pads, 4, &pads_count))) return st;
  if (pads_count >= 0 && pad_mode != PAD_NOTSET)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: pads and auto_pad other than NOTSET "
                       "cannot be used together", op);
  if ((st = read_window_ints(ctx, op, "pads", 2 * n, 0, 0, pads))) return st;
  for (int d = 0; d < n; d++) {
    s->pad_begin[d] = pads[d];
    s->pad_end[d] = pads[n + d];
    if ((st = window_dim(ctx, op, s, d, pad_mode))) return st;
  }
  return WNN_OK;
}

wnn_window2d wnn_window_to_2d(const wnn_window_spec *s) {
  /* 1-D: the one spatial dimension is the width; the height is 1 with a
   * trivial kernel. */
  const int w = s->spatial - 1, h = s->spatial == 2 ? 0 : -1;
  wnn_window2d win = {
      .in_h = 1, .in_w = (size_t)s->in[w], .out_h = 1, .out_w = (size_t)s->out[w],
      .k_h = 1, .k_w = (size_t)s->kernel[w], .stride_h = 1, .stride_w = (size_t)s->stride[w],
      .dil_h = 1, .dil_w = (size_t)s->dil[w], .pad_t = 0, .pad_l = (size_t)s->pad_begin[w],
      .pad_b = 0, .pad_r = (size_t)s->pad_end[w]};
  if (h == 0) {
    win.in_h = (size_t)s->in[0], win.out_h = (size_t)s->out[0], win.k_h = (size_t)s->kernel[0];
    win.stride_h = (size_t)s->stride[0], win.dil_h = (size_t)s->dil[0];
    win.pad_t = (size_t)s->pad_begin[0], win.pad_b = (size_t)s->pad_end[0];
  }
  return win;
}

void wnn_split_axis(const wnn_tdesc *t, int ax, size_t *outer, size_t *n, size_t *inner) {
  *outer = (size_t)wnn_shape_numel(ax, t->dims);
  *n = (size_t)t->dims[ax];
  *inner = (size_t)wnn_shape_numel(t->ndim - ax - 1, t->dims + ax + 1);
}
