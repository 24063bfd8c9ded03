/*
 * The Winograd convolution driver (src/ops/conv_winograd.h, docs/winograd.md).
 *
 * Layout of the scratch (floats; every region starts 64-byte aligned):
 *   U      P x ocb x in_c      transformed weights of one block of output channels
 *   V      P x in_c x tb       transformed inputs of one block of tb tiles
 *   M      P x ocb x tb        the products, before the output transform
 *   patch  in_c x alpha x 4 alpha   zero-padded windows of 4 tiles at an edge
 *   obuf   ocb x m x 4 m       4 output tiles at an edge, before they are cut
 * with P = alpha^2 positions. Tiles are numbered row-major over the
 * tiles_h x tiles_w grid of m x m output tiles; transforms take them 4 at a
 * time ("quads"). A quad of 4 real tiles in one tile row whose windows lie
 * inside the input reads x directly; others go through the patch (zeros for
 * the padding and for lanes past the last tile). Output quads likewise write y
 * directly or through obuf.
 *
 * Input transforms are redone for each block of output channels: that keeps
 * the scratch bounded (about 10 MiB at most), for about 7 % of the time of
 * the products with 512 input channels (blocks of 104 output channels; the
 * input transform's share falls as the block grows).
 */
#include "ops/conv_winograd.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/winograd.h"
#include "ops/op_internal.h"
#include "runtime/pool.h"

/* Budgets for the transformed weights of one block of output channels and
 * for the transformed inputs of one block of tiles. */
enum { U_BUDGET = 8u << 20, V_BUDGET = 2u << 20, TB_MIN = 16, TB_MAX = 64 };

typedef struct wino_kernels {
  wnn_f32_winograd_input_ukernel *input;
  wnn_f32_winograd_weight_ukernel *weight;
  wnn_f32_winograd_output_ukernel *output;
  wnn_x32_copy2d_ukernel *copy2d; /* the edge tiles' copies in and out */
} wino_kernels;

typedef struct wino_plan {
  size_t m, alpha, npos;         /* tile size, window size, alpha^2 */
  size_t tiles_h, tiles_w, ntiles;
  size_t tb, ocb;                /* tiles per block (a multiple of 8), channels per block */
  size_t u_ps, v_ps, m_ps;       /* strides between positions in U, V, M */
  size_t u, v, mm, patch, obuf;  /* region offsets in floats */
  size_t floats;                 /* total */
} wino_plan;

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
static size_t round_up(size_t a, size_t b) { return ceil_div(a, b) * b; }

/* A stride between positions, in floats, for n floats per position: a whole
 * number of 64-byte lines, and an odd number of them. The transforms read or
 * write all alpha^2 positions at once; at a stride of a multiple of 4 KiB
 * (256 channels x 16 tiles, ...) those 16 or 36 streams would all fall in the
 * same cache set, which made the weight transform 17x slower. */
static size_t position_stride(size_t n) {
  size_t lines = ceil_div(n, 16);
  if (lines % 2 == 0) lines++;
  return lines * 16;
}

/* Splits n into equal blocks of at most `most` (at least `least`), each a
 * multiple of `mult`, and at most `cap`. */
static size_t block_size(size_t n, size_t most, size_t least, size_t mult, size_t cap) {
  if (n == 0) return mult;
  if (most < least) most = least;
  const size_t blocks = ceil_div(n, most);
  size_t b = round_up(ceil_div(n, blocks), mult);
  return b < cap ? b : cap;
}

static wino_plan make_plan(const wnn_window2d *win, size_t in_c, size_t out_c, size_t m) {
  wino_plan p;
  p.m = m;
  p.alpha = m + 2;
  p.npos = p.alpha * p.alpha;
  p.tiles_h = ceil_div(win->out_h, m);
  p.tiles_w = ceil_div(win->out_w, m);
  p.ntiles = p.tiles_h * p.tiles_w;
  const size_t c = in_c ? in_c : 1;
  const size_t tb_most = V_BUDGET / (p.npos * c * sizeof(float)) / TB_MIN * TB_MIN;
  p.tb = block_size(p.ntiles, tb_most < TB_MAX ? tb_most : TB_MAX, TB_MIN, 8,
                    round_up(p.ntiles, 8));
  const size_t ocb_most = U_BUDGET / (p.npos * c * sizeof(float)) / 4 * 4;
  p.ocb = block_size(out_c, ocb_most, 4, 4, out_c);
  p.u_ps = position_stride(p.ocb * in_c);
  p.v_ps = position_stride(in_c * p.tb);
  p.m_ps = position_stride(p.ocb * p.tb);
  size_t at = 0;
  p.u = at, at += p.npos * p.u_ps;
  p.v = at, at += p.npos * p.v_ps;
  p.mm = at, at += p.npos * p.m_ps;
  p.patch = at, at += round_up(in_c * p.alpha * 4 * p.alpha, 16);
  p.obuf = at, at += round_up(p.ocb * m * 4 * m, 16);
  p.floats = at;
  return p;
}

