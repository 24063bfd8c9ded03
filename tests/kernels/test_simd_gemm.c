/* The SIMD128 GEMM against the scalar one, BITWISE: both sum each output from
 * 0 over k in increasing order with one multiply and one add per step (no
 * FMA) and finish with the same epilogue, so the results must be the same
 * bits (memcmp, NaN payloads included).
 *   - every SIMD128 variant against the scalar one, on every panel height it
 *     accepts (mr 1..MR) with nc 1..2 NR + 3 (whole tiles and a ragged one),
 *     k 0..9, in every layout of B it reads;
 *   - the whole-matrix driver (src/ops/gemm_driver.c) with the SIMD128 tiles
 *     against it with the scalar ones: exactly one tile, less than a tile,
 *     many tiles, ragged tails in m, n and k (every m 1..13 with n 1..41 and
 *     k 0..9), M = 1 (the fully connected path), the four transpositions, a
 *     general column stride of B, padded rows of C, bias, alpha, beta and
 *     clamping, NaN and infinities.
 * In a build without SIMD128 there is nothing to compare, and the test says
 * so. Built with relaxed SIMD (the wasi-relaxed preset), the SIMD128 tiles
 * fuse their multiply-adds, and "bitwise" becomes "within that rounding"
 * (kernel_util.h, relaxed_close). */
#include <math.h>
#include <string.h>

#include "kernel_util.h"
#include "ops/op_internal.h"

typedef struct variant {
  const char *name;
  wnn_f32_gemm_ukernel *fn;
  size_t mr, nr;
  int layout;
} variant;

