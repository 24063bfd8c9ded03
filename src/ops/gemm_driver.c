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
#include <stdint.h>

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
  bool packed; /* b holds the column blocks one after the other, each k x its width */
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
    const float *b = j->packed ? j->b + j0 * j->k : j->b + j0 * j->b_cs;
    const size_t b_rs = j->packed ? j1 - j0 : j->b_rs;
    t.fn(mr, j1 - j0, j->k, j->a + i * j->a_rs, j->a_rs, j->a_cs, b, b_rs, j->b_cs,
         j->bias ? j->bias + i : NULL, j->c + i * j->c_rs + j0, j->c_rs, j->params);
  }
}

/* Copies column blocks [u0, u1) of row-major B into the packed layout. */
typedef struct pack_job {
  wnn_x32_copy2d_ukernel *copy2d;
  const float *b;
  size_t n, k, NC, b_rs;
  float *to;
} pack_job;

static void pack_blocks(void *ctx, size_t u0, size_t u1) {
  const pack_job *j = ctx;
  for (size_t u = u0; u < u1; u++) {
    const size_t j0 = u * j->NC, w = j->n - j0 < j->NC ? j->n - j0 : j->NC;
    j->copy2d(j->k, w, (const uint32_t *)(j->b + j0), j->b_rs, (uint32_t *)(j->to + j0 * j->k), w);
  }
}

size_t wnn_f32_gemm_pack_bytes(size_t m, size_t n, size_t k) {
  /* Only when a row of B is longer than a block (else the block is
   * contiguous already), and when enough row panels read each block to repay
   * the copy: from 64 rows, or from 16 when rows of B are 4 KiB or longer
   * (each k step of a block then lands on another page). Measured on single
   * MatMuls of 16 to 128 rows (docs/kernels.md, "Packed B"). */
  if (k == 0 || n <= column_block(k)) return 0;
  if (m < WNN_F32_GEMM_PACK_MIN_M && !(m >= 16 && n >= 1024)) return 0;
  if (n > SIZE_MAX / sizeof(float) / k) return 0;
  return n * k * sizeof(float);
}

void wnn_f32_gemm(const wnn_f32_gemm_config *g, size_t m, size_t n, size_t k, const float *a,
                  size_t a_rs, size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                  const float *bias, float *c, size_t c_rs, const wnn_f32_gemm_params *params) {
  wnn_f32_gemm_pack(g, m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, bias, c, c_rs, params, NULL);
}

void wnn_f32_gemm_pack(const wnn_f32_gemm_config *g, size_t m, size_t n, size_t k, const float *a,
                       size_t a_rs, size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                       const float *bias, float *c, size_t c_rs, const wnn_f32_gemm_params *params,
                       float *pack) {
  const int layout = b_cs == 1 ? WNN_GEMM_B_ROWS : b_rs == 1 ? WNN_GEMM_B_COLS : WNN_GEMM_B_ANY;
  const wnn_f32_gemm_tile *panel = g->tile[layout];
  size_t NC = column_block(k);
#ifdef __wasm_simd128__
  /* One row: wide blocks, which the 1x16 kernel streams row by row. */
  if (m == 1 && layout == WNN_GEMM_B_ROWS && NC < WNN_F32_GEMM_ROW_NC) NC = WNN_F32_GEMM_ROW_NC;
#endif
  const size_t MR = panel[0].mr;
  const size_t panels = (m + MR - 1) / MR, blocks = (n + NC - 1) / NC;
  f32_job job = {panel, m, n, k, MR, NC, panels, a, b, bias, false, a_rs, a_cs, b_rs, b_cs, c_rs,
                 c, params};
  if (pack && g->copy2d && layout == WNN_GEMM_B_ROWS && wnn_f32_gemm_pack_bytes(m, n, k)) {
    pack_job pj = {g->copy2d, b, n, k, NC, b_rs, pack};
    wnn_parallel_for(blocks, WNN_PARALLEL_MIN_MACS / (NC * k) + 1, pack_blocks, &pj);
    job.b = pack, job.packed = true;
  }
  /* Each thread at least WNN_PARALLEL_MIN_MACS multiply-adds of panels. */
  const size_t unit_macs = MR * NC * (k ? k : 1);
  wnn_parallel_for(panels * blocks, WNN_PARALLEL_MIN_MACS / unit_macs + 1, f32_units, &job);
}
