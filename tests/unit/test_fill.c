/* FILL params (docs/format.md, param codec 3): the builder writes a param whose
 * elements are all equal as one element, the loader repeats it into one
 * model-owned block. Tests: what the builder writes, what the model computes
 * and exposes, every bad fill a reader must reject, allocation failures and
 * one-byte damage (the ASan build checks for leaks and bad reads). */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builder/writer.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "wnn.h"
#include "wnn_builder.h"
#include "../test.h"
#include "robustness.h"

/* ------------------------------------------------------- counting allocator */


/* ------------------------------------------------------------- the model */

enum { HALF_N = 1000, NEG_N = 16 };

/* x f32[8,8] -> Add(x, zeros f32[8,8]) -> Mul(ramp f32[8,8]) -> Add(tiny f32[8]) -> "y";
 * params "half" f32[10,100] (all 1.5) and "neg3" int64[16] (all -3) are
 * outputs too. zeros, half and neg3 are fills; ramp is not uniform and tiny
 * (32 bytes) is too small to be worth a fill. */
static void *build_model(const wnn_allocator *a, size_t *size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(a, &b)) return NULL;
  static float zeros[64], ramp[64], tiny[8], half[HALF_N];
  static int64_t neg3[NEG_N];
  for (int i = 0; i < 64; i++) ramp[i] = (float)i;
  for (int i = 0; i < 8; i++) tiny[i] = 2.0f;
  for (int i = 0; i < HALF_N; i++) half[i] = 1.5f;
  for (int i = 0; i < NEG_N; i++) neg3[i] = -3;
  int64_t s88[] = {8, 8}, s8[] = {8}, shalf[] = {10, 100}, sneg[] = {NEG_N};
  int x, Z, R, T, H, N, a1, m1, y;
  int ok = !wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 2, s88, &x) &&
           !wnn_builder_add_param(b, "zeros", WNN_DTYPE_F32, 2, s88, zeros, &Z) &&
           !wnn_builder_add_param(b, "ramp", WNN_DTYPE_F32, 2, s88, ramp, &R) &&
           !wnn_builder_add_param(b, "tiny", WNN_DTYPE_F32, 1, s8, tiny, &T) &&
           !wnn_builder_add_param(b, "half", WNN_DTYPE_F32, 2, shalf, half, &H) &&
           !wnn_builder_add_param(b, "neg3", WNN_DTYPE_I64, 1, sneg, neg3, &N) &&
           !wnn_builder_add_node(b, "Add", NULL, (int[]){x, Z}, 2, NULL, 1, &a1) &&
           !wnn_builder_add_node(b, "Mul", NULL, (int[]){a1, R}, 2, NULL, 1, &m1) &&
           !wnn_builder_add_node(b, "Add", NULL, (int[]){m1, T}, 2, NULL, 1, &y) &&
           !wnn_builder_add_output(b, y, "y") && !wnn_builder_add_output(b, H, "half") &&
           !wnn_builder_add_output(b, N, "neg3");
  void *data = NULL;
  if (!ok || wnn_builder_finish(b, &data, size)) {
    if (!a) printf("  build_model: %s\n", wnn_last_error());
    data = NULL;
  }
  wnn_builder_free(b);
  return data;
}

/* The parsed GRAPH section of an artifact (NULL on failure) and the size of
 * its WEIGHTS section. */
static cJSON *graph_of(const void *buf, size_t size, size_t *weights_size) {
  wnn_container c;
  if (wnn_container_read(buf, size, 1, &c) != WNN_OK) return NULL;
  *weights_size = c.weights.size;
  return cJSON_ParseWithLength((const char *)c.graph.data, c.graph.size);
}

static const cJSON *value_named(const cJSON *g, const char *name) {
  const cJSON *v;
  cJSON_ArrayForEach(v, cJSON_GetObjectItem(g, "values")) {
    const cJSON *n = cJSON_GetObjectItem(v, "name");
    if (cJSON_IsString(n) && !strcmp(n->valuestring, name)) return v;
  }
  return NULL;
}

