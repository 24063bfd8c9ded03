/* CumSum, Hardmax, ReduceLogSum, the element-wise ops of math_more.c
 * (Acos ... Tan, ThresholdedRelu, Shrink, Celu), EyeLike, QuantizeLinear,
 * DequantizeLinear, DynamicQuantizeLinear, integer Clip, the window functions,
 * Det, BitShift, MeanVarianceNormalization, Compress, ReverseSequence, DFT,
 * STFT and MelWeightMatrix:
 * hand-computed values (from the
 * ONNX definitions and their examples), run vs reference (double) on random
 * inputs, failures. Float results within rtol 1e-5 / atol 1e-6 of the
 * reference unless a test says otherwise; integer and quantized results
 * exactly. */
#include <math.h>
#include <stdint.h>

#include "op_harness.h"

/* Runs run and reference on the given buffers and compares output o of the
 * two (floats: allclose rtol/atol; others: bytes) and, when want is not NULL,
 * run's output o with want (count elements of the output dtype, bytewise for
 * non-floats). */
static int check_data(const char *name, const char *attrs, int nin, const wnn_tdesc *in,
                      void *const *data, int nout, const void *want, size_t count, float rtol,
                      float atol) {
  op_case c;
  if (op_prepare(&c, name, attrs, nin, in, nout) != WNN_OK) {
    printf("  %s: prepare %s %s failed: %s\n", test_current_, name, attrs ? attrs : "", c.msg);
    return 0;
  }
  void *got[3] = {0}, *ref[3] = {0};
  int ok = op_exec(&c, c.op->run, data, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, data, ref) == WNN_OK && ok;
  for (int o = 0; ok && o < nout; o++)
    ok = outputs_match(&c.outputs[o], got[o], ref[o], rtol, atol);
  if (ok && want) {
    const wnn_tdesc *t = &c.outputs[0];
    const size_t n = (size_t)wnn_shape_numel(t->ndim, t->dims);
    if (n != count) {
      printf("  %s: %zu outputs, expected %zu\n", test_current_, n, count);
      ok = 0;
    } else if (t->dtype == WNN_DTYPE_F32) {
      ok = test_allclose(got[0], want, n, rtol, atol);
    } else if (memcmp(got[0], want, td_bytes(t)) != 0) {
      printf("  %s: output differs from the expected values\n", test_current_);
      ok = 0;
    }
  }
  if (!ok) printf("  %s: mismatch for %s %s\n", test_current_, name, attrs ? attrs : "");
  for (int o = 0; o < nout; o++) free(got[o]), free(ref[o]);
  return ok;
}

/* ---------------------------------------------------------------- CumSum */

static wnn_tdesc axis_const(const int64_t *axis) {
  wnn_tdesc t = TD_SCALAR(WNN_DTYPE_I64);
  t.data = axis;
  return t;
}

TEST(cumsum_hand_computed) {
  float x[5] = {1, 2, 3, 4, 5};
  static const int64_t zero = 0;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 5), axis_const(&zero)};
  void *data[2] = {x, (void *)&zero};
  const float plain[5] = {1, 3, 6, 10, 15}, excl[5] = {0, 1, 3, 6, 10};
  const float rev[5] = {15, 14, 12, 9, 5}, rev_excl[5] = {14, 12, 9, 5, 0};
  CHECK(check_data("CumSum", NULL, 2, in, data, 1, plain, 5, 0, 0));
  CHECK(check_data("CumSum", "{\"exclusive\":1}", 2, in, data, 1, excl, 5, 0, 0));
  CHECK(check_data("CumSum", "{\"reverse\":1}", 2, in, data, 1, rev, 5, 0, 0));
  CHECK(check_data("CumSum", "{\"exclusive\":1,\"reverse\":1}", 2, in, data, 1, rev_excl, 5, 0, 0));
  /* 2-D, axis 0, 1 and -1 (an int32 axis). */
  float m[6] = {1, 2, 3, 4, 5, 6};
  static const int32_t ax1 = 1, axm1 = -1;
  static const int64_t ax0 = 0;
  wnn_tdesc in2[2] = {TD(WNN_DTYPE_F32, 2, 3), axis_const(&ax0)};
  void *d2[2] = {m, (void *)&ax0};
  const float a0[6] = {1, 2, 3, 5, 7, 9}, a1[6] = {1, 3, 6, 4, 9, 15};
  CHECK(check_data("CumSum", NULL, 2, in2, d2, 1, a0, 6, 0, 0));
  in2[1] = TD_SCALAR(WNN_DTYPE_I32);
  in2[1].data = &ax1;
  d2[1] = (void *)&ax1;
  CHECK(check_data("CumSum", NULL, 2, in2, d2, 1, a1, 6, 0, 0));
  in2[1].data = &axm1;
  d2[1] = (void *)&axm1;
  CHECK(check_data("CumSum", NULL, 2, in2, d2, 1, a1, 6, 0, 0));
  /* int32 wraps; int64 exact. */
  int32_t xi[3] = {INT32_MAX, 1, 5};
  const int32_t wi[3] = {INT32_MAX, INT32_MIN, INT32_MIN + 5};
  wnn_tdesc ini[2] = {TD(WNN_DTYPE_I32, 3), axis_const(&zero)};
  void *di[2] = {xi, (void *)&zero};
  CHECK(check_data("CumSum", NULL, 2, ini, di, 1, wi, 3, 0, 0));
  int64_t xl[3] = {-7, 1LL << 40, 3};
  const int64_t wl[3] = {(1LL << 40) - 4, (1LL << 40) + 3, 3};
  ini[0].dtype = WNN_DTYPE_I64;
  di[0] = xl;
  CHECK(check_data("CumSum", "{\"reverse\":1}", 2, ini, di, 1, wl, 3, 0, 0));
}

TEST(cumsum_vs_reference) {
  static const char *const ATTRS[4] = {NULL, "{\"exclusive\":1}", "{\"reverse\":1}",
                                       "{\"exclusive\":1,\"reverse\":1}"};
  static const int64_t axes[4] = {0, 1, 2, -2};
  const wnn_dtype dts[3] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64};
  for (int t = 0; t < 3; t++)
    for (int a = 0; a < 4; a++)
      for (int f = 0; f < 4; f++) {
        wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 17, 5), axis_const(&axes[a])};
        in[0].dtype = dts[t];
        CHECK(op_check("CumSum", ATTRS[f], 2, in, 1e-5f, 1e-5f));
      }
  /* A size-0 axis and a long line. */
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 4, 0, 3), axis_const(&axes[1])};
  CHECK(op_check("CumSum", NULL, 2, in, 0, 0));
  in[0] = TD(WNN_DTYPE_F32, 1000);
  in[1] = axis_const(&axes[0]);
  CHECK(op_check("CumSum", "{\"reverse\":1}", 2, in, 1e-4f, 1e-4f));
}

