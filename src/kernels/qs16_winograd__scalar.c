/*
 * Exact integer Winograd F(2x2, 3x3) transforms (kernels.h, "int8 Winograd"):
 * the input transform of 8-bit windows minus their zero point, the weight
 * transform of int8 3x3 kernels scaled by 4, and the output transform that
 * divides the scale back out. All sums wrap modulo 2^32 (uint32_t): the op
 * only takes this path when the true result fits (src/ops/qconv_winograd.c).
 */
#include "kernels/kernels.h"

void wnn_qs16_winograd_input__scalar(size_t n, const uint8_t *lines, size_t ls, int16_t *v,
                                     size_t v_ps, const wnn_q8_pack_params *p) {
  const size_t nn = (n + 7) / 8 * 8;
  for (size_t c = 0; c < 2; c++)
    for (size_t t = 0; t < nn; t++) {
      int32_t d[4][4], e[4][4];
      for (size_t r = 0; r < 4; r++)
        for (size_t j = 0; j < 4; j++) {
          const uint8_t b = lines[(4 * c + r) * ls + 2 * t + j];
          d[r][j] = (p->s8 ? (int32_t)(int8_t)b : (int32_t)b) - p->zero_point;
        }
      for (size_t j = 0; j < 4; j++) { /* B^T d */
        e[0][j] = d[0][j] - d[2][j], e[1][j] = d[1][j] + d[2][j];
        e[2][j] = d[2][j] - d[1][j], e[3][j] = d[1][j] - d[3][j];
      }
      int16_t *vt = v + 2 * t + c;
      for (size_t i = 0; i < 4; i++) { /* (B^T d) B */
        vt[(4 * i + 0) * v_ps] = (int16_t)(e[i][0] - e[i][2]);
        vt[(4 * i + 1) * v_ps] = (int16_t)(e[i][1] + e[i][2]);
        vt[(4 * i + 2) * v_ps] = (int16_t)(e[i][2] - e[i][1]);
        vt[(4 * i + 3) * v_ps] = (int16_t)(e[i][1] - e[i][3]);
      }
    }
}

void wnn_qs16_winograd_weight__scalar(size_t rows, const int8_t *w, int16_t *u, size_t u_ps) {
  for (size_t r = 0; r < rows; r++) {
    const int8_t *g = w + 9 * r;
    int32_t t[4][3];
    for (size_t j = 0; j < 3; j++) { /* (2G) g */
      t[0][j] = 2 * g[j];
      t[1][j] = g[j] + g[3 + j] + g[6 + j];
      t[2][j] = g[j] - g[3 + j] + g[6 + j];
      t[3][j] = 2 * g[6 + j];
    }
    for (size_t i = 0; i < 4; i++) { /* ((2G) g) (2G)^T */
      u[(4 * i + 0) * u_ps + r] = (int16_t)(2 * t[i][0]);
      u[(4 * i + 1) * u_ps + r] = (int16_t)(t[i][0] + t[i][1] + t[i][2]);
      u[(4 * i + 2) * u_ps + r] = (int16_t)(t[i][0] - t[i][1] + t[i][2]);
      u[(4 * i + 3) * u_ps + r] = (int16_t)(2 * t[i][2]);
    }
  }
}

void wnn_qs16_winograd_output__scalar(size_t channels, size_t n, size_t cols, size_t rows,
                                      const int32_t *m, size_t m_ps, size_t m_cs,
                                      const int32_t *bias, int32_t *y, size_t y_rs, size_t y_cs) {
  for (size_t c = 0; c < channels; c++) {
    const uint32_t b = bias ? (uint32_t)bias[c] : 0;
    for (size_t t = 0; t < n; t++) {
      uint32_t q[16], s[2][4];
      for (size_t i = 0; i < 16; i++) q[i] = (uint32_t)m[i * m_ps + c * m_cs + t];
      for (size_t j = 0; j < 4; j++) { /* A^T M */
        s[0][j] = q[j] + q[4 + j] + q[8 + j];
        s[1][j] = q[4 + j] - q[8 + j] - q[12 + j];
      }
      for (size_t i = 0; i < rows; i++) { /* (A^T M) A / 4 + bias */
        const uint32_t o[2] = {s[i][0] + s[i][1] + s[i][2], s[i][1] - s[i][2] - s[i][3]};
        for (size_t j = 0; j < 2 && 2 * t + j < cols; j++)
          y[c * y_cs + i * y_rs + 2 * t + j] = (int32_t)((uint32_t)((int32_t)o[j] >> 2) + b);
      }
    }
  }
}
