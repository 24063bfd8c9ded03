/*
 * Integer and quantized linear algebra (opset 10; QLinearMatMul's opset 21
 * adds only float8 types), uint8 and int8 operands, int32 accumulation:
 *   MatMulInteger   A, B, a_zero_point?, b_zero_point? -> int32
 *   QLinearMatMul   a, a_scale, a_zero_point, b, b_scale, b_zero_point,
 *                   y_scale, y_zero_point -> y_zero_point's dtype
 *   ConvInteger     x, w, x_zero_point?, w_zero_point? -> int32; Conv's
 *                   attributes (1-D and 2-D)
 *   QLinearConv     x, x_scale, x_zero_point, w, w_scale, w_zero_point,
 *                   y_scale, y_zero_point, B? (int32) -> y_zero_point's dtype
 * Zero points and scales are scalars (one element), except w's in the convs,
 * which may be per output channel; they are read at run time. Requantizing:
 * y = saturate(round_half_even(acc * (s_a * s_b / s_y)) + zero_point_y), the
 * multiplier in float32 as ONNX's reference computes it. Plain loops, no
 * kernel family: quantized graphs are not wnn's target (float32 is), these
 * make the ONNX ops run correctly.
 */
#include <math.h>
#include <string.h>

#include "ops/quant_internal.h"

WNN_PARAMS_FIT(wnn_quant_params);

WNN_PARAMS_FIT(wnn_qmatmul_params);
WNN_PARAMS_FIT(wnn_qconv_params);

static bool is_q8(wnn_dtype dt) { return dt == WNN_DTYPE_U8 || dt == WNN_DTYPE_I8; }

static const char *const QNAMES[WNN_Q_COUNT] = {"A", "B", "a_zero_point", "b_zero_point",
                                                 "a_scale", "b_scale", "y_scale", "y_zero_point",
                                                 "B (bias)"};

/* Input in[slot], when present: of dtype `want` (INVALID: uint8 or int8), with
 * one element, or `per` elements when per > 0 (then *per_out says which). */
static wnn_status check_scalar(wnn_prepare_ctx *ctx, const char *op, const signed char *in,
                               int slot, const char *name, wnn_dtype want, int64_t per,
                               bool *per_out) {
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
                       "%s: input %d (%s) has shape %s; only a scalar or [%lld] (per output "
                       "channel) is supported",
                       op, i, name, wnn_format_dims(a, sizeof a, t->ndim, t->dims), (long long)per);
  return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                     "%s: input %d (%s) has shape %s; only a scalar (per tensor) is supported", op,
                     i, name, wnn_format_dims(a, sizeof a, t->ndim, t->dims));
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

/* saturate(round_half_even(acc * mult) + zp) into y[i]. */
static inline void requant(wnn_dtype dt, void *y, size_t i, int64_t acc, float mult, int32_t zp) {
  const float lo = dt == WNN_DTYPE_I8 ? -128.0f : 0.0f, hi = dt == WNN_DTYPE_I8 ? 127.0f : 255.0f;
  float v = nearbyintf((float)acc * mult) + (float)zp;
  v = v > lo ? v : lo; /* NaN too */
  v = v < hi ? v : hi;
  if (dt == WNN_DTYPE_I8) ((int8_t *)y)[i] = (int8_t)v;
  else ((uint8_t *)y)[i] = (uint8_t)v;
}

/* The output dtype of a QLinear op: y_zero_point's. */
static wnn_status qlinear_out(wnn_prepare_ctx *ctx, const char *op, const signed char *in,
                              wnn_dtype *y) {
  const int i = in[WNN_Q_YZP];
  if (!wnn_has_input(ctx, i))
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input %d (y_zero_point) is omitted; its dtype is the output's", op, i);
  *y = ctx->inputs[i].dtype;
  wnn_status st;
  if ((st = check_scalar(ctx, op, in, WNN_Q_YZP, "y_zero_point", WNN_DTYPE_INVALID, 0, NULL)))
    return st;
  return check_scalar(ctx, op, in, WNN_Q_YSCALE, "y_scale", WNN_DTYPE_F32, 0, NULL);
}

/* -------------------------------------------------- MatMul, quantized */

