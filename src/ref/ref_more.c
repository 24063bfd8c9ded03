/* Reference loss ops and further math ops (src/ops/nn_loss.c,
 * src/ops/math_more.c, ReduceLogSum of src/ops/math_reduce.c): direct loops
 * from the ONNX definitions, in double, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/more_internal.h"
#include "ref/ref.h"

/* --------------------------------------------------------------- losses */

/* Input element [n, c, d1..dk] for target coordinates idx = [n, d1..dk]. */
static int64_t input_index(const wnn_tensor *x, const int64_t *idx, int64_t c) {
  int64_t full[WNN_MAX_DIMS];
  full[0] = idx[0], full[1] = c;
  for (int i = 2; i < x->ndim; i++) full[i] = idx[i - 1];
  return wnn_ref_ravel(x->ndim, x->dims, full);
}

static wnn_status ref_loss(const wnn_run_ctx *ctx) {
  const wnn_loss_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *t = &ctx->inputs[1], *y = &ctx->outputs[0];
  const float *xd = x->data, *w = p->has_weight ? ctx->inputs[2].data : NULL;
  const int64_t nc = x->dims[1];
  float *logp = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  int64_t idx[WNN_MAX_DIMS];
  double sum = 0.0, wsum = 0.0;
  for (int64_t s = 0; s < wnn_ref_numel(t); s++) {
    wnn_ref_unravel(s, t->ndim, t->dims, idx);
    /* log-probabilities of this sample's classes */
    double max = -INFINITY, lse = 0.0;
    if (p->softmax) {
      for (int64_t c = 0; c < nc; c++) max = fmax(max, xd[input_index(x, idx, c)]);
      for (int64_t c = 0; c < nc; c++) lse += exp(xd[input_index(x, idx, c)] - max);
      lse = max + log(lse);
      for (int64_t c = 0; logp && c < nc; c++)
        logp[input_index(x, idx, c)] = (float)(xd[input_index(x, idx, c)] - lse);
    }
    const int64_t label = t->dtype == WNN_DTYPE_I32 ? ((const int32_t *)t->data)[s]
                                                    : ((const int64_t *)t->data)[s];
    double loss = 0.0, wt = 0.0;
    if (!p->has_ignore || label != p->ignore_index) {
      if (label < 0 || label >= nc)
        return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "target value %lld is out of range",
                            (long long)label);
      wt = w ? w[label] : 1.0;
      const double v = xd[input_index(x, idx, label)];
      loss = -(p->softmax ? v - lse : v) * wt;
    }
    if (p->reduction == WNN_LOSS_NONE) ((float *)y->data)[s] = (float)loss;
    sum += loss, wsum += wt;
  }
  if (p->reduction == WNN_LOSS_SUM) ((float *)y->data)[0] = (float)sum;
  if (p->reduction == WNN_LOSS_MEAN) ((float *)y->data)[0] = (float)(sum / wsum);
  return WNN_OK;
}

wnn_status wnn_ref_negativeloglikelihoodloss(const wnn_run_ctx *ctx) { return ref_loss(ctx); }
wnn_status wnn_ref_softmaxcrossentropyloss(const wnn_run_ctx *ctx) { return ref_loss(ctx); }

/* --------------------------------------------------------------- CumSum */

wnn_status wnn_ref_cumsum(const wnn_run_ctx *ctx) {
  const wnn_cumsum_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++)
      for (size_t k = 0; k < p->n; k++) {
        double f = 0.0;
        int64_t v = 0;
        for (size_t j = 0; j < p->n; j++) {
          const bool in = p->reverse ? (p->exclusive ? j > k : j >= k)
                                     : (p->exclusive ? j < k : j <= k);
          if (!in) continue;
          const size_t at = (o * p->n + j) * p->inner + i;
          switch (p->dtype) {
            case WNN_DTYPE_F32: f += ((const float *)x->data)[at]; break;
            case WNN_DTYPE_I32:
              v = (int64_t)((uint64_t)v + (uint64_t)((const int32_t *)x->data)[at]);
              break;
            default: v = (int64_t)((uint64_t)v + (uint64_t)((const int64_t *)x->data)[at]); break;
          }
        }
        const size_t at = (o * p->n + k) * p->inner + i;
        switch (p->dtype) {
          case WNN_DTYPE_F32: ((float *)y->data)[at] = (float)f; break;
          case WNN_DTYPE_I32: ((int32_t *)y->data)[at] = (int32_t)(uint32_t)(uint64_t)v; break;
          default: ((int64_t *)y->data)[at] = v; break;
        }
      }
  return WNN_OK;
}

