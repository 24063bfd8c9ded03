/*
 * Indexing and data-movement ops (ONNX opset 21 forms, parameters as
 * constant inputs), any element type:
 *   Gather                 block copies, indices checked at run;
 *   Slice, Expand, Tile,   strided walks (wnn_walk) computed at prepare;
 *   DepthToSpace, SpaceToDepth
 *   Split                  block copies along the axis;
 *   Pad                    constant, reflect, edge and wrap.
 */
#include <string.h>

#include "ops/tensor_internal.h"

WNN_PARAMS_FIT(wnn_gather_params);
WNN_PARAMS_FIT(wnn_slice_params);
WNN_PARAMS_FIT(wnn_bcast_params);
WNN_PARAMS_FIT(wnn_split_params);
WNN_PARAMS_FIT(wnn_d2s_params);
WNN_PARAMS_FIT(wnn_pad_params);

/* Row-major element strides of dims. */
static void strides_of(int ndim, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int d = ndim - 1; d >= 0; d--) strides[d] = s, s *= dims[d];
}

/* --------------------------------------------------------------- Gather */

wnn_status wnn_gather_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Gather";
  wnn_gather_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0], *idx = &ctx->inputs[1];
  wnn_status st;
  int64_t axis_attr;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  if ((st = wnn_expect_present(ctx, OP, 1, "indices"))) return st;
  if (idx->dtype != WNN_DTYPE_I64 && idx->dtype != WNN_DTYPE_I32)
    return wnn_op_fail(ctx, WNN_ERR_DTYPE, "%s: input 1 (indices) is %s, expected int64 or int32",
                       OP, wnn_dtype_name(idx->dtype));
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (data) is a scalar; it needs a dim", OP);
  if ((st = wnn_attr_int(ctx, "axis", 0, &axis_attr))) return st;
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis_attr, x->ndim, false, &p->axis))) return st;
  const int rank = x->ndim - 1 + idx->ndim;
  if (rank > WNN_MAX_DIMS)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output would have %d dims, at most %d", OP, rank,
                       WNN_MAX_DIMS);
  int64_t out[WNN_MAX_DIMS];
  int n = 0;
  for (int d = 0; d < p->axis; d++) out[n++] = x->dims[d];
  for (int d = 0; d < idx->ndim; d++) out[n++] = idx->dims[d];
  for (int d = p->axis + 1; d < x->ndim; d++) out[n++] = x->dims[d];
  p->outer = (size_t)wnn_shape_numel(p->axis, x->dims);
  p->axis_dim = (size_t)x->dims[p->axis];
  p->count = (size_t)wnn_shape_numel(idx->ndim, idx->dims);
  p->inner_bytes = (size_t)wnn_shape_numel(x->ndim - p->axis - 1, x->dims + p->axis + 1) *
                   wnn_dtype_size(x->dtype);
  p->index_dtype = idx->dtype;
  return wnn_set_output(ctx, OP, 0, x->dtype, rank, out);
}

wnn_status wnn_gather_run(const wnn_run_ctx *ctx) {
  const wnn_gather_params *p = ctx->params;
  const void *indices = ctx->inputs[1].data;
  const int64_t n = (int64_t)p->axis_dim;
  for (size_t j = 0; j < p->count; j++) { /* check every index before writing */
    const int64_t i = wnn_index_at(p->index_dtype, indices, j);
    if (i < -n || i >= n)
      return wnn_run_fail(ctx, WNN_ERR_OUT_OF_RANGE,
                          "Gather: indices[%zu] = %lld is out of range for axis %d of size %lld",
                          j, (long long)i, p->axis, (long long)n);
  }
  const char *src = ctx->inputs[0].data;
  char *dst = ctx->outputs[0].data;
  if (p->inner_bytes == 0) return WNN_OK;
  for (size_t o = 0; o < p->outer; o++) {
    const char *block = src + o * p->axis_dim * p->inner_bytes;
    for (size_t j = 0; j < p->count; j++) {
      int64_t i = wnn_index_at(p->index_dtype, indices, j);
      if (i < 0) i += n;
      memcpy(dst, block + (size_t)i * p->inner_bytes, p->inner_bytes);
      dst += p->inner_bytes;
    }
  }
  return WNN_OK;
}

