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
  const void *data; /* numel * dtype size bytes (the decoded values) */
  unsigned codec;     /* WNN_CODEC_RAW (0): data is stored; else stored/stored_size */
  const void *stored; /* the encoded bytes for another codec */
  size_t stored_size;
} wnn_params_entry;

/* Writes a blob holding the n tensors, sorted by name: header, table, dims,
 * names, then each tensor 64-aligned, with the CRCs. *out is a buffer from `a`
 * (64-byte aligned, *size bytes; free with wnn_free(a, *out, *size, 64)).
 * WNN_ERR_INVALID_ARGUMENT for a repeated or empty name, a bad dtype or
 * shape (named), WNN_ERR_OUT_OF_MEMORY. */
wnn_status wnn_params_write(const wnn_allocator *a, const wnn_params_entry *tensors, int n,
                            uint8_t **out, size_t *size);

/* `wnn convert --params-ref`: makes graph artifact `art` (written with its
 * own blob `own`) refer to the existing blob `ref` instead. Every tensor of
 * `own` must be in `ref` under its name with the same dtype, shape and bytes
 * (ref may hold more); then the PARAMS_REF section gets ref's SHA-256 and
 * size and the artifact is resealed, in place. Otherwise the status of the
 * first difference (WNN_ERR_NOT_FOUND, WNN_ERR_DTYPE, WNN_ERR_SHAPE,
 * WNN_ERR_MALFORMED for other values) naming the tensor, or the blobs' load
 * errors, and `art` is unchanged. */
wnn_status wnn_params_refer(uint8_t *art, size_t art_size, const void *own, size_t own_size,
                            const void *ref, size_t ref_size);

#endif /* WNN_PARAMS_WRITER_H */