TEST(cumsum_rejects) {
  static const int64_t zero = 0, three = 3;
  static const float fzero = 0;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3), TD_SCALAR(WNN_DTYPE_I64)};
  CHECK(op_fails("CumSum", NULL, 2, in, 1, WNN_ERR_UNSUPPORTED,
                 "CumSum: input 1 (axis) must be a constant"));
  in[1].data = &three;
  CHECK(op_fails("CumSum", NULL, 2, in, 1, WNN_ERR_OUT_OF_RANGE, "input 1 (axis) is 3"));
  in[1].data = &zero;
  CHECK(op_fails("CumSum", "{\"exclusive\":2}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "exclusive"));
  CHECK(op_fails("CumSum", "{\"axis\":0}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "unknown attribute 'axis'"));
  in[1] = TD(WNN_DTYPE_I64, 2);
  in[1].data = (const int64_t[]){0, 1};
  CHECK(op_fails("CumSum", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (axis) must be a scalar"));
  in[1] = TD_SCALAR(WNN_DTYPE_F32);
  in[1].data = &fzero;
  CHECK(op_fails("CumSum", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (axis) is float32"));
  in[0].dtype = WNN_DTYPE_BOOL;
  in[1] = axis_const(&zero);
  CHECK(op_fails("CumSum", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 0 (x) is bool"));
  in[0] = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_fails("CumSum", NULL, 2, in, 1, WNN_ERR_SHAPE, "scalar"));
}

/* --------------------------------------------------------------- Hardmax */

TEST(hardmax) {
  /* The first maximum wins. */
  float x[8] = {1, 3, 3, 2, -1, -5, -0.5f, -2};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 2, 4);
  void *data[1] = {x};
  const float last[8] = {0, 1, 0, 0, 0, 0, 1, 0}, first[8] = {1, 1, 1, 1, 0, 0, 0, 0};
  CHECK(check_data("Hardmax", NULL, 1, &in, data, 1, last, 8, 0, 0));
  CHECK(check_data("Hardmax", "{\"axis\":0}", 1, &in, data, 1, first, 8, 0, 0));
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

/* ---------------------------------------------------------- ReduceLogSum */

TEST(reducelogsum) {
  float x[4] = {1, 2, 3, 4};
  static const int64_t ax1[1] = {1}, ax01[2] = {0, -1}, none[1] = {0};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 2), TD(WNN_DTYPE_I64, 1)};
  in[1].data = ax1;
  void *data[2] = {x, (void *)ax1};
  const float rows[2] = {logf(3), logf(7)}, all = logf(10);
  CHECK(check_data("ReduceLogSum", NULL, 2, in, data, 1, rows, 2, 1e-6f, 1e-6f));
  in[1] = TD(WNN_DTYPE_I64, 2);
  in[1].data = ax01;
  data[1] = (void *)ax01;
  CHECK(check_data("ReduceLogSum", "{\"keepdims\":0}", 2, in, data, 1, &all, 1, 1e-6f, 1e-6f));
  CHECK(check_data("ReduceLogSum", NULL, 1, in, data, 1, &all, 1, 1e-6f, 1e-6f)); /* all axes */
  in[1] = TD(WNN_DTYPE_I64, 0);
  in[1].data = none;
  CHECK(check_data("ReduceLogSum", "{\"noop_with_empty_axes\":1}", 2, in, data, 1, x, 4, 0, 0));
  /* vs reference on positive inputs (the log of a sum of |x| + 0.1). */
  static const int64_t a02[2] = {0, 2}, a1[1] = {1};
  const int64_t *sets[2] = {a02, a1};
  const int counts[2] = {2, 1};
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < 2; k++) {
      wnn_tdesc r[2] = {TD(WNN_DTYPE_F32, 3, 4, 5), TD(WNN_DTYPE_I64, 1)};
      r[1].dims[0] = counts[s];
      r[1].data = sets[s];
      float xs[60];
      for (int i = 0; i < 60; i++) xs[i] = fabsf(lcg_float()) + 0.1f;
      void *d[2] = {xs, (void *)sets[s]};
      CHECK(check_data("ReduceLogSum", k ? "{\"keepdims\":0}" : NULL, 2, r, d, 1, NULL, 0, 1e-5f,
                       1e-6f));
    }
  CHECK(op_fails("ReduceLogSum", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_I32, 3)}, 1, WNN_ERR_DTYPE,
                 "ReduceLogSum: input 0 (data) is int32, expected float32"));
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
  CHECK(check_data("Acosh", NULL, 1, &b, d, 1, NULL, 0, 1e-5f, 1e-6f));
  CHECK(check_data("Cosh", NULL, 1, &b, d, 1, NULL, 0, 1e-5f, 1e-6f));
}

TEST(elementwise_hand_computed) {
  float x[5] = {-2, -1, 0, 1, 2};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 5);
  void *data[1] = {x};
  /* The ONNX examples. */
  const float thr[5] = {0, 0, 0, 0, 0}, thr_half[5] = {0, 0, 0, 1, 2};
  CHECK(check_data("ThresholdedRelu", "{\"alpha\":2.0}", 1, &in, data, 1, thr, 5, 0, 0));
  CHECK(check_data("ThresholdedRelu", "{\"alpha\":0.5}", 1, &in, data, 1, thr_half, 5, 0, 0));
  const float hard[5] = {-2, 0, 0, 0, 2}, soft[5] = {-0.5f, 0, 0, 0, 0.5f};
  CHECK(check_data("Shrink", "{\"lambd\":1.5}", 1, &in, data, 1, hard, 5, 0, 0));
  CHECK(check_data("Shrink", "{\"lambd\":1.5,\"bias\":1.5}", 1, &in, data, 1, soft, 5, 0, 0));
  const float celu2[5] = {(float)(2 * expm1(-1.0)), (float)(2 * expm1(-0.5)), 0, 1, 2};
  CHECK(check_data("Celu", "{\"alpha\":2.0}", 1, &in, data, 1, celu2, 5, 1e-6f, 1e-7f));
  float u[3] = {-0.5f, 0, 0.5f};
  wnn_tdesc ui = TD(WNN_DTYPE_F32, 3);
  void *ud[1] = {u};
  const float acos_w[3] = {(float)acos(-0.5), (float)acos(0.0), (float)acos(0.5)};
  const float atanh_w[3] = {(float)atanh(-0.5), 0, (float)atanh(0.5)};
  const float tan_w[3] = {(float)tan(-0.5), 0, (float)tan(0.5)};
  CHECK(check_data("Acos", NULL, 1, &ui, ud, 1, acos_w, 3, 1e-6f, 1e-7f));
  CHECK(check_data("Atanh", NULL, 1, &ui, ud, 1, atanh_w, 3, 1e-6f, 1e-7f));
  CHECK(check_data("Tan", NULL, 1, &ui, ud, 1, tan_w, 3, 1e-6f, 1e-7f));
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

/* --------------------------------------------------------------- EyeLike */

TEST(eyelike) {
  wnn_tdesc in = TD(WNN_DTYPE_I32, 3, 4);
  int32_t dummy[12] = {0};
  void *data[1] = {dummy};
  const int32_t i32[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  CHECK(check_data("EyeLike", NULL, 1, &in, data, 1, i32, 12, 0, 0));
  const float up[12] = {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  CHECK(check_data("EyeLike", "{\"k\":1,\"dtype\":1}", 1, &in, data, 1, up, 12, 0, 0));
  const int64_t down[12] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  CHECK(check_data("EyeLike", "{\"k\":-2,\"dtype\":7}", 1, &in, data, 1, down, 12, 0, 0));
  const float zeros[12] = {0};
  CHECK(check_data("EyeLike", "{\"k\":4,\"dtype\":11}", 1, &in, data, 1, zeros, 12, 0, 0));
  const unsigned char b[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  CHECK(check_data("EyeLike", "{\"dtype\":9}", 1, &in, data, 1, b, 12, 0, 0));
  CHECK(op_fails("EyeLike", "{\"dtype\":8}", 1, &in, 1, WNN_ERR_UNSUPPORTED, "dtype = 8"));
  CHECK(op_fails("EyeLike", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 2, 2)}, 1, WNN_ERR_SHAPE,
                 "EyeLike: input 0 (input) has 3 dims, expected 2"));
}

/* --------------------------------------- QuantizeLinear, DequantizeLinear */

TEST(quantize_hand_computed) {
  /* The ONNX example: scale 2, zero point 128; 1.5 rounds to even (2). */
  float x[6] = {0, 2, 3, 1000, -254, -1000}, scale = 2;
  uint8_t zp = 128;
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 6), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8)};
  void *data[3] = {x, &scale, &zp};
  const uint8_t want[6] = {128, 129, 130, 255, 1, 0};
  CHECK(check_data("QuantizeLinear", NULL, 3, in, data, 1, want, 6, 0, 0));
  /* Without a zero point: uint8, zero point 0. */
  const uint8_t want0[6] = {0, 1, 2, 255, 0, 0};
  CHECK(check_data("QuantizeLinear", NULL, 2, in, data, 1, want0, 6, 0, 0));
  /* int8, zero point -1; 5 / 2 = 2.5 rounds to 2. */
  float xs[5] = {5, -5, 300, -300, 0.9f};
  int8_t zs = -1;
  wnn_tdesc ins[3] = {TD(WNN_DTYPE_F32, 5), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_I8)};
  void *ds[3] = {xs, &scale, &zs};
  const int8_t wants[5] = {1, -3, 127, -128, -1};
  CHECK(check_data("QuantizeLinear", NULL, 3, ins, ds, 1, wants, 5, 0, 0));
  CHECK(check_data("QuantizeLinear", "{\"output_dtype\":3}", 3, ins, ds, 1, wants, 5, 0, 0));
  /* Dequantize: the ONNX example. */
  uint8_t q[4] = {0, 3, 128, 255};
  wnn_tdesc dq[3] = {TD(WNN_DTYPE_U8, 4), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8)};
  void *dd[3] = {q, &scale, &zp};
  const float deq[4] = {-256, -250, 0, 254};
  CHECK(check_data("DequantizeLinear", NULL, 3, dq, dd, 1, deq, 4, 0, 0));
  int32_t q32[3] = {-7, 0, 1 << 20};
  wnn_tdesc d32[2] = {TD(WNN_DTYPE_I32, 3), TD_SCALAR(WNN_DTYPE_F32)};
  void *dd32[2] = {q32, &scale};
  const float deq32[3] = {-14, 0, 2097152};
  CHECK(check_data("DequantizeLinear", NULL, 2, d32, dd32, 1, deq32, 3, 0, 0));
}

