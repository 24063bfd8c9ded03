/*
 * Conv (ONNX opset 13), float32, NCHW, 1-D and 2-D. Three methods, chosen at
 * prepare:
 *   depthwise    group == C == M: a direct loop per channel (wnn_f32_dwconv);
 *   direct GEMM  1x1 kernel, stride 1, no pads: each group's input channels
 *                already are the GEMM's B (C/group x H*W), no scratch;
 *   im2col       otherwise: one group's im2col matrix in scratch, then GEMM.
 * Per image and group: Y_g (M/group x OH*OW) = W_g (M/group x K) * B (K x OH*OW)
 * + bias, K = C/group * kernel size. An optional fused activation
 * (ops/fused_activation.h) then runs over the output.
 */
#include <math.h>

#include "ops/fused_activation.h"
#include "ops/op_internal.h"

WNN_PARAMS_FIT(wnn_conv_params);

static const char OP[] = "Conv";

static wnn_status check_inputs(wnn_prepare_ctx *ctx) {
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "W", WNN_DTYPE_F32))) return st;
  if (wnn_has_input(ctx, 2) && (st = wnn_expect_dtype(ctx, OP, 2, "B", WNN_DTYPE_F32))) return st;
  if (x->ndim == 5)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: 3-D convolution (5-D input X) is not "
                       "supported, only 1-D and 2-D", OP);
  if (x->ndim != 3 && x->ndim != 4)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected 3 or 4", OP,
                       x->ndim);
  if ((st = wnn_expect_ndim(ctx, OP, 1, "W", x->ndim))) return st;
  for (int i = 0; i < 2; i++)
    if (wnn_checked_numel(ctx->inputs[i].ndim, ctx->inputs[i].dims, sizeof(float)) < 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d has a bad or too large shape", OP, i);
  return WNN_OK;
}

/* Checks group against the channel counts of X, W and B. */
static wnn_status check_channels(wnn_prepare_ctx *ctx, int64_t group) {
  const wnn_tdesc *x = &ctx->inputs[0], *w = &ctx->inputs[1];
  const int64_t c = x->dims[1], m = w->dims[0], cg = w->dims[1];
  if (group < 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: group %lld must be >= 1", OP,
                       (long long)group);
  if (c % group != 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: group %lld does not divide the %lld input channels of X", OP,
                       (long long)group, (long long)c);
  if (m % group != 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: group %lld does not divide the %lld output channels (W dim 0)", OP,
                       (long long)group, (long long)m);
  if (cg != c / group)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (W) has %lld channels per group (dim 1), expected C/group = "
                       "%lld/%lld = %lld",
                       OP, (long long)cg, (long long)c, (long long)group, (long long)(c / group));
  if (wnn_has_input(ctx, 2)) {
    const wnn_tdesc *b = &ctx->inputs[2];
    if (b->ndim != 1 || b->dims[0] != m)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (B) must have shape [%lld] (W dim 0)",
                         OP, (long long)m);
  }
  return WNN_OK;
}

/* kernel_shape is optional in Conv; when given it must agree with W. */
static wnn_status read_kernel(wnn_prepare_ctx *ctx, wnn_window_spec *spec) {
  const wnn_tdesc *w = &ctx->inputs[1];
  int64_t ks[WNN_MAX_DIMS];
  int count;
  wnn_status st = wnn_attr_ints(ctx, "kernel_shape", ks, WNN_MAX_DIMS, &count);
  if (st) return st;
  for (int d = 0; d < spec->spatial; d++) spec->kernel[d] = w->dims[2 + d];
  if (count < 0) return WNN_OK;
  if (count != spec->spatial)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel_shape has %d values, expected %d",
                       OP, count, spec->spatial);
  for (int d = 0; d < spec->spatial; d++)
    if (ks[d] != spec->kernel[d])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: kernel_shape[%d] = %lld does not match W's spatial dim %lld", OP, d,
                         (long long)ks[d], (long long)spec->kernel[d]);
  return WNN_OK;
}

static int choose_method(const wnn_conv_params *p) {
  const wnn_window2d *w = &p->win;
  if (p->group > 1 && p->group == p->in_c && p->out_c == p->in_c) return WNN_CONV_DEPTHWISE;
  if (w->k_h == 1 && w->k_w == 1 && w->stride_h == 1 && w->stride_w == 1 && w->pad_t == 0 &&
      w->pad_l == 0 && w->pad_b == 0 && w->pad_r == 0)
    return WNN_CONV_DIRECT_GEMM;
  return WNN_CONV_IM2COL;
}

