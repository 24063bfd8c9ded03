/* Quantized patterns to integer ops (passes.h; docs/quantization.md, "What
 * the importer writes"):
 *
 *   DQ(x_q) -> Conv(., DQ(w_q), DQ(b_q)?) -> [Relu | Clip] -> Q
 *       => QLinearConv (activation, activation_params)
 *   DQ(a_q) -> MatMul(., DQ(b_q)) -> Q, or Gemm (transB, no C, alpha = beta = 1)
 *       => QLinearMatMul, b packed (b_packed = 1)
 *   DynamicQuantizeLinear(x) -> MatMulInteger(x_q, W, x_zp, w_zp?) -> Cast(float)
 *       -> Mul(., Mul(x_s, w_s)) [-> Add(., bias)]
 *       => DynamicQuantizeMatMul(x, W packed, w_s, w_zp?, bias?), b_packed = 1
 *       (each MatMulInteger of a shared DynamicQuantizeLinear on its own)
 *   QLinearMatMul / DynamicQuantizeMatMul with a constant 2-D B => B packed
 *
 * It runs after the sweep: constant folding has turned every DequantizeLinear
 * of a constant weight into a float constant and killed the node, so a weight
 * is traced back through the dead DequantizeLinear that wrote it (its inputs,
 * the integer weight, its scale and zero point, are still there). Each
 * rewrite happens only when every condition holds; the new node is then
 * checked with the runtime op's own prepare, and anything it refuses stays as
 * it was (float between Q and DQ, which runs correctly). The rewritten node
 * takes the place of the pattern's last node (its inputs all come earlier),
 * which writes the same output value; the other nodes of the pattern die.
 * Weights go to the new node as int8 w - w_zp without zero point when every
 * difference fits int8 (the int8 kernels' fast path; the same integer
 * products); a QDQ pattern whose weights do not fit stays float. Integer and
 * float weights that nothing reads any more are freed at the end.
 */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/shape.h"
#include "importer/passes.h"
#include "ops/op_internal.h"
#include "ops/quant_internal.h"

typedef struct qdq {
  wnn_ir_graph *g;
  int *folded_dq;   /* per value: the dead DequantizeLinear that folded into it, or -1 */
  int num_orig;     /* values when the pass began (folded_dq's size) */
  /* Constants made from others, reused for the next reader of the same
   * source: kind 0 int8 weights without zero point (src, zp), 1 packed B,
   * 2 packed from a transposed B. */
  struct made {
    int kind, src, zp, out;
  } *made;
  int num_made, cap_made;
  int *freeable;    /* values a rewrite stopped reading */
  int num_freeable, cap_freeable;
  int count;
} qdq;

static bool default_domain(const wnn_ir_node *n) {
  return !n->domain[0] || !strcmp(n->domain, "ai.onnx");
}

static bool is_op(const wnn_ir_node *n, const char *op) {
  return !n->dead && !n->shape_node && default_domain(n) && !strcmp(n->op_type, op);
}

static bool is_q8(wnn_dtype dt) { return dt == WNN_DTYPE_U8 || dt == WNN_DTYPE_I8; }

/* A constant that does not change with the dims. */
static const wnn_ir_value *constant(const wnn_ir_graph *g, int v) {
  if (v < 0) return NULL;
  const wnn_ir_value *x = &g->values[v];
  return x->data && x->known && !x->dyn_data ? x : NULL;
}

/* The live node writing v, or -1. */
static int producer(const wnn_ir_graph *g, int v) {
  if (v < 0) return -1;
  int p = g->values[v].producer;
  return p >= 0 && !g->nodes[p].dead ? p : -1;
}

static int64_t attr_int(const wnn_ir_node *n, const char *name, int64_t dflt) {
  return wnn_ir_json_int(cJSON_GetObjectItemCaseSensitive(n->attrs, name), dflt);
}

static double attr_num(const wnn_ir_node *n, const char *name, double dflt) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(n->attrs, name);
  return cJSON_IsNumber(a) ? a->valuedouble : dflt;
}

/* A DequantizeLinear's quantization: x = (q - zp) * scale. */
typedef struct qparams {
  int q, scale, zp;  /* value ids; zp -1 when omitted */
  int64_t count;     /* scale elements: 1, or the size of dim `axis` of q */
  int axis;          /* -1 when per tensor */
} qparams;

static float scale_at(const wnn_ir_graph *g, const qparams *p, int64_t i) {
  return ((const float *)g->values[p->scale].data)[p->count > 1 ? i : 0];
}

/* Every zero point of p is 0 (or omitted). */
static bool zero_zp(const wnn_ir_graph *g, const qparams *p) {
  if (p->zp < 0) return true;
  const wnn_ir_value *z = &g->values[p->zp];
  const unsigned char *b = z->data;
  for (size_t i = 0; i < z->nbytes; i++)
    if (b[i]) return false;
  return true;
}

/* Reads DequantizeLinear node d: constant scale (finite, > 0) and zero point,
 * per tensor or along one axis, no blocks. q need not be constant. */
static bool dq_params(const wnn_ir_graph *g, const wnn_ir_node *d, qparams *p) {
  if (d->num_inputs < 2 || d->num_inputs > 3 || d->num_outputs != 1 || d->inputs[0] < 0 ||
      attr_int(d, "block_size", 0) != 0)
    return false;
  const wnn_ir_value *q = &g->values[d->inputs[0]];
  const wnn_ir_value *s = constant(g, d->inputs[1]);
  const int zpi = d->num_inputs > 2 ? d->inputs[2] : -1;
  const wnn_ir_value *z = constant(g, zpi);
  if (!q->known || !s || s->dtype != WNN_DTYPE_F32 || s->ndim > 1 || (zpi >= 0 && !z)) return false;
  const int64_t count = wnn_ir_numel(s);
  if (count < 1 || (z && (z->dtype != q->dtype || wnn_ir_numel(z) != count || z->ndim > 1)))
    return false;
  const float *sc = s->data;
  for (int64_t i = 0; i < count; i++)
    if (!(sc[i] > 0.0f) || !isfinite(sc[i])) return false;
  p->q = d->inputs[0], p->scale = d->inputs[1], p->zp = zpi;
  p->count = count;
  p->axis = -1;
  if (count > 1 || s->ndim == 1) {
    int64_t axis = attr_int(d, "axis", 1);
    if (axis < 0) axis += q->ndim;
    if (axis < 0 || axis >= q->ndim) return count == 1 ? true : false;
    if (count > 1) {
      if (q->dims[axis] != count) return false;
      p->axis = (int)axis;
    }
  }
  return true;
}

/* The live DequantizeLinear writing v (a computed value), or -1. */
static int live_dq(const wnn_ir_graph *g, int v, qparams *p) {
  const int d = producer(g, v);
  if (d < 0 || !is_op(&g->nodes[d], "DequantizeLinear") || !dq_params(g, &g->nodes[d], p))
    return -1;
  return d;
}

/* The dead DequantizeLinear whose folding made constant v, with a constant
 * integer input, or -1. */
static int folded_dq(const qdq *s, int v, qparams *p) {
  const wnn_ir_graph *g = s->g;
  if (v < 0 || v >= s->num_orig || s->folded_dq[v] < 0 || !constant(g, v)) return -1;
  const wnn_ir_node *d = &g->nodes[s->folded_dq[v]];
  if (!dq_params(g, d, p) || !constant(g, p->q)) return -1;
  return s->folded_dq[v];
}

/* QuantizeLinear node q, per tensor, with a constant scale and zero point:
 * its scale, its zero point (-1 when omitted) and output dtype. */
static bool q_params(const wnn_ir_graph *g, const wnn_ir_node *q, int *scale, int *zp,
                     wnn_dtype *dt) {
  if (!is_op(q, "QuantizeLinear") || q->num_inputs < 2 || q->num_inputs > 3 ||
      q->num_outputs != 1 || q->inputs[0] < 0 || q->outputs[0] < 0 ||
      attr_int(q, "block_size", 0) != 0)
    return false;
  const wnn_ir_value *s = constant(g, q->inputs[1]);
  const int zpi = q->num_inputs > 2 ? q->inputs[2] : -1;
  const wnn_ir_value *z = constant(g, zpi);
  const wnn_ir_value *y = &g->values[q->outputs[0]];
  if (!s || s->dtype != WNN_DTYPE_F32 || s->ndim > 1 || wnn_ir_numel(s) != 1 || !y->known ||
      !is_q8(y->dtype) || (zpi >= 0 && (!z || z->ndim > 1 || wnn_ir_numel(z) != 1)))
    return false;
  const float sc = *(const float *)s->data;
  if (!(sc > 0.0f) || !isfinite(sc)) return false;
  *scale = q->inputs[1], *zp = zpi, *dt = y->dtype;
  return true;
}

