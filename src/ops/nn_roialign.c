/*
 * RoiAlign (opset 16, unchanged to 21), float32: X [N, C, H, W], rois
 * [num_rois, 4] (x1, y1, x2, y2 in the input image's coordinates), batch_indices
 * int64 [num_rois] -> Y [num_rois, C, output_height, output_width].
 * Attributes coordinate_transformation_mode (half_pixel: shift by -0.5;
 * output_half_pixel: no shift, and RoIs at least 1 x 1), mode (avg or max),
 * output_height (1), output_width (1), sampling_ratio (0: ceil(roi size /
 * output size) samples per bin and axis), spatial_scale (1.0).
 *
 * Each bin averages (or takes the max of) grid_h x grid_w bilinear samples; a
 * sample more than one pixel outside X counts as 0; coordinates below 0 clamp
 * to 0 and the last row/column repeats past the edge. max follows
 * onnxruntime: the largest of the four weighted corner terms of each sample.
 * rois and batch_indices are data: a batch index outside [0, N) fails the run
 * with WNN_ERR_OUT_OF_RANGE naming it.
 */
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_roialign_params);

wnn_status wnn_roialign_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "RoiAlign";
  wnn_roialign_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *r = &ctx->inputs[1], *b = &ctx->inputs[2];
  wnn_status st;
  const char *ctm, *mode;
  int64_t oh, ow, sr;
  char a[64];
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "rois", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 2, "batch_indices", WNN_DTYPE_I64))) return st;
  if ((st = wnn_expect_ndim(ctx, OP, 0, "X", 4))) return st;
  if (r->ndim != 2 || r->dims[1] != 4)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (rois) has shape %s, expected [num_rois, 4]", OP,
                       wnn_format_dims(a, sizeof a, r->ndim, r->dims));
  if (b->ndim != 1 || b->dims[0] != r->dims[0])
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 2 (batch_indices) has shape %s, expected [%lld] (num_rois)", OP,
                       wnn_format_dims(a, sizeof a, b->ndim, b->dims), (long long)r->dims[0]);
  if ((st = wnn_attr_string(ctx, "coordinate_transformation_mode", "half_pixel", &ctm))) return st;
  if (strcmp(ctm, "half_pixel") == 0) p->half_pixel = true;
  else if (strcmp(ctm, "output_half_pixel") == 0) p->half_pixel = false;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: coordinate_transformation_mode is '%s', expected 'half_pixel' or "
                       "'output_half_pixel'",
                       OP, ctm);
  if ((st = wnn_attr_string(ctx, "mode", "avg", &mode))) return st;
  if (strcmp(mode, "avg") == 0) p->max_mode = false;
  else if (strcmp(mode, "max") == 0) p->max_mode = true;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: mode is '%s', expected 'avg' or 'max'", OP,
                       mode);
  if ((st = wnn_attr_int(ctx, "output_height", 1, &oh))) return st;
  if ((st = wnn_attr_int(ctx, "output_width", 1, &ow))) return st;
  if ((st = wnn_attr_int(ctx, "sampling_ratio", 0, &sr))) return st;
  if ((st = wnn_attr_float(ctx, "spatial_scale", 1.0f, &p->spatial_scale))) return st;
  if (oh < 1 || ow < 1 || oh > INT32_MAX || ow > INT32_MAX)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: output_height %lld and output_width %lld must be >= 1", OP,
                       (long long)oh, (long long)ow);
  if (sr < 0 || sr > 1024)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: sampling_ratio is %lld, expected 0 to 1024",
                       OP, (long long)sr);
  p->n = (size_t)x->dims[0], p->c = (size_t)x->dims[1];
  p->h = (size_t)x->dims[2], p->w = (size_t)x->dims[3];
  p->oh = (size_t)oh, p->ow = (size_t)ow, p->num_rois = (size_t)r->dims[0];
  p->sampling_ratio = sr;
  const int64_t out[4] = {r->dims[0], x->dims[1], oh, ow};
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, 4, out);
}

/* One bilinear sample of plane at (y, x): its four corner offsets and weights
 * (all weights 0 outside). */
typedef struct sample {
  size_t o[4];
  float wt[4];
} sample;

