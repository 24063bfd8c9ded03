/* Conv: run vs reference on many geometries (with images of several GEMM
 * tiles and every fused activation), hand-computed values, the scratch it
 * asks for, and every rejection prepare makes. Tolerance rtol 1e-5, atol 1e-6: the GEMM and the
 * reference sum each dot product in the same (channel, ky, kx) order, so they
 * agree to rounding of the final bias add. */
#include "op_harness.h"
#include "ops/conv_winograd.h"

#define RTOL 1e-5f
#define ATOL 1e-6f

static int conv(const char *attrs, wnn_tdesc x, wnn_tdesc w, wnn_tdesc b) {
  const wnn_tdesc in[3] = {x, w, b};
  return op_check("Conv", attrs, b.dtype == WNN_DTYPE_INVALID ? 2 : 3, in, RTOL, ATOL);
}

TEST(conv_3x3_pad1) {
  CHECK(conv("{\"pads\":[1,1,1,1]}", TD(WNN_DTYPE_F32, 2, 3, 7, 9), TD(WNN_DTYPE_F32, 4, 3, 3, 3),
             TD(WNN_DTYPE_F32, 4)));
}

TEST(conv_no_bias_no_pad) {
  CHECK(conv(NULL, TD(WNN_DTYPE_F32, 1, 3, 6, 5), TD(WNN_DTYPE_F32, 5, 3, 3, 2), TD_OMITTED));
}

TEST(conv_strides_asymmetric_pads) {
  CHECK(conv("{\"strides\":[2,3],\"pads\":[0,1,2,1]}", TD(WNN_DTYPE_F32, 2, 2, 11, 10),
             TD(WNN_DTYPE_F32, 3, 2, 3, 3), TD(WNN_DTYPE_F32, 3)));
}

TEST(conv_dilations) {
  CHECK(conv("{\"dilations\":[2,3],\"pads\":[2,1,1,3]}", TD(WNN_DTYPE_F32, 1, 3, 9, 12),
             TD(WNN_DTYPE_F32, 4, 3, 3, 3), TD(WNN_DTYPE_F32, 4)));
}

TEST(conv_group) {
  CHECK(conv("{\"group\":2,\"pads\":[1,1,1,1]}", TD(WNN_DTYPE_F32, 2, 4, 6, 6),
             TD(WNN_DTYPE_F32, 6, 2, 3, 3), TD(WNN_DTYPE_F32, 6)));
}

TEST(conv_depthwise) {
  CHECK(conv("{\"group\":5,\"pads\":[1,1,1,1],\"strides\":[2,2]}", TD(WNN_DTYPE_F32, 2, 5, 9, 8),
             TD(WNN_DTYPE_F32, 5, 1, 3, 3), TD(WNN_DTYPE_F32, 5)));
  CHECK(conv("{\"group\":4,\"dilations\":[2,2]}", TD(WNN_DTYPE_F32, 1, 4, 7, 7),
             TD(WNN_DTYPE_F32, 4, 1, 3, 3), TD_OMITTED));
}

TEST(conv_depthwise_multiplier) {
  /* group == C but M = 2C: not the depthwise kernel, the grouped GEMM. */
  CHECK(conv("{\"group\":3}", TD(WNN_DTYPE_F32, 1, 3, 5, 5), TD(WNN_DTYPE_F32, 6, 1, 3, 3),
             TD(WNN_DTYPE_F32, 6)));
}

