/*
 * Element-wise indexing, masking and selection ops (ONNX opset 18-21):
 *   GatherElements, GatherND,                   indices checked at run;
 *   ScatterElements, ScatterND
 *   Trilu                                       k read at run;
 *   OneHot                                      constant depth;
 *   TopK                                        constant k; sorts in scratch.
 */
#include <math.h>
#include <string.h>

#include "ops/tensor_internal.h"

WNN_PARAMS_FIT(wnn_compress_params);
WNN_PARAMS_FIT(wnn_reversesequence_params);

WNN_PARAMS_FIT(wnn_elements_params);
WNN_PARAMS_FIT(wnn_scatternd_params);
WNN_PARAMS_FIT(wnn_gathernd_params);
WNN_PARAMS_FIT(wnn_trilu_params);
WNN_PARAMS_FIT(wnn_onehot_params);
WNN_PARAMS_FIT(wnn_topk_params);

static void strides_of(int ndim, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int d = ndim - 1; d >= 0; d--) strides[d] = s, s *= dims[d];
}

static wnn_status expect_index_dtype(wnn_prepare_ctx *ctx, const char *op, int i,
                                     const char *name) {
  wnn_status st = wnn_expect_present(ctx, op, i, name);
  if (st) return st;
  const wnn_dtype d = ctx->inputs[i].dtype;
  if (d == WNN_DTYPE_I64 || d == WNN_DTYPE_I32) return WNN_OK;
  return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected int64 or int32", op, i,
                     name, wnn_dtype_name(d));
}

static wnn_status read_reduction(wnn_prepare_ctx *ctx, const char *op, wnn_dtype dtype,
                                 int *out) {
  const char *r;
  wnn_status st = wnn_attr_string(ctx, "reduction", "none", &r);
  if (st) return st;
  static const char *const names[5] = {"none", "add", "mul", "max", "min"};
  *out = -1;
  for (int i = 0; i < 5; i++)
    if (strcmp(r, names[i]) == 0) *out = i;
  if (*out < 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: reduction '%s', expected none, add, mul, max or min", op, r);
  if (*out != WNN_SCATTER_NONE && dtype != WNN_DTYPE_F32 && dtype != WNN_DTYPE_I32 &&
      dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: reduction '%s' on %s; float32, int32 or int64 only",
                       op, r, wnn_dtype_name(dtype));
  return WNN_OK;
}

/* ------------------------------------- GatherElements, ScatterElements */

/* Checks that indices (input 1) has data's rank and fits it off the axis. */
static wnn_status elements_common(wnn_prepare_ctx *ctx, const char *op, wnn_elements_params *p) {
  const wnn_tdesc *x = &ctx->inputs[0], *idx = &ctx->inputs[1];
  wnn_status st;
  int64_t axis;
  if ((st = wnn_expect_present(ctx, op, 0, "data"))) return st;
  if ((st = expect_index_dtype(ctx, op, 1, "indices"))) return st;
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (data) is a scalar; it needs a dim", op);
  if ((st = wnn_expect_ndim(ctx, op, 1, "indices", x->ndim))) return st;
  if ((st = wnn_attr_int(ctx, "axis", 0, &axis))) return st;
  if ((st = wnn_normalize_axis(ctx, op, "axis", axis, x->ndim, false, &p->axis))) return st;
  for (int d = 0; d < x->ndim; d++)
    if (d != p->axis && idx->dims[d] > x->dims[d])
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: indices has %lld at dim %d, data has %lld", op,
                         (long long)idx->dims[d], d, (long long)x->dims[d]);
  p->elem_size = wnn_dtype_size(x->dtype);
  p->dtype = x->dtype;
  p->index_dtype = idx->dtype;
  return WNN_OK;
}

wnn_status wnn_gatherelements_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "GatherElements";
  wnn_elements_params *p = ctx->params;
  wnn_status st = elements_common(ctx, OP, p);
  if (st) return st;
  return wnn_set_output(ctx, OP, 0, ctx->inputs[0].dtype, ctx->inputs[1].ndim,
                        ctx->inputs[1].dims);
}

/* Walks the indices tensor: calls back with each element's position t and
 * the data offset of its coordinates with the axis coordinate left at 0.
 * First checks every index; returns the failing one's position, or -1. */
