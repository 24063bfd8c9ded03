/* float16 -> float32 in SIMD128, 8 elements a step, the same bits as the
 * scalar kernel (src/base/half.h): each half is widened to 32 bits, its
 * exponent rebiased with an integer add (normals; infinities and NaNs with
 * the add that lands on exponent 255, NaNs made quiet), subnormals converted
 * as integers and scaled by 2^-24 (exact), and the three chosen by the
 * exponent field. The tail goes element by element. */
#include <wasm_simd128.h>

#include "base/half.h"
#include "kernels/kernels.h"

static inline v128_t cvt4(v128_t h) {
  const v128_t sign = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_const_splat(0x8000)), 16);
  const v128_t mag = wasm_v128_and(h, wasm_i32x4_const_splat(0x7fff));
  const v128_t exp = wasm_v128_and(h, wasm_i32x4_const_splat(0x7c00));
  const v128_t shifted = wasm_i32x4_shl(mag, 13);
  const v128_t normal = wasm_i32x4_add(shifted, wasm_i32x4_const_splat((127 - 15) << 23));
  const v128_t has_man = wasm_v128_not(
      wasm_i32x4_eq(wasm_v128_and(h, wasm_i32x4_const_splat(0x03ff)), wasm_i32x4_const_splat(0)));
  const v128_t special =
      wasm_v128_or(wasm_i32x4_add(shifted, wasm_i32x4_const_splat((255 - 31) << 23)),
                   wasm_v128_and(has_man, wasm_i32x4_const_splat(0x00400000)));
  const v128_t sub = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(mag), wasm_f32x4_const_splat(0x1p-24f));
  v128_t r = wasm_v128_bitselect(special, normal, wasm_i32x4_eq(exp, wasm_i32x4_const_splat(0x7c00)));
  r = wasm_v128_bitselect(sub, r, wasm_i32x4_eq(exp, wasm_i32x4_const_splat(0)));
  return wasm_v128_or(r, sign);
}

void wnn_f16_f32_vcvt__wasmsimd(size_t n, const uint16_t *x, float *y) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t h = wasm_v128_load(x + i);
    wasm_v128_store(y + i, cvt4(wasm_u32x4_extend_low_u16x8(h)));
    wasm_v128_store(y + i + 4, cvt4(wasm_u32x4_extend_high_u16x8(h)));
  }
  for (; i < n; i++) y[i] = wnn_f16_to_f32(x[i]);
}
