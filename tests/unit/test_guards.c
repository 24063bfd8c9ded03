/* Guarded nodes ("when", docs/format.md): the builder's
 * wnn_builder_set_node_guards, the GUARDS feature bit, the loader's checks of
 * malformed guards and of guard lifetimes in the plan, and the executor,
 * which skips a node whose guards fail and refuses to read what a skipped
 * node did not write (except a Where that selects the other branch). */
#include <stdint.h>
#include <string.h>

#include "builder/writer.h"
#include "ops/op.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "wnn.h"
#include "wnn_builder.h"
#include "../test.h"
#include "robustness.h"

/* ------------------------------------------------------------ the builder */

/* y = Where(c, Gather(x, idx), Neg(x)): the Gather runs only when c is true
 * ([c, 1]), the Neg only when it is false ([c, 0]). The Gather fails at run
 * time on an out-of-range index, which shows whether it ran. */
static void *if_like(size_t *size) {
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  int64_t three = 3;
  int x, c, idx, g, n, y;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 1, &three, &x));
  CHECK_OK(wnn_builder_add_input(b, "c", WNN_DTYPE_BOOL, 0, NULL, &c));
  CHECK_OK(wnn_builder_add_input(b, "idx", WNN_DTYPE_I64, 1, &three, &idx));
  int ins[3] = {x, idx, -1};
  CHECK_OK(wnn_builder_add_node(b, "Gather", "then", ins, 2, NULL, 1, &g));
  CHECK_OK(wnn_builder_add_node(b, "Neg", "else", &x, 1, NULL, 1, &n));
  int gv[1] = {c}, on[1] = {1}, off[1] = {0};
  CHECK_OK(wnn_builder_set_node_guards(b, 0, 1, gv, on));
  CHECK_OK(wnn_builder_set_node_guards(b, 1, 1, gv, off));
  int w[3] = {c, g, n};
  CHECK_OK(wnn_builder_add_node(b, "Where", "merge", w, 3, NULL, 1, &y));
  CHECK_OK(wnn_builder_add_output(b, y, "y"));
  void *data = NULL;
  CHECK_OK(wnn_builder_finish(b, &data, size));
  /* Hand the bytes over in memory of our own. */
  void *copy = malloc(*size);
  if (copy && data) memcpy(copy, data, *size);
  wnn_builder_free_artifact(b, data, *size);
  wnn_builder_free(b);
  return copy;
}

/* Runs if_like with condition cond and indices idx; y gets the output. */
static wnn_status run_if_like(wnn_executor *ex, uint8_t cond, const int64_t *idx, float *y) {
  float x[3] = {-1.0f, 2.0f, -3.0f};
  int64_t three = 3;
  int64_t ix[3];
  memcpy(ix, idx, sizeof ix);
  DLTensor tx = dl_tensor(x, WNN_DTYPE_F32, 1, &three), tc = dl_tensor(&cond, WNN_DTYPE_BOOL, 0, NULL),
           ti = dl_tensor(ix, WNN_DTYPE_I64, 1, &three);
  wnn_status st = wnn_executor_set_input(ex, 0, &tx);
  if (!st) st = wnn_executor_set_input(ex, 1, &tc);
  if (!st) st = wnn_executor_set_input(ex, 2, &ti);
  if (!st) st = wnn_executor_run(ex);
  if (!st) st = wnn_executor_copy_output(ex, 0, y, 3 * sizeof(float));
  return st;
}

