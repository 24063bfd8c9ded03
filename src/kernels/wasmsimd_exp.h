/* exp on four lanes, shared by the SIMD128 kernels that need it (sigmoid,
 * softmax, the vmath kernels). Range reduction z = n ln2 + r with ln2 split in
 * two (Cody-Waite), r in [-ln2/2, ln2/2]; a degree-7 Taylor polynomial in
 * Horner form; the scale 2^n applied as two normal-float factors so results
 * down to the subnormal range stay exact in the exponent. The three steps are
 * separate helpers so that expm1 (tanh) and exp of a two-part argument (erf)
 * reuse them. Accuracy: see f32_sigmoid__wasmsimd.c, f32_vmath__wasmsimd.c and
 * their tests. Include only in SIMD128 files. */
#ifndef WNN_WASMSIMD_EXP_H
#define WNN_WASMSIMD_EXP_H

#include <wasm_simd128.h>

/* n = round(z / ln2) (returned, as a float) and *r = z - n ln2, for
 * z in [-104, 89] or NaN. ln2_hi has 15 significant bits, so n * ln2_hi and
 * z - n * ln2_hi are exact for |n| < 256. */
static inline __attribute__((always_inline)) v128_t wnn_f32x4_exp_reduce(v128_t z, v128_t *r) {
  const v128_t log2e = wasm_f32x4_splat(1.44269504088896341f);
  const v128_t ln2_hi = wasm_f32x4_splat(0.693145751953125f); /* 0x3F317200 */
  const v128_t ln2_lo = wasm_f32x4_splat(1.428606765330187045e-06f);
  const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(z, log2e));
  *r = wasm_f32x4_sub(wasm_f32x4_sub(z, wasm_f32x4_mul(n, ln2_hi)), wasm_f32x4_mul(n, ln2_lo));
  return n;
}

/* u(r) with exp(r) = 1 + r u(r): Horner for
 * 1 + r (1/2 + r (1/6 + r (1/24 + r (1/120 + r (1/720 + r/5040))))). */
static inline __attribute__((always_inline)) v128_t wnn_f32x4_exp_poly(v128_t r) {
  v128_t p = wasm_f32x4_splat(1.0f / 5040.0f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 720.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 120.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 24.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 6.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.5f));
  return wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
}

/* p * 2^n for integral n in [-150, 128] (or NaN, which converts to 0; p is
 * NaN then anyway): 2^n = 2^n1 * 2^n2 with n1 = floor(n / 2) and n2 = n - n1,
 * both normal floats, so results in the subnormal range round only once
 * and results past FLT_MAX become +inf. */
static inline __attribute__((always_inline)) v128_t wnn_f32x4_scale2n(v128_t p, v128_t n) {
  const v128_t ni = wasm_i32x4_trunc_sat_f32x4(n);
  const v128_t n1 = wasm_i32x4_shr(ni, 1), n2 = wasm_i32x4_sub(ni, n1);
  const v128_t bias = wasm_i32x4_splat(127);
  const v128_t s1 = wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23);
  const v128_t s2 = wasm_i32x4_shl(wasm_i32x4_add(n2, bias), 23);
  return wasm_f32x4_mul(wasm_f32x4_mul(p, s1), s2);
}

/* exp(z) for z <= 0 (or NaN): inputs below -104 give 0, NaN gives NaN. */
static inline __attribute__((always_inline)) v128_t wnn_f32x4_exp_nonpositive(v128_t z) {
  /* pmax keeps NaN: `z < lo ? lo : z` is false for NaN. */
  z = wasm_f32x4_pmax(z, wasm_f32x4_splat(-104.0f));
  v128_t r;
  const v128_t n = wnn_f32x4_exp_reduce(z, &r);
  const v128_t p = wasm_f32x4_add(wasm_f32x4_mul(wnn_f32x4_exp_poly(r), r), wasm_f32x4_splat(1.0f));
  return wnn_f32x4_scale2n(p, n);
}

#endif /* WNN_WASMSIMD_EXP_H */
