/*
 * fuzz_npy: the input is a .npy file for the CLI's reader (src/cli/npy.c):
 * the preamble, the header dictionary's little Python-literal parser, the
 * dtype and shape checks and the data size. A file that parses is written
 * back with wnn_npy_encode and parsed again: the second parse must succeed
 * and give the same dtype, shape and bytes (float64, which has no wnn dtype,
 * cannot be written and is only parsed).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/npy.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wnn_host_tensor t;
  char err[256];
  err[0] = '\0';
  wnn_status st = wnn_npy_parse(data, size, &t, err, sizeof err);
  if (st != WNN_OK) {
    if (!err[0]) wnn_fuzz_die("wnn_npy_parse failed (%s) without a message", wnn_status_str(st));
    return 0;
  }
  if (!t.data || t.nbytes != t.count * t.elem_size)
    wnn_fuzz_die("parsed tensor: %zu elements of %zu bytes in %zu bytes", t.count, t.elem_size,
                 t.nbytes);
  if (t.dtype != WNN_DTYPE_INVALID) {
    void *file = NULL;
    size_t file_size = 0;
    st = wnn_npy_encode(t.dtype, t.ndim, t.shape, t.data, t.nbytes, &file, &file_size, err,
                        sizeof err);
    if (st != WNN_OK) wnn_fuzz_die("re-encoding a parsed .npy failed: %s", err);
    wnn_host_tensor u;
    st = wnn_npy_parse(file, file_size, &u, err, sizeof err);
    if (st != WNN_OK) wnn_fuzz_die("parsing a re-encoded .npy failed: %s", err);
    if (u.dtype != t.dtype || u.ndim != t.ndim ||
        memcmp(u.shape, t.shape, (size_t)t.ndim * sizeof t.shape[0]) != 0 ||
        u.nbytes != t.nbytes || memcmp(u.data, t.data, t.nbytes) != 0)
      wnn_fuzz_die("a .npy round trip changed the tensor");
    wnn_host_tensor_free(&u);
    free(file);
  }
  wnn_host_tensor_free(&t);
  return 0;
}
