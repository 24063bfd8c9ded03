/*
 * Depthwise convolution of one uint8/int8 plane with int8 weights, SIMD128.
 *
 * The input rows an output row reads are copied into lines that carry the
 * padding: the zero point left and right of the row, and a whole line of it
 * for a row in the padding; a line stays while the next output rows read
 * it. Every output column then reads its taps from the lines without bounds
 * checks, and a padded tap adds (x_zp - x_zp) * w = 0, as in the scalar
 * kernel. At stride 2 each line is split into its even and its odd columns,
 * so that the taps read consecutive bytes as at stride 1.
 *
 * The taps are taken in pairs (in the order ky, kx); for 8 output columns at
 * a time, the two taps' bytes are interleaved into one vector (two 8-byte
 * loads and one byte interleave), widened to int16 and multiplied by the pair
 * of weights with i32x4.dot_i16x8_s, which adds both products into the
 * output's int32 lane. An odd last tap pairs with a zero weight. The last 8
 * columns of a row overlap the group before (storing the same values); a row
 * of fewer than 8 goes through a buffer.
 *
 * The zero point is not subtracted per tap: acc = bias - x_zp * (sum of the
 * weights) + sum of x * w, the same integer as the scalar kernel's bias +
 * sum of (x - x_zp) * w. int8 x is copied into the lines as uint8 x ^ 0x80
 * (= x + 128), with the zero point moved by 128 too, so one path serves both.
 * The sums are exact in int32 when |bias| + taps * 255 * 128 < 2^31. A plane
 * whose bias is larger, a kernel of more than 64 taps, lines of more than
 * 8 KiB in all, or a stride above 2 (rare in depthwise layers; it would need
 * lane-by-lane gathers) goes to the scalar kernel.
 *
 * The requantization is the scalar kernel's, lane by lane: convert (exact),
 * multiply by the scale, f32x4.nearest, add the zero point, then pmax(lo, v)
 * and pmin(hi, v) (exactly its comparisons; NaN gives lo); int8 y goes
 * through uint8's range (+128, exact: a value that rounds there, |v| >=
 * 2^24, is clamped either way). Bitwise equal to the scalar kernel.
 */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/q8.h"

enum { MAX_TAPS = 64, MAX_PAIRS = MAX_TAPS / 2, LINE_BYTES = 8192 };

#define INLINE static inline __attribute__((always_inline))

/* Output j's bytes of tap a and tap b at bytes 2j and 2j + 1, j < 8. pa and
 * pb point at output 0's input. */
INLINE v128_t pair8(const uint8_t *pa, const uint8_t *pb) {
  return wasm_i8x16_shuffle(wasm_v128_load64_zero(pa), wasm_v128_load64_zero(pb), 0, 16, 1, 17, 2,
                            18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
}

/* The taps of the plane, paired: where output column 0 of the current row
 * reads each tap (add ox * stride), and the weight pairs as int16 lanes
 * (w_a, w_b) repeated. */
typedef struct plane_taps {
  size_t np;
  const uint8_t *a[MAX_PAIRS], *b[MAX_PAIRS];
  v128_t w[MAX_PAIRS];
} plane_taps;

/* The requantization, for int8 y moved by 128 into uint8's range (zp, lo
 * and hi + 128, exact in float), the bytes then flipped back (^ 0x80): one
 * path for both output types. */
typedef struct epilogue {
  v128_t corr, scale, zp, lo, hi, flip;
} epilogue;

INLINE v128_t requant4(v128_t acc, const epilogue *e) {
  v128_t v = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), e->scale);
  v = wasm_f32x4_add(wasm_f32x4_nearest(v), e->zp);
  v = wasm_f32x4_pmax(e->lo, v);
  v = wasm_f32x4_pmin(e->hi, v);
  return wasm_i32x4_trunc_sat_f32x4(v);
}

/* 8 outputs from column ox, as the low 8 bytes. The tap pointers and
 * weights come in locals: stores to y (bytes) may alias anything in memory.
 * out8 takes any np; out8_unrolled a constant np only (the pragma unrolls
 * its pair loop, which -O2 -funroll-loops left rolled: 2x slower). */
#define OUT8_BODY                                                                            \
  {                                                                                          \
    const v128_t v = pair8(pa[k] + ox, pb[k] + ox);                                         \
    a0 = wasm_i32x4_add(a0, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(v), wv[k]));  \
    a1 = wasm_i32x4_add(a1, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(v), wv[k])); \
  }

INLINE v128_t out8_end(v128_t a0, v128_t a1, const epilogue *e) {
  const v128_t h = wasm_i16x8_narrow_i32x4(requant4(a0, e), requant4(a1, e));
  return wasm_v128_xor(wasm_u8x16_narrow_i16x8(h, h), e->flip);
}

