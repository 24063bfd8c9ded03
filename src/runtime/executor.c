/* The executor: one arena sized by the model's plan, allocated at creation.
 * Running it walks the nodes and calls their kernels, skipping a node whose
 * "when" guards fail (an untaken If branch); it allocates nothing. */
#include <stdio.h>
#include <string.h>

#include "base/status.h"
#include "ops/op.h"
#include "runtime/model.h"

#define MSG_CAP 512

struct wnn_executor {
  const wnn_model *model;
  uint8_t *arena;
  void **ptr;          /* per value: where its bytes are now */
  /* Models with guards: per value, the node that was skipped instead of
   * writing it in this run, or -1 (allocated at creation, reset per run). */
  int *skipped_by;
  char msg[MSG_CAP];
};

static wnn_status fail(wnn_executor *ex, wnn_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static wnn_status fail(wnn_executor *ex, wnn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wnn_vseterr(ex ? ex->msg : NULL, MSG_CAP, status, fmt, ap);
  va_end(ap);
  return status;
}

/* Points value v, and every alias of it, at p. */
static void point(wnn_executor *ex, int v, void *p) {
  const wnn_model *m = ex->model;
  ex->ptr[v] = p;
  for (int i = 0; i < m->num_values; i++)
    if (m->values[i].kind == WNN_VALUE_ALIAS && m->values[i].root == v) ex->ptr[i] = p;
}

wnn_status wnn_executor_create(const wnn_model *m, wnn_executor **out) {
  wnn_clear_error();
  if (!m || !out) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_create: NULL argument");
  const wnn_allocator *a = &m->allocator;
  wnn_executor *ex = wnn_calloc(a, 1, sizeof *ex, 16);
  if (!ex) return fail(NULL, WNN_ERR_OUT_OF_MEMORY, "out of memory for an executor");
  ex->model = m;
  ex->ptr = wnn_calloc(a, (size_t)m->num_values, sizeof *ex->ptr, sizeof(void *));
  ex->arena = wnn_calloc(a, 1, m->arena_bytes, 64);
  int guarded = 0;
  for (int i = 0; i < m->num_nodes; i++) guarded |= m->nodes[i].num_guards > 0;
  if (guarded) {
    ex->skipped_by = wnn_calloc(a, (size_t)m->num_values, sizeof(int), sizeof(int));
  }
  if (!ex->ptr || !ex->arena || (guarded && !ex->skipped_by)) {
    wnn_executor_destroy(ex);
    return fail(NULL, WNN_ERR_OUT_OF_MEMORY, "out of memory for a %zu-byte arena",
                m->arena_bytes);
  }
  for (int v = 0; v < m->num_values; v++) {
    const wnn_value *val = &m->values[v];
    switch (val->kind) {
      case WNN_VALUE_INPUT:
      case WNN_VALUE_ARENA: ex->ptr[v] = ex->arena + val->offset; break;
      case WNN_VALUE_PARAM: ex->ptr[v] = (void *)val->data; break;
      case WNN_VALUE_ALIAS: break;
    }
  }
  for (int v = 0; v < m->num_values; v++)
    if (m->values[v].kind == WNN_VALUE_ALIAS) ex->ptr[v] = ex->ptr[m->values[v].root];
  *out = ex;
  return WNN_OK;
}

void wnn_executor_destroy(wnn_executor *ex) {
  if (!ex) return;
  const wnn_allocator *a = &ex->model->allocator;
  wnn_free(a, ex->arena, ex->model->arena_bytes, 64);
  wnn_free(a, ex->ptr, (size_t)ex->model->num_values * sizeof *ex->ptr, sizeof(void *));
  wnn_free(a, ex->skipped_by, (size_t)ex->model->num_values * sizeof(int), sizeof(int));
  wnn_free(a, ex, sizeof *ex, 16);
}

const char *wnn_executor_errmsg(const wnn_executor *ex) { return ex ? ex->msg : ""; }

/* ------------------------------------------------------------------ inputs */

static wnn_status check_index(wnn_executor *ex, int index, int count, const char *what) {
  if (index < 0 || index >= count)
    return fail(ex, WNN_ERR_OUT_OF_RANGE, "%s index %d is out of range: the model has %d %ss",
                what, index, count, what);
  return WNN_OK;
}

/* bool inputs accept DLPack's uint8 (DLPack has no bool in this version). */
static int dtype_matches(wnn_dtype want, DLDataType got) {
  wnn_dtype g = wnn_dtype_from_dl(got);
  return g == want || (want == WNN_DTYPE_BOOL && g == WNN_DTYPE_U8);
}

/* Checks a caller's tensor against value v, input or output `index`. */
static wnn_status check_tensor(wnn_executor *ex, const char *what, const wnn_value *v,
                               int index, const DLTensor *t) {
  const char *name = v->name;
  if (!t || !t->data)
    return fail(ex, WNN_ERR_INVALID_ARGUMENT, "%s %d (%s): tensor or its data is NULL", what, index,
                name);
  if (t->device.device_type != kDLCPU)
    return fail(ex, WNN_ERR_INVALID_ARGUMENT, "%s %d (%s): tensor is not on kDLCPU", what, index,
                name);
  if (!dtype_matches(v->dtype, t->dtype))
    return fail(ex, WNN_ERR_DTYPE,
                "%s %d (%s) is %s; the tensor has DLPack dtype code %u, %u bits, %u lanes",
                what, index, name, wnn_dtype_name(v->dtype), t->dtype.code, t->dtype.bits,
                t->dtype.lanes);
  int same = t->ndim == v->ndim && (t->ndim == 0 || t->shape);
  for (int d = 0; same && d < v->ndim; d++) same = t->shape[d] == v->dims[d];
  if (!same) {
    char want[160], got[160];
    wnn_format_dims(want, sizeof want, v->ndim, v->dims);
    if (t->shape && t->ndim >= 0 && t->ndim <= WNN_MAX_DIMS)
      wnn_format_dims(got, sizeof got, t->ndim, t->shape);
    else
      snprintf(got, sizeof got, "of %d dims", t->ndim);
    return fail(ex, WNN_ERR_SHAPE, "%s %d (%s) has shape %s; the tensor has shape %s", what, index,
                name, want, got);
  }
  if (t->strides) {
    int64_t expect = 1;
    for (int d = v->ndim - 1; d >= 0; d--) {
      if (v->dims[d] != 1 && t->strides[d] != expect)
        return fail(ex, WNN_ERR_INVALID_ARGUMENT,
                    "%s %d (%s): tensor is not dense row-major (stride %d is %lld, want %lld)",
                    what, index, name, d, (long long)t->strides[d], (long long)expect);
      expect *= v->dims[d];
    }
  }
  return WNN_OK;
}

wnn_status wnn_executor_set_input(wnn_executor *ex, int index, const DLTensor *t) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_set_input: executor is NULL");
  const wnn_model *m = ex->model;
  wnn_status st = check_index(ex, index, m->num_inputs, "input");
  if (st) return st;
  int v = m->inputs[index];
  if ((st = check_tensor(ex, "input", &m->values[v], index, t))) return st;
  void *home = ex->arena + m->values[v].offset;
  if (ex->ptr[v] != home) point(ex, v, home); /* it was borrowed until now */
  if (m->values[v].nbytes) /* an empty tensor's data may be NULL */
    memmove(home, (const uint8_t *)t->data + t->byte_offset, m->values[v].nbytes);
  return WNN_OK;
}

