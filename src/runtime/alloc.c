#include "runtime/alloc.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
/* The web build: malloc for the alignments it guarantees; larger ones (64 for
 * arenas and weights) over-allocate by `align` and keep malloc's pointer just
 * before the aligned block. Not aligned_alloc: emmalloc, the web build's
 * malloc, can grow the wasm memory twice for one large aligned request,
 * doubling the memory a model takes (light_zfnet512: 577 MB for 288 MB of
 * weights). The builder, whose artifacts callers release with free(), is not
 * part of the web build. */
static void *default_alloc(void *user, size_t size, size_t align) {
  (void)user;
  if (align <= _Alignof(max_align_t)) return malloc(size ? size : 1);
  if (size > SIZE_MAX - align - sizeof(void *)) return NULL;
  unsigned char *raw = malloc(size + align + sizeof(void *));
  if (!raw) return NULL;
  uintptr_t p = ((uintptr_t)raw + sizeof(void *) + align - 1) & ~(uintptr_t)(align - 1);
  ((void **)p)[-1] = raw;
  return (void *)p;
}

static void default_free(void *user, void *ptr, size_t size, size_t align) {
  (void)user, (void)size;
  if (ptr && align > _Alignof(max_align_t)) ptr = ((void **)ptr)[-1];
  free(ptr);
}
#else
static void *default_alloc(void *user, size_t size, size_t align) {
  (void)user;
  if (align < sizeof(void *)) align = sizeof(void *);
  size = (size + align - 1) / align * align; /* aligned_alloc wants a multiple */
  return aligned_alloc(align, size ? size : align);
}

static void default_free(void *user, void *ptr, size_t size, size_t align) {
  (void)user, (void)size, (void)align;
  free(ptr);
}
#endif

const wnn_allocator wnn_default_allocator = {default_alloc, default_free, NULL};

void *wnn_calloc(const wnn_allocator *a, size_t count, size_t size, size_t align) {
  if (size && count > SIZE_MAX / size) return NULL;
  void *p = wnn_alloc(a, count * size, align);
  if (p) memset(p, 0, count * size);
  return p;
}

char *wnn_strndup(const wnn_allocator *a, const char *s, size_t len) {
  char *d = wnn_alloc(a, len + 1, 1);
  if (d) {
    memcpy(d, s, len);
    d[len] = '\0';
  }
  return d;
}

void wnn_free_str(const wnn_allocator *a, char *s) {
  if (s) wnn_free(a, s, strlen(s) + 1, 1);
}

/* wnn's private cJSON allocates through these (src/runtime/cjson_build.h maps
 * its malloc/free/realloc here). They take no user pointer and free without a
 * size, so each block carries a 16-byte prefix with its size, and the
 * allocator in force is a per-thread pointer set by wnn_json_begin. */
static _Thread_local const wnn_allocator *json_allocator;
static _Thread_local int json_out_of_memory;

void *wnn_json_malloc(size_t size) {
  const wnn_allocator *a = json_allocator ? json_allocator : &wnn_default_allocator;
  if (size > SIZE_MAX - 16) {
    json_out_of_memory = 1;
    return NULL;
  }
  unsigned char *p = wnn_alloc(a, size + 16, 16);
  if (!p) {
    json_out_of_memory = 1;
    return NULL;
  }
  memcpy(p, &size, sizeof size);
  return p + 16;
}

void wnn_json_free(void *ptr) {
  if (!ptr) return;
  const wnn_allocator *a = json_allocator ? json_allocator : &wnn_default_allocator;
  unsigned char *p = (unsigned char *)ptr - 16;
  size_t size;
  memcpy(&size, p, sizeof size);
  wnn_free(a, p, size + 16, 16);
}

/* cJSON grows its print buffer with realloc. */
void *wnn_json_realloc(void *ptr, size_t size) {
  if (!ptr) return wnn_json_malloc(size);
  size_t old;
  memcpy(&old, (unsigned char *)ptr - 16, sizeof old);
  void *q = wnn_json_malloc(size);
  if (!q) return NULL; /* ptr stays valid, as realloc's contract says */
  memcpy(q, ptr, old < size ? old : size);
  wnn_json_free(ptr);
  return q;
}

void wnn_json_begin(const wnn_allocator *a) {
  json_allocator = a;
  json_out_of_memory = 0;
}

void wnn_json_end(void) { json_allocator = NULL; }

int wnn_json_out_of_memory(void) { return json_out_of_memory; }
