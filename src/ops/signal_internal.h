/*
 * What the signal ops (src/ops/signal.c: HannWindow, HammingWindow,
 * BlackmanWindow, DFT, STFT, MelWeightMatrix) share with their references
 * (src/ref/ref_signal.c): the params structs.
 */
#ifndef WNN_SIGNAL_INTERNAL_H
#define WNN_SIGNAL_INTERNAL_H

#include "ops/op_internal.h"

/* HannWindow, HammingWindow, BlackmanWindow: n values,
 * w[k] = a0 - a1 cos(2 pi k / N) + a2 cos(4 pi k / N), N = n (periodic) or
 * n - 1 (symmetric). */
typedef struct wnn_window_params {
  double a0, a1, a2;
  size_t n;
  bool periodic;
} wnn_window_params;

/* DFT: the input as outer x n_in x inner x c_in (c_in 1: real, 2: complex),
 * transformed along n with length len (zero-padded or truncated), n_out
 * outputs (len, or len / 2 + 1 onesided), complex out. */
typedef struct wnn_dft_params {
  size_t outer, n_in, inner, c_in, len, n_out;
  bool inverse;
} wnn_dft_params;

/* STFT: signal batch x length x c_in; frames of flen samples every step,
 * each windowed (when the window input is given) and transformed to bins. */
typedef struct wnn_stft_params {
  size_t batch, length, c_in, step, flen, frames, bins;
} wnn_stft_params;

/* MelWeightMatrix: a (dft_length / 2 + 1) x num_mel_bins matrix; the edge
 * frequencies and the sample rate are read at run time. */
typedef struct wnn_melweight_params {
  size_t bins, mels, dft_length;
  wnn_dtype rate_dtype;
} wnn_melweight_params;

#endif /* WNN_SIGNAL_INTERNAL_H */
