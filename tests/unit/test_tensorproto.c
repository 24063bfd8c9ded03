/*
 * The CLI's onnx.TensorProto reader: round trips through our writer, messages
 * built byte by byte the way protobuf writers lay them out (packed and unpacked
 * repeated fields, every typed data field, unknown fields of every wire type),
 * and every malformed message, each asserting the specific status and message.
 *
 * The module under test comes from src/cli (the build links the CLI's code
 * other than main.c into every test program).
 */
#include "cli/tensorproto.h"

#include "../test.h"
#include "cli_check.h"


/* ------------------------------------------------ building messages by hand */

typedef struct msg {
  uint8_t b[4096];
  size_t n;
} msg;

static void put_byte(msg *m, uint8_t v) { m->b[m->n++] = v; }
static void put_varint(msg *m, uint64_t v) {
  do {
    uint8_t c = v & 0x7f;
    v >>= 7;
    put_byte(m, (uint8_t)(c | (v ? 0x80 : 0)));
  } while (v);
}
static void put_key(msg *m, unsigned field, unsigned wire) { put_varint(m, field << 3 | wire); }
static void put_fixed(msg *m, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) put_byte(m, i < 8 ? (uint8_t)(v >> (8 * i)) : 0);
}
static void put_bytes(msg *m, unsigned field, const void *p, size_t len) {
  put_key(m, field, 2);
  put_varint(m, len);
  memcpy(m->b + m->n, p, len);
  m->n += len;
}
static void put_packed_varints(msg *m, unsigned field, const int64_t *v, size_t count) {
  msg inner = {{0}, 0};
  for (size_t i = 0; i < count; i++) put_varint(&inner, (uint64_t)v[i]);
  put_bytes(m, field, inner.b, inner.n);
}
static void put_dims(msg *m, int ndim, const int64_t *dims) {
  put_packed_varints(m, 1, dims, (size_t)ndim);
}
static void put_type(msg *m, int type) {
  put_key(m, 2, 0);
  put_varint(m, (uint64_t)type);
}
static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static wnn_status parse(const msg *m, wnn_host_tensor *t, char *err, size_t errcap) {
  /* an exact-size copy, so a sanitizer catches any read past the message */
  uint8_t *copy = (uint8_t *)malloc(m->n ? m->n : 1);
  memcpy(copy, m->b, m->n);
  memset(t, 0x5a, sizeof *t);
  wnn_status st = wnn_tensorproto_parse(copy, m->n, t, err, errcap);
  if (st != WNN_OK) CHECK(t->ndim == 0x5a5a5a5a); /* untouched on failure */
  free(copy);
  return st;
}

/* Parses and frees, for the failure cases. */
static wnn_status parse_only(const msg *m, char *err, size_t errcap) {
  wnn_host_tensor t;
  wnn_status st = parse(m, &t, err, errcap);
  if (st == WNN_OK) wnn_host_tensor_free(&t);
  return st;
}

/* ------------------------------------------------------------------- tests */

TEST(round_trip_every_dtype) {
  static const wnn_dtype dtypes[] = {WNN_DTYPE_F32, WNN_DTYPE_F16, WNN_DTYPE_I64, WNN_DTYPE_I32,
                                     WNN_DTYPE_I8,  WNN_DTYPE_U8,  WNN_DTYPE_BOOL};
  static const int64_t shapes[][4] = {{0}, {5}, {2, 3, 4}, {2, 1, 4, 0}, {1, 1, 28, 28}};
  static const int ndims[] = {0, 1, 3, 4, 4};
  static uint8_t data[28 * 28 * 8];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)((i * 13 + 1) & 1);
  for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
    for (size_t s = 0; s < sizeof ndims / sizeof ndims[0]; s++) {
      size_t count = 0, nbytes = 0;
      CHECK(wnn_shape_size(ndims[s], shapes[s], wnn_dtype_size(dtypes[d]), &count, &nbytes));
      void *pb = NULL;
      size_t size = 0;
      const char *name = s % 2 ? "gpu_0/data_0" : NULL;
      CHECK_OK(wnn_tensorproto_encode(dtypes[d], ndims[s], shapes[s], data, nbytes, name, &pb,
                                      &size, NULL, 0));
      if (!pb) continue;
      wnn_host_tensor t;
      char err[256] = "";
      CHECK_OK(wnn_tensorproto_parse(pb, size, &t, err, sizeof err));
      CHECK(t.dtype == dtypes[d]);
      CHECK(strcmp(t.dtype_name, wnn_dtype_name(dtypes[d])) == 0);
      CHECK(t.ndim == ndims[s]);
      CHECK(memcmp(t.shape, shapes[s], sizeof(int64_t) * (size_t)ndims[s]) == 0);
      CHECK(t.count == count && t.nbytes == nbytes);
      CHECK(t.data && memcmp(t.data, data, nbytes) == 0);
      CHECK(name ? t.name && strcmp(t.name, name) == 0 : t.name == NULL);
      wnn_host_tensor_free(&t);
      free(pb);
    }
  }
}

