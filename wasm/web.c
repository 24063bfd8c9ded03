/*
 * JavaScript-friendly entry points of dist/wnn.wasm and dist/wnn-scalar.wasm.
 *
 * The modules export the whole C API of wnn.h (wasm/exports-api.txt), malloc
 * and free, and the wrappers below (wasm/exports-web.txt). The wrappers take
 * and return only numbers and pointers, so JavaScript never lays out or parses
 * a C struct (wnn_load_options, wnn_tensor_info, DLTensor).
 *
 *   - Pointers are byte offsets into the exported memory; strings are
 *     NUL-terminated UTF-8. Memory can grow, so JS re-reads memory.buffer after
 *     any call that may allocate.
 *   - Handles (wnn_model *, wnn_executor *) are opaque numbers; an out-parameter
 *     for one is a 4-byte slot the caller allocated with malloc.
 *   - Functions returning wnn_status return it as a number (0 = WNN_OK); the
 *     detailed message is wnn_last_error().
 *   - 64-bit quantities (dimensions, byte counts) come back as doubles, exact
 *     below 2^53, so no BigInt is involved.
 *
 * Typical use: malloc the artifact, copy it in, wnn_web_model_load (with
 * WNN_LOAD_BORROW the bytes stay where they are and are used in place),
 * wnn_executor_create, wnn_web_set_input per input, wnn_executor_run, then
 * wnn_web_output_data and wnn_web_tensor_nbytes per output. js/wnn.js, the
 * shim built on these, skips the staging copy of wnn_web_set_input: it checks
 * dtype and length itself and writes each input in place, at the arena
 * address wnn_web_input_data gives once per executor.
 */
#include <stddef.h>

#include "base/status.h"
#include "runtime/codec.h"
#include "wnn.h"

/* Which tensor list a `kind` argument names. */
enum { WNN_WEB_INPUT = 0, WNN_WEB_OUTPUT = 1, WNN_WEB_PARAM = 2 };

/* The instruction set this module's kernels were compiled for (model.isa in
 * js/wnn.js): 0 portable (dist/wnn-scalar.wasm), 1 SIMD128, 2 SIMD128 with
 * relaxed SIMD (dist/wnn-relaxed.wasm). */
int wnn_web_isa(void) {
#if defined(__wasm_relaxed_simd__)
  return 2;
#elif defined(__wasm_simd128__)
  return 1;
#else
  return 0;
#endif
}

/* wnn_model_load with its options as plain numbers: flags is a set of
 * WNN_LOAD_*, kernels a wnn_kernels; the allocator is the C library's. With
 * params (a handle from wnn_web_params_load, or 0) it is
 * wnn_model_load_with_params. */
wnn_status wnn_web_model_load(const void *data, size_t size, wnn_params *params, unsigned flags,
                              int kernels, wnn_model **out) {
  wnn_load_options options = {flags, (wnn_kernels)kernels, NULL};
  if (params) return wnn_model_load_with_params(data, size, params, &options, out);
  return wnn_model_load(data, size, &options, out);
}

/* wnn_params_load with flags as a number. With WNN_LOAD_BORROW and a
 * 64-aligned `data`, tensors are used in place: the bytes must then stay until
 * the last model bound to the params is freed (js/wnn.js keeps them that long). */
wnn_status wnn_web_params_load(const void *data, size_t size, unsigned flags, wnn_params **out) {
  wnn_load_options options = {flags, WNN_KERNELS_AUTO, NULL};
  return wnn_params_load(data, size, &options, out);
}

static wnn_status tensor_info(const wnn_model *model, int kind, int index, wnn_tensor_info *info) {
  switch (kind) {
    case WNN_WEB_INPUT: return wnn_model_input_info(model, index, info);
    case WNN_WEB_OUTPUT: return wnn_model_output_info(model, index, info);
    case WNN_WEB_PARAM: return wnn_model_param_info(model, index, info);
  }
  return wnn_seterr(NULL, 0, WNN_ERR_INVALID_ARGUMENT,
                    "tensor kind %d: expected 0 (input), 1 (output) or 2 (param)", kind);
}

/* Name of input, output or param `index` (owned by the model, valid until
 * wnn_model_free), or NULL when kind or index is out of range. */
const char *wnn_web_tensor_name(const wnn_model *model, int kind, int index) {
  wnn_tensor_info info;
  return tensor_info(model, kind, index, &info) == WNN_OK ? info.name : NULL;
}

