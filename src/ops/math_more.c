/*
 * Further math ops, each at its latest opset <= 21:
 *   CumSum (14)            x (float32, int32, int64), axis (int32 or int64
 *                          scalar, constant); exclusive (0), reverse (0)
 *   Hardmax (13)           float32; axis (-1): 1 at the first maximum along
 *                          axis, 0 elsewhere
 *   Acos Acosh Asin Asinh Atan Atanh Cosh Sinh Tan (7/9), ThresholdedRelu
 *                          (10; alpha 1.0), Shrink (9; bias 0, lambd 0.5),
 *                          Celu (12; alpha 1.0): element-wise, float32
 *   EyeLike (9)            input (2-D, any dtype; only its shape is read);
 *                          dtype (the input's), k (0)
 *   QuantizeLinear (21)    x float32, y_scale float32, y_zero_point uint8 or
 *                          int8 (omitted: uint8 0); axis (1), block_size (0
 *                          only), output_dtype (0, 2 or 3), saturate (1,
 *                          float8 only: accepted and unused)
 *   DequantizeLinear (21)  x uint8, int8 or int32, x_scale float32,
 *                          x_zero_point (x's dtype); axis (1), block_size (0)
 *   DynamicQuantizeLinear (11) x float32 -> y uint8, y_scale, y_zero_point
 * The element-wise ops are plain loops on the C library (no kernel family:
 * they are rare in models).
 */
#include <math.h>
#include <string.h>

#include "ops/more_internal.h"

WNN_PARAMS_FIT(wnn_cumsum_params);
WNN_PARAMS_FIT(wnn_hardmax_params);
WNN_PARAMS_FIT(wnn_vmore_params);
WNN_PARAMS_FIT(wnn_eyelike_params);
WNN_PARAMS_FIT(wnn_quant_params);

/* outer x n x inner around axis ax of t. */
static void split_axis(const wnn_tdesc *t, int ax, size_t *outer, size_t *n, size_t *inner) {
  *outer = (size_t)wnn_shape_numel(ax, t->dims);
  *n = (size_t)t->dims[ax];
  *inner = (size_t)wnn_shape_numel(t->ndim - ax - 1, t->dims + ax + 1);
}

/* --------------------------------------------------------------- CumSum */

