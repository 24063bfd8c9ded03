/* The signal ops (src/ops/signal.c): HannWindow, HammingWindow,
 * BlackmanWindow, DFT, STFT and MelWeightMatrix: hand-computed values (from
 * the ONNX definitions and their examples) and run vs reference (double) on
 * random inputs. Float results within rtol 1e-5 / atol 1e-6 of the reference
 * unless a test says otherwise. */
#include <math.h>
#include <stdint.h>

#include "op_harness.h"

/* ------------------------------------------------------ window functions */

TEST(windows) {
  static const int64_t four = 4, five = 5;
  wnn_tdesc in = TD_SCALAR(WNN_DTYPE_I64);
  in.data = &four;
  void *data[1] = {(void *)&four};
  const float hann[4] = {0, 0.5f, 1, 0.5f}, hamming[4] = {4.0f / 46, 25.0f / 46, 1, 25.0f / 46};
  const float blackman[4] = {0, 0.34f, 1, 0.34f};
  CHECK(op_check_data("HannWindow", NULL, 1, &in, data, 1, hann, 4, 1e-6f, 1e-7f));
  CHECK(op_check_data("HammingWindow", NULL, 1, &in, data, 1, hamming, 4, 1e-6f, 1e-7f));
  CHECK(op_check_data("BlackmanWindow", NULL, 1, &in, data, 1, blackman, 4, 1e-6f, 1e-7f));
  in.data = &five;
  data[0] = (void *)&five;
  const float hann_sym[5] = {0, 0.5f, 1, 0.5f, 0};
  CHECK(op_check_data("HannWindow", "{\"periodic\":0}", 1, &in, data, 1, hann_sym, 5, 1e-6f, 1e-7f));
  static const char *const OPS[3] = {"HannWindow", "HammingWindow", "BlackmanWindow"};
  for (int32_t n = 0; n < 18; n++)
    for (int o = 0; o < 3; o++) {
      wnn_tdesc i32 = TD_SCALAR(WNN_DTYPE_I32);
      i32.data = &n;
      void *d[1] = {&n};
      CHECK(op_check_data(OPS[o], NULL, 1, &i32, d, 1, NULL, 0, 1e-6f, 1e-6f));
      CHECK(op_check_data(OPS[o], "{\"periodic\":0,\"output_datatype\":11}", 1, &i32, d, 1, NULL, 0,
                       1e-6f, 1e-6f));
    }
  static const int64_t neg = -1;
  wnn_tdesc bad = TD_SCALAR(WNN_DTYPE_I64);
  CHECK(op_fails("HannWindow", NULL, 1, &bad, 1, WNN_ERR_UNSUPPORTED,
                 "HannWindow: input 0 (size) must be a constant"));
  bad.data = &neg;
  CHECK(op_fails("HammingWindow", NULL, 1, &bad, 1, WNN_ERR_OUT_OF_RANGE, "input 0 (size) is -1"));
  bad.data = &four;
  CHECK(op_fails("BlackmanWindow", "{\"output_datatype\":7}", 1, &bad, 1, WNN_ERR_UNSUPPORTED,
                 "output_datatype = 7"));
  CHECK(op_fails("BlackmanWindow", "{\"periodic\":2}", 1, &bad, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "periodic is 2"));
}

/* ------------------------------------------------------------ DFT, STFT */

