/* The opset-23 transformer ops rewritten into runtime ops (transformer.h).
 * Each rewrite computes what the op's definition computes (as onnxruntime
 * 1.30 does; Attention scales Q once where the function body scales Q and K
 * by the square root: the same within rounding), and reads no dim that
 * changes with the model's dynamic dims (Reshape with 0 and -1, masks
 * computed at run time), so it works for dynamic artifacts too, except where
 * a rewrite says otherwise. */
#include "importer/transformer.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importer/rewrite.h"

static bool is_float(wnn_dtype t) { return t == WNN_DTYPE_F32 || t == WNN_DTYPE_F16; }

/* Input k must be a float tensor (float16 computes in float32 inside) of
 * rank lo..hi. */
static wnn_status need_float(wnn_rw *r, int k, const char *what, int lo, int hi) {
  wnn_status st = wnn_rw_need(r, k, what, WNN_DTYPE_INVALID, -1);
  if (st) return st;
  const wnn_ir_value *v = wnn_rw_input(r, k);
  char s[WNN_RW_SHAPE_CHARS];
  if (!is_float(v->dtype))
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                       "input %d (%s) '%s' is %s; it must be float or float16", k, what, v->name,
                       wnn_dtype_name(v->dtype));
  if (v->ndim < lo || v->ndim > hi) {
    char ranks[32];
    if (lo == hi) snprintf(ranks, sizeof ranks, "%d", lo);
    else snprintf(ranks, sizeof ranks, "%d to %d", lo, hi);
    return wnn_rw_fail(r, WNN_ERR_SHAPE, "input %d (%s) '%s' has shape %s; it must have rank %s", k,
                       what, v->name, wnn_rw_shape_str(s, sizeof s, v), ranks);
  }
  return WNN_OK;
}

/* A non-negative integer attribute (dflt when absent). */
static wnn_status int_attr(wnn_rw *r, const char *name, int64_t dflt, int64_t *out) {
  double v = wnn_rw_num(r, name, (double)dflt);
  if (v < 0 || v != floor(v) || v > 1e9)
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' is %g; it must be a non-negative "
                       "integer", name, v);
  *out = (int64_t)v;
  return WNN_OK;
}

/* x[..., start:end:step] on the last axis. */
static wnn_status slice_last(wnn_rw *r, int x, int64_t start, int64_t end, int64_t step, int *out) {
  int64_t axis = -1;
  int c_start, c_end, c_axis, c_step;
  wnn_status st;
  if ((st = wnn_rw_cst_i64s(r, 1, &start, &c_start)) ||
      (st = wnn_rw_cst_i64s(r, 1, &end, &c_end)) || (st = wnn_rw_cst_i64s(r, 1, &axis, &c_axis)) ||
      (st = wnn_rw_cst_i64s(r, 1, &step, &c_step)))
    return st;
  int ins[5] = {x, c_start, c_end, c_axis, c_step};
  return wnn_rw_emit(r, "Slice", ins, 5, out, 1, NULL);
}

static wnn_status unsqueeze(wnn_rw *r, int x, int64_t axis, int *out) {
  int c_axis;
  wnn_status st = wnn_rw_cst_i64s(r, 1, &axis, &c_axis);
  return st ? st : wnn_rw_op2(r, "Unsqueeze", x, c_axis, NULL, out);
}

static wnn_status concat(wnn_rw *r, int a, int b, int axis, int *out) {
  cJSON *at = wnn_rw_num_attr("axis", axis);
  if (!at) return wnn_rw_oom(r);
  int ins[2] = {a, b};
  return wnn_rw_emit(r, "Concat", ins, 2, out, 1, at);
}

/* ---- RMSNormalization(X, scale; axis = -1, epsilon = 1e-5, stash_type = 1)
 * Y = X / Sqrt(ReduceMean(X * X over axis..rank-1) + epsilon) * scale ---- */

static wnn_status rms_normalization(wnn_rw *r) {
  static const char *const attrs[] = {"axis", "epsilon", "stash_type", NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  if (!st) st = need_float(r, 0, "X", 1, WNN_MAX_DIMS);
  if (!st) st = need_float(r, 1, "scale", 0, WNN_MAX_DIMS);
  if (!st) st = wnn_rw_no_inputs_from(r, 2, NULL);
  if (st) return st;
  /* stash_type names the type the statistics are computed in: float32 (1)
   * is what wnn computes in; float64 (11) and the others are refused rather
   * than computed with less precision than asked. */
  double stash = wnn_rw_num(r, "stash_type", 1);
  if (stash != 1)
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                       "attribute 'stash_type' = %g is not supported (only 1, "
                       "float)",
                       stash);
  const int rank = wnn_rw_input(r, 0)->ndim;
  double axis_d = wnn_rw_num(r, "axis", -1);
  if (axis_d != floor(axis_d) || axis_d < -rank || axis_d >= rank)
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'axis' is %g; input 0 (X) has rank %d",
                       axis_d, rank);
  const int axis = (int)axis_d < 0 ? (int)axis_d + rank : (int)axis_d;
  int64_t axes[WNN_MAX_DIMS];
  for (int d = axis; d < rank; d++) axes[d - axis] = d;
  const float eps = (float)wnn_rw_num(r, "epsilon", 1e-5);
  const int x = wnn_rw_in(r, 0), scale = wnn_rw_in(r, 1);
  int sq = -1, c_axes, mean = -1, c_eps, mean_eps = -1, rms = -1, norm = -1, out = wnn_rw_out(r, 0);
  if ((st = wnn_rw_op2(r, "Mul", x, x, NULL, &sq))) return st;
  if ((st = wnn_rw_cst_i64s(r, rank - axis, axes, &c_axes))) return st;
  if ((st = wnn_rw_op2(r, "ReduceMean", sq, c_axes, NULL, &mean))) return st;
  if ((st = wnn_rw_cst_f32(r, eps, &c_eps))) return st;
  if ((st = wnn_rw_op2(r, "Add", mean, c_eps, NULL, &mean_eps))) return st;
  if ((st = wnn_rw_op1(r, "Sqrt", mean_eps, NULL, &rms))) return st;
  if ((st = wnn_rw_op2(r, "Div", x, rms, NULL, &norm))) return st;
  return wnn_rw_op2(r, "Mul", norm, scale, NULL, &out);
}

