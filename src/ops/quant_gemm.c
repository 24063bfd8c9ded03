/*
 * Integer and quantized linear algebra, uint8 and int8 operands, int32
 * accumulation (docs/quantization.md):
 *   MatMulInteger   A, B, a_zero_point?, b_zero_point? -> int32
 *   QLinearMatMul   a, a_scale, a_zero_point, b, b_scale, b_zero_point,
 *                   y_scale, y_zero_point -> y_zero_point's dtype
 *   DynamicQuantizeMatMul (com.microsoft)
 *                   A float, B, b_scale, b_zero_point?, bias? -> float
 *   ConvInteger     x, w, x_zero_point?, w_zero_point? -> int32; Conv's
 *                   attributes (1-D and 2-D)
 *   QLinearConv     x, x_scale, x_zero_point, w, w_scale, w_zero_point,
 *                   y_scale, y_zero_point, B? (int32) -> y_zero_point's dtype
 * Zero points and scales are scalars (one element), except B's in the matmuls
 * (per column, [N]) and w's in the convs (per output channel, [M]); they are
 * read at run time. Requantizing: y = saturate(round_half_even(acc * (s_a *
 * s_b / s_y)) + zero_point_y), the multiplier in float32 as ONNX's reference
 * computes it.
 *
 * wnn's extensions, written by the importer (docs/quantization.md):
 *   b_packed (QLinearMatMul, DynamicQuantizeMatMul): B is the constant
 *     [ceil(K/2), N, 2] holding the logical [K, N] in K-pairs;
 *   activation / activation_params (QLinearConv): "Relu" or "Clip" [min,
 *     max] applied before quantizing, which is a clamp of the quantized
 *     output to [Q(min), Q(max)] (Q is monotone, so this is exact); it needs
 *     constant y_scale and y_zero_point.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "ops/fused_activation.h"
#include "ops/quant_internal.h"
#include "runtime/pool.h"

WNN_PARAMS_FIT(wnn_qmatmul_params);
WNN_PARAMS_FIT(wnn_qconv_params);

static bool is_q8(wnn_dtype dt) { return dt == WNN_DTYPE_U8 || dt == WNN_DTYPE_I8; }

static const char *const QNAMES[WNN_Q_COUNT] = {"A", "B", "a_zero_point", "b_zero_point",
                                                 "a_scale", "b_scale", "y_scale", "y_zero_point",
                                                 "B (bias)"};

/* Input in[slot], when present: of dtype `want` (INVALID: uint8 or int8), with
 * one element, or `per` elements when per > 0 (then *per_out says which; per_what
 * names the per-element case in the message). */
static wnn_status check_scalar_per(wnn_prepare_ctx *ctx, const char *op, const signed char *in,
                                   int slot, const char *name, wnn_dtype want, int64_t per,
                                   const char *per_what, bool *per_out) {
  const int i = in[slot];
  if (per_out) *per_out = false;
  if (i < 0 || i >= ctx->num_inputs || !wnn_has_input(ctx, i)) {
    /* Zero points are optional; scales (the float32 ones) are required: run
     * reads them (an omitted one was read through NULL, found by fuzzing). */
    if (want == WNN_DTYPE_F32)
      return wnn_op_fail(ctx, WNN_ERR_MALFORMED, "%s: input %s is required but omitted", op, name);
    return WNN_OK;
  }
  const wnn_tdesc *t = &ctx->inputs[i];
  if (want == WNN_DTYPE_INVALID ? !is_q8(t->dtype) : t->dtype != want)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected %s", op, i, name,
                       wnn_dtype_name(t->dtype),
                       want == WNN_DTYPE_INVALID ? "uint8 or int8" : wnn_dtype_name(want));
  const int64_t n = wnn_shape_numel(t->ndim, t->dims);
  if (t->ndim <= 1 && n == 1) return WNN_OK;
  if (per > 0 && t->ndim == 1 && n == per) {
    *per_out = true;
    return WNN_OK;
  }
  char a[64];
  if (per > 0)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input %d (%s) has shape %s; only a scalar or [%lld] (%s) is supported",
                       op, i, name, wnn_format_dims(a, sizeof a, t->ndim, t->dims), (long long)per,
                       per_what);
  return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                     "%s: input %d (%s) has shape %s; only a scalar (per tensor) is supported", op,
                     i, name, wnn_format_dims(a, sizeof a, t->ndim, t->dims));
}

static wnn_status check_scalar(wnn_prepare_ctx *ctx, const char *op, const signed char *in,
                               int slot, const char *name, wnn_dtype want) {
  return check_scalar_per(ctx, op, in, slot, name, want, 0, NULL, NULL);
}

static inline int32_t q8_at(wnn_dtype dt, const void *p, size_t i) {
  return dt == WNN_DTYPE_I8 ? ((const int8_t *)p)[i] : ((const uint8_t *)p)[i];
}

/* The zero point at in[slot] (element i), 0 when omitted. */
static inline int32_t zp_at(const wnn_run_ctx *ctx, const signed char *in, int slot, size_t i) {
  const int k = in[slot];
  if (k < 0 || k >= ctx->num_inputs || !ctx->inputs[k].data) return 0;
  return q8_at(ctx->inputs[k].dtype, ctx->inputs[k].data, i);
}

static inline float f32_at(const wnn_run_ctx *ctx, const signed char *in, int slot, size_t i) {
  return ((const float *)ctx->inputs[in[slot]].data)[i];
}

/* clamp(round_half_even(acc * mult) + zp, lo, hi) into y[i], in float as
 * QuantizeLinear computes; NaN gives lo. */
static inline void requant(wnn_dtype dt, void *y, size_t i, int64_t acc, float mult, int32_t zp,
                           int32_t lo, int32_t hi) {
  float v = nearbyintf((float)acc * mult) + (float)zp;
  v = v > (float)lo ? v : (float)lo; /* NaN too */
  v = v < (float)hi ? v : (float)hi;
  if (dt == WNN_DTYPE_I8) ((int8_t *)y)[i] = (int8_t)v;
  else ((uint8_t *)y)[i] = (uint8_t)v;
}

static int32_t q8_lowest(wnn_dtype dt) { return dt == WNN_DTYPE_I8 ? -128 : 0; }
static int32_t q8_highest(wnn_dtype dt) { return dt == WNN_DTYPE_I8 ? 127 : 255; }

