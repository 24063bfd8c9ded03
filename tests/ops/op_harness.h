/*
 * Helpers for the op-level tests: prepare one node without the builder, fill
 * its inputs from a fixed-seed LCG, run both op->run and op->reference on the
 * same inputs and compare. Every test program includes this after test.h.
 */
#ifndef WNN_OP_HARNESS_H
#define WNN_OP_HARNESS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/half.h"
#include "ops/op.h"
#include "../test.h"

/* Numerical Recipes' LCG: the same numbers on every host and in wasm. */
static uint32_t lcg_state = 12345u;
static inline uint32_t lcg_next(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state;
}
/* Uniform in [-1, 1). */
static inline float lcg_float(void) { return (float)(lcg_next() >> 8) / 8388608.0f - 1.0f; }

typedef struct op_case {
  const wnn_op *op;
  _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
  int num_inputs, num_outputs;
  wnn_tdesc inputs[WNN_MAX_IO], outputs[WNN_MAX_IO];
  size_t scratch_bytes;
  char msg[256];
} op_case;

static inline wnn_tdesc td(wnn_dtype dtype, int ndim, const int64_t *dims) {
  wnn_tdesc t;
  memset(&t, 0, sizeof t);
  t.dtype = dtype;
  t.ndim = ndim;
  for (int i = 0; i < ndim; i++) t.dims[i] = dims[i];
  return t;
}
#define TD(dtype, ...) \
  td(dtype, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})
#define TD_SCALAR(dtype) td(dtype, 0, NULL)
static const wnn_tdesc TD_OMITTED = {WNN_DTYPE_INVALID, 0, {0}, NULL};

/* check_node + prepare. attrs_json may be NULL. capped and cap: the
 * prepare context's scratch_capped and scratch_cap (as when an artifact
 * loads with the scratch its writer planned). */
static inline wnn_status op_prepare_cap(op_case *c, const char *name, const char *attrs_json,
                                        int num_inputs, const wnn_tdesc *inputs, int num_outputs,
                                        wnn_kernels kernels, bool capped, size_t cap) {
  memset(c, 0, sizeof *c);
  c->op = wnn_op_by_name(name);
  if (!c->op) return WNN_ERR_UNKNOWN_OP;
  c->num_inputs = num_inputs, c->num_outputs = num_outputs;
  memcpy(c->inputs, inputs, (size_t)num_inputs * sizeof *inputs);
  cJSON *attrs = attrs_json ? cJSON_Parse(attrs_json) : NULL;
  if (attrs_json && !attrs) return WNN_ERR_MALFORMED;
  wnn_status st = wnn_op_check_node(c->op, wnn_attrs_from_json(attrs), num_inputs, num_outputs,
                                    c->msg, sizeof c->msg);
  if (st == WNN_OK) {
    wnn_prepare_ctx ctx = {wnn_attrs_from_json(attrs), num_inputs, c->inputs, num_outputs, c->outputs, c->params,
                           0,         kernels,    c->msg,    sizeof c->msg, capped, cap};
    st = c->op->prepare(&ctx);
    c->scratch_bytes = ctx.scratch_bytes;
  }
  cJSON_Delete(attrs);
  return st;
}

static inline wnn_status op_prepare_k(op_case *c, const char *name, const char *attrs_json,
                                      int num_inputs, const wnn_tdesc *inputs, int num_outputs,
                                      wnn_kernels kernels) {
  return op_prepare_cap(c, name, attrs_json, num_inputs, inputs, num_outputs, kernels, false, 0);
}

static inline wnn_status op_prepare(op_case *c, const char *name, const char *attrs_json,
                                    int num_inputs, const wnn_tdesc *inputs, int num_outputs) {
  return op_prepare_k(c, name, attrs_json, num_inputs, inputs, num_outputs, WNN_KERNELS_AUTO);
}

static inline size_t td_bytes(const wnn_tdesc *t) {
  return (size_t)wnn_shape_numel(t->ndim, t->dims) * wnn_dtype_size(t->dtype);
}

/* Runs fn (run or reference) on the given input buffers into fresh outputs,
 * which the caller frees. */
