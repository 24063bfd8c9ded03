/* onnx.TensorProto reader and writer on a hand-written protobuf wire-format
 * reader (see tensorproto.h for why it is hand-written). */
#include "tensorproto.h"

/* ------------------------------------------------------------ wire format */

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2, PB_SGROUP = 3, PB_EGROUP = 4, PB_FIXED32 = 5 };

/* TensorProto field numbers. */
enum {
  TP_DIMS = 1,
  TP_DATA_TYPE = 2,
  TP_SEGMENT = 3,
  TP_FLOAT_DATA = 4,
  TP_INT32_DATA = 5,
  TP_STRING_DATA = 6,
  TP_INT64_DATA = 7,
  TP_NAME = 8,
  TP_RAW_DATA = 9,
  TP_DOUBLE_DATA = 10,
  TP_UINT64_DATA = 11,
  TP_DATA_LOCATION = 14
};

static const char *tp_field_name(uint32_t number) {
  switch (number) {
    case TP_DIMS: return "dims";
    case TP_DATA_TYPE: return "data_type";
    case TP_SEGMENT: return "segment";
    case TP_FLOAT_DATA: return "float_data";
    case TP_INT32_DATA: return "int32_data";
    case TP_STRING_DATA: return "string_data";
    case TP_INT64_DATA: return "int64_data";
    case TP_NAME: return "name";
    case TP_RAW_DATA: return "raw_data";
    case TP_DOUBLE_DATA: return "double_data";
    case TP_UINT64_DATA: return "uint64_data";
    case 12: return "doc_string";
    case 13: return "external_data";
    case TP_DATA_LOCATION: return "data_location";
  }
  return "unknown";
}

static const char *onnx_type_name(int t) {
  static const char *const names[] = {
      "UNDEFINED", "FLOAT",  "UINT8",     "INT8",       "UINT16",       "INT16",
      "INT32",     "INT64",  "STRING",    "BOOL",       "FLOAT16",      "DOUBLE",
      "UINT32",    "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16",     "FLOAT8E4M3FN",
      "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1"};
  if (t >= 0 && (size_t)t < sizeof names / sizeof names[0]) return names[t];
  return "unknown";
}

/* 0: ok; 1: runs past the end; 2: longer than 10 bytes or over 64 bits. */
static int pb_varint(const uint8_t *b, size_t size, size_t *pos, uint64_t *v) {
  uint64_t x = 0;
  size_t p = *pos;
  for (int i = 0; i < 10; i++) {
    if (p >= size) return 1;
    uint8_t c = b[p++];
    if (i == 9 && c > 1) return 2;
    x |= (uint64_t)(c & 0x7f) << (7 * i);
    if (!(c & 0x80)) {
      *pos = p;
      *v = x;
      return 0;
    }
  }
  return 2;
}

typedef struct pb_field {
  uint32_t number;
  unsigned wire;
  uint64_t value;       /* PB_VARINT, PB_FIXED64, PB_FIXED32 */
  const uint8_t *bytes; /* PB_LEN */
  size_t len;
  size_t offset; /* of the field's key */
} pb_field;

