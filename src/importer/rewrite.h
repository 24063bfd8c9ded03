/*
 * Rewriting one node into runtime ops, during the sweep (importer.c), once its
 * input shapes are known: the toolkit of contrib.c (com.microsoft ops) and
 * transformer.c (the opset-23 Attention, RMSNormalization and
 * RotaryEmbedding).
 *
 * A rewrite inserts default-domain nodes before the node it replaces; the
 * caller then marks that node dead. Every inserted node keeps the replaced
 * node's guards, origin and provenance, and is marked already in the runtime's
 * form (legacy.c does not touch it). Checks fail with the replaced node named
 * in the message (wnn_ir_node_fail).
 */
#ifndef WNN_IMPORTER_REWRITE_H
#define WNN_IMPORTER_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importer/ir.h"

struct cJSON;

/* One rewrite in progress: nodes go in before node id, which moves down by
 * one each time. */
typedef struct wnn_rw {
  wnn_ir_graph *g;
  int id;    /* the node being replaced */
  int count; /* nodes inserted so far */
} wnn_rw;

/* An absent input of wnn_rw_op3 (-1 is an omitted optional input, kept). */
#define WNN_RW_NONE (-2)
/* Room for wnn_rw_shape_str. */
#define WNN_RW_SHAPE_CHARS (WNN_MAX_DIMS * 22 + 3)

wnn_ir_node *wnn_rw_self(const wnn_rw *r);
wnn_status wnn_rw_oom(wnn_rw *r);

/* Inserts op(ins) -> outs; an outs[k] < 0 becomes a fresh value. attrs is
 * taken over (NULL: none). */
wnn_status wnn_rw_emit(wnn_rw *r, const char *op, const int *ins, int nin, int *outs, int nout,
                       struct cJSON *attrs);
/* One output: *out (< 0: a fresh value) = op(a, b, c); inputs equal to
 * WNN_RW_NONE are left out (from the last). */
wnn_status wnn_rw_op3(wnn_rw *r, const char *op, int a, int b, int c, struct cJSON *attrs, int *out);
wnn_status wnn_rw_op2(wnn_rw *r, const char *op, int a, int b, struct cJSON *attrs, int *out);
wnn_status wnn_rw_op1(wnn_rw *r, const char *op, int a, struct cJSON *attrs, int *out);

/* New constants. */
wnn_status wnn_rw_cst(wnn_rw *r, wnn_dtype dtype, int ndim, const int64_t *dims, const void *data,
                      int *id);
wnn_status wnn_rw_cst_f32(wnn_rw *r, float v, int *id);
wnn_status wnn_rw_cst_i64s(wnn_rw *r, int count, const int64_t *v, int *id);

/* Attribute objects: {"name": v}, {"perm": [...]}; NULL when out of memory. */
struct cJSON *wnn_rw_num_attr(const char *name, double v);
struct cJSON *wnn_rw_perm_attr(int n, const int *perm);

/* Reshape x to dims (ONNX's 0 and -1 allowed); Transpose by perm. */
wnn_status wnn_rw_reshape(wnn_rw *r, int x, int ndim, const int64_t *dims, int *out);
wnn_status wnn_rw_transpose(wnn_rw *r, int x, int n, const int *perm, int *out);

/* The replaced node's input k (NULL when absent), its value id (-1 when
 * absent), its output k's value id, and whether output k exists and is read
 * (by a node or as a graph output). Pointers into g->values stay valid only
 * until a value is added. */
const wnn_ir_value *wnn_rw_input(const wnn_rw *r, int k);
int wnn_rw_in(const wnn_rw *r, int k);
int wnn_rw_out(const wnn_rw *r, int k);
bool wnn_rw_out_used(const wnn_rw *r, int k);

/* Fails the conversion naming the node; unsupported unless st is
 * WNN_ERR_SHAPE or WNN_ERR_MALFORMED. */
wnn_status wnn_rw_fail(wnn_rw *r, wnn_status st, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Every attribute must be one of known (NULL-terminated). */
wnn_status wnn_rw_check_attrs(wnn_rw *r, const char *const *known);
/* A number attribute, or dflt. */
double wnn_rw_num(const wnn_rw *r, const char *name, double dflt);
/* Inputs from first on must be absent (names[k - first] names them). */
wnn_status wnn_rw_no_inputs_from(wnn_rw *r, int first, const char *const *names);
/* Input k must be present with a known shape, of dtype (WNN_DTYPE_INVALID:
 * any) and rank (< 0: any). */
wnn_status wnn_rw_need(wnn_rw *r, int k, const char *what, wnn_dtype dtype, int rank);
const char *wnn_rw_shape_str(char *buf, size_t cap, const wnn_ir_value *v);

#endif /* WNN_IMPORTER_REWRITE_H */
