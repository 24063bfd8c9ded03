/* The f32 GEMM vs a naive triple loop, twice: every microkernel the build
 * has on every panel height it accepts (mr 1..MR) with nc 1..2 NR + 3 (whole
 * register tiles and a ragged one) in the layouts of B it reads, with the
 * columns of C past the panel left alone; and
 * the whole-matrix driver (src/ops/gemm_driver.c) with the tiles each
 * wnn_kernels setting selects, on one tile, less than a tile, many tiles,
 * ragged tails in m and n, k = 0 and 1, transposed and strided A and B, a
 * row stride of C wider than n, bias, alpha, beta, clamping. Tolerance: both
 * sum each dot product in k order, so they agree to the rounding of the
 * epilogue (alpha, beta, bias): rtol 1e-6, atol 1e-6. Built with relaxed
 * SIMD (the wasi-relaxed preset), within the rounding of fused multiply-adds
 * instead, and so is "bitwise" below (kernel_util.h, relaxed_close). */
#include <math.h>
#include <string.h>

#include "kernel_util.h"
#include "ops/op_internal.h"

/* A microkernel (tile_fn, reading B in `layout`, mr x nr register tiles), or
 * the driver with the kernels of `config`. */
typedef struct variant {
  const char *name;
  wnn_f32_gemm_ukernel *tile_fn;
  size_t mr, nr;
  int layout;
  wnn_f32_gemm_config config;
} variant;

