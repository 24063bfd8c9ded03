/* Reference math, activation, reduction and logic ops: direct loops from the
 * ONNX definitions, in double where the op computes, sharing no code with the
 * kernels. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"
#include "ref/ref.h"

/* Linear index into t of the output element at idx (numpy broadcasting). */
static int64_t bindex(const wnn_tensor *t, int out_nd, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < t->ndim; i++) {
    const int64_t d = t->dims[i];
    off = off * d + (d == 1 ? 0 : idx[i + out_nd - t->ndim]);
  }
  return off;
}

static double get_f(const wnn_tensor *t, int64_t i) {
  switch (t->dtype) {
    case WNN_DTYPE_F32: return ((const float *)t->data)[i];
    case WNN_DTYPE_I32: return ((const int32_t *)t->data)[i];
    case WNN_DTYPE_I64: return (double)((const int64_t *)t->data)[i];
    case WNN_DTYPE_I8: return ((const int8_t *)t->data)[i];
    case WNN_DTYPE_U8: return ((const uint8_t *)t->data)[i];
    default: return ((const uint8_t *)t->data)[i] != 0; /* bool */
  }
}

static int64_t get_i(const wnn_tensor *t, int64_t i) {
  switch (t->dtype) {
    case WNN_DTYPE_I32: return ((const int32_t *)t->data)[i];
    case WNN_DTYPE_I64: return ((const int64_t *)t->data)[i];
    case WNN_DTYPE_F32: {
      /* Read for every dtype, used only for integer ones: a float that no
       * int64 holds (NaN, inf, huge) must not be converted (undefined
       * behaviour, which clang's UBSan reports). */
      float f = ((const float *)t->data)[i];
      return f > -9.2e18f && f < 9.2e18f ? (int64_t)f : 0;
    }
    case WNN_DTYPE_I8: return ((const int8_t *)t->data)[i];
    case WNN_DTYPE_U8: return ((const uint8_t *)t->data)[i];
    default: return ((const uint8_t *)t->data)[i] != 0; /* bool */
  }
}

static void put(const wnn_tensor *t, int64_t i, double f, int64_t v) {
  switch (t->dtype) {
    case WNN_DTYPE_F32: ((float *)t->data)[i] = (float)f; break;
    case WNN_DTYPE_I32: ((int32_t *)t->data)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
    case WNN_DTYPE_I64: ((int64_t *)t->data)[i] = v; break;
    case WNN_DTYPE_I8: ((int8_t *)t->data)[i] = (int8_t)(uint8_t)(uint64_t)v; break;
    case WNN_DTYPE_U8: ((uint8_t *)t->data)[i] = (uint8_t)(uint64_t)v; break;
    default: ((uint8_t *)t->data)[i] = v != 0; break; /* bool */
  }
}

/* --------------------------------------------------------------- unary */

