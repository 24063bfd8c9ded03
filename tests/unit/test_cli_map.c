/* Release artifacts (required feature bit 1, INTEGER_NAMES; docs/format.md,
 * "Release artifacts and the map file") as the builder writes them and the
 * runtime reads them, and the CLI's map reader (src/cli/map.c): a map is
 * taken only for its own artifact, and messages of a release artifact get
 * the source names back. Runs natively and under WASI; the importer's side
 * (which writes maps) is tests/unit/test_importer_release.c. */
#include <cjson/cJSON.h>

#include "test.h"
#include "builder/writer.h"
#include "fileio.h"
#include "map.h"
#include "robustness.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "runtime/sha256.h"
#include "wnn_builder.h"

#define SCRATCH "build/tmp-test-cli-map.json"

/* y = Reshape(x [n, 6], to [2, 3]) + b, with n a dim (default 1): any other
 * n makes the Reshape fail on resize, naming node 0. integer_names: a
 * release artifact. External: b goes to a params blob. */
static void *build(int integer_names, int external, size_t *size, void **blob, size_t *blob_size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  static const int64_t to[2] = {2, 3}, sto[1] = {2}, sx[2] = {1, 6}, sb[2] = {2, 3};
  static const float bias[6] = {1, 2, 3, 4, 5, 6};
  const char *dims[2] = {"n", NULL};
  int x, T, B, r, y;
  int ok = !wnn_builder_set_integer_names(b, integer_names) &&
           !wnn_builder_add_dim(b, "n", 1, 0, 1) &&
           !wnn_builder_add_dynamic_input(b, "x", WNN_DTYPE_F32, 2, sx, dims, &x) &&
           !wnn_builder_add_param(b, "shape_to", WNN_DTYPE_I64, 1, sto, to, &T) &&
           !wnn_builder_add_param(b, "head.bias", WNN_DTYPE_F32, 2, sb, bias, &B) &&
           !wnn_builder_add_node(b, "Reshape", "/head/Reshape", (int[]){x, T}, 2, NULL, 1, &r) &&
           !wnn_builder_set_value_name(b, r, "/head/Reshape_output_0") &&
           !wnn_builder_add_node(b, "Add", "/head/Add", (int[]){r, B}, 2, NULL, 1, &y) &&
           !wnn_builder_add_output(b, y, "y");
  void *data = NULL;
  if (ok && external) ok = !wnn_builder_finish_with_params(b, &data, size, blob, blob_size);
  else if (ok) ok = !wnn_builder_finish(b, &data, size);
  wnn_builder_free(b);
  return ok ? data : NULL;
}

static void free_buf(void *p, size_t size) { wnn_free(&wnn_default_allocator, p, size, 64); }

/* The GRAPH section's JSON text of an artifact (malloc'd), and its features. */
static char *graph_text(const void *data, size_t size, uint64_t *features) {
  wnn_container c;
  if (wnn_container_read(data, size, 1, &c) != WNN_OK) return NULL;
  *features = c.required_features;
  char *s = malloc(c.graph.size + 1);
  if (!s) return NULL;
  memcpy(s, c.graph.data, c.graph.size);
  s[c.graph.size] = '\0';
  return s;
}

/* A map file for the artifact at data[size] (what wnn convert --map writes
 * for this graph), with its digest, or one changed by `tamper`: 1 another
 * digest, 2 another size, 3 version 2, 4 no artifact object. */
