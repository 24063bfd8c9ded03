/*
 * Layer normalization of rows, SIMD128, with the scalar kernel's numerics:
 * the mean first, then the mean squared deviation from it (two passes, never
 * E[x^2] - E[x]^2, which cancels when the mean is large against the spread),
 * then y = (x - mean) * inv_std * scale + bias, evaluated in that order per
 * element as the scalar kernel does. The sums are kept in two v128
 * accumulators (8 lanes: lane l sums the elements i with i % 8 == l, up to
 * the last multiple of 8), which are added lane-wise and then as
 * (l0 + l1) + (l2 + l3), and then the n % 8 tail in order (the output pass
 * goes 4 at a time, its n % 4 tail one by one): not the scalar kernel's
 * sequential order, so mean and
 * inv_std may differ from its in the last bits
 * (tests/kernels/test_simd_norm_transpose.c bounds both against double
 * precision; 8 short chains instead of one long one make the sum's error
 * bound smaller). Two accumulators, not one: the adds' latency bounds these
 * passes (docs/kernels.md). y may be x; bias may be NULL.
 */
#include <math.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"

static float hsum(v128_t v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
         (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}

void wnn_f32_layernorm__wasmsimd(size_t rows, size_t n, const float *x, const float *scale,
                                 const float *bias, float *y, float *mean, float *inv_std,
                                 float eps) {
  const size_t n4 = n & ~(size_t)3;
  for (size_t r = 0; r < rows; r++, x += n, y += n) {
    v128_t a0 = wasm_f32x4_const_splat(0.0f), a1 = a0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      a0 = wasm_f32x4_add(a0, wasm_v128_load(x + i));
      a1 = wasm_f32x4_add(a1, wasm_v128_load(x + i + 4));
    }
    float sum = hsum(wasm_f32x4_add(a0, a1));
    const size_t n8 = i;
    for (; i < n; i++) sum += x[i];
    const float m = sum / (float)n;

    const v128_t vm = wasm_f32x4_splat(m);
    a0 = a1 = wasm_f32x4_const_splat(0.0f);
    for (i = 0; i + 8 <= n; i += 8) {
      const v128_t d0 = wasm_f32x4_sub(wasm_v128_load(x + i), vm);
      const v128_t d1 = wasm_f32x4_sub(wasm_v128_load(x + i + 4), vm);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(d0, d0));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(d1, d1));
    }
    float sq = hsum(wasm_f32x4_add(a0, a1));
    for (i = n8; i < n; i++) sq += (x[i] - m) * (x[i] - m);
    const float inv = 1.0f / sqrtf(sq / (float)n + eps);
    if (mean) mean[r] = m;
    if (inv_std) inv_std[r] = inv;

    const v128_t vinv = wasm_f32x4_splat(inv);
    for (i = 0; i < n4; i += 4) {
      v128_t v = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(x + i), vm), vinv),
                                wasm_v128_load(scale + i));
      if (bias) v = wasm_f32x4_add(v, wasm_v128_load(bias + i));
      wasm_v128_store(y + i, v);
    }
    for (i = n4; i < n; i++) {
      const float v = (x[i] - m) * inv * scale[i];
      y[i] = bias ? v + bias[i] : v;
    }
  }
}
