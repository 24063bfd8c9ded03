/* y = max(x, 0); NaN stays NaN. */
#include "kernels/kernels.h"

void wnn_f32_relu__scalar(size_t n, const float *x, float *y, const wnn_f32_unary_params *params) {
  for (size_t i = 0; i < n; i++) {
    const float v = x[i];
    y[i] = v < 0.0f ? 0.0f : v;
  }
}