TEST(dft) {
  /* [1, 2, 3, 4] real: [10, -2+2i, -2, -2-2i]. */
  float x[4] = {1, 2, 3, 4};
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 1, 4, 1), TD_OMITTED, TD_OMITTED};
  void *data[3] = {x, NULL, NULL};
  const float full[8] = {10, 0, -2, 2, -2, 0, -2, -2}, half[6] = {10, 0, -2, 2, -2, 0};
  CHECK(op_check_data("DFT", "{\"axis\":1}", 1, in, data, 1, full, 8, 1e-6f, 1e-6f));
  CHECK(op_check_data("DFT", "{\"onesided\":1}", 1, in, data, 1, half, 6, 1e-6f, 1e-6f));
  /* The inverse of the spectrum is the signal (imaginary parts 0). */
  float spec[8] = {10, 0, -2, 2, -2, 0, -2, -2};
  wnn_tdesc sin_[1] = {TD(WNN_DTYPE_F32, 1, 4, 2)};
  void *sd[1] = {spec};
  const float back[8] = {1, 0, 2, 0, 3, 0, 4, 0};
  CHECK(op_check_data("DFT", "{\"inverse\":1}", 1, sin_, sd, 1, back, 8, 1e-6f, 1e-6f));
  /* dft_length pads with zeros (6) or truncates (2). */
  static const int64_t six = 6, two = 2, axis1 = 1;
  in[1] = TD_SCALAR(WNN_DTYPE_I64);
  in[1].data = &two;
  data[1] = (void *)&two;
  const float trunc[4] = {3, 0, -1, 0};
  CHECK(op_check_data("DFT", NULL, 2, in, data, 1, trunc, 4, 1e-6f, 1e-6f));
  in[1].data = &six;
  data[1] = (void *)&six;
  CHECK(op_check_data("DFT", NULL, 2, in, data, 1, NULL, 0, 1e-5f, 1e-6f));
  /* vs reference: axes 1 and 2 of [2, 5, 3, c], real and complex, inverse, the
   * axis as opset 20's input. */
  for (int c = 1; c <= 2; c++) {
    wnn_tdesc r[3] = {TD(WNN_DTYPE_F32, 2, 5, 3, 1), TD_OMITTED, TD_SCALAR(WNN_DTYPE_I64)};
    r[0].dims[3] = c;
    r[2].data = &axis1;
    CHECK(op_check("DFT", "{\"axis\":2}", 1, r, 1e-4f, 1e-5f));
    CHECK(op_check("DFT", "{\"axis\":-3,\"inverse\":1}", 1, r, 1e-4f, 1e-5f));
    CHECK(op_check("DFT", NULL, 3, r, 1e-4f, 1e-5f));
  }
  wnn_tdesc bad[3] = {TD(WNN_DTYPE_F32, 2, 5, 2), TD_SCALAR(WNN_DTYPE_I64), TD_OMITTED};
  CHECK(op_fails("DFT", NULL, 2, bad, 1, WNN_ERR_UNSUPPORTED,
                 "DFT: input 1 (dft_length) must be a constant"));
  CHECK(op_fails("DFT", "{\"onesided\":1}", 1, bad, 1, WNN_ERR_UNSUPPORTED, "needs a real input"));
  CHECK(op_fails("DFT", "{\"axis\":2}", 1, bad, 1, WNN_ERR_OUT_OF_RANGE, "axis is 2"));
  bad[2] = TD_SCALAR(WNN_DTYPE_I64);
  bad[2].data = &axis1;
  bad[1] = TD_OMITTED;
  CHECK(op_fails("DFT", "{\"axis\":1}", 3, bad, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "both as an attribute"));
  CHECK(op_fails("DFT", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 4, 3)}, 1, WNN_ERR_SHAPE,
                 "expected [..., 1] (real) or [..., 2] (complex)"));
}

TEST(stft) {
  /* A constant signal: each frame's DC bin is the frame length, the rest 0. */
  float ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  static const int64_t step2 = 2, flen4 = 4;
  wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 1, 8, 1), TD_SCALAR(WNN_DTYPE_I64), TD_OMITTED,
                     TD_SCALAR(WNN_DTYPE_I64)};
  in[1].data = &step2;
  in[3].data = &flen4;
  void *data[4] = {ones, (void *)&step2, NULL, (void *)&flen4};
  const float want[18] = {4, 0, 0, 0, 0, 0, 4, 0, 0,
                          0, 0, 0, 4, 0, 0, 0, 0, 0}; /* 3 frames x 3 bins */
  CHECK(op_check_data("STFT", NULL, 4, in, data, 1, want, 18, 1e-6f, 1e-6f));
  /* vs reference with a window (read at run time), one- and two-sided, complex. */
  static const int64_t step3 = 3;
  wnn_tdesc r[3] = {TD(WNN_DTYPE_F32, 2, 32, 1), TD_SCALAR(WNN_DTYPE_I64), TD(WNN_DTYPE_F32, 8)};
  r[1].data = &step3;
  CHECK(op_check("STFT", NULL, 3, r, 1e-4f, 1e-5f));
  CHECK(op_check("STFT", "{\"onesided\":0}", 3, r, 1e-4f, 1e-5f));
  r[0].dims[2] = 2;
  CHECK(op_check("STFT", "{\"onesided\":0}", 3, r, 1e-4f, 1e-5f));
  CHECK(op_fails("STFT", NULL, 3, r, 1, WNN_ERR_UNSUPPORTED, "needs a real signal"));
  wnn_tdesc bad[4] = {TD(WNN_DTYPE_F32, 1, 8, 1), TD_SCALAR(WNN_DTYPE_I64), TD_OMITTED, TD_OMITTED};
  CHECK(op_fails("STFT", NULL, 2, bad, 1, WNN_ERR_UNSUPPORTED,
                 "STFT: input 1 (frame_step) must be a constant"));
  bad[1].data = &step2;
  CHECK(op_fails("STFT", NULL, 2, bad, 1, WNN_ERR_MALFORMED, "needs input 2 (window) or input 3"));
  bad[2] = TD(WNN_DTYPE_F32, 5);
  bad[3] = TD_SCALAR(WNN_DTYPE_I64);
  bad[3].data = &flen4;
  CHECK(op_fails("STFT", NULL, 4, bad, 1, WNN_ERR_SHAPE, "the window has 5 values"));
}

