/* DynamicQuantizeLinear's range, SIMD128: 8 elements a step in two pairs of
 * 4-lane accumulators that start at +0; pmin(lo, x) is `x < lo ? x : lo` and
 * pmax(hi, x) is `x > hi ? x : hi`, the scalar kernel's comparisons, so NaN
 * is skipped. The lanes are then folded with the same comparisons. The result
 * is the scalar kernel's: the least (greatest) value is the same whatever the
 * order, and -0 never replaces the starting +0 (-0 < +0 is false). */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_f32_qrange__wasmsimd(size_t n, const float *x, float *min, float *max) {
  v128_t lo0 = wasm_f32x4_const_splat(0.0f), lo1 = lo0, hi0 = lo0, hi1 = lo0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t a = wasm_v128_load(x + i), b = wasm_v128_load(x + i + 4);
    lo0 = wasm_f32x4_pmin(lo0, a), hi0 = wasm_f32x4_pmax(hi0, a);
    lo1 = wasm_f32x4_pmin(lo1, b), hi1 = wasm_f32x4_pmax(hi1, b);
  }
  lo0 = wasm_f32x4_pmin(lo0, lo1), hi0 = wasm_f32x4_pmax(hi0, hi1);
  float l[4], h[4];
  wasm_v128_store(l, lo0), wasm_v128_store(h, hi0);
  float lo = 0.0f, hi = 0.0f;
  for (int k = 0; k < 4; k++) {
    lo = l[k] < lo ? l[k] : lo;
    hi = h[k] > hi ? h[k] : hi;
  }
  for (; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  *min = lo, *max = hi;
}