/* What ONNX's numpy_helper writes for mnist's Input3: packed dims, data_type,
 * name, raw_data, in field-number order; our writer produces the same bytes. */
TEST(matches_onnx_layout) {
  static float v[1 * 1 * 28 * 28];
  for (size_t i = 0; i < 784; i++) v[i] = (float)i / 784.0f;
  msg m = {{0}, 0};
  const int64_t dims[4] = {1, 1, 28, 28};
  put_dims(&m, 4, dims);
  put_type(&m, 1);
  put_bytes(&m, 8, "Input3", 6);
  put_bytes(&m, 9, v, sizeof v);
  static const uint8_t start[] = {0x0a, 0x04, 0x01, 0x01, 0x1c, 0x1c, 0x10, 0x01, 0x42, 0x06,
                                  'I',  'n',  'p',  'u',  't',  '3',  0x4a, 0xc0, 0x18};
  CHECK(memcmp(m.b, start, sizeof start) == 0);
  void *pb;
  size_t size;
  CHECK_OK(wnn_tensorproto_encode(WNN_DTYPE_F32, 4, dims, v, sizeof v, "Input3", &pb, &size, NULL,
                                  0));
  CHECK(size == m.n && memcmp(pb, m.b, m.n) == 0);
  free(pb);
  wnn_host_tensor t;
  CHECK_OK(parse(&m, &t, NULL, 0));
  CHECK(t.dtype == WNN_DTYPE_F32 && t.ndim == 4 && t.shape[2] == 28 && t.count == 784);
  CHECK(t.name && strcmp(t.name, "Input3") == 0);
  CHECK(memcmp(t.data, v, sizeof v) == 0);
  wnn_host_tensor_free(&t);
}

/* Unpacked dims, float_data unpacked (fixed32) and packed, mixed. */
TEST(reads_float_data_packed_and_unpacked) {
  msg m = {{0}, 0};
  put_key(&m, 1, 0), put_varint(&m, 2);
  put_key(&m, 1, 0), put_varint(&m, 3);
  put_type(&m, 1);
  float vals[6] = {1.5f, -2.0f, 3.25f, 0.0f, -0.0f, 1e-30f};
  put_key(&m, 4, 5), put_fixed(&m, f32_bits(vals[0]), 4);
  put_key(&m, 4, 2), put_varint(&m, 12);
  for (int i = 1; i < 4; i++) put_fixed(&m, f32_bits(vals[i]), 4);
  put_key(&m, 4, 5), put_fixed(&m, f32_bits(vals[4]), 4);
  put_key(&m, 4, 5), put_fixed(&m, f32_bits(vals[5]), 4);
  wnn_host_tensor t;
  CHECK_OK(parse(&m, &t, NULL, 0));
  CHECK(t.ndim == 2 && t.shape[0] == 2 && t.shape[1] == 3);
  CHECK(t.data && memcmp(t.data, vals, sizeof vals) == 0);
  CHECK(t.name == NULL);
  wnn_host_tensor_free(&t);
}

/* int32_data carries INT32 (negative values as 10-byte varints), INT8, UINT8,
 * BOOL and FLOAT16 bits. */
