/* Resize: the tap-table kernel vs the recursive reference over modes,
 * coordinate transformations and shapes; hand-computed outputs (the values of
 * the ONNX operator examples, derived below); rejections. Tolerance: weights
 * in float vs double, rtol 1e-5, atol 1e-5. */
#include "op_harness.h"

#define RTOL 1e-5f
#define ATOL 1e-5f

static wnn_tdesc const_f32(const float *data, int64_t n) {
  wnn_tdesc t = TD(WNN_DTYPE_F32, n);
  t.data = data;
  return t;
}
static wnn_tdesc const_i64(const int64_t *data, int64_t n) {
  wnn_tdesc t = TD(WNN_DTYPE_I64, n);
  t.data = data;
  return t;
}

static int by_scales(const char *attrs, wnn_tdesc x, const float *scales, int n) {
  wnn_tdesc in[3] = {x, TD_OMITTED, const_f32(scales, n)};
  return op_check("Resize", attrs, 3, in, RTOL, ATOL);
}
static int by_sizes(const char *attrs, wnn_tdesc x, const int64_t *sizes, int n) {
  wnn_tdesc in[4] = {x, TD_OMITTED, TD_OMITTED, const_i64(sizes, n)};
  return op_check("Resize", attrs, 4, in, RTOL, ATOL);
}

static const char *const COORDS[] = {
    "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",  "align_corners",
    "asymmetric", "tf_crop_and_resize",   "tf_half_pixel_for_nn"};
static const char *const NEAREST[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};

TEST(every_mode_vs_reference) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 5, 7);
  const float up[4] = {1, 1, 2.5f, 1.75f}, down[4] = {1, 1, 0.6f, 0.45f};
  const int64_t sizes[4] = {2, 3, 9, 4};
  char attrs[256];
  for (int c = 0; c < 7; c++) {
    for (int m = 0; m < 3; m++) {
      static const char *const modes[] = {"nearest", "linear", "cubic"};
      snprintf(attrs, sizeof attrs, "{\"mode\":\"%s\",\"coordinate_transformation_mode\":\"%s\"}",
               modes[m], COORDS[c]);
      CHECK(by_scales(attrs, x, up, 4));
      CHECK(by_scales(attrs, x, down, 4));
      CHECK(by_sizes(attrs, x, sizes, 4));
    }
    for (int n = 0; n < 4; n++) {
      snprintf(attrs, sizeof attrs,
               "{\"mode\":\"nearest\",\"nearest_mode\":\"%s\",\"coordinate_transformation_mode\":"
               "\"%s\"}",
               NEAREST[n], COORDS[c]);
      CHECK(by_scales(attrs, x, up, 4));
      CHECK(by_sizes(attrs, x, sizes, 4));
    }
  }
  CHECK(by_scales("{\"mode\":\"cubic\",\"exclude_outside\":1,\"cubic_coeff_a\":-0.5}", x, up, 4));
  CHECK(by_sizes("{\"mode\":\"cubic\",\"exclude_outside\":1}", x, sizes, 4));
}

