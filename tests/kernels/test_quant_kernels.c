/* The int8 element-wise kernels (QuantizeLinear, DequantizeLinear,
 * DynamicQuantizeLinear's range) and the int8 depthwise convolution, every
 * variant of kernels.inc, bitwise against naive loops written here from the
 * definitions (kernels.h): lengths 0..40 and 1027 at offsets 0..3 (the SIMD
 * tails) with nothing beside the output written; ties x / scale = k + 0.5 of
 * both signs, saturation, NaN, infinities, -0, huge values, zero points at
 * the ends of their types; depthwise planes from 1x1 to 37 wide, strides 1-3,
 * dilation 1-2, asymmetric paddings 0-2, kernels 1x1 to 7x7, uint8 and int8
 * x and y, clamps, biases near the int32 limits. The oracles are checked on
 * hand-worked values first. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernel_util.h"

#define COUNT(a) (sizeof a / sizeof a[0])

typedef struct { const char *name; wnn_f32_qu8_vcvt_ukernel *fn; } qu8_row;
typedef struct { const char *name; wnn_f32_qs8_vcvt_ukernel *fn; } qs8_row;
typedef struct { const char *name; wnn_qu8_f32_vcvt_ukernel *fn; } du8_row;
typedef struct { const char *name; wnn_qs8_f32_vcvt_ukernel *fn; } ds8_row;
typedef struct { const char *name; wnn_s32_f32_vcvt_ukernel *fn; } ds32_row;
typedef struct { const char *name; wnn_f32_qrange_ukernel *fn; } range_row;
typedef struct { const char *name; wnn_qs8_dwconv_ukernel *fn; } dw_row;
static const qu8_row QU8[] = {
#define WNN_F32_QU8_VCVT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
static const qs8_row QS8[] = {
#define WNN_F32_QS8_VCVT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
static const du8_row DU8[] = {
#define WNN_QU8_F32_VCVT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
static const ds8_row DS8[] = {
#define WNN_QS8_F32_VCVT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
static const ds32_row DS32[] = {
#define WNN_S32_F32_VCVT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
static const range_row RANGE[] = {
#define WNN_F32_QRANGE(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
static const dw_row DW[] = {
#define WNN_QS8_DWCONV(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};

/* Lengths 0, 1, ..., short, then last, then past last (which ends a loop). */
static size_t next_len(size_t n, size_t short_max, size_t last) {
  return n < short_max ? n + 1 : n < last ? last : last + 1;
}

