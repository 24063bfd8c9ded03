/* SHA-256 (FIPS 180-4): the identity of a params blob (docs/params.md). */
#ifndef WNN_SHA256_H
#define WNN_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct wnn_sha256 {
  uint32_t h[8];
  uint64_t total;    /* bytes hashed so far */
  uint8_t block[64]; /* the partial block */
  size_t used;       /* bytes in block */
} wnn_sha256;

void wnn_sha256_init(wnn_sha256 *s);
void wnn_sha256_update(wnn_sha256 *s, const void *data, size_t size);
void wnn_sha256_final(wnn_sha256 *s, uint8_t digest[32]);
/* The digest of one buffer. */
void wnn_sha256_of(const void *data, size_t size, uint8_t digest[32]);
/* The digest of one buffer as 64 lowercase hex digits and a NUL (map files). */
void wnn_sha256_hex(const void *data, size_t size, char hex[65]);

#endif /* WNN_SHA256_H */
