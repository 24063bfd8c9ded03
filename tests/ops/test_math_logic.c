/* Comparisons (Equal, Less, LessOrEqual, Greater, GreaterOrEqual), And, Or,
 * Xor, Not, Where, IsNaN, IsInf: run vs reference with broadcasting (outputs
 * compared bytewise: bools are exactly 0 or 1), hand-computed values,
 * failures. */
#include <math.h>
#include <stdint.h>

#include "op_harness.h"

static const char *const CMP[] = {"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"};
static const wnn_dtype NUMERIC[] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64};

static int shapes(int i, wnn_tdesc *a, wnn_tdesc *b) {
  switch (i) {
    case 0: *a = TD(WNN_DTYPE_F32, 2, 3, 4), *b = TD(WNN_DTYPE_F32, 2, 3, 4); return 1;
    case 1: *a = TD(WNN_DTYPE_F32, 2, 3, 4), *b = TD(WNN_DTYPE_F32, 3, 1); return 1;
    case 2: *a = TD(WNN_DTYPE_F32, 1), *b = TD(WNN_DTYPE_F32, 17); return 1;
    case 3: *a = TD_SCALAR(WNN_DTYPE_F32), *b = TD(WNN_DTYPE_F32, 2, 1, 5); return 1;
    case 4: *a = TD(WNN_DTYPE_F32, 1001), *b = TD_SCALAR(WNN_DTYPE_F32); return 1;
    case 5: *a = TD(WNN_DTYPE_F32, 0, 3), *b = TD(WNN_DTYPE_F32, 3); return 1;
    default: return 0;
  }
}

TEST(comparisons_vs_reference) {
  wnn_tdesc in[2];
  for (int s = 0; shapes(s, &in[0], &in[1]); s++)
    for (int t = 0; t < 3; t++)
      for (int o = 0; o < 5; o++) {
        in[0].dtype = in[1].dtype = NUMERIC[t];
        if (!op_check(CMP[o], NULL, 2, in, 0, 0)) {
          printf("  failed: %s %s shapes %d\n", CMP[o], wnn_dtype_name(NUMERIC[t]), s);
          CHECK(0);
        }
      }
}

TEST(logic_vs_reference) {
  static const char *const OPS[] = {"And", "Or", "Xor", "Equal"};
  wnn_tdesc in[2];
  for (int s = 0; shapes(s, &in[0], &in[1]); s++)
    for (int o = 0; o < 4; o++) {
      in[0].dtype = in[1].dtype = WNN_DTYPE_BOOL;
      CHECK(op_check(OPS[o], NULL, 2, in, 0, 0));
    }
  const wnn_tdesc x = TD(WNN_DTYPE_BOOL, 3, 7);
  CHECK(op_check("Not", NULL, 1, &x, 0, 0));
  const wnn_tdesc f = TD(WNN_DTYPE_F32, 5, 3);
  CHECK(op_check("IsNaN", NULL, 1, &f, 0, 0));
  CHECK(op_check("IsInf", NULL, 1, &f, 0, 0));
}

static int expect_bytes(const char *name, const char *attrs, int n_in, const wnn_tdesc *d,
                        void *const *in, const void *want, size_t bytes) {
  op_case c;
  if (op_prepare(&c, name, attrs, n_in, d, 1) != WNN_OK) {
    printf("  prepare %s failed: %s\n", name, c.msg);
    return 0;
  }
  int ok = 1;
  for (int f = 0; f < 2; f++) {
    void *out[1];
    ok = op_exec(&c, f ? c.op->reference : c.op->run, in, out) == WNN_OK && ok;
    if (memcmp(out[0], want, bytes) != 0) {
      printf("  %s (%s) differs from the expected bytes\n", name, f ? "reference" : "run");
      ok = 0;
    }
    free(out[0]);
  }
  return ok;
}

