/* 2-D max pooling of uint8 or int8 planes, tap by tap with every bounds
 * check (kernels_quant.inc, WNN_X8_MAXPOOL2D). */
#include "kernels/kernels.h"
#include "kernels/window2d.h"

void wnn_x8_maxpool2d__scalar(size_t planes, const uint8_t *x, uint8_t *y,
                              const wnn_x8_maxpool2d_params *params) {
  const wnn_window2d *w = &params->win;
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
  for (size_t c = 0; c < planes; c++)
    for (size_t oy = 0; oy < w->out_h; oy++)
      for (size_t ox = 0; ox < w->out_w; ox++)
        y[c * out_plane + oy * w->out_w + ox] =
            (uint8_t)wnn_window2d_max_x8(x + c * in_plane, oy, ox, w, params->s8);
}