/* The output dtype of a QLinear op: y_zero_point's. */
static wnn_status qlinear_out(wnn_prepare_ctx *ctx, const char *op, const signed char *in,
                              wnn_dtype *y) {
  const int i = in[WNN_Q_YZP];
  if (!wnn_has_input(ctx, i))
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input %d (y_zero_point) is omitted; its dtype is the output's", op, i);
  *y = ctx->inputs[i].dtype;
  wnn_status st;
  if ((st = check_scalar(ctx, op, in, WNN_Q_YZP, "y_zero_point", WNN_DTYPE_INVALID))) return st;
  return check_scalar(ctx, op, in, WNN_Q_YSCALE, "y_scale", WNN_DTYPE_F32);
}

/* ------------------------------------------------ the int8 GEMM paths */

/* The fast paths run the int8 GEMM (kernels/kernels.h, "int8 GEMM";
 * src/ops/qgemm_driver.c) when the weights are int8 with zero point 0 (the
 * quantizers' symmetric weights): the activations are packed as int16 minus
 * their zero point, the GEMM sums in int32, and an epilogue requantizes or
 * dequantizes with the plain loops' float operations in their order, so the
 * results are the plain loops' bits. Everything else runs the plain loops.
 * A product (x - x_zp) * w is at most 255 * 128 in magnitude; where the
 * plain loop requantizes a 64-bit sum, the path is taken only when K such
 * products and the bias cannot leave int32 (elsewhere int32 wraps in both). */
enum { QGEMM_MAX_PRODUCT = 255 * 128, QCONV_TILE_BYTES = 256 * 1024 };

/* Whether zero point input in[slot] is omitted or a constant of zeros. */
static bool zero_point_is_zero(const wnn_prepare_ctx *ctx, const signed char *in, int slot) {
  const int i = in[slot];
  if (i < 0 || i >= ctx->num_inputs || !wnn_has_input(ctx, i)) return true;
  const wnn_tdesc *t = &ctx->inputs[i];
  if (!t->data) return false;
  const int64_t n = wnn_shape_numel(t->ndim, t->dims);
  for (int64_t e = 0; e < n; e++)
    if (((const uint8_t *)t->data)[e] != 0) return false; /* uint8 or int8: 0 is a zero byte */
  return true;
}

/* Appends a piece of `bytes` (rounded up to 16) to the scratch; false when
 * the total passes what this target can address comfortably. */
static bool scratch_piece(uint64_t *total, uint64_t bytes, size_t *offset) {
  if (bytes > (uint64_t)INT32_MAX || *total > (uint64_t)INT32_MAX) return false;
  *offset = (size_t)*total;
  *total += (bytes + 15) / 16 * 16;
  return *total <= (uint64_t)INT32_MAX && *total <= (uint64_t)SIZE_MAX / 2;
}

/* -------------------------------------------------- MatMul, quantized */

typedef enum { QMM_INTEGER, QMM_QLINEAR, QMM_DYNAMIC } qmm_kind;

/* b_packed: B of the logical shape [k, n] given as [ceil(k/2), n, 2]. */
static wnn_status packed_b_prepare(wnn_prepare_ctx *ctx, const char *op, int bi, size_t k,
                                   int64_t *b_dims) {
  const wnn_tdesc *b = &ctx->inputs[bi];
  char sb[64];
  if (b->ndim != 3 || b->dims[2] != 2 || b->dims[0] != (int64_t)((k + 1) / 2))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: b_packed = 1 needs input %d (B) of shape [%zu, N, 2] for K = %zu, got %s",
                       op, bi, (k + 1) / 2, k, wnn_format_dims(sb, sizeof sb, b->ndim, b->dims));
  if (!b->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: b_packed = 1 needs input %d (B) to be a constant", op, bi);
  b_dims[0] = (int64_t)k, b_dims[1] = b->dims[1];
  return WNN_OK;
}

/* The int8 GEMM path of the matmuls: int8 B with zero point 0 (packed by the
 * importer, or packed here per batch), A packed as int16 rows. */
static void qmatmul_fast_prepare(wnn_prepare_ctx *ctx, wnn_qmatmul_params *p, qmm_kind kind) {
  p->fast = false;
  if (p->b_dtype != WNN_DTYPE_I8 || !zero_point_is_zero(ctx, p->in, WNN_Q_BZP)) return;
  if (!p->m || !p->n || !p->k) return;
  /* QLinearMatMul requantizes the 64-bit sum: it must fit int32 */
  if (kind == QMM_QLINEAR && (uint64_t)p->k * QGEMM_MAX_PRODUCT > (uint64_t)INT32_MAX) return;
  /* When B is broadcast over every batch (a 2-D B, the usual weights), A's
   * batches are consecutive rows of one [batches * m, k] matrix and the
   * output one [batches * m, n]: a single GEMM, which matters when m is small
   * (a [seq, 1, d] activation is seq GEMMs of one row otherwise). */
  uint64_t batches = 1;
  bool broadcast_b = true;
  for (int d = 0; d < p->batch_ndim; d++)
    batches *= p->batch_dims[d], broadcast_b = broadcast_b && p->b_bs[d] == 0;
  for (int fold = broadcast_b && batches > 1; fold >= 0; fold--) {
    const uint64_t m = p->m * (fold ? batches : 1), n = p->n, kp = (p->k + 1) / 2;
    uint64_t total = 0;
    if (!scratch_piece(&total, m * kp * 4, &p->s_a)) continue;
    if (!p->b_packed && !scratch_piece(&total, kp * 2 * n, &p->s_b)) continue;
    if (kind != QMM_INTEGER &&
        (!scratch_piece(&total, m * n * 4, &p->s_acc) || !scratch_piece(&total, n * 4, &p->s_mult)))
      continue;
    /* An artifact planned by an older writer keeps the path it planned for. */
    if (!wnn_scratch_fits(ctx, total)) continue;
    p->gemm = wnn_select_qs8_gemm(ctx->kernels);
    p->fast = true;
    p->fold = fold;
    ctx->scratch_bytes = (size_t)total;
    return;
  }
}

/* The GEMM of m rows of packed A by B, whole or in the artifact's column
 * blocks (each block contiguous: the kernel reads it at a row stride of its
 * own width), into c (m x n). */
static void qmatmul_gemm(const wnn_qmatmul_params *p, size_t m, const int16_t *apk,
                         const int8_t *bpk, int32_t *c) {
  const size_t n = p->n, k = p->k, kp = (k + 1) / 2;
  if (!p->b_block || p->b_block >= n) {
    wnn_qs8_gemm_pb(&p->gemm, m, n, k, apk, 2 * kp, bpk, 2 * n, NULL, c, n);
    return;
  }
  for (size_t j0 = 0; j0 < n; j0 += p->b_block) {
    const size_t nc = n - j0 < p->b_block ? n - j0 : p->b_block;
    wnn_qs8_gemm_pb(&p->gemm, m, nc, k, apk, 2 * kp, bpk + j0 * 2 * kp, 2 * nc, NULL, c + j0, n);
  }
}

