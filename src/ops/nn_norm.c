/*
 * Normalization ops, float32: BatchNormalization (opset 15, inference and
 * training mode),
 * InstanceNormalization (opset 6), LayerNormalization (opset 17) and LRN
 * (opset 13). Scale, bias, mean and variance need not be constants: run reads
 * them. Statistics accumulate in float, two passes (mean, then the mean of the
 * squared deviations), which keeps the variance of large-mean data accurate.
 */
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "runtime/pool.h"

WNN_PARAMS_FIT(wnn_mvn_params);

WNN_PARAMS_FIT(wnn_chnorm_params);
WNN_PARAMS_FIT(wnn_layernorm_params);
WNN_PARAMS_FIT(wnn_lrn_params);

/* Input i must be a 1-D float32 tensor of `n` elements. */
static wnn_status expect_vector(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                                int64_t n) {
  wnn_status st = wnn_expect_dtype(ctx, op, i, name, WNN_DTYPE_F32);
  if (st) return st;
  const wnn_tdesc *t = &ctx->inputs[i];
  if (t->ndim != 1 || t->dims[0] != n) {
    char buf[64];
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) has shape %s, expected [%lld] (C)",
                       op, i, name, wnn_format_dims(buf, sizeof buf, t->ndim, t->dims),
                       (long long)n);
  }
  return WNN_OK;
}

/* X: float32 of rank >= min_rank with a valid size; fills outer x C x inner. */
static wnn_status channel_layout(wnn_prepare_ctx *ctx, const char *op, int min_rank, size_t *outer,
                                 size_t *channels, size_t *inner) {
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st = wnn_expect_dtype(ctx, op, 0, "X", WNN_DTYPE_F32);
  if (st) return st;
  if (x->ndim < min_rank)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has %d dims, expected at least %d", op,
                       x->ndim, min_rank);
  if (wnn_checked_numel(x->ndim, x->dims, sizeof(float)) < 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has a bad or too large shape", op);
  *outer = (size_t)x->dims[0];
  *channels = (size_t)x->dims[1];
  *inner = (size_t)wnn_shape_numel(x->ndim - 2, x->dims + 2);
  return WNN_OK;
}

static wnn_status read_epsilon(wnn_prepare_ctx *ctx, const char *op, float *eps) {
  wnn_status st = wnn_attr_float(ctx, "epsilon", 1e-5f, eps);
  if (st) return st;
  if (!(*eps >= 0.0f))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: epsilon %g must be >= 0", op, (double)*eps);
  return WNN_OK;
}

/* --------------------------------------------------- BatchNormalization */

wnn_status wnn_batchnormalization_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "BatchNormalization";
  static const char *const names[] = {"X", "scale", "B", "input_mean", "input_var"};
  wnn_chnorm_params *p = ctx->params;
  wnn_status st;
  int64_t training;
  if ((st = wnn_attr_int(ctx, "training_mode", 0, &training))) return st;
  if (training != 0 && training != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: training_mode = %lld, expected 0 or 1",
                       OP, (long long)training);
  p->training = training == 1;
  if ((st = wnn_attr_float(ctx, "momentum", 0.9f, &p->momentum))) return st;
  if (!p->training && ctx->num_outputs > 1)
    return wnn_op_fail(ctx, WNN_ERR_MALFORMED,
                       "%s: %d outputs; running_mean and running_var (outputs 1 and 2) exist only "
                       "with training_mode = 1",
                       OP, ctx->num_outputs);
  if ((st = read_epsilon(ctx, OP, &p->epsilon))) return st;
  if ((st = channel_layout(ctx, OP, 2, &p->outer, &p->channels, &p->inner))) return st;
  for (int i = 1; i < 5; i++)
    if ((st = expect_vector(ctx, OP, i, names[i], (int64_t)p->channels))) return st;
  if (p->training && p->outer * p->inner == 0 && p->channels)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: training mode needs a batch with elements", OP);
  const wnn_tdesc *x = &ctx->inputs[0];
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims))) return st;
  const int64_t c = (int64_t)p->channels;
  for (int k = 1; k < ctx->num_outputs; k++)
    if ((st = wnn_set_output(ctx, OP, k, WNN_DTYPE_F32, 1, &c))) return st;
  return WNN_OK;
}

/* Training mode: the channel's mean and (population) variance over the batch
 * and spatial elements, two passes. */