/* Its wnn_dtype, or WNN_DTYPE_INVALID (0) when out of range. */
int wnn_web_tensor_dtype(const wnn_model *model, int kind, int index) {
  wnn_tensor_info info;
  return tensor_info(model, kind, index, &info) == WNN_OK ? (int)info.dtype : WNN_DTYPE_INVALID;
}

/* Its number of dimensions, or -1 when out of range. */
int wnn_web_tensor_ndim(const wnn_model *model, int kind, int index) {
  wnn_tensor_info info;
  return tensor_info(model, kind, index, &info) == WNN_OK ? info.ndim : -1;
}

/* Its dimension `axis`, or -1 when anything is out of range. */
double wnn_web_tensor_dim(const wnn_model *model, int kind, int index, int axis) {
  wnn_tensor_info info;
  if (tensor_info(model, kind, index, &info) != WNN_OK) return -1;
  if (axis < 0 || axis >= info.ndim) {
    wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_RANGE, "axis %d of a %d-dimensional tensor", axis,
               info.ndim);
    return -1;
  }
  return (double)info.shape[axis];
}

/* Its size in bytes, or -1 when out of range. */
double wnn_web_tensor_nbytes(const wnn_model *model, int kind, int index) {
  wnn_tensor_info info;
  return tensor_info(model, kind, index, &info) == WNN_OK ? (double)info.nbytes : -1;
}

/* Describes `data` as input `index` of `executor`: its dtype and its current
 * shape (a dynamic model's executor may have been resized). */
static wnn_status input_tensor(const wnn_executor *executor, int index, const void *data,
                               size_t nbytes, DLTensor *t) {
  wnn_tensor_info info;
  wnn_status s = wnn_executor_input_info(executor, index, &info);
  if (s != WNN_OK) return s;
  if (nbytes != info.nbytes)
    return wnn_seterr(NULL, 0, WNN_ERR_SIZE, "input %d (\"%s\"): %zu bytes given, %zu expected",
                      index, info.name, nbytes, info.nbytes);
  t->data = (void *)data;
  t->device.device_type = kDLCPU;
  t->device.device_id = 0;
  t->ndim = info.ndim;
  t->dtype = wnn_dtype_to_dl(info.dtype);
  t->shape = (int64_t *)info.shape; /* read only by set_input */
  t->strides = NULL;
  t->byte_offset = 0;
  return WNN_OK;
}

/* Copies nbytes bytes at data into input `index` of an executor of `model`;
 * the bytes are the input's elements in row-major order, of its dtype. */
wnn_status wnn_web_set_input(const wnn_model *model, wnn_executor *executor, int index,
                             const void *data, size_t nbytes) {
  DLTensor t;
  (void)model;
  wnn_status s = input_tensor(executor, index, data, nbytes, &t);
  return s != WNN_OK ? s : wnn_executor_set_input(executor, index, &t);
}

/* Like wnn_web_set_input but borrows data (wnn_executor_set_input_zero_copy):
 * it must stay valid and unchanged until the input is set again or the
 * executor is destroyed. */
wnn_status wnn_web_set_input_zero_copy(const wnn_model *model, wnn_executor *executor, int index,
                                       const void *data, size_t nbytes) {
  DLTensor t;
  (void)model;
  wnn_status s = input_tensor(executor, index, data, nbytes, &t);
  return s != WNN_OK ? s : wnn_executor_set_input_zero_copy(executor, index, &t);
}

/* Address of output `index`'s elements (wnn_executor_get_output: valid until
 * the next run or until the executor is destroyed), or NULL on failure. Its
 * size is wnn_web_tensor_nbytes(model, 1, index). */
void *wnn_web_output_data(wnn_executor *executor, int index) {
  DLTensor t;
  if (wnn_executor_get_output(executor, index, &t) != WNN_OK) return NULL;
  return (char *)t.data + t.byte_offset;
}

/* Address of input `index`'s elements as the executor holds them
 * (wnn_executor_get_input: valid until the input is set again or the executor
 * is destroyed), or NULL on failure. Its size is
 * wnn_web_tensor_nbytes(model, 0, index). */
void *wnn_web_input_data(wnn_executor *executor, int index) {
  DLTensor t;
  if (wnn_executor_get_input(executor, index, &t) != WNN_OK) return NULL;
  return (char *)t.data + t.byte_offset;
}

