/* The public API end to end on artifacts made with the builder: counts and
 * names, set/run/get, zero-copy inputs, errors that leave state unchanged,
 * zero allocations in run, allocation failures everywhere, several models
 * side by side. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <string.h>

#include "wnn.h"
#include "wnn_builder.h"
#include "../test.h"
#include "robustness.h"

/* ------------------------------------------------------- counting allocator */


/* ------------------------------------------------------------ test models */

/* A fixed-seed generator: weights come from their own seed, reset per build,
 * so every build of the net has the same weights; inputs use `seed`. */
static uint32_t seed = 1;
static float frand_from(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)(*s >> 8) / 16777216.0f - 0.5f;
}
static float frand(void) { return frand_from(&seed); }

/* x f32[1,2,6,6] -> Conv 4x2x3x3 pad 1 -> Relu -> MaxPool 2x2 -> "feat.0"
 *   -> Reshape [1,36] -> MatMul [36,5] -> Add [5] -> Softmax -> "gpu_0/softmax_1" */
static void *build_net(const wnn_allocator *a, size_t *size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(a, &b)) return NULL;
  float w[4 * 2 * 3 * 3], bias[4], m[36 * 5], mb[5];
  uint32_t ws_seed = 7;
  for (size_t i = 0; i < sizeof w / 4; i++) w[i] = frand_from(&ws_seed);
  for (size_t i = 0; i < 4; i++) bias[i] = frand_from(&ws_seed);
  for (size_t i = 0; i < sizeof m / 4; i++) m[i] = frand_from(&ws_seed);
  for (size_t i = 0; i < 5; i++) mb[i] = frand_from(&ws_seed);
  int64_t xs[] = {1, 2, 6, 6}, ws[] = {4, 2, 3, 3}, bs[] = {4}, ms[] = {36, 5}, mbs[] = {5},
          rs[] = {2}, shape[] = {1, 36};
  int x, W, B, M, MB, R, c, r, p, f, mm, ad, sm;
  int ok = !wnn_builder_set_metadata(b, "name", "net") &&
           !wnn_builder_set_metadata(b, "license", "test") &&
           !wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 4, xs, &x) &&
           !wnn_builder_add_param(b, "conv.w", WNN_DTYPE_F32, 4, ws, w, &W) &&
           !wnn_builder_add_param(b, "conv.b", WNN_DTYPE_F32, 1, bs, bias, &B) &&
           !wnn_builder_add_param(b, "fc.w", WNN_DTYPE_F32, 2, ms, m, &M) &&
           !wnn_builder_add_param(b, "fc.b", WNN_DTYPE_F32, 1, mbs, mb, &MB) &&
           !wnn_builder_add_param(b, "shape", WNN_DTYPE_I64, 1, rs, shape, &R) &&
           !wnn_builder_add_node(b, "Conv", "conv", (int[]){x, W, B}, 3,
                                 "{\"kernel_shape\":[3,3],\"pads\":[1,1,1,1]}", 1, &c) &&
           !wnn_builder_add_node(b, "Relu", NULL, &c, 1, NULL, 1, &r) &&
           !wnn_builder_add_node(b, "MaxPool", "pool", &r, 1,
                                 "{\"kernel_shape\":[2,2],\"strides\":[2,2]}", 1, &p) &&
           !wnn_builder_add_node(b, "Reshape", NULL, (int[]){p, R}, 2, NULL, 1, &f) &&
           !wnn_builder_add_node(b, "MatMul", NULL, (int[]){f, M}, 2, NULL, 1, &mm) &&
           !wnn_builder_add_node(b, "Add", NULL, (int[]){mm, MB}, 2, NULL, 1, &ad) &&
           !wnn_builder_add_node(b, "Softmax", NULL, &ad, 1, "{\"axis\":1}", 1, &sm) &&
           !wnn_builder_add_output(b, sm, "gpu_0/softmax_1") &&
           !wnn_builder_add_output(b, p, "feat.0");
  void *data = NULL;
  if (!ok || wnn_builder_finish(b, &data, size)) {
    if (!ok && !a) printf("  build_net: %s\n", wnn_last_error());
    data = NULL;
  }
  /* The artifact was allocated by the builder's allocator; the builder itself
   * may go. */
  wnn_builder_free(b);
  return data;
}