/* -------------------------------------------------------------- Hardmax */

wnn_status wnn_ref_hardmax(const wnn_run_ctx *ctx) {
  const wnn_hardmax_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++) {
      size_t best = 0;
      for (size_t k = 1; k < p->n; k++)
        if (x[(o * p->n + k) * p->inner + i] > x[(o * p->n + best) * p->inner + i]) best = k;
      for (size_t k = 0; k < p->n; k++) y[(o * p->n + k) * p->inner + i] = k == best ? 1.0f : 0.0f;
    }
  return WNN_OK;
}

/* --------------------------------------------------------- ReduceLogSum */

wnn_status wnn_ref_reducelogsum(const wnn_run_ctx *ctx) {
  const wnn_reduce_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const float *xd = x->data;
  float *yd = y->data;
  if (p->copy) {
    for (int64_t i = 0; i < wnn_ref_numel(x); i++) yd[i] = xd[i];
    return WNN_OK;
  }
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    double acc = 0.0;
    for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
      wnn_ref_unravel(i, x->ndim, x->dims, idx);
      int64_t o = 0;
      for (int d = 0; d < x->ndim; d++)
        if (!p->axis_reduced[d]) o = o * x->dims[d] + idx[d];
      if (o == t) acc += xd[i];
    }
    yd[t] = (float)log(acc);
  }
  return WNN_OK;
}

/* ------------------------------------------------------- element-wise */

static double vmore(const wnn_vmore_params *p, double v) {
  switch (p->op) {
    case WNN_MORE_ACOS: return acos(v);
    case WNN_MORE_ACOSH: return acosh(v);
    case WNN_MORE_ASIN: return asin(v);
    case WNN_MORE_ASINH: return asinh(v);
    case WNN_MORE_ATAN: return atan(v);
    case WNN_MORE_ATANH: return atanh(v);
    case WNN_MORE_COSH: return cosh(v);
    case WNN_MORE_SINH: return sinh(v);
    case WNN_MORE_TAN: return tan(v);
    case WNN_MORE_THRESHOLDEDRELU: return v > p->alpha ? v : 0.0;
    case WNN_MORE_SHRINK: return v < -p->alpha ? v + p->beta : v > p->alpha ? v - p->beta : 0.0;
    default: /* CELU: max(0, v) + min(0, alpha * (exp(v / alpha) - 1)) */
      return fmax(0.0, v) + fmin(0.0, p->alpha * (exp(v / p->alpha) - 1.0));
  }
}

static wnn_status ref_vmore(const wnn_run_ctx *ctx) {
  const wnn_vmore_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(&ctx->inputs[0]); i++) y[i] = (float)vmore(p, x[i]);
  return WNN_OK;
}

#define REF_VMORE(sym) \
  wnn_status wnn_ref_##sym(const wnn_run_ctx *ctx) { return ref_vmore(ctx); }
REF_VMORE(acos)
REF_VMORE(acosh)
REF_VMORE(asin)
REF_VMORE(asinh)
REF_VMORE(atan)
REF_VMORE(atanh)
REF_VMORE(cosh)
REF_VMORE(sinh)
REF_VMORE(tan)
REF_VMORE(thresholdedrelu)
REF_VMORE(shrink)
REF_VMORE(celu)

/* -------------------------------------------------------------- EyeLike */

