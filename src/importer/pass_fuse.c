/* Activation fusion into Conv and Gemm (passes.h): the activation becomes the
 * Conv's or Gemm's "activation" attribute (with "activation_params"), applied
 * by their run after the bias. Only when the runtime's Conv or Gemm accepts
 * the attribute. */
#include <cjson/cJSON.h>
#include <float.h>
#include <string.h>

#include "importer/passes.h"

static bool accepts(const char *op_name, const char *attr) {
  const wnn_op *op = wnn_op_by_name(op_name);
  if (!op) return false;
  for (const char *const *a = op->attrs; *a; a++)
    if (!strcmp(*a, attr)) return true;
  return false;
}

static double num_attr(const wnn_ir_node *n, const char *name, double dflt) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(n->attrs, name);
  return cJSON_IsNumber(a) ? a->valuedouble : dflt;
}

/* The activation's params; false when it cannot be fused. */
static bool activation_params(const wnn_ir_graph *g, const wnn_ir_node *a, float *p, int *count) {
  *count = 0;
  const char *t = a->op_type;
  if (!strcmp(t, "Relu") || !strcmp(t, "Sigmoid") || !strcmp(t, "HardSwish"))
    return a->num_inputs == 1 && cJSON_GetArraySize(a->attrs) == 0;
  if (!strcmp(t, "LeakyRelu")) {
    p[0] = (float)num_attr(a, "alpha", 0.01);
    *count = 1;
    return a->num_inputs == 1;
  }
  if (!strcmp(t, "HardSigmoid")) {
    p[0] = (float)num_attr(a, "alpha", 0.2);
    p[1] = (float)num_attr(a, "beta", 0.5);
    *count = 2;
    return a->num_inputs == 1;
  }
  if (!strcmp(t, "Clip")) {
    if (cJSON_GetArraySize(a->attrs) != 0) return false;
    p[0] = -FLT_MAX;
    p[1] = FLT_MAX;
    for (int k = 1; k < a->num_inputs && k < 3; k++) {
      if (a->inputs[k] < 0) continue;
      const wnn_ir_value *v = &g->values[a->inputs[k]];
      if (!v->data || v->dtype != WNN_DTYPE_F32 || wnn_ir_numel(v) != 1) return false;
      p[k - 1] = *(const float *)v->data;
    }
    *count = 2;
    return a->num_inputs <= 3;
  }
  return false;
}

/* The Conv or Gemm that produces value v and can take a fused activation
 * under the guards of `reader`, or NULL. */
static wnn_ir_node *fusable_producer(wnn_ir_graph *g, int v, const wnn_ir_node *reader,
                                     bool conv_ok, bool gemm_ok) {
  const wnn_ir_value *x = &g->values[v];
  if (x->producer < 0 || x->dtype != WNN_DTYPE_F32) return NULL;
  wnn_ir_node *p = &g->nodes[x->producer];
  if (p->dead || p->num_outputs != 1 || p->outputs[0] != v) return NULL;
  /* The fused node runs under the producer's guards: only when they agree. */
  if (!wnn_ir_same_guards(p, reader)) return NULL;
  bool conv = !strcmp(p->op_type, "Conv") && conv_ok, gemm = !strcmp(p->op_type, "Gemm") && gemm_ok;
  if (!conv && !gemm) return NULL;
  if (cJSON_GetObjectItemCaseSensitive(p->attrs, "activation")) return NULL;
  return p;
}

/* Gives p the activation and makes it write y, the last fused node's output,
 * in place of its own output x (which no node reads any more). */
static wnn_status fuse(wnn_ir_graph *g, wnn_ir_node *p, const char *activation,
                       const float *params, int np, int y) {
  cJSON *list = cJSON_CreateArray();
  bool ok = list && cJSON_AddStringToObject(p->attrs, "activation", activation);
  for (int k = 0; ok && k < np; k++) ok = cJSON_AddItemToArray(list, cJSON_CreateNumber(params[k]));
  if (ok && np) ok = cJSON_AddItemToObject(p->attrs, "activation_params", list);
  else cJSON_Delete(list);
  if (!ok) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory fusing activations");
  wnn_ir_value *x = &g->values[p->outputs[0]];
  g->values[y].producer = x->producer;
  p->outputs[0] = y;
  x->producer = -1;
  x->readers = 0;
  return WNN_OK;
}

/* SiLU, x * Sigmoid(x), as a Mul of x and the Sigmoid of x, where the Sigmoid
 * is read only by the Mul and x only by the two: the Sigmoid of Mul m's
 * operands, or NULL. */
static wnn_ir_node *silu_sigmoid(wnn_ir_graph *g, const wnn_ir_node *m) {
  if (m->dead || strcmp(m->op_type, "Mul") || m->domain[0] || m->num_inputs != 2 ||
      m->num_outputs != 1 || m->inputs[0] < 0 || m->inputs[1] < 0)
    return NULL;
  for (int k = 0; k < 2; k++) {
    const int x = m->inputs[1 - k], s = m->inputs[k];
    const wnn_ir_value *sv = &g->values[s];
    if (sv->producer < 0 || sv->readers != 1 || g->values[x].readers != 2) continue;
    wnn_ir_node *a = &g->nodes[sv->producer];
    if (a->dead || strcmp(a->op_type, "Sigmoid") || a->domain[0] || a->num_inputs != 1 ||
        a->inputs[0] != x || cJSON_GetArraySize(a->attrs) != 0 || !wnn_ir_same_guards(a, m))
      continue;
    return a;
  }
  return NULL;
}

wnn_status wnn_pass_fuse(wnn_ir_graph *g, int *fused) {
  int count = 0;
  bool conv_ok = accepts("Conv", "activation") && accepts("Conv", "activation_params");
  bool gemm_ok = accepts("Gemm", "activation") && accepts("Gemm", "activation_params");
  wnn_status st;
  for (int i = 0; i < g->num_nodes; i++) {
    wnn_ir_node *a = &g->nodes[i];
    /* SiLU first: its Sigmoid would otherwise fuse alone. */
    wnn_ir_node *sig = silu_sigmoid(g, a);
    wnn_ir_node *p = sig ? fusable_producer(g, sig->inputs[0], a, conv_ok, gemm_ok) : NULL;
    if (p) {
      wnn_ir_node_absorb(g, (int)(p - g->nodes), (int)(sig - g->nodes));
      wnn_ir_node_absorb(g, (int)(p - g->nodes), i);
      if ((st = fuse(g, p, "SiLU", NULL, 0, a->outputs[0]))) return st;
      g->values[sig->outputs[0]].producer = -1;
      g->values[sig->outputs[0]].readers = 0;
      sig->dead = true;
      a->dead = true;
      count++;
    }
  }
  for (int i = 0; i < g->num_nodes; i++) {
    wnn_ir_node *a = &g->nodes[i];
    if (a->dead || a->num_inputs < 1 || a->inputs[0] < 0 || a->num_outputs != 1) continue;
    float params[2];
    int np;
    if (!activation_params(g, a, params, &np)) continue;
    if (g->values[a->inputs[0]].readers != 1) continue;
    wnn_ir_node *p = fusable_producer(g, a->inputs[0], a, conv_ok, gemm_ok);
    if (!p) continue;
    wnn_ir_node_absorb(g, (int)(p - g->nodes), i);
    if ((st = fuse(g, p, a->op_type, params, np, a->outputs[0]))) return st;
    a->dead = true;
    count++;
  }
  if (fused) *fused = count;
  return WNN_OK;
}
