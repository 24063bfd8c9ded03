/* Pow, PRelu, Mod, and the variadic Min, Max, Sum, Mean: run vs reference
 * with broadcasting on awkward shapes, hand-computed values, failures.
 * Min, Max, PRelu and integer results are exact; Sum and Mean add in float
 * (run) vs double (reference): rtol 1e-6, atol 1e-6 for up to 4 inputs of
 * magnitude <= 1; Pow uses powf vs pow: rtol 1e-5 (integer bases: exact). */
#include <math.h>
#include <stdint.h>

#include "op_harness.h"

static const wnn_dtype NUMERIC[] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64};

/* Pairs of broadcastable shapes, including empty and scalar ones. */
static wnn_tdesc pair_a(int i) {
  switch (i) {
    case 0: return TD(WNN_DTYPE_F32, 2, 3, 4);
    case 1: return TD(WNN_DTYPE_F32, 2, 3, 4);
    case 2: return TD(WNN_DTYPE_F32, 3, 1);
    case 3: return TD(WNN_DTYPE_F32, 2, 1, 4);
    case 4: return TD(WNN_DTYPE_F32, 1, 3, 1, 5);
    case 5: return TD_SCALAR(WNN_DTYPE_F32);
    case 6: return TD(WNN_DTYPE_F32, 17);
    default: return TD(WNN_DTYPE_F32, 2, 0, 3);
  }
}
static wnn_tdesc pair_b(int i) {
  switch (i) {
    case 0: return TD(WNN_DTYPE_F32, 2, 3, 4);
    case 1: return TD(WNN_DTYPE_F32, 4);
    case 2: return TD(WNN_DTYPE_F32, 2, 3, 4);
    case 3: return TD(WNN_DTYPE_F32, 1, 3, 1);
    case 4: return TD(WNN_DTYPE_F32, 2, 1, 4, 1);
    case 5: return TD(WNN_DTYPE_F32, 3, 5);
    case 6: return TD_SCALAR(WNN_DTYPE_F32);
    default: return TD(WNN_DTYPE_F32, 3);
  }
}
#define NUM_PAIRS 8

TEST(pow_broadcast) {
  for (int i = 0; i < NUM_PAIRS; i++) {
    wnn_tdesc in[2] = {pair_a(i), pair_b(i)};
    /* A positive base keeps powf defined for any float exponent. */
    const size_t n = (size_t)wnn_shape_numel(in[0].ndim, in[0].dims);
    float *base = malloc((n ? n : 1) * sizeof *base);
    for (size_t k = 0; k < n; k++) base[k] = 1.5f + lcg_float();
    in[0].data = base;
    CHECK(op_check("Pow", NULL, 2, in, 1e-5f, 1e-6f));
    /* Integer exponents in [-20, 20]: any sign of base, magnitude in [0.5, 1.5)
     * so that no power overflows. */
    for (size_t k = 0; k < n; k++) base[k] = (lcg_float() < 0 ? -1.0f : 1.0f) * (1.0f + 0.5f * lcg_float());
    in[1].dtype = WNN_DTYPE_I32;
    CHECK(op_check("Pow", NULL, 2, in, 1e-5f, 1e-30f));
    in[1].dtype = WNN_DTYPE_I64;
    CHECK(op_check("Pow", NULL, 2, in, 1e-5f, 1e-30f));
    free(base);
  }
}

TEST(pow_hand_computed) {
  float x[4] = {2.0f, -3.0f, 4.0f, 0.0f};
  float yf[1] = {0.5f};
  int32_t yi[2] = {3, -1};
  int64_t yl[1] = {2};
  /* A negative base with a non-integer exponent is NaN. */
  const wnn_tdesc f[2] = {TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_F32, 1)};
  void *in_f[2] = {x, yf}, *out[1];
  op_case c;
  CHECK_OK(op_prepare(&c, "Pow", NULL, 2, f, 1));
  CHECK_OK(op_exec(&c, c.op->run, in_f, out));
  CHECK(isnan(((float *)out[0])[1]) && ((float *)out[0])[3] == 0.0f);
  free(out[0]);
  const float xs[2] = {2.0f, 4.0f};
  const wnn_tdesc f2[2] = {TD(WNN_DTYPE_F32, 2), TD(WNN_DTYPE_F32, 1)};
  void *in_f2[2] = {(void *)xs, yf};
  CHECK(op_expect("Pow", NULL, 2, f2, in_f2, (const float[]){1.41421356f, 2.0f}, 2, 1e-6f));
  const wnn_tdesc i[2] = {TD(WNN_DTYPE_F32, 2, 1), TD(WNN_DTYPE_I32, 2)};
  float xi[2] = {-3.0f, 2.0f};
  void *in_i[2] = {xi, yi};
  CHECK(op_expect("Pow", NULL, 2, i, in_i, (const float[]){-27.0f, -1.0f / 3, 8.0f, 0.5f}, 4, 1e-6f));
  const wnn_tdesc l[2] = {TD(WNN_DTYPE_F32, 4), TD_SCALAR(WNN_DTYPE_I64)};
  void *in_l[2] = {x, yl};
  CHECK(op_expect("Pow", NULL, 2, l, in_l, (const float[]){4, 9, 16, 0}, 4, 0));
}

