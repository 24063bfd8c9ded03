/* Run-time shapes (docs/dynamic-shapes.md) on artifacts the builder writes:
 * one executor at several shapes against fixed artifacts built at each shape
 * (bitwise), a Shape -> Gather -> Concat chain feeding a Reshape, resizes
 * that fail and leave the executor as it was, the plan cache and allocation
 * counts, two executors of one model at different shapes, and what the loader
 * refuses in "dims", dim names and shape nodes. */
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

/* ------------------------------------------------------------ the conv net */

/* x f32[N,3,H,W] -> Conv 4x3x3x3 pad 1 -> Relu -> GlobalAveragePool
 *   -> Flatten -> Gemm (transB, 5x4) -> "y" f32[N,5].
 * dynamic: N, H, W are the dims "batch", "height", "width" (defaults 2, 8,
 * 8; maxima `max` each, 0 for none; width a multiple of `wmul`); otherwise
 * the input is fixed at shape. Weights are the same in every build. */
static void *conv_net(int dynamic, const int64_t *shape, int64_t max, int64_t wmul,
                      const wnn_allocator *a, size_t *size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(a, &b)) return NULL;
  float w[4 * 3 * 3 * 3], bias[4], g[5 * 4], gb[5];
  uint32_t s = 3;
  for (size_t i = 0; i < sizeof w / 4; i++) w[i] = (float)((s = s * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
  for (size_t i = 0; i < 4; i++) bias[i] = 0.1f * (float)i - 0.15f;
  for (size_t i = 0; i < 20; i++) g[i] = (float)((s = s * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
  for (size_t i = 0; i < 5; i++) gb[i] = 0.05f * (float)i;
  int64_t ws[] = {4, 3, 3, 3}, bs[] = {4}, gs[] = {5, 4}, gbs[] = {5};
  const char *names[] = {"batch", NULL, "height", "width"};
  int x, W, B, G, GB, c, r, p, f, y;
  int ok = 1;
  if (dynamic) {
    int64_t dflt[] = {2, 3, 8, 8};
    ok = !wnn_builder_add_dim(b, "batch", 2, max, 1) && !wnn_builder_add_dim(b, "height", 8, max, 1) &&
         !wnn_builder_add_dim(b, "width", 8, max, wmul) &&
         !wnn_builder_add_dynamic_input(b, "x", WNN_DTYPE_F32, 4, dflt, names, &x);
  } else {
    ok = !wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 4, shape, &x);
  }
  ok = ok && !wnn_builder_add_param(b, "w", WNN_DTYPE_F32, 4, ws, w, &W) &&
       !wnn_builder_add_param(b, "b", WNN_DTYPE_F32, 1, bs, bias, &B) &&
       !wnn_builder_add_param(b, "g", WNN_DTYPE_F32, 2, gs, g, &G) &&
       !wnn_builder_add_param(b, "gb", WNN_DTYPE_F32, 1, gbs, gb, &GB) &&
       !wnn_builder_add_node(b, "Conv", "conv", (int[]){x, W, B}, 3,
                             "{\"kernel_shape\":[3,3],\"pads\":[1,1,1,1]}", 1, &c) &&
       !wnn_builder_add_node(b, "Relu", NULL, &c, 1, NULL, 1, &r) &&
       !wnn_builder_add_node(b, "GlobalAveragePool", NULL, &r, 1, NULL, 1, &p) &&
       !wnn_builder_add_node(b, "Flatten", NULL, &p, 1, NULL, 1, &f) &&
       !wnn_builder_add_node(b, "Gemm", "fc", (int[]){f, G, GB}, 3, "{\"transB\":1}", 1, &y) &&
       !wnn_builder_add_output(b, y, "y");
  void *data = NULL;
  if (!ok || wnn_builder_finish(b, &data, size)) {
    printf("  conv_net: %s\n", wnn_last_error());
    data = NULL;
  }
  wnn_builder_free(b);
  return data;
}

/* Loads (a copy) and frees data; *size is read after the call that made
 * data has written it. */
static wnn_model *load(void *data, const size_t *size, const wnn_allocator *a) {
  wnn_model *m = NULL;
  wnn_load_options opt = {0, WNN_KERNELS_AUTO, a};
  if (!data) return NULL;
  CHECK_OK(wnn_model_load(data, *size, &opt, &m));
  free(data);
  return m;
}

static void fill_input(float *x, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; i++)
    x[i] = (float)((seed = seed * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
}

static size_t numel(int ndim, const int64_t *shape) {
  size_t n = 1;
  for (int d = 0; d < ndim; d++) n *= (size_t)shape[d];
  return n;
}

/* Sets input 0 of ex (f32, current shape `shape`) from seed, runs, copies
 * output 0 (`out_n` floats) into out. */
static void run_f32(wnn_executor *ex, int ndim, int64_t *shape, uint32_t seed, float *out,
                    size_t out_n) {
  size_t n = numel(ndim, shape);
  float *x = malloc(n * sizeof *x + 1);
  fill_input(x, n, seed);
  DLTensor t = dl_tensor(x, WNN_DTYPE_F32, ndim, shape);
  CHECK_OK(wnn_executor_set_input(ex, 0, &t));
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_copy_output(ex, 0, out, out_n * sizeof *out));
  free(x);
}

/* The conv net fixed at shape: its output for input seed. */
static void fixed_conv_output(int64_t *shape, uint32_t seed, float *out) {
  size_t size;
  wnn_model *m = load(conv_net(0, shape, 0, 1, NULL, &size), &size, NULL);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  run_f32(ex, 4, shape, seed, out, (size_t)shape[0] * 5);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

static int same_bits(const float *a, const float *b, size_t n) {
  if (!memcmp(a, b, n * sizeof *a)) return 1;
  for (size_t i = 0; i < n; i++)
    if (memcmp(&a[i], &b[i], sizeof *a)) {
      printf("  element %zu: %.9g against %.9g\n", i, a[i], b[i]);
      break;
    }
  return 0;
}

static const int64_t conv_shapes[][4] = {{2, 3, 8, 8}, {1, 3, 5, 7}, {3, 3, 12, 10},
                                         {1, 3, 16, 16}, {4, 3, 3, 9}, {2, 3, 8, 8}};

TEST(conv_net_at_several_shapes_matches_fixed_artifacts) {
  size_t size;
  wnn_model *m = load(conv_net(1, NULL, 0, 1, NULL, &size), &size, NULL);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  size_t first_arena = wnn_executor_arena_bytes(ex);
  CHECK(first_arena == wnn_model_arena_bytes(m));
  for (size_t k = 0; k < sizeof conv_shapes / sizeof *conv_shapes; k++) {
    int64_t shape[4];
    memcpy(shape, conv_shapes[k], sizeof shape);
    CHECK_OK(wnn_executor_resize_input_by_name(ex, "x", 4, shape));
    wnn_tensor_info info;
    CHECK_OK(wnn_executor_input_info(ex, 0, &info));
    CHECK(info.ndim == 4 && !memcmp(info.shape, shape, sizeof shape));
    CHECK(info.nbytes == numel(4, shape) * 4);
    CHECK_OK(wnn_executor_output_info(ex, 0, &info));
    CHECK(info.ndim == 2 && info.shape[0] == shape[0] && info.shape[1] == 5);
    float got[4 * 5], want[4 * 5];
    run_f32(ex, 4, shape, (uint32_t)(100 + k), got, (size_t)shape[0] * 5);
    fixed_conv_output(shape, (uint32_t)(100 + k), want);
    CHECK(same_bits(got, want, (size_t)shape[0] * 5));
    DLTensor view;
    CHECK_OK(wnn_executor_get_output(ex, 0, &view));
    CHECK(view.ndim == 2 && view.shape[0] == shape[0] && view.shape[1] == 5);
    CHECK(memcmp(view.data, got, (size_t)shape[0] * 5 * sizeof(float)) == 0);
  }
  /* 16x16 needs more than the reference plan: the arena grew, and stays. */
  CHECK(wnn_executor_arena_bytes(ex) > first_arena);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

TEST(model_info_names_dynamic_dims) {
  size_t size;
  wnn_model *m = load(conv_net(1, NULL, 16, 2, NULL, &size), &size, NULL);
  if (!m) return;
  wnn_tensor_info info;
  CHECK_OK(wnn_model_input_info(m, 0, &info));
  CHECK(info.ndim == 4 && info.shape[0] == WNN_DIM_DYNAMIC && info.shape[1] == 3 &&
        info.shape[2] == WNN_DIM_DYNAMIC && info.shape[3] == WNN_DIM_DYNAMIC);
  CHECK(info.nbytes == 2 * 3 * 8 * 8 * 4); /* at the defaults */
  wnn_dim_info d;
  CHECK_OK(wnn_model_input_dim(m, 0, 3, &d));
  CHECK(d.size == WNN_DIM_DYNAMIC && d.name && !strcmp(d.name, "width") && d.default_size == 8 &&
        d.max_size == 16 && d.multiple == 2);
  CHECK_OK(wnn_model_input_dim(m, 0, 1, &d));
  CHECK(d.size == 3 && d.name == NULL);
  CHECK_STATUS(wnn_model_input_dim(m, 0, 4, &d), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_model_input_dim(m, 1, 0, &d), WNN_ERR_OUT_OF_RANGE);
  /* The output's shape is the reference plan's. */
  CHECK_OK(wnn_model_output_info(m, 0, &info));
  CHECK(info.ndim == 2 && info.shape[0] == 2 && info.shape[1] == 5);
  /* The metadata names the dims too. */
  CHECK(strstr(wnn_model_metadata(m), "\"batch\"") != NULL);
  wnn_model_free(m);
}

/* ------------------------------------------------------ shape-node chain */

/* x f32[B,S,4] ("batch", "seq"); shape nodes: s = Shape(x), b = Gather(s,
 * [0]), q = Gather(s, [1]), t = Concat(q, b, [4]); then y = Reshape(x, t)
 * + bias[4] -> "y" f32[S,B,4]. Fixed: the target is a param [S, B, 4]. */
static void *chain_net(int dynamic, int64_t B, int64_t S, size_t *size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  float bias[4] = {0.5f, -1.0f, 2.0f, 0.25f};
  int64_t bs[] = {4}, one[] = {1}, three[] = {3}, i0[] = {0}, i1[] = {1}, four[] = {4};
  int x, BI, y, sum, T;
  int ok = !wnn_builder_add_param(b, "bias", WNN_DTYPE_F32, 1, bs, bias, &BI);
  if (dynamic) {
    const char *names[] = {"batch", "seq", NULL};
    int64_t shape[] = {0, 0, 4};
    int s, I0, I1, F, gb, gq;
    ok = ok && !wnn_builder_add_dim(b, "batch", 2, 0, 1) && !wnn_builder_add_dim(b, "seq", 3, 0, 1) &&
         !wnn_builder_add_dynamic_input(b, "x", WNN_DTYPE_F32, 3, shape, names, &x) &&
         !wnn_builder_add_param(b, "i0", WNN_DTYPE_I64, 1, one, i0, &I0) &&
         !wnn_builder_add_param(b, "i1", WNN_DTYPE_I64, 1, one, i1, &I1) &&
         !wnn_builder_add_param(b, "four", WNN_DTYPE_I64, 1, one, four, &F) &&
         !wnn_builder_add_shape_node(b, "Shape", "shape", &x, 1, NULL, 1, &s) &&
         !wnn_builder_add_shape_node(b, "Gather", "g0", (int[]){s, I0}, 2, NULL, 1, &gb) &&
         !wnn_builder_add_shape_node(b, "Gather", "g1", (int[]){s, I1}, 2, NULL, 1, &gq) &&
         !wnn_builder_add_shape_node(b, "Concat", "target", (int[]){gq, gb, F}, 3, "{\"axis\":0}",
                                     1, &T);
  } else {
    int64_t shape[] = {B, S, 4}, target[] = {S, B, 4};
    ok = ok && !wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 3, shape, &x) &&
         !wnn_builder_add_param(b, "target", WNN_DTYPE_I64, 1, three, target, &T);
  }
  ok = ok && !wnn_builder_add_node(b, "Reshape", "reshape", (int[]){x, T}, 2, NULL, 1, &y) &&
       !wnn_builder_add_node(b, "Add", "add", (int[]){y, BI}, 2, NULL, 1, &sum) &&
       !wnn_builder_add_output(b, sum, "y");
  void *data = NULL;
  if (!ok || wnn_builder_finish(b, &data, size)) {
    printf("  chain_net: %s\n", wnn_last_error());
    data = NULL;
  }
  wnn_builder_free(b);
  return data;
}

TEST(shape_node_chain_feeds_reshape) {
  size_t size;
  wnn_model *m = load(chain_net(1, 0, 0, &size), &size, NULL);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  static const int64_t shapes[][3] = {{2, 3, 4}, {5, 1, 4}, {1, 7, 4}, {3, 6, 4}, {2, 3, 4}};
  for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
    int64_t shape[3];
    memcpy(shape, shapes[k], sizeof shape);
    CHECK_OK(wnn_executor_resize_input(ex, 0, 3, shape));
    wnn_tensor_info info;
    CHECK_OK(wnn_executor_output_info(ex, 0, &info));
    CHECK(info.ndim == 3 && info.shape[0] == shape[1] && info.shape[1] == shape[0] &&
          info.shape[2] == 4);
    size_t n = numel(3, shape);
    float got[7 * 6 * 4], want[7 * 6 * 4];
    run_f32(ex, 3, shape, (uint32_t)(7 + k), got, n);
    size_t fsize;
    wnn_model *fixed = load(chain_net(0, shape[0], shape[1], &fsize), &fsize, NULL);
    if (!fixed) break;
    wnn_executor *fx = NULL;
    CHECK_OK(wnn_executor_create(fixed, &fx));
    run_f32(fx, 3, shape, (uint32_t)(7 + k), want, n);
    CHECK(same_bits(got, want, n));
    wnn_executor_destroy(fx);
    wnn_model_free(fixed);
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

/* A shape node may only read bytes known before a run. */
TEST(builder_refuses_a_shape_node_on_run_time_data) {
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  int64_t shape[] = {2, 4};
  int x, y;
  CHECK_OK(wnn_builder_add_input(b, "x", WNN_DTYPE_F32, 2, shape, &x));
  CHECK_STATUS(wnn_builder_add_shape_node(b, "Relu", NULL, &x, 1, NULL, 1, &y),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK(strstr(wnn_last_error(), "computed only by a run") != NULL);
  wnn_builder_free(b);
}

/* ------------------------------------------------------- failing resizes */

/* x f32[N,4] ("n", max 6) -> Reshape [-1, 8] ('split') -> Relu -> "y". An
 * odd n leaves 4n elements that rows of 8 cannot hold: the Reshape's
 * prepare refuses. */
static void *split_net(size_t *size) {
  wnn_builder *b = NULL;
  if (wnn_builder_create(NULL, &b)) return NULL;
  const char *names[] = {"n", NULL};
  int64_t shape[] = {0, 4}, ts[] = {2}, target[] = {-1, 8};
  int x, T, r, y;
  int ok = !wnn_builder_add_dim(b, "n", 2, 6, 1) &&
           !wnn_builder_add_dynamic_input(b, "x", WNN_DTYPE_F32, 2, shape, names, &x) &&
           !wnn_builder_add_param(b, "target", WNN_DTYPE_I64, 1, ts, target, &T) &&
           !wnn_builder_add_node(b, "Reshape", "split", (int[]){x, T}, 2, NULL, 1, &r) &&
           !wnn_builder_add_node(b, "Relu", NULL, &r, 1, NULL, 1, &y) &&
           !wnn_builder_add_output(b, y, "y");
  void *data = NULL;
  if (!ok || wnn_builder_finish(b, &data, size)) {
    printf("  split_net: %s\n", wnn_last_error());
    data = NULL;
  }
  wnn_builder_free(b);
  return data;
}

static void expect_message(const wnn_executor *ex, const char *needle) {
  if (!strstr(wnn_executor_errmsg(ex), needle)) {
    printf("  message \"%s\" lacks \"%s\"\n", wnn_executor_errmsg(ex), needle);
    CHECK(0);
  }
  CHECK(!strcmp(wnn_executor_errmsg(ex), wnn_last_error()));
}

TEST(failed_resizes_leave_the_executor_as_it_was) {
  size_t size;
  wnn_model *m = load(conv_net(1, NULL, 12, 2, NULL, &size), &size, NULL);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  int64_t shape[] = {3, 3, 6, 10};
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, shape));
  float before[15], after[15];
  run_f32(ex, 4, shape, 42, before, 15);
  size_t arena = wnn_executor_arena_bytes(ex);

  int64_t over[] = {3, 3, 6, 14};
  CHECK_STATUS(wnn_executor_resize_input(ex, 0, 4, over), WNN_ERR_SHAPE);
  expect_message(ex, "\"width\" = 14 is over its max 12");
  int64_t odd[] = {3, 3, 6, 9};
  CHECK_STATUS(wnn_executor_resize_input(ex, 0, 4, odd), WNN_ERR_SHAPE);
  expect_message(ex, "\"width\" = 9 is not a multiple of 2");
  int64_t fixed[] = {3, 4, 6, 10};
  CHECK_STATUS(wnn_executor_resize_input(ex, 0, 4, fixed), WNN_ERR_SHAPE);
  expect_message(ex, "dim 1 is fixed at 3");
  CHECK_STATUS(wnn_executor_resize_input(ex, 0, 3, shape), WNN_ERR_SHAPE);
  CHECK_STATUS(wnn_executor_resize_input(ex, 1, 4, shape), WNN_ERR_OUT_OF_RANGE);
  CHECK_STATUS(wnn_executor_resize_input_by_name(ex, "nope", 4, shape), WNN_ERR_NOT_FOUND);
  /* set_input of another shape than the current one stays an error. */
  float x[3 * 3 * 6 * 12] = {0};
  int64_t other[] = {3, 3, 6, 12};
  DLTensor t = dl_tensor(x, WNN_DTYPE_F32, 4, other);
  CHECK_STATUS(wnn_executor_set_input(ex, 0, &t), WNN_ERR_SHAPE);

  /* Still at [3,3,6,10], same arena, same outputs. */
  wnn_tensor_info info;
  CHECK_OK(wnn_executor_input_info(ex, 0, &info));
  CHECK(!memcmp(info.shape, shape, sizeof shape));
  CHECK(wnn_executor_arena_bytes(ex) == arena);
  run_f32(ex, 4, shape, 42, after, 15);
  CHECK(same_bits(before, after, 15));
  wnn_executor_destroy(ex);
  wnn_model_free(m);

  /* A prepare that refuses the shapes: the message names the node. */
  m = load(split_net(&size), &size, NULL);
  if (!m) return;
  CHECK_OK(wnn_executor_create(m, &ex));
  int64_t four[] = {4, 4}, three[] = {3, 4};
  float b16[16], a16[16];
  CHECK_OK(wnn_executor_resize_input(ex, 0, 2, four));
  run_f32(ex, 2, four, 5, b16, 16);
  CHECK_STATUS(wnn_executor_resize_input(ex, 0, 2, three), WNN_ERR_SHAPE);
  expect_message(ex, "node 0 (Reshape 'split')");
  CHECK_OK(wnn_executor_output_info(ex, 0, &info));
  CHECK(info.ndim == 2 && info.shape[0] == 2 && info.shape[1] == 8);
  run_f32(ex, 2, four, 5, a16, 16);
  CHECK(same_bits(b16, a16, 16));
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

/* a f32["n",4] + b f32["n",4] -> "y". */
TEST(inputs_sharing_a_dim_resize_together) {
  wnn_builder *b = NULL;
  CHECK_OK(wnn_builder_create(NULL, &b));
  const char *names[] = {"n", NULL};
  int64_t shape[] = {0, 4};
  int x, z, y;
  CHECK_OK(wnn_builder_add_dim(b, "n", 1, 0, 1));
  CHECK_OK(wnn_builder_add_dynamic_input(b, "a", WNN_DTYPE_F32, 2, shape, names, &x));
  CHECK_OK(wnn_builder_add_dynamic_input(b, "b", WNN_DTYPE_F32, 2, shape, names, &z));
  CHECK_OK(wnn_builder_add_node(b, "Add", NULL, (int[]){x, z}, 2, NULL, 1, &y));
  CHECK_OK(wnn_builder_add_output(b, y, "y"));
  void *data = NULL;
  size_t size;
  CHECK_OK(wnn_builder_finish(b, &data, &size));
  wnn_builder_free(b);
  wnn_model *m = load(data, &size, NULL);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  int64_t three[] = {3, 4}, two[] = {2, 4};
  CHECK_STATUS(wnn_executor_resize_input(ex, 0, 2, three), WNN_ERR_SHAPE);
  expect_message(ex, "dim \"n\" is 3 in input 0 (a) but 1 in input 1 (b)");
  wnn_input_shape both[] = {{0, 2, three}, {1, 2, three}};
  CHECK_OK(wnn_executor_resize(ex, 2, both));
  wnn_input_shape clash[] = {{0, 2, two}, {1, 2, three}};
  CHECK_STATUS(wnn_executor_resize(ex, 2, clash), WNN_ERR_SHAPE);
  wnn_input_shape twice[] = {{0, 2, three}, {0, 2, three}};
  CHECK_STATUS(wnn_executor_resize(ex, 2, twice), WNN_ERR_INVALID_ARGUMENT);
  float av[12], bv[12], out[12];
  for (int i = 0; i < 12; i++) av[i] = (float)i, bv[i] = 0.5f * (float)i;
  DLTensor ta = dl_tensor(av, WNN_DTYPE_F32, 2, three), tb = dl_tensor(bv, WNN_DTYPE_F32, 2, three);
  CHECK_OK(wnn_executor_set_input(ex, 0, &ta));
  CHECK_OK(wnn_executor_set_input(ex, 1, &tb));
  CHECK_OK(wnn_executor_run(ex));
  CHECK_OK(wnn_executor_copy_output(ex, 0, out, sizeof out));
  for (int i = 0; i < 12; i++) CHECK(out[i] == 1.5f * (float)i);
  /* wnn_model_predict resizes its private executor to the inputs. */
  float out2[12] = {0};
  DLTensor ins[] = {ta, tb}, outs[] = {dl_tensor(out2, WNN_DTYPE_F32, 2, three)};
  CHECK_OK(wnn_model_predict(m, ins, 2, outs, 1));
  CHECK(!memcmp(out, out2, sizeof out));
  outs[0] = dl_tensor(out2, WNN_DTYPE_F32, 2, two);
  CHECK_STATUS(wnn_model_predict(m, ins, 2, outs, 1), WNN_ERR_SHAPE);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

TEST(a_fixed_model_takes_only_its_shapes) {
  int64_t shape[] = {1, 3, 4, 4};
  size_t size;
  wnn_model *m = load(conv_net(0, shape, 0, 1, NULL, &size), &size, NULL);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, shape));
  int64_t other[] = {2, 3, 4, 4};
  CHECK_STATUS(wnn_executor_resize_input(ex, 0, 4, other), WNN_ERR_SHAPE);
  wnn_dim_info d;
  CHECK_OK(wnn_model_input_dim(m, 0, 0, &d));
  CHECK(d.size == 1 && d.name == NULL);
  wnn_executor_destroy(ex);
  wnn_model_free(m);
}

/* --------------------------------------------- plan cache and allocations */

TEST(run_and_cached_resizes_allocate_nothing) {
  counter c = {0, 0, -1};
  wnn_allocator a = {count_alloc, count_free, &c};
  size_t size;
  wnn_model *m = load(conv_net(1, NULL, 0, 1, NULL, &size), &size, &a);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  int64_t s[6][4] = {{1, 3, 5, 7}, {3, 3, 12, 10}, {1, 3, 16, 16}, {4, 3, 3, 9}, {2, 3, 6, 6},
                     {2, 3, 8, 8} /* the reference */};
  float out[4 * 5];
  /* Four shapes: each resize plans (allocates); runs allocate nothing. */
  for (int k = 0; k < 4; k++) {
    long before = c.calls;
    CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[k]));
    CHECK(c.calls > before);
    before = c.calls;
    for (int r = 0; r < 3; r++) run_f32(ex, 4, s[k], (uint32_t)r, out, (size_t)s[k][0] * 5);
    /* run_f32's own malloc is not the library's allocator */
    CHECK(c.calls == before);
  }
  /* Back to each of them, to the reference, to the same shapes: nothing. */
  long before = c.calls;
  for (int k = 3; k >= 0; k--) {
    CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[k]));
    CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[k]));
    run_f32(ex, 4, s[k], 9, out, (size_t)s[k][0] * 5);
  }
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[5]));
  run_f32(ex, 4, s[5], 9, out, 10);
  CHECK(c.calls == before);
  if (c.calls != before) printf("  %ld allocations\n", c.calls - before);
  /* A fifth shape set evicts the least recently used (s[3]: the others were
   * used after it, in the loop above): going back to it plans again. */
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[4]));
  before = c.calls;
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[0]));
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[1]));
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[2]));
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[4]));
  CHECK(c.calls == before);
  CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[3]));
  CHECK(c.calls > before);
  /* And the outputs there are still right. */
  float want[4 * 5];
  run_f32(ex, 4, s[3], 77, out, 20);
  fixed_conv_output(s[3], 77, want);
  CHECK(same_bits(out, want, 20));
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  CHECK(c.live == 0);
}

