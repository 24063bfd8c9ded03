/*
 * Softmax, SIMD128, for contiguous elements (stride 1; other strides go to the
 * scalar kernel). Max-subtracted like the scalar kernel, so exp only sees
 * z = x - max <= 0, evaluated with the polynomial of f32_sigmoid__wasmsimd.c
 * (same code and error: at most 2.3 ulp for normal results). Not bitwise the
 * scalar kernel's result (libm's expf, and the sum here is accumulated in 4
 * lanes): tests/kernels/test_simd_window.c allows rtol 4e-6 against it. A NaN
 * anywhere makes every output NaN, as there. In-place safe.
 */
#include <math.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"

/* exp(z) for z <= 0 (or NaN); see f32_sigmoid__wasmsimd.c for the method. */
static inline v128_t exp_nonpositive(v128_t z) {
  const v128_t log2e = wasm_f32x4_splat(1.44269504088896341f);
  const v128_t ln2_hi = wasm_f32x4_splat(0.693145751953125f);
  const v128_t ln2_lo = wasm_f32x4_splat(1.428606765330187045e-06f);
  z = wasm_f32x4_pmax(z, wasm_f32x4_splat(-104.0f));
  const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(z, log2e));
  v128_t r = wasm_f32x4_sub(z, wasm_f32x4_mul(n, ln2_hi));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, ln2_lo));
  v128_t p = wasm_f32x4_splat(1.0f / 5040.0f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 720.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 120.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 24.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f / 6.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0.5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  const v128_t ni = wasm_i32x4_trunc_sat_f32x4(n);
  const v128_t n1 = wasm_i32x4_shr(ni, 1), n2 = wasm_i32x4_sub(ni, n1);
  const v128_t bias = wasm_i32x4_splat(127);
  const v128_t s1 = wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23);
  const v128_t s2 = wasm_i32x4_shl(wasm_i32x4_add(n2, bias), 23);
  return wasm_f32x4_mul(wasm_f32x4_mul(p, s1), s2);
}

void wnn_f32_softmax__wasmsimd(size_t n, size_t stride, const float *x, float *y) {
  if (stride != 1) {
    wnn_f32_softmax__scalar(n, stride, x, y);
    return;
  }
  /* The scalar kernel's max (`v > m ? v : m` from x[0]), lane-wise: exact. */
  v128_t vm = wasm_f32x4_splat(x[0]);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t v = wasm_v128_load(x + i);
    vm = wasm_v128_bitselect(v, vm, wasm_f32x4_gt(v, vm));
  }
  float max = x[0];
  for (int l = 0; l < 4; l++) {
    float lane[4];
    wasm_v128_store(lane, vm);
    max = lane[l] > max ? lane[l] : max;
  }
  for (; i < n; i++) max = x[i] > max ? x[i] : max;

  const v128_t vmax = wasm_f32x4_splat(max);
  v128_t vsum = wasm_f32x4_const_splat(0.0f);
  for (i = 0; i + 4 <= n; i += 4) {
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(x + i), vmax));
    wasm_v128_store(y + i, e);
    vsum = wasm_f32x4_add(vsum, e);
  }
  if (i < n) {
    /* The tail through a padded vector (-inf pads give exp 0). */
    float t[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (size_t j = 0; i + j < n; j++) t[j] = x[i + j];
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(t), vmax));
    wasm_v128_store(t, e);
    for (size_t j = 0; i + j < n; j++) y[i + j] = t[j];
    vsum = wasm_f32x4_add(vsum, e);
  }
  const float sum = (wasm_f32x4_extract_lane(vsum, 0) + wasm_f32x4_extract_lane(vsum, 1)) +
                    (wasm_f32x4_extract_lane(vsum, 2) + wasm_f32x4_extract_lane(vsum, 3));
  const v128_t inv = wasm_f32x4_splat(1.0f / sum);
  for (i = 0; i + 4 <= n; i += 4) wasm_v128_store(y + i, wasm_f32x4_mul(wasm_v128_load(y + i), inv));
  const float finv = 1.0f / sum;
  for (; i < n; i++) y[i] *= finv;
}
