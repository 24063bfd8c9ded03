/*
 * LSTM and GRU (ONNX opset 14), float32: inputs X, W, R, B, sequence_lens,
 * initial_h (and LSTM's initial_c and P); outputs Y, Y_h (and LSTM's Y_c),
 * each optional; directions forward, reverse and bidirectional; layout 0
 * (sequence first) and 1 (batch first); clip; LSTM input_forget; GRU
 * linear_before_reset; activations Sigmoid, Tanh and Relu in any position.
 *
 * sequence_lens, when given, must be a constant with every entry equal to the
 * sequence length (a padded batch is not supported).
 *
 * Gate orders are ONNX's: LSTM i, o, f, c; GRU z, r, h. Per direction, run
 * projects the whole sequence at once, XW = X * W^T + biases (one GEMM into
 * scratch), then per time step adds H_{t-1} * R^T (a GEMM of batch rows) and
 * applies the gate equations element-wise. Scratch: XW (seq * batch * G*H),
 * H and C (batch * H each), and for GRU the recurrent products (batch * G*H)
 * and r (.) H_{t-1} (batch * H).
 */
#include <math.h>
#include <string.h>


#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_rnn_params);

enum { IN_X, IN_W, IN_R, IN_B, IN_SEQ_LENS, IN_H0, IN_C0, IN_P };

/* Reads the activations attribute: `per_dir` names per direction. */
static wnn_status read_activations(wnn_prepare_ctx *ctx, const char *op, int per_dir,
                                   wnn_rnn_params *p) {
  static const int defaults[3] = {WNN_RNN_SIGMOID, WNN_RNN_TANH, WNN_RNN_TANH};
  for (int d = 0; d < 2; d++)
    for (int k = 0; k < 3; k++) p->act[d][k] = defaults[k];
  if (!wnn_attr_has(ctx, "activations")) return WNN_OK;
  const int count = wnn_attrs_list_size(ctx->attrs, "activations");
  if (count < 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: activations must be a list of strings", op);
  const int want = per_dir * p->directions;
  if (count != want)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: activations has %d names, expected %d (%d per direction)", op, count,
                       want, per_dir);
  for (int i = 0; i < count; i++) {
    const char *s;
    if (!wnn_attrs_list_string(ctx->attrs, "activations", i, &s))
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: activations[%d] is not a string", op, i);
    int a;
    if (strcmp(s, "Sigmoid") == 0)
      a = WNN_RNN_SIGMOID;
    else if (strcmp(s, "Tanh") == 0)
      a = WNN_RNN_TANH;
    else if (strcmp(s, "Relu") == 0)
      a = WNN_RNN_RELU;
    else
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: activations[%d] '%s' is not supported (Sigmoid, Tanh, Relu)", op, i,
                         s);
    p->act[i / per_dir][i % per_dir] = a;
  }
  return WNN_OK;
}

/* sequence_lens: absent, or constant with every entry equal to seq. */
static wnn_status check_seq_lens(wnn_prepare_ctx *ctx, const char *op, const wnn_rnn_params *p) {
  if (!(IN_SEQ_LENS < ctx->num_inputs && wnn_has_input(ctx, IN_SEQ_LENS))) return WNN_OK;
  const wnn_tdesc *t = &ctx->inputs[IN_SEQ_LENS];
  if (t->dtype != WNN_DTYPE_I32 && t->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 4 (sequence_lens) is %s, expected int32", op,
                       wnn_dtype_name(t->dtype));
  if (t->ndim != 1 || t->dims[0] != (int64_t)p->batch)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 4 (sequence_lens) must have shape [%zu]", op,
                       p->batch);
  if (!t->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 4 (sequence_lens) must be a constant equal to the sequence "
                       "length %zu",
                       op, p->seq);
  for (size_t b = 0; b < p->batch; b++) {
    const int64_t v =
        t->dtype == WNN_DTYPE_I32 ? ((const int32_t *)t->data)[b] : ((const int64_t *)t->data)[b];
    if (v != (int64_t)p->seq)
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: sequence_lens[%zu] = %lld, only sequences of the full length %zu "
                         "are supported",
                         op, b, (long long)v, p->seq);
  }
  return WNN_OK;
}

