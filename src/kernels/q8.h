/* The scalar arithmetic of the int8 kernels, shared by the scalar variants and
 * the SIMD128 variants' tails and edges so that both give the same bits (and
 * the same as src/ops/quant.c's plain loops). Include only in kernel files. */
#ifndef WNN_KERNELS_Q8_H
#define WNN_KERNELS_Q8_H

#include <math.h>

#include "kernels/kernels.h"

/* clamp(v, lo, hi) by comparisons: NaN gives lo. */
static inline float wnn_q8_clamp(float v, float lo, float hi) {
  v = v > lo ? v : lo;
  return v < hi ? v : hi;
}

/* QuantizeLinear of one element: nearbyintf rounds half to even (the default
 * rounding mode). */
static inline float wnn_q8_quantize(float x, float scale, float zero_point, float lo, float hi) {
  return wnn_q8_clamp(nearbyintf(x / scale) + zero_point, lo, hi);
}

/* One output of the depthwise convolution before requantization: bias plus
 * the taps inside the input, exact. */
static inline int64_t wnn_q8_dwconv_acc(const void *x, const int8_t *w, int32_t bias, size_t oy,
                                        size_t ox, const wnn_qs8_dwconv_params *p) {
  const wnn_window2d *g = &p->win;
  int64_t acc = bias;
  for (size_t ky = 0; ky < g->k_h; ky++) {
    const size_t iy_pad = oy * g->stride_h + ky * g->dil_h;
    if (iy_pad < g->pad_t || iy_pad - g->pad_t >= g->in_h) continue;
    const size_t row = (iy_pad - g->pad_t) * g->in_w;
    for (size_t kx = 0; kx < g->k_w; kx++) {
      const size_t ix_pad = ox * g->stride_w + kx * g->dil_w;
      if (ix_pad < g->pad_l || ix_pad - g->pad_l >= g->in_w) continue;
      const size_t i = row + ix_pad - g->pad_l;
      const int32_t v = p->x_signed ? ((const int8_t *)x)[i] : ((const uint8_t *)x)[i];
      acc += (int64_t)(v - p->x_zero_point) * w[ky * g->k_w + kx];
    }
  }
  return acc;
}

/* Requantizes acc into element i of y. */
static inline void wnn_q8_dwconv_store(void *y, size_t i, int64_t acc, float scale,
                                       const wnn_qs8_dwconv_params *p) {
  const float v = wnn_q8_clamp(nearbyintf((float)acc * scale) + p->y_zero_point, p->y_min, p->y_max);
  if (p->y_signed) ((int8_t *)y)[i] = (int8_t)v;
  else ((uint8_t *)y)[i] = (uint8_t)v;
}

#endif /* WNN_KERNELS_Q8_H */
