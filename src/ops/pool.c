/*
 * MaxPool, AveragePool (ONNX opset 13; 1-D, 2-D and 3-D, NCHW),
 * GlobalAveragePool and GlobalMaxPool (any spatial rank), float32. The 2-D
 * kernels take all N*C planes in one call; 1-D pooling runs as 2-D of height
 * 1; 3-D pooling and MaxPool's optional Indices output (int64) run direct
 * loops.
 */
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "runtime/pool.h"

WNN_PARAMS_FIT(wnn_pool_params);
WNN_PARAMS_FIT(wnn_maxpool_params);
WNN_PARAMS_FIT(wnn_avgpool_params);

/* 3-D pooling geometry, with the rules of the 1-D and 2-D window helper
 * (src/ops/common.c): auto_pad, ceil_mode (a last window that would start in
 * the trailing padding is dropped), pads smaller than the kernel. */
static wnn_status pool3d_prepare(wnn_prepare_ctx *ctx, const char *op, const int64_t *ks,
                                 bool ceil_mode, wnn_pool3d_geom *g, int64_t *out) {
  const wnn_tdesc *x = &ctx->inputs[0];
  int64_t stride[3], dil[3], pads[6];
  bool has_pads;
  int mode = WNN_PAD_NOTSET;
  wnn_status st;
  if ((st = wnn_nn_attr_ints(ctx, op, "strides", 3, 1, 1, false, stride, NULL))) return st;
  if ((st = wnn_nn_attr_ints(ctx, op, "dilations", 3, 1, 1, false, dil, NULL))) return st;
  if ((st = wnn_nn_attr_ints(ctx, op, "pads", 6, 0, 0, false, pads, &has_pads))) return st;
  if ((st = wnn_nn_auto_pad(ctx, op, &mode))) return st;
  if (has_pads && mode != WNN_PAD_NOTSET)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: pads and auto_pad other than NOTSET cannot be used together", op);
  for (int d = 0; d < 3; d++) {
    const int64_t in = x->dims[2 + d], k = ks[d];
    if (k < 1 || k > INT32_MAX || in > INT32_MAX)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel dim %d is %lld, must be >= 1", op,
                         d, (long long)k);
    const int64_t extent = (k - 1) * dil[d] + 1;
    int64_t begin = pads[d], end = pads[3 + d];
    if (mode == WNN_PAD_SAME_UPPER || mode == WNN_PAD_SAME_LOWER) {
      out[d] = (in + stride[d] - 1) / stride[d];
      int64_t total = (out[d] - 1) * stride[d] + extent - in;
      if (total < 0) total = 0;
      begin = mode == WNN_PAD_SAME_UPPER ? total / 2 : total - total / 2;
      end = total - begin;
    } else {
      if (mode == WNN_PAD_VALID) begin = end = 0;
      const int64_t padded = in + begin + end;
      if (padded < extent)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                           "%s: kernel extent %lld (kernel %lld, dilation %lld) is bigger than "
                           "the padded input %lld in spatial dim %d",
                           op, (long long)extent, (long long)k, (long long)dil[d],
                           (long long)padded, d);
      const int64_t span = padded - extent;
      out[d] = (ceil_mode ? (span + stride[d] - 1) / stride[d] : span / stride[d]) + 1;
      if (ceil_mode && (out[d] - 1) * stride[d] >= in + begin) out[d]--;
    }
    if (begin >= k || end >= k)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: pads (%lld, %lld) in spatial dim %d must be smaller than the kernel "
                         "%lld",
                         op, (long long)begin, (long long)end, d, (long long)k);
    g->in[d] = (size_t)in, g->out[d] = (size_t)out[d], g->k[d] = (size_t)k;
    g->stride[d] = (size_t)stride[d], g->dil[d] = (size_t)dil[d];
    g->pad[d] = (size_t)begin, g->pad_end[d] = (size_t)end;
  }
  return WNN_OK;
}

/* What MaxPool and AveragePool share: X, kernel_shape, the window and Y.
 * g3 receives the geometry of 3-D pooling. */
