/*
 * Conv (ONNX opset 13), float32, NCHW, 1-D and 2-D. Four methods, chosen at
 * prepare (choose_method):
 *   Winograd     3x3, stride 1, group 1, on channel counts and planes where it
 *                was measured to win (ops/conv_winograd.h, docs/winograd.md);
 *   depthwise    group == C == M: a direct loop per channel (wnn_f32_dwconv);
 *   direct GEMM  1x1 kernel, stride 1, no pads: each group's input channels
 *                already are the GEMM's B (C/group x H*W); with many output
 *                channels each tile of it is packed into scratch first
 *                (wnn_f32_gemm_pack), else no scratch;
 *   im2col       otherwise: im2col of one tile of output pixels into scratch,
 *                then the GEMM of that tile.
 * Per image and group: Y_g (M/group x OH*OW) = W_g (M/group x K) * B (K x OH*OW)
 * + bias, K = C/group * kernel size, computed tile by tile: a tile is `tile`
 * consecutive output pixels (columns of B and of Y_g), so the im2col scratch
 * is one K x tile panel that stays in cache while the GEMM reads it, instead
 * of the whole K x OH*OW matrix. Every output still sums over k in the same
 * order, so the results do not depend on the tiling.
 *
 * The fused activation (ops/fused_activation.h) is applied to each tile (each
 * channel for depthwise) right after it is computed, while it is in cache:
 * Relu and Clip as the GEMM's own clamp, the others by the activation kernel.
 */
#include <math.h>

#include "ops/conv_winograd.h"
#include "ops/fused_activation.h"
#include "ops/op_internal.h"
#include "runtime/pool.h"

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

/* The method for a prepared geometry; one more method is one more line here
 * (and its case in prepare's scratch and in run). */
static int choose_method(const wnn_conv_params *p) {
  const wnn_window2d *w = &p->win;
  if (p->group > 1 && p->group == p->in_c && p->out_c == p->in_c) return WNN_CONV_DEPTHWISE;
  if (w->k_h == 1 && w->k_w == 1 && w->stride_h == 1 && w->stride_w == 1 && w->pad_t == 0 &&
      w->pad_l == 0 && w->pad_b == 0 && w->pad_r == 0)
    return WNN_CONV_DIRECT_GEMM;
  if (p->spatial == 2 && p->group == 1 && wnn_conv_winograd_applies(w, p->in_c, p->out_c))
    return WNN_CONV_WINOGRAD;
  return WNN_CONV_IM2COL;
}

/* A tile's working set: the K x tile panel of B (im2col), or the rows x tile
 * block of Y the activation revisits (direct GEMM). 256 KiB stays in the L2 of
 * the x86-64 and arm64 cores wasm engines run on (1 MiB per core on the
 * benchmark machine) next to the weights. On bench_kernels' Conv 3x3 cases,
 * panels of 64 to 512 KiB ran within noise of each other, and about twice as
 * fast as the untiled matrix on a 32x160x160 input. */
enum { TILE_BYTES = 256 * 1024, TILE_ALIGN = 32 };

/* Pixels per tile for `rows` floats per pixel: a multiple of the GEMMs'
 * column blocks (TILE_ALIGN), at least one block, at most every pixel. */
static size_t tile_pixels(size_t rows, size_t pixels) {
  size_t t = TILE_BYTES / sizeof(float) / (rows ? rows : 1);
  t = t / TILE_ALIGN * TILE_ALIGN;
  if (t < TILE_ALIGN) t = TILE_ALIGN;
  return t < pixels ? t : pixels;
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
  p->kernels = ctx->kernels;
  p->gemm = wnn_select_f32_gemm(ctx->kernels);
  p->im2col_tile = wnn_select_f32_im2col_tile(ctx->kernels);
  p->dwconv = wnn_select_f32_dwconv(ctx->kernels);

  /* Relu and Clip are the GEMM's clamp (the same comparisons, so the same
   * bits); the depthwise kernel has no clamp, so it takes every activation
   * from the activation kernel. */
  const int kind = pa->act.kind;
  const bool in_gemm =
      p->method != WNN_CONV_DEPTHWISE && (kind == WNN_ACT_RELU || kind == WNN_ACT_CLIP);
  p->gemm_min = in_gemm ? (kind == WNN_ACT_RELU ? 0.0f : pa->act.p0) : -INFINITY;
  p->gemm_max = in_gemm && kind == WNN_ACT_CLIP ? pa->act.p1 : INFINITY;
  p->act = kind != WNN_ACT_NONE && !in_gemm ? wnn_select_f32_act(ctx->kernels) : NULL;

  const size_t pixels = p->win.out_h * p->win.out_w;
  const size_t k = (size_t)w->dims[1] * p->win.k_h * p->win.k_w;
  ctx->scratch_bytes = 0;
  p->tile = pixels;
  if (p->method == WNN_CONV_IM2COL) {
    /* One tile's panel: K rows of `tile` pixels. */
    p->tile = tile_pixels(k, pixels);
    const int64_t col_dims[2] = {(int64_t)k, (int64_t)p->tile};
    const int64_t n = wnn_checked_numel(2, col_dims, sizeof(float));
    if (n < 0) return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: im2col buffer too large", OP);
    ctx->scratch_bytes = (size_t)n * sizeof(float);
  } else if (p->method == WNN_CONV_WINOGRAD) {
    ctx->scratch_bytes = wnn_conv_winograd_scratch_bytes(&p->win, p->in_c, p->out_c);
  } else if (p->method == WNN_CONV_DIRECT_GEMM) {
    if (p->act) p->tile = tile_pixels(p->out_c / p->group, pixels);
    /* The input planes read a whole plane apart per k: each tile's columns
     * packed contiguous (wnn_f32_gemm_pack), when that pays and fits the
     * plan of the artifact. */
    const size_t kt = tile_pixels(k, pixels), tile = kt < p->tile ? kt : p->tile;
    const size_t pack = wnn_f32_gemm_pack_bytes(p->out_c / p->group, tile, k);
    if (pack && wnn_scratch_fits(ctx, pack)) {
      p->tile = tile, p->pack = true;
      ctx->scratch_bytes = pack;
    }
  }
  return WNN_OK;
}

