/* Weight codecs: checks, the built-in value decoders and the user registry. */
#include "runtime/codec.h"

#include <limits.h>
#include <string.h>

#include "base/status.h"
#include "ops/op_internal.h"
#include "runtime/alloc.h"

#ifdef WNN_WITH_LZ4
#include <lz4.h>
#endif
#ifdef WNN_WITH_ZSTD
#include <zstd.h>
#endif

#define fail(st, ...) wnn_seterr(NULL, 0, st, __VA_ARGS__)

#define NUM_USER (WNN_CODEC_USER_LAST - WNN_CODEC_USER_FIRST + 1)

/* Registered user codecs, by id - WNN_CODEC_USER_FIRST. Written by
 * wnn_codec_register only (docs: before loads on other threads start). */
static struct {
  wnn_codec_decode_fn decode;
  void *user_data;
  char name[32];
} user[NUM_USER];

wnn_status wnn_codec_register(unsigned id, const char *name, wnn_codec_decode_fn decode,
                              void *user_data) {
  wnn_clear_error();
  if (id < WNN_CODEC_USER_FIRST || id > WNN_CODEC_USER_LAST)
    return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_codec_register: id %u is not a user codec id (%d-%d)",
                id, WNN_CODEC_USER_FIRST, WNN_CODEC_USER_LAST);
  if (decode && (!name || !*name))
    return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_codec_register: codec %u needs a name", id);
  const unsigned i = id - WNN_CODEC_USER_FIRST;
  user[i].decode = decode;
  user[i].user_data = decode ? user_data : NULL;
  memset(user[i].name, 0, sizeof user[i].name);
  if (decode) strncpy(user[i].name, name, sizeof user[i].name - 1);
  return WNN_OK;
}

static int is_user(unsigned codec) {
  return codec >= WNN_CODEC_USER_FIRST && codec <= WNN_CODEC_USER_LAST;
}

/* Lossless decoders a build without liblz4/libzstd gets from its host
 * (wnn_codec_set_lossless_hook: the web modules ask JavaScript). */
static wnn_codec_decode_fn lossless_hook;

void wnn_codec_set_lossless_hook(wnn_codec_decode_fn hook) { lossless_hook = hook; }

static int lossless_built_in(unsigned lossless) {
#ifdef WNN_WITH_LZ4
  if (lossless == WNN_LOSSLESS_LZ4) return 1;
#endif
#ifdef WNN_WITH_ZSTD
  if (lossless == WNN_LOSSLESS_ZSTD) return 1;
#endif
  (void)lossless;
  return 0;
}

/* Decodes a lossless stream of n bytes into exactly size bytes at dst;
 * returns the count written (anything else: a corrupt stream). */
static size_t lossless_decode(unsigned lossless, const void *src, size_t n, void *dst,
                              size_t size) {
#ifdef WNN_WITH_LZ4
  if (lossless == WNN_LOSSLESS_LZ4) {
    if (n > INT_MAX || size > INT_MAX) return 0;
    const int r = LZ4_decompress_safe(src, dst, (int)n, (int)size);
    return r < 0 ? 0 : (size_t)r;
  }
#endif
#ifdef WNN_WITH_ZSTD
  if (lossless == WNN_LOSSLESS_ZSTD) {
    const size_t r = ZSTD_decompress(dst, size, src, n);
    return ZSTD_isError(r) ? 0 : r;
  }
#endif
  return lossless_hook ? lossless_hook((void *)(size_t)lossless, src, n, dst, size) : 0;
}

const char *wnn_codec_name(unsigned codec) {
  static const char *const value_names[6] = {"raw", "?", "?", "fill", "fp16", "int8"};
  static const char *const combined[3][3] = {{"raw", "lz4", "zstd"},
                                             {"fp16", "fp16+lz4", "fp16+zstd"},
                                             {"int8", "int8+lz4", "int8+zstd"}};
  const unsigned value = codec & 0xffu, lossless = codec >> 8;
  if (lossless) {
    if (lossless > WNN_LOSSLESS_ZSTD) return "?";
    if (value == WNN_CODEC_RAW) return combined[0][lossless];
    if (value == WNN_CODEC_FP16 || value == WNN_CODEC_INT8)
      return combined[value - WNN_CODEC_FP16 + 1][lossless];
    return "?";
  }
  if (codec < 6) return value_names[codec];
  if (is_user(codec) && user[codec - WNN_CODEC_USER_FIRST].decode)
    return user[codec - WNN_CODEC_USER_FIRST].name;
  return "?";
}

int wnn_codec_decodes(unsigned codec) {
  const unsigned value = codec & 0xffu;
  return (codec >> 8) != 0 || value == WNN_CODEC_FP16 || value == WNN_CODEC_INT8 ||
         is_user(codec);
}

/* Bytes of the value-coded form (what a lossless stream decodes to). */
static size_t value_bytes(unsigned value, const int64_t *dims, size_t size) {
  if (value == WNN_CODEC_FP16) return size / 2;
  if (value == WNN_CODEC_INT8) return (size_t)dims[0] * 4 + size / 4;
  return size;
}

