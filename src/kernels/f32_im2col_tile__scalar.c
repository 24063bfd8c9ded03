/* im2col over a range of output pixels (wnn_f32_im2col_tile_ukernel): one row
 * of the K x np panel per (channel, ky, kx) tap, np consecutive output pixels
 * from p0 per row, walked as runs along output rows. */
#include "kernels/kernels.h"

/* Fills one row of the panel: the input pixels tap (ky, kx) of plane x sees
 * for output pixels p0 .. p0 + np - 1. */
static void tile_row(const float *x, float *row, size_t p0, size_t np, size_t ky, size_t kx,
                     const wnn_window2d *w) {
  size_t oy = p0 / w->out_w, ox = p0 % w->out_w;
  for (size_t j = 0; j < np; oy++, ox = 0) {
    const size_t len = w->out_w - ox < np - j ? w->out_w - ox : np - j;
    float *out = row + j;
    j += len;
    /* iy = oy * stride_h + ky * dil_h - pad_t, computed without going negative. */
    const size_t iy_pad = oy * w->stride_h + ky * w->dil_h;
    if (iy_pad < w->pad_t || iy_pad - w->pad_t >= w->in_h) {
      for (size_t i = 0; i < len; i++) out[i] = 0.0f;
      continue;
    }
    const float *in = x + (iy_pad - w->pad_t) * w->in_w;
    size_t ix_pad = ox * w->stride_w + kx * w->dil_w;
    for (size_t i = 0; i < len; i++, ix_pad += w->stride_w) {
      const bool inside = ix_pad >= w->pad_l && ix_pad - w->pad_l < w->in_w;
      out[i] = inside ? in[ix_pad - w->pad_l] : 0.0f;
    }
  }
}

void wnn_f32_im2col_tile__scalar(size_t channels, const float *x, size_t p0, size_t np,
                                 float *col, const wnn_window2d *win) {
  const size_t plane = win->in_h * win->in_w;
  float *row = col;
  for (size_t c = 0; c < channels; c++)
    for (size_t ky = 0; ky < win->k_h; ky++)
      for (size_t kx = 0; kx < win->k_w; kx++, row += np)
        tile_row(x + c * plane, row, p0, np, ky, kx, win);
}
