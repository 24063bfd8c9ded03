/* Relu, Sigmoid and Clip (ONNX opset 13), and the element-wise math and
 * activation ops of ops.inc (Exp ... Gelu; latest opset <= 21), float32
 * (Neg, Abs and Sign also int32 and int64; Clip also int8, uint8, int32 and
 * int64). */
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"

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
  return unary_run(ctx, &bounds);
}

/* ------------------------------------------------ element-wise math (vmath) */

WNN_PARAMS_FIT(wnn_vmath_params);

static wnn_status vmath_prepare(wnn_prepare_ctx *ctx, const char *op, int kind, float alpha,
                                float beta) {
  wnn_vmath_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  const bool int_ok = kind == WNN_VMATH_NEG || kind == WNN_VMATH_ABS || kind == WNN_VMATH_SIGN;
  if (int_ok && (x->dtype == WNN_DTYPE_I32 || x->dtype == WNN_DTYPE_I64)) {
    p->dtype = x->dtype;
  } else if (x->dtype != WNN_DTYPE_F32) {
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (X) is %s, expected float32%s", op,
                       wnn_dtype_name(x->dtype), int_ok ? ", int32 or int64" : "");
  } else {
    p->dtype = WNN_DTYPE_F32;
  }
  if ((st = wnn_set_output(ctx, op, 0, p->dtype, x->ndim, x->dims))) return st;
  p->op = kind;
  p->p.alpha = alpha, p->p.beta = beta;
  p->fn = wnn_select_f32_vmath(ctx->kernels, kind);
  return WNN_OK;
}

/* Integer Neg, Abs, Sign; negation in unsigned arithmetic, so Neg and Abs of
 * the type's minimum give the minimum (two's complement wrap-around). */
#define INT_VMATH(T, U)                                                                  \
  static void vmath_##T(int op, size_t n, const T *x, T *y) {                            \
    for (size_t i = 0; i < n; i++) {                                                     \
      const T v = x[i];                                                                  \
      const T neg = (T)(0 - (U)v);                                                       \
      y[i] = op == WNN_VMATH_NEG ? neg : op == WNN_VMATH_ABS ? (v < 0 ? neg : v)          \
                                                             : (T)((v > 0) - (v < 0));   \
    }                                                                                    \
  }
INT_VMATH(int32_t, uint32_t)
INT_VMATH(int64_t, uint64_t)

static wnn_status vmath_run(const wnn_run_ctx *ctx) {
  const wnn_vmath_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const size_t n = (size_t)wnn_shape_numel(x->ndim, x->dims);
  switch (p->dtype) {
    case WNN_DTYPE_I32: vmath_int32_t(p->op, n, x->data, ctx->outputs[0].data); break;
    case WNN_DTYPE_I64: vmath_int64_t(p->op, n, x->data, ctx->outputs[0].data); break;
    default: p->fn(n, x->data, ctx->outputs[0].data, &p->p); break;
  }
  return WNN_OK;
}

/* An op without attributes. */
#define VMATH_OP(sym, name, kind)                                                        \
  wnn_status wnn_##sym##_prepare(wnn_prepare_ctx *ctx) {                                 \
    return vmath_prepare(ctx, name, WNN_VMATH_##kind, 0.0f, 0.0f);                        \
  }                                                                                      \
  wnn_status wnn_##sym##_run(const wnn_run_ctx *ctx) { return vmath_run(ctx); }

VMATH_OP(exp, "Exp", EXP)
VMATH_OP(log, "Log", LOG)
VMATH_OP(sqrt, "Sqrt", SQRT)
VMATH_OP(neg, "Neg", NEG)
VMATH_OP(abs, "Abs", ABS)
VMATH_OP(erf, "Erf", ERF)
VMATH_OP(tanh, "Tanh", TANH)
VMATH_OP(reciprocal, "Reciprocal", RECIPROCAL)
VMATH_OP(floor, "Floor", FLOOR)
VMATH_OP(ceil, "Ceil", CEIL)
VMATH_OP(hardswish, "HardSwish", HARDSWISH)
VMATH_OP(softplus, "Softplus", SOFTPLUS)
VMATH_OP(softsign, "Softsign", SOFTSIGN)
VMATH_OP(sign, "Sign", SIGN)
VMATH_OP(sin, "Sin", SIN)
VMATH_OP(cos, "Cos", COS)
VMATH_OP(round, "Round", ROUND)