static void expect_param(const cJSON *g, const char *name, int codec, int nbytes) {
  const cJSON *v = value_named(g, name);
  CHECK(v != NULL);
  if (!v) return;
  int got_codec = (int)cJSON_GetObjectItem(v, "codec")->valuedouble;
  int got_nbytes = (int)cJSON_GetObjectItem(v, "nbytes")->valuedouble;
  if (got_codec != codec || got_nbytes != nbytes) {
    printf("  param %s: codec %d nbytes %d, wanted codec %d nbytes %d\n", name, got_codec,
           got_nbytes, codec, nbytes);
    CHECK(0);
  }
}

/* Runs the model on x[i] = i / 4 and checks every output. */
static void check_outputs(wnn_model *m) {
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  if (!ex) return;
  float x[64];
  int64_t shape[] = {8, 8};
  for (int i = 0; i < 64; i++) x[i] = (float)i / 4;
  DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 2, shape);
  CHECK_OK(wnn_executor_set_input(ex, 0, &t));
  CHECK_OK(wnn_executor_run(ex));
  float y[64];
  CHECK_OK(wnn_executor_copy_output(ex, 0, y, sizeof y));
  int bad = 0;
  for (int i = 0; i < 64; i++) bad += y[i] != (x[i] + 0.0f) * (float)i + 2.0f;
  CHECK(bad == 0);

  DLTensor h, n;
  CHECK_OK(wnn_executor_get_output_by_name(ex, "half", &h));
  CHECK_OK(wnn_executor_get_output_by_name(ex, "neg3", &n));
  CHECK((uintptr_t)h.data % 64 == 0 && (uintptr_t)n.data % 64 == 0);
  CHECK(h.ndim == 2 && h.shape[0] == 10 && h.shape[1] == 100);
  const float *hv = h.data;
  const int64_t *nv = n.data;
  bad = 0;
  for (int i = 0; i < HALF_N; i++) bad += hv[i] != 1.5f;
  for (int i = 0; i < NEG_N; i++) bad += nv[i] != -3;
  CHECK(bad == 0);
  wnn_executor_destroy(ex);
}

/* ------------------------------------------------------------------ tests */

TEST(builder_writes_uniform_params_as_fills) {
  size_t size, wsize = 0;
  void *data = build_model(NULL, &size);
  CHECK(data != NULL);
  if (!data) return;
  cJSON *g = graph_of(data, size, &wsize);
  CHECK(g != NULL);
  expect_param(g, "zeros", WNN_CODEC_FILL, 4);
  expect_param(g, "half", WNN_CODEC_FILL, 4);
  expect_param(g, "neg3", WNN_CODEC_FILL, 8);
  expect_param(g, "ramp", WNN_CODEC_RAW, 256);
  expect_param(g, "tiny", WNN_CODEC_RAW, 32);
  cJSON_Delete(g);
  /* ramp's 256 bytes, then four 64-byte slots: tiny and the three fills. */
  CHECK(wsize == 256 + 4 * 64);

  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(data, size, NULL, &m));
  if (m) {
    /* The weights the model holds: the section plus the fills at 64-byte
     * multiples (zeros 256, half 4000 -> 4032, neg3 128). */
    size_t want = wsize + 256 + 4032 + 128;
    CHECK(wnn_model_weights_bytes(m) == want);
    cJSON *meta = cJSON_Parse(wnn_model_metadata(m));
    CHECK(meta && (size_t)cJSON_GetObjectItem(meta, "weights_bytes")->valuedouble == want);
    cJSON_Delete(meta);
    /* Params keep their full size in the API. */
    wnn_tensor_info info;
    int found = 0;
    for (int i = 0; i < wnn_model_num_params(m); i++) {
      CHECK_OK(wnn_model_param_info(m, i, &info));
      if (!strcmp(info.name, "half")) found = info.nbytes == HALF_N * sizeof(float);
    }
    CHECK(found);
    check_outputs(m);
  }
  wnn_model_free(m);
  free(data);
}

TEST(borrowed_and_misaligned_buffers) {
  size_t size;
  void *data = build_model(NULL, &size);
  if (!data) return;
  wnn_load_options opt = {WNN_LOAD_BORROW, WNN_KERNELS_AUTO, NULL};
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(data, size, &opt, &m));
  if (m) check_outputs(m);
  wnn_model_free(m);
  uint8_t *odd = malloc(size + 1);
  memcpy(odd + 1, data, size);
  m = NULL;
  CHECK_OK(wnn_model_load(odd + 1, size, &opt, &m));
  if (m) check_outputs(m);
  wnn_model_free(m);
  free(odd);
  free(data);
}