/* ------------------------------------------------------ run-time shapes */

/* Dim `axis` of input `index` when it is named (docs/dynamic-shapes.md): its
 * name (owned by the model), or NULL when the dim is fixed or out of range. */
const char *wnn_web_input_dim_name(const wnn_model *model, int index, int axis) {
  wnn_dim_info dim;
  return wnn_model_input_dim(model, index, axis, &dim) == WNN_OK ? dim.name : NULL;
}

/* Of a named dim: field 0 its default, 1 its max (0: none), 2 its multiple;
 * -1 when anything is out of range. */
double wnn_web_input_dim_field(const wnn_model *model, int index, int axis, int field) {
  wnn_dim_info dim;
  if (wnn_model_input_dim(model, index, axis, &dim) != WNN_OK) return -1;
  return field == 0 ? (double)dim.default_size : field == 1 ? (double)dim.max_size
                                                            : (double)dim.multiple;
}

/* An executor's current input (kind 0) or output (kind 1) `index`: what -1
 * its ndim, -2 its size in bytes, d >= 0 its dim d; -1 when out of range. */
double wnn_web_executor_tensor(const wnn_executor *executor, int kind, int index, int what) {
  wnn_tensor_info info;
  wnn_status s = kind == WNN_WEB_INPUT ? wnn_executor_input_info(executor, index, &info)
                                       : wnn_executor_output_info(executor, index, &info);
  if (s != WNN_OK) return -1;
  if (what == -1) return info.ndim;
  if (what == -2) return (double)info.nbytes;
  return what >= 0 && what < info.ndim ? (double)info.shape[what] : -1;
}

/* wnn_executor_resize with plain numbers: for k < count, input indices[k]
 * gets ndims[k] dims, taken in order from dims (doubles, exact integers). */
wnn_status wnn_web_resize(wnn_executor *executor, int count, const int *indices, const int *ndims,
                          const double *dims) {
  if (count < 0 || count > 64)
    return wnn_seterr(NULL, 0, WNN_ERR_INVALID_ARGUMENT, "resize: %d inputs (at most 64)", count);
  int64_t all[64 * WNN_MAX_DIMS];
  wnn_input_shape shapes[64];
  int at = 0;
  for (int k = 0; k < count; k++) {
    if (ndims[k] < 0 || ndims[k] > WNN_MAX_DIMS)
      return wnn_seterr(NULL, 0, WNN_ERR_SHAPE, "resize: input %d: %d dims (at most %d)",
                        indices[k], ndims[k], WNN_MAX_DIMS);
    shapes[k] = (wnn_input_shape){indices[k], ndims[k], &all[at]};
    for (int d = 0; d < ndims[k]; d++, at++) {
      if (!(dims[at] >= 0 && dims[at] <= 9007199254740992.0) || dims[at] != (double)(int64_t)dims[at])
        return wnn_seterr(NULL, 0, WNN_ERR_SHAPE, "resize: input %d: dim %d is not a size",
                          indices[k], d);
      all[at] = (int64_t)dims[at];
    }
  }
  return wnn_executor_resize(executor, count, shapes);
}

/* Entry `index` of an executor's profile (wnn_executor_profile) as numbers:
 * what -1 its output's ndim, -2 runs, -3 total milliseconds, d >= 0 its
 * output's dim d; NaN when there is no such entry or dim. */
double wnn_web_profile_field(const wnn_executor *executor, int index, int what) {
  wnn_node_profile p;
  if (wnn_executor_profile(executor, index, &p) != WNN_OK) return __builtin_nan("");
  if (what == -1) return p.ndim;
  if (what == -2) return (double)p.runs;
  if (what == -3) return p.total_ms;
  return what >= 0 && what < p.ndim ? (double)p.shape[what] : __builtin_nan("");
}

/* Its op type (which 0) or node name (which 1); NULL when there is no such
 * entry. */
const char *wnn_web_profile_text(const wnn_executor *executor, int index, int which) {
  wnn_node_profile p;
  if (wnn_executor_profile(executor, index, &p) != WNN_OK) return NULL;
  return which == 0 ? p.op : p.name;
}

