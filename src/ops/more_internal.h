/*
 * What the loss ops (src/ops/nn_loss.c) and the further math ops
 * (src/ops/math_more.c) share with their reference implementations
 * (src/ref/ref_more.c): params structs and the references' declarations.
 * Included by those files.
 * These ops are rare in inference graphs: the wasm builds compile them for
 * size (CMakeLists.txt lists the files that are compiled for speed).
 */
#ifndef WNN_MORE_INTERNAL_H
#define WNN_MORE_INTERNAL_H

#include "ops/math_internal.h"

/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss. The input is viewed
 * as [n, c, d] (d: the product of d1..dk, 1 without them), the target as
 * [n, d]. SoftmaxCrossEntropyLoss first takes the log-softmax over c. */
enum { WNN_LOSS_NONE = 0, WNN_LOSS_SUM = 1, WNN_LOSS_MEAN = 2 };
typedef struct wnn_loss_params {
  bool softmax;              /* SoftmaxCrossEntropyLoss */
  int reduction;             /* WNN_LOSS_* */
  bool has_ignore;           /* ignore_index given (ONNX has no default) */
  int64_t ignore_index;
  bool has_weight;
  wnn_dtype target_dtype;    /* int32 or int64 */
  size_t n, c, d;
  wnn_f32_softmax_ukernel *logsoftmax; /* along a strided line of c */
} wnn_loss_params;

/* CumSum along one axis: outer x n x inner. */
typedef struct wnn_cumsum_params {
  wnn_dtype dtype;           /* float32, int32 or int64 */
  bool exclusive, reverse;
  size_t outer, n, inner;
} wnn_cumsum_params;

/* Hardmax along one axis: outer x n x inner. */
typedef struct wnn_hardmax_params {
  size_t outer, n, inner;
} wnn_hardmax_params;

/* Element-wise float32 ops without a kernel family: the inverse and
 * hyperbolic trigonometric functions, Tan, ThresholdedRelu, Shrink, Celu. */
enum {
  WNN_MORE_ACOS = 0, WNN_MORE_ACOSH, WNN_MORE_ASIN, WNN_MORE_ASINH, WNN_MORE_ATAN,
  WNN_MORE_ATANH, WNN_MORE_COSH, WNN_MORE_SINH, WNN_MORE_TAN, WNN_MORE_THRESHOLDEDRELU,
  WNN_MORE_SHRINK, WNN_MORE_CELU
};
typedef struct wnn_vmore_params {
  int op;                    /* WNN_MORE_* */
  float alpha;               /* ThresholdedRelu alpha; Shrink lambd; Celu alpha */
  float beta;                /* Shrink bias */
} wnn_vmore_params;

/* EyeLike: ones on diagonal k of a rows x cols matrix. */
typedef struct wnn_eyelike_params {
  wnn_dtype dtype;
  size_t rows, cols;
  int64_t k;
} wnn_eyelike_params;

/* QuantizeLinear and DequantizeLinear: per tensor (axis_n 1) or per axis,
 * the tensor viewed as outer x axis_n x inner. Scale and zero point are read
 * at run time (they need not be constants). */
typedef struct wnn_quant_params {
  wnn_dtype qdtype;          /* the quantized side: uint8, int8 (or int32: Dequantize) */
  bool has_zero_point;
  size_t outer, axis_n, inner;
} wnn_quant_params;

/* HannWindow, HammingWindow, BlackmanWindow: n values,
 * w[k] = a0 - a1 cos(2 pi k / N) + a2 cos(4 pi k / N), N = n (periodic) or
 * n - 1 (symmetric). */
typedef struct wnn_window_params {
  double a0, a1, a2;
  size_t n;
  bool periodic;
} wnn_window_params;

/* Det: batch square m x m matrices (scratch: m * m doubles). */
typedef struct wnn_det_params {
  size_t batch, m;
} wnn_det_params;

/* BitShift (uint8): X shifted by Y, both broadcast. */
typedef struct wnn_bitshift_params {
  bool left;
  wnn_bcast_plan plan;
} wnn_bitshift_params;

/* MeanVarianceNormalization: statistics per kept coordinate (the dims not in
 * axes); kstride[d] is dim d's stride in the kept index (0 when reduced).
 * Scratch: 2 * kept doubles. */
