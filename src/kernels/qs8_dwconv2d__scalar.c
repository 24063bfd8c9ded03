/* Depthwise convolution of one uint8/int8 plane with int8 weights, output by
 * output with every bounds check (kernels/q8.h): the reference the SIMD128
 * kernel is held to. */
#include "kernels/kernels.h"
#include "kernels/q8.h"

void wnn_qs8_dwconv2d__scalar(const void *x, const int8_t *w, int32_t bias, float scale, void *y,
                              const wnn_qs8_dwconv_params *params) {
  const wnn_window2d *g = &params->win;
  for (size_t oy = 0; oy < g->out_h; oy++)
    for (size_t ox = 0; ox < g->out_w; ox++)
      wnn_q8_dwconv_store(y, oy * g->out_w + ox, wnn_q8_dwconv_acc(x, w, bias, oy, ox, params),
                          scale, params);
}
