/* BatchNormalization folded into the Conv or Gemm before it (passes.h).
 *
 *   s = scale / sqrt(var + epsilon)
 *   Conv: W'[m] = W[m] * s[m],             B'[m] = (B[m] - mean[m]) * s[m] + bias[m]
 *   Gemm: B' columns n scaled by s[n],      C'[n] = C[n] * s[n] + (bias[n] - mean[n] * s[n]) / beta
 * The folded weights are new constants: the originals may have other readers. */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "importer/passes.h"

static const float *const_f32(const wnn_ir_graph *g, const wnn_ir_node *n, int k, int64_t count) {
  if (k >= n->num_inputs || n->inputs[k] < 0) return NULL;
  const wnn_ir_value *v = &g->values[n->inputs[k]];
  if (!v->data || v->dtype != WNN_DTYPE_F32 || wnn_ir_numel(v) != count) return NULL;
  return (const float *)v->data;
}

static double num_attr(const wnn_ir_node *n, const char *name, double dflt) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(n->attrs, name);
  return cJSON_IsNumber(a) ? a->valuedouble : dflt;
}

wnn_status wnn_pass_bn_fold_node(wnn_ir_graph *g, int id, bool *folded) {
  *folded = false;
  wnn_ir_node *bn = &g->nodes[id];
  if (strcmp(bn->op_type, "BatchNormalization") || bn->num_inputs != 5 || bn->num_outputs != 1 ||
      bn->inputs[0] < 0 || num_attr(bn, "training_mode", 0) != 0)
    return WNN_OK;
  int x = bn->inputs[0];
  const wnn_ir_value *xv = &g->values[x];
  if (xv->producer < 0 || xv->readers != 1 || !xv->known || xv->dtype != WNN_DTYPE_F32 ||
      xv->ndim < 2)
    return WNN_OK;
  int pid = xv->producer;
  wnn_ir_node *p = &g->nodes[pid];
  if (p->dead || p->num_outputs != 1 || p->outputs[0] != x) return WNN_OK;
  bool conv = !strcmp(p->op_type, "Conv"), gemm = !strcmp(p->op_type, "Gemm");
  if (!conv && !gemm) return WNN_OK;
  if (cJSON_GetObjectItemCaseSensitive(p->attrs, "activation")) return WNN_OK;
  int64_t m = xv->dims[1];
  const float *scale = const_f32(g, bn, 1, m), *bias = const_f32(g, bn, 2, m),
              *mean = const_f32(g, bn, 3, m), *var = const_f32(g, bn, 4, m);
  if (!scale || !bias || !mean || !var || p->num_inputs < 2 || p->inputs[1] < 0) return WNN_OK;
  const wnn_ir_value *wv = &g->values[p->inputs[1]];
  if (!wv->data || wv->dtype != WNN_DTYPE_F32) return WNN_OK;
  double eps = num_attr(bn, "epsilon", 1e-5);
  bool trans_b = gemm && num_attr(p, "transB", 0) != 0;
  double beta = gemm ? num_attr(p, "beta", 1.0) : 1.0;
  if (gemm && (xv->ndim != 2 || wv->ndim != 2 || wv->dims[trans_b ? 0 : 1] != m)) return WNN_OK;
  if (conv && wv->dims[0] != m) return WNN_OK;
  const float *b_old = NULL;
  bool c_scalar = false;
  if (p->num_inputs > 2 && p->inputs[2] >= 0) {
    const wnn_ir_value *bv = &g->values[p->inputs[2]];
    if (!bv->data || bv->dtype != WNN_DTYPE_F32) return WNN_OK;
    int64_t cn = wnn_ir_numel(bv);
    if (cn == m && (bv->ndim == 1 || (bv->ndim == 2 && bv->dims[0] == 1))) b_old = bv->data;
    else if (cn == 1 && gemm) {
      b_old = bv->data;
      c_scalar = true;
    } else return WNN_OK;
  }
  if (gemm && b_old && beta == 0.0) b_old = NULL; /* beta 0: C does not count */

  /* New W and B. */
  int64_t wn = wnn_ir_numel(wv), w_rows = wv->dims[0];
  const wnn_ir_value xcopy = *xv;
  int w_new, b_new;
  int64_t w_dims[WNN_MAX_DIMS];
  int w_ndim = wv->ndim;
  const void *w_data = wv->data;
  memcpy(w_dims, wv->dims, sizeof w_dims);
  wnn_status st = wnn_ir_add_const(g, NULL, WNN_DTYPE_F32, w_ndim, w_dims, w_data, &w_new);
  if (!st) st = wnn_ir_add_const(g, NULL, WNN_DTYPE_F32, 1, &m, NULL, &b_new);
  if (st) return st;
  /* Pointers again: adding values may have moved the arrays. */
  bn = &g->nodes[id];
  p = &g->nodes[pid];
  scale = const_f32(g, bn, 1, m);
  bias = const_f32(g, bn, 2, m);
  mean = const_f32(g, bn, 3, m);
  var = const_f32(g, bn, 4, m);
  if (b_old) b_old = g->values[p->inputs[2]].data;
  float *w = g->values[w_new].data, *b = g->values[b_new].data;
  /* Subnormal weights are 0 before the scale multiplies them (as the layer
   * without the BN would have them: pass_subnormal.c): scaled up, they would
   * be tiny normal weights whose products with the activations are
   * subnormal, as slow, and out of the later pass's reach. */
  if (!g->keep_subnormals) wnn_flush_subnormal_f32(g, w, wn);
  int64_t per = wn / m, cols = g->values[w_new].dims[1];
  for (int64_t c = 0; c < m; c++) {
    float s = (float)(scale[c] / sqrt((double)var[c] + eps));
    if (conv || trans_b) {
      for (int64_t i = 0; i < per; i++) w[c * per + i] *= s;
    } else {
      for (int64_t r = 0; r < w_rows; r++) w[r * cols + c] *= s;
    }
    float old = b_old ? b_old[c_scalar ? 0 : c] : 0.0f;
    if (conv) b[c] = (old - mean[c]) * s + bias[c];
    else b[c] = old * s + (float)((bias[c] - mean[c] * s) / (b_old ? beta : 1.0));
  }
  /* Provenance: the layer computes the BN too; the new W and B come from
   * the old ones and the BN's four inputs. */
  wnn_ir_node_absorb(g, pid, id);
  wnn_ir_value_from_value(g, w_new, p->inputs[1]);
  if (b_old) wnn_ir_value_from_value(g, b_new, p->inputs[2]);
  for (int k = 1; k <= 4; k++) {
    wnn_ir_value_from_value(g, w_new, bn->inputs[k]);
    wnn_ir_value_from_value(g, b_new, bn->inputs[k]);
  }
  wnn_ir_value_from_node(g, w_new, id);
  wnn_ir_value_from_node(g, b_new, id);
  p->inputs[1] = w_new;
  if (p->num_inputs < 3) p->num_inputs = 3;
  p->inputs[2] = b_new;
  if (gemm && !b_old) {
    cJSON *bj = cJSON_GetObjectItemCaseSensitive(p->attrs, "beta");
    if (bj) cJSON_SetNumberValue(bj, 1.0);
  }
  /* The Conv now writes the BN's output. */
  int y = bn->outputs[0];
  p->outputs[0] = y;
  g->values[y].producer = pid;
  g->values[y].known = true;
  g->values[y].dtype = xcopy.dtype;
  g->values[y].ndim = xcopy.ndim;
  memcpy(g->values[y].dims, xcopy.dims, sizeof xcopy.dims);
  g->values[x].readers = 0;
  g->values[x].producer = -1;
  bn->dead = true;
  *folded = true;
  return WNN_OK;
}