TEST(quantize_per_axis) {
  /* x [2, 3, 4] along axis 1 (the default) and axis -1, vs reference. */
  const wnn_dtype zdts[2] = {WNN_DTYPE_U8, WNN_DTYPE_I8};
  for (int z = 0; z < 2; z++)
    for (int a = 0; a < 2; a++) {
      const int64_t n = a ? 4 : 3;
      wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 1), TD(WNN_DTYPE_U8, 1)};
      in[1].dims[0] = in[2].dims[0] = n;
      in[2].dtype = zdts[z];
      float x[24], s[4];
      unsigned char zp[4];
      for (int i = 0; i < 24; i++) x[i] = 200.0f * lcg_float();
      for (int i = 0; i < 4; i++)
        s[i] = 0.5f + (float)i, zp[i] = (unsigned char)(z ? -3 + i : 100 + i);
      void *data[3] = {x, s, zp};
      const char *attrs = a ? "{\"axis\":-1}" : NULL;
      CHECK(check_data("QuantizeLinear", attrs, 3, in, data, 1, NULL, 0, 0, 0));
      /* and back */
      op_case c;
      CHECK_OK(op_prepare(&c, "QuantizeLinear", attrs, 3, in, 1));
      void *q[1];
      CHECK_OK(op_exec(&c, c.op->run, data, q));
      wnn_tdesc din[3] = {c.outputs[0], in[1], in[2]};
      void *dd[3] = {q[0], s, zp};
      CHECK(check_data("DequantizeLinear", attrs, 3, din, dd, 1, NULL, 0, 0, 0));
      /* every value within half a step of x, unless saturated */
      op_case dc;
      CHECK_OK(op_prepare(&dc, "DequantizeLinear", attrs, 3, din, 1));
      void *y[1];
      CHECK_OK(op_exec(&dc, dc.op->run, dd, y));
      int close = 1;
      for (int i = 0; i < 24; i++) {
        const int ax = a ? i % 4 : i / 4 % 3;
        const int qi = z ? ((int8_t *)q[0])[i] : ((uint8_t *)q[0])[i];
        const int sat = z ? (qi == -128 || qi == 127) : (qi == 0 || qi == 255);
        if (!sat && fabsf(((float *)y[0])[i] - x[i]) > 0.5f * s[ax] + 1e-4f) close = 0;
      }
      CHECK(close);
      free(q[0]);
      free(y[0]);
    }
}