static double vmath(int op, double x, double alpha, double beta) {
  switch (op) {
    case WNN_VMATH_EXP: return exp(x);
    case WNN_VMATH_LOG: return log(x);
    case WNN_VMATH_SQRT: return sqrt(x);
    case WNN_VMATH_NEG: return -x;
    case WNN_VMATH_ABS: return fabs(x);
    case WNN_VMATH_ERF: return erf(x);
    case WNN_VMATH_TANH: return tanh(x);
    case WNN_VMATH_RECIPROCAL: return 1.0 / x;
    case WNN_VMATH_FLOOR: return floor(x);
    case WNN_VMATH_CEIL: return ceil(x);
    case WNN_VMATH_LEAKYRELU: return x < 0 ? alpha * x : x;
    case WNN_VMATH_HARDSIGMOID: return isnan(x) ? x : fmax(0.0, fmin(1.0, alpha * x + beta));
    case WNN_VMATH_HARDSWISH: return isnan(x) ? x : x * fmax(0.0, fmin(1.0, x / 6.0 + 0.5));
    case WNN_VMATH_ELU: return x < 0 ? alpha * (exp(x) - 1.0) : x;
    case WNN_VMATH_SELU: return x <= 0 ? beta * (alpha * exp(x) - alpha) : beta * x;
    case WNN_VMATH_SOFTPLUS: return x > 30 ? x : log(1.0 + exp(x));
    case WNN_VMATH_SOFTSIGN: return x / (1.0 + fabs(x));
    case WNN_VMATH_SIGN: return x > 0 ? 1.0 : (x < 0 ? -1.0 : x);
    case WNN_VMATH_SIN: return sin(x);
    case WNN_VMATH_COS: return cos(x);
    case WNN_VMATH_ROUND: { /* half to even */
      double r = floor(x + 0.5);
      if (r - x == 0.5 && fmod(r, 2.0) != 0.0) r -= 1.0;
      return r;
    }
    case WNN_VMATH_GELU: return 0.5 * x * erfc(-x / sqrt(2.0));
    case WNN_VMATH_GELU_TANH:
      return 0.5 * x * (1.0 + tanh(sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
    default: return NAN;
  }
}

static wnn_status ref_vmath(const wnn_run_ctx *ctx) {
  const wnn_vmath_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  if (x->dtype != WNN_DTYPE_F32) { /* Neg, Abs, Sign of int32 / int64, wrapping */
    for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
      const int64_t v = get_i(x, i);
      const int64_t neg = (int64_t)(0 - (uint64_t)v);
      put(&ctx->outputs[0], i, 0,
          p->op == WNN_VMATH_NEG ? neg : p->op == WNN_VMATH_ABS ? (v < 0 ? neg : v) : (v > 0) - (v < 0));
    }
    return WNN_OK;
  }
  const float *in = x->data;
  float *out = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++)
    out[i] = (float)vmath(p->op, in[i], p->p.alpha, p->p.beta);
  return WNN_OK;
}

#define REF_VMATH(sym) \
  wnn_status wnn_ref_##sym(const wnn_run_ctx *ctx) { return ref_vmath(ctx); }
REF_VMATH(exp)
REF_VMATH(log)
REF_VMATH(sqrt)
REF_VMATH(neg)
REF_VMATH(abs)
REF_VMATH(erf)
REF_VMATH(tanh)
REF_VMATH(reciprocal)
REF_VMATH(floor)
REF_VMATH(ceil)
REF_VMATH(leakyrelu)
REF_VMATH(hardsigmoid)
REF_VMATH(hardswish)
REF_VMATH(elu)
REF_VMATH(selu)
REF_VMATH(softplus)
REF_VMATH(softsign)
REF_VMATH(sign)
REF_VMATH(sin)
REF_VMATH(cos)
REF_VMATH(round)
REF_VMATH(gelu)

/* -------------------------------------------------------------- binary */

/* One element of a two-operand op; ints in int64 with wrap-around, results
 * put() to y's dtype. */
