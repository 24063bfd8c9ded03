/* Shared bits of the kernel tests: a fixed-seed LCG and buffer helpers. */
#ifndef WNN_KERNEL_UTIL_H
#define WNN_KERNEL_UTIL_H

#include <stdint.h>
#include <stdlib.h>

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

#endif /* WNN_KERNEL_UTIL_H */