static wnn_status rnn_prepare(wnn_prepare_ctx *ctx, const char *op, int gates) {
  wnn_rnn_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[IN_X], *r = &ctx->inputs[IN_R];
  wnn_status st;
  p->gates = gates;

  const char *dir;
  if ((st = wnn_attr_string(ctx, "direction", "forward", &dir))) return st;
  if (strcmp(dir, "forward") == 0)
    p->directions = 1, p->reverse = false;
  else if (strcmp(dir, "reverse") == 0)
    p->directions = 1, p->reverse = true;
  else if (strcmp(dir, "bidirectional") == 0)
    p->directions = 2, p->reverse = false;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: direction '%s' is not forward, reverse or bidirectional", op, dir);
  int64_t layout, hidden;
  if ((st = wnn_attr_int(ctx, "layout", 0, &layout))) return st;
  if (layout != 0 && layout != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: layout = %lld, expected 0 or 1", op,
                       (long long)layout);
  p->layout = (int)layout;
  if ((st = read_activations(ctx, op, gates == 4 ? 3 : 2, p))) return st;
  float clip;
  if ((st = wnn_attr_float(ctx, "clip", INFINITY, &clip))) return st;
  if (!(clip > 0.0f))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: clip = %g, must be > 0", op, (double)clip);
  p->clip = clip;

  if ((st = wnn_expect_dtype(ctx, op, IN_X, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, op, IN_W, "W", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, op, IN_R, "R", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_ndim(ctx, op, IN_X, "X", 3))) return st;
  if ((st = wnn_expect_ndim(ctx, op, IN_R, "R", 3))) return st;
  const int64_t dirs = p->directions;
  /* hidden_size, when given, must agree with R: [directions, G*H, H]. */
  if ((st = wnn_attr_int(ctx, "hidden_size", r->dims[2], &hidden))) return st;
  if (hidden < 1 || hidden > INT32_MAX)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: hidden_size = %lld, must be >= 1", op,
                       (long long)hidden);
  p->seq = (size_t)x->dims[layout ? 1 : 0];
  p->batch = (size_t)x->dims[layout ? 0 : 1];
  p->input = (size_t)x->dims[2];
  p->hidden = (size_t)hidden;
  if (p->seq == 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (X) has sequence length 0", op);
  const int64_t gh = gates * hidden, batch = (int64_t)p->batch;
  const int64_t w_dims[3] = {dirs, gh, x->dims[2]}, r_dims[3] = {dirs, gh, hidden};
  const int64_t b_dims[2] = {dirs, 2 * gh}, p_dims[2] = {dirs, 3 * hidden};
  int64_t h_dims[3] = {dirs, batch, hidden};
  if (layout) h_dims[0] = batch, h_dims[1] = dirs;
  if ((st = wnn_nn_expect_f32_shape(ctx, op, IN_W, "W", 3, w_dims))) return st;
  if ((st = wnn_nn_expect_f32_shape(ctx, op, IN_R, "R", 3, r_dims))) return st;
  if ((st = wnn_nn_expect_f32_shape(ctx, op, IN_B, "B", 2, b_dims))) return st;
  if ((st = check_seq_lens(ctx, op, p))) return st;
  if ((st = wnn_nn_expect_f32_shape(ctx, op, IN_H0, "initial_h", 3, h_dims))) return st;
  if (gates == 4) {
    if ((st = wnn_nn_expect_f32_shape(ctx, op, IN_C0, "initial_c", 3, h_dims))) return st;
    if ((st = wnn_nn_expect_f32_shape(ctx, op, IN_P, "P", 2, p_dims))) return st;
  }

  int64_t y_dims[4] = {(int64_t)p->seq, dirs, batch, hidden};
  if (layout) y_dims[0] = batch, y_dims[1] = (int64_t)p->seq, y_dims[2] = dirs;
  if ((st = wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, 4, y_dims))) return st;
  for (int o = 1; o < ctx->num_outputs; o++)
    if ((st = wnn_set_output(ctx, op, o, WNN_DTYPE_F32, 3, h_dims))) return st;
  p->gemm = wnn_select_f32_gemm(ctx->kernels);

  /* XW, then H and C, then (GRU) recurrent products and r (.) H. */
  const int64_t xw =
      wnn_checked_numel(3, (const int64_t[]){(int64_t)p->seq, batch, gh}, sizeof(float));
  const int64_t state = wnn_checked_numel(3, (const int64_t[]){4, batch, gh}, sizeof(float));
  if (xw < 0 || state < 0 || (uint64_t)(xw + state) > SIZE_MAX / sizeof(float))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: scratch for the sequence is too large", op);
  ctx->scratch_bytes =
      (size_t)(xw + 2 * batch * hidden + batch * gh + batch * hidden) * sizeof(float);
  return WNN_OK;
}

