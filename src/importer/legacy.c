/* Older-opset forms -> the runtime's form (legacy.h). */
#include "importer/legacy.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is(const wnn_ir_node *n, const char *op) { return strcmp(n->op_type, op) == 0; }

static cJSON *attr(const wnn_ir_node *n, const char *name) {
  return cJSON_GetObjectItemCaseSensitive(n->attrs, name);
}

static void drop_attr(wnn_ir_node *n, const char *name) {
  cJSON_DeleteItemFromObjectCaseSensitive(n->attrs, name);
}

static wnn_status rename_op(wnn_ir_graph *g, wnn_ir_node *n, const char *op) {
  size_t len = strlen(op) + 1;
  char *s = realloc(n->op_type, len);
  if (!s) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  memcpy(s, op, len);
  n->op_type = s;
  return WNN_OK;
}

/* Sets input slot of node id to a new constant (growing the input list with
 * omitted inputs as needed). */
static wnn_status set_const_input(wnn_ir_graph *g, int id, int slot, wnn_dtype dtype, int ndim,
                                  const int64_t *dims, const void *data) {
  if (slot >= WNN_MAX_IO) return wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true, "too many inputs");
  int v;
  wnn_status st = wnn_ir_add_const(g, NULL, dtype, ndim, dims, data, &v);
  if (st) return st;
  wnn_ir_node *n = &g->nodes[id];
  while (n->num_inputs <= slot) n->inputs[n->num_inputs++] = -1;
  n->inputs[slot] = v;
  return WNN_OK;
}

/* Moves an ints attribute to a constant int64 input at slot (when present). */
static wnn_status ints_to_input(wnn_ir_graph *g, int id, const char *name, int slot) {
  wnn_ir_node *n = &g->nodes[id];
  cJSON *a = attr(n, name);
  if (!a) return WNN_OK;
  if (!cJSON_IsArray(a))
    return wnn_ir_node_fail(g, n, WNN_ERR_BAD_ATTRIBUTE, false, "attribute '%s' is not a list of ints", name);
  int count = cJSON_GetArraySize(a);
  int64_t vals[64];
  if (count > 64)
    return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true, "attribute '%s' has %d values", name, count);
  int k = 0;
  const cJSON *item;
  cJSON_ArrayForEach(item, a) {
    /* JSON numbers are doubles: INT64_MAX (Slice's "to the end") rounds up. */
    double d = item->valuedouble;
    vals[k++] = d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : (int64_t)d;
  }
  int64_t dim = count;
  if (n->num_inputs > slot && n->inputs[slot] >= 0)
    return wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "has both attribute '%s' and input %d",
                            name, slot);
  wnn_status st = set_const_input(g, id, slot, WNN_DTYPE_I64, 1, &dim, vals);
  if (!st) drop_attr(&g->nodes[id], name);
  return st;
}

static wnn_status float_to_input(wnn_ir_graph *g, int id, const char *name, int slot) {
  cJSON *a = attr(&g->nodes[id], name);
  if (!a) return WNN_OK;
  float f = (float)a->valuedouble;
  wnn_status st = set_const_input(g, id, slot, WNN_DTYPE_F32, 0, NULL, &f);
  if (!st) drop_attr(&g->nodes[id], name);
  return st;
}

static bool is_reduce(const wnn_ir_node *n) { return strncmp(n->op_type, "Reduce", 6) == 0; }

