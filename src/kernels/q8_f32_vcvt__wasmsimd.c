/* DequantizeLinear, uint8 / int8 / int32 -> float, SIMD128. 8-bit inputs: 16
 * a step, widened to int16, the zero point subtracted there (the difference
 * fits in [-255, 255]), widened to int32, converted (exact) and multiplied by
 * the scale. int32 inputs: 4 a step, converted directly when the zero point
 * is 0; otherwise x and the zero point go to float64, whose difference is
 * exact (|x - z| < 2^32), and are demoted to float32 once, the rounding of
 * the scalar kernel's (float)(int64)(x - z). Tails element by element. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

static inline void cvt8(v128_t d16, v128_t s, float *y) {
  wasm_v128_store(y, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(d16)), s));
  wasm_v128_store(y + 4,
                  wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_extend_high_i16x8(d16)), s));
}

void wnn_qu8_f32_vcvt__wasmsimd(size_t n, const uint8_t *x, float *y,
                                const wnn_q8_f32_cvt_params *params) {
  const int32_t zp = params->zero_point;
  const v128_t z = wasm_i16x8_splat((int16_t)zp), s = wasm_f32x4_splat(params->scale);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t v = wasm_v128_load(x + i);
    cvt8(wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(v), z), s, y + i);
    cvt8(wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(v), z), s, y + i + 8);
  }
  for (; i < n; i++) y[i] = (float)(x[i] - zp) * params->scale;
}

void wnn_qs8_f32_vcvt__wasmsimd(size_t n, const int8_t *x, float *y,
                                const wnn_q8_f32_cvt_params *params) {
  const int32_t zp = params->zero_point;
  const v128_t z = wasm_i16x8_splat((int16_t)zp), s = wasm_f32x4_splat(params->scale);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t v = wasm_v128_load(x + i);
    cvt8(wasm_i16x8_sub(wasm_i16x8_extend_low_i8x16(v), z), s, y + i);
    cvt8(wasm_i16x8_sub(wasm_i16x8_extend_high_i8x16(v), z), s, y + i + 8);
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