TEST(bounded_model_plans_its_maxima_at_creation) {
  counter c = {0, 0, -1};
  wnn_allocator a = {count_alloc, count_free, &c};
  size_t size;
  wnn_model *m = load(conv_net(1, NULL, 16, 1, NULL, &size), &size, &a);
  if (!m) return;
  wnn_executor *ex = NULL;
  CHECK_OK(wnn_executor_create(m, &ex));
  size_t arena = wnn_executor_arena_bytes(ex);
  /* The reference plan (2x3x8x8) is smaller than the maxima's. */
  CHECK(arena == wnn_model_arena_bytes(m));
  int64_t s[][4] = {{16, 3, 16, 16}, {1, 3, 1, 1}, {7, 3, 16, 3}, {16, 3, 2, 16}};
  for (int k = 0; k < 4; k++) {
    CHECK_OK(wnn_executor_resize_input(ex, 0, 4, s[k]));
    CHECK(wnn_executor_arena_bytes(ex) == arena);
    float out[16 * 5], want[16 * 5];
    run_f32(ex, 4, s[k], (uint32_t)k, out, (size_t)s[k][0] * 5);
    fixed_conv_output(s[k], (uint32_t)k, want);
    CHECK(same_bits(out, want, (size_t)s[k][0] * 5));
  }
  wnn_executor_destroy(ex);
  wnn_model_free(m);
  CHECK(c.live == 0);
  /* The same model unbounded allocates the reference plan's arena only. */
  wnn_model *u = load(conv_net(1, NULL, 0, 1, NULL, &size), &size, NULL);
  if (!u) return;
  CHECK(wnn_model_arena_bytes(u) < arena);
  wnn_model_free(u);
}

