/*
 * Depthwise convolution of one uint8/int8 plane with int8 weights, SIMD128.
 *
 * The input rows an output row reads are copied into lines that carry the
 * padding: the zero point left and right of the row, and a whole line of it
 * for a row in the padding; a line stays while the next output rows read
 * it. Every output column then reads its taps from the lines without bounds
 * checks, and a padded tap adds (x_zp - x_zp) * w = 0, as in the scalar
 * kernel.
 *
 * The taps of a kernel row are taken in horizontal pairs, whose bytes are
 * adjacent in the line: v128.load8x8_u at column c gives the int16 lanes
 * x[c], x[c + 1], ..., so its int32 lane m holds the pair (x[c + 2m],
 * x[c + 2m + 1]), and i32x4.dot_i16x8_s by a pair of weights adds both
 * products into that lane. For 8 outputs from column ox:
 *   stride 1: one load at ox + t (t = 0, 2, 4, ...) serves both the even
 *     outputs (taps t, t + 1) and the odd ones (taps t - 1, t); the two sums
 *     are interleaved once, after the requantization;
 *   stride 2: loads at 2 ox + t and 2 ox + t + 8 give outputs 0-3 and 4-7
 *     (taps t, t + 1).
 * A weight outside the row is 0 (it multiplies a byte of the line). One
 * load, one dot and one add per two taps and four outputs, the interleave
 * of no bytes per tap. The last 8 columns of a row overlap the group before
 * (storing the same values); a row of fewer than 8 goes through a buffer.
 *
 * The zero point is not subtracted per tap: acc = bias - x_zp * (sum of the
 * weights) + sum of x * w, the same integer as the scalar kernel's bias +
 * sum of (x - x_zp) * w. int8 x is copied into the lines as uint8 x ^ 0x80
 * (= x + 128), with the zero point moved by 128 too, so one path serves both.
 * The sums are exact in int32 when |bias| + taps * 255 * 128 < 2^31. A plane
 * whose bias is larger, a kernel of more than 64 taps, lines of more than
 * 8 KiB in all, a horizontal dilation (its taps are not adjacent) or a
 * stride above 2 (rare in depthwise layers) goes to the scalar kernel.
 *
 * The requantization is q8_simd.h's (the scalar kernel's bits): the rounded
 * sums plus the zero point narrowed with saturation to uint8, clamped there
 * to [lo, hi]; int8 y goes through uint8's range (zero point, lo and hi +
 * 128). Bitwise equal to the scalar kernel.
 */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/q8.h"
#include "kernels/q8_simd.h"

/* MAX_W: weight pairs per accumulator, k_h * (k_w / 2 + 1) <= taps / 2 + k_h. */
enum { MAX_TAPS = 64, MAX_W = MAX_TAPS / 2 + MAX_TAPS, LINE_BYTES = 8192 };

#define INLINE static inline __attribute__((always_inline))

/* The requantization (q8_simd.h), for int8 y moved by 128 into uint8's
 * range (zero point, lo and hi + 128), the bytes then flipped back (^ 0x80):
 * one path for both output types. */
typedef struct epilogue {
  v128_t corr, scale, zp_bits, lo, hi, flip;
} epilogue;

/* The weights of a plane: for kernel row ky and load t = 2 q (q < np), the
 * int16 pairs (w_a, w_b) repeated that multiply it into acc0 and acc1, at
 * [ky * np + q]. Stride 1: acc0 (even outputs) taps (t, t + 1), acc1 (odd)
 * taps (t - 1, t); stride 2: both taps (t, t + 1). */
typedef struct plane_w {
  size_t kh, np;
  v128_t w0[MAX_W], w1[MAX_W];
} plane_w;

/* 8 outputs from column ox, as the low 8 bytes; rows[ky] is kernel row ky's
 * line. S (the stride) is a constant; KH and NP are too in the unrolled
 * variant (UNROLL: the pragma; -O2 -funroll-loops left the loops rolled: 2x
 * slower), and any in the other (UNROLL empty). */
