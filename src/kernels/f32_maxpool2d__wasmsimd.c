/*
 * 2-D max pooling, SIMD128: 4 output columns per v128, up to 4 vectors at a
 * time, over the output columns whose window lies inside the input columns;
 * the edge columns use the scalar loop. Every stride and dilation (stride 1
 * loads directly, stride 2 keeps the even lanes of two loads, others gather).
 *
 * Bitwise identical to wnn_f32_maxpool2d__scalar: each output starts at
 * -INFINITY and takes each tap in the same order with the same rule
 * (`v > m || v != v`), so NaN propagates the same way; rows in the padding
 * are skipped as there.
 */
#include <math.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/window2d.h"
#include "kernels/wasmsimd_load.h"

enum { MAX_KH = 64 };

static inline __attribute__((always_inline)) void outputs(size_t nv, const float *const *rows,
                                                          size_t ox, const wnn_window2d *w,
                                                          float *y) {
  v128_t m[4];
  for (size_t v = 0; v < nv; v++) m[v] = wasm_f32x4_const_splat(-INFINITY);
  const size_t sw = w->stride_w;
  for (size_t ky = 0; ky < w->k_h; ky++) {
    if (!rows[ky]) continue;
    for (size_t kx = 0; kx < w->k_w; kx++) {
      const float *p = rows[ky] + ox * sw + kx * w->dil_w - w->pad_l;
      for (size_t v = 0; v < nv; v++) {
        const v128_t x = wnn_v128_load_strided(p + 4 * v * sw, sw);
        const v128_t take = wasm_v128_or(wasm_f32x4_gt(x, m[v]), wasm_f32x4_ne(x, x));
        m[v] = wasm_v128_bitselect(x, m[v], take);
      }
    }
  }
  for (size_t v = 0; v < nv; v++) wasm_v128_store(y + 4 * v, m[v]);
}

void wnn_f32_maxpool2d__wasmsimd(size_t planes, const float *x, float *y,
                                 const wnn_f32_pool2d_params *params) {
  const wnn_window2d *w = &params->win;
  if (w->k_h > MAX_KH) {
    wnn_f32_maxpool2d__scalar(planes, x, y, params);
    return;
  }
  const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
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
      for (size_t ky = 0; ky < w->k_h; ky++) {
        const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
        const bool inside = iy_pad >= w->pad_t && iy_pad - w->pad_t < w->in_h;
        rows[ky] = inside ? xc + (iy_pad - w->pad_t) * w->in_w : NULL;
      }
      float *yr = yc + oy * w->out_w;
      size_t ox = 0;
      for (; ox < ox_lo; ox++) yr[ox] = wnn_window2d_max(xc, oy, ox, w);
      for (; ox + 16 <= ox_hi; ox += 16) outputs(4, rows, ox, w, yr + ox);
      for (; ox + 4 <= ox_hi; ox += 4) outputs(1, rows, ox, w, yr + ox);
      if (ox < ox_hi && ox_hi - ox_lo >= 4) { /* ragged end: overlap the last vector */
        outputs(1, rows, ox_hi - 4, w, yr + ox_hi - 4);
        ox = ox_hi;
      }
      for (; ox < w->out_w; ox++) yr[ox] = wnn_window2d_max(xc, oy, ox, w);
    }
  }
}
