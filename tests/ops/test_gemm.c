/* Gemm and MatMul: run vs reference over attributes, broadcasting and tile
 * edges, hand-computed values, and rejections. Tolerance rtol 1e-5, atol 1e-6
 * for dot products summed in the same order by both; Gemm's alpha/beta terms
 * add one rounding each. */
#include <math.h>

#include "op_harness.h"

#define RTOL 1e-5f
#define ATOL 1e-6f

static int gemm(const char *attrs, wnn_tdesc a, wnn_tdesc b, wnn_tdesc c) {
  const wnn_tdesc in[3] = {a, b, c};
  return op_check("Gemm", attrs, c.dtype == WNN_DTYPE_INVALID ? 2 : 3, in, RTOL, ATOL);
}

static int matmul(wnn_tdesc a, wnn_tdesc b) {
  const wnn_tdesc in[2] = {a, b};
  return op_check("MatMul", NULL, 2, in, RTOL, ATOL);
}

TEST(gemm_plain) {
  CHECK(gemm(NULL, TD(WNN_DTYPE_F32, 5, 7), TD(WNN_DTYPE_F32, 7, 9), TD_OMITTED));
  CHECK(gemm(NULL, TD(WNN_DTYPE_F32, 4, 4), TD(WNN_DTYPE_F32, 4, 4), TD_OMITTED));
  CHECK(gemm(NULL, TD(WNN_DTYPE_F32, 1, 3), TD(WNN_DTYPE_F32, 3, 1), TD_OMITTED));
  CHECK(gemm(NULL, TD(WNN_DTYPE_F32, 33, 40), TD(WNN_DTYPE_F32, 40, 37), TD_OMITTED));
}

TEST(gemm_trans_alpha_beta) {
  const char *attrs[] = {
      "{\"transA\":1}", "{\"transB\":1}", "{\"transA\":1,\"transB\":1,\"alpha\":0.5,\"beta\":2}",
      "{\"alpha\":-1.5,\"beta\":0}", "{\"beta\":0.25}"};
  for (int i = 0; i < 5; i++) {
    const bool ta = strstr(attrs[i], "transA") != NULL, tb = strstr(attrs[i], "transB") != NULL;
    wnn_tdesc a = ta ? TD(WNN_DTYPE_F32, 6, 5) : TD(WNN_DTYPE_F32, 5, 6);
    wnn_tdesc b = tb ? TD(WNN_DTYPE_F32, 7, 6) : TD(WNN_DTYPE_F32, 6, 7);
    CHECK(gemm(attrs[i], a, b, TD(WNN_DTYPE_F32, 5, 7)));
  }
}

TEST(gemm_c_broadcast) {
  const wnn_tdesc a = TD(WNN_DTYPE_F32, 5, 6), b = TD(WNN_DTYPE_F32, 6, 7);
  CHECK(gemm(NULL, a, b, TD_SCALAR(WNN_DTYPE_F32)));
  CHECK(gemm(NULL, a, b, TD(WNN_DTYPE_F32, 7)));
  CHECK(gemm(NULL, a, b, TD(WNN_DTYPE_F32, 1)));
  CHECK(gemm(NULL, a, b, TD(WNN_DTYPE_F32, 5, 1)));
  CHECK(gemm(NULL, a, b, TD(WNN_DTYPE_F32, 1, 7)));
  CHECK(gemm("{\"beta\":-1}", a, b, TD(WNN_DTYPE_F32, 1, 1)));
}

TEST(gemm_hand_computed) {
  float a[6] = {1, 2, 3, 4, 5, 6}; /* 2x3 */
  float b[6] = {1, 0, 0, 1, 1, 1}; /* 3x2 */
  float c[2] = {10, 20};
  void *in[3] = {a, b, c};
  const wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_F32, 2)};
  /* A*B = [[4, 5], [10, 11]]; 2*AB + 0.5*C = [[13, 20], [25, 32]] */
  const float want[4] = {13, 20, 25, 32};
  CHECK(op_expect("Gemm", "{\"alpha\":2,\"beta\":0.5}", 3, d, in, want, 4, 0.0f));
  /* transA: A (3x2) = [[1,2],[3,4],[5,6]] is used as A' (2x3). */
  const wnn_tdesc dt[2] = {TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_F32, 3, 2)};
  /* A' = [[1,3,5],[2,4,6]]; A'B = [[1+5, 3+5], [2+6, 4+6]] */
  const float want_t[4] = {6, 8, 8, 10};
  CHECK(op_expect("Gemm", "{\"transA\":1}", 2, dt, in, want_t, 4, 0.0f));
}

