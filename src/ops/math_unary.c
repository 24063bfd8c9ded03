/* The element-wise math and activation ops without a fused-kernel op of their
 * own, each at its latest opset <= 21: Exp ... Gelu on the vmath kernel family
 * (float32; Neg, Abs and Sign also int32 and int64), and Acos ... Tan,
 * ThresholdedRelu, Shrink, Celu as plain loops on the C library (no kernel
 * family: they are rare in models). */
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"

WNN_PARAMS_FIT(wnn_vmore_params);

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

/* ---------------------------------------------------- element-wise ops */

static wnn_status vmore_prepare(wnn_prepare_ctx *ctx, const char *op, int kind, float alpha,
                                float beta) {
  wnn_vmore_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, op, 0, "X", WNN_DTYPE_F32))) return st;
  p->op = kind, p->alpha = alpha, p->beta = beta;
  return wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* CELU = max(0, x) + min(0, alpha * (exp(x / alpha) - 1)). */
static inline float celu(float v, float alpha) {
  return v > 0.0f ? v : alpha * expm1f(v / alpha);
}

/* One element; a switch per element keeps the code small (these ops are
 * rare, their speed is not the point). */
static float vmore_one(int op, float v, float a, float b) {
  switch (op) {
    case WNN_MORE_ACOS: return acosf(v);
    case WNN_MORE_ACOSH: return acoshf(v);
    case WNN_MORE_ASIN: return asinf(v);
    case WNN_MORE_ASINH: return asinhf(v);
    case WNN_MORE_ATAN: return atanf(v);
    case WNN_MORE_ATANH: return atanhf(v);
    case WNN_MORE_COSH: return coshf(v);
    case WNN_MORE_SINH: return sinhf(v);
    case WNN_MORE_TAN: return tanf(v);
    case WNN_MORE_THRESHOLDEDRELU: return v > a ? v : 0.0f;
    case WNN_MORE_SHRINK: return v < -a ? v + b : (v > a ? v - b : 0.0f);
    default: return celu(v, a);
  }
}

static wnn_status vmore_run(const wnn_run_ctx *ctx) {
  const wnn_vmore_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const size_t n = (size_t)wnn_shape_numel(xt->ndim, xt->dims);
  const float *x = xt->data;
  float *y = ctx->outputs[0].data;
  for (size_t i = 0; i < n; i++) y[i] = vmore_one(p->op, x[i], p->alpha, p->beta);
  return WNN_OK;
}

#define VMORE_OP(sym, name, kind)                                                        \
  wnn_status wnn_##sym##_prepare(wnn_prepare_ctx *ctx) {                                 \
    return vmore_prepare(ctx, name, WNN_MORE_##kind, 0.0f, 0.0f);                         \
  }                                                                                      \
  wnn_status wnn_##sym##_run(const wnn_run_ctx *ctx) { return vmore_run(ctx); }

VMORE_OP(acos, "Acos", ACOS)
VMORE_OP(acosh, "Acosh", ACOSH)
VMORE_OP(asin, "Asin", ASIN)
VMORE_OP(asinh, "Asinh", ASINH)
VMORE_OP(atan, "Atan", ATAN)
VMORE_OP(atanh, "Atanh", ATANH)
VMORE_OP(cosh, "Cosh", COSH)
VMORE_OP(sinh, "Sinh", SINH)
VMORE_OP(tan, "Tan", TAN)

wnn_status wnn_thresholdedrelu_prepare(wnn_prepare_ctx *ctx) {
  float alpha;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "alpha", 1.0f, &alpha))) return st;
  return vmore_prepare(ctx, "ThresholdedRelu", WNN_MORE_THRESHOLDEDRELU, alpha, 0.0f);
}
wnn_status wnn_thresholdedrelu_run(const wnn_run_ctx *ctx) { return vmore_run(ctx); }

