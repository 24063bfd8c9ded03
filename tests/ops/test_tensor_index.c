/* Gather, Slice, Split, Expand, Tile, Pad, DepthToSpace and SpaceToDepth:
 * run against the reference on random data for every element size,
 * hand-computed values, and the failure paths. */
#include "op_harness.h"

static const wnn_dtype ALL_DTYPES[6] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64,
                                        WNN_DTYPE_U8,  WNN_DTYPE_I8,  WNN_DTYPE_BOOL};

/* A constant 1-D int64 input. */
static wnn_tdesc ints(int n, const int64_t *v) {
  wnn_tdesc t = td(WNN_DTYPE_I64, 1, (int64_t[]){n});
  t.data = v;
  return t;
}
#define INTS(...)                                                                      \
  ints((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})

static wnn_tdesc with_dtype(wnn_tdesc t, wnn_dtype dtype) {
  t.dtype = dtype;
  return t;
}

/* Prepares the node and runs run and reference on the same inputs (data[i],
 * or random when data is NULL or data[i] is NULL); every output must match
 * bytewise. When want is given, output 0 must also equal its want_bytes. */
static int check_exact_n(const char *name, const char *attrs, int n_in, const wnn_tdesc *in,
                         int n_out, void *const *data, const void *want, size_t want_bytes) {
  op_case c;
  wnn_status st = op_prepare(&c, name, attrs, n_in, in, n_out);
  if (st != WNN_OK) {
    printf("  %s: prepare %s %s failed: %s\n", test_current_, name, attrs ? attrs : "", c.msg);
    return 0;
  }
  void *bufs[WNN_MAX_IO] = {0}, *got[WNN_MAX_IO] = {0}, *ref[WNN_MAX_IO] = {0};
  for (int i = 0; i < n_in; i++) {
    if (in[i].dtype == WNN_DTYPE_INVALID) continue;
    if (data && data[i]) {
      bufs[i] = malloc(td_bytes(&in[i]) + 1);
      memcpy(bufs[i], data[i], td_bytes(&in[i]));
    } else {
      bufs[i] = make_input(&in[i]);
    }
  }
  int ok = op_exec(&c, c.op->run, bufs, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, bufs, ref) == WNN_OK && ok;
  for (int k = 0; ok && k < n_out; k++) {
    if (memcmp(got[k], ref[k], td_bytes(&c.outputs[k])) != 0) {
      printf("  %s: %s %s: output %d differs from the reference\n", test_current_, name,
             attrs ? attrs : "", k);
      ok = 0;
    }
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

static int check_exact(const char *name, const char *attrs, int n_in, const wnn_tdesc *in,
                       void *const *data, const void *want, size_t want_bytes) {
  return check_exact_n(name, attrs, n_in, in, 1, data, want, want_bytes);
}

static int out_is(const op_case *c, int k, int ndim, const int64_t *dims) {
  if (wnn_shape_equal(c->outputs[k].ndim, c->outputs[k].dims, ndim, dims)) return 1;
  printf("  %s: output %d has %d dims:", test_current_, k, c->outputs[k].ndim);
  for (int d = 0; d < c->outputs[k].ndim; d++) printf(" %lld", (long long)c->outputs[k].dims[d]);
  printf("\n");
  return 0;
}
#define OUT_IS(c, k, ...) \
  out_is(c, k, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})

/* Runs fn and returns its status, its message in msg. */
static wnn_status exec_msg(op_case *c, wnn_status (*fn)(const wnn_run_ctx *), void *const *in,
                           char *msg, size_t cap) {
  wnn_tensor ins[WNN_MAX_IO], outs[WNN_MAX_IO];
  void *out[WNN_MAX_IO];
  for (int i = 0; i < c->num_inputs; i++)
    ins[i] = (wnn_tensor){in[i], c->inputs[i].dtype, c->inputs[i].ndim, c->inputs[i].dims};
  for (int k = 0; k < c->num_outputs; k++) {
    out[k] = malloc(td_bytes(&c->outputs[k]) + 1);
    outs[k] = (wnn_tensor){out[k], c->outputs[k].dtype, c->outputs[k].ndim, c->outputs[k].dims};
  }
  msg[0] = '\0';
  wnn_run_ctx ctx = {c->params, c->num_inputs, ins, c->num_outputs, outs, NULL, msg, cap};
  wnn_status st = fn(&ctx);
  for (int k = 0; k < c->num_outputs; k++) free(out[k]);
  return st;
}

/* --------------------------------------------------------------- Gather */

TEST(gather) {
  for (int d = 0; d < 6; d++) {
    wnn_tdesc in[2] = {with_dtype(TD(WNN_DTYPE_F32, 3, 4, 5), ALL_DTYPES[d]),
                       INTS(2, 0, -1, 1, -3, 2)};
    CHECK(check_exact("Gather", NULL, 2, in, NULL, NULL, 0));
    in[1] = INTS(3, -4, 0, 2);
    CHECK(check_exact("Gather", "{\"axis\":1}", 2, in, NULL, NULL, 0));
    in[1] = INTS(4, 0, -5);
    CHECK(check_exact("Gather", "{\"axis\":-1}", 2, in, NULL, NULL, 0));
  }
  /* 2-D int32 indices, scalar index. */
  int32_t idx2[4] = {1, 0, 2, 2};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_I32, 2, 2)};
  in[1].data = idx2;
  const float x[6] = {1, 2, 3, 4, 5, 6};
  const float want[8] = {3, 4, 1, 2, 5, 6, 5, 6};
  void *data[2] = {(void *)x, idx2};
  CHECK(check_exact("Gather", NULL, 2, in, data, want, sizeof want));
  op_case c;
  CHECK_OK(op_prepare(&c, "Gather", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 0, 2, 2, 2));
  int64_t one = -2;
  in[1] = TD_SCALAR(WNN_DTYPE_I64);
  data[1] = &one; /* not a constant: read at run */
  const float want1[2] = {3, 4};
  CHECK(check_exact("Gather", NULL, 2, in, data, want1, sizeof want1));
  CHECK_OK(op_prepare(&c, "Gather", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 0, 2));
  const float want2[3] = {2, 4, 6};
  one = 1;
  CHECK(check_exact("Gather", "{\"axis\":1}", 2, in, data, want2, sizeof want2));
}

