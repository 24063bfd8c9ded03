/*
 * Quantized element-wise ops the importer writes for QDQ patterns
 * (docs/quantization.md, "What the importer writes"):
 *
 *   QLookup  x uint8/int8, table [256] uint8/int8 -> y (table's dtype, x's
 *            shape): y[i] = table[byte(x[i])], the byte being x's bits
 *            (int8 -1 reads entry 255). Any chain of element-wise float ops
 *            from DequantizeLinear(x) to a QuantizeLinear is such a table.
 *   QLinearAdd, QLinearMul (com.microsoft): A, A_scale, A_zero_point?, B,
 *            B_scale, B_zero_point?, C_scale, C_zero_point? -> C, A and B
 *            uint8/int8 with numpy broadcasting, scales and zero points
 *            scalars; C's dtype is C_zero_point's (A's without it). Defined
 *            as the unfused chain: C = QuantizeLinear(DequantizeLinear(A)
 *            op DequantizeLinear(B)), with the same kernels in the same
 *            order, so the bits are those of the three ops; wnn's attribute
 *            activation "Relu" clamps C below at Q(0) = C_zero_point, which
 *            is Q(relu(v)) exactly (Q is monotone).
 *   QLinearGlobalAveragePool (com.microsoft, channels_last 0): X [N, C,
 *            ...], x_scale, x_zero_point?, y_scale, y_zero_point? -> Y [N, C,
 *            1, ...] (y_zero_point's dtype, X's without it). Defined as the
 *            unfused chain QuantizeLinear(GlobalAveragePool(
 *            DequantizeLinear(X))): each plane dequantized into scratch and
 *            averaged by GlobalAveragePool's kernel, the same bits.
 */
#include <string.h>

#include "ops/quant_ew_internal.h"

/* ---------------------------------------------------------------- QLookup */

wnn_status wnn_qlookup_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "QLookup";
  const wnn_tdesc *x = &ctx->inputs[0], *t = &ctx->inputs[1];
  if (x->dtype != WNN_DTYPE_U8 && x->dtype != WNN_DTYPE_I8)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (x) is %s, expected uint8 or int8", OP,
                       wnn_dtype_name(x->dtype));
  if (t->dtype != WNN_DTYPE_U8 && t->dtype != WNN_DTYPE_I8)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (table) is %s, expected uint8 or int8",
                       OP, wnn_dtype_name(t->dtype));
  if (t->ndim != 1 || t->dims[0] != 256) {
    char a[64];
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (table) has shape %s, expected [256]", OP,
                       wnn_format_dims(a, sizeof a, t->ndim, t->dims));
  }
  return wnn_set_output(ctx, OP, 0, t->dtype, x->ndim, x->dims);
}

wnn_status wnn_qlookup_run(const wnn_run_ctx *ctx) {
  const uint8_t *x = ctx->inputs[0].data, *t = ctx->inputs[1].data;
  uint8_t *y = ctx->outputs[0].data;
  const size_t n = (size_t)wnn_shape_numel(ctx->inputs[0].ndim, ctx->inputs[0].dims);
  size_t i = 0;
  /* Four at a time through 32-bit loads and stores (little-endian). */
  for (; i + 4 <= n; i += 4) {
    uint32_t v;
    memcpy(&v, x + i, 4);
    v = (uint32_t)t[v & 255] | (uint32_t)t[(v >> 8) & 255] << 8 |
        (uint32_t)t[(v >> 16) & 255] << 16 | (uint32_t)t[v >> 24] << 24;
    memcpy(y + i, &v, 4);
  }
  for (; i < n; i++) y[i] = t[x[i]];
  return WNN_OK;
}

/* -------------------------------------------------- QLinearAdd, QLinearMul */

/* Elements per chunk of a run: each operand dequantized into scratch, the
 * float op, then quantized into C. */
enum { QBIN_CHUNK = 256 };

WNN_PARAMS_FIT(wnn_qbinary_params);
WNN_PARAMS_FIT(wnn_qgap_params);

static bool is_q8_dtype(wnn_dtype dt) { return dt == WNN_DTYPE_U8 || dt == WNN_DTYPE_I8; }

/* Checks a QLinear op's inputs against kinds, one letter each: 't' a
 * uint8/int8 tensor, 's' a float32 scalar scale, 'z' an optional uint8/int8
 * scalar zero point (of the tensor's dtype when it follows that tensor's
 * scale). */
