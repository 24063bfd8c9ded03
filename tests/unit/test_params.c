/*
 * The params blob (.wnnp, docs/params.md): SHA-256 against the FIPS 180-4
 * examples; the writer and the reader round trip (copied and borrowed, sorted
 * lookup, digest); every damaged field refused with its status and a message
 * naming the tensor; every truncation and every flipped header or table byte
 * of a small blob refused or read without a crash (ASan runs this too).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "builder/params_writer.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "runtime/params.h"
#include "runtime/sha256.h"
#include "wnn.h"
#include "../test.h"

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
      {"conv.weight", WNN_DTYPE_F32, 2, d1, w1},
      {"bias", WNN_DTYPE_I64, 1, d2, w2},
      {"empty", WNN_DTYPE_U8, 2, d3, NULL},
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
    CHECK_OK(wnn_params_open(buf, size, &o, &p));
    if (!p) continue;
    CHECK(wnn_params_tensor_count(p) == 3);
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
    wnn_params_release(p);
    CHECK(wnn_params_find(p, "bias", 4) != NULL);
    wnn_params_release(p);
  }
  /* Copied: the caller's buffer may go at once. */
  wnn_params *p = NULL;
  CHECK_OK(wnn_params_open(buf, size, NULL, &p));
  memset(buf, 0, size);
  unmake(buf, size);
  if (p) {
    const wnn_params_tensor *c = wnn_params_find(p, "conv.weight", 11);
    CHECK(c && memcmp(c->data, w1, sizeof w1) == 0);
    wnn_params_release(p);
  }
}

TEST(empty_blob) {
  uint8_t *buf = NULL;
  size_t size = 0;
  CHECK_OK(wnn_params_write(&wnn_default_allocator, NULL, 0, &buf, &size));
  wnn_params *p = NULL;
  CHECK_OK(wnn_params_open(buf, size, NULL, &p));
  CHECK(p && wnn_params_tensor_count(p) == 0 && wnn_params_find(p, "x", 1) == NULL);
  wnn_params_release(p);
  unmake(buf, size);
}

TEST(writer_refuses_bad_tensors) {
  const int64_t d[1] = {2};
  const float v[2] = {1, 2};
  uint8_t *buf = NULL;
  size_t size = 0;
  const wnn_params_entry twice[2] = {{"w", WNN_DTYPE_F32, 1, d, v}, {"w", WNN_DTYPE_F32, 1, d, v}};
  CHECK_STATUS(wnn_params_write(&wnn_default_allocator, twice, 2, &buf, &size),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "'w' repeated") != NULL);
  const wnn_params_entry noname[1] = {{"", WNN_DTYPE_F32, 1, d, v}};
  CHECK_STATUS(wnn_params_write(&wnn_default_allocator, noname, 1, &buf, &size),
               WNN_ERR_INVALID_ARGUMENT);
  const wnn_params_entry nodtype[1] = {{"w", WNN_DTYPE_INVALID, 1, d, v}};
  CHECK_STATUS(wnn_params_write(&wnn_default_allocator, nodtype, 1, &buf, &size),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK(buf == NULL);
}

/* Opens an edited copy and checks the status and that the message holds
 * `text`; *out untouched on failure. */
static void expect(const uint8_t *b, size_t size, unsigned flags, wnn_status st, const char *text) {
  wnn_load_options o = {flags, WNN_KERNELS_AUTO, NULL};
  wnn_params *p = (wnn_params *)(uintptr_t)1;
  CHECK_STATUS(wnn_params_open(b, size, &o, &p), st);
  if (st != WNN_OK) {
    CHECK(p == (wnn_params *)(uintptr_t)1);
    if (!strstr(wnn_last_error(), text)) {
      printf("  message '%s' lacks '%s'\n", wnn_last_error(), text);
      CHECK(0);
    }
  } else if (p != (wnn_params *)(uintptr_t)1) {
    wnn_params_release(p);
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
    CHECK_OK(wnn_params_open(b, size, &o, &p));
    CHECK(p && wnn_params_digest(p) == NULL); /* not computed */
    wnn_params_release(p);
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
  CHECK_STATUS(wnn_params_open(NULL, 0, NULL, NULL), WNN_ERR_INVALID_ARGUMENT);
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
    if (wnn_params_open(b, n, NULL, &p) != WNN_OK) refused++;
    else wnn_params_release(p);
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
      if (wnn_params_open(b, size, NULL, &p) == WNN_OK) {
        for (int t = 0; t < wnn_params_tensor_count(p); t++) {
          const wnn_params_tensor *x = wnn_params_tensor_at(p, t);
          volatile uint8_t sum = 0;
          for (size_t k = 0; k < x->size; k++) sum ^= ((const uint8_t *)x->data)[k];
          (void)sum;
        }
        wnn_params_release(p);
      }
    }
  wnn_free(&wnn_default_allocator, b, size, 64);
  unmake(orig, size);
}

int main(void) {
  RUN(sha256_fips_examples);
  RUN(round_trip_copied_and_borrowed);
  RUN(empty_blob);
  RUN(writer_refuses_bad_tensors);
  RUN(damaged_blobs_refused_by_name);
  RUN(every_truncation_and_flip);
  return test_summary();
}