TEST(conv_1x1_direct) {
  CHECK(conv(NULL, TD(WNN_DTYPE_F32, 2, 16, 5, 7), TD(WNN_DTYPE_F32, 9, 16, 1, 1),
             TD(WNN_DTYPE_F32, 9)));
  CHECK(conv("{\"group\":4}", TD(WNN_DTYPE_F32, 1, 8, 3, 3), TD(WNN_DTYPE_F32, 12, 2, 1, 1),
             TD_OMITTED));
  /* 64+ output channels over 1,020 pixels: B packed tile by tile (src/ops/
   * gemm_driver.c), plain, grouped and with the activation's smaller tiles. */
  CHECK(conv(NULL, TD(WNN_DTYPE_F32, 1, 40, 30, 34), TD(WNN_DTYPE_F32, 70, 40, 1, 1),
             TD(WNN_DTYPE_F32, 70)));
  CHECK(conv("{\"group\":2}", TD(WNN_DTYPE_F32, 1, 40, 30, 34), TD(WNN_DTYPE_F32, 140, 20, 1, 1),
             TD_OMITTED));
  CHECK(conv("{\"activation\":\"HardSwish\"}", TD(WNN_DTYPE_F32, 2, 40, 30, 34),
             TD(WNN_DTYPE_F32, 70, 40, 1, 1), TD(WNN_DTYPE_F32, 70)));
  /* 1x1 with stride 2 or with pads goes through im2col. */
  CHECK(conv("{\"strides\":[2,2]}", TD(WNN_DTYPE_F32, 1, 8, 7, 7), TD(WNN_DTYPE_F32, 5, 8, 1, 1),
             TD_OMITTED));
  CHECK(conv("{\"pads\":[1,0,0,1]}", TD(WNN_DTYPE_F32, 1, 3, 4, 4), TD(WNN_DTYPE_F32, 5, 3, 1, 1),
             TD(WNN_DTYPE_F32, 5)));
}

TEST(conv_auto_pad) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 1, 2, 7, 8), w = TD(WNN_DTYPE_F32, 3, 2, 2, 3);
  const wnn_tdesc b = TD(WNN_DTYPE_F32, 3);
  CHECK(conv("{\"auto_pad\":\"SAME_UPPER\",\"strides\":[2,2]}", x, w, b));
  CHECK(conv("{\"auto_pad\":\"SAME_LOWER\",\"strides\":[2,2]}", x, w, b));
  CHECK(conv("{\"auto_pad\":\"SAME_UPPER\"}", x, w, b));
  CHECK(conv("{\"auto_pad\":\"VALID\",\"strides\":[2,1]}", x, w, b));
  CHECK(conv("{\"auto_pad\":\"NOTSET\"}", x, w, b));
}

TEST(conv_auto_pad_shapes) {
  /* SAME: out = ceil(in / stride); the odd pad goes last (UPPER) or first (LOWER). */
  op_case c;
  const wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 1, 1, 7, 8), TD(WNN_DTYPE_F32, 1, 1, 2, 2)};
  CHECK_OK(op_prepare(&c, "Conv", "{\"auto_pad\":\"SAME_UPPER\",\"strides\":[2,2]}", 2, in, 1));
  CHECK(c.outputs[0].dims[2] == 4 && c.outputs[0].dims[3] == 4);
  CHECK_OK(op_prepare(&c, "Conv", "{\"auto_pad\":\"VALID\"}", 2, in, 1));
  CHECK(c.outputs[0].dims[2] == 6 && c.outputs[0].dims[3] == 7);
}

TEST(conv_1d) {
  CHECK(conv("{\"pads\":[1,2],\"strides\":[2],\"dilations\":[2]}", TD(WNN_DTYPE_F32, 2, 3, 10),
             TD(WNN_DTYPE_F32, 4, 3, 3), TD(WNN_DTYPE_F32, 4)));
  CHECK(conv("{\"group\":3}", TD(WNN_DTYPE_F32, 1, 3, 6), TD(WNN_DTYPE_F32, 3, 1, 2), TD_OMITTED));
  CHECK(conv(NULL, TD(WNN_DTYPE_F32, 1, 4, 6), TD(WNN_DTYPE_F32, 2, 4, 1), TD_OMITTED));
}

TEST(conv_kernel_shape_attr) {
  CHECK(conv("{\"kernel_shape\":[3,3],\"pads\":[1,1,1,1]}", TD(WNN_DTYPE_F32, 1, 2, 5, 5),
             TD(WNN_DTYPE_F32, 2, 2, 3, 3), TD_OMITTED));
}

TEST(conv_large_tiles) {
  /* Output channels and pixels not multiples of the 4x4 tile or the column block. */
  CHECK(conv("{\"pads\":[1,1,1,1]}", TD(WNN_DTYPE_F32, 1, 7, 13, 11), TD(WNN_DTYPE_F32, 19, 7, 3, 3),
             TD(WNN_DTYPE_F32, 19)));
}

