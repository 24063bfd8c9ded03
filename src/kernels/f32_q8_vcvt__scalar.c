/* QuantizeLinear, float -> uint8 / int8, element by element (kernels/q8.h). */
#include "kernels/kernels.h"
#include "kernels/q8.h"

void wnn_f32_qu8_vcvt__scalar(size_t n, const float *x, uint8_t *y,
                              const wnn_f32_q8_cvt_params *params) {
  const float s = params->scale, z = params->zero_point;
  for (size_t i = 0; i < n; i++) y[i] = (uint8_t)wnn_q8_quantize(x[i], s, z, 0.0f, 255.0f);
}

void wnn_f32_qs8_vcvt__scalar(size_t n, const float *x, int8_t *y,
                              const wnn_f32_q8_cvt_params *params) {
  const float s = params->scale, z = params->zero_point;
  for (size_t i = 0; i < n; i++) y[i] = (int8_t)wnn_q8_quantize(x[i], s, z, -128.0f, 127.0f);
}