static wnn_status qmatmul_fast_run(const wnn_run_ctx *ctx) {
  const wnn_qmatmul_params *p = ctx->params;
  const wnn_qs8_gemm_config *g = &p->gemm;
  size_t count = 1;
  for (int d = 0; d < p->batch_ndim; d++) count *= p->batch_dims[d];
  const size_t m = p->fold ? p->m * count : p->m, n = p->n, k = p->k, kp = (k + 1) / 2;
  if (p->fold) count = 1;
  const wnn_tensor *at = &ctx->inputs[p->in[WNN_Q_A]];
  const void *a = at->data, *b = ctx->inputs[p->in[WNN_Q_B]].data;
  void *y = ctx->outputs[0].data;
  char *scratch = ctx->scratch;
  int16_t *apk = (int16_t *)(scratch + p->s_a);
  int8_t *bpk = p->b_packed ? (int8_t *)b : (int8_t *)(scratch + p->s_b);
  int32_t *acc = (int32_t *)(scratch + p->s_acc);
  float *mult = (float *)(scratch + p->s_mult);
  float a_scale = 0.0f, a_zp = 0.0f;
  wnn_q8_pack_params pp = {0, p->a_dtype == WNN_DTYPE_I8};
  wnn_qs32_requant_params rq = {0};
  const float *bias = NULL;
  if (p->dynamic) { /* DynamicQuantizeLinear of all of A; Mul by a_scale * b_scale */
    wnn_dynamic_quant_params(p->qrange, a, (size_t)wnn_shape_numel(at->ndim, at->dims), &a_scale,
                             &a_zp);
    for (size_t j = 0; j < n; j++)
      mult[j] = a_scale * f32_at(ctx, p->in, WNN_Q_BSCALE, p->bscale_per_column ? j : 0);
    const int bi = p->in[WNN_Q_BIAS];
    bias = bi < ctx->num_inputs ? ctx->inputs[bi].data : NULL;
  } else {
    pp.zero_point = zp_at(ctx, p->in, WNN_Q_AZP, 0);
  }
  if (p->qlinear) {
    const float as = f32_at(ctx, p->in, WNN_Q_ASCALE, 0), ys = f32_at(ctx, p->in, WNN_Q_YSCALE, 0);
    for (size_t j = 0; j < n; j++)
      mult[j] = as * f32_at(ctx, p->in, WNN_Q_BSCALE, p->bscale_per_column ? j : 0) / ys;
    rq = (wnn_qs32_requant_params){(float)zp_at(ctx, p->in, WNN_Q_YZP, 0),
                                   (float)q8_lowest(p->y_dtype), (float)q8_highest(p->y_dtype),
                                   p->y_dtype == WNN_DTYPE_I8, true};
  }
  size_t idx[WNN_MAX_DIMS] = {0}, ao = 0, bo = 0, packed_bo = 0;
  for (size_t t = 0; t < count; t++) {
    if (p->dynamic) g->f32_packrows(m, k, (const float *)a + ao, k, apk, 2 * kp, a_scale, a_zp);
    else g->packrows(m, k, (const uint8_t *)a + ao, k, apk, 2 * kp, &pp);
    if (!p->b_packed && (t == 0 || bo != packed_bo)) /* a broadcast B is packed once */
      g->s8_packk(k, n, (const int8_t *)b + bo, n, bpk, 2 * n), packed_bo = bo;
    const size_t yo = t * m * n;
    if (!p->qlinear && !p->dynamic) {
      qmatmul_gemm(p, m, apk, bpk, (int32_t *)y + yo);
    } else {
      qmatmul_gemm(p, m, apk, bpk, acc);
      if (p->qlinear) g->requant(m, n, acc, n, mult, (uint8_t *)y + yo, n, &rq);
      else g->dequant(m, n, acc, n, mult, bias, (float *)y + yo, n);
    }
    for (int d = p->batch_ndim - 1; d >= 0; d--) {
      ao += p->a_bs[d], bo += p->b_bs[d];
      if (++idx[d] < p->batch_dims[d]) break;
      ao -= p->a_bs[d] * idx[d], bo -= p->b_bs[d] * idx[d];
      idx[d] = 0;
    }
  }
  return WNN_OK;
}

