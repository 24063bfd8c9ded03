/*
 * Every op of src/ops/ops.inc, from one list (as ggml's test-backend-ops): a
 * generated one-node case per op, run against the op's reference with both
 * kernel sets (WNN_KERNELS_AUTO, which is SIMD128 in the WASI build, and
 * WNN_KERNELS_SCALAR) on awkward shapes (odd sizes, broadcasting), with the
 * tolerance stated in the case. An op for which no case is generated here
 * (it needs constant inputs of a particular meaning, several outputs, or has
 * no run of its own: the alias ops) names the test program that covers it.
 * The program prints the ops it has no case for and fails when an op of
 * ops.inc has neither a case nor a covering test, so a new op without a
 * test shows up here.
 */
#include <math.h>
#include <stdint.h>

#include "op_harness.h"

#define F32 WNN_DTYPE_F32
#define F16 WNN_DTYPE_F16
#define I64 WNN_DTYPE_I64
#define I32 WNN_DTYPE_I32
#define U8 WNN_DTYPE_U8
#define BOOL WNN_DTYPE_BOOL

/* What the ops of ops.inc have: a generated case (case_ok: it passed), or the
 * test that covers them. */
#define MAX_CODE 256
static bool generated[MAX_CODE], case_ok[MAX_CODE];
static const char *covered_by[MAX_CODE];

static const wnn_op *op_named(const char *name) {
  const wnn_op *op = wnn_op_by_name(name);
  if (!op || op->code < 0 || op->code >= MAX_CODE) {
    printf("  no op named %s\n", name);
    return NULL;
  }
  return op;
}

/* Value ranges for generated float inputs (make_input's default is [-1, 1)). */
typedef enum { ANY = 0, POSITIVE, UNIT, ABOVE_ONE, WIDE } range;

/* Input t with generated constant data in range r (a constant input is as
 * good as a runtime one for run vs reference; ANY leaves t to make_input). */
static wnn_tdesc with(wnn_tdesc t, range r) {
  if (r == ANY) return t;
  const size_t n = (size_t)wnn_shape_numel(t.ndim, t.dims);
  float *x = malloc((n ? n : 1) * sizeof *x);
  for (size_t i = 0; i < n; i++) {
    const float u = lcg_float();
    x[i] = r == POSITIVE   ? 1.05f + u         /* (0.05, 2.05) */
           : r == UNIT     ? 0.95f * u         /* (-0.95, 0.95) */
           : r == ABOVE_ONE ? 2.1f + u         /* (1.1, 3.1) */
                            : 4.0f * u;        /* [-4, 4) */
  }
  t.data = x;
  return t;
}

/* A constant int64 input holding the given values (shape [n], or a scalar). */
static wnn_tdesc i64s(int n, const int64_t *v) {
  wnn_tdesc t = n < 0 ? TD_SCALAR(I64) : td(I64, 1, (int64_t[]){n});
  int64_t *d = malloc((size_t)(n < 0 ? 1 : n ? n : 1) * sizeof *d);
  memcpy(d, v, (size_t)(n < 0 ? 1 : n) * sizeof *d);
  t.data = d;
  return t;
}
/* A constant int64 input of shape dims holding v. */
static wnn_tdesc td_i64(int ndim, const int64_t *dims, const int64_t *v) {
  wnn_tdesc t = td(I64, ndim, dims);
  const size_t n = (size_t)wnn_shape_numel(ndim, dims);
  int64_t *d = malloc((n ? n : 1) * sizeof *d);
  memcpy(d, v, n * sizeof *d);
  t.data = d;
  return t;
}
#define I64S(...) i64s((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})
#define I64_SCALAR(v) i64s(-1, (int64_t[]){v})

