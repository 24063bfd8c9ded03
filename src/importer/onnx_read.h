/*
 * Reading an ONNX ModelProto (decoded by protobuf-c from code generated at
 * build time from Debian's onnx.proto) into the importer's graph (ir.h).
 *
 * What it does: opset_import (the default domain's version; other domains are
 * ignored until a node uses one), initializers (graph inputs that are also
 * initializers are params), Constant nodes (their value becomes constant data
 * and the node disappears), external data (location/offset/length, relative
 * to base_dir), float16 and double tensors converted to float32 (graph inputs
 * and outputs declared float16 marked to stay float16 at the boundary, declared
 * double refused), attributes
 * converted to the runtime's JSON form (tensor attributes as
 * {"dtype","shape","data"}), and graph input shapes fixed by the caller's
 * shapes or, for symbolic, unset or non-positive dims, set to 1 with a
 * warning naming the input and the dim.
 */
#ifndef WNN_IMPORTER_ONNX_READ_H
#define WNN_IMPORTER_ONNX_READ_H

#include "importer/importer.h"
#include "importer/ir.h"

/* Parses data[size] into g (initialized by the caller). */
wnn_status wnn_onnx_read(wnn_ir_graph *g, const void *data, size_t size,
                         const wnn_import_options *opt);

/* Replaces If node id by the nodes of its branch `branch` (the index in
 * g->subgraphs of its then_branch or else_branch attribute), inserted before
 * it; an Identity from each branch output to the If's output ends them. They
 * keep the If's own guards. */
wnn_status wnn_onnx_inline_branch(wnn_ir_graph *g, int id, int branch);

/* Replaces If node id, whose condition (input 0, one element, its shape
 * known) is known only at run time, by both branches, inserted before it:
 * the then_branch's nodes guarded by [cond, true] and the else_branch's by
 * [cond, false] after the If's own guards, then for each If output a
 * Where(cond, then_out, else_out) under the If's guards (if_merge set; a
 * Squeeze first when cond has dims). Names the two branches share are
 * renamed. */
wnn_status wnn_onnx_inline_if(wnn_ir_graph *g, int id, int then_branch, int else_branch);

/* Loop (a constant trip count, a condition that stays true) and Scan (opset
 * 9 and later, a fixed sequence length) node id, its input shapes known:
 * replaced by its body once per iteration, inserted before it (*done =
 * true; the first inserted node is then at id). Anything else fails,
 * unsupported, naming why (and the graph inputs to freeze with --const when
 * a trip count or condition comes from them). */
wnn_status wnn_onnx_unroll(wnn_ir_graph *g, int id, bool *done);

/* Half-precision bits to float. */
float wnn_half_to_float(uint16_t h);

#endif /* WNN_IMPORTER_ONNX_READ_H */
