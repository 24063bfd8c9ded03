/* Bad input to wnn_model_load, one test per case: each must give its own
 * status and a message naming what is wrong, never a crash or a leak (the
 * ASan build of this program checks the latter). */
#include <stdint.h>
#include <string.h>

#include "builder/writer.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "wnn.h"
#include "../test.h"
#include "robustness.h"

/* y = Relu(x), x: float32[2,3]. */
static const char *relu_graph =
    "{\"values\":["
    "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":0},"
    "{\"name\":\"y\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":64}],"
    "\"inputs\":[0],\"outputs\":[1],"
    "\"nodes\":[{\"op\":8,\"name\":\"act\",\"inputs\":[0],\"outputs\":[1]}],"
    "\"arena_bytes\":128}";

/* Writes an artifact with the given GRAPH JSON, optional weights, and "{}" as
 * metadata. Free with free_artifact. */
static uint8_t *artifact(const char *graph, const void *weights, size_t wbytes, size_t *size) {
  wnn_section_data sec[3] = {{WNN_SECTION_GRAPH, graph, strlen(graph)},
                             {WNN_SECTION_METADATA, "{}", 2},
                             {WNN_SECTION_WEIGHTS, weights, wbytes}};
  return wnn_container_write(&wnn_default_allocator, sec, weights ? 3 : 2, size);
}

static void free_artifact(uint8_t *buf, size_t size) {
  wnn_free(&wnn_default_allocator, buf, size, 64);
}

/* Loads and expects `want`; on success frees the model. Also checks that the
 * out-parameter is untouched on failure and that the message is non-empty. */
static void expect_load(const void *buf, size_t size, unsigned flags, wnn_status want,
                        const char *needle) {
  wnn_load_options opt = {flags, WNN_KERNELS_AUTO, NULL};
  wnn_model *m = (wnn_model *)(uintptr_t)0x1;
  wnn_status st = wnn_model_load(buf, size, &opt, &m);
  CHECK_STATUS(st, want);
  if (st == WNN_OK) {
    wnn_model_free(m);
    return;
  }
  CHECK(m == (wnn_model *)(uintptr_t)0x1);
  CHECK(wnn_last_error()[0] != '\0');
  if (needle && !strstr(wnn_last_error(), needle)) {
    printf("  message \"%s\" lacks \"%s\"\n", wnn_last_error(), needle);
    CHECK(0);
  }
}

/* Replaces the graph of relu_graph-like JSON: builds, loads, frees. */
static void expect_graph(const char *graph, wnn_status want, const char *needle) {
  size_t size;
  uint8_t *buf = artifact(graph, NULL, 0, &size);
  expect_load(buf, size, 0, want, needle);
  free_artifact(buf, size);
}

TEST(valid_artifact_loads) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(buf, size, NULL, &m));
  CHECK(wnn_model_num_inputs(m) == 1);
  CHECK(wnn_model_num_outputs(m) == 1);
  CHECK(wnn_model_num_params(m) == 0);
  CHECK(wnn_model_arena_bytes(m) == 128);
  CHECK(strcmp(wnn_model_metadata(m), "{}") == 0);
  wnn_model_free(m);
  free_artifact(buf, size);
}

TEST(truncated_at_every_length) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  for (size_t n = 0; n < size; n++) {
    wnn_model *m = NULL;
    wnn_status st = wnn_model_load(buf, n, NULL, &m);
    if (st != WNN_ERR_TRUNCATED) {
      printf("  length %zu: %s\n", n, wnn_status_str(st));
      CHECK(0);
      wnn_model_free(m);
      break;
    }
  }
  expect_load(buf, 100, 0, WNN_ERR_TRUNCATED, "declares");
  free_artifact(buf, size);
}

TEST(null_and_empty_buffers) {
  wnn_model *m = NULL;
  CHECK_STATUS(wnn_model_load(NULL, 100, NULL, &m), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_model_load("", 0, NULL, &m), WNN_ERR_TRUNCATED);
  CHECK_STATUS(wnn_model_load("x", 1, NULL, NULL), WNN_ERR_INVALID_ARGUMENT);
}