static wnn_status qmatmul_prepare(wnn_prepare_ctx *ctx, const char *op, bool qlinear) {
  wnn_qmatmul_params *p = ctx->params;
  static const signed char IN_INT[WNN_Q_COUNT] = {0, 1, 2, 3, -1, -1, -1, -1, -1};
  static const signed char IN_QL[WNN_Q_COUNT] = {0, 3, 2, 5, 1, 4, 6, 7, -1};
  memcpy(p->in, qlinear ? IN_QL : IN_INT, sizeof p->in);
  p->qlinear = qlinear;
  const wnn_tdesc *a = &ctx->inputs[p->in[WNN_Q_A]], *b = &ctx->inputs[p->in[WNN_Q_B]];
  wnn_status st;
  char sa[64], sb[64];
  for (int s = WNN_Q_A; s <= WNN_Q_B; s++) {
    const wnn_tdesc *t = &ctx->inputs[p->in[s]];
    if (!is_q8(t->dtype))
      return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected uint8 or int8", op,
                         p->in[s], qlinear ? (s ? "b" : "a") : QNAMES[s], wnn_dtype_name(t->dtype));
    if (t->ndim < 2)
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: input %d has %d dims; 1-D operands are not supported", op, p->in[s],
                         t->ndim);
  }
  p->a_dtype = a->dtype, p->b_dtype = b->dtype;
  if ((st = check_scalar(ctx, op, p->in, WNN_Q_AZP, "a_zero_point", a->dtype, 0, NULL))) return st;
  if ((st = check_scalar(ctx, op, p->in, WNN_Q_BZP, "b_zero_point", b->dtype, 0, NULL))) return st;
  p->y_dtype = WNN_DTYPE_I32;
  if (qlinear) {
    if ((st = check_scalar(ctx, op, p->in, WNN_Q_ASCALE, "a_scale", WNN_DTYPE_F32, 0, NULL)))
      return st;
    if ((st = check_scalar(ctx, op, p->in, WNN_Q_BSCALE, "b_scale", WNN_DTYPE_F32, 0, NULL)))
      return st;
    if ((st = qlinear_out(ctx, op, p->in, &p->y_dtype))) return st;
  }
  p->m = (size_t)a->dims[a->ndim - 2], p->k = (size_t)a->dims[a->ndim - 1];
  p->n = (size_t)b->dims[b->ndim - 1];
  if (b->dims[b->ndim - 2] != (int64_t)p->k)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: shapes %s and %s do not multiply (K %zu vs %lld)",
                       op, wnn_format_dims(sa, sizeof sa, a->ndim, a->dims),
                       wnn_format_dims(sb, sizeof sb, b->ndim, b->dims), p->k,
                       (long long)b->dims[b->ndim - 2]);
  /* Broadcast the batch dims, right-aligned. */
  const int an = a->ndim - 2, bn = b->ndim - 2, nd = an > bn ? an : bn;
  int64_t out[WNN_MAX_DIMS];
  size_t as = p->m * p->k, bs = p->k * p->n;
  p->batch_ndim = nd;
  for (int d = nd - 1; d >= 0; d--) {
    const int ia = d - (nd - an), ib = d - (nd - bn);
    const int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: batch dims of %s and %s do not broadcast", op,
                         wnn_format_dims(sa, sizeof sa, a->ndim, a->dims),
                         wnn_format_dims(sb, sizeof sb, b->ndim, b->dims));
    out[d] = da > db ? da : db;
    p->batch_dims[d] = (size_t)out[d];
    p->a_bs[d] = da == 1 ? 0 : as;
    p->b_bs[d] = db == 1 ? 0 : bs;
    as *= (size_t)da, bs *= (size_t)db;
  }
  out[nd] = (int64_t)p->m, out[nd + 1] = (int64_t)p->n;
  return wnn_set_output(ctx, op, 0, p->y_dtype, nd + 2, out);
}

