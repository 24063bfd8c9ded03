/* wnn_fmt (src/base/fmt.c), the runtime's message formatter, against the C
 * library's snprintf (glibc natively, wasi-libc's musl under WASI): the same
 * text and the same return value for every conversion, flag, width,
 * precision and length the messages use, on fixed and random values, with
 * and without truncation; floating point within the limits fmt.c states (up
 * to 16 significant digits, numbers from 1e-7 to 1e38 for the long ones). */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/status.h"
#include "test.h"

/* Truncation is what the tests check. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static int mismatches;

/* Both formatters into buffers of cap bytes (filled with 'X' first, so that
 * a write past the terminator shows). */
#define SAME(cap, ...)                                                                        \
  do {                                                                                        \
    char a_[512], b_[512];                                                                    \
    memset(a_, 'X', sizeof a_), memset(b_, 'X', sizeof b_);                                   \
    const int na_ = wnn_fmt(a_, (cap), __VA_ARGS__), nb_ = snprintf(b_, (cap), __VA_ARGS__);  \
    if (na_ != nb_ || memcmp(a_, b_, sizeof a_) != 0) {                                       \
      if (mismatches++ < 10)                                                                  \
        printf("  %s:%d: %s: wnn_fmt gave \"%.*s\" (%d), snprintf \"%.*s\" (%d)\n", __FILE__, \
               __LINE__, #__VA_ARGS__, (cap) ? (int)(cap) : 0, a_, na_,                         \
               (cap) ? (int)(cap) : 0, b_, nb_);                                               \
      test_current_failed_ = 1;                                                               \
    }                                                                                         \
  } while (0)

TEST(integers) {
  mismatches = 0;
  const long long values[] = {0, 1, -1, 7, -42, 255, 4096, 65535, -2147483647 - 1, 2147483647,
                              INT64_MAX, INT64_MIN, 1234567890123LL};
  for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
    const long long v = values[i];
    SAME(512, "%d|%i|%5d|%-5d|%05d|%+d|% d|%.3d", (int)v, (int)v, (int)v, (int)v, (int)v, (int)v,
         (int)v, (int)v);
    SAME(512, "%lld|%llu|%llx|%ld", v, (unsigned long long)v, (unsigned long long)v, (long)v);
    SAME(512, "%u|%x|%X|%08x|%02x|%04x", (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v,
         (unsigned)v, (unsigned)v);
    SAME(512, "%zu|%*d|%-*d|%.*d", (size_t)v, 6, (int)v, -6, (int)v, 4, (int)v);
  }
  SAME(512, "%hhd %hd %hu", (signed char)44, (short)-1234, (unsigned short)60000);
  CHECK(mismatches == 0);
}

TEST(text) {
  mismatches = 0;
  SAME(512, "plain text, no conversions");
  SAME(512, "%s|%10s|%-10s|%.3s|%.*s|%c|%%|100%%", "name", "name", "name", "name", 2, "name", 'q');
  SAME(512, "%.100s", "a somewhat longer string that is cut at a hundred characters by the "
                      "precision of the conversion, which is what model.c does with dims");
  SAME(512, "%s%s%s", "", "a", "");
  SAME(512, "node %d (%s%s%s%s)", 3, "Conv", " '", "conv1", "'");
  CHECK(mismatches == 0);
}

TEST(doubles_fixed) {
  mismatches = 0;
  const double values[] = {0.0, -0.0, 0.5, 1.0, -1.0, 2.5, 3.5, 0.1, 0.2, 0.3, 1.0 / 3.0,
                           2.0 / 3.0, 100.0, 1e-5, 1e-4, 0.0001234, 123456.0, 1234567.0,
                           123456789.0, 1e15, 1e16, 1e17, 9.9999999e22, 1e300, 1e-300,
                           DBL_MAX, DBL_MIN, 5e-324, FLT_MAX, FLT_MIN, 0.00390625, 0.9999995,
                           9.9999996, 99999.95, 0.05, 0.15, 0.25, 0.35, 1.5, 1e6, 65504.0,
                           2147483647.0, 4294967296.0, 0.0078125, INFINITY, -INFINITY, NAN};
  for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
    const double v = values[i];
    SAME(512, "%g|%e|%.3g|%.9g|%.0e|%.2e", v, v, v, v, v, v);
    SAME(512, "%12g|%-12g|%+g|% g|%012g|%-+10.2e", v, v, v, v, v, v);
    SAME(512, "%.1g|%.0g|%.2g", v, v, v);
    const double a = fabs(v);
    if (!(a < 1e-7 || a >= 1e38)) SAME(512, "%.15g|%.16g|%.14e|%.15e", v, v, v, v);
    if (!(a < 1e-7 || a >= 1e16)) SAME(512, "%f|%.0f|%.1f|%10.3f|%.9f", v, v, v, v, v);
  }
  CHECK(mismatches == 0);
}

TEST(doubles_random) {
  mismatches = 0;
  /* Messages print float32 scales, bounds and sizes: random float32 values
   * over the whole exponent range, and random doubles of every exponent. */
  for (int i = 0; i < 20000; i++) {
    uint32_t bits = (uint32_t)next();
    float f;
    memcpy(&f, &bits, sizeof f);
    if (isnan(f)) continue;
    SAME(512, "%g %.3g %e %.9g", (double)f, (double)f, (double)f, (double)f);
    if (fabsf(f) < 1e16f && fabsf(f) >= 1e-7f) {
      SAME(512, "%f %.0f %.2f %.16g", (double)f, (double)f, (double)f, (double)f);
    }
    uint64_t dbits = next();
    double d;
    memcpy(&d, &dbits, sizeof d);
    if (isnan(d)) continue;
    SAME(512, "%g %.6e", d, d);
    if (fabs(d) >= 1e-7 && fabs(d) < 1e38) SAME(512, "%.16g %.12e", d, d);
    /* Small integers and short decimals, as shapes and attributes are. */
    const double s = (double)(int64_t)(next() % 2000001) / 1000.0 - 1000.0;
    SAME(512, "%g %f %.0f %.2f %.15g %.16g", s, s, s, s, s, s);
  }
  CHECK(mismatches == 0);
}

TEST(truncation) {
  mismatches = 0;
  for (size_t cap = 0; cap < 24; cap++) {
    SAME(cap, "value %d of %s is %g", 12345, "tensor", 0.125);
    SAME(cap, "%08x|%-6s|%+.3e", 0xbeefu, "ab", -12.5);
  }
  /* A NULL buffer with cap 0 only measures. */
  CHECK(wnn_fmt(NULL, 0, "%s=%d", "abc", 42) == 6);
  CHECK(mismatches == 0);
}

int main(void) {
  RUN(integers);
  RUN(text);
  RUN(doubles_fixed);
  RUN(doubles_random);
  RUN(truncation);
  return test_summary();
}