static variant VARIANTS[] = {
#define WNN_F32_GEMM(fn_, isa_, mr_, nr_, layout_)                                         \
  WNN_IF_ISA(isa_, {.name = #fn_, .tile_fn = fn_, .mr = mr_, .nr = nr_,                     \
                    .layout = WNN_GEMM_B_##layout_},)
#include "kernels/kernels.inc"
    {.name = "driver, WNN_KERNELS_SCALAR", .mr = 4, .nr = 4},
    {.name = "driver, WNN_KERNELS_AUTO", .mr = 4, .nr = 4},
};
#define NUM_VARIANTS (sizeof VARIANTS / sizeof VARIANTS[0])

typedef struct gemm_case {
  size_t m, n, k;
  bool trans_a, trans_b, bias;
  size_t c_pad; /* extra elements per row of C */
  float alpha, beta, min, max;
} gemm_case;

static int check_case(const variant *v, gemm_case g) {
  /* A stored m x k (or k x m), B k x n (or n x k), each row padded by 3 so
   * the strides differ from the logical sizes. */
  const size_t a_ld = (g.trans_a ? g.m : g.k) + 3, b_ld = (g.trans_b ? g.k : g.n) + 3;
  const size_t a_rows = g.trans_a ? g.k : g.m, b_rows = g.trans_b ? g.n : g.k;
  float *a = rand_floats(a_rows * a_ld), *b = rand_floats(b_rows * b_ld);
  float *bias = g.bias ? rand_floats(g.m) : NULL;
  const size_t c_rs = g.n + g.c_pad;
  float *c = rand_floats(g.m * c_rs), *want = malloc((g.m * c_rs + 1) * sizeof(float));
  for (size_t i = 0; i < g.m * c_rs; i++) want[i] = c[i];
  const size_t a_rs = g.trans_a ? 1 : a_ld, a_cs = g.trans_a ? a_ld : 1;
  const size_t b_rs = g.trans_b ? 1 : b_ld, b_cs = g.trans_b ? b_ld : 1;
  /* mag: the magnitude of each output's terms (relaxed builds' tolerance). */
  float *mag = abs_floats(c, g.m * c_rs);
  for (size_t i = 0; i < g.m; i++)
    for (size_t j = 0; j < g.n; j++) {
      float acc = 0.0f, m = 0.0f;
      for (size_t p = 0; p < g.k; p++) {
        acc += a[i * a_rs + p * a_cs] * b[p * b_rs + j * b_cs];
        m += fabsf(a[i * a_rs + p * a_cs] * b[p * b_rs + j * b_cs]);
      }
      float r = g.alpha * acc + (bias ? bias[i] : 0.0f);
      mag[i * c_rs + j] = fabsf(g.alpha) * m + (bias ? fabsf(bias[i]) : 0.0f) +
                          fabsf(g.beta) * fabsf(want[i * c_rs + j]);
      if (g.beta != 0.0f) r += g.beta * want[i * c_rs + j];
      r = r < g.min ? g.min : r;
      want[i * c_rs + j] = r > g.max ? g.max : r;
    }
  const wnn_f32_gemm_params params = {g.alpha, g.beta, g.min, g.max};
  if (v->tile_fn)
    v->tile_fn(g.m, g.n, g.k, a, a_rs, a_cs, b, b_rs, b_cs, bias, c, c_rs, &params);
  else
    wnn_f32_gemm(&v->config, g.m, g.n, g.k, a, a_rs, a_cs, b, b_rs, b_cs, bias, c, c_rs, &params);
  /* Also checks that the padding of each C row was left alone. */
  int ok = WNN_TEST_RELAXED ? relaxed_close(c, want, mag, g.m * c_rs, g.k + 3)
                            : test_allclose(c, want, g.m * c_rs, 1e-6f, 1e-6f);
  if (!ok)
    printf("  %s: m=%zu n=%zu k=%zu tA=%d tB=%d\n", v->name, g.m, g.n, g.k, g.trans_a, g.trans_b);
  free(a), free(b), free(bias), free(c), free(want), free(mag);
  return ok;
}

static gemm_case plain(size_t m, size_t n, size_t k) {
  gemm_case g = {m, n, k, false, false, false, 0, 1.0f, 0.0f, -INFINITY, INFINITY};
  return g;
}

/* Whether a variant takes case g: a panel at most its height, B in its layout. */
static bool takes(const variant *v, gemm_case g) {
  if (!v->tile_fn) return true;
  if (g.m < 1 || g.n < 1 || g.m > v->mr) return false;
  if (v->layout == WNN_GEMM_B_ROWS) return !g.trans_b;
  if (v->layout == WNN_GEMM_B_COLS) return g.trans_b;
  return true;
}

TEST(every_panel) {
  /* C is the panel plus 5 columns of padding, checked to stay untouched. */
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    if (!VARIANTS[v].tile_fn) continue;
    int ok = 1;
    for (int t = 0; t < 4 && ok; t++)
      for (size_t mr = 1; mr <= VARIANTS[v].mr && ok; mr++)
        for (size_t nc = 1; nc <= 2 * VARIANTS[v].nr + 3 && ok; nc++)
          for (size_t k = 0; k <= 17 && ok; k += k < 3 ? 1 : 7) {
            gemm_case g = plain(mr, nc, k);
            g.trans_a = t & 1, g.trans_b = (t >> 1) & 1, g.c_pad = 5;
            if (!takes(&VARIANTS[v], g)) continue;
            ok = check_case(&VARIANTS[v], g);
            g.bias = true, g.alpha = -0.5f, g.beta = 1.5f, g.min = -0.25f, g.max = 0.5f;
            if (ok) ok = check_case(&VARIANTS[v], g);
          }
    CHECK(ok);
  }
}

TEST(driver_sizes) {
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    if (VARIANTS[v].tile_fn) continue;
    const size_t mr = VARIANTS[v].mr, nr = VARIANTS[v].nr;
    CHECK(check_case(&VARIANTS[v], plain(mr, nr, 7)));                /* exactly one tile */
    CHECK(check_case(&VARIANTS[v], plain(mr - 1, nr - 1, 5)));        /* less than a tile */
    CHECK(check_case(&VARIANTS[v], plain(5 * mr, 9 * nr, 33)));       /* many tiles, >1 column block */
    CHECK(check_case(&VARIANTS[v], plain(3 * mr + 1, 5 * nr + 3, 17))); /* ragged tails */
    CHECK(check_case(&VARIANTS[v], plain(1, 1, 1)));
    CHECK(check_case(&VARIANTS[v], plain(mr, nr, 1)));
    CHECK(check_case(&VARIANTS[v], plain(mr + 2, nr + 1, 0)));        /* k = 0 */
    CHECK(check_case(&VARIANTS[v], plain(0, 5, 3)));                  /* empty */
    CHECK(check_case(&VARIANTS[v], plain(1, 300, 64)));               /* a matrix-vector shape */
    CHECK(check_case(&VARIANTS[v], plain(64, 3, 200)));
    /* Column blocks (src/ops/gemm_driver.c): 208 columns at k = 20, then a
     * ragged block; 32 at k = 600. */
    CHECK(check_case(&VARIANTS[v], plain(9, 300, 20)));
    CHECK(check_case(&VARIANTS[v], plain(6, 70, 600)));
  }
}

