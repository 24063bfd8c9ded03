/* A host program that uses the system's cJSON (libcjson, a shared library)
 * around wnn model loads, as an application that parses its own JSON does
 * (issue 18). wnn builds a private copy of cJSON (CMakeLists.txt), so:
 *   - the host's JSON, parsed before a load, frees with the host's allocator
 *     after it (when wnn called cJSON_InitHooks on the shared cJSON, this
 *     cJSON_Delete went to wnn's hook and aborted in free());
 *   - hooks the host installs are neither used nor replaced by a load;
 *   - the host's cJSON_* names resolve to the system library, not to wnn's.
 * Built natively only, without the wnn_cjson usage requirements (they would
 * rename this file's cJSON calls too), and linked with the system's libcjson.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder/writer.h"
#include "runtime/format.h"
#include "wnn.h"

static int failures;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);           \
      failures++;                                                      \
    }                                                                  \
  } while (0)

static long host_allocs, host_frees;
static void *host_malloc(size_t n) {
  host_allocs++;
  return malloc(n);
}
static void host_free(void *p) {
  if (p) host_frees++;
  free(p);
}

static const char *relu_graph =
    "{\"values\":["
    "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":0},"
    "{\"name\":\"y\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":64}],"
    "\"inputs\":[0],\"outputs\":[1],"
    "\"nodes\":[{\"op\":8,\"name\":\"act\",\"inputs\":[0],\"outputs\":[1]}],"
    "\"arena_bytes\":128}";

static void *xalloc(void *user, size_t size, size_t align) {
  (void)user;
  return aligned_alloc(align, (size + align - 1) / align * align);
}
static void xfree(void *user, void *p, size_t size, size_t align) {
  (void)user, (void)size, (void)align;
  free(p);
}

/* Loads the Relu artifact and runs it once; returns whether it worked. */
static int load_and_run(const uint8_t *buf, size_t size) {
  wnn_model *m;
  if (wnn_model_load(buf, size, NULL, &m) != WNN_OK) {
    printf("load: %s\n", wnn_last_error());
    return 0;
  }
  int ok = wnn_model_num_inputs(m) == 1;
  wnn_model_free(m);
  return ok;
}

int main(void) {
  const wnn_allocator a = {xalloc, xfree, NULL};
  wnn_section_data sec[2] = {{WNN_SECTION_GRAPH, relu_graph, strlen(relu_graph)},
                             {WNN_SECTION_METADATA, "{\"name\":\"relu\"}", 15}};
  size_t size;
  uint8_t *buf = wnn_container_write(&a, sec, 2, &size);
  EXPECT(buf != NULL);
  if (!buf) return 1;

  /* The host's cJSON is the system library's. */
  Dl_info info;
  EXPECT(dladdr((void *)&cJSON_Parse, &info) && info.dli_fname &&
         strstr(info.dli_fname, "libcjson") != NULL);

  /* 1. JSON parsed before a load is freed after it, with the host's free. */
  cJSON *doc = cJSON_Parse("{\"a\":[1,2,3],\"b\":\"text\"}");
  EXPECT(doc != NULL);
  EXPECT(load_and_run(buf, size));
  cJSON_Delete(doc); /* aborted in free() when wnn replaced the hooks */
  char *printed = NULL;
  doc = cJSON_Parse("[1,2]");
  EXPECT(load_and_run(buf, size));
  printed = cJSON_PrintUnformatted(doc);
  EXPECT(printed && !strcmp(printed, "[1,2]"));
  cJSON_free(printed);
  cJSON_Delete(doc);

  /* 2. Hooks the host installs stay the host's: a load neither uses them nor
   * replaces them. */
  cJSON_Hooks hooks = {host_malloc, host_free};
  cJSON_InitHooks(&hooks);
  doc = cJSON_Parse("{\"k\":[true,false,null]}");
  long allocs = host_allocs;
  EXPECT(allocs > 0);
  for (int i = 0; i < 3; i++) EXPECT(load_and_run(buf, size));
  EXPECT(host_allocs == allocs); /* wnn's JSON went elsewhere */
  cJSON *more = cJSON_Parse("{\"after\":1}");
  EXPECT(host_allocs > allocs); /* still the host's hooks */
  cJSON_Delete(more);
  cJSON_Delete(doc);
  EXPECT(host_frees == host_allocs);
  cJSON_InitHooks(NULL);

  free(buf);
  printf("%s: %d failure(s)\n", failures ? "FAIL" : "ok", failures);
  return failures ? 1 : 0;
}
