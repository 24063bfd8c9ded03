/* Relu, Sigmoid and Clip (ONNX opset 13): float32 on the vunary kernel family
 * (Clip also int8, uint8, int32 and int64). */
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"
#include "runtime/pool.h"

WNN_PARAMS_FIT(wnn_unary_params);

static wnn_status unary_prepare(wnn_prepare_ctx *ctx, const char *op, int kind) {
  wnn_unary_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, op, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, x->ndim, x->dims))) return st;
  p->bounds.min = -INFINITY, p->bounds.max = INFINITY;
  p->fn = wnn_select_f32_vunary(ctx->kernels, kind);
  return WNN_OK;
}

/* Chunks of WNN_EW_CHUNK elements as units for wnn_parallel_for. */
typedef struct unary_job {
  wnn_f32_vunary_ukernel *fn;
  size_t n;
  const float *x;
  float *y;
  const wnn_f32_unary_params *bounds;
} unary_job;

static void unary_chunks(void *ctx, size_t c0, size_t c1) {
  const unary_job *j = ctx;
  const size_t b = c0 * WNN_EW_CHUNK, e = c1 * WNN_EW_CHUNK < j->n ? c1 * WNN_EW_CHUNK : j->n;
  j->fn(e - b, j->x + b, j->y + b, j->bounds);
}

/* ops: operations per element (Relu 1, Sigmoid about 16), which decides
 * how many elements are worth a thread. */
static wnn_status unary_run(const wnn_run_ctx *ctx, const wnn_f32_unary_params *bounds, int ops) {
  const wnn_unary_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const unary_job j = {p->fn, (size_t)wnn_shape_numel(x->ndim, x->dims), x->data,
                       ctx->outputs[0].data, bounds};
  wnn_parallel_for((j.n + WNN_EW_CHUNK - 1) / WNN_EW_CHUNK, wnn_ew_min_chunks(ops), unary_chunks,
                   (void *)&j);
  return WNN_OK;
}

wnn_status wnn_relu_prepare(wnn_prepare_ctx *ctx) {
  return unary_prepare(ctx, "Relu", WNN_UNARY_RELU);
}

wnn_status wnn_relu_run(const wnn_run_ctx *ctx) {
  const wnn_unary_params *p = ctx->params;
  return unary_run(ctx, &p->bounds, 1);
}

wnn_status wnn_sigmoid_prepare(wnn_prepare_ctx *ctx) {
  return unary_prepare(ctx, "Sigmoid", WNN_UNARY_SIGMOID);
}

wnn_status wnn_sigmoid_run(const wnn_run_ctx *ctx) {
  const wnn_unary_params *p = ctx->params;
  return unary_run(ctx, &p->bounds, 16);
}

/* ----------------------------------------------------------------- Clip */

/* A bound comes from the attribute (Clip-6 style) or from input i (Clip-11
 * and later), never both; an omitted input means no bound. */
static wnn_status clip_bound(wnn_prepare_ctx *ctx, int i, const char *name, float dflt,
                             float *value, bool *from_input) {
  static const char OP[] = "Clip";
  wnn_status st;
  if ((st = wnn_attr_float(ctx, name, dflt, value))) return st;
  *from_input = wnn_has_input(ctx, i);
  if (!*from_input) return WNN_OK;
  if (*value != dflt)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: %s is given both as an attribute and as input %d", OP, name, i);
  if ((st = wnn_expect_dtype(ctx, OP, i, name, WNN_DTYPE_F32))) return st;
  const wnn_tdesc *t = &ctx->inputs[i];
  if (wnn_shape_numel(t->ndim, t->dims) != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) must be a scalar", OP, i, name);
  return WNN_OK;
}

static bool clip_int_dtype(wnn_dtype dt) {
  return dt == WNN_DTYPE_I8 || dt == WNN_DTYPE_U8 || dt == WNN_DTYPE_I32 || dt == WNN_DTYPE_I64;
}