TEST(guarded_branches_run_only_when_taken) {
  size_t size = 0;
  void *buf = if_like(&size);
  CHECK(buf != NULL);
  if (!buf) return;
  /* The builder sets the GUARDS required feature bit. */
  CHECK((wnn_rd64((const uint8_t *)buf + 24) & WNN_FEATURE_GUARDS) != 0);
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(buf, size, NULL, &m));
  wnn_executor *ex = NULL;
  if (m) CHECK_OK(wnn_executor_create(m, &ex));
  if (ex) {
    const int64_t good[3] = {2, 1, 0}, bad[3] = {0, 99, 0};
    float y[3];
    CHECK_OK(run_if_like(ex, 1, good, y)); /* then: Gather */
    CHECK(y[0] == -3.0f && y[1] == 2.0f && y[2] == -1.0f);
    CHECK_OK(run_if_like(ex, 0, good, y)); /* else: Neg */
    CHECK(y[0] == 1.0f && y[1] == -2.0f && y[2] == 3.0f);
    /* The Gather would fail on index 99: skipped, it does not. */
    CHECK_OK(run_if_like(ex, 0, bad, y));
    CHECK(y[0] == 1.0f && y[1] == -2.0f && y[2] == 3.0f);
    CHECK_STATUS(run_if_like(ex, 1, bad, y), WNN_ERR_OUT_OF_RANGE);
    /* And the executor is still usable after that. */
    CHECK_OK(run_if_like(ex, 1, good, y));
    CHECK(y[0] == -3.0f);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  /* An old reader, which knows no GUARDS bit, would reject it: so does a
   * reader that does not know a bit next to it. */
  uint8_t *b8 = buf;
  wnn_wr64(b8 + 24, WNN_FEATURE_GUARDS | (UINT64_C(1) << 6));
  wnn_container_reseal(b8);
  m = (wnn_model *)(uintptr_t)1;
  CHECK_STATUS(wnn_model_load(buf, size, NULL, &m), WNN_ERR_FEATURE);
  CHECK(strstr(wnn_last_error(), "0x40") != NULL);
  free(buf);
}

/* Skipping nodes and tracking what they left unwritten allocates nothing at
 * run time: the executor's bookkeeping is allocated when it is created. */
TEST(guarded_runs_allocate_nothing) {
  size_t size = 0;
  void *buf = if_like(&size);
  if (!buf) return;
  counter c = {0, 0, -1};
  wnn_allocator a = {count_alloc, count_free, &c};
  wnn_load_options opt = {0, WNN_KERNELS_AUTO, &a};
  wnn_model *m = NULL;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_model_load(buf, size, &opt, &m));
  if (m) CHECK_OK(wnn_executor_create(m, &ex));
  if (ex) {
    const int64_t good[3] = {0, 1, 2}, bad[3] = {0, 99, 0};
    float y[3];
    long before = c.calls;
    CHECK_OK(run_if_like(ex, 1, good, y));
    CHECK_OK(run_if_like(ex, 0, bad, y));
    CHECK_STATUS(run_if_like(ex, 1, bad, y), WNN_ERR_OUT_OF_RANGE);
    CHECK(c.calls == before);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  free(buf);
}

TEST(an_unguarded_artifact_sets_no_feature_bit) {
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  int64_t three = 3;
  int x, y;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 1, &three, &x));
  CHECK_OK(wnn_builder_add_node(b, "Relu", NULL, &x, 1, NULL, 1, &y));
  CHECK_OK(wnn_builder_add_output(b, y, "y"));
  void *data = NULL;
  size_t size = 0;
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  if (data) CHECK(wnn_rd64((const uint8_t *)data + 24) == 0);
  wnn_builder_free_artifact(b, data, size);
  wnn_builder_free(b);
}

