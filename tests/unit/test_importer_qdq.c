/* The importer's quantized rewrites (src/importer/pass_qdq.c,
 * docs/quantization.md): small ONNX models in the forms onnxruntime's
 * quantizers write (static QDQ: QuantizeLinear / DequantizeLinear around a
 * float Conv, MatMul or Gemm; dynamic: DynamicQuantizeLinear, MatMulInteger,
 * Cast, Mul, Add; QOperator: QLinearMatMul), converted with the rewrites and
 * without them (wnn_import_options.no_quant_rewrites), the node lists and
 * attributes checked, the packed weights checked byte by byte, and both
 * artifacts run on the same random inputs:
 *   - QDQ rewrites agree with the float graph within one step of the output
 *     scale on every element (the integer op rounds once where the float
 *     graph rounds each product);
 *   - the dynamic rewrite and the QOperator packing agree bitwise.
 * Every condition that keeps a pattern float has a case: the graph is then
 * the same as without the rewrites and computes the same bits. */
#include <cjson/cJSON.h>
#include <float.h>
#include <stdio.h>

#include "ops/op.h"
#include "ops/op_internal.h"
#include "runtime/format.h"
#include "test_importer_util.h"

enum { FLOAT = 1, UINT8 = 2, INT8 = 3, INT32 = 6 };

static unsigned rng = 1;
static unsigned next_u(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
/* Uniform in [lo, hi). */
static float uniform(float lo, float hi) {
  return lo + (hi - lo) * (float)(next_u() & 0xffff) / 65536.0f;
}
static int irand(int lo, int hi) { return lo + (int)(next_u() % (unsigned)(hi - lo + 1)); }

static void scalar_init(tm_model *m, const char *name, int type, const void *data) {
  tm_initializer(m, name, type, 0, NULL, data);
}

/* Converts m with or without the quantized rewrites; NULL on failure (the
 * message printed). */
static void *convert(tm_model *m, bool rewrites, wnn_import_result *res) {
  if (tm_convert_rewrites(m, rewrites, res)) return res->artifact;
  CHECK(0);
  return NULL;
}

/* The artifact's graph and weights. */
typedef struct art {
  cJSON *graph;
  const uint8_t *weights;
  size_t weights_size;
} art;

static bool art_read(const wnn_import_result *res, art *a) {
  wnn_container c;
  memset(a, 0, sizeof *a);
  if (wnn_container_read(res->artifact, res->size, 1, &c) != WNN_OK) return false;
  a->graph = cJSON_ParseWithLength((const char *)c.graph.data, c.graph.size);
  a->weights = c.weights.data;
  a->weights_size = c.weights.size;
  return a->graph != NULL;
}

static const char *op_name(const cJSON *node) {
  const wnn_op *op = wnn_op_by_code((int)cJSON_GetObjectItem(node, "op")->valuedouble);
  return op ? op->name : "?";
}

/* "Op,Op,..." of the artifact's nodes in order. */
static void ops_of(const art *a, char *buf, size_t cap) {
  buf[0] = '\0';
  const cJSON *n;
  cJSON_ArrayForEach(n, cJSON_GetObjectItem(a->graph, "nodes")) {
    size_t used = strlen(buf);
    snprintf(buf + used, cap - used, "%s%s", used ? "," : "", op_name(n));
  }
}

static const cJSON *node_of(const art *a, const char *op) {
  const cJSON *n;
  cJSON_ArrayForEach(n, cJSON_GetObjectItem(a->graph, "nodes")) if (!strcmp(op_name(n), op)) return n;
  return NULL;
}

/* Input k of node n: its value entry. */
static const cJSON *node_input(const art *a, const cJSON *n, int k) {
  const cJSON *in = cJSON_GetArrayItem(cJSON_GetObjectItem(n, "inputs"), k);
  if (!cJSON_IsNumber(in) || in->valueint < 0) return NULL;
  return cJSON_GetArrayItem(cJSON_GetObjectItem(a->graph, "values"), in->valueint);
}

/* The bytes of a param value (NULL when it is not one). */
static const uint8_t *param_bytes(const art *a, const cJSON *v, size_t *nbytes) {
  const cJSON *kind = cJSON_GetObjectItem(v, "kind");
  if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "param")) return NULL;
  size_t off = (size_t)cJSON_GetObjectItem(v, "offset")->valuedouble;
  *nbytes = (size_t)cJSON_GetObjectItem(v, "nbytes")->valuedouble;
  if (!a->weights || off + *nbytes > a->weights_size) return NULL;
  return a->weights + off;
}

static bool expect_ops(const wnn_import_result *res, const char *want) {
  art a;
  if (!art_read(res, &a)) return false;
  char got[512];
  ops_of(&a, got, sizeof got);
  cJSON_Delete(a.graph);
  if (strcmp(got, want)) {
    printf("  %s: nodes %s, expected %s\n", test_current_, got, want);
    return false;
  }
  return true;
}

/* Runs both artifacts on the same inputs (float32 each, sizes in floats) and
 * returns the largest difference of output `out` (n floats); *same says
 * whether every bit agreed. */
static float run_both(const wnn_import_result *a, const wnn_import_result *b, int num_inputs,
                      const float *const *xs, int out, size_t n, bool *same, int *differ) {
  float *ya = calloc(n, sizeof(float)), *yb = calloc(n, sizeof(float));
  float worst = -1.0f;
  *same = false;
  if (ya && yb) {
    wnn_status s1 = tm_run(a->artifact, a->size, num_inputs, xs, out, ya, n);
    wnn_status s2 = tm_run(b->artifact, b->size, num_inputs, xs, out, yb, n);
    if (s1 || s2) printf("  %s: run: %s\n", test_current_, wnn_last_error());

    CHECK_OK(s1);
    CHECK_OK(s2);
    if (!s1 && !s2) {
      worst = 0.0f;
      *differ = 0;
      for (size_t i = 0; i < n; i++) {
        float d = fabsf(ya[i] - yb[i]);
        worst = d > worst || d != d ? d : worst;
        *differ += memcmp(&ya[i], &yb[i], sizeof(float)) != 0;
      }
      *same = memcmp(ya, yb, n * sizeof(float)) == 0;
    }
  }
  free(ya);
  free(yb);
  return worst;
}

/* Runs an artifact with input 0 resized to shape (float32 x) and copies
 * output 0 (n floats) into y. */
static wnn_status run_resized(const wnn_import_result *r, const float *x, int ndim,
                              const int64_t *shape, float *y, size_t n) {
  wnn_model *model = NULL;
  wnn_executor *ex = NULL;
  wnn_status st = wnn_model_load(r->artifact, r->size, NULL, &model);
  if (!st) st = wnn_executor_create(model, &ex);
  if (!st) st = wnn_executor_resize_input(ex, 0, ndim, shape);
  if (!st) {
    DLTensor t;
    memset(&t, 0, sizeof t);
    t.data = (void *)x;
    t.device.device_type = kDLCPU;
    t.ndim = ndim;
    t.dtype = wnn_dtype_to_dl(WNN_DTYPE_F32);
    t.shape = (int64_t *)shape;
    st = wnn_executor_set_input(ex, 0, &t);
  }
  if (!st) st = wnn_executor_run(ex);
  if (!st) st = wnn_executor_copy_output(ex, 0, y, n * sizeof(float));
  if (st) printf("  %s: run at another batch: %s\n", test_current_, wnn_last_error());
  wnn_executor_destroy(ex);
  wnn_model_free(model);
  return st;
}

/* ------------------------------------------------------------- QDQ Conv */

