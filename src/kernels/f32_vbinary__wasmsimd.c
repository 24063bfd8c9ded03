/* f32 add/sub/mul/div, SIMD128: 16 elements per step (four v128), then 4, then
 * a scalar tail. One IEEE operation per element, as in the scalar kernels, so
 * the results are the same bits. Each element is read before it is written,
 * so y may alias a or b. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

#define VV(name, vop, sop)                                                        \
  void name(size_t n, const float *a, const float *b, float *y) {                 \
    size_t i = 0;                                                                 \
    for (; i + 16 <= n; i += 16) {                                                \
      const v128_t r0 = vop(wasm_v128_load(a + i), wasm_v128_load(b + i));        \
      const v128_t r1 = vop(wasm_v128_load(a + i + 4), wasm_v128_load(b + i + 4)); \
      const v128_t r2 = vop(wasm_v128_load(a + i + 8), wasm_v128_load(b + i + 8)); \
      const v128_t r3 = vop(wasm_v128_load(a + i + 12), wasm_v128_load(b + i + 12)); \
      wasm_v128_store(y + i, r0);                                                 \
      wasm_v128_store(y + i + 4, r1);                                             \
      wasm_v128_store(y + i + 8, r2);                                             \
      wasm_v128_store(y + i + 12, r3);                                            \
    }                                                                             \
    for (; i + 4 <= n; i += 4)                                                    \
      wasm_v128_store(y + i, vop(wasm_v128_load(a + i), wasm_v128_load(b + i)));  \
    for (; i < n; i++) y[i] = a[i] sop b[i];                                      \
  }

/* VC: y = a op c; RVC (reversed): y = c op a. */
#define VC(name, vop, sop, REV)                                                   \
  void name(size_t n, const float *a, const float *b, float *y) {                 \
    const float c = b[0];                                                         \
    const v128_t vc = wasm_f32x4_splat(c);                                        \
    size_t i = 0;                                                                 \
    for (; i + 16 <= n; i += 16) {                                                \
      const v128_t r0 = REV(vop, wasm_v128_load(a + i), vc);                      \
      const v128_t r1 = REV(vop, wasm_v128_load(a + i + 4), vc);                  \
      const v128_t r2 = REV(vop, wasm_v128_load(a + i + 8), vc);                  \
      const v128_t r3 = REV(vop, wasm_v128_load(a + i + 12), vc);                 \
      wasm_v128_store(y + i, r0);                                                 \
      wasm_v128_store(y + i + 4, r1);                                             \
      wasm_v128_store(y + i + 8, r2);                                             \
      wasm_v128_store(y + i + 12, r3);                                            \
    }                                                                             \
    for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, REV(vop, wasm_v128_load(a + i), vc)); \
    for (; i < n; i++) y[i] = REV(SCALAR_##sop, a[i], c);                         \
  }

#define FWD(f, x, c) f(x, c)
#define BWD(f, x, c) f(c, x)
#define SCALAR_ADD(x, y) ((x) + (y))
#define SCALAR_SUB(x, y) ((x) - (y))
#define SCALAR_MUL(x, y) ((x) * (y))
#define SCALAR_DIV(x, y) ((x) / (y))

VV(wnn_f32_vadd__wasmsimd, wasm_f32x4_add, +)
VC(wnn_f32_vaddc__wasmsimd, wasm_f32x4_add, ADD, FWD)
VV(wnn_f32_vsub__wasmsimd, wasm_f32x4_sub, -)
VC(wnn_f32_vsubc__wasmsimd, wasm_f32x4_sub, SUB, FWD)
VC(wnn_f32_vrsubc__wasmsimd, wasm_f32x4_sub, SUB, BWD)
VV(wnn_f32_vmul__wasmsimd, wasm_f32x4_mul, *)
VC(wnn_f32_vmulc__wasmsimd, wasm_f32x4_mul, MUL, FWD)
VV(wnn_f32_vdiv__wasmsimd, wasm_f32x4_div, /)
VC(wnn_f32_vdivc__wasmsimd, wasm_f32x4_div, DIV, FWD)
VC(wnn_f32_vrdivc__wasmsimd, wasm_f32x4_div, DIV, BWD)
