/* The SIMD128 requantization of the int8 kernels, bitwise the scalar one
 * (q8.h, wnn_qs32_requant__scalar):
 *   y = clamp(nearbyintf((float)acc * scale) + zero_point, lo, hi)
 * (NaN gives lo), with lo <= hi whole numbers inside y's type and
 * zero_point a whole number inside it. Include only in kernel files.
 *
 * Done as: v = (float)acc * scale (the same rounding), clamped to
 * [-2^22, 2^22] by pmax / pmin (NaN gives -2^22); v + 1.5 * 2^23 then lies in
 * [2^23, 2^24], where the float grid is the integers, so the add rounds v
 * half to even (1.5 * 2^23 is even) as nearbyintf does, and the sum's bits
 * minus those of 1.5 * 2^23 are that integer. The zero point is added in
 * int32 (folded into the same subtraction); the caller narrows with
 * saturation to 8 bits and clamps there to [lo, hi]. Saturation and the
 * clamp are monotone, so a v beyond +-2^22 (whose float sum would be lo or
 * hi after the clamp anyway) and NaN end where the scalar code puts them;
 * inside, nearbyintf(v) + zero_point is exact in float, equal to the int32
 * sum. This replaces f32x4.nearest, a float add, two float clamps and
 * i32x4.trunc_sat_f32x4_s (several x86 instructions in V8) per 4 lanes. */
#ifndef WNN_KERNELS_Q8_SIMD_H
#define WNN_KERNELS_Q8_SIMD_H

#include <wasm_simd128.h>

/* The int32 addend that turns the magic sum's bits into round(v) + zero_point. */
static inline v128_t wnn_q8_zp_bits(int32_t zero_point) {
  return wasm_i32x4_splat((int32_t)((uint32_t)zero_point - 0x4B400000u));
}

/* round_half_even((float)acc * scale) + zero_point as int32, beyond +-2^22
 * (NaN: -2^22) saturated to +-2^22 + zero_point; zp_bits from
 * wnn_q8_zp_bits. */
static inline v128_t wnn_q8_round_f32x4(v128_t acc, v128_t scale, v128_t zp_bits) {
  v128_t v = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), scale);
  v = wasm_f32x4_pmin(wasm_f32x4_const_splat(0x1p22f),
                      wasm_f32x4_pmax(wasm_f32x4_const_splat(-0x1p22f), v));
  v = wasm_f32x4_add(v, wasm_f32x4_const_splat(0x1.8p23f));
  return wasm_i32x4_add(v, zp_bits);
}

#endif /* WNN_KERNELS_Q8_SIMD_H */
