/* ConvTranspose: GEMM + col2im (1-D, 2-D) and the direct 3-D loop vs the
 * scatter reference over geometries,
 * hand-computed outputs, output-shape rules, rejections. Sums of a few dozen
 * products in different orders: rtol 1e-5, atol 1e-5. */
#include "op_harness.h"
#include "kernels/kernels.h"

#define RTOL 1e-5f
#define ATOL 1e-5f

static int ct(const char *attrs, wnn_tdesc x, wnn_tdesc w, int64_t bias) {
  wnn_tdesc in[3] = {x, w, TD(WNN_DTYPE_F32, bias)};
  return op_check("ConvTranspose", attrs, bias ? 3 : 2, in, RTOL, ATOL);
}

/* The output dims prepare infers, or -1 in dims[0] when prepare fails. */
static void out_dims(const char *attrs, wnn_tdesc x, wnn_tdesc w, int64_t *dims) {
  op_case c;
  wnn_tdesc in[2] = {x, w};
  dims[0] = -1;
  if (op_prepare(&c, "ConvTranspose", attrs, 2, in, 1) != WNN_OK) {
    printf("  %s: %s\n", test_current_, c.msg);
    return;
  }
  for (int d = 0; d < c.outputs[0].ndim; d++) dims[d] = c.outputs[0].dims[d];
}

TEST(geometries_2d) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 4, 5, 6);
  const wnn_tdesc w = TD(WNN_DTYPE_F32, 4, 3, 3, 3);
  CHECK(ct(NULL, x, w, 3));
  CHECK(ct(NULL, x, w, 0));
  CHECK(ct("{\"strides\":[2,2]}", x, w, 3));
  CHECK(ct("{\"strides\":[2,3],\"pads\":[1,0,2,1]}", x, w, 3));
  CHECK(ct("{\"strides\":[2,2],\"output_padding\":[1,1]}", x, w, 3));
  CHECK(ct("{\"dilations\":[2,1],\"strides\":[1,2]}", x, w, 3));
  CHECK(ct("{\"strides\":[2,2],\"auto_pad\":\"SAME_UPPER\"}", x, w, 3));
  CHECK(ct("{\"strides\":[2,2],\"auto_pad\":\"SAME_LOWER\"}", x, w, 3));
  CHECK(ct("{\"strides\":[2,2],\"auto_pad\":\"VALID\"}", x, w, 3));
  CHECK(ct("{\"strides\":[3,2],\"output_shape\":[16,12]}", x, w, 3));
  CHECK(ct("{\"strides\":[3,2],\"output_shape\":[17,14]}", x, w, 3)); /* bigger than full */
  CHECK(ct("{\"group\":2}", x, TD(WNN_DTYPE_F32, 4, 2, 2, 3), 4));
  CHECK(ct("{\"group\":4,\"strides\":[2,2],\"pads\":[1,1,1,1]}", x, TD(WNN_DTYPE_F32, 4, 1, 4, 4),
           4));
  CHECK(ct("{\"kernel_shape\":[1,1]}", x, TD(WNN_DTYPE_F32, 4, 5, 1, 1), 5));
}

TEST(geometries_1d) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 11);
  CHECK(ct(NULL, x, TD(WNN_DTYPE_F32, 3, 2, 4), 2));
  CHECK(ct("{\"strides\":[4],\"pads\":[2,1]}", x, TD(WNN_DTYPE_F32, 3, 2, 5), 2));
  CHECK(ct("{\"strides\":[2],\"dilations\":[3],\"output_padding\":[1]}", x,
           TD(WNN_DTYPE_F32, 3, 2, 3), 0));
  CHECK(ct("{\"group\":3,\"strides\":[2]}", x, TD(WNN_DTYPE_F32, 3, 1, 3), 3));
}

TEST(geometries_3d) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 4, 3, 4, 5);
  const wnn_tdesc w = TD(WNN_DTYPE_F32, 4, 2, 3, 2, 3);
  CHECK(ct(NULL, x, w, 2));
  CHECK(ct("{\"strides\":[2,1,2],\"pads\":[1,0,1,0,1,2]}", x, w, 0));
  CHECK(ct("{\"strides\":[2,2,2],\"output_padding\":[1,0,1],\"dilations\":[1,2,1]}", x, w, 2));
  CHECK(ct("{\"group\":2,\"auto_pad\":\"SAME_UPPER\",\"strides\":[2,2,2]}", x,
           TD(WNN_DTYPE_F32, 4, 1, 2, 2, 2), 2));
  int64_t dims[5];
  out_dims("{\"strides\":[2,1,3]}", x, w, dims);
  /* full = stride * (in - 1) + kernel: 2*2+3, 1*3+2, 3*4+3 */
  CHECK(dims[0] == 2 && dims[1] == 2 && dims[2] == 7 && dims[3] == 5 && dims[4] == 15);
}

