/*
 * The int8 GEMM driver: walks an m x n int32 matrix in the row panels of the
 * selected microkernels (kernels/kernels.h, "int8 GEMM"), as gemm_driver.c
 * does for float. Loop order: column blocks of B outermost, so that a block
 * of K-pairs x nc stays in cache while every row panel of A streams past it.
 * Integer outputs are independent of the tiling: any kernel, panel height
 * or block gives the same bits.
 */
#include "ops/op_internal.h"
#include "runtime/pool.h"

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

/* One GEMM's panels as units for wnn_parallel_for (gemm_driver.c): unit u
 * is row panel u % panels of column block u / panels. pb: the pb kernels
 * (int16 A rows, int8 B pairs) instead of the conv ones. */
typedef struct qs8_job {
  const wnn_qs8_gemm_config *g;
  int pb;
  size_t m, n, k, MR, NC, panels, a_rs, b_rs, c_rs;
  const void *a, *b;
  const int32_t *init;
  int32_t *c;
} qs8_job;

static void qs8_units(void *ctx, size_t u0, size_t u1) {
  const qs8_job *j = ctx;
  for (size_t u = u0; u < u1; u++) {
    const size_t j0 = u / j->panels * j->NC, i = u % j->panels * j->MR;
    const size_t nc = j->n - j0 < j->NC ? j->n - j0 : j->NC;
    const size_t mr = j->m - i < j->MR ? j->m - i : j->MR;
    const int32_t *init = j->init ? j->init + i : NULL;
    int32_t *c = j->c + i * j->c_rs + j0;
    if (j->pb)
      j->g->pb(mr, nc, j->k, (const int16_t *)j->a + i * j->a_rs, j->a_rs,
               (const int8_t *)j->b + 2 * j0, j->b_rs, init, c, j->c_rs);
    else
      j->g->conv(mr, nc, j->k, (const int8_t *)j->a + i * j->a_rs, j->a_rs,
                 (const int16_t *)j->b + 2 * j0, j->b_rs, init, c, j->c_rs);
  }
}

static void run(qs8_job *j, size_t MR, size_t NC) {
  j->MR = MR, j->NC = NC, j->panels = (j->m + MR - 1) / MR;
  const size_t blocks = (j->n + NC - 1) / NC;
  wnn_parallel_for(j->panels * blocks, WNN_PARALLEL_MIN_MACS / (MR * NC * j->k) + 1, qs8_units, j);
}

void wnn_qs8_gemm(const wnn_qs8_gemm_config *g, size_t m, size_t n, size_t k, const int8_t *a,
                  size_t a_rs, const int16_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                  size_t c_rs) {
  if (k == 0) return fill_init(m, n, init, c, c_rs);
  qs8_job j = {g, 0, m, n, k, 0, 0, 0, a_rs, b_rs, c_rs, a, b, init, c};
  run(&j, g->conv_mr, column_block(k, 4));
}

size_t wnn_qs8_gemm_pb_block(size_t k) { return column_block(k, 2); }

void wnn_qs8_gemm_pb(const wnn_qs8_gemm_config *g, size_t m, size_t n, size_t k, const int16_t *a,
                     size_t a_rs, const int8_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                     size_t c_rs) {
  if (k == 0) return fill_init(m, n, init, c, c_rs);
  qs8_job j = {g, 1, m, n, k, 0, 0, 0, a_rs, b_rs, c_rs, a, b, init, c};
  run(&j, g->pb_mr, column_block(k, 2));
}
