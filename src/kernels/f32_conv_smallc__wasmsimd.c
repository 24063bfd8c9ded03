/* Direct convolution for 1 to 4 input channels, SIMD128 (kernels.h,
 * wnn_f32_conv_smallc_ukernel): the first layer of vision models, where
 * im2col + GEMM has a K of only 27 to 147 and spends much of its time
 * writing the panel.
 *
 * Per output row: the k_h input rows of each channel are copied once into
 * scratch with their padding as zeros, split by column parity when the
 * stride is 2, so that the inputs of 4 consecutive outputs for one tap are
 * one unaligned load. Then 4 output channels x 8 output pixels accumulate in
 * 8 registers over every tap (channel, ky, kx), each tap one multiply and one
 * add per register, from 0 in the im2col GEMM's k order (c, ky, kx), then the
 * GEMM's epilogue (+ bias, clamp). Taps on padding rows are skipped, taps on
 * padding columns multiply zeros. The last 1-3 output channels take a 1 x 8
 * block. */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

/* Row length of one phase, a multiple of 4 (see wnn_f32_conv_smallc_scratch). */
static size_t phase_len(const wnn_window2d *w) {
  const size_t ow8 = (w->out_w + 7) & ~(size_t)7;
  return (ow8 + (w->k_w - 1) / w->stride_w + 1 + 3) & ~(size_t)3;
}

/* The 8 outputs [ox0, ox0 + 8) of output channels m0 .. m0 + MR - 1, over
 * the taps: tap t reads rows + src[t] + ox0 and weight w[m][wof[t]]. */
#define BLOCK(MR)                                                                            \
  static void block##MR(size_t ntaps, const int *src, const int *wof, const float *rows,    \
                        const float *w, size_t wm, float b[MR], float *y, size_t out_plane,  \
                        size_t nvalid, v128_t vmin, v128_t vmax) {                           \
    v128_t acc[MR][2];                                                                       \
    for (int i = 0; i < MR; i++) acc[i][0] = acc[i][1] = wasm_f32x4_splat(0.0f);             \
    for (size_t t = 0; t < ntaps; t++) {                                                     \
      const float *in = rows + src[t], *wt = w + wof[t];                                     \
      const v128_t x0 = wasm_v128_load(in), x1 = wasm_v128_load(in + 4);                     \
      for (int i = 0; i < MR; i++) {                                                         \
        const v128_t wv = wasm_v128_load32_splat(wt + i * wm);                               \
        acc[i][0] = wasm_f32x4_add(acc[i][0], wasm_f32x4_mul(wv, x0));                       \
        acc[i][1] = wasm_f32x4_add(acc[i][1], wasm_f32x4_mul(wv, x1));                       \
      }                                                                                      \
    }                                                                                        \
    for (int i = 0; i < MR; i++) {                                                           \
      /* The GEMM's epilogue: + bias, then the clamp (NaN passes through). */             \
      const v128_t vb = wasm_f32x4_splat(b[i]);                                              \
      v128_t lo = wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_f32x4_add(acc[i][0], vb), vmin), vmax); \
      v128_t hi = wasm_f32x4_pmin(wasm_f32x4_pmax(wasm_f32x4_add(acc[i][1], vb), vmin), vmax); \
      float *out = y + i * out_plane;                                                        \
      if (nvalid == 8) {                                                                     \
        wasm_v128_store(out, lo);                                                            \
        wasm_v128_store(out + 4, hi);                                                        \
      } else {                                                                               \
        float tmp[8];                                                                        \
        wasm_v128_store(tmp, lo);                                                            \
        wasm_v128_store(tmp + 4, hi);                                                        \
        for (size_t j = 0; j < nvalid; j++) out[j] = tmp[j];                                 \
      }                                                                                      \
    }                                                                                        \
  }
BLOCK(4)
BLOCK(1)

