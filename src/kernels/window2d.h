/* One output element of a 2-D window kernel, computed tap by tap with every
 * bounds check: what the scalar kernels do everywhere and what the SIMD128
 * kernels do at the padded edges. Shared so that both variants give bitwise
 * the same results there. Include only in kernel files. */
#ifndef WNN_KERNELS_WINDOW2D_H
#define WNN_KERNELS_WINDOW2D_H

#include <math.h>
#include <stdbool.h>

#include "kernels/kernels.h"

/* Max over the taps that land on the input; padding never wins. */
static inline float wnn_window2d_max(const float *x, size_t oy, size_t ox, const wnn_window2d *w) {
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

/* The uint8 (s8 false) or int8 max over the taps that land on the input, as
 * an int; the dtype's lowest value when none does. */
static inline int wnn_window2d_max_x8(const uint8_t *x, size_t oy, size_t ox,
                                      const wnn_window2d *w, bool s8) {
  int m = s8 ? -128 : 0;
  for (size_t ky = 0; ky < w->k_h; ky++) {
    const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
    if (iy_pad < w->pad_t || iy_pad - w->pad_t >= w->in_h) continue;
    const uint8_t *in = x + (iy_pad - w->pad_t) * w->in_w;
    for (size_t kx = 0; kx < w->k_w; kx++) {
      const size_t ix_pad = ox * w->stride_w + kx * w->dil_w;
      if (ix_pad < w->pad_l || ix_pad - w->pad_l >= w->in_w) continue;
      const int v = s8 ? (int)(int8_t)in[ix_pad - w->pad_l] : (int)in[ix_pad - w->pad_l];
      if (v > m) m = v;
    }
  }
  return m;
}

/* Average pooling: the divisor counts the taps on the input, or with
 * count_include_pad also those on the padding, never taps past the padded edge. */
static inline float wnn_window2d_avg(const float *x, size_t oy, size_t ox, const wnn_f32_pool2d_params *p) {
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

/* Depthwise convolution: the dot product of filter w with the window. */
static inline float wnn_window2d_dot(const float *x, const float *w, size_t oy, size_t ox,
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

#endif /* WNN_KERNELS_WINDOW2D_H */
