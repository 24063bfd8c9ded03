/* MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv: the ONNX
 * documentation's examples, run vs reference (src/ref/ref_quant.c) on random
 * bytes (scales and zero points random too), rejections. Every output is
 * integer: exact. */
#include <stdint.h>

#include <math.h>

#include "op_harness.h"

/* Runs run and reference on given buffers; compares the two and, when want
 * is not NULL, run's output with want (bytes). */
static int check_data(const char *name, const char *attrs, int nin, const wnn_tdesc *in,
                      void *const *data, const void *want, size_t want_bytes) {
  op_case c;
  if (op_prepare(&c, name, attrs, nin, in, 1) != WNN_OK) {
    printf("  %s: prepare %s failed: %s\n", test_current_, name, c.msg);
    return 0;
  }
  void *got[1], *ref[1];
  int ok = op_exec(&c, c.op->run, data, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, data, ref) == WNN_OK && ok;
  ok = ok && outputs_match(&c.outputs[0], got[0], ref[0], 0, 0);
  if (ok && want) {
    ok = td_bytes(&c.outputs[0]) == want_bytes && memcmp(got[0], want, want_bytes) == 0;
    if (!ok) printf("  %s: %s differs from the expected values\n", test_current_, name);
  }
  free(got[0]);
  free(ref[0]);
  return ok;
}

TEST(matmulinteger) {
  /* The ONNX example. */
  uint8_t a[12] = {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}, b[6] = {1, 4, 2, 5, 3, 6};
  uint8_t azp = 12, bzp = 0;
  wnn_tdesc in[4] = {TD(WNN_DTYPE_U8, 4, 3), TD(WNN_DTYPE_U8, 3, 2), TD(WNN_DTYPE_U8, 1),
                     TD(WNN_DTYPE_U8, 1)};
  void *data[4] = {a, b, &azp, &bzp};
  const int32_t want[8] = {-38, -83, -44, -98, -50, -113, -56, -128};
  CHECK(check_data("MatMulInteger", NULL, 4, in, data, want, sizeof want));
  /* Batch broadcast, int8 and uint8 mixed, with and without zero points. */
  wnn_tdesc r[4] = {TD(WNN_DTYPE_I8, 2, 1, 3, 4), TD(WNN_DTYPE_U8, 3, 4, 5),
                    TD_SCALAR(WNN_DTYPE_I8), TD_SCALAR(WNN_DTYPE_U8)};
  CHECK(op_check("MatMulInteger", NULL, 4, r, 0, 0));
  CHECK(op_check("MatMulInteger", NULL, 2, r, 0, 0));
  r[0] = TD(WNN_DTYPE_I8, 7, 9);
  r[1] = TD(WNN_DTYPE_U8, 9, 2);
  CHECK(op_check("MatMulInteger", NULL, 4, r, 0, 0));
}

TEST(qlinearmatmul) {
  /* The ONNX example (2-D). */
  uint8_t a[8] = {208, 236, 0, 238, 3, 214, 255, 29};
  uint8_t b[12] = {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247};
  float as = 0.0066f, bs = 0.00705f, ys = 0.0107f;
  uint8_t azp = 113, bzp = 114, yzp = 118;
  wnn_tdesc in[8] = {TD(WNN_DTYPE_U8, 2, 4), TD(WNN_DTYPE_F32, 1), TD(WNN_DTYPE_U8, 1),
                     TD(WNN_DTYPE_U8, 4, 3), TD(WNN_DTYPE_F32, 1), TD(WNN_DTYPE_U8, 1),
                     TD(WNN_DTYPE_F32, 1), TD(WNN_DTYPE_U8, 1)};
  void *data[8] = {a, &as, &azp, b, &bs, &bzp, &ys, &yzp};
  const uint8_t want[6] = {168, 115, 255, 1, 66, 151};
  CHECK(check_data("QLinearMatMul", NULL, 8, in, data, want, sizeof want));
  /* int8 output and batches, random scales and zero points. */
  wnn_tdesc r[8] = {TD(WNN_DTYPE_I8, 2, 3, 4), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_I8),
                    TD(WNN_DTYPE_U8, 4, 5),    TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                    TD_SCALAR(WNN_DTYPE_F32),  TD_SCALAR(WNN_DTYPE_I8)};
  CHECK(op_check("QLinearMatMul", NULL, 8, r, 0, 0));
  op_case c;
  CHECK_OK(op_prepare(&c, "QLinearMatMul", NULL, 8, r, 1));
  CHECK(c.outputs[0].dtype == WNN_DTYPE_I8 && c.outputs[0].ndim == 3);
}

