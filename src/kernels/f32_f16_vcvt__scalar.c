/* float32 -> float16, element by element (src/base/half.h): round to nearest
 * even, infinities past the largest half, subnormals kept, NaNs quiet. */
#include "base/half.h"
#include "kernels/kernels.h"

void wnn_f32_f16_vcvt__scalar(size_t n, const float *x, uint16_t *y) {
  for (size_t i = 0; i < n; i++) y[i] = wnn_f32_to_f16(x[i]);
}
