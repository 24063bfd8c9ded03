/*
 * Shape and data-movement ops (ONNX opset 13/14), any element type:
 *   Reshape, Flatten, Identity  aliases: prepare computes the shape, the
 *                               runtime points the output at the input;
 *   Transpose                   a strided copy of merged dims (row copies, 2-D
 *                               transpose kernels for 4-byte elements);
 *   Concat                      block copies along the axis.
 */
#include <string.h>

#include "ops/op_internal.h"

WNN_PARAMS_FIT(wnn_transpose_params);
WNN_PARAMS_FIT(wnn_concat_params);

static wnn_status expect_any_dtype(wnn_prepare_ctx *ctx, const char *op, int i, const char *name) {
  if (wnn_dtype_size(ctx->inputs[i].dtype) != 0) return WNN_OK;
  return wnn_op_fail(ctx, WNN_ERR_MALFORMED, "%s: input %d (%s) is required but omitted", op, i,
                     name);
}

/* -------------------------------------------------------------- Reshape */

/* Reads the constant shape input into out, resolving 0 and -1. */
static wnn_status reshape_dims(wnn_prepare_ctx *ctx, bool allowzero, int64_t *out, int n) {
  static const char OP[] = "Reshape";
  const wnn_tdesc *x = &ctx->inputs[0];
  int infer = -1;
  bool has_zero = false;
  int64_t known = 1; /* product of the dims other than -1 */
  memcpy(out, ctx->inputs[1].data, (size_t)n * sizeof(int64_t));
  for (int i = 0; i < n; i++) {
    if (out[i] == 0 && !allowzero) {
      if (i >= x->ndim)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                           "%s: shape[%d] = 0 copies input dim %d, but the input has %d dims", OP,
                           i, i, x->ndim);
      out[i] = x->dims[i];
    } else if (out[i] == -1) {
      if (infer >= 0)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: shape has more than one -1 (at %d and %d)", OP,
                           infer, i);
      infer = i;
      continue;
    } else if (out[i] < -1) {
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: shape[%d] = %lld is negative", OP, i,
                         (long long)out[i]);
    }
    has_zero = has_zero || out[i] == 0;
    if (out[i] != 0 && known > INT64_MAX / out[i])
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: shape overflows", OP);
    known *= out[i];
  }
  const int64_t numel = wnn_shape_numel(x->ndim, x->dims);
  if (infer >= 0) {
    if (has_zero)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: shape has -1 and a 0 dimension; the -1 cannot be inferred", OP);
    if (numel % known != 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: %lld elements cannot be split into blocks of %lld for the -1", OP,
                         (long long)numel, (long long)known);
    out[infer] = numel / known;
    known = numel;
  }
  if (known != numel)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: shape has %lld elements, input has %lld", OP,
                       (long long)known, (long long)numel);
  return WNN_OK;
}

wnn_status wnn_reshape_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Reshape";
  const wnn_tdesc *x = &ctx->inputs[0], *shape = &ctx->inputs[1];
  wnn_status st;
  if ((st = expect_any_dtype(ctx, OP, 0, "data"))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "shape", WNN_DTYPE_I64))) return st;
  if ((st = wnn_expect_ndim(ctx, OP, 1, "shape", 1))) return st;
  if (!shape->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: input 1 (shape) must be a constant", OP);
  if (shape->dims[0] > WNN_MAX_DIMS)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: shape has %lld dims, at most %d", OP,
                       (long long)shape->dims[0], WNN_MAX_DIMS);
  int64_t allowzero;
  if ((st = wnn_attr_int(ctx, "allowzero", 0, &allowzero))) return st;
  if (allowzero != 0 && allowzero != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: allowzero = %lld, must be 0 or 1", OP,
                       (long long)allowzero);
  const int n = (int)shape->dims[0];
  int64_t out[WNN_MAX_DIMS];
  if ((st = reshape_dims(ctx, allowzero == 1, out, n))) return st;
  return wnn_set_output(ctx, OP, 0, x->dtype, n, out);
}

