/* The ONNX importer end to end: ONNX models built here with the protobuf-c
 * structs, converted, loaded by the runtime and run; and every way a
 * conversion fails (bad bytes, unknown ops, missing values, external data,
 * symbolic dims). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "ops/op.h"
#include "test_importer_util.h"

enum { FLOAT = 1, INT64 = 7, FLOAT16 = 10, DOUBLE = 11 };

/* Converts, expecting success; the artifact is the caller's. */
static int convert_ok(tm_model *m, wnn_import_result *res) {
  wnn_status st = tm_convert(m, NULL, 0, NULL, res);
  if (st != WNN_OK) printf("  %s: convert failed: %s\n", test_current_, res->msg);
  return st == WNN_OK;
}

/* Conv 1x1 (2 -> 2 channels, bias) + Relu, on a 1x2x2x2 input. */
TEST(conv_relu_runs_and_fuses) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t xd[4] = {1, 2, 2, 2}, wd[4] = {2, 2, 1, 1}, bd[1] = {2};
  const float w[4] = {1, -1, 0.5f, 2}, b[2] = {0.25f, -10};
  tm_input(&m, "gpu_0/data_0", FLOAT, 4, xd);
  tm_initializer(&m, "W", FLOAT, 4, wd, w);
  tm_initializer(&m, "B", FLOAT, 1, bd, b);
  tm_node(&m, "Conv", "conv", "gpu_0/data_0,W,B", "c");
  tm_node(&m, "Relu", "relu", "c", "1959");
  tm_output(&m, "1959");
  wnn_import_result res;
  if (convert_ok(&m, &res)) {
    CHECK(res.num_nodes == 1); /* Relu fused into the Conv */
    const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float y[8];
    const float *xs[1] = {x};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 8));
    for (int i = 0; i < 4; i++) {
      float c0 = x[i] * 1 + x[4 + i] * -1 + 0.25f, c1 = x[i] * 0.5f + x[4 + i] * 2 - 10;
      CHECK(fabsf(y[i] - (c0 > 0 ? c0 : 0)) < 1e-6f);
      CHECK(fabsf(y[4 + i] - (c1 > 0 ? c1 : 0)) < 1e-6f);
    }
    wnn_model *model;
    CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
    wnn_tensor_info info;
    CHECK_OK(wnn_model_input_info(model, 0, &info));
    CHECK(!strcmp(info.name, "gpu_0/data_0"));
    CHECK_OK(wnn_model_output_info(model, 0, &info));
    CHECK(!strcmp(info.name, "1959"));
    CHECK(wnn_model_num_inputs(model) == 1);
    wnn_model_free(model);
    free(res.artifact);
  }
  tm_free(&m);
}

/* Conv + BatchNormalization: one Conv, the same values as BN applied after. */
TEST(batchnorm_folds_into_conv) {
  tm_model m;
  tm_init(&m, 9);
  const int64_t xd[4] = {1, 1, 1, 3}, wd[4] = {2, 1, 1, 1}, cd[1] = {2};
  const float w[2] = {2, -1}, scale[2] = {0.5f, 3}, bias[2] = {1, -2}, mean[2] = {0.1f, 0.2f},
              var[2] = {4, 0.25f};
  tm_input(&m, "x", FLOAT, 4, xd);
  tm_initializer(&m, "W", FLOAT, 4, wd, w);
  tm_initializer(&m, "s", FLOAT, 1, cd, scale);
  tm_initializer(&m, "b", FLOAT, 1, cd, bias);
  tm_initializer(&m, "m", FLOAT, 1, cd, mean);
  tm_initializer(&m, "v", FLOAT, 1, cd, var);
  tm_node(&m, "Conv", "conv", "x,W", "c");
  Onnx__NodeProto *bn = tm_node(&m, "BatchNormalization", "bn", "c,s,b,m,v", "y");
  tm_attr_float(&m, bn, "epsilon", 0.0f);
  tm_attr_int(&m, bn, "spatial", 1); /* opset < 9 attribute, dropped */
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, &res)) {
    CHECK(res.num_nodes == 1);
    const float x[3] = {1, -2, 0.5f};
    float y[6];
    const float *xs[1] = {x};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 6));
    for (int c = 0; c < 2; c++)
      for (int i = 0; i < 3; i++) {
        float conv = x[i] * w[c];
        float want = (conv - mean[c]) / sqrtf(var[c]) * scale[c] + bias[c];
        CHECK(fabsf(y[c * 3 + i] - want) < 1e-5f);
      }
    free(res.artifact);
  }
  tm_free(&m);
}

