/* Reference BatchNormalization, InstanceNormalization, LayerNormalization,
 * LRN, ConvTranspose and Resize, straight from the ONNX definitions, with
 * double accumulators. Shapes come from the tensors; attributes from the
 * params prepare filled. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* Product of dims [from, to). */
static int64_t span(const wnn_tensor *t, int from, int to) {
  int64_t n = 1;
  for (int d = from; d < to; d++) n *= t->dims[d];
  return n;
}

wnn_status wnn_ref_batchnormalization(const wnn_run_ctx *ctx) {
  const wnn_chnorm_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const float *x = xt->data, *scale = ctx->inputs[1].data, *b = ctx->inputs[2].data;
  const float *mean = ctx->inputs[3].data, *var = ctx->inputs[4].data;
  float *y = ctx->outputs[0].data;
  const int64_t n = xt->dims[0], c = xt->dims[1], inner = span(xt, 2, xt->ndim);
  for (int64_t ch = 0; ch < c; ch++) {
    double m = mean[ch], v = var[ch];
    if (p->training) { /* batch statistics, in double */
      double sum = 0.0, sq = 0.0;
      for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < inner; k++) sum += x[(i * c + ch) * inner + k];
      m = sum / (double)(n * inner);
      for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < inner; k++) {
          const double d = x[(i * c + ch) * inner + k] - m;
          sq += d * d;
        }
      v = sq / (double)(n * inner);
      if (ctx->num_outputs > 1)
        ((float *)ctx->outputs[1].data)[ch] = (float)(mean[ch] * p->momentum + m * (1.0 - p->momentum));
      if (ctx->num_outputs > 2)
        ((float *)ctx->outputs[2].data)[ch] = (float)(var[ch] * p->momentum + v * (1.0 - p->momentum));
    }
    for (int64_t i = 0; i < n; i++)
      for (int64_t k = 0; k < inner; k++) {
        const int64_t at = (i * c + ch) * inner + k;
        y[at] = (float)(((double)x[at] - m) / sqrt(v + p->epsilon) * scale[ch] + b[ch]);
      }
  }
  return WNN_OK;
}

wnn_status wnn_ref_instancenormalization(const wnn_run_ctx *ctx) {
  const wnn_chnorm_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const float *x = xt->data, *scale = ctx->inputs[1].data, *b = ctx->inputs[2].data;
  float *y = ctx->outputs[0].data;
  const int64_t n = xt->dims[0], c = xt->dims[1], inner = span(xt, 2, xt->ndim);
  for (int64_t i = 0; i < n * c; i++) {
    const float *xi = x + i * inner;
    double sum = 0.0, sq = 0.0;
    for (int64_t k = 0; k < inner; k++) sum += xi[k];
    const double mean = sum / (double)inner;
    for (int64_t k = 0; k < inner; k++) sq += (xi[k] - mean) * (xi[k] - mean);
    const double sd = sqrt(sq / (double)inner + p->epsilon);
    const int64_t ch = i % c;
    for (int64_t k = 0; k < inner; k++)
      y[i * inner + k] = (float)((xi[k] - mean) / sd * scale[ch] + b[ch]);
  }
  return WNN_OK;
}

/* Element i of the normalized block (dims [axis, rank) of x) read from t,
 * which broadcasts to that block with numpy's right-aligned rules. */
static float broadcast_at(const wnn_tensor *t, const wnn_tensor *x, int axis, int64_t i) {
  const float *data = t->data;
  int64_t off = 0, stride = 1;
  for (int d = x->ndim - 1; d >= axis; d--) {
    const int64_t coord = i % x->dims[d];
    i /= x->dims[d];
    const int td = d - (x->ndim - t->ndim);
    if (td < 0) continue;
    if (t->dims[td] != 1) off += coord * stride;
    stride *= t->dims[td];
  }
  return data[off];
}

wnn_status wnn_ref_layernormalization(const wnn_run_ctx *ctx) {
  const wnn_layernorm_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const int axis = xt->ndim - p->norm_ndim;
  const float *x = xt->data;
  const bool has_b = ctx->num_inputs > 2 && ctx->inputs[2].data;
  float *y = ctx->outputs[0].data;
  float *mean_out = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  float *inv_out = ctx->num_outputs > 2 ? ctx->outputs[2].data : NULL;
  const int64_t rows = span(xt, 0, axis), cols = span(xt, axis, xt->ndim);
  for (int64_t r = 0; r < rows; r++) {
    const float *xr = x + r * cols;
    double sum = 0.0, sq = 0.0;
    for (int64_t k = 0; k < cols; k++) sum += xr[k];
    const double mean = sum / (double)cols;
    for (int64_t k = 0; k < cols; k++) sq += (xr[k] - mean) * (xr[k] - mean);
    const double inv = 1.0 / sqrt(sq / (double)cols + p->epsilon);
    if (mean_out) mean_out[r] = (float)mean;
    if (inv_out) inv_out[r] = (float)inv;
    for (int64_t k = 0; k < cols; k++) {
      double v = (xr[k] - mean) * inv * broadcast_at(&ctx->inputs[1], xt, axis, k);
      if (has_b) v += broadcast_at(&ctx->inputs[2], xt, axis, k);
      y[r * cols + k] = (float)v;
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_lrn(const wnn_run_ctx *ctx) {
  const wnn_lrn_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const float *x = xt->data;
  float *y = ctx->outputs[0].data;
  const int64_t n = xt->dims[0], c = xt->dims[1], inner = span(xt, 2, xt->ndim);
  const int64_t lo_off = (p->size - 1) / 2, hi_off = (p->size - 1) - lo_off; /* floor, ceil */
  for (int64_t i = 0; i < n; i++)
    for (int64_t ch = 0; ch < c; ch++)
      for (int64_t k = 0; k < inner; k++) {
        double sq = 0.0;
        for (int64_t j = ch - lo_off; j <= ch + hi_off; j++) {
          if (j < 0 || j >= c) continue;
          const double v = x[(i * c + j) * inner + k];
          sq += v * v;
        }
        const int64_t at = (i * c + ch) * inner + k;
        y[at] = (float)(x[at] / pow(p->bias + p->alpha / (double)p->size * sq, p->beta));
      }
  return WNN_OK;
}

/* --------------------------------------------- MeanVarianceNormalization */

/* For each element, the statistics of the elements sharing its kept
 * coordinates, found by comparing coordinates (quadratic; tests only). */
wnn_status wnn_ref_meanvariancenormalization(const wnn_run_ctx *ctx) {
  const wnn_mvn_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const float *xd = x->data;
  int64_t ii[WNN_MAX_DIMS], jj[WNN_MAX_DIMS];
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
    wnn_ref_unravel(i, x->ndim, x->dims, ii);
    double sum = 0.0, sq = 0.0, cnt = 0.0;
    for (int pass = 0; pass < 2; pass++)
      for (int64_t j = 0; j < wnn_ref_numel(x); j++) {
        wnn_ref_unravel(j, x->ndim, x->dims, jj);
        bool same = true;
        for (int d = 0; d < x->ndim; d++)
          if (p->kstride[d] != 0 && ii[d] != jj[d]) same = false;
        if (!same) continue;
        if (pass == 0) sum += xd[j], cnt += 1.0;
        else sq += (xd[j] - sum / cnt) * (xd[j] - sum / cnt);
      }
    ((float *)ctx->outputs[0].data)[i] = (float)((xd[i] - sum / cnt) / (sqrt(sq / cnt) + 1e-9));
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
