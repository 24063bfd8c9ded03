/* The int8 GEMM's kernels (kernels.h, "int8 GEMM") bitwise against naive
 * loops written from their contracts: every GEMM variant of both
 * orientations on every panel it takes (mr 1..MR, nc 1..2 NR + 3, kc 1..70
 * odd and even, init NULL and not, extreme values, a wrapping sum) with the
 * padding of C left alone and A and B in allocations of their exact size;
 * the driver (src/ops/qgemm_driver.c) with the kernels of WNN_KERNELS_SCALAR
 * and _AUTO on whole matrices (one tile, less than a tile, many tiles and
 * column blocks, k = 0); the packing kernels (8-bit rows to int16 K-pairs
 * and rows, int8 K-pairs, the im2col over strides, dilations, paddings and
 * pixel ranges that start and end mid-row, float rows through
 * DynamicQuantizeLinear's arithmetic with ties, NaN, infinities and
 * saturation) and the epilogues (requantize per row and per column with ties,
 * saturation, NaN and a narrowed clamp; dequantize with and without bias) on ragged lengths, with
 * guard elements that must stay untouched. Runs natively (scalar variants)
 * and in the wasi build (both). */
#include <math.h>
#include <stdint.h>

#include "kernel_util.h"
#include "ops/op_internal.h"

static int32_t rnd_range(int32_t lo, int32_t hi) {
  return lo + (int32_t)(lcg_next() % (uint32_t)(hi - lo + 1));
}

/* Extreme values often: the range's ends, else uniform. */
static int32_t rnd_val(int32_t lo, int32_t hi) {
  const uint32_t r = lcg_next() % 8;
  return r == 0 ? lo : r == 1 ? hi : rnd_range(lo, hi);
}

/* ------------------------------------------------------------ the GEMMs */

typedef struct gemm_variant {
  const char *name;
  wnn_qs8_gemm_ukernel *conv;
  wnn_qs8_gemm_pb_ukernel *pb;
  size_t mr, nr;
} gemm_variant;

static const gemm_variant GEMMS[] = {
#define WNN_QS8_GEMM(fn_, isa_, mr_, nr_) WNN_IF_ISA(isa_, {#fn_, fn_, NULL, mr_, nr_},)
#define WNN_QS8_GEMM_PB(fn_, isa_, mr_, nr_) WNN_IF_ISA(isa_, {#fn_, NULL, fn_, mr_, nr_},)
#include "kernels/kernels.inc"
};
#define NUM_GEMMS (sizeof GEMMS / sizeof GEMMS[0])

/* One case of either orientation: a kernel (v) or the driver (g). C is m x n
 * at row stride n + 3 with guard values in the padding. */