static uint64_t pb_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* Reads the field at *pos. */
static wnn_status pb_next(const uint8_t *b, size_t size, size_t *pos, pb_field *f, char *err,
                          size_t errcap) {
  uint64_t key;
  f->offset = *pos;
  int r = pb_varint(b, size, pos, &key);
  if (r)
    return wnn_cli_err(err, errcap, r == 1 ? WNN_ERR_TRUNCATED : WNN_ERR_MALFORMED,
                       "TensorProto: field key at byte %zu %s", f->offset,
                       r == 1 ? "runs past the end of the message" : "is an overlong varint");
  f->wire = (unsigned)(key & 7);
  if ((key >> 3) == 0 || (key >> 3) > 0x1fffffff)
    return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                       "TensorProto: invalid field number %llu at byte %zu",
                       (unsigned long long)(key >> 3), f->offset);
  f->number = (uint32_t)(key >> 3);
  f->bytes = NULL;
  f->len = 0;
  f->value = 0;
  switch (f->wire) {
    case PB_VARINT:
      r = pb_varint(b, size, pos, &f->value);
      if (r)
        return wnn_cli_err(err, errcap, r == 1 ? WNN_ERR_TRUNCATED : WNN_ERR_MALFORMED,
                           "TensorProto: field %u (%s) at byte %zu: varint %s", f->number,
                           tp_field_name(f->number), f->offset,
                           r == 1 ? "runs past the end of the message" : "is overlong");
      return WNN_OK;
    case PB_FIXED64:
    case PB_FIXED32: {
      size_t n = f->wire == PB_FIXED64 ? 8 : 4;
      if (size - *pos < n)
        return wnn_cli_err(err, errcap, WNN_ERR_TRUNCATED,
                           "TensorProto: field %u (%s) at byte %zu: %zu-byte value runs past the "
                           "end of the message",
                           f->number, tp_field_name(f->number), f->offset, n);
      f->value = pb_le(b + *pos, (int)n);
      *pos += n;
      return WNN_OK;
    }
    case PB_LEN: {
      uint64_t len;
      r = pb_varint(b, size, pos, &len);
      if (r)
        return wnn_cli_err(err, errcap, r == 1 ? WNN_ERR_TRUNCATED : WNN_ERR_MALFORMED,
                           "TensorProto: field %u (%s) at byte %zu: length %s", f->number,
                           tp_field_name(f->number), f->offset,
                           r == 1 ? "runs past the end of the message" : "is an overlong varint");
      if (len > (uint64_t)(size - *pos))
        return wnn_cli_err(err, errcap, WNN_ERR_TRUNCATED,
                           "TensorProto: field %u (%s) at byte %zu: length %llu is past the end "
                           "of the message (%zu bytes left)",
                           f->number, tp_field_name(f->number), f->offset,
                           (unsigned long long)len, size - *pos);
      f->bytes = b + *pos;
      f->len = (size_t)len;
      *pos += (size_t)len;
      return WNN_OK;
    }
    case PB_SGROUP:
    case PB_EGROUP:
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                         "TensorProto: field %u at byte %zu uses the deprecated group wire type "
                         "%u, which TensorProto never uses",
                         f->number, f->offset, f->wire);
    default:
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                         "TensorProto: field %u at byte %zu has unknown wire type %u", f->number,
                         f->offset, f->wire);
  }
}

/* Counts the varints of a packed field, checking each one. */
static wnn_status pb_count_packed_varints(const pb_field *f, size_t *count, char *err,
                                          size_t errcap) {
  size_t p = 0, n = 0;
  uint64_t v;
  while (p < f->len) {
    int r = pb_varint(f->bytes, f->len, &p, &v);
    if (r)
      return wnn_cli_err(err, errcap, r == 1 ? WNN_ERR_TRUNCATED : WNN_ERR_MALFORMED,
                         "TensorProto: packed field %u (%s) at byte %zu: element %zu %s",
                         f->number, tp_field_name(f->number), f->offset, n,
                         r == 1 ? "runs past the end of the field" : "is an overlong varint");
    n++;
  }
  *count = n;
  return WNN_OK;
}

/* ------------------------------------------------------------ TensorProto */

typedef struct tp_scan {
  int64_t data_type;
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  const uint8_t *raw;
  size_t raw_len;
  int have_raw;
  const uint8_t *name;
  size_t name_len;
  int have_name;
  size_t n_float, n_int32, n_int64, n_double, n_uint64;
} tp_scan;

static wnn_status tp_wire_error(const pb_field *f, const char *expected, char *err,
                                size_t errcap) {
  return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                     "TensorProto: field %u (%s) at byte %zu has wire type %u, expected %s",
                     f->number, tp_field_name(f->number), f->offset, f->wire, expected);
}

static wnn_status tp_add_dim(tp_scan *s, uint64_t v, const pb_field *f, char *err, size_t errcap) {
  if (s->ndim == WNN_MAX_DIMS)
    return wnn_cli_err(err, errcap, WNN_ERR_UNSUPPORTED, "TensorProto: more than %d dims",
                       WNN_MAX_DIMS);
  if ((int64_t)v < 0)
    return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                       "TensorProto: dims[%d] at byte %zu is negative (%lld)", s->ndim, f->offset,
                       (long long)(int64_t)v);
  s->dims[s->ndim++] = (int64_t)v;
  return WNN_OK;
}

/* A repeated numeric field: counts its elements, packed or not. elem is the
 * fixed width (4 or 8) or 0 for varints. */