/* One generated case: run vs reference under AUTO and SCALAR kernels. */
static void gen(const char *name, const char *attrs, float rtol, float atol, int nin,
                wnn_tdesc *in) {
  const wnn_op *op = op_named(name);
  if (!op) {
    CHECK(0);
    return;
  }
  const bool first = !generated[op->code];
  generated[op->code] = true;
  const int ok = op_check(name, attrs, nin, in, rtol, atol);
  CHECK(ok);
  case_ok[op->code] = (first || case_ok[op->code]) && ok;
  for (int i = 0; i < nin; i++) free((void *)in[i].data);
}
#define GEN(name, attrs, rtol, atol, ...)                                              \
  gen(name, attrs, rtol, atol, (int)(sizeof((wnn_tdesc[]){__VA_ARGS__}) / sizeof(wnn_tdesc)), \
      (wnn_tdesc[]){__VA_ARGS__})

static void covered(const char *name, const char *test_file) {
  const wnn_op *op = op_named(name);
  if (op) covered_by[op->code] = test_file;
  else CHECK(0);
}

/* ------------------------------------------------------------ the cases */

/* Element-wise: libm functions within rtol 1e-5 (+ atol 1e-6 near 0), as
 * tests/ops/test_math_unary.c states them; a single correctly rounded float
 * operation exact; a couple of float operations within 2 ulps. */
TEST(elementwise_unary) {
  static const struct { const char *name, *attrs; float rtol, atol; range r; } U[] = {
      {"Exp", NULL, 1e-5f, 1e-6f, WIDE},          {"Log", NULL, 1e-5f, 1e-6f, POSITIVE},
      {"Sqrt", NULL, 0, 0, POSITIVE},             {"Neg", NULL, 0, 0, ANY},
      {"Abs", NULL, 0, 0, ANY},                   {"Erf", NULL, 1e-5f, 1e-6f, WIDE},
      {"Tanh", NULL, 1e-5f, 1e-6f, WIDE},         {"Reciprocal", NULL, 0, 0, POSITIVE},
      {"Floor", NULL, 0, 0, WIDE},                {"Ceil", NULL, 0, 0, WIDE},
      {"LeakyRelu", NULL, 2.5e-7f, 0, ANY},       {"HardSigmoid", NULL, 2.5e-7f, 1e-7f, WIDE},
      {"HardSwish", NULL, 2.5e-7f, 1e-7f, WIDE},  {"Elu", NULL, 1e-5f, 1e-6f, WIDE},
      {"Selu", NULL, 1e-5f, 1e-6f, WIDE},         {"Softplus", NULL, 1e-5f, 1e-6f, WIDE},
      {"Softsign", NULL, 2.5e-7f, 0, WIDE},       {"Sign", NULL, 0, 0, ANY},
      {"Sin", NULL, 1e-5f, 1e-6f, WIDE},          {"Cos", NULL, 1e-5f, 1e-6f, WIDE},
      {"Round", NULL, 0, 0, WIDE},                {"Gelu", NULL, 1e-5f, 1e-6f, WIDE},
      {"Relu", NULL, 0, 0, ANY},                  {"Sigmoid", NULL, 1e-5f, 1e-6f, WIDE},
      {"Clip", "{\"min\":-0.5,\"max\":0.25}", 0, 0, ANY},
      {"Acos", NULL, 1e-5f, 1e-6f, UNIT},         {"Acosh", NULL, 1e-5f, 1e-6f, ABOVE_ONE},
      {"Asin", NULL, 1e-5f, 1e-6f, UNIT},         {"Asinh", NULL, 1e-5f, 1e-6f, WIDE},
      {"Atan", NULL, 1e-5f, 1e-6f, WIDE},         {"Atanh", NULL, 1e-5f, 1e-6f, UNIT},
      {"Cosh", NULL, 1e-5f, 1e-6f, WIDE},         {"Sinh", NULL, 1e-5f, 1e-6f, WIDE},
      {"Tan", NULL, 1e-5f, 1e-6f, UNIT},          {"ThresholdedRelu", "{\"alpha\":0.25}", 0, 0, ANY},
      {"Shrink", "{\"lambd\":0.3,\"bias\":0.1}", 1e-6f, 1e-6f, ANY},
      {"Celu", NULL, 1e-5f, 1e-6f, WIDE},         {"IsNaN", NULL, 0, 0, ANY},
      {"IsInf", NULL, 0, 0, ANY},
  };
  for (size_t u = 0; u < sizeof U / sizeof U[0]; u++) {
    GEN(U[u].name, U[u].attrs, U[u].rtol, U[u].atol, with(TD(F32, 2, 3, 17), U[u].r));
    GEN(U[u].name, U[u].attrs, U[u].rtol, U[u].atol, with(TD(F32, 5), U[u].r));
  }
  GEN("Not", NULL, 0, 0, TD(BOOL, 3, 7));
}

