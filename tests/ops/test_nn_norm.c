/* BatchNormalization, InstanceNormalization, LayerNormalization, LRN and
 * GlobalMaxPool: run vs reference on random inputs (statistics in float vs
 * double: rtol 1e-4, atol 1e-5), hand-computed values, and rejections. */
#include <math.h>

#include "op_harness.h"
#include "kernels/kernels.h"

#define RTOL 1e-4f
#define ATOL 1e-5f

/* Runs run and reference with `num_outputs` outputs on the same random
 * inputs and compares every output, with both kernel choices. */
static int check_outputs(const char *name, const char *attrs, int num_inputs,
                         const wnn_tdesc *inputs, int num_outputs) {
  int ok = 1;
  for (int k = 0; k < 2; k++) {
    op_case c;
    wnn_status st = op_prepare_k(&c, name, attrs, num_inputs, inputs, num_outputs,
                                 k ? WNN_KERNELS_SCALAR : WNN_KERNELS_AUTO);
    if (st != WNN_OK) {
      printf("  %s: prepare %s failed: %s\n", test_current_, name, c.msg);
      return 0;
    }
    void *in[WNN_MAX_IO] = {0}, *got[WNN_MAX_IO], *want[WNN_MAX_IO];
    for (int i = 0; i < num_inputs; i++)
      if (inputs[i].dtype != WNN_DTYPE_INVALID) in[i] = make_input(&inputs[i]);
    ok = op_exec(&c, c.op->run, in, got) == WNN_OK && ok;
    ok = op_exec(&c, c.op->reference, in, want) == WNN_OK && ok;
    for (int o = 0; o < num_outputs; o++) {
      ok = outputs_match(&c.outputs[o], got[o], want[o], RTOL, ATOL) && ok;
      free(got[o]);
      free(want[o]);
    }
    for (int i = 0; i < num_inputs; i++) free(in[i]);
  }
  if (!ok) printf("  %s: mismatch for %s %s\n", test_current_, name, attrs ? attrs : "");
  return ok;
}

static const float POSITIVE[16] = {0.5f, 1.0f, 2.0f, 0.25f, 3.0f, 0.1f, 1.5f, 0.75f,
                                   0.9f, 1.1f, 0.3f, 2.5f,  0.6f, 1.3f, 0.2f, 4.0f};

static wnn_tdesc vec(int64_t n) { return TD(WNN_DTYPE_F32, n); }
static wnn_tdesc positive_vec(int64_t n) {
  wnn_tdesc t = vec(n);
  t.data = POSITIVE;
  return t;
}

TEST(batchnorm_vs_reference) {
  for (int rank = 2; rank <= 5; rank++) {
    const int64_t dims[5] = {2, 5, 3, 4, 2};
    wnn_tdesc in[5] = {td(WNN_DTYPE_F32, rank, dims), vec(5), vec(5), vec(5), positive_vec(5)};
    CHECK(check_outputs("BatchNormalization", NULL, 5, in, 1));
    CHECK(check_outputs("BatchNormalization", "{\"epsilon\":0.01,\"momentum\":0.5}", 5, in, 1));
  }
}

TEST(batchnorm_training_vs_reference) {
  /* Batch statistics, and running mean and variance out (1, 2 or 3 outputs). */
  for (int rank = 2; rank <= 5; rank++) {
    const int64_t dims[5] = {2, 5, 3, 4, 2};
    wnn_tdesc in[5] = {td(WNN_DTYPE_F32, rank, dims), vec(5), vec(5), vec(5), positive_vec(5)};
    for (int outs = 1; outs <= 3; outs++) {
      CHECK(check_outputs("BatchNormalization", "{\"training_mode\":1}", 5, in, outs));
      CHECK(check_outputs("BatchNormalization",
                          "{\"training_mode\":1,\"epsilon\":0.01,\"momentum\":0.25}", 5, in,
                          outs));
    }
  }
}

TEST(batchnorm_training_hand_computed) {
  /* N = 2, C = 1, 2 elements each: x = 1, 3 | 5, 7: mean 4, variance
   * (9 + 1 + 1 + 9) / 4 = 5; y = (x - 4) / sqrt(5 + 0) * 2 + 1; running
   * mean 0 * 0.5 + 4 * 0.5 = 2, running var 1 * 0.5 + 5 * 0.5 = 3. */
  float x[4] = {1, 3, 5, 7}, scale[1] = {2}, b[1] = {1}, mean[1] = {0}, var[1] = {1};
  void *in[5] = {x, scale, b, mean, var};
  const wnn_tdesc d[5] = {TD(WNN_DTYPE_F32, 2, 1, 2), vec(1), vec(1), vec(1), vec(1)};
  op_case c;
  CHECK_OK(op_prepare(&c, "BatchNormalization",
                      "{\"training_mode\":1,\"epsilon\":0,\"momentum\":0.5}", 5, d, 3));
  const float r5 = 1.0f / sqrtf(5.0f);
  const float want[4] = {-3 * r5 * 2 + 1, -1 * r5 * 2 + 1, 1 * r5 * 2 + 1, 3 * r5 * 2 + 1};
  for (int f = 0; f < 2; f++) {
    void *out[3];
    CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, in, out));
    CHECK(test_allclose(out[0], want, 4, 1e-6f, 1e-6f));
    CHECK(fabsf(((float *)out[1])[0] - 2.0f) < 1e-6f && fabsf(((float *)out[2])[0] - 3.0f) < 1e-6f);
    for (int k = 0; k < 3; k++) free(out[k]);
  }
}

