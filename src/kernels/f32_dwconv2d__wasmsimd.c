/*
 * Depthwise 2-D convolution, SIMD128: 4 output columns per v128, up to 4
 * vectors (16 columns) at a time so that the adds of independent outputs
 * overlap. Any kernel size up to 7x7, any stride and dilation, with unrolled
 * loops for 3 and 5 wide kernels at strides 1 and 2 (MobileNet's 3x3 and
 * EfficientNet's 5x5); stride 1 loads the input directly, stride 2 loads two
 * vectors and keeps the even lanes, other strides gather lane by lane. Larger
 * kernels go to the scalar kernel.
 *
 * Its multiply-adds stay a multiply and an add in dist/wnn-relaxed.wasm too
 * (not wasmsimd_madd.h's): each output is one chain of dependent steps, and
 * a fused step's latency (4 cycles on recent x86) is longer than an add's;
 * relaxed_madd made the MobileNetV2 576x14x14 layer 1.75x slower
 * (bench/kernels, docs/kernels.md "Relaxed SIMD").
 *
 * Bitwise identical to wnn_f32_dwconv2d__scalar: the vectors cover only the
 * output columns whose whole window lies inside the input columns, and there
 * each output sums its taps from 0 in the same order (ky, then kx; rows in
 * the padding skipped, as the scalar kernel skips them) and adds the bias
 * last. The columns near the left and right edges are scalar, with the range
 * of taps inside the input worked out once per column (edge()).
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_load.h"

enum { MAX_TAPS = 49 };

/* nv vectors (4 * nv outputs from column ox) of one output row. rows[] holds
 * the input row of each tap row ky, or NULL for a row in the padding. sw
 * (stride), kw (kernel width) and dw (dilation) are constants where the
 * caller knows them, so that the loops unroll and the loads specialize. */
static inline __attribute__((always_inline)) void outputs(size_t nv, size_t sw, size_t kw,
                                                          size_t dw, const float *const *rows,
                                                          const v128_t *wv, size_t ox,
                                                          const wnn_window2d *win, v128_t vb,
                                                          float *y) {
  v128_t acc[4];
  for (size_t v = 0; v < nv; v++) acc[v] = wasm_f32x4_const_splat(0.0f);
  for (size_t ky = 0; ky < win->k_h; ky++) {
    if (!rows[ky]) continue;
    const float *row = rows[ky] + ox * sw - win->pad_l;
    for (size_t kx = 0; kx < kw; kx++) {
      const float *p = row + kx * dw;
      const v128_t wk = wv[ky * kw + kx];
      for (size_t v = 0; v < nv; v++)
        acc[v] = wasm_f32x4_add(acc[v], wasm_f32x4_mul(wk, wnn_v128_load_strided(p + 4 * v * sw, sw)));
    }
  }
  for (size_t v = 0; v < nv; v++) wasm_v128_store(y + 4 * v, wasm_f32x4_add(vb, acc[v]));
}

/* The inner columns [ox_lo, ox_hi) of one output row, 16 then 4 at a time;
 * returns the first column not done. */
static inline __attribute__((always_inline)) size_t inner(size_t sw, size_t kw, size_t dw,
                                                          const float *const *rows,
                                                          const v128_t *wv, size_t ox_lo,
                                                          size_t ox_hi, const wnn_window2d *win,
                                                          float b, float *yr) {
  size_t ox = ox_lo;
  const v128_t vb = wasm_f32x4_splat(b);
  for (; ox + 16 <= ox_hi; ox += 16) outputs(4, sw, kw, dw, rows, wv, ox, win, vb, yr + ox);
  /* The rest in one go where it can (3 or 2 vectors: independent adds). */
  if (ox + 12 <= ox_hi) {
    outputs(3, sw, kw, dw, rows, wv, ox, win, vb, yr + ox);
    ox += 12;
  } else if (ox + 8 <= ox_hi) {
    outputs(2, sw, kw, dw, rows, wv, ox, win, vb, yr + ox);
    ox += 8;
  }
  for (; ox + 4 <= ox_hi; ox += 4) outputs(1, sw, kw, dw, rows, wv, ox, win, vb, yr + ox);
  /* A ragged end: one more vector ending at ox_hi, overlapping columns
   * already done (it stores the same values there). */
  if (ox < ox_hi && ox_hi - ox_lo >= 4) {
    outputs(1, sw, kw, dw, rows, wv, ox_hi - 4, win, vb, yr + ox_hi - 4);
    ox = ox_hi;
  }
  return ox;
}

