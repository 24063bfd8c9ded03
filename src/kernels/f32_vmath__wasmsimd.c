/*
 * exp, tanh, erf, GELU (erf form) and GELU (tanh form), SIMD128, by
 * polynomials instead of the C library's expf, tanhf, erff, erfcf. All five
 * share the exp of wasmsimd_exp.h (n = round(z / ln2), Cody-Waite ln2, a
 * degree-7 polynomial on |r| <= ln2 / 2, 2^n in the exponent bits):
 *
 *   exp(x)   x clamped to [-104, 89] (NaN kept): below -104 the result is
 *            below half the smallest subnormal (0), above 88.73 it overflows
 *            (+inf).
 *   tanh(x)  for |x| <= 1, -m / (2 + m) with m = expm1(-2|x|) =
 *            2^n (r u(r)) + (2^n - 1), which keeps full relative accuracy as
 *            x -> 0 (no 1 - exp(..) cancellation); above, 1 - 2e / (1 + e)
 *            with e = exp(-2|x|); -2|x| clamped at -20 (tanh = 1 there in
 *            float); the sign of x put back last, so tanh(-0) = -0.
 *   erf(a), erfc(a) for a = |x| >= 0: below 0.875, erf(a) = a P(a^2) with P
 *            of degree 5 (a Chebyshev fit of erf(a) / a in a^2, 1e-8
 *            relative); above, erfc(a) = exp(-a^2) Q(t), t = 1 / (1 + 0.4 a),
 *            Q of degree 9 (a Chebyshev fit of erfc(a) exp(a^2) on
 *            a in [0.875, 10.1], 2e-9 relative). a^2 is carried as an exact
 *            head and a small tail (a split into 12 high bits and the rest)
 *            and the tail goes into exp's reduced argument, so exp(-a^2) does
 *            not inherit a^2's rounding (which would cost a^2 * 2^-24
 *            relative, 50 ulp at a = 10). a is clamped at 10.1, where erfc
 *            is below half the smallest subnormal. The erfc half is skipped
 *            when all four lanes are below 0.875.
 *   erf(x)   sign(x) * (a < 0.875 ? a P(a^2) : 1 - R(a)), R a degree-14
 *            polynomial for erfc on [0.875, 3.92] (fitted to the ulp of
 *            1 - erfc(a), which is all erf needs: no exp, no division);
 *            a is clamped at 3.92, past which erf is 1 in float. GELU keeps
 *            the erf/erfc pair above, since its negative tail needs erfc to
 *            its own relative accuracy.
 *   GELU(x)  0.5 x (1 + erf(x / sqrt 2)), as 0.5 x (1 + erf(a)) for x >= 0
 *            and 0.5 x erfc(a) for x < 0 (a = |x| / sqrt 2, with a^2 taken
 *            from x^2 / 2, exactly split): no cancellation in the negative
 *            tail.
 *   GELU_TANH(x) 0.5 x (1 + tanh(v / 2)) = x sigmoid(v) with
 *            v = 2 sqrt(2 / pi) (x + 0.044715 x^3), the sigmoid as in
 *            f32_sigmoid__wasmsimd.c (no cancellation for x < 0).
 *
 * Measured errors against double precision (tests/kernels/test_vmath_simd.c,
 * docs/kernels.md): exp 1.18 ulp, tanh 2.38 ulp, erf 2.36 ulp, GELU 5.93 ulp
 * (relative, including the negative tail), GELU_TANH 19.9 ulp for x >= -4
 * (the rounding of v costs about |v| ulp of the result) and 7.5e-11 absolute
 * below.
 * NaN gives NaN; +-inf give exp 0 / +inf, tanh and erf +-1, both GELUs
 * NaN / +inf (-inf * 0, as ONNX's reference and the scalar rows; finite
 * x below about -14 gives -0).
 *
 * Each kernel is one loop whose last step (1 to 3 elements) goes through a
 * padded vector, so that the polynomial is inlined once per kernel. y may be x.
 */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_exp.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE v128_t splat(float v) { return wasm_f32x4_splat(v); }

/* c[0] x^(k-1) + ... + c[k-1], Horner. */
ALWAYS_INLINE v128_t horner(v128_t x, const float *c, int k) {
  v128_t p = splat(c[0]);
  for (int i = 1; i < k; i++) p = wasm_f32x4_add(wasm_f32x4_mul(p, x), splat(c[i]));
  return p;
}

/* y[i] = f(x[i]) four at a time; the last 1-3 elements through a zero-padded
 * vector (the padding lanes are computed and dropped). */
ALWAYS_INLINE void vmap(size_t n, const float *x, float *y, v128_t (*f)(v128_t)) {
  for (size_t i = 0; i < n; i += 4) {
    const size_t k = n - i < 4 ? n - i : 4;
    if (k == 4) {
      wasm_v128_store(y + i, f(wasm_v128_load(x + i)));
    } else {
      float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      memcpy(t, x + i, k * sizeof(float));
      wasm_v128_store(t, f(wasm_v128_load(t)));
      memcpy(y + i, t, k * sizeof(float));
    }
  }
}

