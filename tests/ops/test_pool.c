/* MaxPool (with and without Indices), AveragePool, GlobalAveragePool. Max is
 * exact; averages sum in float (kernel) vs double (reference): rtol 1e-5,
 * atol 1e-6. */
#include "op_harness.h"

#define RTOL 1e-5f
#define ATOL 1e-6f

static int pool(const char *op, const char *attrs, wnn_tdesc x) {
  return op_check(op, attrs, 1, &x, RTOL, ATOL);
}

TEST(maxpool_geometries) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 9, 10);
  CHECK(pool("MaxPool", "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3,3],\"strides\":[2,2],\"pads\":[1,1,1,1]}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3,2],\"pads\":[0,1,2,0]}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[2,3],\"dilations\":[2,2]}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3,3],\"strides\":[2,2],\"ceil_mode\":1}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3,3],\"strides\":[3,3],\"ceil_mode\":1,\"pads\":[1,1,1,1]}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3,3],\"strides\":[2,2],\"auto_pad\":\"SAME_UPPER\"}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[2,2],\"strides\":[2,2],\"auto_pad\":\"SAME_LOWER\"}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3,3],\"auto_pad\":\"VALID\",\"storage_order\":1}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3],\"strides\":[2],\"pads\":[1,1]}",
             TD(WNN_DTYPE_F32, 2, 3, 11)));
}

/* MaxPool with its Indices output: run and reference on the same random
 * input must agree exactly on both outputs. */
static int maxpool_indices(const char *attrs, wnn_tdesc x) {
  op_case c;
  if (op_prepare(&c, "MaxPool", attrs, 1, &x, 2) != WNN_OK) {
    printf("  %s: prepare failed: %s\n", test_current_, c.msg);
    return 0;
  }
  if (c.outputs[1].dtype != WNN_DTYPE_I64 ||
      !wnn_shape_equal(c.outputs[0].ndim, c.outputs[0].dims, c.outputs[1].ndim, c.outputs[1].dims))
    return 0;
  void *in[1] = {make_input(&x)}, *got[2], *want[2];
  int ok = op_exec(&c, c.op->run, in, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, in, want) == WNN_OK && ok;
  ok = ok && outputs_match(&c.outputs[0], got[0], want[0], 0, 0) &&
       outputs_match(&c.outputs[1], got[1], want[1], 0, 0);
  for (int i = 0; i < 2; i++) free(got[i]), free(want[i]);
  free(in[0]);
  if (!ok) printf("  %s: mismatch for %s\n", test_current_, attrs);
  return ok;
}

TEST(maxpool_with_indices) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 9, 10);
  CHECK(maxpool_indices("{\"kernel_shape\":[2,2],\"strides\":[2,2]}", x));
  CHECK(maxpool_indices("{\"kernel_shape\":[3,3],\"strides\":[2,2],\"pads\":[1,1,1,1]}", x));
  CHECK(maxpool_indices("{\"kernel_shape\":[3,2],\"pads\":[0,1,2,0],\"storage_order\":1}", x));
  CHECK(maxpool_indices("{\"kernel_shape\":[2,3],\"dilations\":[2,2],\"storage_order\":1}", x));
  CHECK(maxpool_indices("{\"kernel_shape\":[3,3],\"strides\":[2,2],\"ceil_mode\":1}", x));
  CHECK(maxpool_indices("{\"kernel_shape\":[3],\"strides\":[2],\"pads\":[1,1]}",
                        TD(WNN_DTYPE_F32, 2, 3, 11)));
  /* 4x4 planes 1..16 and 17..32, 2x2 windows, stride 2: maxima at (1,1),
   * (1,3), (3,1), (3,3) of each plane: row-major 5, 7, 13, 15 (+16 for the
   * second plane); column-major (col * 4 + row) 5, 13, 7, 15. */
  float v[32];
  for (int i = 0; i < 32; i++) v[i] = (float)(i + 1);
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 1, 2, 4, 4);
  const int64_t row_major[8] = {5, 7, 13, 15, 21, 23, 29, 31};
  const int64_t col_major[8] = {5, 13, 7, 15, 21, 29, 23, 31};
  const float ymax[8] = {6, 8, 14, 16, 22, 24, 30, 32};
  for (int order = 0; order < 2; order++) {
    op_case c;
    const char *attrs = order ? "{\"kernel_shape\":[2,2],\"strides\":[2,2],\"storage_order\":1}"
                              : "{\"kernel_shape\":[2,2],\"strides\":[2,2]}";
    CHECK_OK(op_prepare(&c, "MaxPool", attrs, 1, &d, 2));
    for (int f = 0; f < 2; f++) {
      void *in[1] = {v}, *out[2];
      CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, in, out));
      CHECK(memcmp(out[1], order ? col_major : row_major, sizeof row_major) == 0);
      CHECK(test_allclose(out[0], ymax, 8, 0, 0));
      free(out[0]), free(out[1]);
    }
  }
}

