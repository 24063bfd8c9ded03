/*
 * Gemm and MatMul (ONNX opset 13), float32, both on the GEMM microkernel.
 * Transposes never copy: they become the kernel's strides.
 */
#include <math.h>

#include "ops/fused_activation.h"
#include "ops/math_internal.h"

WNN_PARAMS_FIT(wnn_det_params);

WNN_PARAMS_FIT(wnn_gemm_params);
WNN_PARAMS_FIT(wnn_matmul_params);

/* ----------------------------------------------------------------- Gemm */

/* C broadcasts unidirectionally to (m, n); sets its strides. */
static wnn_status gemm_prepare_c(wnn_prepare_ctx *ctx, wnn_gemm_params *p) {
  static const char OP[] = "Gemm";
  const wnn_tdesc *c = &ctx->inputs[2];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 2, "C", WNN_DTYPE_F32))) return st;
  const int64_t cm = c->ndim == 2 ? c->dims[0] : 1;
  const int64_t cn = c->ndim >= 1 ? c->dims[c->ndim - 1] : 1;
  if (c->ndim > 2 || (cm != 1 && cm != (int64_t)p->m) || (cn != 1 && cn != (int64_t)p->n))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 2 (C) with %d dims [%lld, %lld] does not broadcast to "
                       "[%zu, %zu]", OP, c->ndim, (long long)cm, (long long)cn, p->m, p->n);
  p->has_c = true;
  p->c_cs = cn == 1 ? 0 : 1;
  p->c_rs = cm == 1 ? 0 : (size_t)cn;
  return WNN_OK;
}

wnn_status wnn_gemm_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Gemm";
  wnn_gemm_act_params *pa = ctx->params;
  wnn_gemm_params *p = &pa->base;
  const wnn_tdesc *a = &ctx->inputs[0], *b = &ctx->inputs[1];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "A", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "B", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_ndim(ctx, OP, 0, "A", 2))) return st;
  if ((st = wnn_expect_ndim(ctx, OP, 1, "B", 2))) return st;
  if ((st = wnn_attr_bool(ctx, OP, "transA", &p->trans_a))) return st;
  if ((st = wnn_attr_bool(ctx, OP, "transB", &p->trans_b))) return st;
  if ((st = wnn_attr_float(ctx, "alpha", 1.0f, &p->alpha))) return st;
  if ((st = wnn_attr_float(ctx, "beta", 1.0f, &p->beta))) return st;
  if ((st = wnn_fused_activation_prepare(ctx, OP, &pa->act))) return st;
  const int64_t m = a->dims[p->trans_a ? 1 : 0], ka = a->dims[p->trans_a ? 0 : 1];
  const int64_t kb = b->dims[p->trans_b ? 1 : 0], n = b->dims[p->trans_b ? 0 : 1];
  if (ka != kb)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: inner dimensions differ: A' is %lldx%lld, B' is %lldx%lld "
                       "(transA=%d, transB=%d)",
                       OP, (long long)m, (long long)ka, (long long)kb, (long long)n, p->trans_a,
                       p->trans_b);
  const int64_t out[2] = {m, n};
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, 2, out))) return st;
  p->m = (size_t)m, p->n = (size_t)n, p->k = (size_t)ka;
  if (wnn_has_input(ctx, 2) && (st = gemm_prepare_c(ctx, p))) return st;
  p->gemm = wnn_select_f32_gemm(ctx->kernels);
  p->act = pa->act.kind != WNN_ACT_NONE ? wnn_select_f32_act(ctx->kernels) : NULL;
  return WNN_OK;
}

