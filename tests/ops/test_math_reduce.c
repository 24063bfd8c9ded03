/* Reductions (opset 18: axes as input 1), ArgMax and ArgMin, and LogSoftmax:
 * run vs reference on awkward shapes and axis sets, hand-computed values,
 * failures. run folds in float, the reference in double: sums of up to a few
 * hundred values in [-1, 1) agree within rtol 1e-5 and atol 1e-5;
 * Max, Min, the integer reductions and the arg ops are exact. */
#include <math.h>
#include <stdint.h>

#include "op_harness.h"

static const char *const OPS[] = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                                  "ReduceSumSquare", "ReduceL1", "ReduceL2", "ReduceLogSumExp"};
#define NUM_OPS 9

/* Runs every op on x with the given constant axes (n_axes -1: omitted).
 * With finite_only, only the ops whose empty reduction is finite (allclose
 * cannot compare infinities or NaN). */
static int check_ops(wnn_tdesc x, const int64_t *axes, int n_axes, const char *attrs,
                     bool finite_only) {
  static const int64_t none[1] = {0};
  int ok = 1;
  wnn_tdesc in[2] = {x, TD(WNN_DTYPE_I64, 0)};
  in[1].dims[0] = n_axes < 0 ? 0 : n_axes;
  in[1].data = axes ? axes : none;
  for (int o = 0; o < NUM_OPS; o++)
    if (finite_only && (o == 1 || o == 2 || o == 3 || o == 8)) continue;
    else if (!op_check(OPS[o], attrs, n_axes < 0 ? 1 : 2, in, 1e-5f, 1e-5f)) {
      printf("  failed: %s %s with %d axes\n", OPS[o], attrs ? attrs : "", n_axes);
      ok = 0;
    }
  return ok;
}

static int check_all(wnn_tdesc x, const int64_t *axes, int n_axes, const char *attrs) {
  return check_ops(x, axes, n_axes, attrs, false);
}

TEST(vs_reference) {
  static const int64_t a0[] = {0}, a1[] = {1}, a_last[] = {-1}, a02[] = {0, 2}, a13[] = {3, 1},
                       a123[] = {1, 2, 3}, a_all[] = {0, 1, 2, 3};
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 4, 5);
  const char *attrs[2] = {NULL, "{\"keepdims\":0}"};
  for (int k = 0; k < 2; k++) {
    CHECK(check_all(x, a0, 1, attrs[k]));
    CHECK(check_all(x, a1, 1, attrs[k]));
    CHECK(check_all(x, a_last, 1, attrs[k]));
    CHECK(check_all(x, a02, 2, attrs[k]));
    CHECK(check_all(x, a13, 2, attrs[k]));
    CHECK(check_all(x, a123, 3, attrs[k]));
    CHECK(check_all(x, a_all, 4, attrs[k]));
    CHECK(check_all(x, NULL, -1, attrs[k])); /* omitted: every axis */
    CHECK(check_all(x, NULL, 0, attrs[k]));  /* empty: every axis */
  }
  /* Size-1 dims, a long line, a scalar, an empty reduction. */
  CHECK(check_all(TD(WNN_DTYPE_F32, 1, 7, 1, 3), a13, 2, NULL));
  CHECK(check_all(TD(WNN_DTYPE_F32, 1001), a0, 1, NULL));
  CHECK(check_all(TD(WNN_DTYPE_F32, 17, 3), a0, 1, "{\"keepdims\":0}"));
  CHECK(check_all(TD_SCALAR(WNN_DTYPE_F32), NULL, -1, NULL));
  CHECK(check_ops(TD(WNN_DTYPE_F32, 3, 0, 2), a1, 1, NULL, true)); /* empty_reductions checks the rest */
  CHECK(check_all(TD(WNN_DTYPE_F32, 3, 0, 2), a0, 1, NULL)); /* empty output */
  CHECK(check_all(x, NULL, -1, "{\"noop_with_empty_axes\":1}"));
  CHECK(check_all(x, a1, 1, "{\"noop_with_empty_axes\":1}"));
}

