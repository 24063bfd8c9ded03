/* RoiAlign: hand-computed bins (avg and onnxruntime's max), run vs the double
 * reference (src/ref/ref_nn_roialign.c) over both coordinate modes, fixed and
 * adaptive sampling, scales and RoIs reaching past the edges, out-of-range
 * batch indices at run time, rejections. rtol 1e-5, atol 1e-5. */
#include <stdint.h>

#include "op_harness.h"

static int run_both(const char *attrs, const wnn_tdesc *in, void *const *data, const float *want,
                    size_t count) {
  op_case c;
  if (op_prepare(&c, "RoiAlign", attrs, 3, in, 1) != WNN_OK) {
    printf("  %s: prepare failed: %s\n", test_current_, c.msg);
    return 0;
  }
  void *got[1], *ref[1];
  int ok = op_exec(&c, c.op->run, data, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, data, ref) == WNN_OK && ok;
  ok = ok && outputs_match(&c.outputs[0], got[0], ref[0], 1e-5f, 1e-5f);
  if (ok && want) ok = test_allclose(got[0], want, count, 1e-6f, 1e-6f);
  if (!ok) printf("  %s: mismatch for RoiAlign %s\n", test_current_, attrs ? attrs : "");
  free(got[0]);
  free(ref[0]);
  return ok;
}

TEST(hand_computed) {
  /* X = [[1, 2], [3, 4]], the whole image, one bin of 2 x 2 samples at 0.5
   * and 1.5: 2.5, 3, 3.5, 4 (the last column and row repeat past the edge). */
  float x[4] = {1, 2, 3, 4}, roi[4] = {0, 0, 2, 2};
  int64_t b[1] = {0};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD(WNN_DTYPE_F32, 1, 4), TD(WNN_DTYPE_I64, 1)};
  void *data[3] = {x, roi, b};
  const float avg = 3.25f, max = 4.0f;
  CHECK(run_both("{\"coordinate_transformation_mode\":\"output_half_pixel\",\"sampling_ratio\":2}",
                 in, data, &avg, 1));
  CHECK(run_both("{\"coordinate_transformation_mode\":\"output_half_pixel\",\"sampling_ratio\":2,"
                 "\"mode\":\"max\"}",
                 in, data, &max, 1));
}

TEST(vs_reference) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3, 7, 9), TD(WNN_DTYPE_F32, 5, 4), TD(WNN_DTYPE_I64, 5)};
  float x[2 * 3 * 7 * 9];
  for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) x[i] = lcg_float();
  /* RoIs inside, partly outside, degenerate (zero size), whole image. */
  float rois[20] = {1, 1, 6, 5, -2, -1, 4, 9, 3, 2, 3, 2, 0, 0, 18, 14, 7.5f, 5.5f, 12, 16};
  int64_t b[5] = {0, 1, 1, 0, 1};
  void *data[3] = {x, rois, b};
  static const char *const ATTRS[] = {
      NULL,
      "{\"mode\":\"max\"}",
      "{\"coordinate_transformation_mode\":\"output_half_pixel\"}",
      "{\"sampling_ratio\":3,\"output_height\":2,\"output_width\":4}",
      "{\"spatial_scale\":0.5,\"output_height\":3,\"output_width\":3,\"mode\":\"max\"}",
      "{\"spatial_scale\":0.5,\"output_height\":5,\"output_width\":2,"
      "\"coordinate_transformation_mode\":\"output_half_pixel\",\"sampling_ratio\":1}",
  };
  for (size_t a = 0; a < sizeof ATTRS / sizeof ATTRS[0]; a++)
    CHECK(run_both(ATTRS[a], in, data, NULL, 0));
}

TEST(out_of_range_batch_index) {
  float x[4] = {1, 2, 3, 4}, roi[4] = {0, 0, 1, 1};
  int64_t b[1] = {1};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD(WNN_DTYPE_F32, 1, 4), TD(WNN_DTYPE_I64, 1)};
  void *data[3] = {x, roi, b}, *out[1];
  op_case c;
  CHECK_OK(op_prepare(&c, "RoiAlign", NULL, 3, in, 1));
  CHECK(op_exec(&c, c.op->run, data, out) == WNN_ERR_OUT_OF_RANGE);
  free(out[0]);
  b[0] = -1;
  CHECK(op_exec(&c, c.op->reference, data, out) == WNN_ERR_OUT_OF_RANGE);
  free(out[0]);
}

TEST(rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD(WNN_DTYPE_F32, 2, 4), TD(WNN_DTYPE_I64, 2)};
  CHECK(
      op_fails("RoiAlign", "{\"mode\":\"sum\"}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE, "mode is 'sum'"));
  CHECK(op_fails("RoiAlign", "{\"coordinate_transformation_mode\":\"x\"}", 3, in, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "coordinate_transformation_mode is 'x'"));
  CHECK(op_fails("RoiAlign", "{\"output_height\":0}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "output_height 0"));
  CHECK(op_fails("RoiAlign", "{\"sampling_ratio\":-1}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "sampling_ratio is -1"));
  in[1] = TD(WNN_DTYPE_F32, 2, 5);
  CHECK(op_fails("RoiAlign", NULL, 3, in, 1, WNN_ERR_SHAPE,
                 "input 1 (rois) has shape [2, 5], expected [num_rois, 4]"));
  in[1] = TD(WNN_DTYPE_F32, 2, 4);
  in[2] = TD(WNN_DTYPE_I64, 3);
  CHECK(op_fails("RoiAlign", NULL, 3, in, 1, WNN_ERR_SHAPE, "input 2 (batch_indices)"));
  in[2] = TD(WNN_DTYPE_I32, 2);
  CHECK(op_fails("RoiAlign", NULL, 3, in, 1, WNN_ERR_DTYPE, "input 2 (batch_indices) is int32"));
}

int main(void) {
  RUN(hand_computed);
  RUN(vs_reference);
  RUN(out_of_range_batch_index);
  RUN(rejects);
  return test_summary();
}
