/* Squeeze, Unsqueeze, Dropout (aliases: shapes only), Shape, Size, Cast,
 * ConstantOfShape and Range: hand-computed values, the reference, the failure
 * paths, and one graph through the builder and the runtime. */
#include <math.h>

#include "op_harness.h"
#include "wnn_builder.h"

static wnn_tdesc ints(int n, const int64_t *v) {
  wnn_tdesc t = td(WNN_DTYPE_I64, 1, (int64_t[]){n});
  t.data = v;
  return t;
}
#define INTS(...)                                                                      \
  ints((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})

static wnn_tdesc scalar(wnn_dtype dtype, const void *v) {
  wnn_tdesc t = TD_SCALAR(dtype);
  t.data = v;
  return t;
}

static int out_is(const op_case *c, int ndim, const int64_t *dims) {
  if (wnn_shape_equal(c->outputs[0].ndim, c->outputs[0].dims, ndim, dims)) return 1;
  printf("  %s: output has %d dims:", test_current_, c->outputs[0].ndim);
  for (int d = 0; d < c->outputs[0].ndim; d++) printf(" %lld", (long long)c->outputs[0].dims[d]);
  printf("\n");
  return 0;
}
#define OUT_IS(c, ...) \
  out_is(c, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})

/* Prepares, runs run and reference on data (random where NULL) and checks
 * that both give exactly want (want_bytes bytes). */
static int expect_bytes(const char *name, const char *attrs, int n_in, const wnn_tdesc *in,
                        void *const *data, const void *want, size_t want_bytes) {
  op_case c;
  if (op_prepare(&c, name, attrs, n_in, in, 1) != WNN_OK) {
    printf("  %s: prepare %s %s failed: %s\n", test_current_, name, attrs ? attrs : "", c.msg);
    return 0;
  }
  if (td_bytes(&c.outputs[0]) != want_bytes) {
    printf("  %s: %s gives %zu bytes, expected %zu\n", test_current_, name,
           td_bytes(&c.outputs[0]), want_bytes);
    return 0;
  }
  void *bufs[WNN_MAX_IO] = {0};
  for (int i = 0; i < n_in; i++)
    if (in[i].dtype != WNN_DTYPE_INVALID)
      bufs[i] = data && data[i] ? data[i] : make_input(&in[i]);
  int ok = 1;
  wnn_status (*fns[2])(const wnn_run_ctx *) = {c.op->run, c.op->reference};
  for (int f = 0; f < 2; f++) {
    void *out[1];
    ok = op_exec(&c, fns[f], bufs, out) == WNN_OK && ok;
    if (memcmp(out[0], want, want_bytes) != 0) {
      printf("  %s: %s %s (%s) differs from the expected values\n", test_current_, name,
             attrs ? attrs : "", f ? "reference" : "run");
      ok = 0;
    }
    free(out[0]);
  }
  for (int i = 0; i < n_in; i++)
    if (!(data && data[i])) free(bufs[i]);
  return ok;
}

TEST(aliases) {
  const char *names[3] = {"Squeeze", "Unsqueeze", "Dropout"};
  for (int i = 0; i < 3; i++) {
    const wnn_op *op = wnn_op_by_name(names[i]);
    CHECK(op && (op->flags & WNN_OP_ALIAS) && !op->run && !op->reference);
  }
}