static inline wnn_status op_exec(op_case *c, wnn_status (*fn)(const wnn_run_ctx *),
                                 void *const *in_data, void **out_data) {
  wnn_tensor ins[WNN_MAX_IO], outs[WNN_MAX_IO];
  for (int i = 0; i < c->num_inputs; i++) {
    ins[i].data = c->inputs[i].dtype == WNN_DTYPE_INVALID ? NULL : in_data[i];
    ins[i].dtype = c->inputs[i].dtype;
    ins[i].ndim = c->inputs[i].ndim;
    ins[i].dims = c->inputs[i].dims;
  }
  for (int i = 0; i < c->num_outputs; i++) {
    /* NaN-filled (0xff bytes), so an element the op forgets to write shows. */
    size_t bytes = td_bytes(&c->outputs[i]);
    out_data[i] = malloc(bytes ? bytes : 1);
    memset(out_data[i], 0xff, bytes);
    outs[i].data = out_data[i];
    outs[i].dtype = c->outputs[i].dtype;
    outs[i].ndim = c->outputs[i].ndim;
    outs[i].dims = c->outputs[i].dims;
  }
  size_t sbytes = (c->scratch_bytes + 63) / 64 * 64;
  void *scratch = sbytes ? aligned_alloc(64, sbytes) : NULL;
  if (scratch) memset(scratch, 0xff, sbytes);
  char msg[256] = "";
  wnn_run_ctx ctx = {c->params, c->num_inputs, ins,   c->num_outputs,
                     outs,      scratch,       msg,   sizeof msg};
  wnn_status st = fn(&ctx);
  free(scratch);
  return st;
}

/* Fills a buffer for input t: constants are copied, float32 is uniform in
 * [-1, 1), float16 in [-4, 4) (rounded), integers in [-20, 20]. */
static inline void *make_input(const wnn_tdesc *t) {
  size_t bytes = td_bytes(t);
  void *p = malloc(bytes ? bytes : 1);
  if (t->data) {
    memcpy(p, t->data, bytes);
    return p;
  }
  size_t n = (size_t)wnn_shape_numel(t->ndim, t->dims);
  for (size_t i = 0; i < n; i++) {
    switch (t->dtype) {
      case WNN_DTYPE_F32: ((float *)p)[i] = lcg_float(); break;
      case WNN_DTYPE_F16: ((uint16_t *)p)[i] = wnn_f32_to_f16(4.0f * lcg_float()); break;
      case WNN_DTYPE_F64: ((double *)p)[i] = 1e10 * lcg_float() + lcg_float() * 1e-3; break;
      case WNN_DTYPE_I32: ((int32_t *)p)[i] = (int32_t)(lcg_next() % 41u) - 20; break;
      case WNN_DTYPE_I64: ((int64_t *)p)[i] = (int64_t)(lcg_next() % 41u) - 20; break;
      default: ((unsigned char *)p)[i * wnn_dtype_size(t->dtype)] = (unsigned char)lcg_next(); break;
    }
  }
  return p;
}

/* Compares output buffers: floats with allclose, everything else bytewise. */
static inline int outputs_match(const wnn_tdesc *t, const void *got, const void *want, float rtol,
                                float atol) {
  if (t->dtype == WNN_DTYPE_F32)
    return test_allclose(got, want, (size_t)wnn_shape_numel(t->ndim, t->dims), rtol, atol);
  if (memcmp(got, want, td_bytes(t)) != 0) {
    printf("  %s: outputs differ\n", test_current_);
    return 0;
  }
  return 1;
}

/* Prepares, then runs run and reference on the same random inputs and
 * compares. Returns 1 when everything matched. */
static inline int op_check_k(const char *name, const char *attrs, int num_inputs,
                             const wnn_tdesc *inputs, float rtol, float atol, wnn_kernels kernels) {
  op_case c;
  wnn_status st = op_prepare_k(&c, name, attrs, num_inputs, inputs, 1, kernels);
  if (st != WNN_OK) {
    printf("  %s: prepare %s %s failed: %s\n", test_current_, name, attrs ? attrs : "", c.msg);
    return 0;
  }
  if (!c.op->reference || !c.op->run) {
    printf("  %s: %s has no run or no reference\n", test_current_, name);
    return 0;
  }
  void *in[WNN_MAX_IO] = {0}, *got[1], *want[1];
  for (int i = 0; i < num_inputs; i++)
    if (inputs[i].dtype != WNN_DTYPE_INVALID) in[i] = make_input(&inputs[i]);
  int ok = op_exec(&c, c.op->run, in, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, in, want) == WNN_OK && ok;
  ok = ok && outputs_match(&c.outputs[0], got[0], want[0], rtol, atol);
  if (!ok) printf("  %s: mismatch for %s %s\n", test_current_, name, attrs ? attrs : "");
  for (int i = 0; i < num_inputs; i++) free(in[i]);
  free(got[0]);
  free(want[0]);
  return ok;
}

