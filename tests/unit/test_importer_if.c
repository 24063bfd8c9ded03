/* If with a condition known only at run time (docs/importer.md, "If"): both
 * branches are compiled under guards and Where nodes merge their outputs; the
 * artifact needs the GUARDS feature; names the branches share are renamed;
 * nested Ifs concatenate guards; branches whose outputs disagree in shape are
 * refused, naming the If, the output and both shapes; a branch whose shapes
 * do not work out for the fixed input shapes is left out with a warning, and
 * a run that selects it fails; activation fusion respects guards. */
#include <stdio.h>

#include "ops/op.h"
#include "runtime/format.h"
/* The shared helpers are static; this file uses only some of them. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "test_importer_util.h"

enum { FLOAT = 1, INT64 = 7, BOOL = 9 };

static wnn_status convert(tm_model *m, tm_warnings *w, wnn_import_result *res) {
  return tm_convert(m, NULL, 0, w, res);
}

/* A branch graph of the given nodes (each "Op:inputs:outputs", inputs and
 * outputs comma-separated) and outputs (comma-separated). */
static Onnx__GraphProto *branch(tm_model *m, const char *const *nodes, int n, const char *outs) {
  Onnx__GraphProto *g = tm_alloc(m, sizeof *g);
  Onnx__GraphProto gi = ONNX__GRAPH_PROTO__INIT;
  *g = gi;
  g->name = tm_str(m, "branch");
  g->node = tm_alloc(m, (size_t)n * sizeof *g->node);
  for (int i = 0; i < n; i++) {
    char spec[256], *op = spec, *in, *out;
    snprintf(spec, sizeof spec, "%s", nodes[i]);
    in = strchr(op, ':');
    *in++ = '\0';
    out = strchr(in, ':');
    *out++ = '\0';
    Onnx__NodeProto *node = tm_alloc(m, sizeof *node);
    Onnx__NodeProto ni = ONNX__NODE_PROTO__INIT;
    *node = ni;
    node->op_type = tm_str(m, op);
    node->name = tm_str(m, op);
    node->n_input = tm_split(m, in, &node->input);
    node->n_output = tm_split(m, out, &node->output);
    node->attribute = tm_alloc(m, 4 * sizeof *node->attribute);
    g->node[g->n_node++] = node;
  }
  char **names;
  g->n_output = tm_split(m, outs, &names);
  g->output = tm_alloc(m, g->n_output * sizeof *g->output);
  for (size_t k = 0; k < g->n_output; k++) g->output[k] = tm_value_info(m, names[k], 0, 0, NULL);
  return g;
}

static void set_branches(tm_model *m, Onnx__NodeProto *n, Onnx__GraphProto *then_g,
                         Onnx__GraphProto *else_g) {
  tm_attr(m, n, "then_branch", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)->g = then_g;
  tm_attr(m, n, "else_branch", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)->g = else_g;
}

/* One input of a run: data of a dtype (shape from the model). */
typedef struct in_t {
  const void *data;
  wnn_dtype dtype;
} in_t;

/* Loads the artifact, feeds the inputs in model order, runs, and copies
 * output 0 (float32) into y[n]. */
static wnn_status run(const wnn_import_result *res, const in_t *ins, int num, float *y, size_t n,
                      char *msg, size_t cap) {
  wnn_model *model = NULL;
  wnn_status st = wnn_model_load(res->artifact, res->size, NULL, &model);
  if (st) return st;
  wnn_executor *ex = NULL;
  st = wnn_executor_create(model, &ex);
  for (int i = 0; !st && i < num; i++) {
    wnn_tensor_info info;
    st = wnn_model_input_info(model, i, &info);
    if (st) break;
    DLTensor t;
    memset(&t, 0, sizeof t);
    t.data = (void *)ins[i].data;
    t.device.device_type = kDLCPU;
    t.ndim = info.ndim;
    t.dtype = wnn_dtype_to_dl(ins[i].dtype);
    t.shape = (int64_t *)info.shape;
    st = wnn_executor_set_input(ex, i, &t);
  }
  if (!st) st = wnn_executor_run(ex);
  if (st && msg) snprintf(msg, cap, "%s", wnn_executor_errmsg(ex));
  if (!st) st = wnn_executor_copy_output(ex, 0, y, n * sizeof(float));
  wnn_executor_destroy(ex);
  wnn_model_free(model);
  return st;
}

