/*
 * wnn: a neural-network inference runtime for WebAssembly and native hosts.
 *
 * The public C API. Two objects:
 *
 *   wnn_model     an artifact loaded from a buffer: graph, weights, memory plan.
 *                 Immutable after wnn_model_load returns; any number of executors
 *                 on any number of threads may use one model at once.
 *   wnn_executor  the mutable state of one inference: one arena holding every
 *                 input, intermediate and output, sized by the model's plan and
 *                 allocated when the executor is created. wnn_executor_run
 *                 allocates nothing. One thread at a time per executor. An
 *                 executor of a dynamic model (docs/dynamic-shapes.md) may be
 *                 resized to other input shapes (wnn_executor_resize): it then
 *                 owns its shapes and plan; the model is unchanged.
 *
 * Conventions:
 *   - Every fallible function returns a wnn_status; results come back through
 *     out-parameters, which are left untouched on failure.
 *   - wnn_status_str(s) is a static text for a status. The detailed message of
 *     the last failure on the calling thread is wnn_last_error(); an executor
 *     also keeps the message of its own last failure (wnn_executor_errmsg).
 *   - Destructors accept NULL.
 *   - The library never prints, aborts or exits.
 *   - All memory comes from one allocator: the default uses the C library; a
 *     caller may pass its own in wnn_load_options (executors inherit it).
 *   - Tensors cross the API as DLPack DLTensor (dense, row-major, CPU).
 */
#ifndef WNN_H
#define WNN_H

#include <stddef.h>
#include <stdint.h>
#include <dlpack/dlpack.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WNN_VERSION_MAJOR 0
#define WNN_VERSION_MINOR 1
#define WNN_VERSION_PATCH 0

/* The artifact format version this library writes; it reads every older minor
 * version of the same major version (docs/format.md). */
#define WNN_FORMAT_MAJOR 1
#define WNN_FORMAT_MINOR 0

/* Most dimensions a tensor may have. */
#define WNN_MAX_DIMS 8

/* Resource limits: the largest artifact the loader accepts, the same on every
 * platform, so that what loads natively loads in wasm32 too (docs/format.md,
 * "Limits"). Past them wnn_model_load fails with WNN_ERR_LIMIT (a section
 * table outside the buffer is WNN_ERR_BAD_SECTION); `wnn convert` refuses to
 * write such an artifact (docs/importer.md).
 *   - a tensor (input, output, param, intermediate): WNN_MAX_TENSOR_BYTES;
 *   - one dimension: WNN_MAX_DIM; WNN_MAX_DIMS dimensions;
 *   - the arena of an executor: WNN_MAX_ARENA_BYTES;
 *   - a graph: WNN_MAX_VALUES values, WNN_MAX_NODES nodes, at most 64
 *     sections in the container;
 *   - the artifact itself: any size the buffer holds (its sections are 64-bit
 *     offsets); in wasm32 the web module's memory tops out at 2 GiB, artifact,
 *     weights and arenas together. */
#define WNN_MAX_TENSOR_BYTES 2147483647u /* 2^31 - 1 */
#define WNN_MAX_ARENA_BYTES 2147483647u
#define WNN_MAX_DIM (INT64_C(1) << 40)
#define WNN_MAX_VALUES (1 << 22)
#define WNN_MAX_NODES (1 << 20)

typedef enum wnn_status {
  WNN_OK = 0,
  WNN_ERR_INVALID_ARGUMENT = 1, /* NULL where a pointer is required, bad option */
  WNN_ERR_OUT_OF_MEMORY = 2,    /* the allocator returned NULL */
  WNN_ERR_TRUNCATED = 3,        /* buffer shorter than its header says */
  WNN_ERR_BAD_MAGIC = 4,        /* not a wnn artifact */
  WNN_ERR_VERSION = 5,          /* format major version this library cannot read */
  WNN_ERR_FEATURE = 6,          /* required feature flag, section or codec unknown */
  WNN_ERR_BAD_SECTION = 7,      /* section table: outside the buffer, overlapping, overflowing */
  WNN_ERR_CHECKSUM = 8,         /* section contents do not match their CRC-32 */
  WNN_ERR_MALFORMED = 9,        /* graph or metadata JSON malformed or inconsistent */
  WNN_ERR_UNKNOWN_OP = 10,      /* op code this library does not implement */
  WNN_ERR_BAD_ATTRIBUTE = 11,   /* node attribute unknown, missing or of the wrong type */
  WNN_ERR_BAD_PLAN = 12,        /* memory plan out of the arena or overlapping live values */
  WNN_ERR_NOT_FOUND = 13,       /* no input/output of that name */
  WNN_ERR_OUT_OF_RANGE = 14,    /* index out of range (also data-dependent indices at run time) */
  WNN_ERR_DTYPE = 15,           /* tensor of the wrong element type */
  WNN_ERR_SHAPE = 16,           /* tensor of the wrong shape */
  WNN_ERR_SIZE = 17,            /* wrong byte count */
  WNN_ERR_UNSUPPORTED = 18,     /* valid request this build does not support */
  WNN_ERR_IO = 19,              /* file could not be read or written (CLI and tools) */
  WNN_ERR_LIMIT = 20            /* larger than a resource limit (WNN_MAX_*, --max-memory) */
} wnn_status;