static wnn_status tp_count(const pb_field *f, unsigned elem, size_t *count, char *err,
                           size_t errcap) {
  unsigned unpacked = elem == 0 ? PB_VARINT : elem == 4 ? PB_FIXED32 : PB_FIXED64;
  if (f->wire == unpacked) {
    (*count)++;
    return WNN_OK;
  }
  if (f->wire != PB_LEN)
    return tp_wire_error(f, elem == 0 ? "0 (varint) or 2 (packed)"
                            : elem == 4 ? "5 (fixed32) or 2 (packed)"
                                        : "1 (fixed64) or 2 (packed)",
                         err, errcap);
  if (elem) {
    if (f->len % elem)
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                         "TensorProto: packed field %u (%s) at byte %zu is %zu bytes, not a "
                         "multiple of %u",
                         f->number, tp_field_name(f->number), f->offset, f->len, elem);
    *count += f->len / elem;
    return WNN_OK;
  }
  size_t n = 0;
  wnn_status st = pb_count_packed_varints(f, &n, err, errcap);
  if (st == WNN_OK) *count += n;
  return st;
}

static wnn_status tp_scan_message(const uint8_t *b, size_t size, tp_scan *s, char *err,
                                  size_t errcap) {
  size_t pos = 0;
  memset(s, 0, sizeof *s);
  while (pos < size) {
    pb_field f;
    wnn_status st = pb_next(b, size, &pos, &f, err, errcap);
    if (st != WNN_OK) return st;
    switch (f.number) {
      case TP_DIMS:
        if (f.wire == PB_VARINT) {
          st = tp_add_dim(s, f.value, &f, err, errcap);
        } else if (f.wire == PB_LEN) {
          size_t p = 0;
          while (st == WNN_OK && p < f.len) {
            uint64_t v;
            int r = pb_varint(f.bytes, f.len, &p, &v);
            if (r)
              return wnn_cli_err(err, errcap, r == 1 ? WNN_ERR_TRUNCATED : WNN_ERR_MALFORMED,
                                 "TensorProto: packed dims at byte %zu: %s", f.offset,
                                 r == 1 ? "a varint runs past the end of the field"
                                        : "an overlong varint");
            st = tp_add_dim(s, v, &f, err, errcap);
          }
        } else {
          st = tp_wire_error(&f, "0 (varint) or 2 (packed)", err, errcap);
        }
        break;
      case TP_DATA_TYPE:
        if (f.wire != PB_VARINT) return tp_wire_error(&f, "0 (varint)", err, errcap);
        s->data_type = (int64_t)f.value;
        break;
      case TP_SEGMENT:
        return wnn_cli_err(err, errcap, WNN_ERR_UNSUPPORTED,
                           "TensorProto: segmented tensors (field 3, segment) are not supported");
      case TP_FLOAT_DATA: st = tp_count(&f, 4, &s->n_float, err, errcap); break;
      case TP_INT32_DATA: st = tp_count(&f, 0, &s->n_int32, err, errcap); break;
      case TP_STRING_DATA:
        return wnn_cli_err(err, errcap, WNN_ERR_UNSUPPORTED,
                           "TensorProto: string tensors (field 6, string_data) are not supported");
      case TP_INT64_DATA: st = tp_count(&f, 0, &s->n_int64, err, errcap); break;
      case TP_NAME:
        if (f.wire != PB_LEN) return tp_wire_error(&f, "2 (length-delimited)", err, errcap);
        s->name = f.bytes;
        s->name_len = f.len;
        s->have_name = 1;
        break;
      case TP_RAW_DATA:
        if (f.wire != PB_LEN) return tp_wire_error(&f, "2 (length-delimited)", err, errcap);
        s->raw = f.bytes;
        s->raw_len = f.len;
        s->have_raw = 1;
        break;
      case TP_DOUBLE_DATA: st = tp_count(&f, 8, &s->n_double, err, errcap); break;
      case TP_UINT64_DATA: st = tp_count(&f, 0, &s->n_uint64, err, errcap); break;
      case TP_DATA_LOCATION:
        if (f.wire != PB_VARINT) return tp_wire_error(&f, "0 (varint)", err, errcap);
        if (f.value == 1)
          return wnn_cli_err(err, errcap, WNN_ERR_UNSUPPORTED,
                             "TensorProto: data_location is EXTERNAL (the data lives in another "
                             "file); only tensors with their data inside the .pb are supported");
        if (f.value != 0)
          return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                             "TensorProto: unknown data_location %llu",
                             (unsigned long long)f.value);
        break;
      default: break; /* doc_string, external_data, future fields: skipped */
    }
    if (st != WNN_OK) return st;
  }
  return WNN_OK;
}

