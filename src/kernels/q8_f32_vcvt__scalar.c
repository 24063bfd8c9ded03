/* DequantizeLinear, uint8 / int8 / int32 -> float, element by element:
 * (float)(x - zero_point) * scale, the difference exact. */
#include "kernels/kernels.h"

void wnn_qu8_f32_vcvt__scalar(size_t n, const uint8_t *x, float *y,
                              const wnn_q8_f32_cvt_params *params) {
  const int32_t z = params->zero_point;
  const float s = params->scale;
  for (size_t i = 0; i < n; i++) y[i] = (float)(x[i] - z) * s;
}

void wnn_qs8_f32_vcvt__scalar(size_t n, const int8_t *x, float *y,
                              const wnn_q8_f32_cvt_params *params) {
  const int32_t z = params->zero_point;
  const float s = params->scale;
  for (size_t i = 0; i < n; i++) y[i] = (float)(x[i] - z) * s;
}

void wnn_s32_f32_vcvt__scalar(size_t n, const int32_t *x, float *y,
                              const wnn_q8_f32_cvt_params *params) {
  const int64_t z = params->zero_point;
  const float s = params->scale;
  for (size_t i = 0; i < n; i++) y[i] = (float)((int64_t)x[i] - z) * s;
}