wnn_status wnn_executor_set_input_by_name(wnn_executor *ex, const char *name, const DLTensor *t) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_set_input_by_name: executor is NULL");
  int index;
  wnn_status st = wnn_model_input_index(ex->model, name, &index);
  if (st) return fail(ex, st, "%s", wnn_last_error());
  return wnn_executor_set_input(ex, index, t);
}

wnn_status wnn_executor_set_input_zero_copy(wnn_executor *ex, int index, const DLTensor *t) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_set_input_zero_copy: executor is NULL");
  const wnn_model *m = ex->model;
  wnn_status st = check_index(ex, index, m->num_inputs, "input");
  if (st) return st;
  int v = m->inputs[index];
  if ((st = check_tensor(ex, "input", &m->values[v], index, t))) return st;
  uint8_t *p = (uint8_t *)t->data + t->byte_offset;
  size_t align = wnn_dtype_size(m->values[v].dtype);
  if ((uintptr_t)p % align)
    return fail(ex, WNN_ERR_INVALID_ARGUMENT,
                "input %d (%s): a borrowed buffer must be %zu-byte aligned", index,
                m->values[v].name, align);
  point(ex, v, p);
  return WNN_OK;
}

static void view(const wnn_value *v, void *data, DLTensor *t) {
  memset(t, 0, sizeof *t);
  t->data = data;
  t->device.device_type = kDLCPU;
  t->ndim = v->ndim;
  t->dtype = wnn_dtype_to_dl(v->dtype);
  t->shape = (int64_t *)v->dims;
}