wnn_status wnn_ref_eyelike(const wnn_run_ctx *ctx) {
  const wnn_eyelike_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  const size_t es = wnn_dtype_size(y->dtype);
  for (size_t r = 0; r < p->rows; r++)
    for (size_t c = 0; c < p->cols; c++) {
      unsigned char *e = (unsigned char *)y->data + (r * p->cols + c) * es;
      const bool one = (int64_t)c - (int64_t)r == p->k;
      switch (y->dtype) {
        case WNN_DTYPE_F32: *(float *)e = one ? 1.0f : 0.0f; break;
        case WNN_DTYPE_I32: *(int32_t *)e = one; break;
        case WNN_DTYPE_I64: *(int64_t *)e = one; break;
        default: *e = one; break; /* int8, uint8, bool */
      }
    }
  return WNN_OK;
}

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

/* ------------------------------------------------------ window functions */

/* The generalized cosine window, from its sum form: sum_j (-1)^j a_j cos(2 pi j k / N). */
static wnn_status ref_window(const wnn_run_ctx *ctx) {
  const wnn_window_params *p = ctx->params;
  const double a[3] = {p->a0, p->a1, p->a2};
  const double len = p->periodic ? (double)p->n : (double)p->n - 1.0;
  for (size_t k = 0; k < p->n; k++) {
    double w = 0.0;
    for (int j = 0; j < 3; j++) {
      const double pi = 3.14159265358979323846;
      const double ang = len > 0.0 ? 2.0 * pi * (double)j * (double)k / len : 0.0;
      w += (j % 2 ? -a[j] : a[j]) * cos(ang);
    }
    ((float *)ctx->outputs[0].data)[k] = (float)w;
  }
  return WNN_OK;
}
wnn_status wnn_ref_hannwindow(const wnn_run_ctx *ctx) { return ref_window(ctx); }
wnn_status wnn_ref_hammingwindow(const wnn_run_ctx *ctx) { return ref_window(ctx); }
wnn_status wnn_ref_blackmanwindow(const wnn_run_ctx *ctx) { return ref_window(ctx); }

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

/* -------------------------------------------------------------- BitShift */

/* The output element at idx reads each operand at idx with its broadcast dims
 * at 0 (numpy rules, right-aligned). */
static int64_t bcast_index(const wnn_tensor *t, int out_nd, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < t->ndim; i++) {
    const int64_t d = t->dims[i];
    off = off * d + (d == 1 ? 0 : idx[i + out_nd - t->ndim]);
  }
  return off;
}

wnn_status wnn_ref_bitshift(const wnn_run_ctx *ctx) {
  const wnn_bitshift_params *p = ctx->params;
  const wnn_tensor *a = &ctx->inputs[0], *b = &ctx->inputs[1], *y = &ctx->outputs[0];
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t i = 0; i < wnn_ref_numel(y); i++) {
    wnn_ref_unravel(i, y->ndim, y->dims, idx);
    const unsigned v = ((const uint8_t *)a->data)[bcast_index(a, y->ndim, idx)];
    const unsigned s = ((const uint8_t *)b->data)[bcast_index(b, y->ndim, idx)];
    /* multiply or divide by 2^s; anything shifted past 8 bits is gone */
    const unsigned r = s >= 8 ? 0 : p->left ? (v * (1u << s)) % 256u : v / (1u << s);
    ((uint8_t *)y->data)[i] = (uint8_t)r;
  }
  return WNN_OK;
}

/* --------------------------------------------- MeanVarianceNormalization */

/* For each element, the statistics of the elements sharing its kept
 * coordinates, found by comparing coordinates (quadratic; tests only). */
