/* com.microsoft contrib ops -> default-domain ONNX nodes (contrib.h). The
 * semantics are ONNX Runtime's CPU kernels', checked against onnxruntime-node
 * (docs/importer.md). */
#include "importer/contrib.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importer/rewrite.h"
#include "ops/op_internal.h"

#define DOMAIN "com.microsoft"

static const char *const handled[] = {"Attention", "SkipLayerNormalization",
                                      "EmbedLayerNormalization", "FastGelu",
                                      "DynamicQuantizeMatMul", "QLinearAdd", "QLinearMul",
                                      "QLinearGlobalAveragePool", "QLinearSigmoid",
                                      "QLinearLeakyRelu", "QLinearConcat", "MatMulNBits", NULL};

bool wnn_contrib_handles(const char *domain, const char *op_type) {
  if (!domain || !op_type || strcmp(domain, DOMAIN)) return false;
  for (const char *const *h = handled; *h; h++)
    if (!strcmp(*h, op_type)) return true;
  return false;
}

/* A [H] vector (gamma, beta, bias) of the hidden size. */
static wnn_status need_vec(wnn_rw *r, int k, const char *what, int64_t h) {
  wnn_status st = wnn_rw_need(r, k, what, WNN_DTYPE_F32, 1);
  if (st) return st;
  const wnn_ir_value *v = wnn_rw_input(r, k);
  if (v->dims[0] != h)
    return wnn_rw_fail(r, WNN_ERR_SHAPE,
                       "input %d (%s) '%s' has %lld elements; the hidden size is %lld", k, what,
                       v->name, (long long)v->dims[0], (long long)h);
  return WNN_OK;
}

/* A float32 [rows, h] table of the hidden size h. */
static wnn_status need_table(wnn_rw *r, int k, const char *what, int64_t h) {
  wnn_status st = wnn_rw_need(r, k, what, WNN_DTYPE_F32, 2);
  if (st) return st;
  const wnn_ir_value *v = wnn_rw_input(r, k);
  char s[WNN_RW_SHAPE_CHARS];
  if (v->dims[1] != h)
    return wnn_rw_fail(r, WNN_ERR_SHAPE, "input %d (%s) '%s' has shape %s; the hidden size is %lld",
                       k, what, v->name, wnn_rw_shape_str(s, sizeof s, v), (long long)h);
  return WNN_OK;
}

static bool is_index_type(wnn_dtype t) { return t == WNN_DTYPE_I32 || t == WNN_DTYPE_I64; }

/* LayerNormalization over the last axis. */
static wnn_status layer_norm(wnn_rw *r, int x, int gamma, int beta, double eps, int *out) {
  cJSON *a = wnn_rw_num_attr("axis", -1);
  if (!a || !cJSON_AddNumberToObject(a, "epsilon", eps)) {
    cJSON_Delete(a);
    return wnn_rw_oom(r);
  }
  return wnn_rw_op3(r, "LayerNormalization", x, gamma, beta >= 0 ? beta : WNN_RW_NONE, a, out);
}

/* ---- FastGelu(X, bias?) = Gelu_tanh(X + bias) ---- */

