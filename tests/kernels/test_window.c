/* Sliding-window kernels (im2col, depthwise conv, max and average pooling)
 * and the row kernels (global average pool, softmax) vs naive loops over
 * geometries with a single output, fewer pixels than a window, many windows,
 * pads on each side, strides and dilations. im2col and max are exact; the
 * others sum in the same order as the naive loops (depthwise, average) or
 * differ by expf/summation order (softmax, gavgpool): rtol 1e-5, atol 1e-6. */
#include <math.h>

#include "kernel_util.h"

static wnn_window2d geom(size_t ih, size_t iw, size_t kh, size_t kw, size_t s, size_t d,
                         size_t pt, size_t pl, size_t pb, size_t pr) {
  wnn_window2d w = {ih, iw, 0, 0, kh, kw, s, s, d, d, pt, pl, pb, pr};
  w.out_h = (ih + pt + pb - ((kh - 1) * d + 1)) / s + 1;
  w.out_w = (iw + pl + pr - ((kw - 1) * d + 1)) / s + 1;
  return w;
}

static const wnn_window2d *geoms(size_t *count) {
  static wnn_window2d g[8];
  g[0] = geom(3, 3, 3, 3, 1, 1, 0, 0, 0, 0);  /* one output */
  g[1] = geom(2, 2, 3, 3, 1, 1, 1, 1, 1, 1);  /* input smaller than the window */
  g[2] = geom(9, 11, 3, 3, 1, 1, 1, 1, 1, 1); /* many windows */
  g[3] = geom(10, 7, 3, 2, 2, 1, 0, 1, 2, 0); /* stride, uneven pads */
  g[4] = geom(9, 9, 3, 3, 1, 2, 2, 2, 2, 2);  /* dilation */
  g[5] = geom(1, 13, 1, 4, 3, 1, 0, 2, 0, 1); /* 1-D */
  g[6] = geom(8, 8, 1, 1, 2, 1, 0, 0, 0, 0);  /* 1x1 strided */
  g[7] = geom(6, 5, 2, 2, 3, 2, 1, 0, 0, 1);
  *count = 8;
  return g;
}

/* Input pixel for output (oy, ox) and tap (ky, kx), or NULL in the padding. */
static const float *tap(const float *x, const wnn_window2d *w, size_t oy, size_t ox, size_t ky,
                        size_t kx) {
  const long iy = (long)(oy * w->stride_h + ky * w->dil_h) - (long)w->pad_t;
  const long ix = (long)(ox * w->stride_w + kx * w->dil_w) - (long)w->pad_l;
  if (iy < 0 || ix < 0 || iy >= (long)w->in_h || ix >= (long)w->in_w) return NULL;
  return x + (size_t)iy * w->in_w + (size_t)ix;
}

TEST(im2col) {
  size_t ng;
  const wnn_window2d *g = geoms(&ng);
  for (size_t t = 0; t < ng; t++) {
    const wnn_window2d *w = &g[t];
    const size_t c = 3, cols = w->out_h * w->out_w, rows = c * w->k_h * w->k_w;
    float *x = rand_floats(c * w->in_h * w->in_w), *col = rand_floats(rows * cols);
    float *want = malloc(rows * cols * sizeof(float));
    for (size_t ch = 0; ch < c; ch++)
      for (size_t ky = 0; ky < w->k_h; ky++)
        for (size_t kx = 0; kx < w->k_w; kx++)
          for (size_t oy = 0; oy < w->out_h; oy++)
            for (size_t ox = 0; ox < w->out_w; ox++) {
              const float *p = tap(x + ch * w->in_h * w->in_w, w, oy, ox, ky, kx);
              want[((ch * w->k_h + ky) * w->k_w + kx) * cols + oy * w->out_w + ox] = p ? *p : 0;
            }
#define WNN_F32_IM2COL(name, isa) WNN_IF_ISA(isa, \
    name(c, x, col, w);           \
    CHECK(test_allclose(col, want, rows * cols, 0, 0));)
#include "kernels/kernels.inc"
    free(x), free(col), free(want);
  }
}

TEST(dwconv) {
  size_t ng;
  const wnn_window2d *g = geoms(&ng);
  for (size_t t = 0; t < ng; t++) {
    const wnn_window2d *w = &g[t];
    const size_t c = 5, in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
    float *x = rand_floats(c * in_plane), *k = rand_floats(c * w->k_h * w->k_w);
    float *bias = rand_floats(c), *y = rand_floats(c * out_plane);
    float *want = malloc(c * out_plane * sizeof(float));
    for (int with_bias = 0; with_bias < 2; with_bias++) {
      for (size_t ch = 0; ch < c; ch++)
        for (size_t oy = 0; oy < w->out_h; oy++)
          for (size_t ox = 0; ox < w->out_w; ox++) {
            float acc = 0.0f;
            for (size_t ky = 0; ky < w->k_h; ky++)
              for (size_t kx = 0; kx < w->k_w; kx++) {
                const float *p = tap(x + ch * in_plane, w, oy, ox, ky, kx);
                if (p) acc += k[(ch * w->k_h + ky) * w->k_w + kx] * *p;
              }
            want[ch * out_plane + oy * w->out_w + ox] = (with_bias ? bias[ch] : 0.0f) + acc;
          }
#define WNN_F32_DWCONV(name, isa) WNN_IF_ISA(isa, \
      name(c, x, k, with_bias ? bias : NULL, y, w); \
      CHECK(test_allclose(y, want, c * out_plane, 1e-5f, 1e-6f));)
#include "kernels/kernels.inc"
    }
    free(x), free(k), free(bias), free(y), free(want);
  }
}