static wnn_status pool_prepare(wnn_prepare_ctx *ctx, const char *op, int kind,
                               wnn_pool3d_geom *g3) {
  wnn_pool_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  /* MaxPool also takes 8-bit integers, 1-D and 2-D (the x8 maxpool kernel, or
   * a direct loop with Indices). */
  const bool small_int = kind == WNN_POOL_MAX && x->ndim <= 4 &&
                         (x->dtype == WNN_DTYPE_U8 || x->dtype == WNN_DTYPE_I8);
  if (!small_int && x->dtype != WNN_DTYPE_F32)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (X) is %s, expected float32%s", op,
                       wnn_dtype_name(x->dtype),
                       kind == WNN_POOL_MAX ? " (or uint8 or int8, with 3 or 4 dims)" : "");
  if (x->ndim < 3 || x->ndim > 5)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected 3, 4 or 5", op,
                       x->ndim);
  if (wnn_checked_numel(x->ndim, x->dims, sizeof(float)) < 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has a bad or too large shape", op);
  wnn_window_spec spec = {.spatial = x->ndim - 2, .pads_below_kernel = true};
  int64_t ks[WNN_MAX_DIMS];
  int count;
  if ((st = wnn_attr_ints(ctx, "kernel_shape", ks, WNN_MAX_DIMS, &count))) return st;
  if (count < 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel_shape is required", op);
  if (count != spec.spatial)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel_shape has %d values, expected %d",
                       op, count, spec.spatial);
  if ((st = wnn_attr_bool(ctx, op, "ceil_mode", &spec.ceil_mode))) return st;
  p->planes = (size_t)(x->dims[0] * x->dims[1]);
  p->fn = wnn_select_f32_pool2d(ctx->kernels, kind);
  if (x->ndim == 5) {
    int64_t out[5] = {x->dims[0], x->dims[1]};
    if ((st = pool3d_prepare(ctx, op, ks, spec.ceil_mode, g3, out + 2))) return st;
    p->spatial = 3;
    return wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, 5, out);
  }
  for (int d = 0; d < spec.spatial; d++) spec.in[d] = x->dims[2 + d], spec.kernel[d] = ks[d];
  if ((st = wnn_window_prepare(ctx, op, &spec))) return st;
  const int64_t out[4] = {x->dims[0], x->dims[1], spec.out[0], spec.out[1]};
  if ((st = wnn_set_output(ctx, op, 0, x->dtype, x->ndim, out))) return st;
  p->spatial = spec.spatial;
  p->pool.win = wnn_window_to_2d(&spec);
  return WNN_OK;
}

/* 3-D pooling, a direct loop per output element. Max keeps the first
 * largest element (a NaN, once seen, stays) and, when indices is non-NULL,
 * its flat input position; average divides by the input elements in the
 * window or, with count_include_pad, by the window positions inside the
 * padded input. */
/* How many of the taps k = 0 .. k_count - 1 at start + k * dil lie below
 * limit. */
static size_t taps_below(size_t limit, size_t start, size_t dil, size_t k_count) {
  if (limit <= start) return 0;
  const size_t n = (limit - start + dil - 1) / dil;
  return n < k_count ? n : k_count;
}

static void pool3d(const wnn_pool3d_geom *g, size_t planes, bool is_max, bool count_pad,
                   bool col_major, const float *x, float *y, int64_t *indices) {
  const size_t in_plane = g->in[0] * g->in[1] * g->in[2];
  size_t o = 0;
  for (size_t c = 0; c < planes; c++)
    for (size_t od = 0; od < g->out[0]; od++)
      for (size_t oh = 0; oh < g->out[1]; oh++)
        for (size_t ow = 0; ow < g->out[2]; ow++, o++) {
          const size_t at[3] = {od, oh, ow};
          size_t lo[3], hi[3], padded = 1; /* input window [lo, hi) after clipping */
          for (int d = 0; d < 3; d++) {
            /* Tap k sits at start + k * dil in padded coordinates; the taps
             * inside the input, and those inside the padded input, are each
             * one run of k, counted in O(1): a loop over the taps cost
             * O(kernel) per output, seconds for a tiny input with a huge
             * kernel and pads (found by fuzz_importer). */
            const size_t start = at[d] * g->stride[d], dil = g->dil[d], k = g->k[d];
            const size_t first = taps_below(g->pad[d], start, dil, k);
            const size_t end = taps_below(g->pad[d] + g->in[d], start, dil, k);
            lo[d] = first, hi[d] = end > first ? end : first;
            padded *= taps_below(g->in[d] + g->pad[d] + g->pad_end[d], start, dil, k);
          }
          /* lo/hi index kernel taps; the taps in between are all inside. */
          float max = -INFINITY, sum = 0.0f;
          int64_t best = -1;
          size_t valid = 0;
          for (size_t kd = lo[0]; kd < hi[0]; kd++)
            for (size_t kh = lo[1]; kh < hi[1]; kh++)
              for (size_t kw = lo[2]; kw < hi[2]; kw++) {
                const size_t id = od * g->stride[0] + kd * g->dil[0] - g->pad[0];
                const size_t ih = oh * g->stride[1] + kh * g->dil[1] - g->pad[1];
                const size_t iw = ow * g->stride[2] + kw * g->dil[2] - g->pad[2];
                const float v = x[c * in_plane + (id * g->in[1] + ih) * g->in[2] + iw];
                valid++;
                sum += v;
                if (max == max && (v > max || v != v)) {
                  max = v;
                  best = (int64_t)(c * in_plane +
                                   (col_major ? (iw * g->in[1] + ih) * g->in[0] + id
                                              : (id * g->in[1] + ih) * g->in[2] + iw));
                }
              }
          if (is_max) {
            y[o] = max;
            if (indices) indices[o] = best;
          } else {
            const size_t count = count_pad ? padded : valid;
            y[o] = count ? sum / (float)count : 0.0f;
          }
        }
}

