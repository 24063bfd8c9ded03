/*
 * y = 1 / (1 + exp(-x)), SIMD128, with exp evaluated by a polynomial instead
 * of libm's expf. As in the scalar kernel, e = exp(-|x|) (never overflows) and
 * y = 1 / (1 + e) for x >= 0, e / (1 + e) for x < 0 (one division either way).
 *
 * exp(z), z = -|x| <= 0: z = n ln2 + r with n = round(z / ln2) and
 * |r| <= ln2 / 2 (ln2 split in a high part exact in n * ln2_hi for |n| < 256,
 * and a low part), exp(r) by its degree-7 Taylor polynomial (truncation error
 * below 6e-9 relative), and 2^n built in the exponent bits. z is clamped at
 * -104 (exp(-104) is below half the smallest subnormal), and 2^n is applied
 * as two factors 2^(n/2) so that subnormal results come out right.
 *
 * Measured error (tests/kernels/test_simd_unary.c, a sweep of every 97th
 * float in [-104, 104] and the specials): at most 2.30 ulp (the test allows
 * 2.5) against 1 / (1 + exp(-x)) computed in double, where the result is a
 * normal float; for subnormal results (x < -87.3) the absolute error is at
 * most 2^-149 (one subnormal step). NaN gives NaN, -inf 0, +inf 1. The scalar
 * kernel (libm's expf) differs from this one by a few ulp: not bitwise.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

static inline v128_t exp_nonpositive(v128_t z) {
  const v128_t log2e = wasm_f32x4_splat(1.44269504088896341f);
  const v128_t ln2_hi = wasm_f32x4_splat(0.693145751953125f); /* 0x3F317200 */
  const v128_t ln2_lo = wasm_f32x4_splat(1.428606765330187045e-06f);
  /* pmax keeps NaN: `z < lo ? lo : z` is false for NaN. */
  z = wasm_f32x4_pmax(z, wasm_f32x4_splat(-104.0f));
  const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(z, log2e));
  v128_t r = wasm_f32x4_sub(z, wasm_f32x4_mul(n, ln2_hi));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, ln2_lo));
  /* Horner: 1 + r (1 + r (1/2 + r (1/6 + r (1/24 + r (1/120 + r (1/720 + r/5040)))))) */
  v128_t p = wasm_f32x4_splat(1.0f / 5040.0f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 720.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 120.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 24.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 6.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  /* n in [-150, 0]: 2^n = 2^n1 * 2^n2 with n1 = n / 2 (toward zero) and
   * n2 = n - n1, both >= -75, normal floats. NaN converts to 0 (saturating),
   * and p is NaN anyway. */
  const v128_t ni = wasm_i32x4_trunc_sat_f32x4(n);
  const v128_t n1 = wasm_i32x4_shr(ni, 1), n2 = wasm_i32x4_sub(ni, n1);
  const v128_t bias = wasm_i32x4_splat(127);
  const v128_t s1 = wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23);
  const v128_t s2 = wasm_i32x4_shl(wasm_i32x4_add(n2, bias), 23);
  return wasm_f32x4_mul(wasm_f32x4_mul(p, s1), s2);
}

static inline v128_t sigmoid4(v128_t x) {
  const v128_t e = exp_nonpositive(wasm_f32x4_neg(wasm_f32x4_abs(x)));
  /* x < 0: e / (1 + e), one rounding fewer than the scalar kernel's e * s. */
  const v128_t neg = wasm_f32x4_lt(x, wasm_f32x4_splat(0.0f));
  const v128_t num = wasm_v128_bitselect(e, wasm_f32x4_splat(1.0f), neg);
  return wasm_f32x4_div(num, wasm_f32x4_add(wasm_f32x4_splat(1.0f), e));
}

void wnn_f32_sigmoid__wasmsimd(size_t n, const float *x, float *y,
                               const wnn_f32_unary_params *params) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, sigmoid4(wasm_v128_load(x + i)));
  if (i < n) {
    /* The tail through a padded vector: the same function for every element. */
    float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (size_t j = 0; i + j < n; j++) t[j] = x[i + j];
    wasm_v128_store(t, sigmoid4(wasm_v128_load(t)));
    for (size_t j = 0; i + j < n; j++) y[i + j] = t[j];
  }
}
