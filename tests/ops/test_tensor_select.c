/* GatherElements, GatherND, ScatterElements, ScatterND, Trilu, OneHot, TopK
 * and CastLike: the reference on random data, hand-computed values, and the
 * failure paths (at prepare and, for data-dependent indices, at run). */
#include <math.h>

#include "op_harness.h"

static const wnn_dtype ALL_DTYPES[6] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64,
                                        WNN_DTYPE_U8,  WNN_DTYPE_I8,  WNN_DTYPE_BOOL};

static wnn_tdesc with_dtype(wnn_tdesc t, wnn_dtype dtype) {
  t.dtype = dtype;
  return t;
}

static wnn_tdesc with_data(wnn_tdesc t, const void *data) {
  t.data = data;
  return t;
}

/* Fills n int64 indices in [lo, hi]. */
static void fill_indices(int64_t *v, size_t n, int64_t lo, int64_t hi) {
  for (size_t i = 0; i < n; i++) v[i] = lo + (int64_t)(lcg_next() % (uint32_t)(hi - lo + 1));
}

/* Prepares, runs run and reference on data (random where data[i] is NULL),
 * requires every output to match bytewise, and output 0 to equal want when
 * given. Returns 1 when all held. */
static int check(const char *name, const char *attrs, int n_in, const wnn_tdesc *in, int n_out,
                 void *const *data, const void *want, size_t want_bytes) {
  op_case c;
  if (op_prepare(&c, name, attrs, n_in, in, n_out) != WNN_OK) {
    printf("  %s: prepare %s %s failed: %s\n", test_current_, name, attrs ? attrs : "", c.msg);
    return 0;
  }
  void *bufs[WNN_MAX_IO] = {0}, *got[WNN_MAX_IO] = {0}, *ref[WNN_MAX_IO] = {0};
  for (int i = 0; i < n_in; i++) {
    if (in[i].dtype == WNN_DTYPE_INVALID) continue;
    bufs[i] = make_input(&in[i]);
    if (data && data[i]) memcpy(bufs[i], data[i], td_bytes(&in[i]));
  }
  int ok = op_exec(&c, c.op->run, bufs, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, bufs, ref) == WNN_OK && ok;
  for (int k = 0; ok && k < n_out; k++)
    if (memcmp(got[k], ref[k], td_bytes(&c.outputs[k])) != 0) {
      printf("  %s: %s %s: output %d differs from the reference\n", test_current_, name,
             attrs ? attrs : "", k);
      ok = 0;
    }
  if (ok && want && (td_bytes(&c.outputs[0]) != want_bytes || memcmp(got[0], want, want_bytes))) {
    printf("  %s: %s %s: output 0 differs from the expected values\n", test_current_, name,
           attrs ? attrs : "");
    ok = 0;
  }
  for (int i = 0; i < n_in; i++) free(bufs[i]);
  for (int k = 0; k < n_out; k++) free(got[k]), free(ref[k]);
  return ok;
}

/* Expects run and reference to fail with OUT_OF_RANGE; run's message must
 * contain needle. */
static int run_fails(const char *name, const char *attrs, int n_in, const wnn_tdesc *in,
                     void *const *data, const char *needle) {
  op_case c;
  if (op_prepare(&c, name, attrs, n_in, in, 1) != WNN_OK) {
    printf("  %s: prepare failed: %s\n", test_current_, c.msg);
    return 0;
  }
  wnn_tensor ins[WNN_MAX_IO], outs[1];
  void *out = malloc(td_bytes(&c.outputs[0]) + 1);
  for (int i = 0; i < n_in; i++)
    ins[i] = (wnn_tensor){data[i], in[i].dtype, in[i].ndim, c.inputs[i].dims};
  outs[0] = (wnn_tensor){out, c.outputs[0].dtype, c.outputs[0].ndim, c.outputs[0].dims};
  char msg[256] = "";
  wnn_run_ctx ctx = {c.params, n_in, ins, 1, outs, NULL, msg, sizeof msg};
  int ok = c.op->run(&ctx) == WNN_ERR_OUT_OF_RANGE && strstr(msg, needle) != NULL;
  if (!ok) printf("  %s: %s run gave '%s', wanted '%s'\n", test_current_, name, msg, needle);
  ok = c.op->reference(&ctx) == WNN_ERR_OUT_OF_RANGE && ok;
  free(out);
  return ok;
}