wnn_status wnn_gemm_run(const wnn_run_ctx *ctx) {
  const wnn_gemm_act_params *pa = ctx->params;
  const wnn_gemm_params *p = &pa->base;
  const float *a = ctx->inputs[0].data, *b = ctx->inputs[1].data;
  const float *c = p->has_c && ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  wnn_f32_gemm_params gp = {.alpha = p->alpha, .beta = 0.0f, .min = -INFINITY, .max = INFINITY};
  /* beta * C: Y starts as C broadcast, and the kernel adds it scaled by beta.
   * With beta == 0 C is not read at all, as in onnxruntime. */
  if (c && p->beta != 0.0f) {
    for (size_t i = 0; i < p->m; i++)
      for (size_t j = 0; j < p->n; j++) y[i * p->n + j] = c[i * p->c_rs + j * p->c_cs];
    gp.beta = p->beta;
  }
  /* A is m x k, or k x m when transposed; B is k x n, or n x k. */
  const size_t a_rs = p->trans_a ? 1 : p->k, a_cs = p->trans_a ? p->m : 1;
  const size_t b_rs = p->trans_b ? 1 : p->n, b_cs = p->trans_b ? p->k : 1;
  wnn_f32_gemm(&p->gemm, p->m, p->n, p->k, a, a_rs, a_cs, b, b_rs, b_cs, NULL, y, p->n, &gp);
  if (p->act) p->act(1, p->m * p->n, y, p->m * p->n, &pa->act);
  return WNN_OK;
}

/* --------------------------------------------------------------- MatMul */

/* numpy.matmul: 1-D A is a row [1, K] and 1-D B a column [K, 1], the added
 * dimension removed from the result; batch dimensions broadcast. */
wnn_status wnn_matmul_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "MatMul";
  wnn_matmul_params *p = ctx->params;
  const wnn_tdesc *a = &ctx->inputs[0], *b = &ctx->inputs[1];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "A", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "B", WNN_DTYPE_F32))) return st;
  if (a->ndim < 1 || b->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d is a scalar; MatMul needs at least 1 dim",
                       OP, a->ndim < 1 ? 0 : 1);
  const int64_t m = a->ndim == 1 ? 1 : a->dims[a->ndim - 2], k = a->dims[a->ndim - 1];
  const int64_t kb = b->ndim == 1 ? b->dims[0] : b->dims[b->ndim - 2];
  const int64_t n = b->ndim == 1 ? 1 : b->dims[b->ndim - 1];
  if (k != kb)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: A has %lld columns but B has %lld rows", OP,
                       (long long)k, (long long)kb);

  const int a_bnd = a->ndim > 2 ? a->ndim - 2 : 0, b_bnd = b->ndim > 2 ? b->ndim - 2 : 0;
  const int bnd = a_bnd > b_bnd ? a_bnd : b_bnd;
  int64_t out[WNN_MAX_DIMS];
  int out_nd = 0;
  /* Element strides of each operand's batch dims, walked innermost first. */
  size_t a_stride = (size_t)(m * k), b_stride = (size_t)(k * n);
  for (int i = bnd - 1; i >= 0; i--) {
    const int ia = i - (bnd - a_bnd), ib = i - (bnd - b_bnd);
    const int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: batch dims do not broadcast: A has %lld and B has %lld at batch dim %d",
                         OP, (long long)da, (long long)db, i);
    p->batch_dims[i] = (size_t)(da == 1 ? db : da);
    p->a_bs[i] = da == 1 ? 0 : a_stride;
    p->b_bs[i] = db == 1 ? 0 : b_stride;
    a_stride *= (size_t)da, b_stride *= (size_t)db;
    out[i] = (int64_t)p->batch_dims[i];
  }
  out_nd = bnd;
  if (a->ndim > 1) out[out_nd++] = m;
  if (b->ndim > 1) out[out_nd++] = n;
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, out_nd, out))) return st;
  p->m = (size_t)m, p->n = (size_t)n, p->k = (size_t)k;
  p->batch_ndim = bnd;
  /* B shared by every batch and A's batches dense: one tall GEMM. */
  bool fold = bnd > 0;
  for (int i = 0; i < bnd; i++)
    fold = fold && p->b_bs[i] == 0 && (p->a_bs[i] != 0 || p->batch_dims[i] == 1);
  if (fold) {
    for (int i = 0; i < bnd; i++) p->m *= p->batch_dims[i];
    p->batch_ndim = 0;
  }
  p->gemm = wnn_select_f32_gemm(ctx->kernels);
  /* An artifact planned by an older writer keeps the unpacked path. */
  const size_t pack = wnn_f32_gemm_pack_bytes(p->m, p->n, p->k);
  if (pack && wnn_scratch_fits(ctx, pack)) {
    p->pack = true;
    ctx->scratch_bytes = pack;
  }
  return WNN_OK;
}