wnn_status wnn_cumsum_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "CumSum";
  wnn_cumsum_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *a = &ctx->inputs[1];
  wnn_status st;
  if (x->dtype != WNN_DTYPE_F32 && x->dtype != WNN_DTYPE_I32 && x->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                       "%s: input 0 (x) is %s, expected float32, int32 or int64", OP,
                       wnn_dtype_name(x->dtype));
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (x) is a scalar; CumSum needs a dim", OP);
  if (a->dtype != WNN_DTYPE_I32 && a->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (axis) is %s, expected int32 or int64", OP,
                       wnn_dtype_name(a->dtype));
  if (a->ndim > 1 || wnn_shape_numel(a->ndim, a->dims) != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (axis) must be a scalar", OP);
  if (!a->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 1 (axis) must be a constant (it decides the summed axis)", OP);
  const int64_t axis = a->dtype == WNN_DTYPE_I32 ? *(const int32_t *)a->data
                                                 : *(const int64_t *)a->data;
  if (axis < -x->ndim || axis >= x->ndim)
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                       "%s: input 1 (axis) is %lld, out of range for rank %d", OP,
                       (long long)axis, x->ndim);
  const int ax = (int)(axis < 0 ? axis + x->ndim : axis);
  if ((st = wnn_attr_bool(ctx, OP, "exclusive", &p->exclusive))) return st;
  if ((st = wnn_attr_bool(ctx, OP, "reverse", &p->reverse))) return st;
  p->dtype = x->dtype;
  split_axis(x, ax, &p->outer, &p->n, &p->inner);
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

/* Running sums along each line, in the line's walking order (backwards
 * with reverse); integers wrap (unsigned arithmetic). Each element is read
 * before its output is written and no earlier input is read again, so y may
 * be x. */
#define CUMSUM_LOOP(T, U, ACC)                                                           \
  do {                                                                                   \
    const T *x = ctx->inputs[0].data;                                                    \
    T *y = ctx->outputs[0].data;                                                         \
    for (size_t o = 0; o < p->outer; o++)                                                \
      for (size_t i = 0; i < p->inner; i++) {                                            \
        const size_t base = o * p->n * p->inner + i;                                     \
        ACC acc = 0;                                                                     \
        for (size_t s = 0; s < p->n; s++) {                                              \
          const size_t k = p->reverse ? p->n - 1 - s : s;                                \
          const T v = x[base + k * p->inner];                                            \
          if (p->exclusive) {                                                            \
            y[base + k * p->inner] = (T)acc;                                             \
            acc = (ACC)((U)acc + (U)v);                                                  \
          } else {                                                                       \
            acc = (ACC)((U)acc + (U)v);                                                  \
            y[base + k * p->inner] = (T)acc;                                             \
          }                                                                              \
        }                                                                                \
      }                                                                                  \
  } while (0)

wnn_status wnn_cumsum_run(const wnn_run_ctx *ctx) {
  const wnn_cumsum_params *p = ctx->params;
  switch (p->dtype) {
    case WNN_DTYPE_I32: CUMSUM_LOOP(int32_t, uint32_t, int32_t); break;
    case WNN_DTYPE_I64: CUMSUM_LOOP(int64_t, uint64_t, int64_t); break;
    default: CUMSUM_LOOP(float, float, float); break;
  }
  return WNN_OK;
}

/* -------------------------------------------------------------- Hardmax */

wnn_status wnn_hardmax_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Hardmax";
  wnn_hardmax_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axis;
  int ax;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "input", WNN_DTYPE_F32))) return st;
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (input) is a scalar; Hardmax needs a dim",
                       OP);
  if ((st = wnn_attr_int(ctx, "axis", -1, &axis))) return st;
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis, x->ndim, false, &ax))) return st;
  split_axis(x, ax, &p->outer, &p->n, &p->inner);
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* The first maximum wins; a NaN never replaces a value (plain >). y may be
 * x: a line's maximum is found before the line is written. */
wnn_status wnn_hardmax_run(const wnn_run_ctx *ctx) {
  const wnn_hardmax_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++) {
      const float *line = x + o * p->n * p->inner + i;
      float *out = y + o * p->n * p->inner + i;
      if (p->n == 0) continue;
      size_t best = 0;
      float bv = line[0];
      for (size_t k = 1; k < p->n; k++)
        if (line[k * p->inner] > bv) bv = line[k * p->inner], best = k;
      for (size_t k = 0; k < p->n; k++) out[k * p->inner] = k == best ? 1.0f : 0.0f;
    }
  return WNN_OK;
}

/* ---------------------------------------------------- element-wise ops */

static wnn_status vmore_prepare(wnn_prepare_ctx *ctx, const char *op, int kind, float alpha,
                                float beta) {
  wnn_vmore_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, op, 0, "X", WNN_DTYPE_F32))) return st;
  p->op = kind, p->alpha = alpha, p->beta = beta;
  return wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* CELU = max(0, x) + min(0, alpha * (exp(x / alpha) - 1)). */
static inline float celu(float v, float alpha) {
  return v > 0.0f ? v : alpha * expm1f(v / alpha);
}

/* One element; a switch per element keeps the code small (these ops are
 * rare, their speed is not the point). */
static float vmore_one(int op, float v, float a, float b) {
  switch (op) {
    case WNN_MORE_ACOS: return acosf(v);
    case WNN_MORE_ACOSH: return acoshf(v);
    case WNN_MORE_ASIN: return asinf(v);
    case WNN_MORE_ASINH: return asinhf(v);
    case WNN_MORE_ATAN: return atanf(v);
    case WNN_MORE_ATANH: return atanhf(v);
    case WNN_MORE_COSH: return coshf(v);
    case WNN_MORE_SINH: return sinhf(v);
    case WNN_MORE_TAN: return tanf(v);
    case WNN_MORE_THRESHOLDEDRELU: return v > a ? v : 0.0f;
    case WNN_MORE_SHRINK: return v < -a ? v + b : (v > a ? v - b : 0.0f);
    default: return celu(v, a);
  }
}