/* 2-D pooling planes as units for wnn_parallel_for: each plane its own
 * output, so ranges of planes split over intra-op threads. */
typedef struct pool_job {
  const wnn_pool_params *p;
  wnn_f32_pool2d_ukernel *f32;
  wnn_x8_maxpool2d_ukernel *x8;
  const wnn_x8_maxpool2d_params *x8p;
  size_t esize;
  const char *x;
  char *y;
} pool_job;

static void pool_planes(void *ctx, size_t c0, size_t c1) {
  const pool_job *j = ctx;
  const wnn_window2d *w = &j->p->pool.win;
  const size_t in = w->in_h * w->in_w * j->esize, out = w->out_h * w->out_w * j->esize;
  if (j->f32) j->f32(c1 - c0, (const float *)(j->x + c0 * in), (float *)(j->y + c0 * out), &j->p->pool);
  else j->x8(c1 - c0, (const uint8_t *)j->x + c0 * in, (uint8_t *)j->y + c0 * out, j->x8p);
}

static void pool_split(pool_job *j) {
  const wnn_window2d *w = &j->p->pool.win;
  const size_t plane_ops = w->out_h * w->out_w * w->k_h * w->k_w + 1;
  wnn_parallel_for(j->p->planes, WNN_PARALLEL_MIN_MACS / plane_ops + 1, pool_planes, j);
}

static wnn_status pool_run(const wnn_run_ctx *ctx) {
  const wnn_pool_params *p = ctx->params;
  pool_job j = {p, p->fn, NULL, NULL, sizeof(float), ctx->inputs[0].data, ctx->outputs[0].data};
  pool_split(&j);
  return WNN_OK;
}

wnn_status wnn_maxpool_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "MaxPool";
  wnn_maxpool_params *p = ctx->params;
  bool storage_order;
  wnn_status st = wnn_attr_bool(ctx, OP, "storage_order", &storage_order);
  if (st) return st;
  if ((st = pool_prepare(ctx, OP, WNN_POOL_MAX, &p->g3))) return st;
  p->indices = ctx->num_outputs > 1;
  p->col_major = storage_order;
  const wnn_dtype dt = ctx->inputs[0].dtype;
  if (!p->indices && (dt == WNN_DTYPE_U8 || dt == WNN_DTYPE_I8))
    p->x8 = wnn_select_x8_maxpool2d(ctx->kernels);
  if (!p->indices) return WNN_OK;
  const wnn_tdesc *y = &ctx->outputs[0];
  return wnn_set_output(ctx, OP, 1, WNN_DTYPE_I64, y->ndim, y->dims);
}

/* MaxPool with Indices: a direct loop that keeps, per window, the first
 * largest element (a NaN, once seen, stays) and its flat input position. */
