/*
 * Reading an ONNX ModelProto (decoded by protobuf-c from code generated at
 * build time from Debian's onnx.proto) into the importer's graph (ir.h).
 *
 * What it does: opset_import (the default domain's version; other domains are
 * ignored until a node uses one), initializers (graph inputs that are also
 * initializers are params), Constant nodes (their value becomes constant data
 * and the node disappears), external data (location/offset/length, relative
 * to base_dir), float16 and double tensors converted to float32, attributes
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
 * it; an Identity from each branch output to the If's output ends them. */
wnn_status wnn_onnx_inline_branch(wnn_ir_graph *g, int id, int branch);

/* Half-precision bits to float. */
float wnn_half_to_float(uint16_t h);

#endif /* WNN_IMPORTER_ONNX_READ_H */
