/*
 * The op registry: one row per op of ops.inc, built by X-macro so that the
 * list's codes and names are the only ones. What each op accepts (input and
 * output counts, attribute names, flags) is spelled out here, in one table,
 * rather than scattered over the op files.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "ops/op.h"
#include "base/status.h"
#ifdef WNN_WITH_REFERENCE
#include "ref/ref.h"
#endif

/* Every op file defines wnn_<symbol>_prepare and, unless the op is an alias,
 * wnn_<symbol>_run. */
#define WNN_OP(code, sym, name)                        \
  wnn_status wnn_##sym##_prepare(wnn_prepare_ctx *ctx); \
  wnn_status wnn_##sym##_run(const wnn_run_ctx *ctx);
#include "ops/ops.inc"
#undef WNN_OP

/* Accepted attribute names. */
static const char *const no_attrs[] = {NULL};
/* Conv and Gemm: "activation" and "activation_params" are wnn's fused
 * activation (ops/fused_activation.h), set by the ONNX importer. */
static const char *const conv_attrs[] = {"auto_pad", "dilations", "group", "kernel_shape",
                                         "pads",     "strides",   "activation",
                                         "activation_params",     NULL};
static const char *const gemm_attrs[] = {"alpha", "beta", "transA", "transB",
                                         "activation", "activation_params", NULL};
static const char *const clip_attrs[] = {"min", "max", NULL};
static const char *const maxpool_attrs[] = {"auto_pad", "ceil_mode",     "dilations", "kernel_shape",
                                            "pads",     "storage_order", "strides",   NULL};
static const char *const averagepool_attrs[] = {"auto_pad", "ceil_mode", "count_include_pad",
                                                "kernel_shape", "pads", "strides", NULL};
static const char *const reshape_attrs[] = {"allowzero", NULL};
static const char *const axis_attrs[] = {"axis", NULL};
static const char *const transpose_attrs[] = {"perm", NULL};
#define matmul_attrs no_attrs
#define add_attrs no_attrs
#define sub_attrs no_attrs
#define mul_attrs no_attrs
#define div_attrs no_attrs
#define relu_attrs no_attrs
#define sigmoid_attrs no_attrs
#define globalaveragepool_attrs no_attrs
#define identity_attrs no_attrs
#define flatten_attrs axis_attrs
#define concat_attrs axis_attrs
#define softmax_attrs axis_attrs

/* flags, min_inputs, max_inputs, min_outputs, max_outputs */
#define SPEC_conv 0, 2, 3, 1, 1
#define SPEC_gemm 0, 2, 3, 1, 1
#define SPEC_matmul 0, 2, 2, 1, 1
#define SPEC_add WNN_OP_INPLACE, 2, 2, 1, 1
#define SPEC_sub WNN_OP_INPLACE, 2, 2, 1, 1
#define SPEC_mul WNN_OP_INPLACE, 2, 2, 1, 1
#define SPEC_div WNN_OP_INPLACE, 2, 2, 1, 1
#define SPEC_relu WNN_OP_INPLACE, 1, 1, 1, 1
#define SPEC_clip WNN_OP_INPLACE, 1, 3, 1, 1
#define SPEC_sigmoid WNN_OP_INPLACE, 1, 1, 1, 1
/* MaxPool's second output is its optional Indices. */
#define SPEC_maxpool 0, 1, 1, 1, 2
#define SPEC_averagepool 0, 1, 1, 1, 1
#define SPEC_globalaveragepool 0, 1, 1, 1, 1
#define SPEC_reshape WNN_OP_ALIAS, 2, 2, 1, 1
#define SPEC_flatten WNN_OP_ALIAS, 1, 1, 1, 1
#define SPEC_transpose 0, 1, 1, 1, 1
#define SPEC_concat 0, 1, WNN_MAX_IO, 1, 1
#define SPEC_softmax 0, 1, 1, 1, 1
#define SPEC_identity WNN_OP_ALIAS, 1, 1, 1, 1

/* Alias ops have no run function and no reference: the runtime aliases. */
#define RUN_conv wnn_conv_run
#define RUN_gemm wnn_gemm_run
#define RUN_matmul wnn_matmul_run
#define RUN_add wnn_add_run
#define RUN_sub wnn_sub_run
#define RUN_mul wnn_mul_run
#define RUN_div wnn_div_run
#define RUN_relu wnn_relu_run
#define RUN_clip wnn_clip_run
#define RUN_sigmoid wnn_sigmoid_run
#define RUN_maxpool wnn_maxpool_run
#define RUN_averagepool wnn_averagepool_run
#define RUN_globalaveragepool wnn_globalaveragepool_run
#define RUN_reshape NULL
#define RUN_flatten NULL
#define RUN_transpose wnn_transpose_run
#define RUN_concat wnn_concat_run
#define RUN_softmax wnn_softmax_run
#define RUN_identity NULL