/* ---- RotaryEmbedding(X, cos_cache, sin_cache, position_ids?; interleaved =
 * 0, num_heads = 0, rotary_embedding_dim = 0)
 * X is [B, H, S, D], or [B, S, H * D] with num_heads. The first R dims of each
 * head (R = rotary_embedding_dim, or D) rotate: with x1, x2 the two halves of
 * them (the even and the odd ones when interleaved) and cos, sin the caches'
 * rows at each position ([B, S, R / 2]: Gather by position_ids, or the caches
 * themselves without them),
 *   x1' = cos * x1 - sin * x2,  x2' = sin * x1 + cos * x2,
 * put back in x1's and x2's places; the other D - R dims pass. ---- */

static wnn_status rotary_embedding(wnn_rw *r) {
  static const char *const attrs[] = {"interleaved", "num_heads", "rotary_embedding_dim", NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  if (!st) st = need_float(r, 0, "X", 3, 4);
  if (!st) st = wnn_rw_no_inputs_from(r, 4, NULL);
  if (st) return st;
  int64_t interleaved, heads, rot;
  if ((st = int_attr(r, "interleaved", 0, &interleaved)) ||
      (st = int_attr(r, "num_heads", 0, &heads)) ||
      (st = int_attr(r, "rotary_embedding_dim", 0, &rot)))
    return st;
  const bool pos = wnn_rw_input(r, 3) != NULL;
  if ((st = need_float(r, 1, "cos_cache", pos ? 2 : 3, pos ? 2 : 3)) ||
      (st = need_float(r, 2, "sin_cache", pos ? 2 : 3, pos ? 2 : 3)))
    return st;
  if (pos && (st = wnn_rw_need(r, 3, "position_ids", WNN_DTYPE_I64, 2))) return st;
  const wnn_ir_value *xv = wnn_rw_input(r, 0);
  const int rank = xv->ndim;
  char s1[WNN_RW_SHAPE_CHARS], s2[WNN_RW_SHAPE_CHARS];
  int64_t d;
  if (rank == 4) {
    d = xv->dims[3];
    if (heads && heads != xv->dims[1])
      return wnn_rw_fail(r, WNN_ERR_SHAPE, "attribute 'num_heads' is %lld; input 0 (X) '%s' is %s, "
                         "[batch, heads, sequence, head size]", (long long)heads, xv->name,
                         wnn_rw_shape_str(s1, sizeof s1, xv));
  } else {
    if (!heads)
      return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'num_heads' is required for a 3-D "
                         "input 0 (X) '%s'", xv->name);
    if (xv->dims[2] % heads)
      return wnn_rw_fail(r, WNN_ERR_SHAPE, "input 0 (X) '%s' is %s; its last dim is not a multiple "
                         "of num_heads %lld", xv->name, wnn_rw_shape_str(s1, sizeof s1, xv),
                         (long long)heads);
    d = xv->dims[2] / heads;
  }
  if (!rot) rot = d;
  if (rot > d || rot % 2)
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE,
                       "attribute 'rotary_embedding_dim' is %lld; it must "
                       "be even and at most the head size %lld",
                       (long long)rot, (long long)d);
  const wnn_ir_value *cv = wnn_rw_input(r, 1), *sv = wnn_rw_input(r, 2);
  if (cv->ndim != sv->ndim || memcmp(cv->dims, sv->dims, sizeof(int64_t) * (size_t)cv->ndim))
    return wnn_rw_fail(r, WNN_ERR_SHAPE,
                       "input 1 (cos_cache) '%s' %s and input 2 (sin_cache) '%s' "
                       "%s differ in shape",
                       cv->name, wnn_rw_shape_str(s1, sizeof s1, cv), sv->name,
                       wnn_rw_shape_str(s2, sizeof s2, sv));
  /* Caches wider than R / 2 are read up to R / 2 (the function body slices
   * them; onnxruntime 1.30 refuses them). */
  const int64_t width = cv->dims[cv->ndim - 1];
  if (width < rot / 2)
    return wnn_rw_fail(r, WNN_ERR_SHAPE,
                       "input 1 (cos_cache) '%s' has shape %s; its last dim must be "
                       "at least half the rotary dim %lld",
                       cv->name, wnn_rw_shape_str(s1, sizeof s1, cv), (long long)rot);
  /* Heads on axis 1 (4-D) or 2 (3-D, as [B, S, H, D]); the caches broadcast
   * with an axis of 1 there. */
  const int64_t head_axis = rank == 4 ? 1 : 2;
  int x = wnn_rw_in(r, 0);
  if (rank == 3) {
    const int64_t dims[4] = {0, 0, heads, d};
    int x4 = -1;
    if ((st = wnn_rw_reshape(r, x, 4, dims, &x4))) return st;
    x = x4;
  }
  int cs[2];
  for (int i = 0; i < 2; i++) {
    int rows = wnn_rw_in(r, 1 + i), u = -1;
    if (pos) {
      cJSON *a = wnn_rw_num_attr("axis", 0);
      int g = -1;
      if (!a) return wnn_rw_oom(r);
      if ((st = wnn_rw_op2(r, "Gather", rows, wnn_rw_in(r, 3), a, &g))) return st;
      rows = g;
    }
    if (width > rot / 2) {
      int narrow = -1;
      if ((st = slice_last(r, rows, 0, rot / 2, 1, &narrow))) return st;
      rows = narrow;
    }
    if ((st = unsqueeze(r, rows, head_axis, &u))) return st;
    cs[i] = u;
  }
  int x_rot = x, x_pass = -1;
  if (rot < d) {
    x_rot = -1;
    if ((st = slice_last(r, x, 0, rot, 1, &x_rot)) || (st = slice_last(r, x, rot, d, 1, &x_pass)))
      return st;
  }
  /* x1, x2: the even and odd dims (interleaved), or the two halves. */
  int x1 = -1, x2 = -1;
  const int64_t first2 = interleaved ? 1 : rot / 2, step = interleaved ? 2 : 1;
  if ((st = slice_last(r, x_rot, 0, interleaved ? rot : rot / 2, step, &x1)) ||
      (st = slice_last(r, x_rot, first2, rot, step, &x2)))
    return st;
  int c1 = -1, s2v = -1, s1v = -1, c2 = -1, real = -1, imag = -1;
  if ((st = wnn_rw_op2(r, "Mul", cs[0], x1, NULL, &c1)) ||
      (st = wnn_rw_op2(r, "Mul", cs[1], x2, NULL, &s2v)) ||
      (st = wnn_rw_op2(r, "Sub", c1, s2v, NULL, &real)) ||
      (st = wnn_rw_op2(r, "Mul", cs[1], x1, NULL, &s1v)) ||
      (st = wnn_rw_op2(r, "Mul", cs[0], x2, NULL, &c2)) ||
      (st = wnn_rw_op2(r, "Add", s1v, c2, NULL, &imag)))
    return st;
  const bool last = rot == d;
  int rotated = last && rank == 4 ? wnn_rw_out(r, 0) : -1;
  if (interleaved) {
    /* [..., R/2] twice -> [..., R/2, 2] -> [..., R]. */
    int ur = -1, ui = -1, pairs = -1;
    if ((st = unsqueeze(r, real, -1, &ur)) || (st = unsqueeze(r, imag, -1, &ui)) ||
        (st = concat(r, ur, ui, -1, &pairs)))
      return st;
    const int64_t dims[4] = {0, 0, 0, rot};
    if ((st = wnn_rw_reshape(r, pairs, 4, dims, &rotated))) return st;
  } else if ((st = concat(r, real, imag, -1, &rotated))) {
    return st;
  }
  int y4 = rank == 4 ? wnn_rw_out(r, 0) : -1;
  if (!last && (st = concat(r, rotated, x_pass, -1, &y4))) return st;
  if (last) y4 = rotated;
  if (rank == 4) return WNN_OK;
  const int64_t dims3[3] = {0, 0, -1};
  int out = wnn_rw_out(r, 0);
  return wnn_rw_reshape(r, y4, 3, dims3, &out);
}

