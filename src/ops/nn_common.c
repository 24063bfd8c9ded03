/*
 * Prepare-time helpers that the nn op files share (declared in
 * src/ops/nn_internal.h): fixed-length integer-list attributes, auto_pad, and
 * the selection of the nn kernel families (kernels_nn.inc), by the rules of
 * src/ops/select.c: the last row the build and `kernels` allow.
 */
#include <string.h>

#include "ops/nn_internal.h"

wnn_status wnn_nn_attr_ints(wnn_prepare_ctx *ctx, const char *op, const char *name, int want,
                            int64_t lo, int64_t dflt, bool allow_nc, int64_t *out, bool *given) {
  int64_t vals[WNN_MAX_DIMS * 2];
  int count;
  wnn_status st = wnn_attr_ints(ctx, name, vals, WNN_MAX_DIMS * 2, &count);
  if (st) return st;
  if (given) *given = count >= 0;
  if (count < 0) {
    for (int i = 0; i < want; i++) out[i] = dflt;
    return WNN_OK;
  }
  const int skip = allow_nc && count == want + 2 ? 2 : 0;
  if (count - skip != want)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: %s has %d values, expected %d", op, name,
                       count, want);
  for (int i = 0; i < want; i++) {
    if (vals[skip + i] < lo || vals[skip + i] > INT32_MAX)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: %s[%d] = %lld, must be in [%lld, %d]", op,
                         name, i, (long long)vals[skip + i], (long long)lo, INT32_MAX);
    out[i] = vals[skip + i];
  }
  return WNN_OK;
}

wnn_status wnn_nn_auto_pad(wnn_prepare_ctx *ctx, const char *op, int *mode) {
  const char *s;
  wnn_status st = wnn_attr_string(ctx, "auto_pad", "NOTSET", &s);
  if (st) return st;
  if (strcmp(s, "NOTSET") == 0)
    *mode = WNN_PAD_NOTSET;
  else if (strcmp(s, "VALID") == 0)
    *mode = WNN_PAD_VALID;
  else if (strcmp(s, "SAME_UPPER") == 0)
    *mode = WNN_PAD_SAME_UPPER;
  else if (strcmp(s, "SAME_LOWER") == 0)
    *mode = WNN_PAD_SAME_LOWER;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: auto_pad '%s' is not NOTSET, VALID, SAME_UPPER or SAME_LOWER", op, s);
  return WNN_OK;
}

/* Input i, when present, must be float32 of the given shape. */
wnn_status wnn_nn_expect_f32_shape(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                                   int ndim, const int64_t *dims) {
  if (!(i < ctx->num_inputs && wnn_has_input(ctx, i))) return WNN_OK;
  wnn_status st = wnn_expect_dtype(ctx, op, i, name, WNN_DTYPE_F32);
  if (st) return st;
  const wnn_tdesc *t = &ctx->inputs[i];
  if (!wnn_shape_equal(t->ndim, t->dims, ndim, dims)) {
    char got[64], want[64];
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) has shape %s, expected %s", op, i,
                       name, wnn_format_dims(got, sizeof got, t->ndim, t->dims),
                       wnn_format_dims(want, sizeof want, ndim, dims));
  }
  return WNN_OK;
}
