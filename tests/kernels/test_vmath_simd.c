/* The SIMD128 polynomial vmath kernels (f32_vmath__wasmsimd.c: exp, tanh, erf,
 * GELU, GELU with tanh) against double precision and against their scalar
 * rows.
 *
 * Error unit: the ulp of the float nearest the double reference, where that
 * is a normal float, and the subnormal step 2^-149 below FLT_MIN (so a
 * subnormal result may be off by `bound` steps absolute). The bounds asserted
 * (FUNCS below) are the measured maxima rounded up; the measured values are
 * printed. GELU_TANH below x = -4 (results under 7e-5) is held to an absolute
 * bound instead: its v = 2 sqrt(2/pi) (x + 0.044715 x^3) is rounded to float,
 * which costs about |v| ulp of the result, 200 ulp at x = -10.
 * References: exp(x); tanh(x); erf(x); 0.5 x erfc(-x / sqrt 2) for GELU;
 * x / (1 + exp(-v)) for GELU_TANH (the same function as
 * 0.5 x (1 + tanh(v / 2)) without its cancellation for x < 0).
 *
 *   sweep:    every 331st float bit pattern of both signs with magnitude up
 *             to a limit past each function's saturation (exp: 104, where it
 *             underflows to 0 and overflows to +inf past 88.73), 6.6-6.8
 *             million inputs per function;
 *   specials: +-0 (with the sign of the result checked), subnormals, +-inf,
 *             NaN, +-88.7, +-89, +-1e30, +-FLT_MAX;
 *   lengths:  0, 1, 3, 4, 5, 17, 1000, out of place and in place, with an
 *             element past the end that must stay untouched, within the bound
 *             of the reference and within bound + 2 ulp (or 1e-6) of the
 *             scalar row.
 * In a build without SIMD128 there is nothing to test, and the test says so. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernel_util.h"

#define ISA_SCALAR 0
#define ISA_WASMSIMD 1

/* kernels.h declares only kernels.inc's families: declare the math rows. */
#define WNN_F32_VMATH(name, isa, op) wnn_f32_vmath_ukernel name;
#include "kernels/kernels_math.inc"

typedef struct row {
  const char *name;
  wnn_f32_vmath_ukernel *fn;
  int isa, op;
} row;
static const row ROWS[] = {
#define WNN_F32_VMATH(name, isa, op) WNN_IF_ISA(isa, {#name, name, ISA_##isa, WNN_VMATH_##op},)
#include "kernels/kernels_math.inc"
};
#define NUM_ROWS (sizeof ROWS / sizeof ROWS[0])

/* The functions under test: op, limit of the sweep, bound in ulp; and for
 * GELU_TANH, below x = tail, an absolute bound instead (see the header). */
static const struct {
  int op;
  float limit;
  double bound;
  float tail;
  double tail_atol;
} FUNCS[] = {
    {WNN_VMATH_EXP, 104.0f, 2.0, -INFINITY, 0},  {WNN_VMATH_TANH, 12.0f, 3.0, -INFINITY, 0},
    {WNN_VMATH_ERF, 11.0f, 3.0, -INFINITY, 0},   {WNN_VMATH_GELU, 16.0f, 6.5, -INFINITY, 0},
    {WNN_VMATH_GELU_TANH, 12.0f, 24.0, -4.0f, 1e-10},
};
#define NUM_FUNCS (sizeof FUNCS / sizeof FUNCS[0])

static double reference(int op, float xf) {
  const double x = xf;
  switch (op) {
    case WNN_VMATH_EXP: return exp(x);
    case WNN_VMATH_TANH: return tanh(x);
    case WNN_VMATH_ERF: return erf(x);
    /* GELU(-inf) = -inf * 0 = NaN here, as in ONNX's reference and the scalar rows. */
    case WNN_VMATH_GELU: return 0.5 * x * erfc(-x / sqrt(2.0));
    case WNN_VMATH_GELU_TANH: {
      const double v = 2.0 * sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x);
      return x / (1.0 + exp(-v)); /* x = -inf: -inf / inf = NaN, as GELU */
    }
    default: return NAN;
  }
}