/* Element types. The numbers are stored in no artifact; the format names dtypes
 * by string: the quoted name, which is what wnn_dtype_name gives (and what the
 * JS package calls the dtype). */
typedef enum wnn_dtype {
  WNN_DTYPE_INVALID = 0,
  WNN_DTYPE_F32 = 1,  /* "float32" */
  WNN_DTYPE_F16 = 2,  /* "float16" */
  WNN_DTYPE_I64 = 3,  /* "int64" */
  WNN_DTYPE_I32 = 4,  /* "int32" */
  WNN_DTYPE_I8 = 5,   /* "int8" */
  WNN_DTYPE_U8 = 6,   /* "uint8" */
  WNN_DTYPE_BOOL = 7, /* "bool" */
  /* Only at a model's boundary (a graph input or output its ONNX file
   * declares DOUBLE) and in Cast and CastLike; the model computes in float32
   * between them (docs/format.md, required feature bit 5). */
  WNN_DTYPE_F64 = 8   /* "float64" */
} wnn_dtype;

/* A static, NUL-terminated description of a status. Never NULL. */
const char *wnn_status_str(wnn_status status);

/* The detailed message of the last failed wnn_* call on this thread ("" when
 * none). Valid until the next wnn_* call on this thread. */
const char *wnn_last_error(void);

/* "0.1.0". Static. */
const char *wnn_version(void);

/* Element type helpers. wnn_dtype_size is 0 for WNN_DTYPE_INVALID. wnn_dtype_name
 * gives the format's name ("float32", "int64", ...); wnn_dtype_from_name maps it
 * back (WNN_DTYPE_INVALID when unknown). wnn_dtype_to_dl and wnn_dtype_from_dl
 * convert to and from DLPack. */
size_t wnn_dtype_size(wnn_dtype dtype);
const char *wnn_dtype_name(wnn_dtype dtype);
wnn_dtype wnn_dtype_from_name(const char *name);
DLDataType wnn_dtype_to_dl(wnn_dtype dtype);
wnn_dtype wnn_dtype_from_dl(DLDataType dl);

/* ---------------------------------------------------------------- allocator */

/* All memory the library uses comes from these two functions. alloc returns
 * memory aligned to at least `align` bytes (a power of two, at most 64), or
 * NULL. free receives the size and alignment that alloc was given; ptr may be
 * NULL. */
typedef struct wnn_allocator {
  void *(*alloc)(void *user, size_t size, size_t align);
  void (*free)(void *user, void *ptr, size_t size, size_t align);
  void *user;
} wnn_allocator;

/* ---------------------------------------------------------------- the model */

typedef struct wnn_model wnn_model;
typedef struct wnn_executor wnn_executor;

/* Load flags. */
enum {
  /* Borrow the artifact buffer instead of copying it: the caller keeps it alive
   * and unchanged until wnn_model_free. Weights are then used in place. */
  WNN_LOAD_BORROW = 1u << 0,
  /* Skip the CRC-32 check of section contents (bounds are always checked). */
  WNN_LOAD_NO_CHECKSUM = 1u << 1
};

/* Which kernel variants a model runs with; chosen once, at load. */
typedef enum wnn_kernels {
  WNN_KERNELS_AUTO = 0,      /* the fastest variant this build has */
  WNN_KERNELS_SCALAR = 1,    /* portable scalar kernels */
  WNN_KERNELS_REFERENCE = 2  /* the test oracle; only in builds with WNN_WITH_REFERENCE */
} wnn_kernels;

typedef struct wnn_load_options {
  unsigned flags;                 /* WNN_LOAD_* */
  wnn_kernels kernels;
  const wnn_allocator *allocator; /* NULL: the C library's; copied, need not outlive the call */
} wnn_load_options;

