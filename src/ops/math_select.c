/* Kernel selection for the families of kernels_math.inc; same rules as
 * src/ops/select.c: the last row the build and `kernels` allow wins. */
#include "ops/math_internal.h"

#if defined(__wasm_simd128__)
#define FN_WASMSIMD(name) name
#else
#define FN_WASMSIMD(name) NULL
#endif
#define FN_SCALAR(name) name
#define FN(name, isa) FN_##isa(name)

enum { ISA_SCALAR = 0, ISA_WASMSIMD = 1 };
enum {
  DT_F32 = WNN_DTYPE_F32, DT_S32 = WNN_DTYPE_I32, DT_S64 = WNN_DTYPE_I64, DT_S8 = WNN_DTYPE_I8,
  DT_U8 = WNN_DTYPE_U8, DT_BOOL = WNN_DTYPE_BOOL
};

#define ROW(name, isa, key, key2) {FN(name, isa), ISA_##isa, key, key2},
#define PICK(table, kernels, want, want2)                                             \
  do {                                                                                \
    for (size_t i_ = sizeof table / sizeof table[0]; i_-- > 0;)                       \
      if (table[i_].fn && (table[i_].isa == ISA_SCALAR || kernels == WNN_KERNELS_AUTO) && \
          table[i_].key == (want) && table[i_].key2 == (want2))                       \
        return table[i_].fn;                                                          \
  } while (0)

wnn_f32_vmath_ukernel *wnn_select_f32_vmath(wnn_kernels kernels, int op) {
  static const struct { wnn_f32_vmath_ukernel *fn; int isa, key, key2; } t[] = {
#define WNN_F32_VMATH(name, isa, op) ROW(name, isa, WNN_VMATH_##op, 0)
#include "kernels/kernels_math.inc"
  };
  PICK(t, kernels, op, 0);
  return NULL;
}

wnn_vbinary_x_ukernel *wnn_select_vbinary_x(wnn_kernels kernels, wnn_dtype dtype, int op) {
  static const struct { wnn_vbinary_x_ukernel *fn; int isa, key, key2; } t[] = {
#define WNN_VBINARY_X(name, isa, dtype, op) ROW(name, isa, WNN_VBIN_##op, DT_##dtype)
#include "kernels/kernels_math.inc"
  };
  PICK(t, kernels, op, (int)dtype);
  return NULL;
}

wnn_f32_softmax_ukernel *wnn_select_f32_logsoftmax(wnn_kernels kernels) {
  static const struct { wnn_f32_softmax_ukernel *fn; int isa, key, key2; } t[] = {
#define WNN_F32_LOGSOFTMAX(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels_math.inc"
  };
  PICK(t, kernels, 0, 0);
  return NULL;
}

wnn_f32_reduce_ukernel *wnn_select_f32_reduce(wnn_kernels kernels, int op) {
  static const struct { wnn_f32_reduce_ukernel *fn; int isa, key, key2; } t[] = {
#define WNN_F32_REDUCE(name, isa, op) ROW(name, isa, WNN_REDUCE_##op, 0)
#include "kernels/kernels_math.inc"
  };
  PICK(t, kernels, op, 0);
  return NULL;
}
