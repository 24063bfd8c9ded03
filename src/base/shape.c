/* Shape helpers shared by the runtime, the ops and the builder (base/shape.h). */

#include "base/shape.h"
#include "base/status.h"

int64_t wnn_shape_numel(int ndim, const int64_t *dims) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    if (dims[i] < 0 || __builtin_mul_overflow(n, dims[i], &n)) return -1;
  return n;
}

bool wnn_shape_nbytes(int ndim, const int64_t *dims, size_t esize, uint64_t *nbytes) {
  int64_t n = wnn_shape_numel(ndim, dims);
  uint64_t b;
  if (n < 0 || __builtin_mul_overflow((uint64_t)n, (uint64_t)esize, &b)) return false;
  *nbytes = b;
  return true;
}

bool wnn_shape_equal(int ndim_a, const int64_t *a, int ndim_b, const int64_t *b) {
  if (ndim_a != ndim_b) return false;
  for (int i = 0; i < ndim_a; i++)
    if (a[i] != b[i]) return false;
  return true;
}

int64_t wnn_checked_numel(int ndim, const int64_t *dims, size_t elem_size) {
  /* Bytes must fit both int64 and this target's size_t (32 bits on wasm32). */
  const uint64_t limit = (uint64_t)(SIZE_MAX < INT64_MAX ? SIZE_MAX : INT64_MAX);
  const uint64_t esize = elem_size ? elem_size : 1;
  uint64_t n = 1;
  for (int i = 0; i < ndim; i++) {
    if (dims[i] < 0) return -1;
    if (dims[i] == 0) n = 0;
  }
  if (n == 0) return 0;
  for (int i = 0; i < ndim; i++) {
    if ((uint64_t)dims[i] > limit / esize / n) return -1;
    n *= (uint64_t)dims[i];
  }
  return (int64_t)n;
}

const char *wnn_format_dims(char *buf, size_t cap, int ndim, const int64_t *dims) {
  size_t used = 0;
  buf[0] = '\0';
  used += (size_t)wnn_fmt(buf, cap, "[");
  for (int i = 0; i < ndim && used < cap; i++)
    used += (size_t)wnn_fmt(buf + used, cap - used, i ? ", %lld" : "%lld", (long long)dims[i]);
  if (used < cap) wnn_fmt(buf + used, cap - used, "]");
  return buf;
}
