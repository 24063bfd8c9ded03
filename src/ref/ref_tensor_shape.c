/* Reference shape, indexing and type ops: element by element, through
 * coordinates, written from the ONNX definitions. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/tensor_internal.h"
#include "ref/ref.h"

wnn_status wnn_ref_shape(const wnn_run_ctx *ctx) {
  const wnn_shape_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  for (int64_t k = 0; k < y->dims[0]; k++) ((int64_t *)y->data)[k] = x->dims[p->start + k];
  return WNN_OK;
}

wnn_status wnn_ref_size(const wnn_run_ctx *ctx) {
  int64_t n = 1;
  for (int d = 0; d < ctx->inputs[0].ndim; d++) n *= ctx->inputs[0].dims[d];
  *(int64_t *)ctx->outputs[0].data = n;
  return WNN_OK;
}

/* Integers keep their low bits when narrowed; floats truncate toward zero,
 * NaN giving 0 and values past int64 saturating. */
static int64_t as_int(wnn_dtype dtype, const void *data, int64_t i) {
  switch (dtype) {
    case WNN_DTYPE_F32:
    case WNN_DTYPE_F64: {
      const double v = dtype == WNN_DTYPE_F32 ? ((const float *)data)[i] : ((const double *)data)[i];
      if (v != v) return 0;
      if (v >= 9223372036854775807.0) return INT64_MAX;
      if (v <= -9223372036854775808.0) return INT64_MIN;
      return (int64_t)trunc(v);
    }
    case WNN_DTYPE_I64: return ((const int64_t *)data)[i];
    case WNN_DTYPE_I32: return ((const int32_t *)data)[i];
    case WNN_DTYPE_I8: return ((const int8_t *)data)[i];
    case WNN_DTYPE_U8: return ((const uint8_t *)data)[i];
    default: return ((const uint8_t *)data)[i] ? 1 : 0;
  }
}

/* A half is (-1)^s * 2^(e - 15) * (1 + m / 1024) for 0 < e < 31, and
 * (-1)^s * 2^-14 * (m / 1024) for e = 0; e = 31 holds infinities and NaNs. */
float wnn_ref_f16_to_f32(uint16_t h) {
  const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31) {
    if (m == 0) return s ? -INFINITY : INFINITY;
    uint32_t bits = (uint32_t)s << 31 | 0x7fc00000u | (uint32_t)m << 13;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  if (e == 0) v = ldexp((double)m, -24);
  else v = ldexp(1.0 + m / 1024.0, e - 15);
  return (float)(s ? -v : v);
}

/* The half nearest to f (ties to the even significand), found by scaling |f|
 * so that the half's unit in the last place is 1 and rounding with rint (the
 * default rounding mode, to nearest even). In double every scaled value is
 * exact. */
uint16_t wnn_ref_f32_to_f16(float f) {
  const uint16_t sign = signbit(f) ? 0x8000 : 0;
  if (isnan(f)) {
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return (uint16_t)(sign | 0x7e00 | ((bits >> 13) & 0x3ff));
  }
  const double a = fabs((double)f);
  /* 65504 is the largest half; halfway to the next power of two, 65520,
   * already rounds up (65504's significand is odd). */
  if (a >= 65520.0) return (uint16_t)(sign | 0x7c00);
  if (a < ldexp(1.0, -14)) return (uint16_t)(sign | (uint16_t)rint(ldexp(a, 24)));
  int e;
  frexp(a, &e); /* a = fr * 2^e, fr in [0.5, 1): the half's exponent is e - 1 */
  const double m = rint(ldexp(a, 10 - (e - 1))); /* in [1024, 2048] */
  /* m = 2048 carries into the exponent: (e - 1 + 14) << 10 plus m does it. */
  return (uint16_t)(sign | (uint16_t)(((e - 1 + 14) << 10) + (int)m));
}

wnn_status wnn_ref_cast(const wnn_run_ctx *ctx) {
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  for (int64_t i = 0; i < wnn_ref_numel(x); i++) {
    /* float16 and float32 are read as the double they equal; float64 goes
     * to float16 through float32 (as the runtime documents). */
    double xd = 0;
    if (x->dtype == WNN_DTYPE_F16) xd = wnn_ref_f16_to_f32(((const uint16_t *)x->data)[i]);
    else if (x->dtype == WNN_DTYPE_F32) xd = ((const float *)x->data)[i];
    else if (x->dtype == WNN_DTYPE_F64) xd = ((const double *)x->data)[i];
    const bool is_float =
        x->dtype == WNN_DTYPE_F16 || x->dtype == WNN_DTYPE_F32 || x->dtype == WNN_DTYPE_F64;
    const int64_t v = is_float ? as_int(WNN_DTYPE_F64, &xd, 0) : as_int(x->dtype, x->data, i);
    const uint64_t bits = (uint64_t)v;
    const float xf = (float)xd;
    switch (y->dtype) {
      case WNN_DTYPE_F32: ((float *)y->data)[i] = is_float ? xf : (float)v; break;
      case WNN_DTYPE_F64: ((double *)y->data)[i] = is_float ? xd : (double)v; break;
      case WNN_DTYPE_F16:
        ((uint16_t *)y->data)[i] = wnn_ref_f32_to_f16(is_float ? xf : (float)v);
        break;
      case WNN_DTYPE_I64: ((int64_t *)y->data)[i] = v; break;
      case WNN_DTYPE_I32: ((int32_t *)y->data)[i] = (int32_t)(bits & 0xffffffffu); break;
      case WNN_DTYPE_I8: ((int8_t *)y->data)[i] = (int8_t)(bits & 0xffu); break;
      case WNN_DTYPE_U8: ((uint8_t *)y->data)[i] = (uint8_t)(bits & 0xffu); break;
      default: ((uint8_t *)y->data)[i] = is_float ? xd != 0.0 : v != 0; break;
    }
  }
  return WNN_OK;
}

/* CastLike is Cast to input 1's dtype, which prepare resolved. */
wnn_status wnn_ref_castlike(const wnn_run_ctx *ctx) { return wnn_ref_cast(ctx); }

wnn_status wnn_ref_constantofshape(const wnn_run_ctx *ctx) {
  const wnn_fill_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  for (int64_t i = 0; i < wnn_ref_numel(y); i++)
    memcpy((char *)y->data + (size_t)i * p->elem_size, p->value, p->elem_size);
  return WNN_OK;
}

wnn_status wnn_ref_range(const wnn_run_ctx *ctx) {
  const wnn_range_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  for (int64_t i = 0; i < y->dims[0]; i++) {
    if (p->dtype == WNN_DTYPE_F32)
      ((float *)y->data)[i] = (float)(p->fstart + (double)i * p->fdelta);
    else if (p->dtype == WNN_DTYPE_I32)
      ((int32_t *)y->data)[i] = (int32_t)(p->istart + i * p->idelta);
    else
      ((int64_t *)y->data)[i] = (int64_t)((uint64_t)p->istart + (uint64_t)i * (uint64_t)p->idelta);
  }
  return WNN_OK;
}

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

#endif /* WNN_WITH_REFERENCE */
