/* GridSample: the tap-table run vs the per-element reference over every
 * mode, padding mode and align_corners, with grids reaching well outside
 * [-1, 1]; hand-computed samples; rejections. Float vs double weights:
 * rtol 1e-4, atol 1e-5. */
#include "op_harness.h"

#define RTOL 1e-4f
#define ATOL 1e-5f

static const char *const MODES[] = {"linear", "nearest", "cubic", "bilinear", "bicubic"};
static const char *const PADDINGS[] = {"zeros", "border", "reflection"};

/* A constant grid of n points with coordinates spread over [-2.5, 2.5]. */
static float grid_data[2 * 6 * 7 * 2];
static wnn_tdesc wide_grid(int64_t n, int64_t h, int64_t w) {
  for (int64_t i = 0; i < n * h * w * 2; i++) grid_data[i] = 2.5f * lcg_float();
  wnn_tdesc t = TD(WNN_DTYPE_F32, n, h, w, 2);
  t.data = grid_data;
  return t;
}

TEST(every_mode_vs_reference) {
  char attrs[160];
  for (int m = 0; m < 5; m++)
    for (int pad = 0; pad < 3; pad++)
      for (int align = 0; align < 2; align++) {
        snprintf(attrs, sizeof attrs,
                 "{\"mode\":\"%s\",\"padding_mode\":\"%s\",\"align_corners\":%d}", MODES[m],
                 PADDINGS[pad], align);
        wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3, 5, 4), TD(WNN_DTYPE_F32, 2, 6, 7, 2)};
        CHECK(op_check("GridSample", attrs, 2, in, RTOL, ATOL));
        in[1] = wide_grid(2, 6, 7);
        CHECK(op_check("GridSample", attrs, 2, in, RTOL, ATOL));
        /* A one-pixel-wide image: reflection degenerates to the border. */
        in[0] = TD(WNN_DTYPE_F32, 2, 1, 3, 1);
        CHECK(op_check("GridSample", attrs, 2, in, RTOL, ATOL));
      }
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 1, 2, 4, 4), TD(WNN_DTYPE_F32, 1, 3, 3, 2)};
  CHECK(op_check("GridSample", NULL, 2, in, RTOL, ATOL));
}

TEST(hand_computed) {
  /* 2x2 image [[1, 2], [3, 4]]. align_corners: -1 and 1 are the corner pixel
   * centres, 0 the middle (mean 2.5); (x, y) = (1, -1) is the top right, 2. */
  float x[4] = {1, 2, 3, 4};
  float g[8] = {-1, -1, 1, -1, 0, 0, 1, 1};
  void *in[2] = {x, g};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD(WNN_DTYPE_F32, 1, 1, 4, 2)};
  const float aligned[4] = {1, 2, 2.5f, 4};
  CHECK(op_expect("GridSample", "{\"align_corners\":1}", 2, d, in, aligned, 4, 1e-6f));
  /* Without align_corners, -1 and 1 are the outer pixel edges: -1 maps to
   * -0.5, half outside: zeros padding halves the corner (1/4 of it in 2-D),
   * border keeps it. The middle maps to 0.5: still the mean. */
  const float zeros[4] = {0.25f, 0.5f, 2.5f, 1};
  CHECK(op_expect("GridSample", NULL, 2, d, in, zeros, 4, 1e-6f));
  const float border[4] = {1, 2, 2.5f, 4};
  CHECK(op_expect("GridSample", "{\"padding_mode\":\"border\"}", 2, d, in, border, 4, 1e-6f));
  /* Nearest, coordinates rounded half to even: -1 maps to -0.5 -> 0, 0 to
   * 0.5 -> 0 and 1 to 1.5 -> 2, outside: zero. */
  const float nearest[4] = {1, 0, 1, 0};
  CHECK(op_expect("GridSample", "{\"mode\":\"nearest\"}", 2, d, in, nearest, 4, 0));
  /* Reflection without align_corners: x = 2 maps to 2.5, between taps 2 and
   * 3, which reflect at 1.5 to 1 and 0; y = -2 maps to -1.5, between -2 and
   * -1, which reflect at -0.5 to 1 and 0: half of each, the mean 2.5. */
  float g2[2] = {2, -2};
  void *in2[2] = {x, g2};
  const wnn_tdesc d2[2] = {TD(WNN_DTYPE_F32, 1, 1, 2, 2), TD(WNN_DTYPE_F32, 1, 1, 1, 2)};
  const float refl[1] = {2.5f};
  CHECK(op_expect("GridSample", "{\"padding_mode\":\"reflection\"}", 2, d2, in2, refl, 1, 1e-6f));
}

TEST(rejects) {
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 1, 2, 4, 4), TD(WNN_DTYPE_F32, 1, 3, 3, 2)};
  CHECK(op_fails("GridSample", "{\"mode\":\"area\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "mode 'area'"));
  CHECK(op_fails("GridSample", "{\"padding_mode\":\"wrap\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "padding_mode 'wrap'"));
  CHECK(op_fails("GridSample", "{\"align_corners\":2}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "align_corners"));
  in[1] = TD(WNN_DTYPE_F32, 2, 3, 3, 2);
  CHECK(op_fails("GridSample", NULL, 2, in, 1, WNN_ERR_SHAPE,
                 "input 1 (grid) has shape [2, 3, 3, 2], expected [1, H_out, W_out, 2]"));
  in[1] = TD(WNN_DTYPE_F32, 1, 3, 3, 3);
  CHECK(op_fails("GridSample", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (grid)"));
  in[0] = TD(WNN_DTYPE_F32, 1, 2, 4, 4, 4), in[1] = TD(WNN_DTYPE_F32, 1, 3, 3, 3, 3);
  CHECK(op_fails("GridSample", NULL, 2, in, 1, WNN_ERR_UNSUPPORTED, "3-D"));
  in[0] = TD(WNN_DTYPE_I64, 1, 2, 4, 4), in[1] = TD(WNN_DTYPE_F32, 1, 3, 3, 2);
  CHECK(op_fails("GridSample", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 0 (X) is int64"));
}

int main(void) {
  RUN(every_mode_vs_reference);
  RUN(hand_computed);
  RUN(rejects);
  return test_summary();
}
