/* int64 add/sub/mul/div in the VV, VC and RVC layouts of kernels.h.
 * Add, sub and mul wrap around (computed in unsigned arithmetic, where C
 * defines overflow); division truncates toward zero, x / 0 gives 0 and
 * INT64_MIN / -1 gives INT64_MIN, so no input is undefined behaviour. */
#include "kernels/kernels.h"

typedef int64_t T;
typedef uint64_t U;

static inline T add(T a, T b) { return (T)((U)a + (U)b); }
static inline T sub(T a, T b) { return (T)((U)a - (U)b); }
static inline T mul(T a, T b) { return (T)((U)a * (U)b); }
static inline T dvd(T a, T b) {
  if (b == 0) return 0;
  if (b == -1) return (T)(0 - (U)a);
  return a / b;
}

#define VV(name, f)                                          \
  void name(size_t n, const T *a, const T *b, T *y) {        \
    for (size_t i = 0; i < n; i++) y[i] = f(a[i], b[i]);     \
  }
#define VC(name, f)                                          \
  void name(size_t n, const T *a, const T *b, T *y) {        \
    const T c = b[0];                                        \
    for (size_t i = 0; i < n; i++) y[i] = f(a[i], c);        \
  }
#define RVC(name, f)                                         \
  void name(size_t n, const T *a, const T *b, T *y) {        \
    const T c = b[0];                                        \
    for (size_t i = 0; i < n; i++) y[i] = f(c, a[i]);        \
  }

VV(wnn_s64_vadd__scalar, add)
VC(wnn_s64_vaddc__scalar, add)
VV(wnn_s64_vsub__scalar, sub)
VC(wnn_s64_vsubc__scalar, sub)
RVC(wnn_s64_vrsubc__scalar, sub)
VV(wnn_s64_vmul__scalar, mul)
VC(wnn_s64_vmulc__scalar, mul)
VV(wnn_s64_vdiv__scalar, dvd)
VC(wnn_s64_vdivc__scalar, dvd)
RVC(wnn_s64_vrdivc__scalar, dvd)