static wnn_status check_qinputs(wnn_prepare_ctx *ctx, const char *op, const char *kinds,
                                const char *const *names) {
  for (int i = 0; kinds[i]; i++) {
    const char k = kinds[i];
    if (!wnn_has_input(ctx, i)) {
      if (k == 'z') continue;
      return wnn_op_fail(ctx, WNN_ERR_MALFORMED, "%s: input %d (%s) is required but omitted", op,
                         i, names[i]);
    }
    const wnn_tdesc *t = &ctx->inputs[i];
    if (k == 's' ? t->dtype != WNN_DTYPE_F32 : !is_q8_dtype(t->dtype))
      return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected %s", op, i,
                         names[i], wnn_dtype_name(t->dtype), k == 's' ? "float32" : "uint8 or int8");
    if (k != 't' && wnn_shape_numel(t->ndim, t->dims) != 1) {
      char d[64];
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) has shape %s, expected a scalar",
                         op, i, names[i], wnn_format_dims(d, sizeof d, t->ndim, t->dims));
    }
    if (k == 'z' && i >= 2 && kinds[i - 2] == 't' && t->dtype != ctx->inputs[i - 2].dtype)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected %s (input %d's)",
                         op, i, names[i], wnn_dtype_name(t->dtype),
                         wnn_dtype_name(ctx->inputs[i - 2].dtype), i - 2);
  }
  return WNN_OK;
}

static wnn_status qbinary_prepare(wnn_prepare_ctx *ctx, int binop) {
  const char *op = binop == WNN_BINOP_ADD ? "QLinearAdd" : "QLinearMul";
  static const char *const names[8] = {"A", "A_scale", "A_zero_point", "B",
                                       "B_scale", "B_zero_point", "C_scale", "C_zero_point"};
  wnn_qbinary_params *p = ctx->params;
  const wnn_tdesc *a = &ctx->inputs[0], *b = &ctx->inputs[3];
  wnn_status st;
  if ((st = check_qinputs(ctx, op, "tsztszsz", names))) return st;
  p->a_dtype = a->dtype, p->b_dtype = b->dtype;
  p->c_dtype = wnn_has_input(ctx, 7) ? ctx->inputs[7].dtype : a->dtype;
  const char *act;
  if ((st = wnn_attr_string(ctx, "activation", "", &act))) return st;
  p->relu = !strcmp(act, "Relu");
  if (act[0] && !p->relu)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: activation '%s' is not supported, only Relu",
                       op, act);
  int64_t out[WNN_MAX_DIMS];
  int nd = 0;
  if ((st = wnn_bcast_prepare(ctx, op, a, b, out, &nd, &p->plan))) return st;
  p->vv = wnn_select_vbinary(ctx->kernels, WNN_DTYPE_F32, binop, WNN_KIND_VV).f32;
  p->vc = wnn_select_vbinary(ctx->kernels, WNN_DTYPE_F32, binop, WNN_KIND_VC).f32;
  p->rvc = wnn_select_vbinary(ctx->kernels, WNN_DTYPE_F32, binop, WNN_KIND_RVC).f32;
  p->k = wnn_select_q8_vcvt(ctx->kernels);
  ctx->scratch_bytes = 2 * QBIN_CHUNK * sizeof(float);
  return wnn_set_output(ctx, op, 0, p->c_dtype, nd, out);
}

wnn_status wnn_qlinearadd_prepare(wnn_prepare_ctx *ctx) {
  return qbinary_prepare(ctx, WNN_BINOP_ADD);
}
wnn_status wnn_qlinearmul_prepare(wnn_prepare_ctx *ctx) {
  return qbinary_prepare(ctx, WNN_BINOP_MUL);
}

/* A scalar zero point of a q8 dtype (0 when omitted). */
static int32_t zp_at(const wnn_run_ctx *ctx, int i, wnn_dtype dt) {
  if (i >= ctx->num_inputs || !ctx->inputs[i].data) return 0;
  return dt == WNN_DTYPE_I8 ? *(const int8_t *)ctx->inputs[i].data
                            : *(const uint8_t *)ctx->inputs[i].data;
}

/* DequantizeLinear's kernel on n elements. */
static void dequantize(const wnn_q8_vcvt_config *k, wnn_dtype dt, size_t n, const void *x,
                       float *y, const wnn_q8_f32_cvt_params *kp) {
  if (dt == WNN_DTYPE_I8) k->qs8_f32(n, x, y, kp);
  else k->qu8_f32(n, x, y, kp);
}

/* The broadcast walked as binary.c walks it (the same kernel for each run:
 * VV, VC with B fixed, RVC with A fixed), each run in chunks. */