/* ---- Swish(X; alpha = 1) = X * Sigmoid(alpha * X) (opset 24) ---- */

static wnn_status swish(wnn_rw *r) {
  static const char *const attrs[] = {"alpha", NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  if (!st) st = need_float(r, 0, "X", 0, WNN_MAX_DIMS);
  if (!st) st = wnn_rw_no_inputs_from(r, 1, NULL);
  if (st) return st;
  const float alpha = (float)wnn_rw_num(r, "alpha", 1.0);
  const int x = wnn_rw_in(r, 0);
  int ax = x, c_alpha, sig = -1, out = wnn_rw_out(r, 0);
  if (alpha != 1.0f) {
    ax = -1;
    if ((st = wnn_rw_cst_f32(r, alpha, &c_alpha)) ||
        (st = wnn_rw_op2(r, "Mul", x, c_alpha, NULL, &ax)))
      return st;
  }
  if ((st = wnn_rw_op1(r, "Sigmoid", ax, NULL, &sig))) return st;
  return wnn_rw_op2(r, "Mul", x, sig, NULL, &out);
}

/* ---- Attention(Q, K, V, attn_mask?, past_key?, past_value?,
 * nonpad_kv_seqlen? (opset 24); is_causal = 0, kv_num_heads, q_num_heads,
 * qk_matmul_output_mode = 0, scale = 1/sqrt(head size), softcap = 0,
 * softmax_precision) -> Y, present_key?, present_value?, qk_matmul_output?
 * Q is [B, Hq, S, D] (or [B, S, Hq * D] with q_num_heads), K [B, Hkv, L, D]
 * and V [B, Hkv, L, Dv] (or 3-D with kv_num_heads); past_key and past_value
 * [B, Hkv, P, D|Dv] go before K and V on the sequence axis (T = P + L keys),
 * which are present_key and present_value.
 *   scores = (Q K^T) * scale;  scores = softcap * tanh(scores / softcap) when
 *   softcap > 0;  scores += bias;  Y = softmax(scores) V
 * qk_matmul_output is the scores after the step qk_matmul_output_mode says
 * (0 the product, 1 softcap, 2 the bias, 3 the softmax). The bias is the
 * sum of attn_mask (a float mask added, or a bool one: 0 where true, -inf
 * where false; broadcast to [B, Hq, S, T]; from opset 24 a mask with fewer
 * than T columns is padded with -inf), -inf for the keys after query i when
 * causal (key j > i + P: the queries follow the past; in opset 24 without a
 * past, j > i + nonpad_kv_seqlen[b] - S), and -inf for the keys from
 * nonpad_kv_seqlen[b] on. Query head h reads key/value head h / (Hq / Hkv):
 * the heads of one group are one GEMM over a [B, Hkv, (Hq / Hkv) * S, D]
 * view of Q, so K and V are never repeated.
 * This is the operator as onnxruntime 1.30 computes it, which is the ONNX
 * specification as amended after opset 24's release (softcap before the
 * mask, the modes numbered so, the causal offset): docs/importer.md. One
 * difference remains: a query row whose keys are all masked gives NaN here
 * (softmax of -inf only), 0 in onnxruntime. ---- */

/* -inf where keep is false, 0 where it is true (a bool tensor). */
static wnn_status bias_of(wnn_rw *r, int keep, int *out) {
  int zero, minus_inf;
  wnn_status st;
  if ((st = wnn_rw_cst_f32(r, 0.0f, &zero)) || (st = wnn_rw_cst_f32(r, -INFINITY, &minus_inf)))
    return st;
  return wnn_rw_op3(r, "Where", keep, zero, minus_inf, NULL, out);
}

/* Dim d of x as a 1-element int64 vector: Shape(x, start = d, end = d + 1)
 * (a constant when x's shape is fixed; a shape node computed at resize when
 * it changes with the model's dims). */
static wnn_status dim_of(wnn_rw *r, int x, int d, int *out) {
  cJSON *a = wnn_rw_num_attr("start", d);
  if (!a || !cJSON_AddNumberToObject(a, "end", d + 1)) {
    cJSON_Delete(a);
    return wnn_rw_oom(r);
  }
  return wnn_rw_op1(r, "Shape", x, a, out);
}

/* x[0:1, 0:1, ...] with the last dims kept when `rows` (a [1, 1, S, T] view
 * of [B, H, S, T]), or x[0:1, 0:1, 0:1, :] ([1, 1, 1, T]) otherwise. */
static wnn_status corner(wnn_rw *r, int x, bool rows, int *out) {
  const int64_t zeros[3] = {0, 0, 0}, ones[3] = {1, 1, 1}, axes[3] = {0, 1, 2};
  const int n = rows ? 2 : 3;
  int c_start, c_end, c_axes;
  wnn_status st;
  if ((st = wnn_rw_cst_i64s(r, n, zeros, &c_start)) || (st = wnn_rw_cst_i64s(r, n, ones, &c_end)) ||
      (st = wnn_rw_cst_i64s(r, n, axes, &c_axes)))
    return st;
  int ins[4] = {x, c_start, c_end, c_axes};
  return wnn_rw_emit(r, "Slice", ins, 4, out, 1, NULL);
}

/* All true, of x's shape, whatever x holds (NaN included): IsNaN(x) or not. */
static wnn_status trues_like(wnn_rw *r, int x, int *out) {
  int nan = -1, not_nan = -1;
  wnn_status st;
  if ((st = wnn_rw_op1(r, "IsNaN", x, NULL, &nan)) ||
      (st = wnn_rw_op1(r, "Not", nan, NULL, &not_nan)))
    return st;
  return wnn_rw_op2(r, "Or", nan, not_nan, NULL, out);
}

/* Positions 0, 1, ... along axis of an all-true bool x, as float32. */
static wnn_status positions(wnn_rw *r, int x, int64_t axis, int *out) {
  int f = -1, c_axis, sum = -1, one;
  cJSON *to = wnn_rw_num_attr("to", 1);
  wnn_status st;
  if (!to) return wnn_rw_oom(r);
  if ((st = wnn_rw_op1(r, "Cast", x, to, &f)) || (st = wnn_rw_cst_i64s(r, 1, &axis, &c_axis)) ||
      (st = wnn_rw_op2(r, "CumSum", f, c_axis, NULL, &sum)) || (st = wnn_rw_cst_f32(r, 1.0f, &one)))
    return st;
  return wnn_rw_op2(r, "Sub", sum, one, NULL, out);
}

/* scores = Where(keep, scores, -inf) (keep broadcast to scores). */
static wnn_status keep_only(wnn_rw *r, int keep, int *scores) {
  int minus_inf, out = -1;
  wnn_status st = wnn_rw_cst_f32(r, -INFINITY, &minus_inf);
  if (!st) st = wnn_rw_op3(r, "Where", keep, *scores, minus_inf, NULL, &out);
  if (!st) *scores = out;
  return st;
}

/* nonpad_kv_seqlen[b] as float32 [B, 1, 1, 1]. */
static wnn_status per_batch_float(wnn_rw *r, int x, int *out) {
  const int64_t dims[4] = {-1, 1, 1, 1};
  int x4 = -1;
  cJSON *to = wnn_rw_num_attr("to", 1);
  if (!to) return wnn_rw_oom(r);
  wnn_status st = wnn_rw_reshape(r, x, 4, dims, &x4);
  if (st) {
    cJSON_Delete(to);
    return st;
  }
  return wnn_rw_op1(r, "Cast", x4, to, out);
}

/* The causal mask and nonpad_kv_seqlen's, applied to *scores ([B, Hq, S, T]):
 * -inf where a key is hidden. Computed at run time on a [1, 1, S, T] or
 * [1, 1, 1, T] corner of the scores, so that nothing of their size is a
 * constant of the artifact or a shape value (long sequences would make
 * either huge); only the past length P is read from a shape. */
static wnn_status mask_keys(wnn_rw *r, bool causal, int *scores) {
  wnn_status st;
  const bool nonpad = wnn_rw_input(r, 6) != NULL, past = wnn_rw_input(r, 4) != NULL;
  if (causal && !(nonpad && !past)) {
    /* Query i sees key j when j <= i + P: the future is Trilu(upper, k = P + 1). */
    int sq = -1, all = -1, k = -1, future = -1;
    if ((st = corner(r, *scores, true, &sq)) || (st = trues_like(r, sq, &all))) return st;
    if (past) {
      int p_len = -1, c_one;
      const int64_t one = 1;
      if ((st = dim_of(r, wnn_rw_in(r, 4), 2, &p_len)) ||
          (st = wnn_rw_cst_i64s(r, 1, &one, &c_one)) ||
          (st = wnn_rw_op2(r, "Add", p_len, c_one, NULL, &k)))
        return st;
    } else {
      const int64_t one = 1;
      if ((st = wnn_rw_cst(r, WNN_DTYPE_I64, 0, NULL, &one, &k))) return st;
    }
    cJSON *up = wnn_rw_num_attr("upper", 1);
    int hidden = -1;
    if (!up) return wnn_rw_oom(r);
    if ((st = wnn_rw_op2(r, "Trilu", all, k, up, &future)) ||
        (st = wnn_rw_op1(r, "Not", future, NULL, &hidden)) || (st = keep_only(r, hidden, scores)))
      return st;
  }
  if (!nonpad) return WNN_OK;
  /* Key j of batch b is padding when j >= nonpad_kv_seqlen[b]. */
  int row = -1, all = -1, j = -1, len = -1, keep = -1;
  if ((st = corner(r, *scores, false, &row)) || (st = trues_like(r, row, &all)) ||
      (st = positions(r, all, -1, &j)) || (st = per_batch_float(r, wnn_rw_in(r, 6), &len)) ||
      (st = wnn_rw_op2(r, "Less", j, len, NULL, &keep)) || (st = keep_only(r, keep, scores)))
    return st;
  if (!causal || past) return WNN_OK;
  /* Causal without a past (opset 24): query i sees key j when
   * j - i <= nonpad_kv_seqlen[b] - S. */
  int sq = -1, grid = -1, jj = -1, ii = -1, diff = -1, s_len = -1, s_f = -1, lim = -1, seen = -1;
  cJSON *to = wnn_rw_num_attr("to", 1);
  if (!to) return wnn_rw_oom(r);
  if ((st = corner(r, *scores, true, &sq)) || (st = trues_like(r, sq, &grid)) ||
      (st = positions(r, grid, -1, &jj)) || (st = positions(r, grid, -2, &ii)) ||
      (st = wnn_rw_op2(r, "Sub", jj, ii, NULL, &diff)) || (st = dim_of(r, *scores, 2, &s_len))) {
    cJSON_Delete(to);
    return st;
  }
  if ((st = wnn_rw_op1(r, "Cast", s_len, to, &s_f)) ||
      (st = wnn_rw_op2(r, "Sub", len, s_f, NULL, &lim)) ||
      (st = wnn_rw_op2(r, "LessOrEqual", diff, lim, NULL, &seen)))
    return st;
  return keep_only(r, seen, scores);
}

/* out = x, when out is a value (>= 0). */
static wnn_status copy_to(wnn_rw *r, int x, int out) {
  return out < 0 ? WNN_OK : wnn_rw_op1(r, "Identity", x, NULL, &out);
}

/* [B, S, H * d] -> [B, H, S, d], or x itself when it is 4-D already. */
static wnn_status to_heads(wnn_rw *r, int x, int rank, int64_t heads, int *out) {
  if (rank == 4) {
    *out = x;
    return WNN_OK;
  }
  static const int bhsd[4] = {0, 2, 1, 3};
  const int64_t dims[4] = {0, 0, heads, -1};
  int x4 = -1;
  wnn_status st = wnn_rw_reshape(r, x, 4, dims, &x4);
  return st ? st : wnn_rw_transpose(r, x4, 4, bhsd, out);
}

/* Input k's heads attribute (3-D) or dim 1 (4-D). */
static wnn_status heads_of(wnn_rw *r, int k, const char *what, const char *attr, int64_t *heads) {
  const wnn_ir_value *v = wnn_rw_input(r, k);
  char s[WNN_RW_SHAPE_CHARS];
  int64_t a;
  wnn_status st = int_attr(r, attr, 0, &a);
  if (st) return st;
  if (v->ndim == 4) {
    if (a && a != v->dims[1])
      return wnn_rw_fail(r, WNN_ERR_SHAPE, "attribute '%s' is %lld; input %d (%s) '%s' is %s", attr,
                         (long long)a, k, what, v->name, wnn_rw_shape_str(s, sizeof s, v));
    *heads = v->dims[1];
    return WNN_OK;
  }
  if (!a)
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute '%s' is required for a 3-D input %d "
                       "(%s) '%s'", attr, k, what, v->name);
  if (v->dims[2] % a)
    return wnn_rw_fail(r, WNN_ERR_SHAPE, "input %d (%s) '%s' is %s; its last dim is not a multiple "
                       "of %s %lld", k, what, v->name, wnn_rw_shape_str(s, sizeof s, v), attr,
                       (long long)a);
  *heads = a;
  return WNN_OK;
}

