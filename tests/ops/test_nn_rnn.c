/* LSTM and GRU: the GEMM-based run vs the per-unit reference over directions,
 * layouts, optional inputs and outputs, clip and activations; hand-computed
 * sequences (values from the ONNX equations, worked with a calculator in the
 * comments); rejections. Float GEMM vs double dot products over a few steps:
 * rtol 1e-4, atol 1e-5. */
#include "op_harness.h"

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
      printf("  %s: prepare %s %s failed: %s\n", test_current_, name, attrs ? attrs : "", c.msg);
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

enum { SEQ = 5, BATCH = 3, INPUT = 4, HIDDEN = 6 };

/* The inputs of an LSTM (gates 4) or GRU (gates 3) with `dirs` directions;
 * bias, h0, c0 and peep say whether B, initial_h, initial_c and P are given.
 * Returns the input count. */
static int rnn_inputs(wnn_tdesc *in, int gates, int dirs, int layout, bool bias, bool h0, bool c0,
                      bool peep) {
  const wnn_tdesc state = layout ? TD(WNN_DTYPE_F32, BATCH, dirs, HIDDEN)
                                 : TD(WNN_DTYPE_F32, dirs, BATCH, HIDDEN);
  in[0] = layout ? TD(WNN_DTYPE_F32, BATCH, SEQ, INPUT) : TD(WNN_DTYPE_F32, SEQ, BATCH, INPUT);
  in[1] = TD(WNN_DTYPE_F32, dirs, gates * HIDDEN, INPUT);
  in[2] = TD(WNN_DTYPE_F32, dirs, gates * HIDDEN, HIDDEN);
  in[3] = bias ? TD(WNN_DTYPE_F32, dirs, 2 * gates * HIDDEN) : TD_OMITTED;
  in[4] = TD_OMITTED;
  in[5] = h0 ? state : TD_OMITTED;
  if (gates == 3) return 6;
  in[6] = c0 ? state : TD_OMITTED;
  in[7] = peep ? TD(WNN_DTYPE_F32, dirs, 3 * HIDDEN) : TD_OMITTED;
  return 8;
}

static const char *const DIRECTIONS[3] = {"forward", "reverse", "bidirectional"};

TEST(lstm_vs_reference) {
  wnn_tdesc in[8];
  char attrs[256];
  for (int d = 0; d < 3; d++)
    for (int layout = 0; layout < 2; layout++)
      for (int opt = 0; opt < 4; opt++) {
        const int dirs = d == 2 ? 2 : 1;
        const int n = rnn_inputs(in, 4, dirs, layout, opt & 1, opt & 2, opt & 1, opt == 3);
        snprintf(attrs, sizeof attrs, "{\"direction\":\"%s\",\"layout\":%d,\"hidden_size\":%d}",
                 DIRECTIONS[d], layout, HIDDEN);
        CHECK(check_outputs("LSTM", attrs, n, in, 3));
      }
  const int n = rnn_inputs(in, 4, 2, 0, true, true, true, true);
  CHECK(check_outputs("LSTM", "{\"direction\":\"bidirectional\",\"clip\":0.5}", n, in, 3));
  CHECK(check_outputs("LSTM", "{\"direction\":\"bidirectional\",\"input_forget\":1}", n, in, 2));
  CHECK(check_outputs("LSTM",
                      "{\"direction\":\"bidirectional\",\"activations\":[\"Sigmoid\",\"Relu\","
                      "\"Tanh\",\"Tanh\",\"Sigmoid\",\"Relu\"]}",
                      n, in, 1));
  rnn_inputs(in, 4, 1, 0, false, false, false, false);
  CHECK(check_outputs("LSTM", NULL, 3, in, 1)); /* hidden_size from R; B etc. omitted */
  /* sequence_lens: a constant, all equal to the sequence length. */
  const int32_t lens[BATCH] = {SEQ, SEQ, SEQ};
  rnn_inputs(in, 4, 1, 0, true, true, true, false);
  in[4] = TD(WNN_DTYPE_I32, BATCH);
  in[4].data = lens;
  CHECK(check_outputs("LSTM", NULL, 7, in, 3));
}

