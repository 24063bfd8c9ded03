/* Nearest upsampling of a row by an integer factor (kernels.h,
 * wnn_f32_repeat_ukernel), SIMD128: factor 2 (the common 2x upsample) as two
 * lane shuffles per 4 inputs; any other factor as a splat stored k / 4 times
 * and a scalar tail. The values are copied bit for bit. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_f32_repeat__wasmsimd(size_t n, size_t k, const float *x, float *y) {
  size_t i = 0;
  if (k == 2) {
    for (; i + 4 <= n; i += 4) {
      const v128_t v = wasm_v128_load(x + i);
      wasm_v128_store(y + 2 * i, wasm_i32x4_shuffle(v, v, 0, 0, 1, 1));
      wasm_v128_store(y + 2 * i + 4, wasm_i32x4_shuffle(v, v, 2, 2, 3, 3));
    }
  } else if (k >= 4) {
    for (; i < n; i++) {
      const v128_t v = wasm_v128_load32_splat(x + i);
      float *out = y + i * k;
      size_t j = 0;
      for (; j + 4 <= k; j += 4) wasm_v128_store(out + j, v);
      for (; j < k; j++) out[j] = x[i];
    }
  }
  for (; i < n; i++)
    for (size_t j = 0; j < k; j++) y[i * k + j] = x[i];
}
