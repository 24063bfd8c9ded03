/* RNN (the simple recurrent unit): a hand-computed step, run vs the double
 * reference (src/ref/ref_nn_rnn_simple.c) over directions, layouts, biases, initial
 * states, clip, activations and per-entry sequence lengths, out-of-range
 * lengths at run time, rejections. Tolerance rtol 1e-5, atol 1e-6. */
#include <math.h>
#include <stdint.h>

#include "op_harness.h"

/* Inputs X, W, R, B, sequence_lens, initial_h (any of the last three may be
 * omitted); runs run and reference and compares Y and Y_h. */
static int check_rnn(const char *attrs, int64_t seq, int64_t batch, int64_t input,
                     int64_t hidden, int dirs, int layout, bool bias, const int64_t *lens,
                     bool h0) {
  wnn_tdesc in[6];
  in[0] = layout ? TD(WNN_DTYPE_F32, batch, seq, input) : TD(WNN_DTYPE_F32, seq, batch, input);
  in[1] = TD(WNN_DTYPE_F32, dirs, hidden, input);
  in[2] = TD(WNN_DTYPE_F32, dirs, hidden, hidden);
  in[3] = bias ? TD(WNN_DTYPE_F32, dirs, 2 * hidden) : TD_OMITTED;
  in[4] = lens ? TD(WNN_DTYPE_I64, batch) : TD_OMITTED;
  in[5] = h0 ? (layout ? TD(WNN_DTYPE_F32, batch, dirs, hidden)
                       : TD(WNN_DTYPE_F32, dirs, batch, hidden))
             : TD_OMITTED;
  op_case c;
  if (op_prepare(&c, "RNN", attrs, 6, in, 2) != WNN_OK) {
    printf("  %s: prepare failed: %s\n", test_current_, c.msg);
    return 0;
  }
  void *data[6] = {0};
  for (int i = 0; i < 6; i++)
    if (in[i].dtype == WNN_DTYPE_F32) data[i] = make_input(&in[i]);
  if (lens) data[4] = (void *)lens;
  void *got[2], *want[2];
  int ok = op_exec(&c, c.op->run, data, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, data, want) == WNN_OK && ok;
  for (int o = 0; ok && o < 2; o++)
    ok = outputs_match(&c.outputs[o], got[o], want[o], 1e-5f, 1e-6f);
  if (!ok) printf("  %s: mismatch for RNN %s\n", test_current_, attrs ? attrs : "");
  for (int i = 0; i < 6; i++)
    if (i != 4) free(data[i]);
  for (int o = 0; o < 2; o++) free(got[o]), free(want[o]);
  return ok;
}

TEST(hand_computed) {
  /* One step, H = I = 1: tanh(1 * 0.5 + 0 + 0.1 + 0.2). */
  float x[1] = {1}, w[1] = {0.5f}, r[1] = {3}, b[2] = {0.1f, 0.2f};
  wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 1, 1, 1), TD(WNN_DTYPE_F32, 1, 1, 1),
                     TD(WNN_DTYPE_F32, 1, 1, 1), TD(WNN_DTYPE_F32, 1, 2)};
  void *data[4] = {x, w, r, b};
  const float want = tanhf(0.8f);
  CHECK(op_expect("RNN", NULL, 4, in, data, &want, 1, 1e-6f));
  /* Two steps: h2 = tanh(x2 * 0.5 + 3 * h1 + 0.3). */
  float x2[2] = {1, -1};
  in[0] = TD(WNN_DTYPE_F32, 2, 1, 1);
  data[0] = x2;
  const float h1 = tanhf(0.8f), ys[2] = {h1, tanhf(-0.5f + 3.0f * h1 + 0.3f)};
  CHECK(op_expect("RNN", NULL, 4, in, data, ys, 2, 1e-6f));
}

