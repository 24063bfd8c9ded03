/* SIMD128 element-wise kernels vs their scalar rows of kernels.inc.
 *   vbinary (add, sub, mul, div; VV, VC, RVC), clamp, relu: BITWISE the same
 *     as the scalar kernel (one IEEE operation, or the same comparisons, per
 *     element), on every size 0..40 and 1027 (below, at and past the 4- and
 *     8-element steps, ragged tails), out of place, in place (y == a, and
 *     y == b for VV) and at an offset of 1 element (unaligned), with NaN,
 *     infinities, signed zeros and zero divisors among the inputs.
 *   sigmoid: an exp polynomial, so not bitwise; its error against
 *     1 / (1 + exp(-x)) in double is measured over a dense sweep (every 97th
 *     float bit pattern in [-104, 104], about 23 million inputs) and must be at
 *     most 2.5 ulp where the result is a normal float (measured: 2.30 ulp) and
 *     at most one subnormal step (2^-149) below that; the values are printed.
 *   relu: bitwise except for the sign of a zero and the bits of a NaN (see
 *     same_unary).
 * In a build without SIMD128 there is nothing to compare, and the test says so. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernel_util.h"

#define ISA_SCALAR 0
#define ISA_WASMSIMD 1
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_RELU, OP_CLAMP, OP_SIGMOID };
enum { KIND_VV, KIND_VC, KIND_RVC };

typedef struct binrow {
  const char *name;
  wnn_f32_vbinary_ukernel *fn;
  int isa, op, kind;
} binrow;
static const binrow BIN[] = {
#define WNN_F32_VBINARY(name, isa, op, kind) \
  WNN_IF_ISA(isa, {#name, name, ISA_##isa, OP_##op, KIND_##kind},)
#include "kernels/kernels.inc"
};

typedef struct unrow {
  const char *name;
  wnn_f32_vunary_ukernel *fn;
  int isa, op;
} unrow;
static const unrow UN[] = {
#define WNN_F32_VUNARY(name, isa, op) WNN_IF_ISA(isa, {#name, name, ISA_##isa, OP_##op},)
#include "kernels/kernels.inc"
};

#define COUNT(t) (sizeof t / sizeof t[0])

static size_t simd_rows(int isa_of_row0, size_t count, size_t stride, const void *rows) {
  size_t k = 0;
  for (size_t i = 0; i < count; i++)
    k += *(const int *)((const char *)rows + i * stride + isa_of_row0) == ISA_WASMSIMD;
  if (k == 0) printf("  skipped: this build has no SIMD128 kernels (not a wasm SIMD build)\n");
  return k;
}

/* Random values with specials sprinkled in. */
static void fill(float *p, size_t n, float scale) {
  static const float specials[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-40f, -3.5f};
  for (size_t i = 0; i < n; i++) p[i] = lcg_float() * scale;
  for (size_t i = 0; i < n; i += 5) p[i] = specials[(i / 5) % 7];
}

static const size_t BIG = 1027;

static int check_binary(const binrow *simd, const binrow *scalar) {
  int ok = 1;
  for (size_t n = 0; n <= BIG && ok; n = n < 40 ? n + 1 : BIG + 1) {
    for (size_t off = 0; off < 2 && ok; off++) {
      float *a = malloc((n + 2) * sizeof(float)), *b = malloc((n + 2) * sizeof(float));
      float *y = malloc((n + 2) * sizeof(float)), *want = malloc((n + 2) * sizeof(float));
      fill(a, n + 2, 8.0f), fill(b, n + 2, 8.0f);
      float *ao = a + off, *bo = b + off, *yo = y + off;
      scalar->fn(n, ao, bo, want);
      simd->fn(n, ao, bo, yo);
      ok = n == 0 || memcmp(yo, want, n * sizeof(float)) == 0;
      /* In place: y == a, and for VV also y == b. */
      float *save = malloc((n + 2) * sizeof(float));
      memcpy(save, a, (n + 2) * sizeof(float));
      simd->fn(n, ao, bo, ao);
      ok = ok && (n == 0 || memcmp(ao, want, n * sizeof(float)) == 0);
      memcpy(a, save, (n + 2) * sizeof(float));
      if (simd->kind == KIND_VV) {
        simd->fn(n, ao, bo, bo);
        ok = ok && (n == 0 || memcmp(bo, want, n * sizeof(float)) == 0);
      }
      if (!ok) printf("  %s vs %s: n=%zu offset=%zu\n", simd->name, scalar->name, n, off);
      free(a), free(b), free(y), free(want), free(save);
    }
  }
  return ok;
}

TEST(vbinary_bitwise) {
  if (!simd_rows(offsetof(binrow, isa), COUNT(BIN), sizeof(binrow), BIN)) return;
  for (size_t s = 0; s < COUNT(BIN); s++) {
    if (BIN[s].isa != ISA_WASMSIMD) continue;
    const binrow *scalar = NULL;
    for (size_t r = 0; r < COUNT(BIN); r++)
      if (BIN[r].isa == ISA_SCALAR && BIN[r].op == BIN[s].op && BIN[r].kind == BIN[s].kind)
        scalar = &BIN[r];
    CHECK(scalar != NULL);
    if (scalar) CHECK(check_binary(&BIN[s], scalar));
  }
}

/* Bitwise, except that relu may differ in the sign of a zero and in the bits
 * of a NaN: clang 14 compiles the scalar kernel's `v < 0 ? 0 : v` for wasm
 * into f32.max, which gives +0 for -0 and a NaN of any sign, while the SIMD
 * kernel (pmax, a compare and select) and the native scalar build give -0 and
 * the input NaN. */