wnn_status wnn_executor_get_input(wnn_executor *ex, int index, DLTensor *t) {
  if (!ex || !t) return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_get_input: NULL argument");
  wnn_status st = check_index(ex, index, ex->model->num_inputs, "input");
  if (st) return st;
  int v = ex->model->inputs[index];
  view(&ex->model->values[v], ex->ptr[v], t);
  return WNN_OK;
}

/* --------------------------------------------------------------------- run */

/* Whether one-element guard value v is nonzero. */
static int guard_true(const wnn_executor *ex, int v) {
  const void *p = ex->ptr[v];
  switch (ex->model->values[v].dtype) {
    case WNN_DTYPE_F32: return *(const float *)p != 0.0f;
    case WNN_DTYPE_I64: return *(const int64_t *)p != 0;
    case WNN_DTYPE_I32: return *(const int32_t *)p != 0;
    default: return *(const uint8_t *)p != 0; /* bool, uint8, int8 (checked at load) */
  }
}

static const char *label(char *buf, size_t cap, const wnn_model *m, int i) {
  const wnn_node *n = &m->nodes[i];
  snprintf(buf, cap, "node %d (%s%s%s%s)", i, n->op->name, n->name ? " '" : "",
           n->name ? n->name : "", n->name ? "'" : "");
  return buf;
}

/* Why value v holds nothing in this run (skipped_by[v] >= 0). */
static wnn_status unwritten(wnn_executor *ex, const char *who, int v) {
  const wnn_model *m = ex->model;
  char a[160];
  const wnn_value *val = &m->values[v];
  return fail(ex, WNN_ERR_UNSUPPORTED,
              "%s needs value %d%s%s%s, which %s did not compute: its guards (\"when\") failed, "
              "so this input selects an If branch the artifact does not hold for these shapes",
              who, v, val->name ? " '" : "", val->name ? val->name : "", val->name ? "'" : "",
              label(a, sizeof a, m, ex->skipped_by[v]));
}

/* Node i of a model with guards, before it runs: *skip says whether its
 * guards fail (its outputs are then marked skipped); fails when it would
 * read a skipped value (an op flagged WNN_OP_SELECTS_INPUT only when it
 * selects it). */
static wnn_status check_guarded(wnn_executor *ex, int i, int *skip) {
  const wnn_model *m = ex->model;
  const wnn_node *n = &m->nodes[i];
  char who[160];
  *skip = 0;
  for (int k = 0; k < n->num_guards && !*skip; k++) {
    int v = n->guards[k];
    if (ex->skipped_by[v] >= 0) return unwritten(ex, label(who, sizeof who, m, i), v);
    *skip = guard_true(ex, v) != n->guard_expect[k];
  }
  if (!*skip && n->op->flags & WNN_OP_ALIAS && n->inputs[0] >= 0 &&
      ex->skipped_by[n->inputs[0]] >= 0) {
    /* An alias of a skipped value is skipped as well: the check happens at
     * its readers. */
    for (int k = 0; k < n->num_outputs; k++) ex->skipped_by[n->outputs[k]] = ex->skipped_by[n->inputs[0]];
    return WNN_OK;
  }
  if (*skip) {
    for (int k = 0; k < n->num_outputs; k++) ex->skipped_by[n->outputs[k]] = i;
    return WNN_OK;
  }
  for (int k = 0; k < n->num_inputs; k++) {
    int v = n->inputs[k];
    if (v < 0 || ex->skipped_by[v] < 0) continue;
    if (n->op->flags & WNN_OP_SELECTS_INPUT && k > 0 && n->inputs[0] >= 0 &&
        ex->skipped_by[n->inputs[0]] < 0 && m->values[n->inputs[0]].nbytes == 1 &&
        guard_true(ex, n->inputs[0]) == (k == 2))
      continue; /* the input the condition does not select */
    return unwritten(ex, label(who, sizeof who, m, i), v);
  }
  return WNN_OK;
}

