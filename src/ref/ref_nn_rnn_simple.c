/* Reference RNN (src/ops/nn_rnn_simple.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* ------------------------------------------------------------------- RNN */

static double rnn_act(int act, double v) {
  switch (act) {
    case 1: return tanh(v);                       /* WNN_RNN_TANH */
    case 2: return v > 0.0 ? v : 0.0;             /* WNN_RNN_RELU */
    default: return 1.0 / (1.0 + exp(-v));        /* WNN_RNN_SIGMOID */
  }
}

wnn_status wnn_ref_rnn(const wnn_run_ctx *ctx) {
  const wnn_simple_rnn_params *p = ctx->params;
  const wnn_tensor *X = &ctx->inputs[0];
  const float *x = X->data, *w = ctx->inputs[1].data, *r = ctx->inputs[2].data;
  const float *bias = ctx->num_inputs > 3 ? ctx->inputs[3].data : NULL;
  const void *lens = ctx->num_inputs > 4 ? ctx->inputs[4].data : NULL;
  const float *h0 = ctx->num_inputs > 5 ? ctx->inputs[5].data : NULL;
  float *y = ctx->outputs[0].data, *yh = ctx->num_outputs > 1 ? ctx->outputs[1].data : NULL;
  const int64_t S = (int64_t)p->seq, B = (int64_t)p->batch, H = (int64_t)p->hidden;
  const int64_t I = (int64_t)p->input, D = p->directions;
  const int64_t ydims[4] = {p->layout ? B : S, p->layout ? S : D, p->layout ? D : B, H};
  const int64_t hdims[3] = {p->layout ? B : D, p->layout ? D : B, H};
  double h[2 * 64];
  if (H > 64) return wnn_run_fail(ctx, WNN_ERR_UNSUPPORTED, "reference RNN: hidden > 64");
  for (int64_t d = 0; d < D; d++)
    for (int64_t b = 0; b < B; b++) {
      int64_t len = S;
      if (lens) len = p->lens_dtype == WNN_DTYPE_I32 ? ((const int32_t *)lens)[b]
                                                     : ((const int64_t *)lens)[b];
      if (len < 0 || len > S) return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "sequence_lens");
      for (int64_t j = 0; j < H; j++) {
        const int64_t hi[3] = {p->layout ? b : d, p->layout ? d : b, j};
        h[j] = h0 ? h0[wnn_ref_ravel(3, hdims, hi)] : 0.0;
      }
      for (int64_t t = 0; t < S; t++) { /* Y is 0 past the length */
        for (int64_t j = 0; j < H; j++) {
          const int64_t yi[4] = {p->layout ? b : t, p->layout ? t : d, p->layout ? d : b, j};
          y[wnn_ref_ravel(4, ydims, yi)] = 0.0f;
        }
      }
      for (int64_t k = 0; k < len; k++) {
        const int64_t t = (p->reverse || d == 1) ? len - 1 - k : k;
        for (int64_t j = 0; j < H; j++) {
          double acc = bias ? (double)bias[d * 2 * H + j] + bias[d * 2 * H + H + j] : 0.0;
          for (int64_t i = 0; i < I; i++) {
            const int64_t xi[3] = {p->layout ? b : t, p->layout ? t : b, i};
            acc += (double)x[wnn_ref_ravel(3, X->dims, xi)] * w[(d * H + j) * I + i];
          }
          for (int64_t k2 = 0; k2 < H; k2++) acc += h[k2] * r[(d * H + j) * H + k2];
          if (acc > p->clip) acc = p->clip;
          if (acc < -p->clip) acc = -p->clip;
          h[H + j] = rnn_act(p->act[d], acc);
        }
        for (int64_t j = 0; j < H; j++) {
          h[j] = h[H + j];
          const int64_t yi[4] = {p->layout ? b : t, p->layout ? t : d, p->layout ? d : b, j};
          y[wnn_ref_ravel(4, ydims, yi)] = (float)h[j];
        }
      }
      for (int64_t j = 0; yh && j < H; j++) {
        const int64_t hi[3] = {p->layout ? b : d, p->layout ? d : b, j};
        yh[wnn_ref_ravel(3, hdims, hi)] = (float)h[j];
      }
    }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