TEST(convinteger) {
  /* The ONNX example: x 3x3 (2..10), zero point 1, w 2x2 of ones. */
  uint8_t x[9] = {2, 3, 4, 5, 6, 7, 8, 9, 10}, w[4] = {1, 1, 1, 1}, xzp = 1;
  wnn_tdesc in[3] = {TD(WNN_DTYPE_U8, 1, 1, 3, 3), TD(WNN_DTYPE_U8, 1, 1, 2, 2),
                     TD_SCALAR(WNN_DTYPE_U8)};
  void *data[3] = {x, w, &xzp};
  const int32_t plain[4] = {12, 16, 24, 28};
  const int32_t padded[16] = {1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9};
  CHECK(check_data("ConvInteger", NULL, 3, in, data, plain, sizeof plain));
  CHECK(check_data("ConvInteger", "{\"pads\":[1,1,1,1]}", 3, in, data, padded, sizeof padded));
  /* Groups, strides, dilations, per-channel w zero points; 1-D. */
  wnn_tdesc r[4] = {TD(WNN_DTYPE_U8, 2, 4, 7, 6), TD(WNN_DTYPE_I8, 6, 2, 3, 3),
                    TD_SCALAR(WNN_DTYPE_U8), TD(WNN_DTYPE_I8, 6)};
  CHECK(op_check("ConvInteger", "{\"group\":2,\"pads\":[1,0,1,2],\"strides\":[2,1]}", 4, r, 0, 0));
  CHECK(op_check("ConvInteger", "{\"dilations\":[2,2],\"auto_pad\":\"SAME_UPPER\",\"group\":2}", 4,
                 r, 0, 0));
  wnn_tdesc r1[2] = {TD(WNN_DTYPE_I8, 1, 3, 10), TD(WNN_DTYPE_I8, 2, 3, 4)};
  CHECK(op_check("ConvInteger", "{\"strides\":[3]}", 2, r1, 0, 0));
}

TEST(qlinearconv) {
  /* 1x1 kernel, x scale 0.5, w scale 2, y scale 1, y zero point 10: y = x + 10
   * (plus the bias 3 when given). */
  uint8_t x[4] = {1, 2, 3, 4}, w[1] = {1}, zero = 0, yzp = 10;
  float xs = 0.5f, ws = 2.0f, ys = 1.0f;
  int32_t bias[1] = {3};
  wnn_tdesc in[9] = {
      TD(WNN_DTYPE_U8, 1, 1, 2, 2), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
      TD(WNN_DTYPE_U8, 1, 1, 1, 1), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
      TD_SCALAR(WNN_DTYPE_F32),     TD_SCALAR(WNN_DTYPE_U8),  TD(WNN_DTYPE_I32, 1)};
  void *data[9] = {x, &xs, &zero, w, &ws, &zero, &ys, &yzp, bias};
  const uint8_t want[4] = {11, 12, 13, 14}, want_b[4] = {14, 15, 16, 17};
  CHECK(check_data("QLinearConv", NULL, 8, in, data, want, sizeof want));
  CHECK(check_data("QLinearConv", NULL, 9, in, data, want_b, sizeof want_b));
  /* Random: per-channel w scale and zero point, int8 output, bias. */
  wnn_tdesc r[9] = {TD(WNN_DTYPE_U8, 1, 4, 6, 5), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                    TD(WNN_DTYPE_I8, 3, 4, 3, 3), TD(WNN_DTYPE_F32, 3),     TD(WNN_DTYPE_I8, 3),
                    TD_SCALAR(WNN_DTYPE_F32),     TD_SCALAR(WNN_DTYPE_I8),  TD(WNN_DTYPE_I32, 3)};
  CHECK(op_check("QLinearConv", "{\"pads\":[1,1,1,1]}", 9, r, 0, 0));
  CHECK(op_check("QLinearConv", "{\"strides\":[2,2]}", 8, r, 0, 0));
}

