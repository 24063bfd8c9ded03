/*
 * Reductions, opset 18 form: ReduceSum, ReduceMean, ReduceMax, ReduceMin,
 * ReduceProd, ReduceSumSquare, ReduceL1, ReduceL2, ReduceLogSumExp,
 * ReduceLogSum (log of the sum) over the axes of optional input 1 (int64,
 * constant), with keepdims (1) and noop_with_empty_axes (0); and ArgMax,
 * ArgMin (axis, keepdims,
 * select_last_index; int64 output). float32; int32 and int64 too for
 * ReduceSum, ReduceMax, ReduceMin, ReduceProd (wrapping like Add and Mul) and
 * for ArgMax, ArgMin.
 *
 * An empty reduction gives the fold's identity: 0 for sums, 1 for Prod,
 * -inf for Max, LogSumExp and LogSum, +inf for Min, NaN for Mean (0 / 0); for
 * integers the type's lowest (Max) and highest (Min) values.
 */
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"

WNN_PARAMS_FIT(wnn_cumsum_params);

WNN_PARAMS_FIT(wnn_reduce_params);
WNN_PARAMS_FIT(wnn_argreduce_params);

static const char *const RED_NAMES[] = {"ReduceSum", "ReduceMean", "ReduceMax",
                                        "ReduceMin", "ReduceProd", "ReduceSumSquare",
                                        "ReduceL1",  "ReduceL2",   "ReduceLogSumExp",
                                        "ReduceLogSum"};

/* Reads the axes input (1) into reduced[]; *none when it is omitted or empty. */
static wnn_status read_axes(wnn_prepare_ctx *ctx, const char *op, int rank, bool *reduced,
                            bool *none) {
  *none = true;
  if (!wnn_has_input(ctx, 1)) return WNN_OK;
  const wnn_tdesc *t = &ctx->inputs[1];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, op, 1, "axes", WNN_DTYPE_I64))) return st;
  if (t->ndim > 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (axes) has %d dims, expected 1", op,
                       t->ndim);
  const int64_t n = wnn_shape_numel(t->ndim, t->dims);
  if (!t->data && n > 0) /* an empty axes tensor needs no data */
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 1 (axes) must be a constant (it decides the output shape)", op);
  const int64_t *axes = t->data;
  for (int64_t i = 0; i < n; i++) {
    const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < 0 || a >= rank)
      return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                         "%s: axes[%lld] is %lld, out of range for rank %d", op, (long long)i,
                         (long long)axes[i], rank);
    if (reduced[a])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes[%lld] repeats axis %lld", op,
                         (long long)i, (long long)a);
    reduced[a] = true;
  }
  *none = n == 0;
  return WNN_OK;
}

