/*
 * The exact integer Winograd path of QLinearConv and ConvInteger: 3x3
 * kernel, strides 1, dilations 1, group 1, any pads, int8 weights with zero
 * point 0 (docs/quantization.md, docs/kernels.md "int8 Winograd").
 *
 * F(2x2, 3x3) computes each 2 x 2 block of outputs of a channel pair from
 * the 4 x 4 input window d (x minus its zero point, 0 in the padding) and
 * the 3 x 3 kernel g as
 *   Y = A^T [(G g G^T) . (B^T d B)] A
 * ('.' element by element), exactly, over the rationals. G has halves; with
 * 2G it is integer: U = (2G) g (2G)^T = 4 G g G^T, so
 *   A^T [U . V] A = 4 Y,   V = B^T d B,
 * and summed over the input channels, 4 times the direct convolution's sum
 * acc. Every step is a ring operation on integers, so int32 arithmetic that
 * wraps (modulo 2^32) gives 4 acc modulo 2^32. When |acc| < 2^29, 4 acc is
 * inside int32 and the wrapped value is 4 acc itself; an arithmetic shift by
 * 2 gives acc, bitwise the plain loop's sum, then the same bias add and
 * requantization. |x - x_zp| <= 255 and |w| <= 128, so
 *   |acc| <= 9 * C * 255 * 128 < 2^29   for C <= WINO_MAX_IN_C = 1827
 * input channels (1827 * 293760 = 536699520 < 536870912), whatever the data.
 * The operands of the products fit int16: |V| <= 4 * 255 (each row of B^T
 * has two entries +-1), |U| <= 9 * 128 (the rows of 2G sum to at most 3 in
 * magnitude), so the 16 products per tile (instead of 36) are
 * i32x4.dot_i16x8_s of int16 pairs with no widening in the inner loop.
 *
 * Per image, in blocks of `rows` tile rows: the input transform of every
 * channel pair (V: 16 planes [C/2][vs][2], K-pairs for the GEMM), then per
 * block of ocb output channels the 16 GEMMs M[xi] = U[xi] V[xi] and the
 * output transform, into y (ConvInteger) or an int32 block that the GEMM
 * path's requantization kernel turns into y. The weights are transformed
 * once per run into U (16 planes [M][C rounded up to even]): they need not
 * be constants, and prepare may not keep anything outside the params. A U
 * of more than U_MAX bytes (more than 2^19 kernels: 724 x 724 channels) keeps the
 * im2col path, whose scratch stays small.
 */
#include <string.h>

#include "ops/quant_internal.h"
#include "runtime/pool.h"

enum {
  WINO_MAX_IN_C = 1827,
  V_BUDGET = 32 * 1024,  /* bytes of one position of V (a block of tiles) */
  M_BUDGET = 512 * 1024, /* bytes of M for one block of output channels */
  U_MAX = 16 << 20,      /* bytes of U (all the weights) beyond which im2col is kept */
  MIN_OUT = 4,           /* smallest output plane side taken */
};

static size_t round_up(size_t a, size_t b) { return (a + b - 1) / b * b; }

/* A stride between positions of n elements of `size` bytes: an odd number of
 * 64-byte lines, so that the 16 planes a transform touches at once do not
 * fall in one cache set (as in src/ops/conv_winograd.c). */
static size_t position_stride(size_t n, size_t size) {
  size_t lines = (n * size + 63) / 64;
  if (lines % 2 == 0) lines++;
  return lines * 64 / size;
}

static bool piece(uint64_t *total, uint64_t bytes, size_t *offset) {
  *offset = (size_t)*total;
  *total += (bytes + 63) / 64 * 64;
  return *total <= (uint64_t)INT32_MAX;
}

