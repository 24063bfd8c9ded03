/* The importer's graph (ir.h): values, nodes, a name index and messages. */
#include "importer/ir.h"
#include "ops/op_internal.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wnn_ir_init(wnn_ir_graph *g) {
  memset(g, 0, sizeof *g);
  g->opset = WNN_IR_OPSET_MAX;
}

void wnn_ir_free(wnn_ir_graph *g) {
  if (!g) return;
  for (int i = 0; i < g->num_values; i++) {
    free(g->values[i].name);
    free(g->values[i].src);
    wnn_ir_free_data(g->values[i].data);
  }
  for (int i = 0; i < g->num_srcs; i++) {
    free(g->srcs[i].name);
    free(g->srcs[i].op_type);
    free(g->srcs[i].origin);
  }
  free(g->srcs);
  for (int i = 0; i < g->num_nodes; i++) {
    free(g->nodes[i].op_type);
    free(g->nodes[i].domain);
    free(g->nodes[i].name);
    free(g->nodes[i].origin);
    free(g->nodes[i].rt_branch);
    cJSON_Delete(g->nodes[i].attrs);
    cJSON_Delete(g->nodes[i].scope);
    free(g->nodes[i].src);
  }
  free(g->values);
  free(g->nodes);
  free(g->inputs);
  free(g->outputs);
  free(g->narrowed[0]);
  free(g->narrowed[1]);
  for (int i = 0; i < g->num_dims; i++) free(g->dims[i].name);
  free(g->dims);
  free(g->hash);
  free(g->subgraphs);
  free(g->prune);
  g->prune = NULL;
  if (g->proto && g->free_proto) g->free_proto(g->proto);
  g->proto = NULL;
  g->subgraphs = NULL;
  g->num_subgraphs = 0;
  g->values = NULL;
  g->nodes = NULL;
  g->inputs = g->outputs = g->hash = NULL;
  g->num_values = g->num_nodes = g->num_inputs = g->num_outputs = 0;
}

char *wnn_ir_strdup(const char *s) {
  if (!s) return NULL;
  size_t len = strlen(s) + 1;
  char *d = malloc(len);
  if (d) memcpy(d, s, len);
  return d;
}

wnn_status wnn_ir_fail(wnn_ir_graph *g, wnn_status status, bool unsupported, const char *fmt,
                       ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->msg, sizeof g->msg, fmt, ap);
  va_end(ap);
  g->unsupported = unsupported;
  return status;
}

