/* MatMulNBits' 4-bit dequantization kernel, every variant of kernels_quant.inc,
 * bitwise against a naive loop written here from the definition
 * (kernels_quant.inc): block sizes 16 to 256, row lengths that end inside a
 * block and inside a 16-code step, with and without zero points, every code
 * and zero point value, nothing written past the row. The oracle is checked on
 * hand-worked values first. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernel_util.h"

typedef struct { const char *name; wnn_q4_f32_dequant_ukernel *fn; } q4_row;
static const q4_row Q4[] = {
#define WNN_Q4_F32_DEQUANT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};

static void naive(size_t k, size_t bs, const uint8_t *codes, const float *scales,
                  const uint8_t *zp, float *out) {
  for (size_t i = 0; i < k; i++) {
    const size_t b = i / bs;
    const int code = i % 2 ? codes[i / 2] >> 4 : codes[i / 2] & 15;
    const int z = !zp ? 8 : b % 2 ? zp[b / 2] >> 4 : zp[b / 2] & 15;
    out[i] = (float)(code - z) * scales[b];
  }
}

TEST(oracle) {
  const uint8_t codes[8] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe}; /* 0, 1, ..., 15 */
  const float scales[1] = {0.5f};
  const uint8_t zp[1] = {0x03};
  float out[16];
  naive(16, 16, codes, scales, NULL, out);
  for (int i = 0; i < 16; i++) CHECK(out[i] == (float)(i - 8) * 0.5f);
  naive(16, 16, codes, scales, zp, out);
  for (int i = 0; i < 16; i++) CHECK(out[i] == (float)(i - 3) * 0.5f);
}

TEST(variants_match_the_definition) {
  const size_t sizes[] = {16, 32, 64, 128, 256};
  int cases = 0;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    const size_t bs = sizes[s];
    const size_t ks[] = {1, 7, 15, 16, 17, 31, bs - 1, bs, bs + 1, bs + 15, bs + 16, 3 * bs - 5,
                         5 * bs};
    for (size_t t = 0; t < sizeof ks / sizeof *ks; t++) {
      const size_t k = ks[t], blocks = (k + bs - 1) / bs;
      uint8_t *codes = malloc(blocks * bs / 2), zp[64];
      float *scales = malloc(blocks * sizeof(float));
      for (size_t i = 0; i < blocks * bs / 2; i++) codes[i] = (uint8_t)lcg_next();
      for (size_t i = 0; i < sizeof zp; i++) zp[i] = (uint8_t)lcg_next();
      for (size_t i = 0; i < blocks; i++) scales[i] = lcg_float() * 4.0f;
      float *want = malloc((k + 4) * sizeof(float)), *got = malloc((k + 4) * sizeof(float));
      for (int with_zp = 0; with_zp < 2; with_zp++) {
        naive(k, bs, codes, scales, with_zp ? zp : NULL, want);
        for (size_t v = 0; v < sizeof Q4 / sizeof *Q4; v++) {
          memset(got, 0x7f, (k + 4) * sizeof(float));
          Q4[v].fn(k, bs, codes, scales, with_zp ? zp : NULL, got);
          const bool same = memcmp(got, want, k * sizeof(float)) == 0;
          uint32_t guard;
          memcpy(&guard, got + k, sizeof guard);
          if (!same || guard != 0x7f7f7f7fu) {
            printf("  %s: block %zu, k %zu, zp %d: %s\n", Q4[v].name, bs, k, with_zp,
                   same ? "wrote past the row" : "differs");
            test_current_failed_ = 1;
          }
          cases++;
        }
      }
      free(codes), free(scales), free(want), free(got);
    }
  }
  CHECK(cases > 0);
}

int main(void) {
  RUN(oracle);
  RUN(variants_match_the_definition);
  return test_summary();
}