static float input[72];
static int64_t input_shape[] = {1, 2, 6, 6};

static wnn_model *load_net(wnn_kernels kernels) {
  size_t size;
  void *data = build_net(NULL, &size);
  CHECK(data != NULL);
  if (!data) return NULL;
  wnn_load_options opt = {0, kernels, NULL};
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(data, size, &opt, &m));
  free(data); /* copied at load */
  return m;
}

static void run_net(wnn_model *m, float *probs, float *feat) {
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  DLTensor t = dl_tensor(input, WNN_DTYPE_F32, 4, input_shape);
  CHECK_OK(wnn_executor_set_input(ex, 0, &t));
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_copy_output(ex, 0, probs, 5 * sizeof(float)));
  CHECK_OK(wnn_executor_copy_output(ex, 1, feat, 36 * sizeof(float)));
  wnn_executor_destroy(ex);
}

/* ------------------------------------------------------------------ tests */

TEST(counts_names_and_info) {
  wnn_model *m = load_net(WNN_KERNELS_AUTO);
  if (!m) return;
  CHECK(wnn_model_num_inputs(m) == 1);  /* weights are not inputs */
  CHECK(wnn_model_num_params(m) == 5);
  CHECK(wnn_model_num_outputs(m) == 2);
  wnn_tensor_info info;
  CHECK_OK(wnn_model_input_info(m, 0, &info));
  CHECK(strcmp(info.name, "x") == 0 && info.dtype == WNN_DTYPE_F32 && info.ndim == 4);
  CHECK(info.shape[1] == 2 && info.nbytes == 72 * 4);
  CHECK_OK(wnn_model_output_info(m, 0, &info));
  CHECK(strcmp(info.name, "gpu_0/softmax_1") == 0 && info.ndim == 2 && info.shape[1] == 5);
  CHECK_OK(wnn_model_output_info(m, 1, &info));
  CHECK(strcmp(info.name, "feat.0") == 0 && info.shape[1] == 4 && info.shape[2] == 3);
  CHECK_OK(wnn_model_param_info(m, 0, &info));
  CHECK(strcmp(info.name, "conv.w") == 0);
  int index = -1;
  CHECK_OK(wnn_model_output_index(m, "feat.0", &index));
  CHECK(index == 1);
  CHECK_OK(wnn_model_input_index(m, "x", &index));
  CHECK(index == 0);
  CHECK_STATUS(wnn_model_output_index(m, "feat", &index), WNN_ERR_NOT_FOUND);
  CHECK(strstr(wnn_last_error(), "\"feat.0\"") != NULL); /* names the candidates */
  CHECK(index == 0);                                    /* untouched */
  CHECK_STATUS(wnn_model_input_info(m, 1, &info), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_model_output_info(m, -1, &info), WNN_ERR_OUT_OF_RANGE);
  wnn_model_free(m);
}

TEST(metadata_is_data) {
  wnn_model *m = load_net(WNN_KERNELS_AUTO);
  if (!m) return;
  cJSON *j = cJSON_Parse(wnn_model_metadata(m));
  CHECK(cJSON_IsObject(j));
  cJSON *name = cJSON_GetObjectItem(j, "name");
  CHECK(cJSON_IsString(name) && strcmp(name->valuestring, "net") == 0);
  CHECK(cJSON_GetObjectItem(j, "num_params")->valuedouble == 5);
  CHECK((size_t)cJSON_GetObjectItem(j, "arena_bytes")->valuedouble == wnn_model_arena_bytes(m));
  CHECK((size_t)cJSON_GetObjectItem(j, "weights_bytes")->valuedouble == wnn_model_weights_bytes(m));
  cJSON *in0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "inputs"), 0);
  CHECK(strcmp(cJSON_GetObjectItem(in0, "name")->valuestring, "x") == 0);
  cJSON *props = cJSON_GetObjectItem(j, "properties");
  CHECK(strcmp(cJSON_GetObjectItem(props, "license")->valuestring, "test") == 0);
  CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "ops"), "Conv")->valuedouble == 1);
  CHECK(strcmp(cJSON_GetObjectItem(j, "format_version")->valuestring, "1.0") == 0);
  cJSON_Delete(j);
  wnn_model_free(m);
}