TEST(hand_computed_3d) {
  /* Depth only: x = [1, 2] (d = 2, 1x1 planes), w = [3, 4] (kd = 2), b = 0.5:
   * y = [1*3, 1*4 + 2*3, 2*4] + 0.5 = [3.5, 10.5, 8.5]. */
  float x[2] = {1, 2}, w[2] = {3, 4}, b[1] = {0.5f};
  void *in[3] = {x, w, b};
  const wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 1, 1, 2, 1, 1), TD(WNN_DTYPE_F32, 1, 1, 2, 1, 1),
                          TD(WNN_DTYPE_F32, 1)};
  const float want[3] = {3.5f, 10.5f, 8.5f};
  CHECK(op_expect("ConvTranspose", NULL, 3, d, in, want, 3, 0));
}

TEST(hand_computed) {
  /* 3x3 input 0..8, a 3x3 kernel of ones, two output channels: every output
   * pixel sums the input pixels whose 3x3 patch covers it. */
  float x[9], w[18];
  for (int i = 0; i < 9; i++) x[i] = (float)i;
  for (int i = 0; i < 18; i++) w[i] = 1.0f;
  void *in[2] = {x, w};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 1, 1, 3, 3), TD(WNN_DTYPE_F32, 1, 2, 3, 3)};
  const float plane[25] = {0,  1,  3, 3,  2,  3,  8,  15, 12, 7,  9,  21, 36,
                           27, 15, 9, 20, 33, 24, 13, 6,  13, 21, 15, 8};
  float want[50];
  memcpy(want, plane, sizeof plane);
  memcpy(want + 25, plane, sizeof plane);
  CHECK(op_expect("ConvTranspose", NULL, 2, d, in, want, 50, 0));
  /* pads [1,1,1,1] crop the 5x5 to its centre 3x3. */
  const float centre[9] = {8, 15, 12, 21, 36, 27, 20, 33, 24};
  float want_c[18];
  memcpy(want_c, centre, sizeof centre);
  memcpy(want_c + 9, centre, sizeof centre);
  CHECK(op_expect("ConvTranspose", "{\"pads\":[1,1,1,1]}", 2, d, in, want_c, 18, 0));
  /* 1-D, stride 2, kernel [1, 2], bias 10: x = [1, 2, 3] scatters 1*[1,2] at
   * 0, 2*[1,2] at 2, 3*[1,2] at 4: [1, 2, 2, 4, 3, 6] + 10. */
  float x1[3] = {1, 2, 3}, w1[2] = {1, 2}, b1[1] = {10};
  void *in1[3] = {x1, w1, b1};
  const wnn_tdesc d1[3] = {TD(WNN_DTYPE_F32, 1, 1, 3), TD(WNN_DTYPE_F32, 1, 1, 2),
                           TD(WNN_DTYPE_F32, 1)};
  const float want1[6] = {11, 12, 12, 14, 13, 16};
  CHECK(op_expect("ConvTranspose", "{\"strides\":[2]}", 3, d1, in1, want1, 6, 0));
  /* output_shape 8 > full 6: total padding clamps to 0, the tail holds the bias. */
  const float want2[8] = {11, 12, 12, 14, 13, 16, 10, 10};
  CHECK(op_expect("ConvTranspose", "{\"strides\":[2],\"output_shape\":[8]}", 3, d1, in1, want2, 8,
                  0));
}

TEST(output_shapes) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 1, 2, 3, 3), w = TD(WNN_DTYPE_F32, 2, 4, 3, 3);
  int64_t d[4];
  out_dims("{\"strides\":[3,2]}", x, w, d);
  CHECK(d[0] == 1 && d[1] == 4 && d[2] == 9 && d[3] == 7); /* 3*2+3, 2*2+3 */
  out_dims("{\"strides\":[3,2],\"output_padding\":[1,1]}", x, w, d);
  CHECK(d[2] == 10 && d[3] == 8);
  out_dims("{\"strides\":[3,2],\"pads\":[1,2,1,2]}", x, w, d);
  CHECK(d[2] == 7 && d[3] == 3);
  out_dims("{\"strides\":[3,2],\"output_shape\":[10,8]}", x, w, d);
  CHECK(d[2] == 10 && d[3] == 8);
  out_dims("{\"strides\":[3,2],\"output_shape\":[1,4,10,8]}", x, w, d);
  CHECK(d[2] == 10 && d[3] == 8);
  out_dims("{\"strides\":[2,2],\"auto_pad\":\"SAME_UPPER\"}", x, w, d);
  CHECK(d[2] == 6 && d[3] == 6);
  out_dims("{\"group\":2}", x, TD(WNN_DTYPE_F32, 2, 3, 2, 2), d);
  CHECK(d[1] == 6 && d[2] == 4 && d[3] == 4);
}

/* col2im is im2col's adjoint: for any image x and matrix c,
 * <im2col(x), c> = <x, col2im(c)>. Checked on awkward geometries (ragged
 * strides, pads, dilations, windows that miss the image) with the scalar
 * im2col as the other side. */
