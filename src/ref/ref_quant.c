/* Reference quantization and quantized linear algebra (src/ops/quant.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/quant_internal.h"
#include "ref/ref.h"

/* ------------------------------------------- QuantizeLinear, Dequantize */

static double qvalue(wnn_dtype dt, const void *data, size_t i) {
  switch (dt) {
    case WNN_DTYPE_I8: return ((const int8_t *)data)[i];
    case WNN_DTYPE_U8: return ((const uint8_t *)data)[i];
    default: return ((const int32_t *)data)[i];
  }
}

wnn_status wnn_ref_quantizelinear(const wnn_run_ctx *ctx) {
  const wnn_quant_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *scale = ctx->inputs[1].data;
  const void *zp = p->has_zero_point ? ctx->inputs[2].data : NULL;
  const double lo = p->qdtype == WNN_DTYPE_I8 ? -128.0 : 0.0;
  const double hi = p->qdtype == WNN_DTYPE_I8 ? 127.0 : 255.0;
  const size_t total = p->outer * p->axis_n * p->inner;
  for (size_t i = 0; i < total; i++) {
    const size_t a = i / p->inner % p->axis_n;
    double q = nearbyint((double)(x[i] / scale[a])) + (zp ? qvalue(p->qdtype, zp, a) : 0.0);
    q = isnan(q) || q < lo ? lo : q > hi ? hi : q; /* NaN: the lowest value, as run */
    if (p->qdtype == WNN_DTYPE_I8) ((int8_t *)ctx->outputs[0].data)[i] = (int8_t)q;
    else ((uint8_t *)ctx->outputs[0].data)[i] = (uint8_t)q;
  }
  return WNN_OK;
}

wnn_status wnn_ref_dequantizelinear(const wnn_run_ctx *ctx) {
  const wnn_quant_params *p = ctx->params;
  const float *scale = ctx->inputs[1].data;
  const void *zp = p->has_zero_point ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  const size_t total = p->outer * p->axis_n * p->inner;
  for (size_t i = 0; i < total; i++) {
    const size_t a = i / p->inner % p->axis_n;
    const double v =
        qvalue(p->qdtype, ctx->inputs[0].data, i) - (zp ? qvalue(p->qdtype, zp, a) : 0.0);
    y[i] = (float)((double)(float)v * scale[a]); /* ONNX: float(x - zp) * scale */
  }
  return WNN_OK;
}

/* The range in double; the scale rounded to float as ONNX computes it. */
wnn_status wnn_ref_dynamicquantizelinear(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const float *xd = x->data;
  double lo = 0.0, hi = 0.0;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++)
    if (!isnan(xd[i])) lo = fmin(lo, xd[i]), hi = fmax(hi, xd[i]);
  const float scale = (float)(hi - lo) / 255.0f;
  double zp = 0.0;
  if (scale > 0.0f) zp = fmin(255.0, fmax(0.0, nearbyint(-lo / scale)));
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
    double q = scale > 0.0f ? nearbyint(xd[i] / scale) + zp : 0.0;
    q = isnan(q) || q < 0.0 ? 0.0 : q > 255.0 ? 255.0 : q;
    ((uint8_t *)ctx->outputs[0].data)[i] = (uint8_t)q;
  }
  *(float *)ctx->outputs[1].data = scale;
  *(uint8_t *)ctx->outputs[2].data = (uint8_t)zp;
  return WNN_OK;
}

/* ------------------------------------------ quantized MatMul and Conv */

static int64_t q8(const wnn_tensor *t, int64_t i) {
  return t->dtype == WNN_DTYPE_I8 ? ((const int8_t *)t->data)[i] : ((const uint8_t *)t->data)[i];
}

/* Input `slot` of the op's index table, or NULL when the op has none or it is omitted. */
static const wnn_tensor *qin(const wnn_run_ctx *ctx, const signed char *in, int slot) {
  const int i = in[slot];
  return i >= 0 && i < ctx->num_inputs && ctx->inputs[i].data ? &ctx->inputs[i] : NULL;
}

/* round half to even, then clamp to the dtype's range and to [clo, chi] (a
 * fused activation's bounds); NaN: the lowest value */
static void ref_requant(const wnn_tensor *y, int64_t i, double acc, float mult, int64_t zp,
                        int64_t clo, int64_t chi) {
  double lo = y->dtype == WNN_DTYPE_I8 ? -128.0 : 0.0, hi = y->dtype == WNN_DTYPE_I8 ? 127.0 : 255.0;
  lo = fmax(lo, (double)clo), hi = fmin(hi, (double)chi);
  double v = nearbyint((double)((float)acc * mult)) + (double)zp;
  v = isnan(v) || v < lo ? lo : v > hi ? hi : v;
  if (y->dtype == WNN_DTYPE_I8) ((int8_t *)y->data)[i] = (int8_t)v;
  else ((uint8_t *)y->data)[i] = (uint8_t)v;
}