static wnn_status vmore_run(const wnn_run_ctx *ctx) {
  const wnn_vmore_params *p = ctx->params;
  const wnn_tensor *xt = &ctx->inputs[0];
  const size_t n = (size_t)wnn_shape_numel(xt->ndim, xt->dims);
  const float *x = xt->data;
  float *y = ctx->outputs[0].data;
  for (size_t i = 0; i < n; i++) y[i] = vmore_one(p->op, x[i], p->alpha, p->beta);
  return WNN_OK;
}

#define VMORE_OP(sym, name, kind)                                                        \
  wnn_status wnn_##sym##_prepare(wnn_prepare_ctx *ctx) {                                 \
    return vmore_prepare(ctx, name, WNN_MORE_##kind, 0.0f, 0.0f);                         \
  }                                                                                      \
  wnn_status wnn_##sym##_run(const wnn_run_ctx *ctx) { return vmore_run(ctx); }

VMORE_OP(acos, "Acos", ACOS)
VMORE_OP(acosh, "Acosh", ACOSH)
VMORE_OP(asin, "Asin", ASIN)
VMORE_OP(asinh, "Asinh", ASINH)
VMORE_OP(atan, "Atan", ATAN)
VMORE_OP(atanh, "Atanh", ATANH)
VMORE_OP(cosh, "Cosh", COSH)
VMORE_OP(sinh, "Sinh", SINH)
VMORE_OP(tan, "Tan", TAN)

wnn_status wnn_thresholdedrelu_prepare(wnn_prepare_ctx *ctx) {
  float alpha;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "alpha", 1.0f, &alpha))) return st;
  return vmore_prepare(ctx, "ThresholdedRelu", WNN_MORE_THRESHOLDEDRELU, alpha, 0.0f);
}
wnn_status wnn_thresholdedrelu_run(const wnn_run_ctx *ctx) { return vmore_run(ctx); }

wnn_status wnn_shrink_prepare(wnn_prepare_ctx *ctx) {
  float lambd, bias;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "lambd", 0.5f, &lambd))) return st;
  if ((st = wnn_attr_float(ctx, "bias", 0.0f, &bias))) return st;
  return vmore_prepare(ctx, "Shrink", WNN_MORE_SHRINK, lambd, bias);
}
wnn_status wnn_shrink_run(const wnn_run_ctx *ctx) { return vmore_run(ctx); }

wnn_status wnn_celu_prepare(wnn_prepare_ctx *ctx) {
  float alpha;
  wnn_status st;
  if ((st = wnn_attr_float(ctx, "alpha", 1.0f, &alpha))) return st;
  if (alpha == 0.0f || !isfinite(alpha))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "Celu: alpha is %g, expected a finite non-zero value (x is divided by it)",
                       (double)alpha);
  return vmore_prepare(ctx, "Celu", WNN_MORE_CELU, alpha, 0.0f);
}
wnn_status wnn_celu_run(const wnn_run_ctx *ctx) { return vmore_run(ctx); }

/* -------------------------------------------------------------- EyeLike */

/* ONNX's TensorProto data type number -> wnn dtype; float16 and double are
 * float32 in wnn. INVALID when wnn has no such dtype. */
static wnn_dtype onnx_dtype(int64_t t) {
  switch (t) {
    case 1: case 10: case 11: return WNN_DTYPE_F32;
    case 2: return WNN_DTYPE_U8;
    case 3: return WNN_DTYPE_I8;
    case 6: return WNN_DTYPE_I32;
    case 7: return WNN_DTYPE_I64;
    case 9: return WNN_DTYPE_BOOL;
    default: return WNN_DTYPE_INVALID;
  }
}

