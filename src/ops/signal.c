/*
 * Signal ops, float32, complex values as a trailing dim of 2 (real, imag):
 *   DFT (20)   input [..., n, ..., 1 or 2], dft_length? (int32/int64
 *              scalar, constant), axis? (int64 scalar, constant; default -2;
 *              opset 17's axis attribute is accepted instead); inverse (0),
 *              onesided (0: forward only, real input)
 *   STFT (17)  signal [batch, length, 1 or 2], frame_step (constant), window?
 *              [frame_length] (read at run time), frame_length? (constant);
 *              onesided (1: real signal only)
 *   MelWeightMatrix (17)  num_mel_bins, dft_length (constants), sample_rate
 *              (int32/int64), lower_edge_hertz, upper_edge_hertz (float32);
 *              output_datatype (1) -> [dft_length / 2 + 1, num_mel_bins]
 * Direct O(n^2) transforms in double, one rounding per output: these are
 * rare in inference graphs. Twiddle angles are 2 pi ((k * n) mod N) / N, so
 * they stay exact for long transforms.
 */
#include <math.h>
#include <string.h>

#include "ops/signal_internal.h"

WNN_PARAMS_FIT(wnn_dft_params);
WNN_PARAMS_FIT(wnn_stft_params);
WNN_PARAMS_FIT(wnn_melweight_params);

static const double TWO_PI = 6.283185307179586476925;

/* A constant integer scalar input i (int32 or int64), or fails naming it. */
static wnn_status const_scalar(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                               int64_t *out) {
  const wnn_tdesc *t = &ctx->inputs[i];
  if (t->dtype != WNN_DTYPE_I32 && t->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input %d (%s) is %s, expected int32 or int64", op,
                       i, name, wnn_dtype_name(t->dtype));
  if (t->ndim > 1 || wnn_shape_numel(t->ndim, t->dims) != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) must be a scalar", op, i, name);
  if (!t->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input %d (%s) must be a constant (it decides the output shape)", op, i,
                       name);
  *out = t->dtype == WNN_DTYPE_I32 ? *(const int32_t *)t->data : *(const int64_t *)t->data;
  return WNN_OK;
}

/* ------------------------------------------------------------------- DFT */

wnn_status wnn_dft_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "DFT";
  wnn_dft_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t inverse, onesided, axis = -2, len;
  char a[64];
  if ((st = wnn_expect_dtype(ctx, OP, 0, "input", WNN_DTYPE_F32))) return st;
  if (x->ndim < 2 || (x->dims[x->ndim - 1] != 1 && x->dims[x->ndim - 1] != 2))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 0 (input) has shape %s, expected [..., 1] (real) or [..., 2] "
                       "(complex)",
                       OP, wnn_format_dims(a, sizeof a, x->ndim, x->dims));
  if ((st = wnn_attr_int(ctx, "inverse", 0, &inverse))) return st;
  if (inverse != 0 && inverse != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: inverse is %lld, expected 0 or 1", OP,
                       (long long)inverse);
  if ((st = wnn_attr_int(ctx, "onesided", 0, &onesided))) return st;
  if (onesided != 0 && onesided != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: onesided is %lld, expected 0 or 1", OP,
                       (long long)onesided);
  const bool axis_attr = wnn_attr_has(ctx, "axis");
  const bool axis_input = ctx->num_inputs > 2 && wnn_has_input(ctx, 2);
  if (axis_attr && axis_input)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: axis is given both as an attribute (opset 17) and as input 2", OP);
  if (axis_attr && (st = wnn_attr_int(ctx, "axis", -2, &axis))) return st;
  if (axis_input && (st = const_scalar(ctx, OP, 2, "axis", &axis))) return st;
  /* The signal axes exclude the complex dim. */
  const int r = x->ndim;
  const int64_t ax = axis < 0 ? axis + r : axis;
  if (ax < 0 || ax > r - 2)
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                       "%s: axis is %lld, out of range for rank %d (the last dim is the complex "
                       "one)",
                       OP, (long long)axis, r);
  p->outer = (size_t)wnn_shape_numel((int)ax, x->dims);
  p->n_in = (size_t)x->dims[ax];
  p->inner = (size_t)wnn_shape_numel(r - 2 - (int)ax, x->dims + ax + 1);
  p->c_in = (size_t)x->dims[r - 1];
  len = x->dims[ax];
  if (ctx->num_inputs > 1 && wnn_has_input(ctx, 1) &&
      (st = const_scalar(ctx, OP, 1, "dft_length", &len)))
    return st;
  if (len < 1)
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE, "%s: dft_length is %lld, expected >= 1", OP,
                       (long long)len);
  if (onesided && inverse)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: onesided = 1 with inverse = 1 (a real inverse) is not supported", OP);
  if (onesided && p->c_in == 2)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: onesided = 1 needs a real input (last dim 1), not a complex one", OP);
  p->len = (size_t)len;
  p->n_out = onesided ? p->len / 2 + 1 : p->len;
  p->inverse = inverse != 0;
  int64_t out[WNN_MAX_DIMS];
  memcpy(out, x->dims, sizeof out);
  out[ax] = (int64_t)p->n_out;
  out[r - 1] = 2;
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, r, out);
}