/* 3x3, dilation 1, stride sw (1 or 2), an output row whose 3 input rows are
 * all inside the input: the 9 weights and the row pointers stay in registers,
 * 8 outputs (two vectors) per step. At stride 2 the three taps of a row come
 * from three loads and three shuffles (even lanes, odd lanes, even lanes
 * moved on by one). The sum is the generic loop's: from 0, ky then kx, bias
 * last. */
static inline __attribute__((always_inline)) v128_t taps3(size_t sw, const float *p, v128_t w0,
                                                          v128_t w1, v128_t w2, v128_t acc) {
  v128_t i0, i1, i2;
  if (sw == 1) {
    i0 = wasm_v128_load(p), i1 = wasm_v128_load(p + 1), i2 = wasm_v128_load(p + 2);
  } else {
    const v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 4);
    i0 = wasm_i32x4_shuffle(a, b, 0, 2, 4, 6);
    i1 = wasm_i32x4_shuffle(a, b, 1, 3, 5, 7);
    i2 = wasm_i32x4_shuffle(i0, wasm_v128_load32_zero(p + 8), 1, 2, 3, 4);
  }
  acc = wasm_f32x4_add(acc, wasm_f32x4_mul(w0, i0));
  acc = wasm_f32x4_add(acc, wasm_f32x4_mul(w1, i1));
  return wasm_f32x4_add(acc, wasm_f32x4_mul(w2, i2));
}

static inline __attribute__((always_inline)) size_t row3x3(size_t sw, const float *const *rows,
                                                           const v128_t *wv, size_t ox_lo,
                                                           size_t ox_hi, size_t pad_l, v128_t vb,
                                                           float *yr) {
  const v128_t w0 = wv[0], w1 = wv[1], w2 = wv[2], w3 = wv[3], w4 = wv[4], w5 = wv[5];
  const v128_t w6 = wv[6], w7 = wv[7], w8 = wv[8];
  const float *r0 = rows[0], *r1 = rows[1], *r2 = rows[2];
  size_t ox = ox_lo;
  for (; ox + 8 <= ox_hi; ox += 8) {
    /* Input column of output ox, tap 0 (never negative from ox_lo on). */
    const size_t o = ox * sw - pad_l, o4 = o + 4 * sw;
    v128_t a0 = wasm_f32x4_const_splat(0.0f), a1 = a0;
    a0 = taps3(sw, r0 + o, w0, w1, w2, a0), a1 = taps3(sw, r0 + o4, w0, w1, w2, a1);
    a0 = taps3(sw, r1 + o, w3, w4, w5, a0), a1 = taps3(sw, r1 + o4, w3, w4, w5, a1);
    a0 = taps3(sw, r2 + o, w6, w7, w8, a0), a1 = taps3(sw, r2 + o4, w6, w7, w8, a1);
    wasm_v128_store(yr + ox, wasm_f32x4_add(vb, a0));
    wasm_v128_store(yr + ox + 4, wasm_f32x4_add(vb, a1));
  }
  /* The rest 4 at a time, then one vector ending at ox_hi that overlaps
   * columns already done (storing the same values there). */
  for (;;) {
    size_t at = ox;
    if (ox + 4 > ox_hi) {
      if (ox == ox_hi || ox_hi - ox_lo < 4) break;
      at = ox_hi - 4;
    }
    const size_t o = at * sw - pad_l;
    v128_t a = wasm_f32x4_const_splat(0.0f);
    a = taps3(sw, r0 + o, w0, w1, w2, a);
    a = taps3(sw, r1 + o, w3, w4, w5, a);
    a = taps3(sw, r2 + o, w6, w7, w8, a);
    wasm_v128_store(yr + at, wasm_f32x4_add(vb, a));
    ox = at + 4;
  }
  return ox;
}

/* Edges: one output column ox whose window reaches into the left or right
 * padding. The taps inside the input are kx in [kx_lo, kx_hi), the same for
 * every output row, so the loop needs no bounds checks; rows in the padding
 * are NULL in rows[]. The scalar kernel's sum: from 0, ky then kx, the taps
 * in the padding skipped, the bias added last. */