TEST(averagepool_geometries) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 1, 4, 8, 7);
  CHECK(pool("AveragePool", "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", x));
  CHECK(pool("AveragePool", "{\"kernel_shape\":[3,3],\"pads\":[1,1,1,1]}", x));
  CHECK(pool("AveragePool", "{\"kernel_shape\":[3,3],\"pads\":[1,1,1,1],\"count_include_pad\":1}", x));
  CHECK(pool("AveragePool", "{\"kernel_shape\":[3,3],\"strides\":[2,2],\"ceil_mode\":1}", x));
  CHECK(pool("AveragePool",
             "{\"kernel_shape\":[3,3],\"strides\":[2,2],\"ceil_mode\":1,\"pads\":[1,0,1,0],"
             "\"count_include_pad\":1}", x));
  CHECK(pool("AveragePool", "{\"kernel_shape\":[2,3],\"auto_pad\":\"SAME_UPPER\"}", x));
  CHECK(pool("AveragePool", "{\"kernel_shape\":[2,3],\"auto_pad\":\"SAME_LOWER\",\"count_include_pad\":1}", x));
  CHECK(pool("AveragePool", "{\"kernel_shape\":[4]}", TD(WNN_DTYPE_F32, 2, 2, 9)));
}

TEST(pool_3d) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 6, 5, 7);
  CHECK(pool("MaxPool", "{\"kernel_shape\":[2,2,2]}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3,2,3],\"strides\":[2,1,2],\"pads\":[1,0,1,1,1,0]}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[2,2,2],\"dilations\":[2,1,3],\"ceil_mode\":1}", x));
  CHECK(pool("MaxPool", "{\"kernel_shape\":[3,3,3],\"strides\":[2,2,2],\"auto_pad\":\"SAME_UPPER\"}", x));
  CHECK(pool("AveragePool", "{\"kernel_shape\":[2,3,2]}", x));
  CHECK(pool("AveragePool", "{\"kernel_shape\":[3,3,3],\"pads\":[1,1,1,1,1,1]}", x));
  CHECK(pool("AveragePool",
             "{\"kernel_shape\":[3,3,3],\"pads\":[1,1,1,1,1,1],\"count_include_pad\":1}", x));
  CHECK(pool("AveragePool",
             "{\"kernel_shape\":[3,2,3],\"strides\":[2,2,2],\"ceil_mode\":1,\"auto_pad\":\"SAME_LOWER\"}", x));
  CHECK(maxpool_indices("{\"kernel_shape\":[2,3,2],\"strides\":[2,1,2],\"pads\":[1,1,0,0,1,1]}", x));
  CHECK(maxpool_indices("{\"kernel_shape\":[2,2,2],\"storage_order\":1}", x));
  /* A 2x2x2 cube 1..8, one 2x2x2 window: max 8 at flat 7 (column-major:
   * w * 4 + h * 2 + d = 7 too), average 4.5. */
  float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  void *in[1] = {v};
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 1, 1, 2, 2, 2);
  const float mx[1] = {8}, avg[1] = {4.5f};
  CHECK(op_expect("MaxPool", "{\"kernel_shape\":[2,2,2]}", 1, &d, in, mx, 1, 0));
  CHECK(op_expect("AveragePool", "{\"kernel_shape\":[2,2,2]}", 1, &d, in, avg, 1, 0));
  /* pads 1 on both sides of every dim, kernel 2, stride 2: output 2x2x2; the
   * first window holds only element 1 (and 7 pads): 1/8 counting the pads;
   * the last holds only element 8: 8/8. */
  const float first_inc = 1.0f / 8;
  op_case c;
  CHECK_OK(op_prepare(&c, "AveragePool",
                      "{\"kernel_shape\":[2,2,2],\"strides\":[2,2,2],\"pads\":[1,1,1,1,1,1],"
                      "\"count_include_pad\":1}",
                      1, &d, 1));
  CHECK(c.outputs[0].dims[2] == 2 && c.outputs[0].dims[3] == 2 && c.outputs[0].dims[4] == 2);
  void *out[1];
  CHECK_OK(op_exec(&c, c.op->run, in, out));
  CHECK(((float *)out[0])[0] == first_inc && ((float *)out[0])[7] == 8.0f / 8);
  free(out[0]);
}

