/* Reference element-wise math and activation ops (src/ops/math_unary.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"
#include "ref/ref.h"

/* --------------------------------------------------------------- unary */

static double vmath(int op, double x, double alpha, double beta) {
  switch (op) {
    case WNN_VMATH_EXP: return exp(x);
    case WNN_VMATH_LOG: return log(x);
    case WNN_VMATH_SQRT: return sqrt(x);
    case WNN_VMATH_NEG: return -x;
    case WNN_VMATH_ABS: return fabs(x);
    case WNN_VMATH_ERF: return erf(x);
    case WNN_VMATH_TANH: return tanh(x);
    case WNN_VMATH_RECIPROCAL: return 1.0 / x;
    case WNN_VMATH_FLOOR: return floor(x);
    case WNN_VMATH_CEIL: return ceil(x);
    case WNN_VMATH_LEAKYRELU: return x < 0 ? alpha * x : x;
    case WNN_VMATH_HARDSIGMOID: return isnan(x) ? x : fmax(0.0, fmin(1.0, alpha * x + beta));
    case WNN_VMATH_HARDSWISH: return isnan(x) ? x : x * fmax(0.0, fmin(1.0, x / 6.0 + 0.5));
    case WNN_VMATH_ELU: return x < 0 ? alpha * (exp(x) - 1.0) : x;
    case WNN_VMATH_SELU: return x <= 0 ? beta * (alpha * exp(x) - alpha) : beta * x;
    case WNN_VMATH_SOFTPLUS: return x > 30 ? x : log(1.0 + exp(x));
    case WNN_VMATH_SOFTSIGN: return x / (1.0 + fabs(x));
    case WNN_VMATH_SIGN: return x > 0 ? 1.0 : (x < 0 ? -1.0 : x);
    case WNN_VMATH_SIN: return sin(x);
    case WNN_VMATH_COS: return cos(x);
    case WNN_VMATH_ROUND: { /* half to even */
      double r = floor(x + 0.5);
      if (r - x == 0.5 && fmod(r, 2.0) != 0.0) r -= 1.0;
      return r;
    }
    case WNN_VMATH_GELU: return 0.5 * x * erfc(-x / sqrt(2.0));
    case WNN_VMATH_GELU_TANH:
      return 0.5 * x * (1.0 + tanh(sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
    default: return NAN;
  }
}

static wnn_status ref_vmath(const wnn_run_ctx *ctx) {
  const wnn_vmath_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  if (x->dtype != WNN_DTYPE_F32) { /* Neg, Abs, Sign of int32 / int64, wrapping */
    for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
      const int64_t v = wnn_ref_get_i(x, i);
      const int64_t neg = (int64_t)(0 - (uint64_t)v);
      wnn_ref_put(&ctx->outputs[0], i, 0,
          p->op == WNN_VMATH_NEG ? neg : p->op == WNN_VMATH_ABS ? (v < 0 ? neg : v) : (v > 0) - (v < 0));
    }
    return WNN_OK;
  }
  const float *in = x->data;
  float *out = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++)
    out[i] = (float)vmath(p->op, in[i], p->p.alpha, p->p.beta);
  return WNN_OK;
}

#define REF_VMATH(sym) \
  wnn_status wnn_ref_##sym(const wnn_run_ctx *ctx) { return ref_vmath(ctx); }
REF_VMATH(exp)
REF_VMATH(log)
REF_VMATH(sqrt)
REF_VMATH(neg)
REF_VMATH(abs)
REF_VMATH(erf)
REF_VMATH(tanh)
REF_VMATH(reciprocal)
REF_VMATH(floor)
REF_VMATH(ceil)
REF_VMATH(leakyrelu)
REF_VMATH(hardsigmoid)
REF_VMATH(hardswish)
REF_VMATH(elu)
REF_VMATH(selu)
REF_VMATH(softplus)
REF_VMATH(softsign)
REF_VMATH(sign)
REF_VMATH(sin)
REF_VMATH(cos)
REF_VMATH(round)
REF_VMATH(gelu)

/* ------------------------------------------------------- element-wise */

static double vmore(const wnn_vmore_params *p, double v) {
  switch (p->op) {
    case WNN_MORE_ACOS: return acos(v);
    case WNN_MORE_ACOSH: return acosh(v);
    case WNN_MORE_ASIN: return asin(v);
    case WNN_MORE_ASINH: return asinh(v);
    case WNN_MORE_ATAN: return atan(v);
    case WNN_MORE_ATANH: return atanh(v);
    case WNN_MORE_COSH: return cosh(v);
    case WNN_MORE_SINH: return sinh(v);
    case WNN_MORE_TAN: return tan(v);
    case WNN_MORE_THRESHOLDEDRELU: return v > p->alpha ? v : 0.0;
    case WNN_MORE_SHRINK: return v < -p->alpha ? v + p->beta : v > p->alpha ? v - p->beta : 0.0;
    default: /* CELU: max(0, v) + min(0, alpha * (exp(v / alpha) - 1)) */
      return fmax(0.0, v) + fmin(0.0, p->alpha * (exp(v / p->alpha) - 1.0));
  }
}

static wnn_status ref_vmore(const wnn_run_ctx *ctx) {
  const wnn_vmore_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(&ctx->inputs[0]); i++) y[i] = (float)vmore(p, x[i]);
  return WNN_OK;
}

#define REF_VMORE(sym) \
  wnn_status wnn_ref_##sym(const wnn_run_ctx *ctx) { return ref_vmore(ctx); }
REF_VMORE(acos)
REF_VMORE(acosh)
REF_VMORE(asin)
REF_VMORE(asinh)
REF_VMORE(atan)
REF_VMORE(atanh)
REF_VMORE(cosh)
REF_VMORE(sinh)
REF_VMORE(tan)
REF_VMORE(thresholdedrelu)
REF_VMORE(shrink)
REF_VMORE(celu)

#endif /* WNN_WITH_REFERENCE */
