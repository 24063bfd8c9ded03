/* Every SIMD128 GEMM variant vs the scalar GEMM, BITWISE: both sum each
 * output from 0 over k in increasing order with one multiply and one add per
 * step (no FMA) and finish with the same epilogue, so the results must be the
 * same bits (memcmp, NaN payloads included). Sizes: exactly one tile, less
 * than a tile, many tiles, ragged tails in m, n and k (every m 1..13 with
 * n 1..41 and k 0..9), M = 1 (the fully connected path), the four
 * transpositions, a general column stride of B, padded rows of C, bias,
 * alpha, beta and clamping. In a build without SIMD128 there is nothing to
 * compare, and the test says so. */
#include <math.h>
#include <string.h>

#include "kernel_util.h"

typedef struct variant {
  const char *name;
  wnn_f32_gemm_ukernel *fn;
  size_t mr, nr;
  int simd;
} variant;

#define ISA_SCALAR 0
#define ISA_WASMSIMD 1
static const variant VARIANTS[] = {
#define WNN_F32_GEMM(name, isa, mr, nr) WNN_IF_ISA(isa, {#name, name, mr, nr, ISA_##isa},)
#include "kernels/kernels.inc"
};
#define NUM_VARIANTS (sizeof VARIANTS / sizeof VARIANTS[0])

typedef struct gemm_case {
  size_t m, n, k;
  int layout; /* 0 plain, 1 A^T, 2 B^T, 3 both, 4 B with column stride 2 */
  bool bias;
  size_t c_pad;
  float alpha, beta, min, max;
} gemm_case;

static int same_bits(const variant *v, gemm_case g) {
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
  wnn_f32_gemm_4x4__scalar(g.m, g.n, g.k, a, a_rs, a_cs, b, b_rs, b_cs, bias, want, c_rs, &p);
  v->fn(g.m, g.n, g.k, a, a_rs, a_cs, b, b_rs, b_cs, bias, c, c_rs, &p);
  const int ok = c_size == 0 || memcmp(c, want, c_size * sizeof(float)) == 0;
  if (!ok) {
    size_t i = 0;
    while (memcmp(&c[i], &want[i], sizeof(float)) == 0) i++;
    printf("  %s: m=%zu n=%zu k=%zu layout=%d: element %zu is %.9g, scalar %.9g\n", v->name,
           g.m, g.n, g.k, g.layout, i, c[i], want[i]);
  }
  free(a), free(b), free(bias), free(c), free(want);
  return ok;
}

static gemm_case plain(size_t m, size_t n, size_t k, int layout) {
  gemm_case g = {m, n, k, layout, false, 0, 1.0f, 0.0f, -INFINITY, INFINITY};
  return g;
}

static size_t simd_variants(void) {
  size_t count = 0;
  for (size_t v = 0; v < NUM_VARIANTS; v++) count += VARIANTS[v].simd;
  if (count == 0) printf("  skipped: this build has no SIMD128 GEMM (not a wasm SIMD build)\n");
  return count;
}

TEST(every_small_size) {
  if (!simd_variants()) return;
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    if (!VARIANTS[v].simd) continue;
    int ok = 1;
    for (int layout = 0; layout < 5 && ok; layout++)
      for (size_t m = 1; m <= 13 && ok; m++)
        for (size_t n = 1; n <= 41 && ok; n++)
          for (size_t k = 0; k <= 9 && ok; k++) ok = same_bits(&VARIANTS[v], plain(m, n, k, layout));
    CHECK(ok);
  }
}

TEST(tiles_and_big_shapes) {
  if (!simd_variants()) return;
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    if (!VARIANTS[v].simd) continue;
    const size_t mr = VARIANTS[v].mr, nr = VARIANTS[v].nr;
    for (int layout = 0; layout < 5; layout++) {
      CHECK(same_bits(&VARIANTS[v], plain(mr, nr, 7, layout)));           /* one tile */
      CHECK(same_bits(&VARIANTS[v], plain(mr - 1, nr - 1, 5, layout)));   /* less than a tile */
      CHECK(same_bits(&VARIANTS[v], plain(7 * mr, 11 * nr, 67, layout))); /* many tiles, blocks */
      CHECK(same_bits(&VARIANTS[v], plain(3 * mr + 1, 9 * nr + 5, 131, layout)));
      CHECK(same_bits(&VARIANTS[v], plain(1, 1000, 130, layout)));       /* fully connected */
      CHECK(same_bits(&VARIANTS[v], plain(1, 37, 259, layout)));
      CHECK(same_bits(&VARIANTS[v], plain(2, 77, 19, layout)));
      CHECK(same_bits(&VARIANTS[v], plain(64, 3, 200, layout)));
      CHECK(same_bits(&VARIANTS[v], plain(0, 5, 3, layout))); /* empty */
      CHECK(same_bits(&VARIANTS[v], plain(3, 0, 3, layout)));
    }
  }
}

TEST(epilogue) {
  if (!simd_variants()) return;
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    if (!VARIANTS[v].simd) continue;
    for (int layout = 0; layout < 5; layout++)
      for (size_t m = 1; m <= 9; m += 4) {
        gemm_case g = plain(m, 45, 23, layout);
        g.bias = true, g.c_pad = 5;
        CHECK(same_bits(&VARIANTS[v], g));
        g.alpha = -0.5f, g.beta = 1.5f;
        CHECK(same_bits(&VARIANTS[v], g));
        g.min = -0.25f, g.max = 0.5f;
        CHECK(same_bits(&VARIANTS[v], g));
        g.alpha = 0.0f, g.beta = -1.0f, g.min = 0.0f, g.max = INFINITY;
        CHECK(same_bits(&VARIANTS[v], g));
      }
  }
}

TEST(nan_and_infinity) {
  /* NaN and infinities in A and B propagate the same way, through the clamp. */
  if (!simd_variants()) return;
  for (size_t v = 0; v < NUM_VARIANTS; v++) {
    if (!VARIANTS[v].simd) continue;
    const size_t m = 6, n = 19, k = 11;
    float *a = rand_floats(m * k), *b = rand_floats(k * n);
    float got[6 * 19], want[6 * 19];
    a[3] = NAN, a[k + 2] = INFINITY, b[5] = -INFINITY, b[2 * n + 9] = NAN;
    const wnn_f32_gemm_params p = {1.0f, 0.0f, -1.0f, 1.0f};
    wnn_f32_gemm_4x4__scalar(m, n, k, a, k, 1, b, n, 1, NULL, want, n, &p);
    VARIANTS[v].fn(m, n, k, a, k, 1, b, n, 1, NULL, got, n, &p);
    CHECK(memcmp(got, want, sizeof got) == 0);
    free(a), free(b);
  }
}

int main(void) {
  RUN(every_small_size);
  RUN(tiles_and_big_shapes);
  RUN(epilogue);
  RUN(nan_and_infinity);
  return test_summary();
}