/* Ops with float attributes alpha (and beta, or Selu's gamma). */
wnn_status wnn_leakyrelu_prepare(wnn_prepare_ctx *ctx) {
  float alpha;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "alpha", 0.01f, &alpha))) return st;
  return vmath_prepare(ctx, "LeakyRelu", WNN_VMATH_LEAKYRELU, alpha, 0.0f);
}
wnn_status wnn_leakyrelu_run(const wnn_run_ctx *ctx) { return vmath_run(ctx); }

wnn_status wnn_hardsigmoid_prepare(wnn_prepare_ctx *ctx) {
  float alpha, beta;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "alpha", 0.2f, &alpha))) return st;
  if ((st = wnn_attr_float(ctx, "beta", 0.5f, &beta))) return st;
  return vmath_prepare(ctx, "HardSigmoid", WNN_VMATH_HARDSIGMOID, alpha, beta);
}
wnn_status wnn_hardsigmoid_run(const wnn_run_ctx *ctx) { return vmath_run(ctx); }

wnn_status wnn_elu_prepare(wnn_prepare_ctx *ctx) {
  float alpha;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "alpha", 1.0f, &alpha))) return st;
  return vmath_prepare(ctx, "Elu", WNN_VMATH_ELU, alpha, 0.0f);
}
wnn_status wnn_elu_run(const wnn_run_ctx *ctx) { return vmath_run(ctx); }

wnn_status wnn_selu_prepare(wnn_prepare_ctx *ctx) {
  float alpha, gamma;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "alpha", 1.67326319217681884765625f, &alpha))) return st;
  if ((st = wnn_attr_float(ctx, "gamma", 1.05070102214813232421875f, &gamma))) return st;
  return vmath_prepare(ctx, "Selu", WNN_VMATH_SELU, alpha, gamma);
}
wnn_status wnn_selu_run(const wnn_run_ctx *ctx) { return vmath_run(ctx); }

/* Gelu (opset 20): approximate "none" (erf) or "tanh". */
wnn_status wnn_gelu_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Gelu";
  const char *approx;
  wnn_status st;
  if ((st = wnn_attr_string(ctx, "approximate", "none", &approx))) return st;
  int kind;
  if (strcmp(approx, "none") == 0) kind = WNN_VMATH_GELU;
  else if (strcmp(approx, "tanh") == 0) kind = WNN_VMATH_GELU_TANH;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: approximate is '%s', expected 'none' or 'tanh'", OP, approx);
  return vmath_prepare(ctx, OP, kind, 0.0f, 0.0f);
}
wnn_status wnn_gelu_run(const wnn_run_ctx *ctx) { return vmath_run(ctx); }

/* ------------------------------------------------------------ descriptors */

static const char *const alpha_attrs[] = {"alpha", NULL};

const wnn_op wnn_relu_op = {
    .code = WNN_OP_CODE(relu),
    .name = "Relu",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_relu_prepare,
    .run = wnn_relu_run,
    .reference = WNN_REF(wnn_ref_relu),
};

const wnn_op wnn_clip_op = {
    .code = WNN_OP_CODE(clip),
    .name = "Clip",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 3, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("min", "max"),
    .prepare = wnn_clip_prepare,
    .run = wnn_clip_run,
    .reference = WNN_REF(wnn_ref_clip),
};

const wnn_op wnn_sigmoid_op = {
    .code = WNN_OP_CODE(sigmoid),
    .name = "Sigmoid",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_sigmoid_prepare,
    .run = wnn_sigmoid_run,
    .reference = WNN_REF(wnn_ref_sigmoid),
};

const wnn_op wnn_exp_op = {
    .code = WNN_OP_CODE(exp),
    .name = "Exp",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_exp_prepare,
    .run = wnn_exp_run,
    .reference = WNN_REF(wnn_ref_exp),
};

const wnn_op wnn_log_op = {
    .code = WNN_OP_CODE(log),
    .name = "Log",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_log_prepare,
    .run = wnn_log_run,
    .reference = WNN_REF(wnn_ref_log),
};

const wnn_op wnn_sqrt_op = {
    .code = WNN_OP_CODE(sqrt),
    .name = "Sqrt",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_sqrt_prepare,
    .run = wnn_sqrt_run,
    .reference = WNN_REF(wnn_ref_sqrt),
};

const wnn_op wnn_neg_op = {
    .code = WNN_OP_CODE(neg),
    .name = "Neg",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_neg_prepare,
    .run = wnn_neg_run,
    .reference = WNN_REF(wnn_ref_neg),
};

const wnn_op wnn_abs_op = {
    .code = WNN_OP_CODE(abs),
    .name = "Abs",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_abs_prepare,
    .run = wnn_abs_run,
    .reference = WNN_REF(wnn_ref_abs),
};

