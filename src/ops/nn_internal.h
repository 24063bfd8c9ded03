/*
 * What the nn op files (normalization, resampling, transposed convolution,
 * recurrent and sampling ops (codes 120-159 of ops.inc); also MaxPool / AveragePool's
 * params, src/ops/pool.c) share with their reference implementations: each
 * op's params struct, filled by prepare and read by run and by the reference;
 * the family's prepare helpers and kernel selection (src/ops/nn_common.c);
 * and the declarations of the references (src/ref/ref_nn*.c, ref_pool.c),
 * kept here so that the family needs no edit of the shared src/ref/ref.h.
 */
#ifndef WNN_NN_INTERNAL_H
#define WNN_NN_INTERNAL_H

#include <math.h>

#include "ops/op_internal.h"

/* BatchNormalization and InstanceNormalization: X is outer x channels x inner
 * (N x C x spatial); scale, B (and BatchNormalization's mean and var) have
 * `channels` entries. */
typedef struct wnn_chnorm_params {
  size_t outer, channels, inner;
  float epsilon;
  bool training;   /* BatchNormalization: batch statistics, running mean/var out */
  float momentum;
} wnn_chnorm_params;

/* LayerNormalization: X is rows x cols, normalizing each row (the dims from
 * axis on). Scale and B broadcast to the normalized dims (norm_ndim of them,
 * norm_dims); their strides there are in scale_strides / b_strides, 0 along
 * broadcast dims; scale_full / b_full say the tensor is exactly rows' shape. */
typedef struct wnn_layernorm_params {
  size_t rows, cols;
  float epsilon;
  int norm_ndim;
  size_t norm_dims[WNN_MAX_DIMS];
  size_t scale_strides[WNN_MAX_DIMS], b_strides[WNN_MAX_DIMS];
  bool scale_full, b_full;
  wnn_f32_layernorm_ukernel *rows_fn; /* Scale (and B) of the full row shape */
} wnn_layernorm_params;

/* LRN over channels: X is outer x channels x inner; a channel c sums the
 * squares of channels [c - before, c + after]. */
typedef struct wnn_lrn_params {
  size_t outer, channels, inner;
  size_t before, after;
  float alpha, beta, bias;
  int64_t size;
} wnn_lrn_params;

/* ConvTranspose, 1-D (height 1) and 2-D. Input plane in_h x in_w, output
 * plane out_h x out_w; pad_t / pad_l are the leading pads that crop the full
 * transposed output (negative never: ONNX pads are >= 0). Run: per image and
 * group, col = W_g^T * X_g by GEMM, then col2im adds col into Y. */
typedef struct wnn_convtranspose_params {
  int spatial;
  size_t batch, in_c, out_c, group;
  size_t in_h, in_w, out_h, out_w;
  size_t k_h, k_w, stride_h, stride_w, dil_h, dil_w;
  int64_t pad_t, pad_l;
  size_t in_d, out_d, k_d, stride_d, dil_d; /* 3-D: the depth; 1 otherwise */
  int64_t pad_f;
  wnn_window2d col_win;      /* col2im's view: Y planes as its in_h x in_w */
  wnn_f32_gemm_config gemm;
  wnn_f32_col2im_ukernel *col2im;
} wnn_convtranspose_params;

