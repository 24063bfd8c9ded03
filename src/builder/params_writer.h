/* The params blob writer: the inverse of wnn_params_load (src/runtime/params.h,
 * docs/params.md). For `wnn convert --params-out` and for tests. */
#ifndef WNN_PARAMS_WRITER_H
#define WNN_PARAMS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "wnn.h"

typedef struct wnn_params_entry {
  const char *name; /* NUL-terminated, unique */
  wnn_dtype dtype;
  int ndim;
  const int64_t *dims;
  const void *data; /* numel * dtype size bytes, stored raw */
} wnn_params_entry;

/* Writes a blob holding the n tensors, sorted by name: header, table, dims,
 * names, then each tensor 64-aligned, with the CRCs. *out is a buffer from `a`
 * (64-byte aligned, *size bytes; free with wnn_free(a, *out, *size, 64)).
 * WNN_ERR_INVALID_ARGUMENT for a repeated or empty name, a bad dtype or
 * shape (named), WNN_ERR_OUT_OF_MEMORY. */
wnn_status wnn_params_write(const wnn_allocator *a, const wnn_params_entry *tensors, int n,
                            uint8_t **out, size_t *size);

#endif /* WNN_PARAMS_WRITER_H */
