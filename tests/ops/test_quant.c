/* MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv: the ONNX
 * documentation's examples, run vs reference (src/ref/ref_quant.c) on random
 * bytes (scales and zero points random too), rejections. Every output is
 * integer: exact. */
#include <stdint.h>

#include <math.h>

#include "op_harness.h"
#include "ops/quant_internal.h"
#include "../unit/robustness.h"
#include "wnn_builder.h"

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


/* ------------------------------------ wnn's extensions (docs/quantization.md) */

/* Packs B [k, n] (bytes) into [ceil(k/2), n, 2] pairs, 0 in the odd tail. */
/* B [k, n] packed in K-pairs ([ceil(k/2)][n][2], 0 past k), stored whole
 * (block 0) or in column blocks of `block` columns (b_block), one after the
 * other, each [ceil(k/2)][its width][2]. */
static void pack_b_blocked(const unsigned char *b, int k, int n, int block,
                           unsigned char *out) {
  const int kp = (k + 1) / 2;
  memset(out, 0, (size_t)kp * (size_t)n * 2);
  unsigned char *blk = out;
  for (int j0 = 0; j0 < n; j0 += block ? block : n) {
    const int w = block && n - j0 > block ? block : n - j0;
    for (int r = 0; r < k; r++)
      for (int j = 0; j < w; j++) blk[(r / 2) * 2 * w + 2 * j + r % 2] = b[r * n + j0 + j];
    blk += (size_t)kp * 2 * (size_t)w;
  }
}

static void pack_b(const unsigned char *b, int k, int n, unsigned char *out) {
  pack_b_blocked(b, k, n, 0, out);
}

/* Runs op `name` (run, then reference, compared) and returns run's output. */
static void *run_op(const char *name, const char *attrs, int nin, const wnn_tdesc *in,
                    void *const *data, int nout, wnn_tdesc *out_desc) {
  op_case c;
  if (op_prepare(&c, name, attrs, nin, in, nout) != WNN_OK) {
    printf("  %s: prepare %s failed: %s\n", test_current_, name, c.msg);
    return NULL;
  }
  void *got[3] = {0}, *ref[3] = {0};
  int ok = op_exec(&c, c.op->run, data, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, data, ref) == WNN_OK && ok;
  ok = ok && outputs_match(&c.outputs[0], got[0], ref[0], 0, 0);
  if (out_desc) *out_desc = c.outputs[0];
  for (int o = 1; o < nout; o++) free(got[o]);
  for (int o = 0; o < nout; o++) free(ref[o]);
  if (!ok) {
    printf("  %s: %s: run and reference differ\n", test_current_, name);
    free(got[0]);
    return NULL;
  }
  return got[0];
}

TEST(qlinearmatmul_packed_per_column) {
  /* K odd and even; per-tensor and per-column b scale and zero point. */
  const int ks[3] = {9, 8, 1};
  for (int ki = 0; ki < 3; ki++)
    for (int per = 0; per < 2; per++) {
      const int k = ks[ki], n = 6;
      unsigned char a[2 * 3 * 9], b[9 * 6], bp[5 * 6 * 2];
      float as = 0.02f, bs[6], ys = 0.3f;
      uint8_t azp = 120, yzp = 7;
      int8_t bzp[6];
      for (int i = 0; i < 2 * 3 * k; i++) a[i] = (unsigned char)lcg_next();
      for (int i = 0; i < k * n; i++) b[i] = (unsigned char)lcg_next();
      for (int j = 0; j < n; j++) bs[j] = 0.01f + 0.003f * (float)j, bzp[j] = (int8_t)(j - 3);
      pack_b(b, k, n, bp);
      wnn_tdesc in[8] = {TD(WNN_DTYPE_U8, 2, 3, k), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                         TD(WNN_DTYPE_I8, k, n),    TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_I8),
                         TD_SCALAR(WNN_DTYPE_F32),  TD_SCALAR(WNN_DTYPE_U8)};
      if (per) in[4] = TD(WNN_DTYPE_F32, n), in[5] = TD(WNN_DTYPE_I8, n);
      void *data[8] = {a, &as, &azp, b, bs, bzp, &ys, &yzp};
      wnn_tdesc od;
      uint8_t *plain = run_op("QLinearMatMul", NULL, 8, in, data, 1, &od);
      CHECK(plain != NULL);
      in[3] = TD(WNN_DTYPE_I8, (k + 1) / 2, n, 2);
      in[3].data = bp;
      data[3] = bp;
      uint8_t *packed = run_op("QLinearMatMul", "{\"b_packed\":1}", 8, in, data, 1, &od);
      CHECK(packed != NULL);
      if (plain && packed) CHECK(memcmp(plain, packed, (size_t)(2 * 3 * n)) == 0);
      /* per column: column j uses bs[j] and bzp[j] (checked by hand for one) */
      if (plain && per) {
        int64_t acc = 0;
        for (int r = 0; r < k; r++) acc += (int64_t)(a[r] - azp) * ((int8_t)b[r * n + 5] - bzp[5]);
        float v = nearbyintf((float)acc * (as * bs[5] / ys)) + (float)yzp;
        v = v < 0 ? 0 : v > 255 ? 255 : v;
        CHECK(plain[5] == (uint8_t)v);
      }
      free(plain);
      free(packed);
    }
  /* MatMulInteger: per-column b zero point. */
  wnn_tdesc mi[4] = {TD(WNN_DTYPE_U8, 3, 7), TD(WNN_DTYPE_I8, 7, 5), TD_SCALAR(WNN_DTYPE_U8),
                     TD(WNN_DTYPE_I8, 5)};
  CHECK(op_check("MatMulInteger", NULL, 4, mi, 0, 0));
}

