/* Intra-op threads (wnn_executor_set_threads; docs/threads.md): every op that
 * splits its GEMM over threads gives the bits of the one-thread run at 2, 3
 * and 4 threads, on awkward sizes (ragged row panels and column blocks):
 * MatMul, batched MatMul, Gemm with transB and bias, Conv (3x3 stride 2
 * through im2col, 1x1, 3x3 stride 1, depthwise), Softmax (last axis and
 * another), MatMulInteger and QLinearConv (im2col, 1x1, depthwise), the
 * element-wise ops split in chunks (Add, Mul, int32 Div, Sigmoid, Relu, Erf,
 * Tanh), LRN (by planes), LayerNormalization (by rows) and Conv's fused
 * activations (by rows). The count can change
 * between runs, and bad counts are refused. Under WASI (no
 * threads) a count above 1 is WNN_ERR_UNSUPPORTED and the model still runs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"
#include "robustness.h"
#include "wnn.h"
#include "wnn_builder.h"

static unsigned rng = 7;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)(rng >> 9) / (float)(1u << 23) - 0.5f;
}
static uint8_t brand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (uint8_t)(rng >> 24);
}

/* A one-node model: op over input x (dtype xt, shape xs) and params given
 * as (dtype, ndim, shape, data) in order; NULL on failure. */
typedef struct param {
  wnn_dtype dtype;
  int ndim;
  int64_t shape[4];
  const void *data;
} param;

static wnn_model *one_node(const char *op, const char *attrs, wnn_dtype xt, int xn,
                           const int64_t *xs, const param *ps, int np) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  int ins[12], y;
  int ok = !wnn_builder_add_input(b, "x", xt, xn, xs, &ins[0]);
  for (int i = 0; ok && i < np; i++) {
    char name[16];
    snprintf(name, sizeof name, "p%d", i);
    ok = !wnn_builder_add_param(b, name, ps[i].dtype, ps[i].ndim, ps[i].shape, ps[i].data,
                                &ins[1 + i]);
  }
  ok = ok && !wnn_builder_add_node(b, op, NULL, ins, 1 + np, attrs, 1, &y) &&
       !wnn_builder_add_output(b, y, "y");
  void *data = NULL;
  size_t size = 0;
  wnn_model *m = NULL;
  if (ok && !wnn_builder_finish(b, &data, &size)) {
    if (wnn_model_load(data, size, NULL, &m)) m = NULL;
    wnn_builder_free_artifact(b, data, size);
  }
  if (!ok || !m) printf("  %s: building %s failed: %s\n", test_current_, op, wnn_last_error());
  wnn_builder_free(b);
  return m;
}

static float *floats(size_t n) {
  float *p = malloc(n * sizeof *p);
  for (size_t i = 0; i < n; i++) p[i] = frand();
  return p;
}

#if defined(__wasi__) || defined(__EMSCRIPTEN__)
TEST(no_threads_in_this_build) {
  (void)brand;
  float *w = floats(6 * 4);
  const int64_t xs[2] = {3, 6};
  const param p = {WNN_DTYPE_F32, 2, {6, 4}, w};
  wnn_model *m = one_node("MatMul", NULL, WNN_DTYPE_F32, 2, xs, &p, 1);
  wnn_executor *ex = NULL;
  CHECK(m && !wnn_executor_create(m, &ex));
  if (ex) {
    CHECK_STATUS(wnn_executor_set_threads(ex, 2), WNN_ERR_UNSUPPORTED);
    CHECK(strstr(wnn_executor_errmsg(ex), "no threads") != NULL);
    CHECK(wnn_executor_threads(ex) == 1);
    CHECK_OK(wnn_executor_set_threads(ex, 1));
    float x[18] = {0};
    int64_t s[2] = {3, 6};
    DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 2, s);
    CHECK_OK(wnn_executor_set_input(ex, 0, &t));
    CHECK_OK(wnn_executor_run(ex));
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  free(w);
}
#else
/* Runs m on x at `threads` threads into y (bytes). */
static int run_at(wnn_model *m, int threads, void *x, void *y, size_t bytes) {
  wnn_executor *ex = NULL;
  wnn_tensor_info info;
  if (wnn_executor_create(m, &ex) || wnn_model_input_info(m, 0, &info)) return 0;
  int ok = !wnn_executor_set_threads(ex, threads) && wnn_executor_threads(ex) == threads;
  DLTensor t = dl_tensor(x, info.dtype, info.ndim, (int64_t *)info.shape);
  ok = ok && !wnn_executor_set_input(ex, 0, &t) && !wnn_executor_run(ex) &&
       !wnn_executor_copy_output(ex, 0, y, bytes);
  if (!ok) printf("  %s: %d threads: %s\n", test_current_, threads, wnn_executor_errmsg(ex));
  wnn_executor_destroy(ex);
  return ok;
}

