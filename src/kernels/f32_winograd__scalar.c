/*
 * Winograd transforms F(2x2, 3x3) and F(4x4, 3x3), scalar (src/kernels/winograd.h).
 * Each 2-D transform is the 1-D one applied to the columns, then to the rows
 * of the result. Loops are left rolled: these are the fallback of builds
 * without SIMD128, and unrolled they would cost 23 KB of wasm. The SIMD128 variants (f32_winograd__wasmsimd.c) do the same
 * operations in the same order, one tile per lane: keep the two in step.
 *
 * F(4x4, 3x3), interpolation points 0, 1, -1, 2, -2 and infinity:
 *   B^T = [4  0 -5  0  1  0]   G = [ 1/4     0     0 ]   A^T = [1 1  1 1  1 0]
 *         [0 -4 -4  1  1  0]       [-1/6  -1/6  -1/6 ]         [0 1 -1 2 -2 0]
 *         [0  4 -4 -1  1  0]       [-1/6   1/6  -1/6 ]         [0 1  1 4  4 0]
 *         [0 -2 -1  2  1  0]       [1/24  1/12   1/6 ]         [0 1 -1 8 -8 1]
 *         [0  2 -1 -2  1  0]       [1/24 -1/12   1/6 ]
 *         [0  4  0 -5  0  1]       [   0     0     1 ]
 * F(2x2, 3x3), points 0, 1, -1 and infinity:
 *   B^T = [1  0 -1  0]   G = [  1    0    0]   A^T = [1 1  1  0]
 *         [0  1  1  0]       [1/2  1/2  1/2]         [0 1 -1 -1]
 *         [0 -1  1  0]       [1/2 -1/2  1/2]
 *         [0  1  0 -1]       [  0    0    1]
 */
#include "kernels/winograd.h"

/* ------------------------------------------------------ 1-D transforms */

static inline void bt6(const float *d, size_t s, float *o, size_t os) {
  const float d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s], d4 = d[4 * s], d5 = d[5 * s];
  const float s12 = d1 + d2, t12 = d1 - d2, t42 = d4 - d2, t31 = d3 - d1;
  o[0] = (4.0f * d0 - 5.0f * d2) + d4;
  o[os] = (d3 + d4) - 4.0f * s12;
  o[2 * os] = (d4 - d3) + 4.0f * t12;
  o[3 * os] = t42 + 2.0f * t31;
  o[4 * os] = t42 - 2.0f * t31;
  o[5 * os] = (4.0f * d1 - 5.0f * d3) + d5;
}

static inline void g6(const float *g, size_t s, float *o, size_t os) {
  const float g0 = g[0], g1 = g[s], g2 = g[2 * s];
  const float s02 = g0 + g2, q = g0 * (1.0f / 24.0f) + g2 * (1.0f / 6.0f);
  const float h1 = g1 * (1.0f / 12.0f);
  o[0] = g0 * 0.25f;
  o[os] = (s02 + g1) * (-1.0f / 6.0f);
  o[2 * os] = (s02 - g1) * (-1.0f / 6.0f);
  o[3 * os] = q + h1;
  o[4 * os] = q - h1;
  o[5 * os] = g2;
}

static inline void at4(const float *m, size_t s, float *o, size_t os) {
  const float m0 = m[0], m1 = m[s], m2 = m[2 * s], m3 = m[3 * s], m4 = m[4 * s], m5 = m[5 * s];
  const float s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4;
  o[0] = (m0 + s12) + s34;
  o[os] = d12 + 2.0f * d34;
  o[2 * os] = s12 + 4.0f * s34;
  o[3 * os] = (d12 + 8.0f * d34) + m5;
}

static inline void bt4(const float *d, size_t s, float *o, size_t os) {
  const float d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s];
  o[0] = d0 - d2;
  o[os] = d1 + d2;
  o[2 * os] = d2 - d1;
  o[3 * os] = d1 - d3;
}

static inline void g4(const float *g, size_t s, float *o, size_t os) {
  const float g0 = g[0], g1 = g[s], g2 = g[2 * s];
  const float s02 = g0 + g2;
  o[0] = g0;
  o[os] = (s02 + g1) * 0.5f;
  o[2 * os] = (s02 - g1) * 0.5f;
  o[3 * os] = g2;
}

static inline void at2(const float *m, size_t s, float *o, size_t os) {
  const float m0 = m[0], m1 = m[s], m2 = m[2 * s], m3 = m[3 * s];
  o[0] = (m0 + m1) + m2;
  o[os] = (m1 - m2) - m3;
}

static inline float clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return hi < v ? hi : v;
}

/* ------------------------------------------------------------ F(4x4, 3x3) */

