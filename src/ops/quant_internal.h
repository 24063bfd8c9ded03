/*
 * What the quantization ops (src/ops/quant.c: QuantizeLinear,
 * DequantizeLinear, DynamicQuantizeLinear, MatMulInteger, QLinearMatMul,
 * ConvInteger, QLinearConv) share with their references (src/ref/ref_quant.c):
 * the params structs.
 */
#ifndef WNN_QUANT_INTERNAL_H
#define WNN_QUANT_INTERNAL_H

#include "ops/op_internal.h"

/* QuantizeLinear and DequantizeLinear: per tensor (axis_n 1) or per axis,
 * the tensor viewed as outer x axis_n x inner. Scale and zero point are read
 * at run time (they need not be constants). */
typedef struct wnn_quant_params {
  wnn_dtype qdtype;          /* the quantized side: uint8, int8 (or int32: Dequantize) */
  bool has_zero_point;
  size_t outer, axis_n, inner;
} wnn_quant_params;

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

#endif /* WNN_QUANT_INTERNAL_H */