/* One param "w" of n elements of dtype, all equal to elem, as the only output;
 * checks it is a fill and reads back whole after load. */
static void fill_round_trip(wnn_dtype dtype, int64_t n, const void *elem) {
  size_t esize = wnn_dtype_size(dtype);
  uint8_t *w = malloc((size_t)n * esize);
  for (int64_t i = 0; i < n; i++) memcpy(w + i * esize, elem, esize);
  wnn_builder *b = NULL;
  int v;
  void *data = NULL;
  size_t size = 0;
  CHECK_OK(wnn_builder_create(NULL, &b));
  CHECK_OK(wnn_builder_add_param(b, "w", dtype, 1, &n, w, &v));
  CHECK_OK(wnn_builder_add_output(b, v, "w"));
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  wnn_builder_free(b);
  if (!data) {
    free(w);
    return;
  }
  size_t wsize = 0;
  cJSON *g = graph_of(data, size, &wsize);
  expect_param(g, "w", WNN_CODEC_FILL, (int)esize);
  cJSON_Delete(g);
  CHECK(wsize == 64);
  wnn_model *m = NULL;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_model_load(data, size, NULL, &m));
  if (m) CHECK_OK(wnn_executor_create(m, &ex));
  DLTensor t;
  if (ex && wnn_executor_get_output(ex, 0, &t) == WNN_OK) {
    CHECK((uintptr_t)t.data % 64 == 0);
    if (memcmp(t.data, w, (size_t)n * esize)) {
      printf("  %s[%lld]: materialized bytes differ\n", wnn_dtype_name(dtype), (long long)n);
      CHECK(0);
    }
  } else {
    CHECK(0);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  free(data);
  free(w);
}

TEST(fills_of_every_size_and_dtype) {
  /* Sizes around the 16 KB chunk the loader doubles up to, and odd ones. */
  static const int64_t counts[] = {16, 17, 1000, 4095, 4096, 4097, 70001};
  const float f = 1.5f;          /* bytes 00 00 c0 3f: not a one-byte pattern */
  const float z = 0.0f;          /* one-byte pattern: memset */
  const int64_t i64 = -3;
  const uint8_t u8 = 7;
  const int32_t i32 = 0x01020304;
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    fill_round_trip(WNN_DTYPE_F32, counts[i], &f);
    fill_round_trip(WNN_DTYPE_F32, counts[i], &z);
    fill_round_trip(WNN_DTYPE_I64, counts[i], &i64);
    fill_round_trip(WNN_DTYPE_I32, counts[i], &i32);
  }
  fill_round_trip(WNN_DTYPE_U8, 64, &u8);
  fill_round_trip(WNN_DTYPE_U8, 100003, &u8);
}

TEST(small_or_mixed_params_stay_raw) {
  float w[15];
  for (int i = 0; i < 15; i++) w[i] = 1.0f; /* 60 bytes: under the 64-byte threshold */
  float v[32];
  for (int i = 0; i < 32; i++) v[i] = 1.0f;
  v[31] = -1.0f; /* one element differs, the last one */
  int64_t n15 = 15, n32 = 32;
  wnn_builder *b = NULL;
  int a, c;
  void *data = NULL;
  size_t size = 0, wsize = 0;
  CHECK_OK(wnn_builder_create(NULL, &b));
  CHECK_OK(wnn_builder_add_param(b, "w", WNN_DTYPE_F32, 1, &n15, w, &a));
  CHECK_OK(wnn_builder_add_param(b, "v", WNN_DTYPE_F32, 1, &n32, v, &c));
  CHECK_OK(wnn_builder_add_output(b, a, "w"));
  CHECK_OK(wnn_builder_add_output(b, c, "v"));
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  wnn_builder_free(b);
  if (!data) return;
  cJSON *g = graph_of(data, size, &wsize);
  expect_param(g, "w", WNN_CODEC_RAW, 60);
  expect_param(g, "v", WNN_CODEC_RAW, 128);
  cJSON_Delete(g);
  free(data);
}