TEST(gru_vs_reference) {
  wnn_tdesc in[8];
  char attrs[256];
  for (int d = 0; d < 3; d++)
    for (int layout = 0; layout < 2; layout++)
      for (int lbr = 0; lbr < 2; lbr++)
        for (int opt = 0; opt < 3; opt++) {
          const int dirs = d == 2 ? 2 : 1;
          const int n = rnn_inputs(in, 3, dirs, layout, opt >= 1, opt == 2, false, false);
          snprintf(attrs, sizeof attrs,
                   "{\"direction\":\"%s\",\"layout\":%d,\"linear_before_reset\":%d}", DIRECTIONS[d],
                   layout, lbr);
          CHECK(check_outputs("GRU", attrs, n, in, 2));
        }
  const int n = rnn_inputs(in, 3, 2, 1, true, true, false, false);
  CHECK(check_outputs("GRU", "{\"direction\":\"bidirectional\",\"layout\":1,\"clip\":0.3}", n, in,
                      2));
  CHECK(check_outputs("GRU",
                      "{\"direction\":\"bidirectional\",\"layout\":1,\"activations\":[\"Sigmoid\","
                      "\"Relu\",\"Tanh\",\"Sigmoid\"],\"linear_before_reset\":1}",
                      n, in, 1));
  rnn_inputs(in, 3, 1, 0, false, false, false, false);
  CHECK(check_outputs("GRU", NULL, 3, in, 1));
}

TEST(lstm_hand_computed) {
  /* Zero weights, initial_c 1: every gate is sigmoid(0) = 0.5 and the
   * candidate tanh(0) = 0, so C halves each step: C = 0.5, 0.25 and
   * H = 0.5 tanh(C) = 0.2310585786, 0.1224593312. */
  float x[2] = {3, -2}, w[4] = {0}, r[4] = {0}, h0[1] = {0}, c0[1] = {1};
  void *in[7] = {x, w, r, NULL, NULL, h0, c0};
  const wnn_tdesc d[7] = {TD(WNN_DTYPE_F32, 2, 1, 1),
                          TD(WNN_DTYPE_F32, 1, 4, 1),
                          TD(WNN_DTYPE_F32, 1, 4, 1),
                          TD_OMITTED,
                          TD_OMITTED,
                          TD(WNN_DTYPE_F32, 1, 1, 1),
                          TD(WNN_DTYPE_F32, 1, 1, 1)};
  const float want[2] = {0.2310585786f, 0.1224593312f};
  CHECK(op_expect("LSTM", NULL, 7, d, in, want, 2, 1e-6f));
  /* W = 1 for every gate, R = 0.5, x = 1 then 2, zero initial state:
   * step 1: gates 1: i = o = f = sigmoid(1), C = sigmoid(1) tanh(1) =
   * 0.5567699411, H = sigmoid(1) tanh(C) = 0.3696063529; step 2: gates
   * 2 + 0.5 H: C = 1.3768755300, H = 0.7912357684. */
  float x2[2] = {1, 2}, w2[4] = {1, 1, 1, 1}, r2[4] = {0.5f, 0.5f, 0.5f, 0.5f};
  void *in2[3] = {x2, w2, r2};
  const float want2[2] = {0.3696063529f, 0.7912357684f};
  CHECK(op_expect("LSTM", NULL, 3, d, in2, want2, 2, 1e-6f));
  /* Reverse: the same numbers with the sequence read backwards, Y stored at
   * each step's own position. x = [2, 1] gives Y = [H2, H1]. */
  float x3[2] = {2, 1};
  void *in3[3] = {x3, w2, r2};
  const float want3[2] = {0.7912357684f, 0.3696063529f};
  CHECK(op_expect("LSTM", "{\"direction\":\"reverse\"}", 3, d, in3, want3, 2, 1e-6f));
}

