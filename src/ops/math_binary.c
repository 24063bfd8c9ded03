/*
 * Binary and variadic element-wise ops with numpy broadcasting (the plan of
 * binary.c): Pow (float32, int32 or int64 base; float32, int32 or int64
 * exponent), PRelu, Mod, the comparisons Equal, Less, LessOrEqual,
 * Greater, GreaterOrEqual (bool output), And, Or, Xor (bool), and the variadic
 * Min, Max, Sum, Mean.
 */
#include <string.h>

#include "base/status.h"
#include "ops/math_internal.h"

WNN_PARAMS_FIT(wnn_bitshift_params);

WNN_PARAMS_FIT(wnn_xbinary_params);

static bool is_numeric(wnn_dtype d) {
  return d == WNN_DTYPE_F32 || d == WNN_DTYPE_I32 || d == WNN_DTYPE_I64;
}

/* Output shape, plan and kernel of a two-operand op; a_dtype and y_dtype are
 * already checked by the caller. */
static wnn_status two_prepare(wnn_prepare_ctx *ctx, const char *op, int vbin, wnn_dtype y_dtype) {
  wnn_xbinary_params *p = ctx->params;
  const wnn_tdesc *a = &ctx->inputs[0], *b = &ctx->inputs[1];
  int64_t out[WNN_MAX_DIMS];
  int nd = 0;
  wnn_status st;
  if ((st = wnn_bcast_prepare(ctx, op, a, b, out, &nd, &p->plan))) return st;
  if ((st = wnn_set_output(ctx, op, 0, y_dtype, nd, out))) return st;
  p->op = vbin;
  p->a_dtype = a->dtype, p->b_dtype = b->dtype, p->y_dtype = y_dtype;
  p->fn = wnn_select_vbinary_x(ctx->kernels, a->dtype, vbin);
  if (!p->fn)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: no kernel for input 0 of dtype %s", op,
                       wnn_dtype_name(a->dtype));
  return WNN_OK;
}

static wnn_status two_run(const wnn_run_ctx *ctx) {
  const wnn_xbinary_params *p = ctx->params;
  wnn_bcast_run(&p->plan, p->fn, ctx->inputs[0].data, wnn_dtype_size(p->a_dtype),
                ctx->inputs[1].data, wnn_dtype_size(p->b_dtype), ctx->outputs[0].data,
                wnn_dtype_size(p->y_dtype));
  return WNN_OK;
}

static wnn_status expect_numeric(wnn_prepare_ctx *ctx, const char *op, int i, const char *name) {
  const wnn_dtype d = ctx->inputs[i].dtype;
  if (is_numeric(d)) return WNN_OK;
  return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected float32, int32 or int64",
                     op, i, name, wnn_dtype_name(d));
}

/* ------------------------------------------------------------------ Pow */

/* The base's dtype is the output's; the exponent may be any of float32,
 * int32, int64. */
wnn_status wnn_pow_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Pow";
  wnn_status st;
  if ((st = expect_numeric(ctx, OP, 0, "X"))) return st;
  if ((st = expect_numeric(ctx, OP, 1, "Y"))) return st;
  const wnn_dtype e = ctx->inputs[1].dtype;
  const int vbin = e == WNN_DTYPE_F32 ? WNN_VBIN_POW
                   : e == WNN_DTYPE_I32 ? WNN_VBIN_POW_S32 : WNN_VBIN_POW_S64;
  return two_prepare(ctx, OP, vbin, ctx->inputs[0].dtype);
}
wnn_status wnn_pow_run(const wnn_run_ctx *ctx) { return two_run(ctx); }

/* ---------------------------------------------------------------- PRelu */

