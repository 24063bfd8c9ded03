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
#include "runtime/pool.h"

/* Column blocks: at least NC_MIN columns, and as many more (in steps of 16)
 * as keep a k x nc block of B within NC_BYTES, so that short products (the
 * 1x1 convolutions, K = 16..64) make few, long kernel calls. */
enum { NC_MIN = 32, NC_BYTES = 16 * 1024 };

static size_t column_block(size_t k) {
  const size_t nc = k ? NC_BYTES / sizeof(float) / k / 16 * 16 : NC_MIN;
  return nc > NC_MIN ? nc : NC_MIN;
}

/* One GEMM's panels as units for wnn_parallel_for: unit u is row panel
 * u % panels of column block u / panels (the serial order: blocks outermost). */
typedef struct f32_job {
  const wnn_f32_gemm_tile *panel;
  size_t m, n, k, MR, NC, panels;
  const float *a, *b, *bias;
  size_t a_rs, a_cs, b_rs, b_cs, c_rs;
  float *c;
  const wnn_f32_gemm_params *params;
} f32_job;

static void f32_units(void *ctx, size_t u0, size_t u1) {
  const f32_job *j = ctx;
  for (size_t u = u0; u < u1; u++) {
    const size_t j0 = u / j->panels * j->NC, i = u % j->panels * j->MR;
    const size_t j1 = j->n - j0 < j->NC ? j->n : j0 + j->NC;
    const size_t mr = j->m - i < j->MR ? j->m - i : j->MR;
    const wnn_f32_gemm_tile t = j->panel[mr == 1];
    t.fn(mr, j1 - j0, j->k, j->a + i * j->a_rs, j->a_rs, j->a_cs, j->b + j0 * j->b_cs, j->b_rs,
         j->b_cs, j->bias ? j->bias + i : NULL, j->c + i * j->c_rs + j0, j->c_rs, j->params);
  }
}

void wnn_f32_gemm(const wnn_f32_gemm_config *g, size_t m, size_t n, size_t k, const float *a,
                  size_t a_rs, size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                  const float *bias, float *c, size_t c_rs, const wnn_f32_gemm_params *params) {
  const int layout = b_cs == 1 ? WNN_GEMM_B_ROWS : b_rs == 1 ? WNN_GEMM_B_COLS : WNN_GEMM_B_ANY;
  const wnn_f32_gemm_tile *panel = g->tile[layout];
  size_t NC = column_block(k);
#ifdef __wasm_simd128__
  /* One row: wide blocks, which the 1x16 kernel streams row by row. */
  if (m == 1 && layout == WNN_GEMM_B_ROWS && NC < WNN_F32_GEMM_ROW_NC) NC = WNN_F32_GEMM_ROW_NC;
#endif
  const size_t MR = panel[0].mr;
  const size_t panels = (m + MR - 1) / MR, blocks = (n + NC - 1) / NC;
  f32_job job = {panel, m, n, k, MR, NC, panels, a, b, bias, a_rs, a_cs, b_rs, b_cs, c_rs, c, params};
  /* Each thread at least WNN_PARALLEL_MIN_MACS multiply-adds of panels. */
  const size_t unit_macs = MR * NC * (k ? k : 1);
  wnn_parallel_for(panels * blocks, WNN_PARALLEL_MIN_MACS / unit_macs + 1, f32_units, &job);
}
