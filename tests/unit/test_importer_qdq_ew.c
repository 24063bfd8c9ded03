/* The importer's element-wise quantized rewrites (src/importer/pass_qdq.c,
 * docs/quantization.md): small QDQ models, converted with the rewrites and
 * without them (wnn_import_options.no_quant_rewrites), the node lists
 * checked, and both artifacts run on the same random inputs with the scalar
 * kernels (the ones the importer evaluates with): the outputs agree bitwise.
 * Every condition that keeps a pattern float has a case whose graph is then
 * the same as without the rewrites. */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "ops/op.h"
#include "runtime/format.h"
#include "test_importer_util.h"

enum { FLOAT = 1, UINT8 = 2, INT8 = 3 };

static unsigned rng = 7;
static float uniform(float lo, float hi) {
  rng = rng * 1664525u + 1013904223u;
  return lo + (hi - lo) * (float)((rng >> 8) & 0xffff) / 65536.0f;
}

static void scalar_init(tm_model *m, const char *name, int type, const void *data) {
  tm_initializer(m, name, type, 0, NULL, data);
}

static bool convert(tm_model *m, bool rewrites, wnn_import_result *res) {
  return tm_convert_rewrites(m, rewrites, res);
}

/* "Op,Op,..." of the artifact's nodes in order. */
static void ops_of(const wnn_import_result *res, char *buf, size_t cap) {
  buf[0] = '\0';
  wnn_container c;
  if (wnn_container_read(res->artifact, res->size, 1, &c) != WNN_OK) return;
  cJSON *graph = cJSON_ParseWithLength((const char *)c.graph.data, c.graph.size);
  const cJSON *n;
  cJSON_ArrayForEach(n, cJSON_GetObjectItem(graph, "nodes")) {
    const wnn_op *op = wnn_op_by_code((int)cJSON_GetObjectItem(n, "op")->valuedouble);
    size_t used = strlen(buf);
    snprintf(buf + used, cap - used, "%s%s", used ? "," : "", op ? op->name : "?");
  }
  cJSON_Delete(graph);
}

/* Runs an artifact with the scalar kernels on float inputs; output 0 (n
 * floats) into y. */
static wnn_status run_scalar(const wnn_import_result *r, int nin, const float *const *xs, float *y,
                             size_t n) {
  const size_t bytes = n * sizeof(float);
  void *ys[1] = {y};
  const wnn_status st = tm_run_all_k(r->artifact, r->size, WNN_KERNELS_SCALAR, nin,
                                     (const void *const *)xs, 0, 1, ys, &bytes);
  if (st) printf("  %s: run: %s\n", test_current_, wnn_last_error());
  return st;
}

/* Converts m both ways; checks the rewritten node list (want; NULL: the same
 * artifact as without the rewrites) and the rewrite count, and that both
 * give the same bits on random inputs (nin float inputs of n_in elements in
 * [-4, 4), one output of n_out). */
static void check_model_n(tm_model *m, const char *want, int rewrites, int nin,
                          const size_t *n_ins, size_t n_out) {
  wnn_import_result with, without;
  memset(&with, 0, sizeof with);
  memset(&without, 0, sizeof without);
  if (!convert(m, true, &with) || !convert(m, false, &without)) {
    CHECK(0);
    goto done;
  }
  char got[1024];
  ops_of(&with, got, sizeof got);
  if (want) {
    if (strcmp(got, want)) printf("  %s: nodes %s, expected %s\n", test_current_, got, want);
    CHECK(!strcmp(got, want));
  } else {
    CHECK(with.size == without.size && !memcmp(with.artifact, without.artifact, with.size));
  }
  if (with.num_quant_rewrites != rewrites)
    printf("  %s: %d rewrites, expected %d\n", test_current_, with.num_quant_rewrites, rewrites);
  CHECK(with.num_quant_rewrites == rewrites);
  float *xs[4], *ya = calloc(n_out, sizeof(float)), *yb = calloc(n_out, sizeof(float));
  for (int i = 0; i < nin; i++) {
    xs[i] = malloc(n_ins[i] * sizeof(float));
    for (size_t k = 0; k < n_ins[i]; k++) xs[i][k] = uniform(-4.0f, 4.0f);
  }
  CHECK_OK(run_scalar(&with, nin, (const float *const *)xs, ya, n_out));
  CHECK_OK(run_scalar(&without, nin, (const float *const *)xs, yb, n_out));
  int differ = 0;
  for (size_t k = 0; k < n_out; k++) differ += memcmp(&ya[k], &yb[k], sizeof(float)) != 0;
  if (differ) printf("  %s: %d of %zu outputs differ\n", test_current_, differ, n_out);
  CHECK(differ == 0);
  for (int i = 0; i < nin; i++) free(xs[i]);
  free(ya);
  free(yb);
done:
  free(with.artifact);
  free(without.artifact);
}

