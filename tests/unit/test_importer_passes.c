/* The importer's passes one at a time, on graphs built directly in its IR
 * (src/importer/ir.h): inference, folding, BatchNormalization folding,
 * activation fusion, dead-code elimination and the opset rewrites. */
#include <cjson/cJSON.h>

#include "importer/ir.h"
#include "importer/legacy.h"
#include "importer/passes.h"
#include "runtime/alloc.h"
#include "test.h"

static int input(wnn_ir_graph *g, const char *name, int ndim, const int64_t *dims) {
  int id = -1;
  if (wnn_ir_add_value(g, name, &id)) return -1;
  wnn_ir_value *v = &g->values[id];
  v->is_input = v->known = true;
  v->dtype = WNN_DTYPE_F32;
  v->ndim = ndim;
  memcpy(v->dims, dims, (size_t)ndim * sizeof *dims);
  return id;
}

static int value(wnn_ir_graph *g, const char *name) {
  int id = -1;
  wnn_ir_add_value(g, name, &id);
  return id;
}

static int node(wnn_ir_graph *g, const char *op, const char *attrs, int a, int b, int out) {
  int ins[2] = {a, b}, id = -1;
  wnn_ir_add_node(g, -1, op, "", op, g->num_nodes, ins, b == -2 ? 1 : 2, &out, 1,
                  attrs ? cJSON_Parse(attrs) : NULL, &id);
  return id;
}

static void output(wnn_ir_graph *g, int v) {
  g->outputs = realloc(g->outputs, (size_t)(g->num_outputs + 1) * sizeof(int));
  g->outputs[g->num_outputs++] = v;
}

static void setup(wnn_ir_graph *g) {
  wnn_json_begin(NULL);
  wnn_ir_init(g);
}

static void teardown(wnn_ir_graph *g) {
  wnn_ir_free(g);
  wnn_json_end();
}

TEST(infer_uses_runtime_prepare) {
  wnn_ir_graph g;
  setup(&g);
  const int64_t a[2] = {2, 3}, b[1] = {3};
  int x = input(&g, "x", 2, a), y = input(&g, "y", 1, b), s = value(&g, "s");
  int n = node(&g, "Add", NULL, x, y, s);
  CHECK_OK(wnn_pass_infer_node(&g, n, NULL, NULL));
  CHECK(g.values[s].known && g.values[s].ndim == 2 && g.values[s].dims[0] == 2 &&
        g.values[s].dims[1] == 3 && g.values[s].dtype == WNN_DTYPE_F32);
  const int64_t c[1] = {4};
  int z = input(&g, "z", 1, c), t = value(&g, "t");
  n = node(&g, "Add", NULL, x, z, t);
  CHECK(wnn_pass_infer_node(&g, n, NULL, NULL) == WNN_ERR_SHAPE);
  CHECK(!g.unsupported && strstr(g.msg, "node 1 'Add' (Add, domain 'ai.onnx')"));
  int u = value(&g, "u");
  n = node(&g, "Frobnicate", NULL, x, -2, u);
  CHECK(wnn_pass_infer_node(&g, n, NULL, NULL) == WNN_ERR_UNKNOWN_OP);
  CHECK(g.unsupported && strstr(g.msg, "Frobnicate"));
  teardown(&g);
}

TEST(fold_runs_runtime_kernels) {
  wnn_ir_graph g;
  setup(&g);
  const int64_t d[2] = {2, 3};
  const float data[6] = {1, 2, 3, 4, 5, 6};
  int k, y = value(&g, "y");
  CHECK_OK(wnn_ir_add_const(&g, "k", WNN_DTYPE_F32, 2, d, data, &k));
  int n = node(&g, "Transpose", NULL, k, -2, y);
  _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
  size_t scratch = 0;
  CHECK_OK(wnn_pass_infer_node(&g, n, params, &scratch));
  CHECK(wnn_pass_fold_can(&g, n));
  CHECK_OK(wnn_pass_fold_node(&g, n, params, scratch));
  CHECK(g.nodes[n].dead);
  const float *t = g.values[y].data;
  CHECK(t && g.values[y].dims[0] == 3 && g.values[y].dims[1] == 2);
  if (t) CHECK(t[0] == 1 && t[1] == 4 && t[2] == 2 && t[3] == 5 && t[4] == 3 && t[5] == 6);
  /* An alias op (Reshape) folds by copying. */
  const int64_t shape[1] = {6}, one = 1;
  int s, r = value(&g, "r");
  CHECK_OK(wnn_ir_add_const(&g, "shape", WNN_DTYPE_I64, 1, &one, shape, &s));
  n = node(&g, "Reshape", NULL, k, s, r);
  CHECK_OK(wnn_pass_infer_node(&g, n, params, &scratch));
  CHECK_OK(wnn_pass_fold_node(&g, n, params, scratch));
  CHECK(g.values[r].ndim == 1 && g.values[r].data && ((float *)g.values[r].data)[5] == 6);
  int xin = input(&g, "x", 2, d), z = value(&g, "z");
  n = node(&g, "Add", NULL, xin, k, z);
  CHECK(!wnn_pass_fold_can(&g, n));
  teardown(&g);
}

