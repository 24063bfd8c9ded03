/* The com.microsoft contrib ops the importer rewrites into default-domain
 * nodes (src/importer/contrib.c): small ONNX models with one contrib node,
 * converted, run, and compared with values computed here in double precision
 * from ONNX Runtime's definitions; and the forms that are refused, whose
 * messages name the node, its op type and its domain. */
#include <float.h>
#include <stdio.h>

#include "test_importer_util.h"

enum { FLOAT = 1, INT32 = 6 };

static void ms_init(tm_model *m) {
  tm_init(m, 13);
  Onnx__OperatorSetIdProto oi = ONNX__OPERATOR_SET_ID_PROTO__INIT;
  m->opset[1] = oi;
  m->opset[1].domain = tm_str(m, "com.microsoft");
  m->opset[1].has_version = 1;
  m->opset[1].version = 1;
  m->opsets[1] = &m->opset[1];
  m->model.n_opset_import = 2;
}

static Onnx__NodeProto *ms_node(tm_model *m, const char *op, const char *name, const char *in,
                                const char *out) {
  Onnx__NodeProto *n = tm_node(m, op, name, in, out);
  n->domain = tm_str(m, "com.microsoft");
  return n;
}

/* Deterministic values in [-1, 1). */
static void fill(float *x, int n, unsigned seed) {
  unsigned s = seed * 2654435761u + 12345u;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    x[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f;
  }
}

/* Converts, expecting success. */
static int convert_ok(tm_model *m, const wnn_import_shape *shapes, int num_shapes,
                      wnn_import_result *res) {
  wnn_status st = tm_convert(m, shapes, num_shapes, NULL, res);
  if (st != WNN_OK) printf("  %s: convert failed: %s\n", test_current_, res->msg);
  return st == WNN_OK;
}

/* Converts, expecting an unsupported-feature failure whose message has each
 * of the given fragments. */
static void convert_refused(tm_model *m, const char *const *fragments) {
  wnn_import_result res;
  wnn_status st = tm_convert(m, NULL, 0, NULL, &res);
  CHECK(st != WNN_OK);
  CHECK(res.unsupported);
  for (const char *const *f = fragments; *f; f++) {
    if (!strstr(res.msg, *f)) {
      printf("  %s: message '%s' lacks '%s'\n", test_current_, res.msg, *f);
      test_current_failed_ = 1;
    }
  }
  if (st == WNN_OK) free(res.artifact);
}


static int close_to(const float *got, const double *want, int n, double tol) {
  for (int i = 0; i < n; i++)
    if (!(fabs(got[i] - want[i]) <= tol * (1 + fabs(want[i])))) {
      printf("  %s: element %d: got %.9g, want %.9g\n", test_current_, i, got[i], want[i]);
      return 0;
    }
  return 1;
}

static double gelu_tanh(double x) {
  return 0.5 * x * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
}

/* LayerNorm over rows of h: (x - mean) / sqrt(var + eps) * gamma + beta. */
static void ref_layer_norm(const double *x, int rows, int h, const float *gamma, const float *beta,
                           double eps, double *y) {
  for (int r = 0; r < rows; r++) {
    double mean = 0, var = 0;
    for (int i = 0; i < h; i++) mean += x[r * h + i];
    mean /= h;
    for (int i = 0; i < h; i++) var += (x[r * h + i] - mean) * (x[r * h + i] - mean);
    var /= h;
    for (int i = 0; i < h; i++)
      y[r * h + i] = (x[r * h + i] - mean) / sqrt(var + eps) * gamma[i] + (beta ? beta[i] : 0);
  }
}

TEST(fast_gelu_adds_bias_then_tanh_gelu) {
  tm_model m;
  ms_init(&m);
  const int64_t xd[2] = {2, 5}, bd[1] = {5};
  float bias[5], x[10];
  fill(bias, 5, 1);
  fill(x, 10, 2);
  for (int i = 0; i < 10; i++) x[i] *= 4;
  tm_input(&m, "x", FLOAT, 2, xd);
  tm_initializer(&m, "bias", FLOAT, 1, bd, bias);
  ms_node(&m, "FastGelu", "gelu", "x,bias", "y");
  ms_node(&m, "FastGelu", "gelu_nobias", "x", "z");
  tm_output(&m, "y");
  tm_output(&m, "z");
  wnn_import_result res;
  if (convert_ok(&m, NULL, 0, &res)) {
    float y[10], z[10];
    const void *xs[1] = {x};
    void *ys[2] = {y, z};
    size_t bytes[2] = {sizeof y, sizeof z};
    CHECK_OK(tm_run_all(res.artifact, res.size, 1, (const void *const *)xs, 0, 2, ys, bytes));
    double wy[10], wz[10];
    for (int i = 0; i < 10; i++) {
      wy[i] = gelu_tanh((double)x[i] + bias[i % 5]);
      wz[i] = gelu_tanh(x[i]);
    }
    CHECK(close_to(y, wy, 10, 1e-5));
    CHECK(close_to(z, wz, 10, 1e-5));
    free(res.artifact);
  }
  tm_free(&m);
}

