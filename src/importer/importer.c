/* The ONNX importer's driver (importer.h): read, one forward sweep (If
 * inlining, shape rewrites, BatchNormalization folding, inference, constant
 * folding), then the quantized rewrites, activation fusion, dead-code elimination and emission; all
 * of it again when a branch of a run-time If must be left out. */
#include "importer/importer.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importer/contrib.h"
#include "importer/ir.h"
#include "importer/legacy.h"
#include "importer/onnx_read.h"
#include "importer/passes.h"
#include "importer/transformer.h"
#include "ops/op_internal.h"
#include "runtime/alloc.h"
#include "runtime/sha256.h"

/* The index in g->subgraphs of If node n's branch attribute `which`, or -1. */
static int branch_index(const wnn_ir_graph *g, const wnn_ir_node *n, const char *which) {
  const cJSON *b = cJSON_GetObjectItemCaseSensitive(n->attrs, which);
  const cJSON *index = cJSON_GetObjectItemCaseSensitive(b, "graph");
  if (!cJSON_IsNumber(index) || index->valueint < 0 || index->valueint >= g->num_subgraphs) return -1;
  return index->valueint;
}

/* If: with a constant condition, the branch it selects replaces it; with a
 * condition known only at run time, both branches are compiled under guards
 * and Where nodes merge their outputs (docs/importer.md). *done says whether
 * node id was replaced. */
static wnn_status inline_if(wnn_ir_graph *g, int id, bool *done) {
  *done = false;
  wnn_ir_node *n = &g->nodes[id];
  if (strcmp(n->op_type, "If") || n->domain[0]) return WNN_OK;
  const wnn_ir_value *c = n->num_inputs == 1 && n->inputs[0] >= 0 ? &g->values[n->inputs[0]] : NULL;
  if (!c || !c->known)
    return wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false,
                            "has no condition input, or its shape is unknown");
  if (wnn_ir_numel(c) != 1 || wnn_dtype_size(c->dtype) == 0) {
    char shape[WNN_MAX_DIMS * 22 + 3];
    return wnn_ir_node_fail(g, n, WNN_ERR_SHAPE, false,
                            "the condition '%s' is %s%s; it must hold one element", c->name,
                            wnn_dtype_name(c->dtype), wnn_format_dims(shape, sizeof shape, c->ndim, c->dims));
  }
  int then_b = branch_index(g, n, "then_branch"), else_b = branch_index(g, n, "else_branch");
  if (then_b < 0 || else_b < 0)
    return wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "has no %s",
                            then_b < 0 ? "then_branch" : "else_branch");
  wnn_status st;
  if (!c->data || c->dyn_data) {
    st = wnn_onnx_inline_if(g, id, then_b, else_b);
  } else {
    bool cond;
    switch (c->dtype) {
      case WNN_DTYPE_F32: cond = *(const float *)c->data != 0.0f; break;
      case WNN_DTYPE_I64: cond = *(const int64_t *)c->data != 0; break;
      case WNN_DTYPE_I32: cond = *(const int32_t *)c->data != 0; break;
      default: cond = *(const uint8_t *)c->data != 0; break;
    }
    st = wnn_onnx_inline_branch(g, id, cond ? then_b : else_b);
  }
  if (!st) *done = true;
  return st;
}

/* A Where that merges an If's outputs: both branches must give the same
 * dtype and shape, since the runtime's values have one static shape. */
static wnn_status check_merge(wnn_ir_graph *g, int id) {
  const wnn_ir_node *n = &g->nodes[id];
  const wnn_ir_value *t = &g->values[n->inputs[1]], *e = &g->values[n->inputs[2]];
  if (!t->known || !e->known) return WNN_OK; /* inference names what is missing */
  if (t->dtype == e->dtype && wnn_shape_equal(t->ndim, t->dims, e->ndim, e->dims)) return WNN_OK;
  char ts[WNN_MAX_DIMS * 22 + 3], es[WNN_MAX_DIMS * 22 + 3];
  wnn_ir_node as_if = *n;
  as_if.op_type = (char *)"If";
  return wnn_ir_node_fail(g, &as_if, WNN_ERR_UNSUPPORTED, true,
                          "output '%s': the then_branch gives '%s' %s%s and the else_branch '%s' "
                          "%s%s; with a condition known only at run time both must agree",
                          g->values[n->outputs[0]].name, t->name, wnn_dtype_name(t->dtype),
                          wnn_format_dims(ts, sizeof ts, t->ndim, t->dims), e->name,
                          wnn_dtype_name(e->dtype), wnn_format_dims(es, sizeof es, e->ndim, e->dims));
}

