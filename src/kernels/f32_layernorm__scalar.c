/* Layer normalization of rows, scalar: two passes for the statistics (sum,
 * then squared deviations from the mean), a third for the output. */
#include <math.h>

#include "kernels/kernels.h"

void wnn_f32_layernorm__scalar(size_t rows, size_t n, const float *x, const float *scale,
                               const float *bias, float *y, float *mean, float *inv_std,
                               float eps) {
  for (size_t r = 0; r < rows; r++, x += n, y += n) {
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++) sum += x[i];
    const float m = sum / (float)n;
    float sq = 0.0f;
    for (size_t i = 0; i < n; i++) sq += (x[i] - m) * (x[i] - m);
    const float inv = 1.0f / sqrtf(sq / (float)n + eps);
    if (mean) mean[r] = m;
    if (inv_std) inv_std[r] = inv;
    if (bias)
      for (size_t i = 0; i < n; i++) y[i] = (x[i] - m) * inv * scale[i] + bias[i];
    else
      for (size_t i = 0; i < n; i++) y[i] = (x[i] - m) * inv * scale[i];
  }
}