TEST(other_ranks_and_axes) {
  const float s1[1] = {2.5f}, s3[3] = {1, 2, 0.5f}, s2[2] = {3, 0.7f},
              s5[5] = {1, 1, 2, 1.5f, 0.5f};
  CHECK(by_scales("{\"mode\":\"linear\"}", TD(WNN_DTYPE_F32, 6), s1, 1));
  CHECK(by_scales("{\"mode\":\"linear\"}", TD(WNN_DTYPE_F32, 2, 4, 6), s3, 3));
  CHECK(by_scales("{\"mode\":\"cubic\"}", TD(WNN_DTYPE_F32, 2, 4, 6), s3, 3));
  CHECK(
      by_scales("{\"mode\":\"linear\",\"axes\":[3,-1]}", TD(WNN_DTYPE_F32, 1, 2, 3, 4, 5), s2, 2));
  CHECK(by_scales("{\"mode\":\"linear\"}", TD(WNN_DTYPE_F32, 1, 2, 3, 4, 6), s5, 5));
  const int64_t sz[2] = {7, 1};
  CHECK(
      by_sizes("{\"axes\":[2,3],\"mode\":\"linear\",\"coordinate_transformation_mode\":"
               "\"align_corners\"}",
               TD(WNN_DTYPE_F32, 1, 2, 3, 4), sz, 2));
  CHECK(
      by_sizes("{\"axes\":[2,3],\"mode\":\"linear\",\"coordinate_transformation_mode\":"
               "\"pytorch_half_pixel\"}",
               TD(WNN_DTYPE_F32, 1, 2, 3, 4), sz, 2));
  /* An empty output. */
  const int64_t empty[4] = {1, 2, 0, 4};
  CHECK(by_sizes("{\"mode\":\"linear\"}", TD(WNN_DTYPE_F32, 1, 2, 3, 4), empty, 4));
  /* opset 11 form: an empty scales tensor next to sizes. */
  const int64_t sizes[4] = {1, 2, 6, 6};
  wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 1, 2, 3, 4), TD_OMITTED, TD(WNN_DTYPE_F32, 0),
                     const_i64(sizes, 4)};
  CHECK(op_check("Resize", "{\"mode\":\"linear\"}", 4, in, RTOL, ATOL));
}

TEST(crop_and_resize_vs_reference) {
  const float roi[8] = {0, 0, 0.2f, 0.1f, 1, 1, 0.9f, 1.3f};
  const int64_t sizes[4] = {1, 2, 5, 6};
  const char *modes[3] = {"nearest", "linear", "cubic"};
  char attrs[200];
  for (int m = 0; m < 3; m++) {
    snprintf(attrs, sizeof attrs,
             "{\"mode\":\"%s\",\"coordinate_transformation_mode\":\"tf_crop_and_resize\","
             "\"extrapolation_value\":-7}",
             modes[m]);
    wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 1, 2, 4, 5), const_f32(roi, 8), TD_OMITTED,
                       const_i64(sizes, 4)};
    CHECK(op_check("Resize", attrs, 4, in, RTOL, ATOL));
  }
  /* Cropping the outer dim too: the general (non-planar) path. */
  const float roi3[6] = {0.3f, -0.2f, 0.1f, 0.9f, 0.8f, 1.4f};
  const int64_t sizes3[3] = {3, 5, 6};
  for (int m = 0; m < 3; m++) {
    snprintf(attrs, sizeof attrs,
             "{\"mode\":\"%s\",\"coordinate_transformation_mode\":\"tf_crop_and_resize\","
             "\"extrapolation_value\":2.5}",
             modes[m]);
    wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 2, 4, 5), const_f32(roi3, 6), TD_OMITTED,
                       const_i64(sizes3, 3)};
    CHECK(op_check("Resize", attrs, 4, in, RTOL, ATOL));
  }
  /* roi for the axes only. */
  const float roi2[4] = {0.1f, 0.3f, 0.8f, 0.6f};
  const int64_t sizes2[2] = {4, 4};
  wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 1, 2, 4, 5), const_f32(roi2, 4), TD_OMITTED,
                     const_i64(sizes2, 2)};
  CHECK(op_check("Resize",
                 "{\"axes\":[2,3],\"mode\":\"linear\",\"coordinate_transformation_mode\":"
                 "\"tf_crop_and_resize\"}",
                 4, in, RTOL, ATOL));
}