/* Adds "(in the then_branch of If node 3 'if')" to the message about node id
 * when it came from a branch; a failure in a branch compiled for a run-time
 * condition makes that If unsupported. */
static wnn_status in_branch(wnn_ir_graph *g, int id, wnn_status st) {
  const wnn_ir_node *n = &g->nodes[id];
  if (!st || !n->origin) return st;
  size_t used = strlen(g->msg);
  snprintf(g->msg + used, sizeof g->msg - used, " (in the %s)", n->origin);
  if (n->num_guards) g->unsupported = true;
  /* A branch whose shapes do not work out for these input shapes: the
   * driver tries again without it. */
  if (n->rt_branch && st == WNN_ERR_SHAPE && !g->prune) {
    size_t len = strlen(n->rt_branch) + 1;
    if ((g->prune = malloc(len))) memcpy(g->prune, n->rt_branch, len);
  }
  return st;
}

/* Run-time shapes (docs/dynamic-shapes.md): what node id reads that changes
 * with the artifact's dims. */
static void dynamic_inputs(const wnn_ir_graph *g, const wnn_ir_node *n, bool *shape, bool *data) {
  *shape = *data = false;
  for (int k = 0; k < n->num_inputs; k++) {
    if (n->inputs[k] < 0) continue;
    *shape |= g->values[n->inputs[k]].dyn_shape;
    *data |= g->values[n->inputs[k]].dyn_data;
  }
  for (int k = 0; k < n->num_guards; k++) *data |= g->values[n->guards[k]].dyn_data;
}

/* Rewrites that compute new constants from the shapes they see (the
 * com.microsoft ops' Reshape targets, Softmax before opset 13 on another axis
 * than the last) would freeze the default dims into the artifact: refused for
 * inputs whose shapes change at run time, naming the op. */
static wnn_status refuse_frozen_rewrite(wnn_ir_graph *g, int id) {
  const wnn_ir_node *n = &g->nodes[id];
  bool shape, data;
  dynamic_inputs(g, n, &shape, &data);
  if (!shape && !data) return WNN_OK;
  /* (DynamicQuantizeMatMul is not rewritten: the runtime has it.) */
  const bool contrib =
      !strcmp(n->domain, "com.microsoft") && strcmp(n->op_type, "DynamicQuantizeMatMul") != 0;
  const bool old_softmax = g->opset < 13 && !n->rewritten &&
                           (!strcmp(n->op_type, "Softmax") || !strcmp(n->op_type, "LogSoftmax") ||
                            !strcmp(n->op_type, "Hardmax"));
  /* (Dropout's mask output becomes a constant of the input's shape.) */
  const bool dropout_mask = !strcmp(n->op_type, "Dropout") && !n->rewritten && n->num_outputs > 1 &&
                            n->outputs[1] >= 0;
  if (!contrib && !old_softmax && !dropout_mask) return WNN_OK;
  return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                          "its input shapes change with the model's dynamic dims, and the importer "
                          "rewrites %s for fixed shapes only: fix the dims with --shape",
                          contrib ? "com.microsoft ops" : old_softmax ? "this op before opset 13"
                                                                      : "Dropout's mask output");
}

/* After node id was inferred (and folded, when its inputs are constant):
 * which of its outputs change with the dims. A node computed from constants
 * and values that depend on the dims only through their data (Shape of a
 * dynamic value, and arithmetic on it) stays in the graph as a shape node,
 * its outputs still holding their values at the default dims for the
 * inference of later nodes; the runtime recomputes them at resize. */
