/* Reference MatMulNBits (src/ops/quant_nbits.c): the definition as loops, in
 * float32 with the float GEMM's order (each output summed over k from 0, one
 * rounded multiply and one rounded add a step, the bias added last), so the
 * op's result equals it to the bit. Shares no code with the run function.
 * Built only with WNN_WITH_REFERENCE. */
#ifdef WNN_WITH_REFERENCE
#include "ops/quant_internal.h"
#include "ref/ref.h"

/* The `bits`-wide field at field index `index` of bytes, low bits first. */
static unsigned field(const uint8_t *bytes, size_t index, int bits) {
  unsigned v = 0;
  for (int t = 0; t < bits; t++) {
    const size_t bit = index * (size_t)bits + (size_t)t;
    v |= (unsigned)((bytes[bit / 8] >> (bit % 8)) & 1) << t;
  }
  return v;
}

wnn_status wnn_ref_matmulnbits(const wnn_run_ctx *ctx) {
  const wnn_matmulnbits_params *p = ctx->params;
  const float *a = ctx->inputs[0].data, *scales = ctx->inputs[2].data;
  const uint8_t *b = ctx->inputs[1].data;
  const uint8_t *zp = p->has_zp ? ctx->inputs[3].data : NULL;
  const float *bias = p->has_bias ? ctx->inputs[5].data : NULL;
  float *y = ctx->outputs[0].data;
  const size_t zp_bytes = (p->n_blocks * (size_t)p->bits + 7) / 8;
  const size_t block_bytes = p->block_size * (size_t)p->bits / 8;
  for (size_t i = 0; i < p->m; i++)
    for (size_t j = 0; j < p->n; j++) {
      float acc = 0.0f;
      for (size_t k = 0; k < p->k; k++) {
        const size_t blk = k / p->block_size;
        const uint8_t *block = b + (j * p->n_blocks + blk) * block_bytes;
        const int code = (int)field(block, k % p->block_size, p->bits);
        const int z = zp ? (int)field(zp + j * zp_bytes, blk, p->bits) : 1 << (p->bits - 1);
        const float w = (float)(code - z) * scales[j * p->n_blocks + blk];
        acc += a[i * p->k + k] * w;
      }
      y[i * p->n + j] = bias ? acc + bias[j] : acc;
    }
  return WNN_OK;
}

#endif /* WNN_WITH_REFERENCE */