wnn_status wnn_prelu_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "PRelu";
  const wnn_tdesc *x = &ctx->inputs[0], *s = &ctx->inputs[1];
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, OP, 0, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, 1, "slope", WNN_DTYPE_F32))) return st;
  /* slope broadcasts to X's shape (unidirectionally): the output is X's shape. */
  int64_t out[WNN_MAX_DIMS];
  int nd = 0;
  if (wnn_bcast_shapes(x->ndim, x->dims, s->ndim, s->dims, out, &nd, NULL) >= 0 ||
      !wnn_shape_equal(nd, out, x->ndim, x->dims)) {
    char xs[128], ss[128];
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: slope of shape %s does not broadcast to X's %s",
                       OP, wnn_format_dims(ss, sizeof ss, s->ndim, s->dims),
                       wnn_format_dims(xs, sizeof xs, x->ndim, x->dims));
  }
  return two_prepare(ctx, OP, WNN_VBIN_PRELU, WNN_DTYPE_F32);
}
wnn_status wnn_prelu_run(const wnn_run_ctx *ctx) { return two_run(ctx); }

/* ------------------------------------------------------------------ Mod */

wnn_status wnn_mod_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Mod";
  const wnn_tdesc *a = &ctx->inputs[0];
  wnn_status st;
  bool fmod;
  if (!is_numeric(a->dtype) && a->dtype != WNN_DTYPE_I8 && a->dtype != WNN_DTYPE_U8)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                       "%s: input 0 (A) is %s, expected float32, int32, int64, int8 or uint8", OP,
                       wnn_dtype_name(a->dtype));
  if ((st = wnn_expect_dtype(ctx, OP, 1, "B", a->dtype))) return st;
  if ((st = wnn_attr_bool(ctx, OP, "fmod", &fmod))) return st;
  if (a->dtype == WNN_DTYPE_F32 && !fmod)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: fmod is 0 but the inputs are float32; float Mod needs fmod=1", OP);
  return two_prepare(ctx, OP, fmod ? WNN_VBIN_FMOD : WNN_VBIN_MOD, a->dtype);
}
wnn_status wnn_mod_run(const wnn_run_ctx *ctx) { return two_run(ctx); }

/* ---------------------------------------------------------- comparisons */

static wnn_status compare_prepare(wnn_prepare_ctx *ctx, const char *op, int vbin) {
  const wnn_tdesc *a = &ctx->inputs[0];
  wnn_status st;
  if (!is_numeric(a->dtype) && !(vbin == WNN_VBIN_EQ && a->dtype == WNN_DTYPE_BOOL))
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (A) is %s, expected float32, int32 or int64%s",
                       op, wnn_dtype_name(a->dtype), vbin == WNN_VBIN_EQ ? " or bool" : "");
  if ((st = wnn_expect_dtype(ctx, op, 1, "B", a->dtype))) return st;
  return two_prepare(ctx, op, vbin, WNN_DTYPE_BOOL);
}

wnn_status wnn_equal_prepare(wnn_prepare_ctx *ctx) {
  return compare_prepare(ctx, "Equal", WNN_VBIN_EQ);
}
wnn_status wnn_less_prepare(wnn_prepare_ctx *ctx) {
  return compare_prepare(ctx, "Less", WNN_VBIN_LT);
}
wnn_status wnn_lessorequal_prepare(wnn_prepare_ctx *ctx) {
  return compare_prepare(ctx, "LessOrEqual", WNN_VBIN_LE);
}
wnn_status wnn_greater_prepare(wnn_prepare_ctx *ctx) {
  return compare_prepare(ctx, "Greater", WNN_VBIN_GT);
}
wnn_status wnn_greaterorequal_prepare(wnn_prepare_ctx *ctx) {
  return compare_prepare(ctx, "GreaterOrEqual", WNN_VBIN_GE);
}
wnn_status wnn_equal_run(const wnn_run_ctx *ctx) { return two_run(ctx); }
wnn_status wnn_less_run(const wnn_run_ctx *ctx) { return two_run(ctx); }
wnn_status wnn_lessorequal_run(const wnn_run_ctx *ctx) { return two_run(ctx); }
wnn_status wnn_greater_run(const wnn_run_ctx *ctx) { return two_run(ctx); }
wnn_status wnn_greaterorequal_run(const wnn_run_ctx *ctx) { return two_run(ctx); }

