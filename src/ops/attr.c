/*
 * Attribute readers over a node's attributes (base/attrs.h), worded for the
 * ops' messages, and error reporting for prepare and run. Attributes are
 * numbers for int and float, lists of numbers for ints, strings for string.
 */
#include <math.h>
#include <stdarg.h>

#include "ops/op.h"
#include "ops/op_internal.h"
#include "base/status.h"

wnn_status wnn_op_fail(wnn_prepare_ctx *ctx, wnn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wnn_vseterr(ctx->msg, ctx->msg_cap, status, fmt, ap);
  va_end(ap);
  return status;
}

wnn_status wnn_run_fail(const wnn_run_ctx *ctx, wnn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wnn_vseterr(ctx->msg, ctx->msg_cap, status, fmt, ap);
  va_end(ap);
  return status;
}

bool wnn_attr_has(const wnn_prepare_ctx *ctx, const char *name) {
  return wnn_attrs_kind(ctx->attrs, name) != WNN_ATTR_ABSENT;
}

/* An integral number in int64 range. Attribute numbers are doubles, so
 * integers are exact up to 2^53, far beyond any dimension or axis. */
static bool as_int64(double v, int64_t *out) {
  if (!(v == floor(v)) || v < -9.2e18 || v > 9.2e18) return false;
  *out = (int64_t)v;
  return true;
}

wnn_status wnn_attr_int(wnn_prepare_ctx *ctx, const char *name, int64_t dflt, int64_t *out) {
  double v;
  if (!wnn_attr_has(ctx, name)) {
    *out = dflt;
    return WNN_OK;
  }
  if (!wnn_attrs_number(ctx->attrs, name, &v) || !as_int64(v, out))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' must be an integer", name);
  return WNN_OK;
}

wnn_status wnn_attr_float(wnn_prepare_ctx *ctx, const char *name, float dflt, float *out) {
  double v;
  if (!wnn_attr_has(ctx, name)) {
    *out = dflt;
    return WNN_OK;
  }
  if (!wnn_attrs_number(ctx->attrs, name, &v))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' must be a number", name);
  *out = (float)v;
  return WNN_OK;
}

wnn_status wnn_attr_ints(wnn_prepare_ctx *ctx, const char *name, int64_t *out, int max,
                         int *count) {
  if (!wnn_attr_has(ctx, name)) {
    *count = -1;
    return WNN_OK;
  }
  const int n = wnn_attrs_list_size(ctx->attrs, name);
  if (n < 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' must be a list of integers",
                       name);
  if (n > max)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' has %d values, at most %d",
                       name, n, max);
  for (int i = 0; i < n; i++) {
    double v;
    if (!wnn_attrs_list_number(ctx->attrs, name, i, &v) || !as_int64(v, &out[i]))
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s'[%d] must be an integer",
                         name, i);
  }
  *count = n;
  return WNN_OK;
}

wnn_status wnn_attr_string(wnn_prepare_ctx *ctx, const char *name, const char *dflt,
                           const char **out) {
  if (!wnn_attr_has(ctx, name)) {
    *out = dflt;
    return WNN_OK;
  }
  if (!wnn_attrs_string(ctx->attrs, name, out))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' must be a string", name);
  return WNN_OK;
}

wnn_status wnn_attr_bool(wnn_prepare_ctx *ctx, const char *op, const char *name, bool *out) {
  int64_t v;
  wnn_status st = wnn_attr_int(ctx, name, 0, &v);
  if (st) return st;
  if (v != 0 && v != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: %s = %lld, must be 0 or 1", op, name,
                       (long long)v);
  *out = v == 1;
  return WNN_OK;
}
