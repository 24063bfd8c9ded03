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
 * are. A constant the node alone reads is changed in place; one that other
 * nodes read too gets a flushed copy. */
#include <float.h>
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

/* The input slots of node n that are multiply-accumulate weights. */
static int weight_slots(const wnn_ir_node *n, int slots[2]) {
  if (!strcmp(n->op_type, "Conv") || !strcmp(n->op_type, "ConvTranspose")) {
    slots[0] = 1;
    return 1;
  }
  if (!strcmp(n->op_type, "MatMul") || !strcmp(n->op_type, "Gemm")) {
    slots[0] = 0, slots[1] = 1;
    return 2;
  }
  return 0;
}

wnn_status wnn_pass_flush_subnormals(wnn_ir_graph *g) {
  wnn_ir_count_readers(g);
  for (int id = 0; id < g->num_nodes; id++) {
    if (g->nodes[id].dead || (g->nodes[id].domain && g->nodes[id].domain[0])) continue;
    int slots[2];
    const int ns = weight_slots(&g->nodes[id], slots);
    for (int s = 0; s < ns; s++) {
      const int k = slots[s];
      if (k >= g->nodes[id].num_inputs) continue;
      const int v = g->nodes[id].inputs[k];
      if (v < 0) continue;
      const wnn_ir_value *wv = &g->values[v];
      if (!wv->data || wv->dtype != WNN_DTYPE_F32 || !wv->known) continue;
      const int64_t n = wnn_ir_numel(wv);
      const int64_t c = count_subnormal(wv->data, n);
      if (!c) continue;
      int target = v;
      if (wv->readers > 1) {
        /* Others read it too: this node gets a flushed copy. */
        int64_t dims[WNN_MAX_DIMS];
        const int ndim = wv->ndim;
        memcpy(dims, wv->dims, sizeof dims);
        wnn_status st = wnn_ir_add_const(g, NULL, WNN_DTYPE_F32, ndim, dims, g->values[v].data, &target);
        if (st) return st;
        wnn_ir_value_from_value(g, target, v);
        g->nodes[id].inputs[k] = target;
        g->values[v].readers--;
        g->values[target].readers = 1;
      }
      wnn_flush_subnormal_f32(g, g->values[target].data, n);
    }
  }
  return WNN_OK;
}
