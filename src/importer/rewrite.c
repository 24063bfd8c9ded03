/* Rewriting one node into runtime ops (rewrite.h). */
#include "importer/rewrite.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

wnn_ir_node *wnn_rw_self(const wnn_rw *r) { return &r->g->nodes[r->id]; }

wnn_status wnn_rw_oom(wnn_rw *r) {
  return wnn_ir_fail(r->g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
}

/* The new node keeps the replaced node's guards and origin (rewrite.h). */
wnn_status wnn_rw_emit(wnn_rw *r, const char *op, const int *ins, int nin, int *outs, int nout,
                       cJSON *attrs) {
  wnn_ir_graph *g = r->g;
  wnn_status st = wnn_ir_fresh_values(g, outs, nout);
  if (st) {
    cJSON_Delete(attrs);
    return st;
  }
  char name[320];
  if (wnn_rw_self(r)->name[0])
    snprintf(name, sizeof name, "%s/%s_%d", wnn_rw_self(r)->name, op, r->count);
  else
    snprintf(name, sizeof name, "%s_%d/%s_%d", wnn_rw_self(r)->op_type, wnn_rw_self(r)->index, op,
             r->count);
  int at;
  st = wnn_ir_add_node(g, r->id, op, "", name, wnn_rw_self(r)->index, ins, nin, outs,
                                  nout, attrs, &at);
  if (st) return st;
  r->id++;
  r->count++;
  wnn_ir_node_absorb(g, at, r->id);
  wnn_ir_node *n = &g->nodes[at];
  const wnn_ir_node *c = wnn_rw_self(r);
  n->rewritten = true; /* already in the runtime's (latest-opset) form */
  n->num_guards = c->num_guards;
  memcpy(n->guards, c->guards, sizeof n->guards);
  memcpy(n->guard_expect, c->guard_expect, sizeof n->guard_expect);
  if ((c->origin && !(n->origin = wnn_ir_strdup(c->origin))) ||
      (c->rt_branch && !(n->rt_branch = wnn_ir_strdup(c->rt_branch))))
    return wnn_rw_oom(r);
  return WNN_OK;
}

/* One output: *out (< 0: a fresh value) = op(a, b, c), inputs < -1 left out. */
wnn_status wnn_rw_op3(wnn_rw *r, const char *op, int a, int b, int c, cJSON *attrs, int *out) {
  int ins[3] = {a, b, c}, n = c >= -1 ? 3 : b >= -1 ? 2 : 1;
  return wnn_rw_emit(r, op, ins, n, out, 1, attrs);
}
wnn_status wnn_rw_op1(wnn_rw *r, const char *op, int a, cJSON *attrs, int *out) {
  return wnn_rw_op3(r, op, a, WNN_RW_NONE, WNN_RW_NONE, attrs, out);
}
wnn_status wnn_rw_op2(wnn_rw *r, const char *op, int a, int b, cJSON *attrs, int *out) {
  return wnn_rw_op3(r, op, a, b, WNN_RW_NONE, attrs, out);
}

wnn_status wnn_rw_cst(wnn_rw *r, wnn_dtype dtype, int ndim, const int64_t *dims, const void *data,
                      int *id) {
  return wnn_ir_add_const(r->g, NULL, dtype, ndim, dims, data, id);
}
wnn_status wnn_rw_cst_f32(wnn_rw *r, float v, int *id) {
  return wnn_rw_cst(r, WNN_DTYPE_F32, 0, NULL, &v, id);
}
wnn_status wnn_rw_cst_i64s(wnn_rw *r, int count, const int64_t *v, int *id) {
  int64_t dim = count;
  return wnn_rw_cst(r, WNN_DTYPE_I64, 1, &dim, v, id);
}

/* {"name": v}. */
cJSON *wnn_rw_num_attr(const char *name, double v) {
  cJSON *o = cJSON_CreateObject();
  if (o && !cJSON_AddNumberToObject(o, name, v)) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}
cJSON *wnn_rw_perm_attr(int n, const int *perm) {
  cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateIntArray(perm, n);
  if (!o || !a || !cJSON_AddItemToObject(o, "perm", a)) {
    cJSON_Delete(o);
    cJSON_Delete(a);
    return NULL;
  }
  return o;
}

/* Reshape x to dims. */
wnn_status wnn_rw_reshape(wnn_rw *r, int x, int ndim, const int64_t *dims, int *out) {
  int shape;
  wnn_status st = wnn_rw_cst_i64s(r, ndim, dims, &shape);
  return st ? st : wnn_rw_op2(r, "Reshape", x, shape, NULL, out);
}

wnn_status wnn_rw_transpose(wnn_rw *r, int x, int n, const int *perm, int *out) {
  cJSON *a = wnn_rw_perm_attr(n, perm);
  return a ? wnn_rw_op1(r, "Transpose", x, a, out) : wnn_rw_oom(r);
}

/* ---- checks ---- */

const wnn_ir_value *wnn_rw_input(const wnn_rw *r, int k) {
  const wnn_ir_node *n = wnn_rw_self(r);
  return k < n->num_inputs && n->inputs[k] >= 0 ? &r->g->values[n->inputs[k]] : NULL;
}
int wnn_rw_in(const wnn_rw *r, int k) {
  const wnn_ir_node *n = wnn_rw_self(r);
  return k < n->num_inputs ? n->inputs[k] : -1;
}
int wnn_rw_out(const wnn_rw *r, int k) {
  const wnn_ir_node *n = wnn_rw_self(r);
  return k < n->num_outputs ? n->outputs[k] : -1;
}
/* Whether output k exists and something reads it (a node or the graph). */
bool wnn_rw_out_used(const wnn_rw *r, int k) {
  int v = wnn_rw_out(r, k);
  return v >= 0 && r->g->values[v].readers > 0;
}

wnn_status wnn_rw_fail(wnn_rw *r, wnn_status st, const char *fmt, ...) {
  char why[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  return wnn_ir_node_fail(r->g, wnn_rw_self(r), st, st != WNN_ERR_SHAPE && st != WNN_ERR_MALFORMED,
                          "%s", why);
}

/* Every attribute must be one of known. */
wnn_status wnn_rw_check_attrs(wnn_rw *r, const char *const *known) {
  const cJSON *a;
  cJSON_ArrayForEach(a, wnn_rw_self(r)->attrs) {
    bool ok = false;
    for (const char *const *k = known; *k && !ok; k++) ok = !strcmp(*k, a->string);
    if (!ok)
      return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED, "attribute '%s' is not supported", a->string);
  }
  return WNN_OK;
}

double wnn_rw_num(const wnn_rw *r, const char *name, double dflt) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(wnn_rw_self(r)->attrs, name);
  return cJSON_IsNumber(a) ? a->valuedouble : dflt;
}