wnn_status wnn_ref_meanvariancenormalization(const wnn_run_ctx *ctx) {
  const wnn_mvn_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const float *xd = x->data;
  int64_t ii[WNN_MAX_DIMS], jj[WNN_MAX_DIMS];
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
    wnn_ref_unravel(i, x->ndim, x->dims, ii);
    double sum = 0.0, sq = 0.0, cnt = 0.0;
    for (int pass = 0; pass < 2; pass++)
      for (int64_t j = 0; j < wnn_ref_numel(x); j++) {
        wnn_ref_unravel(j, x->ndim, x->dims, jj);
        bool same = true;
        for (int d = 0; d < x->ndim; d++)
          if (p->kstride[d] != 0 && ii[d] != jj[d]) same = false;
        if (!same) continue;
        if (pass == 0) sum += xd[j], cnt += 1.0;
        else sq += (xd[j] - sum / cnt) * (xd[j] - sum / cnt);
      }
    ((float *)ctx->outputs[0].data)[i] = (float)((xd[i] - sum / cnt) / (sqrt(sq / cnt) + 1e-9));
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

/* ------------------------------------------------------------------- RNN */

static double rnn_act(int act, double v) {
  switch (act) {
    case 1: return tanh(v);                       /* WNN_RNN_TANH */
    case 2: return v > 0.0 ? v : 0.0;             /* WNN_RNN_RELU */
    default: return 1.0 / (1.0 + exp(-v));        /* WNN_RNN_SIGMOID */
  }
}

wnn_status wnn_ref_rnn(const wnn_run_ctx *ctx) {
  const wnn_simple_rnn_params *p = ctx->params;
  const wnn_tensor *X = &ctx->inputs[0];
  const float *x = X->data, *w = ctx->inputs[1].data, *r = ctx->inputs[2].data;
  const float *bias = ctx->num_inputs > 3 ? ctx->inputs[3].data : NULL;
  const void *lens = ctx->num_inputs > 4 ? ctx->inputs[4].data : NULL;
  const float *h0 = ctx->num_inputs > 5 ? ctx->inputs[5].data : NULL;
  float *y = ctx->outputs[0].data, *yh = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  const int64_t S = (int64_t)p->seq, B = (int64_t)p->batch, H = (int64_t)p->hidden;
  const int64_t I = (int64_t)p->input, D = p->directions;
  const int64_t ydims[4] = {p->layout ? B : S, p->layout ? S : D, p->layout ? D : B, H};
  const int64_t hdims[3] = {p->layout ? B : D, p->layout ? D : B, H};
  double h[2 * 64];
  if (H > 64) return wnn_run_fail(ctx, WNN_ERR_UNSUPPORTED, "reference RNN: hidden > 64");
  for (int64_t d = 0; d < D; d++)
    for (int64_t b = 0; b < B; b++) {
      int64_t len = S;
      if (lens) len = p->lens_dtype == WNN_DTYPE_I32 ? ((const int32_t *)lens)[b]
                                                     : ((const int64_t *)lens)[b];
      if (len < 0 || len > S) return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "sequence_lens");
      for (int64_t j = 0; j < H; j++) {
        const int64_t hi[3] = {p->layout ? b : d, p->layout ? d : b, j};
        h[j] = h0 ? h0[wnn_ref_ravel(3, hdims, hi)] : 0.0;
      }
      for (int64_t t = 0; t < S; t++) { /* Y is 0 past the length */
        for (int64_t j = 0; j < H; j++) {
          const int64_t yi[4] = {p->layout ? b : t, p->layout ? t : d, p->layout ? d : b, j};
          y[wnn_ref_ravel(4, ydims, yi)] = 0.0f;
        }
      }
      for (int64_t k = 0; k < len; k++) {
        const int64_t t = (p->reverse || d == 1) ? len - 1 - k : k;
        for (int64_t j = 0; j < H; j++) {
          double acc = bias ? (double)bias[d * 2 * H + j] + bias[d * 2 * H + H + j] : 0.0;
          for (int64_t i = 0; i < I; i++) {
            const int64_t xi[3] = {p->layout ? b : t, p->layout ? t : b, i};
            acc += (double)x[wnn_ref_ravel(3, X->dims, xi)] * w[(d * H + j) * I + i];
          }
          for (int64_t k2 = 0; k2 < H; k2++) acc += h[k2] * r[(d * H + j) * H + k2];
          if (acc > p->clip) acc = p->clip;
          if (acc < -p->clip) acc = -p->clip;
          h[H + j] = rnn_act(p->act[d], acc);
        }
        for (int64_t j = 0; j < H; j++) {
          h[j] = h[H + j];
          const int64_t yi[4] = {p->layout ? b : t, p->layout ? t : d, p->layout ? d : b, j};
          y[wnn_ref_ravel(4, ydims, yi)] = (float)h[j];
        }
      }
      for (int64_t j = 0; yh && j < H; j++) {
        const int64_t hi[3] = {p->layout ? b : d, p->layout ? d : b, j};
        yh[wnn_ref_ravel(3, hdims, hi)] = (float)h[j];
      }
    }
  return WNN_OK;
}

