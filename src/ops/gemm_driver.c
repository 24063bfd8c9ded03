/*
 * The GEMM driver: walks an m x n matrix in row panels of the selected
 * microkernels (kernels/kernels.h), which compute one panel of at most MR
 * rows of a column block in their register tiles. Loop order: column blocks
 * of NC (two 64-byte lines of each row of row-major B) outermost, then every
 * row panel of A, so a k x NC block of B stays in cache while all of A
 * streams past it. A panel of one row (M = 1, or the last row of a ragged m)
 * uses the single-row kernel when there is one. One call per panel and block,
 * not per register tile: a call per 4 x 8 tile cost up to half the speed of
 * the 1x1-convolution shapes (K = 16..24; docs/kernels.md).
 */
#include "ops/op_internal.h"

/* Column blocks: at least NC_MIN columns, and as many more (in steps of 16)
 * as keep a k x nc block of B within NC_BYTES, so that short products (the
 * 1x1 convolutions, K = 16..64) make few, long kernel calls. */
enum { NC_MIN = 32, NC_BYTES = 16 * 1024 };

static size_t column_block(size_t k) {
  const size_t nc = k ? NC_BYTES / sizeof(float) / k / 16 * 16 : NC_MIN;
  return nc > NC_MIN ? nc : NC_MIN;
}

void wnn_f32_gemm(const wnn_f32_gemm_config *g, size_t m, size_t n, size_t k, const float *a,
                  size_t a_rs, size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                  const float *bias, float *c, size_t c_rs, const wnn_f32_gemm_params *params) {
  const int layout = b_cs == 1 ? WNN_GEMM_B_ROWS : b_rs == 1 ? WNN_GEMM_B_COLS : WNN_GEMM_B_ANY;
  const wnn_f32_gemm_tile *panel = g->tile[layout];
  const size_t MR = panel[0].mr, NC = column_block(k);
  for (size_t j0 = 0; j0 < n; j0 += NC) {
    const size_t j1 = n - j0 < NC ? n : j0 + NC;
    for (size_t i = 0; i < m; i += MR) {
      const size_t mr = m - i < MR ? m - i : MR;
      const wnn_f32_gemm_tile t = panel[mr == 1];
      const float *ai = a + i * a_rs, *bias_i = bias ? bias + i : NULL;
      float *ci = c + i * c_rs;
      t.fn(mr, j1 - j0, k, ai, a_rs, a_cs, b + j0 * b_cs, b_rs, b_cs, bias_i, ci + j0, c_rs,
           params);
    }
  }
}
