#include "builder/writer.h"

#include <string.h>

#include "runtime/alloc.h"
#include "runtime/format.h"

static size_t align_up(size_t x) {
  return (x + WNN_SECTION_ALIGN - 1) & ~(size_t)(WNN_SECTION_ALIGN - 1);
}

void wnn_container_reseal(uint8_t *buf) {
  uint32_t n = wnn_rd32(buf + 40), entry = wnn_rd32(buf + 44), header = wnn_rd32(buf + 12);
  uint32_t crc = wnn_crc32(0, buf, 48);
  wnn_wr32(buf + 48, wnn_crc32(crc, buf + header, (size_t)n * entry));
}

uint8_t *wnn_container_write(const wnn_allocator *a, const wnn_section_data *sec, int n,
                             size_t *size) {
  if (n < 0 || n > WNN_MAX_SECTIONS) return NULL;
  size_t offset[WNN_MAX_SECTIONS];
  size_t at = align_up(WNN_HEADER_SIZE + (size_t)n * WNN_ENTRY_SIZE);
  for (int i = 0; i < n; i++) {
    offset[i] = at;
    at = align_up(at + sec[i].size);
  }
  uint8_t *buf = wnn_calloc(a, 1, at, 64);
  if (!buf) return NULL;
  memcpy(buf, WNN_MAGIC, WNN_MAGIC_SIZE);
  buf[8] = WNN_FORMAT_MAJOR;
  buf[10] = WNN_FORMAT_MINOR;
  wnn_wr32(buf + 12, WNN_HEADER_SIZE);
  wnn_wr64(buf + 16, at);
  wnn_wr32(buf + 40, (uint32_t)n);
  wnn_wr32(buf + 44, WNN_ENTRY_SIZE);
  for (int i = 0; i < n; i++) {
    uint8_t *dst = buf + offset[i];
    if (sec[i].size) memcpy(dst, sec[i].data, sec[i].size);
    uint8_t *e = buf + WNN_HEADER_SIZE + (size_t)i * WNN_ENTRY_SIZE;
    int required = sec[i].kind == WNN_SECTION_GRAPH || sec[i].kind == WNN_SECTION_WEIGHTS ||
                   sec[i].kind == WNN_SECTION_PARAMS_REF;
    wnn_wr32(e, sec[i].kind);
    wnn_wr32(e + 4, WNN_CODEC_RAW);
    wnn_wr64(e + 8, offset[i]);
    wnn_wr64(e + 16, sec[i].size);
    wnn_wr64(e + 24, sec[i].size);
    wnn_wr32(e + 32, wnn_crc32(0, dst, sec[i].size));
    wnn_wr32(e + 36, required ? WNN_SECTION_FLAG_REQUIRED : 0);
  }
  wnn_container_reseal(buf);
  *size = at;
  return buf;
}