/* Loads an artifact. options may be NULL (copy the buffer, verify checksums,
 * AUTO kernels, default allocator). Everything is validated here: container,
 * graph, shapes, attributes and memory plan; a model that loads runs.
 * Without WNN_LOAD_BORROW the buffer may be freed as soon as this returns.
 * On failure *out is untouched and wnn_last_error() names what is wrong. */
wnn_status wnn_model_load(const void *data, size_t size, const wnn_load_options *options,
                          wnn_model **out);

/* Frees a model. Every executor of the model must have been destroyed first. */
void wnn_model_free(wnn_model *model);

/* Counts. Inputs are the graph's real inputs only; weights are params. */
int wnn_model_num_inputs(const wnn_model *model);
int wnn_model_num_outputs(const wnn_model *model);
int wnn_model_num_params(const wnn_model *model);

/* Shape and type of an input, output or param. Pointers inside are owned by the
 * model and valid until wnn_model_free. For a dynamic model (one whose inputs
 * name dims, docs/dynamic-shapes.md) an input's shape holds WNN_DIM_DYNAMIC
 * where a dim is named (wnn_model_input_dim says which name), and nbytes and
 * the outputs' shapes are those of the reference plan, at every dim's default;
 * an executor's current shapes are wnn_executor_input_info and
 * wnn_executor_output_info. */
typedef struct wnn_tensor_info {
  const char *name;      /* exactly as in the source model; NULL for a param of a release
                          * artifact (required feature bit INTEGER_NAMES, docs/format.md) */
  wnn_dtype dtype;
  int ndim;
  const int64_t *shape;  /* ndim entries */
  size_t nbytes;
} wnn_tensor_info;

wnn_status wnn_model_input_info(const wnn_model *model, int index, wnn_tensor_info *info);
wnn_status wnn_model_output_info(const wnn_model *model, int index, wnn_tensor_info *info);
wnn_status wnn_model_param_info(const wnn_model *model, int index, wnn_tensor_info *info);

/* Params blobs (docs/params.md): weights converted apart from the graph
 * (`wnn convert --params-out`), loaded once and bound by any number of models.
 * A wnn_params is immutable once loaded and may be used by models on any
 * threads. Ownership as for models: without WNN_LOAD_BORROW the bytes are
 * copied (the buffer may go when this returns); with it they are used in
 * place when 64-byte aligned (copied otherwise) and the caller keeps them
 * alive and unchanged until the params are freed and every model bound to
 * them is. WNN_LOAD_NO_CHECKSUM skips the CRCs and the SHA-256 (then a model
 * is bound by its params' names, dtypes and shapes alone). */
typedef struct wnn_params wnn_params;
wnn_status wnn_params_load(const void *data, size_t size, const wnn_load_options *options,
                           wnn_params **out);
/* Drops the caller's reference: models bound to the params keep theirs, and
 * the memory goes with the last of them, so freeing params early is safe. */
void wnn_params_free(wnn_params *params);
int wnn_params_count(const wnn_params *params);
/* Tensor `index` (sorted by name); pointers valid while the params live. */
wnn_status wnn_params_info(const wnn_params *params, int index, wnn_tensor_info *info);
/* Loads an artifact whose weights are in `params` (required feature bit 0,
 * EXTERNAL_PARAMS). All or nothing: the blob must be the one the artifact
 * names (WNN_ERR_CHECKSUM otherwise), and every external param must be in it
 * with the same dtype, shape and size (WNN_ERR_NOT_FOUND, WNN_ERR_DTYPE,
 * WNN_ERR_SHAPE, WNN_ERR_SIZE, naming the tensor); else no model is made.
 * The model holds a reference to params. A self-contained artifact is
 * WNN_ERR_INVALID_ARGUMENT here, and an external-params one is
 * WNN_ERR_FEATURE for wnn_model_load. */
wnn_status wnn_model_load_with_params(const void *data, size_t size, wnn_params *params,
                                      const wnn_load_options *options, wnn_model **out);

/* Weight codecs (docs/format.md, "Param codecs"): how a param of an artifact
 * or a tensor of a params blob is stored. Lossy value codecs are decoded to
 * float32 at load; ids from WNN_CODEC_USER_FIRST on are the user's. */
