/*
 * The CLI's .npy reader and writer: round trips for every dtype, every header
 * variant numpy (and older writers) produce, and every malformed file, each
 * asserting the specific status and a message naming the problem.
 *
 * The module under test comes from src/cli (the build links the CLI's code
 * other than main.c into every test program).
 */
#include "cli/npy.h"

#include "../test.h"
#include "cli_check.h"


/* A .npy file with the given version and header text, the header padded with
 * spaces and a newline so the data starts at a multiple of `align`, followed by
 * nbytes of data. Caller frees. */
static uint8_t *make_npy(int major, const char *header, size_t align, const void *data,
                         size_t nbytes, size_t *size) {
  size_t pre = major == 1 ? 10 : 12;
  size_t hlen = strlen(header) + 1;
  while ((pre + hlen) % align) hlen++;
  *size = pre + hlen + nbytes;
  uint8_t *b = (uint8_t *)malloc(*size);
  memcpy(b, "\x93NUMPY", 6);
  b[6] = (uint8_t)major;
  b[7] = 0;
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); i++) b[8 + i] = (uint8_t)(hlen >> (8 * i));
  memset(b + pre, ' ', hlen);
  memcpy(b + pre, header, strlen(header));
  b[pre + hlen - 1] = '\n';
  if (nbytes) memcpy(b + pre + hlen, data, nbytes);
  return b;
}

static wnn_status parse(const uint8_t *b, size_t size, wnn_host_tensor *t, char *err,
                        size_t errcap) {
  return wnn_npy_parse(b, size, t, err, errcap);
}

/* Every dtype and several shapes survive encode then parse unchanged. */
TEST(round_trip_every_dtype) {
  static const wnn_dtype dtypes[] = {WNN_DTYPE_F32, WNN_DTYPE_F16, WNN_DTYPE_I64, WNN_DTYPE_I32,
                                     WNN_DTYPE_I8,  WNN_DTYPE_U8,  WNN_DTYPE_BOOL};
  static const int64_t shapes[][4] = {{0}, {5}, {2, 3, 4}, {0, 3}, {1, 1, 28, 28}};
  static const int ndims[] = {0, 1, 3, 2, 4};
  uint8_t payload[1 * 28 * 28 * 8];
  for (size_t i = 0; i < sizeof payload; i++) payload[i] = (uint8_t)(i * 7 + 3);
  for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
    for (size_t s = 0; s < sizeof ndims / sizeof ndims[0]; s++) {
      size_t count = 0, nbytes = 0;
      CHECK(wnn_shape_size(ndims[s], shapes[s], wnn_dtype_size(dtypes[d]), &count, &nbytes));
      uint8_t data[sizeof payload];
      memcpy(data, payload, nbytes);
      if (dtypes[d] == WNN_DTYPE_BOOL)
        for (size_t i = 0; i < nbytes; i++) data[i] &= 1;
      void *file = NULL;
      size_t size = 0;
      char err[256];
      CHECK_OK(wnn_npy_encode(dtypes[d], ndims[s], shapes[s], data, nbytes, &file, &size, err,
                              sizeof err));
      if (!file) continue;
      const uint8_t *b = (const uint8_t *)file;
      size_t hlen = (size_t)b[8] | (size_t)b[9] << 8;
      CHECK(b[6] == 1 && b[7] == 0);
      CHECK((10 + hlen) % 64 == 0);
      CHECK(b[10 + hlen - 1] == '\n');
      CHECK(size == 10 + hlen + nbytes);
      wnn_host_tensor t;
      CHECK_OK(wnn_npy_parse(file, size, &t, err, sizeof err));
      CHECK(t.dtype == dtypes[d]);
      CHECK(strcmp(t.dtype_name, wnn_dtype_name(dtypes[d])) == 0);
      CHECK(t.ndim == ndims[s]);
      CHECK(memcmp(t.shape, shapes[s], sizeof(int64_t) * (size_t)ndims[s]) == 0);
      CHECK(t.count == count && t.nbytes == nbytes);
      CHECK(t.data != NULL && memcmp(t.data, data, nbytes) == 0);
      wnn_host_tensor_free(&t);
      free(file);
    }
  }
}