TEST(pow_integer_base) {
  /* int32 / int64 bases with int32, int64 or float32 exponents (integers in
   * [-20, 20] from the harness: powers wrap, exactly as the reference). */
  const wnn_dtype bases[2] = {WNN_DTYPE_I32, WNN_DTYPE_I64};
  const wnn_dtype exps[3] = {WNN_DTYPE_I32, WNN_DTYPE_I64, WNN_DTYPE_F32};
  for (int b = 0; b < 2; b++)
    for (int e = 0; e < 3; e++)
      for (int i = 0; i < NUM_PAIRS; i++) {
        wnn_tdesc in[2] = {pair_a(i), pair_b(i)};
        in[0].dtype = bases[b], in[1].dtype = exps[e];
        CHECK(op_check("Pow", NULL, 2, in, 0, 0));
      }
  int32_t x[4] = {2, -3, 5, 1};
  float yf[4] = {10.0f, 3.0f, 0.5f, -2.0f};
  int64_t yl[4] = {10, 3, 2, -2};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_I32, 4), TD(WNN_DTYPE_F32, 4)};
  const wnn_tdesc dl[2] = {TD(WNN_DTYPE_I32, 4), TD(WNN_DTYPE_I64, 4)};
  const int32_t want_f[4] = {1024, -27, 2, 1}; /* 5^0.5 = 2.23 truncates to 2 */
  const int32_t want_l[4] = {1024, -27, 25, 1};
  void *in_f[2] = {x, yf}, *in_l[2] = {x, yl};
  op_case c;
  for (int k = 0; k < 2; k++) {
    CHECK_OK(op_prepare(&c, "Pow", NULL, 2, k ? dl : d, 1));
    CHECK(c.outputs[0].dtype == WNN_DTYPE_I32);
    for (int f = 0; f < 2; f++) {
      void *out[1];
      CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, k ? in_l : in_f, out));
      CHECK(memcmp(out[0], k ? want_l : want_f, sizeof want_f) == 0);
      free(out[0]);
    }
  }
}

TEST(small_integers) {
  /* Min and Max of int8 and uint8, Mod of int8 and uint8. */
  const wnn_dtype dts[2] = {WNN_DTYPE_I8, WNN_DTYPE_U8};
  for (int t = 0; t < 2; t++) {
    wnn_tdesc in[3] = {TD(WNN_DTYPE_I8, 2, 3, 4), TD(WNN_DTYPE_I8, 3, 1), TD(WNN_DTYPE_I8, 1)};
    for (int k = 0; k < 3; k++) in[k].dtype = dts[t];
    CHECK(op_check("Min", NULL, 3, in, 0, 0));
    CHECK(op_check("Max", NULL, 3, in, 0, 0));
    CHECK(op_check("Max", NULL, 1, in + 1, 0, 0));
    CHECK(op_check("Mod", NULL, 2, in, 0, 0));
    CHECK(op_check("Mod", "{\"fmod\":1}", 2, in, 0, 0));
  }
  int8_t a[4] = {-7, 7, -128, 100}, b[4] = {3, -3, -1, 0};
  const int8_t want_mod[4] = {2, -2, 0, 0}, want_max[4] = {3, 7, -1, 100};
  void *in[2] = {a, b};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_I8, 4), TD(WNN_DTYPE_I8, 4)};
  const char *ops[2] = {"Mod", "Max"};
  const int8_t *wants[2] = {want_mod, want_max};
  for (int k = 0; k < 2; k++) {
    op_case c;
    CHECK_OK(op_prepare(&c, ops[k], NULL, 2, d, 1));
    for (int f = 0; f < 2; f++) {
      void *out[1];
      CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, in, out));
      CHECK(memcmp(out[0], wants[k], 4) == 0);
      free(out[0]);
    }
  }
}