TEST(driver_strides_and_epilogue) {
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    if (VARIANTS[v].tile_fn) continue;
    for (int t = 0; t < 4; t++) {
      gemm_case g = plain(4 * VARIANTS[v].mr + 3, 6 * VARIANTS[v].nr + 1, 19);
      g.trans_a = t & 1, g.trans_b = (t >> 1) & 1;
      CHECK(check_case(&VARIANTS[v], g));
      g.bias = true, g.c_pad = 5;
      CHECK(check_case(&VARIANTS[v], g));
      g.alpha = -0.5f, g.beta = 1.5f;
      CHECK(check_case(&VARIANTS[v], g));
      g.min = -0.25f, g.max = 0.5f;
      CHECK(check_case(&VARIANTS[v], g));
    }
  }
}

TEST(beta_zero_ignores_nan) {
  /* With beta == 0, C's old contents are not read: NaN there must not leak. */
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1}, c[4];
    for (int i = 0; i < 4; i++) c[i] = NAN;
    const wnn_f32_gemm_params p = {1.0f, 0.0f, -INFINITY, INFINITY};
    const variant *x = &VARIANTS[v];
    if (!x->tile_fn)
      wnn_f32_gemm(&x->config, 2, 2, 3, a, 3, 1, b, 2, 1, NULL, c, 2, &p);
    else if (x->mr >= 2 && x->layout != WNN_GEMM_B_COLS)
      x->tile_fn(2, 2, 3, a, 3, 1, b, 2, 1, NULL, c, 2, &p);
    else
      continue;
    const float want[4] = {4, 5, 10, 11};
    CHECK(test_allclose(c, want, 4, 0, 0));
  }
}

/* A single row over 64 or more columns (the 1x16 kernel streams B row by row
 * there, its sums in C): bitwise the scalar kernel's results, for ragged
 * widths, k not a multiple of 4, and each epilogue; with beta != 0 it keeps
 * its tiles. The driver's wide single-row blocks too. */
TEST(row_streaming_is_bitwise_the_scalar_kernel) {
  wnn_f32_gemm_ukernel *scalar = NULL, *row = NULL;
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    if (VARIANTS[v].tile_fn && VARIANTS[v].mr == 4 && VARIANTS[v].layout == WNN_GEMM_B_ANY &&
        !strcmp(VARIANTS[v].name, "wnn_f32_gemm_bs_4x4__scalar"))
      scalar = VARIANTS[v].tile_fn;
    if (VARIANTS[v].tile_fn && VARIANTS[v].mr == 1 && VARIANTS[v].layout == WNN_GEMM_B_ROWS)
      row = VARIANTS[v].tile_fn;
  }
  if (!scalar || !row) {
    printf("  (no single-row SIMD128 kernel in this build: skipped)\n");
    return;
  }
  static const size_t widths[] = {64, 65, 67, 70, 100, 131, 256};
  static const size_t ks[] = {0, 1, 3, 4, 5, 17, 64};
  static const wnn_f32_gemm_params eps[] = {
      {1.0f, 0.0f, -INFINITY, INFINITY}, {-0.5f, 0.0f, -0.25f, 0.5f}, {2.0f, 1.5f, -INFINITY, INFINITY}};
  int ok = 1;
  for (size_t w = 0; w < sizeof widths / sizeof *widths && ok; w++)
    for (size_t q = 0; q < sizeof ks / sizeof *ks && ok; q++)
      for (size_t e = 0; e < sizeof eps / sizeof *eps && ok; e++) {
        const size_t n = widths[w], k = ks[q], ld = n + 3;
        float *a = rand_floats(k + 1), *b = rand_floats(k * ld + 1), *c0 = rand_floats(n + 1);
        float *c1 = malloc((n + 1) * sizeof(float));
        const float bias = 0.375f;
        memcpy(c1, c0, (n + 1) * sizeof(float));
        float *mag = abs_floats(c0, n + 1);
        scalar(1, n, k, a, k, 1, b, ld, 1, &bias, c0, n, &eps[e]);
        row(1, n, k, a, k, 1, b, ld, 1, &bias, c1, n, &eps[e]);
        ok = memcmp(c0, c1, (n + 1) * sizeof(float)) == 0;
        if (!ok && WNN_TEST_RELAXED) {
          float *aa = abs_floats(a, k + 1), *ab = abs_floats(b, k * ld + 1);
          const wnn_f32_gemm_params pm = {fabsf(eps[e].alpha), fabsf(eps[e].beta), -INFINITY,
                                          INFINITY};
          scalar(1, n, k, aa, k, 1, ab, ld, 1, &bias, mag, n, &pm);
          ok = relaxed_close(c1, c0, mag, n + 1, k + 3);
          free(aa), free(ab);
        }
        free(mag);
        if (!ok) printf("  n=%zu k=%zu epilogue %zu differs from the scalar kernel\n", n, k, e);
        free(a), free(b), free(c0), free(c1);
      }
  CHECK(ok);
  CHECK(check_case(&VARIANTS[NUM_VARIANTS - 1], plain(1, 1000, 37)));
  gemm_case g = plain(1, 700, 22);
  g.bias = true, g.alpha = -0.5f, g.min = -0.25f, g.max = 0.5f, g.c_pad = 3;
  CHECK(check_case(&VARIANTS[NUM_VARIANTS - 1], g));
}