/* The header we write is byte-for-byte what numpy.save writes. */
TEST(writes_numpy_header) {
  const char *want =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 10), }";
  int64_t shape[2] = {1, 10};
  float data[10] = {0};
  void *file;
  size_t size;
  CHECK_OK(wnn_npy_encode(WNN_DTYPE_F32, 2, shape, data, sizeof data, &file, &size, NULL, 0));
  const char *h = (const char *)file + 10;
  CHECK(size == 128 + sizeof data);
  CHECK(memcmp(h, want, strlen(want)) == 0);
  for (size_t i = strlen(want); i < 117; i++) CHECK(h[i] == ' ');
  CHECK(h[117] == '\n');
  free(file);

  int64_t one[1] = {3};
  int32_t v[3] = {1, -2, 3};
  CHECK_OK(wnn_npy_encode(WNN_DTYPE_I32, 1, one, v, sizeof v, &file, &size, NULL, 0));
  const char *want1 = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
  CHECK(memcmp((const char *)file + 10, want1, strlen(want1)) == 0);
  free(file);

  uint8_t flag = 1;
  CHECK_OK(wnn_npy_encode(WNN_DTYPE_BOOL, 0, NULL, &flag, 1, &file, &size, NULL, 0));
  const char *want0 = "{'descr': '|b1', 'fortran_order': False, 'shape': (), }";
  CHECK(memcmp((const char *)file + 10, want0, strlen(want0)) == 0);
  free(file);
}

/* Versions 2.0 and 3.0 (4-byte header length), 16-byte alignment of older
 * numpy, double quotes, keys in another order, Python 2 long suffixes, no
 * trailing comma. */
TEST(reads_header_variants) {
  float v[6] = {1, 2, 3, 4, 5, 6};
  static const struct {
    int major;
    size_t align;
    const char *header;
    int ndim;
    int64_t shape[3];
  } cases[] = {
      {1, 64, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 2, {2, 3}},
      {2, 64, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 2, {2, 3}},
      {3, 64, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", 1, {6}},
      {1, 16, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", 1, {6}},
      {1, 1, "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (1, 2, 3)}", 3, {1, 2, 3}},
      {1, 64, "{'shape': (3, 2), 'fortran_order': False, 'descr': '<f4'}", 2, {3, 2}},
      {1, 16, "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }", 2, {2, 3}},
      {1, 64, "{ 'descr' : '<f4' , 'fortran_order' : False , 'shape' : ( 6 , ) , }", 1, {6}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t size;
    uint8_t *b = make_npy(cases[i].major, cases[i].header, cases[i].align, v, sizeof v, &size);
    wnn_host_tensor t;
    char err[256] = "";
    wnn_status st = parse(b, size, &t, err, sizeof err);
    if (st != WNN_OK) printf("  case %zu: %s\n", i, err);
    CHECK_OK(st);
    if (st == WNN_OK) {
      CHECK(t.dtype == WNN_DTYPE_F32);
      CHECK(t.ndim == cases[i].ndim);
      for (int d = 0; d < t.ndim; d++) CHECK(t.shape[d] == cases[i].shape[d]);
      CHECK(t.nbytes == sizeof v && memcmp(t.data, v, sizeof v) == 0);
      wnn_host_tensor_free(&t);
    }
    free(b);
  }
}

/* A scalar: shape () holds one element. */
TEST(reads_scalar) {
  int64_t x = -42;
  size_t size;
  uint8_t *b = make_npy(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }", 64, &x,
                        sizeof x, &size);
  wnn_host_tensor t;
  CHECK_OK(parse(b, size, &t, NULL, 0));
  CHECK(t.ndim == 0 && t.count == 1 && t.nbytes == 8);
  CHECK(t.data && *(int64_t *)t.data == -42);
  wnn_host_tensor_free(&t);
  free(b);
}

/* Every supported type string, including 1-byte types written with '|' or '<'. */
TEST(reads_every_type_string) {
  static const struct {
    const char *descr;
    wnn_dtype dtype;
    const char *name;
    size_t size;
  } cases[] = {
      {"<f4", WNN_DTYPE_F32, "float32", 4}, {"<f2", WNN_DTYPE_F16, "float16", 2},
      {"<f8", WNN_DTYPE_F64, "float64", 8}, {"<i8", WNN_DTYPE_I64, "int64", 8},
      {"<i4", WNN_DTYPE_I32, "int32", 4},   {"|i1", WNN_DTYPE_I8, "int8", 1},
      {"|u1", WNN_DTYPE_U8, "uint8", 1},    {"|b1", WNN_DTYPE_BOOL, "bool", 1},
      {"<u1", WNN_DTYPE_U8, "uint8", 1},    {">i1", WNN_DTYPE_I8, "int8", 1},
  };
  uint8_t data[16] = {1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char header[128];
    snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (2,), }",
             cases[i].descr);
    size_t size;
    uint8_t *b = make_npy(1, header, 64, data, 2 * cases[i].size, &size);
    wnn_host_tensor t;
    CHECK_OK(parse(b, size, &t, NULL, 0));
    CHECK(t.dtype == cases[i].dtype);
    CHECK(t.dtype_name && strcmp(t.dtype_name, cases[i].name) == 0);
    CHECK(t.elem_size == cases[i].size && t.nbytes == 2 * cases[i].size);
    wnn_host_tensor_free(&t);
    free(b);
  }
}