static wnn_status reduce_prepare(wnn_prepare_ctx *ctx, int red) {
  const char *op = RED_NAMES[red];
  wnn_reduce_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  bool keepdims = true, noop, none;
  int64_t kd;
  const bool int_ok = red == WNN_RED_SUM || red == WNN_RED_MAX || red == WNN_RED_MIN ||
                      red == WNN_RED_PROD;
  if (int_ok && (x->dtype == WNN_DTYPE_I32 || x->dtype == WNN_DTYPE_I64)) {
    p->dtype = x->dtype;
  } else if (x->dtype != WNN_DTYPE_F32) {
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (data) is %s, expected float32%s", op,
                       wnn_dtype_name(x->dtype), int_ok ? ", int32 or int64" : "");
  } else {
    p->dtype = WNN_DTYPE_F32;
  }
  if ((st = wnn_attr_int(ctx, "keepdims", 1, &kd))) return st;
  if (kd != 0 && kd != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: keepdims is %lld, expected 0 or 1", op,
                       (long long)kd);
  keepdims = kd == 1;
  if ((st = wnn_attr_bool(ctx, op, "noop_with_empty_axes", &noop))) return st;
  bool *reduced = p->axis_reduced;
  if ((st = read_axes(ctx, op, x->ndim, reduced, &none))) return st;
  p->op = red;
  if (none && noop) { /* the identity */
    p->copy = true;
    return wnn_set_output(ctx, op, 0, p->dtype, x->ndim, x->dims);
  }
  if (none)
    for (int i = 0; i < x->ndim; i++) reduced[i] = true;
  int64_t out[WNN_MAX_DIMS];
  int out_nd = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (!reduced[i]) out[out_nd++] = x->dims[i];
    else if (keepdims) out[out_nd++] = 1;
  }
  if ((st = wnn_set_output(ctx, op, 0, p->dtype, out_nd, out))) return st;
  /* Split into kept and reduced dims (merging neighbours of the same kind),
   * dropping size-1 dims, which change nothing. */
  size_t stride = 1;
  p->count = 1;
  int last = -1; /* kind of the previous dim kept: 0 kept, 1 reduced */
  size_t strides[WNN_MAX_DIMS];
  for (int i = x->ndim - 1; i >= 0; i--) strides[i] = stride, stride *= (size_t)x->dims[i];
  for (int i = 0; i < x->ndim; i++) {
    const size_t d = (size_t)x->dims[i];
    if (reduced[i]) p->count *= d;
    if (d == 1) continue;
    const int kind = reduced[i] ? 1 : 0;
    size_t *dims = kind ? p->rdims : p->kdims, *str = kind ? p->rstrides : p->kstrides;
    int *n = kind ? &p->nr : &p->nk;
    if (last == kind) { /* merge into the previous dim of this kind */
      dims[*n - 1] *= d;
      str[*n - 1] = strides[i];
    } else {
      dims[*n] = d, str[*n] = strides[i];
      (*n)++;
    }
    last = kind;
  }
  static const int KERNEL_OP[] = {WNN_REDUCE_SUM,    WNN_REDUCE_SUM,    WNN_REDUCE_MAX,
                                  WNN_REDUCE_MIN,    WNN_REDUCE_PROD,   WNN_REDUCE_SUMSQ,
                                  WNN_REDUCE_ABSSUM, WNN_REDUCE_SUMSQ,  WNN_REDUCE_EXPSUM,
                                  WNN_REDUCE_SUM};
  p->fn = wnn_select_f32_reduce(ctx->kernels, KERNEL_OP[red]);
  p->max_fn = wnn_select_f32_reduce(ctx->kernels, WNN_REDUCE_MAX);
  return WNN_OK;
}

/* Folds every reduced element of the output at x with fn, starting from acc. */
static float fold(const wnn_reduce_params *p, wnn_f32_reduce_ukernel *fn, const float *x,
                  float acc, float shift) {
  if (p->nr == 0) return fn(1, 1, x, acc, shift);
  const int outer = p->nr - 1;
  const size_t n = p->rdims[outer], s = p->rstrides[outer];
  size_t count = 1;
  for (int i = 0; i < outer; i++) count *= p->rdims[i];
  size_t idx[WNN_MAX_DIMS] = {0}, off = 0;
  for (size_t t = 0; t < count; t++) {
    acc = fn(n, s, x + off, acc, shift);
    for (int i = outer - 1; i >= 0; i--) {
      off += p->rstrides[i];
      if (++idx[i] < p->rdims[i]) break;
      off -= p->rstrides[i] * idx[i];
      idx[i] = 0;
    }
  }
  return acc;
}

static float reduce_one(const wnn_reduce_params *p, const float *x) {
  switch (p->op) {
    case WNN_RED_MAX: return fold(p, p->fn, x, -INFINITY, 0.0f);
    case WNN_RED_MIN: return fold(p, p->fn, x, INFINITY, 0.0f);
    case WNN_RED_PROD: return fold(p, p->fn, x, 1.0f, 0.0f);
    case WNN_RED_MEAN: return fold(p, p->fn, x, 0.0f, 0.0f) / (float)p->count;
    case WNN_RED_L2: return sqrtf(fold(p, p->fn, x, 0.0f, 0.0f));
    case WNN_RED_LOGSUM: return logf(fold(p, p->fn, x, 0.0f, 0.0f));
    case WNN_RED_LOGSUMEXP: {
      const float m = fold(p, p->max_fn, x, -INFINITY, 0.0f);
      if (!isfinite(m)) return m; /* empty or all -inf: -inf; any +inf: +inf; NaN */
      return m + logf(fold(p, p->fn, x, 0.0f, m));
    }
    default: return fold(p, p->fn, x, 0.0f, 0.0f);
  }
}