static void batch_stats(const wnn_chnorm_params *p, const float *x, size_t c, float *mean,
                        float *var) {
  const size_t count = p->outer * p->inner;
  float sum = 0.0f;
  for (size_t n = 0; n < p->outer; n++) {
    const float *xc = x + (n * p->channels + c) * p->inner;
    for (size_t i = 0; i < p->inner; i++) sum += xc[i];
  }
  const float m = sum / (float)count;
  float sq = 0.0f;
  for (size_t n = 0; n < p->outer; n++) {
    const float *xc = x + (n * p->channels + c) * p->inner;
    for (size_t i = 0; i < p->inner; i++) sq += (xc[i] - m) * (xc[i] - m);
  }
  *mean = m;
  *var = sq / (float)count;
}

wnn_status wnn_batchnormalization_run(const wnn_run_ctx *ctx) {
  const wnn_chnorm_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *scale = ctx->inputs[1].data, *b = ctx->inputs[2].data;
  const float *mean = ctx->inputs[3].data, *var = ctx->inputs[4].data;
  float *y = ctx->outputs[0].data;
  float *run_mean = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  float *run_var = ctx->num_outputs > 2 ? ctx->outputs[2].data : NULL;
  for (size_t c = 0; c < p->channels; c++) {
    float m = mean[c], v = var[c];
    if (p->training) {
      batch_stats(p, x, c, &m, &v);
      /* The running statistics: input * momentum + batch * (1 - momentum). */
      if (run_mean) run_mean[c] = mean[c] * p->momentum + m * (1.0f - p->momentum);
      if (run_var) run_var[c] = var[c] * p->momentum + v * (1.0f - p->momentum);
    }
    /* y = (x - mean) * scale / sqrt(var + eps) + b = x * a + (b - mean * a) */
    const float a = scale[c] / sqrtf(v + p->epsilon);
    const float shift = b[c] - m * a;
    for (size_t n = 0; n < p->outer; n++) {
      const size_t off = (n * p->channels + c) * p->inner;
      for (size_t i = 0; i < p->inner; i++) y[off + i] = x[off + i] * a + shift;
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------ InstanceNormalization */

wnn_status wnn_instancenormalization_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "InstanceNormalization";
  wnn_chnorm_params *p = ctx->params;
  wnn_status st;
  if ((st = read_epsilon(ctx, OP, &p->epsilon))) return st;
  if ((st = channel_layout(ctx, OP, 3, &p->outer, &p->channels, &p->inner))) return st;
  if ((st = expect_vector(ctx, OP, 1, "scale", (int64_t)p->channels))) return st;
  if ((st = expect_vector(ctx, OP, 2, "B", (int64_t)p->channels))) return st;
  if (p->inner == 0 && p->outer * p->channels != 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has no spatial elements", OP);
  const wnn_tdesc *x = &ctx->inputs[0];
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* Mean and 1 / sqrt(variance + eps) of n > 0 floats. */
static void moments(const float *x, size_t n, float eps, float *mean, float *inv_std) {
  float sum = 0.0f;
  for (size_t i = 0; i < n; i++) sum += x[i];
  const float m = sum / (float)n;
  float sq = 0.0f;
  for (size_t i = 0; i < n; i++) sq += (x[i] - m) * (x[i] - m);
  *mean = m;
  *inv_std = 1.0f / sqrtf(sq / (float)n + eps);
}

wnn_status wnn_instancenormalization_run(const wnn_run_ctx *ctx) {
  const wnn_chnorm_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *scale = ctx->inputs[1].data, *b = ctx->inputs[2].data;
  float *y = ctx->outputs[0].data;
  for (size_t n = 0; n < p->outer; n++)
    for (size_t c = 0; c < p->channels; c++) {
      const size_t off = (n * p->channels + c) * p->inner;
      float mean, inv_std;
      moments(x + off, p->inner, p->epsilon, &mean, &inv_std);
      const float a = scale[c] * inv_std, shift = b[c] - mean * a;
      for (size_t i = 0; i < p->inner; i++) y[off + i] = x[off + i] * a + shift;
    }
  return WNN_OK;
}

/* --------------------------------------------------- LayerNormalization */

/* Scale or B (input i) must broadcast to the normalized dims X[axis:]:
 * at most that many dims, each 1 or equal, aligned to the right. */
static wnn_status layernorm_operand(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                                    size_t *strides, bool *full) {
  wnn_layernorm_params *p = ctx->params;
  wnn_status st = wnn_expect_dtype(ctx, op, i, name, WNN_DTYPE_F32);
  if (st) return st;
  const wnn_tdesc *t = &ctx->inputs[i], *x = &ctx->inputs[0];
  const int axis = x->ndim - p->norm_ndim;
  char buf[64], xbuf[64];
  if (t->ndim > p->norm_ndim) goto bad;
  size_t stride = 1;
  *full = t->ndim == p->norm_ndim;
  for (int d = p->norm_ndim - 1; d >= 0; d--) {
    const int td = d - (p->norm_ndim - t->ndim);
    const int64_t n = td >= 0 ? t->dims[td] : 1;
    if (n != 1 && n != (int64_t)p->norm_dims[d]) goto bad;
    if (n != (int64_t)p->norm_dims[d]) *full = false;
    strides[d] = n == 1 ? 0 : stride;
    stride *= (size_t)n;
  }
  return WNN_OK;
bad:
  return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                     "%s: input %d (%s) has shape %s, which does not broadcast to X's normalized "
                     "dims %s (axis %d)",
                     op, i, name, wnn_format_dims(buf, sizeof buf, t->ndim, t->dims),
                     wnn_format_dims(xbuf, sizeof xbuf, x->ndim - axis, x->dims + axis), axis);
}

wnn_status wnn_layernormalization_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "LayerNormalization";
  wnn_layernorm_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axis_attr, stash;
  int axis;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) is a scalar, expected rank >= 1", OP);
  if (wnn_checked_numel(x->ndim, x->dims, sizeof(float)) < 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has a bad or too large shape", OP);
  if ((st = wnn_attr_int(ctx, "axis", -1, &axis_attr))) return st;
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis_attr, x->ndim, false, &axis))) return st;
  if ((st = read_epsilon(ctx, OP, &p->epsilon))) return st;
  /* stash_type: the precision of the statistics. float16 and double models are
   * converted to float32 by the importer, so float32 is what every type gets. */
  if ((st = wnn_attr_int(ctx, "stash_type", 1, &stash))) return st;
  if (stash != 1 && stash != 10 && stash != 11 && stash != 16)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: stash_type %lld is not a floating-point type (1, 10, 11 or 16)", OP,
                       (long long)stash);
  p->norm_ndim = x->ndim - axis;
  for (int d = 0; d < p->norm_ndim; d++) p->norm_dims[d] = (size_t)x->dims[axis + d];
  p->rows = (size_t)wnn_shape_numel(axis, x->dims);
  p->cols = (size_t)wnn_shape_numel(p->norm_ndim, x->dims + axis);
  if (p->cols == 0 && p->rows != 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 0 (X) has no elements to normalize from axis %d", OP, axis);
  if ((st = layernorm_operand(ctx, OP, 1, "Scale", p->scale_strides, &p->scale_full))) return st;
  p->b_full = false;
  if (wnn_has_input(ctx, 2) && (st = layernorm_operand(ctx, OP, 2, "B", p->b_strides, &p->b_full)))
    return st;
  p->rows_fn = wnn_select_f32_layernorm(ctx->kernels);
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims))) return st;
  /* Mean and InvStdDev: X's shape with the normalized dims set to 1. */
  int64_t stat_dims[WNN_MAX_DIMS];
  for (int d = 0; d < x->ndim; d++) stat_dims[d] = d < axis ? x->dims[d] : 1;
  for (int o = 1; o < ctx->num_outputs; o++)
    if ((st = wnn_set_output(ctx, OP, o, WNN_DTYPE_F32, x->ndim, stat_dims))) return st;
  return WNN_OK;
}

