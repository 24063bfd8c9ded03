/*
 * Whole-file reading and writing for the CLI and the fixture tool, with only
 * stdio (so it builds unchanged for wasm32-wasi), and reading a tensor file in
 * either supported format.
 */
#ifndef WNN_CLI_FILEIO_H
#define WNN_CLI_FILEIO_H

#include "host_tensor.h"

/* Reads the whole file at path into a malloc'd buffer (*data, *size) that the
 * caller frees; *data is non-NULL on success even for an empty file.
 * WNN_ERR_IO (with the C library's reason) or WNN_ERR_OUT_OF_MEMORY. */
wnn_status wnn_file_read(const char *path, void **data, size_t *size, char *err, size_t errcap);

/* Creates or replaces the file at path with data[size]. WNN_ERR_IO. */
wnn_status wnn_file_write(const char *path, const void *data, size_t size, char *err,
                          size_t errcap);

/* Reads a tensor from a .npy file (recognized by its magic) or a serialized
 * onnx.TensorProto (any other file whose name ends in ".pb"). The message does
 * not repeat the path; the caller adds it. */
wnn_status wnn_tensor_file_read(const char *path, wnn_host_tensor *out, char *err, size_t errcap);

#endif /* WNN_CLI_FILEIO_H */
