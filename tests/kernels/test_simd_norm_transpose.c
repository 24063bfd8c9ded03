/* The layer normalization and 2-D transpose kernels (every variant the build
 * has: the scalar ones natively, the scalar and SIMD128 ones in the wasi
 * build), and the Transpose op that uses the latter, against the reference.
 *
 *   layernorm: rows 1..3 of n = 1, 3, 4, 5, 17, 1000 (less than a vector,
 *     one, ragged tails, many) against double precision, with bias and
 *     without, mean / inv_std returned or not (NULL), in place (y == x, the
 *     same bits as out of place). Bounds: the mean within the forward error
 *     bound of its float sum, em <= (n + 4) 2^-24 mean(|x|) (any summation
 *     order of at most n + 4 roundings in a chain: the scalar kernel's
 *     sequential sum, the SIMD128 kernel's 8 lanes); inv_std within
 *     (n + 8) 2^-25 + em^2 / (2 var) relative (the variance around the
 *     kernel's mean is var + em^2); y within
 *     |scale| inv_std (em + |x - mean| itol) + 4e-6 (|y| + |bias| + |scale|).
 *     Rows of 1e4 + noise in [-1, 1) (variance 1/3 under a mean of 1e4; the
 *     E[x^2] - E[x]^2 shortcut would lose every digit there, as float's ulp
 *     at 1e8 is 8): the same bounds, and inv_std within 1e-3 relative.
 *     The worst errors seen are printed. Constant rows (variance 0, values
 *     whose sums are exact): mean exact, inv_std = 1 / sqrtf(eps) exactly,
 *     y == bias exactly.
 *     LayerNormalization selects the last row the build has (the SIMD128
 *     one in SIMD builds) with WNN_KERNELS_AUTO, the scalar one with _SCALAR.
 *   x32 transpose: blocks of rows x cols in {1, 2, 3, 4, 5, 7, 8, 15, 16, 17,
 *     33, 67}^2 (less than, exactly and past the 4 x 4 blocks and the bands
 *     of 16 columns) with strides wider than the block: every element of
 *     the block bitwise, the gaps between output rows and a guard element
 *     past the end untouched; NaN payloads kept (bit copies).
 *   Transpose op: run (WNN_KERNELS_AUTO and _SCALAR) bitwise against
 *     wnn_ref_transpose for every permutation of 2- to 5-D small shapes, the
 *     2-D and 3-D shapes with every dim in {1, 3, 4, 5, 17, 33} and every
 *     permutation, NCHW <-> NHWC, attention's head split and K^T, in float32,
 *     int32, int64, uint8 and bool. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../ops/op_harness.h"
#include "kernels/kernels.h"
#include "ops/nn_internal.h"

#define ISA_SCALAR 0
#define ISA_WASMSIMD 1
#define COUNT(t) (sizeof t / sizeof t[0])

typedef struct lnrow {
  const char *name;
  wnn_f32_layernorm_ukernel *fn;
} lnrow;
static const lnrow LN[] = {
#define WNN_F32_LAYERNORM(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels_nn.inc"
};

typedef struct trrow {
  const char *name;
  wnn_x32_transpose_ukernel *fn;
} trrow;
static const trrow TR[] = {
#define WNN_X32_TRANSPOSE(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels_tensor.inc"
};

static void print_variants(void) {
  int simd = 0;
#define WNN_F32_LAYERNORM(name, isa) WNN_IF_ISA(isa, simd += ISA_##isa == ISA_WASMSIMD;)
#include "kernels/kernels_nn.inc"
  if (!simd)
    printf("  this build has no SIMD128 kernels (not a wasm SIMD build): testing the scalar "
           "variants only\n");
}

/* ------------------------------------------------------------ layernorm */

enum { DATA_UNIFORM, DATA_OFFSET, DATA_CONSTANT };

/* Worst errors seen, printed once by the test. */
static double worst_mean, worst_inv, worst_y, worst_inv_offset, worst_y_offset;

/* One call of `fn` on rows x n of the given kind of data, checked against
 * double precision. */