TEST(reads_int32_data_for_narrow_types) {
  const int64_t dims[1] = {4};
  {
    msg m = {{0}, 0};
    put_dims(&m, 1, dims);
    put_type(&m, 6);
    const int64_t v[4] = {-1, 2147483647, -2147483647 - 1, 7};
    put_packed_varints(&m, 5, v, 4);
    wnn_host_tensor t;
    CHECK_OK(parse(&m, &t, NULL, 0));
    const int32_t want[4] = {-1, 2147483647, -2147483647 - 1, 7};
    CHECK(t.dtype == WNN_DTYPE_I32 && t.nbytes == 16 && memcmp(t.data, want, 16) == 0);
    wnn_host_tensor_free(&t);
  }
  {
    msg m = {{0}, 0};
    put_dims(&m, 1, dims);
    put_type(&m, 3);
    const int64_t v[4] = {-128, 127, 0, -5};
    for (int i = 0; i < 4; i++) put_key(&m, 5, 0), put_varint(&m, (uint64_t)v[i]);
    wnn_host_tensor t;
    CHECK_OK(parse(&m, &t, NULL, 0));
    const int8_t want[4] = {-128, 127, 0, -5};
    CHECK(t.dtype == WNN_DTYPE_I8 && t.nbytes == 4 && memcmp(t.data, want, 4) == 0);
    wnn_host_tensor_free(&t);
  }
  {
    msg m = {{0}, 0};
    put_dims(&m, 1, dims);
    put_type(&m, 2);
    const int64_t v[4] = {0, 255, 128, 1};
    put_packed_varints(&m, 5, v, 4);
    wnn_host_tensor t;
    CHECK_OK(parse(&m, &t, NULL, 0));
    const uint8_t want[4] = {0, 255, 128, 1};
    CHECK(t.dtype == WNN_DTYPE_U8 && memcmp(t.data, want, 4) == 0);
    wnn_host_tensor_free(&t);
  }
  {
    msg m = {{0}, 0};
    put_dims(&m, 1, dims);
    put_type(&m, 9);
    const int64_t v[4] = {1, 0, 0, 1};
    put_packed_varints(&m, 5, v, 4);
    wnn_host_tensor t;
    CHECK_OK(parse(&m, &t, NULL, 0));
    const uint8_t want[4] = {1, 0, 0, 1};
    CHECK(t.dtype == WNN_DTYPE_BOOL && memcmp(t.data, want, 4) == 0);
    wnn_host_tensor_free(&t);
  }
  {
    msg m = {{0}, 0};
    put_dims(&m, 1, dims);
    put_type(&m, 10);
    const int64_t v[4] = {0x3c00, 0xbc00, 0x7bff, 0};
    put_packed_varints(&m, 5, v, 4);
    wnn_host_tensor t;
    CHECK_OK(parse(&m, &t, NULL, 0));
    const uint16_t want[4] = {0x3c00, 0xbc00, 0x7bff, 0};
    CHECK(t.dtype == WNN_DTYPE_F16 && t.nbytes == 8 && memcmp(t.data, want, 8) == 0);
    wnn_host_tensor_free(&t);
  }
}

TEST(reads_int64_and_double_data) {
  const int64_t dims[1] = {3};
  {
    msg m = {{0}, 0};
    put_dims(&m, 1, dims);
    put_type(&m, 7);
    const int64_t v[3] = {INT64_MIN, -1, INT64_MAX};
    put_packed_varints(&m, 7, v, 2);
    put_key(&m, 7, 0), put_varint(&m, (uint64_t)v[2]);
    wnn_host_tensor t;
    CHECK_OK(parse(&m, &t, NULL, 0));
    CHECK(t.dtype == WNN_DTYPE_I64 && t.nbytes == 24 && memcmp(t.data, v, 24) == 0);
    wnn_host_tensor_free(&t);
  }
  {
    msg m = {{0}, 0};
    put_dims(&m, 1, dims);
    put_type(&m, 11);
    const double v[3] = {0.1, -2.5, 1e300};
    uint64_t bits[3];
    memcpy(bits, v, sizeof v);
    put_key(&m, 10, 2), put_varint(&m, 16), put_fixed(&m, bits[0], 8), put_fixed(&m, bits[1], 8);
    put_key(&m, 10, 1), put_fixed(&m, bits[2], 8);
    wnn_host_tensor t;
    CHECK_OK(parse(&m, &t, NULL, 0));
    CHECK(t.dtype == WNN_DTYPE_F64 && strcmp(t.dtype_name, "float64") == 0);
    CHECK(t.elem_size == 8 && t.nbytes == 24 && memcmp(t.data, v, 24) == 0);
    wnn_host_tensor_free(&t);
  }
}

/* A scalar (no dims), and a zero-element tensor with empty raw_data as in the
 * ONNX test data of models with empty past-state inputs. */
