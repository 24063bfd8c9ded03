/*
 * GridSample (ONNX opset 20; opset 16's names "bilinear" and "bicubic" are
 * accepted too), float32, 2-D: X [N, C, H, W], grid [N, H_out, W_out, 2]
 * holding (x, y) in [-1, 1], Y [N, C, H_out, W_out].
 *
 * A grid value g maps to the input coordinate ((g + 1) * size - 1) / 2, or
 * with align_corners (g + 1) / 2 * (size - 1). The sample interpolates the
 * taps around it (nearest: the one at the coordinate rounded half to even;
 * linear: 2 per axis; cubic: 4 per axis, Keys a = -0.75), each tap read with
 * the padding mode: zeros (0 outside), border (the nearest edge pixel) or
 * reflection (reflected at the borders, -0.5 and size - 0.5, or 0 and size - 1
 * with align_corners, until inside). Run computes each output pixel's taps
 * and weights once and applies them to every channel.
 */
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_gridsample_params);

static const char OP[] = "GridSample";

wnn_status wnn_gridsample_prepare(wnn_prepare_ctx *ctx) {
  wnn_gridsample_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *g = &ctx->inputs[1];
  wnn_status st;
  const char *mode, *padding;
  if ((st = wnn_attr_string(ctx, "mode", "linear", &mode))) return st;
  if (strcmp(mode, "linear") == 0 || strcmp(mode, "bilinear") == 0)
    p->mode = WNN_GRID_LINEAR;
  else if (strcmp(mode, "nearest") == 0)
    p->mode = WNN_GRID_NEAREST;
  else if (strcmp(mode, "cubic") == 0 || strcmp(mode, "bicubic") == 0)
    p->mode = WNN_GRID_CUBIC;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: mode '%s' is not linear, nearest or cubic",
                       OP, mode);
  if ((st = wnn_attr_string(ctx, "padding_mode", "zeros", &padding))) return st;
  if (strcmp(padding, "zeros") == 0)
    p->padding = WNN_GRID_ZEROS;
  else if (strcmp(padding, "border") == 0)
    p->padding = WNN_GRID_BORDER;
  else if (strcmp(padding, "reflection") == 0)
    p->padding = WNN_GRID_REFLECTION;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: padding_mode '%s' is not zeros, border or reflection", OP, padding);
  if ((st = wnn_attr_bool(ctx, OP, "align_corners", &p->align_corners))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "grid", WNN_DTYPE_F32))) return st;
  if (x->ndim == 5)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: 3-D sampling (5-D input X) is not supported, only 2-D", OP);
  if (x->ndim != 4)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected 4", OP, x->ndim);
  if (g->ndim != 4 || g->dims[0] != x->dims[0] || g->dims[3] != 2) {
    char buf[64];
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (grid) has shape %s, expected [%lld, H_out, W_out, 2]", OP,
                       wnn_format_dims(buf, sizeof buf, g->ndim, g->dims), (long long)x->dims[0]);
  }
  if (wnn_checked_numel(4, x->dims, sizeof(float)) < 0 ||
      wnn_checked_numel(4, g->dims, sizeof(float)) < 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: an input has a bad or too large shape", OP);
  if ((x->dims[2] == 0 || x->dims[3] == 0) && g->dims[1] * g->dims[2] > 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has an empty image to sample", OP);
  const int64_t out[4] = {x->dims[0], x->dims[1], g->dims[1], g->dims[2]};
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, 4, out))) return st;
  p->n = (size_t)x->dims[0], p->c = (size_t)x->dims[1];
  p->h = (size_t)x->dims[2], p->w = (size_t)x->dims[3];
  p->out_h = (size_t)g->dims[1], p->out_w = (size_t)g->dims[2];
  return WNN_OK;
}

/* Reflects integer tap i into [0, size) as the padding mode says; -1 marks
 * a zero (zeros padding, outside). */
