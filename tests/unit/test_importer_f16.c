/* float16 at a model's boundary (docs/importer.md, "dtypes"): a graph input or
 * output declared float16 stays float16 in the artifact's interface, the
 * model computing in float32 between the Casts the importer inserts; the
 * outputs are bitwise the float32 computation rounded to half (the oracle's
 * wnn_ref_f32_to_f16). Casts to float16 or double inside the model warn;
 * double inputs and outputs become float32 with a warning naming them. Models are built in
 * C (test_importer_util.h). With WNN_F16_ARTIFACT set, the first model's
 * artifact is also written to that path (tests/js/f16.test.mjs reads its own;
 * this is for looking at it with `wnn info`). */
#include <math.h>
#include <stdio.h>

#include "ref/ref.h"
#include "runtime/format.h"
#include "test_importer_util.h"

enum { FLOAT = 1, FLOAT16 = 10, DOUBLE = 11 };

static void typed_output(tm_model *m, const char *name, int type, int ndim, const int64_t *dims) {
  m->outputs[m->graph.n_output++] = tm_value_info(m, name, type, ndim, dims);
}

/* Whether the metadata JSON holds text. */
static int metadata_says(const wnn_model *model, const char *text) {
  return strstr(wnn_model_metadata(model), text) != NULL;
}

/* y = Relu(x * w + b) with x, w, b and y float16, and x itself as a second
 * output: float16 in, float16 out, bitwise. */
TEST(float16_in_float16_out) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t xd[2] = {4, 8}, wd[1] = {8};
  /* w and b: halves; x: 32 halves covering normals, subnormals, values whose
   * product overflows half, a NaN and both zeros. */
  uint16_t w[8], b[8], x[32];
  for (int i = 0; i < 8; i++) {
    w[i] = wnn_ref_f32_to_f16(0.37f * (float)(i + 1) - 1.1f);
    b[i] = wnn_ref_f32_to_f16(0.01f * (float)(i - 3));
  }
  w[7] = wnn_ref_f32_to_f16(300.0f); /* x * 300 overflows half for |x| > 218 */
  const float xv[32] = {1.0f,   -2.5f,   0.333f, 1e-6f,  -1e-7f, 65504.0f, 250.0f, 0.0f,
                        -0.0f,  3.14159f, 7.0f,  -8.5f,  1e-5f,  2e-7f,    -3.0f,  1000.0f,
                        0.1f,   0.2f,    0.3f,   0.4f,   0.5f,   0.6f,     0.7f,   -219.0f,
                        -0.75f, 12.0f,   6e-8f,  100.0f, -1.0f,  2.0f,     4.0f,   NAN};
  for (int i = 0; i < 32; i++) x[i] = wnn_ref_f32_to_f16(xv[i]);
  tm_input(&m, "x", FLOAT16, 2, xd);
  tm_initializer(&m, "w", FLOAT16, 1, wd, w);
  tm_initializer(&m, "b", FLOAT16, 1, wd, b);
  tm_node(&m, "Mul", "mul", "x,w", "t");
  tm_node(&m, "Add", "add", "t,b", "u");
  tm_node(&m, "Relu", "relu", "u", "y");
  typed_output(&m, "y", FLOAT16, 2, xd);
  typed_output(&m, "x", FLOAT16, 2, xd);
  wnn_import_result res;
  tm_warnings warn;
  wnn_status st = tm_convert(&m, NULL, 0, &warn, &res);
  CHECK_OK(st);
  if (st) printf("  %s\n", res.msg);
  CHECK(warn.count == 0);
  if (st) {
    tm_free(&m);
    return;
  }
  const char *path = getenv("WNN_F16_ARTIFACT");
  FILE *f = path ? fopen(path, "wb") : NULL;
  if (f) {
    fwrite(res.artifact, 1, res.size, f);
    fclose(f);
  }
  wnn_model *model = NULL;
  CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
  if (model) {
    wnn_tensor_info in, y, xo;
    CHECK_OK(wnn_model_input_info(model, 0, &in));
    CHECK_OK(wnn_model_output_info(model, 0, &y));
    CHECK_OK(wnn_model_output_info(model, 1, &xo));
    CHECK(in.dtype == WNN_DTYPE_F16 && in.nbytes == 64 && !strcmp(in.name, "x"));
    CHECK(y.dtype == WNN_DTYPE_F16 && y.nbytes == 64 && !strcmp(y.name, "y"));
    CHECK(xo.dtype == WNN_DTYPE_F16 && !strcmp(xo.name, "x"));
    CHECK(wnn_model_num_params(model) == 2); /* w and b, as float32 */
    CHECK(metadata_says(model, "{\"name\":\"x\",\"dtype\":\"float16\""));
    CHECK(metadata_says(model, "{\"name\":\"y\",\"dtype\":\"float16\""));
    wnn_model_free(model);
  }
  /* Run: y is the float32 computation of the same halves, rounded. */
  uint16_t got[32], back[32];
  const void *xs[1] = {x};
  void *const ys[2] = {got, back};
  const size_t bytes[2] = {sizeof got, sizeof back};
  CHECK_OK(tm_run_all(res.artifact, res.size, 1, xs, 0, 2, ys, bytes));
  int bad = 0;
  for (int i = 0; i < 31; i++) { /* (x[31], a NaN, only for the way back) */
    const int c = i % 8;
    const float t = wnn_ref_f16_to_f32(x[i]) * wnn_ref_f16_to_f32(w[c]);
    const float u = t + wnn_ref_f16_to_f32(b[c]);
    const uint16_t want = wnn_ref_f32_to_f16(u > 0.0f ? u : 0.0f);
    if (got[i] != want) {
      printf("  y[%d] = 0x%04x, want 0x%04x (x 0x%04x)\n", i, got[i], want, x[i]);
      bad++;
    }
  }
  CHECK(bad == 0);
  CHECK(memcmp(back, x, sizeof x) == 0);
  /* Some of them really are past half's range, and some subnormal. */
  CHECK(got[7 + 8] == 0x7c00); /* 1000 * 300 */
  free(res.artifact);
  tm_free(&m);
}