TEST(reads_scalar_and_empty) {
  msg m = {{0}, 0};
  put_type(&m, 7);
  put_key(&m, 7, 0), put_varint(&m, 16000);
  wnn_host_tensor t;
  CHECK_OK(parse(&m, &t, NULL, 0));
  CHECK(t.ndim == 0 && t.count == 1 && *(int64_t *)t.data == 16000);
  wnn_host_tensor_free(&t);

  static const uint8_t empty[] = {0x0a, 0x05, 0x02, 0x01, 0x04, 0x00, 0x08, 0x10, 0x01, 0x42,
                                  0x06, 'p',  'a',  's',  't',  '_',  '0',  0x4a, 0x00};
  msg e = {{0}, 0};
  memcpy(e.b, empty, sizeof empty);
  e.n = sizeof empty;
  CHECK_OK(parse(&e, &t, NULL, 0));
  CHECK(t.ndim == 5 && t.shape[3] == 0 && t.count == 0 && t.nbytes == 0 && t.data != NULL);
  CHECK(t.name && strcmp(t.name, "past_0") == 0);
  wnn_host_tensor_free(&t);
}

/* Fields the reader does not use are skipped by wire type: doc_string,
 * external_data entries (with data_location DEFAULT), and unknown numbers of
 * every valid wire type. */
TEST(skips_unknown_fields) {
  msg m = {{0}, 0};
  put_key(&m, 99, 0), put_varint(&m, 123456789);
  put_bytes(&m, 12, "a doc string", 12);
  const int64_t dims[1] = {2};
  put_dims(&m, 1, dims);
  put_key(&m, 1000, 1), put_fixed(&m, 0x0102030405060708ull, 8);
  put_key(&m, 536870911, 5), put_fixed(&m, 0xdeadbeef, 4);
  put_bytes(&m, 13, "\x0a\x01k\x12\x01v", 6);
  put_key(&m, 14, 0), put_varint(&m, 0);
  put_type(&m, 1);
  float v[2] = {4, 5};
  put_bytes(&m, 9, v, sizeof v);
  put_bytes(&m, 77, "", 0);
  wnn_host_tensor t;
  char err[256] = "";
  CHECK_OK(parse(&m, &t, err, sizeof err));
  CHECK(t.count == 2 && memcmp(t.data, v, 8) == 0);
  wnn_host_tensor_free(&t);
}

/* Every proper prefix of a valid message is rejected without reading past it. */
TEST(rejects_every_truncation) {
  msg m = {{0}, 0};
  const int64_t dims[2] = {2, 3};
  put_dims(&m, 2, dims);
  put_type(&m, 1);
  put_bytes(&m, 8, "x", 1);
  float v[6] = {1, 2, 3, 4, 5, 6};
  put_bytes(&m, 9, v, sizeof v);
  size_t full = m.n;
  for (size_t n = 0; n < full; n++) {
    m.n = n;
    char err[256] = "";
    wnn_status st = parse_only(&m, err, sizeof err);
    CHECK(st != WNN_OK);
    CHECK(err[0] != '\0');
  }
}

TEST(rejects_lying_lengths) {
  msg m = {{0}, 0};
  put_type(&m, 1);
  put_key(&m, 9, 2), put_varint(&m, 0xffffffffull);
  put_fixed(&m, 0, 4);
  CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_TRUNCATED,
              "field 9 (raw_data) at byte 2: length 4294967295 is past the end of the message "
              "(4 bytes left)");

  msg m2 = {{0}, 0};
  put_key(&m2, 8, 2), put_varint(&m2, 0x7fffffffffffffffull);
  CHECK_FAILS(parse_only(&m2, err, errcap), WNN_ERR_TRUNCATED, "past the end of the message");

  msg m3 = {{0}, 0};
  put_key(&m3, 1, 2), put_varint(&m3, 3), put_byte(&m3, 0x80), put_byte(&m3, 0x80),
      put_byte(&m3, 0x80);
  CHECK_FAILS(parse_only(&m3, err, errcap), WNN_ERR_TRUNCATED, "packed dims");

  msg m4 = {{0}, 0};
  put_key(&m4, 4, 2), put_varint(&m4, 6), put_fixed(&m4, 0, 6);
  CHECK_FAILS(parse_only(&m4, err, errcap), WNN_ERR_MALFORMED, "6 bytes, not a multiple of 4");

  msg m5 = {{0}, 0};
  put_key(&m5, 10, 2), put_varint(&m5, 12), put_fixed(&m5, 0, 12);
  CHECK_FAILS(parse_only(&m5, err, errcap), WNN_ERR_MALFORMED, "12 bytes, not a multiple of 8");

  msg m6 = {{0}, 0};
  put_key(&m6, 5, 2), put_varint(&m6, 2), put_byte(&m6, 0x01), put_byte(&m6, 0x81);
  CHECK_FAILS(parse_only(&m6, err, errcap), WNN_ERR_TRUNCATED,
              "packed field 5 (int32_data) at byte 0: element 1 runs past the end");

  msg m7 = {{0}, 0};
  put_key(&m7, 4, 5), put_fixed(&m7, 0, 3);
  CHECK_FAILS(parse_only(&m7, err, errcap), WNN_ERR_TRUNCATED, "4-byte value runs past");

  msg m8 = {{0}, 0};
  put_key(&m8, 10, 1), put_fixed(&m8, 0, 7);
  CHECK_FAILS(parse_only(&m8, err, errcap), WNN_ERR_TRUNCATED, "8-byte value runs past");
}

