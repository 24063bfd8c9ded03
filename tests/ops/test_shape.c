/* Reshape, Flatten, Identity (aliases: shapes only), Transpose and Concat
 * (exact copies, any dtype: float32, int32, int64, uint8, int8, bool). */
#include "op_harness.h"

static int out_is(const op_case *c, int ndim, const int64_t *dims) {
  if (wnn_shape_equal(c->outputs[0].ndim, c->outputs[0].dims, ndim, dims)) return 1;
  printf("  %s: output has %d dims [%lld, %lld, ...]\n", test_current_, c->outputs[0].ndim,
         (long long)c->outputs[0].dims[0], (long long)c->outputs[0].dims[1]);
  return 0;
}
#define OUT_IS(c, ...) \
  out_is(c, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})

static wnn_status reshape(op_case *c, wnn_tdesc x, const int64_t *shape, int n, const char *attrs) {
  wnn_tdesc in[2] = {x, td(WNN_DTYPE_I64, 1, (int64_t[]){n})};
  in[1].data = shape;
  return op_prepare(c, "Reshape", attrs, 2, in, 1);
}

TEST(aliases_have_no_run) {
  const char *names[3] = {"Reshape", "Flatten", "Identity"};
  for (int i = 0; i < 3; i++) {
    const wnn_op *op = wnn_op_by_name(names[i]);
    CHECK(op && (op->flags & WNN_OP_ALIAS) && !op->run && !op->reference);
  }
}

TEST(reshape_shapes) {
  op_case c;
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 4);
  CHECK_OK(reshape(&c, x, (int64_t[]){4, 6}, 2, NULL));
  CHECK(OUT_IS(&c, 4, 6));
  CHECK_OK(reshape(&c, x, (int64_t[]){-1}, 1, NULL));
  CHECK(OUT_IS(&c, 24));
  CHECK_OK(reshape(&c, x, (int64_t[]){0, -1}, 2, NULL)); /* 0 copies dim 0 */
  CHECK(OUT_IS(&c, 2, 12));
  CHECK_OK(reshape(&c, x, (int64_t[]){0, 0, 2, -1}, 4, NULL));
  CHECK(OUT_IS(&c, 2, 3, 2, 2));
  CHECK_OK(reshape(&c, TD(WNN_DTYPE_I32, 0, 3), (int64_t[]){3, 0}, 2, "{\"allowzero\":1}"));
  CHECK(OUT_IS(&c, 3, 0)); /* allowzero: 0 is a real zero */
  CHECK_OK(reshape(&c, TD(WNN_DTYPE_I64, 1, 1), (int64_t[]){1}, 0, NULL));
  CHECK(c.outputs[0].ndim == 0 && c.outputs[0].dtype == WNN_DTYPE_I64); /* to a scalar */
}

