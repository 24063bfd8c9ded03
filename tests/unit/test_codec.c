/* Weight codecs (docs/format.md, "Param codecs"): the builder's fp16 and int8
 * encodings and the loader's decoders agree bit for bit with values computed
 * here independently, in artifacts and in params blobs; user codecs
 * (wnn_codec_register) round-trip through the builder's encode hook; an
 * unregistered codec, a decoder writing the wrong count and stored sizes
 * that do not fit the shape are refused by name, with nothing leaked (ASan). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/half.h"
#include "builder/params_writer.h"
#include "runtime/alloc.h"
#include "wnn.h"
#include "wnn_builder.h"
#include "../test.h"
#include "robustness.h"

#define ROWS 6
#define COLS 200 /* 1,200 elements: over the builder's thresholds (256 elements, 1 KB to compress) */

static float w[ROWS * COLS], small[6];

static void fill_weights(void) {
  uint32_t s = 12345;
  for (int i = 0; i < ROWS * COLS; i++) {
    s = s * 1664525u + 1013904223u;
    /* rows of different magnitudes, so that each row's scale matters */
    w[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * (float)(1 + i / COLS) * 3.0f;
  }
  w[7] = 0.0f;
  for (int i = 0; i < 6; i++) small[i] = 0.1f * (float)i;
}

typedef struct {
  int calls;
  unsigned codec;
  size_t stored, size;
  double err;
} report_log;

static void on_report(void *ctx, const char *name, unsigned codec, size_t stored, size_t size,
                      double err) {
  report_log *r = ctx;
  r->calls++;
  r->codec = codec, r->stored = stored, r->size = size, r->err = err;
  (void)name;
}

/* The XOR user codec: each byte ^ 0x5a; `short_by` makes the decoder write
 * fewer bytes than asked (a broken decoder). */
static int short_by;
static size_t xor_encode(void *ctx, const void *src, size_t size, void *dst, size_t cap) {
  (void)ctx;
  if (size > cap) return 0;
  for (size_t i = 0; i < size; i++) ((uint8_t *)dst)[i] = ((const uint8_t *)src)[i] ^ 0x5a;
  return size;
}
static size_t xor_decode(void *ctx, const void *src, size_t n, void *dst, size_t size) {
  *(int *)ctx += 1;
  if (n != size) return 0;
  for (size_t i = 0; i < size; i++) ((uint8_t *)dst)[i] = ((const uint8_t *)src)[i] ^ 0x5a;
  return size - (size_t)short_by;
}

/* A model whose outputs are its params "w" [6, 200] and "small" [2, 3] themselves:
 * what a run returns is what the loader decoded. */
static void *build(const wnn_builder_weights *opt, int split, size_t *size, void **blob,
                   size_t *blob_size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  int64_t sw[2] = {ROWS, COLS}, ss[2] = {2, 3};
  int W, S;
  int ok = (!opt || !wnn_builder_set_weights(b, opt)) &&
           !wnn_builder_add_param(b, "w", WNN_DTYPE_F32, 2, sw, w, &W) &&
           !wnn_builder_add_param(b, "small", WNN_DTYPE_F32, 2, ss, small, &S) &&
           !wnn_builder_add_output(b, W, "w") && !wnn_builder_add_output(b, S, "small");
  void *data = NULL;
  if (ok) ok = split ? !wnn_builder_finish_with_params(b, &data, size, blob, blob_size)
                     : !wnn_builder_finish(b, &data, size);
  wnn_builder_free(b);
  return ok ? data : NULL;
}

static void free_buf(void *p, size_t size) { wnn_free(&wnn_default_allocator, p, size, 64); }

/* Runs m and copies output "w" to out; checks "small" is raw. */
static int run(wnn_model *m, float *out) {
  wnn_executor *ex = NULL;
  if (wnn_executor_create(m, &ex)) return 0;
  float s[6];
  int ok = !wnn_executor_run(ex) &&
           !wnn_executor_copy_output(ex, 0, out, sizeof w) &&
           !wnn_executor_copy_output(ex, 1, s, sizeof s) && !memcmp(s, small, sizeof s);
  wnn_executor_destroy(ex);
  return ok;
}

/* What fp16 and int8 must decode to, computed here. */
static void expected(unsigned codec, float *want) {
  for (int r = 0; r < ROWS; r++) {
    float m = 0;
    for (int k = 0; k < COLS; k++) m = fmaxf(m, fabsf(w[r * COLS + k]));
    const float scale = m / 127.0f;
    for (int k = 0; k < COLS; k++) {
      const float x = w[r * COLS + k];
      want[r * COLS + k] = codec == WNN_CODEC_FP16 ? wnn_f16_to_f32(wnn_f32_to_f16(x))
                                                   : (float)(int)rintf(x / scale) * scale;
    }
  }
}

/* Loads the artifact (and its blob), runs it, compares with want bitwise. */
static int loads_to(void *data, size_t size, void *blob, size_t blob_size, const float *want,
                    unsigned codec, size_t stored) {
  wnn_params *p = NULL;
  wnn_model *m = NULL;
  if (blob && wnn_params_load(blob, blob_size, NULL, &p)) return 0;
  wnn_status st = p ? wnn_model_load_with_params(data, size, p, NULL, &m)
                    : wnn_model_load(data, size, NULL, &m);
  wnn_params_free(p);
  if (st) {
    printf("  load: %s\n", wnn_last_error());
    return 0;
  }
  static float got[ROWS * COLS];
  int ok = run(m, got) && !memcmp(got, want, sizeof w);
  unsigned c = 99;
  size_t s = 0;
  int wi = -1;
  for (int i = 0; i < wnn_model_num_params(m); i++) {
    wnn_tensor_info info;
    if (!wnn_model_param_info(m, i, &info) && !strcmp(info.name, "w")) wi = i;
  }
  ok = ok && wi >= 0 && !wnn_model_param_storage(m, wi, &c, &s) && c == codec && s == stored;
  wnn_model_free(m);
  return ok;
}

TEST(fp16_and_int8_decode_to_what_they_encode) {
  fill_weights();
  static float want[ROWS * COLS];
  const unsigned codecs[2] = {WNN_CODEC_FP16, WNN_CODEC_INT8};
  const size_t stored[2] = {ROWS * COLS * 2, ROWS * 4 + ROWS * COLS};
  for (int c = 0; c < 2; c++) {
    expected(codecs[c], want);
    report_log log = {0};
    wnn_builder_weights opt = {codecs[c], 0, on_report, &log, NULL, 0};
    size_t size = 0, bsize = 0, raw_size = 0;
    void *blob = NULL;
    void *raw = build(NULL, 0, &raw_size, NULL, NULL);
    void *whole = build(&opt, 0, &size, NULL, NULL);
    CHECK(raw && whole && size < raw_size);
    /* One report: "w" (small has 6 elements: raw). */
    CHECK(log.calls == 1 && log.codec == codecs[c] && log.stored == stored[c] &&
          log.size == sizeof w);
    double max_err = 0, max_abs = 0;
    for (int i = 0; i < ROWS * COLS; i++) {
      max_err = fmax(max_err, fabs((double)want[i] - w[i]));
      max_abs = fmax(max_abs, fabs((double)w[i]));
    }
    CHECK(fabs(log.err - max_err / max_abs) < 1e-12);
    CHECK(log.err < (c == 0 ? 1.0 / 2048 : 1.0 / 254 + 1e-6));
    CHECK(whole && loads_to(whole, size, NULL, 0, want, codecs[c], stored[c]));
    /* In a params blob: the blob stores the codec, the model binds the values. */
    void *graph = build(&opt, 1, &size, &blob, &bsize);
    CHECK(graph && blob && loads_to(graph, size, blob, bsize, want, codecs[c], stored[c]));
    if (raw) free_buf(raw, raw_size);
    if (whole) free_buf(whole, size);
    if (graph) free_buf(graph, size);
    if (blob) free_buf(blob, bsize);
  }
  /* A codec the builder does not write. */
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  wnn_builder_weights bad = {WNN_CODEC_FILL, 0, NULL, NULL, NULL, 0};
  CHECK_STATUS(wnn_builder_set_weights(b, &bad), WNN_ERR_INVALID_ARGUMENT);
  bad.codec = 200; /* unregistered user codec */
  CHECK_STATUS(wnn_builder_set_weights(b, &bad), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "user codec 200") != NULL);
  wnn_builder_free(b);
}