/* Integer Sum, Prod (wrapping: unsigned arithmetic), Max, Min of the
 * reduced elements at x, in a plain loop (no kernel family for these). */
#define INT_REDUCE(T, U, LOWEST, HIGHEST)                                               \
  static T reduce_##T(const wnn_reduce_params *p, const T *x) {                        \
    T acc = p->op == WNN_RED_PROD ? 1 : p->op == WNN_RED_MAX ? LOWEST                   \
          : p->op == WNN_RED_MIN ? HIGHEST : 0;                                         \
    size_t count = 1;                                                                   \
    for (int i = 0; i < p->nr; i++) count *= p->rdims[i];                              \
    size_t idx[WNN_MAX_DIMS] = {0}, off = 0;                                            \
    for (size_t t = 0; t < count; t++) {                                                \
      const T v = x[off];                                                               \
      switch (p->op) {                                                                  \
        case WNN_RED_PROD: acc = (T)((U)acc * (U)v); break;                             \
        case WNN_RED_MAX: acc = v > acc ? v : acc; break;                               \
        case WNN_RED_MIN: acc = v < acc ? v : acc; break;                               \
        default: acc = (T)((U)acc + (U)v); break;                                       \
      }                                                                                 \
      for (int i = p->nr - 1; i >= 0; i--) {                                            \
        off += p->rstrides[i];                                                          \
        if (++idx[i] < p->rdims[i]) break;                                              \
        off -= p->rstrides[i] * idx[i];                                                 \
        idx[i] = 0;                                                                     \
      }                                                                                 \
    }                                                                                   \
    return acc;                                                                         \
  }
INT_REDUCE(int32_t, uint32_t, INT32_MIN, INT32_MAX)
INT_REDUCE(int64_t, uint64_t, INT64_MIN, INT64_MAX)

static wnn_status reduce_run(const wnn_run_ctx *ctx) {
  const wnn_reduce_params *p = ctx->params;
  const void *xv = ctx->inputs[0].data;
  const wnn_tensor *yt = &ctx->outputs[0];
  void *yv = yt->data;
  const size_t total = (size_t)wnn_shape_numel(yt->ndim, yt->dims);
  if (p->copy) {
    if (total && yv != xv) memmove(yv, xv, total * wnn_dtype_size(p->dtype));
    return WNN_OK;
  }
  size_t idx[WNN_MAX_DIMS] = {0}, off = 0;
  for (size_t t = 0; t < total; t++) {
    switch (p->dtype) {
      case WNN_DTYPE_I32: ((int32_t *)yv)[t] = reduce_int32_t(p, (const int32_t *)xv + off); break;
      case WNN_DTYPE_I64: ((int64_t *)yv)[t] = reduce_int64_t(p, (const int64_t *)xv + off); break;
      default: ((float *)yv)[t] = reduce_one(p, (const float *)xv + off); break;
    }
    for (int i = p->nk - 1; i >= 0; i--) { /* odometer over the kept dims */
      off += p->kstrides[i];
      if (++idx[i] < p->kdims[i]) break;
      off -= p->kstrides[i] * idx[i];
      idx[i] = 0;
    }
  }
  return WNN_OK;
}

#define REDUCE_OP(sym, red)                                                              \
  wnn_status wnn_##sym##_prepare(wnn_prepare_ctx *ctx) { return reduce_prepare(ctx, red); } \
  wnn_status wnn_##sym##_run(const wnn_run_ctx *ctx) { return reduce_run(ctx); }

REDUCE_OP(reducesum, WNN_RED_SUM)
REDUCE_OP(reducemean, WNN_RED_MEAN)
REDUCE_OP(reducemax, WNN_RED_MAX)
REDUCE_OP(reducemin, WNN_RED_MIN)
REDUCE_OP(reduceprod, WNN_RED_PROD)
REDUCE_OP(reducesumsquare, WNN_RED_SUMSQUARE)
REDUCE_OP(reducel1, WNN_RED_L1)
REDUCE_OP(reducel2, WNN_RED_L2)
REDUCE_OP(reducelogsumexp, WNN_RED_LOGSUMEXP)
REDUCE_OP(reducelogsum, WNN_RED_LOGSUM)

