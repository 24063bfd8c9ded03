/*
 * The importer's passes over the graph (ir.h), each in its own file:
 *
 *   pass_infer.c  shape and dtype inference: the runtime op's own prepare
 *   pass_fold.c   constant folding: the runtime op's own prepare and run
 *   pass_bn.c     BatchNormalization folded into the Conv or Gemm before it
 *   pass_qdq.c    quantized patterns (QDQ, dynamic) to integer ops, packed weights
 *   pass_fuse.c   activation fusion into Conv and Gemm ("activation" attribute)
 *   pass_s2d.c    space-to-depth (YOLO's Focus) folded into the Conv after it
 *   pass_dce.c    dead-code elimination
 *   emit.c        the builder: the artifact
 *
 * importer.c runs them: one forward sweep over the nodes (legacy rewrites that
 * need shapes, BatchNormalization folding, inference, folding), then the
 * quantized rewrites, fusion, dead-code elimination and emission.
 */
#ifndef WNN_IMPORTER_PASSES_H
#define WNN_IMPORTER_PASSES_H

#include "importer/ir.h"
#include "wnn_builder.h"

/* Infers node id's output dtypes and shapes with the runtime op's prepare
 * (its inputs must be known); constant inputs are passed as constants, so
 * shape inputs (Reshape's shape, ...) are read. params (WNN_MAX_PARAMS bytes,
 * 16-byte aligned) and *scratch receive what prepare filled in; both may be
 * NULL. Fails, naming the node, when the runtime lacks the op or prepare
 * rejects the node; g->unsupported tells which kind of failure. */
wnn_status wnn_pass_infer_node(wnn_ir_graph *g, int id, void *params, size_t *scratch);

/* True when every present input of node id is a constant. */
bool wnn_pass_fold_can(const wnn_ir_graph *g, int id);
/* Evaluates node id (inferred with these params and scratch size) with the
 * runtime op's run on malloc'd buffers: its outputs become constants and the
 * node dies. Alias ops (no run) copy input 0's bytes. */
wnn_status wnn_pass_fold_node(wnn_ir_graph *g, int id, const void *params, size_t scratch);

/* When node id is a BatchNormalization whose input X comes from a live Conv
 * (or Gemm) with constant weights and no other reader, and every BN input is
 * a constant, rewrites that Conv's weights and bias, moves its output to the
 * BN's output and kills the BN. *folded says whether it did. */
wnn_status wnn_pass_bn_fold_node(wnn_ir_graph *g, int id, bool *folded);

/* Rewrites quantized patterns into integer ops (docs/quantization.md): QDQ
 * Conv [-> Relu | Clip] -> QLinearConv, QDQ MatMul and Gemm (no C) ->
 * QLinearMatMul with B packed, the dynamic quantization chain ->
 * DynamicQuantizeMatMul with B packed, and packs the constant B of
 * QLinearMatMul and DynamicQuantizeMatMul nodes. Runs after the sweep (weights
 * folded to float constants are traced back through the dead
 * DequantizeLinear that wrote them) and before activation fusion. A rewrite
 * the runtime's prepare refuses is not made. Frees weights nothing reads any
 * more. *rewritten counts rewrites. */
wnn_status wnn_pass_qdq(wnn_ir_graph *g, int *rewritten);

/* Fuses every Relu, Clip (constant bounds), Sigmoid, HardSigmoid, HardSwish
 * and LeakyRelu whose input is a live Conv or Gemm output with no other reader
 * into that Conv or Gemm. Needs readers counted. *fused counts fusions. */
wnn_status wnn_pass_fuse(wnn_ir_graph *g, int *fused);

/* Rewrites every Conv (group 1, dilations 1, explicit pads) whose input is a
 * Concat on the channels of the four step-2 phases x[:, :, dy::2, dx::2] of
 * one float32 image (Slice chains, H and W even) as a Conv of the image
 * itself: kernel 2K, stride 2s, pads 2p, weights rearranged (a new constant).
 * The Slices and the Concat are left for dead-code elimination. Counts
 * readers first. *folded counts rewrites. */
wnn_status wnn_pass_s2d_conv(wnn_ir_graph *g, int *folded);

/* Sets the subnormal values (0 < |w| < FLT_MIN) of the float32 weights of
 * every live Conv, ConvTranspose, MatMul and Gemm to zero of their sign, in
 * place where only such weight slots read the constant, else in one copy
 * that they all read (pass_subnormal.c says why). Counts readers first, and what it changed in
 * g->subnormal_tensors and g->subnormal_values. */
wnn_status wnn_pass_flush_subnormals(wnn_ir_graph *g);
/* The same for n floats at w, in place, counted in g. */
void wnn_flush_subnormal_f32(wnn_ir_graph *g, float *w, int64_t n);

/* Kills every node none of whose outputs is needed for a graph output, and
 * recounts readers. *removed counts them. */
void wnn_pass_dce(wnn_ir_graph *g, int *removed);

/* Emits the live graph through the builder. *artifact is malloc'd; with
 * params non-NULL the weights go to a params blob there (malloc'd too).
 * release: a release artifact (integer names); map non-NULL: *map gets the
 * map file's tree (docs/format.md) without its "artifact" digest, which
 * wnn_import_map_print adds. */
wnn_status wnn_emit(wnn_ir_graph *g, const char *model_name, const wnn_builder_weights *weights,
                    bool release, struct cJSON **map, void **artifact, size_t *size,
                    void **params, size_t *params_size, int *num_nodes);

/* Statuses that mean "wnn does not support this" rather than "bad model". */
bool wnn_status_is_unsupported(wnn_status st);

#endif /* WNN_IMPORTER_PASSES_H */