/* Value v is read only by one node input (not a graph output). */
static bool single_reader(const wnn_ir_graph *g, int v) { return g->values[v].readers == 1; }

static wnn_status oom(wnn_ir_graph *g) {
  return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory rewriting quantized nodes");
}

static wnn_status note_freeable(qdq *s, int v) {
  if (v < 0) return WNN_OK;
  if (s->num_freeable == s->cap_freeable) {
    int cap = s->cap_freeable ? 2 * s->cap_freeable : 64;
    int *p = realloc(s->freeable, (size_t)cap * sizeof *p);
    if (!p) return oom(s->g);
    s->freeable = p;
    s->cap_freeable = cap;
  }
  s->freeable[s->num_freeable++] = v;
  return WNN_OK;
}

static int made_find(const qdq *s, int kind, int src, int zp) {
  for (int i = 0; i < s->num_made; i++)
    if (s->made[i].kind == kind && s->made[i].src == src && s->made[i].zp == zp) return s->made[i].out;
  return -1;
}

static wnn_status made_add(qdq *s, int kind, int src, int zp, int out) {
  if (s->num_made == s->cap_made) {
    int cap = s->cap_made ? 2 * s->cap_made : 32;
    struct made *p = realloc(s->made, (size_t)cap * sizeof *p);
    if (!p) return oom(s->g);
    s->made = p;
    s->cap_made = cap;
  }
  s->made[s->num_made++] = (struct made){kind, src, zp, out};
  return WNN_OK;
}

/* Weights w (a q8 constant) with zero points zp (-1: none; one, or one per
 * index of dim `axis`) as int8 weights without zero point: w - zp, when every
 * difference fits int8, which is what the integer ops' fast paths take
 * (docs/quantization.md: int8 weights, zero point 0). The products the ops
 * compute, (x - x_zp) * (w - w_zp), are the same integers. *out is w itself
 * when it is int8 with no or zero zero points, a new int8 constant otherwise,
 * or -1 when some difference does not fit. */
static wnn_status int8_weights(qdq *s, int w, int zp, int axis, int *out) {
  wnn_ir_graph *g = s->g;
  const wnn_ir_value *wv = &g->values[w];
  const wnn_ir_value *zv = zp >= 0 ? &g->values[zp] : NULL;
  const int64_t n = wnn_ir_numel(wv), nz = zv ? wnn_ir_numel(zv) : 0;
  bool zero = true;
  for (int64_t i = 0; i < nz; i++) zero &= (wv->dtype == WNN_DTYPE_I8 ? ((const int8_t *)zv->data)[i]
                                                                  : ((const uint8_t *)zv->data)[i]) == 0;
  *out = -1;
  if (wv->dtype == WNN_DTYPE_I8 && zero) {
    *out = w;
    return WNN_OK;
  }
  if ((*out = made_find(s, 0, w, zp)) >= 0) return WNN_OK;
  int64_t inner = 1;
  if (nz > 1)
    for (int d = axis + 1; d < wv->ndim; d++) inner *= wv->dims[d];
  for (int64_t i = 0; i < n; i++) {
    const int64_t c = nz > 1 ? (i / inner) % wv->dims[axis] : 0;
    const int32_t q = wv->dtype == WNN_DTYPE_I8 ? ((const int8_t *)wv->data)[i] : ((const uint8_t *)wv->data)[i];
    const int32_t z = !nz ? 0 : wv->dtype == WNN_DTYPE_I8 ? ((const int8_t *)zv->data)[c]
                                                          : ((const uint8_t *)zv->data)[c];
    if (q - z < -128 || q - z > 127) return WNN_OK;
  }
  char name[300];
  snprintf(name, sizeof name, "%.250s.s8", wv->name);
  int id;
  const int ndim = wv->ndim;
  int64_t dims[WNN_MAX_DIMS];
  memcpy(dims, wv->dims, sizeof dims);
  wnn_status st = wnn_ir_add_const(g, wnn_ir_find(g, name) < 0 ? name : NULL, WNN_DTYPE_I8, ndim,
                                   dims, NULL, &id);
  if (st) return st;
  wnn_ir_value_from_value(g, id, w);
  wnn_ir_value_from_value(g, id, zp);
  wv = &g->values[w];
  zv = zp >= 0 ? &g->values[zp] : NULL;
  int8_t *dst = g->values[id].data;
  for (int64_t i = 0; i < n; i++) {
    const int64_t c = nz > 1 ? (i / inner) % wv->dims[axis] : 0;
    const int32_t q = wv->dtype == WNN_DTYPE_I8 ? ((const int8_t *)wv->data)[i] : ((const uint8_t *)wv->data)[i];
    const int32_t z = !nz ? 0 : wv->dtype == WNN_DTYPE_I8 ? ((const int8_t *)zv->data)[c]
                                                          : ((const uint8_t *)zv->data)[c];
    dst[i] = (int8_t)(q - z);
  }
  if ((st = made_add(s, 0, w, zp, id))) return st;
  *out = id;
  return WNN_OK;
}

/* The column blocks a packed B of kp K-pairs and n columns is stored in
 * (b_block): the runtime's pb driver block, or 0 (one block) when that
 * covers every column. */
static size_t pb_block(int64_t kp, int64_t n) {
  const size_t block = wnn_qs8_gemm_pb_block((size_t)(2 * kp));
  return block >= (size_t)n ? 0 : block;
}

/* attrs (taken over, or a new object when NULL) with b_packed = 1 and, when
 * the packed constant is stored in column blocks, b_block; NULL when out of
 * memory. */
static cJSON *packed_attrs(const wnn_ir_graph *g, int packed, cJSON *attrs) {
  const size_t block = pb_block(g->values[packed].dims[0], g->values[packed].dims[1]);
  if (!attrs) attrs = cJSON_CreateObject();
  if (attrs && (!cJSON_AddNumberToObject(attrs, "b_packed", 1) ||
                (block && !cJSON_AddNumberToObject(attrs, "b_block", (double)block)))) {
    cJSON_Delete(attrs);
    attrs = NULL;
  }
  return attrs;
}

/* The logical [K, N] matrix of constant q8 value b (2-D; [N, K] when trans)
 * packed in K-pairs: packed[j][n][t] = B[2j + t][n], 0 past K, stored in the
 * column blocks of pb_block (each [ceil(K/2)][its columns][2], so that the
 * GEMM reads each block contiguously). A new constant (one per source and
 * orientation), of b's dtype, shape [ceil(K/2), N, 2]. */
static wnn_status pack_b(qdq *s, int b, bool trans, int *out) {
  wnn_ir_graph *g = s->g;
  if ((*out = made_find(s, trans ? 2 : 1, b, -1)) >= 0) return WNN_OK;
  const int64_t k = g->values[b].dims[trans ? 1 : 0], n = g->values[b].dims[trans ? 0 : 1];
  const int64_t dims[3] = {(k + 1) / 2, n, 2};
  char name[300];
  snprintf(name, sizeof name, "%.250s%s", g->values[b].name, trans ? ".packed_t" : ".packed");
  int id;
  wnn_status st = wnn_ir_find(g, name) < 0 ? wnn_ir_add_const(g, name, g->values[b].dtype, 3, dims,
                                                               NULL, &id)
                                           : wnn_ir_add_const(g, NULL, g->values[b].dtype, 3, dims,
                                                              NULL, &id);
  if (st) return st;
  wnn_ir_value_from_value(g, id, b);
  const unsigned char *src = g->values[b].data;
  unsigned char *dst = g->values[id].data; /* zeros */
  const size_t block = pb_block(dims[0], n);
  for (int64_t r = 0; r < k; r++)
    for (int64_t c = 0; c < n; c++)
      dst[wnn_qpacked_index((size_t)n, (size_t)k, block, (size_t)r, (size_t)c)] =
          src[trans ? c * k + r : r * n + c];
  *out = id;
  return made_add(s, trans ? 2 : 1, b, -1, id);
}

/* What a rewrite changes in node `at` (the pattern's last node), kept to
 * undo it when the runtime's prepare refuses the result. */
typedef struct saved {
  char *op_type, *name;
  int inputs[WNN_MAX_IO], num_inputs;
  cJSON *attrs;
  wnn_ir_value out;
} saved;

/* Turns node `at` into op(ins) with attrs (taken over), named `name`; checks
 * it with the runtime's prepare. *ok false: refused, node as it was. */
