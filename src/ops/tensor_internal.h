/*
 * What the shape, indexing and type ops (codes 80-119 of ops.inc) share between their
 * prepare/run files (src/ops/tensor_*.c) and their references
 * (src/ref/ref_tensor*.c): params structs and a few helpers.
 */
#ifndef WNN_TENSOR_INTERNAL_H
#define WNN_TENSOR_INTERNAL_H

#include <string.h>

#include "ops/op_internal.h"

/* Walk dims: Tile walks two per input dim. */
#define WNN_WALK_MAX (2 * WNN_MAX_DIMS)

/* A strided gather: the output, contiguous, is walked as dims[0..ndim) in
 * row-major order; the input element read at walk index (i0, i1, ...) is
 * base + sum(i_d * strides[d]) (elements; strides may be 0 or negative).
 * Slice, Expand, Tile, DepthToSpace and SpaceToDepth are all one of these. */
typedef struct wnn_walk {
  int ndim;
  size_t elem_size;
  int64_t base;
  size_t dims[WNN_WALK_MAX];
  int64_t strides[WNN_WALK_MAX];
} wnn_walk;

/* Writes the walk's output, contiguous, to dst, reading src. Prepare makes
 * sure every offset read lies inside src. */
void wnn_walk_copy(const wnn_walk *w, void *dst, const void *src);

/* Rewrites a walk into the fewest dims that visit the same offsets in the
 * same order: drops dims of size 1 and merges a dim into the next when its
 * stride is the next one's extent (a walk with no elements becomes one dim
 * of 0). Run at the end of prepare, so that the innermost run is as long as
 * possible. */
void wnn_walk_simplify(wnn_walk *w);

/* Shape, Size: the int64 values prepare computed. */
typedef struct wnn_shape_params {
  int start;                /* Shape: first dim reported */
  int count;
  int64_t values[WNN_MAX_DIMS];
} wnn_shape_params;

/* ConstantOfShape: the fill value's bytes. */
typedef struct wnn_fill_params {
  size_t elem_size;
  unsigned char value[8];
} wnn_fill_params;

/* Range: output[i] = start + i * delta, in the output dtype. */
typedef struct wnn_range_params {
  wnn_dtype dtype;
  double fstart, fdelta; /* float32 */
  int64_t istart, idelta; /* int32, int64 */
} wnn_range_params;

/* Cast between float32, float16, int64, int32, int8, uint8 and bool; the
 * float16 <-> float32 kernels chosen at prepare (the other pairs with float16
 * go through float32, element by element). */
typedef struct wnn_cast_params {
  wnn_dtype from, to;
  wnn_f16_f32_vcvt_ukernel *f16_f32;
  wnn_f32_f16_vcvt_ukernel *f32_f16;
} wnn_cast_params;

/* Gather: data viewed as outer x axis_dim x inner, indices of count
 * elements; output outer x count x inner. */
typedef struct wnn_gather_params {
  size_t outer, axis_dim, count, inner_bytes;
  wnn_dtype index_dtype;
  int axis;
} wnn_gather_params;

/* Slice: the walk, plus the resolved start and step of every input dim (the
 * reference reads those). */
typedef struct wnn_slice_params {
  wnn_walk walk;
  int64_t start[WNN_MAX_DIMS], step[WNN_MAX_DIMS];
} wnn_slice_params;

/* Expand and Tile: the walk only (the references use the tensors' shapes). */
typedef struct wnn_bcast_params {
  wnn_walk walk;
} wnn_bcast_params;

/* Split: along axis, output k taking its own dims[axis] rows. */
typedef struct wnn_split_params {
  int axis;
  size_t elem_size;
} wnn_split_params;

/* DepthToSpace (DCR or CRD) and SpaceToDepth. */
typedef struct wnn_d2s_params {
  wnn_walk walk;
  int64_t blocksize;
  bool crd;
} wnn_d2s_params;

/* Pad. Output index o along dim d reads input index o - begin[d], mapped into
 * range by the mode; constant mode writes the value instead. */
enum { WNN_PAD_CONSTANT = 0, WNN_PAD_REFLECT = 1, WNN_PAD_EDGE = 2, WNN_PAD_WRAP = 3 };
typedef struct wnn_pad_params {
  int mode;
  int ndim;
  size_t elem_size;
  int64_t begin[WNN_MAX_DIMS];
  bool value_input;         /* constant mode: the value comes from input 2 */
} wnn_pad_params;

/* Maps an index that may lie outside [0, n) into it for a Pad mode (n >= 1). */
static inline int64_t wnn_pad_index(int mode, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case WNN_PAD_EDGE: return i < 0 ? 0 : n - 1;
    case WNN_PAD_WRAP: return ((i % n) + n) % n;
    default: { /* reflect, without repeating the edge */
      if (n == 1) return 0;
      const int64_t period = 2 * (n - 1);
      int64_t m = ((i % period) + period) % period;
      return m < n ? m : period - m;
    }
  }
}

/* Reads element i of a bool/int/float tensor as a double (Cast, Range). */
static inline double wnn_elem_as_double(wnn_dtype dtype, const void *data, size_t i) {
  switch (dtype) {
    case WNN_DTYPE_F32: return ((const float *)data)[i];
    case WNN_DTYPE_I64: return (double)((const int64_t *)data)[i];
    case WNN_DTYPE_I32: return ((const int32_t *)data)[i];
    case WNN_DTYPE_I8: return ((const int8_t *)data)[i];
    case WNN_DTYPE_U8: return ((const uint8_t *)data)[i];
    case WNN_DTYPE_BOOL: return ((const uint8_t *)data)[i] != 0;
    default: return 0.0;
  }
}