size_t wnn_qconv_winograd_prepare(wnn_qconv_params *p, wnn_kernels kernels) {
  const wnn_window2d *w = &p->win;
  if (p->group != 1 || w->k_h != 3 || w->k_w != 3 || w->stride_h != 1 || w->stride_w != 1 ||
      w->dil_h != 1 || w->dil_w != 1 || p->in_c > WINO_MAX_IN_C || w->out_h < MIN_OUT ||
      w->out_w < MIN_OUT)
    return 0;
  const size_t tw = (w->out_w + 1) / 2, th = (w->out_h + 1) / 2, cin_p = round_up(p->in_c, 2);
  size_t rows = V_BUDGET / 2 / cin_p / tw;
  rows = rows < 1 ? 1 : rows > th ? th : rows;
  const size_t vs = round_up((rows - 1) * tw + round_up(tw, 8), 8);
  size_t ocb = M_BUDGET / (16 * 4 * vs) / 4 * 4;
  ocb = ocb < 4 ? 4 : ocb > p->out_c ? p->out_c : ocb;
  const size_t u_ps = position_stride(p->out_c * cin_p, 2);
  const size_t v_ps = position_stride(cin_p * vs, 2), m_ps = position_stride(ocb * vs, 4);
  const size_t ls = round_up(2 * round_up(tw, 8) + 2, 16);
  if (16 * (uint64_t)u_ps * 2 > U_MAX) return 0; /* 512 x 512 channels take 8 MiB */
  uint64_t total = 0;
  size_t s_u, s_v, s_m, s_lines, s_acc = 0, s_mult = 0;
  if (!piece(&total, 16 * (uint64_t)u_ps * 2, &s_u) ||
      !piece(&total, 16 * (uint64_t)v_ps * 2, &s_v) ||
      !piece(&total, 16 * (uint64_t)m_ps * 4, &s_m) || !piece(&total, 8 * (uint64_t)ls, &s_lines))
    return 0;
  if (p->qlinear && (!piece(&total, (uint64_t)ocb * 2 * rows * w->out_w * 4, &s_acc) ||
                     !piece(&total, (uint64_t)p->out_c * 4, &s_mult)))
    return 0;
  p->wino.tiles_h = th, p->wino.tiles_w = tw, p->wino.rows = rows, p->wino.vs = vs;
  p->wino.ocb = ocb, p->wino.cin_p = cin_p;
  p->wino.u_ps = u_ps, p->wino.v_ps = v_ps, p->wino.m_ps = m_ps, p->wino.ls = ls;
  p->wino.s_u = s_u, p->wino.s_v = s_v, p->wino.s_m = s_m, p->wino.s_lines = s_lines;
  p->wino.k = wnn_select_qs16_winograd(kernels);
  p->s_acc = s_acc, p->s_mult = s_mult;
  p->gemm = wnn_select_qs8_gemm(kernels);
  p->method = WNN_QCONV_WINOGRAD;
  return (size_t)total;
}

/* The 4 input rows of tile row ty for channels c and c + 1 (a channel past
 * the last, and rows in the padding, are the zero point) into the lines. */
static void fill_lines(const wnn_qconv_params *p, const uint8_t *x, size_t c, size_t ty,
                       uint8_t *lines, uint8_t zp) {
  const wnn_window2d *w = &p->win;
  const size_t ls = p->wino.ls, plane = w->in_h * w->in_w;
  memset(lines, zp, 8 * ls);
  for (size_t k = 0; k < 2 && c + k < p->in_c; k++)
    for (size_t r = 0; r < 4; r++) {
      const ptrdiff_t iy = (ptrdiff_t)(2 * ty + r) - (ptrdiff_t)w->pad_t;
      if (iy < 0 || iy >= (ptrdiff_t)w->in_h) continue;
      memcpy(lines + (4 * k + r) * ls + w->pad_l, x + (c + k) * plane + (size_t)iy * w->in_w,
             w->in_w);
    }
}

/* The parts of one run that write disjoint memory, as units for
 * wnn_parallel_for (the input transforms share the `lines` buffer and stay
 * on the calling thread): weight transforms by output channel, the GEMMs by
 * (position, row panel), output transforms by tile row, requantization by
 * channel. */
typedef struct qwino_job {
  const wnn_qconv_params *p;
  const int8_t *w;
  const int32_t *bias;
  const float *mult;
  const wnn_qs32_requant_params *rq;
  int16_t *u, *v;
  int32_t *mm, *dst;
  void *y;
  size_t panels, on, co0, tn8, rn, oy0, orows, dst_cs, n;
} qwino_job;

static void q_weights(void *ctx, size_t c0, size_t c1) {
  const qwino_job *j = ctx;
  const wnn_qconv_params *p = j->p;
  const size_t cin = p->in_c, cin_p = p->wino.cin_p;
  for (size_t co = c0; co < c1; co++) {
    p->wino.k.weight(cin, j->w + co * cin * 9, j->u + co * cin_p, p->wino.u_ps);
    if (cin < cin_p)
      for (size_t i = 0; i < 16; i++) j->u[i * p->wino.u_ps + co * cin_p + cin] = 0;
  }
}

static void q_gemms(void *ctx, size_t u0, size_t u1) {
  const qwino_job *j = ctx;
  const wnn_qconv_params *p = j->p;
  const size_t mr = p->wino.k.gemm_mr, cin_p = p->wino.cin_p, vs = p->wino.vs;
  for (size_t unit = u0; unit < u1; unit++) {
    const size_t i = unit / j->panels, o = unit % j->panels * mr;
    p->wino.k.gemm(j->on - o < mr ? j->on - o : mr, j->tn8, cin_p / 2,
                   j->u + i * p->wino.u_ps + (j->co0 + o) * cin_p, cin_p, j->v + i * p->wino.v_ps,
                   2 * vs, j->mm + i * p->wino.m_ps + o * vs, vs);
  }
}

