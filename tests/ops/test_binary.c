/* Add, Sub, Mul, Div: multidirectional broadcasting in float32, int32,
 * int64, uint8 and int8, run vs reference. Float results must match exactly (atol 0): both
 * compute each element with one correctly rounded operation. */
#include <stdint.h>

#include "op_harness.h"

static const char *const OPS[] = {"Add", "Sub", "Mul", "Div"};
static const wnn_dtype DTYPES[] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64, WNN_DTYPE_U8,
                                   WNN_DTYPE_I8};

/* Every op and dtype on shapes a and b. */
static int all_ops(wnn_tdesc a, wnn_tdesc b) {
  int ok = 1;
  for (int d = 0; d < 5; d++)
    for (int o = 0; o < 4; o++) {
      wnn_tdesc in[2] = {a, b};
      in[0].dtype = in[1].dtype = DTYPES[d];
      if (!op_check(OPS[o], NULL, 2, in, 0.0f, 0.0f)) {
        printf("  failed: %s %s\n", OPS[o], wnn_dtype_name(DTYPES[d]));
        ok = 0;
      }
    }
  return ok;
}

TEST(same_shape) {
  CHECK(all_ops(TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 2, 3, 4)));
  CHECK(all_ops(TD(WNN_DTYPE_F32, 37), TD(WNN_DTYPE_F32, 37)));
}

TEST(scalars) {
  CHECK(all_ops(TD(WNN_DTYPE_F32, 3, 5), TD_SCALAR(WNN_DTYPE_F32)));
  CHECK(all_ops(TD_SCALAR(WNN_DTYPE_F32), TD(WNN_DTYPE_F32, 3, 5)));
  CHECK(all_ops(TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_F32)));
  CHECK(all_ops(TD(WNN_DTYPE_F32, 1, 1), TD(WNN_DTYPE_F32, 1)));
}

TEST(broadcast_trailing_and_middle) {
  CHECK(all_ops(TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 4)));       /* row vector */
  CHECK(all_ops(TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 3, 1)));    /* column */
  CHECK(all_ops(TD(WNN_DTYPE_F32, 3, 1), TD(WNN_DTYPE_F32, 2, 3, 4)));    /* column first */
  CHECK(all_ops(TD(WNN_DTYPE_F32, 2, 1, 4), TD(WNN_DTYPE_F32, 1, 3, 1))); /* both broadcast */
  CHECK(all_ops(TD(WNN_DTYPE_F32, 1, 3, 1, 5), TD(WNN_DTYPE_F32, 2, 1, 4, 1)));
  CHECK(all_ops(TD(WNN_DTYPE_F32, 2, 5, 3, 3), TD(WNN_DTYPE_F32, 1, 5, 1, 1))); /* bias per channel */
  CHECK(all_ops(TD(WNN_DTYPE_F32, 4, 1), TD(WNN_DTYPE_F32, 4, 6)));
  CHECK(all_ops(TD(WNN_DTYPE_F32, 2, 0, 3), TD(WNN_DTYPE_F32, 3)));       /* empty */
}

TEST(output_shape) {
  op_case c;
  const wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 1, 4), TD(WNN_DTYPE_F32, 3, 1)};
  CHECK_OK(op_prepare(&c, "Add", NULL, 2, in, 1));
  CHECK(c.outputs[0].ndim == 3 && c.outputs[0].dims[0] == 2 && c.outputs[0].dims[1] == 3 &&
        c.outputs[0].dims[2] == 4);
}

TEST(in_place_style_aliasing) {
  /* The runtime may give an output the same buffer as input 0 of the same
   * shape; the result must not change. */
  op_case c;
  const wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 4), TD(WNN_DTYPE_F32, 4)};
  CHECK_OK(op_prepare(&c, "Sub", NULL, 2, in, 1));
  float a[12], a_copy[12], b[4], want[12];
  for (int i = 0; i < 12; i++) a[i] = a_copy[i] = lcg_float();
  for (int i = 0; i < 4; i++) b[i] = lcg_float();
  for (int i = 0; i < 12; i++) want[i] = a_copy[i] - b[i % 4];
  wnn_tensor ins[2] = {{a, WNN_DTYPE_F32, 2, c.inputs[0].dims}, {b, WNN_DTYPE_F32, 1, c.inputs[1].dims}};
  wnn_tensor outs[1] = {{a, WNN_DTYPE_F32, 2, c.outputs[0].dims}};
  wnn_run_ctx ctx = {c.params, 2, ins, 1, outs, NULL, NULL, 0};
  CHECK_OK(c.op->run(&ctx));
  CHECK(test_allclose(a, want, 12, 0.0f, 0.0f));
}

