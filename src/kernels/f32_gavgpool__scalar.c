/* Global average pooling: the mean of each row of n elements. */
#include "kernels/kernels.h"

void wnn_f32_gavgpool__scalar(size_t rows, size_t n, const float *x, float *y) {
  const float scale = 1.0f / (float)n;
  for (size_t r = 0; r < rows; r++) {
    const float *xr = x + r * n;
    /* Four partial sums: shorter dependency chains, and less rounding error
     * on long rows than one running sum. */
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) s0 += xr[i], s1 += xr[i + 1], s2 += xr[i + 2], s3 += xr[i + 3];
    for (; i < n; i++) s0 += xr[i];
    y[r] = ((s0 + s1) + (s2 + s3)) * scale;
  }
}
