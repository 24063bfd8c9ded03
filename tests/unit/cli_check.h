/* CHECK_FAILS for the CLI's file-format functions, which report errors through
 * (err, errcap) parameters: the macro supplies both, so call sites pass `err,
 * errcap` as written. Shared by the .npy, TensorProto and file I/O tests. */
#ifndef WNN_CLI_CHECK_H
#define WNN_CLI_CHECK_H

#include <string.h>

#include "wnn.h"
#include "../test.h"

/* Checks that expr fails with `status` and that the message contains `text`. */
#define CHECK_FAILS(expr, status, text)                                                   \
  do {                                                                                    \
    char msg_[512] = "";                                                                  \
    char *err = msg_;                                                                     \
    size_t errcap = sizeof msg_;                                                          \
    int got_ = (int)(expr);                                                               \
    (void)err, (void)errcap;                                                              \
    if (got_ != (int)(status) || !strstr(msg_, text)) {                                   \
      printf("  %s:%d: %s: %s gave %d (%s) \"%s\", wanted %d with \"%s\"\n", __FILE__,    \
             __LINE__, test_current_, #expr, got_, wnn_status_str((wnn_status)got_), msg_, \
             (int)(status), text);                                                        \
      test_current_failed_ = 1;                                                           \
    }                                                                                     \
  } while (0)

#endif /* WNN_CLI_CHECK_H */