static int same_unary(int op, const float *got, const float *want, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (memcmp(&got[i], &want[i], sizeof(float)) == 0) continue;
    if (op == OP_RELU && got[i] == 0.0f && want[i] == 0.0f) continue;
    if (op == OP_RELU && isnan(got[i]) && isnan(want[i])) continue;
    printf("  element %zu: got %.9g, scalar %.9g\n", i, got[i], want[i]);
    return 0;
  }
  return 1;
}

static int check_unary(const unrow *simd, const unrow *scalar) {
  const wnn_f32_unary_params ps[] = {{-0.5f, 0.75f}, {0.0f, 6.0f}, {-INFINITY, INFINITY}};
  int ok = 1;
  for (size_t n = 0; n <= BIG && ok; n = n < 40 ? n + 1 : BIG + 1)
    for (size_t off = 0; off < 2 && ok; off++)
      for (size_t q = 0; q < 3 && ok; q++) {
        float *x = malloc((n + 2) * sizeof(float)), *y = malloc((n + 2) * sizeof(float));
        float *want = malloc((n + 2) * sizeof(float));
        fill(x, n + 2, 4.0f);
        scalar->fn(n, x + off, want, &ps[q]);
        simd->fn(n, x + off, y + off, &ps[q]);
        ok = same_unary(simd->op, y + off, want, n);
        simd->fn(n, x + off, x + off, &ps[q]); /* in place */
        ok = ok && same_unary(simd->op, x + off, want, n);
        if (!ok) printf("  %s vs %s: n=%zu offset=%zu\n", simd->name, scalar->name, n, off);
        free(x), free(y), free(want);
      }
  return ok;
}

TEST(relu_clamp_bitwise) {
  if (!simd_rows(offsetof(unrow, isa), COUNT(UN), sizeof(unrow), UN)) return;
  for (size_t s = 0; s < COUNT(UN); s++) {
    if (UN[s].isa != ISA_WASMSIMD || UN[s].op == OP_SIGMOID) continue;
    const unrow *scalar = NULL;
    for (size_t r = 0; r < COUNT(UN); r++)
      if (UN[r].isa == ISA_SCALAR && UN[r].op == UN[s].op) scalar = &UN[r];
    CHECK(scalar != NULL);
    if (scalar) CHECK(check_unary(&UN[s], scalar));
  }
}

static double sigmoid_ref(float x) { return 1.0 / (1.0 + exp(-(double)x)); }

/* |got - want| in units of the float spacing at want (normal results). */
static double ulps(float got, double want) {
  int e;
  frexp(want, &e); /* want = f * 2^e, 0.5 <= f < 1: spacing 2^(e - 24) */
  return fabs((double)got - want) / ldexp(1.0, e - 24);
}

TEST(sigmoid_error_sweep) {
  if (!simd_rows(offsetof(unrow, isa), COUNT(UN), sizeof(unrow), UN)) return;
  enum { CHUNK = 4096 };
  static float xs[CHUNK], ys[CHUNK];
  for (size_t s = 0; s < COUNT(UN); s++) {
    if (UN[s].isa != ISA_WASMSIMD || UN[s].op != OP_SIGMOID) continue;
    double max_ulp = 0, max_sub = 0, worst_x = 0;
    int bad_special = 0;
    /* Bit patterns of +0 .. 104.0f, each with both signs. */
    uint32_t top;
    const float lim = 104.0f;
    memcpy(&top, &lim, sizeof top);
    size_t filled_n = 0;
    for (uint64_t bits = 0; bits <= top + (uint64_t)CHUNK * 97; bits += 97) {
      const bool last = bits > top;
      if (!last) {
        float x;
        const uint32_t b32 = (uint32_t)bits;
        memcpy(&x, &b32, sizeof x);
        xs[filled_n++] = x;
        xs[filled_n++] = -x;
      }
      if (filled_n + 2 > CHUNK || (last && filled_n)) {
        UN[s].fn(filled_n, xs, ys, NULL);
        for (size_t i = 0; i < filled_n; i++) {
          const double want = sigmoid_ref(xs[i]);
          if (want >= FLT_MIN) {
            const double u = ulps(ys[i], want);
            if (u > max_ulp) max_ulp = u, worst_x = xs[i];
          } else {
            const double d = fabs((double)ys[i] - want);
            if (d > max_sub) max_sub = d;
          }
        }
        filled_n = 0;
      }
      if (last) break;
    }
    const float sp[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 200.0f, -200.0f, 1e-30f};
    const float sp_want[] = {NAN, 1.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.0f, 0.5f};
    float sy[8];
    UN[s].fn(8, sp, sy, NULL);
    for (int i = 0; i < 8; i++)
      if (isnan(sp_want[i]) ? !isnan(sy[i]) : sy[i] != sp_want[i]) {
        printf("  %s(%g) = %.9g, want %g\n", UN[s].name, sp[i], sy[i], sp_want[i]);
        bad_special = 1;
      }
    printf("  %s: max error %.3f ulp (at x = %.9g) for normal results, %.3g absolute for "
           "subnormal ones\n", UN[s].name, max_ulp, worst_x, max_sub);
    CHECK(max_ulp <= 2.5);
    CHECK(max_sub <= 0x1p-149);
    CHECK(!bad_special);
  }
}

int main(void) {
  RUN(vbinary_bitwise);
  RUN(relu_clamp_bitwise);
  RUN(sigmoid_error_sweep);
  return test_summary();
}
