/*
 * Reference implementations: the test oracle. Each is a direct loop nest
 * written from the ONNX definition, with the contract of the op's run function
 * (src/ops/op.h): it reads the params its op's prepare filled (attributes
 * resolved, e.g. pads after auto_pad) and the tensors' own shapes, and calls no
 * microkernel. Deliberately simple and slow. Built only with WNN_WITH_REFERENCE.
 */
#ifndef WNN_REF_H
#define WNN_REF_H

#include "ops/op.h"

#ifdef WNN_WITH_REFERENCE
/* Index helpers the reference loops share. */

/* Coordinates idx of linear index t in dims (row-major). */
static inline void wnn_ref_unravel(int64_t t, int nd, const int64_t *dims, int64_t *idx) {
  for (int i = nd - 1; i >= 0; i--) idx[i] = t % dims[i], t /= dims[i];
}

/* The linear index of coordinates idx in dims (row-major). */
static inline int64_t wnn_ref_ravel(int nd, const int64_t *dims, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < nd; i++) off = off * dims[i] + idx[i];
  return off;
}

static inline int64_t wnn_ref_numel(const wnn_tensor *t) {
  return wnn_shape_numel(t->ndim, t->dims);
}

wnn_status wnn_ref_conv(const wnn_run_ctx *ctx);
wnn_status wnn_ref_gemm(const wnn_run_ctx *ctx);
wnn_status wnn_ref_matmul(const wnn_run_ctx *ctx);
wnn_status wnn_ref_add(const wnn_run_ctx *ctx);
wnn_status wnn_ref_sub(const wnn_run_ctx *ctx);
wnn_status wnn_ref_mul(const wnn_run_ctx *ctx);
wnn_status wnn_ref_div(const wnn_run_ctx *ctx);
wnn_status wnn_ref_relu(const wnn_run_ctx *ctx);
wnn_status wnn_ref_clip(const wnn_run_ctx *ctx);
wnn_status wnn_ref_sigmoid(const wnn_run_ctx *ctx);
wnn_status wnn_ref_maxpool(const wnn_run_ctx *ctx);
wnn_status wnn_ref_averagepool(const wnn_run_ctx *ctx);
wnn_status wnn_ref_globalaveragepool(const wnn_run_ctx *ctx);
wnn_status wnn_ref_transpose(const wnn_run_ctx *ctx);
wnn_status wnn_ref_concat(const wnn_run_ctx *ctx);
wnn_status wnn_ref_softmax(const wnn_run_ctx *ctx);
/* Math, activation, reduction and logic ops (src/ref/ref_math*.c). */
wnn_status wnn_ref_exp(const wnn_run_ctx *ctx);
wnn_status wnn_ref_log(const wnn_run_ctx *ctx);
wnn_status wnn_ref_sqrt(const wnn_run_ctx *ctx);
wnn_status wnn_ref_neg(const wnn_run_ctx *ctx);
wnn_status wnn_ref_abs(const wnn_run_ctx *ctx);
wnn_status wnn_ref_erf(const wnn_run_ctx *ctx);
wnn_status wnn_ref_tanh(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reciprocal(const wnn_run_ctx *ctx);
wnn_status wnn_ref_floor(const wnn_run_ctx *ctx);
wnn_status wnn_ref_ceil(const wnn_run_ctx *ctx);
wnn_status wnn_ref_pow(const wnn_run_ctx *ctx);
wnn_status wnn_ref_leakyrelu(const wnn_run_ctx *ctx);
wnn_status wnn_ref_prelu(const wnn_run_ctx *ctx);
wnn_status wnn_ref_hardsigmoid(const wnn_run_ctx *ctx);
wnn_status wnn_ref_hardswish(const wnn_run_ctx *ctx);
wnn_status wnn_ref_elu(const wnn_run_ctx *ctx);
wnn_status wnn_ref_selu(const wnn_run_ctx *ctx);
wnn_status wnn_ref_softplus(const wnn_run_ctx *ctx);
wnn_status wnn_ref_softsign(const wnn_run_ctx *ctx);
wnn_status wnn_ref_sign(const wnn_run_ctx *ctx);
wnn_status wnn_ref_min(const wnn_run_ctx *ctx);
wnn_status wnn_ref_max(const wnn_run_ctx *ctx);
wnn_status wnn_ref_sum(const wnn_run_ctx *ctx);
wnn_status wnn_ref_mean(const wnn_run_ctx *ctx);
wnn_status wnn_ref_logsoftmax(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reducemean(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reducesum(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reducemax(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reducemin(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reduceprod(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reducesumsquare(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reducel1(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reducel2(const wnn_run_ctx *ctx);
wnn_status wnn_ref_reducelogsumexp(const wnn_run_ctx *ctx);
wnn_status wnn_ref_argmax(const wnn_run_ctx *ctx);
wnn_status wnn_ref_argmin(const wnn_run_ctx *ctx);
wnn_status wnn_ref_equal(const wnn_run_ctx *ctx);
wnn_status wnn_ref_less(const wnn_run_ctx *ctx);
wnn_status wnn_ref_lessorequal(const wnn_run_ctx *ctx);
wnn_status wnn_ref_greater(const wnn_run_ctx *ctx);
wnn_status wnn_ref_greaterorequal(const wnn_run_ctx *ctx);
wnn_status wnn_ref_not(const wnn_run_ctx *ctx);
wnn_status wnn_ref_and(const wnn_run_ctx *ctx);
wnn_status wnn_ref_or(const wnn_run_ctx *ctx);
wnn_status wnn_ref_xor(const wnn_run_ctx *ctx);
wnn_status wnn_ref_where(const wnn_run_ctx *ctx);
wnn_status wnn_ref_mod(const wnn_run_ctx *ctx);
wnn_status wnn_ref_gelu(const wnn_run_ctx *ctx);
wnn_status wnn_ref_sin(const wnn_run_ctx *ctx);
wnn_status wnn_ref_cos(const wnn_run_ctx *ctx);
wnn_status wnn_ref_round(const wnn_run_ctx *ctx);
wnn_status wnn_ref_isnan(const wnn_run_ctx *ctx);
wnn_status wnn_ref_isinf(const wnn_run_ctx *ctx);
/* Shape, indexing and type ops (src/ref/ref_tensor.c). */
wnn_status wnn_ref_shape(const wnn_run_ctx *ctx);
wnn_status wnn_ref_size(const wnn_run_ctx *ctx);
wnn_status wnn_ref_cast(const wnn_run_ctx *ctx);
wnn_status wnn_ref_constantofshape(const wnn_run_ctx *ctx);
wnn_status wnn_ref_range(const wnn_run_ctx *ctx);
wnn_status wnn_ref_gather(const wnn_run_ctx *ctx);
wnn_status wnn_ref_slice(const wnn_run_ctx *ctx);
wnn_status wnn_ref_split(const wnn_run_ctx *ctx);
wnn_status wnn_ref_expand(const wnn_run_ctx *ctx);
wnn_status wnn_ref_tile(const wnn_run_ctx *ctx);
wnn_status wnn_ref_pad(const wnn_run_ctx *ctx);
wnn_status wnn_ref_depthtospace(const wnn_run_ctx *ctx);
wnn_status wnn_ref_spacetodepth(const wnn_run_ctx *ctx);
wnn_status wnn_ref_gatherelements(const wnn_run_ctx *ctx);
wnn_status wnn_ref_scatterelements(const wnn_run_ctx *ctx);
wnn_status wnn_ref_scatternd(const wnn_run_ctx *ctx);
wnn_status wnn_ref_trilu(const wnn_run_ctx *ctx);
wnn_status wnn_ref_onehot(const wnn_run_ctx *ctx);
wnn_status wnn_ref_topk(const wnn_run_ctx *ctx);
wnn_status wnn_ref_gathernd(const wnn_run_ctx *ctx);
#endif

#endif /* WNN_REF_H */
