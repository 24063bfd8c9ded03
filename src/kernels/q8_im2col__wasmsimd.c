/*
 * SIMD128 int8 im2col (kernels.h, wnn_q8_im2col_ukernel), the values of
 * q8_im2col__scalar.c. Window rows go in pairs (r, r + 1), the two slots of
 * a K-pair, along runs of output pixels within one output row. Where both
 * rows' taps are inside the input (or a row is all zeros: padding rows, the
 * odd last row) and the stride is 1 or 2, 8 pixels at a time: 8 (or 16,
 * every other byte kept) bytes of each row widened, minus the zero point,
 * interleaved into 8 pairs. Elsewhere pixel by pixel with every bounds check.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

typedef struct row {
  const uint8_t *x; /* the channel's plane */
  size_t ky, kx;
  bool zero;        /* all of this row's values are 0 for the current output row */
} row;

static inline int16_t tap(const row *r, size_t oy, size_t ox, const wnn_window2d *w,
                          const wnn_q8_pack_params *p) {
  if (r->zero) return 0;
  const size_t iy = oy * w->stride_h + r->ky * w->dil_h, ix = ox * w->stride_w + r->kx * w->dil_w;
  if (iy < w->pad_t || iy - w->pad_t >= w->in_h || ix < w->pad_l || ix - w->pad_l >= w->in_w)
    return 0;
  const uint8_t v = r->x[(iy - w->pad_t) * w->in_w + (ix - w->pad_l)];
  return (int16_t)((p->s8 ? (int32_t)(int8_t)v : (int32_t)v) - p->zero_point);
}

/* The output columns [lo, hi) whose tap of row r is inside the input, for
 * stride s: lo is the first ox with ox s + kx dil >= pad_l, hi the first with
 * ox s + kx dil >= pad_l + in_w. */
static void inside_cols(const row *r, const wnn_window2d *w, size_t *lo, size_t *hi) {
  const size_t off = r->kx * w->dil_w, s = w->stride_w;
  const size_t a = w->pad_l, b = w->pad_l + w->in_w;
  *lo = off >= a ? 0 : (a - off + s - 1) / s;
  *hi = off >= b ? 0 : (b - off + s - 1) / s;
  if (*hi > w->out_w) *hi = w->out_w;
}

/* 8 values of row r from output column ox, as int16 minus the zero point
 * (the caller checked that they and, for stride 2, the byte after the last
 * are inside the input row). */
static inline v128_t load8(const row *r, size_t oy, size_t ox, const wnn_window2d *w, v128_t mask,
                           v128_t zp) {
  if (r->zero) return wasm_i16x8_const_splat(0);
  const size_t iy = oy * w->stride_h + r->ky * w->dil_h - w->pad_t;
  const uint8_t *src = r->x + iy * w->in_w + ox * w->stride_w + r->kx * w->dil_w - w->pad_l;
  v128_t v;
  if (w->stride_w == 1) {
    v = wasm_v128_load64_zero(src);
  } else {
    v = wasm_v128_load(src);
    v = wasm_i8x16_shuffle(v, v, 0, 2, 4, 6, 8, 10, 12, 14, 0, 2, 4, 6, 8, 10, 12, 14);
  }
  return wasm_i16x8_sub(wasm_u16x8_extend_low_u8x16(wasm_v128_xor(v, mask)), zp);
}

void wnn_q8_im2col__wasmsimd(size_t channels, const uint8_t *x, size_t p0, size_t np, int16_t *y,
                             const wnn_window2d *w, const wnn_q8_pack_params *p) {
  const size_t taps = w->k_h * w->k_w, k = channels * taps, plane = w->in_h * w->in_w;
  const bool vec = w->stride_w == 1 || w->stride_w == 2;
  const v128_t mask = wasm_i8x16_splat(p->s8 ? (int8_t)0x80 : 0);
  const v128_t zp = wasm_i16x8_splat((int16_t)(p->zero_point + (p->s8 ? 128 : 0)));
  for (size_t r0 = 0; r0 < k; r0 += 2) {
    row rows[2];
    for (size_t t = 0; t < 2; t++) {
      const size_t r = r0 + t < k ? r0 + t : r0;
      rows[t] = (row){x + r / taps * plane, r % taps / w->k_w, r % w->k_w, false};
    }
    const bool odd = r0 + 1 == k;
    int16_t *yr = y + (r0 / 2) * 2 * np;
    for (size_t pix = p0; pix < p0 + np;) {
      const size_t oy = pix / w->out_w, ox0 = pix % w->out_w;
      const size_t ox1 = p0 + np - pix < w->out_w - ox0 ? ox0 + (p0 + np - pix) : w->out_w;
      int16_t *ys = yr + 2 * (pix - p0); /* column ox of this output row at ys + 2 (ox - ox0) */
      /* The columns where both rows can be loaded as vectors. */
      size_t lo = 0, hi = w->out_w;
      for (size_t t = 0; t < 2; t++) {
        const size_t iy = oy * w->stride_h + rows[t].ky * w->dil_h;
        rows[t].zero = (t == 1 && odd) || iy < w->pad_t || iy - w->pad_t >= w->in_h;
        if (rows[t].zero) continue;
        size_t l, h;
        inside_cols(&rows[t], w, &l, &h);
        /* stride 2 loads 16 bytes: the byte after the last tap must be in the row */
        if (w->stride_w == 2 && h > l && (h - 1) * 2 + rows[t].kx * w->dil_w - w->pad_l + 1 >= w->in_w)
          h--;
        lo = l > lo ? l : lo, hi = h < hi ? h : hi;
      }
      if (!vec || hi < lo) lo = hi = ox0;
      lo = lo > ox0 ? lo : ox0, hi = hi < ox1 ? hi : ox1;
      if (hi < lo) hi = lo;
      size_t ox = ox0;
      for (; ox < lo; ox++) {
        ys[2 * (ox - ox0)] = tap(&rows[0], oy, ox, w, p);
        ys[2 * (ox - ox0) + 1] = tap(&rows[1], oy, ox, w, p);
      }
      for (; ox + 8 <= hi; ox += 8) {
        const v128_t v0 = load8(&rows[0], oy, ox, w, mask, zp);
        const v128_t v1 = load8(&rows[1], oy, ox, w, mask, zp);
        int16_t *o = ys + 2 * (ox - ox0);
        wasm_v128_store(o, wasm_i16x8_shuffle(v0, v1, 0, 8, 1, 9, 2, 10, 3, 11));
        wasm_v128_store(o + 8, wasm_i16x8_shuffle(v0, v1, 4, 12, 5, 13, 6, 14, 7, 15));
      }
      for (; ox < ox1; ox++) {
        ys[2 * (ox - ox0)] = tap(&rows[0], oy, ox, w, p);
        ys[2 * (ox - ox0) + 1] = tap(&rows[1], oy, ox, w, p);
      }
      pix += ox1 - ox0;
    }
  }
}