static void q_outputs(void *ctx, size_t r0, size_t r1) {
  const qwino_job *j = ctx;
  const wnn_qconv_params *p = j->p;
  const size_t tw = p->wino.tiles_w, out_w = p->win.out_w;
  for (size_t r = r0; r < r1; r++) {
    const size_t oy = j->oy0 + 2 * r, rows = p->win.out_h - oy < 2 ? 1 : 2;
    p->wino.k.output(j->on, tw, out_w, rows, j->mm + r * tw, p->wino.m_ps, p->wino.vs,
                     j->bias ? j->bias + j->co0 : NULL, j->dst + 2 * r * out_w, out_w, j->dst_cs);
  }
}

static void q_requant(void *ctx, size_t c0, size_t c1) {
  const qwino_job *j = ctx;
  const wnn_qconv_params *p = j->p;
  const size_t out_w = p->win.out_w, out_plane = p->win.out_h * out_w, cout = p->out_c;
  for (size_t c = c0; c < c1; c++)
    p->gemm.requant(1, j->orows * out_w, j->dst + c * j->dst_cs, 0, j->mult + j->co0 + c,
                    (uint8_t *)j->y + (j->n * cout + j->co0 + c) * out_plane + j->oy0 * out_w, 0,
                    j->rq);
}

void wnn_qconv_winograd_run(const wnn_qconv_params *p, const uint8_t *x, const int8_t *w,
                            const int32_t *bias, void *y, char *scratch,
                            const wnn_q8_pack_params *pp, const float *mult,
                            const wnn_qs32_requant_params *rq) {
  const wnn_window2d *win = &p->win;
  const wnn_qs16_winograd_config *k = &p->wino.k;
  const size_t cin = p->in_c, cout = p->out_c, cin_p = p->wino.cin_p, pairs = cin_p / 2;
  const size_t tw = p->wino.tiles_w, vs = p->wino.vs, ocb = p->wino.ocb;
  const size_t v_ps = p->wino.v_ps;
  const size_t in_plane = win->in_h * win->in_w, out_w = win->out_w;
  const size_t out_plane = win->out_h * out_w, mr = k->gemm_mr;
  int16_t *u = (int16_t *)(scratch + p->wino.s_u), *v = (int16_t *)(scratch + p->wino.s_v);
  int32_t *mm = (int32_t *)(scratch + p->wino.s_m), *acc = (int32_t *)(scratch + p->s_acc);
  uint8_t *lines = (uint8_t *)(scratch + p->wino.s_lines);
  qwino_job job = {p, w, bias, mult, rq, u, v, mm, NULL, y, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  /* about 100 operations per 3x3 filter */
  wnn_parallel_for(cout, WNN_PARALLEL_MIN_MACS / (100 * cin) + 1, q_weights, &job);
  /* Tiles past a block's last are computed and never stored: set them once. */
  memset(v, 0, 16 * v_ps * sizeof *v);
  for (size_t n = 0; n < p->batch; n++) {
    const uint8_t *xn = x + n * cin * in_plane;
    for (size_t ty0 = 0; ty0 < p->wino.tiles_h; ty0 += p->wino.rows) {
      const size_t rn = p->wino.tiles_h - ty0 < p->wino.rows ? p->wino.tiles_h - ty0 : p->wino.rows;
      const size_t tn8 = round_up(rn * tw, 8), oy0 = 2 * ty0;
      const size_t orows = win->out_h - oy0 < 2 * rn ? win->out_h - oy0 : 2 * rn;
      for (size_t q = 0; q < pairs; q++)
        for (size_t r = 0; r < rn; r++) {
          fill_lines(p, xn, 2 * q, ty0 + r, lines, (uint8_t)pp->zero_point);
          k->input(tw, lines, p->wino.ls, v + q * 2 * vs + 2 * r * tw, v_ps, pp);
        }
      for (size_t co0 = 0; co0 < cout; co0 += ocb) {
        const size_t on = cout - co0 < ocb ? cout - co0 : ocb;
        /* ConvInteger writes y; QLinearConv an int32 block, requantized. */
        int32_t *dst = p->qlinear ? acc : (int32_t *)y + (n * cout + co0) * out_plane + oy0 * out_w;
        const size_t dst_cs = p->qlinear ? orows * out_w : out_plane;
        job.panels = (on + mr - 1) / mr, job.on = on, job.co0 = co0, job.tn8 = tn8, job.rn = rn;
        job.oy0 = oy0, job.orows = orows, job.dst = dst, job.dst_cs = dst_cs, job.n = n;
        /* Each GEMM unit is mr x tn8 x cin_p multiply-adds. */
        wnn_parallel_for(16 * job.panels, WNN_PARALLEL_MIN_MACS / (mr * tn8 * cin_p + 1) + 1,
                         q_gemms, &job);
        wnn_parallel_for(rn, WNN_PARALLEL_MIN_MACS / (on * tw * 64 + 1) + 1, q_outputs, &job);
        if (p->qlinear)
          wnn_parallel_for(on, WNN_PARALLEL_MIN_MACS / (orows * out_w * 8 + 1) + 1, q_requant, &job);
      }
    }
  }
}
