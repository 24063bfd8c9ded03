/*
 * ConvTranspose (ONNX opset 11), float32, NCHW, 1-D, 2-D and 3-D (1-D runs as
 * 2-D of height 1). X is N x C x H x W, W is C x M/group x kH x kW, B is [M]
 * (with a depth dim first in 3-D).
 *
 * Every input pixel scatters its kernel-sized patch into the output: output
 * pixel oy = iy * stride - pad_begin + ky * dilation. Per image and group,
 * run computes all patches at once as a GEMM,
 *   col (M/group * kH * kW  x  H * W) = W_g^T (.. x C/group) * X_g (C/group x H * W),
 * then adds col into Y (the col2im microkernel, im2col's adjoint) over a Y
 * that starts as the bias.
 *
 * Output size per spatial dim, with full = stride * (in - 1) + output_padding
 * + (kernel - 1) * dilation + 1:
 *   output_shape given   out = output_shape; total = max(0, full - out) pads,
 *                        split as auto_pad SAME_UPPER says (begin = total / 2)
 *                        or, otherwise, with the odd one at the beginning;
 *   SAME_UPPER/LOWER     out = in * stride, pads split the same way;
 *   VALID                out = full;
 *   NOTSET               out = full - pad_begin - pad_end (pads attribute).
 * Output pixels no input reaches hold the bias. 3-D (rare: no model here has
 * one) scatters with a direct loop instead of the GEMM.
 */
#include <math.h>

#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_convtranspose_params);

static const char OP[] = "ConvTranspose";

static wnn_status check_inputs(wnn_prepare_ctx *ctx, int64_t group) {
  const wnn_tdesc *x = &ctx->inputs[0], *w = &ctx->inputs[1];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "W", WNN_DTYPE_F32))) return st;
  if (wnn_has_input(ctx, 2) && (st = wnn_expect_dtype(ctx, OP, 2, "B", WNN_DTYPE_F32))) return st;
  if (x->ndim < 3 || x->ndim > 5)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected 3, 4 or 5", OP,
                       x->ndim);
  if ((st = wnn_expect_ndim(ctx, OP, 1, "W", x->ndim))) return st;
  for (int i = 0; i < 2; i++)
    if (wnn_checked_numel(ctx->inputs[i].ndim, ctx->inputs[i].dims, sizeof(float)) < 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d has a bad or too large shape", OP, i);
  if (group < 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: group %lld must be >= 1", OP,
                       (long long)group);
  if (x->dims[1] % group != 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: group %lld does not divide the %lld input channels of X", OP,
                       (long long)group, (long long)x->dims[1]);
  if (w->dims[0] != x->dims[1])
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (W) has %lld input channels (dim 0), expected X's %lld", OP,
                       (long long)w->dims[0], (long long)x->dims[1]);
  const int64_t m = w->dims[1] * group;
  if (wnn_has_input(ctx, 2)) {
    const wnn_tdesc *b = &ctx->inputs[2];
    if (b->ndim != 1 || b->dims[0] != m)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: input 2 (B) must have shape [%lld] (W dim 1 * group)", OP,
                         (long long)m);
  }
  return WNN_OK;
}

