/* Reference logic ops: Not, Where, IsNaN, IsInf (src/ops/math_logic.c).
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"
#include "ref/ref.h"

/* --------------------------------------------------------------- logic */

wnn_status wnn_ref_not(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const uint8_t *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) out[i] = !in[i];
  return WNN_OK;
}

wnn_status wnn_ref_isnan(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const float *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) out[i] = in[i] != in[i];
  return WNN_OK;
}

wnn_status wnn_ref_isinf(const wnn_run_ctx *ctx) {
  const bool *flags = ctx->params; /* detect_negative, detect_positive */
  const wnn_tensor *x = &ctx->inputs[0];
  const float *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++)
    out[i] = isinf(in[i]) && (in[i] > 0 ? flags[1] : flags[0]);
  return WNN_OK;
}

wnn_status wnn_ref_where(const wnn_run_ctx *ctx) {
  const wnn_tensor *c = &ctx->inputs[0], *x = &ctx->inputs[1], *yv = &ctx->inputs[2];
  const wnn_tensor *out = &ctx->outputs[0];
  const size_t es = wnn_dtype_size(out->dtype);
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t t = 0; t < wnn_ref_numel(out); t++) {
    wnn_ref_unravel(t, out->ndim, out->dims, idx);
    const bool take_x = ((const uint8_t *)c->data)[wnn_ref_bindex(c, out->ndim, idx)] != 0;
    const wnn_tensor *src = take_x ? x : yv;
    memcpy((char *)out->data + (size_t)t * es,
           (const char *)src->data + (size_t)wnn_ref_bindex(src, out->ndim, idx) * es, es);
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