static wino_kernels select_kernels(wnn_kernels kernels, size_t m) {
  wino_kernels k;
  k.copy2d = wnn_select_x32_copy2d(kernels);
#if defined(__wasm_simd128__)
  if (kernels == WNN_KERNELS_AUTO) {
    if (m == 4) {
      k.input = wnn_f32_winograd_f43_input__wasmsimd;
      k.weight = wnn_f32_winograd_f43_weight__wasmsimd;
      k.output = wnn_f32_winograd_f43_output__wasmsimd;
    } else {
      k.input = wnn_f32_winograd_f23_input__wasmsimd;
      k.weight = wnn_f32_winograd_f23_weight__wasmsimd;
      k.output = wnn_f32_winograd_f23_output__wasmsimd;
    }
    return k;
  }
#endif
  if (m == 4) {
    k.input = wnn_f32_winograd_f43_input__scalar;
    k.weight = wnn_f32_winograd_f43_weight__scalar;
    k.output = wnn_f32_winograd_f43_output__scalar;
  } else {
    k.input = wnn_f32_winograd_f23_input__scalar;
    k.weight = wnn_f32_winograd_f23_weight__scalar;
    k.output = wnn_f32_winograd_f23_output__scalar;
  }
  return k;
}

/* Thresholds measured with bench/kernels/bench_winograd.c in the SIMD128
 * build (docs/winograd.md): below 7x7 output planes, 16 input channels or 8
 * output channels, the transforms cost more than the multiplies they save. */
enum { MIN_PLANE = 7, MIN_IN_C = 16, MIN_OUT_C = 8 };

/* Work per pair of channels with tile size m, in units of one position of
 * one tile column of the GEMM: alpha^2 positions times the tiles rounded up
 * to the GEMM's blocks of 8 columns, plus the weight transform (about 2
 * columns' worth per position, fitted to the measurements). F(4x4, 3x3)
 * does 4x fewer multiplies than direct convolution and F(2x2, 3x3) 2.25x, but
 * on small planes F(4x4, 3x3) pads more tiles and has fewer to spread its
 * 36-position weight transform over: 7x7 to 10x10 planes go to F(2x2, 3x3),
 * 11x11 and up to F(4x4, 3x3). */
static size_t tile_cost(const wnn_window2d *win, size_t m) {
  const size_t alpha = m + 2, tiles = ceil_div(win->out_h, m) * ceil_div(win->out_w, m);
  return alpha * alpha * (round_up(tiles, 8) + 2);
}

size_t wnn_conv_winograd_tile(const wnn_window2d *win) {
  return tile_cost(win, 4) < tile_cost(win, 2) ? 4 : 2;
}

int wnn_conv_winograd_applies(const wnn_window2d *win, size_t in_c, size_t out_c) {
  if (win->k_h != 3 || win->k_w != 3 || win->stride_h != 1 || win->stride_w != 1 ||
      win->dil_h != 1 || win->dil_w != 1)
    return 0;
  return in_c >= MIN_IN_C && out_c >= MIN_OUT_C && win->out_h >= MIN_PLANE &&
         win->out_w >= MIN_PLANE;
}

size_t wnn_conv_winograd_scratch_bytes_tile(const wnn_window2d *win, size_t in_c, size_t out_c,
                                            size_t m) {
  return make_plan(win, in_c, out_c, m).floats * sizeof(float);
}

size_t wnn_conv_winograd_scratch_bytes(const wnn_window2d *win, size_t in_c, size_t out_c) {
  return wnn_conv_winograd_scratch_bytes_tile(win, in_c, out_c, wnn_conv_winograd_tile(win));
}