/* Inputs from k = first on must be absent; outputs likewise must be unread. */
wnn_status wnn_rw_no_inputs_from(wnn_rw *r, int first, const char *const *names) {
  for (int k = first; k < wnn_rw_self(r)->num_inputs; k++)
    if (wnn_rw_in(r, k) >= 0)
      return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED, "input %d (%s) is not supported", k,
                  names && names[k - first] ? names[k - first] : "unknown");
  return WNN_OK;
}

const char *wnn_rw_shape_str(char *buf, size_t cap, const wnn_ir_value *v) {
  return wnn_format_dims(buf, cap, v->ndim, v->dims);
}

/* Input k must be present with a known shape of a float32 dtype (or the one
 * given). */
wnn_status wnn_rw_need(wnn_rw *r, int k, const char *what, wnn_dtype dtype, int rank) {
  const wnn_ir_value *v = wnn_rw_input(r, k);
  if (!v) return wnn_rw_fail(r, WNN_ERR_MALFORMED, "input %d (%s) is missing", k, what);
  if (!v->known)
    return wnn_rw_fail(r, WNN_ERR_MALFORMED, "input %d (%s) '%s' has no known shape", k, what,
                       v->name);
  char s[WNN_RW_SHAPE_CHARS];
  if (dtype != WNN_DTYPE_INVALID && v->dtype != dtype)
    return wnn_rw_fail(r, WNN_ERR_UNSUPPORTED, "input %d (%s) '%s' is %s; it must be %s", k, what,
                       v->name, wnn_dtype_name(v->dtype), wnn_dtype_name(dtype));
  if (rank >= 0 && v->ndim != rank)
    return wnn_rw_fail(r, WNN_ERR_SHAPE, "input %d (%s) '%s' has shape %s; it must have rank %d", k,
                       what, v->name, wnn_rw_shape_str(s, sizeof s, v), rank);
  return WNN_OK;
}