static int check_gemm(const gemm_variant *v, const wnn_qs8_gemm_config *g, bool pb, size_t m,
                      size_t n, size_t k, bool with_init, bool wrap) {
  const size_t kp = (k + 1) / 2;
  /* conv: A int8 m x k (a_rs = k: the last row ends the allocation), B int16
   * K-pairs; pb: A int16 m x 2kp (pad 0), B int8 K-pairs. */
  const size_t a_rs = pb ? 2 * kp : k, b_rs = 2 * n, c_rs = n + 3;
  int8_t *a8 = malloc(m * a_rs + 1), *b8 = malloc(kp * b_rs + 1);
  int16_t *a16 = malloc((m * a_rs + 1) * 2), *b16 = malloc((kp * b_rs + 1) * 2);
  int32_t *init = malloc((m + 1) * 4), *c = malloc((m * c_rs + 1) * 4);
  int32_t *want = malloc((m * c_rs + 1) * 4);
  for (size_t i = 0; i < m; i++)
    for (size_t q = 0; q < a_rs; q++) {
      if (pb) a16[i * a_rs + q] = q < k ? (int16_t)rnd_val(-255, 255) : 0;
      else a8[i * a_rs + q] = (int8_t)rnd_val(-128, 127);
    }
  for (size_t q = 0; q < kp; q++)
    for (size_t j = 0; j < 2 * n; j++) {
      const bool pad = 2 * q + j % 2 >= k;
      if (pb) b8[q * b_rs + j] = pad ? 0 : (int8_t)rnd_val(-128, 127);
      else b16[q * b_rs + j] = pad ? 0 : (int16_t)rnd_val(-255, 255);
    }
  for (size_t i = 0; i < m; i++)
    init[i] = wrap ? INT32_MAX - (int32_t)i : (int32_t)rnd_range(-100000, 100000);
  for (size_t i = 0; i < m * c_rs; i++) c[i] = want[i] = (int32_t)lcg_next();
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) {
      uint32_t acc = with_init ? (uint32_t)init[i] : 0u;
      for (size_t q = 0; q < k; q++) {
        const int32_t av = pb ? a16[i * a_rs + q] : a8[i * a_rs + q];
        const int32_t bv = pb ? b8[(q / 2) * b_rs + 2 * j + q % 2] : b16[(q / 2) * b_rs + 2 * j + q % 2];
        acc += (uint32_t)(av * bv);
      }
      want[i * c_rs + j] = (int32_t)acc;
    }
  const int32_t *ip = with_init ? init : NULL;
  if (v && pb) v->pb(m, n, k, a16, a_rs, b8, b_rs, ip, c, c_rs);
  else if (v) v->conv(m, n, k, a8, a_rs, b16, b_rs, ip, c, c_rs);
  else if (pb) wnn_qs8_gemm_pb(g, m, n, k, a16, a_rs, b8, b_rs, ip, c, c_rs);
  else wnn_qs8_gemm(g, m, n, k, a8, a_rs, b16, b_rs, ip, c, c_rs);
  int ok = memcmp(c, want, m * c_rs * 4) == 0;
  if (!ok) {
    for (size_t i = 0; i < m * c_rs; i++)
      if (c[i] != want[i]) {
        printf("  %s%s: m=%zu n=%zu k=%zu init=%d: c[%zu][%zu] = %d, want %d\n",
               v ? v->name : "driver", pb ? " (pb)" : "", m, n, k, with_init, i / c_rs,
               i % c_rs, c[i], want[i]);
        break;
      }
  }
  free(a8), free(b8), free(a16), free(b16), free(init), free(c), free(want);
  return ok;
}

TEST(gemm_every_panel) {
  static const size_t KS[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 69, 70};
  for (size_t v = 0; v < NUM_GEMMS; v++) {
    const gemm_variant *gv = &GEMMS[v];
    int ok = 1;
    for (size_t mr = 1; mr <= gv->mr && ok; mr++)
      for (size_t nc = 1; nc <= 2 * gv->nr + 3 && ok; nc++)
        for (size_t ki = 0; ki < sizeof KS / sizeof KS[0] && ok; ki++)
          for (int init = 0; init < 2 && ok; init++)
            ok = check_gemm(gv, NULL, gv->pb != NULL, mr, nc, KS[ki], init, false);
    /* int32 wraps as two's complement: init near INT32_MAX */
    for (size_t k = 63; k <= 64 && ok; k++)
      ok = check_gemm(gv, NULL, gv->pb != NULL, gv->mr, 2 * gv->nr + 1, k, true, true);
    CHECK(ok);
  }
}

TEST(gemm_driver) {
  static const wnn_kernels SETS[] = {WNN_KERNELS_SCALAR, WNN_KERNELS_AUTO};
  for (size_t s = 0; s < 2; s++) {
    const wnn_qs8_gemm_config g = wnn_select_qs8_gemm(SETS[s]);
    CHECK(g.conv && g.pb && g.packk && g.packrows && g.s8_packk && g.im2col && g.f32_packrows &&
          g.requant && g.dequant);
    for (int pb = 0; pb < 2; pb++) {
      const size_t mr = pb ? g.pb_mr : g.conv_mr, nr = pb ? g.pb_nr : g.conv_nr;
      CHECK(check_gemm(NULL, &g, pb, mr, nr, 7, true, false));              /* one tile */
      CHECK(check_gemm(NULL, &g, pb, mr - 1 ? mr - 1 : 1, nr - 1, 5, false, false));
      CHECK(check_gemm(NULL, &g, pb, 5 * mr, 9 * nr, 33, true, false));     /* many tiles */
      CHECK(check_gemm(NULL, &g, pb, 3 * mr + 1, 5 * nr + 3, 18, true, false)); /* ragged */
      CHECK(check_gemm(NULL, &g, pb, 1, 1, 1, false, false));
      CHECK(check_gemm(NULL, &g, pb, 7, 13, 0, true, false));               /* k = 0: init */
      CHECK(check_gemm(NULL, &g, pb, 7, 13, 0, false, false));
      CHECK(check_gemm(NULL, &g, pb, 0, 5, 3, true, false));                /* empty */
      /* several column blocks (32 KiB of B each), the last ragged */
      CHECK(check_gemm(NULL, &g, pb, 9, 150, 257, true, false));
      CHECK(check_gemm(NULL, &g, pb, 3, 1000, 1, true, false));
      for (size_t m = 1; m <= 13; m += 3)
        for (size_t n = 1; n <= 41; n += 4)
          for (size_t k = 1; k <= 9; k += 2) CHECK(check_gemm(NULL, &g, pb, m, n, k, m & 1, false));
    }
  }
}