/* The input window of tile t starts at (row, col) of x, possibly negative. */
static void tile_origin(const wino_plan *p, const wnn_window2d *win, size_t t, ptrdiff_t *row,
                        ptrdiff_t *col) {
  *row = (ptrdiff_t)((t / p->tiles_w) * p->m) - (ptrdiff_t)win->pad_t;
  *col = (ptrdiff_t)((t % p->tiles_w) * p->m) - (ptrdiff_t)win->pad_l;
}

/* 1 when tiles t .. t + 3 exist and lie in one tile row. */
static int quad_in_row(const wino_plan *p, size_t t) {
  return t + 4 <= p->ntiles && t % p->tiles_w + 4 <= p->tiles_w;
}

/* Copies the alpha x alpha input windows of the up to 4 tiles t0 .. t0 + 3
 * (those < end) of channels [ch0, ch1) into the patch (each at its own
 * offset), lane l at column l * ts, zeros outside x; lanes past `end` are
 * zeros. */
static void fill_patch(const wino_plan *p, const wnn_window2d *win, wnn_x32_copy2d_ukernel *copy2d,
                       size_t ch0, size_t ch1, const float *x, size_t t0, size_t end, size_t ts,
                       float *patch) {
  const size_t a = p->alpha, rs = 4 * a, cs = a * rs;
  const ptrdiff_t ih = (ptrdiff_t)win->in_h, iw = (ptrdiff_t)win->in_w;
  const size_t plane = win->in_h * win->in_w;
  for (size_t l = 0; l < 4; l++) {
    if (t0 + l >= end) {
      for (size_t c = ch0; c < ch1; c++)
        for (size_t i = 0; i < a; i++)
          memset(patch + c * cs + i * rs + l * ts, 0, a * sizeof(float));
      continue;
    }
    ptrdiff_t r0, c0;
    tile_origin(p, win, t0 + l, &r0, &c0);
    /* Columns [j0, j1) of the window are inside x. */
    const ptrdiff_t j0 = c0 < 0 ? -c0 : 0;
    const ptrdiff_t j1 = c0 + (ptrdiff_t)a > iw ? iw - c0 : (ptrdiff_t)a;
    /* Rows [i0, i1) of the window are inside x: one 2-D copy per channel
     * (a memcpy per row of 4-6 floats cost more than the copying). */
    const ptrdiff_t i0 = r0 < 0 ? -r0 : 0;
    const ptrdiff_t i1 = r0 + (ptrdiff_t)a > ih ? ih - r0 : (ptrdiff_t)a;
    const int inside = i0 < i1 && j0 < j1;
    for (size_t c = ch0; c < ch1; c++) {
      float *dst = patch + c * cs + l * ts;
      for (ptrdiff_t i = 0; i < (ptrdiff_t)a; i++) {
        if (!inside || i < i0 || i >= i1) {
          memset(dst + i * rs, 0, a * sizeof(float));
          continue;
        }
        for (ptrdiff_t j = 0; j < j0; j++) dst[i * rs + j] = 0.0f;
        for (ptrdiff_t j = j1; j < (ptrdiff_t)a; j++) dst[i * rs + j] = 0.0f;
      }
      if (inside)
        copy2d((size_t)(i1 - i0), (size_t)(j1 - j0),
               (const uint32_t *)(x + c * plane + (r0 + i0) * iw + c0 + j0), (size_t)iw,
               (uint32_t *)(dst + i0 * rs + j0), rs);
    }
  }
}

/* The per-position GEMMs of one block of tiles as units for
 * wnn_parallel_for: each writes its own position of mm, so they split over
 * intra-op threads, a whole GEMM per unit (one alone is too small to split). */
typedef struct wino_gemms {
  const wnn_f32_gemm_config *gemm;
  const wnn_f32_gemm_params *gp;
  size_t on, tn8, in_c, tb, u_ps, v_ps, m_ps;
  const float *u, *v;
  float *mm;
} wino_gemms;

static void position_gemms(void *ctx, size_t p0, size_t p1) {
  const wino_gemms *j = ctx;
  for (size_t pos = p0; pos < p1; pos++)
    wnn_f32_gemm(j->gemm, j->on, j->tn8, j->in_c, j->u + pos * j->u_ps, j->in_c, 1,
                 j->v + pos * j->v_ps, j->tb, 1, NULL, j->mm + pos * j->m_ps, j->tb, j->gp);
}