/* Cast to float16 in the middle: computed in float32, with a warning naming
 * the value; a Cast whose value only leaves as a float16 output needs none. */
TEST(cast_to_float16_inside_warns) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {4};
  tm_input(&m, "x", FLOAT, 1, d);
  Onnx__NodeProto *c = tm_node(&m, "Cast", "to_half", "x", "h");
  tm_attr_int(&m, c, "to", FLOAT16);
  Onnx__NodeProto *c2 = tm_node(&m, "Cast", "to_float", "h", "y");
  tm_attr_int(&m, c2, "to", FLOAT);
  tm_output(&m, "y"); /* (no declared type: the computed one) */
  wnn_import_result res;
  tm_warnings warn;
  CHECK_OK(tm_convert(&m, NULL, 0, &warn, &res));
  CHECK(warn.count == 1);
  CHECK(strstr(warn.text, "1 Cast to float16 (the first writes 'h') computes in float32") != NULL);
  if (warn.count) printf("  warning: %s", warn.text);
  if (res.artifact) {
    /* 1 + 2^-12 is not rounded to 1: the model computes in float32. */
    const float x[4] = {1.000244140625f, 2, 3, 4};
    float y[4];
    const float *xs[1] = {x};
    CHECK_OK(tm_run(res.artifact, res.size, 1, xs, 0, y, 4));
    CHECK(y[0] == 1.000244140625f);
    free(res.artifact);
  }
  tm_free(&m);

  /* x (float32) -> Cast(to float16) -> y declared float16: no warning, and y
   * is x rounded to half. */
  tm_init(&m, 13);
  tm_input(&m, "x", FLOAT, 1, d);
  c = tm_node(&m, "Cast", "to_half", "x", "y");
  tm_attr_int(&m, c, "to", FLOAT16);
  typed_output(&m, "y", FLOAT16, 1, d);
  CHECK_OK(tm_convert(&m, NULL, 0, &warn, &res));
  CHECK(warn.count == 0);
  if (res.artifact) {
    const float x[4] = {1.000244140625f, 1e5f, -6e-8f, 0.1f};
    uint16_t y[4];
    const void *xs[1] = {x};
    void *const ys[1] = {y};
    const size_t bytes[1] = {sizeof y};
    CHECK_OK(tm_run_all(res.artifact, res.size, 1, xs, 0, 1, ys, bytes));
    CHECK(y[0] == 0x3c00 && y[1] == 0x7c00 && y[2] == 0x8001 && y[3] == 0x2e66);
    free(res.artifact);
  }
  tm_free(&m);

  /* Cast to double: a warning of its own. */
  tm_init(&m, 13);
  tm_input(&m, "x", FLOAT, 1, d);
  c = tm_node(&m, "Cast", "to_double", "x", "dbl");
  tm_attr_int(&m, c, "to", DOUBLE);
  tm_node(&m, "Relu", "relu", "dbl", "y");
  typed_output(&m, "y", FLOAT, 1, d);
  CHECK_OK(tm_convert(&m, NULL, 0, &warn, &res));
  CHECK(warn.count == 1 && strstr(warn.text, "1 Cast to double (the first writes 'dbl')") &&
        strstr(warn.text, "keeps only float32 precision"));
  free(res.artifact);
  tm_free(&m);
}

