/* im2col for 2-D convolution: one row of col per (channel, ky, kx) tap, one
 * column per output pixel. The GEMM then multiplies W (M x C*k_h*k_w) by col. */
#include "kernels/kernels.h"

/* Fills one row of col: the input pixels tap (ky, kx) of channel plane x sees. */
static void im2col_row(const float *x, float *row, size_t ky, size_t kx,
                       const wnn_window2d *w) {
  for (size_t oy = 0; oy < w->out_h; oy++) {
    float *out = row + oy * w->out_w;
    /* iy = oy * stride_h + ky * dil_h - pad_t, computed without going negative. */
    const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
    if (iy_pad < w->pad_t || iy_pad - w->pad_t >= w->in_h) {
      for (size_t ox = 0; ox < w->out_w; ox++) out[ox] = 0.0f;
      continue;
    }
    const float *in = x + (iy_pad - w->pad_t) * w->in_w;
    size_t ix_pad = kx * w->dil_w;
    for (size_t ox = 0; ox < w->out_w; ox++, ix_pad += w->stride_w) {
      const bool inside = ix_pad >= w->pad_l && ix_pad - w->pad_l < w->in_w;
      out[ox] = inside ? in[ix_pad - w->pad_l] : 0.0f;
    }
  }
}

void wnn_f32_im2col__scalar(size_t channels, const float *x, float *col,
                            const wnn_window2d *win) {
  const size_t plane = win->in_h * win->in_w;
  const size_t cols = win->out_h * win->out_w;
  float *row = col;
  for (size_t c = 0; c < channels; c++)
    for (size_t ky = 0; ky < win->k_h; ky++)
      for (size_t kx = 0; kx < win->k_w; kx++, row += cols)
        im2col_row(x + c * plane, row, ky, kx, win);
}
