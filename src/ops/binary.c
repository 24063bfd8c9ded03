/*
 * Add, Sub, Mul, Div (ONNX opset 13/14) with multidirectional (numpy)
 * broadcasting, for float32, int32 and int64, and the broadcasting plan the
 * other binary, variadic and logic ops share (math_internal.h).
 *
 * Prepare reduces the broadcast to as few dimensions as possible: output dims
 * of size 1 are dropped and neighbours merged wherever both operands are
 * contiguous (or both broadcast) across them. Run then walks the outer
 * dimensions and hands each innermost run to one kernel call: VV when both
 * operands advance, VC when b stays fixed, RVC when a stays fixed.
 */
#include "ops/math_internal.h"
#include "runtime/pool.h"

WNN_PARAMS_FIT(wnn_binary_params);

static const char *const OP_NAMES[] = {"Add", "Sub", "Mul", "Div"};

/* Drops size-1 dims and merges dim i into i+1 where both operands step
 * through them as one (stride[i] == stride[i+1] * dims[i+1], 0 == 0 included). */
static void simplify(wnn_bcast_plan *p, int nd, const int64_t *dims, const size_t *sa,
                     const size_t *sb) {
  int n = 0;
  for (int i = 0; i < nd; i++) {
    if (dims[i] == 1) continue;
    const size_t d = (size_t)dims[i];
    if (n > 0 && p->a_strides[n - 1] == sa[i] * d && p->b_strides[n - 1] == sb[i] * d) {
      p->dims[n - 1] *= d;
      p->a_strides[n - 1] = sa[i], p->b_strides[n - 1] = sb[i];
      continue;
    }
    p->dims[n] = d, p->a_strides[n] = sa[i], p->b_strides[n] = sb[i];
    n++;
  }
  if (n == 0) { /* every dim is 1: one element */
    p->dims[0] = 1, p->a_strides[0] = 1, p->b_strides[0] = 1;
    n = 1;
  }
  p->ndim = n;
}

int wnn_bcast_shapes(int nd_a, const int64_t *a, int nd_b, const int64_t *b, int64_t *out,
                     int *out_nd, wnn_bcast_plan *plan) {
  const int nd = nd_a > nd_b ? nd_a : nd_b;
  int64_t dims[WNN_MAX_DIMS];
  size_t sa[WNN_MAX_DIMS], sb[WNN_MAX_DIMS];
  size_t stride_a = 1, stride_b = 1;
  for (int i = nd - 1; i >= 0; i--) {
    const int ia = i - (nd - nd_a), ib = i - (nd - nd_b);
    const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1) return i;
    dims[i] = da == 1 ? db : da;
    sa[i] = da == 1 ? 0 : stride_a;
    sb[i] = db == 1 ? 0 : stride_b;
    stride_a *= (size_t)da, stride_b *= (size_t)db;
  }
  if (out) {
    for (int i = 0; i < nd; i++) out[i] = dims[i];
    *out_nd = nd;
  }
  if (plan) simplify(plan, nd, dims, sa, sb);
  return -1;
}

wnn_status wnn_bcast_prepare(wnn_prepare_ctx *ctx, const char *op, const wnn_tdesc *a,
                             const wnn_tdesc *b, int64_t *out, int *out_nd, wnn_bcast_plan *plan) {
  const int bad = wnn_bcast_shapes(a->ndim, a->dims, b->ndim, b->dims, out, out_nd, plan);
  if (bad < 0) return WNN_OK;
  const int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
  const int ia = bad - (nd - a->ndim), ib = bad - (nd - b->ndim);
  char sa_txt[128], sb_txt[128];
  return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                     "%s: shapes %s and %s do not broadcast (dim %d: %lld vs %lld)", op,
                     wnn_format_dims(sa_txt, sizeof sa_txt, a->ndim, a->dims),
                     wnn_format_dims(sb_txt, sizeof sb_txt, b->ndim, b->dims), bad,
                     (long long)(ia >= 0 ? a->dims[ia] : 1), (long long)(ib >= 0 ? b->dims[ib] : 1));
}

