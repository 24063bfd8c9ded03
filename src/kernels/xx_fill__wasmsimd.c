/* The FILL params' pattern fill (kernels.h, wnn_xx_fill_ukernel), SIMD128:
 * 16 bytes per store, then the tail. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_xx_fill__wasmsimd(size_t nbytes, const uint8_t *pattern, uint8_t *y) {
  size_t at = 0;
  const v128_t v = wasm_v128_load(pattern);
  for (; nbytes - at >= 16; at += 16) wasm_v128_store(y + at, v);
  for (; at < nbytes; at++) y[at] = pattern[at % 16];
}
