/* SIMD128 window and reduction kernels vs their scalar rows of kernels.inc.
 *   im2col, dwconv, max pool, average pool (both count modes): BITWISE the same as the
 *     scalar kernel over a sweep of geometries: widths 1..37 (less than one
 *     vector, one, several, ragged tails), heights 1..6, kernels 1x1, 3x3,
 *     5x5, 2x3, 7x7 and 9x9 (past the SIMD dwconv's 7x7 limit), strides 1, 2
 *     and 3, dilations 1 and 2, symmetric and asymmetric padding, and
 *     ceil_mode outputs whose last window runs past the padded edge; with and
 *     without bias, NaN and infinities among the inputs.
 *   global average pool: BITWISE, rows of 1..70 elements.
 *   softmax: rtol 4e-6 (an exp polynomial; see f32_softmax__wasmsimd.c),
 *     lengths 1..70 and 1000, strides 1 and 3, in place.
 * In a build without SIMD128 there is nothing to compare, and the test says so. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernel_util.h"

#define ISA_SCALAR 0
#define ISA_WASMSIMD 1
#define OP_MAX 0
#define OP_AVG 1

typedef struct colrow { const char *name; wnn_f32_im2col_ukernel *fn; int isa; } colrow;
static const colrow COL[] = {
#define WNN_F32_IM2COL(name, isa) WNN_IF_ISA(isa, {#name, name, ISA_##isa},)
#include "kernels/kernels.inc"
};
typedef struct dwrow { const char *name; wnn_f32_dwconv_ukernel *fn; int isa; } dwrow;
static const dwrow DW[] = {
#define WNN_F32_DWCONV(name, isa) WNN_IF_ISA(isa, {#name, name, ISA_##isa},)
#include "kernels/kernels.inc"
};
typedef struct poolrow { const char *name; wnn_f32_pool2d_ukernel *fn; int isa, op; } poolrow;
static const poolrow POOL[] = {
#define WNN_F32_POOL2D(name, isa, op) WNN_IF_ISA(isa, {#name, name, ISA_##isa, OP_##op},)
#include "kernels/kernels.inc"
};
typedef struct garow { const char *name; wnn_f32_gavgpool_ukernel *fn; int isa; } garow;
static const garow GA[] = {
#define WNN_F32_GAVGPOOL(name, isa) WNN_IF_ISA(isa, {#name, name, ISA_##isa},)
#include "kernels/kernels.inc"
};
typedef struct smrow { const char *name; wnn_f32_softmax_ukernel *fn; int isa; } smrow;
static const smrow SM[] = {
#define WNN_F32_SOFTMAX(name, isa) WNN_IF_ISA(isa, {#name, name, ISA_##isa},)
#include "kernels/kernels.inc"
};
#define COUNT(t) (sizeof t / sizeof t[0])

static bool have_simd(void) {
  bool any = false;
  for (size_t i = 0; i < COUNT(DW); i++) any = any || DW[i].isa == ISA_WASMSIMD;
  for (size_t i = 0; i < COUNT(POOL); i++) any = any || POOL[i].isa == ISA_WASMSIMD;
  if (!any) printf("  skipped: this build has no SIMD128 kernels (not a wasm SIMD build)\n");
  return any;
}

/* The geometries: calls fn(win) for each; returns false as soon as one fails. */
typedef int geom_fn(const wnn_window2d *win);
static int for_each_geometry(geom_fn *fn) {
  static const size_t kernels[][2] = {{1, 1}, {3, 3}, {5, 5}, {2, 3}, {7, 7}, {9, 9}};
  static const size_t pads[][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 1, 0, 2}, {0, 2, 1, 0}};
  for (size_t in_h = 1; in_h <= 6; in_h += 5)
    for (size_t in_w = 1; in_w <= 37; in_w += (in_w < 10 ? 1 : 9))
      for (size_t kk = 0; kk < COUNT(kernels); kk++)
        for (size_t s = 1; s <= 3; s++)
          for (size_t d = 1; d <= 2; d++)
            for (size_t pp = 0; pp < COUNT(pads); pp++)
              for (int ceil_mode = 0; ceil_mode < 2; ceil_mode++) {
                wnn_window2d w = {0};
                w.in_h = in_h, w.in_w = in_w, w.k_h = kernels[kk][0], w.k_w = kernels[kk][1];
                w.stride_h = s, w.stride_w = s, w.dil_h = d, w.dil_w = d;
                w.pad_t = pads[pp][0], w.pad_l = pads[pp][1], w.pad_b = pads[pp][2],
                w.pad_r = pads[pp][3];
                const size_t ph = in_h + w.pad_t + w.pad_b, pw = in_w + w.pad_l + w.pad_r;
                const size_t eh = d * (w.k_h - 1) + 1, ew = d * (w.k_w - 1) + 1;
                if (ph < eh || pw < ew) continue;
                const size_t up = ceil_mode ? s - 1 : 0;
                w.out_h = (ph - eh + up) / s + 1, w.out_w = (pw - ew + up) / s + 1;
                if (!fn(&w)) {
                  printf("  failed: in %zux%zu k %zux%zu stride %zu dil %zu pads %zu,%zu,%zu,%zu "
                         "out %zux%zu\n", in_h, in_w, w.k_h, w.k_w, s, d, w.pad_t, w.pad_l,
                         w.pad_b, w.pad_r, w.out_h, w.out_w);
                  return 0;
                }
              }
  return 1;
}

