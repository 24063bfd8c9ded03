/*
 * NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (opset 13, unchanged
 * up to 21): input [N, C, d1, ..., dk] (k >= 0) float32, target
 * [N, d1, ..., dk] int32 or int64, optional weight [C] float32; attributes
 * reduction ("none", "sum", "mean" (default)) and ignore_index (no default:
 * without it every target must be a class). SoftmaxCrossEntropyLoss takes the
 * log-softmax over C first and may also output it (log_prob, the input's
 * shape).
 *
 *   loss[n, d] = -logp[n, t, d] * w[t], t = target[n, d] (w = 1 without weight)
 *              = 0 (and w = 0) when t == ignore_index
 *   none: loss; sum: sum(loss); mean: sum(loss) / sum(w) over all samples
 *   (NaN when every sample is ignored: 0 / 0, as the ONNX reference gives).
 *
 * A target outside [0, C) that is not ignore_index fails the run with
 * WNN_ERR_OUT_OF_RANGE naming the value and where it is. Sums are folded in
 * double.
 */
#include <math.h>
#include <string.h>

#include "ops/math_internal.h" /* the logsoftmax kernel */
#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_loss_params);

static wnn_status loss_prepare(wnn_prepare_ctx *ctx, const char *op, bool softmax) {
  wnn_loss_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *t = &ctx->inputs[1];
  const char *xname = softmax ? "scores" : "input";
  const char *tname = softmax ? "labels" : "target";
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, op, 0, xname, WNN_DTYPE_F32))) return st;
  if (t->dtype != WNN_DTYPE_I32 && t->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (%s) is %s, expected int32 or int64", op,
                       tname, wnn_dtype_name(t->dtype));
  if (x->ndim < 2)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 0 (%s) has %d dims, expected at least 2 ([N, C, d1, ...])", op,
                       xname, x->ndim);
  /* The target is the input's shape without C. */
  bool shape_ok = t->ndim == x->ndim - 1 && t->dims[0] == x->dims[0];
  for (int i = 1; shape_ok && i < t->ndim; i++) shape_ok = t->dims[i] == x->dims[i + 1];
  if (!shape_ok) {
    char a[64], b[64];
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (%s) has shape %s, expected the shape of input 0 %s without "
                       "dim 1 (C)",
                       op, tname, wnn_format_dims(a, sizeof a, t->ndim, t->dims),
                       wnn_format_dims(b, sizeof b, x->ndim, x->dims));
  }
  p->has_weight = wnn_has_input(ctx, 2);
  if (p->has_weight) {
    const wnn_tdesc *w = &ctx->inputs[2];
    if ((st = wnn_expect_dtype(ctx, op, 2, softmax ? "weights" : "weight", WNN_DTYPE_F32)))
      return st;
    if (w->ndim != 1 || w->dims[0] != x->dims[1]) {
      char a[64];
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (%s) has shape %s, expected [%lld] (C)",
                         op, softmax ? "weights" : "weight",
                         wnn_format_dims(a, sizeof a, w->ndim, w->dims), (long long)x->dims[1]);
    }
  }
  const char *reduction;
  if ((st = wnn_attr_string(ctx, "reduction", "mean", &reduction))) return st;
  if (strcmp(reduction, "none") == 0) p->reduction = WNN_LOSS_NONE;
  else if (strcmp(reduction, "sum") == 0) p->reduction = WNN_LOSS_SUM;
  else if (strcmp(reduction, "mean") == 0) p->reduction = WNN_LOSS_MEAN;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: reduction is '%s', expected 'none', 'sum' or 'mean'", op, reduction);
  p->has_ignore = wnn_attr_has(ctx, "ignore_index");
  if ((st = wnn_attr_int(ctx, "ignore_index", 0, &p->ignore_index))) return st;
  p->softmax = softmax;
  p->target_dtype = t->dtype;
  p->n = (size_t)x->dims[0];
  p->c = (size_t)x->dims[1];
  p->d = (size_t)wnn_shape_numel(x->ndim - 2, x->dims + 2);
  if (p->c == 0 && p->n * p->d != 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (%s) has no classes (C is 0)", op, xname);
  p->logsoftmax = wnn_select_f32_logsoftmax(ctx->kernels);
  if (p->reduction == WNN_LOSS_NONE)
    st = wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, t->ndim, t->dims);
  else st = wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, 0, NULL);
  if (st) return st;
  if (ctx->num_outputs > 1) /* SoftmaxCrossEntropyLoss's log_prob */
    st = wnn_set_output(ctx, op, 1, WNN_DTYPE_F32, x->ndim, x->dims);
  return st;
}

