/* IEEE 754 binary16 ("float16", "half") <-> binary32, one element, on the bits:
 * the scalar conversion that the scalar kernels (kernels/f16_f32_vcvt__scalar.c,
 * kernels/f32_f16_vcvt__scalar.c), the ops and the importer share.
 *
 *   f16 -> f32  exact (every half is a float); NaNs keep their sign and payload
 *               and come out quiet.
 *   f32 -> f16  rounds to nearest, ties to even; past the largest half (65504)
 *               by half an ulp or more gives an infinity of the same sign;
 *               results below 2^-14 are subnormal (not flushed); a NaN gives a
 *               quiet NaN of the same sign with the top 9 payload bits kept.
 *
 * The oracle these are tested against is written differently, in floating
 * point (wnn_ref_f16_to_f32 and wnn_ref_f32_to_f16, src/ref/ref_tensor_shape.c);
 * tests/kernels/test_cvt_f16.c checks all 65536 halves and the edge floats. */
#ifndef WNN_BASE_HALF_H
#define WNN_BASE_HALF_H

#include <stdint.h>
#include <string.h>

static inline float wnn_f16_to_f32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exp = h & 0x7c00u, man = h & 0x03ffu;
  uint32_t bits;
  if (exp == 0x7c00u) {
    /* Infinity, or a NaN made quiet (bit 22). */
    bits = 0x7f800000u | (man << 13) | (man ? 0x00400000u : 0);
  } else if (exp != 0) {
    /* Normal: rebias the exponent from 15 to 127. */
    bits = ((uint32_t)(h & 0x7fffu) << 13) + ((127u - 15u) << 23);
  } else {
    /* Zero or subnormal, man * 2^-24: exact in float. */
    float f = (float)man * 0x1p-24f;
    memcpy(&bits, &f, 4);
  }
  bits |= sign;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

static inline uint16_t wnn_f32_to_f16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, 4);
  const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  const uint32_t a = bits & 0x7fffffffu;
  if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x03ffu)); /* NaN */
  if (a >= 0x47800000u) return (uint16_t)(sign | 0x7c00u); /* >= 65536, or infinity */
  if (a < 0x38800000u) {
    /* Below 2^-14: a subnormal (or zero) result, in units of 2^-24. Adding 0.5
     * makes the FPU round at exactly that unit (the ulp of [0.5, 1)), to
     * nearest even; the sum's low mantissa bits are the result (1024, the
     * smallest normal, when it rounds up that far). */
    float s = (f < 0 ? -f : f) + 0.5f;
    uint32_t sb;
    memcpy(&sb, &s, 4);
    return (uint16_t)(sign | (sb - 0x3f000000u));
  }
  /* Normal: drop 13 mantissa bits rounding to nearest even (a carry may
   * reach the exponent, up to infinity at 65520 and above), then rebias. */
  const uint32_t r = a + 0x0fffu + ((a >> 13) & 1u);
  return (uint16_t)(sign | ((r >> 13) - ((127u - 15u) << 10)));
}

#endif /* WNN_BASE_HALF_H */
