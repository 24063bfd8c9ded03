/* The fused activation of Conv and Gemm (wnn_f32_act_ukernel in kernels.h),
 * in place over rows x n elements at row stride y_rs. Each formula is spelled
 * exactly as the SIMD128 variant computes it (the same operations in the same
 * order), so the two agree bitwise except for SIGMOID and SILU, whose exp
 * here is libm's. Both are bitwise what the Sigmoid op's scalar kernel (and
 * Mul) compute. */
#include <math.h>

#include "kernels/kernels.h"

void wnn_f32_act__scalar(size_t rows, size_t n, float *y, size_t y_rs,
                         const wnn_f32_act_params *params) {
  const float a = params->p0, b = params->p1;
  for (size_t r = 0; r < rows; r++, y += y_rs) {
    switch (params->kind) {
      case WNN_ACT_RELU:
        for (size_t i = 0; i < n; i++) y[i] = y[i] < 0.0f ? 0.0f : y[i];
        break;
      case WNN_ACT_CLIP:
        for (size_t i = 0; i < n; i++) {
          const float v = y[i] < a ? a : y[i];
          y[i] = v > b ? b : v;
        }
        break;
      case WNN_ACT_SIGMOID:
        /* e = exp(-|x|) never overflows; 1 / (1 + e) for x >= 0, else e / (1 + e). */
        for (size_t i = 0; i < n; i++) {
          const float e = expf(-fabsf(y[i])), s = 1.0f / (1.0f + e);
          y[i] = y[i] >= 0.0f ? s : e * s;
        }
        break;
      case WNN_ACT_HARDSIGMOID:
        for (size_t i = 0; i < n; i++) {
          float v = a * y[i] + b;
          v = v < 0.0f ? 0.0f : v;
          y[i] = v > 1.0f ? 1.0f : v;
        }
        break;
      case WNN_ACT_HARDSWISH:
        for (size_t i = 0; i < n; i++) {
          float v = y[i] / 6.0f + 0.5f;
          v = v < 0.0f ? 0.0f : v;
          y[i] *= v > 1.0f ? 1.0f : v;
        }
        break;
      case WNN_ACT_LEAKYRELU:
        for (size_t i = 0; i < n; i++) y[i] = y[i] < 0.0f ? a * y[i] : y[i];
        break;
      case WNN_ACT_SILU:
        /* x times the sigmoid above: what Mul(x, Sigmoid(x)) computes. */
        for (size_t i = 0; i < n; i++) {
          const float e = expf(-fabsf(y[i])), s = 1.0f / (1.0f + e);
          y[i] *= y[i] >= 0.0f ? s : e * s;
        }
        break;
      default: return;
    }
  }
}
