/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: hand-computed
 * values, run vs reference (double) on N-D inputs with weights, ignored
 * targets, int32 and int64 targets and every reduction, the optional
 * log_prob output, out-of-range targets at run time, rejections. run folds
 * in double like the reference, but takes logs and exps in float: rtol 1e-5,
 * atol 1e-6. */
#include <stdint.h>

#include "op_harness.h"

static const char NLL[] = "NegativeLogLikelihoodLoss";
static const char SCE[] = "SoftmaxCrossEntropyLoss";

/* Prepares the node, runs run and reference on the given buffers and
 * compares every output with each other and, when want is not NULL, output 0
 * with want (count values). */
static int check(const char *name, const char *attrs, int nin, const wnn_tdesc *in,
                 void *const *data, int nout, const float *want, size_t count) {
  op_case c;
  if (op_prepare(&c, name, attrs, nin, in, nout) != WNN_OK) {
    printf("  %s: prepare %s %s failed: %s\n", test_current_, name, attrs ? attrs : "", c.msg);
    return 0;
  }
  void *got[2] = {0}, *ref[2] = {0};
  int ok = op_exec(&c, c.op->run, data, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, data, ref) == WNN_OK && ok;
  for (int o = 0; ok && o < nout; o++)
    ok = outputs_match(&c.outputs[o], got[o], ref[o], 1e-5f, 1e-6f);
  if (ok && want) {
    const size_t n = (size_t)wnn_shape_numel(c.outputs[0].ndim, c.outputs[0].dims);
    ok = n == count && test_allclose(got[0], want, n, 1e-6f, 1e-6f);
    if (n != count) printf("  %s: %zu outputs, expected %zu\n", test_current_, n, count);
  }
  if (!ok) printf("  %s: mismatch for %s %s\n", test_current_, name, attrs ? attrs : "");
  for (int o = 0; o < nout; o++) free(got[o]), free(ref[o]);
  return ok;
}

TEST(nll_hand_computed) {
  /* x = log-probabilities of 2 samples over 3 classes, targets 2 and 0. */
  float x[6] = {-1, -2, -3, -0.5f, -1.5f, -2.5f}, w[3] = {1, 2, 4};
  int64_t t[2] = {2, 0};
  void *data[3] = {x, t, w};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_I64, 2), TD(WNN_DTYPE_F32, 3)};
  const float none[2] = {3, 0.5f}, sum = 3.5f, mean = 1.75f;
  CHECK(check(NLL, "{\"reduction\":\"none\"}", 2, in, data, 1, none, 2));
  CHECK(check(NLL, "{\"reduction\":\"sum\"}", 2, in, data, 1, &sum, 1));
  CHECK(check(NLL, NULL, 2, in, data, 1, &mean, 1)); /* mean is the default */
  /* Weighted: the mean divides by the sum of the applied weights (4 + 1). */
  const float wnone[2] = {12, 0.5f}, wsum = 12.5f, wmean = 2.5f;
  CHECK(check(NLL, "{\"reduction\":\"none\"}", 3, in, data, 1, wnone, 2));
  CHECK(check(NLL, "{\"reduction\":\"sum\"}", 3, in, data, 1, &wsum, 1));
  CHECK(check(NLL, "{\"reduction\":\"mean\"}", 3, in, data, 1, &wmean, 1));
  /* ignore_index 0 drops sample 1 from the loss and from the divisor. */
  const float inone[2] = {3, 0}, imean = 3.0f, iwmean = 3.0f;
  CHECK(check(NLL, "{\"reduction\":\"none\",\"ignore_index\":0}", 2, in, data, 1, inone, 2));
  CHECK(check(NLL, "{\"ignore_index\":0}", 2, in, data, 1, &imean, 1));
  CHECK(check(NLL, "{\"ignore_index\":0}", 3, in, data, 1, &iwmean, 1)); /* 12 / 4 */
  /* int32 targets give the same. */
  int32_t t32[2] = {2, 0};
  void *data32[3] = {x, t32, w};
  in[1].dtype = WNN_DTYPE_I32;
  CHECK(check(NLL, "{\"reduction\":\"mean\"}", 3, in, data32, 1, &wmean, 1));
  /* Every sample ignored: the mean is 0 / 0. */
  int64_t all[2] = {-1, -1};
  void *data_all[3] = {x, all, w};
  in[1].dtype = WNN_DTYPE_I64;
  op_case c;
  CHECK_OK(op_prepare(&c, NLL, "{\"ignore_index\":-1}", 3, in, 1));
  void *out[1];
  CHECK_OK(op_exec(&c, c.op->run, data_all, out));
  CHECK(isnan(((float *)out[0])[0]));
  free(out[0]);
}