static wnn_status fast_gelu(wnn_rw *r) {
  static const char *const attrs[] = {NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  if (!st) st = wnn_rw_need(r, 0, "X", WNN_DTYPE_F32, -1);
  if (!st) st = wnn_rw_no_inputs_from(r, 2, NULL);
  if (st) return st;
  const wnn_ir_value *x = wnn_rw_input(r, 0);
  int64_t h = x->ndim ? x->dims[x->ndim - 1] : 1;
  int v = wnn_rw_in(r, 0);
  if (wnn_rw_input(r, 1)) {
    if ((st = need_vec(r, 1, "bias", h))) return st;
    int sum = -1;
    if ((st = wnn_rw_op2(r, "Add", v, wnn_rw_in(r, 1), NULL, &sum))) return st;
    v = sum;
  }
  cJSON *a = cJSON_CreateObject();
  if (!a || !cJSON_AddStringToObject(a, "approximate", "tanh")) {
    cJSON_Delete(a);
    return wnn_rw_oom(r);
  }
  int out = wnn_rw_out(r, 0);
  return wnn_rw_op1(r, "Gelu", v, a, &out);
}

/* ---- SkipLayerNormalization(input, skip, gamma, beta?, bias?) ----
 * sum = input + skip (+ bias); output = LayerNorm(sum) * gamma + beta;
 * output 3 = sum. */

static wnn_status skip_layer_norm(wnn_rw *r) {
  static const char *const attrs[] = {"epsilon", NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  if (!st) st = wnn_rw_need(r, 0, "input", WNN_DTYPE_F32, -1);
  if (!st) st = wnn_rw_need(r, 1, "skip", WNN_DTYPE_F32, -1);
  if (!st) st = wnn_rw_no_inputs_from(r, 5, NULL);
  if (st) return st;
  const wnn_ir_value *x = wnn_rw_input(r, 0), *s = wnn_rw_input(r, 1);
  char xs[WNN_RW_SHAPE_CHARS], ss[WNN_RW_SHAPE_CHARS];
  if (x->ndim < 2 || x->ndim > 3)
    return wnn_rw_fail(r, WNN_ERR_SHAPE,
                       "input 0 (input) '%s' has shape %s; it must have rank 2 or 3", x->name,
                       wnn_rw_shape_str(xs, sizeof xs, x));
  /* skip: the input's shape, or its trailing dims (ORT allows [1, S, H] and
   * [S, H] for [B, S, H]). */
  bool ok = s->ndim <= x->ndim && s->ndim >= 1;
  for (int d = 1; ok && d <= s->ndim; d++) {
    int64_t sd = s->dims[s->ndim - d], xd = x->dims[x->ndim - d];
    ok = sd == xd || (sd == 1 && d == s->ndim && d > 2);
  }
  if (!ok)
    return wnn_rw_fail(r, WNN_ERR_SHAPE,
                       "input 1 (skip) '%s' has shape %s, which does not broadcast to "
                       "input 0 '%s' %s",
                       s->name, wnn_rw_shape_str(ss, sizeof ss, s), x->name,
                       wnn_rw_shape_str(xs, sizeof xs, x));
  int64_t h = x->dims[x->ndim - 1];
  if ((st = need_vec(r, 2, "gamma", h))) return st;
  if (wnn_rw_input(r, 3) && (st = need_vec(r, 3, "beta", h))) return st;
  if (wnn_rw_input(r, 4) && (st = need_vec(r, 4, "bias", h))) return st;
  for (int k = 1; k <= 2; k++)
    if (wnn_rw_out_used(r, k))
      return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                         "output %d (%s) '%s' is read; only outputs 0 and 3 are "
                         "supported",
                         k, k == 1 ? "mean" : "inv_std_var", r->g->values[wnn_rw_out(r, k)].name);
  double eps = wnn_rw_num(r, "epsilon", 1e-12);
  int sum_out = wnn_rw_out_used(r, 3) ? wnn_rw_out(r, 3) : -1;
  int sum = wnn_rw_input(r, 4) ? -1 : sum_out;
  if ((st = wnn_rw_op2(r, "Add", wnn_rw_in(r, 0), wnn_rw_in(r, 1), NULL, &sum))) return st;
  if (wnn_rw_input(r, 4)) {
    int with_bias = sum_out;
    if ((st = wnn_rw_op2(r, "Add", sum, wnn_rw_in(r, 4), NULL, &with_bias))) return st;
    sum = with_bias;
  }
  int out = wnn_rw_out(r, 0);
  return layer_norm(r, sum, wnn_rw_in(r, 2), wnn_rw_in(r, 3), eps, &out);
}

/* ---- EmbedLayerNormalization(input_ids, segment_ids?, word_embedding,
 * position_embedding, segment_embedding?, gamma, beta, mask?, position_ids?)
 * sum = word[input_ids] + position[position_ids or 0..S-1] (+ segment[ids]);
 * output = LayerNorm(sum) * gamma + beta; mask_index[b] = the count of ones in
 * mask[b] (0 without a mask); embedding_sum = sum. */

static wnn_status embed_layer_norm(wnn_rw *r) {
  static const char *const attrs[] = {"epsilon", "mask_index_type", NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  if (!st) st = wnn_rw_need(r, 0, "input_ids", WNN_DTYPE_INVALID, 2);
  if (!st) st = wnn_rw_need(r, 2, "word_embedding", WNN_DTYPE_F32, 2);
  if (!st) st = wnn_rw_need(r, 3, "position_embedding", WNN_DTYPE_F32, 2);
  if (!st) st = wnn_rw_no_inputs_from(r, 9, NULL);
  if (st) return st;
  const wnn_ir_value *ids = wnn_rw_input(r, 0);
  char s1[WNN_RW_SHAPE_CHARS], s2[WNN_RW_SHAPE_CHARS];
  if (!is_index_type(ids->dtype))
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                       "input 0 (input_ids) '%s' is %s; it must be int32 or int64", ids->name,
                       wnn_dtype_name(ids->dtype));
  int64_t b = ids->dims[0], s = ids->dims[1], h = wnn_rw_input(r, 2)->dims[1];
  if ((st = need_table(r, 3, "position_embedding", h))) return st;
  if ((st = need_vec(r, 5, "gamma", h)) || (st = need_vec(r, 6, "beta", h))) return st;
  /* Index inputs of input_ids' shape ([1, S] too for position_ids). */
  static const struct {
    int k;
    const char *what;
  } idx[] = {{1, "segment_ids"}, {7, "mask"}, {8, "position_ids"}};
  for (size_t i = 0; i < sizeof idx / sizeof idx[0]; i++) {
    const wnn_ir_value *v = wnn_rw_input(r, idx[i].k);
    if (!v) continue;
    if ((st = wnn_rw_need(r, idx[i].k, idx[i].what, WNN_DTYPE_INVALID, 2))) return st;
    if (!is_index_type(v->dtype))
      return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                         "input %d (%s) '%s' is %s; it must be int32 or int64", idx[i].k,
                         idx[i].what, v->name, wnn_dtype_name(v->dtype));
    if (!((v->dims[0] == b || (idx[i].k == 8 && v->dims[0] == 1)) && v->dims[1] == s))
      return wnn_rw_fail(r, WNN_ERR_SHAPE, "input %d (%s) '%s' has shape %s; input_ids '%s' is %s",
                  idx[i].k, idx[i].what, v->name, wnn_rw_shape_str(s1, sizeof s1, v), ids->name,
                  wnn_rw_shape_str(s2, sizeof s2, ids));
  }
  if (wnn_rw_input(r, 1) && !wnn_rw_input(r, 4))
    return wnn_rw_fail(r, WNN_ERR_MALFORMED,
                       "has input 1 (segment_ids) but no input 4 (segment_embedding)");
  if (wnn_rw_input(r, 4)) {
    if ((st = need_table(r, 4, "segment_embedding", h))) return st;
    if (!wnn_rw_input(r, 1))
      return wnn_rw_fail(r, WNN_ERR_MALFORMED,
                         "has input 4 (segment_embedding) but no input 1 (segment_ids)");
  }
  cJSON *axis0 = wnn_rw_num_attr("axis", 0);
  int word = -1;
  if (!axis0) return wnn_rw_oom(r);
  if ((st = wnn_rw_op2(r, "Gather", wnn_rw_in(r, 2), wnn_rw_in(r, 0), axis0, &word))) return st;
  int pos = -1;
  if (wnn_rw_input(r, 8)) {
    if (!(axis0 = wnn_rw_num_attr("axis", 0))) return wnn_rw_oom(r);
    st = wnn_rw_op2(r, "Gather", wnn_rw_in(r, 3), wnn_rw_in(r, 8), axis0, &pos);
  } else {
    /* Positions 0..S-1: the first S rows. */
    if (wnn_rw_input(r, 3)->dims[0] < s)
      return wnn_rw_fail(r, WNN_ERR_SHAPE,
                         "input 3 (position_embedding) '%s' has %lld rows, fewer than "
                         "the sequence length %lld",
                         wnn_rw_input(r, 3)->name, (long long)wnn_rw_input(r, 3)->dims[0],
                         (long long)s);
    int64_t zero = 0;
    int starts, ends;
    if (!(st = wnn_rw_cst_i64s(r, 1, &zero, &starts)) && !(st = wnn_rw_cst_i64s(r, 1, &s, &ends)))
      st = wnn_rw_op3(r, "Slice", wnn_rw_in(r, 3), starts, ends, NULL, &pos);
  }
  if (st) return st;
  int sum_out = wnn_rw_out_used(r, 2) ? wnn_rw_out(r, 2) : -1;
  int sum = wnn_rw_input(r, 4) ? -1 : sum_out;
  if ((st = wnn_rw_op2(r, "Add", word, pos, NULL, &sum))) return st;
  if (wnn_rw_input(r, 4)) {
    int seg = -1, total = sum_out;
    if (!(axis0 = wnn_rw_num_attr("axis", 0))) return wnn_rw_oom(r);
    if ((st = wnn_rw_op2(r, "Gather", wnn_rw_in(r, 4), wnn_rw_in(r, 1), axis0, &seg))) return st;
    if ((st = wnn_rw_op2(r, "Add", sum, seg, NULL, &total))) return st;
    sum = total;
  }
  int out = wnn_rw_out(r, 0);
  if ((st = layer_norm(r, sum, wnn_rw_in(r, 5), wnn_rw_in(r, 6), wnn_rw_num(r, "epsilon", 1e-12),
                       &out)))
    return st;
  if (!wnn_rw_out_used(r, 1)) return WNN_OK;
  /* mask_index: int32 [B], the number of mask elements equal to 1 per row. */
  int mask_index = wnn_rw_out(r, 1);
  if (!wnn_rw_input(r, 7)) {
    wnn_status cs = wnn_ir_set_const(r->g, mask_index, WNN_DTYPE_I32, 1, &b, NULL);
    if (!cs) r->g->values[mask_index].producer = -1;
    return cs;
  }
  const wnn_ir_value *m = wnn_rw_input(r, 7);
  int one, eq = -1, as_int = -1, axes;
  int64_t one64 = 1, axis1 = 1;
  int32_t one32 = 1;
  if ((st = wnn_rw_cst(r, m->dtype, 0, NULL,
                       m->dtype == WNN_DTYPE_I32 ? (const void *)&one32 : &one64, &one)))
    return st;
  if ((st = wnn_rw_op2(r, "Equal", wnn_rw_in(r, 7), one, NULL, &eq))) return st;
  cJSON *to = wnn_rw_num_attr("to", 6);
  if (!to) return wnn_rw_oom(r);
  if ((st = wnn_rw_op1(r, "Cast", eq, to, &as_int))) return st;
  if ((st = wnn_rw_cst_i64s(r, 1, &axis1, &axes))) return st;
  cJSON *keep = wnn_rw_num_attr("keepdims", 0);
  if (!keep) return wnn_rw_oom(r);
  return wnn_rw_op2(r, "ReduceSum", as_int, axes, keep, &mask_index);
}