static int layernorm_case(const lnrow *k, size_t rows, size_t n, int data, bool with_bias,
                          bool stats, bool in_place) {
  const float eps = 1e-5f;
  float *x = malloc(rows * n * sizeof *x), *x0 = malloc(rows * n * sizeof *x0);
  float *y = malloc((rows * n + 1) * sizeof *y), *scale = malloc(n * sizeof *scale);
  float *bias = malloc(n * sizeof *bias), mean[3] = {0}, inv[3] = {0};
  for (size_t i = 0; i < rows * n; i++) {
    if (data == DATA_UNIFORM) x[i] = lcg_float() * 2.0f + 0.5f;
    if (data == DATA_OFFSET) x[i] = 1e4f + lcg_float();
    if (data == DATA_CONSTANT) x[i] = (float)(i / n) - 2.5f; /* row r: r - 2.5 */
  }
  for (size_t i = 0; i < n; i++) scale[i] = lcg_float() * 2.0f, bias[i] = lcg_float();
  memcpy(x0, x, rows * n * sizeof *x);
  y[rows * n] = 1234.5f; /* guard */
  float *out = in_place ? x : y;
  k->fn(rows, n, x, scale, with_bias ? bias : NULL, out, stats ? mean : NULL, stats ? inv : NULL,
        eps);
  int ok = in_place || (y[rows * n] == 1234.5f && memcmp(x, x0, rows * n * sizeof *x) == 0);
  if (!ok) printf("  %s: n=%zu: input changed or guard overwritten\n", k->name, n);
  for (size_t r = 0; r < rows && ok; r++) {
    const float *xr = x0 + r * n, *yr = out + r * n;
    double sum = 0, abs_sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++) sum += xr[i], abs_sum += fabs(xr[i]);
    const double md = sum / (double)n;
    for (size_t i = 0; i < n; i++) sq += (xr[i] - md) * (xr[i] - md);
    const double invd = 1.0 / sqrt(sq / (double)n + (double)eps);
    const double mtol = (double)(n + 4) * 0x1p-24 * abs_sum / (double)n;
    if (data == DATA_CONSTANT) {
      const float c = (float)r - 2.5f;
      if (stats) ok = mean[r] == c && inv[r] == 1.0f / sqrtf(eps);
      for (size_t i = 0; i < n && ok; i++)
        ok = with_bias ? yr[i] == bias[i] : yr[i] == 0.0f;
      if (!ok) printf("  %s: constant row %zu of %zu not exact\n", k->name, r, n);
      continue;
    }
    /* The variance around the kernel's mean m is var + (m - md)^2: inv_std
     * may be off by half of that relative, plus the roundings of the sum of
     * squares (at most n + 8 in a chain, halved by the square root). */
    const double em = stats ? fabs(mean[r] - md) : mtol;
    const double itol = 0.5 * (double)(n + 8) * 0x1p-24 + em * em / (2.0 * (sq / (double)n + eps));
    if (stats) {
      const double ei = fabs(inv[r] - invd) / invd;
      if (em > worst_mean) worst_mean = em;
      double *wi = data == DATA_OFFSET ? &worst_inv_offset : &worst_inv;
      if (ei > *wi) *wi = ei;
      if (em > mtol || ei > itol || (data == DATA_OFFSET && ei > 1e-3)) {
        printf("  %s: rows %zu n=%zu row %zu: mean %.9g (want %.9g, tol %.3g), inv_std %.9g "
               "(want %.9g, rel %.3g, tol %.3g)\n",
               k->name, rows, n, r, mean[r], md, mtol, inv[r], invd, ei, itol);
        ok = 0;
      }
    }
    /* y from the kernel's mean and inv_std (within em and itol), then a few
     * roundings. */
    for (size_t i = 0; i < n && ok; i++) {
      const double b = with_bias ? bias[i] : 0.0;
      const double want = (xr[i] - md) * invd * scale[i] + b;
      const double err = fabs(yr[i] - want);
      const double tol = fabs(scale[i]) * invd * (em + fabs(xr[i] - md) * itol) +
                         4e-6 * (fabs(want) + fabs(b) + fabs(scale[i]));
      const double rel = err / (fabs(want) + fabs(b) + fabs(scale[i]));
      double *wy = data == DATA_OFFSET ? &worst_y_offset : &worst_y;
      if (rel > *wy) *wy = rel;
      if (!(err <= tol)) {
        printf("  %s: rows %zu n=%zu y[%zu][%zu] = %.9g, want %.9g (tol %.3g)\n", k->name, rows,
               n, r, i, yr[i], want, tol);
        ok = 0;
      }
    }
  }
  /* In place must give the bits of out of place. */
  if (ok && in_place) {
    k->fn(rows, n, x0, scale, with_bias ? bias : NULL, y, NULL, NULL, eps);
    ok = memcmp(x, y, rows * n * sizeof *y) == 0;
    if (!ok) printf("  %s: n=%zu: in place differs from out of place\n", k->name, n);
  }
  free(x), free(x0), free(y), free(scale), free(bias);
  return ok;
}