TEST(shipped_kernels_match_reference) {
  for (int i = 0; i < 72; i++) input[i] = frand();
  wnn_model *fast = load_net(WNN_KERNELS_AUTO), *scalar = load_net(WNN_KERNELS_SCALAR),
            *ref = load_net(WNN_KERNELS_REFERENCE);
  if (!fast || !scalar || !ref) return;
  float p1[5], f1[36], p2[5], f2[36], p3[5], f3[36];
  run_net(fast, p1, f1);
  run_net(scalar, p2, f2);
  run_net(ref, p3, f3);
  CHECK(test_allclose(p1, p3, 5, 1e-5f, 1e-6f));
  CHECK(test_allclose(f1, f3, 36, 1e-5f, 1e-6f));
  CHECK(test_allclose(p2, p3, 5, 1e-5f, 1e-6f));
  CHECK(test_allclose(f2, f3, 36, 1e-5f, 1e-6f));
  float sum = 0;
  for (int i = 0; i < 5; i++) sum += p1[i];
  CHECK(fabsf(sum - 1.0f) < 1e-5f); /* softmax, whatever the kernels */
  for (int i = 0; i < 36; i++) CHECK(f1[i] >= 0.0f); /* max of relus */
  wnn_model_free(fast);
  wnn_model_free(scalar);
  wnn_model_free(ref);
}

TEST(hand_computed_outputs) {
  /* y = (x * 2 + 1) with params; x = [-2, -1, 0, 3]: an oracle by hand. */
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  int64_t s4[] = {4}, s0[] = {1};
  float two = 2, one = 1;
  int x, t, o, m1, y;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 1, s4, &x));
  CHECK_OK(wnn_builder_add_param(b, "two", WNN_DTYPE_F32, 1, s0, &two, &t));
  CHECK_OK(wnn_builder_add_param(b, "one", WNN_DTYPE_F32, 0, NULL, &one, &o));
  CHECK_OK(wnn_builder_add_node(b, "Mul", NULL, (int[]){x, t}, 2, NULL, 1, &m1));
  CHECK_OK(wnn_builder_add_node(b, "Add", NULL, (int[]){m1, o}, 2, NULL, 1, &y));
  CHECK_OK(wnn_builder_add_output(b, y, "y"));
  void *data;
  size_t size;
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(data, size, NULL, &m));
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  float in[4] = {-2, -1, 0, 3}, want[4] = {-3, -1, 1, 7};
  DLTensor ti = dl_tensor(in, WNN_DTYPE_F32, 1, s4), to;
  CHECK_OK(wnn_executor_set_input_by_name(ex, "x", &ti));
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_get_output_by_name(ex, "y", &to));
  CHECK(to.ndim == 1 && to.shape[0] == 4 && to.device.device_type == kDLCPU);
  CHECK(memcmp(to.data, want, sizeof want) == 0);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  wnn_builder_free_artifact(b, data, size);
  wnn_builder_free(b);
}