/* ---- Attention ---- */

/* The float mask added to the scores, broadcastable to [B, 1, S, T]: 0 where
 * a key is attended to, mask_filter_value where mask_index excludes it, and
 * the lowest float where unidirectional excludes it (ORT's CPU kernel); -1 in
 * *out when nothing is masked. */
static wnn_status attention_mask(wnn_rw *r, int64_t b, int64_t s, int64_t p, bool causal,
                                 int *out) {
  const wnn_ir_value *m = wnn_rw_input(r, 3);
  int64_t t = p + s;
  float filter = (float)wnn_rw_num(r, "mask_filter_value", -10000.0);
  wnn_status st;
  int bias = -1; /* [B, 1, 1 or S, T] float, from mask_index */
  char ms[WNN_RW_SHAPE_CHARS];
  *out = -1;
  if (m) {
    if ((st = wnn_rw_need(r, 3, "mask_index", WNN_DTYPE_INVALID, -1))) return st;
    /* A copy: adding values below may move g->values. */
    const wnn_ir_value mask_copy = *wnn_rw_input(r, 3);
    m = &mask_copy;
    if (!is_index_type(m->dtype))
      return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                         "input 3 (mask_index) '%s' is %s; it must be int32 or int64", m->name,
                         wnn_dtype_name(m->dtype));
    int keep = -1;
    int zero_id, m_id = wnn_rw_in(r, 3);
    int64_t zero64 = 0;
    int32_t zero32 = 0;
    const void *zero = m->dtype == WNN_DTYPE_I32 ? (const void *)&zero32 : &zero64;
    int64_t rows = 1;
    if (m->ndim == 2 && m->dims[0] == b && m->dims[1] == t) {
      /* Raw 0/1 mask [B, T]: keys where it is > 0. */
      if ((st = wnn_rw_cst(r, m->dtype, 0, NULL, zero, &zero_id))) return st;
      if ((st = wnn_rw_op2(r, "Greater", m_id, zero_id, NULL, &keep))) return st;
    } else if (m->ndim == 3 && m->dims[0] == b && m->dims[1] == s && m->dims[2] == t) {
      /* Raw mask per query [B, S, T]. */
      rows = s;
      if ((st = wnn_rw_cst(r, m->dtype, 0, NULL, zero, &zero_id))) return st;
      if ((st = wnn_rw_op2(r, "Greater", m_id, zero_id, NULL, &keep))) return st;
    } else if (m->ndim == 1 && (m->dims[0] == b || m->dims[0] == 2 * b)) {
      /* End positions [B] (keys before mask[b]), and with [2B] start
       * positions too (keys from mask[B + b] on). */
      int64_t tdim[2] = {1, t};
      size_t es = m->dtype == WNN_DTYPE_I32 ? 4 : 8;
      unsigned char *positions = malloc(t ? (size_t)t * es : 1);
      if (!positions) return wnn_rw_oom(r);
      for (int64_t i = 0; i < t; i++) {
        if (es == 4) ((int32_t *)positions)[i] = (int32_t)i;
        else ((int64_t *)positions)[i] = i;
      }
      int pos, end = -1, from_start = -1;
      int64_t bdim[2] = {b, 1};
      st = wnn_rw_cst(r, m->dtype, 2, tdim, positions, &pos);
      free(positions);
      if (st) return st;
      int ends = m_id;
      if (m->dims[0] == 2 * b) {
        int64_t lo[1] = {0}, mid[1] = {b}, hi[1] = {2 * b};
        int c0, c1, c2, starts_v = -1, ends_v = -1;
        if ((st = wnn_rw_cst_i64s(r, 1, lo, &c0)) || (st = wnn_rw_cst_i64s(r, 1, mid, &c1)) ||
            (st = wnn_rw_cst_i64s(r, 1, hi, &c2)))
          return st;
        if ((st = wnn_rw_op3(r, "Slice", m_id, c0, c1, NULL, &ends_v))) return st;
        if ((st = wnn_rw_op3(r, "Slice", m_id, c1, c2, NULL, &starts_v))) return st;
        ends = ends_v;
        int sc = -1, after = -1;
        if ((st = wnn_rw_reshape(r, starts_v, 2, bdim, &sc))) return st;
        if ((st = wnn_rw_op2(r, "GreaterOrEqual", pos, sc, NULL, &after))) return st;
        from_start = after;
      }
      if ((st = wnn_rw_reshape(r, ends, 2, bdim, &end))) return st;
      if ((st = wnn_rw_op2(r, "Less", pos, end, NULL, &keep))) return st;
      if (from_start >= 0) {
        int both = -1;
        if ((st = wnn_rw_op2(r, "And", keep, from_start, NULL, &both))) return st;
        keep = both;
      }
    } else if (m->ndim == 4) {
      return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                         "a 4-D input 3 (mask_index) '%s' %s (Megatron's form) is "
                         "not supported",
                         m->name, wnn_rw_shape_str(ms, sizeof ms, m));
    } else {
      return wnn_rw_fail(r, WNN_ERR_SHAPE,
                         "input 3 (mask_index) '%s' has shape %s; with batch %lld, "
                         "sequence %lld and %lld keys it must be [%lld], [%lld], [%lld, %lld] or "
                         "[%lld, %lld, %lld]",
                         m->name, wnn_rw_shape_str(ms, sizeof ms, m), (long long)b, (long long)s,
                         (long long)t, (long long)b, (long long)(2 * b), (long long)b, (long long)t,
                         (long long)b, (long long)s, (long long)t);
    }
    int zero_f, filter_f, where = -1;
    if ((st = wnn_rw_cst_f32(r, 0.0f, &zero_f)) || (st = wnn_rw_cst_f32(r, filter, &filter_f)))
      return st;
    if ((st = wnn_rw_op3(r, "Where", keep, zero_f, filter_f, NULL, &where))) return st;
    int64_t dims4[4] = {b, 1, rows, t};
    if ((st = wnn_rw_reshape(r, where, 4, dims4, &bias))) return st;
  }
  if (!causal) {
    *out = bias;
    return WNN_OK;
  }
  /* Key j is after query i: j > p + i. */
  size_t n = (size_t)(s * t);
  int64_t st_dims[2] = {s, t};
  uint8_t *future = malloc(n ? n : 1);
  float *add = malloc((n ? n : 1) * sizeof *add);
  if (!future || !add) {
    free(future);
    free(add);
    return wnn_rw_oom(r);
  }
  for (int64_t i = 0; i < s; i++)
    for (int64_t j = 0; j < t; j++) {
      future[i * t + j] = j > p + i;
      add[i * t + j] = j > p + i ? -FLT_MAX : 0.0f;
    }
  if (bias < 0) {
    st = wnn_rw_cst(r, WNN_DTYPE_F32, 2, st_dims, add, out);
  } else {
    int cond, lowest;
    st = wnn_rw_cst(r, WNN_DTYPE_BOOL, 2, st_dims, future, &cond);
    if (!st) st = wnn_rw_cst_f32(r, -FLT_MAX, &lowest);
    if (!st) st = wnn_rw_op3(r, "Where", cond, lowest, bias, NULL, out);
  }
  free(future);
  free(add);
  return st;
}