/* input + skip + bias, normalized over the last axis; output 3 the sum. */
TEST(skip_layer_norm_with_bias_and_sum) {
  tm_model m;
  ms_init(&m);
  enum { B = 2, S = 3, H = 4 };
  const int64_t xd[3] = {B, S, H}, sd[2] = {S, H}, hd[1] = {H};
  float x[B * S * H], skip[S * H], gamma[H], beta[H], bias[H];
  fill(x, B * S * H, 3);
  fill(skip, S * H, 4);
  fill(gamma, H, 5);
  fill(beta, H, 6);
  fill(bias, H, 7);
  tm_input(&m, "x", FLOAT, 3, xd);
  tm_input(&m, "skip", FLOAT, 2, sd); /* [S, H] broadcasts over the batch */
  tm_initializer(&m, "gamma", FLOAT, 1, hd, gamma);
  tm_initializer(&m, "beta", FLOAT, 1, hd, beta);
  tm_initializer(&m, "bias", FLOAT, 1, hd, bias);
  Onnx__NodeProto *n = ms_node(&m, "SkipLayerNormalization", "sln", "x,skip,gamma,beta,bias",
                               "y,,,sum");
  tm_attr_float(&m, n, "epsilon", 1e-5f);
  tm_output(&m, "y");
  tm_output(&m, "sum");
  wnn_import_result res;
  if (convert_ok(&m, NULL, 0, &res)) {
    float y[B * S * H], sum[B * S * H];
    const void *xs[2] = {x, skip};
    void *ys[2] = {y, sum};
    size_t bytes[2] = {sizeof y, sizeof sum};
    CHECK_OK(tm_run_all(res.artifact, res.size, 2, (const void *const *)xs, 0, 2, ys, bytes));
    double ws[B * S * H], wy[B * S * H];
    for (int i = 0; i < B * S * H; i++) ws[i] = (double)x[i] + skip[i % (S * H)] + bias[i % H];
    ref_layer_norm(ws, B * S, H, gamma, beta, 1e-5f, wy);
    CHECK(close_to(sum, ws, B * S * H, 1e-6));
    CHECK(close_to(y, wy, B * S * H, 1e-5));
    free(res.artifact);
  }
  tm_free(&m);
}

/* Without beta and bias, and without epsilon (ORT's default, 1e-12): a
 * variance of 1e-8 tells the default from 1e-5. */
TEST(skip_layer_norm_defaults) {
  tm_model m;
  ms_init(&m);
  enum { S = 2, H = 3 };
  const int64_t xd[2] = {S, H}, hd[1] = {H};
  float x[S * H], skip[S * H], gamma[H];
  fill(x, S * H, 8);
  fill(skip, S * H, 9);
  fill(gamma, H, 10);
  for (int i = 0; i < S * H; i++) {
    x[i] *= 1e-4f;
    skip[i] *= 1e-4f;
  }
  tm_input(&m, "x", FLOAT, 2, xd);
  tm_input(&m, "skip", FLOAT, 2, xd);
  tm_initializer(&m, "gamma", FLOAT, 1, hd, gamma);
  ms_node(&m, "SkipLayerNormalization", "sln", "x,skip,gamma", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, NULL, 0, &res)) {
    float y[S * H];
    const float *xs[2] = {x, skip};
    CHECK_OK(tm_run(res.artifact, res.size, 2, xs, 0, y, S * H));
    double ws[S * H], wy[S * H];
    for (int i = 0; i < S * H; i++) ws[i] = (double)x[i] + skip[i];
    ref_layer_norm(ws, S, H, gamma, NULL, 1e-12, wy);
    CHECK(close_to(y, wy, S * H, 1e-4));
    free(res.artifact);
  }
  tm_free(&m);
}