wnn_status wnn_conv_prepare(wnn_prepare_ctx *ctx) {
  wnn_conv_act_params *pa = ctx->params;
  wnn_conv_params *p = &pa->base;
  wnn_status st;
  if ((st = check_inputs(ctx))) return st;
  if ((st = wnn_fused_activation_prepare(ctx, OP, &pa->act))) return st;
  const wnn_tdesc *x = &ctx->inputs[0], *w = &ctx->inputs[1];
  int64_t group;
  if ((st = wnn_attr_int(ctx, "group", 1, &group))) return st;
  if ((st = check_channels(ctx, group))) return st;

  wnn_window_spec spec = {.spatial = x->ndim - 2};
  for (int d = 0; d < spec.spatial; d++) spec.in[d] = x->dims[2 + d];
  if ((st = read_kernel(ctx, &spec))) return st;
  if ((st = wnn_window_prepare(ctx, OP, &spec))) return st;

  int64_t out_dims[4] = {x->dims[0], w->dims[0], spec.out[0], spec.out[1]};
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, out_dims))) return st;

  p->spatial = spec.spatial;
  p->group = (size_t)group;
  p->batch = (size_t)x->dims[0];
  p->in_c = (size_t)x->dims[1];
  p->out_c = (size_t)w->dims[0];
  p->win = wnn_window_to_2d(&spec);
  p->method = choose_method(p);
  p->gemm = wnn_select_f32_gemm(ctx->kernels);
  p->im2col = wnn_select_f32_im2col(ctx->kernels);
  p->dwconv = wnn_select_f32_dwconv(ctx->kernels);

  ctx->scratch_bytes = 0;
  if (p->method == WNN_CONV_IM2COL) {
    /* One group's im2col matrix: K rows of OH*OW. */
    const int64_t col_dims[4] = {w->dims[1], (int64_t)(p->win.k_h * p->win.k_w),
                                 (int64_t)p->win.out_h, (int64_t)p->win.out_w};
    const int64_t n = wnn_checked_numel(4, col_dims, sizeof(float));
    if (n < 0) return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: im2col buffer too large", OP);
    ctx->scratch_bytes = (size_t)n * sizeof(float);
  }
  return WNN_OK;
}

wnn_status wnn_conv_run(const wnn_run_ctx *ctx) {
  const wnn_conv_act_params *pa = ctx->params;
  const wnn_conv_params *p = &pa->base;
  const wnn_window2d *win = &p->win;
  const float *x = ctx->inputs[0].data, *w = ctx->inputs[1].data;
  const float *bias = ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  const size_t in_plane = win->in_h * win->in_w, out_plane = win->out_h * win->out_w;

  if (p->method == WNN_CONV_DEPTHWISE) {
    for (size_t n = 0; n < p->batch; n++)
      p->dwconv(p->in_c, x + n * p->in_c * in_plane, w, bias, y + n * p->out_c * out_plane, win);
    wnn_fused_activation_apply(&pa->act, y, p->batch * p->out_c * out_plane);
    return WNN_OK;
  }
  const size_t cg = p->in_c / p->group, mg = p->out_c / p->group;
  const size_t k = cg * win->k_h * win->k_w;
  const wnn_f32_gemm_params gp = {.alpha = 1.0f, .beta = 0.0f, .min = -INFINITY, .max = INFINITY};
  for (size_t n = 0; n < p->batch; n++) {
    for (size_t g = 0; g < p->group; g++) {
      const float *xg = x + (n * p->in_c + g * cg) * in_plane;
      const float *b = xg; /* direct GEMM: the input planes are B */
      if (p->method == WNN_CONV_IM2COL) {
        p->im2col(cg, xg, ctx->scratch, win);
        b = ctx->scratch;
      }
      float *yg = y + (n * p->out_c + g * mg) * out_plane;
      p->gemm(mg, out_plane, k, w + g * mg * k, k, 1, b, out_plane, 1, bias ? bias + g * mg : NULL,
              yg, out_plane, &gp);
    }
  }
  wnn_fused_activation_apply(&pa->act, y, p->batch * p->out_c * out_plane);
  return WNN_OK;
}
