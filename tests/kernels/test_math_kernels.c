/* The math kernels of kernels_math.inc vs naive double-precision loops, on
 * awkward sizes (0, 1, 3, 4, 5, 8, 17, 1001), out of place and in place, with
 * NaN, infinities and signed zeros. Tolerances: C-library functions (exp,
 * log, erf, tanh, sin, cos, expm1, log1p) rtol 1e-5 plus atol 1e-6 for
 * results near 0; everything else within 2 ulps (rtol 2.5e-7); integer and
 * bool kernels exact; HardSigmoid and HardSwish also atol 2.5e-7 (alpha * x +
 * beta cancels near 0). */
#include <math.h>
#include <string.h>

#include "kernel_util.h"

/* Variants of this build (a WASMSIMD row outside a SIMD build is NULL). */
#define WNN_F32_VMATH(name, isa, op) wnn_f32_vmath_ukernel name;
#define WNN_VBINARY_X(name, isa, dtype, op) wnn_vbinary_x_ukernel name;
#define WNN_F32_LOGSOFTMAX(name, isa) wnn_f32_softmax_ukernel name;
#define WNN_F32_REDUCE(name, isa, op) wnn_f32_reduce_ukernel name;
#include "kernels/kernels_math.inc"
#define FN_SCALAR(name) name
#if defined(__wasm_simd128__)
#define FN_WASMSIMD(name) name
#else
#define FN_WASMSIMD(name) NULL
#endif
#define FN(name, isa) FN_##isa(name)

static const size_t SIZES[] = {0, 1, 3, 4, 5, 8, 17, 1001};
#define NUM_SIZES (sizeof SIZES / sizeof SIZES[0])

static int same(double got, double want, double rtol, double atol) {
  if (isnan(want)) return isnan(got);
  if (got == want) return 1;
  return fabs(got - want) <= atol + rtol * fabs(want);
}

/* ---------------------------------------------------------------- vmath */

static double naive_vmath(int op, double x, double a, double b) {
  switch (op) {
    case WNN_VMATH_EXP: return exp(x);
    case WNN_VMATH_LOG: return log(x);
    case WNN_VMATH_SQRT: return sqrt(x);
    case WNN_VMATH_NEG: return -x;
    case WNN_VMATH_ABS: return fabs(x);
    case WNN_VMATH_ERF: return erf(x);
    case WNN_VMATH_TANH: return tanh(x);
    case WNN_VMATH_RECIPROCAL: return 1.0 / x;
    case WNN_VMATH_FLOOR: return floor(x);
    case WNN_VMATH_CEIL: return ceil(x);
    case WNN_VMATH_LEAKYRELU: return x < 0 ? a * x : x;
    case WNN_VMATH_HARDSIGMOID: return isnan(x) ? x : fmax(0, fmin(1, a * x + b));
    case WNN_VMATH_HARDSWISH: return isnan(x) ? x : x * fmax(0, fmin(1, x / 6 + 0.5));
    case WNN_VMATH_ELU: return x < 0 ? a * expm1(x) : x;
    case WNN_VMATH_SELU: return x <= 0 ? b * a * expm1(x) : b * x;
    case WNN_VMATH_SOFTPLUS: return x > 50 ? x : log1p(exp(x));
    case WNN_VMATH_SOFTSIGN: return x / (1 + fabs(x));
    case WNN_VMATH_SIGN: return x > 0 ? 1 : (x < 0 ? -1 : x);
    case WNN_VMATH_SIN: return sin(x);
    case WNN_VMATH_COS: return cos(x);
    case WNN_VMATH_ROUND: return nearbyint(x);
    case WNN_VMATH_GELU: return 0.5 * x * erfc(-x / sqrt(2.0));
    case WNN_VMATH_GELU_TANH:
      return 0.5 * x * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
    default: return NAN;
  }
}

static int is_libm(int op) {
  return op == WNN_VMATH_EXP || op == WNN_VMATH_LOG || op == WNN_VMATH_ERF ||
         op == WNN_VMATH_TANH || op == WNN_VMATH_ELU || op == WNN_VMATH_SELU ||
         op == WNN_VMATH_SOFTPLUS || op == WNN_VMATH_SIN || op == WNN_VMATH_COS ||
         op == WNN_VMATH_GELU || op == WNN_VMATH_GELU_TANH;
}

