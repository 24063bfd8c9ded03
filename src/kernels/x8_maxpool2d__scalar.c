/* 2-D max pooling of uint8 or int8 planes, tap by tap with every bounds
 * check (kernels_quant.inc, WNN_X8_MAXPOOL2D). */
#include "kernels/kernels.h"

static int max_at(const uint8_t *x, size_t oy, size_t ox, const wnn_window2d *w, bool s8) {
  int m = s8 ? -128 : 0;
  for (size_t ky = 0; ky < w->k_h; ky++) {
    const size_t iy = oy * w->stride_h + ky * w->dil_h; /* + pad_t */
    if (iy < w->pad_t || iy - w->pad_t >= w->in_h) continue;
    const uint8_t *row = x + (iy - w->pad_t) * w->in_w;
    for (size_t kx = 0; kx < w->k_w; kx++) {
      const size_t ix = ox * w->stride_w + kx * w->dil_w;
      if (ix < w->pad_l || ix - w->pad_l >= w->in_w) continue;
      const uint8_t b = row[ix - w->pad_l];
      const int v = s8 ? (int)(int8_t)b : (int)b;
      if (v > m) m = v;
    }
  }
  return m;
}

void wnn_x8_maxpool2d__scalar(size_t planes, const uint8_t *x, uint8_t *y,
                              const wnn_x8_maxpool2d_params *params) {
  const wnn_window2d *w = &params->win;
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
  for (size_t c = 0; c < planes; c++)
    for (size_t oy = 0; oy < w->out_h; oy++)
      for (size_t ox = 0; ox < w->out_w; ox++)
        y[c * out_plane + oy * w->out_w + ox] =
            (uint8_t)max_at(x + c * in_plane, oy, ox, w, params->s8);
}
