/* Reference binary, variadic and comparison math ops (src/ops/math_binary.c), with numpy
 * broadcasting, in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/math_internal.h"
#include "ref/ref.h"

/* -------------------------------------------------------------- binary */

/* One element of a two-operand op; ints in int64 with wrap-around, results
 * wnn_ref_put() to y's dtype. */
static void binop(int op, const wnn_tensor *a, int64_t ia, const wnn_tensor *b, int64_t ib,
                  const wnn_tensor *y, int64_t iy) {
  const bool f = a->dtype == WNN_DTYPE_F32;
  const double fa = wnn_ref_get_f(a, ia), fb = wnn_ref_get_f(b, ib);
  const int64_t va = wnn_ref_get_i(a, ia), vb = wnn_ref_get_i(b, ib);
  switch (op) {
    case WNN_VBIN_ADD:
      wnn_ref_put(y, iy, fa + fb, (int64_t)((uint64_t)va + (uint64_t)vb));
      return;
    case WNN_VBIN_MIN:
      wnn_ref_put(y, iy, isnan(fa) || isnan(fb) ? NAN : fmin(fa, fb), va < vb ? va : vb);
      return;
    case WNN_VBIN_MAX:
      wnn_ref_put(y, iy, isnan(fa) || isnan(fb) ? NAN : fmax(fa, fb), va > vb ? va : vb);
      return;
    case WNN_VBIN_POW: case WNN_VBIN_POW_S32: case WNN_VBIN_POW_S64: {
      if (f) {
        wnn_ref_put(y, iy, pow(fa, fb), 0);
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
      wnn_ref_put(y, iy, 0, r);
      return;
    }
    case WNN_VBIN_PRELU: wnn_ref_put(y, iy, fa < 0 ? fa * fb : fa, 0); return;
    case WNN_VBIN_EQ: wnn_ref_put(y, iy, 0, f ? fa == fb : va == vb); return;
    case WNN_VBIN_LT: wnn_ref_put(y, iy, 0, f ? fa < fb : va < vb); return;
    case WNN_VBIN_LE: wnn_ref_put(y, iy, 0, f ? fa <= fb : va <= vb); return;
    case WNN_VBIN_GT: wnn_ref_put(y, iy, 0, f ? fa > fb : va > vb); return;
    case WNN_VBIN_GE: wnn_ref_put(y, iy, 0, f ? fa >= fb : va >= vb); return;
    case WNN_VBIN_AND: wnn_ref_put(y, iy, 0, va && vb); return;
    case WNN_VBIN_OR: wnn_ref_put(y, iy, 0, va || vb); return;
    case WNN_VBIN_XOR: wnn_ref_put(y, iy, 0, (va != 0) != (vb != 0)); return;
    case WNN_VBIN_FMOD: case WNN_VBIN_MOD: {
      if (f) {
        wnn_ref_put(y, iy, fmod(fa, fb), 0);
        return;
      }
      /* Truncated remainder (0 for a zero divisor), then for MOD moved to
       * the divisor's sign. */
      int64_t r = vb == 0 || vb == -1 ? 0 : va % vb;
      if (op == WNN_VBIN_MOD && r != 0 && (r < 0) != (vb < 0)) r += vb;
      wnn_ref_put(y, iy, 0, r);
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
    binop(p->op, a, wnn_ref_bindex(a, y->ndim, idx), b, wnn_ref_bindex(b, y->ndim, idx), y, t);
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
    double facc = wnn_ref_get_f(x0, wnn_ref_bindex(x0, y->ndim, idx));
    int64_t iacc = wnn_ref_get_i(x0, wnn_ref_bindex(x0, y->ndim, idx));
    for (int k = 1; k < ctx->num_inputs; k++) {
      const wnn_tensor *x = &ctx->inputs[k];
      const int64_t i = wnn_ref_bindex(x, y->ndim, idx);
      const double fv = wnn_ref_get_f(x, i);
      const int64_t iv = wnn_ref_get_i(x, i);
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
    wnn_ref_put(y, t, facc, iacc);
  }
  return WNN_OK;
}

wnn_status wnn_ref_min(const wnn_run_ctx *ctx) { return ref_variadic(ctx); }
wnn_status wnn_ref_max(const wnn_run_ctx *ctx) { return ref_variadic(ctx); }
wnn_status wnn_ref_sum(const wnn_run_ctx *ctx) { return ref_variadic(ctx); }
wnn_status wnn_ref_mean(const wnn_run_ctx *ctx) { return ref_variadic(ctx); }

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

#endif /* WNN_WITH_REFERENCE */