TEST(dynamic_quantize_matmul) {
  /* Against the unfused chain it stands for: DynamicQuantizeLinear,
   * MatMulInteger, Cast, Mul by Mul(a_scale, b_scale), Add bias. */
  for (int variant = 0; variant < 4; variant++) {
    const bool per = variant & 1, packed = variant & 2;
    const int k = 7, n = 6;
    float a[2 * 5 * 7], bs[6], bias[6];
    int8_t b[7 * 6], bp[4 * 6 * 2], bzp = 0;
    for (int i = 0; i < 70; i++) a[i] = 3.0f * lcg_float() + 0.5f;
    a[3] = -2.5f; /* a range that is not symmetric */
    for (int i = 0; i < k * n; i++) b[i] = (int8_t)lcg_next();
    for (int j = 0; j < n; j++) bs[j] = 0.004f * (float)(j + 1), bias[j] = 0.25f * (float)j - 0.5f;
    pack_b((const unsigned char *)b, k, n, (unsigned char *)bp);
    wnn_tdesc in[5] = {TD(WNN_DTYPE_F32, 2, 5, k), TD(WNN_DTYPE_I8, k, n),
                       per ? TD(WNN_DTYPE_F32, n) : TD_SCALAR(WNN_DTYPE_F32),
                       TD_SCALAR(WNN_DTYPE_I8), TD(WNN_DTYPE_F32, n)};
    void *data[5] = {a, b, bs, &bzp, bias};
    if (packed) {
      in[1] = TD(WNN_DTYPE_I8, 4, n, 2);
      in[1].data = bp;
      data[1] = bp;
    }
    float *y = run_op("DynamicQuantizeMatMul", packed ? "{\"b_packed\":1}" : NULL, 5, in, data, 1,
                      NULL);
    CHECK(y != NULL);
    /* the chain, op by op */
    wnn_tdesc qin = TD(WNN_DTYPE_F32, 2, 5, k);
    op_case qc;
    CHECK_OK(op_prepare(&qc, "DynamicQuantizeLinear", NULL, 1, &qin, 3));
    void *qa[1] = {a}, *q[3];
    CHECK_OK(op_exec(&qc, qc.op->run, qa, q));
    wnn_tdesc mm[4] = {TD(WNN_DTYPE_U8, 2, 5, k), TD(WNN_DTYPE_I8, k, n), TD_SCALAR(WNN_DTYPE_U8),
                       TD_SCALAR(WNN_DTYPE_I8)};
    void *md[4] = {q[0], b, q[2], &bzp};
    int32_t *acc = run_op("MatMulInteger", NULL, 4, mm, md, 1, NULL);
    CHECK(acc != NULL);
    int same = y && acc;
    for (int i = 0; same && i < 2 * 5 * n; i++) {
      const float s = *(float *)q[1] * bs[per ? i % n : 0];
      const float want = (float)acc[i] * s + bias[i % n];
      if (memcmp(&want, &y[i], 4) != 0) {
        printf("  element %d: %.9g, the chain gives %.9g\n", i, (double)y[i], (double)want);
        same = 0;
      }
    }
    CHECK(same);
    for (int i = 0; i < 3; i++) free(q[i]);
    free(acc);
    free(y);
  }
  /* Without bias and zero point; uint8 B with a per-column zero point; batch. */
  wnn_tdesc r[4] = {TD(WNN_DTYPE_F32, 3, 4, 10), TD(WNN_DTYPE_U8, 10, 3), TD(WNN_DTYPE_F32, 3),
                    TD(WNN_DTYPE_U8, 3)};
  CHECK(op_check("DynamicQuantizeMatMul", NULL, 3, r, 0, 0));
  CHECK(op_check("DynamicQuantizeMatMul", NULL, 4, r, 0, 0));
  /* Rejections. */
  wnn_tdesc bad[5] = {TD(WNN_DTYPE_U8, 4, 10), TD(WNN_DTYPE_I8, 10, 3), TD_SCALAR(WNN_DTYPE_F32),
                      TD_OMITTED, TD(WNN_DTYPE_F32, 4)};
  CHECK(op_fails("DynamicQuantizeMatMul", NULL, 3, bad, 1, WNN_ERR_DTYPE,
                 "DynamicQuantizeMatMul: input 0 (A) is uint8, expected float32"));
  bad[0].dtype = WNN_DTYPE_F32;
  CHECK(op_fails("DynamicQuantizeMatMul", NULL, 5, bad, 1, WNN_ERR_SHAPE,
                 "input 4 (bias) must have shape [3], got [4]"));
  CHECK(op_fails("DynamicQuantizeMatMul", "{\"b_packed\":1}", 3, bad, 1, WNN_ERR_SHAPE,
                 "b_packed = 1 needs input 1 (B) of shape [5, N, 2] for K = 10, got [10, 3]"));
  bad[1] = TD(WNN_DTYPE_I8, 5, 3, 2);
  CHECK(op_fails("DynamicQuantizeMatMul", "{\"b_packed\":1}", 3, bad, 1, WNN_ERR_UNSUPPORTED,
                 "b_packed = 1 needs input 1 (B) to be a constant"));
  CHECK(op_fails("DynamicQuantizeMatMul", "{\"b_packed\":2}", 3, bad, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "b_packed = 2"));
  CHECK(op_fails("DynamicQuantizeMatMul", "{\"b_block\":16}", 3, bad, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "DynamicQuantizeMatMul: b_block = 16; it must be >= 0, and set only with b_packed = 1"));
  CHECK(op_fails("DynamicQuantizeMatMul", "{\"b_packed\":1,\"b_block\":-1}", 3, bad, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "b_block = -1"));
  bad[1] = TD(WNN_DTYPE_I8, 2, 10, 3);
  CHECK(op_fails("DynamicQuantizeMatMul", NULL, 3, bad, 1, WNN_ERR_UNSUPPORTED,
                 "only 2-D B is supported"));
  bad[1] = TD(WNN_DTYPE_I8, 10, 3);
  bad[2] = TD(WNN_DTYPE_F32, 4);
  CHECK(op_fails("DynamicQuantizeMatMul", NULL, 3, bad, 1, WNN_ERR_UNSUPPORTED,
                 "input 2 (b_scale) has shape [4]; only a scalar or [3] (per column)"));
}

TEST(qlinearconv_activation) {
  /* Relu: max(y, Q(0)) = max(y, y_zero_point); Clip(a, b): clamp(y, Q(a), Q(b)). */
  const wnn_dtype ydts[2] = {WNN_DTYPE_U8, WNN_DTYPE_I8};
  for (int t = 0; t < 2; t++) {
    float xs = 0.05f, ws[3] = {0.02f, 0.03f, 0.015f}, ys = 0.04f;
    unsigned char x[1 * 4 * 6 * 5], xzp = 128, wzp[3] = {0, 0, 0};
    int8_t w[3 * 4 * 3 * 3];
    unsigned char yzp = t ? (unsigned char)(int8_t)-5 : 60;
    int32_t bias[3] = {-300, 50, 1000};
    for (size_t i = 0; i < sizeof x; i++) x[i] = (unsigned char)lcg_next();
    for (size_t i = 0; i < sizeof w; i++) w[i] = (int8_t)lcg_next();
    wnn_tdesc in[9] = {TD(WNN_DTYPE_U8, 1, 4, 6, 5), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                       TD(WNN_DTYPE_I8, 3, 4, 3, 3), TD(WNN_DTYPE_F32, 3),     TD(WNN_DTYPE_I8, 3),
                       TD_SCALAR(WNN_DTYPE_F32),     TD_SCALAR(ydts[t]),       TD(WNN_DTYPE_I32, 3)};
    in[6].data = &ys, in[7].data = &yzp;
    void *data[9] = {x, &xs, &xzp, w, ws, wzp, &ys, &yzp, bias};
    const char *pads = "{\"pads\":[1,1,1,1]";
    char attrs[3][160];
    snprintf(attrs[0], sizeof attrs[0], "%s}", pads);
    snprintf(attrs[1], sizeof attrs[1], "%s,\"activation\":\"Relu\"}", pads);
    snprintf(attrs[2], sizeof attrs[2], "%s,\"activation\":\"Clip\",\"activation_params\":[-0.5,1.5]}",
             pads);
    void *y[3];
    for (int a = 0; a < 3; a++) CHECK((y[a] = run_op("QLinearConv", attrs[a], 9, in, data, 1, NULL)));
    if (!y[0] || !y[1] || !y[2]) continue;
    /* Q(v) by QuantizeLinear's arithmetic */
    const int zp = t ? -5 : 60, lo = t ? -128 : 0, hi = t ? 127 : 255;
    const int qlo = (int)fmaxf((float)lo, nearbyintf(-0.5f / ys) + (float)zp);
    const int qhi = (int)fminf((float)hi, nearbyintf(1.5f / ys) + (float)zp);
    CHECK(qlo == zp - 12 && qhi == zp + 38);
    int ok = 1, relu_changed = 0, clip_changed = 0;
    for (int i = 0; i < 3 * 6 * 5; i++) {
      const int v = t ? ((int8_t *)y[0])[i] : ((uint8_t *)y[0])[i];
      const int r = t ? ((int8_t *)y[1])[i] : ((uint8_t *)y[1])[i];
      const int c = t ? ((int8_t *)y[2])[i] : ((uint8_t *)y[2])[i];
      const int want_r = v > zp ? v : zp, want_c = v < qlo ? qlo : v > qhi ? qhi : v;
      ok = ok && r == want_r && c == want_c;
      relu_changed += r != v, clip_changed += c != v;
    }
    CHECK(ok);
    CHECK(relu_changed > 0 && clip_changed > 0); /* the clamps did something */
    for (int a = 0; a < 3; a++) free(y[a]);
  }
  /* Rejections: another activation; y_scale not a constant. */
  wnn_tdesc r[8] = {TD(WNN_DTYPE_U8, 1, 2, 4, 4), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                    TD(WNN_DTYPE_I8, 2, 2, 1, 1), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_I8),
                    TD_SCALAR(WNN_DTYPE_F32),     TD_SCALAR(WNN_DTYPE_U8)};
  CHECK(op_fails("QLinearConv", "{\"activation\":\"Relu\"}", 8, r, 1, WNN_ERR_UNSUPPORTED,
                 "QLinearConv: an activation needs constant y_scale and y_zero_point"));
  float ys = 0.1f;
  uint8_t yzp = 3;
  r[6].data = &ys, r[7].data = &yzp;
  CHECK(op_fails("QLinearConv", "{\"activation\":\"Sigmoid\"}", 8, r, 1, WNN_ERR_UNSUPPORTED,
                 "activation must be Relu or Clip"));
  CHECK(op_fails("QLinearConv", "{\"activation\":\"Clip\",\"activation_params\":[2,1]}", 8, r, 1,
                 WNN_ERR_UNSUPPORTED, "min <= max"));
  CHECK(op_check("QLinearConv", "{\"activation\":\"Relu\"}", 8, r, 0, 0));
  wnn_tdesc ci[2] = {TD(WNN_DTYPE_U8, 1, 2, 4, 4), TD(WNN_DTYPE_I8, 2, 2, 1, 1)};
  CHECK(op_fails("ConvInteger", "{\"activation\":\"Relu\"}", 2, ci, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "activation"));
}

/* ------------------------------ the int8 kernels inside the ops (kernels.inc) */

/* Prepares `name` with the AUTO kernels (SIMD128 where built) and the SCALAR
 * ones, runs both and the reference on `data`; every output of the two runs
 * must be bitwise equal, and equal to the reference's (exact). params, when
 * given (WNN_MAX_PARAMS bytes), receives the AUTO case's params. */