TEST(gemm_rejects) {
  wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 4, 5), TD(WNN_DTYPE_F32, 2, 5),
                     TD(WNN_DTYPE_F32, 1)};
  CHECK(op_fails("Gemm", NULL, 2, in, 1, WNN_ERR_SHAPE, "inner dimensions differ"));
  in[1] = TD(WNN_DTYPE_F32, 3, 5);
  in[2] = TD(WNN_DTYPE_F32, 3, 5);
  CHECK(op_fails("Gemm", NULL, 3, in, 1, WNN_ERR_SHAPE, "input 2 (C)"));
  in[2] = TD(WNN_DTYPE_F32, 1, 2, 5);
  CHECK(op_fails("Gemm", NULL, 3, in, 1, WNN_ERR_SHAPE, "input 2 (C)"));
  in[2] = TD(WNN_DTYPE_I64, 2, 5);
  CHECK(op_fails("Gemm", NULL, 3, in, 1, WNN_ERR_DTYPE, "input 2 (C) is int64"));
  CHECK(op_fails("Gemm", "{\"transA\":2}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "transA = 2"));
  CHECK(op_fails("Gemm", "{\"alpha\":\"x\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "alpha"));
  CHECK(op_fails("Gemm", "{\"gamma\":1}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "unknown attribute"));
  in[0] = TD(WNN_DTYPE_F32, 2, 3, 1);
  CHECK(op_fails("Gemm", NULL, 2, in, 1, WNN_ERR_SHAPE, "input 0 (A) has 3 dims, expected 2"));
  in[0] = TD(WNN_DTYPE_I32, 2, 3);
  CHECK(op_fails("Gemm", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 0 (A) is int32"));
  CHECK(op_fails("Gemm", NULL, 4, in, 1, WNN_ERR_MALFORMED, "4 inputs"));
}

TEST(matmul_2d) {
  CHECK(matmul(TD(WNN_DTYPE_F32, 3, 4), TD(WNN_DTYPE_F32, 4, 5)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 17, 9), TD(WNN_DTYPE_F32, 9, 18)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 1, 1), TD(WNN_DTYPE_F32, 1, 1)));
}

TEST(matmul_batched_broadcast) {
  CHECK(matmul(TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 2, 4, 5)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 4, 5)));    /* folds into one GEMM */
  CHECK(matmul(TD(WNN_DTYPE_F32, 3, 4), TD(WNN_DTYPE_F32, 2, 4, 5)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 2, 1, 3, 4), TD(WNN_DTYPE_F32, 3, 4, 2)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 1, 3, 3, 4), TD(WNN_DTYPE_F32, 2, 1, 4, 2)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 2, 3, 5, 4), TD(WNN_DTYPE_F32, 1, 1, 4, 6)));
}

TEST(matmul_1d) {
  op_case c;
  const wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_F32, 4, 5)};
  CHECK(op_check("MatMul", NULL, 2, in, RTOL, ATOL));
  CHECK_OK(op_prepare(&c, "MatMul", NULL, 2, in, 1));
  CHECK(c.outputs[0].ndim == 1 && c.outputs[0].dims[0] == 5);
  CHECK(matmul(TD(WNN_DTYPE_F32, 3, 4), TD(WNN_DTYPE_F32, 4)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_F32, 4)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 4)));
  CHECK(matmul(TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_F32, 2, 4, 3)));
  const wnn_tdesc v[2] = {TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_F32, 4)};
  CHECK_OK(op_prepare(&c, "MatMul", NULL, 2, v, 1));
  CHECK(c.outputs[0].ndim == 0);
}

TEST(matmul_hand_computed) {
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  void *in[2] = {a, b};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 2, 2), TD(WNN_DTYPE_F32, 2, 2)};
  const float want[4] = {19, 22, 43, 50};
  CHECK(op_expect("MatMul", NULL, 2, d, in, want, 4, 0.0f));
}

TEST(matmul_rejects) {
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 4, 5)};
  CHECK(op_fails("MatMul", NULL, 2, in, 1, WNN_ERR_SHAPE, "A has 3 columns but B has 4 rows"));
  in[0] = TD(WNN_DTYPE_F32, 2, 3, 4);
  in[1] = TD(WNN_DTYPE_F32, 3, 4, 5);
  CHECK(op_fails("MatMul", NULL, 2, in, 1, WNN_ERR_SHAPE, "batch dims do not broadcast"));
  in[1] = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_fails("MatMul", NULL, 2, in, 1, WNN_ERR_SHAPE, "scalar"));
  in[1] = TD(WNN_DTYPE_I64, 4, 5);
  CHECK(op_fails("MatMul", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (B) is int64"));
  CHECK(op_fails("MatMul", "{\"transA\":1}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "unknown attribute"));
}

/* ------------------------------------------------------------------- Det */

TEST(det) {
  float a[4] = {1, 2, 3, 4};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 2, 2);
  void *data[1] = {a};
  const float d2 = -2;
  CHECK(op_check_data("Det", NULL, 1, &in, data, 1, &d2, 1, 1e-6f, 1e-6f));
  /* A batch: diagonal, singular, and one needing a row swap (0 pivot). */
  float b[27] = {2, 0, 0, 0, 3, 0, 0, 0, 4, 1, 2, 3, 2, 4, 6, 7, 8, 9, 0, 1, 0, 1, 0, 0, 0, 0, 1};
  wnn_tdesc bin = TD(WNN_DTYPE_F32, 3, 3, 3);
  void *bd[1] = {b};
  const float dets[3] = {24, 0, -1};
  CHECK(op_check_data("Det", NULL, 1, &bin, bd, 1, dets, 3, 1e-6f, 1e-6f));
  for (int64_t m = 0; m <= 6; m++) {
    wnn_tdesc r = TD(WNN_DTYPE_F32, 2, 3, 1, 1);
    r.dims[2] = r.dims[3] = m;
    CHECK(op_check("Det", NULL, 1, &r, 1e-4f, 1e-5f));
  }
  CHECK(op_fails("Det", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 3)}, 1, WNN_ERR_SHAPE,
                 "Det: input 0 (X) has shape [2, 3], expected [..., M, M]"));
  CHECK(op_fails("Det", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3)}, 1, WNN_ERR_SHAPE, "square"));
}

int main(void) {
  RUN(gemm_plain);
  RUN(gemm_trans_alpha_beta);
  RUN(gemm_c_broadcast);
  RUN(gemm_hand_computed);
  RUN(gemm_rejects);
  RUN(matmul_2d);
  RUN(matmul_batched_broadcast);
  RUN(matmul_1d);
  RUN(matmul_hand_computed);
  RUN(matmul_rejects);
  RUN(det);
  return test_summary();
}
