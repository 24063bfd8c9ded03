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
  WNN_VALUE_ALIAS = 4,
  /* Produced by a shape node ("shape": 1, docs/dynamic-shapes.md): tiny bytes
   * computed at load (the model's shape_data) and at each resize (the
   * executor's plan), never during a run; outside the arena. */
  WNN_VALUE_SHAPE = 5
} wnn_value_kind;

/* Total bytes of the shape values of one shape set (a graph's shape
 * arithmetic: int64 vectors); past it load or resize fails with
 * WNN_ERR_LIMIT. */
#define WNN_MAX_SHAPE_BYTES (64 * 1024)
/* Named dims a graph may declare ("dims"). */
#define WNN_MAX_NAMED_DIMS 64

/* A named dim (graph "dims"). */
typedef struct wnn_dim {
  char *name;
  int64_t default_size;
  int64_t max_size;            /* 0: unbounded */
  int64_t multiple;            /* 1 when none */
} wnn_dim;

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
  unsigned codec;              /* PARAM: how data is read at load: WNN_CODEC_RAW, FILL, or
                                  a decoding codec (fp16, int8, user), RAW once decoded */
  unsigned stored_codec;       /* PARAM: as stored (wnn_model_param_storage) */
  size_t stored;               /* PARAM: stored bytes */
  int root;                    /* ALIAS: the value whose bytes it shares (never an alias) */
  int first, last;             /* lifetime in node positions (first: the producer) */
  /* INPUT of a dynamic model: 1 + the index in wnn_model.dims of the dim
   * that names dim d, or 0 when dim d is fixed. */
  unsigned char named[WNN_MAX_DIMS];
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
  unsigned char shape_node;    /* "shape": 1: run at load and resize, not in a run */
  const wnn_attrs *attrs;      /* dynamic models: kept for resize (model.attrs_json) */
  _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
} wnn_node;

struct wnn_model {
  wnn_allocator allocator;
  uint8_t *copy;               /* the artifact copy we own, or NULL when borrowed */
  size_t copy_size;
  uint8_t *weights_copy;       /* weights realigned from a misaligned borrowed buffer */
  size_t weights_size;
  struct wnn_params *bound;    /* the params blob external params live in (a counted
                                  reference), or NULL */
  uint8_t *fills;              /* FILL params materialized, 64-byte aligned */
  size_t fills_size;
  uint8_t *decoded;            /* params of decoding codecs, decoded (64-aligned each) */
  size_t decoded_size;
  int num_values, num_nodes, num_inputs, num_outputs, num_params;
  wnn_value *values;
  wnn_node *nodes;
  int *inputs, *outputs, *params; /* value indices */
  size_t arena_bytes;
  char *metadata;
  wnn_kernels kernels;
  /* Run-time shapes (required feature bit DYNAMIC, docs/dynamic-shapes.md).
   * The values, nodes and arena_bytes above are the reference plan, at every
   * dim's default. */
  int dynamic;                 /* the artifact sets the DYNAMIC bit */
  int integer_names;           /* ... the INTEGER_NAMES bit: params may be unnamed */
  int num_dims, cap_dims;
  wnn_dim *dims;
  int64_t *declared;           /* dynamic: per input WNN_MAX_DIMS dims, WNN_DIM_DYNAMIC
                                  where named (wnn_model_input_info) */
  uint8_t *shape_data;         /* the shape values at the defaults */
  size_t shape_bytes;
  void *attrs_json;            /* dynamic: the nodes' attribute objects (a cJSON array) */
  size_t max_arena_bytes;      /* every dim bounded: the arena of the plan at the
                                  maxima; else 0 */
};

#endif /* WNN_MODEL_H */