TEST(rejects_overlong_varints) {
  msg m = {{0}, 0};
  put_key(&m, 2, 0);
  for (int i = 0; i < 10; i++) put_byte(&m, 0xff);
  put_byte(&m, 0x01);
  CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_MALFORMED, "overlong");

  msg m2 = {{0}, 0};
  put_key(&m2, 2, 0);
  for (int i = 0; i < 9; i++) put_byte(&m2, 0xff);
  put_byte(&m2, 0x02); /* a 65th bit */
  CHECK_FAILS(parse_only(&m2, err, errcap), WNN_ERR_MALFORMED, "overlong");

  msg m3 = {{0}, 0};
  for (int i = 0; i < 11; i++) put_byte(&m3, 0x80);
  CHECK_FAILS(parse_only(&m3, err, errcap), WNN_ERR_MALFORMED, "field key at byte 0");
}

TEST(rejects_bad_wire_types_and_keys) {
  msg m = {{0}, 0};
  put_type(&m, 1);
  put_key(&m, 20, 6);
  CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_MALFORMED,
              "field 20 at byte 2 has unknown wire type 6");
  msg m2 = {{0}, 0};
  put_key(&m2, 21, 7);
  CHECK_FAILS(parse_only(&m2, err, errcap), WNN_ERR_MALFORMED, "unknown wire type 7");
  msg m3 = {{0}, 0};
  put_key(&m3, 5, 3);
  CHECK_FAILS(parse_only(&m3, err, errcap), WNN_ERR_MALFORMED, "group wire type 3");
  msg m4 = {{0}, 0};
  put_key(&m4, 0, 0), put_varint(&m4, 1);
  CHECK_FAILS(parse_only(&m4, err, errcap), WNN_ERR_MALFORMED, "invalid field number 0");
  msg m5 = {{0}, 0};
  put_key(&m5, 2, 2), put_varint(&m5, 1), put_byte(&m5, 1);
  CHECK_FAILS(parse_only(&m5, err, errcap), WNN_ERR_MALFORMED,
              "field 2 (data_type) at byte 0 has wire type 2, expected 0 (varint)");
  msg m6 = {{0}, 0};
  put_key(&m6, 9, 0), put_varint(&m6, 1);
  CHECK_FAILS(parse_only(&m6, err, errcap), WNN_ERR_MALFORMED,
              "field 9 (raw_data) at byte 0 has wire type 0");
  msg m7 = {{0}, 0};
  put_key(&m7, 4, 0), put_varint(&m7, 1);
  CHECK_FAILS(parse_only(&m7, err, errcap), WNN_ERR_MALFORMED,
              "field 4 (float_data) at byte 0 has wire type 0, expected 5 (fixed32) or 2");
  msg m8 = {{0}, 0};
  put_key(&m8, 1, 5), put_fixed(&m8, 1, 4);
  CHECK_FAILS(parse_only(&m8, err, errcap), WNN_ERR_MALFORMED, "field 1 (dims)");
}

