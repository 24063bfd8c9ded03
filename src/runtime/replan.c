/* Plans a dynamic model at another shape set (runtime/replan.h): the same
 * prepare the loader runs, node by node, on the new input shapes; the shape
 * nodes run as soon as they are prepared, so that later prepares read their
 * outputs as constants (a Reshape target); then lifetimes, in-place groups
 * and the greedy plan exactly as the builder computes the reference plan
 * (docs/format.md, "The memory plan"). */
#include <string.h>

#include "base/status.h"
#include "ops/op.h"
#include "runtime/plan.h"
#include "runtime/replan.h"

#define PLAN_ALIGN 64  /* the builder's */
#define SHAPE_ALIGN 16 /* each shape value in shape_data */

static wnn_status fail(wnn_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static wnn_status fail(wnn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wnn_vseterr(NULL, 0, status, fmt, ap);
  va_end(ap);
  return status;
}

static const char *node_label(char *buf, size_t cap, const wnn_model *m, int i) {
  const wnn_node *n = &m->nodes[i];
  wnn_fmt(buf, cap, "node %d (%s%s%s%s)", i, n->op->name, n->name ? " '" : "",
           n->name ? n->name : "", n->name ? "'" : "");
  return buf;
}

size_t wnn_replan_key_len(const wnn_model *m) {
  size_t n = 0;
  for (int i = 0; i < m->num_inputs; i++) n += (size_t)m->values[m->inputs[i]].ndim;
  return n;
}

void wnn_replan_reference_key(const wnn_model *m, int64_t *key) {
  for (int i = 0; i < m->num_inputs; i++) {
    const wnn_value *v = &m->values[m->inputs[i]];
    memcpy(key, v->dims, (size_t)v->ndim * sizeof *key);
    key += v->ndim;
  }
}

void wnn_replan_free(const wnn_model *m, wnn_shape_plan *p) {
  if (!p) return;
  const wnn_allocator *a = &m->allocator;
  size_t klen = wnn_replan_key_len(m);
  wnn_free(a, p->key, klen * sizeof *p->key, 8);
  wnn_free(a, p->values, (size_t)m->num_values * sizeof *p->values, 16);
  wnn_free(a, p->nodes, (size_t)m->num_nodes * sizeof *p->nodes, 16);
  wnn_free(a, p->shape_data, p->shape_cap, 16);
  wnn_free(a, p, sizeof *p, 16);
}

/* The bytes of a value of that dtype and shape, or a failure naming it. */
static wnn_status value_bytes(const wnn_model *m, int v, wnn_vplan *vp, const char *who) {
  uint64_t nbytes;
  if (!wnn_shape_nbytes(vp->ndim, vp->dims, wnn_dtype_size(m->values[v].dtype), &nbytes) ||
      nbytes > WNN_MAX_TENSOR_BYTES) {
    char shape[112];
    return fail(WNN_ERR_LIMIT,
                "%s: value %d (%s) of shape %s is over the %u-byte limit of a tensor "
                "(WNN_MAX_TENSOR_BYTES)", who, v, m->values[v].name ? m->values[v].name : "unnamed",
                wnn_format_dims(shape, sizeof shape, vp->ndim, vp->dims), WNN_MAX_TENSOR_BYTES);
  }
  vp->nbytes = (size_t)nbytes;
  return WNN_OK;
}

/* Room for `bytes` more in p's shape buffer at *offset (SHAPE_ALIGN aligned);
 * grows the buffer (copying) when needed. */
static wnn_status shape_room(const wnn_model *m, wnn_shape_plan *p, size_t *used, size_t bytes,
                             const char *who, size_t *offset) {
  size_t at = (*used + SHAPE_ALIGN - 1) & ~(size_t)(SHAPE_ALIGN - 1);
  if (bytes > WNN_MAX_SHAPE_BYTES || at + bytes > WNN_MAX_SHAPE_BYTES)
    return fail(WNN_ERR_LIMIT, "%s: the shape values add up to more than %d bytes", who,
                WNN_MAX_SHAPE_BYTES);
  if (at + bytes > p->shape_cap) {
    size_t cap = p->shape_cap ? p->shape_cap : 256;
    while (cap < at + bytes) cap *= 2;
    uint8_t *grown = wnn_calloc(&m->allocator, 1, cap, 16);
    if (!grown) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for %zu bytes of shape values", cap);
    if (*used) memcpy(grown, p->shape_data, *used);
    wnn_free(&m->allocator, p->shape_data, p->shape_cap, 16);
    p->shape_data = grown;
    p->shape_cap = cap;
  }
  *offset = at;
  *used = at + bytes;
  return WNN_OK;
}

/* The bytes of value v's root in plan p, when they are known while planning:
 * a param's, or a shape value's; NULL otherwise. */
static const void *constant_data(const wnn_model *m, const wnn_shape_plan *p, int v) {
  const wnn_value *root = &m->values[m->values[v].root];
  if (root->kind == WNN_VALUE_PARAM) return root->data;
  if (root->kind == WNN_VALUE_SHAPE)
    return p->shape_data ? p->shape_data + p->values[m->values[v].root].offset : NULL;
  return NULL;
}

/* Prepares node i on p's shapes, and runs it when it is a shape node. */
static wnn_status prepare_node(const wnn_model *m, wnn_shape_plan *p, int i, size_t *shape_used) {
  const wnn_node *n = &m->nodes[i];
  wnn_nplan *np = &p->nodes[i];
  char label[160], msg[256];
  node_label(label, sizeof label, m, i);
  wnn_tdesc in[WNN_MAX_IO], out[WNN_MAX_IO];
  memset(in, 0, sizeof in);
  memset(out, 0, sizeof out);
  for (int k = 0; k < n->num_inputs; k++) {
    int v = n->inputs[k];
    if (v < 0) continue;
    in[k].dtype = m->values[v].dtype;
    in[k].ndim = p->values[v].ndim;
    memcpy(in[k].dims, p->values[v].dims, sizeof in[k].dims);
    in[k].data = constant_data(m, p, v);
  }
  memset(np->params, 0, sizeof np->params);
  wnn_prepare_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.attrs = n->attrs;
  ctx.num_inputs = n->num_inputs;
  ctx.inputs = in;
  ctx.num_outputs = n->num_outputs;
  ctx.outputs = out;
  ctx.params = np->params;
  ctx.kernels = m->kernels == WNN_KERNELS_REFERENCE ? WNN_KERNELS_SCALAR : m->kernels;
  ctx.msg = msg;
  ctx.msg_cap = sizeof msg;
  msg[0] = '\0';
  wnn_status st = n->op->prepare(&ctx);
  if (st) return fail(st, "%s: %s", label, msg);
  np->scratch_bytes = ctx.scratch_bytes;
  for (int k = 0; k < n->num_outputs; k++) {
    int v = n->outputs[k];
    wnn_vplan *vp = &p->values[v];
    if (out[k].dtype != m->values[v].dtype)
      return fail(WNN_ERR_DTYPE, "%s: output %d is %s at these shapes but %s in the artifact",
                  label, k, wnn_dtype_name(out[k].dtype), wnn_dtype_name(m->values[v].dtype));
    vp->ndim = out[k].ndim;
    memcpy(vp->dims, out[k].dims, sizeof vp->dims);
    if ((st = value_bytes(m, v, vp, label))) return st;
    if (m->values[v].kind == WNN_VALUE_ALIAS && vp->nbytes != p->values[m->values[v].root].nbytes)
      return fail(WNN_ERR_SHAPE, "%s: output %d (%zu bytes) cannot alias its input (%zu bytes)",
                  label, k, vp->nbytes, p->values[m->values[v].root].nbytes);
  }
  if (!n->shape_node) return WNN_OK;

  /* A shape node: its outputs get bytes in shape_data, now. */
  if (ctx.scratch_bytes)
    return fail(WNN_ERR_UNSUPPORTED, "%s is a shape node that needs %zu bytes of scratch", label,
                ctx.scratch_bytes);
  for (int k = 0; k < n->num_outputs; k++) {
    int v = n->outputs[k];
    if (m->values[v].kind != WNN_VALUE_SHAPE) continue; /* an alias: its root's bytes */
    if ((st = shape_room(m, p, shape_used, p->values[v].nbytes, label, &p->values[v].offset)))
      return st;
  }
  if (!n->run) return WNN_OK; /* an alias op */
  wnn_tensor tin[WNN_MAX_IO], tout[WNN_MAX_IO];
  for (int k = 0; k < n->num_inputs; k++) {
    int v = n->inputs[k];
    tin[k] = (wnn_tensor){v < 0 ? NULL : (void *)constant_data(m, p, v), in[k].dtype, in[k].ndim,
                          p->values[v < 0 ? 0 : v].dims};
    if (v < 0) tin[k] = (wnn_tensor){NULL, WNN_DTYPE_INVALID, 0, NULL};
  }
  for (int k = 0; k < n->num_outputs; k++) {
    int v = n->outputs[k];
    /* No shape data at all when every shape value is empty: no address. */
    tout[k] = (wnn_tensor){p->shape_data ? p->shape_data + p->values[v].offset : NULL,
                           m->values[v].dtype, p->values[v].ndim, p->values[v].dims};
  }
  wnn_run_ctx rc = {np->params, n->num_inputs, tin, n->num_outputs, tout, NULL, msg, sizeof msg};
  msg[0] = '\0';
  if ((st = n->run(&rc))) return fail(st, "%s (a shape node): %s", label, msg);
  return WNN_OK;
}

/* Lifetimes (docs/format.md), in-place groups and the greedy plan, as the
 * builder computes them: fills the arena offsets of p and p->arena_bytes. */
static wnn_status plan_arena(const wnn_model *m, wnn_shape_plan *p) {
  const wnn_allocator *a = &m->allocator;
  int nv = m->num_values, nn = m->num_nodes, end = nn;
  size_t max_blocks = (size_t)nv + (size_t)nn;
  int *first = wnn_calloc(a, (size_t)nv + 1, sizeof(int), 16);
  int *last = wnn_calloc(a, (size_t)nv + 1, sizeof(int), 16);
  int *group = wnn_calloc(a, (size_t)nv + 1, sizeof(int), 16);
  wnn_plan_block *blocks = wnn_calloc(a, max_blocks + 1, sizeof *blocks, 16);
  int *owner = wnn_calloc(a, max_blocks + 1, sizeof(int), 16);
  int *scratch = wnn_calloc(a, 2 * max_blocks + 1, sizeof(int), 16);
  wnn_status st = WNN_OK;
  if (!first || !last || !group || !blocks || !owner || !scratch) {
    st = fail(WNN_ERR_OUT_OF_MEMORY, "out of memory planning memory");
    goto done;
  }
  for (int v = 0; v < nv; v++) {
    const wnn_value *val = &m->values[v];
    /* The loader set first to the producer of every produced value. */
    first[v] = val->kind == WNN_VALUE_INPUT || val->kind == WNN_VALUE_PARAM ? 0 : val->first;
    last[v] = val->kind == WNN_VALUE_INPUT ? end : first[v];
    group[v] = v;
  }
  for (int i = 0; i < nn; i++) {
    const wnn_node *n = &m->nodes[i];
    for (int k = 0; k < n->num_inputs; k++) {
      int v = n->inputs[k];
      if (v >= 0 && last[m->values[v].root] < i) last[m->values[v].root] = i;
    }
    for (int k = 0; k < n->num_guards; k++) {
      int r = m->values[n->guards[k]].root;
      if (last[r] < i) last[r] = i;
    }
  }
  for (int v = 0; v < nv; v++) {
    int r = m->values[v].root;
    if (m->values[v].kind == WNN_VALUE_ALIAS && last[r] < last[v]) last[r] = last[v];
  }
  for (int k = 0; k < m->num_outputs; k++) last[m->values[m->outputs[k]].root] = end;
  /* In place: output 0 of an in-place node without scratch takes the bytes
   * of an arena input of its size that dies there (the builder's groups). */
  for (int i = 0; i < nn; i++) {
    const wnn_node *nd = &m->nodes[i];
    if (!(nd->op->flags & WNN_OP_INPLACE) || p->nodes[i].scratch_bytes || nd->num_outputs < 1)
      continue;
    int o = nd->outputs[0];
    if (m->values[o].kind != WNN_VALUE_ARENA) continue;
    for (int k = 0; k < nd->num_inputs; k++) {
      if (nd->inputs[k] < 0) continue;
      int r = m->values[nd->inputs[k]].root;
      if (m->values[r].kind != WNN_VALUE_ARENA || last[r] != i ||
          p->values[r].nbytes != p->values[o].nbytes || !p->values[o].nbytes)
        continue;
      group[o] = group[r];
      break;
    }
  }
  for (int v = 0; v < nv; v++) {
    int g = group[v];
    if (g == v) continue;
    if (first[v] < first[g]) first[g] = first[v];
    if (last[v] > last[g]) last[g] = last[v];
  }
  int n = 0;
  for (int v = 0; v < nv; v++) {
    wnn_value_kind kind = m->values[v].kind;
    if ((kind != WNN_VALUE_INPUT && kind != WNN_VALUE_ARENA) || group[v] != v) continue;
    blocks[n] = (wnn_plan_block){p->values[v].nbytes, first[v], last[v], 0};
    owner[n++] = v;
  }
  for (int i = 0; i < nn; i++) {
    if (!p->nodes[i].scratch_bytes) continue;
    blocks[n] = (wnn_plan_block){p->nodes[i].scratch_bytes, i, i, 0};
    owner[n++] = -1 - i;
  }
  size_t total = 0;
  if (wnn_plan_greedy(blocks, n, PLAN_ALIGN, scratch, &total)) {
    st = fail(WNN_ERR_LIMIT, "the memory plan overflows");
    goto done;
  }
  if (total > WNN_MAX_ARENA_BYTES) {
    st = fail(WNN_ERR_LIMIT, "these shapes need a %zu-byte arena, over WNN_MAX_ARENA_BYTES (%u)",
              total, WNN_MAX_ARENA_BYTES);
    goto done;
  }
  for (int k = 0; k < n; k++) {
    if (owner[k] >= 0) p->values[owner[k]].offset = blocks[k].offset;
    else p->nodes[-1 - owner[k]].scratch_offset = blocks[k].offset;
  }
  for (int v = 0; v < nv; v++)
    if (group[v] != v) p->values[v].offset = p->values[group[v]].offset;
  p->arena_bytes = total;
done:
  wnn_free(a, first, ((size_t)nv + 1) * sizeof(int), 16);
  wnn_free(a, last, ((size_t)nv + 1) * sizeof(int), 16);
  wnn_free(a, group, ((size_t)nv + 1) * sizeof(int), 16);
  wnn_free(a, blocks, (max_blocks + 1) * sizeof *blocks, 16);
  wnn_free(a, owner, (max_blocks + 1) * sizeof(int), 16);
  wnn_free(a, scratch, (2 * max_blocks + 1) * sizeof(int), 16);
  return st;
}

wnn_status wnn_replan(const wnn_model *m, const int64_t *key, wnn_shape_plan **out) {
  const wnn_allocator *a = &m->allocator;
  size_t klen = wnn_replan_key_len(m);
  wnn_shape_plan *p = wnn_calloc(a, 1, sizeof *p, 16);
  if (!p) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for a plan");
  p->key = wnn_calloc(a, klen ? klen : 1, sizeof *p->key, 8);
  p->values = wnn_calloc(a, (size_t)m->num_values, sizeof *p->values, 16);
  p->nodes = wnn_calloc(a, (size_t)m->num_nodes, sizeof *p->nodes, 16);
  wnn_status st = WNN_OK;
  if (!p->key || !p->values || (m->num_nodes && !p->nodes)) {
    st = fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for the plan of %d values and %d nodes",
              m->num_values, m->num_nodes);
    goto done;
  }
  if (klen) memcpy(p->key, key, klen * sizeof *key);
  for (int v = 0; v < m->num_values; v++) {
    const wnn_value *val = &m->values[v];
    p->values[v].ndim = val->ndim;
    memcpy(p->values[v].dims, val->dims, sizeof val->dims);
    p->values[v].nbytes = val->nbytes;
  }
  const int64_t *k = key;
  for (int i = 0; !st && i < m->num_inputs; i++) {
    int v = m->inputs[i];
    wnn_vplan *vp = &p->values[v];
    memcpy(vp->dims, k, (size_t)vp->ndim * sizeof *k);
    k += vp->ndim;
    char who[160];
    wnn_fmt(who, sizeof who, "input %d (%s)", i, m->values[v].name);
    st = value_bytes(m, v, vp, who);
  }
  size_t shape_used = 0;
  for (int i = 0; !st && i < m->num_nodes; i++) st = prepare_node(m, p, i, &shape_used);
  if (!st) st = plan_arena(m, p);
done:
  if (st) {
    wnn_replan_free(m, p);
    return st;
  }
  *out = p;
  return WNN_OK;
}
