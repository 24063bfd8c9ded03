/* The live graph through the builder (passes.h): graph inputs in file order,
 * constants read by live nodes as params (under their ONNX names), nodes in
 * order, graph outputs under their ONNX names; a float16 graph input or output
 * keeps float16 with a Cast to or from the float32 the model computes in. The builder prepares every
 * node again, plans memory and loads the artifact it wrote as a self-check. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importer/passes.h"
#include "wnn_builder.h"

/* The name of the first attribute whose value holds a number that is not
 * finite (anywhere inside it: lists, tensor data), or NULL. */
static bool has_nonfinite(const cJSON *j) {
  if (cJSON_IsNumber(j)) return !isfinite(j->valuedouble);
  for (const cJSON *c = j ? j->child : NULL; c; c = c->next)
    if (has_nonfinite(c)) return true;
  return false;
}

static const char *nonfinite_attr(const cJSON *attrs) {
  for (const cJSON *a = attrs ? attrs->child : NULL; a; a = a->next)
    if (has_nonfinite(a)) return a->string ? a->string : "";
  return NULL;
}

/* The map file being written (docs/format.md), or all NULL. */
typedef struct map_out {
  cJSON *root, *nodes, *values;
  int params; /* params added so far: the next one's index among params */
  bool oom;
} map_out;

static cJSON *add(map_out *mo, cJSON *to, cJSON *item) {
  if (!item || !to || !cJSON_AddItemToArray(to, item)) {
    cJSON_Delete(item);
    mo->oom = true;
    return NULL;
  }
  return item;
}

/* The sources in src[n] of kind `nodes` (ONNX nodes) or initializers, as a
 * JSON list. */
static cJSON *sources(map_out *mo, const wnn_ir_graph *g, const int *src, int n, bool nodes) {
  cJSON *list = cJSON_CreateArray();
  for (int i = 0; list && i < n; i++) {
    const wnn_ir_src *s = &g->srcs[src[i]];
    if (!nodes) {
      if (!s->op_type) add(mo, list, cJSON_CreateString(s->name));
      continue;
    }
    if (!s->op_type) continue;
    cJSON *o = add(mo, list, cJSON_CreateObject());
    if (o && (!cJSON_AddNumberToObject(o, "index", s->index) ||
              !cJSON_AddStringToObject(o, "name", s->name) ||
              !cJSON_AddStringToObject(o, "op", s->op_type) ||
              (s->origin && !cJSON_AddStringToObject(o, "in", s->origin))))
      mo->oom = true;
  }
  if (!list) mo->oom = true;
  return list;
}

/* item added to object o under key, or NULL (item freed, oom noted). */
static cJSON *put(map_out *mo, cJSON *o, const char *key, cJSON *item) {
  if (!o || !item || !cJSON_AddItemToObject(o, key, item)) {
    cJSON_Delete(item);
    mo->oom = true;
    return NULL;
  }
  return item;
}

/* The map's entry for node `node`: IR node n (NULL for a node the converter
 * added, with `added` saying why). */
static void map_node(map_out *mo, const wnn_ir_graph *g, int node, const wnn_ir_node *n,
                     const char *op, const char *added) {
  if (!mo->root) return;
  cJSON *o = add(mo, mo->nodes, cJSON_CreateObject());
  if (!o) return;
  put(mo, o, "node", cJSON_CreateNumber(node));
  put(mo, o, "op", cJSON_CreateString(op));
  if (n && n->name[0]) put(mo, o, "name", cJSON_CreateString(n->name));
  put(mo, o, "onnx", n ? sources(mo, g, n->src, n->num_src, true) : cJSON_CreateArray());
  if (added) put(mo, o, "added", cJSON_CreateString(added));
  if (!n) return;
  cJSON *outs = put(mo, o, "outputs", cJSON_CreateArray());
  for (int k = 0; outs && k < n->num_outputs; k++)
    add(mo, outs, n->outputs[k] >= 0 ? cJSON_CreateString(g->values[n->outputs[k]].name)
                                     : cJSON_CreateNull());
}