typedef struct conv_case {
  const char *what;
  int spatial;         /* 2 or 1 */
  int act;             /* 0 none, 1 Relu, 2 Clip [-1, 1.5], 3 Clip with only a min */
  bool per_channel;    /* w scale [M] on axis 0, else one */
  bool w_u8;           /* uint8 weights with zero points, w - zp within int8 */
  bool w_u8_wide;      /* ... over all of uint8: some w - zp outside int8, stays */
  bool w_zp_i8;        /* int8 weights with zero points 3 */
  int bias;            /* 0 none, 1 right, 2 scale off by one ulp, 3 zero point 3, 4 float */
  bool y_i8;           /* int8 output, zero point -3 */
  bool y_no_zp;        /* Q without a zero point (uint8 0) */
  int group;           /* 1, or 3 (depthwise: C = M = 3) */
  /* Near misses: stays float. */
  bool conv_out_output; /* the Conv output is a graph output too */
  bool conv_2nd_reader; /* ... or read by a Sigmoid too */
  bool act_out_output;  /* the activation output is a graph output too */
  bool x_scale_input;   /* DQ(x)'s scale is a graph input */
  bool x_dq_shared;     /* DQ(x) read by another node too: still rewritten */
  bool w_axis1;         /* w scale per input channel (axis 1) */
  bool bn_after;        /* BatchNormalization after the Conv (folded in the sweep) */
  bool stays;           /* expected: no rewrite */
} conv_case;

#define CC 3
#define CM 4
#define CH 5
#define CW 6

/* The weights the rewritten QLinearConv should hold: w - zp as int8. */
static int8_t conv_w_expected[CM * CC * 3 * 3];

static void conv_model(tm_model *m, const conv_case *c, float *xs_value) {
  tm_init(m, 13);
  const int M = c->group == 3 ? 3 : CM, cin = CC / c->group, K = 3;
  const int sp = c->spatial;
  int64_t xd[4] = {1, CC, CH, CW}, wd[4] = {M, cin, K, K};
  if (sp == 1) xd[2] = CW * 2, wd[2] = K;
  tm_input(m, "x", FLOAT, 2 + sp, xd);
  const float xs = 2.0f / 255.0f;
  *xs_value = xs;
  const uint8_t xzp = 128;
  scalar_init(m, "xs", FLOAT, &xs);
  scalar_init(m, "xzp", UINT8, &xzp);
  tm_node(m, "QuantizeLinear", "qx", "x,xs,xzp", "xq");
  if (c->x_scale_input) {
    tm_input(m, "xs_in", FLOAT, 0, NULL);
    tm_node(m, "DequantizeLinear", "dqx", "xq,xs_in,xzp", "xf");
  } else {
    tm_node(m, "DequantizeLinear", "dqx", "xq,xs,xzp", "xf");
  }
  /* Weights. */
  int wn = M * cin;
  for (int d = 0; d < sp; d++) wn *= (int)wd[2 + d];
  int8_t wq8[CM * CC * 3 * 3];
  uint8_t wqu[CM * CC * 3 * 3];
  float ws[CM];
  int8_t wzp8[CM] = {0};
  uint8_t wzpu[CM];
  for (int i = 0; i < M; i++) {
    ws[i] = c->per_channel ? 0.004f * (float)(i + 1) + 0.001f : 0.006f;
    wzpu[i] = (uint8_t)(c->per_channel ? 120 + 3 * i : 126);
    wzp8[i] = (int8_t)(c->w_zp_i8 ? 3 : 0);
  }
  const int per_m = wn / M;
  for (int i = 0; i < wn; i++) {
    const int ch = c->per_channel && !c->w_axis1 ? i / per_m : 0;
    wq8[i] = (int8_t)irand(c->w_zp_i8 ? -100 : -127, c->w_zp_i8 ? 100 : 127);
    wqu[i] = (uint8_t)(c->w_u8_wide ? irand(0, 255) : wzpu[ch] + irand(-120, 120));
    conv_w_expected[i] = (int8_t)(c->w_u8 ? wqu[i] - wzpu[ch] : wq8[i] - wzp8[ch]);
  }
  if (c->w_u8_wide) wqu[0] = 0, wqu[1] = 255; /* 0 - 120 fits int8, 255 - 120 does not */
  const int64_t mdim = M, wsdim = c->w_axis1 ? cin : M;
  const int sn = c->per_channel ? 1 : 0;
  tm_initializer(m, "wq", c->w_u8 || c->w_u8_wide ? UINT8 : INT8, 2 + sp, wd,
                 c->w_u8 || c->w_u8_wide ? (void *)wqu : (void *)wq8);
  tm_initializer(m, "ws", FLOAT, sn, &wsdim, ws);
  tm_initializer(m, "wzp", c->w_u8 || c->w_u8_wide ? UINT8 : INT8, sn, &wsdim,
                 c->w_u8 || c->w_u8_wide ? (void *)wzpu : (void *)wzp8);
  Onnx__NodeProto *dqw = tm_node(m, "DequantizeLinear", "dqw", "wq,ws,wzp", "wf");
  tm_attr_int(m, dqw, "axis", c->w_axis1 ? 1 : 0);
  if (c->bias == 4) {
    float bf[CM];
    for (int i = 0; i < M; i++) bf[i] = uniform(-0.5f, 0.5f);
    tm_initializer(m, "bf", FLOAT, 1, &mdim, bf);
  } else if (c->bias) {
    int32_t bq[CM], bzp[CM];
    float bs[CM];
    for (int i = 0; i < M; i++) {
      bq[i] = irand(-400, 400);
      bs[i] = xs * ws[c->per_channel ? i : 0];
      if (c->bias == 2 && i == 1) bs[i] = nextafterf(bs[i], 1.0f);
      bzp[i] = c->bias == 3 ? 3 : 0;
    }
    tm_initializer(m, "bq", INT32, 1, &mdim, bq);
    tm_initializer(m, "bs", FLOAT, 1, &mdim, bs);
    tm_initializer(m, "bzp", INT32, 1, &mdim, bzp);
    Onnx__NodeProto *dqb = tm_node(m, "DequantizeLinear", "dqb", "bq,bs,bzp", "bf");
    tm_attr_int(m, dqb, "axis", 0);
  }
  Onnx__NodeProto *conv = tm_node(m, "Conv", "conv", c->bias ? "xf,wf,bf" : "xf,wf", "cf");
  int64_t pads[4] = {1, 1, 1, 1}, strides[2] = {1, 2};
  tm_attr_ints(m, conv, "pads", 2 * sp, pads);
  tm_attr_ints(m, conv, "strides", sp, strides);
  if (c->group > 1) tm_attr_int(m, conv, "group", c->group);
  const char *pre_q = "cf";
  if (c->bn_after) {
    float one[CM], zero[CM];
    for (int i = 0; i < M; i++) one[i] = 1.0f + 0.1f * (float)i, zero[i] = 0.05f * (float)i;
    tm_initializer(m, "bn_s", FLOAT, 1, &mdim, one);
    tm_initializer(m, "bn_b", FLOAT, 1, &mdim, zero);
    tm_initializer(m, "bn_m", FLOAT, 1, &mdim, zero);
    tm_initializer(m, "bn_v", FLOAT, 1, &mdim, one);
    tm_node(m, "BatchNormalization", "bn", "cf,bn_s,bn_b,bn_m,bn_v", "bnf");
    pre_q = "bnf";
  }
  if (c->act == 1) {
    tm_node(m, "Relu", "relu", pre_q, "af");
    pre_q = "af";
  } else if (c->act >= 2) {
    const float lo = -1.0f, hi = 1.5f;
    scalar_init(m, "clip_lo", FLOAT, &lo);
    scalar_init(m, "clip_hi", FLOAT, &hi);
    tm_node(m, "Clip", "clip", c->act == 2 ? "cf,clip_lo,clip_hi" : "cf,clip_lo", "af");
    pre_q = "af";
  }
  const float ys = 0.03f;
  const uint8_t yzpu = 128;
  const int8_t yzp8 = -3;
  scalar_init(m, "ys", FLOAT, &ys);
  if (!c->y_no_zp) scalar_init(m, "yzp", c->y_i8 ? INT8 : UINT8, c->y_i8 ? (void *)&yzp8 : (void *)&yzpu);
  char in[64];
  snprintf(in, sizeof in, "%s,ys%s", pre_q, c->y_no_zp ? "" : ",yzp");
  tm_node(m, "QuantizeLinear", "qy", in, "yq");
  snprintf(in, sizeof in, "yq,ys%s", c->y_no_zp ? "" : ",yzp");
  tm_node(m, "DequantizeLinear", "dqy", in, "y");
  tm_output(m, "y");
  if (c->conv_out_output) tm_output(m, "cf");
  if (c->act_out_output) tm_output(m, "af");
  if (c->conv_2nd_reader) {
    tm_node(m, "Sigmoid", "sig", "cf", "sig");
    tm_output(m, "sig");
  }
  if (c->x_dq_shared) {
    tm_node(m, "Relu", "xrelu", "xf", "xr");
    tm_output(m, "xr");
  }
}

