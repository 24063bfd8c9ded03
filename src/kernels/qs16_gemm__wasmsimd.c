/*
 * int16 x int16 GEMM row panel, SIMD128 (kernels.h, "int8 Winograd"): per
 * K-pair step one v128.load32_splat of A per row and two v128 of B (8
 * columns x 2 k); i32x4.dot_i16x8_s multiplies and adds each column's pair,
 * i32x4.add accumulates (wrapping like the scalar kernel). 4 x 8 register
 * tiles; nc is a multiple of 8. Rows past mr alias row 0 (computed, never
 * stored).
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_qs16_gemm_4x8__wasmsimd(size_t mr, size_t nc, size_t kp, const int16_t *a, size_t a_rs,
                                 const int16_t *b, size_t b_rs, int32_t *c, size_t c_rs) {
  const int16_t *a0 = a, *a1 = mr > 1 ? a + a_rs : a, *a2 = mr > 2 ? a + 2 * a_rs : a,
                *a3 = mr > 3 ? a + 3 * a_rs : a;
  for (size_t j = 0; j < nc; j += 8) {
    v128_t c00 = wasm_i32x4_const_splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00,
           c21 = c00, c30 = c00, c31 = c00;
    const int16_t *bp = b + 2 * j;
    for (size_t q = 0; q < 2 * kp; q += 2, bp += b_rs) {
      const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 8);
      v128_t va = wasm_v128_load32_splat(a0 + q);
      c00 = wasm_i32x4_add(c00, wasm_i32x4_dot_i16x8(va, b0));
      c01 = wasm_i32x4_add(c01, wasm_i32x4_dot_i16x8(va, b1));
      va = wasm_v128_load32_splat(a1 + q);
      c10 = wasm_i32x4_add(c10, wasm_i32x4_dot_i16x8(va, b0));
      c11 = wasm_i32x4_add(c11, wasm_i32x4_dot_i16x8(va, b1));
      va = wasm_v128_load32_splat(a2 + q);
      c20 = wasm_i32x4_add(c20, wasm_i32x4_dot_i16x8(va, b0));
      c21 = wasm_i32x4_add(c21, wasm_i32x4_dot_i16x8(va, b1));
      va = wasm_v128_load32_splat(a3 + q);
      c30 = wasm_i32x4_add(c30, wasm_i32x4_dot_i16x8(va, b0));
      c31 = wasm_i32x4_add(c31, wasm_i32x4_dot_i16x8(va, b1));
    }
    int32_t *cj = c + j;
    wasm_v128_store(cj, c00), wasm_v128_store(cj + 4, c01);
    if (mr > 1) wasm_v128_store(cj + c_rs, c10), wasm_v128_store(cj + c_rs + 4, c11);
    if (mr > 2) wasm_v128_store(cj + 2 * c_rs, c20), wasm_v128_store(cj + 2 * c_rs + 4, c21);
    if (mr > 3) wasm_v128_store(cj + 3 * c_rs, c30), wasm_v128_store(cj + 3 * c_rs + 4, c31);
  }
}