/* ------------------------------------------------------------ DFT, STFT */

/* X[k] = sum_n x[n] exp(-+ i 2 pi k n / N), from the definition (angle not
 * reduced), with x[n] = 0 beyond the input; in double. */
static void ref_dft_line(const float *x, size_t xs, size_t c, size_t n, float *y, size_t ys,
                         size_t m, size_t len, bool inverse, const float *w) {
  const double pi = 3.14159265358979323846;
  for (size_t k = 0; k < m; k++) {
    double re = 0.0, im = 0.0;
    for (size_t j = 0; j < len; j++) {
      if (j >= n) break;
      const double ang = (inverse ? 2.0 : -2.0) * pi * (double)k * (double)j / (double)len;
      const double a = x[j * xs] * (w ? w[j] : 1.0),
                   b = c == 2 ? x[j * xs + 1] * (w ? w[j] : 1.0) : 0.0;
      re += a * cos(ang) - b * sin(ang);
      im += a * sin(ang) + b * cos(ang);
    }
    if (inverse) re /= (double)len, im /= (double)len;
    y[k * ys] = (float)re;
    y[k * ys + 1] = (float)im;
  }
}

wnn_status wnn_ref_dft(const wnn_run_ctx *ctx) {
  const wnn_dft_params *p = ctx->params;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++)
      ref_dft_line((const float *)ctx->inputs[0].data + (o * p->n_in * p->inner + i) * p->c_in,
                   p->inner * p->c_in, p->c_in, p->n_in,
                   (float *)ctx->outputs[0].data + (o * p->n_out * p->inner + i) * 2,
                   p->inner * 2, p->n_out, p->len, p->inverse, NULL);
  return WNN_OK;
}

