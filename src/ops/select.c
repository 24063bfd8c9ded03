/*
 * Kernel selection, done once per node at prepare time. Tables are built from
 * kernels.inc; a WASMSIMD row is usable only in a build for SIMD128
 * (__wasm_simd128__), and only when the model asked for WNN_KERNELS_AUTO.
 * Rows are listed slowest first, so the last usable row wins.
 */
#include "ops/op_internal.h"

#if defined(__wasm_simd128__)
#define WNN_HAVE_WASMSIMD 1
#else
#define WNN_HAVE_WASMSIMD 0
#endif

/* A row's function, or NULL for a variant this build does not have (so the
 * table never names a function that was not compiled). A SIMD128-only build
 * (WNN_SIMD_ONLY: dist/wnn.wasm, CMakeLists.txt) names no scalar kernel that
 * a SIMD128 kernel of the same name replaces: the generated header defines
 * <name>_TWIN for those, and FN_SCALAR tests for it with the probe idiom
 * (WNN_CHECK is 1 when its argument expands to two items, else 0). */
#if defined(WNN_SIMD_ONLY)
#define WNN_PROBE ~, 1
#define WNN_SECOND(a, b, ...) b
#define WNN_CHECK(...) WNN_SECOND(__VA_ARGS__, 0, )
#define WNN_CAT(a, b) WNN_CAT_(a, b)
#define WNN_CAT_(a, b) a##b
#define WNN_TWIN_0(name) name
#define WNN_TWIN_1(name) NULL
#include "kernels/scalar_twins.h"
#define FN_SCALAR(name) WNN_CAT(WNN_TWIN_, WNN_CHECK(name##_TWIN))(name)
#else
#define FN_SCALAR(name) name
#endif
#if WNN_HAVE_WASMSIMD
#define FN_WASMSIMD(name) name
#else
#define FN_WASMSIMD(name) NULL
#endif
#define FN(name, isa) FN_##isa(name)

enum { ISA_SCALAR = 0, ISA_WASMSIMD = 1 };

static bool isa_allowed(int isa, wnn_kernels kernels) {
  return isa == ISA_SCALAR || kernels == WNN_KERNELS_AUTO;
}

/* The last row of table[0..count) with a usable fn that matches (op, kind);
 * op or kind -1 matches anything. */
#define SELECT(table, kernels, want_op, want_kind)                                      \
  do {                                                                                  \
    for (size_t i_ = sizeof table / sizeof table[0]; i_-- > 0;)                         \
      if (table[i_].fn && isa_allowed(table[i_].isa, kernels) &&                        \
          (want_op < 0 || table[i_].op == want_op) &&                                   \
          (want_kind < 0 || table[i_].kind == want_kind))                               \
        return table[i_].fn;                                                            \
  } while (0)

#define ROW(name, isa, op, kind) {FN(name, isa), ISA_##isa, op, kind},

/* For each layout of B and each panel height (several rows, a single row),
 * the last usable row of that layout whose tile is that tall (mr == 1 for a
 * single row); a single-row panel without its own variant uses the layout's
 * main tile, and a layout without variants the ANY one. */