/* Gemm + BatchNormalization (transB, with C). */
TEST(batchnorm_folds_into_gemm) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t ad[2] = {2, 3}, bd[2] = {2, 3}, cd[1] = {2};
  const float B[6] = {1, 2, 3, -1, 0.5f, 2}, C[2] = {0.5f, -1}, scale[2] = {2, -1},
              bias[2] = {0.1f, 0.2f}, mean[2] = {1, -1}, var[2] = {1, 3};
  tm_input(&m, "a", FLOAT, 2, ad);
  tm_initializer(&m, "B", FLOAT, 2, bd, B);
  tm_initializer(&m, "C", FLOAT, 1, cd, C);
  tm_initializer(&m, "s", FLOAT, 1, cd, scale);
  tm_initializer(&m, "b", FLOAT, 1, cd, bias);
  tm_initializer(&m, "m", FLOAT, 1, cd, mean);
  tm_initializer(&m, "v", FLOAT, 1, cd, var);
  Onnx__NodeProto *g = tm_node(&m, "Gemm", "gemm", "a,B,C", "g");
  tm_attr_int(&m, g, "transB", 1);
  tm_attr_float(&m, g, "beta", 2.0f);
  tm_node(&m, "BatchNormalization", "bn", "g,s,b,m,v", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, &res)) {
    CHECK(res.num_nodes == 1);
    const float a[6] = {1, 2, 3, 4, 5, 6};
    float y[4];
    const float *xs[1] = {a};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 4));
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) {
        float acc = 0;
        for (int k = 0; k < 3; k++) acc += a[i * 3 + k] * B[j * 3 + k];
        acc += 2.0f * C[j];
        float want = (acc - mean[j]) / sqrtf(var[j] + 1e-5f) * scale[j] + bias[j];
        CHECK(fabsf(y[i * 2 + j] - want) < 1e-4f);
      }
    free(res.artifact);
  }
  tm_free(&m);
}

/* Constant nodes and shape arithmetic fold away: Reshape's shape is
 * Concat(Constant, Constant) and a constant Add feeds the output's Add. */
TEST(constants_fold) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t xd[2] = {2, 3};
  tm_input(&m, "x", FLOAT, 2, xd);
  Onnx__NodeProto *c1 = tm_node(&m, "Constant", "c1", "", "s1");
  const int64_t one = 1, six[1] = {6};
  Onnx__AttributeProto *a =
      tm_attr(&m, c1, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
  a->t = tm_tensor(&m, "", INT64, 1, &one, &one);
  Onnx__NodeProto *c2 = tm_node(&m, "Constant", "c2", "", "s2");
  tm_attr_ints(&m, c2, "value_ints", 1, six);
  Onnx__NodeProto *cat = tm_node(&m, "Concat", "cat", "s1,s2", "shape");
  tm_attr_int(&m, cat, "axis", 0);
  tm_node(&m, "Reshape", "reshape", "x,shape", "r");
  Onnx__NodeProto *k = tm_node(&m, "Constant", "k", "", "k1");
  tm_attr_float(&m, k, "value_float", 1.5f);
  tm_node(&m, "Add", "kk", "k1,k1", "k3");
  tm_node(&m, "Add", "add", "r,k3", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, &res)) {
    CHECK(res.num_nodes == 2); /* Reshape and the last Add */
    const float x[6] = {0, 1, 2, 3, 4, 5};
    float y[6];
    const float *xs[1] = {x};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 6));
    for (int i = 0; i < 6; i++) CHECK(y[i] == x[i] + 3.0f);
    wnn_model *model;
    CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
    wnn_tensor_info info;
    CHECK_OK(wnn_model_output_info(model, 0, &info));
    CHECK(info.ndim == 2 && info.shape[0] == 1 && info.shape[1] == 6);
    wnn_model_free(model);
    free(res.artifact);
  }
  tm_free(&m);
}