static wnn_status qmatmul_prepare(wnn_prepare_ctx *ctx, const char *op, qmm_kind kind) {
  wnn_qmatmul_params *p = ctx->params;
  static const signed char IN_INT[WNN_Q_COUNT] = {0, 1, 2, 3, -1, -1, -1, -1, -1};
  static const signed char IN_QL[WNN_Q_COUNT] = {0, 3, 2, 5, 1, 4, 6, 7, -1};
  static const signed char IN_DYN[WNN_Q_COUNT] = {0, 1, -1, 3, -1, 2, -1, -1, 4};
  memcpy(p->in, kind == QMM_INTEGER ? IN_INT : kind == QMM_QLINEAR ? IN_QL : IN_DYN, sizeof p->in);
  p->qlinear = kind == QMM_QLINEAR;
  p->dynamic = kind == QMM_DYNAMIC;
  p->qrange = wnn_select_q8_vcvt(ctx->kernels).qrange;
  const wnn_tdesc *a = &ctx->inputs[p->in[WNN_Q_A]], *b = &ctx->inputs[p->in[WNN_Q_B]];
  wnn_status st;
  char sa[64], sb[64];
  int64_t packed = 0;
  if (kind != QMM_INTEGER && (st = wnn_attr_int(ctx, "b_packed", 0, &packed))) return st;
  if (packed != 0 && packed != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: b_packed = %lld, expected 0 or 1", op,
                       (long long)packed);
  p->b_packed = packed == 1;
  int64_t block = 0;
  if (kind != QMM_INTEGER && (st = wnn_attr_int(ctx, "b_block", 0, &block))) return st;
  if (block < 0 || (block > 0 && !p->b_packed))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: b_block = %lld; it must be >= 0, and set only with b_packed = 1", op,
                       (long long)block);
  p->b_block = (size_t)block;
  for (int s = WNN_Q_A; s <= WNN_Q_B; s++) {
    const wnn_tdesc *t = &ctx->inputs[p->in[s]];
    const char *name = kind == QMM_QLINEAR ? (s ? "b" : "a") : QNAMES[s];
    if (s == WNN_Q_A && kind == QMM_DYNAMIC) {
      if ((st = wnn_expect_dtype(ctx, op, p->in[s], "A", WNN_DTYPE_F32))) return st;
    } else if (!is_q8(t->dtype)) {
      return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected uint8 or int8", op,
                         p->in[s], name, wnn_dtype_name(t->dtype));
    }
    if (t->ndim < 2)
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: input %d has %d dims; 1-D operands are not supported", op, p->in[s],
                         t->ndim);
  }
  p->a_dtype = a->dtype, p->b_dtype = b->dtype;
  p->m = (size_t)a->dims[a->ndim - 2], p->k = (size_t)a->dims[a->ndim - 1];
  /* B's logical shape: its own, or [k, n] for a packed B. */
  int b_ndim = b->ndim;
  int64_t b_dims[WNN_MAX_DIMS];
  memcpy(b_dims, b->dims, sizeof b_dims);
  if (p->b_packed) {
    if ((st = packed_b_prepare(ctx, op, p->in[WNN_Q_B], p->k, b_dims))) return st;
    b_ndim = 2;
  } else if (kind == QMM_DYNAMIC && b->ndim != 2) {
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: input 1 (B) has shape %s; only 2-D B is supported",
                       op, wnn_format_dims(sb, sizeof sb, b->ndim, b->dims));
  }
  p->n = (size_t)b_dims[b_ndim - 1];
  if (b_dims[b_ndim - 2] != (int64_t)p->k)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: shapes %s and %s do not multiply (K %zu vs %lld)",
                       op, wnn_format_dims(sa, sizeof sa, a->ndim, a->dims),
                       wnn_format_dims(sb, sizeof sb, b_ndim, b_dims), p->k,
                       (long long)b_dims[b_ndim - 2]);
  /* Zero points and scales: A's per tensor, B's per tensor or per column
   * (for a 2-D B: ONNX's per-column quantization). */
  const int64_t per_col = b_ndim == 2 ? (int64_t)p->n : 0;
  if (kind != QMM_DYNAMIC &&
      (st = check_scalar(ctx, op, p->in, WNN_Q_AZP, "a_zero_point", a->dtype)))
    return st;
  if ((st = check_scalar_per(ctx, op, p->in, WNN_Q_BZP, "b_zero_point", b->dtype, per_col,
                             "per column", &p->bzp_per_column)))
    return st;
  p->y_dtype = WNN_DTYPE_I32;
  if (kind == QMM_QLINEAR) {
    if ((st = check_scalar(ctx, op, p->in, WNN_Q_ASCALE, "a_scale", WNN_DTYPE_F32))) return st;
    if ((st = qlinear_out(ctx, op, p->in, &p->y_dtype))) return st;
  }
  if (kind != QMM_INTEGER &&
      (st = check_scalar_per(ctx, op, p->in, WNN_Q_BSCALE, "b_scale", WNN_DTYPE_F32, per_col,
                             "per column", &p->bscale_per_column)))
    return st;
  if (kind == QMM_DYNAMIC) {
    p->y_dtype = WNN_DTYPE_F32;
    const int bi = p->in[WNN_Q_BIAS];
    if (wnn_has_input(ctx, bi)) {
      const wnn_tdesc *bt = &ctx->inputs[bi];
      if ((st = wnn_expect_dtype(ctx, op, bi, "bias", WNN_DTYPE_F32))) return st;
      if (bt->ndim != 1 || bt->dims[0] != (int64_t)p->n)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (bias) must have shape [%zu], got %s",
                           op, bi, p->n, wnn_format_dims(sb, sizeof sb, bt->ndim, bt->dims));
    }
  }
  /* Broadcast the batch dims, right-aligned. */
  const int an = a->ndim - 2, bn = b_ndim - 2, nd = an > bn ? an : bn;
  int64_t out[WNN_MAX_DIMS];
  size_t as = p->m * p->k, bs = p->k * p->n;
  p->batch_ndim = nd;
  for (int d = nd - 1; d >= 0; d--) {
    const int ia = d - (nd - an), ib = d - (nd - bn);
    const int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b_dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: batch dims of %s and %s do not broadcast", op,
                         wnn_format_dims(sa, sizeof sa, a->ndim, a->dims),
                         wnn_format_dims(sb, sizeof sb, b_ndim, b_dims));
    out[d] = da > db ? da : db;
    p->batch_dims[d] = (size_t)out[d];
    p->a_bs[d] = da == 1 ? 0 : as;
    p->b_bs[d] = db == 1 ? 0 : bs;
    as *= (size_t)da, bs *= (size_t)db;
  }
  out[nd] = (int64_t)p->m, out[nd + 1] = (int64_t)p->n;
  if ((st = wnn_set_output(ctx, op, 0, p->y_dtype, nd + 2, out))) return st;
  qmatmul_fast_prepare(ctx, p, kind);
  return WNN_OK;
}

/* B's element (k, j) of the batch at offset bo. */
static inline int32_t qmm_b_at(const wnn_qmatmul_params *p, const void *b, size_t bo, size_t k,
                               size_t j) {
  return q8_at(p->b_dtype, b,
               p->b_packed ? wnn_qpacked_index(p->n, p->k, p->b_block, k, j)
                           : bo + k * p->n + j);
}