/* Helper for the failure cases: a float32 (2, 3) file with a custom header. */
static wnn_status parse_header(int major, const char *header, size_t nbytes, char *err,
                               size_t errcap) {
  static const float v[64];
  size_t size;
  uint8_t *b = make_npy(major, header, 64, v, nbytes, &size);
  wnn_host_tensor t;
  memset(&t, 0x5a, sizeof t);
  wnn_status st = wnn_npy_parse(b, size, &t, err, errcap);
  if (st == WNN_OK) wnn_host_tensor_free(&t);
  else CHECK(t.ndim == 0x5a5a5a5a); /* untouched on failure */
  free(b);
  return st;
}

#define H(descr, fortran, shape) \
  "{'descr': '" descr "', 'fortran_order': " fortran ", 'shape': " shape ", }"

TEST(rejects_bad_magic_and_version) {
  const uint8_t zip[] = {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0, 0, 0};
  wnn_host_tensor t;
  CHECK_FAILS(wnn_npy_parse(zip, sizeof zip, &t, err, errcap), WNN_ERR_BAD_MAGIC, "not a .npy");
  CHECK_FAILS(wnn_npy_parse(zip, 0, &t, err, errcap), WNN_ERR_TRUNCATED, "empty");
  CHECK_FAILS(wnn_npy_parse("\x93NUM", 4, &t, err, errcap), WNN_ERR_TRUNCATED, "preamble");
  CHECK_FAILS(wnn_npy_parse("\x93NUMPY\x01\x00\x10", 9, &t, err, errcap), WNN_ERR_TRUNCATED,
              "preamble");
  CHECK_FAILS(wnn_npy_parse("\x93NUMPY\x02\x00\x10\x00\x00", 11, &t, err, errcap),
              WNN_ERR_TRUNCATED, "preamble");
  size_t size;
  uint8_t *b = make_npy(1, H("<f4", "False", "(1,)"), 64, "\0\0\0\0", 4, &size);
  b[6] = 4;
  CHECK_FAILS(wnn_npy_parse(b, size, &t, err, errcap), WNN_ERR_VERSION, "version 4.0");
  b[6] = 1;
  b[7] = 1;
  CHECK_FAILS(wnn_npy_parse(b, size, &t, err, errcap), WNN_ERR_VERSION, "version 1.1");
  free(b);
}

TEST(rejects_header_length_past_end) {
  size_t size;
  uint8_t *b = make_npy(1, H("<f4", "False", "(1,)"), 64, "\0\0\0\0", 4, &size);
  wnn_host_tensor t;
  b[8] = 0xff, b[9] = 0xff;
  CHECK_FAILS(wnn_npy_parse(b, size, &t, err, errcap), WNN_ERR_TRUNCATED,
              "header length 65535 is past the end");
  free(b);
  b = make_npy(2, H("<f4", "False", "(1,)"), 64, "\0\0\0\0", 4, &size);
  b[8] = b[9] = b[10] = b[11] = 0xff;
  CHECK_FAILS(wnn_npy_parse(b, size, &t, err, errcap), WNN_ERR_TRUNCATED,
              "header length 4294967295 is past the end");
  free(b);
}

