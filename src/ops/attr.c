/*
 * Attribute readers over a node's JSON attributes object, error reporting for
 * prepare and run, and shape helpers. Attributes are plain JSON values:
 * numbers for int and float, arrays of numbers for ints, strings for string.
 */
#include <math.h>
#include <stdarg.h>

#include <cjson/cJSON.h>

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

static const cJSON *find_attr(const wnn_prepare_ctx *ctx, const char *name) {
  if (!ctx->attrs || !cJSON_IsObject(ctx->attrs)) return NULL;
  return cJSON_GetObjectItemCaseSensitive(ctx->attrs, name);
}

/* An integral JSON number in int64 range. cJSON keeps numbers as doubles, so
 * integers are exact up to 2^53, far beyond any dimension or axis. */
static bool as_int64(const cJSON *item, int64_t *out) {
  if (!cJSON_IsNumber(item)) return false;
  const double v = item->valuedouble;
  if (!(v == floor(v)) || v < -9.2e18 || v > 9.2e18) return false;
  *out = (int64_t)v;
  return true;
}

wnn_status wnn_attr_int(wnn_prepare_ctx *ctx, const char *name, int64_t dflt, int64_t *out) {
  const cJSON *item = find_attr(ctx, name);
  if (!item) {
    *out = dflt;
    return WNN_OK;
  }
  if (!as_int64(item, out))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' must be an integer", name);
  return WNN_OK;
}

wnn_status wnn_attr_float(wnn_prepare_ctx *ctx, const char *name, float dflt, float *out) {
  const cJSON *item = find_attr(ctx, name);
  if (!item) {
    *out = dflt;
    return WNN_OK;
  }
  if (!cJSON_IsNumber(item))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' must be a number", name);
  *out = (float)item->valuedouble;
  return WNN_OK;
}

wnn_status wnn_attr_ints(wnn_prepare_ctx *ctx, const char *name, int64_t *out, int max,
                         int *count) {
  const cJSON *item = find_attr(ctx, name);
  if (!item) {
    *count = -1;
    return WNN_OK;
  }
  if (!cJSON_IsArray(item))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' must be a list of integers",
                       name);
  const int n = cJSON_GetArraySize(item);
  if (n > max)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' has %d values, at most %d",
                       name, n, max);
  int i = 0;
  const cJSON *elem;
  cJSON_ArrayForEach(elem, item) {
    if (!as_int64(elem, &out[i]))
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s'[%d] must be an integer",
                         name, i);
    i++;
  }
  *count = n;
  return WNN_OK;
}

wnn_status wnn_attr_string(wnn_prepare_ctx *ctx, const char *name, const char *dflt,
                           const char **out) {
  const cJSON *item = find_attr(ctx, name);
  if (!item) {
    *out = dflt;
    return WNN_OK;
  }
  if (!cJSON_IsString(item) || !item->valuestring)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' must be a string", name);
  *out = item->valuestring;
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
