/*
 * The fused activation of Conv and Gemm, SIMD128: 4 lanes at a time, the
 * ragged tail of each row through a padded vector. Bitwise the same as
 * wnn_f32_act__scalar except SIGMOID and SILU: the clamps are pmax/pmin,
 * which are exactly `v < lo ? lo : v` and `hi < v ? hi : v` (NaN passes
 * through), and the other formulas do the scalar kernel's operations in its
 * order. SIGMOID evaluates exp with the polynomial of kernels/wasmsimd_exp.h
 * as wnn_f32_sigmoid__wasmsimd does (within 2.5 ulp of the exact value, the
 * same bits as that kernel); SILU multiplies x by it, as Mul would.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_exp.h"

static inline __attribute__((always_inline)) v128_t act4(int kind, v128_t x, v128_t a, v128_t b) {
  const v128_t zero = wasm_f32x4_const_splat(0.0f), one = wasm_f32x4_const_splat(1.0f);
  switch (kind) {
    case WNN_ACT_RELU: return wasm_f32x4_pmax(x, zero);
    case WNN_ACT_CLIP: return wasm_f32x4_pmin(wasm_f32x4_pmax(x, a), b);
    case WNN_ACT_SIGMOID:
    case WNN_ACT_SILU: {
      const v128_t e = wnn_f32x4_exp_nonpositive(wasm_f32x4_neg(wasm_f32x4_abs(x)));
      const v128_t num = wasm_v128_bitselect(e, one, wasm_f32x4_lt(x, zero));
      const v128_t s = wasm_f32x4_div(num, wasm_f32x4_add(one, e));
      return kind == WNN_ACT_SILU ? wasm_f32x4_mul(x, s) : s;
    }
    case WNN_ACT_HARDSIGMOID: {
      const v128_t v = wasm_f32x4_add(wasm_f32x4_mul(a, x), b);
      return wasm_f32x4_pmin(wasm_f32x4_pmax(v, zero), one);
    }
    case WNN_ACT_HARDSWISH: {
      const v128_t v = wasm_f32x4_add(wasm_f32x4_div(x, wasm_f32x4_const_splat(6.0f)),
                                      wasm_f32x4_const_splat(0.5f));
      return wasm_f32x4_mul(x, wasm_f32x4_pmin(wasm_f32x4_pmax(v, zero), one));
    }
    case WNN_ACT_LEAKYRELU:
      return wasm_v128_bitselect(wasm_f32x4_mul(a, x), x, wasm_f32x4_lt(x, zero));
    default: return x;
  }
}

/* One row; kind is a constant after inlining into the switch below. */
static inline __attribute__((always_inline)) void act_row(int kind, size_t n, float *y, v128_t a,
                                                          v128_t b) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t v0 = wasm_v128_load(y + i), v1 = wasm_v128_load(y + i + 4);
    wasm_v128_store(y + i, act4(kind, v0, a, b));
    wasm_v128_store(y + i + 4, act4(kind, v1, a, b));
  }
  for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, act4(kind, wasm_v128_load(y + i), a, b));
  if (i < n) {
    float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (size_t j = 0; i + j < n; j++) t[j] = y[i + j];
    wasm_v128_store(t, act4(kind, wasm_v128_load(t), a, b));
    for (size_t j = 0; i + j < n; j++) y[i + j] = t[j];
  }
}

#define ROWS(kind)                                                        \
  for (size_t r = 0; r < rows; r++) act_row(kind, n, y + r * y_rs, a, b); \
  break

void wnn_f32_act__wasmsimd(size_t rows, size_t n, float *y, size_t y_rs,
                           const wnn_f32_act_params *params) {
  const v128_t a = wasm_f32x4_splat(params->p0), b = wasm_f32x4_splat(params->p1);
  switch (params->kind) {
    case WNN_ACT_RELU: ROWS(WNN_ACT_RELU);
    case WNN_ACT_CLIP: ROWS(WNN_ACT_CLIP);
    case WNN_ACT_SIGMOID: ROWS(WNN_ACT_SIGMOID);
    case WNN_ACT_HARDSIGMOID: ROWS(WNN_ACT_HARDSIGMOID);
    case WNN_ACT_HARDSWISH: ROWS(WNN_ACT_HARDSWISH);
    case WNN_ACT_LEAKYRELU: ROWS(WNN_ACT_LEAKYRELU);
    case WNN_ACT_SILU: ROWS(WNN_ACT_SILU);
    default: break;
  }
}
