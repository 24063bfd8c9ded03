/* y = 1 / (1 + exp(-x)), evaluated as e / (1 + e) with e = exp(-|x|) so that
 * exp never overflows: for x < 0 that is exp(x) / (1 + exp(x)), the same value. */
#include <math.h>

#include "kernels/kernels.h"

void wnn_f32_sigmoid__scalar(size_t n, const float *x, float *y,
                             const wnn_f32_unary_params *params) {
  for (size_t i = 0; i < n; i++) {
    const float v = x[i];
    const float e = expf(-fabsf(v));
    const float s = 1.0f / (1.0f + e);
    y[i] = v >= 0.0f ? s : e * s;
  }
}