TEST(user_codec_round_trip_and_failures) {
  fill_weights();
  int calls = 0;
  CHECK_STATUS(wnn_codec_register(127, "low", xor_decode, &calls), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_codec_register(256, "high", xor_decode, &calls), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_codec_register(200, "", xor_decode, &calls), WNN_ERR_INVALID_ARGUMENT);
  CHECK_OK(wnn_codec_register(200, "xor", xor_decode, &calls));
  report_log log = {0};
  wnn_builder_weights opt = {200, 0, on_report, &log, xor_encode, 0};
  size_t size = 0, bsize = 0, gsize = 0;
  void *blob = NULL;
  void *whole = build(&opt, 0, &size, NULL, NULL);
  void *graph = build(&opt, 1, &gsize, &blob, &bsize);
  CHECK(whole && graph && blob);
  if (!whole || !graph || !blob) return;
  CHECK(log.calls == 2 && log.codec == 200 && log.stored == sizeof w && log.err == 0);
  calls = 0;
  CHECK(loads_to(whole, size, NULL, 0, w, 200, sizeof w));
  CHECK(loads_to(graph, gsize, blob, bsize, w, 200, sizeof w));
  CHECK(calls == 2);
  /* A decoder that writes too little: the tensor and the codec are named. */
  short_by = 1;
  wnn_model *m = NULL;
  wnn_params *p = NULL;
  CHECK_STATUS(wnn_model_load(whole, size, NULL, &m), WNN_ERR_MALFORMED);
  CHECK(strstr(wnn_last_error(), "param 'w': codec 200 (xor) failed to decode it") != NULL);
  CHECK_STATUS(wnn_params_load(blob, bsize, NULL, &p), WNN_ERR_MALFORMED);
  CHECK(strstr(wnn_last_error(), "tensor 'w': codec 200 (xor) failed") != NULL);
  short_by = 0;
  /* Unregistered: WNN_ERR_FEATURE naming the codec id and the tensor. */
  CHECK_OK(wnn_codec_register(200, NULL, NULL, NULL));
  CHECK_STATUS(wnn_model_load(whole, size, NULL, &m), WNN_ERR_FEATURE);
  CHECK(strstr(wnn_last_error(), "(param 'w') uses codec 200, which is not registered") != NULL);
  CHECK_STATUS(wnn_params_load(blob, bsize, NULL, &p), WNN_ERR_FEATURE);
  CHECK(strstr(wnn_last_error(), "tensor 'w' uses codec 200, which is not registered") != NULL);
  CHECK(m == NULL && p == NULL);
  free_buf(whole, size);
  free_buf(graph, gsize);
  free_buf(blob, bsize);
}