/* One transform of n samples at x (stride xs elements between samples, c
 * values each) into m outputs at y (stride ys, 2 values each), length len. */
static void dft_line(const float *x, size_t xs, size_t c, size_t n, float *y, size_t ys,
                     size_t m, size_t len, bool inverse, const float *window) {
  const double sign = inverse ? 1.0 : -1.0, scale = inverse ? 1.0 / (double)len : 1.0;
  const size_t used = n < len ? n : len;
  for (size_t k = 0; k < m; k++) {
    double re = 0.0, im = 0.0;
    for (size_t j = 0; j < used; j++) {
      const double w = window ? window[j] : 1.0;
      const double xr = x[j * xs] * w, xi = c == 2 ? x[j * xs + 1] * w : 0.0;
      const double t = sign * TWO_PI * (double)((k * j) % len) / (double)len;
      const double cr = cos(t), ci = sin(t);
      re += xr * cr - xi * ci;
      im += xr * ci + xi * cr;
    }
    y[k * ys] = (float)(re * scale);
    y[k * ys + 1] = (float)(im * scale);
  }
}

wnn_status wnn_dft_run(const wnn_run_ctx *ctx) {
  const wnn_dft_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  float *y = ctx->outputs[0].data;
  for (size_t o = 0; o < p->outer; o++)
    for (size_t i = 0; i < p->inner; i++)
      dft_line(x + (o * p->n_in * p->inner + i) * p->c_in, p->inner * p->c_in, p->c_in, p->n_in,
               y + (o * p->n_out * p->inner + i) * 2, p->inner * 2, p->n_out, p->len, p->inverse,
               NULL);
  return WNN_OK;
}

/* ------------------------------------------------------------------ STFT */

