/* Whole-file I/O with stdio (see fileio.h). */
#include "fileio.h"

#include <errno.h>

#include "npy.h"
#include "tensorproto.h"

wnn_status wnn_file_read(const char *path, void **data, size_t *size, char *err, size_t errcap) {
  errno = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return wnn_cli_err(err, errcap, WNN_ERR_IO, "cannot open: %s",
                       errno ? strerror(errno) : "unknown reason");
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = (uint8_t *)malloc(cap);
  if (!buf) {
    fclose(f);
    return wnn_cli_err(err, errcap, WNN_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (;;) {
    if (n == cap) {
      if (cap > SIZE_MAX / 2) {
        free(buf);
        fclose(f);
        return wnn_cli_err(err, errcap, WNN_ERR_OUT_OF_MEMORY, "file too large");
      }
      uint8_t *bigger = (uint8_t *)realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        fclose(f);
        return wnn_cli_err(err, errcap, WNN_ERR_OUT_OF_MEMORY, "out of memory reading %zu bytes",
                           cap * 2);
      }
      buf = bigger;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int failed = ferror(f);
  int saved = errno;
  fclose(f);
  if (failed) {
    free(buf);
    return wnn_cli_err(err, errcap, WNN_ERR_IO, "read error: %s",
                       saved ? strerror(saved) : "unknown reason");
  }
  *data = buf;
  *size = n;
  return WNN_OK;
}

wnn_status wnn_file_write(const char *path, const void *data, size_t size, char *err,
                          size_t errcap) {
  errno = 0;
  FILE *f = fopen(path, "wb");
  if (!f)
    return wnn_cli_err(err, errcap, WNN_ERR_IO, "cannot create: %s",
                       errno ? strerror(errno) : "unknown reason");
  size_t put = size ? fwrite(data, 1, size, f) : 0;
  int saved = errno;
  int closed = fclose(f);
  if (put != size || closed != 0)
    return wnn_cli_err(err, errcap, WNN_ERR_IO, "write error: %s",
                       saved ? strerror(saved) : errno ? strerror(errno) : "unknown reason");
  return WNN_OK;
}

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

wnn_status wnn_tensor_file_read(const char *path, wnn_host_tensor *out, char *err, size_t errcap) {
  void *data;
  size_t size;
  wnn_status st = wnn_file_read(path, &data, &size, err, errcap);
  if (st != WNN_OK) return st;
  if (size >= 6 && memcmp(data, "\x93NUMPY", 6) == 0)
    st = wnn_npy_parse(data, size, out, err, errcap);
  else if (ends_with(path, ".pb"))
    st = wnn_tensorproto_parse(data, size, out, err, errcap);
  else if (ends_with(path, ".npy"))
    st = wnn_npy_parse(data, size, out, err, errcap); /* names the bad magic or truncation */
  else
    st = wnn_cli_err(err, errcap, WNN_ERR_UNSUPPORTED,
                     "unknown tensor file format: not a .npy file (no \\x93NUMPY magic) and the "
                     "name does not end in .pb");
  free(data);
  return st;
}
