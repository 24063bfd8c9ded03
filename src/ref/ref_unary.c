/* Reference Relu, Sigmoid and Clip (src/ops/unary.c).
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/op_internal.h"
#include "ref/ref.h"

wnn_status wnn_ref_relu(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const float *in = x->data;
  float *out = ctx->outputs[0].data;
  const int64_t n = wnn_shape_numel(x->ndim, x->dims);
  for (int64_t i = 0; i < n; i++) out[i] = in[i] > 0.0f || isnan(in[i]) ? in[i] : 0.0f;
  return WNN_OK;
}

wnn_status wnn_ref_sigmoid(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const float *in = x->data;
  float *out = ctx->outputs[0].data;
  const int64_t n = wnn_shape_numel(x->ndim, x->dims);
  for (int64_t i = 0; i < n; i++) out[i] = (float)(1.0 / (1.0 + exp(-(double)in[i])));
  return WNN_OK;
}

wnn_status wnn_ref_clip(const wnn_run_ctx *ctx) {
  const wnn_unary_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  float lo = p->bounds.min, hi = p->bounds.max;
  if (ctx->num_inputs > 1 && ctx->inputs[1].data) lo = *(const float *)ctx->inputs[1].data;
  if (ctx->num_inputs > 2 && ctx->inputs[2].data) hi = *(const float *)ctx->inputs[2].data;
  const float *in = x->data;
  float *out = ctx->outputs[0].data;
  const int64_t n = wnn_shape_numel(x->ndim, x->dims);
  for (int64_t i = 0; i < n; i++) {
    float v = in[i];
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    out[i] = v;
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