/* What every pattern check starts with: m converted with and without the
 * rewrites, the rewritten artifact read into a (the caller deletes a->graph)
 * and its node list into ops, *q its first `op` node (or NULL); a case that
 * must stay float is checked here (no `op` node, no rewrite, the artifact
 * the one without the rewrites). False when converting or reading failed
 * (reported). */
static bool convert_both(tm_model *m, const char *what, bool stays, const char *op,
                         wnn_import_result *with, wnn_import_result *without, art *a, char *ops,
                         size_t cap, const cJSON **q) {
  memset(a, 0, sizeof *a);
  *q = NULL;
  if (!convert(m, true, with) || !convert(m, false, without)) return false;
  CHECK(without->num_quant_rewrites == 0);
  if (!art_read(with, a)) {
    CHECK(0);
    return false;
  }
  ops_of(a, ops, cap);
  *q = node_of(a, op);
  if (stays) {
    if (*q || with->num_quant_rewrites != 0) printf("  %s: rewritten: %s\n", what, ops);
    CHECK(!*q && with->num_quant_rewrites == 0);
    CHECK(with->size == without->size && !memcmp(with->artifact, without->artifact, with->size));
  }
  return true;
}

static void check_conv(const conv_case *c) {
  tm_model m;
  float xs;
  conv_model(&m, c, &xs);
  wnn_import_result with, without;
  memset(&with, 0, sizeof with);
  memset(&without, 0, sizeof without);
  art a;
  char ops[512];
  const cJSON *q;
  if (!convert_both(&m, c->what, c->stays, "QLinearConv", &with, &without, &a, ops, sizeof ops, &q))
    goto done;
  if (!c->stays) {
    if (!q || with.num_quant_rewrites != 1) printf("  %s: not rewritten: %s\n", c->what, ops);
    CHECK(q && with.num_quant_rewrites == 1);
    /* No float Conv, activation or Q/DQ pair left around it. */
    CHECK(!node_of(&a, "Conv") && (c->x_dq_shared || !node_of(&a, "Relu")) && !node_of(&a, "Clip"));
    int dq = 0, qn = 0;
    for (const cJSON *n = cJSON_GetObjectItem(a.graph, "nodes")->child; n; n = n->next) {
      dq += !strcmp(op_name(n), "DequantizeLinear");
      qn += !strcmp(op_name(n), "QuantizeLinear");
    }
    CHECK(qn == 1 && dq == 1 + (c->x_dq_shared ? 1 : 0));
    if (q) {
      const cJSON *attrs = cJSON_GetObjectItem(q, "attrs");
      const cJSON *act = cJSON_GetObjectItem(attrs, "activation");
      const cJSON *ap = cJSON_GetObjectItem(attrs, "activation_params");
      if (c->act == 0) CHECK(!act && !ap);
      if (c->act == 1) CHECK(cJSON_IsString(act) && !strcmp(act->valuestring, "Relu") && !ap);
      if (c->act >= 2) {
        CHECK(cJSON_IsString(act) && !strcmp(act->valuestring, "Clip"));
        CHECK(cJSON_GetArraySize(ap) == 2);
        if (cJSON_GetArraySize(ap) == 2) {
          CHECK(cJSON_GetArrayItem(ap, 0)->valuedouble == -1.0);
          CHECK(c->act == 3 ? (float)cJSON_GetArrayItem(ap, 1)->valuedouble == FLT_MAX
                            : cJSON_GetArrayItem(ap, 1)->valuedouble == 1.5);
        }
      }
      CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(q, "inputs")) == (c->bias ? 9 : 8));
      /* What `wnn info` shows: the metadata's op counts. */
      wnn_model *mod = NULL;
      CHECK_OK(wnn_model_load(with.artifact, with.size, NULL, &mod));
      cJSON *meta = mod ? cJSON_Parse(wnn_model_metadata(mod)) : NULL;
      const cJSON *count = cJSON_GetObjectItem(cJSON_GetObjectItem(meta, "ops"), "QLinearConv");
      CHECK(cJSON_IsNumber(count) && count->valuedouble == 1);
      CHECK(!cJSON_GetObjectItem(cJSON_GetObjectItem(meta, "ops"), "Conv"));
      cJSON_Delete(meta);
      wnn_model_free(mod);
      /* The weights in ONNX layout as int8 w - w_zp, without zero point. */
      size_t nb = 0;
      const cJSON *wv = node_input(&a, q, 3);
      const uint8_t *wb = wv ? param_bytes(&a, wv, &nb) : NULL;
      CHECK(wb && !strcmp(cJSON_GetObjectItem(wv, "dtype")->valuestring, "int8"));
      CHECK(node_input(&a, q, 5) == NULL);
      const int cin = CC / c->group, m_out = c->group == 3 ? 3 : CM;
      const size_t wn = (size_t)m_out * cin * 3 * (c->spatial == 2 ? 3 : 1);
      CHECK(wb && nb == wn && !memcmp(wb, conv_w_expected, wn));
    }
  }
  cJSON_Delete(a.graph);
  /* Both on random inputs (the first drawn to hit every quantization
   * level's neighbourhood): within one step of the output scale. */
  const size_t nx = (size_t)CC * (c->spatial == 1 ? 2 * CW : CH * CW);
  float x[CC * CH * CW], xsin = xs;
  size_t ny = 0;
  {
    wnn_model *mod = NULL;
    wnn_tensor_info info;
    if (!wnn_model_load(with.artifact, with.size, NULL, &mod) && !wnn_model_output_info(mod, 0, &info)) {
      ny = 1;
      for (int d = 0; d < info.ndim; d++) ny *= (size_t)info.shape[d];
    }
    wnn_model_free(mod);
  }
  CHECK(ny > 0);
  for (int trial = 0; trial < 3 && ny; trial++) {
    for (size_t i = 0; i < nx; i++) x[i] = uniform(-1.1f, 1.1f);
    const float *xsv[2] = {x, &xsin};
    bool same;
    int differ = 0;
    float worst = run_both(&with, &without, c->x_scale_input ? 2 : 1, xsv, 0, ny, &same, &differ);
    if (c->stays) {
      CHECK(same);
    } else {
      /* One step of y's scale (0.03), with room for its float rounding. */
      if (!(worst >= 0.0f && worst <= 0.03f * 1.0001f))
        printf("  %s: largest difference %g (%d of %zu differ)\n", c->what, worst, differ, ny);
      CHECK(worst >= 0.0f && worst <= 0.03f * 1.0001f);
      CHECK((size_t)differ < ny / 4 + 1); /* mostly the same level */
    }
  }
done:
  free(with.artifact);
  free(without.artifact);
  tm_free(&m);
}