TEST(gru_hand_computed) {
  /* Hidden 1, x = 1 then -1, W = [0.5, -0.5, 1] (z, r, h), R = [0.25, 0.75, -1],
   * B = [0.1, 0.2, 0.3 | 0.4, 0.5, 0.6], initial_h 0.5:
   *   z = sigmoid(0.5 x + 0.25 h + 0.5), r = sigmoid(-0.5 x + 0.75 h + 0.7),
   *   default:             h~ = tanh(x - r h + 0.9)
   *   linear_before_reset: h~ = tanh(x + r (0.6 - h) + 0.3)
   *   H = (1 - z) h~ + z h
   * gives 0.6025946560, 0.0737531663 and 0.5924744061, 0.0401519813. */
  float x[2] = {1, -1}, w[3] = {0.5f, -0.5f, 1}, r[3] = {0.25f, 0.75f, -1},
        b[6] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f}, h0[1] = {0.5f};
  void *in[6] = {x, w, r, b, NULL, h0};
  const wnn_tdesc d[6] = {TD(WNN_DTYPE_F32, 2, 1, 1),
                          TD(WNN_DTYPE_F32, 1, 3, 1),
                          TD(WNN_DTYPE_F32, 1, 3, 1),
                          TD(WNN_DTYPE_F32, 1, 6),
                          TD_OMITTED,
                          TD(WNN_DTYPE_F32, 1, 1, 1)};
  const float want[2] = {0.6025946560f, 0.0737531663f};
  CHECK(op_expect("GRU", NULL, 6, d, in, want, 2, 1e-6f));
  const float want_lbr[2] = {0.5924744061f, 0.0401519813f};
  CHECK(op_expect("GRU", "{\"linear_before_reset\":1}", 6, d, in, want_lbr, 2, 1e-6f));
  /* Zero weights, initial_h 1: z = 0.5, h~ = 0: H halves: 0.5, 0.25. */
  float zero[6] = {0};
  void *in0[6] = {x, zero, zero, zero, NULL, (float[]){1}};
  const float halves[2] = {0.5f, 0.25f};
  CHECK(op_expect("GRU", NULL, 6, d, in0, halves, 2, 0));
}

TEST(output_shapes) {
  wnn_tdesc in[8];
  op_case c;
  const int n = rnn_inputs(in, 4, 2, 1, true, true, true, true);
  CHECK_OK(op_prepare(&c, "LSTM", "{\"direction\":\"bidirectional\",\"layout\":1}", n, in, 3));
  CHECK(c.outputs[0].ndim == 4 && c.outputs[0].dims[0] == BATCH && c.outputs[0].dims[1] == SEQ &&
        c.outputs[0].dims[2] == 2 && c.outputs[0].dims[3] == HIDDEN);
  CHECK(c.outputs[2].ndim == 3 && c.outputs[2].dims[0] == BATCH && c.outputs[2].dims[1] == 2);
  rnn_inputs(in, 3, 1, 0, false, false, false, false);
  CHECK_OK(op_prepare(&c, "GRU", NULL, 3, in, 2));
  CHECK(c.outputs[0].dims[0] == SEQ && c.outputs[0].dims[1] == 1 && c.outputs[0].dims[2] == BATCH);
  CHECK(c.outputs[1].dims[0] == 1 && c.outputs[1].dims[1] == BATCH &&
        c.outputs[1].dims[2] == HIDDEN);
}