/* Unused initializers, unused nodes (even of ops wnn lacks) and inputs listed
 * with initializers (IR < 4) leave nothing behind. */
TEST(dead_code_and_unused_initializers) {
  tm_model m;
  tm_init(&m, 11);
  const int64_t xd[1] = {4}, big[1] = {1000};
  float zeros[1000] = {0};
  tm_input(&m, "x", FLOAT, 1, xd);
  tm_input(&m, "unused_w", FLOAT, 1, big); /* also an initializer: a param */
  tm_initializer(&m, "unused_w", FLOAT, 1, big, zeros);
  tm_node(&m, "NoSuchOp", "dead", "x", "d");
  tm_node(&m, "Relu", "relu", "x", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, &res)) {
    wnn_model *model;
    CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
    CHECK(wnn_model_num_inputs(model) == 1);
    CHECK(wnn_model_num_params(model) == 0);
    CHECK(wnn_model_weights_bytes(model) == 0);
    wnn_model_free(model);
    free(res.artifact);
  }
  tm_free(&m);
}

/* Opset 9: Softmax over axis 1 of a 3-D input coerces to 2-D (all of dims
 * 1.. at once), Clip takes attributes, Dropout is an Identity. */
TEST(old_opset_forms) {
  tm_model m;
  tm_init(&m, 9);
  const int64_t xd[3] = {2, 2, 2};
  tm_input(&m, "x", FLOAT, 3, xd);
  Onnx__NodeProto *clip = tm_node(&m, "Clip", "clip", "x", "c");
  tm_attr_float(&m, clip, "min", -1.0f);
  tm_attr_float(&m, clip, "max", 2.0f);
  Onnx__NodeProto *drop = tm_node(&m, "Dropout", "drop", "c", "d,mask");
  tm_attr_float(&m, drop, "ratio", 0.5f);
  Onnx__NodeProto *sm = tm_node(&m, "Softmax", "sm", "d", "y");
  tm_attr_int(&m, sm, "axis", 1);
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, &res)) {
    const float x[8] = {-3, 0, 1, 5, 0.5f, 0.25f, -0.5f, 1};
    float y[8];
    const float *xs[1] = {x};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 8));
    for (int b = 0; b < 2; b++) {
      double sum = 0, e[4];
      for (int i = 0; i < 4; i++) {
        float c = x[b * 4 + i] < -1 ? -1 : x[b * 4 + i] > 2 ? 2 : x[b * 4 + i];
        sum += (e[i] = exp(c));
      }
      for (int i = 0; i < 4; i++) CHECK(fabs(y[b * 4 + i] - e[i] / sum) < 1e-6);
    }
    free(res.artifact);
  }
  tm_free(&m);
}

/* float16 and double initializers become float32. */
TEST(float16_and_double_initializers) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {3};
  const uint16_t h[3] = {0x3c00, 0xc000, 0x3800}; /* 1, -2, 0.5 */
  const double dd[3] = {0.25, 4, -8};
  tm_input(&m, "x", FLOAT, 1, d);
  tm_initializer(&m, "h", FLOAT16, 1, d, h);
  tm_initializer(&m, "d", DOUBLE, 1, d, dd);
  tm_node(&m, "Mul", "mul", "x,h", "t");
  tm_node(&m, "Add", "add", "t,d", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, &res)) {
    const float x[3] = {1, 2, 3};
    float y[3];
    const float *xs[1] = {x};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 3));
    CHECK(y[0] == 1.25f && y[1] == 0.0f && y[2] == -6.5f);
    free(res.artifact);
  }
  tm_free(&m);
}

