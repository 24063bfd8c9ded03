/*
 * Scalar int8 GEMM row panels (kernels.h, "int8 GEMM"), both orientations, in
 * 4 x 4 tiles of int32 accumulators: a full tile keeps its 16 sums in
 * locals and walks k in pairs (two products per output per step, as the
 * SIMD128 dot does); ragged tiles loop over their rows and columns. The sums
 * wrap as the SIMD128 lanes do: the accumulators are uint32_t (unsigned
 * overflow is defined in C), and a product of an int8 and an int16 in
 * [-255, 255] always fits an int.
 */
#include "kernels/kernels.h"

enum { MR = 4, NR = 4 };

#define MAC(acc, x, y) acc += (uint32_t)((int32_t)(x) * (int32_t)(y))

/* A full 4 x 4 tile; T_A and T_B are the element types of A and B. PB: A
 * holds kc rounded up to even (pad 0), so every pair is whole; otherwise an
 * odd last k is read alone. */
#define FULL_TILE(T_A, T_B, PB)                                                          \
  {                                                                                      \
    const T_A *a0 = a, *a1 = a0 + a_rs, *a2 = a1 + a_rs, *a3 = a2 + a_rs;                \
    uint32_t c00 = i0, c01 = i0, c02 = i0, c03 = i0, c10 = i1, c11 = i1, c12 = i1, c13 = i1; \
    uint32_t c20 = i2, c21 = i2, c22 = i2, c23 = i2, c30 = i3, c31 = i3, c32 = i3, c33 = i3; \
    const size_t pairs = PB ? (kc + 1) / 2 : kc / 2;                                     \
    size_t bo = 2 * j0;                                                                  \
    for (size_t q = 0; q < pairs; q++, bo += b_rs) {                                     \
      const T_B *bk = b + bo;                                                            \
      for (size_t t = 0; t < 2; t++) {                                                   \
        const size_t k = 2 * q + t;                                                      \
        const int32_t b0 = bk[t], b1 = bk[2 + t], b2 = bk[4 + t], b3 = bk[6 + t];        \
        MAC(c00, a0[k], b0), MAC(c01, a0[k], b1), MAC(c02, a0[k], b2), MAC(c03, a0[k], b3); \
        MAC(c10, a1[k], b0), MAC(c11, a1[k], b1), MAC(c12, a1[k], b2), MAC(c13, a1[k], b3); \
        MAC(c20, a2[k], b0), MAC(c21, a2[k], b1), MAC(c22, a2[k], b2), MAC(c23, a2[k], b3); \
        MAC(c30, a3[k], b0), MAC(c31, a3[k], b1), MAC(c32, a3[k], b2), MAC(c33, a3[k], b3); \
      }                                                                                  \
    }                                                                                    \
    if (!PB && (kc & 1)) {                                                               \
      const size_t k = kc - 1;                                                           \
      const T_B *bk = b + bo;                                                            \
      const int32_t b0 = bk[0], b1 = bk[2], b2 = bk[4], b3 = bk[6];                      \
      MAC(c00, a0[k], b0), MAC(c01, a0[k], b1), MAC(c02, a0[k], b2), MAC(c03, a0[k], b3); \
      MAC(c10, a1[k], b0), MAC(c11, a1[k], b1), MAC(c12, a1[k], b2), MAC(c13, a1[k], b3); \
      MAC(c20, a2[k], b0), MAC(c21, a2[k], b1), MAC(c22, a2[k], b2), MAC(c23, a2[k], b3); \
      MAC(c30, a3[k], b0), MAC(c31, a3[k], b1), MAC(c32, a3[k], b2), MAC(c33, a3[k], b3); \
    }                                                                                    \
    int32_t *o = c + j0;                                                                 \
    o[0] = (int32_t)c00, o[1] = (int32_t)c01, o[2] = (int32_t)c02, o[3] = (int32_t)c03;  \
    o += c_rs;                                                                           \
    o[0] = (int32_t)c10, o[1] = (int32_t)c11, o[2] = (int32_t)c12, o[3] = (int32_t)c13;  \
    o += c_rs;                                                                           \
    o[0] = (int32_t)c20, o[1] = (int32_t)c21, o[2] = (int32_t)c22, o[3] = (int32_t)c23;  \
    o += c_rs;                                                                           \
    o[0] = (int32_t)c30, o[1] = (int32_t)c31, o[2] = (int32_t)c32, o[3] = (int32_t)c33;  \
  }

/* A ragged tile: mr x nr of at most 4 x 4. */
#define EDGE_TILE(T_B)                                                                   \
  {                                                                                      \
    uint32_t acc[MR][NR];                                                                \
    for (size_t i = 0; i < mr; i++)                                                      \
      for (size_t j = 0; j < nr; j++) acc[i][j] = init ? (uint32_t)init[i] : 0u;          \
    for (size_t k = 0; k < kc; k++) {                                                    \
      const T_B *bk = b + (k / 2) * b_rs + 2 * j0 + k % 2;                               \
      for (size_t i = 0; i < mr; i++)                                                    \
        for (size_t j = 0; j < nr; j++) MAC(acc[i][j], a[i * a_rs + k], bk[2 * j]);      \
    }                                                                                    \
    for (size_t i = 0; i < mr; i++)                                                      \
      for (size_t j = 0; j < nr; j++) c[i * c_rs + j0 + j] = (int32_t)acc[i][j];          \
  }

void wnn_qs8_gemm_4x4__scalar(size_t mr, size_t nc, size_t kc, const int8_t *a, size_t a_rs,
                              const int16_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                              size_t c_rs) {
  const uint32_t i0 = init ? (uint32_t)init[0] : 0u, i1 = init && mr > 1 ? (uint32_t)init[1] : 0u;
  const uint32_t i2 = init && mr > 2 ? (uint32_t)init[2] : 0u;
  const uint32_t i3 = init && mr > 3 ? (uint32_t)init[3] : 0u;
  for (size_t j0 = 0; j0 < nc; j0 += NR) {
    const size_t nr = nc - j0 < NR ? nc - j0 : NR;
    if (mr == MR && nr == NR) FULL_TILE(int8_t, int16_t, 0)
    else EDGE_TILE(int16_t)
  }
}

void wnn_qs8_gemm_pb_4x4__scalar(size_t mr, size_t nc, size_t kc, const int16_t *a, size_t a_rs,
                                 const int8_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                                 size_t c_rs) {
  const uint32_t i0 = init ? (uint32_t)init[0] : 0u, i1 = init && mr > 1 ? (uint32_t)init[1] : 0u;
  const uint32_t i2 = init && mr > 2 ? (uint32_t)init[2] : 0u;
  const uint32_t i3 = init && mr > 3 ? (uint32_t)init[3] : 0u;
  for (size_t j0 = 0; j0 < nc; j0 += NR) {
    const size_t nr = nc - j0 < NR ? nc - j0 : NR;
    if (mr == MR && nr == NR) FULL_TILE(int16_t, int8_t, 1)
    else EDGE_TILE(int8_t)
  }
}