ALWAYS_INLINE v128_t exp4(v128_t x) {
  /* pmax / pmin keep NaN (the comparison is false for it). */
  x = wasm_f32x4_pmin(wasm_f32x4_pmax(x, splat(-104.0f)), splat(89.0f));
  v128_t r;
  const v128_t n = wnn_f32x4_exp_reduce(x, &r);
  const v128_t p = wasm_f32x4_add(wasm_f32x4_mul(wnn_f32x4_exp_poly(r), r), splat(1.0f));
  return wnn_f32x4_scale2n(p, n);
}

ALWAYS_INLINE v128_t tanh4(v128_t x) {
  const v128_t z = wasm_f32x4_pmax(wasm_f32x4_mul(wasm_f32x4_abs(x), splat(-2.0f)), splat(-20.0f));
  v128_t r;
  const v128_t n = wnn_f32x4_exp_reduce(z, &r);
  /* n in [-29, 0]: 2^n is one normal float. */
  const v128_t s = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n),
                                                 wasm_i32x4_splat(127)), 23);
  const v128_t sq = wasm_f32x4_mul(s, wasm_f32x4_mul(wnn_f32x4_exp_poly(r), r)); /* s expm1(r) */
  /* |x| <= 1: -m / (2 + m) with m = expm1(z) = s expm1(r) + (s - 1), exact
   * relative near 0. Above: 1 - 2e / (1 + e) with e = exp(z) = s expm1(r) + s,
   * where the rounding of the small 2e / (1 + e) barely shows in the result. */
  const v128_t big = wasm_f32x4_gt(wasm_f32x4_abs(x), splat(1.0f));
  const v128_t m = wasm_f32x4_add(sq, wasm_f32x4_sub(s, splat(1.0f)));
  const v128_t e = wasm_f32x4_add(sq, s);
  const v128_t num = wasm_v128_bitselect(wasm_f32x4_add(e, e), wasm_f32x4_neg(m), big);
  const v128_t den = wasm_v128_bitselect(wasm_f32x4_add(e, splat(1.0f)),
                                         wasm_f32x4_add(m, splat(2.0f)), big);
  v128_t t = wasm_f32x4_div(num, den);
  t = wasm_v128_bitselect(wasm_f32x4_sub(splat(1.0f), t), t, big);
  /* |t| (t is -0 for m = 0) with x's sign bit. */
  return wasm_v128_or(wasm_f32x4_abs(t), wasm_v128_and(x, wasm_i32x4_splat(INT32_MIN)));
}

/* v^2 = *hi + *lo with *hi exact: v split into its 12 high significant bits
 * h (h * h is exact in 24 bits) and v - h (exact). */
ALWAYS_INLINE void square2(v128_t v, v128_t *hi, v128_t *lo) {
  const v128_t h = wasm_v128_and(v, wasm_i32x4_splat((int32_t)0xFFFFF000u));
  *hi = wasm_f32x4_mul(h, h);
  *lo = wasm_f32x4_mul(wasm_f32x4_add(h, v), wasm_f32x4_sub(v, h));
}

static const float ERF_P[6] = {-0.000621458536198f, 0.0050343706632f, -0.0267929477778f,
                               0.112824965996f, -0.376125545066f, 1.12837915813f};
static const float ERFC_Q[10] = {0.0663780549547f, -0.244758639946f, 0.269018557479f,
                                 -0.094120524468f, 0.188424544239f, 0.153146275179f,
                                 0.21093961868f, 0.22530092155f, 0.225699532306f,
                                 -6.24540522178e-7f};

/* erf(a) in *e and erfc(a) in *c, for a in [0, 10.1] or NaN, with
 * a^2 = s_hi + s_lo (s_hi exact, |s_lo| <= 2^-10 s_hi). */
ALWAYS_INLINE void erf_erfc(v128_t a, v128_t s_hi, v128_t s_lo, v128_t *e, v128_t *c) {
  const v128_t small = wasm_f32x4_lt(a, splat(0.875f));
  const v128_t es = wasm_f32x4_mul(a, horner(wasm_f32x4_add(s_hi, s_lo), ERF_P, 6));
  /* The erfc branch only when a lane needs it (NaN does): activations are
   * mostly small, and this half is the dearer one (exp and a division). */
  v128_t cb = splat(0.0f);
  if (wasm_v128_any_true(wasm_v128_not(small))) {
    /* exp(-s_hi - s_lo): the reduction of -s_hi, then s_lo off the reduced r. */
    v128_t r;
    const v128_t n = wnn_f32x4_exp_reduce(wasm_f32x4_neg(s_hi), &r);
    r = wasm_f32x4_sub(r, s_lo);
    const v128_t ex = wnn_f32x4_scale2n(
        wasm_f32x4_add(wasm_f32x4_mul(wnn_f32x4_exp_poly(r), r), splat(1.0f)), n);
    const v128_t t = wasm_f32x4_div(splat(1.0f), wasm_f32x4_add(wasm_f32x4_mul(a, splat(0.4f)),
                                                                splat(1.0f)));
    cb = wasm_f32x4_mul(ex, horner(t, ERFC_Q, 10));
  }
  *e = wasm_v128_bitselect(es, wasm_f32x4_sub(splat(1.0f), cb), small);
  *c = wasm_v128_bitselect(wasm_f32x4_sub(splat(1.0f), es), cb, small);
}