static void check_model(tm_model *m, const char *want, int rewrites, int nin, size_t n_in,
                        size_t n_out) {
  const size_t n[4] = {n_in, n_in, n_in, n_in};
  check_model_n(m, want, rewrites, nin, n, n_out);
}

/* Graph input `name` [1, 3, 5, 7] quantized (scale s, zero point zp of
 * dtype type) and dequantized: "<name>f" is DQ(Q(name)). */
static const int64_t XD[4] = {1, 3, 5, 7};
enum { XN = 105 };

static void q_input_d(tm_model *m, const char *name, const int64_t *dims, int type, float s,
                      int zp) {
  char b[32], c[32], d[128];
  tm_input(m, name, FLOAT, 4, dims);
  snprintf(b, sizeof b, "%s_s", name);
  snprintf(c, sizeof c, "%s_zp", name);
  const uint8_t z = (uint8_t)zp;
  scalar_init(m, b, FLOAT, &s);
  scalar_init(m, c, type, &z);
  snprintf(d, sizeof d, "%s,%s,%s", name, b, c);
  char q[32], f[32];
  snprintf(q, sizeof q, "%sq", name);
  tm_node(m, "QuantizeLinear", q, d, q);
  snprintf(d, sizeof d, "%sq,%s,%s", name, b, c);
  snprintf(f, sizeof f, "%sf", name);
  tm_node(m, "DequantizeLinear", f, d, f);
}

static void q_input(tm_model *m, const char *name, int type, float s, int zp) {
  q_input_d(m, name, XD, type, s, zp);
}

/* v -> Q(s, zp) -> DQ: "<v>_q", "<v>_dq"; zp < -128: no zero point. */
static void qdq(tm_model *m, const char *v, int type, float s, int zp) {
  char b[40], c[40], d[200], q[40], f[40];
  snprintf(b, sizeof b, "%s_s", v);
  snprintf(c, sizeof c, "%s_zp", v);
  snprintf(q, sizeof q, "%s_q", v);
  snprintf(f, sizeof f, "%s_dq", v);
  scalar_init(m, b, FLOAT, &s);
  if (zp >= -128) {
    const uint8_t z = (uint8_t)zp;
    scalar_init(m, c, type, &z);
    snprintf(d, sizeof d, "%s,%s,%s", v, b, c);
  } else {
    snprintf(d, sizeof d, "%s,%s", v, b);
  }
  tm_node(m, "QuantizeLinear", q, d, q);
  snprintf(d, sizeof d, "%s,%s%s%s", q, b, zp >= -128 ? "," : "", zp >= -128 ? c : "");
  tm_node(m, "DequantizeLinear", f, d, f);
}

/* ------------------------------------------------------- QLookup chains */

/* SiLU as the quantizers write it: DQ(x) read by Sigmoid and Mul, an inner
 * Q -> DQ pair after the Sigmoid. */
TEST(lut_silu) {
  for (int t = 0; t < 2; t++) {
    tm_model m;
    tm_init(&m, 17);
    const int type = t ? INT8 : UINT8;
    q_input(&m, "x", type, 8.0f / 255.0f, t ? -10 : 118);
    tm_node(&m, "Sigmoid", "sig", "xf", "s");
    qdq(&m, "s", UINT8, 1.0f / 255.0f, 0);
    tm_node(&m, "Mul", "mul", "xf,s_dq", "y");
    qdq(&m, "y", type, 4.5f / 255.0f, t ? -30 : 20);
    tm_output(&m, "y_dq");
    check_model(&m, "QuantizeLinear,QLookup,DequantizeLinear", 1, 1, XN, XN);
    tm_free(&m);
  }
}

