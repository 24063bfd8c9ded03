#include "runtime/alloc.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *user, size_t size, size_t align) {
  (void)user;
  if (align < sizeof(void *)) align = sizeof(void *);
  size = (size + align - 1) / align * align; /* aligned_alloc wants a multiple */
  return aligned_alloc(align, size);
}

static void default_free(void *user, void *ptr, size_t size, size_t align) {
  (void)user, (void)size, (void)align;
  free(ptr);
}

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

/* cJSON's hooks take no user pointer and free without a size, so each block
 * carries a 16-byte prefix with its size, and the allocator in force is a
 * per-thread pointer set by wnn_json_begin. */
static _Thread_local const wnn_allocator *json_allocator;
static _Thread_local int json_out_of_memory;

static void *json_malloc(size_t size) {
  const wnn_allocator *a = json_allocator ? json_allocator : &wnn_default_allocator;
  if (size > SIZE_MAX - 16) return NULL;
  unsigned char *p = wnn_alloc(a, size + 16, 16);
  if (!p) {
    json_out_of_memory = 1;
    return NULL;
  }
  memcpy(p, &size, sizeof size);
  return p + 16;
}

static void json_free(void *ptr) {
  if (!ptr) return;
  const wnn_allocator *a = json_allocator ? json_allocator : &wnn_default_allocator;
  unsigned char *p = (unsigned char *)ptr - 16;
  size_t size;
  memcpy(&size, p, sizeof size);
  wnn_free(a, p, size + 16, 16);
}

void wnn_json_begin(const wnn_allocator *a) {
  static cJSON_Hooks hooks = {json_malloc, json_free};
  json_allocator = a;
  json_out_of_memory = 0;
  cJSON_InitHooks(&hooks);
}

void wnn_json_end(void) { json_allocator = NULL; }

int wnn_json_out_of_memory(void) { return json_out_of_memory; }
