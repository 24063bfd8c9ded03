/*
 * What the quantization ops (src/ops/quant.c: QuantizeLinear,
 * DequantizeLinear, DynamicQuantizeLinear; src/ops/quant_gemm.c:
 * MatMulInteger, QLinearMatMul, DynamicQuantizeMatMul, ConvInteger,
 * QLinearConv) share with each other and with their references
 * (src/ref/ref_quant.c): the params structs and DynamicQuantizeLinear's
 * arithmetic.
 */
#ifndef WNN_QUANT_INTERNAL_H
#define WNN_QUANT_INTERNAL_H

#include <math.h>

#include "ops/op_internal.h"

/* QuantizeLinear and DequantizeLinear: per tensor (axis_n 1) or per axis,
 * the tensor viewed as outer x axis_n x inner; each run of inner elements is
 * one kernel call. Scale and zero point are read at run time (they need not
 * be constants). DynamicQuantizeLinear uses only the kernels. */
typedef struct wnn_quant_params {
  wnn_dtype qdtype;          /* the quantized side: uint8, int8 (or int32: Dequantize) */
  bool has_zero_point;
  size_t outer, axis_n, inner;
  wnn_q8_vcvt_config k;      /* chosen at prepare */
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
  bool dynamic;                        /* DynamicQuantizeMatMul: A float, y float */
  bool b_packed;                       /* B is [ceil(k/2), n, 2] (docs/quantization.md) */
  size_t b_block;                      /* packed B's column blocks (b_block), or 0: none */
  bool bzp_per_column, bscale_per_column; /* [n] zero points / scales of B */
  wnn_dtype a_dtype, b_dtype, y_dtype; /* y int32 (MatMulInteger), uint8 or int8, float32 */
  signed char in[WNN_Q_COUNT];         /* DynamicQuantizeMatMul: WNN_Q_BIAS is its float bias */
  wnn_f32_qrange_ukernel *qrange;      /* DynamicQuantizeMatMul: A's range */
  size_t m, n, k;
  int batch_ndim;
  size_t batch_dims[WNN_MAX_DIMS], a_bs[WNN_MAX_DIMS], b_bs[WNN_MAX_DIMS];
  /* The int8 GEMM path (src/ops/quant_gemm.c; int8 B with zero point 0):
   * byte offsets in the scratch of A packed as int16 rows, B packed as int8
   * K-pairs (unless b_packed), the int32 product (unless MatMulInteger,
   * which writes its output directly) and the per-column multipliers. */
  bool fast;
  bool fold; /* B is the same for every batch: the batches are one GEMM of rows * m rows */
  size_t s_a, s_b, s_acc, s_mult;
  wnn_qs8_gemm_config gemm;
} wnn_qmatmul_params;

/* ConvInteger and QLinearConv (1-D as height 1, and 2-D): x [N, C, H, W],
 * w [M, C/group, kH, kW]; w's zero point and scale are scalars or per output
 * channel ([M]); QLinearConv's bias is int32 [M]. */
typedef struct wnn_qconv_params {
  bool qlinear;
  wnn_dtype x_dtype, w_dtype, y_dtype;
  signed char in[WNN_Q_COUNT]; /* WNN_Q_A is x, WNN_Q_B is w */
  bool wzp_per_channel, wscale_per_channel;
  int32_t y_lo, y_hi; /* QLinearConv: the output's clamp (its dtype's range, or a fused Relu/Clip) */
  size_t group, batch, in_c, out_c;
  wnn_window2d win;
  /* How run computes (src/ops/quant_gemm.c): the plain loop, or the int8
   * GEMM over tiles of `tile` output pixels, packing x as it is (1x1,
   * stride 1, no padding) or by an im2col; byte offsets in the scratch of the
   * packed tile, the int32 tile (QLinearConv) and the per-channel
   * multipliers; or (depthwise QLinearConv) the int8 depthwise kernel per
   * plane. */
  int method; /* WNN_QCONV_* */
  size_t tile;
  size_t s_pack, s_acc, s_mult;
  wnn_qs8_gemm_config gemm;
  wnn_qs8_dwconv_ukernel *dwconv; /* WNN_QCONV_DEPTHWISE */
  /* WNN_QCONV_WINOGRAD (src/ops/qconv_winograd.c): the plan (tile grid,
   * blocks, strides between positions, scratch offsets) and the kernels;
   * s_acc and s_mult as above, gemm for the requantization. */
  struct {
    size_t tiles_h, tiles_w, rows, vs, ocb, cin_p, u_ps, v_ps, m_ps, ls;
    size_t s_u, s_v, s_m, s_lines;
    wnn_qs16_winograd_config k;
  } wino;
} wnn_qconv_params;
enum { WNN_QCONV_PLAIN = 0, WNN_QCONV_GEMM_1X1 = 1, WNN_QCONV_GEMM_IM2COL = 2,
       WNN_QCONV_DEPTHWISE = 3, WNN_QCONV_WINOGRAD = 4 };

