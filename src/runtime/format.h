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
  WNN_SECTION_PARAMS_REF = 5  /* the params blob's SHA-256 (32) and file size (8) */
};

/* Codec numbers, one space for sections and params (docs/format.md): a section
 * may only be RAW in this reader (1 = lz4 and 2 = zstd are reserved for
 * sections); a param may be RAW or FILL (all elements equal: WEIGHTS stores
 * one element, the loader repeats it). */
/* (wnn_codec in wnn.h: 0 raw, 3 fill, 4 fp16, 5 int8, 128-255 the user's) */
enum { WNN_SECTION_FLAG_REQUIRED = 1u << 0 };

/* Required feature bits (docs/format.md). Bit 0, EXTERNAL_PARAMS: some params live in a params blob
 * (docs/params.md) that the PARAMS_REF section identifies; the model loads
 * only with it (wnn_model_load_with_params). */
#define WNN_FEATURE_EXTERNAL_PARAMS (UINT64_C(1) << 0)
/* Bit 1, INTEGER_NAMES: a release artifact (wnn convert --release): params,
 * nodes and intermediates have no names; messages name them by index, and a
 * map file (docs/format.md) traces them back to the source model. */
#define WNN_FEATURE_INTEGER_NAMES (UINT64_C(1) << 1)
/* Bit 2, GUARDS: some node carries "when"
 * guards; a reader that ignored them would run both branches of an If. */
#define WNN_FEATURE_GUARDS (UINT64_C(1) << 2)
/* Bit 3, INPLACE: the plan puts some node's output over one of its inputs
 * (docs/format.md); a reader that did not know the rule would reject the plan
 * as overlapping blocks. */
#define WNN_FEATURE_INPLACE (UINT64_C(1) << 3)
/* Bit 4, DYNAMIC: run-time shapes (docs/dynamic-shapes.md): the graph names
 * input dims ("dims", dim names in input shapes) and may hold shape nodes
 * ("shape": 1, values of kind "shape"); a reader without it would run the
 * reference shapes only. */
#define WNN_FEATURE_DYNAMIC (UINT64_C(1) << 4)
/* Bit 5, FLOAT64: some value is "float64" (a graph input or output its ONNX
 * file declares DOUBLE, and the Casts at the boundary); a reader without the
 * dtype would fail on its name instead of saying what is missing. */
#define WNN_FEATURE_FLOAT64 (UINT64_C(1) << 5)
/* Feature bits this reader knows. */
#define WNN_KNOWN_REQUIRED_FEATURES \
  (WNN_FEATURE_EXTERNAL_PARAMS | WNN_FEATURE_INTEGER_NAMES | WNN_FEATURE_GUARDS | \
   WNN_FEATURE_INPLACE | WNN_FEATURE_DYNAMIC | WNN_FEATURE_FLOAT64)
/* At most this many guards per node ("when"; the If nesting depth). */
#define WNN_MAX_GUARDS 8

typedef struct wnn_section {
  const uint8_t *data; /* NULL when the section is absent */
  size_t size;
} wnn_section;

typedef struct wnn_container {
  uint16_t major, minor;
  uint64_t required_features;
  wnn_section graph, weights, metadata, params_ref;
} wnn_container;

/* Bytes of a PARAMS_REF section. */
#define WNN_PARAMS_REF_SIZE 40

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

/* Where the loader puts FILL params (docs/format.md, "Param codecs"), computed
 * the same way by the loader and by the builder (whose metadata states the
 * resulting weights_bytes). Params are read-only, so fills of the same element
 * (same size and bytes) share memory: one run of that element as long as the
 * largest of them, which every one of them points at. The first
 * WNN_FILL_GROUPS distinct elements, in value order, share this way; a fill
 * with any other element gets bytes of its own. Each block starts at a
 * multiple of 64: the fills with bytes of their own first, in value order,
 * then the groups in order of first appearance. */
#define WNN_FILL_GROUPS 16

typedef struct wnn_fill_layout {
  int num_groups;
  struct {
    size_t esize;     /* 1, 2, 4 or 8 */
    uint64_t bits;    /* the element's bytes, little-endian */
    size_t nbytes;    /* of the largest fill in the group */
    size_t offset;    /* set by wnn_fill_layout_finish */
  } group[WNN_FILL_GROUPS];
  size_t own_bytes;   /* fills with bytes of their own, each rounded up to 64 */
  int overflow;       /* the block would exceed SIZE_MAX / 2 */
} wnn_fill_layout;

static inline size_t wnn_fill_round(size_t n) { return (n + 63) & ~(size_t)63; }

static inline void wnn_fill_add(wnn_fill_layout *l, size_t *total, size_t n) {
  size_t r = wnn_fill_round(n);
  if (n > SIZE_MAX / 2 || r > SIZE_MAX / 2 - *total) l->overflow = 1;
  else *total += r;
}

static inline uint64_t wnn_fill_bits(size_t esize, const void *elem) {
  uint64_t bits = 0;
  const uint8_t *p = elem;
  for (size_t i = 0; i < esize && i < 8; i++) bits |= (uint64_t)p[i] << (8 * i);
  return bits;
}

/* The group of a fill of that element, or -1 when none (yet). */
static inline int wnn_fill_layout_find(const wnn_fill_layout *l, size_t esize, const void *elem) {
  uint64_t bits = wnn_fill_bits(esize, elem);
  for (int g = 0; g < l->num_groups; g++)
    if (l->group[g].esize == esize && l->group[g].bits == bits) return g;
  return -1;
}

/* First pass, one call per fill param in value order (elem: esize bytes,
 * nbytes: the param's size). In the second pass, after
 * wnn_fill_layout_finish, a param whose wnn_fill_layout_find is g >= 0 lives
 * at group[g].offset; the others, in value order, from offset 0, each at the
 * previous one's offset plus its size rounded up to 64. */
static inline void wnn_fill_layout_add(wnn_fill_layout *l, size_t esize, const void *elem,
                                       size_t nbytes) {
  int g = wnn_fill_layout_find(l, esize, elem);
  if (g < 0 && l->num_groups < WNN_FILL_GROUPS) {
    g = l->num_groups++;
    l->group[g].esize = esize;
    l->group[g].bits = wnn_fill_bits(esize, elem);
    l->group[g].nbytes = 0;
    l->group[g].offset = 0;
  }
  if (g < 0) wnn_fill_add(l, &l->own_bytes, nbytes);
  else if (nbytes > l->group[g].nbytes) l->group[g].nbytes = nbytes;
}

/* After the first pass: places the groups and returns the block's size, or 0
 * when l->overflow is set. */
static inline size_t wnn_fill_layout_finish(wnn_fill_layout *l) {
  size_t total = l->own_bytes;
  for (int g = 0; g < l->num_groups; g++) {
    l->group[g].offset = total;
    wnn_fill_add(l, &total, l->group[g].nbytes);
  }
  return l->overflow ? 0 : total;
}

#endif /* WNN_FORMAT_H */
