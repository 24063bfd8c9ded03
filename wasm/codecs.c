/*
 * dist/wnn-codecs.wasm: the lossless weight decoders of liblz4 and libzstd
 * (compiled from their Debian sources, .deps/lz4 and .deps/zstd) for the web
 * modules, which leave them out to stay small. js/wnn.js instantiates it the
 * first time an artifact or a params blob uses lz4 or zstd (docs/params.md,
 * section 2): the runtime's env.wnn_js_decode import hands the stream to
 * JavaScript, which copies it here, decodes, and copies the bytes back.
 */
#include <limits.h>
#include <stddef.h>

#include <lz4.h>
#include <zstd.h>

/* Decodes n bytes at src (lossless 1: an lz4 block, 2: a zstd frame) into
 * exactly size bytes at dst; returns the count written, 0 for a corrupt
 * stream or an unknown codec. */
size_t wnn_codecs_decode(int lossless, const void *src, size_t n, void *dst, size_t size) {
  if (lossless == 1) {
    if (n > INT_MAX || size > INT_MAX) return 0;
    const int r = LZ4_decompress_safe(src, dst, (int)n, (int)size);
    return r < 0 ? 0 : (size_t)r;
  }
  if (lossless == 2) {
    /* One decompression context for every call (the module is single
     * threaded): creating one per tensor costs more than small tensors'
     * decoding. */
    static ZSTD_DCtx *dctx;
    if (!dctx && !(dctx = ZSTD_createDCtx())) return 0;
    const size_t r = ZSTD_decompressDCtx(dctx, dst, size, src, n);
    return ZSTD_isError(r) ? 0 : r;
  }
  return 0;
}