typedef struct elements_walk {
  const wnn_elements_params *p;
  const wnn_tensor *x, *idx;
} elements_walk;

static int64_t elements_check(const elements_walk *w) {
  const size_t n = (size_t)wnn_shape_numel(w->idx->ndim, w->idx->dims);
  const int64_t dim = w->x->dims[w->p->axis];
  for (size_t t = 0; t < n; t++) {
    const int64_t i = wnn_index_at(w->p->index_dtype, w->idx->data, t);
    if (i < -dim || i >= dim) return (int64_t)t;
  }
  return -1;
}

static wnn_status elements_fail(const wnn_run_ctx *ctx, const char *op, const elements_walk *w,
                                int64_t t) {
  return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                      "%s: indices[%lld] = %lld is out of range for axis %d of size %lld", op,
                      (long long)t, (long long)wnn_index_at(w->p->index_dtype, w->idx->data,
                                                            (size_t)t),
                      w->p->axis, (long long)w->x->dims[w->p->axis]);
}

/* Data offset (in elements) of every index element, in order, via fn. */
#define ELEMENTS_FOR_EACH(w, body)                                                   \
  do {                                                                               \
    int64_t xs_[WNN_MAX_DIMS], pos_[WNN_MAX_DIMS] = {0}, base_ = 0;                  \
    strides_of((w)->x->ndim, (w)->x->dims, xs_);                                     \
    const int nd_ = (w)->idx->ndim, ax_ = (w)->p->axis;                              \
    const int64_t dim_ = (w)->x->dims[ax_];                                          \
    const size_t n_ = (size_t)wnn_shape_numel(nd_, (w)->idx->dims);                  \
    for (size_t t = 0; t < n_; t++) {                                                \
      int64_t j_ = wnn_index_at((w)->p->index_dtype, (w)->idx->data, t);             \
      if (j_ < 0) j_ += dim_;                                                        \
      const int64_t off = base_ + j_ * xs_[ax_];                                     \
      body;                                                                          \
      for (int d_ = nd_ - 1; d_ >= 0; d_--) {                                        \
        if (d_ != ax_) base_ += xs_[d_];                                             \
        if (++pos_[d_] < (w)->idx->dims[d_]) break;                                  \
        if (d_ != ax_) base_ -= xs_[d_] * pos_[d_];                                  \
        pos_[d_] = 0;                                                                \
      }                                                                              \
    }                                                                                \
  } while (0)

wnn_status wnn_gatherelements_run(const wnn_run_ctx *ctx) {
  const wnn_elements_params *p = ctx->params;
  const elements_walk w = {p, &ctx->inputs[0], &ctx->inputs[1]};
  const int64_t bad = elements_check(&w);
  if (bad >= 0) return elements_fail(ctx, "GatherElements", &w, bad);
  const size_t size = p->elem_size;
  char *dst = ctx->outputs[0].data;
  const char *src = w.x->data;
  ELEMENTS_FOR_EACH(&w, memcpy(dst + t * size, src + off * (int64_t)size, size));
  return WNN_OK;
}

wnn_status wnn_scatterelements_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "ScatterElements";
  wnn_elements_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *idx = &ctx->inputs[1];
  wnn_status st = elements_common(ctx, OP, p);
  if (st) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 2, "updates", x->dtype))) return st;
  if (!wnn_shape_equal(idx->ndim, idx->dims, ctx->inputs[2].ndim, ctx->inputs[2].dims))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (updates) must have the shape of indices",
                       OP);
  if ((st = read_reduction(ctx, OP, x->dtype, &p->reduction))) return st;
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

wnn_status wnn_scatterelements_run(const wnn_run_ctx *ctx) {
  const wnn_elements_params *p = ctx->params;
  const elements_walk w = {p, &ctx->inputs[0], &ctx->inputs[1]};
  const int64_t bad = elements_check(&w);
  if (bad >= 0) return elements_fail(ctx, "ScatterElements", &w, bad);
  const size_t size = p->elem_size;
  char *dst = ctx->outputs[0].data;
  const char *upd = ctx->inputs[2].data;
  memcpy(dst, w.x->data, (size_t)wnn_shape_numel(w.x->ndim, w.x->dims) * size);
  ELEMENTS_FOR_EACH(&w, wnn_scatter_apply(p->reduction, p->dtype, dst + off * (int64_t)size,
                                          upd + t * size, size));
  return WNN_OK;
}

