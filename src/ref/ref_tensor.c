/* Reference shape, indexing and type ops: element by element, through
 * coordinates, written from the ONNX definitions. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/tensor_internal.h"
#include "ref/ref.h"

static void copy_elem(const wnn_tensor *y, int64_t to, const wnn_tensor *x, int64_t from) {
  const size_t size = wnn_dtype_size(x->dtype);
  memcpy((char *)y->data + (size_t)to * size, (const char *)x->data + (size_t)from * size, size);
}

wnn_status wnn_ref_shape(const wnn_run_ctx *ctx) {
  const wnn_shape_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  for (int64_t k = 0; k < y->dims[0]; k++) ((int64_t *)y->data)[k] = x->dims[p->start + k];
  return WNN_OK;
}

wnn_status wnn_ref_size(const wnn_run_ctx *ctx) {
  int64_t n = 1;
  for (int d = 0; d < ctx->inputs[0].ndim; d++) n *= ctx->inputs[0].dims[d];
  *(int64_t *)ctx->outputs[0].data = n;
  return WNN_OK;
}

/* Integers keep their low bits when narrowed; floats truncate toward zero,
 * NaN giving 0 and values past int64 saturating. */
static int64_t as_int(wnn_dtype dtype, const void *data, int64_t i) {
  switch (dtype) {
    case WNN_DTYPE_F32: {
      const double v = ((const float *)data)[i];
      if (v != v) return 0;
      if (v >= 9223372036854775807.0) return INT64_MAX;
      if (v <= -9223372036854775808.0) return INT64_MIN;
      return (int64_t)trunc(v);
    }
    case WNN_DTYPE_I64: return ((const int64_t *)data)[i];
    case WNN_DTYPE_I32: return ((const int32_t *)data)[i];
    case WNN_DTYPE_I8: return ((const int8_t *)data)[i];
    case WNN_DTYPE_U8: return ((const uint8_t *)data)[i];
    default: return ((const uint8_t *)data)[i] ? 1 : 0;
  }
}

wnn_status wnn_ref_cast(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
    const int64_t v = as_int(x->dtype, x->data, i);
    const uint64_t bits = (uint64_t)v;
    switch (y->dtype) {
      case WNN_DTYPE_F32:
        ((float *)y->data)[i] =
            x->dtype == WNN_DTYPE_F32 ? ((const float *)x->data)[i] : (float)v;
        break;
      case WNN_DTYPE_I64: ((int64_t *)y->data)[i] = v; break;
      case WNN_DTYPE_I32: ((int32_t *)y->data)[i] = (int32_t)(bits & 0xffffffffu); break;
      case WNN_DTYPE_I8: ((int8_t *)y->data)[i] = (int8_t)(bits & 0xffu); break;
      case WNN_DTYPE_U8: ((uint8_t *)y->data)[i] = (uint8_t)(bits & 0xffu); break;
      default:
        ((uint8_t *)y->data)[i] = x->dtype == WNN_DTYPE_F32
                                      ? ((const float *)x->data)[i] != 0.0f
                                      : v != 0;
        break;
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_constantofshape(const wnn_run_ctx *ctx) {
  const wnn_fill_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  for (int64_t i = 0; i < wnn_ref_numel(y); i++)
    memcpy((char *)y->data + (size_t)i * p->elem_size, p->value, p->elem_size);
  return WNN_OK;
}

wnn_status wnn_ref_range(const wnn_run_ctx *ctx) {
  const wnn_range_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  for (int64_t i = 0; i < y->dims[0]; i++) {
    if (p->dtype == WNN_DTYPE_F32)
      ((float *)y->data)[i] = (float)(p->fstart + (double)i * p->fdelta);
    else if (p->dtype == WNN_DTYPE_I32)
      ((int32_t *)y->data)[i] = (int32_t)(p->istart + i * p->idelta);
    else
      ((int64_t *)y->data)[i] = (int64_t)((uint64_t)p->istart + (uint64_t)i * (uint64_t)p->idelta);
  }
  return WNN_OK;
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