/* Clip (constant bounds), Mul by a scalar constant, HardSwish, Add of a
 * [1, 1] constant, Tanh; y without zero point; the graph input x's DQ also
 * read by another node (it stays). */
TEST(lut_chain) {
  tm_model m;
  tm_init(&m, 17);
  q_input(&m, "x", UINT8, 8.0f / 255.0f, 128);
  const float lo = -1.5f, hi = 2.25f, k = 1.75f, c11 = 0.125f;
  const int64_t d11[2] = {1, 1};
  scalar_init(&m, "lo", FLOAT, &lo);
  scalar_init(&m, "hi", FLOAT, &hi);
  scalar_init(&m, "k", FLOAT, &k);
  tm_initializer(&m, "c11", FLOAT, 2, d11, &c11);
  tm_node(&m, "Clip", "clip", "xf,lo,hi", "a");
  tm_node(&m, "Mul", "mul", "a,k", "b");
  tm_node(&m, "HardSwish", "hs", "b", "c");
  tm_node(&m, "Add", "add", "c,c11", "d");
  tm_node(&m, "Tanh", "tanh", "d", "e");
  qdq(&m, "e", UINT8, 2.0f / 255.0f, -200);
  tm_node(&m, "Relu", "relu", "xf", "r");
  tm_node(&m, "Add", "sum", "e_dq,r", "y");
  tm_output(&m, "y");
  check_model(&m, "QuantizeLinear,DequantizeLinear,QLookup,DequantizeLinear,Relu,Add", 1, 1, XN,
              XN);
  tm_free(&m);
}

/* Relu, then a requantization (DQ -> Q to another scale): one lookup. */
TEST(lut_short) {
  tm_model m;
  tm_init(&m, 17);
  q_input(&m, "x", INT8, 8.0f / 255.0f, 5);
  tm_node(&m, "Relu", "relu", "xf", "r");
  qdq(&m, "r", UINT8, 3.0f / 255.0f, 0);
  qdq(&m, "r_dq", INT8, 5.0f / 255.0f, -7);
  tm_output(&m, "r_dq_dq");
  check_model(&m, "QuantizeLinear,QLookup,DequantizeLinear", 1, 1, XN, XN);
  tm_free(&m);
}

/* What keeps a chain float. */
TEST(lut_stays_float) {
  for (int v = 0; v < 6; v++) {
    tm_model m;
    tm_init(&m, 17);
    q_input(&m, "x", UINT8, 8.0f / 255.0f, 128);
    const float c7[7] = {1, 2, 3, 4, 5, 6, 7};
    const int64_t d7 = 7;
    tm_initializer(&m, "c7", FLOAT, 1, &d7, c7);
    switch (v) {
      case 0: /* an inside value also a graph output */
        tm_node(&m, "Sigmoid", "sig", "xf", "s");
        tm_node(&m, "Mul", "mul", "xf,s", "y");
        break;
      case 1: /* a constant of more than one element */
        tm_node(&m, "Sigmoid", "sig", "xf", "s");
        tm_node(&m, "Mul", "mul", "c7,s", "y");
        break;
      case 2: /* two quantized inputs, subtracted (no QLinearSub) */
        q_input(&m, "z", UINT8, 8.0f / 255.0f, 128);
        tm_node(&m, "Sub", "sub", "xf,zf", "y");
        break;
      case 3: /* not element-wise */
        tm_node(&m, "Softmax", "sm", "xf", "y");
        break;
      case 4: { /* x dequantized per channel */
        const float s3[3] = {0.1f, 0.2f, 0.3f};
        const uint8_t z3[3] = {1, 2, 3};
        const int64_t d3 = 3;
        tm_initializer(&m, "s3", FLOAT, 1, &d3, s3);
        tm_initializer(&m, "z3", UINT8, 1, &d3, z3);
        tm_node(&m, "DequantizeLinear", "dq3", "xq,s3,z3", "x3");
        tm_node(&m, "Sigmoid", "sig", "x3", "y");
        break;
      }
      case 5: /* the inner Q read twice: not an inner pair but the root of a
               * second lookup */
        tm_node(&m, "Sigmoid", "sig", "xf", "t");
        qdq(&m, "t", UINT8, 1.0f / 255.0f, 0);
        tm_node(&m, "DequantizeLinear", "dq2", "t_q,t_s,t_zp", "t2");
        tm_node(&m, "Add", "add", "t_dq,t2", "y");
        break;
    }
    qdq(&m, "y", UINT8, 4.0f / 255.0f, 10);
    tm_output(&m, "y_dq");
    if (v == 0) tm_output(&m, "s");
    check_model(&m, v == 5 ? "QuantizeLinear,QLookup,QLookup,DequantizeLinear" : NULL,
                v == 5 ? 2 : 0, v == 2 ? 2 : 1, XN, XN);
    tm_free(&m);
  }
}

