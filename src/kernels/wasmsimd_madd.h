/*
 * wnn_f32x4_madd(acc, a, b): acc + a * b, lane by lane, for the SIMD128
 * kernels whose inner loop is a multiply-add over independent accumulators
 * (the GEMM tiles; the depthwise convolution's chains are latency-bound and
 * keep a separate multiply and add: f32_dwconv2d__wasmsimd.c).
 *
 * In dist/wnn.wasm (SIMD128 only) it is a rounded multiply then a rounded
 * add: bitwise the scalar kernels' arithmetic. dist/wnn-relaxed.wasm compiles
 * the same kernels with -mrelaxed-simd (__wasm_relaxed_simd__), where it is
 * f32x4.relaxed_madd: the engine fuses it into one rounding where the CPU has
 * a fused multiply-add (x86-64 with FMA3, ARM64), or does the two roundings
 * where it has not. So that module's results may differ from the reference by
 * the rounding of each step, never by more (docs/kernels.md, "Relaxed
 * SIMD").
 */
#ifndef WNN_KERNELS_WASMSIMD_MADD_H
#define WNN_KERNELS_WASMSIMD_MADD_H

#include <wasm_simd128.h>

static inline __attribute__((always_inline)) v128_t wnn_f32x4_madd(v128_t acc, v128_t a,
                                                                   v128_t b) {
#ifdef __wasm_relaxed_simd__
  return wasm_f32x4_relaxed_madd(a, b, acc);
#else
  return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b));
#endif
}

#endif
