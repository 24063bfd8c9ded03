/* The .wnn container (docs/format.md): constants shared by the reader and the
 * builder, and the reader, which checks the header and the section table. */
#ifndef WNN_FORMAT_H
#define WNN_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "wnn.h"

#define WNN_MAGIC "\x89WNN\r\n\x1a\n"
#define WNN_MAGIC_SIZE 8
#define WNN_HEADER_SIZE 64
#define WNN_ENTRY_SIZE 40
#define WNN_MAX_SECTIONS 64
#define WNN_SECTION_ALIGN 64

enum {
  WNN_SECTION_GRAPH = 1,
  WNN_SECTION_WEIGHTS = 2,
  WNN_SECTION_METADATA = 3,
  WNN_SECTION_NAMES = 4,      /* reserved */
  WNN_SECTION_PARAMS_REF = 5  /* reserved */
};

enum { WNN_CODEC_RAW = 0 };
enum { WNN_SECTION_FLAG_REQUIRED = 1u << 0 };

/* Feature bits this reader knows. None are defined in format 1.0. */
#define WNN_KNOWN_REQUIRED_FEATURES UINT64_C(0)

typedef struct wnn_section {
  const uint8_t *data; /* NULL when the section is absent */
  size_t size;
} wnn_section;

typedef struct wnn_container {
  uint16_t major, minor;
  wnn_section graph, weights, metadata;
} wnn_container;

/* Checks magic, version, features, sizes and the section table of buf, and the
 * CRCs (section CRCs only when verify_sections). On failure returns the status
 * and writes the message to the thread's last error. */
wnn_status wnn_container_read(const uint8_t *buf, size_t size, int verify_sections,
                              wnn_container *out);

uint32_t wnn_crc32(uint32_t crc, const void *data, size_t size);

/* Little-endian stores and loads. */
static inline uint32_t wnn_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t wnn_rd64(const uint8_t *p) {
  return (uint64_t)wnn_rd32(p) | (uint64_t)wnn_rd32(p + 4) << 32;
}
static inline void wnn_wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void wnn_wr64(uint8_t *p, uint64_t v) {
  wnn_wr32(p, (uint32_t)v);
  wnn_wr32(p + 4, (uint32_t)(v >> 32));
}

#endif /* WNN_FORMAT_H */