static float *inputs(size_t n) {
  float *x = rand_floats(n + 1);
  if (n > 7) x[7] = NAN;
  if (n > 12) x[12] = INFINITY, x[n - 2] = -INFINITY;
  return x;
}

static int same(const float *got, const float *want, size_t n) {
  return n == 0 || memcmp(got, want, n * sizeof(float)) == 0;
}

static int im2col_case(const wnn_window2d *w) {
  const size_t c = 2, in = c * w->in_h * w->in_w;
  const size_t n = c * w->k_h * w->k_w * w->out_h * w->out_w;
  float *x = inputs(in), *col = rand_floats(n), *want = rand_floats(n);
  int ok = 1;
  for (size_t s = 0; s < COUNT(COL); s++) {
    if (COL[s].isa != ISA_WASMSIMD) continue;
    COL[0].fn(c, x, want, w);
    COL[s].fn(c, x, col, w);
    if (!same(col, want, n)) printf("  %s differs from %s\n", COL[s].name, COL[0].name), ok = 0;
  }
  free(x), free(col), free(want);
  return ok;
}

static int dwconv_case(const wnn_window2d *w) {
  const size_t c = 3, in = c * w->in_h * w->in_w, out = c * w->out_h * w->out_w;
  float *x = inputs(in), *k = rand_floats(c * w->k_h * w->k_w), *bias = rand_floats(c);
  float *y = rand_floats(out), *want = rand_floats(out);
  int ok = 1;
  for (size_t s = 0; s < COUNT(DW); s++) {
    if (DW[s].isa != ISA_WASMSIMD) continue;
    for (int b = 0; b < 2; b++) {
      DW[0].fn(c, x, k, b ? bias : NULL, want, w);
      DW[s].fn(c, x, k, b ? bias : NULL, y, w);
      if (!same(y, want, out)) printf("  %s differs from %s\n", DW[s].name, DW[0].name), ok = 0;
    }
  }
  free(x), free(k), free(bias), free(y), free(want);
  return ok;
}

static int pool_case(const wnn_window2d *w) {
  const size_t c = 2, in = c * w->in_h * w->in_w, out = c * w->out_h * w->out_w;
  float *x = inputs(in), *y = rand_floats(out), *want = rand_floats(out);
  int ok = 1;
  for (size_t s = 0; s < COUNT(POOL); s++) {
    if (POOL[s].isa != ISA_WASMSIMD) continue;
    const poolrow *ref = NULL;
    for (size_t r = 0; r < COUNT(POOL); r++)
      if (POOL[r].isa == ISA_SCALAR && POOL[r].op == POOL[s].op) ref = &POOL[r];
    for (int include = 0; include < 2 && ref; include++) {
      const wnn_f32_pool2d_params p = {*w, include};
      ref->fn(c, x, want, &p);
      POOL[s].fn(c, x, y, &p);
      if (!same(y, want, out))
        printf("  %s differs from %s (count_include_pad %d)\n", POOL[s].name, ref->name, include),
            ok = 0;
    }
    if (!ref) ok = 0;
  }
  free(x), free(y), free(want);
  return ok;
}

