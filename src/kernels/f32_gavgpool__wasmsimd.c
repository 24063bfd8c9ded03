/* Global average pooling, SIMD128. The scalar kernel keeps four partial sums,
 * s_l over the elements i with i % 4 == l (and the tail in s0), and returns
 * ((s0 + s1) + (s2 + s3)) * (1 / n): the four lanes of one v128 accumulator
 * are exactly those sums, so the result is bitwise the same. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_f32_gavgpool__wasmsimd(size_t rows, size_t n, const float *x, float *y) {
  const float scale = 1.0f / (float)n;
  for (size_t r = 0; r < rows; r++) {
    const float *xr = x + r * n;
    v128_t acc = wasm_f32x4_const_splat(0.0f);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) acc = wasm_f32x4_add(acc, wasm_v128_load(xr + i));
    float s0 = wasm_f32x4_extract_lane(acc, 0);
    for (; i < n; i++) s0 += xr[i];
    const float s1 = wasm_f32x4_extract_lane(acc, 1), s2 = wasm_f32x4_extract_lane(acc, 2);
    const float s3 = wasm_f32x4_extract_lane(acc, 3);
    y[r] = ((s0 + s1) + (s2 + s3)) * scale;
  }
}
