/*
 * The quantized ops' run time (milliseconds, best of repetitions totalling
 * 0.5 s) on MobileNetV2's 1x1 convolutions, its first 3x3 stride-2
 * convolution, depthwise layers (the int8 depthwise kernel in the middle
 * column) and a transformer encoder's matmuls: QLinearConv and
 * DynamicQuantizeMatMul through the int8 GEMM path (src/ops/quant_gemm.c)
 * and through the plain loop (the same op with a weight zero point that is
 * not a constant, which the GEMM path does not take), next to the float Conv
 * and MatMul on the same shapes. Prints a markdown table; asserts nothing.
 *
 * Native: build/native/bench/bench_quant_ops. As wasm with SIMD128, after
 * the wasi preset is built (cmake --build --preset wasi):
 *   clang --target=wasm32-wasi -nostdlibinc -isystem /usr/include/wasm32-wasi \
 *       -O2 -msimd128 -std=c11 -DWNN_WITH_REFERENCE -Iinclude -Isrc -Itests \
 *       -isystem .deps/include -include build/wasi/generated/cjson/wnn_cjson_names.h \
 *       -Wl,-z,stack-size=1048576 bench/kernels/bench_quant_ops.c \
 *       build/wasi/libwnn_runtime_ref.a -lm -o /tmp/bench_quant_ops.wasm
 *   node --no-liftoff wasm/run-wasi.mjs /tmp/bench_quant_ops.wasm
 */
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#include "ops/op_harness.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double time_op(const char *name, const char *attrs, int nin, const wnn_tdesc *in, void *const *data) {
  op_case c;
  if (op_prepare(&c, name, attrs, nin, in, 1) != WNN_OK) { printf("prepare %s: %s\n", name, c.msg); return -1; }
  wnn_tensor ins[WNN_MAX_IO], outs[1];
  for (int i = 0; i < nin; i++) { ins[i].data = in[i].dtype == WNN_DTYPE_INVALID ? NULL : data[i]; ins[i].dtype = in[i].dtype; ins[i].ndim = in[i].ndim; ins[i].dims = c.inputs[i].dims; }
  void *y = malloc(td_bytes(&c.outputs[0]));
  outs[0].data = y; outs[0].dtype = c.outputs[0].dtype; outs[0].ndim = c.outputs[0].ndim; outs[0].dims = c.outputs[0].dims;
  void *scratch = c.scratch_bytes ? aligned_alloc(64, (c.scratch_bytes + 63) / 64 * 64) : NULL;
  char msg[256];
  wnn_run_ctx ctx = {c.params, nin, ins, 1, outs, scratch, msg, sizeof msg};
  double best = 1e30, total = 0;
  for (int r = 0; r < 200 && (total < 0.5 || r < 3); r++) {
    double t0 = now_s(); c.op->run(&ctx); double dt = now_s() - t0; total += dt; if (dt < best) best = dt;
  }
  free(y); free(scratch);
  return best * 1e3;
}

static void *bytes(size_t n) { unsigned char *p = malloc(n); for (size_t i = 0; i < n; i++) p[i] = (unsigned char)lcg_next(); return p; }
static float *floats(size_t n, float s) { float *p = malloc(n * 4); for (size_t i = 0; i < n; i++) p[i] = s * lcg_float(); return p; }