/* User codecs decoded by JavaScript (wnn.registerCodec in js/wnn.js): the
 * import env.wnn_js_decode calls the function registered for `codec`, which
 * writes the decoded bytes at dst and returns how many it wrote (0 when it
 * threw or returned no bytes). */
__attribute__((import_module("env"), import_name("wnn_js_decode"))) extern size_t wnn_js_decode(
    unsigned codec, const void *src, size_t src_size, void *dst, size_t dst_size);

static size_t js_decode(void *codec, const void *src, size_t src_size, void *dst,
                        size_t dst_size) {
  return wnn_js_decode((unsigned)(size_t)codec, src, src_size, dst, dst_size);
}

/* Registers (on != 0) or unregisters user codec `id` as decoded by JS. */
wnn_status wnn_web_codec_register(unsigned id, const char *name, int on) {
  return wnn_codec_register(id, name, on ? js_decode : NULL, (void *)(size_t)id);
}

/* lz4 and zstd (the codec's second byte) are not in the web modules: their
 * runtime asks JavaScript through the same import, as codec 1 or 2, and
 * js/wnn.js decodes with dist/wnn-codecs.wasm (wasm/codecs.c). */
__attribute__((constructor)) static void lossless_by_js(void) {
  wnn_codec_set_lossless_hook(js_decode);
}

/* Value `index` of a (debug) executor, field by field: what >= 0 its dim
 * `what`, -1 ndim, -2 nbytes, -3 dtype, -4 the address of its bytes; a
 * failure of wnn_executor_get_value gives -(100 + status), its message in
 * wnn_executor_errmsg. *name (when non-NULL) gets its name or NULL. */
double wnn_web_value(wnn_executor *executor, int index, int what, const char **name) {
  wnn_tensor_info info;
  DLTensor t;
  wnn_status s = wnn_executor_get_value(executor, index, &info, &t);
  if (s != WNN_OK) return -(100.0 + s);
  if (name) *name = info.name;
  if (what == -1) return info.ndim;
  if (what == -2) return (double)info.nbytes;
  if (what == -3) return info.dtype;
  if (what == -4) return (double)(size_t)((char *)t.data + t.byte_offset);
  return what >= 0 && what < info.ndim ? (double)info.shape[what] : -1;
}

#ifdef __EMSCRIPTEN_PTHREADS__
/* dist/wnn-mt.wasm: worker threads started by JavaScript (js/thread.js), not
 * by pthread_create's own JS glue, which this build does not ship.
 *
 * wnn_web_thread_new, on a thread that runs already, makes what a new one
 * needs before it can run any C: its libc thread record and its stack
 * (`stack_size` bytes). pthread_create makes both and calls the JS import
 * __pthread_create_js, which js/wnn.js answers with success and nothing else:
 * the record never runs `never`. out[0] = the record, out[1] = the stack's
 * top, out[2] = its base. The worker then sets its stack pointer and limits,
 * calls _emscripten_thread_init(record, 0, 0, 1, 0) and emscripten_tls_init,
 * and enters wnn_web_thread_serve, which parks it for the pools of every
 * executor of this memory (src/runtime/pool.c). */
#include <emscripten/emmalloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/pool.h"

static void *never(void *arg) { return arg; }

wnn_status wnn_web_thread_new(size_t stack_size, uint32_t *out) {
  stack_size = (stack_size + 15) & ~(size_t)15;
  void *stack = aligned_alloc(16, stack_size);
  if (!stack) return wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY, "out of memory for a thread's stack");
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, stack_size);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  const int err = pthread_create(&t, &attr, never, NULL);
  pthread_attr_destroy(&attr);
  if (err) {
    free(stack);
    return wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY, "a thread record: pthread_create error %d", err);
  }
  out[0] = (uint32_t)(uintptr_t)t;
  out[1] = (uint32_t)((uintptr_t)stack + stack_size);
  out[2] = (uint32_t)(uintptr_t)stack;
  return WNN_OK;
}

void wnn_web_thread_serve(void) { wnn_pool_serve(); }

/* Bytes malloc has handed out and not had back, on every thread of this
 * memory (emmalloc's heap less its free blocks): what the sharing test and
 * bench measure, since the memory itself only ever grows. */
double wnn_web_heap_used(void) {
  return (double)(emmalloc_dynamic_heap_size() - emmalloc_free_dynamic_memory());
}
int wnn_web_threads_serving(void) { return wnn_pool_serving(); }
#endif