TEST(batchnorm_hand_computed) {
  /* C = 2: y = (x - mean) / sqrt(var + eps) * scale + b with eps = 0. */
  float x[4] = {1, 2, 3, 4}, scale[2] = {2, 0.5f}, b[2] = {1, -1}, mean[2] = {1, 2},
        var[2] = {4, 0.25f};
  void *in[5] = {x, scale, b, mean, var};
  const wnn_tdesc d[5] = {TD(WNN_DTYPE_F32, 1, 2, 2), vec(2), vec(2), vec(2), vec(2)};
  /* channel 0: (1-1)/2*2+1 = 1, (2-1)/2*2+1 = 2; channel 1: (3-2)/0.5*0.5-1 = 0, 1. */
  const float want[4] = {1, 2, 0, 1};
  CHECK(op_expect("BatchNormalization", "{\"epsilon\":0}", 5, d, in, want, 4, 1e-6f));
}

TEST(instancenorm) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3, 5, 7), vec(3), vec(3)};
  CHECK(check_outputs("InstanceNormalization", NULL, 3, in, 1));
  in[0] = TD(WNN_DTYPE_F32, 1, 3, 17);
  CHECK(check_outputs("InstanceNormalization", "{\"epsilon\":0.001}", 3, in, 1));
  /* One plane [1, 3]: mean 2, variance 1 (eps 0): normalized -1, 1; scale 2, b 1. */
  float x[2] = {1, 3}, scale[1] = {2}, b[1] = {1};
  void *data[3] = {x, scale, b};
  const wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 1, 1, 2), vec(1), vec(1)};
  const float want[2] = {-1, 3};
  CHECK(op_expect("InstanceNormalization", "{\"epsilon\":0}", 3, d, data, want, 2, 1e-6f));
}

TEST(layernorm_vs_reference) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 8);
  wnn_tdesc in[3] = {x, TD(WNN_DTYPE_F32, 8), TD(WNN_DTYPE_F32, 8)};
  CHECK(check_outputs("LayerNormalization", NULL, 3, in, 1));
  CHECK(check_outputs("LayerNormalization", NULL, 3, in, 3));
  CHECK(check_outputs("LayerNormalization", NULL, 2, in, 2));
  in[1] = TD(WNN_DTYPE_F32, 3, 8), in[2] = TD(WNN_DTYPE_F32, 1, 8);
  CHECK(check_outputs("LayerNormalization", "{\"axis\":1,\"epsilon\":1e-3}", 3, in, 3));
  in[1] = TD(WNN_DTYPE_F32, 3, 1), in[2] = TD(WNN_DTYPE_F32, 1);
  CHECK(check_outputs("LayerNormalization", "{\"axis\":-2}", 3, in, 3));
  in[1] = TD(WNN_DTYPE_F32, 2, 3, 8), in[2] = TD(WNN_DTYPE_F32, 8);
  CHECK(check_outputs("LayerNormalization", "{\"axis\":0,\"stash_type\":1}", 3, in, 3));
}

/* The layer-norm microkernel against double-precision statistics on awkward
 * row lengths, with and without bias and statistics outputs, and in place. */
