/* Element-wise math and activation ops (Exp ... Gelu), run vs reference on
 * awkward sizes, hand-computed values, and failures. Tolerances: ops that are
 * one correctly rounded float operation of the input (Neg, Abs, Floor, Ceil,
 * Sign, Round, Reciprocal, Sqrt) are exact against the double reference;
 * LeakyRelu, HardSigmoid, HardSwish and Softsign within 2 ulps (rtol 2.5e-7);
 * the C library's expf, logf, erff, tanhf, sinf, cosf, expm1f, log1pf
 * within rtol 1e-5 (a few ulps, plus one or two roundings of the float
 * formula), with atol 1e-6 for results near 0. */
#include <math.h>
#include <stdint.h>

#include "op_harness.h"

typedef struct unary_case {
  const char *name, *attrs;
  float rtol, atol;
  bool positive; /* domain is x > 0: feed (0, 2] */
} unary_case;

static const unary_case CASES[] = {
    {"Exp", NULL, 1e-5f, 1e-6f, false},       {"Log", NULL, 1e-5f, 1e-6f, true},
    {"Sqrt", NULL, 0, 0, true},               {"Neg", NULL, 0, 0, false},
    {"Abs", NULL, 0, 0, false},               {"Erf", NULL, 1e-5f, 1e-6f, false},
    {"Tanh", NULL, 1e-5f, 1e-6f, false},      {"Reciprocal", NULL, 0, 0, true},
    {"Floor", NULL, 0, 0, false},             {"Ceil", NULL, 0, 0, false},
    {"LeakyRelu", NULL, 2.5e-7f, 0, false},   {"LeakyRelu", "{\"alpha\":0.3}", 2.5e-7f, 0, false},
    {"HardSigmoid", NULL, 2.5e-7f, 1e-7f, false},
    {"HardSigmoid", "{\"alpha\":0.7,\"beta\":0.25}", 2.5e-7f, 1e-7f, false},
    {"HardSwish", NULL, 2.5e-7f, 1e-7f, false},
    {"Elu", NULL, 1e-5f, 1e-6f, false},       {"Elu", "{\"alpha\":0.5}", 1e-5f, 1e-6f, false},
    {"Selu", NULL, 1e-5f, 1e-6f, false},
    {"Selu", "{\"alpha\":2.0,\"gamma\":3.0}", 1e-5f, 1e-6f, false},
    {"Softplus", NULL, 1e-5f, 1e-6f, false},  {"Softsign", NULL, 2.5e-7f, 0, false},
    {"Sign", NULL, 0, 0, false},              {"Sin", NULL, 1e-5f, 1e-6f, false},
    {"Cos", NULL, 1e-5f, 1e-6f, false},       {"Round", NULL, 0, 0, false},
    {"Gelu", NULL, 1e-5f, 1e-6f, false},      {"Gelu", "{\"approximate\":\"tanh\"}", 1e-5f, 1e-6f, false},
    {"Gelu", "{\"approximate\":\"none\"}", 1e-5f, 1e-6f, false},
};

/* Runs one case on shape t with inputs scaled to [-4, 4) (or (0, 2]) so the
 * functions' interesting ranges (saturation, kinks at 0 and +-3) are hit. */
static int check_case(const unary_case *u, wnn_tdesc t) {
  const size_t n = (size_t)wnn_shape_numel(t.ndim, t.dims);
  float *x = malloc((n ? n : 1) * sizeof *x);
  for (size_t i = 0; i < n; i++) x[i] = u->positive ? 1.0f + lcg_float() + 1e-3f : 4.0f * lcg_float();
  t.data = x;
  const int ok = op_check(u->name, u->attrs, 1, &t, u->rtol, u->atol);
  free(x);
  return ok;
}

