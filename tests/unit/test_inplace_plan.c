/* The builder's in-place plan (docs/format.md): a chain of in-place ops
 * shares one block, the INPLACE feature bit is set exactly when it does, the
 * loader accepts the plan and the run gives the values of the ops computed
 * here; an input that is read again later, or a graph input, is never
 * written over. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/format.h"
#include "base/status.h"
#include "wnn.h"
#include "wnn_builder.h"
#include "../test.h"
#include "robustness.h"

#define N 1000

/* x -> Relu -> a -> Tanh -> b -> Add(b, x or a) -> c (the output). With
 * reread, the Add reads a, so the Tanh may not write over a. */
static void *build(bool reread, size_t *size) {
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  const int64_t n = N;
  int x, a, t, c;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 1, &n, &x));
  CHECK_OK(wnn_builder_add_node(b, "Relu", "relu", &x, 1, NULL, 1, &a));
  CHECK_OK(wnn_builder_add_node(b, "Tanh", "tanh", &a, 1, NULL, 1, &t));
  const int add_in[2] = {t, reread ? a : x};
  CHECK_OK(wnn_builder_add_node(b, "Add", "add", add_in, 2, NULL, 1, &c));
  CHECK_OK(wnn_builder_add_output(b, c, "c"));
  void *data = NULL;
  CHECK_OK(wnn_builder_finish(b, &data, size));
  void *copy = malloc(*size);
  if (copy && data) memcpy(copy, data, *size);
  wnn_builder_free_artifact(b, data, *size);
  wnn_builder_free(b);
  return copy;
}

static uint64_t required_features(const void *artifact) {
  uint64_t v;
  memcpy(&v, (const char *)artifact + 24, 8); /* little-endian on every target here */
  return v;
}

static void run_and_check(const void *artifact, size_t size, bool reread) {
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(artifact, size, NULL, &m));
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  float x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = (float)(i % 37) / 9.0f - 2.0f;
  const int64_t n = N;
  int64_t shape[1] = {n};
  DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 1, shape);
  CHECK_OK(wnn_executor_set_input(ex, 0, &t));
  for (int rep = 0; rep < 2; rep++) { /* a second run from the same input */
    CHECK_OK(wnn_executor_run(ex));
    CHECK_OK(wnn_executor_copy_output(ex, 0, y, sizeof y));
    int bad = 0;
    for (int i = 0; i < N; i++) {
      const float a = x[i] > 0 ? x[i] : 0.0f;
      const float want = tanhf(a) + (reread ? a : x[i]);
      bad += fabsf(y[i] - want) > 1e-6f;
    }
    CHECK(bad == 0);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

TEST(chain_shares_one_block) {
  size_t size = 0;
  void *art = build(false, &size);
  CHECK(required_features(art) & WNN_FEATURE_INPLACE);
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(art, size, NULL, &m));
  /* x (4000 bytes) and one 4000-byte block for a, b and c, each rounded up
   * to 64 bytes. */
  CHECK(m && wnn_model_arena_bytes(m) == 2 * 4032);
  wnn_model_free(m);
  run_and_check(art, size, false);
  free(art);
}

TEST(reread_input_is_not_overwritten) {
  size_t size = 0;
  void *art = build(true, &size);
  /* The Tanh may not write over a (the Add reads it); the Add writes c over
   * b, which dies there. */
  CHECK(required_features(art) & WNN_FEATURE_INPLACE);
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(art, size, NULL, &m));
  CHECK(m && wnn_model_arena_bytes(m) == 3 * 4032);
  wnn_model_free(m);
  run_and_check(art, size, true);
  free(art);
}

TEST(no_bit_without_in_place) {
  /* Relu of a graph input: nothing to write over, so older readers still
   * load the artifact. */
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  const int64_t n = N;
  int x, y;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 1, &n, &x));
  CHECK_OK(wnn_builder_add_node(b, "Relu", "relu", &x, 1, NULL, 1, &y));
  CHECK_OK(wnn_builder_add_output(b, y, "y"));
  void *data = NULL;
  size_t size = 0;
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  CHECK(data && (required_features(data) & WNN_FEATURE_INPLACE) == 0);
  wnn_builder_free_artifact(b, data, size);
  wnn_builder_free(b);
}

int main(void) {
  RUN(chain_shares_one_block);
  RUN(reread_input_is_not_overwritten);
  RUN(no_bit_without_in_place);
  return test_summary();
}