wnn_status wnn_eyelike_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "EyeLike";
  wnn_eyelike_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t dt;
  if (x->ndim != 2)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (input) has %d dims, expected 2", OP,
                       x->ndim);
  if ((st = wnn_attr_int(ctx, "dtype", -1, &dt))) return st;
  if ((st = wnn_attr_int(ctx, "k", 0, &p->k))) return st;
  p->dtype = dt < 0 ? x->dtype : onnx_dtype(dt);
  if (dt >= 0 && p->dtype == WNN_DTYPE_INVALID)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: dtype = %lld is not supported (float32 1, uint8 2, int8 3, int32 6, "
                       "int64 7, bool 9)",
                       OP, (long long)dt);
  if (p->dtype != WNN_DTYPE_F32 && p->dtype != WNN_DTYPE_I32 && p->dtype != WNN_DTYPE_I64 &&
      p->dtype != WNN_DTYPE_I8 && p->dtype != WNN_DTYPE_U8 && p->dtype != WNN_DTYPE_BOOL)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (input) is %s, expected a numeric or bool "
                       "dtype", OP, wnn_dtype_name(p->dtype));
  p->rows = (size_t)x->dims[0], p->cols = (size_t)x->dims[1];
  return wnn_set_output(ctx, OP, 0, p->dtype, 2, x->dims);
}

wnn_status wnn_eyelike_run(const wnn_run_ctx *ctx) {
  const wnn_eyelike_params *p = ctx->params;
  const size_t es = wnn_dtype_size(p->dtype);
  unsigned char *y = ctx->outputs[0].data;
  if (p->rows * p->cols == 0) return WNN_OK;
  memset(y, 0, p->rows * p->cols * es);
  /* Row r has its one at column r + k when that is inside the matrix. */
  for (size_t r = 0; r < p->rows; r++) {
    const int64_t c = (int64_t)r + p->k;
    if (c < 0 || c >= (int64_t)p->cols) continue;
    unsigned char *e = y + (r * p->cols + (size_t)c) * es;
    switch (p->dtype) {
      case WNN_DTYPE_F32: *(float *)e = 1.0f; break;
      case WNN_DTYPE_I32: *(int32_t *)e = 1; break;
      case WNN_DTYPE_I64: *(int64_t *)e = 1; break;
      default: *e = 1; break;
    }
  }
  return WNN_OK;
}

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
    split_axis(x, ax, &p->outer, &p->axis_n, &p->inner);
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

/* ------------------------------------------------------ window functions */

WNN_PARAMS_FIT(wnn_window_params);
WNN_PARAMS_FIT(wnn_det_params);
WNN_PARAMS_FIT(wnn_bitshift_params);
WNN_PARAMS_FIT(wnn_mvn_params);

/* HannWindow, HammingWindow, BlackmanWindow (17): size (int32 or int64
 * scalar, constant: it is the output's length); output_datatype (1; 10 and 11
 * are float32 too), periodic (1). */
static wnn_status window_prepare(wnn_prepare_ctx *ctx, const char *op, double a0, double a1,
                                 double a2) {
  wnn_window_params *p = ctx->params;
  const wnn_tdesc *s = &ctx->inputs[0];
  wnn_status st;
  int64_t dt, periodic;
  if (s->dtype != WNN_DTYPE_I32 && s->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (size) is %s, expected int32 or int64",
                       op, wnn_dtype_name(s->dtype));
  if (s->ndim > 1 || wnn_shape_numel(s->ndim, s->dims) != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (size) must be a scalar", op);
  if (!s->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 0 (size) must be a constant (it decides the output shape)", op);
  const int64_t n = s->dtype == WNN_DTYPE_I32 ? *(const int32_t *)s->data
                                              : *(const int64_t *)s->data;
  if (n < 0)
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE, "%s: input 0 (size) is %lld, expected >= 0", op,
                       (long long)n);
  if ((st = wnn_attr_int(ctx, "output_datatype", 1, &dt))) return st;
  if (dt != 1 && dt != 10 && dt != 11)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: output_datatype = %lld is not supported (float32 1; float16 10 and "
                       "double 11 give float32)",
                       op, (long long)dt);
  if ((st = wnn_attr_int(ctx, "periodic", 1, &periodic))) return st;
  if (periodic != 0 && periodic != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: periodic is %lld, expected 0 or 1", op,
                       (long long)periodic);
  p->a0 = a0, p->a1 = a1, p->a2 = a2;
  p->n = (size_t)n;
  p->periodic = periodic == 1;
  return wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, 1, &n);
}

