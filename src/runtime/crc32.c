/* CRC-32 with the reflected IEEE polynomial 0xEDB88320 (the one zlib and PNG
 * use), sliced by 16: one step reads 16 bytes and looks up each in its own
 * table, so the 16 lookups are independent instead of a chain of 16.
 *
 * table[] (1 KB, byte at a time) is computed by the preprocessor, so it is
 * constant data. The 15 slice tables (15 KB) are derived from it the first
 * time a long buffer is checked; they live in zero-initialized memory and so
 * add nothing to the size of the wasm module. Their construction is guarded by
 * an atomic state: one caller builds them while concurrent callers go on byte
 * at a time, and the built tables are published with release/acquire order. */
#include <stdatomic.h>

#include "runtime/format.h"

#define S(c) (((c) & 1u) ? 0xEDB88320u ^ ((c) >> 1) : ((c) >> 1))
#define E(n) S(S(S(S(S(S(S(S((uint32_t)(n)))))))))
#define E4(n) E(n), E(n + 1), E(n + 2), E(n + 3)
#define E16(n) E4(n), E4(n + 4), E4(n + 8), E4(n + 12)
#define E64(n) E16(n), E16(n + 16), E16(n + 32), E16(n + 48)

/* table[n]: the CRC register after byte n enters an all-zero register. */
static const uint32_t table[256] = {E64(0), E64(64), E64(128), E64(192)};

/* slice[k - 1][n]: the same for byte n followed by k zero bytes (k = 1..15). */
static uint32_t slice[15][256];

enum { SLICE_NONE, SLICE_BUILDING, SLICE_READY };
static atomic_int slice_state;

/* Whether the slice tables may be read; builds them on the first call. */
static int slices_ready(void) {
  if (atomic_load_explicit(&slice_state, memory_order_acquire) == SLICE_READY) return 1;
  int expected = SLICE_NONE;
  if (!atomic_compare_exchange_strong_explicit(&slice_state, &expected, SLICE_BUILDING,
                                               memory_order_acq_rel, memory_order_acquire))
    return 0; /* another thread is building them: this call goes byte-wise */
  for (int n = 0; n < 256; n++) {
    uint32_t c = table[n];
    for (int k = 0; k < 15; k++) {
      c = (c >> 8) ^ table[c & 0xFFu];
      slice[k][n] = c;
    }
  }
  atomic_store_explicit(&slice_state, SLICE_READY, memory_order_release);
  return 1;
}

/* Below this many bytes the byte-wise loop is as fast and needs no tables. */
#define SLICE_MIN 64

uint32_t wnn_crc32(uint32_t crc, const void *data, size_t size) {
  const uint8_t *p = data;
  crc = ~crc;
  if (size >= SLICE_MIN && slices_ready()) {
    const uint32_t(*t)[256] = slice;
    while (size >= 16) {
      /* Little-endian words: byte 0 of the step is the low byte of a. */
      uint32_t a = wnn_rd32(p) ^ crc, b = wnn_rd32(p + 4), c = wnn_rd32(p + 8),
               d = wnn_rd32(p + 12);
      crc = t[14][a & 0xFFu] ^ t[13][(a >> 8) & 0xFFu] ^ t[12][(a >> 16) & 0xFFu] ^
            t[11][a >> 24] ^ t[10][b & 0xFFu] ^ t[9][(b >> 8) & 0xFFu] ^
            t[8][(b >> 16) & 0xFFu] ^ t[7][b >> 24] ^ t[6][c & 0xFFu] ^
            t[5][(c >> 8) & 0xFFu] ^ t[4][(c >> 16) & 0xFFu] ^ t[3][c >> 24] ^
            t[2][d & 0xFFu] ^ t[1][(d >> 8) & 0xFFu] ^ t[0][(d >> 16) & 0xFFu] ^
            table[d >> 24];
      p += 16;
      size -= 16;
    }
  }
  while (size--) crc = table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
  return ~crc;
}
