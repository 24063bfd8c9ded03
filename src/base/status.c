/* Status texts and the per-thread last error (base/status.h). */
#include <stdarg.h>
#include <string.h>

#include "base/status.h"

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
  wnn_vfmt(text, sizeof text, fmt, ap);
  memcpy(last_error, text, sizeof text);
  if (buf && cap) wnn_fmt(buf, cap, "%s", text);
  return status;
}

wnn_status wnn_seterr(char *buf, size_t cap, wnn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wnn_vseterr(buf, cap, status, fmt, ap);
  va_end(ap);
  return status;
}