/* In double, rounded once. A symmetric window of length 1 (N = 0) is its
 * value at angle 0. */
static wnn_status window_run(const wnn_run_ctx *ctx) {
  const wnn_window_params *p = ctx->params;
  float *y = ctx->outputs[0].data;
  const double two_pi = 6.283185307179586476925;
  const double len = p->periodic ? (double)p->n : (double)p->n - 1.0;
  for (size_t k = 0; k < p->n; k++) {
    const double t = len > 0.0 ? two_pi * (double)k / len : 0.0;
    y[k] = (float)(p->a0 - p->a1 * cos(t) + p->a2 * cos(2.0 * t));
  }
  return WNN_OK;
}

wnn_status wnn_hannwindow_prepare(wnn_prepare_ctx *ctx) {
  return window_prepare(ctx, "HannWindow", 0.5, 0.5, 0.0);
}
wnn_status wnn_hammingwindow_prepare(wnn_prepare_ctx *ctx) {
  return window_prepare(ctx, "HammingWindow", 25.0 / 46.0, 21.0 / 46.0, 0.0);
}
wnn_status wnn_blackmanwindow_prepare(wnn_prepare_ctx *ctx) {
  return window_prepare(ctx, "BlackmanWindow", 0.42, 0.5, 0.08);
}
wnn_status wnn_hannwindow_run(const wnn_run_ctx *ctx) { return window_run(ctx); }
wnn_status wnn_hammingwindow_run(const wnn_run_ctx *ctx) { return window_run(ctx); }
wnn_status wnn_blackmanwindow_run(const wnn_run_ctx *ctx) { return window_run(ctx); }

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

/* -------------------------------------------------------------- BitShift */

/* y = a << b or a >> b; a shift of 8 or more gives 0. */
static void u8_shl(size_t n, const void *a_, size_t sa, const void *b_, size_t sb, void *y_) {
  const uint8_t *a = a_, *b = b_;
  uint8_t *y = y_;
  for (size_t i = 0; i < n; i++) {
    const unsigned s = b[i * sb];
    y[i] = s < 8 ? (uint8_t)(a[i * sa] << s) : 0;
  }
}

static void u8_shr(size_t n, const void *a_, size_t sa, const void *b_, size_t sb, void *y_) {
  const uint8_t *a = a_, *b = b_;
  uint8_t *y = y_;
  for (size_t i = 0; i < n; i++) {
    const unsigned s = b[i * sb];
    y[i] = s < 8 ? (uint8_t)(a[i * sa] >> s) : 0;
  }
}

/* BitShift (11): X, Y uint8 (wnn has no wider unsigned types), broadcast;
 * direction "LEFT" or "RIGHT" (required). */
wnn_status wnn_bitshift_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "BitShift";
  wnn_bitshift_params *p = ctx->params;
  wnn_status st;
  const char *dir;
  for (int i = 0; i < 2; i++)
    if (ctx->inputs[i].dtype != WNN_DTYPE_U8)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected uint8", OP, i,
                         i ? "Y" : "X", wnn_dtype_name(ctx->inputs[i].dtype));
  if ((st = wnn_attr_string(ctx, "direction", NULL, &dir))) return st;
  if (!dir)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: attribute 'direction' is required", OP);
  if (strcmp(dir, "LEFT") == 0) p->left = true;
  else if (strcmp(dir, "RIGHT") == 0) p->left = false;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: direction is '%s', expected 'LEFT' or 'RIGHT'", OP, dir);
  int64_t out[WNN_MAX_DIMS];
  int nd;
  if ((st = wnn_bcast_prepare(ctx, OP, &ctx->inputs[0], &ctx->inputs[1], out, &nd, &p->plan)))
    return st;
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_U8, nd, out);
}