static wnn_status qmatmul_run(const wnn_run_ctx *ctx) {
  const wnn_qmatmul_params *p = ctx->params;
  if (p->fast) return qmatmul_fast_run(ctx);
  const void *a = ctx->inputs[p->in[WNN_Q_A]].data, *b = ctx->inputs[p->in[WNN_Q_B]].data;
  void *y = ctx->outputs[0].data;
  int32_t azp = 0, yzp = 0;
  float a_scale = 0.0f, y_scale = 1.0f;
  if (p->dynamic) { /* DynamicQuantizeLinear of all of A */
    const wnn_tensor *at = &ctx->inputs[p->in[WNN_Q_A]];
    float zp;
    wnn_dynamic_quant_params(p->qrange, a, (size_t)wnn_shape_numel(at->ndim, at->dims), &a_scale,
                             &zp);
    azp = (int32_t)zp;
  } else {
    azp = zp_at(ctx, p->in, WNN_Q_AZP, 0);
  }
  if (p->qlinear) {
    a_scale = f32_at(ctx, p->in, WNN_Q_ASCALE, 0), y_scale = f32_at(ctx, p->in, WNN_Q_YSCALE, 0);
    yzp = zp_at(ctx, p->in, WNN_Q_YZP, 0);
  }
  const int bias_i = p->in[WNN_Q_BIAS];
  const float *bias = p->dynamic && bias_i < ctx->num_inputs ? ctx->inputs[bias_i].data : NULL;
  size_t count = 1;
  for (int d = 0; d < p->batch_ndim; d++) count *= p->batch_dims[d];
  size_t idx[WNN_MAX_DIMS] = {0}, ao = 0, bo = 0;
  for (size_t t = 0; t < count; t++) {
    for (size_t i = 0; i < p->m; i++)
      for (size_t j = 0; j < p->n; j++) {
        const int32_t bzp = zp_at(ctx, p->in, WNN_Q_BZP, p->bzp_per_column ? j : 0);
        int64_t acc = 0;
        for (size_t k = 0; k < p->k; k++) {
          const size_t ai = ao + i * p->k + k;
          const int32_t av =
              p->dynamic
                  ? (int32_t)wnn_dynamic_quant_value(((const float *)a)[ai], a_scale, (float)azp)
                  : q8_at(p->a_dtype, a, ai);
          acc += (int64_t)(av - azp) * (qmm_b_at(p, b, bo, k, j) - bzp);
        }
        const size_t yi = (t * p->m + i) * p->n + j;
        const float b_scale =
            p->qlinear || p->dynamic
                ? f32_at(ctx, p->in, WNN_Q_BSCALE, p->bscale_per_column ? j : 0) : 0.0f;
        if (p->qlinear) {
          requant(p->y_dtype, y, yi, acc, a_scale * b_scale / y_scale, yzp,
                  q8_lowest(p->y_dtype), q8_highest(p->y_dtype));
        } else if (p->dynamic) { /* Cast, Mul by (a_scale * b_scale), Add bias */
          const float v = (float)(int32_t)(uint32_t)(uint64_t)acc * (a_scale * b_scale);
          ((float *)y)[yi] = bias ? v + bias[j] : v;
        } else {
          ((int32_t *)y)[yi] = (int32_t)(uint32_t)(uint64_t)acc; /* int32 wraps */
        }
      }
    for (int d = p->batch_ndim - 1; d >= 0; d--) {
      ao += p->a_bs[d], bo += p->b_bs[d];
      if (++idx[d] < p->batch_dims[d]) break;
      ao -= p->a_bs[d] * idx[d], bo -= p->b_bs[d] * idx[d];
      idx[d] = 0;
    }
  }
  return WNN_OK;
}

wnn_status wnn_matmulinteger_prepare(wnn_prepare_ctx *ctx) {
  return qmatmul_prepare(ctx, "MatMulInteger", QMM_INTEGER);
}
wnn_status wnn_qlinearmatmul_prepare(wnn_prepare_ctx *ctx) {
  return qmatmul_prepare(ctx, "QLinearMatMul", QMM_QLINEAR);
}
wnn_status wnn_dynamicquantizematmul_prepare(wnn_prepare_ctx *ctx) {
  return qmatmul_prepare(ctx, "DynamicQuantizeMatMul", QMM_DYNAMIC);
}
wnn_status wnn_matmulinteger_run(const wnn_run_ctx *ctx) { return qmatmul_run(ctx); }
wnn_status wnn_qlinearmatmul_run(const wnn_run_ctx *ctx) { return qmatmul_run(ctx); }
wnn_status wnn_dynamicquantizematmul_run(const wnn_run_ctx *ctx) { return qmatmul_run(ctx); }

/* ---------------------------------------------------- Conv, quantized */

/* Q(v) = saturate(round_half_even(v / scale) + zp), QuantizeLinear's arithmetic. */
static int32_t quantize_bound(float v, float scale, int32_t zp, wnn_dtype dt) {
  float q = nearbyintf(v / scale) + (float)zp;
  const float lo = (float)q8_lowest(dt), hi = (float)q8_highest(dt);
  q = q > lo ? q : lo; /* NaN too */
  q = q < hi ? q : hi;
  return (int32_t)q;
}