/* Offset of element i (row-major over dims) in a tensor of the given strides. */
static size_t broadcast_offset(size_t i, int ndim, const size_t *dims, const size_t *strides) {
  size_t off = 0;
  for (int d = ndim - 1; d >= 0; d--) {
    off += (i % dims[d]) * strides[d];
    i /= dims[d];
  }
  return off;
}

/* Ranges of rows as units for wnn_parallel_for: each row is normalized
 * alone, so the split gives the bits of one call. */
typedef struct layernorm_job {
  const wnn_layernorm_params *p;
  const float *x, *scale, *b;
  float *y, *mean, *inv;
} layernorm_job;

static void layernorm_rows(void *ctx, size_t r0, size_t r1) {
  const layernorm_job *j = ctx;
  const size_t n = j->p->cols;
  j->p->rows_fn(r1 - r0, n, j->x + r0 * n, j->scale, j->b, j->y + r0 * n,
                j->mean ? j->mean + r0 : NULL, j->inv ? j->inv + r0 : NULL, j->p->epsilon);
}

wnn_status wnn_layernormalization_run(const wnn_run_ctx *ctx) {
  const wnn_layernorm_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *scale = ctx->inputs[1].data;
  const float *b = ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  float *mean_out = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  float *inv_out = ctx->num_outputs > 2 ? ctx->outputs[2].data : NULL;
  if (p->scale_full && (!b || p->b_full)) { /* the common case: the microkernel, by rows */
    const layernorm_job j = {p, x, scale, b, y, mean_out, inv_out};
    /* about 8 operations per element (two passes, then the affine step) */
    wnn_parallel_for(p->rows, WNN_PARALLEL_MIN_MACS / (8 * p->cols + 1) + 1, layernorm_rows,
                     (void *)&j);
    return WNN_OK;
  }
  /* Scale or B broadcast within the row. */
  for (size_t r = 0; r < p->rows; r++) {
    const float *xr = x + r * p->cols;
    float *yr = y + r * p->cols;
    float mean, inv_std;
    moments(xr, p->cols, p->epsilon, &mean, &inv_std);
    if (mean_out) mean_out[r] = mean;
    if (inv_out) inv_out[r] = inv_std;
    for (size_t i = 0; i < p->cols; i++) {
      const float s = scale[broadcast_offset(i, p->norm_ndim, p->norm_dims, p->scale_strides)];
      const float bias =
          b ? b[broadcast_offset(i, p->norm_ndim, p->norm_dims, p->b_strides)] : 0.0f;
      yr[i] = (xr[i] - mean) * inv_std * s + bias;
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------------ LRN */

wnn_status wnn_lrn_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "LRN";
  wnn_lrn_params *p = ctx->params;
  wnn_status st;
  if ((st = channel_layout(ctx, OP, 3, &p->outer, &p->channels, &p->inner))) return st;
  if ((st = wnn_attr_int(ctx, "size", 0, &p->size))) return st;
  if (p->size < 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: size is required and must be >= 1 (got %lld)", OP, (long long)p->size);
  if ((st = wnn_attr_float(ctx, "alpha", 1e-4f, &p->alpha))) return st;
  if ((st = wnn_attr_float(ctx, "beta", 0.75f, &p->beta))) return st;
  if ((st = wnn_attr_float(ctx, "bias", 1.0f, &p->bias))) return st;
  /* The window of channel c: [c - floor((size-1)/2), c + ceil((size-1)/2)]. */
  p->before = (size_t)((p->size - 1) / 2);
  p->after = (size_t)(p->size / 2);
  const wnn_tdesc *x = &ctx->inputs[0];
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* Planes (batch x channel) as units for wnn_parallel_for: each writes its
 * own plane and reads its neighbours', so they split over threads. */
typedef struct lrn_job {
  const wnn_lrn_params *p;
  const float *x;
  float *y;
} lrn_job;

static void lrn_planes(void *ctx, size_t u0, size_t u1) {
  const lrn_job *job = ctx;
  const wnn_lrn_params *p = job->p;
  const float *x = job->x;
  const float k = p->alpha / (float)p->size;
  for (size_t u = u0; u < u1; u++) {
    const size_t n = u / p->channels, c = u % p->channels;
    const size_t lo = c >= p->before ? c - p->before : 0;
    const size_t hi = c + p->after < p->channels ? c + p->after : p->channels - 1;
    const float *xc = x + u * p->inner;
    float *yc = job->y + u * p->inner;
    for (size_t i = 0; i < p->inner; i++) {
      float sq = 0.0f;
      for (size_t j = lo; j <= hi; j++) {
        const float v = x[(n * p->channels + j) * p->inner + i];
        sq += v * v;
      }
      yc[i] = xc[i] / powf(p->bias + k * sq, p->beta);
    }
  }
}

wnn_status wnn_lrn_run(const wnn_run_ctx *ctx) {
  const wnn_lrn_params *p = ctx->params;
  const lrn_job j = {p, ctx->inputs[0].data, ctx->outputs[0].data};
  /* a window of `size` squares and a powf per element: about 40 operations */
  wnn_parallel_for(p->outer * p->channels, WNN_PARALLEL_MIN_MACS / (40 * p->inner + 1) + 1,
                   lrn_planes, (void *)&j);
  return WNN_OK;
}

/* --------------------------------------------- MeanVarianceNormalization */

/* MeanVarianceNormalization (13): float32; axes ([0, 2, 3]), each in
 * [-r, r-1], no repeats. y = (x - mean) / (sqrt(variance) + 1e-9) with the
 * statistics over the axes; the variance is the mean squared deviation
 * (two passes; ONNX's function body writes E[x^2] - E[x]^2, equal up to
 * rounding and never negative here). */
wnn_status wnn_meanvariancenormalization_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "MeanVarianceNormalization";
  wnn_mvn_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axes[WNN_MAX_DIMS + 1];
  int count;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_attr_ints(ctx, "axes", axes, WNN_MAX_DIMS + 1, &count))) return st;
  if (count < 0) axes[0] = 0, axes[1] = 2, axes[2] = 3, count = 3;
  if (count > WNN_MAX_DIMS)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes has %d values, more than the rank",
                       OP, count);
  bool reduced[WNN_MAX_DIMS] = {false};
  for (int i = 0; i < count; i++) {
    int ax;
    if ((st = wnn_normalize_axis(ctx, OP, "axes", axes[i], x->ndim, false, &ax))) return st;
    if (reduced[ax])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes repeats axis %d", OP, ax);
    reduced[ax] = true;
  }
  p->ndim = x->ndim;
  p->kept = 1, p->count = 1;
  for (int d = x->ndim - 1; d >= 0; d--) {
    p->dims[d] = x->dims[d];
    p->kstride[d] = reduced[d] ? 0 : p->kept;
    if (reduced[d]) p->count *= (size_t)x->dims[d];
    else p->kept *= (size_t)x->dims[d];
  }
  ctx->scratch_bytes = 2 * p->kept * sizeof(double);
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* Calls body(i, o) for every element i with its kept index o. */
#define MVN_WALK(body)                                                                   \
  do {                                                                                   \
    size_t idx_[WNN_MAX_DIMS] = {0}, o = 0;                                              \
    for (size_t i = 0; i < total; i++) {                                                 \
      body;                                                                              \
      for (int d = p->ndim - 1; d >= 0; d--) {                                           \
        o += p->kstride[d];                                                              \
        if (++idx_[d] < (size_t)p->dims[d]) break;                                       \
        o -= p->kstride[d] * idx_[d];                                                    \
        idx_[d] = 0;                                                                     \
      }                                                                                  \
    }                                                                                    \
  } while (0)

wnn_status wnn_meanvariancenormalization_run(const wnn_run_ctx *ctx) {
  const wnn_mvn_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  double *mean = ctx->scratch, *var = mean + p->kept;
  const size_t total = p->kept * p->count;
  for (size_t k = 0; k < p->kept; k++) mean[k] = 0.0, var[k] = 0.0;
  MVN_WALK(mean[o] += x[i]);
  for (size_t k = 0; k < p->kept; k++) mean[k] /= (double)p->count;
  MVN_WALK(var[o] += (x[i] - mean[o]) * (x[i] - mean[o]));
  for (size_t k = 0; k < p->kept; k++) var[k] = sqrt(var[k] / (double)p->count) + 1e-9;
  MVN_WALK(y[i] = (float)((x[i] - mean[o]) / var[o]));
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(batchnormalization, "BatchNormalization", 0, 5, 5, 1, 3,
              WNN_ATTRS("epsilon", "momentum", "training_mode"));
WNN_OP_DEFINE(instancenormalization, "InstanceNormalization", 0, 3, 3, 1, 1, WNN_ATTRS("epsilon"));
WNN_OP_DEFINE(layernormalization, "LayerNormalization", 0, 2, 3, 1, 3,
              WNN_ATTRS("axis", "epsilon", "stash_type"));
WNN_OP_DEFINE(lrn, "LRN", 0, 1, 1, 1, 1, WNN_ATTRS("alpha", "beta", "bias", "size"));
WNN_OP_DEFINE(meanvariancenormalization, "MeanVarianceNormalization", 0, 1, 1, 1, 1,
              WNN_ATTRS("axes"));