/* Binary and variadic ops with numpy broadcasting ([2, 3, 17] against
 * [3, 1]): one float operation per element within 2 ulps of the double
 * reference, Pow within rtol 2e-6, comparisons and logic exact. */
TEST(elementwise_binary) {
  static const char *const ARITH[] = {"Add", "Sub", "Mul", "Min", "Max"};
  for (size_t i = 0; i < sizeof ARITH / sizeof ARITH[0]; i++)
    GEN(ARITH[i], NULL, 2.5e-7f, 0, TD(F32, 2, 3, 17), TD(F32, 3, 1));
  GEN("Div", NULL, 2.5e-7f, 0, TD(F32, 2, 3, 17), with(TD(F32, 3, 1), POSITIVE));
  GEN("Pow", NULL, 2e-6f, 1e-7f, with(TD(F32, 2, 3, 17), POSITIVE), TD(F32, 17));
  GEN("PRelu", NULL, 0, 0, TD(F32, 2, 3, 17), TD(F32, 3, 1));
  GEN("Mod", "{\"fmod\":1}", 1e-6f, 1e-6f, with(TD(F32, 2, 3, 17), WIDE),
      with(TD(F32, 3, 1), POSITIVE));
  GEN("Sum", NULL, 1e-6f, 1e-7f, TD(F32, 2, 3, 17), TD(F32, 3, 1), TD(F32, 17));
  GEN("Mean", NULL, 1e-6f, 1e-7f, TD(F32, 2, 3, 17), TD(F32, 3, 1), TD(F32, 17));
  static const char *const CMP[] = {"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"};
  for (size_t i = 0; i < sizeof CMP / sizeof CMP[0]; i++)
    GEN(CMP[i], NULL, 0, 0, TD(I32, 2, 3, 17), TD(I32, 3, 1));
  static const char *const LOGIC[] = {"And", "Or", "Xor"};
  for (size_t i = 0; i < sizeof LOGIC / sizeof LOGIC[0]; i++)
    GEN(LOGIC[i], NULL, 0, 0, TD(BOOL, 2, 3, 17), TD(BOOL, 3, 1));
  GEN("Where", NULL, 0, 0, TD(BOOL, 3, 1), TD(F32, 2, 3, 17), TD(F32, 17));
}

/* Reductions along axis 1 of [3, 5, 7] (axes as a constant input) and over
 * everything: rtol 1e-5 + atol 1e-5 (tests/ops/test_math_reduce.c), the arg
 * ops exact. */
TEST(reductions) {
  static const struct { const char *name; range r; } R[] = {
      {"ReduceMean", ANY},      {"ReduceSum", ANY}, {"ReduceMax", ANY},
      {"ReduceMin", ANY},       {"ReduceProd", ANY}, {"ReduceSumSquare", ANY},
      {"ReduceL1", ANY},        {"ReduceL2", ANY},   {"ReduceLogSumExp", WIDE},
      {"ReduceLogSum", POSITIVE},
  };
  for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
    GEN(R[i].name, NULL, 1e-5f, 1e-5f, with(TD(F32, 3, 5, 7), R[i].r), I64S(1));
    GEN(R[i].name, "{\"keepdims\":0}", 1e-5f, 1e-5f, with(TD(F32, 3, 5, 7), R[i].r));
  }
  GEN("ArgMax", "{\"axis\":1}", 0, 0, TD(F32, 3, 5, 7));
  GEN("ArgMin", "{\"axis\":-1,\"keepdims\":0}", 0, 0, TD(F32, 3, 5, 7));
  GEN("CumSum", NULL, 1e-5f, 1e-6f, TD(F32, 3, 5, 7), I64_SCALAR(1));
}

