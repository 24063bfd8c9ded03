/*
 * Shape and type ops (ONNX opset 21 forms, parameters as inputs):
 *   Squeeze, Unsqueeze, Dropout  aliases: prepare computes the shape, the
 *                                runtime points output 0 at input 0;
 *   Shape, Size                  int64 values known at prepare, written by run;
 *   ConstantOfShape, Range       fills from constant inputs;
 *   Cast, CastLike               float32, float16, int64, int32, int8, uint8,
 *                                bool.
 */
#include <math.h>
#include <string.h>


#include "base/half.h"
#include "ops/tensor_internal.h"

WNN_PARAMS_FIT(wnn_eyelike_params);

WNN_PARAMS_FIT(wnn_shape_params);
WNN_PARAMS_FIT(wnn_fill_params);
WNN_PARAMS_FIT(wnn_range_params);
WNN_PARAMS_FIT(wnn_cast_params);

/* Reads constant axes (input i) for a tensor of rank `rank`, normalizing them
 * to [0, rank) and rejecting repeats. */
static wnn_status read_axes(wnn_prepare_ctx *ctx, const char *op, int i, int rank,
                            bool seen[WNN_MAX_DIMS], int *count) {
  int64_t axes[WNN_MAX_DIMS];
  wnn_status st = wnn_const_ints(ctx, op, i, "axes", false, WNN_MAX_DIMS, axes, count);
  if (st) return st;
  memset(seen, 0, WNN_MAX_DIMS * sizeof seen[0]);
  for (int k = 0; k < *count; k++) {
    if (axes[k] < -rank || axes[k] >= rank)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: axes[%d] = %lld out of range for rank %d", op, k,
                         (long long)axes[k], rank);
    const int a = (int)(axes[k] < 0 ? axes[k] + rank : axes[k]);
    if (seen[a])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes repeats axis %d (axes[%d] = %lld)",
                         op, a, k, (long long)axes[k]);
    seen[a] = true;
  }
  return WNN_OK;
}

/* -------------------------------------------------------------- Squeeze */

wnn_status wnn_squeeze_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Squeeze";
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  bool drop[WNN_MAX_DIMS];
  int count = 0;
  if (wnn_has_input(ctx, 1)) {
    if ((st = read_axes(ctx, OP, 1, x->ndim, drop, &count))) return st;
  }
  if (count > 0) {
    for (int d = 0; d < x->ndim; d++)
      if (drop[d] && x->dims[d] != 1)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: axis %d has size %lld, not 1", OP, d,
                           (long long)x->dims[d]);
  } else { /* no axes, or an empty list (as onnxruntime): every 1 goes */
    for (int d = 0; d < x->ndim; d++) drop[d] = x->dims[d] == 1;
  }
  int64_t out[WNN_MAX_DIMS];
  int n = 0;
  for (int d = 0; d < x->ndim; d++)
    if (!drop[d]) out[n++] = x->dims[d];
  return wnn_set_output(ctx, OP, 0, x->dtype, n, out);
}

/* ------------------------------------------------------------ Unsqueeze */

wnn_status wnn_unsqueeze_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Unsqueeze";
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  const int64_t n_axes = ctx->inputs[1].ndim == 1 ? ctx->inputs[1].dims[0] : 0;
  if (x->ndim + n_axes > WNN_MAX_DIMS)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output would have %lld dims, at most %d", OP,
                       (long long)(x->ndim + n_axes), WNN_MAX_DIMS);
  const int rank = x->ndim + (int)n_axes;
  bool add[WNN_MAX_DIMS];
  int count;
  if ((st = read_axes(ctx, OP, 1, rank, add, &count))) return st;
  int64_t out[WNN_MAX_DIMS];
  for (int d = 0, k = 0; d < rank; d++) out[d] = add[d] ? 1 : x->dims[k++];
  return wnn_set_output(ctx, OP, 0, x->dtype, rank, out);
}

/* -------------------------------------------------------------- Dropout */

