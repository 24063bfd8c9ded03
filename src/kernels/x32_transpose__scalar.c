/* 2-D transpose of 4-byte elements, scalar, in bands of 16 columns: for each
 * band, every input row contributes its 16 elements (64 bytes, one cache line
 * when aligned) to the band's 16 output rows, which are written front to
 * back. Both sides move through whole cache lines and only 16 output rows
 * are open at a time, instead of one side striding through memory a column
 * at a time. The bits are copied (memcpy of 4 bytes: no float conversion,
 * NaNs kept). */
#include <string.h>

#include "kernels/kernels.h"

enum { BAND = 16 };

void wnn_x32_transpose__scalar(size_t rows, size_t cols, const uint32_t *x, size_t x_stride,
                               uint32_t *y, size_t y_stride) {
  for (size_t j0 = 0; j0 < cols; j0 += BAND) {
    const size_t jb = cols - j0 < BAND ? cols - j0 : BAND;
    for (size_t i = 0; i < rows; i++)
      for (size_t j = 0; j < jb; j++)
        memcpy(y + (j0 + j) * y_stride + i, x + i * x_stride + j0 + j, 4);
  }
}
