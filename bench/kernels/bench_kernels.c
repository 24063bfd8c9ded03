/*
 * Microbenchmark of the GEMM variants and of Conv 3x3 (im2col + GEMM), native:
 *   gcc -std=c11 -O2 -Iinclude -Isrc bench/kernels/bench_kernels.c \
 *       src/kernels/f32_gemm_4x4__scalar.c src/kernels/f32_im2col__scalar.c \
 *       -lm -o bench_kernels
 * (or every file of src/kernels). gcc's -O2 may auto-vectorize the scalar
 * tile natively; the wasm build without SIMD128 cannot.
 * One JSON line per case: {"kernel", "case", "m", "n", "k", "ms", "gflops"}.
 * Each case repeats until it has run for at least 0.2 s; the best repetition
 * counts. Not a test: it asserts nothing.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kernels/kernels.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float *filled(size_t n) {
  float *p = malloc(n * sizeof *p);
  uint32_t s = 1u;
  for (size_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    p[i] = (float)(s >> 8) / 16777216.0f - 0.5f;
  }
  return p;
}

typedef struct gemm_shape {
  const char *what;
  size_t m, n, k;
} gemm_shape;

/* M = output channels, N = output pixels, K = input channels * kernel size:
 * the GEMMs of 1x1 and 3x3 convolutions in SqueezeNet 1.1 and MobileNet v2
 * at 224x224, plus a fully connected layer (M = 1). */
static const gemm_shape SHAPES[] = {
    {"square 256", 256, 256, 256},
    {"squeezenet fire2 squeeze 1x1", 16, 55 * 55, 64},
    {"squeezenet fire2 expand 1x1", 64, 55 * 55, 16},
    {"squeezenet fire9 expand 1x1", 256, 13 * 13, 64},
    {"squeezenet conv10 1x1", 1000, 13 * 13, 512},
    {"mobilenetv2 block expand 1x1", 144, 56 * 56, 24},
    {"mobilenetv2 block project 1x1", 24, 56 * 56, 144},
    {"mobilenetv2 last 1x1", 1280, 7 * 7, 320},
    {"fully connected", 1, 1000, 1280},
};

static void bench_gemm(const char *name, wnn_f32_gemm_ukernel *fn, const gemm_shape *s) {
  float *a = filled(s->m * s->k), *b = filled(s->k * s->n), *c = filled(s->m * s->n);
  const wnn_f32_gemm_params p = {1.0f, 0.0f, -INFINITY, INFINITY};
  double best = 1e30, total = 0;
  for (int rep = 0; rep < 1000 && (total < 0.2 || rep < 3); rep++) {
    const double t0 = now_s();
    fn(s->m, s->n, s->k, a, s->k, 1, b, s->n, 1, NULL, c, s->n, &p);
    const double dt = now_s() - t0;
    total += dt;
    best = dt < best ? dt : best;
  }
  const double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k;
  printf("{\"kernel\":\"%s\",\"case\":\"%s\",\"m\":%zu,\"n\":%zu,\"k\":%zu,\"ms\":%.4f,"
         "\"gflops\":%.3f,\"check\":%g}\n",
         name, s->what, s->m, s->n, s->k, best * 1e3, flops / best * 1e-9, (double)c[0]);
  free(a), free(b), free(c);
}

/* Conv 3x3, pad 1, stride 1 on c x h x w into m channels: im2col + GEMM, as
 * the Conv op runs it. */
static void bench_conv3x3(const char *gemm_name, wnn_f32_gemm_ukernel *gemm,
                          wnn_f32_im2col_ukernel *im2col, size_t c, size_t h, size_t w,
                          size_t m) {
  const wnn_window2d win = {h, w, h, w, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  const size_t k = c * 9, n = h * w;
  float *x = filled(c * h * w), *wt = filled(m * k), *bias = filled(m);
  float *col = filled(k * n), *y = filled(m * n);
  const wnn_f32_gemm_params p = {1.0f, 0.0f, -INFINITY, INFINITY};
  double best = 1e30, total = 0;
  for (int rep = 0; rep < 1000 && (total < 0.2 || rep < 3); rep++) {
    const double t0 = now_s();
    im2col(c, x, col, &win);
    gemm(m, n, k, wt, k, 1, col, n, 1, bias, y, n, &p);
    const double dt = now_s() - t0;
    total += dt;
    best = dt < best ? dt : best;
  }
  const double flops = 2.0 * (double)m * (double)n * (double)k;
  printf("{\"kernel\":\"conv3x3 im2col+%s\",\"case\":\"%zux%zux%zu -> %zu\",\"m\":%zu,\"n\":%zu,"
         "\"k\":%zu,\"ms\":%.4f,\"gflops\":%.3f,\"check\":%g}\n",
         gemm_name, c, h, w, m, m, n, k, best * 1e3, flops / best * 1e-9, (double)y[0]);
  free(x), free(wt), free(bias), free(col), free(y);
}

int main(void) {
  for (size_t s = 0; s < sizeof SHAPES / sizeof SHAPES[0]; s++) {
#define WNN_F32_GEMM(name, isa, mr, nr) bench_gemm(#name, name, &SHAPES[s]);
#include "kernels/kernels.inc"
  }
#define WNN_F32_GEMM(name, isa, mr, nr)                                                   \
  bench_conv3x3(#name, name, wnn_f32_im2col__scalar, 64, 56, 56, 64);                     \
  bench_conv3x3(#name, name, wnn_f32_im2col__scalar, 3, 224, 224, 32);                    \
  bench_conv3x3(#name, name, wnn_f32_im2col__scalar, 128, 28, 28, 128);
#include "kernels/kernels.inc"
  return 0;
}
