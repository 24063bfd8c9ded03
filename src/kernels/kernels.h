/*
 * Microkernels: plain functions on pointers, sizes, strides and a params
 * struct. No tensors, no allocation, no failure. Sizes and strides count
 * elements, not bytes. Each family has a function type (wnn_*_ukernel); every
 * variant is declared from kernels.inc with that type, so a variant cannot
 * drift from its family's signature.
 *
 * Element-wise kernels (vbinary, vunary) are in-place safe: y may be the same
 * pointer as any input. The others need outputs that overlap no input.
 */
#ifndef WNN_KERNELS_H
#define WNN_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------- GEMM */

/* One row panel of
 *   c[i][j] = clamp(alpha * sum_p a[i][p] * b[p][j] + beta * c[i][j] + bias[i],
 *                   min, max)
 * for i < mr, j < nc, p < k, where
 *   a[i][p] = a[i * a_rs + p * a_cs]   (transposed A: swap the strides)
 *   b[p][j] = b[p * b_rs + j * b_cs]
 *   c[i][j] = c[i * c_rs + j].
 * A variant named ..._MRxNR takes at most MR rows (1 <= mr <= MR) and any
 * nc >= 1, and computes them in MR x NR register tiles from left to right (a
 * ragged last tile with fewer columns). Its layout (kernels.inc) says which B
 * it reads: ROWS needs b_cs == 1 (row-major B: Conv's im2col and 1x1,
 * MatMul), COLS needs b_rs == 1 (B transposed: Gemm with transB), ANY takes
 * any strides. Every variant sums each output from 0 over k in increasing
 * order, one rounded multiply and one rounded add per step, then the same
 * epilogue, so all variants give the same bits. With beta == 0, c is not read
 * (it may hold anything, NaN included). bias may be NULL (no bias); otherwise
 * it has mr entries (Conv's per-channel bias: one per row of c). k == 0
 * leaves only the bias and beta terms. The driver that walks a whole matrix
 * in panels and column blocks is wnn_f32_gemm (src/ops/gemm_driver.c). */
typedef struct wnn_f32_gemm_params {
  float alpha, beta;
  float min, max;  /* -INFINITY, INFINITY: no clamp */
} wnn_f32_gemm_params;

typedef void wnn_f32_gemm_ukernel(size_t mr, size_t nc, size_t k, const float *a, size_t a_rs,
                                  size_t a_cs, const float *b, size_t b_rs, size_t b_cs,
                                  const float *bias, float *c, size_t c_rs,
                                  const wnn_f32_gemm_params *params);

/* A single-row panel (M = 1: a matrix-vector product) over at least
 * WNN_F32_GEMM_ROW_STREAM_MIN columns of row-major B with beta == 0:
 * wnn_f32_gemm_1x16__wasmsimd streams B row by row, keeping its sums in c;
 * the driver gives single-row panels WNN_F32_GEMM_ROW_NC columns per call in
 * the SIMD128 builds (docs/kernels.md, "Matrix-vector products"). */
#define WNN_F32_GEMM_ROW_STREAM_MIN 64
#define WNN_F32_GEMM_ROW_NC 256

/* The layouts of B in kernels.inc's GEMM rows. */
enum { WNN_GEMM_B_ANY = 0, WNN_GEMM_B_ROWS = 1, WNN_GEMM_B_COLS = 2 };

/* ------------------------------------------------------ sliding windows (2-D) */

/* The geometry of a 2-D sliding window over one plane of in_h x in_w: output
 * pixel (oy, ox) looks at input rows oy * stride_h - pad_t + ky * dil_h, for
 * ky < k_h, and likewise for columns. 1-D ops use in_h = out_h = k_h = 1. */
typedef struct wnn_window2d {
  size_t in_h, in_w, out_h, out_w;
  size_t k_h, k_w;
  size_t stride_h, stride_w, dil_h, dil_w;
  size_t pad_t, pad_l, pad_b, pad_r;
} wnn_window2d;

/* Lays out `channels` planes of x (channels x in_h x in_w) as the matrix
 * col[(c * k_h + ky) * k_w + kx][oy * out_w + ox], zeros where the window is
 * in the padding, so a convolution becomes W (M x channels*k_h*k_w) times col. */
typedef void wnn_f32_im2col_ukernel(size_t channels, const float *x, float *col,
                                    const wnn_window2d *win);

