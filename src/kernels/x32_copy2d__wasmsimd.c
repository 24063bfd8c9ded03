/* 2-D copy of 4-byte elements, SIMD128: each row as v128 loads and stores,
 * its last cols % 4 elements one by one. For the short rows the GEMM's
 * packing copies (32 to 64 elements), a memcpy call per row cost about 3x
 * as much. Unaligned loads and stores: any strides. The bits are copied. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

void wnn_x32_copy2d__wasmsimd(size_t rows, size_t cols, const uint32_t *x, size_t x_stride,
                              uint32_t *y, size_t y_stride) {
  for (size_t i = 0; i < rows; i++, x += x_stride, y += y_stride) {
    size_t j = 0;
#pragma clang loop unroll(disable)
    for (; j + 4 <= cols; j += 4) wasm_v128_store(y + j, wasm_v128_load(x + j));
#pragma clang loop unroll(disable)
    for (; j < cols; j++) y[j] = x[j];
  }
}
