/* Reference quantized element-wise ops (src/ops/quant_ew.c): direct loops from
 * the definitions, sharing no code with the run functions. Built only with
 * WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>

#include "ops/quant_ew_internal.h"
#include "ref/ref.h"

/* The table entry of each element: its value, plus 256 when an int8 is
 * negative (its two's-complement byte). */
wnn_status wnn_ref_qlookup(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0];
  const bool s8 = x->dtype == WNN_DTYPE_I8;
  const unsigned char *t = ctx->inputs[1].data;
  unsigned char *y = ctx->outputs[0].data;
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
    int v = s8 ? ((const signed char *)x->data)[i] : ((const unsigned char *)x->data)[i];
    y[i] = t[v < 0 ? v + 256 : v];
  }
  return WNN_OK;
}

/* Element by element, from the definition: each operand dequantized
 * (float32 products), the op, QuantizeLinear (round half to even, clamped),
 * Relu as relu before quantizing. In double, each step rounded to float32
 * where the unfused float graph rounds (for + * / of float32 values, the
 * double result rounded once is the float32 result). */
static double q8_get(const wnn_tensor *t, int64_t i) {
  return t->dtype == WNN_DTYPE_I8 ? ((const signed char *)t->data)[i]
                                  : ((const unsigned char *)t->data)[i];
}

static wnn_status ref_qbinary(const wnn_run_ctx *ctx, bool mul) {
  const wnn_qbinary_params *p = ctx->params;
  const wnn_tensor *a = &ctx->inputs[0], *b = &ctx->inputs[3], *y = &ctx->outputs[0];
  const double azp = ctx->inputs[2].data ? q8_get(&ctx->inputs[2], 0) : 0.0;
  const double bzp = ctx->inputs[5].data ? q8_get(&ctx->inputs[5], 0) : 0.0;
  const double czp = ctx->num_inputs > 7 && ctx->inputs[7].data ? q8_get(&ctx->inputs[7], 0) : 0.0;
  const float as = *(const float *)ctx->inputs[1].data, bs = *(const float *)ctx->inputs[4].data;
  const float cs = *(const float *)ctx->inputs[6].data;
  const bool s8 = y->dtype == WNN_DTYPE_I8;
  const int64_t total = wnn_ref_numel(y);
  for (int64_t t = 0; t < total; t++) {
    int64_t idx[WNN_MAX_DIMS], rest = t;
    for (int i = y->ndim - 1; i >= 0; i--) idx[i] = rest % y->dims[i], rest /= y->dims[i];
    const float fa = (float)((q8_get(a, wnn_ref_bindex(a, y->ndim, idx)) - azp) * as);
    const float fb = (float)((q8_get(b, wnn_ref_bindex(b, y->ndim, idx)) - bzp) * bs);
    float v = mul ? (float)((double)fa * fb) : (float)((double)fa + fb);
    if (p->relu && v < 0.0f) v = 0.0f;
    double q = nearbyint((double)(float)((double)v / cs)) + czp;
    const double lo = s8 ? -128.0 : 0.0, hi = s8 ? 127.0 : 255.0;
    q = isnan(q) || q < lo ? lo : q > hi ? hi : q;
    if (s8) ((signed char *)y->data)[t] = (signed char)q;
    else ((unsigned char *)y->data)[t] = (unsigned char)q;
  }
  return WNN_OK;
}

wnn_status wnn_ref_qlinearadd(const wnn_run_ctx *ctx) { return ref_qbinary(ctx, false); }
wnn_status wnn_ref_qlinearmul(const wnn_run_ctx *ctx) { return ref_qbinary(ctx, true); }

/* Each plane's elements dequantized in float32 and summed in four partial
 * sums s_l of the elements i with i % 4 == l (the tail of fewer than four
 * in s0), ((s0 + s1) + (s2 + s3)) * (1 / n): the float32 arithmetic wnn's
 * GlobalAveragePool defines (src/kernels/f32_gavgpool__scalar.c), which the
 * unfused chain runs; then QuantizeLinear. */
wnn_status wnn_ref_qlinearglobalaveragepool(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const double xzp = ctx->inputs[2].data ? q8_get(&ctx->inputs[2], 0) : 0.0;
  const double yzp = ctx->num_inputs > 4 && ctx->inputs[4].data ? q8_get(&ctx->inputs[4], 0) : 0.0;
  const float xs = *(const float *)ctx->inputs[1].data, ys = *(const float *)ctx->inputs[3].data;
  const int64_t planes = x->dims[0] * x->dims[1], n = wnn_ref_numel(x) / (planes ? planes : 1);
  const bool s8 = y->dtype == WNN_DTYPE_I8;
  for (int64_t r = 0; r < planes; r++) {
    float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t i = 0; i < n; i++) {
      const float v = (float)((q8_get(x, r * n + i) - xzp) * xs);
      const int lane = i < n - n % 4 ? (int)(i % 4) : 0;
      s[lane] = (float)((double)s[lane] + v);
    }
    const float mean = (float)((double)(float)((double)(float)((double)s[0] + s[1]) +
                                               (float)((double)s[2] + s[3])) *
                               (float)(1.0 / (double)n));
    double q = nearbyint((double)(float)((double)mean / ys)) + yzp;
    const double lo = s8 ? -128.0 : 0.0, hi = s8 ? 127.0 : 255.0;
    q = isnan(q) || q < lo ? lo : q > hi ? hi : q;
    if (s8) ((signed char *)y->data)[r] = (signed char)q;
    else ((unsigned char *)y->data)[r] = (unsigned char)q;
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
