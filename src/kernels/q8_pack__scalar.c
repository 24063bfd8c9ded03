/*
 * Packing for the int8 GEMM (kernels.h, "int8 GEMM"): 8-bit rows into int16
 * K-pairs or rows minus the zero point, int8 rows into int8 K-pairs, and
 * float rows quantized as DynamicQuantizeLinear does into int16 rows.
 */
#include <math.h>

#include "kernels/kernels.h"

static inline int16_t q8_minus_zp(const uint8_t *x, size_t i, const wnn_q8_pack_params *p) {
  const int32_t v = p->s8 ? (int32_t)(int8_t)x[i] : (int32_t)x[i];
  return (int16_t)(v - p->zero_point);
}

void wnn_q8_packk__scalar(size_t k, size_t n, const uint8_t *x, size_t x_rs, int16_t *y,
                          size_t y_rs, const wnn_q8_pack_params *p) {
  for (size_t r = 0; r < k; r += 2) {
    const uint8_t *x0 = x + r * x_rs, *x1 = x0 + x_rs;
    int16_t *yr = y + (r / 2) * y_rs;
    const bool odd = r + 1 == k;
    for (size_t j = 0; j < n; j++) {
      yr[2 * j] = q8_minus_zp(x0, j, p);
      yr[2 * j + 1] = odd ? 0 : q8_minus_zp(x1, j, p);
    }
  }
}

void wnn_q8_packrows__scalar(size_t rows, size_t k, const uint8_t *x, size_t x_rs, int16_t *y,
                             size_t y_rs, const wnn_q8_pack_params *p) {
  for (size_t i = 0; i < rows; i++) {
    const uint8_t *xi = x + i * x_rs;
    int16_t *yi = y + i * y_rs;
    for (size_t c = 0; c < k; c++) yi[c] = q8_minus_zp(xi, c, p);
    if (k & 1) yi[k] = 0;
  }
}

void wnn_s8_packk__scalar(size_t k, size_t n, const int8_t *x, size_t x_rs, int8_t *y,
                          size_t y_rs) {
  for (size_t r = 0; r < k; r += 2) {
    const int8_t *x0 = x + r * x_rs, *x1 = x0 + x_rs;
    int8_t *yr = y + (r / 2) * y_rs;
    const bool odd = r + 1 == k;
    for (size_t j = 0; j < n; j++) {
      yr[2 * j] = x0[j];
      yr[2 * j + 1] = odd ? 0 : x1[j];
    }
  }
}

/* DynamicQuantizeLinear's step (src/ops/quant.c) for one element, minus the
 * zero point. */
static inline int16_t dql(float x, float scale, float zp) {
  if (!(scale > 0.0f)) return (int16_t)(0.0f - zp);
  float q = nearbyintf(x / scale) + zp;
  q = q > 0.0f ? q : 0.0f; /* NaN too */
  q = q < 255.0f ? q : 255.0f;
  return (int16_t)((int32_t)q - (int32_t)zp);
}

void wnn_f32_qpackrows__scalar(size_t rows, size_t k, const float *x, size_t x_rs, int16_t *y,
                               size_t y_rs, float scale, float zero_point) {
  for (size_t i = 0; i < rows; i++) {
    const float *xi = x + i * x_rs;
    int16_t *yi = y + i * y_rs;
    for (size_t c = 0; c < k; c++) yi[c] = dql(xi[c], scale, zero_point);
    if (k & 1) yi[k] = 0;
  }
}
