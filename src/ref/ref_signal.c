/* Reference signal ops: windows, DFT, STFT, MelWeightMatrix (src/ops/signal.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/signal_internal.h"
#include "ref/ref.h"

/* ------------------------------------------------------ window functions */

/* The generalized cosine window, from its sum form: sum_j (-1)^j a_j cos(2 pi j k / N). */
static wnn_status ref_window(const wnn_run_ctx *ctx) {
  const wnn_window_params *p = ctx->params;
  const double a[3] = {p->a0, p->a1, p->a2};
  const double len = p->periodic ? (double)p->n : (double)p->n - 1.0;
  for (size_t k = 0; k < p->n; k++) {
    double w = 0.0;
    for (int j = 0; j < 3; j++) {
      const double pi = 3.14159265358979323846;
      const double ang = len > 0.0 ? 2.0 * pi * (double)j * (double)k / len : 0.0;
      w += (j % 2 ? -a[j] : a[j]) * cos(ang);
    }
    ((float *)ctx->outputs[0].data)[k] = (float)w;
  }
  return WNN_OK;
}
wnn_status wnn_ref_hannwindow(const wnn_run_ctx *ctx) { return ref_window(ctx); }
wnn_status wnn_ref_hammingwindow(const wnn_run_ctx *ctx) { return ref_window(ctx); }
wnn_status wnn_ref_blackmanwindow(const wnn_run_ctx *ctx) { return ref_window(ctx); }

/* ------------------------------------------------------------ DFT, STFT */

/* X[k] = sum_n x[n] exp(-+ i 2 pi k n / N), from the definition (angle not
 * reduced), with x[n] = 0 beyond the input; in double. */
static void ref_dft_line(const float *x, size_t xs, size_t c, size_t n, float *y, size_t ys,
                         size_t m, size_t len, bool inverse, const float *w) {
  const double pi = 3.14159265358979323846;
  for (size_t k = 0; k < m; k++) {
    double re = 0.0, im = 0.0;
    for (size_t j = 0; j < len; j++) {
      if (j >= n) break;
      const double ang = (inverse ? 2.0 : -2.0) * pi * (double)k * (double)j / (double)len;
      const double a = x[j * xs] * (w ? w[j] : 1.0),
                   b = c == 2 ? x[j * xs + 1] * (w ? w[j] : 1.0) : 0.0;
      re += a * cos(ang) - b * sin(ang);
      im += a * sin(ang) + b * cos(ang);
    }
    if (inverse) re /= (double)len, im /= (double)len;
    y[k * ys] = (float)re;
    y[k * ys + 1] = (float)im;
  }
}

wnn_status wnn_ref_dft(const wnn_run_ctx *ctx) {
  const wnn_dft_params *p = ctx->params;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++)
      ref_dft_line((const float *)ctx->inputs[0].data + (o * p->n_in * p->inner + i) * p->c_in,
                   p->inner * p->c_in, p->c_in, p->n_in,
                   (float *)ctx->outputs[0].data + (o * p->n_out * p->inner + i) * 2,
                   p->inner * 2, p->n_out, p->len, p->inverse, NULL);
  return WNN_OK;
}

wnn_status wnn_ref_stft(const wnn_run_ctx *ctx) {
  const wnn_stft_params *p = ctx->params;
  const float *w = ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  for (size_t b = 0; b < p->batch; b++)
    for (size_t f = 0; f < p->frames; f++)
      ref_dft_line((const float *)ctx->inputs[0].data + (b * p->length + f * p->step) * p->c_in,
                   p->c_in, p->c_in, p->flen,
                   (float *)ctx->outputs[0].data + (b * p->frames + f) * p->bins * 2, 2, p->bins,
                   p->flen, false, w);
  return WNN_OK;
}

/* ------------------------------------------------------- MelWeightMatrix */

/* Per output element: which filter (column) and bin (row), the filter's
 * three points, and the triangle's value there (the rising edge first, the
 * falling edge overwriting at the peak, as the definition's loops do). */
wnn_status wnn_ref_melweightmatrix(const wnn_run_ctx *ctx) {
  const wnn_melweight_params *p = ctx->params;
  const int64_t rate = p->rate_dtype == WNN_DTYPE_I32 ? *(const int32_t *)ctx->inputs[2].data
                                                      : *(const int64_t *)ctx->inputs[2].data;
  if (rate <= 0) return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE, "sample_rate");
  const double lo = *(const float *)ctx->inputs[3].data, hi = *(const float *)ctx->inputs[4].data;
  const double m0 = 2595.0 * log10(1.0 + lo / 700.0), m1 = 2595.0 * log10(1.0 + hi / 700.0);
  float *y = ctx->outputs[0].data;
  for (size_t j = 0; j < p->bins; j++)
    for (size_t i = 0; i < p->mels; i++) {
      int64_t pt[3];
      for (int k = 0; k < 3; k++) {
        const double mel = m0 + (double)(i + (size_t)k) * (m1 - m0) / (double)(p->mels + 2);
        const double hz = 700.0 * (pow(10.0, mel / 2595.0) - 1.0);
        pt[k] = (int64_t)floor((double)(p->dft_length + 1) * hz / (double)rate);
      }
      const int64_t jj = (int64_t)j;
      double v = 0.0;
      if (pt[1] == pt[0]) {
        if (jj == pt[1]) v = 1.0;
      } else if (jj >= pt[0] && jj <= pt[1]) {
        v = (double)(jj - pt[0]) / (double)(pt[1] - pt[0]);
      }
      if (pt[2] > pt[1] && jj >= pt[1] && jj < pt[2])
        v = (double)(pt[2] - jj) / (double)(pt[2] - pt[1]);
      y[j * p->mels + i] = (float)v;
    }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
