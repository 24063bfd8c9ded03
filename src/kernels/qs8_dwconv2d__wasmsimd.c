/*
 * Depthwise convolution of one uint8/int8 plane with int8 weights, SIMD128.
 *
 * The taps of an output row (those whose input row is inside the input) are
 * taken in pairs; for 8 (or 4) output columns at a time, the two taps' input
 * bytes are interleaved into one vector (stride 1: two 8-byte loads and one
 * byte interleave; stride 2: the even bytes of two 15-byte spans by one
 * shuffle; other strides lane by lane), widened to int16 and multiplied by the
 * pair of weights with i32x4.dot_i16x8_s, which adds both products into the
 * output's int32 lane. An odd last tap pairs with a zero weight.
 *
 * The zero point is not subtracted per tap: acc = bias - x_zp * (sum of the
 * row's valid weights) + sum of x * w, the same integer as the scalar
 * kernel's bias + sum of (x - x_zp) * w. int8 x is read as uint8 x ^ 0x80
 * (= x + 128), with the zero point moved by 128 too, so one path serves both.
 * The sums are exact in int32 when |bias| + taps * 255 * 128 < 2^31; a plane
 * whose bias is larger (or a kernel of more than 64 taps) goes to the scalar
 * kernel. The requantization is the scalar kernel's, lane by lane: convert
 * (exact), multiply by the scale, f32x4.nearest, add the zero point, then
 * pmax(lo, v) and pmin(hi, v) (exactly its comparisons; NaN gives lo).
 *
 * Only the output columns whose whole window lies inside the input columns
 * are vectors; the others (the left and right edges) are computed one by one
 * as the scalar kernel computes them. Bitwise equal to the scalar kernel.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/q8.h"

enum { MAX_TAPS = 64, MAX_PAIRS = MAX_TAPS / 2 };

#define INLINE static inline __attribute__((always_inline))

/* Output j's bytes of tap a and tap b at bytes 2j and 2j + 1, j < 8 (or the
 * low 8 bytes, j < 4, for pair4). pa and pb point at output 0's input. */
INLINE v128_t pair8(size_t sw, const uint8_t *pa, const uint8_t *pb) {
  if (sw == 1)
    return wasm_i8x16_shuffle(wasm_v128_load64_zero(pa), wasm_v128_load64_zero(pb), 0, 16, 1, 17,
                              2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  if (sw == 2) {
    /* bytes 0..7 and 7..14: the even ones are lanes 0, 2, 4, 6, 9, 11, 13, 15 */
    const v128_t a = wasm_v128_load64_lane(pa + 7, wasm_v128_load64_zero(pa), 1);
    const v128_t b = wasm_v128_load64_lane(pb + 7, wasm_v128_load64_zero(pb), 1);
    return wasm_i8x16_shuffle(a, b, 0, 16, 2, 18, 4, 20, 6, 22, 9, 25, 11, 27, 13, 29, 15, 31);
  }
  return wasm_u8x16_make(pa[0], pb[0], pa[sw], pb[sw], pa[2 * sw], pb[2 * sw], pa[3 * sw],
                         pb[3 * sw], pa[4 * sw], pb[4 * sw], pa[5 * sw], pb[5 * sw], pa[6 * sw],
                         pb[6 * sw], pa[7 * sw], pb[7 * sw]);
}

INLINE v128_t pair4(size_t sw, const uint8_t *pa, const uint8_t *pb) {
  if (sw == 1)
    return wasm_i8x16_shuffle(wasm_v128_load32_zero(pa), wasm_v128_load32_zero(pb), 0, 16, 1, 17,
                              2, 18, 3, 19, 0, 16, 1, 17, 2, 18, 3, 19);
  if (sw == 2) {
    /* bytes 0..3 and 3..6: the even ones are lanes 0, 2, 5, 7 */
    const v128_t a = wasm_v128_load32_lane(pa + 3, wasm_v128_load32_zero(pa), 1);
    const v128_t b = wasm_v128_load32_lane(pb + 3, wasm_v128_load32_zero(pb), 1);
    return wasm_i8x16_shuffle(a, b, 0, 16, 2, 18, 5, 21, 7, 23, 0, 16, 2, 18, 5, 21, 7, 23);
  }
  return wasm_u8x16_make(pa[0], pb[0], pa[sw], pb[sw], pa[2 * sw], pb[2 * sw], pa[3 * sw],
                         pb[3 * sw], 0, 0, 0, 0, 0, 0, 0, 0);
}

/* The taps of one output row, paired: input offsets of output column 0
 * (relative to the plane; add ox * stride_w) and the weight pair. */
typedef struct row_taps {
  size_t np;
  ptrdiff_t a[MAX_PAIRS], b[MAX_PAIRS];
  v128_t w[MAX_PAIRS];
  int32_t corr; /* bias - x_zp * (sum of the weights of the valid taps) */
} row_taps;

typedef struct epilogue {
  v128_t scale, zp, lo, hi, flip; /* flip: 0x80 bytes for int8 x, else 0 */
  bool y_signed;
} epilogue;

INLINE v128_t requant4(v128_t acc, const epilogue *e) {
  v128_t v = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), e->scale);
  v = wasm_f32x4_add(wasm_f32x4_nearest(v), e->zp);
  v = wasm_f32x4_pmax(e->lo, v);
  v = wasm_f32x4_pmin(e->hi, v);
  return wasm_i32x4_trunc_sat_f32x4(v);
}