/* ------------------------------------------------------- ArgMax, ArgMin */

static wnn_status arg_prepare(wnn_prepare_ctx *ctx, const char *op, bool is_max) {
  wnn_argreduce_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axis, kd;
  int ax;
  bool last;
  if (x->dtype != WNN_DTYPE_F32 && x->dtype != WNN_DTYPE_I32 && x->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                       "%s: input 0 (data) is %s, expected float32, int32 or int64", op,
                       wnn_dtype_name(x->dtype));
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (data) is a scalar; %s needs a dim",
                       op, op);
  if ((st = wnn_attr_int(ctx, "axis", 0, &axis))) return st;
  if ((st = wnn_normalize_axis(ctx, op, "axis", axis, x->ndim, false, &ax))) return st;
  if ((st = wnn_attr_int(ctx, "keepdims", 1, &kd))) return st;
  if (kd != 0 && kd != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: keepdims is %lld, expected 0 or 1", op,
                       (long long)kd);
  if ((st = wnn_attr_bool(ctx, op, "select_last_index", &last))) return st;
  if (x->dims[ax] == 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: axis %d has size 0; there is no index to return",
                       op, ax);
  int64_t out[WNN_MAX_DIMS];
  int nd = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (i != ax) out[nd++] = x->dims[i];
    else if (kd) out[nd++] = 1;
  }
  if ((st = wnn_set_output(ctx, op, 0, WNN_DTYPE_I64, nd, out))) return st;
  p->is_max = is_max, p->select_last = last, p->dtype = x->dtype;
  p->outer = (size_t)wnn_shape_numel(ax, x->dims);
  p->n = (size_t)x->dims[ax];
  p->inner = (size_t)wnn_shape_numel(x->ndim - ax - 1, x->dims + ax + 1);
  return WNN_OK;
}

/* The index of the first (or last) extreme value on each line; comparisons
 * are plain < and >, so NaN never replaces a value (nor is replaced once
 * first). */
#define ARG_LOOP(T)                                                                      \
  do {                                                                                   \
    const T *x = xv;                                                                     \
    for (size_t o = 0; o < p->outer; o++)                                                \
      for (size_t i = 0; i < p->inner; i++) {                                            \
        const T *line = x + o * p->n * p->inner + i;                                     \
        T best = line[0];                                                                \
        size_t bi = 0;                                                                   \
        for (size_t k = 1; k < p->n; k++) {                                              \
          const T v = line[k * p->inner];                                                \
          const bool better = p->is_max ? v > best : v < best;                           \
          if (better || (p->select_last && v == best)) best = v, bi = k;                 \
        }                                                                                \
        y[o * p->inner + i] = (int64_t)bi;                                               \
      }                                                                                  \
  } while (0)

static wnn_status arg_run(const wnn_run_ctx *ctx) {
  const wnn_argreduce_params *p = ctx->params;
  const void *xv = ctx->inputs[0].data;
  int64_t *y = ctx->outputs[0].data;
  switch (p->dtype) {
    case WNN_DTYPE_F32: ARG_LOOP(float); break;
    case WNN_DTYPE_I32: ARG_LOOP(int32_t); break;
    default: ARG_LOOP(int64_t); break;
  }
  return WNN_OK;
}

wnn_status wnn_argmax_prepare(wnn_prepare_ctx *ctx) { return arg_prepare(ctx, "ArgMax", true); }
wnn_status wnn_argmin_prepare(wnn_prepare_ctx *ctx) { return arg_prepare(ctx, "ArgMin", false); }
wnn_status wnn_argmax_run(const wnn_run_ctx *ctx) { return arg_run(ctx); }
wnn_status wnn_argmin_run(const wnn_run_ctx *ctx) { return arg_run(ctx); }

/* --------------------------------------------------------------- CumSum */

