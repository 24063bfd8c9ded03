/*
 * Microbenchmark of every f32 variant of kernels.inc's core families (the
 * GEMM through its driver with each instruction set's kernels, Conv 3x3 as
 * im2col + GEMM, element-wise, depthwise conv, pools, softmax,
 * layer normalization, 2-D transpose of 4-byte elements, float16 <-> float32)
 * and of the machine's peak mul+add throughput, natively or as a WASI module.
 *
 * Native (scalar variants only):
 *   cmake --build build/native && build/native/bench/bench_kernels
 * wasm with SIMD128 (scalar and SIMD variants, and the SIMD128 peak):
 *   clang --target=wasm32-wasi -nostdlibinc -isystem /usr/include/wasm32-wasi \
 *       -O3 -msimd128 -ffp-contract=off -Iinclude -Isrc -isystem .deps/include \
 *       bench/kernels/bench_kernels.c src/ops/gemm_driver.c src/ops/select.c \
 *       src/ops/qgemm_driver.c src/kernels/[fqsx]*.c -lm -o /tmp/bench_kernels.wasm
 *   node wasm/run-wasi.mjs /tmp/bench_kernels.wasm
 * (bench/kernels/run-wasm.sh does both steps.)
 *
 * One JSON line per case: {"kernel", "case", "m", "n", "k", "ms", "gflops"}
 * ("gflops", or "gelem_per_s" / "gout_per_s": elements or outputs per ns)
 * and, for the GEMMs, "of_peak": the fraction of the peak measured by the
 * "peak" lines (a mul+add loop on independent accumulators: 4-lane v128 in
 * SIMD128 builds, plain floats otherwise). Each case repeats until it has run
 * for at least 0.2 s; the best repetition counts. Not a test: it asserts
 * nothing.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/kernels.h"
#include "ops/op_internal.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

static double peak_gflops; /* the best of the peak loops */

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

/* Peak mul+add throughput: 12 independent chains of x = x * m + d, so that
 * the latency of each chain hides behind the others and only the issue rate
 * of multiplies and adds limits the loop. 2 flops per lane per step. The loop
 * is a function called many times, not one long loop: V8 runs a wasm function
 * in its baseline compiler until a later call finds the optimized code ready
 * (there is no on-stack replacement for wasm). */
enum { PEAK_STEPS = 20000, PEAK_CALLS = 100 };

__attribute__((noinline)) static void peak_scalar_steps(float *x, float m, float d) {
  float x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5];
  float x6 = x[6], x7 = x[7], x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11];
  for (int s = 0; s < PEAK_STEPS; s++) {
#define STEP(v) v = v * m + d
    STEP(x0), STEP(x1), STEP(x2), STEP(x3), STEP(x4), STEP(x5);
    STEP(x6), STEP(x7), STEP(x8), STEP(x9), STEP(x10), STEP(x11);
#undef STEP
  }
  x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3, x[4] = x4, x[5] = x5;
  x[6] = x6, x[7] = x7, x[8] = x8, x[9] = x9, x[10] = x10, x[11] = x11;
}

static void bench_peak_scalar(void) {
  volatile float vm = 0.999f, vd = 0.001f;
  float x[12];
  for (int i = 0; i < 12; i++) x[i] = (float)i;
  double best = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    const double t0 = now_s();
    for (int c = 0; c < PEAK_CALLS; c++) peak_scalar_steps(x, vm, vd);
    const double dt = now_s() - t0;
    best = dt < best ? dt : best;
  }
  const double gflops = 2.0 * 12 * PEAK_STEPS * PEAK_CALLS / best * 1e-9;
  if (gflops > peak_gflops) peak_gflops = gflops;
  printf("{\"kernel\":\"peak mul+add scalar\",\"case\":\"12 chains\",\"ms\":%.4f,"
         "\"gflops\":%.3f,\"check\":%g}\n", best * 1e3, gflops, (double)x[5]);
}

#if defined(__wasm_simd128__)
/* The 12 chains, 4 lanes each, one step of each per iteration: STEP(v) is
 * the step (mul then add; relaxed SIMD's multiply-add below). */
#define PEAK_V128_STEPS(name, STEP)                                                  \
  __attribute__((noinline)) static void name(v128_t *x, float fm, float fd) {        \
    const v128_t m = wasm_f32x4_splat(fm), d = wasm_f32x4_splat(fd);                 \
    v128_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5];         \
    v128_t x6 = x[6], x7 = x[7], x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11];     \
    for (int s = 0; s < PEAK_STEPS; s++) {                                           \
      STEP(x0), STEP(x1), STEP(x2), STEP(x3), STEP(x4), STEP(x5);                    \
      STEP(x6), STEP(x7), STEP(x8), STEP(x9), STEP(x10), STEP(x11);                  \
    }                                                                                \
    x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3, x[4] = x4, x[5] = x5;                \
    x[6] = x6, x[7] = x7, x[8] = x8, x[9] = x9, x[10] = x10, x[11] = x11;            \
  }

#define MUL_ADD_STEP(v) v = wasm_f32x4_add(wasm_f32x4_mul(v, m), d)
PEAK_V128_STEPS(peak_simd128_steps, MUL_ADD_STEP)
#if defined(__wasm_relaxed_simd__)
/* One instruction, and one rounding where the engine fuses it: the peak of
 * dist/wnn-relaxed.wasm's kernels, so its GEMM lines are fractions of it. */
#define MADD_STEP(v) v = wasm_f32x4_relaxed_madd(v, m, d)
PEAK_V128_STEPS(peak_relaxed_steps, MADD_STEP)
#endif