TEST(fills_of_one_element_share_bytes) {
  /* a f32[100] and b f32[300] of 0.5, and c int32[50] of 0x3F000000 (the same
   * four bytes): one run of 1200 bytes that all three point at. d is 0.25:
   * a run of its own. */
  static float a[100], bb[300], d[40];
  static int32_t c[50];
  for (int i = 0; i < 100; i++) a[i] = 0.5f;
  for (int i = 0; i < 300; i++) bb[i] = 0.5f;
  for (int i = 0; i < 50; i++) c[i] = 0x3F000000;
  for (int i = 0; i < 40; i++) d[i] = 0.25f;
  int64_t na = 100, nb = 300, nc = 50, nd = 40;
  wnn_builder *b = NULL;
  int va, vb, vc, vd;
  void *data = NULL;
  size_t size = 0;
  CHECK_OK(wnn_builder_create(NULL, &b));
  CHECK_OK(wnn_builder_add_param(b, "a", WNN_DTYPE_F32, 1, &na, a, &va));
  CHECK_OK(wnn_builder_add_param(b, "b", WNN_DTYPE_F32, 1, &nb, bb, &vb));
  CHECK_OK(wnn_builder_add_param(b, "c", WNN_DTYPE_I32, 1, &nc, c, &vc));
  CHECK_OK(wnn_builder_add_param(b, "d", WNN_DTYPE_F32, 1, &nd, d, &vd));
  CHECK_OK(wnn_builder_add_output(b, va, "a"));
  CHECK_OK(wnn_builder_add_output(b, vb, "b"));
  CHECK_OK(wnn_builder_add_output(b, vc, "c"));
  CHECK_OK(wnn_builder_add_output(b, vd, "d"));
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  wnn_builder_free(b);
  if (!data) return;
  wnn_model *m = NULL;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_model_load(data, size, NULL, &m));
  if (m) CHECK_OK(wnn_executor_create(m, &ex));
  if (ex) {
    /* WEIGHTS: four 64-byte slots; fills: 1200 -> 1216, and 160 -> 192. */
    CHECK(wnn_model_weights_bytes(m) == 4 * 64 + 1216 + 192);
    cJSON *meta = cJSON_Parse(wnn_model_metadata(m));
    CHECK(meta && (size_t)cJSON_GetObjectItem(meta, "weights_bytes")->valuedouble ==
                      wnn_model_weights_bytes(m));
    cJSON_Delete(meta);
    DLTensor ta, tb, tc, td;
    CHECK_OK(wnn_executor_get_output(ex, 0, &ta));
    CHECK_OK(wnn_executor_get_output(ex, 1, &tb));
    CHECK_OK(wnn_executor_get_output(ex, 2, &tc));
    CHECK_OK(wnn_executor_get_output(ex, 3, &td));
    CHECK(ta.data == tb.data && tb.data == tc.data && td.data != ta.data);
    CHECK(memcmp(tb.data, bb, sizeof bb) == 0 && memcmp(tc.data, c, sizeof c) == 0 &&
          memcmp(td.data, d, sizeof d) == 0);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  free(data);
}

TEST(more_distinct_fills_than_groups) {
  /* WNN_FILL_GROUPS + 3 fills of distinct elements, each f32[20 + i]: the
   * last three get bytes of their own; every one reads back whole. */
  enum { N = WNN_FILL_GROUPS + 3 };
  float w[N][20 + N];
  wnn_builder *b = NULL;
  int v[N];
  void *data = NULL;
  size_t size = 0, want = N * 64;
  CHECK_OK(wnn_builder_create(NULL, &b));
  for (int i = 0; i < N; i++) {
    int64_t n = 20 + i;
    char name[16];
    snprintf(name, sizeof name, "w%d", i);
    for (int k = 0; k < n; k++) w[i][k] = (float)i + 0.5f;
    want += ((size_t)n * 4 + 63) / 64 * 64;
    CHECK_OK(wnn_builder_add_param(b, name, WNN_DTYPE_F32, 1, &n, w[i], &v[i]));
    CHECK_OK(wnn_builder_add_output(b, v[i], name));
  }
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  wnn_builder_free(b);
  if (!data) return;
  wnn_model *m = NULL;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_model_load(data, size, NULL, &m));
  if (m) CHECK_OK(wnn_executor_create(m, &ex));
  if (ex) {
    CHECK(wnn_model_weights_bytes(m) == want);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      DLTensor t;
      CHECK_OK(wnn_executor_get_output(ex, i, &t));
      bad += (uintptr_t)t.data % 64 != 0 || memcmp(t.data, w[i], (size_t)(20 + i) * 4) != 0;
    }
    CHECK(bad == 0);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  free(data);
}

