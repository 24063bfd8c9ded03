/* Every op flagged WNN_OP_INPLACE (the plan may put its output over an input
 * of the same byte size that dies there, docs/format.md): run with the output
 * in the very buffer of each such input, it must give the bytes it gives out
 * of place, with every kernel set, on a ragged shape, with and without
 * broadcast operands. The flagged ops also have no scratch. */
#include <stdint.h>

#include "op_harness.h"

/* How to feed an op: its input count (binary ops also get a broadcast
 * operand) and the dtypes it takes. */
static int arity(const wnn_op *op) { return op->min_inputs >= 2 ? 2 : 1; }

static int dtypes_of(const wnn_op *op, wnn_dtype *out) {
  int n = 0;
  out[n++] = WNN_DTYPE_F32;
  if (op->min_inputs == 2) { /* Add, Sub, Mul, Div */
    out[n++] = WNN_DTYPE_I32;
    out[n++] = WNN_DTYPE_I64;
    out[n++] = WNN_DTYPE_U8;
  }
  return n;
}

/* Runs c on `in` with the output in out (which may be one of the inputs). */
static wnn_status run_into(op_case *c, void *const *in, void *out) {
  wnn_tensor ins[WNN_MAX_IO], outs[1];
  for (int i = 0; i < c->num_inputs; i++)
    ins[i] = (wnn_tensor){in[i], c->inputs[i].dtype, c->inputs[i].ndim, c->inputs[i].dims};
  outs[0] = (wnn_tensor){out, c->outputs[0].dtype, c->outputs[0].ndim, c->outputs[0].dims};
  char msg[256] = "";
  wnn_run_ctx ctx = {c->params, c->num_inputs, ins, 1, outs, NULL, msg, sizeof msg};
  return c->op->run(&ctx);
}

/* One op, dtype and pair of shapes (b unused for unary ops), under kernels. */
static int check_case(const wnn_op *op, wnn_dtype dt, wnn_tdesc a, wnn_tdesc b,
                      wnn_kernels kernels) {
  a.dtype = b.dtype = dt;
  const wnn_tdesc in[2] = {a, b};
  op_case c;
  const int n = arity(op);
  if (op_prepare_k(&c, op->name, NULL, n, in, 1, kernels) != WNN_OK) {
    printf("  %s %s: prepare failed: %s\n", op->name, wnn_dtype_name(dt), c.msg);
    return 0;
  }
  if (c.scratch_bytes) {
    printf("  %s: an in-place op asks for scratch\n", op->name);
    return 0;
  }
  void *x[2] = {NULL, NULL};
  for (int i = 0; i < n; i++) x[i] = make_input(&c.inputs[i]);
  const size_t ybytes = td_bytes(&c.outputs[0]);
  void *want = malloc(ybytes + 1);
  int ok = run_into(&c, x, want) == WNN_OK;
  for (int k = 0; ok && k < n; k++) {
    if (td_bytes(&c.inputs[k]) != ybytes) continue; /* only a same-size input */
    void *copy[2] = {x[0], x[1]};
    copy[k] = malloc(ybytes + 1);
    memcpy(copy[k], x[k], ybytes);
    ok = run_into(&c, copy, copy[k]) == WNN_OK && memcmp(copy[k], want, ybytes) == 0;
    if (!ok)
      printf("  %s %s: in place over input %d differs from out of place\n", op->name,
             wnn_dtype_name(dt), k);
    free(copy[k]);
  }
  for (int i = 0; i < n; i++) free(x[i]);
  free(want);
  return ok;
}

TEST(inplace_ops_match_out_of_place) {
  int ops = 0;
  for (int code = 0; code < 1024; code++) {
    const wnn_op *op = wnn_op_by_code(code);
    if (!op || !(op->flags & WNN_OP_INPLACE)) continue;
    ops++;
    CHECK(op->max_outputs == 1);
    wnn_dtype dts[4];
    const int nd = dtypes_of(op, dts);
    for (int d = 0; d < nd; d++)
      for (int kk = 0; kk < 2; kk++) {
        const wnn_kernels k = kk ? WNN_KERNELS_SCALAR : WNN_KERNELS_AUTO;
        const wnn_tdesc full = TD(WNN_DTYPE_F32, 2, 3, 37);
        CHECK(check_case(op, dts[d], full, full, k));
        if (arity(op) == 2) {
          CHECK(check_case(op, dts[d], full, TD(WNN_DTYPE_F32, 37), k));
          CHECK(check_case(op, dts[d], TD(WNN_DTYPE_F32, 3, 1), full, k));
          CHECK(check_case(op, dts[d], TD(WNN_DTYPE_F32, 1), TD(WNN_DTYPE_F32, 1), k));
        }
      }
  }
  printf("  %d ops flagged in place\n", ops);
  CHECK(ops >= 29);
}

int main(void) {
  RUN(inplace_ops_match_out_of_place);
  return test_summary();
}
