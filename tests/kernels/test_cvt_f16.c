/* The float16 <-> float32 kernels (Cast), every variant of kernels.inc, and
 * the scalar conversion of src/base/half.h, against the oracle written in
 * floating point (wnn_ref_f16_to_f32, wnn_ref_f32_to_f16): all 65536 halves
 * one way; the other way every half, every midpoint between neighbouring
 * halves (the ties) and the floats just beside each, the overflow and
 * subnormal boundaries, infinities, NaNs and a million random bit patterns.
 * Exact (bits). The oracle itself is checked on hand-worked values. Lengths
 * 0..40 at every offset 0..3 check the SIMD tails and that nothing beside
 * the output is written. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/half.h"
#include "kernel_util.h"
#include "ref/ref.h"

typedef struct { const char *name; wnn_f16_f32_vcvt_ukernel *fn; } up_row;
typedef struct { const char *name; wnn_f32_f16_vcvt_ukernel *fn; } down_row;
static const up_row UP[] = {
#define WNN_F16_F32_VCVT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
static const down_row DOWN[] = {
#define WNN_F32_F16_VCVT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};
#define COUNT(a) (sizeof a / sizeof a[0])

static uint32_t bits_of(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static float float_of(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

TEST(oracle_hand_worked) {
  static const struct { float f; uint16_t h; } cases[] = {
      {0.0f, 0x0000}, {-0.0f, 0x8000}, {1.0f, 0x3c00}, {-2.0f, 0xc000},
      {65504.0f, 0x7bff}, {65519.0f, 0x7bff}, {65520.0f, 0x7c00}, {65536.0f, 0x7c00},
      {0x1p-14f, 0x0400}, {0x1p-24f, 0x0001}, {0x1p-25f, 0x0000}, /* tie to 0 (even) */
      {0x1.8p-24f, 0x0002}, /* 1.5 units: tie to 2 */
      {0x1.4p-23f, 0x0002}, /* 2.5 units: tie to 2 */
      {0x1.002p+0f, 0x3c00}, /* 1 + 2^-11: tie between 1 and 1 + 2^-10, to 1 */
      {0x1.006p+0f, 0x3c02}, /* 1 + 3 * 2^-11: tie, to the even 1 + 2^-9 */
      {0.1f, 0x2e66}, {INFINITY, 0x7c00}, {-INFINITY, 0xfc00},
  };
  for (size_t i = 0; i < COUNT(cases); i++) {
    const uint16_t got = wnn_ref_f32_to_f16(cases[i].f);
    if (got != cases[i].h) printf("  oracle: %a -> 0x%04x, want 0x%04x\n", cases[i].f, got, cases[i].h);
    CHECK(got == cases[i].h);
  }
  CHECK(wnn_ref_f16_to_f32(0x3c00) == 1.0f);
  CHECK(wnn_ref_f16_to_f32(0x7bff) == 65504.0f);
  CHECK(wnn_ref_f16_to_f32(0x0001) == 0x1p-24f);
  CHECK(wnn_ref_f16_to_f32(0x8400) == -0x1p-14f);
  CHECK(isinf(wnn_ref_f16_to_f32(0xfc00)) && wnn_ref_f16_to_f32(0xfc00) < 0);
  CHECK(isnan(wnn_ref_f16_to_f32(0x7e00)) && signbit(wnn_ref_f16_to_f32(0xfe00)));
}

TEST(f16_to_f32_all_halves) {
  static uint16_t h[65536];
  static float got[65536];
  for (uint32_t i = 0; i < 65536; i++) h[i] = (uint16_t)i;
  for (uint32_t i = 0; i < 65536; i++) {
    const uint32_t want = bits_of(wnn_ref_f16_to_f32(h[i]));
    if (bits_of(wnn_f16_to_f32(h[i])) != want) {
      printf("  wnn_f16_to_f32(0x%04x) = 0x%08x, want 0x%08x\n", h[i],
             bits_of(wnn_f16_to_f32(h[i])), want);
      CHECK(0);
      return;
    }
  }
  for (size_t v = 0; v < COUNT(UP); v++) {
    UP[v].fn(65536, h, got);
    for (uint32_t i = 0; i < 65536; i++) {
      const uint32_t want = bits_of(wnn_ref_f16_to_f32(h[i]));
      if (bits_of(got[i]) != want) {
        printf("  %s: 0x%04x -> 0x%08x, want 0x%08x\n", UP[v].name, h[i], bits_of(got[i]), want);
        CHECK(0);
        return;
      }
    }
  }
  CHECK(COUNT(UP) >= 1);
}