wnn_status wnn_ir_node_fail(wnn_ir_graph *g, const wnn_ir_node *n, wnn_status status,
                            bool unsupported, const char *fmt, ...) {
  char why[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  snprintf(g->msg, sizeof g->msg, "node %d '%s' (%s, domain '%s'): %s", n->index, n->name,
           n->op_type, n->domain[0] ? n->domain : "ai.onnx", why);
  g->unsupported = unsupported;
  return status;
}

void wnn_ir_warnf(wnn_ir_graph *g, const char *fmt, ...) {
  if (!g->warn) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  g->warn(g->warn_ctx, msg);
}

/* FNV-1a. */
static uint32_t hash_name(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

int wnn_ir_find(const wnn_ir_graph *g, const char *name) {
  if (!name || !*name || !g->hash_cap) return -1;
  uint32_t mask = (uint32_t)g->hash_cap - 1;
  for (uint32_t i = hash_name(name) & mask;; i = (i + 1) & mask) {
    int id = g->hash[i];
    if (id < 0) return -1;
    if (strcmp(g->values[id].name, name) == 0) return id;
  }
}

static void hash_put(wnn_ir_graph *g, int id) {
  uint32_t mask = (uint32_t)g->hash_cap - 1;
  uint32_t i = hash_name(g->values[id].name) & mask;
  while (g->hash[i] >= 0) i = (i + 1) & mask;
  g->hash[i] = id;
}

static bool hash_grow(wnn_ir_graph *g, int need) {
  if (need * 2 <= g->hash_cap) return true;
  int cap = g->hash_cap ? g->hash_cap : 256;
  while (cap < need * 2) cap *= 2;
  int *h = malloc((size_t)cap * sizeof *h);
  if (!h) return false;
  for (int i = 0; i < cap; i++) h[i] = -1;
  free(g->hash);
  g->hash = h;
  g->hash_cap = cap;
  for (int i = 0; i < g->num_values; i++) hash_put(g, i);
  return true;
}

static bool grow(void **array, int *cap, int need, size_t elem) {
  if (need <= *cap) return true;
  int cap2 = *cap ? *cap * 2 : 64;
  while (cap2 < need) cap2 *= 2;
  void *p = realloc(*array, (size_t)cap2 * elem);
  if (!p) return false;
  *array = p;
  *cap = cap2;
  return true;
}

static char *dup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

wnn_status wnn_ir_add_value(wnn_ir_graph *g, const char *name, int *id) {
  char fresh[48];
  if (!name) {
    /* A name no ONNX file uses in practice; retried on the rare clash. */
    for (int k = g->num_values;; k++) {
      snprintf(fresh, sizeof fresh, "wnn::%d", k);
      if (wnn_ir_find(g, fresh) < 0) break;
    }
    name = fresh;
  }
  if (!*name) return wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "a value has an empty name");
  if (wnn_ir_find(g, name) >= 0)
    return wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "two values are named '%s'", name);
  if (!grow((void **)&g->values, &g->cap_values, g->num_values + 1, sizeof *g->values) ||
      !hash_grow(g, g->num_values + 1))
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory adding value '%s'", name);
  wnn_ir_value *v = &g->values[g->num_values];
  memset(v, 0, sizeof *v);
  v->producer = -1;
  for (int d = 0; d < WNN_MAX_DIMS; d++) v->dims_of[d] = -1;
  if (!(v->name = dup(name)))
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory adding value '%s'", name);
  *id = g->num_values++;
  hash_put(g, *id);
  return WNN_OK;
}

wnn_status wnn_ir_fresh_values(wnn_ir_graph *g, int *outs, int n) {
  for (int k = 0; k < n; k++) {
    if (outs[k] >= 0) continue;
    wnn_status st = wnn_ir_add_value(g, NULL, &outs[k]);
    if (st) return st;
  }
  return WNN_OK;
}

wnn_status wnn_ir_add_node(wnn_ir_graph *g, int before, const char *op_type, const char *domain,
                           const char *name, int index, const int *inputs, int num_inputs,
                           const int *outputs, int num_outputs, cJSON *attrs, int *node_id) {
  if (num_inputs > WNN_MAX_IO || num_outputs > WNN_MAX_IO || num_outputs < 0 || num_inputs < 0) {
    cJSON_Delete(attrs);
    return wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true,
                       "node %d '%s' (%s): %d inputs and %d outputs (at most %d each)", index,
                       name ? name : "", op_type, num_inputs, num_outputs, WNN_MAX_IO);
  }
  if (!attrs) attrs = cJSON_CreateObject();
  wnn_ir_node n;
  memset(&n, 0, sizeof n);
  n.op_type = dup(op_type);
  n.domain = dup(domain ? domain : "");
  n.name = dup(name ? name : "");
  n.attrs = attrs;
  n.index = index;
  n.num_inputs = num_inputs;
  n.num_outputs = num_outputs;
  if (num_inputs) memcpy(n.inputs, inputs, (size_t)num_inputs * sizeof *inputs);
  if (num_outputs) memcpy(n.outputs, outputs, (size_t)num_outputs * sizeof *outputs);
  if (!n.op_type || !n.domain || !n.name || !attrs ||
      !grow((void **)&g->nodes, &g->cap_nodes, g->num_nodes + 1, sizeof *g->nodes)) {
    free(n.op_type);
    free(n.domain);
    free(n.name);
    cJSON_Delete(attrs);
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory adding node %d", index);
  }
  int at = before >= 0 && before < g->num_nodes ? before : g->num_nodes;
  memmove(&g->nodes[at + 1], &g->nodes[at], (size_t)(g->num_nodes - at) * sizeof *g->nodes);
  g->nodes[at] = n;
  g->num_nodes++;
  for (int k = 0; k < num_outputs; k++)
    if (outputs[k] >= 0) g->values[outputs[k]].producer = at;
  if (at < g->num_nodes - 1)
    for (int i = at + 1; i < g->num_nodes; i++)
      for (int k = 0; k < g->nodes[i].num_outputs; k++)
        if (g->nodes[i].outputs[k] >= 0) g->values[g->nodes[i].outputs[k]].producer = i;
  if (node_id) *node_id = at;
  return WNN_OK;
}

