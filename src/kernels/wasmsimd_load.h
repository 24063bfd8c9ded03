/* Four floats at stride s, for the SIMD128 window kernels (contiguous and
 * stride-2 loads are vector loads). Always inlined: it sits in the innermost
 * loops, where the callers pass s as a constant so that only one of the three
 * paths remains; at -Os clang kept it out of line, a call and two branches per
 * 4 floats. Include only in SIMD128 kernel files. */
#ifndef WNN_KERNELS_WASMSIMD_LOAD_H
#define WNN_KERNELS_WASMSIMD_LOAD_H

#include <wasm_simd128.h>

static inline __attribute__((always_inline)) v128_t wnn_v128_load_strided(const float *p,
                                                                          size_t s) {
  if (s == 1) return wasm_v128_load(p);
  if (s == 2) return wasm_i32x4_shuffle(wasm_v128_load(p), wasm_v128_load(p + 3), 0, 2, 5, 7);
  return wasm_f32x4_make(p[0], p[s], p[2 * s], p[3 * s]);
}

#endif /* WNN_KERNELS_WASMSIMD_LOAD_H */