TEST(bad_set_input_changes_nothing) {
  wnn_model *m = load_net(WNN_KERNELS_AUTO);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  for (int i = 0; i < 72; i++) input[i] = (float)i;
  DLTensor good = dl_tensor(input, WNN_DTYPE_F32, 4, input_shape), view;
  CHECK_OK(wnn_executor_set_input(ex, 0, &good));

  float other[72] = {0};
  int64_t wrong_shape[] = {1, 2, 6, 5}, three[] = {2, 6, 6};
  DLTensor t = dl_tensor(other, WNN_DTYPE_F32, 4, wrong_shape);
  CHECK_STATUS(wnn_executor_set_input(ex, 0, &t), WNN_ERR_SHAPE);
  CHECK(strstr(wnn_executor_errmsg(ex), "[1, 2, 6, 6]") && strstr(wnn_executor_errmsg(ex), "[1, 2, 6, 5]"));
  t = dl_tensor(other, WNN_DTYPE_F32, 3, three);
  CHECK_STATUS(wnn_executor_set_input(ex, 0, &t), WNN_ERR_SHAPE);
  t = dl_tensor(other, WNN_DTYPE_F32, 4, input_shape);
  t.dtype = wnn_dtype_to_dl(WNN_DTYPE_I32);
  CHECK_STATUS(wnn_executor_set_input(ex, 0, &t), WNN_ERR_DTYPE);
  CHECK(strstr(wnn_executor_errmsg(ex), "float32") != NULL);
  t = dl_tensor(other, WNN_DTYPE_F32, 4, input_shape);
  t.device.device_type = kDLCUDA;
  CHECK_STATUS(wnn_executor_set_input(ex, 0, &t), WNN_ERR_INVALID_ARGUMENT);
  t = dl_tensor(other, WNN_DTYPE_F32, 4, input_shape);
  int64_t strides[] = {72, 36, 1, 6}; /* transposed: not dense row-major */
  t.strides = strides;
  CHECK_STATUS(wnn_executor_set_input(ex, 0, &t), WNN_ERR_INVALID_ARGUMENT);
  t.strides = NULL;
  CHECK_STATUS(wnn_executor_set_input(ex, 1, &t), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_executor_set_input_by_name(ex, "X", &t), WNN_ERR_NOT_FOUND);
  CHECK(strstr(wnn_executor_errmsg(ex), "\"X\"") != NULL);
  CHECK_STATUS(wnn_executor_set_input(ex, 0, NULL), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_executor_set_input_zero_copy(ex, 0, NULL), WNN_ERR_INVALID_ARGUMENT);
  /* Misaligned borrowed buffer. */
  t = dl_tensor((float *)((char *)other + 1), WNN_DTYPE_F32, 4, input_shape);
  CHECK_STATUS(wnn_executor_set_input_zero_copy(ex, 0, &t), WNN_ERR_INVALID_ARGUMENT);

  /* After all of that, the input still holds what was set. */
  CHECK_OK(wnn_executor_get_input(ex, 0, &view));
  CHECK(memcmp(view.data, input, sizeof input) == 0);
  float out[5];
  CHECK_STATUS(wnn_executor_copy_output(ex, 0, out, sizeof out - 1), WNN_ERR_SIZE);
  CHECK_STATUS(wnn_executor_get_output(ex, 2, &view), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_executor_get_output_by_name(ex, "nope", &view), WNN_ERR_NOT_FOUND);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

TEST(zero_copy_input) {
  wnn_model *m = load_net(WNN_KERNELS_AUTO);
  if (!m) return;
  for (int i = 0; i < 72; i++) input[i] = frand();
  float p_copy[5], f_copy[36];
  run_net(m, p_copy, f_copy);

  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  _Alignas(16) float mine[72];
  memcpy(mine, input, sizeof mine);
  DLTensor t = dl_tensor(mine, WNN_DTYPE_F32, 4, input_shape), view;
  CHECK_OK(wnn_executor_set_input_zero_copy(ex, 0, &t));
  CHECK_OK(wnn_executor_get_input(ex, 0, &view));
  CHECK(view.data == mine); /* borrowed, not copied */
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_get_output(ex, 0, &view));
  CHECK(memcmp(view.data, p_copy, sizeof p_copy) == 0);
  /* Changing the borrowed buffer changes the next run. */
  for (int i = 0; i < 72; i++) mine[i] = 0;
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_get_output(ex, 1, &view));
  for (int i = 0; i < 36; i++) CHECK(((float *)view.data)[i] >= 0);
  /* Setting by copy takes the input back into the arena. */
  t = dl_tensor(input, WNN_DTYPE_F32, 4, input_shape);
  CHECK_OK(wnn_executor_set_input(ex, 0, &t));
  CHECK_OK(wnn_executor_get_input(ex, 0, &view));
  CHECK(view.data != mine && view.data != input);
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_get_output(ex, 0, &view));
  CHECK(memcmp(view.data, p_copy, sizeof p_copy) == 0);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

/* The net borrowed from *data (freed by the caller) and loaded with a
 * counting allocator, and an executor of it; NULL data when it failed. */
