/* Nearest upsampling of a row by an integer factor (kernels.h,
 * wnn_f32_repeat_ukernel), scalar. */
#include "kernels/kernels.h"

void wnn_f32_repeat__scalar(size_t n, size_t k, const float *x, float *y) {
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < k; j++) y[i * k + j] = x[i];
}
