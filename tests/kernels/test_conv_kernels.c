/* Conv's tile kernels, every variant of kernels.inc:
 *   im2col_tile: BITWISE equal to the im2col matrix written from its
 *     definition, for pixel ranges that start and end mid-row, span several
 *     rows, cover one pixel or all of them; over widths 1..37, kernels 1x1,
 *     3x3, 5x5, 2x3, strides 1..3, dilations 1 and 2, symmetric and
 *     asymmetric pads; the panel's row stride is np and nothing past it is
 *     written.
 *   act: every activation against its formula (kernels.h) on rows of 0..37
 *     elements at a row stride with a gap the kernel must not touch, with NaN,
 *     infinities and signed zeros among the inputs: exact (NaN as any NaN, 0
 *     as -0) for every kind but SIGMOID and SILU, which the SIMD128 variant
 *     computes with a polynomial exp (within 2.5 ulp; checked as a relative
 *     error below 4 * 2^-24 against double, absolute 2^-126 near zero, for
 *     both variants). */
#include <math.h>
#include <string.h>

#include "kernel_util.h"

typedef struct tilerow { const char *name; wnn_f32_im2col_tile_ukernel *fn; } tilerow;
static const tilerow TILE[] = {
#define WNN_F32_IM2COL_TILE(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
typedef struct actrow { const char *name; wnn_f32_act_ukernel *fn; } actrow;
static const actrow ACT[] = {
#define WNN_F32_ACT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
#define COUNT(t) (sizeof t / sizeof t[0])

/* Element [r][p] of the im2col matrix, from its definition in kernels.h. */
static float col_at(const float *x, size_t r, size_t p, const wnn_window2d *w) {
  const size_t kx = r % w->k_w, ky = r / w->k_w % w->k_h, c = r / (w->k_w * w->k_h);
  const size_t oy = p / w->out_w, ox = p % w->out_w;
  const long iy = (long)(oy * w->stride_h + ky * w->dil_h) - (long)w->pad_t;
  const long ix = (long)(ox * w->stride_w + kx * w->dil_w) - (long)w->pad_l;
  if (iy < 0 || ix < 0 || iy >= (long)w->in_h || ix >= (long)w->in_w) return 0.0f;
  return x[(c * w->in_h + (size_t)iy) * w->in_w + (size_t)ix];
}

/* Every variant on pixel ranges [p0, p0 + np) of one geometry. */
static int tile_case(const wnn_window2d *w) {
  const size_t c = 2, k = c * w->k_h * w->k_w, pixels = w->out_h * w->out_w;
  float *x = rand_floats(c * w->in_h * w->in_w);
  if (c * w->in_h * w->in_w > 5) x[5] = NAN;
  const size_t ranges[][2] = {{0, pixels},
                              {0, 1},
                              {pixels - 1, 1},
                              {w->out_w / 2, pixels - w->out_w / 2},
                              {w->out_w - 1 < pixels ? w->out_w - 1 : 0, 2},
                              {pixels / 3, pixels / 2 + 1}};
  float *col = malloc((k * pixels + 4) * sizeof *col);
  int ok = 1;
  for (size_t t = 0; t < COUNT(TILE) && ok; t++)
    for (size_t r = 0; r < COUNT(ranges) && ok; r++) {
      const size_t p0 = ranges[r][0], np = ranges[r][1];
      if (np == 0 || p0 + np > pixels) continue;
      for (size_t i = 0; i < k * np + 4; i++) col[i] = 12345.0f;
      TILE[t].fn(c, x, p0, np, col, w);
      for (size_t row = 0; row < k && ok; row++)
        for (size_t j = 0; j < np && ok; j++) {
          const float want = col_at(x, row, p0 + j, w), got = col[row * np + j];
          if (memcmp(&want, &got, sizeof want)) {
            printf("  %s: pixels [%zu, +%zu): [%zu][%zu] is %g, expected %g\n", TILE[t].name, p0,
                   np, row, p0 + j, got, want);
            ok = 0;
          }
        }
      for (size_t i = k * np; i < k * np + 4 && ok; i++)
        if (col[i] != 12345.0f) printf("  %s: wrote past the panel\n", TILE[t].name), ok = 0;
    }
  free(x), free(col);
  return ok;
}

TEST(im2col_tile_matches_definition) {
  static const size_t kernels[][2] = {{1, 1}, {3, 3}, {5, 5}, {2, 3}};
  static const size_t pads[][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 1, 0, 2}};
  for (size_t in_h = 1; in_h <= 7; in_h += 3)
    for (size_t in_w = 1; in_w <= 37; in_w += (in_w < 10 ? 1 : 9))
      for (size_t kk = 0; kk < COUNT(kernels); kk++)
        for (size_t s = 1; s <= 3; s++)
          for (size_t d = 1; d <= 2; d++)
            for (size_t pp = 0; pp < COUNT(pads); pp++) {
              wnn_window2d w = {0};
              w.in_h = in_h, w.in_w = in_w, w.k_h = kernels[kk][0], w.k_w = kernels[kk][1];
              w.stride_h = s, w.stride_w = s, w.dil_h = d, w.dil_w = d;
              w.pad_t = pads[pp][0], w.pad_l = pads[pp][1], w.pad_b = pads[pp][2];
              w.pad_r = pads[pp][3];
              const size_t ph = in_h + w.pad_t + w.pad_b, pw = in_w + w.pad_l + w.pad_r;
              const size_t eh = d * (w.k_h - 1) + 1, ew = d * (w.k_w - 1) + 1;
              if (ph < eh || pw < ew) continue;
              w.out_h = (ph - eh) / s + 1, w.out_w = (pw - ew) / s + 1;
              if (!tile_case(&w)) {
                printf("  in %zux%zu k %zux%zu stride %zu dil %zu pads %zu,%zu,%zu,%zu\n", in_h,
                       in_w, w.k_h, w.k_w, s, d, w.pad_t, w.pad_l, w.pad_b, w.pad_r);
                CHECK(0);
                return;
              }
            }
}

/* The activation of one element, from kernels.h. */
static float act_want(const wnn_f32_act_params *p, float x) {
  float v;
  switch (p->kind) {
    case WNN_ACT_RELU: return x < 0.0f ? 0.0f : x;
    case WNN_ACT_CLIP: v = x < p->p0 ? p->p0 : x; return v > p->p1 ? p->p1 : v;
    case WNN_ACT_SIGMOID: return (float)(1.0 / (1.0 + exp(-(double)x)));
    case WNN_ACT_HARDSIGMOID:
      v = p->p0 * x + p->p1;
      v = v < 0.0f ? 0.0f : v;
      return v > 1.0f ? 1.0f : v;
    case WNN_ACT_HARDSWISH:
      v = x / 6.0f + 0.5f;
      v = v < 0.0f ? 0.0f : v;
      return x * (v > 1.0f ? 1.0f : v);
    case WNN_ACT_LEAKYRELU: return x < 0.0f ? p->p0 * x : x;
    case WNN_ACT_SILU: return (float)((double)x / (1.0 + exp(-(double)x)));
    default: return x;
  }
}

/* Exact values; NaN matches any NaN and 0 matches -0: wasm leaves the sign
 * and payload of a NaN result to the engine, and clang may turn the scalar
 * kernel's `x < 0 ? 0 : x` into a max, which gives relu(-0) = +0. */
static int act_close(int kind, float got, float want) {
  if (isnan(want)) return isnan(got);
  if (kind != WNN_ACT_SIGMOID && kind != WNN_ACT_SILU) return got == want;
  if (got == want) return 1; /* infinities */
  return fabsf(got - want) <= 4.0f * 5.9604645e-8f * fabsf(want) || fabsf(got - want) <= 1.2e-38f;
}

TEST(act_matches_formula) {
  static const wnn_f32_act_params params[] = {
      {WNN_ACT_NONE, 0, 0},        {WNN_ACT_RELU, 0, 0},      {WNN_ACT_CLIP, -0.25f, 0.5f},
      {WNN_ACT_CLIP, 0.0f, 6.0f},  {WNN_ACT_SIGMOID, 0, 0},   {WNN_ACT_HARDSIGMOID, 0.2f, 0.5f},
      {WNN_ACT_HARDSWISH, 0, 0},   {WNN_ACT_LEAKYRELU, 0.1f, 0}, {WNN_ACT_SILU, 0, 0}};
  enum { ROWS = 3, GAP = 5, MAXN = 37 };
  const size_t stride = MAXN + GAP;
  float *x = rand_floats(ROWS * stride), *y = malloc(ROWS * stride * sizeof *y);
  for (size_t i = 0; i < ROWS * stride; i++) x[i] *= 9.0f; /* past HardSwish's knees */
  x[3] = NAN, x[4] = INFINITY, x[5] = -INFINITY, x[6] = -0.0f, x[7] = 0.0f, x[8] = -3.0f;
  x[9] = 3.0f, x[stride + 1] = -100.0f, x[stride + 2] = 100.0f, x[2 * stride] = -1e-30f;
  for (size_t a = 0; a < COUNT(ACT); a++)
    for (size_t k = 0; k < COUNT(params); k++)
      for (size_t n = 0; n <= MAXN; n++) {
        memcpy(y, x, ROWS * stride * sizeof *y);
        ACT[a].fn(ROWS, n, y, stride, &params[k]);
        for (size_t r = 0; r < ROWS; r++)
          for (size_t i = 0; i < stride; i++) {
            const size_t at = r * stride + i;
            const float want = i < n ? act_want(&params[k], x[at]) : x[at];
            const int ok = i < n ? act_close(params[k].kind, y[at], want)
                                 : !memcmp(&y[at], &want, sizeof want);
            if (!ok) {
              printf("  %s kind %d n %zu: row %zu [%zu] of %g gave %g, expected %g\n",
                     ACT[a].name, params[k].kind, n, r, i, x[at], y[at], want);
              CHECK(0);
              free(x), free(y);
              return;
            }
          }
      }
  free(x), free(y);
}

int main(void) {
  RUN(im2col_tile_matches_definition);
  RUN(act_matches_formula);
  return test_summary();
}
