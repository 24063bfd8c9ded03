/*
 * SIMD128 packing for the int8 GEMM (kernels.h, "int8 GEMM"); the same values
 * as q8_pack__scalar.c (integers, and for the float rows the same division,
 * rounding and comparisons). 8-bit input is read as uint8 after flipping the
 * sign bit of int8 (x ^ 0x80 = x + 128), so one widening (u16x8.extend_*_u8x16)
 * and one subtraction of zero_point (+ 128 for int8) serve both types.
 * Ragged tails go element by element.
 */
#include <math.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"

static inline int16_t q8_minus_zp(const uint8_t *x, size_t i, const wnn_q8_pack_params *p) {
  const int32_t v = p->s8 ? (int32_t)(int8_t)x[i] : (int32_t)x[i];
  return (int16_t)(v - p->zero_point);
}

void wnn_q8_packk__wasmsimd(size_t k, size_t n, const uint8_t *x, size_t x_rs, int16_t *y,
                            size_t y_rs, const wnn_q8_pack_params *p) {
  const v128_t mask = wasm_i8x16_splat(p->s8 ? (int8_t)0x80 : 0);
  const v128_t zp = wasm_i16x8_splat((int16_t)(p->zero_point + (p->s8 ? 128 : 0)));
  const v128_t zero = wasm_i16x8_const_splat(0);
  for (size_t r = 0; r < k; r += 2) {
    const uint8_t *x0 = x + r * x_rs, *x1 = x0 + x_rs;
    int16_t *yr = y + (r / 2) * y_rs;
    const bool odd = r + 1 == k;
    size_t j = 0;
    for (; j + 16 <= n; j += 16) {
      const v128_t v0 = wasm_v128_xor(wasm_v128_load(x0 + j), mask);
      const v128_t l0 = wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(v0), zp);
      const v128_t h0 = wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(v0), zp);
      v128_t l1 = zero, h1 = zero;
      if (!odd) {
        const v128_t v1 = wasm_v128_xor(wasm_v128_load(x1 + j), mask);
        l1 = wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(v1), zp);
        h1 = wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(v1), zp);
      }
      int16_t *o = yr + 2 * j;
      wasm_v128_store(o, wasm_i16x8_shuffle(l0, l1, 0, 8, 1, 9, 2, 10, 3, 11));
      wasm_v128_store(o + 8, wasm_i16x8_shuffle(l0, l1, 4, 12, 5, 13, 6, 14, 7, 15));
      wasm_v128_store(o + 16, wasm_i16x8_shuffle(h0, h1, 0, 8, 1, 9, 2, 10, 3, 11));
      wasm_v128_store(o + 24, wasm_i16x8_shuffle(h0, h1, 4, 12, 5, 13, 6, 14, 7, 15));
    }
    for (; j < n; j++) {
      yr[2 * j] = q8_minus_zp(x0, j, p);
      yr[2 * j + 1] = odd ? 0 : q8_minus_zp(x1, j, p);
    }
  }
}

void wnn_q8_packrows__wasmsimd(size_t rows, size_t k, const uint8_t *x, size_t x_rs, int16_t *y,
                               size_t y_rs, const wnn_q8_pack_params *p) {
  const v128_t mask = wasm_i8x16_splat(p->s8 ? (int8_t)0x80 : 0);
  const v128_t zp = wasm_i16x8_splat((int16_t)(p->zero_point + (p->s8 ? 128 : 0)));
  for (size_t i = 0; i < rows; i++) {
    const uint8_t *xi = x + i * x_rs;
    int16_t *yi = y + i * y_rs;
    size_t c = 0;
    for (; c + 16 <= k; c += 16) {
      const v128_t v = wasm_v128_xor(wasm_v128_load(xi + c), mask);
      wasm_v128_store(yi + c, wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(v), zp));
      wasm_v128_store(yi + c + 8, wasm_i16x8_sub(wasm_u16x8_extend_high_u8x16(v), zp));
    }
    for (; c < k; c++) yi[c] = q8_minus_zp(xi, c, p);
    if (k & 1) yi[k] = 0;
  }
}

void wnn_s8_packk__wasmsimd(size_t k, size_t n, const int8_t *x, size_t x_rs, int8_t *y,
                            size_t y_rs) {
  for (size_t r = 0; r < k; r += 2) {
    const int8_t *x0 = x + r * x_rs, *x1 = x0 + x_rs;
    int8_t *yr = y + (r / 2) * y_rs;
    const bool odd = r + 1 == k;
    size_t j = 0;
    for (; j + 16 <= n; j += 16) {
      const v128_t v0 = wasm_v128_load(x0 + j);
      const v128_t v1 = odd ? wasm_i8x16_const_splat(0) : wasm_v128_load(x1 + j);
      wasm_v128_store(yr + 2 * j, wasm_i8x16_shuffle(v0, v1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20,
                                                     5, 21, 6, 22, 7, 23));
      wasm_v128_store(yr + 2 * j + 16, wasm_i8x16_shuffle(v0, v1, 8, 24, 9, 25, 10, 26, 11, 27,
                                                          12, 28, 13, 29, 14, 30, 15, 31));
    }
    for (; j < n; j++) {
      yr[2 * j] = x0[j];
      yr[2 * j + 1] = odd ? 0 : x1[j];
    }
  }
}

/* The scalar kernel's element (q8_pack__scalar.c). */
static inline int16_t dql(float x, float scale, float zp) {
  float q = nearbyintf(x / scale) + zp;
  q = q > 0.0f ? q : 0.0f; /* NaN too */
  q = q < 255.0f ? q : 255.0f;
  return (int16_t)((int32_t)q - (int32_t)zp);
}

/* Four elements: pmax(0, q) is 0 < q ? q : 0 and pmin(255, q) is
 * q < 255 ? q : 255, the scalar comparisons (NaN -> 0). */
static inline v128_t dql4(v128_t x, v128_t s, v128_t zp, v128_t zpi) {
  v128_t q = wasm_f32x4_add(wasm_f32x4_nearest(wasm_f32x4_div(x, s)), zp);
  q = wasm_f32x4_pmax(wasm_f32x4_const_splat(0.0f), q);
  q = wasm_f32x4_pmin(wasm_f32x4_const_splat(255.0f), q);
  return wasm_i32x4_sub(wasm_i32x4_trunc_sat_f32x4(q), zpi);
}

void wnn_f32_qpackrows__wasmsimd(size_t rows, size_t k, const float *x, size_t x_rs, int16_t *y,
                                 size_t y_rs, float scale, float zero_point) {
  const bool zero = !(scale > 0.0f); /* DynamicQuantizeLinear: every q is 0 */
  const int16_t zq = (int16_t)(0.0f - zero_point);
  const v128_t s = wasm_f32x4_splat(scale), zp = wasm_f32x4_splat(zero_point);
  const v128_t zpi = wasm_i32x4_splat((int32_t)zero_point);
  for (size_t i = 0; i < rows; i++) {
    const float *xi = x + i * x_rs;
    int16_t *yi = y + i * y_rs;
    size_t c = 0;
    if (!zero)
      for (; c + 8 <= k; c += 8) {
        const v128_t lo = dql4(wasm_v128_load(xi + c), s, zp, zpi);
        const v128_t hi = dql4(wasm_v128_load(xi + c + 4), s, zp, zpi);
        wasm_v128_store(yi + c, wasm_i16x8_narrow_i32x4(lo, hi));
      }
    for (; c < k; c++) yi[c] = zero ? zq : dql(xi[c], scale, zero_point);
    if (k & 1) yi[k] = 0;
  }
}