static const size_t LN_SIZES[] = {1, 3, 4, 5, 17, 1000};

TEST(layernorm_against_double) {
  for (size_t k = 0; k < COUNT(LN); k++) {
    worst_mean = worst_inv = worst_y = 0;
    for (size_t s = 0; s < COUNT(LN_SIZES); s++)
      for (size_t rows = 1; rows <= 3; rows++) {
        CHECK(layernorm_case(&LN[k], rows, LN_SIZES[s], DATA_UNIFORM, true, true, false));
        CHECK(layernorm_case(&LN[k], rows, LN_SIZES[s], DATA_UNIFORM, false, true, false));
        CHECK(layernorm_case(&LN[k], rows, LN_SIZES[s], DATA_UNIFORM, true, false, true));
        CHECK(layernorm_case(&LN[k], rows, LN_SIZES[s], DATA_UNIFORM, false, true, true));
      }
    printf("  %s worst: mean %.3g abs, inv_std %.3g rel, y %.3g of |y| + |bias| + |scale|\n",
           LN[k].name, worst_mean, worst_inv, worst_y);
  }
}

TEST(layernorm_large_offset_two_pass) {
  for (size_t k = 0; k < COUNT(LN); k++) {
    worst_mean = worst_inv_offset = worst_y_offset = 0;
    for (size_t s = 0; s < COUNT(LN_SIZES); s++)
      for (size_t rows = 1; rows <= 3; rows++) {
        if (LN_SIZES[s] == 1) continue; /* one element: no spread to measure */
        CHECK(layernorm_case(&LN[k], rows, LN_SIZES[s], DATA_OFFSET, true, true, false));
        CHECK(layernorm_case(&LN[k], rows, LN_SIZES[s], DATA_OFFSET, false, true, true));
      }
    printf("  %s worst at 1e4 + [-1, 1): mean %.3g abs, inv_std %.3g rel, y %.3g of |y| + "
           "|bias| + |scale|\n", LN[k].name, worst_mean, worst_inv_offset, worst_y_offset);
  }
}

TEST(layernorm_constant_rows) {
  for (size_t k = 0; k < COUNT(LN); k++)
    for (size_t s = 0; s < COUNT(LN_SIZES); s++) {
      CHECK(layernorm_case(&LN[k], 3, LN_SIZES[s], DATA_CONSTANT, true, true, false));
      CHECK(layernorm_case(&LN[k], 3, LN_SIZES[s], DATA_CONSTANT, false, true, true));
    }
}

/* Every variant against the scalar row, on the same data: close, since both
 * are within the bounds above; printed for the record. */
TEST(layernorm_variants_agree) {
  const size_t n = 1000, rows = 3;
  float *x = malloc(rows * n * sizeof *x), *scale = malloc(n * sizeof *scale);
  float *bias = malloc(n * sizeof *bias), *want = malloc(rows * n * sizeof *want);
  float *got = malloc(rows * n * sizeof *got);
  for (size_t i = 0; i < rows * n; i++) x[i] = lcg_float() + (float)(i / n);
  for (size_t i = 0; i < n; i++) scale[i] = lcg_float(), bias[i] = lcg_float();
  LN[0].fn(rows, n, x, scale, bias, want, NULL, NULL, 1e-5f);
  for (size_t k = 1; k < COUNT(LN); k++) {
    LN[k].fn(rows, n, x, scale, bias, got, NULL, NULL, 1e-5f);
    double worst = 0;
    for (size_t i = 0; i < rows * n; i++) {
      const double d = fabs((double)got[i] - want[i]);
      if (d > worst) worst = d;
    }
    printf("  %s vs %s: max |difference| %.3g\n", LN[k].name, LN[0].name, worst);
    CHECK(test_allclose(got, want, rows * n, 1e-5f, 1e-5f));
  }
  free(x), free(scale), free(bias), free(want), free(got);
}

/* LayerNormalization picks the last layernorm row the build has (the
 * SIMD128 one in SIMD builds) with WNN_KERNELS_AUTO, and the scalar one with
 * WNN_KERNELS_SCALAR; tests/ops/test_nn_norm.c runs the op with both against
 * the reference. */