static void conv(const char *what, int64_t c, int64_t h, int64_t w, int64_t m, int64_t k, const char *attrs) {
  unsigned char *x = bytes(c * h * w), *wt = bytes(m * c * k * k), wzp[1024] = {0}, xzp = 128, yzp = 128;
  float xs = 0.02f, ys = 0.05f, *ws = floats(m, 0.01f); int32_t *bias = malloc(m * 4);
  for (int64_t i = 0; i < m; i++) ws[i] = 0.01f + 0.001f * (i % 5), bias[i] = (int32_t)(i * 37 % 1000) - 500;
  wnn_tdesc in[9] = {TD(WNN_DTYPE_U8, 1, c, h, w), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8), TD(WNN_DTYPE_I8, m, c, k, k), TD(WNN_DTYPE_F32, m), TD(WNN_DTYPE_I8, m), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8), TD(WNN_DTYPE_I32, m)};
  in[5].data = wzp, in[8].data = bias, in[6].data = &ys, in[7].data = &yzp;
  void *data[9] = {x, &xs, &xzp, wt, ws, wzp, &ys, &yzp, bias};
  double fast = time_op("QLinearConv", attrs, 9, in, data);
  in[5].data = NULL; /* a zero point that is not a constant: the plain loop */
  double plain = time_op("QLinearConv", attrs, 9, in, data);
  float *xf = floats(c * h * w, 1), *wf = floats(m * c * k * k, 0.1f), *bf = floats(m, 1);
  wnn_tdesc fin[3] = {TD(WNN_DTYPE_F32, 1, c, h, w), TD(WNN_DTYPE_F32, m, c, k, k), TD(WNN_DTYPE_F32, m)};
  fin[1].data = wf, fin[2].data = bf;
  void *fd[3] = {xf, wf, bf};
  double fl = time_op("Conv", attrs, 3, fin, fd);
  printf("| QLinearConv %s | %.3f | %.3f | %.3f |\n", what, plain, fast, fl);
  if (k == 3 && attrs && !strstr(attrs, "strides")) /* the exact Winograd path: direct MACs per second */
    printf("|   (%.1f GOP/s effective: 9 C M H W multiply-adds / time) | | | |\n",
           2e-6 * 9.0 * (double)(c * m * h * w) / fast);
}

/* Depthwise (group == C == M): QLinearConv through the int8 depthwise kernel
 * (constant zero weight zero points) and the plain loop, next to the float
 * Conv (its depthwise kernel). */
static void dwconv(const char *what, int64_t c, int64_t h, int64_t k, const char *attrs) {
  unsigned char *x = bytes(c * h * h), *wt = bytes(c * k * k), *wzp = calloc(c, 1), xzp = 128, yzp = 128;
  float xs = 0.02f, ys = 0.05f, *ws = floats(c, 0.01f); int32_t *bias = malloc(c * 4);
  for (int64_t i = 0; i < c; i++) ws[i] = 0.01f + 0.001f * (i % 5), bias[i] = (int32_t)(i * 37 % 1000) - 500;
  wnn_tdesc in[9] = {TD(WNN_DTYPE_U8, 1, c, h, h), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8), TD(WNN_DTYPE_I8, c, 1, k, k), TD(WNN_DTYPE_F32, c), TD(WNN_DTYPE_I8, c), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8), TD(WNN_DTYPE_I32, c)};
  in[5].data = wzp, in[8].data = bias, in[6].data = &ys, in[7].data = &yzp;
  void *data[9] = {x, &xs, &xzp, wt, ws, wzp, &ys, &yzp, bias};
  double fast = time_op("QLinearConv", attrs, 9, in, data);
  in[5].data = NULL; /* a zero point that is not a constant: the plain loop */
  double plain = time_op("QLinearConv", attrs, 9, in, data);
  float *xf = floats(c * h * h, 1), *wf = floats(c * k * k, 0.1f), *bf = floats(c, 1);
  wnn_tdesc fin[3] = {TD(WNN_DTYPE_F32, 1, c, h, h), TD(WNN_DTYPE_F32, c, 1, k, k), TD(WNN_DTYPE_F32, c)};
  fin[1].data = wf, fin[2].data = bf;
  void *fd[3] = {xf, wf, bf};
  double fl = time_op("Conv", attrs, 3, fin, fd);
  printf("| QLinearConv depthwise %s (depthwise kernel) | %.3f | %.3f | %.3f |\n", what, plain, fast, fl);
  free(x), free(wt), free(wzp), free(ws), free(bias), free(xf), free(wf), free(bf);
}