void wnn_bcast_run(const wnn_bcast_plan *p, wnn_vbinary_x_ukernel *fn, const void *a_,
                   size_t a_size, const void *b_, size_t b_size, void *y_, size_t y_size) {
  const char *a = a_, *b = b_;
  char *y = y_;
  const int outer_nd = p->ndim - 1;
  const size_t n = p->dims[outer_nd];
  const size_t sa = p->a_strides[outer_nd], sb = p->b_strides[outer_nd];
  size_t count = 1;
  for (int i = 0; i < outer_nd; i++) count *= p->dims[i];
  if (n == 0) return;
  size_t idx[WNN_MAX_DIMS] = {0};
  size_t a_off = 0, b_off = 0; /* in elements */
  for (size_t t = 0; t < count; t++) {
    fn(n, a + a_off * a_size, sa, b + b_off * b_size, sb, y + t * n * y_size);
    for (int i = outer_nd - 1; i >= 0; i--) { /* odometer, innermost fastest */
      a_off += p->a_strides[i], b_off += p->b_strides[i];
      if (++idx[i] < p->dims[i]) break;
      a_off -= p->a_strides[i] * idx[i], b_off -= p->b_strides[i] * idx[i];
      idx[i] = 0;
    }
  }
}

/* ----------------------------------------------------- Add, Sub, Mul, Div */

static wnn_status binary_prepare(wnn_prepare_ctx *ctx, int binop) {
  const char *op = OP_NAMES[binop];
  wnn_binary_params *p = ctx->params;
  const wnn_tdesc *a = &ctx->inputs[0];
  wnn_status st;
  if (a->dtype != WNN_DTYPE_F32 && a->dtype != WNN_DTYPE_I32 && a->dtype != WNN_DTYPE_I64 &&
      a->dtype != WNN_DTYPE_U8 && a->dtype != WNN_DTYPE_I8)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                       "%s: input 0 (A) is %s, expected float32, int32, int64, uint8 or int8", op,
                       wnn_dtype_name(a->dtype));
  if ((st = wnn_expect_dtype(ctx, op, 1, "B", a->dtype))) return st;
  int64_t out[WNN_MAX_DIMS];
  int nd = 0;
  wnn_bcast_plan plan;
  if ((st = wnn_bcast_prepare(ctx, op, a, &ctx->inputs[1], out, &nd, &plan))) return st;
  if ((st = wnn_set_output(ctx, op, 0, a->dtype, nd, out))) return st;
  p->op = binop;
  p->dtype = a->dtype;
  p->ndim = plan.ndim;
  for (int i = 0; i < plan.ndim; i++)
    p->dims[i] = plan.dims[i], p->a_strides[i] = plan.a_strides[i],
    p->b_strides[i] = plan.b_strides[i];
  p->vv = wnn_select_vbinary(ctx->kernels, a->dtype, binop, WNN_KIND_VV);
  p->vc = wnn_select_vbinary(ctx->kernels, a->dtype, binop, WNN_KIND_VC);
  p->rvc = wnn_select_vbinary(ctx->kernels, a->dtype, binop, WNN_KIND_RVC);
  return WNN_OK;
}

wnn_status wnn_add_prepare(wnn_prepare_ctx *ctx) { return binary_prepare(ctx, WNN_BINOP_ADD); }
wnn_status wnn_sub_prepare(wnn_prepare_ctx *ctx) { return binary_prepare(ctx, WNN_BINOP_SUB); }
wnn_status wnn_mul_prepare(wnn_prepare_ctx *ctx) { return binary_prepare(ctx, WNN_BINOP_MUL); }
wnn_status wnn_div_prepare(wnn_prepare_ctx *ctx) { return binary_prepare(ctx, WNN_BINOP_DIV); }

/* 8-bit elements (rare: no kernels): n results of a[i * sa] op b[i * sb],
 * with the int32 kernels' rules (wrap-around, truncating division, x / 0 is
 * 0, -128 / -1 wraps to -128). */
static void run_8bit(int op, bool is_signed, size_t n, size_t sa, size_t sb, const uint8_t *a,
                     const uint8_t *b, uint8_t *y) {
  for (size_t i = 0; i < n; i++) {
    const int x = is_signed ? (int8_t)a[i * sa] : a[i * sa];
    const int z = is_signed ? (int8_t)b[i * sb] : b[i * sb];
    int r;
    switch (op) {
      case WNN_BINOP_ADD: r = x + z; break;
      case WNN_BINOP_SUB: r = x - z; break;
      case WNN_BINOP_MUL: r = x * z; break;
      default: r = z == 0 ? 0 : x / z;
    }
    y[i] = (uint8_t)(unsigned)r;
  }
}

