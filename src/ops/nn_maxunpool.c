/*
 * MaxUnpool (ONNX opset 11), float32 X with int64 indices I (MaxPool's
 * Indices: flat positions in the whole N x C x spatial tensor), any spatial
 * rank. Y is zero except for X's elements: I[i] is a flat position in the
 * default unpooled shape, per spatial dim (in - 1) * stride + kernel -
 * pad_begin - pad_end, and X.flat[i] goes to the same coordinates in Y; where
 * indices repeat, the last one written wins. Y's shape is the default one or
 * output_shape (input 2, which decides the shape, so it must be a constant);
 * with output_shape the coordinates keep their place in the larger grid, as
 * ONNX's test data (test_maxunpool_export_with_output_shape) has it.
 *
 * Indices are data: run checks each against Y's size and fails with
 * WNN_ERR_OUT_OF_RANGE naming it.
 */
#include <string.h>

#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_maxunpool_params);

static const char OP[] = "MaxUnpool";

wnn_status wnn_maxunpool_prepare(wnn_prepare_ctx *ctx) {
  wnn_maxunpool_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *ind = &ctx->inputs[1];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "I", WNN_DTYPE_I64))) return st;
  if (x->ndim < 3)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected at least 3", OP,
                       x->ndim);
  if (!wnn_shape_equal(x->ndim, x->dims, ind->ndim, ind->dims)) {
    char a[64], b[64];
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (I) has shape %s, expected X's %s", OP,
                       wnn_format_dims(a, sizeof a, ind->ndim, ind->dims),
                       wnn_format_dims(b, sizeof b, x->ndim, x->dims));
  }
  const int n = x->ndim - 2;
  int64_t kernel[WNN_MAX_DIMS], stride[WNN_MAX_DIMS], pads[2 * WNN_MAX_DIMS];
  bool has_kernel;
  if ((st = wnn_nn_attr_ints(ctx, OP, "kernel_shape", n, 1, 1, false, kernel, &has_kernel)))
    return st;
  if (!has_kernel)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel_shape is required", OP);
  if ((st = wnn_nn_attr_ints(ctx, OP, "strides", n, 1, 1, false, stride, NULL))) return st;
  if ((st = wnn_nn_attr_ints(ctx, OP, "pads", 2 * n, 0, 0, false, pads, NULL))) return st;

  int64_t out[WNN_MAX_DIMS];
  out[0] = x->dims[0], out[1] = x->dims[1];
  for (int d = 0; d < n; d++) {
    out[2 + d] = (x->dims[2 + d] - 1) * stride[d] + kernel[d] - pads[d] - pads[n + d];
    if (out[2 + d] < 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: pads leave a negative output in spatial dim %d",
                         OP, d);
  }
  memcpy(p->dflt, out, sizeof out);
  if (ctx->num_inputs > 2 && wnn_has_input(ctx, 2)) {
    const wnn_tdesc *os = &ctx->inputs[2];
    if ((st = wnn_expect_dtype(ctx, OP, 2, "output_shape", WNN_DTYPE_I64))) return st;
    if (!os->data)
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: input 2 (output_shape) must be a constant: it decides the output "
                         "shape",
                         OP);
    if (os->ndim != 1 || os->dims[0] != x->ndim)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (output_shape) must have %d values", OP,
                         x->ndim);
    const int64_t *v = os->data;
    for (int d = 0; d < x->ndim; d++) {
      if (d < 2 ? v[d] != x->dims[d] : v[d] < 0)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                           "%s: output_shape[%d] = %lld does not fit X (dims 0 and 1 must be "
                           "X's, the others >= 0)",
                           OP, d, (long long)v[d]);
      out[d] = v[d];
    }
  }
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, out))) return st;
  p->in_count = (size_t)wnn_shape_numel(x->ndim, x->dims);
  p->out_count = (size_t)wnn_shape_numel(x->ndim, out);
  p->dflt_count = (size_t)wnn_shape_numel(x->ndim, p->dflt);
  p->ndim = x->ndim;
  memcpy(p->out, out, sizeof out);
  return WNN_OK;
}

wnn_status wnn_maxunpool_run(const wnn_run_ctx *ctx) {
  const wnn_maxunpool_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  const int64_t *ind = ctx->inputs[1].data;
  float *y = ctx->outputs[0].data;
  memset(y, 0, p->out_count * sizeof(float));
  for (size_t i = 0; i < p->in_count; i++) {
    if (ind[i] < 0 || (uint64_t)ind[i] >= p->dflt_count)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                          "%s: index %lld (input 1, I, element %zu) is outside the unpooled "
                          "shape's %zu elements",
                          OP, (long long)ind[i], i, p->dflt_count);
    /* Coordinates in the default shape, re-flattened in Y's shape. */
    int64_t rest = ind[i], at = 0, scale = 1;
    for (int d = p->ndim - 1; d >= 0; d--) {
      const int64_t c = rest % p->dflt[d];
      rest /= p->dflt[d];
      if (c >= p->out[d])
        return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                            "%s: index %lld (input 1, I, element %zu) lies outside output_shape "
                            "in dim %d",
                            OP, (long long)ind[i], i, d);
      at += c * scale;
      scale *= p->out[d];
    }
    y[at] = x[i];
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(maxunpool, "MaxUnpool", 0, 2, 3, 1, 1, WNN_ATTRS("kernel_shape", "pads", "strides"));
