/*
 * RNN (ONNX opset 14), the simple recurrent unit, float32:
 *   H_t = f(X_t * W^T + H_{t-1} * R^T + Wb + Rb)
 * inputs X, W [dirs, H, input], R [dirs, H, H], B? [dirs, 2H],
 * sequence_lens? [batch] (int32 or int64, read at run time), initial_h?;
 * outputs Y? and Y_h? (each may be asked for or not); directions forward,
 * reverse, bidirectional; layout 0 and 1; clip; activations Tanh (default),
 * Sigmoid, Relu (activation_alpha / activation_beta are accepted and unused:
 * these take no parameters).
 *
 * A batch entry with sequence length L < seq runs L steps (backwards from
 * L - 1 in reverse); Y is 0 at its later steps and Y_h holds its last state.
 * A length outside [0, seq] fails the run with WNN_ERR_OUT_OF_RANGE.
 *
 * A plain loop per step (no GEMM): RNN is rare and small in models.
 */
#include <math.h>
#include <string.h>


#include "ops/nn_internal.h"

WNN_PARAMS_FIT(wnn_simple_rnn_params);

enum { IN_X, IN_W, IN_R, IN_B, IN_LENS, IN_H0 };

static wnn_status read_activations(wnn_prepare_ctx *ctx, const char *op,
                                   wnn_simple_rnn_params *p) {
  p->act[0] = p->act[1] = WNN_RNN_TANH;
  if (!wnn_attr_has(ctx, "activations")) return WNN_OK;
  if (wnn_attrs_list_size(ctx->attrs, "activations") != p->directions)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: activations must be a list of %d names (one per direction)", op,
                       p->directions);
  for (int i = 0; i < p->directions; i++) {
    const char *s;
    if (!wnn_attrs_list_string(ctx->attrs, "activations", i, &s)) s = "";
    if (strcmp(s, "Tanh") == 0) p->act[i] = WNN_RNN_TANH;
    else if (strcmp(s, "Sigmoid") == 0) p->act[i] = WNN_RNN_SIGMOID;
    else if (strcmp(s, "Relu") == 0) p->act[i] = WNN_RNN_RELU;
    else
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: activations[%d] '%s' is not supported (Tanh, Sigmoid, Relu)", op, i,
                         s);
  }
  return WNN_OK;
}

wnn_status wnn_rnn_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "RNN";
  wnn_simple_rnn_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[IN_X], *r = &ctx->inputs[IN_R];
  wnn_status st;
  const char *dir;
  if ((st = wnn_attr_string(ctx, "direction", "forward", &dir))) return st;
  if (strcmp(dir, "forward") == 0) p->directions = 1, p->reverse = false;
  else if (strcmp(dir, "reverse") == 0) p->directions = 1, p->reverse = true;
  else if (strcmp(dir, "bidirectional") == 0) p->directions = 2, p->reverse = false;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: direction '%s' is not forward, reverse or bidirectional", OP, dir);
  int64_t layout, hidden;
  if ((st = wnn_attr_int(ctx, "layout", 0, &layout))) return st;
  if (layout != 0 && layout != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: layout = %lld, expected 0 or 1", OP,
                       (long long)layout);
  p->layout = (int)layout;
  if ((st = read_activations(ctx, OP, p))) return st;
  if ((st = wnn_attr_float(ctx, "clip", INFINITY, &p->clip))) return st;
  if (!(p->clip > 0.0f))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: clip = %g, must be > 0", OP,
                       (double)p->clip);
  if ((st = wnn_expect_dtype(ctx, OP, IN_X, "X", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_dtype(ctx, OP, IN_R, "R", WNN_DTYPE_F32))) return st;
  if ((st = wnn_expect_ndim(ctx, OP, IN_X, "X", 3))) return st;
  if ((st = wnn_expect_ndim(ctx, OP, IN_R, "R", 3))) return st;
  if ((st = wnn_attr_int(ctx, "hidden_size", r->dims[2], &hidden))) return st;
  if (hidden < 1 || hidden > INT32_MAX)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: hidden_size = %lld, must be >= 1", OP,
                       (long long)hidden);
  p->seq = (size_t)x->dims[layout ? 1 : 0];
  p->batch = (size_t)x->dims[layout ? 0 : 1];
  p->input = (size_t)x->dims[2];
  p->hidden = (size_t)hidden;
  const int64_t dirs = p->directions, batch = (int64_t)p->batch;
  const int64_t w_dims[3] = {dirs, hidden, x->dims[2]}, r_dims[3] = {dirs, hidden, hidden};
  const int64_t b_dims[2] = {dirs, 2 * hidden};
  int64_t h_dims[3] = {dirs, batch, hidden};
  if (layout) h_dims[0] = batch, h_dims[1] = dirs;
  if ((st = wnn_nn_expect_f32_shape(ctx, OP, IN_W, "W", 3, w_dims))) return st;
  if ((st = wnn_nn_expect_f32_shape(ctx, OP, IN_R, "R", 3, r_dims))) return st;
  if ((st = wnn_nn_expect_f32_shape(ctx, OP, IN_B, "B", 2, b_dims))) return st;
  if ((st = wnn_nn_expect_f32_shape(ctx, OP, IN_H0, "initial_h", 3, h_dims))) return st;
  p->lens_dtype = WNN_DTYPE_INVALID;
  if (IN_LENS < ctx->num_inputs && wnn_has_input(ctx, IN_LENS)) {
    const wnn_tdesc *l = &ctx->inputs[IN_LENS];
    if (l->dtype != WNN_DTYPE_I32 && l->dtype != WNN_DTYPE_I64)
      return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                         "%s: input 4 (sequence_lens) is %s, expected int32 or int64", OP,
                         wnn_dtype_name(l->dtype));
    if (l->ndim != 1 || l->dims[0] != batch)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 4 (sequence_lens) must have shape [%lld]",
                         OP, (long long)batch);
    p->lens_dtype = l->dtype;
  }
  int64_t y_dims[4] = {(int64_t)p->seq, dirs, batch, hidden};
  if (layout) y_dims[0] = batch, y_dims[1] = (int64_t)p->seq, y_dims[2] = dirs;
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, 4, y_dims))) return st;
  if (ctx->num_outputs > 1 && (st = wnn_set_output(ctx, OP, 1, WNN_DTYPE_F32, 3, h_dims)))
    return st;
  if (wnn_checked_numel(2, (const int64_t[]){2 * batch, hidden}, sizeof(float)) < 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: the state is too large", OP);
  ctx->scratch_bytes = 2 * p->batch * p->hidden * sizeof(float);
  return WNN_OK;
}

