/*
 * 2-D max pooling of uint8 or int8 planes, SIMD128: 16 output columns per
 * v128 (i8x16.max_u or max_s), over the output columns whose window lies
 * inside the input columns and every row of the window that lies inside the
 * input; the edge columns take the per-tap loop of window2d.h, as the scalar kernel. Strides 1
 * and 2 (the second as the even bytes of two overlapping loads, which never
 * read past the last byte a window uses); other strides go to the scalar
 * kernel. Exact: the bytes of wnn_x8_maxpool2d__scalar.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/window2d.h"

enum { MAX_KH = 64 };

#define INLINE static inline __attribute__((always_inline))

/* 16 bytes at stride s (1 or 2) from p; for 2 the last one read is p[30]. */
INLINE v128_t load16(const uint8_t *p, size_t s) {
  if (s == 1) return wasm_v128_load(p);
  return wasm_i8x16_shuffle(wasm_v128_load(p), wasm_v128_load(p + 15), 0, 2, 4, 6, 8, 10, 12,
                            14, 17, 19, 21, 23, 25, 27, 29, 31);
}

INLINE void outputs16(const uint8_t *const *rows, size_t ox, const wnn_window2d *w, size_t sw,
                      int s8, uint8_t *y) {
  v128_t m = wasm_i8x16_splat(s8 ? -128 : 0);
  for (size_t ky = 0; ky < w->k_h; ky++) {
    if (!rows[ky]) continue;
    for (size_t kx = 0; kx < w->k_w; kx++) {
      const v128_t x = load16(rows[ky] + ox * sw + kx * w->dil_w - w->pad_l, sw);
      m = s8 ? wasm_i8x16_max(m, x) : wasm_u8x16_max(m, x);
    }
  }
  wasm_v128_store(y, m);
}

INLINE void pool(size_t planes, const uint8_t *x, uint8_t *y, const wnn_window2d *w, size_t sw,
                 int s8) {
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
  const size_t span = (w->k_w - 1) * w->dil_w;
  size_t ox_lo = (w->pad_l + sw - 1) / sw, ox_hi = 0;
  if (w->in_w + w->pad_l >= span + 1) ox_hi = (w->in_w - 1 + w->pad_l - span) / sw + 1;
  if (ox_hi > w->out_w) ox_hi = w->out_w;
  if (ox_lo > ox_hi) ox_lo = ox_hi;
  const uint8_t *rows[MAX_KH];
  for (size_t c = 0; c < planes; c++) {
    const uint8_t *xc = x + c * in_plane;
    uint8_t *yc = y + c * out_plane;
    for (size_t oy = 0; oy < w->out_h; oy++) {
      for (size_t ky = 0; ky < w->k_h; ky++) {
        const size_t iy = oy * w->stride_h + ky * w->dil_h;
        const int inside = iy >= w->pad_t && iy - w->pad_t < w->in_h;
        rows[ky] = inside ? xc + (iy - w->pad_t) * w->in_w : NULL;
      }
      uint8_t *yr = yc + oy * w->out_w;
      size_t ox = 0;
      for (; ox < ox_lo; ox++) yr[ox] = (uint8_t)wnn_window2d_max_x8(xc, oy, ox, w, s8);
      for (; ox + 16 <= ox_hi; ox += 16) outputs16(rows, ox, w, sw, s8, yr + ox);
      if (ox < ox_hi && ox_hi - ox_lo >= 16) { /* ragged end: overlap the last vector */
        outputs16(rows, ox_hi - 16, w, sw, s8, yr + ox_hi - 16);
        ox = ox_hi;
      }
      for (; ox < w->out_w; ox++) yr[ox] = (uint8_t)wnn_window2d_max_x8(xc, oy, ox, w, s8);
    }
  }
}

void wnn_x8_maxpool2d__wasmsimd(size_t planes, const uint8_t *x, uint8_t *y,
                                const wnn_x8_maxpool2d_params *params) {
  const wnn_window2d *w = &params->win;
  if (w->k_h > MAX_KH || (w->stride_w != 1 && w->stride_w != 2)) {
    wnn_x8_maxpool2d__scalar(planes, x, y, params);
    return;
  }
  if (w->stride_w == 1) {
    if (params->s8) pool(planes, x, y, w, 1, 1);
    else pool(planes, x, y, w, 1, 0);
  } else {
    if (params->s8) pool(planes, x, y, w, 2, 1);
    else pool(planes, x, y, w, 2, 0);
  }
}