/* Columns [p0, p0 + np) of that matrix (output pixels p0 .. p0 + np - 1,
 * numbered oy * out_w + ox) as a K x np matrix: col[r * np + j] is element
 * [r][p0 + j]. Conv's tiles: a panel of a few hundred pixels that stays in
 * cache while the GEMM reads it. p0 + np <= out_h * out_w. */
typedef void wnn_f32_im2col_tile_ukernel(size_t channels, const float *x, size_t p0, size_t np,
                                         float *col, const wnn_window2d *win);

/* Depthwise convolution, one filter per channel:
 * y[c][oy][ox] = bias[c] + sum_{ky,kx} w[c][ky][kx] * x[c][iy][ix]
 * with zeros in the padding. bias may be NULL. */
typedef void wnn_f32_dwconv_ukernel(size_t channels, const float *x, const float *w,
                                    const float *bias, float *y, const wnn_window2d *win);

/* Nearest upsampling of a row by an integer factor k >= 1 (Resize):
 * y[i * k + j] = x[i] for i < n, j < k, copied bit for bit. y does not
 * overlap x. */
typedef void wnn_f32_repeat_ukernel(size_t n, size_t k, const float *x, float *y);

/* Pooling of `planes` planes of x (planes x in_h x in_w) into y
 * (planes x out_h x out_w). Max ignores the padding (a window with no input
 * element gives -INFINITY). Average divides by the number of input elements in
 * the window, or with count_include_pad by the number of window positions
 * inside the padded input (in + pads). */
typedef struct wnn_f32_pool2d_params {
  wnn_window2d win;
  bool count_include_pad;
} wnn_f32_pool2d_params;

typedef void wnn_f32_pool2d_ukernel(size_t planes, const float *x, float *y,
                                    const wnn_f32_pool2d_params *params);

/* y[r] = mean of x[r * n .. r * n + n - 1], for r < rows. n > 0. */
typedef void wnn_f32_gavgpool_ukernel(size_t rows, size_t n, const float *x, float *y);

/* Softmax of the n elements x[0], x[stride], ..., x[(n-1) * stride] into y at
 * the same offsets. n > 0. In-place safe (y == x). */
typedef void wnn_f32_softmax_ukernel(size_t n, size_t stride, const float *x, float *y);

/* ------------------------------------------------------------- element-wise */

/* VV: y[i] = a[i] op b[i]; VC: y[i] = a[i] op b[0]; RVC: y[i] = b[0] op a[i].
 * Integer kernels wrap on overflow (two's complement) and give 0 for a
 * division by zero; integer division truncates toward zero. */
typedef void wnn_f32_vbinary_ukernel(size_t n, const float *a, const float *b, float *y);
typedef void wnn_s32_vbinary_ukernel(size_t n, const int32_t *a, const int32_t *b, int32_t *y);
typedef void wnn_s64_vbinary_ukernel(size_t n, const int64_t *a, const int64_t *b, int64_t *y);

/* y[i] = f(x[i]). CLAMP: min(max(x, min), max), NaN stays NaN; RELU: max(x, 0)
 * (params unused, may be NULL); SIGMOID: 1 / (1 + exp(-x)) (params unused). */
typedef struct wnn_f32_unary_params {
  float min, max;
} wnn_f32_unary_params;

typedef void wnn_f32_vunary_ukernel(size_t n, const float *x, float *y,
                                    const wnn_f32_unary_params *params);

/* The activation Conv and Gemm fuse after their bias, in place on a block of
 * `rows` rows of n elements, row i at y + i * y_rs:
 *   RELU         x < 0 ? 0 : x                 (NaN stays NaN, as the Relu op)
 *   CLIP         min(max(x, p0), p1) by comparisons (NaN stays NaN)
 *   SIGMOID      1 / (1 + exp(-x))
 *   HARDSIGMOID  clamp(p0 * x + p1, 0, 1)
 *   HARDSWISH    x * clamp(x / 6 + 0.5, 0, 1)
 *   LEAKYRELU    x < 0 ? p0 * x : x
 *   SILU         x * sigmoid(x), sigmoid as above (Mul(x, Sigmoid(x)))
 * NONE leaves y alone. Every variant computes the same bits as the scalar one
 * except SIGMOID and SILU (a polynomial exp in SIMD128, as the Sigmoid op's
 * SIMD128 kernel: within 2.5 ulp). */