TEST(qdq_conv_rewrites) {
  static const conv_case cases[] = {
      {.what = "plain", .spatial = 2, .bias = 1, .per_channel = true},
      {.what = "no bias", .spatial = 2},
      {.what = "per tensor", .spatial = 2, .bias = 1},
      {.what = "Relu", .spatial = 2, .act = 1, .bias = 1, .per_channel = true},
      {.what = "Clip", .spatial = 2, .act = 2, .bias = 1, .per_channel = true},
      {.what = "Clip, min only", .spatial = 2, .act = 3, .per_channel = true},
      {.what = "1-D", .spatial = 1, .bias = 1, .per_channel = true, .act = 1},
      {.what = "uint8 weights with zero points", .spatial = 2, .w_u8 = true, .per_channel = true, .bias = 1},
      {.what = "uint8 weights, per tensor", .spatial = 2, .w_u8 = true, .act = 1},
      {.what = "int8 weights with zero points", .spatial = 2, .w_zp_i8 = true, .per_channel = true, .bias = 1},
      {.what = "int8 output", .spatial = 2, .y_i8 = true, .bias = 1, .per_channel = true},
      {.what = "Q without zero point", .spatial = 2, .y_no_zp = true, .act = 1},
      {.what = "depthwise", .spatial = 2, .group = 3, .bias = 1, .per_channel = true},
      {.what = "DQ(x) shared", .spatial = 2, .bias = 1, .x_dq_shared = true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    conv_case c = cases[i];
    if (!c.group) c.group = 1;
    rng = 100 + (unsigned)i;
    check_conv(&c);
  }
}

TEST(qdq_conv_stays_float) {
  static const conv_case cases[] = {
      {.what = "bias scale one ulp off", .spatial = 2, .bias = 2, .per_channel = true},
      {.what = "bias zero point 3", .spatial = 2, .bias = 3, .per_channel = true},
      {.what = "float bias", .spatial = 2, .bias = 4, .per_channel = true},
      {.what = "Conv output is a graph output", .spatial = 2, .bias = 1, .conv_out_output = true},
      {.what = "Conv output read twice", .spatial = 2, .bias = 1, .conv_2nd_reader = true},
      {.what = "Relu output is a graph output", .spatial = 2, .act = 1, .act_out_output = true},
      {.what = "x scale not constant", .spatial = 2, .bias = 1, .x_scale_input = true},
      {.what = "w scale per input channel", .spatial = 2, .per_channel = true, .w_axis1 = true},
      {.what = "uint8 weights not within int8 of their zero points", .spatial = 2, .w_u8_wide = true,
       .per_channel = true, .bias = 1},
      {.what = "BatchNormalization after the Conv", .spatial = 2, .bn_after = true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    conv_case c = cases[i];
    c.group = 1;
    c.stays = true;
    rng = 200 + (unsigned)i;
    check_conv(&c);
  }
}

/* ---------------------------------------------------- QDQ MatMul, Gemm */

typedef struct mm_case {
  const char *what;
  int kind;          /* 0 MatMul, 1 Gemm, 2 Gemm transB */
  bool per_column;
  bool w_u8;         /* uint8 B with zero points, b - zp within int8 */
  bool w_u8_wide;    /* ... over all of uint8: stays */
  bool batched;      /* a [2, M, K] (MatMul) */
  bool gemm_c;       /* Gemm with a bias: stays float */
  bool gemm_alpha;   /* alpha 0.5: stays float */
  bool mid_output;   /* the MatMul output is a graph output: stays */
  bool b_input;      /* B's DQ reads a graph input: stays */
  bool a_1d;         /* a 1-D a: QLinearMatMul's prepare refuses it, stays */
  bool dyn_batch;    /* a [batch, M, K], batch a dynamic dim (run at 3) */
  bool stays;
} mm_case;

#define MM 4
#define MK 5 /* odd: the last pair is half padding */
#define MN 3

/* logical: B as [K, N], w - zp (int8 bytes when it fits). */
static void mm_model(tm_model *m, const mm_case *c, uint8_t *logical) {
  tm_init(m, 13);
  const int64_t ad[3] = {c->dyn_batch ? -2 : 2, MM, MK};
  const bool b3 = c->batched || c->dyn_batch;
  tm_input(m, "a", FLOAT, b3 ? 3 : c->a_1d ? 1 : 2, b3 ? ad : ad + (c->a_1d ? 2 : 1));
  const float as = 2.0f / 255.0f, ys = 0.02f;
  const uint8_t azp = 128, yzp = 130;
  scalar_init(m, "as", FLOAT, &as);
  scalar_init(m, "azp", UINT8, &azp);
  scalar_init(m, "ys", FLOAT, &ys);
  scalar_init(m, "yzp", UINT8, &yzp);
  tm_node(m, "QuantizeLinear", "qa", "a,as,azp", "aq");
  tm_node(m, "DequantizeLinear", "dqa", "aq,as,azp", "af");
  const bool trans = c->kind == 2;
  const int64_t bd[2] = {trans ? MN : MK, trans ? MK : MN}, n = MN;
  const bool u8 = c->w_u8 || c->w_u8_wide;
  uint8_t b[MK * MN];
  float bs[MN];
  uint8_t bzp[MN];
  for (int j = 0; j < MN; j++) {
    bs[j] = c->per_column ? 0.01f + 0.005f * (float)j : 0.012f;
    bzp[j] = u8 ? (uint8_t)(125 + j * (c->per_column ? 2 : 0)) : 0;
  }
  for (int k = 0; k < MK; k++)
    for (int j = 0; j < MN; j++) {
      uint8_t v = c->w_u8_wide ? (uint8_t)irand(0, 255)
                  : c->w_u8    ? (uint8_t)(bzp[j] + irand(-120, 120))
                               : (uint8_t)(int8_t)irand(-127, 127);
      if (c->w_u8_wide && k == 0 && j == 0) v = 255;
      logical[k * MN + j] = (uint8_t)(int8_t)(v - bzp[j]);
      b[trans ? j * MK + k : k * MN + j] = v;
    }
  const int sn = c->per_column ? 1 : 0;
  if (c->b_input) tm_input(m, "bq", u8 ? UINT8 : INT8, 2, bd);
  else tm_initializer(m, "bq", u8 ? UINT8 : INT8, 2, bd, b);
  tm_initializer(m, "bs", FLOAT, sn, &n, bs);
  tm_initializer(m, "bzp", u8 ? UINT8 : INT8, sn, &n, bzp);
  Onnx__NodeProto *dqb = tm_node(m, "DequantizeLinear", "dqb", "bq,bs,bzp", "bf");
  tm_attr_int(m, dqb, "axis", trans ? 0 : 1);
  if (c->kind == 0) {
    tm_node(m, "MatMul", "mm", "af,bf", "mf");
  } else {
    if (c->gemm_c) {
      const float cv[MN] = {0.1f, -0.2f, 0.3f};
      tm_initializer(m, "c", FLOAT, 1, &n, cv);
    }
    Onnx__NodeProto *gm = tm_node(m, "Gemm", "mm", c->gemm_c ? "af,bf,c" : "af,bf", "mf");
    if (trans) tm_attr_int(m, gm, "transB", 1);
    if (c->gemm_alpha) tm_attr_float(m, gm, "alpha", 0.5f);
  }
  tm_node(m, "QuantizeLinear", "qy", "mf,ys,yzp", "yq");
  tm_node(m, "DequantizeLinear", "dqy", "yq,ys,yzp", "y");
  tm_output(m, "y");
  if (c->mid_output) tm_output(m, "mf");
}

static void check_mm(const mm_case *c) {
  tm_model m;
  uint8_t logical[MK * MN];
  mm_model(&m, c, logical);
  wnn_import_result with, without;
  memset(&with, 0, sizeof with);
  memset(&without, 0, sizeof without);
  art a;
  char ops[512];
  const cJSON *q;
  if (!convert_both(&m, c->what, c->stays, "QLinearMatMul", &with, &without, &a, ops, sizeof ops, &q))
    goto done;
  if (!c->stays) {
    if (strcmp(ops, "QuantizeLinear,QLinearMatMul,DequantizeLinear"))
      printf("  %s: nodes %s\n", c->what, ops);
    CHECK(!strcmp(ops, "QuantizeLinear,QLinearMatMul,DequantizeLinear"));
    CHECK(with.num_quant_rewrites == 1);
    if (q) {
      const cJSON *bp = cJSON_GetObjectItem(cJSON_GetObjectItem(q, "attrs"), "b_packed");
      CHECK(cJSON_IsNumber(bp) && bp->valuedouble == 1);
      /* B packed in K-pairs: [ceil(K/2)][N][2], the last pair's second half 0. */
      const cJSON *bv = node_input(&a, q, 3);
      size_t nb = 0;
      const uint8_t *p = bv ? param_bytes(&a, bv, &nb) : NULL;
      const cJSON *shape = bv ? cJSON_GetObjectItem(bv, "shape") : NULL;
      CHECK(p && nb == (size_t)((MK + 1) / 2) * MN * 2);
      CHECK(cJSON_GetArraySize(shape) == 3 && cJSON_GetArrayItem(shape, 0)->valuedouble == 3 &&
            cJSON_GetArrayItem(shape, 1)->valuedouble == MN &&
            cJSON_GetArrayItem(shape, 2)->valuedouble == 2);
      CHECK(bv && !strcmp(cJSON_GetObjectItem(bv, "dtype")->valuestring, "int8"));
      CHECK(node_input(&a, q, 5) == NULL); /* folded into B */
      int bad = 0;
      for (int j = 0; p && nb == 3 * MN * 2 && j < 3; j++)
        for (int col = 0; col < MN; col++)
          for (int t = 0; t < 2; t++) {
            const int k = 2 * j + t;
            const uint8_t want = k < MK ? logical[k * MN + col] : 0;
            bad += p[(j * MN + col) * 2 + t] != want;
          }
      CHECK(p && bad == 0);
      /* b_scale / b_zero_point as the DQ had them (per column or one). */
      const cJSON *sv = node_input(&a, q, 4);
      const cJSON *ss = sv ? cJSON_GetObjectItem(sv, "shape") : NULL;
      CHECK(ss && cJSON_GetArraySize(ss) == (c->per_column ? 1 : 0));
    }
  }
  cJSON_Delete(a.graph);
  if (c->dyn_batch) {
    /* At batch 3, past the default 1. */
    const int64_t shape[3] = {3, MM, MK};
    float x[3 * MM * MK], ya[3 * MM * MN], yb[3 * MM * MN];
    for (int i = 0; i < 3 * MM * MK; i++) x[i] = uniform(-1.0f, 1.0f);
    CHECK_OK(run_resized(&with, x, 3, shape, ya, 3 * MM * MN));
    CHECK_OK(run_resized(&without, x, 3, shape, yb, 3 * MM * MN));
    float worst = 0.0f;
    for (int i = 0; i < 3 * MM * MN; i++) worst = fmaxf(worst, fabsf(ya[i] - yb[i]));
    CHECK(worst <= 0.02f * 1.0001f);
    goto done;
  }
  const size_t rows = c->a_1d ? 1 : (size_t)(c->batched ? 2 : 1) * MM;
  const size_t na = rows * MK, ny = rows * MN;
  float x[2 * MM * MK];
  uint8_t bq_in[MK * MN];
  memset(bq_in, 0, sizeof bq_in);
  for (int trial = 0; trial < 4; trial++) {
    for (size_t i = 0; i < na; i++) x[i] = uniform(-1.0f, 1.0f);
    const float *xs[2] = {x, (const float *)bq_in};
    bool same;
    int differ = 0;
    float worst = run_both(&with, &without, c->b_input ? 2 : 1, xs, 0, ny, &same, &differ);
    if (c->stays) CHECK(same);
    else {
      if (!(worst >= 0.0f && worst <= 0.02f * 1.0001f))
        printf("  %s: largest difference %g\n", c->what, worst);
      CHECK(worst >= 0.0f && worst <= 0.02f * 1.0001f);
    }
  }
done:
  free(with.artifact);
  free(without.artifact);
  tm_free(&m);
}

TEST(qdq_matmul_rewrites) {
  static const mm_case cases[] = {
      {.what = "MatMul", .kind = 0},
      {.what = "MatMul per column", .kind = 0, .per_column = true},
      {.what = "MatMul batched", .kind = 0, .batched = true, .per_column = true},
      {.what = "MatMul, dynamic batch", .kind = 0, .dyn_batch = true, .per_column = true},
      {.what = "MatMul uint8 B with zero points", .kind = 0, .w_u8 = true, .per_column = true},
      {.what = "Gemm", .kind = 1, .per_column = true},
      {.what = "Gemm transB", .kind = 2, .per_column = true},
      {.what = "Gemm transB uint8", .kind = 2, .w_u8 = true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    rng = 300 + (unsigned)i;
    check_mm(&cases[i]);
  }
}

TEST(qdq_matmul_stays_float) {
  static const mm_case cases[] = {
      {.what = "Gemm with C", .kind = 2, .gemm_c = true},
      {.what = "Gemm alpha 0.5", .kind = 1, .gemm_alpha = true},
      {.what = "MatMul output is a graph output", .kind = 0, .mid_output = true},
      {.what = "B not constant", .kind = 0, .b_input = true},
      {.what = "uint8 B not within int8 of its zero points", .kind = 0, .w_u8_wide = true, .per_column = true},
      {.what = "a 1-D", .kind = 0, .a_1d = true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mm_case c = cases[i];
    c.stays = true;
    rng = 400 + (unsigned)i;
    check_mm(&c);
  }
}

/* -------------------------------------------------------------- dynamic */

typedef struct dyn_case {
  const char *what;
  bool swap_mul;    /* Mul(S, c) */
  bool swap_scale;  /* Mul(w_s, x_s) */
  int bias;         /* 0 none, 1 Add(y, b), 2 Add(b, y) */
  bool ws_scalar;
  bool w_u8;        /* uint8 W with a zero point, W - zp within int8 */
  bool w_u8_wide;   /* ... over all of uint8: W and its zero point kept */
  bool no_wzp;      /* MatMulInteger without b_zero_point */
  bool wzp_per_col; /* b_zero_point [N] */
  bool batched;     /* x [2, M, K] */
  bool dyn_batch;   /* x [batch, M, K], batch a dynamic dim (run at 3) */
  /* Near misses. */
  bool xs_output;   /* x_s is a graph output too */
  bool s_output;    /* S is a graph output too */
  bool acc_output;  /* the int32 product is a graph output too */
  bool bias_2d;     /* bias [1, N] */
  bool stays;
  const char *ops;  /* the nodes expected (NULL: DynamicQuantizeMatMul) */
} dyn_case;

#define DM 3
#define DK 7
#define DN 5

static void dyn_model(tm_model *m, const dyn_case *c) {
  tm_init(m, 13);
  const int64_t xd[3] = {c->dyn_batch ? -2 : 2, DM, DK};
  const bool b3 = c->batched || c->dyn_batch;
  tm_input(m, "x", FLOAT, b3 ? 3 : 2, b3 ? xd : xd + 1);
  tm_node(m, "DynamicQuantizeLinear", "dql", "x", "xq,xs,xzp");
  const int64_t wd[2] = {DK, DN}, n = DN, one_n[2] = {1, DN};
  const bool u8 = c->w_u8 || c->w_u8_wide;
  uint8_t w[DK * DN], wzp[DN];
  for (int i = 0; i < DN; i++) wzp[i] = (uint8_t)(u8 ? 131 - 2 * (c->wzp_per_col ? i : 0) : 0);
  for (int i = 0; i < DK * DN; i++)
    w[i] = c->w_u8_wide ? (uint8_t)irand(0, 255)
           : c->w_u8    ? (uint8_t)(wzp[i % DN] + irand(-120, 120))
                        : (uint8_t)(int8_t)irand(-127, 127);
  if (c->w_u8_wide) w[0] = 0; /* 0 - 131 is not an int8 */
  tm_initializer(m, "w", u8 ? UINT8 : INT8, 2, wd, w);
  if (!c->no_wzp) tm_initializer(m, "wzp", u8 ? UINT8 : INT8, c->wzp_per_col ? 1 : 0, &n, wzp);
  tm_node(m, "MatMulInteger", "mmi", c->no_wzp ? "xq,w,xzp" : "xq,w,xzp,wzp", "acc");
  float ws[DN], bias[DN];
  for (int i = 0; i < DN; i++) ws[i] = 0.003f + 0.0007f * (float)i, bias[i] = uniform(-1, 1);
  tm_initializer(m, "ws", FLOAT, c->ws_scalar ? 0 : 1, &n, ws);
  tm_node(m, "Mul", "scale", c->swap_scale ? "ws,xs" : "xs,ws", "s");
  Onnx__NodeProto *cast = tm_node(m, "Cast", "cast", "acc", "accf");
  tm_attr_int(m, cast, "to", 1);
  tm_node(m, "Mul", "mul", c->swap_mul ? "s,accf" : "accf,s", c->bias ? "mf" : "y");
  if (c->bias) {
    tm_initializer(m, "bias", FLOAT, c->bias_2d ? 2 : 1, c->bias_2d ? one_n : &n, bias);
    tm_node(m, "Add", "add", c->bias == 1 ? "mf,bias" : "bias,mf", "y");
  }
  tm_output(m, "y");
  if (c->xs_output) tm_output(m, "xs");
  if (c->s_output) tm_output(m, "s");
  if (c->acc_output) tm_output(m, "acc");
}

static void check_dyn(const dyn_case *c) {
  tm_model m;
  dyn_model(&m, c);
  wnn_import_result with, without;
  memset(&with, 0, sizeof with);
  memset(&without, 0, sizeof without);
  art a;
  char ops[512];
  const cJSON *q;
  if (!convert_both(&m, c->what, c->stays, "DynamicQuantizeMatMul", &with, &without, &a, ops, sizeof ops, &q))
    goto done;
  if (!c->stays) {
    const char *want = c->ops ? c->ops : "DynamicQuantizeMatMul";
    if (strcmp(ops, want)) printf("  %s: nodes %s\n", c->what, ops);
    CHECK(!strcmp(ops, want) && with.num_quant_rewrites == 1);
    if (q) {
      const cJSON *bp = cJSON_GetObjectItem(cJSON_GetObjectItem(q, "attrs"), "b_packed");
      CHECK(cJSON_IsNumber(bp) && bp->valuedouble == 1);
      /* W - zp folded into int8 W when it fits; else W and zp kept. */
      const bool zp_kept = c->w_u8_wide && !c->no_wzp;
      const int nin = cJSON_GetArraySize(cJSON_GetObjectItem(q, "inputs"));
      CHECK(nin == (c->bias ? 5 : zp_kept ? 4 : 3));
      const cJSON *zv = node_input(&a, q, 3);
      CHECK(zp_kept ? zv != NULL : zv == NULL);
      const cJSON *bv = node_input(&a, q, 1);
      CHECK(bv && !strcmp(cJSON_GetObjectItem(bv, "dtype")->valuestring, c->w_u8_wide ? "uint8" : "int8"));
      const cJSON *shape = bv ? cJSON_GetObjectItem(bv, "shape") : NULL;
      CHECK(cJSON_GetArraySize(shape) == 3 && cJSON_GetArrayItem(shape, 0)->valuedouble == (DK + 1) / 2);
    }
  }
  cJSON_Delete(a.graph);
  if (c->dyn_batch) {
    const int64_t shape[3] = {3, DM, DK};
    float x[3 * DM * DK], ya[3 * DM * DN], yb[3 * DM * DN];
    for (int i = 0; i < 3 * DM * DK; i++) x[i] = uniform(-1.0f, 2.0f);
    CHECK_OK(run_resized(&with, x, 3, shape, ya, 3 * DM * DN));
    CHECK_OK(run_resized(&without, x, 3, shape, yb, 3 * DM * DN));
    CHECK(!memcmp(ya, yb, sizeof ya));
    goto done;
  }
  const size_t nx = (size_t)(c->batched ? 2 : 1) * DM * DK, ny = (size_t)(c->batched ? 2 : 1) * DM * DN;
  float x[2 * DM * DK];
  for (int trial = 0; trial < 5; trial++) {
    /* Ranges that give zero points from 0 to 255 (all positive, all
     * negative), and one all-zero input (scale 0). */
    const float lo = trial == 1 ? 0.0f : trial == 2 ? -3.0f : -1.0f, hi = trial == 2 ? 0.0f : 2.5f;
    for (size_t i = 0; i < nx; i++) x[i] = trial == 4 ? 0.0f : uniform(lo, hi);
    const float *xs[1] = {x};
    bool same;
    int differ = 0;
    run_both(&with, &without, 1, xs, 0, ny, &same, &differ);
    if (!same) printf("  %s: trial %d: %d of %zu elements differ\n", c->what, trial, differ, ny);
    CHECK(same); /* bitwise, rewritten or not */
  }
done:
  free(with.artifact);
  free(without.artifact);
  tm_free(&m);
}

TEST(dynamic_rewrites) {
  static const dyn_case cases[] = {
      {.what = "plain"},
      {.what = "bias", .bias = 1},
      {.what = "bias first", .bias = 2, .swap_mul = true, .swap_scale = true},
      {.what = "scalar w_s", .ws_scalar = true, .bias = 1},
      {.what = "uint8 W with a zero point", .w_u8 = true, .bias = 1},
      {.what = "uint8 W, zero point per column", .w_u8 = true, .wzp_per_col = true, .bias = 2},
      {.what = "uint8 W not within int8 of its zero point", .w_u8_wide = true, .bias = 1},
      {.what = "... per column", .w_u8_wide = true, .wzp_per_col = true},
      {.what = "no b_zero_point", .no_wzp = true, .bias = 2},
      {.what = "no b_zero_point, no bias", .no_wzp = true},
      {.what = "batched", .batched = true, .bias = 1},
      {.what = "dynamic batch", .dyn_batch = true, .bias = 2},
      /* The DynamicQuantizeLinear stays for its other reader. */
      {.what = "x_s is a graph output", .xs_output = true, .bias = 1,
       .ops = "DynamicQuantizeLinear,DynamicQuantizeMatMul"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    rng = 500 + (unsigned)i;
    check_dyn(&cases[i]);
  }
}

/* Weights wide enough (K 256: packed blocks of wnn_qs8_gemm_pb_block(256)
 * = 128 columns) are stored in column blocks, the last one narrower (N 300:
 * 128, 128, 44): b_block in the node, the bytes of block b at
 * b * 128 * 2 * ceil(K/2), and the same outputs as the chain unrewritten. */
TEST(dynamic_wide_weights_in_column_blocks) {
  enum { M = 3, K = 256, N = 300 };
  rng = 77;
  tm_model m;
  tm_init(&m, 13);
  const int64_t xd[2] = {M, K}, wd[2] = {K, N}, n = N;
  tm_input(&m, "x", FLOAT, 2, xd);
  tm_node(&m, "DynamicQuantizeLinear", "dql", "x", "xq,xs,xzp");
  int8_t *w = malloc((size_t)K * N);
  float ws[N];
  for (int i = 0; i < K * N; i++) w[i] = (int8_t)irand(-127, 127);
  for (int i = 0; i < N; i++) ws[i] = 0.002f + 0.0001f * (float)(i % 13);
  tm_initializer(&m, "w", INT8, 2, wd, w);
  tm_node(&m, "MatMulInteger", "mmi", "xq,w,xzp", "acc");
  tm_initializer(&m, "ws", FLOAT, 1, &n, ws);
  tm_node(&m, "Mul", "scale", "xs,ws", "s");
  Onnx__NodeProto *cast = tm_node(&m, "Cast", "cast", "acc", "accf");
  tm_attr_int(&m, cast, "to", 1);
  tm_node(&m, "Mul", "mul", "accf,s", "y");
  tm_output(&m, "y");
  wnn_import_result with, without;
  memset(&with, 0, sizeof with);
  memset(&without, 0, sizeof without);
  art a;
  char ops[512];
  const cJSON *q;
  if (convert_both(&m, "wide weights", false, "DynamicQuantizeMatMul", &with, &without, &a, ops,
                   sizeof ops, &q) &&
      q) {
    const size_t block = wnn_qs8_gemm_pb_block(K);
    CHECK(block == 128);
    const cJSON *attrs = cJSON_GetObjectItem(q, "attrs");
    const cJSON *bb = cJSON_GetObjectItem(attrs, "b_block");
    CHECK(cJSON_IsNumber(bb) && bb->valuedouble == (double)block);
    size_t nbytes = 0;
    const int8_t *packed = (const int8_t *)param_bytes(&a, node_input(&a, q, 1), &nbytes);
    CHECK(packed != NULL && nbytes == (size_t)(K / 2) * N * 2);
    /* W[r][c] of the third block (columns 256..299, 44 wide) */
    for (int r = 0; packed && r < K; r += 37)
      for (int c = 256; c < N; c += 11)
        CHECK(packed[256 * 2 * 128 + (r / 2) * 2 * 44 + 2 * (c - 256) + r % 2] == w[r * N + c]);
    /* ... and of the first (128 wide) */
    for (int r = 1; packed && r < K; r += 41)
      CHECK(packed[(r / 2) * 2 * 128 + 2 * 100 + r % 2] == w[r * N + 100]);
    float x[M * K];
    for (int i = 0; i < M * K; i++) x[i] = uniform(-1.0f, 2.0f);
    const float *xs[1] = {x};
    bool same;
    int differ = 0;
    run_both(&with, &without, 1, xs, 0, (size_t)M * N, &same, &differ);
    if (!same) printf("  wide weights: %d of %d elements differ\n", differ, M * N);
    CHECK(same);
  }
  cJSON_Delete(a.graph);
  free(with.artifact);
  free(without.artifact);
  free(w);
  tm_free(&m);
}

TEST(dynamic_stays) {
  static const dyn_case cases[] = {
      {.what = "S is a graph output", .s_output = true},
      {.what = "the int32 product is a graph output", .acc_output = true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    dyn_case c = cases[i];
    c.stays = true;
    rng = 600 + (unsigned)i;
    check_dyn(&c);
  }
  /* A bias [1, N] is not [N]: the Mul chain is rewritten, the Add stays. */
  dyn_case c = {.what = "bias [1, N]", .bias = 1, .bias_2d = true};
  tm_model m;
  rng = 650;
  dyn_model(&m, &c);
  wnn_import_result res;
  memset(&res, 0, sizeof res);
  if (convert(&m, true, &res)) CHECK(expect_ops(&res, "DynamicQuantizeMatMul,Add"));
  free(res.artifact);
  tm_free(&m);
}

/* One DynamicQuantizeLinear read by two MatMulInteger chains (as
 * quantize_dynamic writes a transformer's Q, K and V projections): each chain
 * becomes a DynamicQuantizeMatMul, bitwise, and the DynamicQuantizeLinear
 * dies. */
TEST(shared_dynamic_quantization) {
  tm_model m;
  tm_init(&m, 13);
  rng = 680;
  const int64_t xd[2] = {DM, DK}, wd[2] = {DK, DN}, n = DN;
  tm_input(&m, "x", FLOAT, 2, xd);
  tm_node(&m, "DynamicQuantizeLinear", "dql", "x", "xq,xs,xzp");
  int8_t w1[DK * DN];
  uint8_t w2[DK * DN];
  float ws1[DN], bias[DN];
  for (int i = 0; i < DK * DN; i++) w1[i] = (int8_t)irand(-127, 127), w2[i] = (uint8_t)irand(0, 255);
  for (int i = 0; i < DN; i++) ws1[i] = 0.002f * (float)(i + 1), bias[i] = uniform(-1, 1);
  const float ws2 = 0.004f;
  const uint8_t wzp2 = 129;
  tm_initializer(&m, "w1", INT8, 2, wd, w1);
  tm_initializer(&m, "w2", UINT8, 2, wd, w2);
  tm_initializer(&m, "ws1", FLOAT, 1, &n, ws1);
  tm_initializer(&m, "bias", FLOAT, 1, &n, bias);
  scalar_init(&m, "ws2", FLOAT, &ws2);
  scalar_init(&m, "wzp2", UINT8, &wzp2);
  tm_node(&m, "MatMulInteger", "mmi1", "xq,w1,xzp", "acc1");
  tm_node(&m, "MatMulInteger", "mmi2", "xq,w2,xzp,wzp2", "acc2");
  tm_node(&m, "Mul", "s1", "xs,ws1", "s1");
  tm_node(&m, "Mul", "s2", "ws2,xs", "s2");
  Onnx__NodeProto *c1 = tm_node(&m, "Cast", "c1", "acc1", "f1");
  Onnx__NodeProto *c2 = tm_node(&m, "Cast", "c2", "acc2", "f2");
  tm_attr_int(&m, c1, "to", 1);
  tm_attr_int(&m, c2, "to", 1);
  tm_node(&m, "Mul", "m1", "f1,s1", "m1");
  tm_node(&m, "Mul", "m2", "s2,f2", "y2");
  tm_node(&m, "Add", "a1", "bias,m1", "y1");
  tm_output(&m, "y1");
  tm_output(&m, "y2");
  wnn_import_result with, without;
  memset(&with, 0, sizeof with);
  memset(&without, 0, sizeof without);
  if (convert(&m, true, &with) && convert(&m, false, &without)) {
    CHECK(expect_ops(&with, "DynamicQuantizeMatMul,DynamicQuantizeMatMul"));
    CHECK(with.num_quant_rewrites == 2);
    float x[DM * DK];
    for (int trial = 0; trial < 3; trial++) {
      for (int i = 0; i < DM * DK; i++) x[i] = uniform(-1.0f - (float)trial, 1.5f);
      const float *xv[1] = {x};
      for (int out = 0; out < 2; out++) {
        bool same;
        int differ = 0;
        run_both(&with, &without, 1, xv, out, DM * DN, &same, &differ);
        CHECK(same);
      }
    }
  }
  free(with.artifact);
  free(without.artifact);
  tm_free(&m);
}

/* com.microsoft's DynamicQuantizeMatMul in a file: read into the runtime's op,
 * its B packed, and bitwise the dynamic chain with the same weights (both
 * converted with and without the rewrites). */
TEST(contrib_dynamic_quantize_matmul) {
  for (int u8 = 0; u8 < 2; u8++) {
    const dyn_case c = {.what = "chain", .bias = 1, .w_u8 = u8 != 0, .batched = true};
    tm_model chain, contrib;
    rng = 660 + (unsigned)u8;
    dyn_model(&chain, &c);
    rng = 660 + (unsigned)u8;
    dyn_model(&contrib, &c); /* the same initializers, drawn again */
    /* Its nodes replaced by one com.microsoft node reading them. */
    contrib.graph.n_node = 0;
    Onnx__OperatorSetIdProto oi = ONNX__OPERATOR_SET_ID_PROTO__INIT;
    contrib.opset[1] = oi;
    contrib.opset[1].domain = tm_str(&contrib, "com.microsoft");
    contrib.opset[1].has_version = 1;
    contrib.opset[1].version = 1;
    contrib.opsets[1] = &contrib.opset[1];
    contrib.model.n_opset_import = 2;
    Onnx__NodeProto *n = tm_node(&contrib, "DynamicQuantizeMatMul", "dqmm", "x,w,ws,wzp,bias", "y");
    n->domain = tm_str(&contrib, "com.microsoft");
    wnn_import_result r[4];
    memset(r, 0, sizeof r);
    if (convert(&chain, true, &r[0]) && convert(&chain, false, &r[1]) &&
        convert(&contrib, true, &r[2]) && convert(&contrib, false, &r[3])) {
      CHECK(expect_ops(&r[2], "DynamicQuantizeMatMul") && expect_ops(&r[3], "DynamicQuantizeMatMul"));
      CHECK(r[2].num_quant_rewrites == 1 && r[3].num_quant_rewrites == 0);
      art a;
      if (art_read(&r[2], &a)) {
        const cJSON *q = node_of(&a, "DynamicQuantizeMatMul");
        const cJSON *bp = q ? cJSON_GetObjectItem(cJSON_GetObjectItem(q, "attrs"), "b_packed") : NULL;
        CHECK(cJSON_IsNumber(bp) && bp->valuedouble == 1);
        cJSON_Delete(a.graph);
      }
      const size_t nx = 2 * DM * DK, ny = 2 * DM * DN;
      float x[2 * DM * DK];
      for (int trial = 0; trial < 3; trial++) {
        for (size_t i = 0; i < nx; i++) x[i] = uniform(-2.0f, 1.0f + (float)trial);
        const float *xv[1] = {x};
        for (int k = 1; k < 4; k++) {
          bool same;
          int differ = 0;
          run_both(&r[0], &r[k], 1, xv, 0, ny, &same, &differ);
          if (!same) printf("  variant %d: %d elements differ\n", k, differ);
          CHECK(same);
        }
      }
    }
    for (int k = 0; k < 4; k++) free(r[k].artifact);
    tm_free(&chain);
    tm_free(&contrib);
  }
}

/* ------------------------------------------------------------ QOperator */

/* x -> QuantizeLinear -> QLinearMatMul(constant B) -> DequantizeLinear: B
 * packed (with its zero point folded in when B - zp fits int8), bitwise the
 * same results. Variants: int8 B with zero point 0, uint8 B within int8 of
 * its zero point, uint8 B over all of uint8 (kept uint8 with its zero
 * point). */
TEST(qoperator_matmul_packed) {
  for (int variant = 0; variant < 3; variant++) {
    tm_model m;
    tm_init(&m, 13);
    rng = 700 + (unsigned)variant;
    const int64_t xd[2] = {MM, MK}, bd[2] = {MK, MN};
    tm_input(&m, "x", FLOAT, 2, xd);
    const float xs = 0.01f, bs = 0.02f, ys = 0.05f;
    const uint8_t xzp = 120, yzp = 128;
    const int8_t bzp8 = 0;
    const uint8_t bzpu = 117;
    uint8_t b[MK * MN];
    for (int i = 0; i < MK * MN; i++)
      b[i] = variant == 0 ? (uint8_t)irand(0, 255)
             : variant == 1 ? (uint8_t)(bzpu + irand(-110, 110))
                            : (uint8_t)irand(0, 255);
    if (variant == 2) b[3] = 255; /* 255 - 117 is not an int8 */
    const bool folded = variant < 2;
    const int bt = variant ? UINT8 : INT8;
    scalar_init(&m, "xs", FLOAT, &xs);
    scalar_init(&m, "xzp", UINT8, &xzp);
    scalar_init(&m, "bs", FLOAT, &bs);
    scalar_init(&m, "bzp", bt, variant ? (const void *)&bzpu : (const void *)&bzp8);
    scalar_init(&m, "ys", FLOAT, &ys);
    scalar_init(&m, "yzp", UINT8, &yzp);
    tm_initializer(&m, "b", bt, 2, bd, b);
    tm_node(&m, "QuantizeLinear", "qx", "x,xs,xzp", "xq");
    tm_node(&m, "QLinearMatMul", "qmm", "xq,xs,xzp,b,bs,bzp,ys,yzp", "yq");
    tm_node(&m, "DequantizeLinear", "dqy", "yq,ys,yzp", "y");
    tm_output(&m, "y");
    wnn_import_result with, without;
    memset(&with, 0, sizeof with);
    memset(&without, 0, sizeof without);
    if (convert(&m, true, &with) && convert(&m, false, &without)) {
      CHECK(with.num_quant_rewrites == 1);
      art a;
      if (art_read(&with, &a)) {
        const cJSON *q = node_of(&a, "QLinearMatMul");
        const cJSON *bp = q ? cJSON_GetObjectItem(cJSON_GetObjectItem(q, "attrs"), "b_packed") : NULL;
        CHECK(cJSON_IsNumber(bp) && bp->valuedouble == 1);
        size_t nb = 0;
        const uint8_t *p = q ? param_bytes(&a, node_input(&a, q, 3), &nb) : NULL;
        CHECK(p && nb == 3 * MN * 2);
        const cJSON *bv = q ? node_input(&a, q, 3) : NULL;
        CHECK(bv && !strcmp(cJSON_GetObjectItem(bv, "dtype")->valuestring, folded ? "int8" : bt == UINT8 ? "uint8" : "int8"));
        CHECK(folded ? node_input(&a, q, 5) == NULL : node_input(&a, q, 5) != NULL);
        int bad = 0;
        for (int k = 0; p && nb == 3 * MN * 2 && k < 6; k++)
          for (int col = 0; col < MN; col++) {
            const uint8_t want = k >= MK ? 0 : variant == 1 ? (uint8_t)(int8_t)(b[k * MN + col] - bzpu) : b[k * MN + col];
            bad += p[((k / 2) * MN + col) * 2 + (k & 1)] != want;
          }
        CHECK(bad == 0);
        cJSON_Delete(a.graph);
      }
      float x[MM * MK];
      for (int trial = 0; trial < 3; trial++) {
        for (int i = 0; i < MM * MK; i++) x[i] = uniform(-1.5f, 1.5f);
        const float *xv[1] = {x};
        bool same;
        int differ = 0;
        run_both(&with, &without, 1, xv, 0, MM * MN, &same, &differ);
        CHECK(same);
      }
    }
    free(with.artifact);
    free(without.artifact);
    tm_free(&m);
  }
}

/* Two MatMuls reading the same quantized B share one packed copy; the
 * float weights that folding made are not in the artifact. */
TEST(shared_weight_packed_once) {
  tm_model m;
  tm_init(&m, 13);
  rng = 800;
  const int64_t ad[2] = {MM, MK}, bd[2] = {MK, MN};
  tm_input(&m, "a", FLOAT, 2, ad);
  const float as = 0.01f, bs = 0.02f, ys = 0.05f;
  const uint8_t azp = 128, yzp = 128;
  int8_t b[MK * MN];
  for (int i = 0; i < MK * MN; i++) b[i] = (int8_t)irand(-100, 100);
  scalar_init(&m, "as", FLOAT, &as);
  scalar_init(&m, "azp", UINT8, &azp);
  scalar_init(&m, "bs", FLOAT, &bs);
  scalar_init(&m, "ys", FLOAT, &ys);
  scalar_init(&m, "yzp", UINT8, &yzp);
  tm_initializer(&m, "bq", INT8, 2, bd, b);
  tm_node(&m, "QuantizeLinear", "qa", "a,as,azp", "aq");
  tm_node(&m, "DequantizeLinear", "dqa", "aq,as,azp", "af");
  tm_node(&m, "DequantizeLinear", "dqb", "bq,bs", "bf");
  tm_node(&m, "MatMul", "mm1", "af,bf", "m1");
  tm_node(&m, "MatMul", "mm2", "af,bf", "m2");
  tm_node(&m, "QuantizeLinear", "q1", "m1,ys,yzp", "y1");
  tm_node(&m, "QuantizeLinear", "q2", "m2,ys,yzp", "y2");
  tm_output(&m, "y1");
  tm_output(&m, "y2");
  wnn_import_result res;
  memset(&res, 0, sizeof res);
  if (convert(&m, true, &res)) {
    CHECK(res.num_quant_rewrites == 2);
    CHECK(expect_ops(&res, "QuantizeLinear,QLinearMatMul,QLinearMatMul"));
    art a;
    if (art_read(&res, &a)) {
      int params = 0, packed = 0;
      const cJSON *v;
      cJSON_ArrayForEach(v, cJSON_GetObjectItem(a.graph, "values")) {
        const cJSON *kind = cJSON_GetObjectItem(v, "kind");
        if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "param")) continue;
        params++;
        CHECK(strcmp(cJSON_GetObjectItem(v, "dtype")->valuestring, "float32") != 0 ||
              cJSON_GetArraySize(cJSON_GetObjectItem(v, "shape")) == 0); /* only scales */
        packed += cJSON_GetArraySize(cJSON_GetObjectItem(v, "shape")) == 3;
      }
      CHECK(packed == 1);
      CHECK(params == 6); /* as, azp, packed B, bs, ys, yzp */
      cJSON_Delete(a.graph);
    }
  }
  free(res.artifact);
  tm_free(&m);
}

int main(void) {
  (void)tm_convert; /* (this file converts with its own options) */
  RUN(qdq_conv_rewrites);
  RUN(qdq_conv_stays_float);
  RUN(qdq_matmul_rewrites);
  RUN(qdq_matmul_stays_float);
  RUN(dynamic_rewrites);
  RUN(dynamic_wide_weights_in_column_blocks);
  RUN(dynamic_stays);
  RUN(shared_dynamic_quantization);
  RUN(contrib_dynamic_quantize_matmul);
  RUN(qoperator_matmul_packed);
  RUN(shared_weight_packed_once);
  return test_summary();
}