static float edge(const float *const *rows, const float *w, size_t ox, const wnn_window2d *win,
                  float b) {
  const size_t kw = win->k_w, dw = win->dil_w, x0 = ox * win->stride_w;
  size_t kx_lo = x0 >= win->pad_l ? 0 : (win->pad_l - x0 + dw - 1) / dw, kx_hi = 0;
  if (x0 < win->pad_l + win->in_w) kx_hi = (win->pad_l + win->in_w - 1 - x0) / dw + 1;
  if (kx_hi > kw) kx_hi = kw;
  float acc = 0.0f;
  for (size_t ky = 0; ky < win->k_h; ky++) {
    if (!rows[ky]) continue;
    for (size_t kx = kx_lo; kx < kx_hi; kx++)
      acc += w[ky * kw + kx] * rows[ky][x0 + kx * dw - win->pad_l];
  }
  return b + acc;
}

static size_t inner_any(const float *const *rows, const v128_t *wv, size_t ox, size_t ox_hi,
                        const wnn_window2d *win, float b, float *yr) {
  const size_t sw = win->stride_w, kw = win->k_w, dw = win->dil_w;
  if (dw == 1 && kw == 3 && win->k_h == 3 && rows[0] && rows[1] && rows[2] && sw <= 2) {
    const v128_t vb = wasm_f32x4_splat(b);
    if (sw == 1) return row3x3(1, rows, wv, ox, ox_hi, win->pad_l, vb, yr);
    return row3x3(2, rows, wv, ox, ox_hi, win->pad_l, vb, yr);
  }
  if (dw == 1 && kw == 3 && sw == 1) return inner(1, 3, 1, rows, wv, ox, ox_hi, win, b, yr);
  if (dw == 1 && kw == 3 && sw == 2) return inner(2, 3, 1, rows, wv, ox, ox_hi, win, b, yr);
  if (dw == 1 && kw == 5 && sw == 1) return inner(1, 5, 1, rows, wv, ox, ox_hi, win, b, yr);
  if (dw == 1 && kw == 5 && sw == 2) return inner(2, 5, 1, rows, wv, ox, ox_hi, win, b, yr);
  if (sw == 1) return inner(1, kw, dw, rows, wv, ox, ox_hi, win, b, yr);
  if (sw == 2) return inner(2, kw, dw, rows, wv, ox, ox_hi, win, b, yr);
  return inner(sw, kw, dw, rows, wv, ox, ox_hi, win, b, yr);
}

void wnn_f32_dwconv2d__wasmsimd(size_t channels, const float *x, const float *w,
                                const float *bias, float *y, const wnn_window2d *win) {
  const size_t taps = win->k_h * win->k_w;
  if (taps > MAX_TAPS || taps == 0) {
    wnn_f32_dwconv2d__scalar(channels, x, w, bias, y, win);
    return;
  }
  const size_t in_plane = win->in_h * win->in_w, out_plane = win->out_h * win->out_w;
  /* Output columns [ox_lo, ox_hi) have every tap inside the input columns:
   * ox * stride_w >= pad_l and ox * stride_w - pad_l + span <= in_w - 1. */
  const size_t sw = win->stride_w, span = (win->k_w - 1) * win->dil_w;
  size_t ox_lo = (win->pad_l + sw - 1) / sw, ox_hi = 0;
  if (win->in_w + win->pad_l >= span + 1) ox_hi = (win->in_w - 1 + win->pad_l - span) / sw + 1;
  if (ox_hi > win->out_w) ox_hi = win->out_w;
  if (ox_lo > ox_hi) ox_lo = ox_hi;
  v128_t wv[MAX_TAPS];
  const float *rows[MAX_TAPS];
  for (size_t c = 0; c < channels; c++) {
    const float b = bias ? bias[c] : 0.0f;
    const float *xc = x + c * in_plane, *wc = w + c * taps;
    float *yc = y + c * out_plane;
    for (size_t t = 0; t < taps; t++) wv[t] = wasm_f32x4_splat(wc[t]);
    for (size_t oy = 0; oy < win->out_h; oy++) {
      for (size_t ky = 0; ky < win->k_h; ky++) {
        const size_t iy_pad = oy * win->stride_h + ky * win->dil_h;
        const bool inside = iy_pad >= win->pad_t && iy_pad - win->pad_t < win->in_h;
        rows[ky] = inside ? xc + (iy_pad - win->pad_t) * win->in_w : NULL;
      }
      float *yr = yc + oy * win->out_w;
      size_t ox = 0;
      for (; ox < ox_lo; ox++) yr[ox] = edge(rows, wc, ox, win, b);
      ox = inner_any(rows, wv, ox, ox_hi, win, b, yr);
      for (; ox < win->out_w; ox++) yr[ox] = edge(rows, wc, ox, win, b);
    }
  }
}
