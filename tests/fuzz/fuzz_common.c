/* See fuzz_common.h. */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */

#include "fuzz_common.h"

#include <sanitizer/allocator_interface.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wnn_fuzz_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("wnn fuzz: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

/* ------------------------------------------------------------ allocator */

/* Blocks come straight from the C library (posix_memalign), so ASan's red
 * zones sit right before and after the bytes the runtime asked for. free
 * checks, with ASan's record of each block's size, that the runtime hands back
 * the size it was given (wnn.h: "free receives the size and alignment that
 * alloc was given"); a wrong size would corrupt a host's pool allocator. */
static size_t outstanding;

static void *fuzz_alloc(void *user, size_t size, size_t align) {
  (void)user;
  if (align == 0 || (align & (align - 1)) || align > 64)
    wnn_fuzz_die("allocator: alignment %zu is not a power of two up to 64", align);
  size_t n = size ? size : 1;
  if (n > WNN_FUZZ_ALLOC_MAX || n > WNN_FUZZ_ALLOC_TOTAL - outstanding) return NULL;
  void *p = NULL;
  if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, n) != 0) return NULL;
  outstanding += n; /* what ASan records for the block, which free subtracts */
  return p;
}

int wnn_fuzz_avoid(const char *name) {
  const char *list = getenv("WNN_FUZZ_AVOID");
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    size_t len = strcspn(p, ",");
    if (len == n && !memcmp(p, name, n)) return 1;
    p += len + (p[len] == ',');
  }
  return 0;
}

static void fuzz_free(void *user, void *ptr, size_t size, size_t align) {
  (void)user;
  if (!ptr) return;
  size_t got = __sanitizer_get_allocated_size(ptr);
  int wrong_size = got != (size ? size : 1) && !wnn_fuzz_avoid("free-size");
  if (wrong_size || (uintptr_t)ptr % (align ? align : 1) != 0)
    wnn_fuzz_die("allocator: block of %zu bytes at %p freed as %zu bytes aligned to %zu", got,
                 ptr, size, align);
  outstanding -= got;
  free(ptr);
}

const wnn_allocator wnn_fuzz_allocator = {fuzz_alloc, fuzz_free, NULL};

/* ------------------------------------------------------------ load and run */

static void check_info(const wnn_model *m, const wnn_tensor_info *info, const char *what, int i) {
  if (!info->name) wnn_fuzz_die("%s %d has no name", what, i);
  size_t es = wnn_dtype_size(info->dtype);
  if (!es) wnn_fuzz_die("%s %d (%s) has dtype %d", what, i, info->name, (int)info->dtype);
  if (info->ndim < 0 || info->ndim > WNN_MAX_DIMS || (info->ndim && !info->shape))
    wnn_fuzz_die("%s %d (%s) has %d dims", what, i, info->name, info->ndim);
  /* An input dim may be dynamic (WNN_DIM_DYNAMIC, named, with a default:
   * docs/dynamic-shapes.md); nbytes are then the bytes at the defaults. */
  int64_t shape[WNN_MAX_DIMS];
  for (int d = 0; d < info->ndim; d++) {
    shape[d] = info->shape[d];
    if (shape[d] != WNN_DIM_DYNAMIC || strcmp(what, "input")) continue;
    wnn_dim_info dim;
    if (wnn_model_input_dim(m, i, d, &dim) != WNN_OK || !dim.name || dim.default_size < 0)
      wnn_fuzz_die("input %s: dim %d is dynamic but has no name or default", info->name, d);
    shape[d] = dim.default_size;
  }
  /* nbytes must be the product of the dims times the element size (a product
   * past SIZE_MAX would be a loader bug). */
  size_t n = es;
  int empty = 0;
  for (int d = 0; d < info->ndim; d++) {
    if (shape[d] < 0) wnn_fuzz_die("%s %s has a negative dim", what, info->name);
    if (shape[d] == 0) empty = 1;
  }
  for (int d = 0; !empty && d < info->ndim; d++) {
    uint64_t dim = (uint64_t)shape[d];
    if (dim && n > SIZE_MAX / dim) wnn_fuzz_die("%s %s: the byte size overflows", what, info->name);
    n *= (size_t)dim;
  }
  if (empty) n = 0;
  if (n != info->nbytes)
    wnn_fuzz_die("%s %d (%s): nbytes %zu, its shape says %zu", what, i, info->name,
                 info->nbytes, n);
}

