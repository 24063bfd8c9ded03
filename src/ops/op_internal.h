/*
 * What the op files, the kernel selection and the reference implementations
 * share: each op's params struct (filled by prepare, read by run and by the
 * reference), prepare-time helpers, and kernel selection. Not used by the
 * runtime, which only sees the opaque WNN_MAX_PARAMS bytes of src/ops/op.h.
 */
#ifndef WNN_OP_INTERNAL_H
#define WNN_OP_INTERNAL_H

#include "kernels/kernels.h"
#include "ops/op.h"

#define WNN_PARAMS_FIT(type) \
  _Static_assert(sizeof(type) <= WNN_MAX_PARAMS, #type " must fit in WNN_MAX_PARAMS")

/* ------------------------------------------------------------------ GEMM */

/* The GEMM microkernels a node uses, chosen once at prepare
 * (wnn_select_f32_gemm): for each layout of B (WNN_GEMM_B_*), the kernel for
 * row panels of several rows and the one for a panel of a single row (the
 * same kernel when the list has no single-row variant), with their register
 * tiles. */
typedef struct wnn_f32_gemm_tile {
  wnn_f32_gemm_ukernel *fn;
  uint8_t mr, nr;
} wnn_f32_gemm_tile;
typedef struct wnn_f32_gemm_config {
  wnn_f32_gemm_tile tile[3][2]; /* [layout][single row] */
  wnn_x32_copy2d_ukernel *copy2d; /* packs B (wnn_f32_gemm_pack) */
} wnn_f32_gemm_config;

/* c = clamp(alpha * A B + beta * c + bias, min, max) over the whole m x n
 * matrix, in row panels of the kernels of g (the contract of
 * wnn_f32_gemm_ukernel in kernels/kernels.h, for any m, n, k). Outputs are
 * independent, so the result does not depend on which kernel computes them. */
void wnn_f32_gemm(const wnn_f32_gemm_config *g, size_t m, size_t n, size_t k, const float *a,
                  size_t a_rs, size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                  const float *bias, float *c, size_t c_rs, const wnn_f32_gemm_params *params);

/* wnn_f32_gemm that first copies a row-major B (b_cs == 1) into `pack`, each
 * column block contiguous, when wnn_f32_gemm_pack_bytes(m, n, k) is nonzero
 * (it is the size `pack` must have); otherwise, or with pack NULL, the same
 * as wnn_f32_gemm. The same bits either way: the kernels do the same
 * arithmetic, only B's row stride differs. Rows of B a whole power-of-two
 * apart share cache sets, so that a block read down k rows evicts itself
 * (an 8 KiB stride maps every row to one set); packed, each block is one
 * contiguous run that every row panel reads from cache. The size depends on
 * the shape only, so every build plans the same scratch. */
#define WNN_F32_GEMM_PACK_MIN_M 64
size_t wnn_f32_gemm_pack_bytes(size_t m, size_t n, size_t k);
void wnn_f32_gemm_pack(const wnn_f32_gemm_config *g, size_t m, size_t n, size_t k, const float *a,
                       size_t a_rs, size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                       const float *bias, float *c, size_t c_rs, const wnn_f32_gemm_params *params,
                       float *pack);

/* ------------------------------------------------------------- int8 GEMM */

/* The int8 GEMM's kernels a node uses (kernels.h, "int8 GEMM"), chosen once
 * at prepare (wnn_select_qs8_gemm): the two orientations with their register
 * tiles, the packing kernels and the epilogues. */
typedef struct wnn_qs8_gemm_config {
  wnn_qs8_gemm_ukernel *conv;
  wnn_qs8_gemm_pb_ukernel *pb;
  uint8_t conv_mr, conv_nr, pb_mr, pb_nr;
  wnn_q8_packk_ukernel *packk;
  wnn_q8_packrows_ukernel *packrows;
  wnn_s8_packk_ukernel *s8_packk;
  wnn_q8_im2col_ukernel *im2col;
  wnn_f32_qpackrows_ukernel *f32_packrows;
  wnn_qs32_requant_ukernel *requant;
  wnn_qs32_dequant_ukernel *dequant;
} wnn_qs8_gemm_config;

/* c = init + A B over a whole m x n int32 matrix (any k) in row panels of
 * g's kernels (src/ops/qgemm_driver.c): wnn_qs8_gemm in the conv orientation
 * (int8 A rows, int16 K-pairs B at row stride b_rs elements), wnn_qs8_gemm_pb
 * in the pb orientation (int16 A rows of k rounded up to even, int8 K-pairs
 * B at row stride b_rs bytes). init (per row) may be NULL. */
void wnn_qs8_gemm(const wnn_qs8_gemm_config *g, size_t m, size_t n, size_t k, const int8_t *a,
                  size_t a_rs, const int16_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                  size_t c_rs);
void wnn_qs8_gemm_pb(const wnn_qs8_gemm_config *g, size_t m, size_t n, size_t k, const int16_t *a,
                     size_t a_rs, const int8_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                     size_t c_rs);
/* The columns of B per block the pb driver walks for this k (a multiple of
 * 16): the importer stores packed weights in blocks of this width
 * (QLinearMatMul's and DynamicQuantizeMatMul's b_block), so each block the
 * kernels read is contiguous. */
size_t wnn_qs8_gemm_pb_block(size_t k);

/* The exact integer Winograd F(2x2, 3x3) kernels of QLinearConv and
 * ConvInteger (kernels.h, "int8 Winograd"), chosen once at prepare. */
typedef struct wnn_qs16_winograd_config {
  wnn_qs16_winograd_input_ukernel *input;
  wnn_qs16_winograd_weight_ukernel *weight;
  wnn_qs16_winograd_output_ukernel *output;
  wnn_qs16_gemm_ukernel *gemm;
  uint8_t gemm_mr, gemm_nr;
} wnn_qs16_winograd_config;

/* ------------------------------------------------------------ op params */

/* Conv. 1-D convolutions run as 2-D ones of height 1. The GEMM methods work
 * on tiles of `tile` output pixels (the last one ragged); an im2col tile's
 * K x tile panel is the op's scratch. act is the fused activation's kernel,
 * NULL when there is none or when it is folded into the GEMM's clamp
 * (gemm_min, gemm_max: Relu and Clip). */
enum { WNN_CONV_IM2COL = 0, WNN_CONV_DIRECT_GEMM = 1, WNN_CONV_DEPTHWISE = 2, WNN_CONV_WINOGRAD = 3 };
typedef struct wnn_conv_params {
  int spatial;              /* 1 or 2 */
  int method;               /* WNN_CONV_* */
  size_t group;
  size_t batch, in_c, out_c;
  wnn_window2d win;         /* strides, dilations and resolved pads */
  size_t tile;              /* output pixels per GEMM tile */
  bool pack;                /* direct GEMM: each tile's B packed into scratch */
  float gemm_min, gemm_max;
  wnn_f32_gemm_config gemm;
  wnn_f32_im2col_tile_ukernel *im2col_tile;
  wnn_f32_dwconv_ukernel *dwconv;
  wnn_f32_act_ukernel *act;
  wnn_kernels kernels;      /* as prepared, for methods that select at run time */
} wnn_conv_params;

/* Gemm: Y = alpha * A' * B' + beta * C. C broadcasts to (m, n) through strides
 * that are 0 along its broadcast dimensions. */
typedef struct wnn_gemm_params {
  size_t m, n, k;
  bool trans_a, trans_b;
  float alpha, beta;
  bool has_c;
  size_t c_rs, c_cs;
  wnn_f32_gemm_config gemm;
  wnn_f32_act_ukernel *act;  /* the fused activation's kernel; NULL when there is none */
} wnn_gemm_params;

/* MatMul: batched over the broadcast batch dimensions (batch_ndim of them,
 * possibly 0); a_bs and b_bs are each operand's element stride per batch
 * dimension, 0 where it broadcasts. */
typedef struct wnn_matmul_params {
  size_t m, n, k;
  int batch_ndim;
  size_t batch_dims[WNN_MAX_DIMS];
  size_t a_bs[WNN_MAX_DIMS], b_bs[WNN_MAX_DIMS];
  wnn_f32_gemm_config gemm;
  bool pack; /* B is packed into the scratch (wnn_f32_gemm_pack) */
} wnn_matmul_params;

/* Add, Sub, Mul, Div. The output is walked as `ndim` dimensions (size-1
 * dimensions dropped and contiguous runs merged), innermost last; a_strides and
 * b_strides are in elements, 0 where an operand broadcasts. The innermost run
 * calls vv (both strided 1), vc (b fixed) or rvc (a fixed; a and b then swap). */
enum { WNN_BINOP_ADD = 0, WNN_BINOP_SUB = 1, WNN_BINOP_MUL = 2, WNN_BINOP_DIV = 3 };
typedef union wnn_vbinary_fn {
  wnn_f32_vbinary_ukernel *f32;
  wnn_s32_vbinary_ukernel *s32;
  wnn_s64_vbinary_ukernel *s64;
} wnn_vbinary_fn;
typedef struct wnn_binary_params {
  int op;                   /* WNN_BINOP_* */
  wnn_dtype dtype;
  int ndim;
  size_t dims[WNN_MAX_DIMS];
  size_t a_strides[WNN_MAX_DIMS], b_strides[WNN_MAX_DIMS];
  wnn_vbinary_fn vv, vc, rvc;
} wnn_binary_params;

/* Relu, Sigmoid, Clip. Clip's bounds come from its attributes (opset < 11
 * style) or from inputs 1 and 2, read at run time since they need not be
 * constants; bounds.min/max hold the attribute values or +-INFINITY. */
typedef struct wnn_unary_params {
  wnn_f32_unary_params bounds;
  bool min_input, max_input; /* Clip: take that bound from the input */
  wnn_f32_vunary_ukernel *fn;
} wnn_unary_params;

/* MaxPool, AveragePool (spatial 1 or 2, 1-D as height 1) and
 * GlobalAveragePool (any spatial rank; planes x plane_size). */
typedef struct wnn_pool_params {
  int spatial;
  size_t planes;            /* N * C */
  size_t plane_size;        /* GlobalAveragePool: product of spatial dims */
  wnn_f32_pool2d_params pool;
  wnn_f32_pool2d_ukernel *fn;
  wnn_f32_gavgpool_ukernel *gavg;
} wnn_pool_params;

/* Transpose: output dim i is input dim perm[i]. */
typedef struct wnn_transpose_params {
  int ndim;
  int perm[WNN_MAX_DIMS];
  size_t elem_size;
} wnn_transpose_params;

/* Concat along axis (non-negative). */
typedef struct wnn_concat_params {
  int axis;
  size_t elem_size;
} wnn_concat_params;

/* Softmax over the axis dimension: outer x n x inner, reducing over n. */
typedef struct wnn_softmax_params {
  int axis;
  size_t outer, n, inner;
  wnn_f32_softmax_ukernel *fn;
} wnn_softmax_params;

/* ------------------------------------------------------ prepare helpers */

/* Fails with WNN_ERR_DTYPE unless input i is of dtype want:
 * "Conv: input 1 (W) is int64, expected float32". */
wnn_status wnn_expect_dtype(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                            wnn_dtype want);
/* Fails with WNN_ERR_SHAPE unless input i has ndim dims. */
wnn_status wnn_expect_ndim(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                           int ndim);
/* True when input i is present (an omitted optional input has dtype INVALID). */
bool wnn_has_input(const wnn_prepare_ctx *ctx, int i);

/* outer x n x inner around axis ax of t (CumSum, Hardmax, per-axis quantization). */
void wnn_split_axis(const wnn_tdesc *t, int ax, size_t *outer, size_t *n, size_t *inner);

/* Sets output i and checks that its byte size fits this target. */
wnn_status wnn_set_output(wnn_prepare_ctx *ctx, const char *op, int i, wnn_dtype dtype,
                          int ndim, const int64_t *dims);

/* An integer attribute that must be 0 or 1 (transA, ceil_mode, ...); absent is 0. */
wnn_status wnn_attr_bool(wnn_prepare_ctx *ctx, const char *op, const char *name, bool *out);

/* Normalizes an axis attribute in [-rank, rank) (or [-rank, rank] when
 * inclusive) to [0, rank); fails with WNN_ERR_BAD_ATTRIBUTE naming it. */
wnn_status wnn_normalize_axis(wnn_prepare_ctx *ctx, const char *op, const char *attr,
                              int64_t axis, int rank, bool inclusive, int *out);

/* Sliding-window geometry shared by Conv and the pools: the caller fills
 * spatial, in and kernel; wnn_window_prepare reads strides, dilations, pads and
 * auto_pad, checks them and fills the rest. Dimensions are at most INT32_MAX. */
typedef struct wnn_window_spec {
  int spatial;              /* 1 or 2 */
  int64_t in[2], kernel[2];
  bool ceil_mode;
  bool pads_below_kernel;   /* pools: every pad must be smaller than the kernel */
  int64_t stride[2], dil[2], pad_begin[2], pad_end[2], out[2];
} wnn_window_spec;

wnn_status wnn_window_prepare(wnn_prepare_ctx *ctx, const char *op, wnn_window_spec *spec);
/* The kernel geometry of a prepared spec; 1-D as height 1. */
wnn_window2d wnn_window_to_2d(const wnn_window_spec *spec);

/* ------------------------------------------------------ kernel selection */

/* The fastest variant of a family that the build and `kernels` allow (see
 * kernels.inc). Never NULL for a family and operation the list has. */
wnn_f32_gemm_config wnn_select_f32_gemm(wnn_kernels kernels);
wnn_qs8_gemm_config wnn_select_qs8_gemm(wnn_kernels kernels);
wnn_qs16_winograd_config wnn_select_qs16_winograd(wnn_kernels kernels);
wnn_f32_im2col_ukernel *wnn_select_f32_im2col(wnn_kernels kernels);
wnn_f32_im2col_tile_ukernel *wnn_select_f32_im2col_tile(wnn_kernels kernels);
wnn_f32_act_ukernel *wnn_select_f32_act(wnn_kernels kernels);
wnn_f32_dwconv_ukernel *wnn_select_f32_dwconv(wnn_kernels kernels);
wnn_f32_repeat_ukernel *wnn_select_f32_repeat(wnn_kernels kernels);
wnn_f32_col2im_ukernel *wnn_select_f32_col2im(wnn_kernels kernels);
wnn_f32_layernorm_ukernel *wnn_select_f32_layernorm(wnn_kernels kernels);
wnn_x32_transpose_ukernel *wnn_select_x32_transpose(wnn_kernels kernels);
wnn_x32_copy2d_ukernel *wnn_select_x32_copy2d(wnn_kernels kernels);
wnn_f16_f32_vcvt_ukernel *wnn_select_f16_f32_vcvt(wnn_kernels kernels);
wnn_f32_f16_vcvt_ukernel *wnn_select_f32_f16_vcvt(wnn_kernels kernels);
wnn_f32_vunary_ukernel *wnn_select_f32_vunary(wnn_kernels kernels, int op);
wnn_f32_pool2d_ukernel *wnn_select_f32_pool2d(wnn_kernels kernels, int op);
wnn_x8_maxpool2d_ukernel *wnn_select_x8_maxpool2d(wnn_kernels kernels); /* uint8 / int8 MaxPool */
wnn_f32_gavgpool_ukernel *wnn_select_f32_gavgpool(wnn_kernels kernels);

/* GlobalAveragePool's and GlobalMaxPool's shape rules (src/ops/pool.c),
 * shared with QLinearGlobalAveragePool: input 0 of rank >= 3 and a non-empty
 * plane; out gets [N, C, 1, ...], plane the elements of one N*C plane. */
wnn_status wnn_global_pool_shape(wnn_prepare_ctx *ctx, const char *op, int64_t *out,
                                 int64_t *plane);
wnn_f32_softmax_ukernel *wnn_select_f32_softmax(wnn_kernels kernels);
/* binop: WNN_BINOP_*; kind: WNN_KIND_*. NULL when the list lacks the row
 * (add and mul have no RVC: they commute). */
enum { WNN_KIND_VV = 0, WNN_KIND_VC = 1, WNN_KIND_RVC = 2 };
wnn_vbinary_fn wnn_select_vbinary(wnn_kernels kernels, wnn_dtype dtype, int binop, int kind);

/* The int8 element-wise kernels of QuantizeLinear, DequantizeLinear and
 * DynamicQuantizeLinear, and the int8 depthwise convolution of QLinearConv. */
typedef struct wnn_q8_vcvt_config {
  wnn_f32_qu8_vcvt_ukernel *f32_qu8;
  wnn_f32_qs8_vcvt_ukernel *f32_qs8;
  wnn_qu8_f32_vcvt_ukernel *qu8_f32;
  wnn_qs8_f32_vcvt_ukernel *qs8_f32;
  wnn_s32_f32_vcvt_ukernel *s32_f32;
  wnn_f32_qrange_ukernel *qrange;
} wnn_q8_vcvt_config;
wnn_q8_vcvt_config wnn_select_q8_vcvt(wnn_kernels kernels);
wnn_qs8_dwconv_ukernel *wnn_select_qs8_dwconv(wnn_kernels kernels);

enum { WNN_UNARY_RELU = 0, WNN_UNARY_CLAMP = 1, WNN_UNARY_SIGMOID = 2 };
enum { WNN_POOL_MAX = 0, WNN_POOL_AVG = 1 };

#endif /* WNN_OP_INTERNAL_H */
