/* Relu, clamp and sigmoid variants vs naive loops, out of place and in place,
 * with NaN, infinities and signed zeros. Relu and clamp are exact; sigmoid
 * is compared with a double-precision 1 / (1 + exp(-x)) at rtol 2e-6 (a few
 * ulps of expf plus one division). */
#include <math.h>
#include <string.h>

#include "kernel_util.h"

enum { RELU, CLAMP, SIGMOID };
static const size_t SIZES[] = {0, 1, 3, 4, 5, 8, 17, 1001};

static float naive(int op, float x, const wnn_f32_unary_params *p) {
  if (isnan(x)) return x;
  if (op == RELU) return x < 0 ? 0.0f : x;
  if (op == CLAMP) return x < p->min ? p->min : (x > p->max ? p->max : x);
  return (float)(1.0 / (1.0 + exp(-(double)x)));
}

static int same(float got, float want, float rtol) {
  if (isnan(want)) return isnan(got);
  if (got == want) return 1; /* also infinities */
  return fabsf(got - want) <= rtol * fabsf(want) + 1e-30f;
}

static int check(const char *name, wnn_f32_vunary_ukernel *fn, int op) {
  const wnn_f32_unary_params p = {-0.5f, 0.75f};
  const float rtol = op == SIGMOID ? 2e-6f : 0.0f;
  int ok = 1;
  for (size_t s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++) {
    const size_t n = SIZES[s];
    float *x = rand_floats(n + 4), *y = rand_floats(n + 4);
    for (size_t i = 0; i < n; i++) x[i] *= 20.0f;
    const float specials[6] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 100.0f};
    for (size_t i = 0; i < n && i < 6; i++) x[(i * 7) % n] = specials[i];
    float *want = malloc((n + 1) * sizeof(float));
    for (size_t i = 0; i < n; i++) want[i] = naive(op, x[i], &p);
    fn(n, x, y, &p);
    for (size_t i = 0; i < n; i++) ok = same(y[i], want[i], rtol) && ok;
    fn(n, x, x, &p);
    for (size_t i = 0; i < n; i++) ok = same(x[i], want[i], rtol) && ok;
    if (!ok) printf("  %s n=%zu\n", name, n);
    free(x), free(y), free(want);
  }
  return ok;
}

TEST(variants) {
#define WNN_F32_VUNARY(name, isa, op) WNN_IF_ISA(isa, CHECK(check(#name, name, op));)
#include "kernels/kernels.inc"
}

int main(void) {
  RUN(variants);
  return test_summary();
}