TEST(wrong_magic) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  buf[1] = 'X';
  expect_load(buf, size, 0, WNN_ERR_BAD_MAGIC, "magic");
  /* An ONNX file is not an artifact either. */
  static const uint8_t onnx[80] = {0x08, 0x07, 0x12, 0x07, 'p', 'y', 't', 'o', 'r', 'c', 'h'};
  expect_load(onnx, sizeof onnx, 0, WNN_ERR_BAD_MAGIC, NULL);
  free_artifact(buf, size);
}

TEST(newer_major_version) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  buf[8] = 2;
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_ERR_VERSION, "2.0");
  free_artifact(buf, size);
}

TEST(newer_minor_version_loads) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  buf[10] = 9;
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_OK, NULL);
  free_artifact(buf, size);
}

TEST(unknown_required_feature) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  wnn_wr64(buf + 24, UINT64_C(1) << 6);
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_ERR_FEATURE, "0x40");
  /* The same bit among the optional features is ignored. */
  wnn_wr64(buf + 24, 0);
  wnn_wr64(buf + 32, UINT64_C(1) << 6);
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_OK, NULL);
  free_artifact(buf, size);
}

TEST(header_checksum_mismatch) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  buf[WNN_HEADER_SIZE + 36] ^= 0x80; /* a flag bit of entry 0, covered by the header CRC */
  expect_load(buf, size, 0, WNN_ERR_CHECKSUM, "header checksum");
  /* Skipping section checksums never skips the header's. */
  expect_load(buf, size, WNN_LOAD_NO_CHECKSUM, WNN_ERR_CHECKSUM, "header checksum");
  free_artifact(buf, size);
}

TEST(section_checksum_mismatch) {
  float w[4] = {1, 2, 3, 4};
  size_t size;
  uint8_t *buf = artifact(relu_graph, w, sizeof w, &size);
  /* Entry 2 is WEIGHTS; damage its first byte. */
  size_t off = (size_t)wnn_rd64(buf + WNN_HEADER_SIZE + 2 * WNN_ENTRY_SIZE + 8);
  buf[off] ^= 0xFF;
  expect_load(buf, size, 0, WNN_ERR_CHECKSUM, "WEIGHTS");
  expect_load(buf, size, WNN_LOAD_NO_CHECKSUM, WNN_OK, NULL);
  free_artifact(buf, size);
}

TEST(section_outside_buffer) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  wnn_wr64(buf + WNN_HEADER_SIZE + 8, size); /* GRAPH starts at the end */
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_ERR_BAD_SECTION, "outside");
  free_artifact(buf, size);
}

/* Issue 18: an offset past the end of the file once passed the check, as
 * file_size - offset wrapped around, and the section CRC then read past the
 * buffer (SIGSEGV natively, a trap in wasm). The buffer here is a copy of
 * exactly `size` bytes, so ASan sees any read past it. */
TEST(section_offset_past_end) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  uint64_t past[] = {(uint64_t)(size + 64) & ~UINT64_C(63), UINT64_C(1) << 32,
                     UINT64_C(1) << 62, UINT64_MAX & ~UINT64_C(63)};
  for (size_t k = 0; k < sizeof past / sizeof *past; k++)
    for (int entry = 0; entry < 2; entry++) { /* GRAPH, METADATA */
      uint8_t *copy = malloc(size);
      memcpy(copy, buf, size);
      uint8_t *e = copy + WNN_HEADER_SIZE + (size_t)entry * WNN_ENTRY_SIZE;
      wnn_wr64(e + 8, past[k]);
      wnn_wr64(e + 16, 8); /* a small stored size: the old check's blind spot */
      wnn_wr64(e + 24, 8);
      wnn_container_reseal(copy);
      expect_load(copy, size, 0, WNN_ERR_BAD_SECTION, "outside");
      expect_load(copy, size, WNN_LOAD_NO_CHECKSUM, WNN_ERR_BAD_SECTION, "outside");
      expect_load(copy, size, WNN_LOAD_BORROW, WNN_ERR_BAD_SECTION, "outside");
      free(copy);
    }
  free_artifact(buf, size);
}

