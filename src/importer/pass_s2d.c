/* Space-to-depth folded into the convolution after it (passes.h).
 *
 * YOLOv5's and YOLOX's "Focus" stem takes the four 2x2 phases of the image,
 * x[:, :, dy::2, dx::2] for (dy, dx) in {0, 1}^2, concatenates them on the
 * channels and convolves the result. With the phases in concat order k, C
 * channels each, a K_h x K_w kernel W, stride s and pads p, output (i, j)
 * reads phase row i*s + u - p_t for tap u, which is image row
 * 2*(i*s + u - p_t) + dy. So the same sum is one convolution of the image
 * itself with the 2K_h x 2K_w kernel
 *
 *   W'[o][c][2u + dy][2v + dx] = W[o][k(dy, dx) * C + c][u][v],
 *
 * stride 2s and pads 2p: a phase row outside [0, H/2) is exactly an image row
 * outside [0, H) when H is even, so the zero padding agrees, and the output
 * size is the same. The multiply-adds are the same too; what goes away is
 * the eight Slice copies, the Concat copy and the Concat's buffer, which at
 * YOLOX's first layer is live next to the image and the convolution's
 * output (docs/importer.md). */
#include <cjson/cJSON.h>
#include <string.h>

#include "importer/passes.h"

static bool is_op(const wnn_ir_node *n, const char *op) {
  return !n->dead && !n->domain[0] && !strcmp(n->op_type, op);
}

/* Element k of an integer constant (int64 or int32), into *out. */
static bool const_int(const wnn_ir_value *v, int64_t k, int64_t *out) {
  if (!v->data || k >= wnn_ir_numel(v)) return false;
  if (v->dtype == WNN_DTYPE_I64) *out = ((const int64_t *)v->data)[k];
  else if (v->dtype == WNN_DTYPE_I32) *out = ((const int32_t *)v->data)[k];
  else return false;
  return true;
}

/* A constant 1-D integer input k of n (absent: NULL). */
static const wnn_ir_value *int_input(const wnn_ir_graph *g, const wnn_ir_node *n, int k) {
  if (k >= n->num_inputs || n->inputs[k] < 0) return NULL;
  return &g->values[n->inputs[k]];
}

/* Follows the Slice chain that ends in value v back to its source: on
 * success *src is the 4-D value sliced, and dy, dx the start rows and
 * columns of a step-2 slice of its last two axes, the first two axes taken
 * whole. */
static bool phase_of(const wnn_ir_graph *g, int v, const wnn_ir_node *conv, int *src, int *dy,
                     int *dx) {
  int start[4] = {-1, -1, -1, -1};
  while (g->values[v].producer >= 0) {
    const wnn_ir_node *s = &g->nodes[g->values[v].producer];
    if (!is_op(s, "Slice") || s->num_outputs != 1 || s->inputs[0] < 0 ||
        !wnn_ir_same_guards(s, conv))
      return false;
    const wnn_ir_value *x = &g->values[s->inputs[0]];
    /* (Its spatial dims must be even: unknown when they change at run time.) */
    if (!x->known || x->ndim != 4 || x->dyn_shape) return false;
    const wnn_ir_value *starts = int_input(g, s, 1), *ends = int_input(g, s, 2),
                       *axes = int_input(g, s, 3), *steps = int_input(g, s, 4);
    if (!starts || !ends || !starts->data || !ends->data) return false;
    if ((axes && !axes->data) || (steps && !steps->data)) return false;
    int64_t count = wnn_ir_numel(starts);
    if (wnn_ir_numel(ends) != count || (axes && wnn_ir_numel(axes) != count) ||
        (steps && wnn_ir_numel(steps) != count))
      return false;
    for (int64_t k = 0; k < count; k++) {
      int64_t axis = k, b, e, step = 1;
      if (!const_int(starts, k, &b) || !const_int(ends, k, &e)) return false;
      if (axes && !const_int(axes, k, &axis)) return false;
      if (steps && !const_int(steps, k, &step)) return false;
      if (axis < 0) axis += 4;
      if (axis < 0 || axis > 3) return false;
      int64_t dim = x->dims[axis];
      if (b < 0) b += dim;
      if (axis < 2) { /* taken whole */
        if (b != 0 || step != 1 || e < dim) return false;
        continue;
      }
      if (start[axis] >= 0 || step != 2 || (b != 0 && b != 1) || e < dim || dim % 2) return false;
      start[axis] = (int)b;
    }
    v = s->inputs[0];
  }
  if (start[2] < 0 || start[3] < 0) return false;
  *src = v;
  *dy = start[2];
  *dx = start[3];
  return true;
}

