/* Reference Softmax, LogSoftmax and Hardmax (src/ops/softmax.c).
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"
#include "ref/ref.h"

wnn_status wnn_ref_softmax(const wnn_run_ctx *ctx) {
  const wnn_softmax_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const float *in = x->data;
  float *out = y->data;
  const int64_t total = wnn_shape_numel(x->ndim, x->dims), n = x->dims[p->axis];
  for (int64_t t = 0; t < total; t++) {
    int64_t idx[WNN_MAX_DIMS];
    wnn_ref_unravel(t, x->ndim, x->dims, idx);
    /* softmax(x)_i = exp(x_i - max) / sum_j exp(x_j - max) along the axis. */
    double max = -INFINITY, sum = 0.0;
    for (int64_t j = 0; j < n; j++) {
      idx[p->axis] = j;
      const double v = in[wnn_ref_ravel(x->ndim, x->dims, idx)];
      if (v > max) max = v;
    }
    for (int64_t j = 0; j < n; j++) {
      idx[p->axis] = j;
      sum += exp(in[wnn_ref_ravel(x->ndim, x->dims, idx)] - max);
    }
    out[t] = (float)(exp(in[t] - max) / sum);
  }
  return WNN_OK;
}

/* ---------------------------------------------------------- LogSoftmax */

wnn_status wnn_ref_logsoftmax(const wnn_run_ctx *ctx) {
  const wnn_softmax_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++) {
      const size_t base = o * p->n * p->inner + i;
      double max = -INFINITY, sum = 0.0;
      for (size_t k = 0; k < p->n; k++) max = fmax(max, x[base + k * p->inner]);
      for (size_t k = 0; k < p->n; k++) sum += exp(x[base + k * p->inner] - max);
      for (size_t k = 0; k < p->n; k++)
        y[base + k * p->inner] = (float)(x[base + k * p->inner] - max - log(sum));
    }
  return WNN_OK;
}

/* -------------------------------------------------------------- Hardmax */

wnn_status wnn_ref_hardmax(const wnn_run_ctx *ctx) {
  const wnn_hardmax_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++) {
      size_t best = 0;
      for (size_t k = 1; k < p->n; k++)
        if (x[(o * p->n + k) * p->inner + i] > x[(o * p->n + best) * p->inner + i]) best = k;
      for (size_t k = 0; k < p->n; k++) y[(o * p->n + k) * p->inner + i] = k == best ? 1.0f : 0.0f;
    }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