/* External data: location/offset/length relative to the base folder. */
TEST(external_data) {
  char name[64], path[128];
#ifdef __wasi__
  /* WASI has no process ids: the clock tells concurrent runs apart. */
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  snprintf(name, sizeof name, "wnn_importer_test_wasi_%ld%09ld.bin", (long)ts.tv_sec, (long)ts.tv_nsec);
#else
  snprintf(name, sizeof name, "wnn_importer_test_%ld.bin", (long)getpid());
#endif
  snprintf(path, sizeof path, "build/%s", name);
  const float payload[5] = {99, 1, 2, 3, 4};
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  fwrite(payload, sizeof payload, 1, f);
  fclose(f);
  for (int bad = 0; bad < 3; bad++) {
    tm_model m;
    tm_init(&m, 13);
    const int64_t d[1] = {4};
    tm_input(&m, "x", FLOAT, 1, d);
    Onnx__TensorProto *t = tm_tensor(&m, "w", FLOAT, 1, d, NULL);
    t->has_raw_data = 0;
    t->has_data_location = 1;
    t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    t->n_external_data = 3;
    t->external_data = tm_alloc(&m, 3 * sizeof *t->external_data);
    const char *keys[3] = {"location", "offset", "length"};
    const char *vals[3] = {bad == 1 ? "no_such_file.bin" : name, "4", bad == 2 ? "12" : "16"};
    for (int k = 0; k < 3; k++) {
      Onnx__StringStringEntryProto *e = tm_alloc(&m, sizeof *e);
      Onnx__StringStringEntryProto ei = ONNX__STRING_STRING_ENTRY_PROTO__INIT;
      *e = ei;
      e->key = tm_str(&m, keys[k]);
      e->value = tm_str(&m, vals[k]);
      t->external_data[k] = e;
    }
    m.inits[m.graph.n_initializer++] = t;
    tm_node(&m, "Add", "add", "x,w", "y");
    tm_output(&m, "y");
    wnn_import_result res;
    wnn_status st = tm_convert(&m, NULL, 0, NULL, &res);
    if (bad == 0) {
      CHECK_OK(st);
      const float x[4] = {10, 20, 30, 40};
      float y[4];
      const float *xs[1] = {x};
      if (!st) CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 4));
      if (!st) CHECK(y[0] == 11 && y[1] == 22 && y[2] == 33 && y[3] == 44);
      free(res.artifact);
    } else if (bad == 1) {
      CHECK(st == WNN_ERR_IO && !res.unsupported);
      CHECK(strstr(res.msg, "initializer 'w'") && strstr(res.msg, "no_such_file.bin"));
    } else {
      CHECK(st == WNN_ERR_MALFORMED && strstr(res.msg, "length 12"));
    }
    tm_free(&m);
  }
  remove(path);
}

/* Symbolic dims: fixed by --shape; else a dynamic dim of the artifact under
 * the dim_param's name (docs/dynamic-shapes.md), which an executor resizes;
 * with fix_dims, 1 with a warning naming input and dim (the old behaviour). */
