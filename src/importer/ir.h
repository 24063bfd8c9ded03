/*
 * The importer's intermediate representation: a graph of values and nodes
 * between the ONNX file and the builder. The passes (pass_*.c) work on it.
 *
 *   value  a name, a dtype and shape once known (inference fills them in), and
 *          optional constant data (initializers, Constant nodes, folded nodes),
 *          held in 64-byte aligned memory the graph owns.
 *   node   an ONNX op type and domain, inputs and outputs as value ids (-1 for
 *          an omitted optional input), attributes as the JSON object the
 *          runtime reads (docs/format.md), and the node's position in the
 *          ONNX file for messages.
 *
 * Nodes stay in the ONNX file's order, which is topological; a pass removes a
 * node by marking it dead. Every failing function writes a message into the
 * graph's msg (naming the node when there is one) and returns a status;
 * g->unsupported says whether the failure is "the model uses something wnn
 * does not support" rather than "the model is broken".
 */
#ifndef WNN_IMPORTER_IR_H
#define WNN_IMPORTER_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/op.h"
#include "runtime/format.h"
#include "wnn.h"

struct cJSON;

/* The newest default-domain opset the importer reads (docs/importer.md,
 * "Opsets"); a model without an opset import is read as this one. */
#define WNN_IR_OPSET_MAX 24

typedef struct wnn_ir_value {
  char *name;
  bool known;                 /* dtype, ndim and dims are set */
  wnn_dtype dtype;
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  void *data;                 /* constant bytes (wnn_ir_alloc_data), or NULL */
  size_t nbytes;
  int producer;               /* live node writing it, or -1 */
  bool is_input;              /* a graph input (not an initializer) */
  int readers;                /* node input slots and graph outputs reading it */
  /* A graph input or output the model declares float16 or double
   * (WNN_DTYPE_F16, WNN_DTYPE_F64; WNN_DTYPE_INVALID otherwise): the value
   * itself is float32, like every float16 and double tensor inside, and
   * emit.c keeps the declared dtype at the boundary with a Cast after such an
   * input and before such an output. */
  wnn_dtype io_dtype;
  /* Run-time shapes (docs/dynamic-shapes.md): dyn_shape, the shape may
   * change with the artifact's dims; dyn_data, the data does (Shape of a
   * dyn_shape value, and what is computed from it). dims_of: for a graph
   * input, the index in g->dims of each dim that is dynamic, else -1. */
  bool dyn_shape, dyn_data;
  int dims_of[WNN_MAX_DIMS];
  /* Provenance (the map file, docs/format.md): for a constant, the
   * initializers, Constant nodes and folded nodes its bytes come from, as
   * sorted indices into g->srcs (malloc'd, or NULL). */
  int *src, num_src;
} wnn_ir_value;

typedef struct wnn_ir_node {
  char *op_type;
  char *domain;               /* "" for the default domain */
  char *name;                 /* "" when the file has none */
  int index;                  /* position in the ONNX graph, for messages */
  int num_inputs, num_outputs;
  int inputs[WNN_MAX_IO], outputs[WNN_MAX_IO];
  struct cJSON *attrs;        /* a JSON object, never NULL */
  bool dead;
  bool rewritten;             /* legacy.c has translated it already */
  /* "when" (docs/format.md): the node runs only if each guard value is
   * nonzero (expect true) or zero (expect false); the nodes of an If's
   * branches, when its condition is known only at run time. */
  int num_guards;
  int guards[WNN_MAX_GUARDS];
  bool guard_expect[WNN_MAX_GUARDS];
  /* Where nodes that merge an If's branch outputs: input 1 is the then
   * output, input 2 the else output; the sweep checks they agree. */
  bool if_merge;
  /* A shape node ("shape": 1): its outputs depend only on constants and the
   * artifact's dims; the runtime computes them when shapes are set. */
  bool shape_node;
  /* For nodes read from an If branch: "then_branch of If node 3 'if'", for
   * messages (malloc'd, or NULL). */
  char *origin;
  /* The innermost branch compiled for a run-time condition that the node is
   * in (its origin text), or NULL: what a failure in the node prunes. */
  char *rt_branch;
  /* For If nodes read from a branch: the branch names renamed on reading
   * (a JSON object: name in the file -> value name), or NULL. */
  struct cJSON *scope;
  /* Provenance: the ONNX nodes this node computes (itself, and every node a
   * pass merged into it), sorted indices into g->srcs (malloc'd, or NULL);
   * it may hold initializers too, which the map leaves out of a node's. */
  int *src, num_src;
} wnn_ir_node;

