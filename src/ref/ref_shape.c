/* Reference Transpose, Concat and Softmax: element by element, through
 * coordinates. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/op_internal.h"
#include "ref/ref.h"

wnn_status wnn_ref_transpose(const wnn_run_ctx *ctx) {
  const wnn_transpose_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const size_t size = wnn_dtype_size(x->dtype);
  const int64_t total = wnn_shape_numel(y->ndim, y->dims);
  for (int64_t t = 0; t < total; t++) {
    int64_t oidx[WNN_MAX_DIMS], iidx[WNN_MAX_DIMS];
    wnn_ref_unravel(t, y->ndim, y->dims, oidx);
    for (int i = 0; i < y->ndim; i++) iidx[p->perm[i]] = oidx[i]; /* out dim i is in dim perm[i] */
    const int64_t s = wnn_ref_ravel(x->ndim, x->dims, iidx);
    memcpy((char *)y->data + (size_t)t * size, (const char *)x->data + (size_t)s * size, size);
  }
  return WNN_OK;
}

wnn_status wnn_ref_concat(const wnn_run_ctx *ctx) {
  const wnn_concat_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  const size_t size = wnn_dtype_size(y->dtype);
  const int64_t total = wnn_shape_numel(y->ndim, y->dims);
  for (int64_t t = 0; t < total; t++) {
    int64_t idx[WNN_MAX_DIMS];
    wnn_ref_unravel(t, y->ndim, y->dims, idx);
    /* Find the input whose slice of the axis holds this coordinate. */
    int i = 0;
    while (idx[p->axis] >= ctx->inputs[i].dims[p->axis]) idx[p->axis] -= ctx->inputs[i++].dims[p->axis];
    const wnn_tensor *x = &ctx->inputs[i];
    const int64_t s = wnn_ref_ravel(x->ndim, x->dims, idx);
    memcpy((char *)y->data + (size_t)t * size, (const char *)x->data + (size_t)s * size, size);
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
