/* The container writer: the inverse of wnn_container_read. Used by the builder
 * and by tests that craft artifacts by hand. */
#ifndef WNN_WRITER_H
#define WNN_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "wnn.h"

typedef struct wnn_section_data {
  uint32_t kind;    /* WNN_SECTION_* */
  const void *data;
  size_t size;
} wnn_section_data;

/* Writes header, section table and the sections (each at a 64-byte-aligned
 * offset, raw, with CRCs; GRAPH and WEIGHTS flagged REQUIRED). Returns a buffer
 * from `a` (64-byte aligned, *size bytes) or NULL when out of memory. */
uint8_t *wnn_container_write(const wnn_allocator *a, const wnn_section_data *sections, int n,
                             size_t *size);

/* Recomputes the header CRC after a test has edited the header or table. */
void wnn_container_reseal(uint8_t *buf);

#endif /* WNN_WRITER_H */