static float X22[4] = {1, 2, 3, 4};
static float X24[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static float X44[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

static int expect_scales(const char *attrs, float *x, wnn_tdesc xd, const float *scales,
                         const float *want, size_t n) {
  const wnn_tdesc d[3] = {xd, TD_OMITTED, const_f32(scales, 4)};
  void *in[3] = {x, NULL, (void *)scales};
  return op_expect("Resize", attrs, 3, d, in, want, n, 1e-5f);
}

TEST(hand_computed_scales) {
  /* Nearest x2 rows, x3 columns, half_pixel: source rows (y + 0.5) / 2 - 0.5
   * = -0.25, 0.25, 0.75, 1.25 round to 0, 0, 1, 1; columns -1/3 .. 4/3 to
   * 0, 0, 0, 1, 1, 1. */
  const float s23[4] = {1, 1, 2, 3};
  const float nearest[24] = {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2,
                             3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4};
  CHECK(expect_scales(NULL, X22, TD(WNN_DTYPE_F32, 1, 1, 2, 2), s23, nearest, 24));
  /* Bilinear x2, half_pixel: source -0.25 (clamped: the edge), 0.25, 0.75, 1.25. */
  const float s22[4] = {1, 1, 2, 2};
  const float linear[16] = {1,    1.25f, 1.75f, 2,    1.5f, 1.75f, 2.25f, 2.5f,
                            2.5f, 2.75f, 3.25f, 3.5f, 3,    3.25f, 3.75f, 4};
  CHECK(
      expect_scales("{\"mode\":\"linear\"}", X22, TD(WNN_DTYPE_F32, 1, 1, 2, 2), s22, linear, 16));
  /* align_corners: sources 0, 1/3, 2/3, 1. */
  const float ac[16] = {1,        4.0f / 3,  5.0f / 3,  2,        5.0f / 3, 2,
                        7.0f / 3, 8.0f / 3,  7.0f / 3,  8.0f / 3, 3,        10.0f / 3,
                        3,        10.0f / 3, 11.0f / 3, 4};
  CHECK(expect_scales("{\"mode\":\"linear\",\"coordinate_transformation_mode\":\"align_corners\"}",
                      X22, TD(WNN_DTYPE_F32, 1, 1, 2, 2), s22, ac, 16));
  /* Downsample 2x4 by 0.6: 1x2; source row 0.5 / 0.6 - 0.5 = 1/3, columns 1/3
   * and 2: (2/3 * row0 + 1/3 * row1) at 1/3 and 2. */
  const float s06[4] = {1, 1, 0.6f, 0.6f};
  const float down[2] = {2.6666667f, 4.3333333f};
  CHECK(expect_scales("{\"mode\":\"linear\"}", X24, TD(WNN_DTYPE_F32, 1, 1, 2, 4), s06, down, 2));
  /* Nearest downsample: source row 1/3 -> 0, columns 1/3 -> 0, 2 -> 2. */
  const float down_n[2] = {1, 3};
  CHECK(expect_scales(NULL, X24, TD(WNN_DTYPE_F32, 1, 1, 2, 4), s06, down_n, 2));
  /* align_corners downsample divides by the resized length minus 1, where the
   * length is scale * in = 2.4 (ONNX's reference, not the output dim 2):
   * column 1 samples 1 * 3 / 1.4 = 2.142857; row 0 (length 1.2) samples row 0. */
  const float down_ac[2] = {1, 1 + 3 / 1.4f};
  CHECK(expect_scales("{\"mode\":\"linear\",\"coordinate_transformation_mode\":\"align_corners\"}",
                      X24, TD(WNN_DTYPE_F32, 1, 1, 2, 4), s06, down_ac, 2));
}

TEST(hand_computed_cubic) {
  /* X[y][x] = 4y + x + 1 is linear, and the Keys weights sum to 1, so the
   * result is 1 + 4 f(y) + f(x) with f(c) the weighted source index. With
   * a = -0.75, half_pixel x2 sources -0.25, 0.25, ..., 3.25; e.g. f(-0.25):
   * taps -2, -1, 0, 1 (clamped 0, 0, 0, 1), weights k(1.75), k(0.75), k(0.25),
   * k(1.25) = -0.03515625, 0.26171875, 0.87890625, -0.10546875: f = -0.10546875.
   * Likewise f = 0.19140625, 0.66796875, 1.296875 and, by symmetry, 3 - those. */
  const double f[8] = {-0.10546875, 0.19140625, 0.66796875, 1.296875,
                       1.703125,    2.33203125, 2.80859375, 3.10546875};
  float want[64];
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++) want[y * 8 + x] = (float)(1 + 4 * f[y] + f[x]);
  CHECK(want[0] == 0.47265625f && want[1] == 0.76953125f);
  const float s[4] = {1, 1, 2, 2};
  CHECK(expect_scales("{\"mode\":\"cubic\"}", X44, TD(WNN_DTYPE_F32, 1, 1, 4, 4), s, want, 64));
}

static int expect_sizes(const char *attrs, const int64_t *sizes, const float *roi,
                        const float *want, size_t n) {
  const wnn_tdesc d[4] = {TD(WNN_DTYPE_F32, 1, 1, 4, 4), roi ? const_f32(roi, 8) : TD_OMITTED,
                          TD_OMITTED, const_i64(sizes, 4)};
  void *in[4] = {X44, (void *)roi, NULL, (void *)sizes};
  return op_expect("Resize", attrs, 4, d, in, want, n, 1e-5f);
}

/* 8x8 nearest output of X44 picking source index idx[] on both axes. */
static void pick(const int *idx, float *want) {
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++) want[y * 8 + x] = X44[idx[y] * 4 + idx[x]];
}

