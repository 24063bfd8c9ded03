/* im2col for 2-D convolution: one row of col per (channel, ky, kx) tap, one
 * column per output pixel. The GEMM then multiplies W (M x C*k_h*k_w) by col.
 * The whole matrix is the tile of every output pixel. */
#include "kernels/kernels.h"

void wnn_f32_im2col__scalar(size_t channels, const float *x, float *col,
                            const wnn_window2d *win) {
  wnn_f32_im2col_tile__scalar(channels, x, 0, win->out_h * win->out_w, col, win);
}
