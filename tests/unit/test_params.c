/*
 * The params blob (.wnnp, docs/params.md): SHA-256 against the FIPS 180-4
 * examples; the writer and the reader round trip (copied and borrowed, sorted
 * lookup, digest); every damaged field refused with its status and a message
 * naming the tensor; every truncation and every flipped header or table byte
 * of a small blob refused or read without a crash (ASan runs this too).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder/params_writer.h"
#include "builder/writer.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "runtime/params.h"
#include "runtime/sha256.h"
#include "wnn.h"
#include "wnn_builder.h"
#include "../test.h"
#include "robustness.h"

static int hex_is(const uint8_t d[32], const char *hex) {
  char s[65];
  for (int i = 0; i < 32; i++) snprintf(s + 2 * i, 3, "%02x", d[i]);
  return strcmp(s, hex) == 0;
}

TEST(sha256_fips_examples) {
  uint8_t d[32];
  wnn_sha256_of("", 0, d);
  CHECK(hex_is(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  wnn_sha256_of("abc", 3, d);
  CHECK(hex_is(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  char hex[65];
  wnn_sha256_hex("abc", 3, hex); /* the map files' form */
  CHECK(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  wnn_sha256_of(two, strlen(two), d);
  CHECK(hex_is(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
  /* A million 'a', fed in uneven pieces: the block buffering. */
  static char a[1000];
  memset(a, 'a', sizeof a);
  wnn_sha256 s;
  wnn_sha256_init(&s);
  size_t left = 1000000, step = 1;
  while (left) {
    const size_t take = step < left ? step : left;
    wnn_sha256_update(&s, a, take);
    left -= take;
    step = step * 7 % 997 + 1;
  }
  wnn_sha256_final(&s, d);
  CHECK(hex_is(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
}

/* Three tensors given out of name order, one of them empty. */
static float w1[12];
static int64_t w2[3] = {7, -8, 9};
static const int64_t d1[2] = {3, 4}, d2[1] = {3}, d3[2] = {0, 5};

static uint8_t *make(size_t *size) {
  for (int i = 0; i < 12; i++) w1[i] = 0.5f * (float)i - 1.0f;
  const wnn_params_entry t[3] = {
      {"conv.weight", WNN_DTYPE_F32, 2, d1, w1, 0, NULL, 0},
      {"bias", WNN_DTYPE_I64, 1, d2, w2, 0, NULL, 0},
      {"empty", WNN_DTYPE_U8, 2, d3, NULL, 0, NULL, 0},
  };
  uint8_t *buf = NULL;
  if (wnn_params_write(&wnn_default_allocator, t, 3, &buf, size) != WNN_OK) return NULL;
  return buf;
}

static void unmake(uint8_t *buf, size_t size) { wnn_free(&wnn_default_allocator, buf, size, 64); }

/* Recomputes the header CRC after an edit (of b's first `size_` bytes; a
 * table outside them is left unsealed: the reader refuses it before the CRC). */
static size_t size_;
static void reseal(uint8_t *b) {
  const uint64_t table = wnn_rd64(b + 40), meta = wnn_rd64(b + 52);
  if (table > size_ || meta > size_ - table) return;
  uint32_t crc = wnn_crc32(0, b, 48);
  crc = wnn_crc32(crc, b + 52, 12);
  wnn_wr32(b + 48, wnn_crc32(crc, b + table, (size_t)meta));
}

static uint8_t *entry(uint8_t *b, int i) { return b + wnn_rd64(b + 40) + 64 * (size_t)i; }

TEST(round_trip_copied_and_borrowed) {
  size_t size = 0;
  uint8_t *buf = make(&size);
  CHECK(buf != NULL);
  if (!buf) return;
  CHECK(size % 64 == 0);
  uint8_t want[32];
  wnn_sha256_of(buf, size, want);
  for (int borrow = 0; borrow < 2; borrow++) {
    wnn_load_options o = {borrow ? WNN_LOAD_BORROW : 0u, WNN_KERNELS_AUTO, NULL};
    wnn_params *p = NULL;
    CHECK_OK(wnn_params_load(buf, size, &o, &p));
    if (!p) continue;
    CHECK(wnn_params_count(p) == 3);
    CHECK(strcmp(wnn_params_tensor_at(p, 0)->name, "bias") == 0); /* sorted */
    CHECK(strcmp(wnn_params_tensor_at(p, 2)->name, "empty") == 0);
    CHECK(wnn_params_tensor_at(p, 3) == NULL && wnn_params_tensor_at(p, -1) == NULL);
    const wnn_params_tensor *c = wnn_params_find(p, "conv.weight", 11);
    CHECK(c && c->dtype == WNN_DTYPE_F32 && c->ndim == 2 && c->dims[0] == 3 && c->dims[1] == 4);
    CHECK(c && c->size == sizeof w1 && memcmp(c->data, w1, sizeof w1) == 0);
    CHECK(c && ((uintptr_t)c->data % 64 == 0));
    CHECK(c && (borrow ? (const uint8_t *)c->data >= buf && (const uint8_t *)c->data < buf + size
                       : !((const uint8_t *)c->data >= buf && (const uint8_t *)c->data < buf + size)));
    const wnn_params_tensor *b = wnn_params_find(p, "bias", 4);
    CHECK(b && b->dtype == WNN_DTYPE_I64 && b->size == 24 && memcmp(b->data, w2, 24) == 0);
    const wnn_params_tensor *e = wnn_params_find(p, "empty", 5);
    CHECK(e && e->size == 0 && e->dims[0] == 0 && e->dims[1] == 5);
    CHECK(wnn_params_find(p, "conv", 4) == NULL);          /* a prefix */
    CHECK(wnn_params_find(p, "conv.weightx", 12) == NULL); /* an extension */
    CHECK(wnn_params_find(p, "zzz", 3) == NULL && wnn_params_find(p, "a", 1) == NULL);
    CHECK(wnn_params_digest(p) && memcmp(wnn_params_digest(p), want, 32) == 0);
    CHECK(wnn_params_file_size(p) == size);
    /* References: the last release frees (ASan/LSan would see a leak or a
     * use after free). */
    wnn_params_retain(p);
    wnn_params_free(p);
    CHECK(wnn_params_find(p, "bias", 4) != NULL);
    wnn_params_free(p);
  }
  /* Copied: the caller's buffer may go at once. */
  wnn_params *p = NULL;
  CHECK_OK(wnn_params_load(buf, size, NULL, &p));
  memset(buf, 0, size);
  unmake(buf, size);
  if (p) {
    const wnn_params_tensor *c = wnn_params_find(p, "conv.weight", 11);
    CHECK(c && memcmp(c->data, w1, sizeof w1) == 0);
    wnn_params_free(p);
  }
}

TEST(empty_blob) {
  uint8_t *buf = NULL;
  size_t size = 0;
  CHECK_OK(wnn_params_write(&wnn_default_allocator, NULL, 0, &buf, &size));
  wnn_params *p = NULL;
  CHECK_OK(wnn_params_load(buf, size, NULL, &p));
  CHECK(p && wnn_params_count(p) == 0 && wnn_params_find(p, "x", 1) == NULL);
  wnn_params_free(p);
  unmake(buf, size);
}

TEST(writer_refuses_bad_tensors) {
  const int64_t d[1] = {2};
  const float v[2] = {1, 2};
  uint8_t *buf = NULL;
  size_t size = 0;
  const wnn_params_entry twice[2] = {{"w", WNN_DTYPE_F32, 1, d, v, 0, NULL, 0}, {"w", WNN_DTYPE_F32, 1, d, v, 0, NULL, 0}};
  CHECK_STATUS(wnn_params_write(&wnn_default_allocator, twice, 2, &buf, &size),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "'w' repeated") != NULL);
  const wnn_params_entry noname[1] = {{"", WNN_DTYPE_F32, 1, d, v, 0, NULL, 0}};
  CHECK_STATUS(wnn_params_write(&wnn_default_allocator, noname, 1, &buf, &size),
               WNN_ERR_INVALID_ARGUMENT);
  const wnn_params_entry nodtype[1] = {{"w", WNN_DTYPE_INVALID, 1, d, v, 0, NULL, 0}};
  CHECK_STATUS(wnn_params_write(&wnn_default_allocator, nodtype, 1, &buf, &size),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK(buf == NULL);
}

/* Opens an edited copy and checks the status and that the message holds
 * `text`; *out untouched on failure. */
static void expect(const uint8_t *b, size_t size, unsigned flags, wnn_status st, const char *text) {
  wnn_load_options o = {flags, WNN_KERNELS_AUTO, NULL};
  wnn_params *p = (wnn_params *)(uintptr_t)1;
  CHECK_STATUS(wnn_params_load(b, size, &o, &p), st);
  if (st != WNN_OK) {
    CHECK(p == (wnn_params *)(uintptr_t)1);
    if (!strstr(wnn_last_error(), text)) {
      printf("  message '%s' lacks '%s'\n", wnn_last_error(), text);
      CHECK(0);
    }
  } else if (p != (wnn_params *)(uintptr_t)1) {
    wnn_params_free(p);
  }
}

TEST(damaged_blobs_refused_by_name) {
  size_t size = 0;
  uint8_t *orig = make(&size);
  CHECK(orig != NULL);
  if (!orig) return;
  static uint8_t b[4096];
  CHECK(size <= sizeof b);
  size_ = size;
  /* entries in name order: 0 bias, 1 conv.weight, 2 empty */
#define FRESH() memcpy(b, orig, size)
  FRESH();
  expect(b, size - 1, 0, WNN_ERR_TRUNCATED, "the header says");
  expect(b, 10, 0, WNN_ERR_TRUNCATED, "shorter than the 64-byte header");
  b[1] = 'X';
  expect(b, size, 0, WNN_ERR_BAD_MAGIC, "bad magic");
  FRESH();
  memcpy(b, WNN_MAGIC, 8);
  expect(b, size, 0, WNN_ERR_BAD_MAGIC, "model artifact");
  FRESH();
  b[8] = 2;
  expect(b, size, 0, WNN_ERR_VERSION, "version 2.0");
  FRESH();
  b[24] = 1, reseal(b);
  expect(b, size, 0, WNN_ERR_FEATURE, "feature bits 0x1");
  FRESH();
  entry(b, 1)[20] ^= 1; /* a table byte without resealing */
  expect(b, size, 0, WNN_ERR_CHECKSUM, "header CRC-32");
  FRESH();
  const size_t off = (size_t)wnn_rd64(entry(b, 1) + 24);
  b[off + 5] ^= 0x40; /* conv.weight's data */
  expect(b, size, 0, WNN_ERR_CHECKSUM, "'conv.weight' does not match its CRC-32");
  expect(b, size, WNN_LOAD_NO_CHECKSUM, WNN_OK, "");
  {
    wnn_load_options o = {WNN_LOAD_NO_CHECKSUM, WNN_KERNELS_AUTO, NULL};
    wnn_params *p = NULL;
    CHECK_OK(wnn_params_load(b, size, &o, &p));
    CHECK(p && wnn_params_digest(p) == NULL); /* not computed */
    wnn_params_free(p);
  }
  FRESH();
  wnn_wr32(entry(b, 1) + 20, 2), reseal(b);
  expect(b, size, 0, WNN_ERR_FEATURE, "'conv.weight' uses codec 2");
  FRESH();
  wnn_wr32(entry(b, 1) + 12, 9999), reseal(b);
  expect(b, size, 0, WNN_ERR_DTYPE, "'conv.weight' has unknown dtype 9999");
  FRESH();
  wnn_wr64(entry(b, 0) + 40, 16), reseal(b);
  expect(b, size, 0, WNN_ERR_SIZE, "'bias' says 16 bytes, its dtype and shape make 24");
  FRESH();
  wnn_wr64(entry(b, 0) + 32, 16), reseal(b);
  expect(b, size, 0, WNN_ERR_SIZE, "raw tensor 'bias' stores 16 bytes");
  FRESH();
  wnn_wr64(entry(b, 1) + 24, off + 4), reseal(b);
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "'conv.weight' (48 bytes at");
  FRESH();
  wnn_wr64(entry(b, 1) + 24, (uint64_t)wnn_rd64(entry(b, 0) + 24)), reseal(b);
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "overlaps");
  FRESH();
  wnn_wr64(entry(b, 2) + 24, size + 64), reseal(b);
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "'empty'");
  FRESH();
  wnn_wr32(entry(b, 1) + 16, 9), reseal(b);
  expect(b, size, 0, WNN_ERR_LIMIT, "'conv.weight' has 9 dims");
  FRESH();
  { /* the first dim of bias (its dims come first in table order) negative */
    const size_t dims = (size_t)wnn_rd64(b + 40) + 3 * 64;
    wnn_wr64(b + dims, (uint64_t)-3), reseal(b);
    expect(b, size, 0, WNN_ERR_SHAPE, "'bias' has dim 0 = -3");
  }
  FRESH();
  { /* "bias" renamed "zias": out of order */
    b[wnn_rd64(entry(b, 0))] = 'z', reseal(b);
    expect(b, size, 0, WNN_ERR_MALFORMED, "'conv.weight' is out of order or repeated");
  }
  FRESH();
  wnn_wr32(entry(b, 0) + 8, 0), reseal(b);
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "tensor 0's name");
  FRESH();
  wnn_wr32(entry(b, 0) + 8, 11), reseal(b); /* "bias" over "conv.weight"'s bytes */
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "the names add up to 27 bytes, more than the 20-byte");
  FRESH();
  wnn_wr64(entry(b, 0), 0), reseal(b); /* name inside the header */
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "tensor 0's name");
  FRESH();
  wnn_wr64(b + 40, 65), reseal(b);
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "misaligned");
  FRESH();
  wnn_wr32(b + 32, 2000000);
  expect(b, size, 0, WNN_ERR_LIMIT, "2000000 tensors");
  FRESH();
  entry(b, 0)[60] = 1, reseal(b);
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "'bias' has nonzero reserved bytes");
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "");
  FRESH();
  b[off - 1] = 1; /* padding before conv.weight: no byte goes unchecked */
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "nonzero padding before tensor 'conv.weight'");
  FRESH();
  b[off + 48] = 1; /* after conv.weight's 48 bytes: before 'empty', which ends the file */
  expect(b, size, 0, WNN_ERR_BAD_SECTION, "nonzero padding before tensor 'empty'");
  CHECK_STATUS(wnn_params_load(NULL, 0, NULL, NULL), WNN_ERR_INVALID_ARGUMENT);
