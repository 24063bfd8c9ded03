/*
 * The activation Conv and Gemm may apply to their output after the bias: the
 * ONNX importer fuses a following Relu, Clip, Sigmoid, HardSigmoid, HardSwish
 * or LeakyRelu into them as the attributes
 *
 *   "activation"         "Relu" | "Clip" | "Sigmoid" | "HardSigmoid" | "HardSwish" | "LeakyRelu"
 *                        | "SiLU": x * Sigmoid(x), for the Conv -> Sigmoid -> Mul(x, s)
 *                        blocks of YOLOX and EfficientNet (the importer does not fuse
 *                        that pattern yet; the runtime accepts it)
 *   "activation_params"  floats: Clip [min, max], HardSigmoid [alpha, beta],
 *                        LeakyRelu [alpha]; none for the others
 *
 * Both ops keep it right after their params struct (wnn_conv_act_params,
 * wnn_gemm_act_params), so the params still start with the plain struct.
 */
#ifndef WNN_OPS_FUSED_ACTIVATION_H
#define WNN_OPS_FUSED_ACTIVATION_H

#include <math.h>

#include "ops/op_internal.h"

/* The kinds (WNN_ACT_*) and the params are the activation microkernel's
 * (kernels/kernels.h, wnn_f32_act_ukernel), which applies them. */
typedef wnn_f32_act_params wnn_fused_activation;

typedef struct wnn_conv_act_params {
  wnn_conv_params base;
  wnn_fused_activation act;
} wnn_conv_act_params;

typedef struct wnn_gemm_act_params {
  wnn_gemm_params base;
  wnn_fused_activation act;
} wnn_gemm_act_params;

/* Reads "activation" and "activation_params" for op ("Conv", "Gemm"); absent
 * is WNN_ACT_NONE. A bad name or a wrong count of params is
 * WNN_ERR_BAD_ATTRIBUTE naming them. */
wnn_status wnn_fused_activation_prepare(wnn_prepare_ctx *ctx, const char *op,
                                        wnn_fused_activation *act);

/* The op applies it with the activation kernel it selected at prepare time
 * (wnn_select_f32_act), NULL for WNN_ACT_NONE. */

/* One element, written plainly: what the reference implementations use. */
static inline float wnn_fused_activation_ref(const wnn_fused_activation *act, float x) {
  switch (act->kind) {
    case WNN_ACT_RELU: return x < 0.0f ? 0.0f : x;
    case WNN_ACT_CLIP: {
      float v = x < act->p0 ? act->p0 : x;
      return v > act->p1 ? act->p1 : v;
    }
    case WNN_ACT_SIGMOID: return (float)(1.0 / (1.0 + exp(-(double)x)));
    case WNN_ACT_HARDSIGMOID: {
      float v = act->p0 * x + act->p1;
      return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
    case WNN_ACT_HARDSWISH: {
      float v = x / 6.0f + 0.5f;
      return x * (v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v);
    }
    case WNN_ACT_LEAKYRELU: return x < 0.0f ? act->p0 * x : x;
    case WNN_ACT_SILU: return (float)((double)x / (1.0 + exp(-(double)x)));
    default: return x;
  }
}

#endif /* WNN_OPS_FUSED_ACTIVATION_H */