static wnn_executor *counted_executor(const wnn_allocator *a, void **data, wnn_model **m) {
  size_t size;
  *data = build_net(NULL, &size);
  *m = NULL;
  if (!*data) return NULL;
  wnn_load_options opt = {WNN_LOAD_BORROW, WNN_KERNELS_AUTO, a};
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_model_load(*data, size, &opt, m));
  if (*m) CHECK_OK(wnn_executor_create(*m, &ex));
  return ex;
}

TEST(run_allocates_nothing) {
  counter c = {0, 0, -1};
  wnn_allocator a = {count_alloc, count_free, &c};
  void *data;
  wnn_model *m;
  wnn_executor *ex = counted_executor(&a, &data, &m);
  if (!ex) {
    wnn_model_free(m);
    free(data);
    return;
  }
  long before = c.calls;
  DLTensor t = dl_tensor(input, WNN_DTYPE_F32, 4, input_shape), view;
  float out[5];
  for (int i = 0; i < 100; i++) {
    input[0] = (float)i;
    CHECK_OK(wnn_executor_set_input(ex, 0, &t));
    CHECK_OK(wnn_executor_run(ex));
    CHECK_OK(wnn_executor_get_output_by_name(ex, "gpu_0/softmax_1", &view));
    CHECK_OK(wnn_executor_copy_output(ex, 0, out, sizeof out));
  }
  CHECK(c.calls == before);
  if (c.calls != before) printf("  %ld allocations in 100 runs\n", c.calls - before);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  CHECK(c.live == 0);
  free(data);
}

/* Per-node timing: off by default, the table allocated when it is first
 * turned on (an allocation failure there is reported and leaves profiling
 * off), nothing allocated while runs are timed, one entry per node with its
 * op, name and output shape, aliases never run, reset by turning it on
 * again, frozen while off. */
TEST(per_node_profile) {
  counter c = {0, 0, -1};
  wnn_allocator a = {count_alloc, count_free, &c};
  void *data;
  wnn_model *m;
  wnn_executor *ex = counted_executor(&a, &data, &m);
  if (!ex) {
    wnn_model_free(m);
    free(data);
    return;
  }
  static const char *const OPS[] = {"Conv", "Relu", "MaxPool", "Reshape", "MatMul", "Add", "Softmax"};
  const int n = wnn_model_num_nodes(m);
  CHECK(n == 7);
  wnn_node_profile p;
  CHECK_STATUS(wnn_executor_profile(ex, 0, &p), WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "wnn_executor_set_profiling") != NULL);
  DLTensor t = dl_tensor(input, WNN_DTYPE_F32, 4, input_shape);
  CHECK_OK(wnn_executor_set_input(ex, 0, &t));
  c.fail_at = c.calls; /* the table's first allocation fails */
  CHECK_STATUS(wnn_executor_set_profiling(ex, 1), WNN_ERR_OUT_OF_MEMORY);
  c.fail_at = c.calls + 1; /* its second */
  CHECK_STATUS(wnn_executor_set_profiling(ex, 1), WNN_ERR_OUT_OF_MEMORY);
  c.fail_at = -1;
  CHECK_STATUS(wnn_executor_profile(ex, 0, &p), WNN_ERR_INVALID_ARGUMENT);
  CHECK_OK(wnn_executor_run(ex)); /* not recorded: profiling is off */
  CHECK_OK(wnn_executor_set_profiling(ex, 1));
  const long before = c.calls;
  for (int r = 0; r < 3; r++) CHECK_OK(wnn_executor_run(ex));
  CHECK(c.calls == before);
  double total = 0;
  for (int i = 0; i < n && i < 7; i++) {
    CHECK_OK(wnn_executor_profile(ex, i, &p));
    CHECK(p.node == i && strcmp(p.op, OPS[i]) == 0);
    CHECK(p.runs == (i == 3 ? 0u : 3u)); /* Reshape is an alias: it never runs */
    CHECK(p.total_ms >= 0 && (i != 3 || p.total_ms == 0));
    total += p.total_ms;
  }
  CHECK(total > 0);
  CHECK_OK(wnn_executor_profile(ex, 0, &p));
  CHECK(strcmp(p.name, "conv") == 0 && p.ndim == 4 && p.shape[1] == 4 && p.shape[3] == 6);
  CHECK_OK(wnn_executor_profile(ex, 2, &p));
  CHECK(strcmp(p.name, "pool") == 0 && p.ndim == 4 && p.shape[2] == 3 && p.shape[3] == 3);
  CHECK_OK(wnn_executor_profile(ex, 1, &p));
  CHECK(strcmp(p.name, "") == 0);
  CHECK_STATUS(wnn_executor_profile(ex, n, &p), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_executor_profile(ex, -1, &p), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_executor_profile(NULL, 0, &p), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_executor_set_profiling(NULL, 1), WNN_ERR_INVALID_ARGUMENT);
  /* off: the table stays readable and frozen */
  CHECK_OK(wnn_executor_set_profiling(ex, 0));
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_profile(ex, 0, &p));
  CHECK(p.runs == 3);
  /* on again: reset, without allocating */
  const long calls = c.calls;
  CHECK_OK(wnn_executor_set_profiling(ex, 1));
  CHECK(c.calls == calls);
  CHECK_OK(wnn_executor_profile(ex, 0, &p));
  CHECK(p.runs == 0 && p.total_ms == 0);
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_profile(ex, 4, &p));
  CHECK(p.runs == 1);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  CHECK(c.live == 0);
  free(data);
}