TEST(allocation_failures_in_resize) {
  /* Fail the k-th allocation of a resize for every k: each failure is
   * WNN_ERR_OUT_OF_MEMORY, leaks nothing and leaves the executor running at
   * its previous shape. */
  size_t size;
  void *data = conv_net(1, NULL, 0, 1, NULL, &size);
  if (!data) return;
  int64_t from[] = {1, 3, 5, 7}, to[] = {3, 3, 20, 20};
  float want[5], got[5];
  int done = 0;
  for (long k = 0; k < 1000 && !done; k++) {
    counter c = {0, 0, -1};
    wnn_allocator a = {count_alloc, count_free, &c};
    wnn_load_options opt = {WNN_LOAD_BORROW, WNN_KERNELS_AUTO, &a};
    wnn_model *m = NULL;
    wnn_executor *ex = NULL;
    CHECK_OK(wnn_model_load(data, size, &opt, &m));
    CHECK_OK(wnn_executor_create(m, &ex));
    CHECK_OK(wnn_executor_resize_input(ex, 0, 4, from));
    if (k == 0) run_f32(ex, 4, from, 3, want, 5);
    c.fail_at = c.calls + k;
    wnn_status st = wnn_executor_resize_input(ex, 0, 4, to);
    c.fail_at = -1;
    if (st == WNN_OK) {
      done = 1;
    } else {
      CHECK_STATUS(st, WNN_ERR_OUT_OF_MEMORY);
      wnn_tensor_info info;
      CHECK_OK(wnn_executor_input_info(ex, 0, &info));
      CHECK(!memcmp(info.shape, from, sizeof from));
      run_f32(ex, 4, from, 3, got, 5);
      CHECK(same_bits(got, want, 5));
    }
    wnn_executor_destroy(ex);
    wnn_model_free(m);
    CHECK(c.live == 0);
  }
  CHECK(done);
  free(data);
}