TEST(hand_computed) {
  float a[3] = {1.0f, 2.0f, NAN}, b[1] = {2.0f};
  void *in[2] = {a, b};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_F32, 1)};
  CHECK(expect_bytes("Equal", NULL, 2, d, in, (const uint8_t[]){0, 1, 0}, 3));
  CHECK(expect_bytes("Less", NULL, 2, d, in, (const uint8_t[]){1, 0, 0}, 3));
  CHECK(expect_bytes("LessOrEqual", NULL, 2, d, in, (const uint8_t[]){1, 1, 0}, 3));
  CHECK(expect_bytes("Greater", NULL, 2, d, in, (const uint8_t[]){0, 0, 0}, 3));
  CHECK(expect_bytes("GreaterOrEqual", NULL, 2, d, in, (const uint8_t[]){0, 1, 0}, 3));
  int64_t ia[2] = {INT64_MAX, INT64_MAX - 1}, ib[1] = {INT64_MAX}; /* not equal as doubles */
  void *iin[2] = {ia, ib};
  const wnn_tdesc id[2] = {TD(WNN_DTYPE_I64, 2), TD(WNN_DTYPE_I64, 1)};
  CHECK(expect_bytes("Equal", NULL, 2, id, iin, (const uint8_t[]){1, 0}, 2));
  CHECK(expect_bytes("Less", NULL, 2, id, iin, (const uint8_t[]){0, 1}, 2));
  uint8_t p[4] = {0, 0, 1, 1}, q[4] = {0, 1, 0, 1};
  void *bin[2] = {p, q};
  const wnn_tdesc bd[2] = {TD(WNN_DTYPE_BOOL, 4), TD(WNN_DTYPE_BOOL, 4)};
  CHECK(expect_bytes("And", NULL, 2, bd, bin, (const uint8_t[]){0, 0, 0, 1}, 4));
  CHECK(expect_bytes("Or", NULL, 2, bd, bin, (const uint8_t[]){0, 1, 1, 1}, 4));
  CHECK(expect_bytes("Xor", NULL, 2, bd, bin, (const uint8_t[]){0, 1, 1, 0}, 4));
  CHECK(expect_bytes("Equal", NULL, 2, bd, bin, (const uint8_t[]){1, 0, 0, 1}, 4));
  CHECK(expect_bytes("Not", NULL, 1, bd, bin, (const uint8_t[]){1, 1, 0, 0}, 4));
  float s[4] = {NAN, INFINITY, -INFINITY, 1.0f};
  void *sin_[1] = {s};
  const wnn_tdesc sd = TD(WNN_DTYPE_F32, 4);
  CHECK(expect_bytes("IsNaN", NULL, 1, &sd, sin_, (const uint8_t[]){1, 0, 0, 0}, 4));
  CHECK(expect_bytes("IsInf", NULL, 1, &sd, sin_, (const uint8_t[]){0, 1, 1, 0}, 4));
  CHECK(expect_bytes("IsInf", "{\"detect_negative\":0}", 1, &sd, sin_, (const uint8_t[]){0, 1, 0, 0}, 4));
  CHECK(expect_bytes("IsInf", "{\"detect_positive\":0}", 1, &sd, sin_, (const uint8_t[]){0, 0, 1, 0}, 4));
}

