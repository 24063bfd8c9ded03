/* One model shared by many threads: each thread runs its own executor (some
 * with intra-op threads of their own, wnn_executor_set_threads), and others
 * call the stateless wnn_model_predict, all at once. Every result must
 * equal the single-threaded one bit for bit. Other threads load and free
 * models meanwhile, good and bad artifacts alike (the JSON parser's state is
 * per thread). scripts/test.sh also runs this program under ThreadSanitizer
 * (the tsan preset; cJSON is built from source, so it is instrumented too).
 * Native only: the WASI target has no threads, and this program says so and
 * skips there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wnn.h"
#include "wnn_builder.h"
#include "runtime/format.h"
#include "../test.h"
#include "robustness.h"

#if defined(__wasi__) || defined(__EMSCRIPTEN__)

int main(void) {
  printf("skip test_threads: this wasm target has no threads\n");
  return test_summary();
}

#else
#include <pthread.h>

#define THREADS 8
#define LOADERS 3
#define RUNS 200
#define N 4096

static wnn_model *model;
/* The artifact, for the loader threads; and a copy whose GRAPH is not JSON. */
static void *artifact, *broken;
static size_t artifact_size;
static float inputs[THREADS][N], expected[THREADS][N];

static DLTensor tensor(float *data, int64_t *shape) { return dl_tensor(data, WNN_DTYPE_F32, 2, shape); }

/* y = Sigmoid(x * W + x + (x W2) W3): element-wise, so every value depends on
 * its input, plus two MatMuls big enough to be split over intra-op threads
 * (64 x 64 x 256 and 64 x 256 x 64 multiply-adds). */
static wnn_model *build(void) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  int64_t s[] = {64, 64}, s2[] = {64, 256}, s3[] = {256, 64};
  static float w[N], w2[4 * N], w3[4 * N];
  for (int i = 0; i < N; i++) w[i] = (float)(i % 13) / 7.0f - 0.9f;
  for (int i = 0; i < 4 * N; i++) w2[i] = (float)(i % 7 - 3) / 50.0f, w3[i] = (float)(i % 5 - 2) / 40.0f;
  int x, W, W2, W3, m, a, h, g, t, y;
  wnn_model *out = NULL;
  void *data;
  size_t size;
  if (!wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 2, s, &x) &&
      !wnn_builder_add_param(b, "w", WNN_DTYPE_F32, 2, s, w, &W) &&
      !wnn_builder_add_param(b, "w2", WNN_DTYPE_F32, 2, s2, w2, &W2) &&
      !wnn_builder_add_param(b, "w3", WNN_DTYPE_F32, 2, s3, w3, &W3) &&
      !wnn_builder_add_node(b, "Mul", NULL, (int[]){x, W}, 2, NULL, 1, &m) &&
      !wnn_builder_add_node(b, "Add", NULL, (int[]){m, x}, 2, NULL, 1, &a) &&
      !wnn_builder_add_node(b, "MatMul", NULL, (int[]){x, W2}, 2, NULL, 1, &h) &&
      !wnn_builder_add_node(b, "MatMul", NULL, (int[]){h, W3}, 2, NULL, 1, &g) &&
      !wnn_builder_add_node(b, "Add", NULL, (int[]){a, g}, 2, NULL, 1, &t) &&
      !wnn_builder_add_node(b, "Sigmoid", NULL, &t, 1, NULL, 1, &y) &&
      !wnn_builder_add_output(b, y, "y") && !wnn_builder_finish(b, &data, &size)) {
    if (wnn_model_load(data, size, NULL, &out)) out = NULL;
    /* Keep copies for the loader threads: the artifact, and one whose GRAPH
     * section starts with a byte that is no JSON (loaded with checksums off,
     * so the parser sees it). */
    artifact = malloc(size);
    broken = malloc(size);
    if (artifact && broken) {
      memcpy(artifact, data, size);
      memcpy(broken, data, size);
      artifact_size = size;
      uint64_t off = 0; /* entry 0 is GRAPH: its offset is at header + 8 */
      memcpy(&off, (uint8_t *)broken + WNN_HEADER_SIZE + 8, sizeof off);
      if (off < size) ((uint8_t *)broken)[off] = '#';
    }
    wnn_builder_free_artifact(b, data, size);
  }
  wnn_builder_free(b);
  return out;
}

