/*
 * SIMD128 GEMM tiles. Each k step of a 4 x 8 tile loads 8 values of a row of
 * B (two v128), splats 4 values of A, and does 8 vector multiply-adds into 8
 * v128 accumulators (32 outputs). 8 accumulators, 2 of B and 1 of A fit the
 * 16 vector registers of x86-64 without spilling.
 *
 * Bitwise identical to wnn_f32_gemm_bs_4x4__scalar: every output element is
 * summed from 0 over k in increasing order, one rounded multiply and one
 * rounded add per step (wasm SIMD128 has no fused multiply-add; in
 * dist/wnn-relaxed.wasm the step is relaxed SIMD's, fused where the CPU can:
 * wasmsimd_madd.h), and the
 * epilogue does the same operations in the same order (alpha * acc + bias,
 * + beta * c, then the clamp by comparisons: pmax/pmin are exactly
 * `v < lo ? lo : v` and `hi < v ? hi : v`, so NaN passes through).
 *
 * Each variant computes one row panel of at most MR rows and any number of
 * columns in its MR x NR register tiles, left to right. The variants, by the
 * layout of B (the driver, wnn_f32_gemm, picks one per panel):
 *   wnn_f32_gemm_4x8__wasmsimd (b_cs == 1, row-major B: Conv's im2col and
 *     1x1, MatMul, Gemm): contiguous loads, partial loads for a ragged right
 *     edge.
 *   wnn_f32_gemm_1x16__wasmsimd (b_cs == 1): a single row of C (M = 1, a
 *     fully connected layer as MatMul) in 16 columns instead of a 4-row tile
 *     with 3 wasted rows; from WNN_F32_GEMM_ROW_STREAM_MIN columns (beta 0)
 *     streaming B row by row instead (row_stream).
 *   wnn_f32_gemm_bt_4x4__wasmsimd, _bt_1x4 (b_rs == 1, transposed B: Gemm
 *     with transB, the usual fully connected layer): load 4 consecutive k of
 *     4 columns and transpose them in registers, so that each column still
 *     sums in k order.
 *   wnn_f32_gemm_bs_4x8__wasmsimd (any strides): the 4 x 8 tile with B
 *     gathered lane by lane.
 * Rows past mr alias row 0 (computed, never stored); columns past a ragged
 * nr alias the first column or load zeros.
 */
#include <math.h>
#include <stdbool.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_madd.h"

typedef struct epilogue {
  v128_t alpha, beta, lo, hi;
  const wnn_f32_gemm_params *p;
  /* plain: alpha == 1 and beta == 0, so the store is acc + bias (1 * acc is
   * acc, bit for bit); clamp: min or max is finite (pmax with -INFINITY and
   * pmin with INFINITY change nothing, NaN included). Both are the same
   * for every tile, so the branches on them are predicted. */
  bool plain, clamp;
} epilogue;

static inline float clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

/* Stores 4 outputs; the same steps as the scalar kernel's store_row. */
static inline __attribute__((always_inline)) void store4(float *c, v128_t acc, v128_t bias,
                                                         const epilogue *e) {
  v128_t v;
  if (e->plain) {
    v = wasm_f32x4_add(acc, bias);
  } else {
    v = wasm_f32x4_add(wasm_f32x4_mul(e->alpha, acc), bias);
    if (e->p->beta != 0.0f) v = wasm_f32x4_add(v, wasm_f32x4_mul(e->beta, wasm_v128_load(c)));
  }
  if (e->clamp) v = wasm_f32x4_pmin(wasm_f32x4_pmax(v, e->lo), e->hi);
  wasm_v128_store(c, v);
}

/* Stores the first nr (< 4 or any) of 4 outputs, scalar. */
static void store_part(float *c, v128_t acc, size_t nr, float bias, const epilogue *e) {
  float t[4];
  wasm_v128_store(t, acc);
  const wnn_f32_gemm_params *p = e->p;
  for (size_t j = 0; j < nr; j++) {
    float v = p->alpha * t[j] + bias;
    if (p->beta != 0.0f) v += p->beta * c[j];
    c[j] = clampf(v, p->min, p->max);
  }
}

/* Stores columns [0, nr) of a row held in `count` v128 accumulators. */
static inline __attribute__((always_inline)) void store_row(float *c, const v128_t *acc,
                                                            size_t count, size_t nr, float bias,
                                                            const epilogue *e) {
  const v128_t vb = wasm_f32x4_splat(bias);
  for (size_t v = 0; v < count && 4 * v < nr; v++) {
    if (nr - 4 * v >= 4)
      store4(c + 4 * v, acc[v], vb, e);
    else
      store_part(c + 4 * v, acc[v], nr - 4 * v, bias, e);
  }
}