enum {
  WNN_ACT_NONE = 0,
  WNN_ACT_RELU,
  WNN_ACT_CLIP,
  WNN_ACT_SIGMOID,
  WNN_ACT_HARDSIGMOID,
  WNN_ACT_HARDSWISH,
  WNN_ACT_LEAKYRELU,
  WNN_ACT_SILU
};
typedef struct wnn_f32_act_params {
  int kind;        /* WNN_ACT_* */
  float p0, p1;    /* Clip min/max, HardSigmoid alpha/beta, LeakyRelu alpha */
} wnn_f32_act_params;

typedef void wnn_f32_act_ukernel(size_t rows, size_t n, float *y, size_t y_rs,
                                 const wnn_f32_act_params *params);

/* The loader's FILL params (docs/format.md, "Param codecs"): y[i] =
 * pattern[i % 16] for i < nbytes, pattern being one element repeated (its size
 * divides 16). y need not be aligned. */
typedef void wnn_xx_fill_ukernel(size_t nbytes, const uint8_t *pattern, uint8_t *y);

/* --------------------------------------------------------------- int8 GEMM */

/* The int8 GEMM of the quantized ops (docs/quantization.md, "Kernels"): int32
 * C = init + A B with both operands as int16 pairs along k, so that one
 * i32x4.dot_i16x8_s does 8 multiply-adds. A packed matrix of K-pairs holds
 * element (k, j) at p[(k / 2) * rs + 2 * j + k % 2], and 0 in slot 1 of the
 * last pair when K is odd. Arithmetic is int32 and wraps (two's complement);
 * the ops keep K small enough that it never does (|a b| <= 255 * 128).
 *
 * Conv orientation (QLinearConv, ConvInteger: C[output channel][pixel]):
 *   c[i * c_rs + j] = init[i] + sum_{k < kc} a[i * a_rs + k] * B(k, j)
 * for i < mr, j < nc; A int8 rows (the weights as ONNX lays them out; when kc
 * is odd a[i * a_rs + kc] is not read), B int16 K-pairs at row stride b_rs
 * (>= 2 nc elements). init may be NULL (0).
 *
 * "pb" orientation (QLinearMatMul, MatMulInteger, DynamicQuantizeMatMul:
 * C[row of A][column of B], B the packed int8 weights):
 *   c[i * c_rs + j] = init[i] + sum_{k < kc} a[i * a_rs + k] * B(k, j)
 * A int16 rows with kc rounded up to even (the pad element is 0 and is read),
 * B int8 K-pairs at row stride b_rs bytes (>= 2 nc).
 *
 * A variant named ..._MRxNR computes at most MR rows (1 <= mr <= MR) and any
 * nc >= 1 in MR x NR register tiles; kc >= 1. The whole-matrix drivers are in
 * src/ops/qgemm_driver.c. */
typedef void wnn_qs8_gemm_ukernel(size_t mr, size_t nc, size_t kc, const int8_t *a, size_t a_rs,
                                  const int16_t *b, size_t b_rs, const int32_t *init, int32_t *c,
                                  size_t c_rs);
typedef void wnn_qs8_gemm_pb_ukernel(size_t mr, size_t nc, size_t kc, const int16_t *a,
                                     size_t a_rs, const int8_t *b, size_t b_rs,
                                     const int32_t *init, int32_t *c, size_t c_rs);

/* How packing reads 8-bit values: x - zero_point, x as int8 when s8, else as
 * uint8 (the result is in [-255, 255]). */
typedef struct wnn_q8_pack_params {
  int32_t zero_point;
  bool s8;
} wnn_q8_pack_params;

/* k rows of n 8-bit values (row r at x + r * x_rs) into int16 K-pairs:
 * y[(r / 2) * y_rs + 2 * j + r % 2] = x[r][j] - zero_point, and 0 in slot 1
 * of the last pair when k is odd (a 1x1 convolution's input: rows = input
 * channels, columns = pixels). y_rs >= 2 n. */
typedef void wnn_q8_packk_ukernel(size_t k, size_t n, const uint8_t *x, size_t x_rs, int16_t *y,
                                  size_t y_rs, const wnn_q8_pack_params *p);

/* `rows` rows of k 8-bit values into int16 rows with k rounded up to even:
 * y[i * y_rs + c] = x[i * x_rs + c] - zero_point for c < k, and
 * y[i * y_rs + k] = 0 when k is odd (the A side of the pb orientation). */