wnn_status wnn_dropout_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Dropout";
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t seed;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  if ((st = wnn_attr_int(ctx, "seed", 0, &seed))) return st;
  if (wnn_has_input(ctx, 1) && ctx->inputs[1].dtype != WNN_DTYPE_F32)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (ratio) is %s, expected float32", OP,
                       wnn_dtype_name(ctx->inputs[1].dtype));
  if (wnn_has_input(ctx, 2)) {
    const wnn_tdesc *t = &ctx->inputs[2];
    if ((st = wnn_expect_dtype(ctx, OP, 2, "training_mode", WNN_DTYPE_BOOL))) return st;
    if (wnn_shape_numel(t->ndim, t->dims) != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (training_mode) must be a scalar", OP);
    if (!t->data)
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: input 2 (training_mode) must be a constant", OP);
    if (*(const unsigned char *)t->data != 0)
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: input 2 (training_mode) is true; only inference is supported", OP);
  }
  if (ctx->num_outputs > 1)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: output 1 (mask) is not supported: the op is an alias with no run "
                       "(an all-true mask is a ConstantOfShape of true)",
                       OP);
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, x->dims);
}

/* ---------------------------------------------------------- Shape, Size */

wnn_status wnn_shape_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Shape";
  wnn_shape_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t start, end;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  if ((st = wnn_attr_int(ctx, "start", 0, &start))) return st;
  if ((st = wnn_attr_int(ctx, "end", INT64_MAX, &end))) return st;
  const int64_t r = x->ndim;
  /* Negative values count from the back; both clamp to [0, rank]. */
  if (start < 0) start = start < -r ? 0 : start + r;
  if (end < 0) end = end < -r ? 0 : end + r;
  if (start > r) start = r;
  if (end > r) end = r;
  p->start = (int)start;
  p->count = end > start ? (int)(end - start) : 0;
  for (int k = 0; k < p->count; k++) p->values[k] = x->dims[start + k];
  const int64_t out[1] = {p->count};
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_I64, 1, out);
}

wnn_status wnn_size_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Size";
  wnn_shape_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  p->count = 1;
  p->values[0] = wnn_shape_numel(x->ndim, x->dims);
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_I64, 0, NULL);
}

/* Shape and Size share their run. */
wnn_status wnn_shape_run(const wnn_run_ctx *ctx) {
  const wnn_shape_params *p = ctx->params;
  /* The Shape of a scalar has no elements (and its output no bytes). */
  if (p->count) memcpy(ctx->outputs[0].data, p->values, (size_t)p->count * sizeof(int64_t));
  return WNN_OK;
}

wnn_status wnn_size_run(const wnn_run_ctx *ctx) { return wnn_shape_run(ctx); }

/* ------------------------------------------------------ ConstantOfShape */

/* Stores v, converted to dtype, into out (elem bytes). */
static void store_as(wnn_dtype dtype, double v, unsigned char *out) {
  switch (dtype) {
    case WNN_DTYPE_F32: { float f = (float)v; memcpy(out, &f, 4); break; }
    case WNN_DTYPE_I64: { int64_t i = (int64_t)v; memcpy(out, &i, 8); break; }
    case WNN_DTYPE_I32: { int32_t i = (int32_t)v; memcpy(out, &i, 4); break; }
    case WNN_DTYPE_I8: { int8_t i = (int8_t)v; memcpy(out, &i, 1); break; }
    case WNN_DTYPE_U8: out[0] = (unsigned char)v; break;
    case WNN_DTYPE_BOOL: out[0] = v != 0.0; break;
    default: break;
  }
}

/* Reads the "value" attribute: {"dtype": ..., "shape": [1] or [], "data": [v]}. */
static wnn_status fill_value(wnn_prepare_ctx *ctx, wnn_dtype *dtype, double *value) {
  static const char OP[] = "ConstantOfShape";
  *dtype = WNN_DTYPE_F32;
  *value = 0.0;
  if (!wnn_attr_has(ctx, "value")) return WNN_OK;
  const wnn_attrs *v = wnn_attrs_object(ctx->attrs, "value");
  const char *dt = NULL;
  if (!v || !wnn_attrs_string(v, "dtype", &dt) || wnn_attrs_list_size(v, "data") < 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: value must be an object {\"dtype\", \"shape\", \"data\"}", OP);
  *dtype = wnn_dtype_from_name(dt);
  if (*dtype == WNN_DTYPE_INVALID || *dtype == WNN_DTYPE_F16 || *dtype == WNN_DTYPE_F64)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: value has dtype '%s', which is not supported",
                       OP, dt);
  const int shape_size = wnn_attrs_list_size(v, "shape");
  double dim0;
  if (wnn_attrs_kind(v, "shape") != WNN_ATTR_ABSENT &&
      (shape_size < 0 || shape_size > 1 ||
       (shape_size == 1 && !(wnn_attrs_list_number(v, "shape", 0, &dim0) && dim0 == 1.0))))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: value must hold one element (shape [1])",
                       OP);
  const int count = wnn_attrs_list_size(v, "data");
  bool flag;
  if (count == 1 && wnn_attrs_list_bool(v, "data", 0, &flag))
    *value = flag ? 1.0 : 0.0;
  else if (count != 1 || !wnn_attrs_list_number(v, "data", 0, value))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: value must hold one number, has %d items",
                       OP, count);
  if (*dtype != WNN_DTYPE_F32 && *value != floor(*value))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: value %g is not integral for %s", OP,
                       *value, dt);
  return WNN_OK;
}