/* Times `steps` and prints its line as `kernel`. */
static void bench_peak_v128(const char *kernel, void (*steps)(v128_t *, float, float)) {
  volatile float vm = 0.999f, vd = 0.001f;
  v128_t x[12];
  for (int i = 0; i < 12; i++) x[i] = wasm_f32x4_splat((float)i);
  double best = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    const double t0 = now_s();
    for (int c = 0; c < PEAK_CALLS; c++) steps(x, vm, vd);
    const double dt = now_s() - t0;
    best = dt < best ? dt : best;
  }
  const double gflops = 2.0 * 4 * 12 * PEAK_STEPS * PEAK_CALLS / best * 1e-9;
  if (gflops > peak_gflops) peak_gflops = gflops;
  printf("{\"kernel\":\"%s\",\"case\":\"12 chains x 4 lanes\",\"ms\":%.4f,"
         "\"gflops\":%.3f,\"check\":%g}\n", kernel, best * 1e3, gflops,
         (double)wasm_f32x4_extract_lane(x[5], 0));
}
#endif

typedef struct gemm_shape {
  const char *what;
  size_t m, n, k;
  bool trans_b; /* B stored n x k, as Gemm with transB = 1 */
} gemm_shape;

/* M = output channels, N = output pixels, K = input channels * kernel size:
 * the GEMMs of 1x1 and 3x3 convolutions in SqueezeNet 1.1 and MobileNet v2
 * at 224x224, plus fully connected layers (M = 1; 48 outputs: fewer than
 * WNN_F32_GEMM_ROW_STREAM_MIN, so the 1x16 tiles rather than row streaming). */
static const gemm_shape SHAPES[] = {
    {"square 256", 256, 256, 256, false},
    {"squeezenet fire2 squeeze 1x1", 16, 55 * 55, 64, false},
    {"squeezenet fire2 expand 1x1", 64, 55 * 55, 16, false},
    {"squeezenet fire9 expand 1x1", 256, 13 * 13, 64, false},
    {"squeezenet conv10 1x1", 1000, 13 * 13, 512, false},
    {"mobilenetv2 block expand 1x1", 144, 56 * 56, 24, false},
    {"mobilenetv2 block project 1x1", 24, 56 * 56, 144, false},
    {"mobilenetv2 last 1x1", 1280, 7 * 7, 320, false},
    {"fully connected (MatMul)", 1, 1000, 1280, false},
    {"narrow fully connected (MatMul, 1x16 tiles)", 1, 48, 1280, false},
    {"fully connected (Gemm transB)", 1, 1000, 1280, true},
    {"batch-8 fully connected (Gemm transB)", 8, 1000, 1280, true},
};

/* The GEMM as the ops call it: the driver (src/ops/gemm_driver.c) with the
 * tiles one wnn_kernels setting selects. */
typedef struct gemm_driver {
  const char *name;
  wnn_kernels kernels;
  wnn_f32_im2col_tile_ukernel *im2col; /* the same instruction set's, for Conv */
} gemm_driver;
static const gemm_driver GEMMS[] = {
    {"f32_gemm scalar tiles", WNN_KERNELS_SCALAR, wnn_f32_im2col_tile__scalar},
#if defined(__wasm_simd128__)
    {"f32_gemm wasmsimd tiles", WNN_KERNELS_AUTO, wnn_f32_im2col_tile__wasmsimd},
#endif
};
#define NUM_GEMMS (sizeof GEMMS / sizeof GEMMS[0])

static void bench_gemm(const gemm_driver *d, const gemm_shape *s) {
  const char *name = d->name;
  const wnn_f32_gemm_config g = wnn_select_f32_gemm(d->kernels);
  float *a = filled(s->m * s->k), *b = filled(s->k * s->n), *c = filled(s->m * s->n);
  const wnn_f32_gemm_params p = {1.0f, 0.0f, -INFINITY, INFINITY};
  double best = 1e30, total = 0;
  for (int rep = 0; rep < 1000 && (total < 0.2 || rep < 3); rep++) {
    const double t0 = now_s();
    if (s->trans_b)
      wnn_f32_gemm(&g, s->m, s->n, s->k, a, s->k, 1, b, 1, s->k, NULL, c, s->n, &p);
    else
      wnn_f32_gemm(&g, s->m, s->n, s->k, a, s->k, 1, b, s->n, 1, NULL, c, s->n, &p);
    const double dt = now_s() - t0;
    total += dt;
    best = dt < best ? dt : best;
  }
  const double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k;
  printf("{\"kernel\":\"%s\",\"case\":\"%s\",\"m\":%zu,\"n\":%zu,\"k\":%zu,\"ms\":%.4f,"
         "\"gflops\":%.3f,\"of_peak\":%.3f,\"check\":%g}\n",
         name, s->what, s->m, s->n, s->k, best * 1e3, flops / best * 1e-9,
         flops / best * 1e-9 / peak_gflops, (double)c[0]);
  free(a), free(b), free(c);
}

/* Conv 3x3, pad 1, stride 1 on c x h x w into m channels: im2col + GEMM, as
 * the Conv op runs it, over tiles of `tile` output pixels (0: all of them,
 * one K x H*W im2col matrix, as Conv did before it tiled). */
