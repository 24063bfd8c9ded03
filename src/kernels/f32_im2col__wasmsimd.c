/*
 * im2col for 2-D convolution, SIMD128: the same matrix as
 * wnn_f32_im2col__scalar (a copy, so the same bits), with the output columns
 * whose input column is inside the row copied 4 at a time: direct loads for
 * stride 1, the even lanes of two loads for stride 2, lane by lane otherwise.
 * Columns in the left/right padding and rows in the top/bottom padding are
 * zeros, as there.
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

static void im2col_row(const float *x, float *row, size_t ky, size_t kx, const wnn_window2d *w) {
  const size_t sw = w->stride_w, kxd = kx * w->dil_w;
  /* Output columns [lo, hi) read input column ox * sw + kxd - pad_l, inside
   * [0, in_w). */
  size_t lo = kxd >= w->pad_l ? 0 : (w->pad_l - kxd + sw - 1) / sw, hi = 0;
  if (w->in_w + w->pad_l > kxd) hi = (w->in_w + w->pad_l - kxd - 1) / sw + 1;
  if (hi > w->out_w) hi = w->out_w;
  if (lo > hi) lo = hi;
  const v128_t zero = wasm_f32x4_const_splat(0.0f);
  for (size_t oy = 0; oy < w->out_h; oy++) {
    float *out = row + oy * w->out_w;
    const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
    if (iy_pad < w->pad_t || iy_pad - w->pad_t >= w->in_h) {
      size_t ox = 0;
      for (; ox + 4 <= w->out_w; ox += 4) wasm_v128_store(out + ox, zero);
      for (; ox < w->out_w; ox++) out[ox] = 0.0f;
      continue;
    }
    const float *in = x + (iy_pad - w->pad_t) * w->in_w;
    for (size_t ox = 0; ox < lo; ox++) out[ox] = 0.0f;
    /* in[ox * sw + kxd - pad_l] for ox >= lo, without a negative offset. */
    const float *base = in + lo * sw + kxd - w->pad_l;
    if (sw == 1)
      copy_cols(1, base, out + lo, hi - lo);
    else if (sw == 2)
      copy_cols(2, base, out + lo, hi - lo);
    else
      copy_cols(sw, base, out + lo, hi - lo);
    for (size_t ox = hi; ox < w->out_w; ox++) out[ox] = 0.0f;
  }
}

void wnn_f32_im2col__wasmsimd(size_t channels, const float *x, float *col,
                              const wnn_window2d *win) {
  const size_t plane = win->in_h * win->in_w;
  const size_t cols = win->out_h * win->out_w;
  float *row = col;
  for (size_t c = 0; c < channels; c++)
    for (size_t ky = 0; ky < win->k_h; ky++)
      for (size_t kx = 0; kx < win->k_w; kx++, row += cols)
        im2col_row(x + c * plane, row, ky, kx, win);
}