wnn_status wnn_bitshift_run(const wnn_run_ctx *ctx) {
  const wnn_bitshift_params *p = ctx->params;
  wnn_bcast_run(&p->plan, p->left ? u8_shl : u8_shr, ctx->inputs[0].data, 1, ctx->inputs[1].data,
                1, ctx->outputs[0].data, 1);
  return WNN_OK;
}

/* --------------------------------------------- MeanVarianceNormalization */

/* MeanVarianceNormalization (13): float32; axes ([0, 2, 3]), each in
 * [-r, r-1], no repeats. y = (x - mean) / (sqrt(variance) + 1e-9) with the
 * statistics over the axes; the variance is the mean squared deviation
 * (two passes; ONNX's function body writes E[x^2] - E[x]^2, equal up to
 * rounding and never negative here). */
wnn_status wnn_meanvariancenormalization_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "MeanVarianceNormalization";
  wnn_mvn_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axes[WNN_MAX_DIMS + 1];
  int count;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_attr_ints(ctx, "axes", axes, WNN_MAX_DIMS + 1, &count))) return st;
  if (count < 0) axes[0] = 0, axes[1] = 2, axes[2] = 3, count = 3;
  if (count > WNN_MAX_DIMS)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes has %d values, more than the rank",
                       OP, count);
  bool reduced[WNN_MAX_DIMS] = {false};
  for (int i = 0; i < count; i++) {
    int ax;
    if ((st = wnn_normalize_axis(ctx, OP, "axes", axes[i], x->ndim, false, &ax))) return st;
    if (reduced[ax])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes repeats axis %d", OP, ax);
    reduced[ax] = true;
  }
  p->ndim = x->ndim;
  p->kept = 1, p->count = 1;
  for (int d = x->ndim - 1; d >= 0; d--) {
    p->dims[d] = x->dims[d];
    p->kstride[d] = reduced[d] ? 0 : p->kept;
    if (reduced[d]) p->count *= (size_t)x->dims[d];
    else p->kept *= (size_t)x->dims[d];
  }
  ctx->scratch_bytes = 2 * p->kept * sizeof(double);
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, x->ndim, x->dims);
}

/* Calls body(i, o) for every element i with its kept index o. */
#define MVN_WALK(body)                                                                   \
  do {                                                                                   \
    size_t idx_[WNN_MAX_DIMS] = {0}, o = 0;                                              \
    for (size_t i = 0; i < total; i++) {                                                 \
      body;                                                                              \
      for (int d = p->ndim - 1; d >= 0; d--) {                                           \
        o += p->kstride[d];                                                              \
        if (++idx_[d] < (size_t)p->dims[d]) break;                                       \
        o -= p->kstride[d] * idx_[d];                                                    \
        idx_[d] = 0;                                                                     \
      }                                                                                  \
    }                                                                                    \
  } while (0)

