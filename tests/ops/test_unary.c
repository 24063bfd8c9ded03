/* Relu, Sigmoid, Clip. Relu and Clip are exact; Sigmoid's kernel uses expf
 * and the reference exp in double: rtol 1e-5 covers a few ulps of expf. */
#include <math.h>

#include "op_harness.h"

TEST(relu_sigmoid) {
  const wnn_tdesc shapes[3] = {TD(WNN_DTYPE_F32, 2, 3, 5), TD(WNN_DTYPE_F32, 1), TD_SCALAR(WNN_DTYPE_F32)};
  for (int i = 0; i < 3; i++) {
    CHECK(op_check("Relu", NULL, 1, &shapes[i], 0.0f, 0.0f));
    CHECK(op_check("Sigmoid", NULL, 1, &shapes[i], 1e-5f, 1e-6f));
  }
}

TEST(hand_computed) {
  float x[5] = {-2.0f, -0.0f, 0.0f, 3.5f, -100.0f};
  void *in[1] = {x};
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 5);
  const float relu[5] = {0, 0, 0, 3.5f, 0};
  CHECK(op_expect("Relu", NULL, 1, &d, in, relu, 5, 0.0f));
  /* sigmoid(-2) = 0.119202922, sigmoid(0) = 0.5, sigmoid(3.5) = 0.970687769,
   * sigmoid(-100) = 3.7e-44 (no overflow to NaN). */
  const float sig[5] = {0.119202922f, 0.5f, 0.5f, 0.970687769f, 0.0f};
  CHECK(op_expect("Sigmoid", NULL, 1, &d, in, sig, 5, 1e-7f));
  const float clip[5] = {-1.0f, -0.0f, 0.0f, 2.0f, -1.0f};
  CHECK(op_expect("Clip", "{\"min\":-1,\"max\":2}", 1, &d, in, clip, 5, 0.0f));
}

TEST(clip_attributes) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 4, 9);
  CHECK(op_check("Clip", NULL, 1, &x, 0.0f, 0.0f));
  CHECK(op_check("Clip", "{\"min\":-0.5}", 1, &x, 0.0f, 0.0f));
  CHECK(op_check("Clip", "{\"max\":0.25}", 1, &x, 0.0f, 0.0f));
  CHECK(op_check("Clip", "{\"min\":-0.5,\"max\":0.5}", 1, &x, 0.0f, 0.0f));
  CHECK(op_check("Clip", "{\"min\":0.5,\"max\":-0.5}", 1, &x, 0.0f, 0.0f)); /* min > max: all max */
}

TEST(clip_inputs) {
  static const float lo = -0.25f, hi = 0.5f;
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 3, 7), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_F32)};
  in[1].data = &lo, in[2].data = &hi;
  CHECK(op_check("Clip", NULL, 3, in, 0.0f, 0.0f));   /* constant min and max */
  CHECK(op_check("Clip", NULL, 2, in, 0.0f, 0.0f));   /* max omitted at the end */
  in[1] = TD_OMITTED;
  CHECK(op_check("Clip", NULL, 3, in, 0.0f, 0.0f));   /* min omitted in the middle */
  in[1] = TD_SCALAR(WNN_DTYPE_F32);                  /* non-constant: random at run time */
  in[2] = TD(WNN_DTYPE_F32, 1);
  CHECK(op_check("Clip", NULL, 3, in, 0.0f, 0.0f));
}

TEST(clip_runtime_bounds) {
  /* Bounds that are not constants are read when the op runs. */
  op_case c;
  const wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 4), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_F32)};
  CHECK_OK(op_prepare(&c, "Clip", NULL, 3, d, 1));
  float x[4] = {-3, -1, 1, 3}, lo = -2, hi = 2;
  void *in[3] = {x, &lo, &hi}, *out[1];
  const float want[4] = {-2, -1, 1, 2};
  CHECK_OK(op_exec(&c, c.op->run, in, out));
  CHECK(test_allclose(out[0], want, 4, 0, 0));
  free(out[0]);
  lo = 0;
  const float want0[4] = {0, 0, 1, 2};
  CHECK_OK(op_exec(&c, c.op->run, in, out));
  CHECK(test_allclose(out[0], want0, 4, 0, 0));
  free(out[0]);
}

