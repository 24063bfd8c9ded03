/* The quantized element-wise ops (src/ops/quant_ew.c): hand-computed
 * examples, run vs reference (src/ref/ref_quant_ew.c) bitwise on awkward
 * sizes, rejections. */
#include <stdint.h>

#include "op_harness.h"

TEST(qlookup) {
  /* Entry i is 255 - i: uint8 x indexes by value, int8 x by its byte. */
  uint8_t table[256];
  for (int i = 0; i < 256; i++) table[i] = (uint8_t)(255 - i);
  uint8_t xu[5] = {0, 1, 127, 128, 255};
  int8_t xs[5] = {0, 1, 127, -128, -1};
  const uint8_t want[5] = {255, 254, 128, 127, 0};
  wnn_tdesc in[2] = {TD(WNN_DTYPE_U8, 5), TD(WNN_DTYPE_U8, 256)};
  void *data[2] = {xu, table};
  CHECK(op_check_data("QLookup", NULL, 2, in, data, 1, want, 5, 0, 0));
  in[0] = TD(WNN_DTYPE_I8, 5);
  data[0] = xs;
  CHECK(op_check_data("QLookup", NULL, 2, in, data, 1, want, 5, 0, 0));
  /* Random bytes, every dtype pair, awkward sizes (empty included). */
  const wnn_dtype dts[2] = {WNN_DTYPE_U8, WNN_DTYPE_I8};
  const int64_t sizes[5] = {0, 1, 15, 17, 1000};
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++)
      for (int k = 0; k < 5; k++) {
        wnn_tdesc r[2] = {TD(dts[a], 1, sizes[k], 1), TD(dts[b], 256)};
        CHECK(op_check("QLookup", NULL, 2, r, 0, 0));
        op_case c;
        CHECK_OK(op_prepare(&c, "QLookup", NULL, 2, r, 1));
        CHECK(c.outputs[0].dtype == dts[b] && c.outputs[0].ndim == 3 && c.outputs[0].dims[1] == sizes[k]);
      }
}

