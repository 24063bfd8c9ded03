/* Shape and dtype inference through the runtime op layer (passes.h). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "importer/passes.h"

bool wnn_status_is_unsupported(wnn_status st) {
  return st == WNN_ERR_UNKNOWN_OP || st == WNN_ERR_UNSUPPORTED || st == WNN_ERR_DTYPE ||
         st == WNN_ERR_BAD_ATTRIBUTE;
}

/* The live node writing value v, or -1 (found by scanning: nodes inserted in
 * the sweep, by If inlining for one, shift the recorded producers). */
static int producer_of(const wnn_ir_graph *g, int v) {
  for (int i = 0; i < g->num_nodes; i++) {
    const wnn_ir_node *n = &g->nodes[i];
    for (int k = 0; !n->dead && k < n->num_outputs; k++)
      if (n->outputs[k] == v) return i;
  }
  return -1;
}

wnn_status wnn_pass_infer_node(wnn_ir_graph *g, int id, void *params, size_t *scratch) {
  wnn_ir_node *n = &g->nodes[id];
  const wnn_op *op = wnn_op_by_name(n->op_type);
  if (!op)
    return wnn_ir_node_fail(g, n, WNN_ERR_UNKNOWN_OP, true,
                            "op type '%s' is not supported by the wnn runtime", n->op_type);
  char msg[512];
  msg[0] = '\0';
  wnn_status st = wnn_op_check_node(op, wnn_attrs_from_json(n->attrs), n->num_inputs, n->num_outputs, msg, sizeof msg);
  if (st) return wnn_ir_node_fail(g, n, st, wnn_status_is_unsupported(st), "%s", msg);
  wnn_tdesc in[WNN_MAX_IO], out[WNN_MAX_IO];
  memset(in, 0, sizeof in);
  memset(out, 0, sizeof out);
  for (int k = 0; k < n->num_inputs; k++) {
    if (n->inputs[k] < 0) continue;
    const wnn_ir_value *v = &g->values[n->inputs[k]];
    if (!v->known)
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                              "input %d '%s' is an output wnn drops (a training-only output)", k,
                              v->name);
    in[k].dtype = v->dtype;
    in[k].ndim = v->ndim;
    memcpy(in[k].dims, v->dims, sizeof v->dims);
    in[k].data = v->data;
  }
  _Alignas(16) unsigned char local[WNN_MAX_PARAMS];
  unsigned char *p = params ? (unsigned char *)params : local;
  memset(p, 0, WNN_MAX_PARAMS);
  wnn_prepare_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.attrs = wnn_attrs_from_json(n->attrs);
  ctx.num_inputs = n->num_inputs;
  ctx.inputs = in;
  ctx.num_outputs = n->num_outputs;
  ctx.outputs = out;
  ctx.params = p;
  ctx.kernels = WNN_KERNELS_SCALAR;
  ctx.msg = msg;
  ctx.msg_cap = sizeof msg;
  st = op->prepare(&ctx);
  if (st && strstr(msg, "constant")) {
    /* Say where a computed input that had to be constant comes from. */
    const char *at = strstr(msg, "input ");
    int which = -1;
    if (!at || sscanf(at, "input %d", &which) != 1) which = -1;
    for (int k = 0; k < n->num_inputs; k++) {
      const wnn_ir_value *v = n->inputs[k] >= 0 ? &g->values[n->inputs[k]] : NULL;
      if (!v || v->data || (which >= 0 && k != which)) continue;
      size_t used = strlen(msg);
      char hint[400];
      int deps = wnn_ir_const_hint(g, n->inputs[k], hint, sizeof hint);
      int prod = v->is_input ? -1 : producer_of(g, n->inputs[k]);
      if (v->is_input)
        snprintf(msg + used, sizeof msg - used, ": input %d of %s comes from %s", k, n->op_type,
                 hint);
      else if (prod >= 0 && deps > 0)
        snprintf(msg + used, sizeof msg - used,
                 ": input %d of %s ('%s') is computed by node %d '%s' (%s) from %s", k, n->op_type,
                 v->name, g->nodes[prod].index, g->nodes[prod].name, g->nodes[prod].op_type, hint);
      else if (prod >= 0)
        snprintf(msg + used, sizeof msg - used,
                 " (input %d '%s' comes from node %d '%s' (%s), which depends on graph inputs)", k,
                 v->name, g->nodes[prod].index, g->nodes[prod].name, g->nodes[prod].op_type);
      break;
    }
  }
  if (st) return wnn_ir_node_fail(g, n, st, wnn_status_is_unsupported(st), "%s", msg);
  /* Every size is checked here, before folding or the builder allocates
   * anything for it. */
  for (int k = 0; k < n->num_outputs; k++) {
    if (n->outputs[k] < 0) continue;
    char what[200];
    snprintf(what, sizeof what, "output %d '%s'", k, g->values[n->outputs[k]].name);
    if ((st = wnn_ir_check_bytes(g, n, what, out[k].ndim, out[k].dims, out[k].dtype, NULL)))
      return st;
  }
  if (ctx.scratch_bytes > WNN_MAX_ARENA_BYTES)
    return wnn_ir_node_fail(g, n, WNN_ERR_LIMIT, false,
                            "its scratch of %zu bytes is larger than an arena may be (%u bytes)",
                            ctx.scratch_bytes, WNN_MAX_ARENA_BYTES);
  for (int k = 0; k < n->num_outputs; k++) {
    if (n->outputs[k] < 0) continue;
    wnn_ir_value *v = &g->values[n->outputs[k]];
    v->known = true;
    v->dtype = out[k].dtype;
    v->ndim = out[k].ndim;
    memcpy(v->dims, out[k].dims, sizeof v->dims);
  }
  if (scratch) *scratch = ctx.scratch_bytes;
  return WNN_OK;
}