static int run_kernels(const char *name, const char *attrs, int nin, const wnn_tdesc *in,
                       void *const *data, int nout, void *params) {
  op_case ca, cs;
  if (op_prepare_k(&ca, name, attrs, nin, in, nout, WNN_KERNELS_AUTO) != WNN_OK ||
      op_prepare_k(&cs, name, attrs, nin, in, nout, WNN_KERNELS_SCALAR) != WNN_OK) {
    printf("  %s: prepare %s failed: %s %s\n", test_current_, name, ca.msg, cs.msg);
    return 0;
  }
  if (params) memcpy(params, ca.params, sizeof ca.params);
  void *ga[3] = {0}, *gs[3] = {0}, *ref[3] = {0};
  int ok = op_exec(&ca, ca.op->run, data, ga) == WNN_OK;
  ok = op_exec(&cs, cs.op->run, data, gs) == WNN_OK && ok;
  ok = op_exec(&ca, ca.op->reference, data, ref) == WNN_OK && ok;
  for (int o = 0; ok && o < nout; o++) {
    const size_t bytes = td_bytes(&ca.outputs[o]);
    if (memcmp(ga[o], gs[o], bytes) != 0) {
      printf("  %s: %s output %d: AUTO and SCALAR kernels differ\n", test_current_, name, o);
      ok = 0;
    } else if (memcmp(ga[o], ref[o], bytes) != 0) {
      printf("  %s: %s output %d differs from the reference\n", test_current_, name, o);
      ok = 0;
    }
  }
  for (int o = 0; o < nout; o++) free(ga[o]), free(gs[o]), free(ref[o]);
  return ok;
}

/* x / s on ties k + 0.5 of both signs, -0, NaN, infinities, huge values and
 * random values (SIMD128 steps of 16 and their tails: 37 per row). */
static void edge_floats(float *x, size_t n, float s) {
  static const float sp[] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 3e38f};
  for (size_t i = 0; i < n; i++) {
    const int k = (int)(lcg_next() % 600) - 300;
    switch (i % 5) {
      case 0: x[i] = ((float)k + 0.5f) * s; break;
      case 1: x[i] = sp[(i / 5) % 8]; break;
      default: x[i] = 150.0f * s * lcg_float(); break;
    }
  }
}

TEST(quantize_kernels) {
  enum { N = 3 * 37 };
  float x[N], s = 0.25f, sa[5] = {0.25f, 0.5f, 0.1f, 3.0f, 0.0625f};
  edge_floats(x, N, s);
  const wnn_dtype zdt[2] = {WNN_DTYPE_U8, WNN_DTYPE_I8};
  const uint8_t zu[3] = {0, 128, 255};
  const int8_t zs[3] = {-128, 0, 127};
  for (int t = 0; t < 2; t++)
    for (int z = 0; z < 3; z++) {
      wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 3, 37), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(zdt[t])};
      void *data[3] = {x, &s, t ? (void *)&zs[z] : (void *)&zu[z]};
      CHECK(run_kernels("QuantizeLinear", NULL, 3, in, data, 1, NULL));
      /* back to float */
      op_case c;
      CHECK_OK(op_prepare(&c, "QuantizeLinear", NULL, 3, in, 1));
      void *q[1];
      CHECK_OK(op_exec(&c, c.op->run, data, q));
      wnn_tdesc din[3] = {TD(zdt[t], 3, 37), in[1], in[2]};
      void *dd[3] = {q[0], data[1], data[2]};
      CHECK(run_kernels("DequantizeLinear", NULL, 3, din, dd, 1, NULL));
      free(q[0]);
    }
  /* per axis: axis 1 (inner 19) and the last axis (inner 1) */
  float xa[2 * 5 * 19];
  edge_floats(xa, 2 * 5 * 19, 0.25f);
  uint8_t za[19];
  for (int i = 0; i < 19; i++) za[i] = (uint8_t)lcg_next();
  for (int a = 0; a < 2; a++)
    for (int t = 0; t < 2; t++) {
      const int64_t n = a ? 19 : 5;
      wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 5, 19), TD(WNN_DTYPE_F32, n), TD(zdt[t], n)};
      float sc[19];
      for (int i = 0; i < n; i++) sc[i] = sa[i % 5];
      void *data[3] = {xa, sc, za};
      const char *attrs = a ? "{\"axis\":2}" : NULL;
      CHECK(run_kernels("QuantizeLinear", attrs, 3, in, data, 1, NULL));
      wnn_tdesc din[3] = {TD(zdt[t], 2, 5, 19), in[1], in[2]};
      void *dd[3] = {za, sc, za}; /* any bytes will do: 19 >= 5 */
      uint8_t qx[2 * 5 * 19];
      for (size_t i = 0; i < sizeof qx; i++) qx[i] = (uint8_t)lcg_next();
      dd[0] = qx;
      CHECK(run_kernels("DequantizeLinear", attrs, 3, din, dd, 1, NULL));
    }
  /* int32 with and without a zero point (exact in the reference's range) */
  int32_t x32[3 * 37], z32 = -77;
  for (int i = 0; i < 3 * 37; i++) x32[i] = (int32_t)(lcg_next() % 2000001) - 1000000;
  wnn_tdesc d32[3] = {TD(WNN_DTYPE_I32, 3, 37), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_I32)};
  void *dd32[3] = {x32, &s, &z32};
  CHECK(run_kernels("DequantizeLinear", NULL, 3, d32, dd32, 1, NULL));
  CHECK(run_kernels("DequantizeLinear", NULL, 2, d32, dd32, 1, NULL));
}

TEST(dynamic_quantize_kernels) {
  enum { N = 5 * 41 };
  float x[N];
  for (int kind = 0; kind < 4; kind++) {
    for (int i = 0; i < N; i++) {
      x[i] = 3.0f * lcg_float();
      if (kind == 1 && i % 7 == 2) x[i] = NAN;
      if (kind == 1 && i % 9 == 4) x[i] = -0.0f;
      if (kind == 2) x[i] = (i % 3) ? NAN : 0.0f; /* scale 0 */
      if (kind == 3) x[i] = fabsf(x[i]) + 1.0f;   /* zero point 0 */
    }
    wnn_tdesc in = TD(WNN_DTYPE_F32, 5, 41);
    void *data[1] = {x};
    CHECK(run_kernels("DynamicQuantizeLinear", NULL, 1, &in, data, 3, NULL));
  }
}

/* QLinearConv's depthwise path (group == C == M, int8 w, constant zero
 * points 0): strides, paddings, dilation, activations, uint8/int8 x and y,
 * per-channel and per-tensor scales and zero points, bias or none; AUTO and
 * SCALAR against the reference, bitwise. A non-zero or non-constant w zero
 * point takes the plain loop, also exact. */