TEST(section_size_overflows) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  /* offset + size wraps around 2^64: must not pass as "inside". */
  wnn_wr64(buf + WNN_HEADER_SIZE + 16, UINT64_MAX - 63);
  wnn_wr64(buf + WNN_HEADER_SIZE + 24, UINT64_MAX - 63);
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_ERR_BAD_SECTION, "outside");
  /* A huge declared file size is a truncation, not an allocation. */
  uint8_t *buf2 = artifact(relu_graph, NULL, 0, &size);
  wnn_wr64(buf2 + 16, UINT64_MAX);
  wnn_container_reseal(buf2);
  expect_load(buf2, size, 0, WNN_ERR_TRUNCATED, NULL);
  /* A huge section count. */
  wnn_wr64(buf2 + 16, size);
  wnn_wr32(buf2 + 40, 0xFFFFFFFFu); /* checked before the CRC: no reseal needed */
  expect_load(buf2, size, 0, WNN_ERR_BAD_SECTION, "section count");
  free_artifact(buf, size);
  free_artifact(buf2, size);
}

TEST(sections_overlap_or_repeat) {
  float w[16] = {0};
  size_t size;
  uint8_t *buf = artifact(relu_graph, w, sizeof w, &size);
  /* Point METADATA (entry 1) into GRAPH (entry 0). */
  uint64_t graph_off = wnn_rd64(buf + WNN_HEADER_SIZE + 8);
  wnn_wr64(buf + WNN_HEADER_SIZE + WNN_ENTRY_SIZE + 8, graph_off);
  wnn_container_reseal(buf);
  expect_load(buf, size, WNN_LOAD_NO_CHECKSUM, WNN_ERR_BAD_SECTION, "overlap");
  free_artifact(buf, size);

  buf = artifact(relu_graph, w, sizeof w, &size);
  wnn_wr32(buf + WNN_HEADER_SIZE + 2 * WNN_ENTRY_SIZE, WNN_SECTION_GRAPH); /* WEIGHTS -> GRAPH */
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_ERR_BAD_SECTION, "twice");
  free_artifact(buf, size);
}

TEST(unknown_codec) {
  size_t size;
  uint8_t *buf = artifact(relu_graph, NULL, 0, &size);
  wnn_wr32(buf + WNN_HEADER_SIZE + 4, 7);
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_ERR_FEATURE, "codec 7");
  free_artifact(buf, size);
}

TEST(unknown_sections) {
  wnn_section_data sec[3] = {{WNN_SECTION_GRAPH, relu_graph, strlen(relu_graph)},
                             {WNN_SECTION_METADATA, "{}", 2},
                             {99, "future", 6}};
  size_t size;
  uint8_t *buf = wnn_container_write(&wnn_default_allocator, sec, 3, &size);
  expect_load(buf, size, 0, WNN_OK, NULL); /* optional: skipped */
  wnn_wr32(buf + WNN_HEADER_SIZE + 2 * WNN_ENTRY_SIZE + 36, 1);
  wnn_container_reseal(buf);
  expect_load(buf, size, 0, WNN_ERR_FEATURE, "kind 99");
  free_artifact(buf, size);
  /* No GRAPH at all. */
  buf = wnn_container_write(&wnn_default_allocator, sec + 1, 1, &size);
  expect_load(buf, size, 0, WNN_ERR_BAD_SECTION, "no GRAPH");
  free_artifact(buf, size);
}

TEST(malformed_json) {
  expect_graph("{\"values\":[", WNN_ERR_MALFORMED, "not valid JSON");
  expect_graph("[1,2,3]", WNN_ERR_MALFORMED, "not a JSON object");
  expect_graph("{\"values\":{},\"nodes\":[],\"arena_bytes\":0}", WNN_ERR_MALFORMED, "values");
  /* Metadata must be an object too. */
  wnn_section_data sec[2] = {{WNN_SECTION_GRAPH, relu_graph, strlen(relu_graph)},
                             {WNN_SECTION_METADATA, "nope", 4}};
  size_t size;
  uint8_t *buf = wnn_container_write(&wnn_default_allocator, sec, 2, &size);
  expect_load(buf, size, 0, WNN_ERR_MALFORMED, "METADATA");
  free_artifact(buf, size);
}

/* Found by fuzz_loader: cJSON took a NUL (any byte up to 32) for white space
 * and ignored bytes after the value, so METADATA "{}\0junk" loaded, the model
 * returned a cut string and freed it with a size other than it allocated
 * (a counting allocator sees that); trailing garbage after GRAPH loaded too. */
static void expect_metadata(const char *meta, size_t len, wnn_status want, const char *needle) {
  wnn_section_data sec[2] = {{WNN_SECTION_GRAPH, relu_graph, strlen(relu_graph)},
                             {WNN_SECTION_METADATA, meta, len}};
  size_t size;
  uint8_t *buf = wnn_container_write(&wnn_default_allocator, sec, 2, &size);
  expect_load(buf, size, 0, want, needle);
  free_artifact(buf, size);
}

