/*
 * MatMulNBits (com.microsoft semantics; docs/quantization.md, "Weight-only
 * 4-bit"): Y = A * dequant(B)^T (+ bias), B block-quantized along K with a
 * float scale and an optional zero point per block:
 *   dequant(B)[n][k] = (code(n, k) - zp(n, k / block_size)) * scale(n, k / block_size)
 * A float32 [..., K]; B uint8 [N, ceil(K / block_size), block_size * bits / 8],
 * codes packed low bits first; scales float32 with N * n_blocks elements;
 * zero_points uint8 packed the same way (ceil(n_blocks * bits / 8) bytes per
 * row), or absent (2^(bits - 1)); g_idx not supported; bias float32 [N].
 * accuracy_level is accepted and ignored: wnn computes in float32.
 *
 * Run: columns of Y in panels of PANEL; each panel's rows of B are
 * dequantized into the scratch (the 4-bit kernel, or a plain loop for 2 and
 * 8 bits) and multiplied by the float GEMM, B read transposed (one to three
 * rows of A) or transposed first (more). The GEMM sums
 * over k in increasing order from 0 and then adds the bias, as the reference
 * does, so the result is the reference's to the bit.
 */
#include <math.h>
#include <string.h>

#include "ops/quant_internal.h"

/* Columns of Y per panel; from ROWS_FROM rows of A on, the panel is
 * transposed ([K][PANEL]) for the GEMM's row-major kernels, faster than its
 * transposed-B ones once a panel serves several rows. */
enum { PANEL = 16, ROWS_FROM = 4 };

WNN_PARAMS_FIT(wnn_matmulnbits_params);

static const char OP[] = "MatMulNBits";

static wnn_status expect_numel(wnn_prepare_ctx *ctx, int i, const char *name, int64_t want) {
  const wnn_tdesc *t = &ctx->inputs[i];
  const int64_t got = wnn_shape_numel(t->ndim, t->dims);
  if (got != want)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input %d (%s) has %lld elements, expected %lld",
                       OP, i, name, (long long)got, (long long)want);
  return WNN_OK;
}

wnn_status wnn_matmulnbits_prepare(wnn_prepare_ctx *ctx) {
  wnn_matmulnbits_params *p = ctx->params;
  const wnn_tdesc *a = &ctx->inputs[0], *b = &ctx->inputs[1];
  int64_t k, n, bits, bs, level;
  wnn_status st;
  if ((st = wnn_attr_int(ctx, "K", -1, &k)) || (st = wnn_attr_int(ctx, "N", -1, &n)) ||
      (st = wnn_attr_int(ctx, "bits", 4, &bits)) ||
      (st = wnn_attr_int(ctx, "block_size", -1, &bs)) ||
      (st = wnn_attr_int(ctx, "accuracy_level", 0, &level)))
    return st;
  if (k < 1 || n < 1 || k > INT32_MAX || n > INT32_MAX)
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: K = %lld and N = %lld must be given and in [1, %d]", OP, (long long)k,
                       (long long)n, INT32_MAX);
  if (bits != 2 && bits != 4 && bits != 8)
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED, "%s: bits = %lld; wnn supports 2, 4 and 8", OP,
                       (long long)bits);
  if (bs < 16 || bs > (1 << 20) || (bs & (bs - 1)))
    return wnn_op_fail(ctx, WNN_ERR_BAD_ATTRIBUTE,
                       "%s: block_size = %lld must be a power of 2 of at least 16", OP,
                       (long long)bs);
  if (ctx->num_inputs > 4 && wnn_has_input(ctx, 4))
    return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                       "%s: input 4 (g_idx, an act-order permutation of K) is not supported", OP);
  if ((st = wnn_expect_dtype(ctx, OP, 0, "A", WNN_DTYPE_F32)) ||
      (st = wnn_expect_dtype(ctx, OP, 1, "B", WNN_DTYPE_U8)) ||
      (st = wnn_expect_dtype(ctx, OP, 2, "scales", WNN_DTYPE_F32)))
    return st;
  if (a->ndim < 1 || a->dims[a->ndim - 1] != k)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE, "%s: input 0 (A) has %d dims, the last %lld; K is %lld",
                       OP, a->ndim, a->ndim ? (long long)a->dims[a->ndim - 1] : 0LL, (long long)k);
  const int64_t n_blocks = (k + bs - 1) / bs, blob = bs * bits / 8;
  if (b->ndim != 3 || b->dims[0] != n || b->dims[1] != n_blocks || b->dims[2] != blob)
    return wnn_op_fail(ctx, WNN_ERR_SHAPE,
                       "%s: input 1 (B) must be [N, ceil(K / block_size), block_size * bits / 8] "
                       "= [%lld, %lld, %lld]",
                       OP, (long long)n, (long long)n_blocks, (long long)blob);
  if ((st = expect_numel(ctx, 2, "scales", n * n_blocks))) return st;
  p->has_zp = ctx->num_inputs > 3 && wnn_has_input(ctx, 3);
  p->zp_row = (size_t)((n_blocks * bits + 7) / 8);
  if (p->has_zp) {
    if (ctx->inputs[3].dtype != WNN_DTYPE_U8)
      return wnn_op_fail(ctx, WNN_ERR_UNSUPPORTED,
                         "%s: input 3 (zero_points) is %s; wnn supports packed uint8 zero points",
                         OP, wnn_dtype_name(ctx->inputs[3].dtype));
    if ((st = expect_numel(ctx, 3, "zero_points", n * (int64_t)p->zp_row))) return st;
  }
  p->has_bias = ctx->num_inputs > 5 && wnn_has_input(ctx, 5);
  if (p->has_bias) {
    if ((st = wnn_expect_dtype(ctx, OP, 5, "bias", WNN_DTYPE_F32))) return st;
    if ((st = expect_numel(ctx, 5, "bias", n))) return st;
  }
  int64_t out[WNN_MAX_DIMS];
  memcpy(out, a->dims, sizeof(int64_t) * (size_t)a->ndim);
  out[a->ndim - 1] = n;
  if ((st = wnn_set_output(ctx, OP, 0, WNN_DTYPE_F32, a->ndim, out))) return st;
  p->k = (size_t)k, p->n = (size_t)n, p->m = (size_t)(wnn_shape_numel(a->ndim, a->dims) / k);
  p->bits = (int)bits, p->block_size = (size_t)bs, p->n_blocks = (size_t)n_blocks;
  p->blob = (size_t)blob;
  /* A panel of rows of B, and for several rows of A its transpose too. */
  const uint64_t panel = (uint64_t)(n < PANEL ? n : PANEL) * (uint64_t)k * sizeof(float);
  if (panel > SIZE_MAX / 4)
    return wnn_op_fail(ctx, WNN_ERR_LIMIT, "%s: K = %lld is too large", OP, (long long)k);
  ctx->scratch_bytes = (size_t)(p->m >= ROWS_FROM ? 2 * panel : panel);
  p->gemm = wnn_select_f32_gemm(ctx->kernels);
  p->dequant4 = wnn_select_q4_f32_dequant(ctx->kernels);
  return WNN_OK;
}