TEST(where) {
  /* condition [2, 1], X [3], Y scalar: all three broadcast to [2, 3]. */
  uint8_t c[2] = {1, 0};
  float x[3] = {1, 2, 3}, y[1] = {-1};
  void *in[3] = {c, x, y};
  const wnn_tdesc d[3] = {TD(WNN_DTYPE_BOOL, 2, 1), TD(WNN_DTYPE_F32, 3), TD_SCALAR(WNN_DTYPE_F32)};
  CHECK(op_expect("Where", NULL, 3, d, in, (const float[]){1, 2, 3, -1, -1, -1}, 6, 0));
  int64_t xl[2] = {10, 20}, yl[2] = {-10, -20};
  uint8_t cl[4] = {1, 0, 0, 1};
  void *inl[3] = {cl, xl, yl};
  const wnn_tdesc dl[3] = {TD(WNN_DTYPE_BOOL, 2, 2), TD(WNN_DTYPE_I64, 2), TD(WNN_DTYPE_I64, 2)};
  CHECK(expect_bytes("Where", NULL, 3, dl, inl, (const int64_t[]){10, -20, -10, 20}, 32));
  const wnn_dtype dts[4] = {WNN_DTYPE_F32, WNN_DTYPE_I32, WNN_DTYPE_I64, WNN_DTYPE_BOOL};
  for (int t = 0; t < 4; t++) {
    wnn_tdesc w[3] = {TD(WNN_DTYPE_BOOL, 2, 1, 4), TD(WNN_DTYPE_F32, 3, 1), TD(WNN_DTYPE_F32, 1, 1, 1)};
    w[1].dtype = w[2].dtype = dts[t];
    CHECK(op_check("Where", NULL, 3, w, 0, 0));
    wnn_tdesc v[3] = {TD(WNN_DTYPE_BOOL, 17), TD(WNN_DTYPE_F32, 17), TD(WNN_DTYPE_F32, 17)};
    v[1].dtype = v[2].dtype = dts[t];
    CHECK(op_check("Where", NULL, 3, v, 0, 0));
    wnn_tdesc e[3] = {TD(WNN_DTYPE_BOOL, 0, 2), TD(WNN_DTYPE_F32, 2), TD_SCALAR(WNN_DTYPE_F32)};
    e[1].dtype = e[2].dtype = dts[t];
    CHECK(op_check("Where", NULL, 3, e, 0, 0));
  }
}

TEST(rejects) {
  wnn_tdesc in[3] = {TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_F32, 3)};
  CHECK(op_fails("Less", NULL, 2, in, 1, WNN_ERR_SHAPE, "Less: shapes [2, 3] and [4] do not broadcast"));
  CHECK(op_fails("And", NULL, 2, in, 1, WNN_ERR_DTYPE, "And: input 0 (A) is float32, expected bool"));
  CHECK(op_fails("Not", NULL, 1, in, 1, WNN_ERR_DTYPE, "Not: input 0 (X) is float32, expected bool"));
  CHECK(op_fails("Where", NULL, 3, in, 1, WNN_ERR_DTYPE, "Where: input 0 (condition) is float32, expected bool"));
  in[1] = TD(WNN_DTYPE_I32, 3);
  CHECK(op_fails("Greater", NULL, 2, in, 1, WNN_ERR_DTYPE, "Greater: input 1 (B) is int32, expected float32"));
  in[0] = TD(WNN_DTYPE_BOOL, 3);
  CHECK(op_fails("Less", NULL, 2, in, 1, WNN_ERR_DTYPE, "Less: input 0 (A) is bool, expected float32, int32 or int64"));
  in[0] = TD(WNN_DTYPE_BOOL, 2, 1);
  in[1] = TD(WNN_DTYPE_F32, 3);
  in[2] = TD(WNN_DTYPE_I32, 3);
  CHECK(op_fails("Where", NULL, 3, in, 1, WNN_ERR_DTYPE, "Where: input 2 (Y) is int32, expected float32"));
  in[2] = TD(WNN_DTYPE_F32, 4, 1, 1);
  in[0] = TD(WNN_DTYPE_BOOL, 2, 1);
  in[2] = TD(WNN_DTYPE_F32, 5, 1);
  CHECK(op_fails("Where", NULL, 3, in, 1, WNN_ERR_SHAPE, "Where: shapes [2, 3] and [5, 1] do not broadcast"));
  in[0] = TD(WNN_DTYPE_F32, 3);
  CHECK(op_fails("IsInf", "{\"detect_negative\":3}", 1, in, 1, WNN_ERR_BAD_ATTRIBUTE, "detect_negative (3)"));
  CHECK(op_fails("Where", NULL, 2, in, 1, WNN_ERR_MALFORMED, "2 inputs"));
}

int main(void) {
  RUN(comparisons_vs_reference);
  RUN(logic_vs_reference);
  RUN(hand_computed);
  RUN(where);
  RUN(rejects);
  return test_summary();
}