wnn_status wnn_constantofshape_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "ConstantOfShape";
  wnn_fill_params *p = ctx->params;
  wnn_status st;
  int64_t dims[WNN_MAX_DIMS];
  int n;
  if ((st = wnn_const_ints(ctx, OP, 0, "input", false, WNN_MAX_DIMS, dims, &n))) return st;
  for (int k = 0; k < n; k++)
    if (dims[k] < 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (input)[%d] = %lld is negative", OP, k,
                         (long long)dims[k]);
  wnn_dtype dtype;
  double value;
  if ((st = fill_value(ctx, &dtype, &value))) return st;
  p->elem_size = wnn_dtype_size(dtype);
  store_as(dtype, value, p->value);
  return wnn_set_output(ctx, OP, 0, dtype, n, dims);
}

wnn_status wnn_constantofshape_run(const wnn_run_ctx *ctx) {
  const wnn_fill_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  const size_t n = (size_t)wnn_shape_numel(y->ndim, y->dims);
  char *out = y->data;
  for (size_t i = 0; i < n; i++) memcpy(out + i * p->elem_size, p->value, p->elem_size);
  return WNN_OK;
}

/* ---------------------------------------------------------------- Range */

wnn_status wnn_range_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Range";
  static const char *const names[3] = {"start", "limit", "delta"};
  wnn_range_params *p = ctx->params;
  wnn_status st;
  const wnn_dtype dtype = ctx->inputs[0].dtype;
  double v[3];
  for (int i = 0; i < 3; i++) {
    const wnn_tdesc *t = &ctx->inputs[i];
    if ((st = wnn_expect_present(ctx, OP, i, names[i]))) return st;
    if (dtype != WNN_DTYPE_F32 && dtype != WNN_DTYPE_I32 && dtype != WNN_DTYPE_I64)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (start) is %s, expected float32, int32 "
                         "or int64", OP, wnn_dtype_name(dtype));
    if ((st = wnn_expect_dtype(ctx, OP, i, names[i], dtype))) return st;
    if (wnn_shape_numel(t->ndim, t->dims) != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) must be a scalar", OP, i,
                         names[i]);
    if (!t->data)
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: input %d (%s) must be a constant", OP, i,
                         names[i]);
    v[i] = wnn_elem_as_double(dtype, t->data, 0);
  }
  if (v[2] == 0.0 || isnan(v[2]))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: delta is %g", OP, v[2]);
  double count = ceil((v[1] - v[0]) / v[2]);
  p->dtype = dtype;
  p->fstart = v[0], p->fdelta = v[2];
  if (dtype != WNN_DTYPE_F32) {
    /* Integers count exactly: ceil(|limit - start| / |delta|) in uint64. */
    const int64_t start = wnn_index_at(dtype, ctx->inputs[0].data, 0);
    const int64_t limit = wnn_index_at(dtype, ctx->inputs[1].data, 0);
    const int64_t delta = wnn_index_at(dtype, ctx->inputs[2].data, 0);
    p->istart = start, p->idelta = delta;
    count = 0;
    if ((delta > 0 && limit > start) || (delta < 0 && limit < start)) {
      const uint64_t span = delta > 0 ? (uint64_t)limit - (uint64_t)start
                                      : (uint64_t)start - (uint64_t)limit;
      const uint64_t step = delta > 0 ? (uint64_t)delta : 0 - (uint64_t)delta;
      count = (double)(span / step + (span % step != 0));
    }
  }
  if (!(count <= (double)INT32_MAX) && !(count < 0))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: start %g, limit %g, delta %g give too many values",
                       OP, v[0], v[1], v[2]);
  const int64_t out[1] = {count > 0 ? (int64_t)count : 0};
  return wnn_set_output(ctx, OP, 0, dtype, 1, out);
}