/* m at 2, 3 and 4 threads against 1, bitwise. */
static void check_model(wnn_model *m, const char *what) {
  CHECK(m != NULL);
  if (!m) return;
  wnn_tensor_info xi, yi;
  wnn_model_input_info(m, 0, &xi);
  wnn_model_output_info(m, 0, &yi);
  uint8_t *x = malloc(xi.nbytes), *y1 = malloc(yi.nbytes), *yn = malloc(yi.nbytes);
  if (xi.dtype == WNN_DTYPE_F32)
    for (size_t i = 0; i < xi.nbytes / 4; i++) ((float *)x)[i] = frand();
  else
    for (size_t i = 0; i < xi.nbytes; i++) x[i] = brand();
  CHECK(run_at(m, 1, x, y1, yi.nbytes));
  for (int t = 2; t <= 4; t++) {
    memset(yn, 0xA5, yi.nbytes);
    CHECK(run_at(m, t, x, yn, yi.nbytes));
    if (memcmp(y1, yn, yi.nbytes)) printf("  %s: %s differs at %d threads\n", test_current_, what, t);
    CHECK(!memcmp(y1, yn, yi.nbytes));
  }
  free(x), free(y1), free(yn);
  wnn_model_free(m);
}

TEST(float_gemms_are_bitwise_at_any_thread_count) {
  float *w = floats(97 * 157), *wb = floats(83 * 129), *bias = floats(83);
  const int64_t xs[2] = {131, 97};
  const param pm = {WNN_DTYPE_F32, 2, {97, 157}, w};
  check_model(one_node("MatMul", NULL, WNN_DTYPE_F32, 2, xs, &pm, 1), "MatMul");
  const int64_t xb[3] = {3, 45, 97};
  check_model(one_node("MatMul", NULL, WNN_DTYPE_F32, 3, xb, &pm, 1), "batched MatMul");
  const int64_t xg[2] = {77, 129};
  const param pg[2] = {{WNN_DTYPE_F32, 2, {83, 129}, wb}, {WNN_DTYPE_F32, 1, {83}, bias}};
  check_model(one_node("Gemm", "{\"transB\":1}", WNN_DTYPE_F32, 2, xg, pg, 2), "Gemm");
  free(w), free(wb), free(bias);
}