/* |got - want| in ulps of the float nearest want (2^-149 steps below FLT_MIN);
 * 0 when both are NaN or the same infinity, HUGE_VAL when they disagree there. */
static double ulp_error(float got, double want) {
  if (isnan(want) || isnan(got)) return isnan(want) && isnan(got) ? 0.0 : HUGE_VAL;
  const double w = (double)(float)want; /* the float rounding of want, maybe +-inf */
  if (isinf(w) || isinf(got)) return (double)got == w ? 0.0 : HUGE_VAL;
  const double a = fabs(want);
  double ulp = 0x1p-149;
  if (a >= FLT_MIN) {
    int e;
    frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    ulp = ldexp(1.0, e - 24);
  }
  return fabs((double)got - want) / ulp;
}

/* Whether got is within FUNCS[f]'s bound of want. */
static int within(size_t f, float x, float got, double want) {
  if (x < FUNCS[f].tail && !isnan(got)) return fabs((double)got - want) <= FUNCS[f].tail_atol;
  return ulp_error(got, want) <= FUNCS[f].bound;
}

static const row *find(int isa, int op) {
  for (size_t i = 0; i < NUM_ROWS; i++)
    if (ROWS[i].isa == isa && ROWS[i].op == op) return &ROWS[i];
  return NULL;
}

static int have_simd(void) {
  if (find(ISA_WASMSIMD, WNN_VMATH_EXP)) return 1;
  printf("  skipped: this build has no SIMD128 kernels (not a wasm SIMD build)\n");
  return 0;
}

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

TEST(sweep_within_bounds) {
  if (!have_simd()) return;
  enum { BATCH = 4096, STEP = 331 };
  float *x = malloc(BATCH * sizeof(float)), *y = malloc(BATCH * sizeof(float));
  for (size_t f = 0; f < NUM_FUNCS; f++) {
    const row *r = find(ISA_WASMSIMD, FUNCS[f].op);
    CHECK(r != NULL);
    if (!r) continue;
    double worst = 0.0, worst_abs = 0.0, worst_tail = 0.0;
    float worst_x = 0.0f;
    size_t count = 0;
    const uint32_t end = bits_of(FUNCS[f].limit);
    for (uint32_t sign = 0; sign < 2; sign++) {
      for (uint32_t u = 0; u <= end;) {
        size_t k = 0;
        for (; k < BATCH && u <= end; k++, u += STEP) x[k] = float_of(u | sign << 31);
        r->fn(k, x, y, NULL);
        for (size_t i = 0; i < k; i++) {
          const double want = reference(FUNCS[f].op, x[i]);
          const double ae = fabs((double)y[i] - want);
          if (x[i] < FUNCS[f].tail) {
            if (ae > worst_tail) worst_tail = ae;
            continue;
          }
          const double e = ulp_error(y[i], want);
          if (e > worst) worst = e, worst_x = x[i];
          if (FUNCS[f].op != WNN_VMATH_EXP && isfinite(y[i]) && ae > worst_abs) worst_abs = ae;
        }
        count += k;
      }
    }
    printf("  %s: %zu inputs in [-%g, %g]: max %.3f ulp (at x = %.9g; bound %.1f), "
           "max abs error %.3g\n",
           r->name, count, FUNCS[f].limit, FUNCS[f].limit, worst, worst_x, FUNCS[f].bound,
           worst_abs);
    CHECK(worst <= FUNCS[f].bound);
    if (FUNCS[f].tail > -INFINITY) {
      printf("  %s: below x = %g, max abs error %.3g (bound %.0e)\n", r->name, FUNCS[f].tail,
             worst_tail, FUNCS[f].tail_atol);
      CHECK(worst_tail <= FUNCS[f].tail_atol);
    }
  }
  free(x), free(y);
}

