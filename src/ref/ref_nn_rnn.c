/* Reference LSTM and GRU: the ONNX equations per time step, batch entry and
 * hidden unit, with double dot products and explicit tensor indexing (no
 * GEMM, no scratch). Gate orders: LSTM i, o, f, c; GRU z, r, h. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/nn_internal.h"

#define REF_MAX_HIDDEN 256

static double act(int a, double v) {
  switch (a) {
    case WNN_RNN_TANH:
      return tanh(v);
    case WNN_RNN_RELU:
      return v > 0 ? v : 0;
    default:
      return 1.0 / (1.0 + exp(-v));
  }
}

static double clipped(const wnn_rnn_params *p, double v) {
  const double c = p->clip;
  return v > c ? c : v < -c ? -c : v;
}

/* X[t][b][k] in either layout. */
static float x_at(const wnn_rnn_params *p, const float *x, size_t t, size_t b, size_t k) {
  return p->layout ? x[(b * p->seq + t) * p->input + k] : x[(t * p->batch + b) * p->input + k];
}

/* Index of state (dir, b, j) in initial_h / Y_h, and of (t, dir, b, j) in Y. */
static size_t state_at(const wnn_rnn_params *p, size_t dir, size_t b, size_t j) {
  const size_t nd = (size_t)p->directions;
  return (p->layout ? b * nd + dir : dir * p->batch + b) * p->hidden + j;
}
static size_t y_at(const wnn_rnn_params *p, size_t t, size_t dir, size_t b, size_t j) {
  const size_t nd = (size_t)p->directions;
  return (p->layout ? (b * p->seq + t) * nd + dir : (t * nd + dir) * p->batch + b) * p->hidden + j;
}

/* Gate g's pre-activation for unit j: x_t * W_g^T + h * R_g^T + Wb_g + Rb_g,
 * where the R part uses hvec (H_{t-1}, or r (.) H_{t-1} for GRU's h gate
 * without linear_before_reset) and include_r selects whether it is added. */
static double input_part(const wnn_rnn_params *p, const float *x, const float *w, const float *bias,
                         size_t dir, size_t g, size_t j, size_t t, size_t b) {
  const size_t gh = (size_t)p->gates * p->hidden, row = dir * gh + g * p->hidden + j;
  double v = bias ? bias[dir * 2 * gh + g * p->hidden + j] : 0.0;
  for (size_t k = 0; k < p->input; k++) v += (double)x_at(p, x, t, b, k) * w[row * p->input + k];
  return v;
}
static double recurrent_part(const wnn_rnn_params *p, const float *r, const float *bias, size_t dir,
                             size_t g, size_t j, const double *hvec) {
  const size_t gh = (size_t)p->gates * p->hidden, row = dir * gh + g * p->hidden + j;
  double v = bias ? bias[dir * 2 * gh + gh + g * p->hidden + j] : 0.0;
  for (size_t k = 0; k < p->hidden; k++) v += hvec[k] * r[row * p->hidden + k];
  return v;
}

static wnn_status too_big(const wnn_run_ctx *ctx, const wnn_rnn_params *p) {
  return wnn_run_fail(ctx, WNN_ERR_UNSUPPORTED, "reference recurrent op: hidden size %zu > %d",
                      p->hidden, REF_MAX_HIDDEN);
}

static const float *in_or_null(const wnn_run_ctx *ctx, int i) {
  return i < ctx->num_inputs ? ctx->inputs[i].data : NULL;
}
static float *out_or_null(const wnn_run_ctx *ctx, int i) {
  return i < ctx->num_outputs ? ctx->outputs[i].data : NULL;
}

