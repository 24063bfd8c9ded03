/*
 * The opset-23 transformer ops (Attention, RMSNormalization and
 * RotaryEmbedding, of the default domain from opset 23 on), rewritten into
 * runtime ops during the sweep, like contrib.c's com.microsoft ops
 * (docs/importer.md, "Transformer ops"): MatMul, Softmax, Mul, Add, ...,
 * whose kernels carry the time. Attributes, inputs and dtypes the rewrite
 * cannot translate fail the conversion, naming the node and what is not
 * supported.
 */
#ifndef WNN_IMPORTER_TRANSFORMER_H
#define WNN_IMPORTER_TRANSFORMER_H

#include <stdbool.h>

#include "importer/ir.h"

/* Whether node n is one of these ops at the graph's opset. */
bool wnn_transformer_handles(const wnn_ir_graph *g, const wnn_ir_node *n);

/* During the sweep, when node id's input shapes are known: when it is one of
 * these ops, inserts the nodes computing it before it and kills it
 * (*replaced = true; the first inserted node is then at id). */
wnn_status wnn_transformer_rewrite(wnn_ir_graph *g, int id, bool *replaced);

#endif /* WNN_IMPORTER_TRANSFORMER_H */