/* ONNX's data type numbers from the old string form of Cast's "to". */
static int cast_type(const char *s) {
  static const struct { const char *name; int type; } types[] = {
      {"FLOAT", 1}, {"UINT8", 2}, {"INT8", 3},   {"UINT16", 4}, {"INT16", 5},  {"INT32", 6},
      {"INT64", 7}, {"STRING", 8}, {"BOOL", 9},  {"FLOAT16", 10}, {"DOUBLE", 11}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (!strcmp(types[i].name, s)) return types[i].type;
  return -1;
}

/* Opsets 23 and 24 added attributes whose defaults keep the older meaning
 * (docs/importer.md, "Opsets"): dropped at their defaults, refused
 * otherwise. QuantizeLinear's precision (the type of the division: 0, the
 * scale's, or 1, float, which is the same for wnn's float32 scales),
 * DequantizeLinear's output_dtype (0, the scale's type, or 1, float), and
 * Cast's round_mode (it only changes casts to float8e8m0, which wnn does not
 * have). */
static wnn_status rewrite_23(wnn_ir_graph *g, wnn_ir_node *n) {
  const char *name = is(n, "QuantizeLinear")     ? "precision"
                     : is(n, "DequantizeLinear") ? "output_dtype"
                     : is(n, "Cast") || is(n, "CastLike") ? "round_mode"
                                                          : NULL;
  const cJSON *a = name ? attr(n, name) : NULL;
  if (!a) return WNN_OK;
  if (cJSON_IsString(a)) {
    if (strcmp(a->valuestring, "up") && strcmp(a->valuestring, "down") &&
        strcmp(a->valuestring, "nearest"))
      return wnn_ir_node_fail(g, n, WNN_ERR_BAD_ATTRIBUTE, false, "attribute '%s' is '%s'", name,
                              a->valuestring);
  } else if (!cJSON_IsNumber(a) || (a->valuedouble != 0 && a->valuedouble != 1)) {
    return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                            "attribute '%s' = %g is not supported (0 or 1, float)", name,
                            cJSON_IsNumber(a) ? a->valuedouble : -1.0);
  }
  drop_attr(n, name);
  return WNN_OK;
}

/* Opsets 1 to 6: what changed meaning by opset 7 is translated or refused;
 * "consumed_inputs" (a memory hint) is dropped. */
static wnn_status rewrite_before_7(wnn_ir_graph *g, wnn_ir_node *n) {
  drop_attr(n, "consumed_inputs");
  static const char *const binary[] = {"Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor",
                                       "Equal", "Greater", "Less", NULL};
  for (const char *const *b = binary; *b; b++)
    if (is(n, *b)) {
      cJSON *bc = attr(n, "broadcast");
      if (bc && bc->valuedouble != 0)
        return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                                "the opset-%d broadcast attribute is not supported", g->opset);
      drop_attr(n, "broadcast");
      drop_attr(n, "axis");
    }
  if (is(n, "Tile") && g->opset < 6)
    return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true, "Tile before opset 6 is not supported");
  if ((is(n, "Upsample") && (attr(n, "height_scale") || attr(n, "width_scale"))) ||
      (is(n, "Pad") && attr(n, "paddings")))
    return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true, "its opset-1 form is not supported");
  if (is(n, "Concat") && !attr(n, "axis") && !cJSON_AddNumberToObject(n->attrs, "axis", 1))
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  return WNN_OK;
}

