/* Binary element-wise kernels of the math and logic ops (min, max, pow,
 * prelu, comparisons, and/or/xor, mod) for every input dtype they take
 * (f32, s32, s64, s8, u8 and b8 = bool):
 * y[i] = a[i * sa] op b[i * sb], sa and sb each 0 or 1. Each pair of elements
 * is read before y[i] is written, so y may be a (with sa == 1). */
#include <math.h>

#include "kernels/kernels.h"

#define KERNEL(name, TA, TB, TY, f)                                                      \
  void name(size_t n, const void *a_, size_t sa, const void *b_, size_t sb, void *y_) {  \
    const TA *a = a_;                                                                    \
    const TB *b = b_;                                                                    \
    TY *y = y_;                                                                          \
    for (size_t i = 0; i < n; i++) y[i] = (TY)f(a[i * sa], b[i * sb]);                   \
  }

/* min and max propagate NaN (as numpy's minimum and maximum do). */
static inline float fmin_nan(float a, float b) { return isnan(a) || a < b ? a : b; }
static inline float fmax_nan(float a, float b) { return isnan(a) || a > b ? a : b; }
static inline float prelu(float a, float b) { return a < 0.0f ? a * b : a; }
static inline float pow_s32(float a, int32_t b) { return powf(a, (float)b); }
static inline float pow_s64(float a, int64_t b) { return powf(a, (float)b); }

#define LT(a, b) ((a) < (b))
#define LE(a, b) ((a) <= (b))
#define GT(a, b) ((a) > (b))
#define GE(a, b) ((a) >= (b))
#define EQ(a, b) ((a) == (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define AND(a, b) ((a) != 0 && (b) != 0)
#define OR(a, b) ((a) != 0 || (b) != 0)
#define XOR(a, b) (((a) != 0) != ((b) != 0))
#define FADD(a, b) ((a) + (b))
#define BEQ(a, b) (((a) != 0) == ((b) != 0))

KERNEL(wnn_f32_vxadd__scalar, float, float, float, FADD)
KERNEL(wnn_f32_vxmin__scalar, float, float, float, fmin_nan)
KERNEL(wnn_f32_vxmax__scalar, float, float, float, fmax_nan)
KERNEL(wnn_f32_vxpow__scalar, float, float, float, powf)
KERNEL(wnn_f32_vxpow_s32__scalar, float, int32_t, float, pow_s32)
KERNEL(wnn_f32_vxpow_s64__scalar, float, int64_t, float, pow_s64)
KERNEL(wnn_f32_vxprelu__scalar, float, float, float, prelu)
KERNEL(wnn_f32_vxeq__scalar, float, float, uint8_t, EQ)
KERNEL(wnn_f32_vxlt__scalar, float, float, uint8_t, LT)
KERNEL(wnn_f32_vxle__scalar, float, float, uint8_t, LE)
KERNEL(wnn_f32_vxgt__scalar, float, float, uint8_t, GT)
KERNEL(wnn_f32_vxge__scalar, float, float, uint8_t, GE)
KERNEL(wnn_f32_vxfmod__scalar, float, float, float, fmodf)

/* Integer add wraps (unsigned arithmetic); mod and fmod by 0 give 0, and
 * MIN % -1 is 0 (no undefined behaviour for any input). */