typedef enum wnn_codec {
  WNN_CODEC_RAW = 0,  /* every element as is */
  WNN_CODEC_FILL = 3, /* one element, repeated (artifact params only) */
  WNN_CODEC_FP16 = 4, /* a float32 tensor stored as IEEE half */
  WNN_CODEC_INT8 = 5, /* a float32 tensor as symmetric int8 per output channel (axis 0):
                       * dims[0] float32 scales, then the int8 values; x = q * scale */
  WNN_CODEC_USER_FIRST = 128,
  WNN_CODEC_USER_LAST = 255
} wnn_codec;

/* A user codec's decoder: writes exactly dst_size bytes of the tensor from
 * the src_size stored bytes and returns how many it wrote; any other count
 * (0 for a corrupt stream) fails the load with WNN_ERR_MALFORMED naming the
 * codec and the tensor. It may be called from any thread loading a model. */
typedef size_t (*wnn_codec_decode_fn)(void *user_data, const void *src, size_t src_size,
                                      void *dst, size_t dst_size);
/* Registers decoder `decode` as codec `id` (WNN_CODEC_USER_FIRST to
 * WNN_CODEC_USER_LAST) under `name` (copied, at most 31 bytes shown in
 * messages) for every later load in this process; NULL unregisters. A
 * registered id may be registered again (the new decoder replaces it).
 * Registering is not synchronized with loads on other threads: register
 * codecs before such loads start. An artifact or blob using an unregistered
 * codec fails to load with WNN_ERR_FEATURE naming the codec id and the tensor. */
wnn_status wnn_codec_register(unsigned id, const char *name, wnn_codec_decode_fn decode,
                              void *user_data);
/* How param `index` is stored: its codec and stored bytes (the decoded ones
 * are its wnn_model_param_info nbytes). A param bound from a params blob
 * reports the blob tensor's codec and stored size. */
wnn_status wnn_model_param_storage(const wnn_model *model, int index, unsigned *codec,
                                   size_t *stored_bytes);

/* Run-time shapes (docs/dynamic-shapes.md). Dim d of input `input`: size >= 0
 * when fixed (name NULL, default_size and max_size equal to it), or
 * WNN_DIM_DYNAMIC when named: its name (owned by the model, valid until
 * wnn_model_free), the default the artifact's plan is made for, max_size
 * (0: unbounded) and multiple (a size must be a multiple of it; 1 when any
 * size goes). Several inputs may name the same dim: they must agree. */
#define WNN_DIM_DYNAMIC (-1)
typedef struct wnn_dim_info {
  int64_t size;
  const char *name;
  int64_t default_size, max_size;
  int64_t multiple;
} wnn_dim_info;
wnn_status wnn_model_input_dim(const wnn_model *model, int input, int d, wnn_dim_info *info);

/* Index of the input or output with that exact name; WNN_ERR_NOT_FOUND if none. */
wnn_status wnn_model_input_index(const wnn_model *model, const char *name, int *index);
wnn_status wnn_model_output_index(const wnn_model *model, const char *name, int *index);

/* The metadata section: a NUL-terminated JSON object (docs/format.md lists its
 * fields). Owned by the model, valid until wnn_model_free. */
const char *wnn_model_metadata(const wnn_model *model);

/* Bytes of the arena an executor of this model allocates at creation (for a
 * dynamic model: the reference plan's, or the plan at every dim's max when
 * every dim is bounded, whichever is larger), and of weights:
 * the artifact's WEIGHTS section plus the block the loader fills for params
 * stored as one repeated element (the FILL codec, docs/format.md) and the
 * block params stored with fp16, int8 or a user codec are decoded into (params
 * bound from a blob are the blob's: not counted here). */
size_t wnn_model_arena_bytes(const wnn_model *model);
size_t wnn_model_weights_bytes(const wnn_model *model);

/* ------------------------------------------------------------- the executor */

/* Creates an executor and allocates its whole arena (zero-filled, so unset
 * inputs read as zeros). Its shapes are the model's reference shapes until it
 * is resized. The model must outlive the executor. Thread-safe with
 * respect to the model: many threads may create executors of one model. */
wnn_status wnn_executor_create(const wnn_model *model, wnn_executor **out);
void wnn_executor_destroy(wnn_executor *executor);

/* The message of this executor's last failure ("" when none). Valid until the
 * next call on this executor. */
const char *wnn_executor_errmsg(const wnn_executor *executor);

/* Copies a tensor into input `index`. The tensor must be dense (strides NULL or
 * row-major), on kDLCPU, of the input's dtype and of the executor's current
 * shape for it (another shape is WNN_ERR_SHAPE, even for a dynamic model:
 * resize first, below). */