/* Integer Clip (opset 13): the bounds are optional inputs of X's dtype (the
 * opset-6 float attributes do not apply); run reads them and picks the loop
 * by X's dtype (fn stays NULL). */
static wnn_status clip_int_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Clip";
  wnn_unary_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  static const char *const names[3] = {"input", "min", "max"};
  for (int i = 1; i <= 2; i++) {
    if (wnn_attr_has(ctx, names[i]))
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: attribute '%s' applies to float32 input only (input 0 is %s)", OP,
                         names[i], wnn_dtype_name(x->dtype));
    bool *from = i == 1 ? &p->min_input : &p->max_input;
    *from = wnn_has_input(ctx, i);
    if (!*from) continue;
    if ((st = wnn_expect_dtype(ctx, OP, i, names[i], x->dtype))) return st;
    const wnn_tdesc *t = &ctx->inputs[i];
    if (wnn_shape_numel(t->ndim, t->dims) != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) must be a scalar", OP, i,
                         names[i]);
  }
  p->fn = NULL;
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

#define CLIP_INT(T, LOWEST, HIGHEST)                                                      \
  do {                                                                                   \
    const T *x = ctx->inputs[0].data;                                                    \
    T *y = ctx->outputs[0].data;                                                         \
    T lo = LOWEST, hi = HIGHEST;                                                         \
    if (p->min_input && ctx->inputs[1].data) lo = *(const T *)ctx->inputs[1].data;       \
    if (p->max_input && ctx->num_inputs > 2 && ctx->inputs[2].data)                      \
      hi = *(const T *)ctx->inputs[2].data;                                              \
    for (size_t i = 0; i < n; i++) {                                                     \
      const T v = x[i];                                                                  \
      y[i] = v < lo ? lo : (v > hi ? hi : v);                                            \
    }                                                                                    \
  } while (0)

static wnn_status clip_int_run(const wnn_run_ctx *ctx) {
  const wnn_unary_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const size_t n = (size_t)wnn_shape_numel(xt->ndim, xt->dims);
  switch (xt->dtype) {
    case WNN_DTYPE_I8: CLIP_INT(int8_t, INT8_MIN, INT8_MAX); break;
    case WNN_DTYPE_U8: CLIP_INT(uint8_t, 0, UINT8_MAX); break;
    case WNN_DTYPE_I32: CLIP_INT(int32_t, INT32_MIN, INT32_MAX); break;
    default: CLIP_INT(int64_t, INT64_MIN, INT64_MAX); break;
  }
  return WNN_OK;
}

wnn_status wnn_clip_prepare(wnn_prepare_ctx *ctx) {
  wnn_unary_params *p = ctx->params;
  wnn_status st;
  if (clip_int_dtype(ctx->inputs[0].dtype)) return clip_int_prepare(ctx);
  if ((st = unary_prepare(ctx, "Clip", WNN_UNARY_CLAMP))) return st;
  if ((st = clip_bound(ctx, 1, "min", -INFINITY, &p->bounds.min, &p->min_input))) return st;
  if ((st = clip_bound(ctx, 2, "max", INFINITY, &p->bounds.max, &p->max_input))) return st;
  return WNN_OK;
}

wnn_status wnn_clip_run(const wnn_run_ctx *ctx) {
  const wnn_unary_params *p = ctx->params;
  if (!p->fn) return clip_int_run(ctx);
  wnn_f32_unary_params bounds = p->bounds;
  /* The bounds inputs need not be constants: read them now. */
  if (p->min_input && ctx->inputs[1].data) bounds.min = *(const float *)ctx->inputs[1].data;
  if (p->max_input && ctx->num_inputs > 2 && ctx->inputs[2].data)
    bounds.max = *(const float *)ctx->inputs[2].data;
  return unary_run(ctx, &bounds, 1);
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(relu, "Relu", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(clip, "Clip", WNN_OP_INPLACE, 1, 3, 1, 1, WNN_ATTRS("min", "max"));
WNN_OP_DEFINE(sigmoid, "Sigmoid", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