TEST(run_vs_reference_awkward_sizes) {
  const wnn_tdesc shapes[] = {TD(WNN_DTYPE_F32, 1),       TD(WNN_DTYPE_F32, 3),
                              TD(WNN_DTYPE_F32, 4),       TD(WNN_DTYPE_F32, 5),
                              TD(WNN_DTYPE_F32, 17),      TD(WNN_DTYPE_F32, 1001),
                              TD(WNN_DTYPE_F32, 2, 3, 5), TD_SCALAR(WNN_DTYPE_F32),
                              TD(WNN_DTYPE_F32, 2, 0, 3)};
  for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      if (!check_case(&CASES[c], shapes[s])) {
        printf("  failed: %s %s shape %zu\n", CASES[c].name, CASES[c].attrs ? CASES[c].attrs : "", s);
        CHECK(0);
      }
}

/* Both run and reference against values computed by hand (or from the
 * definitions with a calculator, to 9 digits). */
static int expect1(const char *name, const char *attrs, const float *x, const float *want,
                   size_t n, float tol) {
  wnn_tdesc d = TD(WNN_DTYPE_F32, 1);
  d.dims[0] = (int64_t)n;
  void *in[1] = {(void *)x};
  const int ok = op_expect(name, attrs, 1, &d, in, want, n, tol);
  if (!ok) printf("  expect %s %s failed\n", name, attrs ? attrs : "");
  return ok;
}

TEST(hand_computed) {
  const float x[6] = {-2.5f, -0.5f, 0.0f, 0.5f, 1.5f, 2.5f};
  CHECK(expect1("Neg", NULL, x, (const float[]){2.5f, 0.5f, -0.0f, -0.5f, -1.5f, -2.5f}, 6, 0));
  CHECK(expect1("Abs", NULL, x, (const float[]){2.5f, 0.5f, 0, 0.5f, 1.5f, 2.5f}, 6, 0));
  CHECK(expect1("Floor", NULL, x, (const float[]){-3, -1, 0, 0, 1, 2}, 6, 0));
  CHECK(expect1("Ceil", NULL, x, (const float[]){-2, -0.0f, 0, 1, 2, 3}, 6, 0));
  CHECK(expect1("Round", NULL, x, (const float[]){-2, -0.0f, 0, 0, 2, 2}, 6, 0)); /* half to even */
  CHECK(expect1("Sign", NULL, x, (const float[]){-1, -1, 0, 1, 1, 1}, 6, 0));
  CHECK(expect1("LeakyRelu", NULL, x, (const float[]){-0.025f, -0.005f, 0, 0.5f, 1.5f, 2.5f}, 6, 1e-8f));
  CHECK(expect1("LeakyRelu", "{\"alpha\":2}", x, (const float[]){-5, -1, 0, 0.5f, 1.5f, 2.5f}, 6, 0));
  /* HardSigmoid: max(0, min(1, 0.2x + 0.5)); HardSwish: x * max(0, min(1, x/6 + 0.5)). */
  CHECK(expect1("HardSigmoid", NULL, x, (const float[]){0.0f, 0.4f, 0.5f, 0.6f, 0.8f, 1.0f}, 6, 1e-7f));
  const float hs_x[5] = {-4.0f, -3.0f, -1.0f, 1.0f, 3.0f};
  CHECK(expect1("HardSwish", NULL, hs_x, (const float[]){0, 0, -1.0f / 3, 2.0f / 3, 3}, 5, 1e-7f));
  /* Elu(-1) = e^-1 - 1 = -0.632120559; Selu(-1) = 1.0507 * 1.67326 * (e^-1 - 1) = -1.11133074. */
  const float em[3] = {-1.0f, 0.0f, 2.0f};
  CHECK(expect1("Elu", NULL, em, (const float[]){-0.632120559f, 0, 2}, 3, 1e-7f));
  CHECK(expect1("Selu", NULL, em, (const float[]){-1.11133074f, 0, 2.10140204f}, 3, 1e-6f));
  CHECK(expect1("Exp", NULL, em, (const float[]){0.367879441f, 1, 7.3890561f}, 3, 1e-6f));
  CHECK(expect1("Tanh", NULL, em, (const float[]){-0.761594156f, 0, 0.964027580f}, 3, 1e-7f));
  CHECK(expect1("Erf", NULL, em, (const float[]){-0.842700793f, 0, 0.995322265f}, 3, 1e-7f));
  CHECK(expect1("Softplus", NULL, em, (const float[]){0.313261688f, 0.693147181f, 2.12692801f}, 3, 1e-6f));
  CHECK(expect1("Softsign", NULL, em, (const float[]){-0.5f, 0, 2.0f / 3}, 3, 1e-7f));
  CHECK(expect1("Sin", NULL, em, (const float[]){-0.841470985f, 0, 0.909297427f}, 3, 1e-7f));
  CHECK(expect1("Cos", NULL, em, (const float[]){0.540302306f, 1, -0.416146837f}, 3, 1e-7f));
  /* Gelu(-1) = -0.5 * (1 - erf(1/sqrt 2)) = -0.158655254; Gelu(2) = 1.95449974;
   * tanh form: -0.158808009, 1.95459769. */
  CHECK(expect1("Gelu", NULL, em, (const float[]){-0.158655254f, 0, 1.95449974f}, 3, 1e-6f));
  CHECK(expect1("Gelu", "{\"approximate\":\"tanh\"}", em,
                (const float[]){-0.158808009f, 0, 1.95459769f}, 3, 1e-6f));
  const float pos[3] = {0.25f, 1.0f, 4.0f};
  CHECK(expect1("Log", NULL, pos, (const float[]){-1.38629436f, 0, 1.38629436f}, 3, 1e-6f));
  CHECK(expect1("Sqrt", NULL, pos, (const float[]){0.5f, 1, 2}, 3, 0));
  CHECK(expect1("Reciprocal", NULL, pos, (const float[]){4, 1, 0.25f}, 3, 0));
}