TEST(symbolic_dims) {
  for (int mode = 0; mode < 3; mode++) { /* 0 dynamic, 1 --shape, 2 fix_dims */
    tm_model m;
    tm_init(&m, 13);
    const int64_t d[2] = {-2, 3};
    tm_input(&m, "data", FLOAT, 2, d);
    tm_node(&m, "Relu", "relu", "data", "y");
    tm_output(&m, "y");
    wnn_import_shape shape = {"data", 2, {5, 3}};
    tm_warnings w;
    memset(&w, 0, sizeof w);
    wnn_import_result res;
    size_t size;
    uint8_t *bytes = tm_pack(&m, &size);
    wnn_import_options opt;
    memset(&opt, 0, sizeof opt);
    opt.shapes = &shape;
    opt.num_shapes = mode == 1;
    opt.fix_dims = mode == 2;
    opt.warn = tm_warn;
    opt.warn_ctx = &w;
    CHECK_OK(wnn_import_onnx(bytes, size, &opt, &res));
    free(bytes);
    wnn_model *model;
    CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
    wnn_tensor_info info;
    CHECK_OK(wnn_model_input_info(model, 0, &info));
    const int64_t dim0 = mode == 0 ? WNN_DIM_DYNAMIC : mode == 1 ? 5 : 1;
    CHECK(info.ndim == 2 && info.shape[0] == dim0 && info.shape[1] == 3);
    if (mode == 2) {
      CHECK(w.count == 1);
      CHECK(strstr(w.text, "input 'data'") && strstr(w.text, "dim 0") && strstr(w.text, "'batch'"));
    } else {
      CHECK(w.count == 0);
    }
    if (mode == 0) {
      wnn_dim_info dim;
      CHECK_OK(wnn_model_input_dim(model, 0, 0, &dim));
      CHECK(dim.size == WNN_DIM_DYNAMIC && dim.name && !strcmp(dim.name, "batch") &&
            dim.default_size == 1 && dim.max_size == 0);
      /* One executor at batch 4 computes Relu of all 12 elements. */
      wnn_executor *ex;
      CHECK_OK(wnn_executor_create(model, &ex));
      const int64_t four[2] = {4, 3};
      CHECK_OK(wnn_executor_resize_input(ex, 0, 2, four));
      float x[12], y[12];
      for (int i = 0; i < 12; i++) x[i] = (float)(i - 6);
      DLTensor in;
      memset(&in, 0, sizeof in);
      in.data = x;
      in.device.device_type = kDLCPU;
      in.ndim = 2;
      in.dtype = (DLDataType){kDLFloat, 32, 1};
      in.shape = (int64_t *)four;
      CHECK_OK(wnn_executor_set_input(ex, 0, &in));
      CHECK_OK(wnn_executor_run(ex));
      DLTensor out;
      CHECK_OK(wnn_executor_get_output(ex, 0, &out));
      CHECK(out.ndim == 2 && out.shape[0] == 4 && out.shape[1] == 3);
      memcpy(y, (const char *)out.data + out.byte_offset, sizeof y);
      for (int i = 0; i < 12; i++) CHECK(y[i] == (x[i] > 0 ? x[i] : 0));
      wnn_executor_destroy(ex);
    }
    wnn_model_free(model);
    free(res.artifact);
    tm_free(&m);
  }
}

TEST(shape_option_errors) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[2] = {2, 3};
  tm_input(&m, "data", FLOAT, 2, d);
  tm_node(&m, "Relu", "relu", "data", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  wnn_import_shape unknown = {"nope", 2, {2, 3}};
  CHECK(tm_convert(&m, &unknown, 1, NULL, &res) == WNN_ERR_NOT_FOUND);
  CHECK(strstr(res.msg, "no input named 'nope'") != NULL);
  wnn_import_shape conflict = {"data", 2, {4, 3}};
  CHECK(tm_convert(&m, &conflict, 1, NULL, &res) == WNN_ERR_SHAPE);
  CHECK(strstr(res.msg, "dim 0 is 4, but the model fixes it to 2") != NULL);
  wnn_import_shape rank = {"data", 3, {2, 3, 1}};
  CHECK(tm_convert(&m, &rank, 1, NULL, &res) == WNN_ERR_SHAPE);
  tm_free(&m);
}

TEST(not_protobuf_and_truncated) {
  wnn_import_result res;
  const unsigned char junk[] = {0xff, 0xff, 0xff, 0xff, 0x0f, 0x01};
  CHECK(wnn_import_onnx(junk, sizeof junk, NULL, &res) == WNN_ERR_MALFORMED);
  CHECK(!res.unsupported && strstr(res.msg, "not an ONNX model"));
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {4};
  float w[4] = {1, 2, 3, 4};
  tm_input(&m, "x", FLOAT, 1, d);
  tm_initializer(&m, "w", FLOAT, 1, d, w);
  tm_node(&m, "Add", "add", "x,w", "y");
  tm_output(&m, "y");
  size_t size;
  uint8_t *bytes = tm_pack(&m, &size);
  CHECK(wnn_import_onnx(bytes, size / 2, NULL, &res) == WNN_ERR_MALFORMED);
  CHECK(!res.unsupported);
  CHECK(wnn_import_onnx(bytes, 0, NULL, &res) != WNN_OK); /* an empty message: no graph */
  free(bytes);
  tm_free(&m);
}

