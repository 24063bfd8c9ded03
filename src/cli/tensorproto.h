/*
 * One serialized onnx.TensorProto (the .pb files of the ONNX backend test
 * data: test_data_set_N/input_<i>.pb), decoded by a small protobuf wire-format
 * reader written for this purpose: the CLI must build for wasm32-wasi with
 * nothing but the C library, so no generated protobuf code is linked.
 *
 * Fields read: dims (1), data_type (2), float_data (4), int32_data (5),
 * int64_data (7), name (8), raw_data (9), double_data (10), uint64_data (11),
 * data_location (14). Repeated fields may be packed or unpacked. Rejected:
 * segment (3), string_data (6), data_location EXTERNAL. Every other field is
 * skipped by its wire type.
 *
 * Data types: FLOAT (1), UINT8 (2), INT8 (3), INT32 (6), INT64 (7), BOOL (9),
 * FLOAT16 (10) and DOUBLE (11) map to wnn dtypes. Any other data type is
 * rejected with its number in the message.
 */
#ifndef WNN_CLI_TENSORPROTO_H
#define WNN_CLI_TENSORPROTO_H

#include "host_tensor.h"

/* ONNX TensorProto.DataType numbers used here. */
enum {
  WNN_ONNX_FLOAT = 1,
  WNN_ONNX_UINT8 = 2,
  WNN_ONNX_INT8 = 3,
  WNN_ONNX_INT32 = 6,
  WNN_ONNX_INT64 = 7,
  WNN_ONNX_STRING = 8,
  WNN_ONNX_BOOL = 9,
  WNN_ONNX_FLOAT16 = 10,
  WNN_ONNX_DOUBLE = 11
};

/* Decodes one TensorProto held in data[size]. On success *out owns a copy of
 * the elements and the name (NULL when the message has none); the caller frees
 * it with wnn_host_tensor_free. On failure *out is untouched.
 * Statuses: WNN_ERR_TRUNCATED (a varint, length or fixed field runs past the
 * end), WNN_ERR_MALFORMED (bad field key, wire type or value, element counts
 * that disagree with dims), WNN_ERR_DTYPE (data type not supported or
 * missing), WNN_ERR_UNSUPPORTED (external data, segments, strings, more than
 * WNN_MAX_DIMS dims), WNN_ERR_SIZE (dims overflow size_t),
 * WNN_ERR_OUT_OF_MEMORY. */
wnn_status wnn_tensorproto_parse(const void *data, size_t size, wnn_host_tensor *out, char *err,
                                 size_t errcap);

/* Encodes a tensor as a TensorProto with dims, data_type, name (when non-NULL)
 * and raw_data, in a malloc'd buffer the caller frees. nbytes must match the
 * shape (WNN_ERR_SIZE otherwise). On failure *out and *out_size are untouched. */
wnn_status wnn_tensorproto_encode(wnn_dtype dtype, int ndim, const int64_t *shape,
                                  const void *data, size_t nbytes, const char *name, void **out,
                                  size_t *out_size, char *err, size_t errcap);

/* The ONNX data type number of a wnn dtype (0 for WNN_DTYPE_INVALID). */
int wnn_onnx_data_type(wnn_dtype dtype);

#endif /* WNN_CLI_TENSORPROTO_H */