TEST(special_values) {
  /* Softplus does not overflow for large x; Exp saturates to inf. */
  const float big[2] = {100.0f, -100.0f};
  CHECK(expect1("Softplus", NULL, big, (const float[]){100.0f, 3.7200760e-44f}, 2, 1e-6f));
  const float e[1] = {100.0f};
  op_case c;
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 1);
  CHECK_OK(op_prepare(&c, "Exp", NULL, 1, &d, 1));
  void *in[1] = {(void *)e}, *out[1];
  CHECK_OK(op_exec(&c, c.op->run, in, out));
  CHECK(isinf(((float *)out[0])[0]));
  free(out[0]);
}

TEST(integers) {
  /* Neg, Abs and Sign of int32 and int64 are exact; Neg and Abs of the
   * minimum wrap to the minimum. */
  static const char *const OPS[] = {"Neg", "Abs", "Sign"};
  for (int o = 0; o < 3; o++) {
    const wnn_tdesc shapes[3] = {TD(WNN_DTYPE_I32, 2, 3, 5), TD(WNN_DTYPE_I64, 17), TD_SCALAR(WNN_DTYPE_I64)};
    for (int s = 0; s < 3; s++) CHECK(op_check(OPS[o], NULL, 1, &shapes[s], 0, 0));
  }
  int32_t x[4] = {INT32_MIN, -7, 0, 9};
  int64_t xl[3] = {INT64_MIN, -2, 5};
  const int32_t want[3][4] = {{INT32_MIN, 7, 0, -9}, {INT32_MIN, 7, 0, 9}, {-1, -1, 0, 1}};
  const int64_t want_l[3][3] = {{INT64_MIN, 2, -5}, {INT64_MIN, 2, 5}, {-1, -1, 1}};
  const wnn_tdesc d = TD(WNN_DTYPE_I32, 4), dl = TD(WNN_DTYPE_I64, 3);
  for (int o = 0; o < 3; o++) {
    op_case c, cl;
    CHECK_OK(op_prepare(&c, OPS[o], NULL, 1, &d, 1));
    CHECK_OK(op_prepare(&cl, OPS[o], NULL, 1, &dl, 1));
    CHECK(c.outputs[0].dtype == WNN_DTYPE_I32 && cl.outputs[0].dtype == WNN_DTYPE_I64);
    for (int f = 0; f < 2; f++) {
      void *in[1] = {x}, *inl[1] = {xl}, *out[1];
      CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, in, out));
      CHECK(memcmp(out[0], want[o], sizeof want[o]) == 0);
      free(out[0]);
      CHECK_OK(op_exec(&cl, f ? cl.op->reference : cl.op->run, inl, out));
      CHECK(memcmp(out[0], want_l[o], sizeof want_l[o]) == 0);
      free(out[0]);
    }
  }
}