wnn_status wnn_range_run(const wnn_run_ctx *ctx) {
  const wnn_range_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0];
  const int64_t n = y->dims[0];
  switch (p->dtype) {
    case WNN_DTYPE_F32: {
      float *out = y->data;
      const float start = (float)p->fstart, delta = (float)p->fdelta;
      for (int64_t i = 0; i < n; i++) out[i] = start + (float)i * delta;
      break;
    }
    case WNN_DTYPE_I32: {
      int32_t *out = y->data;
      for (int64_t i = 0; i < n; i++) out[i] = (int32_t)(p->istart + i * p->idelta);
      break;
    }
    default: {
      int64_t *out = y->data;
      /* In uint64: i * delta may pass INT64_MAX before start brings it back. */
      for (int64_t i = 0; i < n; i++)
        out[i] = (int64_t)((uint64_t)p->istart + (uint64_t)i * (uint64_t)p->idelta);
      break;
    }
  }
  return WNN_OK;
}

/* ----------------------------------------------------------------- Cast */

static bool castable(wnn_dtype d) {
  return d == WNN_DTYPE_F32 || d == WNN_DTYPE_F16 || d == WNN_DTYPE_I64 || d == WNN_DTYPE_I32 || d == WNN_DTYPE_I8 ||
         d == WNN_DTYPE_U8 || d == WNN_DTYPE_BOOL || d == WNN_DTYPE_F64;
}

wnn_status wnn_cast_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Cast";
  wnn_cast_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t to, saturate;
  if ((st = wnn_expect_present(ctx, OP, 0, "input"))) return st;
  if ((st = wnn_attr_int(ctx, "to", -1, &to))) return st;
  if ((st = wnn_attr_int(ctx, "saturate", 1, &saturate))) return st;
  if (saturate != 0 && saturate != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: saturate = %lld, must be 0 or 1", OP,
                       (long long)saturate);
  /* ONNX TensorProto.DataType numbers. */
  switch (to) {
    case 1: p->to = WNN_DTYPE_F32; break;
    case 2: p->to = WNN_DTYPE_U8; break;
    case 3: p->to = WNN_DTYPE_I8; break;
    case 6: p->to = WNN_DTYPE_I32; break;
    case 7: p->to = WNN_DTYPE_I64; break;
    case 9: p->to = WNN_DTYPE_BOOL; break;
    case 10: p->to = WNN_DTYPE_F16; break;
    case 11: p->to = WNN_DTYPE_F64; break;
    case -1: return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: to is required", OP);
    default:
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: to = %lld is not supported (float32 1, uint8 2, int8 3, int32 6, "
                         "int64 7, bool 9, float16 10, float64 11)",
                         OP, (long long)to);
  }
  if (!castable(x->dtype))
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (input) is %s, which Cast does not read",
                       OP, wnn_dtype_name(x->dtype));
  p->from = x->dtype;
  p->f16_f32 = wnn_select_f16_f32_vcvt(ctx->kernels);
  p->f32_f16 = wnn_select_f32_f16_vcvt(ctx->kernels);
  return wnn_set_output(ctx, OP, 0, p->to, x->ndim, x->dims);
}

wnn_status wnn_castlike_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "CastLike";
  wnn_cast_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t saturate;
  if ((st = wnn_expect_present(ctx, OP, 0, "input"))) return st;
  if ((st = wnn_expect_present(ctx, OP, 1, "target_type"))) return st;
  if ((st = wnn_attr_int(ctx, "saturate", 1, &saturate))) return st;
  if (saturate != 0 && saturate != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: saturate = %lld, must be 0 or 1", OP,
                       (long long)saturate);
  for (int i = 0; i < 2; i++)
    if (!castable(ctx->inputs[i].dtype))
      return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, which %s does not handle",
                         OP, i, i ? "target_type" : "input", wnn_dtype_name(ctx->inputs[i].dtype),
                         OP);
  p->from = x->dtype;
  p->to = ctx->inputs[1].dtype;
  p->f16_f32 = wnn_select_f16_f32_vcvt(ctx->kernels);
  p->f32_f16 = wnn_select_f32_f16_vcvt(ctx->kernels);
  return wnn_set_output(ctx, OP, 0, p->to, x->ndim, x->dims);
}

/* A float to int64 rounds toward zero; NaN is 0, and values beyond int64
 * saturate (C leaves those undefined). */
static int64_t f64_to_i64(double f) {
  if (isnan(f)) return 0;
  if (f >= 9223372036854775807.0) return INT64_MAX;
  if (f <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)f;
}

