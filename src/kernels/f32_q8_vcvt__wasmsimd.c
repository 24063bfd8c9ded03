/* QuantizeLinear, float -> uint8 / int8, SIMD128: 16 elements a step, the
 * scalar kernel's operations lane by lane: f32x4.div, f32x4.nearest (half to
 * even, as nearbyintf), the add of the zero point, then pmax(lo, v) and
 * pmin(hi, v), which are exactly `v > lo ? v : lo` and `v < hi ? v : hi`
 * (NaN gives lo). The clamped values are integers of the output type, so the
 * saturating conversions and narrowings after them are exact. The tail goes
 * element by element (kernels/q8.h). */
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/q8.h"

static inline v128_t quantize4(v128_t x, v128_t s, v128_t z, v128_t lo, v128_t hi) {
  v128_t v = wasm_f32x4_add(wasm_f32x4_nearest(wasm_f32x4_div(x, s)), z);
  v = wasm_f32x4_pmax(lo, v);
  v = wasm_f32x4_pmin(hi, v);
  return wasm_i32x4_trunc_sat_f32x4(v);
}

/* 16 quantized values, as int16 pairs narrowed to 8 bits by `narrow`. */
#define QUANTIZE16(x, narrow)                                                          \
  narrow(wasm_i16x8_narrow_i32x4(quantize4(wasm_v128_load(x), s, z, lo, hi),         \
                                 quantize4(wasm_v128_load((x) + 4), s, z, lo, hi)),  \
         wasm_i16x8_narrow_i32x4(quantize4(wasm_v128_load((x) + 8), s, z, lo, hi),   \
                                 quantize4(wasm_v128_load((x) + 12), s, z, lo, hi)))

void wnn_f32_qu8_vcvt__wasmsimd(size_t n, const float *x, uint8_t *y,
                                const wnn_f32_q8_cvt_params *params) {
  const v128_t s = wasm_f32x4_splat(params->scale), z = wasm_f32x4_splat(params->zero_point);
  const v128_t lo = wasm_f32x4_const_splat(0.0f), hi = wasm_f32x4_const_splat(255.0f);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) wasm_v128_store(y + i, QUANTIZE16(x + i, wasm_u8x16_narrow_i16x8));
  for (; i < n; i++)
    y[i] = (uint8_t)wnn_q8_quantize(x[i], params->scale, params->zero_point, 0.0f, 255.0f);
}

void wnn_f32_qs8_vcvt__wasmsimd(size_t n, const float *x, int8_t *y,
                                const wnn_f32_q8_cvt_params *params) {
  const v128_t s = wasm_f32x4_splat(params->scale), z = wasm_f32x4_splat(params->zero_point);
  const v128_t lo = wasm_f32x4_const_splat(-128.0f), hi = wasm_f32x4_const_splat(127.0f);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) wasm_v128_store(y + i, QUANTIZE16(x + i, wasm_i8x16_narrow_i16x8));
  for (; i < n; i++)
    y[i] = (int8_t)wnn_q8_quantize(x[i], params->scale, params->zero_point, -128.0f, 127.0f);
}
