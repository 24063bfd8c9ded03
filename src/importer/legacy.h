/*
 * Older-opset forms rewritten into the form the runtime implements: the
 * latest opset <= 21, with every parameter that moved from an attribute to an
 * input over the opsets given as a constant input (docs/importer.md lists
 * each rewrite). Per-op code lives here only where opset forms differ; every
 * other op maps to the runtime op of the same name.
 */
#ifndef WNN_IMPORTER_LEGACY_H
#define WNN_IMPORTER_LEGACY_H

#include "importer/ir.h"

/* At load time, on node id just read: attribute-to-input moves, renames
 * (Upsample -> Resize), dropped attributes. */
wnn_status wnn_legacy_rewrite(wnn_ir_graph *g, int id);

/* During inference, when node id's input shapes are known: rewrites that need
 * them (Softmax, LogSoftmax and Hardmax before opset 13 coerce their input to
 * 2-D; Dropout becomes an Identity and its mask a constant of trues, refusing
 * training mode with a non-zero ratio). May insert nodes before and after id;
 * *inserted says how many were inserted before it (the caller processes them
 * first). */
wnn_status wnn_legacy_rewrite_shaped(wnn_ir_graph *g, int id, int *inserted);

#endif /* WNN_IMPORTER_LEGACY_H */
