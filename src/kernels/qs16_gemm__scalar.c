/*
 * int16 x int16 GEMM row panel with int32 accumulation modulo 2^32
 * (kernels.h, "int8 Winograd"): 4 x 4 register tiles.
 */
#include "kernels/kernels.h"

void wnn_qs16_gemm_4x4__scalar(size_t mr, size_t nc, size_t kp, const int16_t *a, size_t a_rs,
                               const int16_t *b, size_t b_rs, int32_t *c, size_t c_rs) {
  for (size_t j0 = 0; j0 < nc; j0 += 4) {
    const size_t nr = nc - j0 < 4 ? nc - j0 : 4;
    uint32_t acc[4][4] = {{0}};
    for (size_t q = 0; q < kp; q++) {
      const int16_t *bq = b + q * b_rs + 2 * j0;
      for (size_t i = 0; i < mr; i++) {
        const int32_t a0 = a[i * a_rs + 2 * q], a1 = a[i * a_rs + 2 * q + 1];
        for (size_t j = 0; j < nr; j++)
          acc[i][j] += (uint32_t)(a0 * bq[2 * j]) + (uint32_t)(a1 * bq[2 * j + 1]);
      }
    }
    for (size_t i = 0; i < mr; i++)
      for (size_t j = 0; j < nr; j++) c[i * c_rs + j0 + j] = (int32_t)acc[i][j];
  }
}