INLINE v128_t out8(size_t np, const uint8_t *const *pa, const uint8_t *const *pb,
                   const v128_t *wv, size_t ox, const epilogue *e) {
  v128_t a0 = e->corr, a1 = a0;
  for (size_t k = 0; k < np; k++) OUT8_BODY
  return out8_end(a0, a1, e);
}

INLINE v128_t out8_unrolled(size_t np, const uint8_t *const *pa,
                            const uint8_t *const *pb, const v128_t *wv, size_t ox,
                            const epilogue *e) {
  v128_t a0 = e->corr, a1 = a0;
#pragma clang loop unroll(full)
  for (size_t k = 0; k < np; k++) OUT8_BODY
  return out8_end(a0, a1, e);
}

/* One output row: 8 columns at a time; the last group overlaps the one
 * before (storing the same values there), or, in a row of fewer than 8,
 * goes through a buffer. One call of OUT (out8 or out8_unrolled), so that
 * it is inlined once. */
#define ROW_BODY(OUT)                                                                 \
  const uint8_t *pa[MAX_PAIRS], *pb[MAX_PAIRS];                                       \
  v128_t wv[MAX_PAIRS];                                                               \
  for (size_t k = 0; k < np; k++) pa[k] = t->a[k], pb[k] = t->b[k], wv[k] = t->w[k]; \
  const epilogue e = *in_e;                                                           \
  uint8_t tmp[8];                                                                     \
  const bool narrow_row = out_w < 8;                                                  \
  for (size_t ox = 0; ox < out_w; ox += 8) {                                          \
    const size_t at = narrow_row || ox + 8 <= out_w ? ox : out_w - 8;                 \
    const v128_t v = OUT(np, pa, pb, wv, at, &e);                                 \
    wasm_v128_store64_lane(narrow_row ? tmp : yr + at, v, 0);                         \
  }                                                                                   \
  if (narrow_row) memcpy(yr, tmp, out_w);

INLINE void row(size_t np, const plane_taps *t, size_t out_w, const epilogue *in_e,
                uint8_t *yr) {
  ROW_BODY(out8)
}

INLINE void row_unrolled(size_t np, const plane_taps *t, size_t out_w,
                         const epilogue *in_e, uint8_t *yr) {
  ROW_BODY(out8_unrolled)
}

static void row_any(const plane_taps *t, size_t out_w, const epilogue *e, uint8_t *yr) {
  if (t->np == 5) row_unrolled(5, t, out_w, e, yr); /* 3x3 */
  else if (t->np == 13) row_unrolled(13, t, out_w, e, yr); /* 5x5 */
  else row(t->np, t, out_w, e, yr);
}

/* An input row into a line: the zero point on the left (pad_l bytes) and
 * right, the row in between, each byte ^ flip. */
static void fill_line(uint8_t *line, size_t line_w, const uint8_t *xr, size_t pad_l, size_t in_w,
                      uint8_t zp, uint8_t flip) {
  memset(line, zp, pad_l);
  uint8_t *d = line + pad_l;
  size_t i = 0;
  if (flip) {
    const v128_t f = wasm_i8x16_splat((int8_t)flip);
    for (; i + 16 <= in_w; i += 16) wasm_v128_store(d + i, wasm_v128_xor(wasm_v128_load(xr + i), f));
    for (; i < in_w; i++) d[i] = xr[i] ^ flip;
  } else {
    memcpy(d, xr, in_w);
  }
  memset(d + in_w, zp, line_w - pad_l - in_w);
}

/* Stride 2: a padded line split into its even columns (first half) and its
 * odd ones (second half), so that the taps read stride 1. */
static void split_line(uint8_t *dst, const uint8_t *src, size_t half_w) {
  for (size_t i = 0; i < half_w; i += 16) {
    const v128_t a = wasm_v128_load(src + 2 * i), b = wasm_v128_load(src + 2 * i + 16);
    wasm_v128_store(dst + i, wasm_i8x16_shuffle(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22,
                                                24, 26, 28, 30));
    wasm_v128_store(dst + half_w + i, wasm_i8x16_shuffle(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19,
                                                         21, 23, 25, 27, 29, 31));
  }
}

