/* y = min(max(x, min), max), SIMD128. pmax(v, lo) is exactly `v < lo ? lo : v`
 * and pmin(v, hi) is `hi < v ? hi : v`, the scalar kernel's comparisons, so
 * NaN stays NaN and the results are the same bits. In-place safe. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_f32_clamp__wasmsimd(size_t n, const float *x, float *y,
                             const wnn_f32_unary_params *params) {
  const float lo = params->min, hi = params->max;
  const v128_t vlo = wasm_f32x4_splat(lo), vhi = wasm_f32x4_splat(hi);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128_t r0 = wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_v128_load(x + i), vlo), vhi);
    const v128_t r1 = wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_v128_load(x + i + 4), vlo), vhi);
    const v128_t r2 = wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_v128_load(x + i + 8), vlo), vhi);
    const v128_t r3 = wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_v128_load(x + i + 12), vlo), vhi);
    wasm_v128_store(y + i, r0);
    wasm_v128_store(y + i + 4, r1);
    wasm_v128_store(y + i + 8, r2);
    wasm_v128_store(y + i + 12, r3);
  }
  for (; i + 4 <= n; i += 4)
    wasm_v128_store(y + i, wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_v128_load(x + i), vlo), vhi));
  for (; i < n; i++) {
    float v = x[i];
    v = v < lo ? lo : v;
    y[i] = v > hi ? hi : v;
  }
}
