/* Reference Gemm and MatMul: one dot product per output element. */
#ifdef WNN_WITH_REFERENCE
#include "ops/fused_activation.h"
#include "ops/math_internal.h" /* Det */
#include "ref/ref.h"

wnn_status wnn_ref_gemm(const wnn_run_ctx *ctx) {
  const wnn_gemm_act_params *pa = ctx->params;
  const wnn_gemm_params *p = &pa->base;
  const wnn_tensor *at = &ctx->inputs[0], *bt = &ctx->inputs[1];
  const wnn_tensor *ct = ctx->num_inputs > 2 && ctx->inputs[2].data ? &ctx->inputs[2] : NULL;
  const float *a = at->data, *b = bt->data;
  float *y = ctx->outputs[0].data;
  const int64_t m = ctx->outputs[0].dims[0], n = ctx->outputs[0].dims[1];
  const int64_t k = p->trans_a ? at->dims[0] : at->dims[1];
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      float acc = 0.0f;
      for (int64_t q = 0; q < k; q++) {
        const float av = p->trans_a ? a[q * m + i] : a[i * k + q];
        const float bv = p->trans_b ? b[j * k + q] : b[q * n + j];
        acc += av * bv;
      }
      float v = p->alpha * acc;
      if (ct && p->beta != 0.0f) {
        /* Unidirectional broadcast: a size-1 (or missing) dim of C repeats. */
        const int64_t cm = ct->ndim == 2 ? ct->dims[0] : 1;
        const int64_t cn = ct->ndim >= 1 ? ct->dims[ct->ndim - 1] : 1;
        const float *c = ct->data;
        v += p->beta * c[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)];
      }
      y[i * n + j] = wnn_fused_activation_ref(&pa->act, v);
    }
  return WNN_OK;
}

/* Index of A's (or B's) matrix for output batch index `out_idx` (odometer
 * digits over the output's batch dims), numpy broadcasting. */
static int64_t batch_offset(const wnn_tensor *t, int out_bnd, const int64_t *out_idx) {
  const int t_bnd = t->ndim > 2 ? t->ndim - 2 : 0;
  int64_t off = 0;
  for (int i = 0; i < t_bnd; i++) {
    const int64_t d = t->dims[i];
    const int64_t digit = d == 1 ? 0 : out_idx[i + (out_bnd - t_bnd)];
    off = off * d + digit;
  }
  return off;
}

wnn_status wnn_ref_matmul(const wnn_run_ctx *ctx) {
  const wnn_tensor *at = &ctx->inputs[0], *bt = &ctx->inputs[1];
  const float *a = at->data, *b = bt->data;
  float *y = ctx->outputs[0].data;
  const int64_t m = at->ndim == 1 ? 1 : at->dims[at->ndim - 2], k = at->dims[at->ndim - 1];
  const int64_t n = bt->ndim == 1 ? 1 : bt->dims[bt->ndim - 1];
  const int a_bnd = at->ndim > 2 ? at->ndim - 2 : 0, b_bnd = bt->ndim > 2 ? bt->ndim - 2 : 0;
  const int bnd = a_bnd > b_bnd ? a_bnd : b_bnd;
  int64_t bdims[WNN_MAX_DIMS], batches = 1;
  for (int i = 0; i < bnd; i++) {
    const int ia = i - (bnd - a_bnd), ib = i - (bnd - b_bnd);
    const int64_t da = ia >= 0 ? at->dims[ia] : 1, db = ib >= 0 ? bt->dims[ib] : 1;
    bdims[i] = da == 1 ? db : da;
    batches *= bdims[i];
  }
  for (int64_t t = 0; t < batches; t++) {
    int64_t idx[WNN_MAX_DIMS], rest = t;
    for (int i = bnd - 1; i >= 0; i--) idx[i] = rest % bdims[i], rest /= bdims[i];
    const float *ab = a + batch_offset(at, bnd, idx) * m * k;
    const float *bb = b + batch_offset(bt, bnd, idx) * k * n;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        float acc = 0.0f;
        for (int64_t q = 0; q < k; q++) acc += ab[i * k + q] * bb[q * n + j];
        y[(t * m + i) * n + j] = acc;
      }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------------- Det */

/* Laplace expansion along the first row of the rows/columns still in use
 * (bit masks): exponential, so for the small matrices of the tests only. */
static double laplace(const float *a, size_t m, unsigned rows, unsigned cols) {
  size_t r = 0;
  while (r < m && !(rows & (1u << r))) r++;
  if (r == m) return 1.0;
  double det = 0.0, sign = 1.0;
  for (size_t c = 0; c < m; c++) {
    if (!(cols & (1u << c))) continue;
    det += sign * a[r * m + c] * laplace(a, m, rows & ~(1u << r), cols & ~(1u << c));
    sign = -sign;
  }
  return det;
}

wnn_status wnn_ref_det(const wnn_run_ctx *ctx) {
  const wnn_det_params *p = ctx->params;
  if (p->m > 10) return wnn_run_fail(ctx, WNN_ERR_UNSUPPORTED, "reference Det: M > 10");
  const unsigned all = (1u << p->m) - 1u;
  for (size_t b = 0; b < p->batch; b++)
    ((float *)ctx->outputs[0].data)[b] =
        (float)laplace((const float *)ctx->inputs[0].data + b * p->m * p->m, p->m, all, all);
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