TEST(convolutions_are_bitwise_at_any_thread_count) {
  float *w3 = floats(29 * 13 * 9), *w1 = floats(37 * 24), *b3 = floats(29);
  const int64_t xs[4] = {2, 13, 41, 37};
  const param s2[2] = {{WNN_DTYPE_F32, 4, {29, 13, 3, 3}, w3}, {WNN_DTYPE_F32, 1, {29}, b3}};
  check_model(one_node("Conv", "{\"strides\":[2,2],\"pads\":[1,1,1,1]}", WNN_DTYPE_F32, 4, xs,
                       s2, 2), "Conv 3x3 stride 2");
  check_model(one_node("Conv", "{\"pads\":[1,1,1,1]}", WNN_DTYPE_F32, 4, xs, s2, 2),
              "Conv 3x3 stride 1");
  /* 3x3 stride 1 with 16+ channels: Winograd (weight transforms, position
   * GEMMs and the GEMMs inside split), a plane of ragged tiles and one of few. */
  float *ww = floats(130 * 64 * 9);
  const int64_t xw[4] = {1, 37, 29, 31}, xw2[4] = {1, 64, 9, 9};
  const param pw[1] = {{WNN_DTYPE_F32, 4, {45, 37, 3, 3}, ww}};
  const param pw2[1] = {{WNN_DTYPE_F32, 4, {130, 64, 3, 3}, ww}};
  check_model(one_node("Conv", "{\"pads\":[1,1,1,1]}", WNN_DTYPE_F32, 4, xw, pw, 1),
              "Conv 3x3 Winograd");
  check_model(one_node("Conv", "{\"pads\":[1,1,1,1]}", WNN_DTYPE_F32, 4, xw2, pw2, 1),
              "Conv 3x3 Winograd, 130 channels out");
  free(ww);
  const int64_t x1[4] = {1, 24, 33, 35};
  const param p1 = {WNN_DTYPE_F32, 4, {37, 24, 1, 1}, w1};
  check_model(one_node("Conv", NULL, WNN_DTYPE_F32, 4, x1, &p1, 1), "Conv 1x1");
  /* 70 output channels: each tile's B packed first (the copy split too). */
  float *w70 = floats(70 * 40);
  const int64_t x70[4] = {1, 40, 30, 34};
  const param p70 = {WNN_DTYPE_F32, 4, {70, 40, 1, 1}, w70};
  check_model(one_node("Conv", NULL, WNN_DTYPE_F32, 4, x70, &p70, 1), "Conv 1x1, packed B");
  free(w70);
  free(w3), free(w1), free(b3);
}

TEST(depthwise_and_softmax_are_bitwise_at_any_thread_count) {
  float *wd = floats(48 * 9), *bd = floats(48);
  const int64_t xs[4] = {2, 48, 37, 41};
  const param pd[2] = {{WNN_DTYPE_F32, 4, {48, 1, 3, 3}, wd}, {WNN_DTYPE_F32, 1, {48}, bd}};
  check_model(one_node("Conv", "{\"group\":48,\"pads\":[1,1,1,1]}", WNN_DTYPE_F32, 4, xs, pd, 2),
              "depthwise Conv");
  const int64_t xl[3] = {4, 60, 131}, xa[3] = {2, 37, 300};
  check_model(one_node("Softmax", "{\"axis\":-1}", WNN_DTYPE_F32, 3, xl, NULL, 0), "Softmax");
  check_model(one_node("Softmax", "{\"axis\":1}", WNN_DTYPE_F32, 3, xa, NULL, 0),
              "Softmax over axis 1");
  /* QLinearConv depthwise: int8 weights, zero points 0. */
  int8_t wq[24 * 9];
  int32_t bias[24];
  for (int i = 0; i < 24 * 9; i++) wq[i] = (int8_t)(brand() % 200 - 100);
  for (int i = 0; i < 24; i++) bias[i] = (int32_t)(brand() * 29) - 3000;
  static const float xsc = 0.02f, wsc = 0.01f, ysc = 0.05f;
  static const uint8_t xz = 120, yz = 128;
  static const int8_t wz = 0;
  const int64_t xq[4] = {1, 24, 45, 47};
  const param pq[8] = {{WNN_DTYPE_F32, 0, {0}, &xsc}, {WNN_DTYPE_U8, 0, {0}, &xz},
                       {WNN_DTYPE_I8, 4, {24, 1, 3, 3}, wq}, {WNN_DTYPE_F32, 0, {0}, &wsc},
                       {WNN_DTYPE_I8, 0, {0}, &wz}, {WNN_DTYPE_F32, 0, {0}, &ysc},
                       {WNN_DTYPE_U8, 0, {0}, &yz}, {WNN_DTYPE_I32, 1, {24}, bias}};
  check_model(one_node("QLinearConv", "{\"group\":24,\"pads\":[1,1,1,1]}", WNN_DTYPE_U8, 4, xq,
                       pq, 8), "QLinearConv depthwise");
  free(wd), free(bd);
}