/* ---------------------------------------------------------------- Slice */

/* Clamps a start or end as ONNX Slice does (after adding dim to a negative). */
static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

wnn_status wnn_slice_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Slice";
  wnn_slice_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t starts[WNN_MAX_DIMS], ends[WNN_MAX_DIMS], axes[WNN_MAX_DIMS], steps[WNN_MAX_DIMS];
  int n, n_ends, n_axes, n_steps;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  if ((st = wnn_const_ints(ctx, OP, 1, "starts", true, WNN_MAX_DIMS, starts, &n))) return st;
  if ((st = wnn_const_ints(ctx, OP, 2, "ends", true, WNN_MAX_DIMS, ends, &n_ends))) return st;
  if (n_ends != n)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: starts has %d values, ends has %d", OP, n, n_ends);
  if (wnn_has_input(ctx, 3)) {
    if ((st = wnn_const_ints(ctx, OP, 3, "axes", true, WNN_MAX_DIMS, axes, &n_axes))) return st;
    if (n_axes != n)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: starts has %d values, axes has %d", OP, n,
                         n_axes);
  } else {
    for (int k = 0; k < n; k++) axes[k] = k;
  }
  if (wnn_has_input(ctx, 4)) {
    if ((st = wnn_const_ints(ctx, OP, 4, "steps", true, WNN_MAX_DIMS, steps, &n_steps))) return st;
    if (n_steps != n)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: starts has %d values, steps has %d", OP, n,
                         n_steps);
  } else {
    for (int k = 0; k < n; k++) steps[k] = 1;
  }
  /* Every dim defaults to the whole range. */
  int64_t out[WNN_MAX_DIMS];
  bool seen[WNN_MAX_DIMS] = {false};
  for (int d = 0; d < x->ndim; d++) p->start[d] = 0, p->step[d] = 1, out[d] = x->dims[d];
  for (int k = 0; k < n; k++) {
    const int64_t r = x->ndim;
    if (axes[k] < -r || axes[k] >= r)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes[%d] = %lld out of range for rank %d",
                         OP, k, (long long)axes[k], x->ndim);
    const int a = (int)(axes[k] < 0 ? axes[k] + r : axes[k]);
    if (seen[a])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes repeats axis %d (axes[%d] = %lld)",
                         OP, a, k, (long long)axes[k]);
    seen[a] = true;
    const int64_t dim = x->dims[a];
    int64_t step = steps[k];
    if (step == 0) return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: steps[%d] is 0", OP, k);
    /* A step past the dim takes one element either way; clamping it keeps
     * -step and the strides from overflowing. */
    const int64_t max_step = dim > 0 ? dim : 1;
    if (step > max_step) step = max_step;
    if (step < -max_step) step = -max_step;
    int64_t s = starts[k], e = ends[k];
    if (s < 0) s = s < -dim ? -1 - dim : s + dim; /* keeps INT64_MIN from overflowing */
    if (e < 0) e = e < -dim ? -1 - dim : e + dim;
    if (step > 0) {
      s = clamp64(s, 0, dim);
      e = clamp64(e, 0, dim);
    } else {
      s = clamp64(s, 0, dim - 1);
      e = clamp64(e, -1, dim - 1);
    }
    int64_t len = 0;
    if (dim == 0) s = e = 0;
    if (step > 0 && e > s) len = (e - s - 1) / step + 1;
    if (step < 0 && s > e) len = (s - e - 1) / -step + 1;
    p->start[a] = len > 0 ? s : 0;
    p->step[a] = step;
    out[a] = len;
  }
  int64_t xs[WNN_MAX_DIMS];
  strides_of(x->ndim, x->dims, xs);
  wnn_walk *w = &p->walk;
  w->ndim = x->ndim;
  w->elem_size = wnn_dtype_size(x->dtype);
  w->base = 0;
  for (int d = 0; d < x->ndim; d++) {
    w->dims[d] = (size_t)out[d];
    w->strides[d] = xs[d] * p->step[d];
    w->base += xs[d] * p->start[d];
  }
  wnn_walk_simplify(w);
  return wnn_set_output(ctx, OP, 0, x->dtype, x->ndim, out);
}