TEST(rejects) {
  wnn_tdesc mm[4] = {TD(WNN_DTYPE_F32, 4, 3), TD(WNN_DTYPE_U8, 3, 2), TD(WNN_DTYPE_U8, 4),
                     TD_OMITTED};
  CHECK(op_fails("MatMulInteger", NULL, 2, mm, 1, WNN_ERR_DTYPE,
                 "MatMulInteger: input 0 (A) is float32, expected uint8 or int8"));
  mm[0].dtype = WNN_DTYPE_U8;
  CHECK(op_fails("MatMulInteger", NULL, 3, mm, 1, WNN_ERR_UNSUPPORTED,
                 "input 2 (a_zero_point) has shape [4]; only a scalar"));
  mm[2] = TD_SCALAR(WNN_DTYPE_I8);
  CHECK(op_fails("MatMulInteger", NULL, 3, mm, 1, WNN_ERR_DTYPE,
                 "input 2 (a_zero_point) is int8, expected uint8"));
  mm[1] = TD(WNN_DTYPE_U8, 4, 2);
  CHECK(op_fails("MatMulInteger", NULL, 2, mm, 1, WNN_ERR_SHAPE, "do not multiply"));
  mm[1] = TD(WNN_DTYPE_U8, 3);
  CHECK(op_fails("MatMulInteger", NULL, 2, mm, 1, WNN_ERR_UNSUPPORTED, "1-D operands"));
  wnn_tdesc ql[8] = {TD(WNN_DTYPE_U8, 2, 4), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                     TD(WNN_DTYPE_U8, 4, 3), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                     TD_SCALAR(WNN_DTYPE_F32), TD_OMITTED};
  CHECK(op_fails("QLinearMatMul", NULL, 8, ql, 1, WNN_ERR_UNSUPPORTED,
                 "input 7 (y_zero_point) is omitted"));
  ql[7] = TD_SCALAR(WNN_DTYPE_U8);
  ql[4] = TD_SCALAR(WNN_DTYPE_I32);
  CHECK(op_fails("QLinearMatMul", NULL, 8, ql, 1, WNN_ERR_DTYPE, "input 4 (b_scale) is int32"));
  wnn_tdesc cv[4] = {TD(WNN_DTYPE_U8, 1, 4, 5, 5, 5), TD(WNN_DTYPE_U8, 2, 4, 1, 1, 1), TD_OMITTED,
                     TD_OMITTED};
  CHECK(op_fails("ConvInteger", NULL, 2, cv, 1, WNN_ERR_UNSUPPORTED, "only 1-D and 2-D"));
  cv[0] = TD(WNN_DTYPE_U8, 1, 4, 5, 5);
  cv[1] = TD(WNN_DTYPE_U8, 2, 3, 1, 1);
  CHECK(op_fails("ConvInteger", NULL, 2, cv, 1, WNN_ERR_SHAPE, "group 1 does not fit"));
  cv[1] = TD(WNN_DTYPE_U8, 2, 4, 1, 1);
  cv[3] = TD(WNN_DTYPE_U8, 3);
  CHECK(op_fails("ConvInteger", NULL, 4, cv, 1, WNN_ERR_UNSUPPORTED,
                 "input 3 (w_zero_point) has shape [3]; only a scalar or [2]"));
  cv[3] = TD_OMITTED;
  CHECK(op_fails("ConvInteger", "{\"kernel_shape\":[2,2]}", 2, cv, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "kernel_shape does not match"));
}

/* --------------------------------------- QuantizeLinear, DequantizeLinear */

TEST(quantize_hand_computed) {
  /* The ONNX example: scale 2, zero point 128; 1.5 rounds to even (2). */
  float x[6] = {0, 2, 3, 1000, -254, -1000}, scale = 2;
  uint8_t zp = 128;
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 6), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8)};
  void *data[3] = {x, &scale, &zp};
  const uint8_t want[6] = {128, 129, 130, 255, 1, 0};
  CHECK(op_check_data("QuantizeLinear", NULL, 3, in, data, 1, want, 6, 0, 0));
  /* Without a zero point: uint8, zero point 0. */
  const uint8_t want0[6] = {0, 1, 2, 255, 0, 0};
  CHECK(op_check_data("QuantizeLinear", NULL, 2, in, data, 1, want0, 6, 0, 0));
  /* int8, zero point -1; 5 / 2 = 2.5 rounds to 2. */
  float xs[5] = {5, -5, 300, -300, 0.9f};
  int8_t zs = -1;
  wnn_tdesc ins[3] = {TD(WNN_DTYPE_F32, 5), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_I8)};
  void *ds[3] = {xs, &scale, &zs};
  const int8_t wants[5] = {1, -3, 127, -128, -1};
  CHECK(op_check_data("QuantizeLinear", NULL, 3, ins, ds, 1, wants, 5, 0, 0));
  CHECK(op_check_data("QuantizeLinear", "{\"output_dtype\":3}", 3, ins, ds, 1, wants, 5, 0, 0));
  /* Dequantize: the ONNX example. */
  uint8_t q[4] = {0, 3, 128, 255};
  wnn_tdesc dq[3] = {TD(WNN_DTYPE_U8, 4), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8)};
  void *dd[3] = {q, &scale, &zp};
  const float deq[4] = {-256, -250, 0, 254};
  CHECK(op_check_data("DequantizeLinear", NULL, 3, dq, dd, 1, deq, 4, 0, 0));
  int32_t q32[3] = {-7, 0, 1 << 20};
  wnn_tdesc d32[2] = {TD(WNN_DTYPE_I32, 3), TD_SCALAR(WNN_DTYPE_F32)};
  void *dd32[2] = {q32, &scale};
  const float deq32[3] = {-14, 0, 2097152};
  CHECK(op_check_data("DequantizeLinear", NULL, 2, d32, dd32, 1, deq32, 3, 0, 0));
}