/* ------------------------------------------------------- GatherElements */

TEST(gather_elements) {
  int64_t idx[3 * 2 * 4];
  for (int d = 0; d < 6; d++) {
    wnn_tdesc in[2] = {with_dtype(TD(WNN_DTYPE_F32, 3, 5, 4), ALL_DTYPES[d]),
                       TD(WNN_DTYPE_I64, 3, 2, 4)};
    fill_indices(idx, 24, -5, 4);
    void *data[2] = {NULL, idx};
    CHECK(check("GatherElements", "{\"axis\":1}", 2, in, 1, data, NULL, 0));
    in[1] = TD(WNN_DTYPE_I64, 2, 2, 4);
    fill_indices(idx, 16, -3, 2);
    CHECK(check("GatherElements", NULL, 2, in, 1, data, NULL, 0));
  }
  /* ONNX's example: data [[1, 2], [3, 4]], indices [[0, 0], [1, 0]], axis 1. */
  const float x[4] = {1, 2, 3, 4}, want[4] = {1, 1, 4, 3};
  const int32_t i32[4] = {0, 0, -1, 0};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 2), TD(WNN_DTYPE_I32, 2, 2)};
  void *data[2] = {(void *)x, (void *)i32};
  CHECK(check("GatherElements", "{\"axis\":1}", 2, in, 1, data, want, sizeof want));
  const int32_t bad[4] = {0, 2, 0, 0};
  data[1] = (void *)bad;
  CHECK(run_fails("GatherElements", "{\"axis\":1}", 2, in, data,
                  "indices[1] = 2 is out of range for axis 1 of size 2"));
  in[1] = TD(WNN_DTYPE_I64, 2);
  CHECK(op_fails("GatherElements", NULL, 2, in, 1, WNN_ERR_SHAPE, "has 1 dims, expected 2"));
  in[1] = TD(WNN_DTYPE_I64, 2, 3);
  CHECK(op_fails("GatherElements", NULL, 2, in, 1, WNN_ERR_SHAPE, "indices has 3 at dim 1"));
  in[1] = TD(WNN_DTYPE_F32, 2, 2);
  CHECK(op_fails("GatherElements", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (indices) is float32"));
}

/* ------------------------------------------------------------- GatherND */

TEST(gather_nd) {
  int64_t idx[64];
  for (int d = 0; d < 6; d++) {
    const wnn_dtype t = ALL_DTYPES[d];
    wnn_tdesc in[2] = {with_dtype(TD(WNN_DTYPE_F32, 3, 4, 5), t), TD(WNN_DTYPE_I64, 2, 3, 2)};
    for (int i = 0; i < 12; i += 2) idx[i] = (int64_t)(lcg_next() % 6u) - 3, idx[i + 1] = -1;
    void *data[2] = {NULL, idx};
    CHECK(check("GatherND", NULL, 2, in, 1, data, NULL, 0)); /* k = 2: slices of 5 */
    in[1] = TD(WNN_DTYPE_I64, 3, 2, 2); /* batch_dims 1: k = 2 into [4, 5] */
    for (int i = 0; i < 12; i += 2) idx[i] = (int64_t)(lcg_next() % 8u) - 4, idx[i + 1] = 4;
    CHECK(check("GatherND", "{\"batch_dims\":1}", 2, in, 1, data, NULL, 0));
    in[1] = TD(WNN_DTYPE_I64, 4, 3);
    for (int i = 0; i < 12; i++) idx[i] = (int64_t)(lcg_next() % 3u);
    CHECK(check("GatherND", NULL, 2, in, 1, data, NULL, 0)); /* k = 3: single elements */
  }
  /* ONNX's examples: data [[[0,1],[2,3]],[[4,5],[6,7]]], indices [[0,1],[1,0]]
   * -> [[2,3],[4,5]]; with batch_dims 1 and indices [[1],[0]] -> [[2,3],[4,5]]. */
  const float x[8] = {0, 1, 2, 3, 4, 5, 6, 7}, want[4] = {2, 3, 4, 5};
  const int64_t i2[4] = {0, 1, 1, 0}, i1[2] = {1, 0};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 2, 2), TD(WNN_DTYPE_I64, 2, 2)};
  void *data[2] = {(void *)x, (void *)i2};
  CHECK(check("GatherND", NULL, 2, in, 1, data, want, sizeof want));
  in[1] = TD(WNN_DTYPE_I64, 2, 1);
  data[1] = (void *)i1;
  CHECK(check("GatherND", "{\"batch_dims\":1}", 2, in, 1, data, want, sizeof want));
  const int64_t bad[2] = {0, 2};
  data[1] = (void *)bad;
  CHECK(run_fails("GatherND", NULL, 2, in, data, "indices[1][0] = 2 is out of range"));
  in[1] = TD(WNN_DTYPE_I64, 2, 4);
  CHECK(op_fails("GatherND", NULL, 2, in, 1, WNN_ERR_SHAPE, "last dim is 4, must be in [1, 3]"));
  in[1] = TD(WNN_DTYPE_I64, 3, 1);
  CHECK(op_fails("GatherND", "{\"batch_dims\":1}", 2, in, 1, WNN_ERR_SHAPE,
                 "batch dim 0 is 3 in indices and 2 in data"));
  CHECK(op_fails("GatherND", "{\"batch_dims\":2}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "batch_dims = 2"));
  in[1] = TD(WNN_DTYPE_I32, 2, 1);
  CHECK(op_fails("GatherND", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (indices) is int32"));
}

/* ------------------------------------------- ScatterElements, ScatterND */

TEST(scatter_elements) {
  const char *reds[5] = {"{\"axis\":1}", "{\"axis\":1,\"reduction\":\"add\"}",
                         "{\"axis\":1,\"reduction\":\"mul\"}", "{\"axis\":1,\"reduction\":\"max\"}",
                         "{\"axis\":1,\"reduction\":\"min\"}"};
  int64_t idx[3 * 2 * 4];
  for (int d = 0; d < 6; d++) {
    for (int r = 0; r < 5; r++) {
      if (r > 0 && d > 2) continue; /* reductions: float32, int32, int64 */
      const wnn_dtype t = ALL_DTYPES[d];
      wnn_tdesc in[3] = {with_dtype(TD(WNN_DTYPE_F32, 3, 5, 4), t), TD(WNN_DTYPE_I64, 3, 2, 4),
                         with_dtype(TD(WNN_DTYPE_F32, 3, 2, 4), t)};
      /* Distinct indices along the axis for "none" (duplicates: last wins in
       * both, but keep the case well-defined). */
      for (int a = 0; a < 3; a++)
        for (int k = 0; k < 4; k++) {
          idx[a * 8 + k] = r == 0 ? 1 : (int64_t)(lcg_next() % 5u);
          idx[a * 8 + 4 + k] = r == 0 ? -2 : (int64_t)(lcg_next() % 5u) - 5;
        }
      void *data[3] = {NULL, idx, NULL};
      CHECK(check("ScatterElements", reds[r], 3, in, 1, data, NULL, 0));
    }
  }
  /* As ONNX's example (data 1x5 [1..5], indices [[1, 3]], axis 1), with
   * updates exact in binary: [[1.5, 2.5]]; -2 is index 3. */
  const float x[5] = {1, 2, 3, 4, 5}, u[2] = {1.5f, 2.5f};
  const float want[5] = {1, 1.5f, 3, 2.5f, 5}, want_add[5] = {1, 3.5f, 3, 6.5f, 5};
  const int64_t i[2] = {1, -2};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 5), TD(WNN_DTYPE_I64, 1, 2), TD(WNN_DTYPE_F32, 1, 2)};
  void *data[3] = {(void *)x, (void *)i, (void *)u};
  CHECK(check("ScatterElements", reds[0], 3, in, 1, data, want, sizeof want));
  CHECK(check("ScatterElements", reds[1], 3, in, 1, data, want_add, sizeof want_add));
  const int64_t bad[2] = {1, 5};
  data[1] = (void *)bad;
  CHECK(run_fails("ScatterElements", reds[0], 3, in, data, "indices[1] = 5"));
  CHECK(op_fails("ScatterElements", "{\"reduction\":\"sub\"}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "reduction 'sub'"));
  in[2] = TD(WNN_DTYPE_F32, 1, 3);
  CHECK(op_fails("ScatterElements", NULL, 3, in, 1, WNN_ERR_SHAPE, "shape of indices"));
  wnn_tdesc b[3] = {TD(WNN_DTYPE_BOOL, 1, 5), TD(WNN_DTYPE_I64, 1, 2), TD(WNN_DTYPE_BOOL, 1, 2)};
  CHECK(op_fails("ScatterElements", "{\"reduction\":\"add\"}", 3, b, 1, WNN_ERR_DTYPE,
                 "reduction 'add' on bool"));
}

TEST(scatter_nd) {
  const char *reds[3] = {NULL, "{\"reduction\":\"add\"}", "{\"reduction\":\"max\"}"};
  for (int d = 0; d < 6; d++) {
    for (int r = 0; r < 3; r++) {
      if (r > 0 && d > 2) continue;
      const wnn_dtype t = ALL_DTYPES[d];
      /* data [4, 3, 2]; indices [2, 2] address [3?, ...]: k = 2, slices of 2. */
      int64_t idx[4] = {0, 1, -1, 2};
      wnn_tdesc in[3] = {with_dtype(TD(WNN_DTYPE_F32, 4, 3, 2), t), TD(WNN_DTYPE_I64, 2, 2),
                         with_dtype(TD(WNN_DTYPE_F32, 2, 2), t)};
      void *data[3] = {NULL, idx, NULL};
      CHECK(check("ScatterND", reds[r], 3, in, 1, data, NULL, 0));
      int64_t idx1[3] = {3, 0, -4}; /* k = 1, duplicates add up */
      in[1] = TD(WNN_DTYPE_I64, 3, 1);
      in[2] = with_dtype(TD(WNN_DTYPE_F32, 3, 3, 2), t);
      data[1] = idx1;
      if (r > 0) CHECK(check("ScatterND", reds[r], 3, in, 1, data, NULL, 0));
    }
  }
  /* ONNX's 1-D example: data [1..8], indices [[4], [3], [1], [7]],
   * updates [9, 10, 11, 12] -> [1, 11, 3, 10, 9, 6, 7, 12]. */
  const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, u[4] = {9, 10, 11, 12};
  const float want[8] = {1, 11, 3, 10, 9, 6, 7, 12};
  const int64_t i[4] = {4, 3, 1, 7};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 8), TD(WNN_DTYPE_I64, 4, 1), TD(WNN_DTYPE_F32, 4)};
  void *data[3] = {(void *)x, (void *)i, (void *)u};
  CHECK(check("ScatterND", NULL, 3, in, 1, data, want, sizeof want));
  const int64_t bad[4] = {4, 3, 8, 7};
  data[1] = (void *)bad;
  CHECK(run_fails("ScatterND", NULL, 3, in, data, "indices[2][0] = 8 is out of range"));
  in[2] = TD(WNN_DTYPE_F32, 5);
  CHECK(op_fails("ScatterND", NULL, 3, in, 1, WNN_ERR_SHAPE, "indices.shape[:-1] + data.shape[1:]"));
  in[1] = TD(WNN_DTYPE_I64, 4, 2);
  CHECK(op_fails("ScatterND", NULL, 3, in, 1, WNN_ERR_SHAPE, "last dim of at most data's rank 1"));
  in[1] = TD(WNN_DTYPE_I32, 4, 1);
  CHECK(op_fails("ScatterND", NULL, 3, in, 1, WNN_ERR_DTYPE, "input 1 (indices) is int32"));
}

/* ---------------------------------------------------------------- Trilu */

TEST(trilu) {
  const int64_t ks[7] = {0, 1, -1, 3, -2, 100, INT64_MIN};
  for (int d = 0; d < 6; d++) {
    for (int k = 0; k < 7; k++) {
      wnn_tdesc in[2] = {with_dtype(TD(WNN_DTYPE_F32, 2, 3, 4), ALL_DTYPES[d]),
                         TD_SCALAR(WNN_DTYPE_I64)};
      void *data[2] = {NULL, (void *)&ks[k]};
      CHECK(check("Trilu", NULL, 2, in, 1, data, NULL, 0));
      CHECK(check("Trilu", "{\"upper\":0}", 2, in, 1, data, NULL, 0));
      in[0] = with_dtype(TD(WNN_DTYPE_F32, 5, 2), ALL_DTYPES[d]);
      CHECK(check("Trilu", "{\"upper\":0}", 2, in, 1, data, NULL, 0));
      CHECK(check("Trilu", "{\"upper\":1}", 2, in, 1, data, NULL, 0));
    }
  }
  const float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const float up[9] = {1, 2, 3, 0, 5, 6, 0, 0, 9}, lo1[9] = {1, 2, 0, 4, 5, 6, 7, 8, 9};
  const int64_t one = 1;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 3), TD_SCALAR(WNN_DTYPE_I64)};
  void *data[2] = {(void *)x, (void *)&one};
  CHECK(check("Trilu", NULL, 1, in, 1, data, up, sizeof up));
  CHECK(check("Trilu", "{\"upper\":0}", 2, in, 1, data, lo1, sizeof lo1));
  CHECK(op_fails("Trilu", "{\"upper\":2}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE, "upper = 2"));
  in[1] = TD(WNN_DTYPE_I64, 2);
  CHECK(op_fails("Trilu", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (k) must be a scalar"));
  in[0] = TD(WNN_DTYPE_F32, 3);
  CHECK(op_fails("Trilu", NULL, 1, in, 1, WNN_ERR_SHAPE, "has 1 dims, needs at least 2"));
}

/* --------------------------------------------------------------- OneHot */

TEST(onehot) {
  const int64_t depth = 4;
  const float depth_f = 3.0f;
  const int64_t idx[6] = {0, 3, -1, 4, -5, 2};
  for (int d = 0; d < 6; d++) {
    const wnn_dtype t = ALL_DTYPES[d];
    for (int axis = -3; axis <= 2; axis++) {
      char attrs[32];
      snprintf(attrs, sizeof attrs, "{\"axis\":%d}", axis);
      wnn_tdesc in[3] = {TD(WNN_DTYPE_I64, 2, 3),
                         with_data(TD_SCALAR(WNN_DTYPE_I64), &depth),
                         with_dtype(TD(WNN_DTYPE_F32, 2), t)};
      void *data[3] = {(void *)idx, NULL, NULL};
      CHECK(check("OneHot", attrs, 3, in, 1, data, NULL, 0));
    }
  }
  /* Float indices and depth, values [0, 1]: [1.7, -1, 5] with depth 3. */
  const float fi[3] = {1.7f, -1.0f, 5.0f}, v[2] = {0, 1};
  const float want[9] = {0, 1, 0, 0, 0, 1, 0, 0, 0};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 3), with_data(TD(WNN_DTYPE_F32, 1), &depth_f),
                     TD(WNN_DTYPE_F32, 2)};
  void *data[3] = {(void *)fi, (void *)&depth_f, (void *)v};
  CHECK(check("OneHot", NULL, 3, in, 1, data, want, sizeof want));
  op_case c;
  CHECK_OK(op_prepare(&c, "OneHot", "{\"axis\":0}", 3, in, 1));
  CHECK(c.outputs[0].ndim == 2 && c.outputs[0].dims[0] == 3 && c.outputs[0].dims[1] == 3);
  in[1] = TD_SCALAR(WNN_DTYPE_I64);
  CHECK(op_fails("OneHot", NULL, 3, in, 1, WNN_ERR_UNSUPPORTED, "input 1 (depth) must be a "
                 "constant"));
  const int64_t zero = 0;
  in[1] = with_data(TD_SCALAR(WNN_DTYPE_I64), &zero);
  CHECK(op_fails("OneHot", NULL, 3, in, 1, WNN_ERR_SHAPE, "depth is 0"));
  in[1] = with_data(TD_SCALAR(WNN_DTYPE_I64), &depth);
  in[2] = TD(WNN_DTYPE_F32, 3);
  CHECK(op_fails("OneHot", NULL, 3, in, 1, WNN_ERR_SHAPE, "[off_value, on_value]"));
  in[2] = TD(WNN_DTYPE_F32, 2);
  CHECK(op_fails("OneHot", "{\"axis\":2}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axis 2"));
}

/* ----------------------------------------------------------------- TopK */

TEST(topk) {
  const wnn_dtype dtypes[3] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64};
  const int64_t ks[4] = {0, 1, 3, 5};
  for (int d = 0; d < 3; d++) {
    for (int k = 0; k < 4; k++) {
      for (int axis = -3; axis < 3; axis++) {
        char attrs[64];
        snprintf(attrs, sizeof attrs, "{\"axis\":%d,\"largest\":%d}", axis, (axis + 3) % 2);
        wnn_tdesc in[2] = {with_dtype(TD(WNN_DTYPE_F32, 5, 6, 7), dtypes[d]),
                           with_data(TD(WNN_DTYPE_I64, 1), &ks[k])};
        CHECK(check("TopK", attrs, 2, in, 2, NULL, NULL, 0));
      }
    }
  }
  /* Ties keep the lower index first; NaN counts as the largest. */
  const float x[6] = {3, 1, 3, NAN, 2, 1};
  const int64_t k3 = 3;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 6), with_data(TD(WNN_DTYPE_I64, 1), &k3)};
  void *data[2] = {(void *)x, NULL};
  CHECK(check("TopK", NULL, 2, in, 2, data, NULL, 0));
  op_case c;
  CHECK_OK(op_prepare(&c, "TopK", "{\"largest\":0}", 2, in, 2));
  CHECK(c.outputs[1].dtype == WNN_DTYPE_I64 && c.outputs[0].dims[0] == 3);
  void *out[2];
  CHECK_OK(op_exec(&c, c.op->run, data, out));
  const float want_small[3] = {1, 1, 2};
  const int64_t want_small_i[3] = {1, 5, 4};
  CHECK(memcmp(out[0], want_small, sizeof want_small) == 0);
  CHECK(memcmp(out[1], want_small_i, sizeof want_small_i) == 0);
  free(out[0]), free(out[1]);
  CHECK_OK(op_prepare(&c, "TopK", NULL, 2, in, 2));
  CHECK_OK(op_exec(&c, c.op->run, data, out));
  const int64_t want_large_i[3] = {3, 0, 2};
  CHECK(isnan(((float *)out[0])[0]) && ((float *)out[0])[1] == 3 && ((float *)out[0])[2] == 3);
  CHECK(memcmp(out[1], want_large_i, sizeof want_large_i) == 0);
  free(out[0]), free(out[1]);
  const int64_t k7 = 7;
  in[1] = with_data(TD(WNN_DTYPE_I64, 1), &k7);
  CHECK(op_fails("TopK", NULL, 2, in, 2, WNN_ERR_SHAPE, "K = 7, axis 0 has 6 elements"));
  in[1] = TD(WNN_DTYPE_I64, 1);
  CHECK(op_fails("TopK", NULL, 2, in, 2, WNN_ERR_UNSUPPORTED, "input 1 (K) must be a constant"));
  in[1] = with_data(TD(WNN_DTYPE_I64, 1), &k3);
  CHECK(op_fails("TopK", "{\"sorted\":2}", 2, in, 2, WNN_ERR_BAD_ATTRIBUTE, "sorted = 2"));
  in[0] = TD(WNN_DTYPE_U8, 6);
  CHECK(op_fails("TopK", NULL, 2, in, 2, WNN_ERR_DTYPE, "input 0 (X) is uint8"));
  CHECK(op_fails("TopK", NULL, 2, in, 1, WNN_ERR_MALFORMED, "1 outputs"));
}