/* -------------------------------------------------------------- packing */

typedef struct pack_variant {
  const char *name;
  wnn_q8_packk_ukernel *packk;
  wnn_q8_packrows_ukernel *packrows;
  wnn_s8_packk_ukernel *s8_packk;
  wnn_q8_im2col_ukernel *im2col;
  wnn_f32_qpackrows_ukernel *f32_packrows;
  wnn_qs32_requant_ukernel *requant;
  wnn_qs32_dequant_ukernel *dequant;
} pack_variant;

static const pack_variant PACKS[] = {
#define WNN_Q8_PACKK(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, .packk = fn_},)
#define WNN_Q8_PACKROWS(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, .packrows = fn_},)
#define WNN_S8_PACKK(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, .s8_packk = fn_},)
#define WNN_Q8_IM2COL(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, .im2col = fn_},)
#define WNN_F32_QPACKROWS(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, .f32_packrows = fn_},)
#define WNN_QS32_REQUANT(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, .requant = fn_},)
#define WNN_QS32_DEQUANT(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, .dequant = fn_},)
#include "kernels/kernels.inc"
};
#define NUM_PACKS (sizeof PACKS / sizeof PACKS[0])

static int32_t q8_value(const uint8_t *x, size_t i, const wnn_q8_pack_params *p) {
  return (p->s8 ? (int32_t)(int8_t)x[i] : (int32_t)x[i]) - p->zero_point;
}

static uint8_t *rand_bytes(size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd_val(0, 255);
  return p;
}

/* Compares n int16 and reports the first difference. */
static int same16(const char *what, const int16_t *got, const int16_t *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("  %s: element %zu: got %d, want %d\n", what, i, got[i], want[i]);
      return 0;
    }
  return 1;
}

static const wnn_q8_pack_params PACK_PARAMS[] = {
    {0, false}, {255, false}, {128, false}, {37, false}, {0, true}, {-128, true}, {127, true},
    {-5, true}};
#define NUM_PP (sizeof PACK_PARAMS / sizeof PACK_PARAMS[0])

TEST(pack_k_pairs_and_rows) {
  for (size_t v = 0; v < NUM_PACKS; v++) {
    const pack_variant *pv = &PACKS[v];
    if (!pv->packk && !pv->packrows && !pv->s8_packk) continue;
    int ok = 1;
    for (size_t k = 1; k <= 9 && ok; k += (k < 5 ? 1 : 4))
      for (size_t n = 1; n <= 40 && ok; n += (n < 18 ? 1 : 11))
        for (size_t pi = 0; pi < NUM_PP && ok; pi++) {
          const wnn_q8_pack_params *p = &PACK_PARAMS[pi];
          const size_t x_rs = n + 5, kp = (k + 1) / 2;
          uint8_t *x = rand_bytes(k * x_rs);
          if (pv->packk || pv->s8_packk) {
            const size_t y_rs = 2 * n + 3, count = kp * y_rs;
            int16_t *y = malloc(count * 2), *want = malloc(count * 2);
            int8_t *y8 = malloc(count), *want8 = malloc(count);
            for (size_t i = 0; i < count; i++)
              y[i] = want[i] = (int16_t)lcg_next(), y8[i] = want8[i] = (int8_t)lcg_next();
            for (size_t r = 0; r < 2 * kp; r++)
              for (size_t j = 0; j < n; j++) {
                want[(r / 2) * y_rs + 2 * j + r % 2] = r < k ? (int16_t)q8_value(x + r * x_rs, j, p) : 0;
                want8[(r / 2) * y_rs + 2 * j + r % 2] = r < k ? (int8_t)x[r * x_rs + j] : 0;
              }
            if (pv->packk) {
              pv->packk(k, n, x, x_rs, y, y_rs, p);
              ok = same16(pv->name, y, want, count);
            } else if (pi == 0) {
              pv->s8_packk(k, n, (const int8_t *)x, x_rs, y8, y_rs);
              ok = memcmp(y8, want8, count) == 0;
              if (!ok) printf("  %s: k=%zu n=%zu differs\n", pv->name, k, n);
            }
            free(y), free(want), free(y8), free(want8);
          }
          if (pv->packrows) {
            /* rows = k here, each of n elements */
            const size_t y_rs = n + (n & 1) + 3, count = k * y_rs;
            int16_t *y = malloc(count * 2), *want = malloc(count * 2);
            for (size_t i = 0; i < count; i++) y[i] = want[i] = (int16_t)lcg_next();
            for (size_t i = 0; i < k; i++) {
              for (size_t c = 0; c < n; c++) want[i * y_rs + c] = (int16_t)q8_value(x + i * x_rs, c, p);
              if (n & 1) want[i * y_rs + n] = 0;
            }
            pv->packrows(k, n, x, x_rs, y, y_rs, p);
            ok = same16(pv->name, y, want, count);
            free(y), free(want);
          }
          if (!ok) printf("  %s: k=%zu n=%zu zp=%d s8=%d\n", pv->name, k, n, p->zero_point, p->s8);
          free(x);
        }
    CHECK(ok);
  }
}