TEST(quantize_rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_U8, 3)};
  CHECK(op_fails("QuantizeLinear", "{\"block_size\":2}", 3, in, 1, WNN_ERR_UNSUPPORTED,
                 "block_size = 2"));
  CHECK(op_fails("QuantizeLinear", "{\"output_dtype\":1}", 3, in, 1, WNN_ERR_UNSUPPORTED,
                 "output_dtype = 1"));
  CHECK(op_fails("QuantizeLinear", "{\"output_dtype\":3}", 3, in, 1, WNN_ERR_DTYPE,
                 "output_dtype = 3 asks for int8"));
  CHECK(op_fails("QuantizeLinear", "{\"axis\":0}", 3, in, 1, WNN_ERR_SHAPE,
                 "input 1 (y_scale) has shape [3], expected a scalar or [2]"));
  CHECK(op_fails("QuantizeLinear", "{\"axis\":2}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axis"));
  wnn_tdesc bad[3] = {in[0], in[1], TD(WNN_DTYPE_I32, 3)};
  CHECK(op_fails("QuantizeLinear", NULL, 3, bad, 1, WNN_ERR_DTYPE,
                 "input 2 (y_zero_point) is int32, expected uint8 or int8"));
  bad[2] = TD(WNN_DTYPE_U8, 2);
  CHECK(op_fails("QuantizeLinear", NULL, 3, bad, 1, WNN_ERR_SHAPE, "input 2 (y_zero_point)"));
  bad[0] = TD(WNN_DTYPE_I8, 2, 3);
  CHECK(op_fails("QuantizeLinear", NULL, 2, bad, 1, WNN_ERR_DTYPE, "input 0 (x) is int8"));
  wnn_tdesc dq[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_U8, 3)};
  CHECK(op_fails("DequantizeLinear", NULL, 3, dq, 1, WNN_ERR_DTYPE,
                 "DequantizeLinear: input 0 (x) is float32, expected uint8, int8 or int32"));
  dq[0].dtype = WNN_DTYPE_I8;
  CHECK(op_fails("DequantizeLinear", NULL, 3, dq, 1, WNN_ERR_DTYPE,
                 "input 2 (x_zero_point) is uint8, expected int8"));
  dq[1].dtype = WNN_DTYPE_I64;
  CHECK(op_fails("DequantizeLinear", NULL, 2, dq, 1, WNN_ERR_DTYPE, "input 1 (x_scale) is int64"));
}

TEST(dynamic_quantize) {
  /* The ONNX example: range [-3, 2], scale 5 / 255, zero point 153. */
  float x[6] = {0, 2, -3, -2.5f, 1.34f, 0.5f};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 6);
  void *data[1] = {x};
  const uint8_t want[6] = {153, 255, 0, 26, 221, 179};
  CHECK(check_data("DynamicQuantizeLinear", NULL, 1, &in, data, 3, want, 6, 0, 0));
  op_case c;
  CHECK_OK(op_prepare(&c, "DynamicQuantizeLinear", NULL, 1, &in, 3));
  CHECK(c.outputs[1].ndim == 0 && c.outputs[1].dtype == WNN_DTYPE_F32);
  CHECK(c.outputs[2].ndim == 0 && c.outputs[2].dtype == WNN_DTYPE_U8);
  void *out[3];
  CHECK_OK(op_exec(&c, c.op->run, data, out));
  CHECK(*(float *)out[1] == 5.0f / 255.0f);
  CHECK(*(uint8_t *)out[2] == 153);
  for (int i = 0; i < 3; i++) free(out[i]);
  /* Only positive values: zero point 0; all zeros: scale 0, y 0. */
  float pos[3] = {1, 2, 255}, zeros[3] = {0, 0, 0};
  const uint8_t want_pos[3] = {1, 2, 255}, want_zero[3] = {0, 0, 0};
  wnn_tdesc in3 = TD(WNN_DTYPE_F32, 3);
  void *dp[1] = {pos}, *dz[1] = {zeros};
  CHECK(check_data("DynamicQuantizeLinear", NULL, 1, &in3, dp, 3, want_pos, 3, 0, 0));
  CHECK(check_data("DynamicQuantizeLinear", NULL, 1, &in3, dz, 3, want_zero, 3, 0, 0));
  /* vs reference on random data. */
  const wnn_tdesc r = TD(WNN_DTYPE_F32, 4, 33);
  float xr[132];
  for (int i = 0; i < 132; i++) xr[i] = 10.0f * lcg_float() + 2.0f;
  void *dr[1] = {xr};
  CHECK(check_data("DynamicQuantizeLinear", NULL, 1, &r, dr, 3, NULL, 0, 0, 0));
  CHECK(op_fails("DynamicQuantizeLinear", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_I32, 2)}, 3,
                 WNN_ERR_DTYPE, "DynamicQuantizeLinear: input 0 (x) is int32"));
  CHECK(op_fails("DynamicQuantizeLinear", NULL, 1, &in, 1, WNN_ERR_MALFORMED, "1 outputs"));
}

/* Integer Clip lives in src/ops/unary.c; its reference (src/ref/ref_elementwise.c)
 * is float-only, so run is checked against hand-computed values. */
static int clip_int_case(wnn_dtype dt, const void *x, const void *lo, const void *hi,
                         const void *want, int n) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_I8, 1), TD_SCALAR(WNN_DTYPE_I8), TD_SCALAR(WNN_DTYPE_I8)};
  in[0].dims[0] = n;
  in[0].dtype = in[1].dtype = in[2].dtype = dt;
  if (!lo) in[1] = TD_OMITTED;
  op_case c;
  if (op_prepare(&c, "Clip", NULL, hi ? 3 : 2, in, 1) != WNN_OK) {
    printf("  %s: prepare failed: %s\n", test_current_, c.msg);
    return 0;
  }
  if (c.outputs[0].dtype != dt) return 0;
  void *data[3] = {(void *)x, (void *)lo, (void *)hi}, *out[1];
  int ok = op_exec(&c, c.op->run, data, out) == WNN_OK;
  ok = ok && memcmp(out[0], want, (size_t)n * wnn_dtype_size(dt)) == 0;
  free(out[0]);
  return ok;
}

