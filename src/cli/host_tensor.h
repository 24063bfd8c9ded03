/*
 * A tensor read from or written to a file by the CLI and the fixture tool: the
 * element type, shape and an owned copy of the data. Shared by the .npy and
 * TensorProto readers (npy.h, tensorproto.h) and by main.c.
 *
 * Everything here is header-only (static inline) so that a test or tool can
 * #include the one .c file it exercises without dragging in the others.
 *
 * Error convention of the CLI modules: a fallible function returns a
 * wnn_status and writes a NUL-terminated message naming what is wrong into the
 * caller's buffer err[errcap] (err may be NULL). They never print.
 */
#ifndef WNN_CLI_HOST_TENSOR_H
#define WNN_CLI_HOST_TENSOR_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnn.h"

typedef struct wnn_host_tensor {
  /* WNN_DTYPE_INVALID for an element type that files may hold but wnn has no
   * dtype for; dtype_name and elem_size are still set, so a caller can say
   * what the file holds. */
  wnn_dtype dtype;
  const char *dtype_name; /* static: "float32", "float64", ... */
  size_t elem_size;
  int ndim;
  int64_t shape[WNN_MAX_DIMS];
  size_t count;  /* elements: product of shape (1 for a scalar) */
  size_t nbytes; /* count * elem_size */
  void *data;    /* malloc'd, nbytes long (never NULL after a successful read) */
  char *name;    /* malloc'd, or NULL: the TensorProto's name field */
} wnn_host_tensor;

static inline void wnn_host_tensor_free(wnn_host_tensor *t) {
  if (!t) return;
  free(t->data);
  free(t->name);
  memset(t, 0, sizeof *t);
}

#if defined(__GNUC__) || defined(__clang__)
#define WNN_CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define WNN_CLI_PRINTF(f, a)
#endif

/* Writes a message into err[errcap] (when err is non-NULL) and returns status. */
static inline wnn_status wnn_cli_err(char *err, size_t errcap, wnn_status status,
                                     const char *fmt, ...) WNN_CLI_PRINTF(4, 5);
static inline wnn_status wnn_cli_err(char *err, size_t errcap, wnn_status status,
                                     const char *fmt, ...) {
  if (err && errcap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
  }
  return status;
}

/* Element count and byte size of a shape, checking every multiplication for
 * overflow of size_t (32 bits on wasm32); a shape with a zero dimension has no
 * elements whatever its other dimensions. Returns 0 when the size overflows or
 * a dimension is negative, 1 otherwise. */
static inline int wnn_shape_size(int ndim, const int64_t *shape, size_t elem_size, size_t *count,
                                 size_t *nbytes) {
  int empty = 0;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) return 0;
    if (shape[i] == 0) empty = 1;
  }
  size_t n = 1;
  if (empty) {
    n = 0;
  } else {
    for (int i = 0; i < ndim; i++) {
      if ((uint64_t)shape[i] > (uint64_t)SIZE_MAX) return 0;
      size_t d = (size_t)shape[i];
      if (n > SIZE_MAX / d) return 0;
      n *= d;
    }
  }
  if (elem_size != 0 && n > SIZE_MAX / elem_size) return 0;
  *count = n;
  *nbytes = n * elem_size;
  return 1;
}

/* Formats a shape as "[1,3,224,224]" ("[]" for a scalar) into buf[cap]. */
static inline const char *wnn_shape_str(char *buf, size_t cap, int ndim, const int64_t *shape) {
  size_t used = 0;
  if (!cap) return buf;
  buf[0] = '\0';
  used += (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < ndim && used < cap; i++)
    used += (size_t)snprintf(buf + used, cap - used, i ? ",%lld" : "%lld", (long long)shape[i]);
  if (used < cap) snprintf(buf + used, cap - used, "]");
  return buf;
}

#endif /* WNN_CLI_HOST_TENSOR_H */