TEST(qlinearconv_depthwise) {
  enum { C = 5 };
  static const struct { int64_t h, w, k, s, d; const char *pads; } geo[] = {
      {7, 7, 3, 1, 1, "[1,1,1,1]"},   {12, 23, 3, 2, 1, "[1,1,1,1]"}, {9, 17, 5, 1, 1, "[2,2,2,2]"},
      {10, 21, 5, 2, 1, "[1,2,2,1]"}, {8, 19, 3, 1, 2, "[2,0,2,1]"},  {1, 1, 1, 1, 1, "[0,0,0,0]"},
      {16, 16, 3, 2, 1, "[0,0,1,1]"}, {5, 33, 3, 3, 1, "[1,1,1,1]"},
  };
  const wnn_dtype q8[2] = {WNN_DTYPE_U8, WNN_DTYPE_I8};
  int cases = 0;
  for (size_t gi = 0; gi < sizeof geo / sizeof geo[0]; gi++)
    for (int v = 0; v < 4; v++) {
      const int64_t k = geo[gi].k, nb = 1 + (v == 3);
      const int xt = v & 1, yt = (v >> 1) & 1, per = (int)(gi + (size_t)v) % 2;
      const int64_t hw = geo[gi].h * geo[gi].w, kk = k * k;
      unsigned char *x = malloc((size_t)(nb * C * hw));
      int8_t w[C * 25], wzp[C] = {0};
      float xs = 0.03f, ws[C], ys = 0.05f;
      unsigned char xzp = (unsigned char)lcg_next(), yzp = (unsigned char)lcg_next();
      int32_t bias[C];
      for (int64_t i = 0; i < nb * C * hw; i++) x[i] = (unsigned char)lcg_next();
      for (int i = 0; i < C * kk; i++) w[i] = (int8_t)lcg_next();
      for (int i = 0; i < C; i++) ws[i] = 0.005f + 0.02f * fabsf(lcg_float()), bias[i] = (int32_t)(lcg_next() % 4001) - 2000;
      wnn_tdesc in[9] = {TD(q8[xt], nb, C, geo[gi].h, geo[gi].w), TD_SCALAR(WNN_DTYPE_F32),
                         TD_SCALAR(q8[xt]), TD(WNN_DTYPE_I8, C, 1, k, k),
                         per ? TD(WNN_DTYPE_F32, C) : TD_SCALAR(WNN_DTYPE_F32),
                         per ? TD(WNN_DTYPE_I8, C) : TD_SCALAR(WNN_DTYPE_I8),
                         TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(q8[yt]), TD(WNN_DTYPE_I32, C)};
      in[5].data = wzp, in[6].data = &ys, in[7].data = &yzp;
      void *data[9] = {x, &xs, &xzp, w, ws, wzp, &ys, &yzp, bias};
      char attrs[200];
      snprintf(attrs, sizeof attrs,
               "{\"group\":%d,\"strides\":[%lld,%lld],\"dilations\":[%lld,%lld],\"pads\":%s%s}", C,
               (long long)geo[gi].s, (long long)geo[gi].s, (long long)geo[gi].d,
               (long long)geo[gi].d, geo[gi].pads, v == 2 ? ",\"activation\":\"Relu\"" : "");
      _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
      CHECK(run_kernels("QLinearConv", attrs, v == 1 ? 8 : 9, in, data, 1, params));
      CHECK(((const wnn_qconv_params *)params)->method == WNN_QCONV_DEPTHWISE);
      in[5].data = NULL; /* not a constant: the plain loop */
      CHECK(run_kernels("QLinearConv", attrs, 9, in, data, 1, params));
      CHECK(((const wnn_qconv_params *)params)->method == WNN_QCONV_PLAIN);
      wzp[C - 1] = per ? 3 : 0, wzp[0] = per ? 0 : 3; /* not symmetric: the plain loop */
      in[5].data = wzp;
      CHECK(run_kernels("QLinearConv", attrs, 9, in, data, 1, params));
      CHECK(((const wnn_qconv_params *)params)->method == WNN_QCONV_PLAIN);
      free(x);
      cases++;
    }
  CHECK(cases == 32);
}

/* ------------------------------- the int8 GEMM paths (src/ops/quant_gemm.c) */

/* Prepares op with each wnn_kernels setting, checks which path it took (the
 * int8 GEMM declares scratch, the plain loop none) and that run gives the
 * reference's bytes (every output is an integer, or the dynamic path's float
 * computed by the same operations: bitwise). */
static int want_qconv_method = -1; /* >= 0: the convs' fast path must be this WNN_QCONV_* */

static int check_path(const char *name, const char *attrs, int nin, const wnn_tdesc *in,
                      void *const *data, bool want_fast, const char *what) {
  static const wnn_kernels SETS[2] = {WNN_KERNELS_AUTO, WNN_KERNELS_SCALAR};
  int ok = 1;
  for (int s = 0; s < 2 && ok; s++) {
    op_case c;
    if (op_prepare_k(&c, name, attrs, nin, in, 1, SETS[s]) != WNN_OK) {
      printf("  %s: %s: prepare failed: %s\n", name, what, c.msg);
      return 0;
    }
    if ((c.scratch_bytes > 0) != want_fast) {
      printf("  %s: %s: took the %s path\n", name, what, c.scratch_bytes ? "GEMM" : "plain");
      return 0;
    }
    if (want_fast && want_qconv_method >= 0 && strstr(name, "Conv") &&
        ((const wnn_qconv_params *)c.params)->method != want_qconv_method) {
      printf("  %s: %s: method %d, expected %d\n", name, what,
             ((const wnn_qconv_params *)c.params)->method, want_qconv_method);
      return 0;
    }
    void *got[1], *ref[1];
    ok = op_exec(&c, c.op->run, data, got) == WNN_OK;
    ok = op_exec(&c, c.op->reference, data, ref) == WNN_OK && ok;
    ok = ok && memcmp(got[0], ref[0], td_bytes(&c.outputs[0])) == 0;
    if (!ok) {
      const size_t n = td_bytes(&c.outputs[0]);
      for (size_t i = 0; i < n; i++)
        if (((unsigned char *)got[0])[i] != ((unsigned char *)ref[0])[i]) {
          printf("  %s: %s (%s kernels): byte %zu: run %u, reference %u\n", name, what,
                 s ? "scalar" : "auto", i, ((unsigned char *)got[0])[i],
                 ((unsigned char *)ref[0])[i]);
          break;
        }
    }
    free(got[0]);
    free(ref[0]);
  }
  return ok;
}

static void fill_bytes(void *p, size_t n) {
  for (size_t i = 0; i < n; i++) ((unsigned char *)p)[i] = (unsigned char)lcg_next();
}

/* One convolution case: x [batch, c, h, w] (or 1-D: h = 0), m output
 * channels, kernel kh x kw, group, attrs (strides, pads, dilations,
 * activation). */
typedef struct qconv_case {
  const char *what;
  int64_t batch, c, h, w, m, kh, kw, group;
  const char *attrs;
  wnn_dtype x_dt, y_dt;
  bool per_channel, bias;
} qconv_case;

/* QLinearConv (and, with the same shapes, ConvInteger) with int8 weights of
 * zero point 0 through the GEMM path, and the variants that must fall back:
 * wzp kind 0: constant zeros (fast); 1: a constant nonzero; 2: not a
 * constant; 3: uint8 weights; 4: a bias that is not a constant. */
static int qconv_run_case(const qconv_case *q, int fallback) {
  const bool one_d = q->h == 0;
  const int64_t cg = q->c / q->group, m = q->m;
  const size_t xn = (size_t)(q->batch * q->c * (one_d ? 1 : q->h) * q->w);
  const size_t wn = (size_t)(m * cg * (one_d ? 1 : q->kh) * q->kw);
  unsigned char *x = malloc(xn), *w = malloc(wn), wzp[64] = {0};
  int32_t bias[64];
  float xs = 0.031f, ws[64], ys = 0.047f;
  unsigned char xzp = q->x_dt == WNN_DTYPE_I8 ? (unsigned char)(int8_t)-7 : 131;
  unsigned char yzp = q->y_dt == WNN_DTYPE_I8 ? (unsigned char)(int8_t)3 : 118;
  fill_bytes(x, xn), fill_bytes(w, wn);
  for (int64_t i = 0; i < m; i++) {
    ws[i] = 0.004f + 0.0007f * (float)(i % 11);
    bias[i] = (int32_t)(lcg_next() % 20001) - 10000;
  }
  if (fallback == 1) wzp[m / 2] = 1;
  wnn_tdesc in[9];
  const wnn_dtype w_dt = fallback == 3 ? WNN_DTYPE_U8 : WNN_DTYPE_I8;
  in[0] = one_d ? TD(q->x_dt, q->batch, q->c, q->w) : TD(q->x_dt, q->batch, q->c, q->h, q->w);
  in[1] = TD_SCALAR(WNN_DTYPE_F32), in[2] = TD_SCALAR(q->x_dt);
  in[3] = one_d ? TD(w_dt, m, cg, q->kw) : TD(w_dt, m, cg, q->kh, q->kw);
  in[4] = q->per_channel ? TD(WNN_DTYPE_F32, m) : TD_SCALAR(WNN_DTYPE_F32);
  in[5] = q->per_channel ? TD(w_dt, m) : TD_SCALAR(w_dt);
  in[6] = TD_SCALAR(WNN_DTYPE_F32), in[7] = TD_SCALAR(q->y_dt), in[8] = TD(WNN_DTYPE_I32, m);
  /* constants as the importer writes them: weights' zero point, y's scale
   * and zero point (an activation needs them), the bias */
  if (fallback != 2) in[5].data = wzp;
  in[6].data = &ys, in[7].data = &yzp;
  if (fallback != 4) in[8].data = bias;
  void *data[9] = {x, &xs, &xzp, w, ws, wzp, &ys, &yzp, bias};
  char what[384], attrs[160];
  /* the case's attributes with the group */
  snprintf(attrs, sizeof attrs, "{\"group\":%lld%s%s", (long long)q->group,
           q->attrs ? "," : "}", q->attrs ? q->attrs + 1 : "");
  snprintf(what, sizeof what, "%s, %s%s", q->what, attrs, fallback ? " (fallback)" : "");
  int ok = check_path("QLinearConv", attrs, q->bias ? 9 : 8, in, data,
                      fallback == 0 || (fallback == 4 && !q->bias), what);
  /* ConvInteger: x, w, x_zero_point, w_zero_point (no activation) */
  if (ok && (!q->attrs || !strstr(q->attrs, "activation")) && fallback != 4) {
    wnn_tdesc ci[4] = {in[0], in[3], in[2], in[5]};
    void *cd[4] = {x, w, &xzp, wzp};
    ok = check_path("ConvInteger", attrs, 4, ci, cd, fallback == 0, what);
    if (ok && fallback == 0) ok = check_path("ConvInteger", attrs, 3, ci, cd, true, what);
  }
  free(x), free(w);
  return ok;
}