/* An allocator that checks every free gives back the size it was given. */
typedef struct sized {
  void *ptr[256];
  size_t size[256];
  int bad_frees;
} sized;

static void *sized_alloc(void *user, size_t size, size_t align) {
  sized *z = user;
  if (align < sizeof(void *)) align = sizeof(void *);
  void *p = aligned_alloc(align, (size + align - 1) / align * align);
  for (int i = 0; p && i < 256; i++)
    if (!z->ptr[i]) {
      z->ptr[i] = p, z->size[i] = size;
      break;
    }
  return p;
}

static void sized_free(void *user, void *ptr, size_t size, size_t align) {
  (void)align;
  sized *z = user;
  for (int i = 0; ptr && i < 256; i++)
    if (z->ptr[i] == ptr) {
      if (z->size[i] != size) z->bad_frees++;
      z->ptr[i] = NULL;
    }
  free(ptr);
}

TEST(json_sections_are_strict) {
  expect_metadata("{}\0junk", 7, WNN_ERR_MALFORMED, "control byte 0x00");
  expect_metadata("\0{}", 3, WNN_ERR_MALFORMED, "control byte 0x00");
  expect_metadata("{\"a\":\"b\x01\"}", 10, WNN_ERR_MALFORMED, "control byte 0x01");
  expect_metadata("{} x", 4, WNN_ERR_MALFORMED, "bytes follow");
  expect_metadata("{}{}", 4, WNN_ERR_MALFORMED, "bytes follow");
  expect_metadata(" \t{\"a\": 1}\r\n ", 13, WNN_OK, NULL);
  char g[2048];
  snprintf(g, sizeof g, "%s]", relu_graph);
  expect_graph(g, WNN_ERR_MALFORMED, "GRAPH");
  snprintf(g, sizeof g, "%s\n", relu_graph);
  expect_graph(g, WNN_OK, NULL);
  /* What loads returns the whole metadata, and frees what it allocated. */
  wnn_section_data sec[2] = {{WNN_SECTION_GRAPH, relu_graph, strlen(relu_graph)},
                             {WNN_SECTION_METADATA, "{\"k\": [1, 2]}", 13}};
  size_t size;
  uint8_t *buf = wnn_container_write(&wnn_default_allocator, sec, 2, &size);
  static sized z;
  memset(&z, 0, sizeof z);
  wnn_allocator checking = {sized_alloc, sized_free, &z};
  wnn_load_options opt = {0, WNN_KERNELS_AUTO, &checking};
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(buf, size, &opt, &m));
  CHECK(m && !strcmp(wnn_model_metadata(m), "{\"k\": [1, 2]}"));
  wnn_model_free(m);
  CHECK(z.bad_frees == 0);
  for (int i = 0; i < 256; i++) CHECK(z.ptr[i] == NULL);
  free_artifact(buf, size);
}

/* relu_graph with one substring replaced. */
static void expect_edit(const char *from, const char *to, wnn_status want, const char *needle) {
  char g[2048];
  const char *at = strstr(relu_graph, from);
  CHECK(at != NULL);
  if (!at) return;
  size_t pre = (size_t)(at - relu_graph);
  snprintf(g, sizeof g, "%.*s%s%s", (int)pre, relu_graph, to, at + strlen(from));
  expect_graph(g, want, needle);
}

TEST(unknown_op_code) { expect_edit("\"op\":8", "\"op\":9999", WNN_ERR_UNKNOWN_OP, "9999"); }

TEST(unknown_attribute) {
  expect_edit("\"outputs\":[1]}]", "\"outputs\":[1],\"attrs\":{\"bogus\":1}}]",
              WNN_ERR_BAD_ATTRIBUTE, "bogus");
}