static inline int op_check(const char *name, const char *attrs, int num_inputs,
                           const wnn_tdesc *inputs, float rtol, float atol) {
  return op_check_k(name, attrs, num_inputs, inputs, rtol, atol, WNN_KERNELS_AUTO) &&
         op_check_k(name, attrs, num_inputs, inputs, rtol, atol, WNN_KERNELS_SCALAR);
}

/* Expects prepare (or check_node) to fail with `want`, and its message to
 * contain `needle`. */
static inline int op_fails(const char *name, const char *attrs, int num_inputs,
                           const wnn_tdesc *inputs, int num_outputs, wnn_status want,
                           const char *needle) {
  op_case c;
  wnn_status st = op_prepare(&c, name, attrs, num_inputs, inputs, num_outputs);
  if (st != want) {
    printf("  %s: %s %s gave %s (%s), wanted %s\n", test_current_, name, attrs ? attrs : "",
           wnn_status_str(st), c.msg, wnn_status_str(want));
    return 0;
  }
  if (!strstr(c.msg, needle)) {
    printf("  %s: message '%s' lacks '%s'\n", test_current_, c.msg, needle);
    return 0;
  }
  return 1;
}

/* Runs both implementations on given float input buffers and compares both
 * with hand-computed expected values. */
static inline int op_expect(const char *name, const char *attrs, int num_inputs,
                            const wnn_tdesc *inputs, void *const *in_data, const float *expected,
                            size_t count, float tol) {
  op_case c;
  if (op_prepare(&c, name, attrs, num_inputs, inputs, 1) != WNN_OK) {
    printf("  %s: prepare failed: %s\n", test_current_, c.msg);
    return 0;
  }
  if ((size_t)wnn_shape_numel(c.outputs[0].ndim, c.outputs[0].dims) != count) {
    printf("  %s: output has %lld elements, expected %zu\n", test_current_,
           (long long)wnn_shape_numel(c.outputs[0].ndim, c.outputs[0].dims), count);
    return 0;
  }
  int ok = 1;
  wnn_status (*fns[2])(const wnn_run_ctx *) = {c.op->run, c.op->reference};
  for (int f = 0; f < 2; f++) {
    void *out[1];
    ok = op_exec(&c, fns[f], in_data, out) == WNN_OK && ok;
    ok = test_allclose(out[0], expected, count, 0.0f, tol) && ok;
    free(out[0]);
  }
  return ok;
}

/* Runs run and reference on the given buffers and compares output o of the
 * two (floats: allclose rtol/atol; others: bytes) and, when want is not NULL,
 * run's output o with want (count elements of the output dtype, bytewise for
 * non-floats). */
static inline int op_check_data(const char *name, const char *attrs, int nin, const wnn_tdesc *in,
                                    void *const *data, int nout, const void *want, size_t count, float rtol,
                                    float atol) {
  op_case c;
  if (op_prepare(&c, name, attrs, nin, in, nout) != WNN_OK) {
    printf("  %s: prepare %s %s failed: %s\n", test_current_, name, attrs ? attrs : "", c.msg);
    return 0;
  }
  void *got[3] = {0}, *ref[3] = {0};
  int ok = op_exec(&c, c.op->run, data, got) == WNN_OK;
  ok = op_exec(&c, c.op->reference, data, ref) == WNN_OK && ok;
  for (int o = 0; ok && o < nout; o++)
    ok = outputs_match(&c.outputs[o], got[o], ref[o], rtol, atol);
  if (ok && want) {
    const wnn_tdesc *t = &c.outputs[0];
    const size_t n = (size_t)wnn_shape_numel(t->ndim, t->dims);
    if (n != count) {
      printf("  %s: %zu outputs, expected %zu\n", test_current_, n, count);
      ok = 0;
    } else if (t->dtype == WNN_DTYPE_F32) {
      ok = test_allclose(got[0], want, n, rtol, atol);
    } else if (memcmp(got[0], want, td_bytes(t)) != 0) {
      printf("  %s: output differs from the expected values\n", test_current_);
      ok = 0;
    }
  }
  if (!ok) printf("  %s: mismatch for %s %s\n", test_current_, name, attrs ? attrs : "");
  for (int o = 0; o < nout; o++) free(got[o]), free(ref[o]);
  return ok;
}

/* A constant int64 scalar input holding *axis (CumSum's axis, DFT's, ...). */
static inline wnn_tdesc op_axis_const(const int64_t *axis) {
  wnn_tdesc t = TD_SCALAR(WNN_DTYPE_I64);
  t.data = axis;
  return t;
}

#endif /* WNN_OP_HARNESS_H */