static void dqmm(int64_t m, int64_t k, int64_t n) {
  float *a = floats(m * k, 2), *bs = floats(n, 0.01f), *bias = floats(n, 1);
  for (int64_t j = 0; j < n; j++) bs[j] = 0.01f;
  int8_t *b = bytes(k * n), bzp = 0;
  wnn_tdesc in[5] = {TD(WNN_DTYPE_F32, m, k), TD(WNN_DTYPE_I8, k, n), TD(WNN_DTYPE_F32, n), TD_SCALAR(WNN_DTYPE_I8), TD(WNN_DTYPE_F32, n)};
  in[3].data = &bzp;
  void *data[5] = {a, b, bs, &bzp, bias};
  double fast = time_op("DynamicQuantizeMatMul", NULL, 5, in, data);
  in[3].data = NULL;
  double plain = time_op("DynamicQuantizeMatMul", NULL, 5, in, data);
  float *bf = floats(k * n, 0.1f);
  wnn_tdesc fin[2] = {TD(WNN_DTYPE_F32, m, k), TD(WNN_DTYPE_F32, k, n)};
  fin[1].data = bf;
  void *fd[2] = {a, bf};
  double fl = time_op("MatMul", NULL, 2, fin, fd);
  printf("| DynamicQuantizeMatMul %lldx%lld * %lldx%lld | %.3f | %.3f | %.3f |\n", (long long)m, (long long)k, (long long)k, (long long)n, plain, fast, fl);
}

int main(void) {
  /* the test harness's counters (tests/test.h), unused here */
  (void)test_passed_, (void)test_failed_, (void)test_current_failed_, (void)test_current_;
  printf("| op, shape | plain loop (ms) | int8 GEMM path (ms) | float op (ms) |\n|---|--:|--:|--:|\n");
  conv("1x1 96<-16 112x112", 16, 112, 112, 96, 1, NULL);
  conv("1x1 144<-24 56x56", 24, 56, 56, 144, 1, NULL);
  conv("1x1 32<-192 28x28", 192, 28, 28, 32, 1, NULL);
  conv("1x1 320<-960 7x7", 960, 7, 7, 320, 1, NULL);
  conv("3x3 s2 32<-3 224x224", 3, 224, 224, 32, 3, "{\"pads\":[1,1,1,1],\"strides\":[2,2]}");
  /* 3x3 stride 1 (the exact integer Winograd path): resnet18's stages and
   * squeezenet1_1's expand convolutions */
  conv("3x3 s1 64<-64 56x56", 64, 56, 56, 64, 3, "{\"pads\":[1,1,1,1]}");
  conv("3x3 s1 128<-128 28x28", 128, 28, 28, 128, 3, "{\"pads\":[1,1,1,1]}");
  conv("3x3 s1 256<-256 14x14", 256, 14, 14, 256, 3, "{\"pads\":[1,1,1,1]}");
  conv("3x3 s1 512<-512 7x7", 512, 7, 7, 512, 3, "{\"pads\":[1,1,1,1]}");
  conv("3x3 s1 64<-16 55x55", 16, 55, 55, 64, 3, "{\"pads\":[1,1,1,1]}");
  conv("3x3 s1 128<-32 27x27", 32, 27, 27, 128, 3, "{\"pads\":[1,1,1,1]}");
  conv("3x3 s1 256<-64 13x13", 64, 13, 13, 256, 3, "{\"pads\":[1,1,1,1]}");
  dwconv("3x3 s1 144x56x56", 144, 56, 3, "{\"group\":144,\"pads\":[1,1,1,1]}");
  dwconv("3x3 s2 96x112x112", 96, 112, 3, "{\"group\":96,\"pads\":[1,1,1,1],\"strides\":[2,2]}");
  dwconv("3x3 s1 960x7x7", 960, 7, 3, "{\"group\":960,\"pads\":[1,1,1,1]}");
  dwconv("5x5 s1 240x28x28", 240, 28, 5, "{\"group\":240,\"pads\":[2,2,2,2]}");
  dqmm(32, 128, 512);
  dqmm(32, 512, 128);
  return 0;
}