TEST(rejects) {
  wnn_tdesc in[2] = {TD(WNN_DTYPE_I32, 3), TD(WNN_DTYPE_F32, 3)};
  CHECK(op_fails("Exp", NULL, 1, in, 1, WNN_ERR_DTYPE, "Exp: input 0 (X) is int32, expected float32"));
  CHECK(op_fails("Gelu", NULL, 1, in, 1, WNN_ERR_DTYPE, "Gelu: input 0 (X) is int32"));
  const wnn_tdesc b = TD(WNN_DTYPE_BOOL, 3);
  CHECK(op_fails("Neg", NULL, 1, &b, 1, WNN_ERR_DTYPE,
                 "Neg: input 0 (X) is bool, expected float32, int32 or int64"));
  CHECK(op_fails("Tanh", NULL, 2, in, 1, WNN_ERR_MALFORMED, "2 inputs"));
  CHECK(op_fails("Sqrt", "{\"alpha\":1}", 1, &in[1], 1, WNN_ERR_BAD_ATTRIBUTE,
                 "Sqrt: unknown attribute 'alpha'"));
  CHECK(op_fails("LeakyRelu", "{\"alpha\":\"x\"}", 1, &in[1], 1, WNN_ERR_BAD_ATTRIBUTE, "alpha"));
  CHECK(op_fails("Gelu", "{\"approximate\":\"fast\"}", 1, &in[1], 1, WNN_ERR_BAD_ATTRIBUTE,
                 "Gelu: approximate is 'fast', expected 'none' or 'tanh'"));
  CHECK(op_fails("Selu", "{\"gamma\":[1]}", 1, &in[1], 1, WNN_ERR_BAD_ATTRIBUTE, "gamma"));
}

/* ---------------------------------------------------- element-wise ops */

TEST(elementwise_vs_reference) {
  /* Inputs in [-1, 1): inside every domain but Acosh's (checked below). */
  static const char *const OPS[] = {"Acos", "Asin", "Asinh", "Atan", "Atanh", "Cosh",
                                    "Sinh", "Tan",  "ThresholdedRelu", "Shrink", "Celu"};
  const wnn_tdesc x[2] = {TD(WNN_DTYPE_F32, 3, 7, 5), TD(WNN_DTYPE_F32, 1)};
  for (size_t o = 0; o < sizeof OPS / sizeof OPS[0]; o++)
    for (int s = 0; s < 2; s++) CHECK(op_check(OPS[o], NULL, 1, &x[s], 1e-5f, 1e-6f));
  CHECK(op_check("ThresholdedRelu", "{\"alpha\":0.25}", 1, x, 0, 0));
  CHECK(op_check("Shrink", "{\"lambd\":0.3,\"bias\":0.1}", 1, x, 1e-6f, 1e-6f));
  CHECK(op_check("Celu", "{\"alpha\":0.5}", 1, x, 1e-5f, 1e-6f));
  float big[8];
  for (int i = 0; i < 8; i++) big[i] = 1.0f + 3.0f * (float)i;
  wnn_tdesc b = TD(WNN_DTYPE_F32, 8);
  void *d[1] = {big};
  CHECK(op_check_data("Acosh", NULL, 1, &b, d, 1, NULL, 0, 1e-5f, 1e-6f));
  CHECK(op_check_data("Cosh", NULL, 1, &b, d, 1, NULL, 0, 1e-5f, 1e-6f));
}