wnn_status wnn_slice_run(const wnn_run_ctx *ctx) {
  const wnn_slice_params *p = ctx->params;
  wnn_walk_copy(&p->walk, ctx->outputs[0].data, ctx->inputs[0].data);
  return WNN_OK;
}

/* --------------------------------------------------------------- Expand */

wnn_status wnn_expand_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Expand";
  wnn_bcast_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t shape[WNN_MAX_DIMS];
  int n;
  if ((st = wnn_expect_present(ctx, OP, 0, "input"))) return st;
  if ((st = wnn_const_ints(ctx, OP, 1, "shape", false, WNN_MAX_DIMS, shape, &n))) return st;
  const int rank = n > x->ndim ? n : x->ndim;
  int64_t out[WNN_MAX_DIMS], xs[WNN_MAX_DIMS];
  strides_of(x->ndim, x->dims, xs);
  wnn_walk *w = &p->walk;
  w->ndim = rank;
  w->elem_size = wnn_dtype_size(x->dtype);
  w->base = 0;
  for (int d = 0; d < rank; d++) { /* right-aligned, numpy style */
    const int dx = d - (rank - x->ndim), ds = d - (rank - n);
    const int64_t a = dx >= 0 ? x->dims[dx] : 1, b = ds >= 0 ? shape[ds] : 1;
    if (b < 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: shape[%d] = %lld is negative", OP, ds,
                         (long long)b);
    if (a != b && a != 1 && b != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                         "%s: input dim %d (%lld) does not broadcast with shape[%d] (%lld)", OP,
                         dx, (long long)a, ds, (long long)b);
    out[d] = a == 1 ? b : a;
    w->dims[d] = (size_t)out[d];
    w->strides[d] = dx >= 0 && a != 1 ? xs[dx] : 0;
  }
  wnn_walk_simplify(w);
  return wnn_set_output(ctx, OP, 0, x->dtype, rank, out);
}

/* Expand, Tile, DepthToSpace and SpaceToDepth run their walk. */
wnn_status wnn_expand_run(const wnn_run_ctx *ctx) {
  const wnn_bcast_params *p = ctx->params;
  wnn_walk_copy(&p->walk, ctx->outputs[0].data, ctx->inputs[0].data);
  return WNN_OK;
}

/* ----------------------------------------------------------------- Tile */

wnn_status wnn_tile_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Tile";
  wnn_bcast_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t reps[WNN_MAX_DIMS];
  int n;
  if ((st = wnn_expect_present(ctx, OP, 0, "input"))) return st;
  if ((st = wnn_const_ints(ctx, OP, 1, "repeats", false, WNN_MAX_DIMS, reps, &n))) return st;
  if (n != x->ndim)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: repeats has %d values, input has %d dims", OP, n,
                       x->ndim);
  int64_t out[WNN_MAX_DIMS], xs[WNN_MAX_DIMS];
  strides_of(x->ndim, x->dims, xs);
  wnn_walk *w = &p->walk;
  w->ndim = 2 * n;
  w->elem_size = wnn_dtype_size(x->dtype);
  w->base = 0;
  for (int d = 0; d < n; d++) {
    if (reps[d] < 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: repeats[%d] = %lld is negative", OP, d,
                         (long long)reps[d]);
    if (x->dims[d] != 0 && reps[d] > INT64_MAX / x->dims[d])
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output dim %d overflows", OP, d);
    out[d] = x->dims[d] * reps[d];
    /* Output index along d is r * dims[d] + i: walk (r, i) with r reading
     * nothing new. */
    w->dims[2 * d] = (size_t)reps[d], w->strides[2 * d] = 0;
    w->dims[2 * d + 1] = (size_t)x->dims[d], w->strides[2 * d + 1] = xs[d];
  }
  wnn_walk_simplify(w);
  return wnn_set_output(ctx, OP, 0, x->dtype, n, out);
}