INLINE v128_t narrow(v128_t r0, v128_t r1, bool y_signed) {
  const v128_t h = wasm_i16x8_narrow_i32x4(r0, r1);
  return y_signed ? wasm_i8x16_narrow_i16x8(h, h) : wasm_u8x16_narrow_i16x8(h, h);
}

/* 8 outputs from column ox of one row; np is a constant where the caller
 * knows it, so that the pair loop unrolls. */
INLINE void out8(size_t sw, size_t np, const row_taps *t, const uint8_t *x, size_t ox,
                 const epilogue *e, uint8_t *yr) {
  v128_t a0 = wasm_i32x4_splat(t->corr), a1 = a0;
  const uint8_t *base = x + ox * sw;
  for (size_t k = 0; k < np; k++) {
    const v128_t v = wasm_v128_xor(pair8(sw, base + t->a[k], base + t->b[k]), e->flip);
    a0 = wasm_i32x4_add(a0, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(v), t->w[k]));
    a1 = wasm_i32x4_add(a1, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(v), t->w[k]));
  }
  wasm_v128_store64_lane(yr + ox, narrow(requant4(a0, e), requant4(a1, e), e->y_signed), 0);
}

INLINE void out4(size_t sw, size_t np, const row_taps *t, const uint8_t *x, size_t ox,
                 const epilogue *e, uint8_t *yr) {
  v128_t a0 = wasm_i32x4_splat(t->corr);
  const uint8_t *base = x + ox * sw;
  for (size_t k = 0; k < np; k++) {
    const v128_t v = wasm_v128_xor(pair4(sw, base + t->a[k], base + t->b[k]), e->flip);
    a0 = wasm_i32x4_add(a0, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(v), t->w[k]));
  }
  const v128_t r = requant4(a0, e);
  wasm_v128_store32_lane(yr + ox, narrow(r, r, e->y_signed), 0);
}

/* The inner columns [lo, hi) of one row: 8 at a time, then 4, then one
 * vector ending at hi that overlaps columns already done (storing the same
 * values there); returns the first column not done (lo when hi - lo < 4). */
INLINE size_t inner(size_t sw, size_t np, const row_taps *t, const uint8_t *x, size_t lo,
                    size_t hi, const epilogue *e, uint8_t *yr) {
  if (hi - lo < 4) return lo;
  size_t ox = lo;
  for (; ox + 8 <= hi; ox += 8) out8(sw, np, t, x, ox, e, yr);
  if (ox + 4 <= hi) out4(sw, np, t, x, ox, e, yr), ox += 4;
  if (ox < hi) {
    if (hi - lo >= 8) out8(sw, np, t, x, hi - 8, e, yr);
    else out4(sw, np, t, x, hi - 4, e, yr);
  }
  return hi;
}

