/* The fill kernels (the loader's FILL params), every variant of kernels.inc,
 * against a plain reference loop y[i] = pattern[i % 16]: lengths 0..80 (less
 * than one 16-byte store, exactly one, many, a ragged tail) and 4099, at every
 * offset 0..17 from an aligned base, patterns of 1-, 2-, 4- and 8-byte
 * elements and 16 distinct bytes; the bytes around the output untouched.
 * Exact (bytes). */
#include <string.h>

#include "kernel_util.h"

typedef struct row { const char *name; wnn_xx_fill_ukernel *fn; } row;
static const row VARIANTS[] = {
#define WNN_XX_FILL(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};

static void fill_ref(size_t nbytes, const uint8_t *pattern, uint8_t *y) {
  for (size_t i = 0; i < nbytes; i++) y[i] = pattern[i % 16];
}

TEST(fill_matches_reference) {
  static uint8_t got[4099 + 64] __attribute__((aligned(64))), want[sizeof got];
  const size_t esizes[] = {1, 2, 4, 8, 16};
  size_t lengths[82];
  for (size_t i = 0; i <= 80; i++) lengths[i] = i;
  lengths[81] = 4099;
  for (size_t v = 0; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++)
    for (size_t e = 0; e < sizeof esizes / sizeof esizes[0]; e++) {
      uint8_t elem[16], pattern[16];
      for (size_t i = 0; i < 16; i++) elem[i] = (uint8_t)lcg_next();
      for (size_t i = 0; i < 16; i++) pattern[i] = elem[i % esizes[e]];
      for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        for (size_t off = 0; off <= 17; off++) {
          const size_t n = lengths[l];
          if (off + n + 16 > sizeof got) continue;
          memset(got, 0xA5, sizeof got);
          memset(want, 0xA5, sizeof want);
          VARIANTS[v].fn(n, pattern, got + off);
          fill_ref(n, pattern, want + off);
          if (memcmp(got, want, sizeof got) != 0) {
            printf("  %s: %zu bytes at offset %zu, %zu-byte elements\n", VARIANTS[v].name, n,
                   off, esizes[e]);
            CHECK(0);
            return;
          }
        }
    }
  CHECK(sizeof VARIANTS / sizeof VARIANTS[0] >= 1);
}

int main(void) {
  RUN(fill_matches_reference);
  return test_summary();
}