#undef FRESH
  unmake(orig, size);
}

/* Every truncation, and every byte of the header and meta block flipped
 * (resealed, so that the checks behind the CRC run): an error or a blob that
 * reads, never a crash or a read outside the buffer (ASan). */
TEST(every_truncation_and_flip) {
  size_t size = 0;
  uint8_t *orig = make(&size);
  if (!orig) return;
  int refused = 0;
  for (size_t n = 0; n < size; n++) {
    uint8_t *b = wnn_alloc(&wnn_default_allocator, n, 1); /* exactly n bytes for ASan */
    memcpy(b, orig, n);
    wnn_params *p = NULL;
    if (wnn_params_load(b, n, NULL, &p) != WNN_OK) refused++;
    else wnn_params_free(p);
    wnn_free(&wnn_default_allocator, b, n, 1);
  }
  CHECK(refused == (int)size); /* every shorter buffer is truncated */
  const size_t meta_end = (size_t)(wnn_rd64(orig + 40) + wnn_rd64(orig + 52));
  size_ = size;
  uint8_t *b = wnn_alloc(&wnn_default_allocator, size, 64);
  for (size_t i = 0; i < meta_end; i++)
    for (int bit = 0; bit < 8; bit++) {
      if (i >= 48 && i < 52) continue; /* the CRC itself */
      memcpy(b, orig, size);
      b[i] ^= (uint8_t)(1u << bit);
      reseal(b);
      wnn_params *p = NULL;
      if (wnn_params_load(b, size, NULL, &p) == WNN_OK) {
        for (int t = 0; t < wnn_params_count(p); t++) {
          const wnn_params_tensor *x = wnn_params_tensor_at(p, t);
          volatile uint8_t sum = 0;
          for (size_t k = 0; k < x->size; k++) sum ^= ((const uint8_t *)x->data)[k];
          (void)sum;
        }
        wnn_params_free(p);
      }
    }
  wnn_free(&wnn_default_allocator, b, size, 64);
  unmake(orig, size);
}