typedef void wnn_q8_packrows_ukernel(size_t rows, size_t k, const uint8_t *x, size_t x_rs,
                                     int16_t *y, size_t y_rs, const wnn_q8_pack_params *p);

/* k rows of n int8 into int8 K-pairs, unchanged:
 * y[(r / 2) * y_rs + 2 * j + r % 2] = x[r * x_rs + j], 0 in slot 1 of the last
 * pair when k is odd (the pb orientation's B when it is not a constant). */
typedef void wnn_s8_packk_ukernel(size_t k, size_t n, const int8_t *x, size_t x_rs, int8_t *y,
                                  size_t y_rs);

/* The im2col of a convolution's `channels` planes of 8-bit x (channels x in_h
 * x in_w), pixels [p0, p0 + np) (numbered oy * out_w + ox), as int16 K-pairs
 * minus the zero point: row r = (c * k_h + ky) * k_w + kx, column j,
 * y[(r / 2) * 2 np + 2 j + r % 2]; window taps in the padding are 0 (the zero
 * point, subtracted), as is slot 1 of the last pair when K is odd. */
typedef void wnn_q8_im2col_ukernel(size_t channels, const uint8_t *x, size_t p0, size_t np,
                                   int16_t *y, const wnn_window2d *win,
                                   const wnn_q8_pack_params *p);

/* Float rows quantized as DynamicQuantizeLinear does with the given scale and
 * zero point, then packed as int16 rows minus the zero point (the pb
 * orientation's A):
 *   q = scale > 0 ? clamp(nearbyintf(x / scale) + zero_point, 0, 255) : 0
 * (by comparisons, NaN -> 0), y[i * y_rs + c] = q - zero_point for c < k,
 * y[i * y_rs + k] = 0 when k is odd. */
typedef void wnn_f32_qpackrows_ukernel(size_t rows, size_t k, const float *x, size_t x_rs,
                                       int16_t *y, size_t y_rs, float scale, float zero_point);

/* Requantization of int32 rows to 8 bits, one scale per row (s = scale[i];
 * QLinearConv's output channels) or per column (s = scale[j], with
 * per_column; QLinearMatMul's columns):
 *   v = nearbyintf((float)acc[i][j] * s) + zero_point,
 *   v = v > lo ? v : lo, v = v < hi ? v : hi        (NaN -> lo)
 * stored as int8 (s8) or uint8 at y + i * y_rs + j; lo and hi are whole
 * numbers inside the type's range (a fused Relu or Clip narrows them). */
typedef struct wnn_qs32_requant_params {
  float zero_point, lo, hi;
  bool s8;
  bool per_column;
} wnn_qs32_requant_params;
typedef void wnn_qs32_requant_ukernel(size_t rows, size_t n, const int32_t *acc, size_t acc_rs,
                                      const float *scale, void *y, size_t y_rs,
                                      const wnn_qs32_requant_params *p);

/* Dequantization of int32 rows to float, one scale (and bias) per column:
 *   y[i * y_rs + j] = (float)acc[i * acc_rs + j] * scale[j] + bias[j]
 * (without the add when bias is NULL). */
typedef void wnn_qs32_dequant_ukernel(size_t rows, size_t n, const int32_t *acc, size_t acc_rs,
                                      const float *scale, const float *bias, float *y,
                                      size_t y_rs);
/* ------------------------------------------------------- quantization (int8) */

/* QuantizeLinear (and DynamicQuantizeLinear's last step, uint8):
 *   y[i] = clamp(nearbyintf(x[i] / scale) + zero_point, lo, hi)
 * with [lo, hi] the output type's range ([0, 255] uint8, [-128, 127] int8),
 * in float32: a division (not a multiply by the reciprocal), rounding half to
 * even, the clamp by comparisons so that NaN gives lo. zero_point is a float
 * holding an integer of the output type. Every variant gives these bits. */
typedef struct wnn_f32_q8_cvt_params {
  float scale, zero_point;
} wnn_f32_q8_cvt_params;

typedef void wnn_f32_qu8_vcvt_ukernel(size_t n, const float *x, uint8_t *y,
                                      const wnn_f32_q8_cvt_params *params);
typedef void wnn_f32_qs8_vcvt_ukernel(size_t n, const float *x, int8_t *y,
                                      const wnn_f32_q8_cvt_params *params);

/* DequantizeLinear: y[i] = (float)(x[i] - zero_point) * scale, the
 * difference exact (as int64 for int32 x) and rounded to float once. */
