/*
 * 2-D average pooling, SIMD128: 4 output columns per v128, up to 4 vectors at
 * a time, over the output columns whose window lies inside the input columns;
 * the edge columns use the scalar loop. Every stride and dilation.
 *
 * Bitwise identical to wnn_f32_avgpool2d__scalar: each output sums its taps
 * from 0 in the same order and divides by the same count. For an inner column
 * every tap of a row is inside the input columns, so the count is k_w times
 * the rows inside the input (or, with count_include_pad, inside the padded
 * input); a window with nothing to count gives 0, as there.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/window2d.h"
#include "kernels/wasmsimd_load.h"

enum { MAX_KH = 64 };

static inline __attribute__((always_inline)) void outputs(size_t nv, const float *const *rows,
                                                          size_t ox, const wnn_window2d *w,
                                                          size_t count, float *y) {
  v128_t s[4];
  for (size_t v = 0; v < nv; v++) s[v] = wasm_f32x4_const_splat(0.0f);
  const size_t sw = w->stride_w;
  for (size_t ky = 0; ky < w->k_h; ky++) {
    if (!rows[ky]) continue;
    for (size_t kx = 0; kx < w->k_w; kx++) {
      const float *p = rows[ky] + ox * sw + kx * w->dil_w - w->pad_l;
      for (size_t v = 0; v < nv; v++) s[v] = wasm_f32x4_add(s[v], wnn_v128_load_strided(p + 4 * v * sw, sw));
    }
  }
  const v128_t d = wasm_f32x4_splat((float)count);
  for (size_t v = 0; v < nv; v++)
    wasm_v128_store(y + 4 * v, count ? wasm_f32x4_div(s[v], d) : wasm_f32x4_const_splat(0.0f));
}

void wnn_f32_avgpool2d__wasmsimd(size_t planes, const float *x, float *y,
                                 const wnn_f32_pool2d_params *params) {
  const wnn_window2d *w = &params->win;
  if (w->k_h > MAX_KH) {
    wnn_f32_avgpool2d__scalar(planes, x, y, params);
    return;
  }
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
  const size_t padded_h = w->pad_t + w->in_h + w->pad_b;
  const size_t sw = w->stride_w, span = (w->k_w - 1) * w->dil_w;
  size_t ox_lo = (w->pad_l + sw - 1) / sw, ox_hi = 0;
  if (w->in_w + w->pad_l >= span + 1) ox_hi = (w->in_w - 1 + w->pad_l - span) / sw + 1;
  if (ox_hi > w->out_w) ox_hi = w->out_w;
  if (ox_lo > ox_hi) ox_lo = ox_hi;
  const float *rows[MAX_KH];
  for (size_t c = 0; c < planes; c++) {
    const float *xc = x + c * in_plane;
    float *yc = y + c * out_plane;
    for (size_t oy = 0; oy < w->out_h; oy++) {
      size_t rows_in = 0, rows_padded = 0;
      for (size_t ky = 0; ky < w->k_h; ky++) {
        const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
        const bool inside = iy_pad >= w->pad_t && iy_pad - w->pad_t < w->in_h;
        rows[ky] = inside ? xc + (iy_pad - w->pad_t) * w->in_w : NULL;
        rows_in += inside;
        rows_padded += iy_pad < padded_h;
      }
      const size_t count = (params->count_include_pad ? rows_padded : rows_in) * w->k_w;
      float *yr = yc + oy * w->out_w;
      size_t ox = 0;
      for (; ox < ox_lo; ox++) yr[ox] = wnn_window2d_avg(xc, oy, ox, params);
      for (; ox + 16 <= ox_hi; ox += 16) outputs(4, rows, ox, w, count, yr + ox);
      for (; ox + 4 <= ox_hi; ox += 4) outputs(1, rows, ox, w, count, yr + ox);
      if (ox < ox_hi && ox_hi - ox_lo >= 4) { /* ragged end: overlap the last vector */
        outputs(1, rows, ox_hi - 4, w, count, yr + ox_hi - 4);
        ox = ox_hi;
      }
      for (; ox < w->out_w; ox++) yr[ox] = wnn_window2d_avg(xc, oy, ox, params);
    }
  }
}