static wnn_status replace(wnn_ir_graph *g, int at, const char *op, const char *name,
                          const int *ins, int nin, cJSON *attrs, bool *ok) {
  *ok = false;
  wnn_ir_node *n = &g->nodes[at];
  saved sv;
  sv.op_type = n->op_type, sv.name = n->name, sv.attrs = n->attrs;
  sv.num_inputs = n->num_inputs;
  memcpy(sv.inputs, n->inputs, sizeof sv.inputs);
  sv.out = g->values[n->outputs[0]];
  char *op_copy = wnn_ir_strdup(op), *name_copy = wnn_ir_strdup(name);
  if (!op_copy || !name_copy || !attrs) {
    free(op_copy);
    free(name_copy);
    cJSON_Delete(attrs);
    return oom(g);
  }
  n->op_type = op_copy, n->name = name_copy, n->attrs = attrs;
  n->num_inputs = nin;
  memcpy(n->inputs, ins, (size_t)nin * sizeof *ins);
  char msg[sizeof g->msg];
  memcpy(msg, g->msg, sizeof msg);
  const bool unsupported = g->unsupported;
  wnn_status st = wnn_pass_infer_node(g, at, NULL, NULL);
  n = &g->nodes[at];
  const wnn_ir_value *y = &g->values[n->outputs[0]];
  if (st == WNN_ERR_OUT_OF_MEMORY) return st;
  if (!st && y->dtype == sv.out.dtype && wnn_shape_equal(y->ndim, y->dims, sv.out.ndim, sv.out.dims)) {
    free(sv.op_type);
    free(sv.name);
    cJSON_Delete(sv.attrs);
    *ok = true;
    return WNN_OK;
  }
  /* Refused: as it was. */
  free(n->op_type);
  free(n->name);
  cJSON_Delete(n->attrs);
  n->op_type = sv.op_type, n->name = sv.name, n->attrs = sv.attrs;
  n->num_inputs = sv.num_inputs;
  memcpy(n->inputs, sv.inputs, sizeof sv.inputs);
  g->values[n->outputs[0]] = sv.out;
  memcpy(g->msg, msg, sizeof msg);
  g->unsupported = unsupported;
  return WNN_OK;
}

/* Node id is merged into node `into` (the rewritten pattern's node) and dies.
 * Provenance: into computes it now, and the DequantizeLinear and
 * DynamicQuantizeLinear nodes feeding it, which the pattern takes in. */
static void kill(wnn_ir_graph *g, int id, int into) {
  wnn_ir_node_absorb(g, into, id);
  for (int k = 0; k < g->nodes[id].num_inputs; k++) {
    const int v = g->nodes[id].inputs[k], pi = v >= 0 ? g->values[v].producer : -1;
    if (pi >= 0 && (is_op(&g->nodes[pi], "DequantizeLinear") ||
                    is_op(&g->nodes[pi], "DynamicQuantizeLinear")))
      wnn_ir_node_absorb(g, into, pi);
    /* A constant input: the DequantizeLinear folded into it (the map lists
     * only the nodes of a node's sources, not its initializers). */
    if (v >= 0 && g->values[v].data)
      wnn_ir_src_union(g, &g->nodes[into].src, &g->nodes[into].num_src, g->values[v].src,
                       g->values[v].num_src);
  }
  wnn_ir_node *n = &g->nodes[id];
  n->dead = true;
  for (int k = 0; k < n->num_outputs; k++)
    if (n->outputs[k] >= 0) {
      g->values[n->outputs[k]].producer = -1;
      g->values[n->outputs[k]].readers = 0;
    }
}

/* All nodes of a pattern run under the same guards. */
static bool same_guards(const wnn_ir_graph *g, const int *ids, int count) {
  for (int i = 1; i < count; i++)
    if (ids[i] >= 0 && !wnn_ir_same_guards(&g->nodes[ids[0]], &g->nodes[ids[i]])) return false;
  return true;
}

/* Relu, or Clip with constant float bounds (absent: unbounded): the QLinear
 * activation and its params. */
static bool activation(const wnn_ir_graph *g, const wnn_ir_node *a, const char **name,
                       float *params, int *np) {
  *np = 0;
  if (is_op(a, "Relu") && a->num_inputs == 1 && cJSON_GetArraySize(a->attrs) == 0) {
    *name = "Relu";
    return true;
  }
  if (!is_op(a, "Clip") || a->num_inputs < 1 || a->num_inputs > 3 ||
      cJSON_GetArraySize(a->attrs) != 0)
    return false;
  params[0] = -FLT_MAX, params[1] = FLT_MAX;
  for (int k = 1; k < a->num_inputs; k++) {
    if (a->inputs[k] < 0) continue;
    const wnn_ir_value *v = constant(g, a->inputs[k]);
    if (!v || v->dtype != WNN_DTYPE_F32 || wnn_ir_numel(v) != 1) return false;
    const float b = *(const float *)v->data;
    if (!isfinite(b)) return false;
    params[k - 1] = b;
  }
  if (params[0] > params[1]) return false;
  *name = "Clip";
  *np = 2;
  return true;
}

/* A scalar zero point of dtype dt: zp, or a new constant 0. */
static wnn_status zero_point(wnn_ir_graph *g, int zp, wnn_dtype dt, int *out) {
  if (zp >= 0) {
    *out = zp;
    return WNN_OK;
  }
  const uint8_t zero = 0;
  return wnn_ir_add_const(g, NULL, dt, 0, NULL, &zero, out);
}

/* --------------------------------------------------------------- Conv */

static wnn_status rewrite_conv(qdq *s, int qi, bool *done) {
  wnn_ir_graph *g = s->g;
  *done = false;
  int ys, yzp;
  wnn_dtype ydt;
  if (!q_params(g, &g->nodes[qi], &ys, &yzp, &ydt)) return WNN_OK;
  int v = g->nodes[qi].inputs[0];
  if (!single_reader(g, v)) return WNN_OK;
  int ci = producer(g, v), ai = -1;
  const char *act = NULL;
  float params[2];
  int np = 0;
  if (ci >= 0 && activation(g, &g->nodes[ci], &act, params, &np)) {
    ai = ci;
    v = g->nodes[ai].inputs[0];
    if (v < 0 || !single_reader(g, v)) return WNN_OK;
    ci = producer(g, v);
  }
  if (ci < 0) return WNN_OK;
  const wnn_ir_node *c = &g->nodes[ci];
  if (!is_op(c, "Conv") || c->num_inputs < 2 || c->num_inputs > 3 || c->num_outputs != 1 ||
      c->inputs[0] < 0 || c->inputs[1] < 0 || cJSON_GetObjectItemCaseSensitive(c->attrs, "activation"))
    return WNN_OK;
  qparams xp, wp, bp;
  const int di = live_dq(g, c->inputs[0], &xp);
  if (di < 0 || xp.count != 1 || !is_q8(g->values[xp.q].dtype)) return WNN_OK;
  const int ids[4] = {qi, ai, ci, di};
  if (!same_guards(g, ids, 4)) return WNN_OK;
  const wnn_ir_value *x = &g->values[xp.q];
  if (x->ndim != 3 && x->ndim != 4) return WNN_OK;
  if (folded_dq(s, c->inputs[1], &wp) < 0) return WNN_OK;
  const wnn_ir_value *w = &g->values[wp.q];
  const int64_t m = w->dims[0];
  if (!is_q8(w->dtype) || w->ndim != x->ndim || (wp.count > 1 && wp.axis != 0)) return WNN_OK;
  int bq = -1;
  if (c->num_inputs > 2 && c->inputs[2] >= 0) {
    if (folded_dq(s, c->inputs[2], &bp) < 0) return WNN_OK;
    const wnn_ir_value *b = &g->values[bp.q];
    if (b->dtype != WNN_DTYPE_I32 || b->ndim != 1 || b->dims[0] != m || !zero_zp(g, &bp) ||
        (bp.count > 1 && bp.axis != 0))
      return WNN_OK;
    /* The quantizers' bias scale: the float32 product x_s * w_s, exactly. */
    const float xs = scale_at(g, &xp, 0);
    for (int64_t k = 0; k < m; k++)
      if (scale_at(g, &bp, k) != (float)(xs * scale_at(g, &wp, k))) return WNN_OK;
    bq = bp.q;
  }
  /* int8 weights without zero point, or the Conv stays float: a QLinearConv
   * with other weights would run its plain loops, slower than the float
   * Conv. */
  int wq8, yz;
  wnn_status st = int8_weights(s, wp.q, wp.zp, 0, &wq8);
  if (st || wq8 < 0) return st;
  if ((st = zero_point(g, yzp, ydt, &yz))) return st;
  c = &g->nodes[ci];
  cJSON *attrs = cJSON_Duplicate(c->attrs, 1);
  if (attrs && act) {
    bool ok = cJSON_AddStringToObject(attrs, "activation", act) != NULL;
    if (ok && np) {
      cJSON *list = cJSON_CreateArray();
      for (int k = 0; list && k < np; k++) cJSON_AddItemToArray(list, cJSON_CreateNumber(params[k]));
      ok = list && cJSON_GetArraySize(list) == np && cJSON_AddItemToObject(attrs, "activation_params", list);
    }
    if (!ok) {
      cJSON_Delete(attrs);
      attrs = NULL;
    }
  }
  const int ins[9] = {xp.q, xp.scale, xp.zp, wq8, wp.scale, -1, ys, yz, bq};
  const int w_float = c->inputs[1], b_float = c->num_inputs > 2 ? c->inputs[2] : -1;
  char name[300];
  snprintf(name, sizeof name, "%.290s", c->name);
  bool ok;
  if ((st = replace(g, qi, "QLinearConv", name, ins, bq >= 0 ? 9 : 8, attrs, &ok))) return st;
  if (!ok) {
    if (yzp < 0 && (st = note_freeable(s, yz))) return st;
    return note_freeable(s, wq8);
  }
  kill(g, ci, qi);
  if (ai >= 0) kill(g, ai, qi);
  if ((st = note_freeable(s, w_float)) || (st = note_freeable(s, b_float)) ||
      (st = note_freeable(s, wp.q)))
    return st;
  *done = true;
  return WNN_OK;
}

