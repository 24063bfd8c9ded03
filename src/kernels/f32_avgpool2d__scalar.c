/* 2-D average pooling. The divisor counts the window's taps that land on the
 * input, or with count_include_pad also those on the padding, but never taps
 * past the padded edge (ceil_mode's last window may reach beyond it), as
 * onnxruntime and PyTorch do. A window with nothing to count gives 0. */
#include "kernels/kernels.h"

static float window_avg(const float *x, size_t oy, size_t ox, const wnn_f32_pool2d_params *p) {
  const wnn_window2d *w = &p->win;
  const size_t padded_h = w->pad_t + w->in_h + w->pad_b;
  const size_t padded_w = w->pad_l + w->in_w + w->pad_r;
  float sum = 0.0f;
  size_t inside = 0, in_padded = 0;
  for (size_t ky = 0; ky < w->k_h; ky++) {
    const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
    if (iy_pad >= padded_h) continue;
    const bool row_in = iy_pad >= w->pad_t && iy_pad - w->pad_t < w->in_h;
    for (size_t kx = 0; kx < w->k_w; kx++) {
      const size_t ix_pad = ox * w->stride_w + kx * w->dil_w;
      if (ix_pad >= padded_w) continue;
      in_padded++;
      if (!row_in || ix_pad < w->pad_l || ix_pad - w->pad_l >= w->in_w) continue;
      sum += x[(iy_pad - w->pad_t) * w->in_w + (ix_pad - w->pad_l)];
      inside++;
    }
  }
  const size_t count = p->count_include_pad ? in_padded : inside;
  return count ? sum / (float)count : 0.0f;
}

void wnn_f32_avgpool2d__scalar(size_t planes, const float *x, float *y,
                               const wnn_f32_pool2d_params *params) {
  const wnn_window2d *w = &params->win;
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
  for (size_t c = 0; c < planes; c++)
    for (size_t oy = 0; oy < w->out_h; oy++)
      for (size_t ox = 0; ox < w->out_w; ox++)
        y[c * out_plane + oy * w->out_w + ox] = window_avg(x + c * in_plane, oy, ox, params);
}