TEST(sce_hand_computed) {
  /* scores [1, 2, 3], label 0: logsumexp = 3 + log(1 + e^-1 + e^-2). */
  float x[3] = {1, 2, 3};
  int64_t t[1] = {0};
  void *data[2] = {x, t};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 1, 3), TD(WNN_DTYPE_I64, 1)};
  const double lse = 3.0 + log(1.0 + exp(-1.0) + exp(-2.0));
  const float loss = (float)(lse - 1.0);
  CHECK(check(SCE, NULL, 2, in, data, 1, &loss, 1));
  CHECK(check(SCE, "{\"reduction\":\"none\"}", 2, in, data, 2, &loss, 1));
  /* log_prob is the log-softmax. */
  op_case c;
  CHECK_OK(op_prepare(&c, SCE, NULL, 2, in, 2));
  CHECK(c.outputs[0].ndim == 0 && c.outputs[1].ndim == 2 && c.outputs[1].dims[1] == 3);
  void *out[2];
  CHECK_OK(op_exec(&c, c.op->run, data, out));
  const float lp[3] = {(float)(1 - lse), (float)(2 - lse), (float)(3 - lse)};
  CHECK(test_allclose(out[1], lp, 3, 1e-6f, 1e-6f));
  free(out[0]);
  free(out[1]);
}

/* Random inputs of shape dims (N, C, d...), targets in [0, C) with about
 * one in five set to ii (but never the first, so that a mean is finite),
 * weights in (0, 1]. */
static int check_random(const char *name, const char *attrs, int ndim, const int64_t *dims,
                        wnn_dtype tdt, bool weight, int64_t ii, int nout) {
  wnn_tdesc in[3];
  in[0] = td(WNN_DTYPE_F32, ndim, dims);
  int64_t tdims[WNN_MAX_DIMS];
  tdims[0] = dims[0];
  for (int i = 2; i < ndim; i++) tdims[i - 1] = dims[i];
  in[1] = td(tdt, ndim - 1, tdims);
  in[2] = TD(WNN_DTYPE_F32, dims[1]);
  const size_t nt = (size_t)wnn_shape_numel(ndim - 1, tdims), c = (size_t)dims[1];
  void *data[3];
  data[0] = make_input(&in[0]);
  data[1] = malloc(nt * 8);
  data[2] = malloc(c * sizeof(float));
  for (size_t i = 0; i < nt; i++) {
    const int64_t v = lcg_next() % 5u == 0 ? ii : (int64_t)(lcg_next() % c);
    const int64_t u = i == 0 && v == ii ? (ii == 0 ? 1 : 0) : v; /* one sample counts */
    if (tdt == WNN_DTYPE_I32) ((int32_t *)data[1])[i] = (int32_t)u;
    else ((int64_t *)data[1])[i] = u;
  }
  for (size_t i = 0; i < c; i++) ((float *)data[2])[i] = 1.0f - 0.5f * (lcg_float() + 1.0f) + 1e-3f;
  const int ok = check(name, attrs, weight ? 3 : 2, in, data, nout, NULL, 0);
  for (int i = 0; i < 3; i++) free(data[i]);
  return ok;
}

TEST(vs_reference) {
  static const int64_t nc[] = {3, 5}, ncd[] = {3, 5, 6}, ncdd[] = {2, 4, 3, 5},
                       nc5[] = {2, 3, 2, 2, 3, 2, 2};
  static const char *const ATTRS[] = {"{\"reduction\":\"none\",\"ignore_index\":-5}",
                                      "{\"reduction\":\"sum\",\"ignore_index\":-5}",
                                      "{\"reduction\":\"mean\",\"ignore_index\":-5}",
                                      "{\"reduction\":\"mean\",\"ignore_index\":1}"};
  const char *ops[2] = {NLL, SCE};
  for (int o = 0; o < 2; o++)
    for (int a = 0; a < 4; a++)
      for (int w = 0; w < 2; w++) {
        const int64_t ii = a == 3 ? 1 : -5;
        const int nout = o == 1 && w == 1 ? 2 : 1;
        CHECK(check_random(ops[o], ATTRS[a], 2, nc, WNN_DTYPE_I64, w, ii, nout));
        CHECK(check_random(ops[o], ATTRS[a], 3, ncd, WNN_DTYPE_I32, w, ii, nout));
        CHECK(check_random(ops[o], ATTRS[a], 4, ncdd, WNN_DTYPE_I64, w, ii, nout));
        CHECK(check_random(ops[o], ATTRS[a], 7, nc5, WNN_DTYPE_I32, w, ii, nout));
      }
  /* No ignore_index: every target is a class (ii drawn in range). */
  CHECK(check_random(NLL, NULL, 3, ncd, WNN_DTYPE_I64, true, 2, 1));
  CHECK(check_random(SCE, "{\"reduction\":\"sum\"}", 3, ncd, WNN_DTYPE_I64, false, 0, 2));
}