wnn_status wnn_ref_stft(const wnn_run_ctx *ctx) {
  const wnn_stft_params *p = ctx->params;
  const float *w = ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  for (size_t b = 0; b < p->batch; b++)
    for (size_t f = 0; f < p->frames; f++)
      ref_dft_line((const float *)ctx->inputs[0].data + (b * p->length + f * p->step) * p->c_in,
                   p->c_in, p->c_in, p->flen,
                   (float *)ctx->outputs[0].data + (b * p->frames + f) * p->bins * 2, 2, p->bins,
                   p->flen, false, w);
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

/* round half to even, then clamp to the dtype's range; NaN: the lowest value */
static void ref_requant(const wnn_tensor *y, int64_t i, double acc, float mult, int64_t zp) {
  const double lo = y->dtype == WNN_DTYPE_I8 ? -128.0 : 0.0,
               hi = y->dtype == WNN_DTYPE_I8 ? 127.0 : 255.0;
  double v = nearbyint((double)((float)acc * mult)) + (double)zp;
  v = isnan(v) || v < lo ? lo : v > hi ? hi : v;
  if (y->dtype == WNN_DTYPE_I8) ((int8_t *)y->data)[i] = (int8_t)v;
  else ((uint8_t *)y->data)[i] = (uint8_t)v;
}

static wnn_status ref_qmatmul(const wnn_run_ctx *ctx) {
  const wnn_qmatmul_params *p = ctx->params;
  const wnn_tensor *a = qin(ctx, p->in, WNN_Q_A), *b = qin(ctx, p->in, WNN_Q_B);
  const wnn_tensor *az = qin(ctx, p->in, WNN_Q_AZP), *bz = qin(ctx, p->in, WNN_Q_BZP);
  const wnn_tensor *y = &ctx->outputs[0];
  const int64_t azp = az ? q8(az, 0) : 0, bzp = bz ? q8(bz, 0) : 0;
  int64_t idx[WNN_MAX_DIMS], ai[WNN_MAX_DIMS], bi[WNN_MAX_DIMS];
  const int K = (int)p->k;
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    wnn_ref_unravel(t, y->ndim, y->dims, idx);
    /* A and B coordinates: the batch dims right-aligned, 0 where broadcast */
    for (int d = 0; d < a->ndim - 2; d++) {
      const int yd = d + (y->ndim - a->ndim);
      ai[d] = a->dims[d] == 1 ? 0 : idx[yd];
    }
    for (int d = 0; d < b->ndim - 2; d++) {
      const int yd = d + (y->ndim - b->ndim);
      bi[d] = b->dims[d] == 1 ? 0 : idx[yd];
    }
    int64_t acc = 0;
    for (int k = 0; k < K; k++) {
      ai[a->ndim - 2] = idx[y->ndim - 2], ai[a->ndim - 1] = k;
      bi[b->ndim - 2] = k, bi[b->ndim - 1] = idx[y->ndim - 1];
      acc +=
          (q8(a, wnn_ref_ravel(a->ndim, a->dims, ai)) - azp) * (q8(b, wnn_ref_ravel(b->ndim, b->dims, bi)) - bzp);
    }
    if (!p->qlinear) {
      ((int32_t *)y->data)[t] = (int32_t)(uint32_t)(uint64_t)acc;
    } else {
      const float *as = qin(ctx, p->in, WNN_Q_ASCALE)->data,
                  *bs = qin(ctx, p->in, WNN_Q_BSCALE)->data;
      const float *ys = qin(ctx, p->in, WNN_Q_YSCALE)->data;
      ref_requant(y, t, (double)acc, as[0] * bs[0] / ys[0], q8(qin(ctx, p->in, WNN_Q_YZP), 0));
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_matmulinteger(const wnn_run_ctx *ctx) { return ref_qmatmul(ctx); }
wnn_status wnn_ref_qlinearmatmul(const wnn_run_ctx *ctx) { return ref_qmatmul(ctx); }

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
      ref_requant(y, t, acc, mult, q8(qin(ctx, p->in, WNN_Q_YZP), 0));
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_convinteger(const wnn_run_ctx *ctx) { return ref_qconv(ctx); }
wnn_status wnn_ref_qlinearconv(const wnn_run_ctx *ctx) { return ref_qconv(ctx); }

/* -------------------------------------------------------------- RoiAlign */

/* X at (row, col) of plane, bilinearly, with the RoiAlign edge rules; for max,
 * the largest weighted corner term. In double. */
static double ref_roi_sample(const float *plane, int64_t h, int64_t w, double y, double x,
                             bool max_mode) {
  if (y < -1.0 || y > (double)h || x < -1.0 || x > (double)w) return 0.0;
  y = y <= 0.0 ? 0.0 : y;
  x = x <= 0.0 ? 0.0 : x;
  int64_t ylo = (int64_t)floor(y), xlo = (int64_t)floor(x);
  int64_t yhi = ylo + 1, xhi = xlo + 1;
  if (ylo >= h - 1) ylo = yhi = h - 1, y = (double)ylo;
  if (xlo >= w - 1) xlo = xhi = w - 1, x = (double)xlo;
  const double ly = y - (double)ylo, lx = x - (double)xlo;
  const double t[4] = {(1 - ly) * (1 - lx) * plane[ylo * w + xlo],
                       (1 - ly) * lx * plane[ylo * w + xhi], ly * (1 - lx) * plane[yhi * w + xlo],
                       ly * lx * plane[yhi * w + xhi]};
  if (!max_mode) return t[0] + t[1] + t[2] + t[3];
  return fmax(fmax(t[0], t[1]), fmax(t[2], t[3]));
}

wnn_status wnn_ref_roialign(const wnn_run_ctx *ctx) {
  const wnn_roialign_params *p = ctx->params;
  const float *x = ctx->inputs[0].data, *rois = ctx->inputs[1].data;
  const int64_t *bi = ctx->inputs[2].data;
  float *y = ctx->outputs[0].data;
  const double off = p->half_pixel ? 0.5 : 0.0;
  for (size_t r = 0; r < p->num_rois; r++) {
    if (bi[r] < 0 || bi[r] >= (int64_t)p->n)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "batch index %lld", (long long)bi[r]);
    const double sx = rois[r * 4] * (double)p->spatial_scale - off;
    const double sy = rois[r * 4 + 1] * (double)p->spatial_scale - off;
    double rw = rois[r * 4 + 2] * (double)p->spatial_scale - off - sx;
    double rh = rois[r * 4 + 3] * (double)p->spatial_scale - off - sy;
    if (!p->half_pixel) rw = fmax(rw, 1.0), rh = fmax(rh, 1.0);
    const int64_t gh = p->sampling_ratio ? p->sampling_ratio : (int64_t)ceil(rh / (double)p->oh);
    const int64_t gw = p->sampling_ratio ? p->sampling_ratio : (int64_t)ceil(rw / (double)p->ow);
    for (size_t c = 0; c < p->c; c++)
      for (size_t ph = 0; ph < p->oh; ph++)
        for (size_t pw = 0; pw < p->ow; pw++) {
          double acc = 0.0, best = 0.0;
          for (int64_t iy = 0; iy < gh; iy++)
            for (int64_t ix = 0; ix < gw; ix++) {
              const double yy =
                  sy + rh / (double)p->oh * ((double)ph + ((double)iy + 0.5) / (double)gh);
              const double xx =
                  sx + rw / (double)p->ow * ((double)pw + ((double)ix + 0.5) / (double)gw);
              const double v = ref_roi_sample(x + ((size_t)bi[r] * p->c + c) * p->h * p->w,
                                              (int64_t)p->h, (int64_t)p->w, yy, xx, p->max_mode);
              acc += v;
              best = iy == 0 && ix == 0 ? v : fmax(best, v);
            }
          const double n = gh * gw > 0 ? (double)(gh * gw) : 1.0;
          y[((r * p->c + c) * p->oh + ph) * p->ow + pw] = (float)(p->max_mode ? best : acc / n);
        }
  }
  return WNN_OK;
}

/* ------------------------------------------------------- MelWeightMatrix */

/* Per output element: which filter (column) and bin (row), the filter's
 * three points, and the triangle's value there (the rising edge first, the
 * falling edge overwriting at the peak, as the definition's loops do). */
wnn_status wnn_ref_melweightmatrix(const wnn_run_ctx *ctx) {
  const wnn_melweight_params *p = ctx->params;
  const int64_t rate = p->rate_dtype == WNN_DTYPE_I32 ? *(const int32_t *)ctx->inputs[2].data
                                                      : *(const int64_t *)ctx->inputs[2].data;
  if (rate <= 0) return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "sample_rate");
  const double lo = *(const float *)ctx->inputs[3].data, hi = *(const float *)ctx->inputs[4].data;
  const double m0 = 2595.0 * log10(1.0 + lo / 700.0), m1 = 2595.0 * log10(1.0 + hi / 700.0);
  float *y = ctx->outputs[0].data;
  for (size_t j = 0; j < p->bins; j++)
    for (size_t i = 0; i < p->mels; i++) {
      int64_t pt[3];
      for (int k = 0; k < 3; k++) {
        const double mel = m0 + (double)(i + (size_t)k) * (m1 - m0) / (double)(p->mels + 2);
        const double hz = 700.0 * (pow(10.0, mel / 2595.0) - 1.0);
        pt[k] = (int64_t)floor((double)(p->dft_length + 1) * hz / (double)rate);
      }
      const int64_t jj = (int64_t)j;
      double v = 0.0;
      if (pt[1] == pt[0]) {
        if (jj == pt[1]) v = 1.0;
      } else if (jj >= pt[0] && jj <= pt[1]) {
        v = (double)(jj - pt[0]) / (double)(pt[1] - pt[0]);
      }
      if (pt[2] > pt[1] && jj >= pt[1] && jj < pt[2])
        v = (double)(pt[2] - jj) / (double)(pt[2] - pt[1]);
      y[j * p->mels + i] = (float)v;
    }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