TEST(two_executors_at_different_shapes) {
  size_t size;
  wnn_model *m = load(conv_net(1, NULL, 0, 1, NULL, &size), &size, NULL);
  if (!m) return;
  wnn_executor *e1 = NULL, *e2 = NULL;
  CHECK_OK(wnn_executor_create(m, &e1));
  CHECK_OK(wnn_executor_create(m, &e2));
  int64_t s1[] = {1, 3, 5, 7}, s2[] = {3, 3, 12, 10};
  CHECK_OK(wnn_executor_resize_input(e1, 0, 4, s1));
  CHECK_OK(wnn_executor_resize_input(e2, 0, 4, s2));
  float w1[5], w2[15], g1[5], g2[15];
  fixed_conv_output(s1, 11, w1);
  fixed_conv_output(s2, 12, w2);
  for (int r = 0; r < 3; r++) {
    run_f32(e1, 4, s1, 11, g1, 5);
    run_f32(e2, 4, s2, 12, g2, 15);
    CHECK(same_bits(g1, w1, 5));
    CHECK(same_bits(g2, w2, 15));
  }
  /* The model still reports its reference shapes. */
  wnn_tensor_info info;
  CHECK_OK(wnn_model_output_info(m, 0, &info));
  CHECK(info.shape[0] == 2);
  CHECK_OK(wnn_executor_output_info(e1, 0, &info));
  CHECK(info.shape[0] == 1);
  CHECK_OK(wnn_executor_output_info(e2, 0, &info));
  CHECK(info.shape[0] == 3);
  wnn_executor_destroy(e1);
  wnn_executor_destroy(e2);
  wnn_model_free(m);
}