/* Every proper prefix of a valid file is rejected, without reading past it. */
TEST(rejects_every_truncation) {
  float v[6] = {1, 2, 3, 4, 5, 6};
  size_t size;
  uint8_t *b = make_npy(1, H("<f4", "False", "(2, 3)"), 64, v, sizeof v, &size);
  for (size_t n = 0; n < size; n++) {
    uint8_t *copy = (uint8_t *)malloc(n ? n : 1); /* exact size, so ASan sees overreads */
    memcpy(copy, b, n);
    wnn_host_tensor t;
    char err[256] = "";
    wnn_status st = wnn_npy_parse(copy, n, &t, err, sizeof err);
    CHECK(st == WNN_ERR_TRUNCATED || st == WNN_ERR_MALFORMED);
    CHECK(err[0] != '\0');
    free(copy);
  }
  free(b);
}

TEST(rejects_data_shorter_or_longer_than_shape) {
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(2, 3)"), 20, err, errcap), WNN_ERR_TRUNCATED,
              "shape [2,3] of float32 needs 24 bytes, the file has 20");
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(2, 3)"), 28, err, errcap), WNN_ERR_SIZE,
              "28 bytes after the header");
  CHECK_FAILS(parse_header(2, H("<i8", "False", "(1000000,)"), 8, err, errcap),
              WNN_ERR_TRUNCATED, "needs 8000000 bytes");
}

TEST(rejects_fortran_order) {
  CHECK_FAILS(parse_header(1, H("<f4", "True", "(2, 3)"), 24, err, errcap), WNN_ERR_UNSUPPORTED,
              "Fortran order");
}

TEST(rejects_unsupported_dtypes) {
  CHECK_FAILS(parse_header(1, H(">f4", "False", "(2, 3)"), 24, err, errcap), WNN_ERR_DTYPE,
              "'>f4' is not little-endian");
  CHECK_FAILS(parse_header(1, H("<u2", "False", "(2, 3)"), 12, err, errcap), WNN_ERR_DTYPE,
              "'<u2' is not supported");
  CHECK_FAILS(parse_header(1, H("<c8", "False", "(2, 3)"), 48, err, errcap), WNN_ERR_DTYPE,
              "'<c8'");
  CHECK_FAILS(parse_header(1, H("O", "False", "(2, 3)"), 48, err, errcap), WNN_ERR_DTYPE, "'O'");
  CHECK_FAILS(parse_header(1, H("<U8", "False", "(2,)"), 64, err, errcap), WNN_ERR_DTYPE,
              "'<U8'");
  CHECK_FAILS(parse_header(1,
                           "{'descr': [('x', '<f4'), ('y', '<i4')], 'fortran_order': False, "
                           "'shape': (2,), }",
                           16, err, errcap),
              WNN_ERR_DTYPE, "structured");
}

TEST(rejects_overflowing_shapes) {
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(4611686018427387904, 4611686018427387904)"), 0,
                           err, errcap),
              WNN_ERR_SIZE, "overflows");
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(4611686018427387904,)"), 0, err, errcap),
              WNN_ERR_SIZE, "overflows");
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(99999999999999999999999,)"), 0, err, errcap),
              WNN_ERR_SIZE, "does not fit in 64 bits");
  /* a zero dimension makes the product 0 however big the others are */
  CHECK_OK(parse_header(1, H("<f4", "False", "(0, 4611686018427387904)"), 0, NULL, 0));
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(1, 1, 1, 1, 1, 1, 1, 1, 1)"), 4, err, errcap),
              WNN_ERR_UNSUPPORTED, "more than 8 dimensions");
}