/* Copies the elements of every occurrence of field `number` into dst, checking
 * and converting int32_data values for the narrower types. */
static wnn_status tp_fill(const uint8_t *b, size_t size, uint32_t number, int data_type,
                          void *dst, char *err, size_t errcap) {
  size_t pos = 0, i = 0;
  while (pos < size) {
    pb_field f;
    wnn_status st = pb_next(b, size, &pos, &f, err, errcap);
    if (st != WNN_OK) return st; /* not reached: the scan checked the message */
    if (f.number != number) continue;
    size_t p = 0;
    for (;;) {
      uint64_t v;
      if (f.wire == PB_LEN) {
        if (p >= f.len) break;
        if (number == TP_FLOAT_DATA) {
          v = pb_le(f.bytes + p, 4);
          p += 4;
        } else if (number == TP_DOUBLE_DATA) {
          v = pb_le(f.bytes + p, 8);
          p += 8;
        } else if (pb_varint(f.bytes, f.len, &p, &v)) {
          return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED, "TensorProto: bad packed varint");
        }
      } else {
        if (p) break;
        v = f.value;
        p = 1;
      }
      switch (data_type) {
        case WNN_ONNX_FLOAT: {
          uint32_t u = (uint32_t)v;
          memcpy((uint8_t *)dst + 4 * i, &u, 4);
          break;
        }
        case WNN_ONNX_DOUBLE:
        case WNN_ONNX_INT64: memcpy((uint8_t *)dst + 8 * i, &v, 8); break;
        default: {
          /* int32_data: an int32 on the wire, sign-extended to 64 bits */
          int64_t x = (int64_t)v;
          int64_t lo = INT32_MIN, hi = INT32_MAX;
          if (data_type == WNN_ONNX_INT8) lo = -128, hi = 127;
          if (data_type == WNN_ONNX_UINT8) lo = 0, hi = 255;
          if (data_type == WNN_ONNX_BOOL) lo = 0, hi = 1;
          if (data_type == WNN_ONNX_FLOAT16) lo = 0, hi = 65535;
          if (x < lo || x > hi)
            return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                               "TensorProto: int32_data[%zu] = %lld is out of range for %s", i,
                               (long long)x, onnx_type_name(data_type));
          if (data_type == WNN_ONNX_INT32) {
            int32_t y = (int32_t)x;
            memcpy((uint8_t *)dst + 4 * i, &y, 4);
          } else if (data_type == WNN_ONNX_FLOAT16) {
            uint16_t y = (uint16_t)x;
            memcpy((uint8_t *)dst + 2 * i, &y, 2);
          } else if (data_type == WNN_ONNX_INT8) {
            ((int8_t *)dst)[i] = (int8_t)x;
          } else {
            ((uint8_t *)dst)[i] = (uint8_t)x;
          }
          break;
        }
      }
      i++;
    }
  }
  return WNN_OK;
}

/* The data types read, the wnn dtype each maps to, and the typed field that
 * holds its values when raw_data is absent. */
static const struct {
  int64_t onnx;
  wnn_dtype dtype;
  const char *name;
  size_t elem;
  uint32_t field;
} tp_types[] = {
    {WNN_ONNX_FLOAT, WNN_DTYPE_F32, "float32", 4, TP_FLOAT_DATA},
    {WNN_ONNX_UINT8, WNN_DTYPE_U8, "uint8", 1, TP_INT32_DATA},
    {WNN_ONNX_INT8, WNN_DTYPE_I8, "int8", 1, TP_INT32_DATA},
    {WNN_ONNX_INT32, WNN_DTYPE_I32, "int32", 4, TP_INT32_DATA},
    {WNN_ONNX_INT64, WNN_DTYPE_I64, "int64", 8, TP_INT64_DATA},
    {WNN_ONNX_BOOL, WNN_DTYPE_BOOL, "bool", 1, TP_INT32_DATA},
    {WNN_ONNX_FLOAT16, WNN_DTYPE_F16, "float16", 2, TP_INT32_DATA},
    {WNN_ONNX_DOUBLE, WNN_DTYPE_F64, "float64", 8, TP_DOUBLE_DATA},
};
#define TP_NUM_TYPES (sizeof tp_types / sizeof tp_types[0])