TEST(dce_keeps_what_outputs_need) {
  wnn_ir_graph g;
  setup(&g);
  const int64_t d[1] = {4};
  int x = input(&g, "x", 1, d), a = value(&g, "a"), b = value(&g, "b"), c = value(&g, "c");
  int na = node(&g, "Relu", NULL, x, -2, a);
  int nb = node(&g, "Sigmoid", NULL, a, -2, b); /* read by nothing */
  int nc = node(&g, "Relu", NULL, a, -2, c);
  output(&g, c);
  int removed = -1;
  wnn_pass_dce(&g, &removed);
  CHECK(removed == 1);
  CHECK(!g.nodes[na].dead && g.nodes[nb].dead && !g.nodes[nc].dead);
  CHECK(g.values[a].readers == 1 && g.values[c].readers == 1);
  teardown(&g);
}

/* Conv -> BN folds; with a second reader of the Conv output it does not. */
TEST(bn_fold_needs_a_single_reader) {
  for (int second = 0; second < 2; second++) {
    wnn_ir_graph g;
    setup(&g);
    const int64_t xd[4] = {1, 1, 2, 2}, wd[4] = {1, 1, 1, 1}, cd[1] = {1};
    const float w[1] = {2}, one[1] = {1}, zero[1] = {0};
    int x = input(&g, "x", 4, xd), W, s, b, m, v, c = value(&g, "c"), y = value(&g, "y");
    wnn_ir_add_const(&g, "W", WNN_DTYPE_F32, 4, wd, w, &W);
    wnn_ir_add_const(&g, "s", WNN_DTYPE_F32, 1, cd, one, &s);
    wnn_ir_add_const(&g, "b", WNN_DTYPE_F32, 1, cd, zero, &b);
    wnn_ir_add_const(&g, "m", WNN_DTYPE_F32, 1, cd, zero, &m);
    wnn_ir_add_const(&g, "v", WNN_DTYPE_F32, 1, cd, one, &v);
    int nc = node(&g, "Conv", NULL, x, W, c);
    int ins[5] = {c, s, b, m, v}, nbn;
    wnn_ir_add_node(&g, -1, "BatchNormalization", "", "bn", 1, ins, 5, &y, 1, NULL, &nbn);
    output(&g, y);
    if (second) output(&g, c);
    wnn_ir_count_readers(&g);
    CHECK_OK(wnn_pass_infer_node(&g, nc, NULL, NULL));
    bool folded = true;
    CHECK_OK(wnn_pass_bn_fold_node(&g, nbn, &folded));
    CHECK(folded == !second);
    if (!second) {
      CHECK(g.nodes[nbn].dead && g.nodes[nc].outputs[0] == y && g.values[y].known);
      CHECK(g.nodes[nc].num_inputs == 3 && g.nodes[nc].inputs[1] != W);
      /* The original W is untouched (it may have other readers). */
      CHECK(((float *)g.values[W].data)[0] == 2);
    }
    teardown(&g);
  }
}