static void maxpool_indices(const wnn_maxpool_params *p, const float *x, float *y,
                            int64_t *indices) {
  const wnn_window2d *w = &p->pool.pool.win;
  const size_t plane = w->in_h * w->in_w;
  for (size_t c = 0; c < p->pool.planes; c++) {
    const float *xc = x + c * plane;
    for (size_t oy = 0; oy < w->out_h; oy++)
      for (size_t ox = 0; ox < w->out_w; ox++) {
        float max = -INFINITY;
        int64_t at = -1;
        for (size_t ky = 0; ky < w->k_h; ky++) {
          const size_t iy = oy * w->stride_h + ky * w->dil_h; /* + pad_t */
          if (iy < w->pad_t || iy - w->pad_t >= w->in_h) continue;
          for (size_t kx = 0; kx < w->k_w; kx++) {
            const size_t ix = ox * w->stride_w + kx * w->dil_w;
            if (ix < w->pad_l || ix - w->pad_l >= w->in_w) continue;
            const size_t r = iy - w->pad_t, col = ix - w->pad_l;
            const float v = xc[r * w->in_w + col];
            if (max != max) continue;
            if (v > max || v != v) {
              max = v;
              at = (int64_t)(c * plane + (p->col_major ? col * w->in_h + r : r * w->in_w + col));
            }
          }
        }
        y[(c * w->out_h + oy) * w->out_w + ox] = max;
        indices[(c * w->out_h + oy) * w->out_w + ox] = at;
      }
  }
}

/* MaxPool of 8-bit integers (T uint8_t or int8_t), 1-D and 2-D: the first
 * largest element of each window and, when indices is non-NULL, its flat
 * input position. A window with no input element gives T's minimum. */
#define MAXPOOL_INT(name, T, lowest)                                                           \
  static void name(const wnn_maxpool_params *p, const T *x, T *y, int64_t *indices) {          \
    const wnn_window2d *w = &p->pool.pool.win;                                                 \
    const size_t plane = w->in_h * w->in_w;                                                    \
    size_t o = 0;                                                                              \
    for (size_t c = 0; c < p->pool.planes; c++)                                                \
      for (size_t oy = 0; oy < w->out_h; oy++)                                                 \
        for (size_t ox = 0; ox < w->out_w; ox++, o++) {                                        \
          int max = lowest;                                                                    \
          int64_t at = -1;                                                                     \
          for (size_t ky = 0; ky < w->k_h; ky++) {                                             \
            const size_t iy = oy * w->stride_h + ky * w->dil_h; /* + pad_t */                 \
            if (iy < w->pad_t || iy - w->pad_t >= w->in_h) continue;                           \
            for (size_t kx = 0; kx < w->k_w; kx++) {                                           \
              const size_t ix = ox * w->stride_w + kx * w->dil_w;                              \
              if (ix < w->pad_l || ix - w->pad_l >= w->in_w) continue;                         \
              const size_t r = iy - w->pad_t, col = ix - w->pad_l;                             \
              const int v = x[c * plane + r * w->in_w + col];                                  \
              if (at < 0 || v > max) {                                                         \
                max = v;                                                                       \
                at = (int64_t)(c * plane + (p->col_major ? col * w->in_h + r : r * w->in_w + col)); \
              }                                                                                \
            }                                                                                  \
          }                                                                                    \
          y[o] = (T)max;                                                                       \
          if (indices) indices[o] = at;                                                        \
        }                                                                                      \
  }
MAXPOOL_INT(maxpool_u8, uint8_t, 0)
MAXPOOL_INT(maxpool_i8, int8_t, -128)

wnn_status wnn_maxpool_run(const wnn_run_ctx *ctx) {
  const wnn_maxpool_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  if (p->x8) {
    const wnn_x8_maxpool2d_params kp = {p->pool.pool.win, x->dtype == WNN_DTYPE_I8};
    pool_job j = {&p->pool, NULL, p->x8, &kp, 1, x->data, ctx->outputs[0].data};
    pool_split(&j);
    return WNN_OK;
  }
  if (x->dtype == WNN_DTYPE_U8 || x->dtype == WNN_DTYPE_I8) {
    int64_t *indices = p->indices ? ctx->outputs[1].data : NULL;
    if (x->dtype == WNN_DTYPE_U8) maxpool_u8(p, x->data, ctx->outputs[0].data, indices);
    else maxpool_i8(p, x->data, ctx->outputs[0].data, indices);
    return WNN_OK;
  }
  if (p->pool.spatial == 3) {
    int64_t *indices = p->indices ? ctx->outputs[1].data : NULL;
    pool3d(&p->g3, p->pool.planes, true, false, p->col_major, ctx->inputs[0].data,
           ctx->outputs[0].data, indices);
    return WNN_OK;
  }
  if (p->indices && ctx->outputs[1].data) {
    maxpool_indices(p, ctx->inputs[0].data, ctx->outputs[0].data, ctx->outputs[1].data);
    return WNN_OK;
  }
  return pool_run(ctx);
}

