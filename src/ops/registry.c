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

/* WNN_CORE_OPS (dist/wnn.wasm, src/ops/registry_core.c): the WNN_OPX ops of
 * ops.inc are left out of the table, so the linker drops their code; their
 * symbols stay, for the message that says where they are. */
#ifdef WNN_CORE_OPS
#define WNN_OPX(code, sym)
#endif
static const wnn_op *const by_code[] = {
#define WNN_OP(code, sym) [code] = &wnn_##sym##_op,
#include "ops/ops.inc"
#undef WNN_OP
};
#ifdef WNN_CORE_OPS
#undef WNN_OPX
#define WNN_OPX(code, sym) [code] = #sym,
#define WNN_OP(code, sym)
static const char *const left_out[] = {
#include "ops/ops.inc"
};
#undef WNN_OP
#undef WNN_OPX
#endif

#define NUM_CODES ((int)(sizeof by_code / sizeof by_code[0]))

const char *wnn_op_left_out(int code) {
#ifdef WNN_CORE_OPS
  return code >= 0 && code < (int)(sizeof left_out / sizeof left_out[0]) ? left_out[code] : NULL;
#else
  (void)code;
  return NULL;
#endif
}

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
