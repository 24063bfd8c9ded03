/* Release artifacts and map files from the importer (wnn convert --release
 * --map; docs/format.md, "Release artifacts and the map file"): the map
 * names, for each runtime node, every ONNX node merged into it
 * (BatchNormalization folding, activation fusion, quantized rewrites) and, for
 * each param, the initializers and folded nodes its bytes come from; its
 * digest is the artifact's; a release artifact holds none of the source's
 * names but its inputs' and outputs', and computes the same bits. */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "runtime/format.h"
#include "runtime/sha256.h"
#include "test_importer_util.h"

enum { FLOAT = 1, INT8 = 3, INT64 = 7 };

/* x [1, 3, 6, 6] -> Conv 'conv' (W, B) -> BatchNormalization 'bn' -> Relu
 * 'relu' -> Mul 'mul' by k = Add 'fold_add'(k1, k2) (folded at conversion)
 * -> y. */
static void model(tm_model *m) {
  tm_init(m, 13);
  static float w[4 * 3 * 3 * 3], b[4], scale[4], bias[4], mean[4], var[4], k1[4], k2[4];
  for (int i = 0; i < 108; i++) w[i] = (float)((i * 37) % 17 - 8) / 16.0f;
  for (int c = 0; c < 4; c++) {
    b[c] = 0.1f * (float)c, scale[c] = 1.0f + 0.25f * (float)c, bias[c] = -0.5f + 0.3f * (float)c;
    mean[c] = 0.05f * (float)c, var[c] = 0.5f + (float)c, k1[c] = (float)c, k2[c] = 0.5f;
  }
  const int64_t wd[4] = {4, 3, 3, 3}, cd[1] = {4}, kd[4] = {1, 4, 1, 1}, xd[4] = {1, 3, 6, 6};
  tm_input(m, "x", FLOAT, 4, xd);
  tm_initializer(m, "conv.weight", FLOAT, 4, wd, w);
  tm_initializer(m, "conv.bias", FLOAT, 1, cd, b);
  tm_initializer(m, "bn.weight", FLOAT, 1, cd, scale);
  tm_initializer(m, "bn.bias", FLOAT, 1, cd, bias);
  tm_initializer(m, "bn.running_mean", FLOAT, 1, cd, mean);
  tm_initializer(m, "bn.running_var", FLOAT, 1, cd, var);
  tm_initializer(m, "k1", FLOAT, 4, kd, k1);
  tm_initializer(m, "k2", FLOAT, 4, kd, k2);
  Onnx__NodeProto *conv = tm_node(m, "Conv", "conv", "x,conv.weight,conv.bias", "c");
  tm_attr_ints(m, conv, "pads", 4, (int64_t[]){1, 1, 1, 1});
  tm_node(m, "BatchNormalization", "bn", "c,bn.weight,bn.bias,bn.running_mean,bn.running_var", "n");
  tm_node(m, "Relu", "relu", "n", "r");
  tm_node(m, "Add", "fold_add", "k1,k2", "k");
  tm_node(m, "Mul", "mul", "r,k", "y");
  tm_output(m, "y");
}

static wnn_status convert(tm_model *m, bool release, bool map, wnn_import_result *res) {
  wnn_import_options opt;
  memset(&opt, 0, sizeof opt);
  opt.release = release;
  opt.map = map;
  wnn_status st = tm_convert_opt(m, &opt, res);
  if (st) printf("  %s: convert: %s\n", test_current_, res->msg);
  return st;
}

/* The names in the "onnx" list of a map entry, joined with '+'. */
static void onnx_names(const cJSON *entry, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(entry, "onnx");
  for (const cJSON *s = list ? list->child : NULL; s && used < cap; s = s->next)
    used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? "+" : "",
                             cJSON_GetObjectItemCaseSensitive(s, "name")->valuestring);
}

/* The map entry of values with "param" p, or NULL. */
static const cJSON *param_entry(const cJSON *map, int p) {
  const cJSON *values = cJSON_GetObjectItemCaseSensitive(map, "values");
  for (const cJSON *v = values ? values->child : NULL; v; v = v->next) {
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(v, "param");
    if (cJSON_IsNumber(k) && k->valueint == p) return v;
  }
  return NULL;
}

static bool has_string(const cJSON *list, const char *s) {
  for (const cJSON *e = list ? list->child : NULL; e; e = e->next)
    if (cJSON_IsString(e) && !strcmp(e->valuestring, s)) return true;
  return false;
}