/* ------------------------------------------------ models bound to a blob */

/* y = x W + b with W [4, 3] (raw: goes to the blob), b [3] raw too, and a
 * uniform [16, 16] param (a fill: stays in the artifact) added to nothing
 * but output as "ones". scale multiplies W, so that two builds differ. */
static void *build(float scale, int with_params, size_t *size, void **blob, size_t *blob_size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  static float w[12], bias[3] = {0.5f, -1.0f, 2.0f}, ones[256];
  for (int i = 0; i < 12; i++) w[i] = scale * (float)(i - 5) / 4;
  for (int i = 0; i < 256; i++) ones[i] = 1.0f;
  int64_t sx[2] = {2, 4}, sw[2] = {4, 3}, sb[1] = {3}, so[2] = {16, 16};
  int x, W, B, O, mm, y;
  int ok = !wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 2, sx, &x) &&
           !wnn_builder_add_param(b, "fc.weight", WNN_DTYPE_F32, 2, sw, w, &W) &&
           !wnn_builder_add_param(b, "fc.bias", WNN_DTYPE_F32, 1, sb, bias, &B) &&
           !wnn_builder_add_param(b, "ones", WNN_DTYPE_F32, 2, so, ones, &O) &&
           !wnn_builder_add_node(b, "MatMul", NULL, (int[]){x, W}, 2, NULL, 1, &mm) &&
           !wnn_builder_add_node(b, "Add", NULL, (int[]){mm, B}, 2, NULL, 1, &y) &&
           !wnn_builder_add_output(b, y, "y") && !wnn_builder_add_output(b, O, "ones");
  void *data = NULL;
  if (ok && with_params) ok = !wnn_builder_finish_with_params(b, &data, size, blob, blob_size);
  else if (ok) ok = !wnn_builder_finish(b, &data, size);
  wnn_builder_free(b);
  return ok ? data : NULL;
}