/* One innermost run of n elements; a and b point at their first elements. */
static void run_inner(const wnn_binary_params *p, size_t n, size_t sa, size_t sb, const char *a,
                      const char *b, char *y) {
  /* Pick the layout, swapping for RVC so the kernel's first operand is the
   * vector: rvc(n, vec_b, &a0, y) computes a0 op b[i]. */
  if (p->dtype == WNN_DTYPE_U8 || p->dtype == WNN_DTYPE_I8) {
    run_8bit(p->op, p->dtype == WNN_DTYPE_I8, n, sa, sb, (const uint8_t *)a, (const uint8_t *)b,
             (uint8_t *)y);
    return;
  }
  const wnn_vbinary_fn *fn = &p->vv;
  if (sa == 1 && sb == 0) fn = &p->vc;
  else if (sa == 0 && sb == 1) {
    fn = &p->rvc;
    const char *t = a;
    a = b, b = t;
  }
  switch (p->dtype) {
    case WNN_DTYPE_F32: fn->f32(n, (const float *)a, (const float *)b, (float *)y); break;
    case WNN_DTYPE_I32: fn->s32(n, (const int32_t *)a, (const int32_t *)b, (int32_t *)y); break;
    case WNN_DTYPE_I64: fn->s64(n, (const int64_t *)a, (const int64_t *)b, (int64_t *)y); break;
    default: break;
  }
}

/* Elements per unit of work for intra-op threads. */
enum { BINARY_CHUNK = 16384 };

typedef struct binary_job {
  const wnn_binary_params *p;
  size_t esize, n, sa, sb, chunks;
  const char *a, *b;
  char *y;
} binary_job;

/* Units u = t * chunks + c: chunk c of innermost run t. Each writes its own
 * elements, element by element as one run would, so ranges split over
 * intra-op threads with the same bits. */
static void binary_units(void *ctx, size_t u0, size_t u1) {
  const binary_job *j = ctx;
  const wnn_binary_params *p = j->p;
  const int outer_nd = p->ndim - 1;
  size_t t = u0 / j->chunks, c = u0 % j->chunks;
  /* Run t's first elements (innermost dim fastest), then an odometer. */
  size_t idx[WNN_MAX_DIMS] = {0}, a_off = 0, b_off = 0, rest = t;
  for (int i = outer_nd - 1; i >= 0; i--) {
    idx[i] = rest % p->dims[i];
    rest /= p->dims[i];
    a_off += idx[i] * p->a_strides[i], b_off += idx[i] * p->b_strides[i];
  }
  for (size_t u = u0; u < u1; u++) {
    const size_t start = c * BINARY_CHUNK;
    const size_t len = j->n - start < BINARY_CHUNK ? j->n - start : BINARY_CHUNK;
    run_inner(p, len, j->sa, j->sb, j->a + (a_off + start * j->sa) * j->esize,
              j->b + (b_off + start * j->sb) * j->esize, j->y + (t * j->n + start) * j->esize);
    if (++c < j->chunks) continue;
    c = 0, t++;
    for (int i = outer_nd - 1; i >= 0; i--) {
      a_off += p->a_strides[i], b_off += p->b_strides[i];
      if (++idx[i] < p->dims[i]) break;
      a_off -= p->a_strides[i] * idx[i], b_off -= p->b_strides[i] * idx[i];
      idx[i] = 0;
    }
  }
}

static wnn_status binary_run(const wnn_run_ctx *ctx) {
  const wnn_binary_params *p = ctx->params;
  const int outer_nd = p->ndim - 1;
  const size_t n = p->dims[outer_nd];
  size_t count = 1;
  for (int i = 0; i < outer_nd; i++) count *= p->dims[i];
  if (n == 0 || count == 0) return WNN_OK;
  binary_job j = {p, wnn_dtype_size(p->dtype), n, p->a_strides[outer_nd], p->b_strides[outer_nd],
                  (n + BINARY_CHUNK - 1) / BINARY_CHUNK, ctx->inputs[0].data, ctx->inputs[1].data,
                  ctx->outputs[0].data};
  /* A thread takes at least 2^17 elements. */
  const size_t per_unit = n < BINARY_CHUNK ? n : BINARY_CHUNK;
  wnn_parallel_for(count * j.chunks, WNN_PARALLEL_MIN_MACS / per_unit + 1, binary_units, &j);
  return WNN_OK;
}

wnn_status wnn_add_run(const wnn_run_ctx *ctx) { return binary_run(ctx); }
wnn_status wnn_sub_run(const wnn_run_ctx *ctx) { return binary_run(ctx); }
wnn_status wnn_mul_run(const wnn_run_ctx *ctx) { return binary_run(ctx); }
wnn_status wnn_div_run(const wnn_run_ctx *ctx) { return binary_run(ctx); }

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(add, "Add", WNN_OP_INPLACE, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(sub, "Sub", WNN_OP_INPLACE, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(mul, "Mul", WNN_OP_INPLACE, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(div, "Div", WNN_OP_INPLACE, 2, 2, 1, 1, NULL);