wnn_status wnn_matmul_run(const wnn_run_ctx *ctx) {
  const wnn_matmul_params *p = ctx->params;
  const float *a = ctx->inputs[0].data, *b = ctx->inputs[1].data;
  float *y = ctx->outputs[0].data;
  const wnn_f32_gemm_params gp = {.alpha = 1.0f, .beta = 0.0f, .min = -INFINITY, .max = INFINITY};
  size_t idx[WNN_MAX_DIMS] = {0};
  size_t count = 1;
  for (int i = 0; i < p->batch_ndim; i++) count *= p->batch_dims[i];
  size_t a_off = 0, b_off = 0;
  for (size_t t = 0; t < count; t++) {
    wnn_f32_gemm_pack(&p->gemm, p->m, p->n, p->k, a + a_off, p->k, 1, b + b_off, p->n, 1, NULL,
                      y + t * p->m * p->n, p->n, &gp, p->pack ? ctx->scratch : NULL);
    /* Odometer over the batch dims, innermost fastest. */
    for (int i = p->batch_ndim - 1; i >= 0; i--) {
      a_off += p->a_bs[i], b_off += p->b_bs[i];
      if (++idx[i] < p->batch_dims[i]) break;
      a_off -= p->a_bs[i] * idx[i], b_off -= p->b_bs[i] * idx[i];
      idx[i] = 0;
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------------- Det */

/* Det (11): X [*, M, M] float32 -> [*]. */
wnn_status wnn_det_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Det";
  wnn_det_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  char a[64];
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if (x->ndim < 2 || x->dims[x->ndim - 1] != x->dims[x->ndim - 2])
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 0 (X) has shape %s, expected [..., M, M] (square matrices)", OP,
                       wnn_format_dims(a, sizeof a, x->ndim, x->dims));
  p->m = (size_t)x->dims[x->ndim - 1];
  p->batch = (size_t)wnn_shape_numel(x->ndim - 2, x->dims);
  if (p->m > 4096)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: %zu x %zu matrices are too large", OP, p->m,
                       p->m);
  ctx->scratch_bytes = p->m * p->m * sizeof(double);
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim - 2, x->dims);
}

/* LU decomposition with partial pivoting, in double: the product of the
 * pivots, negated once per row swap. */
wnn_status wnn_det_run(const wnn_run_ctx *ctx) {
  const wnn_det_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  double *a = ctx->scratch;
  const size_t m = p->m;
  for (size_t b = 0; b < p->batch; b++) {
    for (size_t i = 0; i < m * m; i++) a[i] = x[b * m * m + i];
    double det = 1.0;
    for (size_t c = 0; c < m && det != 0.0; c++) {
      size_t piv = c;
      for (size_t r = c + 1; r < m; r++)
        if (fabs(a[r * m + c]) > fabs(a[piv * m + c])) piv = r;
      if (piv != c) {
        for (size_t k = 0; k < m; k++) {
          const double t = a[c * m + k];
          a[c * m + k] = a[piv * m + k], a[piv * m + k] = t;
        }
        det = -det;
      }
      const double d = a[c * m + c];
      det *= d;
      if (d == 0.0) break;
      for (size_t r = c + 1; r < m; r++) {
        const double f = a[r * m + c] / d;
        for (size_t k = c + 1; k < m; k++) a[r * m + k] -= f * a[c * m + k];
      }
    }
    y[b] = (float)det;
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

/* "activation" and "activation_params": the fused activation, as Conv's. */
WNN_OP_DEFINE(gemm, "Gemm", 0, 2, 3, 1, 1,
              WNN_ATTRS("alpha", "beta", "transA", "transB", "activation", "activation_params"));
WNN_OP_DEFINE(matmul, "MatMul", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(det, "Det", 0, 1, 1, 1, 1, NULL);