TEST(gather_out_of_range_at_run) {
  op_case c;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_I64, 3)};
  CHECK_OK(op_prepare(&c, "Gather", NULL, 2, in, 1));
  float x[6] = {0};
  const int64_t bad[3][3] = {{0, 3, 1}, {-4, 0, 0}, {0, 1, INT64_MIN}};
  const char *needle[3] = {"indices[1] = 3 is out of range for axis 0 of size 3",
                           "indices[0] = -4", "indices[2] = -9223372036854775808"};
  char msg[256];
  for (int i = 0; i < 3; i++) {
    void *data[2] = {x, (void *)bad[i]};
    CHECK_STATUS(exec_msg(&c, c.op->run, data, msg, sizeof msg), WNN_ERR_OUT_OF_RANGE);
    CHECK(strstr(msg, needle[i]) != NULL);
    CHECK_STATUS(exec_msg(&c, c.op->reference, data, msg, sizeof msg), WNN_ERR_OUT_OF_RANGE);
  }
  int32_t bad32[3] = {0, 0, -7};
  in[1] = TD(WNN_DTYPE_I32, 3);
  CHECK_OK(op_prepare(&c, "Gather", NULL, 2, in, 1));
  void *data[2] = {x, bad32};
  CHECK_STATUS(exec_msg(&c, c.op->run, data, msg, sizeof msg), WNN_ERR_OUT_OF_RANGE);
  CHECK(strstr(msg, "indices[2] = -7") != NULL);
}