static int layernorm_kernel(size_t rows, size_t n, bool bias, bool stats, bool in_place) {
  float *x = malloc(rows * n * sizeof *x), *y = malloc(rows * n * sizeof *y);
  float *scale = malloc(n * sizeof *scale), *b = malloc(n * sizeof *b);
  float mean[8], inv[8];
  double want[8 * 64];
  for (size_t i = 0; i < rows * n; i++) x[i] = 3.0f + 2.0f * lcg_float(); /* mean far from 0 */
  for (size_t i = 0; i < n; i++) scale[i] = lcg_float(), b[i] = lcg_float();
  double want_mean[8], want_inv[8];
  for (size_t r = 0; r < rows; r++) {
    double m = 0, v = 0;
    for (size_t i = 0; i < n; i++) m += x[r * n + i];
    m /= (double)n;
    for (size_t i = 0; i < n; i++) v += (x[r * n + i] - m) * (x[r * n + i] - m);
    const double is = 1 / sqrt(v / (double)n + 1e-5);
    want_mean[r] = m, want_inv[r] = is;
    for (size_t i = 0; i < n; i++)
      want[r * n + i] = (x[r * n + i] - m) * is * scale[i] + (bias ? b[i] : 0);
  }
  float *out = in_place ? x : y;
  wnn_f32_layernorm__scalar(rows, n, x, scale, bias ? b : NULL, out, stats ? mean : NULL,
                            stats ? inv : NULL, 1e-5f);
  int ok = 1;
  for (size_t i = 0; i < rows * n; i++)
    if (fabs(out[i] - want[i]) > 1e-4 + 1e-4 * fabs(want[i])) {
      printf("  %s: rows %zu n %zu element %zu: %g vs %g\n", test_current_, rows, n, i,
             (double)out[i], want[i]);
      ok = 0;
      break;
    }
  for (size_t r = 0; stats && r < rows; r++)
    if (fabs(mean[r] - want_mean[r]) > 1e-5 || fabs(inv[r] - want_inv[r]) > 1e-4 * want_inv[r])
      ok = 0;
  free(x), free(y), free(scale), free(b);
  return ok;
}

TEST(layernorm_microkernel) {
  const size_t sizes[] = {1, 2, 3, 4, 7, 8, 17, 64};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    CHECK(layernorm_kernel(3, sizes[k], true, true, false));
    CHECK(layernorm_kernel(1, sizes[k], false, false, true));
    CHECK(layernorm_kernel(8, sizes[k], true, false, true));
  }
}

TEST(layernorm_hand_computed) {
  /* Rows [1, 3] and [2, 6]: means 2 and 4, variances 1 and 4 (eps 0);
   * normalized -1, 1; scale [1, 2], B [0, 1]: -1, 3. */
  float x[4] = {1, 3, 2, 6}, scale[2] = {1, 2}, b[2] = {0, 1};
  void *in[3] = {x, scale, b};
  const wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 2, 2), vec(2), vec(2)};
  const float want[4] = {-1, 3, -1, 3};
  CHECK(op_expect("LayerNormalization", "{\"epsilon\":0}", 3, d, in, want, 4, 1e-6f));
  /* Mean and InvStdDev have shape [2, 1]: 2, 4 and 1, 0.5. */
  op_case c;
  CHECK_OK(op_prepare(&c, "LayerNormalization", "{\"epsilon\":0}", 3, d, 3));
  CHECK(c.outputs[1].ndim == 2 && c.outputs[1].dims[0] == 2 && c.outputs[1].dims[1] == 1);
  void *out[3];
  CHECK_OK(op_exec(&c, c.op->run, in, out));
  const float mean[2] = {2, 4}, inv[2] = {1, 0.5f};
  CHECK(test_allclose(out[1], mean, 2, 0, 1e-6f));
  CHECK(test_allclose(out[2], inv, 2, 0, 1e-6f));
  for (int i = 0; i < 3; i++) free(out[i]);
}

TEST(lrn) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 7, 4, 3);
  CHECK(check_outputs("LRN", "{\"size\":3}", 1, &x, 1));
  CHECK(check_outputs("LRN", "{\"size\":4,\"alpha\":0.01,\"beta\":0.5,\"bias\":2}", 1, &x, 1));
  CHECK(check_outputs("LRN", "{\"size\":1}", 1, &x, 1));
  CHECK(check_outputs("LRN", "{\"size\":9}", 1, &x, 1));
  /* Channels 1, 2 (one pixel), size 2: channel 0 sums channels 0..1 (floor(1/2)
   * = 0 before, ceil(1/2) = 1 after): 1 + 4 = 5; channel 1 sums 1..1: 4.
   * y = x / (1 + 0.5 / 2 * sum)^1: 1 / 2.25, 2 / 2. */
  float v[2] = {1, 2};
  void *in[1] = {v};
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 1, 2, 1);
  const float want[2] = {1.0f / 2.25f, 1.0f};
  CHECK(op_expect("LRN", "{\"size\":2,\"alpha\":0.5,\"beta\":1,\"bias\":1}", 1, &d, in, want, 2,
                  1e-6f));
}

TEST(globalmaxpool) {
  CHECK(check_outputs("GlobalMaxPool", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 3, 5, 7)}, 1));
  CHECK(check_outputs("GlobalMaxPool", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 1, 4, 9)}, 1));
  CHECK(
      check_outputs("GlobalMaxPool", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 1, 2, 2, 3, 2)}, 1));
  float x[6] = {1, 7, -3, -4, -2, -9};
  void *in[1] = {x};
  const wnn_tdesc d = TD(WNN_DTYPE_F32, 1, 2, 3);
  const float want[2] = {7, -2};
  CHECK(op_expect("GlobalMaxPool", NULL, 1, &d, in, want, 2, 0));
  op_case c;
  CHECK_OK(op_prepare(&c, "GlobalMaxPool", NULL, 1, &d, 1));
  CHECK(c.outputs[0].ndim == 3 && c.outputs[0].dims[2] == 1);
}

