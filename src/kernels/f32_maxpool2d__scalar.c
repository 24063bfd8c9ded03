/* 2-D max pooling with dilation; padding never wins (it is not a value). */
#include <math.h>

#include "kernels/kernels.h"

static float window_max(const float *x, size_t oy, size_t ox, const wnn_window2d *w) {
  float m = -INFINITY;
  for (size_t ky = 0; ky < w->k_h; ky++) {
    const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
    if (iy_pad < w->pad_t || iy_pad - w->pad_t >= w->in_h) continue;
    const float *in = x + (iy_pad - w->pad_t) * w->in_w;
    for (size_t kx = 0; kx < w->k_w; kx++) {
      const size_t ix_pad = ox * w->stride_w + kx * w->dil_w;
      if (ix_pad < w->pad_l || ix_pad - w->pad_l >= w->in_w) continue;
      const float v = in[ix_pad - w->pad_l];
      /* NaN propagates: once m is NaN, v > m is false forever. */
      if (v > m || v != v) m = v;
    }
  }
  return m;
}

void wnn_f32_maxpool2d__scalar(size_t planes, const float *x, float *y,
                               const wnn_f32_pool2d_params *params) {
  const wnn_window2d *w = &params->win;
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
  for (size_t c = 0; c < planes; c++)
    for (size_t oy = 0; oy < w->out_h; oy++)
      for (size_t ox = 0; ox < w->out_w; ox++)
        y[c * out_plane + oy * w->out_w + ox] = window_max(x + c * in_plane, oy, ox, w);
}
