/* Reference MaxUnpool (src/ops/nn_maxunpool.c).
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* ------------------------------------------------------------- MaxUnpool */

/* Each output element takes the input element whose index names it (the
 * last such one), else 0. An index names the element at the same coordinates
 * in the default unpooled shape (params dflt) as the output element has in Y. */
wnn_status wnn_ref_maxunpool(const wnn_run_ctx *ctx) {
  const wnn_maxunpool_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0], *yt = &ctx->outputs[0];
  const float *x = xt->data;
  const int64_t *ind = ctx->inputs[1].data;
  float *y = yt->data;
  const int64_t in_n = wnn_shape_numel(xt->ndim, xt->dims);
  const int64_t out_n = wnn_shape_numel(yt->ndim, yt->dims);
  const int64_t dflt_n = wnn_shape_numel(yt->ndim, p->dflt);
  for (int64_t i = 0; i < in_n; i++) {
    if (ind[i] < 0 || ind[i] >= dflt_n)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "MaxUnpool: index %lld out of range",
                          (long long)ind[i]);
    int64_t rest = ind[i];
    for (int d = yt->ndim - 1; d >= 0; d--) {
      if (rest % p->dflt[d] >= yt->dims[d])
        return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                            "MaxUnpool: index %lld lies outside output_shape", (long long)ind[i]);
      rest /= p->dflt[d];
    }
  }
  for (int64_t o = 0; o < out_n; o++) {
    /* o's coordinates in Y, and the default-shape position they name. */
    int64_t coord[WNN_MAX_DIMS], rest = o, named = 0;
    bool inside = true;
    for (int d = yt->ndim - 1; d >= 0; d--) {
      coord[d] = rest % yt->dims[d];
      rest /= yt->dims[d];
    }
    for (int d = 0; d < yt->ndim; d++) {
      if (coord[d] >= p->dflt[d]) inside = false;
      named = named * p->dflt[d] + coord[d];
    }
    y[o] = 0.0f;
    for (int64_t i = in_n - 1; inside && i >= 0; i--)
      if (ind[i] == named) {
        y[o] = x[i];
        break;
      }
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
