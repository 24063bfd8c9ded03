/*
 * Microbenchmark of the Winograd convolution path (src/ops/conv_winograd.c)
 * against im2col + GEMM as Conv runs it otherwise (src/ops/conv.c: im2col
 * panels of 256 KiB, each multiplied as it is made) on the 3x3, stride 1, pad 1
 * layers of VGG-19, ResNet-50, Inception v1, SqueezeNet 1.0, AlexNet, ZFNet-512
 * and PP-OCRv3's detector (its 96 -> 24 neck), natively or as
 * a WASI module with SIMD128 (the numbers of docs/winograd.md):
 *
 *   clang --target=wasm32-wasi -nostdlibinc -isystem /usr/include/wasm32-wasi \
 *       -Os -DNDEBUG -msimd128 -ffp-contract=off -std=c11 -Iinclude -Isrc \
 *       -isystem .deps/include -Wl,-z,stack-size=1048576 bench/kernels/bench_winograd.c \
 *       src/ops/conv_winograd.c src/ops/gemm_driver.c src/ops/select.c \
 *       $(ls src/kernels | grep '[.]c$' | sed 's|^|src/kernels/|') -lm \
 *       -o /tmp/bench_winograd.wasm
 *   node wasm/run-wasi.mjs /tmp/bench_winograd.wasm [FILTER]
 *
 * (-Os as dist/wnn.wasm is built.) Natively, the CMake build makes
 * build/<dir>/bench/bench_winograd (scalar kernels only).
 *
 * One JSON line per case and method: {"case", "in_c", "out_c", "h", "w",
 * "method", "ms", "gflops"}, where gflops is the direct convolution's
 * 2 * out_c * in_c * 9 * h * w flops over the time (GFLOP/s-equivalent, so that
 * methods compare directly), then a Markdown table of the same with the
 * speed-up of each Winograd variant over im2col + GEMM and the choice of
 * wnn_conv_winograd_applies / wnn_conv_winograd_tile. Each method repeats
 * until it has run for at least 0.2 s (and 3 times); the best repetition
 * counts, timed in process CPU time (see now_s). Optional arguments: run only
 * the cases whose name contains the first, and only the methods whose name
 * contains the second ("im2col", "(2,3)", "(4,3)"; for profiles).
 * Not a test: it asserts nothing.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ops/conv_winograd.h"
#include "ops/op_internal.h"

/* CPU time of the process, not wall time: on a machine shared with builds,
 * time spent descheduled does not count (Node's WASI gives the process's
 * user + system time). */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float *filled(size_t n, float scale) {
  float *p = malloc((n ? n : 1) * sizeof *p);
  uint32_t s = 7u;
  for (size_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    p[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * scale;
  }
  return p;
}

typedef struct layer {
  const char *name;
  size_t in_c, out_c, hw;
} layer;

static const layer LAYERS[] = {
    {"vgg19 conv1_2", 64, 64, 224},
    {"vgg19 conv2_2", 128, 128, 112},
    {"vgg19 conv3_2", 256, 256, 56},
    {"vgg19 conv4_2", 512, 512, 28},
    {"vgg19 conv5_2", 512, 512, 14},
    {"vgg19 conv1_1 (3 channels)", 3, 64, 224},
    {"resnet50 res2 3x3", 64, 64, 56},
    {"resnet50 res3 3x3", 128, 128, 28},
    {"resnet50 res4 3x3", 256, 256, 14},
    {"resnet50 res5 3x3", 512, 512, 7},
    {"inception 3a 3x3", 96, 128, 28},
    {"inception 4a 3x3", 96, 208, 14},
    {"inception 5b 3x3", 192, 384, 7},
    {"squeezenet fire2 expand 3x3", 16, 64, 55},
    {"squeezenet fire4 expand 3x3", 32, 128, 27},
    {"squeezenet fire9 expand 3x3", 64, 256, 13},
    {"alexnet conv3", 256, 384, 12},
    {"zfnet512 conv3", 256, 512, 12},
    {"zfnet512 conv4", 512, 512, 12},
    {"ppocr det neck (96 -> 24 at 160)", 96, 24, 160},
    {"ppocr det neck (96 -> 24 at 40)", 96, 24, 40},
    {"small channels, large plane (16)", 16, 16, 160},
    {"small channels, large plane (24 -> 96)", 24, 96, 80},
    /* Where the thresholds of wnn_conv_winograd_applies come from. */
    {"threshold: 4 input channels", 4, 32, 112},
    {"threshold: 8 input channels", 8, 32, 112},
    {"threshold: 8 output channels", 64, 8, 56},
    {"threshold: 4 output channels", 64, 4, 56},
    {"threshold: 5x5 plane", 256, 256, 5},
    {"threshold: 4x4 plane", 256, 256, 4},
    {"threshold: 3x3 plane", 256, 256, 3},
};

enum { METHOD_IM2COL, METHOD_F23, METHOD_F43, NUM_METHODS };
static const char *const METHOD_NAMES[] = {"im2col+gemm", "winograd F(2,3)", "winograd F(4,3)"};

/* The fastest im2col_tile variant of this build (kernels.inc lists the
 * slower first). */
static wnn_f32_im2col_tile_ukernel *const IM2COL_TILE[] = {
#define WNN_F32_IM2COL_TILE(name, isa) WNN_IF_ISA(isa, name,)
#include "kernels/kernels.inc"
};

/* Pixels per im2col panel, as src/ops/conv.c chooses them: 256 KiB of panel,
 * whole blocks of 32 pixels. */
static size_t panel_pixels(size_t k, size_t pixels) {
  size_t t = 256 * 1024 / sizeof(float) / k / 32 * 32;
  if (t < 32) t = 32;
  return t < pixels ? t : pixels;
}

static double time_method(int method, const layer *l, const wnn_window2d *win, const float *x,
                          const float *w, const float *bias, float *y, float *col, void *scratch) {
  const wnn_f32_gemm_config gemm = wnn_select_f32_gemm(WNN_KERNELS_AUTO);
  wnn_f32_im2col_tile_ukernel *im2col =
      IM2COL_TILE[sizeof IM2COL_TILE / sizeof IM2COL_TILE[0] - 1];
  const wnn_f32_gemm_params gp = {1.0f, 0.0f, -INFINITY, INFINITY};
  const size_t n = win->out_h * win->out_w, k = l->in_c * 9, tile = panel_pixels(k, n);
  double best = 1e30, total = 0;
  for (int rep = 0; rep < 1000 && (total < 0.2 || rep < 3); rep++) {
    const double t0 = now_s();
    if (method == METHOD_IM2COL) {
      for (size_t p0 = 0; p0 < n; p0 += tile) {
        const size_t np = n - p0 < tile ? n - p0 : tile;
        im2col(l->in_c, x, p0, np, col, win);
        wnn_f32_gemm(&gemm, l->out_c, np, k, w, k, 1, col, np, 1, bias, y + p0, n, &gp);
      }
    } else {
      wnn_conv_winograd_run_tile(win, l->in_c, l->out_c, x, w, bias, y, -INFINITY, INFINITY,
                                 scratch, WNN_KERNELS_AUTO, method == METHOD_F23 ? 2 : 4);
    }
    const double dt = now_s() - t0;
    total += dt;
    best = dt < best ? dt : best;
  }
  return best;
}

int main(int argc, char **argv) {
  const char *filter = argc > 1 ? argv[1] : NULL, *only = argc > 2 ? argv[2] : NULL;
  double gflops[sizeof LAYERS / sizeof LAYERS[0]][NUM_METHODS];
  int ran[sizeof LAYERS / sizeof LAYERS[0]] = {0};
  for (size_t i = 0; i < sizeof LAYERS / sizeof LAYERS[0]; i++) {
    const layer *l = &LAYERS[i];
    if (filter && !strstr(l->name, filter)) continue;
    ran[i] = 1;
    const wnn_window2d win = {l->hw, l->hw, l->hw, l->hw, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
    const size_t plane = l->hw * l->hw;
    float *x = filled(l->in_c * plane, 2.0f);
    float *w = filled(l->out_c * l->in_c * 9, 2.0f / sqrtf((float)(9 * l->in_c)));
    float *bias = filled(l->out_c, 0.2f), *y = filled(l->out_c * plane, 1.0f);
    float *col = filled(l->in_c * 9 * panel_pixels(l->in_c * 9, plane), 1.0f);
    size_t sb = wnn_conv_winograd_scratch_bytes_tile(&win, l->in_c, l->out_c, 2);
    const size_t sb4 = wnn_conv_winograd_scratch_bytes_tile(&win, l->in_c, l->out_c, 4);
    sb = sb4 > sb ? sb4 : sb;
    void *scratch = aligned_alloc(64, sb);
    const double flops = 2.0 * (double)l->out_c * (double)l->in_c * 9.0 * (double)plane;
    for (int mth = 0; mth < NUM_METHODS; mth++) {
      gflops[i][mth] = NAN;
      if (only && !strstr(METHOD_NAMES[mth], only)) continue;
      const double t = time_method(mth, l, &win, x, w, bias, y, col, scratch);
      gflops[i][mth] = flops / t * 1e-9;
      printf("{\"case\":\"%s\",\"in_c\":%zu,\"out_c\":%zu,\"h\":%zu,\"w\":%zu,\"method\":\"%s\","
             "\"ms\":%.4f,\"gflops\":%.3f,\"check\":%g}\n",
             l->name, l->in_c, l->out_c, l->hw, l->hw, METHOD_NAMES[mth], t * 1e3,
             gflops[i][mth], (double)y[l->out_c * plane / 2]);
      fflush(stdout);
    }
    free(x), free(w), free(bias), free(y), free(col), free(scratch);
  }
  printf("\n| layer | C -> M | plane | im2col+GEMM GFLOP/s | F(2,3) | F(4,3) | F(2,3) / im2col |"
         " F(4,3) / im2col | applies, tile |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (size_t i = 0; i < sizeof LAYERS / sizeof LAYERS[0]; i++) {
    if (!ran[i]) continue;
    const layer *l = &LAYERS[i];
    const wnn_window2d win = {l->hw, l->hw, l->hw, l->hw, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
    const int applies = wnn_conv_winograd_applies(&win, l->in_c, l->out_c);
    printf("| %s | %zu -> %zu | %zu | %.1f | %.1f | %.1f | %.2f | %.2f | %s |\n", l->name,
           l->in_c, l->out_c, l->hw, gflops[i][0], gflops[i][1], gflops[i][2],
           gflops[i][1] / gflops[i][0], gflops[i][2] / gflops[i][0],
           applies ? (wnn_conv_winograd_tile(&win) == 4 ? "yes, F(4,3)" : "yes, F(2,3)") : "no");
  }
  return 0;
}
