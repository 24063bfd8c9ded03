/*
 * The op registry: the descriptors of src/ops/ops.inc, indexed by code. Each
 * op's descriptor (ONNX name, attributes, flags, count ranges, prepare, run,
 * reference) lives at the end of the file that implements it; this file only
 * lists them.
 */
#include <string.h>

#include "base/status.h"
#include "ops/op.h"

#define WNN_OP(code, sym) extern const wnn_op wnn_##sym##_op;
#include "ops/ops.inc"
#undef WNN_OP

static const wnn_op *const by_code[] = {
#define WNN_OP(code, sym) [code] = &wnn_##sym##_op,
#include "ops/ops.inc"
#undef WNN_OP
};

#define NUM_CODES ((int)(sizeof by_code / sizeof by_code[0]))

const wnn_op *wnn_op_by_code(int code) {
  return code >= 0 && code < NUM_CODES ? by_code[code] : NULL;
}

const wnn_op *wnn_op_by_name(const char *onnx_name) {
  for (int c = 0; onnx_name && c < NUM_CODES; c++)
    if (by_code[c] && strcmp(by_code[c]->name, onnx_name) == 0) return by_code[c];
  return NULL;
}

static bool accepts_attr(const wnn_op *op, const char *name) {
  for (const char *const *a = op->attrs; a && *a; a++)
    if (strcmp(*a, name) == 0) return true;
  return false;
}

wnn_status wnn_op_check_node(const wnn_op *op, const wnn_attrs *attrs, int num_inputs,
                             int num_outputs, char *msg, size_t msg_cap) {
  if (num_inputs < op->min_inputs || num_inputs > op->max_inputs)
    return wnn_seterr(msg, msg_cap, WNN_ERR_MALFORMED, "%s: %d inputs, expected %d to %d", op->name,
                      num_inputs, op->min_inputs, op->max_inputs);
  if (num_outputs < op->min_outputs || num_outputs > op->max_outputs)
    return wnn_seterr(msg, msg_cap, WNN_ERR_MALFORMED, "%s: %d outputs, expected %d to %d",
                      op->name, num_outputs, op->min_outputs, op->max_outputs);
  const int count = wnn_attrs_count(attrs);
  if (count < 0)
    return wnn_seterr(msg, msg_cap, WNN_ERR_BAD_ATTRIBUTE, "%s: attributes must be a JSON object",
                      op->name);
  for (int i = 0; i < count; i++) {
    const char *name = wnn_attrs_name(attrs, i);
    if (!name || !accepts_attr(op, name))
      return wnn_seterr(msg, msg_cap, WNN_ERR_BAD_ATTRIBUTE, "%s: unknown attribute '%s'",
                        op->name, name ? name : "");
  }
  return WNN_OK;
}