/* A double graph input or output stays float64 at the boundary (no warning,
 * no silent float32): the artifact takes and gives float64, computes in
 * float32 between its Casts, and says so with required feature bit 5. */
TEST(double_inputs_and_outputs_stay_float64) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {4};
  tm_input(&m, "samples", DOUBLE, 1, d);
  tm_node(&m, "Relu", "relu", "samples", "y");
  typed_output(&m, "y", DOUBLE, 1, d);
  tm_warnings warn;
  wnn_import_result res;
  CHECK_OK(tm_convert(&m, NULL, 0, &warn, &res));
  CHECK(warn.count == 0);
  if (res.artifact) {
    wnn_model *model = NULL;
    CHECK_OK(wnn_model_load(res.artifact, res.size, NULL, &model));
    wnn_tensor_info in, out;
    CHECK_OK(wnn_model_input_info(model, 0, &in));
    CHECK_OK(wnn_model_output_info(model, 0, &out));
    CHECK(in.dtype == WNN_DTYPE_F64 && out.dtype == WNN_DTYPE_F64);
    CHECK((wnn_rd64((const uint8_t *)res.artifact + 24) & (UINT64_C(1) << 5)) != 0);
    wnn_model_free(model);
    const double x[4] = {-1.5, 0.25, 1e-3, 3.0000001};
    double y[4];
    const void *xs[1] = {x};
    void *const ys[1] = {y};
    const size_t bytes[1] = {sizeof y};
    CHECK_OK(tm_run_all(res.artifact, res.size, 1, xs, 0, 1, ys, bytes));
    CHECK(y[0] == 0 && y[1] == 0.25 && y[2] == (double)1e-3f && y[3] == (double)3.0000001f);
    free(res.artifact);
  }
  tm_free(&m);

  /* A Cast to double whose value leaves as a double output: no warning. */
  tm_init(&m, 13);
  tm_input(&m, "x", FLOAT, 1, d);
  Onnx__NodeProto *c = tm_node(&m, "Cast", "to_double", "x", "score");
  tm_attr_int(&m, c, "to", DOUBLE);
  typed_output(&m, "score", DOUBLE, 1, d);
  CHECK_OK(tm_convert(&m, NULL, 0, &warn, &res));
  CHECK(warn.count == 0);
  if (res.artifact) {
    const float x[4] = {0.1f, -2, 3, 1e30f};
    double y[4];
    const void *xs[1] = {x};
    void *const ys[1] = {y};
    const size_t bytes[1] = {sizeof y};
    CHECK_OK(tm_run_all(res.artifact, res.size, 1, xs, 0, 1, ys, bytes));
    CHECK(y[0] == (double)0.1f && y[1] == -2 && y[2] == 3 && y[3] == (double)1e30f);
    free(res.artifact);
  }
  tm_free(&m);
}

TEST(float16_output_of_another_dtype) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t d[1] = {4};
  tm_input(&m, "x", FLOAT, 1, d);
  tm_node(&m, "Shape", "shape", "x", "s");
  typed_output(&m, "s", FLOAT16, 1, (const int64_t[]){1});
  wnn_import_result res;
  CHECK_STATUS(tm_convert(&m, NULL, 0, NULL, &res), WNN_ERR_DTYPE);
  CHECK(strstr(res.msg, "graph output 's' is declared float16, but the model computes it as int64"));
  tm_free(&m);
}

int main(void) {
  (void)tm_attr_ints; /* (a helper of test_importer_util.h this file does not need) */
  RUN(float16_in_float16_out);
  RUN(cast_to_float16_inside_warns);
  RUN(double_inputs_and_outputs_stay_float64);
  RUN(float16_output_of_another_dtype);
  return test_summary();
}