TEST(prelu) {
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 2, 3, 4, 5), TD(WNN_DTYPE_F32, 3, 1, 1)};
  CHECK(op_check("PRelu", NULL, 2, in, 0, 0));
  in[1] = TD(WNN_DTYPE_F32, 1);
  CHECK(op_check("PRelu", NULL, 2, in, 0, 0));
  in[1] = TD(WNN_DTYPE_F32, 2, 3, 4, 5);
  CHECK(op_check("PRelu", NULL, 2, in, 0, 0));
  in[0] = TD(WNN_DTYPE_F32, 7, 5), in[1] = TD(WNN_DTYPE_F32, 5);
  CHECK(op_check("PRelu", NULL, 2, in, 0, 0));
  float x[4] = {-2, -1, 0, 3}, s[2] = {0.5f, 3.0f};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 2, 2), TD(WNN_DTYPE_F32, 2)};
  void *data[2] = {x, s};
  CHECK(op_expect("PRelu", NULL, 2, d, data, (const float[]){-1, -3, 0, 3}, 4, 0));
}

TEST(mod) {
  int32_t a[6] = {7, -7, 7, -7, 5, INT32_MIN}, b[6] = {3, 3, -3, -3, 0, -1};
  const int32_t want_mod[6] = {1, 2, -2, -1, 0, 0};
  const int32_t want_fmod[6] = {1, -1, 1, -1, 0, 0};
  void *in[2] = {a, b};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_I32, 6), TD(WNN_DTYPE_I32, 6)};
  const char *attrs[2] = {NULL, "{\"fmod\":1}"};
  const int32_t *wants[2] = {want_mod, want_fmod};
  for (int k = 0; k < 2; k++) {
    op_case c;
    CHECK_OK(op_prepare(&c, "Mod", attrs[k], 2, d, 1));
    for (int f = 0; f < 2; f++) {
      void *out[1];
      CHECK_OK(op_exec(&c, f ? c.op->reference : c.op->run, in, out));
      CHECK(memcmp(out[0], wants[k], sizeof want_mod) == 0);
      free(out[0]);
    }
  }
  float fa[3] = {5.5f, -5.5f, 5.5f}, fb[3] = {2.0f, 2.0f, -2.0f};
  const wnn_tdesc fd[2] = {TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_F32, 3)};
  void *fin[2] = {fa, fb};
  CHECK(op_expect("Mod", "{\"fmod\":1}", 2, fd, fin, (const float[]){1.5f, -1.5f, 1.5f}, 3, 0));
  for (int i = 0; i < NUM_PAIRS; i++)
    for (int t = 1; t < 3; t++) {
      wnn_tdesc p[2] = {pair_a(i), pair_b(i)};
      p[0].dtype = p[1].dtype = NUMERIC[t];
      CHECK(op_check("Mod", NULL, 2, p, 0, 0));
      CHECK(op_check("Mod", "{\"fmod\":1}", 2, p, 0, 0));
    }
}

TEST(variadic_vs_reference) {
  static const char *const OPS[] = {"Min", "Max", "Sum", "Mean"};
  for (int o = 0; o < 4; o++)
    for (int t = 0; t < (o == 3 ? 1 : 3); t++) {
      const float tol = o >= 2 && t == 0 ? 1e-6f : 0.0f;
      wnn_tdesc in[4] = {TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_F32, 2, 1), TD(WNN_DTYPE_F32, 5, 2, 3),
                         TD_SCALAR(WNN_DTYPE_F32)};
      for (int k = 0; k < 4; k++) in[k].dtype = NUMERIC[t];
      for (int n = 1; n <= 4; n++)
        if (!op_check(OPS[o], NULL, n, in, tol, tol)) {
          printf("  failed: %s %s with %d inputs\n", OPS[o], wnn_dtype_name(NUMERIC[t]), n);
          CHECK(0);
        }
      wnn_tdesc same[3] = {TD(WNN_DTYPE_F32, 1001), TD(WNN_DTYPE_F32, 1001), TD(WNN_DTYPE_F32, 1)};
      for (int k = 0; k < 3; k++) same[k].dtype = NUMERIC[t];
      CHECK(op_check(OPS[o], NULL, 3, same, tol, tol));
      wnn_tdesc empty[2] = {TD(WNN_DTYPE_F32, 0, 3), TD(WNN_DTYPE_F32, 3)};
      for (int k = 0; k < 2; k++) empty[k].dtype = NUMERIC[t];
      CHECK(op_check(OPS[o], NULL, 2, empty, tol, tol));
    }
}

