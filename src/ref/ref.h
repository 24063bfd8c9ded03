/*
 * Reference implementations: the test oracle. Each is a direct loop nest
 * written from the ONNX definition, with the contract of the op's run function
 * (src/ops/op.h): it reads the params its op's prepare filled (attributes
 * resolved, e.g. pads after auto_pad) and the tensors' own shapes, and calls no
 * microkernel. Deliberately simple and slow. Built only with WNN_WITH_REFERENCE.
 */
#ifndef WNN_REF_H
#define WNN_REF_H

#include "ops/op.h"

#ifdef WNN_WITH_REFERENCE
/* Index helpers the reference loops share. */

/* Coordinates idx of linear index t in dims (row-major). */
static inline void wnn_ref_unravel(int64_t t, int nd, const int64_t *dims, int64_t *idx) {
  for (int i = nd - 1; i >= 0; i--) idx[i] = t % dims[i], t /= dims[i];
}

/* The linear index of coordinates idx in dims (row-major). */
static inline int64_t wnn_ref_ravel(int nd, const int64_t *dims, const int64_t *idx) {
  int64_t off = 0;
  for (int i = 0; i < nd; i++) off = off * dims[i] + idx[i];
  return off;
}

static inline int64_t wnn_ref_numel(const wnn_tensor *t) {
  return wnn_shape_numel(t->ndim, t->dims);
}

/* The references themselves, wnn_ref_<symbol>, are declared in ops/op.h from
 * ops/ops.inc, and each op's descriptor points at its own. */
#endif

#endif /* WNN_REF_H */
