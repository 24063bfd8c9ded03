/* Einsum: the label-walking run vs the every-assignment reference over
 * explicit, implicit, diagonal, broadcast and reduction equations;
 * hand-computed results; rejections. Sums in different orders: rtol 1e-5,
 * atol 1e-5. */
#include "op_harness.h"
#include "ops/op_internal.h"

#define RTOL 1e-5f
#define ATOL 1e-5f

static int eq(const char *equation, int n, const wnn_tdesc *in) {
  char attrs[128];
  snprintf(attrs, sizeof attrs, "{\"equation\":\"%s\"}", equation);
  return op_check("Einsum", attrs, n, in, RTOL, ATOL);
}

/* The output shape prepare infers for equation over inputs, as "[...]". */
static int shape_is(const char *equation, int n, const wnn_tdesc *in, const char *want) {
  char attrs[128], got[64];
  snprintf(attrs, sizeof attrs, "{\"equation\":\"%s\"}", equation);
  op_case c;
  if (op_prepare(&c, "Einsum", attrs, n, in, 1) != WNN_OK) {
    printf("  %s: %s: %s\n", test_current_, equation, c.msg);
    return 0;
  }
  wnn_format_dims(got, sizeof got, c.outputs[0].ndim, c.outputs[0].dims);
  if (strcmp(got, want) != 0)
    printf("  %s: %s gives %s, wanted %s\n", test_current_, equation, got, want);
  return strcmp(got, want) == 0;
}

TEST(vs_reference) {
  const wnn_tdesc a = TD(WNN_DTYPE_F32, 3, 4), b = TD(WNN_DTYPE_F32, 4, 5);
  CHECK(eq("ij,jk->ik", 2, (wnn_tdesc[]){a, b}));
  CHECK(eq("ij,jk", 2, (wnn_tdesc[]){a, b}));
  CHECK(eq("ij->ji", 1, &a));
  CHECK(eq("ij->", 1, &a));
  CHECK(eq("ij->j", 1, &a));
  CHECK(eq("i,j->ij", 2, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3), TD(WNN_DTYPE_F32, 5)}));
  CHECK(eq("i,i", 2, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 7), TD(WNN_DTYPE_F32, 7)}));
  CHECK(eq("ii->i", 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 4, 4)}));
  CHECK(eq("ii", 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 4, 4)}));
  CHECK(
      eq("bij,bjk->bik", 2, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 3, 4), TD(WNN_DTYPE_F32, 2, 4, 5)}));
  CHECK(eq("...ij,...jk->...ik", 2,
           (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 1, 3, 4), TD(WNN_DTYPE_F32, 3, 4, 5)}));
  CHECK(eq("...ii->...i", 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3, 5, 5)}));
  CHECK(eq("i...->...", 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3, 2, 4)}));
  CHECK(eq("bhqd,bhkd->bhqk", 2,
           (wnn_tdesc[]){TD(WNN_DTYPE_F32, 1, 2, 3, 4), TD(WNN_DTYPE_F32, 1, 2, 5, 4)}));
  CHECK(
      eq("ij,jk,kl->il", 3,
         (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 3), TD(WNN_DTYPE_F32, 3, 4), TD(WNN_DTYPE_F32, 4, 2)}));
  CHECK(eq("Ab,bA->A", 2, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3, 2), TD(WNN_DTYPE_F32, 2, 3)}));
  CHECK(eq("ij,jk->ik", 2, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3, 0), TD(WNN_DTYPE_F32, 0, 2)}));
}

TEST(shapes) {
  CHECK(shape_is("ij,jk", 2, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3, 4), TD(WNN_DTYPE_F32, 4, 5)},
                 "[3, 5]"));
  /* Implicit order is ASCII: 'B' before 'a'. */
  CHECK(shape_is("aB", 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3, 4)}, "[4, 3]"));
  CHECK(shape_is("ij->", 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 3, 4)}, "[]"));
  CHECK(shape_is("...i,...i->...", 2,
                 (wnn_tdesc[]){TD(WNN_DTYPE_F32, 4, 1, 3), TD(WNN_DTYPE_F32, 5, 3)}, "[4, 5]"));
  CHECK(shape_is("i...j", 1, (wnn_tdesc[]){TD(WNN_DTYPE_F32, 2, 6, 7, 3)}, "[6, 7, 2, 3]"));
}