/* Softmax family along the last axis of [3, 5, 17]: rtol 1e-5 + atol 1e-6
 * (the SIMD128 softmax is within 4e-6 of the scalar one); Hardmax exact. */
TEST(softmax_family) {
  GEN("Softmax", NULL, 1e-5f, 1e-6f, with(TD(F32, 3, 5, 17), WIDE));
  GEN("LogSoftmax", "{\"axis\":1}", 1e-5f, 1e-5f, with(TD(F32, 3, 5, 17), WIDE));
  GEN("Hardmax", NULL, 0, 0, TD(F32, 3, 5, 17));
}

/* Convolution, pooling and linear algebra: sums in a different order than
 * the reference's, rtol 1e-4 + atol 1e-5 (Det as tests/ops/test_gemm.c). */
TEST(conv_pool_gemm) {
  GEN("Conv", "{\"pads\":[1,1,1,1]}", 1e-4f, 1e-5f, TD(F32, 1, 3, 9, 11), TD(F32, 5, 3, 3, 3),
      TD(F32, 5));
  GEN("Conv", "{\"strides\":[2,2],\"group\":3}", 1e-4f, 1e-5f, TD(F32, 2, 3, 9, 11),
      TD(F32, 6, 1, 3, 3));
  GEN("ConvTranspose", "{\"strides\":[2,2]}", 1e-4f, 1e-5f, TD(F32, 1, 3, 5, 6),
      TD(F32, 3, 2, 3, 3), TD(F32, 2));
  GEN("Gemm", "{\"transB\":1,\"alpha\":0.5}", 1e-4f, 1e-5f, TD(F32, 5, 7), TD(F32, 9, 7),
      TD(F32, 9));
  GEN("MatMul", NULL, 1e-4f, 1e-5f, TD(F32, 2, 5, 7), TD(F32, 7, 9));
  GEN("Einsum", "{\"equation\":\"ij,jk->ik\"}", 1e-4f, 1e-5f, TD(F32, 3, 4), TD(F32, 4, 5));
  GEN("Det", NULL, 1e-4f, 1e-5f, TD(F32, 2, 3, 3));
  GEN("MaxPool", "{\"kernel_shape\":[3,3],\"pads\":[1,1,1,1],\"strides\":[2,2]}", 0, 0,
      TD(F32, 1, 3, 9, 11));
  GEN("AveragePool", "{\"kernel_shape\":[3,3],\"pads\":[1,1,1,1],\"strides\":[2,2]}", 1e-6f,
      1e-7f, TD(F32, 1, 3, 9, 11));
  GEN("GlobalAveragePool", NULL, 1e-6f, 1e-7f, TD(F32, 2, 3, 5, 7));
  GEN("GlobalMaxPool", NULL, 0, 0, TD(F32, 2, 3, 5, 7));
}

/* Normalization: statistics summed in another order, rtol 1e-5 + atol 1e-5. */
TEST(normalization) {
  GEN("LayerNormalization", NULL, 1e-5f, 1e-5f, TD(F32, 3, 17), TD(F32, 17), TD(F32, 17));
  GEN("InstanceNormalization", NULL, 1e-5f, 1e-5f, TD(F32, 2, 3, 5, 7), TD(F32, 3), TD(F32, 3));
  GEN("BatchNormalization", NULL, 1e-5f, 1e-5f, TD(F32, 2, 3, 5, 7), TD(F32, 3), TD(F32, 3),
      TD(F32, 3), with(TD(F32, 3), POSITIVE));
  GEN("LRN", "{\"size\":3}", 1e-5f, 1e-6f, TD(F32, 1, 5, 4, 6));
  GEN("MeanVarianceNormalization", NULL, 1e-5f, 1e-5f, TD(F32, 2, 3, 5, 7));
}