static inline size_t x_row(const wnn_simple_rnn_params *p, size_t t, size_t b) {
  return wnn_rnn_x_row(p->layout, p->seq, p->batch, t, b);
}
static inline size_t y_at(const wnn_simple_rnn_params *p, size_t t, size_t d, size_t b) {
  return wnn_rnn_y_offset(p->layout, p->seq, p->batch, (size_t)p->directions, p->hidden, t, d, b);
}
static inline size_t h_at(const wnn_simple_rnn_params *p, size_t d, size_t b) {
  return wnn_rnn_h_offset(p->layout, p->batch, (size_t)p->directions, p->hidden, d, b);
}

wnn_status wnn_rnn_run(const wnn_run_ctx *ctx) {
  const wnn_simple_rnn_params *p = ctx->params;
  const float *x = ctx->inputs[IN_X].data, *w = ctx->inputs[IN_W].data;
  const float *r = ctx->inputs[IN_R].data;
  const float *bias = IN_B < ctx->num_inputs ? ctx->inputs[IN_B].data : NULL;
  const void *lens = IN_LENS < ctx->num_inputs ? ctx->inputs[IN_LENS].data : NULL;
  const float *h0 = IN_H0 < ctx->num_inputs ? ctx->inputs[IN_H0].data : NULL;
  float *y = ctx->outputs[0].data;
  float *yh = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  const size_t H = p->hidden, I = p->input;
  float *h = ctx->scratch, *hn = h + p->batch * H;
  for (size_t b = 0; lens && b < p->batch; b++) {
    const int64_t v = p->lens_dtype == WNN_DTYPE_I32 ? ((const int32_t *)lens)[b]
                                                     : ((const int64_t *)lens)[b];
    if (v < 0 || (uint64_t)v > p->seq)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                          "RNN: sequence_lens[%zu] is %lld, outside [0, %zu]", b, (long long)v,
                          p->seq);
  }
  for (size_t d = 0; d < (size_t)p->directions; d++) {
    const bool back = p->reverse || d == 1;
    const float *wd = w + d * H * I, *rd = r + d * H * H;
    const float *wb = bias ? bias + d * 2 * H : NULL, *rb = wb ? wb + H : NULL;
    for (size_t b = 0; b < p->batch; b++) {
      if (h0) memcpy(h + b * H, h0 + h_at(p, d, b), H * sizeof(float));
      else memset(h + b * H, 0, H * sizeof(float));
    }
    for (size_t s = 0; s < p->seq; s++)
      for (size_t b = 0; b < p->batch; b++) {
        const size_t len = !lens ? p->seq
                           : p->lens_dtype == WNN_DTYPE_I32 ? (size_t)((const int32_t *)lens)[b]
                                                            : (size_t)((const int64_t *)lens)[b];
        if (s >= len) { /* past this entry's end: Y is 0, the state stays */
          if (y) memset(y + y_at(p, s, d, b), 0, H * sizeof(float));
          continue;
        }
        const size_t t = back ? len - 1 - s : s;
        const float *xt = x + x_row(p, t, b) * I, *hb = h + b * H;
        for (size_t j = 0; j < H; j++) {
          float acc = wb ? wb[j] + rb[j] : 0.0f;
          for (size_t i = 0; i < I; i++) acc += xt[i] * wd[j * I + i];
          for (size_t k = 0; k < H; k++) acc += hb[k] * rd[j * H + k];
          acc = acc > p->clip ? p->clip : acc < -p->clip ? -p->clip : acc;
          hn[b * H + j] = wnn_rnn_activate(p->act[d], acc);
        }
        memcpy(h + b * H, hn + b * H, H * sizeof(float));
        if (y) memcpy(y + y_at(p, t, d, b), h + b * H, H * sizeof(float));
      }
    for (size_t b = 0; yh && b < p->batch; b++)
      memcpy(yh + h_at(p, d, b), h + b * H, H * sizeof(float));
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(rnn, "RNN", 0, 3, 6, 1, 2,
              WNN_ATTRS("activation_alpha", "activation_beta", "activations", "clip", "direction",
                        "hidden_size", "layout"));
