/* TVM-style time evaluation (see bench.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double wnn_bench_monotonic_ms(void *unused) {
  (void)unused;
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0.0;
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The next `number` after a repeat of `number` runs took duration_ms > 0,
 * short of min_repeat_ms: aim to reach it at the measured rate, and grow by at
 * least the golden ratio (TVM's rule). */
static int next_number(int number, double duration_ms, double min_repeat_ms) {
  double grown = number * 1.618;
  double aim = min_repeat_ms / (duration_ms / number) + 1.0;
  if (aim > grown) grown = aim;
  if (grown < number + 1.0) grown = number + 1.0;
  if (grown > WNN_BENCH_MAX_NUMBER) grown = WNN_BENCH_MAX_NUMBER;
  return (int)grown;
}

wnn_status wnn_bench_run(wnn_bench_fn fn, void *user, wnn_bench_clock clock, void *clock_user,
                         int number, int repeat, double min_repeat_ms, double *results_ms,
                         int *number_out) {
  if (!fn || !clock || !results_ms || number < 1 || repeat < 1 || !(min_repeat_ms >= 0.0))
    return WNN_ERR_INVALID_ARGUMENT;
  wnn_status st = fn(user); /* warm-up, discarded */
  if (st != WNN_OK) return st;
  for (int r = 0; r < repeat; r++) {
    double duration_ms = 0.0;
    int zero_times = 0;
    for (int attempt = 0;; attempt++) {
      /* As in TVM, a repeat that measured no time at all (a clock coarser
       * than the runs) is retried with the same number, at most
       * WNN_BENCH_ZERO_TIME_LIMIT times. */
      if (attempt > 0 && duration_ms > 0.0)
        number = next_number(number, duration_ms, min_repeat_ms);
      double start = clock(clock_user);
      for (int j = 0; j < number; j++) {
        st = fn(user);
        if (st != WNN_OK) return st;
      }
      duration_ms = clock(clock_user) - start;
      if (duration_ms <= 0.0) {
        duration_ms = 0.0;
        zero_times++;
      }
      if (duration_ms >= min_repeat_ms || zero_times >= WNN_BENCH_ZERO_TIME_LIMIT ||
          number >= WNN_BENCH_MAX_NUMBER)
        break;
    }
    results_ms[r] = duration_ms / number;
  }
  if (number_out) *number_out = number;
  return WNN_OK;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

wnn_status wnn_bench_stats_compute(const double *x, int n, wnn_bench_stats *out) {
  if (!x || n < 1 || !out) return WNN_ERR_INVALID_ARGUMENT;
  double *sorted = (double *)malloc(sizeof(double) * (size_t)n);
  if (!sorted) return WNN_ERR_OUT_OF_MEMORY;
  memcpy(sorted, x, sizeof(double) * (size_t)n);
  qsort(sorted, (size_t)n, sizeof(double), cmp_double);
  double sum = 0.0;
  for (int i = 0; i < n; i++) sum += x[i];
  double mean = sum / n, var = 0.0;
  for (int i = 0; i < n; i++) var += (x[i] - mean) * (x[i] - mean);
  out->mean = mean;
  out->std = sqrt(var / n);
  out->min = sorted[0];
  out->max = sorted[n - 1];
  out->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
  free(sorted);
  return WNN_OK;
}