wnn_status wnn_stft_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "STFT";
  wnn_stft_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t step, flen = -1, onesided;
  char a[64];
  if ((st = wnn_expect_dtype(ctx, OP, 0, "signal", WNN_DTYPE_F32))) return st;
  if (x->ndim != 3 || (x->dims[2] != 1 && x->dims[2] != 2))
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 0 (signal) has shape %s, expected [batch, length, 1 or 2]", OP,
                       wnn_format_dims(a, sizeof a, x->ndim, x->dims));
  if ((st = const_scalar(ctx, OP, 1, "frame_step", &step))) return st;
  if (step < 1)
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE, "%s: frame_step is %lld, expected >= 1", OP,
                       (long long)step);
  const bool has_window = ctx->num_inputs > 2 && wnn_has_input(ctx, 2);
  if (has_window) {
    const wnn_tdesc *w = &ctx->inputs[2];
    if ((st = wnn_expect_dtype(ctx, OP, 2, "window", WNN_DTYPE_F32))) return st;
    if (w->ndim != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (window) has %d dims, expected 1", OP,
                         w->ndim);
    flen = w->dims[0];
  }
  if (ctx->num_inputs > 3 && wnn_has_input(ctx, 3)) {
    int64_t given;
    if ((st = const_scalar(ctx, OP, 3, "frame_length", &given))) return st;
    if (has_window && given != flen)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: input 3 (frame_length) is %lld but the window has %lld values", OP,
                         (long long)given, (long long)flen);
    flen = given;
  }
  if (flen < 0)
    return wnn_op_fail(ctx, WNN_ERR_MALFORMED,
                       "%s: needs input 2 (window) or input 3 (frame_length)", OP);
  if (flen < 1 || flen > x->dims[1])
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                       "%s: the frame length is %lld, expected 1 to the signal length %lld", OP,
                       (long long)flen, (long long)x->dims[1]);
  if ((st = wnn_attr_int(ctx, "onesided", 1, &onesided))) return st;
  if (onesided != 0 && onesided != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: onesided is %lld, expected 0 or 1", OP,
                       (long long)onesided);
  if (onesided && x->dims[2] == 2)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: onesided = 1 needs a real signal (last dim 1), not a complex one", OP);
  p->batch = (size_t)x->dims[0], p->length = (size_t)x->dims[1], p->c_in = (size_t)x->dims[2];
  p->step = (size_t)step, p->flen = (size_t)flen;
  p->frames = (p->length - p->flen) / p->step + 1;
  p->bins = onesided ? p->flen / 2 + 1 : p->flen;
  const int64_t out[4] = {x->dims[0], (int64_t)p->frames, (int64_t)p->bins, 2};
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, 4, out);
}

wnn_status wnn_stft_run(const wnn_run_ctx *ctx) {
  const wnn_stft_params *p = ctx->params;
  const float *x = ctx->inputs[0].data;
  const float *window = ctx->num_inputs > 2 ? ctx->inputs[2].data : NULL;
  float *y = ctx->outputs[0].data;
  for (size_t b = 0; b < p->batch; b++)
    for (size_t f = 0; f < p->frames; f++)
      dft_line(x + (b * p->length + f * p->step) * p->c_in, p->c_in, p->c_in, p->flen,
               y + (b * p->frames + f) * p->bins * 2, 2, p->bins, p->flen, false, window);
  return WNN_OK;
}

/* ------------------------------------------------------- MelWeightMatrix */

wnn_status wnn_melweightmatrix_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "MelWeightMatrix";
  wnn_melweight_params *p = ctx->params;
  wnn_status st;
  int64_t mels = 0, len = 0, dt;
  if ((st = const_scalar(ctx, OP, 0, "num_mel_bins", &mels))) return st;
  if ((st = const_scalar(ctx, OP, 1, "dft_length", &len))) return st;
  if (mels < 1 || len < 1)
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                       "%s: num_mel_bins %lld and dft_length %lld must be >= 1", OP,
                       (long long)mels, (long long)len);
  const wnn_tdesc *rate = &ctx->inputs[2];
  if (rate->dtype != WNN_DTYPE_I32 && rate->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE,
                       "%s: input 2 (sample_rate) is %s, expected int32 or int64", OP,
                       wnn_dtype_name(rate->dtype));
  static const char *const names[5] = {"num_mel_bins", "dft_length", "sample_rate",
                                       "lower_edge_hertz", "upper_edge_hertz"};
  for (int i = 2; i < 5; i++) {
    if (i > 2 && (st = wnn_expect_dtype(ctx, OP, i, names[i], WNN_DTYPE_F32))) return st;
    const wnn_tdesc *t = &ctx->inputs[i];
    if (t->ndim > 1 || wnn_shape_numel(t->ndim, t->dims) != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) must be a scalar", OP, i, names[i]);
  }
  if ((st = wnn_attr_int(ctx, "output_datatype", 1, &dt))) return st;
  if (dt != 1 && dt != 10 && dt != 11)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: output_datatype = %lld is not supported (float32 1; float16 10 and "
                       "double 11 give float32)",
                       OP, (long long)dt);
  p->mels = (size_t)mels, p->dft_length = (size_t)len, p->bins = (size_t)len / 2 + 1;
  p->rate_dtype = rate->dtype;
  const int64_t out[2] = {(int64_t)p->bins, mels};
  return wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, 2, out);
}