/* Packed B (wnn_f32_gemm_pack): the column blocks copied contiguous into the
 * scratch give the very bits of the unpacked driver, on shapes that pack
 * (ragged last blocks, m not a multiple of the tile, wide rows from 16 rows
 * up) with every epilogue and a padded C; shapes that do not pack ask for no
 * scratch. The pack size is exact: the scratch is allocated at that size
 * (AddressSanitizer builds catch a write past it). */
TEST(packed_b_is_bitwise_unpacked) {
  static const size_t shapes[][3] = {
      {64, 300, 20}, {67, 70, 600}, {16, 1030, 9}, {130, 129, 64}, {65, 33, 256}, {100, 4100, 1}};
  static const wnn_f32_gemm_params eps[] = {{1.0f, 0.0f, -INFINITY, INFINITY},
                                            {-0.5f, 1.5f, -0.25f, 0.5f}};
  for (size_t v = NUM_VARIANTS - 2; v < NUM_VARIANTS; v++) {
    const wnn_f32_gemm_config *g = &VARIANTS[v].config;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
      for (size_t e = 0; e < 2; e++) {
        const size_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        const size_t ld = n + 3, c_rs = n + 5;
        const size_t bytes = wnn_f32_gemm_pack_bytes(m, n, k);
        CHECK(bytes == n * k * sizeof(float));
        float *a = rand_floats(m * k + 1), *b = rand_floats(k * ld + 1), *bias = rand_floats(m);
        float *c0 = rand_floats(m * c_rs), *c1 = malloc(m * c_rs * sizeof(float));
        float *pack = malloc(bytes);
        memcpy(c1, c0, m * c_rs * sizeof(float));
        wnn_f32_gemm(g, m, n, k, a, k, 1, b, ld, 1, bias, c0, c_rs, &eps[e]);
        wnn_f32_gemm_pack(g, m, n, k, a, k, 1, b, ld, 1, bias, c1, c_rs, &eps[e], pack);
        const int same = memcmp(c0, c1, m * c_rs * sizeof(float)) == 0;
        if (!same) printf("  %s: m=%zu n=%zu k=%zu epilogue %zu\n", VARIANTS[v].name, m, n, k, e);
        CHECK(same);
        free(a), free(b), free(bias), free(c0), free(c1), free(pack);
      }
    /* Too few rows, or a row of B within one column block: no packing. */
    CHECK(wnn_f32_gemm_pack_bytes(63, 300, 20) == 0);
    CHECK(wnn_f32_gemm_pack_bytes(15, 2048, 64) == 0);
    CHECK(wnn_f32_gemm_pack_bytes(128, 32, 600) == 0);
    CHECK(wnn_f32_gemm_pack_bytes(128, 100, 0) == 0);
  }
}

int main(void) {
  VARIANTS[NUM_VARIANTS - 2].config = wnn_select_f32_gemm(WNN_KERNELS_SCALAR);
  VARIANTS[NUM_VARIANTS - 1].config = wnn_select_f32_gemm(WNN_KERNELS_AUTO);
  RUN(every_panel);
  RUN(driver_sizes);
  RUN(driver_strides_and_epilogue);
  RUN(beta_zero_ignores_nan);
  RUN(row_streaming_is_bitwise_the_scalar_kernel);
  RUN(packed_b_is_bitwise_unpacked);
  return test_summary();
}
