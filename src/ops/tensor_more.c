/*
 * Further data-movement ops, any dtype, at their latest opset <= 21:
 *   Compress (11)         input, condition (bool 1-D, constant: it decides the
 *                         output shape); axis (none: the flattened input)
 *   ReverseSequence (10)  input (rank >= 2), sequence_lens (int64 [batch],
 *                         read at run time); batch_axis (1), time_axis (0)
 * Registered with the math family's codes (src/ops/ops.inc, 160-199).
 */
#include <string.h>

#include "ops/more_internal.h"

WNN_PARAMS_FIT(wnn_compress_params);
WNN_PARAMS_FIT(wnn_reversesequence_params);

/* -------------------------------------------------------------- Compress */

wnn_status wnn_compress_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Compress";
  wnn_compress_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *c = &ctx->inputs[1];
  wnn_status st;
  if (x->dtype == WNN_DTYPE_INVALID || wnn_dtype_size(x->dtype) == 0)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (input) has no dtype", OP);
  if (c->dtype != WNN_DTYPE_BOOL)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (condition) is %s, expected bool", OP,
                       wnn_dtype_name(c->dtype));
  if (c->ndim != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (condition) has %d dims, expected 1", OP,
                       c->ndim);
  const size_t len = (size_t)c->dims[0];
  if (!c->data && len > 0)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 1 (condition) must be a constant (it decides the output shape)",
                       OP);
  const bool has_axis = wnn_attr_has(ctx, "axis");
  int64_t axis;
  int ax = 0;
  if ((st = wnn_attr_int(ctx, "axis", 0, &axis))) return st;
  int64_t out[WNN_MAX_DIMS];
  int nd;
  if (has_axis) {
    if ((st = wnn_normalize_axis(ctx, OP, "axis", axis, x->ndim, false, &ax))) return st;
    p->outer = (size_t)wnn_shape_numel(ax, x->dims);
    p->n = (size_t)x->dims[ax];
    p->inner = (size_t)wnn_shape_numel(x->ndim - ax - 1, x->dims + ax + 1);
    nd = x->ndim;
    memcpy(out, x->dims, sizeof out);
  } else { /* the flattened input */
    p->outer = 1, p->inner = 1;
    p->n = (size_t)wnn_shape_numel(x->ndim, x->dims);
    nd = 1;
  }
  if (len > p->n)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (condition) has %zu entries, more than the %zu along %s", OP,
                       len, p->n, has_axis ? "axis" : "the flattened input");
  p->len = len;
  p->elem_size = wnn_dtype_size(x->dtype);
  int64_t kept = 0;
  for (size_t i = 0; i < len; i++) kept += ((const unsigned char *)c->data)[i] != 0;
  out[has_axis ? ax : 0] = kept;
  return wnn_set_output(ctx, OP, 0, x->dtype, nd, out);
}

/* Copies, for every outer index, the inner blocks whose condition holds. The
 * condition is the constant prepare counted. */
wnn_status wnn_compress_run(const wnn_run_ctx *ctx) {
  const wnn_compress_params *p = ctx->params;
  const unsigned char *x = ctx->inputs[0].data, *cond = ctx->inputs[1].data;
  unsigned char *y = ctx->outputs[0].data;
  const size_t block = p->inner * p->elem_size;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t k = 0; k < p->len; k++)
      if (cond[k]) {
        memcpy(y, x + (o * p->n + k) * block, block);
        y += block;
      }
  return WNN_OK;
}

/* ------------------------------------------------------- ReverseSequence */

wnn_status wnn_reversesequence_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "ReverseSequence";
  wnn_reversesequence_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *l = &ctx->inputs[1];
  wnn_status st;
  int64_t batch_axis, time_axis;
  if (wnn_dtype_size(x->dtype) == 0)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (input) has no dtype", OP);
  if (x->ndim < 2)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (input) has %d dims, expected at least 2",
                       OP, x->ndim);
  if ((st = wnn_attr_int(ctx, "batch_axis", 1, &batch_axis))) return st;
  if ((st = wnn_attr_int(ctx, "time_axis", 0, &time_axis))) return st;
  if (!((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0)))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: batch_axis %lld and time_axis %lld must be 0 and 1 in some order", OP,
                       (long long)batch_axis, (long long)time_axis);
  p->batch_first = batch_axis == 0;
  p->batch = (size_t)x->dims[batch_axis];
  p->seq = (size_t)x->dims[time_axis];
  p->inner = (size_t)wnn_shape_numel(x->ndim - 2, x->dims + 2);
  p->elem_size = wnn_dtype_size(x->dtype);
  if ((st = wnn_expect_dtype(ctx, OP, 1, "sequence_lens", WNN_DTYPE_I64))) return st;
  if (l->ndim != 1 || l->dims[0] != x->dims[batch_axis])
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (sequence_lens) must be 1-D of length %lld (the batch)", OP,
                       (long long)x->dims[batch_axis]);
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

/* For each batch entry b with length L, the first L time steps are reversed
 * and the rest copied. A length outside [0, seq] fails the run. */
wnn_status wnn_reversesequence_run(const wnn_run_ctx *ctx) {
  const wnn_reversesequence_params *p = ctx->params;
  const unsigned char *x = ctx->inputs[0].data;
  const int64_t *lens = ctx->inputs[1].data;
  unsigned char *y = ctx->outputs[0].data;
  const size_t block = p->inner * p->elem_size;
  for (size_t b = 0; b < p->batch; b++)
    if (lens[b] < 0 || (uint64_t)lens[b] > p->seq)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                          "ReverseSequence: sequence_lens[%zu] is %lld, outside [0, %zu]", b,
                          (long long)lens[b], p->seq);
  for (size_t b = 0; b < p->batch; b++) {
    const size_t len = (size_t)lens[b];
    for (size_t t = 0; t < p->seq; t++) {
      const size_t src = t < len ? len - 1 - t : t;
      const size_t yo = p->batch_first ? b * p->seq + t : t * p->batch + b;
      const size_t xo = p->batch_first ? b * p->seq + src : src * p->batch + b;
      memcpy(y + yo * block, x + xo * block, block);
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

const wnn_op wnn_compress_op = {
    .code = WNN_OP_CODE(compress),
    .name = "Compress",
    .min_inputs = 2, .max_inputs = 2, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("axis"),
    .prepare = wnn_compress_prepare,
    .run = wnn_compress_run,
    .reference = WNN_REF(wnn_ref_compress),
};

const wnn_op wnn_reversesequence_op = {
    .code = WNN_OP_CODE(reversesequence),
    .name = "ReverseSequence",
    .min_inputs = 2, .max_inputs = 2, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("batch_axis", "time_axis"),
    .prepare = wnn_reversesequence_prepare,
    .run = wnn_reversesequence_run,
    .reference = WNN_REF(wnn_ref_reversesequence),
};
