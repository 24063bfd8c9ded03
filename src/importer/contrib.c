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

/* One rewrite in progress: nodes go in before the contrib node, which moves
 * down by one each time. */
typedef struct rw {
  wnn_ir_graph *g;
  int id;    /* the contrib node */
  int count; /* nodes inserted so far */
} rw;

static wnn_ir_node *self(const rw *r) { return &r->g->nodes[r->id]; }

static wnn_status oom_graph(wnn_ir_graph *g) {
  return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
}

static wnn_status oom(rw *r) { return wnn_ir_fail(r->g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory"); }


/* Inserts op(ins) -> outs before the contrib node; an outs[k] < 0 becomes a
 * fresh value. The new node keeps the contrib node's guards and origin.
 * attrs is taken over (NULL: none). */
static wnn_status emit(rw *r, const char *op, const int *ins, int nin, int *outs, int nout,
                       cJSON *attrs) {
  wnn_ir_graph *g = r->g;
  for (int k = 0; k < nout; k++) {
    if (outs[k] >= 0) continue;
    wnn_status st = wnn_ir_add_value(g, NULL, &outs[k]);
    if (st) {
      cJSON_Delete(attrs);
      return st;
    }
  }
  char name[320];
  if (self(r)->name[0]) snprintf(name, sizeof name, "%s/%s_%d", self(r)->name, op, r->count);
  else snprintf(name, sizeof name, "%s_%d/%s_%d", self(r)->op_type, self(r)->index, op, r->count);
  int at;
  wnn_status st = wnn_ir_add_node(g, r->id, op, "", name, self(r)->index, ins, nin, outs, nout,
                                  attrs, &at);
  if (st) return st;
  r->id++;
  r->count++;
  wnn_ir_node_absorb(g, at, r->id);
  wnn_ir_node *n = &g->nodes[at];
  const wnn_ir_node *c = self(r);
  n->rewritten = true; /* already in the runtime's (latest-opset) form */
  n->num_guards = c->num_guards;
  memcpy(n->guards, c->guards, sizeof n->guards);
  memcpy(n->guard_expect, c->guard_expect, sizeof n->guard_expect);
  if ((c->origin && !(n->origin = wnn_ir_strdup(c->origin))) ||
      (c->rt_branch && !(n->rt_branch = wnn_ir_strdup(c->rt_branch))))
    return oom(r);
  return WNN_OK;
}

/* One output: *out (< 0: a fresh value) = op(a, b, c), inputs < -1 left out. */
static wnn_status op3(rw *r, const char *op, int a, int b, int c, cJSON *attrs, int *out) {
  int ins[3] = {a, b, c}, n = c >= -1 ? 3 : b >= -1 ? 2 : 1;
  return emit(r, op, ins, n, out, 1, attrs);
}
#define NONE (-2)
static wnn_status op1(rw *r, const char *op, int a, cJSON *attrs, int *out) {
  return op3(r, op, a, NONE, NONE, attrs, out);
}
static wnn_status op2(rw *r, const char *op, int a, int b, cJSON *attrs, int *out) {
  return op3(r, op, a, b, NONE, attrs, out);
}

static wnn_status cst(rw *r, wnn_dtype dtype, int ndim, const int64_t *dims, const void *data,
                      int *id) {
  return wnn_ir_add_const(r->g, NULL, dtype, ndim, dims, data, id);
}
static wnn_status cst_f32(rw *r, float v, int *id) { return cst(r, WNN_DTYPE_F32, 0, NULL, &v, id); }
static wnn_status cst_i64s(rw *r, int count, const int64_t *v, int *id) {
  int64_t dim = count;
  return cst(r, WNN_DTYPE_I64, 1, &dim, v, id);
}

/* {"name": v}. */
static cJSON *num_attr(const char *name, double v) {
  cJSON *o = cJSON_CreateObject();
  if (o && !cJSON_AddNumberToObject(o, name, v)) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}
static cJSON *perm_attr(int n, const int *perm) {
  cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateIntArray(perm, n);
  if (!o || !a || !cJSON_AddItemToObject(o, "perm", a)) {
    cJSON_Delete(o);
    cJSON_Delete(a);
    return NULL;
  }
  return o;
}

/* Reshape x to dims. */
static wnn_status reshape(rw *r, int x, int ndim, const int64_t *dims, int *out) {
  int shape;
  wnn_status st = cst_i64s(r, ndim, dims, &shape);
  return st ? st : op2(r, "Reshape", x, shape, NULL, out);
}

static wnn_status transpose(rw *r, int x, int n, const int *perm, int *out) {
  cJSON *a = perm_attr(n, perm);
  return a ? op1(r, "Transpose", x, a, out) : oom(r);
}

/* ---- checks ---- */

static const wnn_ir_value *input(const rw *r, int k) {
  const wnn_ir_node *n = self(r);
  return k < n->num_inputs && n->inputs[k] >= 0 ? &r->g->values[n->inputs[k]] : NULL;
}
static int in_id(const rw *r, int k) {
  const wnn_ir_node *n = self(r);
  return k < n->num_inputs ? n->inputs[k] : -1;
}
static int out_id(const rw *r, int k) {
  const wnn_ir_node *n = self(r);
  return k < n->num_outputs ? n->outputs[k] : -1;
}
/* Whether output k exists and something reads it (a node or the graph). */
static bool out_used(const rw *r, int k) {
  int v = out_id(r, k);
  return v >= 0 && r->g->values[v].readers > 0;
}

static wnn_status fail(rw *r, wnn_status st, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static wnn_status fail(rw *r, wnn_status st, const char *fmt, ...) {
  char why[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  return wnn_ir_node_fail(r->g, self(r), st, st != WNN_ERR_SHAPE && st != WNN_ERR_MALFORMED, "%s",
                          why);
}

/* Every attribute must be one of known. */
static wnn_status check_attrs(rw *r, const char *const *known) {
  const cJSON *a;
  cJSON_ArrayForEach(a, self(r)->attrs) {
    bool ok = false;
    for (const char *const *k = known; *k && !ok; k++) ok = !strcmp(*k, a->string);
    if (!ok) return fail(r, WNN_ERR_UNSUPPORTED, "attribute '%s' is not supported", a->string);
  }
  return WNN_OK;
}

static double num(const rw *r, const char *name, double dflt) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(self(r)->attrs, name);
  return cJSON_IsNumber(a) ? a->valuedouble : dflt;
}

/* Inputs from k = first on must be absent; outputs likewise must be unread. */
static wnn_status no_inputs_from(rw *r, int first, const char *const *names) {
  for (int k = first; k < self(r)->num_inputs; k++)
    if (in_id(r, k) >= 0)
      return fail(r, WNN_ERR_UNSUPPORTED, "input %d (%s) is not supported", k,
                  names && names[k - first] ? names[k - first] : "unknown");
  return WNN_OK;
}

static const char *shape_str(char *buf, size_t cap, const wnn_ir_value *v) {
  return wnn_format_dims(buf, cap, v->ndim, v->dims);
}

/* Input k must be present with a known shape of a float32 dtype (or the one
 * given). */
static wnn_status need(rw *r, int k, const char *what, wnn_dtype dtype, int rank) {
  const wnn_ir_value *v = input(r, k);
  if (!v) return fail(r, WNN_ERR_MALFORMED, "input %d (%s) is missing", k, what);
  if (!v->known) return fail(r, WNN_ERR_MALFORMED, "input %d (%s) '%s' has no known shape", k, what, v->name);
  char s[WNN_MAX_DIMS * 22 + 3];
  if (dtype != WNN_DTYPE_INVALID && v->dtype != dtype)
    return fail(r, WNN_ERR_UNSUPPORTED, "input %d (%s) '%s' is %s; it must be %s", k, what, v->name,
                wnn_dtype_name(v->dtype), wnn_dtype_name(dtype));
  if (rank >= 0 && v->ndim != rank)
    return fail(r, WNN_ERR_SHAPE, "input %d (%s) '%s' has shape %s; it must have rank %d", k, what,
                v->name, shape_str(s, sizeof s, v), rank);
  return WNN_OK;
}

/* A [H] vector (gamma, beta, bias) of the hidden size. */
static wnn_status need_vec(rw *r, int k, const char *what, int64_t h) {
  wnn_status st = need(r, k, what, WNN_DTYPE_F32, 1);
  if (st) return st;
  const wnn_ir_value *v = input(r, k);
  if (v->dims[0] != h)
    return fail(r, WNN_ERR_SHAPE, "input %d (%s) '%s' has %lld elements; the hidden size is %lld", k,
                what, v->name, (long long)v->dims[0], (long long)h);
  return WNN_OK;
}

static bool is_index_type(wnn_dtype t) { return t == WNN_DTYPE_I32 || t == WNN_DTYPE_I64; }

/* LayerNormalization over the last axis. */
static wnn_status layer_norm(rw *r, int x, int gamma, int beta, double eps, int *out) {
  cJSON *a = num_attr("axis", -1);
  if (!a || !cJSON_AddNumberToObject(a, "epsilon", eps)) {
    cJSON_Delete(a);
    return oom(r);
  }
  return op3(r, "LayerNormalization", x, gamma, beta >= 0 ? beta : NONE, a, out);
}

/* ---- FastGelu(X, bias?) = Gelu_tanh(X + bias) ---- */

static wnn_status fast_gelu(rw *r) {
  static const char *const attrs[] = {NULL};
  wnn_status st = check_attrs(r, attrs);
  if (!st) st = need(r, 0, "X", WNN_DTYPE_F32, -1);
  if (!st) st = no_inputs_from(r, 2, NULL);
  if (st) return st;
  const wnn_ir_value *x = input(r, 0);
  int64_t h = x->ndim ? x->dims[x->ndim - 1] : 1;
  int v = in_id(r, 0);
  if (input(r, 1)) {
    if ((st = need_vec(r, 1, "bias", h))) return st;
    int sum = -1;
    if ((st = op2(r, "Add", v, in_id(r, 1), NULL, &sum))) return st;
    v = sum;
  }
  cJSON *a = cJSON_CreateObject();
  if (!a || !cJSON_AddStringToObject(a, "approximate", "tanh")) {
    cJSON_Delete(a);
    return oom(r);
  }
  int out = out_id(r, 0);
  return op1(r, "Gelu", v, a, &out);
}

/* ---- SkipLayerNormalization(input, skip, gamma, beta?, bias?) ----
 * sum = input + skip (+ bias); output = LayerNorm(sum) * gamma + beta;
 * output 3 = sum. */

static wnn_status skip_layer_norm(rw *r) {
  static const char *const attrs[] = {"epsilon", NULL};
  wnn_status st = check_attrs(r, attrs);
  if (!st) st = need(r, 0, "input", WNN_DTYPE_F32, -1);
  if (!st) st = need(r, 1, "skip", WNN_DTYPE_F32, -1);
  if (!st) st = no_inputs_from(r, 5, NULL);
  if (st) return st;
  const wnn_ir_value *x = input(r, 0), *s = input(r, 1);
  char xs[WNN_MAX_DIMS * 22 + 3], ss[WNN_MAX_DIMS * 22 + 3];
  if (x->ndim < 2 || x->ndim > 3)
    return fail(r, WNN_ERR_SHAPE, "input 0 (input) '%s' has shape %s; it must have rank 2 or 3",
                x->name, shape_str(xs, sizeof xs, x));
  /* skip: the input's shape, or its trailing dims (ORT allows [1, S, H] and
   * [S, H] for [B, S, H]). */
  bool ok = s->ndim <= x->ndim && s->ndim >= 1;
  for (int d = 1; ok && d <= s->ndim; d++) {
    int64_t sd = s->dims[s->ndim - d], xd = x->dims[x->ndim - d];
    ok = sd == xd || (sd == 1 && d == s->ndim && d > 2);
  }
  if (!ok)
    return fail(r, WNN_ERR_SHAPE, "input 1 (skip) '%s' has shape %s, which does not broadcast to "
                "input 0 '%s' %s", s->name, shape_str(ss, sizeof ss, s), x->name,
                shape_str(xs, sizeof xs, x));
  int64_t h = x->dims[x->ndim - 1];
  if ((st = need_vec(r, 2, "gamma", h))) return st;
  if (input(r, 3) && (st = need_vec(r, 3, "beta", h))) return st;
  if (input(r, 4) && (st = need_vec(r, 4, "bias", h))) return st;
  for (int k = 1; k <= 2; k++)
    if (out_used(r, k))
      return fail(r, WNN_ERR_UNSUPPORTED, "output %d (%s) '%s' is read; only outputs 0 and 3 are "
                  "supported", k, k == 1 ? "mean" : "inv_std_var", r->g->values[out_id(r, k)].name);
  double eps = num(r, "epsilon", 1e-12);
  int sum_out = out_used(r, 3) ? out_id(r, 3) : -1;
  int sum = input(r, 4) ? -1 : sum_out;
  if ((st = op2(r, "Add", in_id(r, 0), in_id(r, 1), NULL, &sum))) return st;
  if (input(r, 4)) {
    int with_bias = sum_out;
    if ((st = op2(r, "Add", sum, in_id(r, 4), NULL, &with_bias))) return st;
    sum = with_bias;
  }
  int out = out_id(r, 0);
  return layer_norm(r, sum, in_id(r, 2), in_id(r, 3), eps, &out);
}

/* ---- EmbedLayerNormalization(input_ids, segment_ids?, word_embedding,
 * position_embedding, segment_embedding?, gamma, beta, mask?, position_ids?)
 * sum = word[input_ids] + position[position_ids or 0..S-1] (+ segment[ids]);
 * output = LayerNorm(sum) * gamma + beta; mask_index[b] = the count of ones in
 * mask[b] (0 without a mask); embedding_sum = sum. */

static wnn_status embed_layer_norm(rw *r) {
  static const char *const attrs[] = {"epsilon", "mask_index_type", NULL};
  wnn_status st = check_attrs(r, attrs);
  if (!st) st = need(r, 0, "input_ids", WNN_DTYPE_INVALID, 2);
  if (!st) st = need(r, 2, "word_embedding", WNN_DTYPE_F32, 2);
  if (!st) st = need(r, 3, "position_embedding", WNN_DTYPE_F32, 2);
  if (!st) st = no_inputs_from(r, 9, NULL);
  if (st) return st;
  const wnn_ir_value *ids = input(r, 0);
  char s1[WNN_MAX_DIMS * 22 + 3], s2[WNN_MAX_DIMS * 22 + 3];
  if (!is_index_type(ids->dtype))
    return fail(r, WNN_ERR_UNSUPPORTED, "input 0 (input_ids) '%s' is %s; it must be int32 or int64",
                ids->name, wnn_dtype_name(ids->dtype));
  int64_t b = ids->dims[0], s = ids->dims[1], h = input(r, 2)->dims[1];
  if (input(r, 3)->dims[1] != h)
    return fail(r, WNN_ERR_SHAPE, "input 3 (position_embedding) '%s' has shape %s; the hidden size "
                "is %lld", input(r, 3)->name, shape_str(s1, sizeof s1, input(r, 3)), (long long)h);
  if ((st = need_vec(r, 5, "gamma", h)) || (st = need_vec(r, 6, "beta", h))) return st;
  /* Index inputs of input_ids' shape ([1, S] too for position_ids). */
  static const struct { int k; const char *what; } idx[] = {{1, "segment_ids"}, {7, "mask"}, {8, "position_ids"}};
  for (size_t i = 0; i < sizeof idx / sizeof idx[0]; i++) {
    const wnn_ir_value *v = input(r, idx[i].k);
    if (!v) continue;
    if ((st = need(r, idx[i].k, idx[i].what, WNN_DTYPE_INVALID, 2))) return st;
    if (!is_index_type(v->dtype))
      return fail(r, WNN_ERR_UNSUPPORTED, "input %d (%s) '%s' is %s; it must be int32 or int64",
                  idx[i].k, idx[i].what, v->name, wnn_dtype_name(v->dtype));
    if (!((v->dims[0] == b || (idx[i].k == 8 && v->dims[0] == 1)) && v->dims[1] == s))
      return fail(r, WNN_ERR_SHAPE, "input %d (%s) '%s' has shape %s; input_ids '%s' is %s",
                  idx[i].k, idx[i].what, v->name, shape_str(s1, sizeof s1, v), ids->name,
                  shape_str(s2, sizeof s2, ids));
  }
  if (input(r, 1) && !input(r, 4))
    return fail(r, WNN_ERR_MALFORMED, "has input 1 (segment_ids) but no input 4 (segment_embedding)");
  if (input(r, 4)) {
    if ((st = need(r, 4, "segment_embedding", WNN_DTYPE_F32, 2))) return st;
    if (input(r, 4)->dims[1] != h)
      return fail(r, WNN_ERR_SHAPE, "input 4 (segment_embedding) '%s' has shape %s; the hidden size "
                  "is %lld", input(r, 4)->name, shape_str(s1, sizeof s1, input(r, 4)), (long long)h);
    if (!input(r, 1))
      return fail(r, WNN_ERR_MALFORMED, "has input 4 (segment_embedding) but no input 1 (segment_ids)");
  }
  cJSON *axis0 = num_attr("axis", 0);
  int word = -1;
  if (!axis0) return oom(r);
  if ((st = op2(r, "Gather", in_id(r, 2), in_id(r, 0), axis0, &word))) return st;
  int pos = -1;
  if (input(r, 8)) {
    if (!(axis0 = num_attr("axis", 0))) return oom(r);
    st = op2(r, "Gather", in_id(r, 3), in_id(r, 8), axis0, &pos);
  } else {
    /* Positions 0..S-1: the first S rows. */
    if (input(r, 3)->dims[0] < s)
      return fail(r, WNN_ERR_SHAPE, "input 3 (position_embedding) '%s' has %lld rows, fewer than "
                  "the sequence length %lld", input(r, 3)->name, (long long)input(r, 3)->dims[0],
                  (long long)s);
    int64_t zero = 0;
    int starts, ends;
    if (!(st = cst_i64s(r, 1, &zero, &starts)) && !(st = cst_i64s(r, 1, &s, &ends)))
      st = op3(r, "Slice", in_id(r, 3), starts, ends, NULL, &pos);
  }
  if (st) return st;
  int sum_out = out_used(r, 2) ? out_id(r, 2) : -1;
  int sum = input(r, 4) ? -1 : sum_out;
  if ((st = op2(r, "Add", word, pos, NULL, &sum))) return st;
  if (input(r, 4)) {
    int seg = -1, total = sum_out;
    if (!(axis0 = num_attr("axis", 0))) return oom(r);
    if ((st = op2(r, "Gather", in_id(r, 4), in_id(r, 1), axis0, &seg))) return st;
    if ((st = op2(r, "Add", sum, seg, NULL, &total))) return st;
    sum = total;
  }
  int out = out_id(r, 0);
  if ((st = layer_norm(r, sum, in_id(r, 5), in_id(r, 6), num(r, "epsilon", 1e-12), &out))) return st;
  if (!out_used(r, 1)) return WNN_OK;
  /* mask_index: int32 [B], the number of mask elements equal to 1 per row. */
  int mask_index = out_id(r, 1);
  if (!input(r, 7)) {
    wnn_status cs = wnn_ir_set_const(r->g, mask_index, WNN_DTYPE_I32, 1, &b, NULL);
    if (!cs) r->g->values[mask_index].producer = -1;
    return cs;
  }
  const wnn_ir_value *m = input(r, 7);
  int one, eq = -1, as_int = -1, axes;
  int64_t one64 = 1, axis1 = 1;
  int32_t one32 = 1;
  if ((st = cst(r, m->dtype, 0, NULL, m->dtype == WNN_DTYPE_I32 ? (const void *)&one32 : &one64, &one)))
    return st;
  if ((st = op2(r, "Equal", in_id(r, 7), one, NULL, &eq))) return st;
  cJSON *to = num_attr("to", 6);
  if (!to) return oom(r);
  if ((st = op1(r, "Cast", eq, to, &as_int))) return st;
  if ((st = cst_i64s(r, 1, &axis1, &axes))) return st;
  cJSON *keep = num_attr("keepdims", 0);
  if (!keep) return oom(r);
  return op2(r, "ReduceSum", as_int, axes, keep, &mask_index);
}

/* ---- Attention ---- */

/* The float mask added to the scores, broadcastable to [B, 1, S, T]: 0 where
 * a key is attended to, mask_filter_value where mask_index excludes it, and
 * the lowest float where unidirectional excludes it (ORT's CPU kernel); -1 in
 * *out when nothing is masked. */
static wnn_status attention_mask(rw *r, int64_t b, int64_t s, int64_t p, bool causal, int *out) {
  const wnn_ir_value *m = input(r, 3);
  int64_t t = p + s;
  float filter = (float)num(r, "mask_filter_value", -10000.0);
  wnn_status st;
  int bias = -1; /* [B, 1, 1 or S, T] float, from mask_index */
  char ms[WNN_MAX_DIMS * 22 + 3];
  *out = -1;
  if (m) {
    if ((st = need(r, 3, "mask_index", WNN_DTYPE_INVALID, -1))) return st;
    /* A copy: adding values below may move g->values. */
    const wnn_ir_value mask_copy = *input(r, 3);
    m = &mask_copy;
    if (!is_index_type(m->dtype))
      return fail(r, WNN_ERR_UNSUPPORTED, "input 3 (mask_index) '%s' is %s; it must be int32 or int64",
                  m->name, wnn_dtype_name(m->dtype));
    int keep = -1;
    int zero_id, m_id = in_id(r, 3);
    int64_t zero64 = 0;
    int32_t zero32 = 0;
    const void *zero = m->dtype == WNN_DTYPE_I32 ? (const void *)&zero32 : &zero64;
    int64_t rows = 1;
    if (m->ndim == 2 && m->dims[0] == b && m->dims[1] == t) {
      /* Raw 0/1 mask [B, T]: keys where it is > 0. */
      if ((st = cst(r, m->dtype, 0, NULL, zero, &zero_id))) return st;
      if ((st = op2(r, "Greater", m_id, zero_id, NULL, &keep))) return st;
    } else if (m->ndim == 3 && m->dims[0] == b && m->dims[1] == s && m->dims[2] == t) {
      /* Raw mask per query [B, S, T]. */
      rows = s;
      if ((st = cst(r, m->dtype, 0, NULL, zero, &zero_id))) return st;
      if ((st = op2(r, "Greater", m_id, zero_id, NULL, &keep))) return st;
    } else if (m->ndim == 1 && (m->dims[0] == b || m->dims[0] == 2 * b)) {
      /* End positions [B] (keys before mask[b]), and with [2B] start
       * positions too (keys from mask[B + b] on). */
      int64_t tdim[2] = {1, t};
      size_t es = m->dtype == WNN_DTYPE_I32 ? 4 : 8;
      unsigned char *positions = malloc(t ? (size_t)t * es : 1);
      if (!positions) return oom(r);
      for (int64_t i = 0; i < t; i++) {
        if (es == 4) ((int32_t *)positions)[i] = (int32_t)i;
        else ((int64_t *)positions)[i] = i;
      }
      int pos, end = -1, from_start = -1;
      int64_t bdim[2] = {b, 1};
      st = cst(r, m->dtype, 2, tdim, positions, &pos);
      free(positions);
      if (st) return st;
      int ends = m_id;
      if (m->dims[0] == 2 * b) {
        int64_t lo[1] = {0}, mid[1] = {b}, hi[1] = {2 * b};
        int c0, c1, c2, starts_v = -1, ends_v = -1;
        if ((st = cst_i64s(r, 1, lo, &c0)) || (st = cst_i64s(r, 1, mid, &c1)) ||
            (st = cst_i64s(r, 1, hi, &c2)))
          return st;
        if ((st = op3(r, "Slice", m_id, c0, c1, NULL, &ends_v))) return st;
        if ((st = op3(r, "Slice", m_id, c1, c2, NULL, &starts_v))) return st;
        ends = ends_v;
        int sc = -1, after = -1;
        if ((st = reshape(r, starts_v, 2, bdim, &sc))) return st;
        if ((st = op2(r, "GreaterOrEqual", pos, sc, NULL, &after))) return st;
        from_start = after;
      }
      if ((st = reshape(r, ends, 2, bdim, &end))) return st;
      if ((st = op2(r, "Less", pos, end, NULL, &keep))) return st;
      if (from_start >= 0) {
        int both = -1;
        if ((st = op2(r, "And", keep, from_start, NULL, &both))) return st;
        keep = both;
      }
    } else if (m->ndim == 4) {
      return fail(r, WNN_ERR_UNSUPPORTED, "a 4-D input 3 (mask_index) '%s' %s (Megatron's form) is "
                  "not supported", m->name, shape_str(ms, sizeof ms, m));
    } else {
      return fail(r, WNN_ERR_SHAPE, "input 3 (mask_index) '%s' has shape %s; with batch %lld, "
                  "sequence %lld and %lld keys it must be [%lld], [%lld], [%lld, %lld] or "
                  "[%lld, %lld, %lld]", m->name, shape_str(ms, sizeof ms, m), (long long)b,
                  (long long)s, (long long)t, (long long)b, (long long)(2 * b), (long long)b,
                  (long long)t, (long long)b, (long long)s, (long long)t);
    }
    int zero_f, filter_f, where = -1;
    if ((st = cst_f32(r, 0.0f, &zero_f)) || (st = cst_f32(r, filter, &filter_f))) return st;
    if ((st = op3(r, "Where", keep, zero_f, filter_f, NULL, &where))) return st;
    int64_t dims4[4] = {b, 1, rows, t};
    if ((st = reshape(r, where, 4, dims4, &bias))) return st;
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
    return oom(r);
  }
  for (int64_t i = 0; i < s; i++)
    for (int64_t j = 0; j < t; j++) {
      future[i * t + j] = j > p + i;
      add[i * t + j] = j > p + i ? -FLT_MAX : 0.0f;
    }
  if (bias < 0) {
    st = cst(r, WNN_DTYPE_F32, 2, st_dims, add, out);
  } else {
    int cond, lowest;
    st = cst(r, WNN_DTYPE_BOOL, 2, st_dims, future, &cond);
    if (!st) st = cst_f32(r, -FLT_MAX, &lowest);
    if (!st) st = op3(r, "Where", cond, lowest, bias, NULL, out);
  }
  free(future);
  free(add);
  return st;
}

static wnn_status attention(rw *r) {
  static const char *const attrs[] = {"num_heads", "unidirectional", "qkv_hidden_sizes",
                                      "mask_filter_value", "scale", "past_present_share_buffer",
                                      "do_rotary", "rotary_embedding_dim", NULL};
  wnn_status st = check_attrs(r, attrs);
  if (st) return st;
  if (num(r, "do_rotary", 0) != 0)
    return fail(r, WNN_ERR_UNSUPPORTED, "attribute 'do_rotary' = %g is not supported (only 0)",
                num(r, "do_rotary", 0));
  if (num(r, "past_present_share_buffer", 0) != 0)
    return fail(r, WNN_ERR_UNSUPPORTED, "attribute 'past_present_share_buffer' = %g is not supported "
                "(only 0)", num(r, "past_present_share_buffer", 0));
  static const char *const extra[] = {"past_sequence_length", NULL};
  if ((st = no_inputs_from(r, 6, extra))) return st;
  if ((st = need(r, 0, "input", WNN_DTYPE_F32, 3)) || (st = need(r, 1, "weights", WNN_DTYPE_F32, 2)))
    return st;
  const wnn_ir_value *x = input(r, 0), *w = input(r, 1);
  char s1[WNN_MAX_DIMS * 22 + 3], s2[WNN_MAX_DIMS * 22 + 3];
  int64_t b = x->dims[0], s = x->dims[1], hin = x->dims[2];
  double heads_d = num(r, "num_heads", 0);
  int64_t heads = (int64_t)heads_d;
  if (!cJSON_GetObjectItemCaseSensitive(self(r)->attrs, "num_heads"))
    return fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'num_heads' is missing");
  if (heads <= 0 || heads != heads_d)
    return fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'num_heads' is %g; it must be a positive integer",
                heads_d);
  if (w->dims[0] != hin)
    return fail(r, WNN_ERR_SHAPE, "input 1 (weights) '%s' has shape %s; input 0 '%s' is %s", w->name,
                shape_str(s1, sizeof s1, w), x->name, shape_str(s2, sizeof s2, x));
  int64_t q, k, v;
  const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(self(r)->attrs, "qkv_hidden_sizes");
  if (sizes) {
    if (cJSON_GetArraySize(sizes) != 3)
      return fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'qkv_hidden_sizes' has %d values; it must "
                  "have 3", cJSON_GetArraySize(sizes));
    q = wnn_ir_json_int(cJSON_GetArrayItem(sizes, 0), 0);
    k = wnn_ir_json_int(cJSON_GetArrayItem(sizes, 1), 0);
    v = wnn_ir_json_int(cJSON_GetArrayItem(sizes, 2), 0);
    if (q != k || q <= 0 || v <= 0 || q + k + v != w->dims[1])
      return fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'qkv_hidden_sizes' is [%lld, %lld, %lld]; Q "
                  "and K must be equal, and the three must add up to the %lld columns of input 1 "
                  "(weights)", (long long)q, (long long)k, (long long)v, (long long)w->dims[1]);
  } else {
    if (w->dims[1] % 3 || w->dims[1] == 0)
      return fail(r, WNN_ERR_SHAPE, "input 1 (weights) '%s' has shape %s; its columns must be 3 "
                  "equal parts (Q, K, V)", w->name, shape_str(s1, sizeof s1, w));
    q = k = v = w->dims[1] / 3;
  }
  if (q % heads || v % heads)
    return fail(r, WNN_ERR_SHAPE, "hidden sizes %lld (Q, K) and %lld (V) are not multiples of "
                "num_heads %lld", (long long)q, (long long)v, (long long)heads);
  int64_t hd = q / heads, vhd = v / heads;
  if (input(r, 2) && (st = need_vec(r, 2, "bias", q + k + v))) return st;
  /* past [2, B, N, P, head size]. */
  const wnn_ir_value *past = input(r, 4);
  int64_t p = 0;
  if (past) {
    if ((st = need(r, 4, "past", WNN_DTYPE_F32, 5))) return st;
    past = input(r, 4);
    if (past->dims[0] != 2 || past->dims[1] != b || past->dims[2] != heads || past->dims[4] != hd)
      return fail(r, WNN_ERR_SHAPE, "input 4 (past) '%s' has shape %s; it must be [2, %lld, %lld, "
                  "past_sequence_length, %lld]", past->name, shape_str(s1, sizeof s1, past),
                  (long long)b, (long long)heads, (long long)hd);
    p = past->dims[3];
  }
  bool present = out_used(r, 1);
  if ((past || present) && hd != vhd)
    return fail(r, WNN_ERR_UNSUPPORTED, "past and present need Q/K and V heads of the same size "
                "(qkv_hidden_sizes gives %lld and %lld)", (long long)hd, (long long)vhd);
  int64_t t = p + s;
  const wnn_ir_value *rel = input(r, 5);
  if (rel) {
    if ((st = need(r, 5, "attention_bias", WNN_DTYPE_F32, 4))) return st;
    rel = input(r, 5);
    if (!((rel->dims[0] == b || rel->dims[0] == 1) && (rel->dims[1] == heads || rel->dims[1] == 1) &&
          rel->dims[2] == s && rel->dims[3] == t))
      return fail(r, WNN_ERR_SHAPE, "input 5 (attention_bias) '%s' has shape %s; it must be "
                  "[%lld or 1, %lld or 1, %lld, %lld]", rel->name, shape_str(s1, sizeof s1, rel),
                  (long long)b, (long long)heads, (long long)s, (long long)t);
  }
  /* Pointers into g->values stay valid only until values are added. */
  bool has_past = past != NULL, has_rel = rel != NULL;
  double scale = num(r, "scale", 0);
  float alpha = scale != 0 ? (float)scale : 1.0f / sqrtf((float)hd);
  int64_t unidir = (int64_t)num(r, "unidirectional", 0);

  /* qkv = input @ weights + bias, split into Q, K, V. */
  int qkv = -1;
  if ((st = op2(r, "MatMul", in_id(r, 0), in_id(r, 1), NULL, &qkv))) return st;
  if (input(r, 2)) {
    int biased = -1;
    if ((st = op2(r, "Add", qkv, in_id(r, 2), NULL, &biased))) return st;
    qkv = biased;
  }
  int64_t split[3] = {q, k, v};
  int split_c, parts[3] = {-1, -1, -1};
  if ((st = cst_i64s(r, 3, split, &split_c))) return st;
  cJSON *axis2 = num_attr("axis", 2);
  if (!axis2) return oom(r);
  int split_in[2] = {qkv, split_c};
  if ((st = emit(r, "Split", split_in, 2, parts, 3, axis2))) return st;
  /* [B, S, N*h] -> [B, N, S, h]. */
  static const int bnsh[4] = {0, 2, 1, 3};
  int heads_of[3] = {-1, -1, -1};
  for (int i = 0; i < 3; i++) {
    int64_t dims[4] = {b, s, heads, i == 2 ? vhd : hd};
    int r4 = -1;
    if ((st = reshape(r, parts[i], 4, dims, &r4))) return st;
    if ((st = transpose(r, r4, 4, bnsh, &heads_of[i]))) return st;
  }
  int qh = heads_of[0], kh = heads_of[1], vh = heads_of[2];
  /* K and V after the past ones (a past of zero keys adds nothing). */
  if (has_past && p > 0) {
    cJSON *axis0;
    for (int i = 0; i < 2; i++) {
      int64_t which = i;
      int index, old = -1, cat = -1, both[2];
      if ((st = cst(r, WNN_DTYPE_I64, 0, NULL, &which, &index))) return st;
      if (!(axis0 = num_attr("axis", 0))) return oom(r);
      if ((st = op2(r, "Gather", in_id(r, 4), index, axis0, &old))) return st;
      both[0] = old;
      both[1] = i ? vh : kh;
      cJSON *axis = num_attr("axis", 2);
      if (!axis) return oom(r);
      if ((st = emit(r, "Concat", both, 2, &cat, 1, axis))) return st;
      if (i) vh = cat;
      else kh = cat;
    }
  }
  if (present) {
    int64_t zero = 0;
    int axes, uk = -1, uv = -1, out = out_id(r, 1);
    if ((st = cst_i64s(r, 1, &zero, &axes))) return st;
    if ((st = op2(r, "Unsqueeze", kh, axes, NULL, &uk))) return st;
    if ((st = op2(r, "Unsqueeze", vh, axes, NULL, &uv))) return st;
    cJSON *axis0 = num_attr("axis", 0);
    if (!axis0) return oom(r);
    int both[2] = {uk, uv};
    if ((st = emit(r, "Concat", both, 2, &out, 1, axis0))) return st;
  }
  /* scores = Q K^T * scale (+ mask) (+ attention_bias), softmax over keys. */
  static const int kt_perm[4] = {0, 1, 3, 2};
  int kt = -1, scores = -1, alpha_c, scaled = -1;
  if ((st = transpose(r, kh, 4, kt_perm, &kt))) return st;
  if ((st = op2(r, "MatMul", qh, kt, NULL, &scores))) return st;
  if ((st = cst_f32(r, alpha, &alpha_c))) return st;
  if ((st = op2(r, "Mul", scores, alpha_c, NULL, &scaled))) return st;
  int mask;
  if ((st = attention_mask(r, b, s, p, unidir != 0, &mask))) return st;
  if (mask >= 0) {
    int masked = -1;
    if ((st = op2(r, "Add", scaled, mask, NULL, &masked))) return st;
    scaled = masked;
  }
  if (has_rel) {
    int biased = -1;
    if ((st = op2(r, "Add", scaled, in_id(r, 5), NULL, &biased))) return st;
    scaled = biased;
  }
  cJSON *last = num_attr("axis", -1);
  int probs = -1, ctx = -1, back = -1, out = out_id(r, 0);
  if (!last) return oom(r);
  if ((st = op1(r, "Softmax", scaled, last, &probs))) return st;
  /* probs @ V: [B, N, S, vh] -> [B, S, N, vh] -> [B, S, N*vh]. */
  if ((st = op2(r, "MatMul", probs, vh, NULL, &ctx))) return st;
  if ((st = transpose(r, ctx, 4, bnsh, &back))) return st;
  int64_t dims3[3] = {b, s, v};
  return reshape(r, back, 3, dims3, &out);
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
static wnn_status need_q8(rw *r, int k, const char *what) {
  wnn_status st = need(r, k, what, WNN_DTYPE_INVALID, -1);
  if (st) return st;
  if (!is_q8_type(input(r, k)->dtype))
    return fail(r, WNN_ERR_UNSUPPORTED, "input %d (%s) '%s' is %s; it must be uint8 or int8", k,
                what, input(r, k)->name, wnn_dtype_name(input(r, k)->dtype));
  return WNN_OK;
}

/* Input k (a zero point), or a constant 0 of dtype dt when it is omitted. */
static wnn_status zp_or_zero(rw *r, int k, wnn_dtype dt, int *out) {
  if ((*out = in_id(r, k)) >= 0) return WNN_OK;
  const uint8_t zero = 0;
  return cst(r, dt, 0, NULL, &zero, out);
}

static wnn_status qlinear_unary(rw *r, bool leaky) {
  static const char *const none[] = {NULL}, *const alpha[] = {"alpha", NULL};
  wnn_status st = check_attrs(r, leaky ? alpha : none);
  if (!st) st = need_q8(r, 0, "X");
  if (!st) st = need(r, 1, "X_scale", WNN_DTYPE_F32, -1);
  if (!st) st = need(r, 3, "Y_scale", WNN_DTYPE_F32, -1);
  if (!st) st = no_inputs_from(r, 5, NULL);
  if (st) return st;
  int f = -1, a = -1, yzp, out = out_id(r, 0);
  if ((st = zp_or_zero(r, 4, input(r, 0)->dtype, &yzp))) return st;
  if ((st = op3(r, "DequantizeLinear", in_id(r, 0), in_id(r, 1), in_id(r, 2), NULL, &f))) return st;
  cJSON *attrs = NULL;
  if (leaky && !(attrs = num_attr("alpha", num(r, "alpha", 0.01)))) return oom(r);
  if ((st = op1(r, leaky ? "LeakyRelu" : "Sigmoid", f, attrs, &a))) return st;
  return op3(r, "QuantizeLinear", a, in_id(r, 3), yzp, NULL, &out);
}

static wnn_status qlinear_concat(rw *r) {
  static const char *const attrs[] = {"axis", NULL};
  wnn_status st = check_attrs(r, attrs);
  /* (The last zero point may be omitted, trailing.) */
  const int n = self(r)->num_inputs + ((self(r)->num_inputs - 2) % 3 == 2);
  if (!st && (n < 5 || (n - 2) % 3))
    return fail(r, WNN_ERR_MALFORMED,
                "has %d inputs; it takes Y_scale, Y_zero_point and then X, X_scale, X_zero_point "
                "for each input", self(r)->num_inputs);
  if (!st && (n - 2) / 3 > WNN_MAX_IO)
    return fail(r, WNN_ERR_UNSUPPORTED, "concatenates %d inputs; at most %d are supported",
                (n - 2) / 3, WNN_MAX_IO);
  if (!st) st = need(r, 0, "Y_scale", WNN_DTYPE_F32, -1);
  if (!st) st = need_q8(r, 1, "Y_zero_point");
  if (!st && !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(self(r)->attrs, "axis")))
    return fail(r, WNN_ERR_BAD_ATTRIBUTE, "attribute 'axis' is required");
  int fs[WNN_MAX_IO];
  for (int i = 0; !st && 2 + 3 * i < n; i++) {
    if ((st = need_q8(r, 2 + 3 * i, "X")) || (st = need(r, 3 + 3 * i, "X_scale", WNN_DTYPE_F32, -1)))
      return st;
    fs[i] = -1;
    st = op3(r, "DequantizeLinear", in_id(r, 2 + 3 * i), in_id(r, 3 + 3 * i), in_id(r, 4 + 3 * i),
             NULL, &fs[i]);
  }
  if (st) return st;
  int cat = -1, out = out_id(r, 0);
  cJSON *a = num_attr("axis", num(r, "axis", 0));
  if (!a) return oom(r);
  if ((st = emit(r, "Concat", fs, (n - 2) / 3, &cat, 1, a))) return st;
  return op3(r, "QuantizeLinear", cat, in_id(r, 0), in_id(r, 1), NULL, &out);
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
  rw r = {g, id, 0};
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