/* Resize. */
enum { WNN_RESIZE_NEAREST = 0, WNN_RESIZE_LINEAR = 1, WNN_RESIZE_CUBIC = 2 };
enum {
  WNN_RESIZE_HALF_PIXEL = 0,
  WNN_RESIZE_HALF_PIXEL_SYMMETRIC = 1,
  WNN_RESIZE_PYTORCH_HALF_PIXEL = 2,
  WNN_RESIZE_ALIGN_CORNERS = 3,
  WNN_RESIZE_ASYMMETRIC = 4,
  WNN_RESIZE_TF_CROP_AND_RESIZE = 5,
  WNN_RESIZE_TF_HALF_PIXEL_FOR_NN = 6 /* opset 11-12: (x + 0.5) / scale */
};
enum {
  WNN_NEAREST_ROUND_PREFER_FLOOR = 0,
  WNN_NEAREST_ROUND_PREFER_CEIL = 1,
  WNN_NEAREST_FLOOR = 2,
  WNN_NEAREST_CEIL = 3
};
/* Taps per output coordinate: 1 nearest, 2 linear, 4 cubic. */
#define WNN_RESIZE_MAX_TAPS 4
typedef struct wnn_resize_params {
  int mode, coord, nearest;
  int ndim;
  size_t in_dims[WNN_MAX_DIMS], out_dims[WNN_MAX_DIMS];
  double scales[WNN_MAX_DIMS];  /* per dim: out / in (from scales or sizes) */
  double lengths[WNN_MAX_DIMS]; /* per dim: the resized length, scale * in with scales
                                 * (not rounded, as ONNX's reference has it), out with sizes */
  bool roi_dim[WNN_MAX_DIMS];   /* tf_crop_and_resize: roi has entries for this dim */
  int roi_index[WNN_MAX_DIMS];  /* ...at roi[roi_index] and roi[roi_index + roi_half] */
  int roi_half;                 /* number of dims roi covers */
  float cubic_a, extrapolation;
  bool exclude_outside;
  wnn_f32_repeat_ukernel *repeat; /* nearest upsampling by an integer factor */
} wnn_resize_params;

/* 3-D pooling geometry: output (d, h, w) looks at input
 * out * stride - pad + k * dil along each dim. */
typedef struct wnn_pool3d_geom {
  size_t in[3], out[3], k[3], stride[3], dil[3], pad[3], pad_end[3];
} wnn_pool3d_geom;

/* MaxPool and AveragePool (src/ops/pool.c): the shared pool params first, so
 * that the pool helpers and the reference read them as wnn_pool_params
 * (pool.spatial is 3 for 3-D pooling, which uses g3 and a direct loop); then
 * MaxPool's optional Indices output (int64, flat input positions, column-major
 * within each plane with storage_order 1). */
typedef struct wnn_maxpool_params {
  wnn_pool_params pool;
  bool indices;
  bool col_major;
  wnn_pool3d_geom g3;
  wnn_x8_maxpool2d_ukernel *x8; /* uint8 / int8 without Indices */
} wnn_maxpool_params;

typedef struct wnn_avgpool_params {
  wnn_pool_params pool;
  wnn_pool3d_geom g3;
} wnn_avgpool_params;

/* Prepare helpers (src/ops/nn_common.c). An optional ints attribute of exactly
 * `want` values (with allow_nc, want + 2 with N and C first, which are
 * skipped), each in [lo, INT32_MAX]; absent: every value is dflt and *given
 * (when non-NULL) is false. */
wnn_status wnn_nn_attr_ints(wnn_prepare_ctx *ctx, const char *op, const char *name, int want,
                            int64_t lo, int64_t dflt, bool allow_nc, int64_t *out, bool *given);
enum { WNN_PAD_NOTSET, WNN_PAD_VALID, WNN_PAD_SAME_UPPER, WNN_PAD_SAME_LOWER };
/* auto_pad as WNN_PAD_*. */
wnn_status wnn_nn_auto_pad(wnn_prepare_ctx *ctx, const char *op, int *mode);
/* Input i of op, when present, must be float32 of shape dims (the message
 * names the input and both shapes). */
wnn_status wnn_nn_expect_f32_shape(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                                   int ndim, const int64_t *dims);
/* The fastest col2im variant that the build and `kernels` allow. */

/* GridSample, 2-D: X is n x c x h x w, grid n x out_h x out_w x 2 (x, y in
 * [-1, 1]). */
enum { WNN_GRID_LINEAR = 0, WNN_GRID_NEAREST = 1, WNN_GRID_CUBIC = 2 };
enum { WNN_GRID_ZEROS = 0, WNN_GRID_BORDER = 1, WNN_GRID_REFLECTION = 2 };
typedef struct wnn_gridsample_params {
  int mode, padding;
  bool align_corners;
  size_t n, c, h, w, out_h, out_w;
} wnn_gridsample_params;

/* MaxUnpool: Y (out_count elements, zero-filled) receives X[i] for each of
 * the in_count elements. I[i] is a flat position in the default unpooled shape
 * (dflt, from kernel, strides and pads); with an output_shape it lands at the
 * same coordinates in Y's shape (out), as ONNX's test data has it. */