TEST(qlookup_rejects) {
  wnn_tdesc in[2] = {TD(WNN_DTYPE_F32, 4), TD(WNN_DTYPE_U8, 256)};
  CHECK(op_fails("QLookup", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 0 (x) is float32"));
  in[0] = TD(WNN_DTYPE_U8, 4);
  in[1] = TD(WNN_DTYPE_I32, 256);
  CHECK(op_fails("QLookup", NULL, 2, in, 1, WNN_ERR_DTYPE, "input 1 (table) is int32"));
  in[1] = TD(WNN_DTYPE_U8, 255);
  CHECK(op_fails("QLookup", NULL, 2, in, 1, WNN_ERR_SHAPE, "expected [256]"));
  in[1] = TD(WNN_DTYPE_U8, 1, 256);
  CHECK(op_fails("QLookup", NULL, 2, in, 1, WNN_ERR_SHAPE, "expected [256]"));
}

/* Random bytes for A and B, given scales and zero points. */
static int qbinary_case(const char *op, const char *attrs, wnn_tdesc ad, wnn_tdesc bd, wnn_dtype cdt,
                        bool zps, const void *want, size_t count, const void *a_in,
                        const void *b_in) {
  const size_t na = (size_t)wnn_shape_numel(ad.ndim, ad.dims), nb = (size_t)wnn_shape_numel(bd.ndim, bd.dims);
  uint8_t *a = malloc(na + 1), *b = malloc(nb + 1);
  for (size_t i = 0; i < na; i++) a[i] = a_in ? ((const uint8_t *)a_in)[i] : (uint8_t)lcg_next();
  for (size_t i = 0; i < nb; i++) b[i] = b_in ? ((const uint8_t *)b_in)[i] : (uint8_t)lcg_next();
  float as = 0.031f, bs = 0.047f, cs = op[7] == 'M' ? 0.37f : 0.061f;
  uint8_t azp = ad.dtype == WNN_DTYPE_I8 ? (uint8_t)-5 : 131, bzp = bd.dtype == WNN_DTYPE_I8 ? 9 : 120;
  uint8_t czp = cdt == WNN_DTYPE_I8 ? (uint8_t)-3 : 127;
  if (want) as = 0.5f, bs = 0.25f, cs = 1.0f, azp = 0, bzp = 0, czp = 10;
  wnn_tdesc in[8] = {ad, TD_SCALAR(WNN_DTYPE_F32), zps ? TD_SCALAR(ad.dtype) : TD_OMITTED,
                     bd, TD_SCALAR(WNN_DTYPE_F32), zps ? TD_SCALAR(bd.dtype) : TD_OMITTED,
                     TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(cdt)};
  void *data[8] = {a, &as, &azp, b, &bs, &bzp, &cs, &czp};
  const int ok = op_check_data(op, attrs, 8, in, data, 1, want, count, 0, 0);
  free(a);
  free(b);
  return ok;
}

TEST(qlinear_add_mul) {
  /* Hand-computed: scales 0.5, 0.25 -> 1, C zero point 10. */
  const uint8_t a[4] = {0, 3, 8, 200}, b[4] = {0, 6, 3, 255};
  const uint8_t add[4] = {10, 13, 15, 174}; /* 0 + 0, 1.5 + 1.5, 4 + 0.75, 100 + 63.75 */
  const uint8_t mul[4] = {10, 12, 13, 255}; /* 0, 2.25 -> 2, 3 -> 3, 6375 saturates */
  const uint8_t relu_a[4] = {10, 13, 15, 174};
  CHECK(qbinary_case("QLinearAdd", NULL, TD(WNN_DTYPE_U8, 4), TD(WNN_DTYPE_U8, 4), WNN_DTYPE_U8, true,
                     add, 4, a, b));
  CHECK(qbinary_case("QLinearMul", NULL, TD(WNN_DTYPE_U8, 4), TD(WNN_DTYPE_U8, 4), WNN_DTYPE_U8, true,
                     mul, 4, a, b));
  CHECK(qbinary_case("QLinearAdd", "{\"activation\":\"Relu\"}", TD(WNN_DTYPE_U8, 4),
                     TD(WNN_DTYPE_U8, 4), WNN_DTYPE_U8, true, relu_a, 4, a, b));
  /* Broadcasts (both directions, per channel, scalar, outer), runs longer
   * than a chunk, every dtype, with and without zero points and Relu. */
  static const int64_t shapes[][2][4] = {
      {{2, 3, 5, 7}, {2, 3, 5, 7}}, {{1, 8, 9, 11}, {1, 8, 1, 1}}, {{1, 8, 1, 1}, {1, 8, 9, 11}},
      {{1, 1, 3, 700}, {1, 1, 1, 1}}, {{1, 1, 3, 1}, {1, 1, 1, 4}},  {{1, 2, 1, 600}, {1, 1, 5, 600}},
      {{1, 1, 1, 1}, {1, 1, 1, 1}}};
  const wnn_dtype dts[2] = {WNN_DTYPE_U8, WNN_DTYPE_I8};
  for (int op = 0; op < 2; op++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      for (int v = 0; v < 4; v++) {
        const wnn_tdesc ad = td(dts[v & 1], 4, shapes[s][0]), bd = td(dts[(v >> 1) & 1], 4, shapes[s][1]);
        const char *attrs = v == 1 ? "{\"activation\":\"Relu\"}" : NULL;
        CHECK(qbinary_case(op ? "QLinearMul" : "QLinearAdd", attrs, ad, bd, dts[(v + s) & 1], v != 2,
                           NULL, 0, NULL, NULL));
      }
}

TEST(qlinear_add_mul_rejects) {
  wnn_tdesc in[8] = {TD(WNN_DTYPE_U8, 2, 3), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                     TD(WNN_DTYPE_U8, 3, 3), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                     TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8)};
  CHECK(op_fails("QLinearAdd", NULL, 8, in, 1, WNN_ERR_SHAPE, "do not broadcast"));
  in[3] = TD(WNN_DTYPE_U8, 2, 3);
  in[4] = TD(WNN_DTYPE_F32, 2);
  CHECK(op_fails("QLinearMul", NULL, 8, in, 1, WNN_ERR_SHAPE, "input 4 (B_scale) has shape [2]"));
  in[4] = TD_SCALAR(WNN_DTYPE_F32);
  in[5] = TD_SCALAR(WNN_DTYPE_I8);
  CHECK(op_fails("QLinearAdd", NULL, 8, in, 1, WNN_ERR_DTYPE, "input 5 (B_zero_point) is int8"));
  in[5] = TD_SCALAR(WNN_DTYPE_U8);
  in[0] = TD(WNN_DTYPE_F32, 2, 3);
  CHECK(op_fails("QLinearAdd", NULL, 8, in, 1, WNN_ERR_DTYPE, "input 0 (A) is float32"));
  in[0] = TD(WNN_DTYPE_U8, 2, 3);
  in[6] = TD_OMITTED;
  CHECK(op_fails("QLinearAdd", NULL, 8, in, 1, WNN_ERR_MALFORMED, "input 6 (C_scale) is required"));
  in[6] = TD_SCALAR(WNN_DTYPE_F32);
  CHECK(op_fails("QLinearAdd", "{\"activation\":\"Clip\"}", 8, in, 1, WNN_ERR_UNSUPPORTED,
                 "only Relu"));
}

TEST(qlinear_global_average_pool) {
  /* Hand-computed: x_scale 0.5, y_scale 1, y zero point 10; planes of 4. */
  const uint8_t x[8] = {0, 2, 4, 6, 10, 10, 10, 11};
  const float xs = 0.5f, ys = 1.0f;
  const uint8_t zero = 0, yzp = 10;
  wnn_tdesc in[5] = {TD(WNN_DTYPE_U8, 1, 2, 2, 2), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                     TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8)};
  void *data[5] = {(void *)x, (void *)&xs, (void *)&zero, (void *)&ys, (void *)&yzp};
  const uint8_t want[2] = {12, 15}; /* means 1.5 -> 2 (half to even), 5.125 -> 5 */
  CHECK(op_check_data("QLinearGlobalAveragePool", NULL, 5, in, data, 1, want, 2, 0, 0));
  /* Random: planes shorter and longer than 4, ragged, 1-D and 3-D spatial,
   * every dtype pair, with and without zero points. */
  static const int64_t shapes[][5] = {{1, 3, 1, 1, 0}, {2, 5, 3, 7, 0}, {1, 4, 17, 0, 0},
                                      {1, 2, 3, 4, 5}, {1, 8, 56, 56, 0}};
  const int nds[5] = {4, 4, 3, 5, 4};
  const wnn_dtype dts[2] = {WNN_DTYPE_U8, WNN_DTYPE_I8};
  for (int s = 0; s < 5; s++)
    for (int v = 0; v < 4; v++) {
      const wnn_dtype xd = dts[v & 1], yd = dts[v >> 1];
      float rx = 0.037f, ry = 0.011f;
      uint8_t xz = xd == WNN_DTYPE_I8 ? (uint8_t)-7 : 120, yz = yd == WNN_DTYPE_I8 ? 3 : 100;
      wnn_tdesc r[5] = {td(xd, nds[s], shapes[s]), TD_SCALAR(WNN_DTYPE_F32),
                        v == 3 ? TD_OMITTED : TD_SCALAR(xd), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(yd)};
      const size_t n = (size_t)wnn_shape_numel(r[0].ndim, r[0].dims);
      uint8_t *xb = malloc(n);
      for (size_t i = 0; i < n; i++) xb[i] = (uint8_t)lcg_next();
      void *d[5] = {xb, &rx, &xz, &ry, &yz};
      CHECK(op_check_data("QLinearGlobalAveragePool", NULL, 5, r, d, 1, NULL, 0, 0, 0));
      free(xb);
    }
  wnn_tdesc bad[5] = {TD(WNN_DTYPE_U8, 1, 2), TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8),
                      TD_SCALAR(WNN_DTYPE_F32), TD_SCALAR(WNN_DTYPE_U8)};
  CHECK(op_fails("QLinearGlobalAveragePool", NULL, 5, bad, 1, WNN_ERR_SHAPE, "at least 3"));
  bad[0] = TD(WNN_DTYPE_U8, 1, 2, 3, 3);
  CHECK(op_fails("QLinearGlobalAveragePool", "{\"channels_last\":1}", 5, bad, 1,
                 WNN_ERR_UNSUPPORTED, "channels_last = 1"));
  bad[3] = TD(WNN_DTYPE_F32, 2);
  CHECK(op_fails("QLinearGlobalAveragePool", NULL, 5, bad, 1, WNN_ERR_SHAPE, "input 3 (y_scale)"));
  bad[3] = TD_SCALAR(WNN_DTYPE_F32);
  bad[2] = TD_SCALAR(WNN_DTYPE_I8);
  CHECK(op_fails("QLinearGlobalAveragePool", NULL, 5, bad, 1, WNN_ERR_DTYPE, "x_zero_point"));
}

int main(void) {
  RUN(qlookup);
  RUN(qlookup_rejects);
  RUN(qlinear_add_mul);
  RUN(qlinear_add_mul_rejects);
  RUN(qlinear_global_average_pool);
  return test_summary();
}
