/*
 * What the math, activation, reduction and logic ops (codes 20-79 of ops.inc) share with
 * their kernel selection and their reference implementations: params structs,
 * the broadcasting plan, and the declarations and selection of the kernel
 * families of kernels_math.inc.
 */
#ifndef WNN_MATH_INTERNAL_H
#define WNN_MATH_INTERNAL_H

#include "ops/op_internal.h"

/* Declarations of every variant of kernels_math.inc. */
#define WNN_F32_VMATH(name, isa, op) wnn_f32_vmath_ukernel name;
#define WNN_VBINARY_X(name, isa, dtype, op) wnn_vbinary_x_ukernel name;
#define WNN_F32_LOGSOFTMAX(name, isa) wnn_f32_softmax_ukernel name;
#define WNN_F32_REDUCE(name, isa, op) wnn_f32_reduce_ukernel name;
#include "kernels/kernels_math.inc"

/* ------------------------------------------------------ broadcasting plan */

/* Two operands broadcast to an output, walked as `ndim` dimensions (size-1
 * dims dropped and contiguous runs merged), innermost last; strides are in
 * elements, 0 where an operand broadcasts. */
typedef struct wnn_bcast_plan {
  int ndim;
  size_t dims[WNN_MAX_DIMS];
  size_t a_strides[WNN_MAX_DIMS], b_strides[WNN_MAX_DIMS];
} wnn_bcast_plan;

/* The numpy broadcast of shapes a and b: out and out_nd (when out is not
 * NULL) and the plan. Returns -1 on success, else the output dimension index
 * where the shapes disagree. Pure: used at prepare and (variadic ops) at run. */
int wnn_bcast_shapes(int nd_a, const int64_t *a, int nd_b, const int64_t *b, int64_t *out,
                     int *out_nd, wnn_bcast_plan *plan);

/* The same, failing with WNN_ERR_SHAPE and a message naming both shapes. */
wnn_status wnn_bcast_prepare(wnn_prepare_ctx *ctx, const char *op, const wnn_tdesc *a,
                             const wnn_tdesc *b, int64_t *out, int *out_nd, wnn_bcast_plan *plan);

/* Runs fn over the plan; element sizes of a, b and y in bytes. */
void wnn_bcast_run(const wnn_bcast_plan *plan, wnn_vbinary_x_ukernel *fn, const void *a,
                   size_t a_size, const void *b, size_t b_size, void *y, size_t y_size);

/* --------------------------------------------------------------- params */

/* Exp, Log, ..., Gelu: y = f(x), float32; Neg, Abs, Sign also int32 and
 * int64 (plain loops in the op, fn unused). */
typedef struct wnn_vmath_params {
  int op; /* WNN_VMATH_* */
  wnn_dtype dtype;
  wnn_f32_vmath_params p;
  wnn_f32_vmath_ukernel *fn;
} wnn_vmath_params;

/* Pow, PRelu, Mod, comparisons, And/Or/Xor: two broadcast operands.
 * Min, Max, Sum, Mean: any number of inputs, folded pairwise into the
 * output (plan unused: each step's plan is computed at run time). */
typedef struct wnn_xbinary_params {
  int op;                   /* WNN_VBIN_* */
  wnn_dtype a_dtype, b_dtype, y_dtype;
  bool mean;                /* Mean: divide the sum by the input count */
  wnn_bcast_plan plan;
  wnn_vbinary_x_ukernel *fn;
} wnn_xbinary_params;

/* Where: three operands broadcast to the output. */
typedef struct wnn_where_params {
  int ndim;
  size_t dims[WNN_MAX_DIMS];
  size_t strides[3][WNN_MAX_DIMS]; /* condition, X, Y; 0 where broadcast */
  size_t elem_size;
} wnn_where_params;

/* Reduce*: the input's dims, merged where neighbours are both kept or both
 * reduced, split into kept dims (the output's, in order) and reduced dims,
 * with their input strides. The innermost reduced dim is the kernel's line.
 * axis_reduced and the op let the reference work from the original axes. */
enum {
  WNN_RED_SUM = 0, WNN_RED_MEAN, WNN_RED_MAX, WNN_RED_MIN, WNN_RED_PROD, WNN_RED_SUMSQUARE,
  WNN_RED_L1, WNN_RED_L2, WNN_RED_LOGSUMEXP
};
typedef struct wnn_reduce_params {
  int op;                   /* WNN_RED_* */
  wnn_dtype dtype;          /* float32; int32 and int64 for Sum, Max, Min, Prod */
  bool copy;                /* noop_with_empty_axes with no axes: y = x */
  bool axis_reduced[WNN_MAX_DIMS];
  int nk, nr;
  size_t kdims[WNN_MAX_DIMS], kstrides[WNN_MAX_DIMS];
  size_t rdims[WNN_MAX_DIMS], rstrides[WNN_MAX_DIMS];
  size_t count;             /* reduced elements per output */
  wnn_f32_reduce_ukernel *fn, *max_fn;
} wnn_reduce_params;

/* ArgMax, ArgMin: outer x n x inner around the axis. */
typedef struct wnn_argreduce_params {
  bool is_max, select_last;
  wnn_dtype dtype;
  size_t outer, n, inner;
} wnn_argreduce_params;

/* ------------------------------------------------------ kernel selection */

wnn_f32_vmath_ukernel *wnn_select_f32_vmath(wnn_kernels kernels, int op);
/* dtype: the row's input dtype (input 0's); NULL when the list has no row. */
wnn_vbinary_x_ukernel *wnn_select_vbinary_x(wnn_kernels kernels, wnn_dtype dtype, int op);
wnn_f32_softmax_ukernel *wnn_select_f32_logsoftmax(wnn_kernels kernels);
wnn_f32_reduce_ukernel *wnn_select_f32_reduce(wnn_kernels kernels, int op);

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

/* Det: batch square m x m matrices (scratch: m * m doubles). */
typedef struct wnn_det_params {
  size_t batch, m;
} wnn_det_params;

/* BitShift (uint8): X shifted by Y, both broadcast. */
typedef struct wnn_bitshift_params {
  bool left;
  wnn_bcast_plan plan;
} wnn_bitshift_params;

/* ReduceLogSum's op number in wnn_reduce_params (after the WNN_RED_* of
 * math_internal.h). */
#define WNN_RED_LOGSUM (WNN_RED_LOGSUMEXP + 1)

#endif /* WNN_MATH_INTERNAL_H */