static wnn_status attention(wnn_rw *r) {
  static const char *const attrs[] = {"num_heads", "unidirectional", "qkv_hidden_sizes",
                                      "mask_filter_value", "scale", "past_present_share_buffer",
                                      "do_rotary", "rotary_embedding_dim", NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  if (st) return st;
  if (wnn_rw_num(r, "do_rotary", 0) != 0)
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                       "attribute 'do_rotary' = %g is not supported (only 0)",
                       wnn_rw_num(r, "do_rotary", 0));
  if (wnn_rw_num(r, "past_present_share_buffer", 0) != 0)
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                       "attribute 'past_present_share_buffer' = %g is not supported "
                       "(only 0)",
                       wnn_rw_num(r, "past_present_share_buffer", 0));
  static const char *const extra[] = {"past_sequence_length", NULL};
  if ((st = wnn_rw_no_inputs_from(r, 6, extra))) return st;
  if ((st = wnn_rw_need(r, 0, "input", WNN_DTYPE_F32, 3)) ||
      (st = wnn_rw_need(r, 1, "weights", WNN_DTYPE_F32, 2)))
    return st;
  const wnn_ir_value *x = wnn_rw_input(r, 0), *w = wnn_rw_input(r, 1);
  char s1[WNN_RW_SHAPE_CHARS], s2[WNN_RW_SHAPE_CHARS];
  int64_t b = x->dims[0], s = x->dims[1], hin = x->dims[2];
  double heads_d = wnn_rw_num(r, "num_heads", 0);
  int64_t heads = (int64_t)heads_d;
  if (!cJSON_GetObjectItemCaseSensitive(wnn_rw_self(r)->attrs, "num_heads"))
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'num_heads' is missing");
  if (heads <= 0 || heads != heads_d)
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE,
                       "attribute 'num_heads' is %g; it must be a positive integer", heads_d);
  if (w->dims[0] != hin)
    return wnn_rw_fail(r, WNN_ERR_SHAPE, "input 1 (weights) '%s' has shape %s; input 0 '%s' is %s",
                       w->name, wnn_rw_shape_str(s1, sizeof s1, w), x->name,
                       wnn_rw_shape_str(s2, sizeof s2, x));
  int64_t q, k, v;
  const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(wnn_rw_self(r)->attrs, "qkv_hidden_sizes");
  if (sizes) {
    if (cJSON_GetArraySize(sizes) != 3)
      return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE,
                         "attribute 'qkv_hidden_sizes' has %d values; it must "
                         "have 3",
                         cJSON_GetArraySize(sizes));
    q = wnn_ir_json_int(cJSON_GetArrayItem(sizes, 0), 0);
    k = wnn_ir_json_int(cJSON_GetArrayItem(sizes, 1), 0);
    v = wnn_ir_json_int(cJSON_GetArrayItem(sizes, 2), 0);
    if (q != k || q <= 0 || v <= 0 || q + k + v != w->dims[1])
      return wnn_rw_fail(
          r, WNN_ERR_BAD_ATTRIBUTE,
          "attribute 'qkv_hidden_sizes' is [%lld, %lld, %lld]; Q "
          "and K must be equal, and the three must add up to the %lld columns of input 1 "
          "(weights)",
          (long long)q, (long long)k, (long long)v, (long long)w->dims[1]);
  } else {
    if (w->dims[1] % 3 || w->dims[1] == 0)
      return wnn_rw_fail(r, WNN_ERR_SHAPE,
                         "input 1 (weights) '%s' has shape %s; its columns must be 3 "
                         "equal parts (Q, K, V)",
                         w->name, wnn_rw_shape_str(s1, sizeof s1, w));
    q = k = v = w->dims[1] / 3;
  }
  if (q % heads || v % heads)
    return wnn_rw_fail(r, WNN_ERR_SHAPE,
                       "hidden sizes %lld (Q, K) and %lld (V) are not multiples of "
                       "num_heads %lld",
                       (long long)q, (long long)v, (long long)heads);
  int64_t hd = q / heads, vhd = v / heads;
  if (wnn_rw_input(r, 2) && (st = need_vec(r, 2, "bias", q + k + v))) return st;
  /* past [2, B, N, P, head size]. */
  const wnn_ir_value *past = wnn_rw_input(r, 4);
  int64_t p = 0;
  if (past) {
    if ((st = wnn_rw_need(r, 4, "past", WNN_DTYPE_F32, 5))) return st;
    past = wnn_rw_input(r, 4);
    if (past->dims[0] != 2 || past->dims[1] != b || past->dims[2] != heads || past->dims[4] != hd)
      return wnn_rw_fail(r, WNN_ERR_SHAPE,
                         "input 4 (past) '%s' has shape %s; it must be [2, %lld, %lld, "
                         "past_sequence_length, %lld]",
                         past->name, wnn_rw_shape_str(s1, sizeof s1, past), (long long)b,
                         (long long)heads, (long long)hd);
    p = past->dims[3];
  }
  bool present = wnn_rw_out_used(r, 1);
  if ((past || present) && hd != vhd)
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED,
                       "past and present need Q/K and V heads of the same size "
                       "(qkv_hidden_sizes gives %lld and %lld)",
                       (long long)hd, (long long)vhd);
  int64_t t = p + s;
  const wnn_ir_value *rel = wnn_rw_input(r, 5);
  if (rel) {
    if ((st = wnn_rw_need(r, 5, "attention_bias", WNN_DTYPE_F32, 4))) return st;
    rel = wnn_rw_input(r, 5);
    if (!((rel->dims[0] == b || rel->dims[0] == 1) &&
          (rel->dims[1] == heads || rel->dims[1] == 1) && rel->dims[2] == s && rel->dims[3] == t))
      return wnn_rw_fail(r, WNN_ERR_SHAPE,
                         "input 5 (attention_bias) '%s' has shape %s; it must be "
                         "[%lld or 1, %lld or 1, %lld, %lld]",
                         rel->name, wnn_rw_shape_str(s1, sizeof s1, rel), (long long)b,
                         (long long)heads, (long long)s, (long long)t);
  }
  /* Pointers into g->values stay valid only until values are added. */
  bool has_past = past != NULL, has_rel = rel != NULL;
  double scale = wnn_rw_num(r, "scale", 0);
  float alpha = scale != 0 ? (float)scale : 1.0f / sqrtf((float)hd);
  int64_t unidir = (int64_t)wnn_rw_num(r, "unidirectional", 0);

  /* qkv = input @ weights + bias, split into Q, K, V. */
  int qkv = -1;
  if ((st = wnn_rw_op2(r, "MatMul", wnn_rw_in(r, 0), wnn_rw_in(r, 1), NULL, &qkv))) return st;
  if (wnn_rw_input(r, 2)) {
    int biased = -1;
    if ((st = wnn_rw_op2(r, "Add", qkv, wnn_rw_in(r, 2), NULL, &biased))) return st;
    qkv = biased;
  }
  int64_t split[3] = {q, k, v};
  int split_c, parts[3] = {-1, -1, -1};
  if ((st = wnn_rw_cst_i64s(r, 3, split, &split_c))) return st;
  cJSON *axis2 = wnn_rw_num_attr("axis", 2);
  if (!axis2) return wnn_rw_oom(r);
  int split_in[2] = {qkv, split_c};
  if ((st = wnn_rw_emit(r, "Split", split_in, 2, parts, 3, axis2))) return st;
  /* [B, S, N*h] -> [B, N, S, h]. */
  static const int bnsh[4] = {0, 2, 1, 3};
  int heads_of[3] = {-1, -1, -1};
  for (int i = 0; i < 3; i++) {
    int64_t dims[4] = {b, s, heads, i == 2 ? vhd : hd};
    int r4 = -1;
    if ((st = wnn_rw_reshape(r, parts[i], 4, dims, &r4))) return st;
    if ((st = wnn_rw_transpose(r, r4, 4, bnsh, &heads_of[i]))) return st;
  }
  int qh = heads_of[0], kh = heads_of[1], vh = heads_of[2];
  /* K and V after the past ones (a past of zero keys adds nothing). */
  if (has_past && p > 0) {
    cJSON *axis0;
    for (int i = 0; i < 2; i++) {
      int64_t which = i;
      int index, old = -1, cat = -1, both[2];
      if ((st = wnn_rw_cst(r, WNN_DTYPE_I64, 0, NULL, &which, &index))) return st;
      if (!(axis0 = wnn_rw_num_attr("axis", 0))) return wnn_rw_oom(r);
      if ((st = wnn_rw_op2(r, "Gather", wnn_rw_in(r, 4), index, axis0, &old))) return st;
      both[0] = old;
      both[1] = i ? vh : kh;
      cJSON *axis = wnn_rw_num_attr("axis", 2);
      if (!axis) return wnn_rw_oom(r);
      if ((st = wnn_rw_emit(r, "Concat", both, 2, &cat, 1, axis))) return st;
      if (i) vh = cat;
      else kh = cat;
    }
  }
  if (present) {
    int64_t zero = 0;
    int axes, uk = -1, uv = -1, out = wnn_rw_out(r, 1);
    if ((st = wnn_rw_cst_i64s(r, 1, &zero, &axes))) return st;
    if ((st = wnn_rw_op2(r, "Unsqueeze", kh, axes, NULL, &uk))) return st;
    if ((st = wnn_rw_op2(r, "Unsqueeze", vh, axes, NULL, &uv))) return st;
    cJSON *axis0 = wnn_rw_num_attr("axis", 0);
    if (!axis0) return wnn_rw_oom(r);
    int both[2] = {uk, uv};
    if ((st = wnn_rw_emit(r, "Concat", both, 2, &out, 1, axis0))) return st;
  }
  /* scores = Q K^T * scale (+ mask) (+ attention_bias), softmax over keys. */
  static const int kt_perm[4] = {0, 1, 3, 2};
  int kt = -1, scores = -1, alpha_c, scaled = -1;
  if ((st = wnn_rw_transpose(r, kh, 4, kt_perm, &kt))) return st;
  if ((st = wnn_rw_op2(r, "MatMul", qh, kt, NULL, &scores))) return st;
  if ((st = wnn_rw_cst_f32(r, alpha, &alpha_c))) return st;
  if ((st = wnn_rw_op2(r, "Mul", scores, alpha_c, NULL, &scaled))) return st;
  int mask;
  if ((st = attention_mask(r, b, s, p, unidir != 0, &mask))) return st;
  if (mask >= 0) {
    int masked = -1;
    if ((st = wnn_rw_op2(r, "Add", scaled, mask, NULL, &masked))) return st;
    scaled = masked;
  }
  if (has_rel) {
    int biased = -1;
    if ((st = wnn_rw_op2(r, "Add", scaled, wnn_rw_in(r, 5), NULL, &biased))) return st;
    scaled = biased;
  }
  cJSON *last = wnn_rw_num_attr("axis", -1);
  int probs = -1, ctx = -1, back = -1, out = wnn_rw_out(r, 0);
  if (!last) return wnn_rw_oom(r);
  if ((st = wnn_rw_op1(r, "Softmax", scaled, last, &probs))) return st;
  /* probs @ V: [B, N, S, vh] -> [B, S, N, vh] -> [B, S, N*vh]. */
  if ((st = wnn_rw_op2(r, "MatMul", probs, vh, NULL, &ctx))) return st;
  if ((st = wnn_rw_transpose(r, ctx, 4, bnsh, &back))) return st;
  int64_t dims3[3] = {b, s, v};
  return wnn_rw_reshape(r, back, 3, dims3, &out);
}

