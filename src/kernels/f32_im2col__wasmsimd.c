/* im2col for 2-D convolution, SIMD128: the tile of every output pixel
 * (wnn_f32_im2col_tile__wasmsimd), the same matrix as wnn_f32_im2col__scalar. */
#include "kernels/kernels.h"

void wnn_f32_im2col__wasmsimd(size_t channels, const float *x, float *col,
                              const wnn_window2d *win) {
  wnn_f32_im2col_tile__wasmsimd(channels, x, 0, win->out_h * win->out_w, col, win);
}
