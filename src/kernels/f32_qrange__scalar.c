/* DynamicQuantizeLinear's range: the least and greatest of 0 and x, NaN
 * skipped (a comparison with NaN is false). */
#include "kernels/kernels.h"

void wnn_f32_qrange__scalar(size_t n, const float *x, float *min, float *max) {
  float lo = 0.0f, hi = 0.0f;
  for (size_t i = 0; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  *min = lo, *max = hi;
}