void wnn_f32_winograd_f43_input__scalar(size_t channels, const float *d, size_t d_cs,
                                        size_t d_rs, size_t d_ts, float *v, size_t v_ps,
                                        size_t v_cs) {
  for (size_t c = 0; c < channels; c++)
    for (size_t t = 0; t < 4; t++) {
      const float *dt = d + c * d_cs + t * d_ts;
      float cols[36], out[36];
      for (size_t j = 0; j < 6; j++) bt6(dt + j, d_rs, cols + j, 6); /* B^T d */
      for (size_t i = 0; i < 6; i++) bt6(cols + 6 * i, 1, out + 6 * i, 1); /* (B^T d) B */
      for (size_t p = 0; p < 36; p++) v[p * v_ps + c * v_cs + t] = out[p];
    }
}

void wnn_f32_winograd_f43_weight__scalar(size_t out_c, size_t in_c, const float *w, float *u,
                                         size_t u_ps, size_t u_os) {
  for (size_t o = 0; o < out_c; o++)
    for (size_t c = 0; c < in_c; c++) {
      const float *g = w + (o * in_c + c) * 9;
      float cols[18], out[36];
      for (size_t j = 0; j < 3; j++) g6(g + j, 3, cols + j, 3);            /* G g: 6 x 3 */
      for (size_t i = 0; i < 6; i++) g6(cols + 3 * i, 1, out + 6 * i, 1); /* (G g) G^T */
      for (size_t p = 0; p < 36; p++) u[p * u_ps + o * u_os + c] = out[p];
    }
}

void wnn_f32_winograd_f43_output__scalar(size_t channels, const float *m, size_t m_ps,
                                         size_t m_cs, const float *bias, float *y, size_t y_cs,
                                         size_t y_rs, size_t y_ts, float min, float max) {
  for (size_t c = 0; c < channels; c++)
    for (size_t t = 0; t < 4; t++) {
      float in[36], cols[24], out[16];
      for (size_t p = 0; p < 36; p++) in[p] = m[p * m_ps + c * m_cs + t];
      for (size_t j = 0; j < 6; j++) at4(in + j, 6, cols + j, 6);         /* A^T m: 4 x 6 */
      for (size_t i = 0; i < 4; i++) at4(cols + 6 * i, 1, out + 4 * i, 1); /* (A^T m) A */
      float *yt = y + c * y_cs + t * y_ts;
      for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
          float r = out[4 * i + j];
          if (bias) r += bias[c];
          yt[i * y_rs + j] = clampf(r, min, max);
        }
    }
}

/* ------------------------------------------------------------ F(2x2, 3x3) */

void wnn_f32_winograd_f23_input__scalar(size_t channels, const float *d, size_t d_cs,
                                        size_t d_rs, size_t d_ts, float *v, size_t v_ps,
                                        size_t v_cs) {
  for (size_t c = 0; c < channels; c++)
    for (size_t t = 0; t < 4; t++) {
      const float *dt = d + c * d_cs + t * d_ts;
      float cols[16], out[16];
      for (size_t j = 0; j < 4; j++) bt4(dt + j, d_rs, cols + j, 4);
      for (size_t i = 0; i < 4; i++) bt4(cols + 4 * i, 1, out + 4 * i, 1);
      for (size_t p = 0; p < 16; p++) v[p * v_ps + c * v_cs + t] = out[p];
    }
}

void wnn_f32_winograd_f23_weight__scalar(size_t out_c, size_t in_c, const float *w, float *u,
                                         size_t u_ps, size_t u_os) {
  for (size_t o = 0; o < out_c; o++)
    for (size_t c = 0; c < in_c; c++) {
      const float *g = w + (o * in_c + c) * 9;
      float cols[12], out[16];
      for (size_t j = 0; j < 3; j++) g4(g + j, 3, cols + j, 3);
      for (size_t i = 0; i < 4; i++) g4(cols + 3 * i, 1, out + 4 * i, 1);
      for (size_t p = 0; p < 16; p++) u[p * u_ps + o * u_os + c] = out[p];
    }
}

void wnn_f32_winograd_f23_output__scalar(size_t channels, const float *m, size_t m_ps,
                                         size_t m_cs, const float *bias, float *y, size_t y_cs,
                                         size_t y_rs, size_t y_ts, float min, float max) {
  for (size_t c = 0; c < channels; c++)
    for (size_t t = 0; t < 4; t++) {
      float in[16], cols[8], out[4];
      for (size_t p = 0; p < 16; p++) in[p] = m[p * m_ps + c * m_cs + t];
      for (size_t j = 0; j < 4; j++) at2(in + j, 4, cols + j, 4);
      for (size_t i = 0; i < 2; i++) at2(cols + 4 * i, 1, out + 2 * i, 1);
      float *yt = y + c * y_cs + t * y_ts;
      for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; j < 2; j++) {
          float r = out[2 * i + j];
          if (bias) r += bias[c];
          yt[i * y_rs + j] = clampf(r, min, max);
        }
    }
}