TEST(quantize_per_axis) {
  /* x [2, 3, 4] along axis 1 (the default) and axis -1, vs reference. */
  const wnn_dtype zdts[2] = {WNN_DTYPE_U8, WNN_DTYPE_I8};
  for (int z = 0; z < 2; z++)
    for (int a = 0; a < 2; a++) {
      const int64_t n = a ? 4 : 3;
      wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 1), TD(WNN_DTYPE_U8, 1)};
      in[1].dims[0] = in[2].dims[0] = n;
      in[2].dtype = zdts[z];
      float x[24], s[4];
      unsigned char zp[4];
      for (int i = 0; i < 24; i++) x[i] = 200.0f * lcg_float();
      for (int i = 0; i < 4; i++)
        s[i] = 0.5f + (float)i, zp[i] = (unsigned char)(z ? -3 + i : 100 + i);
      void *data[3] = {x, s, zp};
      const char *attrs = a ? "{\"axis\":-1}" : NULL;
      CHECK(op_check_data("QuantizeLinear", attrs, 3, in, data, 1, NULL, 0, 0, 0));
      /* and back */
      op_case c;
      CHECK_OK(op_prepare(&c, "QuantizeLinear", attrs, 3, in, 1));
      void *q[1];
      CHECK_OK(op_exec(&c, c.op->run, data, q));
      wnn_tdesc din[3] = {c.outputs[0], in[1], in[2]};
      void *dd[3] = {q[0], s, zp};
      CHECK(op_check_data("DequantizeLinear", attrs, 3, din, dd, 1, NULL, 0, 0, 0));
      /* every value within half a step of x, unless saturated */
      op_case dc;
      CHECK_OK(op_prepare(&dc, "DequantizeLinear", attrs, 3, din, 1));
      void *y[1];
      CHECK_OK(op_exec(&dc, dc.op->run, dd, y));
      int close = 1;
      for (int i = 0; i < 24; i++) {
        const int ax = a ? i % 4 : i / 4 % 3;
        const int qi = z ? ((int8_t *)q[0])[i] : ((uint8_t *)q[0])[i];
        const int sat = z ? (qi == -128 || qi == 127) : (qi == 0 || qi == 255);
        if (!sat && fabsf(((float *)y[0])[i] - x[i]) > 0.5f * s[ax] + 1e-4f) close = 0;
      }
      CHECK(close);
      free(q[0]);
      free(y[0]);
    }
}