/* ----------------------------------------------- QLinearAdd, QLinearMul */

/* Add and Mul of two quantized inputs: same shapes, per-channel broadcast
 * (the squeeze-excitation Mul) either way round, Relu after the Add (the
 * residual of resnet), int8 and uint8, a Q without zero point. */
TEST(qbinary_rewrites) {
  static const int64_t CD[4] = {1, 3, 1, 1};
  for (int v = 0; v < 6; v++) {
    tm_model m;
    tm_init(&m, 17);
    const bool bc = v == 2 || v == 3, relu = v == 4 || v == 5;
    const int type = v & 1 ? INT8 : UINT8;
    q_input(&m, "x", type, 7.0f / 255.0f, v & 1 ? 3 : 125);
    q_input_d(&m, "z", bc ? CD : XD, v == 5 ? UINT8 : type, 5.0f / 255.0f, v & 1 ? -9 : 110);
    const char *op = v == 1 || bc ? "Mul" : "Add";
    tm_node(&m, op, "bin", v == 3 ? "zf,xf" : "xf,zf", relu ? "t" : "y");
    if (relu) tm_node(&m, "Relu", "relu", "t", "y");
    qdq(&m, "y", v == 4 ? INT8 : type, (op[0] == 'M' ? 9.0f : 11.0f) / 255.0f, v == 3 ? -200 : 12);
    tm_output(&m, "y_dq");
    char want[128];
    snprintf(want, sizeof want, "QuantizeLinear,QuantizeLinear,QLinear%s,DequantizeLinear", op);
    const size_t n[2] = {XN, bc ? 3 : XN};
    check_model_n(&m, want, 1, 2, n, XN);
    tm_free(&m);
  }
}

/* What keeps an Add float: its output read twice, a float operand, a
 * per-channel DequantizeLinear, an attribute on the Relu's place (LeakyRelu
 * between Add and Q). */
TEST(qbinary_stays_float) {
  for (int v = 0; v < 4; v++) {
    tm_model m;
    tm_init(&m, 17);
    q_input(&m, "x", UINT8, 7.0f / 255.0f, 125);
    q_input(&m, "z", UINT8, 5.0f / 255.0f, 110);
    switch (v) {
      case 0:
        tm_node(&m, "Add", "add", "xf,zf", "y");
        break;
      case 1:
        tm_input(&m, "w", FLOAT, 4, XD);
        tm_node(&m, "Add", "add", "xf,w", "y");
        break;
      case 2: {
        const float s3[3] = {0.1f, 0.2f, 0.3f};
        const int64_t d3 = 3;
        tm_initializer(&m, "s3", FLOAT, 1, &d3, s3);
        tm_node(&m, "DequantizeLinear", "dq3", "zq,s3", "z3");
        tm_node(&m, "Add", "add", "xf,z3", "y");
        break;
      }
      case 3:
        tm_node(&m, "Add", "add", "xf,zf", "t");
        tm_node(&m, "LeakyRelu", "lr", "t", "y");
        break;
    }
    qdq(&m, "y", UINT8, 11.0f / 255.0f, 12);
    tm_output(&m, "y_dq");
    if (v == 0) tm_output(&m, "y");
    check_model(&m, NULL, 0, v == 1 ? 3 : 2, XN, XN);
    tm_free(&m);
  }
}

/* ------------------------------------------ QLinearGlobalAveragePool */

