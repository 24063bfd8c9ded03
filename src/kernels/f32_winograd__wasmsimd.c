/*
 * Winograd transforms F(2x2, 3x3) and F(4x4, 3x3), SIMD128
 * (src/kernels/winograd.h). One tile per lane for the input and output
 * transforms (4 tiles: V[p] and M[p] rows hold 4 consecutive tiles), 4
 * consecutive input channels per vector for the weight transform. Every lane
 * does exactly the scalar variant's operations in the same order
 * (f32_winograd__scalar.c, which also gives the matrices): bitwise identical.
 *
 * Loads and stores: when the 4 tiles are horizontally adjacent (d_ts or y_ts
 * equal to the tile size m), each row of their windows is contiguous and is
 * read with vector loads and an in-register 4x4 transpose (the overlapping
 * last 2 columns come from one more 64-bit load and a lane shift); other
 * input strides are gathered lane by lane. Outputs (always 4 adjacent tiles,
 * y_ts == m) are transposed back and stored as whole rows.
 */
#include <wasm_simd128.h>

#include "kernels/winograd.h"

#define ADD wasm_f32x4_add
#define SUB wasm_f32x4_sub
#define MUL wasm_f32x4_mul
#define K(c) wasm_f32x4_const_splat(c)

/* ------------------------------------------------------ 1-D transforms */

static inline __attribute__((always_inline)) void bt6(const v128_t *d, size_t s, v128_t *o, size_t os) {
  const v128_t d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s], d4 = d[4 * s], d5 = d[5 * s];
  const v128_t s12 = ADD(d1, d2), t12 = SUB(d1, d2), t42 = SUB(d4, d2), t31 = SUB(d3, d1);
  o[0] = ADD(SUB(MUL(K(4.0f), d0), MUL(K(5.0f), d2)), d4);
  o[os] = SUB(ADD(d3, d4), MUL(K(4.0f), s12));
  o[2 * os] = ADD(SUB(d4, d3), MUL(K(4.0f), t12));
  o[3 * os] = ADD(t42, MUL(K(2.0f), t31));
  o[4 * os] = SUB(t42, MUL(K(2.0f), t31));
  o[5 * os] = ADD(SUB(MUL(K(4.0f), d1), MUL(K(5.0f), d3)), d5);
}

static inline __attribute__((always_inline)) void g6(const v128_t *g, size_t s, v128_t *o, size_t os) {
  const v128_t g0 = g[0], g1 = g[s], g2 = g[2 * s];
  const v128_t s02 = ADD(g0, g2);
  const v128_t q = ADD(MUL(g0, K(1.0f / 24.0f)), MUL(g2, K(1.0f / 6.0f)));
  const v128_t h1 = MUL(g1, K(1.0f / 12.0f));
  o[0] = MUL(g0, K(0.25f));
  o[os] = MUL(ADD(s02, g1), K(-1.0f / 6.0f));
  o[2 * os] = MUL(SUB(s02, g1), K(-1.0f / 6.0f));
  o[3 * os] = ADD(q, h1);
  o[4 * os] = SUB(q, h1);
  o[5 * os] = g2;
}

static inline __attribute__((always_inline)) void at4(const v128_t *m, size_t s, v128_t *o, size_t os) {
  const v128_t m0 = m[0], m1 = m[s], m2 = m[2 * s], m3 = m[3 * s], m4 = m[4 * s], m5 = m[5 * s];
  const v128_t s12 = ADD(m1, m2), d12 = SUB(m1, m2), s34 = ADD(m3, m4), d34 = SUB(m3, m4);
  o[0] = ADD(ADD(m0, s12), s34);
  o[os] = ADD(d12, MUL(K(2.0f), d34));
  o[2 * os] = ADD(s12, MUL(K(4.0f), s34));
  o[3 * os] = ADD(ADD(d12, MUL(K(8.0f), d34)), m5);
}

static inline __attribute__((always_inline)) void bt4(const v128_t *d, size_t s, v128_t *o, size_t os) {
  const v128_t d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s];
  o[0] = SUB(d0, d2);
  o[os] = ADD(d1, d2);
  o[2 * os] = SUB(d2, d1);
  o[3 * os] = SUB(d1, d3);
}

