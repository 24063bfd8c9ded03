/* The uint8 / int8 max pooling kernel (kernels_quant.inc, WNN_X8_MAXPOOL2D),
 * every variant, bitwise against a loop written here from the definition:
 * the largest element of each window that lies on the input, the dtype's
 * lowest value for a window with none. Geometries around the 16-column
 * vectors (widths 1..70), kernels 1x1 to 5x5 and 3x1 / 1x5, strides 1-3,
 * dilations 1-2, paddings up to 2 on each side (asymmetric too) with and
 * without one more output column and row (ceil_mode), inputs that are all
 * zeros, all 255 and random, guard bytes after the output untouched. The
 * input is allocated at its exact size, so a read past it shows under ASan
 * (scalar) and is caught by wasm's bounds only at the memory's end (SIMD128:
 * the overlapping loads are argued in the kernel). The oracle is checked on
 * hand-worked values first. */
#include <stdio.h>
#include <string.h>

#include "kernel_util.h"

typedef struct { const char *name; wnn_x8_maxpool2d_ukernel *fn; } mp_row;
static const mp_row MP[] = {
#define WNN_X8_MAXPOOL2D(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};

static void naive(size_t planes, const uint8_t *x, uint8_t *y, const wnn_window2d *w, bool s8) {
  for (size_t c = 0; c < planes; c++)
    for (size_t oy = 0; oy < w->out_h; oy++)
      for (size_t ox = 0; ox < w->out_w; ox++) {
        int best = s8 ? -128 : 0;
        for (size_t ky = 0; ky < w->k_h; ky++)
          for (size_t kx = 0; kx < w->k_w; kx++) {
            const long iy = (long)(oy * w->stride_h + ky * w->dil_h) - (long)w->pad_t;
            const long ix = (long)(ox * w->stride_w + kx * w->dil_w) - (long)w->pad_l;
            if (iy < 0 || ix < 0 || iy >= (long)w->in_h || ix >= (long)w->in_w) continue;
            const uint8_t b = x[(c * w->in_h + (size_t)iy) * w->in_w + (size_t)ix];
            const int v = s8 ? (int8_t)b : b;
            if (v > best) best = v;
          }
        y[(c * w->out_h + oy) * w->out_w + ox] = (uint8_t)best;
      }
}

TEST(oracle) {
  /* 1 x 4 input, kernel 1x2, stride 2, pad left 1: windows {pad, 3}, {200, 7}, {9, pad} */
  const uint8_t x[4] = {3, 200, 7, 9};
  const wnn_window2d w = {1, 4, 1, 3, 1, 2, 1, 2, 1, 1, 0, 1, 0, 1};
  uint8_t y[3];
  naive(1, x, y, &w, false);
  CHECK(y[0] == 3 && y[1] == 200 && y[2] == 9);
  naive(1, x, y, &w, true); /* 200 is -56 as int8 */
  CHECK(y[0] == 3 && y[1] == 7 && y[2] == 9);
  /* a window entirely in the padding (kernel 1x1, pad 1): the lowest value */
  const wnn_window2d p = {1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1};
  naive(1, x, y, &p, true);
  CHECK((int8_t)y[0] == -128 && y[1] == 3 && (int8_t)y[2] == -128);
}

TEST(variants_match_the_definition) {
  static const size_t KS[][2] = {{1, 1}, {2, 2}, {3, 3}, {3, 1}, {1, 5}, {5, 5}};
  static const size_t WIDTHS[] = {1, 2, 5, 15, 16, 17, 31, 32, 33, 47, 64, 70};
  int cases = 0;
  for (size_t ki = 0; ki < sizeof KS / sizeof KS[0]; ki++)
    for (size_t wi = 0; wi < sizeof WIDTHS / sizeof WIDTHS[0]; wi++)
      for (size_t in_h = 1; in_h <= 6; in_h += 2)
        for (size_t s = 1; s <= 3; s++)
          for (size_t d = 1; d <= 2; d++)
            for (int pv = 0; pv < 5; pv++) {
              wnn_window2d w;
              memset(&w, 0, sizeof w);
              w.in_h = in_h, w.in_w = WIDTHS[wi], w.k_h = KS[ki][0], w.k_w = KS[ki][1];
              w.stride_h = w.stride_w = s, w.dil_h = w.dil_w = d;
              static const size_t PADS[5][4] = {
                  {0, 0, 0, 0}, {1, 1, 1, 1}, {0, 1, 0, 1}, {2, 0, 1, 2}, {1, 2, 2, 0}};
              w.pad_t = PADS[pv][0], w.pad_l = PADS[pv][1], w.pad_b = PADS[pv][2],
              w.pad_r = PADS[pv][3];
              /* pads below the kernel, as the ops require */
              if (w.pad_t >= w.k_h || w.pad_b >= w.k_h || w.pad_l >= w.k_w || w.pad_r >= w.k_w)
                continue;
              const size_t eh = (w.k_h - 1) * d + 1, ew = (w.k_w - 1) * d + 1;
              if (w.in_h + w.pad_t + w.pad_b < eh || w.in_w + w.pad_l + w.pad_r < ew) continue;
              for (int ceil = 0; ceil < 2; ceil++) {
                w.out_h = (w.in_h + w.pad_t + w.pad_b - eh) / s + 1 + (size_t)ceil;
                w.out_w = (w.in_w + w.pad_l + w.pad_r - ew) / s + 1 + (size_t)ceil;
                const size_t planes = 3, nin = planes * w.in_h * w.in_w,
                             nout = planes * w.out_h * w.out_w;
                for (int fill = 0; fill < 3; fill++) {
                  uint8_t *x = malloc(nin), *want = malloc(nout), *got = malloc(nout + 16);
                  for (size_t i = 0; i < nin; i++)
                    x[i] = fill == 0 ? 0 : fill == 1 ? 255 : (uint8_t)lcg_next();
                  for (int s8 = 0; s8 < 2; s8++) {
                    naive(planes, x, want, &w, s8);
                    const wnn_x8_maxpool2d_params kp = {w, s8 != 0};
                    for (size_t v = 0; v < sizeof MP / sizeof MP[0]; v++) {
                      memset(got, 0xa5, nout + 16);
                      MP[v].fn(planes, x, got, &kp);
                      bool guard = true;
                      for (size_t i = nout; i < nout + 16; i++) guard = guard && got[i] == 0xa5;
                      if (memcmp(got, want, nout) != 0 || !guard) {
                        printf("  %s: in %zux%zu k %zux%zu s %zu d %zu pads %d ceil %d fill %d s8 %d: %s\n",
                               MP[v].name, w.in_h, w.in_w, w.k_h, w.k_w, s, d, pv, ceil, fill, s8,
                               guard ? "differs" : "wrote past the output");
                        test_current_failed_ = 1;
                      }
                      cases++;
                    }
                  }
                  free(x), free(want), free(got);
                }
              }
            }
  CHECK(cases > 1000);
}

int main(void) {
  RUN(oracle);
  RUN(variants_match_the_definition);
  return test_summary();
}
