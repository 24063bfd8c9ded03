/* The FILL params' pattern fill (kernels.h, wnn_xx_fill_ukernel), scalar: 16
 * bytes per step as fixed-size copies the compiler turns into word stores (a
 * memcpy call per element ran at 1.8 GB/s in V8, whose standalone module's
 * __memcpy is a plain loop), then the tail. */
#include <string.h>

#include "kernels/kernels.h"

void wnn_xx_fill__scalar(size_t nbytes, const uint8_t *pattern, uint8_t *y) {
  size_t at = 0;
  uint64_t w[2];
  memcpy(w, pattern, sizeof w);
  for (; nbytes - at >= 16; at += 16) memcpy(y + at, w, sizeof w);
  for (; at < nbytes; at++) y[at] = pattern[at % 16];
}