/* ------------------------------------------------------ MatMul, Gemm */

static wnn_status rewrite_matmul(qdq *s, int qi, bool *done) {
  wnn_ir_graph *g = s->g;
  *done = false;
  int ys, yzp;
  wnn_dtype ydt;
  if (!q_params(g, &g->nodes[qi], &ys, &yzp, &ydt)) return WNN_OK;
  const int v = g->nodes[qi].inputs[0];
  const int mi = producer(g, v);
  if (!single_reader(g, v) || mi < 0) return WNN_OK;
  const wnn_ir_node *mm = &g->nodes[mi];
  const bool gemm = is_op(mm, "Gemm");
  if (!gemm && !is_op(mm, "MatMul")) return WNN_OK;
  if (mm->num_outputs != 1 || mm->num_inputs < 2 || mm->inputs[0] < 0 || mm->inputs[1] < 0) return WNN_OK;
  bool trans = false;
  if (gemm) {
    if ((mm->num_inputs > 2 && mm->inputs[2] >= 0) || attr_int(mm, "transA", 0) != 0 ||
        attr_num(mm, "alpha", 1.0) != 1.0 || attr_num(mm, "beta", 1.0) != 1.0 ||
        cJSON_GetObjectItemCaseSensitive(mm->attrs, "activation"))
      return WNN_OK;
    trans = attr_int(mm, "transB", 0) != 0;
  } else if (mm->num_inputs != 2) {
    return WNN_OK;
  }
  qparams ap, bp;
  const int di = live_dq(g, mm->inputs[0], &ap);
  /* (A 1-D a, which QLinearMatMul does not take, is left to its prepare.) */
  if (di < 0 || ap.count != 1 || !is_q8(g->values[ap.q].dtype)) return WNN_OK;
  const int ids[3] = {qi, mi, di};
  if (!same_guards(g, ids, 3)) return WNN_OK;
  if (folded_dq(s, mm->inputs[1], &bp) < 0) return WNN_OK;
  const wnn_ir_value *b = &g->values[bp.q];
  /* Per column of the logical [K, N]: dim 1, or dim 0 of a transposed B. */
  if (!is_q8(b->dtype) || b->ndim != 2 || (bp.count > 1 && bp.axis != (trans ? 0 : 1)))
    return WNN_OK;
  /* int8 B without zero point (as for Conv, or it stays float). */
  int b8, packed, yz;
  wnn_status st = int8_weights(s, bp.q, bp.zp, bp.axis, &b8);
  if (st || b8 < 0) return st;
  if ((st = pack_b(s, b8, trans, &packed)) || (st = zero_point(g, yzp, ydt, &yz))) return st;
  mm = &g->nodes[mi];
  const int ins[8] = {ap.q, ap.scale, ap.zp, packed, bp.scale, -1, ys, yz};
  const int b_float = mm->inputs[1];
  char name[300];
  snprintf(name, sizeof name, "%.290s", mm->name);
  bool ok;
  if ((st = replace(g, qi, "QLinearMatMul", name, ins, 8, packed_attrs(g, packed, NULL), &ok)))
    return st;
  if (!ok) {
    if ((yzp < 0 && (st = note_freeable(s, yz))) || (st = note_freeable(s, b8))) return st;
    return note_freeable(s, packed);
  }
  kill(g, mi, qi);
  if ((st = note_freeable(s, b_float)) || (st = note_freeable(s, bp.q)) ||
      (st = note_freeable(s, b8)))
    return st;
  *done = true;
  return WNN_OK;
}

/* ----------------------------------------------------------- dynamic */

/* The one live node reading v, or -1. */
static int only_reader(const wnn_ir_graph *g, int v) {
  if (!single_reader(g, v)) return -1;
  for (int i = 0; i < g->num_nodes; i++) {
    const wnn_ir_node *n = &g->nodes[i];
    for (int k = 0; !n->dead && k < n->num_inputs; k++)
      if (n->inputs[k] == v) return i;
  }
  return -1;
}

/* Mul node m2 = Mul(Cast(MatMulInteger(...)), Mul(x_s, w_s)), either operand
 * order, optionally followed by Add(., bias). */