TEST(quantize_rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_U8, 3)};
  CHECK(op_fails("QuantizeLinear", "{\"block_size\":2}", 3, in, 1, WNN_ERR_UNSUPPORTED,
                 "block_size = 2"));
  CHECK(op_fails("QuantizeLinear", "{\"output_dtype\":1}", 3, in, 1, WNN_ERR_UNSUPPORTED,
                 "output_dtype = 1"));
  CHECK(op_fails("QuantizeLinear", "{\"output_dtype\":3}", 3, in, 1, WNN_ERR_DTYPE,
                 "output_dtype = 3 asks for int8"));
  CHECK(op_fails("QuantizeLinear", "{\"axis\":0}", 3, in, 1, WNN_ERR_SHAPE,
                 "input 1 (y_scale) has shape [3], expected a scalar or [2]"));
  CHECK(op_fails("QuantizeLinear", "{\"axis\":2}", 3, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axis"));
  wnn_tdesc bad[3] = {in[0], in[1], TD(WNN_DTYPE_I32, 3)};
  CHECK(op_fails("QuantizeLinear", NULL, 3, bad, 1, WNN_ERR_DTYPE,
                 "input 2 (y_zero_point) is int32, expected uint8 or int8"));
  bad[2] = TD(WNN_DTYPE_U8, 2);
  CHECK(op_fails("QuantizeLinear", NULL, 3, bad, 1, WNN_ERR_SHAPE, "input 2 (y_zero_point)"));
  bad[0] = TD(WNN_DTYPE_I8, 2, 3);
  CHECK(op_fails("QuantizeLinear", NULL, 2, bad, 1, WNN_ERR_DTYPE, "input 0 (x) is int8"));
  wnn_tdesc dq[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_U8, 3)};
  CHECK(op_fails("DequantizeLinear", NULL, 3, dq, 1, WNN_ERR_DTYPE,
                 "DequantizeLinear: input 0 (x) is float32, expected uint8, int8 or int32"));
  dq[0].dtype = WNN_DTYPE_I8;
  CHECK(op_fails("DequantizeLinear", NULL, 3, dq, 1, WNN_ERR_DTYPE,
                 "input 2 (x_zero_point) is uint8, expected int8"));
  dq[1].dtype = WNN_DTYPE_I64;
  CHECK(op_fails("DequantizeLinear", NULL, 2, dq, 1, WNN_ERR_DTYPE, "input 1 (x_scale) is int64"));
}

TEST(dynamic_quantize) {
  /* The ONNX example: range [-3, 2], scale 5 / 255, zero point 153. */
  float x[6] = {0, 2, -3, -2.5f, 1.34f, 0.5f};
  wnn_tdesc in = TD(WNN_DTYPE_F32, 6);
  void *data[1] = {x};
  const uint8_t want[6] = {153, 255, 0, 26, 221, 179};
  CHECK(op_check_data("DynamicQuantizeLinear", NULL, 1, &in, data, 3, want, 6, 0, 0));
  op_case c;
  CHECK_OK(op_prepare(&c, "DynamicQuantizeLinear", NULL, 1, &in, 3));
  CHECK(c.outputs[1].ndim == 0 && c.outputs[1].dtype == WNN_DTYPE_F32);
  CHECK(c.outputs[2].ndim == 0 && c.outputs[2].dtype == WNN_DTYPE_U8);
  void *out[3];
  CHECK_OK(op_exec(&c, c.op->run, data, out));
  CHECK(*(float *)out[1] == 5.0f / 255.0f);
  CHECK(*(uint8_t *)out[2] == 153);
  for (int i = 0; i < 3; i++) free(out[i]);
  /* Only positive values: zero point 0; all zeros: scale 0, y 0. */
  float pos[3] = {1, 2, 255}, zeros[3] = {0, 0, 0};
  const uint8_t want_pos[3] = {1, 2, 255}, want_zero[3] = {0, 0, 0};
  wnn_tdesc in3 = TD(WNN_DTYPE_F32, 3);
  void *dp[1] = {pos}, *dz[1] = {zeros};
  CHECK(op_check_data("DynamicQuantizeLinear", NULL, 1, &in3, dp, 3, want_pos, 3, 0, 0));
  CHECK(op_check_data("DynamicQuantizeLinear", NULL, 1, &in3, dz, 3, want_zero, 3, 0, 0));
  /* vs reference on random data. */
  const wnn_tdesc r = TD(WNN_DTYPE_F32, 4, 33);
  float xr[132];
  for (int i = 0; i < 132; i++) xr[i] = 10.0f * lcg_float() + 2.0f;
  void *dr[1] = {xr};
  CHECK(op_check_data("DynamicQuantizeLinear", NULL, 1, &r, dr, 3, NULL, 0, 0, 0));
  CHECK(op_fails("DynamicQuantizeLinear", NULL, 1, (wnn_tdesc[]){TD(WNN_DTYPE_I32, 2)}, 3,
                 WNN_ERR_DTYPE, "DynamicQuantizeLinear: input 0 (x) is int32"));
  CHECK(op_fails("DynamicQuantizeLinear", NULL, 1, &in, 1, WNN_ERR_MALFORMED, "1 outputs"));
}

int main(void) {
  RUN(matmulinteger);
  RUN(qlinearmatmul);
  RUN(convinteger);
  RUN(qlinearconv);
  RUN(rejects);
  RUN(quantize_hand_computed);
  RUN(quantize_per_axis);
  RUN(quantize_rejects);
  RUN(dynamic_quantize);
  return test_summary();
}