TEST(pooling_and_elementwise_are_bitwise_at_any_thread_count) {
  const int64_t xp[4] = {2, 32, 57, 61};
  check_model(one_node("MaxPool", "{\"kernel_shape\":[3,3],\"strides\":[2,2]}", WNN_DTYPE_F32, 4,
                       xp, NULL, 0), "MaxPool");
  check_model(one_node("AveragePool", "{\"kernel_shape\":[3,3],\"pads\":[1,1,1,1]}",
                       WNN_DTYPE_F32, 4, xp, NULL, 0), "AveragePool");
  check_model(one_node("MaxPool", "{\"kernel_shape\":[3,3],\"strides\":[2,2]}", WNN_DTYPE_U8, 4,
                       xp, NULL, 0), "uint8 MaxPool");
  /* Add with a broadcast row (many short runs) and flat (one long run, in
   * chunks); Mul by a scalar; Div of int32. */
  float *row = floats(512), *flat = floats(2 * 300001), *one = floats(1);
  const int64_t xb[3] = {3, 512, 700}, xf[2] = {2, 300001};
  const param pr = {WNN_DTYPE_F32, 3, {1, 512, 1}, row}, pf = {WNN_DTYPE_F32, 2, {2, 300001}, flat};
  const param ps = {WNN_DTYPE_F32, 0, {0}, one};
  check_model(one_node("Add", NULL, WNN_DTYPE_F32, 3, xb, &pr, 1), "Add broadcast");
  check_model(one_node("Add", NULL, WNN_DTYPE_F32, 2, xf, &pf, 1), "Add flat");
  check_model(one_node("Mul", NULL, WNN_DTYPE_F32, 2, xf, &ps, 1), "Mul by a scalar");
  int32_t *den = malloc(2 * 300001 * sizeof *den);
  for (int i = 0; i < 2 * 300001; i++) den[i] = (int32_t)(brand() % 9) - 4;
  const param pd = {WNN_DTYPE_I32, 2, {2, 300001}, den};
  check_model(one_node("Div", NULL, WNN_DTYPE_I32, 2, xf, &pd, 1), "int32 Div");
  /* Unary element-wise ops in chunks: a ragged length (the last chunk's tail). */
  check_model(one_node("Sigmoid", NULL, WNN_DTYPE_F32, 2, xf, NULL, 0), "Sigmoid");
  check_model(one_node("Relu", NULL, WNN_DTYPE_F32, 2, xf, NULL, 0), "Relu");
  check_model(one_node("Erf", NULL, WNN_DTYPE_F32, 2, xf, NULL, 0), "Erf");
  check_model(one_node("Tanh", NULL, WNN_DTYPE_F32, 2, xf, NULL, 0), "Tanh");
  /* LRN by planes; LayerNormalization by rows (with its mean and inv_std outputs unused). */
  const int64_t xn[4] = {2, 13, 37, 41}, xr[3] = {3, 129, 257};
  check_model(one_node("LRN", "{\"size\":5,\"alpha\":0.0001,\"beta\":0.75,\"bias\":2}",
                       WNN_DTYPE_F32, 4, xn, NULL, 0), "LRN");
  float *gamma = floats(257), *beta = floats(257);
  const param pln[2] = {{WNN_DTYPE_F32, 1, {257}, gamma}, {WNN_DTYPE_F32, 1, {257}, beta}};
  check_model(one_node("LayerNormalization", "{\"axis\":-1}", WNN_DTYPE_F32, 3, xr, pln, 2),
              "LayerNormalization");
  free(gamma), free(beta);
  free(row), free(flat), free(one), free(den);
}

