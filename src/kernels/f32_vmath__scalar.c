/* Unary float32 math, one plain loop per op, on the C library (expf, logf,
 * erff, tanhf, ...). Every element is read before its output is written, so
 * y may be x. */
#include <math.h>

#include "kernels/kernels.h"

#define VMATH(name, expr)                                                         \
  void name(size_t n, const float *x, float *y, const wnn_f32_vmath_params *p) { \
    const float alpha = p ? p->alpha : 0.0f, beta = p ? p->beta : 0.0f;           \
    (void)alpha, (void)beta;                                                      \
    for (size_t i = 0; i < n; i++) {                                              \
      const float v = x[i];                                                       \
      y[i] = (expr);                                                              \
    }                                                                             \
  }

/* log(1 + exp(v)) without overflow: v + log1p(exp(-v)) for v > 0. */
static inline float softplus(float v) {
  return v > 0.0f ? v + log1pf(expf(-v)) : log1pf(expf(v));
}

static inline float sign(float v) {
  return v > 0.0f ? 1.0f : (v < 0.0f ? -1.0f : v); /* 0, -0 and NaN stay */
}

static inline float hardsigmoid(float v, float alpha, float beta) {
  const float t = alpha * v + beta;
  return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t); /* NaN stays NaN */
}

static inline float gelu_tanh(float v) {
  const float k = 0.7978845608028654f; /* sqrt(2 / pi) */
  return 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
}

VMATH(wnn_f32_vexp__scalar, expf(v))
VMATH(wnn_f32_vlog__scalar, logf(v))
VMATH(wnn_f32_vsqrt__scalar, sqrtf(v))
VMATH(wnn_f32_vneg__scalar, -v)
VMATH(wnn_f32_vabs__scalar, fabsf(v))
VMATH(wnn_f32_verf__scalar, erff(v))
VMATH(wnn_f32_vtanh__scalar, tanhf(v))
VMATH(wnn_f32_vreciprocal__scalar, 1.0f / v)
VMATH(wnn_f32_vfloor__scalar, floorf(v))
VMATH(wnn_f32_vceil__scalar, ceilf(v))
VMATH(wnn_f32_vleakyrelu__scalar, v < 0.0f ? alpha * v : v)
VMATH(wnn_f32_vhardsigmoid__scalar, hardsigmoid(v, alpha, beta))
VMATH(wnn_f32_vhardswish__scalar, v * hardsigmoid(v, 1.0f / 6.0f, 0.5f))
VMATH(wnn_f32_velu__scalar, v < 0.0f ? alpha * expm1f(v) : v)
VMATH(wnn_f32_vselu__scalar, v <= 0.0f ? beta * alpha * expm1f(v) : beta * v)
VMATH(wnn_f32_vsoftplus__scalar, softplus(v))
VMATH(wnn_f32_vsoftsign__scalar, v / (1.0f + fabsf(v)))
VMATH(wnn_f32_vsign__scalar, sign(v))
VMATH(wnn_f32_vsin__scalar, sinf(v))
VMATH(wnn_f32_vcos__scalar, cosf(v))
VMATH(wnn_f32_vround__scalar, nearbyintf(v)) /* the default mode: half to even */
/* 0.5 x (1 + erf(x / sqrt 2)) as 0.5 x erfc(-x / sqrt 2): no cancellation for x < 0 */
VMATH(wnn_f32_vgelu__scalar, 0.5f * v * erfcf(-v * 0.70710678118654752f))
VMATH(wnn_f32_vgelu_tanh__scalar, gelu_tanh(v))