TEST(clip_integers) {
  const int8_t x8[5] = {-128, -3, 0, 5, 127}, lo8 = -2, hi8 = 4;
  const int8_t w8[5] = {-2, -2, 0, 4, 4}, wmin8[5] = {-2, -2, 0, 5, 127};
  const int8_t wmax8[5] = {-128, -3, 0, 4, 4};
  CHECK(clip_int_case(WNN_DTYPE_I8, x8, &lo8, &hi8, w8, 5));
  CHECK(clip_int_case(WNN_DTYPE_I8, x8, &lo8, NULL, wmin8, 5)); /* min only */
  CHECK(clip_int_case(WNN_DTYPE_I8, x8, NULL, &hi8, wmax8, 5)); /* max only (min omitted) */
  const uint8_t xu[3] = {0, 100, 255}, lou = 10, hiu = 200, wu[3] = {10, 100, 200};
  CHECK(clip_int_case(WNN_DTYPE_U8, xu, &lou, &hiu, wu, 3));
  const int32_t x32[3] = {INT32_MIN, 7, INT32_MAX}, lo32 = -5, w32[3] = {-5, 7, INT32_MAX};
  CHECK(clip_int_case(WNN_DTYPE_I32, x32, &lo32, NULL, w32, 3));
  const int64_t x64[3] = {-(1LL << 40), 0, 1LL << 40}, hi64 = 1LL << 35;
  const int64_t w64[3] = {-(1LL << 40), 0, 1LL << 35};
  CHECK(clip_int_case(WNN_DTYPE_I64, x64, NULL, &hi64, w64, 3));
  /* Bounds of another dtype, and the float attributes, are refused. */
  wnn_tdesc in[3] = {TD(WNN_DTYPE_I8, 4), TD_SCALAR(WNN_DTYPE_F32), TD_OMITTED};
  CHECK(op_fails("Clip", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (min) is float32, expected int8"));
  CHECK(op_fails("Clip", "{\"min\":0.0}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "attribute 'min' applies to float32 input only"));
  in[1] = TD(WNN_DTYPE_I8, 2);
  CHECK(op_fails("Clip", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (min) must be a scalar"));
}

/* ------------------------------------------------------ window functions */

TEST(windows) {
  static const int64_t four = 4, five = 5;
  wnn_tdesc in = TD_SCALAR(WNN_DTYPE_I64);
  in.data = &four;
  void *data[1] = {(void *)&four};
  const float hann[4] = {0, 0.5f, 1, 0.5f}, hamming[4] = {4.0f / 46, 25.0f / 46, 1, 25.0f / 46};
  const float blackman[4] = {0, 0.34f, 1, 0.34f};
  CHECK(check_data("HannWindow", NULL, 1, &in, data, 1, hann, 4, 1e-6f, 1e-7f));
  CHECK(check_data("HammingWindow", NULL, 1, &in, data, 1, hamming, 4, 1e-6f, 1e-7f));
  CHECK(check_data("BlackmanWindow", NULL, 1, &in, data, 1, blackman, 4, 1e-6f, 1e-7f));
  in.data = &five;
  data[0] = (void *)&five;
  const float hann_sym[5] = {0, 0.5f, 1, 0.5f, 0};
  CHECK(check_data("HannWindow", "{\"periodic\":0}", 1, &in, data, 1, hann_sym, 5, 1e-6f, 1e-7f));
  static const char *const OPS[3] = {"HannWindow", "HammingWindow", "BlackmanWindow"};
  for (int32_t n = 0; n < 18; n++)
    for (int o = 0; o < 3; o++) {
      wnn_tdesc i32 = TD_SCALAR(WNN_DTYPE_I32);
      i32.data = &n;
      void *d[1] = {&n};
      CHECK(check_data(OPS[o], NULL, 1, &i32, d, 1, NULL, 0, 1e-6f, 1e-6f));
      CHECK(check_data(OPS[o], "{\"periodic\":0,\"output_datatype\":11}", 1, &i32, d, 1, NULL, 0,
                       1e-6f, 1e-6f));
    }
  static const int64_t neg = -1;
  wnn_tdesc bad = TD_SCALAR(WNN_DTYPE_I64);
  CHECK(op_fails("HannWindow", NULL, 1, &bad, 1, WNN_ERR_UNSUPPORTED,
                 "HannWindow: input 0 (size) must be a constant"));
  bad.data = &neg;
  CHECK(op_fails("HammingWindow", NULL, 1, &bad, 1, WNN_ERR_OUT_OF_RANGE, "input 0 (size) is -1"));
  bad.data = &four;
  CHECK(op_fails("BlackmanWindow", "{\"output_datatype\":7}", 1, &bad, 1, WNN_ERR_UNSUPPORTED,
                 "output_datatype = 7"));
  CHECK(op_fails("BlackmanWindow", "{\"periodic\":2}", 1, &bad, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "periodic is 2"));
}

/* ------------------------------------------------------------------- Det */

TEST(det) {
  float a[4] = {1, 2, 3, 4};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 2, 2);
  void *data[1] = {a};
  const float d2 = -2;
  CHECK(check_data("Det", NULL, 1, &in, data, 1, &d2, 1, 1e-6f, 1e-6f));
  /* A batch: diagonal, singular, and one needing a row swap (0 pivot). */
  float b[27] = {2, 0, 0, 0, 3, 0, 0, 0, 4, 1, 2, 3, 2, 4, 6, 7, 8, 9, 0, 1, 0, 1, 0, 0, 0, 0, 1};
  wnn_tdesc bin = TD(WNN_DTYPE_F32, 3, 3, 3);
  void *bd[1] = {b};
  const float dets[3] = {24, 0, -1};
  CHECK(check_data("Det", NULL, 1, &bin, bd, 1, dets, 3, 1e-6f, 1e-6f));
  for (int64_t m = 0; m <= 6; m++) {
    wnn_tdesc r = TD(WNN_DTYPE_F32, 2, 3, 1, 1);
    r.dims[2] = r.dims[3] = m;
    CHECK(op_check("Det", NULL, 1, &r, 1e-4f, 1e-5f));
  }
  CHECK(op_fails("Det", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 3)}, 1, WNN_ERR_SHAPE,
                 "Det: input 0 (X) has shape [2, 3], expected [..., M, M]"));
  CHECK(op_fails("Det", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3)}, 1, WNN_ERR_SHAPE, "square"));
}

/* -------------------------------------------------------------- BitShift */

TEST(bitshift) {
  uint8_t x[4] = {16, 4, 1, 200}, y[4] = {1, 2, 3, 9};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_U8, 4), TD(WNN_DTYPE_U8, 4)};
  void *data[2] = {x, y};
  const uint8_t right[4] = {8, 1, 0, 0}, left[4] = {32, 16, 8, 0};
  CHECK(check_data("BitShift", "{\"direction\":\"RIGHT\"}", 2, in, data, 1, right, 4, 0, 0));
  CHECK(check_data("BitShift", "{\"direction\":\"LEFT\"}", 2, in, data, 1, left, 4, 0, 0));
  uint8_t one = 1;
  wnn_tdesc sc[2] = {TD(WNN_DTYPE_U8, 4), TD_SCALAR(WNN_DTYPE_U8)};
  void *sd[2] = {x, &one};
  const uint8_t left1[4] = {32, 8, 2, 144}; /* 400 wraps to 144 */
  CHECK(check_data("BitShift", "{\"direction\":\"LEFT\"}", 2, sc, sd, 1, left1, 4, 0, 0));
  /* Broadcast, random bytes (shifts of 8 and more included). */
  wnn_tdesc br[2] = {TD(WNN_DTYPE_U8, 3, 1, 5), TD(WNN_DTYPE_U8, 4, 1)};
  CHECK(op_check("BitShift", "{\"direction\":\"LEFT\"}", 2, br, 0, 0));
  CHECK(op_check("BitShift", "{\"direction\":\"RIGHT\"}", 2, br, 0, 0));
  CHECK(op_fails("BitShift", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "'direction' is required"));
  CHECK(op_fails("BitShift", "{\"direction\":\"UP\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "direction is 'UP'"));
  in[1].dtype = WNN_DTYPE_I32;
  CHECK(op_fails("BitShift", "{\"direction\":\"UP\"}", 2, in, 1, WNN_ERR_DTYPE,
                 "BitShift: input 1 (Y) is int32, expected uint8"));
  in[1] = TD(WNN_DTYPE_U8, 3);
  CHECK(op_fails("BitShift", "{\"direction\":\"LEFT\"}", 2, in, 1, WNN_ERR_SHAPE,
                 "do not broadcast"));
}

/* --------------------------------------------- MeanVarianceNormalization */

TEST(mean_variance_normalization) {
  float x[2] = {1, 3};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 2);
  void *data[1] = {x};
  const float want[2] = {-1, 1}; /* mean 2, standard deviation 1 */
  CHECK(check_data("MeanVarianceNormalization", "{\"axes\":[0]}", 1, &in, data, 1, want, 2,
                   1e-6f, 1e-7f));
  const wnn_tdesc r = TD(WNN_DTYPE_F32, 2, 3, 4, 2);
  CHECK(op_check("MeanVarianceNormalization", NULL, 1, &r, 1e-5f, 1e-5f));
  CHECK(op_check("MeanVarianceNormalization", "{\"axes\":[1]}", 1, &r, 1e-5f, 1e-5f));
  CHECK(op_check("MeanVarianceNormalization", "{\"axes\":[0,1,2,-1]}", 1, &r, 1e-5f, 1e-5f));
  CHECK(op_check("MeanVarianceNormalization", "{\"axes\":[]}", 1, &r, 1e-5f, 1e-5f));
  CHECK(op_fails("MeanVarianceNormalization", NULL, 1, &in, 1, WNN_ERR_BAD_ATTRIBUTE, "axes"));
  CHECK(op_fails("MeanVarianceNormalization", "{\"axes\":[1,-3]}", 1, &r, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "axes repeats axis 1"));
}