TEST(conv_many_tiles) {
  /* K = 64 * 9 = 576: tiles of 96 output pixels (a K x 96 panel of at most
   * 256 KiB), so 20 x 23 = 460 pixels are 5 tiles, the last one ragged and
   * starting mid-row; with groups, strides and every fused activation. 7
   * output channels keep it off the Winograd path (conv_winograd). */
  CHECK(conv("{\"pads\":[1,1,1,1]}", TD(WNN_DTYPE_F32, 1, 64, 20, 23),
             TD(WNN_DTYPE_F32, 7, 64, 3, 3), TD(WNN_DTYPE_F32, 7)));
  CHECK(conv("{\"group\":2,\"pads\":[0,1,2,1],\"strides\":[1,2]}",
             TD(WNN_DTYPE_F32, 2, 128, 21, 45), TD(WNN_DTYPE_F32, 6, 64, 3, 3), TD_OMITTED));
  static const char *const acts[] = {
      "\"activation\":\"Relu\"",
      "\"activation\":\"Clip\",\"activation_params\":[-0.5,0.75]",
      "\"activation\":\"Sigmoid\"",
      "\"activation\":\"HardSigmoid\",\"activation_params\":[0.2,0.5]",
      "\"activation\":\"HardSwish\"",
      "\"activation\":\"LeakyRelu\",\"activation_params\":[0.1]",
      "\"activation\":\"SiLU\""};
  for (size_t a = 0; a < sizeof acts / sizeof acts[0]; a++) {
    char attrs[160];
    snprintf(attrs, sizeof attrs, "{%s,\"pads\":[1,1,1,1]}", acts[a]);
    CHECK(conv(attrs, TD(WNN_DTYPE_F32, 1, 64, 20, 23), TD(WNN_DTYPE_F32, 5, 64, 3, 3),
               TD(WNN_DTYPE_F32, 5)));
    /* 1x1 direct GEMM with 700 output channels: tiles of 64 pixels for the
     * activation, 460 pixels in 8 tiles. */
    snprintf(attrs, sizeof attrs, "{%s}", acts[a]);
    CHECK(conv(attrs, TD(WNN_DTYPE_F32, 1, 3, 20, 23), TD(WNN_DTYPE_F32, 700, 3, 1, 1),
               TD(WNN_DTYPE_F32, 700)));
    /* Depthwise, activation per channel. */
    snprintf(attrs, sizeof attrs, "{%s,\"group\":6,\"pads\":[2,2,2,2]}", acts[a]);
    CHECK(conv(attrs, TD(WNN_DTYPE_F32, 2, 6, 17, 19), TD(WNN_DTYPE_F32, 6, 1, 5, 5),
               TD(WNN_DTYPE_F32, 6)));
  }
}

/* The Winograd path (3x3, stride 1, group 1, >= 16 input and >= 8 output
 * channels, planes >= 7x7): F(2x2, 3x3) below 11x11, F(4x4, 3x3) above; its
 * transforms round differently from the direct sum, so the tolerance is
 * wider (docs/winograd.md: max error about 1e-5 of the output's range). */
TEST(conv_winograd) {
  static const char *const cases[] = {
      "{\"pads\":[1,1,1,1]}", "{}", "{\"pads\":[0,1,2,1]}",
      "{\"pads\":[1,1,1,1],\"activation\":\"Relu\"}",
      "{\"pads\":[1,1,1,1],\"activation\":\"Clip\",\"activation_params\":[-0.5,0.75]}",
      "{\"pads\":[1,1,1,1],\"activation\":\"HardSwish\"}",
      "{\"pads\":[1,1,1,1],\"activation\":\"SiLU\"}"};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const wnn_tdesc big[3] = {TD(WNN_DTYPE_F32, 2, 17, 13, 19), TD(WNN_DTYPE_F32, 9, 17, 3, 3),
                              TD(WNN_DTYPE_F32, 9)};
    CHECK(op_check("Conv", cases[i], 3, big, 1e-4f, 1e-4f));
    const wnn_tdesc small[2] = {TD(WNN_DTYPE_F32, 1, 16, 9, 8), TD(WNN_DTYPE_F32, 8, 16, 3, 3)};
    CHECK(op_check("Conv", cases[i], 2, small, 1e-4f, 1e-4f));
  }
}