static inline __attribute__((always_inline)) void g4(const v128_t *g, size_t s, v128_t *o, size_t os) {
  const v128_t g0 = g[0], g1 = g[s], g2 = g[2 * s];
  const v128_t s02 = ADD(g0, g2);
  o[0] = g0;
  o[os] = MUL(ADD(s02, g1), K(0.5f));
  o[2 * os] = MUL(SUB(s02, g1), K(0.5f));
  o[3 * os] = g2;
}

static inline __attribute__((always_inline)) void at2(const v128_t *m, size_t s, v128_t *o, size_t os) {
  const v128_t m0 = m[0], m1 = m[s], m2 = m[2 * s], m3 = m[3 * s];
  o[0] = ADD(ADD(m0, m1), m2);
  o[os] = SUB(SUB(m1, m2), m3);
}

/* ------------------------------------------------------- loads, stores */

/* c[j][l] = r[l][j]. */
static inline __attribute__((always_inline)) void transpose4(v128_t r0, v128_t r1, v128_t r2, v128_t r3, v128_t *c) {
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);
  const v128_t t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
  const v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  c[0] = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  c[1] = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  c[2] = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  c[3] = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

/* Row `row` of 4 tiles' windows (n columns each, tiles ts apart): o[j] lane t
 * is row[t * ts + j]. Reads nothing past the last tile's window. */
static inline __attribute__((always_inline)) void load_row(const float *row, size_t n, size_t ts, size_t m, v128_t *o) {
  if (ts == m && n == 6) {
    transpose4(wasm_v128_load(row), wasm_v128_load(row + 4), wasm_v128_load(row + 8),
               wasm_v128_load(row + 12), o);
    const v128_t r4 = wasm_v128_load64_zero(row + 16);
    o[4] = wasm_i32x4_shuffle(o[0], r4, 1, 2, 3, 4);
    o[5] = wasm_i32x4_shuffle(o[1], r4, 1, 2, 3, 5);
  } else if (ts == m && n == 4) {
    const v128_t r0 = wasm_v128_load(row), r1 = wasm_v128_load(row + 4);
    const v128_t r2 = wasm_v128_load64_zero(row + 8);
    o[0] = wasm_i32x4_shuffle(r0, r1, 0, 2, 4, 6);
    o[1] = wasm_i32x4_shuffle(r0, r1, 1, 3, 5, 7);
    o[2] = wasm_i32x4_shuffle(o[0], r2, 1, 2, 3, 4);
    o[3] = wasm_i32x4_shuffle(o[1], r2, 1, 2, 3, 5);
  } else {
    WNN_WINOGRAD_UNROLL
    for (size_t j = 0; j < n; j++)
      o[j] = wasm_f32x4_make(row[j], row[ts + j], row[2 * ts + j], row[3 * ts + j]);
  }
}

/* Row of n (4 or 2) outputs of 4 adjacent tiles, o[j] lane t to y[t * n + j]:
 * 4 n contiguous floats. */
static inline __attribute__((always_inline)) void store_row(float *y, size_t n, const v128_t *o) {
  if (n == 4) {
    v128_t r[4];
    transpose4(o[0], o[1], o[2], o[3], r);
    wasm_v128_store(y, r[0]);
    wasm_v128_store(y + 4, r[1]);
    wasm_v128_store(y + 8, r[2]);
    wasm_v128_store(y + 12, r[3]);
  } else {
    wasm_v128_store(y, wasm_i32x4_shuffle(o[0], o[1], 0, 4, 1, 5));
    wasm_v128_store(y + 4, wasm_i32x4_shuffle(o[0], o[1], 2, 6, 3, 7));
  }
}

/* Bias (when present), then the clamp, as the scalar clampf. */
static inline __attribute__((always_inline)) v128_t finish(v128_t v, const float *bias, v128_t lo, v128_t hi) {
  if (bias) v = ADD(v, wasm_v128_load32_splat(bias));
  return wasm_f32x4_pmin(wasm_f32x4_pmax(v, lo), hi);
}

/* 9 filter taps of 4 consecutive input channels: g[k] lane l is w[9 l + k],
 * from the 36 contiguous floats as 9 vector loads and 3 shuffles per tap
 * (element e is lane e % 4 of load e / 4). */