/* -------------------------------------------------------------- Flatten */

wnn_status wnn_flatten_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Flatten";
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axis_attr;
  int axis;
  if ((st = expect_any_dtype(ctx, OP, 0, "input"))) return st;
  if ((st = wnn_attr_int(ctx, "axis", 1, &axis_attr))) return st;
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis_attr, x->ndim, true, &axis))) return st;
  const int64_t out[2] = {wnn_shape_numel(axis, x->dims),
                          wnn_shape_numel(x->ndim - axis, x->dims + axis)};
  return wnn_set_output(ctx, OP, 0, x->dtype, 2, out);
}

/* ------------------------------------------------------------- Identity */

wnn_status wnn_identity_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Identity";
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st = expect_any_dtype(ctx, OP, 0, "input");
  if (st) return st;
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

/* ------------------------------------------------------------ Transpose */

/* Transpose's plan, made at prepare. The output's dims, size-1 dims dropped
 * and each run of dims that stays adjacent and in order in the input merged
 * into one, are split into one `body` copy and the `outer` dims an odometer
 * walks (with each dim's element stride in the input and in the output):
 *   ROWS    the input's innermost dim stays innermost: each output row is
 *           n contiguous input elements (memcpy);
 *   PLANES  4-byte elements whose innermost dim moves: the rows x cols plane
 *           of the output's innermost dim (rows, x_stride apart in the input)
 *           and the input's (cols, y_stride apart in the output) goes
 *           through the x32 transpose kernel (bands of 16 columns; SIMD128
 *           4 x 4 register blocks): NCHW <-> NHWC, 2-D, attention's K^T;
 *   GATHER  other element sizes (int64, uint8, bool...) whose innermost
 *           dim moves: each output row gathers n elements x_stride apart
 *           (the loop Transpose always ran, now over the merged dims).
 * It starts with wnn_transpose_params, which the reference reads. */
enum { TRANSPOSE_ROWS = 0, TRANSPOSE_PLANES = 1, TRANSPOSE_GATHER = 2 };
typedef struct transpose_plan {
  wnn_transpose_params base;
  int mode;                        /* TRANSPOSE_* */
  int n_outer;
  size_t outer_count;              /* product of the outer dims; 0: empty tensor */
  size_t outer_dims[WNN_MAX_DIMS], outer_x[WNN_MAX_DIMS], outer_y[WNN_MAX_DIMS];
  size_t n, x_stride;              /* ROWS, GATHER: a row of n; PLANES: rows = n */
  size_t cols, y_stride;           /* PLANES */
  wnn_x32_transpose_ukernel *x32;
} transpose_plan;
WNN_PARAMS_FIT(transpose_plan);

