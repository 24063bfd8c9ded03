/* The exact integer Winograd kernels (kernels.h, "int8 Winograd") bitwise
 * against naive loops written from their contracts: the int16 GEMM on every
 * panel (mr 1..MR, nc 8..32, kp 1..40, the whole int16 range, sums that
 * wrap), the input transform (n 1..21 tiles, uint8 and int8, zero points at
 * the ends of the range, lines in allocations of their exact size), the
 * weight transform (1..21 kernels, the int8 range's ends), the output
 * transform (channels, ragged tiles and columns, 1 or 2 rows, wrapping sums,
 * bias NULL and not) with guard elements that must stay untouched, and the
 * four chained on random windows: the direct 3x3 correlation. Runs
 * natively (scalar variants) and in the wasi build (both). */
#include <stdint.h>

#include "kernel_util.h"
#include "ops/op_internal.h"

static int32_t rnd_val(int32_t lo, int32_t hi) {
  const uint32_t r = lcg_next() % 8;
  return r == 0 ? lo : r == 1 ? hi : lo + (int32_t)(lcg_next() % (uint32_t)(hi - lo + 1));
}

typedef struct gemm_variant {
  const char *name;
  wnn_qs16_gemm_ukernel *fn;
  size_t mr, nr;
} gemm_variant;
static const gemm_variant GEMMS[] = {
#define WNN_QS16_GEMM(fn_, isa_, mr_, nr_) WNN_IF_ISA(isa_, {#fn_, fn_, mr_, nr_},)
#include "kernels/kernels.inc"
};
typedef struct xform_variant {
  const char *name;
  wnn_qs16_winograd_input_ukernel *input;
  wnn_qs16_winograd_weight_ukernel *weight;
  wnn_qs16_winograd_output_ukernel *output;
} xform_variant;
static const xform_variant INPUTS[] = {
#define WNN_QS16_WINOGRAD_INPUT(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, fn_, NULL, NULL},)
#include "kernels/kernels.inc"
};
static const xform_variant WEIGHTS[] = {
#define WNN_QS16_WINOGRAD_WEIGHT(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, NULL, fn_, NULL},)
#include "kernels/kernels.inc"
};
static const xform_variant OUTPUTS[] = {
#define WNN_QS16_WINOGRAD_OUTPUT(fn_, isa_) WNN_IF_ISA(isa_, {#fn_, NULL, NULL, fn_},)
#include "kernels/kernels.inc"
};
#define COUNT(a) (sizeof a / sizeof a[0])

