/* The memory planner on hand-written lifetimes: greedy placement, and the
 * check the loader applies to any plan. */
#include "runtime/plan.h"
#include "../test.h"

/* Asserts that no two co-live blocks overlap and all lie below total. */
static int plan_is_valid(const wnn_plan_block *b, int n, size_t total) {
  int a, c;
  return wnn_plan_check(b, n, total, &a, &c) == WNN_OK;
}

TEST(chain_reuses_memory) {
  /* x0 -> x1 -> x2 -> x3: each lives one step past its producer, so the
   * planner needs only two buffers in turn. */
  wnn_plan_block b[4] = {{100, 0, 1, 0}, {100, 1, 2, 0}, {100, 2, 3, 0}, {100, 3, 4, 0}};
  int scratch[8];
  size_t total = 0;
  CHECK_OK(wnn_plan_greedy(b, 4, 64, scratch, &total));
  CHECK(total == 256);
  CHECK(b[0].offset == b[2].offset);
  CHECK(b[1].offset == b[3].offset);
  CHECK(b[0].offset != b[1].offset);
  CHECK(plan_is_valid(b, 4, total));
}

TEST(all_live_stack_up) {
  wnn_plan_block b[3] = {{10, 0, 9, 0}, {200, 0, 9, 0}, {64, 0, 9, 0}};
  int scratch[6];
  size_t total = 0;
  CHECK_OK(wnn_plan_greedy(b, 3, 64, scratch, &total));
  CHECK(total == 64 + 256 + 64);
  CHECK(b[1].offset == 0); /* the largest goes first, at the bottom */
  for (int i = 0; i < 3; i++) CHECK(b[i].offset % 64 == 0);
  CHECK(plan_is_valid(b, 3, total));
}

TEST(small_block_fills_gap) {
  /* A(0..1, 128) and B(0..5, 128) are placed first; C(3..5, 64) is live with B
   * but not A, so it takes A's place below B. */
  wnn_plan_block b[3] = {{128, 0, 1, 0}, {128, 0, 5, 0}, {64, 3, 5, 0}};
  int scratch[6];
  size_t total = 0;
  CHECK_OK(wnn_plan_greedy(b, 3, 64, scratch, &total));
  CHECK(total == 256);
  CHECK(b[2].offset == b[0].offset);
  CHECK(plan_is_valid(b, 3, total));
}

TEST(zero_size_blocks_take_nothing) {
  wnn_plan_block b[2] = {{0, 0, 3, 0}, {32, 0, 3, 0}};
  int scratch[4];
  size_t total = 0;
  CHECK_OK(wnn_plan_greedy(b, 2, 16, scratch, &total));
  CHECK(total == 32);
}

TEST(random_lifetimes_are_valid) {
  /* Many random lifetimes: the greedy plan must always pass the check, and
   * never exceed the sum of the sizes. */
  unsigned seed = 12345;
  for (int round = 0; round < 200; round++) {
    wnn_plan_block b[40];
    int scratch[80];
    size_t sum = 0;
    int n = 1 + round % 40;
    for (int i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      int first = (int)(seed >> 16) % 30;
      seed = seed * 1103515245u + 12345u;
      int len = (int)(seed >> 16) % 8;
      seed = seed * 1103515245u + 12345u;
      size_t size = (seed >> 16) % 5000;
      b[i] = (wnn_plan_block){size, first, first + len, 0};
      sum += (size + 63) & ~(size_t)63;
    }
    size_t total = 0;
    CHECK_OK(wnn_plan_greedy(b, n, 64, scratch, &total));
    CHECK(total <= sum);
    CHECK(plan_is_valid(b, n, total));
  }
}

TEST(check_finds_overlap_of_live_blocks) {
  wnn_plan_block b[3] = {{100, 0, 2, 0}, {100, 3, 4, 0}, {100, 2, 3, 64}};
  int a = -2, c = -2;
  /* 0 and 1 share bytes but never live together: fine. 2 overlaps both in
   * bytes and in time. */
  CHECK_STATUS(wnn_plan_check(b, 3, 1000, &a, &c), WNN_ERR_BAD_PLAN);
  CHECK(a == 0 && c == 2);
  CHECK_OK(wnn_plan_check(b, 2, 1000, &a, &c));
}

TEST(check_finds_block_outside_arena) {
  wnn_plan_block b[2] = {{100, 0, 2, 0}, {100, 3, 4, 960}};
  int a = -2, c = -2;
  CHECK_STATUS(wnn_plan_check(b, 2, 1000, &a, &c), WNN_ERR_BAD_PLAN);
  CHECK(a == 1 && c == -1);
  /* Offsets near SIZE_MAX must not wrap around into the arena. */
  wnn_plan_block huge = {100, 0, 1, SIZE_MAX - 10};
  CHECK_STATUS(wnn_plan_check(&huge, 1, 1000, &a, &c), WNN_ERR_BAD_PLAN);
}

TEST(adjacent_lifetimes_may_share) {
  /* [0,1] and [2,3] do not intersect: the same bytes serve both. */
  wnn_plan_block b[2] = {{100, 0, 1, 0}, {100, 2, 3, 0}};
  int a, c;
  CHECK_OK(wnn_plan_check(b, 2, 100, &a, &c));
  /* [0,2] and [2,3] intersect at step 2: a node's output never shares its
   * input's bytes. */
  b[0].last = 2;
  CHECK_STATUS(wnn_plan_check(b, 2, 100, &a, &c), WNN_ERR_BAD_PLAN);
}

int main(void) {
  RUN(chain_reuses_memory);
  RUN(all_live_stack_up);
  RUN(small_block_fills_gap);
  RUN(zero_size_blocks_take_nothing);
  RUN(random_lifetimes_are_valid);
  RUN(check_finds_overlap_of_live_blocks);
  RUN(check_finds_block_outside_arena);
  RUN(adjacent_lifetimes_may_share);
  return test_summary();
}
