/* Space-to-depth folded into the Conv after it (src/importer/pass_s2d.c):
 * models with YOLO's Focus stem (four step-2 phases of the image, a Concat on
 * the channels, a Conv) convert to a single Conv whose outputs match the
 * Focus computed here by hand and convolved directly; near misses of the
 * pattern are left alone and still compute the same thing. */
#include <math.h>
#include <stdio.h>

#include "test_importer_util.h"

#define C 3
#define H 8
#define W 10
#define M 6
#define MAXK 3

/* Phase (dy, dx) of each Concat input, in concat order. */
typedef struct focus {
  int dy[4], dx[4];
  int kh, kw;
  int64_t pads[4], strides[2];
  int group;
  bool one_slice;     /* one Slice on axes [2, 3]; else two, rows first */
  bool concat_output; /* the Concat is a graph output as well */
} focus;

static float image[C * H * W];
static float weight[M * 4 * C * MAXK * MAXK];
static float bias[M];

static void fill(void) {
  for (int i = 0; i < C * H * W; i++) image[i] = (float)((i * 37 % 101) - 50) / 25.0f;
  for (int i = 0; i < M * 4 * C * MAXK * MAXK; i++) weight[i] = (float)((i * 53 % 97) - 48) / 50.0f;
  for (int i = 0; i < M; i++) bias[i] = 0.25f * (float)i - 0.5f;
}

/* The Focus output y[4C][H/2][W/2] and its convolution, done by hand. */
static int reference(const focus *f, float *out) {
  static float y[4 * C][H / 2][W / 2];
  for (int k = 0; k < 4; k++)
    for (int c = 0; c < C; c++)
      for (int i = 0; i < H / 2; i++)
        for (int j = 0; j < W / 2; j++)
          y[k * C + c][i][j] = image[(c * H + 2 * i + f->dy[k]) * W + 2 * j + f->dx[k]];
  const int hh = H / 2, ww = W / 2, sh = (int)f->strides[0], sw = (int)f->strides[1];
  const int oh = (hh + (int)f->pads[0] + (int)f->pads[2] - f->kh) / sh + 1;
  const int ow = (ww + (int)f->pads[1] + (int)f->pads[3] - f->kw) / sw + 1;
  const int cin = 4 * C / f->group, mg = M / f->group;
  for (int o = 0; o < M; o++)
    for (int i = 0; i < oh; i++)
      for (int j = 0; j < ow; j++) {
        double s = bias[o];
        for (int c = 0; c < cin; c++)
          for (int u = 0; u < f->kh; u++)
            for (int v = 0; v < f->kw; v++) {
              int r = i * sh + u - (int)f->pads[0], q = j * sw + v - (int)f->pads[1];
              if (r < 0 || r >= hh || q < 0 || q >= ww) continue;
              s += (double)weight[((o * cin + c) * f->kh + u) * f->kw + v] *
                   y[(o / mg) * cin + c][r][q];
            }
        out[(o * oh + i) * ow + j] = (float)s;
      }
  return M * oh * ow;
}

/* Converts and runs the Focus model f: *num_nodes receives the artifact's
 * node count; returns the largest difference from the reference. */
