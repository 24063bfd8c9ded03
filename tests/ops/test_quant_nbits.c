/* MatMulNBits (src/ops/quant_nbits.c): a hand-worked case, run against the
 * reference (src/ref/ref_quant_nbits.c) to the bit on random codes, scales,
 * zero points and activations for 2, 4 and 8 bits, block sizes 16 to 128,
 * K ending inside a block, N across panel edges, 1-D to 3-D A, with and
 * without zero points and bias, both kernel sets; and the rejections, each
 * naming what is wrong. */
#include <stdint.h>

#include "op_harness.h"

static char *attrs(char *buf, size_t cap, long k, long n, int bits, long bs) {
  snprintf(buf, cap, "{\"K\":%ld,\"N\":%ld,\"bits\":%d,\"block_size\":%ld}", k, n, bits, bs);
  return buf;
}

TEST(hand_worked) {
  /* K = 16, N = 2, one block of 16: row 0 holds codes 0..15, row 1 all 15.
   * A = ones: y0 = sum (c - 8) * 0.5 = -4; y1 = 16 * 7 * 0.25 = 28; plus bias. */
  uint8_t b[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
                   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  float a[16], scales[2] = {0.5f, 0.25f}, bias[2] = {1.0f, -2.0f};
  for (int i = 0; i < 16; i++) a[i] = 1.0f;
  wnn_tdesc in[6] = {TD(WNN_DTYPE_F32, 1, 16), TD(WNN_DTYPE_U8, 2, 1, 8), TD(WNN_DTYPE_F32, 2),
                     TD_OMITTED, TD_OMITTED, TD(WNN_DTYPE_F32, 2)};
  char at[128];
  void *data[6] = {a, b, scales, NULL, NULL, bias};
  const float want[2] = {-4.0f, 28.0f}, want_bias[2] = {-3.0f, 26.0f};
  CHECK(op_expect("MatMulNBits", attrs(at, sizeof at, 16, 2, 4, 16), 3, in, data, want, 2, 0.0f));
  CHECK(op_expect("MatMulNBits", at, 6, in, data, want_bias, 2, 0.0f));
  /* Zero points 3 and 15 (one packed byte per row). */
  uint8_t zp[2] = {0x03, 0x0f};
  in[3] = TD(WNN_DTYPE_U8, 2);
  data[3] = zp;
  const float want_zp[2] = {(120.0f - 48.0f) * 0.5f, 0.0f};
  CHECK(op_expect("MatMulNBits", at, 4, in, data, want_zp, 2, 0.0f));
}

TEST(random_against_reference) {
  const int bits_list[] = {4, 2, 8};
  const long shapes[][3] = {{1, 16, 1}, {3, 40, 17}, {2, 128, 33}, {5, 100, 16}, {1, 300, 70}};
  const long blocks[] = {16, 32, 128};
  char at[128];
  int cases = 0;
  for (size_t bi = 0; bi < 3; bi++)
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
      for (size_t bl = 0; bl < 3; bl++)
        for (int opt = 0; opt < 4; opt++) {
          const int bits = bits_list[bi];
          const long m = shapes[s][0], k = shapes[s][1], n = shapes[s][2], bs = blocks[bl];
          const long nb = (k + bs - 1) / bs, zp_row = (nb * bits + 7) / 8;
          wnn_tdesc in[6] = {s % 2 ? TD(WNN_DTYPE_F32, 1, m, k) : TD(WNN_DTYPE_F32, m, k),
                             TD(WNN_DTYPE_U8, n, nb, bs * bits / 8), TD(WNN_DTYPE_F32, n * nb),
                             opt & 1 ? TD(WNN_DTYPE_U8, n * zp_row) : TD_OMITTED, TD_OMITTED,
                             TD(WNN_DTYPE_F32, n)};
          if (m == 1 && s == 4) in[0] = TD(WNN_DTYPE_F32, k); /* 1-D A */
          CHECK(op_check("MatMulNBits", attrs(at, sizeof at, k, n, bits, bs), opt & 2 ? 6 : 4, in,
                         0.0f, 0.0f));
          cases++;
        }
  CHECK(cases == 180);
}

TEST(rejections) {
  char at[128];
  wnn_tdesc in[6] = {TD(WNN_DTYPE_F32, 2, 32), TD(WNN_DTYPE_U8, 3, 2, 8), TD(WNN_DTYPE_F32, 6),
                     TD(WNN_DTYPE_U8, 3), TD(WNN_DTYPE_I32, 32), TD(WNN_DTYPE_F32, 3)};
  CHECK(op_check("MatMulNBits", attrs(at, sizeof at, 32, 3, 4, 16), 4, in, 0.0f, 0.0f));
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 32, 3, 3, 16), 4, in, 1,
                 WNN_ERR_UNSUPPORTED, "bits = 3"));
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 32, 3, 4, 24), 4, in, 1,
                 WNN_ERR_BAD_ATTRIBUTE, "block_size = 24"));
  CHECK(op_fails("MatMulNBits", "{\"N\":3,\"block_size\":16}", 4, in, 1, WNN_ERR_BAD_ATTRIBUTE,
                 "K = -1"));
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 31, 3, 4, 16), 4, in, 1, WNN_ERR_SHAPE,
                 "K is 31"));
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 32, 4, 4, 16), 4, in, 1, WNN_ERR_SHAPE,
                 "input 1 (B) must be"));
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 32, 3, 4, 16), 5, in, 1, WNN_ERR_UNSUPPORTED,
                 "g_idx"));
  wnn_tdesc bad[6];
  memcpy(bad, in, sizeof in);
  bad[2] = TD(WNN_DTYPE_F32, 5);
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 32, 3, 4, 16), 3, bad, 1, WNN_ERR_SHAPE,
                 "input 2 (scales) has 5 elements, expected 6"));
  memcpy(bad, in, sizeof in);
  bad[3] = TD(WNN_DTYPE_F32, 6);
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 32, 3, 4, 16), 4, bad, 1,
                 WNN_ERR_UNSUPPORTED, "zero_points) is float32"));
  memcpy(bad, in, sizeof in);
  bad[4] = TD_OMITTED;
  bad[5] = TD(WNN_DTYPE_F32, 4);
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 32, 3, 4, 16), 6, bad, 1, WNN_ERR_SHAPE,
                 "input 5 (bias) has 4 elements"));
  memcpy(bad, in, sizeof in);
  bad[0] = TD(WNN_DTYPE_F16, 2, 32);
  CHECK(op_fails("MatMulNBits", attrs(at, sizeof at, 32, 3, 4, 16), 3, bad, 1, WNN_ERR_DTYPE,
                 "input 0 (A)"));
}

int main(void) {
  RUN(hand_worked);
  RUN(random_against_reference);
  RUN(rejections);
  return test_summary();
}
