/* 2-D transpose of 4-byte elements, SIMD128: the scalar kernel's bands of 16
 * columns, each walked 4 input rows at a time as 4 x 4 blocks transposed in
 * registers (four v128 loads, eight shuffles of the two interleave patterns,
 * four v128 stores). The ragged edges (the last cols % 4 columns, then the
 * last rows % 4 rows) go to the scalar kernel. Unaligned loads and stores:
 * any strides. The bits are copied. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

enum { BAND = 16 };

void wnn_x32_transpose__wasmsimd(size_t rows, size_t cols, const uint32_t *x, size_t x_stride,
                                 uint32_t *y, size_t y_stride) {
  const size_t r4 = rows & ~(size_t)3, c4 = cols & ~(size_t)3;
  for (size_t j0 = 0; j0 < c4; j0 += BAND) {
    const size_t j1 = c4 - j0 < BAND ? c4 : j0 + BAND;
    for (size_t i = 0; i < r4; i += 4) {
      const uint32_t *x0 = x + i * x_stride, *x1 = x0 + x_stride, *x2 = x1 + x_stride;
      const uint32_t *x3 = x2 + x_stride;
      for (size_t j = j0; j < j1; j += 4) {
        /* Rows a b c d of the block -> columns. */
        const v128_t a = wasm_v128_load(x0 + j), b = wasm_v128_load(x1 + j);
        const v128_t c = wasm_v128_load(x2 + j), d = wasm_v128_load(x3 + j);
        const v128_t ab_lo = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); /* a0 b0 a1 b1 */
        const v128_t ab_hi = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); /* a2 b2 a3 b3 */
        const v128_t cd_lo = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5); /* c0 d0 c1 d1 */
        const v128_t cd_hi = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7); /* c2 d2 c3 d3 */
        uint32_t *yj = y + j * y_stride + i;
        wasm_v128_store(yj, wasm_i64x2_shuffle(ab_lo, cd_lo, 0, 2));
        wasm_v128_store(yj + y_stride, wasm_i64x2_shuffle(ab_lo, cd_lo, 1, 3));
        yj += 2 * y_stride;
        wasm_v128_store(yj, wasm_i64x2_shuffle(ab_hi, cd_hi, 0, 2));
        wasm_v128_store(yj + y_stride, wasm_i64x2_shuffle(ab_hi, cd_hi, 1, 3));
      }
    }
  }
  if (c4 < cols)
    wnn_x32_transpose__scalar(rows, cols - c4, x + c4, x_stride, y + c4 * y_stride, y_stride);
  if (r4 < rows)
    wnn_x32_transpose__scalar(rows - r4, c4, x + r4 * x_stride, x_stride, y + r4, y_stride);
}