/* ------------------------------------------------------------ ScatterND */

wnn_status wnn_scatternd_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "ScatterND";
  wnn_scatternd_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *idx = &ctx->inputs[1], *u = &ctx->inputs[2];
  wnn_status st;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "indices", WNN_DTYPE_I64))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 2, "updates", x->dtype))) return st;
  if (idx->ndim < 1 || idx->dims[idx->ndim - 1] > x->ndim || x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (indices) must have a last dim of at most data's rank %d", OP,
                       x->ndim);
  p->k = (int)idx->dims[idx->ndim - 1];
  /* updates: indices.shape[:-1] + data.shape[k:] */
  int64_t want[2 * WNN_MAX_DIMS];
  int n = 0;
  for (int d = 0; d < idx->ndim - 1; d++) want[n++] = idx->dims[d];
  for (int d = p->k; d < x->ndim; d++) want[n++] = x->dims[d];
  if (!wnn_shape_equal(u->ndim, u->dims, n, want))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 2 (updates) must be indices.shape[:-1] + data.shape[%d:]", OP,
                       p->k);
  if ((st = read_reduction(ctx, OP, x->dtype, &p->reduction))) return st;
  p->count = (size_t)wnn_shape_numel(idx->ndim - 1, idx->dims);
  p->slice = (size_t)wnn_shape_numel(x->ndim - p->k, x->dims + p->k);
  p->elem_size = wnn_dtype_size(x->dtype);
  p->dtype = x->dtype;
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

wnn_status wnn_scatternd_run(const wnn_run_ctx *ctx) {
  const wnn_scatternd_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const int64_t *idx = ctx->inputs[1].data;
  for (size_t t = 0; t < p->count; t++) /* check every index before writing */
    for (int j = 0; j < p->k; j++) {
      const int64_t i = idx[t * (size_t)p->k + (size_t)j], dim = x->dims[j];
      if (i < -dim || i >= dim)
        return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                            "ScatterND: indices[%zu][%d] = %lld is out of range for dim %d of "
                            "size %lld",
                            t, j, (long long)i, j, (long long)dim);
    }
  int64_t xs[WNN_MAX_DIMS];
  strides_of(x->ndim, x->dims, xs);
  const size_t size = p->elem_size;
  char *dst = ctx->outputs[0].data;
  const char *upd = ctx->inputs[2].data;
  memcpy(dst, x->data, (size_t)wnn_shape_numel(x->ndim, x->dims) * size);
  for (size_t t = 0; t < p->count; t++) {
    int64_t off = 0;
    for (int j = 0; j < p->k; j++) {
      const int64_t i = idx[t * (size_t)p->k + (size_t)j];
      off += (i < 0 ? i + x->dims[j] : i) * xs[j];
    }
    for (size_t e = 0; e < p->slice; e++)
      wnn_scatter_apply(p->reduction, p->dtype, dst + ((size_t)off + e) * size,
                        upd + (t * p->slice + e) * size, size);
  }
  return WNN_OK;
}

/* ------------------------------------------------------------- GatherND */

