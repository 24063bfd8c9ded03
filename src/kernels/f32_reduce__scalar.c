/* Reductions of one strided line into an accumulator (kernels_math.inc). */
#include <math.h>

#include "kernels/kernels.h"

#define REDUCE(name, step)                                                             \
  float name(size_t n, size_t stride, const float *x, float acc, float shift) {        \
    (void)shift;                                                                       \
    for (size_t i = 0; i < n; i++) {                                                   \
      const float v = x[i * stride];                                                   \
      acc = (step);                                                                    \
    }                                                                                  \
    return acc;                                                                        \
  }

REDUCE(wnn_f32_rsum__scalar, acc + v)
REDUCE(wnn_f32_rsumsq__scalar, acc + v * v)
REDUCE(wnn_f32_rabssum__scalar, acc + fabsf(v))
REDUCE(wnn_f32_rprod__scalar, acc * v)
REDUCE(wnn_f32_rmax__scalar, isnan(acc) || v <= acc ? acc : v) /* NaN wins */
REDUCE(wnn_f32_rmin__scalar, isnan(acc) || v >= acc ? acc : v)
REDUCE(wnn_f32_rexpsum__scalar, acc + expf(v - shift))