int wnn_onnx_data_type(wnn_dtype dtype) {
  switch (dtype) {
    case WNN_DTYPE_F32: return WNN_ONNX_FLOAT;
    case WNN_DTYPE_F16: return WNN_ONNX_FLOAT16;
    case WNN_DTYPE_F64: return WNN_ONNX_DOUBLE;
    case WNN_DTYPE_I64: return WNN_ONNX_INT64;
    case WNN_DTYPE_I32: return WNN_ONNX_INT32;
    case WNN_DTYPE_I8: return WNN_ONNX_INT8;
    case WNN_DTYPE_U8: return WNN_ONNX_UINT8;
    case WNN_DTYPE_BOOL: return WNN_ONNX_BOOL;
    case WNN_DTYPE_INVALID: break;
  }
  return 0;
}

wnn_status wnn_tensorproto_parse(const void *data, size_t size, wnn_host_tensor *out, char *err,
                                 size_t errcap) {
  const uint8_t *b = (const uint8_t *)data;
  if ((!b && size) || !out)
    return wnn_cli_err(err, errcap, WNN_ERR_INVALID_ARGUMENT, "no data or no output tensor");
  tp_scan s;
  wnn_status st = tp_scan_message(b, size, &s, err, errcap);
  if (st != WNN_OK) return st;

  size_t t = 0;
  while (t < TP_NUM_TYPES && tp_types[t].onnx != s.data_type) t++;
  if (s.data_type == 0)
    return wnn_cli_err(err, errcap, WNN_ERR_DTYPE,
                       "TensorProto: data_type is missing or 0 (UNDEFINED)");
  if (t == TP_NUM_TYPES)
    return wnn_cli_err(err, errcap, WNN_ERR_DTYPE,
                       "TensorProto: data_type %lld (%s) is not supported (supported: 1 FLOAT, "
                       "2 UINT8, 3 INT8, 6 INT32, 7 INT64, 9 BOOL, 10 FLOAT16, 11 DOUBLE)",
                       (long long)s.data_type, onnx_type_name((int)s.data_type));
  const char *dtype_name = tp_types[t].name;
  size_t elem = tp_types[t].elem;
  uint32_t field = tp_types[t].field; /* the typed field for this data type */
  size_t typed = field == TP_FLOAT_DATA   ? s.n_float
                 : field == TP_INT32_DATA ? s.n_int32
                 : field == TP_INT64_DATA ? s.n_int64
                                          : s.n_double;

  /* Values in a typed field that this data type does not use. */
  static const uint32_t fields[] = {TP_FLOAT_DATA, TP_INT32_DATA, TP_INT64_DATA, TP_DOUBLE_DATA,
                                    TP_UINT64_DATA};
  const size_t counts[] = {s.n_float, s.n_int32, s.n_int64, s.n_double, s.n_uint64};
  for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
    if (fields[k] != field && counts[k])
      return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                         "TensorProto: %zu values in %s, which data_type %s does not use (it "
                         "uses %s or raw_data)",
                         counts[k], tp_field_name(fields[k]), onnx_type_name((int)s.data_type),
                         tp_field_name(field));

  size_t count, nbytes;
  char shape_text[WNN_MAX_DIMS * 22 + 3];
  wnn_shape_str(shape_text, sizeof shape_text, s.ndim, s.dims);
  if (!wnn_shape_size(s.ndim, s.dims, elem, &count, &nbytes))
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE,
                       "TensorProto: dims %s of %s are too large: the byte size overflows",
                       shape_text, dtype_name);
  if (s.have_raw && typed)
    return wnn_cli_err(err, errcap, WNN_ERR_MALFORMED,
                       "TensorProto: both raw_data and %s hold values", tp_field_name(field));
  if (s.have_raw) {
    if (s.raw_len != nbytes)
      return wnn_cli_err(err, errcap, s.raw_len < nbytes ? WNN_ERR_TRUNCATED : WNN_ERR_SIZE,
                         "TensorProto: raw_data has %zu bytes, dims %s of %s need %zu",
                         s.raw_len, shape_text, dtype_name, nbytes);
  } else if (typed != count) {
    return wnn_cli_err(err, errcap, typed < count ? WNN_ERR_TRUNCATED : WNN_ERR_SIZE,
                       "TensorProto: %s has %zu values, dims %s say %zu", tp_field_name(field),
                       typed, shape_text, count);
  }

  void *buf = malloc(nbytes ? nbytes : 1);
  char *name = NULL;
  if (!buf)
    return wnn_cli_err(err, errcap, WNN_ERR_OUT_OF_MEMORY,
                       "out of memory for %zu bytes of TensorProto data", nbytes);
  if (s.have_name) {
    name = (char *)malloc(s.name_len + 1);
    if (!name) {
      free(buf);
      return wnn_cli_err(err, errcap, WNN_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (s.name_len) memcpy(name, s.name, s.name_len);
    name[s.name_len] = '\0';
  }
  if (s.have_raw) {
    if (nbytes) memcpy(buf, s.raw, nbytes);
  } else if (count) {
    st = tp_fill(b, size, field, (int)s.data_type, buf, err, errcap);
    if (st != WNN_OK) {
      free(buf);
      free(name);
      return st;
    }
  }
  memset(out, 0, sizeof *out);
  out->dtype = tp_types[t].dtype;
  out->dtype_name = dtype_name;
  out->elem_size = elem;
  out->ndim = s.ndim;
  memcpy(out->shape, s.dims, sizeof s.dims);
  out->count = count;
  out->nbytes = nbytes;
  out->data = buf;
  out->name = name;
  return WNN_OK;
}

/* ---------------------------------------------------------------- writing */

static size_t pb_put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  do {
    uint8_t c = (uint8_t)(v & 0x7f);
    v >>= 7;
    p[n++] = (uint8_t)(c | (v ? 0x80 : 0));
  } while (v);
  return n;
}