wnn_status wnn_cast_run(const wnn_run_ctx *ctx) {
  const wnn_cast_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const size_t n = (size_t)wnn_shape_numel(x->ndim, x->dims);
  if (p->from == p->to) {
    memcpy(y->data, x->data, n * wnn_dtype_size(p->to));
    return WNN_OK;
  }
  if (p->from == WNN_DTYPE_F16 && p->to == WNN_DTYPE_F32) {
    p->f16_f32(n, x->data, y->data);
    return WNN_OK;
  }
  if (p->from == WNN_DTYPE_F32 && p->to == WNN_DTYPE_F16) {
    p->f32_f16(n, x->data, y->data);
    return WNN_OK;
  }
  for (size_t i = 0; i < n; i++) {
    /* Through int64 (or double for float outputs): narrower integers keep
     * their low bits, as numpy and onnxruntime do. An integer becomes a
     * float32 or float16 through float32 in one rounding; float16 goes
     * through float32, which holds every half exactly, and every integer a
     * half can hold (larger ones round to an infinity either way); float64
     * to float16 rounds through float32. */
    int64_t iv = 0;
    double fv = 0.0;
    bool is_float = p->from == WNN_DTYPE_F32 || p->from == WNN_DTYPE_F16 || p->from == WNN_DTYPE_F64;
    if (is_float) {
      fv = p->from == WNN_DTYPE_F32   ? ((const float *)x->data)[i]
           : p->from == WNN_DTYPE_F64 ? ((const double *)x->data)[i]
                                      : wnn_f16_to_f32(((const uint16_t *)x->data)[i]);
      iv = f64_to_i64(fv);
    } else {
      iv = p->from == WNN_DTYPE_I64 ? ((const int64_t *)x->data)[i]
           : p->from == WNN_DTYPE_I32 ? ((const int32_t *)x->data)[i]
           : p->from == WNN_DTYPE_I8  ? ((const int8_t *)x->data)[i]
           : p->from == WNN_DTYPE_U8  ? ((const uint8_t *)x->data)[i]
                                      : ((const uint8_t *)x->data)[i] != 0;
      fv = (double)iv;
    }
    switch (p->to) {
      case WNN_DTYPE_F32: ((float *)y->data)[i] = is_float ? (float)fv : (float)iv; break;
      case WNN_DTYPE_F64: ((double *)y->data)[i] = fv; break;
      case WNN_DTYPE_F16:
        ((uint16_t *)y->data)[i] = wnn_f32_to_f16(is_float ? (float)fv : (float)iv);
        break;
      case WNN_DTYPE_I64: ((int64_t *)y->data)[i] = iv; break;
      case WNN_DTYPE_I32: ((int32_t *)y->data)[i] = (int32_t)(uint32_t)(uint64_t)iv; break;
      case WNN_DTYPE_I8: ((int8_t *)y->data)[i] = (int8_t)(uint8_t)(uint64_t)iv; break;
      case WNN_DTYPE_U8: ((uint8_t *)y->data)[i] = (uint8_t)(uint64_t)iv; break;
      default: ((uint8_t *)y->data)[i] = is_float ? fv != 0.0 : iv != 0; break;
    }
  }
  return WNN_OK;
}

wnn_status wnn_castlike_run(const wnn_run_ctx *ctx) { return wnn_cast_run(ctx); }

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

/* ------------------------------------------------------------ descriptors */

WNN_ALIAS_OP_DEFINE(squeeze, "Squeeze", 1, 2, 1, 1, NULL);
WNN_ALIAS_OP_DEFINE(unsqueeze, "Unsqueeze", 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(shape, "Shape", WNN_OP_READS_SHAPE_ONLY, 1, 1, 1, 1, WNN_ATTRS("start", "end"));
WNN_OP_DEFINE(size, "Size", WNN_OP_READS_SHAPE_ONLY, 1, 1, 1, 1, NULL);
WNN_OP_DEFINE(cast, "Cast", WNN_OP_FLOAT64, 1, 1, 1, 1, WNN_ATTRS("to", "saturate"));
WNN_OP_DEFINE(constantofshape, "ConstantOfShape", 0, 1, 1, 1, 1, WNN_ATTRS("value"));
WNN_OP_DEFINE(range, "Range", 0, 3, 3, 1, 1, NULL);
WNN_ALIAS_OP_DEFINE(dropout, "Dropout", 1, 3, 1, 2, WNN_ATTRS("seed"));

WNN_OP_DEFINE(castlike, "CastLike", WNN_OP_FLOAT64, 2, 2, 1, 1, WNN_ATTRS("saturate"));
WNN_OP_DEFINE(eyelike, "EyeLike", 0, 1, 1, 1, 1, WNN_ATTRS("dtype", "k"));
