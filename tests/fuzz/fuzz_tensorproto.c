/*
 * fuzz_tensorproto: the input is one serialized onnx.TensorProto for the
 * CLI's hand-written protobuf reader (src/cli/tensorproto.c): varints, wire
 * types, packed and unpacked repeated fields, the typed data fields and
 * raw_data, dims and the element-count checks. A tensor that parses is
 * written back with wnn_tensorproto_encode (as raw_data) and parsed again:
 * the same dtype, dims, bytes and name must come back (float64 is only
 * parsed; a name is compared up to its first NUL, which is all a C string
 * carries).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/tensorproto.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wnn_host_tensor t;
  char err[256];
  err[0] = '\0';
  wnn_status st = wnn_tensorproto_parse(data, size, &t, err, sizeof err);
  if (st != WNN_OK) {
    if (!err[0])
      wnn_fuzz_die("wnn_tensorproto_parse failed (%s) without a message", wnn_status_str(st));
    return 0;
  }
  if (!t.data || t.nbytes != t.count * t.elem_size)
    wnn_fuzz_die("parsed tensor: %zu elements of %zu bytes in %zu bytes", t.count, t.elem_size,
                 t.nbytes);
  if (t.dtype != WNN_DTYPE_INVALID) {
    void *file = NULL;
    size_t file_size = 0;
    st = wnn_tensorproto_encode(t.dtype, t.ndim, t.shape, t.data, t.nbytes, t.name, &file,
                                &file_size, err, sizeof err);
    if (st != WNN_OK) wnn_fuzz_die("re-encoding a parsed TensorProto failed: %s", err);
    wnn_host_tensor u;
    st = wnn_tensorproto_parse(file, file_size, &u, err, sizeof err);
    if (st != WNN_OK) wnn_fuzz_die("parsing a re-encoded TensorProto failed: %s", err);
    if (u.dtype != t.dtype || u.ndim != t.ndim ||
        memcmp(u.shape, t.shape, (size_t)t.ndim * sizeof t.shape[0]) != 0 ||
        u.nbytes != t.nbytes || memcmp(u.data, t.data, t.nbytes) != 0 || !u.name != !t.name ||
        (t.name && strcmp(u.name, t.name) != 0))
      wnn_fuzz_die("a TensorProto round trip changed the tensor");
    wnn_host_tensor_free(&u);
    free(file);
  }
  wnn_host_tensor_free(&t);
  return 0;
}