wnn_status wnn_tensorproto_encode(wnn_dtype dtype, int ndim, const int64_t *shape,
                                  const void *data, size_t nbytes, const char *name, void **out,
                                  size_t *out_size, char *err, size_t errcap) {
  int data_type = wnn_onnx_data_type(dtype);
  if (!data_type)
    return wnn_cli_err(err, errcap, WNN_ERR_DTYPE, "dtype %s has no ONNX data type",
                       wnn_dtype_name(dtype));
  if (ndim < 0 || ndim > WNN_MAX_DIMS || (ndim && !shape) || !out || !out_size ||
      (nbytes && !data))
    return wnn_cli_err(err, errcap, WNN_ERR_INVALID_ARGUMENT, "bad shape, data or output pointer");
  size_t count, need;
  if (!wnn_shape_size(ndim, shape, wnn_dtype_size(dtype), &count, &need))
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE, "shape too large to write");
  if (need != nbytes)
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE, "%zu bytes of data for a shape that needs %zu",
                       nbytes, need);
  size_t name_len = name ? strlen(name) : 0;
  size_t fixed = 1 + 10 + (size_t)ndim * 10 + 1 + 10 + 1 + 10 + 1 + 10;
  if (name_len > SIZE_MAX - fixed || nbytes > SIZE_MAX - fixed - name_len)
    return wnn_cli_err(err, errcap, WNN_ERR_SIZE, "tensor too large to write");
  uint8_t *buf = (uint8_t *)malloc(fixed + name_len + nbytes);
  if (!buf) return wnn_cli_err(err, errcap, WNN_ERR_OUT_OF_MEMORY, "out of memory writing .pb");
  size_t n = 0;
  if (ndim) {
    uint8_t packed[WNN_MAX_DIMS * 10];
    size_t plen = 0;
    for (int i = 0; i < ndim; i++) plen += pb_put_varint(packed + plen, (uint64_t)shape[i]);
    buf[n++] = TP_DIMS << 3 | PB_LEN;
    n += pb_put_varint(buf + n, plen);
    memcpy(buf + n, packed, plen);
    n += plen;
  }
  buf[n++] = TP_DATA_TYPE << 3 | PB_VARINT;
  n += pb_put_varint(buf + n, (uint64_t)data_type);
  if (name) {
    buf[n++] = TP_NAME << 3 | PB_LEN;
    n += pb_put_varint(buf + n, name_len);
    memcpy(buf + n, name, name_len);
    n += name_len;
  }
  buf[n++] = TP_RAW_DATA << 3 | PB_LEN;
  n += pb_put_varint(buf + n, nbytes);
  if (nbytes) memcpy(buf + n, data, nbytes);
  n += nbytes;
  *out = buf;
  *out_size = n;
  return WNN_OK;
}