wnn_status wnn_executor_set_input(wnn_executor *executor, int index, const DLTensor *tensor);
wnn_status wnn_executor_set_input_by_name(wnn_executor *executor, const char *name,
                                          const DLTensor *tensor);

/* Like wnn_executor_set_input, but borrows tensor->data instead of copying: it
 * must stay valid and unchanged until the input is set again or the executor is
 * destroyed. Its address must be aligned to the dtype's size. */
wnn_status wnn_executor_set_input_zero_copy(wnn_executor *executor, int index,
                                            const DLTensor *tensor);

/* A view of input `index` (the copy in the arena, or the borrowed buffer).
 * tensor->shape points into the model or the executor. Valid until the input
 * is set again, the executor is resized or destroyed. */
wnn_status wnn_executor_get_input(wnn_executor *executor, int index, DLTensor *tensor);

/* Runs the graph. Allocates nothing. Fails only on data-dependent errors (an
 * index tensor out of range), which the message names. */
wnn_status wnn_executor_run(wnn_executor *executor);

/* A borrowed view of output `index`, at the executor's current shapes:
 * tensor->data points into the executor's arena (or the model's weights, for
 * an output that is a constant) and is valid until the next wnn_executor_run,
 * resize, or the executor is destroyed; tensor->shape points into the model
 * or the executor, valid until the next resize or destroy. */
wnn_status wnn_executor_get_output(wnn_executor *executor, int index, DLTensor *tensor);
wnn_status wnn_executor_get_output_by_name(wnn_executor *executor, const char *name,
                                           DLTensor *tensor);

/* Copies output `index` into dst, which holds exactly `nbytes` bytes (the
 * output's size at the current shapes, else WNN_ERR_SIZE). */
wnn_status wnn_executor_copy_output(wnn_executor *executor, int index, void *dst, size_t nbytes);

/* -------------------------------------------------------- run-time shapes */

/* Shape and type of input or output `index` at the executor's current shapes
 * (for a fixed model, or before any resize: the model's). name points into
 * the model; shape into the model or the executor, valid until the next
 * resize or until the executor is destroyed. */
wnn_status wnn_executor_input_info(const wnn_executor *executor, int index, wnn_tensor_info *info);
wnn_status wnn_executor_output_info(const wnn_executor *executor, int index,
                                    wnn_tensor_info *info);

/* Sets the shapes of `count` inputs at once (several inputs may share a dim:
 * input_ids and attention_mask share `seq`); the other inputs keep theirs.
 * Infers every shape with the ops' own prepare, runs the shape nodes, plans
 * the arena with the builder's planner and grows the arena when the plan
 * needs more (it never shrinks). A named dim past its max, not a multiple of
 * its multiple, or of two sizes in two inputs, and a fixed dim of another
 * size, are WNN_ERR_SHAPE naming the input and the dim; a node whose prepare
 * refuses the shapes fails with its status and a message naming the node.
 * All or nothing: on failure the executor keeps its previous shapes, plan,
 * arena and input contents.
 * After a resize that changes any shape, every input must be set again (its
 * contents are undefined, borrowed inputs are dropped) and views of inputs
 * and outputs are stale. The executor keeps the plans of its last 4 distinct
 * shape sets (and the model's reference plan): resizing back to one of them
 * allocates nothing, nor does resizing to the shapes it has. May allocate;
 * wnn_executor_run never does, whatever the shapes. A model without named
 * dims accepts only its own shapes. */
typedef struct wnn_input_shape {
  int index;              /* the input */
  int ndim;               /* the input's ndim */
  const int64_t *shape;   /* ndim dims, borrowed for the call */
} wnn_input_shape;
wnn_status wnn_executor_resize(wnn_executor *executor, int count, const wnn_input_shape *shapes);
wnn_status wnn_executor_resize_input(wnn_executor *executor, int index, int ndim,
                                     const int64_t *shape);
wnn_status wnn_executor_resize_input_by_name(wnn_executor *executor, const char *name, int ndim,
                                             const int64_t *shape);

/* Bytes of the executor's arena now: the largest plan it has used (or the
 * model's, wnn_model_arena_bytes, at creation). 0 for NULL. */
size_t wnn_executor_arena_bytes(const wnn_executor *executor);

/* ------------------------------------------------------- per-node profile */