#ifdef WNN_WITH_REFERENCE
#define REF_conv wnn_ref_conv
#define REF_gemm wnn_ref_gemm
#define REF_matmul wnn_ref_matmul
#define REF_add wnn_ref_add
#define REF_sub wnn_ref_sub
#define REF_mul wnn_ref_mul
#define REF_div wnn_ref_div
#define REF_relu wnn_ref_relu
#define REF_clip wnn_ref_clip
#define REF_sigmoid wnn_ref_sigmoid
#define REF_maxpool wnn_ref_maxpool
#define REF_averagepool wnn_ref_averagepool
#define REF_globalaveragepool wnn_ref_globalaveragepool
#define REF_transpose wnn_ref_transpose
#define REF_concat wnn_ref_concat
#define REF_softmax wnn_ref_softmax
#define REF_reshape NULL
#define REF_flatten NULL
#define REF_identity NULL
#define REF(sym) REF_##sym
#else
#define REF(sym) NULL
#endif

/* The math and the tensor families define <sym>_attrs, SPEC_<sym>, RUN_<sym>
 * and (with WNN_WITH_REFERENCE) REF_<sym> for their ops in their own headers,
 * which only this file includes. */
#include "ops/registry_math.h"
#include "ops/registry_tensor.h"
#include "ops/registry_nn.h"

/* Expands SPEC_<sym> into its five fields before filling them in. */
#define FIELDS(spec) FIELDS_(spec)
#define FIELDS_(flags_, min_in, max_in, min_out, max_out)                           \
  .flags = (flags_), .min_inputs = (min_in), .max_inputs = (max_in),                \
  .min_outputs = (min_out), .max_outputs = (max_out)

static const wnn_op ops[] = {
#define WNN_OP(code_, sym, name_)                                                    \
  {.code = (code_), .name = (name_), FIELDS(SPEC_##sym), .attrs = sym##_attrs,     \
   .prepare = wnn_##sym##_prepare, .run = RUN_##sym, .reference = REF(sym)},
#include "ops/ops.inc"
#undef WNN_OP
};

#define NUM_OPS (sizeof ops / sizeof ops[0])

const wnn_op *wnn_op_by_code(int code) {
  for (size_t i = 0; i < NUM_OPS; i++)
    if (ops[i].code == code) return &ops[i];
  return NULL;
}

const wnn_op *wnn_op_by_name(const char *onnx_name) {
  for (size_t i = 0; onnx_name && i < NUM_OPS; i++)
    if (strcmp(ops[i].name, onnx_name) == 0) return &ops[i];
  return NULL;
}

static bool accepts_attr(const wnn_op *op, const char *name) {
  for (const char *const *a = op->attrs; *a; a++)
    if (strcmp(*a, name) == 0) return true;
  return false;
}

wnn_status wnn_op_check_node(const wnn_op *op, const struct cJSON *attrs, int num_inputs,
                             int num_outputs, char *msg, size_t msg_cap) {
  if (num_inputs < op->min_inputs || num_inputs > op->max_inputs)
    return wnn_seterr(msg, msg_cap, WNN_ERR_MALFORMED, "%s: %d inputs, expected %d to %d", op->name,
                      num_inputs, op->min_inputs, op->max_inputs);
  if (num_outputs < op->min_outputs || num_outputs > op->max_outputs)
    return wnn_seterr(msg, msg_cap, WNN_ERR_MALFORMED, "%s: %d outputs, expected %d to %d",
                      op->name, num_outputs, op->min_outputs, op->max_outputs);
  if (!attrs) return WNN_OK;
  if (!cJSON_IsObject(attrs))
    return wnn_seterr(msg, msg_cap, WNN_ERR_BAD_ATTRIBUTE, "%s: attributes must be a JSON object",
                      op->name);
  const cJSON *item;
  cJSON_ArrayForEach(item, attrs) {
    if (!item->string || !accepts_attr(op, item->string))
      return wnn_seterr(msg, msg_cap, WNN_ERR_BAD_ATTRIBUTE, "%s: unknown attribute '%s'",
                        op->name, item->string ? item->string : "");
  }
  return WNN_OK;
}