TEST(reshape_rejects) {
  op_case c;
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 4);
  CHECK_STATUS(reshape(&c, x, (int64_t[]){5, -1}, 2, NULL), WNN_ERR_SHAPE);
  CHECK(strstr(c.msg, "cannot be split"));
  CHECK_STATUS(reshape(&c, x, (int64_t[]){-1, -1}, 2, NULL), WNN_ERR_SHAPE);
  CHECK(strstr(c.msg, "more than one -1"));
  CHECK_STATUS(reshape(&c, x, (int64_t[]){5, 5}, 2, NULL), WNN_ERR_SHAPE);
  CHECK(strstr(c.msg, "shape has 25 elements, input has 24"));
  CHECK_STATUS(reshape(&c, x, (int64_t[]){-2, 12}, 2, NULL), WNN_ERR_SHAPE);
  CHECK_STATUS(reshape(&c, x, (int64_t[]){0, -1}, 2, "{\"allowzero\":1}"), WNN_ERR_SHAPE);
  CHECK_STATUS(reshape(&c, x, (int64_t[]){24}, 1, "{\"allowzero\":3}"), WNN_ERR_BAD_ATTRIBUTE);
  CHECK_STATUS(reshape(&c, TD(WNN_DTYPE_F32, 4), (int64_t[]){2, 2, 0}, 3, NULL), WNN_ERR_SHAPE);
  wnn_tdesc in[2] = {x, TD(WNN_DTYPE_I64, 2)}; /* shape not constant */
  CHECK(op_fails("Reshape", NULL, 2, in, 1, WNN_ERR_UNSUPPORTED, "must be a constant"));
  in[1] = TD(WNN_DTYPE_I32, 2);
  CHECK(op_fails("Reshape", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (shape) is int32"));
  CHECK(op_fails("Reshape", NULL, 1, in, 1, WNN_ERR_MALFORMED, "1 inputs"));
}

TEST(flatten_identity) {
  op_case c;
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 4, 5);
  CHECK_OK(op_prepare(&c, "Flatten", NULL, 1, &x, 1));
  CHECK(OUT_IS(&c, 2, 60));
  CHECK_OK(op_prepare(&c, "Flatten", "{\"axis\":0}", 1, &x, 1));
  CHECK(OUT_IS(&c, 1, 120));
  CHECK_OK(op_prepare(&c, "Flatten", "{\"axis\":4}", 1, &x, 1));
  CHECK(OUT_IS(&c, 120, 1));
  CHECK_OK(op_prepare(&c, "Flatten", "{\"axis\":-1}", 1, &x, 1));
  CHECK(OUT_IS(&c, 24, 5));
  CHECK_OK(op_prepare(&c, "Flatten", "{\"axis\":-4}", 1, &x, 1));
  CHECK(OUT_IS(&c, 1, 120));
  CHECK(op_fails("Flatten", "{\"axis\":5}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "axis 5 out of range"));
  CHECK(op_fails("Flatten", "{\"axis\":-5}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE, "axis -5"));
  const wnn_tdesc b = TD(WNN_DTYPE_BOOL, 7, 2);
  CHECK_OK(op_prepare(&c, "Identity", NULL, 1, &b, 1));
  CHECK(OUT_IS(&c, 7, 2) && c.outputs[0].dtype == WNN_DTYPE_BOOL);
  CHECK(op_fails("Identity", NULL, 1, &TD_OMITTED, 1, WNN_ERR_MALFORMED, "omitted"));
}

TEST(transpose) {
  const wnn_dtype dtypes[3] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64};
  for (int d = 0; d < 3; d++) {
    wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 4, 5);
    x.dtype = dtypes[d];
    CHECK(op_check("Transpose", NULL, 1, &x, 0, 0));
    CHECK(op_check("Transpose", "{\"perm\":[0,2,3,1]}", 1, &x, 0, 0));
    CHECK(op_check("Transpose", "{\"perm\":[0,1,2,3]}", 1, &x, 0, 0));
    CHECK(op_check("Transpose", "{\"perm\":[1,0,3,2]}", 1, &x, 0, 0));
  }
  const wnn_dtype bytes[3] = {WNN_DTYPE_U8, WNN_DTYPE_I8, WNN_DTYPE_BOOL};
  for (int d = 0; d < 3; d++) {
    wnn_tdesc b = TD(WNN_DTYPE_U8, 3, 7);
    b.dtype = bytes[d];
    CHECK(op_check("Transpose", NULL, 1, &b, 0, 0));
    b = TD(WNN_DTYPE_U8, 2, 3, 4, 5);
    b.dtype = bytes[d];
    CHECK(op_check("Transpose", "{\"perm\":[3,1,0,2]}", 1, &b, 0, 0));
  }
  const wnn_tdesc s = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_check("Transpose", NULL, 1, &s, 0, 0));
  op_case c;
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 4);
  CHECK_OK(op_prepare(&c, "Transpose", NULL, 1, &x, 1));
  CHECK(OUT_IS(&c, 4, 3, 2)); /* default: reversed */
  float m[6] = {1, 2, 3, 4, 5, 6};
  void *in[1] = {m};
  const wnn_tdesc md = TD(WNN_DTYPE_F32, 2, 3);
  const float want[6] = {1, 4, 2, 5, 3, 6};
  CHECK(op_expect("Transpose", NULL, 1, &md, in, want, 6, 0));
}