static wnn_status qmatmul_run(const wnn_run_ctx *ctx) {
  const wnn_qmatmul_params *p = ctx->params;
  const void *a = ctx->inputs[p->in[WNN_Q_A]].data, *b = ctx->inputs[p->in[WNN_Q_B]].data;
  void *y = ctx->outputs[0].data;
  const int32_t azp = zp_at(ctx, p->in, WNN_Q_AZP, 0), bzp = zp_at(ctx, p->in, WNN_Q_BZP, 0);
  float mult = 0.0f;
  int32_t yzp = 0;
  if (p->qlinear) {
    mult = f32_at(ctx, p->in, WNN_Q_ASCALE, 0) * f32_at(ctx, p->in, WNN_Q_BSCALE, 0) /
           f32_at(ctx, p->in, WNN_Q_YSCALE, 0);
    yzp = zp_at(ctx, p->in, WNN_Q_YZP, 0);
  }
  size_t count = 1;
  for (int d = 0; d < p->batch_ndim; d++) count *= p->batch_dims[d];
  size_t idx[WNN_MAX_DIMS] = {0}, ao = 0, bo = 0;
  for (size_t t = 0; t < count; t++) {
    for (size_t i = 0; i < p->m; i++)
      for (size_t j = 0; j < p->n; j++) {
        int64_t acc = 0;
        for (size_t k = 0; k < p->k; k++)
          acc += (int64_t)(q8_at(p->a_dtype, a, ao + i * p->k + k) - azp) *
                 (q8_at(p->b_dtype, b, bo + k * p->n + j) - bzp);
        const size_t yi = (t * p->m + i) * p->n + j;
        if (p->qlinear) requant(p->y_dtype, y, yi, acc, mult, yzp);
        else ((int32_t *)y)[yi] = (int32_t)(uint32_t)(uint64_t)acc; /* int32 wraps */
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
  return qmatmul_prepare(ctx, "MatMulInteger", false);
}
wnn_status wnn_qlinearmatmul_prepare(wnn_prepare_ctx *ctx) {
  return qmatmul_prepare(ctx, "QLinearMatMul", true);
}
wnn_status wnn_matmulinteger_run(const wnn_run_ctx *ctx) { return qmatmul_run(ctx); }
wnn_status wnn_qlinearmatmul_run(const wnn_run_ctx *ctx) { return qmatmul_run(ctx); }

/* ---------------------------------------------------- Conv, quantized */

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
  if ((st = check_scalar(ctx, op, p->in, WNN_Q_AZP, "x_zero_point", x->dtype, 0, NULL))) return st;
  if ((st = check_scalar(ctx, op, p->in, WNN_Q_BZP, "w_zero_point", w->dtype, m,
                         &p->wzp_per_channel)))
    return st;
  p->y_dtype = WNN_DTYPE_I32;
  if (qlinear) {
    if ((st = check_scalar(ctx, op, p->in, WNN_Q_ASCALE, "x_scale", WNN_DTYPE_F32, 0, NULL)))
      return st;
    if ((st = check_scalar(ctx, op, p->in, WNN_Q_BSCALE, "w_scale", WNN_DTYPE_F32, m,
                           &p->wscale_per_channel)))
      return st;
    if ((st = qlinear_out(ctx, op, p->in, &p->y_dtype))) return st;
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
  return wnn_set_output(ctx, op, 0, p->y_dtype, x->ndim, out);
}

static wnn_status qconv_run(const wnn_run_ctx *ctx) {
  const wnn_qconv_params *p = ctx->params;
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
          if (p->qlinear) requant(p->y_dtype, y, yi, acc, mult, yzp);
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

/* ---------------------------------------- QuantizeLinear, DequantizeLinear */

/* Checks scale (input 1) and zero point (input 2, optional, of dtype zdt
 * unless zdt is INVALID) against x and axis; fills outer, axis_n, inner. */
static wnn_status quant_prepare(wnn_prepare_ctx *ctx, const char *op, const char *sname,
                                const char *zname, wnn_quant_params *p) {
  const wnn_tdesc *x = &ctx->inputs[0], *s = &ctx->inputs[1];
  wnn_status st;
  int64_t axis, block;
  if ((st = wnn_expect_dtype(ctx, op, 1, sname, WNN_DTYPE_F32))) return st;
  if ((st = wnn_attr_int(ctx, "block_size", 0, &block))) return st;
  if (block != 0)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: block_size = %lld (blocked quantization) is not supported, only 0", op,
                       (long long)block);
  if ((st = wnn_attr_int(ctx, "axis", 1, &axis))) return st;
  char a[64], b[64];
  if (s->ndim <= 1 && wnn_shape_numel(s->ndim, s->dims) == 1) { /* per tensor: axis unused */
    p->outer = 1, p->axis_n = 1;
    p->inner = (size_t)wnn_shape_numel(x->ndim, x->dims);
  } else {
    int ax;
    if ((st = wnn_normalize_axis(ctx, op, "axis", axis, x->ndim, false, &ax))) return st;
    if (s->ndim != 1 || s->dims[0] != x->dims[ax])
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: input 1 (%s) has shape %s, expected a scalar or [%lld] (dim %d of "
                         "input 0 %s)",
                         op, sname, wnn_format_dims(a, sizeof a, s->ndim, s->dims),
                         (long long)x->dims[ax], ax,
                         wnn_format_dims(b, sizeof b, x->ndim, x->dims));
    wnn_split_axis(x, ax, &p->outer, &p->axis_n, &p->inner);
  }
  p->has_zero_point = wnn_has_input(ctx, 2);
  if (p->has_zero_point) {
    const wnn_tdesc *z = &ctx->inputs[2];
    const bool one = z->ndim <= 1 && wnn_shape_numel(z->ndim, z->dims) == 1;
    if (!(p->axis_n == 1 && p->outer == 1 ? one
                                          : wnn_shape_equal(z->ndim, z->dims, s->ndim, s->dims)))
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (%s) has shape %s, expected %s (%s's)",
                         op, zname, wnn_format_dims(a, sizeof a, z->ndim, z->dims),
                         wnn_format_dims(b, sizeof b, s->ndim, s->dims), sname);
  }
  return WNN_OK;
}

wnn_status wnn_quantizelinear_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "QuantizeLinear";
  wnn_quant_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t odt, sat;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "x", WNN_DTYPE_F32))) return st;
  if ((st = wnn_attr_int(ctx, "saturate", 1, &sat))) return st; /* float8 only */
  if ((st = wnn_attr_int(ctx, "output_dtype", 0, &odt))) return st;
  if ((st = quant_prepare(ctx, OP, "y_scale", "y_zero_point", p))) return st;
  if (odt != 0 && odt != 2 && odt != 3)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: output_dtype = %lld is not supported (uint8 2, int8 3)", OP,
                       (long long)odt);
  p->qdtype = odt == 3 ? WNN_DTYPE_I8 : WNN_DTYPE_U8;
  if (p->has_zero_point) {
    const wnn_dtype z = ctx->inputs[2].dtype;
    if (z != WNN_DTYPE_U8 && z != WNN_DTYPE_I8)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                         "%s: input 2 (y_zero_point) is %s, expected uint8 or int8", OP,
                         wnn_dtype_name(z));
    if (odt != 0 && z != p->qdtype)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                         "%s: input 2 (y_zero_point) is %s but output_dtype = %lld asks for %s",
                         OP, wnn_dtype_name(z), (long long)odt, wnn_dtype_name(p->qdtype));
    p->qdtype = z;
  }
  return wnn_set_output(ctx, OP, 0, p->qdtype, x->ndim, x->dims);
}