TEST(squeeze) {
  op_case c;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 1, 3, 1, 2), INTS(0, -2)};
  CHECK_OK(op_prepare(&c, "Squeeze", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 3, 2));
  CHECK_OK(op_prepare(&c, "Squeeze", NULL, 1, in, 1)); /* every 1 */
  CHECK(OUT_IS(&c, 3, 2));
  in[1] = INTS(2);
  CHECK_OK(op_prepare(&c, "Squeeze", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 1, 3, 2));
  in[1] = TD_OMITTED;
  CHECK_OK(op_prepare(&c, "Squeeze", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 3, 2));
  in[1] = ints(0, (int64_t[]){0}); /* an empty list: as omitted */
  CHECK_OK(op_prepare(&c, "Squeeze", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 3, 2));
  in[0] = TD(WNN_DTYPE_BOOL, 1, 1);
  CHECK_OK(op_prepare(&c, "Squeeze", NULL, 1, in, 1));
  CHECK(c.outputs[0].ndim == 0 && c.outputs[0].dtype == WNN_DTYPE_BOOL);
  in[0] = TD(WNN_DTYPE_F32, 1, 3);
  in[1] = INTS(1);
  CHECK(op_fails("Squeeze", NULL, 2, in, 1, WNN_ERR_SHAPE, "axis 1 has size 3, not 1"));
  in[1] = INTS(2);
  CHECK(op_fails("Squeeze", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "axes[0] = 2 out of range for rank 2"));
  in[1] = INTS(0, -2);
  CHECK(op_fails("Squeeze", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axes repeats axis 0"));
  in[1] = TD(WNN_DTYPE_I64, 1);
  CHECK(op_fails("Squeeze", NULL, 2, in, 1, WNN_ERR_UNSUPPORTED,
                 "input 1 (axes) must be a constant"));
  CHECK(op_fails("Squeeze", "{\"axes\":[0]}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "unknown attribute 'axes'"));
}

TEST(unsqueeze) {
  op_case c;
  wnn_tdesc in[2] = {TD(WNN_DTYPE_I64, 3, 4), INTS(0, -1)};
  CHECK_OK(op_prepare(&c, "Unsqueeze", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 1, 3, 4, 1) && c.outputs[0].dtype == WNN_DTYPE_I64);
  in[1] = INTS(3, 1);
  CHECK_OK(op_prepare(&c, "Unsqueeze", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 3, 1, 4, 1));
  in[0] = TD_SCALAR(WNN_DTYPE_F32), in[1] = INTS(0);
  CHECK_OK(op_prepare(&c, "Unsqueeze", NULL, 2, in, 1));
  CHECK(OUT_IS(&c, 1));
  in[0] = TD(WNN_DTYPE_F32, 3, 4), in[1] = INTS(4);
  CHECK(op_fails("Unsqueeze", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axes[0] = 4 out of range"));
  in[1] = INTS(1, 1);
  CHECK(op_fails("Unsqueeze", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axes repeats axis 1"));
  in[0] = TD(WNN_DTYPE_F32, 1, 1, 1, 1, 1, 1, 1);
  CHECK(op_fails("Unsqueeze", NULL, 2, in, 1, WNN_ERR_SHAPE, "9 dims, at most 8"));
  in[0] = TD(WNN_DTYPE_F32, 3), in[1] = TD(WNN_DTYPE_I32, 1);
  CHECK(op_fails("Unsqueeze", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (axes) is int32"));
  CHECK(op_fails("Unsqueeze", NULL, 1, in, 1, WNN_ERR_MALFORMED, "1 inputs"));
}

TEST(dropout) {
  op_case c;
  const float ratio = 0.5f;
  const unsigned char off = 0, on = 1;
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3), scalar(WNN_DTYPE_F32, &ratio),
                     scalar(WNN_DTYPE_BOOL, &off)};
  CHECK_OK(op_prepare(&c, "Dropout", "{\"seed\":3}", 3, in, 1));
  CHECK(OUT_IS(&c, 2, 3));
  CHECK_OK(op_prepare(&c, "Dropout", NULL, 1, in, 1));
  in[1] = TD_SCALAR(WNN_DTYPE_F32); /* ratio need not be constant: unused */
  in[2] = TD_OMITTED;
  CHECK_OK(op_prepare(&c, "Dropout", NULL, 3, in, 1));
  in[2] = scalar(WNN_DTYPE_BOOL, &on);
  CHECK(op_fails("Dropout", NULL, 3, in, 1, WNN_ERR_UNSUPPORTED, "training_mode) is true"));
  in[2] = TD_SCALAR(WNN_DTYPE_BOOL);
  CHECK(op_fails("Dropout", NULL, 3, in, 1, WNN_ERR_UNSUPPORTED,
                 "input 2 (training_mode) must be a constant"));
  CHECK(op_fails("Dropout", NULL, 1, in, 2, WNN_ERR_UNSUPPORTED, "output 1 (mask)"));
  CHECK(op_fails("Dropout", "{\"ratio\":0.5}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "unknown attribute 'ratio'"));
}

TEST(shape_size) {
  const wnn_tdesc x = TD(WNN_DTYPE_U8, 2, 3, 4, 5);
  const int64_t all[4] = {2, 3, 4, 5}, mid[2] = {3, 4}, last[1] = {5}, n = 120;
  CHECK(expect_bytes("Shape", NULL, 1, &x, NULL, all, sizeof all));
  CHECK(expect_bytes("Shape", "{\"start\":1,\"end\":-1}", 1, &x, NULL, mid, sizeof mid));
  CHECK(expect_bytes("Shape", "{\"start\":-1}", 1, &x, NULL, last, sizeof last));
  CHECK(expect_bytes("Shape", "{\"start\":-10,\"end\":10}", 1, &x, NULL, all, sizeof all));
  CHECK(expect_bytes("Shape", "{\"start\":3,\"end\":1}", 1, &x, NULL, all, 0));
  CHECK(expect_bytes("Size", NULL, 1, &x, NULL, &n, sizeof n));
  const wnn_tdesc s = TD_SCALAR(WNN_DTYPE_F32);
  const int64_t one = 1;
  CHECK(expect_bytes("Size", NULL, 1, &s, NULL, &one, sizeof one));
  CHECK(expect_bytes("Shape", NULL, 1, &s, NULL, all, 0));
  op_case c;
  CHECK_OK(op_prepare(&c, "Size", NULL, 1, &x, 1));
  CHECK(c.outputs[0].ndim == 0 && c.outputs[0].dtype == WNN_DTYPE_I64);
  CHECK(op_fails("Shape", "{\"start\":1.5}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "start"));
  CHECK(op_fails("Shape", NULL, 1, &TD_OMITTED, 1, WNN_ERR_MALFORMED, "omitted"));
}

TEST(cast) {
  const float f[8] = {1.9f, -1.9f, 0.0f, 300.5f, -129.0f, NAN, 1e30f, -0.5f};
  void *data[1] = {(void *)f};
  const wnn_tdesc xf = TD(WNN_DTYPE_F32, 8);
  const int64_t want64[8] = {1, -1, 0, 300, -129, 0, INT64_MAX, 0};
  const int32_t want32[8] = {1, -1, 0, 300, -129, 0, -1, 0}; /* low bits of INT64_MAX */
  const uint8_t wantu8[8] = {1, 255, 0, 44, 127, 0, 255, 0};
  const int8_t wanti8[8] = {1, -1, 0, 44, 127, 0, -1, 0};
  const uint8_t wantb[8] = {1, 1, 0, 1, 1, 1, 1, 1};
  CHECK(expect_bytes("Cast", "{\"to\":7}", 1, &xf, data, want64, sizeof want64));
  CHECK(expect_bytes("Cast", "{\"to\":6}", 1, &xf, data, want32, sizeof want32));
  CHECK(expect_bytes("Cast", "{\"to\":2}", 1, &xf, data, wantu8, sizeof wantu8));
  CHECK(expect_bytes("Cast", "{\"to\":3}", 1, &xf, data, wanti8, sizeof wanti8));
  CHECK(expect_bytes("Cast", "{\"to\":9,\"saturate\":1}", 1, &xf, data, wantb, sizeof wantb));
  /* float16: round to nearest even, an infinity past 65504, NaN quiet. */
  const uint16_t want16[8] = {0x3f9a, 0xbf9a, 0x0000, 0x5cb2, 0xd808, 0x7e00, 0x7c00, 0xb800};
  CHECK(expect_bytes("Cast", "{\"to\":10}", 1, &xf, data, want16, sizeof want16));
  const uint16_t h16[6] = {0x3f9a, 0xd808, 0x0001, 0xfc00, 0x7bff, 0xbc00};
  const float want16f[6] = {1.900390625f, -129.0f, 0x1p-24f, -INFINITY, 65504.0f, -1.0f};
  const int64_t want16i[6] = {1, -129, 0, INT64_MIN, 65504, -1};
  const wnn_tdesc xh = TD(WNN_DTYPE_F16, 6);
  void *hdata[1] = {(void *)h16};
  CHECK(expect_bytes("Cast", "{\"to\":1}", 1, &xh, hdata, want16f, sizeof want16f));
  CHECK(expect_bytes("Cast", "{\"to\":7}", 1, &xh, hdata, want16i, sizeof want16i));
  const int64_t i[4] = {-3, 0, 257, 5000000000};
  data[0] = (void *)i;
  const wnn_tdesc xi = TD(WNN_DTYPE_I64, 4);
  const float wantf[4] = {-3, 0, 257, 5e9f};
  const int32_t wanti32[4] = {-3, 0, 257, 705032704};
  const uint8_t wantb2[4] = {1, 0, 1, 1}, wantu82[4] = {253, 0, 1, 0};
  CHECK(expect_bytes("Cast", "{\"to\":1}", 1, &xi, data, wantf, sizeof wantf));
  CHECK(expect_bytes("Cast", "{\"to\":6}", 1, &xi, data, wanti32, sizeof wanti32));
  CHECK(expect_bytes("Cast", "{\"to\":9}", 1, &xi, data, wantb2, sizeof wantb2));
  CHECK(expect_bytes("Cast", "{\"to\":2}", 1, &xi, data, wantu82, sizeof wantu82));
  CHECK(expect_bytes("Cast", "{\"to\":7}", 1, &xi, data, i, sizeof i));
  /* float64: to float32 in one rounding, to int64 truncated and saturated,
   * from int64 exactly (below 2^53). */
  const double dv[5] = {0.1, -2.5e10, 1e300, -7.9, 9007199254740993.0};
  data[0] = (void *)dv;
  const wnn_tdesc xd = TD(WNN_DTYPE_F64, 5);
  const float wantdf[5] = {0.1f, -2.5e10f, INFINITY, -7.9f, 9007199254740992.0f};
  const int64_t wantdi[5] = {0, -25000000000, INT64_MAX, -7, 9007199254740992};
  CHECK(expect_bytes("Cast", "{\"to\":1}", 1, &xd, data, wantdf, sizeof wantdf));
  CHECK(expect_bytes("Cast", "{\"to\":7}", 1, &xd, data, wantdi, sizeof wantdi));
  const int64_t di[3] = {-3, 4503599627370497, 0};
  const double wantid[3] = {-3.0, 4503599627370497.0, 0.0};
  const wnn_tdesc xid = TD(WNN_DTYPE_I64, 3);
  data[0] = (void *)di;
  CHECK(expect_bytes("Cast", "{\"to\":11}", 1, &xid, data, wantid, sizeof wantid));
  const float fd[2] = {0.1f, -1e-40f};
  const double wantfd[2] = {(double)0.1f, (double)-1e-40f};
  const wnn_tdesc xfd = TD(WNN_DTYPE_F32, 2);
  data[0] = (void *)fd;
  CHECK(expect_bytes("Cast", "{\"to\":11}", 1, &xfd, data, wantfd, sizeof wantfd));
  const uint8_t b[3] = {0, 1, 0};
  data[0] = (void *)b;
  const wnn_tdesc xb = TD(WNN_DTYPE_BOOL, 3);
  const float wantbf[3] = {0, 1, 0};
  const int64_t wantbi[3] = {0, 1, 0};
  CHECK(expect_bytes("Cast", "{\"to\":1}", 1, &xb, data, wantbf, sizeof wantbf));
  CHECK(expect_bytes("Cast", "{\"to\":7}", 1, &xb, data, wantbi, sizeof wantbi));
  const int8_t s8[2] = {-1, 100};
  data[0] = (void *)s8;
  const wnn_tdesc x8 = TD(WNN_DTYPE_I8, 2);
  const uint8_t want88[2] = {255, 100};
  const float want8f[2] = {-1, 100};
  CHECK(expect_bytes("Cast", "{\"to\":2}", 1, &x8, data, want88, sizeof want88));
  CHECK(expect_bytes("Cast", "{\"to\":1}", 1, &x8, data, want8f, sizeof want8f));
  /* Random data, every pair, run against the reference. */
  const wnn_dtype from[8] = {WNN_DTYPE_F32, WNN_DTYPE_I64, WNN_DTYPE_I32, WNN_DTYPE_I8,
                             WNN_DTYPE_U8,  WNN_DTYPE_BOOL, WNN_DTYPE_F16, WNN_DTYPE_F64};
  const char *to[8] = {"{\"to\":1}", "{\"to\":2}", "{\"to\":3}", "{\"to\":6}",
                       "{\"to\":7}", "{\"to\":9}", "{\"to\":10}", "{\"to\":11}"};
  for (int a = 0; a < 8; a++) {
    for (int t = 0; t < 8; t++) {
      wnn_tdesc x = TD(WNN_DTYPE_F32, 3, 17);
      x.dtype = from[a];
      op_case c;
      CHECK_OK(op_prepare(&c, "Cast", to[t], 1, &x, 1));
      void *in[1] = {make_input(&x)}, *got[1], *want[1];
      if (from[a] == WNN_DTYPE_BOOL) /* a bool holds 0 or 1 */
        for (int k = 0; k < 3 * 17; k++) ((uint8_t *)in[0])[k] &= 1;
      CHECK_OK(op_exec(&c, c.op->run, in, got));
      CHECK_OK(op_exec(&c, c.op->reference, in, want));
      if (memcmp(got[0], want[0], td_bytes(&c.outputs[0])) != 0) {
        printf("  cast %s to %s differs from the reference\n", wnn_dtype_name(from[a]), to[t]);
        CHECK(0);
      }
      free(in[0]), free(got[0]), free(want[0]);
    }
  }
}

TEST(cast_rejects) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2);
  CHECK(op_fails("Cast", NULL, 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "Cast: to is required"));
  CHECK(op_fails("Cast", "{\"to\":12}", 1, &x, 1, WNN_ERR_UNSUPPORTED, "to = 12"));
  CHECK(op_fails("Cast", "{\"to\":16}", 1, &x, 1, WNN_ERR_UNSUPPORTED, "to = 16"));
  CHECK(op_fails("Cast", "{\"to\":\"int64\"}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "to"));
  CHECK(op_fails("Cast", "{\"to\":1,\"saturate\":2}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "saturate = 2"));
}

TEST(constant_of_shape) {
  wnn_tdesc in[1] = {INTS(2, 3)};
  const float zeros[6] = {0};
  CHECK(expect_bytes("ConstantOfShape", NULL, 1, in, NULL, zeros, sizeof zeros));
  const int64_t sevens[6] = {7, 7, 7, 7, 7, 7};
  CHECK(expect_bytes("ConstantOfShape",
                     "{\"value\":{\"dtype\":\"int64\",\"shape\":[1],\"data\":[7]}}", 1, in,
                     NULL, sevens, sizeof sevens));
  const float halves[6] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
  CHECK(expect_bytes("ConstantOfShape",
                     "{\"value\":{\"dtype\":\"float32\",\"shape\":[1],\"data\":[0.5]}}",
                     1, in, NULL, halves, sizeof halves));
  const uint8_t trues[6] = {1, 1, 1, 1, 1, 1};
  CHECK(expect_bytes("ConstantOfShape",
                     "{\"value\":{\"dtype\":\"bool\",\"shape\":[1],\"data\":[true]}}", 1,
                     in, NULL, trues, sizeof trues));
  const int32_t m1 = -1;
  in[0] = ints(0, (int64_t[]){0}); /* scalar output */
  CHECK(expect_bytes("ConstantOfShape",
                     "{\"value\":{\"dtype\":\"int32\",\"shape\":[],\"data\":[-1]}}", 1,
                     in, NULL, &m1, sizeof m1));
  in[0] = INTS(3, 0);
  CHECK(expect_bytes("ConstantOfShape", NULL, 1, in, NULL, zeros, 0));
  in[0] = INTS(2, -1);
  CHECK(op_fails("ConstantOfShape", NULL, 1, in, 1, WNN_ERR_SHAPE, "input 0 (input)[1] = -1"));
  in[0] = INTS(2);
  CHECK(op_fails("ConstantOfShape", "{\"value\":0}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "value must be an object"));
  CHECK(op_fails("ConstantOfShape",
                 "{\"value\":{\"dtype\":\"float64\",\"shape\":[1],\"data\":[1]}}", 1, in,
                 1, WNN_ERR_BAD_ATTRIBUTE, "dtype 'float64'"));
  CHECK(op_fails("ConstantOfShape",
                 "{\"value\":{\"dtype\":\"float32\",\"shape\":[2],\"data\":[1,2]}}", 1,
                 in, 1, WNN_ERR_BAD_ATTRIBUTE, "one element"));
  CHECK(op_fails("ConstantOfShape",
                 "{\"value\":{\"dtype\":\"int64\",\"shape\":[1],\"data\":[1.5]}}", 1, in,
                 1, WNN_ERR_BAD_ATTRIBUTE, "not integral"));
  in[0] = TD(WNN_DTYPE_I64, 2);
  CHECK(op_fails("ConstantOfShape", NULL, 1, in, 1, WNN_ERR_UNSUPPORTED, "must be a constant"));
}

TEST(range) {
  const float fs = 1.0f, fl = 2.0f, fd = 0.25f;
  wnn_tdesc in[3] = {scalar(WNN_DTYPE_F32, &fs), scalar(WNN_DTYPE_F32, &fl),
                     scalar(WNN_DTYPE_F32, &fd)};
  const float wantf[4] = {1.0f, 1.25f, 1.5f, 1.75f};
  CHECK(expect_bytes("Range", NULL, 3, in, NULL, wantf, sizeof wantf));
  const int64_t s = 10, l = 4, d = -3;
  in[0] = scalar(WNN_DTYPE_I64, &s), in[1] = scalar(WNN_DTYPE_I64, &l);
  in[2] = scalar(WNN_DTYPE_I64, &d);
  const int64_t want64[2] = {10, 7};
  CHECK(expect_bytes("Range", NULL, 3, in, NULL, want64, sizeof want64));
  const int64_t big_s = INT64_MIN, big_l = INT64_MAX, big_d = INT64_MAX;
  const int64_t want_big[3] = {INT64_MIN, -1, INT64_MAX - 1};
  in[0] = scalar(WNN_DTYPE_I64, &big_s), in[1] = scalar(WNN_DTYPE_I64, &big_l);
  in[2] = scalar(WNN_DTYPE_I64, &big_d);
  CHECK(expect_bytes("Range", NULL, 3, in, NULL, want_big, sizeof want_big));
  const int32_t s32 = 0, l32 = 5, d32 = 2, want32[3] = {0, 2, 4};
  in[0] = scalar(WNN_DTYPE_I32, &s32), in[1] = scalar(WNN_DTYPE_I32, &l32);
  in[2] = scalar(WNN_DTYPE_I32, &d32);
  CHECK(expect_bytes("Range", NULL, 3, in, NULL, want32, sizeof want32));
  in[1] = scalar(WNN_DTYPE_I32, &s32); /* limit == start: empty */
  CHECK(expect_bytes("Range", NULL, 3, in, NULL, want32, 0));
  const int32_t zero = 0;
  in[2] = scalar(WNN_DTYPE_I32, &zero);
  CHECK(op_fails("Range", NULL, 3, in, 1, WNN_ERR_SHAPE, "delta is 0"));
  in[2] = scalar(WNN_DTYPE_I64, &d);
  CHECK(op_fails("Range", NULL, 3, in, 1, WNN_ERR_DTYPE, "input 2 (delta) is int64"));
  in[2] = TD_SCALAR(WNN_DTYPE_I32);
  CHECK(op_fails("Range", NULL, 3, in, 1, WNN_ERR_UNSUPPORTED, "input 2 (delta) must be a "
                 "constant"));
  const uint8_t u = 1;
  in[0] = in[1] = in[2] = scalar(WNN_DTYPE_U8, &u);
  CHECK(op_fails("Range", NULL, 3, in, 1, WNN_ERR_DTYPE, "expected float32, int32 or int64"));
  const float big = 1e30f, tiny = 1e-30f;
  in[0] = scalar(WNN_DTYPE_F32, &fs), in[1] = scalar(WNN_DTYPE_F32, &big);
  in[2] = scalar(WNN_DTYPE_F32, &tiny);
  CHECK(op_fails("Range", NULL, 3, in, 1, WNN_ERR_SHAPE, "too many values"));
}

/* x [2, 1, 3] -> Squeeze(axes [1]) -> Gather(idx, axis 1) -> "g"
 *             -> Unsqueeze(axes [0]) -> Shape -> "s" */
TEST(graph_through_the_runtime) {
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  if (!b) return;
  const int64_t xs[3] = {2, 1, 3}, is[1] = {2}, one[1] = {1}, axes1[1] = {1}, axes0[1] = {0};
  int x, idx, a1, a0, sq, g, un, sh;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 3, xs, &x));
  CHECK_OK(wnn_builder_add_input(b, "idx", WNN_DTYPE_I64, 1, is, &idx));
  CHECK_OK(wnn_builder_add_param(b, "axes1", WNN_DTYPE_I64, 1, one, axes1, &a1));
  CHECK_OK(wnn_builder_add_param(b, "axes0", WNN_DTYPE_I64, 1, one, axes0, &a0));
  CHECK_OK(wnn_builder_add_node(b, "Squeeze", NULL, (int[]){x, a1}, 2, NULL, 1, &sq));
  CHECK_OK(wnn_builder_add_node(b, "Gather", NULL, (int[]){sq, idx}, 2, "{\"axis\":1}", 1, &g));
  CHECK_OK(wnn_builder_add_node(b, "Unsqueeze", NULL, (int[]){sq, a0}, 2, NULL, 1, &un));
  CHECK_OK(wnn_builder_add_node(b, "Shape", NULL, &un, 1, NULL, 1, &sh));
  CHECK_OK(wnn_builder_add_output(b, g, "g"));
  CHECK_OK(wnn_builder_add_output(b, sh, "s"));
  void *art = NULL;
  size_t size = 0;
  CHECK_OK(wnn_builder_finish(b, &art, &size));
  wnn_model *m = NULL;
  wnn_executor *ex = NULL;
  if (art) CHECK_OK(wnn_model_load(art, size, NULL, &m));
  if (m) CHECK_OK(wnn_executor_create(m, &ex));
  if (ex) {
    float xv[6] = {1, 2, 3, 4, 5, 6};
    int64_t iv[2] = {2, -3};
    int64_t xshape[3] = {2, 1, 3}, ishape[1] = {2};
    DLTensor tx = {.data = xv, .device = {kDLCPU, 0}, .ndim = 3,
                   .dtype = wnn_dtype_to_dl(WNN_DTYPE_F32), .shape = xshape};
    DLTensor ti = {.data = iv, .device = {kDLCPU, 0}, .ndim = 1,
                   .dtype = wnn_dtype_to_dl(WNN_DTYPE_I64), .shape = ishape};
    CHECK_OK(wnn_executor_set_input(ex, 0, &tx));
    CHECK_OK(wnn_executor_set_input(ex, 1, &ti));
    CHECK_OK(wnn_executor_run(ex));
    float gv[4];
    int64_t sv[3];
    CHECK_OK(wnn_executor_copy_output(ex, 0, gv, sizeof gv));
    CHECK_OK(wnn_executor_copy_output(ex, 1, sv, sizeof sv));
    CHECK(gv[0] == 3 && gv[1] == 1 && gv[2] == 6 && gv[3] == 4);
    CHECK(sv[0] == 1 && sv[1] == 2 && sv[2] == 3);
    iv[1] = 3; /* out of range: the run fails and says which index */
    CHECK_OK(wnn_executor_set_input(ex, 1, &ti));
    CHECK_STATUS(wnn_executor_run(ex), WNN_ERR_OUT_OF_RANGE);
    CHECK(strstr(wnn_executor_errmsg(ex), "indices[1] = 3") != NULL);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  if (art) wnn_builder_free_artifact(b, art, size);
  wnn_builder_free(b);
}

/* --------------------------------------------------------------- EyeLike */

TEST(eyelike) {
  wnn_tdesc in = TD(WNN_DTYPE_I32, 3, 4);
  int32_t dummy[12] = {0};
  void *data[1] = {dummy};
  const int32_t i32[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  CHECK(op_check_data("EyeLike", NULL, 1, &in, data, 1, i32, 12, 0, 0));
  const float up[12] = {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  CHECK(op_check_data("EyeLike", "{\"k\":1,\"dtype\":1}", 1, &in, data, 1, up, 12, 0, 0));
  const int64_t down[12] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  CHECK(op_check_data("EyeLike", "{\"k\":-2,\"dtype\":7}", 1, &in, data, 1, down, 12, 0, 0));
  const float zeros[12] = {0};
  CHECK(op_check_data("EyeLike", "{\"k\":4,\"dtype\":11}", 1, &in, data, 1, zeros, 12, 0, 0));
  const unsigned char b[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  CHECK(op_check_data("EyeLike", "{\"dtype\":9}", 1, &in, data, 1, b, 12, 0, 0));
  CHECK(op_fails("EyeLike", "{\"dtype\":8}", 1, &in, 1, WNN_ERR_UNSUPPORTED, "dtype = 8"));
  CHECK(op_fails("EyeLike", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 2, 2)}, 1, WNN_ERR_SHAPE,
                 "EyeLike: input 0 (input) has 3 dims, expected 2"));
}

int main(void) {
  RUN(aliases);
  RUN(squeeze);
  RUN(unsqueeze);
  RUN(dropout);
  RUN(shape_size);
  RUN(cast);
  RUN(cast_rejects);
  RUN(constant_of_shape);
  RUN(range);
  RUN(graph_through_the_runtime);
  RUN(eyelike);
  return test_summary();
}
