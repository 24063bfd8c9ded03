/* Depthwise 2-D convolution (group == channels, one filter per channel), as a
 * direct loop: im2col would copy k_h*k_w times the input for a GEMM with a
 * single row, which is all overhead. */
#include "kernels/kernels.h"
#include "kernels/window2d.h"

void wnn_f32_dwconv2d__scalar(size_t channels, const float *x, const float *w,
                              const float *bias, float *y, const wnn_window2d *win) {
  const size_t in_plane = win->in_h * win->in_w;
  const size_t out_plane = win->out_h * win->out_w;
  const size_t taps = win->k_h * win->k_w;
  for (size_t c = 0; c < channels; c++) {
    const float b = bias ? bias[c] : 0.0f;
    const float *xc = x + c * in_plane, *wc = w + c * taps;
    float *yc = y + c * out_plane;
    for (size_t oy = 0; oy < win->out_h; oy++)
      for (size_t ox = 0; ox < win->out_w; ox++)
        yc[oy * win->out_w + ox] = b + wnn_window2d_dot(xc, wc, oy, ox, win);
  }
}