TEST(qconv_gemm_paths) {
  const wnn_dtype U8 = WNN_DTYPE_U8, I8 = WNN_DTYPE_I8;
  const qconv_case CASES[] = {
      /* 1x1, stride 1, no padding: the pixels packed as they are */
      {"1x1 K=5 odd", 1, 5, 7, 5, 9, 1, 1, 1, NULL, U8, U8, true, true},
      {"1x1 K=1", 2, 1, 3, 3, 3, 1, 1, 1, NULL, I8, U8, false, true},
      {"1x1 K=16, int8 y", 1, 16, 9, 11, 12, 1, 1, 1, NULL, U8, I8, true, false},
      {"1x1 many tiles", 1, 960, 20, 20, 64, 1, 1, 1, NULL, U8, U8, true, true},
      {"1x1 grouped", 2, 6, 5, 3, 4, 1, 1, 2, NULL, I8, I8, true, true},
      {"1x1 Relu", 1, 8, 6, 7, 5, 1, 1, 1, "{\"activation\":\"Relu\"}", U8, U8, true, true},
      {"1x1 Clip", 1, 8, 6, 7, 5, 1, 1, 1,
       "{\"activation\":\"Clip\",\"activation_params\":[-0.5,0.75]}", U8, I8, true, true},
      /* im2col */
      {"3x3 pad 1", 1, 3, 9, 10, 7, 3, 3, 1, NULL, U8, U8, true, true},
      {"3x3 pad 1 int8 x", 2, 4, 6, 5, 5, 3, 3, 1, NULL, I8, U8, false, true},
      {"3x3 stride 2 (MobileNetV2's first)", 1, 3, 17, 16, 8, 3, 3, 1,
       "{\"pads\":[1,1,1,1],\"strides\":[2,2]}", U8, U8, true, true},
      {"3x3 dilation 2", 1, 2, 11, 12, 3, 3, 3, 1, "{\"dilations\":[2,2],\"pads\":[2,2,2,2]}", U8,
       U8, true, true},
      {"5x3 asymmetric pads", 1, 3, 8, 9, 4, 5, 3, 1, "{\"pads\":[2,0,1,1]}", U8, I8, true, true},
      {"3x3 grouped, channel multiplier 2", 1, 6, 7, 6, 12, 3, 3, 6, NULL, U8, U8, true, true},
      {"3x3 three groups", 1, 9, 6, 6, 6, 3, 3, 3, NULL, I8, U8, false, true},
      {"3x3 many tiles", 1, 64, 16, 16, 32, 3, 3, 1, NULL, U8, U8, true, true},
      {"1x1 stride 2 (im2col)", 1, 4, 9, 9, 3, 1, 1, 1, "{\"strides\":[2,2]}", U8, U8, true, true},
      {"1-D k=3", 2, 5, 0, 13, 6, 1, 3, 1, "{\"pads\":[1,1]}", U8, U8, true, true},
      {"3x3 Relu", 1, 5, 6, 7, 4, 3, 3, 1, "{\"activation\":\"Relu\",\"pads\":[1,1,1,1]}", I8, I8,
       true, true},
  };
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) CHECK(qconv_run_case(&CASES[i], 0));
  /* The fallbacks run the plain loop: a nonzero, non-constant or uint8
   * weight zero point; QLinearConv's bias not a constant. */
  for (int f = 1; f <= 4; f++) {
    CHECK(qconv_run_case(&CASES[0], f));
    CHECK(qconv_run_case(&CASES[7], f));
  }
  /* Depthwise (group == C == M) keeps the plain loop (the int8 depthwise
   * kernel's place). */
  {
    unsigned char x[8 * 36], zp8[8] = {0}, xzp = 128, yzp = 128;
    int8_t w[8 * 9];
    float xs = 0.02f, ws[8], ys = 0.05f;
    fill_bytes(x, sizeof x), fill_bytes(w, sizeof w);
    for (int i = 0; i < 8; i++) ws[i] = 0.01f;
    wnn_tdesc in[8] = {TD(WNN_DTYPE_U8, 1, 8, 6, 6), TD_SCALAR(WNN_DTYPE_F32),
                       TD_SCALAR(WNN_DTYPE_U8),      TD(WNN_DTYPE_I8, 8, 1, 3, 3),
                       TD(WNN_DTYPE_F32, 8),         TD(WNN_DTYPE_I8, 8),
                       TD_SCALAR(WNN_DTYPE_F32),     TD_SCALAR(WNN_DTYPE_U8)};
    in[5].data = zp8;
    void *data[8] = {x, &xs, &xzp, w, ws, zp8, &ys, &yzp};
    CHECK(check_path("QLinearConv", "{\"group\":8,\"pads\":[1,1,1,1]}", 8, in, data, false,
                     "depthwise"));
  }
  /* A bias so large that int32 could overflow keeps the plain loop. */
  {
    unsigned char x[2 * 9], xzp = 0, yzp = 0, wzp = 0;
    int8_t w[3 * 2];
    float xs = 1e-3f, ws = 1e-3f, ys = 1.0f;
    int32_t bias[3] = {INT32_MAX - 5, 0, -100};
    fill_bytes(x, sizeof x), fill_bytes(w, sizeof w);
    wnn_tdesc in[9] = {TD(WNN_DTYPE_U8, 1, 2, 3, 3), TD_SCALAR(WNN_DTYPE_F32),
                       TD_SCALAR(WNN_DTYPE_U8),      TD(WNN_DTYPE_I8, 3, 2, 1, 1),
                       TD_SCALAR(WNN_DTYPE_F32),     TD_SCALAR(WNN_DTYPE_I8),
                       TD_SCALAR(WNN_DTYPE_F32),     TD_SCALAR(WNN_DTYPE_U8),
                       TD(WNN_DTYPE_I32, 3)};
    in[5].data = &wzp, in[8].data = bias;
    void *data[9] = {x, &xs, &xzp, w, &ws, &wzp, &ys, &yzp, bias};
    CHECK(check_path("QLinearConv", NULL, 9, in, data, false, "bias near INT32_MAX"));
    bias[0] = 1000;
    CHECK(check_path("QLinearConv", NULL, 9, in, data, true, "bias 1000"));
  }
}

/* The exact integer Winograd path (src/ops/qconv_winograd.c): 3x3 stride 1
 * group 1, bitwise the plain loops on awkward sizes (odd and even channel
 * counts, output planes with odd sides, one tile row or many blocks of them,
 * pads 0, 1, asymmetric and larger than the kernel, batches, int8 and uint8
 * x and y, per-channel scales, Relu and Clip, ConvInteger), the range's
 * ends at the largest channel count it takes (1827: the sum reaches 2^29
 * minus 171392) and the first it refuses (1828, where 4 times the sum
 * leaves int32: the im2col path), and weights too many to transform. */