/* QLinearConv's fused activation: the output clamp [y_lo, y_hi]. */
static wnn_status qconv_activation(wnn_prepare_ctx *ctx, const char *op, wnn_qconv_params *p) {
  p->y_lo = q8_lowest(p->y_dtype), p->y_hi = q8_highest(p->y_dtype);
  wnn_fused_activation act;
  wnn_status st;
  if ((st = wnn_fused_activation_prepare(ctx, op, &act))) return st;
  if (act.kind == WNN_ACT_NONE) return WNN_OK;
  if (act.kind != WNN_ACT_RELU && act.kind != WNN_ACT_CLIP)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: activation must be Relu or Clip (a clamp of the quantized output)", op);
  const wnn_tdesc *ys = &ctx->inputs[p->in[WNN_Q_YSCALE]], *yz = &ctx->inputs[p->in[WNN_Q_YZP]];
  if (!ys->data || !yz->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: an activation needs constant y_scale and y_zero_point", op);
  const float scale = *(const float *)ys->data;
  const int32_t zp = q8_at(yz->dtype, yz->data, 0);
  const float lo = act.kind == WNN_ACT_RELU ? 0.0f : act.p0;
  const float hi = act.kind == WNN_ACT_RELU ? FLT_MAX : act.p1;
  if (!(scale > 0.0f) || isnan(lo) || isnan(hi) || lo > hi)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: activation %s needs y_scale > 0 and min <= max (y_scale %g, min %g, "
                       "max %g)",
                       op, act.kind == WNN_ACT_RELU ? "Relu" : "Clip", (double)scale, (double)lo,
                       (double)hi);
  p->y_lo = quantize_bound(lo, scale, zp, p->y_dtype);
  p->y_hi = quantize_bound(hi, scale, zp, p->y_dtype);
  return WNN_OK;
}
/* The int8 GEMM path of the convolutions (int8 w with zero point 0, group 1
 * or grouped): per image and group, tiles of output pixels are packed (1x1
 * stride 1 unpadded: the pixels as they are; else an im2col) and multiplied
 * by the group's weights as they are stored; group 1 3x3 stride 1 takes the
 * exact integer Winograd path instead where it applies
 * (src/ops/qconv_winograd.c). */
static void qconv_fast_prepare(wnn_prepare_ctx *ctx, wnn_qconv_params *p) {
  p->method = WNN_QCONV_PLAIN;
  if (p->w_dtype != WNN_DTYPE_I8 || !zero_point_is_zero(ctx, p->in, WNN_Q_BZP)) return;
  const wnn_window2d *w = &p->win;
  const size_t cg = p->in_c / p->group, mg = p->out_c / p->group;
  const uint64_t k = (uint64_t)cg * w->k_h * w->k_w, pixels = (uint64_t)w->out_h * w->out_w;
  if (!k || !mg || !pixels || !p->batch || k > (uint64_t)INT32_MAX) return;
  /* Depthwise (group == C == M), QLinearConv: the int8 depthwise kernel per
   * plane (qconv_depthwise; any bias: the kernel sums in int64 where int32
   * could overflow). */
  if (p->group > 1 && cg == 1 && mg == 1) {
    if (p->qlinear) {
      p->dwconv = wnn_select_qs8_dwconv(ctx->kernels);
      p->method = WNN_QCONV_DEPTHWISE;
    }
    return;
  }
  if (p->qlinear) { /* the requantized sum must fit int32 (see above) */
    uint64_t bias_abs = 0;
    const int bi = p->in[WNN_Q_BIAS];
    if (bi < ctx->num_inputs && wnn_has_input(ctx, bi)) {
      const wnn_tdesc *bt = &ctx->inputs[bi];
      if (!bt->data) return;
      for (int64_t i = 0; i < bt->dims[0]; i++) {
        const int64_t v = ((const int32_t *)bt->data)[i];
        const uint64_t av = (uint64_t)(v < 0 ? -v : v);
        bias_abs = av > bias_abs ? av : bias_abs;
      }
    }
    if (k * QGEMM_MAX_PRODUCT + bias_abs > (uint64_t)INT32_MAX) return;
  }
  if (p->group == 1) { /* 3x3 stride 1: the exact integer Winograd path, where it applies */
    const size_t bytes = wnn_qconv_winograd_prepare(p, ctx->kernels);
    if (bytes) {
      ctx->scratch_bytes = bytes;
      return;
    }
  }
  const bool one = w->k_h == 1 && w->k_w == 1 && w->stride_h == 1 && w->stride_w == 1 &&
                   !w->pad_t && !w->pad_l && !w->pad_b && !w->pad_r;
  /* Tiles of output pixels (a multiple of 8) whose packed input and int32
   * product fit QCONV_TILE_BYTES. */
  const uint64_t kp = (k + 1) / 2, per_pixel = kp * 4 + (p->qlinear ? (uint64_t)mg * 4 : 0);
  uint64_t tile = QCONV_TILE_BYTES / per_pixel / 8 * 8;
  tile = tile < 8 ? 8 : tile;
  tile = tile < pixels ? tile : pixels;
  uint64_t total = 0;
  if (!scratch_piece(&total, kp * 4 * tile, &p->s_pack)) return;
  if (p->qlinear && (!scratch_piece(&total, (uint64_t)mg * 4 * tile, &p->s_acc) ||
                     !scratch_piece(&total, (uint64_t)p->out_c * 4, &p->s_mult)))
    return;
  p->tile = (size_t)tile;
  p->gemm = wnn_select_qs8_gemm(ctx->kernels);
  p->method = one ? WNN_QCONV_GEMM_1X1 : WNN_QCONV_GEMM_IM2COL;
  ctx->scratch_bytes = (size_t)total;
}

static wnn_status qconv_fast_run(const wnn_run_ctx *ctx) {
  const wnn_qconv_params *p = ctx->params;
  const wnn_qs8_gemm_config *g = &p->gemm;
  const wnn_window2d *w = &p->win;
  const uint8_t *x = ctx->inputs[p->in[WNN_Q_A]].data;
  const int8_t *wt = ctx->inputs[p->in[WNN_Q_B]].data;
  const int bi = p->in[WNN_Q_BIAS];
  const int32_t *bias = p->qlinear && bi < ctx->num_inputs ? ctx->inputs[bi].data : NULL;
  void *y = ctx->outputs[0].data;
  const size_t cg = p->in_c / p->group, mg = p->out_c / p->group;
  const size_t k = cg * w->k_h * w->k_w, plane = w->in_h * w->in_w, pixels = w->out_h * w->out_w;
  char *scratch = ctx->scratch;
  int16_t *pk = (int16_t *)(scratch + p->s_pack);
  int32_t *acc = (int32_t *)(scratch + p->s_acc);
  float *mult = (float *)(scratch + p->s_mult);
  const wnn_q8_pack_params pp = {zp_at(ctx, p->in, WNN_Q_AZP, 0), p->x_dtype == WNN_DTYPE_I8};
  wnn_qs32_requant_params rq = {0};
  if (p->qlinear) { /* each channel's multiplier as the plain loop computes it */
    const float xs = f32_at(ctx, p->in, WNN_Q_ASCALE, 0), ys = f32_at(ctx, p->in, WNN_Q_YSCALE, 0);
    for (size_t oc = 0; oc < p->out_c; oc++)
      mult[oc] = xs * f32_at(ctx, p->in, WNN_Q_BSCALE, p->wscale_per_channel ? oc : 0) / ys;
    rq = (wnn_qs32_requant_params){(float)zp_at(ctx, p->in, WNN_Q_YZP, 0), (float)p->y_lo,
                                   (float)p->y_hi, p->y_dtype == WNN_DTYPE_I8, false};
  }
  if (p->method == WNN_QCONV_WINOGRAD) {
    wnn_qconv_winograd_run(p, x, wt, bias, y, scratch, &pp, mult, &rq);
    return WNN_OK;
  }
  for (size_t n = 0; n < p->batch; n++)
    for (size_t grp = 0; grp < p->group; grp++) {
      const uint8_t *xg = x + (n * p->in_c + grp * cg) * plane;
      const int8_t *wg = wt + grp * mg * k;
      const int32_t *init = bias ? bias + grp * mg : NULL;
      for (size_t p0 = 0; p0 < pixels; p0 += p->tile) {
        const size_t np = pixels - p0 < p->tile ? pixels - p0 : p->tile;
        if (p->method == WNN_QCONV_GEMM_1X1) g->packk(cg, np, xg + p0, plane, pk, 2 * np, &pp);
        else g->im2col(cg, xg, p0, np, pk, w, &pp);
        const size_t yo = (n * p->out_c + grp * mg) * pixels + p0;
        if (p->qlinear) {
          wnn_qs8_gemm(g, mg, np, k, wg, k, pk, 2 * np, init, acc, np);
          g->requant(mg, np, acc, np, mult + grp * mg, (uint8_t *)y + yo, pixels, &rq);
        } else {
          wnn_qs8_gemm(g, mg, np, k, wg, k, pk, 2 * np, NULL, (int32_t *)y + yo, pixels);
        }
      }
    }
  return WNN_OK;
}

static wnn_status qconv_prepare(wnn_prepare_ctx *ctx, const char *op, bool qlinear) {
  wnn_qconv_params *p = ctx->params;
  static const signed char IN_INT[WNN_Q_COUNT] = {0, 1, 2, 3, -1, -1, -1, -1, -1};
  static const signed char IN_QL[WNN_Q_COUNT] = {0, 3, 2, 5, 1, 4, 6, 7, 8};
  memcpy(p->in, qlinear ? IN_QL : IN_INT, sizeof p->in);
  p->qlinear = qlinear;
  const wnn_tdesc *x = &ctx->inputs[p->in[WNN_Q_A]], *w = &ctx->inputs[p->in[WNN_Q_B]];
  wnn_status st;
  int64_t group, ks[WNN_MAX_DIMS];
  int count;
  char a[64];
  if (!is_q8(x->dtype) || !is_q8(w->dtype))
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected uint8 or int8", op,
                       is_q8(x->dtype) ? p->in[WNN_Q_B] : 0, is_q8(x->dtype) ? "w" : "x",
                       wnn_dtype_name(is_q8(x->dtype) ? w->dtype : x->dtype));
  if (x->ndim != 3 && x->ndim != 4)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 0 (x) has shape %s; only 1-D and 2-D convolutions (3-D or 4-D "
                       "x) are supported",
                       op, wnn_format_dims(a, sizeof a, x->ndim, x->dims));
  if (w->ndim != x->ndim)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: w has %d dims, expected %d (x's)", op, w->ndim,
                       x->ndim);
  if ((st = wnn_attr_int(ctx, "group", 1, &group))) return st;
  if (group < 1 || x->dims[1] % group != 0 || w->dims[0] % group != 0 ||
      w->dims[1] * group != x->dims[1])
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: group %lld does not fit x's %lld channels and w's shape %s", op,
                       (long long)group, (long long)x->dims[1],
                       wnn_format_dims(a, sizeof a, w->ndim, w->dims));
  p->x_dtype = x->dtype, p->w_dtype = w->dtype;
  const int64_t m = w->dims[0];
  if ((st = check_scalar(ctx, op, p->in, WNN_Q_AZP, "x_zero_point", x->dtype))) return st;
  if ((st = check_scalar_per(ctx, op, p->in, WNN_Q_BZP, "w_zero_point", w->dtype, m,
                             "per output channel", &p->wzp_per_channel)))
    return st;
  p->y_dtype = WNN_DTYPE_I32;
  if (qlinear) {
    if ((st = check_scalar(ctx, op, p->in, WNN_Q_ASCALE, "x_scale", WNN_DTYPE_F32))) return st;
    if ((st = check_scalar_per(ctx, op, p->in, WNN_Q_BSCALE, "w_scale", WNN_DTYPE_F32, m,
                               "per output channel", &p->wscale_per_channel)))
      return st;
    if ((st = qlinear_out(ctx, op, p->in, &p->y_dtype))) return st;
    if ((st = qconv_activation(ctx, op, p))) return st;
    const int bi = p->in[WNN_Q_BIAS];
    if (bi < ctx->num_inputs && wnn_has_input(ctx, bi)) {
      const wnn_tdesc *bt = &ctx->inputs[bi];
      if ((st = wnn_expect_dtype(ctx, op, bi, "B", WNN_DTYPE_I32))) return st;
      if (bt->ndim != 1 || bt->dims[0] != m)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (B) must have shape [%lld]", op, bi,
                           (long long)m);
    }
  }
  wnn_window_spec spec = {.spatial = x->ndim - 2};
  for (int d = 0; d < spec.spatial; d++)
    spec.in[d] = x->dims[2 + d], spec.kernel[d] = w->dims[2 + d];
  if ((st = wnn_attr_ints(ctx, "kernel_shape", ks, WNN_MAX_DIMS, &count))) return st;
  for (int d = 0; count >= 0 && d < spec.spatial; d++)
    if (count != spec.spatial || ks[d] != spec.kernel[d])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: kernel_shape does not match w's shape %s",
                         op, wnn_format_dims(a, sizeof a, w->ndim, w->dims));
  if ((st = wnn_window_prepare(ctx, op, &spec))) return st;
  p->win = wnn_window_to_2d(&spec);
  p->group = (size_t)group;
  p->batch = (size_t)x->dims[0], p->in_c = (size_t)x->dims[1], p->out_c = (size_t)m;
  int64_t out[4] = {x->dims[0], m, spec.out[0], spec.out[1]};
  if ((st = wnn_set_output(ctx, op, 0, p->y_dtype, x->ndim, out))) return st;
  qconv_fast_prepare(ctx, p);
  return WNN_OK;
}