wnn_status wnn_tile_run(const wnn_run_ctx *ctx) { return wnn_expand_run(ctx); }

/* ------------------------------------------- DepthToSpace, SpaceToDepth */

static wnn_status d2s_common(wnn_prepare_ctx *ctx, const char *op, int64_t *bs) {
  wnn_status st;
  if ((st = wnn_expect_present(ctx, op, 0, "input"))) return st;
  if ((st = wnn_expect_ndim(ctx, op, 0, "input", 4))) return st;
  if ((st = wnn_attr_int(ctx, "blocksize", 0, bs))) return st;
  if (*bs < 1 || *bs > INT32_MAX)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: blocksize = %lld, must be at least 1%s",
                       op, (long long)*bs, *bs == 0 ? " (it is required)" : "");
  return WNN_OK;
}

/* Fills the walk of a transpose of a row-major tensor of dims `in` by perm. */
static void transpose_walk(wnn_walk *w, int ndim, const int64_t *in, const int *perm,
                           size_t elem_size) {
  int64_t s[WNN_WALK_MAX], t = 1;
  for (int d = ndim - 1; d >= 0; d--) s[d] = t, t *= in[d];
  w->ndim = ndim;
  w->elem_size = elem_size;
  w->base = 0;
  for (int d = 0; d < ndim; d++) w->dims[d] = (size_t)in[perm[d]], w->strides[d] = s[perm[d]];
  wnn_walk_simplify(w);
}

wnn_status wnn_depthtospace_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "DepthToSpace";
  wnn_d2s_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t bs;
  const char *mode;
  if ((st = d2s_common(ctx, OP, &bs))) return st;
  if ((st = wnn_attr_string(ctx, "mode", "DCR", &mode))) return st;
  if (strcmp(mode, "DCR") != 0 && strcmp(mode, "CRD") != 0)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: mode '%s', expected DCR or CRD", OP, mode);
  const int64_t n = x->dims[0], c = x->dims[1], h = x->dims[2], wd = x->dims[3];
  if (c % (bs * bs) != 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input has %lld channels, not a multiple of blocksize^2 = %lld", OP,
                       (long long)c, (long long)(bs * bs));
  if (h > INT64_MAX / bs || wd > INT64_MAX / bs)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output is too large", OP);
  const int64_t oc = c / (bs * bs);
  p->blocksize = bs;
  p->crd = mode[0] == 'C';
  const size_t esize = wnn_dtype_size(x->dtype);
  if (p->crd) { /* [n, oc, bs, bs, h, w] -> [n, oc, h, bs, w, bs] */
    const int64_t in[6] = {n, oc, bs, bs, h, wd};
    const int perm[6] = {0, 1, 4, 2, 5, 3};
    transpose_walk(&p->walk, 6, in, perm, esize);
  } else { /* [n, bs, bs, oc, h, w] -> [n, oc, h, bs, w, bs] */
    const int64_t in[6] = {n, bs, bs, oc, h, wd};
    const int perm[6] = {0, 3, 4, 1, 5, 2};
    transpose_walk(&p->walk, 6, in, perm, esize);
  }
  const int64_t out[4] = {n, oc, h * bs, wd * bs};
  return wnn_set_output(ctx, OP, 0, x->dtype, 4, out);
}

wnn_status wnn_depthtospace_run(const wnn_run_ctx *ctx) {
  const wnn_d2s_params *p = ctx->params;
  wnn_walk_copy(&p->walk, ctx->outputs[0].data, ctx->inputs[0].data);
  return WNN_OK;
}