static sample bilinear(float y, float x, size_t h, size_t w) {
  sample s = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  if (y < -1.0f || y > (float)h || x < -1.0f || x > (float)w || h == 0 || w == 0) return s;
  if (y <= 0.0f) y = 0.0f;
  if (x <= 0.0f) x = 0.0f;
  size_t y0 = (size_t)y, x0 = (size_t)x, y1, x1;
  if (y0 >= h - 1) {
    y0 = y1 = h - 1;
    y = (float)y0;
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= w - 1) {
    x0 = x1 = w - 1;
    x = (float)x0;
  } else {
    x1 = x0 + 1;
  }
  const float ly = y - (float)y0, lx = x - (float)x0, hy = 1.0f - ly, hx = 1.0f - lx;
  s.o[0] = y0 * w + x0, s.o[1] = y0 * w + x1, s.o[2] = y1 * w + x0, s.o[3] = y1 * w + x1;
  s.wt[0] = hy * hx, s.wt[1] = hy * lx, s.wt[2] = ly * hx, s.wt[3] = ly * lx;
  return s;
}

wnn_status wnn_roialign_run(const wnn_run_ctx *ctx) {
  const wnn_roialign_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *rois = ctx->inputs[1].data;
  const int64_t *bi = ctx->inputs[2].data;
  float *y = ctx->outputs[0].data;
  const float off = p->half_pixel ? 0.5f : 0.0f, sc = p->spatial_scale;
  for (size_t r = 0; r < p->num_rois; r++) {
    if (bi[r] < 0 || (uint64_t)bi[r] >= p->n)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                          "RoiAlign: batch_indices[%zu] is %lld, outside [0, %zu)", r,
                          (long long)bi[r], p->n);
    const float *roi = rois + r * 4;
    const float x0 = roi[0] * sc - off, y0 = roi[1] * sc - off;
    float rw = roi[2] * sc - off - x0, rh = roi[3] * sc - off - y0;
    if (!p->half_pixel) rw = rw > 1.0f ? rw : 1.0f, rh = rh > 1.0f ? rh : 1.0f;
    const float bh = rh / (float)p->oh, bw = rw / (float)p->ow;
    const size_t gh =
        p->sampling_ratio > 0 ? (size_t)p->sampling_ratio : (size_t)ceilf(rh / (float)p->oh);
    const size_t gw =
        p->sampling_ratio > 0 ? (size_t)p->sampling_ratio : (size_t)ceilf(rw / (float)p->ow);
    const float count = (float)(gh * gw > 0 ? gh * gw : 1);
    for (size_t c = 0; c < p->c; c++) {
      const float *plane = x + ((size_t)bi[r] * p->c + c) * p->h * p->w;
      float *out = y + (r * p->c + c) * p->oh * p->ow;
      for (size_t ph = 0; ph < p->oh; ph++)
        for (size_t pw = 0; pw < p->ow; pw++) {
          float acc = 0.0f;
          bool first = true;
          for (size_t iy = 0; iy < gh; iy++) {
            const float sy = y0 + (float)ph * bh + ((float)iy + 0.5f) * bh / (float)gh;
            for (size_t ix = 0; ix < gw; ix++) {
              const float sx = x0 + (float)pw * bw + ((float)ix + 0.5f) * bw / (float)gw;
              const sample s = bilinear(sy, sx, p->h, p->w);
              if (p->max_mode) {
                float v = s.wt[0] * plane[s.o[0]];
                for (int k = 1; k < 4; k++) {
                  const float t = s.wt[k] * plane[s.o[k]];
                  v = t > v ? t : v;
                }
                acc = first || v > acc ? v : acc;
                first = false;
              } else {
                acc += s.wt[0] * plane[s.o[0]] + s.wt[1] * plane[s.o[1]] +
                       s.wt[2] * plane[s.o[2]] + s.wt[3] * plane[s.o[3]];
              }
            }
          }
          out[ph * p->ow + pw] = p->max_mode ? acc : acc / count;
        }
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(roialign, "RoiAlign", 0, 3, 3, 1, 1,
              WNN_ATTRS("coordinate_transformation_mode", "mode", "output_height", "output_width",
                        "sampling_ratio", "spatial_scale"));
