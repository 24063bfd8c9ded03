/* Constant folding with the runtime's own kernels (passes.h). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "importer/passes.h"

/* Shape and Size depend only on their input's shape, known here. */
static bool shape_only(const wnn_ir_node *n) {
  return (!strcmp(n->op_type, "Shape") || !strcmp(n->op_type, "Size")) && n->num_inputs == 1 &&
         n->num_outputs == 1 && n->inputs[0] >= 0;
}

/* Shape (opset 15 start/end, clamped as ONNX says) and Size from the input
 * shape; the output's dtype and shape come from inference. */
static wnn_status fold_shape(wnn_ir_graph *g, wnn_ir_node *n) {
  const wnn_ir_value *x = &g->values[n->inputs[0]];
  int64_t vals[WNN_MAX_DIMS + 1];
  int64_t count = 0;
  if (!strcmp(n->op_type, "Size")) {
    vals[count++] = wnn_ir_numel(x);
  } else {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(n->attrs, "start");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(n->attrs, "end");
    int64_t r = x->ndim, start = wnn_ir_json_int(a, 0), end = wnn_ir_json_int(b, r);
    if (start < 0) start += r;
    if (end < 0) end += r;
    start = start < 0 ? 0 : start > r ? r : start;
    end = end < 0 ? 0 : end > r ? r : end;
    for (int64_t d = start; d < end; d++) vals[count++] = x->dims[d];
  }
  wnn_ir_value *y = &g->values[n->outputs[0]];
  if (wnn_ir_numel(y) != count || y->dtype != WNN_DTYPE_I64)
    return wnn_ir_node_fail(g, n, WNN_ERR_SHAPE, false, "inferred output disagrees with the input's shape");
  wnn_status st = wnn_ir_set_const(g, n->outputs[0], WNN_DTYPE_I64, y->ndim, y->dims, vals);
  if (!st) {
    wnn_ir_value_from_node(g, n->outputs[0], (int)(n - g->nodes));
    n->dead = true;
  }
  return st;
}

bool wnn_pass_fold_can(const wnn_ir_graph *g, int id) {
  const wnn_ir_node *n = &g->nodes[id];
  if (shape_only(n)) return true;
  for (int k = 0; k < n->num_inputs; k++)
    if (n->inputs[k] >= 0 && !g->values[n->inputs[k]].data) return false;
  return true;
}

wnn_status wnn_pass_fold_node(wnn_ir_graph *g, int id, const void *params, size_t scratch_bytes) {
  wnn_ir_node *n = &g->nodes[id];
  if (shape_only(n)) return fold_shape(g, n);
  const wnn_op *op = wnn_op_by_name(n->op_type);
  if (!op) return wnn_ir_node_fail(g, n, WNN_ERR_UNKNOWN_OP, true, "op type is not supported");
  wnn_tensor in[WNN_MAX_IO], out[WNN_MAX_IO];
  memset(in, 0, sizeof in);
  memset(out, 0, sizeof out);
  for (int k = 0; k < n->num_inputs; k++) {
    if (n->inputs[k] < 0) continue;
    const wnn_ir_value *v = &g->values[n->inputs[k]];
    in[k] = (wnn_tensor){v->data, v->dtype, v->ndim, v->dims};
  }
  void *bufs[WNN_MAX_IO] = {0};
  size_t sizes[WNN_MAX_IO] = {0};
  wnn_status st = WNN_OK;
  for (int k = 0; k < n->num_outputs && !st; k++) {
    if (n->outputs[k] < 0) continue;
    wnn_ir_value *v = &g->values[n->outputs[k]];
    if ((st = wnn_ir_check_bytes(g, n, "a folded output", v->ndim, v->dims, v->dtype, &sizes[k])))
      break;
    bufs[k] = wnn_ir_alloc_data(sizes[k]);
    if (!bufs[k]) st = wnn_ir_out_of_memory(g, n, "folding it to a constant", sizes[k]);
    else memset(bufs[k], 0, sizes[k]);
    out[k] = (wnn_tensor){bufs[k], v->dtype, v->ndim, v->dims};
  }
  void *scratch = NULL;
  if (!st && scratch_bytes && !(scratch = wnn_ir_alloc_data(scratch_bytes)))
    st = wnn_ir_out_of_memory(g, n, "the scratch of folding it", scratch_bytes);
  if (!st) {
    if (op->run) {
      char msg[512] = "";
      wnn_run_ctx ctx = {params, n->num_inputs, in, n->num_outputs, out, scratch, msg, sizeof msg};
      st = op->run(&ctx);
      if (st) wnn_ir_node_fail(g, n, st, false, "evaluating it on constants: %s", msg);
    } else if (n->num_outputs > 0 && bufs[0]) {
      size_t have = g->values[n->inputs[0]].nbytes;
      memcpy(bufs[0], in[0].data, have < sizes[0] ? have : sizes[0]);
    }
  }
  wnn_ir_free_data(scratch);
  for (int k = 0; k < n->num_outputs; k++) {
    if (!bufs[k]) continue;
    if (st) {
      wnn_ir_free_data(bufs[k]);
      continue;
    }
    wnn_ir_value *v = &g->values[n->outputs[k]];
    wnn_ir_free_data(v->data);
    v->data = bufs[k];
    v->nbytes = sizes[k];
    /* Provenance: the node and what its inputs were computed from. */
    wnn_ir_value_from_node(g, n->outputs[k], id);
    for (int i = 0; i < n->num_inputs; i++) wnn_ir_value_from_value(g, n->outputs[k], n->inputs[i]);
  }
  if (!st) n->dead = true;
  return st;
}