static void free_buf(void *p, size_t size) { wnn_free(&wnn_default_allocator, p, size, 64); }

/* y of model m on x = 0.25 i. */
static int run_y(wnn_model *m, float y[6]) {
  wnn_executor *ex = NULL;
  if (wnn_executor_create(m, &ex)) return 0;
  float x[8];
  int64_t shape[2] = {2, 4};
  for (int i = 0; i < 8; i++) x[i] = 0.25f * (float)i;
  DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 2, shape);
  int ok = !wnn_executor_set_input(ex, 0, &t) && !wnn_executor_run(ex) &&
           !wnn_executor_copy_output(ex, 0, y, 6 * sizeof(float));
  DLTensor o;
  ok = ok && !wnn_executor_get_output_by_name(ex, "ones", &o);
  for (int i = 0; ok && i < 256; i++) ok = ((const float *)o.data)[i] == 1.0f;
  wnn_executor_destroy(ex);
  return ok;
}

TEST(model_with_params_apart_runs_like_the_whole) {
  size_t whole_size = 0, size = 0, blob_size = 0;
  void *blob = NULL;
  void *whole = build(1.0f, 0, &whole_size, NULL, NULL);
  void *graph = build(1.0f, 1, &size, &blob, &blob_size);
  CHECK(whole && graph && blob);
  if (!whole || !graph || !blob) return;
  /* The weights left the artifact: it is smaller by at least W and b. */
  CHECK(size + 60 <= whole_size);
  wnn_model *ref = NULL;
  CHECK_OK(wnn_model_load(whole, whole_size, NULL, &ref));
  wnn_params *p = NULL;
  CHECK_OK(wnn_params_load(blob, blob_size, NULL, &p));
  CHECK(wnn_params_count(p) == 2); /* fc.bias, fc.weight: "ones" is a fill */
  wnn_tensor_info info;
  CHECK_OK(wnn_params_info(p, 1, &info));
  CHECK(!strcmp(info.name, "fc.weight") && info.ndim == 2 && info.shape[1] == 3 &&
        info.nbytes == 48 && info.dtype == WNN_DTYPE_F32);
  CHECK_STATUS(wnn_params_info(p, 2, &info), WNN_ERR_OUT_OF_RANGE);
  /* Plain load refuses, naming what to do; params with a whole artifact too. */
  wnn_model *m1 = NULL, *m2 = NULL;
  CHECK_STATUS(wnn_model_load(graph, size, NULL, &m1), WNN_ERR_FEATURE);
  CHECK(strstr(wnn_last_error(), "wnn_model_load_with_params") != NULL);
  CHECK_STATUS(wnn_model_load_with_params(whole, whole_size, p, NULL, &m1),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK(m1 == NULL);
  /* Two models on one blob; the weights are the blob's bytes, once. */
  CHECK_OK(wnn_model_load_with_params(graph, size, p, NULL, &m1));
  wnn_load_options borrow = {WNN_LOAD_BORROW, WNN_KERNELS_AUTO, NULL};
  CHECK_OK(wnn_model_load_with_params(graph, size, p, &borrow, &m2));
  wnn_params_free(p); /* the models keep it */
  float want[6], got1[6], got2[6];
  CHECK(ref && run_y(ref, want));
  CHECK(m1 && run_y(m1, got1));
  CHECK(m2 && run_y(m2, got2));
  CHECK(memcmp(want, got1, sizeof want) == 0 && memcmp(want, got2, sizeof want) == 0);
  CHECK(wnn_model_weights_bytes(m1) < wnn_model_weights_bytes(ref));
  wnn_model_free(m1);
  memset(blob, 0, blob_size); /* copied at load: the caller's bytes may go */
  CHECK(m2 && run_y(m2, got2) && memcmp(want, got2, sizeof want) == 0);
  wnn_model_free(m2);
  wnn_model_free(ref);
  free_buf(whole, whole_size);
  free_buf(graph, size);
  free_buf(blob, blob_size);
}

TEST(mismatched_params_refused_by_name) {
  size_t size = 0, blob_size = 0, other_size = 0, osize = 0;
  void *blob = NULL, *other = NULL;
  void *graph = build(1.0f, 1, &size, &blob, &blob_size);
  void *ograph = build(2.0f, 1, &osize, &other, &other_size); /* other weights */
  CHECK(graph && blob && ograph && other);
  if (!graph || !blob || !ograph || !other) return;
  wnn_params *p = NULL;
  wnn_model *m = NULL;
  /* Another blob of the same names and shapes: its digest differs. */
  CHECK_OK(wnn_params_load(other, other_size, NULL, &p));
  CHECK_STATUS(wnn_model_load_with_params(graph, size, p, NULL, &m), WNN_ERR_CHECKSUM);
  CHECK(strstr(wnn_last_error(), "not the one the artifact was converted with") != NULL);
  wnn_params_free(p);
  /* Blobs loaded without checksums are bound by name, dtype and shape. */
  wnn_load_options nock = {WNN_LOAD_NO_CHECKSUM, WNN_KERNELS_AUTO, NULL};
  const int64_t s3[1] = {3}, s43[2] = {4, 3}, s34[2] = {3, 4};
  static const float v12[12], v3[3];
  static const int64_t i3[3];
  const struct {
    wnn_params_entry e[2];
    wnn_status st;
    const char *text;
  } cases[] = {
      {{{"fc.bias", WNN_DTYPE_F32, 1, s3, v3, 0, NULL, 0}, {"fc.weigh", WNN_DTYPE_F32, 2, s43, v12, 0, NULL, 0}},
       WNN_ERR_NOT_FOUND, "no tensor 'fc.weight'"},
      {{{"fc.bias", WNN_DTYPE_I64, 1, s3, i3, 0, NULL, 0}, {"fc.weight", WNN_DTYPE_F32, 2, s43, v12, 0, NULL, 0}},
       WNN_ERR_DTYPE, "'fc.bias' is int64 in the blob"},
      {{{"fc.bias", WNN_DTYPE_F32, 1, s3, v3, 0, NULL, 0}, {"fc.weight", WNN_DTYPE_F32, 2, s34, v12, 0, NULL, 0}},
       WNN_ERR_SHAPE, "'fc.weight' has another shape"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    uint8_t *bb = NULL;
    size_t bs = 0;
    CHECK_OK(wnn_params_write(&wnn_default_allocator, cases[c].e, 2, &bb, &bs));
    /* The same file size as the real blob, so only the binding can tell. */
    CHECK(bs == blob_size);
    wnn_params *q = NULL;
    CHECK_OK(wnn_params_load(bb, bs, &nock, &q));
    m = (wnn_model *)(uintptr_t)1;
    CHECK_STATUS(wnn_model_load_with_params(graph, size, q, NULL, &m), cases[c].st);
    CHECK(m == (wnn_model *)(uintptr_t)1);
    if (!strstr(wnn_last_error(), cases[c].text)) {
      printf("  case %zu: '%s' lacks '%s'\n", c, wnn_last_error(), cases[c].text);
      CHECK(0);
    }
    wnn_params_free(q);
    wnn_free(&wnn_default_allocator, bb, bs, 64);
  }
  /* The right blob without checksums binds. */
  CHECK_OK(wnn_params_load(blob, blob_size, &nock, &p));
  CHECK_OK(wnn_model_load_with_params(graph, size, p, NULL, &m));
  wnn_model_free(m);
  wnn_params_free(p);
  CHECK_STATUS(wnn_model_load_with_params(graph, size, NULL, NULL, &m), WNN_ERR_INVALID_ARGUMENT);
  free_buf(graph, size);
  free_buf(blob, blob_size);
  free_buf(ograph, osize);
  free_buf(other, other_size);
}

/* --params-ref: a graph written with its own blob is pointed at a larger blob
 * holding the same tensors (and more); a blob with other values or lacking a
 * tensor is refused by name and the artifact left as it was. */
TEST(params_refer_to_another_blob) {
  size_t whole_size = 0, size = 0, blob_size = 0, osize = 0, other_size = 0;
  void *blob = NULL, *other = NULL;
  void *whole = build(1.0f, 0, &whole_size, NULL, NULL);
  uint8_t *graph = build(1.0f, 1, &size, &blob, &blob_size);
  void *ograph = build(2.0f, 1, &osize, &other, &other_size);
  CHECK(whole && graph && blob && ograph && other);
  if (!whole || !graph || !blob || !ograph || !other) return;
  wnn_params *p = NULL;
  CHECK_OK(wnn_params_load(blob, blob_size, NULL, &p));
  const wnn_params_tensor *t0 = wnn_params_tensor_at(p, 0), *t1 = wnn_params_tensor_at(p, 1);
  const int64_t s2[1] = {2};
  static const float extra[2] = {7, 8};
  wnn_params_entry e[3] = {{t0->name, t0->dtype, t0->ndim, t0->dims, t0->data, 0, NULL, 0},
                           {t1->name, t1->dtype, t1->ndim, t1->dims, t1->data, 0, NULL, 0},
                           {"zz.extra", WNN_DTYPE_F32, 1, s2, extra, 0, NULL, 0}};
  uint8_t *big = NULL, *small = NULL;
  size_t big_size = 0, small_size = 0;
  CHECK_OK(wnn_params_write(&wnn_default_allocator, e, 3, &big, &big_size));
  CHECK_OK(wnn_params_write(&wnn_default_allocator, e, 1, &small, &small_size)); /* fc.bias only */
  uint8_t *keep = malloc(size);
  CHECK(keep != NULL);
  if (!keep) return;
  memcpy(keep, graph, size);
  /* Refused: other values, a missing tensor, a self-contained artifact. */
  CHECK_STATUS(wnn_params_refer(graph, size, blob, blob_size, other, other_size), WNN_ERR_MALFORMED);
  CHECK(strstr(wnn_last_error(), "tensor 'fc.") && strstr(wnn_last_error(), "other values"));
  CHECK_STATUS(wnn_params_refer(graph, size, blob, blob_size, small, small_size), WNN_ERR_NOT_FOUND);
  CHECK(strstr(wnn_last_error(), "tensor 'fc.weight' is not in the blob") != NULL);
  CHECK(memcmp(keep, graph, size) == 0);
  CHECK_STATUS(wnn_params_refer(whole, whole_size, blob, blob_size, big, big_size),
               WNN_ERR_INVALID_ARGUMENT);
  /* Pointed at the larger blob: binds it (and no longer its own) and runs. */
  CHECK_OK(wnn_params_refer(graph, size, blob, blob_size, big, big_size));
  wnn_params *q = NULL;
  wnn_model *m = NULL, *ref = NULL;
  CHECK_OK(wnn_params_load(big, big_size, NULL, &q));
  CHECK_OK(wnn_model_load_with_params(graph, size, q, NULL, &m));
  CHECK_STATUS(wnn_model_load_with_params(graph, size, p, NULL, &ref), WNN_ERR_CHECKSUM);
  CHECK_OK(wnn_model_load(whole, whole_size, NULL, &ref));
  float want[6], got[6];
  CHECK(ref && run_y(ref, want));
  CHECK(m && run_y(m, got) && memcmp(want, got, sizeof want) == 0);
  wnn_model_free(m);
  wnn_model_free(ref);
  wnn_params_free(q);
  wnn_params_free(p);
  free(keep);
  wnn_free(&wnn_default_allocator, big, big_size, 64);
  wnn_free(&wnn_default_allocator, small, small_size, 64);
  free_buf(whole, whole_size);
  free_buf(graph, size);
  free_buf(blob, blob_size);
  free_buf(ograph, osize);
  free_buf(other, other_size);
}

TEST(feature_bit_and_params_ref_go_together) {
  size_t whole_size = 0, size = 0, blob_size = 0;
  void *blob = NULL;
  uint8_t *whole = build(1.0f, 0, &whole_size, NULL, NULL);
  uint8_t *graph = build(1.0f, 1, &size, &blob, &blob_size);
  CHECK(whole && graph);
  if (!whole || !graph) return;
  CHECK((wnn_rd64(graph + 24) & 1) == 1 && (wnn_rd64(whole + 24) & 1) == 0);
  wnn_model *m = NULL;
  whole[24] |= 1, wnn_container_reseal(whole);
  CHECK_STATUS(wnn_model_load(whole, whole_size, NULL, &m), WNN_ERR_BAD_SECTION);
  CHECK(strstr(wnn_last_error(), "feature bit 0 without PARAMS_REF") != NULL);
  graph[24] &= (uint8_t)~1u, wnn_container_reseal(graph);
  CHECK_STATUS(wnn_model_load(graph, size, NULL, &m), WNN_ERR_BAD_SECTION);
  CHECK(strstr(wnn_last_error(), "PARAMS_REF without feature bit 0") != NULL);
  free_buf(whole, whole_size);
  free_buf(graph, size);
  free_buf(blob, blob_size);
}

int main(void) {
  RUN(sha256_fips_examples);
  RUN(round_trip_copied_and_borrowed);
  RUN(empty_blob);
  RUN(writer_refuses_bad_tensors);
  RUN(damaged_blobs_refused_by_name);
  RUN(every_truncation_and_flip);
  RUN(model_with_params_apart_runs_like_the_whole);
  RUN(mismatched_params_refused_by_name);
  RUN(params_refer_to_another_blob);
  RUN(feature_bit_and_params_ref_go_together);
  return test_summary();
}