TEST(gather_rejects) {
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_F32, 2)};
  CHECK(op_fails("Gather", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (indices) is float32"));
  in[1] = TD(WNN_DTYPE_I64, 2);
  CHECK(op_fails("Gather", "{\"axis\":2}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axis 2"));
  in[0] = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_fails("Gather", NULL, 2, in, 1, WNN_ERR_SHAPE, "scalar"));
  in[0] = TD(WNN_DTYPE_F32, 1, 1, 1, 1, 1, 1, 1, 2);
  in[1] = TD(WNN_DTYPE_I64, 1, 2);
  CHECK(op_fails("Gather", NULL, 2, in, 1, WNN_ERR_SHAPE, "9 dims, at most 8"));
  CHECK(op_fails("Gather", "{\"axes\":0}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "unknown attribute"));
}

/* ---------------------------------------------------------------- Slice */

static int slice_case(wnn_dtype dtype, const wnn_tdesc *x, wnn_tdesc starts, wnn_tdesc ends,
                      wnn_tdesc axes, wnn_tdesc steps, int n_in) {
  wnn_tdesc in[5] = {with_dtype(*x, dtype), starts, ends, axes, steps};
  return check_exact("Slice", NULL, n_in, in, NULL, NULL, 0);
}

TEST(slice) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 4, 5, 6);
  for (int d = 0; d < 6; d++) {
    const wnn_dtype t = ALL_DTYPES[d];
    CHECK(slice_case(t, &x, INTS(1, 0), INTS(3, 4), TD_OMITTED, TD_OMITTED, 3));
    CHECK(slice_case(t, &x, INTS(-1), INTS(-100), INTS(2), INTS(-2), 5));
    CHECK(slice_case(t, &x, INTS(0, 10, 1), INTS(INT64_MAX, -1, 5), INTS(-1, 0, 1),
                     INTS(2, -1, 3), 5));
    CHECK(slice_case(t, &x, INTS(INT64_MIN), INTS(INT64_MAX), INTS(1), INTS(1), 5));
    CHECK(slice_case(t, &x, INTS(INT64_MAX), INTS(INT64_MIN), INTS(1), INTS(-1), 5));
    CHECK(slice_case(t, &x, INTS(3), INTS(1), INTS(0), TD_OMITTED, 4)); /* empty */
    CHECK(slice_case(t, &x, INTS(1, 4), INTS(4, 0), TD_OMITTED, INTS(2, -1), 5)); /* axes omitted */
    CHECK(slice_case(t, &x, INTS(-1, 1), INTS(INT64_MIN, 6), INTS(0, 2), INTS(INT64_MIN, INT64_MAX),
                     5)); /* huge steps: one element each */
  }
  /* Hand-computed: x = 0..9; x[8:1:-3] = 8, 5, 2; x[-3:] = 7, 8, 9. */
  const float v[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  void *data[5] = {(void *)v};
  wnn_tdesc in[5] = {TD(WNN_DTYPE_F32, 10), INTS(8), INTS(1), INTS(0), INTS(-3)};
  const float want[3] = {8, 5, 2};
  CHECK(check_exact("Slice", NULL, 5, in, data, want, sizeof want));
  in[1] = INTS(-3), in[2] = INTS(1000);
  const float want2[3] = {7, 8, 9};
  CHECK(check_exact("Slice", NULL, 3, in, data, want2, sizeof want2));
  /* int32 starts and ends, shape checks. */
  op_case c;
  int32_t s32[2] = {1, -1}, e32[2] = {-1, -4};
  in[0] = TD(WNN_DTYPE_F32, 3, 4);
  in[1] = TD(WNN_DTYPE_I32, 2), in[1].data = s32;
  in[2] = TD(WNN_DTYPE_I32, 2), in[2].data = e32;
  in[3] = INTS(1, 0), in[4] = INTS(1, -1);
  CHECK_OK(op_prepare(&c, "Slice", NULL, 5, in, 1));
  /* axis 1: 1 up to 3 = 2 values; axis 0: from 2 down past 0 (-4 + 3 = -1,
   * which for a negative step means "before index 0") = 3 values. */
  CHECK(OUT_IS(&c, 0, 3, 2));
  const wnn_tdesc z = TD(WNN_DTYPE_F32, 0, 3);
  in[0] = z, in[1] = INTS(-1), in[2] = INTS(-5), in[3] = INTS(0), in[4] = INTS(-1);
  CHECK_OK(op_prepare(&c, "Slice", NULL, 5, in, 1));
  CHECK(OUT_IS(&c, 0, 0, 3));
}

TEST(slice_rejects) {
  wnn_tdesc in[5] = {TD(WNN_DTYPE_F32, 4, 5), INTS(0), INTS(1), INTS(0), INTS(0)};
  CHECK(op_fails("Slice", NULL, 5, in, 1, WNN_ERR_BAD_ATTRIBUTE, "steps[0] is 0"));
  in[4] = INTS(1), in[3] = INTS(2);
  CHECK(op_fails("Slice", NULL, 5, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axes[0] = 2 out of range"));
  in[1] = INTS(0, 0), in[2] = INTS(1, 1), in[3] = INTS(1, -1), in[4] = INTS(1, 1);
  CHECK(op_fails("Slice", NULL, 5, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axes repeats axis 1"));
  in[2] = INTS(1);
  CHECK(op_fails("Slice", NULL, 3, in, 1, WNN_ERR_SHAPE, "starts has 2 values, ends has 1"));
  in[2] = TD(WNN_DTYPE_I64, 2); /* not constant */
  CHECK(op_fails("Slice", NULL, 3, in, 1, WNN_ERR_UNSUPPORTED,
                 "input 2 (ends) must be a constant"));
  in[2] = with_dtype(INTS(1, 1), WNN_DTYPE_F32);
  CHECK(op_fails("Slice", NULL, 3, in, 1, WNN_ERR_DTYPE, "input 2 (ends) is float32"));
  CHECK(op_fails("Slice", NULL, 2, in, 1, WNN_ERR_MALFORMED, "2 inputs"));
}

/* ---------------------------------------------------------------- Split */

TEST(split) {
  for (int d = 0; d < 6; d++) {
    wnn_tdesc in[2] = {with_dtype(TD(WNN_DTYPE_F32, 2, 7, 3), ALL_DTYPES[d]), INTS(2, 0, 5)};
    CHECK(check_exact_n("Split", "{\"axis\":1}", 2, in, 3, NULL, NULL, 0));
    CHECK(check_exact_n("Split", "{\"axis\":-2,\"num_outputs\":3}", 1, in, 3, NULL, NULL, 0));
    CHECK(check_exact_n("Split", "{\"axis\":2}", 1, in, 3, NULL, NULL, 0));
    CHECK(check_exact_n("Split", NULL, 1, in, 1, NULL, NULL, 0));
  }
  op_case c;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 7, 2), INTS(1, 6)};
  CHECK_OK(op_prepare(&c, "Split", "{\"num_outputs\":3}", 1, in, 3));
  CHECK(OUT_IS(&c, 0, 3, 2) && OUT_IS(&c, 1, 3, 2) && OUT_IS(&c, 2, 1, 2)); /* ceil(7/3) */
  CHECK_OK(op_prepare(&c, "Split", NULL, 2, in, 2));
  CHECK(OUT_IS(&c, 0, 1, 2) && OUT_IS(&c, 1, 6, 2));
  in[0] = TD(WNN_DTYPE_F32, 6);
  CHECK_OK(op_prepare(&c, "Split", NULL, 1, in, 3));
  CHECK(OUT_IS(&c, 0, 2) && OUT_IS(&c, 2, 2));
  /* Hand-computed: [1..6] split [2, 4] along axis 0: second output checked
   * through the reference match; first here. */
  const float v[6] = {1, 2, 3, 4, 5, 6};
  void *data[2] = {(void *)v};
  in[1] = INTS(2, 4);
  const float want[2] = {1, 2};
  CHECK(check_exact_n("Split", NULL, 2, in, 2, data, want, sizeof want));
}

TEST(split_rejects) {
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 7, 2), INTS(3, 3)};
  CHECK(op_fails("Split", NULL, 2, in, 2, WNN_ERR_SHAPE, "split sums to 6, axis 0 has size 7"));
  in[1] = INTS(8, -1);
  CHECK(op_fails("Split", NULL, 2, in, 2, WNN_ERR_SHAPE, "split[0] = 8"));
  in[1] = INTS(7);
  CHECK(op_fails("Split", NULL, 2, in, 2, WNN_ERR_SHAPE, "has 1 values, the node has 2 outputs"));
  CHECK(op_fails("Split", "{\"num_outputs\":3}", 1, in, 2, WNN_ERR_BAD_ATTRIBUTE,
                 "num_outputs = 3, but the node has 2"));
  CHECK(op_fails("Split", "{\"num_outputs\":1}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "both given"));
  in[0] = TD(WNN_DTYPE_F32, 2);
  CHECK(op_fails("Split", NULL, 1, in, 4, WNN_ERR_SHAPE, "cannot be split into 4 parts"));
  CHECK(op_fails("Split", "{\"axis\":1}", 1, in, 2, WNN_ERR_BAD_ATTRIBUTE, "axis 1"));
}

/* ------------------------------------------------------- Expand and Tile */

TEST(expand) {
  for (int d = 0; d < 6; d++) {
    wnn_tdesc in[2] = {with_dtype(TD(WNN_DTYPE_F32, 3, 1), ALL_DTYPES[d]), INTS(2, 1, 4)};
    CHECK(check_exact("Expand", NULL, 2, in, NULL, NULL, 0));
    in[1] = INTS(1);
    CHECK(check_exact("Expand", NULL, 2, in, NULL, NULL, 0));
    in[0] = with_dtype(TD(WNN_DTYPE_F32, 1, 5, 1, 2), ALL_DTYPES[d]);
    in[1] = INTS(3, 1, 4, 1);
    CHECK(check_exact("Expand", NULL, 2, in, NULL, NULL, 0));
  }
  op_case c;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 3, 1), INTS(2, 1, 4)};
  CHECK_OK(op_prepare(&c, "Expand", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 0, 2, 3, 4));
  in[1] = INTS(3, 0); /* a 0 target broadcasts the 1 to 0 */
  CHECK_OK(op_prepare(&c, "Expand", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 0, 3, 0));
  const float v[2] = {1, 2};
  void *data[2] = {(void *)v};
  in[0] = TD(WNN_DTYPE_F32, 2, 1), in[1] = INTS(2, 3);
  const float want[6] = {1, 1, 1, 2, 2, 2};
  CHECK(check_exact("Expand", NULL, 2, in, data, want, sizeof want));
  in[1] = INTS(3, 2);
  CHECK(op_fails("Expand", NULL, 2, in, 1, WNN_ERR_SHAPE,
                 "input dim 0 (2) does not broadcast with shape[0] (3)"));
  in[1] = INTS(-2, 1);
  CHECK(op_fails("Expand", NULL, 2, in, 1, WNN_ERR_SHAPE, "shape[0] = -2 is negative"));
  in[1] = TD(WNN_DTYPE_I64, 2);
  CHECK(op_fails("Expand", NULL, 2, in, 1, WNN_ERR_UNSUPPORTED, "input 1 (shape) must be a "
                 "constant"));
}

TEST(tile) {
  for (int d = 0; d < 6; d++) {
    wnn_tdesc in[2] = {with_dtype(TD(WNN_DTYPE_F32, 2, 3, 1), ALL_DTYPES[d]), INTS(2, 1, 3)};
    CHECK(check_exact("Tile", NULL, 2, in, NULL, NULL, 0));
    in[1] = INTS(1, 0, 2);
    CHECK(check_exact("Tile", NULL, 2, in, NULL, NULL, 0));
  }
  const float v[3] = {1, 2, 3};
  void *data[2] = {(void *)v};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 1, 3), INTS(2, 2)};
  const float want[12] = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
  CHECK(check_exact("Tile", NULL, 2, in, data, want, sizeof want));
  op_case c;
  CHECK_OK(op_prepare(&c, "Tile", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 0, 2, 6));
  in[1] = INTS(2);
  CHECK(op_fails("Tile", NULL, 2, in, 1, WNN_ERR_SHAPE, "repeats has 1 values, input has 2 dims"));
  in[1] = INTS(1, -1);
  CHECK(op_fails("Tile", NULL, 2, in, 1, WNN_ERR_SHAPE, "repeats[1] = -1"));
}

