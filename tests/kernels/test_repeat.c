/* The repeat kernels (Resize's nearest upsampling by an integer factor),
 * every variant of kernels.inc: y[i * k + j] == x[i] bit for bit (NaN
 * payloads, -0 and infinities included) for rows of 0..37 elements and
 * factors 1..9, at unaligned addresses, and nothing written past n * k. */
#include <math.h>
#include <string.h>

#include "kernel_util.h"

typedef struct row { const char *name; wnn_f32_repeat_ukernel *fn; } row;
static const row VARIANTS[] = {
#define WNN_F32_REPEAT(name, isa) WNN_IF_ISA(isa, {#name, name},)
#include "kernels/kernels.inc"
};

TEST(repeat_copies_each_element_k_times) {
  float x[40], y[40 * 9 + 8];
  for (size_t v = 0; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++)
    for (size_t off = 0; off < 2; off++)
      for (size_t n = 0; n <= 37; n++)
        for (size_t k = 1; k <= 9; k++) {
          for (size_t i = 0; i < n + off; i++) x[i] = lcg_float();
          if (n > 2) x[off + 1] = -0.0f, x[off + 2] = NAN;
          if (n > 3) x[off + 3] = -INFINITY;
          for (size_t i = 0; i < sizeof y / sizeof y[0]; i++) y[i] = 12345.0f;
          VARIANTS[v].fn(n, k, x + off, y + off);
          int ok = 1;
          for (size_t i = 0; i < n && ok; i++)
            for (size_t j = 0; j < k && ok; j++)
              ok = memcmp(&y[off + i * k + j], &x[off + i], sizeof(float)) == 0;
          for (size_t i = off + n * k; i < off + n * k + 4 && ok; i++) ok = y[i] == 12345.0f;
          for (size_t i = 0; i < off && ok; i++) ok = y[i] == 12345.0f;
          if (!ok) {
            printf("  %s: n %zu k %zu offset %zu\n", VARIANTS[v].name, n, k, off);
            CHECK(0);
            return;
          }
        }
}

int main(void) {
  RUN(repeat_copies_each_element_k_times);
  return test_summary();
}