/* -------------------------------------------------------------- Compress */

TEST(compress) {
  float x[6] = {1, 2, 3, 4, 5, 6};
  static const unsigned char c3[3] = {0, 1, 1}, c2[2] = {0, 1}, c5[5] = {0, 1, 0, 0, 1};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_BOOL, 3)};
  in[1].data = c3;
  void *data[2] = {x, (void *)c3};
  const float rows[4] = {3, 4, 5, 6}, cols[3] = {2, 4, 6}, flat[2] = {2, 5};
  CHECK(check_data("Compress", "{\"axis\":0}", 2, in, data, 1, rows, 4, 0, 0));
  in[1] = TD(WNN_DTYPE_BOOL, 2);
  in[1].data = c2;
  data[1] = (void *)c2;
  CHECK(check_data("Compress", "{\"axis\":-1}", 2, in, data, 1, cols, 3, 0, 0));
  /* A condition shorter than the axis: the rest is dropped. */
  const float first_rows[2] = {3, 4};
  CHECK(check_data("Compress", "{\"axis\":0}", 2, in, data, 1, first_rows, 2, 0, 0));
  in[1] = TD(WNN_DTYPE_BOOL, 5);
  in[1].data = c5;
  data[1] = (void *)c5;
  CHECK(check_data("Compress", NULL, 2, in, data, 1, flat, 2, 0, 0));
  op_case c;
  CHECK_OK(op_prepare(&c, "Compress", NULL, 2, in, 1));
  CHECK(c.outputs[0].ndim == 1 && c.outputs[0].dims[0] == 2);
  /* int64 data, 3-D, vs reference. */
  static const unsigned char c4[4] = {1, 0, 1, 1};
  wnn_tdesc i64[2] = {TD(WNN_DTYPE_I64, 2, 4, 3), TD(WNN_DTYPE_BOOL, 4)};
  i64[1].data = c4;
  CHECK(op_check("Compress", "{\"axis\":1}", 2, i64, 0, 0));
  wnn_tdesc bad[2] = {TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_BOOL, 3)};
  CHECK(op_fails("Compress", "{\"axis\":0}", 2, bad, 1, WNN_ERR_UNSUPPORTED,
                 "Compress: input 1 (condition) must be a constant"));
  bad[1] = TD(WNN_DTYPE_BOOL, 4);
  bad[1].data = c4;
  CHECK(op_fails("Compress", "{\"axis\":0}", 2, bad, 1, WNN_ERR_SHAPE,
                 "input 1 (condition) has 4 entries, more than the 3 along axis"));
  bad[1].dtype = WNN_DTYPE_I64;
  CHECK(op_fails("Compress", NULL, 2, bad, 1, WNN_ERR_DTYPE, "input 1 (condition) is int64"));
}

