/*
 * Quantization (opset 21 semantics without blocks, uint8 and int8):
 *   QuantizeLinear         x float32 -> y uint8/int8, per tensor or per axis
 *   DequantizeLinear       x uint8/int8/int32 -> float32, per tensor or per axis
 *   DynamicQuantizeLinear  x float32 -> y uint8, y_scale, y_zero_point
 * The integer matmul and convolution ops are in quant_gemm.c.
 */
#include <math.h>
#include <string.h>

#include "ops/quant_internal.h"

WNN_PARAMS_FIT(wnn_quant_params);

/* ---------------------------------------- QuantizeLinear, DequantizeLinear */

/* Checks scale (input 1) and zero point (input 2, optional, of dtype zdt
 * unless zdt is INVALID) against x and axis; fills outer, axis_n, inner. */
static wnn_status quant_prepare(wnn_prepare_ctx *ctx, const char *op, const char *sname,
                                const char *zname, wnn_quant_params *p) {
  const wnn_tdesc *x = &ctx->inputs[0], *s = &ctx->inputs[1];
  wnn_status st;
  int64_t axis, block;
  if ((st = wnn_expect_dtype(ctx, op, 1, sname, WNN_DTYPE_F32))) return st;
  if ((st = wnn_attr_int(ctx, "block_size", 0, &block))) return st;
  if (block != 0)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: block_size = %lld (blocked quantization) is not supported, only 0", op,
                       (long long)block);
  if ((st = wnn_attr_int(ctx, "axis", 1, &axis))) return st;
  char a[64], b[64];
  if (s->ndim <= 1 && wnn_shape_numel(s->ndim, s->dims) == 1) { /* per tensor: axis unused */
    p->outer = 1, p->axis_n = 1;
    p->inner = (size_t)wnn_shape_numel(x->ndim, x->dims);
  } else {
    int ax;
    if ((st = wnn_normalize_axis(ctx, op, "axis", axis, x->ndim, false, &ax))) return st;
    if (s->ndim != 1 || s->dims[0] != x->dims[ax])
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: input 1 (%s) has shape %s, expected a scalar or [%lld] (dim %d of "
                         "input 0 %s)",
                         op, sname, wnn_format_dims(a, sizeof a, s->ndim, s->dims),
                         (long long)x->dims[ax], ax,
                         wnn_format_dims(b, sizeof b, x->ndim, x->dims));
    wnn_split_axis(x, ax, &p->outer, &p->axis_n, &p->inner);
  }
  p->has_zero_point = wnn_has_input(ctx, 2);
  if (p->has_zero_point) {
    const wnn_tdesc *z = &ctx->inputs[2];
    const bool one = z->ndim <= 1 && wnn_shape_numel(z->ndim, z->dims) == 1;
    if (!(p->axis_n == 1 && p->outer == 1 ? one
                                          : wnn_shape_equal(z->ndim, z->dims, s->ndim, s->dims)))
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (%s) has shape %s, expected %s (%s's)",
                         op, zname, wnn_format_dims(a, sizeof a, z->ndim, z->dims),
                         wnn_format_dims(b, sizeof b, s->ndim, s->dims), sname);
  }
  return WNN_OK;
}

wnn_status wnn_quantizelinear_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "QuantizeLinear";
  wnn_quant_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t odt, sat;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "x", WNN_DTYPE_F32))) return st;
  if ((st = wnn_attr_int(ctx, "saturate", 1, &sat))) return st; /* float8 only */
  if ((st = wnn_attr_int(ctx, "output_dtype", 0, &odt))) return st;
  if ((st = quant_prepare(ctx, OP, "y_scale", "y_zero_point", p))) return st;
  p->k = wnn_select_q8_vcvt(ctx->kernels);
  if (odt != 0 && odt != 2 && odt != 3)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: output_dtype = %lld is not supported (uint8 2, int8 3)", OP,
                       (long long)odt);
  p->qdtype = odt == 3 ? WNN_DTYPE_I8 : WNN_DTYPE_U8;
  if (p->has_zero_point) {
    const wnn_dtype z = ctx->inputs[2].dtype;
    if (z != WNN_DTYPE_U8 && z != WNN_DTYPE_I8)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                         "%s: input 2 (y_zero_point) is %s, expected uint8 or int8", OP,
                         wnn_dtype_name(z));
    if (odt != 0 && z != p->qdtype)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                         "%s: input 2 (y_zero_point) is %s but output_dtype = %lld asks for %s",
                         OP, wnn_dtype_name(z), (long long)odt, wnn_dtype_name(p->qdtype));
    p->qdtype = z;
  }
  return wnn_set_output(ctx, OP, 0, p->qdtype, x->ndim, x->dims);
}

/* y = saturate(round_half_even(x / scale) + zero_point); NaN gives the
 * type's lowest value (kernels.h: wnn_f32_q8_cvt_params). */
wnn_status wnn_quantizelinear_run(const wnn_run_ctx *ctx) {
  const wnn_quant_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *scale = ctx->inputs[1].data;
  const void *zp = p->has_zero_point ? ctx->inputs[2].data : NULL;
  const bool s8 = p->qdtype == WNN_DTYPE_I8;
  uint8_t *y = ctx->outputs[0].data; /* int8 or uint8: one byte each */
  size_t i = 0;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t a = 0; a < p->axis_n; a++, i += p->inner) {
      const wnn_f32_q8_cvt_params kp = {
          scale[a], !zp  ? 0.0f
                    : s8 ? (float)((const int8_t *)zp)[a]
                         : (float)((const uint8_t *)zp)[a]};
      if (s8) p->k.f32_qs8(p->inner, x + i, (int8_t *)(y + i), &kp);
      else p->k.f32_qu8(p->inner, x + i, y + i, &kp);
    }
  return WNN_OK;
}