static int write_map(const void *data, size_t size, int tamper) {
  char hex[65];
  wnn_sha256_hex(data, size, hex);
  if (tamper == 1) hex[0] = hex[0] == '0' ? '1' : '0';
  char text[2048];
  snprintf(text, sizeof text,
           "{\"wnn_map\":%d,\"artifact\":{\"sha256\":\"%s\",\"bytes\":%zu},"
           "\"source\":{\"format\":\"onnx\",\"opset\":17,\"nodes\":3},"
           "\"nodes\":[{\"node\":0,\"op\":\"Reshape\",\"name\":\"/head/Reshape\","
           "\"onnx\":[{\"index\":0,\"name\":\"/head/Flatten\",\"op\":\"Flatten\"},"
           "{\"index\":1,\"name\":\"/head/Reshape\",\"op\":\"Reshape\"}]},"
           "{\"node\":1,\"op\":\"Add\",\"onnx\":[{\"index\":2,\"name\":\"/head/Add\",\"op\":\"Add\"}]}],"
           "\"values\":[{\"value\":1,\"kind\":\"param\",\"name\":\"shape_to\",\"param\":0,"
           "\"initializers\":[\"shape_to\"],\"onnx\":[]},"
           "{\"value\":2,\"kind\":\"param\",\"name\":\"head.bias\",\"param\":1,"
           "\"initializers\":[\"head.bias\"],\"onnx\":[]},"
           "{\"value\":3,\"kind\":\"intermediate\",\"name\":\"/head/Reshape_output_0\"}]}",
           tamper == 3 ? 2 : 1, hex, size + (tamper == 2));
  char err[256];
  if (tamper == 4) { /* no "artifact" key at all */
    char *a = strstr(text, "\"artifact\"");
    memcpy(a, "\"artefakt\"", 10);
  }
  return wnn_file_write(SCRATCH, text, strlen(text), err, sizeof err) == WNN_OK;
}

TEST(release_artifact_has_no_names_but_its_inputs_and_outputs) {
  size_t n0 = 0, n1 = 0;
  void *named = build(0, 0, &n0, NULL, NULL), *release = build(1, 0, &n1, NULL, NULL);
  CHECK(named && release);
  if (!named || !release) return;
  uint64_t f0 = 0, f1 = 0;
  char *g0 = graph_text(named, n0, &f0), *g1 = graph_text(release, n1, &f1);
  CHECK(g0 && g1);
  if (g0 && g1) {
    CHECK(!(f0 & WNN_FEATURE_INTEGER_NAMES));
    CHECK(f1 & WNN_FEATURE_INTEGER_NAMES);
    CHECK(strstr(g0, "head.bias") && strstr(g0, "/head/Reshape") && strstr(g0, "shape_to"));
    CHECK(!strstr(g1, "head.bias") && !strstr(g1, "/head/") && !strstr(g1, "shape_to"));
    CHECK(strstr(g1, "\"name\":\"x\"") && strstr(g1, "\"name\":\"y\""));
    CHECK(strlen(g1) < strlen(g0));
  }
  /* It loads, names its params by nothing, and computes the same. */
  wnn_model *m0 = NULL, *m1 = NULL;
  CHECK_OK(wnn_model_load(named, n0, NULL, &m0));
  CHECK_OK(wnn_model_load(release, n1, NULL, &m1));
  if (m0 && m1) {
    wnn_tensor_info info;
    CHECK_OK(wnn_model_param_info(m1, 1, &info));
    CHECK(info.name == NULL);
    CHECK_OK(wnn_model_param_info(m0, 1, &info));
    CHECK(info.name && !strcmp(info.name, "head.bias"));
    CHECK_OK(wnn_model_input_info(m1, 0, &info));
    CHECK(!strcmp(info.name, "x"));
    float y[2][6];
    for (int k = 0; k < 2; k++) {
      wnn_executor *ex = NULL;
      float x[6] = {0.5f, -1, 2, 3, -4, 5};
      int64_t shape[2] = {1, 6};
      DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 2, shape);
      CHECK_OK(wnn_executor_create(k ? m1 : m0, &ex));
      CHECK_OK(wnn_executor_set_input(ex, 0, &t));
      CHECK_OK(wnn_executor_run(ex));
      CHECK_OK(wnn_executor_copy_output(ex, 0, y[k], sizeof y[k]));
      /* A resize the Reshape refuses names the node by number and op. */
      int64_t two[2] = {2, 6};
      CHECK_STATUS(wnn_executor_resize_input(ex, 0, 2, two), WNN_ERR_SHAPE);
      CHECK(strstr(wnn_executor_errmsg(ex), k ? "node 0 (Reshape)" : "node 0 (Reshape '/head/Reshape')"));
      wnn_executor_destroy(ex);
    }
    CHECK(!memcmp(y[0], y[1], sizeof y[0]));
  }
  wnn_model_free(m0);
  wnn_model_free(m1);
  free(g0);
  free(g1);
  free_buf(named, n0);
  free_buf(release, n1);
}