TEST(hand_computed_nearest_modes) {
  const int64_t s8[4] = {1, 1, 8, 8};
  float want[64];
  /* align_corners: sources 3x/7 = 0, .43, .86, 1.29, 1.71, 2.14, 2.57, 3; floor. */
  const int floor_ac[8] = {0, 0, 0, 1, 1, 2, 2, 3};
  pick(floor_ac, want);
  CHECK(
      expect_sizes("{\"nearest_mode\":\"floor\",\"coordinate_transformation_mode\":"
                   "\"align_corners\"}",
                   s8, NULL, want, 64));
  /* asymmetric: sources x/2 = 0, .5, 1, 1.5, ...; ties go up, 4 clamps to 3. */
  const int ceil_asym[8] = {0, 1, 1, 2, 2, 3, 3, 3};
  pick(ceil_asym, want);
  CHECK(
      expect_sizes("{\"nearest_mode\":\"round_prefer_ceil\",\"coordinate_transformation_mode\":"
                   "\"asymmetric\"}",
                   s8, NULL, want, 64));
  const int floor_asym[8] = {0, 0, 1, 1, 2, 2, 3, 3};
  pick(floor_asym, want);
  CHECK(expect_sizes("{\"coordinate_transformation_mode\":\"asymmetric\"}", s8, NULL, want, 64));
  /* half_pixel: sources -0.25, 0.25, ..., 3.25; ceil. */
  const int ceil_hp[8] = {0, 1, 1, 2, 2, 3, 3, 3};
  pick(ceil_hp, want);
  CHECK(expect_sizes("{\"nearest_mode\":\"ceil\"}", s8, NULL, want, 64));
}

TEST(hand_computed_crop) {
  /* roi rows 0.4..0.6 and columns 0.6..0.8 of a 4x4: sources 1.2, 1.5, 1.8 and
   * 1.8, 2.1, 2.4; X is linear (4y + x + 1), so bilinear gives it exactly. */
  const int64_t s3[4] = {1, 1, 3, 3};
  const float roi[8] = {0, 0, 0.4f, 0.6f, 1, 1, 0.6f, 0.8f};
  const float want[9] = {7.6f, 7.9f, 8.2f, 8.8f, 9.1f, 9.4f, 10.0f, 10.3f, 10.6f};
  const char *lin =
      "{\"mode\":\"linear\",\"coordinate_transformation_mode\":\"tf_crop_and_resize\"}";
  CHECK(expect_sizes(lin, s3, roi, want, 9));
  /* Rows 0.4..1.2 (sources 1.2, 2.4, 3.6) and columns 0.6..1.7 (1.8, 3.45,
   * 5.1): anything past 3 takes extrapolation_value 10. */
  const float roi_out[8] = {0, 0, 0.4f, 0.6f, 1, 1, 1.2f, 1.7f};
  const float want_out[9] = {7.6f, 10, 10, 12.4f, 10, 10, 10, 10, 10};
  CHECK(
      expect_sizes("{\"mode\":\"linear\",\"coordinate_transformation_mode\":"
                   "\"tf_crop_and_resize\",\"extrapolation_value\":10}",
                   s3, roi_out, want_out, 9));
}