const wnn_op wnn_erf_op = {
    .code = WNN_OP_CODE(erf),
    .name = "Erf",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_erf_prepare,
    .run = wnn_erf_run,
    .reference = WNN_REF(wnn_ref_erf),
};

const wnn_op wnn_tanh_op = {
    .code = WNN_OP_CODE(tanh),
    .name = "Tanh",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_tanh_prepare,
    .run = wnn_tanh_run,
    .reference = WNN_REF(wnn_ref_tanh),
};

const wnn_op wnn_reciprocal_op = {
    .code = WNN_OP_CODE(reciprocal),
    .name = "Reciprocal",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_reciprocal_prepare,
    .run = wnn_reciprocal_run,
    .reference = WNN_REF(wnn_ref_reciprocal),
};

const wnn_op wnn_floor_op = {
    .code = WNN_OP_CODE(floor),
    .name = "Floor",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_floor_prepare,
    .run = wnn_floor_run,
    .reference = WNN_REF(wnn_ref_floor),
};

const wnn_op wnn_ceil_op = {
    .code = WNN_OP_CODE(ceil),
    .name = "Ceil",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_ceil_prepare,
    .run = wnn_ceil_run,
    .reference = WNN_REF(wnn_ref_ceil),
};

const wnn_op wnn_leakyrelu_op = {
    .code = WNN_OP_CODE(leakyrelu),
    .name = "LeakyRelu",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = alpha_attrs,
    .prepare = wnn_leakyrelu_prepare,
    .run = wnn_leakyrelu_run,
    .reference = WNN_REF(wnn_ref_leakyrelu),
};

const wnn_op wnn_hardsigmoid_op = {
    .code = WNN_OP_CODE(hardsigmoid),
    .name = "HardSigmoid",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("alpha", "beta"),
    .prepare = wnn_hardsigmoid_prepare,
    .run = wnn_hardsigmoid_run,
    .reference = WNN_REF(wnn_ref_hardsigmoid),
};

const wnn_op wnn_hardswish_op = {
    .code = WNN_OP_CODE(hardswish),
    .name = "HardSwish",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_hardswish_prepare,
    .run = wnn_hardswish_run,
    .reference = WNN_REF(wnn_ref_hardswish),
};

const wnn_op wnn_elu_op = {
    .code = WNN_OP_CODE(elu),
    .name = "Elu",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = alpha_attrs,
    .prepare = wnn_elu_prepare,
    .run = wnn_elu_run,
    .reference = WNN_REF(wnn_ref_elu),
};

const wnn_op wnn_selu_op = {
    .code = WNN_OP_CODE(selu),
    .name = "Selu",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("alpha", "gamma"),
    .prepare = wnn_selu_prepare,
    .run = wnn_selu_run,
    .reference = WNN_REF(wnn_ref_selu),
};

const wnn_op wnn_softplus_op = {
    .code = WNN_OP_CODE(softplus),
    .name = "Softplus",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_softplus_prepare,
    .run = wnn_softplus_run,
    .reference = WNN_REF(wnn_ref_softplus),
};

const wnn_op wnn_softsign_op = {
    .code = WNN_OP_CODE(softsign),
    .name = "Softsign",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_softsign_prepare,
    .run = wnn_softsign_run,
    .reference = WNN_REF(wnn_ref_softsign),
};

const wnn_op wnn_sign_op = {
    .code = WNN_OP_CODE(sign),
    .name = "Sign",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_sign_prepare,
    .run = wnn_sign_run,
    .reference = WNN_REF(wnn_ref_sign),
};

const wnn_op wnn_gelu_op = {
    .code = WNN_OP_CODE(gelu),
    .name = "Gelu",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("approximate"),
    .prepare = wnn_gelu_prepare,
    .run = wnn_gelu_run,
    .reference = WNN_REF(wnn_ref_gelu),
};

const wnn_op wnn_sin_op = {
    .code = WNN_OP_CODE(sin),
    .name = "Sin",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_sin_prepare,
    .run = wnn_sin_run,
    .reference = WNN_REF(wnn_ref_sin),
};

const wnn_op wnn_cos_op = {
    .code = WNN_OP_CODE(cos),
    .name = "Cos",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_cos_prepare,
    .run = wnn_cos_run,
    .reference = WNN_REF(wnn_ref_cos),
};

const wnn_op wnn_round_op = {
    .code = WNN_OP_CODE(round),
    .name = "Round",
    .flags = WNN_OP_INPLACE,
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_round_prepare,
    .run = wnn_round_run,
    .reference = WNN_REF(wnn_ref_round),
};