TEST(global_average) {
  CHECK(pool("GlobalAveragePool", NULL, TD(WNN_DTYPE_F32, 2, 3, 5, 7)));
  CHECK(pool("GlobalAveragePool", NULL, TD(WNN_DTYPE_F32, 1, 4, 13)));
  CHECK(pool("GlobalAveragePool", NULL, TD(WNN_DTYPE_F32, 1, 2, 2, 3, 4)));
  op_case c;
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 5, 7);
  CHECK_OK(op_prepare(&c, "GlobalAveragePool", NULL, 1, &x, 1));
  CHECK(c.outputs[0].ndim == 4 && c.outputs[0].dims[1] == 3 && c.outputs[0].dims[2] == 1 &&
        c.outputs[0].dims[3] == 1);
}

TEST(hand_computed) {
  float x[16];
  for (int i = 0; i < 16; i++) x[i] = (float)(i + 1); /* 4x4: 1..16 */
  void *in[1] = {x};
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 1, 1, 4, 4);
  const float max[4] = {6, 8, 14, 16};
  CHECK(op_expect("MaxPool", "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", 1, &d, in, max, 4, 0));
  const float avg[4] = {3.5f, 5.5f, 11.5f, 13.5f};
  CHECK(op_expect("AveragePool", "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", 1, &d, in, avg, 4, 0));
  /* 3x3 windows, pad 1, stride 3: the padded input spans rows and columns
   * -1..4, windows start at -1 and 2. Each window holds 4 input elements:
   * (1+2+5+6)/4 = 3.5, (3+4+7+8)/4 = 5.5, (9+10+13+14)/4 = 11.5,
   * (11+12+15+16)/4 = 13.5; counting the pads, all 9 places are inside the
   * padded input: 14/9, 22/9, 46/9, 54/9. */
  const char *a = "{\"kernel_shape\":[3,3],\"strides\":[3,3],\"pads\":[1,1,1,1]}";
  CHECK(op_expect("AveragePool", a, 1, &d, in, avg, 4, 1e-6f));
  const char *a_inc =
      "{\"kernel_shape\":[3,3],\"strides\":[3,3],\"pads\":[1,1,1,1],\"count_include_pad\":1}";
  const float avg_inc[4] = {14.0f / 9, 22.0f / 9, 46.0f / 9, 54.0f / 9};
  CHECK(op_expect("AveragePool", a_inc, 1, &d, in, avg_inc, 4, 1e-6f));
  float g[6] = {1, 2, 3, 4, 5, 6};
  void *gin[1] = {g};
  const wnn_tdesc gd = TD(WNN_DTYPE_F32, 1, 2, 3);
  const float gavg[2] = {2, 5};
  CHECK(op_expect("GlobalAveragePool", NULL, 1, &gd, gin, gavg, 2, 0));
}