TEST(vs_reference) {
  static const int64_t lens[3] = {4, 0, 2};
  const char *dirs[3] = {"{\"direction\":\"forward\"}", "{\"direction\":\"reverse\"}",
                         "{\"direction\":\"bidirectional\"}"};
  for (int d = 0; d < 3; d++)
    for (int layout = 0; layout < 2; layout++) {
      char attrs[160];
      snprintf(attrs, sizeof attrs, "%.*s,\"layout\":%d,\"hidden_size\":5}",
               (int)strlen(dirs[d]) - 1, dirs[d], layout);
      const int nd = d == 2 ? 2 : 1;
      CHECK(check_rnn(attrs, 4, 3, 3, 5, nd, layout, true, NULL, true));
      CHECK(check_rnn(attrs, 4, 3, 3, 5, nd, layout, false, NULL, false));
      CHECK(check_rnn(attrs, 4, 3, 3, 5, nd, layout, true, lens, true));
    }
  CHECK(check_rnn("{\"clip\":0.3}", 5, 2, 4, 3, 1, 0, true, NULL, true));
  CHECK(check_rnn("{\"activations\":[\"Relu\"]}", 5, 2, 4, 3, 1, 0, true, NULL, false));
  CHECK(check_rnn("{\"direction\":\"bidirectional\",\"activations\":[\"Sigmoid\",\"Relu\"]}", 3, 2,
                  2, 4, 2, 0, true, NULL, true));
}

TEST(out_of_range_lengths) {
  wnn_tdesc in[5] = {TD(WNN_DTYPE_F32, 2, 2, 1), TD(WNN_DTYPE_F32, 1, 1, 1),
                     TD(WNN_DTYPE_F32, 1, 1, 1), TD_OMITTED, TD(WNN_DTYPE_I64, 2)};
  float x[4] = {1, 2, 3, 4}, w[1] = {1}, r[1] = {1};
  int64_t lens[2] = {2, 3};
  void *data[5] = {x, w, r, NULL, lens}, *out[1];
  op_case c;
  CHECK_OK(op_prepare(&c, "RNN", NULL, 5, in, 1));
  CHECK(op_exec(&c, c.op->run, data, out) == WNN_ERR_OUT_OF_RANGE);
  free(out[0]);
  lens[1] = -1;
  CHECK(op_exec(&c, c.op->run, data, out) == WNN_ERR_OUT_OF_RANGE);
  free(out[0]);
}

TEST(rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 1, 3), TD(WNN_DTYPE_F32, 1, 4, 3),
                     TD(WNN_DTYPE_F32, 1, 4, 4)};
  CHECK(op_fails("RNN", "{\"direction\":\"up\"}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "direction 'up'"));
  CHECK(op_fails("RNN", "{\"activations\":[\"LeakyRelu\"]}", 3, in, 1, WNN_ERR_UNSUPPORTED,
                 "activations[0] 'LeakyRelu'"));
  CHECK(op_fails("RNN", "{\"activations\":[\"Tanh\",\"Tanh\"]}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "one per direction"));
  CHECK(op_fails("RNN", "{\"clip\":0}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE, "clip"));
  CHECK(op_fails("RNN", "{\"hidden_size\":3}", 3, in, 1, WNN_ERR_SHAPE,
                 "input 1 (W) has shape [1, 4, 3], expected [1, 3, 3]"));
  in[1] = TD(WNN_DTYPE_F32, 1, 4, 2);
  CHECK(op_fails("RNN", NULL, 3, in, 1, WNN_ERR_SHAPE, "input 1 (W)"));
  in[1] = TD(WNN_DTYPE_F32, 1, 4, 3);
  in[0].dtype = WNN_DTYPE_I32;
  CHECK(op_fails("RNN", NULL, 3, in, 1, WNN_ERR_DTYPE, "RNN: input 0 (X) is int32"));
}

int main(void) {
  RUN(hand_computed);
  RUN(vs_reference);
  RUN(out_of_range_lengths);
  RUN(rejects);
  return test_summary();
}