/* y = saturate(round_half_even(x / scale) + zero_point); NaN gives the
 * type's lowest value. */
wnn_status wnn_quantizelinear_run(const wnn_run_ctx *ctx) {
  const wnn_quant_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *scale = ctx->inputs[1].data;
  const void *zp = p->has_zero_point ? ctx->inputs[2].data : NULL;
  const bool s8 = p->qdtype == WNN_DTYPE_I8;
  const float lo = s8 ? -128.0f : 0.0f, hi = s8 ? 127.0f : 255.0f;
  void *y = ctx->outputs[0].data;
  size_t i = 0;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t a = 0; a < p->axis_n; a++) {
      const float s = scale[a];
      const float z = !zp  ? 0.0f
                      : s8 ? (float)((const int8_t *)zp)[a]
                           : (float)((const uint8_t *)zp)[a];
      for (size_t k = 0; k < p->inner; k++, i++) {
        float q = nearbyintf(x[i] / s) + z; /* the default rounding: half to even */
        q = q > lo ? q : lo;                /* NaN too */
        q = q < hi ? q : hi;
        if (s8) ((int8_t *)y)[i] = (int8_t)q;
        else ((uint8_t *)y)[i] = (uint8_t)q;
      }
    }
  return WNN_OK;
}

wnn_status wnn_dequantizelinear_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "DequantizeLinear";
  wnn_quant_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if (x->dtype != WNN_DTYPE_U8 && x->dtype != WNN_DTYPE_I8 && x->dtype != WNN_DTYPE_I32)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (x) is %s, expected uint8, int8 or int32",
                       OP, wnn_dtype_name(x->dtype));
  if ((st = quant_prepare(ctx, OP, "x_scale", "x_zero_point", p))) return st;
  p->qdtype = x->dtype;
  if (p->has_zero_point && ctx->inputs[2].dtype != x->dtype)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                       "%s: input 2 (x_zero_point) is %s, expected %s (input 0's dtype)", OP,
                       wnn_dtype_name(ctx->inputs[2].dtype), wnn_dtype_name(x->dtype));
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