TEST(unknown_op_names_node_type_domain) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {4};
  tm_input(&m, "x", FLOAT, 1, d);
  tm_node(&m, "Relu", "first", "x", "r");
  tm_node(&m, "FancyOp", "my node", "r", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) == WNN_ERR_UNKNOWN_OP);
  CHECK(res.unsupported);
  CHECK(strstr(res.msg, "node 1 'my node' (FancyOp, domain 'ai.onnx')") != NULL);
  tm_free(&m);

  tm_init(&m, 13);
  tm_input(&m, "x", FLOAT, 1, d);
  Onnx__NodeProto *n = tm_node(&m, "Gelu", "g", "x", "y");
  n->domain = tm_str(&m, "com.microsoft");
  tm_output(&m, "y");
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) == WNN_ERR_UNKNOWN_OP);
  CHECK(res.unsupported && strstr(res.msg, "(Gelu, domain 'com.microsoft')"));
  tm_free(&m);
}

TEST(unsupported_attribute_value_and_dtype) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[4] = {1, 1, 4, 4}, wd[4] = {1, 1, 1, 1};
  const float w[1] = {1};
  tm_input(&m, "x", FLOAT, 4, d);
  tm_initializer(&m, "W", FLOAT, 4, wd, w);
  Onnx__NodeProto *n = tm_node(&m, "Conv", "c", "x,W", "y");
  tm_attr_string(&m, n, "auto_pad", "SOMETIMES");
  tm_output(&m, "y");
  wnn_import_result res;
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) != WNN_OK);
  CHECK(res.unsupported && strstr(res.msg, "node 0 'c' (Conv, domain 'ai.onnx')"));
  tm_free(&m);

  tm_init(&m, 13);
  tm_input(&m, "s", 8 /* STRING */, 1, d);
  tm_node(&m, "Identity", "i", "s", "y");
  tm_output(&m, "y");
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) == WNN_ERR_DTYPE);
  CHECK(res.unsupported && strstr(res.msg, "STRING"));
  tm_free(&m);
}

TEST(missing_values) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {4};
  tm_input(&m, "x", FLOAT, 1, d);
  tm_node(&m, "Add", "add", "x,w_missing", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) == WNN_ERR_MALFORMED);
  CHECK(!res.unsupported && strstr(res.msg, "'w_missing'") && strstr(res.msg, "node 0 'add'"));
  tm_free(&m);

  tm_init(&m, 13);
  tm_input(&m, "x", FLOAT, 1, d);
  tm_node(&m, "Relu", "r", "x", "y");
  tm_output(&m, "nowhere");
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) == WNN_ERR_MALFORMED);
  CHECK(strstr(res.msg, "graph output 'nowhere'") != NULL);
  tm_free(&m);

  tm_init(&m, 25);
  tm_input(&m, "x", FLOAT, 1, d);
  tm_node(&m, "Relu", "r", "x", "y");
  tm_output(&m, "y");
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) == WNN_ERR_UNSUPPORTED);
  CHECK(res.unsupported && strstr(res.msg, "opset 25 is not supported (1 to 24 are)"));
  tm_free(&m);

  /* Opset 5: the legacy broadcast attribute is refused, not misread. */
  tm_init(&m, 5);
  tm_input(&m, "x", FLOAT, 1, d);
  tm_input(&m, "z", FLOAT, 1, d);
  Onnx__NodeProto *add = tm_node(&m, "Add", "add", "x,z", "y");
  tm_attr_int(&m, add, "broadcast", 1);
  tm_output(&m, "y");
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) == WNN_ERR_UNSUPPORTED);
  CHECK(res.unsupported && strstr(res.msg, "node 0 'add'") && strstr(res.msg, "broadcast"));
  tm_free(&m);
}

/* Shape of a graph input is known once its shape is fixed: Shape folds even
 * though its input is no constant, and Reshape gets a constant shape. */
