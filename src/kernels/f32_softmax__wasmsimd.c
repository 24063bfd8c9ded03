/*
 * Softmax, SIMD128, for contiguous elements (stride 1; other strides go to the
 * scalar kernel). Max-subtracted like the scalar kernel, so exp only sees
 * z = x - max <= 0, evaluated with the polynomial of f32_sigmoid__wasmsimd.c
 * (same code and error: at most 2.3 ulp for normal results). Not bitwise the
 * scalar kernel's result (libm's expf, and the sum here is accumulated in 4
 * lanes): tests/kernels/test_simd_window.c allows rtol 4e-6 against it. A NaN
 * anywhere makes every output NaN, as there. In-place safe.
 *
 * Terms below FLT_MIN (z < ln FLT_MIN) are 0 instead of subnormal: x86 takes
 * a slow microcode path for every operation that makes or reads a subnormal,
 * and a masked attention row (scores plus -1e4 or the lowest float) has many
 * such terms (measured on a [4, 128, 128] Softmax with half its keys masked:
 * 2.6x slower). A subnormal term changes neither the sum (>= 1) nor any
 * output by more than 1.2e-38.
 */
#include <math.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_exp.h"

/* exp(z) for z <= 0 or NaN, 0 where z < ln FLT_MIN (NaN stays NaN: it is not
 * below the cutoff, and pmax keeps it). */
static inline v128_t exp_normal(v128_t z) {
  const v128_t cutoff = wasm_f32x4_splat(-87.33654f);
  const v128_t below = wasm_f32x4_lt(z, cutoff);
  return wasm_v128_andnot(wnn_f32x4_exp_nonpositive(wasm_f32x4_pmax(z, cutoff)), below);
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
    const v128_t e = exp_normal(wasm_f32x4_sub(wasm_v128_load(x + i), vmax));
    wasm_v128_store(y + i, e);
    vsum = wasm_f32x4_add(vsum, e);
  }
  if (i < n) {
    /* The tail through a padded vector (-inf pads give exp 0). */
    float t[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (size_t j = 0; i + j < n; j++) t[j] = x[i + j];
    const v128_t e = exp_normal(wasm_f32x4_sub(wasm_v128_load(t), vmax));
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