/* The conversion's memory budget (wnn_ir_budget_begin): bytes of tensor data
 * held at once, counted per thread. Each block keeps its size in a 64-byte
 * prefix so that a free gives it back. */
static _Thread_local struct {
  size_t used, limit;
  bool hit;
} budget;

void wnn_ir_budget_begin(size_t limit) {
  budget.used = 0;
  budget.limit = limit;
  budget.hit = false;
}

bool wnn_ir_budget_hit(void) { return budget.hit; }
size_t wnn_ir_budget_limit(void) { return budget.limit; }

void *wnn_ir_alloc_data(size_t size) {
  size_t rounded = (size + 63) & ~(size_t)63;
  if (rounded < size || rounded > SIZE_MAX - 64) return NULL;
  size_t total = rounded + 64;
  if (budget.limit && (total > budget.limit || budget.used > budget.limit - total)) {
    budget.hit = true;
    return NULL;
  }
  unsigned char *p = aligned_alloc(64, total);
  if (!p) return NULL;
  memcpy(p, &total, sizeof total);
  budget.used += total;
  return p + 64;
}

void wnn_ir_free_data(void *p) {
  if (!p) return;
  unsigned char *base = (unsigned char *)p - 64;
  size_t total;
  memcpy(&total, base, sizeof total);
  budget.used -= total < budget.used ? total : budget.used;
  free(base);
}

int64_t wnn_ir_json_int(const cJSON *j, int64_t dflt) {
  if (!cJSON_IsNumber(j) || j->valuedouble != j->valuedouble) return dflt;
  if (j->valuedouble >= 9223372036854775807.0) return INT64_MAX;
  if (j->valuedouble <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)j->valuedouble;
}

int wnn_ir_src_add(wnn_ir_graph *g, const char *name, const char *op_type, int index,
                   const char *origin) {
  if (!grow((void **)&g->srcs, &g->cap_srcs, g->num_srcs + 1, sizeof *g->srcs)) {
    g->src_oom = true;
    return -1;
  }
  wnn_ir_src s = {dup(name ? name : ""), op_type ? dup(op_type) : NULL, index,
                  origin ? dup(origin) : NULL};
  if (!s.name || (op_type && !s.op_type) || (origin && !s.origin)) {
    free(s.name), free(s.op_type), free(s.origin);
    g->src_oom = true;
    return -1;
  }
  g->srcs[g->num_srcs] = s;
  return g->num_srcs++;
}

void wnn_ir_src_union(wnn_ir_graph *g, int **list, int *num, const int *from, int n) {
  if (n <= 0 || from == *list) return;
  int *out = malloc((size_t)(*num + n) * sizeof *out);
  if (!out) {
    g->src_oom = true;
    return;
  }
  /* Both sorted: merge, dropping repeats (from is sorted too, being a list). */
  int i = 0, j = 0, k = 0;
  const int *a = *list;
  while (i < *num || j < n) {
    int x = j >= n || (i < *num && a[i] <= from[j]) ? a[i++] : from[j++];
    if (!k || out[k - 1] != x) out[k++] = x;
  }
  free(*list);
  *list = out;
  *num = k;
}

void wnn_ir_node_absorb(wnn_ir_graph *g, int into, int from) {
  if (into == from || into < 0 || from < 0) return;
  wnn_ir_node *a = &g->nodes[into];
  wnn_ir_src_union(g, &a->src, &a->num_src, g->nodes[from].src, g->nodes[from].num_src);
}