/* The weight transforms of one block of output channels, by channel: each
 * writes its own rows of U (and transforms element by element), so ranges of
 * channels split over intra-op threads. */
typedef struct wino_weights {
  wnn_f32_winograd_weight_ukernel *weight;
  size_t in_c, u_ps;
  const float *w; /* the block's first channel */
  float *u;
} wino_weights;

static void weight_rows(void *ctx, size_t c0, size_t c1) {
  const wino_weights *j = ctx;
  j->weight(c1 - c0, j->in_c, j->w + c0 * j->in_c * 9, j->u + c0 * j->in_c, j->u_ps, j->in_c);
}

/* The input transforms of one block of tiles, by ranges of input channels:
 * each range writes its own rows of V (and of the patch), so they split over
 * intra-op threads with no scratch of their own; every element is computed
 * as in one pass, so the bits do not depend on the split. */
typedef struct wino_inputs {
  const wino_plan *p;
  const wnn_window2d *win;
  const wino_kernels *k;
  const float *x;
  float *v, *patch;
  size_t t0, tn, tn8;
} wino_inputs;

static void input_channels(void *ctx, size_t c0, size_t c1) {
  const wino_inputs *j = ctx;
  const wino_plan *p = j->p;
  const wnn_window2d *win = j->win;
  const size_t a = p->alpha, m = p->m, tb = p->tb, in_plane = win->in_h * win->in_w;
  const size_t patch_rs = 4 * a, patch_cs = a * patch_rs;
  const ptrdiff_t ih = (ptrdiff_t)win->in_h, iw = (ptrdiff_t)win->in_w;
  /* 4 tiles at a time. */
  for (size_t q = 0; q < j->tn8; q += 4) {
    const size_t t = j->t0 + q;
    const int row = quad_in_row(p, t) && q + 4 <= j->tn;
    ptrdiff_t r0, col0;
    tile_origin(p, win, t, &r0, &col0);
    float *vq = j->v + q + c0 * tb;
    if (row && r0 >= 0 && col0 >= 0 && r0 + (ptrdiff_t)a <= ih &&
        col0 + (ptrdiff_t)(3 * m + a) <= iw) {
      j->k->input(c1 - c0, j->x + c0 * in_plane + r0 * iw + col0, in_plane, win->in_w, m, vq,
                  p->v_ps, tb);
    } else {
      const size_t ts = row ? m : a;
      fill_patch(p, win, j->k->copy2d, c0, c1, j->x, t, j->t0 + j->tn, ts, j->patch);
      j->k->input(c1 - c0, j->patch + c0 * patch_cs, patch_cs, patch_rs, ts, vq, p->v_ps, tb);
    }
  }
}

/* The output transforms of one block of tiles, by ranges of output channels
 * (each its own rows of mm, obuf and y). */
typedef struct wino_outputs {
  const wino_plan *p;
  const wnn_window2d *win;
  const wino_kernels *k;
  const float *mm, *bias;
  float *y, *obuf;
  size_t t0, tn;
  float min, max;
} wino_outputs;

static void output_channels(void *ctx, size_t c0, size_t c1) {
  const wino_outputs *j = ctx;
  const wino_plan *p = j->p;
  const wnn_window2d *win = j->win;
  const size_t m = p->m, tb = p->tb, out_plane = win->out_h * win->out_w;
  const size_t obuf_rs = 4 * m, obuf_cs = m * obuf_rs;
  const float *bias = j->bias ? j->bias + c0 : NULL;
  float *y = j->y + c0 * out_plane, *obuf = j->obuf + c0 * obuf_cs;
  /* 4 tiles at a time. */
  for (size_t q = 0; q < j->tn; q += 4) {
    const size_t t = j->t0 + q;
    const float *mq = j->mm + q + c0 * tb;
    const size_t oy = (t / p->tiles_w) * m, ox = (t % p->tiles_w) * m;
    if (quad_in_row(p, t) && q + 4 <= j->tn && oy + m <= win->out_h &&
        ox + 4 * m <= win->out_w) {
      j->k->output(c1 - c0, mq, p->m_ps, tb, bias, y + oy * win->out_w + ox, out_plane,
                   win->out_w, m, j->min, j->max);
      continue;
    }
    j->k->output(c1 - c0, mq, p->m_ps, tb, bias, obuf, obuf_cs, obuf_rs, m, j->min, j->max);
    for (size_t l = 0; l < 4 && q + l < j->tn; l++) {
      const size_t ty = (t + l) / p->tiles_w * m, tx = (t + l) % p->tiles_w * m;
      const size_t rows = win->out_h - ty < m ? win->out_h - ty : m;
      const size_t cols = win->out_w - tx < m ? win->out_w - tx : m;
      for (size_t c = 0; c < c1 - c0; c++)
        j->k->copy2d(rows, cols, (const uint32_t *)(obuf + c * obuf_cs + l * m), obuf_rs,
                     (uint32_t *)(y + c * out_plane + ty * win->out_w + tx), win->out_w);
    }
  }
}

