/* The ONNX importer's driver (importer.h): read, one forward sweep (shape
 * rewrites, BatchNormalization folding, inference, constant folding), then
 * activation fusion, dead-code elimination and emission. */
#include "importer/importer.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "importer/ir.h"
#include "importer/legacy.h"
#include "importer/onnx_read.h"
#include "importer/passes.h"
#include "runtime/alloc.h"

/* If with a constant condition: the branch it selects replaces it. The
 * runtime has no control flow, so any other If is unsupported. *done says
 * whether node id was replaced. */
static wnn_status inline_if(wnn_ir_graph *g, int id, bool *done) {
  *done = false;
  wnn_ir_node *n = &g->nodes[id];
  if (strcmp(n->op_type, "If") || n->domain[0]) return WNN_OK;
  const wnn_ir_value *c = n->num_inputs == 1 && n->inputs[0] >= 0 ? &g->values[n->inputs[0]] : NULL;
  if (!c || !c->data || wnn_ir_numel(c) != 1 || wnn_dtype_size(c->dtype) == 0) {
    char hint[400];
    if (c && !c->data && wnn_ir_const_hint(g, n->inputs[0], hint, sizeof hint) > 0)
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                              "the condition is not a constant: wnn has no run-time control flow "
                              "(an If is compiled only when its condition folds to a constant); "
                              "the condition comes from %s",
                              hint);
    return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                            "the condition is not a constant: wnn has no run-time control flow "
                            "(an If is compiled only when its condition folds to a constant)");
  }
  bool cond;
  switch (c->dtype) {
    case WNN_DTYPE_F32: cond = *(const float *)c->data != 0.0f; break;
    case WNN_DTYPE_I64: cond = *(const int64_t *)c->data != 0; break;
    case WNN_DTYPE_I32: cond = *(const int32_t *)c->data != 0; break;
    default: cond = *(const uint8_t *)c->data != 0; break;
  }
  const cJSON *branch = cJSON_GetObjectItemCaseSensitive(n->attrs, cond ? "then_branch" : "else_branch");
  const cJSON *index = cJSON_GetObjectItemCaseSensitive(branch, "graph");
  if (!cJSON_IsNumber(index) || index->valueint < 0 || index->valueint >= g->num_subgraphs)
    return wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "has no %s",
                            cond ? "then_branch" : "else_branch");
  wnn_status st = wnn_onnx_inline_branch(g, id, index->valueint);
  if (!st) *done = true;
  return st;
}

static wnn_status sweep(wnn_ir_graph *g, const wnn_import_options *opt) {
  wnn_ir_count_readers(g);
  int step = g->num_nodes / 50 > 1 ? g->num_nodes / 50 : 1;
  for (int i = 0; i < g->num_nodes; i++) {
    if (opt && opt->progress && i % step == 0) opt->progress(opt->progress_ctx, i, g->num_nodes);
    if (g->nodes[i].dead) continue;
    bool inlined;
    wnn_status st = inline_if(g, i, &inlined);
    if (st) return st;
    if (inlined) {
      i--; /* the branch's first node is now at i */
      continue;
    }
    int inserted;
    if ((st = wnn_legacy_rewrite_shaped(g, i, &inserted))) return st;
    bool folded = false;
    if ((st = wnn_pass_bn_fold_node(g, i, &folded))) return st;
    if (folded) continue;
    _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
    size_t scratch = 0;
    if ((st = wnn_pass_infer_node(g, i, params, &scratch))) return st;
    if (wnn_pass_fold_can(g, i) && (st = wnn_pass_fold_node(g, i, params, scratch))) return st;
  }
  if (opt && opt->progress) opt->progress(opt->progress_ctx, g->num_nodes, g->num_nodes);
  return WNN_OK;
}

wnn_status wnn_import_onnx(const void *data, size_t size, const wnn_import_options *opt,
                           wnn_import_result *result) {
  memset(result, 0, sizeof *result);
  if (!data && size) {
    snprintf(result->msg, sizeof result->msg, "no data");
    return WNN_ERR_INVALID_ARGUMENT;
  }
  /* cJSON's hooks: the runtime's, so that trees made here and trees the
   * builder makes are freed the same way. */
  wnn_json_begin(NULL);
  wnn_ir_graph g;
  wnn_ir_init(&g);
  if (opt) {
    g.warn = opt->warn;
    g.warn_ctx = opt->warn_ctx;
  }
  wnn_status st = wnn_onnx_read(&g, data, size, opt);
  if (!st) {
    int n;
    /* Nodes nothing reads are never inferred; not with If branches, which
     * read outer values by name. */
    if (g.num_subgraphs == 0) wnn_pass_dce(&g, &n);
    st = sweep(&g, opt);
  }
  if (!st) {
    int n;
    wnn_pass_dce(&g, &n);
    st = wnn_pass_fuse(&g, &n);
  }
  if (!st) {
    int n;
    wnn_pass_dce(&g, &n);
    st = wnn_emit(&g, opt ? opt->model_name : NULL, &result->artifact, &result->size,
                  &result->num_nodes);
  }
  if (st) {
    snprintf(result->msg, sizeof result->msg, "%s", g.msg[0] ? g.msg : wnn_status_str(st));
    result->unsupported = g.unsupported;
  }
  wnn_ir_free(&g);
  wnn_json_end();
  return st;
}