/* Depthwise planes (batch x channel) as units for wnn_parallel_for. */
typedef struct qdw_job {
  const wnn_run_ctx *ctx;
  const wnn_qconv_params *p;
  const wnn_qs8_dwconv_params *kp;
  const uint8_t *x;
  const int8_t *w;
  const int32_t *bias;
  uint8_t *y;
  float xs, ys;
} qdw_job;

static void qdw_planes(void *job, size_t u0, size_t u1) {
  const qdw_job *j = job;
  const wnn_qconv_params *p = j->p;
  const wnn_window2d *g = &p->win;
  const size_t taps = g->k_h * g->k_w, in_plane = g->in_h * g->in_w;
  const size_t out_plane = g->out_h * g->out_w;
  for (size_t plane = u0; plane < u1; plane++) { /* n * out_c + c */
    const size_t c = plane % p->out_c;
    const float mult =
        j->xs * f32_at(j->ctx, p->in, WNN_Q_BSCALE, p->wscale_per_channel ? c : 0) / j->ys;
    p->dwconv(j->x + plane * in_plane, j->w + c * taps, j->bias ? j->bias[c] : 0, mult,
              j->y + plane * out_plane, j->kp);
  }
}

/* QLinearConv, depthwise (group == C == M) with int8 weights whose zero
 * points are constant zeros (the quantizers' symmetric weights): one kernel
 * call per plane (the planes split over intra-op threads), bitwise the plain
 * loop below (the same int64-exact sums, multiplier and requantization). */
