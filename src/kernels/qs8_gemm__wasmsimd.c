/*
 * SIMD128 int8 GEMM row panels (kernels.h, "int8 GEMM"). Each k-pair step
 * splats one pair of A per row as int16 lanes (a0 a1 a0 a1 ...) and loads 4
 * columns x 2 k of B per v128; i32x4.dot_i16x8_s multiplies the 8 lanes and
 * adds each column's two products, and i32x4.add accumulates: 8 multiply-adds
 * per dot. Integer arithmetic, so every variant gives the bits of the scalar
 * kernels (wrapping like them).
 *
 * Conv orientation: A is int8 (the weights as stored), splatted as a 16-bit
 * load and widened (i16x8.extend_low_i8x16_s); an odd last k is a single
 * byte splat, multiplied by B's zero in slot 1. B is int16 K-pairs, one
 * v128.load per 4 columns.
 * pb orientation: A is int16 rows, one v128.load32_splat per pair; B is int8
 * K-pairs, widened as it is loaded (v128.load8x8_s).
 *
 * Rows past mr alias row 0 (computed, never stored); a ragged right edge
 * loads partial vectors (zeros in the missing columns) and stores lane by
 * lane, so nothing outside the panel is read or written.
 */
#include <wasm_simd128.h>

#include "kernels/kernels.h"

#define INLINE static inline __attribute__((always_inline))

/* The first n (0..4) columns of a K-pair row of int16 (2 n elements), zeros
 * above. */
INLINE v128_t load_s16_part(const int16_t *p, size_t n) {
  if (n >= 4) return wasm_v128_load(p);
  if (n == 0) return wasm_i32x4_const_splat(0);
  if (n == 1) return wasm_v128_load32_zero(p);
  const v128_t lo = wasm_v128_load64_zero(p);
  return n == 2 ? lo : wasm_v128_load32_lane(p + 4, lo, 2);
}

/* The first n (0..4) columns of a K-pair row of int8 (2 n bytes), widened to
 * int16 lanes, zeros above. */
INLINE v128_t load_s8_part(const int8_t *p, size_t n) {
  if (n >= 4) return wasm_i16x8_load8x8(p);
  if (n == 0) return wasm_i32x4_const_splat(0);
  v128_t v;
  if (n == 1) v = wasm_v128_load16_lane(p, wasm_i32x4_const_splat(0), 0);
  else {
    v = wasm_v128_load32_zero(p);
    if (n == 3) v = wasm_v128_load16_lane(p + 4, v, 2);
  }
  return wasm_i16x8_extend_low_i8x16(v);
}

/* Stores the first n (1..4, or more: all 4) lanes. */
INLINE void store_part(int32_t *c, v128_t v, size_t n) {
  if (n >= 4) {
    wasm_v128_store(c, v);
  } else if (n == 1) {
    wasm_v128_store32_lane(c, v, 0);
  } else {
    wasm_v128_store64_lane(c, v, 0);
    if (n == 3) wasm_v128_store32_lane(c + 2, v, 2);
  }
}

/* One tile of MR_ x 4 NV_ outputs (MR_ and NV_ constants after inlining),
 * columns [0, nr) of it stored; full: nr == 4 NV_ (plain loads). PB selects
 * the orientation. */