static const int32_t BT[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
static const int32_t G2[4][3] = {{2, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 2}};
static const int32_t AT[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};

TEST(gemm_every_panel) {
  for (size_t vi = 0; vi < COUNT(GEMMS); vi++) {
    const gemm_variant *v = &GEMMS[vi];
    int ok = 1;
    for (size_t mr = 1; mr <= v->mr && ok; mr++)
      for (size_t nc = 8; nc <= 32 && ok; nc += 8)
        for (size_t kp = 1; kp <= 40 && ok; kp += kp < 6 ? 1 : 7) {
          const size_t a_rs = 2 * kp + 1, b_rs = 2 * nc + 2, c_rs = nc + 3;
          int16_t *a = malloc(mr * a_rs * 2), *b = malloc(kp * b_rs * 2);
          int32_t *c = malloc(mr * c_rs * 4), *want = malloc(mr * c_rs * 4);
          for (size_t i = 0; i < mr * a_rs; i++) a[i] = (int16_t)rnd_val(-32768, 32767);
          for (size_t i = 0; i < kp * b_rs; i++) b[i] = (int16_t)rnd_val(-32768, 32767);
          for (size_t i = 0; i < mr * c_rs; i++) c[i] = want[i] = (int32_t)lcg_next();
          for (size_t i = 0; i < mr; i++)
            for (size_t j = 0; j < nc; j++) {
              uint32_t s = 0;
              for (size_t q = 0; q < 2 * kp; q++)
                s += (uint32_t)((int32_t)a[i * a_rs + q] * b[(q / 2) * b_rs + 2 * j + q % 2]);
              want[i * c_rs + j] = (int32_t)s;
            }
          v->fn(mr, nc, kp, a, a_rs, b, b_rs, c, c_rs);
          ok = memcmp(c, want, mr * c_rs * 4) == 0;
          if (!ok) printf("  %s: mr=%zu nc=%zu kp=%zu differs\n", v->name, mr, nc, kp);
          free(a), free(b), free(c), free(want);
        }
    CHECK(ok);
  }
}

TEST(input_transform) {
  for (size_t vi = 0; vi < COUNT(INPUTS); vi++) {
    const xform_variant *v = &INPUTS[vi];
    int ok = 1;
    for (size_t n = 1; n <= 21 && ok; n++)
      for (int s8 = 0; s8 < 2 && ok; s8++) {
        const size_t nn = (n + 7) / 8 * 8, ls = 2 * nn + 2, v_ps = 2 * nn + 5;
        uint8_t *lines = malloc(8 * ls);
        int16_t *out = malloc(16 * v_ps * 2), *want = malloc(16 * v_ps * 2);
        const int32_t lo = s8 ? -128 : 0, hi = s8 ? 127 : 255;
        const wnn_q8_pack_params p = {rnd_val(lo, hi), s8 != 0};
        for (size_t i = 0; i < 8 * ls; i++) lines[i] = (uint8_t)rnd_val(lo, hi);
        for (size_t i = 0; i < 16 * v_ps; i++) out[i] = want[i] = (int16_t)lcg_next();
        for (size_t c = 0; c < 2; c++)
          for (size_t t = 0; t < nn; t++)
            for (size_t i = 0; i < 4; i++)
              for (size_t j = 0; j < 4; j++) {
                int32_t s = 0;
                for (size_t r = 0; r < 4; r++)
                  for (size_t k = 0; k < 4; k++) {
                    const uint8_t b = lines[(4 * c + r) * ls + 2 * t + k];
                    s += BT[i][r] * ((s8 ? (int8_t)b : b) - p.zero_point) * BT[j][k];
                  }
                want[(4 * i + j) * v_ps + 2 * t + c] = (int16_t)s;
              }
        v->input(n, lines, ls, out, v_ps, &p);
        ok = memcmp(out, want, 16 * v_ps * 2) == 0;
        if (!ok) printf("  %s: n=%zu s8=%d differs\n", v->name, n, s8);
        free(lines), free(out), free(want);
      }
    CHECK(ok);
  }
}

TEST(weight_transform) {
  for (size_t vi = 0; vi < COUNT(WEIGHTS); vi++) {
    const xform_variant *v = &WEIGHTS[vi];
    int ok = 1;
    for (size_t rows = 1; rows <= 21 && ok; rows++) {
      const size_t u_ps = rows + 3;
      int8_t *w = malloc(9 * rows);
      int16_t *u = malloc(16 * u_ps * 2), *want = malloc(16 * u_ps * 2);
      for (size_t i = 0; i < 9 * rows; i++) w[i] = (int8_t)rnd_val(-128, 127);
      for (size_t i = 0; i < 16 * u_ps; i++) u[i] = want[i] = (int16_t)lcg_next();
      for (size_t r = 0; r < rows; r++)
        for (size_t i = 0; i < 4; i++)
          for (size_t j = 0; j < 4; j++) {
            int32_t s = 0;
            for (size_t ky = 0; ky < 3; ky++)
              for (size_t kx = 0; kx < 3; kx++) s += G2[i][ky] * w[9 * r + 3 * ky + kx] * G2[j][kx];
            want[(4 * i + j) * u_ps + r] = (int16_t)s;
          }
      v->weight(rows, w, u, u_ps);
      ok = memcmp(u, want, 16 * u_ps * 2) == 0;
      if (!ok) printf("  %s: rows=%zu differs\n", v->name, rows);
      free(w), free(u), free(want);
    }
    CHECK(ok);
  }
}

TEST(output_transform) {
  for (size_t vi = 0; vi < COUNT(OUTPUTS); vi++) {
    const xform_variant *v = &OUTPUTS[vi];
    int ok = 1;
    for (size_t ch = 1; ch <= 3 && ok; ch++)
      for (size_t n = 1; n <= 13 && ok; n++)
        for (int variant = 0; variant < 8 && ok; variant++) {
          const size_t cols = 2 * n - (variant & 1), rows = 1 + ((variant >> 1) & 1);
          const bool with_bias = variant & 4, wrap = n % 3 == 0;
          const size_t m_cs = (n + 3) / 4 * 4, m_ps = ch * m_cs + 1, y_rs = cols + 3, y_cs = 2 * y_rs + 1;
          int32_t *m = malloc(16 * m_ps * 4), bias[3];
          int32_t *y = malloc(ch * y_cs * 4), *want = malloc(ch * y_cs * 4);
          for (size_t i = 0; i < 16 * m_ps; i++)
            m[i] = wrap ? (int32_t)lcg_next() : rnd_val(-100000, 100000);
          for (size_t c = 0; c < 3; c++) bias[c] = (int32_t)lcg_next();
          for (size_t i = 0; i < ch * y_cs; i++) y[i] = want[i] = (int32_t)lcg_next();
          for (size_t c = 0; c < ch; c++)
            for (size_t t = 0; t < n; t++)
              for (size_t i = 0; i < rows; i++)
                for (size_t j = 0; j < 2 && 2 * t + j < cols; j++) {
                  uint32_t s = 0;
                  for (size_t a = 0; a < 4; a++)
                    for (size_t b = 0; b < 4; b++)
                      s += (uint32_t)(AT[i][a] * AT[j][b]) * (uint32_t)m[(4 * a + b) * m_ps + c * m_cs + t];
                  const int32_t q = (int32_t)s >> 2;
                  want[c * y_cs + i * y_rs + 2 * t + j] =
                      (int32_t)((uint32_t)q + (with_bias ? (uint32_t)bias[c] : 0u));
                }
          v->output(ch, n, cols, rows, m, m_ps, m_cs, with_bias ? bias : NULL, y, y_rs, y_cs);
          ok = memcmp(y, want, ch * y_cs * 4) == 0;
          if (!ok) printf("  %s: ch=%zu n=%zu variant=%d differs\n", v->name, ch, n, variant);
          free(m), free(y), free(want);
        }
    CHECK(ok);
  }
}

/* The chain on 8 tiles of random windows of C channels (x - zp at the range's
 * ends often) and kernels: the output is the direct correlation, in each set
 * of variants (the per-kernel contracts of kernels.h composed). */
TEST(chain_is_the_direct_correlation) {
  enum { C = 6, CO = 3, NT = 8 };
  for (size_t vi = 0; vi < COUNT(INPUTS); vi++) {
    const size_t ls = 2 * NT + 2, v_ps = (C / 2) * 2 * NT, u_ps = CO * C, m_ps = CO * NT;
    uint8_t lines[C / 2][8 * (2 * NT + 2)];
    int8_t w[CO * C * 9];
    int16_t v[16 * (C / 2) * 2 * NT], u[16 * CO * C];
    int32_t m[16 * CO * NT], y[CO * 2 * 2 * NT];
    const wnn_q8_pack_params p = {200, false};
    for (size_t q = 0; q < C / 2; q++)
      for (size_t i = 0; i < sizeof lines[q]; i++) lines[q][i] = (uint8_t)rnd_val(0, 255);
    for (size_t i = 0; i < sizeof w; i++) w[i] = (int8_t)rnd_val(-128, 127);
    for (size_t q = 0; q < C / 2; q++) INPUTS[vi].input(NT, lines[q], ls, v + q * 2 * NT, v_ps, &p);
    WEIGHTS[vi].weight(CO * C, w, u, u_ps);
    for (size_t i = 0; i < 16; i++)
      GEMMS[vi].fn(CO < GEMMS[vi].mr ? CO : GEMMS[vi].mr, NT, C / 2, u + i * u_ps, C, v + i * v_ps,
                   2 * NT, m + i * m_ps, NT);
    OUTPUTS[vi].output(CO, NT, 2 * NT, 2, m, m_ps, NT, NULL, y, 2 * NT, 4 * NT);
    int ok = 1;
    for (size_t co = 0; co < CO; co++)
      for (size_t oy = 0; oy < 2; oy++)
        for (size_t ox = 0; ox < 2 * NT; ox++) {
          int32_t s = 0;
          for (size_t c = 0; c < C; c++)
            for (size_t ky = 0; ky < 3; ky++)
              for (size_t kx = 0; kx < 3; kx++)
                s += ((int32_t)lines[c / 2][(4 * (c % 2) + oy + ky) * ls + ox + kx] - 200) *
                     w[(co * C + c) * 9 + 3 * ky + kx];
          if (y[co * 4 * NT + oy * 2 * NT + ox] != s) ok = 0;
        }
    if (!ok) printf("  %s chain differs from the direct correlation\n", INPUTS[vi].name);
    CHECK(ok);
  }
}

int main(void) {
  RUN(gemm_every_panel);
  RUN(input_transform);
  RUN(weight_transform);
  RUN(output_transform);
  RUN(chain_is_the_direct_correlation);
  return test_summary();
}