/* ------------------------------------------------------- MelWeightMatrix */

TEST(mel_weight_matrix) {
  /* 3 filters over 9 bins (dft_length 16), 8 kHz, 100 to 3500 Hz: the mel
   * points fall on bins 0, 0, 1, 3, 4, so filter 0 is a spike at bin 0,
   * filter 1 rises 0 -> 1 (bins 0, 1) and falls to 0.5 at bin 2, filter 2
   * rises 0, 0.5, 1 (bins 1-3). */
  static const int64_t mels = 3, len = 16;
  int32_t rate = 8000;
  float lo = 100, hi = 3500;
  wnn_tdesc in[5] = {TD_SCALAR(WNN_DTYPE_I64), TD_SCALAR(WNN_DTYPE_I64), TD_SCALAR(WNN_DTYPE_I32),
                     TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_F32)};
  in[0].data = &mels;
  in[1].data = &len;
  void *data[5] = {(void *)&mels, (void *)&len, &rate, &lo, &hi};
  float want[27] = {1, 0, 0, 0, 1, 0, 0, 0.5f, 0.5f, 0, 0, 1};
  CHECK(op_check_data("MelWeightMatrix", NULL, 5, in, data, 1, want, 27, 0, 0));
  /* vs reference on wider settings. */
  static const int64_t mels2 = 8, len2 = 256;
  in[0].data = &mels2;
  in[1].data = &len2;
  int32_t rate2 = 16000;
  float lo2 = 20, hi2 = 7600;
  void *data2[5] = {(void *)&mels2, (void *)&len2, &rate2, &lo2, &hi2};
  CHECK(op_check_data("MelWeightMatrix", NULL, 5, in, data2, 1, NULL, 0, 1e-6f, 1e-7f));
  CHECK(op_check_data("MelWeightMatrix", "{\"output_datatype\":11}", 5, in, data2, 1, NULL, 0, 1e-6f,
                   1e-7f));
  /* A rate <= 0 fails the run; shape inputs must be constants. */
  op_case c;
  CHECK_OK(op_prepare(&c, "MelWeightMatrix", NULL, 5, in, 1));
  int32_t zero = 0;
  void *bad[5] = {(void *)&mels2, (void *)&len2, &zero, &lo2, &hi2}, *out[1];
  CHECK(op_exec(&c, c.op->run, bad, out) == WNN_ERR_OUT_OF_RANGE);
  free(out[0]);
  in[0].data = NULL;
  CHECK(op_fails("MelWeightMatrix", NULL, 5, in, 1, WNN_ERR_UNSUPPORTED,
                 "MelWeightMatrix: input 0 (num_mel_bins) must be a constant"));
  in[0].data = &mels;
  in[3] = TD_SCALAR(WNN_DTYPE_I32);
  CHECK(op_fails("MelWeightMatrix", NULL, 5, in, 1, WNN_ERR_DTYPE,
                 "input 3 (lower_edge_hertz) is int32"));
}

int main(void) {
  RUN(windows);
  RUN(dft);
  RUN(stft);
  RUN(mel_weight_matrix);
  return test_summary();
}
