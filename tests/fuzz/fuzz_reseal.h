/*
 * Recomputing a .wnn artifact's checksums in place (docs/format.md,
 * "Container"), for fuzz_loader_resealed: the fuzzer mutates bytes anywhere,
 * and resealing makes the mutated graph, metadata and weights reach the JSON
 * parser, the op prepare and the plan checks instead of stopping at a CRC.
 */
#ifndef WNN_FUZZ_RESEAL_H
#define WNN_FUZZ_RESEAL_H

#include <stddef.h>
#include <stdint.h>

/* Rewrites, in buf[size], the CRC of every section whose stored bytes lie
 * inside buf, then the header CRC (over bytes 0-47 and the section table).
 * Robust to any bytes: when the buffer is shorter than the header, the magic
 * is wrong, or the section table lies (even partly) outside the buffer, it
 * leaves everything alone and returns 0; a section outside the buffer keeps
 * its CRC. Returns 1 when the header CRC was rewritten. The field values are
 * read as the loader reads them, but nothing else is checked: the loader must
 * still reject bad sizes, counts and offsets on its own. */
int wnn_fuzz_reseal(uint8_t *buf, size_t size);

#endif /* WNN_FUZZ_RESEAL_H */