static void track_dynamic(wnn_ir_graph *g, int id, bool folded, bool shape, bool data) {
  wnn_ir_node *n = &g->nodes[id];
  const bool shape_only = (!strcmp(n->op_type, "Shape") || !strcmp(n->op_type, "Size")) &&
                          n->num_inputs == 1 && n->inputs[0] >= 0;
  const bool dyn_data = data || (shape_only && g->values[n->inputs[0]].dyn_shape);
  if (folded && dyn_data) {
    n->dead = false;
    n->shape_node = true;
  }
  for (int k = 0; k < n->num_outputs; k++) {
    if (n->outputs[k] < 0) continue;
    wnn_ir_value *v = &g->values[n->outputs[k]];
    v->dyn_shape = shape || data;
    v->dyn_data = folded && dyn_data;
  }
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
    if ((st = wnn_onnx_unroll(g, i, &inlined))) return in_branch(g, i, st);
    if (inlined) {
      i--; /* the first iteration's first node is now at i */
      continue;
    }
    if ((st = refuse_frozen_rewrite(g, i))) return in_branch(g, i, st);
    bool replaced;
    if ((st = wnn_contrib_rewrite(g, i, &replaced))) return in_branch(g, i, st);
    if (!replaced && (st = wnn_transformer_rewrite(g, i, &replaced))) return in_branch(g, i, st);
    if (replaced) {
      i--; /* the first node computing it is now at i */
      continue;
    }
    int inserted;
    if ((st = wnn_legacy_rewrite_shaped(g, i, &inserted))) return in_branch(g, i, st);
    bool folded = false;
    if ((st = wnn_pass_bn_fold_node(g, i, &folded))) return in_branch(g, i, st);
    if (folded) continue;
    if (g->nodes[i].if_merge && (st = check_merge(g, i))) return st;
    _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
    size_t scratch = 0;
    if ((st = wnn_pass_infer_node(g, i, params, &scratch))) return in_branch(g, i, st);
    bool dyn_shape, dyn_data;
    dynamic_inputs(g, &g->nodes[i], &dyn_shape, &dyn_data);
    const bool fold = wnn_pass_fold_can(g, i);
    if (fold && (st = wnn_pass_fold_node(g, i, params, scratch))) return in_branch(g, i, st);
    track_dynamic(g, i, fold, dyn_shape, dyn_data);
  }
  if (opt && opt->progress) opt->progress(opt->progress_ctx, g->num_nodes, g->num_nodes);
  return WNN_OK;
}

/* The Casts to float16 and to double that still matter (legacy.c made them
 * Casts to float32): one warning for each kind, naming the first output. A
 * Cast whose value only leaves the model as a graph output declared float16
 * (double) is not one: that output is converted to float16 (float64) at the
 * boundary. */
static void warn_narrowed(wnn_ir_graph *g) {
  static const char *const what[2] = {"float16", "double"};
  if (!g->warn || (!g->num_narrowed[0] && !g->num_narrowed[1])) return;
  wnn_ir_count_readers(g);
  for (int k = 0; k < 2; k++) {
    int count = 0, first = -1;
    for (int i = 0; i < g->num_narrowed[k]; i++) {
      const wnn_ir_value *v = &g->values[g->narrowed[k][i]];
      if (v->readers == 0) continue; /* dead code */
      bool only_output = false;
      for (int o = 0; o < g->num_outputs; o++)
        only_output |= g->outputs[o] == g->narrowed[k][i] && v->readers == 1 &&
                       v->io_dtype == (k == 0 ? WNN_DTYPE_F16 : WNN_DTYPE_F64);
      if (only_output) continue;
      if (first < 0) first = g->narrowed[k][i];
      count++;
    }
    if (count)
      wnn_ir_warnf(g,
                   "%d Cast%s to %s (the first writes '%s') compute%s in float32: wnn computes "
                   "%s tensors inside a model in float32, so %s %s and what follows runs in "
                   "float32; results can differ from a runtime computing in %s",
                   count, count == 1 ? "" : "s", what[k], g->values[first].name,
                   count == 1 ? "s" : "", what[k], count == 1 ? "that value" : "those values",
                   k == 0 ? (count == 1 ? "is not rounded to float16" : "are not rounded to float16")
                          : (count == 1 ? "keeps only float32 precision" : "keep only float32 precision"),
                   what[k]);
  }
}

