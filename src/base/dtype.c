/* Element types: sizes, names and their DLPack codes (the wnn_dtype_* functions
 * of include/wnn.h). */
#include <string.h>

#include "wnn.h"

static const struct {
  wnn_dtype dtype;
  const char *name;
  uint8_t code, bits;
  size_t size;
} dtypes[] = {
    {WNN_DTYPE_F32, "float32", kDLFloat, 32, 4}, {WNN_DTYPE_F16, "float16", kDLFloat, 16, 2},
    {WNN_DTYPE_I64, "int64", kDLInt, 64, 8},     {WNN_DTYPE_I32, "int32", kDLInt, 32, 4},
    {WNN_DTYPE_I8, "int8", kDLInt, 8, 1},        {WNN_DTYPE_U8, "uint8", kDLUInt, 8, 1},
    {WNN_DTYPE_BOOL, "bool", kDLUInt, 8, 1},     {WNN_DTYPE_F64, "float64", kDLFloat, 64, 8},
};
#define NUM_DTYPES (sizeof dtypes / sizeof dtypes[0])

size_t wnn_dtype_size(wnn_dtype dtype) {
  for (size_t i = 0; i < NUM_DTYPES; i++)
    if (dtypes[i].dtype == dtype) return dtypes[i].size;
  return 0;
}

const char *wnn_dtype_name(wnn_dtype dtype) {
  for (size_t i = 0; i < NUM_DTYPES; i++)
    if (dtypes[i].dtype == dtype) return dtypes[i].name;
  return "invalid";
}

wnn_dtype wnn_dtype_from_name(const char *name) {
  for (size_t i = 0; name && i < NUM_DTYPES; i++)
    if (strcmp(dtypes[i].name, name) == 0) return dtypes[i].dtype;
  return WNN_DTYPE_INVALID;
}

/* bool travels as DLPack's 8-bit unsigned integer, as most frameworks do; from
 * DLPack, uint8 maps back to WNN_DTYPE_U8, so a bool input accepts that too
 * (see dtype_matches in executor.c). */
DLDataType wnn_dtype_to_dl(wnn_dtype dtype) {
  DLDataType dl = {0, 0, 0};
  for (size_t i = 0; i < NUM_DTYPES; i++)
    if (dtypes[i].dtype == dtype) {
      dl.code = dtypes[i].code;
      dl.bits = dtypes[i].bits;
      dl.lanes = 1;
    }
  return dl;
}

wnn_dtype wnn_dtype_from_dl(DLDataType dl) {
  if (dl.lanes != 1) return WNN_DTYPE_INVALID;
  for (size_t i = 0; i < NUM_DTYPES; i++)
    if (dtypes[i].dtype != WNN_DTYPE_BOOL && dtypes[i].code == dl.code &&
        dtypes[i].bits == dl.bits)
      return dtypes[i].dtype;
  return WNN_DTYPE_INVALID;
}
