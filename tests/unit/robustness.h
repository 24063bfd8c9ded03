/* Helpers shared by the C API tests: a DLTensor over a buffer of ours, a
 * counting allocator (an allocator hook, wnn.h) that can fail its n-th call,
 * the sweep that fails every allocation of load and executor creation in
 * turn, and the sweep that damages every byte of an artifact. Include after
 * test.h. */
#ifndef WNN_TESTS_ROBUSTNESS_H
#define WNN_TESTS_ROBUSTNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnn.h"

/* A CPU DLTensor over data (ndim dims in shape, which it borrows). */
static inline DLTensor dl_tensor(void *data, wnn_dtype dtype, int ndim, int64_t *shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype = wnn_dtype_to_dl(dtype);
  t.shape = shape;
  return t;
}

typedef struct counter {
  long calls, live;
  long fail_at; /* the call number that fails, or -1 */
} counter;

static inline void *count_alloc(void *user, size_t size, size_t align) {
  counter *c = user;
  if (c->calls++ == c->fail_at) return NULL;
  if (align < sizeof(void *)) align = sizeof(void *);
  void *p = aligned_alloc(align, (size + align - 1) / align * align);
  if (p) c->live++;
  return p;
}

static inline void count_free(void *user, void *ptr, size_t size, size_t align) {
  (void)size, (void)align;
  counter *c = user;
  if (ptr) c->live--;
  free(ptr);
}

/* Fails the k-th allocation for every k until load, executor creation and a
 * run of the artifact succeed: each failure must be WNN_ERR_OUT_OF_MEMORY
 * and leave nothing allocated. */
static inline void check_allocation_failures(const void *data, size_t size) {
  int succeeded = 0;
  for (long k = 0; k < 10000 && !succeeded; k++) {
    counter c = {0, 0, k};
    wnn_allocator a = {count_alloc, count_free, &c};
    wnn_load_options opt = {0, WNN_KERNELS_AUTO, &a};
    wnn_model *m = NULL;
    wnn_status st = wnn_model_load(data, size, &opt, &m);
    if (st == WNN_OK) {
      wnn_executor *ex = NULL;
      st = wnn_executor_create(m, &ex);
      if (st == WNN_OK) {
        succeeded = 1;
        CHECK_OK(wnn_executor_run(ex));
        wnn_executor_destroy(ex);
      }
      wnn_model_free(m);
    }
    if (!succeeded) CHECK_STATUS(st, WNN_ERR_OUT_OF_MEMORY);
    if (c.live != 0) {
      printf("  failing allocation %ld leaked %ld blocks\n", k, c.live);
      CHECK(0);
    }
  }
  CHECK(succeeded);
}

/* Sets each byte of buf in turn to each of edits (restoring it after) and
 * loads the result without checksums, borrowed: any status is fine, a crash,
 * a leak or a bad read is not, and a model that loads must create an executor
 * and run. Returns how many damaged artifacts loaded. */
static inline int check_byte_damage(uint8_t *buf, size_t size, const uint8_t *edits,
                                    size_t num_edits) {
  int loaded = 0;
  for (size_t i = 0; i < size; i++) {
    uint8_t saved = buf[i];
    for (size_t e = 0; e < num_edits; e++) {
      buf[i] = edits[e];
      wnn_load_options opt = {WNN_LOAD_NO_CHECKSUM | WNN_LOAD_BORROW, WNN_KERNELS_AUTO, NULL};
      wnn_model *m = NULL;
      if (wnn_model_load(buf, size, &opt, &m) == WNN_OK) {
        wnn_executor *ex = NULL;
        CHECK_OK(wnn_executor_create(m, &ex));
        CHECK_OK(wnn_executor_run(ex));
        wnn_executor_destroy(ex);
        wnn_model_free(m);
        loaded++;
      }
    }
    buf[i] = saved;
  }
  return loaded;
}

#endif /* WNN_TESTS_ROBUSTNESS_H */