/* A's quantized value: its byte, or DynamicQuantizeMatMul's quantization of
 * the float (as ref_dynamicquantizelinear computes it). */
static int64_t qa(const wnn_qmatmul_params *p, const wnn_tensor *a, int64_t i, float scale,
                  double zp) {
  if (!p->dynamic) return q8(a, i);
  double q = scale > 0.0f ? nearbyint(((const float *)a->data)[i] / scale) + zp : 0.0;
  return isnan(q) || q < 0.0 ? 0 : q > 255.0 ? 255 : (int64_t)q;
}

static wnn_status ref_qmatmul(const wnn_run_ctx *ctx) {
  const wnn_qmatmul_params *p = ctx->params;
  const wnn_tensor *a = qin(ctx, p->in, WNN_Q_A), *b = qin(ctx, p->in, WNN_Q_B);
  const wnn_tensor *az = qin(ctx, p->in, WNN_Q_AZP), *bz = qin(ctx, p->in, WNN_Q_BZP);
  const wnn_tensor *y = &ctx->outputs[0];
  int64_t azp = az ? q8(az, 0) : 0;
  float dyn_scale = 0.0f;
  if (p->dynamic) { /* the range in double, the scale rounded to float */
    double lo = 0.0, hi = 0.0;
    const float *ad = a->data;
    for (int64_t i = 0; i < wnn_ref_numel(a); i++)
      if (!isnan(ad[i])) lo = fmin(lo, ad[i]), hi = fmax(hi, ad[i]);
    dyn_scale = (float)(hi - lo) / 255.0f;
    azp = dyn_scale > 0.0f ? (int64_t)fmin(255.0, fmax(0.0, nearbyint(-lo / dyn_scale))) : 0;
  }
  /* B's logical dims: [k, n] when packed */
  const int bnd = p->b_packed ? 2 : b->ndim;
  const int64_t *bdims = b->dims, packed_dims[2] = {(int64_t)p->k, (int64_t)p->n};
  if (p->b_packed) bdims = packed_dims;
  int64_t idx[WNN_MAX_DIMS], ai[WNN_MAX_DIMS], bi[WNN_MAX_DIMS];
  const int K = (int)p->k;
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    wnn_ref_unravel(t, y->ndim, y->dims, idx);
    /* A and B coordinates: the batch dims right-aligned, 0 where broadcast */
    for (int d = 0; d < a->ndim - 2; d++) {
      const int yd = d + (y->ndim - a->ndim);
      ai[d] = a->dims[d] == 1 ? 0 : idx[yd];
    }
    for (int d = 0; d < bnd - 2; d++) {
      const int yd = d + (y->ndim - bnd);
      bi[d] = bdims[d] == 1 ? 0 : idx[yd];
    }
    const int64_t col = idx[y->ndim - 1];
    const int64_t bzp = bz ? q8(bz, p->bzp_per_column ? col : 0) : 0;
    int64_t acc = 0;
    for (int k = 0; k < K; k++) {
      ai[a->ndim - 2] = idx[y->ndim - 2], ai[a->ndim - 1] = k;
      bi[bnd - 2] = k, bi[bnd - 1] = col;
      /* packed: pairs of rows side by side, [k / 2][col][k % 2], within the
       * column block of col when b_block > 0 (blocks one after another) */
      int64_t bflat;
      if (p->b_packed) {
        const int64_t blk = (int64_t)p->b_block, n = (int64_t)p->n;
        const int64_t c0 = blk ? col / blk * blk : 0, w = blk && n - c0 > blk ? blk : n - c0;
        bflat = c0 * 2 * ((K + 1) / 2) + (k / 2) * 2 * w + 2 * (col - c0) + k % 2;
      } else {
        bflat = wnn_ref_ravel(bnd, bdims, bi);
      }
      acc += (qa(p, a, wnn_ref_ravel(a->ndim, a->dims, ai), dyn_scale, (double)azp) - azp) *
             (q8(b, bflat) - bzp);
    }
    if (p->dynamic) {
      const float *bs = qin(ctx, p->in, WNN_Q_BSCALE)->data;
      const wnn_tensor *bias = qin(ctx, p->in, WNN_Q_BIAS);
      const float s = dyn_scale * bs[p->bscale_per_column ? col : 0]; /* Mul(a_scale, b_scale) */
      float v = (float)(int32_t)acc * s;                              /* Cast, Mul */
      if (bias) v = v + ((const float *)bias->data)[col];             /* Add */
      ((float *)y->data)[t] = v;
    } else if (!p->qlinear) {
      ((int32_t *)y->data)[t] = (int32_t)(uint32_t)(uint64_t)acc;
    } else {
      const float *as = qin(ctx, p->in, WNN_Q_ASCALE)->data,
                  *bs = qin(ctx, p->in, WNN_Q_BSCALE)->data;
      const float *ys = qin(ctx, p->in, WNN_Q_YSCALE)->data;
      ref_requant(y, t, (double)acc, as[0] * bs[p->bscale_per_column ? col : 0] / ys[0],
                  q8(qin(ctx, p->in, WNN_Q_YZP), 0), -1000, 1000);
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_matmulinteger(const wnn_run_ctx *ctx) { return ref_qmatmul(ctx); }
wnn_status wnn_ref_qlinearmatmul(const wnn_run_ctx *ctx) { return ref_qmatmul(ctx); }
wnn_status wnn_ref_dynamicquantizematmul(const wnn_run_ctx *ctx) { return ref_qmatmul(ctx); }

/* For every output element, the sum over its window of (x - x_zp)(w - w_zp),
 * reading positions outside x as the zero point. */
static wnn_status ref_qconv(const wnn_run_ctx *ctx) {
  const wnn_qconv_params *p = ctx->params;
  const wnn_window2d *g = &p->win;
  const wnn_tensor *x = qin(ctx, p->in, WNN_Q_A), *w = qin(ctx, p->in, WNN_Q_B);
  const wnn_tensor *xz = qin(ctx, p->in, WNN_Q_AZP), *wz = qin(ctx, p->in, WNN_Q_BZP);
  const wnn_tensor *bias = p->qlinear ? qin(ctx, p->in, WNN_Q_BIAS) : NULL;
  const wnn_tensor *y = &ctx->outputs[0];
  const int64_t xzp = xz ? q8(xz, 0) : 0;
  const int64_t cg = (int64_t)(p->in_c / p->group), mg = (int64_t)(p->out_c / p->group);
  const int64_t H = (int64_t)g->in_h, W = (int64_t)g->in_w, OH = (int64_t)g->out_h,
                OW = (int64_t)g->out_w;
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    const int64_t ox = t % OW, oy = t / OW % OH, oc = t / (OW * OH) % (int64_t)p->out_c;
    const int64_t n = t / (OW * OH * (int64_t)p->out_c);
    const int64_t wzp = wz ? q8(wz, p->wzp_per_channel ? oc : 0) : 0;
    double acc = bias ? ((const int32_t *)bias->data)[oc] : 0.0;
    for (int64_t c = 0; c < cg; c++)
      for (int64_t ky = 0; ky < (int64_t)g->k_h; ky++)
        for (int64_t kx = 0; kx < (int64_t)g->k_w; kx++) {
          const int64_t iy = oy * (int64_t)g->stride_h + ky * (int64_t)g->dil_h - (int64_t)g->pad_t;
          const int64_t ix = ox * (int64_t)g->stride_w + kx * (int64_t)g->dil_w - (int64_t)g->pad_l;
          const int64_t ic = oc / mg * cg + c;
          const int64_t xv = iy < 0 || iy >= H || ix < 0 || ix >= W
                                 ? xzp : q8(x, ((n * (int64_t)p->in_c + ic) * H + iy) * W + ix);
          acc +=
              (double)(xv - xzp) *
              (double)(q8(w, ((oc * cg + c) * (int64_t)g->k_h + ky) * (int64_t)g->k_w + kx) - wzp);
        }
    if (!p->qlinear) {
      ((int32_t *)y->data)[t] = (int32_t)(int64_t)acc;
    } else {
      const float *xs = qin(ctx, p->in, WNN_Q_ASCALE)->data,
                  *ws = qin(ctx, p->in, WNN_Q_BSCALE)->data;
      const float *ys = qin(ctx, p->in, WNN_Q_YSCALE)->data;
      const float mult = xs[0] * ws[p->wscale_per_channel ? oc : 0] / ys[0];
      ref_requant(y, t, acc, mult, q8(qin(ctx, p->in, WNN_Q_YZP), 0), p->y_lo, p->y_hi);
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_convinteger(const wnn_run_ctx *ctx) { return ref_qconv(ctx); }
wnn_status wnn_ref_qlinearconv(const wnn_run_ctx *ctx) { return ref_qconv(ctx); }

#endif /* WNN_WITH_REFERENCE */