/* A source of provenance: an ONNX node (op_type set) or an initializer
 * (op_type NULL), as read from the file. */
typedef struct wnn_ir_src {
  char *name;      /* "" when the node has none */
  char *op_type;   /* NULL: an initializer */
  int index;       /* a node's position in its graph; -1 for initializers */
  char *origin;    /* the If branch it was read from ("then_branch of If node 3 'if'"), or NULL */
} wnn_ir_src;

typedef void wnn_ir_warn_fn(void *ctx, const char *msg);

typedef struct wnn_ir_graph {
  wnn_ir_value *values;
  int num_values, cap_values;
  wnn_ir_node *nodes;
  int num_nodes, cap_nodes;
  int *inputs, num_inputs;    /* graph inputs in file order */
  int *outputs, num_outputs;  /* graph outputs in file order */
  int opset;                  /* default-domain opset version */
  int *hash;                  /* value ids by name, open addressing; -1 empty */
  int hash_cap;
  char msg[1024];
  bool unsupported;
  wnn_ir_warn_fn *warn;
  void *warn_ctx;
  /* wnn_import_options.keep_subnormals: BatchNormalization folding and
   * wnn_pass_flush_subnormals leave subnormal weights as they are. */
  bool keep_subnormals;
  int subnormal_tensors;      /* weights they were set to 0 in, */
  int64_t subnormal_values;   /* and how many values */
  /* The decoded ONNX model, kept for If's branches (onnx_read.c): graph
   * attributes are {"graph": index into subgraphs}. */
  void *proto;
  void (*free_proto)(void *proto);
  const void **subgraphs;
  int num_subgraphs;
  const char *base_dir;       /* for external data in branches */
  /* If branches (rt_branch texts) that a previous attempt could not compile
   * for the fixed input shapes: compiled without them (importer.c). */
  char *const *pruned;
  int num_pruned;
  char *prune;                /* set by a failure in such a branch (malloc'd) */
  /* The outputs of Casts to float16 (narrowed[0]) and to double
   * (narrowed[1]), which compute in float32 here (legacy.c): the importer
   * warns about them (importer.c). Values ids, malloc'd. */
  int *narrowed[2], num_narrowed[2];
  /* The artifact's dynamic dims: name (malloc'd), default and max (0: no
   * bound). */
  struct wnn_ir_dim {
    char *name;
    int64_t default_size, max_size;
  } *dims;
  int num_dims;
  /* Provenance sources (nodes' and values' src index them); src_oom: some
   * provenance was lost to a failed allocation (the map cannot be written). */
  wnn_ir_src *srcs;
  int num_srcs, cap_srcs;
  bool src_oom;
} wnn_ir_graph;

void wnn_ir_init(wnn_ir_graph *g);
void wnn_ir_free(wnn_ir_graph *g);