/* Reads element i of an int32 or int64 tensor. */
static inline int64_t wnn_index_at(wnn_dtype dtype, const void *data, size_t i) {
  if (dtype == WNN_DTYPE_I32) return ((const int32_t *)data)[i];
  int64_t v;
  memcpy(&v, (const char *)data + i * sizeof v, sizeof v);
  return v;
}

/* GatherElements, ScatterElements: along axis; shapes from the tensors.
 * reduction: WNN_SCATTER_* (ScatterElements, ScatterND). */
enum { WNN_SCATTER_NONE = 0, WNN_SCATTER_ADD = 1, WNN_SCATTER_MUL = 2, WNN_SCATTER_MAX = 3,
       WNN_SCATTER_MIN = 4 };
typedef struct wnn_elements_params {
  int axis;
  int reduction;
  size_t elem_size;
  wnn_dtype dtype, index_dtype;
} wnn_elements_params;

/* ScatterND: indices [..., k] address slices of `slice` elements of data. */
typedef struct wnn_scatternd_params {
  int k;
  int reduction;
  size_t count, slice;      /* count index tuples */
  size_t elem_size;
  wnn_dtype dtype;
} wnn_scatternd_params;

/* GatherND: per batch (the first batch_dims dims), `tuples` index tuples of
 * k values, each addressing a slice of `slice` elements. */
typedef struct wnn_gathernd_params {
  int batch_dims, k;
  size_t batch, tuples, slice, elem_size;
  size_t batch_stride;      /* elements of data per batch */
  int64_t dims[WNN_MAX_DIMS]; /* the indexed dims of data: data.dims[b .. b+k) */
  int64_t strides[WNN_MAX_DIMS]; /* their element strides */
} wnn_gathernd_params;

/* Trilu over the last two dims (rows x cols), k from input 1 at run. */
typedef struct wnn_trilu_params {
  bool upper;
  size_t batch, rows, cols, elem_size;
} wnn_trilu_params;

/* OneHot: output outer x depth x inner (the new axis in the middle). */
typedef struct wnn_onehot_params {
  int axis;                 /* of the output */
  int64_t depth;
  size_t outer, inner, elem_size;
  wnn_dtype index_dtype;
} wnn_onehot_params;

/* TopK along axis: outer x n x inner, k kept; scratch holds n indices. */
typedef struct wnn_topk_params {
  int axis;
  size_t outer, n, inner, k;
  bool largest;
  wnn_dtype dtype;
} wnn_topk_params;

/* Applies a ScatterElements/ScatterND reduction to *dst: any dtype for NONE,
 * float32, int32 or int64 otherwise (integers wrap, as two's complement). */
static inline void wnn_scatter_apply(int reduction, wnn_dtype dtype, void *dst, const void *src,
                                     size_t elem_size) {
  if (reduction == WNN_SCATTER_NONE) {
    memcpy(dst, src, elem_size);
  } else if (dtype == WNN_DTYPE_F32) {
    float a, b;
    memcpy(&a, dst, 4), memcpy(&b, src, 4);
    a = reduction == WNN_SCATTER_ADD   ? a + b
        : reduction == WNN_SCATTER_MUL ? a * b
        : reduction == WNN_SCATTER_MAX ? (a > b ? a : b)
                                       : (a < b ? a : b);
    memcpy(dst, &a, 4);
  } else if (dtype == WNN_DTYPE_I32) {
    int32_t a, b;
    memcpy(&a, dst, 4), memcpy(&b, src, 4);
    a = reduction == WNN_SCATTER_ADD   ? (int32_t)((uint32_t)a + (uint32_t)b)
        : reduction == WNN_SCATTER_MUL ? (int32_t)((uint32_t)a * (uint32_t)b)
        : reduction == WNN_SCATTER_MAX ? (a > b ? a : b)
                                       : (a < b ? a : b);
    memcpy(dst, &a, 4);
  } else {
    int64_t a, b;
    memcpy(&a, dst, 8), memcpy(&b, src, 8);
    a = reduction == WNN_SCATTER_ADD   ? (int64_t)((uint64_t)a + (uint64_t)b)
        : reduction == WNN_SCATTER_MUL ? (int64_t)((uint64_t)a * (uint64_t)b)
        : reduction == WNN_SCATTER_MAX ? (a > b ? a : b)
                                       : (a < b ? a : b);
    memcpy(dst, &a, 8);
  }
}

/* ------------------------------------------------------ prepare helpers */

/* Fails with WNN_ERR_MALFORMED when input i is omitted. */
wnn_status wnn_expect_present(wnn_prepare_ctx *ctx, const char *op, int i, const char *name);

/* Reads input i, a constant 1-D int64 tensor (int32 too when allow_i32) of at
 * most max values, into out; *count is its length. A non-constant input is
 * WNN_ERR_UNSUPPORTED ("Slice: input 1 (starts) must be a constant"). */
wnn_status wnn_const_ints(wnn_prepare_ctx *ctx, const char *op, int i, const char *name,
                          bool allow_i32, int max, int64_t *out, int *count);

/* EyeLike: ones on diagonal k of a rows x cols matrix. */
typedef struct wnn_eyelike_params {
  wnn_dtype dtype;
  size_t rows, cols;
  int64_t k;
} wnn_eyelike_params;

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

#endif /* WNN_TENSOR_INTERNAL_H */
