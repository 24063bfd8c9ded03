/* The executor: one arena sized by the model's plan, allocated at creation.
 * Running it walks the nodes and calls their kernels, skipping a node whose
 * "when" guards fail (an untaken If branch) and the shape nodes of a dynamic
 * model; it allocates nothing. A dynamic model's executor may be resized
 * (docs/dynamic-shapes.md): it then owns its shapes, params, offsets and
 * scratch (a runtime/replan.h plan) while the model stays as it was. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <string.h>
#include <time.h>

#include "base/status.h"
#include "ops/op.h"
#include "runtime/model.h"
#include "runtime/pool.h"
#include "runtime/replan.h"

#define MSG_CAP 512
/* Plans an executor keeps besides the model's reference plan. */
#define PLAN_CACHE 4

struct wnn_executor {
  const wnn_model *model;
  uint8_t *arena;
  size_t arena_bytes;
  void **ptr;          /* per value: where its bytes are now */
  /* Models with guards: per value, the node that was skipped instead of
   * writing it in this run, or -1 (allocated at creation, reset per run). */
  int *skipped_by;
  /* Run-time shapes: the current plan (NULL: the model's reference plan),
   * the last PLAN_CACHE plans used (the current one among them), and room
   * to check a resize without allocating (dynamic models only). */
  wnn_shape_plan *plan;
  wnn_shape_plan *cache[PLAN_CACHE];
  int num_cached;
  unsigned long clock;
  size_t key_len;
  int64_t *key;        /* every input's dims, as a plan's key */
  int64_t *dim_size;   /* per named dim, while checking a resize */
  int *dim_from;       /* the input that gave it */
  /* Per-node profile (wnn_executor_set_profiling): per node, runs and
   * nanoseconds; NULL until profiling is first turned on. */
  int profiling;
  uint64_t *prof_runs, *prof_ns;
  /* Debug executors (wnn_executor_create_debug): per value its own arena
   * offset (nothing reused) and one scratch block for every node; NULL
   * otherwise. ran: a run completed, so values can be read. */
  size_t *offsets;
  size_t debug_scratch;
  int ran;
  wnn_pool *pool; /* wnn_executor_set_threads: NULL for one thread */
  char msg[MSG_CAP];
};

/* A value's shape, bytes and arena offset, and a node's params and scratch,
 * at the executor's current shapes. */
static inline int vndim(const wnn_executor *ex, int v) {
  return ex->plan ? ex->plan->values[v].ndim : ex->model->values[v].ndim;
}
static inline const int64_t *vdims(const wnn_executor *ex, int v) {
  return ex->plan ? ex->plan->values[v].dims : ex->model->values[v].dims;
}
static inline size_t vnbytes(const wnn_executor *ex, int v) {
  return ex->plan ? ex->plan->values[v].nbytes : ex->model->values[v].nbytes;
}
static inline size_t voffset(const wnn_executor *ex, int v) {
  if (ex->offsets) return ex->offsets[v];
  return ex->plan ? ex->plan->values[v].offset : ex->model->values[v].offset;
}

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

/* Points every value at its bytes under the current plan (borrowed inputs
 * are dropped). */
static void set_pointers(wnn_executor *ex) {
  const wnn_model *m = ex->model;
  for (int v = 0; v < m->num_values; v++) {
    const wnn_value *val = &m->values[v];
    switch (val->kind) {
      case WNN_VALUE_INPUT:
      case WNN_VALUE_ARENA: ex->ptr[v] = ex->arena + voffset(ex, v); break;
      case WNN_VALUE_PARAM: ex->ptr[v] = (void *)val->data; break;
      case WNN_VALUE_SHAPE: { /* no shape data when every shape value is empty */
        const wnn_shape_plan *p = ex->plan;
        ex->ptr[v] = !p             ? (void *)val->data
                     : p->shape_data ? p->shape_data + p->values[v].offset
                                     : NULL;
        break;
      }
      case WNN_VALUE_ALIAS: break;
    }
  }
  for (int v = 0; v < m->num_values; v++)
    if (m->values[v].kind == WNN_VALUE_ALIAS) ex->ptr[v] = ex->ptr[m->values[v].root];
}

/* A debug executor's layout: every input and arena value at an offset of
 * its own, then one scratch block as large as any node's. Returns the arena
 * size, or 0 when it overflows. */