wnn_status wnn_gathernd_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "GatherND";
  wnn_gathernd_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *idx = &ctx->inputs[1];
  wnn_status st;
  int64_t b;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "indices", WNN_DTYPE_I64))) return st;
  if ((st = wnn_attr_int(ctx, "batch_dims", 0, &b))) return st;
  if (x->ndim < 1 || idx->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: data and indices need at least 1 dim", OP);
  if (b < 0 || b >= x->ndim || b >= idx->ndim)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: batch_dims = %lld, must be below both ranks (%d, %d)", OP,
                       (long long)b, x->ndim, idx->ndim);
  const int64_t k = idx->dims[idx->ndim - 1];
  if (k < 1 || k > x->ndim - b)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: indices' last dim is %lld, must be in [1, %lld]", OP, (long long)k,
                       (long long)(x->ndim - b));
  for (int d = 0; d < b; d++)
    if (idx->dims[d] != x->dims[d])
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: batch dim %d is %lld in indices and %lld in data", OP, d,
                         (long long)idx->dims[d], (long long)x->dims[d]);
  /* Output: indices.shape[:-1] + data.shape[b + k:]. */
  int64_t out[2 * WNN_MAX_DIMS];
  int n = 0;
  for (int d = 0; d < idx->ndim - 1; d++) out[n++] = idx->dims[d];
  for (int d = (int)(b + k); d < x->ndim; d++) out[n++] = x->dims[d];
  int64_t xs[WNN_MAX_DIMS];
  strides_of(x->ndim, x->dims, xs);
  p->batch_dims = (int)b;
  p->k = (int)k;
  p->batch = (size_t)wnn_shape_numel((int)b, x->dims);
  p->tuples = (size_t)wnn_shape_numel(idx->ndim - 1 - (int)b, idx->dims + b);
  p->slice = (size_t)wnn_shape_numel(x->ndim - (int)(b + k), x->dims + b + k);
  p->batch_stride = (size_t)wnn_shape_numel(x->ndim - (int)b, x->dims + b);
  p->elem_size = wnn_dtype_size(x->dtype);
  for (int j = 0; j < k; j++) p->dims[j] = x->dims[b + j], p->strides[j] = xs[b + j];
  return wnn_set_output(ctx, OP, 0, x->dtype, n, out);
}

wnn_status wnn_gathernd_run(const wnn_run_ctx *ctx) {
  const wnn_gathernd_params *p = ctx->params;
  const int64_t *idx = ctx->inputs[1].data;
  const size_t total = p->batch * p->tuples;
  for (size_t t = 0; t < total; t++) /* check every index before writing */
    for (int j = 0; j < p->k; j++) {
      const int64_t i = idx[t * (size_t)p->k + (size_t)j], dim = p->dims[j];
      if (i < -dim || i >= dim)
        return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                            "GatherND: indices[%zu][%d] = %lld is out of range for data dim %d "
                            "of size %lld",
                            t, j, (long long)i, p->batch_dims + j, (long long)dim);
    }
  const size_t size = p->elem_size, bytes = p->slice * size;
  const char *src = ctx->inputs[0].data;
  char *dst = ctx->outputs[0].data;
  for (size_t t = 0; t < total; t++) {
    int64_t off = (int64_t)((t / (p->tuples ? p->tuples : 1)) * p->batch_stride);
    for (int j = 0; j < p->k; j++) {
      const int64_t i = idx[t * (size_t)p->k + (size_t)j];
      off += (i < 0 ? i + p->dims[j] : i) * p->strides[j];
    }
    if (bytes) memcpy(dst + t * bytes, src + (size_t)off * size, bytes);
  }
  return WNN_OK;
}

/* ---------------------------------------------------------------- Trilu */