TEST(wrong_field_types) {
  expect_edit("\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":0",
              "\"dtype\":\"complex64\",\"shape\":[2,3],\"offset\":0", WNN_ERR_MALFORMED, "dtype");
  expect_edit("\"shape\":[2,3],\"offset\":0", "\"shape\":[2,-3],\"offset\":0", WNN_ERR_MALFORMED,
              "shape[1]");
  expect_edit("\"shape\":[2,3],\"offset\":0", "\"shape\":[2,1.5],\"offset\":0", WNN_ERR_MALFORMED,
              "shape[1]");
  expect_edit("\"shape\":[2,3],\"offset\":0", "\"shape\":[1,1,1,1,1,1,1,1,1],\"offset\":0",
              WNN_ERR_MALFORMED, "9 dims");
  expect_edit("\"kind\":\"input\"", "\"kind\":\"weird\"", WNN_ERR_MALFORMED, "kind");
  expect_edit("\"arena_bytes\":128", "\"arena_bytes\":\"big\"", WNN_ERR_MALFORMED,
              "arena_bytes");
}

TEST(sizes_that_overflow) {
  /* 2^40 * 2^40 elements: the element count overflows 64 bits. */
  expect_edit("\"shape\":[2,3],\"offset\":0", "\"shape\":[1099511627776,1099511627776],\"offset\":0",
              WNN_ERR_MALFORMED, "overflow");
  /* 2^40 * 2^20 floats fit in 64 bits but in no address space we run on. */
  expect_edit("\"shape\":[2,3],\"offset\":0", "\"shape\":[1099511627776,1048576,4],\"offset\":0",
              WNN_ERR_LIMIT, "too large");
  /* 2^29 floats are 2^31 bytes: one past WNN_MAX_TENSOR_BYTES, on every platform. */
  expect_edit("\"shape\":[2,3],\"offset\":0", "\"shape\":[536870912],\"offset\":0",
              WNN_ERR_LIMIT, "WNN_MAX_TENSOR_BYTES");
  expect_edit("\"arena_bytes\":128", "\"arena_bytes\":2147483648", WNN_ERR_LIMIT,
              "WNN_MAX_ARENA_BYTES");
}

TEST(recorded_shape_lies) {
  expect_edit("\"shape\":[2,3],\"offset\":64", "\"shape\":[3,2],\"offset\":64", WNN_ERR_MALFORMED,
              "recorded as float32[3, 2] but the op gives float32[2, 3]");
}

TEST(plan_overlaps_live_values) {
  /* y placed on top of x, which is a graph input and so lives all run. */
  expect_edit("\"offset\":64", "\"offset\":16", WNN_ERR_BAD_PLAN, "overlaps");
}

/* x -> Relu -> a -> NODE2 -> b (a graph output) -> Add(a or b, b) -> c; the
 * offsets of a, b and c are the %d's. */
static const char *inplace_graph =
    "{\"values\":["
    "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":0},"
    "{\"name\":\"a\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":%d},"
    "{\"name\":\"b\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":%d},"
    "{\"name\":\"c\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":%d}],"
    "\"inputs\":[0],\"outputs\":[2,3],"
    "\"nodes\":[{\"op\":8,\"inputs\":[0],\"outputs\":[1]},"
    "{\"op\":%d,\"inputs\":[1],\"outputs\":[2]},"
    "{\"op\":4,\"inputs\":[%d,2],\"outputs\":[3]}],"
    "\"arena_bytes\":256}";