static wnn_status rewrite_dynamic(qdq *s, int m2, bool *done) {
  wnn_ir_graph *g = s->g;
  *done = false;
  const wnn_ir_node *mul = &g->nodes[m2];
  if (!is_op(mul, "Mul") || mul->num_inputs != 2 || mul->num_outputs != 1 || mul->inputs[0] < 0 ||
      mul->inputs[1] < 0 || mul->outputs[0] < 0)
    return WNN_OK;
  int cast = -1, m1 = -1;
  for (int k = 0; k < 2 && cast < 0; k++) {
    const int a = producer(g, mul->inputs[k]), b = producer(g, mul->inputs[1 - k]);
    if (a >= 0 && b >= 0 && is_op(&g->nodes[a], "Cast") && is_op(&g->nodes[b], "Mul"))
      cast = a, m1 = b;
  }
  if (cast < 0) return WNN_OK;
  const wnn_ir_node *cn = &g->nodes[cast], *sn = &g->nodes[m1];
  if (cn->num_inputs != 1 || cn->num_outputs != 1 || attr_int(cn, "to", 0) != 1 ||
      !single_reader(g, cn->outputs[0]) || sn->num_inputs != 2 || sn->num_outputs != 1 ||
      sn->inputs[0] < 0 || sn->inputs[1] < 0 || !single_reader(g, sn->outputs[0]))
    return WNN_OK;
  const int mi = producer(g, cn->inputs[0]);
  if (mi < 0 || !is_op(&g->nodes[mi], "MatMulInteger")) return WNN_OK;
  const wnn_ir_node *mmi = &g->nodes[mi];
  if (mmi->num_inputs < 3 || mmi->num_outputs != 1 || mmi->inputs[0] < 0 || mmi->inputs[2] < 0 ||
      !single_reader(g, mmi->outputs[0]))
    return WNN_OK;
  const int dq = producer(g, mmi->inputs[0]);
  if (dq < 0 || !is_op(&g->nodes[dq], "DynamicQuantizeLinear")) return WNN_OK;
  const wnn_ir_node *d = &g->nodes[dq];
  if (d->num_inputs != 1 || d->inputs[0] < 0 || d->num_outputs != 3 || d->outputs[0] != mmi->inputs[0] ||
      d->outputs[2] != mmi->inputs[2] || d->outputs[1] < 0)
    return WNN_OK;
  /* x_q, x_s and x_zp may have other readers (a DynamicQuantizeLinear
   * shared by the Q, K and V projections of a transformer, as
   * quantize_dynamic writes it): the new node quantizes x itself, to the same
   * bits, and the DynamicQuantizeLinear stays for the others (dead-code
   * elimination removes it when every reader was rewritten). */
  /* S = Mul(x_s, w_s), either order. */
  int ws = -1;
  if (sn->inputs[0] == d->outputs[1]) ws = sn->inputs[1];
  else if (sn->inputs[1] == d->outputs[1]) ws = sn->inputs[0];
  const wnn_ir_value *w = constant(g, mmi->inputs[1]);
  const wnn_ir_value *wsv = constant(g, ws);
  if (!w || !is_q8(w->dtype) || w->ndim != 2 || !wsv || wsv->dtype != WNN_DTYPE_F32) return WNN_OK;
  const int64_t n = w->dims[1];
  if (!(wsv->ndim <= 1 && wnn_ir_numel(wsv) == 1) && !(wsv->ndim == 1 && wsv->dims[0] == n))
    return WNN_OK;
  int wzp = mmi->num_inputs > 3 ? mmi->inputs[3] : -1;
  if (wzp >= 0) {
    const wnn_ir_value *z = constant(g, wzp);
    if (!z || z->dtype != w->dtype ||
        !((z->ndim <= 1 && wnn_ir_numel(z) == 1) || (z->ndim == 1 && z->dims[0] == n)))
      return WNN_OK;
  }
  /* Then Add(., bias), bias a constant float [N], either order. */
  int last = m2, bias = -1;
  const int add = only_reader(g, mul->outputs[0]);
  if (add >= 0 && is_op(&g->nodes[add], "Add")) {
    const wnn_ir_node *an = &g->nodes[add];
    if (an->num_inputs == 2 && an->num_outputs == 1 && an->outputs[0] >= 0) {
      const int other = an->inputs[0] == mul->outputs[0] ? an->inputs[1] : an->inputs[0];
      const wnn_ir_value *bv = constant(g, other);
      if (bv && bv->dtype == WNN_DTYPE_F32 && bv->ndim == 1 && bv->dims[0] == n &&
          (an->inputs[0] == mul->outputs[0]) != (an->inputs[1] == mul->outputs[0]))
        last = add, bias = other;
    }
  }
  const int ids[6] = {last, m2, cast, m1, mi, dq};
  if (!same_guards(g, ids, 6)) return WNN_OK;
  /* int8 W without zero point when it fits (the fast path), else W as it
   * is: the MatMulInteger it replaces runs the same plain loops. */
  int w8, packed;
  wnn_status st = int8_weights(s, mmi->inputs[1], wzp, 1, &w8);
  if (!st) st = pack_b(s, w8 >= 0 ? w8 : g->nodes[mi].inputs[1], false, &packed);
  if (st) return st;
  if (w8 >= 0) wzp = -1;
  d = &g->nodes[dq];
  const int ins[5] = {d->inputs[0], packed, ws, wzp, bias};
  const int w_int = g->nodes[mi].inputs[1];
  char name[300];
  snprintf(name, sizeof name, "%.290s", g->nodes[mi].name);
  bool ok;
  if ((st = replace(g, last, "DynamicQuantizeMatMul", name, ins, bias >= 0 ? 5 : wzp >= 0 ? 4 : 3,
                    packed_attrs(g, packed, NULL), &ok)))
    return st;
  if (!ok) {
    if ((st = note_freeable(s, w8))) return st;
    return note_freeable(s, packed);
  }
  kill(g, mi, last);
  kill(g, cast, last);
  kill(g, m1, last);
  if (last != m2) kill(g, m2, last);
  if ((st = note_freeable(s, w_int)) || (st = note_freeable(s, w8))) return st;
  *done = true;
  return WNN_OK;
}

/* ------------------------------------------- QOperator: pack B as it is */

/* QLinearMatMul (B is input 3) or DynamicQuantizeMatMul (input 1) with a
 * constant 2-D B that is not packed yet. */
static wnn_status pack_existing(qdq *s, int id, bool *done) {
  wnn_ir_graph *g = s->g;
  *done = false;
  const wnn_ir_node *n = &g->nodes[id];
  if (n->dead || n->shape_node || n->num_outputs != 1 || n->outputs[0] < 0) return WNN_OK;
  int slot;
  if (default_domain(n) && !strcmp(n->op_type, "QLinearMatMul") && n->num_inputs == 8) slot = 3;
  else if ((default_domain(n) || !strcmp(n->domain, "com.microsoft")) &&
           !strcmp(n->op_type, "DynamicQuantizeMatMul") && n->num_inputs >= 2)
    slot = 1;
  else return WNN_OK;
  if (attr_int(n, "b_packed", 0) != 0 || n->inputs[0] < 0 || g->values[n->inputs[0]].ndim < 2)
    return WNN_OK;
  const int b = n->inputs[slot];
  const wnn_ir_value *bv = constant(g, b);
  if (!bv || !is_q8(bv->dtype) || bv->ndim != 2) return WNN_OK;
  /* B's zero point (QLinearMatMul's input 5, DynamicQuantizeMatMul's 3): a
   * constant one is folded into int8 B when that fits (the fast path). */
  const int zslot = slot + 2, zp = zslot < n->num_inputs ? n->inputs[zslot] : -1;
  const wnn_ir_value *zv = constant(g, zp);
  int b8 = -1, packed;
  wnn_status st = WNN_OK;
  if (zp < 0 || (zv && zv->dtype == bv->dtype &&
                 ((zv->ndim <= 1 && wnn_ir_numel(zv) == 1) || (zv->ndim == 1 && zv->dims[0] == bv->dims[1]))))
    st = int8_weights(s, b, zp, 1, &b8);
  if (!st) st = pack_b(s, b8 >= 0 ? b8 : b, false, &packed);
  if (st) return st;
  n = &g->nodes[id];
  int ins[WNN_MAX_IO];
  memcpy(ins, n->inputs, sizeof ins);
  ins[slot] = packed;
  if (b8 >= 0 && zslot < n->num_inputs) ins[zslot] = -1;
  cJSON *attrs = n->attrs ? cJSON_Duplicate(n->attrs, 1) : NULL;
  attrs = n->attrs && !attrs ? NULL : packed_attrs(g, packed, attrs);
  char op[64], name[300];
  snprintf(op, sizeof op, "%s", n->op_type);
  snprintf(name, sizeof name, "%.290s", n->name);
  bool ok;
  if ((st = replace(g, id, op, name, ins, n->num_inputs, attrs, &ok))) return st;
  if (!ok) {
    if ((st = note_freeable(s, b8))) return st;
    return note_freeable(s, packed);
  }
  if ((st = note_freeable(s, b)) || (st = note_freeable(s, b8))) return st;
  *done = true;
  return WNN_OK;
}

/* ------------------------------------------- element-wise chains: QLookup */

/* Float ops that act on each element alone (any other input a one-element
 * constant): a chain of them from DQ(x_q) to a Q is a function of x_q's byte. */
static bool elementwise(const wnn_ir_node *n) {
  static const char *const ops[] = {
      "Sigmoid", "HardSigmoid", "HardSwish", "Relu", "LeakyRelu", "Clip", "Tanh", "Elu",
      "Selu",    "Celu",        "Softplus",  "Softsign", "Mish", "Gelu", "Erf", "Exp",
      "Neg",     "Abs",         "Sqrt",      "Reciprocal", "Floor", "Ceil", "Round", "Sign",
      "Add",     "Sub",         "Mul",       "Div",  "Max",  "Min",  "Pow", "ThresholdedRelu"};
  if (n->dead || n->shape_node || !default_domain(n) || n->num_outputs != 1) return false;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (!strcmp(n->op_type, ops[i])) return true;
  return false;
}

enum { LUT_MAX_NODES = 32 };

typedef struct lut {
  int x;                      /* the quantized input x_q, or -1 before a root is found */
  int nodes[LUT_MAX_NODES];   /* the chain's nodes, its Q first */
  int n;
} lut;

static bool lut_has(const lut *L, int id) {
  for (int i = 0; i < L->n; i++)
    if (L->nodes[i] == id) return true;
  return false;
}

/* Adds what computes value v to the chain: nothing for x_q or a one-element
 * constant; else its producer, which must be an element-wise float op, an
 * inner QuantizeLinear, or a DequantizeLinear per tensor of x_q (a root) or of
 * an inner QuantizeLinear's output. */