TEST(rejects) {
  wnn_tdesc bn[5] = {TD(WNN_DTYPE_F32, 1, 3, 4), vec(3), vec(3), vec(3), vec(3)};
  CHECK(op_fails("BatchNormalization", "{\"training_mode\":2}", 5, bn, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "training_mode = 2"));
  CHECK(op_fails("BatchNormalization", NULL, 5, bn, 3, WNN_ERR_MALFORMED,
                 "3 outputs; running_mean and running_var (outputs 1 and 2) exist only with "
                 "training_mode = 1"));
  CHECK(op_fails("BatchNormalization", "{\"epsilon\":-1}", 5, bn, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "epsilon"));
  bn[4] = vec(4);
  CHECK(op_fails("BatchNormalization", NULL, 5, bn, 1, WNN_ERR_SHAPE,
                 "input 4 (input_var) has shape [4], expected [3]"));
  bn[4] = vec(3), bn[0] = TD(WNN_DTYPE_F32, 3);
  CHECK(op_fails("BatchNormalization", NULL, 5, bn, 1, WNN_ERR_SHAPE, "has 1 dims"));
  bn[0] = TD(WNN_DTYPE_I64, 1, 3, 4);
  CHECK(op_fails("BatchNormalization", NULL, 5, bn, 1, WNN_ERR_DTYPE, "int64"));

  wnn_tdesc in3[3] = {TD(WNN_DTYPE_F32, 1, 3), vec(3), vec(3)};
  CHECK(op_fails("InstanceNormalization", NULL, 3, in3, 1, WNN_ERR_SHAPE, "at least 3"));
  in3[0] = TD(WNN_DTYPE_F32, 1, 3, 0);
  CHECK(op_fails("InstanceNormalization", NULL, 3, in3, 1, WNN_ERR_SHAPE, "no spatial elements"));

  wnn_tdesc ln[3] = {TD(WNN_DTYPE_F32, 2, 4), TD(WNN_DTYPE_F32, 3), vec(4)};
  CHECK(op_fails("LayerNormalization", NULL, 3, ln, 1, WNN_ERR_SHAPE,
                 "input 1 (Scale) has shape [3], which does not broadcast"));
  ln[1] = vec(4);
  CHECK(op_fails("LayerNormalization", "{\"axis\":2}", 3, ln, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "axis 2 out of range"));
  CHECK(op_fails("LayerNormalization", "{\"stash_type\":7}", 3, ln, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "stash_type 7"));
  ln[2] = TD(WNN_DTYPE_F32, 2, 4, 1);
  CHECK(op_fails("LayerNormalization", NULL, 3, ln, 1, WNN_ERR_SHAPE, "input 2 (B)"));

  const wnn_tdesc x = TD(WNN_DTYPE_F32, 1, 3, 4);
  CHECK(op_fails("LRN", NULL, 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "size is required"));
  CHECK(op_fails("LRN", "{\"size\":2,\"k\":1}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "unknown attribute 'k'"));
  const wnn_tdesc x2 = TD(WNN_DTYPE_F32, 3, 4);
  CHECK(op_fails("GlobalMaxPool", NULL, 1, &x2, 1, WNN_ERR_SHAPE, "has 2 dims"));
  const wnn_tdesc x0 = TD(WNN_DTYPE_F32, 1, 2, 0);
  CHECK(op_fails("GlobalMaxPool", NULL, 1, &x0, 1, WNN_ERR_SHAPE, "no spatial elements to reduce"));
}

/* --------------------------------------------- MeanVarianceNormalization */

TEST(mean_variance_normalization) {
  float x[2] = {1, 3};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 2);
  void *data[1] = {x};
  const float want[2] = {-1, 1}; /* mean 2, standard deviation 1 */
  CHECK(op_check_data("MeanVarianceNormalization", "{\"axes\":[0]}", 1, &in, data, 1, want, 2,
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

int main(void) {
  RUN(batchnorm_vs_reference);
  RUN(batchnorm_training_vs_reference);
  RUN(batchnorm_training_hand_computed);
  RUN(batchnorm_hand_computed);
  RUN(instancenorm);
  RUN(layernorm_vs_reference);
  RUN(layernorm_hand_computed);
  RUN(layernorm_microkernel);
  RUN(lrn);
  RUN(globalmaxpool);
  RUN(rejects);
  RUN(mean_variance_normalization);
  return test_summary();
}