wnn_status wnn_shrink_prepare(wnn_prepare_ctx *ctx) {
  float lambd, bias;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "lambd", 0.5f, &lambd))) return st;
  if ((st = wnn_attr_float(ctx, "bias", 0.0f, &bias))) return st;
  return vmore_prepare(ctx, "Shrink", WNN_MORE_SHRINK, lambd, bias);
}
wnn_status wnn_shrink_run(const wnn_run_ctx *ctx) { return vmore_run(ctx); }

wnn_status wnn_celu_prepare(wnn_prepare_ctx *ctx) {
  float alpha;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "alpha", 1.0f, &alpha))) return st;
  if (alpha == 0.0f || !isfinite(alpha))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "Celu: alpha is %g, expected a finite non-zero value (x is divided by it)",
                       (double)alpha);
  return vmore_prepare(ctx, "Celu", WNN_MORE_CELU, alpha, 0.0f);
}
wnn_status wnn_celu_run(const wnn_run_ctx *ctx) { return vmore_run(ctx); }

/* ------------------------------------------------------------ descriptors */

static const char *const alpha_attrs[] = {"alpha", NULL};

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

const wnn_op wnn_thresholdedrelu_op = {
    .code = WNN_OP_CODE(thresholdedrelu),
    .name = "ThresholdedRelu",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = alpha_attrs,
    .prepare = wnn_thresholdedrelu_prepare,
    .run = wnn_thresholdedrelu_run,
    .reference = WNN_REF(wnn_ref_thresholdedrelu),
};

const wnn_op wnn_shrink_op = {
    .code = WNN_OP_CODE(shrink),
    .name = "Shrink",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("bias", "lambd"),
    .prepare = wnn_shrink_prepare,
    .run = wnn_shrink_run,
    .reference = WNN_REF(wnn_ref_shrink),
};

const wnn_op wnn_celu_op = {
    .code = WNN_OP_CODE(celu),
    .name = "Celu",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = alpha_attrs,
    .prepare = wnn_celu_prepare,
    .run = wnn_celu_run,
    .reference = WNN_REF(wnn_ref_celu),
};

const wnn_op wnn_tan_op = {
    .code = WNN_OP_CODE(tan),
    .name = "Tan",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_tan_prepare,
    .run = wnn_tan_run,
    .reference = WNN_REF(wnn_ref_tan),
};

const wnn_op wnn_acos_op = {
    .code = WNN_OP_CODE(acos),
    .name = "Acos",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_acos_prepare,
    .run = wnn_acos_run,
    .reference = WNN_REF(wnn_ref_acos),
};

const wnn_op wnn_acosh_op = {
    .code = WNN_OP_CODE(acosh),
    .name = "Acosh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_acosh_prepare,
    .run = wnn_acosh_run,
    .reference = WNN_REF(wnn_ref_acosh),
};

const wnn_op wnn_asin_op = {
    .code = WNN_OP_CODE(asin),
    .name = "Asin",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_asin_prepare,
    .run = wnn_asin_run,
    .reference = WNN_REF(wnn_ref_asin),
};

const wnn_op wnn_asinh_op = {
    .code = WNN_OP_CODE(asinh),
    .name = "Asinh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_asinh_prepare,
    .run = wnn_asinh_run,
    .reference = WNN_REF(wnn_ref_asinh),
};

const wnn_op wnn_atan_op = {
    .code = WNN_OP_CODE(atan),
    .name = "Atan",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_atan_prepare,
    .run = wnn_atan_run,
    .reference = WNN_REF(wnn_ref_atan),
};

const wnn_op wnn_atanh_op = {
    .code = WNN_OP_CODE(atanh),
    .name = "Atanh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_atanh_prepare,
    .run = wnn_atanh_run,
    .reference = WNN_REF(wnn_ref_atanh),
};

const wnn_op wnn_cosh_op = {
    .code = WNN_OP_CODE(cosh),
    .name = "Cosh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_cosh_prepare,
    .run = wnn_cosh_run,
    .reference = WNN_REF(wnn_ref_cosh),
};

const wnn_op wnn_sinh_op = {
    .code = WNN_OP_CODE(sinh),
    .name = "Sinh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_sinh_prepare,
    .run = wnn_sinh_run,
    .reference = WNN_REF(wnn_ref_sinh),
};