static int check_vmath(const char *name, wnn_f32_vmath_ukernel *fn, int op) {
  if (!fn) return 1;
  const wnn_f32_vmath_params p = {0.3f, 0.6f};
  /* HardSigmoid's alpha * x + beta cancels near 0: an absolute error of
   * an ulp of beta (and |x| <= 3 times that for HardSwish). */
  const bool hard = op == WNN_VMATH_HARDSIGMOID || op == WNN_VMATH_HARDSWISH;
  const double rtol = is_libm(op) ? 1e-5 : 2.5e-7, atol = is_libm(op) ? 1e-6 : (hard ? 2.5e-7 : 0);
  int ok = 1;
  for (size_t s = 0; s < NUM_SIZES; s++) {
    const size_t n = SIZES[s];
    float *x = rand_floats(n + 1), *y = rand_floats(n + 1);
    for (size_t i = 0; i < n; i++) x[i] *= 20.0f;
    const float specials[7] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 2.5f, -0.5f};
    for (size_t i = 0; i < n && i < 7; i++) x[(i * 7) % n] = specials[i];
    double *want = malloc((n + 1) * sizeof *want);
    for (size_t i = 0; i < n; i++) want[i] = (float)naive_vmath(op, x[i], p.alpha, p.beta);
    fn(n, x, y, &p);
    for (size_t i = 0; i < n; i++)
      if (!same(y[i], want[i], rtol, atol)) {
        if (ok) printf("  %s n=%zu x=%.9g: got %.9g want %.9g\n", name, n, x[i], y[i], want[i]);
        ok = 0;
      }
    fn(n, x, x, &p); /* in place */
    for (size_t i = 0; i < n; i++) ok = same(x[i], want[i], rtol, atol) && ok;
    free(x), free(y), free(want);
  }
  if (!ok) printf("  %s failed\n", name);
  return ok;
}

TEST(vmath) {
#define WNN_F32_VMATH(name, isa, op) CHECK(check_vmath(#name, FN(name, isa), WNN_VMATH_##op));
#include "kernels/kernels_math.inc"
}

/* ------------------------------------------------------------ vbinary_x */

enum { F32 = 0, S32, S64, S8, U8, BOOL };

static double get(int dt, const void *p, size_t i) {
  switch (dt) {
    case F32: return ((const float *)p)[i];
    case S32: return ((const int32_t *)p)[i];
    case S64: return (double)((const int64_t *)p)[i];
    case S8: return ((const int8_t *)p)[i];
    default: return ((const uint8_t *)p)[i];
  }
}

/* Expected value in double (integers here are small: exact in double). */
static double naive_bin(int dt, int op, double a, double b) {
  switch (op) {
    case WNN_VBIN_ADD: return a + b;
    case WNN_VBIN_MIN: return isnan(a) || isnan(b) ? NAN : fmin(a, b);
    case WNN_VBIN_MAX: return isnan(a) || isnan(b) ? NAN : fmax(a, b);
    case WNN_VBIN_POW: case WNN_VBIN_POW_S32: case WNN_VBIN_POW_S64: {
      if (dt == F32) return pow(a, b);
      if (op == WNN_VBIN_POW) { /* truncated; NaN and infinities give 0 */
        const double r = trunc(pow(a, b));
        return isfinite(r) ? r : 0;
      }
      if (b < 0) return a == 1 ? 1 : a == -1 ? (fmod(b, 2) != 0 ? -1 : 1) : 0;
      return pow(a, b); /* |a| <= 6, b <= 6: exact */
    }
    case WNN_VBIN_PRELU: return a < 0 ? a * b : a;
    case WNN_VBIN_EQ: return dt == BOOL ? (a != 0) == (b != 0) : a == b; /* bools by truth */
    case WNN_VBIN_LT: return a < b;
    case WNN_VBIN_LE: return a <= b;
    case WNN_VBIN_GT: return a > b;
    case WNN_VBIN_GE: return a >= b;
    case WNN_VBIN_AND: return a != 0 && b != 0;
    case WNN_VBIN_OR: return a != 0 || b != 0;
    case WNN_VBIN_XOR: return (a != 0) != (b != 0);
    case WNN_VBIN_FMOD: return b == 0 && dt != F32 ? 0 : fmod(a, b); /* float: NaN */
    case WNN_VBIN_MOD: {
      if (b == 0) return 0;
      const double r = fmod(a, b);
      return r != 0 && (r < 0) != (b < 0) ? r + b : r;
    }
    default: return NAN;
  }
}

static int out_type(int dt, int op) {
  if (op >= WNN_VBIN_EQ && op <= WNN_VBIN_XOR) return U8;
  return dt;
}

static size_t dt_size(int dt) { return dt == F32 || dt == S32 ? 4 : (dt == S64 ? 8 : 1); }