wnn_status wnn_convtranspose_prepare(wnn_prepare_ctx *ctx) {
  wnn_convtranspose_params *p = ctx->params;
  wnn_status st;
  int64_t group;
  if ((st = wnn_attr_int(ctx, "group", 1, &group))) return st;
  if ((st = check_inputs(ctx, group))) return st;
  const wnn_tdesc *x = &ctx->inputs[0], *w = &ctx->inputs[1];
  const int n = x->ndim - 2;

  int64_t kernel[3], ks[3], stride[3], dil[3], pads[6], outpad[3], outshape[3];
  bool has_ks, has_pads, has_outshape;
  int pad_mode = WNN_PAD_NOTSET;
  for (int d = 0; d < n; d++) kernel[d] = w->dims[2 + d];
  if ((st = wnn_nn_attr_ints(ctx, OP, "kernel_shape", n, 1, 1, false, ks, &has_ks))) return st;
  for (int d = 0; has_ks && d < n; d++)
    if (ks[d] != kernel[d])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: kernel_shape[%d] = %lld does not match W's spatial dim %lld", OP, d,
                         (long long)ks[d], (long long)kernel[d]);
  if ((st = wnn_nn_attr_ints(ctx, OP, "strides", n, 1, 1, false, stride, NULL))) return st;
  if ((st = wnn_nn_attr_ints(ctx, OP, "dilations", n, 1, 1, false, dil, NULL))) return st;
  if ((st = wnn_nn_attr_ints(ctx, OP, "pads", 2 * n, 0, 0, false, pads, &has_pads))) return st;
  if ((st = wnn_nn_attr_ints(ctx, OP, "output_padding", n, 0, 0, false, outpad, NULL))) return st;
  if ((st = wnn_nn_attr_ints(ctx, OP, "output_shape", n, 1, 1, true, outshape, &has_outshape)))
    return st;
  if ((st = wnn_nn_auto_pad(ctx, OP, &pad_mode))) return st;
  if (has_pads && pad_mode != WNN_PAD_NOTSET)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: pads and auto_pad other than NOTSET cannot be used together", OP);
  for (int d = 0; d < n; d++)
    if (outpad[d] >= stride[d] && outpad[d] >= dil[d])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: output_padding[%d] = %lld must be smaller than the stride %lld or "
                         "the dilation %lld",
                         OP, d, (long long)outpad[d], (long long)stride[d], (long long)dil[d]);

  int64_t out[3], pad_begin[3];
  for (int d = 0; d < n; d++) {
    const int64_t in = x->dims[2 + d];
    const int64_t full = stride[d] * (in - 1) + outpad[d] + (kernel[d] - 1) * dil[d] + 1;
    if (has_outshape || pad_mode == WNN_PAD_SAME_UPPER || pad_mode == WNN_PAD_SAME_LOWER) {
      out[d] = has_outshape ? outshape[d] : in * stride[d];
      const int64_t total = full > out[d] ? full - out[d] : 0;
      pad_begin[d] = pad_mode == WNN_PAD_SAME_UPPER ? total / 2 : total - total / 2;
    } else if (pad_mode == WNN_PAD_VALID) {
      out[d] = full, pad_begin[d] = 0;
    } else {
      out[d] = full - pads[d] - pads[n + d], pad_begin[d] = pads[d];
      if (out[d] < 1)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                           "%s: pads (%lld, %lld) leave no output in spatial dim %d (full size "
                           "%lld)",
                           OP, (long long)pads[d], (long long)pads[n + d], d, (long long)full);
    }
    if (out[d] > INT32_MAX)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output spatial dim %d is %lld, too large", OP, d,
                         (long long)out[d]);
  }
  const int64_t m = w->dims[1] * group;
  const int64_t out_dims[5] = {x->dims[0], m, out[0], out[1], out[2]};
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, out_dims))) return st;

  const bool two_d = n >= 2;
  const int hd = n - 2; /* the height's index among the spatial dims (2-D, 3-D) */
  p->spatial = n;
  p->batch = (size_t)x->dims[0];
  p->in_c = (size_t)x->dims[1];
  p->out_c = (size_t)m;
  p->group = (size_t)group;
  p->in_h = two_d ? (size_t)x->dims[2 + hd] : 1;
  p->in_w = (size_t)x->dims[x->ndim - 1];
  p->out_h = two_d ? (size_t)out[hd] : 1;
  p->out_w = (size_t)out[n - 1];
  p->k_h = two_d ? (size_t)kernel[hd] : 1;
  p->k_w = (size_t)kernel[n - 1];
  p->stride_h = two_d ? (size_t)stride[hd] : 1;
  p->stride_w = (size_t)stride[n - 1];
  p->dil_h = two_d ? (size_t)dil[hd] : 1;
  p->dil_w = (size_t)dil[n - 1];
  p->pad_t = two_d ? pad_begin[hd] : 0;
  /* Depth (3-D only; 1 and 0 otherwise). */
  p->in_d = n == 3 ? (size_t)x->dims[2] : 1;
  p->out_d = n == 3 ? (size_t)out[0] : 1;
  p->k_d = n == 3 ? (size_t)kernel[0] : 1;
  p->stride_d = n == 3 ? (size_t)stride[0] : 1;
  p->dil_d = n == 3 ? (size_t)dil[0] : 1;
  p->pad_f = n == 3 ? pad_begin[0] : 0;
  p->pad_l = pad_begin[n - 1];
  p->gemm = wnn_select_f32_gemm(ctx->kernels);
  p->col2im = wnn_select_f32_col2im(ctx->kernels);
  p->col_win = (wnn_window2d){.in_h = p->out_h,
                              .in_w = p->out_w,
                              .out_h = p->in_h,
                              .out_w = p->in_w,
                              .k_h = p->k_h,
                              .k_w = p->k_w,
                              .stride_h = p->stride_h,
                              .stride_w = p->stride_w,
                              .dil_h = p->dil_h,
                              .dil_w = p->dil_w,
                              .pad_t = (size_t)p->pad_t,
                              .pad_l = (size_t)p->pad_l};

  if (n == 3) { /* the direct loop needs no scratch */
    ctx->scratch_bytes = 0;
    return WNN_OK;
  }
  /* One group's col matrix: M/group * kH * kW rows of H * W. */
  const int64_t col_dims[3] = {w->dims[1], (int64_t)(p->k_h * p->k_w),
                               (int64_t)(p->in_h * p->in_w)};
  const int64_t cols = wnn_checked_numel(3, col_dims, sizeof(float));
  if (cols < 0) return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: col buffer too large", OP);
  ctx->scratch_bytes = (size_t)cols * sizeof(float);
  return WNN_OK;
}