TEST(int_semantics) {
  /* Division truncates toward zero, x / 0 is 0, INT_MIN / -1 wraps; add wraps. */
  int32_t a[5] = {7, -7, 5, INT32_MIN, INT32_MAX}, b[5] = {2, 2, 0, -1, 1};
  void *in[2] = {a, b};
  op_case c;
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_I32, 5), TD(WNN_DTYPE_I32, 5)};
  const int32_t want_div[5] = {3, -3, 0, INT32_MIN, INT32_MAX};
  const int32_t want_add[5] = {9, -5, 5, INT32_MAX, INT32_MIN};
  const char *names[2] = {"Div", "Add"};
  const int32_t *wants[2] = {want_div, want_add};
  for (int k = 0; k < 2; k++) {
    CHECK_OK(op_prepare(&c, names[k], NULL, 2, d, 1));
    void *out[1];
    CHECK_OK(op_exec(&c, c.op->run, in, out));
    CHECK(memcmp(out[0], wants[k], sizeof want_div) == 0);
    free(out[0]);
    CHECK_OK(op_exec(&c, c.op->reference, in, out));
    CHECK(memcmp(out[0], wants[k], sizeof want_div) == 0);
    free(out[0]);
  }
  int64_t a64[3] = {INT64_MIN, 9, -9}, b64[3] = {-1, -4, 0};
  const int64_t want64[3] = {INT64_MIN, -2, 0};
  void *in64[2] = {a64, b64};
  const wnn_tdesc d64[2] = {TD(WNN_DTYPE_I64, 3), TD(WNN_DTYPE_I64, 3)};
  CHECK_OK(op_prepare(&c, "Div", NULL, 2, d64, 1));
  void *out[1];
  CHECK_OK(op_exec(&c, c.op->run, in64, out));
  CHECK(memcmp(out[0], want64, sizeof want64) == 0);
  free(out[0]);
  /* 8 bits: wrap-around, truncation, x / 0 is 0, -128 / -1 wraps. */
  uint8_t ua[4] = {250, 7, 200, 3}, ub[4] = {10, 2, 0, 200};
  const uint8_t u_add[4] = {4, 9, 200, 203}, u_sub[4] = {240, 5, 200, 59}, u_div[4] = {25, 3, 0, 0};
  int8_t sa[4] = {-128, -7, 100, 5}, sb[4] = {-1, 2, 100, 0};
  const int8_t s_div[4] = {-128, -3, 1, 0}, s_mul[4] = {-128, -14, 16, 0};
  const struct { const char *op; wnn_dtype dt; void *a, *b; const void *want; } cases[] = {
      {"Add", WNN_DTYPE_U8, ua, ub, u_add}, {"Sub", WNN_DTYPE_U8, ua, ub, u_sub},
      {"Div", WNN_DTYPE_U8, ua, ub, u_div}, {"Div", WNN_DTYPE_I8, sa, sb, s_div},
      {"Mul", WNN_DTYPE_I8, sa, sb, s_mul}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const wnn_tdesc d8[2] = {TD(cases[k].dt, 4), TD(cases[k].dt, 4)};
    void *in8[2] = {cases[k].a, cases[k].b};
    CHECK_OK(op_prepare(&c, cases[k].op, NULL, 2, d8, 1));
    CHECK_OK(op_exec(&c, c.op->run, in8, out));
    CHECK(memcmp(out[0], cases[k].want, 4) == 0);
    free(out[0]);
    CHECK_OK(op_exec(&c, c.op->reference, in8, out));
    CHECK(memcmp(out[0], cases[k].want, 4) == 0);
    free(out[0]);
  }
}

TEST(hand_computed_float) {
  float a[2] = {1.0f, -3.0f}, b[3] = {2.0f, 4.0f, 0.5f};
  void *in[2] = {a, b};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 2, 1), TD(WNN_DTYPE_F32, 3)};
  const float want[6] = {0.5f, 0.25f, 2.0f, -1.5f, -0.75f, -6.0f};
  CHECK(op_expect("Div", NULL, 2, d, in, want, 6, 0.0f));
}

TEST(rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_F32, 1)};
  CHECK(op_fails("Add", NULL, 2, in, 1, WNN_ERR_SHAPE, "[2, 3] and [4] do not broadcast"));
  in[1] = TD(WNN_DTYPE_I32, 3);
  CHECK(op_fails("Mul", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (B) is int32, expected float32"));
  in[0] = TD(WNN_DTYPE_BOOL, 3);
  CHECK(op_fails("Sub", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 0 (A) is bool"));
  CHECK(op_fails("Div", NULL, 3, in, 1, WNN_ERR_MALFORMED, "3 inputs"));
  CHECK(op_fails("Div", NULL, 1, in, 1, WNN_ERR_MALFORMED, "1 inputs"));
  CHECK(op_fails("Add", "{\"broadcast\":1}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "unknown attribute 'broadcast'"));
}

int main(void) {
  RUN(same_shape);
  RUN(scalars);
  RUN(broadcast_trailing_and_middle);
  RUN(output_shape);
  RUN(in_place_style_aliasing);
  RUN(int_semantics);
  RUN(hand_computed_float);
  RUN(rejects);
  return test_summary();
}