TEST(plan_in_place) {
  /* Sigmoid (in place) writes b over a, which dies there: valid. */
  struct { int a, b, c, op2, add_in; wnn_status want; const char *needle; } cases[] = {
      {64, 64, 128, 10, 2, WNN_OK, NULL},
      /* Only exactly over it, not partly. */
      {64, 80, 128, 10, 2, WNN_ERR_BAD_PLAN, "overlaps"},
      /* Not over an input that a later node reads (the Add reads a). */
      {64, 64, 128, 10, 1, WNN_ERR_BAD_PLAN, "overlaps"},
      /* Not for an op that is not in-place (Softmax). */
      {64, 64, 128, 18, 2, WNN_ERR_BAD_PLAN, "overlaps"},
      /* Not over a graph input: the Relu's output over x. */
      {0, 64, 128, 10, 2, WNN_ERR_BAD_PLAN, "overlaps"},
      /* The Add may not write c over b, a graph output. */
      {64, 64, 64, 10, 2, WNN_ERR_BAD_PLAN, "overlaps"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char json[1024];
    snprintf(json, sizeof json, inplace_graph, cases[i].a, cases[i].b, cases[i].c, cases[i].op2,
             cases[i].add_in);
    size_t size;
    uint8_t *buf = artifact(json, NULL, 0, &size);
    expect_load(buf, size, 0, cases[i].want, cases[i].needle);
    free_artifact(buf, size);
  }
}

TEST(plan_outside_arena) {
  expect_edit("\"arena_bytes\":128", "\"arena_bytes\":80", WNN_ERR_BAD_PLAN, "outside the 80-byte arena");
  expect_edit("\"offset\":64", "\"offset\":65", WNN_ERR_BAD_PLAN, "multiple of 16");
  expect_edit("\"offset\":64", "\"offset\":18446744073709551552", WNN_ERR_MALFORMED, "offset");
}

TEST(params_lie_about_weights) {
  const char *g =
      "{\"values\":["
      "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":0},"
      "{\"name\":\"w\",\"kind\":\"param\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":%d,"
      "\"nbytes\":%d,\"codec\":%d},"
      "{\"name\":\"y\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":64}],"
      "\"inputs\":[0],\"outputs\":[2],"
      "\"nodes\":[{\"op\":4,\"inputs\":[0,1],\"outputs\":[2]}],\"arena_bytes\":128}";
  float w[16] = {1, 2, 3, 4};
  struct { int offset, nbytes, codec; wnn_status want; const char *needle; } cases[] = {
      {0, 16, 0, WNN_OK, NULL},
      {64, 16, 0, WNN_ERR_MALFORMED, "outside the 64-byte WEIGHTS"},
      {0, 12, 0, WNN_ERR_MALFORMED, "nbytes is 12"},
      {4, 16, 0, WNN_ERR_MALFORMED, "multiple of 64"},
      {0, 16, 9, WNN_ERR_FEATURE, "uses codec 9, unknown"}, /* 3 is FILL: test_fill.c */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char json[1024];
    snprintf(json, sizeof json, g, cases[i].offset, cases[i].nbytes, cases[i].codec);
    size_t size;
    uint8_t *buf = artifact(json, w, sizeof w, &size);
    expect_load(buf, size, 0, cases[i].want, cases[i].needle);
    free_artifact(buf, size);
  }
}

TEST(graph_structure_errors) {
  /* Node reads a value no earlier node produced. */
  expect_edit("\"inputs\":[0],\"outputs\":[1]}", "\"inputs\":[1],\"outputs\":[1]}",
              WNN_ERR_MALFORMED, "before any node produces it");
  /* Output never produced. */
  expect_edit("\"nodes\":[{\"op\":8,\"name\":\"act\",\"inputs\":[0],\"outputs\":[1]}]", "\"nodes\":[]",
              WNN_ERR_MALFORMED, "never produced");
  /* Value index out of range. */
  expect_edit("\"outputs\":[1],", "\"outputs\":[7],", WNN_ERR_MALFORMED, "outputs[0]");
  /* Input list disagrees with input values. */
  expect_edit("\"inputs\":[0],\"outputs\"", "\"inputs\":[],\"outputs\"", WNN_ERR_MALFORMED,
              "kind input");
  /* Two outputs of one value. */
  expect_edit("\"outputs\":[1],", "\"outputs\":[1,1],", WNN_ERR_MALFORMED, "twice");
  /* An input without a name. */
  expect_edit("{\"name\":\"x\",", "{", WNN_ERR_MALFORMED, "without a name");
  /* Too many inputs for the op. */
  expect_edit("\"inputs\":[0],\"outputs\":[1]}", "\"inputs\":[0,0],\"outputs\":[1]}",
              WNN_ERR_MALFORMED, "input");
}

TEST(alias_cycles) {
  const char *g =
      "{\"values\":["
      "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":0},"
      "{\"kind\":\"alias\",\"dtype\":\"float32\",\"shape\":[4],\"of\":2},"
      "{\"name\":\"y\",\"kind\":\"alias\",\"dtype\":\"float32\",\"shape\":[4],\"of\":1}],"
      "\"inputs\":[0],\"outputs\":[2],\"nodes\":[],\"arena_bytes\":64}";
  expect_graph(g, WNN_ERR_MALFORMED, "cycle");
}

/* The CRC-32 one bit at a time, straight from the definition: the oracle for
 * the table-driven wnn_crc32. */