TEST(layernorm_op_selects_variant) {
  const wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 5, 24), TD(WNN_DTYPE_F32, 24),
                           TD(WNN_DTYPE_F32, 24)};
  op_case c;
  CHECK_STATUS(op_prepare_k(&c, "LayerNormalization", "{\"axis\":-1}", 3, in, 1,
                            WNN_KERNELS_AUTO), WNN_OK);
  CHECK(((const wnn_layernorm_params *)(const void *)c.params)->rows_fn == LN[COUNT(LN) - 1].fn);
  CHECK_STATUS(op_prepare_k(&c, "LayerNormalization", "{\"axis\":-1}", 3, in, 1,
                            WNN_KERNELS_SCALAR), WNN_OK);
  CHECK(((const wnn_layernorm_params *)(const void *)c.params)->rows_fn ==
        wnn_f32_layernorm__scalar);
}

/* ------------------------------------------------------ x32 transpose */

static int transpose_block(const trrow *k, size_t rows, size_t cols) {
  const size_t xs = cols + 3, ys = rows + 2;
  const uint32_t sentinel = 0xdeadbeefu;
  const size_t xn = rows * xs, yn = cols * ys + 1; /* + a guard element past the end */
  uint32_t *x = malloc(xn * sizeof *x), *y = malloc(yn * sizeof *y);
  for (size_t i = 0; i < xn; i++) x[i] = 0x7fc00000u + (uint32_t)i; /* NaN payloads */
  for (size_t i = 0; i < yn; i++) y[i] = sentinel;
  k->fn(rows, cols, x, xs, y, ys);
  int ok = 1;
  for (size_t j = 0; j < cols && ok; j++)
    for (size_t i = 0; i < ys && ok; i++) {
      const uint32_t want = i < rows ? x[i * xs + j] : sentinel;
      if (y[j * ys + i] != want) {
        printf("  %s: %zu x %zu: y[%zu][%zu] = %08x, want %08x\n", k->name, rows, cols, j, i,
               (unsigned)y[j * ys + i], (unsigned)want);
        ok = 0;
      }
    }
  if (ok && y[yn - 1] != sentinel) {
    printf("  %s: %zu x %zu: wrote past the end\n", k->name, rows, cols);
    ok = 0;
  }
  free(x), free(y);
  return ok;
}

TEST(x32_transpose_ragged_blocks) {
  static const size_t SIZES[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 33, 67};
  for (size_t k = 0; k < COUNT(TR); k++)
    for (size_t r = 0; r < COUNT(SIZES); r++)
      for (size_t c = 0; c < COUNT(SIZES); c++) CHECK(transpose_block(&TR[k], SIZES[r], SIZES[c]));
}

/* Contiguous strides (the op's 2-D case) and an empty block. */
TEST(x32_transpose_dense) {
  for (size_t k = 0; k < COUNT(TR); k++) {
    const size_t rows = 37, cols = 53;
    uint32_t *x = malloc(rows * cols * sizeof *x), *y = malloc((rows * cols + 1) * sizeof *y);
    for (size_t i = 0; i < rows * cols; i++) x[i] = lcg_next();
    y[rows * cols] = 7u;
    TR[k].fn(rows, cols, x, cols, y, rows);
    int ok = y[rows * cols] == 7u;
    for (size_t i = 0; i < rows && ok; i++)
      for (size_t j = 0; j < cols && ok; j++) ok = y[j * rows + i] == x[i * cols + j];
    CHECK(ok);
    TR[k].fn(0, cols, x, cols, y, rows);
    TR[k].fn(rows, 0, x, cols, y, rows);
    CHECK(y[rows * cols] == 7u);
    free(x), free(y);
  }
}

/* ----------------------------------------------------- the Transpose op */

static const wnn_dtype DTYPES[] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64, WNN_DTYPE_U8,
                                   WNN_DTYPE_BOOL};

/* The op against the reference for one shape and permutation, in every dtype
 * and both kernel choices. */
static int check_perm(int nd, const int64_t *dims, const int *perm) {
  char attrs[128];
  int len = snprintf(attrs, sizeof attrs, "{\"perm\":[");
  for (int i = 0; i < nd; i++)
    len += snprintf(attrs + len, sizeof attrs - (size_t)len, "%s%d", i ? "," : "", perm[i]);
  snprintf(attrs + len, sizeof attrs - (size_t)len, "]}");
  for (size_t d = 0; d < COUNT(DTYPES); d++) {
    const wnn_tdesc x = td(DTYPES[d], nd, dims);
    if (!op_check("Transpose", attrs, 1, &x, 0, 0)) {
      printf("  shape [");
      for (int i = 0; i < nd; i++) printf("%s%lld", i ? "," : "", (long long)dims[i]);
      printf("] perm %s dtype %s\n", attrs, wnn_dtype_name(DTYPES[d]));
      return 0;
    }
  }
  return 1;
}

