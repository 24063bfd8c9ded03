/*
 * SIMD128 epilogues of the int8 GEMM (kernels.h, "int8 GEMM"): the float
 * operations of qs32_epilogue__scalar.c in the same order, so the same bits.
 * f32x4.convert_i32x4_s rounds as (float) does, f32x4.nearest is nearbyintf
 * (ties to even), and pmax(lo, v) / pmin(hi, v) are the scalar comparisons
 * v > lo ? v : lo and v < hi ? v : hi (NaN -> lo). Ragged tails go element by
 * element.
 */
#include <math.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"

static inline v128_t requant4(v128_t acc, v128_t s, v128_t zp, v128_t lo, v128_t hi) {
  v128_t v = wasm_f32x4_add(wasm_f32x4_nearest(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), s)),
                            zp);
  v = wasm_f32x4_pmin(hi, wasm_f32x4_pmax(lo, v));
  return wasm_i32x4_trunc_sat_f32x4(v);
}

void wnn_qs32_requant__wasmsimd(size_t rows, size_t n, const int32_t *acc, size_t acc_rs,
                                const float *scale, void *y, size_t y_rs,
                                const wnn_qs32_requant_params *p) {
  const float zpf = p->zero_point, lof = p->lo, hif = p->hi;
  const v128_t zp = wasm_f32x4_splat(zpf), lo = wasm_f32x4_splat(lof), hi = wasm_f32x4_splat(hif);
  for (size_t i = 0; i < rows; i++) {
    const int32_t *ai = acc + i * acc_rs;
    const bool col = p->per_column;
    const v128_t s = wasm_f32x4_splat(scale[i]);
    uint8_t *yi = (uint8_t *)y + i * y_rs;
    size_t j = 0;
    for (; j + 16 <= n; j += 16) {
#define S(o) (col ? wasm_v128_load(scale + j + (o)) : s)
      const v128_t q0 = requant4(wasm_v128_load(ai + j), S(0), zp, lo, hi);
      const v128_t q1 = requant4(wasm_v128_load(ai + j + 4), S(4), zp, lo, hi);
      const v128_t q2 = requant4(wasm_v128_load(ai + j + 8), S(8), zp, lo, hi);
      const v128_t q3 = requant4(wasm_v128_load(ai + j + 12), S(12), zp, lo, hi);
#undef S
      const v128_t h0 = wasm_i16x8_narrow_i32x4(q0, q1), h1 = wasm_i16x8_narrow_i32x4(q2, q3);
      wasm_v128_store(yi + j, p->s8 ? wasm_i8x16_narrow_i16x8(h0, h1)
                                    : wasm_u8x16_narrow_i16x8(h0, h1));
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
