/*
 * SIMD128 epilogues of the int8 GEMM (kernels.h, "int8 GEMM"), the bits of
 * qs32_epilogue__scalar.c: the requantization is q8_simd.h's (the rounding
 * by a magic add, the zero point in int32, the clamp after the saturating
 * narrowing); the dequantization the scalar float operations in their order
 * (f32x4.convert_i32x4_s rounds as (float) does). Ragged tails go element by
 * element.
 */
#include <math.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/q8_simd.h"

void wnn_qs32_requant__wasmsimd(size_t rows, size_t n, const int32_t *acc, size_t acc_rs,
                                const float *scale, void *y, size_t y_rs,
                                const wnn_qs32_requant_params *p) {
  const float zpf = p->zero_point, lof = p->lo, hif = p->hi;
  /* int8 y goes through uint8's range: zero point, lo and hi + 128, the
   * bytes flipped back */
  const int32_t move = p->s8 ? 128 : 0;
  const v128_t zp_bits = wnn_q8_zp_bits((int32_t)zpf + move);
  const v128_t lo = wasm_u8x16_splat((uint8_t)((int32_t)lof + move));
  const v128_t hi = wasm_u8x16_splat((uint8_t)((int32_t)hif + move));
  const v128_t flip = wasm_u8x16_splat((uint8_t)move);
  for (size_t i = 0; i < rows; i++) {
    const int32_t *ai = acc + i * acc_rs;
    const bool col = p->per_column;
    const v128_t s = wasm_f32x4_splat(scale[i]);
    uint8_t *yi = (uint8_t *)y + i * y_rs;
    size_t j = 0;
    for (; j + 16 <= n; j += 16) {
#define Q(o) wnn_q8_round_f32x4(wasm_v128_load(ai + j + (o)), col ? wasm_v128_load(scale + j + (o)) : s, zp_bits)
      const v128_t h0 = wasm_i16x8_narrow_i32x4(Q(0), Q(4)), h1 = wasm_i16x8_narrow_i32x4(Q(8), Q(12));
#undef Q
      const v128_t q = wasm_u8x16_min(wasm_u8x16_max(wasm_u8x16_narrow_i16x8(h0, h1), lo), hi);
      wasm_v128_store(yi + j, wasm_v128_xor(q, flip));
    }
    for (; j < n; j++) {
      float v = nearbyintf((float)ai[j] * (col ? scale[j] : scale[i])) + zpf;
      v = v > lof ? v : lof; /* NaN too */
      v = v < hif ? v : hif;
      if (p->s8) ((int8_t *)yi)[j] = (int8_t)v;
      else yi[j] = (uint8_t)v;
    }
  }
}

void wnn_qs32_dequant__wasmsimd(size_t rows, size_t n, const int32_t *acc, size_t acc_rs,
                                const float *scale, const float *bias, float *y, size_t y_rs) {
  for (size_t i = 0; i < rows; i++) {
    const int32_t *ai = acc + i * acc_rs;
    float *yi = y + i * y_rs;
    size_t j = 0;
    if (bias) {
      for (; j + 4 <= n; j += 4) {
        const v128_t v = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_v128_load(ai + j)),
                                        wasm_v128_load(scale + j));
        wasm_v128_store(yi + j, wasm_f32x4_add(v, wasm_v128_load(bias + j)));
      }
      for (; j < n; j++) yi[j] = (float)ai[j] * scale[j] + bias[j];
    } else {
      for (; j + 4 <= n; j += 4)
        wasm_v128_store(yi + j, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_v128_load(ai + j)),
                                               wasm_v128_load(scale + j)));
      for (; j < n; j++) yi[j] = (float)ai[j] * scale[j];
    }
  }
}