wnn_status wnn_legacy_rewrite(wnn_ir_graph *g, int id) {
  wnn_ir_node *n = &g->nodes[id];
  int opset = g->opset;
  wnn_status st = WNN_OK;
  if (opset < 7 && (st = rewrite_before_7(g, n))) return st;
  if (is(n, "Reshape") && opset < 5) {
    st = ints_to_input(g, id, "shape", 1);
  } else if ((is(n, "Squeeze") || is(n, "Unsqueeze")) && opset < 13) {
    st = ints_to_input(g, id, "axes", 1);
  } else if (is_reduce(n) && (opset < 18 && !(is(n, "ReduceSum") && opset >= 13))) {
    st = ints_to_input(g, id, "axes", 1);
  } else if (is(n, "Split") && opset < 13) {
    st = ints_to_input(g, id, "split", 1);
  } else if (is(n, "Slice") && opset < 10) {
    if (!(st = ints_to_input(g, id, "starts", 1)) && !(st = ints_to_input(g, id, "ends", 2)))
      st = ints_to_input(g, id, "axes", 3);
  } else if (is(n, "Pad") && opset < 11) {
    st = ints_to_input(g, id, "pads", 1);
    if (!st && !attr(&g->nodes[id], "value")) {
      float zero = 0.0f;
      st = set_const_input(g, id, 2, WNN_DTYPE_F32, 0, NULL, &zero);
    }
    if (!st) st = float_to_input(g, id, "value", 2);
  } else if (is(n, "Clip") && opset < 11) {
    if (attr(n, "min") || attr(n, "max")) {
      float lo = attr(n, "min") ? (float)attr(n, "min")->valuedouble : -FLT_MAX;
      float hi = attr(n, "max") ? (float)attr(n, "max")->valuedouble : FLT_MAX;
      drop_attr(n, "min");
      drop_attr(n, "max");
      if (!(st = set_const_input(g, id, 1, WNN_DTYPE_F32, 0, NULL, &lo)))
        st = set_const_input(g, id, 2, WNN_DTYPE_F32, 0, NULL, &hi);
    }
  } else if (is(n, "Upsample") || (is(n, "Resize") && opset < 11)) {
    /* Upsample (7-9) and Resize-10: scales, asymmetric coordinates, nearest
     * rounding down. */
    cJSON *mode = attr(n, "mode");
    const char *m = cJSON_IsString(mode) ? mode->valuestring : "nearest";
    if (strcmp(m, "nearest") && strcmp(m, "linear") && strcmp(m, "bilinear"))
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true, "mode '%s' is not supported", m);
    bool linear = strcmp(m, "nearest") != 0;
    cJSON *scales = attr(n, "scales");
    int64_t count = 0;
    float s[WNN_MAX_DIMS];
    if (scales) {
      const cJSON *item;
      cJSON_ArrayForEach(item, scales) {
        if (count < WNN_MAX_DIMS) s[count] = (float)item->valuedouble;
        count++;
      }
      if (count > WNN_MAX_DIMS)
        return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true, "%lld scales", (long long)count);
    }
    int x = n->inputs[0], scale_in = n->num_inputs > 1 ? n->inputs[1] : -1;
    cJSON *attrs = cJSON_CreateObject();
    if (!attrs) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
    cJSON_AddStringToObject(attrs, "mode", linear ? "linear" : "nearest");
    cJSON_AddStringToObject(attrs, "coordinate_transformation_mode", "asymmetric");
    if (!linear) cJSON_AddStringToObject(attrs, "nearest_mode", "floor");
    cJSON_Delete(n->attrs);
    n->attrs = attrs;
    if ((st = rename_op(g, n, "Resize"))) return st;
    n->num_inputs = 1;
    n->inputs[0] = x;
    if (scales) {
      st = set_const_input(g, id, 2, WNN_DTYPE_F32, 1, &count, s);
    } else {
      n->inputs[n->num_inputs++] = -1;
      n->inputs[n->num_inputs++] = scale_in;
    }
  } else if (is(n, "BatchNormalization") && opset >= 14 && attr(n, "training_mode") &&
             attr(n, "training_mode")->valuedouble != 0) {
    /* Training mode (opset 14+): batch statistics and the running mean and
     * variance as outputs 1 and 2; the runtime op computes them. */
  } else if (is(n, "BatchNormalization")) {
    cJSON *spatial = attr(n, "spatial"), *train = attr(n, "training_mode");
    if (spatial && spatial->valuedouble == 0)
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true, "spatial=0 is not supported");
    if (train && train->valuedouble != 0)
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                              "training_mode=1 before opset 14 is not supported");
    drop_attr(n, "spatial");
    drop_attr(n, "momentum");
    drop_attr(n, "is_test");
    drop_attr(n, "consumed_inputs");
    drop_attr(n, "training_mode");
    n->num_outputs = 1; /* the training outputs; reading one fails at inference */
  } else if (is(n, "Gemm")) {
    drop_attr(n, "broadcast");
  } else if (is(n, "Cast")) {
    cJSON *to = attr(n, "to");
    if (cJSON_IsString(to)) {
      int t = cast_type(to->valuestring);
      if (t < 0)
        return wnn_ir_node_fail(g, n, WNN_ERR_BAD_ATTRIBUTE, false, "'to' is '%s'", to->valuestring);
      cJSON_ReplaceItemInObjectCaseSensitive(n->attrs, "to", cJSON_CreateNumber(t));
      to = attr(n, "to");
    }
    /* float16 and double tensors are float32 here; the importer says so
     * (importer.c, warn_narrowed). */
    if (cJSON_IsNumber(to) && (to->valuedouble == 10 || to->valuedouble == 11)) {
      const int k = to->valuedouble == 11;
      if (n->num_outputs >= 1 && n->outputs[0] >= 0) {
        int *list = realloc(g->narrowed[k], (size_t)(g->num_narrowed[k] + 1) * sizeof *list);
        if (!list) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
        g->narrowed[k] = list;
        list[g->num_narrowed[k]++] = n->outputs[0];
      }
      cJSON_SetNumberValue(to, 1);
    }
  } else if (is(n, "TopK") && opset < 10) {
    cJSON *k = attr(n, "k");
    if (k) {
      int64_t kv = wnn_ir_json_int(k, 0), one = 1;
      drop_attr(n, "k");
      st = set_const_input(g, id, 1, WNN_DTYPE_I64, 1, &one, &kv);
    }
  } else if (is(n, "Scatter")) {
    st = rename_op(g, n, "ScatterElements");
  }
  if (!st && opset >= 23) st = rewrite_23(g, n);
  return st;
}