/* A Conv attribute list of `count` ints (absent: all dflt). */
static bool conv_ints(const wnn_ir_node *n, const char *name, int count, int64_t dflt,
                      int64_t *out) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(n->attrs, name);
  for (int k = 0; k < count; k++) out[k] = dflt;
  if (!a) return true;
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != count) return false;
  for (int k = 0; k < count; k++) {
    const cJSON *e = cJSON_GetArrayItem(a, k);
    if (!cJSON_IsNumber(e)) return false;
    out[k] = wnn_ir_json_int(e, 0);
  }
  return true;
}

static bool set_ints(cJSON *attrs, const char *name, int count, const int64_t *v) {
  cJSON *list = cJSON_CreateArray();
  for (int k = 0; list && k < count; k++) {
    if (!cJSON_AddItemToArray(list, cJSON_CreateNumber((double)v[k]))) {
      cJSON_Delete(list);
      return false;
    }
  }
  if (!list) return false;
  if (cJSON_GetObjectItemCaseSensitive(attrs, name)) return cJSON_ReplaceItemInObjectCaseSensitive(attrs, name, list);
  return cJSON_AddItemToObject(attrs, name, list);
}

/* Rewrites Conv node id when its input is a Concat of the four phases of one
 * image; *done says whether it did. */
