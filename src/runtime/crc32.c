/* CRC-32 with the reflected IEEE polynomial 0xEDB88320 (the one zlib and PNG
 * use). The table is computed by the preprocessor, so it is constant data and
 * needs no initialization at run time. */
#include "runtime/format.h"

#define S(c) (((c) & 1u) ? 0xEDB88320u ^ ((c) >> 1) : ((c) >> 1))
#define E(n) S(S(S(S(S(S(S(S((uint32_t)(n)))))))))
#define E4(n) E(n), E(n + 1), E(n + 2), E(n + 3)
#define E16(n) E4(n), E4(n + 4), E4(n + 8), E4(n + 12)
#define E64(n) E16(n), E16(n + 16), E16(n + 32), E16(n + 48)

static const uint32_t table[256] = {E64(0), E64(64), E64(128), E64(192)};

uint32_t wnn_crc32(uint32_t crc, const void *data, size_t size) {
  const uint8_t *p = data;
  crc = ~crc;
  while (size--) crc = table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
  return ~crc;
}
