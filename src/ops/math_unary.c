/* The element-wise math and activation ops without a fused-kernel op of their
 * own, each at its latest opset <= 21: Exp ... Gelu on the vmath kernel family
 * (float32; Neg, Abs and Sign also int32 and int64), and Acos ... Tan,
 * ThresholdedRelu, Shrink, Celu as plain loops on the C library (no kernel
 * family: they are rare in models). */
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"
#include "runtime/pool.h"

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

/* float32: chunks of WNN_EW_CHUNK elements as units for wnn_parallel_for. */
typedef struct vmath_job {
  const wnn_vmath_params *p;
  size_t n;
  const float *x;
  float *y;
} vmath_job;

static void vmath_chunks(void *ctx, size_t c0, size_t c1) {
  const vmath_job *j = ctx;
  const size_t b = c0 * WNN_EW_CHUNK, e = c1 * WNN_EW_CHUNK < j->n ? c1 * WNN_EW_CHUNK : j->n;
  j->p->fn(e - b, j->x + b, j->y + b, &j->p->p);
}

static wnn_status vmath_run(const wnn_run_ctx *ctx) {
  const wnn_vmath_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const size_t n = (size_t)wnn_shape_numel(x->ndim, x->dims);
  switch (p->dtype) {
    case WNN_DTYPE_I32: vmath_int32_t(p->op, n, x->data, ctx->outputs[0].data); break;
    case WNN_DTYPE_I64: vmath_int64_t(p->op, n, x->data, ctx->outputs[0].data); break;
    default: {
      /* Some ops cost one operation per element, the transcendental ones
       * twenty: 4 is between (a thread takes 3 chunks or more). */
      const vmath_job j = {p, n, x->data, ctx->outputs[0].data};
      wnn_parallel_for((n + WNN_EW_CHUNK - 1) / WNN_EW_CHUNK, wnn_ew_min_chunks(4), vmath_chunks,
                       (void *)&j);
    }
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

WNN_OP_DEFINE(exp, "Exp", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(log, "Log", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(sqrt, "Sqrt", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(neg, "Neg", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(abs, "Abs", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(erf, "Erf", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(tanh, "Tanh", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(reciprocal, "Reciprocal", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(floor, "Floor", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(ceil, "Ceil", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(leakyrelu, "LeakyRelu", WNN_OP_INPLACE, 1, 1, 1, 1, alpha_attrs);
WNN_OP_DEFINE(hardsigmoid, "HardSigmoid", WNN_OP_INPLACE, 1, 1, 1, 1, WNN_ATTRS("alpha", "beta"));
WNN_OP_DEFINE(hardswish, "HardSwish", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(elu, "Elu", WNN_OP_INPLACE, 1, 1, 1, 1, alpha_attrs);
WNN_OP_DEFINE(selu, "Selu", WNN_OP_INPLACE, 1, 1, 1, 1, WNN_ATTRS("alpha", "gamma"));
WNN_OP_DEFINE(softplus, "Softplus", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(softsign, "Softsign", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(sign, "Sign", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(gelu, "Gelu", WNN_OP_INPLACE, 1, 1, 1, 1, WNN_ATTRS("approximate"));
WNN_OP_DEFINE(sin, "Sin", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(cos, "Cos", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(round, "Round", WNN_OP_INPLACE, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(thresholdedrelu, "ThresholdedRelu", 0, 1, 1, 1, 1, alpha_attrs);
WNN_OP_DEFINE(shrink, "Shrink", 0, 1, 1, 1, 1, WNN_ATTRS("bias", "lambd"));
WNN_OP_DEFINE(celu, "Celu", 0, 1, 1, 1, 1, alpha_attrs);
WNN_OP_DEFINE(tan, "Tan", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(acos, "Acos", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(acosh, "Acosh", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(asin, "Asin", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(asinh, "Asinh", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(atan, "Atan", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(atanh, "Atanh", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(cosh, "Cosh", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(sinh, "Sinh", 0, 1, 1, 1, 1, NULL);
