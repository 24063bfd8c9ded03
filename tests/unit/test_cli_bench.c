/*
 * `wnn bench`'s timing logic (src/cli/bench.c) against a simulated clock: the
 * warm-up run is discarded, each repeat reports the mean per run, `number`
 * grows the way TVM's time_evaluator grows it until a repeat lasts
 * min_repeat_ms and keeps its value for later repeats, a clock that measures
 * nothing stops after TVM's zero-time limit, and the statistics.
 */
#include "cli/bench.h"

#include "../test.h"

/* A simulated machine: each run costs cost_ms (the first run costs first_ms),
 * and the clock reads the simulated time, rounded down to resolution_ms when
 * that is non-zero, or stands still when frozen. */
typedef struct sim {
  double now_ms;
  double cost_ms, first_ms;
  double resolution_ms;
  int frozen;
  int calls;
  int fail_at; /* the call that fails (1-based), 0 for never */
} sim;

static wnn_status sim_run(void *user) {
  sim *s = (sim *)user;
  s->calls++;
  if (s->fail_at && s->calls == s->fail_at) return WNN_ERR_OUT_OF_RANGE;
  s->now_ms += s->calls == 1 && s->first_ms > 0 ? s->first_ms : s->cost_ms;
  return WNN_OK;
}

static double sim_clock(void *user) {
  sim *s = (sim *)user;
  if (s->frozen) return 5.0;
  if (s->resolution_ms > 0) return floor(s->now_ms / s->resolution_ms) * s->resolution_ms;
  return s->now_ms;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * (1 + fabs(b)); }

TEST(warm_up_is_discarded_and_number_fixed) {
  sim s = {0};
  s.cost_ms = 0.5;
  s.first_ms = 100.0; /* a slow first run must not show in the results */
  double results[3];
  int number = 0;
  CHECK_OK(wnn_bench_run(sim_run, &s, sim_clock, &s, 4, 3, 0.0, results, &number));
  CHECK(s.calls == 1 + 4 * 3);
  CHECK(number == 4);
  for (int r = 0; r < 3; r++) CHECK(close_to(results[r], 0.5));
}

/* 0.1 ms per run, min_repeat_ms 10: the first attempt of 1 run is too short,
 * so number becomes max(10 / 0.1 + 1, 1 * 1.618) = 101, which lasts 10.1 ms;
 * the second repeat starts at 101 and needs no retry. */
TEST(number_grows_to_reach_min_repeat_ms) {
  sim s = {0};
  s.cost_ms = 0.1;
  double results[2];
  int number = 0;
  CHECK_OK(wnn_bench_run(sim_run, &s, sim_clock, &s, 1, 2, 10.0, results, &number));
  CHECK(number == 101);
  CHECK(s.calls == 1 + 1 + 101 + 101);
  CHECK(close_to(results[0], 0.1) && close_to(results[1], 0.1));
}

/* When the measured rate would overshoot little, growth is at least the golden
 * ratio: 3 runs of 1 ms against min 3.5 ms give max(3.5 / 1 + 1, 4.854) = 4. */
TEST(number_grows_by_at_least_the_golden_ratio) {
  sim s = {0};
  s.cost_ms = 1.0;
  double results[1];
  int number = 0;
  CHECK_OK(wnn_bench_run(sim_run, &s, sim_clock, &s, 3, 1, 3.5, results, &number));
  CHECK(number == 4);
  CHECK(s.calls == 1 + 3 + 4);
  CHECK(close_to(results[0], 1.0));
}

/* A coarse clock (1 ms ticks) with 0.001 ms runs: attempts that measure zero
 * keep number; once a tick is seen, number grows to reach min_repeat_ms. */
TEST(coarse_clock_still_reaches_min_repeat_ms) {
  sim s = {0};
  s.cost_ms = 0.001;
  s.resolution_ms = 1.0;
  double results[1];
  int number = 0;
  CHECK_OK(wnn_bench_run(sim_run, &s, sim_clock, &s, 100, 1, 5.0, results, &number));
  CHECK(number > 100);
  CHECK(results[0] > 0.0005 && results[0] < 0.002);
}

