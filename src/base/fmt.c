/*
 * The runtime's own snprintf (base/status.h, wnn_fmt): what the library's
 * messages use, and no more, so that the wasm modules do not carry libc's
 * printf (about 9 KB of code, most of it floating-point formatting no
 * message needs). Conversions: d i u x X c s p g e f %; flags - 0 + space
 * (not #); width and precision, `*` included; length modifiers hh h l ll z j t.
 * Floating point (significand() says how exact) matches the C library's
 * text up to 16 significant digits for numbers from 1e-7 to 1e38 (all of
 * float32's normal range but its smallest values); beyond 16 digits, and in
 * %f of numbers of 1e16 and more, the later digits may differ. That is all an error message
 * needs; it is not a general printf.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

typedef struct {
  char *buf;
  size_t cap, len; /* len: what would have been written, as snprintf counts */
} sink;

static void put(sink *s, char c) {
  if (s->len + 1 < s->cap) s->buf[s->len] = c;
  s->len++;
}

static void put_run(sink *s, char c, int count) {
  while (count-- > 0) put(s, c);
}

/* The digits of u in base (10 or 16), written backwards from end. */
static char *digits(char *end, uint64_t u, unsigned base, bool upper) {
  const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  do *--end = set[u % base];
  while (u /= base);
  return end;
}

/* 10^n for 0 <= n <= 22: exact in double, each step of the product too. */
static double pow10_exact(int n) {
  double r = 1.0;
  while (n-- > 0) r *= 10.0;
  return r;
}

/* hi + lo == a * b exactly (Dekker's product: both halves of a split are
 * 26 bits, so every partial product is exact; needs no fused multiply-add,
 * and the build's -ffp-contract=off keeps the compiler from adding one). */
static double product_error(double a, double b, double hi) {
  const double ca = 134217729.0 * a, cb = 134217729.0 * b;
  const double ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
  return ((ah * bh - hi) + ah * bl + al * bh) + al * bl;
}

/* Up to prec significant digits of v > 0 (finite) as an integer, and the
 * decimal exponent of its first digit: v ~ sig * 10^(exp10 - prec + 1)
 * (prec 0: sig is v rounded to units of 10^(exp10 + 1), 0 or 1).
 * v is brought into [1e15, 1e16) by one multiplication or division by an
 * exact power of ten (10^k, k <= 22: every float32 and every double from
 * 1e-7 to 1e38), whose rounding error is recovered exactly, so the digits
 * and every tie are exact there; further out (more steps) they are within
 * a few units of the 16th digit. */
static uint64_t significand(double v, int prec, int *exp10) {
  int e = 0;
  while (v >= 1e38) v /= 1e22, e += 22;
  while (v < 1e-7) v *= 1e22, e -= 22;
  int d = 0; /* decimal exponent of v's first digit, from comparisons */
  for (double t = 1.0; t * 10.0 <= v; t *= 10.0) d++;
  for (double t = 1.0; t > v; t /= 10.0) d--;
  int k = 15 - d;
  double hi, lo = 0.0;
  if (k > 22) {
    hi = v * pow10_exact(22) * pow10_exact(k - 22);
  } else if (k >= 0) {
    const double p = pow10_exact(k);
    hi = v * p, lo = product_error(v, p, hi);
  } else {
    const double p = pow10_exact(-k);
    hi = v / p;
    const double back = hi * p; /* v / p == hi + (v - hi * p) / p */
    lo = ((v - back) - product_error(hi, p, back)) / p;
  }
  e -= k;
  if (hi >= 1e16) hi /= 10.0, lo /= 10.0, e++; /* the comparisons' powers are rounded */
  if (hi < 1e15) hi *= 10.0, lo *= 10.0, e--;
  /* hi + lo in [1e15, 1e16): 16 digits and a fraction; keep prec digits,
   * rounding half to even. */
  uint64_t full = (uint64_t)hi;
  double frac = (hi - (double)full) + lo;
  if (frac < 0.0) full--, frac += 1.0;
  uint64_t sig = full, div = 1;
  const int drop = 16 - prec;
  for (int i = 0; i < drop; i++) div *= 10;
  if (drop > 0) {
    sig = full / div;
    const uint64_t r = full % div;
    if (r * 2 > div || (r * 2 == div && (frac > 0.0 || (sig & 1)))) sig++;
  } else if (drop < 0) {
    for (int i = 0; i < -drop; i++) sig *= 10;
  } else if (frac > 0.5 || (frac == 0.5 && (sig & 1))) {
    sig++;
  }
  uint64_t limit = 1;
  for (int i = 0; i < prec; i++) limit *= 10;
  e += 15;
  if (prec > 0 && sig >= limit) sig /= 10, e++; /* prec 0: sig is 0 or 1 */
  *exp10 = e;
  return sig;
}

