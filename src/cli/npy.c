/* NumPy .npy reader and writer (see npy.h). */
#include "npy.h"

#include <ctype.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
/* The header length that makes the data start 64-byte aligned (numpy >= 1.14). */
#define NPY_ALIGN 64

static const struct {
  const char *code; /* type string without its byte-order character */
  wnn_dtype dtype;
  const char *name;
  size_t size;
} npy_types[] = {
    {"f4", WNN_DTYPE_F32, "float32", 4},     {"f2", WNN_DTYPE_F16, "float16", 2},
    {"f8", WNN_DTYPE_F64, "float64", 8}, {"i8", WNN_DTYPE_I64, "int64", 8},
    {"i4", WNN_DTYPE_I32, "int32", 4},       {"i1", WNN_DTYPE_I8, "int8", 1},
    {"u1", WNN_DTYPE_U8, "uint8", 1},        {"b1", WNN_DTYPE_BOOL, "bool", 1},
};
#define NPY_NUM_TYPES (sizeof npy_types / sizeof npy_types[0])

const char *wnn_npy_descr(wnn_dtype dtype) {
  switch (dtype) {
    case WNN_DTYPE_F32: return "<f4";
    case WNN_DTYPE_F16: return "<f2";
    case WNN_DTYPE_F64: return "<f8";
    case WNN_DTYPE_I64: return "<i8";
    case WNN_DTYPE_I32: return "<i4";
    case WNN_DTYPE_I8: return "|i1";
    case WNN_DTYPE_U8: return "|u1";
    case WNN_DTYPE_BOOL: return "|b1";
    case WNN_DTYPE_INVALID: break;
  }
  return NULL;
}

/* ------------------------------------------------ the header dictionary */

/* The header is a Python literal: {'descr': '<f4', 'fortran_order': False,
 * 'shape': (1, 3), } followed by spaces and a newline. Keys may come in any
 * order; strings use single or double quotes; integers may carry Python 2's
 * 'L' suffix. */
typedef struct npy_cursor {
  const char *p, *end;
} npy_cursor;

static void npy_skip_ws(npy_cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static int npy_accept(npy_cursor *c, char ch) {
  npy_skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return 1;
  }
  return 0;
}

/* A quoted string of at most cap-1 characters into buf. */
static int npy_string(npy_cursor *c, char *buf, size_t cap) {
  npy_skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return 0;
  char q = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\' || n + 1 >= cap) return 0;
    buf[n++] = *c->p++;
  }
  if (c->p >= c->end) return 0;
  c->p++;
  buf[n] = '\0';
  return 1;
}

static int npy_word(npy_cursor *c, const char *word) {
  size_t n = strlen(word);
  npy_skip_ws(c);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return 0;
  if ((size_t)(c->end - c->p) > n && (isalnum((unsigned char)c->p[n]) || c->p[n] == '_'))
    return 0;
  c->p += n;
  return 1;
}

/* A non-negative decimal integer; *overflow set when it exceeds INT64_MAX. */
static int npy_int(npy_cursor *c, int64_t *v, int *overflow) {
  npy_skip_ws(c);
  if (c->p >= c->end || !isdigit((unsigned char)*c->p)) return 0;
  uint64_t x = 0;
  while (c->p < c->end && isdigit((unsigned char)*c->p)) {
    unsigned d = (unsigned)(*c->p++ - '0');
    if (x > ((uint64_t)INT64_MAX - d) / 10) *overflow = 1;
    else x = x * 10 + d;
  }
  if (c->p < c->end && (*c->p == 'L' || *c->p == 'l')) c->p++;
  *v = (int64_t)x;
  return 1;
}

typedef struct npy_header {
  char descr[32];
  int fortran;
  int ndim;
  int64_t shape[WNN_MAX_DIMS];
  int have_descr, have_fortran, have_shape;
} npy_header;

static wnn_status npy_parse_shape(npy_cursor *c, npy_header *h, char *err, size_t errcap) {
  if (!npy_accept(c, '('))
    return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED, ".npy header: 'shape' is not a tuple");
  h->ndim = 0;
  if (npy_accept(c, ')')) return WNN_OK; /* () : a scalar */
  for (;;) {
    int64_t v = 0;
    int overflow = 0;
    if (!npy_int(c, &v, &overflow))
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                         ".npy header: 'shape' holds something other than a non-negative integer");
    if (overflow)
      return wnn_cli_err(err, errcap, WNN_ERR_SIZE,
                         ".npy header: shape dimension %d does not fit in 64 bits", h->ndim);
    if (h->ndim == WNN_MAX_DIMS)
      return wnn_cli_err(err, errcap, WNN_ERR_UNSUPPORTED,
                         ".npy header: more than %d dimensions", WNN_MAX_DIMS);
    h->shape[h->ndim++] = v;
    if (npy_accept(c, ')')) break;
    if (!npy_accept(c, ','))
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED, ".npy header: 'shape' tuple is malformed");
    if (npy_accept(c, ')')) break; /* (n,) */
  }
  return WNN_OK;
}