wnn_status wnn_trilu_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Trilu";
  wnn_trilu_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t upper;
  if ((st = wnn_expect_present(ctx, OP, 0, "input"))) return st;
  if (x->ndim < 2)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (input) has %d dims, needs at least 2", OP,
                       x->ndim);
  if (wnn_has_input(ctx, 1)) {
    if ((st = wnn_expect_dtype(ctx, OP, 1, "k", WNN_DTYPE_I64))) return st;
    if (wnn_shape_numel(ctx->inputs[1].ndim, ctx->inputs[1].dims) != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (k) must be a scalar", OP);
  }
  if ((st = wnn_attr_int(ctx, "upper", 1, &upper))) return st;
  if (upper != 0 && upper != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: upper = %lld, must be 0 or 1", OP,
                       (long long)upper);
  p->upper = upper == 1;
  p->rows = (size_t)x->dims[x->ndim - 2];
  p->cols = (size_t)x->dims[x->ndim - 1];
  p->batch = (size_t)wnn_shape_numel(x->ndim - 2, x->dims);
  p->elem_size = wnn_dtype_size(x->dtype);
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

wnn_status wnn_trilu_run(const wnn_run_ctx *ctx) {
  const wnn_trilu_params *p = ctx->params;
  int64_t k = 0;
  if (ctx->num_inputs > 1 && ctx->inputs[1].data) memcpy(&k, ctx->inputs[1].data, sizeof k);
  const size_t size = p->elem_size, row = p->cols * size;
  const char *src = ctx->inputs[0].data;
  char *dst = ctx->outputs[0].data;
  /* Row i keeps columns j with j - i >= k (upper) or j - i <= k (lower). */
  const int64_t cols = (int64_t)p->cols;
  for (size_t b = 0; b < p->batch; b++) {
    for (size_t i = 0; i < p->rows; i++) {
      const size_t at = (b * p->rows + i) * row;
      int64_t lo, hi; /* kept columns [lo, hi) */
      /* k beyond [-rows, cols] keeps all or nothing; clamping keeps the
       * arithmetic small. */
      const int64_t rows = (int64_t)p->rows;
      const int64_t edge = (int64_t)i + (k < -rows - 1 ? -rows - 1 : k > cols + 1 ? cols + 1 : k);
      if (p->upper) lo = edge, hi = cols;
      else lo = 0, hi = edge + 1;
      lo = lo < 0 ? 0 : lo > cols ? cols : lo;
      hi = hi < lo ? lo : hi > cols ? cols : hi;
      memset(dst + at, 0, row);
      memcpy(dst + at + (size_t)lo * size, src + at + (size_t)lo * size, (size_t)(hi - lo) * size);
    }
  }
  return WNN_OK;
}

/* --------------------------------------------------------------- OneHot */

wnn_status wnn_onehot_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "OneHot";
  wnn_onehot_params *p = ctx->params;
  const wnn_tdesc *idx = &ctx->inputs[0], *depth = &ctx->inputs[1], *vals = &ctx->inputs[2];
  static const char *const names[3] = {"indices", "depth", "values"};
  wnn_status st;
  for (int i = 0; i < 3; i++) {
    if ((st = wnn_expect_present(ctx, OP, i, names[i]))) return st;
    const wnn_dtype d = ctx->inputs[i].dtype;
    if (i < 2 && d != WNN_DTYPE_F32 && d != WNN_DTYPE_I64 && d != WNN_DTYPE_I32)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected float32, int32 or "
                         "int64", OP, i, names[i], wnn_dtype_name(d));
  }
  if (wnn_shape_numel(depth->ndim, depth->dims) != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (depth) must hold one value", OP);
  if (!depth->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: input 1 (depth) must be a constant", OP);
  if (vals->ndim != 1 || vals->dims[0] != 2)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (values) must be [off_value, on_value]",
                       OP);
  const double dv = wnn_elem_as_double(depth->dtype, depth->data, 0);
  if (!(dv >= 1 && dv <= (double)INT32_MAX))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: depth is %g, must be in [1, 2^31)", OP, dv);
  p->depth = (int64_t)dv;
  int64_t axis_attr;
  int axis;
  if ((st = wnn_attr_int(ctx, "axis", -1, &axis_attr))) return st;
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis_attr, idx->ndim + 1, false, &axis))) return st;
  if (idx->ndim + 1 > WNN_MAX_DIMS)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output would have %d dims, at most %d", OP,
                       idx->ndim + 1, WNN_MAX_DIMS);
  int64_t out[WNN_MAX_DIMS];
  for (int d = 0, k = 0; d <= idx->ndim; d++) out[d] = d == axis ? p->depth : idx->dims[k++];
  p->axis = axis;
  p->outer = (size_t)wnn_shape_numel(axis, idx->dims);
  p->inner = (size_t)wnn_shape_numel(idx->ndim - axis, idx->dims + axis);
  p->elem_size = wnn_dtype_size(vals->dtype);
  p->index_dtype = idx->dtype;
  return wnn_set_output(ctx, OP, 0, vals->dtype, idx->ndim + 1, out);
}