TEST(rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_I32, 3), TD(WNN_DTYPE_F32, 2), TD(WNN_DTYPE_I64)};
  CHECK(op_fails("Relu", NULL, 1, in, 1, WNN_ERR_DTYPE, "input 0 (X) is int32"));
  CHECK(op_fails("Sigmoid", NULL, 1, in, 1, WNN_ERR_DTYPE, "Sigmoid: input 0 (X) is int32"));
  CHECK(op_fails("Relu", NULL, 2, in, 1, WNN_ERR_MALFORMED, "2 inputs"));
  CHECK(op_fails("Relu", "{\"alpha\":1}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE, "unknown attribute"));
  in[0] = TD(WNN_DTYPE_F32, 3);
  CHECK(op_fails("Clip", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (min) must be a scalar"));
  in[1] = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_fails("Clip", NULL, 3, in, 1, WNN_ERR_DTYPE, "input 2 (max) is int64"));
  CHECK(op_fails("Clip", "{\"min\":0}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "min is given both as an attribute and as input 1"));
  CHECK(op_fails("Clip", "{\"max\":\"big\"}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE, "'max'"));
}

/* Integer Clip lives in src/ops/unary.c; its reference (src/ref/ref_unary.c)
 * is float-only, so run is checked against hand-computed values. */
static int clip_int_case(wnn_dtype dt, const void *x, const void *lo, const void *hi,
                         const void *want, int n) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_I8, 1), TD_SCALAR(WNN_DTYPE_I8), TD_SCALAR(WNN_DTYPE_I8)};
  in[0].dims[0] = n;
  in[0].dtype = in[1].dtype = in[2].dtype = dt;
  if (!lo) in[1] = TD_OMITTED;
  op_case c;
  if (op_prepare(&c, "Clip", NULL, hi ? 3 : 2, in, 1) != WNN_OK) {
    printf("  %s: prepare failed: %s\n", test_current_, c.msg);
    return 0;
  }
  if (c.outputs[0].dtype != dt) return 0;
  void *data[3] = {(void *)x, (void *)lo, (void *)hi}, *out[1];
  int ok = op_exec(&c, c.op->run, data, out) == WNN_OK;
  ok = ok && memcmp(out[0], want, (size_t)n * wnn_dtype_size(dt)) == 0;
  free(out[0]);
  return ok;
}

TEST(clip_integers) {
  const int8_t x8[5] = {-128, -3, 0, 5, 127}, lo8 = -2, hi8 = 4;
  const int8_t w8[5] = {-2, -2, 0, 4, 4}, wmin8[5] = {-2, -2, 0, 5, 127};
  const int8_t wmax8[5] = {-128, -3, 0, 4, 4};
  CHECK(clip_int_case(WNN_DTYPE_I8, x8, &lo8, &hi8, w8, 5));
  CHECK(clip_int_case(WNN_DTYPE_I8, x8, &lo8, NULL, wmin8, 5)); /* min only */
  CHECK(clip_int_case(WNN_DTYPE_I8, x8, NULL, &hi8, wmax8, 5)); /* max only (min omitted) */
  const uint8_t xu[3] = {0, 100, 255}, lou = 10, hiu = 200, wu[3] = {10, 100, 200};
  CHECK(clip_int_case(WNN_DTYPE_U8, xu, &lou, &hiu, wu, 3));
  const int32_t x32[3] = {INT32_MIN, 7, INT32_MAX}, lo32 = -5, w32[3] = {-5, 7, INT32_MAX};
  CHECK(clip_int_case(WNN_DTYPE_I32, x32, &lo32, NULL, w32, 3));
  const int64_t x64[3] = {-(1LL << 40), 0, 1LL << 40}, hi64 = 1LL << 35;
  const int64_t w64[3] = {-(1LL << 40), 0, 1LL << 35};
  CHECK(clip_int_case(WNN_DTYPE_I64, x64, NULL, &hi64, w64, 3));
  /* Bounds of another dtype, and the float attributes, are refused. */
  wnn_tdesc in[3] = {TD(WNN_DTYPE_I8, 4), TD_SCALAR(WNN_DTYPE_F32), TD_OMITTED};
  CHECK(op_fails("Clip", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (min) is float32, expected int8"));
  CHECK(op_fails("Clip", "{\"min\":0.0}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "attribute 'min' applies to float32 input only"));
  in[1] = TD(WNN_DTYPE_I8, 2);
  CHECK(op_fails("Clip", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (min) must be a scalar"));
}

int main(void) {
  RUN(relu_sigmoid);
  RUN(hand_computed);
  RUN(clip_attributes);
  RUN(clip_inputs);
  RUN(clip_runtime_bounds);
  RUN(rejects);
  RUN(clip_integers);
  return test_summary();
}