static void binop(int op, const wnn_tensor *a, int64_t ia, const wnn_tensor *b, int64_t ib,
                  const wnn_tensor *y, int64_t iy) {
  const bool f = a->dtype == WNN_DTYPE_F32;
  const double fa = get_f(a, ia), fb = get_f(b, ib);
  const int64_t va = get_i(a, ia), vb = get_i(b, ib);
  switch (op) {
    case WNN_VBIN_ADD:
      put(y, iy, fa + fb, (int64_t)((uint64_t)va + (uint64_t)vb));
      return;
    case WNN_VBIN_MIN:
      put(y, iy, isnan(fa) || isnan(fb) ? NAN : fmin(fa, fb), va < vb ? va : vb);
      return;
    case WNN_VBIN_MAX:
      put(y, iy, isnan(fa) || isnan(fb) ? NAN : fmax(fa, fb), va > vb ? va : vb);
      return;
    case WNN_VBIN_POW: case WNN_VBIN_POW_S32: case WNN_VBIN_POW_S64: {
      if (f) {
        put(y, iy, pow(fa, fb), 0);
        return;
      }
      /* Integer base: a float exponent goes through double pow, truncated (0
       * when NaN or out of range); an integer one multiplies exactly, wrapping. */
      int64_t r = 0;
      if (op == WNN_VBIN_POW) {
        const double d = trunc(pow(fa, fb));
        const double lim = y->dtype == WNN_DTYPE_I32 ? 2147483647.0 : 9223372036854774784.0;
        r = d >= -lim - (y->dtype == WNN_DTYPE_I32) && d <= lim ? (int64_t)d : 0;
      } else if (vb < 0) {
        r = va == 1 ? 1 : va == -1 ? (vb % 2 ? -1 : 1) : 0;
      } else {
        uint64_t acc = 1;
        for (int64_t k = 0; k < vb; k++) acc *= (uint64_t)va;
        r = (int64_t)acc;
      }
      put(y, iy, 0, r);
      return;
    }
    case WNN_VBIN_PRELU: put(y, iy, fa < 0 ? fa * fb : fa, 0); return;
    case WNN_VBIN_EQ: put(y, iy, 0, f ? fa == fb : va == vb); return;
    case WNN_VBIN_LT: put(y, iy, 0, f ? fa < fb : va < vb); return;
    case WNN_VBIN_LE: put(y, iy, 0, f ? fa <= fb : va <= vb); return;
    case WNN_VBIN_GT: put(y, iy, 0, f ? fa > fb : va > vb); return;
    case WNN_VBIN_GE: put(y, iy, 0, f ? fa >= fb : va >= vb); return;
    case WNN_VBIN_AND: put(y, iy, 0, va && vb); return;
    case WNN_VBIN_OR: put(y, iy, 0, va || vb); return;
    case WNN_VBIN_XOR: put(y, iy, 0, (va != 0) != (vb != 0)); return;
    case WNN_VBIN_FMOD: case WNN_VBIN_MOD: {
      if (f) {
        put(y, iy, fmod(fa, fb), 0);
        return;
      }
      /* Truncated remainder (0 for a zero divisor), then for MOD moved to
       * the divisor's sign. */
      int64_t r = vb == 0 || vb == -1 ? 0 : va % vb;
      if (op == WNN_VBIN_MOD && r != 0 && (r < 0) != (vb < 0)) r += vb;
      put(y, iy, 0, r);
      return;
    }
    default: return;
  }
}

static wnn_status ref_two(const wnn_run_ctx *ctx) {
  const wnn_xbinary_params *p = ctx->params;
  const wnn_tensor *a = &ctx->inputs[0], *b = &ctx->inputs[1], *y = &ctx->outputs[0];
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    wnn_ref_unravel(t, y->ndim, y->dims, idx);
    binop(p->op, a, bindex(a, y->ndim, idx), b, bindex(b, y->ndim, idx), y, t);
  }
  return WNN_OK;
}

#define REF_TWO(sym) \
  wnn_status wnn_ref_##sym(const wnn_run_ctx *ctx) { return ref_two(ctx); }
REF_TWO(pow)
REF_TWO(prelu)
REF_TWO(mod)
REF_TWO(equal)
REF_TWO(less)
REF_TWO(lessorequal)
REF_TWO(greater)
REF_TWO(greaterorequal)
REF_TWO(and)
REF_TWO(or)
REF_TWO(xor)

/* Min, Max, Sum, Mean: each output element folds the inputs in order. */
static wnn_status ref_variadic(const wnn_run_ctx *ctx) {
  const wnn_xbinary_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    wnn_ref_unravel(t, y->ndim, y->dims, idx);
    const wnn_tensor *x0 = &ctx->inputs[0];
    double facc = get_f(x0, bindex(x0, y->ndim, idx));
    int64_t iacc = get_i(x0, bindex(x0, y->ndim, idx));
    for (int k = 1; k < ctx->num_inputs; k++) {
      const wnn_tensor *x = &ctx->inputs[k];
      const int64_t i = bindex(x, y->ndim, idx);
      const double fv = get_f(x, i);
      const int64_t iv = get_i(x, i);
      switch (p->op) {
        case WNN_VBIN_MIN:
          facc = isnan(facc) || isnan(fv) ? NAN : fmin(facc, fv);
          iacc = iv < iacc ? iv : iacc;
          break;
        case WNN_VBIN_MAX:
          facc = isnan(facc) || isnan(fv) ? NAN : fmax(facc, fv);
          iacc = iv > iacc ? iv : iacc;
          break;
        default:
          facc += fv;
          iacc = (int64_t)((uint64_t)iacc + (uint64_t)iv);
          break;
      }
    }
    if (p->mean) facc /= ctx->num_inputs;
    put(y, t, facc, iacc);
  }
  return WNN_OK;
}