static const variant SIMD_TILES[] = {
#define WNN_F32_GEMM(name, isa, mr, nr, layout) \
  WNN_IF_ISA(isa, WNN_IF_WASMSIMD_ROW_##isa({#name, name, mr, nr, WNN_GEMM_B_##layout}))
#define WNN_IF_WASMSIMD_ROW_SCALAR(...)
#define WNN_IF_WASMSIMD_ROW_WASMSIMD(...) __VA_ARGS__,
#include "kernels/kernels.inc"
    {NULL, NULL, 0, 0, 0}};

/* A GEMM call: a tile variant (tile != NULL) or the driver with a config. */
typedef struct gemm_fn {
  const variant *tile;
  const wnn_f32_gemm_config *config;
} gemm_fn;

typedef struct gemm_case {
  size_t m, n, k;
  int layout; /* 0 plain, 1 A^T, 2 B^T, 3 both, 4 B with column stride 2 */
  bool bias;
  size_t c_pad;
  float alpha, beta, min, max;
} gemm_case;

/* Which case layouts a tile variant reads. */
static bool reads(int b_layout, int layout) {
  if (b_layout == WNN_GEMM_B_ROWS) return layout == 0 || layout == 1;
  if (b_layout == WNN_GEMM_B_COLS) return layout == 2 || layout == 3;
  return true;
}

static void call(gemm_fn f, gemm_case g, const float *a, size_t a_rs, size_t a_cs,
                 const float *b, size_t b_rs, size_t b_cs, const float *bias, float *c,
                 size_t c_rs, const wnn_f32_gemm_params *p) {
  if (f.tile)
    f.tile->fn(g.m, g.n, g.k, a, a_rs, a_cs, b, b_rs, b_cs, bias, c, c_rs, p);
  else
    wnn_f32_gemm(f.config, g.m, g.n, g.k, a, a_rs, a_cs, b, b_rs, b_cs, bias, c, c_rs, p);
}

static int same_bits(gemm_fn got_fn, gemm_fn want_fn, gemm_case g) {
  const bool ta = g.layout == 1 || g.layout == 3, tb = g.layout == 2 || g.layout == 3;
  const size_t a_ld = (ta ? g.m : g.k) + 3, a_rows = ta ? g.k : g.m;
  size_t b_rs, b_cs, b_size;
  if (g.layout == 4) {
    b_cs = 2, b_rs = 2 * g.n + 1, b_size = g.k * b_rs + 1;
  } else {
    const size_t b_ld = (tb ? g.k : g.n) + 3, b_rows = tb ? g.n : g.k;
    b_rs = tb ? 1 : b_ld, b_cs = tb ? b_ld : 1, b_size = b_rows * b_ld;
  }
  float *a = rand_floats(a_rows * a_ld), *b = rand_floats(b_size);
  float *bias = g.bias ? rand_floats(g.m) : NULL;
  const size_t c_rs = g.n + g.c_pad, c_size = g.m * c_rs;
  float *c = rand_floats(c_size), *want = malloc((c_size + 1) * sizeof(float));
  memcpy(want, c, c_size * sizeof(float));
  const size_t a_rs = ta ? 1 : a_ld, a_cs = ta ? a_ld : 1;
  const wnn_f32_gemm_params p = {g.alpha, g.beta, g.min, g.max};
  float *mag = WNN_TEST_RELAXED ? abs_floats(c, c_size) : NULL;
  call(want_fn, g, a, a_rs, a_cs, b, b_rs, b_cs, bias, want, c_rs, &p);
  call(got_fn, g, a, a_rs, a_cs, b, b_rs, b_cs, bias, c, c_rs, &p);
  int ok = c_size == 0 || memcmp(c, want, c_size * sizeof(float)) == 0;
  if (!ok && WNN_TEST_RELAXED) {
    /* The scalar computation on |A|, |B|, |bias|, |C| with |alpha|, |beta|
     * and no clamp bounds the magnitude of each sum's terms. */
    float *aa = abs_floats(a, a_rows * a_ld), *ab = abs_floats(b, b_size);
    float *abias = g.bias ? abs_floats(bias, g.m) : NULL;
    const wnn_f32_gemm_params pm = {fabsf(g.alpha), fabsf(g.beta), -INFINITY, INFINITY};
    call(want_fn, g, aa, a_rs, a_cs, ab, b_rs, b_cs, abias, mag, c_rs, &pm);
    ok = relaxed_close(c, want, mag, c_size, g.k + 3);
    free(aa), free(ab), free(abias);
  }
  free(mag);
  if (!ok) {
    size_t i = 0;
    while (i + 1 < c_size && memcmp(&c[i], &want[i], sizeof(float)) == 0) i++;
    printf("  %s: m=%zu n=%zu k=%zu layout=%d: element %zu is %.9g, scalar %.9g\n",
           got_fn.tile ? got_fn.tile->name : "driver", g.m, g.n, g.k, g.layout, i, c[i], want[i]);
  }
  free(a), free(b), free(bias), free(c), free(want);
  return ok;
}

static gemm_case plain(size_t m, size_t n, size_t k, int layout) {
  gemm_case g = {m, n, k, layout, false, 0, 1.0f, 0.0f, -INFINITY, INFINITY};
  return g;
}

static const variant SCALAR_TILE = {"wnn_f32_gemm_bs_4x4__scalar", wnn_f32_gemm_bs_4x4__scalar, 4,
                                    4, WNN_GEMM_B_ANY};
static wnn_f32_gemm_config simd_config, scalar_config;
static const gemm_fn SIMD_DRIVER = {NULL, &simd_config}, SCALAR_DRIVER = {NULL, &scalar_config};

static bool have_simd(void) {
  if (!SIMD_TILES[0].fn)
    printf("  skipped: this build has no SIMD128 GEMM (not a wasm SIMD build)\n");
  return SIMD_TILES[0].fn != NULL;
}

TEST(every_tile_size) {
  /* The scalar kernel takes at most 4 rows: a taller SIMD panel is compared
   * with the scalar driver over the same mr x nc. */
  if (!have_simd()) return;
  for (const variant *t = SIMD_TILES; t->fn; t++) {
    int ok = 1;
    for (int layout = 0; layout < 5 && ok; layout++) {
      if (!reads(t->layout, layout)) continue;
      for (size_t mr = 1; mr <= t->mr && ok; mr++)
        for (size_t nc = 1; nc <= 2 * t->nr + 3 && ok; nc++)
          for (size_t k = 0; k <= 9 && ok; k++) {
            gemm_case g = plain(mr, nc, k, layout);
            ok = same_bits((gemm_fn){t, NULL}, SCALAR_DRIVER, g);
            if (ok && mr <= 4)
              ok = same_bits((gemm_fn){t, NULL}, (gemm_fn){&SCALAR_TILE, NULL}, g);
            g.bias = true, g.c_pad = 3, g.alpha = -0.5f, g.beta = 1.5f;
            g.min = -0.25f, g.max = 0.5f;
            if (ok) ok = same_bits((gemm_fn){t, NULL}, SCALAR_DRIVER, g);
          }
    }
    if (!ok) printf("  %s\n", t->name);
    CHECK(ok);
    /* A long k, as in the models. */
    for (int layout = 0; layout < 5; layout++)
      if (reads(t->layout, layout))
        CHECK(same_bits((gemm_fn){t, NULL}, SCALAR_DRIVER, plain(t->mr, 3 * t->nr, 301, layout)));
  }
}

TEST(driver_every_small_size) {
  if (!have_simd()) return;
  int ok = 1;
  for (int layout = 0; layout < 5 && ok; layout++)
    for (size_t m = 1; m <= 13 && ok; m++)
      for (size_t n = 1; n <= 41 && ok; n++)
        for (size_t k = 0; k <= 9 && ok; k++)
          ok = same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(m, n, k, layout));
  CHECK(ok);
}