/* WNN_FUZZ_VERBOSE=1 in the environment: one line per input on stderr saying
 * how far it got (for checking seeds: scripts/fuzz.sh, docs/fuzzing.md). */
static int verbose(void) {
  static int v = -1;
  if (v < 0) v = getenv("WNN_FUZZ_VERBOSE") && getenv("WNN_FUZZ_VERBOSE")[0] == '1';
  return v;
}

/* Sets every input of ex to zeros of its current shape and runs it once. */
static void run_executor(wnn_model *m, wnn_executor *ex) {
  wnn_status st;
  int ni = wnn_model_num_inputs(m);
  for (int i = 0; i < ni; i++) {
    wnn_tensor_info info;
    if (wnn_executor_input_info(ex, i, &info) != WNN_OK) wnn_fuzz_die("input_info(%d) failed", i);
    void *zeros = calloc(1, info.nbytes ? info.nbytes : 1);
    if (!zeros) continue;
    DLTensor t;
    memset(&t, 0, sizeof t);
    t.data = zeros;
    t.device.device_type = kDLCPU;
    t.ndim = info.ndim;
    t.dtype = wnn_dtype_to_dl(info.dtype);
    t.shape = (int64_t *)info.shape;
    st = wnn_executor_set_input(ex, i, &t);
    free(zeros);
    if (st != WNN_OK)
      wnn_fuzz_die("set_input(%d, %s) of zeros of its own shape failed: %s", i, info.name,
                   wnn_executor_errmsg(ex));
  }
  st = wnn_executor_run(ex);
  if (verbose())
    fprintf(stderr, "wnn fuzz: run: %s%s%s\n", wnn_status_str(st), st ? ": " : "",
            st ? wnn_executor_errmsg(ex) : "");
  if (st == WNN_OK) {
    /* Read every output byte: ASan checks the views point at live memory. */
    int no = wnn_model_num_outputs(m);
    for (int i = 0; i < no; i++) {
      wnn_tensor_info info;
      if (wnn_executor_output_info(ex, i, &info) != WNN_OK) wnn_fuzz_die("output_info(%d) failed", i);
      if (!info.nbytes && wnn_fuzz_avoid("empty-output")) continue;
      void *buf = malloc(info.nbytes ? info.nbytes : 1);
      if (!buf) continue;
      st = wnn_executor_copy_output(ex, i, buf, info.nbytes);
      if (st != WNN_OK)
        wnn_fuzz_die("copy_output(%d, %s) failed after a run: %s", i, info.name,
                     wnn_executor_errmsg(ex));
      free(buf);
    }
  } else if (!wnn_executor_errmsg(ex)[0]) {
    wnn_fuzz_die("wnn_executor_run failed (%s) without a message", wnn_status_str(st));
  }
}