TEST(fuse_rules) {
  wnn_ir_graph g;
  setup(&g);
  const int64_t xd[4] = {1, 1, 2, 2}, wd[4] = {1, 1, 1, 1};
  const float w[1] = {2};
  int x = input(&g, "x", 4, xd), W;
  wnn_ir_add_const(&g, "W", WNN_DTYPE_F32, 4, wd, w, &W);
  /* conv1 -> LeakyRelu (fuses); conv2 -> Relu, conv2 also an output (no);
   * conv3 -> Clip with a non-constant bound (no). */
  int c1 = value(&g, "c1"), y1 = value(&g, "y1"), c2 = value(&g, "c2"), y2 = value(&g, "y2");
  int c3 = value(&g, "c3"), y3 = value(&g, "y3");
  int n1 = node(&g, "Conv", NULL, x, W, c1);
  int a1 = node(&g, "LeakyRelu", "{\"alpha\":0.3}", c1, -2, y1);
  int n2 = node(&g, "Conv", NULL, x, W, c2);
  int a2 = node(&g, "Relu", NULL, c2, -2, y2);
  int n3 = node(&g, "Conv", NULL, x, W, c3);
  int a3 = node(&g, "Clip", NULL, c3, x, y3);
  output(&g, y1);
  output(&g, y2);
  output(&g, c2);
  output(&g, y3);
  wnn_ir_count_readers(&g);
  CHECK_OK(wnn_pass_infer_node(&g, n1, NULL, NULL));
  CHECK_OK(wnn_pass_infer_node(&g, n2, NULL, NULL));
  CHECK_OK(wnn_pass_infer_node(&g, n3, NULL, NULL));
  int fused = -1;
  CHECK_OK(wnn_pass_fuse(&g, &fused));
  CHECK(fused == 1);
  CHECK(g.nodes[a1].dead && g.nodes[n1].outputs[0] == y1);
  const cJSON *act = cJSON_GetObjectItemCaseSensitive(g.nodes[n1].attrs, "activation");
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(g.nodes[n1].attrs, "activation_params");
  CHECK(cJSON_IsString(act) && !strcmp(act->valuestring, "LeakyRelu"));
  CHECK(cJSON_GetArraySize(p) == 1 && fabs(cJSON_GetArrayItem(p, 0)->valuedouble - 0.3) < 1e-6);
  CHECK(!g.nodes[a2].dead && !g.nodes[a3].dead);
  CHECK(!cJSON_GetObjectItemCaseSensitive(g.nodes[n2].attrs, "activation"));
  CHECK(!cJSON_GetObjectItemCaseSensitive(g.nodes[n3].attrs, "activation"));
  teardown(&g);
}

/* Mul(x, Sigmoid(x)) after a Conv, in either operand order, fuses as SiLU;
 * not when the Sigmoid has another reader. */
TEST(fuse_silu) {
  wnn_ir_graph g;
  setup(&g);
  const int64_t xd[4] = {1, 1, 2, 2}, wd[4] = {1, 1, 1, 1};
  const float w[1] = {2};
  int x = input(&g, "x", 4, xd), W;
  wnn_ir_add_const(&g, "W", WNN_DTYPE_F32, 4, wd, w, &W);
  int c[3], s[3], y[3], conv[3], sig[3], mul[3];
  for (int i = 0; i < 3; i++) {
    char name[16];
    snprintf(name, sizeof name, "c%d", i);
    c[i] = value(&g, name);
    snprintf(name, sizeof name, "s%d", i);
    s[i] = value(&g, name);
    snprintf(name, sizeof name, "y%d", i);
    y[i] = value(&g, name);
    conv[i] = node(&g, "Conv", NULL, x, W, c[i]);
    sig[i] = node(&g, "Sigmoid", NULL, c[i], -2, s[i]);
    mul[i] = i == 1 ? node(&g, "Mul", NULL, s[i], c[i], y[i]) : node(&g, "Mul", NULL, c[i], s[i], y[i]);
    output(&g, y[i]);
  }
  output(&g, s[2]);
  wnn_ir_count_readers(&g);
  for (int i = 0; i < 3; i++) CHECK_OK(wnn_pass_infer_node(&g, conv[i], NULL, NULL));
  int fused = -1;
  CHECK_OK(wnn_pass_fuse(&g, &fused));
  CHECK(fused == 2);
  for (int i = 0; i < 2; i++) {
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(g.nodes[conv[i]].attrs, "activation");
    CHECK(cJSON_IsString(act) && !strcmp(act->valuestring, "SiLU"));
    CHECK(g.nodes[sig[i]].dead && g.nodes[mul[i]].dead && g.nodes[conv[i]].outputs[0] == y[i]);
    CHECK(g.values[y[i]].producer == conv[i]);
  }
  CHECK(!g.nodes[sig[2]].dead && !g.nodes[mul[2]].dead);
  CHECK(!cJSON_GetObjectItemCaseSensitive(g.nodes[conv[2]].attrs, "activation"));
  teardown(&g);
}

static const cJSON *attr(const wnn_ir_graph *g, int n, const char *name) {
  return cJSON_GetObjectItemCaseSensitive(g->nodes[n].attrs, name);
}