TEST(allocation_failures_everywhere) {
  /* Fail the k-th allocation for every k: load and executor creation must
   * report WNN_ERR_OUT_OF_MEMORY and free everything they took. */
  size_t size;
  void *data = build_net(NULL, &size);
  if (!data) return;
  check_allocation_failures(data, size);
  free(data);
}

TEST(builder_allocation_failures) {
  int succeeded = 0;
  for (long k = 0; k < 10000 && !succeeded; k++) {
    counter c = {0, 0, k};
    wnn_allocator a = {count_alloc, count_free, &c};
    size_t size;
    void *data = build_net(&a, &size);
    if (data) {
      succeeded = 1;
      a.free(a.user, data, size, 64);
    }
    if (c.live != 0) {
      printf("  builder: failing allocation %ld leaked %ld blocks\n", k, c.live);
      CHECK(0);
      break;
    }
  }
  CHECK(succeeded);
}

TEST(borrowed_misaligned_buffer) {
  for (int i = 0; i < 72; i++) input[i] = frand();
  wnn_model *ref = load_net(WNN_KERNELS_AUTO);
  if (!ref) return;
  float p1[5], f1[36], p2[5], f2[36];
  run_net(ref, p1, f1);
  size_t size;
  void *data = build_net(NULL, &size);
  uint8_t *odd = malloc(size + 1);
  memcpy(odd + 1, data, size);
  wnn_load_options opt = {WNN_LOAD_BORROW, WNN_KERNELS_AUTO, NULL};
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(odd + 1, size, &opt, &m));
  if (m) {
    run_net(m, p2, f2);
    CHECK(memcmp(p1, p2, sizeof p1) == 0 && memcmp(f1, f2, sizeof f1) == 0);
  }
  wnn_model_free(m);
  wnn_model_free(ref);
  free(odd);
  free(data);
}