/* ------------------------------------------------------- ReverseSequence */

TEST(reverse_sequence) {
  float x[16];
  for (int i = 0; i < 16; i++) x[i] = (float)i;
  int64_t lens[4] = {4, 3, 2, 1};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 4, 4), TD(WNN_DTYPE_I64, 4)};
  void *data[2] = {x, lens};
  /* The ONNX examples. */
  const float time[16] = {12, 9, 6, 3, 8, 5, 2, 7, 4, 1, 10, 11, 0, 13, 14, 15};
  CHECK(check_data("ReverseSequence", "{\"batch_axis\":1,\"time_axis\":0}", 2, in, data, 1, time,
                   16, 0, 0));
  int64_t lens_b[4] = {1, 2, 3, 4};
  void *data_b[2] = {x, lens_b};
  const float batch[16] = {0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12};
  CHECK(check_data("ReverseSequence", "{\"batch_axis\":0,\"time_axis\":1}", 2, in, data_b, 1,
                   batch, 16, 0, 0));
  /* 3-D int64 data, vs reference, with lengths 0 and the full sequence. */
  int64_t xl[5 * 3 * 2];
  for (int i = 0; i < 30; i++) xl[i] = i * 7 - 11;
  int64_t l3[3] = {0, 5, 2};
  wnn_tdesc in3[2] = {TD(WNN_DTYPE_I64, 5, 3, 2), TD(WNN_DTYPE_I64, 3)};
  void *d3[2] = {xl, l3};
  CHECK(check_data("ReverseSequence", NULL, 2, in3, d3, 1, NULL, 0, 0, 0));
  /* A length outside [0, seq] fails the run. */
  op_case c;
  CHECK_OK(op_prepare(&c, "ReverseSequence", NULL, 2, in3, 1));
  l3[1] = 6;
  void *out[1];
  CHECK(op_exec(&c, c.op->run, d3, out) == WNN_ERR_OUT_OF_RANGE);
  free(out[0]);
  CHECK(op_fails("ReverseSequence", "{\"batch_axis\":1,\"time_axis\":1}", 2, in3, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "must be 0 and 1"));
  in3[1] = TD(WNN_DTYPE_I64, 5);
  CHECK(op_fails("ReverseSequence", NULL, 2, in3, 1, WNN_ERR_SHAPE,
                 "input 1 (sequence_lens) must be 1-D of length 3"));
  in3[1] = TD(WNN_DTYPE_I32, 3);
  CHECK(op_fails("ReverseSequence", NULL, 2, in3, 1, WNN_ERR_DTYPE,
                 "input 1 (sequence_lens) is int32"));
}

/* ------------------------------------------------------------ DFT, STFT */

TEST(dft) {
  /* [1, 2, 3, 4] real: [10, -2+2i, -2, -2-2i]. */
  float x[4] = {1, 2, 3, 4};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 4, 1), TD_OMITTED, TD_OMITTED};
  void *data[3] = {x, NULL, NULL};
  const float full[8] = {10, 0, -2, 2, -2, 0, -2, -2}, half[6] = {10, 0, -2, 2, -2, 0};
  CHECK(check_data("DFT", "{\"axis\":1}", 1, in, data, 1, full, 8, 1e-6f, 1e-6f));
  CHECK(check_data("DFT", "{\"onesided\":1}", 1, in, data, 1, half, 6, 1e-6f, 1e-6f));
  /* The inverse of the spectrum is the signal (imaginary parts 0). */
  float spec[8] = {10, 0, -2, 2, -2, 0, -2, -2};
  wnn_tdesc sin_[1] = {TD(WNN_DTYPE_F32, 1, 4, 2)};
  void *sd[1] = {spec};
  const float back[8] = {1, 0, 2, 0, 3, 0, 4, 0};
  CHECK(check_data("DFT", "{\"inverse\":1}", 1, sin_, sd, 1, back, 8, 1e-6f, 1e-6f));
  /* dft_length pads with zeros (6) or truncates (2). */
  static const int64_t six = 6, two = 2, axis1 = 1;
  in[1] = TD_SCALAR(WNN_DTYPE_I64);
  in[1].data = &two;
  data[1] = (void *)&two;
  const float trunc[4] = {3, 0, -1, 0};
  CHECK(check_data("DFT", NULL, 2, in, data, 1, trunc, 4, 1e-6f, 1e-6f));
  in[1].data = &six;
  data[1] = (void *)&six;
  CHECK(check_data("DFT", NULL, 2, in, data, 1, NULL, 0, 1e-5f, 1e-6f));
  /* vs reference: axes 1 and 2 of [2, 5, 3, c], real and complex, inverse, the
   * axis as opset 20's input. */
  for (int c = 1; c <= 2; c++) {
    wnn_tdesc r[3] = {TD(WNN_DTYPE_F32, 2, 5, 3, 1), TD_OMITTED, TD_SCALAR(WNN_DTYPE_I64)};
    r[0].dims[3] = c;
    r[2].data = &axis1;
    CHECK(op_check("DFT", "{\"axis\":2}", 1, r, 1e-4f, 1e-5f));
    CHECK(op_check("DFT", "{\"axis\":-3,\"inverse\":1}", 1, r, 1e-4f, 1e-5f));
    CHECK(op_check("DFT", NULL, 3, r, 1e-4f, 1e-5f));
  }
  wnn_tdesc bad[3] = {TD(WNN_DTYPE_F32, 2, 5, 2), TD_SCALAR(WNN_DTYPE_I64), TD_OMITTED};
  CHECK(op_fails("DFT", NULL, 2, bad, 1, WNN_ERR_UNSUPPORTED,
                 "DFT: input 1 (dft_length) must be a constant"));
  CHECK(op_fails("DFT", "{\"onesided\":1}", 1, bad, 1, WNN_ERR_UNSUPPORTED, "needs a real input"));
  CHECK(op_fails("DFT", "{\"axis\":2}", 1, bad, 1, WNN_ERR_OUT_OF_RANGE, "axis is 2"));
  bad[2] = TD_SCALAR(WNN_DTYPE_I64);
  bad[2].data = &axis1;
  bad[1] = TD_OMITTED;
  CHECK(op_fails("DFT", "{\"axis\":1}", 3, bad, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "both as an attribute"));
  CHECK(op_fails("DFT", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 4, 3)}, 1, WNN_ERR_SHAPE,
                 "expected [..., 1] (real) or [..., 2] (complex)"));
}

