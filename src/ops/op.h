/*
 * The operator layer: what every op provides to the runtime and the builder.
 *
 *   prepare  runs at load time (and in the builder): checks attributes, input
 *            dtypes and shapes, infers the output dtypes and shapes, says how
 *            much scratch memory a run needs, and fills the op's params struct,
 *            including the kernel variant it will call. It may fail; it never
 *            allocates.
 *   run      runs at inference time on the prepared params: calls microkernels.
 *            It never allocates and fails only on data-dependent errors.
 *   reference the test oracle: a deliberately simple implementation with the
 *            same contract as run, built only with WNN_WITH_REFERENCE.
 *
 * Params live inside the model and are immutable after prepare, so one model
 * can be run by many executors at once.
 */
#ifndef WNN_OP_H
#define WNN_OP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/attrs.h"
#include "base/shape.h"
#include "kernels/kernels.h"
#include "wnn.h"

/* Most inputs or outputs an op may have. */
#define WNN_MAX_IO 16
/* Bytes of params every op gets; an op's params struct must fit. */
#define WNN_MAX_PARAMS 512

/* A tensor as seen at prepare time. */
typedef struct wnn_tdesc {
  wnn_dtype dtype;       /* WNN_DTYPE_INVALID for an omitted optional input */
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  const void *data;      /* non-NULL when the tensor is a constant (a param) */
} wnn_tdesc;

typedef struct wnn_prepare_ctx {
  const wnn_attrs *attrs;    /* the node's attributes (base/attrs.h), or NULL */
  int num_inputs;
  const wnn_tdesc *inputs;
  int num_outputs;
  wnn_tdesc *outputs;        /* prepare sets dtype, ndim and dims of each */
  void *params;              /* WNN_MAX_PARAMS zeroed bytes for prepare to fill */
  size_t scratch_bytes;      /* prepare sets this when run needs scratch memory */
  wnn_kernels kernels;       /* WNN_KERNELS_SCALAR or _AUTO (AUTO: SIMD when built with it) */
  char *msg;                 /* where wnn_op_fail writes */
  size_t msg_cap;
  /* Set when a model loads an artifact: the scratch its plan gave this node.
   * An op with a faster path that needs more scratch than an older writer
   * planned takes it only when it fits, so older artifacts keep loading (on
   * the path they were planned for). Unset (false, 0) while planning. */
  bool scratch_capped;
  size_t scratch_cap;
} wnn_prepare_ctx;

/* Whether prepare may ask for `bytes` of scratch for a faster path: always
 * while planning; when loading, only within what the artifact's plan gave the
 * node (scratch_cap above). */
static inline bool wnn_scratch_fits(const wnn_prepare_ctx *ctx, uint64_t bytes) {
  return !ctx->scratch_capped || bytes <= ctx->scratch_cap;
}

/* A tensor at run time. Shapes are those prepare saw. */
typedef struct wnn_tensor {
  void *data;
  wnn_dtype dtype;
  int ndim;
  const int64_t *dims;
} wnn_tensor;

typedef struct wnn_run_ctx {
  const void *params;
  int num_inputs;
  const wnn_tensor *inputs;  /* data NULL for an omitted optional input */
  int num_outputs;
  const wnn_tensor *outputs;
  void *scratch;             /* scratch_bytes bytes, 64-byte aligned, contents undefined */
  char *msg;
  size_t msg_cap;
} wnn_run_ctx;

enum {
  /* Output 0 is input 0's bytes under another shape (Reshape, Flatten,
   * Identity): the runtime points it at input 0 and calls no run function. */
  WNN_OP_ALIAS = 1u << 0,
  /* Output 0 may take the exact bytes of an input of its byte size that no
   * later node reads (docs/format.md, "in place"): each output element comes
   * from the input elements of the same index (and from broadcast operands),
   * which are read before it is written, and the op has no scratch. */
  WNN_OP_INPLACE = 1u << 1,
  /* Input 0 is a one-byte bool condition that selects input 1 (true) or
   * input 2 (false) as a whole (Where on a scalar condition): in a model with
   * guards the executor lets the node read an input that an untaken If branch
   * left unwritten when the condition does not select it. */
  WNN_OP_SELECTS_INPUT = 1u << 2,
  /* Reads only its inputs' shapes, never their bytes (Shape, Size): as a
   * shape node of a dynamic model (docs/dynamic-shapes.md) it may read a
   * value that is computed only during a run. */
  WNN_OP_READS_SHAPE_ONLY = 1u << 3,
  /* Reads or writes float64 values (Cast, CastLike): float64 lives only at a
   * model's boundary (include/wnn.h), and the loader rejects a float64 value
   * in a node of any other op. */
  WNN_OP_FLOAT64 = 1u << 4
};

/* An op's descriptor: `const wnn_op wnn_<symbol>_op`, defined at the end of the
 * file that implements the op (as a TFLite Micro kernel file ends with its
 * registration); src/ops/ops.inc lists the symbols with their codes. */
typedef struct wnn_op {
  int code;                     /* stored in artifacts: WNN_OP_CODE(symbol), from ops.inc */
  const char *name;             /* the ONNX op type */
  unsigned flags;               /* WNN_OP_* */
  int min_inputs, max_inputs;
  int min_outputs, max_outputs;
  const char *const *attrs;     /* accepted attribute names, NULL-terminated (WNN_ATTRS);
                                 * NULL: none; others are rejected */
  wnn_status (*prepare)(wnn_prepare_ctx *ctx);
  wnn_status (*run)(const wnn_run_ctx *ctx);       /* NULL for WNN_OP_ALIAS */
  wnn_status (*reference)(const wnn_run_ctx *ctx); /* NULL for an alias and without
                                                    * WNN_WITH_REFERENCE: WNN_REF */
} wnn_op;