#define WNN_PICK2(e0, e1) \
  wasm_i32x4_shuffle(r[(e0) / 4], r[(e1) / 4], (e0) % 4, 4 + (e1) % 4, 0, 0)
#define WNN_TAP(k) \
  wasm_i32x4_shuffle(WNN_PICK2(k, 9 + (k)), WNN_PICK2(18 + (k), 27 + (k)), 0, 1, 4, 5)
static inline __attribute__((always_inline)) void load_filters(const float *w, v128_t *g) {
  v128_t r[9];
  WNN_WINOGRAD_UNROLL
  for (size_t i = 0; i < 9; i++) r[i] = wasm_v128_load(w + 4 * i);
  g[0] = WNN_TAP(0), g[1] = WNN_TAP(1), g[2] = WNN_TAP(2);
  g[3] = WNN_TAP(3), g[4] = WNN_TAP(4), g[5] = WNN_TAP(5);
  g[6] = WNN_TAP(6), g[7] = WNN_TAP(7), g[8] = WNN_TAP(8);
}
#undef WNN_TAP
#undef WNN_PICK2

/* ------------------------------------------------------------ F(4x4, 3x3) */

void wnn_f32_winograd_f43_input__wasmsimd(size_t channels, const float *d, size_t d_cs,
                                          size_t d_rs, size_t d_ts, float *v, size_t v_ps,
                                          size_t v_cs) {
  for (size_t c = 0; c < channels; c++) {
    v128_t in[36], cols[36], out[36];
    WNN_WINOGRAD_UNROLL
    for (size_t i = 0; i < 6; i++) load_row(d + c * d_cs + i * d_rs, 6, d_ts, 4, in + 6 * i);
    WNN_WINOGRAD_UNROLL
    for (size_t j = 0; j < 6; j++) bt6(in + j, 6, cols + j, 6);
    WNN_WINOGRAD_UNROLL
    for (size_t i = 0; i < 6; i++) bt6(cols + 6 * i, 1, out + 6 * i, 1);
    float *vc = v + c * v_cs;
    WNN_WINOGRAD_UNROLL
    for (size_t p = 0; p < 36; p++) wasm_v128_store(vc + p * v_ps, out[p]);
  }
}

void wnn_f32_winograd_f43_weight__wasmsimd(size_t out_c, size_t in_c, const float *w, float *u,
                                           size_t u_ps, size_t u_os) {
  const size_t in4 = in_c & ~(size_t)3;
  for (size_t o = 0; o < out_c; o++) {
    for (size_t c = 0; c < in4; c += 4) {
      v128_t g[9], cols[18], out[36];
      load_filters(w + (o * in_c + c) * 9, g);
      WNN_WINOGRAD_UNROLL
      for (size_t j = 0; j < 3; j++) g6(g + j, 3, cols + j, 3);
      WNN_WINOGRAD_UNROLL
      for (size_t i = 0; i < 6; i++) g6(cols + 3 * i, 1, out + 6 * i, 1);
      float *uo = u + o * u_os + c;
      WNN_WINOGRAD_UNROLL
      for (size_t p = 0; p < 36; p++) wasm_v128_store(uo + p * u_ps, out[p]);
    }
    if (in4 < in_c)
      wnn_f32_winograd_f43_weight__scalar(1, in_c - in4, w + (o * in_c + in4) * 9,
                                          u + o * u_os + in4, u_ps, u_os);
  }
}

void wnn_f32_winograd_f43_output__wasmsimd(size_t channels, const float *m, size_t m_ps,
                                           size_t m_cs, const float *bias, float *y,
                                           size_t y_cs, size_t y_rs, size_t y_ts, float min,
                                           float max) {
  const v128_t lo = wasm_f32x4_splat(min), hi = wasm_f32x4_splat(max);
  for (size_t c = 0; c < channels; c++) {
    v128_t in[36], cols[24], out[16];
    const float *mc = m + c * m_cs;
    WNN_WINOGRAD_UNROLL
    for (size_t p = 0; p < 36; p++) in[p] = wasm_v128_load(mc + p * m_ps);
    WNN_WINOGRAD_UNROLL
    for (size_t j = 0; j < 6; j++) at4(in + j, 6, cols + j, 6);
    WNN_WINOGRAD_UNROLL
    for (size_t i = 0; i < 4; i++) at4(cols + 6 * i, 1, out + 4 * i, 1);
    const float *bc = bias ? bias + c : NULL;
    WNN_WINOGRAD_UNROLL
    for (size_t q = 0; q < 16; q++) out[q] = finish(out[q], bc, lo, hi);
    WNN_WINOGRAD_UNROLL
    for (size_t i = 0; i < 4; i++) store_row(y + c * y_cs + i * y_rs, 4, out + 4 * i);
  }
}