TEST(models_side_by_side_chained_by_name) {
  /* Model A is the net; model B takes A's "feat.0" by that name and sums it
   * with itself. Each has its own executor; A's output feeds B's input. */
  wnn_model *a = load_net(WNN_KERNELS_AUTO);
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  int64_t fs[] = {1, 4, 3, 3};
  int f, s;
  CHECK_OK(wnn_builder_add_input(b, "feat.0", WNN_DTYPE_F32, 4, fs, &f));
  CHECK_OK(wnn_builder_add_node(b, "Add", NULL, (int[]){f, f}, 2, NULL, 1, &s));
  CHECK_OK(wnn_builder_add_output(b, s, "twice"));
  void *data;
  size_t size;
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  wnn_model *bm = NULL;
  CHECK_OK(wnn_model_load(data, size, NULL, &bm));
  wnn_builder_free_artifact(b, data, size);
  wnn_builder_free(b);
  if (!a || !bm) return;

  wnn_executor *ea = NULL, *eb = NULL, *ea2 = NULL;
  CHECK_OK(wnn_executor_create(a, &ea));
  CHECK_OK(wnn_executor_create(a, &ea2));
  CHECK_OK(wnn_executor_create(bm, &eb));
  for (int i = 0; i < 72; i++) input[i] = frand();
  DLTensor t = dl_tensor(input, WNN_DTYPE_F32, 4, input_shape), feat, twice, other;
  CHECK_OK(wnn_executor_set_input(ea, 0, &t));
  CHECK_OK(wnn_executor_run(ea));
  CHECK_OK(wnn_executor_get_output_by_name(ea, "feat.0", &feat));
  CHECK_OK(wnn_executor_set_input_by_name(eb, "feat.0", &feat));
  CHECK_OK(wnn_executor_run(eb));
  CHECK_OK(wnn_executor_get_output_by_name(eb, "twice", &twice));
  for (int i = 0; i < 36; i++)
    CHECK(((float *)twice.data)[i] == 2 * ((float *)feat.data)[i]);
  /* A second executor of model A has its own arena: running it with other
   * inputs leaves the first one's output alone. */
  float saved[36];
  memcpy(saved, feat.data, sizeof saved);
  float zeros[72] = {0};
  DLTensor z = dl_tensor(zeros, WNN_DTYPE_F32, 4, input_shape);
  CHECK_OK(wnn_executor_set_input(ea2, 0, &z));
  CHECK_OK(wnn_executor_run(ea2));
  CHECK_OK(wnn_executor_get_output(ea2, 1, &other));
  CHECK(other.data != feat.data);
  CHECK(memcmp(feat.data, saved, sizeof saved) == 0);
  wnn_executor_destroy(ea);
  wnn_executor_destroy(ea2);
  wnn_executor_destroy(eb);
  wnn_model_free(a);
  wnn_model_free(bm);
}

TEST(builder_rejects_bad_nodes_and_keeps_state) {
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  int64_t s[] = {2, 3}, s2[] = {4, 5};
  int x, y, z, out;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 2, s, &x));
  CHECK_OK(wnn_builder_add_input(b, "y", WNN_DTYPE_F32, 2, s2, &y));
  CHECK_STATUS(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 2, s, &z), WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_builder_add_node(b, "Frobnicate", NULL, &x, 1, NULL, 1, &out), WNN_ERR_UNKNOWN_OP);
  CHECK(strstr(wnn_last_error(), "Frobnicate") != NULL);
  CHECK_STATUS(wnn_builder_add_node(b, "Add", NULL, (int[]){x, y}, 2, NULL, 1, &out), WNN_ERR_SHAPE);
  CHECK_STATUS(wnn_builder_add_node(b, "Relu", NULL, &x, 1, "{\"alpha\":1}", 1, &out),
               WNN_ERR_BAD_ATTRIBUTE);
  CHECK_STATUS(wnn_builder_add_node(b, "Relu", NULL, &x, 1, "{oops", 1, &out), WNN_ERR_BAD_ATTRIBUTE);
  CHECK_STATUS(wnn_builder_add_node(b, "Relu", NULL, (int[]){42}, 1, NULL, 1, &out), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_builder_add_output(b, 42, "nope"), WNN_ERR_OUT_OF_RANGE);
  void *data;
  size_t size;
  CHECK_STATUS(wnn_builder_finish(b, &data, &size), WNN_ERR_INVALID_ARGUMENT); /* no outputs */
  /* None of the failures left anything behind: the next value is value 2. */
  CHECK_OK(wnn_builder_add_node(b, "Relu", NULL, &x, 1, NULL, 1, &out));
  CHECK(out == 2);
  CHECK_OK(wnn_builder_add_output(b, out, "r"));
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  wnn_model *m = NULL;
  CHECK_OK(wnn_model_load(data, size, NULL, &m));
  CHECK(wnn_model_num_inputs(m) == 2); /* y is unused but still an input */
  wnn_model_free(m);
  wnn_builder_free_artifact(b, data, size);
  wnn_builder_free(b);
}

