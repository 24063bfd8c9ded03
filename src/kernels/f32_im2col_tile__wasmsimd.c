/*
 * im2col over a range of output pixels, SIMD128: the same panel as
 * wnn_f32_im2col_tile__scalar (a copy, so the same bits). Along each output
 * row of the range, the pixels whose input column is inside the input row are
 * copied 4 at a time (direct loads at stride 1, the even lanes of two loads at
 * stride 2, lane by lane otherwise); pixels in the left/right padding and rows
 * in the top/bottom padding are zeros.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_load.h"

/* dst[i] = src[i * s] for i < n. */
static inline __attribute__((always_inline)) void copy_cols(size_t s, const float *src,
                                                            float *dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t v0 = wnn_v128_load_strided(src + i * s, s);
    const v128_t v1 = wnn_v128_load_strided(src + (i + 4) * s, s);
    wasm_v128_store(dst + i, v0);
    wasm_v128_store(dst + i + 4, v1);
  }
  for (; i + 4 <= n; i += 4) wasm_v128_store(dst + i, wnn_v128_load_strided(src + i * s, s));
  for (; i < n; i++) dst[i] = src[i * s];
}

static inline __attribute__((always_inline)) void zeros(float *out, size_t n) {
  const v128_t zero = wasm_f32x4_const_splat(0.0f);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(out + i, zero);
  for (; i < n; i++) out[i] = 0.0f;
}

static void tile_row(const float *x, float *row, size_t p0, size_t np, size_t ky, size_t kx,
                     const wnn_window2d *w) {
  const size_t sw = w->stride_w, kxd = kx * w->dil_w;
  /* Output columns [lo, hi) read input column ox * sw + kxd - pad_l, inside
   * [0, in_w). */
  size_t lo = kxd >= w->pad_l ? 0 : (w->pad_l - kxd + sw - 1) / sw, hi = 0;
  if (w->in_w + w->pad_l > kxd) hi = (w->in_w + w->pad_l - kxd - 1) / sw + 1;
  if (hi > w->out_w) hi = w->out_w;
  if (lo > hi) lo = hi;
  size_t oy = p0 / w->out_w, ox = p0 % w->out_w;
  for (size_t j = 0; j < np; oy++, ox = 0) {
    /* This run covers output columns [ox, end) of output row oy, at out. */
    const size_t end = w->out_w - ox < np - j ? w->out_w : ox + (np - j);
    float *out = row + j;
    j += end - ox;
    const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
    const size_t a = ox > lo ? ox : lo, b = end < hi ? end : hi;
    if (iy_pad < w->pad_t || iy_pad - w->pad_t >= w->in_h || a >= b) {
      zeros(out, end - ox);
      continue;
    }
    const float *in = x + (iy_pad - w->pad_t) * w->in_w;
    zeros(out, a - ox);
    /* in[i * sw + kxd - pad_l] for i >= lo, without a negative offset. */
    const float *base = in + a * sw + kxd - w->pad_l;
    if (sw == 1)
      copy_cols(1, base, out + (a - ox), b - a);
    else if (sw == 2)
      copy_cols(2, base, out + (a - ox), b - a);
    else
      copy_cols(sw, base, out + (a - ox), b - a);
    zeros(out + (b - ox), end - b);
  }
}

void wnn_f32_im2col_tile__wasmsimd(size_t channels, const float *x, size_t p0, size_t np,
                                   float *col, const wnn_window2d *win) {
  const size_t plane = win->in_h * win->in_w;
  float *row = col;
  for (size_t c = 0; c < channels; c++)
    for (size_t ky = 0; ky < win->k_h; ky++)
      for (size_t kx = 0; kx < win->k_w; kx++, row += np)
        tile_row(x + c * plane, row, p0, np, ky, kx, win);
}
