/*
 * Scalar int8 GEMM row panels (kernels.h, "int8 GEMM"), both orientations, in
 * 4 x 4 tiles of int32 accumulators. The sums wrap as the SIMD128 lanes do:
 * the accumulators are uint32_t (unsigned overflow is defined in C), and a
 * product of an int8 and an int16 in [-255, 255] always fits an int.
 */
#include "kernels/kernels.h"

enum { MR = 4, NR = 4 };

/* The accumulators of one tile of mr x nr (<= 4 x 4) start at init. */
static inline void tile_init(uint32_t acc[MR][NR], size_t mr, const int32_t *init) {
  for (size_t i = 0; i < MR; i++)
    for (size_t j = 0; j < NR; j++) acc[i][j] = init && i < mr ? (uint32_t)init[i] : 0u;
}

static inline void tile_store(const uint32_t acc[MR][NR], size_t mr, size_t nr, int32_t *c,
                              size_t c_rs) {
  for (size_t i = 0; i < mr; i++)
    for (size_t j = 0; j < nr; j++) c[i * c_rs + j] = (int32_t)acc[i][j];
}

void wnn_qs8_gemm_4x4__scalar(size_t mr, size_t nc, size_t kc, const int8_t *a, size_t a_rs,
                              const int16_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                              size_t c_rs) {
  for (size_t j0 = 0; j0 < nc; j0 += NR) {
    const size_t nr = nc - j0 < NR ? nc - j0 : NR;
    uint32_t acc[MR][NR];
    tile_init(acc, mr, init);
    for (size_t k = 0; k < kc; k++) {
      const int16_t *bk = b + (k / 2) * b_rs + 2 * j0 + k % 2;
      for (size_t i = 0; i < mr; i++) {
        const int32_t av = a[i * a_rs + k];
        for (size_t j = 0; j < nr; j++) acc[i][j] += (uint32_t)(av * (int32_t)bk[2 * j]);
      }
    }
    tile_store(acc, mr, nr, c + j0, c_rs);
  }
}

void wnn_qs8_gemm_pb_4x4__scalar(size_t mr, size_t nc, size_t kc, const int16_t *a, size_t a_rs,
                                 const int8_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                                 size_t c_rs) {
  for (size_t j0 = 0; j0 < nc; j0 += NR) {
    const size_t nr = nc - j0 < NR ? nc - j0 : NR;
    uint32_t acc[MR][NR];
    tile_init(acc, mr, init);
    for (size_t k = 0; k < kc; k++) {
      const int8_t *bk = b + (k / 2) * b_rs + 2 * j0 + k % 2;
      for (size_t i = 0; i < mr; i++) {
        const int32_t av = a[i * a_rs + k];
        for (size_t j = 0; j < nr; j++) acc[i][j] += (uint32_t)(av * (int32_t)bk[2 * j]);
      }
    }
    tile_store(acc, mr, nr, c + j0, c_rs);
  }
}