wnn_status wnn_onehot_run(const wnn_run_ctx *ctx) {
  const wnn_onehot_params *p = ctx->params;
  const void *idx = ctx->inputs[0].data;
  const char *off = ctx->inputs[2].data, *on = off + p->elem_size;
  char *dst = ctx->outputs[0].data;
  const size_t size = p->elem_size, depth = (size_t)p->depth;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t d = 0; d < depth; d++)
      for (size_t i = 0; i < p->inner; i++)
        memcpy(dst + ((o * depth + d) * p->inner + i) * size, off, size);
  for (size_t o = 0; o < p->outer; o++) {
    for (size_t i = 0; i < p->inner; i++) {
      /* Float indices truncate; outside [-depth, depth) gives all off. */
      const double v = trunc(wnn_elem_as_double(p->index_dtype, idx, o * p->inner + i));
      if (!(v >= -(double)depth && v < (double)depth)) continue;
      const size_t d = (size_t)(v < 0 ? v + (double)depth : v);
      memcpy(dst + ((o * depth + d) * p->inner + i) * size, on, size);
    }
  }
  return WNN_OK;
}

/* ----------------------------------------------------------------- TopK */

wnn_status wnn_topk_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "TopK";
  wnn_topk_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axis_attr, largest, sorted, k[1];
  int n_k;
  if ((st = wnn_expect_present(ctx, OP, 0, "X"))) return st;
  if (x->dtype != WNN_DTYPE_F32 && x->dtype != WNN_DTYPE_I32 && x->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (X) is %s, expected float32, int32 or "
                       "int64", OP, wnn_dtype_name(x->dtype));
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) is a scalar; it needs a dim", OP);
  if ((st = wnn_const_ints(ctx, OP, 1, "K", false, 1, k, &n_k))) return st;
  if (n_k != 1) return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (K) must hold one value", OP);
  if ((st = wnn_attr_int(ctx, "axis", -1, &axis_attr))) return st;
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis_attr, x->ndim, false, &p->axis))) return st;
  if ((st = wnn_attr_int(ctx, "largest", 1, &largest))) return st;
  if ((st = wnn_attr_int(ctx, "sorted", 1, &sorted))) return st;
  if ((largest != 0 && largest != 1) || (sorted != 0 && sorted != 1))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: largest = %lld and sorted = %lld must be 0 or 1", OP,
                       (long long)largest, (long long)sorted);
  const int64_t n = x->dims[p->axis];
  if (k[0] < 0 || k[0] > n)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: K = %lld, axis %d has %lld elements", OP,
                       (long long)k[0], p->axis, (long long)n);
  p->largest = largest == 1;
  p->dtype = x->dtype;
  p->n = (size_t)n;
  p->k = (size_t)k[0];
  p->outer = (size_t)wnn_shape_numel(p->axis, x->dims);
  p->inner = (size_t)wnn_shape_numel(x->ndim - p->axis - 1, x->dims + p->axis + 1);
  ctx->scratch_bytes = p->n * sizeof(size_t);
  int64_t out[WNN_MAX_DIMS];
  memcpy(out, x->dims, (size_t)x->ndim * sizeof out[0]);
  out[p->axis] = k[0];
  if ((st = wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, out))) return st;
  return wnn_set_output(ctx, OP, 1, WNN_DTYPE_I64, x->ndim, out);
}

/* -1, 0 or 1 as element a of the row compares with b; NaN is above
 * everything. */
static int topk_cmp(wnn_dtype dtype, const void *row, size_t stride, size_t a, size_t b) {
  if (dtype == WNN_DTYPE_F32) {
    const float x = ((const float *)row)[a * stride], y = ((const float *)row)[b * stride];
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return (x > y) - (x < y);
  }
  const int64_t x = wnn_index_at(dtype, row, a * stride), y = wnn_index_at(dtype, row, b * stride);
  return (x > y) - (x < y);
}

typedef struct topk_row {
  const wnn_topk_params *p;
  const void *row;
  size_t stride;
} topk_row;

/* True when element a goes before element b in the output: the larger (or
 * smaller) value, the lower index on ties. */
static bool topk_before(const topk_row *r, size_t a, size_t b) {
  const int c = topk_cmp(r->p->dtype, r->row, r->stride, a, b);
  if (c != 0) return r->p->largest ? c > 0 : c < 0;
  return a < b;
}