TEST(out_of_range_targets) {
  float x[6] = {-1, -2, -3, -0.5f, -1.5f, -2.5f};
  int64_t t[2] = {1, 3};
  void *data[2] = {x, t};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_I64, 2)};
  const char *ops[2] = {NLL, SCE};
  for (int o = 0; o < 2; o++) {
    op_case c;
    CHECK_OK(op_prepare(&c, ops[o], "{\"ignore_index\":-1}", 2, in, 1));
    float y = 0;
    wnn_tensor ins[2] = {{x, WNN_DTYPE_F32, 2, c.inputs[0].dims},
                         {t, WNN_DTYPE_I64, 1, c.inputs[1].dims}};
    wnn_tensor outs[1] = {{&y, WNN_DTYPE_F32, 0, NULL}};
    char msg[256] = "";
    wnn_run_ctx ctx = {c.params, 2, ins, 1, outs, NULL, msg, sizeof msg};
    t[1] = 3;
    CHECK(c.op->run(&ctx) == WNN_ERR_OUT_OF_RANGE);
    CHECK(strstr(msg, ops[o]) && strstr(msg, "target value 3") && strstr(msg, "[0, 3)"));
    t[1] = -2; /* negative targets do not wrap */
    CHECK(c.op->run(&ctx) == WNN_ERR_OUT_OF_RANGE);
    CHECK(strstr(msg, "target value -2") != NULL);
    CHECK(c.op->reference(&ctx) == WNN_ERR_OUT_OF_RANGE);
    t[1] = -1; /* ignore_index is fine */
    CHECK_OK(c.op->run(&ctx));
    /* only sample 0 counts: -x[0][1], or -log_softmax(x[0])[1] */
    const double want = o == 0 ? 2.0 : -1.0 + log(1.0 + exp(-1.0) + exp(-2.0)) + 2.0;
    CHECK(fabs(y - want) < 1e-6);
  }
  (void)data;
}

TEST(rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_I64, 2, 4), TD(WNN_DTYPE_F32, 3)};
  CHECK(op_fails(NLL, "{\"reduction\":\"avg\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "reduction is 'avg'"));
  CHECK(op_fails(NLL, "{\"ignore_index\":1.5}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "ignore_index"));
  CHECK(op_fails(NLL, "{\"axis\":1}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "unknown attribute 'axis'"));
  CHECK(op_fails(NLL, NULL, 3, in, 2, WNN_ERR_MALFORMED, "2 outputs"));
  wnn_tdesc bad[3] = {in[0], in[1], in[2]};
  bad[1].dtype = WNN_DTYPE_F32;
  CHECK(op_fails(NLL, NULL, 2, bad, 1, WNN_ERR_DTYPE, "input 1 (target) is float32"));
  CHECK(op_fails(SCE, NULL, 2, bad, 1, WNN_ERR_DTYPE, "input 1 (labels) is float32"));
  bad[1] = TD(WNN_DTYPE_I64, 2, 3);
  CHECK(op_fails(NLL, NULL, 2, bad, 1, WNN_ERR_SHAPE, "input 1 (target) has shape [2, 3]"));
  bad[1] = in[1];
  bad[2] = TD(WNN_DTYPE_F32, 4);
  CHECK(op_fails(SCE, NULL, 3, bad, 1, WNN_ERR_SHAPE,
                 "input 2 (weights) has shape [4], expected [3]"));
  bad[2] = TD(WNN_DTYPE_I64, 3);
  CHECK(op_fails(NLL, NULL, 3, bad, 1, WNN_ERR_DTYPE, "input 2 (weight) is int64"));
  bad[0] = TD(WNN_DTYPE_F32, 3);
  bad[1] = TD_SCALAR(WNN_DTYPE_I64);
  CHECK(op_fails(NLL, NULL, 2, bad, 1, WNN_ERR_SHAPE, "at least 2"));
  bad[0] = TD(WNN_DTYPE_I32, 2, 3, 4);
  bad[1] = in[1];
  CHECK(op_fails(SCE, NULL, 2, bad, 1, WNN_ERR_DTYPE, "input 0 (scores) is int32"));
}

int main(void) {
  RUN(nll_hand_computed);
  RUN(sce_hand_computed);
  RUN(vs_reference);
  RUN(out_of_range_targets);
  RUN(rejects);
  return test_summary();
}