static inline float clip_to(float v, float c) { return v > c ? c : v < -c ? -c : v; }

/* Row of X (and of XW) holding time step t of batch entry b. */
static inline size_t row_of(const wnn_rnn_params *p, size_t t, size_t b) {
  return wnn_rnn_x_row(p->layout, p->seq, p->batch, t, b);
}

/* Offset of (t, dir, b) in Y and of (dir, b) in Y_h / initial_h. */
static inline size_t y_offset(const wnn_rnn_params *p, size_t t, size_t dir, size_t b) {
  return wnn_rnn_y_offset(p->layout, p->seq, p->batch, (size_t)p->directions, p->hidden, t, dir, b);
}
static inline size_t h_offset(const wnn_rnn_params *p, size_t dir, size_t b) {
  return wnn_rnn_h_offset(p->layout, p->batch, (size_t)p->directions, p->hidden, dir, b);
}

/* XW = X * W_dir^T plus, for each gate column, the bias terms that go with it:
 * all of Wb + Rb (LSTM), or Wb for every gate and Rb for z and r (GRU). */
static void project_inputs(const wnn_rnn_params *p, const float *x, const float *w,
                           const float *bias, float *xw) {
  const size_t gh = (size_t)p->gates * p->hidden, rows = p->seq * p->batch;
  const wnn_f32_gemm_params gp = {.alpha = 1.0f, .beta = 0.0f, .min = -INFINITY, .max = INFINITY};
  wnn_f32_gemm(&p->gemm, rows, gh, p->input, x, p->input, 1, w, 1, p->input, NULL, xw, gh, &gp);
  if (!bias) return;
  const size_t rb_cols = p->gates == 4 ? gh : 2 * p->hidden;
  for (size_t r = 0; r < rows; r++) {
    float *row = xw + r * gh;
    for (size_t j = 0; j < gh; j++) row[j] += bias[j] + (j < rb_cols ? bias[gh + j] : 0.0f);
  }
}

/* Copies the initial state of direction dir (or zeros) into state. */
static void initial_state(const wnn_rnn_params *p, const float *init, size_t dir, float *state) {
  for (size_t b = 0; b < p->batch; b++) {
    float *s = state + b * p->hidden;
    if (init)
      memcpy(s, init + h_offset(p, dir, b), p->hidden * sizeof(float));
    else
      memset(s, 0, p->hidden * sizeof(float));
  }
}

static void store_state(const wnn_rnn_params *p, const float *state, size_t dir, float *out) {
  if (!out) return;
  for (size_t b = 0; b < p->batch; b++)
    memcpy(out + h_offset(p, dir, b), state + b * p->hidden, p->hidden * sizeof(float));
}

static const float *input_or_null(const wnn_run_ctx *ctx, int i) {
  return i < ctx->num_inputs ? ctx->inputs[i].data : NULL;
}
static float *output_or_null(const wnn_run_ctx *ctx, int i) {
  return i < ctx->num_outputs ? ctx->outputs[i].data : NULL;
}

/* ------------------------------------------------------------------ LSTM */

wnn_status wnn_lstm_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "LSTM";
  wnn_rnn_params *p = ctx->params;
  int64_t input_forget;
  wnn_status st = wnn_attr_int(ctx, "input_forget", 0, &input_forget);
  if (st) return st;
  if (input_forget != 0 && input_forget != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: input_forget = %lld, expected 0 or 1", OP,
                       (long long)input_forget);
  p->input_forget = input_forget == 1;
  return rnn_prepare(ctx, OP, 4);
}