static wnn_status fold_one(wnn_ir_graph *g, int id, bool *done) {
  *done = false;
  const wnn_ir_node *conv = &g->nodes[id];
  if (!is_op(conv, "Conv") || conv->num_inputs < 2 || conv->inputs[0] < 0 || conv->inputs[1] < 0)
    return WNN_OK;
  const wnn_ir_value *y = &g->values[conv->inputs[0]], *w = &g->values[conv->inputs[1]];
  if (!y->known || y->ndim != 4 || y->producer < 0 || y->readers != 1 || !w->data ||
      w->dtype != WNN_DTYPE_F32 || w->ndim != 4)
    return WNN_OK;
  const cJSON *auto_pad = cJSON_GetObjectItemCaseSensitive(conv->attrs, "auto_pad");
  if (auto_pad && !(cJSON_IsString(auto_pad) && !strcmp(auto_pad->valuestring, "NOTSET")))
    return WNN_OK;
  int64_t group, dil[2], strides[2], pads[4], kernel[2];
  const cJSON *ga = cJSON_GetObjectItemCaseSensitive(conv->attrs, "group");
  group = wnn_ir_json_int(ga, 1);
  if (group != 1 || !conv_ints(conv, "dilations", 2, 1, dil) || dil[0] != 1 || dil[1] != 1 ||
      !conv_ints(conv, "strides", 2, 1, strides) || !conv_ints(conv, "pads", 4, 0, pads) ||
      !conv_ints(conv, "kernel_shape", 2, 0, kernel))
    return WNN_OK;
  if (cJSON_GetObjectItemCaseSensitive(conv->attrs, "kernel_shape") &&
      (kernel[0] != w->dims[2] || kernel[1] != w->dims[3]))
    return WNN_OK;

  const wnn_ir_node *cat = &g->nodes[y->producer];
  if (!is_op(cat, "Concat") || cat->num_inputs != 4 || cat->num_outputs != 1 ||
      !wnn_ir_same_guards(cat, conv))
    return WNN_OK;
  const cJSON *axis = cJSON_GetObjectItemCaseSensitive(cat->attrs, "axis");
  if (!cJSON_IsNumber(axis) || (axis->valuedouble != 1 && axis->valuedouble != -3)) return WNN_OK;
  int src = -1, phase[4];
  bool seen[4] = {false};
  for (int k = 0; k < 4; k++) {
    int s, dy, dx;
    if (cat->inputs[k] < 0 || !phase_of(g, cat->inputs[k], conv, &s, &dy, &dx)) return WNN_OK;
    if ((src >= 0 && s != src) || seen[dy * 2 + dx]) return WNN_OK;
    src = s;
    seen[dy * 2 + dx] = true;
    phase[k] = dy * 2 + dx;
  }
  const wnn_ir_value *x = &g->values[src];
  if (x->dtype != WNN_DTYPE_F32 || !x->known) return WNN_OK;
  const int64_t c = x->dims[1], m = w->dims[0], kh = w->dims[2], kw = w->dims[3];
  if (w->dims[1] != 4 * c) return WNN_OK;

  /* W'[o][ch][2u + dy][2v + dx] = W[o][k * C + ch][u][v]. */
  const int64_t wd[4] = {m, c, 2 * kh, 2 * kw};
  int w_new;
  wnn_status st = wnn_ir_add_const(g, NULL, WNN_DTYPE_F32, 4, wd, NULL, &w_new);
  if (st) return st;
  conv = &g->nodes[id]; /* adding a value may have moved the arrays */
  const float *wo = g->values[conv->inputs[1]].data;
  float *wn = g->values[w_new].data;
  for (int64_t o = 0; o < m; o++)
    for (int k = 0; k < 4; k++)
      for (int64_t ch = 0; ch < c; ch++)
        for (int64_t u = 0; u < kh; u++)
          for (int64_t v = 0; v < kw; v++) {
            const int64_t r = 2 * u + phase[k] / 2, q = 2 * v + phase[k] % 2;
            wn[((o * c + ch) * 2 * kh + r) * 2 * kw + q] =
                wo[((o * 4 * c + k * c + ch) * kh + u) * kw + v];
          }
  const int64_t k2[2] = {2 * kh, 2 * kw}, s2[2] = {2 * strides[0], 2 * strides[1]},
                p2[4] = {2 * pads[0], 2 * pads[1], 2 * pads[2], 2 * pads[3]};
  wnn_ir_node *n = &g->nodes[id];
  if (!set_ints(n->attrs, "kernel_shape", 2, k2) || !set_ints(n->attrs, "strides", 2, s2) ||
      !set_ints(n->attrs, "pads", 4, p2))
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory folding a space-to-depth");
  /* Provenance: the Conv computes the Concat and the Slices now. */
  const int cat_id = g->values[n->inputs[0]].producer;
  wnn_ir_node_absorb(g, id, cat_id);
  for (int k = 0; k < g->nodes[cat_id].num_inputs; k++)
    for (int v = g->nodes[cat_id].inputs[k]; v >= 0 && v != src && g->values[v].producer >= 0;
         v = g->nodes[g->values[v].producer].inputs[0])
      wnn_ir_node_absorb(g, id, g->values[v].producer);
  wnn_ir_value_from_value(g, w_new, n->inputs[1]);
  g->values[n->inputs[0]].readers--;
  g->values[src].readers++;
  g->values[n->inputs[1]].readers--;
  g->values[w_new].readers++;
  n->inputs[0] = src;
  n->inputs[1] = w_new;
  *done = true;
  return WNN_OK;
}

wnn_status wnn_pass_s2d_conv(wnn_ir_graph *g, int *folded) {
  int count = 0;
  wnn_ir_count_readers(g);
  for (int i = 0; i < g->num_nodes; i++) {
    bool done;
    wnn_status st = fold_one(g, i, &done);
    if (st) return st;
    count += done;
  }
  if (folded) *folded = count;
  return WNN_OK;
}