/* The im2col from its definition, over pixels [p0, p0 + np). */
static void naive_im2col(size_t ch, const uint8_t *x, size_t p0, size_t np, int16_t *y,
                         const wnn_window2d *w, const wnn_q8_pack_params *p) {
  const size_t k = ch * w->k_h * w->k_w;
  for (size_t r = 0; r < k + (k & 1); r++)
    for (size_t j = 0; j < np; j++) {
      int16_t v = 0;
      if (r < k) {
        const size_t c = r / (w->k_h * w->k_w), ky = r / w->k_w % w->k_h, kx = r % w->k_w;
        const size_t oy = (p0 + j) / w->out_w, ox = (p0 + j) % w->out_w;
        const long iy = (long)(oy * w->stride_h + ky * w->dil_h) - (long)w->pad_t;
        const long ix = (long)(ox * w->stride_w + kx * w->dil_w) - (long)w->pad_l;
        if (iy >= 0 && iy < (long)w->in_h && ix >= 0 && ix < (long)w->in_w)
          v = (int16_t)q8_value(x, (c * w->in_h + (size_t)iy) * w->in_w + (size_t)ix, p);
      }
      y[(r / 2) * 2 * np + 2 * j + r % 2] = v;
    }
}

TEST(im2col) {
  static const size_t KS[][2] = {{1, 1}, {3, 3}, {5, 5}, {2, 3}, {7, 7}};
  for (size_t v = 0; v < NUM_PACKS; v++) {
    const pack_variant *pv = &PACKS[v];
    if (!pv->im2col) continue;
    int ok = 1;
    for (size_t kk = 0; kk < 5 && ok; kk++)
      for (size_t s = 1; s <= 3 && ok; s++)
        for (size_t d = 1; d <= 2 && ok; d++)
          for (size_t pad = 0; pad <= 2 && ok; pad++)
            for (size_t in_w = 1; in_w <= 37 && ok; in_w += (in_w < 10 ? 1 : 9))
              for (size_t ch = 1; ch <= 3 && ok; ch += 2) {
                wnn_window2d w = {0};
                w.in_h = 6, w.in_w = in_w, w.k_h = KS[kk][0], w.k_w = KS[kk][1];
                w.stride_h = s, w.stride_w = s, w.dil_h = d, w.dil_w = d;
                w.pad_t = pad, w.pad_l = pad, w.pad_b = pad + 1, w.pad_r = (pad + 1) % 3;
                const long eh = (long)(w.in_h + w.pad_t + w.pad_b) - (long)((w.k_h - 1) * d + 1);
                const long ew = (long)(w.in_w + w.pad_l + w.pad_r) - (long)((w.k_w - 1) * d + 1);
                if (eh < 0 || ew < 0) continue;
                w.out_h = (size_t)eh / s + 1, w.out_w = (size_t)ew / s + 1;
                const size_t pixels = w.out_h * w.out_w, k = ch * w.k_h * w.k_w;
                uint8_t *x = rand_bytes(ch * w.in_h * w.in_w);
                const wnn_q8_pack_params *p = &PACK_PARAMS[(kk + s + d + pad + in_w) % NUM_PP];
                /* all pixels; a range from mid-row to mid-row; one pixel */
                const size_t ranges[3][2] = {{0, pixels},
                                             {pixels / 3, pixels - pixels / 3 - pixels / 5},
                                             {pixels / 2, 1}};
                for (int rg = 0; rg < 3 && ok; rg++) {
                  const size_t p0 = ranges[rg][0], np = ranges[rg][1];
                  if (np == 0) continue;
                  const size_t count = ((k + 1) / 2) * 2 * np;
                  int16_t *y = malloc((count + 4) * 2), *want = malloc((count + 4) * 2);
                  for (size_t i = 0; i < count + 4; i++) y[i] = want[i] = (int16_t)lcg_next();
                  naive_im2col(ch, x, p0, np, want, &w, p);
                  pv->im2col(ch, x, p0, np, y, &w, p);
                  ok = same16(pv->name, y, want, count + 4);
                  if (!ok)
                    printf("  k %zux%zu s%zu d%zu pad%zu in_w %zu ch %zu p0 %zu np %zu\n",
                           w.k_h, w.k_w, s, d, pad, in_w, ch, p0, np);
                  free(y), free(want);
                }
                free(x);
              }
    CHECK(ok);
  }
}

