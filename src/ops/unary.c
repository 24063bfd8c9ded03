/* Relu, Sigmoid and Clip (ONNX opset 13), float32, element-wise. */
#include <math.h>

#include "ops/op_internal.h"

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

static wnn_status unary_run(const wnn_run_ctx *ctx, const wnn_f32_unary_params *bounds) {
  const wnn_unary_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  p->fn((size_t)wnn_shape_numel(x->ndim, x->dims), x->data, ctx->outputs[0].data, bounds);
  return WNN_OK;
}

wnn_status wnn_relu_prepare(wnn_prepare_ctx *ctx) {
  return unary_prepare(ctx, "Relu", WNN_UNARY_RELU);
}

wnn_status wnn_relu_run(const wnn_run_ctx *ctx) {
  const wnn_unary_params *p = ctx->params;
  return unary_run(ctx, &p->bounds);
}

wnn_status wnn_sigmoid_prepare(wnn_prepare_ctx *ctx) {
  return unary_prepare(ctx, "Sigmoid", WNN_UNARY_SIGMOID);
}

wnn_status wnn_sigmoid_run(const wnn_run_ctx *ctx) {
  const wnn_unary_params *p = ctx->params;
  return unary_run(ctx, &p->bounds);
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

wnn_status wnn_clip_prepare(wnn_prepare_ctx *ctx) {
  wnn_unary_params *p = ctx->params;
  wnn_status st;
  if ((st = unary_prepare(ctx, "Clip", WNN_UNARY_CLAMP))) return st;
  if ((st = clip_bound(ctx, 1, "min", -INFINITY, &p->bounds.min, &p->min_input))) return st;
  if ((st = clip_bound(ctx, 2, "max", INFINITY, &p->bounds.max, &p->max_input))) return st;
  return WNN_OK;
}

wnn_status wnn_clip_run(const wnn_run_ctx *ctx) {
  const wnn_unary_params *p = ctx->params;
  wnn_f32_unary_params bounds = p->bounds;
  /* The bounds inputs need not be constants: read them now. */
  if (p->min_input && ctx->inputs[1].data) bounds.min = *(const float *)ctx->inputs[1].data;
  if (p->max_input && ctx->num_inputs > 2 && ctx->inputs[2].data)
    bounds.max = *(const float *)ctx->inputs[2].data;
  return unary_run(ctx, &bounds);
}