static void *loader(void *arg) {
  long bad = 0;
  for (int r = 0; r < RUNS / 5; r++) {
    wnn_model *m = NULL;
    wnn_load_options borrow = {WNN_LOAD_BORROW, WNN_KERNELS_AUTO, NULL};
    if (wnn_model_load(artifact, artifact_size, (r & 1) ? &borrow : NULL, &m)) bad++;
    wnn_executor *ex = NULL;
    if (m && (wnn_executor_create(m, &ex) || wnn_executor_run(ex))) bad++;
    wnn_executor_destroy(ex);
    wnn_model_free(m);
    /* A failed parse writes cJSON's error record: it must be this thread's. */
    m = NULL;
    wnn_load_options unchecked = {WNN_LOAD_NO_CHECKSUM, WNN_KERNELS_AUTO, NULL};
    if (wnn_model_load(broken, artifact_size, &unchecked, &m) != WNN_ERR_MALFORMED) bad++;
    if (!strstr(wnn_last_error(), "graph")) bad++;
    wnn_model_free(m);
  }
  (void)arg;
  return (void *)(intptr_t)bad;
}

static void *worker(void *arg) {
  int k = (int)(intptr_t)arg;
  int64_t s[] = {64, 64};
  static _Thread_local float out[N];
  long bad = 0;
  wnn_executor *ex = NULL;
  if (k % 2 == 0 && wnn_executor_create(model, &ex)) return (void *)1;
  /* Every other executor splits its MatMuls over 2 or 3 threads of its own. */
  if (ex && k % 4 == 2 && wnn_executor_set_threads(ex, 2 + k % 3)) bad++;
  for (int r = 0; r < RUNS; r++) {
    DLTensor in = tensor(inputs[k], s), o = tensor(out, s);
    if (ex) {
      if (wnn_executor_set_input(ex, 0, &in) || wnn_executor_run(ex) ||
          wnn_executor_copy_output(ex, 0, out, sizeof out))
        bad++;
    } else if (wnn_model_predict(model, &in, 1, &o, 1)) {
      bad++;
    }
    if (memcmp(out, expected[k], sizeof out) != 0) bad++;
  }
  wnn_executor_destroy(ex);
  return (void *)(intptr_t)bad;
}

TEST(executors_and_predict_on_threads) {
  model = build();
  CHECK(model != NULL);
  if (!model) return;
  int64_t s[] = {64, 64};
  for (int k = 0; k < THREADS; k++) {
    for (int i = 0; i < N; i++) inputs[k][i] = (float)((i * 7 + k * 131) % 97) / 48.0f - 1.0f;
    DLTensor in = tensor(inputs[k], s), out = tensor(expected[k], s);
    CHECK_OK(wnn_model_predict(model, &in, 1, &out, 1));
  }
  CHECK(artifact != NULL && broken != NULL);
  pthread_t th[THREADS + LOADERS];
  for (int k = 0; k < THREADS + LOADERS; k++)
    CHECK(pthread_create(&th[k], NULL, k < THREADS ? worker : loader, (void *)(intptr_t)k) == 0);
  for (int k = 0; k < THREADS + LOADERS; k++) {
    void *bad = NULL;
    pthread_join(th[k], &bad);
    if (bad) printf("  thread %d: %ld bad runs\n", k, (long)(intptr_t)bad);
    CHECK(bad == NULL);
  }
  wnn_model_free(model);
  free(artifact);
  free(broken);
  artifact = broken = NULL;
}

TEST(predict_checks_its_arguments) {
  model = build();
  if (!model) return;
  int64_t s[] = {64, 64}, wrong[] = {64, 63};
  static float in[N], out[N];
  DLTensor i = tensor(in, s), o = tensor(out, s), bad = tensor(out, wrong);
  CHECK_STATUS(wnn_model_predict(model, &i, 1, &bad, 1), WNN_ERR_SHAPE);
  CHECK(strstr(wnn_last_error(), "output 0 (y)") != NULL);
  CHECK_STATUS(wnn_model_predict(model, &i, 0, &o, 1), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_model_predict(model, &bad, 1, &o, 1), WNN_ERR_SHAPE);
  CHECK(strstr(wnn_last_error(), "input 0 (x)") != NULL);
  for (int k = 0; k < N; k++) in[k] = 0;
  CHECK_OK(wnn_model_predict(model, &i, 1, &o, 1));
  CHECK(out[0] == 0.5f); /* sigmoid(0) */
  wnn_model_free(model);
}

int main(void) {
  RUN(executors_and_predict_on_threads);
  RUN(predict_checks_its_arguments);
  return test_summary();
}
#endif