static bool lut_visit(const wnn_ir_graph *g, lut *L, int v) {
  if (v < 0 || v == L->x) return v >= 0;
  const wnn_ir_value *c = constant(g, v);
  if (c) return wnn_ir_numel(c) == 1;
  const int p = producer(g, v);
  if (p < 0) return false;
  if (lut_has(L, p)) return true;
  if (L->n == LUT_MAX_NODES) return false;
  L->nodes[L->n++] = p;
  const wnn_ir_node *n = &g->nodes[p];
  if (is_op(n, "DequantizeLinear")) {
    qparams dp;
    if (!dq_params(g, n, &dp) || dp.count != 1 || !is_q8(g->values[dp.q].dtype) ||
        (dp.zp >= 0 && wnn_ir_numel(&g->values[dp.zp]) != 1))
      return false;
    const int pq = producer(g, dp.q);
    int ys, yzp;
    wnn_dtype ydt;
    /* DQ(Q(op(...))): an inner pair when the Q is read only here and the
     * chain goes on through it; else this DQ is a root. */
    if (pq >= 0 && single_reader(g, dp.q) && q_params(g, &g->nodes[pq], &ys, &yzp, &ydt)) {
      const lut before = *L;
      if (lut_visit(g, L, dp.q)) return true;
      *L = before;
    }
    if (constant(g, dp.q)) return false;
    if (L->x < 0) L->x = dp.q;
    return L->x == dp.q;
  }
  int ys, yzp;
  wnn_dtype ydt;
  if (q_params(g, n, &ys, &yzp, &ydt)) return lut_visit(g, L, n->inputs[0]);
  if (!elementwise(n)) return false;
  for (int k = 0; k < n->num_inputs; k++)
    if (n->inputs[k] >= 0 && !lut_visit(g, L, n->inputs[k])) return false;
  return true;
}

