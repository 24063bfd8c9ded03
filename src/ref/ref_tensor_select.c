/* Reference GatherElements, ScatterElements, ScatterND, Trilu, OneHot and
 * TopK: through coordinates, from the ONNX definitions. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/tensor_internal.h"
#include "ref/ref.h"

static char *at(const wnn_tensor *t, int64_t i) {
  return (char *)t->data + (size_t)i * wnn_dtype_size(t->dtype);
}

/* dst = dst (op) src, in double for float32 and in int64 for integers. */
static void reduce_into(int reduction, wnn_dtype dtype, char *dst, const char *src) {
  if (dtype == WNN_DTYPE_F32) {
    float a, b;
    memcpy(&a, dst, 4), memcpy(&b, src, 4);
    const float r = reduction == WNN_SCATTER_ADD ? a + b
                    : reduction == WNN_SCATTER_MUL ? a * b
                    : reduction == WNN_SCATTER_MAX ? fmaxf(a, b)
                    : reduction == WNN_SCATTER_MIN ? fminf(a, b)
                                                   : b;
    memcpy(dst, &r, 4);
    return;
  }
  if (reduction == WNN_SCATTER_NONE) {
    memcpy(dst, src, wnn_dtype_size(dtype));
    return;
  }
  const int64_t a = wnn_index_at(dtype, dst, 0), b = wnn_index_at(dtype, src, 0);
  const uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  const int64_t r = reduction == WNN_SCATTER_ADD   ? (int64_t)(ua + ub)
                    : reduction == WNN_SCATTER_MUL ? (int64_t)(ua * ub)
                    : reduction == WNN_SCATTER_MAX ? (a > b ? a : b)
                                                   : (a < b ? a : b);
  if (dtype == WNN_DTYPE_I32) {
    const int32_t r32 = (int32_t)(uint32_t)((uint64_t)r & 0xffffffffu);
    memcpy(dst, &r32, 4);
  } else {
    memcpy(dst, &r, 8);
  }
}

/* Element t of indices as a data coordinate along axis, or fails. */
static wnn_status axis_coord(const wnn_run_ctx *ctx, const char *op, const wnn_tensor *idx,
                             int64_t t, int64_t dim, int64_t *out) {
  int64_t j = wnn_index_at(idx->dtype, idx->data, (size_t)t);
  if (j < -dim || j >= dim)
    return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "%s: index %lld is out of range (size %lld)",
                        op, (long long)j, (long long)dim);
  *out = j < 0 ? j + dim : j;
  return WNN_OK;
}

wnn_status wnn_ref_gatherelements(const wnn_run_ctx *ctx) {
  const wnn_elements_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *idx = &ctx->inputs[1], *y = &ctx->outputs[0];
  for (int64_t t = 0; t < wnn_ref_numel(idx); t++) {
    int64_t c[WNN_MAX_DIMS];
    wnn_ref_unravel(t, idx->ndim, idx->dims, c);
    wnn_status st = axis_coord(ctx, "GatherElements", idx, t, x->dims[p->axis], &c[p->axis]);
    if (st) return st;
    memcpy(at(y, t), at(x, wnn_ref_ravel(x->ndim, x->dims, c)), wnn_dtype_size(x->dtype));
  }
  return WNN_OK;
}

wnn_status wnn_ref_scatterelements(const wnn_run_ctx *ctx) {
  const wnn_elements_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *idx = &ctx->inputs[1], *u = &ctx->inputs[2];
  const wnn_tensor *y = &ctx->outputs[0];
  for (int64_t t = 0; t < wnn_ref_numel(idx); t++) { /* all or nothing */
    int64_t j;
    wnn_status st = axis_coord(ctx, "ScatterElements", idx, t, x->dims[p->axis], &j);
    if (st) return st;
  }
  memcpy(y->data, x->data, (size_t)wnn_ref_numel(x) * wnn_dtype_size(x->dtype));
  for (int64_t t = 0; t < wnn_ref_numel(idx); t++) {
    int64_t c[WNN_MAX_DIMS];
    wnn_ref_unravel(t, idx->ndim, idx->dims, c);
    axis_coord(ctx, "ScatterElements", idx, t, x->dims[p->axis], &c[p->axis]);
    reduce_into(p->reduction, x->dtype, at(y, wnn_ref_ravel(x->ndim, x->dims, c)), at(u, t));
  }
  return WNN_OK;
}

