/* Plans of a dynamic model at other shapes than the reference (docs/dynamic-
 * shapes.md): every node prepared again with the ops' own prepare, the shape
 * nodes run on the plan's own small buffer, the arena planned with the same
 * greedy planner as the builder's (runtime/plan.c). Used by the executor at
 * resize and by the loader (the plan at every dim's maximum, which sizes the
 * arena of a bounded model). */
#ifndef WNN_REPLAN_H
#define WNN_REPLAN_H

#include "runtime/model.h"

/* A value at one shape set. offset is in the arena (INPUT, ARENA) or in the
 * plan's shape_data (SHAPE). */
typedef struct wnn_vplan {
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  size_t nbytes, offset;
} wnn_vplan;

/* A node at one shape set: what its prepare filled. */
typedef struct wnn_nplan {
  size_t scratch_offset, scratch_bytes;
  _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
} wnn_nplan;

typedef struct wnn_shape_plan {
  int64_t *key;        /* every input's dims, in input order (wnn_replan_key_len) */
  wnn_vplan *values;   /* per value of the model */
  wnn_nplan *nodes;    /* per node */
  uint8_t *shape_data; /* the shape values' bytes */
  size_t shape_cap;
  size_t arena_bytes;  /* the plan's total */
  unsigned long used;  /* when the executor last switched to it (its cache's LRU) */
} wnn_shape_plan;

/* The number of int64 in a key: the sum of the inputs' ndims. */
size_t wnn_replan_key_len(const wnn_model *m);

/* Writes the reference key (the inputs' recorded dims) into key. */
void wnn_replan_reference_key(const wnn_model *m, int64_t *key);

/* Plans the model with its inputs at the dims in key (already checked against
 * the dims' bounds, multiples and shared names). Allocates *out with the
 * model's allocator. On failure returns the status with the thread's last
 * error naming the node whose prepare (or shape computation) refused, or the
 * value over a limit. */
wnn_status wnn_replan(const wnn_model *m, const int64_t *key, wnn_shape_plan **out);
void wnn_replan_free(const wnn_model *m, wnn_shape_plan *p);

#endif /* WNN_REPLAN_H */
