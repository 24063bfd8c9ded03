/* The params blob (.wnnp, docs/params.md): a container of named tensors that
 * graph artifacts refer to by digest. This is the reader; the writer is
 * src/builder/params_writer.h. The public side is wnn.h's wnn_params_load,
 * free, count and info; these are what models and tests use besides. */
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
  uint32_t codec;   /* as stored (wnn_codec) */
  const void *data; /* size decoded bytes */
  size_t size;
  size_t stored;    /* bytes in the file */
} wnn_params_tensor;

/* wnn_params_load (wnn.h) checks the header, table, dims, names (unique,
 * sorted, within the names block), every tensor's bounds, alignment, dtype,
 * shape and size; the CRCs and the SHA-256 unless WNN_LOAD_NO_CHECKSUM; it
 * copies the bytes unless borrowed and 64-byte aligned. The result holds one
 * reference, which wnn_params_free drops. A model that binds params retains
 * them; the memory goes with the last reference. Safe from any thread. */
void wnn_params_retain(wnn_params *params);

const wnn_params_tensor *wnn_params_tensor_at(const wnn_params *params, int index);
/* The tensor of that name (len bytes, not NUL-terminated), or NULL. */
const wnn_params_tensor *wnn_params_find(const wnn_params *params, const char *name, size_t len);
/* SHA-256 of the whole file, as a PARAMS_REF holds it; NULL when the blob was
 * opened with WNN_LOAD_NO_CHECKSUM (then it was not computed). */
const uint8_t *wnn_params_digest(const wnn_params *params);
size_t wnn_params_file_size(const wnn_params *params);

#endif /* WNN_PARAMS_H */
