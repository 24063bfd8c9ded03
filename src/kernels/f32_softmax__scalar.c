/* Softmax of n strided elements, max-subtracted so exp never overflows. */
#include <math.h>

#include "kernels/kernels.h"

void wnn_f32_softmax__scalar(size_t n, size_t stride, const float *x, float *y) {
  float max = x[0];
  for (size_t i = 1; i < n; i++) max = x[i * stride] > max ? x[i * stride] : max;
  float sum = 0.0f;
  for (size_t i = 0; i < n; i++) {
    const float e = expf(x[i * stride] - max);
    y[i * stride] = e;
    sum += e;
  }
  const float inv = 1.0f / sum;
  for (size_t i = 0; i < n; i++) y[i * stride] *= inv;
}