wnn_status wnn_ref_min(const wnn_run_ctx *ctx) { return ref_variadic(ctx); }
wnn_status wnn_ref_max(const wnn_run_ctx *ctx) { return ref_variadic(ctx); }
wnn_status wnn_ref_sum(const wnn_run_ctx *ctx) { return ref_variadic(ctx); }
wnn_status wnn_ref_mean(const wnn_run_ctx *ctx) { return ref_variadic(ctx); }

/* ---------------------------------------------------------- LogSoftmax */

wnn_status wnn_ref_logsoftmax(const wnn_run_ctx *ctx) {
  const wnn_softmax_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++) {
      const size_t base = o * p->n * p->inner + i;
      double max = -INFINITY, sum = 0.0;
      for (size_t k = 0; k < p->n; k++) max = fmax(max, x[base + k * p->inner]);
      for (size_t k = 0; k < p->n; k++) sum += exp(x[base + k * p->inner] - max);
      for (size_t k = 0; k < p->n; k++)
        y[base + k * p->inner] = (float)(x[base + k * p->inner] - max - log(sum));
    }
  return WNN_OK;
}

/* ---------------------------------------------------------- reductions */

/* For each output element, every input element whose kept coordinates are
 * the output's is folded in, in double. */
static wnn_status ref_reduce(const wnn_run_ctx *ctx) {
  const wnn_reduce_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const int64_t nx = wnn_ref_numel(x);
  if (p->copy) {
    for (int64_t i = 0; i < nx; i++) put(y, i, get_f(x, i), get_i(x, i));
    return WNN_OK;
  }
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t t = 0; t < wnn_ref_numel(y); t++) {
    double acc = 0.0, max = -INFINITY, cnt = 0.0;
    double min = INFINITY, prod = 1.0;
    /* integers: exact int64 folds, wrapped to the type by put() */
    int64_t isum = 0, iprod = 1, imax = x->dtype == WNN_DTYPE_I32 ? INT32_MIN : INT64_MIN;
    int64_t imin = x->dtype == WNN_DTYPE_I32 ? INT32_MAX : INT64_MAX;
    bool nan = false;
    for (int64_t i = 0; i < nx; i++) {
      wnn_ref_unravel(i, x->ndim, x->dims, idx);
      int64_t o = 0; /* the output index: the kept coordinates */
      for (int d = 0; d < x->ndim; d++)
        if (!p->axis_reduced[d]) o = o * x->dims[d] + idx[d];
      if (o != t) continue;
      const double v = get_f(x, i);
      const int64_t iv = get_i(x, i);
      isum = (int64_t)((uint64_t)isum + (uint64_t)iv);
      iprod = (int64_t)((uint64_t)iprod * (uint64_t)iv);
      imax = iv > imax ? iv : imax, imin = iv < imin ? iv : imin;
      cnt += 1.0;
      if (isnan(v)) nan = true;
      max = fmax(max, v), min = fmin(min, v), prod *= v;
      switch (p->op) {
        case WNN_RED_SUMSQUARE: case WNN_RED_L2: acc += v * v; break;
        case WNN_RED_L1: acc += fabs(v); break;
        default: acc += v; break;
      }
    }
    double r;
    int64_t ir = isum;
    switch (p->op) {
      case WNN_RED_MEAN: r = acc / cnt; break;
      case WNN_RED_MAX: r = nan ? NAN : max, ir = imax; break;
      case WNN_RED_MIN: r = nan ? NAN : min, ir = imin; break;
      case WNN_RED_PROD: r = prod, ir = iprod; break;
      case WNN_RED_L2: r = sqrt(acc); break;
      case WNN_RED_LOGSUMEXP: {
        if (nan || !isfinite(max)) {
          r = nan ? NAN : max;
          break;
        }
        double s = 0.0;
        for (int64_t i = 0; i < nx; i++) {
          wnn_ref_unravel(i, x->ndim, x->dims, idx);
          int64_t o = 0;
          for (int d = 0; d < x->ndim; d++)
            if (!p->axis_reduced[d]) o = o * x->dims[d] + idx[d];
          if (o == t) s += exp(get_f(x, i) - max);
        }
        r = max + log(s);
        break;
      }
      default: r = acc; break;
    }
    put(y, t, r, ir);
  }
  return WNN_OK;
}