TEST(elementwise_hand_computed) {
  float x[5] = {-2, -1, 0, 1, 2};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 5);
  void *data[1] = {x};
  /* The ONNX examples. */
  const float thr[5] = {0, 0, 0, 0, 0}, thr_half[5] = {0, 0, 0, 1, 2};
  CHECK(op_check_data("ThresholdedRelu", "{\"alpha\":2.0}", 1, &in, data, 1, thr, 5, 0, 0));
  CHECK(op_check_data("ThresholdedRelu", "{\"alpha\":0.5}", 1, &in, data, 1, thr_half, 5, 0, 0));
  const float hard[5] = {-2, 0, 0, 0, 2}, soft[5] = {-0.5f, 0, 0, 0, 0.5f};
  CHECK(op_check_data("Shrink", "{\"lambd\":1.5}", 1, &in, data, 1, hard, 5, 0, 0));
  CHECK(op_check_data("Shrink", "{\"lambd\":1.5,\"bias\":1.5}", 1, &in, data, 1, soft, 5, 0, 0));
  const float celu2[5] = {(float)(2 * expm1(-1.0)), (float)(2 * expm1(-0.5)), 0, 1, 2};
  CHECK(op_check_data("Celu", "{\"alpha\":2.0}", 1, &in, data, 1, celu2, 5, 1e-6f, 1e-7f));
  float u[3] = {-0.5f, 0, 0.5f};
  wnn_tdesc ui = TD(WNN_DTYPE_F32, 3);
  void *ud[1] = {u};
  const float acos_w[3] = {(float)acos(-0.5), (float)acos(0.0), (float)acos(0.5)};
  const float atanh_w[3] = {(float)atanh(-0.5), 0, (float)atanh(0.5)};
  const float tan_w[3] = {(float)tan(-0.5), 0, (float)tan(0.5)};
  CHECK(op_check_data("Acos", NULL, 1, &ui, ud, 1, acos_w, 3, 1e-6f, 1e-7f));
  CHECK(op_check_data("Atanh", NULL, 1, &ui, ud, 1, atanh_w, 3, 1e-6f, 1e-7f));
  CHECK(op_check_data("Tan", NULL, 1, &ui, ud, 1, tan_w, 3, 1e-6f, 1e-7f));
  /* Outside the domain: NaN. */
  float out_dom[1] = {2};
  wnn_tdesc one = TD(WNN_DTYPE_F32, 1);
  op_case c;
  CHECK_OK(op_prepare(&c, "Asin", NULL, 1, &one, 1));
  void *od[1] = {out_dom}, *res[1];
  CHECK_OK(op_exec(&c, c.op->run, od, res));
  CHECK(isnan(((float *)res[0])[0]));
  free(res[0]);
  CHECK(op_fails("Celu", "{\"alpha\":0.0}", 1, &one, 1, WNN_ERR_BAD_ATTRIBUTE, "Celu: alpha is 0"));
  CHECK(op_fails("Shrink", "{\"lambd\":\"x\"}", 1, &one, 1, WNN_ERR_BAD_ATTRIBUTE, "lambd"));
  CHECK(op_fails("Sinh", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_I32, 2)}, 1, WNN_ERR_DTYPE,
                 "Sinh: input 0 (X) is int32"));
}

int main(void) {
  RUN(run_vs_reference_awkward_sizes);
  RUN(hand_computed);
  RUN(special_values);
  RUN(integers);
  RUN(rejects);
  RUN(elementwise_vs_reference);
  RUN(elementwise_hand_computed);
  return test_summary();
}