/* A double as %e, %f or %g with prec into out (no sign); returns its length. */
static int format_double(char *out, double v, int prec, char conv) {
  int n = 0;
  if (v != v) return out[0] = 'n', out[1] = 'a', out[2] = 'n', 3;
  if (v > 1.7976931348623157e308) return out[0] = 'i', out[1] = 'n', out[2] = 'f', 3;
  const bool g = conv == 'g';
  if (g && prec == 0) prec = 1;
  int e = 0;
  /* Significant digits (16 at most, zeros after them): %e and %g know
   * them; %f needs exp10 first. */
  int sig_digits = conv == 'e' ? prec + 1 : prec;
  if (sig_digits > 16) sig_digits = 16;
  uint64_t sig = 0;
  if (v > 0.0) {
    sig = significand(v, conv == 'f' ? 16 : sig_digits, &e);
    if (conv == 'f') {
      sig_digits = e + 1 + prec; /* digits up to the precision's place */
      if (sig_digits > 16) sig_digits = 16;
      if (sig_digits > 0) {
        sig = significand(v, sig_digits, &e);
      } else { /* v < 10^-prec: 0 or 1 unit of the last place shown */
        sig = sig_digits == 0 ? significand(v, 0, &e) : 0;
        e = -prec, sig_digits = 1;
      }
    }
  }
  char d[24];
  char *p = digits(d + sizeof d, sig, 10, false);
  int nd = (int)(d + sizeof d - p);
  while (nd < sig_digits) *--p = '0', nd++; /* v == 0 */
  if (v == 0.0) e = 0;
  bool expo = conv == 'e';
  if (g) {
    expo = e < -4 || e >= prec;
    while (nd > 1 && p[nd - 1] == '0') nd--; /* %g drops trailing zeros */
  }
  if (expo) {
    out[n++] = p[0];
    if (nd > 1 || (!g && prec > 0)) out[n++] = '.';
    for (int i = 1; i < nd; i++) out[n++] = p[i];
    for (int i = nd; !g && i <= prec; i++) out[n++] = '0';
    out[n++] = 'e';
    out[n++] = e < 0 ? '-' : '+';
    const int ae = e < 0 ? -e : e;
    char eb[8];
    char *ep = digits(eb + sizeof eb, (uint64_t)ae, 10, false);
    if (ae < 10) out[n++] = '0';
    while (ep < eb + sizeof eb) out[n++] = *ep++;
    return n;
  }
  /* Fixed: the digit of 10^k for k from max(e, 0) down. */
  const int decimals = g ? (nd - 1 - e > 0 ? nd - 1 - e : 0) : prec;
  for (int k = e > 0 ? e : 0; k >= -decimals; k--) {
    if (k == -1) out[n++] = '.';
    const int i = e - k; /* index into the digits */
    out[n++] = i >= 0 && i < nd ? p[i] : '0';
  }
  return n;
}