static size_t inner_any(const row_taps *t, const uint8_t *x, size_t lo, size_t hi, size_t sw,
                        const epilogue *e, uint8_t *yr) {
  if (sw == 1) {
    if (t->np == 5) return inner(1, 5, t, x, lo, hi, e, yr); /* 3x3 */
    if (t->np == 13) return inner(1, 13, t, x, lo, hi, e, yr); /* 5x5 */
    return inner(1, t->np, t, x, lo, hi, e, yr);
  }
  if (sw == 2) {
    if (t->np == 5) return inner(2, 5, t, x, lo, hi, e, yr);
    if (t->np == 13) return inner(2, 13, t, x, lo, hi, e, yr);
    return inner(2, t->np, t, x, lo, hi, e, yr);
  }
  return inner(sw, t->np, t, x, lo, hi, e, yr);
}

void wnn_qs8_dwconv2d__wasmsimd(const void *x, const int8_t *w, int32_t bias, float scale, void *y,
                                const wnn_qs8_dwconv_params *params) {
  const wnn_window2d *g = &params->win;
  const size_t taps = g->k_h * g->k_w;
  const int64_t reach = (int64_t)taps * 255 * 128;
  if (taps > MAX_TAPS || (int64_t)bias > INT32_MAX - reach || (int64_t)bias < INT32_MIN + reach) {
    wnn_qs8_dwconv2d__scalar(x, w, bias, scale, y, params);
    return;
  }
  const epilogue e = {
      .scale = wasm_f32x4_splat(scale),
      .zp = wasm_f32x4_splat(params->y_zero_point),
      .lo = wasm_f32x4_splat(params->y_min),
      .hi = wasm_f32x4_splat(params->y_max),
      .flip = wasm_i8x16_splat(params->x_signed ? (int8_t)0x80 : 0),
      .y_signed = params->y_signed,
  };
  const int32_t xzp = params->x_zero_point + (params->x_signed ? 128 : 0);
  /* Output columns [ox_lo, ox_hi) have every tap inside the input columns. */
  const size_t sw = g->stride_w, span = (g->k_w - 1) * g->dil_w;
  size_t ox_lo = (g->pad_l + sw - 1) / sw, ox_hi = 0;
  if (g->in_w + g->pad_l >= span + 1) ox_hi = (g->in_w - 1 + g->pad_l - span) / sw + 1;
  if (ox_hi > g->out_w) ox_hi = g->out_w;
  if (ox_lo > ox_hi) ox_lo = ox_hi;
  uint8_t *yb = y;
  row_taps t;
  for (size_t oy = 0; oy < g->out_h; oy++) {
    int8_t wt[MAX_TAPS + 1];
    ptrdiff_t off[MAX_TAPS + 1];
    size_t n = 0;
    int32_t wsum = 0;
    for (size_t ky = 0; ky < g->k_h; ky++) {
      const size_t iy_pad = oy * g->stride_h + ky * g->dil_h;
      if (iy_pad < g->pad_t || iy_pad - g->pad_t >= g->in_h) continue;
      const ptrdiff_t row = (ptrdiff_t)((iy_pad - g->pad_t) * g->in_w) - (ptrdiff_t)g->pad_l;
      for (size_t kx = 0; kx < g->k_w; kx++, n++) {
        off[n] = row + (ptrdiff_t)(kx * g->dil_w);
        wt[n] = w[ky * g->k_w + kx];
        wsum += wt[n];
      }
    }
    if (n % 2) off[n] = off[n - 1], wt[n] = 0;
    t.np = (n + 1) / 2;
    for (size_t k = 0; k < t.np; k++) {
      t.a[k] = off[2 * k], t.b[k] = off[2 * k + 1];
      t.w[k] = wasm_i32x4_splat((int32_t)((uint32_t)(uint16_t)wt[2 * k] |
                                          (uint32_t)(uint16_t)wt[2 * k + 1] << 16));
    }
    t.corr = bias - xzp * wsum;
    uint8_t *yr = yb + oy * g->out_w;
    size_t ox = 0;
    for (; ox < ox_lo; ox++)
      wnn_q8_dwconv_store(y, oy * g->out_w + ox, wnn_q8_dwconv_acc(x, w, bias, oy, ox, params),
                          scale, params);
    ox = inner_any(&t, x, ox, ox_hi, sw, &e, yr);
    for (; ox < g->out_w; ox++)
      wnn_q8_dwconv_store(y, oy * g->out_w + ox, wnn_q8_dwconv_acc(x, w, bias, oy, ox, params),
                          scale, params);
  }
}