static size_t debug_layout(const wnn_model *m, size_t *offsets, size_t *scratch) {
  size_t at = 0, most = 0;
  for (int v = 0; v < m->num_values; v++) {
    const wnn_value *val = &m->values[v];
    if (val->kind != WNN_VALUE_INPUT && val->kind != WNN_VALUE_ARENA) continue;
    if (val->nbytes > SIZE_MAX / 4 - at) return 0;
    offsets[v] = at;
    at += (val->nbytes + 63) & ~(size_t)63;
  }
  for (int i = 0; i < m->num_nodes; i++)
    if (m->nodes[i].scratch_bytes > most) most = m->nodes[i].scratch_bytes;
  if (most > SIZE_MAX / 4 - at) return 0;
  *scratch = at;
  return at + most + 64;
}

static wnn_status create(const wnn_model *m, int debug, wnn_executor **out) {
  wnn_clear_error();
  if (!m || !out) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_create: NULL argument");
  const wnn_allocator *a = &m->allocator;
  wnn_executor *ex = wnn_calloc(a, 1, sizeof *ex, 16);
  if (!ex) return fail(NULL, WNN_ERR_OUT_OF_MEMORY, "out of memory for an executor");
  ex->model = m;
  /* A bounded dynamic model: the plan at the maxima's arena (model.c). */
  ex->arena_bytes = wnn_model_arena_bytes(m);
  if (debug) {
    ex->offsets = wnn_calloc(a, (size_t)m->num_values + 1, sizeof *ex->offsets, sizeof(size_t));
    ex->arena_bytes = ex->offsets ? debug_layout(m, ex->offsets, &ex->debug_scratch) : 0;
    if (!ex->arena_bytes) {
      wnn_executor_destroy(ex);
      return fail(NULL, WNN_ERR_OUT_OF_MEMORY, "out of memory for a debug executor");
    }
  }
  ex->ptr = wnn_calloc(a, (size_t)m->num_values, sizeof *ex->ptr, sizeof(void *));
  ex->arena = wnn_calloc(a, 1, ex->arena_bytes, 64);
  int guarded = 0;
  for (int i = 0; i < m->num_nodes; i++) guarded |= m->nodes[i].num_guards > 0;
  if (guarded) {
    ex->skipped_by = wnn_calloc(a, (size_t)m->num_values, sizeof(int), sizeof(int));
  }
  int dyn_ok = 1;
  if (m->dynamic) {
    ex->key_len = wnn_replan_key_len(m);
    ex->key = wnn_calloc(a, ex->key_len + 1, sizeof *ex->key, 8);
    ex->dim_size = wnn_calloc(a, (size_t)m->num_dims + 1, sizeof *ex->dim_size, 8);
    ex->dim_from = wnn_calloc(a, (size_t)m->num_dims + 1, sizeof *ex->dim_from, sizeof(int));
    dyn_ok = ex->key && ex->dim_size && ex->dim_from;
  }
  if (!ex->ptr || !ex->arena || (guarded && !ex->skipped_by) || !dyn_ok) {
    size_t bytes = ex->arena_bytes;
    wnn_executor_destroy(ex);
    return fail(NULL, WNN_ERR_OUT_OF_MEMORY, "out of memory for a %zu-byte arena", bytes);
  }
  set_pointers(ex);
  *out = ex;
  return WNN_OK;
}

wnn_status wnn_executor_create(const wnn_model *m, wnn_executor **out) { return create(m, 0, out); }

wnn_status wnn_executor_create_debug(const wnn_model *m, wnn_executor **out) {
  return create(m, 1, out);
}

void wnn_executor_destroy(wnn_executor *ex) {
  if (!ex) return;
  const wnn_model *m = ex->model;
  const wnn_allocator *a = &m->allocator;
  wnn_free(a, ex->arena, ex->arena_bytes, 64);
  wnn_free(a, ex->ptr, (size_t)m->num_values * sizeof *ex->ptr, sizeof(void *));
  wnn_free(a, ex->skipped_by, (size_t)m->num_values * sizeof(int), sizeof(int));
  for (int k = 0; k < ex->num_cached; k++) wnn_replan_free(m, ex->cache[k]);
  wnn_free(a, ex->key, (ex->key_len + 1) * sizeof *ex->key, 8);
  wnn_free(a, ex->dim_size, ((size_t)m->num_dims + 1) * sizeof *ex->dim_size, 8);
  wnn_free(a, ex->dim_from, ((size_t)m->num_dims + 1) * sizeof *ex->dim_from, sizeof(int));
  wnn_free(a, ex->prof_runs, ((size_t)m->num_nodes + 1) * sizeof *ex->prof_runs, 8);
  wnn_free(a, ex->prof_ns, ((size_t)m->num_nodes + 1) * sizeof *ex->prof_ns, 8);
  wnn_free(a, ex->offsets, ((size_t)m->num_values + 1) * sizeof *ex->offsets, sizeof(size_t));
  wnn_pool_free(ex->pool);
  wnn_free(a, ex, sizeof *ex, 16);
}