/* Reading what a skipped node did not write fails the run, naming both. */
TEST(reading_a_skipped_value_fails_the_run) {
  for (int variant = 0; variant < 3; variant++) {
    wnn_builder *b = NULL;
    CHECK_OK(wnn_builder_create(NULL, &b));
    int64_t three = 3;
    int x, c, a, r, n;
    CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 1, &three, &x));
    /* Guards of every allowed dtype work: int64 here, float32 below. */
    CHECK_OK(wnn_builder_add_input(b, "c", variant == 2 ? WNN_DTYPE_F32 : WNN_DTYPE_I64, 0, NULL,
                                   &c));
    CHECK_OK(wnn_builder_add_node(b, "Relu", "guarded", &x, 1, NULL, 1, &a));
    int gv[1] = {c}, on[1] = {1};
    CHECK_OK(wnn_builder_set_node_guards(b, 0, 1, gv, on));
    int out = a;
    if (variant == 0) { /* an unguarded reader */
      CHECK_OK(wnn_builder_add_node(b, "Neg", "reader", &a, 1, NULL, 1, &r));
      out = r;
    } else if (variant == 1) { /* a Where that selects the skipped value */
      int w[3] = {-1, a, x};
      uint8_t t = 1;
      int tv;
      CHECK_OK(wnn_builder_add_param(b, "true", WNN_DTYPE_BOOL, 0, NULL, &t, &tv));
      w[0] = tv;
      CHECK_OK(wnn_builder_add_node(b, "Where", "merge", w, 3, NULL, 1, &n));
      out = n;
    } /* variant 2: the graph output itself */
    CHECK_OK(wnn_builder_add_output(b, out, "y"));
    void *data = NULL;
    size_t size = 0;
    CHECK_OK(wnn_builder_finish(b, &data, &size));
    wnn_model *m = NULL;
    wnn_executor *ex = NULL;
    if (data) CHECK_OK(wnn_model_load(data, size, NULL, &m));
    if (m) CHECK_OK(wnn_executor_create(m, &ex));
    if (ex) {
      float xv[3] = {-1, 0, 1}, y[3];
      int64_t c64 = 0;
      float c32 = 0.0f;
      DLTensor tx = dl_tensor(xv, WNN_DTYPE_F32, 1, &three);
      DLTensor tc = variant == 2 ? dl_tensor(&c32, WNN_DTYPE_F32, 0, NULL)
                                 : dl_tensor(&c64, WNN_DTYPE_I64, 0, NULL);
      CHECK_OK(wnn_executor_set_input(ex, 0, &tx));
      CHECK_OK(wnn_executor_set_input(ex, 1, &tc));
      CHECK_STATUS(wnn_executor_run(ex), WNN_ERR_UNSUPPORTED);
      const char *msg = wnn_executor_errmsg(ex);
      CHECK(strstr(msg, "node 0 (Relu 'guarded') did not compute") != NULL);
      if (variant == 0) CHECK(strstr(msg, "node 1 (Neg 'reader') needs value") != NULL);
      if (variant == 1) CHECK(strstr(msg, "(Where 'merge') needs value") != NULL);
      if (variant == 2) CHECK(strstr(msg, "output 0 (y) needs value") != NULL);
      /* With the guard true, everything runs. */
      c64 = 7;
      c32 = 0.5f;
      CHECK_OK(wnn_executor_set_input(ex, 1, &tc));
      CHECK_OK(wnn_executor_run(ex));
      CHECK_OK(wnn_executor_copy_output(ex, 0, y, sizeof y));
      CHECK(y[0] == (variant == 0 ? -0.0f : 0.0f) && y[2] == (variant == 0 ? -1.0f : 1.0f));
    }
    wnn_executor_destroy(ex);
    wnn_model_free(m);
    wnn_builder_free_artifact(b, data, size);
    wnn_builder_free(b);
  }
}

TEST(builder_rejects_bad_guards) {
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  int64_t three = 3;
  int x, c, h, y;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 1, &three, &x));
  CHECK_OK(wnn_builder_add_input(b, "c", WNN_DTYPE_BOOL, 0, NULL, &c));
  CHECK_OK(wnn_builder_add_input(b, "h", WNN_DTYPE_F16, 0, NULL, &h));
  CHECK_OK(wnn_builder_add_node(b, "Relu", NULL, &x, 1, NULL, 1, &y));
  int gv[9] = {c, c, c, c, c, c, c, c, c}, on[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  CHECK_STATUS(wnn_builder_set_node_guards(b, 1, 1, gv, on), WNN_ERR_OUT_OF_RANGE);
  CHECK(strstr(wnn_last_error(), "node 1 does not exist") != NULL);
  CHECK_STATUS(wnn_builder_set_node_guards(b, 0, 9, gv, on), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "9 guards; at most 8") != NULL);
  int v = 42;
  CHECK_STATUS(wnn_builder_set_node_guards(b, 0, 1, &v, on), WNN_ERR_OUT_OF_RANGE);
  CHECK(strstr(wnn_last_error(), "value 42, which does not exist") != NULL);
  CHECK_STATUS(wnn_builder_set_node_guards(b, 0, 1, &y, on), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "produced by node 0, not before it") != NULL);
  CHECK_STATUS(wnn_builder_set_node_guards(b, 0, 1, &x, on), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "(float32, 12 bytes); a guard is one element") != NULL);
  CHECK_STATUS(wnn_builder_set_node_guards(b, 0, 1, &h, on), WNN_ERR_INVALID_ARGUMENT);
  int two = 2;
  CHECK_STATUS(wnn_builder_set_node_guards(b, 0, 1, &c, &two), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "expects 2, not 0 or 1") != NULL);
  CHECK_STATUS(wnn_builder_set_node_guards(NULL, 0, 0, NULL, NULL), WNN_ERR_INVALID_ARGUMENT);
  /* Eight is the limit, not more. */
  CHECK_OK(wnn_builder_set_node_guards(b, 0, 8, gv, on));
  wnn_builder_free(b);
}

