/* Debug executors (wnn_executor_create_debug, docs/params.md section 4):
 * every intermediate of a run is read back by index and by name, equal to
 * the values computed here; a normal executor, whose memory is reused,
 * refuses intermediates; reads before a run, unknown names, bad indices and
 * a dynamic model's resize are refused with their statuses; the builder's
 * value names follow its rules. Under ASan every read stays inside its
 * value (the debug arena gives each value its own bytes). */
#include <string.h>

#include "wnn.h"
#include "wnn_builder.h"
#include "../test.h"
#include "robustness.h"

/* y = relu(x) * w + relu(x): "r" and "m" intermediates, "y" the output. */
static void *build(int dynamic, size_t *size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  static const float w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int64_t s[2] = {2, 4};
  int x = -1, W = -1, r = -1, m = -1, y = -1;
  const char *names[2] = {"batch", NULL};
  int ok = dynamic ? !wnn_builder_add_dim(b, "batch", 2, 0, 1) &&
                         !wnn_builder_add_dynamic_input(b, "x", WNN_DTYPE_F32, 2, s, names, &x)
                   : !wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 2, s, &x);
  int64_t ws[1] = {4};
  ok = ok && !wnn_builder_add_param(b, "w", WNN_DTYPE_F32, 1, ws, w, &W) &&
       !wnn_builder_add_node(b, "Relu", "relu", (int[]){x}, 1, NULL, 1, &r) &&
       !wnn_builder_set_value_name(b, r, "r") &&
       !wnn_builder_add_node(b, "Mul", "mul", (int[]){r, W}, 2, NULL, 1, &m) &&
       !wnn_builder_set_value_name(b, m, "m") &&
       !wnn_builder_add_node(b, "Add", "add", (int[]){m, r}, 2, NULL, 1, &y) &&
       !wnn_builder_add_output(b, y, "y");
  /* Naming rules: a value has one name; inputs and params are named when added. */
  CHECK_OK(wnn_builder_set_value_name(b, r, "r"));
  CHECK_STATUS(wnn_builder_set_value_name(b, r, "other"), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_builder_set_value_name(b, W, "weights"), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_builder_set_value_name(b, 999, "z"), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_builder_set_value_name(b, y, ""), WNN_ERR_INVALID_ARGUMENT);
  void *data = NULL;
  if (ok) ok = !wnn_builder_finish(b, &data, size);
  wnn_builder_free(b);
  return ok ? data : NULL;
}

static const float *value(wnn_executor *ex, const char *name, wnn_tensor_info *info) {
  DLTensor t;
  if (wnn_executor_get_value_by_name(ex, name, info, &t)) return NULL;
  return (const float *)((const char *)t.data + t.byte_offset);
}

TEST(debug_executor_reads_every_intermediate) {
  size_t size = 0;
  void *art = build(0, &size);
  CHECK(art != NULL);
  if (!art) return;
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(art, size, NULL, &m));
  wnn_executor *dbg = NULL, *plain = NULL;
  CHECK_OK(wnn_executor_create_debug(m, &dbg));
  CHECK_OK(wnn_executor_create(m, &plain));
  /* Nothing reused: the debug arena holds every value apart. */
  CHECK(wnn_executor_arena_bytes(dbg) >= 4 * 32);
  float x[8] = {-1, 2, -3, 4, 5, -6, 7, -8};
  int64_t s[2] = {2, 4};
  DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 2, s);
  wnn_tensor_info info;
  CHECK_OK(wnn_executor_set_input(dbg, 0, &t));
  CHECK_STATUS(wnn_executor_get_value_by_name(dbg, "r", &info, &t), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_executor_errmsg(dbg), "run the executor first") != NULL);
  CHECK_OK(wnn_executor_run(dbg));
  const float *r = value(dbg, "r", &info), *mm = value(dbg, "m", &info), *y = value(dbg, "y", &info);
  CHECK(r && mm && y && info.ndim == 2 && info.shape[1] == 4 && info.nbytes == 32);
  for (int i = 0; r && mm && y && i < 8; i++) {
    const float ri = x[i] > 0 ? x[i] : 0, mi = ri * (float)(i % 4 + 1);
    CHECK(r[i] == ri && mm[i] == mi && y[i] == mi + ri);
  }
  /* By index: every value, inputs and params included, with its name. */
  int named = 0;
  for (int v = 0; v < wnn_executor_num_values(dbg); v++) {
    DLTensor d;
    CHECK_OK(wnn_executor_get_value(dbg, v, &info, &d));
    named += info.name != NULL;
  }
  CHECK(named == 5); /* x, w, r, m, y */
  CHECK_STATUS(wnn_executor_get_value(dbg, wnn_executor_num_values(dbg), &info, &t),
               WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_executor_get_value_by_name(dbg, "nothing", &info, &t), WNN_ERR_NOT_FOUND);
  CHECK_STATUS(wnn_executor_get_value(dbg, 0, NULL, &t), WNN_ERR_INVALID_ARGUMENT);
  /* A normal executor: inputs, params and outputs, not intermediates. */
  t = dl_tensor(x, WNN_DTYPE_F32, 2, s);
  CHECK_OK(wnn_executor_set_input(plain, 0, &t));
  CHECK_OK(wnn_executor_run(plain));
  CHECK_STATUS(wnn_executor_get_value_by_name(plain, "m", &info, &t), WNN_ERR_UNSUPPORTED);
  CHECK(strstr(wnn_executor_errmsg(plain), "debug executor") != NULL);
  const float *w = value(plain, "w", &info), *py = value(plain, "y", &info);
  CHECK(w && w[3] == 4);
  CHECK(py && y && !memcmp(py, y, 32));
  wnn_executor_destroy(dbg);
  wnn_executor_destroy(plain);
  wnn_model_free(m);
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  wnn_builder_free_artifact(b, art, size);
  wnn_builder_free(b);
}

TEST(debug_executor_of_a_dynamic_model_keeps_its_shapes) {
  size_t size = 0;
  void *art = build(1, &size);
  CHECK(art != NULL);
  if (!art) return;
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(art, size, NULL, &m));
  wnn_executor *dbg = NULL;
  CHECK_OK(wnn_executor_create_debug(m, &dbg));
  const int64_t s3[2] = {3, 4};
  CHECK_STATUS(wnn_executor_resize_input(dbg, 0, 2, s3), WNN_ERR_UNSUPPORTED);
  CHECK(strstr(wnn_executor_errmsg(dbg), "reference shapes") != NULL);
  float x[8] = {1, 1, 1, 1, 2, 2, 2, 2};
  int64_t s[2] = {2, 4};
  DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 2, s);
  CHECK_OK(wnn_executor_set_input(dbg, 0, &t));
  CHECK_OK(wnn_executor_run(dbg));
  wnn_tensor_info info;
  const float *r = value(dbg, "m", &info);
  CHECK(r && r[7] == 8.0f);
  wnn_executor_destroy(dbg);
  wnn_model_free(m);
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  wnn_builder_free_artifact(b, art, size);
  wnn_builder_free(b);
}

int main(void) {
  RUN(debug_executor_reads_every_intermediate);
  RUN(debug_executor_of_a_dynamic_model_keeps_its_shapes);
  return test_summary();
}