/* Data movement: bit copies, exact. */
TEST(data_movement) {
  GEN("Transpose", "{\"perm\":[2,0,1]}", 0, 0, TD(F32, 3, 5, 7));
  GEN("Concat", "{\"axis\":1}", 0, 0, TD(F32, 2, 3, 5), TD(F32, 2, 4, 5));
  GEN("Gather", "{\"axis\":1}", 0, 0, TD(F32, 3, 7), I64S(0, 6, -1, 2));
  GEN("Slice", NULL, 0, 0, TD(F32, 5, 7), I64S(1), I64S(6), I64S(1));
  GEN("Expand", NULL, 0, 0, TD(F32, 3, 1), I64S(2, 3, 5));
  GEN("Tile", NULL, 0, 0, TD(F32, 2, 3), I64S(2, 3));
  GEN("Pad", NULL, 0, 0, TD(F32, 3, 5), I64S(1, 0, 2, 1));
  GEN("DepthToSpace", "{\"blocksize\":2}", 0, 0, TD(F32, 1, 8, 3, 5));
  GEN("SpaceToDepth", "{\"blocksize\":2}", 0, 0, TD(F32, 1, 2, 6, 4));
  GEN("Trilu", NULL, 0, 0, TD(F32, 5, 7));
  GEN("EyeLike", NULL, 0, 0, TD(F32, 4, 5));
  GEN("Shape", NULL, 0, 0, TD(F32, 3, 5, 7));
  GEN("Size", NULL, 0, 0, TD(F32, 3, 5, 7));
  GEN("Cast", "{\"to\":7}", 0, 0, with(TD(F32, 3, 17), WIDE));
  GEN("CastLike", NULL, 0, 0, TD(I64, 3, 17), TD_SCALAR(F32));
  GEN("Cast", "{\"to\":10}", 0, 0, with(TD(F32, 3, 17), WIDE));
  GEN("Cast", "{\"to\":1}", 0, 0, TD(F16, 3, 17));
  GEN("Cast", "{\"to\":7}", 0, 0, TD(F16, 3, 17));
  GEN("CastLike", NULL, 0, 0, TD(I32, 3, 17), TD_SCALAR(F16));
  GEN("ConstantOfShape", NULL, 0, 0, I64S(2, 3, 5));
  GEN("GatherElements", "{\"axis\":1}", 0, 0, TD(F32, 3, 4),
      td_i64(2, (int64_t[]){3, 2}, (int64_t[]){0, 3, 1, 1, 2, 0}));
  GEN("DequantizeLinear", NULL, 0, 0, TD(U8, 3, 17), with(TD_SCALAR(F32), POSITIVE));
}

/* ------------------------------------------- what other programs cover */

/* Ops whose cases need inputs of a particular meaning (indices in range,
 * shapes, scales and zero points), have several outputs worth comparing, or
 * have no run function of their own (WNN_OP_ALIAS: the runtime aliases
 * them). Each entry names the program that tests it. */
