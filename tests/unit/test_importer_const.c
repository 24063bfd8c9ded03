/* Graph inputs frozen at conversion (wnn_import_options.consts, the CLI's
 * `wnn convert --const NAME=FILE`): a shape-deciding input that is a graph
 * input fails with a message naming it and suggesting --const; frozen, it
 * folds and the artifact no longer has it; a frozen If condition selects its
 * branch; a tensor that does not match the input's declaration is refused. */
#include <stdio.h>

#include "ops/op.h"
/* The shared helpers are static; this file uses only some of them. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "test_importer_util.h"

enum { FLOAT = 1, INT32 = 6, INT64 = 7, BOOL = 9, FLOAT16 = 10 };

static wnn_status convert_with(tm_model *m, const wnn_import_const *consts, int num_consts,
                               const wnn_import_shape *shapes, int num_shapes,
                               wnn_import_result *res) {
  size_t size;
  uint8_t *bytes = tm_pack(m, &size);
  wnn_import_options opt;
  memset(&opt, 0, sizeof opt);
  opt.shapes = shapes;
  opt.num_shapes = num_shapes;
  opt.consts = consts;
  opt.num_consts = num_consts;
  wnn_status st = wnn_import_onnx(bytes, size, &opt, res);
  free(bytes);
  return st;
}

/* data [2,3,4] reshaped by graph input `shape` (int64 [2]). */
static void reshape_model(tm_model *m) {
  tm_init(m, 13);
  const int64_t d[3] = {2, 3, 4}, two = 2;
  tm_input(m, "data", FLOAT, 3, d);
  tm_input(m, "shape", INT64, 1, &two);
  tm_node(m, "Reshape", "reshape", "data,shape", "y");
  tm_output(m, "y");
}

TEST(shape_input_names_graph_input_and_suggests_const) {
  tm_model m;
  reshape_model(&m);
  wnn_import_result res;
  CHECK(convert_with(&m, NULL, 0, NULL, 0, &res) == WNN_ERR_UNSUPPORTED);
  CHECK(res.unsupported);
  CHECK(strstr(res.msg, "node 0 'reshape' (Reshape, domain 'ai.onnx')") != NULL);
  CHECK(strstr(res.msg, "input 1 of Reshape comes from graph input 'shape', which must be "
                        "constant: pass --const shape=FILE") != NULL);
  if (!strstr(res.msg, "--const shape=FILE")) printf("  message: %s\n", res.msg);
  tm_free(&m);
}

TEST(frozen_shape_input_folds_and_leaves_the_artifact) {
  tm_model m;
  reshape_model(&m);
  const int64_t shape[2] = {4, -1};
  wnn_import_const c = {"shape", WNN_DTYPE_I64, 1, {2}, shape};
  wnn_import_result res;
  wnn_status st = convert_with(&m, &c, 1, NULL, 0, &res);
  CHECK_OK(st);
  if (st) printf("  %s\n", res.msg);
  if (!st) {
    wnn_model *model;
    CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
    CHECK(wnn_model_num_inputs(model) == 1);
    wnn_tensor_info info;
    CHECK_OK(wnn_model_input_info(model, 0, &info));
    CHECK(strcmp(info.name, "data") == 0);
    CHECK_OK(wnn_model_output_info(model, 0, &info));
    CHECK(info.ndim == 2 && info.shape[0] == 4 && info.shape[1] == 6);
    wnn_model_free(model);
    float x[24], y[24];
    for (int i = 0; i < 24; i++) x[i] = (float)i - 7.5f;
    const float *xs[1] = {x};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 24));
    int same = 1;
    for (int i = 0; i < 24; i++) same &= y[i] == x[i];
    CHECK(same);
    free(res.artifact);
  }
  tm_free(&m);
}

/* A shape computed from a graph input (int32 -> Cast -> Reshape): the
 * message names the node that computes it and the graph input to freeze. */