TEST(stft) {
  /* A constant signal: each frame's DC bin is the frame length, the rest 0. */
  float ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  static const int64_t step2 = 2, flen4 = 4;
  wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 1, 8, 1), TD_SCALAR(WNN_DTYPE_I64), TD_OMITTED,
                     TD_SCALAR(WNN_DTYPE_I64)};
  in[1].data = &step2;
  in[3].data = &flen4;
  void *data[4] = {ones, (void *)&step2, NULL, (void *)&flen4};
  const float want[18] = {4, 0, 0, 0, 0, 0, 4, 0, 0,
                          0, 0, 0, 4, 0, 0, 0, 0, 0}; /* 3 frames x 3 bins */
  CHECK(check_data("STFT", NULL, 4, in, data, 1, want, 18, 1e-6f, 1e-6f));
  /* vs reference with a window (read at run time), one- and two-sided, complex. */
  static const int64_t step3 = 3;
  wnn_tdesc r[3] = {TD(WNN_DTYPE_F32, 2, 32, 1), TD_SCALAR(WNN_DTYPE_I64), TD(WNN_DTYPE_F32, 8)};
  r[1].data = &step3;
  CHECK(op_check("STFT", NULL, 3, r, 1e-4f, 1e-5f));
  CHECK(op_check("STFT", "{\"onesided\":0}", 3, r, 1e-4f, 1e-5f));
  r[0].dims[2] = 2;
  CHECK(op_check("STFT", "{\"onesided\":0}", 3, r, 1e-4f, 1e-5f));
  CHECK(op_fails("STFT", NULL, 3, r, 1, WNN_ERR_UNSUPPORTED, "needs a real signal"));
  wnn_tdesc bad[4] = {TD(WNN_DTYPE_F32, 1, 8, 1), TD_SCALAR(WNN_DTYPE_I64), TD_OMITTED, TD_OMITTED};
  CHECK(op_fails("STFT", NULL, 2, bad, 1, WNN_ERR_UNSUPPORTED,
                 "STFT: input 1 (frame_step) must be a constant"));
  bad[1].data = &step2;
  CHECK(op_fails("STFT", NULL, 2, bad, 1, WNN_ERR_MALFORMED, "needs input 2 (window) or input 3"));
  bad[2] = TD(WNN_DTYPE_F32, 5);
  bad[3] = TD_SCALAR(WNN_DTYPE_I64);
  bad[3].data = &flen4;
  CHECK(op_fails("STFT", NULL, 4, bad, 1, WNN_ERR_SHAPE, "the window has 5 values"));
}

/* ------------------------------------------------------- MelWeightMatrix */

TEST(mel_weight_matrix) {
  /* 3 filters over 9 bins (dft_length 16), 8 kHz, 100 to 3500 Hz: the mel
   * points fall on bins 0, 0, 1, 3, 4, so filter 0 is a spike at bin 0,
   * filter 1 rises 0 -> 1 (bins 0, 1) and falls to 0.5 at bin 2, filter 2
   * rises 0, 0.5, 1 (bins 1-3). */
  static const int64_t mels = 3, len = 16;
  int32_t rate = 8000;
  float lo = 100, hi = 3500;
  wnn_tdesc in[5] = {TD_SCALAR(WNN_DTYPE_I64), TD_SCALAR(WNN_DTYPE_I64), TD_SCALAR(WNN_DTYPE_I32),
                     TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_F32)};
  in[0].data = &mels;
  in[1].data = &len;
  void *data[5] = {(void *)&mels, (void *)&len, &rate, &lo, &hi};
  float want[27] = {1, 0, 0, 0, 1, 0, 0, 0.5f, 0.5f, 0, 0, 1};
  CHECK(check_data("MelWeightMatrix", NULL, 5, in, data, 1, want, 27, 0, 0));
  /* vs reference on wider settings. */
  static const int64_t mels2 = 8, len2 = 256;
  in[0].data = &mels2;
  in[1].data = &len2;
  int32_t rate2 = 16000;
  float lo2 = 20, hi2 = 7600;
  void *data2[5] = {(void *)&mels2, (void *)&len2, &rate2, &lo2, &hi2};
  CHECK(check_data("MelWeightMatrix", NULL, 5, in, data2, 1, NULL, 0, 1e-6f, 1e-7f));
  CHECK(check_data("MelWeightMatrix", "{\"output_datatype\":11}", 5, in, data2, 1, NULL, 0, 1e-6f,
                   1e-7f));
  /* A rate <= 0 fails the run; shape inputs must be constants. */
  op_case c;
  CHECK_OK(op_prepare(&c, "MelWeightMatrix", NULL, 5, in, 1));
  int32_t zero = 0;
  void *bad[5] = {(void *)&mels2, (void *)&len2, &zero, &lo2, &hi2}, *out[1];
  CHECK(op_exec(&c, c.op->run, bad, out) == WNN_ERR_OUT_OF_RANGE);
  free(out[0]);
  in[0].data = NULL;
  CHECK(op_fails("MelWeightMatrix", NULL, 5, in, 1, WNN_ERR_UNSUPPORTED,
                 "MelWeightMatrix: input 0 (num_mel_bins) must be a constant"));
  in[0].data = &mels;
  in[3] = TD_SCALAR(WNN_DTYPE_I32);
  CHECK(op_fails("MelWeightMatrix", NULL, 5, in, 1, WNN_ERR_DTYPE,
                 "input 3 (lower_edge_hertz) is int32"));
}

int main(void) {
  RUN(cumsum_hand_computed);
  RUN(cumsum_vs_reference);
  RUN(cumsum_rejects);
  RUN(hardmax);
  RUN(reducelogsum);
  RUN(elementwise_vs_reference);
  RUN(elementwise_hand_computed);
  RUN(eyelike);
  RUN(quantize_hand_computed);
  RUN(quantize_per_axis);
  RUN(quantize_rejects);
  RUN(dynamic_quantize);
  RUN(clip_integers);
  RUN(windows);
  RUN(det);
  RUN(bitshift);
  RUN(mean_variance_normalization);
  RUN(compress);
  RUN(reverse_sequence);
  RUN(dft);
  RUN(stft);
  RUN(mel_weight_matrix);
  return test_summary();
}
