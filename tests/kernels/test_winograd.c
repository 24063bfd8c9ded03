/* The Winograd convolution path (src/ops/conv_winograd.c and the transforms
 * of src/kernels/winograd.h):
 *   - the SIMD128 transforms against the scalar ones, BITWISE (they do the
 *     same operations in the same order), on 1..9 channels, every load path
 *     (adjacent tiles, gathered tiles), padded rows, with and without bias,
 *     with clamping; skipped, saying so, in builds without SIMD128;
 *   - whole convolutions, F(2x2, 3x3) and F(4x4, 3x3), scalar and the
 *     build's fastest kernels, against a double-precision direct convolution
 *     on awkward sizes: 1 channel, channel counts that are not multiples of 4
 *     or 8, odd planes, ragged tiles, planes smaller than a tile, pads 0, 1, 2
 *     and asymmetric, several blocks of tiles and of output channels, bias,
 *     a fused clamp. Tolerance: |got - want| <= 1e-5 + 1e-3 * max|want| (the
 *     model tests' rtol 1e-3 / atol 1e-5 taken relative to the output's
 *     largest value, as bench/run.mjs checks outputs), and nothing written
 *     outside y;
 *   - the measured error on VGG- and ResNet-like layers against that of
 *     im2col + GEMM on the same data (printed; docs/winograd.md quotes it);
 *   - applies(): only 3x3, stride 1, dilation 1. */
#include <stdint.h>
#include <string.h>

#include "kernel_util.h"
#include "kernels/winograd.h"
#include "ops/conv_winograd.h"
#include "ops/op_internal.h"

/* ------------------------------------------------------- SIMD vs scalar */

#if defined(__wasm_simd128__)
typedef struct transform_set {
  const char *name;
  size_t m;
  wnn_f32_winograd_input_ukernel *in_scalar, *in_simd;
  wnn_f32_winograd_weight_ukernel *w_scalar, *w_simd;
  wnn_f32_winograd_output_ukernel *out_scalar, *out_simd;
} transform_set;

static const transform_set SETS[] = {
    {"f23", 2, wnn_f32_winograd_f23_input__scalar, wnn_f32_winograd_f23_input__wasmsimd,
     wnn_f32_winograd_f23_weight__scalar, wnn_f32_winograd_f23_weight__wasmsimd,
     wnn_f32_winograd_f23_output__scalar, wnn_f32_winograd_f23_output__wasmsimd},
    {"f43", 4, wnn_f32_winograd_f43_input__scalar, wnn_f32_winograd_f43_input__wasmsimd,
     wnn_f32_winograd_f43_weight__scalar, wnn_f32_winograd_f43_weight__wasmsimd,
     wnn_f32_winograd_f43_output__scalar, wnn_f32_winograd_f43_output__wasmsimd},
};

static int same_floats(const char *what, const float *a, const float *b, size_t n) {
  if (memcmp(a, b, n * sizeof(float)) == 0) return 1;
  size_t i = 0;
  while (memcmp(&a[i], &b[i], sizeof(float)) == 0) i++;
  printf("  %s: element %zu is %.9g (SIMD128), %.9g (scalar)\n", what, i, a[i], b[i]);
  return 0;
}
#endif