/* Zero point of block blk of a row (zp: the row's packed bytes, or NULL). */
static int nbits_zp(const uint8_t *zp, size_t blk, int bits) {
  if (!zp) return 1 << (bits - 1);
  const size_t bit = blk * (size_t)bits;
  return (zp[bit / 8] >> (bit % 8)) & ((1 << bits) - 1);
}

void wnn_matmulnbits_dequant_row(int bits, size_t k, size_t block_size, const uint8_t *codes,
                                 const float *scales, const uint8_t *zp, float *out) {
  const size_t per_block = block_size * (size_t)bits / 8;
  for (size_t i = 0; i < k; i++) {
    const size_t blk = i / block_size, bit = (i % block_size) * (size_t)bits;
    const int c = (codes[blk * per_block + bit / 8] >> (bit % 8)) & ((1 << bits) - 1);
    out[i] = (float)(c - nbits_zp(zp, blk, bits)) * scales[blk];
  }
}

wnn_status wnn_matmulnbits_run(const wnn_run_ctx *ctx) {
  const wnn_matmulnbits_params *p = ctx->params;
  const float *a = ctx->inputs[0].data, *scales = ctx->inputs[2].data;
  const uint8_t *b = ctx->inputs[1].data;
  const uint8_t *zp = p->has_zp ? ctx->inputs[3].data : NULL;
  const float *bias = p->has_bias ? ctx->inputs[5].data : NULL;
  float *y = ctx->outputs[0].data, *panel = ctx->scratch;
  const size_t row_bytes = p->n_blocks * p->blob;
  /* The bias: Y starts as it, and the GEMM adds it (beta = 1) after the sum. */
  if (bias)
    for (size_t i = 0; i < p->m; i++) memcpy(y + i * p->n, bias, p->n * sizeof(float));
  const wnn_f32_gemm_params gp = {1.0f, bias ? 1.0f : 0.0f, -INFINITY, INFINITY};
  for (size_t n0 = 0; n0 < p->n; n0 += PANEL) {
    const size_t nb = p->n - n0 < PANEL ? p->n - n0 : PANEL;
    for (size_t j = 0; j < nb; j++) {
      const size_t row = n0 + j;
      const uint8_t *rzp = zp ? zp + row * p->zp_row : NULL;
      if (p->bits == 4)
        p->dequant4(p->k, p->block_size, b + row * row_bytes, scales + row * p->n_blocks, rzp,
                    panel + j * p->k);
      else
        wnn_matmulnbits_dequant_row(p->bits, p->k, p->block_size, b + row * row_bytes,
                                    scales + row * p->n_blocks, rzp, panel + j * p->k);
    }
    if (p->m < ROWS_FROM) {
      wnn_f32_gemm(&p->gemm, p->m, nb, p->k, a, p->k, 1, panel, 1, p->k, NULL, y + n0, p->n, &gp);
      continue;
    }
    float *t = panel + PANEL * p->k;
    for (size_t kk = 0; kk < p->k; kk++)
      for (size_t j = 0; j < nb; j++) t[kk * PANEL + j] = panel[j * p->k + kk];
    wnn_f32_gemm(&p->gemm, p->m, nb, p->k, a, p->k, 1, t, PANEL, 1, NULL, y + n0, p->n, &gp);
  }
  return WNN_OK;
}

WNN_OP_DEFINE(matmulnbits, "MatMulNBits", 0, 3, 6, 1, 1,
              WNN_ATTRS("K", "N", "bits", "block_size", "accuracy_level"));