TEST(hand_computed_ceil_mode) {
  float x[25];
  for (int i = 0; i < 25; i++) x[i] = (float)(i + 1); /* 5x5: 1..25 */
  void *in[1] = {x};
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 1, 1, 5, 5);
  /* floor: 2x2 windows at 0 and 2 -> 2x2 output; ceil adds the windows at 4. */
  const float want[9] = {7, 9, 10, 17, 19, 20, 22, 24, 25};
  CHECK(op_expect("MaxPool", "{\"kernel_shape\":[2,2],\"strides\":[2,2],\"ceil_mode\":1}", 1, &d,
                  in, want, 9, 0));
  const float want_floor[4] = {7, 9, 17, 19};
  CHECK(op_expect("MaxPool", "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", 1, &d, in, want_floor,
                  4, 0));
  /* Dilation 2: 2x2 taps 2 apart, stride 1 -> 3x3 output, max at the bottom-right tap. */
  const float want_dil[9] = {13, 14, 15, 18, 19, 20, 23, 24, 25};
  CHECK(op_expect("MaxPool", "{\"kernel_shape\":[2,2],\"dilations\":[2,2]}", 1, &d, in, want_dil,
                  9, 0));
}

TEST(maxpool_8bit) {
  static const char *const attrs[] = {
      "{\"kernel_shape\":[2,2],\"strides\":[2,2]}",
      "{\"kernel_shape\":[3,3],\"strides\":[2,2],\"pads\":[1,1,1,1]}",
      "{\"kernel_shape\":[3,2],\"pads\":[0,1,2,0]}",
      "{\"kernel_shape\":[2,3],\"dilations\":[2,2]}",
      "{\"kernel_shape\":[3,3],\"strides\":[2,2],\"ceil_mode\":1}",
      "{\"kernel_shape\":[5,5],\"pads\":[2,2,2,2]}"};
  for (int dt = 0; dt < 2; dt++) {
    const wnn_dtype t = dt ? WNN_DTYPE_I8 : WNN_DTYPE_U8;
    wnn_tdesc x = TD(t, 2, 3, 9, 10);
    for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; a++)
      CHECK(op_check("MaxPool", attrs[a], 1, &x, 0, 0));
    x = TD(t, 2, 3, 11);
    CHECK(op_check("MaxPool", "{\"kernel_shape\":[3],\"strides\":[2],\"pads\":[1,1]}", 1, &x, 0, 0));
  }
  /* Hand-computed, with Indices: a 1x1x3x3 uint8 plane, 2x2 windows, stride
   * 1, and an int8 plane whose maxima are negative. */
  const uint8_t u[9] = {1, 200, 3, 4, 5, 250, 7, 255, 9};
  const uint8_t u_max[4] = {200, 250, 255, 255};
  const int64_t u_at[4] = {1, 5, 7, 7};
  const int8_t s[9] = {-100, -3, -128, -7, -50, -2, -9, -8, -1};
  const int8_t s_max[4] = {-3, -2, -7, -1};
  const int64_t s_at[4] = {1, 5, 3, 8};
  for (int dt = 0; dt < 2; dt++) {
    const wnn_tdesc d = TD(dt ? WNN_DTYPE_I8 : WNN_DTYPE_U8, 1, 1, 3, 3);
    op_case c;
    CHECK_OK(op_prepare(&c, "MaxPool", "{\"kernel_shape\":[2,2]}", 1, &d, 2));
    CHECK(c.outputs[0].dtype == d.dtype && c.outputs[1].dtype == WNN_DTYPE_I64);
    for (int f = 0; f < 2; f++) {
      void *in[1] = {dt ? (void *)s : (void *)u}, *out[2];
      CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, in, out));
      CHECK(memcmp(out[0], dt ? (const void *)s_max : (const void *)u_max, 4) == 0);
      if (!f) CHECK(memcmp(out[1], dt ? s_at : u_at, sizeof u_at) == 0);
      free(out[0]), free(out[1]);
    }
  }
}