static wnn_status npy_parse_header(const char *text, size_t len, npy_header *h, char *err,
                                   size_t errcap) {
  npy_cursor c = {text, text + len};
  memset(h, 0, sizeof *h);
  if (!npy_accept(&c, '{'))
    return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                       ".npy header is not a dictionary (it does not start with '{')");
  while (!npy_accept(&c, '}')) {
    char key[32];
    if (!npy_string(&c, key, sizeof key) || !npy_accept(&c, ':'))
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED, ".npy header: expected a quoted key and ':'");
    if (strcmp(key, "descr") == 0) {
      npy_skip_ws(&c);
      if (c.p < c.end && *c.p == '[')
        return wnn_cli_err(err, errcap, WNN_ERR_DTYPE,
                           ".npy header: structured dtypes (a 'descr' list) are not supported");
      if (!npy_string(&c, h->descr, sizeof h->descr))
        return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED, ".npy header: 'descr' is not a string");
      h->have_descr = 1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (npy_word(&c, "True")) h->fortran = 1;
      else if (npy_word(&c, "False")) h->fortran = 0;
      else
        return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                           ".npy header: 'fortran_order' is neither True nor False");
      h->have_fortran = 1;
    } else if (strcmp(key, "shape") == 0) {
      wnn_status st = npy_parse_shape(&c, h, err, errcap);
      if (st != WNN_OK) return st;
      h->have_shape = 1;
    } else {
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED, ".npy header: unexpected key '%s'", key);
    }
    if (npy_accept(&c, '}')) break;
    if (!npy_accept(&c, ','))
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                         ".npy header: expected ',' or '}' after the value of '%s'", key);
  }
  npy_skip_ws(&c);
  while (c.p < c.end && *c.p == '\0') c.p++; /* some writers pad with NULs */
  if (c.p != c.end)
    return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED, ".npy header: text after the dictionary");
  if (!h->have_descr || !h->have_fortran || !h->have_shape)
    return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED, ".npy header: missing key '%s'",
                       !h->have_descr ? "descr" : !h->have_fortran ? "fortran_order" : "shape");
  return WNN_OK;
}

/* ------------------------------------------------------------- reading */

static uint32_t npy_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

wnn_status wnn_npy_parse(const void *data, size_t size, wnn_host_tensor *out, char *err,
                         size_t errcap) {
  const uint8_t *b = (const uint8_t *)data;
  if (!b && size) return wnn_cli_err(err, errcap, WNN_ERR_INVALID_ARGUMENT, "no data");
  if (!out) return wnn_cli_err(err, errcap, WNN_ERR_INVALID_ARGUMENT, "no output tensor");
  if (size == 0) return wnn_cli_err(err, errcap, WNN_ERR_TRUNCATED, ".npy file is empty");
  size_t cmp = size < NPY_MAGIC_LEN ? size : NPY_MAGIC_LEN;
  if (memcmp(b, NPY_MAGIC, cmp) != 0)
    return wnn_cli_err(err, errcap, WNN_ERR_BAD_MAGIC,
                       "not a .npy file (it does not start with \\x93NUMPY)");
  if (size < NPY_MAGIC_LEN + 2)
    return wnn_cli_err(err, errcap, WNN_ERR_TRUNCATED,
                       ".npy file truncated: %zu bytes, shorter than its preamble", size);
  unsigned major = b[6], minor = b[7];
  size_t pre, hlen;
  if (major == 1 && minor == 0) {
    pre = 10;
    if (size < pre)
      return wnn_cli_err(err, errcap, WNN_ERR_TRUNCATED,
                         ".npy file truncated: %zu bytes, shorter than its preamble", size);
    hlen = (size_t)b[8] | (size_t)b[9] << 8;
  } else if ((major == 2 || major == 3) && minor == 0) {
    pre = 12;
    if (size < pre)
      return wnn_cli_err(err, errcap, WNN_ERR_TRUNCATED,
                         ".npy file truncated: %zu bytes, shorter than its preamble", size);
    uint32_t h32 = npy_le32(b + 8);
    hlen = (size_t)h32;
  } else {
    return wnn_cli_err(err, errcap, WNN_ERR_VERSION,
                       ".npy format version %u.%u is not supported (1.0, 2.0 and 3.0 are)", major,
                       minor);
  }
  if (hlen > size - pre)
    return wnn_cli_err(err, errcap, WNN_ERR_TRUNCATED,
                       ".npy header length %zu is past the end of the file (%zu bytes after the "
                       "preamble)",
                       hlen, size - pre);

  npy_header h;
  wnn_status st = npy_parse_header((const char *)b + pre, hlen, &h, err, errcap);
  if (st != WNN_OK) return st;

  /* descr: byte order then type code */
  const char *d = h.descr;
  char order = d[0];
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return wnn_cli_err(err, errcap, WNN_ERR_DTYPE, ".npy dtype '%s' is not supported", h.descr);
  size_t t = 0;
  while (t < NPY_NUM_TYPES && strcmp(npy_types[t].code, d + 1) != 0) t++;
  if (t == NPY_NUM_TYPES)
    return wnn_cli_err(err, errcap, WNN_ERR_DTYPE,
                       ".npy dtype '%s' is not supported (supported: <f4 <f2 <f8 <i8 <i4 |i1 |u1 "
                       "|b1)",
                       h.descr);
  if (npy_types[t].size > 1 && order != '<')
    return wnn_cli_err(err, errcap, WNN_ERR_DTYPE,
                       ".npy dtype '%s' is not little-endian (only '<' byte order is supported)",
                       h.descr);
  if (h.fortran)
    return wnn_cli_err(err, errcap, WNN_ERR_UNSUPPORTED,
                       ".npy array is in Fortran order (fortran_order: True); only C order is "
                       "supported: save np.ascontiguousarray(a)");

  size_t count, nbytes;
  char shape_text[WNN_MAX_DIMS * 22 + 3];
  wnn_shape_str(shape_text, sizeof shape_text, h.ndim, h.shape);
  if (!wnn_shape_size(h.ndim, h.shape, npy_types[t].size, &count, &nbytes))
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE,
                       ".npy shape %s of %s is too large: its byte size overflows", shape_text,
                       npy_types[t].name);
  size_t avail = size - pre - hlen;
  if (avail < nbytes)
    return wnn_cli_err(err, errcap, WNN_ERR_TRUNCATED,
                       ".npy data truncated: shape %s of %s needs %zu bytes, the file has %zu",
                       shape_text, npy_types[t].name, nbytes, avail);
  if (avail > nbytes)
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE,
                       ".npy data has %zu bytes after the header, shape %s of %s needs %zu",
                       avail, shape_text, npy_types[t].name, nbytes);

  void *copy = malloc(nbytes ? nbytes : 1);
  if (!copy)
    return wnn_cli_err(err, errcap, WNN_ERR_OUT_OF_MEMORY, "out of memory for %zu bytes of .npy data",
                       nbytes);
  if (nbytes) memcpy(copy, b + pre + hlen, nbytes);
  memset(out, 0, sizeof *out);
  out->dtype = npy_types[t].dtype;
  out->dtype_name = npy_types[t].name;
  out->elem_size = npy_types[t].size;
  out->ndim = h.ndim;
  memcpy(out->shape, h.shape, sizeof h.shape);
  out->count = count;
  out->nbytes = nbytes;
  out->data = copy;
  return WNN_OK;
}

