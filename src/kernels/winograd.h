/*
 * Winograd minimal-filtering transforms for 3x3 convolutions, stride 1,
 * dilation 1 (Lavin and Gray, "Fast Algorithms for Convolutional Neural
 * Networks", 2015). F(m x m, 3 x 3) computes an m x m block of outputs (a
 * tile) from an alpha x alpha block of inputs, alpha = m + 2, as
 *
 *   Y = A^T [ (G g G^T) .* (B^T d B) ] A
 *
 * so that a convolution becomes alpha^2 independent matrix products, one per
 * position p of the transformed tile, summed over input channels:
 *   M[p] (out_c x tiles) = U[p] (out_c x in_c) * V[p] (in_c x tiles).
 * Two sizes: F(2x2, 3x3) (alpha 4: 16 products instead of 36 multiplies per
 * output pair of channels, 2.25x fewer) and F(4x4, 3x3) (alpha 6, points
 * 0, +-1, +-2: 36 instead of 144, 4x fewer, at some cost in accuracy; see
 * docs/winograd.md for the measured errors).
 *
 * The input and output transforms work on 4 tiles at once (the 4 lanes of a
 * v128 in the SIMD128 variants), so that V[p] and M[p] hold 4 consecutive
 * tiles contiguously. The scalar and SIMD128 variants do the same float
 * operations in the same order: their results are bitwise identical.
 * These are microkernels: no allocation, no failure; outputs overlap no input.
 * The driver that tiles a whole convolution is src/ops/conv_winograd.c.
 */
#ifndef WNN_KERNELS_WINOGRAD_H
#define WNN_KERNELS_WINOGRAD_H

#include <stddef.h>

/* Fully unrolls the fixed-count loop that follows, in every build (-Os
 * included): the transforms keep their tiles in arrays of 16 to 36 values,
 * which only unrolled loops let the compiler hold in registers instead of
 * the stack (in wasm, linear memory). For the kernel files only. */
#if defined(__clang__)
#define WNN_WINOGRAD_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define WNN_WINOGRAD_UNROLL _Pragma("GCC unroll 64")
#else
#define WNN_WINOGRAD_UNROLL
#endif

/* Input transform of 4 tiles t < 4 of `channels` channels c:
 *   v[p * v_ps + c * v_cs + t] = (B^T d_ct B)[p],  p = i * alpha + j < alpha^2,
 *   d_ct[i][j] = d[c * d_cs + i * d_rs + t * d_ts + j],  i, j < alpha.
 * d_ts == m (4 horizontally adjacent tiles, whose windows overlap by 2
 * columns) takes contiguous vector loads in the SIMD128 variants; any other
 * d_ts is gathered lane by lane. */
typedef void wnn_f32_winograd_input_ukernel(size_t channels, const float *d, size_t d_cs,
                                            size_t d_rs, size_t d_ts, float *v, size_t v_ps,
                                            size_t v_cs);

/* Weight transform of out_c x in_c 3x3 filters g_oc = w + (o * in_c + c) * 9
 * (row-major, as ONNX's W[o][c][ky][kx]):
 *   u[p * u_ps + o * u_os + c] = (G g_oc G^T)[p],  o < out_c, c < in_c. */
typedef void wnn_f32_winograd_weight_ukernel(size_t out_c, size_t in_c, const float *w,
                                             float *u, size_t u_ps, size_t u_os);

/* Output transform of 4 horizontally adjacent tiles t < 4 of `channels`
 * channels c:
 *   y[c * y_cs + i * y_rs + t * m + j] = clamp((A^T m_ct A)[i][j] + bias[c], min, max),
 *   m_ct[p] = m[p * m_ps + c * m_cs + t],  i, j < m (the tile size),
 * clamp(v, lo, hi) = (v < lo ? lo : v) then (hi < v ? hi : v): NaN passes.
 * bias may be NULL (no bias). y_ts must be m: each row i of the 4 tiles is
 * 4 m contiguous outputs (the SIMD128 variants store them as vectors; edge
 * tiles go through a buffer in the driver). */
typedef void wnn_f32_winograd_output_ukernel(size_t channels, const float *m, size_t m_ps,
                                             size_t m_cs, const float *bias, float *y,
                                             size_t y_cs, size_t y_rs, size_t y_ts, float min,
                                             float max);

/* F(2x2, 3x3): alpha 4. */
wnn_f32_winograd_input_ukernel wnn_f32_winograd_f23_input__scalar;
wnn_f32_winograd_weight_ukernel wnn_f32_winograd_f23_weight__scalar;
wnn_f32_winograd_output_ukernel wnn_f32_winograd_f23_output__scalar;
/* F(4x4, 3x3): alpha 6. */
wnn_f32_winograd_input_ukernel wnn_f32_winograd_f43_input__scalar;
wnn_f32_winograd_weight_ukernel wnn_f32_winograd_f43_weight__scalar;
wnn_f32_winograd_output_ukernel wnn_f32_winograd_f43_output__scalar;

#if defined(__wasm_simd128__)
wnn_f32_winograd_input_ukernel wnn_f32_winograd_f23_input__wasmsimd;
wnn_f32_winograd_weight_ukernel wnn_f32_winograd_f23_weight__wasmsimd;
wnn_f32_winograd_output_ukernel wnn_f32_winograd_f23_output__wasmsimd;
wnn_f32_winograd_input_ukernel wnn_f32_winograd_f43_input__wasmsimd;
wnn_f32_winograd_weight_ukernel wnn_f32_winograd_f43_weight__wasmsimd;
wnn_f32_winograd_output_ukernel wnn_f32_winograd_f43_output__wasmsimd;
#endif

#endif /* WNN_KERNELS_WINOGRAD_H */