#define INT_KERNELS(T, U, pre)                                                            \
  static inline T pre##_add(T a, T b) { return (T)((U)a + (U)b); }                         \
  static inline T pre##_fmod(T a, T b) { return b == 0 || b == -1 ? 0 : a % b; }           \
  static inline T pre##_mod(T a, T b) {                                                    \
    const T r = pre##_fmod(a, b);                                                          \
    return r != 0 && ((r < 0) != (b < 0)) ? (T)(r + b) : r;                                \
  }                                                                                        \
  KERNEL(wnn_##pre##_vxadd__scalar, T, T, T, pre##_add)                                    \
  KERNEL(wnn_##pre##_vxmin__scalar, T, T, T, MIN)                                          \
  KERNEL(wnn_##pre##_vxmax__scalar, T, T, T, MAX)                                          \
  KERNEL(wnn_##pre##_vxeq__scalar, T, T, uint8_t, EQ)                                      \
  KERNEL(wnn_##pre##_vxlt__scalar, T, T, uint8_t, LT)                                      \
  KERNEL(wnn_##pre##_vxle__scalar, T, T, uint8_t, LE)                                      \
  KERNEL(wnn_##pre##_vxgt__scalar, T, T, uint8_t, GT)                                      \
  KERNEL(wnn_##pre##_vxge__scalar, T, T, uint8_t, GE)                                      \
  KERNEL(wnn_##pre##_vxmod__scalar, T, T, T, pre##_mod)                                    \
  KERNEL(wnn_##pre##_vxfmod__scalar, T, T, T, pre##_fmod)

INT_KERNELS(int32_t, uint32_t, s32)
INT_KERNELS(int64_t, uint64_t, s64)

/* Integer powers: exact (wrapping) for exponents >= 0 by repeated squaring;
 * 1 / a^-b truncated for negative ones; float exponents through double pow,
 * truncated toward zero, 0 when NaN or out of the type's range. */
#define INT_POW(T, U, pre, LO, HI)                                                        \
  static inline T pre##_ipow(T a, int64_t b) {                                             \
    if (b < 0) return a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;                         \
    U r = 1, x = (U)a;                                                                     \
    for (uint64_t e = (uint64_t)b; e; e >>= 1, x *= x)                                     \
      if (e & 1) r *= x;                                                                   \
    return (T)r;                                                                           \
  }                                                                                        \
  static inline T pre##_fpow(T a, float b) {                                               \
    const double r = trunc(pow((double)a, (double)b));                                     \
    return r >= (double)(LO) && r <= (double)(HI) ? (T)r : 0;                              \
  }                                                                                        \
  static inline T pre##_pow_s32(T a, int32_t b) { return pre##_ipow(a, b); }               \
  static inline T pre##_pow_s64(T a, int64_t b) { return pre##_ipow(a, b); }               \
  KERNEL(wnn_##pre##_vxpow__scalar, T, float, T, pre##_fpow)                               \
  KERNEL(wnn_##pre##_vxpow_s32__scalar, T, int32_t, T, pre##_pow_s32)                      \
  KERNEL(wnn_##pre##_vxpow_s64__scalar, T, int64_t, T, pre##_pow_s64)

INT_POW(int32_t, uint32_t, s32, INT32_MIN, INT32_MAX)
/* int64: doubles at the range's ends are not representable, so stay inside */
INT_POW(int64_t, uint64_t, s64, -9223372036854774784.0, 9223372036854774784.0)

/* int8 and uint8: min, max, mod, fmod. */
static inline int8_t s8_fmod(int8_t a, int8_t b) { return b == 0 || b == -1 ? 0 : (int8_t)(a % b); }
static inline int8_t s8_mod(int8_t a, int8_t b) {
  const int8_t r = s8_fmod(a, b);
  return r != 0 && ((r < 0) != (b < 0)) ? (int8_t)(r + b) : r;
}
static inline uint8_t u8_mod(uint8_t a, uint8_t b) { return b == 0 ? 0 : (uint8_t)(a % b); }
KERNEL(wnn_s8_vxmin__scalar, int8_t, int8_t, int8_t, MIN)
KERNEL(wnn_s8_vxmax__scalar, int8_t, int8_t, int8_t, MAX)
KERNEL(wnn_s8_vxmod__scalar, int8_t, int8_t, int8_t, s8_mod)
KERNEL(wnn_s8_vxfmod__scalar, int8_t, int8_t, int8_t, s8_fmod)
KERNEL(wnn_u8_vxmin__scalar, uint8_t, uint8_t, uint8_t, MIN)
KERNEL(wnn_u8_vxmax__scalar, uint8_t, uint8_t, uint8_t, MAX)
KERNEL(wnn_u8_vxmod__scalar, uint8_t, uint8_t, uint8_t, u8_mod)
KERNEL(wnn_u8_vxfmod__scalar, uint8_t, uint8_t, uint8_t, u8_mod)

/* bools (1 byte, any non-zero is true) */
KERNEL(wnn_b8_vxeq__scalar, uint8_t, uint8_t, uint8_t, BEQ)
KERNEL(wnn_b8_vxand__scalar, uint8_t, uint8_t, uint8_t, AND)
KERNEL(wnn_b8_vxor__scalar, uint8_t, uint8_t, uint8_t, OR)
KERNEL(wnn_b8_vxxor__scalar, uint8_t, uint8_t, uint8_t, XOR)
