/* The allocator hook: every byte the library uses goes through a wnn_allocator. */
#ifndef WNN_ALLOC_H
#define WNN_ALLOC_H

#include <stddef.h>

#include "wnn.h"

/* The C library's allocator. */
extern const wnn_allocator wnn_default_allocator;

static inline void *wnn_alloc(const wnn_allocator *a, size_t size, size_t align) {
  return a->alloc(a->user, size ? size : 1, align);
}
static inline void wnn_free(const wnn_allocator *a, void *ptr, size_t size, size_t align) {
  if (ptr) a->free(a->user, ptr, size ? size : 1, align);
}
/* Zero-filled memory. */
void *wnn_calloc(const wnn_allocator *a, size_t count, size_t size, size_t align);
/* A NUL-terminated copy of the first len bytes of s. Free with wnn_free_str. */
char *wnn_strndup(const wnn_allocator *a, const char *s, size_t len);
void wnn_free_str(const wnn_allocator *a, char *s);

/* wnn's private cJSON allocates with `a` on the calling thread between these
 * two calls (for a parse or a build), with the default allocator otherwise.
 * Nothing process-wide changes: no cJSON_InitHooks (CMakeLists.txt). */
void wnn_json_begin(const wnn_allocator *a);
void wnn_json_end(void);
/* Whether an allocation failed since wnn_json_begin: cJSON reports an out-of-
 * memory parse as a syntax error, and this tells the two apart. */
int wnn_json_out_of_memory(void);

#endif /* WNN_ALLOC_H */
