/* Softmax (opset 13: along one axis). The kernel uses expf in float, the
 * reference exp in double: rtol 1e-5, atol 1e-6. */
#include <math.h>

#include "op_harness.h"

TEST(axes) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 4, 5);
  const char *attrs[] = {NULL, "{\"axis\":-1}", "{\"axis\":0}", "{\"axis\":1}", "{\"axis\":2}",
                         "{\"axis\":-3}", "{\"axis\":3}"};
  for (int i = 0; i < 7; i++) CHECK(op_check("Softmax", attrs[i], 1, &x, 1e-5f, 1e-6f));
  const wnn_tdesc v = TD(WNN_DTYPE_F32, 1000);
  CHECK(op_check("Softmax", NULL, 1, &v, 1e-5f, 1e-6f));
  const wnn_tdesc one = TD(WNN_DTYPE_F32, 3, 1);
  CHECK(op_check("Softmax", NULL, 1, &one, 1e-5f, 1e-6f));
}

TEST(hand_computed) {
  /* softmax([0, ln 2, ln 5]) = [1, 2, 5] / 8; large values do not overflow. */
  float x[6] = {0.0f, 0.693147181f, 1.609437912f, 1000.0f, 1000.0f, 1000.0f};
  void *in[1] = {x};
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 2, 3);
  const float want[6] = {0.125f, 0.25f, 0.625f, 1.0f / 3, 1.0f / 3, 1.0f / 3};
  CHECK(op_expect("Softmax", NULL, 1, &d, in, want, 6, 1e-6f));
  /* axis 0 of [[0, 0], [ln 3, 0]]: columns [1/4, 3/4] and [1/2, 1/2]. */
  float y[4] = {0.0f, 0.0f, 1.098612289f, 0.0f};
  void *in2[1] = {y};
  const wnn_tdesc d2 = TD(WNN_DTYPE_F32, 2, 2);
  const float want2[4] = {0.25f, 0.5f, 0.75f, 0.5f};
  CHECK(op_expect("Softmax", "{\"axis\":0}", 1, &d2, in2, want2, 4, 1e-6f));
}

TEST(rejects) {
  wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3);
  CHECK(op_fails("Softmax", "{\"axis\":2}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "axis 2 out of range"));
  CHECK(op_fails("Softmax", "{\"axis\":-3}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "axis -3"));
  CHECK(op_fails("Softmax", "{\"dim\":1}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "unknown attribute"));
  x.dtype = WNN_DTYPE_I64;
  CHECK(op_fails("Softmax", NULL, 1, &x, 1, WNN_ERR_DTYPE, "input 0 (input) is int64"));
  x = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_fails("Softmax", NULL, 1, &x, 1, WNN_ERR_SHAPE, "scalar"));
}

/* --------------------------------------------------------------- Hardmax */

TEST(hardmax) {
  /* The first maximum wins. */
  float x[8] = {1, 3, 3, 2, -1, -5, -0.5f, -2};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 2, 4);
  void *data[1] = {x};
  const float last[8] = {0, 1, 0, 0, 0, 0, 1, 0}, first[8] = {1, 1, 1, 1, 0, 0, 0, 0};
  CHECK(op_check_data("Hardmax", NULL, 1, &in, data, 1, last, 8, 0, 0));
  CHECK(op_check_data("Hardmax", "{\"axis\":0}", 1, &in, data, 1, first, 8, 0, 0));
  const wnn_tdesc r = TD(WNN_DTYPE_F32, 3, 4, 5);
  for (int a = -3; a < 3; a++) {
    char attrs[32];
    snprintf(attrs, sizeof attrs, "{\"axis\":%d}", a);
    CHECK(op_check("Hardmax", attrs, 1, &r, 0, 0));
  }
  CHECK(op_check("Hardmax", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 0, 3)}, 0, 0));
  CHECK(op_fails("Hardmax", "{\"axis\":3}", 1, &r, 1, WNN_ERR_BAD_ATTRIBUTE, "axis"));
  CHECK(op_fails("Hardmax", NULL, 1, (wnn_tdesc[]){TD_SCALAR(WNN_DTYPE_F32)}, 1, WNN_ERR_SHAPE,
                 "scalar"));
  CHECK(op_fails("Hardmax", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_I64, 3)}, 1, WNN_ERR_DTYPE,
                 "Hardmax: input 0 (input) is int64"));
}

int main(void) {
  RUN(axes);
  RUN(hand_computed);
  RUN(rejects);
  RUN(hardmax);
  return test_summary();
}
