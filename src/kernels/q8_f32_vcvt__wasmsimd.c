/* DequantizeLinear, uint8 / int8 / int32 -> float, SIMD128. 8-bit inputs: 16
 * a step, widened to int32, the zero point subtracted, converted (exact) and
 * multiplied by the scale. (With the subtraction in int16, clang 14 turned
 * the int16 -> float conversion into lane-by-lane scalar code, 3x slower than
 * the scalar kernel's auto-vectorized loop.) int32 inputs: 4 a step, converted directly when the zero point
 * is 0; otherwise x and the zero point go to float64, whose difference is
 * exact (|x - z| < 2^32), and are demoted to float32 once, the rounding of
 * the scalar kernel's (float)(int64)(x - z). Tails element by element. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

/* 4 differences x - z already widened to int32 lanes, converted (exact) and
 * scaled. */
static inline v128_t cvt4(v128_t x32, v128_t z, v128_t s) {
  return wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(x32, z)), s);
}

void wnn_qu8_f32_vcvt__wasmsimd(size_t n, const uint8_t *x, float *y,
                                const wnn_q8_f32_cvt_params *params) {
  const int32_t zp = params->zero_point;
  const v128_t z = wasm_i32x4_splat(zp), s = wasm_f32x4_splat(params->scale);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t v = wasm_v128_load(x + i);
    const v128_t lo = wasm_u16x8_extend_low_u8x16(v), hi = wasm_u16x8_extend_high_u8x16(v);
    wasm_v128_store(y + i, cvt4(wasm_u32x4_extend_low_u16x8(lo), z, s));
    wasm_v128_store(y + i + 4, cvt4(wasm_u32x4_extend_high_u16x8(lo), z, s));
    wasm_v128_store(y + i + 8, cvt4(wasm_u32x4_extend_low_u16x8(hi), z, s));
    wasm_v128_store(y + i + 12, cvt4(wasm_u32x4_extend_high_u16x8(hi), z, s));
  }
  for (; i < n; i++) y[i] = (float)(x[i] - zp) * params->scale;
}

void wnn_qs8_f32_vcvt__wasmsimd(size_t n, const int8_t *x, float *y,
                                const wnn_q8_f32_cvt_params *params) {
  const int32_t zp = params->zero_point;
  const v128_t z = wasm_i32x4_splat(zp), s = wasm_f32x4_splat(params->scale);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t v = wasm_v128_load(x + i);
    const v128_t lo = wasm_i16x8_extend_low_i8x16(v), hi = wasm_i16x8_extend_high_i8x16(v);
    wasm_v128_store(y + i, cvt4(wasm_i32x4_extend_low_i16x8(lo), z, s));
    wasm_v128_store(y + i + 4, cvt4(wasm_i32x4_extend_high_i16x8(lo), z, s));
    wasm_v128_store(y + i + 8, cvt4(wasm_i32x4_extend_low_i16x8(hi), z, s));
    wasm_v128_store(y + i + 12, cvt4(wasm_i32x4_extend_high_i16x8(hi), z, s));
  }
  for (; i < n; i++) y[i] = (float)(x[i] - zp) * params->scale;
}

void wnn_s32_f32_vcvt__wasmsimd(size_t n, const int32_t *x, float *y,
                                const wnn_q8_f32_cvt_params *params) {
  const int64_t zp = params->zero_point;
  const v128_t s = wasm_f32x4_splat(params->scale);
  size_t i = 0;
  if (zp == 0) {
    for (; i + 4 <= n; i += 4)
      wasm_v128_store(y + i, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_v128_load(x + i)), s));
  } else {
    const v128_t z = wasm_f64x2_splat((double)zp);
    for (; i + 4 <= n; i += 4) {
      const v128_t v = wasm_v128_load(x + i);
      const v128_t lo = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(wasm_f64x2_convert_low_i32x4(v), z));
      const v128_t hi = wasm_f32x4_demote_f64x2_zero(
          wasm_f64x2_sub(wasm_f64x2_convert_low_i32x4(wasm_i64x2_shuffle(v, v, 1, 1)), z));
      wasm_v128_store(y + i, wasm_f32x4_mul(wasm_i64x2_shuffle(lo, hi, 0, 2), s));
    }
  }
  for (; i < n; i++) y[i] = (float)((int64_t)x[i] - zp) * params->scale;
}