/* The codes of src/ops/ops.inc: WNN_OP_CODE(conv) is 1. */
enum {
#define WNN_OP(code, sym) WNN_OP_CODE_##sym = (code),
#include "ops/ops.inc"
#undef WNN_OP
};
#define WNN_OP_CODE(sym) WNN_OP_CODE_##sym

/* Defines the descriptor `const wnn_op wnn_<sym>_op` of the op sym of ops.inc, at
 * the end of the file that implements it (as a TFLite Micro kernel file ends
 * with its registration):
 *
 *   WNN_OP_DEFINE(sym, onnx_name, flags, min_inputs, max_inputs, min_outputs,
 *                 max_outputs, attrs);
 *
 * flags are WNN_OP_* (or 0); attrs are the accepted attribute names,
 * WNN_ATTRS(...), a NULL-terminated static list, or NULL for none. The rest is
 * derived from sym: the code WNN_OP_CODE(sym), prepare wnn_<sym>_prepare, run
 * wnn_<sym>_run and the reference wnn_ref_<sym> (NULL without
 * WNN_WITH_REFERENCE). An alias op (WNN_OP_ALIAS: the runtime points its
 * output at input 0) has no run and no reference: WNN_ALIAS_OP_DEFINE, without
 * the flags. */
#define WNN_OP_DEFINE(sym, onnx_name, flags_, min_in, max_in, min_out, max_out, attrs_)        \
  const wnn_op wnn_##sym##_op = {                                                             \
      .code = WNN_OP_CODE(sym), .name = (onnx_name), .flags = (flags_),                       \
      .min_inputs = (min_in), .max_inputs = (max_in), .min_outputs = (min_out),               \
      .max_outputs = (max_out), .attrs = (attrs_), .prepare = wnn_##sym##_prepare,            \
      .run = wnn_##sym##_run, .reference = WNN_REF(wnn_ref_##sym)}
#define WNN_ALIAS_OP_DEFINE(sym, onnx_name, min_in, max_in, min_out, max_out, attrs_)          \
  const wnn_op wnn_##sym##_op = {                                                             \
      .code = WNN_OP_CODE(sym), .name = (onnx_name), .flags = WNN_OP_ALIAS,                   \
      .min_inputs = (min_in), .max_inputs = (max_in), .min_outputs = (min_out),               \
      .max_outputs = (max_out), .attrs = (attrs_), .prepare = wnn_##sym##_prepare}

/* A descriptor's attribute list: WNN_ATTRS("axis", "epsilon"). */
#define WNN_ATTRS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A descriptor's reference: the function with WNN_WITH_REFERENCE (the test
 * builds, which compile src/ref/), NULL without. Every op's reference is
 * wnn_ref_<symbol>, declared here from ops.inc. */
#ifdef WNN_WITH_REFERENCE
#define WNN_OP(code, sym) wnn_status wnn_ref_##sym(const wnn_run_ctx *ctx);
#include "ops/ops.inc"
#undef WNN_OP
#define WNN_REF(fn) (fn)
#else
#define WNN_REF(fn) NULL
#endif

/* The registry (src/ops/registry.c). NULL when unknown. */
const wnn_op *wnn_op_by_code(int code);
const wnn_op *wnn_op_by_name(const char *onnx_name);
/* The symbol of an op this build leaves out (dist/wnn.wasm's core registry
 * leaves out the WNN_OPX ops of ops.inc; dist/wnn-full.wasm has them), or
 * NULL: every other build, or a code that is not such an op. */
const char *wnn_op_left_out(int code);

/* Kernel selection for the runtime's own loops (src/ops/select.c, like the
 * ops' selection in op_internal.h): the fill of FILL params at load time. */
wnn_xx_fill_ukernel *wnn_select_xx_fill(wnn_kernels kernels);

/* Checks a node before prepare: input and output counts, and that every
 * attribute is one the op accepts. The message names the offending thing. */
wnn_status wnn_op_check_node(const wnn_op *op, const wnn_attrs *attrs, int num_inputs,
                             int num_outputs, char *msg, size_t msg_cap);

/* Writes a printf-style message into ctx->msg and returns status. */
wnn_status wnn_op_fail(wnn_prepare_ctx *ctx, wnn_status status, const char *fmt, ...);
wnn_status wnn_run_fail(const wnn_run_ctx *ctx, wnn_status status, const char *fmt, ...);

/* Typed attribute readers (src/ops/attr.c), the only way an op reads its
 * attributes. An absent attribute yields the default (or count -1 for lists);
 * a present one of the wrong type, or an integer attribute that is not
 * integral, is WNN_ERR_BAD_ATTRIBUTE with a message naming it. Ops that word
 * their own messages use wnn_attr_has and the accessors of base/attrs.h on
 * ctx->attrs (lists of strings, list elements). */
bool wnn_attr_has(const wnn_prepare_ctx *ctx, const char *name);
wnn_status wnn_attr_int(wnn_prepare_ctx *ctx, const char *name, int64_t dflt, int64_t *out);
wnn_status wnn_attr_float(wnn_prepare_ctx *ctx, const char *name, float dflt, float *out);
wnn_status wnn_attr_ints(wnn_prepare_ctx *ctx, const char *name, int64_t *out, int max, int *count);
wnn_status wnn_attr_string(wnn_prepare_ctx *ctx, const char *name, const char *dflt,
                           const char **out);

#endif /* WNN_OP_H */