static bool has_guards_bit(const wnn_import_result *res) {
  return (wnn_rd64((const uint8_t *)res->artifact + 24) & WNN_FEATURE_GUARDS) != 0;
}

/* The number of nodes of op `op` in the artifact's metadata. */
static int op_count(const wnn_import_result *res, const char *op) {
  wnn_model *model = NULL;
  if (wnn_model_load(res->artifact, res->size, NULL, &model)) return -1;
  char key[64];
  snprintf(key, sizeof key, "\"%s\":", op);
  const char *at = strstr(wnn_model_metadata(model), key);
  int n = at ? atoi(at + strlen(key)) : 0;
  wnn_model_free(model);
  return n;
}

/* If(cond) then Relu(x) else Neg(x), cond a graph input of shape [] or [1]. */
TEST(run_time_condition_compiles_both_branches) {
  for (int rank = 0; rank < 2; rank++) {
    tm_model m;
    tm_init(&m, 13);
    const int64_t d[1] = {3}, one = 1;
    tm_input(&m, "x", FLOAT, 1, d);
    tm_input(&m, "cond", BOOL, rank, &one);
    Onnx__NodeProto *n = tm_node(&m, "If", "if", "cond", "y");
    set_branches(&m, n, tm_branch(&m, "Relu", "then_out"), tm_branch(&m, "Neg", "else_out"));
    tm_output(&m, "y");
    wnn_import_result res;
    wnn_status st = convert(&m, NULL, &res);
    CHECK_OK(st);
    if (st) printf("  %s\n", res.msg);
    if (!st) {
      CHECK(has_guards_bit(&res));
      CHECK(op_count(&res, "Where") == 1);
      const float x[3] = {-1, 0, 2};
      float y[3];
      for (uint8_t c = 0; c < 2; c++) {
        in_t ins[2] = {{x, WNN_DTYPE_F32}, {&c, WNN_DTYPE_BOOL}};
        CHECK_OK(run(&res, ins, 2, y, 3, NULL, 0));
        if (c) CHECK(y[0] == 0 && y[1] == 0 && y[2] == 2);
        else CHECK(y[0] == 1 && y[1] == 0 && y[2] == -2);
      }
      /* A scalar output keeps its shape with a [1] condition. */
      wnn_model *model = NULL;
      CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
      wnn_tensor_info info;
      if (model) CHECK_OK(wnn_model_output_info(model, 0, &info));
      if (model) CHECK(info.ndim == 1 && info.shape[0] == 3);
      wnn_model_free(model);
      free(res.artifact);
    }
    tm_free(&m);
  }
}

/* silero_vad's shape: the condition is Equal(sr, 16000) on an int64 input,
 * and both branches define the same names (and one shadows an outer one). */