/* DynamicQuantizeLinear's element (src/ops/quant.c), minus the zero point. */
static int16_t naive_dql(float x, float scale, float zp) {
  if (!(scale > 0.0f)) return (int16_t)-zp;
  float q = nearbyintf(x / scale) + zp;
  q = q > 0.0f ? q : 0.0f;
  q = q < 255.0f ? q : 255.0f;
  return (int16_t)((int)q - (int)zp);
}

TEST(float_rows) {
  static const float SPECIAL[] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 1e30f, -1e30f,
                                  0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 126.5f, 127.5f,
                                  -127.5f, 3e-39f};
  static const float SCALES[][2] = {{1.0f, 0.0f}, {1.0f, 128.0f}, {0.5f, 3.0f},
                                    {0.0137f, 201.0f}, {0.0f, 0.0f}, {2.0f, 255.0f}};
  for (size_t v = 0; v < NUM_PACKS; v++) {
    const pack_variant *pv = &PACKS[v];
    if (!pv->f32_packrows) continue;
    int ok = 1;
    for (size_t si = 0; si < 6 && ok; si++)
      for (size_t k = 1; k <= 41 && ok; k += (k < 20 ? 1 : 7)) {
        const float scale = SCALES[si][0], zp = SCALES[si][1];
        const size_t rows = 3, x_rs = k + 2, y_rs = k + (k & 1) + 2;
        float *x = malloc(rows * x_rs * sizeof *x);
        for (size_t i = 0; i < rows * x_rs; i++) {
          const uint32_t r = lcg_next() % 4;
          /* specials, exact ties (x / scale = n + 0.5) and uniform values */
          x[i] = r == 0   ? SPECIAL[lcg_next() % (sizeof SPECIAL / sizeof SPECIAL[0])]
                 : r == 1 ? ((float)rnd_range(-300, 300) + 0.5f) * scale
                          : lcg_float() * 200.0f * (scale > 0 ? scale : 1.0f);
        }
        int16_t *y = malloc(rows * y_rs * 2), *want = malloc(rows * y_rs * 2);
        for (size_t i = 0; i < rows * y_rs; i++) y[i] = want[i] = (int16_t)lcg_next();
        for (size_t i = 0; i < rows; i++) {
          for (size_t c = 0; c < k; c++) want[i * y_rs + c] = naive_dql(x[i * x_rs + c], scale, zp);
          if (k & 1) want[i * y_rs + k] = 0;
        }
        pv->f32_packrows(rows, k, x, x_rs, y, y_rs, scale, zp);
        ok = same16(pv->name, y, want, rows * y_rs);
        if (!ok) printf("  k=%zu scale=%g zp=%g\n", k, scale, zp);
        free(x), free(y), free(want);
      }
    CHECK(ok);
  }
}

/* ------------------------------------------------------------ epilogues */

