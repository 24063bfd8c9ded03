/* Intra-op threads (pool.h): pthreads, one mutex and two condition
 * variables; a job is published under the mutex with a new generation
 * number, each worker runs its range and counts itself out, and the caller,
 * having run range 0, waits for the count to reach zero. The mutex orders
 * every worker's writes before the caller's return. */
#include "runtime/pool.h"

#include "runtime/alloc.h"
#include "base/status.h"

#ifndef WNN_THREADS

wnn_status wnn_pool_create(const wnn_allocator *a, int threads, wnn_pool **out) {
  (void)a;
  *out = NULL;
  return wnn_seterr(NULL, 0, WNN_ERR_UNSUPPORTED,
                    "%d threads: this build of wnn has no threads (the wasm modules run on one)",
                    threads);
}
void wnn_pool_free(wnn_pool *pool) { (void)pool; }
int wnn_pool_threads(const wnn_pool *pool) {
  (void)pool;
  return 1;
}

#else
#include <pthread.h>

/* The range `part` of `parts` over [0, n): sizes differ by at most one. */
static void range_of(size_t n, size_t parts, size_t part, size_t *begin, size_t *end) {
  const size_t q = n / parts, r = n % parts;
  *begin = part * q + (part < r ? part : r);
  *end = *begin + q + (part < r);
}


struct wnn_pool {
  wnn_allocator alloc;
  int threads;
  pthread_t *workers; /* threads - 1 */
  struct worker_arg {
    wnn_pool *pool;
    size_t index; /* 1 .. threads - 1: the range it runs */
  } *args;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  unsigned long generation; /* a new job */
  int pending;              /* workers still on the current job */
  int stop;
  wnn_parallel_fn *fn;
  void *ctx;
  size_t n, parts;
};

static _Thread_local wnn_pool *current;

static void *worker(void *arg) {
  struct worker_arg *w = arg;
  wnn_pool *p = w->pool;
  unsigned long seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (p->generation == seen && !p->stop) pthread_cond_wait(&p->go, &p->mu);
    if (p->stop) break;
    seen = p->generation;
    wnn_parallel_fn *fn = p->fn;
    void *ctx = p->ctx;
    const size_t n = p->n, parts = p->parts;
    pthread_mutex_unlock(&p->mu);
    if (w->index < parts) {
      size_t begin, end;
      range_of(n, parts, w->index, &begin, &end);
      if (begin < end) fn(ctx, begin, end);
    }
    pthread_mutex_lock(&p->mu);
    if (--p->pending == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

static void stop_workers(wnn_pool *p, int started) {
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < started; i++) pthread_join(p->workers[i], NULL);
}

static void release(wnn_pool *p) {
  const wnn_allocator a = p->alloc;
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->go);
  pthread_mutex_destroy(&p->mu);
  wnn_free(&a, p->args, (size_t)p->threads * sizeof *p->args, 16);
  wnn_free(&a, p->workers, (size_t)p->threads * sizeof *p->workers, 16);
  wnn_free(&a, p, sizeof *p, 16);
}

wnn_status wnn_pool_create(const wnn_allocator *a, int threads, wnn_pool **out) {
  *out = NULL;
  if (threads < 1 || threads > WNN_MAX_THREADS)
    return wnn_seterr(NULL, 0, WNN_ERR_INVALID_ARGUMENT, "%d threads: expected 1 to %d", threads,
                      WNN_MAX_THREADS);
  wnn_pool *p = wnn_calloc(a, 1, sizeof *p, 16);
  if (!p) return wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY, "out of memory for a thread pool");
  p->alloc = *a;
  p->threads = threads;
  p->workers = wnn_calloc(a, (size_t)threads, sizeof *p->workers, 16);
  p->args = wnn_calloc(a, (size_t)threads, sizeof *p->args, 16);
  int sync = 0;
  if (p->workers && p->args) {
    sync = !pthread_mutex_init(&p->mu, NULL);
    sync = sync && !pthread_cond_init(&p->go, NULL);
    sync = sync && !pthread_cond_init(&p->done, NULL);
  }
  if (!sync) {
    wnn_free(a, p->args, (size_t)threads * sizeof *p->args, 16);
    wnn_free(a, p->workers, (size_t)threads * sizeof *p->workers, 16);
    wnn_free(a, p, sizeof *p, 16);
    return wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY, "out of memory for a thread pool");
  }
  for (int i = 0; i < threads - 1; i++) {
    p->args[i] = (struct worker_arg){p, (size_t)i + 1};
    const int err = pthread_create(&p->workers[i], NULL, worker, &p->args[i]);
    if (err) {
      stop_workers(p, i);
      release(p);
      return wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY,
                        "starting thread %d of %d failed (pthread_create error %d)", i + 2,
                        threads, err);
    }
  }
  *out = p;
  return WNN_OK;
}

void wnn_pool_free(wnn_pool *p) {
  if (!p) return;
  stop_workers(p, p->threads - 1);
  release(p);
}

int wnn_pool_threads(const wnn_pool *p) { return p ? p->threads : 1; }

wnn_pool *wnn_pool_enter(wnn_pool *pool) {
  wnn_pool *previous = current;
  current = pool;
  return previous;
}

void wnn_pool_leave(wnn_pool *previous) { current = previous; }

void wnn_parallel_for(size_t n, size_t min_units, wnn_parallel_fn *fn, void *ctx) {
  wnn_pool *p = current;
  size_t parts = n / (min_units ? min_units : 1);
  if (p && parts > (size_t)p->threads) parts = (size_t)p->threads;
  if (!p || parts < 2) {
    if (n) fn(ctx, 0, n);
    return;
  }
  pthread_mutex_lock(&p->mu);
  p->fn = fn, p->ctx = ctx, p->n = n, p->parts = parts;
  p->pending = p->threads - 1;
  p->generation++;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  size_t begin, end;
  range_of(n, parts, 0, &begin, &end);
  current = NULL; /* a loop inside fn runs on this thread alone: the pool is busy */
  fn(ctx, begin, end);
  current = p;
  pthread_mutex_lock(&p->mu);
  while (p->pending) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}
#endif