/* ---------------------------------------------------------- the loader */

/* y = Relu(x) with x float32[2,3], c bool[] and h float16[] inputs; WHEN is
 * spliced in as the node's "when" member. */
static void expect_when(const char *when, wnn_status want, const char *needle) {
  char g[2048];
  snprintf(g, sizeof g,
           "{\"values\":["
           "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":0},"
           "{\"name\":\"c\",\"kind\":\"input\",\"dtype\":\"bool\",\"shape\":[],\"offset\":64},"
           "{\"name\":\"h\",\"kind\":\"input\",\"dtype\":\"float16\",\"shape\":[1],\"offset\":128},"
           "{\"name\":\"y\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[2,3],\"offset\":192}],"
           "\"inputs\":[0,1,2],\"outputs\":[3],"
           "\"nodes\":[{\"op\":8,\"name\":\"act\",\"inputs\":[0],\"outputs\":[3],\"when\":%s}],"
           "\"arena_bytes\":256}",
           when);
  wnn_section_data sec[2] = {{WNN_SECTION_GRAPH, g, strlen(g)}, {WNN_SECTION_METADATA, "{}", 2}};
  size_t size;
  uint8_t *buf = wnn_container_write(&wnn_default_allocator, sec, 2, &size);
  wnn_wr64(buf + 24, WNN_FEATURE_GUARDS);
  wnn_container_reseal(buf);
  wnn_model *m = (wnn_model *)(uintptr_t)1;
  wnn_status st = wnn_model_load(buf, size, NULL, &m);
  CHECK_STATUS(st, want);
  if (st == WNN_OK) wnn_model_free(m);
  else CHECK(m == (wnn_model *)(uintptr_t)1);
  if (st && needle && !strstr(wnn_last_error(), needle)) {
    printf("  message \"%s\" lacks \"%s\"\n", wnn_last_error(), needle);
    CHECK(0);
  }
  wnn_free(&wnn_default_allocator, buf, size, 64);
}

TEST(loader_checks_guards) {
  expect_when("[[1,1]]", WNN_OK, NULL);
  expect_when("[[1,0],[1,1]]", WNN_OK, NULL);
  expect_when("[]", WNN_OK, NULL);
  expect_when("5", WNN_ERR_MALFORMED, "node 0 (Relu 'act').when must be an array");
  expect_when("{\"1\":1}", WNN_ERR_MALFORMED, ".when must be an array");
  expect_when("[[1]]", WNN_ERR_MALFORMED, "when[0] must be a pair [value, 0 or 1]");
  expect_when("[1,1]", WNN_ERR_MALFORMED, "when[0] must be a pair");
  expect_when("[[1,1,1]]", WNN_ERR_MALFORMED, "when[0] must be a pair");
  expect_when("[[1,1],[\"c\",1]]", WNN_ERR_MALFORMED, "when[1] must be a pair");
  expect_when("[[1,0.5]]", WNN_ERR_MALFORMED, "when[0] must be a pair");
  expect_when("[[7,1]]", WNN_ERR_MALFORMED, "when[0] names value 7; the graph has 4 values");
  expect_when("[[-1,1]]", WNN_ERR_MALFORMED, "when[0] names value -1");
  expect_when("[[1,2]]", WNN_ERR_MALFORMED, "when[0] expects 2; it must be 0 or 1");
  expect_when("[[0,1]]", WNN_ERR_MALFORMED, "value 0 has shape [2, 3]; a guard has one element");
  expect_when("[[2,1]]", WNN_ERR_MALFORMED, "value 2 is float16; a guard is bool");
  expect_when("[[3,1]]", WNN_ERR_MALFORMED, "when[0] reads value 3 before any node produces it");
  expect_when("[[1,1],[1,1],[1,1],[1,1],[1,1],[1,1],[1,1],[1,1],[1,1]]", WNN_ERR_MALFORMED,
              "9 guards in \"when\"; at most 8");
  expect_when("[[1,1],[1,1],[1,1],[1,1],[1,1],[1,1],[1,1],[1,1]]", WNN_OK, NULL);
}