TEST(computed_shape_input_names_its_graph_input) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[2] = {2, 6}, two = 2;
  tm_input(&m, "data", FLOAT, 2, d);
  tm_input(&m, "dims32", INT32, 1, &two);
  Onnx__NodeProto *cast = tm_node(&m, "Cast", "cast", "dims32", "dims64");
  tm_attr_int(&m, cast, "to", INT64);
  tm_node(&m, "Reshape", "reshape", "data,dims64", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  CHECK(convert_with(&m, NULL, 0, NULL, 0, &res) == WNN_ERR_UNSUPPORTED);
  CHECK(strstr(res.msg, "node 1 'reshape' (Reshape") != NULL);
  CHECK(strstr(res.msg, "computed by node 0 'cast' (Cast) from graph input 'dims32'") != NULL);
  CHECK(strstr(res.msg, "pass --const dims32=FILE") != NULL);
  CHECK(strstr(res.msg, "--const data=") == NULL); /* data decides no shape */
  const int32_t dims[2] = {3, 4};
  wnn_import_const c = {"dims32", WNN_DTYPE_I32, 1, {2}, dims};
  wnn_status st = convert_with(&m, &c, 1, NULL, 0, &res);
  CHECK_OK(st);
  if (!st) {
    float x[12], y[12];
    for (int i = 0; i < 12; i++) x[i] = (float)i;
    const float *xs[1] = {x};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 12));
    CHECK(y[11] == 11.0f);
    free(res.artifact);
  }
  tm_free(&m);
}

/* An If whose condition is computed from graph input `sr` (Equal(sr, 16000)),
 * as silero_vad does: not frozen, both branches are compiled; frozen, only
 * the branch the value selects. */
TEST(if_condition_from_graph_input_folds_when_frozen) {
  for (int run = 0; run < 3; run++) {
    tm_model m;
    tm_init(&m, 13);
    const int64_t d[1] = {3}, k16 = 16000;
    tm_input(&m, "x", FLOAT, 1, d);
    tm_input(&m, "sr", INT64, 0, NULL);
    tm_initializer(&m, "k16", INT64, 0, NULL, &k16);
    tm_node(&m, "Equal", "is16k", "sr,k16", "cond");
    Onnx__NodeProto *n = tm_node(&m, "If", "if", "cond", "y");
    tm_attr(&m, n, "then_branch", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)->g =
        tm_branch(&m, "Relu", "then_out");
    tm_attr(&m, n, "else_branch", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)->g =
        tm_branch(&m, "Neg", "else_out");
    tm_output(&m, "y");
    wnn_import_result res;
    const int64_t sr = run == 1 ? 16000 : 8000;
    wnn_import_const c = {"sr", WNN_DTYPE_I64, 0, {0}, &sr};
    wnn_status st = convert_with(&m, &c, run == 0 ? 0 : 1, NULL, 0, &res);
    if (run == 0) {
      /* Not frozen: both branches are compiled and sr stays an input
       * (test_importer_if.c runs such artifacts). */
      CHECK_OK(st);
      wnn_model *model = NULL;
      if (!st) CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
      if (model) CHECK(wnn_model_num_inputs(model) == 2);
      wnn_model_free(model);
      if (!st) free(res.artifact);
    } else if (run == 2 && !wnn_op_by_name("Neg")) {
      CHECK(st == WNN_ERR_UNKNOWN_OP); /* the else branch was compiled */
    } else {
      CHECK_OK(st);
      if (st) printf("  %s\n", res.msg);
      if (!st) {
        wnn_model *model;
        CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
        CHECK(wnn_model_num_inputs(model) == 1);
        wnn_model_free(model);
        const float x[3] = {-1, 0, 2};
        float y[3];
        const float *xs[1] = {x};
        CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 3));
        if (run == 1) CHECK(y[0] == 0 && y[1] == 0 && y[2] == 2);   /* then: Relu */
        if (run == 2) CHECK(y[0] == 1 && y[1] == 0 && y[2] == -2);  /* else: Neg */
        free(res.artifact);
      }
    }
    tm_free(&m);
  }
}