TEST(variadic_hand_computed) {
  /* Input 0 is smaller than the output, so it is broadcast first. */
  float a[2] = {1, 5}, b[2 * 2] = {3, 2, 6, -1}, c[1] = {4};
  void *in[3] = {a, b, c};
  const wnn_tdesc d[3] = {TD(WNN_DTYPE_F32, 2), TD(WNN_DTYPE_F32, 2, 2), TD(WNN_DTYPE_F32, 1)};
  CHECK(op_expect("Sum", NULL, 3, d, in, (const float[]){8, 11, 11, 8}, 4, 0));
  CHECK(op_expect("Mean", NULL, 3, d, in, (const float[]){8.0f / 3, 11.0f / 3, 11.0f / 3, 8.0f / 3}, 4, 1e-6f));
  CHECK(op_expect("Max", NULL, 3, d, in, (const float[]){4, 5, 6, 5}, 4, 0));
  CHECK(op_expect("Min", NULL, 3, d, in, (const float[]){1, 2, 1, -1}, 4, 0));
  CHECK(op_expect("Max", NULL, 1, d, in, (const float[]){1, 5}, 2, 0));
  /* NaN propagates through Min and Max. */
  float n1[2] = {NAN, 1}, n2[2] = {0, NAN};
  void *nin[2] = {n1, n2};
  const wnn_tdesc nd[2] = {TD(WNN_DTYPE_F32, 2), TD(WNN_DTYPE_F32, 2)};
  op_case oc;
  CHECK_OK(op_prepare(&oc, "Min", NULL, 2, nd, 1));
  void *out[1];
  CHECK_OK(op_exec(&oc, oc.op->run, nin, out));
  CHECK(isnan(((float *)out[0])[0]) && isnan(((float *)out[0])[1]));
  free(out[0]);
  int64_t i1[2] = {INT64_MAX, -3}, i2[2] = {1, 10};
  void *iin[2] = {i1, i2};
  const wnn_tdesc id[2] = {TD(WNN_DTYPE_I64, 2), TD(WNN_DTYPE_I64, 2)};
  CHECK_OK(op_prepare(&oc, "Sum", NULL, 2, id, 1));
  CHECK_OK(op_exec(&oc, oc.op->run, iin, out));
  CHECK(((int64_t *)out[0])[0] == INT64_MIN && ((int64_t *)out[0])[1] == 7); /* wraps */
  free(out[0]);
}