/* What a reader without bit 1 sees in a release artifact: params without
 * names, which it refuses as malformed, naming the value. Today's reader
 * takes them only with the bit. */
TEST(unnamed_params_need_the_feature_bit) {
  size_t n = 0;
  void *release = build(1, 0, &n, NULL, NULL);
  CHECK(release != NULL);
  if (!release) return;
  uint8_t *copy = malloc(n);
  memcpy(copy, release, n);
  wnn_wr64(copy + 24, wnn_rd64(copy + 24) & ~WNN_FEATURE_INTEGER_NAMES);
  wnn_container_reseal(copy);
  wnn_model *m = NULL;
  CHECK_STATUS(wnn_model_load(copy, n, NULL, &m), WNN_ERR_MALFORMED);
  CHECK(strstr(wnn_last_error(), "values[1] is an param without a name") ||
        strstr(wnn_last_error(), "without a name"));
  wnn_model_free(m);
  free(copy);
  free_buf(release, n);
}

/* A release artifact with its weights in a params blob keeps the blob's
 * names ("external"): the blob is byte for byte the one of the named
 * artifact, and binds either. */
TEST(release_artifact_with_params_apart) {
  size_t n = 0, bn = 0, n2 = 0, bn2 = 0;
  void *blob = NULL, *blob2 = NULL;
  void *graph = build(1, 1, &n, &blob, &bn);
  void *named = build(0, 1, &n2, &blob2, &bn2);
  CHECK(graph && blob && named && blob2);
  if (!graph || !blob || !named || !blob2) return;
  CHECK(bn == bn2 && !memcmp(blob, blob2, bn)); /* the same blob either way */
  wnn_params *p = NULL;
  CHECK_OK(wnn_params_load(blob, bn, NULL, &p));
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load_with_params(graph, n, p, NULL, &m));
  wnn_model_free(m);
  m = NULL;
  CHECK_OK(wnn_model_load_with_params(named, n2, p, NULL, &m));
  wnn_model_free(m);
  wnn_params_free(p);
  free_buf(graph, n);
  free_buf(blob, bn);
  free_buf(named, n2);
  free_buf(blob2, bn2);
}