/* float16 data for a float32 input is converted; a symbolic dim takes the
 * tensor's. */
TEST(float16_tensor_and_symbolic_dim) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {2}, sym[1] = {-2};
  tm_input(&m, "a", FLOAT, 1, d);
  tm_input(&m, "b", FLOAT, 1, sym);
  tm_node(&m, "Add", "add", "a,b", "y");
  tm_output(&m, "y");
  const uint16_t half[2] = {0x3c00 /* 1.0 */, 0xc000 /* -2.0 */};
  wnn_import_const c = {"b", WNN_DTYPE_F16, 1, {2}, half};
  wnn_import_result res;
  wnn_status st = convert_with(&m, &c, 1, NULL, 0, &res);
  CHECK_OK(st);
  if (!st) {
    const float a[2] = {0.5f, 0.5f};
    float y[2];
    const float *xs[1] = {a};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 2));
    CHECK(y[0] == 1.5f && y[1] == -1.5f);
    free(res.artifact);
  }
  tm_free(&m);
}

TEST(const_option_errors) {
  tm_model m;
  reshape_model(&m);
  const int64_t one = 1, k = 2;
  tm_initializer(&m, "init", INT64, 1, &one, &k);
  wnn_import_result res;
  const int64_t shape3[3] = {2, 3, 4};
  const float fshape[2] = {4, 6};
  const int64_t shape2[2] = {4, 6};

  wnn_import_const unknown = {"nope", WNN_DTYPE_I64, 1, {2}, shape2};
  CHECK(convert_with(&m, &unknown, 1, NULL, 0, &res) == WNN_ERR_NOT_FOUND);
  CHECK(strstr(res.msg, "--const nope: the model has no input named 'nope'") != NULL);

  wnn_import_const init = {"init", WNN_DTYPE_I64, 1, {1}, shape2};
  CHECK(convert_with(&m, &init, 1, NULL, 0, &res) == WNN_ERR_NOT_FOUND);
  CHECK(strstr(res.msg, "'init' is an initializer, not a graph input") != NULL);

  wnn_import_const dtype = {"shape", WNN_DTYPE_F32, 1, {2}, fshape};
  CHECK(convert_with(&m, &dtype, 1, NULL, 0, &res) == WNN_ERR_DTYPE);
  CHECK(strstr(res.msg, "--const shape: graph input 'shape' is int64, the tensor is float32") != NULL);

  wnn_import_const dims = {"shape", WNN_DTYPE_I64, 1, {3}, shape3};
  CHECK(convert_with(&m, &dims, 1, NULL, 0, &res) == WNN_ERR_SHAPE);
  CHECK(strstr(res.msg, "declared with shape [2], the tensor's is [3]") != NULL);

  wnn_import_const rank = {"shape", WNN_DTYPE_I64, 2, {1, 2}, shape2};
  CHECK(convert_with(&m, &rank, 1, NULL, 0, &res) == WNN_ERR_SHAPE);

  /* --shape for a frozen input must be the tensor's shape. */
  wnn_import_const ok = {"shape", WNN_DTYPE_I64, 1, {2}, shape2};
  wnn_import_shape other = {"shape", 1, {3}};
  CHECK(convert_with(&m, &ok, 1, &other, 1, &res) == WNN_ERR_SHAPE);
  CHECK(strstr(res.msg, "the tensor's shape [2] is not --shape [3]") != NULL);
  wnn_import_shape same = {"shape", 1, {2}};
  wnn_status st = convert_with(&m, &ok, 1, &same, 1, &res);
  CHECK_OK(st);
  if (!st) free(res.artifact);
  tm_free(&m);
}

int main(void) {
  RUN(shape_input_names_graph_input_and_suggests_const);
  RUN(frozen_shape_input_folds_and_leaves_the_artifact);
  RUN(computed_shape_input_names_its_graph_input);
  RUN(if_condition_from_graph_input_folds_when_frozen);
  RUN(float16_tensor_and_symbolic_dim);
  RUN(const_option_errors);
  return test_summary();
}
