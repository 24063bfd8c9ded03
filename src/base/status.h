/*
 * The base layer (src/base/), below both the runtime and the ops: status
 * texts and error messages. wnn_status_str and wnn_last_error are the public
 * side (include/wnn.h); these are what the library's own files use to report.
 */
#ifndef WNN_BASE_STATUS_H
#define WNN_BASE_STATUS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wnn.h"

/* Error reporting: writes the message to the thread's last error and, when buf
 * is non-NULL, to buf (a handle's own message). Returns status. */
wnn_status wnn_seterr(char *buf, size_t cap, wnn_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
wnn_status wnn_vseterr(char *buf, size_t cap, wnn_status status, const char *fmt, va_list ap);
void wnn_clear_error(void);

/* The library's snprintf/vsnprintf (base/fmt.c): the same contract (at most
 * cap bytes with the terminating zero, returns the length the whole text
 * would have), for the conversions messages use: d i u x X c s p g e f %,
 * flags - 0 + space, width, precision, lengths hh h l ll z j t. */
int wnn_fmt(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int wnn_vfmt(char *buf, size_t cap, const char *fmt, va_list ap);

#endif /* WNN_BASE_STATUS_H */
