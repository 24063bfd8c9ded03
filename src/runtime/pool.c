/* Intra-op threads (pool.h): pthreads, one mutex and two condition
 * variables; a job is published with a new generation number, each worker
 * runs its range and counts itself out, and the caller, having run range 0,
 * waits for the count to reach zero. Waiting spins first (WNN_SPINS reads of
 * the counter, some tens of microseconds), then sleeps on the condition
 * variable: a run splits node after node, and a worker that went to sleep
 * between two of them costs a wake-up each time (tens of microseconds more
 * in wasm). The generation and the count are atomics (sequentially
 * consistent), so that a waiter checks them under the mutex before it sleeps
 * and whoever changes them takes the mutex to wake it: no wake-up is lost.
 * The atomics order every worker's writes before the caller's return. */
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
#include <stdatomic.h>

/* Reads of a job counter before a thread sleeps on it. */
#define WNN_SPINS 200000

/* The range `part` of `parts` over [0, n): sizes differ by at most one. */
static void range_of(size_t n, size_t parts, size_t part, size_t *begin, size_t *end) {
  const size_t q = n / parts, r = n % parts;
  *begin = part * q + (part < r ? part : r);
  *end = *begin + q + (part < r);
}

struct wnn_pool {
  wnn_allocator alloc;
  int threads; /* asked for */
  int active;  /* the caller and the workers running this pool's jobs now */
#ifndef __EMSCRIPTEN__
  pthread_t *workers; /* threads - 1 */
#endif
  struct worker_arg {
    wnn_pool *pool;
    size_t index;        /* 1 .. threads - 1: the range it runs */
    unsigned long first; /* the generation before its first job */
  } *args;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  atomic_ulong generation; /* a new job */
  atomic_int pending;      /* workers still on the current job */
  atomic_int stop;         /* workers leave the pool */
  int exited;              /* workers that left (under mu) */
  wnn_parallel_fn *fn;
  void *ctx;
  size_t n, parts;
};

static _Thread_local wnn_pool *current;

/* A worker's life in one pool: each new job's range, until stop. */
static void serve_pool(struct worker_arg *w) {
  wnn_pool *p = w->pool;
  unsigned long seen = w->first;
  for (;;) {
    for (int i = 0; i < WNN_SPINS && atomic_load(&p->generation) == seen && !atomic_load(&p->stop); i++) {
    }
    if (atomic_load(&p->generation) == seen && !atomic_load(&p->stop)) {
      pthread_mutex_lock(&p->mu);
      while (atomic_load(&p->generation) == seen && !atomic_load(&p->stop))
        pthread_cond_wait(&p->go, &p->mu);
      pthread_mutex_unlock(&p->mu);
    }
    if (atomic_load(&p->stop)) break;
    seen = atomic_load(&p->generation);
    wnn_parallel_fn *fn = p->fn;
    void *ctx = p->ctx;
    const size_t n = p->n, parts = p->parts;
    if (w->index < parts) {
      size_t begin, end;
      range_of(n, parts, w->index, &begin, &end);
      if (begin < end) fn(ctx, begin, end);
    }
    if (atomic_fetch_sub(&p->pending, 1) == 1) { /* the last: wake the caller if it sleeps */
      pthread_mutex_lock(&p->mu);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mu);
    }
  }
  pthread_mutex_lock(&p->mu);
  p->exited++;
  pthread_cond_signal(&p->done);
  pthread_mutex_unlock(&p->mu);
}

/* Tells the pool's workers to leave and waits until they have. */
static void stop_workers(wnn_pool *p) {
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->stop, 1);
  pthread_cond_broadcast(&p->go);
  while (p->exited < p->active - 1) pthread_cond_wait(&p->done, &p->mu);
  atomic_store(&p->stop, 0);
  p->exited = 0;
  pthread_mutex_unlock(&p->mu);
}

#ifdef __EMSCRIPTEN__
/* The threaded web module (dist/wnn-mt.wasm): JavaScript starts the worker
 * threads (Web Workers or worker_threads on the same shared memory), each of
 * which calls wnn_pool_serve and parks. A pool owns no thread: the first
 * split of a run claims up to threads - 1 parked workers and the end of the
 * run gives them back, so idle executors hold none and several executors
 * share the workers JavaScript started. A run that finds fewer parked
 * workers than it asks for uses those it finds; any count gives the same
 * bits. */
static struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int serving;                             /* threads in wnn_pool_serve */
  int idle;                                /* of those, claimed by no pool */
  atomic_int queued;                       /* claims not yet taken up */
  struct worker_arg *queue[WNN_MAX_THREADS]; /* idle <= WNN_MAX_THREADS */
} park = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, {0}};