wnn_status wnn_lstm_run(const wnn_run_ctx *ctx) {
  const wnn_rnn_params *p = ctx->params;
  if (p->batch == 0) return WNN_OK; /* empty outputs, no scratch */
  const size_t H = p->hidden, gh = 4 * H, batch = p->batch;
  const float *x = ctx->inputs[IN_X].data, *w = ctx->inputs[IN_W].data;
  const float *r = ctx->inputs[IN_R].data, *bias = input_or_null(ctx, IN_B);
  const float *h0 = input_or_null(ctx, IN_H0), *c0 = input_or_null(ctx, IN_C0);
  const float *peep = input_or_null(ctx, IN_P);
  float *y = output_or_null(ctx, 0), *y_h = output_or_null(ctx, 1), *y_c = output_or_null(ctx, 2);
  float *xw = ctx->scratch;
  float *h = xw + p->seq * batch * gh, *c = h + batch * H;
  const wnn_f32_gemm_params gp = {.alpha = 1.0f, .beta = 1.0f, .min = -INFINITY, .max = INFINITY};
  /* Rows of XW for one time step: consecutive (layout 0) or seq apart. */
  const size_t step_rs = p->layout ? p->seq * gh : gh;

  for (size_t dir = 0; dir < (size_t)p->directions; dir++) {
    const int *act = p->act[dir];
    const float *rd = r + dir * gh * H;
    const float *pd = peep ? peep + dir * 3 * H : NULL;
    project_inputs(p, x, w + dir * gh * p->input, bias ? bias + dir * 2 * gh : NULL, xw);
    initial_state(p, h0, dir, h);
    initial_state(p, c0, dir, c);
    const bool backward = p->reverse || dir == 1;
    for (size_t s = 0; s < p->seq; s++) {
      const size_t t = backward ? p->seq - 1 - s : s;
      float *g = xw + row_of(p, t, 0) * gh;
      wnn_f32_gemm(&p->gemm, batch, gh, H, h, H, 1, rd, 1, H, NULL, g, step_rs, &gp);
      for (size_t b = 0; b < batch; b++) {
        const float *gb = g + b * step_rs;
        float *hb = h + b * H, *cb = c + b * H;
        for (size_t j = 0; j < H; j++) {
          const float c_prev = cb[j];
          float gi = gb[j], go = gb[H + j], gf = gb[2 * H + j], gc = gb[3 * H + j];
          if (pd) gi += pd[j] * c_prev, gf += pd[2 * H + j] * c_prev;
          const float i = wnn_rnn_activate(act[0], clip_to(gi, p->clip));
          const float f =
              p->input_forget ? 1.0f - i : wnn_rnn_activate(act[0], clip_to(gf, p->clip));
          const float cand = wnn_rnn_activate(act[1], clip_to(gc, p->clip));
          const float cn = f * c_prev + i * cand;
          if (pd) go += pd[H + j] * cn;
          const float o = wnn_rnn_activate(act[0], clip_to(go, p->clip));
          cb[j] = cn;
          hb[j] = o * wnn_rnn_activate(act[2], cn);
        }
        if (y) memcpy(y + y_offset(p, t, dir, b), hb, H * sizeof(float));
      }
    }
    store_state(p, h, dir, y_h);
    store_state(p, c, dir, y_c);
  }
  return WNN_OK;
}

/* ------------------------------------------------------------------- GRU */

wnn_status wnn_gru_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "GRU";
  wnn_rnn_params *p = ctx->params;
  wnn_status st = wnn_attr_bool(ctx, OP, "linear_before_reset", &p->linear_before_reset);
  if (st) return st;
  return rnn_prepare(ctx, OP, 3);
}