/* Dropout at inference: an Identity, and its mask (when asked for) a
 * constant of trues. Training mode with a non-zero ratio is random: refused. */
static wnn_status rewrite_dropout(wnn_ir_graph *g, int id) {
  wnn_ir_node *n = &g->nodes[id];
  n->rewritten = true;
  double ratio = 0.5;
  bool training = false;
  cJSON *r = attr(n, "ratio");
  if (cJSON_IsNumber(r)) ratio = r->valuedouble;
  if (n->num_inputs > 2 && n->inputs[2] >= 0) {
    const wnn_ir_value *v = &g->values[n->inputs[2]];
    char hint[400];
    if (!v->data && wnn_ir_const_hint(g, n->inputs[2], hint, sizeof hint) > 0)
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                              "input 2 (training_mode) must be a bool constant: it comes from %s",
                              hint);
    if (!v->data || v->dtype != WNN_DTYPE_BOOL || wnn_ir_numel(v) != 1)
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                              "input 2 (training_mode) must be a bool constant");
    training = *(const uint8_t *)v->data != 0;
  }
  cJSON *test = attr(n, "is_test");
  if (test && test->valuedouble == 0) training = true;
  /* The ratio matters in training mode only. */
  if (training && n->num_inputs > 1 && n->inputs[1] >= 0) {
    const wnn_ir_value *v = &g->values[n->inputs[1]];
    char hint[400];
    if (!v->data && wnn_ir_const_hint(g, n->inputs[1], hint, sizeof hint) > 0)
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                              "in training mode, input 1 (ratio) must be a float32 constant: it "
                              "comes from %s",
                              hint);
    if (!v->data || v->dtype != WNN_DTYPE_F32 || wnn_ir_numel(v) != 1)
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                              "in training mode, input 1 (ratio) must be a float32 constant");
    ratio = *(const float *)v->data;
  }
  if (training && ratio != 0.0)
    return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                            "training mode with ratio %g (random dropout) is not supported", ratio);
  if (n->num_outputs > 1) {
    const wnn_ir_value *x = &g->values[n->inputs[0]];
    int64_t dims[WNN_MAX_DIMS];
    int ndim = x->ndim;
    memcpy(dims, x->dims, sizeof dims);
    int mask = n->outputs[1];
    wnn_status st = wnn_ir_set_const(g, mask, WNN_DTYPE_BOOL, ndim, dims, NULL);
    if (st) return st;
    memset(g->values[mask].data, 1, g->values[mask].nbytes);
    g->values[mask].producer = -1;
    n = &g->nodes[id];
  }
  wnn_status st = rename_op(g, n, "Identity");
  if (st) return st;
  cJSON_Delete(n->attrs);
  n->attrs = cJSON_CreateObject();
  if (!n->attrs) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  n->num_inputs = 1;
  n->num_outputs = 1;
  return WNN_OK;
}