wnn_status wnn_ref_scatternd(const wnn_run_ctx *ctx) {
  const wnn_scatternd_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *idx = &ctx->inputs[1], *u = &ctx->inputs[2];
  const wnn_tensor *y = &ctx->outputs[0];
  const int64_t *iv = idx->data;
  const int k = p->k;
  for (int64_t t = 0; t < wnn_ref_numel(idx); t++) {
    const int64_t dim = x->dims[t % k];
    if (iv[t] < -dim || iv[t] >= dim)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "ScatterND: index %lld out of range",
                          (long long)iv[t]);
  }
  memcpy(y->data, x->data, (size_t)wnn_ref_numel(x) * wnn_dtype_size(x->dtype));
  /* updates[t..., s...] goes to data[indices[t...], s...]. */
  for (int64_t e = 0; e < wnn_ref_numel(u); e++) {
    int64_t uc[2 * WNN_MAX_DIMS], c[WNN_MAX_DIMS];
    wnn_ref_unravel(e, u->ndim, u->dims, uc);
    const int lead = idx->ndim - 1;
    const int64_t tuple = wnn_ref_ravel(lead, idx->dims, uc);
    for (int j = 0; j < k; j++) {
      const int64_t v = iv[tuple * k + j];
      c[j] = v < 0 ? v + x->dims[j] : v;
    }
    for (int d = k; d < x->ndim; d++) c[d] = uc[lead + d - k];
    reduce_into(p->reduction, x->dtype, at(y, wnn_ref_ravel(x->ndim, x->dims, c)), at(u, e));
  }
  return WNN_OK;
}

wnn_status wnn_ref_gathernd(const wnn_run_ctx *ctx) {
  const wnn_gathernd_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *idx = &ctx->inputs[1], *y = &ctx->outputs[0];
  const int64_t *iv = idx->data;
  const int b = p->batch_dims, k = p->k, lead = idx->ndim - 1;
  /* y[i_0..i_{q-2}, s...] = x[i_0..i_{b-1}, indices[i_0..i_{q-2}][0..k), s...] */
  for (int64_t e = 0; e < wnn_ref_numel(y); e++) {
    int64_t yc[2 * WNN_MAX_DIMS], c[WNN_MAX_DIMS];
    wnn_ref_unravel(e, y->ndim, y->dims, yc);
    const int64_t tuple = wnn_ref_ravel(lead, idx->dims, yc);
    for (int d = 0; d < b; d++) c[d] = yc[d];
    for (int j = 0; j < k; j++) {
      const int64_t v = iv[tuple * k + j], dim = x->dims[b + j];
      if (v < -dim || v >= dim)
        return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "GatherND: index %lld out of range",
                            (long long)v);
      c[b + j] = v < 0 ? v + dim : v;
    }
    for (int d = b + k; d < x->ndim; d++) c[d] = yc[lead + d - b - k];
    memcpy(at(y, e), at(x, wnn_ref_ravel(x->ndim, x->dims, c)), wnn_dtype_size(x->dtype));
  }
  return WNN_OK;
}

wnn_status wnn_ref_trilu(const wnn_run_ctx *ctx) {
  const wnn_trilu_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  int64_t k = 0;
  if (ctx->num_inputs > 1 && ctx->inputs[1].data) k = *(const int64_t *)ctx->inputs[1].data;
  const size_t size = wnn_dtype_size(x->dtype);
  for (int64_t t = 0; t < wnn_ref_numel(x); t++) {
    int64_t c[WNN_MAX_DIMS];
    wnn_ref_unravel(t, x->ndim, x->dims, c);
    const double i = (double)c[x->ndim - 2], j = (double)c[x->ndim - 1];
    const bool keep = p->upper ? j - i >= (double)k : j - i <= (double)k;
    if (keep) memcpy(at(y, t), at(x, t), size);
    else memset(at(y, t), 0, size);
  }
  return WNN_OK;
}

