/* See fuzz_reseal.h. */
#include "fuzz_reseal.h"

#include <string.h>

#include "runtime/format.h"

int wnn_fuzz_reseal(uint8_t *buf, size_t size) {
  if (!buf || size < WNN_HEADER_SIZE || memcmp(buf, WNN_MAGIC, WNN_MAGIC_SIZE) != 0) return 0;
  uint64_t header_size = wnn_rd32(buf + 12);
  uint64_t count = wnn_rd32(buf + 40);
  uint64_t entry_size = wnn_rd32(buf + 44);
  /* The loader allows at most 64 entries of at most 1024 bytes; anything
   * beyond that is rejected before the CRC matters. Every bound below is
   * computed in 64 bits from 32-bit fields, so nothing wraps. */
  if (count > WNN_MAX_SECTIONS || entry_size < WNN_ENTRY_SIZE || entry_size > 1024) return 0;
  uint64_t table_end = header_size + count * entry_size;
  if (header_size > size || table_end > size) return 0;
  for (uint64_t i = 0; i < count; i++) {
    uint8_t *e = buf + header_size + i * entry_size;
    uint64_t offset = wnn_rd64(e + 8), stored = wnn_rd64(e + 16);
    if (offset > size || stored > size - offset) continue;
    wnn_wr32(e + 32, wnn_crc32(0, buf + offset, (size_t)stored));
  }
  uint32_t crc = wnn_crc32(0, buf, 48);
  crc = wnn_crc32(crc, buf + header_size, (size_t)(count * entry_size));
  wnn_wr32(buf + 48, crc);
  return 1;
}