TEST(simd_transforms_match_scalar_bitwise) {
#if defined(__wasm_simd128__)
  for (size_t s = 0; s < sizeof SETS / sizeof SETS[0]; s++) {
    const transform_set *t = &SETS[s];
    const size_t m = t->m, a = m + 2, np = a * a;
    for (size_t ch = 1; ch <= 9; ch++) {
      /* Input: tiles adjacent (ts = m, windows overlapping), apart (ts = a)
       * and at an odd stride, rows padded. */
      const size_t strides[3] = {m, a, a + 3};
      for (size_t k = 0; k < 3; k++) {
        const size_t ts = strides[k], rs = 3 * ts + a + 5, cs = a * rs + 7;
        float *d = rand_floats(ch * cs);
        const size_t v_cs = 4 + 4 * (ch & 1), v_ps = ch * v_cs + 4;
        float *v1 = rand_floats(np * v_ps), *v2 = malloc(np * v_ps * sizeof(float));
        memcpy(v2, v1, np * v_ps * sizeof(float));
        t->in_simd(ch, d, cs, rs, ts, v1, v_ps, v_cs);
        t->in_scalar(ch, d, cs, rs, ts, v2, v_ps, v_cs);
        CHECK(same_floats(t->name, v1, v2, np * v_ps));
        free(d), free(v1), free(v2);
      }
      /* Weights: in_c = ch (a tail of 1..3 after groups of 4), 3 filters. */
      {
        const size_t out_c = 3, u_os = ch + 2, u_ps = out_c * u_os + 1;
        float *w = rand_floats(out_c * ch * 9);
        float *u1 = rand_floats(np * u_ps), *u2 = malloc(np * u_ps * sizeof(float));
        memcpy(u2, u1, np * u_ps * sizeof(float));
        t->w_simd(out_c, ch, w, u1, u_ps, u_os);
        t->w_scalar(out_c, ch, w, u2, u_ps, u_os);
        CHECK(same_floats(t->name, u1, u2, np * u_ps));
        free(w), free(u1), free(u2);
      }
      /* Output (adjacent tiles, y_ts = m, the only stride allowed): padded
       * rows; bias or none; clamp or none. */
      for (int variant = 0; variant < 4; variant++) {
        const size_t ts = m, rs = 4 * ts + (variant & 1 ? 3 : 0), cs = m * rs + 2;
        const size_t m_cs = 8, m_ps = ch * m_cs + 4;
        float *mm = rand_floats(np * m_ps), *bias = rand_floats(ch);
        for (size_t i = 0; i < np * m_ps; i++) mm[i] *= 4.0f;
        float *y1 = rand_floats(ch * cs), *y2 = malloc(ch * cs * sizeof(float));
        memcpy(y2, y1, ch * cs * sizeof(float));
        const float lo = variant & 2 ? -0.5f : -INFINITY, hi = variant & 2 ? 3.0f : INFINITY;
        const float *b = variant & 2 ? bias : NULL;
        t->out_simd(ch, mm + 4, m_ps, m_cs, b, y1, cs, rs, ts, lo, hi);
        t->out_scalar(ch, mm + 4, m_ps, m_cs, b, y2, cs, rs, ts, lo, hi);
        CHECK(same_floats(t->name, y1, y2, ch * cs));
        free(mm), free(bias), free(y1), free(y2);
      }
    }
  }
#else
  printf("  skipped: this build has no SIMD128 transforms (not a wasm SIMD build)\n");
#endif
}

/* ------------------------------------------------- whole convolutions */

typedef struct conv_case {
  size_t in_c, out_c, in_h, in_w;
  size_t pad_t, pad_l, pad_b, pad_r;
} conv_case;

static wnn_window2d window_of(const conv_case *c) {
  wnn_window2d w = {0};
  w.in_h = c->in_h, w.in_w = c->in_w;
  w.out_h = c->in_h + c->pad_t + c->pad_b - 2;
  w.out_w = c->in_w + c->pad_l + c->pad_r - 2;
  w.k_h = w.k_w = 3;
  w.stride_h = w.stride_w = w.dil_h = w.dil_w = 1;
  w.pad_t = c->pad_t, w.pad_l = c->pad_l, w.pad_b = c->pad_b, w.pad_r = c->pad_r;
  return w;
}

/* The definition, in double. */
static void direct_conv(const wnn_window2d *win, size_t in_c, size_t out_c, const float *x,
                        const float *w, const float *bias, double *y) {
  const ptrdiff_t ih = (ptrdiff_t)win->in_h, iw = (ptrdiff_t)win->in_w;
  for (size_t o = 0; o < out_c; o++)
    for (size_t oy = 0; oy < win->out_h; oy++)
      for (size_t ox = 0; ox < win->out_w; ox++) {
        double acc = bias ? bias[o] : 0.0;
        for (size_t c = 0; c < in_c; c++)
          for (ptrdiff_t ky = 0; ky < 3; ky++)
            for (ptrdiff_t kx = 0; kx < 3; kx++) {
              const ptrdiff_t iy = (ptrdiff_t)oy - (ptrdiff_t)win->pad_t + ky;
              const ptrdiff_t ix = (ptrdiff_t)ox - (ptrdiff_t)win->pad_l + kx;
              if (iy < 0 || iy >= ih || ix < 0 || ix >= iw) continue;
              acc += (double)x[(c * win->in_h + (size_t)iy) * win->in_w + (size_t)ix] *
                     (double)w[(o * in_c + c) * 9 + (size_t)(ky * 3 + kx)];
            }
        y[(o * win->out_h + oy) * win->out_w + ox] = acc;
      }
}

/* Inputs in [-1, 1], weights scaled by 1 / sqrt(9 in_c) as trained layers
 * roughly are (so outputs stay near 1 whatever the channel count). */
