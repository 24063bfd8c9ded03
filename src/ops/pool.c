/*
 * MaxPool, AveragePool (ONNX opset 13; 1-D and 2-D, NCHW) and
 * GlobalAveragePool (any spatial rank), float32. The 2-D kernels take all
 * N*C planes in one call; 1-D pooling runs as 2-D of height 1.
 */
#include "ops/op_internal.h"

WNN_PARAMS_FIT(wnn_pool_params);

/* What MaxPool and AveragePool share: X, kernel_shape, the window and Y. */
static wnn_status pool_prepare(wnn_prepare_ctx *ctx, const char *op, int kind) {
  wnn_pool_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, op, 0, "X", WNN_DTYPE_F32))) return st;
  if (x->ndim == 5)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: 3-D pooling (5-D input X) is not supported",
                       op);
  if (x->ndim != 3 && x->ndim != 4)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected 3 or 4", op,
                       x->ndim);
  wnn_window_spec spec = {.spatial = x->ndim - 2, .pads_below_kernel = true};
  int64_t ks[WNN_MAX_DIMS];
  int count;
  if ((st = wnn_attr_ints(ctx, "kernel_shape", ks, WNN_MAX_DIMS, &count))) return st;
  if (count < 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel_shape is required", op);
  if (count != spec.spatial)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel_shape has %d values, expected %d",
                       op, count, spec.spatial);
  for (int d = 0; d < spec.spatial; d++) spec.in[d] = x->dims[2 + d], spec.kernel[d] = ks[d];
  if ((st = wnn_attr_bool(ctx, op, "ceil_mode", &spec.ceil_mode))) return st;
  if ((st = wnn_window_prepare(ctx, op, &spec))) return st;
  const int64_t out[4] = {x->dims[0], x->dims[1], spec.out[0], spec.out[1]};
  if ((st = wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, x->ndim, out))) return st;
  p->spatial = spec.spatial;
  p->planes = (size_t)(x->dims[0] * x->dims[1]);
  p->pool.win = wnn_window_to_2d(&spec);
  p->fn = wnn_select_f32_pool2d(ctx->kernels, kind);
  return WNN_OK;
}

static wnn_status pool_run(const wnn_run_ctx *ctx) {
  const wnn_pool_params *p = ctx->params;
  p->fn(p->planes, ctx->inputs[0].data, ctx->outputs[0].data, &p->pool);
  return WNN_OK;
}

wnn_status wnn_maxpool_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "MaxPool";
  if (ctx->num_outputs > 1)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: output 1 (Indices) is not supported", OP);
  bool storage_order;
  wnn_status st = wnn_attr_bool(ctx, OP, "storage_order", &storage_order);
  if (st) return st; /* storage_order only affects Indices: checked, then unused */
  return pool_prepare(ctx, OP, WNN_POOL_MAX);
}

wnn_status wnn_maxpool_run(const wnn_run_ctx *ctx) { return pool_run(ctx); }

wnn_status wnn_averagepool_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "AveragePool";
  wnn_pool_params *p = ctx->params;
  wnn_status st = wnn_attr_bool(ctx, OP, "count_include_pad", &p->pool.count_include_pad);
  if (st) return st;
  return pool_prepare(ctx, OP, WNN_POOL_AVG);
}

wnn_status wnn_averagepool_run(const wnn_run_ctx *ctx) { return pool_run(ctx); }

/* ---------------------------------------------------- GlobalAveragePool */

wnn_status wnn_globalaveragepool_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "GlobalAveragePool";
  wnn_pool_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if (x->ndim < 3)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected at least 3", OP,
                       x->ndim);
  int64_t out[WNN_MAX_DIMS];
  out[0] = x->dims[0], out[1] = x->dims[1];
  for (int d = 2; d < x->ndim; d++) out[d] = 1;
  const int64_t plane = wnn_checked_numel(x->ndim - 2, x->dims + 2, sizeof(float));
  if (plane <= 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has no spatial elements to average",
                       OP);
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, out))) return st;
  p->spatial = x->ndim - 2;
  p->planes = (size_t)(x->dims[0] * x->dims[1]);
  p->plane_size = (size_t)plane;
  p->gavg = wnn_select_f32_gavgpool(ctx->kernels);
  return WNN_OK;
}

wnn_status wnn_globalaveragepool_run(const wnn_run_ctx *ctx) {
  const wnn_pool_params *p = ctx->params;
  p->gavg(p->planes, p->plane_size, ctx->inputs[0].data, ctx->outputs[0].data);
  return WNN_OK;
}