static void transpose_plan_make(transpose_plan *p, const wnn_tdesc *x, wnn_kernels kernels) {
  const int nd_in = p->base.ndim;
  size_t x_strides[WNN_MAX_DIMS], stride = 1;
  for (int d = nd_in - 1; d >= 0; d--) x_strides[d] = stride, stride *= (size_t)x->dims[d];
  const size_t count = stride;
  /* Merged output dims, outermost first, with their input strides. */
  size_t dims[WNN_MAX_DIMS], xs[WNN_MAX_DIMS], ys[WNN_MAX_DIMS];
  int nd = 0;
  for (int i = 0; i < nd_in; i++) {
    const size_t n = (size_t)x->dims[p->base.perm[i]], s = x_strides[p->base.perm[i]];
    if (n == 1) continue;
    if (nd > 0 && xs[nd - 1] == s * n) {
      dims[nd - 1] *= n, xs[nd - 1] = s;
    } else {
      dims[nd] = n, xs[nd] = s, nd++;
    }
  }
  stride = 1;
  for (int d = nd - 1; d >= 0; d--) ys[d] = stride, stride *= dims[d];

  p->outer_count = count ? 1 : 0;
  p->mode = TRANSPOSE_ROWS;
  p->n = 1;
  p->x32 = NULL;
  if (nd == 0 || count == 0) return; /* one element, or none */
  const int last = nd - 1;
  int inner = -1; /* the merged dim that is the input's innermost */
  for (int d = 0; d < nd; d++)
    if (xs[d] == 1) inner = d;
  p->n = dims[last];
  p->x_stride = xs[last];
  if (xs[last] != 1 && p->base.elem_size == 4 && inner >= 0 &&
      (p->x32 = wnn_select_x32_transpose(kernels)) != NULL) {
    p->mode = TRANSPOSE_PLANES;
    p->cols = dims[inner];
    p->y_stride = ys[inner];
  } else {
    p->mode = xs[last] == 1 ? TRANSPOSE_ROWS : TRANSPOSE_GATHER;
    inner = -1;
  }
  for (int d = 0; d < last; d++) {
    if (d == inner) continue;
    p->outer_dims[p->n_outer] = dims[d];
    p->outer_x[p->n_outer] = xs[d];
    p->outer_y[p->n_outer] = ys[d];
    p->outer_count *= dims[d];
    p->n_outer++;
  }
}

wnn_status wnn_transpose_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Transpose";
  transpose_plan *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = expect_any_dtype(ctx, OP, 0, "data"))) return st;
  int64_t perm[WNN_MAX_DIMS];
  int count;
  if ((st = wnn_attr_ints(ctx, "perm", perm, WNN_MAX_DIMS, &count))) return st;
  if (count < 0) { /* default: reverse the dimensions */
    count = x->ndim;
    for (int i = 0; i < count; i++) perm[i] = count - 1 - i;
  }
  if (count != x->ndim)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: perm has %d values, input has %d dims",
                       OP, count, x->ndim);
  bool seen[WNN_MAX_DIMS] = {false};
  int64_t out[WNN_MAX_DIMS];
  for (int i = 0; i < count; i++) {
    if (perm[i] < 0 || perm[i] >= count || seen[perm[i]])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: perm is not a permutation of 0..%d (perm[%d] = %lld)", OP, count - 1,
                         i, (long long)perm[i]);
    seen[perm[i]] = true;
    p->base.perm[i] = (int)perm[i];
    out[i] = x->dims[perm[i]];
  }
  p->base.ndim = count;
  p->base.elem_size = wnn_dtype_size(x->dtype);
  if ((st = wnn_set_output(ctx, OP, 0, x->dtype, count, out))) return st;
  transpose_plan_make(p, x, ctx->kernels);
  return WNN_OK;
}

/* Copies n elements of `size` bytes from src, `stride` elements apart, to
 * consecutive dst. */
static void gather(char *dst, const char *src, size_t n, size_t stride, size_t size) {
  switch (size) {
    case 4:
      for (size_t i = 0; i < n; i++) memcpy(dst + 4 * i, src + 4 * i * stride, 4);
      break;
    case 8:
      for (size_t i = 0; i < n; i++) memcpy(dst + 8 * i, src + 8 * i * stride, 8);
      break;
    default:
      for (size_t i = 0; i < n; i++) memcpy(dst + size * i, src + size * i * stride, size);
  }
}

wnn_status wnn_transpose_run(const wnn_run_ctx *ctx) {
  const transpose_plan *p = ctx->params;
  const char *src = ctx->inputs[0].data;
  char *dst = ctx->outputs[0].data;
  const size_t size = p->base.elem_size;
  size_t idx[WNN_MAX_DIMS] = {0}, xo = 0, yo = 0;
  for (size_t t = 0; t < p->outer_count; t++) {
    const char *s = src + xo * size;
    char *d = dst + yo * size;
    if (p->mode == TRANSPOSE_ROWS)
      memcpy(d, s, p->n * size);
    else if (p->mode == TRANSPOSE_PLANES)
      p->x32(p->n, p->cols, (const uint32_t *)(const void *)s, p->x_stride,
             (uint32_t *)(void *)d, p->y_stride);
    else
      gather(d, s, p->n, p->x_stride, size);
    for (int k = p->n_outer - 1; k >= 0; k--) { /* odometer over the outer dims */
      xo += p->outer_x[k], yo += p->outer_y[k];
      if (++idx[k] < p->outer_dims[k]) break;
      xo -= p->outer_x[k] * idx[k], yo -= p->outer_y[k] * idx[k];
      idx[k] = 0;
    }
  }
  return WNN_OK;
}