/* The map's entry for a value: a param (IR value v) or a named intermediate. */
static void map_value(map_out *mo, const wnn_ir_graph *g, int value, int v, bool is_param) {
  if (!mo->root) return;
  const wnn_ir_value *x = &g->values[v];
  cJSON *o = add(mo, mo->values, cJSON_CreateObject());
  if (!o) return;
  put(mo, o, "value", cJSON_CreateNumber(value));
  put(mo, o, "kind", cJSON_CreateString(is_param ? "param" : "intermediate"));
  put(mo, o, "name", cJSON_CreateString(x->name));
  if (!is_param) return;
  put(mo, o, "param", cJSON_CreateNumber(mo->params++));
  put(mo, o, "initializers", sources(mo, g, x->src, x->num_src, false));
  put(mo, o, "onnx", sources(mo, g, x->src, x->num_src, true));
}

static wnn_status param(wnn_ir_graph *g, wnn_builder *b, int v, int *map, map_out *mo) {
  if (map[v] >= 0) return WNN_OK;
  const wnn_ir_value *x = &g->values[v];
  wnn_status st = wnn_builder_add_param(b, x->name, x->dtype, x->ndim, x->dims, x->data, &map[v]);
  if (st) return wnn_ir_fail(g, st, false, "param '%s': %s", x->name, wnn_last_error());
  map_value(mo, g, map[v], v, true);
  return WNN_OK;
}

static bool is_graph_output(const wnn_ir_graph *g, int v) {
  for (int k = 0; k < g->num_outputs; k++)
    if (g->outputs[k] == v) return true;
  return false;
}