static uint32_t bits_of(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

/* ------------------------------------------------------------- oracles */

/* QuantizeLinear as ONNX defines it, in float32: saturate(round(x / s) + z),
 * round half to even, NaN to the low end (as src/ops/quant.c). */
static int32_t ref_quantize(float x, float s, float z, float lo, float hi) {
  float v = nearbyintf(x / s) + z;
  if (!(v > lo)) v = lo;
  if (!(v < hi)) v = hi;
  return (int32_t)v;
}

static float ref_dequantize(int64_t x, int64_t z, float s) { return (float)(x - z) * s; }

TEST(oracles_hand_worked) {
  /* ties go to even, both signs; saturation; NaN low */
  CHECK(ref_quantize(2.5f, 1.0f, 0.0f, 0.0f, 255.0f) == 2);
  CHECK(ref_quantize(3.5f, 1.0f, 0.0f, 0.0f, 255.0f) == 4);
  CHECK(ref_quantize(-2.5f, 1.0f, 0.0f, -128.0f, 127.0f) == -2);
  CHECK(ref_quantize(-3.5f, 1.0f, 0.0f, -128.0f, 127.0f) == -4);
  CHECK(ref_quantize(0.75f, 0.5f, 10.0f, 0.0f, 255.0f) == 12); /* 1.5 -> 2 */
  CHECK(ref_quantize(1.25f, 0.5f, 10.0f, 0.0f, 255.0f) == 12); /* 2.5 -> 2 */
  CHECK(ref_quantize(-0.5f, 1.0f, 0.0f, 0.0f, 255.0f) == 0);
  CHECK(ref_quantize(300.0f, 1.0f, 0.0f, 0.0f, 255.0f) == 255);
  CHECK(ref_quantize(-300.0f, 1.0f, 0.0f, -128.0f, 127.0f) == -128);
  CHECK(ref_quantize(NAN, 1.0f, 0.0f, -128.0f, 127.0f) == -128);
  CHECK(ref_quantize(INFINITY, 0.1f, 0.0f, -128.0f, 127.0f) == 127);
  CHECK(ref_dequantize(200, 128, 0.5f) == 36.0f);
  CHECK(ref_dequantize(-128, 127, 1.0f) == -255.0f);
  CHECK(ref_dequantize(INT32_MAX, -1, 1.0f) == 2147483648.0f);
}

/* ------------------------------------------------------------ Quantize */

/* Values that hit the edge cases at scale s: ties k + 0.5 of both signs,
 * the values around them, saturation, specials. */
static size_t special_inputs(float s, float *x, size_t cap) {
  size_t n = 0;
  for (int k = -140; k <= 300 && n + 8 < cap; k += 7) {
    const float t = ((float)k + 0.5f) * s;
    x[n++] = t, x[n++] = -t, x[n++] = nextafterf(t, INFINITY), x[n++] = nextafterf(t, -INFINITY);
    x[n++] = (float)k * s;
  }
  const float sp[] = {0.0f, -0.0f, NAN, -NAN, INFINITY, -INFINITY, 1e30f, -1e30f, FLT_MAX,
                      -FLT_MAX, 1e-40f, -1e-40f, 0.5f, -0.5f, 1.5f, -1.5f, 254.5f, 255.5f,
                      -128.5f, 127.5f, 126.5f, -127.5f, 8388609.0f, -8388609.0f};
  for (size_t i = 0; i < COUNT(sp) && n < cap; i++) x[n++] = sp[i];
  while (n < cap) x[n++] = lcg_float() * 300.0f * s;
  return n;
}

TEST(quantize_values) {
  static const float scales[] = {1.0f, 0.5f, 0.1f, 1.0f / 3.0f, 0.0078125f, 3.7e-3f, 25.0f, 1e-30f};
  static const float zu8[] = {0.0f, 1.0f, 128.0f, 254.0f, 255.0f};
  static const float zs8[] = {-128.0f, -127.0f, 0.0f, 5.0f, 126.0f, 127.0f};
  enum { N = 1027 };
  static float x[N];
  static uint8_t yu[N];
  static int8_t ys[N];
  bool ok = true;
  for (size_t si = 0; si < COUNT(scales) && ok; si++) {
    const float s = scales[si];
    const size_t n = special_inputs(s, x, N);
    for (size_t zi = 0; zi < COUNT(zu8) && ok; zi++)
      for (size_t v = 0; v < COUNT(QU8) && ok; v++) {
        const wnn_f32_q8_cvt_params p = {s, zu8[zi]};
        QU8[v].fn(n, x, yu, &p);
        for (size_t i = 0; i < n && ok; i++)
          if (yu[i] != ref_quantize(x[i], s, zu8[zi], 0.0f, 255.0f)) {
            printf("  %s: x %a scale %a zp %g: got %d want %d\n", QU8[v].name, x[i], s, zu8[zi],
                   yu[i], ref_quantize(x[i], s, zu8[zi], 0.0f, 255.0f));
            ok = false;
          }
      }
    for (size_t zi = 0; zi < COUNT(zs8) && ok; zi++)
      for (size_t v = 0; v < COUNT(QS8) && ok; v++) {
        const wnn_f32_q8_cvt_params p = {s, zs8[zi]};
        QS8[v].fn(n, x, ys, &p);
        for (size_t i = 0; i < n && ok; i++)
          if (ys[i] != ref_quantize(x[i], s, zs8[zi], -128.0f, 127.0f)) {
            printf("  %s: x %a scale %a zp %g: got %d want %d\n", QS8[v].name, x[i], s, zs8[zi],
                   ys[i], ref_quantize(x[i], s, zs8[zi], -128.0f, 127.0f));
            ok = false;
          }
      }
  }
  CHECK(ok);
  /* the saturation and tie cases above must actually occur */
  const wnn_f32_q8_cvt_params p = {1.0f, 0.0f};
  const float probe[] = {2.5f, -2.5f, 300.0f, -300.0f, NAN};
  uint8_t u[5];
  QU8[COUNT(QU8) - 1].fn(5, probe, u, &p);
  CHECK(u[0] == 2 && u[1] == 0 && u[2] == 255 && u[3] == 0 && u[4] == 0);
}

TEST(quantize_lengths_and_offsets) {
  enum { CAP = 1027 + 8 };
  static float x[CAP];
  static uint8_t yu[CAP];
  static int8_t ys[CAP];
  for (size_t i = 0; i < CAP; i++) x[i] = (i % 11 == 3) ? NAN : lcg_float() * 200.0f;
  const wnn_f32_q8_cvt_params p = {0.75f, 3.0f};
  bool ok = true;
  for (size_t n = 0; n <= 1027 && ok; n = next_len(n, 40, 1027))
    for (size_t off = 0; off <= 3 && ok; off++) {
      for (size_t v = 0; v < COUNT(QU8); v++) {
        memset(yu, 0xA5, sizeof yu);
        QU8[v].fn(n, x + off, yu + off, &p);
        for (size_t i = 0; i < CAP; i++) {
          const bool in = i >= off && i < off + n;
          if (yu[i] != (in ? ref_quantize(x[i], 0.75f, 3.0f, 0.0f, 255.0f) : 0xA5)) ok = false;
        }
        if (!ok) printf("  %s: n %zu offset %zu\n", QU8[v].name, n, off);
      }
      for (size_t v = 0; v < COUNT(QS8); v++) {
        memset(ys, 0x5A, sizeof ys);
        QS8[v].fn(n, x + off, ys + off, &p);
        for (size_t i = 0; i < CAP; i++) {
          const bool in = i >= off && i < off + n;
          if (ys[i] != (in ? ref_quantize(x[i], 0.75f, 3.0f, -128.0f, 127.0f) : 0x5A)) ok = false;
        }
        if (!ok) printf("  %s: n %zu offset %zu\n", QS8[v].name, n, off);
      }
    }
  CHECK(ok);
}

/* ---------------------------------------------------------- Dequantize */

TEST(dequantize_all_values) {
  static const float scales[] = {1.0f, 0.5f, 0.1f, 3.7e-3f, 1e30f, 1e-40f};
  uint8_t xu[256 + 19];
  int8_t xs[256 + 19];
  float y[256 + 19];
  const size_t n = 256 + 19;
  for (size_t i = 0; i < n; i++) xu[i] = (uint8_t)(i * 37 + 11), xs[i] = (int8_t)xu[i];
  bool ok = true;
  for (size_t si = 0; si < COUNT(scales); si++) {
    for (int z = 0; z <= 255; z += 17)
      for (size_t v = 0; v < COUNT(DU8); v++) {
        const wnn_q8_f32_cvt_params p = {z, scales[si]};
        DU8[v].fn(n, xu, y, &p);
        for (size_t i = 0; i < n; i++)
          if (bits_of(y[i]) != bits_of(ref_dequantize(xu[i], z, scales[si]))) ok = false;
        if (!ok) {
          printf("  %s: zp %d scale %g\n", DU8[v].name, z, scales[si]);
          CHECK(0);
          return;
        }
      }
    for (int z = -128; z <= 127; z += 17)
      for (size_t v = 0; v < COUNT(DS8); v++) {
        const wnn_q8_f32_cvt_params p = {z, scales[si]};
        DS8[v].fn(n, xs, y, &p);
        for (size_t i = 0; i < n; i++)
          if (bits_of(y[i]) != bits_of(ref_dequantize(xs[i], z, scales[si]))) ok = false;
        if (!ok) {
          printf("  %s: zp %d scale %g\n", DS8[v].name, z, scales[si]);
          CHECK(0);
          return;
        }
      }
  }
  CHECK(ok);
}

TEST(dequantize_int32) {
  enum { N = 1027 };
  static int32_t x[N];
  static float y[N + 4];
  x[0] = INT32_MIN, x[1] = INT32_MAX, x[2] = 0, x[3] = 16777217, x[4] = -16777217, x[5] = 33554435;
  x[6] = INT32_MAX - 64, x[7] = -1;
  for (size_t i = 8; i < N; i++) x[i] = (int32_t)lcg_next() >> (lcg_next() % 31);
  static const int32_t zps[] = {0, 1, -1, 7, INT32_MIN, INT32_MAX, 12345678};
  bool ok = true;
  for (size_t zi = 0; zi < COUNT(zps); zi++)
    for (size_t n = 0; n <= N; n = next_len(n, 20, N))
      for (size_t v = 0; v < COUNT(DS32); v++) {
        const wnn_q8_f32_cvt_params p = {zps[zi], 0.37f};
        for (size_t i = 0; i < N + 4; i++) y[i] = -7.0f;
        DS32[v].fn(n, x, y, &p);
        for (size_t i = 0; i < N + 4; i++) {
          const float want = i < n ? ref_dequantize(x[i], zps[zi], 0.37f) : -7.0f;
          if (bits_of(y[i]) != bits_of(want)) ok = false;
        }
        if (!ok) {
          printf("  %s: zp %d n %zu\n", DS32[v].name, zps[zi], n);
          CHECK(0);
          return;
        }
      }
  CHECK(ok);
}

TEST(dequantize_lengths_and_offsets) {
  enum { CAP = 1027 + 8 };
  static uint8_t xu[CAP];
  static float y[CAP];
  for (size_t i = 0; i < CAP; i++) xu[i] = (uint8_t)lcg_next();
  bool ok = true;
  for (size_t n = 0; n <= 1027 && ok; n = next_len(n, 40, 1027))
    for (size_t off = 0; off <= 3 && ok; off++) {
      for (size_t v = 0; v < COUNT(DU8); v++) {
        const wnn_q8_f32_cvt_params p = {131, 0.02f};
        for (size_t i = 0; i < CAP; i++) y[i] = -7.0f;
        DU8[v].fn(n, xu + off, y + off, &p);
        for (size_t i = 0; i < CAP; i++) {
          const bool in = i >= off && i < off + n;
          if (bits_of(y[i]) != bits_of(in ? ref_dequantize(xu[i], 131, 0.02f) : -7.0f)) ok = false;
        }
        if (!ok) printf("  %s: n %zu offset %zu\n", DU8[v].name, n, off);
      }
      for (size_t v = 0; v < COUNT(DS8); v++) {
        const wnn_q8_f32_cvt_params p = {-3, 0.02f};
        for (size_t i = 0; i < CAP; i++) y[i] = -7.0f;
        DS8[v].fn(n, (const int8_t *)xu + off, y + off, &p);
        for (size_t i = 0; i < CAP; i++) {
          const bool in = i >= off && i < off + n;
          if (bits_of(y[i]) != bits_of(in ? ref_dequantize((int8_t)xu[i], -3, 0.02f) : -7.0f))
            ok = false;
        }
        if (!ok) printf("  %s: n %zu offset %zu\n", DS8[v].name, n, off);
      }
    }
  CHECK(ok);
}

/* --------------------------------------------------------------- range */

static void ref_range(size_t n, const float *x, float *lo, float *hi) {
  *lo = 0.0f, *hi = 0.0f;
  for (size_t i = 0; i < n; i++) {
    if (x[i] != x[i]) continue;
    if (x[i] < *lo) *lo = x[i];
    if (x[i] > *hi) *hi = x[i];
  }
}

TEST(range_values) {
  enum { CAP = 1000 + 8 };
  static float x[CAP];
  bool ok = true;
  for (int kind = 0; kind < 6 && ok; kind++) {
    for (size_t i = 0; i < CAP; i++) {
      switch (kind) {
        case 0: x[i] = lcg_float() * 10.0f; break;            /* both signs */
        case 1: x[i] = fabsf(lcg_float()) + 0.25f; break;     /* all positive: min is 0 */
        case 2: x[i] = -fabsf(lcg_float()) - 0.25f; break;    /* all negative: max is 0 */
        case 3: x[i] = (i % 2) ? -0.0f : 0.0f; break;         /* zeros: +0 both */
        case 4: x[i] = (i % 3) ? NAN : lcg_float(); break;    /* NaN skipped */
        default: x[i] = (i % 97 == 5) ? -INFINITY : (i % 89 == 7) ? INFINITY : lcg_float(); break;
      }
    }
    for (size_t n = 0; n <= 1000 && ok; n = next_len(n, 40, 1000))
      for (size_t off = 0; off <= 3 && ok; off++) {
        float wlo, whi;
        ref_range(n, x + off, &wlo, &whi);
        for (size_t v = 0; v < COUNT(RANGE); v++) {
          float lo = 99.0f, hi = 99.0f;
          RANGE[v].fn(n, x + off, &lo, &hi);
          if (bits_of(lo) != bits_of(wlo) || bits_of(hi) != bits_of(whi)) {
            printf("  %s: kind %d n %zu off %zu: got %a %a want %a %a\n", RANGE[v].name, kind, n,
                   off, lo, hi, wlo, whi);
            ok = false;
          }
        }
      }
  }
  CHECK(ok);
  float lo, hi;
  const float hand[] = {NAN, -0.0f, 3.0f, -2.0f, NAN, 1.0f, -0.0f, 0.5f, -1.0f};
  RANGE[COUNT(RANGE) - 1].fn(COUNT(hand), hand, &lo, &hi);
  CHECK(lo == -2.0f && hi == 3.0f);
  RANGE[COUNT(RANGE) - 1].fn(2, hand, &lo, &hi);
  CHECK(bits_of(lo) == 0 && bits_of(hi) == 0);
}

/* ---------------------------------------------------- depthwise conv */

/* The definition: every tap, padding read as the zero point, int64 sums. */
static void ref_dwconv(const void *x, const int8_t *w, int32_t bias, float scale, void *y,
                       const wnn_qs8_dwconv_params *p) {
  const wnn_window2d *g = &p->win;
  for (size_t oy = 0; oy < g->out_h; oy++)
    for (size_t ox = 0; ox < g->out_w; ox++) {
      int64_t acc = bias;
      for (size_t ky = 0; ky < g->k_h; ky++)
        for (size_t kx = 0; kx < g->k_w; kx++) {
          const long iy = (long)(oy * g->stride_h + ky * g->dil_h) - (long)g->pad_t;
          const long ix = (long)(ox * g->stride_w + kx * g->dil_w) - (long)g->pad_l;
          int32_t v = p->x_zero_point;
          if (iy >= 0 && iy < (long)g->in_h && ix >= 0 && ix < (long)g->in_w) {
            const size_t i = (size_t)iy * g->in_w + (size_t)ix;
            v = p->x_signed ? ((const int8_t *)x)[i] : ((const uint8_t *)x)[i];
          }
          acc += (int64_t)(v - p->x_zero_point) * w[ky * g->k_w + kx];
        }
      float q = nearbyintf((float)acc * scale) + p->y_zero_point;
      if (!(q > p->y_min)) q = p->y_min;
      if (!(q < p->y_max)) q = p->y_max;
      if (p->y_signed) ((int8_t *)y)[oy * g->out_w + ox] = (int8_t)q;
      else ((uint8_t *)y)[oy * g->out_w + ox] = (uint8_t)q;
    }
}

static size_t out_dim(size_t in, size_t k, size_t s, size_t d, size_t p0, size_t p1) {
  const size_t span = (k - 1) * d + 1;
  return in + p0 + p1 < span ? 0 : (in + p0 + p1 - span) / s + 1;
}

/* Weights in [-small_weights, small_weights] when set (ties without
 * saturation), else any int8 with the extremes -128 and 127 among them. */
static int small_weights;

/* The vertical stride and dilation when set (else s and d). */
static size_t stride_h_alt, dil_h_alt;

/* Runs every variant against the oracle on one geometry; false on a mismatch. */
static bool dw_case(size_t in_h, size_t in_w, size_t k_h, size_t k_w, size_t s, size_t d,
                    size_t pt, size_t pl, size_t pb, size_t pr, bool xs, bool ys, int32_t xzp,
                    int32_t bias, float scale, float yzp, float ymin, float ymax) {
  wnn_qs8_dwconv_params p = {.win = {in_h, in_w, 0, 0, k_h, k_w, s, s, d, d, pt, pl, pb, pr},
                             .x_zero_point = xzp, .x_signed = xs, .y_signed = ys,
                             .y_zero_point = yzp, .y_min = ymin, .y_max = ymax};
  if (stride_h_alt) p.win.stride_h = stride_h_alt;
  if (dil_h_alt) p.win.dil_h = dil_h_alt;
  p.win.out_h = out_dim(in_h, k_h, p.win.stride_h, p.win.dil_h, pt, pb);
  p.win.out_w = out_dim(in_w, k_w, s, d, pl, pr);
  const size_t nx = in_h * in_w, ny = p.win.out_h * p.win.out_w;
  if (ny == 0) return true;
  uint8_t *x = malloc(nx + 1), *want = malloc(ny + 16), *got = malloc(ny + 16);
  int8_t w[64];
  for (size_t i = 0; i < nx; i++) x[i] = (uint8_t)lcg_next();
  for (size_t i = 0; i < k_h * k_w; i++)
    w[i] = small_weights ? (int8_t)((int)(lcg_next() % (2 * small_weights + 1)) - small_weights)
                         : (int8_t)lcg_next();
  if (k_h * k_w >= 2 && !small_weights) w[0] = -128, w[1] = 127; /* the extremes */
  memset(want, 0xA5, ny + 16);
  ref_dwconv(x, w, bias, scale, want, &p);
  bool ok = true;
  for (size_t v = 0; v < COUNT(DW) && ok; v++) {
    memset(got, 0xA5, ny + 16);
    DW[v].fn(x, w, bias, scale, got, &p);
    if (memcmp(got, want, ny + 16) != 0) {
      size_t i = 0;
      while (i < ny + 16 && got[i] == want[i]) i++;
      printf("  %s: %zux%zu k %zux%zu s %zu d %zu pad %zu,%zu,%zu,%zu x%s y%s xzp %d bias %d: "
             "element %zu (of %zu) got %d want %d\n",
             DW[v].name, in_h, in_w, k_h, k_w, s, d, pt, pl, pb, pr, xs ? "s8" : "u8",
             ys ? "s8" : "u8", xzp, bias, i, ny, got[i], want[i]);
      ok = false;
    }
  }
  free(x), free(want), free(got);
  return ok;
}

TEST(dwconv_oracle_hand_worked) {
  /* 1x3 input [10, 20, 30] (uint8, zp 10), 1x3 kernel [1, -1, 2], pad 1 left
   * and right: outputs (0)*1... worked by hand:
   *   ox 0: pad, 10, 20 -> 0*1 + 0*-1 + 10*2 = 20
   *   ox 1: 10, 20, 30 -> 0 - 10 + 40 = 30
   *   ox 2: 20, 30, pad -> 10 - 20 + 0 = -10
   * bias 5, scale 0.5, y zp 100: 112.5 -> 112 (even), 117.5 -> 118, 97.5 -> 98 */
  const uint8_t x[3] = {10, 20, 30};
  const int8_t w[3] = {1, -1, 2};
  uint8_t y[3];
  wnn_qs8_dwconv_params p = {.win = {1, 3, 1, 3, 1, 3, 1, 1, 1, 1, 0, 1, 0, 1},
                             .x_zero_point = 10, .y_zero_point = 100.0f, .y_min = 0.0f,
                             .y_max = 255.0f};
  ref_dwconv(x, w, 5, 0.5f, y, &p);
  CHECK(y[0] == 112 && y[1] == 118 && y[2] == 98);
  for (size_t v = 0; v < COUNT(DW); v++) {
    memset(y, 0, 3);
    DW[v].fn(x, w, 5, 0.5f, y, &p);
    CHECK(y[0] == 112 && y[1] == 118 && y[2] == 98);
  }
}

TEST(dwconv_geometries) {
  static const size_t widths[] = {1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 15, 16, 17, 20, 23, 24, 25, 33, 37};
  static const size_t kernels[][2] = {{1, 1}, {3, 3}, {5, 5}, {2, 3}, {7, 7}, {3, 1}};
  static const size_t pads[][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {0, 1, 2, 0}, {2, 0, 1, 2}};
  bool ok = true;
  size_t cases = 0;
  for (size_t wi = 0; wi < COUNT(widths) && ok; wi++)
    for (size_t ki = 0; ki < COUNT(kernels) && ok; ki++)
      for (size_t s = 1; s <= 3 && ok; s++)
        for (size_t d = 1; d <= 2 && ok; d++)
          for (size_t pi = 0; pi < COUNT(pads) && ok; pi++) {
            const size_t h = 1 + (wi + ki + s) % 6;
            const bool xs = (wi + pi) % 2, ys = (ki + d + pi) % 2;
            const int32_t xzp = xs ? (int32_t)(lcg_next() % 256) - 128 : (int32_t)(lcg_next() % 256);
            const float yzp = ys ? (float)((int)(lcg_next() % 256) - 128) : (float)(lcg_next() % 256);
            ok = dw_case(h, widths[wi], kernels[ki][0], kernels[ki][1], s, d, pads[pi][0],
                         pads[pi][1], pads[pi][2], pads[pi][3], xs, ys, xzp,
                         (int32_t)(lcg_next() % 20001) - 10000, 0.001f + 0.01f * lcg_float(), yzp,
                         ys ? -128.0f : 0.0f, ys ? 127.0f : 255.0f);
            cases++;
          }
  CHECK(ok);
  CHECK(cases > 1000);
}

TEST(dwconv_mobilenet_shapes_and_clamps) {
  bool ok = true;
  /* 3x3 s1/s2 pad 1 and 5x5 pad 2, planes around the vector sizes */
  static const size_t sizes[] = {7, 14, 28, 56, 29, 31};
  for (size_t i = 0; i < COUNT(sizes) && ok; i++)
    for (size_t s = 1; s <= 2 && ok; s++) {
      ok = ok && dw_case(sizes[i], sizes[i], 3, 3, s, 1, 1, 1, 1, 1, false, false, 128, 3000,
                         0.0123f, 7.0f, 7.0f, 255.0f); /* fused Relu: clamp at the zero point */
      ok = ok && dw_case(sizes[i], sizes[i], 5, 5, s, 1, 2, 2, 2, 2, true, true, -5, -700, 0.004f,
                         -3.0f, -3.0f, 40.0f); /* Clip */
      ok = ok && dw_case(sizes[i], sizes[i], 3, 3, s, 1, 0, 0, 1, 1, false, true, 0, 0, 0.01f, 0.0f,
                         -128.0f, 127.0f); /* TF-style asymmetric padding */
    }
  CHECK(ok);
}

TEST(dwconv_wide_even_and_mixed) {
  bool ok = true;
  /* rows wider than a vector group many times over, ragged ends */
  static const size_t wide[] = {112, 113, 119, 120, 127, 200};
  for (size_t i = 0; i < COUNT(wide) && ok; i++)
    for (size_t s = 1; s <= 2 && ok; s++) {
      const bool ys = (i + s) % 2;
      ok = ok && dw_case(4, wide[i], 3, 3, s, 1, 1, 1, 1, 1, i % 2, ys, 3, -77, 0.003f, 1.0f,
                         ys ? -128.0f : 0.0f, ys ? 127.0f : 255.0f);
      ok = ok && dw_case(3, wide[i], 5, 5, s, 1, 2, 2, 2, 2, false, false, 200, 9, 0.002f, 50.0f,
                         0.0f, 255.0f);
    }
  /* even and long kernel rows, 1-row kernels, at strides 1 and 2 */
  static const size_t ks[][2] = {{1, 2}, {2, 2}, {1, 4}, {3, 6}, {1, 7}, {4, 8}, {1, 9}, {7, 1}};
  for (size_t i = 0; i < COUNT(ks) && ok; i++)
    for (size_t s = 1; s <= 2 && ok; s++)
      for (size_t w = 5; w <= 41 && ok; w += 12)
        ok = ok && dw_case(9, w, ks[i][0], ks[i][1], s, 1, i % 3, 1, 2, i % 4, i % 2, s == 2, 77,
                           1234, 0.01f, 4.0f, s == 2 ? -128.0f : 0.0f, s == 2 ? 127.0f : 255.0f);
  /* vertical stride and dilation unlike the horizontal ones */
  for (size_t sh = 1; sh <= 3 && ok; sh++)
    for (size_t dh = 1; dh <= 3 && ok; dh++)
      for (size_t s = 1; s <= 2 && ok; s++) {
        stride_h_alt = sh, dil_h_alt = dh;
        ok = ok && dw_case(11, 23, 3, 3, s, 1, 1, 1, 1, 1, false, false, 9, 5, 0.02f, 0.0f, 0.0f,
                           255.0f);
        ok = ok && dw_case(12, 30, 5, 5, s, 1, 2, 2, 2, 2, true, false, -9, 5, 0.02f, 0.0f, 0.0f,
                           255.0f);
        stride_h_alt = dil_h_alt = 0;
      }
  CHECK(ok);
}

TEST(dwconv_extremes) {
  bool ok = true;
  /* saturation: huge scales */
  ok = ok && dw_case(9, 21, 3, 3, 1, 1, 1, 1, 1, 1, false, false, 0, 0, 1000.0f, 0.0f, 0.0f, 255.0f);
  /* ties: with scale 2^-5, (float)acc * scale = k + 0.5 for acc = 16 mod 32,
   * and weights in [-2, 2] keep most outputs inside the range */
  small_weights = 2;
  ok = ok && dw_case(9, 21, 3, 3, 2, 1, 1, 1, 1, 1, true, true, -128, 1, 0x1p-5f, 0.0f, -128.0f, 127.0f);
  ok = ok && dw_case(9, 21, 3, 3, 1, 1, 1, 1, 1, 1, false, true, 255, -1, 0x1p-5f, -1.0f, -128.0f, 127.0f);
  ok = ok && dw_case(9, 37, 5, 5, 1, 1, 2, 2, 2, 2, false, false, 100, 16, 0x1p-5f, 128.0f, 0.0f, 255.0f);
  small_weights = 0;
  /* NaN and infinite scales */
  ok = ok && dw_case(6, 19, 3, 3, 1, 1, 1, 1, 1, 1, false, false, 3, 0, NAN, 0.0f, 0.0f, 255.0f);
  ok = ok && dw_case(6, 19, 3, 3, 1, 1, 1, 1, 1, 1, false, false, 3, 0, INFINITY, 0.0f, 0.0f, 255.0f);
  /* biases near the int32 limits: exact int64 sums where int32 would wrap */
  ok = ok && dw_case(6, 19, 3, 3, 1, 1, 1, 1, 1, 1, false, false, 255, INT32_MAX, 1e-9f, 0.0f,
                     0.0f, 255.0f);
  ok = ok && dw_case(6, 19, 3, 3, 1, 1, 1, 1, 1, 1, true, true, 127, INT32_MIN, 1e-9f, 0.0f,
                     -128.0f, 127.0f);
  ok = ok && dw_case(6, 19, 3, 3, 2, 1, 1, 1, 1, 1, false, false, 0, INT32_MAX - 9 * 255 * 128,
                     1e-7f, 0.0f, 0.0f, 255.0f);
  /* a window larger than the input, and an output row entirely in the padding */
  ok = ok && dw_case(2, 3, 5, 5, 1, 1, 2, 2, 2, 2, false, false, 17, 40, 0.3f, 9.0f, 0.0f, 255.0f);
  ok = ok && dw_case(3, 12, 3, 3, 1, 2, 4, 1, 4, 1, false, false, 17, 40, 0.3f, 9.0f, 0.0f, 255.0f);
  CHECK(ok);
}

int main(void) {
  RUN(oracles_hand_worked);
  RUN(quantize_values);
  RUN(quantize_lengths_and_offsets);
  RUN(dequantize_all_values);
  RUN(dequantize_int32);
  RUN(dequantize_lengths_and_offsets);
  RUN(range_values);
  RUN(dwconv_oracle_hand_worked);
  RUN(dwconv_geometries);
  RUN(dwconv_mobilenet_shapes_and_clamps);
  RUN(dwconv_wide_even_and_mixed);
  RUN(dwconv_extremes);
  return test_summary();
}
