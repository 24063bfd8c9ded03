/*
 * Intra-op threads (issue 13; docs/threads.md): a pool of worker threads an
 * executor owns (wnn_executor_set_threads), and the parallel-for the kernel
 * drivers split their work with. The executor makes its pool the calling
 * thread's current one for the length of a run; wnn_parallel_for splits
 * [0, n) into one contiguous range per thread of the current pool, or runs
 * it all on the calling thread when there is none (a worker, a run of an
 * executor with one thread, a build without threads: the wasm modules).
 * Callers split by output, so any thread count gives the same bits.
 */
#ifndef WNN_RUNTIME_POOL_H
#define WNN_RUNTIME_POOL_H

#include <stddef.h>

#include "wnn.h"

typedef struct wnn_pool wnn_pool;

/* The fewest multiply-adds worth a thread of their own in the GEMM drivers
 * (waking a worker costs some microseconds). */
#define WNN_PARALLEL_MIN_MACS ((size_t)1 << 17)

/* Element-wise work splits in chunks of this many elements: a multiple of
 * every kernel's vector width and unroll, so that each element goes through
 * the same code path as in one call over the whole (same bits). A thread
 * takes at least wnn_ew_min_chunks(ops per element) chunks. */
#define WNN_EW_CHUNK ((size_t)16384)
#define wnn_ew_min_chunks(ops) (WNN_PARALLEL_MIN_MACS / (WNN_EW_CHUNK * (size_t)(ops)) + 1)

/* The most threads an executor may use. */
#define WNN_MAX_THREADS 64

/* A pool running work on `threads` threads (the caller's and threads - 1
 * workers, started now). WNN_ERR_UNSUPPORTED in a build without threads,
 * WNN_ERR_OUT_OF_MEMORY (or the system's refusal to start a thread) with
 * nothing left running. */
wnn_status wnn_pool_create(const wnn_allocator *a, int threads, wnn_pool **out);
/* Stops and joins the workers. NULL is a no-op. */
void wnn_pool_free(wnn_pool *pool);
int wnn_pool_threads(const wnn_pool *pool);

/* The calling thread's current pool while an executor runs (NULL: none);
 * wnn_pool_enter returns the previous one for wnn_pool_leave. */
/* fn(ctx, begin, end) over [0, n) split into contiguous ranges, at most one
 * per thread of the current pool, and returns when all are done. min_units:
 * the fewest units worth a thread of their own (a thread gets at least that
 * many, so small loops stay on the calling thread). */
typedef void wnn_parallel_fn(void *ctx, size_t begin, size_t end);
#if defined(WNN_THREADS) && defined(__EMSCRIPTEN__)
/* dist/wnn-mt.wasm: a thread JavaScript started parks here for good, serving
 * the pools that claim it; wnn_pool_serving counts such threads. A pool
 * claims parked workers at the first split of a run and gives them back at
 * wnn_pool_run_end (the end of every run). */
void wnn_pool_serve(void);
int wnn_pool_serving(void);
void wnn_pool_run_end(wnn_pool *pool);
#else /* natively a pool keeps its own threads */
static inline void wnn_pool_run_end(wnn_pool *pool) { (void)pool; }
#endif
#ifdef WNN_THREADS
wnn_pool *wnn_pool_enter(wnn_pool *pool);
void wnn_pool_leave(wnn_pool *previous);
void wnn_parallel_for(size_t n, size_t min_units, wnn_parallel_fn *fn, void *ctx);
#else /* one thread: no pool is ever current */
static inline wnn_pool *wnn_pool_enter(wnn_pool *pool) {
  (void)pool;
  return NULL;
}
static inline void wnn_pool_leave(wnn_pool *previous) { (void)previous; }
static inline void wnn_parallel_for(size_t n, size_t min_units, wnn_parallel_fn *fn, void *ctx) {
  (void)min_units;
  if (n) fn(ctx, 0, n);
}
#endif

#endif /* WNN_RUNTIME_POOL_H */