void wnn_ir_value_from_node(wnn_ir_graph *g, int v, int n) {
  if (v < 0 || n < 0) return;
  wnn_ir_value *x = &g->values[v];
  wnn_ir_src_union(g, &x->src, &x->num_src, g->nodes[n].src, g->nodes[n].num_src);
}

void wnn_ir_value_from_value(wnn_ir_graph *g, int v, int from) {
  if (v < 0 || from < 0 || v == from) return;
  wnn_ir_value *x = &g->values[v];
  wnn_ir_src_union(g, &x->src, &x->num_src, g->values[from].src, g->values[from].num_src);
}

int64_t wnn_ir_numel(const wnn_ir_value *v) { return wnn_shape_numel(v->ndim, v->dims); }

wnn_status wnn_ir_check_bytes(wnn_ir_graph *g, const wnn_ir_node *n, const char *what, int ndim,
                              const int64_t *dims, wnn_dtype dtype, size_t *nbytes) {
  uint64_t b;
  char shape[160];
  if (!wnn_shape_nbytes(ndim, dims, wnn_dtype_size(dtype), &b) || b > WNN_MAX_TENSOR_BYTES) {
    wnn_format_dims(shape, sizeof shape, ndim, dims);
    if (n)
      return wnn_ir_node_fail(g, n, WNN_ERR_LIMIT, false,
                              "%s of shape %s is larger than a tensor may be (%u bytes, "
                              "WNN_MAX_TENSOR_BYTES)", what, shape, WNN_MAX_TENSOR_BYTES);
    return wnn_ir_fail(g, WNN_ERR_LIMIT, false,
                       "%s of shape %s is larger than a tensor may be (%u bytes, "
                       "WNN_MAX_TENSOR_BYTES)", what, shape, WNN_MAX_TENSOR_BYTES);
  }
  if (nbytes) *nbytes = (size_t)b;
  return WNN_OK;
}

wnn_status wnn_ir_out_of_memory(wnn_ir_graph *g, const wnn_ir_node *n, const char *what,
                                size_t bytes) {
  if (budget.hit) {
    if (n)
      return wnn_ir_node_fail(g, n, WNN_ERR_LIMIT, false,
                              "%s (%zu bytes) would take the converter past its memory limit of "
                              "%zu bytes (--max-memory)", what, bytes, budget.limit);
    return wnn_ir_fail(g, WNN_ERR_LIMIT, false,
                       "%s (%zu bytes) would take the converter past its memory limit of %zu "
                       "bytes (--max-memory)", what, bytes, budget.limit);
  }
  if (n) return wnn_ir_node_fail(g, n, WNN_ERR_OUT_OF_MEMORY, false, "out of memory for %s (%zu bytes)", what, bytes);
  return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory for %s (%zu bytes)", what, bytes);
}

wnn_status wnn_ir_set_const(wnn_ir_graph *g, int id, wnn_dtype dtype, int ndim,
                            const int64_t *dims, const void *data) {
  wnn_ir_value *v = &g->values[id];
  if (ndim < 0 || ndim > WNN_MAX_DIMS)
    return wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true, "'%s' has %d dims (at most %d)", v->name,
                       ndim, WNN_MAX_DIMS);
  for (int d = 0; d < ndim; d++)
    if (dims[d] < 0 || dims[d] > WNN_MAX_DIM)
      return wnn_ir_fail(g, WNN_ERR_SHAPE, false, "'%s': dim %d is %lld", v->name, d,
                         (long long)dims[d]);
  char what[160];
  snprintf(what, sizeof what, "constant '%s'", v->name);
  size_t nbytes;
  wnn_status st = wnn_ir_check_bytes(g, NULL, what, ndim, dims, dtype, &nbytes);
  if (st) return st;
  void *p = wnn_ir_alloc_data(nbytes);
  if (!p) return wnn_ir_out_of_memory(g, NULL, what, nbytes);
  if (data) memcpy(p, data, nbytes);
  else memset(p, 0, nbytes);
  wnn_ir_free_data(v->data);
  v->data = p;
  v->nbytes = nbytes;
  v->known = true;
  v->dtype = dtype;
  v->ndim = ndim;
  if (ndim) memcpy(v->dims, dims, (size_t)ndim * sizeof *dims);
  return WNN_OK;
}