/* Every float the f32 -> f16 checks use (see the top of the file). */
static float *down_cases(size_t *count) {
  size_t cap = 65536 * 4 + 64 + 1000000, n = 0;
  float *f = malloc(cap * sizeof *f);
  for (uint32_t h = 0; h < 65536; h++) {
    const float a = wnn_ref_f16_to_f32((uint16_t)h);
    if (isnan(a)) continue;
    f[n++] = a;
    if (isinf(a) || (h & 0x7fff) == 0x7bff) continue;
    /* The midpoint to the next half away from zero: a tie (12 significant
     * bits: exact in float), and the floats beside it. */
    const float b = wnn_ref_f16_to_f32((uint16_t)(h + 1));
    const float mid = (float)(((double)a + (double)b) / 2);
    f[n++] = mid;
    f[n++] = nextafterf(mid, 0.0f);
    f[n++] = nextafterf(mid, a < 0 || (a == 0 && signbit(a)) ? -INFINITY : INFINITY);
  }
  static const uint32_t edges[] = {
      0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x477fffff, 0x47800000, 0x47800001,
      0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fbfffff, 0x7fc00000, 0x7fc00001, 0x7fffffff,
      0x7fd55555, 0x7f802000, 0x7f801fff, 0x38800000, 0x387fffff, 0x38800001, 0x387ff000,
      0x33800000, 0x33000000, 0x33000001, 0x32ffffff, 0x00000001, 0x007fffff, 0x00800000,
      0x3f800000, 0x3f801000, 0x3f802000, 0x3f803000, 0x3f800fff, 0x3f801001,
  };
  for (size_t i = 0; i < COUNT(edges); i++) {
    f[n++] = float_of(edges[i]);
    f[n++] = float_of(edges[i] | 0x80000000u);
  }
  for (size_t i = 0; i < 1000000; i++) f[n++] = float_of(lcg_next());
  *count = n;
  return f;
}

TEST(f32_to_f16_against_oracle) {
  size_t n;
  float *f = down_cases(&n);
  uint16_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
  for (size_t i = 0; i < n; i++) want[i] = wnn_ref_f32_to_f16(f[i]);
  bool ok = true;
  for (size_t i = 0; ok && i < n; i++)
    if (wnn_f32_to_f16(f[i]) != want[i]) {
      printf("  wnn_f32_to_f16(%a, 0x%08x) = 0x%04x, want 0x%04x\n", f[i], bits_of(f[i]),
             wnn_f32_to_f16(f[i]), want[i]);
      ok = false;
    }
  for (size_t v = 0; ok && v < COUNT(DOWN); v++) {
    DOWN[v].fn(n, f, got);
    for (size_t i = 0; ok && i < n; i++)
      if (got[i] != want[i]) {
        printf("  %s: %a (0x%08x) -> 0x%04x, want 0x%04x\n", DOWN[v].name, f[i], bits_of(f[i]),
               got[i], want[i]);
        ok = false;
      }
  }
  CHECK(ok);
  CHECK(COUNT(DOWN) >= 1);
  printf("  %zu floats\n", n);
  free(f);
  free(want);
  free(got);
}

/* f16 -> f32 -> f16 gives every half back; signaling NaNs come back quiet. */
TEST(round_trip) {
  for (uint32_t i = 0; i < 65536; i++) {
    const uint16_t h = (uint16_t)i;
    const bool snan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff) && !(h & 0x200);
    const uint16_t back = wnn_f32_to_f16(wnn_f16_to_f32(h));
    if (back != (snan ? (h | 0x200) : h)) {
      printf("  0x%04x came back as 0x%04x\n", h, back);
      CHECK(0);
      return;
    }
  }
  CHECK(1);
}

/* Lengths 0..40 at offsets 0..3 elements: exactly n outputs written. */
TEST(lengths_and_offsets) {
  uint16_t hin[48], hout[48 + 8];
  float fin[48], fout[48 + 8];
  for (int i = 0; i < 48; i++) {
    fin[i] = lcg_float() * 1000.0f;
    hin[i] = wnn_ref_f32_to_f16(fin[i]);
  }
  bool ok = true;
  for (size_t n = 0; n <= 40; n++)
    for (size_t off = 0; off <= 3; off++) {
      for (size_t v = 0; v < COUNT(UP); v++) {
        for (size_t i = 0; i < COUNT(fout); i++) fout[i] = -7.0f;
        UP[v].fn(n, hin + off, fout + off);
        for (size_t i = 0; i < COUNT(fout); i++) {
          const bool in = i >= off && i < off + n;
          const float want = in ? wnn_ref_f16_to_f32(hin[i]) : -7.0f;
          if (bits_of(fout[i]) != bits_of(want)) ok = false;
        }
        if (!ok) {
          printf("  %s: n %zu, offset %zu\n", UP[v].name, n, off);
          CHECK(0);
          return;
        }
      }
      for (size_t v = 0; v < COUNT(DOWN); v++) {
        for (size_t i = 0; i < COUNT(hout); i++) hout[i] = 0xA5A5;
        DOWN[v].fn(n, fin + off, hout + off);
        for (size_t i = 0; i < COUNT(hout); i++) {
          const bool in = i >= off && i < off + n;
          if (hout[i] != (in ? wnn_ref_f32_to_f16(fin[i]) : 0xA5A5)) ok = false;
        }
        if (!ok) {
          printf("  %s: n %zu, offset %zu\n", DOWN[v].name, n, off);
          CHECK(0);
          return;
        }
      }
    }
  CHECK(ok);
}

int main(void) {
  RUN(oracle_hand_worked);
  RUN(f16_to_f32_all_halves);
  RUN(f32_to_f16_against_oracle);
  RUN(round_trip);
  RUN(lengths_and_offsets);
  return test_summary();
}