typedef struct wnn_q8_f32_cvt_params {
  int32_t zero_point;  /* of x's type */
  float scale;
} wnn_q8_f32_cvt_params;

typedef void wnn_qu8_f32_vcvt_ukernel(size_t n, const uint8_t *x, float *y,
                                      const wnn_q8_f32_cvt_params *params);
typedef void wnn_qs8_f32_vcvt_ukernel(size_t n, const int8_t *x, float *y,
                                      const wnn_q8_f32_cvt_params *params);
typedef void wnn_s32_f32_vcvt_ukernel(size_t n, const int32_t *x, float *y,
                                      const wnn_q8_f32_cvt_params *params);

/* DynamicQuantizeLinear's range: *min = the least of 0 and x[0..n), *max =
 * the greatest, NaN elements skipped; a zero result is +0. */
typedef void wnn_f32_qrange_ukernel(size_t n, const float *x, float *min, float *max);

/* Depthwise convolution of one channel plane (QLinearConv with group == C ==
 * M), x uint8 or int8, int8 weights w[k_h * k_w] with zero point 0:
 *   acc = bias + sum over the taps inside the input of (x - x_zero_point) * w
 * (taps in the padding add nothing: they hold the zero point), then
 *   y = clamp(nearbyintf((float)acc * scale) + y_zero_point, y_min, y_max)
 * in float32 (NaN gives y_min), acc exact (as int64). y_min and y_max are the
 * output type's range or narrower (a fused Relu or Clip). y is out_h x out_w,
 * uint8 or int8. */
typedef struct wnn_qs8_dwconv_params {
  wnn_window2d win;
  int32_t x_zero_point;
  bool x_signed, y_signed;  /* int8 (else uint8) */
  float y_zero_point, y_min, y_max;
} wnn_qs8_dwconv_params;

typedef void wnn_qs8_dwconv_ukernel(const void *x, const int8_t *w, int32_t bias, float scale,
                                    void *y, const wnn_qs8_dwconv_params *params);

/* ----------------------------------------------------------- int8 Winograd */

/* Exact integer Winograd F(2x2, 3x3) (QLinearConv and ConvInteger, 3x3
 * stride 1; src/ops/qconv_winograd.c has the derivation and the range
 * proof). Positions xi = 4 i + j of the 4 x 4 transformed tiles, each its own
 * plane at stride v_ps, u_ps, m_ps elements. Every sum wraps modulo 2^32 (the
 * op proves the true results fit), so every variant gives the same bits.
 *
 * Input: V = B^T d B, B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1], for
 * tiles t < round_up(n, 8) of 2 channels c: d[r][j] = lines[(4 c + r) * ls +
 * 2 t + j] - zero_point (bytes read as int8 when s8, else uint8; each line
 * holds 2 round_up(n, 8) + 2 readable bytes), stored as K-pairs:
 * v[xi * v_ps + 2 t + c]. |V| <= 4 * 255.
 * Weights: U = (2G) g (2G)^T = 4 G g G^T, 2G = [2 0 0; 1 1 1; 1 -1 1; 0 0 2],
 * for `rows` 3x3 kernels g = w + 9 r: u[xi * u_ps + r]. |U| <= 9 * 128.
 * GEMM: c[i * c_rs + j] = sum_{q < kp} a[i * a_rs + 2 q] b[q * b_rs + 2 j] +
 * a[i * a_rs + 2 q + 1] b[q * b_rs + 2 j + 1], int16 operands, for i < mr
 * (at most the variant's MR) and j < nc (a multiple of 8).
 * Output: Y = A^T M A / 4 + bias[c], A^T = [1 1 1 0; 0 1 -1 -1], of tiles t <
 * n of `channels` channels (M at m[xi * m_ps + c * m_cs + t], read for t up
 * to round_up(n, 4), the values past n unused) into
 * y[c * y_cs + i * y_rs + 2 t + j] for output rows i < rows (1 or 2) and
 * columns 2 t + j < cols; the division is an arithmetic shift (exact when
 * A^T M A is 4 times the direct convolution's sum, as it is when that sum
 * fits). bias may be NULL (0). */
typedef void wnn_qs16_winograd_input_ukernel(size_t n, const uint8_t *lines, size_t ls,
                                             int16_t *v, size_t v_ps,
                                             const wnn_q8_pack_params *p);