TEST(integers) {
  /* Sum, Max, Min, Prod of int32 and int64: exact, wrapping like Add and Mul. */
  static const char *const INT_OPS[] = {"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd"};
  static const int64_t a1[] = {1}, a02[] = {0, 2}, none[1] = {0};
  const wnn_dtype dts[2] = {WNN_DTYPE_I32, WNN_DTYPE_I64};
  for (int t = 0; t < 2; t++)
    for (int o = 0; o < 4; o++) {
      wnn_tdesc in[2] = {TD(WNN_DTYPE_I32, 3, 4, 5), TD(WNN_DTYPE_I64, 1)};
      in[0].dtype = dts[t];
      in[1].data = a1;
      CHECK(op_check(INT_OPS[o], NULL, 2, in, 0, 0));
      in[1] = TD(WNN_DTYPE_I64, 2);
      in[1].data = a02;
      CHECK(op_check(INT_OPS[o], "{\"keepdims\":0}", 2, in, 0, 0));
      CHECK(op_check(INT_OPS[o], NULL, 1, in, 0, 0));
      in[0] = TD(WNN_DTYPE_I32, 4, 0);
      in[0].dtype = dts[t];
      in[1] = TD(WNN_DTYPE_I64, 1);
      in[1].data = a1;
      CHECK(op_check(INT_OPS[o], NULL, 2, in, 0, 0)); /* empty: 0, MIN, MAX, 1 */
      in[1] = TD(WNN_DTYPE_I64, 0);
      in[1].data = none;
      CHECK(op_check(INT_OPS[o], "{\"noop_with_empty_axes\":1}", 2, in, 0, 0));
    }
  int32_t x[4] = {INT32_MAX, 1, -5, 7};
  void *data[1] = {x};
  const wnn_tdesc d = TD(WNN_DTYPE_I32, 2, 2);
  const int32_t want_sum[1] = {INT32_MIN + 2}; /* wraps */
  op_case c;
  CHECK_OK(op_prepare(&c, "ReduceSum", "{\"keepdims\":0}", 1, &d, 1));
  CHECK(c.outputs[0].dtype == WNN_DTYPE_I32 && c.outputs[0].ndim == 0);
  for (int f = 0; f < 2; f++) {
    void *out[1];
    CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, data, out));
    CHECK(memcmp(out[0], want_sum, sizeof want_sum) == 0);
    free(out[0]);
  }
}

TEST(empty_reductions) {
  /* Reducing over a 0-size axis gives the fold's identity. */
  static const int64_t ax[] = {1};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 0), TD(WNN_DTYPE_I64, 1)};
  in[1].data = ax;
  const float want[NUM_OPS] = {0, NAN, -INFINITY, INFINITY, 1, 0, 0, 0, -INFINITY};
  for (int o = 0; o < NUM_OPS; o++) {
    op_case c;
    CHECK_OK(op_prepare(&c, OPS[o], NULL, 2, in, 1));
    for (int f = 0; f < 2; f++) {
      void *data[2] = {NULL, (void *)ax}, *out[1];
      float dummy = 0;
      data[0] = &dummy;
      CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, data, out));
      const float *y = out[0];
      const int ok = isnan(want[o]) ? isnan(y[0]) && isnan(y[1]) : y[0] == want[o] && y[1] == want[o];
      if (!ok) {
        printf("  %s (%s): got %g, want %g\n", OPS[o], f ? "reference" : "run", y[0], want[o]);
        CHECK(0);
      }
      free(out[0]);
    }
  }
}

