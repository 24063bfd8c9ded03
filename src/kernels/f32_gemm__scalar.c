/*
 * Scalar GEMM row panel in 4 x 4 register tiles, B with any strides ("bs"): each
 * step of the k loop loads 4 values of A and 4 of B and does 16 multiply-adds
 * into 16 accumulators, which fits the register file of every target wasm
 * engines run on (16 FP registers on x86-64, 32 on arm64) without spilling.
 * A ragged tile (fewer rows or columns) sums the same products in the same
 * order through a loop over the tile.
 */
#include "kernels/kernels.h"

enum { MR = 4, NR = 4 };

static inline float clampf(float v, float lo, float hi) {
  /* Comparisons, not fminf/fmaxf, so NaN passes through as NaN. */
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

/* Writes one row of up to NR accumulated dot products. beta == 0 never reads c. */
static inline void store_row(float *c, const float *acc, size_t nr, float bias,
                             const wnn_f32_gemm_params *p) {
  for (size_t j = 0; j < nr; j++) {
    float v = p->alpha * acc[j] + bias;
    if (p->beta != 0.0f) v += p->beta * c[j];
    c[j] = clampf(v, p->min, p->max);
  }
}

/* A full 4 x 4 tile. */
static void tile_4x4(size_t k, const float *a, size_t a_rs, size_t a_cs, const float *b,
                     size_t b_rs, size_t b_cs, const float *bias, float *c, size_t c_rs,
                     const wnn_f32_gemm_params *p) {
  const float *a0 = a, *a1 = a0 + a_rs, *a2 = a1 + a_rs, *a3 = a2 + a_rs;
  float c00 = 0, c01 = 0, c02 = 0, c03 = 0;
  float c10 = 0, c11 = 0, c12 = 0, c13 = 0;
  float c20 = 0, c21 = 0, c22 = 0, c23 = 0;
  float c30 = 0, c31 = 0, c32 = 0, c33 = 0;
  const size_t b_cs2 = 2 * b_cs, b_cs3 = 3 * b_cs;
  /* Offsets advance as integers: a pointer stepped past the end of its array
   * after the last iteration would be undefined behaviour. */
  size_t ao = 0, bo = 0;
  for (size_t q = 0; q < k; q++, ao += a_cs, bo += b_rs) {
    const float va0 = a0[ao], va1 = a1[ao], va2 = a2[ao], va3 = a3[ao];
    const float vb0 = b[bo], vb1 = b[bo + b_cs], vb2 = b[bo + b_cs2], vb3 = b[bo + b_cs3];
    c00 += va0 * vb0, c01 += va0 * vb1, c02 += va0 * vb2, c03 += va0 * vb3;
    c10 += va1 * vb0, c11 += va1 * vb1, c12 += va1 * vb2, c13 += va1 * vb3;
    c20 += va2 * vb0, c21 += va2 * vb1, c22 += va2 * vb2, c23 += va2 * vb3;
    c30 += va3 * vb0, c31 += va3 * vb1, c32 += va3 * vb2, c33 += va3 * vb3;
  }
  const float r0[NR] = {c00, c01, c02, c03}, r1[NR] = {c10, c11, c12, c13};
  const float r2[NR] = {c20, c21, c22, c23}, r3[NR] = {c30, c31, c32, c33};
  store_row(c, r0, NR, bias ? bias[0] : 0.0f, p);
  store_row(c + c_rs, r1, NR, bias ? bias[1] : 0.0f, p);
  store_row(c + 2 * c_rs, r2, NR, bias ? bias[2] : 0.0f, p);
  store_row(c + 3 * c_rs, r3, NR, bias ? bias[3] : 0.0f, p);
}

/* A ragged edge tile: mr <= MR rows, nr <= NR columns. */
static void tile_edge(size_t mr, size_t nr, size_t k, const float *a, size_t a_rs, size_t a_cs,
                      const float *b, size_t b_rs, size_t b_cs, const float *bias, float *c,
                      size_t c_rs, const wnn_f32_gemm_params *p) {
  float acc[MR][NR] = {{0}};
  for (size_t q = 0; q < k; q++) {
    const float *bq = b + q * b_rs;
    for (size_t i = 0; i < mr; i++) {
      const float va = a[i * a_rs + q * a_cs];
      for (size_t j = 0; j < nr; j++) acc[i][j] += va * bq[j * b_cs];
    }
  }
  for (size_t i = 0; i < mr; i++) store_row(c + i * c_rs, acc[i], nr, bias ? bias[i] : 0.0f, p);
}

void wnn_f32_gemm_bs_4x4__scalar(size_t mr, size_t nc, size_t k, const float *a, size_t a_rs,
                                 size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                                 const float *bias, float *c, size_t c_rs,
                                 const wnn_f32_gemm_params *params) {
  for (size_t j = 0; j < nc; j += NR) {
    const size_t nr = nc - j < NR ? nc - j : NR;
    if (mr == MR && nr == NR)
      tile_4x4(k, a, a_rs, a_cs, b + j * b_cs, b_rs, b_cs, bias, c + j, c_rs, params);
    else
      tile_edge(mr, nr, k, a, a_rs, a_cs, b + j * b_cs, b_rs, b_cs, bias, c + j, c_rs, params);
  }
}