/* The exact integer Winograd path of QLinearConv and ConvInteger
 * (src/ops/qconv_winograd.c). prepare: when p (group 1, int8 weights with
 * zero point 0, prepared up to its window) has a 3x3 stride-1 kernel the
 * path applies to, plans it, sets p->method, p->wino, p->s_acc and p->s_mult
 * and returns the scratch bytes; else 0 and p is unchanged. run: one whole
 * node; mult and rq as the GEMM path computes them (QLinearConv). */
size_t wnn_qconv_winograd_prepare(wnn_qconv_params *p, wnn_kernels kernels);
void wnn_qconv_winograd_run(const wnn_qconv_params *p, const uint8_t *x, const int8_t *w,
                            const int32_t *bias, void *y, char *scratch,
                            const wnn_q8_pack_params *pp, const float *mult,
                            const wnn_qs32_requant_params *rq);

/* B's element (k, j) of a packed B ([ceil(K/2), n, 2]: docs/quantization.md),
 * stored whole (block 0) or in column blocks of `block` columns, each block
 * [ceil(K/2)][its columns][2] after the previous one (the last one narrower
 * when block does not divide n). */
static inline size_t wnn_qpacked_index(size_t n, size_t K, size_t block, size_t k, size_t j) {
  const size_t j0 = block ? j / block * block : 0;
  const size_t w = block ? (n - j0 < block ? n - j0 : block) : n;
  return j0 * 2 * ((K + 1) / 2) + (k / 2) * 2 * w + 2 * (j - j0) + (k % 2);
}

/* DynamicQuantizeLinear's arithmetic (opset 11), shared by it and by
 * DynamicQuantizeMatMul:
 *   scale = (max(0, max x) - min(0, min x)) / 255
 *   zero_point = saturate(round_half_even(0 - min(0, min x) / scale))
 *   y = saturate(round_half_even(x / scale) + zero_point)
 * An all-zero (or empty) x has scale 0: zero point 0 and y 0 (ONNX divides by
 * it). NaN elements do not widen the range and quantize to 0. The zero point
 * comes back as a float holding an integer in [0, 255]. range: a selected
 * wnn_f32_qrange kernel (every variant gives the same range). */
void wnn_dynamic_quant_params(wnn_f32_qrange_ukernel *range, const float *x, size_t n, float *scale,
                              float *zero_point);

static inline float wnn_dynamic_quant_clamp(float q) {
  q = q > 0.0f ? q : 0.0f; /* NaN too */
  return q < 255.0f ? q : 255.0f;
}

static inline float wnn_dynamic_quant_value(float x, float scale, float zero_point) {
  return scale > 0.0f ? wnn_dynamic_quant_clamp(nearbyintf(x / scale) + zero_point) : 0.0f;
}

/* MatMulNBits (src/ops/quant_nbits.c): A [m, k] (leading dims folded into m)
 * times B's n dequantized rows, transposed. zp_row: bytes of packed zero
 * points per row of B; blob: bytes of codes per block. */
typedef struct wnn_matmulnbits_params {
  size_t m, n, k, block_size, n_blocks, blob, zp_row;
  int bits;
  bool has_zp, has_bias;
  wnn_f32_gemm_config gemm;
  wnn_q4_f32_dequant_ukernel *dequant4;
} wnn_matmulnbits_params;

/* One row of B (its codes, scales and packed zero points, or NULL for the
 * default 2^(bits - 1)) as k floats: (code - zp) * scale, for 2, 4 or 8 bits;
 * the plain loop the 4-bit kernel is tested against, and the reference's. */
void wnn_matmulnbits_dequant_row(int bits, size_t k, size_t block_size, const uint8_t *codes,
                                 const float *scales, const uint8_t *zp, float *out);
wnn_q4_f32_dequant_ukernel *wnn_select_q4_f32_dequant(wnn_kernels kernels);

#endif /* WNN_QUANT_INTERNAL_H */