wnn_status wnn_emit(wnn_ir_graph *g, const char *model_name, const wnn_builder_weights *weights,
                    bool release, cJSON **map_tree, void **artifact, size_t *size,
                    void **params, size_t *params_size, int *num_nodes) {
  wnn_builder *b = NULL;
  wnn_status st = wnn_builder_create(NULL, &b);
  if (st) return wnn_ir_fail(g, st, false, "%s", wnn_last_error());
  if (release) wnn_builder_set_integer_names(b, 1);
  map_out mo = {NULL, NULL, NULL, 0, false};
  if (map_tree) {
    int main_nodes = 0;
    for (int i = 0; i < g->num_srcs; i++) main_nodes += g->srcs[i].op_type && !g->srcs[i].origin;
    mo.root = cJSON_CreateObject();
    put(&mo, mo.root, "wnn_map", cJSON_CreateNumber(1));
    put(&mo, mo.root, "artifact", cJSON_CreateObject());
    cJSON *source = put(&mo, mo.root, "source", cJSON_CreateObject());
    put(&mo, source, "format", cJSON_CreateString("onnx"));
    put(&mo, source, "opset", cJSON_CreateNumber(g->opset));
    put(&mo, source, "nodes", cJSON_CreateNumber(main_nodes));
    mo.nodes = put(&mo, mo.root, "nodes", cJSON_CreateArray());
    mo.values = put(&mo, mo.root, "values", cJSON_CreateArray());
  }
  int *map = malloc(((size_t)g->num_values + 1) * sizeof *map);
  int *io_in = malloc(((size_t)g->num_values + 1) * sizeof *io_in);
  if (!map || !io_in) {
    free(map);
    free(io_in);
    wnn_builder_free(b);
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  }
  for (int i = 0; i < g->num_values; i++) map[i] = io_in[i] = -1;
  int nodes = 0;
  if (weights && (st = wnn_builder_set_weights(b, weights)))
    wnn_ir_fail(g, st, false, "%s", wnn_last_error());
  if (!st && model_name) st = wnn_builder_set_metadata(b, "name", model_name);
  if (!st) st = wnn_builder_set_metadata(b, "producer", "wnn convert");
  /* Run-time shapes: the artifact's dims, then inputs that name them. */
  for (int i = 0; !st && i < g->num_dims; i++) {
    st = wnn_builder_add_dim(b, g->dims[i].name, g->dims[i].default_size, g->dims[i].max_size, 1);
    if (st) wnn_ir_fail(g, st, false, "dim '%s': %s", g->dims[i].name, wnn_last_error());
  }
  /* A float16 or float64 graph input is an input of that dtype in the
   * artifact and a Cast to float32 right after it, which every reader of the
   * value reads; io_in keeps the input itself, for an output that is the
   * same value. */
  for (int i = 0; !st && i < g->num_inputs; i++) {
    const wnn_ir_value *v = &g->values[g->inputs[i]];
    const bool half = v->io_dtype == WNN_DTYPE_F16 || v->io_dtype == WNN_DTYPE_F64;
    const char *names[WNN_MAX_DIMS];
    bool named = false;
    for (int d = 0; d < v->ndim; d++) {
      names[d] = v->dims_of[d] >= 0 ? g->dims[v->dims_of[d]].name : NULL;
      named |= names[d] != NULL;
    }
    st = wnn_builder_add_dynamic_input(b, v->name, half ? v->io_dtype : v->dtype, v->ndim,
                                       v->dims, named ? names : NULL, &map[g->inputs[i]]);
    if (st) {
      wnn_ir_fail(g, st, false, "graph input '%s': %s", v->name, wnn_last_error());
      break;
    }
    if (!half) continue;
    io_in[g->inputs[i]] = map[g->inputs[i]];
    st = wnn_builder_add_node(b, "Cast", NULL, &io_in[g->inputs[i]], 1, "{\"to\":1}", 1,
                              &map[g->inputs[i]]);
    if (st) wnn_ir_fail(g, st, false, "graph input '%s': Cast to float32: %s", v->name, wnn_last_error());
    char why[300];
    snprintf(why, sizeof why, "%s graph input '%.250s' to float32", wnn_dtype_name(v->io_dtype),
             v->name);
    map_node(&mo, g, nodes, NULL, "Cast", why);
    nodes++;
  }
  for (int i = 0; !st && i < g->num_nodes; i++) {
    wnn_ir_node *n = &g->nodes[i];
    if (n->dead) continue;
    int ins[WNN_MAX_IO], outs[WNN_MAX_IO];
    for (int k = 0; !st && k < n->num_inputs; k++) {
      int v = n->inputs[k];
      ins[k] = -1;
      if (v < 0) continue;
      if (map[v] < 0) {
        /* A value that changes with the dims never becomes a constant. */
        if (g->values[v].dyn_data) {
          st = wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                                "input %d '%s' depends on the model's dynamic dims but was frozen "
                                "to its value at the defaults: fix the dims with --shape",
                                k, g->values[v].name);
          break;
        }
        if (!g->values[v].data) {
          st = wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "input %d '%s' has no producer", k,
                                g->values[v].name);
          break;
        }
        if ((st = param(g, b, v, map, &mo))) break;
      }
      ins[k] = map[v];
    }
    if (st) break;
    /* JSON has no NaN or infinity (cJSON would print null): an attribute that
     * still holds one here, not folded away, cannot be stored. */
    const char *bad = nonfinite_attr(n->attrs);
    if (bad) {
      st = wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                            "attribute '%s' holds NaN or an infinity, which the artifact format "
                            "cannot store", bad);
      break;
    }
    char *attrs = cJSON_GetArraySize(n->attrs) ? cJSON_PrintUnformatted(n->attrs) : NULL;
    st = (n->shape_node ? wnn_builder_add_shape_node : wnn_builder_add_node)(
        b, n->op_type, n->name[0] ? n->name : NULL, ins, n->num_inputs, attrs, n->num_outputs,
        outs);
    cJSON_free(attrs);
    if (st) {
      wnn_ir_node_fail(g, n, st, wnn_status_is_unsupported(st), "%s", wnn_last_error());
      break;
    }
    for (int k = 0; k < n->num_outputs && !st; k++) {
      const int v = n->outputs[k];
      if (v < 0) continue;
      map[v] = outs[k];
      /* Intermediates keep their source names (debug executors read them by
       * name); graph outputs are named by add_output below. */
      if (g->values[v].name[0] && !is_graph_output(g, v)) {
        if ((st = wnn_builder_set_value_name(b, outs[k], g->values[v].name)))
          wnn_ir_node_fail(g, n, st, false, "%s", wnn_last_error());
        else map_value(&mo, g, outs[k], v, false);
      }
    }
    if (st) break;
    map_node(&mo, g, nodes, n, n->op_type, NULL);
    if (n->num_guards) {
      int gv[WNN_MAX_GUARDS], ge[WNN_MAX_GUARDS];
      for (int k = 0; !st && k < n->num_guards; k++) {
        int v = n->guards[k];
        if (map[v] < 0 && g->values[v].data) st = param(g, b, v, map, &mo);
        else if (map[v] < 0)
          st = wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "guard '%s' has no producer",
                                g->values[v].name);
        gv[k] = map[v];
        ge[k] = n->guard_expect[k];
      }
      if (st) break;
      st = wnn_builder_set_node_guards(b, nodes, n->num_guards, gv, ge);
      if (st) {
        wnn_ir_node_fail(g, n, st, false, "%s", wnn_last_error());
        break;
      }
    }
    nodes++;
  }
  for (int k = 0; !st && k < g->num_outputs; k++) {
    int v = g->outputs[k];
    const wnn_ir_value *x = &g->values[v];
    if (map[v] < 0 && x->data && x->dyn_data)
      st = wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true,
                       "graph output '%s' depends on the model's dynamic dims but was frozen to "
                       "its value at the defaults: fix the dims with --shape", x->name);
    else if (map[v] < 0 && x->data) st = param(g, b, v, map, &mo);
    if (st) break;
    if (map[v] < 0) {
      st = wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "graph output '%s' is never computed", x->name);
      break;
    }
    /* A float16 or float64 graph output: a Cast from the float32 value (or
     * the graph input itself, when the output is one of that dtype). */
    int out = map[v];
    const wnn_dtype io = x->io_dtype;
    if ((io == WNN_DTYPE_F16 || io == WNN_DTYPE_F64) && io_in[v] >= 0 && x->is_input) {
      out = io_in[v];
    } else if (io == WNN_DTYPE_F16 || io == WNN_DTYPE_F64) {
      if (x->dtype != WNN_DTYPE_F32) {
        st = wnn_ir_fail(g, WNN_ERR_DTYPE, false,
                         "graph output '%s' is declared %s, but the model computes it as %s",
                         x->name, wnn_dtype_name(io), wnn_dtype_name(x->dtype));
        break;
      }
      st = wnn_builder_add_node(b, "Cast", NULL, &map[v], 1,
                                io == WNN_DTYPE_F16 ? "{\"to\":10}" : "{\"to\":11}", 1, &out);
      if (st) {
        wnn_ir_fail(g, st, false, "graph output '%s': Cast to %s: %s", x->name, wnn_dtype_name(io),
                    wnn_last_error());
        break;
      }
      char why[300];
      snprintf(why, sizeof why, "%s graph output '%.250s' from float32", wnn_dtype_name(io),
               x->name);
      map_node(&mo, g, nodes, NULL, "Cast", why);
      nodes++;
    }
    st = wnn_builder_add_output(b, out, x->name);
    if (st)
      wnn_ir_fail(g, st, wnn_status_is_unsupported(st), "graph output '%s': %s", x->name,
                  wnn_last_error());
  }
  void *data = NULL, *pdata = NULL;
  size_t n = 0, pn = 0;
  if (!st) {
    st = params ? wnn_builder_finish_with_params(b, &data, &n, &pdata, &pn)
                : wnn_builder_finish(b, &data, &n);
    if (st) wnn_ir_fail(g, st, wnn_status_is_unsupported(st), "%s", wnn_last_error());
  }
  if (!st) {
    *artifact = malloc(n ? n : 1);
    void *pcopy = params ? malloc(pn ? pn : 1) : NULL;
    if (!*artifact || (params && !pcopy)) {
      free(*artifact), free(pcopy);
      *artifact = NULL;
      st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
    } else {
      memcpy(*artifact, data, n);
      *size = n;
      if (params) memcpy(pcopy, pdata, pn), *params = pcopy, *params_size = pn;
      *num_nodes = nodes;
    }
  }
  if (!st && map_tree && (!mo.root || mo.oom || g->src_oom))
    st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory writing the map");
  if (!st && mo.root) {
    *map_tree = mo.root;
    mo.root = NULL;
  }
  cJSON_Delete(mo.root);
  if (data) wnn_builder_free_artifact(b, data, n);
  if (pdata) wnn_builder_free_artifact(b, pdata, pn);
  wnn_builder_free(b);
  free(map);
  free(io_in);
  return st;
}