TEST(conv_hand_computed) {
  float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  float w[4] = {1, 0, 0, 1}, b[1] = {0.5f};
  void *in[3] = {x, w, b};
  const wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 1, 1, 3, 3), TD(WNN_DTYPE_F32, 1, 1, 2, 2),
                          TD(WNN_DTYPE_F32, 1)};
  /* y[i][j] = x[i][j] + x[i+1][j+1] + 0.5 */
  const float want[4] = {6.5f, 8.5f, 12.5f, 14.5f};
  CHECK(op_expect("Conv", NULL, 3, d, in, want, 4, 0.0f));

  /* A 3x3 box filter with pad 1: the sum of each pixel's neighbourhood. */
  float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  void *in2[2] = {x, ones};
  const wnn_tdesc d2[2] = {TD(WNN_DTYPE_F32, 1, 1, 3, 3), TD(WNN_DTYPE_F32, 1, 1, 3, 3)};
  const float want2[9] = {12, 21, 16, 27, 45, 33, 24, 39, 28};
  CHECK(op_expect("Conv", "{\"pads\":[1,1,1,1]}", 2, d2, in2, want2, 9, 0.0f));

  /* Stride 2 with pad 1: the four corners' neighbourhoods. */
  const float want3[4] = {12, 16, 24, 28};
  CHECK(op_expect("Conv", "{\"pads\":[1,1,1,1],\"strides\":[2,2]}", 2, d2, in2, want3, 4, 0.0f));
}