/* ---- QLinearSigmoid, QLinearLeakyRelu (X, X_scale, X_zero_point?, Y_scale,
 * Y_zero_point?; LeakyRelu's alpha) and QLinearConcat (Y_scale,
 * Y_zero_point, then X, X_scale, X_zero_point per input; axis) ----
 * Written as the QDQ chain each one is (DequantizeLinear, the float op,
 * QuantizeLinear), which the quantized rewrites (pass_qdq.c) turn into a
 * QLookup table and a Concat of the bytes when the scales are constants.
 * An omitted Y_zero_point is a 0 of X's type. */

static bool is_q8_type(wnn_dtype t) { return t == WNN_DTYPE_U8 || t == WNN_DTYPE_I8; }

/* Input k, a uint8/int8 tensor. */
static wnn_status need_q8(wnn_rw *r, int k, const char *what) {
  wnn_status st = wnn_rw_need(r, k, what, WNN_DTYPE_INVALID, -1);
  if (st) return st;
  if (!is_q8_type(wnn_rw_input(r, k)->dtype))
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED, "input %d (%s) '%s' is %s; it must be uint8 or int8",
                       k, what, wnn_rw_input(r, k)->name,
                       wnn_dtype_name(wnn_rw_input(r, k)->dtype));
  return WNN_OK;
}

