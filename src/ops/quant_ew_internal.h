/* What the quantized element-wise ops (src/ops/quant_ew.c) share with their
 * references (src/ref/ref_quant_ew.c): the params of QLinearAdd, QLinearMul
 * and QLinearGlobalAveragePool. */
#ifndef WNN_QUANT_EW_INTERNAL_H
#define WNN_QUANT_EW_INTERNAL_H

#include "ops/math_internal.h"
#include "ops/quant_internal.h"

/* The broadcast walked as binary.c walks it; C's dtype; the fused Relu (a
 * clamp of C below at its zero point); the kernels chosen at prepare. */
typedef struct wnn_qbinary_params {
  wnn_dtype a_dtype, b_dtype, c_dtype;
  bool relu;
  wnn_bcast_plan plan;
  wnn_f32_vbinary_ukernel *vv, *vc, *rvc;
  wnn_q8_vcvt_config k;
} wnn_qbinary_params;

/* QLinearGlobalAveragePool: planes rows of plane elements each. */
typedef struct wnn_qgap_params {
  wnn_dtype x_dtype, y_dtype;
  size_t planes, plane;
  wnn_f32_gavgpool_ukernel *gavg;
  wnn_q8_vcvt_config k;
} wnn_qgap_params;

#endif /* WNN_QUANT_EW_INTERNAL_H */