static int adjoint(size_t channels, wnn_window2d w) {
  const size_t plane = w.in_h * w.in_w, rows = channels * w.k_h * w.k_w;
  const size_t grid = w.out_h * w.out_w;
  float *x = malloc((channels * plane + 1) * sizeof *x),
        *col = malloc((rows * grid + 1) * sizeof *col);
  float *c = malloc((rows * grid + 1) * sizeof *c),
        *back = malloc((channels * plane + 1) * sizeof *back);
  for (size_t i = 0; i < channels * plane; i++) x[i] = lcg_float(), back[i] = 0.0f;
  for (size_t i = 0; i < rows * grid; i++) c[i] = lcg_float();
  wnn_f32_im2col__scalar(channels, x, col, &w);
  wnn_f32_col2im__scalar(channels, c, back, &w);
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < rows * grid; i++) lhs += (double)col[i] * c[i];
  for (size_t i = 0; i < channels * plane; i++) rhs += (double)x[i] * back[i];
  free(x), free(col), free(c), free(back);
  if (fabs(lhs - rhs) > 1e-4 * (1 + fabs(lhs))) {
    printf("  %s: <im2col x, c> = %g but <x, col2im c> = %g\n", test_current_, lhs, rhs);
    return 0;
  }
  return 1;
}

TEST(col2im_is_im2col_adjoint) {
  /* in_h, in_w, out_h, out_w, k_h, k_w, strides, dilations, pads t l b r */
  CHECK(adjoint(2, (wnn_window2d){5, 5, 3, 3, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0}));
  CHECK(adjoint(3, (wnn_window2d){7, 6, 4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 1, 0}));
  CHECK(adjoint(1, (wnn_window2d){9, 10, 3, 4, 2, 3, 3, 3, 2, 2, 0, 1, 0, 2}));
  CHECK(adjoint(2, (wnn_window2d){1, 11, 1, 6, 1, 4, 1, 2, 1, 3, 0, 2, 0, 3}));
  CHECK(adjoint(4, (wnn_window2d){4, 4, 5, 5, 2, 2, 1, 1, 1, 1, 1, 1, 2, 2}));
  CHECK(adjoint(1, (wnn_window2d){6, 5, 2, 2, 4, 4, 3, 3, 1, 2, 2, 3, 0, 0}));
}

TEST(rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 4, 5, 5), TD(WNN_DTYPE_F32, 4, 2, 3, 3),
                     TD(WNN_DTYPE_F32, 2)};
  CHECK(op_fails("ConvTranspose", "{\"group\":3}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "group 3 does not divide the 4 input channels"));
  CHECK(op_fails("ConvTranspose", "{\"group\":0}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "group 0"));
  CHECK(op_fails("ConvTranspose", "{\"group\":2}", 3, in, 1, WNN_ERR_SHAPE,
                 "input 2 (B) must have shape [4]"));
  CHECK(op_fails("ConvTranspose", "{\"kernel_shape\":[3,2]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "kernel_shape[1] = 2"));
  CHECK(op_fails("ConvTranspose", "{\"pads\":[4,4,4,4]}", 2, in, 1, WNN_ERR_SHAPE,
                 "leave no output"));
  CHECK(op_fails("ConvTranspose", "{\"pads\":[1,1,1,1],\"auto_pad\":\"SAME_UPPER\"}", 2, in, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "cannot be used together"));
  CHECK(op_fails("ConvTranspose", "{\"auto_pad\":\"SAME\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "auto_pad 'SAME'"));
  CHECK(op_fails("ConvTranspose", "{\"output_padding\":[1,0]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "output_padding[0] = 1"));
  CHECK(op_fails("ConvTranspose", "{\"strides\":[1]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "strides has 1 values, expected 2"));
  CHECK(op_fails("ConvTranspose", "{\"output_shape\":[0,4]}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "output_shape[0] = 0"));
  in[1] = TD(WNN_DTYPE_F32, 3, 2, 3, 3);
  CHECK(op_fails("ConvTranspose", NULL, 2, in, 1, WNN_ERR_SHAPE, "has 3 input channels"));
  in[1] = TD(WNN_DTYPE_F32, 4, 2, 3);
  CHECK(op_fails("ConvTranspose", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (W)"));
  in[0] = TD(WNN_DTYPE_F32, 1, 4, 5, 5, 5, 5), in[1] = TD(WNN_DTYPE_F32, 4, 2, 3, 3, 3, 3);
  CHECK(op_fails("ConvTranspose", NULL, 2, in, 1, WNN_ERR_SHAPE, "has 6 dims, expected 3, 4 or 5"));
  in[0] = TD(WNN_DTYPE_I32, 1, 4, 5, 5);
  CHECK(op_fails("ConvTranspose", NULL, 2, in, 1, WNN_ERR_DTYPE, "int32"));
}

int main(void) {
  RUN(geometries_2d);
  RUN(geometries_1d);
  RUN(geometries_3d);
  RUN(hand_computed_3d);
  RUN(hand_computed);
  RUN(output_shapes);
  RUN(col2im_is_im2col_adjoint);
  RUN(rejects);
  return test_summary();
}