static void sift_down(const topk_row *r, size_t *h, size_t root, size_t end) {
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= end) return;
    /* A max-heap under "before": the root goes last. */
    if (child + 1 < end && topk_before(r, h[child], h[child + 1])) child++;
    if (!topk_before(r, h[root], h[child])) return;
    const size_t t = h[root];
    h[root] = h[child], h[child] = t;
    root = child;
  }
}

wnn_status wnn_topk_run(const wnn_run_ctx *ctx) {
  const wnn_topk_params *p = ctx->params;
  size_t *order = ctx->scratch;
  const size_t esize = wnn_dtype_size(p->dtype);
  const char *x = ctx->inputs[0].data;
  char *vals = ctx->outputs[0].data;
  int64_t *inds = ctx->outputs[1].data;
  for (size_t o = 0; o < p->outer; o++) {
    for (size_t in = 0; in < p->inner; in++) {
      const topk_row r = {p, x + (o * p->n * p->inner + in) * esize, p->inner};
      const size_t n = p->n;
      for (size_t i = 0; i < n; i++) order[i] = i;
      /* Heap sort into output order. */
      for (size_t i = n / 2; i-- > 0;) sift_down(&r, order, i, n);
      for (size_t end = n; end > 1; end--) {
        const size_t t = order[0];
        order[0] = order[end - 1], order[end - 1] = t;
        sift_down(&r, order, 0, end - 1);
      }
      for (size_t j = 0; j < p->k; j++) {
        const size_t at = (o * p->k + j) * p->inner + in;
        memcpy(vals + at * esize, (const char *)r.row + order[j] * p->inner * esize, esize);
        inds[at] = (int64_t)order[j];
      }
    }
  }
  return WNN_OK;
}

/* -------------------------------------------------------------- Compress */

wnn_status wnn_compress_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Compress";
  wnn_compress_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *c = &ctx->inputs[1];
  wnn_status st;
  if (x->dtype == WNN_DTYPE_INVALID || wnn_dtype_size(x->dtype) == 0)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (input) has no dtype", OP);
  if (c->dtype != WNN_DTYPE_BOOL)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (condition) is %s, expected bool", OP,
                       wnn_dtype_name(c->dtype));
  if (c->ndim != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (condition) has %d dims, expected 1", OP,
                       c->ndim);
  const size_t len = (size_t)c->dims[0];
  if (!c->data && len > 0)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 1 (condition) must be a constant (it decides the output shape)",
                       OP);
  const bool has_axis = wnn_attr_has(ctx, "axis");
  int64_t axis;
  int ax = 0;
  if ((st = wnn_attr_int(ctx, "axis", 0, &axis))) return st;
  int64_t out[WNN_MAX_DIMS];
  int nd;
  if (has_axis) {
    if ((st = wnn_normalize_axis(ctx, OP, "axis", axis, x->ndim, false, &ax))) return st;
    p->outer = (size_t)wnn_shape_numel(ax, x->dims);
    p->n = (size_t)x->dims[ax];
    p->inner = (size_t)wnn_shape_numel(x->ndim - ax - 1, x->dims + ax + 1);
    nd = x->ndim;
    memcpy(out, x->dims, sizeof out);
  } else { /* the flattened input */
    p->outer = 1, p->inner = 1;
    p->n = (size_t)wnn_shape_numel(x->ndim, x->dims);
    nd = 1;
  }
  if (len > p->n)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (condition) has %zu entries, more than the %zu along %s", OP,
                       len, p->n, has_axis ? "axis" : "the flattened input");
  p->len = len;
  p->elem_size = wnn_dtype_size(x->dtype);
  int64_t kept = 0;
  for (size_t i = 0; i < len; i++) kept += ((const unsigned char *)c->data)[i] != 0;
  out[has_axis ? ax : 0] = kept;
  return wnn_set_output(ctx, OP, 0, x->dtype, nd, out);
}

/* Copies, for every outer index, the inner blocks whose condition holds. The
 * condition is the constant prepare counted. */
wnn_status wnn_compress_run(const wnn_run_ctx *ctx) {
  const wnn_compress_params *p = ctx->params;
  const unsigned char *x = ctx->inputs[0].data, *cond = ctx->inputs[1].data;
  unsigned char *y = ctx->outputs[0].data;
  const size_t block = p->inner * p->elem_size;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t k = 0; k < p->len; k++)
      if (cond[k]) {
        memcpy(y, x + (o * p->n + k) * block, block);
        y += block;
      }
  return WNN_OK;
}