static void fill(int dt, void *p, size_t n, int op, int operand) {
  for (size_t i = 0; i < n; i++) {
    const int small = (int)(lcg_next() % 13u) - 6;
    switch (dt) {
      case F32: {
        float v = lcg_float() * 4.0f;
        if (op == WNN_VBIN_POW && operand == 0) v = fabsf(v) + 0.1f; /* powf domain */
        if (op == WNN_VBIN_POW && operand == 1) v = fabsf(v) * 1.5f; /* integer bases: small powers */
        if (op == WNN_VBIN_FMOD && operand == 1 && v == 0) v = 1;
        if (i % 5 == 3) v = (float)small; /* ties for the comparisons */
        ((float *)p)[i] = v;
        break;
      }
      case S32: ((int32_t *)p)[i] = small; break;
      case S64: ((int64_t *)p)[i] = small; break;
      case S8: ((int8_t *)p)[i] = (int8_t)small; break;
      case U8: ((uint8_t *)p)[i] = (uint8_t)(small + 6); break;
      default: ((uint8_t *)p)[i] = (uint8_t)(lcg_next() % 3u); break; /* bools 0, 1, 2 */
    }
  }
}

static int check_vbin(const char *name, wnn_vbinary_x_ukernel *fn, int dt, int op) {
  if (!fn) return 1;
  const int bdt = op == WNN_VBIN_POW_S32 ? S32 : op == WNN_VBIN_POW_S64 ? S64 : op == WNN_VBIN_POW ? F32 : dt;
  const int ydt = out_type(dt, op);
  const double rtol = op == WNN_VBIN_POW || op == WNN_VBIN_POW_S32 || op == WNN_VBIN_POW_S64 ? 2e-6 : 0;
  int ok = 1;
  for (size_t s = 0; s < NUM_SIZES; s++)
    for (int layout = 0; layout < 3; layout++) {
      const size_t n = SIZES[s], sa = layout == 2 ? 0 : 1, sb = layout == 1 ? 0 : 1;
      unsigned char *a = malloc(8 * n + 8), *b = malloc(8 * n + 8), *y = malloc(8 * n + 8);
      fill(dt, a, n + 1, op, 0);
      fill(bdt, b, n + 1, op, 1);
      fn(n, a, sa, b, sb, y);
      for (size_t i = 0; i < n; i++) {
        const double want = naive_bin(dt, op, get(dt, a, i * sa), get(bdt, b, i * sb));
        const double wf = ydt == F32 ? (double)(float)want : want;
        if (!same(get(ydt, y, i), wf, rtol, 0)) {
          if (ok) printf("  %s n=%zu layout %d i=%zu: got %g want %g\n", name, n, layout, i,
                         get(ydt, y, i), wf);
          ok = 0;
        }
      }
      if (ydt == dt && sa == 1) { /* in place: y is a */
        memcpy(y, a, dt_size(dt) * n);
        fn(n, a, sa, b, sb, a);
        for (size_t i = 0; i < n; i++) {
          const double want = naive_bin(dt, op, get(dt, y, i), get(bdt, b, i * sb));
          ok = same(get(ydt, a, i), ydt == F32 ? (double)(float)want : want, rtol, 0) && ok;
        }
      }
      free(a), free(b), free(y);
    }
  if (!ok) printf("  %s failed\n", name);
  return ok;
}

TEST(vbinary_x) {
#define WNN_VBINARY_X(name, isa, dtype, op) CHECK(check_vbin(#name, FN(name, isa), dtype, WNN_VBIN_##op));
#include "kernels/kernels_math.inc"
}