static void run_once(wnn_model *m) {
  wnn_executor *ex = NULL;
  wnn_status st = wnn_executor_create(m, &ex);
  if (st != WNN_OK) {
    if (st != WNN_ERR_OUT_OF_MEMORY)
      wnn_fuzz_die("wnn_executor_create failed (%s) for a loaded model: %s", wnn_status_str(st),
                   wnn_last_error());
    return;
  }
  run_executor(m, ex);
  /* A model with dynamic dims: each one at its default + 1 (within its max),
   * then back to the defaults. A resize either works (and the executor runs
   * at the new shapes) or fails with a message, leaving the executor as it
   * was (it runs again). */
  int ni = wnn_model_num_inputs(m), dynamic = 0;
  int64_t dims[8][WNN_MAX_DIMS];
  wnn_input_shape shapes[8];
  for (int i = 0; i < ni && i < 8; i++) {
    wnn_tensor_info info;
    if (wnn_model_input_info(m, i, &info) != WNN_OK) wnn_fuzz_die("input_info(%d) failed", i);
    for (int d = 0; d < info.ndim; d++) {
      wnn_dim_info dim;
      dims[i][d] = info.shape[d];
      if (info.shape[d] != WNN_DIM_DYNAMIC || wnn_model_input_dim(m, i, d, &dim) != WNN_OK) continue;
      int64_t size = dim.default_size + (dim.multiple > 1 ? dim.multiple : 1);
      dims[i][d] = dim.max_size && size > dim.max_size ? dim.default_size : size;
      dynamic = 1;
    }
    shapes[i] = (wnn_input_shape){i, info.ndim, dims[i]};
  }
  if (dynamic && ni <= 8) {
    st = wnn_executor_resize(ex, ni, shapes);
    if (st != WNN_OK && !wnn_executor_errmsg(ex)[0])
      wnn_fuzz_die("wnn_executor_resize failed (%s) without a message", wnn_status_str(st));
    run_executor(m, ex);
  }
  wnn_executor_destroy(ex);
}

wnn_status wnn_fuzz_load_and_run(const void *data, size_t size, unsigned flags) {
  wnn_load_options opt;
  memset(&opt, 0, sizeof opt);
  opt.flags = flags;
  opt.kernels = WNN_KERNELS_AUTO;
  opt.allocator = &wnn_fuzz_allocator;
  wnn_model *m = NULL;
  wnn_status st = wnn_model_load(data, size, &opt, &m);
  if (verbose())
    fprintf(stderr, "wnn fuzz: load: %s%s%s\n", wnn_status_str(st), st ? ": " : "",
            st ? wnn_last_error() : "");
  if (st != WNN_OK) {
    if (m) wnn_fuzz_die("wnn_model_load failed (%s) but set its out-parameter", wnn_status_str(st));
    if (!wnn_last_error()[0])
      wnn_fuzz_die("wnn_model_load failed (%s) without a message", wnn_status_str(st));
    if (outstanding)
      wnn_fuzz_die("wnn_model_load failed (%s) and left %zu bytes allocated", wnn_status_str(st),
                   outstanding);
    return st;
  }
  if (!m) wnn_fuzz_die("wnn_model_load succeeded without a model");

  /* The queries a host makes after loading. */
  const char *meta = wnn_model_metadata(m);
  if (!meta) wnn_fuzz_die("wnn_model_metadata returned NULL");
  while (*meta && (unsigned char)*meta <= 32) meta++; /* what cJSON skips */
  if (*meta != '{' && !wnn_fuzz_avoid("metadata"))
    wnn_fuzz_die("metadata does not start with a JSON object");
  wnn_tensor_info info;
  for (int i = 0; i < wnn_model_num_inputs(m); i++) {
    if (wnn_model_input_info(m, i, &info) != WNN_OK) wnn_fuzz_die("input_info(%d) failed", i);
    check_info(m, &info, "input", i);
    int back = -1;
    if (wnn_model_input_index(m, info.name, &back) != WNN_OK || back != i)
      wnn_fuzz_die("input %d (%s) is found at index %d", i, info.name, back);
  }
  for (int i = 0; i < wnn_model_num_outputs(m); i++) {
    if (wnn_model_output_info(m, i, &info) != WNN_OK) wnn_fuzz_die("output_info(%d) failed", i);
    check_info(m, &info, "output", i);
  }
  for (int i = 0; i < wnn_model_num_params(m); i++)
    if (wnn_model_param_info(m, i, &info) != WNN_OK) wnn_fuzz_die("param_info(%d) failed", i);

  if (wnn_model_arena_bytes(m) <= WNN_FUZZ_RUN_ARENA_MAX) run_once(m);
  else if (verbose())
    fprintf(stderr, "wnn fuzz: not run: a %zu-byte arena\n", wnn_model_arena_bytes(m));
  wnn_model_free(m);
  if (outstanding) wnn_fuzz_die("%zu bytes still allocated after wnn_model_free", outstanding);
  return WNN_OK;
}
