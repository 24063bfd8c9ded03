/* y = min(max(x, params->min), params->max), with comparisons rather than
 * fminf/fmaxf so that NaN stays NaN (fmaxf(NaN, lo) would give lo). */
#include "kernels/kernels.h"

void wnn_f32_clamp__scalar(size_t n, const float *x, float *y,
                           const wnn_f32_unary_params *params) {
  const float lo = params->min, hi = params->max;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    v = v < lo ? lo : v;
    y[i] = v > hi ? hi : v;
  }
}
