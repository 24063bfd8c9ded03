/*
 * The int8 GEMM's epilogues (kernels.h, "int8 GEMM"): int32 rows requantized
 * to 8 bits with a scale per row, or dequantized to float with a scale and
 * bias per column. The float operations are those of the plain loops in
 * src/ops/quant_gemm.c, in the same order.
 */
#include <math.h>

#include "kernels/kernels.h"

void wnn_qs32_requant__scalar(size_t rows, size_t n, const int32_t *acc, size_t acc_rs,
                              const float *scale, void *y, size_t y_rs,
                              const wnn_qs32_requant_params *p) {
  const float zp = p->zero_point, lo = p->lo, hi = p->hi;
  for (size_t i = 0; i < rows; i++) {
    const int32_t *ai = acc + i * acc_rs;
    uint8_t *yi = (uint8_t *)y + i * y_rs;
    for (size_t j = 0; j < n; j++) {
      const float s = p->per_column ? scale[j] : scale[i];
      float v = nearbyintf((float)ai[j] * s) + zp;
      v = v > lo ? v : lo; /* NaN too */
      v = v < hi ? v : hi;
      if (p->s8) ((int8_t *)yi)[j] = (int8_t)v;
      else yi[j] = (uint8_t)v;
    }
  }
}

void wnn_qs32_dequant__scalar(size_t rows, size_t n, const int32_t *acc, size_t acc_rs,
                              const float *scale, const float *bias, float *y, size_t y_rs) {
  for (size_t i = 0; i < rows; i++) {
    const int32_t *ai = acc + i * acc_rs;
    float *yi = y + i * y_rs;
    if (bias)
      for (size_t j = 0; j < n; j++) yi[j] = (float)ai[j] * scale[j] + bias[j];
    else
      for (size_t j = 0; j < n; j++) yi[j] = (float)ai[j] * scale[j];
  }
}