static int64_t pad_index(const wnn_gridsample_params *p, int64_t i, size_t size) {
  const int64_t n = (int64_t)size;
  if (i >= 0 && i < n) return i;
  if (p->padding == WNN_GRID_ZEROS) return -1;
  if (p->padding == WNN_GRID_REFLECTION && n > 1) {
    /* Mirror about the borders: period 2n (edges doubled, at -0.5 and
     * n - 0.5) or 2(n - 1) (edges once, at 0 and n - 1, align_corners). */
    const int64_t period = p->align_corners ? 2 * (n - 1) : 2 * n;
    int64_t r = i % period;
    if (r < 0) r += period;
    if (r >= n) r = p->align_corners ? period - r : period - 1 - r;
    return r;
  }
  return i < 0 ? 0 : n - 1; /* border, or reflection of a single pixel */
}

/* Keys cubic weights for fraction t of taps -1, 0, 1, 2. */
static void cubic_weights(float t, float *w) {
  const float a = -0.75f;
  const float d[4] = {t + 1.0f, t, 1.0f - t, 2.0f - t};
  for (int k = 0; k < 4; k++) {
    const float s = d[k];
    w[k] = s <= 1.0f ? ((a + 2.0f) * s - (a + 3.0f)) * s * s + 1.0f
                     : ((a * s - 5.0f * a) * s + 8.0f * a) * s - 4.0f * a;
  }
}

/* Taps of one axis: up to 4 padded indices (-1: zero) and weights. */
static int axis_taps(const wnn_gridsample_params *p, float g, size_t size, int64_t *idx, float *w) {
  const float fs = (float)size;
  const float x =
      p->align_corners ? (g + 1.0f) / 2.0f * (fs - 1.0f) : ((g + 1.0f) * fs - 1.0f) / 2.0f;
  if (p->mode == WNN_GRID_NEAREST) {
    idx[0] = pad_index(p, (int64_t)nearbyintf(x), size);
    w[0] = 1.0f;
    return 1;
  }
  const float x0 = floorf(x), t = x - x0;
  if (p->mode == WNN_GRID_LINEAR) {
    idx[0] = pad_index(p, (int64_t)x0, size);
    idx[1] = pad_index(p, (int64_t)x0 + 1, size);
    w[0] = 1.0f - t, w[1] = t;
    return 2;
  }
  cubic_weights(t, w);
  for (int k = 0; k < 4; k++) idx[k] = pad_index(p, (int64_t)x0 - 1 + k, size);
  return 4;
}

wnn_status wnn_gridsample_run(const wnn_run_ctx *ctx) {
  const wnn_gridsample_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *grid = ctx->inputs[1].data;
  float *y = ctx->outputs[0].data;
  const size_t plane = p->h * p->w, out_plane = p->out_h * p->out_w;
  for (size_t n = 0; n < p->n; n++)
    for (size_t o = 0; o < out_plane; o++) {
      const float *g = grid + (n * out_plane + o) * 2;
      int64_t ix[4], iy[4];
      float wx[4], wy[4];
      const int nx = axis_taps(p, g[0], p->w, ix, wx);
      const int ny = axis_taps(p, g[1], p->h, iy, wy);
      for (size_t c = 0; c < p->c; c++) {
        const float *xc = x + (n * p->c + c) * plane;
        float sum = 0.0f;
        for (int b = 0; b < ny; b++) {
          if (iy[b] < 0) continue;
          float row = 0.0f;
          for (int a = 0; a < nx; a++)
            if (ix[a] >= 0) row += wx[a] * xc[(size_t)iy[b] * p->w + (size_t)ix[a]];
          sum += wy[b] * row;
        }
        y[(n * p->c + c) * out_plane + o] = sum;
      }
    }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(gridsample, "GridSample", 0, 2, 2, 1, 1,
              WNN_ATTRS("align_corners", "mode", "padding_mode"));