/* ------------------------------------------------------------- CastLike */

TEST(castlike) {
  const float x[3] = {1.5f, -2.5f, 0};
  const int64_t want[3] = {1, -2, 0};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_I64, 0)};
  void *data[2] = {(void *)x, NULL};
  CHECK(check("CastLike", NULL, 2, in, 1, data, want, sizeof want));
  in[1] = TD_SCALAR(WNN_DTYPE_BOOL);
  const uint8_t wantb[3] = {1, 1, 0};
  CHECK(check("CastLike", "{\"saturate\":1}", 2, in, 1, data, wantb, sizeof wantb));
  in[1] = TD_SCALAR(WNN_DTYPE_F16); /* 1.5, -2.5, 0 as halves */
  const uint16_t wanth[3] = {0x3e00, 0xc100, 0x0000};
  CHECK(check("CastLike", NULL, 2, in, 1, data, wanth, sizeof wanth));
}

/* -------------------------------------------------------------- Compress */

TEST(compress) {
  float x[6] = {1, 2, 3, 4, 5, 6};
  static const unsigned char c3[3] = {0, 1, 1}, c2[2] = {0, 1}, c5[5] = {0, 1, 0, 0, 1};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_BOOL, 3)};
  in[1].data = c3;
  void *data[2] = {x, (void *)c3};
  const float rows[4] = {3, 4, 5, 6}, cols[3] = {2, 4, 6}, flat[2] = {2, 5};
  CHECK(op_check_data("Compress", "{\"axis\":0}", 2, in, data, 1, rows, 4, 0, 0));
  in[1] = TD(WNN_DTYPE_BOOL, 2);
  in[1].data = c2;
  data[1] = (void *)c2;
  CHECK(op_check_data("Compress", "{\"axis\":-1}", 2, in, data, 1, cols, 3, 0, 0));
  /* A condition shorter than the axis: the rest is dropped. */
  const float first_rows[2] = {3, 4};
  CHECK(op_check_data("Compress", "{\"axis\":0}", 2, in, data, 1, first_rows, 2, 0, 0));
  in[1] = TD(WNN_DTYPE_BOOL, 5);
  in[1].data = c5;
  data[1] = (void *)c5;
  CHECK(op_check_data("Compress", NULL, 2, in, data, 1, flat, 2, 0, 0));
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
  CHECK(op_check_data("ReverseSequence", "{\"batch_axis\":1,\"time_axis\":0}", 2, in, data, 1, time,
                   16, 0, 0));
  int64_t lens_b[4] = {1, 2, 3, 4};
  void *data_b[2] = {x, lens_b};
  const float batch[16] = {0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12};
  CHECK(op_check_data("ReverseSequence", "{\"batch_axis\":0,\"time_axis\":1}", 2, in, data_b, 1,
                   batch, 16, 0, 0));
  /* 3-D int64 data, vs reference, with lengths 0 and the full sequence. */
  int64_t xl[5 * 3 * 2];
  for (int i = 0; i < 30; i++) xl[i] = i * 7 - 11;
  int64_t l3[3] = {0, 5, 2};
  wnn_tdesc in3[2] = {TD(WNN_DTYPE_I64, 5, 3, 2), TD(WNN_DTYPE_I64, 3)};
  void *d3[2] = {xl, l3};
  CHECK(op_check_data("ReverseSequence", NULL, 2, in3, d3, 1, NULL, 0, 0, 0));
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

int main(void) {
  RUN(gather_elements);
  RUN(gather_nd);
  RUN(scatter_elements);
  RUN(scatter_nd);
  RUN(trilu);
  RUN(onehot);
  RUN(topk);
  RUN(castlike);
  RUN(compress);
  RUN(reverse_sequence);
  return test_summary();
}
