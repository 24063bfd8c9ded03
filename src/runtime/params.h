/* The params blob (.wnnp, docs/params.md): a container of named tensors that
 * graph artifacts refer to by digest. This is the reader; the writer is
 * src/builder/params_writer.h. The public API (wnn.h: wnn_params_load, free,
 * count, info) wraps these. */
#ifndef WNN_PARAMS_H
#define WNN_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "wnn.h"

#define WNN_PARAMS_MAGIC "\x89WNP\r\n\x1a\n"
#define WNN_PARAMS_HEADER_SIZE 64
#define WNN_PARAMS_ENTRY_SIZE 64
#define WNN_PARAMS_ALIGN 64
/* Tensors per blob, and bytes of one name. */
#define WNN_PARAMS_MAX_TENSORS 1000000
#define WNN_PARAMS_MAX_NAME 4096

typedef struct wnn_params_tensor {
  const char *name; /* NUL-terminated, owned by the params */
  wnn_dtype dtype;
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  uint32_t codec;   /* WNN_CODEC_RAW in this reader */
  const void *data; /* size decoded bytes */
  size_t size;
} wnn_params_tensor;

/* Checks and loads a blob: header, table, dims, names (unique, sorted), every
 * tensor's bounds, alignment, dtype, shape and size; CRCs of the header block
 * and of each tensor and the SHA-256 of the whole file unless
 * WNN_LOAD_NO_CHECKSUM. Without WNN_LOAD_BORROW, or when data is not 64-byte
 * aligned, the bytes are copied (tensors are then 64-byte aligned). On
 * failure *out is untouched and wnn_last_error() names what is wrong (and
 * the tensor, where one is at fault). The result starts with one reference. */
wnn_status wnn_params_open(const void *data, size_t size, const wnn_load_options *options,
                           wnn_params **out);
/* References: a model that binds params retains them; the memory goes with
 * the last release. Safe from any thread. */
void wnn_params_retain(wnn_params *params);
void wnn_params_release(wnn_params *params);

int wnn_params_tensor_count(const wnn_params *params);
const wnn_params_tensor *wnn_params_tensor_at(const wnn_params *params, int index);
/* The tensor of that name (len bytes, not NUL-terminated), or NULL. */
const wnn_params_tensor *wnn_params_find(const wnn_params *params, const char *name, size_t len);
/* SHA-256 of the whole file, as a PARAMS_REF holds it; NULL when the blob was
 * opened with WNN_LOAD_NO_CHECKSUM (then it was not computed). */
const uint8_t *wnn_params_digest(const wnn_params *params);
size_t wnn_params_file_size(const wnn_params *params);

#endif /* WNN_PARAMS_H */
