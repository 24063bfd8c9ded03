/* Weight codecs (docs/format.md, "Param codecs"): the checks and decoders
 * shared by the artifact loader (params in WEIGHTS) and the params blob
 * reader, and the registry of user codecs (wnn_codec_register in wnn.h). */
#ifndef WNN_RUNTIME_CODEC_H
#define WNN_RUNTIME_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "wnn.h"

/* Whether `codec` is decoded into memory of its own at load (fp16, int8 and
 * user codecs; raw is used in place, fills are materialized apart). */
int wnn_codec_decodes(unsigned codec);

/* Checks that a tensor of this dtype and shape, `size` decoded bytes, may be
 * stored with `codec` in `stored` bytes: fp16 and int8 take float32 (int8 of
 * rank >= 1), their stored sizes follow from the shape, a user codec must be
 * registered, and an empty tensor (size 0) is stored raw only. Errors name
 * `what` (the tensor) and the codec. */
wnn_status wnn_codec_check(unsigned codec, wnn_dtype dtype, int ndim, const int64_t *dims,
                           size_t size, size_t stored, const char *what);

/* Decodes `stored` bytes at src into the `size` bytes at dst (checked by
 * wnn_codec_check before); a lossless stream of a value codec is decoded
 * through a temporary buffer from `a`. A corrupt lz4/zstd stream or a user
 * decoder writing another count is WNN_ERR_MALFORMED naming the codec and
 * `what`. */
wnn_status wnn_codec_decode(const wnn_allocator *a, unsigned codec, const int64_t *dims,
                            const void *src, size_t stored, void *dst, size_t size,
                            const char *what);

/* "raw", "fill", "fp16", "int8", "lz4", "fp16+zstd", ..., a user codec's
 * registered name, or "?" */
const char *wnn_codec_name(unsigned codec);

/* Lossless codecs, in the second byte of a codec number (docs/format.md). */
enum { WNN_LOSSLESS_LZ4 = 1, WNN_LOSSLESS_ZSTD = 2 };

/* For builds without liblz4/libzstd (the web modules): `hook` decodes the
 * lossless codec passed as its user_data ((void *)1 lz4, (void *)2 zstd). */
void wnn_codec_set_lossless_hook(wnn_codec_decode_fn hook);

#endif /* WNN_RUNTIME_CODEC_H */