static wnn_status attention(wnn_rw *r) {
  static const char *const attrs[] = {"is_causal", "kv_num_heads", "q_num_heads",
                                      "qk_matmul_output_mode", "scale", "softcap",
                                      "softmax_precision", NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  if (!st) st = need_float(r, 0, "Q", 3, 4);
  if (!st) st = need_float(r, 1, "K", 3, 4);
  if (!st) st = need_float(r, 2, "V", 3, 4);
  if (!st) st = wnn_rw_no_inputs_from(r, r->g->opset >= 24 ? 7 : 6, NULL);
  if (st) return st;
  const wnn_ir_value *q = wnn_rw_input(r, 0), *k = wnn_rw_input(r, 1), *v = wnn_rw_input(r, 2);
  char s1[WNN_RW_SHAPE_CHARS], s2[WNN_RW_SHAPE_CHARS];
  const int rank = q->ndim;
  if (k->ndim != rank || v->ndim != rank)
    return wnn_rw_fail(r, WNN_ERR_SHAPE, "inputs 0 (Q) '%s' %s and 1 (K) '%s' %s, 2 (V) must have "
                       "the same rank", q->name, wnn_rw_shape_str(s1, sizeof s1, q), k->name,
                       wnn_rw_shape_str(s2, sizeof s2, k));
  int64_t hq, hkv, hv;
  if ((st = heads_of(r, 0, "Q", "q_num_heads", &hq)) ||
      (st = heads_of(r, 1, "K", "kv_num_heads", &hkv)) ||
      (st = heads_of(r, 2, "V", "kv_num_heads", &hv)))
    return st;
  q = wnn_rw_input(r, 0), k = wnn_rw_input(r, 1), v = wnn_rw_input(r, 2);
  const int64_t b = q->dims[0], s = q->dims[rank == 4 ? 2 : 1], l = k->dims[rank == 4 ? 2 : 1];
  const int64_t d = rank == 4 ? q->dims[3] : q->dims[2] / hq;
  const int64_t dk = rank == 4 ? k->dims[3] : k->dims[2] / hkv;
  const int64_t dv = rank == 4 ? v->dims[3] : v->dims[2] / hv;
  if (hv != hkv || hq % hkv || d != dk || k->dims[0] != b || v->dims[0] != b ||
      v->dims[rank == 4 ? 2 : 1] != l)
    return wnn_rw_fail(r, WNN_ERR_SHAPE, "input 0 (Q) '%s' %s with %lld heads, input 1 (K) '%s' %s "
                       "with %lld heads and input 2 (V) '%s' with %lld heads do not agree: K and V "
                       "need the same batch, sequence and heads, Q's heads a multiple of theirs, Q "
                       "and K the same head size", q->name, wnn_rw_shape_str(s1, sizeof s1, q),
                       (long long)hq, k->name, wnn_rw_shape_str(s2, sizeof s2, k), (long long)hkv,
                       v->name, (long long)hv);
  /* past_key [B, Hkv, P, D] and past_value [B, Hkv, P, Dv] come together. */
  const bool past = wnn_rw_input(r, 4) || wnn_rw_input(r, 5);
  int64_t p = 0;
  if (past) {
    if ((st = need_float(r, 4, "past_key", 4, 4)) || (st = need_float(r, 5, "past_value", 4, 4)))
      return st;
    const wnn_ir_value *pk = wnn_rw_input(r, 4), *pv = wnn_rw_input(r, 5);
    p = pk->dims[2];
    if (pk->dims[0] != b || pk->dims[1] != hkv || pk->dims[3] != d || pv->dims[0] != b ||
        pv->dims[1] != hkv || pv->dims[2] != p || pv->dims[3] != dv)
      return wnn_rw_fail(r, WNN_ERR_SHAPE, "inputs 4 (past_key) '%s' %s and 5 (past_value) '%s' %s "
                         "must be [%lld, %lld, past, %lld] and [%lld, %lld, past, %lld]", pk->name,
                         wnn_rw_shape_str(s1, sizeof s1, pk), pv->name,
                         wnn_rw_shape_str(s2, sizeof s2, pv), (long long)b, (long long)hkv,
                         (long long)d, (long long)b, (long long)hkv, (long long)dv);
  }
  const int64_t t = p + l;
  int64_t causal, mode;
  if ((st = int_attr(r, "is_causal", 0, &causal)) ||
      (st = int_attr(r, "qk_matmul_output_mode", 0, &mode)))
    return st;
  if (mode > 3)
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE,
                       "attribute 'qk_matmul_output_mode' is %lld; it must "
                       "be 0 to 3",
                       (long long)mode);
  const double softcap = wnn_rw_num(r, "softcap", 0);
  if (softcap < 0)
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'softcap' is %g; it must be >= 0",
                       softcap);
  const double scale_attr = wnn_rw_num(r, "scale", 0);
  const float scale = scale_attr != 0 ? (float)scale_attr : 1.0f / sqrtf((float)d);
  /* The masks; their shapes must broadcast to [B, Hq, S, T] (from opset 24
   * with fewer columns than T, padded). */
  const wnn_ir_value *m = wnn_rw_input(r, 3);
  int mask = -1;
  if (wnn_rw_input(r, 6)) {
    if ((st = wnn_rw_need(r, 6, "nonpad_kv_seqlen", WNN_DTYPE_I64, 1))) return st;
    if (wnn_rw_input(r, 6)->dims[0] != b)
      return wnn_rw_fail(r, WNN_ERR_SHAPE, "input 6 (nonpad_kv_seqlen) '%s' has %lld elements; the "
                         "batch is %lld", wnn_rw_input(r, 6)->name,
                         (long long)wnn_rw_input(r, 6)->dims[0], (long long)b);
  }
  if (m) {
    if ((st = wnn_rw_need(r, 3, "attn_mask", WNN_DTYPE_INVALID, -1))) return st;
    m = wnn_rw_input(r, 3);
    const int64_t full[4] = {b, hq, s, t};
    const int mrank = m->ndim;
    const int64_t cols = mrank ? m->dims[mrank - 1] : 1;
    const bool short_cols = r->g->opset >= 24 && mrank >= 1 && cols > 1 && cols < t;
    bool ok = mrank <= 4 && (m->dtype == WNN_DTYPE_BOOL || is_float(m->dtype));
    for (int i = short_cols ? 2 : 1; ok && i <= mrank; i++)
      ok = m->dims[mrank - i] == 1 || m->dims[mrank - i] == full[4 - i];
    if (!ok)
      return wnn_rw_fail(r, WNN_ERR_SHAPE, "input 3 (attn_mask) '%s' is %s %s; it must be bool or "
                         "float and broadcast to [%lld, %lld, %lld, %lld]", m->name,
                         wnn_dtype_name(m->dtype), wnn_rw_shape_str(s1, sizeof s1, m), (long long)b,
                         (long long)hq, (long long)s, (long long)t);
    mask = wnn_rw_in(r, 3);
    if (m->dtype == WNN_DTYPE_BOOL) {
      int f = -1;
      if ((st = bias_of(r, mask, &f))) return st;
      mask = f;
    }
    if (short_cols && (m->dyn_shape || k->dyn_shape || (past && wnn_rw_input(r, 4)->dyn_shape)))
      return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED, "input 3 (attn_mask) '%s' has fewer columns than "
                         "keys, and the sequence lengths change with the model's dynamic dims: fix "
                         "them with --shape", m->name);
    if (short_cols) {
      /* -inf for the missing columns. */
      int64_t pads[2 * WNN_MAX_DIMS] = {0};
      pads[2 * mrank - 1] = t - cols;
      int c_pads, c_value, padded = -1;
      if ((st = wnn_rw_cst_i64s(r, 2 * mrank, pads, &c_pads)) ||
          (st = wnn_rw_cst_f32(r, -INFINITY, &c_value)) ||
          (st = wnn_rw_op3(r, "Pad", mask, c_pads, c_value, NULL, &padded)))
        return st;
      mask = padded;
    }
  }
  /* Q, K, V as [B, H, seq, d]; the past before K and V. */
  int qh = -1, kh = -1, vh = -1;
  if ((st = to_heads(r, wnn_rw_in(r, 0), rank, hq, &qh)) ||
      (st = to_heads(r, wnn_rw_in(r, 1), rank, hkv, &kh)) ||
      (st = to_heads(r, wnn_rw_in(r, 2), rank, hkv, &vh)))
    return st;
  for (int i = 0; i < 2; i++) {
    int present = wnn_rw_out_used(r, 1 + i) ? wnn_rw_out(r, 1 + i) : -1, *x = i ? &vh : &kh;
    if (past) {
      if ((st = concat(r, wnn_rw_in(r, 4 + i), *x, 2, &present))) return st;
      *x = present;
    } else if ((st = copy_to(r, *x, present))) {
      return st;
    }
  }
  /* scores [B, Hq, S, T] = (Q * scale) K^T, the heads of a group as one
   * [B, Hkv, G * S, D] x [B, Hkv, D, T] product. */
  const int64_t group = hq / hkv;
  static const int kt_perm[4] = {0, 1, 3, 2};
  int c_scale, qs = -1, kt = -1, scores = -1;
  if ((st = wnn_rw_cst_f32(r, scale, &c_scale)) ||
      (st = wnn_rw_op2(r, "Mul", qh, c_scale, NULL, &qs)) ||
      (st = wnn_rw_transpose(r, kh, 4, kt_perm, &kt)))
    return st;
  const int64_t grouped[4] = {0, hkv, -1, 0}, by_head[4] = {0, hq, -1, 0};
  if (group > 1) {
    int qg = -1;
    if ((st = wnn_rw_reshape(r, qs, 4, grouped, &qg))) return st;
    qs = qg;
  }
  const int qk_out = wnn_rw_out_used(r, 3) ? wnn_rw_out(r, 3) : -1;
  int stage = mode == 0 && group == 1 ? qk_out : -1;
  if ((st = wnn_rw_op2(r, "MatMul", qs, kt, NULL, &stage))) return st;
  if (group > 1) {
    int sh = mode == 0 ? qk_out : -1;
    if ((st = wnn_rw_reshape(r, stage, 4, by_head, &sh))) return st;
    stage = sh;
  }
  scores = stage;
  if (softcap > 0) {
    int c_cap, div = -1, th = -1, capped = mode == 1 ? qk_out : -1;
    if ((st = wnn_rw_cst_f32(r, (float)softcap, &c_cap)) ||
        (st = wnn_rw_op2(r, "Div", scores, c_cap, NULL, &div)) ||
        (st = wnn_rw_op1(r, "Tanh", div, NULL, &th)) ||
        (st = wnn_rw_op2(r, "Mul", th, c_cap, NULL, &capped)))
      return st;
    scores = capped;
  } else if (mode == 1 && (st = copy_to(r, scores, qk_out))) {
    return st;
  }
  if (mask >= 0) {
    int masked = -1;
    if ((st = wnn_rw_op2(r, "Add", scores, mask, NULL, &masked))) return st;
    scores = masked;
  }
  if ((st = mask_keys(r, causal != 0, &scores))) return st;
  if (mode == 2 && (st = copy_to(r, scores, qk_out))) return st;
  cJSON *last = wnn_rw_num_attr("axis", -1);
  int probs = mode == 3 ? qk_out : -1;
  if (!last) return wnn_rw_oom(r);
  if ((st = wnn_rw_op1(r, "Softmax", scores, last, &probs))) return st;
  /* Y = probs V, grouped the same way. */
  if (group > 1) {
    int pg = -1;
    if ((st = wnn_rw_reshape(r, probs, 4, grouped, &pg))) return st;
    probs = pg;
  }
  const int out = wnn_rw_out(r, 0);
  int y = rank == 4 && group == 1 ? out : -1;
  if ((st = wnn_rw_op2(r, "MatMul", probs, vh, NULL, &y))) return st;
  if (group > 1) {
    int yh = rank == 4 ? out : -1;
    if ((st = wnn_rw_reshape(r, y, 4, by_head, &yh))) return st;
    y = yh;
  }
  if (rank == 4) return WNN_OK;
  static const int bshd[4] = {0, 2, 1, 3};
  const int64_t dims3[3] = {0, 0, -1};
  int back = -1, y3 = out;
  if ((st = wnn_rw_transpose(r, y, 4, bshd, &back))) return st;
  return wnn_rw_reshape(r, back, 3, dims3, &y3);
}

bool wnn_transformer_handles(const wnn_ir_graph *g, const wnn_ir_node *n) {
  if (g->opset < 23 || (n->domain[0] && strcmp(n->domain, "ai.onnx"))) return false;
  return !strcmp(n->op_type, "Attention") || !strcmp(n->op_type, "RMSNormalization") ||
         !strcmp(n->op_type, "RotaryEmbedding") || (g->opset >= 24 && !strcmp(n->op_type, "Swish"));
}

wnn_status wnn_transformer_rewrite(wnn_ir_graph *g, int id, bool *replaced) {
  *replaced = false;
  const wnn_ir_node *n = &g->nodes[id];
  if (n->dead || !wnn_transformer_handles(g, n)) return WNN_OK;
  wnn_rw r = {g, id, 0};
  wnn_status st;
  if (!strcmp(n->op_type, "Attention")) st = attention(&r);
  else if (!strcmp(n->op_type, "RMSNormalization")) st = rms_normalization(&r);
  else if (!strcmp(n->op_type, "Swish")) st = swish(&r);
  else st = rotary_embedding(&r);
  if (st) return st;
  g->nodes[r.id].dead = true;
  wnn_ir_count_readers(g);
  *replaced = true;
  return WNN_OK;
}