TEST(rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_F32, 3)};
  CHECK(op_fails("Pow", NULL, 2, in, 1, WNN_ERR_SHAPE, "Pow: shapes [2, 3] and [4] do not broadcast"));
  CHECK(op_fails("Sum", NULL, 3, in, 1, WNN_ERR_SHAPE, "Sum: shapes [2, 3] and [4] do not broadcast"));
  CHECK(op_fails("PRelu", NULL, 2, in, 1, WNN_ERR_SHAPE, "PRelu: slope of shape [4] does not broadcast to X's [2, 3]"));
  in[1] = TD(WNN_DTYPE_F32, 2, 2, 3);
  CHECK(op_fails("PRelu", NULL, 2, in, 1, WNN_ERR_SHAPE, "does not broadcast to X's [2, 3]"));
  in[1] = TD(WNN_DTYPE_I32, 3);
  CHECK(op_fails("Max", NULL, 2, in, 1, WNN_ERR_DTYPE, "Max: input 1 (data_1) is int32, expected float32"));
  CHECK(op_fails("Mod", NULL, 2, in, 1, WNN_ERR_DTYPE, "Mod: input 1 (B) is int32, expected float32"));
  in[1] = TD(WNN_DTYPE_F32, 3);
  CHECK(op_fails("Mod", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "float Mod needs fmod=1"));
  CHECK(op_fails("Mod", "{\"fmod\":2}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "fmod"));
  in[0] = TD(WNN_DTYPE_U8, 3);
  CHECK(op_fails("Pow", NULL, 2, in, 1, WNN_ERR_DTYPE, "Pow: input 0 (X) is uint8, expected float32, int32 or int64"));
  CHECK(op_fails("Sum", NULL, 2, in, 1, WNN_ERR_DTYPE, "Sum: input 0 (data_0) is uint8, expected float32, int32, int64"));
  in[0] = TD(WNN_DTYPE_I32, 3);
  CHECK(op_fails("Mean", NULL, 2, in, 1, WNN_ERR_DTYPE, "Mean: input 0 (data_0) is int32"));
  in[0] = TD(WNN_DTYPE_BOOL, 3);
  CHECK(op_fails("Min", NULL, 1, in, 1, WNN_ERR_DTYPE, "Min: input 0 (data_0) is bool, expected float32, int32, int64, int8 or uint8"));
  CHECK(op_fails("Mod", NULL, 1, in, 1, WNN_ERR_MALFORMED, "1 inputs"));
  in[1] = TD(WNN_DTYPE_BOOL, 3);
  CHECK(op_fails("Mod", NULL, 2, in, 1, WNN_ERR_DTYPE, "Mod: input 0 (A) is bool"));
  CHECK(op_fails("Sum", NULL, 0, in, 1, WNN_ERR_MALFORMED, "0 inputs"));
  CHECK(op_fails("PRelu", NULL, 1, in, 1, WNN_ERR_MALFORMED, "1 inputs"));
}

/* -------------------------------------------------------------- BitShift */

TEST(bitshift) {
  uint8_t x[4] = {16, 4, 1, 200}, y[4] = {1, 2, 3, 9};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_U8, 4), TD(WNN_DTYPE_U8, 4)};
  void *data[2] = {x, y};
  const uint8_t right[4] = {8, 1, 0, 0}, left[4] = {32, 16, 8, 0};
  CHECK(op_check_data("BitShift", "{\"direction\":\"RIGHT\"}", 2, in, data, 1, right, 4, 0, 0));
  CHECK(op_check_data("BitShift", "{\"direction\":\"LEFT\"}", 2, in, data, 1, left, 4, 0, 0));
  uint8_t one = 1;
  wnn_tdesc sc[2] = {TD(WNN_DTYPE_U8, 4), TD_SCALAR(WNN_DTYPE_U8)};
  void *sd[2] = {x, &one};
  const uint8_t left1[4] = {32, 8, 2, 144}; /* 400 wraps to 144 */
  CHECK(op_check_data("BitShift", "{\"direction\":\"LEFT\"}", 2, sc, sd, 1, left1, 4, 0, 0));
  /* Broadcast, random bytes (shifts of 8 and more included). */
  wnn_tdesc br[2] = {TD(WNN_DTYPE_U8, 3, 1, 5), TD(WNN_DTYPE_U8, 4, 1)};
  CHECK(op_check("BitShift", "{\"direction\":\"LEFT\"}", 2, br, 0, 0));
  CHECK(op_check("BitShift", "{\"direction\":\"RIGHT\"}", 2, br, 0, 0));
  CHECK(op_fails("BitShift", NULL, 2, in, 1, WNN_ERR_BAD_ATTRIBUTE, "'direction' is required"));
  CHECK(op_fails("BitShift", "{\"direction\":\"UP\"}", 2, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "direction is 'UP'"));
  in[1].dtype = WNN_DTYPE_I32;
  CHECK(op_fails("BitShift", "{\"direction\":\"UP\"}", 2, in, 1, WNN_ERR_DTYPE,
                 "BitShift: input 1 (Y) is int32, expected uint8"));
  in[1] = TD(WNN_DTYPE_U8, 3);
  CHECK(op_fails("BitShift", "{\"direction\":\"LEFT\"}", 2, in, 1, WNN_ERR_SHAPE,
                 "do not broadcast"));
}

int main(void) {
  RUN(pow_broadcast);
  RUN(pow_hand_computed);
  RUN(pow_integer_base);
  RUN(small_integers);
  RUN(prelu);
  RUN(mod);
  RUN(variadic_vs_reference);
  RUN(variadic_hand_computed);
  RUN(rejects);
  RUN(bitshift);
  return test_summary();
}