/* Input k (a zero point), or a constant 0 of dtype dt when it is omitted. */
static wnn_status zp_or_zero(wnn_rw *r, int k, wnn_dtype dt, int *out) {
  if ((*out = wnn_rw_in(r, k)) >= 0) return WNN_OK;
  const uint8_t zero = 0;
  return wnn_rw_cst(r, dt, 0, NULL, &zero, out);
}

static wnn_status qlinear_unary(wnn_rw *r, bool leaky) {
  static const char *const none[] = {NULL}, *const alpha[] = {"alpha", NULL};
  wnn_status st = wnn_rw_check_attrs(r, leaky ? alpha : none);
  if (!st) st = need_q8(r, 0, "X");
  if (!st) st = wnn_rw_need(r, 1, "X_scale", WNN_DTYPE_F32, -1);
  if (!st) st = wnn_rw_need(r, 3, "Y_scale", WNN_DTYPE_F32, -1);
  if (!st) st = wnn_rw_no_inputs_from(r, 5, NULL);
  if (st) return st;
  int f = -1, a = -1, yzp, out = wnn_rw_out(r, 0);
  if ((st = zp_or_zero(r, 4, wnn_rw_input(r, 0)->dtype, &yzp))) return st;
  if ((st = wnn_rw_op3(r, "DequantizeLinear", wnn_rw_in(r, 0), wnn_rw_in(r, 1), wnn_rw_in(r, 2),
                       NULL, &f)))
    return st;
  cJSON *attrs = NULL;
  if (leaky && !(attrs = wnn_rw_num_attr("alpha", wnn_rw_num(r, "alpha", 0.01))))
    return wnn_rw_oom(r);
  if ((st = wnn_rw_op1(r, leaky ? "LeakyRelu" : "Sigmoid", f, attrs, &a))) return st;
  return wnn_rw_op3(r, "QuantizeLinear", a, wnn_rw_in(r, 3), yzp, NULL, &out);
}