/* ------------------------------------------------------------------ Pad */

TEST(pad) {
  const char *modes[4] = {"{\"mode\":\"constant\"}", "{\"mode\":\"reflect\"}",
                          "{\"mode\":\"edge\"}", "{\"mode\":\"wrap\"}"};
  for (int m = 0; m < 4; m++) {
    for (int d = 0; d < 6; d++) {
      wnn_tdesc in[4] = {with_dtype(TD(WNN_DTYPE_F32, 2, 3, 4), ALL_DTYPES[d]),
                         INTS(0, 1, 2, 1, 0, 3)};
      CHECK(check_exact("Pad", modes[m], 2, in, NULL, NULL, 0));
      in[1] = INTS(0, 0, -1, 1, 0, -2); /* crop the last dim on both sides */
      CHECK(check_exact("Pad", modes[m], 2, in, NULL, NULL, 0));
      in[1] = INTS(0, 0, -3, 0, 0, 5); /* crop one side, pad the other */
      CHECK(check_exact("Pad", modes[m], 2, in, NULL, NULL, 0));
      in[1] = INTS(-1, 2, 0, 7); /* crop and pad past the size (reflect, wrap repeat) */
      in[3] = INTS(0, -1);
      in[2] = TD_OMITTED;
      CHECK(check_exact("Pad", modes[m], 4, in, NULL, NULL, 0));
      in[2] = with_dtype(TD_SCALAR(WNN_DTYPE_F32), ALL_DTYPES[d]); /* value read at run */
      CHECK(check_exact("Pad", modes[m], 4, in, NULL, NULL, 0));
    }
  }
  /* Hand-computed on [1, 2, 3], pads (2, 2). */
  const float v[3] = {1, 2, 3}, seven = 7;
  void *data[3] = {(void *)v, NULL, (void *)&seven};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 3), INTS(2, 2), TD_SCALAR(WNN_DTYPE_F32)};
  const float want_c[7] = {7, 7, 1, 2, 3, 7, 7}, want_r[7] = {3, 2, 1, 2, 3, 2, 1},
              want_e[7] = {1, 1, 1, 2, 3, 3, 3}, want_w[7] = {2, 3, 1, 2, 3, 1, 2},
              want_0[7] = {0, 0, 1, 2, 3, 0, 0};
  CHECK(check_exact("Pad", NULL, 3, in, data, want_c, sizeof want_c));
  CHECK(check_exact("Pad", NULL, 2, in, data, want_0, sizeof want_0));
  CHECK(check_exact("Pad", modes[1], 3, in, data, want_r, sizeof want_r));
  CHECK(check_exact("Pad", modes[2], 3, in, data, want_e, sizeof want_e));
  CHECK(check_exact("Pad", modes[3], 3, in, data, want_w, sizeof want_w));
}