/* 3-D: every input element scatters its kernel-sized patch, directly. */
static void convtranspose_3d(const wnn_convtranspose_params *p, const float *x, const float *w,
                             const float *bias, float *y) {
  const size_t cg = p->in_c / p->group, mg = p->out_c / p->group;
  const size_t in_vol = p->in_d * p->in_h * p->in_w, out_vol = p->out_d * p->out_h * p->out_w;
  const size_t taps = p->k_d * p->k_h * p->k_w;
  for (size_t n = 0; n < p->batch; n++) {
    float *yn = y + n * p->out_c * out_vol;
    for (size_t m = 0; m < p->out_c; m++)
      for (size_t i = 0; i < out_vol; i++) yn[m * out_vol + i] = bias ? bias[m] : 0.0f;
    for (size_t c = 0; c < p->in_c; c++) {
      const size_t g = c / cg;
      const float *xc = x + (n * p->in_c + c) * in_vol;
      for (size_t id = 0; id < p->in_d; id++)
        for (size_t ih = 0; ih < p->in_h; ih++)
          for (size_t iw = 0; iw < p->in_w; iw++) {
            const float xv = xc[(id * p->in_h + ih) * p->in_w + iw];
            for (size_t mo = 0; mo < mg; mo++) {
              const float *wk = w + (c * mg + mo) * taps;
              float *ym = yn + (g * mg + mo) * out_vol;
              for (size_t kd = 0; kd < p->k_d; kd++) {
                const int64_t od = (int64_t)(id * p->stride_d + kd * p->dil_d) - p->pad_f;
                if (od < 0 || od >= (int64_t)p->out_d) continue;
                for (size_t kh = 0; kh < p->k_h; kh++) {
                  const int64_t oh = (int64_t)(ih * p->stride_h + kh * p->dil_h) - p->pad_t;
                  if (oh < 0 || oh >= (int64_t)p->out_h) continue;
                  for (size_t kw = 0; kw < p->k_w; kw++) {
                    const int64_t ow = (int64_t)(iw * p->stride_w + kw * p->dil_w) - p->pad_l;
                    if (ow < 0 || ow >= (int64_t)p->out_w) continue;
                    ym[((size_t)od * p->out_h + (size_t)oh) * p->out_w + (size_t)ow] +=
                        xv * wk[(kd * p->k_h + kh) * p->k_w + kw];
                  }
                }
              }
            }
          }
    }
  }
}

wnn_status wnn_convtranspose_run(const wnn_run_ctx *ctx) {
  const wnn_convtranspose_params *p = ctx->params;
  if (p->spatial == 3) {
    convtranspose_3d(p, ctx->inputs[0].data, ctx->inputs[1].data,
                     ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL, ctx->outputs[0].data);
    return WNN_OK;
  }
  const float *x = ctx->inputs[0].data, *w = ctx->inputs[1].data;
  const float *bias = ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  float *col = ctx->scratch;
  const size_t in_plane = p->in_h * p->in_w, out_plane = p->out_h * p->out_w;
  const size_t cg = p->in_c / p->group, mg = p->out_c / p->group;
  const size_t kk = p->k_h * p->k_w;
  const wnn_f32_gemm_params gp = {.alpha = 1.0f, .beta = 0.0f, .min = -INFINITY, .max = INFINITY};
  if (in_plane == 0 || out_plane == 0 || mg * kk == 0) { /* no col matrix: Y is the bias */
    for (size_t i = 0; i < p->batch * p->out_c; i++)
      for (size_t j = 0; j < out_plane; j++)
        y[i * out_plane + j] = bias ? bias[i % p->out_c] : 0.0f;
    return WNN_OK;
  }
  for (size_t n = 0; n < p->batch; n++) {
    float *yn = y + n * p->out_c * out_plane;
    for (size_t m = 0; m < p->out_c; m++) {
      const float b = bias ? bias[m] : 0.0f;
      for (size_t i = 0; i < out_plane; i++) yn[m * out_plane + i] = b;
    }
    for (size_t g = 0; g < p->group; g++) {
      const float *xg = x + (n * p->in_c + g * cg) * in_plane;
      const float *wg = w + g * cg * mg * kk; /* cg x (mg * kk), used transposed */
      wnn_f32_gemm(&p->gemm, mg * kk, in_plane, cg, wg, 1, mg * kk, xg, in_plane, 1, NULL, col,
                   in_plane, &gp);
      p->col2im(mg, col, yn + g * mg * out_plane, &p->col_win);
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(convtranspose, "ConvTranspose", 0, 2, 3, 1, 1,
              WNN_ATTRS("auto_pad", "dilations", "group", "kernel_shape", "output_padding",
                        "output_shape", "pads", "strides"));
