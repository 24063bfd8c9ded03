/* The loaded model (immutable after wnn_model_load) as the executor sees it. */
#ifndef WNN_MODEL_H
#define WNN_MODEL_H

#include "ops/op.h"
#include "runtime/alloc.h"
#include "runtime/format.h"

typedef enum wnn_value_kind {
  WNN_VALUE_INPUT = 1,
  WNN_VALUE_PARAM = 2,
  WNN_VALUE_ARENA = 3,
  WNN_VALUE_ALIAS = 4
} wnn_value_kind;

typedef struct wnn_value {
  char *name;                  /* NULL when the graph gives none */
  wnn_value_kind kind;
  wnn_dtype dtype;
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  size_t nbytes;
  size_t offset;               /* in the arena (INPUT, ARENA) */
  const void *data;            /* PARAM: its bytes in the weights, or in the model's
                                  fill block for a FILL param */
  unsigned codec;              /* PARAM: WNN_CODEC_RAW or WNN_CODEC_FILL */
  int root;                    /* ALIAS: the value whose bytes it shares (never an alias) */
  int first, last;             /* lifetime in node positions */
} wnn_value;

typedef wnn_status (*wnn_run_fn)(const wnn_run_ctx *ctx);

typedef struct wnn_node {
  const wnn_op *op;
  char *name;                  /* NULL when the graph gives none */
  int num_inputs, num_outputs;
  int inputs[WNN_MAX_IO];      /* value indices; -1 for an omitted optional input */
  int outputs[WNN_MAX_IO];
  size_t scratch_offset, scratch_bytes;
  wnn_run_fn run;              /* NULL for aliasing ops */
  /* "when": the node runs only if every guard value (one element) is nonzero
   * where guard_expect is 1 and zero where it is 0 (docs/format.md). */
  int num_guards;
  int guards[WNN_MAX_GUARDS];  /* value indices */
  unsigned char guard_expect[WNN_MAX_GUARDS];
  _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
} wnn_node;

struct wnn_model {
  wnn_allocator allocator;
  uint8_t *copy;               /* the artifact copy we own, or NULL when borrowed */
  size_t copy_size;
  uint8_t *weights_copy;       /* weights realigned from a misaligned borrowed buffer */
  size_t weights_size;
  uint8_t *fills;              /* FILL params materialized, 64-byte aligned */
  size_t fills_size;
  int num_values, num_nodes, num_inputs, num_outputs, num_params;
  wnn_value *values;
  wnn_node *nodes;
  int *inputs, *outputs, *params; /* value indices */
  size_t arena_bytes;
  char *metadata;
  wnn_kernels kernels;
};

#endif /* WNN_MODEL_H */