wnn_status wnn_legacy_rewrite_shaped(wnn_ir_graph *g, int id, int *inserted) {
  *inserted = 0;
  wnn_ir_node *n = &g->nodes[id];
  if (!n->rewritten && is(n, "Dropout") && n->num_inputs >= 1 && n->inputs[0] >= 0 &&
      g->values[n->inputs[0]].known)
    return rewrite_dropout(g, id);
  if (n->rewritten || g->opset >= 13 ||
      !(is(n, "Softmax") || is(n, "LogSoftmax") || is(n, "Hardmax")))
    return WNN_OK;
  n->rewritten = true;
  if (n->num_inputs < 1 || n->inputs[0] < 0 || n->num_outputs != 1) return WNN_OK;
  const wnn_ir_value *x = &g->values[n->inputs[0]];
  int rank = x->ndim;
  cJSON *a = attr(n, "axis");
  int64_t axis = wnn_ir_json_int(a, 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank || rank == 0)
    return wnn_ir_node_fail(g, n, WNN_ERR_BAD_ATTRIBUTE, false, "axis %lld for a rank-%d input",
                            (long long)wnn_ir_json_int(a, 1), rank);
  cJSON *one = cJSON_CreateNumber(axis == rank ? 0 : axis);
  if (!one) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  if (a) cJSON_ReplaceItemInObjectCaseSensitive(n->attrs, "axis", one);
  else cJSON_AddItemToObject(n->attrs, "axis", one);
  if (axis == rank - 1) return WNN_OK; /* already the last axis: the same as opset 13 */
  /* Reshape to [outer, inner], reduce over axis 1, reshape back. */
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < rank; d++) {
    if (d < axis) outer *= x->dims[d];
    else inner *= x->dims[d];
  }
  int64_t two = 2, flat[2] = {outer, inner}, back_dim = rank;
  int64_t back[WNN_MAX_DIMS];
  memcpy(back, x->dims, sizeof back);
  int flat_shape, back_shape, flat_v, soft_v, out = n->outputs[0], x_id = n->inputs[0];
  wnn_status st = wnn_ir_add_const(g, NULL, WNN_DTYPE_I64, 1, &two, flat, &flat_shape);
  if (!st) st = wnn_ir_add_const(g, NULL, WNN_DTYPE_I64, 1, &back_dim, back, &back_shape);
  if (!st) st = wnn_ir_add_value(g, NULL, &flat_v);
  if (!st) st = wnn_ir_add_value(g, NULL, &soft_v);
  if (st) return st;
  n = &g->nodes[id];
  cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(n->attrs, "axis"), 1);
  n->inputs[0] = flat_v;
  n->outputs[0] = soft_v;
  char name[300];
  snprintf(name, sizeof name, "%s/back", n->name);
  int index = n->index, ins[2] = {soft_v, back_shape};
  if ((st = wnn_ir_add_node(g, id + 1, "Reshape", "", name, index, ins, 2, &out, 1, NULL, NULL)))
    return st;
  wnn_ir_node_absorb(g, id + 1, id);
  n = &g->nodes[id];
  snprintf(name, sizeof name, "%s/flatten", n->name);
  ins[0] = x_id;
  ins[1] = flat_shape;
  if ((st = wnn_ir_add_node(g, id, "Reshape", "", name, index, ins, 2, &flat_v, 1, NULL, NULL)))
    return st;
  wnn_ir_node_absorb(g, id, id + 1); /* the Softmax is at id + 1 now */
  g->nodes[id].rewritten = true;
  *inserted = 1;
  return WNN_OK;
}