typedef struct wnn_mvn_params {
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  size_t kstride[WNN_MAX_DIMS];
  size_t kept, count;       /* kept coordinates; elements per kept coordinate */
} wnn_mvn_params;

/* Compress: the input as outer x n x inner (flattened: 1 x numel x 1); the
 * condition's first `len` entries (len <= n) pick positions along n. */
typedef struct wnn_compress_params {
  size_t outer, n, inner, len, elem_size;
} wnn_compress_params;

/* ReverseSequence: time and batch are dims 0 and 1 in some order; inner is
 * the product of the rest. */
typedef struct wnn_reversesequence_params {
  bool batch_first;         /* batch_axis 0, time_axis 1 */
  size_t seq, batch, inner, elem_size;
} wnn_reversesequence_params;

/* RNN (the simple recurrent unit): X seq x batch x input (layout 0) or
 * batch x seq x input (layout 1); act per direction (WNN_RNN_* of
 * nn_internal.h). Scratch: 2 * batch * hidden floats. */
typedef struct wnn_simple_rnn_params {
  int directions;             /* 1 or 2 */
  bool reverse;               /* one direction, run backwards */
  int layout;
  size_t seq, batch, input, hidden;
  float clip;                 /* INFINITY: no clipping */
  int act[2];
  wnn_dtype lens_dtype;       /* sequence_lens: int32 or int64; INVALID when omitted */
} wnn_simple_rnn_params;

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

/* MatMulInteger and QLinearMatMul: int8/uint8 A [..., m, k] times B
 * [..., k, n] with int32 accumulation; batch dims broadcast (a_bs, b_bs:
 * element strides per batch dim, 0 where broadcast). in[] holds the input
 * index of A, B, their zero points and (QLinear) the scales and y's zero
 * point; -1 where the op has none. Zero points and scales are scalars, read
 * at run time. */
enum { WNN_Q_A, WNN_Q_B, WNN_Q_AZP, WNN_Q_BZP, WNN_Q_ASCALE, WNN_Q_BSCALE, WNN_Q_YSCALE,
       WNN_Q_YZP, WNN_Q_BIAS, WNN_Q_COUNT };
typedef struct wnn_qmatmul_params {
  bool qlinear;
  wnn_dtype a_dtype, b_dtype, y_dtype; /* y int32 (MatMulInteger), uint8 or int8 */
  signed char in[WNN_Q_COUNT];
  size_t m, n, k;
  int batch_ndim;
  size_t batch_dims[WNN_MAX_DIMS], a_bs[WNN_MAX_DIMS], b_bs[WNN_MAX_DIMS];
} wnn_qmatmul_params;

/* ConvInteger and QLinearConv (1-D as height 1, and 2-D): x [N, C, H, W],
 * w [M, C/group, kH, kW]; w's zero point and scale are scalars or per output
 * channel ([M]); QLinearConv's bias is int32 [M]. */
typedef struct wnn_qconv_params {
  bool qlinear;
  wnn_dtype x_dtype, w_dtype, y_dtype;
  signed char in[WNN_Q_COUNT]; /* WNN_Q_A is x, WNN_Q_B is w */
  bool wzp_per_channel, wscale_per_channel;
  size_t group, batch, in_c, out_c;
  wnn_window2d win;
} wnn_qconv_params;

/* RoiAlign: X [n, c, h, w], rois [num_rois, 4] (x1, y1, x2, y2), batch
 * indices int64 [num_rois] (checked at run time). */
typedef struct wnn_roialign_params {
  size_t n, c, h, w, oh, ow, num_rois;
  int64_t sampling_ratio;
  float spatial_scale;
  bool half_pixel, max_mode;
} wnn_roialign_params;

/* MelWeightMatrix: a (dft_length / 2 + 1) x num_mel_bins matrix; the edge
 * frequencies and the sample rate are read at run time. */
typedef struct wnn_melweight_params {
  size_t bins, mels, dft_length;
  wnn_dtype rate_dtype;
} wnn_melweight_params;

/* ReduceLogSum's op number in wnn_reduce_params (after the WNN_RED_* of
 * math_internal.h). */
#define WNN_RED_LOGSUM (WNN_RED_LOGSUMEXP + 1)

#endif /* WNN_MORE_INTERNAL_H */
