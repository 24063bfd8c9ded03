/*
 * ONNX Runtime's com.microsoft contrib ops, rewritten into default-domain ONNX
 * nodes that the runtime implements (docs/importer.md, "com.microsoft contrib
 * ops"): Attention, SkipLayerNormalization, EmbedLayerNormalization and
 * FastGelu. A transformer exported with ORT's fusions converts into MatMul,
 * Softmax, LayerNormalization, Gelu, ... DynamicQuantizeMatMul is the one
 * contrib op the runtime has (docs/quantization.md): it only moves to the
 * default domain.
 */
#ifndef WNN_IMPORTER_CONTRIB_H
#define WNN_IMPORTER_CONTRIB_H

#include <stdbool.h>

#include "importer/ir.h"

/* Whether op_type in domain (a non-default one) is a contrib op this module
 * rewrites; onnx_read.c refuses every other node of a foreign domain. */
bool wnn_contrib_handles(const char *domain, const char *op_type);

/* During the sweep, when node id's input shapes are known: when it is a
 * contrib op, inserts the default-domain nodes computing it before it and
 * kills it (*replaced = true; the first inserted node is then at id, so the
 * caller processes it next). Attributes, inputs and outputs this module
 * cannot translate fail the conversion (unsupported), naming the node, its op
 * type and domain, and the attribute or input. */
wnn_status wnn_contrib_rewrite(wnn_ir_graph *g, int id, bool *replaced);

#endif /* WNN_IMPORTER_CONTRIB_H */
