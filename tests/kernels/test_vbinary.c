/* Every vbinary variant (f32, s32, s64; VV, VC, RVC) vs a naive loop on sizes
 * below, at and past any unroll, out of place and in place (y == a, and for
 * VV y == b). Float results must be bit-exact: one IEEE operation each. */
#include <string.h>

#include "kernel_util.h"

static const size_t SIZES[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 1027};
#define NUM_SIZES (sizeof SIZES / sizeof SIZES[0])
enum { ADD, SUB, MUL, DIV };
enum { VV, VC, RVC };

static double ref_f(int op, double a, double b) {
  return op == ADD ? a + b : op == SUB ? a - b : op == MUL ? a * b : a / b;
}
static int64_t ref_i(int op, int64_t a, int64_t b, int bits) {
  int64_t r;
  if (op == DIV) r = b == 0 ? 0 : (b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b);
  else if (op == ADD) r = (int64_t)((uint64_t)a + (uint64_t)b);
  else if (op == SUB) r = (int64_t)((uint64_t)a - (uint64_t)b);
  else r = (int64_t)((uint64_t)a * (uint64_t)b);
  return bits == 32 ? (int64_t)(int32_t)(uint32_t)(uint64_t)r : r;
}

/* The element y[i] a variant must produce from a and b. */
#define OPERANDS(kind, a, b, i) \
  ((kind) == VV ? (a)[i] : (kind) == VC ? (a)[i] : (b)[0]), \
  ((kind) == VV ? (b)[i] : (kind) == VC ? (b)[0] : (a)[i])

static int check_f32(const char *name, wnn_f32_vbinary_ukernel *fn, int op, int kind) {
  int ok = 1;
  for (size_t s = 0; s < NUM_SIZES; s++) {
    const size_t n = SIZES[s];
    float *a = rand_floats(n + 1), *b = rand_floats(n + 1), *y = rand_floats(n + 1);
    float *want = malloc((n + 1) * sizeof(float));
    for (size_t i = 0; i < n; i++) want[i] = (float)ref_f(op, OPERANDS(kind, a, b, i));
    fn(n, a, b, y);
    ok = test_allclose(y, want, n, 0, 0) && ok;
    fn(n, a, b, a); /* in place over a */
    ok = test_allclose(a, want, n, 0, 0) && ok;
    if (!ok) printf("  %s n=%zu\n", name, n);
    free(a), free(b), free(y), free(want);
  }
  /* VV in place over b. */
  if (kind == VV) {
    float a[9], b[9], want[9];
    for (int i = 0; i < 9; i++) a[i] = lcg_float(), b[i] = lcg_float() + 2.0f;
    for (int i = 0; i < 9; i++) want[i] = (float)ref_f(op, a[i], b[i]);
    fn(9, a, b, b);
    ok = test_allclose(b, want, 9, 0, 0) && ok;
  }
  return ok;
}

#define CHECK_INT(T, BITS, MIN, MAX)                                                            \
  static int check_s##BITS(const char *name, wnn_s##BITS##_vbinary_ukernel *fn, int op, \
                           int kind) {                                                  \
    int ok = 1;                                                                         \
    for (size_t s = 0; s < NUM_SIZES; s++) {                                            \
      const size_t n = SIZES[s];                                                        \
      T *a = malloc((n + 1) * sizeof(T)), *b = malloc((n + 1) * sizeof(T));             \
      T *y = malloc((n + 1) * sizeof(T)), *want = malloc((n + 1) * sizeof(T));          \
      for (size_t i = 0; i <= n; i++) {                                                 \
        /* Small values with zeros and -1 (division edge cases), and extremes. */       \
        a[i] = (T)((int32_t)(lcg_next() % 9u) - 4);                                     \
        b[i] = (T)((int32_t)(lcg_next() % 5u) - 2);                                     \
        if (i % 7 == 3) a[i] = MIN;                                                   \
        if (i % 11 == 5) a[i] = MAX;                                                  \
      }                                                                                 \
      for (size_t i = 0; i < n; i++)                                                    \
        want[i] = (T)ref_i(op, OPERANDS(kind, a, b, i), BITS);                          \
      fn(n, a, b, y);                                                                   \
      ok = (n == 0 || memcmp(y, want, n * sizeof(T)) == 0) && ok;                       \
      fn(n, a, b, a);                                                                   \
      ok = (n == 0 || memcmp(a, want, n * sizeof(T)) == 0) && ok;                       \
      if (!ok) printf("  %s n=%zu\n", name, n);                                         \
      free(a), free(b), free(y), free(want);                                            \
    }                                                                                   \
    return ok;                                                                          \
  }
CHECK_INT(int32_t, 32, INT32_MIN, INT32_MAX)
CHECK_INT(int64_t, 64, INT64_MIN, INT64_MAX)

TEST(f32_variants) {
#define WNN_F32_VBINARY(name, isa, op, kind) WNN_IF_ISA(isa, CHECK(check_f32(#name, name, op, kind));)
#include "kernels/kernels.inc"
}

TEST(s32_variants) {
#define WNN_S32_VBINARY(name, isa, op, kind) WNN_IF_ISA(isa, CHECK(check_s32(#name, name, op, kind));)
#include "kernels/kernels.inc"
}

TEST(s64_variants) {
#define WNN_S64_VBINARY(name, isa, op, kind) WNN_IF_ISA(isa, CHECK(check_s64(#name, name, op, kind));)
#include "kernels/kernels.inc"
}

int main(void) {
  RUN(f32_variants);
  RUN(s32_variants);
  RUN(s64_variants);
  return test_summary();
}
