/*
 * The int8 convolution's im2col (kernels.h, wnn_q8_im2col_ukernel): pixels
 * [p0, p0 + np) of every window row r = (c * k_h + ky) * k_w + kx, as int16
 * K-pairs minus the zero point, 0 in the padding.
 */
#include "kernels/kernels.h"

void wnn_q8_im2col__scalar(size_t channels, const uint8_t *x, size_t p0, size_t np, int16_t *y,
                           const wnn_window2d *w, const wnn_q8_pack_params *p) {
  const size_t taps = w->k_h * w->k_w, k = channels * taps;
  const size_t plane = w->in_h * w->in_w;
  for (size_t r = 0; r < k; r++) {
    const size_t c = r / taps, ky = r % taps / w->k_w, kx = r % w->k_w;
    const uint8_t *xc = x + c * plane;
    int16_t *yr = y + (r / 2) * 2 * np + r % 2;
    for (size_t j = 0; j < np; j++) {
      const size_t pix = p0 + j, oy = pix / w->out_w, ox = pix % w->out_w;
      const size_t iy = oy * w->stride_h + ky * w->dil_h, ix = ox * w->stride_w + kx * w->dil_w;
      int16_t v = 0;
      if (iy >= w->pad_t && iy - w->pad_t < w->in_h && ix >= w->pad_l && ix - w->pad_l < w->in_w) {
        const size_t i = (iy - w->pad_t) * w->in_w + (ix - w->pad_l);
        v = (int16_t)((p->s8 ? (int32_t)(int8_t)xc[i] : (int32_t)xc[i]) - p->zero_point);
      }
      yr[2 * j] = v;
    }
  }
  if (k & 1)
    for (size_t j = 0; j < np; j++) y[(k / 2) * 2 * np + 2 * j + 1] = 0;
}