/* ------------------------------------------------------- ReverseSequence */

wnn_status wnn_reversesequence_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "ReverseSequence";
  wnn_reversesequence_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *l = &ctx->inputs[1];
  wnn_status st;
  int64_t batch_axis, time_axis;
  if (wnn_dtype_size(x->dtype) == 0)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (input) has no dtype", OP);
  if (x->ndim < 2)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (input) has %d dims, expected at least 2",
                       OP, x->ndim);
  if ((st = wnn_attr_int(ctx, "batch_axis", 1, &batch_axis))) return st;
  if ((st = wnn_attr_int(ctx, "time_axis", 0, &time_axis))) return st;
  if (!((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0)))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: batch_axis %lld and time_axis %lld must be 0 and 1 in some order", OP,
                       (long long)batch_axis, (long long)time_axis);
  p->batch_first = batch_axis == 0;
  p->batch = (size_t)x->dims[batch_axis];
  p->seq = (size_t)x->dims[time_axis];
  p->inner = (size_t)wnn_shape_numel(x->ndim - 2, x->dims + 2);
  p->elem_size = wnn_dtype_size(x->dtype);
  if ((st = wnn_expect_dtype(ctx, OP, 1, "sequence_lens", WNN_DTYPE_I64))) return st;
  if (l->ndim != 1 || l->dims[0] != x->dims[batch_axis])
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (sequence_lens) must be 1-D of length %lld (the batch)", OP,
                       (long long)x->dims[batch_axis]);
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

/* For each batch entry b with length L, the first L time steps are reversed
 * and the rest copied. A length outside [0, seq] fails the run. */
wnn_status wnn_reversesequence_run(const wnn_run_ctx *ctx) {
  const wnn_reversesequence_params *p = ctx->params;
  const unsigned char *x = ctx->inputs[0].data;
  const int64_t *lens = ctx->inputs[1].data;
  unsigned char *y = ctx->outputs[0].data;
  const size_t block = p->inner * p->elem_size;
  for (size_t b = 0; b < p->batch; b++)
    if (lens[b] < 0 || (uint64_t)lens[b] > p->seq)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                          "ReverseSequence: sequence_lens[%zu] is %lld, outside [0, %zu]", b,
                          (long long)lens[b], p->seq);
  for (size_t b = 0; b < p->batch; b++) {
    const size_t len = (size_t)lens[b];
    for (size_t t = 0; t < p->seq; t++) {
      const size_t src = t < len ? len - 1 - t : t;
      const size_t yo = p->batch_first ? b * p->seq + t : t * p->batch + b;
      const size_t xo = p->batch_first ? b * p->seq + src : src * p->batch + b;
      memcpy(y + yo * block, x + xo * block, block);
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

static const char *const axis_attrs[] = {"axis", NULL};

WNN_OP_DEFINE(gatherelements, "GatherElements", 0, 2, 2, 1, 1, axis_attrs);
WNN_OP_DEFINE(scatterelements, "ScatterElements", 0, 3, 3, 1, 1, WNN_ATTRS("axis", "reduction"));
WNN_OP_DEFINE(scatternd, "ScatterND", 0, 3, 3, 1, 1, WNN_ATTRS("reduction"));
WNN_OP_DEFINE(trilu, "Trilu", 0, 1, 2, 1, 1, WNN_ATTRS("upper"));
WNN_OP_DEFINE(onehot, "OneHot", 0, 3, 3, 1, 1, axis_attrs);
WNN_OP_DEFINE(topk, "TopK", 0, 2, 2, 2, 2, WNN_ATTRS("axis", "largest", "sorted"));
WNN_OP_DEFINE(gathernd, "GatherND", 0, 2, 2, 1, 1, WNN_ATTRS("batch_dims"));
WNN_OP_DEFINE(compress, "Compress", 0, 2, 2, 1, 1, WNN_ATTRS("axis"));
WNN_OP_DEFINE(reversesequence, "ReverseSequence", 0, 2, 2, 1, 1,
              WNN_ATTRS("batch_axis", "time_axis"));