/* Calls check_perm for every permutation of 0..nd-1 (Heap's algorithm);
 * returns how many failed. */
static int all_perms(int nd, const int64_t *dims) {
  int perm[WNN_MAX_DIMS], c[WNN_MAX_DIMS] = {0}, failed = 0;
  for (int i = 0; i < nd; i++) perm[i] = i;
  failed += !check_perm(nd, dims, perm);
  for (int i = 1; i < nd;) {
    if (c[i] < i) {
      const int a = i % 2 ? c[i] : 0, t = perm[a];
      perm[a] = perm[i], perm[i] = t;
      failed += !check_perm(nd, dims, perm);
      c[i]++, i = 1;
    } else {
      c[i++] = 0;
    }
  }
  return failed;
}

TEST(transpose_op_every_perm_small) {
  static const int64_t S2[] = {3, 5}, S3[] = {2, 3, 5}, S4[] = {2, 3, 4, 5}, S5[] = {2, 3, 1, 4, 5};
  static const int64_t S4b[] = {5, 1, 6, 4}, S5b[] = {3, 2, 2, 5, 4};
  CHECK(all_perms(2, S2) == 0);
  CHECK(all_perms(3, S3) == 0);
  CHECK(all_perms(4, S4) == 0);
  CHECK(all_perms(4, S4b) == 0);
  CHECK(all_perms(5, S5) == 0);
  CHECK(all_perms(5, S5b) == 0);
}

TEST(transpose_op_ragged_sizes) {
  static const int64_t SIZES[] = {1, 3, 4, 5, 17, 33};
  int failed = 0;
  for (size_t a = 0; a < COUNT(SIZES); a++)
    for (size_t b = 0; b < COUNT(SIZES); b++) {
      const int64_t d2[] = {SIZES[a], SIZES[b]};
      failed += all_perms(2, d2);
      for (size_t c = 0; c < COUNT(SIZES); c++) {
        const int64_t d3[] = {SIZES[a], SIZES[b], SIZES[c]};
        failed += all_perms(3, d3);
      }
    }
  CHECK(failed == 0);
}

TEST(transpose_op_model_shapes) {
  static const struct {
    int nd;
    int64_t dims[5];
    int perm[5];
  } CASES[] = {
      {4, {1, 64, 56, 56}, {0, 2, 3, 1}},  /* NCHW -> NHWC */
      {4, {1, 56, 56, 64}, {0, 3, 1, 2}},  /* NHWC -> NCHW */
      {4, {2, 3, 17, 33}, {0, 2, 3, 1}},
      {4, {2, 33, 5, 3}, {0, 3, 1, 2}},
      {4, {2, 7, 8, 64}, {0, 2, 1, 3}},   /* [B, S, N, hd] -> [B, N, S, hd] */
      {4, {2, 8, 7, 64}, {0, 1, 3, 2}},   /* K^T: [B, N, S, hd] -> [B, N, hd, S] */
      {4, {2, 7, 8, 64}, {0, 2, 3, 1}},   /* [B, S, N, hd] -> [B, N, hd, S] */
      {3, {4, 8, 64}, {1, 0, 2}},         /* head split */
      {3, {4, 8, 64}, {1, 2, 0}},
      {2, {768, 100}, {1, 0}},
      {5, {1, 3, 17, 5, 4}, {0, 1, 3, 4, 2}},
      {4, {3, 0, 4, 5}, {0, 2, 3, 1}},    /* empty */
  };
  for (size_t i = 0; i < COUNT(CASES); i++)
    CHECK(check_perm(CASES[i].nd, CASES[i].dims, CASES[i].perm));
}

int main(void) {
  print_variants();
  RUN(layernorm_against_double);
  RUN(layernorm_large_offset_two_pass);
  RUN(layernorm_constant_rows);
  RUN(layernorm_variants_agree);
  RUN(layernorm_op_selects_variant);
  RUN(x32_transpose_ragged_blocks);
  RUN(x32_transpose_dense);
  RUN(transpose_op_every_perm_small);
  RUN(transpose_op_ragged_sizes);
  RUN(transpose_op_model_shapes);
  return test_summary();
}