wnn_status wnn_ref_onehot(const wnn_run_ctx *ctx) {
  const wnn_onehot_params *p = ctx->params;
  const wnn_tensor *idx = &ctx->inputs[0], *v = &ctx->inputs[2], *y = &ctx->outputs[0];
  const int axis = p->axis;
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    int64_t c[WNN_MAX_DIMS], ic[WNN_MAX_DIMS];
    wnn_ref_unravel(t, y->ndim, y->dims, c);
    for (int d = 0, n = 0; d < y->ndim; d++)
      if (d != axis) ic[n++] = c[d];
    double iv = trunc(wnn_elem_as_double(idx->dtype, idx->data,
                                         (size_t)wnn_ref_ravel(idx->ndim, idx->dims, ic)));
    if (iv < 0) iv += (double)p->depth;
    memcpy(at(y, t), at(v, iv == (double)c[axis] ? 1 : 0), wnn_dtype_size(v->dtype));
  }
  return WNN_OK;
}

wnn_status wnn_ref_topk(const wnn_run_ctx *ctx) {
  const wnn_topk_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *vals = &ctx->outputs[0], *inds = &ctx->outputs[1];
  const size_t size = wnn_dtype_size(x->dtype);
  const int ax = p->axis;
  /* Each element's rank among its row: how many go before it (larger, or
   * smaller, value; NaN above all; lower index first on ties). Rank < k is
   * kept at position rank. */
  for (int64_t t = 0; t < wnn_ref_numel(x); t++) {
    int64_t c[WNN_MAX_DIMS];
    wnn_ref_unravel(t, x->ndim, x->dims, c);
    const int64_t i = c[ax];
    const double a = wnn_elem_as_double(x->dtype, x->data, (size_t)t);
    int64_t rank = 0;
    for (int64_t j = 0; j < x->dims[ax]; j++) {
      c[ax] = j;
      const int64_t tj = wnn_ref_ravel(x->ndim, x->dims, c);
      int cmp;
      if (x->dtype == WNN_DTYPE_F32) {
        const double b = wnn_elem_as_double(x->dtype, x->data, (size_t)tj);
        cmp = isnan(b) || isnan(a) ? (int)isnan(b) - (int)isnan(a) : (b > a) - (b < a);
      } else {
        const int64_t b = wnn_index_at(x->dtype, x->data, (size_t)tj),
                      ai = wnn_index_at(x->dtype, x->data, (size_t)t);
        cmp = (b > ai) - (b < ai);
      }
      const bool before = cmp != 0 ? (p->largest ? cmp > 0 : cmp < 0) : j < i;
      rank += before;
    }
    if ((size_t)rank >= p->k) continue;
    c[ax] = rank;
    const int64_t o = wnn_ref_ravel(vals->ndim, vals->dims, c);
    memcpy(at(vals, o), at(x, t), size);
    ((int64_t *)inds->data)[o] = i;
  }
  return WNN_OK;
}

/* -------------------------------------------------------------- Compress */

wnn_status wnn_ref_compress(const wnn_run_ctx *ctx) {
  const wnn_compress_params *p = ctx->params;
  const unsigned char *x = ctx->inputs[0].data, *cond = ctx->inputs[1].data;
  unsigned char *y = ctx->outputs[0].data;
  size_t out = 0;
  /* element by element: (o, k, i) goes out when cond[k] */
  for (size_t o = 0; o < p->outer; o++)
    for (size_t k = 0; k < p->n; k++)
      for (size_t i = 0; i < p->inner; i++)
        if (k < p->len && cond[k]) {
          memcpy(y + out * p->elem_size, x + ((o * p->n + k) * p->inner + i) * p->elem_size,
                 p->elem_size);
          out++;
        }
  return WNN_OK;
}

/* ------------------------------------------------------- ReverseSequence */

wnn_status wnn_ref_reversesequence(const wnn_run_ctx *ctx) {
  const wnn_reversesequence_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const int64_t *lens = ctx->inputs[1].data;
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
    wnn_ref_unravel(i, x->ndim, x->dims, idx);
    const int64_t b = idx[p->batch_first ? 0 : 1], t = idx[p->batch_first ? 1 : 0];
    if (lens[b] < 0 || lens[b] > (int64_t)p->seq)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "sequence_lens[%lld] is %lld", (long long)b,
                          (long long)lens[b]);
    if (t < lens[b]) idx[p->batch_first ? 1 : 0] = lens[b] - 1 - t;
    memcpy((unsigned char *)ctx->outputs[0].data + i * (int64_t)p->elem_size,
           (const unsigned char *)x->data + wnn_ref_ravel(x->ndim, x->dims, idx) * (int64_t)p->elem_size,
           p->elem_size);
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