typedef struct wnn_maxunpool_params {
  size_t in_count, out_count, dflt_count;
  int ndim;
  int64_t dflt[WNN_MAX_DIMS], out[WNN_MAX_DIMS];
} wnn_maxunpool_params;

/* Einsum: every label (letters, and each broadcast dim of the ellipsis) gets
 * an index; the first num_out are the output's dims in order, the rest are
 * summed. stride[i][l] is input i's element stride along label l (0 where it
 * lacks or broadcasts it; a label repeated within an input adds its strides:
 * a diagonal). */
#define WNN_EINSUM_MAX_INPUTS 3
#define WNN_EINSUM_MAX_LABELS 12
typedef struct wnn_einsum_params {
  int num_inputs, num_labels, num_out;
  int64_t size[WNN_EINSUM_MAX_LABELS];
  int64_t stride[WNN_EINSUM_MAX_INPUTS][WNN_EINSUM_MAX_LABELS];
} wnn_einsum_params;

/* Activation functions of the recurrent ops. */
enum { WNN_RNN_SIGMOID = 0, WNN_RNN_TANH = 1, WNN_RNN_RELU = 2 };

/* LSTM (gates = 4) and GRU (gates = 3). X is seq x batch x input (layout 0) or
 * batch x seq x input (layout 1); hidden size `hidden`. act holds the
 * activations of each direction: LSTM f, g, h; GRU f, g. */
typedef struct wnn_rnn_params {
  int gates;
  int directions;               /* 1 or 2 */
  bool reverse;                 /* one direction, run backwards */
  int layout;
  size_t seq, batch, input, hidden;
  float clip;                   /* INFINITY: no clipping */
  bool input_forget;            /* LSTM */
  bool linear_before_reset;     /* GRU */
  int act[2][3];
  wnn_f32_gemm_config gemm;
} wnn_rnn_params;

/* Where the recurrent ops (LSTM, GRU, RNN) keep things, for layout 0
 * ([seq, dirs, batch, hidden]) and layout 1 ([batch, seq, dirs, hidden]):
 * the row of X holding time step t of batch entry b, the offset of
 * (t, dir, b) in Y, and the offset of (dir, b) in Y_h / initial_h. */
static inline size_t wnn_rnn_x_row(int layout, size_t seq, size_t batch, size_t t, size_t b) {
  return layout ? b * seq + t : t * batch + b;
}
static inline size_t wnn_rnn_y_offset(int layout, size_t seq, size_t batch, size_t dirs,
                                      size_t hidden, size_t t, size_t dir, size_t b) {
  return (layout ? (b * seq + t) * dirs + dir : (t * dirs + dir) * batch + b) * hidden;
}
static inline size_t wnn_rnn_h_offset(int layout, size_t batch, size_t dirs, size_t hidden,
                                      size_t dir, size_t b) {
  return (layout ? b * dirs + dir : dir * batch + b) * hidden;
}

/* The activation `act` (WNN_RNN_*) of x. */
static inline float wnn_rnn_activate(int act, float x) {
  switch (act) {
    case WNN_RNN_TANH: return tanhf(x);
    case WNN_RNN_RELU: return x > 0.0f ? x : 0.0f;
    default: return 1.0f / (1.0f + expf(-x));
  }
}

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

/* MeanVarianceNormalization: statistics per kept coordinate (the dims not in
 * axes); kstride[d] is dim d's stride in the kept index (0 when reduced).
 * Scratch: 2 * kept doubles. */
typedef struct wnn_mvn_params {
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  size_t kstride[WNN_MAX_DIMS];
  size_t kept, count;       /* kept coordinates; elements per kept coordinate */
} wnn_mvn_params;

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

/* RoiAlign: X [n, c, h, w], rois [num_rois, 4] (x1, y1, x2, y2), batch
 * indices int64 [num_rois] (checked at run time). */
typedef struct wnn_roialign_params {
  size_t n, c, h, w, oh, ow, num_rois;
  int64_t sampling_ratio;
  float spatial_scale;
  bool half_pixel, max_mode;
} wnn_roialign_params;

#endif /* WNN_NN_INTERNAL_H */
