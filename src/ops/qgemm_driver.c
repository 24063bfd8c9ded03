/*
 * The int8 GEMM driver: walks an m x n int32 matrix in the row panels of the
 * selected microkernels (kernels/kernels.h, "int8 GEMM"), as gemm_driver.c
 * does for float. Loop order: column blocks of B outermost, so that a block
 * of K-pairs x nc stays in cache while every row panel of A streams past it.
 * Integer outputs are independent of the tiling: any kernel, panel height
 * or block gives the same bits.
 */
#include "ops/op_internal.h"

/* Columns per block: as many (a multiple of 16, at least 16) as keep the
 * block of B within BLOCK_BYTES; pair_bytes is one column's bytes per k-pair
 * (4: int16 pairs, 2: int8 pairs). */
enum { BLOCK_BYTES = 32 * 1024, NC_MIN = 16 };

/* k == 0: C is init (the kernels need kc >= 1). */
static void fill_init(size_t m, size_t n, const int32_t *init, int32_t *c, size_t c_rs) {
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) c[i * c_rs + j] = init ? init[i] : 0;
}

static size_t column_block(size_t k, size_t pair_bytes) {
  const size_t pairs = (k + 1) / 2;
  const size_t nc = BLOCK_BYTES / pair_bytes / pairs / 16 * 16;
  return nc > NC_MIN ? nc : NC_MIN;
}

void wnn_qs8_gemm(const wnn_qs8_gemm_config *g, size_t m, size_t n, size_t k, const int8_t *a,
                  size_t a_rs, const int16_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                  size_t c_rs) {
  if (k == 0) return fill_init(m, n, init, c, c_rs);
  const size_t MR = g->conv_mr, NC = column_block(k, 4);
  for (size_t j0 = 0; j0 < n; j0 += NC) {
    const size_t nc = n - j0 < NC ? n - j0 : NC;
    for (size_t i = 0; i < m; i += MR) {
      const size_t mr = m - i < MR ? m - i : MR;
      g->conv(mr, nc, k, a + i * a_rs, a_rs, b + 2 * j0, b_rs, init ? init + i : NULL,
              c + i * c_rs + j0, c_rs);
    }
  }
}

size_t wnn_qs8_gemm_pb_block(size_t k) { return column_block(k, 2); }

void wnn_qs8_gemm_pb(const wnn_qs8_gemm_config *g, size_t m, size_t n, size_t k, const int16_t *a,
                     size_t a_rs, const int8_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                     size_t c_rs) {
  if (k == 0) return fill_init(m, n, init, c, c_rs);
  const size_t MR = g->pb_mr, NC = column_block(k, 2);
  for (size_t j0 = 0; j0 < n; j0 += NC) {
    const size_t nc = n - j0 < NC ? n - j0 : NC;
    for (size_t i = 0; i < m; i += MR) {
      const size_t mr = m - i < MR ? m - i : MR;
      g->pb(mr, nc, k, a + i * a_rs, a_rs, b + 2 * j0, b_rs, init ? init + i : NULL,
            c + i * c_rs + j0, c_rs);
    }
  }
}