TEST(rejects_malformed_headers) {
  CHECK_FAILS(parse_header(1, "'descr': '<f4'", 0, err, errcap), WNN_ERR_MALFORMED,
              "not a dictionary");
  CHECK_FAILS(parse_header(1, "{'descr': '<f4', 'shape': (2, 3), }", 24, err, errcap),
              WNN_ERR_MALFORMED, "missing key 'fortran_order'");
  CHECK_FAILS(parse_header(1, "{'descr': '<f4', 'fortran_order': False}", 4, err, errcap),
              WNN_ERR_MALFORMED, "missing key 'shape'");
  CHECK_FAILS(parse_header(1, "{'fortran_order': False, 'shape': (1,)}", 4, err, errcap),
              WNN_ERR_MALFORMED, "missing key 'descr'");
  CHECK_FAILS(parse_header(1,
                           "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
                           4, err, errcap),
              WNN_ERR_MALFORMED, "unexpected key 'x'");
  CHECK_FAILS(parse_header(1, H("<f4", "0", "(1,)"), 4, err, errcap), WNN_ERR_MALFORMED,
              "neither True nor False");
  CHECK_FAILS(parse_header(1, H("<f4", "False", "[2, 3]"), 24, err, errcap), WNN_ERR_MALFORMED,
              "not a tuple");
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(-1,)"), 4, err, errcap), WNN_ERR_MALFORMED,
              "non-negative integer");
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(2 3)"), 24, err, errcap), WNN_ERR_MALFORMED,
              "tuple is malformed");
  CHECK_FAILS(parse_header(1, H("<f4", "False", "(2,,)"), 8, err, errcap), WNN_ERR_MALFORMED,
              "non-negative integer");
  CHECK_FAILS(parse_header(1, "{'descr': <f4, 'fortran_order': False, 'shape': (1,)}", 4, err,
                           errcap),
              WNN_ERR_MALFORMED, "'descr' is not a string");
  CHECK_FAILS(parse_header(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x", 4,
                           err, errcap),
              WNN_ERR_MALFORMED, "text after the dictionary");
  CHECK_FAILS(parse_header(1, "{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}", 4, err,
                           errcap),
              WNN_ERR_MALFORMED, "expected ',' or '}'");
  CHECK_FAILS(parse_header(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", 4, err,
                           errcap),
              WNN_ERR_MALFORMED, "expected ',' or '}' after the value of 'shape'");
}

/* Arbitrary corruption never crashes and never succeeds with a wrong size. */
TEST(survives_corruption) {
  float v[6] = {1, 2, 3, 4, 5, 6};
  size_t size;
  uint8_t *b = make_npy(1, H("<f4", "False", "(2, 3)"), 64, v, sizeof v, &size);
  uint32_t seed = 12345;
  for (int iter = 0; iter < 20000; iter++) {
    uint8_t *copy = (uint8_t *)malloc(size);
    memcpy(copy, b, size);
    for (int k = 0; k < 3; k++) {
      seed = seed * 1664525u + 1013904223u;
      size_t pos = (seed >> 8) % 80; /* the preamble and header */
      seed = seed * 1664525u + 1013904223u;
      copy[pos] = (uint8_t)(seed >> 24);
    }
    wnn_host_tensor t;
    wnn_status st = wnn_npy_parse(copy, size, &t, NULL, 0);
    if (st == WNN_OK) {
      CHECK(t.nbytes <= size);
      wnn_host_tensor_free(&t);
    }
    free(copy);
  }
  free(b);
}

TEST(encode_rejects_bad_arguments) {
  int64_t shape[2] = {2, 3};
  float v[6] = {0};
  void *file = (void *)1;
  size_t size = 7;
  CHECK_FAILS(wnn_npy_encode(WNN_DTYPE_F32, 2, shape, v, 20, &file, &size, err, errcap),
              WNN_ERR_SIZE, "20 bytes of data for a shape that needs 24");
  CHECK_FAILS(wnn_npy_encode(WNN_DTYPE_INVALID, 2, shape, v, 24, &file, &size, err, errcap),
              WNN_ERR_DTYPE, "cannot be written");
  CHECK_FAILS(wnn_npy_encode(WNN_DTYPE_F32, 9, shape, v, 24, &file, &size, err, errcap),
              WNN_ERR_INVALID_ARGUMENT, "bad shape");
  CHECK(file == (void *)1 && size == 7);
}

int main(void) {
  RUN(round_trip_every_dtype);
  RUN(writes_numpy_header);
  RUN(reads_header_variants);
  RUN(reads_scalar);
  RUN(reads_every_type_string);
  RUN(rejects_bad_magic_and_version);
  RUN(rejects_header_length_past_end);
  RUN(rejects_every_truncation);
  RUN(rejects_data_shorter_or_longer_than_shape);
  RUN(rejects_fortran_order);
  RUN(rejects_unsupported_dtypes);
  RUN(rejects_overflowing_shapes);
  RUN(rejects_malformed_headers);
  RUN(survives_corruption);
  RUN(encode_rejects_bad_arguments);
  return test_summary();
}
