/* f32 add/sub/mul/div in the three operand layouts of kernels.h: VV, VC
 * (b scalar) and RVC (b scalar, reversed: b op a). Add and mul need no RVC:
 * they commute, so the op layer calls VC with the operands swapped. */
#include "kernels/kernels.h"

static inline float add(float a, float b) { return a + b; }
static inline float sub(float a, float b) { return a - b; }
static inline float mul(float a, float b) { return a * b; }
static inline float dvd(float a, float b) { return a / b; }

/* Each element is read before y is written, so y may alias a or b. */
#define VV(name, f)                                                      \
  void name(size_t n, const float *a, const float *b, float *y) {        \
    for (size_t i = 0; i < n; i++) y[i] = f(a[i], b[i]);                 \
  }
#define VC(name, f)                                                      \
  void name(size_t n, const float *a, const float *b, float *y) {        \
    const float c = b[0];                                                \
    for (size_t i = 0; i < n; i++) y[i] = f(a[i], c);                    \
  }
#define RVC(name, f)                                                     \
  void name(size_t n, const float *a, const float *b, float *y) {        \
    const float c = b[0];                                                \
    for (size_t i = 0; i < n; i++) y[i] = f(c, a[i]);                    \
  }

VV(wnn_f32_vadd__scalar, add)
VC(wnn_f32_vaddc__scalar, add)
VV(wnn_f32_vsub__scalar, sub)
VC(wnn_f32_vsubc__scalar, sub)
RVC(wnn_f32_vrsubc__scalar, sub)
VV(wnn_f32_vmul__scalar, mul)
VC(wnn_f32_vmulc__scalar, mul)
VV(wnn_f32_vdiv__scalar, dvd)
VC(wnn_f32_vdivc__scalar, dvd)
RVC(wnn_f32_vrdivc__scalar, dvd)
