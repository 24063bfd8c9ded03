/* Status texts, the per-thread last error, and element-type helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/internal.h"

const char *wnn_version(void) { return "0.1.0"; }

const char *wnn_status_str(wnn_status status) {
  switch (status) {
    case WNN_OK: return "ok";
    case WNN_ERR_INVALID_ARGUMENT: return "invalid argument";
    case WNN_ERR_OUT_OF_MEMORY: return "out of memory";
    case WNN_ERR_TRUNCATED: return "artifact truncated";
    case WNN_ERR_BAD_MAGIC: return "not a wnn artifact";
    case WNN_ERR_VERSION: return "unsupported format version";
    case WNN_ERR_FEATURE: return "unsupported feature";
    case WNN_ERR_BAD_SECTION: return "bad section table";
    case WNN_ERR_CHECKSUM: return "checksum mismatch";
    case WNN_ERR_MALFORMED: return "malformed graph";
    case WNN_ERR_UNKNOWN_OP: return "unknown operator";
    case WNN_ERR_BAD_ATTRIBUTE: return "bad attribute";
    case WNN_ERR_BAD_PLAN: return "bad memory plan";
    case WNN_ERR_NOT_FOUND: return "name not found";
    case WNN_ERR_OUT_OF_RANGE: return "index out of range";
    case WNN_ERR_DTYPE: return "wrong dtype";
    case WNN_ERR_SHAPE: return "wrong shape";
    case WNN_ERR_SIZE: return "wrong size";
    case WNN_ERR_UNSUPPORTED: return "unsupported";
    case WNN_ERR_IO: return "i/o error";
    case WNN_ERR_LIMIT: return "resource limit exceeded";
  }
  return "unknown status";
}

/* Without threads (wasm32 without shared memory) this is an ordinary global. */
static _Thread_local char last_error[512];

const char *wnn_last_error(void) { return last_error; }

void wnn_clear_error(void) { last_error[0] = '\0'; }

wnn_status wnn_vseterr(char *buf, size_t cap, wnn_status status, const char *fmt, va_list ap) {
  char text[sizeof last_error];
  vsnprintf(text, sizeof text, fmt, ap);
  memcpy(last_error, text, sizeof text);
  if (buf && cap) snprintf(buf, cap, "%s", text);
  return status;
}

wnn_status wnn_seterr(char *buf, size_t cap, wnn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wnn_vseterr(buf, cap, status, fmt, ap);
  va_end(ap);
  return status;
}

static const struct {
  wnn_dtype dtype;
  const char *name;
  uint8_t code, bits;
  size_t size;
} dtypes[] = {
    {WNN_DTYPE_F32, "float32", kDLFloat, 32, 4}, {WNN_DTYPE_F16, "float16", kDLFloat, 16, 2},
    {WNN_DTYPE_I64, "int64", kDLInt, 64, 8},     {WNN_DTYPE_I32, "int32", kDLInt, 32, 4},
    {WNN_DTYPE_I8, "int8", kDLInt, 8, 1},        {WNN_DTYPE_U8, "uint8", kDLUInt, 8, 1},
    {WNN_DTYPE_BOOL, "bool", kDLUInt, 8, 1},
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