/* A clock that never moves: each repeat gives up after the zero-time limit
 * with the same number, and reports 0 rather than looping forever. */
TEST(frozen_clock_stops_after_zero_time_limit) {
  sim s = {0};
  s.cost_ms = 1.0;
  s.frozen = 1;
  double results[2] = {-1, -1};
  int number = 0;
  CHECK_OK(wnn_bench_run(sim_run, &s, sim_clock, &s, 2, 2, 5.0, results, &number));
  CHECK(number == 2);
  CHECK(s.calls == 1 + 2 * 2 * WNN_BENCH_ZERO_TIME_LIMIT);
  CHECK(results[0] == 0.0 && results[1] == 0.0);
}

TEST(failures_stop_the_benchmark) {
  sim s = {0};
  s.cost_ms = 1.0;
  s.fail_at = 1;
  double results[2];
  int number = -7;
  CHECK_STATUS(wnn_bench_run(sim_run, &s, sim_clock, &s, 3, 2, 0.0, results, &number),
               WNN_ERR_OUT_OF_RANGE);
  CHECK(s.calls == 1 && number == -7);
  sim t = {0};
  t.cost_ms = 1.0;
  t.fail_at = 5;
  CHECK_STATUS(wnn_bench_run(sim_run, &t, sim_clock, &t, 3, 2, 0.0, results, &number),
               WNN_ERR_OUT_OF_RANGE);
  CHECK(t.calls == 5);
}

TEST(rejects_bad_arguments) {
  sim s = {0};
  double results[1];
  CHECK_STATUS(wnn_bench_run(sim_run, &s, sim_clock, &s, 0, 1, 0.0, results, NULL),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_bench_run(sim_run, &s, sim_clock, &s, 1, 0, 0.0, results, NULL),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_bench_run(sim_run, &s, sim_clock, &s, 1, 1, -1.0, results, NULL),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_bench_run(sim_run, &s, sim_clock, &s, 1, 1, NAN, results, NULL),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wnn_bench_run(NULL, &s, sim_clock, &s, 1, 1, 0.0, results, NULL),
               WNN_ERR_INVALID_ARGUMENT);
  CHECK(s.calls == 0);
}

TEST(statistics) {
  wnn_bench_stats st;
  const double odd[3] = {3.0, 1.0, 2.0};
  CHECK_OK(wnn_bench_stats_compute(odd, 3, &st));
  CHECK(close_to(st.mean, 2.0) && close_to(st.median, 2.0));
  CHECK(close_to(st.std, sqrt(2.0 / 3.0)));
  CHECK(st.min == 1.0 && st.max == 3.0);
  const double even[4] = {4.0, 1.0, 3.0, 2.0};
  CHECK_OK(wnn_bench_stats_compute(even, 4, &st));
  CHECK(close_to(st.median, 2.5) && close_to(st.mean, 2.5));
  CHECK(close_to(st.std, sqrt(1.25)));
  const double one[1] = {0.25};
  CHECK_OK(wnn_bench_stats_compute(one, 1, &st));
  CHECK(st.mean == 0.25 && st.median == 0.25 && st.std == 0.0 && st.min == 0.25 &&
        st.max == 0.25);
  CHECK_STATUS(wnn_bench_stats_compute(one, 0, &st), WNN_ERR_INVALID_ARGUMENT);
}

TEST(monotonic_clock_moves_forward) {
  double a = wnn_bench_monotonic_ms(NULL);
  volatile double sink = 0;
  for (int i = 0; i < 2000000; i++) sink += i * 0.5;
  double b = wnn_bench_monotonic_ms(NULL);
  CHECK(a > 0.0);
  CHECK(b >= a);
  (void)sink;
}

int main(void) {
  RUN(warm_up_is_discarded_and_number_fixed);
  RUN(number_grows_to_reach_min_repeat_ms);
  RUN(number_grows_by_at_least_the_golden_ratio);
  RUN(coarse_clock_still_reaches_min_repeat_ms);
  RUN(frozen_clock_stops_after_zero_time_limit);
  RUN(failures_stop_the_benchmark);
  RUN(rejects_bad_arguments);
  RUN(statistics);
  RUN(monotonic_clock_moves_forward);
  return test_summary();
}