TEST(fused_activations_are_bitwise_at_any_thread_count) {
  /* Conv's fused activation runs after the GEMM, by rows (channels): through
   * im2col (stride 2), Winograd and 1x1. */
  float *w3 = floats(40 * 24 * 9), *w1 = floats(40 * 24), *b = floats(40);
  const int64_t xs[4] = {1, 24, 45, 43};
  const param s3[2] = {{WNN_DTYPE_F32, 4, {40, 24, 3, 3}, w3}, {WNN_DTYPE_F32, 1, {40}, b}};
  const param s1[2] = {{WNN_DTYPE_F32, 4, {40, 24, 1, 1}, w1}, {WNN_DTYPE_F32, 1, {40}, b}};
  check_model(one_node("Conv", "{\"strides\":[2,2],\"pads\":[1,1,1,1],\"activation\":\"Sigmoid\"}",
                       WNN_DTYPE_F32, 4, xs, s3, 2), "Conv 3x3 stride 2 + Sigmoid");
  check_model(one_node("Conv", "{\"pads\":[1,1,1,1],\"activation\":\"HardSwish\"}", WNN_DTYPE_F32,
                       4, xs, s3, 2), "Conv 3x3 Winograd + HardSwish");
  check_model(one_node("Conv", "{\"activation\":\"SiLU\"}", WNN_DTYPE_F32, 4, xs, s1, 2),
              "Conv 1x1 + SiLU");
  free(w3), free(w1), free(b);
}

TEST(integer_gemms_are_bitwise_at_any_thread_count) {
  int8_t *w = malloc(103 * 149);
  for (int i = 0; i < 103 * 149; i++) w[i] = (int8_t)(brand() - 128);
  static const uint8_t azp = 131;
  static const int8_t wzp = 0;
  const int64_t xs[2] = {127, 103};
  const param pm[3] = {{WNN_DTYPE_I8, 2, {103, 149}, w}, {WNN_DTYPE_U8, 0, {0}, &azp},
                       {WNN_DTYPE_I8, 0, {0}, &wzp}};
  check_model(one_node("MatMulInteger", NULL, WNN_DTYPE_U8, 2, xs, pm, 3), "MatMulInteger");
  /* QLinearConv 3x3 stride 2 (im2col) and 1x1: x, x_scale, x_zp, w, w_scale,
   * w_zp, y_scale, y_zp, bias. */
  int8_t *wc = malloc(31 * 11 * 9);
  int32_t bias[31];
  for (int i = 0; i < 31 * 11 * 9; i++) wc[i] = (int8_t)(brand() % 200 - 100);
  for (int i = 0; i < 31; i++) bias[i] = (int32_t)(brand() * 37) - 4000;
  static const float xsc = 0.02f, wsc = 0.01f, ysc = 0.3f;
  static const uint8_t xz = 120, yz = 128;
  static const int8_t wz = 0;
  const int64_t xq[4] = {1, 11, 39, 43};
  const param pq[8] = {{WNN_DTYPE_F32, 0, {0}, &xsc}, {WNN_DTYPE_U8, 0, {0}, &xz},
                       {WNN_DTYPE_I8, 4, {31, 11, 3, 3}, wc}, {WNN_DTYPE_F32, 0, {0}, &wsc},
                       {WNN_DTYPE_I8, 0, {0}, &wz}, {WNN_DTYPE_F32, 0, {0}, &ysc},
                       {WNN_DTYPE_U8, 0, {0}, &yz}, {WNN_DTYPE_I32, 1, {31}, bias}};
  check_model(one_node("QLinearConv", "{\"strides\":[2,2],\"pads\":[1,1,1,1]}", WNN_DTYPE_U8, 4,
                       xq, pq, 8), "QLinearConv 3x3 stride 2");
  /* 3x3 stride 1: the exact integer Winograd path (weight transforms, GEMMs,
   * output transforms and requantization split), as QLinearConv and as
   * ConvInteger (int32 out). */
  int8_t *ww = malloc(70 * 40 * 9);
  int32_t bw[70];
  for (int i = 0; i < 70 * 40 * 9; i++) ww[i] = (int8_t)(brand() % 200 - 100);
  for (int i = 0; i < 70; i++) bw[i] = (int32_t)(brand() * 31) - 4000;
  const int64_t xw[4] = {1, 40, 23, 29};
  param pw[8];
  memcpy(pw, pq, sizeof pw);
  pw[2] = (param){WNN_DTYPE_I8, 4, {70, 40, 3, 3}, ww};
  pw[7] = (param){WNN_DTYPE_I32, 1, {70}, bw};
  check_model(one_node("QLinearConv", "{\"pads\":[1,1,1,1]}", WNN_DTYPE_U8, 4, xw, pw, 8),
              "QLinearConv 3x3 Winograd");
  const param pi[3] = {{WNN_DTYPE_I8, 4, {70, 40, 3, 3}, ww}, {WNN_DTYPE_U8, 0, {0}, &xz},
                       {WNN_DTYPE_I8, 0, {0}, &wz}};
  check_model(one_node("ConvInteger", "{\"pads\":[1,1,1,1]}", WNN_DTYPE_U8, 4, xw, pi, 3),
              "ConvInteger 3x3 Winograd");
  free(ww);
  param p1[8];
  memcpy(p1, pq, sizeof p1);
  p1[2] = (param){WNN_DTYPE_I8, 4, {31, 11, 1, 1}, wc};
  check_model(one_node("QLinearConv", NULL, WNN_DTYPE_U8, 4, xq, p1, 8), "QLinearConv 1x1");
  free(w), free(wc);
}

