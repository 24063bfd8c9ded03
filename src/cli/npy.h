/*
 * NumPy .npy files (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html).
 *
 * Reads format versions 1.0, 2.0 and 3.0; writes 1.0. Element types: float32
 * (<f4), float16 (<f2), float64 (<f8), int64 (<i8), int32 (<i4), int8 (|i1),
 * uint8 (|u1), bool (|b1). Little-endian and C order only.
 *
 * Every length is checked against the buffer; a malformed file gets a status
 * and a message, never a crash.
 */
#ifndef WNN_CLI_NPY_H
#define WNN_CLI_NPY_H

#include "host_tensor.h"

/* Parses a whole .npy file held in data[size]. On success *out receives a copy
 * of the elements (the caller frees it with wnn_host_tensor_free) and data may
 * be released at once. On failure *out is untouched.
 * Statuses: WNN_ERR_BAD_MAGIC (not a .npy file), WNN_ERR_VERSION (unknown
 * format version), WNN_ERR_TRUNCATED (file ends inside the preamble, the header
 * or the data), WNN_ERR_MALFORMED (header dictionary unreadable, key missing
 * or unknown), WNN_ERR_DTYPE (element type not supported, big-endian),
 * WNN_ERR_UNSUPPORTED (fortran_order True, more than WNN_MAX_DIMS dims),
 * WNN_ERR_SIZE (shape overflows size_t, data longer than the shape says),
 * WNN_ERR_OUT_OF_MEMORY. */
wnn_status wnn_npy_parse(const void *data, size_t size, wnn_host_tensor *out, char *err,
                         size_t errcap);

/* Encodes a tensor as a version 1.0 .npy file into a malloc'd buffer that the
 * caller frees. nbytes must equal the shape's element count times the dtype's
 * size (WNN_ERR_SIZE otherwise). On failure *out and *out_size are untouched. */
wnn_status wnn_npy_encode(wnn_dtype dtype, int ndim, const int64_t *shape, const void *data,
                          size_t nbytes, void **out, size_t *out_size, char *err, size_t errcap);

/* The .npy type string of a dtype ("<f4", "|b1", ...), or NULL. */
const char *wnn_npy_descr(wnn_dtype dtype);

#endif /* WNN_CLI_NPY_H */