TEST(special_values) {
  if (!have_simd()) return;
  static const float specials[] = {
      0.0f,     -0.0f,   1e-40f,    -1e-40f,  0x1p-149f,  -0x1p-149f, INFINITY, -INFINITY,
      NAN,      -NAN,    88.7f,     -88.7f,   89.0f,      -89.0f,     1e30f,    -1e30f,
      FLT_MAX,  -FLT_MAX, 1e-20f,   -1e-20f,  0.875f,     -0.875f,    9.0f,     -9.0f};
  enum { N = sizeof specials / sizeof specials[0] };
  for (size_t f = 0; f < NUM_FUNCS; f++) {
    const row *r = find(ISA_WASMSIMD, FUNCS[f].op);
    if (!r) continue;
    float y[N];
    r->fn(N, specials, y, NULL);
    for (size_t i = 0; i < N; i++) {
      const double want = reference(FUNCS[f].op, specials[i]);
      int ok = within(f, specials[i], y[i], want);
      /* The sign of a zero result: tanh, erf and GELU keep x's sign at +-0. */
      if (FUNCS[f].op != WNN_VMATH_EXP && specials[i] == 0.0f)
        ok = ok && y[i] == 0.0f && signbit(y[i]) == signbit(specials[i]);
      if (!ok) printf("  %s(%.9g) = %.9g, want %.9g\n", r->name, specials[i], y[i], want);
      CHECK(ok);
    }
  }
}

TEST(lengths_in_place_and_vs_scalar) {
  if (!have_simd()) return;
  static const size_t LENGTHS[] = {0, 1, 3, 4, 5, 17, 1000};
  static const float specials[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-40f, 30.0f, -30.0f};
  for (size_t f = 0; f < NUM_FUNCS; f++) {
    const row *simd = find(ISA_WASMSIMD, FUNCS[f].op), *scalar = find(ISA_SCALAR, FUNCS[f].op);
    CHECK(simd != NULL && scalar != NULL);
    if (!simd || !scalar) continue;
    for (size_t l = 0; l < sizeof LENGTHS / sizeof LENGTHS[0]; l++) {
      const size_t n = LENGTHS[l];
      float *x = malloc((n + 1) * sizeof(float)), *y = malloc((n + 1) * sizeof(float));
      float *s = malloc((n + 1) * sizeof(float));
      for (size_t i = 0; i < n; i++) x[i] = lcg_float() * 12.0f;
      for (size_t i = 0; i < n; i += 7) x[i] = specials[(i / 7) % 8];
      x[n] = y[n] = 12345.0f;
      scalar->fn(n, x, s, NULL);
      simd->fn(n, x, y, NULL);
      int ok = y[n] == 12345.0f;
      for (size_t i = 0; i < n; i++) {
        const double want = reference(FUNCS[f].op, x[i]);
        /* The scalar rows round x / sqrt 2 (GELU) and cancel in 1 + tanh
         * (GELU_TANH) in the negative tail: there they are only within 1e-6. */
        const int good = within(f, x[i], y[i], want) &&
                         (ulp_error(y[i], s[i]) <= FUNCS[f].bound + 2.0 ||
                          fabs((double)y[i] - s[i]) <= 1e-6);
        if (!good && ok)
          printf("  %s n=%zu x[%zu]=%.9g: got %.9g, scalar %.9g, want %.9g\n", simd->name, n, i,
                 x[i], y[i], s[i], want);
        ok = ok && good;
      }
      simd->fn(n, x, x, NULL); /* in place: the same values */
      ok = ok && x[n] == 12345.0f && (n == 0 || memcmp(x, y, n * sizeof(float)) == 0);
      if (!ok) printf("  %s failed at n=%zu\n", simd->name, n);
      CHECK(ok);
      free(x), free(y), free(s);
    }
  }
}

int main(void) {
  RUN(sweep_within_bounds);
  RUN(special_values);
  RUN(lengths_in_place_and_vs_scalar);
  return test_summary();
}