/* --------------------------------------------------------------- Concat */

wnn_status wnn_concat_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Concat";
  wnn_concat_params *p = ctx->params;
  const wnn_tdesc *x0 = &ctx->inputs[0];
  wnn_status st;
  int64_t axis_attr;
  if ((st = expect_any_dtype(ctx, OP, 0, "inputs"))) return st;
  if ((st = wnn_attr_int(ctx, "axis", INT64_MIN, &axis_attr))) return st;
  if (axis_attr == INT64_MIN)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axis is required", OP);
  if (x0->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 is a scalar; Concat needs at least 1 dim",
                       OP);
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis_attr, x0->ndim, false, &p->axis))) return st;
  int64_t out[WNN_MAX_DIMS];
  memcpy(out, x0->dims, (size_t)x0->ndim * sizeof out[0]);
  for (int i = 1; i < ctx->num_inputs; i++) {
    const wnn_tdesc *xi = &ctx->inputs[i];
    if ((st = wnn_expect_dtype(ctx, OP, i, "inputs", x0->dtype))) return st;
    if ((st = wnn_expect_ndim(ctx, OP, i, "inputs", x0->ndim))) return st;
    for (int d = 0; d < x0->ndim; d++)
      if (d != p->axis && xi->dims[d] != x0->dims[d])
        return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                           "%s: input %d has %lld at dim %d, input 0 has %lld (only axis %d may "
                           "differ)",
                           OP, i, (long long)xi->dims[d], d, (long long)x0->dims[d], p->axis);
    if (xi->dims[p->axis] > INT64_MAX - out[p->axis])
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: concatenated axis overflows", OP);
    out[p->axis] += xi->dims[p->axis];
  }
  p->elem_size = wnn_dtype_size(x0->dtype);
  return wnn_set_output(ctx, OP, 0, x0->dtype, x0->ndim, out);
}

wnn_status wnn_concat_run(const wnn_run_ctx *ctx) {
  const wnn_concat_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  /* Each input contributes, per outer index, one block of its axis dim times
   * the inner size. */
  const size_t outer = (size_t)wnn_shape_numel(p->axis, y->dims);
  const size_t inner = (size_t)wnn_shape_numel(y->ndim - p->axis - 1, y->dims + p->axis + 1) *
                       p->elem_size;
  char *dst = y->data;
  for (size_t o = 0; o < outer; o++) {
    for (int i = 0; i < ctx->num_inputs; i++) {
      const wnn_tensor *x = &ctx->inputs[i];
      const size_t block = (size_t)x->dims[p->axis] * inner;
      if (block) memcpy(dst, (const char *)x->data + o * block, block);
      dst += block;
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

static const char *const axis_attrs[] = {"axis", NULL};

WNN_ALIAS_OP_DEFINE(reshape, "Reshape", 2, 2, 1, 1, WNN_ATTRS("allowzero"));
WNN_ALIAS_OP_DEFINE(flatten, "Flatten", 1, 1, 1, 1, axis_attrs);
WNN_OP_DEFINE(transpose, "Transpose", 0, 1, 1, 1, 1, WNN_ATTRS("perm"));
WNN_OP_DEFINE(concat, "Concat", 0, 1, WNN_MAX_IO, 1, 1, axis_attrs);
WNN_ALIAS_OP_DEFINE(identity, "Identity", 1, 1, 1, 1, NULL);
