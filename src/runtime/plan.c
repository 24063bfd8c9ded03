#include "runtime/plan.h"

#include <stdint.h>

static int live_together(const wnn_plan_block *x, const wnn_plan_block *y) {
  return x->first <= y->last && y->first <= x->last;
}

static int bytes_overlap(size_t xo, size_t xs, size_t yo, size_t ys) {
  return xo < yo + ys && yo < xo + xs;
}

wnn_status wnn_plan_greedy(wnn_plan_block *blocks, int n, size_t align, int *scratch,
                           size_t *total) {
  int *order = scratch;
  /* Order by size, descending; ties by first use, so the result is stable.
   * Insertion sort keeps this dependency-free; n is the number of values. */
  for (int i = 0; i < n; i++) {
    int j = i;
    while (j > 0) {
      const wnn_plan_block *p = &blocks[order[j - 1]], *q = &blocks[i];
      if (p->size > q->size || (p->size == q->size && p->first <= q->first)) break;
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
  /* Place each block: gather the placed blocks that are live with it, sorted
   * by offset, and take the first gap that fits. */
  int *live = order + n;
  size_t end = 0;
  for (int k = 0; k < n; k++) {
    wnn_plan_block *b = &blocks[order[k]];
    if (b->size > SIZE_MAX / 2) return WNN_ERR_OUT_OF_RANGE;
    size_t size = (b->size + align - 1) & ~(align - 1);
    b->offset = 0;
    if (size == 0) continue;
    int count = 0;
    for (int m = 0; m < k; m++) {
      const wnn_plan_block *p = &blocks[order[m]];
      if (p->size == 0 || !live_together(p, b)) continue;
      int j = count++;
      while (j > 0 && blocks[live[j - 1]].offset > p->offset) {
        live[j] = live[j - 1];
        j--;
      }
      live[j] = order[m];
    }
    size_t offset = 0;
    for (int m = 0; m < count; m++) {
      const wnn_plan_block *p = &blocks[live[m]];
      if (p->offset >= offset + size) break; /* the gap before p fits */
      size_t p_end = (p->offset + p->size + align - 1) & ~(align - 1);
      if (p_end > offset) offset = p_end;
    }
    b->offset = offset;
    if (offset + size > end) end = offset + size;
  }
  *total = end;
  return WNN_OK;
}

wnn_status wnn_plan_check(const wnn_plan_block *blocks, int n, size_t arena_bytes, int *a,
                          int *b) {
  for (int i = 0; i < n; i++) {
    const wnn_plan_block *x = &blocks[i];
    if (x->size == 0) continue;
    if (x->offset > arena_bytes || x->size > arena_bytes - x->offset) {
      *a = i, *b = -1;
      return WNN_ERR_BAD_PLAN;
    }
    for (int j = 0; j < i; j++) {
      const wnn_plan_block *y = &blocks[j];
      if (y->size && live_together(x, y) && bytes_overlap(x->offset, x->size, y->offset, y->size)) {
        *a = j, *b = i;
        return WNN_ERR_BAD_PLAN;
      }
    }
  }
  return WNN_OK;
}
