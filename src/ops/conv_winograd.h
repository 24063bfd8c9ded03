/*
 * Winograd path for Conv: 2-D, 3x3 kernel, strides 1, dilations 1, group 1,
 * any pads (docs/winograd.md). It computes one image at a time from the
 * NCHW planes, transforming the weights at run time into scratch (no packed
 * weights are stored), tiled so that the scratch stays a few MiB:
 *
 *   for each block of output channels:   U = G g G^T for the block
 *     for each block of output tiles:    V = B^T d B (4 tiles at a time)
 *       for each of the alpha^2 positions p: M[p] = U[p] * V[p]  (the GEMM)
 *       Y = A^T M A + bias, clamped, into y
 *
 * F(4x4, 3x3) or F(2x2, 3x3) is chosen by the output plane's size
 * (wnn_conv_winograd_tile). Kernels: src/kernels/winograd.h and the selected
 * f32 GEMM.
 */
#ifndef WNN_CONV_WINOGRAD_H
#define WNN_CONV_WINOGRAD_H

#include <stddef.h>

#include "kernels/kernels.h"
#include "wnn.h"

/* 1 when the Winograd path applies and is expected to be faster than
 * im2col + GEMM: kernel 3x3, strides 1, dilations 1, and channel counts and
 * plane sizes where it was measured to win (docs/winograd.md). The window
 * cannot tell the group: call it for group == 1 convolutions only (in_c and
 * out_c are then the whole channel counts of X and W). */
int wnn_conv_winograd_applies(const wnn_window2d *win, size_t in_c, size_t out_c);

/* Scratch bytes wnn_conv_winograd_run needs (the caller provides a 64-byte
 * aligned region of at least this size; its contents need not be set). */
size_t wnn_conv_winograd_scratch_bytes(const wnn_window2d *win, size_t in_c, size_t out_c);

/* One image: x is in_c planes of in_h x in_w (NCHW), w is out_c x in_c x 3 x 3,
 * bias out_c floats or NULL, y out_c planes of out_h x out_w (overlapping
 * neither x nor w); pads from win (any, asymmetric included); each output is
 * clamped to [min, max] after the bias (the fused Relu or Clip; -INFINITY and
 * INFINITY for none). `kernels` chooses scalar or SIMD128 transforms and GEMM
 * as in wnn_prepare_ctx. Never fails, never allocates. */
void wnn_conv_winograd_run(const wnn_window2d *win, size_t in_c, size_t out_c, const float *x,
                           const float *w, const float *bias, float *y, float min, float max,
                           void *scratch, wnn_kernels kernels);

/* The tile size m (2: F(2x2, 3x3); 4: F(4x4, 3x3)) that run uses for win. */
size_t wnn_conv_winograd_tile(const wnn_window2d *win);

/* The same with an explicit tile size m of 2 or 4, for tests and
 * benchmarks: scratch bytes for that m, and run with that m. */
size_t wnn_conv_winograd_scratch_bytes_tile(const wnn_window2d *win, size_t in_c, size_t out_c,
                                            size_t m);
void wnn_conv_winograd_run_tile(const wnn_window2d *win, size_t in_c, size_t out_c,
                                const float *x, const float *w, const float *bias, float *y,
                                float min, float max, void *scratch, wnn_kernels kernels,
                                size_t m);

#endif /* WNN_CONV_WINOGRAD_H */