TEST(im2col_bitwise) {
  if (!have_simd()) return;
  CHECK(for_each_geometry(im2col_case));
}

TEST(dwconv_bitwise) {
  if (!have_simd()) return;
  CHECK(for_each_geometry(dwconv_case));
}

TEST(pools_bitwise) {
  if (!have_simd()) return;
  CHECK(for_each_geometry(pool_case));
}

TEST(gavgpool_bitwise) {
  if (!have_simd()) return;
  for (size_t s = 0; s < COUNT(GA); s++) {
    if (GA[s].isa != ISA_WASMSIMD) continue;
    for (size_t n = 1; n <= 70; n++) {
      const size_t rows = 5;
      float *x = inputs(rows * n), y[5], want[5];
      if (n > 30) x[n + 3] = NAN; /* row 1 */
      GA[0].fn(rows, n, x, want);
      GA[s].fn(rows, n, x, y);
      if (!same(y, want, rows)) printf("  %s: n=%zu\n", GA[s].name, n);
      CHECK(same(y, want, rows));
      free(x);
    }
  }
}

static int close_to(const float *got, const float *want, size_t n, size_t stride) {
  for (size_t i = 0; i < n; i++) {
    const float g = got[i * stride], w = want[i * stride];
    if (isnan(w) ? !isnan(g) : !(fabsf(g - w) <= 4e-6f * fabsf(w) + 1e-37f)) {
      printf("  element %zu: got %.9g, scalar %.9g\n", i, g, w);
      return 0;
    }
  }
  return 1;
}

TEST(softmax_close) {
  if (!have_simd()) return;
  for (size_t s = 0; s < COUNT(SM); s++) {
    if (SM[s].isa != ISA_WASMSIMD) continue;
    for (size_t n = 1; n <= 1000; n = n < 70 ? n + 1 : 1000 + (n == 1000)) {
      for (size_t stride = 1; stride <= 3; stride += 2) {
        float *x = rand_floats(n * stride), *y = rand_floats(n * stride);
        float *want = malloc(n * stride * sizeof(float));
        for (size_t i = 0; i < n * stride; i++) x[i] *= 30.0f, want[i] = y[i];
        if (n > 9) x[9 * stride] = -INFINITY;
        /* Masked scores: terms that underflow (the kernel makes them 0). */
        if (n > 12) x[11 * stride] = -1e4f, x[12 * stride] = -FLT_MAX, x[3 * stride] = -75.0f;
        SM[0].fn(n, stride, x, want);
        SM[s].fn(n, stride, x, y);
        int ok = close_to(y, want, n, stride);
        /* Elements between the strided ones untouched. */
        for (size_t i = 0; i < n * stride; i++)
          if (i % stride) ok = ok && memcmp(&y[i], &want[i], sizeof(float)) == 0;
        for (size_t i = 0; i < n * stride; i++) y[i] = x[i];
        SM[s].fn(n, stride, y, y); /* in place */
        ok = ok && close_to(y, want, n, stride);
        if (!ok) printf("  %s: n=%zu stride=%zu\n", SM[s].name, n, stride);
        CHECK(ok);
        free(x), free(y), free(want);
      }
    }
    /* A NaN makes every output NaN, as in the scalar kernel. */
    float x[9] = {1, 2, NAN, 4, 5, 6, 7, 8, 9}, y[9];
    SM[s].fn(9, 1, x, y);
    int all_nan = 1;
    for (int i = 0; i < 9; i++) all_nan = all_nan && isnan(y[i]);
    CHECK(all_nan);
  }
}

int main(void) {
  RUN(im2col_bitwise);
  RUN(dwconv_bitwise);
  RUN(pools_bitwise);
  RUN(gavgpool_bitwise);
  RUN(softmax_close);
  return test_summary();
}