TEST(output_shapes) {
  static const int64_t axes[] = {-1, 1};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_I64, 2)};
  in[1].data = axes;
  op_case c;
  CHECK_OK(op_prepare(&c, "ReduceSum", NULL, 2, in, 1));
  CHECK(c.outputs[0].ndim == 3 && c.outputs[0].dims[0] == 2 && c.outputs[0].dims[1] == 1 &&
        c.outputs[0].dims[2] == 1);
  CHECK_OK(op_prepare(&c, "ReduceMax", "{\"keepdims\":0}", 2, in, 1));
  CHECK(c.outputs[0].ndim == 1 && c.outputs[0].dims[0] == 2);
  CHECK_OK(op_prepare(&c, "ReduceMean", "{\"keepdims\":0}", 1, in, 1));
  CHECK(c.outputs[0].ndim == 0);
  CHECK_OK(op_prepare(&c, "ReduceMean", "{\"noop_with_empty_axes\":1}", 1, in, 1));
  CHECK(c.outputs[0].ndim == 3 && c.outputs[0].dims[2] == 4);
}

TEST(hand_computed) {
  /* x = [[1, -2, 3], [4, 5, -6]] */
  float x[6] = {1, -2, 3, 4, 5, -6};
  static const int64_t ax1[] = {1}, ax0[] = {0};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_I64, 1)};
  in[1].data = ax1;
  void *data[2] = {x, (void *)ax1};
  CHECK(op_expect("ReduceSum", NULL, 2, in, data, (const float[]){2, 3}, 2, 0));
  CHECK(op_expect("ReduceMean", NULL, 2, in, data, (const float[]){2.0f / 3, 1}, 2, 1e-7f));
  CHECK(op_expect("ReduceMax", NULL, 2, in, data, (const float[]){3, 5}, 2, 0));
  CHECK(op_expect("ReduceMin", NULL, 2, in, data, (const float[]){-2, -6}, 2, 0));
  CHECK(op_expect("ReduceProd", NULL, 2, in, data, (const float[]){-6, -120}, 2, 0));
  CHECK(op_expect("ReduceSumSquare", NULL, 2, in, data, (const float[]){14, 77}, 2, 0));
  CHECK(op_expect("ReduceL1", NULL, 2, in, data, (const float[]){6, 15}, 2, 0));
  CHECK(op_expect("ReduceL2", NULL, 2, in, data, (const float[]){3.74165739f, 8.77496439f}, 2, 1e-6f));
  /* log(e^1 + e^-2 + e^3) = 3.13284516; log(e^4 + e^5 + e^-6) = 5.31327391 */
  CHECK(op_expect("ReduceLogSumExp", NULL, 2, in, data, (const float[]){3.13284516f, 5.31327391f}, 2, 1e-6f));
  in[1].data = ax0;
  data[1] = (void *)ax0;
  CHECK(op_expect("ReduceSum", "{\"keepdims\":0}", 2, in, data, (const float[]){5, 3, -3}, 3, 0));
  CHECK(op_expect("ReduceMax", NULL, 1, in, data, (const float[]){5}, 1, 0));
  /* LogSumExp of large values does not overflow. */
  float big[2] = {1000.0f, 1000.0f};
  const wnn_tdesc bd[1] = {TD(WNN_DTYPE_F32, 2)};
  void *bdata[1] = {big};
  CHECK(op_expect("ReduceLogSumExp", NULL, 1, bd, bdata, (const float[]){1000.693147f}, 1, 1e-4f));
}

