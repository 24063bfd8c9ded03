/* Softmax and LogSoftmax (ONNX opset 13): along one axis (default -1),
 * float32. The tensor is outer x n x inner around the axis; each of the
 * outer * inner lines of n elements, inner apart, is one kernel call. */
#include "ops/math_internal.h"
#include "runtime/pool.h"

WNN_PARAMS_FIT(wnn_hardmax_params);

WNN_PARAMS_FIT(wnn_softmax_params);

static wnn_status prepare(wnn_prepare_ctx *ctx, const char *op, wnn_f32_softmax_ukernel *fn) {
  wnn_softmax_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axis;
  if ((st = wnn_expect_dtype(ctx, op, 0, "input", WNN_DTYPE_F32))) return st;
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 is a scalar; %s needs at least 1 dim",
                       op, op);
  if ((st = wnn_attr_int(ctx, "axis", -1, &axis))) return st;
  if ((st = wnn_normalize_axis(ctx, op, "axis", axis, x->ndim, false, &p->axis))) return st;
  if ((st = wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, x->ndim, x->dims))) return st;
  p->outer = (size_t)wnn_shape_numel(p->axis, x->dims);
  p->n = (size_t)x->dims[p->axis];
  p->inner = (size_t)wnn_shape_numel(x->ndim - p->axis - 1, x->dims + p->axis + 1);
  p->fn = fn;
  return WNN_OK;
}

wnn_status wnn_softmax_prepare(wnn_prepare_ctx *ctx) {
  return prepare(ctx, "Softmax", wnn_select_f32_softmax(ctx->kernels));
}

wnn_status wnn_logsoftmax_prepare(wnn_prepare_ctx *ctx) {
  return prepare(ctx, "LogSoftmax", wnn_select_f32_logsoftmax(ctx->kernels));
}

typedef struct softmax_job {
  const wnn_softmax_params *p;
  const float *x;
  float *y;
} softmax_job;

/* Rows u = o * inner + i, each its own output: split over intra-op threads. */
static void rows(void *ctx, size_t u0, size_t u1) {
  const softmax_job *j = ctx;
  const wnn_softmax_params *p = j->p;
  for (size_t u = u0; u < u1; u++) {
    const size_t o = u / p->inner, i = u % p->inner, off = o * p->n * p->inner + i;
    p->fn(p->n, p->inner, j->x + off, j->y + off);
  }
}

static wnn_status run(const wnn_run_ctx *ctx) {
  const wnn_softmax_params *p = ctx->params;
  if (p->n == 0) return WNN_OK;
  softmax_job job = {p, ctx->inputs[0].data, ctx->outputs[0].data};
  /* about 20 operations per element: a thread gets at least 2^17 of them */
  wnn_parallel_for(p->outer * p->inner, WNN_PARALLEL_MIN_MACS / (p->n * 20) + 1, rows, &job);
  return WNN_OK;
}

wnn_status wnn_softmax_run(const wnn_run_ctx *ctx) { return run(ctx); }
wnn_status wnn_logsoftmax_run(const wnn_run_ctx *ctx) { return run(ctx); }

/* -------------------------------------------------------------- Hardmax */

wnn_status wnn_hardmax_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Hardmax";
  wnn_hardmax_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axis;
  int ax;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "input", WNN_DTYPE_F32))) return st;
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (input) is a scalar; Hardmax needs a dim",
                       OP);
  if ((st = wnn_attr_int(ctx, "axis", -1, &axis))) return st;
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis, x->ndim, false, &ax))) return st;
  wnn_split_axis(x, ax, &p->outer, &p->n, &p->inner);
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* The first maximum wins; a NaN never replaces a value (plain >). y may be
 * x: a line's maximum is found before the line is written. */
wnn_status wnn_hardmax_run(const wnn_run_ctx *ctx) {
  const wnn_hardmax_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++) {
      const float *line = x + o * p->n * p->inner + i;
      float *out = y + o * p->n * p->inner + i;
      if (p->n == 0) continue;
      size_t best = 0;
      float bv = line[0];
      for (size_t k = 1; k < p->n; k++)
        if (line[k * p->inner] > bv) bv = line[k * p->inner], best = k;
      for (size_t k = 0; k < p->n; k++) out[k * p->inner] = k == best ? 1.0f : 0.0f;
    }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(softmax, "Softmax", 0, 1, 1, 1, 1, WNN_ATTRS("axis"));
WNN_OP_DEFINE(logsoftmax, "LogSoftmax", 0, 1, 1, 1, 1, WNN_ATTRS("axis"));
WNN_OP_DEFINE(hardmax, "Hardmax", 0, 1, 1, 1, 1, WNN_ATTRS("axis"));