int wnn_vfmt(char *buf, size_t cap, const char *fmt, va_list ap) {
  sink s = {buf, cap, 0};
  for (; *fmt; fmt++) {
    if (*fmt != '%') {
      put(&s, *fmt);
      continue;
    }
    bool left = false, zero = false;
    char sign = 0;
    for (;; fmt++) {
      if (fmt[1] == '-') left = true;
      else if (fmt[1] == '0') zero = true;
      else if (fmt[1] == '+') sign = '+';
      else if (fmt[1] == ' ') sign = sign ? sign : ' ';
      else break;
    }
    fmt++;
    int width = 0, prec = -1;
    if (*fmt == '*') {
      width = va_arg(ap, int), fmt++;
      if (width < 0) left = true, width = -width;
    }
    while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
    if (*fmt == '.') {
      fmt++, prec = 0;
      if (*fmt == '*') prec = va_arg(ap, int), fmt++;
      while (*fmt >= '0' && *fmt <= '9') prec = prec * 10 + (*fmt++ - '0');
    }
    /* 0 int, 1 long, 2 long long, 3 size_t/ptrdiff_t, -1 short, -2 char */
    int size = 0;
    if (*fmt == 'h') size = fmt[1] == 'h' ? (fmt++, -2) : -1, fmt++;
    else if (*fmt == 'l') size = fmt[1] == 'l' ? (fmt++, 2) : 1, fmt++;
    else if (*fmt == 'z' || *fmt == 't') size = 3, fmt++;
    else if (*fmt == 'j') size = 2, fmt++;
    char tmp[400]; /* a number: %f of a large double fits */
    const char *body = tmp;
    int len = 0;
    char prefix[3] = {0};
    const char conv = *fmt ? *fmt : '%';
    switch (conv) {
      case 'd':
      case 'i': {
        int64_t v = size == 2 ? va_arg(ap, long long)
                    : size == 1 ? va_arg(ap, long)
                    : size == 3 ? (int64_t)va_arg(ap, ptrdiff_t)
                                : va_arg(ap, int);
        if (size < 0) v = size == -1 ? (short)v : (signed char)v;
        const uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
        if (v < 0) prefix[0] = '-';
        else if (sign) prefix[0] = sign;
        body = digits(tmp + sizeof tmp, u, 10, false);
        len = (int)(tmp + sizeof tmp - body);
        break;
      }
      case 'u':
      case 'x':
      case 'X':
      case 'p': {
        uint64_t u;
        if (conv == 'p') u = (uintptr_t)va_arg(ap, void *), prefix[0] = '0', prefix[1] = 'x';
        else
          u = size == 2   ? va_arg(ap, unsigned long long)
              : size == 1 ? va_arg(ap, unsigned long)
              : size == 3 ? va_arg(ap, size_t)
                          : va_arg(ap, unsigned);
        if (size < 0) u = size == -1 ? (unsigned short)u : (unsigned char)u;
        body = digits(tmp + sizeof tmp, u, conv == 'u' ? 10 : 16, conv == 'X');
        len = (int)(tmp + sizeof tmp - body);
        break;
      }
      case 'c':
        tmp[0] = (char)va_arg(ap, int), len = 1;
        break;
      case 's': {
        body = va_arg(ap, const char *);
        if (!body) body = "(null)";
        while ((prec < 0 || len < prec) && body[len]) len++;
        prec = -1;
        break;
      }
      case 'g':
      case 'e':
      case 'f': {
        double v = va_arg(ap, double);
        if (v < 0.0 || (v == 0.0 && 1.0 / v < 0.0)) prefix[0] = '-', v = -v;
        else if (sign) prefix[0] = sign;
        if (prec > 60) prec = 60; /* keeps %f of any double within tmp */
        len = format_double(tmp, v, prec < 0 ? 6 : prec, conv);
        prec = -1;
        if (!(v - v == 0.0)) zero = false; /* nan, inf: no zero padding */
        break;
      }
      default: /* %% and anything unknown: written as it is */
        tmp[0] = conv, len = 1, prec = -1;
        break;
    }
    if (!*fmt) fmt--; /* a lone % at the end */
    /* An integer's precision: at least prec digits (and no zero padding). */
    int lead = prec > len ? prec - len : 0;
    if (prec >= 0) zero = false;
    int plen = 0;
    while (plen < 2 && prefix[plen]) plen++;
    const int fill = width - plen - lead - len;
    if (!left && !zero) put_run(&s, ' ', fill);
    for (int i = 0; i < plen; i++) put(&s, prefix[i]);
    if (!left && zero) put_run(&s, '0', fill);
    put_run(&s, '0', lead);
    for (int i = 0; i < len; i++) put(&s, body[i]);
    if (left) put_run(&s, ' ', fill);
  }
  if (cap) buf[s.len < cap ? s.len : cap - 1] = '\0';
  return s.len > INT32_MAX ? INT32_MAX : (int)s.len;
}

int wnn_fmt(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = wnn_vfmt(buf, cap, fmt, ap);
  va_end(ap);
  return n;
}