wnn_status wnn_averagepool_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "AveragePool";
  wnn_avgpool_params *p = ctx->params;
  wnn_status st = wnn_attr_bool(ctx, OP, "count_include_pad", &p->pool.pool.count_include_pad);
  if (st) return st;
  return pool_prepare(ctx, OP, WNN_POOL_AVG, &p->g3);
}

wnn_status wnn_averagepool_run(const wnn_run_ctx *ctx) {
  const wnn_avgpool_params *p = ctx->params;
  if (p->pool.spatial == 3) {
    pool3d(&p->g3, p->pool.planes, false, p->pool.pool.count_include_pad, false,
           ctx->inputs[0].data, ctx->outputs[0].data, NULL);
    return WNN_OK;
  }
  return pool_run(ctx);
}

/* ------------------------------------- GlobalAveragePool, GlobalMaxPool */

wnn_status wnn_global_pool_shape(wnn_prepare_ctx *ctx, const char *op, int64_t *out,
                                 int64_t *plane) {
  const wnn_tdesc *x = &ctx->inputs[0];
  if (x->ndim < 3)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected at least 3", op,
                       x->ndim);
  out[0] = x->dims[0], out[1] = x->dims[1];
  for (int d = 2; d < x->ndim; d++) out[d] = 1;
  *plane = wnn_checked_numel(x->ndim - 2, x->dims + 2, sizeof(float));
  if (*plane <= 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has no spatial elements to %s", op,
                       strcmp(op, "GlobalMaxPool") == 0 ? "reduce" : "average");
  return WNN_OK;
}

/* Both reduce each N*C plane of X (rank >= 3) to one element. */
static wnn_status global_prepare(wnn_prepare_ctx *ctx, const char *op) {
  wnn_pool_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t out[WNN_MAX_DIMS], plane;
  if ((st = wnn_expect_dtype(ctx, op, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_global_pool_shape(ctx, op, out, &plane))) return st;
  if ((st = wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, x->ndim, out))) return st;
  p->spatial = x->ndim - 2;
  p->planes = (size_t)(x->dims[0] * x->dims[1]);
  p->plane_size = (size_t)plane;
  return WNN_OK;
}

wnn_status wnn_globalaveragepool_prepare(wnn_prepare_ctx *ctx) {
  wnn_pool_params *p = ctx->params;
  wnn_status st = global_prepare(ctx, "GlobalAveragePool");
  if (st) return st;
  p->gavg = wnn_select_f32_gavgpool(ctx->kernels);
  return WNN_OK;
}

wnn_status wnn_globalaveragepool_run(const wnn_run_ctx *ctx) {
  const wnn_pool_params *p = ctx->params;
  p->gavg(p->planes, p->plane_size, ctx->inputs[0].data, ctx->outputs[0].data);
  return WNN_OK;
}

wnn_status wnn_globalmaxpool_prepare(wnn_prepare_ctx *ctx) {
  return global_prepare(ctx, "GlobalMaxPool");
}

/* The maximum of each plane; a NaN anywhere in a plane gives NaN. */
wnn_status wnn_globalmaxpool_run(const wnn_run_ctx *ctx) {
  const wnn_pool_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (size_t c = 0; c < p->planes; c++) {
    const float *xc = x + c * p->plane_size;
    float max = xc[0];
    for (size_t i = 1; i < p->plane_size && max == max; i++) {
      if (xc[i] > max || xc[i] != xc[i]) max = xc[i];
    }
    y[c] = max;
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

/* The second output is the optional Indices. */
WNN_OP_DEFINE(maxpool, "MaxPool", 0, 1, 1, 1, 2,
              WNN_ATTRS("auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads",
                        "storage_order", "strides"));
WNN_OP_DEFINE(averagepool, "AveragePool", 0, 1, 1, 1, 1,
              WNN_ATTRS("auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads",
                        "strides"));
WNN_OP_DEFINE(globalaveragepool, "GlobalAveragePool", 0, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(globalmaxpool, "GlobalMaxPool", 0, 1, 1, 1, 1, NULL);