wnn_status wnn_dequantizelinear_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "DequantizeLinear";
  wnn_quant_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if (x->dtype != WNN_DTYPE_U8 && x->dtype != WNN_DTYPE_I8 && x->dtype != WNN_DTYPE_I32)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (x) is %s, expected uint8, int8 or int32",
                       OP, wnn_dtype_name(x->dtype));
  if ((st = quant_prepare(ctx, OP, "x_scale", "x_zero_point", p))) return st;
  p->k = wnn_select_q8_vcvt(ctx->kernels);
  p->qdtype = x->dtype;
  if (p->has_zero_point && ctx->inputs[2].dtype != x->dtype)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                       "%s: input 2 (x_zero_point) is %s, expected %s (input 0's dtype)", OP,
                       wnn_dtype_name(ctx->inputs[2].dtype), wnn_dtype_name(x->dtype));
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* y = float(x - zero_point) * scale, the difference exact. */
wnn_status wnn_dequantizelinear_run(const wnn_run_ctx *ctx) {
  const wnn_quant_params *p = ctx->params;
  const void *x = ctx->inputs[0].data;
  const float *scale = ctx->inputs[1].data;
  const void *zp = p->has_zero_point ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  size_t i = 0;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t a = 0; a < p->axis_n; a++, i += p->inner) {
      wnn_q8_f32_cvt_params kp = {0, scale[a]};
      switch (p->qdtype) {
        case WNN_DTYPE_I8:
          if (zp) kp.zero_point = ((const int8_t *)zp)[a];
          p->k.qs8_f32(p->inner, (const int8_t *)x + i, y + i, &kp);
          break;
        case WNN_DTYPE_U8:
          if (zp) kp.zero_point = ((const uint8_t *)zp)[a];
          p->k.qu8_f32(p->inner, (const uint8_t *)x + i, y + i, &kp);
          break;
        default:
          if (zp) kp.zero_point = ((const int32_t *)zp)[a];
          p->k.s32_f32(p->inner, (const int32_t *)x + i, y + i, &kp);
          break;
      }
    }
  return WNN_OK;
}

/* ------------------------------------------------ DynamicQuantizeLinear */

/* DynamicQuantizeLinear (11): x float32 -> y uint8 (x's shape), y_scale
 * float32 and y_zero_point uint8 (scalars), from the range of x widened to
 * include 0:
 *   scale = (max(0, max x) - min(0, min x)) / 255
 *   zero_point = saturate(round_half_even(0 - min(0, min x) / scale))
 *   y = saturate(round_half_even(x / scale) + zero_point)
 * An all-zero (or empty) x has scale 0: zero point 0 and y 0 (ONNX divides
 * by it). NaN elements are skipped by the range and give 0. */
wnn_status wnn_dynamicquantizelinear_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "DynamicQuantizeLinear";
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "x", WNN_DTYPE_F32))) return st;
  ((wnn_quant_params *)ctx->params)->k = wnn_select_q8_vcvt(ctx->kernels);
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_U8, x->ndim, x->dims))) return st;
  if ((st = wnn_set_output(ctx, OP, 1, WNN_DTYPE_F32, 0, NULL))) return st;
  return wnn_set_output(ctx, OP, 2, WNN_DTYPE_U8, 0, NULL);
}

/* Scale and zero point from the range [lo, hi] (lo <= 0 <= hi). */
static void dynamic_quant_from_range(float lo, float hi, float *scale, float *zero_point) {
  const float s = (hi - lo) / 255.0f;
  *scale = s;
  *zero_point = s > 0.0f ? wnn_dynamic_quant_clamp(nearbyintf(0.0f - lo / s)) : 0.0f;
}

void wnn_dynamic_quant_params(wnn_f32_qrange_ukernel *range, const float *x, size_t n, float *scale,
                              float *zero_point) {
  float lo, hi;
  range(n, x, &lo, &hi);
  dynamic_quant_from_range(lo, hi, scale, zero_point);
}

/* The range kernel, then QuantizeLinear's uint8 kernel with the derived scale
 * and zero point: its arithmetic is wnn_dynamic_quant_value's (NaN gives 0)
 * when the scale is positive; a zero scale gives 0 everywhere. */
wnn_status wnn_dynamicquantizelinear_run(const wnn_run_ctx *ctx) {
  const wnn_quant_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const size_t n = (size_t)wnn_shape_numel(xt->ndim, xt->dims);
  const float *x = xt->data;
  uint8_t *y = ctx->outputs[0].data;
  float lo, hi, scale, zp;
  p->k.qrange(n, x, &lo, &hi);
  dynamic_quant_from_range(lo, hi, &scale, &zp);
  if (scale > 0.0f) p->k.f32_qu8(n, x, y, &(const wnn_f32_q8_cvt_params){scale, zp});
  else memset(y, 0, n);
  *(float *)ctx->outputs[1].data = scale;
  *(uint8_t *)ctx->outputs[2].data = (uint8_t)zp;
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(quantizelinear, "QuantizeLinear", 0, 2, 3, 1, 1,
              WNN_ATTRS("axis", "block_size", "output_dtype", "saturate"));
WNN_OP_DEFINE(dequantizelinear, "DequantizeLinear", 0, 2, 3, 1, 1, WNN_ATTRS("axis", "block_size"));
WNN_OP_DEFINE(dynamicquantizelinear, "DynamicQuantizeLinear", 0, 1, 1, 3, 3, NULL);