TEST(shape_of_input_folds) {
  if (!wnn_op_by_name("Shape")) {
    printf("  skipped: the runtime has no Shape op\n");
    return;
  }
  tm_model m;
  tm_init(&m, 13);
  const int64_t xd[2] = {2, 3}, zd[1] = {6};
  tm_input(&m, "x", FLOAT, 2, xd);
  tm_input(&m, "z", FLOAT, 1, zd);
  tm_node(&m, "Shape", "shape", "x", "s");
  tm_node(&m, "Reshape", "reshape", "z,s", "r");
  tm_node(&m, "Add", "add", "r,x", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, &res)) {
    CHECK(res.num_nodes == 2);
    const float x[6] = {1, 1, 1, 2, 2, 2}, z[6] = {0, 1, 2, 3, 4, 5};
    float y[6];
    const float *xs[2] = {x, z};
    CHECK_OK(tm_run(res.artifact, res.size, 2, xs, 0, y, 6));
    for (int i = 0; i < 6; i++) CHECK(y[i] == x[i] + z[i]);
    free(res.artifact);
  }
  tm_free(&m);
}

/* If whose condition folds: the selected branch is compiled in its place;
 * a condition that is a graph input compiles both (test_importer_if.c). */
TEST(if_with_constant_condition) {
  for (int c = 0; c < 3; c++) {
    tm_model m;
    tm_init(&m, 13);
    const int64_t d[1] = {3}, one = 1;
    tm_input(&m, "x", FLOAT, 1, d);
    if (c < 2) {
      const uint8_t cond = (uint8_t)c;
      Onnx__NodeProto *k = tm_node(&m, "Constant", "cond", "", "cond");
      Onnx__AttributeProto *a = tm_attr(&m, k, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
      a->t = tm_tensor(&m, "", 9 /* BOOL */, 1, &one, &cond);
    } else {
      tm_input(&m, "cond", 9, 1, &one);
    }
    Onnx__NodeProto *n = tm_node(&m, "If", "if", "cond", "y");
    tm_attr(&m, n, "then_branch", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)->g =
        tm_branch(&m, "Relu", "then_out");
    tm_attr(&m, n, "else_branch", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)->g =
        tm_branch(&m, "Neg", "else_out");
    tm_output(&m, "y");
    wnn_import_result res;
    wnn_status st = tm_convert(&m, NULL, 0, NULL, &res);
    if (c == 2) {
      /* A run-time condition compiles both branches (test_importer_if.c). */
      CHECK_OK(st);
      wnn_model *model = NULL;
      if (!st) CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
      if (model) CHECK(wnn_model_num_inputs(model) == 2);
      wnn_model_free(model);
      if (!st) free(res.artifact);
    } else if (c == 0 && !wnn_op_by_name("Neg")) {
      CHECK(st == WNN_ERR_UNKNOWN_OP); /* the else branch was compiled */
    } else {
      CHECK_OK(st);
      const float x[3] = {-1, 0, 2};
      float y[3];
      const float *xs[1] = {x};
      if (!st) CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 3));
      if (!st && c == 1) CHECK(y[0] == 0 && y[1] == 0 && y[2] == 2);
      if (!st && c == 0) CHECK(y[0] == 1 && y[1] == 0 && y[2] == -2);
      free(res.artifact);
    }
    tm_free(&m);
  }
}

int main(void) {
  RUN(conv_relu_runs_and_fuses);
  RUN(batchnorm_folds_into_conv);
  RUN(batchnorm_folds_into_gemm);
  RUN(constants_fold);
  RUN(dead_code_and_unused_initializers);
  RUN(old_opset_forms);
  RUN(float16_and_double_initializers);
  RUN(external_data);
  RUN(symbolic_dims);
  RUN(shape_option_errors);
  RUN(not_protobuf_and_truncated);
  RUN(unknown_op_names_node_type_domain);
  RUN(unsupported_attribute_value_and_dtype);
  RUN(missing_values);
  RUN(shape_of_input_folds);
  RUN(if_with_constant_condition);
  return test_summary();
}