static double convert_and_run(const focus *f, int *num_nodes) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t xd[4] = {1, C, H, W}, one = 1, two = 2;
  tm_input(&m, "images", 1, 4, xd);
  const int64_t zero_v = 0, one_v = 1, end_v = INT64_MAX, ax2 = 2, ax3 = 3, ax23[2] = {2, 3},
                st22[2] = {2, 2}, end2[2] = {INT64_MAX, INT64_MAX};
  tm_initializer(&m, "s0", 7, 1, &one, &zero_v);
  tm_initializer(&m, "s1", 7, 1, &one, &one_v);
  tm_initializer(&m, "end", 7, 1, &one, &end_v);
  tm_initializer(&m, "ax2", 7, 1, &one, &ax2);
  tm_initializer(&m, "ax3", 7, 1, &one, &ax3);
  tm_initializer(&m, "step", 7, 1, &one, &two);
  tm_initializer(&m, "ax23", 7, 1, &two, ax23);
  tm_initializer(&m, "step22", 7, 1, &two, st22);
  tm_initializer(&m, "end2", 7, 1, &two, end2);
  for (int dy = 0; dy < 2; dy++)
    for (int dx = 0; dx < 2; dx++) {
      char name[64];
      int64_t start2[2] = {dy, dx};
      snprintf(name, sizeof name, "st%d%d", dy, dx);
      tm_initializer(&m, name, 7, 1, &two, start2);
    }
  char cat_in[128] = "";
  for (int k = 0; k < 4; k++) {
    char in[128], rows[32], out[32];
    snprintf(out, sizeof out, "p%d", k);
    if (f->one_slice) {
      snprintf(in, sizeof in, "images,st%d%d,end2,ax23,step22", f->dy[k], f->dx[k]);
      tm_node(&m, "Slice", "", in, out);
    } else {
      snprintf(rows, sizeof rows, "r%d", k);
      snprintf(in, sizeof in, "images,s%d,end,ax2,step", f->dy[k]);
      tm_node(&m, "Slice", "", in, rows);
      snprintf(in, sizeof in, "%s,s%d,end,ax3,step", rows, f->dx[k]);
      tm_node(&m, "Slice", "", in, out);
    }
    snprintf(cat_in + strlen(cat_in), sizeof cat_in - strlen(cat_in), "%sp%d", k ? "," : "", k);
  }
  Onnx__NodeProto *cat = tm_node(&m, "Concat", "focus", cat_in, "cat");
  tm_attr_int(&m, cat, "axis", 1);
  const int64_t wd[4] = {M, 4 * C / f->group, f->kh, f->kw};
  tm_initializer(&m, "W", 1, 4, wd, weight);
  const int64_t bd = M;
  tm_initializer(&m, "B", 1, 1, &bd, bias);
  Onnx__NodeProto *conv = tm_node(&m, "Conv", "stem", "cat,W,B", "y");
  const int64_t kernel[2] = {f->kh, f->kw};
  tm_attr_ints(&m, conv, "kernel_shape", 2, kernel);
  tm_attr_ints(&m, conv, "pads", 4, f->pads);
  tm_attr_ints(&m, conv, "strides", 2, f->strides);
  if (f->group != 1) tm_attr_int(&m, conv, "group", f->group);
  tm_output(&m, "y");
  if (f->concat_output) tm_output(&m, "cat");

  wnn_import_result res;
  wnn_status st = tm_convert(&m, NULL, 0, NULL, &res);
  CHECK(st == WNN_OK);
  if (st) fprintf(stderr, "convert: %s\n", res.msg);
  tm_free(&m);
  *num_nodes = res.num_nodes;
  static float got[M * H * W], want[M * H * W];
  int n = reference(f, want);
  const float *xs[1] = {image};
  double worst = INFINITY;
  if (!st) {
    st = tm_run(res.artifact, res.size, 1, xs, 0, got, (size_t)n);
    CHECK(st == WNN_OK);
    if (!st) {
      worst = 0;
      for (int i = 0; i < n; i++) worst = fmax(worst, fabs((double)got[i] - want[i]));
    }
  }
  free(res.artifact);
  return worst;
}

static const focus YOLOX = {
    .dy = {0, 1, 0, 1}, .dx = {0, 0, 1, 1}, .kh = 3, .kw = 3,
    .pads = {1, 1, 1, 1}, .strides = {1, 1}, .group = 1,
};

TEST(yolox_focus_becomes_one_conv) {
  int nodes = -1;
  double err = convert_and_run(&YOLOX, &nodes);
  CHECK(nodes == 1);
  CHECK(err < 1e-5);
}

TEST(any_phase_order_one_slice_strides_and_asymmetric_pads) {
  focus f = YOLOX;
  const int dy[4] = {1, 0, 0, 1}, dx[4] = {1, 1, 0, 0};
  memcpy(f.dy, dy, sizeof dy);
  memcpy(f.dx, dx, sizeof dx);
  f.one_slice = true;
  f.kh = 2;
  f.kw = 3;
  const int64_t pads[4] = {0, 2, 1, 0}, strides[2] = {2, 1};
  memcpy(f.pads, pads, sizeof pads);
  memcpy(f.strides, strides, sizeof strides);
  int nodes = -1;
  double err = convert_and_run(&f, &nodes);
  CHECK(nodes == 1);
  CHECK(err < 1e-5);
}

TEST(near_misses_keep_the_concat) {
  int nodes = -1;
  /* A phase twice (and one missing): not a space-to-depth. */
  focus f = YOLOX;
  f.dy[3] = 0;
  f.dx[3] = 0;
  CHECK(convert_and_run(&f, &nodes) < 1e-5);
  CHECK(nodes > 1);
  /* Grouped convolution. */
  f = YOLOX;
  f.group = 2;
  nodes = -1;
  CHECK(convert_and_run(&f, &nodes) < 1e-5);
  CHECK(nodes > 1);
  /* The Concat is read elsewhere too: it stays, and so does the Conv's input. */
  f = YOLOX;
  f.concat_output = true;
  nodes = -1;
  CHECK(convert_and_run(&f, &nodes) < 1e-5);
  CHECK(nodes > 1);
}

int main(void) {
  fill();
  RUN(yolox_focus_becomes_one_conv);
  RUN(any_phase_order_one_slice_strides_and_asymmetric_pads);
  RUN(near_misses_keep_the_concat);
  return test_summary();
}