/* -------------------------------------------------------------- loader */

static uint8_t *artifact(const char *graph, uint64_t features, size_t *size) {
  wnn_section_data sec[2] = {{WNN_SECTION_GRAPH, graph, strlen(graph)},
                             {WNN_SECTION_METADATA, "{}", 2}};
  uint8_t *buf = wnn_container_write(&wnn_default_allocator, sec, 2, size);
  if (buf && features) {
    wnn_wr64(buf + 24, features);
    wnn_container_reseal(buf);
  }
  return buf;
}

static void expect_graph(const char *graph, uint64_t features, wnn_status want,
                         const char *needle) {
  size_t size;
  uint8_t *buf = artifact(graph, features, &size);
  wnn_model *m = NULL;
  wnn_status st = wnn_model_load(buf, size, NULL, &m);
  CHECK_STATUS(st, want);
  if (st != WNN_OK && needle && !strstr(wnn_last_error(), needle)) {
    printf("  message \"%s\" lacks \"%s\"\n", wnn_last_error(), needle);
    CHECK(0);
  }
  wnn_model_free(m);
  wnn_free(&wnn_default_allocator, buf, size, 64);
}

/* Relu of x ["n", 3] (default 2): DIMS, then the value list's tail. */
#define DYN_GRAPH(dims, xshape, yshape)                                                       \
  "{\"dims\":" dims ",\"values\":[{\"name\":\"x\",\"kind\":\"input\",\"dtype\":\"float32\","  \
  "\"shape\":" xshape ",\"offset\":0},{\"name\":\"y\",\"kind\":\"arena\",\"dtype\":\"float32\"," \
  "\"shape\":" yshape ",\"offset\":64}],\"inputs\":[0],\"outputs\":[1],\"nodes\":[{\"op\":8,"  \
  "\"inputs\":[0],\"outputs\":[1]}],\"arena_bytes\":128}"