/* Per-node timing, off by default (TVM's debug executor). on != 0 turns it
 * on: the executor's profile table (one entry per node of the model) is
 * allocated the first time (WNN_ERR_OUT_OF_MEMORY if it cannot be) and every
 * entry is reset to zero. While on, each wnn_executor_run adds each node's
 * elapsed time to its entry and counts the run (it still allocates nothing;
 * the cost is two reads of the clock per node). on == 0 stops recording and
 * keeps the table for reading. The clock is clock_gettime(CLOCK_MONOTONIC):
 * natively, under WASI, and in the web modules through WASI's clock_time_get
 * (which js/wnn.js answers with performance.now()). Off, run pays one branch
 * per node. */
wnn_status wnn_executor_set_profiling(wnn_executor *executor, int on);

typedef struct wnn_node_profile {
  int node;              /* the node's index in the model (its run order) */
  const char *op;        /* the ONNX op type, "Conv"; points into the library */
  const char *name;      /* the node's name in the artifact, or "" */
  int ndim;              /* output 0's shape at the executor's current shapes; */
  const int64_t *shape;  /* valid until the next resize or destroy */
  uint64_t runs;         /* runs that executed the node since profiling was turned on
                          * (0 for nodes that never run: aliases such as Reshape, the
                          * shape nodes of a dynamic model, untaken If branches) */
  double total_ms;       /* its time summed over those runs */
} wnn_node_profile;

/* Debug executors (TVM's debug executor; docs/params.md section 4): every
 * value in memory of its own, nothing reused, so after a run every
 * intermediate can be read. Otherwise the same as wnn_executor_create (the
 * arena is the sum of every value instead of the plan's peak). A dynamic
 * model's debug executor keeps its reference shapes (resize is
 * WNN_ERR_UNSUPPORTED). */
wnn_status wnn_executor_create_debug(const wnn_model *model, wnn_executor **out);
/* The model's values (inputs, params, intermediates, outputs, in artifact
 * order): 0 <= index < wnn_executor_num_values. get_value fills info (name
 * NULL for a value without one) and a view of its bytes, valid until the
 * next run. Intermediates need a debug executor (WNN_ERR_UNSUPPORTED
 * otherwise, as their memory is reused) and a completed run; a value an
 * untaken If branch did not compute is WNN_ERR_NOT_FOUND. By name: the
 * source model's value names that survive conversion (folded and fused
 * values have none). */
int wnn_executor_num_values(const wnn_executor *executor);
wnn_status wnn_executor_get_value(wnn_executor *executor, int index, wnn_tensor_info *info,
                                  DLTensor *out);
wnn_status wnn_executor_get_value_by_name(wnn_executor *executor, const char *name,
                                          wnn_tensor_info *info, DLTensor *out);

/* Entry `index` (0 <= index < wnn_model_num_nodes) of the profile table, in
 * node order: WNN_ERR_INVALID_ARGUMENT if profiling was never turned on,
 * WNN_ERR_OUT_OF_RANGE for a bad index. */
wnn_status wnn_executor_profile(const wnn_executor *executor, int index, wnn_node_profile *out);

/* The number of nodes of the model (the profile table's entries). */
int wnn_model_num_nodes(const wnn_model *model);

/* Intra-op threads (docs/threads.md): this executor's runs use `threads`
 * threads (1 to 64): the calling thread and threads - 1 workers the executor
 * owns, started here (allocation and thread creation happen here, never in
 * run) and idle between runs; 1, the default, stops them. The GEMMs of
 * MatMul, Gemm, Conv (im2col and 1x1), QLinearConv, QLinearMatMul,
 * MatMulInteger and DynamicQuantizeMatMul split their output tiles across the
 * threads, so results are bitwise the same for any count; other ops, and
 * GEMMs too small to pay for waking threads, run on the calling thread. One
 * executor still runs on one caller at a time; wnn_model_predict uses one
 * thread. Builds without threads (the wasm modules) refuse a count above 1
 * with WNN_ERR_UNSUPPORTED. */
wnn_status wnn_executor_set_threads(wnn_executor *executor, int threads);
int wnn_executor_threads(const wnn_executor *executor);

/* ------------------------------------------------------ stateless predict */

/* Runs the model once, statelessly: inputs[i] is input i (as for
 * wnn_executor_set_input) and each outputs[i] names a caller-owned buffer of
 * output i's dtype and shape, which receives a copy. It creates and destroys a
 * private executor, so unlike wnn_executor_run it allocates (one arena per
 * call); in exchange any number of threads may call it on one model at once.
 * Errors: wnn_last_error(). */
wnn_status wnn_model_predict(const wnn_model *model, const DLTensor *inputs, int num_inputs,
                             const DLTensor *outputs, int num_outputs);

#ifdef __cplusplus
}
#endif
#endif /* WNN_H */