TEST(map_is_taken_for_its_artifact_only) {
  size_t n = 0, n0 = 0;
  void *release = build(1, 0, &n, NULL, NULL), *named = build(0, 0, &n0, NULL, NULL);
  CHECK(release && named);
  if (!release || !named) return;
  char err[512];
  wnn_cli_map *map = NULL;
  CHECK(write_map(release, n, 0));
  CHECK_OK(wnn_cli_map_load(SCRATCH, release, n, &map, err, sizeof err));
  CHECK(map != NULL);
  if (map) {
    char buf[512];
    CHECK(wnn_cli_map_num_nodes(map) == 2);
    CHECK(!strcmp(wnn_cli_map_node(map, 0, buf, sizeof buf),
                  "Flatten '/head/Flatten' + Reshape '/head/Reshape'"));
    CHECK(!strcmp(wnn_cli_map_node_op(map, 1), "Add"));
    CHECK(!strcmp(wnn_cli_map_node(map, 7, buf, sizeof buf), ""));
    CHECK(!strcmp(wnn_cli_map_param(map, 1), "head.bias"));
    CHECK(wnn_cli_map_param(map, 2) == NULL);
    CHECK(!strcmp(wnn_cli_map_value(map, 3), "/head/Reshape_output_0"));
    CHECK(wnn_cli_map_value(map, 0) == NULL);
    /* A real message of this artifact, translated. */
    wnn_model *m = NULL;
    wnn_executor *ex = NULL;
    CHECK_OK(wnn_model_load(release, n, NULL, &m));
    if (m) CHECK_OK(wnn_executor_create(m, &ex));
    if (ex) {
      int64_t two[2] = {2, 6};
      CHECK_STATUS(wnn_executor_resize_input(ex, 0, 2, two), WNN_ERR_SHAPE);
      char out[1024];
      wnn_cli_map_translate(map, wnn_executor_errmsg(ex), out, sizeof out);
      CHECK(strstr(out, "node 0 (Reshape) [ONNX Flatten '/head/Flatten' + Reshape '/head/Reshape']"));
      if (!strstr(out, "[ONNX")) printf("  translated: %s\n", out);
    }
    wnn_executor_destroy(ex);
    wnn_model_free(m);
    char out[256];
    CHECK(!strcmp(wnn_cli_map_translate(map, "graph: values[2] (values[2]) and value 3, node 1 (Add): x",
                                        out, sizeof out),
                  "graph: values[2] ['head.bias'] (values[2] ['head.bias']) and value 3 "
                  "['/head/Reshape_output_0'], node 1 (Add) [ONNX Add '/head/Add']: x"));
    /* Numbers it does not know, and words that only look alike, stay. */
    CHECK(!strcmp(wnn_cli_map_translate(map, "node 9 (Conv), subnode 1, value 12x, novalue 2", out,
                                        sizeof out),
                  "node 9 (Conv), subnode 1, value 12x, novalue 2"));
    /* Cut to fit, still a string. */
    char tiny[12];
    wnn_cli_map_translate(map, "node 1 (Add): x", tiny, sizeof tiny);
    CHECK(strlen(tiny) == sizeof tiny - 1);
  }
  wnn_cli_map_free(map);
  map = NULL;
  /* The map of another artifact, and maps that are no maps. */
  CHECK_STATUS(wnn_cli_map_load(SCRATCH, named, n0, &map, err, sizeof err), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err, "the map of another artifact") != NULL);
  CHECK(map == NULL);
  static const char *const why[5] = {NULL, "the map of another artifact", "the map of another artifact",
                                     "version is not 1", "no artifact digest"};
  for (int t = 1; t <= 4; t++) {
    CHECK(write_map(release, n, t));
    CHECK_STATUS(wnn_cli_map_load(SCRATCH, release, n, &map, err, sizeof err), WNN_ERR_INVALID_ARGUMENT);
    if (!strstr(err, why[t])) printf("  tamper %d: %s\n", t, err);
    CHECK(strstr(err, why[t]) != NULL);
    CHECK(map == NULL);
  }
  CHECK(wnn_file_write(SCRATCH, "{\"wnn_map\":", 11, err, sizeof err) == WNN_OK);
  CHECK_STATUS(wnn_cli_map_load(SCRATCH, release, n, &map, err, sizeof err), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(err, "not a wnn map file") != NULL);
  CHECK_STATUS(wnn_cli_map_load("build/no-such-dir/x.json", release, n, &map, err, sizeof err),
               WNN_ERR_IO);
  CHECK(map == NULL);
  remove(SCRATCH);
  free_buf(release, n);
  free_buf(named, n0);
}

int main(void) {
  RUN(release_artifact_has_no_names_but_its_inputs_and_outputs);
  RUN(unnamed_params_need_the_feature_bit);
  RUN(release_artifact_with_params_apart);
  RUN(map_is_taken_for_its_artifact_only);
  return test_summary();
}