static void bench_conv3x3(const gemm_driver *d, size_t c, size_t h, size_t w, size_t m,
                          size_t tile) {
  const char *gemm_name = d->name;
  const wnn_f32_gemm_config g = wnn_select_f32_gemm(d->kernels);
  wnn_f32_im2col_tile_ukernel *im2col = d->im2col;
  const wnn_window2d win = {h, w, h, w, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  const size_t k = c * 9, n = h * w, t = tile && tile < n ? tile : n;
  float *x = filled(c * h * w), *wt = filled(m * k), *bias = filled(m);
  float *col = filled(k * t), *y = filled(m * n);
  const wnn_f32_gemm_params p = {1.0f, 0.0f, -INFINITY, INFINITY};
  double best = 1e30, total = 0;
  for (int rep = 0; rep < 1000 && (total < 0.2 || rep < 3); rep++) {
    const double t0 = now_s();
    for (size_t p0 = 0; p0 < n; p0 += t) {
      const size_t np = n - p0 < t ? n - p0 : t;
      im2col(c, x, p0, np, col, &win);
      wnn_f32_gemm(&g, m, np, k, wt, k, 1, col, np, 1, bias, y + p0, n, &p);
    }
    const double dt = now_s() - t0;
    total += dt;
    best = dt < best ? dt : best;
  }
  const double flops = 2.0 * (double)m * (double)n * (double)k;
  char tile_s[32];
  if (t == n) snprintf(tile_s, sizeof tile_s, "untiled");
  else snprintf(tile_s, sizeof tile_s, "tile %zu", t);
  printf("{\"kernel\":\"conv3x3 im2col+%s\",\"case\":\"%zux%zux%zu -> %zu, %s\",\"m\":%zu,"
         "\"n\":%zu,\"k\":%zu,\"ms\":%.4f,\"gflops\":%.3f,\"of_peak\":%.3f,\"check\":%g}\n",
         gemm_name, c, h, w, m, tile_s, m, n, k, best * 1e3, flops / best * 1e-9,
         flops / best * 1e-9 / peak_gflops, (double)y[0]);
  free(x), free(wt), free(bias), free(col), free(y);
}

/* The tile Conv chooses for K rows (src/ops/conv.c: a K x tile panel of at
 * most TILE_BYTES, a multiple of 32 pixels). */
static size_t conv_tile(size_t k, size_t budget) {
  size_t t = budget / sizeof(float) / k / 32 * 32;
  return t < 32 ? 32 : t;
}

/* ------------------------------------------------ the other kernels */

/* Times `body` (a statement) like the GEMMs: best of repetitions totalling at
 * least 0.2 s; prints one line with its rate in `units` per second. */
#define TIME_CASE(kernel, what, work, units, body)                                     \
  do {                                                                                 \
    double best_ = 1e30, total_ = 0;                                                   \
    for (int rep_ = 0; rep_ < 100000 && (total_ < 0.2 || rep_ < 3); rep_++) {          \
      const double t0_ = now_s();                                                      \
      body;                                                                            \
      const double dt_ = now_s() - t0_;                                                \
      total_ += dt_;                                                                   \
      best_ = dt_ < best_ ? dt_ : best_;                                               \
    }                                                                                  \
    printf("{\"kernel\":\"%s\",\"case\":\"%s\",\"ms\":%.4f,\"%s\":%.3f}\n", kernel, what,      \
           best_ * 1e3, units, (double)(work) / best_ * 1e-9);                         \
  } while (0)

/* The math rows (kernels_math.inc) of the ops with SIMD128 polynomials. */
#define WNN_F32_VMATH(name, isa, op) wnn_f32_vmath_ukernel name;
#include "kernels/kernels_math.inc"

static bool vmath_timed(int op) {
  return op == WNN_VMATH_EXP || op == WNN_VMATH_TANH || op == WNN_VMATH_ERF ||
         op == WNN_VMATH_GELU || op == WNN_VMATH_GELU_TANH;
}

static void bench_elementwise(void) {
  enum { N = 1 << 16 };
  float *a = filled(N), *b = filled(N), *y = filled(N);
  const wnn_f32_unary_params up = {-0.25f, 0.25f};
#define WNN_F32_VBINARY(name, isa, op, kind) \
  WNN_IF_ISA(isa, TIME_CASE(#name, "n=65536", N, "gelem_per_s", name(N, a, b, y));)
#define WNN_F32_VUNARY(name, isa, op) \
  WNN_IF_ISA(isa, TIME_CASE(#name, "n=65536", N, "gelem_per_s", name(N, a, y, &up));)
#include "kernels/kernels.inc"
  /* exp, tanh, erf, GELU on x in [-8, 8) (every branch of the polynomials)
   * and in [-1, 1) (typical activations; erf's small-argument branch). */
  float *xm = filled(N), *xs = filled(N);
  for (size_t i = 0; i < N; i++) xm[i] *= 16.0f, xs[i] *= 2.0f;
#define WNN_F32_VMATH(name, isa, op) WNN_IF_ISA(isa, if (vmath_timed(WNN_VMATH_##op)) { \
  TIME_CASE(#name, "n=65536, x in [-8, 8)", N, "gelem_per_s", name(N, xm, y, NULL));   \
  TIME_CASE(#name, "n=65536, x in [-1, 1)", N, "gelem_per_s", name(N, xs, y, NULL)); })
#include "kernels/kernels_math.inc"
  free(xm), free(xs);
  /* Conv's fused activations, in place over 64 rows of 1024 (a GEMM tile). */
  const wnn_f32_act_params hswish = {WNN_ACT_HARDSWISH, 0, 0}, silu = {WNN_ACT_SILU, 0, 0};
#define WNN_F32_ACT(name, isa) WNN_IF_ISA(isa,                                           \
  TIME_CASE(#name, "hardswish 64x1024", N, "gelem_per_s", name(64, 1024, y, 1024, &hswish)); \
  TIME_CASE(#name, "silu 64x1024", N, "gelem_per_s", name(64, 1024, y, 1024, &silu));)
#include "kernels/kernels.inc"
  free(a), free(b), free(y);
}

/* MobileNet v2's depthwise 3x3 layers (stride 1 and 2) and SqueezeNet's
 * pools, at 224x224. */
static wnn_window2d square_window(size_t in, size_t k, size_t stride, size_t pad, bool ceil_mode) {
  const size_t span = in + 2 * pad - k;
  const size_t out = (span + (ceil_mode ? stride - 1 : 0)) / stride + 1;
  const wnn_window2d w = {in, in, out, out, k, k, stride, stride, 1, 1, pad, pad, pad, pad};
  return w;
}

static void bench_windows(void) {
  static const struct { const char *what; size_t c, in, stride; } DW[] = {
      {"mobilenetv2 dw3x3 s1 144x56x56", 144, 56, 1},
      {"mobilenetv2 dw3x3 s2 96x112x112", 96, 112, 2},
      {"mobilenetv2 dw3x3 s1 576x14x14", 576, 14, 1},
  };
  for (size_t i = 0; i < sizeof DW / sizeof DW[0]; i++) {
    const wnn_window2d w = square_window(DW[i].in, 3, DW[i].stride, 1, false);
    float *x = filled(DW[i].c * w.in_h * w.in_w), *k = filled(DW[i].c * 9), *bias = filled(DW[i].c);
    float *y = filled(DW[i].c * w.out_h * w.out_w);
    const double flops = 2.0 * 9 * (double)(DW[i].c * w.out_h * w.out_w);
#define WNN_F32_DWCONV(name, isa) \
    WNN_IF_ISA(isa, TIME_CASE(#name, DW[i].what, flops, "gflops", name(DW[i].c, x, k, bias, y, &w));)
#include "kernels/kernels.inc"
    free(x), free(k), free(bias), free(y);
  }
  {
    /* SqueezeNet 1.1's first max pool (3x3 s2, ceil) and an average pool. */
    const wnn_f32_pool2d_params p = {square_window(111, 3, 2, 0, true), false};
    const wnn_f32_pool2d_params q = {square_window(56, 3, 1, 1, false), false};
    float *x = filled(64 * 111 * 111), *y = filled(64 * 111 * 111);
#define WNN_F32_POOL2D(name, isa, op) WNN_IF_ISA(isa,                                      \
    TIME_CASE(#name, "3x3 s2 ceil 64x111x111", 64 * p.win.out_h * p.win.out_w, "gout_per_s", \
              name(64, x, y, &p));                                                       \
    TIME_CASE(#name, "3x3 s1 pad1 64x56x56", 64 * q.win.out_h * q.win.out_w, "gout_per_s",   \
              name(64, x, y, &q));)
#include "kernels/kernels.inc"
    free(x), free(y);
  }
  {
    float *x = filled(1280 * 49), *y = filled(1280);
#define WNN_F32_GAVGPOOL(name, isa) \
    WNN_IF_ISA(isa, TIME_CASE(#name, "1280 x 7x7", 1280 * 49, "gelem_per_s", name(1280, 49, x, y));)
#define WNN_F32_SOFTMAX(name, isa) \
    WNN_IF_ISA(isa, TIME_CASE(#name, "n=1000", 1000, "gelem_per_s", name(1000, 1, x, y));)
#include "kernels/kernels.inc"
    free(x), free(y);
  }
}

/* Layer normalization of rows of n (a transformer's hidden sizes; about
 * 64K elements per call), and 2-D transposes of 4-byte elements as the
 * Transpose op calls them: one kernel call per plane of (the output's
 * innermost dim) x (the input's innermost dim). "gather rows" is the loop
 * Transpose ran before the kernels (each output row gathered at the input's
 * stride, no tiles). */
static void gather_rows_transpose(size_t rows, size_t cols, const uint32_t *x, size_t x_stride,
                                  uint32_t *y, size_t y_stride) {
  for (size_t j = 0; j < cols; j++)
    for (size_t i = 0; i < rows; i++) memcpy(y + j * y_stride + i, x + i * x_stride + j, 4);
}

static void bench_norm_transpose(void) {
  static const size_t LN_N[] = {64, 768, 4096};
  for (size_t c = 0; c < sizeof LN_N / sizeof LN_N[0]; c++) {
    const size_t n = LN_N[c], rows = (65536 + n - 1) / n;
    float *x = filled(rows * n), *y = filled(rows * n), *scale = filled(n), *bias = filled(n);
    float mean[1024], inv[1024];
    char what[64];
    snprintf(what, sizeof what, "%zu rows x n=%zu", rows, n);
#define WNN_F32_LAYERNORM(name, isa) WNN_IF_ISA(isa, TIME_CASE(#name, what, rows * n, \
    "gelem_per_s", name(rows, n, x, scale, bias, y, mean, inv, 1e-5f));)
#include "kernels/kernels_nn.inc"
    free(x), free(y), free(scale), free(bias);
  }
  /* planes x (rows x cols), x_stride and y_stride, and the planes' offsets. */
  static const struct {
    const char *what;
    size_t planes, rows, cols, xs, ys, x_step, y_step;
  } TR[] = {
      {"1x64x56x56 NCHW -> NHWC", 1, 64, 3136, 3136, 64, 0, 0},
      {"1x56x56x64 NHWC -> NCHW", 1, 3136, 64, 64, 3136, 0, 0},
      {"4x8x64 [S,N,hd] -> [N,hd,S]", 8, 4, 64, 512, 4, 64, 256},
      {"8x32x64 K^T [N,S,hd] -> [N,hd,S]", 8, 32, 64, 64, 32, 2048, 2048},
      {"512x512 2-D", 1, 512, 512, 512, 512, 0, 0},
  };
  for (size_t c = 0; c < sizeof TR / sizeof TR[0]; c++) {
    const size_t count = TR[c].planes * TR[c].rows * TR[c].cols;
    uint32_t *x = malloc(count * sizeof *x), *y = malloc(count * sizeof *y);
    for (size_t i = 0; i < count; i++) x[i] = (uint32_t)i * 2654435761u;
#define TRANSPOSE_CASE(name, isa) WNN_IF_ISA(isa, TIME_CASE(#name, TR[c].what, count,        \
    "gelem_per_s", for (size_t p_ = 0; p_ < TR[c].planes; p_++)                           \
      name(TR[c].rows, TR[c].cols, x + p_ * TR[c].x_step, TR[c].xs, y + p_ * TR[c].y_step,   \
           TR[c].ys));)
    TRANSPOSE_CASE(gather_rows_transpose, SCALAR)
#define WNN_X32_TRANSPOSE(name, isa) TRANSPOSE_CASE(name, isa)
#include "kernels/kernels_tensor.inc"
#undef TRANSPOSE_CASE
    free(x), free(y);
  }
  /* Resize's nearest 2x upsampling of one 80-pixel row, 96 x 80 rows (the
   * PP-OCR det neck), as Resize calls the repeat kernel: once per row. */
  {
    float *x = filled(96 * 80 * 80), *y = filled(96 * 80 * 80 * 2);
#define WNN_F32_REPEAT(name, isa) WNN_IF_ISA(isa, TIME_CASE(#name, "2x of 7680 rows of 80", \
    96 * 80 * 80 * 2, "gelem_per_s",                                                       \
    for (size_t r_ = 0; r_ < 96 * 80; r_++) name(80, 2, x + r_ * 80, y + r_ * 160));)
#include "kernels/kernels.inc"
    free(x), free(y);
  }
}

/* float16 <-> float32 (Cast at a float16 model's inputs and outputs): one
 * 3x640x640 image. */
static void bench_cvt_f16(void) {
  const size_t n = 3 * 640 * 640;
  float *f = filled(n);
  uint16_t *h = malloc(n * sizeof *h);
  for (size_t i = 0; i < n; i++) h[i] = (uint16_t)(0x3c00u ^ (i * 2654435761u >> 22));
#define WNN_F16_F32_VCVT(name, isa) \
    WNN_IF_ISA(isa, TIME_CASE(#name, "3x640x640", n, "gelem_per_s", name(n, h, f));)
#define WNN_F32_F16_VCVT(name, isa) \
    WNN_IF_ISA(isa, TIME_CASE(#name, "3x640x640", n, "gelem_per_s", name(n, f, h));)
#include "kernels/kernels_tensor.inc"
  free(f), free(h);
}

/* The first layers of the benchmark's models (1-3 input channels, K = 25 to
 * 147): im2col + GEMM as Conv runs them (tiles of at most 256 KiB). GFLOP/s
 * counts 2 * M * pixels * K. */
static void bench_first_layers(void) {
  static const struct { const char *what; size_t c, h, w, m, k, s, pad; } L[] = {
      {"yolox 3x640x640 -> 16, 6x6 s2", 3, 640, 640, 16, 6, 2, 2},
      {"resnet 3x224x224 -> 64, 7x7 s2", 3, 224, 224, 64, 7, 2, 3},
      {"mobilenet 3x224x224 -> 32, 3x3 s2", 3, 224, 224, 32, 3, 2, 1},
      {"ultraface 3x240x320 -> 16, 3x3 s2", 3, 240, 320, 16, 3, 2, 1},
      {"mnist 1x28x28 -> 8, 5x5 s1", 1, 28, 28, 8, 5, 1, 2},
  };
  for (size_t i = 0; i < sizeof L / sizeof L[0]; i++) {
    wnn_window2d w = {0};
    w.in_h = L[i].h, w.in_w = L[i].w, w.k_h = w.k_w = L[i].k;
    w.stride_h = w.stride_w = L[i].s, w.dil_h = w.dil_w = 1;
    w.pad_t = w.pad_l = w.pad_b = w.pad_r = L[i].pad;
    w.out_h = (L[i].h + 2 * L[i].pad - L[i].k) / L[i].s + 1;
    w.out_w = (L[i].w + 2 * L[i].pad - L[i].k) / L[i].s + 1;
    const size_t k = L[i].c * L[i].k * L[i].k, pixels = w.out_h * w.out_w, m = L[i].m;
    const size_t tile = conv_tile(k, 256 * 1024) < pixels ? conv_tile(k, 256 * 1024) : pixels;
    float *x = filled(L[i].c * L[i].h * L[i].w), *wt = filled(m * k), *bias = filled(m);
    float *y = filled(m * pixels), *col = filled(k * tile);
    const wnn_f32_gemm_params gp = {1.0f, 0.0f, -INFINITY, INFINITY};
    const double flops = 2.0 * (double)m * (double)pixels * (double)k;
    for (size_t d = 0; d < NUM_GEMMS; d++) {
      const wnn_f32_gemm_config g = wnn_select_f32_gemm(GEMMS[d].kernels);
      char label[64];
      snprintf(label, sizeof label, "im2col+%s", GEMMS[d].name);
      TIME_CASE(label, L[i].what, flops, "gflops",
                for (size_t p0 = 0; p0 < pixels; p0 += tile) {
                  const size_t np = pixels - p0 < tile ? pixels - p0 : tile;
                  GEMMS[d].im2col(L[i].c, x, p0, np, col, &w);
                  wnn_f32_gemm(&g, m, np, k, wt, k, 1, col, np, 1, bias, y + p0, pixels, &gp);
                });
    }
    free(x), free(wt), free(bias), free(y), free(col);
  }
}

/* The int8 kernels: QuantizeLinear / DequantizeLinear / DynamicQuantizeLinear's
 * range on 1M elements ("gbytes_per_s": bytes read + written, 5 per element
 * for float <-> 8-bit, 8 for int32 -> float, 4 for the range), and the int8
 * depthwise convolution on MobileNetV2's and EfficientNet-B0's depthwise
 * layers, next to the float kernel on the same shapes ("gflops": 2 * taps *
 * outputs, integer or float operations). */
static void bench_quant(void) {
  enum { N = 1 << 20 };
  float *x = filled(N), *y = filled(N);
  for (size_t i = 0; i < N; i++) x[i] *= 200.0f;
  uint8_t *q = malloc(N);
  int32_t *q32 = malloc(N * sizeof *q32);
  for (size_t i = 0; i < N; i++) q[i] = (uint8_t)(i * 2654435761u >> 24), q32[i] = (int32_t)(i * 2654435761u);
  const wnn_f32_q8_cvt_params qp = {0.75f, 3.0f};
  const wnn_q8_f32_cvt_params dp = {3, 0.75f}, dp32 = {0, 0.75f};
  float lo, hi;
#define WNN_F32_QU8_VCVT(name, isa) \
  WNN_IF_ISA(isa, TIME_CASE(#name, "n=1M", 5.0 * N, "gbytes_per_s", name(N, x, q, &qp));)
#define WNN_F32_QS8_VCVT(name, isa) \
  WNN_IF_ISA(isa, TIME_CASE(#name, "n=1M", 5.0 * N, "gbytes_per_s", name(N, x, (int8_t *)q, &qp));)
#define WNN_QU8_F32_VCVT(name, isa) \
  WNN_IF_ISA(isa, TIME_CASE(#name, "n=1M", 5.0 * N, "gbytes_per_s", name(N, q, y, &dp));)
#define WNN_QS8_F32_VCVT(name, isa) \
  WNN_IF_ISA(isa, TIME_CASE(#name, "n=1M", 5.0 * N, "gbytes_per_s", name(N, (int8_t *)q, y, &dp));)
#define WNN_S32_F32_VCVT(name, isa) \
  WNN_IF_ISA(isa, TIME_CASE(#name, "n=1M zp 0", 8.0 * N, "gbytes_per_s", name(N, q32, y, &dp32)); \
                  TIME_CASE(#name, "n=1M zp 3", 8.0 * N, "gbytes_per_s", name(N, q32, y, &dp));)
#define WNN_F32_QRANGE(name, isa) \
  WNN_IF_ISA(isa, TIME_CASE(#name, "n=1M", 4.0 * N, "gbytes_per_s", name(N, x, &lo, &hi));)
#include "kernels/kernels.inc"
  free(x), free(y), free(q), free(q32);

  static const struct { const char *what; size_t c, in, k, stride; } DW[] = {
      {"mobilenetv2 dw3x3 s1 144x56x56", 144, 56, 3, 1},
      {"mobilenetv2 dw3x3 s2 96x112x112", 96, 112, 3, 2},
      {"mobilenetv2 dw3x3 s1 576x14x14", 576, 14, 3, 1},
      {"mobilenetv2 dw3x3 s1 960x7x7", 960, 7, 3, 1},
      {"efficientnet dw5x5 s1 240x28x28", 240, 28, 5, 1},
      {"efficientnet dw5x5 s2 144x56x56", 144, 56, 5, 2},
  };
  for (size_t i = 0; i < sizeof DW / sizeof DW[0]; i++) {
    const size_t c = DW[i].c, k = DW[i].k;
    const wnn_window2d w = square_window(DW[i].in, k, DW[i].stride, k / 2, false);
    const size_t in_plane = w.in_h * w.in_w, out_plane = w.out_h * w.out_w;
    float *xf = filled(c * in_plane), *kf = filled(c * k * k), *bf = filled(c);
    float *yf = filled(c * out_plane);
    uint8_t *xq = malloc(c * in_plane), *yq = malloc(c * out_plane);
    int8_t *wq = malloc(c * k * k);
    for (size_t j = 0; j < c * in_plane; j++) xq[j] = (uint8_t)(j * 2654435761u >> 24);
    for (size_t j = 0; j < c * k * k; j++) wq[j] = (int8_t)(j * 2654435761u >> 24);
    const wnn_qs8_dwconv_params p = {.win = w, .x_zero_point = 128, .y_zero_point = 128.0f,
                                     .y_min = 0.0f, .y_max = 255.0f};
    const double ops = 2.0 * (double)(k * k * c * out_plane);
#define WNN_F32_DWCONV(name, isa) \
    WNN_IF_ISA(isa, TIME_CASE(#name, DW[i].what, ops, "gflops", name(c, xf, kf, bf, yf, &w));)
#define WNN_QS8_DWCONV(name, isa) \
    WNN_IF_ISA(isa, TIME_CASE(#name, DW[i].what, ops, "gflops", for (size_t ch = 0; ch < c; ch++) \
      name(xq + ch * in_plane, wq + ch * k * k, 1000, 0.001f, yq + ch * out_plane, &p));)
#include "kernels/kernels.inc"
    free(xf), free(kf), free(bf), free(yf), free(xq), free(yq), free(wq);
  }
}

/* ------------------------------------------------------------ int8 GEMM */

/* Peak of the int8 GEMM's inner step: 12 independent chains of
 * acc = acc + dot_i16x8(acc, m) (i32x4.dot_i16x8_s then i32x4.add), 8
 * multiply-adds = 16 ops per chain and step. */
#if defined(__wasm_simd128__)
__attribute__((noinline)) static void peak_dot_steps(v128_t *x, v128_t m) {
  v128_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5];
  v128_t x6 = x[6], x7 = x[7], x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11];
  for (int s = 0; s < PEAK_STEPS; s++) {
#define STEP(v) v = wasm_i32x4_add(v, wasm_i32x4_dot_i16x8(v, m))
    STEP(x0), STEP(x1), STEP(x2), STEP(x3), STEP(x4), STEP(x5);
    STEP(x6), STEP(x7), STEP(x8), STEP(x9), STEP(x10), STEP(x11);
#undef STEP
  }
  x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3, x[4] = x4, x[5] = x5;
  x[6] = x6, x[7] = x7, x[8] = x8, x[9] = x9, x[10] = x10, x[11] = x11;
}

static void bench_peak_int8(void) {
  volatile int16_t vm = 3;
  const v128_t m = wasm_i16x8_splat(vm);
  v128_t x[12];
  for (int i = 0; i < 12; i++) x[i] = wasm_i32x4_splat(i);
  double best = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    const double t0 = now_s();
    for (int c = 0; c < PEAK_CALLS; c++) peak_dot_steps(x, m);
    const double dt = now_s() - t0;
    best = dt < best ? dt : best;
  }
  printf("{\"kernel\":\"peak dot_i16x8+add simd128\",\"case\":\"12 chains x 4 lanes x 2\","
         "\"ms\":%.4f,\"gops\":%.3f,\"check\":%d}\n", best * 1e3,
         16.0 * 12 * PEAK_STEPS * PEAK_CALLS / best * 1e-9, wasm_i32x4_extract_lane(x[5], 0));
}
#endif

/* The int8 GEMM's real shapes: MobileNetV2's 1x1 convolutions (conv
 * orientation, M output channels, K input channels, N pixels) and a
 * transformer encoder's matmuls (pb orientation, M tokens). GOP/s counts
 * 2 M N K. Each line: one wnn_kernels setting's kernels through the driver,
 * the GEMM alone ("gemm") and as the op runs it ("op": packing the input,
 * the GEMM into int32, the requantize or dequantize epilogue), next to the
 * f32 GEMM on the same shape. */
typedef struct qgemm_shape {
  const char *what;
  size_t m, n, k;
  bool pb;
} qgemm_shape;
static const qgemm_shape QSHAPES[] = {
    {"mobilenetv2 1x1 96<-16 112x112", 96, 112 * 112, 16, false},
    {"mobilenetv2 1x1 144<-24 56x56", 144, 56 * 56, 24, false},
    {"mobilenetv2 1x1 32<-192 28x28", 32, 28 * 28, 192, false},
    {"mobilenetv2 1x1 320<-960 7x7", 320, 7 * 7, 960, false},
    {"encoder matmul 32x128 * 128x512", 32, 512, 128, true},
    {"encoder matmul 32x512 * 512x128", 32, 128, 512, true},
    {"bert matmul 128x256 * 256x256", 128, 256, 256, true},
    {"bert matmul 128x256 * 256x1024", 128, 1024, 256, true},
    {"bert matmul 128x1024 * 1024x256", 128, 256, 1024, true},
};

static int8_t *filled_s8(size_t n) {
  int8_t *p = malloc(n ? n : 1);
  uint32_t s = 7u;
  for (size_t i = 0; i < n; i++) s = s * 1664525u + 1013904223u, p[i] = (int8_t)(s >> 24);
  return p;
}

static void bench_qgemm_shape(const qgemm_shape *s, const char *name,
                              const wnn_qs8_gemm_config *g) {
  const size_t m = s->m, n = s->n, k = s->k, kp = (k + 1) / 2;
  const double ops = 2.0 * (double)m * (double)n * (double)k;
  int32_t *c = malloc(m * n * sizeof *c), *init = malloc(m * sizeof *init);
  for (size_t i = 0; i < m; i++) init[i] = (int32_t)i;
  char label[96];
  if (!s->pb) {
    /* A: weights m x k int8; B: the packed input (K-pairs of n pixels). */
    int8_t *a = filled_s8(m * k);
    uint8_t *x = (uint8_t *)filled_s8(k * n), *y = malloc(m * n);
    int16_t *b = malloc(kp * 2 * n * sizeof *b);
    float *scale = filled(m);
    const wnn_q8_pack_params pp = {.zero_point = 117, .s8 = false};
    const wnn_qs32_requant_params rq = {.zero_point = 3.0f, .lo = 0.0f, .hi = 255.0f, .s8 = false};
    g->packk(k, n, x, n, b, 2 * n, &pp);
    snprintf(label, sizeof label, "qs8_gemm %s (gemm)", name);
    TIME_CASE(label, s->what, ops, "gops",
              wnn_qs8_gemm(g, m, n, k, a, k, b, 2 * n, init, c, n));
    snprintf(label, sizeof label, "qs8_gemm %s (op: pack+gemm+requant)", name);
    TIME_CASE(label, s->what, ops, "gops", {
      g->packk(k, n, x, n, b, 2 * n, &pp);
      wnn_qs8_gemm(g, m, n, k, a, k, b, 2 * n, init, c, n);
      g->requant(m, n, c, n, scale, y, n, &rq);
    });
    free(a), free(x), free(y), free(b), free(scale);
  } else {
    /* A: activations m x k (float for the op line), B: int8 weights packed. */
    int16_t *a = malloc(m * 2 * kp * sizeof *a);
    int8_t *b = filled_s8(kp * 2 * n);
    float *af = filled(m * k), *scale = filled(n), *bias = filled(n), *y = filled(m * n);
    g->f32_packrows(m, k, af, k, a, 2 * kp, 0.01f, 128.0f);
    snprintf(label, sizeof label, "qs8_gemm_pb %s (gemm)", name);
    TIME_CASE(label, s->what, ops, "gops",
              wnn_qs8_gemm_pb(g, m, n, k, a, 2 * kp, b, 2 * n, NULL, c, n));
    snprintf(label, sizeof label, "qs8_gemm_pb %s (op: pack+gemm+dequant)", name);
    TIME_CASE(label, s->what, ops, "gops", {
      g->f32_packrows(m, k, af, k, a, 2 * kp, 0.01f, 128.0f);
      wnn_qs8_gemm_pb(g, m, n, k, a, 2 * kp, b, 2 * n, NULL, c, n);
      g->dequant(m, n, c, n, scale, bias, y, n);
    });
    free(a), free(b), free(af), free(scale), free(bias), free(y);
  }
  free(c), free(init);
}

/* Every SIMD128 tile of kernels.inc alone (through the driver), to choose
 * MR x NR, then the f32 GEMM on the same shapes. */
static void bench_qgemm(void) {
#if defined(__wasm_simd128__)
  bench_peak_int8();
#endif
  static const struct { const char *name; wnn_kernels kernels; } SETS[] = {
      {"scalar", WNN_KERNELS_SCALAR},
#if defined(__wasm_simd128__)
      {"wasmsimd", WNN_KERNELS_AUTO},
#endif
  };
  for (size_t i = 0; i < sizeof QSHAPES / sizeof QSHAPES[0]; i++) {
    const qgemm_shape *s = &QSHAPES[i];
    for (size_t d = 0; d < sizeof SETS / sizeof SETS[0]; d++) {
      const wnn_qs8_gemm_config g = wnn_select_qs8_gemm(SETS[d].kernels);
      bench_qgemm_shape(s, SETS[d].name, &g);
    }
#if defined(__wasm_simd128__)
    /* The other tiles of the list. */
    {
      wnn_qs8_gemm_config g = wnn_select_qs8_gemm(WNN_KERNELS_AUTO);
      const size_t m = s->m, n = s->n, k = s->k, kp = (k + 1) / 2;
      const double ops = 2.0 * (double)m * (double)n * (double)k;
      int32_t *c = malloc(m * n * sizeof *c);
      int8_t *a8 = filled_s8(m * k), *b8 = filled_s8(kp * 2 * n);
      int16_t *a16 = malloc(m * 2 * kp * 2), *b16 = malloc(kp * 2 * n * 2);
      for (size_t q = 0; q < m * 2 * kp; q++) a16[q] = (int16_t)(q % 511) - 255;
      for (size_t q = 0; q < kp * 2 * n; q++) b16[q] = (int16_t)(q % 509) - 254;
      if (!s->pb) {
#define WNN_QS8_GEMM(name, isa, mr, nr) WNN_IF_ISA(isa, {                               \
        g.conv = name, g.conv_mr = mr, g.conv_nr = nr;                                    \
        TIME_CASE(#name " (gemm)", s->what, ops, "gops",                                  \
                  wnn_qs8_gemm(&g, m, n, k, a8, k, b16, 2 * n, NULL, c, n)); })
#include "kernels/kernels.inc"
      } else {
#define WNN_QS8_GEMM_PB(name, isa, mr, nr) WNN_IF_ISA(isa, {                            \
        g.pb = name, g.pb_mr = mr, g.pb_nr = nr;                                          \
        TIME_CASE(#name " (gemm)", s->what, ops, "gops",                                  \
                  wnn_qs8_gemm_pb(&g, m, n, k, a16, 2 * kp, b8, 2 * n, NULL, c, n)); })
#include "kernels/kernels.inc"
      }
      free(c), free(a8), free(b8), free(a16), free(b16);
    }
#endif
    /* The f32 GEMM on the same shape (B row-major k x n). */
    for (size_t d = 0; d < NUM_GEMMS; d++) {
      const wnn_f32_gemm_config g = wnn_select_f32_gemm(GEMMS[d].kernels);
      float *a = filled(s->m * s->k), *b = filled(s->k * s->n), *c = filled(s->m * s->n);
      const wnn_f32_gemm_params p = {1.0f, 0.0f, -INFINITY, INFINITY};
      const double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k;
      TIME_CASE(GEMMS[d].name, s->what, flops, "gflops",
                wnn_f32_gemm(&g, s->m, s->n, s->k, a, s->k, 1, b, s->n, 1, NULL, c, s->n, &p));
      free(a), free(b), free(c);
    }
  }
}

/* With an argument, only that part (after the peaks): gemm, conv, elementwise,
 * windows, layout (layernorm, transpose, repeat), cvt (float16 <-> float32),
 * firstconv (im2col + GEMM on first layers), quant (the int8 element-wise and
 * depthwise kernels) or qgemm (the int8 GEMM and its peak); without, all of
 * them. */
static bool part(int argc, char **argv, const char *name) {
  return argc < 2 || !strcmp(argv[1], name);
}

int main(int argc, char **argv) {
  bench_peak_scalar();
#if defined(__wasm_simd128__)
  bench_peak_v128("peak mul+add simd128", peak_simd128_steps);
#endif
#if defined(__wasm_relaxed_simd__)
  bench_peak_v128("peak madd relaxed", peak_relaxed_steps);
#endif
  for (size_t s = 0; part(argc, argv, "gemm") && s < sizeof SHAPES / sizeof SHAPES[0]; s++) {
    for (size_t d = 0; d < NUM_GEMMS; d++) bench_gemm(&GEMMS[d], &SHAPES[s]);
  }
  /* Each GEMM with the im2col of its instruction set, untiled and tiled. */
  static const struct { size_t c, h, w, m; } CONV[] = {
      {64, 56, 56, 64}, {3, 224, 224, 32}, {128, 28, 28, 128}, {32, 160, 160, 64}};
  static const size_t BUDGET[] = {0, 256 * 1024}; /* untiled, and as Conv tiles */
  for (size_t i = 0; part(argc, argv, "conv") && i < sizeof CONV / sizeof CONV[0]; i++)
    for (size_t b = 0; b < sizeof BUDGET / sizeof BUDGET[0]; b++) {
      const size_t tile = BUDGET[b] ? conv_tile(CONV[i].c * 9, BUDGET[b]) : 0;
      for (size_t d = 0; d < NUM_GEMMS; d++)
        bench_conv3x3(&GEMMS[d], CONV[i].c, CONV[i].h, CONV[i].w, CONV[i].m, tile);
    }
  if (part(argc, argv, "elementwise")) bench_elementwise();
  if (part(argc, argv, "windows")) bench_windows();
  if (part(argc, argv, "layout")) bench_norm_transpose();
  if (part(argc, argv, "cvt")) bench_cvt_f16();
  if (part(argc, argv, "firstconv")) bench_first_layers();
  if (part(argc, argv, "quant")) bench_quant();
  if (part(argc, argv, "qgemm")) bench_qgemm();
  return 0;
}