TEST(requantize) {
  /* scale, zero point, lo, hi, s8 */
  static const struct { float s, zp, lo, hi; bool s8; } CASES[] = {
      {0.5f, 0.0f, 0.0f, 255.0f, false},    /* odd acc: ties at x.5 */
      {0.5f, 3.0f, -128.0f, 127.0f, true},
      {0.00731f, 128.0f, 0.0f, 255.0f, false},
      {1.0f, -7.0f, -128.0f, 127.0f, true}, /* saturation both ways */
      {0.25f, 100.0f, 100.0f, 200.0f, false}, /* a narrowed (Relu/Clip) range */
      {NAN, 5.0f, 0.0f, 255.0f, false},     /* NaN -> lo */
      {NAN, 5.0f, -128.0f, 127.0f, true},
      {INFINITY, 0.0f, -128.0f, 127.0f, true},
  };
  for (size_t v = 0; v < NUM_PACKS; v++) {
    const pack_variant *pv = &PACKS[v];
    if (!pv->requant) continue;
    int ok = 1;
    for (size_t ci = 0; ci < sizeof CASES / sizeof CASES[0] && ok; ci++)
      for (size_t n = 1; n <= 70 && ok; n += (n < 34 ? 1 : 9))
       for (int col = 0; col < 2 && ok; col++) {
        const size_t rows = 3, acc_rs = n + 1, y_rs = n + 5;
        int32_t *acc = malloc(rows * acc_rs * 4);
        float scale[70];
        for (size_t i = 0; i < 70; i++) scale[i] = i % 3 == 1 ? CASES[ci].s * 2.0f : CASES[ci].s;
        for (size_t i = 0; i < rows * acc_rs; i++) {
          const uint32_t r = lcg_next() % 6;
          acc[i] = r == 0 ? INT32_MAX : r == 1 ? INT32_MIN : r == 2 ? 2 * rnd_range(-300, 300) + 1
                                                                  : rnd_range(-2000, 2000);
        }
        uint8_t *y = malloc(rows * y_rs), *want = malloc(rows * y_rs);
        for (size_t i = 0; i < rows * y_rs; i++) y[i] = want[i] = (uint8_t)lcg_next();
        for (size_t i = 0; i < rows; i++)
          for (size_t j = 0; j < n; j++) {
            float q = nearbyintf((float)acc[i * acc_rs + j] * scale[col ? j : i]) + CASES[ci].zp;
            q = q > CASES[ci].lo ? q : CASES[ci].lo;
            q = q < CASES[ci].hi ? q : CASES[ci].hi;
            want[i * y_rs + j] = CASES[ci].s8 ? (uint8_t)(int8_t)q : (uint8_t)q;
          }
        const wnn_qs32_requant_params p = {CASES[ci].zp, CASES[ci].lo, CASES[ci].hi, CASES[ci].s8,
                                           col};
        pv->requant(rows, n, acc, acc_rs, scale, y, y_rs, &p);
        ok = memcmp(y, want, rows * y_rs) == 0;
        if (!ok) printf("  %s: case %zu n=%zu per_column=%d differs\n", pv->name, ci, n, col);
        free(acc), free(y), free(want);
      }
    CHECK(ok);
  }
}

TEST(dequantize) {
  for (size_t v = 0; v < NUM_PACKS; v++) {
    const pack_variant *pv = &PACKS[v];
    if (!pv->dequant) continue;
    int ok = 1;
    for (int with_bias = 0; with_bias < 2 && ok; with_bias++)
      for (size_t n = 1; n <= 41 && ok; n++) {
        const size_t rows = 3, acc_rs = n + 2, y_rs = n + 3;
        int32_t *acc = malloc(rows * acc_rs * 4);
        float *scale = rand_floats(n), *bias = rand_floats(n);
        float *y = malloc(rows * y_rs * 4), *want = malloc(rows * y_rs * 4);
        for (size_t i = 0; i < rows * acc_rs; i++)
          acc[i] = lcg_next() % 5 == 0 ? (int32_t)lcg_next() : rnd_range(-70000, 70000);
        scale[0] = 1e-3f, bias[0] = -0.0f; /* -0 bias: (float)0 * s + -0 = +0 */
        for (size_t i = 0; i < rows * y_rs; i++) y[i] = want[i] = (float)lcg_next();
        for (size_t i = 0; i < rows; i++)
          for (size_t j = 0; j < n; j++) {
            const float prod = (float)acc[i * acc_rs + j] * scale[j];
            want[i * y_rs + j] = with_bias ? prod + bias[j] : prod;
          }
        pv->dequant(rows, n, acc, acc_rs, scale, with_bias ? bias : NULL, y, y_rs);
        ok = memcmp(y, want, rows * y_rs * 4) == 0;
        if (!ok) printf("  %s: n=%zu bias=%d differs\n", pv->name, n, with_bias);
        free(acc), free(scale), free(bias), free(y), free(want);
      }
    CHECK(ok);
  }
}

int main(void) {
  RUN(gemm_every_panel);
  RUN(gemm_driver);
  RUN(pack_k_pairs_and_rows);
  RUN(im2col);
  RUN(float_rows);
  RUN(requantize);
  RUN(dequantize);
  return test_summary();
}
