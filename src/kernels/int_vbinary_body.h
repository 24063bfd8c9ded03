/* The body of the integer add/sub/mul/div kernels, shared by the int32 and
 * int64 variants: the includer defines T (the signed type), U (the unsigned
 * type of the same width) and NAME(op) (the kernel's full name).
 *
 * Add, sub and mul wrap around (computed in unsigned arithmetic, where C
 * defines overflow); division truncates toward zero, x / 0 gives 0 and
 * MIN / -1 gives MIN, so no input is undefined behaviour. Layouts (VV, VC,
 * RVC) are those of kernels.h. */

static inline T add(T a, T b) { return (T)((U)a + (U)b); }
static inline T sub(T a, T b) { return (T)((U)a - (U)b); }
static inline T mul(T a, T b) { return (T)((U)a * (U)b); }
static inline T dvd(T a, T b) {
  if (b == 0) return 0;
  if (b == -1) return (T)(0 - (U)a);
  return a / b;
}

#define VV(op, f)                                                \
  void NAME(op)(size_t n, const T *a, const T *b, T *y) {        \
    for (size_t i = 0; i < n; i++) y[i] = f(a[i], b[i]);         \
  }
#define VC(op, f)                                                \
  void NAME(op)(size_t n, const T *a, const T *b, T *y) {        \
    const T c = b[0];                                            \
    for (size_t i = 0; i < n; i++) y[i] = f(a[i], c);            \
  }
#define RVC(op, f)                                               \
  void NAME(op)(size_t n, const T *a, const T *b, T *y) {        \
    const T c = b[0];                                            \
    for (size_t i = 0; i < n; i++) y[i] = f(c, a[i]);            \
  }

VV(vadd, add)
VC(vaddc, add)
VV(vsub, sub)
VC(vsubc, sub)
RVC(vrsubc, sub)
VV(vmul, mul)
VC(vmulc, mul)
VV(vdiv, dvd)
VC(vdivc, dvd)
RVC(vrdivc, dvd)
