/* MatMulNBits' 4-bit weights to float32, SIMD128: 16 codes (8 bytes) a step.
 * The bytes' low and high nibbles are split and interleaved back into order
 * (code 2j is byte j's low nibble), the block's zero point subtracted in
 * int8 (the difference is within [-15, 15]), then widened to int32 and
 * converted exactly, and multiplied by the block's scale: the scalar kernel's
 * arithmetic. The codes of a block's ragged end (k not a multiple of 16) are
 * the scalar kernel's. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_q4_f32_dequant__wasmsimd(size_t k, size_t block_size, const uint8_t *codes,
                                  const float *scales, const uint8_t *zp, float *out) {
  const v128_t low = wasm_i8x16_splat(15);
  size_t i = 0;
  for (size_t b = 0; i + 16 <= k; b++) {
    const size_t end = k - i < block_size ? i + (k - i) / 16 * 16 : i + block_size;
    const int z = zp ? (zp[b / 2] >> (4 * (b & 1))) & 15 : 8;
    const v128_t vz = wasm_i8x16_splat((int8_t)z);
    const v128_t vs = wasm_f32x4_splat(scales[b]);
    for (; i < end; i += 16) {
      const v128_t v = wasm_v128_load64_zero(codes + i / 2);
      const v128_t lo = wasm_v128_and(v, low), hi = wasm_u8x16_shr(v, 4);
      const v128_t c = wasm_i8x16_sub(
          wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), vz);
      const v128_t c0 = wasm_i16x8_extend_low_i8x16(c), c1 = wasm_i16x8_extend_high_i8x16(c);
      wasm_v128_store(out + i, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(c0)), vs));
      wasm_v128_store(out + i + 4, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_extend_high_i16x8(c0)), vs));
      wasm_v128_store(out + i + 8, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(c1)), vs));
      wasm_v128_store(out + i + 12, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_extend_high_i16x8(c1)), vs));
    }
    if (i < k && i % block_size) break; /* the ragged end of the last block */
  }
  for (; i < k; i++) {
    const size_t b = i / block_size;
    const int z = zp ? (zp[b / 2] >> (4 * (b & 1))) & 15 : 8;
    const int c = (codes[i / 2] >> (4 * (i & 1))) & 15;
    out[i] = (float)(c - z) * scales[b];
  }
}
