/* The activation fused into Conv and Gemm (ops/fused_activation.h). */
#include "ops/fused_activation.h"

#include <float.h>
#include <string.h>

WNN_PARAMS_FIT(wnn_conv_act_params);
WNN_PARAMS_FIT(wnn_gemm_act_params);

static const struct {
  const char *name;
  int kind, num_params;
} kinds[] = {{"Relu", WNN_ACT_RELU, 0},           {"Clip", WNN_ACT_CLIP, 2},
             {"Sigmoid", WNN_ACT_SIGMOID, 0},     {"HardSigmoid", WNN_ACT_HARDSIGMOID, 2},
             {"HardSwish", WNN_ACT_HARDSWISH, 0}, {"LeakyRelu", WNN_ACT_LEAKYRELU, 1},
             {"SiLU", WNN_ACT_SILU, 0}};

wnn_status wnn_fused_activation_prepare(wnn_prepare_ctx *ctx, const char *op,
                                        wnn_fused_activation *act) {
  memset(act, 0, sizeof *act);
  const bool params = wnn_attr_has(ctx, "activation_params");
  const char *name;
  if (!wnn_attr_has(ctx, "activation")) {
    if (params)
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                         "%s: activation_params is given without activation", op);
    return WNN_OK;
  }
  if (!wnn_attrs_string(ctx->attrs, "activation", &name))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: attribute activation must be a string", op);
  size_t k;
  for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    if (!strcmp(kinds[k].name, name)) break;
  if (k == sizeof kinds / sizeof kinds[0])
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: activation '%s' is not one of Relu, Clip, Sigmoid, HardSigmoid, "
                       "HardSwish, LeakyRelu, SiLU", op, name);
  const int size = wnn_attrs_list_size(ctx->attrs, "activation_params");
  const int count = params ? size : 0;
  if ((params && size < 0) || count != kinds[k].num_params)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: activation %s takes %d activation_params, got %d", op,
                       kinds[k].name, kinds[k].num_params, count);
  float v[2] = {0.0f, 0.0f};
  for (int i = 0; i < count; i++) {
    double x;
    if (!wnn_attrs_list_number(ctx->attrs, "activation_params", i, &x))
      return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE, "%s: activation_params[%d] is not a number",
                         op, i);
    v[i] = (float)x;
  }
  act->kind = kinds[k].kind;
  act->p0 = v[0];
  act->p1 = v[1];
  return WNN_OK;
}