static float *make_weights(size_t out_c, size_t in_c) {
  float *w = rand_floats(out_c * in_c * 9);
  const float scale = 1.0f / sqrtf((float)(9 * in_c));
  for (size_t i = 0; i < out_c * in_c * 9; i++) w[i] *= scale;
  return w;
}

static void *scratch_for(size_t bytes) {
  return aligned_alloc(64, bytes ? bytes : 64);
}

enum { GUARD = 37 };

/* Runs the case with tile size m and the given kernels; returns the maximum
 * of |got - want| / max|want|, or -1 when a check failed. */
static double run_case(const conv_case *cc, size_t m, wnn_kernels kernels, int with_bias,
                       float lo, float hi) {
  const wnn_window2d win = window_of(cc);
  const size_t out_n = cc->out_c * win.out_h * win.out_w;
  float *x = rand_floats(cc->in_c * cc->in_h * cc->in_w);
  float *w = make_weights(cc->out_c, cc->in_c);
  float *bias = with_bias ? rand_floats(cc->out_c) : NULL;
  double *want = malloc(out_n * sizeof(double));
  direct_conv(&win, cc->in_c, cc->out_c, x, w, bias, want);
  double peak = 0.0;
  for (size_t i = 0; i < out_n; i++) {
    if (want[i] < lo) want[i] = lo;
    if (want[i] > hi) want[i] = hi;
    peak = fabs(want[i]) > peak ? fabs(want[i]) : peak;
  }
  float *y = malloc((out_n + GUARD) * sizeof(float));
  for (size_t i = 0; i < out_n + GUARD; i++) y[i] = 1234.5f;
  const size_t bytes = wnn_conv_winograd_scratch_bytes_tile(&win, cc->in_c, cc->out_c, m);
  void *scratch = scratch_for(bytes);
  wnn_conv_winograd_run_tile(&win, cc->in_c, cc->out_c, x, w, bias, y, lo, hi, scratch, kernels,
                             m);
  double worst = 0.0;
  int ok = 1;
  for (size_t i = 0; i < out_n; i++) {
    const double err = fabs((double)y[i] - want[i]);
    if (!(err <= 1e-5 + 1e-3 * peak)) {
      if (ok)
        printf("  F(%zu,3) in_c=%zu out_c=%zu %zux%zu pads %zu,%zu,%zu,%zu kernels=%d: "
               "element %zu is %.9g, want %.9g\n",
               m, cc->in_c, cc->out_c, cc->in_h, cc->in_w, cc->pad_t, cc->pad_l, cc->pad_b,
               cc->pad_r, (int)kernels, i, y[i], want[i]);
      ok = 0;
    }
    if (peak > 0 && err / peak > worst) worst = err / peak;
    if (y[i] < lo || y[i] > hi) ok = 0;
  }
  for (size_t i = out_n; i < out_n + GUARD; i++)
    if (y[i] != 1234.5f) {
      printf("  wrote past the end of y at %zu\n", i);
      ok = 0;
      break;
    }
  free(x), free(w), free(bias), free(want), free(y), free(scratch);
  return ok ? worst : -1.0;
}

static const conv_case CASES[] = {
    {1, 1, 1, 1, 1, 1, 1, 1},      /* a 1x1 plane: output smaller than any tile */
    {1, 1, 3, 3, 0, 0, 0, 0},      /* a single output */
    {1, 1, 5, 7, 0, 0, 0, 0},      /* 3x5 outputs, pads 0 */
    {1, 2, 6, 6, 2, 2, 2, 2},      /* pads 2: tiles wholly in the padding */
    {3, 5, 9, 11, 1, 1, 1, 1},     /* odd planes, ragged tiles */
    {5, 3, 6, 6, 0, 1, 2, 0},      /* asymmetric pads */
    {7, 9, 13, 13, 1, 1, 1, 1},    /* a late AlexNet/ZFNet-like plane */
    {2, 6, 7, 7, 1, 1, 1, 1},      /* ResNet's 7x7 plane */
    {16, 12, 17, 23, 1, 0, 0, 1},  /* asymmetric, wider than tall */
    {9, 13, 40, 40, 1, 1, 1, 1},   /* several blocks of tiles, quads across tile rows */
    {6, 4, 3, 40, 1, 1, 1, 1},     /* a wide strip: one tile row */
    {4, 7, 41, 2, 1, 1, 1, 1},     /* a tall strip: tile rows narrower than 4 tiles */
    {300, 101, 8, 9, 1, 1, 1, 1},  /* several blocks of output channels */
};
#define NUM_CASES (sizeof CASES / sizeof CASES[0])