/* ------------------------------------------------- hand-written artifacts */

static uint8_t *artifact(const char *graph, const void *weights, size_t wbytes, size_t *size) {
  wnn_section_data sec[3] = {{WNN_SECTION_GRAPH, graph, strlen(graph)},
                             {WNN_SECTION_METADATA, "{}", 2},
                             {WNN_SECTION_WEIGHTS, weights, wbytes}};
  return wnn_container_write(&wnn_default_allocator, sec, weights ? 3 : 2, size);
}

static void free_artifact(uint8_t *buf, size_t size) {
  wnn_free(&wnn_default_allocator, buf, size, 64);
}

static void expect_load(const void *buf, size_t size, wnn_status want, const char *needle) {
  wnn_model *m = NULL;
  wnn_status st = wnn_model_load(buf, size, NULL, &m);
  CHECK_STATUS(st, want);
  wnn_model_free(m);
  if (st != WNN_OK && needle && !strstr(wnn_last_error(), needle)) {
    printf("  message \"%s\" lacks \"%s\"\n", wnn_last_error(), needle);
    CHECK(0);
  }
}

/* y = x + w, x and w float32[4]; w's offset, nbytes, codec and shape vary. */
static const char *add_graph =
    "{\"values\":["
    "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":0},"
    "{\"name\":\"w\",\"kind\":\"param\",\"dtype\":\"float32\",\"shape\":[%s],\"offset\":%d,"
    "\"nbytes\":%d,\"codec\":%d},"
    "{\"name\":\"y\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":64}],"
    "\"inputs\":[0],\"outputs\":[2],"
    "\"nodes\":[{\"op\":4,\"inputs\":[0,1],\"outputs\":[2]}],\"arena_bytes\":128}";

