/* Forced into the compile of wnn's private copy of cJSON.c only (see the
 * dependencies block of CMakeLists.txt): cJSON's default allocator becomes
 * wnn's. cJSON calls malloc, free and realloc through its default hooks; here
 * they are wnn_json_malloc/free/realloc (src/runtime/alloc.c), which allocate
 * with the wnn_allocator the calling thread set with wnn_json_begin. So wnn
 * never calls cJSON_InitHooks and writes no process-wide cJSON state.
 * <stdlib.h> comes first, so its own declarations keep their names. */
#ifndef WNN_CJSON_BUILD_H
#define WNN_CJSON_BUILD_H

#include <stddef.h>
#include <stdlib.h>

void *wnn_json_malloc(size_t size);
void wnn_json_free(void *ptr);
void *wnn_json_realloc(void *ptr, size_t size);

#define malloc wnn_json_malloc
#define free wnn_json_free
#define realloc wnn_json_realloc

#endif /* WNN_CJSON_BUILD_H */