static int cmp_int(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

/* Runs the chain's nodes (in graph order) on the 256 values of x_q with the
 * runtime ops' prepare and run (the scalar kernels, as constant folding does);
 * the Q's 256 output bytes go to table. false when an op refuses. */
static wnn_status lut_eval(wnn_ir_graph *g, const lut *L, uint8_t *table, bool *ok) {
  *ok = false;
  int order[LUT_MAX_NODES];
  memcpy(order, L->nodes, (size_t)L->n * sizeof *order);
  qsort(order, (size_t)L->n, sizeof *order, cmp_int);
  /* Each node's output: 256 elements of at most 8 bytes; x_q's bytes. */
  _Alignas(16) uint8_t xb[256];
  for (int i = 0; i < 256; i++) xb[i] = (uint8_t)i;
  uint8_t *bufs = malloc((size_t)L->n * 256 * 8);
  if (!bufs) return oom(g);
  wnn_tdesc outs[LUT_MAX_NODES];
  wnn_status st = WNN_OK;
  int i;
  for (i = 0; i < L->n; i++) {
    const wnn_ir_node *n = &g->nodes[order[i]];
    const wnn_op *op = wnn_op_by_name(n->op_type);
    if (!op || !op->run) break;
    wnn_tdesc in[WNN_MAX_IO];
    wnn_tensor tin[WNN_MAX_IO];
    memset(in, 0, sizeof in);
    memset(tin, 0, sizeof tin);
    for (int k = 0; k < n->num_inputs; k++) {
      const int v = n->inputs[k];
      if (v < 0) continue;
      if (v == L->x) {
        in[k].dtype = g->values[v].dtype;
        in[k].ndim = 1;
        in[k].dims[0] = 256;
        in[k].data = xb;
      } else if (g->values[v].data) {
        const wnn_ir_value *c = &g->values[v];
        in[k].dtype = c->dtype;
        in[k].ndim = c->ndim;
        memcpy(in[k].dims, c->dims, sizeof c->dims);
        in[k].data = c->data;
      } else {
        int j = 0;
        while (j < i && g->nodes[order[j]].outputs[0] != v) j++;
        if (j == i) break; /* computed later: not a chain of this order */
        in[k] = outs[j];
      }
      tin[k] = (wnn_tensor){(void *)in[k].data, in[k].dtype, in[k].ndim, in[k].dims};
    }
    _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
    memset(params, 0, sizeof params);
    char msg[256];
    memset(&outs[i], 0, sizeof outs[i]);
    wnn_prepare_ctx pc;
    memset(&pc, 0, sizeof pc);
    pc.attrs = wnn_attrs_from_json(n->attrs);
    pc.num_inputs = n->num_inputs;
    pc.inputs = in;
    pc.num_outputs = 1;
    pc.outputs = &outs[i];
    pc.params = params;
    pc.kernels = WNN_KERNELS_SCALAR;
    pc.msg = msg;
    pc.msg_cap = sizeof msg;
    if (wnn_op_check_node(op, pc.attrs, n->num_inputs, 1, msg, sizeof msg) || op->prepare(&pc) ||
        wnn_shape_numel(outs[i].ndim, outs[i].dims) != 256 || wnn_dtype_size(outs[i].dtype) > 8)
      break;
    void *scratch = NULL;
    if (pc.scratch_bytes && !(scratch = malloc(pc.scratch_bytes))) {
      st = oom(g);
      break;
    }
    outs[i].data = bufs + (size_t)i * 256 * 8;
    wnn_tensor tout = {(void *)outs[i].data, outs[i].dtype, outs[i].ndim, outs[i].dims};
    wnn_run_ctx rc = {params, n->num_inputs, tin, 1, &tout, scratch, msg, sizeof msg};
    const wnn_status rs = op->run(&rc);
    free(scratch);
    if (rs) break;
  }
  /* The last node in graph order is the Q (the chain's only way out). */
  if (!st && i == L->n && order[L->n - 1] == L->nodes[0] && wnn_dtype_size(outs[i - 1].dtype) == 1) {
    memcpy(table, outs[i - 1].data, 256);
    *ok = true;
  }
  free(bufs);
  return st;
}

/* QuantizeLinear node qi ending a chain of element-wise float ops (and inner
 * Q -> DQ pairs) from DQ(x_q) per tensor: QLookup(x_q, table), the table the
 * chain evaluated on every byte. Every value inside the chain is read only by
 * the chain (the root DequantizeLinear's output may have other readers). */
static wnn_status rewrite_lut(qdq *s, int qi, bool *done) {
  wnn_ir_graph *g = s->g;
  *done = false;
  int ys, yzp;
  wnn_dtype ydt;
  if (!q_params(g, &g->nodes[qi], &ys, &yzp, &ydt)) return WNN_OK;
  lut L = {.x = -1, .nodes = {qi}, .n = 1};
  if (!lut_visit(g, &L, g->nodes[qi].inputs[0]) || L.x < 0 || L.n < 2) return WNN_OK;
  if (!same_guards(g, L.nodes, L.n)) return WNN_OK;
  const wnn_ir_value *x = &g->values[L.x];
  if (!x->known || !is_q8(x->dtype)) return WNN_OK;
  /* Inside values read only inside (a root DequantizeLinear's may be read
   * elsewhere too). */
  for (int i = 1; i < L.n; i++) {
    const wnn_ir_node *n = &g->nodes[L.nodes[i]];
    if (is_op(n, "DequantizeLinear") && n->inputs[0] == L.x) continue;
    const int v = n->outputs[0];
    int uses = 0;
    for (int j = 0; j < L.n; j++) {
      const wnn_ir_node *r = &g->nodes[L.nodes[j]];
      for (int k = 0; k < r->num_inputs; k++) uses += r->inputs[k] == v;
    }
    if (v < 0 || uses != g->values[v].readers) return WNN_OK;
  }
  uint8_t table[256];
  bool ok;
  wnn_status st = lut_eval(g, &L, table, &ok);
  if (st || !ok) return st;
  int tid;
  const int64_t dims[1] = {256};
  if ((st = wnn_ir_add_const(g, NULL, ydt, 1, dims, table, &tid))) return st;
  for (int i = 0; i < L.n; i++) wnn_ir_value_from_node(g, tid, L.nodes[i]);
  char name[300];
  snprintf(name, sizeof name, "%.290s", g->nodes[qi].name);
  const int ins[2] = {L.x, tid};
  if ((st = replace(g, qi, "QLookup", name, ins, 2, cJSON_CreateObject(), &ok))) return st;
  if (!ok) return note_freeable(s, tid);
  for (int i = 1; i < L.n; i++) {
    const wnn_ir_node *n = &g->nodes[L.nodes[i]];
    if (!(is_op(n, "DequantizeLinear") && n->inputs[0] == L.x)) kill(g, L.nodes[i], qi);
  }
  *done = true;
  return WNN_OK;
}

/* --------------------------------------------- Add, Mul: QLinearAdd/Mul */

/* QuantizeLinear node qi after Add or Mul of two DequantizeLinear outputs
 * (per tensor, q8), optionally through a Relu: QLinearAdd / QLinearMul, the
 * Relu as its activation (a clamp of the quantized output). The
 * DequantizeLinear outputs may have other readers. */
static wnn_status rewrite_qbinary(qdq *s, int qi, bool *done) {
  wnn_ir_graph *g = s->g;
  *done = false;
  int ys, yzp;
  wnn_dtype ydt;
  if (!q_params(g, &g->nodes[qi], &ys, &yzp, &ydt)) return WNN_OK;
  int v = g->nodes[qi].inputs[0];
  if (!single_reader(g, v)) return WNN_OK;
  int bi = producer(g, v), ri = -1;
  if (bi >= 0 && is_op(&g->nodes[bi], "Relu") && g->nodes[bi].num_inputs == 1 &&
      cJSON_GetArraySize(g->nodes[bi].attrs) == 0) {
    ri = bi;
    v = g->nodes[ri].inputs[0];
    if (v < 0 || !single_reader(g, v)) return WNN_OK;
    bi = producer(g, v);
  }
  if (bi < 0) return WNN_OK;
  const wnn_ir_node *b = &g->nodes[bi];
  const bool add = is_op(b, "Add");
  if ((!add && !is_op(b, "Mul")) || b->num_inputs != 2 || b->num_outputs != 1 ||
      cJSON_GetArraySize(b->attrs) != 0)
    return WNN_OK;
  qparams p[2];
  int d[2];
  for (int k = 0; k < 2; k++) {
    d[k] = live_dq(g, b->inputs[k], &p[k]);
    if (d[k] < 0 || p[k].count != 1 || !is_q8(g->values[p[k].q].dtype) ||
        (p[k].zp >= 0 && wnn_ir_numel(&g->values[p[k].zp]) != 1))
      return WNN_OK;
    /* With a Relu the clamp equals Q(relu(v)) unless v can be NaN, which
     * finite dequantized values cannot give below these scales. */
    if (ri >= 0 && !(scale_at(g, &p[k], 0) < 1e18f)) return WNN_OK;
  }
  const int ids[5] = {qi, ri, bi, d[0], d[1]};
  if (!same_guards(g, ids, 5)) return WNN_OK;
  int yz;
  wnn_status st = zero_point(g, yzp, ydt, &yz);
  if (st) return st;
  const int ins[8] = {p[0].q, p[0].scale, p[0].zp, p[1].q, p[1].scale, p[1].zp, ys, yz};
  char name[300];
  snprintf(name, sizeof name, "%.290s", g->nodes[bi].name);
  bool ok;
  if ((st = replace(g, qi, add ? "QLinearAdd" : "QLinearMul", name, ins, 8,
                    cJSON_Parse(ri >= 0 ? "{\"activation\":\"Relu\"}" : "{}"), &ok)))
    return st;
  if (!ok) return yzp < 0 ? note_freeable(s, yz) : WNN_OK;
  kill(g, bi, qi);
  if (ri >= 0) kill(g, ri, qi);
  *done = true;
  return WNN_OK;
}

/* QuantizeLinear node qi after GlobalAveragePool of a DequantizeLinear
 * output (per tensor, q8): QLinearGlobalAveragePool. */
static wnn_status rewrite_qgap(qdq *s, int qi, bool *done) {
  wnn_ir_graph *g = s->g;
  *done = false;
  int ys, yzp;
  wnn_dtype ydt;
  if (!q_params(g, &g->nodes[qi], &ys, &yzp, &ydt)) return WNN_OK;
  const int v = g->nodes[qi].inputs[0];
  const int pi = producer(g, v);
  if (!single_reader(g, v) || pi < 0 || !is_op(&g->nodes[pi], "GlobalAveragePool") ||
      g->nodes[pi].num_inputs != 1 || g->nodes[pi].num_outputs != 1)
    return WNN_OK;
  qparams xp;
  const int di = live_dq(g, g->nodes[pi].inputs[0], &xp);
  if (di < 0 || xp.count != 1 || !is_q8(g->values[xp.q].dtype) ||
      (xp.zp >= 0 && wnn_ir_numel(&g->values[xp.zp]) != 1))
    return WNN_OK;
  const int ids[3] = {qi, pi, di};
  if (!same_guards(g, ids, 3)) return WNN_OK;
  int yz;
  wnn_status st = zero_point(g, yzp, ydt, &yz);
  if (st) return st;
  const int ins[5] = {xp.q, xp.scale, xp.zp, ys, yz};
  char name[300];
  snprintf(name, sizeof name, "%.290s", g->nodes[pi].name);
  bool ok;
  if ((st = replace(g, qi, "QLinearGlobalAveragePool", name, ins, 5, cJSON_CreateObject(), &ok)))
    return st;
  if (!ok) return yzp < 0 ? note_freeable(s, yz) : WNN_OK;
  kill(g, pi, qi);
  *done = true;
  return WNN_OK;
}

/* ---------------------------------------- Concat on the quantized values */

/* DequantizeLinear d (per tensor) and the QuantizeLinear with scale ys and
 * zero point yzp (-1: none) of dtype ydt quantize the same way. */
static bool same_quant(const wnn_ir_graph *g, const qparams *d, int ys, int yzp, wnn_dtype ydt) {
  if (g->values[d->q].dtype != ydt || scale_at(g, d, 0) != *(const float *)g->values[ys].data)
    return false;
  const int32_t dz = d->zp < 0 ? 0 : ydt == WNN_DTYPE_I8 ? *(const int8_t *)g->values[d->zp].data
                                                         : *(const uint8_t *)g->values[d->zp].data;
  const int32_t qz = yzp < 0 ? 0 : ydt == WNN_DTYPE_I8 ? *(const int8_t *)g->values[yzp].data
                                                       : *(const uint8_t *)g->values[yzp].data;
  return dz == qz;
}

/* QuantizeLinear node qi (scale ys, zero point yzp, dtype ydt) after MaxPool
 * pi of a DequantizeLinear quantized the same way (per tensor, scale > 0):
 * MaxPool of the quantized values. Dequantization is increasing, so the
 * largest dequantized value of a window is that of its largest integer, and
 * Q(DQ(v)) = v (above); a window with no input element gives -inf, which
 * QuantizeLinear saturates to the dtype's lowest value, what the integer
 * MaxPool gives too. Only without Indices (the op's second output). */
static wnn_status rewrite_qmaxpool(qdq *s, int qi, int pi, int ys, int yzp, wnn_dtype ydt,
                                   bool *done) {
  wnn_ir_graph *g = s->g;
  const wnn_ir_node *p = &g->nodes[pi];
  if (p->num_inputs != 1 || p->num_outputs != 1) return WNN_OK;
  qparams dp;
  const int d = live_dq(g, p->inputs[0], &dp);
  if (d < 0 || dp.count != 1 || (dp.zp >= 0 && wnn_ir_numel(&g->values[dp.zp]) != 1) ||
      !same_quant(g, &dp, ys, yzp, ydt))
    return WNN_OK;
  const int ids[3] = {qi, pi, d};
  if (!same_guards(g, ids, 3)) return WNN_OK;
  char name[300];
  snprintf(name, sizeof name, "%.290s", p->name ? p->name : "");
  bool ok = false;
  cJSON *attrs = p->attrs ? cJSON_Duplicate(p->attrs, 1) : cJSON_CreateObject();
  wnn_status st = replace(g, qi, "MaxPool", name, &dp.q, 1, attrs, &ok);
  if (st || !ok) return st;
  kill(g, pi, qi);
  *done = true;
  return WNN_OK;
}

/* QuantizeLinear node qi after Concat of DequantizeLinear outputs (per
 * tensor, of the Q's dtype): Concat of the quantized values. An input
 * quantized like the output is taken as it is (Q(DQ(v)) = v: the integer
 * v - zp is at most 255, so v - zp = (v - zp) * s / s rounds back); an input
 * quantized otherwise, read only by the Concat, is requantized by a QLookup
 * in its DequantizeLinear's place (the table Q(DQ(v)) from QuantizeLinear's
 * and DequantizeLinear's scalar kernels). */
static wnn_status rewrite_qmove(qdq *s, int qi, bool *done) {
  wnn_ir_graph *g = s->g;
  *done = false;
  int ys, yzp;
  wnn_dtype ydt;
  if (!q_params(g, &g->nodes[qi], &ys, &yzp, &ydt)) return WNN_OK;
  const int v = g->nodes[qi].inputs[0];
  const int pi = producer(g, v);
  if (!single_reader(g, v) || pi < 0) return WNN_OK;
  const wnn_ir_node *p = &g->nodes[pi];
  if (is_op(p, "MaxPool")) return rewrite_qmaxpool(s, qi, pi, ys, yzp, ydt, done);
  if (!is_op(p, "Concat") || p->num_outputs != 1 || p->num_inputs < 1) return WNN_OK;
  int ins[WNN_MAX_IO], ids[WNN_MAX_IO + 2], requant[WNN_MAX_IO];
  const int nin = p->num_inputs;
  ids[0] = qi, ids[1] = pi;
  for (int k = 0; k < nin; k++) {
    qparams dp;
    const int d = live_dq(g, p->inputs[k], &dp);
    if (d < 0 || dp.count != 1 || g->values[dp.q].dtype != ydt ||
        (dp.zp >= 0 && wnn_ir_numel(&g->values[dp.zp]) != 1))
      return WNN_OK;
    ids[k + 2] = d;
    requant[k] = -1;
    ins[k] = dp.q;
    if (same_quant(g, &dp, ys, yzp, ydt)) continue;
    if (!single_reader(g, p->inputs[k])) return WNN_OK;
    for (int j = 0; j < k; j++)
      if (p->inputs[j] == p->inputs[k]) return WNN_OK;
    requant[k] = d;
    ins[k] = p->inputs[k];
  }
  if (!same_guards(g, ids, nin + 2)) return WNN_OK;
  /* Requantizing inputs: their DequantizeLinear becomes a QLookup (as it
   * was again if the rewrite is refused). */
  const wnn_q8_vcvt_config k8 = wnn_select_q8_vcvt(WNN_KERNELS_SCALAR);
  wnn_status st = WNN_OK;
  saved sv[WNN_MAX_IO];
  int nsv = 0;
  for (int k = 0; k < nin && !st; k++) {
    if (requant[k] < 0) continue;
    qparams dp;
    dq_params(g, &g->nodes[requant[k]], &dp);
    uint8_t bytes[256], table[256];
    float f[256];
    for (int i = 0; i < 256; i++) bytes[i] = (uint8_t)i;
    const int32_t dz = dp.zp < 0 ? 0 : ydt == WNN_DTYPE_I8 ? *(const int8_t *)g->values[dp.zp].data
                                                           : *(const uint8_t *)g->values[dp.zp].data;
    const wnn_q8_f32_cvt_params kd = {dz, scale_at(g, &dp, 0)};
    const float qz = yzp < 0 ? 0.0f : ydt == WNN_DTYPE_I8 ? *(const int8_t *)g->values[yzp].data
                                                          : *(const uint8_t *)g->values[yzp].data;
    const wnn_f32_q8_cvt_params kq = {*(const float *)g->values[ys].data, qz};
    if (ydt == WNN_DTYPE_I8) {
      k8.qs8_f32(256, (const int8_t *)bytes, f, &kd);
      k8.f32_qs8(256, f, (int8_t *)table, &kq);
    } else {
      k8.qu8_f32(256, bytes, f, &kd);
      k8.f32_qu8(256, f, table, &kq);
    }
    int tid;
    const int64_t dims[1] = {256};
    if ((st = wnn_ir_add_const(g, NULL, ydt, 1, dims, table, &tid))) break;
    wnn_ir_value_from_node(g, tid, requant[k]);
    wnn_ir_value_from_node(g, tid, qi);
    wnn_ir_node *n = &g->nodes[requant[k]];
    char *op = wnn_ir_strdup("QLookup");
    cJSON *attrs = cJSON_CreateObject();
    if (!op || !attrs) {
      free(op);
      cJSON_Delete(attrs);
      st = oom(g);
      break;
    }
    saved *o = &sv[nsv++];
    o->op_type = n->op_type, o->attrs = n->attrs, o->name = NULL;
    o->num_inputs = n->num_inputs;
    memcpy(o->inputs, n->inputs, sizeof o->inputs);
    o->out = g->values[n->outputs[0]];
    n->op_type = op, n->attrs = attrs;
    n->inputs[0] = dp.q, n->inputs[1] = tid;
    n->num_inputs = 2;
    /* QLookup accepts any uint8/int8 x and a [256] table of the Q's
     * dtype: inference cannot refuse it. */
    st = wnn_pass_infer_node(g, requant[k], NULL, NULL);
  }
  char name[300];
  snprintf(name, sizeof name, "%.290s", g->nodes[pi].name);
  char op[16];
  snprintf(op, sizeof op, "%s", g->nodes[pi].op_type);
  bool ok = false;
  if (!st) st = replace(g, qi, op, name, ins, nin, cJSON_Duplicate(g->nodes[pi].attrs, 1), &ok);
  for (int k = 0, j = 0; k < nin && j < nsv; k++) {
    if (requant[k] < 0) continue;
    saved *o = &sv[j++];
    wnn_ir_node *n = &g->nodes[requant[k]];
    if (ok) {
      free(o->op_type);
      cJSON_Delete(o->attrs);
      continue;
    }
    free(n->op_type);
    cJSON_Delete(n->attrs);
    n->op_type = o->op_type, n->attrs = o->attrs;
    n->num_inputs = o->num_inputs;
    memcpy(n->inputs, o->inputs, sizeof o->inputs);
    g->values[n->outputs[0]] = o->out;
  }
  if (st || !ok) return st;
  kill(g, pi, qi);
  *done = true;
  return WNN_OK;
}

wnn_status wnn_pass_qdq(wnn_ir_graph *g, int *rewritten) {
  if (rewritten) *rewritten = 0;
  wnn_ir_count_readers(g);
  qdq s;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.num_orig = g->num_values;
  const size_t nv = (size_t)g->num_values + 1;
  s.folded_dq = malloc(nv * sizeof(int));
  wnn_status st = WNN_OK;
  if (!s.folded_dq) st = oom(g);
  for (size_t i = 0; !st && i < nv; i++) s.folded_dq[i] = -1;
  /* Constants that a DequantizeLinear folded into. */
  for (int i = 0; !st && i < g->num_nodes; i++) {
    const wnn_ir_node *n = &g->nodes[i];
    if (!n->dead || strcmp(n->op_type, "DequantizeLinear") || !default_domain(n) ||
        n->num_outputs != 1 || n->outputs[0] < 0 || !g->values[n->outputs[0]].data)
      continue;
    s.folded_dq[n->outputs[0]] = i;
  }
  for (int i = 0; !st && i < g->num_nodes; i++) {
    if (g->nodes[i].dead) continue;
    bool done = false;
    const char *op = g->nodes[i].op_type;
    if (!strcmp(op, "QuantizeLinear")) {
      st = rewrite_conv(&s, i, &done);
      if (!st && !done) st = rewrite_matmul(&s, i, &done);
    } else if (!strcmp(op, "Mul") || !strcmp(op, "Add")) {
      /* (Add: the Mul before it is visited first; nothing to do here.) */
      if (!strcmp(op, "Mul")) st = rewrite_dynamic(&s, i, &done);
    } else {
      st = pack_existing(&s, i, &done);
    }
    if (done) {
      s.count++;
      wnn_ir_count_readers(g);
    }
  }
  /* Element-wise chains, last first: a chain's inner Q comes before its
   * last, and the longest chain is the one to take. */
  for (int i = g->num_nodes - 1; !st && i >= 0; i--) {
    if (g->nodes[i].dead || strcmp(g->nodes[i].op_type, "QuantizeLinear")) continue;
    bool done = false;
    st = rewrite_lut(&s, i, &done);
    if (done) {
      s.count++;
      wnn_ir_count_readers(g);
    }
  }
  /* Add and Mul of two quantized values (after the chains, which take a
   * Mul of a value by a function of itself as one lookup), global average
   * pooling, Concat. */
  for (int i = 0; !st && i < g->num_nodes; i++) {
    if (g->nodes[i].dead || strcmp(g->nodes[i].op_type, "QuantizeLinear")) continue;
    bool done = false;
    st = rewrite_qbinary(&s, i, &done);
    if (!st && !done) st = rewrite_qgap(&s, i, &done);
    if (!st && !done) st = rewrite_qmove(&s, i, &done);
    if (done) {
      s.count++;
      wnn_ir_count_readers(g);
    }
  }
  /* Weights that nothing reads any more. */
  if (!st) {
    wnn_ir_count_readers(g);
    for (int i = 0; i < s.num_freeable; i++) {
      wnn_ir_value *v = &g->values[s.freeable[i]];
      if (v->readers || !v->data || v->is_input) continue;
      wnn_ir_free_data(v->data);
      v->data = NULL;
      v->nbytes = 0;
    }
  }
  free(s.folded_dq);
  free(s.made);
  free(s.freeable);
  if (!st && rewritten) *rewritten = s.count;
  return st;
}