wnn_status wnn_codec_check(unsigned codec, wnn_dtype dtype, int ndim, const int64_t *dims,
                           size_t size, size_t stored, const char *what) {
  const unsigned value = codec & 0xffu, lossless = codec >> 8;
  /* First, so that the sizes below come from a nonempty shape (dims[0] then
   * divides the element count and cannot wrap what it is multiplied into). */
  if (!size) return fail(WNN_ERR_MALFORMED, "%s: an empty tensor is stored raw (not codec %u)",
                         what, codec);
  if (lossless) {
    if (lossless > WNN_LOSSLESS_ZSTD || (value != WNN_CODEC_RAW && value != WNN_CODEC_FP16 &&
                                         value != WNN_CODEC_INT8))
      return fail(WNN_ERR_FEATURE,
                  "%s uses codec 0x%x, unknown to this library (a lossless codec, 1 lz4 or 2 "
                  "zstd, in the second byte goes with raw 0, fp16 4 or int8 5 in the first)",
                  what, codec);
    if (!lossless_built_in(lossless) && !lossless_hook)
      return fail(WNN_ERR_FEATURE, "%s uses codec 0x%x (%s): this build has no %s decoder", what,
                  codec, wnn_codec_name(codec), lossless == WNN_LOSSLESS_LZ4 ? "lz4" : "zstd");
  }
  if (value == WNN_CODEC_FP16 || value == WNN_CODEC_INT8) {
    const char *cn = wnn_codec_name(codec);
    if (dtype != WNN_DTYPE_F32)
      return fail(WNN_ERR_DTYPE, "%s is %s: codec %u (%s) stores float32 tensors only", what,
                  wnn_dtype_name(dtype), codec, cn);
    if (value == WNN_CODEC_INT8 && (ndim < 1 || dims[0] < 1))
      return fail(WNN_ERR_SHAPE, "%s: codec %u (%s) needs a tensor of rank >= 1 with channels",
                  what, codec, cn);
    /* size = 4 * numel; channels divide numel (dims[0] is a factor). */
    const size_t want = value_bytes(value, dims, size);
    if (!lossless && stored != want)
      return fail(WNN_ERR_SIZE, "%s stores %zu bytes as codec %u (%s); its shape makes %zu", what,
                  stored, codec, cn, want);
    return WNN_OK;
  }
  if (lossless) return WNN_OK; /* raw + lz4/zstd: any stream size */
  if (is_user(codec)) {
    if (!user[codec - WNN_CODEC_USER_FIRST].decode)
      return fail(WNN_ERR_FEATURE,
                  "%s uses codec %u, which is not registered (a user codec: register its decoder "
                  "with wnn_codec_register, in JavaScript wnn.registerCodec, before loading)",
                  what, codec);
    return WNN_OK;
  }
  return fail(WNN_ERR_FEATURE,
              "%s uses codec %u, unknown to this library (it decodes raw 0, fill 3, fp16 4, "
              "int8 5, those with lz4 or zstd, and registered user codecs 128-255)",
              what, codec);
}

static void value_decode(unsigned value, const int64_t *dims, const uint8_t *s, float *d,
                         size_t size) {
  if (value == WNN_CODEC_FP16) { /* the Cast kernel: SIMD128 in the web modules */
    wnn_select_f16_f32_vcvt(WNN_KERNELS_AUTO)(size / 4, (const uint16_t *)(const void *)s, d);
    return;
  }
  const size_t channels = (size_t)dims[0], per = size / 4 / channels;
  const int8_t *q = (const int8_t *)(s + 4 * channels);
  for (size_t c = 0; c < channels; c++) {
    float scale;
    memcpy(&scale, s + 4 * c, 4);
    for (size_t k = 0; k < per; k++) d[c * per + k] = (float)q[c * per + k] * scale;
  }
}

wnn_status wnn_codec_decode(const wnn_allocator *a, unsigned codec, const int64_t *dims,
                            const void *src, size_t stored, void *dst, size_t size,
                            const char *what) {
  const unsigned value = codec & 0xffu, lossless = codec >> 8;
  if (lossless) {
    const size_t mid = value_bytes(value, dims, size);
    uint8_t *tmp = value == WNN_CODEC_RAW ? dst : wnn_alloc(a, mid ? mid : 1, 16);
    if (!tmp) return fail(WNN_ERR_OUT_OF_MEMORY, "%s: out of memory decoding it", what);
    const size_t got = lossless_decode(lossless, src, stored, tmp, mid);
    if (got == mid && value != WNN_CODEC_RAW) value_decode(value, dims, tmp, dst, size);
    if (tmp != dst) wnn_free(a, tmp, mid ? mid : 1, 16);
    if (got != mid)
      return fail(WNN_ERR_MALFORMED,
                  "%s: its %s stream (codec 0x%x, %s) is corrupt: it decodes to %zu of %zu bytes",
                  what, lossless == WNN_LOSSLESS_LZ4 ? "lz4" : "zstd", codec,
                  wnn_codec_name(codec), got, mid);
    return WNN_OK;
  }
  if (value == WNN_CODEC_FP16 || value == WNN_CODEC_INT8) {
    value_decode(value, dims, src, dst, size);
    return WNN_OK;
  }
  const unsigned i = codec - WNN_CODEC_USER_FIRST;
  const size_t wrote = user[i].decode(user[i].user_data, src, stored, dst, size);
  if (wrote != size)
    return fail(WNN_ERR_MALFORMED, "%s: codec %u (%s) failed to decode it (wrote %zu of %zu bytes)",
                what, codec, user[i].name, wrote, size);
  return WNN_OK;
}