#define DYN UINT64_C(16)

TEST(loader_reads_dims) {
  expect_graph(DYN_GRAPH("{\"n\":{\"default\":2,\"max\":4}}", "[\"n\",3]", "[2,3]"), DYN, WNN_OK,
               NULL);
  expect_graph(DYN_GRAPH("{\"n\":{\"default\":2,\"max\":null,\"multiple\":2}}", "[\"n\",3]", "[2,3]"),
               DYN, WNN_OK, NULL);
  /* Bits 4 and 5 are known; bit 6 is not. */
  expect_graph(DYN_GRAPH("{\"n\":{\"default\":2}}", "[\"n\",3]", "[2,3]"),
               DYN | (UINT64_C(1) << 6), WNN_ERR_FEATURE, "0x40");
}

TEST(loader_rejects_malformed_dims) {
  static const struct {
    const char *dims, *xshape, *yshape;
    uint64_t features;
    const char *needle;
  } cases[] = {
      {"{\"n\":{\"default\":2}}", "[\"m\",3]", "[2,3]", DYN, "names the dim \"m\", which graph.dims does not declare"},
      {"{\"n\":{\"default\":5,\"max\":4}}", "[\"n\",3]", "[5,3]", DYN, "dims \"n\": default 5 is over its max 4"},
      {"{\"n\":{\"default\":3,\"multiple\":2}}", "[\"n\",3]", "[3,3]", DYN, "dims \"n\": default 3 is not a multiple of 2"},
      {"{\"n\":{\"default\":-1}}", "[\"n\",3]", "[2,3]", DYN, "dims \"n\": default must be an integer"},
      {"{\"n\":{\"default\":2,\"max\":-3}}", "[\"n\",3]", "[2,3]", DYN, "dims \"n\": max must be null or"},
      {"{\"n\":{\"default\":2,\"max\":0}}", "[\"n\",3]", "[2,3]", DYN, "dims \"n\": max must be null or"},
      {"{\"n\":{\"default\":2,\"multiple\":0}}", "[\"n\",3]", "[2,3]", DYN, "dims \"n\": multiple must be"},
      {"{\"n\":{\"default\":2}}", "[\"n\",3]", "[\"n\",3]", DYN, "values[1].shape[0] is the dim name \"n\"; only inputs name dims"},
      {"{\"n\":{\"default\":2},\"k\":{\"default\":1}}", "[\"n\",3]", "[2,3]", DYN, "dims \"k\" is named by no input"},
      {"{\"n\":2}", "[\"n\",3]", "[2,3]", DYN, "dims \"n\" must be an object"},
      {"[]", "[2,3]", "[2,3]", DYN, "dims must be an object"},
      {"{\"n\":{\"default\":2}}", "[\"n\",3]", "[2,3]", 0, "does not set the required feature bit 4 DYNAMIC"},
      {"{\"n\":{\"default\":2}}", "[\"n\",3]", "[3,3]", DYN, "recorded as float32[3, 3] but the op gives float32[2, 3]"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char graph[1024];
    snprintf(graph, sizeof graph, DYN_GRAPH("%s", "%s", "%s"), cases[i].dims, cases[i].xshape,
             cases[i].yshape);
    expect_graph(graph, cases[i].features, WNN_ERR_MALFORMED, cases[i].needle);
  }
}

/* Shape -> the "shape" kind; a shape node reading a run's data; flags
 * without the bit. */
#define SHAPE_GRAPH(kind, node_extra)                                                         \
  "{\"dims\":{\"n\":{\"default\":2}},\"values\":[{\"name\":\"x\",\"kind\":\"input\","          \
  "\"dtype\":\"float32\",\"shape\":[\"n\",3],\"offset\":0},{\"name\":\"s\",\"kind\":" kind     \
  ",\"dtype\":\"int64\",\"shape\":[2]" node_extra "}],\"inputs\":[0],\"outputs\":[1],"          \
  "\"nodes\":[{\"op\":%d,\"inputs\":[0],\"outputs\":[1],\"shape\":1}],\"arena_bytes\":64}"

TEST(loader_checks_shape_nodes) {
  char graph[1024];
  snprintf(graph, sizeof graph, SHAPE_GRAPH("\"shape\"", ""), WNN_OP_CODE(shape));
  expect_graph(graph, DYN, WNN_OK, NULL);
  expect_graph(graph, 0, WNN_ERR_MALFORMED, "bit 4 DYNAMIC");
  snprintf(graph, sizeof graph, SHAPE_GRAPH("\"arena\"", ",\"offset\":0"), WNN_OP_CODE(shape));
  expect_graph(graph, DYN, WNN_ERR_MALFORMED, "must be of kind shape");
}

TEST(loader_rejects_a_shape_node_on_run_time_data) {
  /* Relu (code 8) as a shape node on input x: its bytes exist only in a run. */
  const char *graph =
      "{\"dims\":{\"n\":{\"default\":2}},\"values\":[{\"name\":\"x\",\"kind\":\"input\","
      "\"dtype\":\"float32\",\"shape\":[\"n\",3],\"offset\":0},{\"name\":\"y\",\"kind\":\"shape\","
      "\"dtype\":\"float32\",\"shape\":[2,3]}],\"inputs\":[0],\"outputs\":[1],"
      "\"nodes\":[{\"op\":8,\"inputs\":[0],\"outputs\":[1],\"shape\":1}],\"arena_bytes\":64}";
  expect_graph(graph, DYN, WNN_ERR_MALFORMED, "is a shape node but reads the bytes of value 0 (x)");
}

int main(void) {
  RUN(conv_net_at_several_shapes_matches_fixed_artifacts);
  RUN(model_info_names_dynamic_dims);
  RUN(shape_node_chain_feeds_reshape);
  RUN(builder_refuses_a_shape_node_on_run_time_data);
  RUN(failed_resizes_leave_the_executor_as_it_was);
  RUN(inputs_sharing_a_dim_resize_together);
  RUN(a_fixed_model_takes_only_its_shapes);
  RUN(run_and_cached_resizes_allocate_nothing);
  RUN(bounded_model_plans_its_maxima_at_creation);
  RUN(allocation_failures_in_resize);
  RUN(two_executors_at_different_shapes);
  RUN(loader_reads_dims);
  RUN(loader_rejects_malformed_dims);
  RUN(loader_checks_shape_nodes);
  RUN(loader_rejects_a_shape_node_on_run_time_data);
  return test_summary();
}