static wnn_status qconv_depthwise(const wnn_run_ctx *ctx, const wnn_qconv_params *p) {
  const wnn_window2d *g = &p->win;
  const uint8_t *x = ctx->inputs[p->in[WNN_Q_A]].data; /* uint8 or int8: bytes */
  const int8_t *w = ctx->inputs[p->in[WNN_Q_B]].data;
  const int bi = p->in[WNN_Q_BIAS];
  const int32_t *bias = bi < ctx->num_inputs ? ctx->inputs[bi].data : NULL;
  uint8_t *y = ctx->outputs[0].data;
  const wnn_qs8_dwconv_params kp = {.win = *g,
                                    .x_zero_point = zp_at(ctx, p->in, WNN_Q_AZP, 0),
                                    .x_signed = p->x_dtype == WNN_DTYPE_I8,
                                    .y_signed = p->y_dtype == WNN_DTYPE_I8,
                                    .y_zero_point = (float)zp_at(ctx, p->in, WNN_Q_YZP, 0),
                                    .y_min = (float)p->y_lo,
                                    .y_max = (float)p->y_hi};
  const float xs = f32_at(ctx, p->in, WNN_Q_ASCALE, 0), ys = f32_at(ctx, p->in, WNN_Q_YSCALE, 0);
  const qdw_job job = {ctx, p, &kp, x, w, bias, y, xs, ys};
  const size_t plane_macs = g->out_h * g->out_w * g->k_h * g->k_w + 1;
  wnn_parallel_for(p->batch * p->out_c, WNN_PARALLEL_MIN_MACS / plane_macs + 1, qdw_planes,
                   (void *)&job);
  return WNN_OK;
}

static wnn_status qconv_run(const wnn_run_ctx *ctx) {
  const wnn_qconv_params *p = ctx->params;
  if (p->method == WNN_QCONV_GEMM_1X1 || p->method == WNN_QCONV_GEMM_IM2COL ||
      p->method == WNN_QCONV_WINOGRAD)
    return qconv_fast_run(ctx);
  if (p->method == WNN_QCONV_DEPTHWISE) return qconv_depthwise(ctx, p);
  const wnn_window2d *g = &p->win;
  const void *x = ctx->inputs[p->in[WNN_Q_A]].data, *w = ctx->inputs[p->in[WNN_Q_B]].data;
  const int bi = p->in[WNN_Q_BIAS];
  const int32_t *bias = p->qlinear && bi < ctx->num_inputs ? ctx->inputs[bi].data : NULL;
  void *y = ctx->outputs[0].data;
  const int32_t xzp = zp_at(ctx, p->in, WNN_Q_AZP, 0);
  const size_t cg = p->in_c / p->group, mg = p->out_c / p->group;
  float xs = 0.0f, ys = 1.0f;
  int32_t yzp = 0;
  if (p->qlinear) {
    xs = f32_at(ctx, p->in, WNN_Q_ASCALE, 0), ys = f32_at(ctx, p->in, WNN_Q_YSCALE, 0);
    yzp = zp_at(ctx, p->in, WNN_Q_YZP, 0);
  }
  for (size_t n = 0; n < p->batch; n++)
    for (size_t oc = 0; oc < p->out_c; oc++) {
      const size_t grp = oc / mg;
      const int32_t wzp = zp_at(ctx, p->in, WNN_Q_BZP, p->wzp_per_channel ? oc : 0);
      const float mult =
          p->qlinear ? xs * f32_at(ctx, p->in, WNN_Q_BSCALE, p->wscale_per_channel ? oc : 0) / ys
                     : 0.0f;
      for (size_t oy = 0; oy < g->out_h; oy++)
        for (size_t ox = 0; ox < g->out_w; ox++) {
          int64_t acc = bias ? bias[oc] : 0;
          for (size_t c = 0; c < cg; c++)
            for (size_t ky = 0; ky < g->k_h; ky++) {
              /* padding holds the zero point: it adds nothing */
              const ptrdiff_t iy =
                  (ptrdiff_t)(oy * g->stride_h + ky * g->dil_h) - (ptrdiff_t)g->pad_t;
              if (iy < 0 || iy >= (ptrdiff_t)g->in_h) continue;
              for (size_t kx = 0; kx < g->k_w; kx++) {
                const ptrdiff_t ix =
                    (ptrdiff_t)(ox * g->stride_w + kx * g->dil_w) - (ptrdiff_t)g->pad_l;
                if (ix < 0 || ix >= (ptrdiff_t)g->in_w) continue;
                const size_t xi = ((n * p->in_c + grp * cg + c) * g->in_h + (size_t)iy) * g->in_w +
                                  (size_t)ix;
                const size_t wi = ((oc * cg + c) * g->k_h + ky) * g->k_w + kx;
                acc += (int64_t)(q8_at(p->x_dtype, x, xi) - xzp) * (q8_at(p->w_dtype, w, wi) - wzp);
              }
            }
          const size_t yi = ((n * p->out_c + oc) * g->out_h + oy) * g->out_w + ox;
          if (p->qlinear) requant(p->y_dtype, y, yi, acc, mult, yzp, p->y_lo, p->y_hi);
          else ((int32_t *)y)[yi] = (int32_t)(uint32_t)(uint64_t)acc;
        }
    }
  return WNN_OK;
}

wnn_status wnn_convinteger_prepare(wnn_prepare_ctx *ctx) {
  return qconv_prepare(ctx, "ConvInteger", false);
}
wnn_status wnn_qlinearconv_prepare(wnn_prepare_ctx *ctx) {
  return qconv_prepare(ctx, "QLinearConv", true);
}
wnn_status wnn_convinteger_run(const wnn_run_ctx *ctx) { return qconv_run(ctx); }
wnn_status wnn_qlinearconv_run(const wnn_run_ctx *ctx) { return qconv_run(ctx); }

/* ------------------------------------------------------------ descriptors */

static const char *const qconv_attrs[] = {"auto_pad", "dilations", "group",
                                          "kernel_shape", "pads", "strides", NULL};
static const char *const qlinearconv_attrs[] = {
    "auto_pad", "dilations", "group", "kernel_shape", "pads", "strides",
    "activation", "activation_params", NULL};

WNN_OP_DEFINE(matmulinteger, "MatMulInteger", 0, 2, 4, 1, 1, NULL);
WNN_OP_DEFINE(qlinearmatmul, "QLinearMatMul", 0, 8, 8, 1, 1, WNN_ATTRS("b_packed", "b_block"));
WNN_OP_DEFINE(dynamicquantizematmul, "DynamicQuantizeMatMul", 0, 3, 5, 1, 1,
              WNN_ATTRS("b_packed", "b_block"));
WNN_OP_DEFINE(convinteger, "ConvInteger", 0, 2, 4, 1, 1, qconv_attrs);
WNN_OP_DEFINE(qlinearconv, "QLinearConv", 0, 8, 9, 1, 1, qlinearconv_attrs);