/* Triangular filters between mel-spaced frequencies (as ONNX's reference:
 * mels + 2 points spaced (high - low) / (mels + 2) apart on the mel scale
 * 2595 log10(1 + f / 700), mapped to bins floor((dft_length + 1) f / rate)).
 * Filter i rises from point i to i + 1 and falls to i + 2. A rate <= 0 fails
 * the run. */
wnn_status wnn_melweightmatrix_run(const wnn_run_ctx *ctx) {
  const wnn_melweight_params *p = ctx->params;
  const void *rv = ctx->inputs[2].data;
  const int64_t rate = p->rate_dtype == WNN_DTYPE_I32 ? *(const int32_t *)rv : *(const int64_t *)rv;
  const double lo = *(const float *)ctx->inputs[3].data, hi = *(const float *)ctx->inputs[4].data;
  float *y = ctx->outputs[0].data;
  if (rate <= 0)
    return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                        "MelWeightMatrix: sample_rate is %lld, expected > 0", (long long)rate);
  memset(y, 0, p->bins * p->mels * sizeof(float));
  const double lo_mel = 2595.0 * log10(1.0 + lo / 700.0), hi_mel = 2595.0 * log10(1.0 + hi / 700.0);
  const double step = (hi_mel - lo_mel) / (double)(p->mels + 2);
  int64_t pts[3];
  for (size_t i = 0; i < p->mels; i++) {
    for (int k = 0; k < 3; k++) {
      const double hz =
          700.0 * (pow(10.0, ((double)(i + (size_t)k) * step + lo_mel) / 2595.0) - 1.0);
      pts[k] = (int64_t)floor((double)(p->dft_length + 1) * hz / (double)rate);
    }
    const int64_t up = pts[1] - pts[0], down = pts[2] - pts[1];
    if (up == 0) {
      if (pts[1] >= 0 && pts[1] < (int64_t)p->bins) y[(size_t)pts[1] * p->mels + i] = 1.0f;
    } else {
      for (int64_t j = pts[0]; j <= pts[1]; j++)
        if (j >= 0 && j < (int64_t)p->bins)
          y[(size_t)j * p->mels + i] = (float)((double)(j - pts[0]) / (double)up);
    }
    for (int64_t j = pts[1]; down > 0 && j < pts[2]; j++)
      if (j >= 0 && j < (int64_t)p->bins)
        y[(size_t)j * p->mels + i] = (float)((double)(pts[2] - j) / (double)down);
  }
  return WNN_OK;
}

/* ------------------------------------------------------ window functions */

WNN_PARAMS_FIT(wnn_window_params);

/* HannWindow, HammingWindow, BlackmanWindow (17): size (int32 or int64
 * scalar, constant: it is the output's length); output_datatype (1; 10 and 11
 * are float32 too), periodic (1). */