void wnn_qs8_dwconv2d__wasmsimd(const void *x, const int8_t *w, int32_t bias, float scale, void *y,
                                const wnn_qs8_dwconv_params *params) {
  const wnn_window2d *g = &params->win;
  const size_t taps = g->k_h * g->k_w, span = (g->k_w - 1) * g->dil_w;
  const int64_t reach = (int64_t)taps * 255 * 128;
  /* The last output column a group of 8 computes (from out_w - 8, or 0). */
  const size_t last = (g->out_w < 8 ? 8 : g->out_w) - 1;
  /* Stride 2 splits each line into even and odd columns (half_w each; the
   * taps then read stride 1 there); other strides read the line as it is. */
  const bool split = g->stride_w == 2;
  size_t line_w, half_w = 0;
  if (split) {
    half_w = last + span / 2 + 8;
    if (2 * half_w < g->pad_l + g->in_w) half_w = (g->pad_l + g->in_w + 1) / 2;
    half_w = (half_w + 15) & ~(size_t)15;
    line_w = 2 * half_w;
  } else {
    line_w = last + span + 1;
    if (line_w < g->pad_l + g->in_w) line_w = g->pad_l + g->in_w;
    line_w = (line_w + 15) & ~(size_t)15;
  }
  /* Lines are kept per padded input row in nslots slots (row r in slot
   * r % nslots): the rows one output row reads span fewer than nslots, so
   * they never share a slot, and a row stays for the next output rows. */
  const size_t nslots = (g->k_h - 1) * g->dil_h + 1;
  if (g->stride_w > 2 || taps == 0 || taps > MAX_TAPS || (nslots + split) * line_w > LINE_BYTES ||
      (int64_t)bias > INT32_MAX - reach || (int64_t)bias < INT32_MIN + reach) {
    wnn_qs8_dwconv2d__scalar(x, w, bias, scale, y, params);
    return;
  }
  const uint8_t flip = params->x_signed ? 0x80 : 0;
  const uint8_t zp = (uint8_t)params->x_zero_point ^ flip;
  plane_taps t;
  int8_t wt[MAX_TAPS + 1];
  size_t col[MAX_TAPS + 1], ky_of[MAX_TAPS + 1];
  int32_t wsum = 0;
  for (size_t ky = 0, n = 0; ky < g->k_h; ky++)
    for (size_t kx = 0; kx < g->k_w; kx++, n++) {
      const size_t c = kx * g->dil_w;
      col[n] = !split ? c : c % 2 ? half_w + c / 2 : c / 2;
      ky_of[n] = ky;
      wt[n] = w[n];
      wsum += w[n];
    }
  if (taps % 2) col[taps] = col[taps - 1], ky_of[taps] = ky_of[taps - 1], wt[taps] = 0;
  t.np = (taps + 1) / 2;
  for (size_t k = 0; k < t.np; k++)
    t.w[k] = wasm_i32x4_splat((int32_t)((uint32_t)(uint16_t)wt[2 * k] |
                                        (uint32_t)(uint16_t)wt[2 * k + 1] << 16));
  const float ymove = params->y_signed ? 128.0f : 0.0f;
  const epilogue e = {
      .corr = wasm_i32x4_splat(bias - (int32_t)zp * wsum),
      .scale = wasm_f32x4_splat(scale),
      .zp = wasm_f32x4_splat(params->y_zero_point + ymove),
      .lo = wasm_f32x4_splat(params->y_min + ymove),
      .hi = wasm_f32x4_splat(params->y_max + ymove),
      .flip = wasm_i8x16_splat(params->y_signed ? (int8_t)0x80 : 0),
  };
  _Alignas(16) uint8_t lines[LINE_BYTES];
  uint8_t *spare = lines + nslots * line_w; /* stride 2: the padded line before its split */
  size_t held[LINE_BYTES / 16]; /* the padded row in each slot, + 1 (0: none); line_w >= 16 */
  memset(held, 0, nslots * sizeof held[0]);
  const uint8_t *xb = x;
  uint8_t *yb = y;
  const uint8_t *rowp[MAX_TAPS];
  for (size_t oy = 0; oy < g->out_h; oy++) {
    for (size_t ky = 0; ky < g->k_h; ky++) {
      const size_t iy_pad = oy * g->stride_h + ky * g->dil_h, slot = iy_pad % nslots;
      uint8_t *line = lines + slot * line_w;
      rowp[ky] = line;
      if (held[slot] == iy_pad + 1) continue;
      held[slot] = iy_pad + 1;
      if (iy_pad < g->pad_t || iy_pad - g->pad_t >= g->in_h) {
        memset(line, zp, line_w);
      } else {
        const uint8_t *xr = xb + (iy_pad - g->pad_t) * g->in_w;
        fill_line(split ? spare : line, line_w, xr, g->pad_l, g->in_w, zp, flip);
        if (split) split_line(line, spare, half_w);
      }
    }
    for (size_t k = 0; k < t.np; k++)
      t.a[k] = rowp[ky_of[2 * k]] + col[2 * k], t.b[k] = rowp[ky_of[2 * k + 1]] + col[2 * k + 1];
    row_any(&t, g->out_w, &e, yb + oy * g->out_w);
  }
}