TEST(pad_rejects) {
  wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 2, 3), INTS(1, 1, 1)};
  CHECK(op_fails("Pad", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 1 (pads) has 3 values, expected 4"));
  in[1] = INTS(0, -2, 0, -2);
  CHECK(op_fails("Pad", NULL, 2, in, 1, WNN_ERR_SHAPE, "remove more than axis 1's 3"));
  in[1] = INTS(0, 0, 0, 0);
  CHECK(op_fails("Pad", "{\"mode\":\"mirror\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "mode 'mirror'"));
  in[2] = TD_SCALAR(WNN_DTYPE_I64);
  CHECK(op_fails("Pad", NULL, 3, in, 1, WNN_ERR_DTYPE, "input 2 (constant_value) is int64"));
  in[2] = TD(WNN_DTYPE_F32, 2);
  CHECK(op_fails("Pad", NULL, 3, in, 1, WNN_ERR_SHAPE, "must be a scalar"));
  in[2] = TD_OMITTED;
  in[3] = INTS(1, 1);
  CHECK(op_fails("Pad", NULL, 4, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axes repeats axis 1"));
  in[0] = TD(WNN_DTYPE_F32, 0, 3), in[1] = INTS(1, 0, 0, 0);
  CHECK(op_fails("Pad", "{\"mode\":\"edge\"}", 2, in, 1, WNN_ERR_SHAPE, "empty"));
  in[1] = TD(WNN_DTYPE_I64, 4);
  CHECK(op_fails("Pad", NULL, 2, in, 1, WNN_ERR_UNSUPPORTED, "input 1 (pads) must be a constant"));
}

/* ------------------------------------------ DepthToSpace, SpaceToDepth */

TEST(depth_space) {
  for (int d = 0; d < 6; d++) {
    const wnn_tdesc x = with_dtype(TD(WNN_DTYPE_F32, 2, 8, 3, 2), ALL_DTYPES[d]);
    CHECK(check_exact("DepthToSpace", "{\"blocksize\":2}", 1, &x, NULL, NULL, 0));
    CHECK(check_exact("DepthToSpace", "{\"blocksize\":2,\"mode\":\"CRD\"}", 1, &x, NULL, NULL, 0));
    const wnn_tdesc y = with_dtype(TD(WNN_DTYPE_F32, 2, 3, 6, 4), ALL_DTYPES[d]);
    CHECK(check_exact("SpaceToDepth", "{\"blocksize\":2}", 1, &y, NULL, NULL, 0));
  }
  /* ONNX's documented example: x = 0..47 as [1, 8, 2, 3], blocksize 2. */
  float x[48];
  for (int i = 0; i < 48; i++) x[i] = (float)i;
  void *data[1] = {x};
  const wnn_tdesc xd = TD(WNN_DTYPE_F32, 1, 8, 2, 3);
  const float dcr[6] = {0, 12, 1, 13, 2, 14};
  const float crd[6] = {0, 6, 1, 7, 2, 8};
  op_case c;
  CHECK_OK(op_prepare(&c, "DepthToSpace", "{\"blocksize\":2}", 1, &xd, 1));
  CHECK(OUT_IS(&c, 0, 1, 2, 4, 6));
  /* The first output row of each mode. */
  void *out[1];
  CHECK_OK(op_exec(&c, c.op->run, data, out));
  CHECK(memcmp(out[0], dcr, 6 * sizeof(float)) == 0);
  free(out[0]);
  CHECK_OK(op_prepare(&c, "DepthToSpace", "{\"blocksize\":2,\"mode\":\"CRD\"}", 1, &xd, 1));
  CHECK_OK(op_exec(&c, c.op->run, data, out));
  CHECK(memcmp(out[0], crd, 6 * sizeof(float)) == 0);
  free(out[0]);
  /* SpaceToDepth inverts DCR DepthToSpace. */
  const wnn_tdesc s = TD(WNN_DTYPE_F32, 1, 2, 4, 6);
  CHECK_OK(op_prepare(&c, "SpaceToDepth", "{\"blocksize\":2}", 1, &s, 1));
  CHECK(OUT_IS(&c, 0, 1, 8, 2, 3));
  op_case c2;
  CHECK_OK(op_prepare(&c2, "DepthToSpace", "{\"blocksize\":2}", 1, &xd, 1));
  void *mid[1], *back[1];
  CHECK_OK(op_exec(&c2, c2.op->run, data, mid));
  CHECK_OK(op_exec(&c, c.op->run, mid, back));
  CHECK(memcmp(back[0], x, sizeof x) == 0);
  free(mid[0]);
  free(back[0]);
}

TEST(depth_space_rejects) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 1, 6, 2, 3);
  CHECK(op_fails("DepthToSpace", "{\"blocksize\":2}", 1, &x, 1, WNN_ERR_SHAPE,
                 "6 channels, not a multiple of blocksize^2 = 4"));
  CHECK(op_fails("DepthToSpace", NULL, 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "required"));
  CHECK(op_fails("DepthToSpace", "{\"blocksize\":1,\"mode\":\"RCD\"}", 1, &x, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "mode 'RCD'"));
  CHECK(op_fails("SpaceToDepth", "{\"blocksize\":2}", 1, &x, 1, WNN_ERR_SHAPE,
                 "width 3 must be multiples of blocksize 2"));
  const wnn_tdesc x3 = TD(WNN_DTYPE_F32, 6, 2, 3);
  CHECK(op_fails("SpaceToDepth", "{\"blocksize\":1}", 1, &x3, 1, WNN_ERR_SHAPE,
                 "has 3 dims, expected 4"));
}

int main(void) {
  RUN(gather);
  RUN(gather_out_of_range_at_run);
  RUN(gather_rejects);
  RUN(slice);
  RUN(slice_rejects);
  RUN(split);
  RUN(split_rejects);
  RUN(expand);
  RUN(tile);
  RUN(pad);
  RUN(pad_rejects);
  RUN(depth_space);
  RUN(depth_space_rejects);
  return test_summary();
}
