/* exp(z) on four lanes for z <= 0 (or NaN), shared by the SIMD128 kernels
 * that need it (sigmoid, softmax). Range reduction z = n ln2 + r with ln2 split
 * in two (Cody-Waite), r in [-ln2/2, ln2/2]; a degree-7 Taylor polynomial in
 * Horner form; the scale 2^n applied as two normal-float factors so results
 * down to the subnormal range stay exact in the exponent. Inputs below -104
 * give 0; NaN gives NaN. Accuracy: see f32_sigmoid__wasmsimd.c and
 * tests/kernels/test_simd_elementwise.c. Include only in SIMD128 files. */
#ifndef WNN_WASMSIMD_EXP_H
#define WNN_WASMSIMD_EXP_H

#include <wasm_simd128.h>

static inline __attribute__((always_inline)) v128_t wnn_f32x4_exp_nonpositive(v128_t z) {
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

#endif /* WNN_WASMSIMD_EXP_H */