TEST(hand_computed) {
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  void *in[2] = {a, b};
  const wnn_tdesc d[2] = {TD(WNN_DTYPE_F32, 2, 2), TD(WNN_DTYPE_F32, 2, 2)};
  /* [[1,2],[3,4]] x [[5,6],[7,8]] = [[19,22],[43,50]] */
  const float mm[4] = {19, 22, 43, 50};
  CHECK(op_expect("Einsum", "{\"equation\":\"ij,jk->ik\"}", 2, d, in, mm, 4, 0));
  const float trace[1] = {5};
  CHECK(op_expect("Einsum", "{\"equation\":\"ii\"}", 1, d, in, trace, 1, 0));
  const float transposed[4] = {1, 3, 2, 4};
  CHECK(op_expect("Einsum", "{\"equation\":\"ij->ji\"}", 1, d, in, transposed, 4, 0));
  /* Element-wise product summed over j: [1*5 + 2*6, 3*7 + 4*8]. */
  const float rowdot[2] = {17, 53};
  CHECK(op_expect("Einsum", "{\"equation\":\"ij,ij->i\"}", 2, d, in, rowdot, 2, 0));
}

TEST(rejects) {
  const wnn_tdesc a[2] = {TD(WNN_DTYPE_F32, 3, 4), TD(WNN_DTYPE_F32, 5, 6)};
  CHECK(op_fails("Einsum", NULL, 1, a, 1, WNN_ERR_BAD_ATTRIBUTE, "equation is required"));
  CHECK(op_fails("Einsum", "{\"equation\":\"ij,jk->ik\"}", 2, a, 1, WNN_ERR_SHAPE,
                 "label 'j' has size 5 in input 1 but 4 elsewhere"));
  CHECK(op_fails("Einsum", "{\"equation\":\"ijk\"}", 1, a, 1, WNN_ERR_SHAPE,
                 "input 0 has 2 dims, its term names 3"));
  CHECK(op_fails("Einsum", "{\"equation\":\"ij,kl,mn\"}", 2, a, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "more terms than the 2 inputs"));
  CHECK(op_fails("Einsum", "{\"equation\":\"ij\"}", 2, a, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "1 terms for 2 inputs"));
  CHECK(op_fails("Einsum", "{\"equation\":\"ij->k\"}", 1, a, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "output label 'k' is in no input"));
  CHECK(op_fails("Einsum", "{\"equation\":\"ij->ii\"}", 1, a, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "output label 'i' is repeated"));
  CHECK(op_fails("Einsum", "{\"equation\":\"i1\"}", 1, a, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "invalid character '1'"));
  CHECK(op_fails("Einsum", "{\"equation\":\"i..j\"}", 1, a, 1, WNN_ERR_BAD_ATTRIBUTE, "stray '.'"));
  const wnn_tdesc e = TD(WNN_DTYPE_F32, 2, 3, 4);
  CHECK(op_fails("Einsum", "{\"equation\":\"...j->j\"}", 1, &e, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "the output of '...j->j' does not"));
  const wnn_tdesc big = TD(WNN_DTYPE_F32, 1, 1, 1, 1, 1, 1, 1);
  CHECK(op_fails("Einsum", "{\"equation\":\"abcdefg,hijklmn\"}", 2, (wnn_tdesc[]){big, big}, 1,
                 WNN_ERR_UNSUPPORTED, "14 labels"));
  const wnn_tdesc ints[2] = {TD(WNN_DTYPE_I64, 3, 4), TD(WNN_DTYPE_F32, 4)};
  CHECK(op_fails("Einsum", "{\"equation\":\"ij,j\"}", 2, ints, 1, WNN_ERR_DTYPE, "int64"));
}

int main(void) {
  RUN(vs_reference);
  RUN(shapes);
  RUN(hand_computed);
  RUN(rejects);
  return test_summary();
}