/* The fused activation over rows (channels) of an output block, split by
 * rows over intra-op threads (each row alone: the same bits). */
typedef struct act_job {
  wnn_f32_act_ukernel *act;
  size_t cols, rs;
  float *y;
  const wnn_f32_act_params *params;
} act_job;

static void act_rows(void *ctx, size_t r0, size_t r1) {
  const act_job *j = ctx;
  j->act(r1 - r0, j->cols, j->y + r0 * j->rs, j->rs, j->params);
}

static void apply_act(wnn_f32_act_ukernel *act, size_t rows, size_t cols, float *y, size_t rs,
                      const wnn_f32_act_params *params) {
  const act_job j = {act, cols, rs, y, params};
  /* about 16 operations per element (Sigmoid, SiLU, HardSwish) */
  wnn_parallel_for(rows, WNN_PARALLEL_MIN_MACS / (16 * cols + 1) + 1, act_rows, (void *)&j);
}

/* Depthwise planes (batch x channel) as units for wnn_parallel_for. */
typedef struct dw_job {
  const wnn_conv_act_params *pa;
  const float *x, *w, *bias;
  float *y;
} dw_job;

static void dw_planes(void *ctx, size_t u0, size_t u1) {
  const dw_job *j = ctx;
  const wnn_conv_params *p = &j->pa->base;
  const wnn_window2d *win = &p->win;
  const size_t taps = win->k_h * win->k_w, in_plane = win->in_h * win->in_w;
  const size_t out_plane = win->out_h * win->out_w;
  for (size_t u = u0; u < u1; u++) { /* u = n * in_c + c; in_c == out_c */
    const size_t c = u % p->in_c;
    float *yc = j->y + u * out_plane;
    p->dwconv(1, j->x + u * in_plane, j->w + c * taps, j->bias ? j->bias + c : NULL, yc, win);
    if (p->act) p->act(1, out_plane, yc, out_plane, &j->pa->act);
  }
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
    /* Channel by channel, so that the activation finds the plane in cache;
     * the planes split over intra-op threads (each its own output). */
    dw_job job = {pa, x, w, bias, y};
    const size_t plane_macs = out_plane * win->k_h * win->k_w + 1;
    wnn_parallel_for(p->batch * p->in_c, WNN_PARALLEL_MIN_MACS / plane_macs + 1, dw_planes, &job);
    return WNN_OK;
  }
  if (p->method == WNN_CONV_WINOGRAD) {
    for (size_t n = 0; n < p->batch; n++) {
      float *yn = y + n * p->out_c * out_plane;
      wnn_conv_winograd_run(win, p->in_c, p->out_c, x + n * p->in_c * in_plane, w, bias, yn,
                            p->gemm_min, p->gemm_max, ctx->scratch, p->kernels);
      if (p->act) apply_act(p->act, p->out_c, out_plane, yn, out_plane, &pa->act);
    }
    return WNN_OK;
  }
  const size_t cg = p->in_c / p->group, mg = p->out_c / p->group;
  const size_t k = cg * win->k_h * win->k_w;
  const wnn_f32_gemm_params gp = {
      .alpha = 1.0f, .beta = 0.0f, .min = p->gemm_min, .max = p->gemm_max};
  for (size_t n = 0; n < p->batch; n++) {
    for (size_t g = 0; g < p->group; g++) {
      const float *xg = x + (n * p->in_c + g * cg) * in_plane;
      const float *wg = w + g * mg * k, *bg = bias ? bias + g * mg : NULL;
      float *yg = y + (n * p->out_c + g * mg) * out_plane;
      for (size_t p0 = 0; p0 < out_plane; p0 += p->tile) {
        const size_t np = out_plane - p0 < p->tile ? out_plane - p0 : p->tile;
        if (p->method == WNN_CONV_IM2COL) {
          p->im2col_tile(cg, xg, p0, np, ctx->scratch, win);
          wnn_f32_gemm(&p->gemm, mg, np, k, wg, k, 1, ctx->scratch, np, 1, bg, yg + p0,
                       out_plane, &gp);
        } else { /* direct GEMM: the input planes are B */
          wnn_f32_gemm_pack(&p->gemm, mg, np, k, wg, k, 1, xg + p0, out_plane, 1, bg, yg + p0,
                            out_plane, &gp, p->pack ? ctx->scratch : NULL);
        }
        if (p->act) apply_act(p->act, mg, np, yg + p0, out_plane, &pa->act);
      }
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

/* "activation" and "activation_params" are wnn's fused activation
 * (ops/fused_activation.h), set by the ONNX importer. */
WNN_OP_DEFINE(conv, "Conv", 0, 2, 3, 1, 1,
              WNN_ATTRS("auto_pad", "dilations", "group", "kernel_shape", "pads", "strides",
                        "activation", "activation_params"));