#define MADD(acc, a, b) acc = wnn_f32x4_madd(acc, a, b)

/* The tiles are inlined into each variant's loop over the panel, and their k
 * loops count down: one general register fewer for V8 to keep live beside
 * the four rows of A, B and the two offsets (x86-64 has few to spare). Both
 * were measured on whole models (docs/kernels.md, "Driver and panels"). */
#define TILE static inline __attribute__((always_inline)) void

/* ----------------------------------------------------------- row-major B */

/* Rows a0..a3 (aliased past mr), 8 contiguous columns of B. */
TILE tile_4x8(size_t mr, size_t k, const float *a, size_t a_rs, size_t a_cs, const float *b,
              size_t b_rs, const float *bias, float *c, size_t c_rs, const epilogue *e) {
  const float *a0 = a;
  const float *a1 = mr > 1 ? a0 + a_rs : a0;
  const float *a2 = mr > 2 ? a1 + a_rs : a0;
  const float *a3 = mr > 3 ? a2 + a_rs : a0;
  v128_t c00 = wasm_f32x4_const_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  size_t ao = 0, bo = 0;
  for (size_t q = k; q != 0; q--, ao += a_cs, bo += b_rs) {
    const v128_t vb0 = wasm_v128_load(b + bo), vb1 = wasm_v128_load(b + bo + 4);
    const v128_t va0 = wasm_v128_load32_splat(a0 + ao), va1 = wasm_v128_load32_splat(a1 + ao);
    const v128_t va2 = wasm_v128_load32_splat(a2 + ao), va3 = wasm_v128_load32_splat(a3 + ao);
    MADD(c00, va0, vb0), MADD(c01, va0, vb1);
    MADD(c10, va1, vb0), MADD(c11, va1, vb1);
    MADD(c20, va2, vb0), MADD(c21, va2, vb1);
    MADD(c30, va3, vb0), MADD(c31, va3, vb1);
  }
  const v128_t r[4][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  for (size_t i = 0; i < mr; i++) store_row(c + i * c_rs, r[i], 2, 8, bias ? bias[i] : 0.0f, e);
}

/* The first n (1..4) floats of p in the low lanes, zeros above; reads nothing
 * past p[n - 1]. */
static inline v128_t load_part(const float *p, size_t n) {
  if (n >= 4) return wasm_v128_load(p);
  if (n == 1) return wasm_v128_load32_zero(p);
  const v128_t lo = wasm_v128_load64_zero(p);
  return n == 2 ? lo : wasm_f32x4_replace_lane(lo, 2, p[2]);
}

/* The ragged right edge of row-major B: rows aliased past mr, columns
 * [0, nr) for nr < 8, loaded as partial vectors (the missing lanes are zeros
 * whose results are never stored). */
TILE tile_4x8_edge(size_t mr, size_t nr, size_t k, const float *a, size_t a_rs, size_t a_cs,
                   const float *b, size_t b_rs, const float *bias, float *c, size_t c_rs,
                   const epilogue *e) {
  const float *a0 = a;
  const float *a1 = mr > 1 ? a0 + a_rs : a0;
  const float *a2 = mr > 2 ? a1 + a_rs : a0;
  const float *a3 = mr > 3 ? a2 + a_rs : a0;
  const size_t n0 = nr < 4 ? nr : 4, n1 = nr - n0;
  v128_t c00 = wasm_f32x4_const_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  size_t ao = 0, bo = 0;
  for (size_t q = k; q != 0; q--, ao += a_cs, bo += b_rs) {
    const v128_t vb0 = load_part(b + bo, n0);
    const v128_t vb1 = n1 ? load_part(b + bo + 4, n1) : wasm_f32x4_const_splat(0.0f);
    const v128_t va0 = wasm_v128_load32_splat(a0 + ao), va1 = wasm_v128_load32_splat(a1 + ao);
    const v128_t va2 = wasm_v128_load32_splat(a2 + ao), va3 = wasm_v128_load32_splat(a3 + ao);
    MADD(c00, va0, vb0), MADD(c01, va0, vb1);
    MADD(c10, va1, vb0), MADD(c11, va1, vb1);
    MADD(c20, va2, vb0), MADD(c21, va2, vb1);
    MADD(c30, va3, vb0), MADD(c31, va3, vb1);
  }
  const v128_t r[4][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  for (size_t i = 0; i < mr; i++) store_row(c + i * c_rs, r[i], 2, nr, bias ? bias[i] : 0.0f, e);
}

/* One row, 16 contiguous columns of B. */
TILE tile_1x16(size_t k, const float *a, size_t a_cs, const float *b, size_t b_rs, float bias,
               float *c, const epilogue *e) {
  v128_t c0 = wasm_f32x4_const_splat(0.0f), c1 = c0, c2 = c0, c3 = c0;
  size_t ao = 0, bo = 0;
  for (size_t q = k; q != 0; q--, ao += a_cs, bo += b_rs) {
    const v128_t va = wasm_v128_load32_splat(a + ao);
    MADD(c0, va, wasm_v128_load(b + bo));
    MADD(c1, va, wasm_v128_load(b + bo + 4));
    MADD(c2, va, wasm_v128_load(b + bo + 8));
    MADD(c3, va, wasm_v128_load(b + bo + 12));
  }
  const v128_t r[4] = {c0, c1, c2, c3};
  store_row(c, r, 4, 16, bias, e);
}

/* One row over nc columns, streaming B row by row: c holds the sums (from
 * 0) while each chunk of 8 rows of B adds into them in k order, so B
 * is read front to back once, a contiguous run of nc floats per row, instead
 * of 16 columns at a time down all k rows (which, for a wide matrix, reads
 * each cache line of B from memory and strides across pages). The same
 * multiply and add per step in the same order as tile_1x16, hence the same
 * bits; then the epilogue. Only with beta == 0 (c is written before the
 * epilogue reads it). */
__attribute__((noinline)) static void row_stream(size_t nc, size_t k, const float *a,
                                                 size_t a_cs, const float *b, size_t b_rs,
                                                 float bias, float *c, const epilogue *e) {
  size_t j;
#pragma clang loop unroll(disable) vectorize(disable) interleave(disable)
  for (j = 0; j < nc; j++) c[j] = 0.0f;
  size_t q = 0;
  for (; q + 8 <= k; q += 8) {
    const float *b0 = b + q * b_rs;
    v128_t va[8];
    for (size_t r = 0; r < 8; r++) va[r] = wasm_f32x4_splat(a[(q + r) * a_cs]);
#pragma clang loop unroll(disable) vectorize(disable) interleave(disable)
    for (j = 0; j + 4 <= nc; j += 4) {
      v128_t c0 = wasm_v128_load(c + j);
      MADD(c0, va[0], wasm_v128_load(b0 + j));
      MADD(c0, va[1], wasm_v128_load(b0 + b_rs + j));
      MADD(c0, va[2], wasm_v128_load(b0 + 2 * b_rs + j));
      MADD(c0, va[3], wasm_v128_load(b0 + 3 * b_rs + j));
      MADD(c0, va[4], wasm_v128_load(b0 + 4 * b_rs + j));
      MADD(c0, va[5], wasm_v128_load(b0 + 5 * b_rs + j));
      MADD(c0, va[6], wasm_v128_load(b0 + 6 * b_rs + j));
      MADD(c0, va[7], wasm_v128_load(b0 + 7 * b_rs + j));
      wasm_v128_store(c + j, c0);
    }
#pragma clang loop unroll(disable) vectorize(disable) interleave(disable)
    for (; j < nc; j++) {
      float v = c[j];
      for (size_t r = 0; r < 8; r++) v = v + a[(q + r) * a_cs] * b0[r * b_rs + j];
      c[j] = v;
    }
  }
#pragma clang loop unroll(disable) vectorize(disable) interleave(disable)
  for (; q < k; q++) {
    const float *bq = b + q * b_rs, s = a[q * a_cs];
#pragma clang loop unroll(disable) vectorize(disable) interleave(disable)
    for (j = 0; j < nc; j++) c[j] = c[j] + s * bq[j];
  }
  /* The epilogue, 4 columns at a time. */
#pragma clang loop unroll(disable) vectorize(disable) interleave(disable)
  for (j = 0; j < nc; j += 4) {
    const size_t left = nc - j < 4 ? nc - j : 4;
    const v128_t r = load_part(c + j, left);
    store_row(c + j, &r, 1, left, bias, e);
  }
}

/* -------------------------------------------------------- any layout of B */

/* Rows aliased past mr, columns [0, nr) of B (nr <= 8) gathered lane by lane. */
TILE tile_gather(size_t mr, size_t nr, size_t k, const float *a, size_t a_rs, size_t a_cs,
                 const float *b, size_t b_rs, size_t b_cs, const float *bias, float *c, size_t c_rs,
                 const epilogue *e) {
  const float *a0 = a;
  const float *a1 = mr > 1 ? a0 + a_rs : a0;
  const float *a2 = mr > 2 ? a1 + a_rs : a0;
  const float *a3 = mr > 3 ? a2 + a_rs : a0;
  size_t o[8];
  for (size_t j = 0; j < 8; j++) o[j] = (j < nr ? j : 0) * b_cs;
  v128_t c00 = wasm_f32x4_const_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  size_t ao = 0, bo = 0;
  for (size_t q = k; q != 0; q--, ao += a_cs, bo += b_rs) {
    const float *bq = b + bo;
    const v128_t vb0 = wasm_f32x4_make(bq[o[0]], bq[o[1]], bq[o[2]], bq[o[3]]);
    const v128_t vb1 = wasm_f32x4_make(bq[o[4]], bq[o[5]], bq[o[6]], bq[o[7]]);
    const v128_t va0 = wasm_v128_load32_splat(a0 + ao), va1 = wasm_v128_load32_splat(a1 + ao);
    const v128_t va2 = wasm_v128_load32_splat(a2 + ao), va3 = wasm_v128_load32_splat(a3 + ao);
    MADD(c00, va0, vb0), MADD(c01, va0, vb1);
    MADD(c10, va1, vb0), MADD(c11, va1, vb1);
    MADD(c20, va2, vb0), MADD(c21, va2, vb1);
    MADD(c30, va3, vb0), MADD(c31, va3, vb1);
  }
  const v128_t r[4][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  for (size_t i = 0; i < mr; i++) store_row(c + i * c_rs, r[i], 2, nr, bias ? bias[i] : 0.0f, e);
}

/* ----------------------------------------------------------- transposed B */

/* b_rs == 1: column j of B is contiguous (b + j * b_cs). Rows aliased past mr
 * (mr <= 4; `rows` is 4 or 1, a constant after inlining), columns past nr
 * (nr <= 4) alias column 0. Four k at a time: load 4 consecutive k of each
 * column and transpose, so that kq holds step q of the 4 columns. */
/* A single row's tile is one chain of dependent multiply-adds: a fused one
 * waits for the previous one's whole latency (4 cycles on recent x86, where
 * an add takes 2-3), and the relaxed build ran M = 1 transB GEMMs 2x slower
 * with it (bench/kernels, "fully connected (Gemm transB)"). So that tile
 * keeps the separate multiply and add in every build. */
#define MADD_T(acc, a, b)                                                              \
  acc = rows == 1 ? wasm_f32x4_add(acc, wasm_f32x4_mul(a, b)) : wnn_f32x4_madd(acc, a, b)

TILE tile_t(size_t rows, size_t mr, size_t nr, size_t k, const float *a, size_t a_rs,
            size_t a_cs, const float *b, size_t b_cs, const float *bias, float *c, size_t c_rs,
            const epilogue *e) {
  const float *ar[4];
  for (size_t i = 0; i < 4; i++) ar[i] = i < mr ? a + i * a_rs : a;
  const float *b0 = b, *b1 = nr > 1 ? b + b_cs : b;
  const float *b2 = nr > 2 ? b + 2 * b_cs : b, *b3 = nr > 3 ? b + 3 * b_cs : b;
  v128_t acc[4];
  for (size_t i = 0; i < rows; i++) acc[i] = wasm_f32x4_const_splat(0.0f);
  size_t q = 0;
  for (; q + 4 <= k; q += 4) {
    const v128_t x0 = wasm_v128_load(b0 + q), x1 = wasm_v128_load(b1 + q);
    const v128_t x2 = wasm_v128_load(b2 + q), x3 = wasm_v128_load(b3 + q);
    const v128_t t0 = wasm_i32x4_shuffle(x0, x1, 0, 4, 1, 5);
    const v128_t t1 = wasm_i32x4_shuffle(x0, x1, 2, 6, 3, 7);
    const v128_t t2 = wasm_i32x4_shuffle(x2, x3, 0, 4, 1, 5);
    const v128_t t3 = wasm_i32x4_shuffle(x2, x3, 2, 6, 3, 7);
    const v128_t k0 = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
    const v128_t k1 = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
    const v128_t k2 = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
    const v128_t k3 = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
    for (size_t i = 0; i < rows; i++) {
      const float *ai = ar[i] + q * a_cs;
      MADD_T(acc[i], wasm_v128_load32_splat(ai), k0);
      MADD_T(acc[i], wasm_v128_load32_splat(ai + a_cs), k1);
      MADD_T(acc[i], wasm_v128_load32_splat(ai + 2 * a_cs), k2);
      MADD_T(acc[i], wasm_v128_load32_splat(ai + 3 * a_cs), k3);
    }
  }
  for (; q < k; q++) {
    const v128_t kq = wasm_f32x4_make(b0[q], b1[q], b2[q], b3[q]);
    for (size_t i = 0; i < rows; i++) MADD_T(acc[i], wasm_v128_load32_splat(ar[i] + q * a_cs), kq);
  }
  for (size_t i = 0; i < mr; i++)
    store_row(c + i * c_rs, &acc[i], 1, nr, bias ? bias[i] : 0.0f, e);
}

/* ------------------------------------------------------------- variants */

static inline epilogue make_epilogue(const wnn_f32_gemm_params *p) {
  const epilogue e = {wasm_f32x4_splat(p->alpha), wasm_f32x4_splat(p->beta),
                      wasm_f32x4_splat(p->min), wasm_f32x4_splat(p->max), p,
                      p->alpha == 1.0f && p->beta == 0.0f,
                      p->min != -INFINITY || p->max != INFINITY};
  return e;
}

void wnn_f32_gemm_4x8__wasmsimd(size_t mr, size_t nc, size_t k, const float *a, size_t a_rs,
                                size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                                const float *bias, float *c, size_t c_rs,
                                const wnn_f32_gemm_params *params) {
  (void)b_cs; /* 1 */
  const epilogue e = make_epilogue(params);
  size_t j = 0;
  for (; j + 8 <= nc; j += 8) tile_4x8(mr, k, a, a_rs, a_cs, b + j, b_rs, bias, c + j, c_rs, &e);
  if (j < nc) tile_4x8_edge(mr, nc - j, k, a, a_rs, a_cs, b + j, b_rs, bias, c + j, c_rs, &e);
}

void wnn_f32_gemm_1x16__wasmsimd(size_t mr, size_t nc, size_t k, const float *a, size_t a_rs,
                                 size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                                 const float *bias, float *c, size_t c_rs,
                                 const wnn_f32_gemm_params *params) {
  (void)mr, (void)b_cs; /* 1, 1 */
  const epilogue e = make_epilogue(params);
  const float bias0 = bias ? bias[0] : 0.0f;
  if (nc >= WNN_F32_GEMM_ROW_STREAM_MIN && params->beta == 0.0f) {
    row_stream(nc, k, a, a_cs, b, b_rs, bias0, c, &e);
    return;
  }
  size_t j = 0;
  for (; j + 16 <= nc; j += 16) tile_1x16(k, a, a_cs, b + j, b_rs, bias0, c + j, &e);
  /* The ragged right edge: single-row 4 x 8 tiles (the same sums). */
  for (; j + 8 <= nc; j += 8) tile_4x8(1, k, a, a_rs, a_cs, b + j, b_rs, bias, c + j, c_rs, &e);
  if (j < nc) tile_4x8_edge(1, nc - j, k, a, a_rs, a_cs, b + j, b_rs, bias, c + j, c_rs, &e);
}

void wnn_f32_gemm_bt_4x4__wasmsimd(size_t mr, size_t nc, size_t k, const float *a, size_t a_rs,
                                   size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                                   const float *bias, float *c, size_t c_rs,
                                   const wnn_f32_gemm_params *params) {
  (void)b_rs; /* 1 */
  const epilogue e = make_epilogue(params);
  for (size_t j = 0; j < nc; j += 4)
    tile_t(4, mr, nc - j < 4 ? nc - j : 4, k, a, a_rs, a_cs, b + j * b_cs, b_cs, bias, c + j,
           c_rs, &e);
}

void wnn_f32_gemm_bt_1x4__wasmsimd(size_t mr, size_t nc, size_t k, const float *a, size_t a_rs,
                                   size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                                   const float *bias, float *c, size_t c_rs,
                                   const wnn_f32_gemm_params *params) {
  (void)mr, (void)b_rs; /* 1, 1 */
  const epilogue e = make_epilogue(params);
  for (size_t j = 0; j < nc; j += 4)
    tile_t(1, 1, nc - j < 4 ? nc - j : 4, k, a, a_rs, a_cs, b + j * b_cs, b_cs, bias, c + j,
           c_rs, &e);
}

void wnn_f32_gemm_bs_4x8__wasmsimd(size_t mr, size_t nc, size_t k, const float *a, size_t a_rs,
                                   size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                                   const float *bias, float *c, size_t c_rs,
                                   const wnn_f32_gemm_params *params) {
  const epilogue e = make_epilogue(params);
  for (size_t j = 0; j < nc; j += 8)
    tile_gather(mr, nc - j < 8 ? nc - j : 8, k, a, a_rs, a_cs, b + j * b_cs, b_rs, b_cs, bias,
                c + j, c_rs, &e);
}
