/* Reference NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (src/ops/nn_loss.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* --------------------------------------------------------------- losses */

/* Input element [n, c, d1..dk] for target coordinates idx = [n, d1..dk]. */
static int64_t input_index(const wnn_tensor *x, const int64_t *idx, int64_t c) {
  int64_t full[WNN_MAX_DIMS];
  full[0] = idx[0], full[1] = c;
  for (int i = 2; i < x->ndim; i++) full[i] = idx[i - 1];
  return wnn_ref_ravel(x->ndim, x->dims, full);
}

static wnn_status ref_loss(const wnn_run_ctx *ctx) {
  const wnn_loss_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *t = &ctx->inputs[1], *y = &ctx->outputs[0];
  const float *xd = x->data, *w = p->has_weight ? ctx->inputs[2].data : NULL;
  const int64_t nc = x->dims[1];
  float *logp = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  int64_t idx[WNN_MAX_DIMS];
  double sum = 0.0, wsum = 0.0;
  for (int64_t s = 0; s < wnn_ref_numel(t); s++) {
    wnn_ref_unravel(s, t->ndim, t->dims, idx);
    /* log-probabilities of this sample's classes */
    double max = -INFINITY, lse = 0.0;
    if (p->softmax) {
      for (int64_t c = 0; c < nc; c++) max = fmax(max, xd[input_index(x, idx, c)]);
      for (int64_t c = 0; c < nc; c++) lse += exp(xd[input_index(x, idx, c)] - max);
      lse = max + log(lse);
      for (int64_t c = 0; logp && c < nc; c++)
        logp[input_index(x, idx, c)] = (float)(xd[input_index(x, idx, c)] - lse);
    }
    const int64_t label = t->dtype == WNN_DTYPE_I32 ? ((const int32_t *)t->data)[s]
                                                    : ((const int64_t *)t->data)[s];
    double loss = 0.0, wt = 0.0;
    if (!p->has_ignore || label != p->ignore_index) {
      if (label < 0 || label >= nc)
        return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "target value %lld is out of range",
                            (long long)label);
      wt = w ? w[label] : 1.0;
      const double v = xd[input_index(x, idx, label)];
      loss = -(p->softmax ? v - lse : v) * wt;
    }
    if (p->reduction == WNN_LOSS_NONE) ((float *)y->data)[s] = (float)loss;
    sum += loss, wsum += wt;
  }
  if (p->reduction == WNN_LOSS_SUM) ((float *)y->data)[0] = (float)sum;
  if (p->reduction == WNN_LOSS_MEAN) ((float *)y->data)[0] = (float)(sum / wsum);
  return WNN_OK;
}

wnn_status wnn_ref_negativeloglikelihoodloss(const wnn_run_ctx *ctx) { return ref_loss(ctx); }
wnn_status wnn_ref_softmaxcrossentropyloss(const wnn_run_ctx *ctx) { return ref_loss(ctx); }

#endif /* WNN_WITH_REFERENCE */