wnn_status wnn_meanvariancenormalization_run(const wnn_run_ctx *ctx) {
  const wnn_mvn_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  double *mean = ctx->scratch, *var = mean + p->kept;
  const size_t total = p->kept * p->count;
  for (size_t k = 0; k < p->kept; k++) mean[k] = 0.0, var[k] = 0.0;
  MVN_WALK(mean[o] += x[i]);
  for (size_t k = 0; k < p->kept; k++) mean[k] /= (double)p->count;
  MVN_WALK(var[o] += (x[i] - mean[o]) * (x[i] - mean[o]));
  for (size_t k = 0; k < p->kept; k++) var[k] = sqrt(var[k] / (double)p->count) + 1e-9;
  MVN_WALK(y[i] = (float)((x[i] - mean[o]) / var[o]));
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

static const char *const alpha_attrs[] = {"alpha", NULL};
static const char *const window_attrs[] = {"output_datatype", "periodic", NULL};

const wnn_op wnn_cumsum_op = {
    .code = WNN_OP_CODE(cumsum),
    .name = "CumSum",
    .min_inputs = 2, .max_inputs = 2, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("exclusive", "reverse"),
    .prepare = wnn_cumsum_prepare,
    .run = wnn_cumsum_run,
    .reference = WNN_REF(wnn_ref_cumsum),
};

const wnn_op wnn_hardmax_op = {
    .code = WNN_OP_CODE(hardmax),
    .name = "Hardmax",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("axis"),
    .prepare = wnn_hardmax_prepare,
    .run = wnn_hardmax_run,
    .reference = WNN_REF(wnn_ref_hardmax),
};

const wnn_op wnn_thresholdedrelu_op = {
    .code = WNN_OP_CODE(thresholdedrelu),
    .name = "ThresholdedRelu",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = alpha_attrs,
    .prepare = wnn_thresholdedrelu_prepare,
    .run = wnn_thresholdedrelu_run,
    .reference = WNN_REF(wnn_ref_thresholdedrelu),
};

const wnn_op wnn_shrink_op = {
    .code = WNN_OP_CODE(shrink),
    .name = "Shrink",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("bias", "lambd"),
    .prepare = wnn_shrink_prepare,
    .run = wnn_shrink_run,
    .reference = WNN_REF(wnn_ref_shrink),
};

const wnn_op wnn_celu_op = {
    .code = WNN_OP_CODE(celu),
    .name = "Celu",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = alpha_attrs,
    .prepare = wnn_celu_prepare,
    .run = wnn_celu_run,
    .reference = WNN_REF(wnn_ref_celu),
};

const wnn_op wnn_tan_op = {
    .code = WNN_OP_CODE(tan),
    .name = "Tan",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_tan_prepare,
    .run = wnn_tan_run,
    .reference = WNN_REF(wnn_ref_tan),
};

const wnn_op wnn_acos_op = {
    .code = WNN_OP_CODE(acos),
    .name = "Acos",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_acos_prepare,
    .run = wnn_acos_run,
    .reference = WNN_REF(wnn_ref_acos),
};

const wnn_op wnn_acosh_op = {
    .code = WNN_OP_CODE(acosh),
    .name = "Acosh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_acosh_prepare,
    .run = wnn_acosh_run,
    .reference = WNN_REF(wnn_ref_acosh),
};

const wnn_op wnn_asin_op = {
    .code = WNN_OP_CODE(asin),
    .name = "Asin",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_asin_prepare,
    .run = wnn_asin_run,
    .reference = WNN_REF(wnn_ref_asin),
};

const wnn_op wnn_asinh_op = {
    .code = WNN_OP_CODE(asinh),
    .name = "Asinh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_asinh_prepare,
    .run = wnn_asinh_run,
    .reference = WNN_REF(wnn_ref_asinh),
};

const wnn_op wnn_atan_op = {
    .code = WNN_OP_CODE(atan),
    .name = "Atan",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_atan_prepare,
    .run = wnn_atan_run,
    .reference = WNN_REF(wnn_ref_atan),
};

const wnn_op wnn_atanh_op = {
    .code = WNN_OP_CODE(atanh),
    .name = "Atanh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_atanh_prepare,
    .run = wnn_atanh_run,
    .reference = WNN_REF(wnn_ref_atanh),
};

const wnn_op wnn_cosh_op = {
    .code = WNN_OP_CODE(cosh),
    .name = "Cosh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_cosh_prepare,
    .run = wnn_cosh_run,
    .reference = WNN_REF(wnn_ref_cosh),
};

const wnn_op wnn_sinh_op = {
    .code = WNN_OP_CODE(sinh),
    .name = "Sinh",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_sinh_prepare,
    .run = wnn_sinh_run,
    .reference = WNN_REF(wnn_ref_sinh),
};

const wnn_op wnn_eyelike_op = {
    .code = WNN_OP_CODE(eyelike),
    .name = "EyeLike",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("dtype", "k"),
    .prepare = wnn_eyelike_prepare,
    .run = wnn_eyelike_run,
    .reference = WNN_REF(wnn_ref_eyelike),
};

const wnn_op wnn_quantizelinear_op = {
    .code = WNN_OP_CODE(quantizelinear),
    .name = "QuantizeLinear",
    .min_inputs = 2, .max_inputs = 3, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("axis", "block_size", "output_dtype", "saturate"),
    .prepare = wnn_quantizelinear_prepare,
    .run = wnn_quantizelinear_run,
    .reference = WNN_REF(wnn_ref_quantizelinear),
};

const wnn_op wnn_dequantizelinear_op = {
    .code = WNN_OP_CODE(dequantizelinear),
    .name = "DequantizeLinear",
    .min_inputs = 2, .max_inputs = 3, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("axis", "block_size"),
    .prepare = wnn_dequantizelinear_prepare,
    .run = wnn_dequantizelinear_run,
    .reference = WNN_REF(wnn_ref_dequantizelinear),
};

const wnn_op wnn_dynamicquantizelinear_op = {
    .code = WNN_OP_CODE(dynamicquantizelinear),
    .name = "DynamicQuantizeLinear",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 3, .max_outputs = 3,
    .prepare = wnn_dynamicquantizelinear_prepare,
    .run = wnn_dynamicquantizelinear_run,
    .reference = WNN_REF(wnn_ref_dynamicquantizelinear),
};

const wnn_op wnn_hannwindow_op = {
    .code = WNN_OP_CODE(hannwindow),
    .name = "HannWindow",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = window_attrs,
    .prepare = wnn_hannwindow_prepare,
    .run = wnn_hannwindow_run,
    .reference = WNN_REF(wnn_ref_hannwindow),
};

const wnn_op wnn_hammingwindow_op = {
    .code = WNN_OP_CODE(hammingwindow),
    .name = "HammingWindow",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = window_attrs,
    .prepare = wnn_hammingwindow_prepare,
    .run = wnn_hammingwindow_run,
    .reference = WNN_REF(wnn_ref_hammingwindow),
};

const wnn_op wnn_blackmanwindow_op = {
    .code = WNN_OP_CODE(blackmanwindow),
    .name = "BlackmanWindow",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = window_attrs,
    .prepare = wnn_blackmanwindow_prepare,
    .run = wnn_blackmanwindow_run,
    .reference = WNN_REF(wnn_ref_blackmanwindow),
};

const wnn_op wnn_det_op = {
    .code = WNN_OP_CODE(det),
    .name = "Det",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .prepare = wnn_det_prepare,
    .run = wnn_det_run,
    .reference = WNN_REF(wnn_ref_det),
};

const wnn_op wnn_bitshift_op = {
    .code = WNN_OP_CODE(bitshift),
    .name = "BitShift",
    .min_inputs = 2, .max_inputs = 2, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("direction"),
    .prepare = wnn_bitshift_prepare,
    .run = wnn_bitshift_run,
    .reference = WNN_REF(wnn_ref_bitshift),
};

const wnn_op wnn_meanvariancenormalization_op = {
    .code = WNN_OP_CODE(meanvariancenormalization),
    .name = "MeanVarianceNormalization",
    .min_inputs = 1, .max_inputs = 1, .min_outputs = 1, .max_outputs = 1,
    .attrs = WNN_ATTRS("axes"),
    .prepare = wnn_meanvariancenormalization_prepare,
    .run = wnn_meanvariancenormalization_run,
    .reference = WNN_REF(wnn_ref_meanvariancenormalization),
};