TEST(rejects_external_data) {
  msg m = {{0}, 0};
  const int64_t dims[1] = {1000};
  put_dims(&m, 1, dims);
  put_type(&m, 1);
  put_bytes(&m, 13, "\x0a\x08location\x12\x0aweights.bin", 22);
  put_key(&m, 14, 0), put_varint(&m, 1);
  CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_UNSUPPORTED, "data_location is EXTERNAL");
  msg m2 = {{0}, 0};
  put_key(&m2, 14, 0), put_varint(&m2, 5);
  CHECK_FAILS(parse_only(&m2, err, errcap), WNN_ERR_MALFORMED, "unknown data_location 5");
}

TEST(rejects_strings_and_segments) {
  msg m = {{0}, 0};
  put_type(&m, 8);
  put_bytes(&m, 6, "hello", 5);
  CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_UNSUPPORTED, "string_data");
  msg m2 = {{0}, 0};
  put_bytes(&m2, 3, "\x08\x00\x10\x04", 4);
  CHECK_FAILS(parse_only(&m2, err, errcap), WNN_ERR_UNSUPPORTED, "segment");
}

TEST(rejects_unsupported_data_types) {
  static const struct {
    int type;
    const char *text;
  } cases[] = {{8, "data_type 8 (STRING)"},     {16, "data_type 16 (BFLOAT16)"},
               {12, "data_type 12 (UINT32)"},   {5, "data_type 5 (INT16)"},
               {14, "data_type 14 (COMPLEX64)"}, {1000, "data_type 1000 (unknown)"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    msg m = {{0}, 0};
    put_type(&m, cases[i].type);
    CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_DTYPE, cases[i].text);
  }
  msg m = {{0}, 0};
  put_bytes(&m, 9, "\0\0\0\0", 4);
  CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_DTYPE, "data_type is missing");
}

TEST(rejects_counts_that_disagree_with_dims) {
  const int64_t dims[2] = {2, 3};
  float v[8] = {0};
  msg m = {{0}, 0};
  put_dims(&m, 2, dims);
  put_type(&m, 1);
  put_bytes(&m, 9, v, 20);
  CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_TRUNCATED,
              "raw_data has 20 bytes, dims [2,3] of float32 need 24");
  msg m2 = {{0}, 0};
  put_dims(&m2, 2, dims);
  put_type(&m2, 1);
  put_bytes(&m2, 9, v, 28);
  CHECK_FAILS(parse_only(&m2, err, errcap), WNN_ERR_SIZE, "raw_data has 28 bytes");
  msg m3 = {{0}, 0};
  put_dims(&m3, 2, dims);
  put_type(&m3, 1);
  put_key(&m3, 4, 2), put_varint(&m3, 20), put_fixed(&m3, 0, 20);
  CHECK_FAILS(parse_only(&m3, err, errcap), WNN_ERR_TRUNCATED,
              "float_data has 5 values, dims [2,3] say 6");
  msg m4 = {{0}, 0};
  put_dims(&m4, 2, dims);
  put_type(&m4, 1);
  CHECK_FAILS(parse_only(&m4, err, errcap), WNN_ERR_TRUNCATED, "float_data has 0 values");
  msg m5 = {{0}, 0};
  put_dims(&m5, 2, dims);
  put_type(&m5, 1);
  put_bytes(&m5, 9, v, 24);
  put_key(&m5, 4, 5), put_fixed(&m5, 0, 4);
  CHECK_FAILS(parse_only(&m5, err, errcap), WNN_ERR_MALFORMED,
              "both raw_data and float_data hold values");
  msg m6 = {{0}, 0};
  put_type(&m6, 1);
  put_key(&m6, 7, 0), put_varint(&m6, 3);
  CHECK_FAILS(parse_only(&m6, err, errcap), WNN_ERR_MALFORMED,
              "1 values in int64_data, which data_type FLOAT does not use");
  msg m7 = {{0}, 0};
  put_type(&m7, 7);
  put_key(&m7, 11, 0), put_varint(&m7, 3);
  CHECK_FAILS(parse_only(&m7, err, errcap), WNN_ERR_MALFORMED, "uint64_data");
}