/* word[ids] + position[0..S-1] + segment[seg], normalized; mask_index counts
 * the ones of each mask row; embedding_sum is the sum. */
TEST(embed_layer_norm_all_outputs) {
  tm_model m;
  ms_init(&m);
  enum { B = 2, S = 3, H = 4, V = 6, P = 5 };
  const int64_t idd[2] = {B, S}, wd[2] = {V, H}, pd[2] = {P, H}, sgd[2] = {2, H}, hd[1] = {H};
  float word[V * H], pos[P * H], seg[2 * H], gamma[H], beta[H];
  fill(word, V * H, 11);
  fill(pos, P * H, 12);
  fill(seg, 2 * H, 13);
  fill(gamma, H, 14);
  fill(beta, H, 15);
  const int32_t ids[B * S] = {5, 0, 3, 2, 2, 1}, segs[B * S] = {0, 1, 1, 0, 0, 1},
                mask[B * S] = {1, 1, 0, 1, 0, 0};
  tm_input(&m, "ids", INT32, 2, idd);
  tm_input(&m, "segs", INT32, 2, idd);
  tm_input(&m, "mask", INT32, 2, idd);
  tm_initializer(&m, "word", FLOAT, 2, wd, word);
  tm_initializer(&m, "pos", FLOAT, 2, pd, pos);
  tm_initializer(&m, "seg", FLOAT, 2, sgd, seg);
  tm_initializer(&m, "gamma", FLOAT, 1, hd, gamma);
  tm_initializer(&m, "beta", FLOAT, 1, hd, beta);
  Onnx__NodeProto *n = ms_node(&m, "EmbedLayerNormalization", "eln",
                               "ids,segs,word,pos,seg,gamma,beta,mask", "y,mask_index,emb_sum");
  tm_attr_float(&m, n, "epsilon", 1e-5f);
  tm_output(&m, "y");
  tm_output(&m, "mask_index");
  tm_output(&m, "emb_sum");
  wnn_import_result res;
  if (convert_ok(&m, NULL, 0, &res)) {
    float y[B * S * H], sum[B * S * H];
    int32_t mi[B] = {-1, -1};
    const void *xs[3] = {ids, segs, mask};
    void *ys[3] = {y, mi, sum};
    size_t bytes[3] = {sizeof y, sizeof mi, sizeof sum};
    CHECK_OK(tm_run_all(res.artifact, res.size, 3, (const void *const *)xs, 0, 3, ys, bytes));
    double ws[B * S * H], wy[B * S * H];
    for (int b = 0; b < B; b++)
      for (int s = 0; s < S; s++)
        for (int i = 0; i < H; i++)
          ws[(b * S + s) * H + i] = (double)word[ids[b * S + s] * H + i] + pos[s * H + i] +
                                    seg[segs[b * S + s] * H + i];
    ref_layer_norm(ws, B * S, H, gamma, beta, 1e-5f, wy);
    CHECK(close_to(sum, ws, B * S * H, 1e-6));
    CHECK(close_to(y, wy, B * S * H, 1e-5));
    CHECK(mi[0] == 2 && mi[1] == 1);
    /* An input id past the vocabulary fails at run time, naming the value. */
    const int32_t bad[B * S] = {5, 0, 3, 2, 6, 1};
    const void *xb[3] = {bad, segs, mask};
    CHECK_STATUS(tm_run_all(res.artifact, res.size, 3, (const void *const *)xb, 0, 3, ys, bytes), WNN_ERR_OUT_OF_RANGE);
    free(res.artifact);
  }
  tm_free(&m);
}

/* position_ids given (a [1, S] row for every batch); mask_index without a
 * mask is zeros. */