static void check_all_cases(wnn_kernels kernels) {
  for (size_t m = 2; m <= 4; m += 2)
    for (size_t i = 0; i < NUM_CASES; i++) {
      const double e = run_case(&CASES[i], m, kernels, (int)(i & 1), -INFINITY, INFINITY);
      CHECK(e >= 0.0);
    }
}

TEST(scalar_matches_direct_conv) { check_all_cases(WNN_KERNELS_SCALAR); }

TEST(auto_kernels_match_direct_conv) { check_all_cases(WNN_KERNELS_AUTO); }

TEST(bias_and_clamp) {
  const conv_case c = {5, 6, 11, 10, 1, 1, 1, 1};
  for (size_t m = 2; m <= 4; m += 2) {
    CHECK(run_case(&c, m, WNN_KERNELS_AUTO, 1, 0.0f, INFINITY) >= 0.0);     /* Relu */
    CHECK(run_case(&c, m, WNN_KERNELS_AUTO, 1, -0.25f, 0.25f) >= 0.0);     /* Clip */
    CHECK(run_case(&c, m, WNN_KERNELS_SCALAR, 0, -0.25f, 0.25f) >= 0.0);
  }
}

TEST(default_entry_points) {
  /* run() uses wnn_conv_winograd_tile's choice and scratch_bytes() its size. */
  const conv_case c = {8, 8, 14, 14, 1, 1, 1, 1};
  const wnn_window2d win = window_of(&c);
  const size_t m = wnn_conv_winograd_tile(&win);
  CHECK(m == 2 || m == 4);
  CHECK(wnn_conv_winograd_scratch_bytes(&win, 8, 8) ==
        wnn_conv_winograd_scratch_bytes_tile(&win, 8, 8, m));
  CHECK(wnn_conv_winograd_scratch_bytes(&win, 8, 8) % 64 == 0);
  float *x = rand_floats(8 * 14 * 14), *w = make_weights(8, 8);
  float *y1 = malloc(8 * 14 * 14 * sizeof(float)), *y2 = malloc(8 * 14 * 14 * sizeof(float));
  void *s = scratch_for(wnn_conv_winograd_scratch_bytes(&win, 8, 8));
  wnn_conv_winograd_run(&win, 8, 8, x, w, NULL, y1, -INFINITY, INFINITY, s, WNN_KERNELS_AUTO);
  wnn_conv_winograd_run_tile(&win, 8, 8, x, w, NULL, y2, -INFINITY, INFINITY, s,
                             WNN_KERNELS_AUTO, m);
  CHECK(memcmp(y1, y2, 8 * 14 * 14 * sizeof(float)) == 0);
  free(x), free(w), free(y1), free(y2), free(s);
}

TEST(scratch_stays_bounded) {
  /* VGG's largest layers: about 10 MiB (U for a block of output channels is
   * at most 8 MiB, V 2 MiB), not the 38 MB that all of U would be for
   * 512 x 512 channels. */
  const conv_case big[] = {{512, 512, 14, 14, 1, 1, 1, 1}, {64, 64, 224, 224, 1, 1, 1, 1},
                           {512, 512, 28, 28, 1, 1, 1, 1}};
  for (size_t i = 0; i < 3; i++) {
    const wnn_window2d win = window_of(&big[i]);
    for (size_t m = 2; m <= 4; m += 2)
      CHECK(wnn_conv_winograd_scratch_bytes_tile(&win, big[i].in_c, big[i].out_c, m) <=
            (size_t)12 << 20);
  }
}