typedef void wnn_qs16_winograd_weight_ukernel(size_t rows, const int8_t *w, int16_t *u,
                                              size_t u_ps);
typedef void wnn_qs16_gemm_ukernel(size_t mr, size_t nc, size_t kp, const int16_t *a, size_t a_rs,
                                   const int16_t *b, size_t b_rs, int32_t *c, size_t c_rs);
typedef void wnn_qs16_winograd_output_ukernel(size_t channels, size_t n, size_t cols, size_t rows,
                                              const int32_t *m, size_t m_ps, size_t m_cs,
                                              const int32_t *bias, int32_t *y, size_t y_rs,
                                              size_t y_cs);

/* ------------------------------------------------------------ declarations */

#define WNN_F32_GEMM(name, isa, mr, nr, layout) wnn_f32_gemm_ukernel name;
#define WNN_F32_IM2COL(name, isa) wnn_f32_im2col_ukernel name;
#define WNN_F32_IM2COL_TILE(name, isa) wnn_f32_im2col_tile_ukernel name;
#define WNN_F32_DWCONV(name, isa) wnn_f32_dwconv_ukernel name;
#define WNN_F32_REPEAT(name, isa) wnn_f32_repeat_ukernel name;
#define WNN_F32_VBINARY(name, isa, op, kind) wnn_f32_vbinary_ukernel name;
#define WNN_S32_VBINARY(name, isa, op, kind) wnn_s32_vbinary_ukernel name;
#define WNN_S64_VBINARY(name, isa, op, kind) wnn_s64_vbinary_ukernel name;
#define WNN_F32_VUNARY(name, isa, op) wnn_f32_vunary_ukernel name;
#define WNN_F32_ACT(name, isa) wnn_f32_act_ukernel name;
#define WNN_F32_POOL2D(name, isa, op) wnn_f32_pool2d_ukernel name;
#define WNN_F32_GAVGPOOL(name, isa) wnn_f32_gavgpool_ukernel name;
#define WNN_F32_SOFTMAX(name, isa) wnn_f32_softmax_ukernel name;
#define WNN_XX_FILL(name, isa) wnn_xx_fill_ukernel name;
#define WNN_QS8_GEMM(name, isa, mr, nr) wnn_qs8_gemm_ukernel name;
#define WNN_QS8_GEMM_PB(name, isa, mr, nr) wnn_qs8_gemm_pb_ukernel name;
#define WNN_Q8_PACKK(name, isa) wnn_q8_packk_ukernel name;
#define WNN_Q8_PACKROWS(name, isa) wnn_q8_packrows_ukernel name;
#define WNN_S8_PACKK(name, isa) wnn_s8_packk_ukernel name;
#define WNN_Q8_IM2COL(name, isa) wnn_q8_im2col_ukernel name;
#define WNN_F32_QPACKROWS(name, isa) wnn_f32_qpackrows_ukernel name;
#define WNN_QS32_REQUANT(name, isa) wnn_qs32_requant_ukernel name;
#define WNN_QS32_DEQUANT(name, isa) wnn_qs32_dequant_ukernel name;
#define WNN_F32_QU8_VCVT(name, isa) wnn_f32_qu8_vcvt_ukernel name;
#define WNN_F32_QS8_VCVT(name, isa) wnn_f32_qs8_vcvt_ukernel name;
#define WNN_QU8_F32_VCVT(name, isa) wnn_qu8_f32_vcvt_ukernel name;
#define WNN_QS8_F32_VCVT(name, isa) wnn_qs8_f32_vcvt_ukernel name;
#define WNN_S32_F32_VCVT(name, isa) wnn_s32_f32_vcvt_ukernel name;
#define WNN_F32_QRANGE(name, isa) wnn_f32_qrange_ukernel name;
#define WNN_QS8_DWCONV(name, isa) wnn_qs8_dwconv_ukernel name;
#define WNN_QS16_GEMM(name, isa, mr, nr) wnn_qs16_gemm_ukernel name;
#define WNN_QS16_WINOGRAD_INPUT(name, isa) wnn_qs16_winograd_input_ukernel name;
#define WNN_QS16_WINOGRAD_WEIGHT(name, isa) wnn_qs16_winograd_weight_ukernel name;
#define WNN_QS16_WINOGRAD_OUTPUT(name, isa) wnn_qs16_winograd_output_ukernel name;
#include "kernels/kernels.inc"

#endif /* WNN_KERNELS_H */