TEST(arg) {
  static const char *const ATTRS[] = {NULL, "{\"axis\":1}", "{\"axis\":-1,\"keepdims\":0}",
                                      "{\"axis\":2,\"select_last_index\":1}",
                                      "{\"axis\":0,\"select_last_index\":1,\"keepdims\":0}"};
  const wnn_dtype dts[3] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64};
  for (int t = 0; t < 3; t++)
    for (int a = 0; a < 5; a++) {
      wnn_tdesc x = TD(WNN_DTYPE_F32, 3, 4, 5); /* int inputs in [-20, 20]: many ties */
      x.dtype = dts[t];
      CHECK(op_check("ArgMax", ATTRS[a], 1, &x, 0, 0));
      CHECK(op_check("ArgMin", ATTRS[a], 1, &x, 0, 0));
    }
  const wnn_tdesc one = TD(WNN_DTYPE_F32, 1001);
  CHECK(op_check("ArgMax", NULL, 1, &one, 0, 0));
  /* x = [[2, 7, 7], [1, 0, 1]] */
  int32_t x[6] = {2, 7, 7, 1, 0, 1};
  void *in[1] = {x};
  const wnn_tdesc d = TD(WNN_DTYPE_I32, 2, 3);
  struct { const char *op, *attrs; int64_t want[3]; size_t n; } cases[] = {
      {"ArgMax", "{\"axis\":1}", {1, 0}, 2},
      {"ArgMax", "{\"axis\":1,\"select_last_index\":1}", {2, 2}, 2},
      {"ArgMin", "{\"axis\":1}", {0, 1}, 2},
      {"ArgMin", "{\"axis\":1,\"select_last_index\":1}", {0, 1}, 2},
      {"ArgMax", NULL, {0, 0, 0}, 3},
      {"ArgMin", "{\"axis\":0,\"keepdims\":0}", {1, 1, 1}, 3},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    op_case c;
    CHECK_OK(op_prepare(&c, cases[k].op, cases[k].attrs, 1, &d, 1));
    CHECK(c.outputs[0].dtype == WNN_DTYPE_I64);
    for (int f = 0; f < 2; f++) {
      void *out[1];
      CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, in, out));
      if (memcmp(out[0], cases[k].want, cases[k].n * sizeof(int64_t)) != 0) {
        printf("  %s %s (%s) wrong\n", cases[k].op, cases[k].attrs ? cases[k].attrs : "",
               f ? "reference" : "run");
        CHECK(0);
      }
      free(out[0]);
    }
  }
}

TEST(logsoftmax) {
  const char *attrs[4] = {NULL, "{\"axis\":0}", "{\"axis\":1}", "{\"axis\":-2}"};
  const wnn_tdesc shapes[3] = {TD(WNN_DTYPE_F32, 2, 3, 5), TD(WNN_DTYPE_F32, 1001, 1),
                               TD(WNN_DTYPE_F32, 4, 17)};
  for (int s = 0; s < 3; s++)
    for (int a = 0; a < 4; a++) CHECK(op_check("LogSoftmax", attrs[a], 1, &shapes[s], 1e-5f, 1e-5f));
  /* log_softmax([0, ln 2, ln 5]) = log([1, 2, 5] / 8); huge inputs do not overflow. */
  float x[6] = {0.0f, 0.693147181f, 1.60943791f, 1000.0f, 1000.0f, -1000.0f};
  void *in[1] = {x};
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 2, 3);
  CHECK(op_expect("LogSoftmax", NULL, 1, &d, in,
                  (const float[]){-2.07944154f, -1.38629436f, -0.470003629f, -0.693147181f,
                                  -0.693147181f, -2000.69315f},
                  6, 1e-4f));
}