wnn_status wnn_executor_set_threads(wnn_executor *ex, int threads) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_set_threads: executor is NULL");
  if (threads < 1 || threads > WNN_MAX_THREADS)
    return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_set_threads: %d threads, expected 1 to %d",
                threads, WNN_MAX_THREADS);
  if (threads == wnn_pool_threads(ex->pool)) return WNN_OK;
  wnn_pool *pool = NULL;
  if (threads > 1) {
    wnn_status st = wnn_pool_create(&ex->model->allocator, threads, &pool);
    if (st) return fail(ex, st, "wnn_executor_set_threads: %s", wnn_last_error());
  }
  wnn_pool_free(ex->pool);
  ex->pool = pool;
  return WNN_OK;
}

int wnn_executor_threads(const wnn_executor *ex) { return ex ? wnn_pool_threads(ex->pool) : 0; }

size_t wnn_executor_arena_bytes(const wnn_executor *ex) { return ex ? ex->arena_bytes : 0; }

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

/* Checks a caller's tensor against value v, input or output `index`, of
 * shape ndim, dims (the executor's current shape). */
static wnn_status check_tensor(wnn_executor *ex, const char *what, const wnn_value *v,
                               int ndim, const int64_t *dims, int index, const DLTensor *t) {
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
  int same = t->ndim == ndim && (t->ndim == 0 || t->shape);
  for (int d = 0; same && d < ndim; d++) same = t->shape[d] == dims[d];
  if (!same) {
    char want[160], got[160];
    wnn_format_dims(want, sizeof want, ndim, dims);
    if (t->shape && t->ndim >= 0 && t->ndim <= WNN_MAX_DIMS)
      wnn_format_dims(got, sizeof got, t->ndim, t->shape);
    else
      wnn_fmt(got, sizeof got, "of %d dims", t->ndim);
    return fail(ex, WNN_ERR_SHAPE, "%s %d (%s) has shape %s; the tensor has shape %s", what, index,
                name, want, got);
  }
  if (t->strides) {
    int64_t expect = 1;
    for (int d = ndim - 1; d >= 0; d--) {
      if (dims[d] != 1 && t->strides[d] != expect)
        return fail(ex, WNN_ERR_INVALID_ARGUMENT,
                    "%s %d (%s): tensor is not dense row-major (stride %d is %lld, want %lld)",
                    what, index, name, d, (long long)t->strides[d], (long long)expect);
      expect *= dims[d];
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
  if ((st = check_tensor(ex, "input", &m->values[v], vndim(ex, v), vdims(ex, v), index, t)))
    return st;
  void *home = ex->arena + voffset(ex, v);
  if (ex->ptr[v] != home) point(ex, v, home); /* it was borrowed until now */
  if (vnbytes(ex, v)) /* an empty tensor's data may be NULL */
    memmove(home, (const uint8_t *)t->data + t->byte_offset, vnbytes(ex, v));
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
  if ((st = check_tensor(ex, "input", &m->values[v], vndim(ex, v), vdims(ex, v), index, t)))
    return st;
  uint8_t *p = (uint8_t *)t->data + t->byte_offset;
  size_t align = wnn_dtype_size(m->values[v].dtype);
  if ((uintptr_t)p % align)
    return fail(ex, WNN_ERR_INVALID_ARGUMENT,
                "input %d (%s): a borrowed buffer must be %zu-byte aligned", index,
                m->values[v].name, align);
  point(ex, v, p);
  return WNN_OK;
}

static void view(const wnn_executor *ex, int v, DLTensor *t) {
  memset(t, 0, sizeof *t);
  t->data = ex->ptr[v];
  t->device.device_type = kDLCPU;
  t->ndim = vndim(ex, v);
  t->dtype = wnn_dtype_to_dl(ex->model->values[v].dtype);
  t->shape = (int64_t *)vdims(ex, v);
}

wnn_status wnn_executor_get_input(wnn_executor *ex, int index, DLTensor *t) {
  if (!ex || !t) return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_get_input: NULL argument");
  wnn_status st = check_index(ex, index, ex->model->num_inputs, "input");
  if (st) return st;
  view(ex, ex->model->inputs[index], t);
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
  wnn_fmt(buf, cap, "node %d (%s%s%s%s)", i, n->op->name, n->name ? " '" : "",
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

/* ------------------------------------------------------------ the profile */

static uint64_t now_ns(void) {
  struct timespec t;
  if (clock_gettime(CLOCK_MONOTONIC, &t) != 0) return 0;
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

wnn_status wnn_executor_set_profiling(wnn_executor *ex, int on) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_set_profiling: executor is NULL");
  if (!on) {
    ex->profiling = 0;
    return WNN_OK;
  }
  const wnn_model *m = ex->model;
  const size_t n = (size_t)m->num_nodes + 1;
  if (!ex->prof_runs) {
    uint64_t *runs = wnn_calloc(&m->allocator, n, sizeof *runs, 8);
    uint64_t *ns = runs ? wnn_calloc(&m->allocator, n, sizeof *ns, 8) : NULL;
    if (!ns) {
      wnn_free(&m->allocator, runs, n * sizeof *runs, 8);
      return fail(ex, WNN_ERR_OUT_OF_MEMORY, "out of memory for the profile of %d nodes",
                  m->num_nodes);
    }
    ex->prof_runs = runs, ex->prof_ns = ns;
  }
  memset(ex->prof_runs, 0, n * sizeof *ex->prof_runs);
  memset(ex->prof_ns, 0, n * sizeof *ex->prof_ns);
  ex->profiling = 1;
  return WNN_OK;
}

wnn_status wnn_executor_profile(const wnn_executor *ex, int index, wnn_node_profile *out) {
  if (!ex || !out) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_profile: NULL argument");
  const wnn_model *m = ex->model;
  if (!ex->prof_runs)
    return fail(NULL, WNN_ERR_INVALID_ARGUMENT,
                "wnn_executor_profile: profiling was never turned on for this executor "
                "(wnn_executor_set_profiling)");
  if (index < 0 || index >= m->num_nodes)
    return fail(NULL, WNN_ERR_OUT_OF_RANGE, "wnn_executor_profile: node %d out of range (%d nodes)",
                index, m->num_nodes);
  const wnn_node *n = &m->nodes[index];
  const int v = n->num_outputs > 0 ? n->outputs[0] : -1;
  *out = (wnn_node_profile){index,
                            n->op->name,
                            n->name ? n->name : "",
                            v >= 0 ? vndim(ex, v) : 0,
                            v >= 0 ? vdims(ex, v) : NULL,
                            ex->prof_runs[index],
                            (double)ex->prof_ns[index] / 1e6};
  return WNN_OK;
}

static wnn_status run_nodes(wnn_executor *ex);

wnn_status wnn_executor_run(wnn_executor *ex) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_run: executor is NULL");
  const wnn_status st = run_nodes(ex);
  wnn_pool_run_end(ex->pool); /* wasm: the workers this run claimed go back */
  return st;
}

static wnn_status run_nodes(wnn_executor *ex) {
  const wnn_model *m = ex->model;
  if (ex->skipped_by)
    for (int v = 0; v < m->num_values; v++) ex->skipped_by[v] = -1;
  ex->ran = 0;
  const wnn_shape_plan *plan = ex->plan;
  for (int i = 0; i < m->num_nodes; i++) {
    const wnn_node *n = &m->nodes[i];
    if (n->shape_node) continue; /* computed at load or resize */
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
      in[k] = (wnn_tensor){ex->ptr[v], m->values[v].dtype, vndim(ex, v), vdims(ex, v)};
    }
    for (int k = 0; k < n->num_outputs; k++) {
      int v = n->outputs[k];
      out[k] = (wnn_tensor){ex->ptr[v], m->values[v].dtype, vndim(ex, v), vdims(ex, v)};
    }
    char msg[256];
    msg[0] = '\0';
    const void *params = plan ? plan->nodes[i].params : n->params;
    size_t scratch = ex->offsets ? ex->debug_scratch
                     : plan      ? plan->nodes[i].scratch_offset
                                 : n->scratch_offset;
    wnn_run_ctx ctx = {params, n->num_inputs, in,  n->num_outputs,
                       out,    ex->arena + scratch, msg, sizeof msg};
    const uint64_t t0 = ex->profiling ? now_ns() : 0;
    wnn_pool *previous = wnn_pool_enter(ex->pool);
    wnn_status st = n->run(&ctx);
    wnn_pool_leave(previous);
    if (ex->profiling) ex->prof_ns[i] += now_ns() - t0, ex->prof_runs[i]++;
    if (st)
      return fail(ex, st, "node %d (%s%s%s%s): %s", i, n->op->name, n->name ? " '" : "",
                  n->name ? n->name : "", n->name ? "'" : "", msg);
  }
  for (int k = 0; ex->skipped_by && k < m->num_outputs; k++)
    if (ex->skipped_by[m->outputs[k]] >= 0) {
      char who[160];
      wnn_fmt(who, sizeof who, "output %d (%s)", k, m->values[m->outputs[k]].name);
      return unwritten(ex, who, m->outputs[k]);
    }
  ex->ran = 1;
  return WNN_OK;
}

/* ------------------------------------------------------------------ values */

int wnn_executor_num_values(const wnn_executor *ex) { return ex ? ex->model->num_values : 0; }

wnn_status wnn_executor_get_value(wnn_executor *ex, int index, wnn_tensor_info *info,
                                  DLTensor *t) {
  if (!ex || !info || !t)
    return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_get_value: NULL argument");
  const wnn_model *m = ex->model;
  wnn_status st = check_index(ex, index, m->num_values, "value");
  if (st) return st;
  const wnn_value *v = &m->values[index];
  const wnn_value *root = &m->values[v->kind == WNN_VALUE_ALIAS ? v->root : index];
  const char *name = v->name ? v->name : "(unnamed)";
  /* Inputs, params and shape values are never overwritten, nor are outputs
   * once computed; intermediates only in a debug executor's plan. Arena
   * values once a run has completed. */
  int output = 0;
  for (int k = 0; k < m->num_outputs && !output; k++) output = m->outputs[k] == index;
  if (root->kind == WNN_VALUE_ARENA) {
    if (!ex->offsets && !output)
      return fail(ex, WNN_ERR_UNSUPPORTED,
                  "value %d ('%s') is an intermediate, whose memory this executor reuses: "
                  "read intermediates from a debug executor (wnn_executor_create_debug)",
                  index, name);
    if (!ex->ran)
      return fail(ex, WNN_ERR_INVALID_ARGUMENT, "value %d ('%s'): run the executor first", index,
                  name);
    const int r = v->kind == WNN_VALUE_ALIAS ? v->root : index;
    if (ex->skipped_by && ex->skipped_by[r] >= 0)
      return fail(ex, WNN_ERR_NOT_FOUND, "value %d ('%s') was not computed in this run (node %d "
                  "was skipped: an untaken If branch)", index, name, ex->skipped_by[r]);
  }
  info->name = v->name;
  info->dtype = v->dtype;
  info->ndim = vndim(ex, index);
  info->shape = vdims(ex, index);
  info->nbytes = vnbytes(ex, index);
  view(ex, index, t);
  return WNN_OK;
}

wnn_status wnn_executor_get_value_by_name(wnn_executor *ex, const char *name,
                                          wnn_tensor_info *info, DLTensor *t) {
  if (!ex || !name)
    return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_get_value_by_name: NULL argument");
  const wnn_model *m = ex->model;
  for (int v = 0; v < m->num_values; v++)
    if (m->values[v].name && !strcmp(m->values[v].name, name))
      return wnn_executor_get_value(ex, v, info, t);
  return fail(ex, WNN_ERR_NOT_FOUND,
              "no value named '%s' (a value the importer folded or fused away has no name of its "
              "own; wnn_executor_get_value lists what there is)", name);
}

/* ----------------------------------------------------------------- outputs */

wnn_status wnn_executor_get_output(wnn_executor *ex, int index, DLTensor *t) {
  if (!ex || !t) return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_get_output: NULL argument");
  wnn_status st = check_index(ex, index, ex->model->num_outputs, "output");
  if (st) return st;
  view(ex, ex->model->outputs[index], t);
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
  int o = ex->model->outputs[index];
  const wnn_value *v = &ex->model->values[o];
  if (nbytes != vnbytes(ex, o))
    return fail(ex, WNN_ERR_SIZE, "output %d (%s) is %zu bytes; the destination holds %zu", index,
                v->name, vnbytes(ex, o), nbytes);
  if (nbytes) memcpy(dst, ex->ptr[ex->model->outputs[index]], nbytes); /* an empty one may be NULL */
  return WNN_OK;
}

/* --------------------------------------------------------- run-time shapes */

static wnn_status tensor_info(const wnn_executor *ex, const int *list, int count,
                              const char *what, int index, wnn_tensor_info *out) {
  if (!ex || !out)
    return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "%s info: executor or info is NULL", what);
  if (index < 0 || index >= count)
    return fail(NULL, WNN_ERR_OUT_OF_RANGE, "%s index %d is out of range: the model has %d %ss",
                what, index, count, what);
  int v = list[index];
  out->name = ex->model->values[v].name;
  out->dtype = ex->model->values[v].dtype;
  out->ndim = vndim(ex, v);
  out->shape = vdims(ex, v);
  out->nbytes = vnbytes(ex, v);
  return WNN_OK;
}

wnn_status wnn_executor_input_info(const wnn_executor *ex, int index, wnn_tensor_info *info) {
  return tensor_info(ex, ex ? ex->model->inputs : NULL, ex ? ex->model->num_inputs : 0, "input",
                     index, info);
}

wnn_status wnn_executor_output_info(const wnn_executor *ex, int index, wnn_tensor_info *info) {
  return tensor_info(ex, ex ? ex->model->outputs : NULL, ex ? ex->model->num_outputs : 0,
                     "output", index, info);
}

/* The offset of input i's dims in a key. */
static size_t key_at(const wnn_model *m, int i) {
  size_t at = 0;
  for (int k = 0; k < i; k++) at += (size_t)m->values[m->inputs[k]].ndim;
  return at;
}

/* Writes the current input dims into ex->key, then the requested ones over
 * them, and checks the result: fixed dims unchanged, named dims within their
 * bounds and multiples, shared names of one size. Allocates nothing. */
static wnn_status requested_key(wnn_executor *ex, int count, const wnn_input_shape *shapes) {
  const wnn_model *m = ex->model;
  for (int i = 0, at = 0; i < m->num_inputs; i++) {
    int v = m->inputs[i];
    memcpy(ex->key + at, vdims(ex, v), (size_t)vndim(ex, v) * sizeof *ex->key);
    at += vndim(ex, v);
  }
  for (int c = 0; c < count; c++) {
    const wnn_input_shape *s = &shapes[c];
    wnn_status st = check_index(ex, s->index, m->num_inputs, "input");
    if (st) return st;
    for (int k = 0; k < c; k++)
      if (shapes[k].index == s->index)
        return fail(ex, WNN_ERR_INVALID_ARGUMENT, "resize: input %d (%s) is given twice", s->index,
                    m->values[m->inputs[s->index]].name);
    const wnn_value *v = &m->values[m->inputs[s->index]];
    if (s->ndim != v->ndim)
      return fail(ex, WNN_ERR_SHAPE, "resize: input %d (%s) has %d dims; the shape has %d",
                  s->index, v->name, v->ndim, s->ndim);
    if (s->ndim && !s->shape)
      return fail(ex, WNN_ERR_INVALID_ARGUMENT, "resize: input %d (%s): shape is NULL", s->index,
                  v->name);
    for (int d = 0; d < v->ndim; d++) {
      int64_t size = s->shape[d];
      if (size < 0 || size > WNN_MAX_DIM)
        return fail(ex, WNN_ERR_SHAPE, "resize: input %d (%s): dim %d = %lld is out of [0, 2^40]",
                    s->index, v->name, d, (long long)size);
      if (!v->named[d] && size != v->dims[d])
        return fail(ex, WNN_ERR_SHAPE,
                    "resize: input %d (%s): dim %d is fixed at %lld; the shape asks for %lld",
                    s->index, v->name, d, (long long)v->dims[d], (long long)size);
    }
    memcpy(ex->key + key_at(m, s->index), s->shape, (size_t)v->ndim * sizeof *ex->key);
  }
  for (int j = 0; j < m->num_dims; j++) ex->dim_size[j] = -1;
  for (int i = 0, at = 0; i < m->num_inputs; i++) {
    const wnn_value *v = &m->values[m->inputs[i]];
    for (int d = 0; d < v->ndim; d++, at++) {
      if (!v->named[d]) continue;
      int j = v->named[d] - 1;
      const wnn_dim *dim = &m->dims[j];
      int64_t size = ex->key[at];
      if (ex->dim_size[j] < 0) {
        ex->dim_size[j] = size;
        ex->dim_from[j] = i;
      } else if (ex->dim_size[j] != size) {
        int f = ex->dim_from[j];
        return fail(ex, WNN_ERR_SHAPE,
                    "resize: dim \"%s\" is %lld in input %d (%s) but %lld in input %d (%s); inputs "
                    "that share a dim are resized together, in one wnn_executor_resize",
                    dim->name, (long long)ex->dim_size[j], f, m->values[m->inputs[f]].name,
                    (long long)size, i, v->name);
      }
      if (dim->max_size && size > dim->max_size)
        return fail(ex, WNN_ERR_SHAPE, "resize: input %d (%s): dim \"%s\" = %lld is over its max %lld",
                    i, v->name, dim->name, (long long)size, (long long)dim->max_size);
      if (size % dim->multiple)
        return fail(ex, WNN_ERR_SHAPE,
                    "resize: input %d (%s): dim \"%s\" = %lld is not a multiple of %lld", i,
                    v->name, dim->name, (long long)size, (long long)dim->multiple);
    }
  }
  return WNN_OK;
}

/* Makes p (NULL: the model's reference plan) the current plan. */
static void switch_plan(wnn_executor *ex, wnn_shape_plan *p) {
  ex->plan = p;
  if (p) p->used = ++ex->clock;
  set_pointers(ex);
}

wnn_status wnn_executor_resize(wnn_executor *ex, int count, const wnn_input_shape *shapes) {
  if (!ex) return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_resize: executor is NULL");
  const wnn_model *m = ex->model;
  if (ex->offsets && m->dynamic && count)
    return fail(ex, WNN_ERR_UNSUPPORTED,
                "a debug executor keeps the model's reference shapes: resize a normal executor");
  if (count < 0 || (count && !shapes))
    return fail(ex, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_resize: %d shapes at %p", count,
                (const void *)shapes);
  if (!m->dynamic) {
    /* A fixed model: its own shapes only (check_tensor's rule). */
    for (int c = 0; c < count; c++) {
      wnn_status st = check_index(ex, shapes[c].index, m->num_inputs, "input");
      if (st) return st;
      const wnn_value *v = &m->values[m->inputs[shapes[c].index]];
      int same = shapes[c].ndim == v->ndim && (!v->ndim || shapes[c].shape);
      for (int d = 0; same && d < v->ndim; d++) same = shapes[c].shape[d] == v->dims[d];
      if (!same) {
        char want[160];
        return fail(ex, WNN_ERR_SHAPE,
                    "resize: input %d (%s) has the fixed shape %s: the model names no dims",
                    shapes[c].index, v->name, wnn_format_dims(want, sizeof want, v->ndim, v->dims));
      }
    }
    return WNN_OK;
  }
  wnn_status st = requested_key(ex, count, shapes);
  if (st) return st;
  size_t kbytes = ex->key_len * sizeof *ex->key;
  /* The shapes it has, a cached plan's, or the reference: no allocation. */
  const int64_t *now = ex->plan ? ex->plan->key : NULL;
  int reference = 1;
  for (int i = 0, at = 0; i < m->num_inputs && reference; i++) {
    const wnn_value *v = &m->values[m->inputs[i]];
    reference = !memcmp(ex->key + at, v->dims, (size_t)v->ndim * sizeof *ex->key);
    at += v->ndim;
  }
  if (reference) {
    if (ex->plan) switch_plan(ex, NULL);
    return WNN_OK;
  }
  if (now && !memcmp(now, ex->key, kbytes)) return WNN_OK;
  for (int k = 0; k < ex->num_cached; k++)
    if (!memcmp(ex->cache[k]->key, ex->key, kbytes)) {
      switch_plan(ex, ex->cache[k]);
      return WNN_OK;
    }

  /* A new shape set: plan it, then grow the arena if needed; commit only
   * when both succeeded. */
  wnn_shape_plan *p = NULL;
  if ((st = wnn_replan(m, ex->key, &p))) {
    char why[400];
    wnn_fmt(why, sizeof why, "%s", wnn_last_error());
    return fail(ex, st, "resize: %s", why);
  }
  if (p->arena_bytes > ex->arena_bytes) {
    uint8_t *arena = wnn_calloc(&m->allocator, 1, p->arena_bytes, 64);
    if (!arena) {
      size_t bytes = p->arena_bytes;
      wnn_replan_free(m, p);
      return fail(ex, WNN_ERR_OUT_OF_MEMORY, "resize: out of memory for a %zu-byte arena", bytes);
    }
    wnn_free(&m->allocator, ex->arena, ex->arena_bytes, 64);
    ex->arena = arena;
    ex->arena_bytes = p->arena_bytes;
  }
  if (ex->num_cached == PLAN_CACHE) { /* evict the least recently used */
    int lru = 0;
    for (int k = 1; k < PLAN_CACHE; k++)
      if (ex->cache[k]->used < ex->cache[lru]->used) lru = k;
    wnn_replan_free(m, ex->cache[lru]);
    ex->cache[lru] = ex->cache[--ex->num_cached];
  }
  ex->cache[ex->num_cached++] = p;
  switch_plan(ex, p);
  return WNN_OK;
}

wnn_status wnn_executor_resize_input(wnn_executor *ex, int index, int ndim, const int64_t *shape) {
  wnn_input_shape s = {index, ndim, shape};
  return wnn_executor_resize(ex, 1, &s);
}

wnn_status wnn_executor_resize_input_by_name(wnn_executor *ex, const char *name, int ndim,
                                             const int64_t *shape) {
  if (!ex)
    return fail(NULL, WNN_ERR_INVALID_ARGUMENT, "wnn_executor_resize_input_by_name: executor is NULL");
  int index;
  wnn_status st = wnn_model_input_index(ex->model, name, &index);
  if (st) return fail(ex, st, "%s", wnn_last_error());
  return wnn_executor_resize_input(ex, index, ndim, shape);
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
  /* Check the outputs before any work, so a bad call costs nothing (a
   * dynamic model's once its shapes are known). */
  for (int i = 0; i < num_outputs && !m->dynamic; i++) {
    const wnn_value *v = &m->values[m->outputs[i]];
    wnn_status st = check_tensor(NULL, "output", v, v->ndim, v->dims, i, &outputs[i]);
    if (st) return st;
  }
  wnn_executor *ex = NULL;
  wnn_status st = wnn_executor_create(m, &ex);
  if (!st && m->dynamic) { /* at the inputs' shapes */
    size_t bytes = (size_t)(num_inputs ? num_inputs : 1) * sizeof(wnn_input_shape);
    wnn_input_shape *shapes = wnn_alloc(&m->allocator, bytes, 16);
    if (!shapes) st = fail(NULL, WNN_ERR_OUT_OF_MEMORY, "out of memory for input shapes");
    for (int i = 0; !st && i < num_inputs; i++) {
      if (inputs[i].ndim > 0 && !inputs[i].shape)
        st = fail(NULL, WNN_ERR_INVALID_ARGUMENT, "input %d: tensor shape is NULL", i);
      shapes[i] = (wnn_input_shape){i, inputs[i].ndim, inputs[i].shape};
    }
    if (!st) st = wnn_executor_resize(ex, num_inputs, shapes);
    wnn_free(&m->allocator, shapes, bytes, 16);
    for (int i = 0; !st && i < num_outputs; i++) {
      int o = m->outputs[i];
      st = check_tensor(NULL, "output", &m->values[o], vndim(ex, o), vdims(ex, o), i, &outputs[i]);
    }
  }
  for (int i = 0; !st && i < num_inputs; i++) st = wnn_executor_set_input(ex, i, &inputs[i]);
  if (!st) st = wnn_executor_run(ex);
  for (int i = 0; !st && i < num_outputs; i++) {
    int o = m->outputs[i];
    if (vnbytes(ex, o)) /* an empty output's pointer may be NULL */
      memcpy((uint8_t *)outputs[i].data + outputs[i].byte_offset, ex->ptr[o], vnbytes(ex, o));
  }
  wnn_executor_destroy(ex);
  return st;
}