/* ------------------------------------------------------- And, Or, Xor */

static wnn_status logic_prepare(wnn_prepare_ctx *ctx, const char *op, int vbin) {
  wnn_status st;
  if ((st = wnn_expect_dtype(ctx, op, 0, "A", WNN_DTYPE_BOOL))) return st;
  if ((st = wnn_expect_dtype(ctx, op, 1, "B", WNN_DTYPE_BOOL))) return st;
  return two_prepare(ctx, op, vbin, WNN_DTYPE_BOOL);
}

wnn_status wnn_and_prepare(wnn_prepare_ctx *ctx) { return logic_prepare(ctx, "And", WNN_VBIN_AND); }
wnn_status wnn_or_prepare(wnn_prepare_ctx *ctx) { return logic_prepare(ctx, "Or", WNN_VBIN_OR); }
wnn_status wnn_xor_prepare(wnn_prepare_ctx *ctx) { return logic_prepare(ctx, "Xor", WNN_VBIN_XOR); }
wnn_status wnn_and_run(const wnn_run_ctx *ctx) { return two_run(ctx); }
wnn_status wnn_or_run(const wnn_run_ctx *ctx) { return two_run(ctx); }
wnn_status wnn_xor_run(const wnn_run_ctx *ctx) { return two_run(ctx); }

/* ---------------------------------------------------- Min, Max, Sum, Mean */

/* Every input has input 0's dtype; the output is the broadcast of all. */
static wnn_status variadic_prepare(wnn_prepare_ctx *ctx, const char *op, int vbin, bool mean) {
  wnn_xbinary_params *p = ctx->params;
  const wnn_tdesc *a = &ctx->inputs[0];
  wnn_status st;
  /* Min and Max also take int8 and uint8 */
  const bool small_ok = vbin == WNN_VBIN_MIN || vbin == WNN_VBIN_MAX;
  if (mean) {
    if ((st = wnn_expect_dtype(ctx, op, 0, "data_0", WNN_DTYPE_F32))) return st;
  } else if (!is_numeric(a->dtype) &&
             !(small_ok && (a->dtype == WNN_DTYPE_I8 || a->dtype == WNN_DTYPE_U8))) {
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (data_0) is %s, expected float32, int32, int64%s",
                       op, wnn_dtype_name(a->dtype), small_ok ? ", int8 or uint8" : "");
  }
  wnn_tdesc acc = *a;
  for (int i = 1; i < ctx->num_inputs; i++) {
    char name[24]; /* "data_" and any int */
    wnn_fmt(name, sizeof name, "data_%d", i);
    if ((st = wnn_expect_dtype(ctx, op, i, name, a->dtype))) return st;
    wnn_tdesc next = acc;
    if ((st = wnn_bcast_prepare(ctx, op, &acc, &ctx->inputs[i], next.dims, &next.ndim, NULL)))
      return st;
    acc = next;
  }
  if ((st = wnn_set_output(ctx, op, 0, a->dtype, acc.ndim, acc.dims))) return st;
  p->op = vbin;
  p->mean = mean;
  p->a_dtype = p->b_dtype = p->y_dtype = a->dtype;
  p->fn = wnn_select_vbinary_x(ctx->kernels, a->dtype, vbin);
  return WNN_OK;
}

/* Element copies for broadcasting input 0 into y: y[i] = b[i * sb]. */
#define COPY(name, T)                                                                   \
  static void name(size_t n, const void *a, size_t sa, const void *b_, size_t sb, void *y_) { \
    const T *b = b_;                                                                    \
    T *y = y_;                                                                          \
    for (size_t i = 0; i < n; i++) y[i] = b[i * sb];                                    \
  }
COPY(copy1, uint8_t)
COPY(copy4, uint32_t)
COPY(copy8, uint64_t)