#define OUT8_BODY(UNROLL)                                                         \
  v128_t a0 = e->corr, a1 = a0;                                                   \
  UNROLL for (size_t ky = 0; ky < KH; ky++) {                                     \
    const uint8_t *r = rows[ky] + S * ox;                                         \
    UNROLL for (size_t q = 0; q < NP; q++) {                                      \
      const v128_t va = wasm_u16x8_load8x8(r + 2 * q);                            \
      const v128_t vb = S == 1 ? va : wasm_u16x8_load8x8(r + 2 * q + 8);          \
      a0 = wasm_i32x4_add(a0, wasm_i32x4_dot_i16x8(va, w0[ky * NP + q]));         \
      a1 = wasm_i32x4_add(a1, wasm_i32x4_dot_i16x8(vb, w1[ky * NP + q]));         \
    }                                                                             \
  }                                                                               \
  return out8_end(S, a0, a1, e);

/* Requantized, even and odd outputs interleaved at stride 1. */
INLINE v128_t out8_end(const size_t S, v128_t a0, v128_t a1, const epilogue *e) {
  const v128_t h = wasm_i16x8_narrow_i32x4(wnn_q8_round_f32x4(a0, e->scale, e->zp_bits),
                                           wnn_q8_round_f32x4(a1, e->scale, e->zp_bits));
  v128_t b = wasm_u8x16_min(wasm_u8x16_max(wasm_u8x16_narrow_i16x8(h, h), e->lo), e->hi);
  if (S == 1)
    b = wasm_i8x16_shuffle(b, b, 0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
  return wasm_v128_xor(b, e->flip);
}

#define PRAGMA_UNROLL _Pragma("clang loop unroll(full)")

INLINE v128_t out8_unrolled(const size_t S, size_t KH, size_t NP, const uint8_t *const *rows,
                            const v128_t *w0, const v128_t *w1, size_t ox, const epilogue *e) {
  OUT8_BODY(PRAGMA_UNROLL)
}

INLINE v128_t out8(const size_t S, size_t KH, size_t NP, const uint8_t *const *rows,
                   const v128_t *w0, const v128_t *w1, size_t ox, const epilogue *e) {
  OUT8_BODY()
}

/* One output row: 8 columns at a time; the last group overlaps the one
 * before (storing the same values there), or, in a row of fewer than 8,
 * goes through a buffer. The line pointers and weights come in locals:
 * stores to y (bytes) may alias anything in memory. One call of OUT (out8
 * or out8_unrolled), so that it is inlined once. */
#define ROW_BODY(UNROLL, OUT)                                                       \
  const uint8_t *rows[MAX_TAPS];                                                    \
  v128_t w0[MAX_W], w1[MAX_W];                                                      \
  UNROLL for (size_t ky = 0; ky < KH; ky++) rows[ky] = in_rows[ky];                 \
  UNROLL for (size_t i = 0; i < KH * NP; i++) w0[i] = pw->w0[i], w1[i] = pw->w1[i]; \
  const epilogue e = *in_e;                                                         \
  uint8_t tmp[8];                                                                   \
  const bool narrow_row = out_w < 8;                                                \
  for (size_t ox = 0; ox < out_w; ox += 8) {                                        \
    const size_t at = narrow_row || ox + 8 <= out_w ? ox : out_w - 8;               \
    const v128_t v = OUT(S, KH, NP, rows, w0, w1, at, &e);                          \
    wasm_v128_store64_lane(narrow_row ? tmp : yr + at, v, 0);                       \
  }                                                                                 \
  for (size_t i = 0; narrow_row && i < out_w; i++) yr[i] = tmp[i];

INLINE void row_unrolled(const size_t S, size_t KH, size_t NP, const uint8_t *const *in_rows,
                         const plane_w *pw, size_t out_w, const epilogue *in_e, uint8_t *yr) {
  ROW_BODY(PRAGMA_UNROLL, out8_unrolled)
}

INLINE void row(const size_t S, size_t KH, size_t NP, const uint8_t *const *in_rows,
                const plane_w *pw, size_t out_w, const epilogue *in_e, uint8_t *yr) {
  ROW_BODY(, out8)
}

/* 3x3 and 5x5 (np 2 and 3 at either stride) with the loops unrolled. */
static void row_any(size_t stride, const uint8_t *const *rows, const plane_w *pw, size_t out_w,
                    const epilogue *e, uint8_t *yr) {
  const size_t kh = pw->kh, np = pw->np;
  if (stride == 1) {
    if (kh == 3 && np == 2) row_unrolled(1, 3, 2, rows, pw, out_w, e, yr);
    else if (kh == 5 && np == 3) row_unrolled(1, 5, 3, rows, pw, out_w, e, yr);
    else row(1, kh, np, rows, pw, out_w, e, yr);
  } else {
    if (kh == 3 && np == 2) row_unrolled(2, 3, 2, rows, pw, out_w, e, yr);
    else if (kh == 5 && np == 3) row_unrolled(2, 5, 3, rows, pw, out_w, e, yr);
    else row(2, kh, np, rows, pw, out_w, e, yr);
  }
}

/* A line of the zero point (line_w a multiple of 16), then an input row
 * copied into it at pad_l, each byte ^ flip: vectors and a byte tail, no
 * libc calls (a memset, memcpy and memset per input row before). */
static void fill_line(uint8_t *line, size_t line_w, const uint8_t *xr, size_t pad_l, size_t in_w,
                      uint8_t zp, uint8_t flip) {
  const v128_t z = wasm_u8x16_splat(zp), f = wasm_u8x16_splat(flip);
  for (size_t i = 0; i < line_w; i += 16) wasm_v128_store(line + i, z);
  if (!xr) return;
  uint8_t *d = line + pad_l;
  if (in_w >= 16) { /* 16 bytes at a time, the last 16 overlapping */
    for (size_t i = 0;; i += 16) {
      const size_t at = i + 16 <= in_w ? i : in_w - 16;
      wasm_v128_store(d + at, wasm_v128_xor(wasm_v128_load(xr + at), f));
      if (at + 16 == in_w) break;
    }
  } else if (in_w >= 8) { /* the first 8 and the last 8 */
    wasm_v128_store64_lane(d, wasm_v128_xor(wasm_v128_load64_zero(xr), f), 0);
    wasm_v128_store64_lane(d + in_w - 8, wasm_v128_xor(wasm_v128_load64_zero(xr + in_w - 8), f), 0);
  } else {
    for (size_t i = 0; i < in_w; i++) d[i] = xr[i] ^ flip;
  }
}

/* Weight ky, kx of the plane as an int16 lane; 0 outside the row. */
static uint32_t weight_at(const int8_t *w, size_t k_w, size_t ky, ptrdiff_t kx) {
  return kx < 0 || kx >= (ptrdiff_t)k_w ? 0u : (uint16_t)w[ky * k_w + (size_t)kx];
}

void wnn_qs8_dwconv2d__wasmsimd(const void *x, const int8_t *w, int32_t bias, float scale, void *y,
                                const wnn_qs8_dwconv_params *params) {
  const wnn_window2d *g = &params->win;
  const size_t taps = g->k_h * g->k_w, S = g->stride_w;
  const int64_t reach = (int64_t)taps * 255 * 128;
  /* Loads per kernel row: t = 0, 2, ..., 2 (np - 1) covers taps t and t + 1
   * (and t - 1 at stride 1). */
  const size_t np = S == 1 ? g->k_w / 2 + 1 : (g->k_w + 1) / 2;
  /* The last output column a group of 8 computes (from out_w - 8, or 0), and
   * the line's bytes: past the last load's, and the whole padded row. */
  const size_t last = (g->out_w < 8 ? 8 : g->out_w) - 1;
  size_t line_w = S * last + 2 * np + 8;
  if (line_w < g->pad_l + g->in_w) line_w = g->pad_l + g->in_w;
  line_w = (line_w + 15) & ~(size_t)15;
  /* Lines are kept per padded input row in nslots slots (row r in slot
   * r % nslots): the rows one output row reads span fewer than nslots, so
   * they never share a slot, and a row stays for the next output rows. */
  const size_t nslots = (g->k_h - 1) * g->dil_h + 1;
  if ((S != 1 && S != 2) || g->dil_w != 1 || taps == 0 || taps > MAX_TAPS ||
      nslots * line_w > LINE_BYTES || (int64_t)bias > INT32_MAX - reach ||
      (int64_t)bias < INT32_MIN + reach) {
    wnn_qs8_dwconv2d__scalar(x, w, bias, scale, y, params);
    return;
  }
  const uint8_t flip = params->x_signed ? 0x80 : 0;
  const uint8_t zp = (uint8_t)params->x_zero_point ^ flip;
  plane_w pw;
  pw.kh = g->k_h, pw.np = np;
  int32_t wsum = 0;
  for (size_t ky = 0; ky < g->k_h; ky++)
    for (size_t q = 0; q < np; q++) {
      const ptrdiff_t t = (ptrdiff_t)(2 * q);
      const ptrdiff_t b = S == 1 ? t - 1 : t; /* acc1's first tap */
      pw.w0[ky * np + q] = wasm_i32x4_splat(
          (int32_t)(weight_at(w, g->k_w, ky, t) | weight_at(w, g->k_w, ky, t + 1) << 16));
      pw.w1[ky * np + q] = wasm_i32x4_splat(
          (int32_t)(weight_at(w, g->k_w, ky, b) | weight_at(w, g->k_w, ky, b + 1) << 16));
    }
  for (size_t i = 0; i < taps; i++) wsum += w[i];
  const int32_t ymove = params->y_signed ? 128 : 0;
  const epilogue e = {
      .corr = wasm_i32x4_splat(bias - (int32_t)zp * wsum),
      .scale = wasm_f32x4_splat(scale),
      .zp_bits = wnn_q8_zp_bits((int32_t)params->y_zero_point + ymove),
      .lo = wasm_u8x16_splat((uint8_t)((int32_t)params->y_min + ymove)),
      .hi = wasm_u8x16_splat((uint8_t)((int32_t)params->y_max + ymove)),
      .flip = wasm_i8x16_splat(params->y_signed ? (int8_t)0x80 : 0),
  };
  _Alignas(16) uint8_t lines[LINE_BYTES];
  size_t held[LINE_BYTES / 16]; /* the padded row in each slot, + 1 (0: none); line_w >= 16 */
  memset(held, 0, nslots * sizeof held[0]);
  const uint8_t *xb = x;
  uint8_t *yb = y;
  const uint8_t *rows[MAX_TAPS];
  for (size_t oy = 0; oy < g->out_h; oy++) {
    for (size_t ky = 0; ky < g->k_h; ky++) {
      const size_t iy_pad = oy * g->stride_h + ky * g->dil_h, slot = iy_pad % nslots;
      uint8_t *line = lines + slot * line_w;
      rows[ky] = line;
      if (held[slot] == iy_pad + 1) continue;
      held[slot] = iy_pad + 1;
      const bool pad_row = iy_pad < g->pad_t || iy_pad - g->pad_t >= g->in_h;
      fill_line(line, line_w, pad_row ? NULL : xb + (iy_pad - g->pad_t) * g->in_w, g->pad_l,
                g->in_w, zp, flip);
    }
    row_any(S, rows, &pw, g->out_w, &e, yb + oy * g->out_w);
  }
}