TEST(embed_layer_norm_position_ids) {
  tm_model m;
  ms_init(&m);
  enum { B = 2, S = 2, H = 3, V = 4, P = 8 };
  const int64_t idd[2] = {B, S}, pidd[2] = {1, S}, wd[2] = {V, H}, pd[2] = {P, H}, hd[1] = {H};
  float word[V * H], pos[P * H], gamma[H], beta[H];
  fill(word, V * H, 16);
  fill(pos, P * H, 17);
  fill(gamma, H, 18);
  fill(beta, H, 19);
  const int32_t ids[B * S] = {3, 1, 0, 2}, pids[S] = {6, 7};
  tm_input(&m, "ids", INT32, 2, idd);
  tm_input(&m, "pids", INT32, 2, pidd);
  tm_initializer(&m, "word", FLOAT, 2, wd, word);
  tm_initializer(&m, "pos", FLOAT, 2, pd, pos);
  tm_initializer(&m, "gamma", FLOAT, 1, hd, gamma);
  tm_initializer(&m, "beta", FLOAT, 1, hd, beta);
  ms_node(&m, "EmbedLayerNormalization", "eln", "ids,,word,pos,,gamma,beta,,pids", "y,mask_index");
  tm_output(&m, "y");
  tm_output(&m, "mask_index");
  wnn_import_result res;
  if (convert_ok(&m, NULL, 0, &res)) {
    float y[B * S * H];
    int32_t mi[B] = {-1, -1};
    const void *xs[2] = {ids, pids};
    void *ys[2] = {y, mi};
    size_t bytes[2] = {sizeof y, sizeof mi};
    CHECK_OK(tm_run_all(res.artifact, res.size, 2, (const void *const *)xs, 0, 2, ys, bytes));
    double ws[B * S * H], wy[B * S * H];
    for (int b = 0; b < B; b++)
      for (int s = 0; s < S; s++)
        for (int i = 0; i < H; i++)
          ws[(b * S + s) * H + i] = (double)word[ids[b * S + s] * H + i] + pos[pids[s] * H + i];
    ref_layer_norm(ws, B * S, H, gamma, beta, 1e-12, wy);
    CHECK(close_to(y, wy, B * S * H, 1e-5));
    CHECK(mi[0] == 0 && mi[1] == 0);
    free(res.artifact);
  }
  tm_free(&m);
}

/* ORT's Attention in double precision. x [B, S, Hin], w [Hin, q+q+v],
 * bias [q+q+v] (or NULL), past [2, B, N, P, q/N] (or NULL with P = 0),
 * keep [B, S, T] (or NULL: every key), causal: keys after P + query excluded.
 * Excluded keys get `filter` (keep) or the lowest float (causal) added to the
 * scaled score. out [B, S, v], present [2, B, N, T, q/N] (or NULL). */
typedef struct att_case {
  int b, s, hin, n, q, v, p;
  const float *x, *w, *bias, *past;
  const uint8_t *keep;
  int causal;
  double filter, scale;
} att_case;

static void ref_attention(const att_case *c, double *out, double *present) {
  int t_len = c->p + c->s, hd = c->q / c->n, vhd = c->v / c->n, cols = 2 * c->q + c->v;
  double *qkv = calloc((size_t)(c->b * c->s * cols), sizeof *qkv);
  double *score = calloc((size_t)t_len, sizeof *score);
  for (int b = 0; b < c->b; b++)
    for (int s = 0; s < c->s; s++)
      for (int j = 0; j < cols; j++) {
        double acc = c->bias ? c->bias[j] : 0;
        for (int i = 0; i < c->hin; i++)
          acc += (double)c->x[(b * c->s + s) * c->hin + i] * c->w[i * cols + j];
        qkv[(b * c->s + s) * cols + j] = acc;
      }
  /* Key or value `which` (0, 1) of head h at position t, element d. */
#define KV(which, b, h, t, d)                                                                    \
  ((t) < c->p ? (double)c->past[((((which) * c->b + (b)) * c->n + (h)) * c->p + (t)) * hd + (d)] \
              : qkv[((b) * c->s + (t) - c->p) * cols + c->q + (which) * c->q +                   \
                    (h) * ((which) ? vhd : hd) + (d)])
  for (int b = 0; b < c->b; b++)
    for (int h = 0; h < c->n; h++) {
      if (present)
        for (int w = 0; w < 2; w++)
          for (int t = 0; t < t_len; t++)
            for (int d = 0; d < hd; d++)
              present[(((w * c->b + b) * c->n + h) * t_len + t) * hd + d] = KV(w, b, h, t, d);
      for (int i = 0; i < c->s; i++) {
        double max = -INFINITY, total = 0;
        for (int t = 0; t < t_len; t++) {
          double dot = 0;
          for (int d = 0; d < hd; d++) dot += qkv[(b * c->s + i) * cols + h * hd + d] * KV(0, b, h, t, d);
          double add = 0;
          if (c->keep && !c->keep[(b * c->s + i) * t_len + t]) add = c->filter;
          if (c->causal && t > c->p + i) add = -FLT_MAX;
          score[t] = dot * c->scale + add;
          if (score[t] > max) max = score[t];
        }
        for (int t = 0; t < t_len; t++) total += score[t] = exp(score[t] - max);
        for (int d = 0; d < vhd; d++) {
          double acc = 0;
          for (int t = 0; t < t_len; t++) acc += score[t] / total * KV(1, b, h, t, d);
          out[(b * c->s + i) * c->v + h * vhd + d] = acc;
        }
      }
    }
#undef KV
  free(qkv);
  free(score);
}