TEST(qconv_winograd_path) {
  const wnn_dtype U8 = WNN_DTYPE_U8, I8 = WNN_DTYPE_I8;
  const qconv_case CASES[] = {
      {"4x4 no pads", 1, 1, 6, 6, 1, 3, 3, 1, NULL, U8, U8, false, true},
      {"odd sides, C odd", 1, 3, 9, 10, 7, 3, 3, 1, NULL, U8, U8, true, true},
      {"pad 1, int8 x", 2, 4, 6, 5, 5, 3, 3, 1, "{\"pads\":[1,1,1,1]}", I8, U8, false, true},
      {"asymmetric pads, int8 y", 1, 5, 11, 7, 9, 3, 3, 1, "{\"pads\":[0,2,1,0]}", U8, I8, true,
       true},
      {"pads past the kernel", 1, 2, 4, 5, 3, 3, 3, 1, "{\"pads\":[3,1,2,4]}", U8, U8, true, true},
      {"many blocks", 1, 64, 33, 31, 36, 3, 3, 1, "{\"pads\":[1,1,1,1]}", U8, U8, true, true},
      {"wide rows", 1, 17, 5, 70, 13, 3, 3, 1, "{\"pads\":[1,1,1,1]}", I8, I8, true, false},
      {"Relu", 1, 6, 8, 9, 5, 3, 3, 1, "{\"activation\":\"Relu\",\"pads\":[1,1,1,1]}", I8, U8,
       true, true},
      {"Clip", 1, 6, 8, 9, 5, 3, 3, 1,
       "{\"activation\":\"Clip\",\"activation_params\":[-0.5,0.75],\"pads\":[1,1,1,1]}", U8,
       I8, true, true},
  };
  want_qconv_method = WNN_QCONV_WINOGRAD;
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) CHECK(qconv_run_case(&CASES[i], 0));
  want_qconv_method = -1;
  /* ConvInteger's output is the sum itself: x 255 with zero point 0 and w
   * -128 everywhere make |sum| = 9 C 255 128 on every output of a 6x6
   * plane without padding. */
  for (int64_t c = 1827; c <= 1828; c++) {
    const size_t xn = (size_t)c * 36, wn = 2 * (size_t)c * 9;
    unsigned char *x = malloc(xn), xzp = 0, wzp = 0;
    int8_t *w = malloc(wn);
    memset(x, 255, xn), memset(w, 0x80, wn);
    w[wn - 1] = 127; /* the second channel's sum a little smaller */
    wnn_tdesc in[4] = {TD(U8, 1, c, 6, 6), TD(I8, 2, c, 3, 3), TD_SCALAR(U8), TD_SCALAR(I8)};
    in[3].data = &wzp;
    void *data[4] = {x, w, &xzp, &wzp};
    want_qconv_method = c == 1827 ? WNN_QCONV_WINOGRAD : WNN_QCONV_GEMM_IM2COL;
    CHECK(check_path("ConvInteger", NULL, 4, in, data, true, "the range's end"));
    want_qconv_method = -1;
    free(x), free(w);
  }
  /* Transformed weights past 16 MiB (520 x 1024 kernels: 17 MiB) keep the
   * im2col path. */
  {
    const int64_t c = 1024, m = 520;
    unsigned char *x = malloc((size_t)c * 36), xzp = 3, wzp = 0;
    int8_t *w = malloc((size_t)(m * c * 9));
    fill_bytes(x, (size_t)c * 36), fill_bytes(w, (size_t)(m * c * 9));
    wnn_tdesc in[4] = {TD(U8, 1, c, 6, 6), TD(I8, m, c, 3, 3), TD_SCALAR(U8), TD_SCALAR(I8)};
    in[3].data = &wzp;
    void *data[4] = {x, w, &xzp, &wzp};
    want_qconv_method = WNN_QCONV_GEMM_IM2COL;
    CHECK(check_path("ConvInteger", NULL, 4, in, data, true, "17 MiB of transformed weights"));
    want_qconv_method = -1;
    free(x), free(w);
  }
}

/* The matmuls: int8 B with zero point 0 (absent or constant zeros), packed by
 * the importer (b_packed) or at run time, batch dims, K odd and 1, N not a
 * multiple of the tile; the fallbacks (uint8 B, a nonzero or non-constant B
 * zero point). */
TEST(qmatmul_gemm_paths) {
  static const int64_t SHAPES[][3] = {{3, 9, 6}, {1, 1, 1}, {5, 1, 17}, {33, 130, 70},
                                      {4, 8, 8}, {2, 7, 3}};
  for (size_t si = 0; si < sizeof SHAPES / sizeof SHAPES[0]; si++)
    for (int variant = 0; variant < 8; variant++) {
      const int64_t m = SHAPES[si][0], k = SHAPES[si][1], n = SHAPES[si][2], kp = (k + 1) / 2;
      const bool a_s8 = variant & 1, per = variant & 2, y_s8 = variant & 4;
      const bool batch = si % 2 == 0;
      /* per-column scales and zero points need a 2-D B: a batched B only
       * with per-tensor ones */
      const bool batch_b = batch && !per;
      const size_t an = (size_t)((batch ? 6 : 1) * m * k), bn = (size_t)((batch ? 3 : 1) * k * n);
      unsigned char *a = malloc(an), *b = malloc(bn), *bp = malloc((size_t)(kp * n * 2));
      unsigned char azp = a_s8 ? (unsigned char)(int8_t)-9 : 140, yzp = y_s8 ? 250 : 100;
      unsigned char bzp[200] = {0};
      float as = 0.02f, bs[200], ys = 0.37f;
      fill_bytes(a, an), fill_bytes(b, bn);
      for (int64_t j = 0; j < n; j++) bs[j] = 0.01f + 0.001f * (float)(j % 7);
      pack_b(b, (int)k, (int)n, bp);
      const wnn_dtype adt = a_s8 ? WNN_DTYPE_I8 : WNN_DTYPE_U8;
      const wnn_dtype ydt = y_s8 ? WNN_DTYPE_I8 : WNN_DTYPE_U8;
      char what[96];
      snprintf(what, sizeof what, "m=%lld k=%lld n=%lld variant %d%s", (long long)m, (long long)k,
               (long long)n, variant, batch ? " batched" : "");
      /* QLinearMatMul: B [3, k, n] against A [2, 3, m, k] (batched) or 2-D */
      wnn_tdesc in[8] = {batch ? TD(adt, 2, 3, m, k) : TD(adt, m, k), TD_SCALAR(WNN_DTYPE_F32),
                         TD_SCALAR(adt),
                         batch_b ? TD(WNN_DTYPE_I8, 3, k, n) : TD(WNN_DTYPE_I8, k, n),
                         per ? TD(WNN_DTYPE_F32, n) : TD_SCALAR(WNN_DTYPE_F32),
                         per ? TD(WNN_DTYPE_I8, n) : TD_SCALAR(WNN_DTYPE_I8),
                         TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(ydt)};
      in[5].data = bzp;
      void *data[8] = {a, &as, &azp, b, bs, bzp, &ys, &yzp};
      CHECK(check_path("QLinearMatMul", NULL, 8, in, data, true, what));
      /* B broadcast over A's batch */
      if (batch_b) {
        in[3] = TD(WNN_DTYPE_I8, k, n);
        CHECK(check_path("QLinearMatMul", NULL, 8, in, data, true, what));
      }
      /* b_packed (B 2-D, constant) */
      in[3] = TD(WNN_DTYPE_I8, kp, n, 2), in[3].data = bp, data[3] = bp;
      CHECK(check_path("QLinearMatMul", "{\"b_packed\":1}", 8, in, data, true, what));
      /* stored in column blocks (b_block): of 16 columns (the last one
       * narrower unless 16 divides n) and of 5 (less than a tile), on the GEMM
       * and on the plain loop (a nonzero zero point) */
      for (int bi = 0; bi < 2; bi++) {
        const int block = bi ? 5 : 16;
        char attrs[64];
        snprintf(attrs, sizeof attrs, "{\"b_packed\":1,\"b_block\":%d}", block);
        pack_b_blocked(b, (int)k, (int)n, block, bp);
        CHECK(check_path("QLinearMatMul", attrs, 8, in, data, true, what));
        bzp[0] = 1;
        CHECK(check_path("QLinearMatMul", attrs, 8, in, data, false, what));
        bzp[0] = 0;
      }
      pack_b(b, (int)k, (int)n, bp);
      /* fallbacks: a nonzero constant zero point, a zero point that is not a
       * constant, uint8 B */
      in[3] = TD(WNN_DTYPE_I8, k, n), data[3] = b;
      bzp[0] = 1;
      CHECK(check_path("QLinearMatMul", NULL, 8, in, data, false, what));
      bzp[0] = 0, in[5].data = NULL;
      CHECK(check_path("QLinearMatMul", NULL, 8, in, data, false, what));
      in[5].data = bzp, in[3].dtype = WNN_DTYPE_U8, in[5].dtype = WNN_DTYPE_U8;
      CHECK(check_path("QLinearMatMul", NULL, 8, in, data, false, what));
      /* MatMulInteger: without B's zero point, with constant zeros, batched */
      wnn_tdesc mi[4] = {in[0], batch_b ? TD(WNN_DTYPE_I8, 3, k, n) : TD(WNN_DTYPE_I8, k, n), in[2],
                         per ? TD(WNN_DTYPE_I8, n) : TD_SCALAR(WNN_DTYPE_I8)};
      mi[3].data = bzp;
      void *md[4] = {a, b, &azp, bzp};
      CHECK(check_path("MatMulInteger", NULL, 4, mi, md, true, what));
      CHECK(check_path("MatMulInteger", NULL, 3, mi, md, true, what));
      CHECK(check_path("MatMulInteger", NULL, 2, mi, md, true, what));
      mi[1].dtype = WNN_DTYPE_U8, mi[3].dtype = WNN_DTYPE_U8;
      CHECK(check_path("MatMulInteger", NULL, 4, mi, md, false, what));
      free(a), free(b), free(bp);
    }
}