wnn_status wnn_qlinearadd_run(const wnn_run_ctx *ctx) {
  const wnn_qbinary_params *p = ctx->params;
  const wnn_bcast_plan *pl = &p->plan;
  const uint8_t *a = ctx->inputs[0].data, *b = ctx->inputs[3].data;
  uint8_t *c = ctx->outputs[0].data;
  const wnn_q8_f32_cvt_params ka = {zp_at(ctx, 2, p->a_dtype), *(const float *)ctx->inputs[1].data};
  const wnn_q8_f32_cvt_params kb = {zp_at(ctx, 5, p->b_dtype), *(const float *)ctx->inputs[4].data};
  const int32_t czp = zp_at(ctx, 7, p->c_dtype);
  const wnn_f32_q8_cvt_params kc = {*(const float *)ctx->inputs[6].data, (float)czp};
  float *fa = ctx->scratch, *fb = fa + QBIN_CHUNK;
  const int outer_nd = pl->ndim - 1;
  const size_t n = pl->dims[outer_nd];
  const size_t sa = pl->a_strides[outer_nd], sb = pl->b_strides[outer_nd];
  size_t count = 1;
  for (int i = 0; i < outer_nd; i++) count *= pl->dims[i];
  size_t idx[WNN_MAX_DIMS] = {0};
  size_t a_off = 0, b_off = 0;
  for (size_t t = 0; t < count && n; t++) {
    if (!sa) dequantize(&p->k, p->a_dtype, 1, a + a_off, fa, &ka);
    if (!sb) dequantize(&p->k, p->b_dtype, 1, b + b_off, fb, &kb);
    for (size_t i = 0; i < n; i += QBIN_CHUNK) {
      const size_t len = n - i < QBIN_CHUNK ? n - i : QBIN_CHUNK;
      float *r;
      if (sa) dequantize(&p->k, p->a_dtype, len, a + a_off + i, fa, &ka);
      if (sb) dequantize(&p->k, p->b_dtype, len, b + b_off + i, fb, &kb);
      if (sa && sb) p->vv(len, fa, fb, r = fa);
      else if (sa) p->vc(len, fa, fb, r = fa);
      else p->rvc(len, fb, fa, r = fb);
      uint8_t *y = c + t * n + i;
      if (p->c_dtype == WNN_DTYPE_I8) {
        p->k.f32_qs8(len, r, (int8_t *)y, &kc);
        if (p->relu)
          for (size_t j = 0; j < len; j++) y[j] = (uint8_t)((int8_t)y[j] < czp ? czp : (int8_t)y[j]);
      } else {
        p->k.f32_qu8(len, r, y, &kc);
        if (p->relu)
          for (size_t j = 0; j < len; j++) y[j] = (uint8_t)(y[j] < czp ? czp : y[j]);
      }
    }
    for (int i = outer_nd - 1; i >= 0; i--) { /* odometer, innermost fastest */
      a_off += pl->a_strides[i], b_off += pl->b_strides[i];
      if (++idx[i] < pl->dims[i]) break;
      a_off -= pl->a_strides[i] * idx[i], b_off -= pl->b_strides[i] * idx[i];
      idx[i] = 0;
    }
  }
  return WNN_OK;
}
wnn_status wnn_qlinearmul_run(const wnn_run_ctx *ctx) { return wnn_qlinearadd_run(ctx); }

/* ------------------------------------------------ QLinearGlobalAveragePool */

wnn_status wnn_qlinearglobalaveragepool_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "QLinearGlobalAveragePool";
  static const char *const names[5] = {"X", "x_scale", "x_zero_point", "y_scale", "y_zero_point"};
  wnn_qgap_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = check_qinputs(ctx, OP, "tszsz", names))) return st;
  int64_t cl;
  if ((st = wnn_attr_int(ctx, "channels_last", 0, &cl))) return st;
  if (cl != 0)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: channels_last = %lld is not supported, only 0 (NCHW)", OP, (long long)cl);
  int64_t out[WNN_MAX_DIMS], plane;
  if ((st = wnn_global_pool_shape(ctx, OP, out, &plane))) return st;
  p->x_dtype = x->dtype;
  p->y_dtype = wnn_has_input(ctx, 4) ? ctx->inputs[4].dtype : x->dtype;
  p->planes = (size_t)(x->dims[0] * x->dims[1]);
  p->plane = (size_t)plane;
  p->gavg = wnn_select_f32_gavgpool(ctx->kernels);
  p->k = wnn_select_q8_vcvt(ctx->kernels);
  ctx->scratch_bytes = (p->plane + p->planes) * sizeof(float);
  return wnn_set_output(ctx, OP, 0, p->y_dtype, x->ndim, out);
}

wnn_status wnn_qlinearglobalaveragepool_run(const wnn_run_ctx *ctx) {
  const wnn_qgap_params *p = ctx->params;
  const uint8_t *x = ctx->inputs[0].data;
  float *row = ctx->scratch, *mean = row + p->plane;
  const wnn_q8_f32_cvt_params kx = {zp_at(ctx, 2, p->x_dtype), *(const float *)ctx->inputs[1].data};
  for (size_t r = 0; r < p->planes; r++) {
    dequantize(&p->k, p->x_dtype, p->plane, x + r * p->plane, row, &kx);
    p->gavg(1, p->plane, row, mean + r);
  }
  const wnn_f32_q8_cvt_params ky = {*(const float *)ctx->inputs[3].data,
                                    (float)zp_at(ctx, 4, p->y_dtype)};
  if (p->y_dtype == WNN_DTYPE_I8) p->k.f32_qs8(p->planes, mean, ctx->outputs[0].data, &ky);
  else p->k.f32_qu8(p->planes, mean, ctx->outputs[0].data, &ky);
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(qlookup, "QLookup", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(qlinearadd, "QLinearAdd", 0, 7, 8, 1, 1, WNN_ATTRS("activation"));
WNN_OP_DEFINE(qlinearmul, "QLinearMul", 0, 7, 8, 1, 1, WNN_ATTRS("activation"));
WNN_OP_DEFINE(qlinearglobalaveragepool, "QLinearGlobalAveragePool", 0, 4, 5, 1, 1,
              WNN_ATTRS("channels_last"));