wnn_status wnn_ref_lstm(const wnn_run_ctx *ctx) {
  const wnn_rnn_params *p = ctx->params;
  if (p->hidden > REF_MAX_HIDDEN) return too_big(ctx, p);
  const float *x = ctx->inputs[0].data, *w = ctx->inputs[1].data, *r = ctx->inputs[2].data;
  const float *bias = in_or_null(ctx, 3), *h0 = in_or_null(ctx, 5), *c0 = in_or_null(ctx, 6);
  const float *peep = in_or_null(ctx, 7);
  float *y = out_or_null(ctx, 0), *y_h = out_or_null(ctx, 1), *y_c = out_or_null(ctx, 2);
  const size_t H = p->hidden;
  for (size_t dir = 0; dir < (size_t)p->directions; dir++) {
    const int *a = p->act[dir];
    double h[REF_MAX_HIDDEN], c[REF_MAX_HIDDEN], hn[REF_MAX_HIDDEN];
    for (size_t b = 0; b < p->batch; b++) {
      for (size_t j = 0; j < H; j++) {
        h[j] = h0 ? h0[state_at(p, dir, b, j)] : 0.0;
        c[j] = c0 ? c0[state_at(p, dir, b, j)] : 0.0;
      }
      for (size_t s = 0; s < p->seq; s++) {
        const size_t t = (p->reverse || dir == 1) ? p->seq - 1 - s : s;
        for (size_t j = 0; j < H; j++) {
          double gi =
              input_part(p, x, w, bias, dir, 0, j, t, b) + recurrent_part(p, r, bias, dir, 0, j, h);
          double go =
              input_part(p, x, w, bias, dir, 1, j, t, b) + recurrent_part(p, r, bias, dir, 1, j, h);
          double gf =
              input_part(p, x, w, bias, dir, 2, j, t, b) + recurrent_part(p, r, bias, dir, 2, j, h);
          const double gc =
              input_part(p, x, w, bias, dir, 3, j, t, b) + recurrent_part(p, r, bias, dir, 3, j, h);
          const float *pd = peep ? peep + dir * 3 * H : NULL;
          if (pd) gi += pd[j] * c[j], gf += pd[2 * H + j] * c[j];
          const double i = act(a[0], clipped(p, gi));
          const double f = p->input_forget ? 1.0 - i : act(a[0], clipped(p, gf));
          const double cn = f * c[j] + i * act(a[1], clipped(p, gc));
          if (pd) go += pd[H + j] * cn;
          const double o = act(a[0], clipped(p, go));
          c[j] = cn; /* c[j] is read only by unit j */
          hn[j] = o * act(a[2], cn);
        }
        memcpy(h, hn, H * sizeof h[0]);
        if (y)
          for (size_t j = 0; j < H; j++) y[y_at(p, t, dir, b, j)] = (float)h[j];
      }
      for (size_t j = 0; j < H; j++) {
        if (y_h) y_h[state_at(p, dir, b, j)] = (float)h[j];
        if (y_c) y_c[state_at(p, dir, b, j)] = (float)c[j];
      }
    }
  }
  return WNN_OK;
}

wnn_status wnn_ref_gru(const wnn_run_ctx *ctx) {
  const wnn_rnn_params *p = ctx->params;
  if (p->hidden > REF_MAX_HIDDEN) return too_big(ctx, p);
  const float *x = ctx->inputs[0].data, *w = ctx->inputs[1].data, *r = ctx->inputs[2].data;
  const float *bias = in_or_null(ctx, 3), *h0 = in_or_null(ctx, 5);
  float *y = out_or_null(ctx, 0), *y_h = out_or_null(ctx, 1);
  const size_t H = p->hidden;
  for (size_t dir = 0; dir < (size_t)p->directions; dir++) {
    const int *a = p->act[dir];
    double h[REF_MAX_HIDDEN], hn[REF_MAX_HIDDEN], rh[REF_MAX_HIDDEN], z[REF_MAX_HIDDEN],
        rg[REF_MAX_HIDDEN];
    for (size_t b = 0; b < p->batch; b++) {
      for (size_t j = 0; j < H; j++) h[j] = h0 ? h0[state_at(p, dir, b, j)] : 0.0;
      for (size_t s = 0; s < p->seq; s++) {
        const size_t t = (p->reverse || dir == 1) ? p->seq - 1 - s : s;
        for (size_t j = 0; j < H; j++) {
          z[j] = act(a[0], clipped(p, input_part(p, x, w, bias, dir, 0, j, t, b) +
                                          recurrent_part(p, r, bias, dir, 0, j, h)));
          rg[j] = act(a[0], clipped(p, input_part(p, x, w, bias, dir, 1, j, t, b) +
                                           recurrent_part(p, r, bias, dir, 1, j, h)));
          rh[j] = rg[j] * h[j];
        }
        for (size_t j = 0; j < H; j++) {
          const double xin = input_part(p, x, w, bias, dir, 2, j, t, b);
          const double rec = p->linear_before_reset
                                 ? rg[j] * recurrent_part(p, r, bias, dir, 2, j, h)
                                 : recurrent_part(p, r, bias, dir, 2, j, rh);
          const double cand = act(a[1], clipped(p, xin + rec));
          hn[j] = (1.0 - z[j]) * cand + z[j] * h[j];
        }
        memcpy(h, hn, H * sizeof h[0]);
        if (y)
          for (size_t j = 0; j < H; j++) y[y_at(p, t, dir, b, j)] = (float)h[j];
      }
      if (y_h)
        for (size_t j = 0; j < H; j++) y_h[state_at(p, dir, b, j)] = (float)h[j];
    }
  }
  return WNN_OK;
}
#endif /* WNN_WITH_REFERENCE */