TEST(driver_big_shapes) {
  if (!have_simd()) return;
  for (int layout = 0; layout < 5; layout++) {
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(4, 8, 7, layout)));   /* one tile */
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(3, 7, 5, layout)));   /* less than one */
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(28, 88, 67, layout))); /* column blocks */
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(13, 77, 131, layout)));
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(1, 1000, 130, layout))); /* fully connected */
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(1, 37, 259, layout)));
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(2, 77, 19, layout)));
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(64, 3, 200, layout)));
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(0, 5, 3, layout))); /* empty */
    CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, plain(3, 0, 3, layout)));
  }
}

TEST(driver_epilogue) {
  if (!have_simd()) return;
  for (int layout = 0; layout < 5; layout++)
    for (size_t m = 1; m <= 9; m += 4) {
      gemm_case g = plain(m, 45, 23, layout);
      g.bias = true, g.c_pad = 5;
      CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, g));
      g.alpha = -0.5f, g.beta = 1.5f;
      CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, g));
      g.min = -0.25f, g.max = 0.5f;
      CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, g));
      g.alpha = 0.0f, g.beta = -1.0f, g.min = 0.0f, g.max = INFINITY;
      CHECK(same_bits(SIMD_DRIVER, SCALAR_DRIVER, g));
    }
}

TEST(nan_and_infinity) {
  /* NaN and infinities in A and B propagate the same way, through the clamp. */
  if (!have_simd()) return;
  const size_t m = 6, n = 19, k = 11;
  float *a = rand_floats(m * k), *b = rand_floats(k * n);
  float got[6 * 19], want[6 * 19];
  a[3] = NAN, a[k + 2] = INFINITY, b[5] = -INFINITY, b[2 * n + 9] = NAN;
  const wnn_f32_gemm_params p = {1.0f, 0.0f, -1.0f, 1.0f};
  wnn_f32_gemm(&scalar_config, m, n, k, a, k, 1, b, n, 1, NULL, want, n, &p);
  wnn_f32_gemm(&simd_config, m, n, k, a, k, 1, b, n, 1, NULL, got, n, &p);
  if (WNN_TEST_RELAXED) {
    float *aa = abs_floats(a, m * k), *ab = abs_floats(b, k * n), mag[6 * 19];
    const wnn_f32_gemm_params pm = {1.0f, 0.0f, -INFINITY, INFINITY};
    wnn_f32_gemm(&scalar_config, m, n, k, aa, k, 1, ab, n, 1, NULL, mag, n, &pm);
    CHECK(relaxed_close(got, want, mag, m * n, k + 3));
    free(aa), free(ab);
  } else {
    CHECK(memcmp(got, want, sizeof got) == 0);
  }
  free(a), free(b);
}

int main(void) {
  simd_config = wnn_select_f32_gemm(WNN_KERNELS_AUTO);
  scalar_config = wnn_select_f32_gemm(WNN_KERNELS_SCALAR);
  RUN(every_tile_size);
  RUN(driver_every_small_size);
  RUN(driver_big_shapes);
  RUN(driver_epilogue);
  RUN(nan_and_infinity);
  return test_summary();
}