TEST(qgap_rewrites) {
  for (int v = 0; v < 3; v++) {
    tm_model m;
    tm_init(&m, 17);
    q_input(&m, "x", v == 1 ? INT8 : UINT8, 7.0f / 255.0f, v == 1 ? -4 : 125);
    tm_node(&m, "GlobalAveragePool", "gap", "xf", "y");
    qdq(&m, "y", v == 1 ? INT8 : UINT8, 3.0f / 255.0f, v == 2 ? -200 : 12);
    tm_output(&m, "y_dq");
    check_model(&m, "QuantizeLinear,QLinearGlobalAveragePool,DequantizeLinear", 1, 1, XN, 3);
    tm_free(&m);
  }
  /* Stays float: the average also a graph output. */
  tm_model m;
  tm_init(&m, 17);
  q_input(&m, "x", UINT8, 7.0f / 255.0f, 125);
  tm_node(&m, "GlobalAveragePool", "gap", "xf", "y");
  qdq(&m, "y", UINT8, 3.0f / 255.0f, 12);
  tm_output(&m, "y_dq");
  tm_output(&m, "y");
  check_model(&m, NULL, 0, 1, XN, 3);
  tm_free(&m);
}

/* ----------------------------------------- MaxPool, Concat on bytes */

/* MaxPool with the output quantized like its input (on the bytes; uint8 and
 * int8, with padding); Concat of two inputs,
 * one quantized like the output, one not (requantized by a QLookup), and a
 * third case with both like the output. */
TEST(qmove_rewrites) {
  for (int v = 0; v < 4; v++) {
    tm_model m;
    tm_init(&m, 17);
    const int type = v == 1 ? INT8 : UINT8;
    q_input(&m, "x", type, 7.0f / 255.0f, v == 1 ? -4 : 125);
    size_t n_out = XN;
    const char *want;
    if (v < 2) {
      Onnx__NodeProto *mp = tm_node(&m, "MaxPool", "mp", "xf", "y");
      const int64_t k[2] = {2, 3}, pads[4] = {1, 0, 0, 1};
      tm_attr_ints(&m, mp, "kernel_shape", 2, k);
      tm_attr_ints(&m, mp, "pads", 4, pads);
      qdq(&m, "y", type, 7.0f / 255.0f, v == 1 ? -4 : 125);
      n_out = 1 * 3 * 5 * 6;
      want = "QuantizeLinear,MaxPool,DequantizeLinear";
    } else {
      q_input(&m, "z", type, v == 2 ? 5.0f / 255.0f : 7.0f / 255.0f, v == 2 ? 100 : 125);
      Onnx__NodeProto *c = tm_node(&m, "Concat", "cat", "xf,zf", "y");
      tm_attr_int(&m, c, "axis", 1);
      qdq(&m, "y", type, 7.0f / 255.0f, 125);
      n_out = 2 * XN;
      want = v == 2 ? "QuantizeLinear,QuantizeLinear,QLookup,Concat,DequantizeLinear"
                    : "QuantizeLinear,QuantizeLinear,Concat,DequantizeLinear";
    }
    tm_output(&m, "y_dq");
    const size_t n[2] = {XN, XN};
    check_model_n(&m, want, 1, v < 2 ? 1 : 2, n, n_out);
    tm_free(&m);
  }
}

/* Stays float: MaxPool with another output scale, MaxPool whose input is
 * also a graph output, MaxPool with Indices; a requantized Concat input whose
 * DequantizeLinear is read elsewhere too. */
TEST(qmove_stays_float) {
  for (int v = 0; v < 4; v++) {
    tm_model m;
    tm_init(&m, 17);
    q_input(&m, "x", UINT8, 7.0f / 255.0f, 125);
    if (v == 0) {
      Onnx__NodeProto *mp = tm_node(&m, "MaxPool", "mp", "xf", "y");
      const int64_t k[2] = {2, 2};
      tm_attr_ints(&m, mp, "kernel_shape", 2, k);
      qdq(&m, "y", UINT8, 6.0f / 255.0f, 125);
      tm_output(&m, "y_dq");
      check_model(&m, NULL, 0, 1, XN, 3 * 4 * 6);
    } else if (v == 1 || v == 2) { /* y also a graph output; Indices */
      Onnx__NodeProto *mp = tm_node(&m, "MaxPool", "mp", "xf", v == 1 ? "y" : "y,idx");
      const int64_t k[2] = {2, 2};
      tm_attr_ints(&m, mp, "kernel_shape", 2, k);
      qdq(&m, "y", UINT8, 7.0f / 255.0f, 125);
      tm_output(&m, "y_dq");
      tm_output(&m, v == 1 ? "y" : "idx");
      check_model(&m, NULL, 0, 1, XN, 3 * 4 * 6);
    } else {
      q_input(&m, "z", UINT8, 5.0f / 255.0f, 100);
      Onnx__NodeProto *c = tm_node(&m, "Concat", "cat", "xf,zf", "y");
      tm_attr_int(&m, c, "axis", 1);
      qdq(&m, "y", UINT8, 7.0f / 255.0f, 125);
      tm_output(&m, "y_dq");
      tm_output(&m, "zf");
      check_model(&m, NULL, 0, 2, XN, 2 * XN);
    }
    tm_free(&m);
  }
}