TEST(rejects) {
  wnn_tdesc in[8];
  int n = rnn_inputs(in, 4, 1, 0, true, true, true, true);
  CHECK(op_fails("LSTM", "{\"direction\":\"both\"}", n, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "direction 'both'"));
  CHECK(op_fails("LSTM", "{\"direction\":\"bidirectional\"}", n, in, 1, WNN_ERR_SHAPE,
                 "input 1 (W) has shape [1, 24, 4], expected [2, 24, 4]"));
  CHECK(op_fails("LSTM", "{\"hidden_size\":5}", n, in, 1, WNN_ERR_SHAPE, "input 1 (W)"));
  CHECK(op_fails("LSTM", "{\"layout\":2}", n, in, 1, WNN_ERR_BAD_ATTRIBUTE, "layout = 2"));
  CHECK(op_fails("LSTM", "{\"clip\":0}", n, in, 1, WNN_ERR_BAD_ATTRIBUTE, "clip = 0"));
  CHECK(op_fails("LSTM", "{\"input_forget\":2}", n, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "input_forget = 2"));
  CHECK(op_fails("LSTM", "{\"activations\":[\"Sigmoid\",\"Tanh\"]}", n, in, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "activations has 2 names, expected 3"));
  CHECK(op_fails("LSTM", "{\"activations\":[\"Sigmoid\",\"LeakyRelu\",\"Tanh\"]}", n, in, 1,
                 WNN_ERR_UNSUPPORTED, "activations[1] 'LeakyRelu'"));
  in[7] = TD(WNN_DTYPE_F32, 1, 4 * HIDDEN);
  CHECK(op_fails("LSTM", NULL, n, in, 1, WNN_ERR_SHAPE, "input 7 (P)"));
  n = rnn_inputs(in, 4, 1, 0, true, true, true, true);
  in[4] = TD(WNN_DTYPE_I32, BATCH);
  CHECK(op_fails("LSTM", NULL, n, in, 1, WNN_ERR_UNSUPPORTED,
                 "input 4 (sequence_lens) must be a constant"));
  const int32_t short_lens[BATCH] = {SEQ, SEQ - 1, SEQ};
  in[4].data = short_lens;
  CHECK(op_fails("LSTM", NULL, n, in, 1, WNN_ERR_UNSUPPORTED, "sequence_lens[1] = 4"));
  in[4] = TD_OMITTED;
  in[5] = TD(WNN_DTYPE_F32, 1, BATCH + 1, HIDDEN);
  CHECK(op_fails("LSTM", NULL, n, in, 1, WNN_ERR_SHAPE, "input 5 (initial_h)"));
  in[5] = TD_OMITTED, in[0] = TD(WNN_DTYPE_F32, SEQ, BATCH);
  CHECK(op_fails("LSTM", NULL, n, in, 1, WNN_ERR_SHAPE, "input 0 (X)"));
  in[0] = TD(WNN_DTYPE_F32, 0, BATCH, INPUT);
  CHECK(op_fails("LSTM", NULL, n, in, 1, WNN_ERR_SHAPE, "sequence length 0"));

  n = rnn_inputs(in, 3, 1, 0, true, true, false, false);
  CHECK(op_fails("GRU", "{\"linear_before_reset\":3}", n, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "linear_before_reset"));
  CHECK(op_fails("GRU", "{\"input_forget\":1}", n, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "unknown attribute 'input_forget'"));
  CHECK(op_fails("GRU", NULL, n, in, 3, WNN_ERR_MALFORMED, "3 outputs"));
  in[3] = TD(WNN_DTYPE_F32, 1, 3 * HIDDEN);
  CHECK(op_fails("GRU", NULL, n, in, 1, WNN_ERR_SHAPE, "input 3 (B)"));
  in[3] = TD_OMITTED, in[2] = TD(WNN_DTYPE_I64, 1, 3 * HIDDEN, HIDDEN);
  CHECK(op_fails("GRU", NULL, n, in, 1, WNN_ERR_DTYPE, "input 2 (R) is int64"));
}

int main(void) {
  RUN(lstm_vs_reference);
  RUN(gru_vs_reference);
  RUN(lstm_hand_computed);
  RUN(gru_hand_computed);
  RUN(output_shapes);
  RUN(rejects);
  return test_summary();
}