wnn_status wnn_ir_add_const(wnn_ir_graph *g, const char *name, wnn_dtype dtype, int ndim,
                            const int64_t *dims, const void *data, int *id) {
  wnn_status st = wnn_ir_add_value(g, name, id);
  return st ? st : wnn_ir_set_const(g, *id, dtype, ndim, dims, data);
}

bool wnn_ir_same_guards(const wnn_ir_node *a, const wnn_ir_node *b) {
  if (a->num_guards != b->num_guards) return false;
  for (int i = 0; i < a->num_guards; i++) {
    bool found = false;
    for (int k = 0; k < b->num_guards && !found; k++)
      found = a->guards[i] == b->guards[k] && a->guard_expect[i] == b->guard_expect[k];
    if (!found) return false;
  }
  return true;
}

void wnn_ir_count_readers(wnn_ir_graph *g) {
  for (int i = 0; i < g->num_values; i++) {
    g->values[i].readers = 0;
    g->values[i].producer = -1;
  }
  for (int i = 0; i < g->num_nodes; i++) {
    const wnn_ir_node *n = &g->nodes[i];
    if (n->dead) continue;
    for (int k = 0; k < n->num_inputs; k++)
      if (n->inputs[k] >= 0) g->values[n->inputs[k]].readers++;
    for (int k = 0; k < n->num_guards; k++) g->values[n->guards[k]].readers++;
    for (int k = 0; k < n->num_outputs; k++)
      if (n->outputs[k] >= 0) g->values[n->outputs[k]].producer = i;
  }
  for (int k = 0; k < g->num_outputs; k++) g->values[g->outputs[k]].readers++;
}

int wnn_ir_const_hint(const wnn_ir_graph *g, int v, char *buf, size_t cap) {
  if (cap) buf[0] = '\0';
  unsigned char *seen = calloc((size_t)g->num_values + 1, 1);
  int *stack = malloc(((size_t)g->num_values + 1) * sizeof *stack);
  if (!seen || !stack) {
    free(seen);
    free(stack);
    return 0;
  }
  int top = 0;
  stack[top++] = v;
  seen[v] = 1;
  while (top > 0) {
    const wnn_ir_value *x = &g->values[stack[--top]];
    int id = (int)(x - g->values);
    if (x->data || x->is_input) continue;
    for (int i = 0; i < g->num_nodes; i++) {
      const wnn_ir_node *n = &g->nodes[i];
      bool writes = false;
      for (int k = 0; !n->dead && !writes && k < n->num_outputs; k++) writes = n->outputs[k] == id;
      if (!writes) continue;
      for (int k = 0; k < n->num_inputs; k++)
        if (n->inputs[k] >= 0 && !seen[n->inputs[k]]) {
          seen[n->inputs[k]] = 1;
          stack[top++] = n->inputs[k];
        }
      break;
    }
  }
  int count = 0;
  for (int i = 0; i < g->num_inputs; i++) count += seen[g->inputs[i]] && g->values[g->inputs[i]].is_input;
  size_t used = 0;
  int k = 0;
  for (int pass = 0; pass < 2 && count > 0; pass++) {
    if (pass == 0)
      used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "graph input%s ",
                               count > 1 ? "s" : "");
    else
      used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0,
                               ", which must be constant: pass");
    k = 0;
    for (int i = 0; i < g->num_inputs; i++) {
      const wnn_ir_value *x = &g->values[g->inputs[i]];
      if (!seen[g->inputs[i]] || !x->is_input) continue;
      if (pass == 0)
        used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "%s'%s'", k ? ", " : "",
                                 x->name);
      else
        used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, " --const %s=FILE",
                                 x->name);
      k++;
    }
  }
  free(seen);
  free(stack);
  return count;
}