static wnn_status qlinear_concat(wnn_rw *r) {
  static const char *const attrs[] = {"axis", NULL};
  wnn_status st = wnn_rw_check_attrs(r, attrs);
  /* (The last zero point may be omitted, trailing.) */
  const int n = wnn_rw_self(r)->num_inputs + ((wnn_rw_self(r)->num_inputs - 2) % 3 == 2);
  if (!st && (n < 5 || (n - 2) % 3))
    return wnn_rw_fail(r, WNN_ERR_MALFORMED,
                "has %d inputs; it takes Y_scale, Y_zero_point and then X, X_scale, X_zero_point "
                "for each input", wnn_rw_self(r)->num_inputs);
  if (!st && (n - 2) / 3 > WNN_MAX_IO)
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED, "concatenates %d inputs; at most %d are supported",
                (n - 2) / 3, WNN_MAX_IO);
  if (!st) st = wnn_rw_need(r, 0, "Y_scale", WNN_DTYPE_F32, -1);
  if (!st) st = need_q8(r, 1, "Y_zero_point");
  if (!st && !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(wnn_rw_self(r)->attrs, "axis")))
    return wnn_rw_fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'axis' is required");
  int fs[WNN_MAX_IO];
  for (int i = 0; !st && 2 + 3 * i < n; i++) {
    if ((st = need_q8(r, 2 + 3 * i, "X")) ||
        (st = wnn_rw_need(r, 3 + 3 * i, "X_scale", WNN_DTYPE_F32, -1)))
      return st;
    fs[i] = -1;
    st = wnn_rw_op3(r, "DequantizeLinear", wnn_rw_in(r, 2 + 3 * i), wnn_rw_in(r, 3 + 3 * i),
                    wnn_rw_in(r, 4 + 3 * i), NULL, &fs[i]);
  }
  if (st) return st;
  int cat = -1, out = wnn_rw_out(r, 0);
  cJSON *a = wnn_rw_num_attr("axis", wnn_rw_num(r, "axis", 0));
  if (!a) return wnn_rw_oom(r);
  if ((st = wnn_rw_emit(r, "Concat", fs, (n - 2) / 3, &cat, 1, a))) return st;
  return wnn_rw_op3(r, "QuantizeLinear", cat, wnn_rw_in(r, 0), wnn_rw_in(r, 1), NULL, &out);
}

