/* float16 -> float32, element by element (src/base/half.h): exact. */
#include "base/half.h"
#include "kernels/kernels.h"

void wnn_f16_f32_vcvt__scalar(size_t n, const uint16_t *x, float *y) {
  for (size_t i = 0; i < n; i++) y[i] = wnn_f16_to_f32(x[i]);
}