/* GPT-2's form: past, a raw [B, T] mask with a zero, unidirectional, the
 * lowest float as mask_filter_value; present. */
TEST(attention_past_mask_causal) {
  tm_model m;
  ms_init(&m);
  enum { B = 2, S = 3, H = 4, N = 2, P = 2, T = P + S, HD = H / N };
  const int64_t xd[3] = {B, S, H}, wd[2] = {H, 3 * H}, bd[1] = {3 * H}, md[2] = {B, T},
                pd[5] = {2, B, N, P, HD};
  float x[B * S * H], w[H * 3 * H], bias[3 * H], past[2 * B * N * P * HD];
  fill(x, B * S * H, 20);
  fill(w, H * 3 * H, 21);
  fill(bias, 3 * H, 22);
  fill(past, 2 * B * N * P * HD, 23);
  const int32_t mask[B * T] = {1, 0, 1, 1, 1, 1, 1, 1, 0, 1};
  tm_input(&m, "x", FLOAT, 3, xd);
  tm_initializer(&m, "w", FLOAT, 2, wd, w);
  tm_initializer(&m, "bias", FLOAT, 1, bd, bias);
  tm_input(&m, "attention_mask", INT32, 2, md);
  tm_input(&m, "past_0", FLOAT, 5, pd);
  Onnx__NodeProto *n = ms_node(&m, "Attention", "attn", "x,w,bias,attention_mask,past_0",
                               "y,present_0");
  tm_attr_int(&m, n, "num_heads", N);
  tm_attr_int(&m, n, "unidirectional", 1);
  tm_attr_float(&m, n, "mask_filter_value", -FLT_MAX);
  tm_output(&m, "y");
  tm_output(&m, "present_0");
  wnn_import_result res;
  if (convert_ok(&m, NULL, 0, &res)) {
    float y[B * S * H], present[2 * B * N * T * HD];
    const void *xs[3] = {x, mask, past};
    void *ys[2] = {y, present};
    size_t bytes[2] = {sizeof y, sizeof present};
    CHECK_OK(tm_run_all(res.artifact, res.size, 3, (const void *const *)xs, 0, 2, ys, bytes));
    uint8_t keep[B * S * T];
    for (int b = 0; b < B; b++)
      for (int s = 0; s < S; s++)
        for (int t = 0; t < T; t++) keep[(b * S + s) * T + t] = mask[b * T + t] != 0;
    att_case c = {B, S, H, N, H, H, P, x, w, bias, past, keep, 1, -FLT_MAX, 1 / sqrt(HD)};
    double wy[B * S * H], wp[2 * B * N * T * HD];
    ref_attention(&c, wy, wp);
    CHECK(close_to(y, wy, B * S * H, 1e-5));
    CHECK(close_to(present, wp, 2 * B * N * T * HD, 1e-6));
    /* The mask really matters: a different one gives other values. */
    const int32_t ones[B * T] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    float y1[B * S * H];
    const void *x1[3] = {x, ones, past};
    void *y1s[2] = {y1, present};
    CHECK_OK(tm_run_all(res.artifact, res.size, 3, (const void *const *)x1, 0, 2, y1s, bytes));
    CHECK(memcmp(y, y1, sizeof y) != 0);
    free(res.artifact);
  }
  tm_free(&m);
}

/* A past of zero keys (GPT-2's first step) is a zero-element graph input,
 * fed and never read; present holds this step's keys and values. */