wnn_status wnn_cumsum_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "CumSum";
  wnn_cumsum_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *a = &ctx->inputs[1];
  wnn_status st;
  if (x->dtype != WNN_DTYPE_F32 && x->dtype != WNN_DTYPE_I32 && x->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                       "%s: input 0 (x) is %s, expected float32, int32 or int64", OP,
                       wnn_dtype_name(x->dtype));
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (x) is a scalar; CumSum needs a dim", OP);
  if (a->dtype != WNN_DTYPE_I32 && a->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (axis) is %s, expected int32 or int64", OP,
                       wnn_dtype_name(a->dtype));
  if (a->ndim > 1 || wnn_shape_numel(a->ndim, a->dims) != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (axis) must be a scalar", OP);
  if (!a->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 1 (axis) must be a constant (it decides the summed axis)", OP);
  const int64_t axis = a->dtype == WNN_DTYPE_I32 ? *(const int32_t *)a->data
                                                 : *(const int64_t *)a->data;
  if (axis < -x->ndim || axis >= x->ndim)
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                       "%s: input 1 (axis) is %lld, out of range for rank %d", OP,
                       (long long)axis, x->ndim);
  const int ax = (int)(axis < 0 ? axis + x->ndim : axis);
  if ((st = wnn_attr_bool(ctx, OP, "exclusive", &p->exclusive))) return st;
  if ((st = wnn_attr_bool(ctx, OP, "reverse", &p->reverse))) return st;
  p->dtype = x->dtype;
  wnn_split_axis(x, ax, &p->outer, &p->n, &p->inner);
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

/* Running sums along each line, in the line's walking order (backwards
 * with reverse); integers wrap (unsigned arithmetic). Each element is read
 * before its output is written and no earlier input is read again, so y may
 * be x. */
#define CUMSUM_LOOP(T, U, ACC)                                                           \
  do {                                                                                   \
    const T *x = ctx->inputs[0].data;                                                    \
    T *y = ctx->outputs[0].data;                                                         \
    for (size_t o = 0; o < p->outer; o++)                                                \
      for (size_t i = 0; i < p->inner; i++) {                                            \
        const size_t base = o * p->n * p->inner + i;                                     \
        ACC acc = 0;                                                                     \
        for (size_t s = 0; s < p->n; s++) {                                              \
          const size_t k = p->reverse ? p->n - 1 - s : s;                                \
          const T v = x[base + k * p->inner];                                            \
          if (p->exclusive) {                                                            \
            y[base + k * p->inner] = (T)acc;                                             \
            acc = (ACC)((U)acc + (U)v);                                                  \
          } else {                                                                       \
            acc = (ACC)((U)acc + (U)v);                                                  \
            y[base + k * p->inner] = (T)acc;                                             \
          }                                                                              \
        }                                                                                \
      }                                                                                  \
  } while (0)

wnn_status wnn_cumsum_run(const wnn_run_ctx *ctx) {
  const wnn_cumsum_params *p = ctx->params;
  switch (p->dtype) {
    case WNN_DTYPE_I32: CUMSUM_LOOP(int32_t, uint32_t, int32_t); break;
    case WNN_DTYPE_I64: CUMSUM_LOOP(int64_t, uint64_t, int64_t); break;
    default: CUMSUM_LOOP(float, float, float); break;
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

static const char *const argreduce_attrs[] = {"axis", "keepdims", "select_last_index", NULL};
static const char *const reduce_attrs[] = {"keepdims", "noop_with_empty_axes", NULL};

WNN_OP_DEFINE(reducemean, "ReduceMean", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(reducesum, "ReduceSum", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(reducemax, "ReduceMax", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(reducemin, "ReduceMin", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(reduceprod, "ReduceProd", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(reducesumsquare, "ReduceSumSquare", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(reducel1, "ReduceL1", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(reducel2, "ReduceL2", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(reducelogsumexp, "ReduceLogSumExp", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(argmax, "ArgMax", 0, 1, 1, 1, 1, argreduce_attrs);
WNN_OP_DEFINE(argmin, "ArgMin", 0, 1, 1, 1, 1, argreduce_attrs);
WNN_OP_DEFINE(reducelogsum, "ReduceLogSum", 0, 1, 2, 1, 1, reduce_attrs);
WNN_OP_DEFINE(cumsum, "CumSum", 0, 2, 2, 1, 1, WNN_ATTRS("exclusive", "reverse"));