TEST(loader_validates_fills) {
  float w[16] = {2.5f};
  struct {
    const char *shape;
    int offset, nbytes, codec;
    wnn_status want;
    const char *needle;
  } cases[] = {
      {"4", 0, 4, 3, WNN_OK, NULL},
      {"1", 0, 4, 3, WNN_OK, NULL},
      {"4", 0, 16, 3, WNN_ERR_MALFORMED, "nbytes is 16 but its dtype and shape need 4 (one"},
      {"4", 64, 4, 3, WNN_ERR_MALFORMED, "(w) lies at 64+4, outside the 64-byte WEIGHTS"},
      {"4", 8, 4, 3, WNN_ERR_MALFORMED, "offset 8 is not a multiple of 64"},
      {"4", 0, 4, 9, WNN_ERR_FEATURE, "values[1] (param 'w') uses codec 9, unknown"},
      {"0", 0, 4, 3, WNN_ERR_MALFORMED, "(w) is a fill (codec 3) of no elements"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char json[1024];
    snprintf(json, sizeof json, add_graph, cases[i].shape, cases[i].offset, cases[i].nbytes,
             cases[i].codec);
    size_t size;
    uint8_t *buf = artifact(json, w, sizeof w, &size);
    expect_load(buf, size, cases[i].want, cases[i].needle);
    free_artifact(buf, size);
  }
  /* A fill needs its element: no WEIGHTS section at all. */
  char json[1024];
  snprintf(json, sizeof json, add_graph, "4", 0, 4, 3);
  size_t size;
  uint8_t *buf = artifact(json, NULL, 0, &size);
  expect_load(buf, size, WNN_ERR_MALFORMED, "outside the 0-byte WEIGHTS");
  free_artifact(buf, size);
}

TEST(fill_runs_and_feeds_shape_inputs) {
  /* The fill is materialized before any node is prepared: Reshape reads the
   * int64 fill [6, 6] as its constant shape input at load. */
  const char *g =
      "{\"values\":["
      "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[36],\"offset\":0},"
      "{\"name\":\"s\",\"kind\":\"param\",\"dtype\":\"int64\",\"shape\":[2],\"offset\":0,"
      "\"nbytes\":8,\"codec\":3},"
      "{\"name\":\"y\",\"kind\":\"alias\",\"dtype\":\"float32\",\"shape\":[6,6],\"of\":0}],"
      "\"inputs\":[0],\"outputs\":[2],"
      "\"nodes\":[{\"op\":14,\"inputs\":[0,1],\"outputs\":[2]}],\"arena_bytes\":192}";
  int64_t w[8] = {6};
  size_t size;
  uint8_t *buf = artifact(g, w, sizeof w, &size);
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(buf, size, NULL, &m));
  wnn_tensor_info info;
  if (m && wnn_model_output_info(m, 0, &info) == WNN_OK)
    CHECK(info.ndim == 2 && info.shape[0] == 6 && info.shape[1] == 6);
  wnn_model_free(m);
  free_artifact(buf, size);

  /* y = x + fill(2.5) over 4 elements. */
  char json[1024];
  snprintf(json, sizeof json, add_graph, "4", 0, 4, 3);
  float wf[16] = {2.5f};
  buf = artifact(json, wf, sizeof wf, &size);
  m = NULL;
  CHECK_OK(wnn_model_load(buf, size, NULL, &m));
  CHECK(wnn_model_weights_bytes(m) == 64 + 64);
  wnn_executor *ex = NULL;
  if (m) CHECK_OK(wnn_executor_create(m, &ex));
  float x[4] = {1, 2, 3, 4}, y[4] = {0};
  int64_t shape[] = {4};
  DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 1, shape);
  if (ex) {
    CHECK_OK(wnn_executor_set_input(ex, 0, &t));
    CHECK_OK(wnn_executor_run(ex));
    CHECK_OK(wnn_executor_copy_output(ex, 0, y, sizeof y));
    CHECK(y[0] == 3.5f && y[1] == 4.5f && y[2] == 5.5f && y[3] == 6.5f);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  free_artifact(buf, size);
}

TEST(allocation_failures_with_fills) {
  /* Fail the k-th allocation for every k, in load (which allocates the fill
   * block) and in executor creation: OUT_OF_MEMORY and nothing leaked. */
  size_t size;
  void *data = build_model(NULL, &size);
  if (!data) return;
  check_allocation_failures(data, size);
  free(data);

  /* The builder too, now that finish decides which params are fills. */
  int succeeded = 0;
  for (long k = 0; k < 10000 && !succeeded; k++) {
    counter c = {0, 0, k};
    wnn_allocator a = {count_alloc, count_free, &c};
    void *d = build_model(&a, &size);
    if (d) {
      succeeded = 1;
      a.free(a.user, d, size, 64);
    }
    if (c.live != 0) {
      printf("  builder: failing allocation %ld leaked %ld blocks\n", k, c.live);
      CHECK(0);
      break;
    }
  }
  CHECK(succeeded);
}

TEST(random_damage_with_fills_never_crashes) {
  /* Every single-byte change of a fill artifact, checksums off: any status is
   * fine, a crash, a leak or a bad read is not; a model that loads runs. */
  char json[1024];
  snprintf(json, sizeof json, add_graph, "4", 0, 4, 3);
  float w[16] = {2.5f};
  size_t size;
  uint8_t *buf = artifact(json, w, sizeof w, &size);
  static const uint8_t edits[] = {0x00, 0xFF, '9', '"', '-', '[', '0', '3'};
  int loaded = check_byte_damage(buf, size, edits, sizeof edits);
  CHECK(loaded > 0);
  free_artifact(buf, size);
}

int main(void) {
  RUN(builder_writes_uniform_params_as_fills);
  RUN(borrowed_and_misaligned_buffers);
  RUN(fills_of_every_size_and_dtype);
  RUN(small_or_mixed_params_stay_raw);
  RUN(fills_of_one_element_share_bytes);
  RUN(more_distinct_fills_than_groups);
  RUN(loader_validates_fills);
  RUN(fill_runs_and_feeds_shape_inputs);
  RUN(allocation_failures_with_fills);
  RUN(random_damage_with_fills_never_crashes);
  return test_summary();
}