static uint32_t crc32_bitwise(uint32_t crc, const uint8_t *p, size_t n) {
  crc = ~crc;
  for (size_t i = 0; i < n; i++) {
    crc ^= p[i];
    for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

TEST(crc32_known_values) {
  CHECK(wnn_crc32(0, "", 0) == 0);
  CHECK(wnn_crc32(0, "123456789", 9) == 0xCBF43926u);
  /* 64 bytes and more take the sliced path. */
  static const char fox[] = "The quick brown fox jumps over the lazy dog. "
                            "The quick brown fox jumps over the lazy dog.";
  CHECK(wnn_crc32(0, fox, sizeof fox - 1) ==
        crc32_bitwise(0, (const uint8_t *)fox, sizeof fox - 1));
  uint8_t zeros[4096] = {0};
  CHECK(wnn_crc32(0, zeros, sizeof zeros) == crc32_bitwise(0, zeros, sizeof zeros));
}

TEST(crc32_matches_bitwise_at_every_alignment) {
  /* Random lengths (many around the 16-byte step and the 64-byte threshold)
   * at every start offset mod 16, and chained calls split anywhere. */
  enum { N = 5000 };
  static uint8_t buf[N + 16];
  uint32_t s = 12345;
  for (size_t i = 0; i < sizeof buf; i++) {
    s = s * 1664525u + 1013904223u;
    buf[i] = (uint8_t)(s >> 24);
  }
  int bad = 0;
  for (int t = 0; t < 400; t++) {
    s = s * 1664525u + 1013904223u;
    size_t len = t < 160 ? (size_t)t : (s >> 8) % N;
    size_t off = (size_t)t % 16;
    uint32_t want = crc32_bitwise(0, buf + off, len);
    if (wnn_crc32(0, buf + off, len) != want) bad++;
    size_t cut = len ? (s >> 4) % (len + 1) : 0;
    if (wnn_crc32(wnn_crc32(0, buf + off, cut), buf + off + cut, len - cut) != want) bad++;
    /* A nonzero starting value. */
    if (wnn_crc32(0xDEADBEEFu, buf + off, len) != crc32_bitwise(0xDEADBEEFu, buf + off, len)) bad++;
  }
  if (bad) printf("  %d mismatches\n", bad);
  CHECK(bad == 0);
}

TEST(random_damage_never_crashes) {
  /* Every single-byte change of a valid artifact, with checksums off so the
   * damage reaches the parser: any status is fine, a crash or leak is not;
   * and a model that does load must run. */
  float w[16] = {1, 2, 3, 4};
  const char *g =
      "{\"values\":["
      "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":0},"
      "{\"name\":\"w\",\"kind\":\"param\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":0,"
      "\"nbytes\":16,\"codec\":0},"
      "{\"name\":\"y\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[4],\"offset\":64}],"
      "\"inputs\":[0],\"outputs\":[2],"
      "\"nodes\":[{\"op\":4,\"inputs\":[0,1],\"outputs\":[2]}],\"arena_bytes\":128}";
  size_t size;
  uint8_t *buf = artifact(g, w, sizeof w, &size);
  static const uint8_t edits[] = {0x00, 0xFF, '9', '"', '-', '['};
  int loaded = check_byte_damage(buf, size, edits, sizeof edits);
  CHECK(loaded > 0); /* edits of weights and padding keep it loadable */
  free_artifact(buf, size);
}

int main(void) {
  RUN(valid_artifact_loads);
  RUN(truncated_at_every_length);
  RUN(null_and_empty_buffers);
  RUN(wrong_magic);
  RUN(newer_major_version);
  RUN(newer_minor_version_loads);
  RUN(unknown_required_feature);
  RUN(header_checksum_mismatch);
  RUN(section_checksum_mismatch);
  RUN(section_outside_buffer);
  RUN(section_offset_past_end);
  RUN(section_size_overflows);
  RUN(sections_overlap_or_repeat);
  RUN(unknown_codec);
  RUN(unknown_sections);
  RUN(malformed_json);
  RUN(json_sections_are_strict);
  RUN(unknown_op_code);
  RUN(unknown_attribute);
  RUN(wrong_field_types);
  RUN(sizes_that_overflow);
  RUN(recorded_shape_lies);
  RUN(plan_overlaps_live_values);
  RUN(plan_in_place);
  RUN(plan_outside_arena);
  RUN(params_lie_about_weights);
  RUN(graph_structure_errors);
  RUN(alias_cycles);
  RUN(crc32_known_values);
  RUN(crc32_matches_bitwise_at_every_alignment);
  RUN(random_damage_never_crashes);
  return test_summary();
}