static wnn_status oom_graph(wnn_ir_graph *g) {
  return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
}

wnn_status wnn_contrib_rewrite(wnn_ir_graph *g, int id, bool *replaced) {
  *replaced = false;
  const wnn_ir_node *n = &g->nodes[id];
  if (n->dead || !wnn_contrib_handles(n->domain, n->op_type)) return WNN_OK;
  if (!strcmp(n->op_type, "DynamicQuantizeMatMul") || !strcmp(n->op_type, "QLinearAdd") ||
      !strcmp(n->op_type, "QLinearMul") || !strcmp(n->op_type, "QLinearGlobalAveragePool") ||
      !strcmp(n->op_type, "MatMulNBits")) {
    /* The runtime has these, with com.microsoft's semantics: the node stays
     * as it is, in the default domain. */
    char *domain = wnn_ir_strdup("");
    if (!domain) return oom_graph(g);
    free(g->nodes[id].domain);
    g->nodes[id].domain = domain;
    return WNN_OK;
  }
  wnn_rw r = {g, id, 0};
  wnn_status st;
  if (!strcmp(n->op_type, "Attention")) st = attention(&r);
  else if (!strcmp(n->op_type, "SkipLayerNormalization")) st = skip_layer_norm(&r);
  else if (!strcmp(n->op_type, "EmbedLayerNormalization")) st = embed_layer_norm(&r);
  else if (!strcmp(n->op_type, "QLinearSigmoid")) st = qlinear_unary(&r, false);
  else if (!strcmp(n->op_type, "QLinearLeakyRelu")) st = qlinear_unary(&r, true);
  else if (!strcmp(n->op_type, "QLinearConcat")) st = qlinear_concat(&r);
  else st = fast_gelu(&r);
  if (st) return st;
  g->nodes[r.id].dead = true;
  /* The inserted nodes read values: readers and producers as they now are. */
  wnn_ir_count_readers(g);
  *replaced = true;
  return WNN_OK;
}
