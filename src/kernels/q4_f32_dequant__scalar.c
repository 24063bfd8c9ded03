/* MatMulNBits' 4-bit weights to float32, one row (kernels_quant.inc). */
#include "kernels/kernels.h"

void wnn_q4_f32_dequant__scalar(size_t k, size_t block_size, const uint8_t *codes,
                                const float *scales, const uint8_t *zp, float *out) {
  for (size_t i = 0; i < k; i++) {
    const size_t b = i / block_size;
    const int z = zp ? (zp[b / 2] >> (4 * (b & 1))) & 15 : 8;
    const int c = (codes[i / 2] >> (4 * (i & 1))) & 15;
    out[i] = (float)(c - z) * scales[b];
  }
}
