/* 2-D average pooling. The divisor counts the window's taps that land on the
 * input, or with count_include_pad also those on the padding, but never taps
 * past the padded edge (ceil_mode's last window may reach beyond it), as
 * onnxruntime and PyTorch do. A window with nothing to count gives 0. */
#include "kernels/kernels.h"
#include "kernels/window2d.h"

void wnn_f32_avgpool2d__scalar(size_t planes, const float *x, float *y,
                               const wnn_f32_pool2d_params *params) {
  const wnn_window2d *w = &params->win;
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
  for (size_t c = 0; c < planes; c++)
    for (size_t oy = 0; oy < w->out_h; oy++)
      for (size_t ox = 0; ox < w->out_w; ox++)
        y[c * out_plane + oy * w->out_w + ox] = wnn_window2d_avg(x + c * in_plane, oy, ox, params);
}