TEST(attention_zero_length_past) {
  tm_model m;
  ms_init(&m);
  enum { B = 1, S = 3, H = 4, N = 2, HD = H / N };
  const int64_t xd[3] = {B, S, H}, wd[2] = {H, 3 * H}, pd[5] = {2, B, N, -2, HD};
  float x[B * S * H], w[H * 3 * H];
  fill(x, B * S * H, 24);
  fill(w, H * 3 * H, 25);
  tm_input(&m, "x", FLOAT, 3, xd);
  tm_initializer(&m, "w", FLOAT, 2, wd, w);
  tm_input(&m, "past", FLOAT, 5, pd);
  Onnx__NodeProto *n = ms_node(&m, "Attention", "attn", "x,w,,,past", "y,present");
  tm_attr_int(&m, n, "num_heads", N);
  tm_attr_int(&m, n, "unidirectional", 1);
  tm_output(&m, "y");
  tm_output(&m, "present");
  wnn_import_shape shapes[1] = {{"past", 5, {2, B, N, 0, HD}}};
  wnn_import_result res;
  if (convert_ok(&m, shapes, 1, &res)) {
    float y[B * S * H], present[2 * B * N * S * HD], none[1] = {0};
    const void *xs[2] = {x, none};
    void *ys[2] = {y, present};
    size_t bytes[2] = {sizeof y, sizeof present};
    CHECK_OK(tm_run_all(res.artifact, res.size, 2, (const void *const *)xs, 0, 2, ys, bytes));
    att_case c = {B, S, H, N, H, H, 0, x, w, NULL, NULL, NULL, 1, -10000, 1 / sqrt(HD)};
    double wy[B * S * H], wp[2 * B * N * S * HD];
    ref_attention(&c, wy, wp);
    CHECK(close_to(y, wy, B * S * H, 1e-5));
    CHECK(close_to(present, wp, 2 * B * N * S * HD, 1e-6));
    free(res.artifact);
  }
  tm_free(&m);
}

/* Right-padding end positions ([B]) and start and end positions ([2B]); the
 * default mask_filter_value (-10000) is added to the scores, not put in
 * their place. */
TEST(attention_1d_masks) {
  enum { B = 2, S = 3, H = 4, N = 2, HD = H / N };
  const int64_t xd[3] = {B, S, H}, wd[2] = {H, 3 * H}, bd[1] = {3 * H};
  float x[B * S * H], w[H * 3 * H], bias[3 * H];
  fill(x, B * S * H, 26);
  fill(w, H * 3 * H, 27);
  fill(bias, 3 * H, 28);
  for (int i = 0; i < B * S * H; i++) x[i] *= 40; /* scores of thousands */
  const int32_t ends[B] = {2, 1}, both[2 * B] = {3, 2, 1, 0};
  for (int form = 0; form < 2; form++) {
    tm_model m;
    ms_init(&m);
    const int64_t md[1] = {form ? 2 * B : B};
    tm_input(&m, "x", FLOAT, 3, xd);
    tm_initializer(&m, "w", FLOAT, 2, wd, w);
    tm_initializer(&m, "bias", FLOAT, 1, bd, bias);
    tm_input(&m, "mask", INT32, 1, md);
    Onnx__NodeProto *n = ms_node(&m, "Attention", "attn", "x,w,bias,mask", "y");
    tm_attr_int(&m, n, "num_heads", N);
    tm_output(&m, "y");
    wnn_import_result res;
    if (convert_ok(&m, NULL, 0, &res)) {
      float y[B * S * H];
      const void *xs[2] = {x, form ? both : ends};
      void *ys[1] = {y};
      size_t bytes[1] = {sizeof y};
      CHECK_OK(tm_run_all(res.artifact, res.size, 2, (const void *const *)xs, 0, 1, ys, bytes));
      uint8_t keep[B * S * S];
      for (int b = 0; b < B; b++)
        for (int s = 0; s < S; s++)
          for (int t = 0; t < S; t++)
            keep[(b * S + s) * S + t] = form ? t < both[b] && t >= both[B + b] : t < ends[b];
      att_case c = {B, S, H, N, H, H, 0, x, w, bias, NULL, keep, 0, -10000, 1 / sqrt(HD)};
      double wy[B * S * H];
      ref_attention(&c, wy, NULL);
      CHECK(close_to(y, wy, B * S * H, 1e-4));
      free(res.artifact);
    }
    tm_free(&m);
  }
}

/* A [B, S, T] mask, qkv_hidden_sizes with a smaller V, the scale attribute
 * and an attention_bias input. */
