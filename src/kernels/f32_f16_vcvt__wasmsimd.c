/* float32 -> float16 in SIMD128, 8 elements a step, the same bits as the
 * scalar kernel (src/base/half.h): normals round to nearest even with an
 * integer add on the magnitude's bits (a carry may reach the exponent) and
 * are clamped to infinity; results below 2^-14 come from the FPU's own
 * rounding of |x| + 0.5; NaNs become quiet NaNs with their top payload bits.
 * The three are chosen by the magnitude, the sign put back, and the 32-bit
 * lanes (all at most 0xffff) narrowed to 16. The tail goes element by
 * element. */
#include <wasm_simd128.h>

#include "base/half.h"
#include "kernels/kernels.h"

static inline v128_t cvt4(v128_t f) {
  const v128_t sign = wasm_v128_and(wasm_u32x4_shr(f, 16), wasm_i32x4_const_splat(0x8000));
  const v128_t a = wasm_v128_and(f, wasm_i32x4_const_splat(0x7fffffff));
  const v128_t lsb = wasm_v128_and(wasm_u32x4_shr(a, 13), wasm_i32x4_const_splat(1));
  const v128_t r = wasm_i32x4_add(wasm_i32x4_add(a, wasm_i32x4_const_splat(0x0fff)), lsb);
  v128_t normal = wasm_i32x4_sub(wasm_u32x4_shr(r, 13), wasm_i32x4_const_splat((127 - 15) << 10));
  normal = wasm_u32x4_min(normal, wasm_i32x4_const_splat(0x7c00));
  const v128_t s = wasm_f32x4_add(wasm_f32x4_abs(f), wasm_f32x4_const_splat(0.5f));
  const v128_t sub = wasm_i32x4_sub(s, wasm_i32x4_const_splat(0x3f000000));
  const v128_t nan = wasm_v128_or(wasm_i32x4_const_splat(0x7e00),
                                  wasm_v128_and(wasm_u32x4_shr(a, 13), wasm_i32x4_const_splat(0x03ff)));
  v128_t h = wasm_v128_bitselect(sub, normal, wasm_i32x4_lt(a, wasm_i32x4_const_splat(0x38800000)));
  h = wasm_v128_bitselect(nan, h, wasm_i32x4_gt(a, wasm_i32x4_const_splat(0x7f800000)));
  return wasm_v128_or(h, sign);
}

void wnn_f32_f16_vcvt__wasmsimd(size_t n, const float *x, uint16_t *y) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t lo = cvt4(wasm_v128_load(x + i)), hi = cvt4(wasm_v128_load(x + i + 4));
    wasm_v128_store(y + i, wasm_u16x8_narrow_i32x4(lo, hi));
  }
  for (; i < n; i++) y[i] = wnn_f32_to_f16(x[i]);
}
