/* Log-softmax of n strided elements: x - max - log(sum(exp(x - max))), so
 * exp never overflows. In-place safe. */
#include <math.h>

#include "kernels/kernels.h"

void wnn_f32_logsoftmax__scalar(size_t n, size_t stride, const float *x, float *y) {
  float max = x[0];
  for (size_t i = 1; i < n; i++) max = x[i * stride] > max ? x[i * stride] : max;
  float sum = 0.0f;
  for (size_t i = 0; i < n; i++) sum += expf(x[i * stride] - max);
  const float shift = max + logf(sum);
  for (size_t i = 0; i < n; i++) y[i * stride] = x[i * stride] - shift;
}