wnn_status wnn_executor_run(wnn_executor *ex) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_run: executor is NULL");
  const wnn_model *m = ex->model;
  if (ex->skipped_by)
    for (int v = 0; v < m->num_values; v++) ex->skipped_by[v] = -1;
  for (int i = 0; i < m->num_nodes; i++) {
    const wnn_node *n = &m->nodes[i];
    if (ex->skipped_by) {
      int skip;
      wnn_status st = check_guarded(ex, i, &skip);
      if (st) return st;
      if (skip) continue; /* an untaken If branch */
    }
    if (!n->run) continue; /* an alias: its output already points at its input */
    wnn_tensor in[WNN_MAX_IO], out[WNN_MAX_IO];
    for (int k = 0; k < n->num_inputs; k++) {
      int v = n->inputs[k];
      if (v < 0) {
        in[k] = (wnn_tensor){NULL, WNN_DTYPE_INVALID, 0, NULL};
        continue;
      }
      const wnn_value *val = &m->values[v];
      in[k] = (wnn_tensor){ex->ptr[v], val->dtype, val->ndim, val->dims};
    }
    for (int k = 0; k < n->num_outputs; k++) {
      const wnn_value *val = &m->values[n->outputs[k]];
      out[k] = (wnn_tensor){ex->ptr[n->outputs[k]], val->dtype, val->ndim, val->dims};
    }
    char msg[256];
    msg[0] = '\0';
    wnn_run_ctx ctx = {n->params, n->num_inputs, in,  n->num_outputs,
                       out,       ex->arena + n->scratch_offset, msg, sizeof msg};
    wnn_status st = n->run(&ctx);
    if (st)
      return fail(ex, st, "node %d (%s%s%s%s): %s", i, n->op->name, n->name ? " '" : "",
                  n->name ? n->name : "", n->name ? "'" : "", msg);
  }
  for (int k = 0; ex->skipped_by && k < m->num_outputs; k++)
    if (ex->skipped_by[m->outputs[k]] >= 0) {
      char who[160];
      snprintf(who, sizeof who, "output %d (%s)", k, m->values[m->outputs[k]].name);
      return unwritten(ex, who, m->outputs[k]);
    }
  return WNN_OK;
}

/* ----------------------------------------------------------------- outputs */

wnn_status wnn_executor_get_output(wnn_executor *ex, int index, DLTensor *t) {
  if (!ex || !t) return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_get_output: NULL argument");
  wnn_status st = check_index(ex, index, ex->model->num_outputs, "output");
  if (st) return st;
  int v = ex->model->outputs[index];
  view(&ex->model->values[v], ex->ptr[v], t);
  return WNN_OK;
}

wnn_status wnn_executor_get_output_by_name(wnn_executor *ex, const char *name, DLTensor *t) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_get_output_by_name: executor is NULL");
  int index;
  wnn_status st = wnn_model_output_index(ex->model, name, &index);
  if (st) return fail(ex, st, "%s", wnn_last_error());
  return wnn_executor_get_output(ex, index, t);
}

wnn_status wnn_executor_copy_output(wnn_executor *ex, int index, void *dst, size_t nbytes) {
  if (!ex || !dst) return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_copy_output: NULL argument");
  wnn_status st = check_index(ex, index, ex->model->num_outputs, "output");
  if (st) return st;
  const wnn_value *v = &ex->model->values[ex->model->outputs[index]];
  if (nbytes != v->nbytes)
    return fail(ex, WNN_ERR_SIZE, "output %d (%s) is %zu bytes; the destination holds %zu", index,
                v->name, v->nbytes, nbytes);
  if (nbytes) memcpy(dst, ex->ptr[ex->model->outputs[index]], nbytes); /* an empty one may be NULL */
  return WNN_OK;
}

/* ------------------------------------------------------- stateless predict */

wnn_status wnn_model_predict(const wnn_model *m, const DLTensor *inputs, int num_inputs,
                             const DLTensor *outputs, int num_outputs) {
  if (!m || (num_inputs && !inputs) || (num_outputs && !outputs))
    return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_model_predict: NULL argument");
  if (num_inputs != m->num_inputs || num_outputs != m->num_outputs)
    return fail(NULL, WNN_ERR_INVALID_ARGUMENT,
                "wnn_model_predict: got %d inputs and %d outputs; the model has %d and %d",
                num_inputs, num_outputs, m->num_inputs, m->num_outputs);
  /* Check the outputs before any work, so a bad call costs nothing. */
  for (int i = 0; i < num_outputs; i++) {
    wnn_status st = check_tensor(NULL, "output", &m->values[m->outputs[i]], i, &outputs[i]);
    if (st) return st;
  }
  wnn_executor *ex = NULL;
  wnn_status st = wnn_executor_create(m, &ex);
  for (int i = 0; !st && i < num_inputs; i++) st = wnn_executor_set_input(ex, i, &inputs[i]);
  if (!st) st = wnn_executor_run(ex);
  for (int i = 0; !st && i < num_outputs; i++) {
    const wnn_value *v = &m->values[m->outputs[i]];
    if (v->nbytes) /* an empty output's pointer may be NULL */
      memcpy((uint8_t *)outputs[i].data + outputs[i].byte_offset, ex->ptr[m->outputs[i]], v->nbytes);
  }
  wnn_executor_destroy(ex);
  return st;
}