TEST(conv_rejects) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 1, 4, 5, 5), w = TD(WNN_DTYPE_F32, 2, 4, 3, 3);
  wnn_tdesc in[3] = {x, w, TD(WNN_DTYPE_F32, 2)};
  in[0].dtype = WNN_DTYPE_I32;
  CHECK(op_fails("Conv", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 0 (X) is int32"));
  in[0] = x;
  in[1] = TD(WNN_DTYPE_F32, 2, 4, 3);
  CHECK(op_fails("Conv", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (W) has 3 dims, expected 4"));
  in[1] = TD(WNN_DTYPE_F32, 2, 3, 3, 3);
  CHECK(op_fails("Conv", NULL, 2, in, 1, WNN_ERR_SHAPE, "channels per group"));
  in[1] = w;
  CHECK(op_fails("Conv", "{\"group\":3}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "group 3 does not divide the 4 input channels"));
  CHECK(op_fails("Conv", "{\"group\":0}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "group 0"));
  CHECK(op_fails("Conv", "{\"strides\":[-1,1]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "strides[0]"));
  CHECK(op_fails("Conv", "{\"strides\":[1]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "strides has 1 values, expected 2"));
  CHECK(op_fails("Conv", "{\"dilations\":[1,0]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "dilations[1]"));
  CHECK(op_fails("Conv", "{\"pads\":[0,0,-1,0]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "pads[2]"));
  CHECK(op_fails("Conv", "{\"dilations\":[3,3]}", 2, in, 1, WNN_ERR_SHAPE,
                 "bigger than the padded input"));
  CHECK(op_fails("Conv", "{\"auto_pad\":\"SAME\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "auto_pad 'SAME'"));
  CHECK(op_fails("Conv", "{\"auto_pad\":\"VALID\",\"pads\":[0,0,0,0]}", 2, in, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "cannot be used together"));
  CHECK(op_fails("Conv", "{\"kernel_shape\":[2,3]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "kernel_shape[0] = 2"));
  CHECK(op_fails("Conv", "{\"strides\":\"1\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "strides"));
  CHECK(op_fails("Conv", "{\"group\":1.5}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "group"));
  CHECK(op_fails("Conv", "{\"foo\":1}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "unknown attribute 'foo'"));
  in[2] = TD(WNN_DTYPE_F32, 3);
  CHECK(op_fails("Conv", NULL, 3, in, 1, WNN_ERR_SHAPE, "input 2 (B) must have shape [2]"));
  CHECK(op_fails("Conv", NULL, 1, in, 1, WNN_ERR_MALFORMED, "1 inputs, expected 2 to 3"));
  CHECK(op_fails("Conv", NULL, 2, in, 2, WNN_ERR_MALFORMED, "2 outputs"));
  in[0] = TD(WNN_DTYPE_F32, 1, 4, 5, 5, 5);
  in[1] = TD(WNN_DTYPE_F32, 2, 4, 3, 3, 3);
  CHECK(op_fails("Conv", NULL, 2, in, 1, WNN_ERR_UNSUPPORTED, "3-D convolution"));
  in[0] = TD(WNN_DTYPE_F32, 4, 5);
  CHECK(op_fails("Conv", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 0 (X) has 2 dims"));
}

TEST(conv_scratch) {
  op_case c;
  const wnn_tdesc in1[2] = {TD(WNN_DTYPE_F32, 1, 8, 5, 5), TD(WNN_DTYPE_F32, 4, 8, 1, 1)};
  CHECK_OK(op_prepare(&c, "Conv", NULL, 2, in1, 1));
  CHECK(c.scratch_bytes == 0); /* 1x1 stride 1: GEMM straight on the input */
  /* ... with B packed when 64+ output channels read each column block: one
   * tile of 1,020 pixels x K = 40. */
  const wnn_tdesc in1b[2] = {TD(WNN_DTYPE_F32, 1, 40, 30, 34), TD(WNN_DTYPE_F32, 70, 40, 1, 1)};
  CHECK_OK(op_prepare(&c, "Conv", NULL, 2, in1b, 1));
  CHECK(c.scratch_bytes == 40 * 1020 * sizeof(float));
  const wnn_tdesc in2[2] = {TD(WNN_DTYPE_F32, 1, 8, 5, 5), TD(WNN_DTYPE_F32, 4, 4, 3, 3)};
  CHECK_OK(op_prepare(&c, "Conv", "{\"group\":2}", 2, in2, 1));
  CHECK(c.scratch_bytes == 4 * 9 * 3 * 3 * sizeof(float)); /* one group's im2col */
  /* A big image: one tile's panel, K = 576 rows of 96 pixels, not the whole
   * 576 x 160*160 matrix (dilated, so not on the Winograd path). */
  const wnn_tdesc in3[2] = {TD(WNN_DTYPE_F32, 1, 64, 160, 160), TD(WNN_DTYPE_F32, 64, 64, 3, 3)};
  CHECK_OK(op_prepare(&c, "Conv", "{\"pads\":[2,2,2,2],\"dilations\":[2,2]}", 2, in3, 1));
  CHECK(c.scratch_bytes == 576 * 96 * sizeof(float));
  /* The same 3x3 stride-1 convolution undilated takes the Winograd path and
   * asks for its scratch (a few MiB, not the 59 MB im2col matrix). */
  CHECK_OK(op_prepare(&c, "Conv", "{\"pads\":[1,1,1,1]}", 2, in3, 1));
  CHECK(c.scratch_bytes == wnn_conv_winograd_scratch_bytes(&(wnn_window2d){.in_h = 160, .in_w = 160,
            .out_h = 160, .out_w = 160, .k_h = 3, .k_w = 3, .stride_h = 1, .stride_w = 1,
            .dil_h = 1, .dil_w = 1, .pad_t = 1, .pad_l = 1, .pad_b = 1, .pad_r = 1}, 64, 64));
  CHECK(c.scratch_bytes > 0 && c.scratch_bytes < 8u << 20);
  /* K = 27 (a first layer): tiles of 2400 pixels. */
  const wnn_tdesc in4[2] = {TD(WNN_DTYPE_F32, 1, 3, 224, 224), TD(WNN_DTYPE_F32, 32, 3, 3, 3)};
  CHECK_OK(op_prepare(&c, "Conv", "{\"pads\":[1,1,1,1],\"strides\":[2,2]}", 2, in4, 1));
  CHECK(c.scratch_bytes == 27 * 2400 * sizeof(float));
}

int main(void) {
  RUN(conv_3x3_pad1);
  RUN(conv_no_bias_no_pad);
  RUN(conv_strides_asymmetric_pads);
  RUN(conv_dilations);
  RUN(conv_group);
  RUN(conv_depthwise);
  RUN(conv_depthwise_multiplier);
  RUN(conv_1x1_direct);
  RUN(conv_auto_pad);
  RUN(conv_auto_pad_shapes);
  RUN(conv_1d);
  RUN(conv_kernel_shape_attr);
  RUN(conv_large_tiles);
  RUN(conv_many_tiles);
  RUN(conv_winograd);
  RUN(conv_hand_computed);
  RUN(conv_rejects);
  RUN(conv_scratch);
  return test_summary();
}
