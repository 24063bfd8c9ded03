/*
 * A tiny test harness shared by every C test program. Each program defines its
 * tests with TEST(name) and lists them in main with RUN(name); main ends with
 * `return test_summary();`, which prints "N passed, N failed" and returns
 * non-zero when anything failed. The same programs run natively and as WASI
 * modules under Node.
 */
#ifndef WNN_TEST_H
#define WNN_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed_, test_failed_, test_current_failed_;
static const char *test_current_;

#define TEST(name) static void name(void)

#define RUN(name)                                                        \
  do {                                                                   \
    test_current_ = #name;                                               \
    test_current_failed_ = 0;                                            \
    name();                                                              \
    if (test_current_failed_) {                                          \
      test_failed_++;                                                    \
      printf("FAIL %s\n", #name);                                        \
    } else {                                                             \
      test_passed_++;                                                    \
      printf("ok   %s\n", #name);                                        \
    }                                                                    \
  } while (0)

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) {                                                       \
      printf("  %s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__,      \
             test_current_, #cond);                                      \
      test_current_failed_ = 1;                                          \
    }                                                                    \
  } while (0)

/* Checks a wnn_status-returning expression against an expected status and
 * prints the library's message when it differs. */
#define CHECK_STATUS(expr, expected)                                     \
  do {                                                                   \
    int st_ = (int)(expr);                                               \
    if (st_ != (int)(expected)) {                                        \
      printf("  %s:%d: %s: %s gave %d (%s), wanted %d: %s\n", __FILE__,  \
             __LINE__, test_current_, #expr, st_,                        \
             wnn_status_str((wnn_status)st_), (int)(expected),           \
             wnn_last_error());                                          \
      test_current_failed_ = 1;                                          \
    }                                                                    \
  } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, WNN_OK)

/* Element-wise closeness with numpy's allclose semantics. */
static inline int test_allclose(const float *got, const float *want, size_t n, float rtol,
                                float atol) {
  for (size_t i = 0; i < n; i++) {
    float d = fabsf(got[i] - want[i]);
    if (!(d <= atol + rtol * fabsf(want[i]))) {
      printf("  %s: element %zu: got %.9g, want %.9g\n", test_current_, i, got[i], want[i]);
      return 0;
    }
  }
  return 1;
}

static inline int test_summary(void) {
  printf("%d passed, %d failed\n", test_passed_, test_failed_);
  return test_failed_ ? 1 : 0;
}

#endif /* WNN_TEST_H */
