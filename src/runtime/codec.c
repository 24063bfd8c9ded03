/* Weight codecs: checks, the built-in value decoders and the user registry. */
#include "runtime/codec.h"

#include <string.h>

#include "base/half.h"
#include "base/status.h"

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

const char *wnn_codec_name(unsigned codec) {
  switch (codec) {
    case WNN_CODEC_RAW: return "raw";
    case WNN_CODEC_FILL: return "fill";
    case WNN_CODEC_FP16: return "fp16";
    case WNN_CODEC_INT8: return "int8";
  }
  if (is_user(codec) && user[codec - WNN_CODEC_USER_FIRST].decode)
    return user[codec - WNN_CODEC_USER_FIRST].name;
  return "?";
}

int wnn_codec_decodes(unsigned codec) {
  return codec == WNN_CODEC_FP16 || codec == WNN_CODEC_INT8 || is_user(codec);
}

wnn_status wnn_codec_check(unsigned codec, wnn_dtype dtype, int ndim, const int64_t *dims,
                           size_t size, size_t stored, const char *what) {
  if (codec == WNN_CODEC_FP16 || codec == WNN_CODEC_INT8) {
    const char *cn = wnn_codec_name(codec);
    if (dtype != WNN_DTYPE_F32)
      return fail(WNN_ERR_DTYPE, "%s is %s: codec %u (%s) stores float32 tensors only", what,
                  wnn_dtype_name(dtype), codec, cn);
    if (codec == WNN_CODEC_INT8 && (ndim < 1 || dims[0] < 1))
      return fail(WNN_ERR_SHAPE, "%s: codec 5 (int8) needs a tensor of rank >= 1 with channels",
                  what);
    /* size = 4 * numel; channels divide numel (dims[0] is a factor). */
    const size_t numel = size / 4;
    const size_t want = codec == WNN_CODEC_FP16 ? numel * 2 : (size_t)dims[0] * 4 + numel;
    if (stored != want)
      return fail(WNN_ERR_SIZE, "%s stores %zu bytes as codec %u (%s); its shape makes %zu", what,
                  stored, codec, cn, want);
    return WNN_OK;
  }
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
              "int8 5 and registered user codecs 128-255)",
              what, codec);
}

wnn_status wnn_codec_decode(unsigned codec, const int64_t *dims, const void *src, size_t stored,
                            void *dst, size_t size, const char *what) {
  const uint8_t *s = src;
  float *d = dst;
  if (codec == WNN_CODEC_FP16) {
    for (size_t i = 0; i < size / 4; i++) d[i] = wnn_f16_to_f32((uint16_t)(s[2 * i] | s[2 * i + 1] << 8));
    return WNN_OK;
  }
  if (codec == WNN_CODEC_INT8) {
    const size_t channels = (size_t)dims[0], per = size / 4 / channels;
    const int8_t *q = (const int8_t *)(s + 4 * channels);
    for (size_t c = 0; c < channels; c++) {
      float scale;
      memcpy(&scale, s + 4 * c, 4);
      for (size_t k = 0; k < per; k++) d[c * per + k] = (float)q[c * per + k] * scale;
    }
    return WNN_OK;
  }
  const unsigned i = codec - WNN_CODEC_USER_FIRST;
  const size_t wrote = user[i].decode(user[i].user_data, src, stored, dst, size);
  if (wrote != size)
    return fail(WNN_ERR_MALFORMED, "%s: codec %u (%s) failed to decode it (wrote %zu of %zu bytes)",
                what, codec, user[i].name, wrote, size);
  return WNN_OK;
}
