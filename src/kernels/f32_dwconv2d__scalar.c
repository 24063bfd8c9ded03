/* Depthwise 2-D convolution (group == channels, one filter per channel), as a
 * direct loop: im2col would copy k_h*k_w times the input for a GEMM with a
 * single row, which is all overhead. */
#include "kernels/kernels.h"

static float dot_window(const float *x, const float *w, size_t oy, size_t ox,
                        const wnn_window2d *win) {
  float acc = 0.0f;
  for (size_t ky = 0; ky < win->k_h; ky++) {
    const size_t iy_pad = oy * win->stride_h + ky * win->dil_h;
    if (iy_pad < win->pad_t || iy_pad - win->pad_t >= win->in_h) continue;
    const float *in = x + (iy_pad - win->pad_t) * win->in_w;
    for (size_t kx = 0; kx < win->k_w; kx++) {
      const size_t ix_pad = ox * win->stride_w + kx * win->dil_w;
      if (ix_pad < win->pad_l || ix_pad - win->pad_l >= win->in_w) continue;
      acc += w[ky * win->k_w + kx] * in[ix_pad - win->pad_l];
    }
  }
  return acc;
}

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
        yc[oy * win->out_w + ox] = b + dot_window(xc, wc, oy, ox, win);
  }
}
