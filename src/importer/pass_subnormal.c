/* Subnormal weights set to zero (passes.h; docs/importer.md, "Subnormal
 * weights").
 *
 * A float32 below FLT_MIN in magnitude (a subnormal, other than 0) makes
 * every multiplication it enters, and every sum of such products, slow on
 * x86-64: the CPU finishes each one in microcode, dozens to hundreds of
 * cycles instead of one, and WebAssembly has no flush-to-zero mode to turn
 * that off. Some exported models are full of them (PP-OCRv3's recognizer:
 * 788,843 in its Conv weights, of 2.2 M; one 512 x 512 1x1 convolution
 * took 111 ms instead of 11). So the float32 weights of the multiply-accumulate ops
 * (Conv's and ConvTranspose's W, MatMul's and Gemm's constant operands) are
 * written with those values set to zero, of the same sign. Each output then
 * moves by at most FLT_MIN times the sum of |x| over the terms that had one,
 * far below the rounding of any output that is not itself that small.
 * BatchNormalization folding does the same to the weights before it scales
 * them (pass_bn.c): scaled, a subnormal weight becomes a tiny normal one
 * (1e-45 times 1e20), whose products with the activations are subnormal
 * all the same. This is what a CPU in denormals-are-zero mode (onnxruntime's
 * session.set_denormal_as_zero) computes for those weights.
 * --keep-subnormals (wnn_import_options.keep_subnormals) leaves them as they
 * are. A constant only weight slots read is changed in place; one that other
 * nodes (or the graph's outputs) read too gets one flushed copy, which all
 * its weight slots then read. */
#include <float.h>
#include <stdbool.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "importer/passes.h"

static int64_t count_subnormal(const float *w, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; i++) c += w[i] != 0.0f && fabsf(w[i]) < FLT_MIN;
  return c;
}

void wnn_flush_subnormal_f32(wnn_ir_graph *g, float *w, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; i++)
    if (w[i] != 0.0f && fabsf(w[i]) < FLT_MIN) w[i] = copysignf(0.0f, w[i]), c++;
  if (c) g->subnormal_tensors++, g->subnormal_values += c;
}

/* Whether input slot k of node n is a multiply-accumulate weight. */
static bool is_weight_slot(const wnn_ir_node *n, int k) {
  if (n->dead || (n->domain && n->domain[0]) || k >= n->num_inputs) return false;
  if (!strcmp(n->op_type, "Conv") || !strcmp(n->op_type, "ConvTranspose")) return k == 1;
  return (k == 0 || k == 1) && (!strcmp(n->op_type, "MatMul") || !strcmp(n->op_type, "Gemm"));
}

wnn_status wnn_pass_flush_subnormals(wnn_ir_graph *g) {
  wnn_ir_count_readers(g);
  /* How many weight slots read each value (0: not a weight). */
  const int num_values = g->num_values;
  int *weight_reads = calloc(num_values ? (size_t)num_values : 1, sizeof *weight_reads);
  if (!weight_reads) return WNN_ERR_OUT_OF_MEMORY;
  for (int id = 0; id < g->num_nodes; id++)
    for (int k = 0; k < g->nodes[id].num_inputs; k++)
      if (g->nodes[id].inputs[k] >= 0 && is_weight_slot(&g->nodes[id], k))
        weight_reads[g->nodes[id].inputs[k]]++;
  wnn_status st = WNN_OK;
  for (int v = 0; v < num_values && !st; v++) {
    const wnn_ir_value *wv = &g->values[v];
    if (!weight_reads[v] || !wv->data || wv->dtype != WNN_DTYPE_F32 || !wv->known) continue;
    const int64_t n = wnn_ir_numel(wv);
    if (!count_subnormal(wv->data, n)) continue;
    int target = v;
    if (weight_reads[v] < wv->readers) {
      /* Other nodes (or the graph's outputs) read it too: the weight slots
       * get one flushed copy, the others keep the values. */
      int64_t dims[WNN_MAX_DIMS];
      const int ndim = wv->ndim;
      memcpy(dims, wv->dims, sizeof dims);
      if ((st = wnn_ir_add_const(g, NULL, WNN_DTYPE_F32, ndim, dims, wv->data, &target))) break;
      wnn_ir_value_from_value(g, target, v);
      for (int id = 0; id < g->num_nodes; id++)
        for (int k = 0; k < g->nodes[id].num_inputs; k++)
          if (g->nodes[id].inputs[k] == v && is_weight_slot(&g->nodes[id], k))
            g->nodes[id].inputs[k] = target;
      g->values[v].readers -= weight_reads[v];
      g->values[target].readers = weight_reads[v];
    }
    wnn_flush_subnormal_f32(g, g->values[target].data, n);
  }
  free(weight_reads);
  return st;
}
