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
 * Measured error (tests/kernels/test_simd_elementwise.c, a sweep of every 97th
 * float in [-104, 104] and the specials): at most 2.30 ulp (the test allows
 * 2.5) against 1 / (1 + exp(-x)) computed in double, where the result is a
 * normal float; for subnormal results (x < -87.3) the absolute error is at
 * most 2^-149 (one subnormal step). NaN gives NaN, -inf 0, +inf 1. The scalar
 * kernel (libm's expf) differs from this one by a few ulp: not bitwise.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_exp.h"

static inline __attribute__((always_inline)) v128_t sigmoid4(v128_t x) {
  const v128_t e = wnn_f32x4_exp_nonpositive(wasm_f32x4_neg(wasm_f32x4_abs(x)));
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