wnn_status wnn_spacetodepth_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "SpaceToDepth";
  wnn_d2s_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t bs;
  if ((st = d2s_common(ctx, OP, &bs))) return st;
  const int64_t n = x->dims[0], c = x->dims[1], h = x->dims[2], wd = x->dims[3];
  if (h % bs != 0 || wd % bs != 0)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input height %lld and width %lld must be multiples of blocksize %lld",
                       OP, (long long)h, (long long)wd, (long long)bs);
  if (c > INT64_MAX / bs / bs)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: output is too large", OP);
  p->blocksize = bs;
  /* [n, c, h/bs, bs, w/bs, bs] -> [n, bs, bs, c, h/bs, w/bs] */
  const int64_t in[6] = {n, c, h / bs, bs, wd / bs, bs};
  const int perm[6] = {0, 3, 5, 1, 2, 4};
  transpose_walk(&p->walk, 6, in, perm, wnn_dtype_size(x->dtype));
  const int64_t out[4] = {n, c * bs * bs, h / bs, wd / bs};
  return wnn_set_output(ctx, OP, 0, x->dtype, 4, out);
}

wnn_status wnn_spacetodepth_run(const wnn_run_ctx *ctx) { return wnn_depthtospace_run(ctx); }

/* ---------------------------------------------------------------- Split */

wnn_status wnn_split_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Split";
  wnn_split_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  int64_t axis_attr, num_outputs;
  if ((st = wnn_expect_present(ctx, OP, 0, "input"))) return st;
  if (x->ndim < 1)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (input) is a scalar; it needs a dim", OP);
  if ((st = wnn_attr_int(ctx, "axis", 0, &axis_attr))) return st;
  if ((st = wnn_normalize_axis(ctx, OP, "axis", axis_attr, x->ndim, false, &p->axis))) return st;
  if ((st = wnn_attr_int(ctx, "num_outputs", -1, &num_outputs))) return st;
  const int k = ctx->num_outputs;
  if (num_outputs != -1 && num_outputs != k)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: num_outputs = %lld, but the node has %d "
                       "outputs", OP, (long long)num_outputs, k);
  const int64_t dim = x->dims[p->axis];
  int64_t split[WNN_MAX_IO];
  if (wnn_has_input(ctx, 1)) {
    int n;
    if (num_outputs != -1)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: num_outputs and input 1 (split) are both given", OP);
    if ((st = wnn_const_ints(ctx, OP, 1, "split", false, WNN_MAX_IO, split, &n))) return st;
    if (n != k)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (split) has %d values, the node has %d "
                         "outputs", OP, n, k);
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
      if (split[i] < 0 || split[i] > dim)
        return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: split[%d] = %lld is out of range for axis "
                           "size %lld", OP, i, (long long)split[i], (long long)dim);
      sum += split[i];
    }
    if (sum != dim)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: split sums to %lld, axis %d has size %lld", OP,
                         (long long)sum, p->axis, (long long)dim);
  } else {
    /* Equal parts of ceil(dim / k); the last takes what is left. */
    const int64_t part = (dim + k - 1) / k;
    if (part * (k - 1) > dim)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: axis %d of size %lld cannot be split into %d "
                         "parts", OP, p->axis, (long long)dim, k);
    for (int i = 0; i < k; i++) split[i] = i < k - 1 ? part : dim - part * (k - 1);
  }
  p->elem_size = wnn_dtype_size(x->dtype);
  int64_t out[WNN_MAX_DIMS];
  memcpy(out, x->dims, (size_t)x->ndim * sizeof out[0]);
  for (int i = 0; i < k; i++) {
    out[p->axis] = split[i];
    if ((st = wnn_set_output(ctx, OP, i, x->dtype, x->ndim, out))) return st;
  }
  return WNN_OK;
}