TEST(attention_3d_mask_qkv_sizes_scale_bias) {
  tm_model m;
  ms_init(&m);
  enum { B = 1, S = 3, H = 4, N = 2, V = 2, HD = H / N, C = 2 * H + V };
  const int64_t xd[3] = {B, S, H}, wd[2] = {H, C}, bd[1] = {C}, md[3] = {B, S, S},
                rd[4] = {1, N, S, S};
  float x[B * S * H], w[H * C], bias[C], rel[N * S * S];
  fill(x, B * S * H, 29);
  fill(w, H * C, 30);
  fill(bias, C, 31);
  fill(rel, N * S * S, 32);
  const int32_t mask[B * S * S] = {1, 0, 1, 1, 1, 0, 0, 1, 1};
  const int64_t sizes[3] = {H, H, V};
  tm_input(&m, "x", FLOAT, 3, xd);
  tm_initializer(&m, "w", FLOAT, 2, wd, w);
  tm_initializer(&m, "bias", FLOAT, 1, bd, bias);
  tm_input(&m, "mask", INT32, 3, md);
  tm_input(&m, "rel", FLOAT, 4, rd);
  Onnx__NodeProto *n = ms_node(&m, "Attention", "attn", "x,w,bias,mask,,rel", "y");
  tm_attr_int(&m, n, "num_heads", N);
  tm_attr_ints(&m, n, "qkv_hidden_sizes", 3, sizes);
  tm_attr_float(&m, n, "scale", 0.25f);
  tm_output(&m, "y");
  wnn_import_result res;
  if (convert_ok(&m, NULL, 0, &res)) {
    float y[B * S * V];
    const void *xs[3] = {x, mask, rel};
    void *ys[1] = {y};
    size_t bytes[1] = {sizeof y};
    CHECK_OK(tm_run_all(res.artifact, res.size, 3, (const void *const *)xs, 0, 1, ys, bytes));
    /* Computed here: ref_attention has no attention_bias, which is added
     * after the mask. */
    uint8_t keep[B * S * S];
    for (int i = 0; i < B * S * S; i++) keep[i] = mask[i] != 0;
    int cols = C;
    double want[B * S * V];
    for (int h = 0; h < N; h++)
      for (int i = 0; i < S; i++) {
        double sc[S], max = -INFINITY, total = 0;
        for (int t = 0; t < S; t++) {
          double dot = 0;
          for (int d = 0; d < HD; d++) {
            double q = bias[h * HD + d], k = bias[H + h * HD + d];
            for (int j = 0; j < H; j++) {
              q += (double)x[i * H + j] * w[j * cols + h * HD + d];
              k += (double)x[t * H + j] * w[j * cols + H + h * HD + d];
            }
            dot += q * k;
          }
          sc[t] = dot * 0.25 + (keep[i * S + t] ? 0 : -10000) + rel[(h * S + i) * S + t];
          if (sc[t] > max) max = sc[t];
        }
        for (int t = 0; t < S; t++) total += sc[t] = exp(sc[t] - max);
        for (int d = 0; d < V / N; d++) {
          double acc = 0;
          for (int t = 0; t < S; t++) {
            double vv = bias[2 * H + h * (V / N) + d];
            for (int j = 0; j < H; j++) vv += (double)x[t * H + j] * w[j * cols + 2 * H + h * (V / N) + d];
            acc += sc[t] / total * vv;
          }
          want[i * V + h * (V / N) + d] = acc;
        }
      }
    CHECK(close_to(y, want, B * S * V, 1e-5));
    free(res.artifact);
  }
  tm_free(&m);
}

/* One Attention node with an attribute or input wnn refuses. */
static void refused_attention(const char *attr, int64_t value, int mask_rank,
                              const char *const *fragments) {
  tm_model m;
  ms_init(&m);
  const int64_t xd[3] = {1, 2, 4}, wd[2] = {4, 12}, md4[4] = {1, 1, 2, 2};
  float w[48] = {0};
  tm_input(&m, "x", FLOAT, 3, xd);
  tm_initializer(&m, "w", FLOAT, 2, wd, w);
  if (mask_rank == 4) tm_input(&m, "mask", INT32, 4, md4);
  Onnx__NodeProto *n = ms_node(&m, "Attention", "GptAttention_7", mask_rank == 4 ? "x,w,,mask" : "x,w",
                               "y");
  tm_attr_int(&m, n, "num_heads", 2);
  if (attr) tm_attr_int(&m, n, attr, value);
  tm_output(&m, "y");
  convert_refused(&m, fragments);
  tm_free(&m);
}

