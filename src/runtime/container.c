/* The container reader: everything about an artifact that can be checked
 * before its JSON is parsed. */
#include <string.h>

#include "runtime/format.h"
#include "base/status.h"

static const char *section_name(uint32_t kind) {
  switch (kind) {
    case WNN_SECTION_GRAPH: return "GRAPH";
    case WNN_SECTION_WEIGHTS: return "WEIGHTS";
    case WNN_SECTION_METADATA: return "METADATA";
    case WNN_SECTION_NAMES: return "NAMES";
    case WNN_SECTION_PARAMS_REF: return "PARAMS_REF";
  }
  return "unknown";
}

static wnn_status fail(wnn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wnn_vseterr(NULL, 0, status, fmt, ap);
  va_end(ap);
  return status;
}

typedef struct entry {
  uint32_t kind, codec, crc, flags;
  uint64_t offset, stored, size;
} entry;

static int by_offset(const entry *a, const entry *b) {
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

wnn_status wnn_container_read(const uint8_t *buf, size_t size, int verify_sections,
                              wnn_container *out) {
  if (!buf) return fail(WNN_ERR_INVALID_ARGUMENT, "artifact buffer is NULL");
  if (size < WNN_MAGIC_SIZE)
    return fail(WNN_ERR_TRUNCATED, "artifact is %zu bytes, shorter than the 8-byte magic", size);
  if (memcmp(buf, WNN_MAGIC, WNN_MAGIC_SIZE) != 0)
    return fail(WNN_ERR_BAD_MAGIC, "artifact does not start with the wnn magic \\x89WNN\\r\\n\\x1a\\n");
  if (size < WNN_HEADER_SIZE)
    return fail(WNN_ERR_TRUNCATED, "artifact is %zu bytes, shorter than its %d-byte header", size,
                WNN_HEADER_SIZE);

  wnn_container c;
  memset(&c, 0, sizeof c);
  c.major = (uint16_t)(buf[8] | buf[9] << 8);
  c.minor = (uint16_t)(buf[10] | buf[11] << 8);
  if (c.major != WNN_FORMAT_MAJOR)
    return fail(WNN_ERR_VERSION, "artifact format version %u.%u; this library reads %d.x",
                c.major, c.minor, WNN_FORMAT_MAJOR);

  uint32_t header_size = wnn_rd32(buf + 12);
  uint64_t file_size = wnn_rd64(buf + 16);
  uint64_t required = wnn_rd64(buf + 24);
  uint32_t count = wnn_rd32(buf + 40);
  uint32_t entry_size = wnn_rd32(buf + 44);
  uint32_t header_crc = wnn_rd32(buf + 48);

  if (header_size < WNN_HEADER_SIZE || header_size % 8 != 0)
    return fail(WNN_ERR_BAD_SECTION, "header size %u is invalid (at least %d, a multiple of 8)",
                header_size, WNN_HEADER_SIZE);
  if (file_size > size)
    return fail(WNN_ERR_TRUNCATED, "artifact declares %llu bytes but the buffer holds %zu",
                (unsigned long long)file_size, size);
  if (count == 0 || count > WNN_MAX_SECTIONS)
    return fail(WNN_ERR_BAD_SECTION, "section count %u is outside 1..%d", count,
                WNN_MAX_SECTIONS);
  if (entry_size < WNN_ENTRY_SIZE || entry_size > 1024 || entry_size % 8 != 0)
    return fail(WNN_ERR_BAD_SECTION, "section entry size %u is invalid", entry_size);
  uint64_t table_end = (uint64_t)header_size + (uint64_t)count * entry_size;
  if (table_end > file_size)
    return fail(WNN_ERR_TRUNCATED, "section table ends at byte %llu, past the artifact's %llu",
                (unsigned long long)table_end, (unsigned long long)file_size);

  uint32_t crc = wnn_crc32(0, buf, 48);
  crc = wnn_crc32(crc, buf + header_size, (size_t)count * entry_size);
  if (crc != header_crc)
    return fail(WNN_ERR_CHECKSUM, "header checksum is %08x, computed %08x", header_crc, crc);
  uint64_t unknown = required & ~WNN_KNOWN_REQUIRED_FEATURES;
  if (unknown)
    return fail(WNN_ERR_FEATURE, "artifact requires feature bits 0x%llx that this library lacks",
                (unsigned long long)unknown);

  entry e[WNN_MAX_SECTIONS];
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *p = buf + header_size + (size_t)i * entry_size;
    e[i].kind = wnn_rd32(p);
    e[i].codec = wnn_rd32(p + 4);
    e[i].offset = wnn_rd64(p + 8);
    e[i].stored = wnn_rd64(p + 16);
    e[i].size = wnn_rd64(p + 24);
    e[i].crc = wnn_rd32(p + 32);
    e[i].flags = wnn_rd32(p + 36);
    const char *name = section_name(e[i].kind);
    if (e[i].offset % WNN_SECTION_ALIGN != 0)
      return fail(WNN_ERR_BAD_SECTION, "section %u (%s) starts at %llu, not a multiple of %d", i,
                  name, (unsigned long long)e[i].offset, WNN_SECTION_ALIGN);
    /* Written so that nothing can wrap: offset is compared with file_size
     * before it is subtracted from it. */
    if (e[i].offset < table_end || e[i].offset > file_size ||
        e[i].stored > file_size - e[i].offset)
      return fail(WNN_ERR_BAD_SECTION,
                  "section %u (%s) at %llu+%llu lies outside the artifact's data (%llu..%llu)", i,
                  name, (unsigned long long)e[i].offset, (unsigned long long)e[i].stored,
                  (unsigned long long)table_end, (unsigned long long)file_size);
    for (uint32_t j = 0; j < i; j++)
      if (e[j].kind == e[i].kind)
        return fail(WNN_ERR_BAD_SECTION, "section kind %u (%s) appears twice", e[i].kind, name);
  }
  /* Sort a copy by offset (insertion sort: at most 64) and check for overlap. */
  entry s[WNN_MAX_SECTIONS];
  memcpy(s, e, count * sizeof *e);
  for (uint32_t i = 1; i < count; i++)
    for (uint32_t j = i; j > 0 && by_offset(&s[j], &s[j - 1]) < 0; j--) {
      entry t = s[j];
      s[j] = s[j - 1];
      s[j - 1] = t;
    }
  for (uint32_t i = 1; i < count; i++)
    if (s[i - 1].offset + s[i - 1].stored > s[i].offset)
      return fail(WNN_ERR_BAD_SECTION, "sections %s and %s overlap", section_name(s[i - 1].kind),
                  section_name(s[i].kind));

  for (uint32_t i = 0; i < count; i++) {
    wnn_section *dst = NULL;
    switch (e[i].kind) {
      case WNN_SECTION_GRAPH: dst = &c.graph; break;
      case WNN_SECTION_WEIGHTS: dst = &c.weights; break;
      case WNN_SECTION_METADATA: dst = &c.metadata; break;
      case WNN_SECTION_PARAMS_REF: dst = &c.params_ref; break;
      default:
        if (e[i].flags & WNN_SECTION_FLAG_REQUIRED)
          return fail(WNN_ERR_FEATURE, "artifact requires section kind %u, unknown to this library",
                      e[i].kind);
        continue;
    }
    if (e[i].codec != WNN_CODEC_RAW)
      return fail(WNN_ERR_FEATURE, "section %s uses codec %u; this library reads only raw (0)",
                  section_name(e[i].kind), e[i].codec);
    if (e[i].size != e[i].stored)
      return fail(WNN_ERR_BAD_SECTION, "raw section %s has size %llu but stores %llu bytes",
                  section_name(e[i].kind), (unsigned long long)e[i].size,
                  (unsigned long long)e[i].stored);
    if (verify_sections) {
      uint32_t got = wnn_crc32(0, buf + e[i].offset, (size_t)e[i].stored);
      if (got != e[i].crc)
        return fail(WNN_ERR_CHECKSUM, "section %s checksum is %08x, computed %08x",
                    section_name(e[i].kind), e[i].crc, got);
    }
    dst->data = buf + e[i].offset;
    dst->size = (size_t)e[i].stored;
  }
  if (!c.graph.data) return fail(WNN_ERR_BAD_SECTION, "artifact has no GRAPH section");
  if (!c.metadata.data) return fail(WNN_ERR_BAD_SECTION, "artifact has no METADATA section");
  if (c.params_ref.data && c.params_ref.size != WNN_PARAMS_REF_SIZE)
    return fail(WNN_ERR_BAD_SECTION, "section PARAMS_REF has %zu bytes (expected %d)",
                c.params_ref.size, WNN_PARAMS_REF_SIZE);
  if (!!c.params_ref.data != !!(required & WNN_FEATURE_EXTERNAL_PARAMS))
    return fail(WNN_ERR_BAD_SECTION,
                "%s: feature bit 0 (EXTERNAL_PARAMS) and the PARAMS_REF section go together",
                c.params_ref.data ? "PARAMS_REF without feature bit 0" : "feature bit 0 without PARAMS_REF");
  c.required_features = required;
  *out = c;
  return WNN_OK;
}