wnn_status wnn_split_run(const wnn_run_ctx *ctx) {
  const wnn_split_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0];
  const size_t outer = (size_t)wnn_shape_numel(p->axis, x->dims);
  const size_t inner = (size_t)wnn_shape_numel(x->ndim - p->axis - 1, x->dims + p->axis + 1) *
                       p->elem_size;
  const char *src = x->data;
  for (size_t o = 0; o < outer; o++) {
    for (int k = 0; k < ctx->num_outputs; k++) {
      const wnn_tensor *y = &ctx->outputs[k];
      const size_t block = (size_t)y->dims[p->axis] * inner;
      if (block) memcpy((char *)y->data + o * block, src, block);
      src += block;
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------------ Pad */

wnn_status wnn_pad_prepare(wnn_prepare_ctx *ctx) {
  static const char OP[] = "Pad";
  wnn_pad_params *p = ctx->params;
  const wnn_tdesc *x = &ctx->inputs[0];
  wnn_status st;
  const char *mode;
  if ((st = wnn_expect_present(ctx, OP, 0, "data"))) return st;
  if ((st = wnn_attr_string(ctx, "mode", "constant", &mode))) return st;
  if (strcmp(mode, "constant") == 0) p->mode = WNN_PAD_CONSTANT;
  else if (strcmp(mode, "reflect") == 0) p->mode = WNN_PAD_REFLECT;
  else if (strcmp(mode, "edge") == 0) p->mode = WNN_PAD_EDGE;
  else if (strcmp(mode, "wrap") == 0) p->mode = WNN_PAD_WRAP;
  else
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: mode '%s', expected constant, reflect, edge or wrap", OP, mode);
  const int r = x->ndim;
  int64_t pads[2 * WNN_MAX_DIMS], axes[WNN_MAX_DIMS];
  int n_pads, n_axes = r;
  if ((st = wnn_const_ints(ctx, OP, 1, "pads", false, 2 * WNN_MAX_DIMS, pads, &n_pads))) return st;
  if (wnn_has_input(ctx, 3)) {
    if ((st = wnn_const_ints(ctx, OP, 3, "axes", true, WNN_MAX_DIMS, axes, &n_axes))) return st;
  } else {
    for (int d = 0; d < r; d++) axes[d] = d;
  }
  if (n_pads != 2 * n_axes)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 1 (pads) has %d values, expected %d", OP,
                       n_pads, 2 * n_axes);
  int64_t begin[WNN_MAX_DIMS] = {0}, end[WNN_MAX_DIMS] = {0};
  bool seen[WNN_MAX_DIMS] = {false};
  for (int k = 0; k < n_axes; k++) {
    if (axes[k] < -r || axes[k] >= r)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes[%d] = %lld out of range for rank %d",
                         OP, k, (long long)axes[k], r);
    const int a = (int)(axes[k] < 0 ? axes[k] + r : axes[k]);
    if (seen[a])
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: axes repeats axis %d", OP, a);
    seen[a] = true;
    begin[a] = pads[k], end[a] = pads[n_axes + k];
  }
  if (wnn_has_input(ctx, 2)) {
    const wnn_tdesc *v = &ctx->inputs[2];
    if ((st = wnn_expect_dtype(ctx, OP, 2, "constant_value", x->dtype))) return st;
    if (wnn_shape_numel(v->ndim, v->dims) != 1)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 2 (constant_value) must be a scalar", OP);
    p->value_input = p->mode == WNN_PAD_CONSTANT;
  }
  int64_t out[WNN_MAX_DIMS];
  for (int d = 0; d < r; d++) {
    const int64_t lim = (int64_t)1 << 40;
    if (begin[d] < -lim || begin[d] > lim || end[d] < -lim || end[d] > lim)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: pads of axis %d (%lld, %lld) are too large", OP,
                         d, (long long)begin[d], (long long)end[d]);
    out[d] = x->dims[d] + begin[d] + end[d];
    if (out[d] < 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: pads (%lld, %lld) remove more than axis %d's "
                         "%lld elements", OP, (long long)begin[d], (long long)end[d], d,
                         (long long)x->dims[d]);
    if (p->mode != WNN_PAD_CONSTANT && x->dims[d] == 0 && out[d] > 0)
      return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: mode %s cannot pad axis %d, which is empty", OP,
                         mode, d);
    p->begin[d] = begin[d];
  }
  p->ndim = r;
  p->elem_size = wnn_dtype_size(x->dtype);
  return wnn_set_output(ctx, OP, 0, x->dtype, r, out);
}