INLINE void tile(const size_t MR_, const size_t NV_, const int PB, const int full, size_t mr,
                 size_t nr, size_t kc, const void *a, size_t a_rs, const void *b, size_t b_rs,
                 const int32_t *init, int32_t *c, size_t c_rs) {
  const int8_t *a8[8];
  const int16_t *a16[8];
  v128_t acc[8][4];
#pragma clang loop unroll(full)
  for (size_t i = 0; i < MR_; i++) {
    const size_t r = i < mr ? i : 0;
    a8[i] = (const int8_t *)a + r * a_rs;
    a16[i] = (const int16_t *)a + r * a_rs;
    const v128_t v0 = wasm_i32x4_splat(init ? init[r] : 0);
#pragma clang loop unroll(full)
    for (size_t v = 0; v < NV_; v++) acc[i][v] = v0;
  }
  const size_t pairs = PB ? (kc + 1) / 2 : kc / 2;
  size_t bo = 0, ao = 0;
  for (size_t q = pairs; q != 0; q--, bo += b_rs, ao += 2) {
    v128_t vb[4];
#pragma clang loop unroll(full)
    for (size_t v = 0; v < NV_; v++) {
      if (PB) {
        const int8_t *bp = (const int8_t *)b + bo + 8 * v;
        vb[v] = full ? wasm_i16x8_load8x8(bp) : load_s8_part(bp, nr > 4 * v ? nr - 4 * v : 0);
      } else {
        const int16_t *bp = (const int16_t *)b + bo + 8 * v;
        vb[v] = full ? wasm_v128_load(bp) : load_s16_part(bp, nr > 4 * v ? nr - 4 * v : 0);
      }
    }
#pragma clang loop unroll(full)
    for (size_t i = 0; i < MR_; i++) {
      const v128_t va = PB ? wasm_v128_load32_splat(a16[i] + ao)
                           : wasm_i16x8_extend_low_i8x16(wasm_v128_load16_splat(a8[i] + ao));
#pragma clang loop unroll(full)
      for (size_t v = 0; v < NV_; v++)
        acc[i][v] = wasm_i32x4_add(acc[i][v], wasm_i32x4_dot_i16x8(va, vb[v]));
    }
  }
  if (!PB && (kc & 1)) { /* the last k alone: B's slot 1 is 0 */
    v128_t vb[4];
#pragma clang loop unroll(full)
    for (size_t v = 0; v < NV_; v++) {
      const int16_t *bp = (const int16_t *)b + bo + 8 * v;
      vb[v] = full ? wasm_v128_load(bp) : load_s16_part(bp, nr > 4 * v ? nr - 4 * v : 0);
    }
#pragma clang loop unroll(full)
    for (size_t i = 0; i < MR_; i++) {
      const v128_t va = wasm_i16x8_extend_low_i8x16(wasm_v128_load8_splat(a8[i] + ao));
#pragma clang loop unroll(full)
      for (size_t v = 0; v < NV_; v++)
        acc[i][v] = wasm_i32x4_add(acc[i][v], wasm_i32x4_dot_i16x8(va, vb[v]));
    }
  }
#pragma clang loop unroll(full)
  for (size_t i = 0; i < MR_; i++) {
#pragma clang loop unroll(full)
    for (size_t v = 0; v < NV_; v++) {
      if (i >= mr) continue;
      if (full) wasm_v128_store(c + i * c_rs + 4 * v, acc[i][v]);
      else if (nr > 4 * v) store_part(c + i * c_rs + 4 * v, acc[i][v], nr - 4 * v);
    }
  }
}

/* A panel: full tiles left to right, then the ragged one. */
INLINE void panel(const size_t MR_, const size_t NV_, const int PB, size_t mr, size_t nc,
                  size_t kc, const void *a, size_t a_rs, const void *b, size_t b_rs,
                  const int32_t *init, int32_t *c, size_t c_rs) {
  const size_t NR_ = 4 * NV_;
  const size_t b_elem = PB ? 1 : 2; /* bytes of B per element */
  const char *bb = b;
  size_t j = 0;
  for (; nc - j >= NR_; j += NR_)
    tile(MR_, NV_, PB, 1, mr, NR_, kc, a, a_rs, bb + 2 * j * b_elem, b_rs, init, c + j, c_rs);
  if (j < nc)
    tile(MR_, NV_, PB, 0, mr, nc - j, kc, a, a_rs, bb + 2 * j * b_elem, b_rs, init, c + j, c_rs);
}

#define DEFINE_QS8_GEMM(MR_, NR_)                                                              \
  void wnn_qs8_gemm_##MR_##x##NR_##__wasmsimd(size_t mr, size_t nc, size_t kc, const int8_t *a, \
                                              size_t a_rs, const int16_t *b, size_t b_rs,       \
                                              const int32_t *init, int32_t *c, size_t c_rs) {   \
    panel(MR_, NR_ / 4, 0, mr, nc, kc, a, a_rs, b, b_rs, init, c, c_rs);                       \
  }                                                                                            \
  void wnn_qs8_gemm_pb_##MR_##x##NR_##__wasmsimd(size_t mr, size_t nc, size_t kc,              \
                                                 const int16_t *a, size_t a_rs, const int8_t *b, \
                                                 size_t b_rs, const int32_t *init, int32_t *c,   \
                                                 size_t c_rs) {                                  \
    panel(MR_, NR_ / 4, 1, mr, nc, kc, a, a_rs, b, b_rs, init, c, c_rs);                       \
  }

DEFINE_QS8_GEMM(4, 8)
