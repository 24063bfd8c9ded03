/* y = max(x, 0), SIMD128. pmax(v, 0) is exactly `v < 0 ? 0 : v`, the scalar
 * kernel's expression: NaN stays NaN and -0 stays -0. In-place safe. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_f32_relu__wasmsimd(size_t n, const float *x, float *y,
                            const wnn_f32_unary_params *params) {
  const v128_t zero = wasm_f32x4_const_splat(0.0f);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t r0 = wasm_f32x4_pmax(wasm_v128_load(x + i), zero);
    const v128_t r1 = wasm_f32x4_pmax(wasm_v128_load(x + i + 4), zero);
    const v128_t r2 = wasm_f32x4_pmax(wasm_v128_load(x + i + 8), zero);
    const v128_t r3 = wasm_f32x4_pmax(wasm_v128_load(x + i + 12), zero);
    wasm_v128_store(y + i, r0);
    wasm_v128_store(y + i + 4, r1);
    wasm_v128_store(y + i + 8, r2);
    wasm_v128_store(y + i + 12, r3);
  }
  for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, wasm_f32x4_pmax(wasm_v128_load(x + i), zero));
  for (; i < n; i++) {
    const float v = x[i];
    y[i] = v < 0.0f ? 0.0f : v;
  }
}