TEST(rejects) {
  wnn_tdesc x = TD(WNN_DTYPE_F32, 1, 2, 5, 5);
  CHECK(op_fails("MaxPool", NULL, 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "kernel_shape is required"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2]}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "kernel_shape has 1 values, expected 2"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[6,2]}", 1, &x, 1, WNN_ERR_SHAPE,
                 "bigger than the padded input"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[0,2]}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "kernel dim 0 is 0"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2],\"strides\":[0,1]}", 1, &x, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "strides[0] = 0"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2],\"pads\":[2,0,0,0]}", 1, &x, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "must be smaller than the kernel"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2],\"ceil_mode\":2}", 1, &x, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "ceil_mode = 2"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2],\"storage_order\":2}", 1, &x, 2,
                 WNN_ERR_BAD_ATTRIBUTE, "storage_order = 2"));
  CHECK(op_fails("AveragePool", "{\"kernel_shape\":[2,2],\"dilations\":[1,1]}", 1, &x, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "unknown attribute 'dilations'"));
  CHECK(op_fails("AveragePool", "{\"kernel_shape\":[2,2],\"count_include_pad\":-1}", 1, &x, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "count_include_pad"));
  x = TD(WNN_DTYPE_F32, 1, 2, 5, 5, 5);
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2,2],\"pads\":[0,0,0,2,0,0]}", 1, &x, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "must be smaller than the kernel"));
  CHECK(op_fails("AveragePool", "{\"kernel_shape\":[2,6,2]}", 1, &x, 1, WNN_ERR_SHAPE,
                 "bigger than the padded input 5 in spatial dim 1"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2,2],\"strides\":[1,1]}", 1, &x, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "strides has 2 values, expected 3"));
  x = TD(WNN_DTYPE_F32, 1, 2, 5, 5, 5, 5);
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2,2,2]}", 1, &x, 1, WNN_ERR_SHAPE,
                 "has 6 dims, expected 3, 4 or 5"));
  x = TD(WNN_DTYPE_I32, 1, 2, 5, 5);
  CHECK(op_fails("AveragePool", "{\"kernel_shape\":[2,2]}", 1, &x, 1, WNN_ERR_DTYPE, "int32"));
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2]}", 1, &x, 1, WNN_ERR_DTYPE,
                 "input 0 (X) is int32, expected float32 (or uint8 or int8, with 3 or 4 dims)"));
  x = TD(WNN_DTYPE_U8, 1, 2, 5, 5);
  CHECK(op_fails("AveragePool", "{\"kernel_shape\":[2,2]}", 1, &x, 1, WNN_ERR_DTYPE,
                 "input 0 (X) is uint8, expected float32"));
  x = TD(WNN_DTYPE_U8, 1, 2, 5, 5, 5);
  CHECK(op_fails("MaxPool", "{\"kernel_shape\":[2,2,2]}", 1, &x, 1, WNN_ERR_DTYPE,
                 "input 0 (X) is uint8"));
  x = TD(WNN_DTYPE_I32, 1, 2, 5, 5);
  CHECK(op_fails("GlobalAveragePool", NULL, 1, &x, 1, WNN_ERR_DTYPE, "int32"));
  x = TD(WNN_DTYPE_F32, 2, 5);
  CHECK(op_fails("GlobalAveragePool", NULL, 1, &x, 1, WNN_ERR_SHAPE, "has 2 dims"));
  x = TD(WNN_DTYPE_F32, 1, 2, 0, 3);
  CHECK(op_fails("GlobalAveragePool", NULL, 1, &x, 1, WNN_ERR_SHAPE, "no spatial elements"));
}

int main(void) {
  RUN(maxpool_geometries);
  RUN(maxpool_with_indices);
  RUN(averagepool_geometries);
  RUN(pool_3d);
  RUN(global_average);
  RUN(hand_computed);
  RUN(hand_computed_ceil_mode);
  RUN(maxpool_8bit);
  RUN(rejects);
  return test_summary();
}