/* ------------------------------------------------------------ F(2x2, 3x3) */

void wnn_f32_winograd_f23_input__wasmsimd(size_t channels, const float *d, size_t d_cs,
                                          size_t d_rs, size_t d_ts, float *v, size_t v_ps,
                                          size_t v_cs) {
  for (size_t c = 0; c < channels; c++) {
    v128_t in[16], cols[16], out[16];
    WNN_WINOGRAD_UNROLL
    for (size_t i = 0; i < 4; i++) load_row(d + c * d_cs + i * d_rs, 4, d_ts, 2, in + 4 * i);
    WNN_WINOGRAD_UNROLL
    for (size_t j = 0; j < 4; j++) bt4(in + j, 4, cols + j, 4);
    WNN_WINOGRAD_UNROLL
    for (size_t i = 0; i < 4; i++) bt4(cols + 4 * i, 1, out + 4 * i, 1);
    float *vc = v + c * v_cs;
    WNN_WINOGRAD_UNROLL
    for (size_t p = 0; p < 16; p++) wasm_v128_store(vc + p * v_ps, out[p]);
  }
}

void wnn_f32_winograd_f23_weight__wasmsimd(size_t out_c, size_t in_c, const float *w, float *u,
                                           size_t u_ps, size_t u_os) {
  const size_t in4 = in_c & ~(size_t)3;
  for (size_t o = 0; o < out_c; o++) {
    for (size_t c = 0; c < in4; c += 4) {
      v128_t g[9], cols[12], out[16];
      load_filters(w + (o * in_c + c) * 9, g);
      WNN_WINOGRAD_UNROLL
      for (size_t j = 0; j < 3; j++) g4(g + j, 3, cols + j, 3);
      WNN_WINOGRAD_UNROLL
      for (size_t i = 0; i < 4; i++) g4(cols + 3 * i, 1, out + 4 * i, 1);
      float *uo = u + o * u_os + c;
      WNN_WINOGRAD_UNROLL
      for (size_t p = 0; p < 16; p++) wasm_v128_store(uo + p * u_ps, out[p]);
    }
    if (in4 < in_c)
      wnn_f32_winograd_f23_weight__scalar(1, in_c - in4, w + (o * in_c + in4) * 9,
                                          u + o * u_os + in4, u_ps, u_os);
  }
}

void wnn_f32_winograd_f23_output__wasmsimd(size_t channels, const float *m, size_t m_ps,
                                           size_t m_cs, const float *bias, float *y,
                                           size_t y_cs, size_t y_rs, size_t y_ts, float min,
                                           float max) {
  const v128_t lo = wasm_f32x4_splat(min), hi = wasm_f32x4_splat(max);
  for (size_t c = 0; c < channels; c++) {
    v128_t in[16], cols[8], out[4];
    const float *mc = m + c * m_cs;
    WNN_WINOGRAD_UNROLL
    for (size_t p = 0; p < 16; p++) in[p] = wasm_v128_load(mc + p * m_ps);
    WNN_WINOGRAD_UNROLL
    for (size_t j = 0; j < 4; j++) at2(in + j, 4, cols + j, 4);
    WNN_WINOGRAD_UNROLL
    for (size_t i = 0; i < 2; i++) at2(cols + 4 * i, 1, out + 2 * i, 1);
    const float *bc = bias ? bias + c : NULL;
    WNN_WINOGRAD_UNROLL
    for (size_t q = 0; q < 4; q++) out[q] = finish(out[q], bc, lo, hi);
    WNN_WINOGRAD_UNROLL
    for (size_t i = 0; i < 2; i++) store_row(y + c * y_cs + i * y_rs, 2, out + 2 * i);
  }
}