static void register_covered(void) {
  static const struct { const char *op, *test; } C[] = {
      {"Reshape", "tests/ops/test_shape.c"},   {"Flatten", "tests/ops/test_shape.c"},
      {"Identity", "tests/ops/test_shape.c"},  {"Squeeze", "tests/ops/test_tensor_shape.c"},
      {"Unsqueeze", "tests/ops/test_tensor_shape.c"},
      {"Dropout", "tests/ops/test_tensor_shape.c"},
      {"Range", "tests/ops/test_tensor_shape.c"},
      {"Split", "tests/ops/test_tensor_index.c"}, /* several outputs */
      {"ScatterElements", "tests/ops/test_tensor_select.c"},
      {"ScatterND", "tests/ops/test_tensor_select.c"},
      {"GatherND", "tests/ops/test_tensor_select.c"},
      {"OneHot", "tests/ops/test_tensor_select.c"},
      {"TopK", "tests/ops/test_tensor_select.c"},
      {"Compress", "tests/ops/test_tensor_select.c"},
      {"ReverseSequence", "tests/ops/test_tensor_select.c"},
      {"BitShift", "tests/ops/test_math_binary.c"},
      {"Resize", "tests/ops/test_nn_resize.c"},
      {"LSTM", "tests/ops/test_nn_rnn.c"},     {"GRU", "tests/ops/test_nn_rnn.c"},
      {"RNN", "tests/ops/test_nn_rnn_simple.c"},
      {"GridSample", "tests/ops/test_nn_gridsample.c"},
      {"MaxUnpool", "tests/ops/test_nn_maxunpool.c"},
      {"RoiAlign", "tests/ops/test_nn_roialign.c"},
      {"NegativeLogLikelihoodLoss", "tests/ops/test_nn_loss.c"},
      {"SoftmaxCrossEntropyLoss", "tests/ops/test_nn_loss.c"},
      {"QuantizeLinear", "tests/ops/test_quant.c"},
      {"DynamicQuantizeLinear", "tests/ops/test_quant.c"},
      {"MatMulInteger", "tests/ops/test_quant.c"},
      {"QLinearMatMul", "tests/ops/test_quant.c"},
      {"DynamicQuantizeMatMul", "tests/ops/test_quant.c"},
      {"MatMulNBits", "tests/ops/test_quant_nbits.c"},
      {"ConvInteger", "tests/ops/test_quant.c"},
      {"QLinearConv", "tests/ops/test_quant.c"},
      {"QLookup", "tests/ops/test_quant_ew.c"},
      {"QLinearAdd", "tests/ops/test_quant_ew.c"},
      {"QLinearMul", "tests/ops/test_quant_ew.c"},
      {"QLinearGlobalAveragePool", "tests/ops/test_quant_ew.c"},
      {"HannWindow", "tests/ops/test_signal.c"},
      {"HammingWindow", "tests/ops/test_signal.c"},
      {"BlackmanWindow", "tests/ops/test_signal.c"},
      {"DFT", "tests/ops/test_signal.c"},      {"STFT", "tests/ops/test_signal.c"},
      {"MelWeightMatrix", "tests/ops/test_signal.c"},
  };
  for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) covered(C[i].op, C[i].test);
}

/* Every op of ops.inc has a generated case that passed or a covering test;
 * prints those it has no case for. */
TEST(every_op_has_a_test) {
  register_covered();
  int cases = 0, elsewhere = 0, missing = 0;
#define WNN_OP(code, sym)                                                                     \
  do {                                                                                        \
    const wnn_op *op = wnn_op_by_code(code);                                                  \
    if (generated[code]) {                                                                    \
      cases++;                                                                                \
      if (!case_ok[code]) printf("  %s: its generated case failed\n", op->name);             \
    } else if (covered_by[code]) {                                                            \
      elsewhere++;                                                                            \
      printf("  no generated case for %s: covered by %s\n", op->name, covered_by[code]);    \
    } else {                                                                                  \
      missing++;                                                                              \
      printf("  %s (code %d) has no generated case and no covering test\n", op->name, code); \
    }                                                                                         \
  } while (0);
#include "ops/ops.inc"
#undef WNN_OP
  printf("  %d ops with a generated case, %d covered by other programs, %d without a test\n",
         cases, elsewhere, missing);
  CHECK(missing == 0);
}

int main(void) {
  RUN(elementwise_unary);
  RUN(elementwise_binary);
  RUN(reductions);
  RUN(softmax_family);
  RUN(conv_pool_gemm);
  RUN(normalization);
  RUN(data_movement);
  RUN(every_op_has_a_test);
  return test_summary();
}