TEST(computed_condition_and_shared_names) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {3}, k16 = 16000;
  tm_input(&m, "x", FLOAT, 1, d);
  tm_input(&m, "sr", INT64, 0, NULL);
  tm_initializer(&m, "k16", INT64, 0, NULL, &k16);
  tm_node(&m, "Equal", "is16k", "sr,k16", "cond");
  tm_node(&m, "Relu", "outer", "x", "tmp2");
  Onnx__NodeProto *n = tm_node(&m, "If", "if", "cond", "y,z");
  const char *then_nodes[3] = {"Relu:x:tmp", "Add:tmp,tmp:tmp2", "Identity:tmp2:a"};
  const char *else_nodes[3] = {"Neg:x:tmp", "Identity:tmp:tmp2", "Sigmoid:tmp2:a"};
  set_branches(&m, n, branch(&m, then_nodes, 3, "a,tmp"), branch(&m, else_nodes, 3, "a,tmp"));
  tm_node(&m, "Add", "after", "y,tmp2", "w");
  tm_output(&m, "w");
  tm_output(&m, "z");
  wnn_import_result res;
  wnn_status st = convert(&m, NULL, &res);
  CHECK_OK(st);
  if (st) printf("  %s\n", res.msg);
  if (!st) {
    const float x[3] = {-1, 0, 2};
    float w[3];
    for (int k = 0; k < 2; k++) {
      const int64_t sr = k ? 16000 : 8000;
      in_t ins[2] = {{x, WNN_DTYPE_F32}, {&sr, WNN_DTYPE_I64}};
      CHECK_OK(run(&res, ins, 2, w, 3, NULL, 0));
      for (int i = 0; i < 3; i++) {
        float relu = x[i] > 0 ? x[i] : 0;
        float want = (k ? 2 * relu : 1.0f / (1.0f + expf(x[i]))) + relu; /* + the outer tmp2 */
        CHECK(fabsf(w[i] - want) < 1e-6f);
      }
    }
    free(res.artifact);
  }
  tm_free(&m);
}

/* An If in the then_branch of an If: guards concatenate. */
TEST(nested_run_time_ifs) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {2};
  tm_input(&m, "x", FLOAT, 1, d);
  tm_input(&m, "a", BOOL, 0, NULL);
  tm_input(&m, "b", BOOL, 0, NULL);
  Onnx__NodeProto *outer = tm_node(&m, "If", "outer", "a", "y");
  /* then: inner = If(b) then Relu(x) else Neg(x); out = Sigmoid(inner) */
  Onnx__GraphProto *then_g = tm_alloc(&m, sizeof *then_g);
  const char *then_nodes[1] = {"Sigmoid:inner:then_y"};
  Onnx__GraphProto *g0 = branch(&m, then_nodes, 1, "then_y");
  *then_g = *g0;
  Onnx__NodeProto *inner = tm_alloc(&m, sizeof *inner);
  Onnx__NodeProto ni = ONNX__NODE_PROTO__INIT;
  *inner = ni;
  inner->op_type = tm_str(&m, "If");
  inner->name = tm_str(&m, "inner");
  inner->n_input = tm_split(&m, "b", &inner->input);
  inner->n_output = tm_split(&m, "inner", &inner->output);
  inner->attribute = tm_alloc(&m, 4 * sizeof *inner->attribute);
  set_branches(&m, inner, tm_branch(&m, "Relu", "r"), tm_branch(&m, "Neg", "r"));
  then_g->node = tm_alloc(&m, 2 * sizeof *then_g->node);
  then_g->node[0] = inner;
  then_g->node[1] = g0->node[0];
  then_g->n_node = 2;
  set_branches(&m, outer, then_g, tm_branch(&m, "Abs", "else_y"));
  tm_output(&m, "y");
  wnn_import_result res;
  wnn_status st = convert(&m, NULL, &res);
  CHECK_OK(st);
  if (st) printf("  %s\n", res.msg);
  if (!st) {
    CHECK(op_count(&res, "Where") == 2);
    const float x[2] = {-1.5f, 2.0f};
    float y[2];
    for (uint8_t a = 0; a < 2; a++)
      for (uint8_t b = 0; b < 2; b++) {
        in_t ins[3] = {{x, WNN_DTYPE_F32}, {&a, WNN_DTYPE_BOOL}, {&b, WNN_DTYPE_BOOL}};
        CHECK_OK(run(&res, ins, 3, y, 2, NULL, 0));
        for (int i = 0; i < 2; i++) {
          float r = b ? (x[i] > 0 ? x[i] : 0) : -x[i];
          float want = a ? 1.0f / (1.0f + expf(-r)) : fabsf(x[i]);
          CHECK(fabsf(y[i] - want) < 1e-6f);
        }
      }
    free(res.artifact);
  }
  tm_free(&m);
}