TEST(thread_counts_change_and_bad_ones_are_refused) {
  float *w = floats(97 * 157);
  const int64_t xs[2] = {131, 97};
  const param pm = {WNN_DTYPE_F32, 2, {97, 157}, w};
  wnn_model *m = one_node("MatMul", NULL, WNN_DTYPE_F32, 2, xs, &pm, 1);
  wnn_executor *ex = NULL;
  CHECK(m && !wnn_executor_create(m, &ex));
  if (ex) {
    CHECK(wnn_executor_threads(ex) == 1);
    CHECK_STATUS(wnn_executor_set_threads(ex, 0), WNN_ERR_INVALID_ARGUMENT);
    CHECK(strstr(wnn_executor_errmsg(ex), "0 threads, expected 1 to 64") != NULL);
    CHECK_STATUS(wnn_executor_set_threads(ex, 65), WNN_ERR_INVALID_ARGUMENT);
    CHECK(wnn_executor_threads(ex) == 1);
    float *x = floats(131 * 97), *y1 = malloc(131 * 157 * 4), *y2 = malloc(131 * 157 * 4);
    int64_t s[2] = {131, 97};
    DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 2, s);
    CHECK_OK(wnn_executor_set_input(ex, 0, &t));
    CHECK_OK(wnn_executor_run(ex));
    CHECK_OK(wnn_executor_copy_output(ex, 0, y1, 131 * 157 * 4));
    for (int t2 = 4; t2 >= 1; t2--) { /* 4, 3, 2, 1 on one executor, runs between */
      CHECK_OK(wnn_executor_set_threads(ex, t2));
      CHECK(wnn_executor_threads(ex) == t2);
      for (int r = 0; r < 3; r++) {
        CHECK_OK(wnn_executor_run(ex));
        CHECK_OK(wnn_executor_copy_output(ex, 0, y2, 131 * 157 * 4));
        CHECK(!memcmp(y1, y2, 131 * 157 * 4));
      }
    }
    CHECK_OK(wnn_executor_set_threads(ex, 64)); /* the most; destroyed with them idle */
    CHECK_OK(wnn_executor_run(ex));
    free(x), free(y1), free(y2);
  }
  CHECK_STATUS(wnn_executor_set_threads(NULL, 2), WNN_ERR_INVALID_ARGUMENT);
  CHECK(wnn_executor_threads(NULL) == 0);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  free(w);
}
#endif

int main(void) {
#if defined(__wasi__) || defined(__EMSCRIPTEN__)
  RUN(no_threads_in_this_build);
#else
  RUN(float_gemms_are_bitwise_at_any_thread_count);
  RUN(convolutions_are_bitwise_at_any_thread_count);
  RUN(depthwise_and_softmax_are_bitwise_at_any_thread_count);
  RUN(pooling_and_elementwise_are_bitwise_at_any_thread_count);
  RUN(fused_activations_are_bitwise_at_any_thread_count);
  RUN(integer_gemms_are_bitwise_at_any_thread_count);
  RUN(thread_counts_change_and_bad_ones_are_refused);
#endif
  return test_summary();
}