TEST(rejects) {
  static const int64_t bad[] = {3}, dup[] = {0, -2};
  static const int32_t ax32[] = {0};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_I64, 1)};
  CHECK(op_fails("ReduceSum", NULL, 2, in, 1, WNN_ERR_UNSUPPORTED,
                 "ReduceSum: input 1 (axes) must be a constant"));
  in[1].data = bad;
  CHECK(op_fails("ReduceMean", NULL, 2, in, 1, WNN_ERR_OUT_OF_RANGE,
                 "ReduceMean: axes[0] is 3, out of range for rank 2"));
  in[1] = TD(WNN_DTYPE_I64, 2);
  in[1].data = dup;
  CHECK(op_fails("ReduceMax", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "ReduceMax: axes[1] repeats axis 0"));
  in[1] = TD(WNN_DTYPE_I32, 1);
  in[1].data = ax32;
  CHECK(op_fails("ReduceMin", NULL, 2, in, 1, WNN_ERR_DTYPE, "ReduceMin: input 1 (axes) is int32, expected int64"));
  CHECK(op_fails("ReduceL2", "{\"keepdims\":2}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE, "ReduceL2: keepdims is 2"));
  CHECK(op_fails("ReduceSum", "{\"axes\":[0]}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE, "unknown attribute 'axes'"));
  in[0] = TD(WNN_DTYPE_I32, 2, 3);
  CHECK(op_fails("ReduceMean", NULL, 1, in, 1, WNN_ERR_DTYPE,
                 "ReduceMean: input 0 (data) is int32, expected float32"));
  in[0] = TD(WNN_DTYPE_BOOL, 2, 3);
  CHECK(op_fails("ReduceSum", NULL, 1, in, 1, WNN_ERR_DTYPE,
                 "ReduceSum: input 0 (data) is bool, expected float32, int32 or int64"));
  in[0] = TD(WNN_DTYPE_I32, 2, 3);
  CHECK(op_fails("ArgMax", "{\"axis\":2}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axis"));
  in[0] = TD(WNN_DTYPE_F32, 2, 0);
  CHECK(op_fails("ArgMin", "{\"axis\":1}", 1, in, 1, WNN_ERR_SHAPE, "ArgMin: axis 1 has size 0"));
  in[0] = TD(WNN_DTYPE_BOOL, 2);
  CHECK(op_fails("ArgMax", NULL, 1, in, 1, WNN_ERR_DTYPE, "ArgMax: input 0 (data) is bool"));
  CHECK(op_fails("LogSoftmax", NULL, 1, in, 1, WNN_ERR_DTYPE, "LogSoftmax: input 0 (input) is bool"));
  in[0] = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_fails("LogSoftmax", NULL, 1, in, 1, WNN_ERR_SHAPE, "LogSoftmax: input 0 is a scalar"));
}

/* ---------------------------------------------------------------- CumSum */


TEST(cumsum_hand_computed) {
  float x[5] = {1, 2, 3, 4, 5};
  static const int64_t zero = 0;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 5), op_axis_const(&zero)};
  void *data[2] = {x, (void *)&zero};
  const float plain[5] = {1, 3, 6, 10, 15}, excl[5] = {0, 1, 3, 6, 10};
  const float rev[5] = {15, 14, 12, 9, 5}, rev_excl[5] = {14, 12, 9, 5, 0};
  CHECK(op_check_data("CumSum", NULL, 2, in, data, 1, plain, 5, 0, 0));
  CHECK(op_check_data("CumSum", "{\"exclusive\":1}", 2, in, data, 1, excl, 5, 0, 0));
  CHECK(op_check_data("CumSum", "{\"reverse\":1}", 2, in, data, 1, rev, 5, 0, 0));
  CHECK(op_check_data("CumSum", "{\"exclusive\":1,\"reverse\":1}", 2, in, data, 1, rev_excl, 5, 0, 0));
  /* 2-D, axis 0, 1 and -1 (an int32 axis). */
  float m[6] = {1, 2, 3, 4, 5, 6};
  static const int32_t ax1 = 1, axm1 = -1;
  static const int64_t ax0 = 0;
  wnn_tdesc in2[2] = {TD(WNN_DTYPE_F32, 2, 3), op_axis_const(&ax0)};
  void *d2[2] = {m, (void *)&ax0};
  const float a0[6] = {1, 2, 3, 5, 7, 9}, a1[6] = {1, 3, 6, 4, 9, 15};
  CHECK(op_check_data("CumSum", NULL, 2, in2, d2, 1, a0, 6, 0, 0));
  in2[1] = TD_SCALAR(WNN_DTYPE_I32);
  in2[1].data = &ax1;
  d2[1] = (void *)&ax1;
  CHECK(op_check_data("CumSum", NULL, 2, in2, d2, 1, a1, 6, 0, 0));
  in2[1].data = &axm1;
  d2[1] = (void *)&axm1;
  CHECK(op_check_data("CumSum", NULL, 2, in2, d2, 1, a1, 6, 0, 0));
  /* int32 wraps; int64 exact. */
  int32_t xi[3] = {INT32_MAX, 1, 5};
  const int32_t wi[3] = {INT32_MAX, INT32_MIN, INT32_MIN + 5};
  wnn_tdesc ini[2] = {TD(WNN_DTYPE_I32, 3), op_axis_const(&zero)};
  void *di[2] = {xi, (void *)&zero};
  CHECK(op_check_data("CumSum", NULL, 2, ini, di, 1, wi, 3, 0, 0));
  int64_t xl[3] = {-7, 1LL << 40, 3};
  const int64_t wl[3] = {(1LL << 40) - 4, (1LL << 40) + 3, 3};
  ini[0].dtype = WNN_DTYPE_I64;
  di[0] = xl;
  CHECK(op_check_data("CumSum", "{\"reverse\":1}", 2, ini, di, 1, wl, 3, 0, 0));
}

