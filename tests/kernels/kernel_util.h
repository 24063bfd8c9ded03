/* Shared bits of the kernel tests: a fixed-seed LCG and buffer helpers. */
#ifndef WNN_KERNEL_UTIL_H
#define WNN_KERNEL_UTIL_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"
#include "kernels/kernels.h"

static uint32_t lcg_state = 2024u;
static inline uint32_t lcg_next(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state;
}
static inline float lcg_float(void) { return (float)(lcg_next() >> 8) / 8388608.0f - 1.0f; }

static inline float *rand_floats(size_t n) {
  float *p = malloc((n ? n : 1) * sizeof *p);
  for (size_t i = 0; i < n; i++) p[i] = lcg_float();
  return p;
}

/* |x| of n floats, in a new buffer. */
static inline float *abs_floats(const float *x, size_t n) {
  float *p = malloc((n ? n : 1) * sizeof *p);
  for (size_t i = 0; i < n; i++) p[i] = fabsf(x[i]);
  return p;
}

/* The kernel tests built by the wasi-relaxed preset (clang-19,
 * -mrelaxed-simd) check dist/wnn-relaxed.wasm's kernels, whose multiply-adds
 * are relaxed SIMD's (src/kernels/wasmsimd_madd.h): fused into one rounding
 * where the engine's CPU has FMA, two roundings where it has not. Where a
 * SIMD128 build must give the scalar kernel's bits, such a build gives them
 * up to that rounding: relaxed_close() is the check those tests use. */
#if defined(__wasm_relaxed_simd__)
#define WNN_TEST_RELAXED 1
#else
#define WNN_TEST_RELAXED 0
#endif

/* Whether got[i] agrees with want[i] for each i < n, where each element is a
 * sum of at most `steps` rounded terms whose magnitudes add up to mag[i]
 * (the same computation on |inputs|): the same bits, or NaN where want is
 * NaN, or within 2 * steps * FLT_EPSILON * mag[i] (each of the two
 * computations is within steps * 2^-24 * mag[i] of the exact value, to
 * first order). Prints the first element that does not. */
static inline int relaxed_close(const float *got, const float *want, const float *mag, size_t n,
                                size_t steps) {
  for (size_t i = 0; i < n; i++) {
    if (!memcmp(&got[i], &want[i], sizeof(float))) continue;
    if (isnan(want[i]) && isnan(got[i])) continue;
    const double d = fabs((double)got[i] - (double)want[i]);
    const double tol = 2.0 * (double)steps * FLT_EPSILON * (double)mag[i] + FLT_MIN;
    if (isfinite(want[i]) && d <= tol) continue;
    printf("  element %zu: %.9g, expected %.9g (tolerance %.3g)\n", i, got[i], want[i], tol);
    return 0;
  }
  return 1;
}

#endif /* WNN_KERNEL_UTIL_H */