TEST(map_traces_folds_and_fusions) {
  tm_model m;
  model(&m);
  wnn_import_result named, release;
  memset(&named, 0, sizeof named);
  memset(&release, 0, sizeof release);
  CHECK_OK(convert(&m, false, false, &named));
  CHECK_OK(convert(&m, true, true, &release));
  CHECK(named.map == NULL);
  CHECK(release.map != NULL);
  if (!named.artifact || !release.artifact || !release.map) goto done;
  CHECK(release.num_nodes == 2 && named.num_nodes == 2);

  char *text = wnn_import_map_print(release.map, release.artifact, release.size);
  cJSON *map = text ? cJSON_Parse(text) : NULL;
  CHECK(map != NULL);
  if (!map) {
    free(text);
    goto done;
  }
  /* Its digest is the artifact's. */
  char hex[65];
  wnn_sha256_hex(release.artifact, release.size, hex);
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(map, "artifact");
  CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(a, "sha256")->valuestring, hex));
  CHECK(cJSON_GetObjectItemCaseSensitive(a, "bytes")->valuedouble == (double)release.size);
  CHECK(cJSON_GetObjectItemCaseSensitive(map, "wnn_map")->valueint == 1);
  const cJSON *src = cJSON_GetObjectItemCaseSensitive(map, "source");
  CHECK(cJSON_GetObjectItemCaseSensitive(src, "opset")->valueint == 13);
  CHECK(cJSON_GetObjectItemCaseSensitive(src, "nodes")->valueint == 5);
  /* Node 0: the Conv with the BN folded and the Relu fused in; node 1 the
   * Mul. */
  const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(map, "nodes");
  CHECK(cJSON_GetArraySize(nodes) == 2);
  char names[256];
  onnx_names(cJSON_GetArrayItem(nodes, 0), names, sizeof names);
  CHECK(!strcmp(names, "conv+bn+relu"));
  if (strcmp(names, "conv+bn+relu")) printf("  node 0 computes %s\n", names);
  CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(nodes, 0), "op")->valuestring,
                "Conv"));
  const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(nodes, 0), "onnx"), 1);
  CHECK(cJSON_GetObjectItemCaseSensitive(first, "index")->valueint == 1);
  CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(first, "op")->valuestring, "BatchNormalization"));
  onnx_names(cJSON_GetArrayItem(nodes, 1), names, sizeof names);
  CHECK(!strcmp(names, "mul"));
  /* Params: W and B of the Conv with the BN's four inputs folded in, and
   * k folded from k1 and k2 by fold_add. */
  const cJSON *pw = param_entry(map, 0), *pb = param_entry(map, 1), *pk = param_entry(map, 2);
  CHECK(pw && pb && pk && !param_entry(map, 3));
  if (pw && pb && pk) {
    const cJSON *iw = cJSON_GetObjectItemCaseSensitive(pw, "initializers");
    CHECK(has_string(iw, "conv.weight") && has_string(iw, "bn.weight") &&
          has_string(iw, "bn.running_var") && !has_string(iw, "conv.bias"));
    onnx_names(pw, names, sizeof names);
    CHECK(!strcmp(names, "bn"));
    const cJSON *ib = cJSON_GetObjectItemCaseSensitive(pb, "initializers");
    CHECK(has_string(ib, "conv.bias") && has_string(ib, "bn.bias") &&
          has_string(ib, "bn.running_mean"));
    const cJSON *ik = cJSON_GetObjectItemCaseSensitive(pk, "initializers");
    CHECK(cJSON_GetArraySize(ik) == 2 && has_string(ik, "k1") && has_string(ik, "k2"));
    onnx_names(pk, names, sizeof names);
    CHECK(!strcmp(names, "fold_add"));
    CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(pk, "name")->valuestring, "k"));
  }
  /* The named intermediate: the Conv's output, under the Relu's name. */
  const cJSON *values = cJSON_GetObjectItemCaseSensitive(map, "values");
  int intermediates = 0;
  for (const cJSON *v = values->child; v; v = v->next)
    if (!strcmp(cJSON_GetObjectItemCaseSensitive(v, "kind")->valuestring, "intermediate")) {
      intermediates++;
      CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(v, "name")->valuestring, "r"));
    }
  CHECK(intermediates == 1);

  /* The release artifact: bit 1, no source names in GRAPH, and the same
   * bits as the named one. */
  wnn_container c;
  CHECK_OK(wnn_container_read(release.artifact, release.size, 1, &c));
  CHECK(c.required_features & WNN_FEATURE_INTEGER_NAMES);
  char *graph = malloc(c.graph.size + 1);
  memcpy(graph, c.graph.data, c.graph.size);
  graph[c.graph.size] = '\0';
  CHECK(!strstr(graph, "conv") && !strstr(graph, "bn.") && !strstr(graph, "\"k\"") &&
        !strstr(graph, "\"r\""));
  CHECK(strstr(graph, "\"name\":\"x\"") && strstr(graph, "\"name\":\"y\""));
  free(graph);
  CHECK(release.size <= named.size);
  float x[108], y0[144], y1[144];
  for (int i = 0; i < 108; i++) x[i] = (float)((i * 29) % 23 - 11) / 8.0f;
  const float *xs[1] = {x};
  CHECK_OK(tm_run(named.artifact, named.size, 1, xs, 0, y0, 144));
  CHECK_OK(tm_run(release.artifact, release.size, 1, xs, 0, y1, 144));
  CHECK(!memcmp(y0, y1, sizeof y0));
  cJSON_Delete(map);
  free(text);