TEST(applies_only_to_3x3_stride_1) {
  const conv_case c = {64, 64, 28, 28, 1, 1, 1, 1};
  wnn_window2d win = window_of(&c);
  CHECK(wnn_conv_winograd_applies(&win, 64, 64));
  wnn_window2d s2 = win;
  s2.stride_h = 2;
  CHECK(!wnn_conv_winograd_applies(&s2, 64, 64));
  wnn_window2d d2 = win;
  d2.dil_w = 2;
  CHECK(!wnn_conv_winograd_applies(&d2, 64, 64));
  wnn_window2d k5 = win;
  k5.k_h = k5.k_w = 5;
  CHECK(!wnn_conv_winograd_applies(&k5, 64, 64));
  wnn_window2d k1 = win;
  k1.k_h = 1;
  CHECK(!wnn_conv_winograd_applies(&k1, 64, 64));
  /* Where it does not pay (docs/winograd.md): a first layer from 3 channels,
   * planes under 7x7; F(2x2, 3x3) on 7x7 to 10x10 planes, F(4x4, 3x3) on
   * 11x11 and larger. */
  CHECK(!wnn_conv_winograd_applies(&win, 3, 64));
  const conv_case small = {256, 256, 5, 5, 1, 1, 1, 1}, seven = {512, 512, 7, 7, 1, 1, 1, 1};
  const wnn_window2d w5 = window_of(&small), w7 = window_of(&seven);
  CHECK(!wnn_conv_winograd_applies(&w5, 256, 256));
  CHECK(wnn_conv_winograd_applies(&w7, 512, 512));
  CHECK(wnn_conv_winograd_tile(&w7) == 2);
  CHECK(wnn_conv_winograd_tile(&win) == 4);
  const conv_case c10 = {256, 512, 10, 10, 1, 1, 1, 1}, c12 = {256, 512, 12, 12, 1, 1, 1, 1};
  const wnn_window2d w10 = window_of(&c10), w12 = window_of(&c12);
  CHECK(wnn_conv_winograd_tile(&w10) == 2);
  CHECK(wnn_conv_winograd_tile(&w12) == 4);
}

/* Error of float32 im2col + GEMM (the path Winograd replaces) on the same
 * data, for comparison. */
static double im2col_error(const conv_case *cc, wnn_kernels kernels) {
  const wnn_window2d win = window_of(cc);
  const size_t out_n = cc->out_c * win.out_h * win.out_w, n = win.out_h * win.out_w;
  const size_t k = cc->in_c * 9;
  float *x = rand_floats(cc->in_c * cc->in_h * cc->in_w), *w = make_weights(cc->out_c, cc->in_c);
  double *want = malloc(out_n * sizeof(double));
  direct_conv(&win, cc->in_c, cc->out_c, x, w, NULL, want);
  float *col = malloc(k * n * sizeof(float)), *y = malloc(out_n * sizeof(float));
  wnn_select_f32_im2col(kernels)(cc->in_c, x, col, &win);
  const wnn_f32_gemm_params gp = {1.0f, 0.0f, -INFINITY, INFINITY};
  const wnn_f32_gemm_config gemm = wnn_select_f32_gemm(kernels);
  wnn_f32_gemm(&gemm, cc->out_c, n, k, w, k, 1, col, n, 1, NULL, y, n, &gp);
  double peak = 0.0, worst = 0.0;
  for (size_t i = 0; i < out_n; i++) peak = fabs(want[i]) > peak ? fabs(want[i]) : peak;
  for (size_t i = 0; i < out_n; i++) {
    const double e = fabs((double)y[i] - want[i]) / peak;
    worst = e > worst ? e : worst;
  }
  free(x), free(w), free(want), free(col), free(y);
  return worst;
}

TEST(error_on_model_like_layers) {
  /* Channels and planes of VGG-19 and ResNet-50's 3x3 layers (smaller planes
   * than VGG's 224 to keep the double reference quick). */
  const conv_case layers[] = {{64, 64, 56, 56, 1, 1, 1, 1},
                              {128, 128, 28, 28, 1, 1, 1, 1},
                              {256, 256, 14, 14, 1, 1, 1, 1},
                              {512, 512, 7, 7, 1, 1, 1, 1}};
  for (size_t i = 0; i < 4; i++) {
    const conv_case *c = &layers[i];
    const double e23 = run_case(c, 2, WNN_KERNELS_AUTO, 1, -INFINITY, INFINITY);
    const double e43 = run_case(c, 4, WNN_KERNELS_AUTO, 1, -INFINITY, INFINITY);
    const double eg = im2col_error(c, WNN_KERNELS_AUTO);
    printf("  %zu -> %zu at %zux%zu: max |err| / max |y|: F(2,3) %.2e, F(4,3) %.2e, "
           "im2col+GEMM %.2e\n",
           c->in_c, c->out_c, c->in_h, c->in_w, e23, e43, eg);
    CHECK(e23 >= 0.0 && e23 < 1e-4);
    CHECK(e43 >= 0.0 && e43 < 1e-4);
  }
}

int main(void) {
  RUN(simd_transforms_match_scalar_bitwise);
  RUN(scalar_matches_direct_conv);
  RUN(auto_kernels_match_direct_conv);
  RUN(bias_and_clamp);
  RUN(default_entry_points);
  RUN(scratch_stays_bounded);
  RUN(applies_only_to_3x3_stride_1);
  RUN(error_on_model_like_layers);
  return test_summary();
}
