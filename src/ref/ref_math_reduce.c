/* Reference reductions, ArgMax/ArgMin and CumSum (src/ops/math_reduce.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"
#include "ref/ref.h"

/* ---------------------------------------------------------- reductions */

/* For each output element, every input element whose kept coordinates are
 * the output's is folded in, in double. */
static wnn_status ref_reduce(const wnn_run_ctx *ctx) {
  const wnn_reduce_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const int64_t nx = wnn_ref_numel(x);
  if (p->copy) {
    for (int64_t i = 0; i < nx; i++) wnn_ref_put(y, i, wnn_ref_get_f(x, i), wnn_ref_get_i(x, i));
    return WNN_OK;
  }
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    double acc = 0.0, max = -INFINITY, cnt = 0.0;
    double min = INFINITY, prod = 1.0;
    /* integers: exact int64 folds, wrapped to the type by wnn_ref_put() */
    int64_t isum = 0, iprod = 1, imax = x->dtype == WNN_DTYPE_I32 ? INT32_MIN : INT64_MIN;
    int64_t imin = x->dtype == WNN_DTYPE_I32 ? INT32_MAX : INT64_MAX;
    bool nan = false;
    for (int64_t i = 0; i < nx; i++) {
      wnn_ref_unravel(i, x->ndim, x->dims, idx);
      int64_t o = 0; /* the output index: the kept coordinates */
      for (int d = 0; d < x->ndim; d++)
        if (!p->axis_reduced[d]) o = o * x->dims[d] + idx[d];
      if (o != t) continue;
      const double v = wnn_ref_get_f(x, i);
      const int64_t iv = wnn_ref_get_i(x, i);
      isum = (int64_t)((uint64_t)isum + (uint64_t)iv);
      iprod = (int64_t)((uint64_t)iprod * (uint64_t)iv);
      imax = iv > imax ? iv : imax, imin = iv < imin ? iv : imin;
      cnt += 1.0;
      if (isnan(v)) nan = true;
      max = fmax(max, v), min = fmin(min, v), prod *= v;
      switch (p->op) {
        case WNN_RED_SUMSQUARE: case WNN_RED_L2: acc += v * v; break;
        case WNN_RED_L1: acc += fabs(v); break;
        default: acc += v; break;
      }
    }
    double r;
    int64_t ir = isum;
    switch (p->op) {
      case WNN_RED_MEAN: r = acc / cnt; break;
      case WNN_RED_MAX: r = nan ? NAN : max, ir = imax; break;
      case WNN_RED_MIN: r = nan ? NAN : min, ir = imin; break;
      case WNN_RED_PROD: r = prod, ir = iprod; break;
      case WNN_RED_L2: r = sqrt(acc); break;
      case WNN_RED_LOGSUMEXP: {
        if (nan || !isfinite(max)) {
          r = nan ? NAN : max;
          break;
        }
        double s = 0.0;
        for (int64_t i = 0; i < nx; i++) {
          wnn_ref_unravel(i, x->ndim, x->dims, idx);
          int64_t o = 0;
          for (int d = 0; d < x->ndim; d++)
            if (!p->axis_reduced[d]) o = o * x->dims[d] + idx[d];
          if (o == t) s += exp(wnn_ref_get_f(x, i) - max);
        }
        r = max + log(s);
        break;
      }
      default: r = acc; break;
    }
    wnn_ref_put(y, t, r, ir);
  }
  return WNN_OK;
}

#define REF_REDUCE(sym) \
  wnn_status wnn_ref_##sym(const wnn_run_ctx *ctx) { return ref_reduce(ctx); }
REF_REDUCE(reducesum)
REF_REDUCE(reducemean)
REF_REDUCE(reducemax)
REF_REDUCE(reducemin)
REF_REDUCE(reduceprod)
REF_REDUCE(reducesumsquare)
REF_REDUCE(reducel1)
REF_REDUCE(reducel2)
REF_REDUCE(reducelogsumexp)

static wnn_status ref_arg(const wnn_run_ctx *ctx) {
  const wnn_argreduce_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  int64_t *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++) {
      int64_t best = 0;
      for (size_t k = 1; k < p->n; k++) {
        const int64_t cur = (int64_t)((o * p->n + k) * p->inner + i);
        const int64_t bi = (int64_t)((o * p->n + (size_t)best) * p->inner + i);
        const double v = wnn_ref_get_f(x, cur), b = wnn_ref_get_f(x, bi);
        /* int64 values beyond 2^53 compare exactly as integers */
        const int cmp = x->dtype == WNN_DTYPE_I64
                            ? (wnn_ref_get_i(x, cur) > wnn_ref_get_i(x, bi)) - (wnn_ref_get_i(x, cur) < wnn_ref_get_i(x, bi))
                            : (v > b) - (v < b);
        if ((p->is_max ? cmp > 0 : cmp < 0) || (p->select_last && cmp == 0 && v == b))
          best = (int64_t)k;
      }
      y[o * p->inner + i] = best;
    }
  return WNN_OK;
}

wnn_status wnn_ref_argmax(const wnn_run_ctx *ctx) { return ref_arg(ctx); }
wnn_status wnn_ref_argmin(const wnn_run_ctx *ctx) { return ref_arg(ctx); }

/* --------------------------------------------------------------- CumSum */

wnn_status wnn_ref_cumsum(const wnn_run_ctx *ctx) {
  const wnn_cumsum_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++)
      for (size_t k = 0; k < p->n; k++) {
        double f = 0.0;
        int64_t v = 0;
        for (size_t j = 0; j < p->n; j++) {
          const bool in = p->reverse ? (p->exclusive ? j > k : j >= k)
                                     : (p->exclusive ? j < k : j <= k);
          if (!in) continue;
          const size_t at = (o * p->n + j) * p->inner + i;
          switch (p->dtype) {
            case WNN_DTYPE_F32: f += ((const float *)x->data)[at]; break;
            case WNN_DTYPE_I32:
              v = (int64_t)((uint64_t)v + (uint64_t)((const int32_t *)x->data)[at]);
              break;
            default: v = (int64_t)((uint64_t)v + (uint64_t)((const int64_t *)x->data)[at]); break;
          }
        }
        const size_t at = (o * p->n + k) * p->inner + i;
        switch (p->dtype) {
          case WNN_DTYPE_F32: ((float *)y->data)[at] = (float)f; break;
          case WNN_DTYPE_I32: ((int32_t *)y->data)[at] = (int32_t)(uint32_t)(uint64_t)v; break;
          default: ((int64_t *)y->data)[at] = v; break;
        }
      }
  return WNN_OK;
}

/* --------------------------------------------------------- ReduceLogSum */

wnn_status wnn_ref_reducelogsum(const wnn_run_ctx *ctx) {
  const wnn_reduce_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const float *xd = x->data;
  float *yd = y->data;
  if (p->copy) {
    for (int64_t i = 0; i < wnn_ref_numel(x); i++) yd[i] = xd[i];
    return WNN_OK;
  }
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    double acc = 0.0;
    for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
      wnn_ref_unravel(i, x->ndim, x->dims, idx);
      int64_t o = 0;
      for (int d = 0; d < x->ndim; d++)
        if (!p->axis_reduced[d]) o = o * x->dims[d] + idx[d];
      if (o == t) acc += xd[i];
    }
    yd[t] = (float)log(acc);
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