TEST(refused_forms_name_node_op_and_domain) {
  static const char *const rotary[] = {"node 0 'GptAttention_7' (Attention, domain 'com.microsoft')",
                                       "'do_rotary'", NULL};
  refused_attention("do_rotary", 1, 0, rotary);
  static const char *const share[] = {"'GptAttention_7' (Attention, domain 'com.microsoft')",
                                      "'past_present_share_buffer'", NULL};
  refused_attention("past_present_share_buffer", 1, 0, share);
  static const char *const unknown[] = {"(Attention, domain 'com.microsoft')",
                                        "attribute 'frobnicate' is not supported", NULL};
  refused_attention("frobnicate", 1, 0, unknown);
  static const char *const mask4[] = {"(Attention, domain 'com.microsoft')", "4-D input 3 (mask_index)",
                                      "'mask'", NULL};
  refused_attention(NULL, 0, 4, mask4);

  /* SkipLayerNormalization's mean output, read. */
  tm_model m;
  ms_init(&m);
  const int64_t xd[2] = {2, 3}, hd[1] = {3};
  const float gamma[3] = {1, 1, 1};
  tm_input(&m, "x", FLOAT, 2, xd);
  tm_initializer(&m, "gamma", FLOAT, 1, hd, gamma);
  ms_node(&m, "SkipLayerNormalization", "sln", "x,x,gamma", "y,mean");
  tm_output(&m, "y");
  tm_output(&m, "mean");
  static const char *const mean[] = {"node 0 'sln' (SkipLayerNormalization, domain 'com.microsoft')",
                                     "output 1 (mean) 'mean' is read", NULL};
  convert_refused(&m, mean);
  tm_free(&m);

  /* A com.microsoft op wnn does not rewrite. */
  ms_init(&m);
  tm_input(&m, "x", FLOAT, 2, xd);
  ms_node(&m, "BiasGelu", "bg", "x,x", "y");
  tm_output(&m, "y");
  static const char *const other[] = {"node 0 'bg' (BiasGelu, domain 'com.microsoft')",
                                      "domain 'com.microsoft' is not supported", NULL};
  convert_refused(&m, other);
  tm_free(&m);

  /* FastGelu with an attribute ORT does not define. */
  ms_init(&m);
  tm_input(&m, "x", FLOAT, 2, xd);
  Onnx__NodeProto *n = ms_node(&m, "FastGelu", "fg", "x", "y");
  tm_attr_int(&m, n, "approximate", 0);
  tm_output(&m, "y");
  static const char *const fg[] = {"node 0 'fg' (FastGelu, domain 'com.microsoft')",
                                    "attribute 'approximate' is not supported", NULL};
  convert_refused(&m, fg);
  tm_free(&m);
}

/* Shapes that do not fit are errors that name the input and both shapes. */
TEST(bad_shapes_are_errors) {
  tm_model m;
  ms_init(&m);
  const int64_t xd[3] = {1, 2, 4}, wd[2] = {4, 12}, pd[5] = {2, 1, 3, 1, 2};
  float w[48] = {0};
  tm_input(&m, "x", FLOAT, 3, xd);
  tm_initializer(&m, "w", FLOAT, 2, wd, w);
  tm_input(&m, "past", FLOAT, 5, pd);
  Onnx__NodeProto *n = ms_node(&m, "Attention", "attn", "x,w,,,past", "y");
  tm_attr_int(&m, n, "num_heads", 2);
  tm_output(&m, "y");
  wnn_import_result res;
  CHECK(tm_convert(&m, NULL, 0, NULL, &res) == WNN_ERR_SHAPE);
  CHECK(!res.unsupported);
  CHECK(strstr(res.msg, "(Attention, domain 'com.microsoft')") != NULL);
  CHECK(strstr(res.msg, "input 4 (past) 'past' has shape [2, 1, 3, 1, 2]; it must be "
                        "[2, 1, 2, past_sequence_length, 2]") != NULL);
  tm_free(&m);
}

int main(void) {
  RUN(fast_gelu_adds_bias_then_tanh_gelu);
  RUN(skip_layer_norm_with_bias_and_sum);
  RUN(skip_layer_norm_defaults);
  RUN(embed_layer_norm_all_outputs);
  RUN(embed_layer_norm_position_ids);
  RUN(attention_past_mask_causal);
  RUN(attention_zero_length_past);
  RUN(attention_1d_masks);
  RUN(attention_3d_mask_qkv_sizes_scale_bias);
  RUN(refused_forms_name_node_op_and_domain);
  RUN(bad_shapes_are_errors);
  return test_summary();
}