/* --------------------------------------- com.microsoft QOperator nodes */

static Onnx__NodeProto *ms_node(tm_model *m, const char *op, const char *name, const char *in,
                                const char *out) {
  Onnx__NodeProto *n = tm_node(m, op, name, in, out);
  n->domain = tm_str(m, "com.microsoft");
  return n;
}

/* QLinearSigmoid, QLinearLeakyRelu (a QLookup each), QLinearConcat (a
 * QLookup requantization of each input, both quantized unlike the output,
 * and a Concat), QLinearAdd, QLinearMul and
 * QLinearGlobalAveragePool (the runtime's ops as they are). */
TEST(qoperator_nodes) {
  tm_model m;
  tm_init(&m, 17);
  Onnx__OperatorSetIdProto oi = ONNX__OPERATOR_SET_ID_PROTO__INIT;
  m.opset[1] = oi;
  m.opset[1].domain = tm_str(&m, "com.microsoft");
  m.opset[1].has_version = 1;
  m.opset[1].version = 1;
  m.opsets[1] = &m.opset[1];
  m.model.n_opset_import = 2;
  q_input(&m, "x", UINT8, 8.0f / 255.0f, 128);
  const float s1 = 1.0f / 255.0f, s2 = 6.0f / 255.0f, s3 = 9.0f / 255.0f;
  const uint8_t z0 = 0, z1 = 100;
  scalar_init(&m, "s1", FLOAT, &s1);
  scalar_init(&m, "s2", FLOAT, &s2);
  scalar_init(&m, "s3", FLOAT, &s3);
  scalar_init(&m, "z0", UINT8, &z0);
  scalar_init(&m, "z1", UINT8, &z1);
  ms_node(&m, "QLinearSigmoid", "qs", "xq,x_s,x_zp,s1,z0", "a");
  Onnx__NodeProto *lr = ms_node(&m, "QLinearLeakyRelu", "ql", "xq,x_s,x_zp,s2", "b");
  tm_attr_float(&m, lr, "alpha", 0.2f);
  Onnx__NodeProto *cat = ms_node(&m, "QLinearConcat", "qc", "s2,z1,a,s1,z0,b,s2,", "c");
  tm_attr_int(&m, cat, "axis", 1);
  ms_node(&m, "QLinearAdd", "qa", "c,s2,z1,c,s2,z1,s3,z1", "d");
  ms_node(&m, "QLinearMul", "qm", "d,s3,z1,c,s2,,s3,z1", "e");
  ms_node(&m, "QLinearGlobalAveragePool", "qg", "e,s3,z1,s1,z0", "f");
  tm_node(&m, "DequantizeLinear", "out", "f,s1,z0", "y");
  tm_output(&m, "y");
  check_model(&m,
              "QuantizeLinear,QLookup,QLookup,QLookup,QLookup,Concat,QLinearAdd,QLinearMul,"
              "QLinearGlobalAveragePool,DequantizeLinear",
              3, 1, XN, 6);
  tm_free(&m);
}

int main(void) {
  /* (Helpers of test_importer_util.h this file does not use.) */
  (void)tm_run, (void)tm_convert;
  RUN(lut_silu);
  RUN(lut_chain);
  RUN(lut_short);
  RUN(lut_stays_float);
  RUN(qbinary_rewrites);
  RUN(qbinary_stays_float);
  RUN(qgap_rewrites);
  RUN(qmove_rewrites);
  RUN(qmove_stays_float);
  RUN(qoperator_nodes);
  return test_summary();
}