/* erfc(a) on [0.875, 3.92] as a polynomial of degree 14 in
 * u = (a - 2.3975) * 0.656814 (u in [-1, 1]), a least-squares fit weighted
 * to the ulp of erf(a) = 1 - erfc(a), reweighted towards minimax. */
static const float ERFC_R[15] = {
    -0.000477062247f, 0.000273235346f, 0.00287861843f,  -0.00402292842f, -0.00390461087f,
    0.0151734743f,    -0.0153483199f,  -0.00459308783f, 0.0384810865f,   -0.0648759156f,
    0.0656363815f,    -0.0444385968f,  0.0199989323f,   -0.00547864381f, 0.000697454205f};

ALWAYS_INLINE v128_t erf4(v128_t x) {
  /* erf alone needs erfc(a) only to the ulp of 1 - erfc(a), not to its own:
   * one polynomial on [0.875, 3.92] instead of erf_erfc's exp, division and
   * degree-9 Q; past 3.92 erf(a) is 1 in float (erfc(3.92) < 2^-25). */
  const v128_t a = wasm_f32x4_pmin(wasm_f32x4_abs(x), splat(3.92f));
  const v128_t small = wasm_f32x4_lt(a, splat(0.875f));
  v128_t e = wasm_f32x4_mul(a, horner(wasm_f32x4_mul(a, a), ERF_P, 6));
  if (wasm_v128_any_true(wasm_v128_not(small))) { /* NaN lanes too */
    const v128_t u = wasm_f32x4_mul(wasm_f32x4_sub(a, splat(2.3975f)), splat(0.656814456f));
    const v128_t big = wasm_f32x4_sub(splat(1.0f), horner(u, ERFC_R, 15));
    e = wasm_v128_bitselect(e, wasm_f32x4_pmin(big, splat(1.0f)), small);
  }
  return wasm_v128_or(e, wasm_v128_and(x, wasm_i32x4_splat(INT32_MIN)));
}

ALWAYS_INLINE v128_t gelu4(v128_t x) {
  /* |x| <= 14.28 keeps a = |x| / sqrt 2 <= 10.1; beyond, erfc(a) is 0 in
   * float and 1 + erf(a) is 2. x itself is not clamped: GELU(-inf) is
   * -inf * 0 = NaN, as in ONNX's reference and the scalar row. */
  const v128_t xa = wasm_f32x4_pmin(wasm_f32x4_abs(x), splat(14.28f));
  const v128_t a = wasm_f32x4_mul(xa, splat(0.70710678118654752f));
  v128_t hi, lo, e, c;
  square2(xa, &hi, &lo);
  erf_erfc(a, wasm_f32x4_mul(hi, splat(0.5f)), wasm_f32x4_mul(lo, splat(0.5f)), &e, &c);
  const v128_t neg = wasm_f32x4_lt(x, splat(0.0f));
  const v128_t f = wasm_v128_bitselect(c, wasm_f32x4_add(splat(1.0f), e), neg);
  return wasm_f32x4_mul(wasm_f32x4_mul(x, splat(0.5f)), f);
}

ALWAYS_INLINE v128_t gelu_tanh4(v128_t x) {
  /* v = x (2k + 2k 0.044715 x^2), k = sqrt(2 / pi). */
  const v128_t x2 = wasm_f32x4_mul(x, x);
  const v128_t v = wasm_f32x4_mul(
      x, wasm_f32x4_add(wasm_f32x4_mul(x2, splat(0.0713548163f)), splat(1.5957691216057308f)));
  const v128_t e = wnn_f32x4_exp_nonpositive(wasm_f32x4_neg(wasm_f32x4_abs(v)));
  const v128_t neg = wasm_f32x4_lt(v, splat(0.0f));
  const v128_t num = wasm_v128_bitselect(e, splat(1.0f), neg);
  const v128_t s = wasm_f32x4_div(num, wasm_f32x4_add(splat(1.0f), e));
  /* x = -inf: -inf * 0 = NaN, as the scalar row's 0.5 x (1 + tanh(..)). */
  return wasm_f32x4_mul(x, s);
}

#define VMATH_SIMD(name, f)                                                         \
  void name(size_t n, const float *x, float *y, const wnn_f32_vmath_params *params) { \
    (void)params;                                                                   \
    vmap(n, x, y, f);                                                               \
  }

VMATH_SIMD(wnn_f32_vexp__wasmsimd, exp4)
VMATH_SIMD(wnn_f32_vtanh__wasmsimd, tanh4)
VMATH_SIMD(wnn_f32_verf__wasmsimd, erf4)
VMATH_SIMD(wnn_f32_vgelu__wasmsimd, gelu4)
VMATH_SIMD(wnn_f32_vgelu_tanh__wasmsimd, gelu_tanh4)
