/*
 * Exact integer Winograd F(2x2, 3x3) transforms, SIMD128 (kernels.h, "int8
 * Winograd"); integer arithmetic, so the bits of the scalar kernels.
 *
 * Input: 8 tiles of one channel per step. A line's 18 bytes at 2t are two
 * overlapping 16-byte loads; one byte shuffle each puts the even columns
 * below the odd ones, and widening gives the 4 window columns d0..d3 of the
 * 8 tiles as int16 lanes. The two channels' results are interleaved into
 * K-pairs as they are stored.
 * Weights: 8 kernels per step, their taps gathered into lanes
 * (v128.load8_lane), transformed as int16 lanes; the rest by the scalar
 * kernel.
 * Output: 4 tiles of one channel per step as int32 lanes (M read up to a
 * multiple of 4 tiles); the two output columns of each tile are interleaved
 * as they are stored, the columns past cols left out.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_qs16_winograd_input__wasmsimd(size_t n, const uint8_t *lines, size_t ls, int16_t *v,
                                       size_t v_ps, const wnn_q8_pack_params *p) {
  const v128_t zp = wasm_i16x8_splat((int16_t)p->zero_point);
  const int s8 = p->s8;
  for (size_t t = 0; t < n; t += 8) {
    v128_t out[2][16];
    for (size_t c = 0; c < 2; c++) {
      v128_t h[4][4];
      for (size_t r = 0; r < 4; r++) {
        const uint8_t *l = lines + (4 * c + r) * ls + 2 * t;
        const v128_t x0 = wasm_i8x16_shuffle(wasm_v128_load(l), wasm_v128_load(l), 0, 2, 4, 6,
                                             8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
        const v128_t x1 = wasm_i8x16_shuffle(wasm_v128_load(l + 2), wasm_v128_load(l + 2), 0,
                                             2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
        v128_t d0, d1, d2, d3;
        if (s8) {
          d0 = wasm_i16x8_extend_low_i8x16(x0), d1 = wasm_i16x8_extend_high_i8x16(x0);
          d2 = wasm_i16x8_extend_low_i8x16(x1), d3 = wasm_i16x8_extend_high_i8x16(x1);
        } else {
          d0 = wasm_u16x8_extend_low_u8x16(x0), d1 = wasm_u16x8_extend_high_u8x16(x0);
          d2 = wasm_u16x8_extend_low_u8x16(x1), d3 = wasm_u16x8_extend_high_u8x16(x1);
        }
        d0 = wasm_i16x8_sub(d0, zp), d1 = wasm_i16x8_sub(d1, zp);
        d2 = wasm_i16x8_sub(d2, zp), d3 = wasm_i16x8_sub(d3, zp);
        h[r][0] = wasm_i16x8_sub(d0, d2), h[r][1] = wasm_i16x8_add(d1, d2);
        h[r][2] = wasm_i16x8_sub(d2, d1), h[r][3] = wasm_i16x8_sub(d1, d3);
      }
      for (size_t j = 0; j < 4; j++) {
        out[c][0 + j] = wasm_i16x8_sub(h[0][j], h[2][j]);
        out[c][4 + j] = wasm_i16x8_add(h[1][j], h[2][j]);
        out[c][8 + j] = wasm_i16x8_sub(h[2][j], h[1][j]);
        out[c][12 + j] = wasm_i16x8_sub(h[1][j], h[3][j]);
      }
    }
    for (size_t i = 0; i < 16; i++) {
      int16_t *vi = v + i * v_ps + 2 * t;
      wasm_v128_store(vi, wasm_i16x8_shuffle(out[0][i], out[1][i], 0, 8, 1, 9, 2, 10, 3, 11));
      wasm_v128_store(vi + 8, wasm_i16x8_shuffle(out[0][i], out[1][i], 4, 12, 5, 13, 6, 14, 7, 15));
    }
  }
}

void wnn_qs16_winograd_weight__wasmsimd(size_t rows, const int8_t *w, int16_t *u, size_t u_ps) {
  size_t r = 0;
  for (; r + 8 <= rows; r += 8) {
    const int8_t *w8 = w + 9 * r;
    v128_t g[9];
    for (size_t k = 0; k < 9; k++) {
      v128_t x = wasm_i64x2_const_splat(0);
      x = wasm_v128_load8_lane(w8 + k, x, 0);
      x = wasm_v128_load8_lane(w8 + 9 + k, x, 1);
      x = wasm_v128_load8_lane(w8 + 18 + k, x, 2);
      x = wasm_v128_load8_lane(w8 + 27 + k, x, 3);
      x = wasm_v128_load8_lane(w8 + 36 + k, x, 4);
      x = wasm_v128_load8_lane(w8 + 45 + k, x, 5);
      x = wasm_v128_load8_lane(w8 + 54 + k, x, 6);
      x = wasm_v128_load8_lane(w8 + 63 + k, x, 7);
      g[k] = wasm_i16x8_extend_low_i8x16(x);
    }
    v128_t t[4][3];
    for (size_t j = 0; j < 3; j++) {
      const v128_t s = wasm_i16x8_add(g[j], g[6 + j]);
      t[0][j] = wasm_i16x8_shl(g[j], 1);
      t[1][j] = wasm_i16x8_add(s, g[3 + j]);
      t[2][j] = wasm_i16x8_sub(s, g[3 + j]);
      t[3][j] = wasm_i16x8_shl(g[6 + j], 1);
    }
    for (size_t i = 0; i < 4; i++) {
      const v128_t s = wasm_i16x8_add(t[i][0], t[i][2]);
      wasm_v128_store(u + (4 * i + 0) * u_ps + r, wasm_i16x8_shl(t[i][0], 1));
      wasm_v128_store(u + (4 * i + 1) * u_ps + r, wasm_i16x8_add(s, t[i][1]));
      wasm_v128_store(u + (4 * i + 2) * u_ps + r, wasm_i16x8_sub(s, t[i][1]));
      wasm_v128_store(u + (4 * i + 3) * u_ps + r, wasm_i16x8_shl(t[i][2], 1));
    }
  }
  if (r < rows) wnn_qs16_winograd_weight__scalar(rows - r, w + 9 * r, u + r, u_ps);
}

void wnn_qs16_winograd_output__wasmsimd(size_t channels, size_t n, size_t cols, size_t rows,
                                        const int32_t *m, size_t m_ps, size_t m_cs,
                                        const int32_t *bias, int32_t *y, size_t y_rs,
                                        size_t y_cs) {
  for (size_t c = 0; c < channels; c++) {
    const v128_t b = wasm_i32x4_splat(bias ? bias[c] : 0);
    const int32_t *mc = m + c * m_cs;
    int32_t *yc = y + c * y_cs;
    for (size_t t = 0; t < n; t += 4) {
      v128_t q[16], s[2][4];
      for (size_t i = 0; i < 16; i++) q[i] = wasm_v128_load(mc + i * m_ps + t);
      for (size_t j = 0; j < 4; j++) {
        s[0][j] = wasm_i32x4_add(wasm_i32x4_add(q[j], q[4 + j]), q[8 + j]);
        s[1][j] = wasm_i32x4_sub(wasm_i32x4_sub(q[4 + j], q[8 + j]), q[12 + j]);
      }
      for (size_t i = 0; i < rows; i++) {
        v128_t o0 = wasm_i32x4_add(wasm_i32x4_add(s[i][0], s[i][1]), s[i][2]);
        v128_t o1 = wasm_i32x4_sub(wasm_i32x4_sub(s[i][1], s[i][2]), s[i][3]);
        o0 = wasm_i32x4_add(wasm_i32x4_shr(o0, 2), b);
        o1 = wasm_i32x4_add(wasm_i32x4_shr(o1, 2), b);
        const v128_t lo = wasm_i32x4_shuffle(o0, o1, 0, 4, 1, 5);
        const v128_t hi = wasm_i32x4_shuffle(o0, o1, 2, 6, 3, 7);
        int32_t *yi = yc + i * y_rs + 2 * t;
        if (2 * t + 8 <= cols) {
          wasm_v128_store(yi, lo), wasm_v128_store(yi + 4, hi);
        } else { /* the last columns of the row */
          int32_t buf[8];
          wasm_v128_store(buf, lo), wasm_v128_store(buf + 4, hi);
          for (size_t j = 0; 2 * t + j < cols; j++) yi[j] = buf[j];
        }
      }
    }
  }
}