/* Outputs whose shapes differ cannot merge into one static value. */
TEST(branch_outputs_must_agree) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {3}, two = 2;
  const float k[2] = {1, 2};
  tm_input(&m, "x", FLOAT, 1, d);
  tm_input(&m, "cond", BOOL, 0, NULL);
  tm_initializer(&m, "k2", FLOAT, 1, &two, k);
  Onnx__NodeProto *n = tm_node(&m, "If", "if", "cond", "y");
  const char *else_nodes[1] = {"Identity:k2:e"};
  set_branches(&m, n, tm_branch(&m, "Relu", "t"), branch(&m, else_nodes, 1, "e"));
  tm_output(&m, "y");
  wnn_import_result res;
  CHECK(convert(&m, NULL, &res) == WNN_ERR_UNSUPPORTED);
  CHECK(res.unsupported);
  if (!strstr(res.msg, "node 0 'if' (If, domain 'ai.onnx'): output 'y': the then_branch gives 't' "
                       "float32[3] and the else_branch 'e' float32[2]")) {
    printf("  %s\n", res.msg);
    CHECK(0);
  }
  tm_free(&m);
}

/* A branch that fails shape inference for the fixed input shapes (a Reshape
 * of 3 elements to [2, 2]) is left out with a warning: the artifact holds the
 * other one, and a run that selects the missing one fails. The condition is
 * computed (Not), and read only by guards, so dead-code elimination must
 * keep its node. */
TEST(branch_that_cannot_be_compiled_is_left_out) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {3}, two = 2, shape[2] = {2, 2};
  tm_input(&m, "x", FLOAT, 1, d);
  tm_input(&m, "c", BOOL, 0, NULL);
  tm_initializer(&m, "shape22", INT64, 1, &two, shape);
  tm_node(&m, "Not", "not", "c", "cond");
  Onnx__NodeProto *n = tm_node(&m, "If", "if", "cond", "y");
  const char *then_nodes[2] = {"Reshape:x,shape22:r", "Flatten:r:t"};
  set_branches(&m, n, branch(&m, then_nodes, 2, "t"), tm_branch(&m, "Neg", "e"));
  tm_output(&m, "y");
  wnn_import_result res;
  tm_warnings w;
  wnn_status st = convert(&m, &w, &res);
  CHECK_OK(st);
  if (st) printf("  %s\n", res.msg);
  CHECK(w.count == 1);
  CHECK(strstr(w.text, "the then_branch of If node 1 'if' cannot be compiled for these input "
                       "shapes (node 1 'Reshape' (Reshape") != NULL);
  CHECK(strstr(w.text, "it is left out: a run whose condition selects it fails") != NULL);
  if (!st) {
    CHECK(has_guards_bit(&res));
    CHECK(op_count(&res, "Where") == 0);
    const float x[3] = {-1, 0, 2};
    float y[3];
    uint8_t c = 1; /* cond = Not(c) false: the else branch */
    in_t ins[2] = {{x, WNN_DTYPE_F32}, {&c, WNN_DTYPE_BOOL}};
    CHECK_OK(run(&res, ins, 2, y, 3, NULL, 0));
    CHECK(y[0] == 1 && y[1] == 0 && y[2] == -2);
    c = 0;
    char msg[512] = "";
    CHECK(run(&res, ins, 2, y, 3, msg, sizeof msg) == WNN_ERR_UNSUPPORTED);
    CHECK(strstr(msg, "output 0 (y) needs value") != NULL);
    CHECK(strstr(msg, "did not compute: its guards (\"when\") failed") != NULL);
    free(res.artifact);
  }
  tm_free(&m);
  /* Both branches failing is an error that names the second failure. */
  tm_init(&m, 13);
  tm_input(&m, "x", FLOAT, 1, d);
  tm_input(&m, "cond", BOOL, 0, NULL);
  tm_initializer(&m, "shape22", INT64, 1, &two, shape);
  n = tm_node(&m, "If", "if", "cond", "y");
  const char *else_nodes[2] = {"Reshape:x,shape22:r2", "Flatten:r2:e"};
  set_branches(&m, n, branch(&m, then_nodes, 2, "t"), branch(&m, else_nodes, 2, "e"));
  tm_output(&m, "y");
  st = convert(&m, &w, &res);
  CHECK(st == WNN_ERR_SHAPE);
  CHECK(strstr(res.msg, "(in the else_branch of If node 0 'if')") != NULL);
  CHECK(res.unsupported);
  tm_free(&m);
}