void wnn_pool_serve(void) {
  pthread_mutex_lock(&park.mu);
  if (park.serving >= WNN_MAX_THREADS) { /* more than any pool can use */
    pthread_mutex_unlock(&park.mu);
    return;
  }
  park.serving++;
  park.idle++;
  for (;;) {
    /* A run claims its workers again and again: spin before sleeping. */
    pthread_mutex_unlock(&park.mu);
    for (int i = 0; i < WNN_SPINS && !atomic_load(&park.queued); i++) {
    }
    pthread_mutex_lock(&park.mu);
    while (!atomic_load(&park.queued)) pthread_cond_wait(&park.cv, &park.mu);
    const int q = atomic_load(&park.queued) - 1;
    struct worker_arg *w = park.queue[q];
    atomic_store(&park.queued, q);
    pthread_mutex_unlock(&park.mu);
    serve_pool(w);
    pthread_mutex_lock(&park.mu);
    park.idle++;
  }
}

int wnn_pool_serving(void) {
  pthread_mutex_lock(&park.mu);
  const int n = park.serving;
  pthread_mutex_unlock(&park.mu);
  return n;
}

static void claim(wnn_pool *p) {
  pthread_mutex_lock(&park.mu);
  int k = p->threads - 1;
  if (k > park.idle) k = park.idle;
  park.idle -= k;
  for (int i = 0; i < k; i++) {
    p->args[i] = (struct worker_arg){p, (size_t)i + 1, atomic_load(&p->generation)};
    const int q = atomic_load(&park.queued);
    park.queue[q] = &p->args[i];
    atomic_store(&park.queued, q + 1);
  }
  if (k) pthread_cond_broadcast(&park.cv);
  pthread_mutex_unlock(&park.mu);
  p->active = 1 + k;
}

void wnn_pool_run_end(wnn_pool *p) {
  if (!p || p->active < 2) return;
  stop_workers(p);
  p->active = 1;
}

static wnn_status start_workers(wnn_pool *p) {
  p->active = 1;
  return WNN_OK;
}
#else
static void *worker(void *arg) {
  serve_pool(arg);
  return NULL;
}

static void join_workers(wnn_pool *p, int started) {
  p->active = started + 1;
  stop_workers(p);
  for (int i = 0; i < started; i++) pthread_join(p->workers[i], NULL);
}

static wnn_status start_workers(wnn_pool *p) {
  for (int i = 0; i < p->threads - 1; i++) {
    p->args[i] = (struct worker_arg){p, (size_t)i + 1, 0};
    const int err = pthread_create(&p->workers[i], NULL, worker, &p->args[i]);
    if (err) {
      join_workers(p, i);
      return wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY,
                        "starting thread %d of %d failed (pthread_create error %d)", i + 2,
                        p->threads, err);
    }
  }
  p->active = p->threads;
  return WNN_OK;
}
#endif

static void release(wnn_pool *p) {
  const wnn_allocator a = p->alloc;
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->go);
  pthread_mutex_destroy(&p->mu);
  wnn_free(&a, p->args, (size_t)p->threads * sizeof *p->args, 16);
#ifndef __EMSCRIPTEN__
  wnn_free(&a, p->workers, (size_t)p->threads * sizeof *p->workers, 16);
#endif
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
  p->args = wnn_calloc(a, (size_t)threads, sizeof *p->args, 16);
  int ok = p->args != NULL;
#ifndef __EMSCRIPTEN__
  p->workers = wnn_calloc(a, (size_t)threads, sizeof *p->workers, 16);
  ok = ok && p->workers;
#endif
  int sync = 0;
  if (ok) {
    sync = !pthread_mutex_init(&p->mu, NULL);
    sync = sync && !pthread_cond_init(&p->go, NULL);
    sync = sync && !pthread_cond_init(&p->done, NULL);
  }
  if (!sync) {
    wnn_free(a, p->args, (size_t)threads * sizeof *p->args, 16);
#ifndef __EMSCRIPTEN__
    wnn_free(a, p->workers, (size_t)threads * sizeof *p->workers, 16);
#endif
    wnn_free(a, p, sizeof *p, 16);
    return wnn_seterr(NULL, 0, WNN_ERR_OUT_OF_MEMORY, "out of memory for a thread pool");
  }
  const wnn_status st = start_workers(p);
  if (st) {
    release(p);
    return st;
  }
  *out = p;
  return WNN_OK;
}

void wnn_pool_free(wnn_pool *p) {
  if (!p) return;
#ifdef __EMSCRIPTEN__
  wnn_pool_run_end(p);
#else
  join_workers(p, p->threads - 1);
#endif
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
#ifdef __EMSCRIPTEN__
  if (p->active < 2) claim(p);
#endif
  if (parts > (size_t)p->active) parts = (size_t)p->active;
  if (parts < 2) {
    fn(ctx, 0, n);
    return;
  }
  /* Spinning workers see the new generation at once; sleeping ones are
   * woken (a worker checks the generation under the mutex before it sleeps). */
  p->fn = fn, p->ctx = ctx, p->n = n, p->parts = parts;
  atomic_store(&p->pending, p->active - 1);
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add(&p->generation, 1);
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  size_t begin, end;
  range_of(n, parts, 0, &begin, &end);
  current = NULL; /* a loop inside fn runs on this thread alone: the pool is busy */
  fn(ctx, begin, end);
  current = p;
  for (int i = 0; i < WNN_SPINS && atomic_load(&p->pending); i++) {
  }
  if (atomic_load(&p->pending)) {
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->pending)) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
  }
}
#endif