/* Fills n elements of `size` bytes at dst with value. */
static void fill(char *dst, const void *value, size_t n, size_t size) {
  for (size_t i = 0; i < n; i++) memcpy(dst + i * size, value, size);
}

wnn_status wnn_pad_run(const wnn_run_ctx *ctx) {
  const wnn_pad_params *p = ctx->params;
  const wnn_tensor *x = &ctx->inputs[0], *y = &ctx->outputs[0];
  const size_t size = p->elem_size;
  unsigned char zero[8] = {0};
  const void *value = p->value_input ? ctx->inputs[2].data : zero;
  char *dst = y->data;
  const char *src = x->data;
  if (p->ndim == 0) {
    memcpy(dst, src, size);
    return WNN_OK;
  }
  const int last = p->ndim - 1;
  int64_t xs[WNN_MAX_DIMS], idx[WNN_MAX_DIMS] = {0};
  strides_of(x->ndim, x->dims, xs);
  const int64_t n_out = y->dims[last], n_in = x->dims[last], b = p->begin[last];
  /* Output columns [c0, c1) copy input columns [c0 - b, c1 - b) in one block. */
  const int64_t c0 = b < 0 ? 0 : b > n_out ? n_out : b;
  const int64_t c1 = b + n_in < c0 ? c0 : b + n_in > n_out ? n_out : b + n_in;
  const size_t rows = (size_t)wnn_shape_numel(last, y->dims);
  for (size_t r = 0; r < rows && n_out > 0; r++, dst += (size_t)n_out * size) {
    /* Map the row's outer coordinates to an input row. */
    int64_t off = 0;
    bool inside = true;
    for (int d = 0; d < last; d++) {
      int64_t i = idx[d] - p->begin[d];
      if (i < 0 || i >= x->dims[d]) {
        if (p->mode == WNN_PAD_CONSTANT) inside = false;
        else i = wnn_pad_index(p->mode, i, x->dims[d]);
      }
      off += i * xs[d];
    }
    for (int d = last - 1; d >= 0; d--) { /* odometer for the next row */
      if (++idx[d] < y->dims[d]) break;
      idx[d] = 0;
    }
    if (!inside) {
      fill(dst, value, (size_t)n_out, size);
      continue;
    }
    const char *row = src + off * (int64_t)size;
    if (c1 > c0) memcpy(dst + (size_t)c0 * size, row + (c0 - b) * (int64_t)size,
                        (size_t)(c1 - c0) * size);
    if (p->mode == WNN_PAD_CONSTANT) {
      fill(dst, value, (size_t)c0, size);
      fill(dst + (size_t)c1 * size, value, (size_t)(n_out - c1), size);
    } else {
      for (int64_t o = 0; o < c0; o++)
        memcpy(dst + (size_t)o * size, row + wnn_pad_index(p->mode, o - b, n_in) * (int64_t)size,
               size);
      for (int64_t o = c1; o < n_out; o++)
        memcpy(dst + (size_t)o * size, row + wnn_pad_index(p->mode, o - b, n_in) * (int64_t)size,
               size);
    }
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ descriptors */

WNN_OP_DEFINE(gather, "Gather", 0, 2, 2, 1, 1, WNN_ATTRS("axis"));
WNN_OP_DEFINE(slice, "Slice", 0, 3, 5, 1, 1, NULL);
WNN_OP_DEFINE(split, "Split", 0, 1, 2, 1, WNN_MAX_IO, WNN_ATTRS("axis", "num_outputs"));
WNN_OP_DEFINE(expand, "Expand", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(tile, "Tile", 0, 2, 2, 1, 1, NULL);
WNN_OP_DEFINE(pad, "Pad", 0, 2, 4, 1, 1, WNN_ATTRS("mode"));
WNN_OP_DEFINE(depthtospace, "DepthToSpace", 0, 1, 1, 1, 1, WNN_ATTRS("blocksize", "mode"));
WNN_OP_DEFINE(spacetodepth, "SpaceToDepth", 0, 1, 1, 1, 1, WNN_ATTRS("blocksize"));