/* A value read only as a guard lives until that node: the loader's plan
 * check must see the overlap when node 1's output sits on node 0's
 * condition while node 2 still reads it as its guard. */
TEST(loader_counts_guards_as_reads_in_the_plan) {
  const wnn_op *cast = wnn_op_by_name("Cast"), *relu = wnn_op_by_name("Relu");
  CHECK(cast && relu);
  if (!cast || !relu) return;
  for (int overlap = 0; overlap < 2; overlap++) {
    char g[2048];
    snprintf(g, sizeof g,
             "{\"values\":["
             "{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\",\"shape\":[1],\"offset\":0},"
             "{\"kind\":\"arena\",\"dtype\":\"bool\",\"shape\":[1],\"offset\":64},"
             "{\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[1],\"offset\":%d},"
             "{\"name\":\"y\",\"kind\":\"arena\",\"dtype\":\"float32\",\"shape\":[1],\"offset\":192}],"
             "\"inputs\":[0],\"outputs\":[3],"
             "\"nodes\":[{\"op\":%d,\"name\":\"cond\",\"inputs\":[0],\"outputs\":[1],\"attrs\":{\"to\":9}},"
             "{\"op\":%d,\"inputs\":[0],\"outputs\":[2]},"
             "{\"op\":%d,\"inputs\":[2],\"outputs\":[3],\"when\":[[1,1]]}],"
             "\"arena_bytes\":256}",
             overlap ? 64 : 128, cast->code, relu->code, relu->code);
    wnn_section_data sec[2] = {{WNN_SECTION_GRAPH, g, strlen(g)}, {WNN_SECTION_METADATA, "{}", 2}};
    size_t size;
    uint8_t *buf = wnn_container_write(&wnn_default_allocator, sec, 2, &size);
    wnn_wr64(buf + 24, WNN_FEATURE_GUARDS);
    wnn_container_reseal(buf);
    wnn_model *m = NULL;
    wnn_status st = wnn_model_load(buf, size, NULL, &m);
    if (overlap) {
      CHECK_STATUS(st, WNN_ERR_BAD_PLAN);
      CHECK(strstr(wnn_last_error(), "live over nodes 0..2") != NULL);
    } else {
      CHECK_OK(st);
      wnn_executor *ex = NULL;
      if (m) CHECK_OK(wnn_executor_create(m, &ex));
      if (ex) {
        int64_t one = 1;
        float x = 2.0f, y = 0.0f;
        DLTensor t = dl_tensor(&x, WNN_DTYPE_F32, 1, &one);
        CHECK_OK(wnn_executor_set_input(ex, 0, &t));
        CHECK_OK(wnn_executor_run(ex));
        CHECK_OK(wnn_executor_copy_output(ex, 0, &y, sizeof y));
        CHECK(y == 2.0f);
        x = 0.0f; /* the condition is false: y is never computed */
        CHECK_OK(wnn_executor_set_input(ex, 0, &t));
        CHECK_STATUS(wnn_executor_run(ex), WNN_ERR_UNSUPPORTED);
        CHECK(strstr(wnn_executor_errmsg(ex), "output 0 (y) needs value 3 'y', which node 2 (Relu) did not compute") != NULL);
      }
      wnn_executor_destroy(ex);
      wnn_model_free(m);
    }
    wnn_free(&wnn_default_allocator, buf, size, 64);
  }
}

int main(void) {
  RUN(guarded_branches_run_only_when_taken);
  RUN(guarded_runs_allocate_nothing);
  RUN(an_unguarded_artifact_sets_no_feature_bit);
  RUN(reading_a_skipped_value_fails_the_run);
  RUN(builder_rejects_bad_guards);
  RUN(loader_checks_guards);
  RUN(loader_counts_guards_as_reads_in_the_plan);
  return test_summary();
}
