/* Reference Einsum (src/ops/nn_einsum.c), in double.
 * Direct loops from the ONNX definitions, sharing no code with the run
 * functions. Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include <math.h>
#include <string.h>

#include "ops/nn_internal.h"
#include "ref/ref.h"

/* ---------------------------------------------------------------- Einsum */

/* Visits every assignment of every label once, adding the product of the
 * inputs into the output element the output labels name. */
wnn_status wnn_ref_einsum(const wnn_run_ctx *ctx) {
  const wnn_einsum_params *p = ctx->params;
  float *y = ctx->outputs[0].data;
  int64_t out_n = 1, all = 1;
  for (int k = 0; k < p->num_out; k++) out_n *= p->size[k];
  for (int k = 0; k < p->num_labels; k++) all *= p->size[k];
  for (int64_t o = 0; o < out_n; o++) y[o] = 0.0f;
  for (int64_t a = 0; a < all; a++) {
    int64_t rest = a, out_at = 0, out_stride = 1;
    int64_t coord[WNN_EINSUM_MAX_LABELS];
    for (int k = p->num_labels - 1; k >= 0; k--) coord[k] = rest % p->size[k], rest /= p->size[k];
    for (int k = p->num_out - 1; k >= 0; k--)
      out_at += coord[k] * out_stride, out_stride *= p->size[k];
    double prod = 1.0;
    for (int i = 0; i < p->num_inputs; i++) {
      int64_t off = 0;
      for (int k = 0; k < p->num_labels; k++) off += coord[k] * p->stride[i][k];
      prod *= ((const float *)ctx->inputs[i].data)[off];
    }
    y[out_at] = (float)(y[out_at] + prod);
  }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