TEST(rejects_bad_dims) {
  msg m = {{0}, 0};
  const int64_t neg[2] = {2, -1};
  put_dims(&m, 2, neg);
  put_type(&m, 1);
  CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_MALFORMED, "dims[1] at byte 0 is negative (-1)");
  msg m2 = {{0}, 0};
  const int64_t big[2] = {1ll << 40, 1ll << 40};
  put_dims(&m2, 2, big);
  put_type(&m2, 1);
  put_bytes(&m2, 9, "\0\0\0\0", 4);
  CHECK_FAILS(parse_only(&m2, err, errcap), WNN_ERR_SIZE, "too large");
  msg m3 = {{0}, 0};
  const int64_t many[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  put_dims(&m3, 9, many);
  CHECK_FAILS(parse_only(&m3, err, errcap), WNN_ERR_UNSUPPORTED, "more than 8 dims");
}

TEST(rejects_out_of_range_int32_data) {
  static const struct {
    int type;
    int64_t value;
    const char *text;
  } cases[] = {{3, 128, "int32_data[0] = 128 is out of range for INT8"},
               {3, -129, "-129 is out of range for INT8"},
               {2, 256, "256 is out of range for UINT8"},
               {2, -1, "-1 is out of range for UINT8"},
               {9, 2, "2 is out of range for BOOL"},
               {10, 65536, "65536 is out of range for FLOAT16"},
               {6, 1ll << 31, "2147483648 is out of range for INT32"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    msg m = {{0}, 0};
    put_type(&m, cases[i].type);
    put_key(&m, 5, 0), put_varint(&m, (uint64_t)cases[i].value);
    CHECK_FAILS(parse_only(&m, err, errcap), WNN_ERR_MALFORMED, cases[i].text);
  }
}

/* Arbitrary corruption never crashes. */
TEST(survives_corruption) {
  msg base = {{0}, 0};
  const int64_t dims[2] = {2, 3};
  put_dims(&base, 2, dims);
  put_type(&base, 1);
  put_bytes(&base, 8, "name", 4);
  put_key(&base, 4, 2), put_varint(&base, 8), put_fixed(&base, 0, 8);
  for (int i = 0; i < 4; i++) put_key(&base, 4, 5), put_fixed(&base, f32_bits((float)i), 4);
  uint32_t seed = 777;
  for (int iter = 0; iter < 20000; iter++) {
    msg m = base;
    for (int k = 0; k < 3; k++) {
      seed = seed * 1664525u + 1013904223u;
      size_t pos = (seed >> 8) % m.n;
      seed = seed * 1664525u + 1013904223u;
      m.b[pos] = (uint8_t)(seed >> 24);
    }
    wnn_host_tensor t;
    wnn_status st = parse(&m, &t, NULL, 0);
    if (st == WNN_OK) {
      CHECK(t.nbytes <= 4096 * 8);
      wnn_host_tensor_free(&t);
    }
  }
}

TEST(encode_rejects_bad_arguments) {
  int64_t shape[2] = {2, 3};
  float v[6] = {0};
  void *pb = (void *)1;
  size_t size = 7;
  CHECK_FAILS(wnn_tensorproto_encode(WNN_DTYPE_F32, 2, shape, v, 23, NULL, &pb, &size, err,
                                     errcap),
              WNN_ERR_SIZE, "23 bytes of data for a shape that needs 24");
  CHECK_FAILS(wnn_tensorproto_encode(WNN_DTYPE_INVALID, 2, shape, v, 24, NULL, &pb, &size, err,
                                     errcap),
              WNN_ERR_DTYPE, "no ONNX data type");
  CHECK(pb == (void *)1 && size == 7);
  CHECK(wnn_onnx_data_type(WNN_DTYPE_F32) == 1 && wnn_onnx_data_type(WNN_DTYPE_BOOL) == 9);
}

int main(void) {
  RUN(round_trip_every_dtype);
  RUN(matches_onnx_layout);
  RUN(reads_float_data_packed_and_unpacked);
  RUN(reads_int32_data_for_narrow_types);
  RUN(reads_int64_and_double_data);
  RUN(reads_scalar_and_empty);
  RUN(skips_unknown_fields);
  RUN(rejects_every_truncation);
  RUN(rejects_lying_lengths);
  RUN(rejects_overlong_varints);
  RUN(rejects_bad_wire_types_and_keys);
  RUN(rejects_external_data);
  RUN(rejects_strings_and_segments);
  RUN(rejects_unsupported_data_types);
  RUN(rejects_counts_that_disagree_with_dims);
  RUN(rejects_bad_dims);
  RUN(rejects_out_of_range_int32_data);
  RUN(survives_corruption);
  RUN(encode_rejects_bad_arguments);
  return test_summary();
}
