/* Helpers shared by the shape, indexing and type ops (tensor_internal.h). */
#include <string.h>

#include "ops/tensor_internal.h"

wnn_status wnn_expect_present(wnn_prepare_ctx *ctx, const char *op, int i, const char *name) {
  if (wnn_has_input(ctx, i) && wnn_dtype_size(ctx->inputs[i].dtype) != 0) return WNN_OK;
  return wnn_op_fail(ctx, WNN_ERR_MALFORMED, "%s: input %d (%s) is required but omitted", op, i,
                     name);
}

wnn_status wnn_const_ints(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                          bool allow_i32, int max, int64_t *out, int *count) {
  const wnn_tdesc *t = &ctx->inputs[i];
  wnn_status st;
  if ((st = wnn_expect_present(ctx, op, i, name))) return st;
  if (t->dtype != WNN_DTYPE_I64 && !(allow_i32 && t->dtype == WNN_DTYPE_I32))
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected int64%s", op, i,
                       name, wnn_dtype_name(t->dtype), allow_i32 ? " or int32" : "");
  if ((st = wnn_expect_ndim(ctx, op, i, name, 1))) return st;
  if (!t->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: input %d (%s) must be a constant", op, i,
                       name);
  if (t->dims[0] > max)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) has %lld values, at most %d", op, i,
                       name, (long long)t->dims[0], max);
  *count = (int)t->dims[0];
  for (int k = 0; k < *count; k++) out[k] = wnn_index_at(t->dtype, t->data, (size_t)k);
  return WNN_OK;
}

/* One innermost run of the walk: n elements, stride apart in src. */
static void walk_row(char *dst, const char *src, size_t n, int64_t stride, size_t size) {
  if (stride == 1) {
    memcpy(dst, src, n * size);
  } else if (size == 4) {
    for (size_t i = 0; i < n; i++) memcpy(dst + 4 * i, src + (int64_t)i * stride * 4, 4);
  } else if (size == 8) {
    for (size_t i = 0; i < n; i++) memcpy(dst + 8 * i, src + (int64_t)i * stride * 8, 8);
  } else {
    for (size_t i = 0; i < n; i++)
      memcpy(dst + size * i, src + (int64_t)i * stride * (int64_t)size, size);
  }
}

void wnn_walk_copy(const wnn_walk *w, void *dst, const void *src) {
  const size_t size = w->elem_size;
  char *out = dst;
  const char *in = src;
  if (w->ndim == 0) {
    memcpy(out, in + w->base * (int64_t)size, size);
    return;
  }
  const int last = w->ndim - 1;
  size_t rows = 1, idx[WNN_WALK_MAX] = {0};
  for (int d = 0; d < last; d++) rows *= w->dims[d];
  const size_t n = w->dims[last];
  if (n == 0) return;
  int64_t off = w->base;
  for (size_t r = 0; r < rows; r++) {
    walk_row(out + r * n * size, in + off * (int64_t)size, n, w->strides[last], size);
    for (int d = last - 1; d >= 0; d--) { /* odometer over the outer walk dims */
      off += w->strides[d];
      if (++idx[d] < w->dims[d]) break;
      off -= w->strides[d] * (int64_t)idx[d];
      idx[d] = 0;
    }
  }
}

void wnn_walk_simplify(wnn_walk *w) {
  size_t dims[WNN_WALK_MAX];
  int64_t strides[WNN_WALK_MAX];
  int n = 0;
  for (int d = 0; d < w->ndim; d++) {
    if (w->dims[d] == 0) {
      w->ndim = 1, w->dims[0] = 0, w->strides[0] = 1;
      return;
    }
    if (w->dims[d] == 1) continue;
    if (n > 0 && strides[n - 1] == w->strides[d] * (int64_t)w->dims[d]) {
      dims[n - 1] *= w->dims[d]; /* the outer dim steps over exactly one inner run */
      strides[n - 1] = w->strides[d];
      continue;
    }
    dims[n] = w->dims[d], strides[n] = w->strides[d], n++;
  }
  w->ndim = n;
  for (int d = 0; d < n; d++) w->dims[d] = dims[d], w->strides[d] = strides[d];
}