void wnn_conv_winograd_run_tile(const wnn_window2d *win, size_t in_c, size_t out_c,
                                const float *x, const float *w, const float *bias, float *y,
                                float min, float max, void *scratch, wnn_kernels kernels,
                                size_t m) {
  const wino_plan p = make_plan(win, in_c, out_c, m);
  const wino_kernels k = select_kernels(kernels, m);
  const wnn_f32_gemm_config gemm = wnn_select_f32_gemm(kernels);
  const wnn_f32_gemm_params gp = {.alpha = 1.0f, .beta = 0.0f, .min = -INFINITY, .max = INFINITY};
  float *const s = scratch;
  float *const u = s + p.u, *const v = s + p.v, *const mm = s + p.mm;
  float *const patch = s + p.patch, *const obuf = s + p.obuf;
  const size_t tb = p.tb, out_plane = win->out_h * win->out_w;
  const size_t u_ps = p.u_ps, v_ps = p.v_ps, m_ps = p.m_ps;

  for (size_t o0 = 0; o0 < out_c; o0 += p.ocb) {
    const size_t on = out_c - o0 < p.ocb ? out_c - o0 : p.ocb;
    const wino_weights wj = {k.weight, in_c, u_ps, w + o0 * in_c * 9, u};
    /* about 100 operations per filter: a thread takes 2^17 / 100 of them */
    wnn_parallel_for(on, WNN_PARALLEL_MIN_MACS / (100 * in_c) + 1, weight_rows, (void *)&wj);
    const float *bias_o = bias ? bias + o0 : NULL;
    float *y_o = y + o0 * out_plane;

    for (size_t t0 = 0; t0 < p.ntiles; t0 += tb) {
      const size_t tn = p.ntiles - t0 < tb ? p.ntiles - t0 : tb;
      /* The GEMMs take whole blocks of 8 tiles: the SIMD128 GEMM's ragged
       * right edge is several times slower per column than its 4 x 8 tiles
       * (a partial load per step), so tiles past tn are zeros, computed and
       * never stored. */
      const size_t tn8 = round_up(tn, 8);
      /* Input transforms; about 16 alpha^2 operations per channel of a tile. */
      const size_t tile_ops = 16 * p.alpha * p.alpha * tn8 + 1;
      const wino_inputs ij = {&p, win, &k, x, v, patch, t0, tn, tn8};
      wnn_parallel_for(in_c, WNN_PARALLEL_MIN_MACS / tile_ops + 1, input_channels, (void *)&ij);
      /* The products, one GEMM per position. */
      const wino_gemms gj = {&gemm, &gp, on, tn8, in_c, tb, u_ps, v_ps, m_ps, u, v, mm};
      wnn_parallel_for(p.npos, WNN_PARALLEL_MIN_MACS / (on * tn8 * in_c + 1) + 1, position_gemms,
                       (void *)&gj);
      /* Output transforms, as many operations per channel of a tile. */
      const wino_outputs oj = {&p, win, &k, mm, bias_o, y_o, obuf, t0, tn, min, max};
      wnn_parallel_for(on, WNN_PARALLEL_MIN_MACS / tile_ops + 1, output_channels, (void *)&oj);
    }
  }
}

void wnn_conv_winograd_run(const wnn_window2d *win, size_t in_c, size_t out_c, const float *x,
                           const float *w, const float *bias, float *y, float min, float max,
                           void *scratch, wnn_kernels kernels) {
  wnn_conv_winograd_run_tile(win, in_c, out_c, x, w, bias, y, min, max, scratch, kernels,
                             wnn_conv_winograd_tile(win));
}
