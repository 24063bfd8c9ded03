/* Subnormal weights set to zero at conversion (src/importer/pass_subnormal.c,
 * docs/importer.md, "Subnormal weights"), on a small model:
 *   x [1,4,5,5] -> Conv (W with subnormals, output channel 2 all subnormal)
 *     -> BatchNormalization (channel 2 scaled by 1e20) -> y
 *   a [3,8] -> MatMul (B with subnormals) -> z, and again -> z2;  B + B -> w
 *   (B read by two weight slots and an Add)
 * By default: the counts of wnn_import_result (the two MatMuls share one
 * flushed copy of B); the MatMul's B in the
 * artifact has +0 and -0 where it had subnormals of that sign and every other
 * bit as it was; the Add still reads B's subnormals (w is exactly 2 B); the
 * Conv's folded channel 2 is exactly the folded bias (its weights became 0
 * before the 1e20 scale); y and z agree with the artifact converted with
 * keep_subnormals to the rounding of the bias. With keep_subnormals: no
 * counts, and B's bytes are the file's. */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "ops/op.h"
#include "runtime/format.h"
#include "test_importer_util.h"

enum { FLOAT = 1 };
enum { CO = 6, CI = 4, H = 5, KK = 3, MM = 3, KM = 8, NM = 5 };

static float conv_w[CO * CI * KK * KK], conv_b[CO], bn_scale[CO], bn_bias[CO], bn_mean[CO],
    bn_var[CO], mm_b[KM * NM];
static int conv_sub, mm_sub;

static unsigned rng = 7;
static float uniform(float lo, float hi) {
  rng = rng * 1664525u + 1013904223u;
  return lo + (hi - lo) * (float)((rng >> 8) & 0xffff) / 65536.0f;
}

/* A subnormal of either sign, from 1e-45 to about 1e-39. */
static float subnormal(void) {
  const float v = uniform(1.0f, 9000.0f) * 1.4e-45f;
  return uniform(-1.0f, 1.0f) < 0 ? -v : v;
}

static void make(tm_model *m) {
  conv_sub = mm_sub = 0;
  for (int i = 0; i < CO * CI * KK * KK; i++) {
    const bool sub = i / (CI * KK * KK) == 2 || i % 5 == 0;
    conv_w[i] = sub ? subnormal() : uniform(-1, 1);
    conv_sub += sub;
  }
  for (int c = 0; c < CO; c++) {
    conv_b[c] = uniform(-0.5f, 0.5f);
    bn_scale[c] = c == 2 ? 1e20f : uniform(0.5f, 2.0f);
    bn_bias[c] = uniform(-1, 1);
    bn_mean[c] = uniform(-0.1f, 0.1f);
    bn_var[c] = uniform(0.5f, 1.5f);
  }
  for (int i = 0; i < KM * NM; i++) {
    const bool sub = i % 3 == 1;
    mm_b[i] = sub ? subnormal() : uniform(-1, 1);
    mm_sub += sub;
  }
  tm_init(m, 17);
  const int64_t xd[4] = {1, CI, H, H}, wd[4] = {CO, CI, KK, KK}, cd[1] = {CO}, ad[2] = {MM, KM},
                bd[2] = {KM, NM};
  tm_input(m, "x", FLOAT, 4, xd);
  tm_input(m, "a", FLOAT, 2, ad);
  tm_initializer(m, "W", FLOAT, 4, wd, conv_w);
  tm_initializer(m, "Bc", FLOAT, 1, cd, conv_b);
  tm_initializer(m, "scale", FLOAT, 1, cd, bn_scale);
  tm_initializer(m, "bias", FLOAT, 1, cd, bn_bias);
  tm_initializer(m, "mean", FLOAT, 1, cd, bn_mean);
  tm_initializer(m, "var", FLOAT, 1, cd, bn_var);
  tm_initializer(m, "B", FLOAT, 2, bd, mm_b);
  Onnx__NodeProto *conv = tm_node(m, "Conv", "conv", "x,W,Bc", "t");
  const int64_t pads[4] = {1, 1, 1, 1};
  tm_attr_ints(m, conv, "pads", 4, pads);
  tm_node(m, "BatchNormalization", "bn", "t,scale,bias,mean,var", "y");
  tm_node(m, "MatMul", "mm", "a,B", "z");
  tm_node(m, "MatMul", "mm2", "a,B", "z2");
  tm_node(m, "Add", "add", "B,B", "w");
  tm_output(m, "y");
  tm_output(m, "z");
  tm_output(m, "w");
  tm_output(m, "z2");
}

static wnn_status convert(tm_model *m, bool keep, wnn_import_result *res) {
  wnn_import_options opt;
  memset(&opt, 0, sizeof opt);
  opt.keep_subnormals = keep;
  const wnn_status st = tm_convert_opt(m, &opt, res);
  if (st) printf("  convert: %s\n", res->msg);
  return st;
}

/* The bytes of the param that the artifact's node of op `op` reads as input
 * k (NULL when it is not a param). */