TEST(int_edge_cases) {
  /* Integer powers wrap; negative exponents truncate 1 / a^-b. */
  const int32_t pa[4] = {3, -1, 2, 0}, pb[4] = {31, -3, -2, -1};
  int32_t py[4];
  wnn_s32_vxpow_s32__scalar(4, pa, 1, pb, 1, py);
  CHECK(py[0] == 1264544299 && py[1] == -1 && py[2] == 0 && py[3] == 0); /* 3^31 mod 2^32 */
  const int64_t qa[2] = {-2, 7};
  const float qb[2] = {63.0f, 0.5f};
  int64_t qy[2];
  wnn_s64_vxpow__scalar(2, qa, 1, qb, 1, qy);
  CHECK(qy[0] == 0 && qy[1] == 2); /* -2^63 is out of the double-safe range: 0; 7^0.5 = 2.6 -> 2 */
  /* Wrap-around, division by zero and MIN % -1 are defined. */
  const int32_t a[4] = {INT32_MAX, INT32_MIN, 7, -7}, b[4] = {1, -1, 0, -1};
  int32_t y[4];
  wnn_s32_vxadd__scalar(4, a, 1, b, 1, y);
  CHECK(y[0] == INT32_MIN && y[1] == INT32_MAX);
  wnn_s32_vxmod__scalar(4, a, 1, b, 1, y);
  CHECK(y[1] == 0 && y[2] == 0 && y[3] == 0);
  const int64_t la[2] = {INT64_MIN, -7}, lb[2] = {-1, 3};
  int64_t ly[2];
  wnn_s64_vxfmod__scalar(2, la, 1, lb, 1, ly);
  CHECK(ly[0] == 0 && ly[1] == -1);
  wnn_s64_vxmod__scalar(2, la, 1, lb, 1, ly);
  CHECK(ly[0] == 0 && ly[1] == 2);
}

/* --------------------------------------------------- reduce, logsoftmax */

static int check_reduce(const char *name, wnn_f32_reduce_ukernel *fn, int op) {
  if (!fn) return 1;
  int ok = 1;
  for (size_t s = 0; s < NUM_SIZES; s++)
    for (size_t stride = 1; stride <= 3; stride += 2) {
      const size_t n = SIZES[s];
      float *x = rand_floats(n * stride + 1);
      if (s == 6 && op != WNN_REDUCE_PROD) x[stride * (n / 2)] = NAN; /* NaN on one size */
      double acc = op == WNN_REDUCE_PROD ? 1.0 : (op == WNN_REDUCE_MAX ? -INFINITY : (op == WNN_REDUCE_MIN ? INFINITY : 0.5));
      const float start = (float)acc, shift = 0.25f;
      for (size_t i = 0; i < n; i++) {
        const double v = x[i * stride];
        switch (op) {
          case WNN_REDUCE_SUM: acc += v; break;
          case WNN_REDUCE_SUMSQ: acc += v * v; break;
          case WNN_REDUCE_ABSSUM: acc += fabs(v); break;
          case WNN_REDUCE_PROD: acc *= v; break;
          case WNN_REDUCE_MAX: acc = isnan(acc) || isnan(v) ? NAN : fmax(acc, v); break;
          case WNN_REDUCE_MIN: acc = isnan(acc) || isnan(v) ? NAN : fmin(acc, v); break;
          default: acc += exp(v - shift); break;
        }
      }
      const float got = fn(n, stride, x, start, shift);
      if (!same(got, acc, 1e-5, 1e-5)) {
        printf("  %s n=%zu stride=%zu: got %.9g want %.9g\n", name, n, stride, got, acc);
        ok = 0;
      }
      free(x);
    }
  return ok;
}

TEST(reduce) {
#define WNN_F32_REDUCE(name, isa, op) CHECK(check_reduce(#name, FN(name, isa), WNN_REDUCE_##op));
#include "kernels/kernels_math.inc"
}

static int check_logsoftmax(const char *name, wnn_f32_softmax_ukernel *fn) {
  if (!fn) return 1;
  int ok = 1;
  for (size_t s = 1; s < NUM_SIZES; s++)
    for (size_t stride = 1; stride <= 4; stride += 3) {
      const size_t n = SIZES[s];
      float *x = rand_floats(n * stride), *y = rand_floats(n * stride);
      for (size_t i = 0; i < n * stride; i++) x[i] *= 30.0f;
      double max = -INFINITY, sum = 0;
      for (size_t i = 0; i < n; i++) max = fmax(max, x[i * stride]);
      for (size_t i = 0; i < n; i++) sum += exp(x[i * stride] - max);
      fn(n, stride, x, y);
      for (size_t i = 0; i < n; i++)
        ok = same(y[i * stride], x[i * stride] - max - log(sum), 1e-5, 1e-5) && ok;
      fn(n, stride, x, x);
      for (size_t i = 0; i < n; i++) ok = same(x[i * stride], y[i * stride], 0, 0) && ok;
      free(x), free(y);
    }
  if (!ok) printf("  %s failed\n", name);
  return ok;
}

TEST(logsoftmax) {
#define WNN_F32_LOGSOFTMAX(name, isa) CHECK(check_logsoftmax(#name, FN(name, isa)));
#include "kernels/kernels_math.inc"
}

int main(void) {
  RUN(vmath);
  RUN(vbinary_x);
  RUN(int_edge_cases);
  RUN(reduce);
  RUN(logsoftmax);
  return test_summary();
}
