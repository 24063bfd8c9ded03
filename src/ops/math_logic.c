/*
 * Not (bool), Where (bool condition choosing between X and Y of any dtype,
 * all three broadcast), IsNaN and IsInf (float32 to bool). Bools are 1-byte 0
 * or 1; any non-zero input byte counts as true.
 */
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"

WNN_PARAMS_FIT(wnn_where_params);

/* ------------------------------------------------------------------ Not */

wnn_status wnn_not_prepare(wnn_prepare_ctx *ctx) {
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, "Not", 0, "X", WNN_DTYPE_BOOL))) return st;
  return wnn_set_output(ctx, "Not", 0, WNN_DTYPE_BOOL, x->ndim, x->dims);
}

wnn_status wnn_not_run(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const uint8_t *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  const size_t n = (size_t)wnn_shape_numel(x->ndim, x->dims);
  for (size_t i = 0; i < n; i++) out[i] = in[i] == 0;
  return WNN_OK;
}

/* -------------------------------------------------------- IsNaN, IsInf */

/* IsInf keeps its two flags in the first bytes of params. */
typedef struct isinf_params {
  bool negative, positive;
} isinf_params;

static wnn_status isx_prepare(wnn_prepare_ctx *ctx, const char *op) {
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, op, 0, "X", WNN_DTYPE_F32))) return st;
  return wnn_set_output(ctx, op, 0, WNN_DTYPE_BOOL, x->ndim, x->dims);
}

wnn_status wnn_isnan_prepare(wnn_prepare_ctx *ctx) { return isx_prepare(ctx, "IsNaN"); }

wnn_status wnn_isnan_run(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const float *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  const size_t n = (size_t)wnn_shape_numel(x->ndim, x->dims);
  for (size_t i = 0; i < n; i++) out[i] = isnan(in[i]) ? 1 : 0;
  return WNN_OK;
}

wnn_status wnn_isinf_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "IsInf";
  isinf_params *p = ctx->params;
  wnn_status st;
  int64_t neg, pos;
  if ((st = wnn_attr_int(ctx, "detect_negative", 1, &neg))) return st;
  if ((st = wnn_attr_int(ctx, "detect_positive", 1, &pos))) return st;
  if ((neg != 0 && neg != 1) || (pos != 0 && pos != 1))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: detect_negative (%lld) and detect_positive (%lld) must be 0 or 1", OP,
                       (long long)neg, (long long)pos);
  p->negative = neg == 1, p->positive = pos == 1;
  return isx_prepare(ctx, OP);
}

wnn_status wnn_isinf_run(const wnn_run_ctx *ctx) {
  const isinf_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const float *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  const size_t n = (size_t)wnn_shape_numel(x->ndim, x->dims);
  for (size_t i = 0; i < n; i++)
    out[i] = (p->positive && in[i] == INFINITY) || (p->negative && in[i] == -INFINITY);
  return WNN_OK;
}

/* ---------------------------------------------------------------- Where */

wnn_status wnn_where_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Where";
  wnn_where_params *p = ctx->params;
  const wnn_tdesc *c = &ctx->inputs[0], *x = &ctx->inputs[1], *y = &ctx->inputs[2];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "condition", WNN_DTYPE_BOOL))) return st;
  if (wnn_dtype_size(x->dtype) == 0)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (X) has no dtype", OP);
  if ((st = wnn_expect_dtype(ctx, OP, 2, "Y", x->dtype))) return st;
  wnn_tdesc cx = *c;
  if ((st = wnn_bcast_prepare(ctx, OP, c, x, cx.dims, &cx.ndim, NULL))) return st;
  wnn_tdesc all = cx;
  if ((st = wnn_bcast_prepare(ctx, OP, &cx, y, all.dims, &all.ndim, NULL))) return st;
  if ((st = wnn_set_output(ctx, OP, 0, x->dtype, all.ndim, all.dims))) return st;
  const int nd = all.ndim;
  p->ndim = nd;
  p->elem_size = wnn_dtype_size(x->dtype);
  const wnn_tdesc *ins[3] = {c, x, y};
  for (int k = 0; k < 3; k++) {
    size_t stride = 1;
    for (int i = nd - 1; i >= 0; i--) {
      const int j = i - (nd - ins[k]->ndim);
      const int64_t d = j >= 0 ? ins[k]->dims[j] : 1;
      p->strides[k][i] = d == 1 ? 0 : stride;
      stride *= (size_t)d;
    }
  }
  for (int i = 0; i < nd; i++) p->dims[i] = (size_t)all.dims[i];
  return WNN_OK;
}

wnn_status wnn_where_run(const wnn_run_ctx *ctx) {
  const wnn_where_params *p = ctx->params;
  const uint8_t *c = ctx->inputs[0].data;
  const char *x = ctx->inputs[1].data, *yin = ctx->inputs[2].data;
  char *out = ctx->outputs[0].data;
  const size_t es = p->elem_size;
  size_t total = 1;
  for (int i = 0; i < p->ndim; i++) total *= p->dims[i];
  size_t idx[WNN_MAX_DIMS] = {0}, off[3] = {0, 0, 0};
  for (size_t t = 0; t < total; t++) {
    const char *src = c[off[0]] ? x + off[1] * es : yin + off[2] * es;
    memcpy(out + t * es, src, es);
    for (int i = p->ndim - 1; i >= 0; i--) { /* odometer, innermost fastest */
      for (int k = 0; k < 3; k++) off[k] += p->strides[k][i];
      if (++idx[i] < p->dims[i]) break;
      for (int k = 0; k < 3; k++) off[k] -= p->strides[k][i] * idx[i];
      idx[i] = 0;
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(not, "Not", 0, 1, 1, 1, 1, NULL);

/* WNN_OP_SELECTS_INPUT: with guards, an input an untaken If branch left
 * unwritten may be read when the condition does not select it. */
WNN_OP_DEFINE(where, "Where", WNN_OP_SELECTS_INPUT, 3, 3, 1, 1, NULL);
WNN_OP_DEFINE(isnan, "IsNaN", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(isinf, "IsInf", 0, 1, 1, 1, 1, WNN_ATTRS("detect_negative", "detect_positive"));
