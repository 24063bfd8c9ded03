/* The static memory planner: a pure function from buffer requests (size and
 * lifetime) to offsets in one arena, and the check the loader applies to any
 * plan it is given. */
#ifndef WNN_PLAN_H
#define WNN_PLAN_H

#include <stddef.h>

#include "wnn.h"

/* A block of `size` bytes live from step `first` to step `last`, inclusive.
 * Blocks of size 0 take no memory and never conflict. */
typedef struct wnn_plan_block {
  size_t size;
  int first, last;
  size_t offset; /* written by wnn_plan_greedy, read by wnn_plan_check */
} wnn_plan_block;

/* Greedy by size: the largest block first, each at the lowest offset (a
 * multiple of align, a power of two) where it collides with no placed block
 * whose lifetime intersects its own. scratch holds 2 * n ints.
 * Sets every block's offset and *total (a multiple of align). Returns
 * WNN_ERR_OUT_OF_RANGE if sizes overflow. O(n^2). */
wnn_status wnn_plan_greedy(wnn_plan_block *blocks, int n, size_t align, int *scratch,
                           size_t *total);

/* Checks a plan: every block inside [0, arena_bytes) and no two blocks with
 * intersecting lifetimes sharing a byte. On failure returns WNN_ERR_BAD_PLAN
 * and the offending block indices (*b = -1 when one block is out of the arena). */
wnn_status wnn_plan_check(const wnn_plan_block *blocks, int n, size_t arena_bytes, int *a,
                          int *b);

#endif /* WNN_PLAN_H */
