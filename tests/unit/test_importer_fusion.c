/* The fused activation of Conv and Gemm ("activation", "activation_params",
 * src/ops/fused_activation.h), which the importer's fusion pass sets: run vs
 * reference for every activation and every Conv method, hand-computed values,
 * and the attribute errors. */
#include "../ops/op_harness.h"

#define RTOL 1e-5f
#define ATOL 1e-6f

static const char *const acts[] = {
    "{\"activation\":\"Relu\"}",
    "{\"activation\":\"Clip\",\"activation_params\":[-0.25,0.5]}",
    "{\"activation\":\"Sigmoid\"}",
    "{\"activation\":\"HardSigmoid\",\"activation_params\":[0.2,0.5]}",
    "{\"activation\":\"HardSwish\"}",
    "{\"activation\":\"LeakyRelu\",\"activation_params\":[0.1]}",
};
#define NUM_ACTS (int)(sizeof acts / sizeof acts[0])

/* acts[i] with extra Conv attributes merged in. */
static const char *with(char *buf, size_t cap, const char *act, const char *extra) {
  snprintf(buf, cap, "%.*s%s%s", (int)strlen(act) - 1, act, extra[0] ? "," : "", extra);
  strcat(buf, "}");
  return buf;
}

TEST(conv_every_activation_every_method) {
  static const char *const extras[] = {"\"pads\":[1,1,1,1]", "", "\"group\":4,\"pads\":[1,1,1,1]"};
  const wnn_tdesc ws[] = {TD(WNN_DTYPE_F32, 5, 4, 3, 3), TD(WNN_DTYPE_F32, 5, 4, 1, 1),
                          TD(WNN_DTYPE_F32, 4, 1, 3, 3)};
  for (int a = 0; a < NUM_ACTS; a++)
    for (int m = 0; m < 3; m++) {
      char attrs[256];
      const int64_t mo = ws[m].dims[0];
      const wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 4, 6, 7), ws[m], TD(WNN_DTYPE_F32, mo)};
      int ok = op_check("Conv", with(attrs, sizeof attrs, acts[a], extras[m]), 3, in, RTOL, ATOL);
      if (!ok) printf("  with %s\n", attrs);
      CHECK(ok);
    }
}

TEST(gemm_every_activation) {
  for (int a = 0; a < NUM_ACTS; a++) {
    char attrs[256];
    const wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 3, 5), TD(WNN_DTYPE_F32, 4, 5),
                             TD(WNN_DTYPE_F32, 4)};
    CHECK(op_check("Gemm", with(attrs, sizeof attrs, acts[a], "\"transB\":1"), 3, in, RTOL, ATOL));
  }
}

/* 1x1 Conv of one channel with weight 1 and bias -1 over x: y = act(x - 1). */
TEST(conv_values) {
  float x[6] = {-2.0f, 0.0f, 0.5f, 1.0f, 2.0f, 9.0f}, w[1] = {1.0f}, b[1] = {-1.0f};
  void *data[3] = {x, w, b};
  const wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 1, 2, 3), TD(WNN_DTYPE_F32, 1, 1, 1, 1),
                           TD(WNN_DTYPE_F32, 1)};
  const float relu[6] = {0, 0, 0, 0, 1, 8};
  const float clip[6] = {-1, -1, -0.5f, 0, 1, 2};
  const float leaky[6] = {-0.3f, -0.1f, -0.05f, 0, 1, 8};
  const float hsig[6] = {0, 0.3f, 0.4f, 0.5f, 0.7f, 1};
  const float hswish[6] = {0, -1.0f / 3, -0.5f * (-0.5f / 6 + 0.5f), 0, 1.0f * (1.0f / 6 + 0.5f), 8};
  CHECK(op_expect("Conv", "{\"activation\":\"Relu\"}", 3, in, data, relu, 6, 1e-6f));
  CHECK(op_expect("Conv", "{\"activation\":\"Clip\",\"activation_params\":[-1,2]}", 3, in, data,
                  clip, 6, 1e-6f));
  CHECK(op_expect("Conv", "{\"activation\":\"LeakyRelu\",\"activation_params\":[0.1]}", 3, in,
                  data, leaky, 6, 1e-6f));
  CHECK(op_expect("Conv", "{\"activation\":\"HardSigmoid\",\"activation_params\":[0.2,0.5]}", 3,
                  in, data, hsig, 6, 1e-6f));
  CHECK(op_expect("Conv", "{\"activation\":\"HardSwish\"}", 3, in, data, hswish, 6, 1e-6f));
}

TEST(gemm_values) {
  /* [1x2] x [2x2] + C, then Relu. */
  float a[2] = {1.0f, -2.0f}, b[4] = {1.0f, 2.0f, 3.0f, -4.0f}, c[2] = {0.5f, -0.5f};
  void *data[3] = {a, b, c};
  const wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 2), TD(WNN_DTYPE_F32, 2, 2), TD(WNN_DTYPE_F32, 2)};
  const float want[2] = {0.0f, 9.5f}; /* (1 - 6 + 0.5, 2 + 8 - 0.5) -> relu */
  CHECK(op_expect("Gemm", "{\"activation\":\"Relu\"}", 3, in, data, want, 2, 1e-6f));
}

TEST(attribute_errors) {
  const wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 2, 4, 4), TD(WNN_DTYPE_F32, 3, 2, 3, 3),
                           TD(WNN_DTYPE_F32, 3)};
  CHECK(op_fails("Conv", "{\"activation\":\"Tanh\"}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "activation 'Tanh'"));
  CHECK(op_fails("Conv", "{\"activation\":\"Clip\",\"activation_params\":[0]}", 3, in, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "Clip takes 2 activation_params, got 1"));
  CHECK(op_fails("Conv", "{\"activation_params\":[0.1]}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "without activation"));
  CHECK(op_fails("Conv", "{\"activation\":7}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE, "string"));
  const wnn_tdesc gin[2] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 3, 4)};
  CHECK(op_fails("Gemm", "{\"activation\":\"Relu\",\"activation_params\":[1]}", 2, gin, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "Relu takes 0 activation_params, got 1"));
}

int main(void) {
  RUN(conv_every_activation_every_method);
  RUN(gemm_every_activation);
  RUN(conv_values);
  RUN(gemm_values);
  RUN(attribute_errors);
  return test_summary();
}