static float naive_pool(const float *x, const wnn_window2d *w, size_t oy, size_t ox, bool max,
                        bool include_pad) {
  float m = -INFINITY, sum = 0.0f;
  size_t count = 0;
  for (size_t ky = 0; ky < w->k_h; ky++)
    for (size_t kx = 0; kx < w->k_w; kx++) {
      const float *p = tap(x, w, oy, ox, ky, kx);
      const size_t py = oy * w->stride_h + ky * w->dil_h, px = ox * w->stride_w + kx * w->dil_w;
      const bool in_padded = py < w->pad_t + w->in_h + w->pad_b && px < w->pad_l + w->in_w + w->pad_r;
      if (p) {
        m = *p > m ? *p : m;
        sum += *p;
      }
      count += include_pad ? in_padded : p != NULL;
    }
  return max ? m : (count ? sum / (float)count : 0.0f);
}

TEST(pools) {
  size_t ng;
  const wnn_window2d *g = geoms(&ng);
  for (size_t t = 0; t < ng; t++) {
    const size_t planes = 3;
    wnn_f32_pool2d_params params = {g[t], false};
    const wnn_window2d *w = &params.win;
    const size_t in_plane = w->in_h * w->in_w, out_plane = w->out_h * w->out_w;
    float *x = rand_floats(planes * in_plane), *y = rand_floats(planes * out_plane);
    float *want = malloc(planes * out_plane * sizeof(float));
    for (int include = 0; include < 2; include++) {
      params.count_include_pad = include;
      for (int max = 0; max < 2; max++) {
        for (size_t c = 0; c < planes; c++)
          for (size_t oy = 0; oy < w->out_h; oy++)
            for (size_t ox = 0; ox < w->out_w; ox++)
              want[c * out_plane + oy * w->out_w + ox] =
                  naive_pool(x + c * in_plane, w, oy, ox, max, include);
#define WNN_F32_POOL2D(name, isa, op)                                  \
        WNN_IF_ISA(isa, if ((max == 1) == (WNN_POOL_KIND_##op == 0)) { \
          name(planes, x, y, &params);                                 \
          CHECK(test_allclose(y, want, planes * out_plane, 1e-5f, 1e-6f)); \
        })
#define WNN_POOL_KIND_MAX 0
#define WNN_POOL_KIND_AVG 1
#include "kernels/kernels.inc"
      }
    }
    free(x), free(y), free(want);
  }
}

TEST(gavgpool) {
  const size_t shapes[][2] = {{1, 1}, {3, 3}, {2, 4}, {5, 17}, {2, 1000}};
  for (size_t s = 0; s < 5; s++) {
    const size_t rows = shapes[s][0], n = shapes[s][1];
    float *x = rand_floats(rows * n), *y = rand_floats(rows), *want = malloc(rows * sizeof(float));
    for (size_t r = 0; r < rows; r++) {
      double sum = 0;
      for (size_t i = 0; i < n; i++) sum += x[r * n + i];
      want[r] = (float)(sum / (double)n);
    }
#define WNN_F32_GAVGPOOL(name, isa) WNN_IF_ISA(isa, \
    name(rows, n, x, y);            \
    CHECK(test_allclose(y, want, rows, 1e-5f, 1e-6f));)
#include "kernels/kernels.inc"
    free(x), free(y), free(want);
  }
}

TEST(softmax) {
  const size_t shapes[][2] = {{1, 1}, {4, 1}, {7, 1}, {5, 3}, {1000, 1}, {9, 4}};
  for (size_t s = 0; s < 6; s++) {
    const size_t n = shapes[s][0], stride = shapes[s][1];
    float *x = rand_floats(n * stride), *y = rand_floats(n * stride);
    float *want = malloc(n * stride * sizeof(float));
    for (size_t i = 0; i < n * stride; i++) x[i] *= 10.0f, want[i] = y[i];
    double max = -INFINITY, sum = 0;
    for (size_t i = 0; i < n; i++) max = x[i * stride] > max ? x[i * stride] : max;
    for (size_t i = 0; i < n; i++) sum += exp(x[i * stride] - max);
    for (size_t i = 0; i < n; i++) want[i * stride] = (float)(exp(x[i * stride] - max) / sum);
    /* Elements between the strided ones stay untouched; then in place. */
#define WNN_F32_SOFTMAX(name, isa) WNN_IF_ISA(isa,          \
    name(n, stride, x, y);                                  \
    CHECK(test_allclose(y, want, n * stride, 1e-5f, 1e-6f)); \
    for (size_t i = 0; i < n; i++) y[i * stride] = x[i * stride]; \
    name(n, stride, y, y);                                  \
    CHECK(test_allclose(y, want, n * stride, 1e-5f, 1e-6f));)
#include "kernels/kernels.inc"
    free(x), free(y), free(want);
  }
}

int main(void) {
  RUN(im2col);
  RUN(dwconv);
  RUN(pools);
  RUN(gavgpool);
  RUN(softmax);
  return test_summary();
}
