/*
 * Timing with the semantics of TVM's time_evaluator(number, repeat,
 * min_repeat_ms): one warm-up run that is discarded; then `repeat` repeats,
 * each timing `number` back-to-back runs and recording the mean time per run.
 * When min_repeat_ms > 0 and a repeat finishes sooner, `number` grows (to
 * max(min_repeat_ms / time_per_run + 1, number * 1.618), as TVM does) and the
 * repeat is timed again; the grown `number` carries over to later repeats.
 *
 * The clock and the function being timed are parameters, so the logic is
 * tested with a simulated clock (tests/unit/test_cli_bench.c).
 */
#ifndef WNN_CLI_BENCH_H
#define WNN_CLI_BENCH_H

#include "wnn.h"

/* The thing being timed: returns WNN_OK or a failure that stops the benchmark. */
typedef wnn_status (*wnn_bench_fn)(void *user);
/* A monotonic clock in milliseconds. */
typedef double (*wnn_bench_clock)(void *user);

/* Most runs one repeat may grow to. */
#define WNN_BENCH_MAX_NUMBER 1000000000
/* Attempts of one repeat that may measure exactly zero time (a clock coarser
 * than `number` runs) before the repeat gives up on min_repeat_ms and records
 * zero; `number` does not grow after such an attempt (TVM's
 * limit_zero_time_iterations). */
#define WNN_BENCH_ZERO_TIME_LIMIT 100

/* Runs the benchmark: results_ms[repeat] receives the mean milliseconds per
 * run of each repeat, *number_out the final `number`. Requires number >= 1,
 * repeat >= 1, min_repeat_ms >= 0 (WNN_ERR_INVALID_ARGUMENT otherwise).
 * Returns the first failure of fn, if any. */
wnn_status wnn_bench_run(wnn_bench_fn fn, void *user, wnn_bench_clock clock, void *clock_user,
                         int number, int repeat, double min_repeat_ms, double *results_ms,
                         int *number_out);

typedef struct wnn_bench_stats {
  double mean, median, std, min, max; /* std: population standard deviation (numpy's default) */
} wnn_bench_stats;

/* Statistics of x[n], n >= 1. The median of an even count is the mean of the
 * two middle values. WNN_ERR_OUT_OF_MEMORY or WNN_ERR_INVALID_ARGUMENT. */
wnn_status wnn_bench_stats_compute(const double *x, int n, wnn_bench_stats *out);

/* clock_gettime(CLOCK_MONOTONIC) in milliseconds (WASI provides it too). */
double wnn_bench_monotonic_ms(void *unused);

#endif /* WNN_CLI_BENCH_H */
