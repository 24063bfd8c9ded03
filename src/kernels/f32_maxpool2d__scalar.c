/* 2-D max pooling with dilation; padding never wins (it is not a value). */
#include <math.h>

#include "kernels/kernels.h"
#include "kernels/window2d.h"

void wnn_f32_maxpool2d__scalar(size_t planes, const float *x, float *y,
                               const wnn_f32_pool2d_params *params) {
  const wnn_window2d *w = &params->win;
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
  for (size_t c = 0; c < planes; c++)
    for (size_t oy = 0; oy < w->out_h; oy++)
      for (size_t ox = 0; ox < w->out_w; ox++)
        y[c * out_plane + oy * w->out_w + ox] = wnn_window2d_max(x + c * in_plane, oy, ox, w);
}