TEST(dynamic_quantize_matmul_gemm_path) {
  static const int64_t SHAPES[][3] = {{5, 7, 6}, {1, 1, 1}, {32, 128, 40}, {3, 33, 17}};
  for (size_t si = 0; si < sizeof SHAPES / sizeof SHAPES[0]; si++)
    for (int variant = 0; variant < 8; variant++) {
      const int64_t m = SHAPES[si][0], k = SHAPES[si][1], n = SHAPES[si][2], kp = (k + 1) / 2;
      const bool per = variant & 1, packed = variant & 2, with_bias = variant & 4;
      const size_t an = (size_t)(2 * m * k);
      float *a = malloc(an * sizeof *a), bs[64], bias[64];
      int8_t *b = malloc((size_t)(k * n)), *bp = malloc((size_t)(kp * n * 2)), bzp = 0;
      for (size_t i = 0; i < an; i++) a[i] = 4.0f * lcg_float() + (si == 3 ? 3.0f : 0.0f);
      if (si == 2) a[5] = NAN, a[17] = -0.0f; /* NaN quantizes to 0, as DynamicQuantizeLinear */
      fill_bytes(b, (size_t)(k * n));
      pack_b((const unsigned char *)b, (int)k, (int)n, (unsigned char *)bp);
      for (int64_t j = 0; j < n; j++)
        bs[j] = 0.003f * (float)(j % 5 + 1), bias[j] = 0.125f * (float)(j % 9) - 0.5f;
      bias[0] = -0.0f;
      wnn_tdesc in[5] = {TD(WNN_DTYPE_F32, 2, m, k),
                         packed ? TD(WNN_DTYPE_I8, kp, n, 2) : TD(WNN_DTYPE_I8, k, n),
                         per ? TD(WNN_DTYPE_F32, n) : TD_SCALAR(WNN_DTYPE_F32),
                         TD_OMITTED, TD(WNN_DTYPE_F32, n)};
      if (packed) in[1].data = bp;
      void *data[5] = {a, packed ? (void *)bp : (void *)b, bs, &bzp, bias};
      char what[96];
      snprintf(what, sizeof what, "m=%lld k=%lld n=%lld variant %d", (long long)m, (long long)k,
               (long long)n, variant);
      /* packed whole, or (odd shapes) in column blocks of 16 columns */
      const bool blocked = packed && si % 2 == 0 && n > 16;
      if (blocked) pack_b_blocked((const unsigned char *)b, (int)k, (int)n, 16, (unsigned char *)bp);
      const char *attrs = blocked  ? "{\"b_packed\":1,\"b_block\":16}"
                          : packed ? "{\"b_packed\":1}"
                                   : NULL;
      CHECK(check_path("DynamicQuantizeMatMul", attrs, with_bias ? 5 : 3, in, data, true, what));
      /* a constant zero zero point: still the GEMM; a nonzero one: plain */
      in[3] = TD_SCALAR(WNN_DTYPE_I8), in[3].data = &bzp;
      CHECK(check_path("DynamicQuantizeMatMul", attrs, 4, in, data, true, what));
      bzp = 3;
      CHECK(check_path("DynamicQuantizeMatMul", attrs, 4, in, data, false, what));
      bzp = 0;
      free(a), free(b), free(bp);
    }
}

/* A B shared by every batch of A folds the batches into the rows of one GEMM
 * (A [7, 1, k] is one 7-row GEMM, not seven of one row); under a scratch cap
 * (an artifact planned before the fold) the op keeps the per-batch GEMM, or
 * the plain loop when not even that fits; every path gives the reference's
 * bytes. */
TEST(qmatmul_batches_fold_into_rows) {
  static const int64_t SHAPES[][4] = {{7, 1, 5, 9}, {3, 2, 33, 17}, {2, 5, 1, 1}, {1, 1, 8, 8}};
  for (size_t si = 0; si < sizeof SHAPES / sizeof SHAPES[0]; si++)
    for (int dyn = 0; dyn < 2; dyn++) {
      const int64_t bt = SHAPES[si][0], m = SHAPES[si][1], k = SHAPES[si][2], n = SHAPES[si][3];
      const size_t an = (size_t)(bt * m * k);
      float *af = malloc(an * sizeof *af), bs = 0.004f;
      unsigned char *a8 = malloc(an), *b = malloc((size_t)(k * n)), azp = 131;
      for (size_t i = 0; i < an; i++) af[i] = 3.0f * lcg_float();
      fill_bytes(a8, an), fill_bytes(b, (size_t)(k * n));
      const char *name = dyn ? "DynamicQuantizeMatMul" : "MatMulInteger";
      wnn_tdesc in[3] = {dyn ? TD(WNN_DTYPE_F32, bt, m, k) : TD(WNN_DTYPE_U8, bt, m, k),
                         TD(WNN_DTYPE_I8, k, n),
                         dyn ? TD_SCALAR(WNN_DTYPE_F32) : TD_SCALAR(WNN_DTYPE_U8)};
      void *data[3] = {dyn ? (void *)af : (void *)a8, b, dyn ? (void *)&bs : (void *)&azp};
      size_t full = 0, per_batch = 0;
      for (int step = 0; step < 4; step++) {
        /* 0: no cap (folds when bt > 1), 1: capped at that plan, 2: capped
         * just below it, 3: capped at 0 */
        const size_t cap = step == 1 ? full : step == 2 ? full - 1 : 0;
        op_case c;
        CHECK_OK(op_prepare_cap(&c, name, NULL, 3, in, 1, WNN_KERNELS_AUTO, step > 0, cap));
        const wnn_qmatmul_params *p = (const wnn_qmatmul_params *)c.params;
        if (step == 0) {
          full = c.scratch_bytes;
          CHECK(p->fast && p->fold == (bt > 1));
        }
        if (step == 1) CHECK(p->fast && p->fold == (bt > 1) && c.scratch_bytes == full);
        if (step == 2) {
          per_batch = c.scratch_bytes;
          CHECK(per_batch < full && (bt > 1 ? p->fast && !p->fold : !p->fast));
        }
        if (step == 3) CHECK(!p->fast && c.scratch_bytes == 0);
        void *got[1], *ref[1];
        CHECK_OK(op_exec(&c, c.op->run, data, got));
        CHECK_OK(op_exec(&c, c.op->reference, data, ref));
        CHECK(memcmp(got[0], ref[0], td_bytes(&c.outputs[0])) == 0);
        free(got[0]), free(ref[0]);
      }
      free(af), free(a8), free(b);
    }
}

/* A quantized net through the builder, the loader and the executor: a 1x1
 * QLinearConv (per-channel scales, bias), a 3x3 padded QLinearConv with a
 * fused Relu and a DynamicQuantizeMatMul. With constant zero weight zero
 * points every node takes its int8 GEMM path (scratch planned by the
 * builder); with the zero points as graph inputs (fed zeros) every node runs
 * its plain loop. Both give the same bytes, and runs allocate nothing. */
