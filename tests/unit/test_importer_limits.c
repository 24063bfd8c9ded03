/* What the converter refuses (issue 18, docs/importer.md "Limits"): a tensor
 * larger than WNN_MAX_TENSOR_BYTES, found from shapes before anything is
 * allocated for it; constant data past wnn_import_options.max_memory
 * (`--max-memory`); an initializer whose dims claim more data than the file
 * holds; element counts that overflow. Each is a clear error naming the node
 * or tensor, never an allocation of gigabytes (the ASan build of this program
 * would abort on one) and never signed overflow (the UBSan builds). */
#include <stdio.h>

#include "ops/op.h"
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "test_importer_util.h"

enum { FLOAT = 1, INT64 = 7 };

static wnn_status convert_limited(tm_model *m, size_t max_memory, wnn_import_result *res) {
  size_t size;
  uint8_t *bytes = tm_pack(m, &size);
  wnn_import_options opt;
  memset(&opt, 0, sizeof opt);
  opt.max_memory = max_memory;
  wnn_status st = wnn_import_onnx(bytes, size, &opt, res);
  free(bytes);
  return st;
}

/* y = x + ConstantOfShape(shape): x float [1], shape an int64 initializer. */
static void fill_model(tm_model *m, int ndim, const int64_t *shape) {
  tm_init(m, 13);
  const int64_t one = 1, n = ndim;
  tm_input(m, "x", FLOAT, 1, &one);
  tm_initializer(m, "shape", INT64, 1, &n, shape);
  tm_node(m, "ConstantOfShape", "big_fill", "shape", "c");
  tm_node(m, "Add", "add", "x,c", "y");
  tm_output(m, "y");
}

static void expect_msg(const wnn_import_result *res, const char *needle) {
  if (!strstr(res->msg, needle)) {
    printf("  message \"%s\" lacks \"%s\"\n", res->msg, needle);
    CHECK(0);
  }
}

/* The 101-byte model: a ConstantOfShape of 2^33 floats (32 GiB). */
TEST(huge_constant_of_shape_is_refused_from_its_shape) {
  tm_model m;
  const int64_t shape[1] = {INT64_C(1) << 33};
  fill_model(&m, 1, shape);
  wnn_import_result res;
  CHECK_STATUS(convert_limited(&m, 0, &res), WNN_ERR_LIMIT);
  expect_msg(&res, "'big_fill'");
  expect_msg(&res, "WNN_MAX_TENSOR_BYTES");
  CHECK(res.artifact == NULL);
  tm_free(&m);
}

/* Just past the limit: 2^29 floats are 2^31 bytes. */
TEST(one_past_the_tensor_limit) {
  tm_model m;
  const int64_t shape[2] = {INT64_C(1) << 20, 512};
  fill_model(&m, 2, shape);
  wnn_import_result res;
  CHECK_STATUS(convert_limited(&m, 0, &res), WNN_ERR_LIMIT);
  expect_msg(&res, "[1048576, 512]");
  tm_free(&m);
}

/* 2^40 * 2^40 elements overflow int64: a limit error, not undefined
 * behaviour in the element count. */
TEST(element_count_overflow) {
  tm_model m;
  const int64_t shape[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 16};
  fill_model(&m, 3, shape);
  wnn_import_result res;
  wnn_status st = convert_limited(&m, 0, &res);
  CHECK(st == WNN_ERR_LIMIT || st == WNN_ERR_SHAPE);
  CHECK(res.msg[0] != '\0');
  tm_free(&m);
}

/* A 16 MiB constant under an 8 MiB --max-memory: refused, naming the node and
 * the option; converted under the default. */
TEST(max_memory_caps_folded_constants) {
  tm_model m;
  const int64_t shape[1] = {INT64_C(1) << 22};
  fill_model(&m, 1, shape);
  wnn_import_result res;
  CHECK_STATUS(convert_limited(&m, (size_t)8 << 20, &res), WNN_ERR_LIMIT);
  expect_msg(&res, "'big_fill'");
  expect_msg(&res, "--max-memory");
  CHECK(res.artifact == NULL);
  CHECK_STATUS(convert_limited(&m, 0, &res), WNN_OK);
  free(res.artifact);
  tm_free(&m);
}

/* An initializer whose dims claim 2^30 floats while it holds 4 bytes: the
 * mismatch is found before 4 GiB are allocated for it. */
TEST(initializer_dims_beyond_its_data) {
  tm_model m;
  tm_init(&m, 13);
  const int64_t one = 1;
  const float w = 2.0f;
  tm_input(&m, "x", FLOAT, 1, &one);
  tm_initializer(&m, "w", FLOAT, 1, &one, &w);
  m.inits[0]->dims[0] = INT64_C(1) << 28; /* 1 GiB of floats, 4 bytes stored */
  tm_node(&m, "Add", "add", "x,w", "y");
  tm_output(&m, "y");
  wnn_import_result res;
  CHECK_STATUS(convert_limited(&m, 0, &res), WNN_ERR_MALFORMED);
  expect_msg(&res, "raw_data holds 4 bytes");
  m.inits[0]->dims[0] = INT64_C(1) << 30; /* 4 GiB: over the tensor limit */
  CHECK_STATUS(convert_limited(&m, 0, &res), WNN_ERR_LIMIT);
  expect_msg(&res, "'w'");
  tm_free(&m);
}

int main(void) {
  RUN(huge_constant_of_shape_is_refused_from_its_shape);
  RUN(one_past_the_tensor_limit);
  RUN(element_count_overflow);
  RUN(max_memory_caps_folded_constants);
  RUN(initializer_dims_beyond_its_data);
  return test_summary();
}