done:
  wnn_import_map_free(release.map);
  free(named.artifact);
  free(release.artifact);
  tm_free(&m);
}

/* A QDQ Conv rewritten into one QLinearConv: its map entry names the
 * DequantizeLinear, Conv and QuantizeLinear nodes. */
TEST(map_traces_a_quantized_rewrite) {
  tm_model m;
  tm_init(&m, 13);
  static int8_t wq[2 * 2 * 1 * 1] = {10, -20, 30, 40};
  static uint8_t xq[1] = {128}, yz[1] = {128};
  static float xs[1] = {0.05f}, ws[1] = {0.01f}, ys[1] = {0.1f};
  static int8_t wz[1] = {0};
  const int64_t wd[4] = {2, 2, 1, 1}, xd[4] = {1, 2, 3, 3};
  tm_input(&m, "x", FLOAT, 4, xd);
  tm_initializer(&m, "x_scale", FLOAT, 0, NULL, xs);
  tm_initializer(&m, "x_zp", 2, 0, NULL, xq);
  tm_initializer(&m, "w_q", INT8, 4, wd, wq);
  tm_initializer(&m, "w_scale", FLOAT, 0, NULL, ws);
  tm_initializer(&m, "w_zp", INT8, 0, NULL, wz);
  tm_initializer(&m, "y_scale", FLOAT, 0, NULL, ys);
  tm_initializer(&m, "y_zp", 2, 0, NULL, yz);
  tm_node(&m, "QuantizeLinear", "q_in", "x,x_scale,x_zp", "xq");
  tm_node(&m, "DequantizeLinear", "dq_in", "xq,x_scale,x_zp", "xf");
  tm_node(&m, "DequantizeLinear", "dq_w", "w_q,w_scale,w_zp", "wf");
  tm_node(&m, "Conv", "conv", "xf,wf", "c");
  tm_node(&m, "QuantizeLinear", "q_out", "c,y_scale,y_zp", "cq");
  tm_node(&m, "DequantizeLinear", "dq_out", "cq,y_scale,y_zp", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  memset(&res, 0, sizeof res);
  CHECK_OK(convert(&m, true, true, &res));
  char *text = res.map ? wnn_import_map_print(res.map, res.artifact, res.size) : NULL;
  cJSON *map = text ? cJSON_Parse(text) : NULL;
  CHECK(map != NULL);
  bool found = false;
  const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(map, "nodes");
  for (const cJSON *n = nodes ? nodes->child : NULL; n; n = n->next) {
    if (strcmp(cJSON_GetObjectItemCaseSensitive(n, "op")->valuestring, "QLinearConv")) continue;
    char names[256];
    onnx_names(n, names, sizeof names);
    found = true;
    CHECK(strstr(names, "dq_in") && strstr(names, "dq_w") && strstr(names, "conv") &&
          strstr(names, "q_out"));
    if (!strstr(names, "dq_w")) printf("  QLinearConv computes %s\n", names);
  }
  CHECK(found);
  cJSON_Delete(map);
  free(text);
  wnn_import_map_free(res.map);
  free(res.artifact);
  tm_free(&m);
}

int main(void) {
  (void)tm_convert, (void)tm_attr_int; /* helpers of other importer tests */
  RUN(map_traces_folds_and_fusions);
  RUN(map_traces_a_quantized_rewrite);
  return test_summary();
}
