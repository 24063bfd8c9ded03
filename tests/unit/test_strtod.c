/* wnn_strtod (src/runtime/strtod.c), the number reader of cJSON in the wasm
 * builds, against the C library's strtod (glibc natively, wasi-libc's musl
 * under WASI: both correctly rounded): exact where the header promises it,
 * within a measured bound elsewhere, every float32 written as cJSON writes
 * it read back as the same float32, and the same end pointer on malformed
 * and partial text. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strtod.h"
#include "test.h"

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Distance in units in the last place between two finite doubles of one
 * sign. */
static uint64_t ulps(double a, double b) {
  int64_t ia, ib;
  memcpy(&ia, &a, 8);
  memcpy(&ib, &b, 8);
  if (ia < 0) ia = INT64_MIN - ia;
  if (ib < 0) ib = INT64_MIN - ib;
  return ia > ib ? (uint64_t)(ia - ib) : (uint64_t)(ib - ia);
}

static bool same(const char *text) {
  char *e1, *e2;
  double a = wnn_strtod(text, &e1), b = strtod(text, &e2);
  bool ok = e1 == e2 && memcmp(&a, &b, sizeof a) == 0;
  if (!ok)
    fprintf(stderr, "  '%s': wnn_strtod %.17g (end +%d), strtod %.17g (end +%d)\n", text, a,
            (int)(e1 - text), b, (int)(e2 - text));
  return ok;
}

TEST(integers_are_exact) {
  char buf[64];
  const char *fixed[] = {"0", "-0", "1", "-1", "9007199254740992", "-9007199254740992",
                         "9223372036854775807", "-9223372036854775808", "18446744073709551615",
                         "123456789012345678901234567890", "00012", "+7"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) CHECK(same(fixed[i]));
  for (int i = 0; i < 200000; i++) {
    uint64_t v = next() >> (11 + next() % 53); /* below 2^53, all magnitudes */
    snprintf(buf, sizeof buf, "%s%llu", i & 1 ? "-" : "", (unsigned long long)v);
    if (!same(buf)) {
      CHECK(false);
      break;
    }
  }
}

TEST(short_decimals_are_exact) {
  /* At most 15 significant digits, exponent within +-22 of them. */
  char buf[64];
  for (int i = 0; i < 200000; i++) {
    uint64_t m = next() % 1000000000000000u;
    int e = (int)(next() % 45) - 22;
    snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)m, e);
    if (!same(buf)) {
      CHECK(false);
      break;
    }
  }
  const char *fixed[] = {"0.5", "-0.25", "1e-5", "9.999999747378752e-06", "0.1", "3.14159",
                         "1E3", "2.5e+2", ".5", "5.", "-.75e1", "1e22", "1e-22"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) CHECK(same(fixed[i]));
}

TEST(every_float32_reads_back) {
  /* cJSON writes a double with %1.15g, or %1.17g when that does not read
   * back; the artifact's float attributes are float32 values. */
  char buf[64];
  uint64_t worst = 0;
  int count = 0;
  for (uint32_t bits = 1; bits < 0x7F800000u; bits += 997) {
    for (int sign = 0; sign < 2; sign++) {
      float f;
      uint32_t b = bits | (sign ? 0x80000000u : 0);
      memcpy(&f, &b, 4);
      double d = f;
      snprintf(buf, sizeof buf, "%1.15g", d);
      if (strtod(buf, NULL) != d) snprintf(buf, sizeof buf, "%1.17g", d);
      double got = wnn_strtod(buf, NULL);
      uint64_t u = ulps(got, strtod(buf, NULL));
      if (u > worst) worst = u;
      if ((float)got != f) {
        if (count++ < 5) fprintf(stderr, "  %s read as %.9g, not %.9g\n", buf, (float)got, f);
      }
    }
  }
  CHECK(count == 0);
  fprintf(stderr, "  float32 sweep: at most %llu ulp from strtod\n", (unsigned long long)worst);
  CHECK(worst <= 2);
}

TEST(long_and_extreme_numbers_are_close) {
  char buf[64];
  uint64_t worst = 0;
  for (int i = 0; i < 200000; i++) {
    uint64_t bits = next() & 0x7FEFFFFFFFFFFFFFu; /* finite, positive */
    double d;
    memcpy(&d, &bits, 8);
    if (!(d >= 1e-300)) continue; /* leave the subnormal tail to the next check */
    snprintf(buf, sizeof buf, "%.17g", d);
    double got = wnn_strtod(buf, NULL);
    uint64_t u = ulps(got, strtod(buf, NULL));
    if (u > worst) worst = u;
  }
  fprintf(stderr, "  17-digit doubles in 1e-300..1e308: at most %llu ulp from strtod\n",
          (unsigned long long)worst);
  CHECK(worst <= 1);
  /* More digits than the 19 read: the rest only shift the exponent. */
  uint64_t worst_long = 0;
  for (int i = 0; i < 100000; i++) {
    int n = snprintf(buf, sizeof buf, "%llu%llu", (unsigned long long)(next() % 10000000000000u + 1),
                     (unsigned long long)(next() % 1000000000000u));
    snprintf(buf + n, sizeof buf - (size_t)n, "e%d", (int)(next() % 600) - 300);
    uint64_t u = ulps(wnn_strtod(buf, NULL), strtod(buf, NULL));
    if (u > worst_long) worst_long = u;
  }
  fprintf(stderr, "  20-25 digit numbers in 1e-300..1e325: at most %llu ulp from strtod\n",
          (unsigned long long)worst_long);
  CHECK(worst_long <= 1);
  CHECK(wnn_strtod("1e400", NULL) == INFINITY);
  CHECK(wnn_strtod("-1e400", NULL) == -INFINITY);
  CHECK(wnn_strtod("1e-400", NULL) == 0.0);
  CHECK(wnn_strtod("1e99999999999", NULL) == INFINITY);
  CHECK(wnn_strtod("0e99999", NULL) == 0.0);
  CHECK(wnn_strtod("1.7976931348623157e308", NULL) == DBL_MAX);
  double tiny = wnn_strtod("4.9406564584124654e-324", NULL);
  CHECK(tiny > 0 && tiny < 1e-320);
}

TEST(end_pointer_as_strtod) {
  const char *texts[] = {"", "-", "+", ".", "-.", "e5", "1e", "1e+", "1e-x", " 12abc",
                         "\t-3.5e2,", "1.2.3", "7e2e3", "--1", "  ", "1,5"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) CHECK(same(texts[i]));
  char *end = (char *)1;
  CHECK(wnn_strtod("abc", &end) == 0.0 && end != NULL && !strcmp(end, "abc"));
  CHECK(wnn_strtod("42", NULL) == 42.0);
  /* No hexadecimal form (JSON has none): "0x10" is the number 0. */
  CHECK(wnn_strtod("0x10", &end) == 0.0 && !strcmp(end, "x10"));
}

int main(void) {
  RUN(integers_are_exact);
  RUN(short_decimals_are_exact);
  RUN(every_float32_reads_back);
  RUN(long_and_extreme_numbers_are_close);
  RUN(end_pointer_as_strtod);
  return test_summary();
}
