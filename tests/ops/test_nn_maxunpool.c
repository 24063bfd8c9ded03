/* MaxUnpool: fed with MaxPool's own Y and Indices (so every index is a real
 * one), run vs reference, the round trip back to the input's maxima, hand
 * computed values, out-of-range indices at run time, rejections. */
#include "op_harness.h"

/* MaxPool with Indices on random x, then MaxUnpool of (Y, I) with the same
 * attributes: run and reference must agree exactly, and every non-zero
 * output must be the input element at its position. */
static int round_trip(const char *attrs, wnn_tdesc xd) {
  op_case pool, unpool;
  if (op_prepare(&pool, "MaxPool", attrs, 1, &xd, 2) != WNN_OK) {
    printf("  %s: MaxPool prepare: %s\n", test_current_, pool.msg);
    return 0;
  }
  void *x = make_input(&xd), *pooled[2];
  int ok = op_exec(&pool, pool.op->run, &x, pooled) == WNN_OK;
  const wnn_tdesc in[2] = {pool.outputs[0], pool.outputs[1]};
  if (op_prepare(&unpool, "MaxUnpool", attrs, 2, in, 1) != WNN_OK) {
    printf("  %s: MaxUnpool prepare: %s\n", test_current_, unpool.msg);
    ok = 0;
  } else {
    void *got[1], *want[1];
    ok = op_exec(&unpool, unpool.op->run, pooled, got) == WNN_OK && ok;
    ok = op_exec(&unpool, unpool.op->reference, pooled, want) == WNN_OK && ok;
    ok = ok && outputs_match(&unpool.outputs[0], got[0], want[0], 0, 0);
    const size_t n = (size_t)wnn_shape_numel(unpool.outputs[0].ndim, unpool.outputs[0].dims);
    const size_t xn = (size_t)wnn_shape_numel(xd.ndim, xd.dims);
    for (size_t i = 0; ok && i < n; i++) {
      const float v = ((float *)got[0])[i];
      if (v != 0.0f && (i >= xn || v != ((float *)x)[i])) {
        printf("  %s: element %zu is %g, not the input's\n", test_current_, i, (double)v);
        ok = 0;
      }
    }
    free(got[0]);
    free(want[0]);
  }
  free(x);
  free(pooled[0]);
  free(pooled[1]);
  return ok;
}

TEST(round_trips) {
  CHECK(round_trip("{\"kernel_shape\":[2,2],\"strides\":[2,2]}", TD(WNN_DTYPE_F32, 2, 3, 6, 8)));
  CHECK(round_trip("{\"kernel_shape\":[3,3],\"strides\":[2,2],\"pads\":[1,1,1,1]}",
                   TD(WNN_DTYPE_F32, 1, 2, 7, 7)));
  CHECK(round_trip("{\"kernel_shape\":[3],\"strides\":[3]}", TD(WNN_DTYPE_F32, 2, 2, 12)));
  CHECK(round_trip("{\"kernel_shape\":[2,2,2],\"strides\":[2,2,2]}",
                   TD(WNN_DTYPE_F32, 1, 2, 4, 4, 6)));
}

TEST(hand_computed) {
  /* The ONNX example: a 2x2 X scattered into 4x4 at 5, 7, 13, 15. */
  float x[4] = {1, 2, 3, 4};
  int64_t ind[4] = {5, 7, 13, 15};
  void *in[3] = {x, ind, NULL};
  wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD(WNN_DTYPE_I64, 1, 1, 2, 2), TD_OMITTED};
  const float want[16] = {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4};
  CHECK(
      op_expect("MaxUnpool", "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", 2, d, in, want, 16, 0));
  /* output_shape 5x5: an index is a position in the default 4x4 shape, and
   * its value keeps those coordinates in the 5x5 grid: 5, 7, 13, 15 (rows 1
   * and 3, columns 1 and 3) land at 6, 8, 16, 18, as in ONNX's
   * test_maxunpool_export_with_output_shape. */
  const int64_t shape[4] = {1, 1, 5, 5};
  d[2] = TD(WNN_DTYPE_I64, 4);
  d[2].data = shape;
  in[2] = (void *)shape;
  float want5[25] = {0};
  want5[6] = 1, want5[8] = 2, want5[16] = 3, want5[18] = 4;
  CHECK(
      op_expect("MaxUnpool", "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", 3, d, in, want5, 25, 0));
}

TEST(index_out_of_range) {
  float x[4] = {1, 2, 3, 4};
  int64_t ind[4] = {5, 16, 13, 15};
  void *in[2] = {x, ind};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD(WNN_DTYPE_I64, 1, 1, 2, 2)};
  op_case c;
  CHECK_OK(op_prepare(&c, "MaxUnpool", "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", 2, d, 1));
  wnn_tensor ins[2], outs[1];
  for (int i = 0; i < 2; i++) ins[i] = (wnn_tensor){in[i], d[i].dtype, d[i].ndim, d[i].dims};
  float y[16];
  outs[0] = (wnn_tensor){y, WNN_DTYPE_F32, 4, c.outputs[0].dims};
  char msg[256] = "";
  wnn_run_ctx ctx = {c.params, 2, ins, 1, outs, NULL, msg, sizeof msg};
  CHECK(c.op->run(&ctx) == WNN_ERR_OUT_OF_RANGE);
  CHECK(strstr(msg, "index 16") != NULL);
  ind[1] = -1;
  CHECK(c.op->run(&ctx) == WNN_ERR_OUT_OF_RANGE);
  CHECK(strstr(msg, "index -1") != NULL);
  CHECK(c.op->reference(&ctx) == WNN_ERR_OUT_OF_RANGE);
}

TEST(rejects) {
  wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD(WNN_DTYPE_I64, 1, 1, 2, 2),
                    TD(WNN_DTYPE_I64, 4)};
  CHECK(op_fails("MaxUnpool", NULL, 2, d, 1, WNN_ERR_BAD_ATTRIBUTE, "kernel_shape is required"));
  CHECK(op_fails("MaxUnpool", "{\"kernel_shape\":[2,2]}", 3, d, 1, WNN_ERR_UNSUPPORTED,
                 "input 2 (output_shape) must be a constant"));
  const int64_t bad[4] = {1, 2, 4, 4};
  d[2].data = bad;
  CHECK(op_fails("MaxUnpool", "{\"kernel_shape\":[2,2]}", 3, d, 1, WNN_ERR_SHAPE,
                 "output_shape[1] = 2"));
  d[1] = TD(WNN_DTYPE_I32, 1, 1, 2, 2);
  CHECK(op_fails("MaxUnpool", "{\"kernel_shape\":[2,2]}", 2, d, 1, WNN_ERR_DTYPE,
                 "input 1 (I) is int32"));
  d[1] = TD(WNN_DTYPE_I64, 1, 1, 2, 3);
  CHECK(op_fails("MaxUnpool", "{\"kernel_shape\":[2,2]}", 2, d, 1, WNN_ERR_SHAPE,
                 "input 1 (I) has shape [1, 1, 2, 3]"));
  d[1] = TD(WNN_DTYPE_I64, 1, 1, 2, 2);
  CHECK(op_fails("MaxUnpool", "{\"kernel_shape\":[2]}", 2, d, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "kernel_shape has 1 values, expected 2"));
}

int main(void) {
  RUN(round_trips);
  RUN(hand_computed);
  RUN(index_out_of_range);
  RUN(rejects);
  return test_summary();
}