/* A Conv outside the If and a Relu inside its then_branch: the Relu runs
 * under a guard the Conv lacks, so it is not fused into it. */
TEST(fusion_respects_guards) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[4] = {1, 1, 2, 2}, wd[4] = {1, 1, 1, 1};
  const float wv[1] = {-2.0f};
  tm_input(&m, "x", FLOAT, 4, d);
  tm_input(&m, "cond", BOOL, 0, NULL);
  tm_initializer(&m, "w", FLOAT, 4, wd, wv);
  tm_node(&m, "Conv", "conv", "x,w", "c");
  Onnx__NodeProto *n = tm_node(&m, "If", "if", "cond", "y");
  const char *then_nodes[1] = {"Relu:c:t"};
  const char *else_nodes[1] = {"Abs:x:e"};
  set_branches(&m, n, branch(&m, then_nodes, 1, "t"), branch(&m, else_nodes, 1, "e"));
  tm_output(&m, "y");
  wnn_import_result res;
  wnn_status st = convert(&m, NULL, &res);
  CHECK_OK(st);
  if (st) printf("  %s\n", res.msg);
  if (!st) {
    CHECK(op_count(&res, "Relu") == 1);
    const float x[4] = {-1, 0, 2, -3};
    float y[4];
    for (uint8_t c = 0; c < 2; c++) {
      in_t ins[2] = {{x, WNN_DTYPE_F32}, {&c, WNN_DTYPE_BOOL}};
      CHECK_OK(run(&res, ins, 2, y, 4, NULL, 0));
      for (int i = 0; i < 4; i++) {
        float want = c ? (-2 * x[i] > 0 ? -2 * x[i] : 0) : fabsf(x[i]);
        CHECK(y[i] == want);
      }
    }
    free(res.artifact);
  }
  tm_free(&m);
}

/* A constant condition keeps compiling only the branch it selects: no
 * guards, no feature bit. */
TEST(constant_condition_needs_no_guards) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {3}, one = 1;
  const uint8_t t = 1;
  tm_input(&m, "x", FLOAT, 1, d);
  tm_initializer(&m, "cond", BOOL, 1, &one, &t);
  Onnx__NodeProto *n = tm_node(&m, "If", "if", "cond", "y");
  set_branches(&m, n, tm_branch(&m, "Relu", "then_out"), tm_branch(&m, "Neg", "else_out"));
  tm_output(&m, "y");
  wnn_import_result res;
  wnn_status st = convert(&m, NULL, &res);
  CHECK_OK(st);
  if (!st) {
    CHECK(!has_guards_bit(&res));
    CHECK(op_count(&res, "Where") == 0);
    CHECK(op_count(&res, "Neg") == 0);
    free(res.artifact);
  }
  tm_free(&m);
}

int main(void) {
  RUN(run_time_condition_compiles_both_branches);
  RUN(computed_condition_and_shared_names);
  RUN(nested_run_time_ifs);
  RUN(branch_outputs_must_agree);
  RUN(branch_that_cannot_be_compiled_is_left_out);
  RUN(fusion_respects_guards);
  RUN(constant_condition_needs_no_guards);
  return test_summary();
}
