/* 2-D copy of 4-byte elements, scalar: one memcpy per row. The bits are
 * copied. */
#include <string.h>

#include "kernels/kernels.h"

void wnn_x32_copy2d__scalar(size_t rows, size_t cols, const uint32_t *x, size_t x_stride,
                            uint32_t *y, size_t y_stride) {
  for (size_t i = 0; i < rows; i++) memcpy(y + i * y_stride, x + i * x_stride, cols * 4);
}