#define REF_REDUCE(sym) \
  wnn_status wnn_ref_##sym(const wnn_run_ctx *ctx) { return ref_reduce(ctx); }
REF_REDUCE(reducesum)
REF_REDUCE(reducemean)
REF_REDUCE(reducemax)
REF_REDUCE(reducemin)
REF_REDUCE(reduceprod)
REF_REDUCE(reducesumsquare)
REF_REDUCE(reducel1)
REF_REDUCE(reducel2)
REF_REDUCE(reducelogsumexp)

static wnn_status ref_arg(const wnn_run_ctx *ctx) {
  const wnn_argreduce_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  int64_t *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++) {
      int64_t best = 0;
      for (size_t k = 1; k < p->n; k++) {
        const int64_t cur = (int64_t)((o * p->n + k) * p->inner + i);
        const int64_t bi = (int64_t)((o * p->n + (size_t)best) * p->inner + i);
        const double v = get_f(x, cur), b = get_f(x, bi);
        /* int64 values beyond 2^53 compare exactly as integers */
        const int cmp = x->dtype == WNN_DTYPE_I64
                            ? (get_i(x, cur) > get_i(x, bi)) - (get_i(x, cur) < get_i(x, bi))
                            : (v > b) - (v < b);
        if ((p->is_max ? cmp > 0 : cmp < 0) || (p->select_last && cmp == 0 && v == b))
          best = (int64_t)k;
      }
      y[o * p->inner + i] = best;
    }
  return WNN_OK;
}

wnn_status wnn_ref_argmax(const wnn_run_ctx *ctx) { return ref_arg(ctx); }
wnn_status wnn_ref_argmin(const wnn_run_ctx *ctx) { return ref_arg(ctx); }

/* --------------------------------------------------------------- logic */

wnn_status wnn_ref_not(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const uint8_t *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) out[i] = !in[i];
  return WNN_OK;
}

wnn_status wnn_ref_isnan(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const float *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) out[i] = in[i] != in[i];
  return WNN_OK;
}

wnn_status wnn_ref_isinf(const wnn_run_ctx *ctx) {
  const bool *flags = ctx->params; /* detect_negative, detect_positive */
  const wnn_tensor *x = &ctx->inputs[0];
  const float *in = x->data;
  uint8_t *out = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++)
    out[i] = isinf(in[i]) && (in[i] > 0 ? flags[1] : flags[0]);
  return WNN_OK;
}

wnn_status wnn_ref_where(const wnn_run_ctx *ctx) {
  const wnn_tensor *c = &ctx->inputs[0], *x = &ctx->inputs[1], *yv = &ctx->inputs[2];
  const wnn_tensor *out = &ctx->outputs[0];
  const size_t es = wnn_dtype_size(out->dtype);
  int64_t idx[WNN_MAX_DIMS];
  for (int64_t t = 0; t < wnn_ref_numel(out); t++) {
    wnn_ref_unravel(t, out->ndim, out->dims, idx);
    const bool take_x = ((const uint8_t *)c->data)[bindex(c, out->ndim, idx)] != 0;
    const wnn_tensor *src = take_x ? x : yv;
    memcpy((char *)out->data + (size_t)t * es,
           (const char *)src->data + (size_t)bindex(src, out->ndim, idx) * es, es);
  }
  return WNN_OK;
}
#endif /* WNN_WITH_REFERENCE */