/* One conversion attempt, compiling the If branches in pruned without them. */
static wnn_status attempt(wnn_ir_graph *g, const void *data, size_t size,
                          const wnn_import_options *opt, wnn_import_result *result) {
  wnn_status st = wnn_onnx_read(g, data, size, opt);
  if (!st) {
    int n;
    /* Nodes nothing reads are never inferred; not with If branches, which
     * read outer values by name. */
    if (g->num_subgraphs == 0) wnn_pass_dce(g, &n);
    st = sweep(g, opt);
  }
  if (!st) {
    int n;
    st = wnn_pass_s2d_conv(g, &n);
  }
  if (!st) {
    int n;
    wnn_pass_dce(g, &n);
    /* Before fusion: it reads Relu and Clip between a Conv and its
     * QuantizeLinear as they are in the file. */
    if (!opt || !opt->no_quant_rewrites) {
      st = wnn_pass_qdq(g, &result->num_quant_rewrites);
      if (!st) wnn_pass_dce(g, &n);
    }
  }
  if (!st) {
    int n;
    st = wnn_pass_fuse(g, &n);
  }
  if (!st) {
    int n;
    wnn_pass_dce(g, &n);
    if (!g->keep_subnormals) st = wnn_pass_flush_subnormals(g);
    result->num_subnormal_tensors = g->subnormal_tensors;
    result->num_subnormal_values = g->subnormal_values;
  }
  if (!st) {
    warn_narrowed(g);
    st = wnn_emit(g, opt ? opt->model_name : NULL, opt ? opt->weights : NULL,
                  opt && opt->release, opt && opt->map ? &result->map : NULL,
                  &result->artifact, &result->size,
                  opt && opt->split_params ? &result->params : NULL, &result->params_size,
                  &result->num_nodes);
  }
  return st;
}

/* At most this many If branches are left out of one conversion. */
#define MAX_PRUNED 64

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
  wnn_ir_budget_begin(opt && opt->max_memory ? opt->max_memory : WNN_IMPORT_DEFAULT_MAX_MEMORY);
  char *pruned[MAX_PRUNED];
  int num_pruned = 0;
  wnn_status st;
  for (;;) {
    wnn_ir_graph g;
    wnn_ir_init(&g);
    /* A later attempt repeats the first one's warnings: only the first
     * reports them. */
    if (opt && num_pruned == 0) {
      g.warn = opt->warn;
      g.warn_ctx = opt->warn_ctx;
    }
    g.pruned = pruned;
    g.num_pruned = num_pruned;
    g.keep_subnormals = opt && opt->keep_subnormals;
    st = attempt(&g, data, size, opt, result);
    bool again = false;
    if (st && g.prune && num_pruned < MAX_PRUNED) {
      /* A branch for a run-time condition that cannot be compiled for these
       * input shapes would fail in any runtime once taken: compile the If
       * without it, and say so. */
      /* Not when the other branch of that If is left out already: the
       * failure stands. */
      bool then = !strncmp(g.prune, "then_branch", 11);
      char *sibling = malloc(strlen(g.prune) + 1);
      if (sibling) sprintf(sibling, "%s%s", then ? "else_branch" : "then_branch", g.prune + 11);
      again = sibling != NULL;
      for (int i = 0; i < num_pruned; i++)
        again = again && strcmp(pruned[i], g.prune) != 0 && strcmp(pruned[i], sibling) != 0;
      free(sibling);
      if (again) {
        pruned[num_pruned++] = g.prune;
        if (opt && opt->warn) {
          char msg[1400];
          snprintf(msg, sizeof msg,
                   "the %s cannot be compiled for these input shapes (%s); it is left out: a run "
                   "whose condition selects it fails",
                   g.prune, g.msg);
          opt->warn(opt->warn_ctx, msg);
        }
        g.prune = NULL;
      }
    }
    if (st && !again) {
      snprintf(result->msg, sizeof result->msg, "%s", g.msg[0] ? g.msg : wnn_status_str(st));
      result->unsupported = g.unsupported;
    }
    wnn_ir_free(&g);
    if (!again) break;
  }
  for (int i = 0; i < num_pruned; i++) free(pruned[i]);
  wnn_ir_budget_begin(0);
  wnn_json_end();
  return st;
}

char *wnn_import_map_print(cJSON *map, const void *artifact, size_t size) {
  if (!map || (!artifact && size)) return NULL;
  wnn_json_begin(NULL);
  char hex[65];
  wnn_sha256_hex(artifact, size, hex);
  cJSON *a = cJSON_CreateObject();
  char *text = NULL;
  if (a && cJSON_AddStringToObject(a, "sha256", hex) &&
      cJSON_AddNumberToObject(a, "bytes", (double)size) &&
      cJSON_ReplaceItemInObjectCaseSensitive(map, "artifact", a)) {
    a = NULL;
    char *t = cJSON_PrintUnformatted(map);
    /* malloc'd for the caller, with a newline */
    if (t && (text = malloc(strlen(t) + 2))) sprintf(text, "%s\n", t);
    cJSON_free(t);
  }
  cJSON_Delete(a);
  wnn_json_end();
  return text;
}

void wnn_import_map_free(cJSON *map) {
  wnn_json_begin(NULL);
  cJSON_Delete(map);
  wnn_json_end();
}