static inline int64_t qget(wnn_dtype dt, const void *data, size_t i) {
  switch (dt) {
    case WNN_DTYPE_I8: return ((const int8_t *)data)[i];
    case WNN_DTYPE_U8: return ((const uint8_t *)data)[i];
    default: return ((const int32_t *)data)[i];
  }
}

/* y = float(x - zero_point) * scale. */
wnn_status wnn_dequantizelinear_run(const wnn_run_ctx *ctx) {
  const wnn_quant_params *p = ctx->params;
  const void *x = ctx->inputs[0].data;
  const float *scale = ctx->inputs[1].data;
  const void *zp = p->has_zero_point ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  size_t i = 0;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t a = 0; a < p->axis_n; a++) {
      const float s = scale[a];
      const int64_t z = zp ? qget(p->qdtype, zp, a) : 0;
      for (size_t k = 0; k < p->inner; k++, i++) y[i] = (float)(qget(p->qdtype, x, i) - z) * s;
    }
  return WNN_OK;
}

/* ------------------------------------------------ DynamicQuantizeLinear */

/* DynamicQuantizeLinear (11): x float32 -> y uint8 (x's shape), y_scale
 * float32 and y_zero_point uint8 (scalars), from the range of x widened to
 * include 0:
 *   scale = (max(0, max x) - min(0, min x)) / 255
 *   zero_point = saturate(round_half_even(0 - min(0, min x) / scale))
 *   y = saturate(round_half_even(x / scale) + zero_point)
 * An all-zero (or empty) x has scale 0: zero point 0 and y 0 (ONNX divides
 * by it). NaN elements are skipped by the range and give 0. */
wnn_status wnn_dynamicquantizelinear_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "DynamicQuantizeLinear";
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "x", WNN_DTYPE_F32))) return st;
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_U8, x->ndim, x->dims))) return st;
  if ((st = wnn_set_output(ctx, OP, 1, WNN_DTYPE_F32, 0, NULL))) return st;
  return wnn_set_output(ctx, OP, 2, WNN_DTYPE_U8, 0, NULL);
}

static inline float clamp_u8(float q) {
  q = q > 0.0f ? q : 0.0f; /* NaN too */
  return q < 255.0f ? q : 255.0f;
}

wnn_status wnn_dynamicquantizelinear_run(const wnn_run_ctx *ctx) {
  const wnn_tensor *xt = &ctx->inputs[0];
  const size_t n = (size_t)wnn_shape_numel(xt->ndim, xt->dims);
  const float *x = xt->data;
  uint8_t *y = ctx->outputs[0].data;
  float lo = 0.0f, hi = 0.0f;
  for (size_t i = 0; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  const float scale = (hi - lo) / 255.0f;
  const float zp = scale > 0.0f ? clamp_u8(nearbyintf(0.0f - lo / scale)) : 0.0f;
  for (size_t i = 0; i < n; i++)
    y[i] = scale > 0.0f ? (uint8_t)clamp_u8(nearbyintf(x[i] / scale) + zp) : 0;
  *(float *)ctx->outputs[1].data = scale;
  *(uint8_t *)ctx->outputs[2].data = (uint8_t)zp;
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

static const char *const qconv_attrs[] = {"auto_pad", "dilations", "group",
                                          "kernel_shape", "pads", "strides", NULL};

WNN_OP_DEFINE(matmulinteger, "MatMulInteger", 0, 2, 4, 1, 1, NULL);
WNN_OP_DEFINE(qlinearmatmul, "QLinearMatMul", 0, 8, 8, 1, 1, NULL);
WNN_OP_DEFINE(convinteger, "ConvInteger", 0, 2, 4, 1, 1, qconv_attrs);
WNN_OP_DEFINE(qlinearconv, "QLinearConv", 0, 8, 9, 1, 1, qconv_attrs);
WNN_OP_DEFINE(quantizelinear, "QuantizeLinear", 0, 2, 3, 1, 1,
              WNN_ATTRS("axis", "block_size", "output_dtype", "saturate"));
WNN_OP_DEFINE(dequantizelinear, "DequantizeLinear", 0, 2, 3, 1, 1, WNN_ATTRS("axis", "block_size"));
WNN_OP_DEFINE(dynamicquantizelinear, "DynamicQuantizeLinear", 0, 1, 1, 3, 3, NULL);