wnn_status wnn_negativeloglikelihoodloss_prepare(wnn_prepare_ctx *ctx) {
  return loss_prepare(ctx, "NegativeLogLikelihoodLoss", false);
}

wnn_status wnn_softmaxcrossentropyloss_prepare(wnn_prepare_ctx *ctx) {
  return loss_prepare(ctx, "SoftmaxCrossEntropyLoss", true);
}

/* -logp at class c of the line at x (stride d) for SoftmaxCrossEntropyLoss
 * without a log_prob output: c - max - log(sum(exp(. - max))). */
static float neg_log_softmax_at(size_t n, size_t stride, const float *x, size_t c) {
  float max = x[0];
  for (size_t i = 1; i < n; i++) max = x[i * stride] > max ? x[i * stride] : max;
  float sum = 0.0f;
  for (size_t i = 0; i < n; i++) sum += expf(x[i * stride] - max);
  return -(x[c * stride] - max - logf(sum));
}

static wnn_status loss_run(const wnn_run_ctx *ctx) {
  const wnn_loss_params *p = ctx->params;
  const char *op = p->softmax ? "SoftmaxCrossEntropyLoss" : "NegativeLogLikelihoodLoss";
  const float *x = ctx->inputs[0].data;
  const void *tv = ctx->inputs[1].data;
  const float *w = p->has_weight ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  float *logp = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  const size_t cd = p->c * p->d;
  if (logp) /* log_prob first: the loss then reads it */
    for (size_t i = 0; i < p->n; i++)
      for (size_t j = 0; j < p->d; j++)
        p->logsoftmax(p->c, p->d, x + i * cd + j, logp + i * cd + j);
  double sum = 0.0, wsum = 0.0;
  for (size_t i = 0; i < p->n; i++)
    for (size_t j = 0; j < p->d; j++) {
      const size_t s = i * p->d + j;
      const int64_t t = p->target_dtype == WNN_DTYPE_I32 ? ((const int32_t *)tv)[s]
                                                         : ((const int64_t *)tv)[s];
      float loss = 0.0f, wt = 0.0f;
      if (!(p->has_ignore && t == p->ignore_index)) {
        if (t < 0 || (uint64_t)t >= p->c)
          return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                              "%s: target value %lld (element %zu of input 1) is not a class in "
                              "[0, %zu)%s",
                              op, (long long)t, s, p->c,
                              p->has_ignore ? " nor ignore_index" : "");
        const size_t c = (size_t)t;
        wt = w ? w[c] : 1.0f;
        const float nl = logp ? -logp[i * cd + c * p->d + j]
                         : p->softmax ? neg_log_softmax_at(p->c, p->d, x + i * cd + j, c)
                                      : -x[i * cd + c * p->d + j];
        loss = nl * wt;
      }
      if (p->reduction == WNN_LOSS_NONE) y[s] = loss;
      sum += loss, wsum += wt;
    }
  if (p->reduction == WNN_LOSS_SUM) y[0] = (float)sum;
  else if (p->reduction == WNN_LOSS_MEAN) y[0] = (float)(sum / wsum);
  return WNN_OK;
}

wnn_status wnn_negativeloglikelihoodloss_run(const wnn_run_ctx *ctx) { return loss_run(ctx); }
wnn_status wnn_softmaxcrossentropyloss_run(const wnn_run_ctx *ctx) { return loss_run(ctx); }

/* ------------------------------------------------------------ descriptors */

static const char *const loss_attrs[] = {"ignore_index", "reduction", NULL};

WNN_OP_DEFINE(negativeloglikelihoodloss, "NegativeLogLikelihoodLoss", 0, 2, 3, 1, 1, loss_attrs);

/* The second output is the optional log_prob. */
WNN_OP_DEFINE(softmaxcrossentropyloss, "SoftmaxCrossEntropyLoss", 0, 2, 3, 1, 2, loss_attrs);
