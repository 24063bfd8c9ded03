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
wnn_status wnn_ref_conv(const wnn_run_ctx *ctx);
wnn_status wnn_ref_gemm(const wnn_run_ctx *ctx);
wnn_status wnn_ref_matmul(const wnn_run_ctx *ctx);
wnn_status wnn_ref_add(const wnn_run_ctx *ctx);
wnn_status wnn_ref_sub(const wnn_run_ctx *ctx);
wnn_status wnn_ref_mul(const wnn_run_ctx *ctx);
wnn_status wnn_ref_div(const wnn_run_ctx *ctx);
wnn_status wnn_ref_relu(const wnn_run_ctx *ctx);
wnn_status wnn_ref_clip(const wnn_run_ctx *ctx);
wnn_status wnn_ref_sigmoid(const wnn_run_ctx *ctx);
wnn_status wnn_ref_maxpool(const wnn_run_ctx *ctx);
wnn_status wnn_ref_averagepool(const wnn_run_ctx *ctx);
wnn_status wnn_ref_globalaveragepool(const wnn_run_ctx *ctx);
wnn_status wnn_ref_transpose(const wnn_run_ctx *ctx);
wnn_status wnn_ref_concat(const wnn_run_ctx *ctx);
wnn_status wnn_ref_softmax(const wnn_run_ctx *ctx);
#endif

#endif /* WNN_REF_H */
