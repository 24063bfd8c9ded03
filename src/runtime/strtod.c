/* A decimal-to-double conversion for the artifact's JSON (strtod.h).
 *
 * The wasm builds compile cJSON with strtod defined as wnn_strtod. libc's
 * strtod (musl's __floatscan) computes in 128-bit long double, which wasm
 * emulates in software: it brought about 13 KB of code into dist/wnn.wasm
 * to read numbers that are nearly all small integers and float32 values.
 *
 * Up to 19 significant digits are kept in an integer m; then
 *   - m <= 2^53 and |e| <= 22: m and 10^|e| are exact doubles, so one
 *     multiplication or division rounds once: the correctly rounded result
 *     (every integer the format holds, and any number of at most 15
 *     significant digits within 1e-22..1e22 with such an m);
 *   - otherwise m, held exactly as a sum of two doubles, is scaled by exact
 *     powers of ten of at most 1e22 in double-double arithmetic (products and
 *     quotients with their rounding errors carried along), and rounded once
 *     at the end: within one unit in the last place, except in the subnormal
 *     range (tests/unit/test_strtod.c measures it). */
#include "runtime/strtod.h"

#include <stdint.h>

static const double POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The exact product a * b as p + e (Dekker's, without a fused multiply-add:
 * each operand split into halves of 26 bits), barring overflow and
 * underflow. */
static void two_prod(double a, double b, double *p, double *e) {
  double c = 134217729.0 * a, ah = c - (c - a), al = a - ah;
  c = 134217729.0 * b;
  double bh = c - (c - b), bl = b - bh;
  *p = a * b;
  *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

/* (hi + lo) * t, for an exact t. */
static void dd_mul(double *hi, double *lo, double t) {
  double p, e;
  two_prod(*hi, t, &p, &e);
  if (p - p != 0) { /* overflowed: infinity */
    *hi = p;
    *lo = 0;
    return;
  }
  e += *lo * t;
  *hi = p + e;
  *lo = e - (*hi - p);
}

/* (hi + lo) / t, for an exact t: the quotient, then the remainder's. */
static void dd_div(double *hi, double *lo, double t) {
  double q = *hi / t, p, e;
  two_prod(q, t, &p, &e);
  double r = ((*hi - p) - e) + *lo;
  double q2 = r / t;
  *hi = q + q2;
  *lo = q2 - (*hi - q);
}

double wnn_strtod(const char *s, char **end) {
  const char *p = s;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;
  int negative = *p == '-';
  if (*p == '-' || *p == '+') p++;
  uint64_t m = 0;
  int digits = 0;   /* significant digits kept in m */
  long exp10 = 0;   /* the value is m * 10^exp10 */
  int any = 0;
  for (; is_digit(*p); p++, any = 1) {
    if (digits < 19) {
      m = m * 10 + (uint64_t)(*p - '0');
      digits += m != 0;
    } else {
      exp10++;
    }
  }
  if (*p == '.') {
    const char *q = p + 1;
    for (; is_digit(*q); q++, any = 1) {
      if (digits < 19) {
        m = m * 10 + (uint64_t)(*q - '0');
        digits += m != 0;
        exp10--;
      }
    }
    if (any) p = q;
  }
  if (!any) {
    if (end) *end = (char *)s;
    return 0.0;
  }
  if (*p == 'e' || *p == 'E') {
    const char *q = p + 1;
    int eneg = *q == '-';
    if (*q == '-' || *q == '+') q++;
    if (is_digit(*q)) {
      long e = 0;
      for (; is_digit(*q); q++)
        if (e < 100000) e = e * 10 + (*q - '0');
      exp10 += eneg ? -e : e;
      p = q;
    }
  }
  if (end) *end = (char *)p;
  double x = (double)m;
  if (m != 0 && exp10 != 0) {
    if (m <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
      x = exp10 > 0 ? x * POW10[exp10] : x / POW10[-exp10];
    } else {
      /* Far outside the double range: skip the steps (0 or infinity). */
      if (exp10 < -400) exp10 = -400;
      if (exp10 > 400) exp10 = 400;
      double lo = (double)(int64_t)(m - (uint64_t)x); /* m = x + lo exactly */
      /* Upwards, the work is scaled by 2^-128 (exact) so that no partial
       * product overflows near the top of the range. */
      const double down = exp10 > 0 ? 0x1p-128 : 1.0;
      x *= down;
      lo *= down;
      int first = (int)((exp10 < 0 ? -exp10 : exp10) % 22);
      for (long e = exp10 < 0 ? -exp10 : exp10; e > 0; e -= first, first = 22) {
        if (first == 0) continue;
        if (exp10 > 0) dd_mul(&x, &lo, POW10[first]);
        else dd_div(&x, &lo, POW10[first]);
      }
      x = (x + lo) / down;
    }
  }
  return negative ? -x : x;
}