static const float *param_of(const wnn_import_result *res, const char *op, int k, cJSON **graph) {
  wnn_container c;
  if (wnn_container_read(res->artifact, res->size, 1, &c) != WNN_OK) return NULL;
  *graph = cJSON_ParseWithLength((const char *)c.graph.data, c.graph.size);
  const cJSON *n;
  cJSON_ArrayForEach(n, cJSON_GetObjectItem(*graph, "nodes")) {
    const wnn_op *o = wnn_op_by_code((int)cJSON_GetObjectItem(n, "op")->valuedouble);
    if (!o || strcmp(o->name, op)) continue;
    const cJSON *in = cJSON_GetArrayItem(cJSON_GetObjectItem(n, "inputs"), k);
    const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItem(*graph, "values"), in->valueint);
    const cJSON *kind = cJSON_GetObjectItem(v, "kind");
    if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "param")) return NULL;
    return (const float *)(c.weights.data + (size_t)cJSON_GetObjectItem(v, "offset")->valuedouble);
  }
  return NULL;
}

typedef struct outs {
  float y[CO * H * H], z[MM * NM], w[KM * NM], z2[MM * NM];
} outs;

static wnn_status run(const wnn_import_result *res, const float *x, const float *a, outs *o) {
  const void *xs[2] = {x, a};
  void *const ys[4] = {o->y, o->z, o->w, o->z2};
  const size_t bytes[4] = {sizeof o->y, sizeof o->z, sizeof o->w, sizeof o->z2};
  return tm_run_all(res->artifact, res->size, 2, xs, 0, 4, ys, bytes);
}

TEST(flushed_by_default_kept_on_request) {
  tm_model m;
  make(&m);
  wnn_import_result flushed, kept;
  CHECK_OK(convert(&m, false, &flushed));
  CHECK_OK(convert(&m, true, &kept));
  tm_free(&m);
  if (!flushed.artifact || !kept.artifact) return;

  /* The Conv's W (folded with the BN) and the MatMuls' one copy of B. */
  CHECK(flushed.num_subnormal_tensors == 2);
  CHECK((long)flushed.num_subnormal_values == (long)(conv_sub + mm_sub));
  CHECK(kept.num_subnormal_tensors == 0);
  CHECK((long)kept.num_subnormal_values == 0L);

  cJSON *g1 = NULL, *g2 = NULL;
  const float *b1 = param_of(&flushed, "MatMul", 1, &g1), *b2 = param_of(&kept, "MatMul", 1, &g2);
  CHECK(b1 != NULL && b2 != NULL);
  if (b1 && b2) {
    int bad = 0;
    for (int i = 0; i < KM * NM; i++) {
      const bool sub = mm_b[i] != 0.0f && fabsf(mm_b[i]) < FLT_MIN;
      const float want = sub ? copysignf(0.0f, mm_b[i]) : mm_b[i];
      bad += memcmp(&b1[i], &want, sizeof want) != 0;
      bad += memcmp(&b2[i], &mm_b[i], sizeof(float)) != 0;
    }
    CHECK(bad == 0);
  }
  cJSON_Delete(g1);
  cJSON_Delete(g2);

  float x[CI * H * H], a[MM * KM];
  for (int i = 0; i < CI * H * H; i++) x[i] = uniform(-1, 1);
  for (int i = 0; i < MM * KM; i++) a[i] = uniform(-1, 1);
  static outs of, ok;
  CHECK_OK(run(&flushed, x, a, &of));
  CHECK_OK(run(&kept, x, a, &ok));
  int bad = 0;
  /* The Add reads the file's B, subnormals and all: exactly 2 B. */
  for (int i = 0; i < KM * NM; i++) bad += of.w[i] != 2.0f * mm_b[i] || ok.w[i] != 2.0f * mm_b[i];
  CHECK(bad == 0);
  /* Both MatMuls read the same flushed B. */
  CHECK(memcmp(of.z, of.z2, sizeof of.z) == 0);
  /* Channel 2: every weight 0, so the output is the folded bias, the same
   * at every pixel; kept, it carries 1e20 times the subnormal sums. */
  const float s2 = (float)(bn_scale[2] / sqrt((double)bn_var[2] + 1e-5));
  const float bias2 = (conv_b[2] - bn_mean[2]) * s2 + bn_bias[2];
  for (int p = 0; p < H * H; p++) bad += of.y[2 * H * H + p] != bias2;
  CHECK(bad == 0);
  /* Everything agrees with the kept conversion to the rounding of the
   * outputs (each moves by at most FLT_MIN times a few |x|, times the scale). */
  for (int i = 0; i < CO * H * H; i++) {
    const float tol = 1e-6f * fabsf(ok.y[i]) + (i / (H * H) == 2 ? 1e-2f : 1e-30f);
    bad += !(fabsf(of.y[i] - ok.y[i]) <= tol);
  }
  for (int i = 0; i < MM * NM; i++) bad += !(fabsf(of.z[i] - ok.z[i]) <= 1e-6f * fabsf(ok.z[i]) + 1e-30f);
  CHECK(bad == 0);
  free(flushed.artifact);
  free(kept.artifact);
}

int main(void) {
  (void)tm_run, (void)tm_convert, (void)tm_attr_int; /* test_importer_util.h's, unused here */
  RUN(flushed_by_default_kept_on_request);
  return test_summary();
}