wnn_f32_gemm_config wnn_select_f32_gemm(wnn_kernels kernels) {
  static const struct {
    wnn_f32_gemm_ukernel *fn;
    int isa, op, kind;
    uint8_t mr, nr;
  } t[] = {
#define WNN_F32_GEMM(name, isa, mr, nr, layout) \
  {FN(name, isa), ISA_##isa, WNN_GEMM_B_##layout, (mr) == 1, mr, nr},
#include "kernels/kernels.inc"
  };
  wnn_f32_gemm_config g = {0};
  for (int layout = 0; layout < 3; layout++)
    for (int single = 0; single < 2; single++)
      for (size_t i = sizeof t / sizeof t[0]; i-- > 0;)
        if (t[i].fn && isa_allowed(t[i].isa, kernels) && t[i].op == layout &&
            t[i].kind == single) {
          g.tile[layout][single] = (wnn_f32_gemm_tile){t[i].fn, t[i].mr, t[i].nr};
          break;
        }
  for (int layout = 0; layout < 3; layout++) {
    if (!g.tile[layout][0].fn) g.tile[layout][0] = g.tile[WNN_GEMM_B_ANY][0];
    if (!g.tile[layout][1].fn) g.tile[layout][1] = g.tile[layout][0];
  }
  g.copy2d = wnn_select_x32_copy2d(kernels);
  return g;
}

/* The int8 GEMM: the last usable row of each orientation (with its tile) and
 * of each packing and epilogue family. */
#define LAST_ROW(table, out)                                                       \
  for (size_t i_ = sizeof table / sizeof table[0]; i_-- > 0;)                      \
    if (table[i_].fn && isa_allowed(table[i_].isa, kernels)) {                     \
      out = table[i_];                                                             \
      break;                                                                       \
    }
#define LAST_FN(table, out)                                                        \
  for (size_t i_ = sizeof table / sizeof table[0]; i_-- > 0;)                      \
    if (table[i_].fn && isa_allowed(table[i_].isa, kernels)) {                     \
      out = table[i_].fn;                                                          \
      break;                                                                       \
    }
#define ROW_FN(name, isa) {FN(name, isa), ISA_##isa},

wnn_qs8_gemm_config wnn_select_qs8_gemm(wnn_kernels kernels) {
  typedef struct { wnn_qs8_gemm_ukernel *fn; int isa; uint8_t mr, nr; } conv_row;
  typedef struct { wnn_qs8_gemm_pb_ukernel *fn; int isa; uint8_t mr, nr; } pb_row;
  static const conv_row tc[] = {
#define WNN_QS8_GEMM(name, isa, mr, nr) {FN(name, isa), ISA_##isa, mr, nr},
#include "kernels/kernels.inc"
  };
  static const pb_row tp[] = {
#define WNN_QS8_GEMM_PB(name, isa, mr, nr) {FN(name, isa), ISA_##isa, mr, nr},
#include "kernels/kernels.inc"
  };
  static const struct { wnn_q8_packk_ukernel *fn; int isa; } t_packk[] = {
#define WNN_Q8_PACKK(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  static const struct { wnn_q8_packrows_ukernel *fn; int isa; } t_packrows[] = {
#define WNN_Q8_PACKROWS(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  static const struct { wnn_s8_packk_ukernel *fn; int isa; } t_s8_packk[] = {
#define WNN_S8_PACKK(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  static const struct { wnn_q8_im2col_ukernel *fn; int isa; } t_im2col[] = {
#define WNN_Q8_IM2COL(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  static const struct { wnn_f32_qpackrows_ukernel *fn; int isa; } t_f32_packrows[] = {
#define WNN_F32_QPACKROWS(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  static const struct { wnn_qs32_requant_ukernel *fn; int isa; } t_requant[] = {
#define WNN_QS32_REQUANT(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  static const struct { wnn_qs32_dequant_ukernel *fn; int isa; } t_dequant[] = {
#define WNN_QS32_DEQUANT(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  wnn_qs8_gemm_config g = {0};
  conv_row c = {0};
  pb_row p = {0};
  LAST_ROW(tc, c);
  LAST_ROW(tp, p);
  g.conv = c.fn, g.conv_mr = c.mr, g.conv_nr = c.nr;
  g.pb = p.fn, g.pb_mr = p.mr, g.pb_nr = p.nr;
  LAST_FN(t_packk, g.packk);
  LAST_FN(t_packrows, g.packrows);
  LAST_FN(t_s8_packk, g.s8_packk);
  LAST_FN(t_im2col, g.im2col);
  LAST_FN(t_f32_packrows, g.f32_packrows);
  LAST_FN(t_requant, g.requant);
  LAST_FN(t_dequant, g.dequant);
  return g;
}

wnn_f32_im2col_tile_ukernel *wnn_select_f32_im2col_tile(wnn_kernels kernels) {
  static const struct { wnn_f32_im2col_tile_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_IM2COL_TILE(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_act_ukernel *wnn_select_f32_act(wnn_kernels kernels) {
  static const struct { wnn_f32_act_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_ACT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_im2col_ukernel *wnn_select_f32_im2col(wnn_kernels kernels) {
  static const struct { wnn_f32_im2col_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_IM2COL(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_dwconv_ukernel *wnn_select_f32_dwconv(wnn_kernels kernels) {
  static const struct { wnn_f32_dwconv_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_DWCONV(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_repeat_ukernel *wnn_select_f32_repeat(wnn_kernels kernels) {
  static const struct { wnn_f32_repeat_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_REPEAT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_xx_fill_ukernel *wnn_select_xx_fill(wnn_kernels kernels) {
  static const struct { wnn_xx_fill_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_XX_FILL(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_col2im_ukernel *wnn_select_f32_col2im(wnn_kernels kernels) {
  static const struct { wnn_f32_col2im_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_COL2IM(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_layernorm_ukernel *wnn_select_f32_layernorm(wnn_kernels kernels) {
  static const struct { wnn_f32_layernorm_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_LAYERNORM(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_x32_transpose_ukernel *wnn_select_x32_transpose(wnn_kernels kernels) {
  static const struct { wnn_x32_transpose_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_X32_TRANSPOSE(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_x32_copy2d_ukernel *wnn_select_x32_copy2d(wnn_kernels kernels) {
  static const struct { wnn_x32_copy2d_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_X32_COPY2D(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f16_f32_vcvt_ukernel *wnn_select_f16_f32_vcvt(wnn_kernels kernels) {
  static const struct { wnn_f16_f32_vcvt_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F16_F32_VCVT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_f16_vcvt_ukernel *wnn_select_f32_f16_vcvt(wnn_kernels kernels) {
  static const struct { wnn_f32_f16_vcvt_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_F16_VCVT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_vunary_ukernel *wnn_select_f32_vunary(wnn_kernels kernels, int op) {
  static const struct { wnn_f32_vunary_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_VUNARY(name, isa, op) ROW(name, isa, WNN_UNARY_##op, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, op, -1);
  return NULL;
}

wnn_f32_pool2d_ukernel *wnn_select_f32_pool2d(wnn_kernels kernels, int op) {
  static const struct { wnn_f32_pool2d_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_POOL2D(name, isa, op) ROW(name, isa, WNN_POOL_##op, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, op, -1);
  return NULL;
}

wnn_f32_gavgpool_ukernel *wnn_select_f32_gavgpool(wnn_kernels kernels) {
  static const struct { wnn_f32_gavgpool_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_GAVGPOOL(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_f32_softmax_ukernel *wnn_select_f32_softmax(wnn_kernels kernels) {
  static const struct { wnn_f32_softmax_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_SOFTMAX(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

static wnn_f32_vbinary_ukernel *select_f32_vbinary(wnn_kernels kernels, int op, int kind) {
  static const struct { wnn_f32_vbinary_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_VBINARY(name, isa, op, kind) ROW(name, isa, WNN_BINOP_##op, WNN_KIND_##kind)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, op, kind);
  return NULL;
}

static wnn_s32_vbinary_ukernel *select_s32_vbinary(wnn_kernels kernels, int op, int kind) {
  static const struct { wnn_s32_vbinary_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_S32_VBINARY(name, isa, op, kind) ROW(name, isa, WNN_BINOP_##op, WNN_KIND_##kind)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, op, kind);
  return NULL;
}

static wnn_s64_vbinary_ukernel *select_s64_vbinary(wnn_kernels kernels, int op, int kind) {
  static const struct { wnn_s64_vbinary_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_S64_VBINARY(name, isa, op, kind) ROW(name, isa, WNN_BINOP_##op, WNN_KIND_##kind)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, op, kind);
  return NULL;
}

wnn_vbinary_fn wnn_select_vbinary(wnn_kernels kernels, wnn_dtype dtype, int binop, int kind) {
  /* y = b[0] op a[i] is a[i] op b[0] for the commutative ops, so their RVC is
   * their VC kernel. */
  if (kind == WNN_KIND_RVC && (binop == WNN_BINOP_ADD || binop == WNN_BINOP_MUL))
    kind = WNN_KIND_VC;
  wnn_vbinary_fn fn = {.f32 = NULL};
  switch (dtype) {
    case WNN_DTYPE_F32: fn.f32 = select_f32_vbinary(kernels, binop, kind); break;
    case WNN_DTYPE_I32: fn.s32 = select_s32_vbinary(kernels, binop, kind); break;
    case WNN_DTYPE_I64: fn.s64 = select_s64_vbinary(kernels, binop, kind); break;
    default: break;
  }
  return fn;
}

/* out = the function of the last usable row of table t (out starts NULL). */
#define PICK(t, kernels, out)                                             \
  for (size_t i_ = sizeof t / sizeof t[0]; i_-- > 0 && !(out);)           \
    if (t[i_].fn && isa_allowed(t[i_].isa, kernels)) (out) = t[i_].fn

/* The int8 element-wise families, a table each. */
wnn_q8_vcvt_config wnn_select_q8_vcvt(wnn_kernels kernels) {
  wnn_q8_vcvt_config c = {0};
  {
    static const struct { wnn_f32_qu8_vcvt_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_QU8_VCVT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
    };
    PICK(t, kernels, c.f32_qu8);
  }
  {
    static const struct { wnn_f32_qs8_vcvt_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_QS8_VCVT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
    };
    PICK(t, kernels, c.f32_qs8);
  }
  {
    static const struct { wnn_qu8_f32_vcvt_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_QU8_F32_VCVT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
    };
    PICK(t, kernels, c.qu8_f32);
  }
  {
    static const struct { wnn_qs8_f32_vcvt_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_QS8_F32_VCVT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
    };
    PICK(t, kernels, c.qs8_f32);
  }
  {
    static const struct { wnn_s32_f32_vcvt_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_S32_F32_VCVT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
    };
    PICK(t, kernels, c.s32_f32);
  }
  {
    static const struct { wnn_f32_qrange_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_F32_QRANGE(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
    };
    PICK(t, kernels, c.qrange);
  }
  return c;
}

wnn_qs16_winograd_config wnn_select_qs16_winograd(wnn_kernels kernels) {
  typedef struct { wnn_qs16_gemm_ukernel *fn; int isa; uint8_t mr, nr; } gemm_row;
  static const gemm_row t_gemm[] = {
#define WNN_QS16_GEMM(name, isa, mr, nr) {FN(name, isa), ISA_##isa, mr, nr},
#include "kernels/kernels.inc"
  };
  static const struct { wnn_qs16_winograd_input_ukernel *fn; int isa; } t_input[] = {
#define WNN_QS16_WINOGRAD_INPUT(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  static const struct { wnn_qs16_winograd_weight_ukernel *fn; int isa; } t_weight[] = {
#define WNN_QS16_WINOGRAD_WEIGHT(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  static const struct { wnn_qs16_winograd_output_ukernel *fn; int isa; } t_output[] = {
#define WNN_QS16_WINOGRAD_OUTPUT(name, isa) ROW_FN(name, isa)
#include "kernels/kernels.inc"
  };
  wnn_qs16_winograd_config k = {0};
  gemm_row g = {0};
  LAST_ROW(t_gemm, g);
  k.gemm = g.fn, k.gemm_mr = g.mr, k.gemm_nr = g.nr;
  LAST_FN(t_input, k.input);
  LAST_FN(t_weight, k.weight);
  LAST_FN(t_output, k.output);
  return k;
}

wnn_qs8_dwconv_ukernel *wnn_select_qs8_dwconv(wnn_kernels kernels) {
  static const struct { wnn_qs8_dwconv_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_QS8_DWCONV(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_x8_maxpool2d_ukernel *wnn_select_x8_maxpool2d(wnn_kernels kernels) {
  static const struct { wnn_x8_maxpool2d_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_X8_MAXPOOL2D(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}

wnn_q4_f32_dequant_ukernel *wnn_select_q4_f32_dequant(wnn_kernels kernels) {
  static const struct { wnn_q4_f32_dequant_ukernel *fn; int isa, op, kind; } t[] = {
#define WNN_Q4_F32_DEQUANT(name, isa) ROW(name, isa, 0, 0)
#include "kernels/kernels.inc"
  };
  SELECT(t, kernels, -1, -1);
  return NULL;
}