wnn_status wnn_gru_run(const wnn_run_ctx *ctx) {
  const wnn_rnn_params *p = ctx->params;
  if (p->batch == 0) return WNN_OK; /* empty outputs, no scratch */
  const size_t H = p->hidden, gh = 3 * H, batch = p->batch;
  const float *x = ctx->inputs[IN_X].data, *w = ctx->inputs[IN_W].data;
  const float *r = ctx->inputs[IN_R].data, *bias = input_or_null(ctx, IN_B);
  const float *h0 = input_or_null(ctx, IN_H0);
  float *y = output_or_null(ctx, 0), *y_h = output_or_null(ctx, 1);
  float *xw = ctx->scratch;
  float *h = xw + p->seq * batch * gh;
  float *hr = h + 2 * batch * H; /* H_{t-1} * R^T: batch x 3H */
  float *rh = hr + batch * gh;   /* r (.) H_{t-1}: batch x H */
  const wnn_f32_gemm_params gp = {.alpha = 1.0f, .beta = 0.0f, .min = -INFINITY, .max = INFINITY};
  const size_t step_rs = p->layout ? p->seq * gh : gh;

  for (size_t dir = 0; dir < (size_t)p->directions; dir++) {
    const int *act = p->act[dir];
    const float *rd = r + dir * gh * H;
    const float *rbh = bias ? bias + dir * 2 * gh + gh + 2 * H : NULL; /* Rb of gate h */
    project_inputs(p, x, w + dir * gh * p->input, bias ? bias + dir * 2 * gh : NULL, xw);
    initial_state(p, h0, dir, h);
    const bool backward = p->reverse || dir == 1;
    for (size_t s = 0; s < p->seq; s++) {
      const size_t t = backward ? p->seq - 1 - s : s;
      const float *g = xw + row_of(p, t, 0) * gh;
      /* With linear_before_reset, all three recurrent products at once;
       * otherwise z and r now, h once r is known. */
      wnn_f32_gemm(&p->gemm, batch, p->linear_before_reset ? gh : 2 * H, H, h, H, 1, rd, 1, H,
                   NULL, hr, gh, &gp);
      for (size_t b = 0; b < batch; b++) {
        const float *gb = g + b * step_rs, *hb = h + b * H;
        float *hrb = hr + b * gh, *rhb = rh + b * H;
        for (size_t j = 0; j < H; j++) {
          hrb[j] = wnn_rnn_activate(act[0], clip_to(gb[j] + hrb[j], p->clip)); /* z */
          const float rg = wnn_rnn_activate(act[0], clip_to(gb[H + j] + hrb[H + j], p->clip));
          if (p->linear_before_reset)
            hrb[H + j] = rg;
          else
            rhb[j] = rg * hb[j];
        }
      }
      if (!p->linear_before_reset)
        wnn_f32_gemm(&p->gemm, batch, H, H, rh, H, 1, rd + 2 * H * H, 1, H, NULL, hr + 2 * H,
                     gh, &gp);
      for (size_t b = 0; b < batch; b++) {
        const float *gb = g + b * step_rs, *hrb = hr + b * gh;
        float *hb = h + b * H;
        for (size_t j = 0; j < H; j++) {
          const float rbias = rbh ? rbh[j] : 0.0f;
          const float rec = p->linear_before_reset ? hrb[H + j] * (hrb[2 * H + j] + rbias)
                                                   : hrb[2 * H + j] + rbias;
          const float cand = wnn_rnn_activate(act[1], clip_to(gb[2 * H + j] + rec, p->clip));
          const float z = hrb[j];
          hb[j] = (1.0f - z) * cand + z * hb[j];
        }
        if (y) memcpy(y + y_offset(p, t, dir, b), hb, H * sizeof(float));
      }
    }
    store_state(p, h, dir, y_h);
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

/* activation_alpha and activation_beta are accepted and unused: the
 * supported activations (Sigmoid, Tanh, Relu) take no parameters. */
WNN_OP_DEFINE(lstm, "LSTM", 0, 3, 8, 1, 3,
              WNN_ATTRS("activation_alpha", "activation_beta", "activations", "clip", "direction",
                        "hidden_size", "input_forget", "layout"));
WNN_OP_DEFINE(gru, "GRU", 0, 3, 6, 1, 2,
              WNN_ATTRS("activation_alpha", "activation_beta", "activations", "clip", "direction",
                        "hidden_size", "layout", "linear_before_reset"));