/* Blob entries whose codec does not fit the tensor. */
TEST(codec_mismatches_refused_by_name) {
  fill_weights();
  const int64_t s2[2] = {ROWS, COLS};
  static int64_t i64[ROWS * COLS];
  static uint8_t enc[ROWS * COLS * 2];
  const struct {
    wnn_params_entry e;
    wnn_status st;
    const char *text;
  } cases[] = {
      {{"a", WNN_DTYPE_F32, 2, s2, w, WNN_CODEC_FP16, enc, ROWS * COLS * 2 - 2}, WNN_ERR_SIZE,
       "tensor 'a' stores 2398 bytes as codec 4 (fp16); its shape makes 2400"},
      {{"a", WNN_DTYPE_F32, 2, s2, w, WNN_CODEC_INT8, enc, ROWS * COLS}, WNN_ERR_SIZE,
       "codec 5 (int8); its shape makes 1224"},
      {{"a", WNN_DTYPE_I64, 2, s2, i64, WNN_CODEC_FP16, enc, ROWS * COLS * 2}, WNN_ERR_DTYPE,
       "tensor 'a' is int64: codec 4 (fp16) stores float32 tensors only"},
      {{"a", WNN_DTYPE_F32, 2, s2, w, 9, enc, 16}, WNN_ERR_FEATURE,
       "tensor 'a' uses codec 9, unknown to this library"},
      {{"a", WNN_DTYPE_F32, 2, s2, w, 131, enc, 16}, WNN_ERR_FEATURE,
       "tensor 'a' uses codec 131, which is not registered"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    uint8_t *bb = NULL;
    size_t bs = 0;
    CHECK_OK(wnn_params_write(&wnn_default_allocator, &cases[c].e, 1, &bb, &bs));
    wnn_params *p = (wnn_params *)(uintptr_t)1;
    CHECK_STATUS(wnn_params_load(bb, bs, NULL, &p), cases[c].st);
    CHECK(p == (wnn_params *)(uintptr_t)1);
    if (!strstr(wnn_last_error(), cases[c].text)) {
      printf("  case %zu: '%s' lacks '%s'\n", c, wnn_last_error(), cases[c].text);
      CHECK(0);
    }
    wnn_free(&wnn_default_allocator, bb, bs, 64);
  }
}

/* lz4 and zstd (the codec's second byte): the builder compresses stored
 * bytes where that saves, alone or after fp16/int8, and the loader gives back
 * exactly the uncompressed values; corrupt and truncated streams, and
 * lossless bytes on codecs that take none, are refused by name. */
static float steps[ROWS * COLS]; /* compressible: 8 distinct values */

TEST(lz4_and_zstd_round_trip_and_corrupt_streams) {
  fill_weights();
  for (int i = 0; i < ROWS * COLS; i++) steps[i] = 0.25f * (float)((i * 7) % 8) - 1.0f;
  memcpy(w, steps, sizeof w);
  static float want[ROWS * COLS];
  const unsigned values[3] = {WNN_CODEC_RAW, WNN_CODEC_FP16, WNN_CODEC_INT8};
  for (unsigned lossless = 1; lossless <= 2; lossless++)
    for (int k = 0; k < 3; k++) {
      if (values[k] == WNN_CODEC_RAW) memcpy(want, w, sizeof w);
      else expected(values[k], want);
      report_log log = {0};
      wnn_builder_weights opt = {values[k], 0, on_report, &log, NULL, lossless};
      size_t size = 0, gsize = 0, bsize = 0;
      void *blob = NULL;
      void *whole = build(&opt, 0, &size, NULL, NULL);
      void *graph = build(&opt, 1, &gsize, &blob, &bsize);
      const unsigned codec = values[k] | lossless << 8;
      CHECK(log.calls == 2 && log.codec == codec && log.stored < 300);
      CHECK(whole && loads_to(whole, size, NULL, 0, want, codec, log.stored));
      CHECK(graph && blob && loads_to(graph, gsize, blob, bsize, want, codec, log.stored));
      if (whole) free_buf(whole, size);
      if (graph) free_buf(graph, gsize);
      if (blob) free_buf(blob, bsize);
    }
  /* Random float32 does not shrink under lz4: stored raw. */
  fill_weights();
  report_log log = {0};
  wnn_builder_weights opt = {WNN_CODEC_RAW, 0, on_report, &log, NULL, 1};
  size_t size = 0;
  void *whole = build(&opt, 0, &size, NULL, NULL);
  CHECK(whole && log.calls == 0);
  if (whole) free_buf(whole, size);
  opt.compress = 3;
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  CHECK_STATUS(wnn_builder_set_weights(b, &opt), WNN_ERR_INVALID_ARGUMENT);
  wnn_builder_free(b);

  /* Blob tensors with streams that do not decode: a byte changed, the end
   * cut off, garbage; each with a valid CRC, so the decoder is what refuses. */
  const int64_t s2[2] = {ROWS, COLS};
  uint8_t stream[4096];
  const struct {
    unsigned codec;
    int damage; /* 0 flip a byte, 1 cut the end, 2 garbage */
    const char *text;
  } cases[] = {
      {0x100, 0, "tensor 'a': its lz4 stream (codec 0x100, lz4) is corrupt"},
      {0x100, 1, "tensor 'a': its lz4 stream (codec 0x100, lz4) is corrupt"},
      {0x200, 0, "tensor 'a': its zstd stream (codec 0x200, zstd) is corrupt"},
      {0x200, 1, "tensor 'a': its zstd stream (codec 0x200, zstd) is corrupt"},
      {0x204, 2, "tensor 'a': its zstd stream (codec 0x204, fp16+zstd) is corrupt"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    /* A valid stream first: from an artifact the builder compressed. */
    wnn_builder_weights o = {cases[c].codec & 0xffu, 0, NULL, NULL, NULL, cases[c].codec >> 8};
    memcpy(w, steps, sizeof w);
    size_t gsize = 0, bsize = 0;
    void *blob = NULL;
    void *graph = build(&o, 1, &gsize, &blob, &bsize);
    wnn_params *p = NULL;
    CHECK(graph && blob && !wnn_params_load(blob, bsize, NULL, &p));
    size_t n = 0;
    if (p) { /* the stored stream of "w", found through the table (docs/format.md) */
      const uint8_t *bb = blob;
      const uint64_t table = bb[40] | (uint64_t)bb[41] << 8;
      for (int i = 0; i < 2; i++) {
        const uint8_t *e = bb + table + 64 * (size_t)i;
        if (e[8] == 1 && bb[e[0] | e[1] << 8] == 'w') {
          const size_t off = e[24] | (size_t)e[25] << 8 | (size_t)e[26] << 16;
          n = e[32] | (size_t)e[33] << 8;
          if (n <= sizeof stream) memcpy(stream, bb + off, n);
        }
      }
      wnn_params_free(p);
    }
    CHECK(n > 16 && n <= sizeof stream);
    if (cases[c].damage == 0) stream[n / 2] ^= 0xff;
    if (cases[c].damage == 1) n -= 5;
    if (cases[c].damage == 2) memset(stream, 0x41, n);
    const wnn_params_entry e = {"a", WNN_DTYPE_F32, 2, s2, w, cases[c].codec, stream, n};
    uint8_t *bb = NULL;
    size_t bs = 0;
    CHECK_OK(wnn_params_write(&wnn_default_allocator, &e, 1, &bb, &bs));
    p = (wnn_params *)(uintptr_t)1;
    CHECK_STATUS(wnn_params_load(bb, bs, NULL, &p), WNN_ERR_MALFORMED);
    CHECK(p == (wnn_params *)(uintptr_t)1);
    if (!strstr(wnn_last_error(), cases[c].text)) {
      printf("  case %zu: '%s' lacks '%s'\n", c, wnn_last_error(), cases[c].text);
      CHECK(0);
    }
    wnn_free(&wnn_default_allocator, bb, bs, 64);
    if (graph) free_buf(graph, gsize);
    if (blob) free_buf(blob, bsize);
  }
  /* Lossless bytes on codecs that take none. */
  const unsigned bad[3] = {0x300, 0x1c8 /* user 200 + lz4 */, 0x103 /* fill + lz4 */};
  for (int c = 0; c < 3; c++) {
    const wnn_params_entry e = {"a", WNN_DTYPE_F32, 2, s2, w, bad[c], stream, 16};
    uint8_t *bb = NULL;
    size_t bs = 0;
    CHECK_OK(wnn_params_write(&wnn_default_allocator, &e, 1, &bb, &bs));
    wnn_params *p = NULL;
    CHECK_STATUS(wnn_params_load(bb, bs, NULL, &p), WNN_ERR_FEATURE);
    CHECK(strstr(wnn_last_error(), "unknown to this library") != NULL);
    wnn_free(&wnn_default_allocator, bb, bs, 64);
  }
}

int main(void) {
  RUN(fp16_and_int8_decode_to_what_they_encode);
  RUN(user_codec_round_trip_and_failures);
  RUN(codec_mismatches_refused_by_name);
  RUN(lz4_and_zstd_round_trip_and_corrupt_streams);
  return test_summary();
}