/* y = in0 broadcast to y's shape (a copy, skipped when y is in0), then
 * y = y op in_k for k = 1, 2, ...: each step's plan comes from the shapes
 * (cheap, no allocation), and y is read only where it is written. */
static wnn_status variadic_run(const wnn_run_ctx *ctx) {
  const wnn_xbinary_params *p = ctx->params;
  const wnn_tensor *y = &ctx->outputs[0], *a = &ctx->inputs[0];
  const size_t es = wnn_dtype_size(p->y_dtype);
  const size_t total = (size_t)wnn_shape_numel(y->ndim, y->dims);
  if (total == 0) return WNN_OK;
  wnn_bcast_plan plan;
  const void *acc = a->data;
  if (wnn_shape_numel(a->ndim, a->dims) != (int64_t)total || ctx->num_inputs == 1) {
    if (y->data != a->data) {
      wnn_bcast_shapes(y->ndim, y->dims, a->ndim, a->dims, NULL, NULL, &plan);
      wnn_bcast_run(&plan, es == 8 ? copy8 : es == 4 ? copy4 : copy1, y->data, es, a->data, es, y->data, es);
    }
    acc = y->data;
  }
  for (int i = 1; i < ctx->num_inputs; i++) {
    const wnn_tensor *b = &ctx->inputs[i];
    wnn_bcast_shapes(y->ndim, y->dims, b->ndim, b->dims, NULL, NULL, &plan);
    wnn_bcast_run(&plan, p->fn, acc, es, b->data, es, y->data, es);
    acc = y->data;
  }
  if (p->mean) {
    float *out = y->data;
    const float n = (float)ctx->num_inputs;
    for (size_t i = 0; i < total; i++) out[i] /= n;
  }
  return WNN_OK;
}

wnn_status wnn_min_prepare(wnn_prepare_ctx *ctx) {
  return variadic_prepare(ctx, "Min", WNN_VBIN_MIN, false);
}
wnn_status wnn_max_prepare(wnn_prepare_ctx *ctx) {
  return variadic_prepare(ctx, "Max", WNN_VBIN_MAX, false);
}
wnn_status wnn_sum_prepare(wnn_prepare_ctx *ctx) {
  return variadic_prepare(ctx, "Sum", WNN_VBIN_ADD, false);
}
wnn_status wnn_mean_prepare(wnn_prepare_ctx *ctx) {
  return variadic_prepare(ctx, "Mean", WNN_VBIN_ADD, true);
}
wnn_status wnn_min_run(const wnn_run_ctx *ctx) { return variadic_run(ctx); }
wnn_status wnn_max_run(const wnn_run_ctx *ctx) { return variadic_run(ctx); }
wnn_status wnn_sum_run(const wnn_run_ctx *ctx) { return variadic_run(ctx); }
wnn_status wnn_mean_run(const wnn_run_ctx *ctx) { return variadic_run(ctx); }

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

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(pow, "Pow", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(prelu, "PRelu", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(min, "Min", 0, 1, WNN_MAX_IO, 1, 1, NULL);
WNN_OP_DEFINE(max, "Max", 0, 1, WNN_MAX_IO, 1, 1, NULL);
WNN_OP_DEFINE(sum, "Sum", 0, 1, WNN_MAX_IO, 1, 1, NULL);
WNN_OP_DEFINE(mean, "Mean", 0, 1, WNN_MAX_IO, 1, 1, NULL);
WNN_OP_DEFINE(equal, "Equal", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(less, "Less", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(lessorequal, "LessOrEqual", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(greater, "Greater", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(greaterorequal, "GreaterOrEqual", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(and, "And", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(or, "Or", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(xor, "Xor", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(mod, "Mod", 0, 2, 2, 1, 1, WNN_ATTRS("fmod"));
WNN_OP_DEFINE(bitshift, "BitShift", 0, 2, 2, 1, 1, WNN_ATTRS("direction"));