/* Sets g->msg (and g->unsupported) and returns status. */
wnn_status wnn_ir_fail(wnn_ir_graph *g, wnn_status status, bool unsupported, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The same, prefixed with "node N 'name' (OpType, domain 'd'): ". */
wnn_status wnn_ir_node_fail(wnn_ir_graph *g, const wnn_ir_node *n, wnn_status status,
                            bool unsupported, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void wnn_ir_warnf(wnn_ir_graph *g, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A malloc'd copy of s (NULL for NULL, or when out of memory). */
char *wnn_ir_strdup(const char *s);

/* The value named name, or -1. The empty name is never found. */
int wnn_ir_find(const wnn_ir_graph *g, const char *name);
/* A new value named name (copied; NULL makes a fresh unique name). Fails when
 * the name is taken. */
wnn_status wnn_ir_add_value(wnn_ir_graph *g, const char *name, int *id);
/* A fresh unnamed value for each outs[k] < 0 of outs[0..n) (a node's
 * outputs about to be added). */
wnn_status wnn_ir_fresh_values(wnn_ir_graph *g, int *outs, int n);
/* A new node appended at the end (or inserted before node `before` when
 * before >= 0, shifting later nodes). attrs is taken over (NULL: empty). */
wnn_status wnn_ir_add_node(wnn_ir_graph *g, int before, const char *op_type, const char *domain,
                           const char *name, int index, const int *inputs, int num_inputs,
                           const int *outputs, int num_outputs, struct cJSON *attrs,
                           int *node_id);

/* An integer attribute's JSON number as int64, saturated (NaN: dflt): a cast
 * of a double outside int64 (INT64_MAX reads back as 2^63) is undefined. */
int64_t wnn_ir_json_int(const struct cJSON *j, int64_t dflt);

/* 64-byte aligned memory for constant data (never NULL for size 0 unless out
 * of memory or over the budget), released with wnn_ir_free_data. */
void *wnn_ir_alloc_data(size_t size);
void wnn_ir_free_data(void *p);
/* The conversion's memory budget, for the calling thread: at most `limit`
 * bytes of constant data held at once (0: no limit). wnn_import_onnx sets it
 * from wnn_import_options.max_memory. */
void wnn_ir_budget_begin(size_t limit);
bool wnn_ir_budget_hit(void);
size_t wnn_ir_budget_limit(void);
/* WNN_ERR_LIMIT naming `what` (and node n when not NULL) unless a tensor of
 * that shape and dtype fits WNN_MAX_TENSOR_BYTES, every product checked;
 * *nbytes gets its size. */
wnn_status wnn_ir_check_bytes(wnn_ir_graph *g, const wnn_ir_node *n, const char *what, int ndim,
                              const int64_t *dims, wnn_dtype dtype, size_t *nbytes);
/* The failure for a wnn_ir_alloc_data that returned NULL: WNN_ERR_LIMIT when
 * the budget refused it, else WNN_ERR_OUT_OF_MEMORY. */
wnn_status wnn_ir_out_of_memory(wnn_ir_graph *g, const wnn_ir_node *n, const char *what,
                                size_t bytes);
/* Makes value v a constant of that dtype and shape, copying data (NULL:
 * zeros). */
wnn_status wnn_ir_set_const(wnn_ir_graph *g, int v, wnn_dtype dtype, int ndim,
                            const int64_t *dims, const void *data);
/* A new constant value (name NULL: a fresh one). */
wnn_status wnn_ir_add_const(wnn_ir_graph *g, const char *name, wnn_dtype dtype, int ndim,
                            const int64_t *dims, const void *data, int *id);

/* Whether nodes a and b have the same guards (in any order). */
bool wnn_ir_same_guards(const wnn_ir_node *a, const wnn_ir_node *b);

/* Recomputes every value's producer (live nodes only) and readers count
 * (input slots, guards and graph outputs). */
void wnn_ir_count_readers(wnn_ir_graph *g);

/* The graph inputs that non-constant value v is computed from (through live
 * nodes; constants stop the walk), in graph-input order, written as
 * "graph input 'a', which must be constant: pass --const a=FILE" (or
 * "graph inputs 'a', 'b', which must be constant: pass --const a=FILE
 * --const b=FILE") into buf[cap]. Returns how many there are (0: buf is ""). */
int wnn_ir_const_hint(const wnn_ir_graph *g, int v, char *buf, size_t cap);

/* Provenance (docs/format.md, the map file). A new source; its index, or -1
 * when out of memory (g->src_oom is set). */
int wnn_ir_src_add(wnn_ir_graph *g, const char *name, const char *op_type, int index,
                   const char *origin);
/* Adds the n sources at from to the sorted list *list (*num entries),
 * without repeats. Out of memory sets g->src_oom. */
void wnn_ir_src_union(wnn_ir_graph *g, int **list, int *num, const int *from, int n);
/* Node `into` takes node `from`'s sources (from was merged into it). */
void wnn_ir_node_absorb(wnn_ir_graph *g, int into, int from);
/* Value v takes node n's sources (n was evaluated to compute v's bytes). */
void wnn_ir_value_from_node(wnn_ir_graph *g, int v, int n);
/* Value v takes value `from`'s sources (v's bytes are computed from from's). */
void wnn_ir_value_from_value(wnn_ir_graph *g, int v, int from);

/* A value's element count (its shape must be known). */
int64_t wnn_ir_numel(const wnn_ir_value *v);

#endif /* WNN_IMPORTER_IR_H */