TEST(transpose_rejects) {
  const wnn_tdesc x = TD(WNN_DTYPE_F32, 2, 3, 4);
  CHECK(op_fails("Transpose", "{\"perm\":[0,1]}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "perm has 2 values, input has 3 dims"));
  CHECK(op_fails("Transpose", "{\"perm\":[0,1,1]}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "not a permutation"));
  CHECK(op_fails("Transpose", "{\"perm\":[0,1,3]}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "not a permutation"));
  CHECK(op_fails("Transpose", "{\"perm\":[-1,0,1]}", 1, &x, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "perm[0] = -1"));
}

TEST(concat) {
  wnn_tdesc in[WNN_MAX_IO];
  in[0] = TD(WNN_DTYPE_F32, 2, 3, 4);
  in[1] = TD(WNN_DTYPE_F32, 2, 1, 4);
  in[2] = TD(WNN_DTYPE_F32, 2, 5, 4);
  CHECK(op_check("Concat", "{\"axis\":1}", 3, in, 0, 0));
  CHECK(op_check("Concat", "{\"axis\":-2}", 3, in, 0, 0));
  for (int i = 0; i < WNN_MAX_IO; i++) in[i] = TD(WNN_DTYPE_I64, 2, 3, i % 3);
  CHECK(op_check("Concat", "{\"axis\":2}", WNN_MAX_IO, in, 0, 0));
  CHECK(op_check("Concat", "{\"axis\":-1}", WNN_MAX_IO, in, 0, 0));
  for (int i = 0; i < 5; i++) in[i] = TD(WNN_DTYPE_I32, i + 1, 2, 3);
  CHECK(op_check("Concat", "{\"axis\":0}", 5, in, 0, 0));
  CHECK(op_check("Concat", "{\"axis\":0}", 1, in, 0, 0));
  for (int i = 0; i < 3; i++) in[i] = TD(WNN_DTYPE_BOOL, 2, i + 1, 3);
  CHECK(op_check("Concat", "{\"axis\":1}", 3, in, 0, 0));
  for (int i = 0; i < 3; i++) in[i] = TD(WNN_DTYPE_I8, 2, 3, 2 * i);
  CHECK(op_check("Concat", "{\"axis\":-1}", 3, in, 0, 0));
  for (int i = 0; i < 5; i++) in[i] = TD(WNN_DTYPE_I32, i + 1, 2, 3);
  op_case c;
  CHECK_OK(op_prepare(&c, "Concat", "{\"axis\":-3}", 5, in, 1));
  CHECK(OUT_IS(&c, 15, 2, 3));
  float a[2] = {1, 2}, b[4] = {3, 4, 5, 6};
  void *data[2] = {a, b};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 2, 1), TD(WNN_DTYPE_F32, 2, 2)};
  const float want[6] = {1, 3, 4, 2, 5, 6};
  CHECK(op_expect("Concat", "{\"axis\":1}", 2, d, data, want, 6, 0));
}

TEST(concat_rejects) {
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 3, 3)};
  CHECK(op_fails("Concat", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axis is required"));
  CHECK(op_fails("Concat", "{\"axis\":1}", 2, in, 1, WNN_ERR_SHAPE, "input 1 has 3 at dim 0"));
  CHECK(op_fails("Concat", "{\"axis\":2}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axis 2 out of range"));
  CHECK(op_fails("Concat", "{\"axis\":-3}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "axis -3"));
  in[1] = TD(WNN_DTYPE_I32, 2, 3);
  CHECK(op_fails("Concat", "{\"axis\":0}", 2, in, 1, WNN_ERR_DTYPE, "input 1 (inputs) is int32"));
  in[1] = TD(WNN_DTYPE_F32, 2, 3, 1);
  CHECK(op_fails("Concat", "{\"axis\":0}", 2, in, 1, WNN_ERR_SHAPE, "has 3 dims, expected 2"));
  CHECK(op_fails("Concat", "{\"axis\":0}", 0, in, 1, WNN_ERR_MALFORMED, "0 inputs"));
}

TEST(registry) {
  int n = 0;
#define WNN_OP(code_, sym_)                                                   \
  do {                                                                        \
    const wnn_op *op = wnn_op_by_code(code_);                                 \
    CHECK(op && op->code == (code_) && op == wnn_op_by_name(op->name));       \
    CHECK(op && op->prepare && (op->run || (op->flags & WNN_OP_ALIAS)));      \
    CHECK(op && (op->reference != NULL) == (op->run != NULL));                \
    n++;                                                                      \
  } while (0);
#include "ops/ops.inc"
#undef WNN_OP
  /* The 19 core ops hold codes 1-19; the families' lists add theirs. */
  int core = 0;
  for (int code = 1; code <= 19; code++) core += wnn_op_by_code(code) != NULL;
  CHECK(core == 19 && n >= 19);
  CHECK(wnn_op_by_code(0) == NULL && wnn_op_by_code(-1) == NULL);
  CHECK(wnn_op_by_name("NoSuchOp") == NULL && wnn_op_by_name(NULL) == NULL);
  char msg[128];
  cJSON *bad = cJSON_Parse("[1]");
  CHECK_STATUS(wnn_op_check_node(wnn_op_by_name("Relu"), wnn_attrs_from_json(bad), 1, 1, msg, sizeof msg),
               WNN_ERR_BAD_ATTRIBUTE);
  cJSON_Delete(bad);
}

int main(void) {
  RUN(aliases_have_no_run);
  RUN(reshape_shapes);
  RUN(reshape_rejects);
  RUN(flatten_identity);
  RUN(transpose);
  RUN(transpose_rejects);
  RUN(concat);
  RUN(concat_rejects);
  RUN(registry);
  return test_summary();
}