TEST(status_texts) {
  for (int s = 0; s <= WNN_ERR_IO; s++) CHECK(strlen(wnn_status_str((wnn_status)s)) > 0);
  CHECK(strcmp(wnn_status_str((wnn_status)999), "unknown status") == 0);
  CHECK(strcmp(wnn_version(), "0.1.0") == 0);
  CHECK(wnn_dtype_from_name("float32") == WNN_DTYPE_F32);
  CHECK(wnn_dtype_from_name("float64") == WNN_DTYPE_F64 && wnn_dtype_size(WNN_DTYPE_F64) == 8);
  CHECK(wnn_dtype_from_name("float128") == WNN_DTYPE_INVALID);
  CHECK(wnn_dtype_from_dl(wnn_dtype_to_dl(WNN_DTYPE_I64)) == WNN_DTYPE_I64);
  wnn_executor_destroy(NULL);
  wnn_model_free(NULL);
  wnn_builder_free(NULL);
}

/* float64 lives at the boundary: Casts take and give it and the artifact sets
 * required feature bit 5; any other node reading or writing it is refused at
 * load, naming the value. */
TEST(float64_only_in_casts) {
  const int64_t shape[1] = {3};
  wnn_builder *b = NULL;
  int x, f, r, y;
  CHECK_OK(wnn_builder_create(NULL, &b));
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F64, 1, shape, &x));
  CHECK_OK(wnn_builder_add_node(b, "Cast", NULL, &x, 1, "{\"to\":1}", 1, &f));
  CHECK_OK(wnn_builder_add_node(b, "Relu", NULL, &f, 1, NULL, 1, &r));
  CHECK_OK(wnn_builder_add_node(b, "Cast", NULL, &r, 1, "{\"to\":11}", 1, &y));
  CHECK_OK(wnn_builder_add_output(b, y, "y"));
  void *art = NULL;
  size_t size = 0;
  CHECK_OK(wnn_builder_finish(b, &art, &size));
  CHECK(size > 32 && (((const uint8_t *)art)[24] & 0x20) != 0);
  wnn_model *m = NULL;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_model_load(art, size, NULL, &m));
  CHECK_OK(wnn_executor_create(m, &ex));
  double in[3] = {-1.0, 0.5, 1e-3}, out[3] = {0};
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = in;
  t.device.device_type = kDLCPU;
  t.ndim = 1;
  t.shape = (int64_t *)shape;
  t.dtype = wnn_dtype_to_dl(WNN_DTYPE_F64);
  CHECK(t.dtype.code == kDLFloat && t.dtype.bits == 64);
  CHECK_OK(wnn_executor_set_input(ex, 0, &t));
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_copy_output(ex, 0, out, sizeof out));
  CHECK(out[0] == 0 && out[1] == 0.5 && out[2] == (double)1e-3f);
  /* A float32 tensor for the float64 input is a dtype error. */
  float wrong[3] = {0};
  t.data = wrong;
  t.dtype = wnn_dtype_to_dl(WNN_DTYPE_F32);
  CHECK(wnn_executor_set_input(ex, 0, &t) == WNN_ERR_DTYPE);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  wnn_builder_free_artifact(b, art, size);
  wnn_builder_free(b);

  CHECK_OK(wnn_builder_create(NULL, &b));
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F64, 1, shape, &x));
  CHECK_OK(wnn_builder_add_node(b, "Identity", "copy", &x, 1, NULL, 1, &y));
  CHECK_OK(wnn_builder_add_output(b, y, "y"));
  /* (The builder loads what it wrote: the loader's refusal is its answer.) */
  art = NULL;
  CHECK(wnn_builder_finish(b, &art, &size) == WNN_ERR_DTYPE && art == NULL);
  CHECK(strstr(wnn_last_error(), "value 0 (x), which is float64") &&
        strstr(wnn_last_error(), "only Cast and CastLike"));
  wnn_builder_free(b);
}

int main(void) {
  RUN(counts_names_and_info);
  RUN(metadata_is_data);
  RUN(shipped_kernels_match_reference);
  RUN(hand_computed_outputs);
  RUN(bad_set_input_changes_nothing);
  RUN(zero_copy_input);
  RUN(run_allocates_nothing);
  RUN(per_node_profile);
  RUN(allocation_failures_everywhere);
  RUN(builder_allocation_failures);
  RUN(borrowed_misaligned_buffer);
  RUN(models_side_by_side_chained_by_name);
  RUN(builder_rejects_bad_nodes_and_keeps_state);
  RUN(status_texts);
  RUN(float64_only_in_casts);
  return test_summary();
}