/* ------------------------------------------------------------- writing */

wnn_status wnn_npy_encode(wnn_dtype dtype, int ndim, const int64_t *shape, const void *data,
                          size_t nbytes, void **out, size_t *out_size, char *err, size_t errcap) {
  const char *descr = wnn_npy_descr(dtype);
  if (!descr)
    return wnn_cli_err(err, errcap, WNN_ERR_DTYPE, "dtype %s cannot be written to .npy",
                       wnn_dtype_name(dtype));
  if (ndim < 0 || ndim > WNN_MAX_DIMS || (ndim && !shape) || !out || !out_size)
    return wnn_cli_err(err, errcap, WNN_ERR_INVALID_ARGUMENT, "bad shape or output pointer");
  size_t count, need;
  if (!wnn_shape_size(ndim, shape, wnn_dtype_size(dtype), &count, &need))
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE, "shape too large to write");
  if (need != nbytes)
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE, "%zu bytes of data for a shape that needs %zu",
                       nbytes, need);
  if (nbytes && !data) return wnn_cli_err(err, errcap, WNN_ERR_INVALID_ARGUMENT, "no data");

  char dict[WNN_MAX_DIMS * 22 + 96];
  size_t n = (size_t)snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                              descr);
  for (int i = 0; i < ndim; i++)
    n += (size_t)snprintf(dict + n, sizeof dict - n, i ? ", %lld" : "%lld", (long long)shape[i]);
  n += (size_t)snprintf(dict + n, sizeof dict - n, ndim == 1 ? ",), }" : "), }");

  /* magic(6) + version(2) + length(2) + dict + padding spaces + '\n' */
  size_t total_header = 10 + n + 1;
  total_header = (total_header + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
  size_t hlen = total_header - 10;
  if (nbytes > SIZE_MAX - total_header)
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE, "tensor too large to write");
  size_t size = total_header + nbytes;
  uint8_t *buf = (uint8_t *)malloc(size);
  if (!buf) return wnn_cli_err(err, errcap, WNN_ERR_OUT_OF_MEMORY, "out of memory writing .npy");
  memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
  buf[6] = 1;
  buf[7] = 0;
  buf[8] = (uint8_t)(hlen & 0xff);
  buf[9] = (uint8_t)(hlen >> 8);
  memcpy(buf + 10, dict, n);
  memset(buf + 10 + n, ' ', hlen - n - 1);
  buf[total_header - 1] = '\n';
  if (nbytes) memcpy(buf + total_header, data, nbytes);
  *out = buf;
  *out_size = size;
  return WNN_OK;
}
