/* Reference indexing and data-movement ops (src/ops/tensor_index.c), element by
 * element through index arithmetic.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/tensor_internal.h"
#include "ref/ref.h"

static void copy_elem(const wnn_tensor *y, int64_t to, const wnn_tensor *x, int64_t from) {
  const size_t size = wnn_dtype_size(x->dtype);
  memcpy((char *)y->data + (size_t)to * size, (const char *)x->data + (size_t)from * size, size);
}

wnn_status wnn_ref_gather(const wnn_run_ctx *ctx) {
  const wnn_gather_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *ind = &ctx->inputs[1], *y = &ctx->outputs[0];
  const int q = ind->ndim, a = p->axis;
  const int64_t n = x->dims[a];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    int64_t o[WNN_MAX_DIMS], iidx[WNN_MAX_DIMS];
    wnn_ref_unravel(t, y->ndim, y->dims, o);
    /* out[o] = x[o[:a], indices[o[a:a+q]], o[a+q:]] */
    int64_t j = wnn_index_at(ind->dtype, ind->data, (size_t)wnn_ref_ravel(q, ind->dims, o + a));
    if (j < -n || j >= n)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                          "Gather: index %lld is out of range for axis %d of size %lld",
                          (long long)j, a, (long long)n);
    if (j < 0) j += n;
    for (int d = 0; d < a; d++) iidx[d] = o[d];
    iidx[a] = j;
    for (int d = a + 1; d < x->ndim; d++) iidx[d] = o[d - 1 + q];
    copy_elem(y, t, x, wnn_ref_ravel(x->ndim, x->dims, iidx));
  }
  return WNN_OK;
}

wnn_status wnn_ref_slice(const wnn_run_ctx *ctx) {
  const wnn_slice_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    int64_t idx[WNN_MAX_DIMS];
    wnn_ref_unravel(t, y->ndim, y->dims, idx);
    for (int d = 0; d < y->ndim; d++) idx[d] = p->start[d] + idx[d] * p->step[d];
    copy_elem(y, t, x, wnn_ref_ravel(x->ndim, x->dims, idx));
  }
  return WNN_OK;
}

wnn_status wnn_ref_split(const wnn_run_ctx *ctx) {
  const wnn_split_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  int64_t offset = 0;
  for (int k = 0; k < ctx->num_outputs; k++) {
    const wnn_tensor *y = &ctx->outputs[k];
    for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
      int64_t idx[WNN_MAX_DIMS];
      wnn_ref_unravel(t, y->ndim, y->dims, idx);
      idx[p->axis] += offset;
      copy_elem(y, t, x, wnn_ref_ravel(x->ndim, x->dims, idx));
    }
    offset += y->dims[p->axis];
  }
  return WNN_OK;
}

wnn_status wnn_ref_expand(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const int lead = y->ndim - x->ndim;
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    int64_t o[WNN_MAX_DIMS], idx[WNN_MAX_DIMS];
    wnn_ref_unravel(t, y->ndim, y->dims, o);
    for (int d = 0; d < x->ndim; d++) idx[d] = x->dims[d] == 1 ? 0 : o[d + lead];
    copy_elem(y, t, x, wnn_ref_ravel(x->ndim, x->dims, idx));
  }
  return WNN_OK;
}

wnn_status wnn_ref_tile(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    int64_t idx[WNN_MAX_DIMS];
    wnn_ref_unravel(t, y->ndim, y->dims, idx);
    for (int d = 0; d < x->ndim; d++) idx[d] %= x->dims[d];
    copy_elem(y, t, x, wnn_ref_ravel(x->ndim, x->dims, idx));
  }
  return WNN_OK;
}

/* Folds i into [0, n) by the pad mode, one reflection or wrap at a time. */
static int64_t fold(int mode, int64_t i, int64_t n) {
  while (i < 0 || i >= n) {
    if (mode == WNN_PAD_EDGE) return i < 0 ? 0 : n - 1;
    if (mode == WNN_PAD_WRAP) i = i < 0 ? i + n : i - n;
    else if (n == 1) return 0;
    else i = i < 0 ? -i : 2 * (n - 1) - i;
  }
  return i;
}

wnn_status wnn_ref_pad(const wnn_run_ctx *ctx) {
  const wnn_pad_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const size_t size = wnn_dtype_size(x->dtype);
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    int64_t idx[WNN_MAX_DIMS];
    wnn_ref_unravel(t, y->ndim, y->dims, idx);
    bool inside = true;
    for (int d = 0; d < y->ndim; d++) {
      idx[d] -= p->begin[d];
      if (idx[d] < 0 || idx[d] >= x->dims[d]) {
        if (p->mode == WNN_PAD_CONSTANT) inside = false;
        else idx[d] = fold(p->mode, idx[d], x->dims[d]);
      }
    }
    if (inside) copy_elem(y, t, x, wnn_ref_ravel(x->ndim, x->dims, idx));
    else if (p->value_input) memcpy((char *)y->data + (size_t)t * size, ctx->inputs[2].data, size);
    else memset((char *)y->data + (size_t)t * size, 0, size);
  }
  return WNN_OK;
}

wnn_status wnn_ref_depthtospace(const wnn_run_ctx *ctx) {
  const wnn_d2s_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const int64_t bs = p->blocksize, oc = y->dims[1];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    int64_t o[4];
    wnn_ref_unravel(t, 4, y->dims, o);
    const int64_t i = o[2] % bs, j = o[3] % bs;
    /* DCR: depth is (i, j, c); CRD: (c, i, j). */
    const int64_t c = p->crd ? o[1] * bs * bs + i * bs + j : (i * bs + j) * oc + o[1];
    const int64_t idx[4] = {o[0], c, o[2] / bs, o[3] / bs};
    copy_elem(y, t, x, wnn_ref_ravel(4, x->dims, idx));
  }
  return WNN_OK;
}

wnn_status wnn_ref_spacetodepth(const wnn_run_ctx *ctx) {
  const wnn_d2s_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const int64_t bs = p->blocksize, c_in = x->dims[1];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    int64_t o[4];
    wnn_ref_unravel(t, 4, y->dims, o);
    /* Output depth is (i, j, c). */
    const int64_t c = o[1] % c_in, ij = o[1] / c_in, i = ij / bs, j = ij % bs;
    const int64_t idx[4] = {o[0], c, o[2] * bs + i, o[3] * bs + j};
    copy_elem(y, t, x, wnn_ref_ravel(4, x->dims, idx));
  }
  return WNN_OK;
}



#endif /* WNN_WITH_REFERENCE */