TEST(cumsum_vs_reference) {
  static const char *const ATTRS[4] = {NULL, "{\"exclusive\":1}", "{\"reverse\":1}",
                                       "{\"exclusive\":1,\"reverse\":1}"};
  static const int64_t axes[4] = {0, 1, 2, -2};
  const wnn_dtype dts[3] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64};
  for (int t = 0; t < 3; t++)
    for (int a = 0; a < 4; a++)
      for (int f = 0; f < 4; f++) {
        wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 17, 5), op_axis_const(&axes[a])};
        in[0].dtype = dts[t];
        CHECK(op_check("CumSum", ATTRS[f], 2, in, 1e-5f, 1e-5f));
      }
  /* A size-0 axis and a long line. */
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 4, 0, 3), op_axis_const(&axes[1])};
  CHECK(op_check("CumSum", NULL, 2, in, 0, 0));
  in[0] = TD(WNN_DTYPE_F32, 1000);
  in[1] = op_axis_const(&axes[0]);
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
  in[1] = op_axis_const(&zero);
  CHECK(op_fails("CumSum", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 0 (x) is bool"));
  in[0] = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_fails("CumSum", NULL, 2, in, 1, WNN_ERR_SHAPE, "scalar"));
}

/* ---------------------------------------------------------- ReduceLogSum */

TEST(reducelogsum) {
  float x[4] = {1, 2, 3, 4};
  static const int64_t ax1[1] = {1}, ax01[2] = {0, -1}, none[1] = {0};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 2), TD(WNN_DTYPE_I64, 1)};
  in[1].data = ax1;
  void *data[2] = {x, (void *)ax1};
  const float rows[2] = {logf(3), logf(7)}, all = logf(10);
  CHECK(op_check_data("ReduceLogSum", NULL, 2, in, data, 1, rows, 2, 1e-6f, 1e-6f));
  in[1] = TD(WNN_DTYPE_I64, 2);
  in[1].data = ax01;
  data[1] = (void *)ax01;
  CHECK(op_check_data("ReduceLogSum", "{\"keepdims\":0}", 2, in, data, 1, &all, 1, 1e-6f, 1e-6f));
  CHECK(op_check_data("ReduceLogSum", NULL, 1, in, data, 1, &all, 1, 1e-6f, 1e-6f)); /* all axes */
  in[1] = TD(WNN_DTYPE_I64, 0);
  in[1].data = none;
  CHECK(op_check_data("ReduceLogSum", "{\"noop_with_empty_axes\":1}", 2, in, data, 1, x, 4, 0, 0));
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
      CHECK(op_check_data("ReduceLogSum", k ? "{\"keepdims\":0}" : NULL, 2, r, d, 1, NULL, 0, 1e-5f,
                       1e-6f));
    }
  CHECK(op_fails("ReduceLogSum", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_I32, 3)}, 1, WNN_ERR_DTYPE,
                 "ReduceLogSum: input 0 (data) is int32, expected float32"));
}

int main(void) {
  RUN(vs_reference);
  RUN(integers);
  RUN(empty_reductions);
  RUN(output_shapes);
  RUN(hand_computed);
  RUN(arg);
  RUN(logsoftmax);
  RUN(rejects);
  RUN(cumsum_hand_computed);
  RUN(cumsum_vs_reference);
  RUN(cumsum_rejects);
  RUN(reducelogsum);
  return test_summary();
}