TEST(rejects) {
  const float s[4] = {1, 1, 2, 2};
  const int64_t sz[4] = {1, 1, 4, 4};
  wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD_OMITTED, const_f32(s, 4), TD_OMITTED};
  CHECK(op_fails("Resize", "{\"antialias\":1}", 3, in, 1, WNN_ERR_UNSUPPORTED, "antialias = 1"));
  CHECK(op_fails("Resize", "{\"keep_aspect_ratio_policy\":\"not_larger\"}", 3, in, 1,
                 WNN_ERR_UNSUPPORTED, "'not_larger'"));
  CHECK(op_fails("Resize", "{\"mode\":\"bilinear\"}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "mode 'bilinear' is not one of"));
  CHECK(op_fails("Resize", "{\"coordinate_transformation_mode\":\"half\"}", 3, in, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "coordinate_transformation_mode 'half'"));
  CHECK(op_fails("Resize", "{\"nearest_mode\":\"round\"}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "nearest_mode 'round'"));
  CHECK(op_fails("Resize", "{\"axes\":[2,2]}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE, "repeats dim 2"));
  CHECK(op_fails("Resize", "{\"axes\":[2,3]}", 3, in, 1, WNN_ERR_SHAPE,
                 "input 2 (scales) has 4 values, expected 2"));
  CHECK(op_fails("Resize", NULL, 1, in, 1, WNN_ERR_MALFORMED, "neither scales"));
  in[3] = const_i64(sz, 4);
  CHECK(op_fails("Resize", NULL, 4, in, 1, WNN_ERR_MALFORMED, "both given"));
  in[2] = TD(WNN_DTYPE_F32, 4); /* not a constant */
  CHECK(op_fails("Resize", NULL, 3, in, 1, WNN_ERR_UNSUPPORTED,
                 "input 2 (scales) must be a constant"));
  in[2] = TD_OMITTED, in[3] = TD(WNN_DTYPE_I64, 4);
  CHECK(op_fails("Resize", NULL, 4, in, 1, WNN_ERR_UNSUPPORTED,
                 "input 3 (sizes) must be a constant"));
  const float bad[4] = {1, 1, 0, 2};
  in[2] = const_f32(bad, 4);
  CHECK(op_fails("Resize", NULL, 3, in, 1, WNN_ERR_BAD_ATTRIBUTE, "scales[2] = 0"));
  const float roi[3] = {0, 0, 1};
  wnn_tdesc crop[4] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), const_f32(roi, 3), TD_OMITTED,
                       const_i64(sz, 4)};
  CHECK(op_fails("Resize", "{\"coordinate_transformation_mode\":\"tf_crop_and_resize\"}", 4, crop,
                 1, WNN_ERR_SHAPE, "input 1 (roi) has 3 values, expected 8"));
  crop[0] = TD(WNN_DTYPE_I32, 1, 1, 2, 2);
  CHECK(op_fails("Resize", NULL, 4, crop, 1, WNN_ERR_DTYPE, "input 0 (X) is int32"));
}

int main(void) {
  RUN(every_mode_vs_reference);
  RUN(other_ranks_and_axes);
  RUN(crop_and_resize_vs_reference);
  RUN(hand_computed_scales);
  RUN(hand_computed_cubic);
  RUN(hand_computed_nearest_modes);
  RUN(hand_computed_crop);
  RUN(rejects);
  return test_summary();
}