void wnn_f32_conv_smallc__wasmsimd(size_t channels, size_t out_c, size_t oy, const float *x,
                                   const float *w, const float *bias, float *y,
                                   const wnn_window2d *win, float min, float max,
                                   float *scratch) {
  const size_t kh = win->k_h, sw = win->stride_w, len = phase_len(win);
  const size_t in_plane = win->in_h * win->in_w, out_plane = win->out_h * win->out_w;
  unsigned char valid[4 * WNN_CONV_SMALLC_MAX_KH];
  /* The padded rows: rows[((c * kh + ky) * sw + q) * len + i] is padded
   * column i * sw + q of input row oy * stride_h + ky - pad_t. */
  for (size_t c = 0; c < channels; c++)
    for (size_t ky = 0; ky < kh; ky++) {
      const size_t iy = oy * win->stride_h + ky - win->pad_t; /* wraps when above */
      const bool in = oy * win->stride_h + ky >= win->pad_t && iy < win->in_h;
      valid[c * kh + ky] = in;
      if (!in) continue;
      const float *src = x + c * in_plane + iy * win->in_w;
      for (size_t q = 0; q < sw; q++) {
        /* Element i is input column i * sw + q - pad_l: zeros left of
         * column 0 (i < i0) and from column in_w on (i >= i1). */
        float *dst = scratch + ((c * kh + ky) * sw + q) * len;
        size_t i0 = win->pad_l > q ? (win->pad_l - q + sw - 1) / sw : 0;
        size_t i1 = (win->in_w + win->pad_l - q + sw - 1) / sw;
        if (i0 > len) i0 = len;
        if (i1 > len) i1 = len;
        if (i1 < i0) i1 = i0;
        size_t i = 0;
        for (; i < i0; i++) dst[i] = 0.0f;
        const float *from = src + (i0 * sw + q - win->pad_l);
        if (sw == 1) {
          for (; i < i1; i++) dst[i] = *from++;
        } else {
          for (; i < i1; i++, from += 2) dst[i] = *from;
        }
        for (; i < len; i++) dst[i] = 0.0f;
      }
    }
  /* The taps on input rows, in k order (c, ky, kx). */
  enum { MAX_TAPS = WNN_CONV_SMALLC_MAX_C * WNN_CONV_SMALLC_MAX_KH * WNN_CONV_SMALLC_MAX_KW };
  int src[MAX_TAPS], wof[MAX_TAPS];
  size_t ntaps = 0;
  for (size_t c = 0; c < channels; c++)
    for (size_t ky = 0; ky < kh; ky++) {
      if (!valid[c * kh + ky]) continue;
      for (size_t kx = 0; kx < win->k_w; kx++, ntaps++) {
        src[ntaps] = (int)(((c * kh + ky) * sw + kx % sw) * len + kx / sw);
        wof[ntaps] = (int)((c * kh + ky) * win->k_w + kx);
      }
    }
  const size_t wm = channels * kh * win->k_w; /* one output channel's weights */
  const v128_t vmin = wasm_f32x4_splat(min), vmax = wasm_f32x4_splat(max);
  float *yrow = y + oy * win->out_w;
  /* Every output channel at one 8-pixel column before the next column: the
   * taps' 8 inputs of every row (a few KB) stay in L1 across the blocks. */
  for (size_t ox0 = 0; ox0 < win->out_w; ox0 += 8) {
    const size_t nvalid = win->out_w - ox0 < 8 ? win->out_w - ox0 : 8;
    for (size_t m0 = 0; m0 < out_c;) {
      const size_t mr = out_c - m0 >= 4 ? 4 : 1;
      float b[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (size_t i = 0; bias && i < mr; i++) b[i] = bias[m0 + i];
      float *out = yrow + m0 * out_plane + ox0;
      if (mr == 4)
        block4(ntaps, src, wof, scratch + ox0, w + m0 * wm, wm, b, out, out_plane, nvalid, vmin,
               vmax);
      else
        block1(ntaps, src, wof, scratch + ox0, w + m0 * wm, wm, b, out, out_plane, nvalid, vmin,
               vmax);
      m0 += mr;
    }
  }
}