static void *build_qnet(bool zp_inputs, size_t *size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  int8_t w1[12 * 8], w2[6 * 12 * 9], bm[16 * 10], zeros[12] = {0};
  float w1s[12], w2s = 0.011f, bs[10], bias[10], xs = 0.03f, y1s = 0.05f, y2s = 0.07f;
  int32_t b1[12], b2[6];
  uint8_t xzp = 120, y1zp = 110, y2zp = 100;
  uint32_t st = 99;
  for (size_t i = 0; i < sizeof w1; i++) w1[i] = (int8_t)((st = st * 1664525u + 1013904223u) >> 24);
  for (size_t i = 0; i < sizeof w2; i++) w2[i] = (int8_t)((st = st * 1664525u + 1013904223u) >> 24);
  for (size_t i = 0; i < sizeof bm; i++) bm[i] = (int8_t)((st = st * 1664525u + 1013904223u) >> 24);
  for (int i = 0; i < 12; i++) w1s[i] = 0.004f + 0.0005f * (float)i, b1[i] = 37 * i - 200;
  for (int i = 0; i < 6; i++) b2[i] = 500 - 90 * i;
  for (int i = 0; i < 10; i++) bs[i] = 0.002f * (float)(i + 1), bias[i] = 0.1f * (float)i - 0.3f;
  const int64_t xsh[] = {1, 8, 6, 6}, w1sh[] = {12, 8, 1, 1}, c12[] = {12}, w2sh[] = {6, 12, 3, 3};
  const int64_t c6[] = {6}, ash[] = {4, 16}, bsh[] = {16, 10}, c10[] = {10};
  int x, a, X_S, X_ZP, W1, W1_S, W1_ZP, Y1_S, Y1_ZP, B1, W2, W2_S, W2_ZP, Y2_S, Y2_ZP, B2;
  int BM, BM_S, BM_ZP, BIAS, h, out1, out2;
  int ok = !wnn_builder_add_input(b, "x", WNN_DTYPE_U8, 4, xsh, &x) &&
           !wnn_builder_add_input(b, "a", WNN_DTYPE_F32, 2, ash, &a);
  if (zp_inputs)
    ok = ok && !wnn_builder_add_input(b, "w1_zp", WNN_DTYPE_I8, 1, c12, &W1_ZP) &&
         !wnn_builder_add_input(b, "w2_zp", WNN_DTYPE_I8, 0, NULL, &W2_ZP) &&
         !wnn_builder_add_input(b, "b_zp", WNN_DTYPE_I8, 0, NULL, &BM_ZP);
  else
    ok = ok && !wnn_builder_add_param(b, "w1_zp", WNN_DTYPE_I8, 1, c12, zeros, &W1_ZP) &&
         !wnn_builder_add_param(b, "w2_zp", WNN_DTYPE_I8, 0, NULL, zeros, &W2_ZP) &&
         !wnn_builder_add_param(b, "b_zp", WNN_DTYPE_I8, 0, NULL, zeros, &BM_ZP);
  ok = ok && !wnn_builder_add_param(b, "x_s", WNN_DTYPE_F32, 0, NULL, &xs, &X_S) &&
       !wnn_builder_add_param(b, "x_zp", WNN_DTYPE_U8, 0, NULL, &xzp, &X_ZP) &&
       !wnn_builder_add_param(b, "w1", WNN_DTYPE_I8, 4, w1sh, w1, &W1) &&
       !wnn_builder_add_param(b, "w1_s", WNN_DTYPE_F32, 1, c12, w1s, &W1_S) &&
       !wnn_builder_add_param(b, "y1_s", WNN_DTYPE_F32, 0, NULL, &y1s, &Y1_S) &&
       !wnn_builder_add_param(b, "y1_zp", WNN_DTYPE_U8, 0, NULL, &y1zp, &Y1_ZP) &&
       !wnn_builder_add_param(b, "b1", WNN_DTYPE_I32, 1, c12, b1, &B1) &&
       !wnn_builder_add_param(b, "w2", WNN_DTYPE_I8, 4, w2sh, w2, &W2) &&
       !wnn_builder_add_param(b, "w2_s", WNN_DTYPE_F32, 0, NULL, &w2s, &W2_S) &&
       !wnn_builder_add_param(b, "y2_s", WNN_DTYPE_F32, 0, NULL, &y2s, &Y2_S) &&
       !wnn_builder_add_param(b, "y2_zp", WNN_DTYPE_U8, 0, NULL, &y2zp, &Y2_ZP) &&
       !wnn_builder_add_param(b, "b2", WNN_DTYPE_I32, 1, c6, b2, &B2) &&
       !wnn_builder_add_param(b, "bm", WNN_DTYPE_I8, 2, bsh, bm, &BM) &&
       !wnn_builder_add_param(b, "bm_s", WNN_DTYPE_F32, 1, c10, bs, &BM_S) &&
       !wnn_builder_add_param(b, "bias", WNN_DTYPE_F32, 1, c10, bias, &BIAS) &&
       !wnn_builder_add_node(b, "QLinearConv", "pw",
                             (int[]){x, X_S, X_ZP, W1, W1_S, W1_ZP, Y1_S, Y1_ZP, B1}, 9, NULL, 1,
                             &h) &&
       !wnn_builder_add_node(b, "QLinearConv", "conv3x3",
                             (int[]){h, Y1_S, Y1_ZP, W2, W2_S, W2_ZP, Y2_S, Y2_ZP, B2}, 9,
                             "{\"pads\":[1,1,1,1],\"activation\":\"Relu\"}", 1, &out1) &&
       !wnn_builder_add_node(b, "DynamicQuantizeMatMul", "fc", (int[]){a, BM, BM_S, BM_ZP, BIAS},
                             5, NULL, 1, &out2) &&
       !wnn_builder_add_output(b, out1, "conv") && !wnn_builder_add_output(b, out2, "fc");
  void *data = NULL;
  if (!ok || wnn_builder_finish(b, &data, size)) {
    printf("  build_qnet: %s\n", wnn_last_error());
    data = NULL;
  }
  wnn_builder_free(b);
  return data;
}

TEST(quantized_net_runs_without_allocating) {
  uint8_t x[8 * 36];
  float a[64];
  int8_t zeros[12] = {0};
  int64_t xsh[] = {1, 8, 6, 6}, ash[] = {4, 16}, c12[] = {12};
  uint8_t conv[2][6 * 36];
  float fc[2][40];
  size_t arena[2] = {0, 0};
  for (int variant = 0; variant < 2; variant++) {
    counter c = {0, 0, -1};
    wnn_allocator al = {count_alloc, count_free, &c};
    size_t size;
    void *data = build_qnet(variant == 1, &size);
    CHECK(data != NULL);
    if (!data) return;
    wnn_load_options opt = {WNN_LOAD_BORROW, WNN_KERNELS_AUTO, &al};
    wnn_model *m = NULL;
    wnn_executor *ex = NULL;
    CHECK_OK(wnn_model_load(data, size, &opt, &m));
    CHECK_OK(wnn_executor_create(m, &ex));
    if (m) arena[variant] = wnn_model_arena_bytes(m);
    const long before = c.calls;
    for (int run = 0; run < 20 && ex; run++) {
      uint32_t st = 5u + (uint32_t)run;
      for (size_t i = 0; i < sizeof x; i++) x[i] = (uint8_t)((st = st * 1664525u + 1013904223u) >> 24);
      for (size_t i = 0; i < 64; i++) a[i] = (float)((st = st * 1664525u + 1013904223u) >> 8) / 4e6f - 2.0f;
      DLTensor tx = dl_tensor(x, WNN_DTYPE_U8, 4, xsh), ta = dl_tensor(a, WNN_DTYPE_F32, 2, ash);
      CHECK_OK(wnn_executor_set_input(ex, 0, &tx));
      CHECK_OK(wnn_executor_set_input(ex, 1, &ta));
      if (variant == 1) {
        DLTensor z1 = dl_tensor(zeros, WNN_DTYPE_I8, 1, c12), z0 = dl_tensor(zeros, WNN_DTYPE_I8, 0, NULL);
        CHECK_OK(wnn_executor_set_input(ex, 2, &z1));
        CHECK_OK(wnn_executor_set_input(ex, 3, &z0));
        CHECK_OK(wnn_executor_set_input(ex, 4, &z0));
      }
      CHECK_OK(wnn_executor_run(ex));
      CHECK_OK(wnn_executor_copy_output(ex, 0, conv[variant], sizeof conv[variant]));
      CHECK_OK(wnn_executor_copy_output(ex, 1, fc[variant], sizeof fc[variant]));
      /* both variants see the same inputs run by run; the last run's
       * outputs are compared below */
    }
    CHECK(c.calls == before);
    if (c.calls != before) printf("  %ld allocations in 20 runs\n", c.calls - before);
    wnn_executor_destroy(ex);
    wnn_model_free(m);
    CHECK(c.live == 0);
    free(data);
  }
  /* the GEMM paths' scratch is planned in the arena; the plain loops have
   * none (the zero-point inputs add 14 bytes) */
  CHECK(arena[0] > arena[1]);
  CHECK(memcmp(conv[0], conv[1], sizeof conv[0]) == 0);
  CHECK(memcmp(fc[0], fc[1], sizeof fc[0]) == 0);
  /* and the outputs are not trivial: the Relu clamp leaves values above the
   * zero point, and the matmul's outputs differ */
  int above = 0;
  for (size_t i = 0; i < sizeof conv[0]; i++) above += conv[0][i] > 100;
  CHECK(above > 10);
  CHECK(fc[0][0] != fc[0][1]);
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
  RUN(qlinearmatmul_packed_per_column);
  RUN(dynamic_quantize_matmul);
  RUN(qlinearconv_activation);
  RUN(quantize_kernels);
  RUN(dynamic_quantize_kernels);
  RUN(qlinearconv_depthwise);
  RUN(qconv_gemm_paths);
  RUN(qconv_winograd_path);
  RUN(qmatmul_gemm_paths);
  RUN(dynamic_quantize_matmul_gemm_path);
  RUN(qmatmul_batches_fold_into_rows);
  RUN(quantized_net_runs_without_allocating);
  return test_summary();
}