static wnn_status window_prepare(wnn_prepare_ctx *ctx, const char *op, double a0, double a1,
                                 double a2) {
  wnn_window_params *p = ctx->params;
  const wnn_tdesc *s = &ctx->inputs[0];
  wnn_status st;
  int64_t dt, periodic;
  if (s->dtype != WNN_DTYPE_I32 && s->dtype != WNN_DTYPE_I64)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 0 (size) is %s, expected int32 or int64",
                       op, wnn_dtype_name(s->dtype));
  if (s->ndim > 1 || wnn_shape_numel(s->ndim, s->dims) != 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (size) must be a scalar", op);
  if (!s->data)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 0 (size) must be a constant (it decides the output shape)", op);
  const int64_t n = s->dtype == WNN_DTYPE_I32 ? *(const int32_t *)s->data
                                              : *(const int64_t *)s->data;
  if (n < 0)
    return wnn_op_fail(ctx, WNN_ERR_OUT_OF_RANGE, "%s: input 0 (size) is %lld, expected >= 0", op,
                       (long long)n);
  if ((st = wnn_attr_int(ctx, "output_datatype", 1, &dt))) return st;
  if (dt != 1 && dt != 10 && dt != 11)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: output_datatype = %lld is not supported (float32 1; float16 10 and "
                       "double 11 give float32)",
                       op, (long long)dt);
  if ((st = wnn_attr_int(ctx, "periodic", 1, &periodic))) return st;
  if (periodic != 0 && periodic != 1)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: periodic is %lld, expected 0 or 1", op,
                       (long long)periodic);
  p->a0 = a0, p->a1 = a1, p->a2 = a2;
  p->n = (size_t)n;
  p->periodic = periodic == 1;
  return wnn_set_output(ctx, op, 0, WNN_DTYPE_F32, 1, &n);
}

/* In double, rounded once. A symmetric window of length 1 (N = 0) is its
 * value at angle 0. */
static wnn_status window_run(const wnn_run_ctx *ctx) {
  const wnn_window_params *p = ctx->params;
  float *y = ctx->outputs[0].data;
  const double two_pi = 6.283185307179586476925;
  const double len = p->periodic ? (double)p->n : (double)p->n - 1.0;
  for (size_t k = 0; k < p->n; k++) {
    const double t = len > 0.0 ? two_pi * (double)k / len : 0.0;
    y[k] = (float)(p->a0 - p->a1 * cos(t) + p->a2 * cos(2.0 * t));
  }
  return WNN_OK;
}

wnn_status wnn_hannwindow_prepare(wnn_prepare_ctx *ctx) {
  return window_prepare(ctx, "HannWindow", 0.5, 0.5, 0.0);
}
wnn_status wnn_hammingwindow_prepare(wnn_prepare_ctx *ctx) {
  return window_prepare(ctx, "HammingWindow", 25.0 / 46.0, 21.0 / 46.0, 0.0);
}
wnn_status wnn_blackmanwindow_prepare(wnn_prepare_ctx *ctx) {
  return window_prepare(ctx, "BlackmanWindow", 0.42, 0.5, 0.08);
}
wnn_status wnn_hannwindow_run(const wnn_run_ctx *ctx) { return window_run(ctx); }
wnn_status wnn_hammingwindow_run(const wnn_run_ctx *ctx) { return window_run(ctx); }
wnn_status wnn_blackmanwindow_run(const wnn_run_ctx *ctx) { return window_run(ctx); }

/* ------------------------------------------------------------ descriptors */

static const char *const window_attrs[] = {"output_datatype", "periodic", NULL};

WNN_OP_DEFINE(dft, "DFT", 0, 1, 3, 1, 1, WNN_ATTRS("axis", "inverse", "onesided"));
WNN_OP_DEFINE(stft, "STFT", 0, 2, 4, 1, 1, WNN_ATTRS("onesided"));
WNN_OP_DEFINE(melweightmatrix, "MelWeightMatrix", 0, 5, 5, 1, 1, WNN_ATTRS("output_datatype"));
WNN_OP_DEFINE(hannwindow, "HannWindow", 0, 1, 1, 1, 1, window_attrs);
WNN_OP_DEFINE(hammingwindow, "HammingWindow", 0, 1, 1, 1, 1, window_attrs);
WNN_OP_DEFINE(blackmanwindow, "BlackmanWindow", 0, 1, 1, 1, 1, window_attrs);
