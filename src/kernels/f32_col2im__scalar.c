/* col2im, scalar: for each kernel tap, the rows of the col matrix added into
 * the output rows they land on; the valid output columns of a row are
 * computed once per tap and row. */
#include "kernels/kernels.h"

void wnn_f32_col2im__scalar(size_t channels, const float *col, float *y, const wnn_window2d *win) {
  const size_t grid = win->out_h * win->out_w, plane = win->in_h * win->in_w;
  for (size_t c = 0; c < channels; c++) {
    float *yc = y + c * plane;
    for (size_t ky = 0; ky < win->k_h; ky++)
      for (size_t kx = 0; kx < win->k_w; kx++) {
        const float *row = col + ((c * win->k_h + ky) * win->k_w + kx) * grid;
        const size_t dy = ky * win->dil_h, dx = kx * win->dil_w;
        /* Output column ox lands on ox * stride_w + dx - pad_l: valid for
         * ox in [ox_lo, ox_hi). */
        size_t ox_lo = 0, ox_hi = win->out_w;
        if (dx < win->pad_l) ox_lo = (win->pad_l - dx + win->stride_w - 1) / win->stride_w;
        if (dx < win->pad_l + win->in_w) {
          const size_t hi = (win->pad_l + win->in_w - dx + win->stride_w - 1) / win->stride_w;
          if (hi < ox_hi) ox_hi = hi;
        } else {
          ox_hi = 0;
        }
        for (size_t oy = 0; oy < win->out_h; oy++) {
          const size_t iy = oy * win->stride_h + dy;
          if (iy < win->pad_t || iy - win->pad_t >= win->in_h) continue;
          float *yrow = yc + (iy - win->pad_t) * win->in_w;
          const float *crow = row + oy * win->out_w;
          for (size_t ox = ox_lo; ox < ox_hi; ox++)
            yrow[ox * win->stride_w + dx - win->pad_l] += crow[ox];
        }
      }
  }
}