TEST(legacy_rewrites) {
  wnn_ir_graph g;
  setup(&g);
  g.opset = 9;
  const int64_t d[2] = {2, 3};
  int x = input(&g, "x", 2, d);
  /* Slice-9: attributes become int64 inputs; INT64_MAX survives. */
  int s = value(&g, "s");
  int ns = node(&g, "Slice", "{\"starts\":[1],\"ends\":[9223372036854775807],\"axes\":[1]}", x,
                -2, s);
  CHECK_OK(wnn_legacy_rewrite(&g, ns));
  CHECK(g.nodes[ns].num_inputs == 4 && cJSON_GetArraySize(g.nodes[ns].attrs) == 0);
  const wnn_ir_value *ends = &g.values[g.nodes[ns].inputs[2]];
  CHECK(ends->dtype == WNN_DTYPE_I64 && ((int64_t *)ends->data)[0] == INT64_MAX);
  /* Upsample -> Resize (asymmetric, floor) with scales as input 2. */
  int u = value(&g, "u");
  int nu = node(&g, "Upsample", "{\"mode\":\"nearest\",\"scales\":[1,2]}", x, -2, u);
  CHECK_OK(wnn_legacy_rewrite(&g, nu));
  CHECK(!strcmp(g.nodes[nu].op_type, "Resize") && g.nodes[nu].num_inputs == 3);
  CHECK(g.nodes[nu].inputs[1] == -1 && g.values[g.nodes[nu].inputs[2]].dims[0] == 2);
  CHECK(!strcmp(attr(&g, nu, "coordinate_transformation_mode")->valuestring, "asymmetric"));
  CHECK(!strcmp(attr(&g, nu, "nearest_mode")->valuestring, "floor"));
  /* Cast's old string form, and float16 -> float32. */
  int c = value(&g, "c"), c2 = value(&g, "c2");
  int nc = node(&g, "Cast", "{\"to\":\"INT64\"}", x, -2, c);
  CHECK_OK(wnn_legacy_rewrite(&g, nc));
  CHECK(attr(&g, nc, "to")->valuedouble == 7);
  int nc2 = node(&g, "Cast", "{\"to\":10}", x, -2, c2);
  CHECK_OK(wnn_legacy_rewrite(&g, nc2));
  CHECK(attr(&g, nc2, "to")->valuedouble == 1);
  /* Dropout -> Identity, its mask a constant of trues; BatchNormalization
   * spatial=0 is unsupported. */
  int dr = value(&g, "dr"), mask = value(&g, "mask"), inserted = 0;
  int outs[2] = {dr, mask}, nd;
  wnn_ir_add_node(&g, -1, "Dropout", "", "drop", g.num_nodes, &x, 1, outs, 2,
                  cJSON_Parse("{\"ratio\":0.5}"), &nd);
  CHECK_OK(wnn_legacy_rewrite(&g, nd));
  CHECK_OK(wnn_legacy_rewrite_shaped(&g, nd, &inserted));
  CHECK(!strcmp(g.nodes[nd].op_type, "Identity") && cJSON_GetArraySize(g.nodes[nd].attrs) == 0);
  CHECK(g.nodes[nd].num_outputs == 1 && g.values[mask].dtype == WNN_DTYPE_BOOL);
  CHECK(g.values[mask].nbytes == 6 && ((uint8_t *)g.values[mask].data)[5] == 1);
  int dt = value(&g, "dt"), nt;
  wnn_ir_add_node(&g, -1, "Dropout", "", "train", g.num_nodes, &x, 1, &dt, 1,
                  cJSON_Parse("{\"is_test\":0}"), &nt);
  CHECK(wnn_legacy_rewrite_shaped(&g, nt, &inserted) == WNN_ERR_UNSUPPORTED && g.unsupported);
  CHECK(strstr(g.msg, "random dropout") != NULL);
  int bn = value(&g, "bn");
  int nb = node(&g, "BatchNormalization", "{\"spatial\":0}", x, -2, bn);
  CHECK(wnn_legacy_rewrite(&g, nb) == WNN_ERR_UNSUPPORTED && g.unsupported);
  /* Softmax-9 over axis 0 of a 2-D input: Reshape, Softmax(axis 1), Reshape. */
  int sm = value(&g, "sm");
  int nsm = node(&g, "Softmax", "{\"axis\":0}", x, -2, sm);
  int before = g.num_nodes;
  CHECK_OK(wnn_legacy_rewrite_shaped(&g, nsm, &inserted));
  CHECK(inserted == 1 && g.num_nodes == before + 2);
  CHECK(!strcmp(g.nodes[nsm].op_type, "Reshape") && !strcmp(g.nodes[nsm + 1].op_type, "Softmax"));
  CHECK(!strcmp(g.nodes[nsm + 2].op_type, "Reshape") && g.nodes[nsm + 2].outputs[0] == sm);
  const wnn_ir_value *flat = &g.values[g.nodes[nsm].inputs[1]];
  CHECK(((int64_t *)flat->data)[0] == 1 && ((int64_t *)flat->data)[1] == 6);
  teardown(&g);
}

int main(void) {
  RUN(infer_uses_runtime_prepare);
  RUN(fold_runs_runtime_kernels);
  RUN(dce_keeps_what_outputs_need);
  RUN(bn_fold_needs_a_single_reader);
  RUN(fuse_rules);
  RUN(fuse_silu);
  RUN(legacy_rewrites);
  return test_summary();
}
