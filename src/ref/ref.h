/*
 * Reference implementations: the test oracle. Each is a direct loop nest
 * written from the ONNX definition, with the contract of the op's run function
 * (src/ops/op.h): it reads the params its op's prepare filled (attributes
 * resolved, e.g. pads after auto_pad) and the tensors' own shapes, and calls no
 * microkernel. Deliberately simple and slow. Built only with WNN_WITH_REFERENCE.
 */
#ifndef WNN_REF_H
#define WNN_REF_H

#include <math.h>

#include "ops/op.h"

#ifdef WNN_WITH_REFERENCE
/* Index helpers the reference loops share. */

/* Coordinates idx of linear index t in dims (row-major). */
static inline void wnn_ref_unravel(int64_t t, int nd, const int64_t *dims, int64_t *idx) {
  for (int i = nd - 1; i >= 0; i--) idx[i] = t % dims[i], t /= dims[i];
}

/* The linear index of coordinates idx in dims (row-major). */
static inline int64_t wnn_ref_ravel(int nd, const int64_t *dims, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < nd; i++) off = off * dims[i] + idx[i];
  return off;
}

static inline int64_t wnn_ref_numel(const wnn_tensor *t) {
  return wnn_shape_numel(t->ndim, t->dims);
}

/* Element access for the math references: t's element i as a double or an
 * int64 (bool as 0/1), written from both (the one of t's dtype). */
/* Linear index into t of the output element at idx (numpy broadcasting). */
static inline int64_t wnn_ref_bindex(const wnn_tensor *t, int out_nd, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < t->ndim; i++) {
    const int64_t d = t->dims[i];
    off = off * d + (d == 1 ? 0 : idx[i + out_nd - t->ndim]);
  }
  return off;
}

static inline double wnn_ref_get_f(const wnn_tensor *t, int64_t i) {
  switch (t->dtype) {
    case WNN_DTYPE_F32: return ((const float *)t->data)[i];
    case WNN_DTYPE_I32: return ((const int32_t *)t->data)[i];
    case WNN_DTYPE_I64: return (double)((const int64_t *)t->data)[i];
    case WNN_DTYPE_I8: return ((const int8_t *)t->data)[i];
    case WNN_DTYPE_U8: return ((const uint8_t *)t->data)[i];
    default: return ((const uint8_t *)t->data)[i] != 0; /* bool */
  }
}

static inline int64_t wnn_ref_get_i(const wnn_tensor *t, int64_t i) {
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

static inline void wnn_ref_put(const wnn_tensor *t, int64_t i, double f, int64_t v) {
  switch (t->dtype) {
    case WNN_DTYPE_F32: ((float *)t->data)[i] = (float)f; break;
    case WNN_DTYPE_I32: ((int32_t *)t->data)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
    case WNN_DTYPE_I64: ((int64_t *)t->data)[i] = v; break;
    case WNN_DTYPE_I8: ((int8_t *)t->data)[i] = (int8_t)(uint8_t)(uint64_t)v; break;
    case WNN_DTYPE_U8: ((uint8_t *)t->data)[i] = (uint8_t)(uint64_t)v; break;
    default: ((uint8_t *)t->data)[i] = v != 0; break; /* bool */
  }
}

/* The cubic convolution kernel (Keys) with coefficient a at distance t:
 * Resize's cubic mode and GridSample's bicubic. */
static inline double wnn_ref_keys(double a, double t) {
  t = fabs(t);
  if (t <= 1) return (a + 2) * t * t * t - (a + 3) * t * t + 1;
  if (t < 2) return a * t * t * t - 5 * a * t * t + 8 * a * t - 4 * a;
  return 0;
}

/* float16 <-> float32 written from the definition of binary16 in floating
 * point, independently of the bit manipulations of src/base/half.h that the
 * kernels use (src/ref/ref_tensor_shape.c). NaNs: the sign kept, quiet, the
 * top payload bits kept (the part of the result no formula decides). */
float wnn_ref_f16_to_f32(uint16_t h);
uint16_t wnn_ref_f32_to_f16(float f);

/* The references themselves, wnn_ref_<symbol>, are declared in ops/op.h from
 * ops/ops.inc, and each op's descriptor points at its own. */
#endif

#endif /* WNN_REF_H */
