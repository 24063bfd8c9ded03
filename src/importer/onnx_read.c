/* ONNX ModelProto -> the importer's graph (onnx_read.h). */
#include "importer/onnx_read.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importer/contrib.h"
#include "importer/legacy.h"
#include "onnx.pb-c.h"

/* ONNX TensorProto.DataType numbers. */
enum {
  ONNX_FLOAT = 1, ONNX_UINT8 = 2, ONNX_INT8 = 3, ONNX_UINT16 = 4, ONNX_INT16 = 5, ONNX_INT32 = 6,
  ONNX_INT64 = 7, ONNX_STRING = 8, ONNX_BOOL = 9, ONNX_FLOAT16 = 10, ONNX_DOUBLE = 11
};

static const char *onnx_type_name(int t) {
  static const char *const names[] = {"UNDEFINED", "FLOAT",  "UINT8",      "INT8",      "UINT16",
                                      "INT16",     "INT32",  "INT64",      "STRING",    "BOOL",
                                      "FLOAT16",   "DOUBLE", "UINT32",     "UINT64",    "COMPLEX64",
                                      "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ",
                                      "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4",
                                      "FLOAT4E2M1", "FLOAT8E8M0"};
  return t >= 0 && t < (int)(sizeof names / sizeof names[0]) ? names[t] : "unknown";
}

/* The wnn dtype an ONNX type becomes inside the model (float16 and double
 * become float32; graph inputs and outputs declared float16 or double stay
 * float16 or float64 at the boundary, io_dtype in ir.h). */
static wnn_dtype dtype_of(int t) {
  switch (t) {
    case ONNX_FLOAT: case ONNX_FLOAT16: case ONNX_DOUBLE: return WNN_DTYPE_F32;
    case ONNX_UINT8: return WNN_DTYPE_U8;
    case ONNX_INT8: return WNN_DTYPE_I8;
    case ONNX_INT32: return WNN_DTYPE_I32;
    case ONNX_INT64: return WNN_DTYPE_I64;
    case ONNX_BOOL: return WNN_DTYPE_BOOL;
    default: return WNN_DTYPE_INVALID;
  }
}

/* Bytes per element in the file's raw_data. */
static size_t file_elem_size(int t) {
  switch (t) {
    case ONNX_FLOAT: case ONNX_INT32: return 4;
    case ONNX_UINT8: case ONNX_INT8: case ONNX_BOOL: return 1;
    case ONNX_FLOAT16: return 2;
    case ONNX_INT64: case ONNX_DOUBLE: return 8;
    default: return 0;
  }
}

float wnn_half_to_float(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
  float v;
  if (exp == 0) v = ldexpf((float)man, -24);
  else if (exp == 31) v = man ? NAN : INFINITY;
  else v = ldexpf((float)(man | 1024), exp - 25);
  return sign ? -v : v;
}

/* Element i of a little-endian raw buffer of ONNX type t, stored as dtype_of(t). */
static void convert_raw(int t, const uint8_t *src, size_t n, void *dst) {
  if (n == 0) return;
  switch (t) {
    case ONNX_FLOAT16:
      for (size_t i = 0; i < n; i++)
        ((float *)dst)[i] = wnn_half_to_float((uint16_t)(src[2 * i] | src[2 * i + 1] << 8));
      break;
    case ONNX_DOUBLE:
      for (size_t i = 0; i < n; i++) {
        double d;
        memcpy(&d, src + 8 * i, 8);
        ((float *)dst)[i] = (float)d;
      }
      break;
    case ONNX_BOOL:
      for (size_t i = 0; i < n; i++) ((uint8_t *)dst)[i] = src[i] != 0;
      break;
    default: memcpy(dst, src, n * file_elem_size(t)); break;
  }
}

static wnn_status read_external(wnn_ir_graph *g, const Onnx__TensorProto *t, const char *what,
                                const char *base_dir, size_t want, uint8_t **out) {
  const char *location = NULL;
  long long offset = 0, length = -1;
  for (size_t i = 0; i < t->n_external_data; i++) {
    const char *k = t->external_data[i]->key, *v = t->external_data[i]->value;
    if (!k || !v) continue;
    char *end;
    if (!strcmp(k, "location")) location = v;
    else if (!strcmp(k, "offset") || !strcmp(k, "length")) {
      long long x = strtoll(v, &end, 10);
      if (!*v || *end || x < 0)
        return wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "%s: external data %s '%s' is not a byte count",
                           what, k, v);
      if (!strcmp(k, "offset")) offset = x;
      else length = x;
    }
  }
  if (!location || !*location)
    return wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "%s: external data without a location", what);
  if (location[0] == '/' || strstr(location, ".."))
    return wnn_ir_fail(g, WNN_ERR_MALFORMED, false,
                       "%s: external data location '%s' must be a relative path inside the model's folder",
                       what, location);
  if (length >= 0 && (size_t)length != want)
    return wnn_ir_fail(g, WNN_ERR_MALFORMED, false,
                       "%s: external data length %lld, but its dims and type need %zu bytes", what,
                       length, want);
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", base_dir ? base_dir : ".", location) >= sizeof path)
    return wnn_ir_fail(g, WNN_ERR_IO, false, "%s: external data path too long", what);
  FILE *f = fopen(path, "rb");
  if (!f) return wnn_ir_fail(g, WNN_ERR_IO, false, "%s: cannot open external data file '%s'", what, path);
  /* The file must hold the bytes before any memory is taken for them. */
  long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (end < 0 || offset < 0 || (uint64_t)offset > (uint64_t)end ||
      want > (uint64_t)end - (uint64_t)offset) {
    fclose(f);
    return wnn_ir_fail(g, WNN_ERR_IO, false,
                       "%s: external data file '%s' holds %ld bytes; %zu are needed at offset %lld",
                       what, path, end, want, (long long)offset);
  }
  uint8_t *buf = malloc(want ? want : 1);
  size_t got = 0;
  if (buf && fseek(f, (long)offset, SEEK_SET) == 0) got = fread(buf, 1, want, f);
  fclose(f);
  if (!buf) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "%s: out of memory", what);
  if (got != want) {
    free(buf);
    return wnn_ir_fail(g, WNN_ERR_IO, false,
                       "%s: external data file '%s' holds %zu bytes at offset %lld, %zu needed",
                       what, path, got, offset, want);
  }
  *out = buf;
  return WNN_OK;
}

/* Decodes a TensorProto into 64-byte aligned memory (wnn_ir_alloc_data). */
static wnn_status read_tensor(wnn_ir_graph *g, const Onnx__TensorProto *t, const char *what,
                              const char *base_dir, wnn_dtype *dtype, int *ndim, int64_t *dims,
                              void **data, size_t *nbytes) {
  int type = t->has_data_type ? t->data_type : 0;
  wnn_dtype dt = dtype_of(type);
  if (dt == WNN_DTYPE_INVALID)
    return wnn_ir_fail(g, WNN_ERR_DTYPE, true, "%s: data type %s (%d) is not supported", what,
                       onnx_type_name(type), type);
  if (t->n_dims > WNN_MAX_DIMS)
    return wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true, "%s: %zu dims (at most %d)", what, t->n_dims,
                       WNN_MAX_DIMS);
  if (t->segment)
    return wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true, "%s: segmented tensors are not supported", what);
  for (size_t d = 0; d < t->n_dims; d++) {
    if (t->dims[d] < 0 || t->dims[d] > WNN_MAX_DIM)
      return wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "%s: dim %zu is %lld", what, d,
                         (long long)t->dims[d]);
    dims[d] = t->dims[d];
  }
  size_t out_bytes;
  wnn_status st = wnn_ir_check_bytes(g, NULL, what, (int)t->n_dims, dims, dt, &out_bytes);
  if (st) return st;
  size_t n = out_bytes / wnn_dtype_size(dt);
  size_t es = file_elem_size(type);
  /* The data the file holds must match the dims before anything is
   * allocated for them: a tiny file cannot claim gigabytes. */
  if (!(t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)) {
    size_t have = t->has_raw_data ? t->raw_data.len / (es ? es : 1) : 0;
    if (t->has_raw_data && t->raw_data.len != n * es)
      return wnn_ir_fail(g, WNN_ERR_MALFORMED, false,
                         "%s: raw_data holds %zu bytes, its dims and type need %zu", what,
                         t->raw_data.len, n * es);
    if (!t->has_raw_data) {
      switch (type) {
        case ONNX_FLOAT: have = t->n_float_data; break;
        case ONNX_INT64: have = t->n_int64_data; break;
        case ONNX_DOUBLE: have = t->n_double_data; break;
        default: have = t->n_int32_data; break;
      }
      if (have != n)
        return wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "%s: %zu values, its dims say %zu", what,
                           have, n);
    }
  }
  void *out = wnn_ir_alloc_data(out_bytes);
  if (!out) return wnn_ir_out_of_memory(g, NULL, what, out_bytes);
  if (t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) {
    uint8_t *raw = NULL;
    st = read_external(g, t, what, base_dir, n * es, &raw);
    if (!st) convert_raw(type, raw, n, out);
    free(raw);
  } else if (t->has_raw_data) {
    if (t->raw_data.len != n * es)
      st = wnn_ir_fail(g, WNN_ERR_MALFORMED, false,
                       "%s: raw_data holds %zu bytes, its dims and type need %zu", what,
                       t->raw_data.len, n * es);
    else convert_raw(type, t->raw_data.data, n, out);
  } else {
    size_t have;
    switch (type) {
      case ONNX_FLOAT: have = t->n_float_data; break;
      case ONNX_INT64: have = t->n_int64_data; break;
      case ONNX_DOUBLE: have = t->n_double_data; break;
      default: have = t->n_int32_data; break;
    }
    if (have != n) {
      st = wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "%s: %zu values, its dims say %zu", what, have, n);
    } else {
      for (size_t i = 0; i < n; i++) {
        switch (type) {
          case ONNX_FLOAT: ((float *)out)[i] = t->float_data[i]; break;
          case ONNX_DOUBLE: ((float *)out)[i] = (float)t->double_data[i]; break;
          case ONNX_FLOAT16: ((float *)out)[i] = wnn_half_to_float((uint16_t)t->int32_data[i]); break;
          case ONNX_INT64: ((int64_t *)out)[i] = t->int64_data[i]; break;
          case ONNX_INT32: ((int32_t *)out)[i] = t->int32_data[i]; break;
          case ONNX_INT8: ((int8_t *)out)[i] = (int8_t)t->int32_data[i]; break;
          case ONNX_UINT8: ((uint8_t *)out)[i] = (uint8_t)t->int32_data[i]; break;
          case ONNX_BOOL: ((uint8_t *)out)[i] = t->int32_data[i] != 0; break;
        }
      }
    }
  }
  if (st) {
    wnn_ir_free_data(out);
    return st;
  }
  *dtype = dt;
  *ndim = (int)t->n_dims;
  *data = out;
  *nbytes = out_bytes;
  return WNN_OK;
}

/* Stores a decoded tensor as value id's constant data (taking data over). */
static void adopt(wnn_ir_graph *g, int id, wnn_dtype dt, int ndim, const int64_t *dims, void *data,
                  size_t nbytes) {
  wnn_ir_value *v = &g->values[id];
  wnn_ir_free_data(v->data);
  v->data = data;
  v->nbytes = nbytes;
  v->known = true;
  v->dtype = dt;
  v->ndim = ndim;
  if (ndim) memcpy(v->dims, dims, (size_t)ndim * sizeof *dims);
}

/* A JSON number that may be NaN or infinite: cJSON_CreateNumber converts its
 * argument to int, which is undefined for NaN, so such a value is stored after
 * creation. The importer's passes read valuedouble (a -inf fill folds to its
 * constant); emit.c refuses one that would reach the artifact. */
static cJSON *json_number(double x) {
  if (isfinite(x)) return cJSON_CreateNumber(x);
  cJSON *j = cJSON_CreateNumber(0);
  if (j) j->valuedouble = x;
  return j;
}

/* A tensor attribute as {"dtype","shape","data"}. */
static wnn_status tensor_json(wnn_ir_graph *g, const Onnx__TensorProto *t, const char *what,
                              const char *base_dir, cJSON **out) {
  wnn_dtype dt;
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  void *data;
  size_t nbytes;
  wnn_status st = read_tensor(g, t, what, base_dir, &dt, &ndim, dims, &data, &nbytes);
  if (st) return st;
  size_t n = nbytes / wnn_dtype_size(dt);
  cJSON *o = cJSON_CreateObject(), *shape = cJSON_CreateArray(), *arr = cJSON_CreateArray();
  bool ok = o && shape && arr;
  ok = ok && cJSON_AddStringToObject(o, "dtype", wnn_dtype_name(dt));
  for (int d = 0; ok && d < ndim; d++) ok = cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)dims[d]));
  for (size_t i = 0; ok && i < n; i++) {
    double x = 0;
    switch (dt) {
      case WNN_DTYPE_F32: x = ((float *)data)[i]; break;
      case WNN_DTYPE_I64: x = (double)((int64_t *)data)[i]; break;
      case WNN_DTYPE_I32: x = ((int32_t *)data)[i]; break;
      case WNN_DTYPE_I8: x = ((int8_t *)data)[i]; break;
      default: x = ((uint8_t *)data)[i]; break;
    }
    ok = cJSON_AddItemToArray(arr, json_number(x));
  }
  wnn_ir_free_data(data);
  if (ok) {
    cJSON_AddItemToObject(o, "shape", shape);
    cJSON_AddItemToObject(o, "data", arr);
    *out = o;
    return WNN_OK;
  }
  cJSON_Delete(o);
  cJSON_Delete(shape);
  cJSON_Delete(arr);
  return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "%s: out of memory", what);
}

static cJSON *string_json(ProtobufCBinaryData s) {
  char *tmp = malloc(s.len + 1);
  if (!tmp) return NULL;
  if (s.len) memcpy(tmp, s.data, s.len);
  tmp[s.len] = '\0';
  cJSON *j = cJSON_CreateString(tmp);
  free(tmp);
  return j;
}

/* One attribute into attrs. */
/* Whether node x is an op whose graph attributes the importer reads. */
static bool has_subgraphs(const wnn_ir_node *x) {
  return !x->domain[0] &&
         (!strcmp(x->op_type, "If") || !strcmp(x->op_type, "Loop") || !strcmp(x->op_type, "Scan"));
}

static wnn_status attr_json(wnn_ir_graph *g, const wnn_ir_node *n, const Onnx__AttributeProto *a,
                            const char *base_dir, cJSON *attrs) {
  int type = a->has_type ? (int)a->type : 0;
  if (a->ref_attr_name && *a->ref_attr_name)
    return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                            "attribute '%s' refers to a function attribute", a->name);
  if (type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED) {
    /* Old files may leave the type unset: go by the field that is set. */
    if (a->n_floats) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
    else if (a->n_ints) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
    else if (a->n_strings) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
    else if (a->t) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
    else if (a->g) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
    else if (a->has_s) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    else if (a->has_f) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
    else if (a->has_i) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
  }
  cJSON *j = NULL;
  wnn_status st = WNN_OK;
  char what[512];
  snprintf(what, sizeof what, "node %d '%s' (%s) attribute '%s'", n->index, n->name, n->op_type,
           a->name);
  switch (type) {
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT: j = json_number(a->f); break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT: j = cJSON_CreateNumber((double)a->i); break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING: j = string_json(a->s); break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
      j = cJSON_CreateArray();
      for (size_t i = 0; j && i < a->n_floats; i++) cJSON_AddItemToArray(j, json_number(a->floats[i]));
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
      j = cJSON_CreateArray();
      for (size_t i = 0; j && i < a->n_ints; i++)
        cJSON_AddItemToArray(j, cJSON_CreateNumber((double)a->ints[i]));
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS:
      j = cJSON_CreateArray();
      for (size_t i = 0; j && i < a->n_strings; i++) cJSON_AddItemToArray(j, string_json(a->strings[i]));
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH:
      if (!has_subgraphs(n) || !a->g) goto unsupported;
      {
        const void **list = realloc(g->subgraphs, (size_t)(g->num_subgraphs + 1) * sizeof *list);
        if (!list) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "%s: out of memory", what);
        g->subgraphs = list;
        g->subgraphs[g->num_subgraphs] = a->g;
        j = cJSON_CreateObject();
        if (j && !cJSON_AddNumberToObject(j, "graph", g->num_subgraphs)) {
          cJSON_Delete(j);
          j = NULL;
        }
        g->num_subgraphs++;
      }
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR:
      if (!a->t) return wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "attribute '%s' has no tensor", a->name);
      st = tensor_json(g, a->t, what, base_dir, &j);
      if (st) return st;
      break;
    default:
    unsupported:
      return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                              "attribute '%s' of type %d (graph, sparse tensor or type) is not supported",
                              a->name, type);
  }
  if (!j || !cJSON_AddItemToObject(attrs, a->name, j)) {
    cJSON_Delete(j);
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "%s: out of memory", what);
  }
  return WNN_OK;
}

/* A Constant node: its value becomes the output's constant data. */
static wnn_status read_constant(wnn_ir_graph *g, const wnn_ir_node *n, const Onnx__NodeProto *np,
                                int out, const char *base_dir) {
  if (np->n_attribute != 1)
    return wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "has %zu attributes, expected 1",
                            np->n_attribute);
  const Onnx__AttributeProto *a = np->attribute[0];
  const char *name = a->name ? a->name : "";
  char what[512];
  snprintf(what, sizeof what, "node %d '%s' (Constant) attribute '%s'", n->index, n->name, name);
  if (!strcmp(name, "value") && a->t) {
    wnn_dtype dt;
    int ndim;
    int64_t dims[WNN_MAX_DIMS];
    void *data;
    size_t nbytes;
    wnn_status st = read_tensor(g, a->t, what, base_dir, &dt, &ndim, dims, &data, &nbytes);
    if (st) return st;
    adopt(g, out, dt, ndim, dims, data, nbytes);
    return WNN_OK;
  }
  if (!strcmp(name, "value_float")) return wnn_ir_set_const(g, out, WNN_DTYPE_F32, 0, NULL, &a->f);
  if (!strcmp(name, "value_int")) return wnn_ir_set_const(g, out, WNN_DTYPE_I64, 0, NULL, &a->i);
  if (!strcmp(name, "value_floats")) {
    int64_t d = (int64_t)a->n_floats;
    return wnn_ir_set_const(g, out, WNN_DTYPE_F32, 1, &d, a->floats);
  }
  if (!strcmp(name, "value_ints")) {
    int64_t d = (int64_t)a->n_ints;
    return wnn_ir_set_const(g, out, WNN_DTYPE_I64, 1, &d, a->ints);
  }
  return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                          "attribute '%s' is not supported (value, value_float(s) and value_int(s) are)",
                          name);
}

static void free_model(void *m) { onnx__model_proto__free_unpacked(m, NULL); }

static const wnn_import_shape *find_in(const wnn_import_shape *list, int count, const char *name) {
  for (int i = 0; list && i < count; i++)
    if (!strcmp(list[i].name, name)) return &list[i];
  return NULL;
}

static const wnn_import_shape *find_shape(const wnn_import_options *opt, const char *name) {
  return opt ? find_in(opt->shapes, opt->num_shapes, name) : NULL;
}

/* Dim d of graph input `name` is not fixed by the model: a dynamic dim of
 * the artifact named `dim_name`, whose default and max come from
 * --default-shape / --max-shape (docs/dynamic-shapes.md). Several inputs may
 * name one dim (input_ids and attention_mask share "seq"): they must agree.
 * Sets *size to the default. */
static wnn_status dynamic_dim(wnn_ir_graph *g, const wnn_import_options *opt, const char *name,
                              int ndim, int d, const char *dim_name, int *index, int64_t *size) {
  const wnn_import_shape *dflt = find_in(opt->default_shapes, opt->num_default_shapes, name);
  const wnn_import_shape *max = find_in(opt->max_shapes, opt->num_max_shapes, name);
  if (dflt && dflt->ndim != ndim)
    return wnn_ir_fail(g, WNN_ERR_SHAPE, false, "--default-shape %s: %d dims, but the model's input has %d",
                       name, dflt->ndim, ndim);
  if (max && max->ndim != ndim)
    return wnn_ir_fail(g, WNN_ERR_SHAPE, false, "--max-shape %s: %d dims, but the model's input has %d",
                       name, max->ndim, ndim);
  int64_t m = max ? max->dims[d] : 0;
  int64_t def = dflt ? dflt->dims[d] : m ? m : 1;
  if (def < 1 || (m && def > m))
    return wnn_ir_fail(g, WNN_ERR_SHAPE, false,
                       "input '%s': dim %d ('%s') would default to %lld%s; a dynamic dim's default "
                       "must be at least 1 and at most its --max-shape",
                       name, d, dim_name, (long long)def, m ? " past its --max-shape" : "");
  for (int i = 0; i < g->num_dims; i++) {
    if (strcmp(g->dims[i].name, dim_name)) continue;
    if (g->dims[i].default_size != def || g->dims[i].max_size != m)
      return wnn_ir_fail(g, WNN_ERR_SHAPE, false,
                         "input '%s': dim %d is '%s', which another input has with default %lld and "
                         "max %lld; here --default-shape/--max-shape give %lld and %lld",
                         name, d, dim_name, (long long)g->dims[i].default_size,
                         (long long)g->dims[i].max_size, (long long)def, (long long)m);
    *index = i;
    *size = def;
    return WNN_OK;
  }
  struct wnn_ir_dim *dims = realloc(g->dims, (size_t)(g->num_dims + 1) * sizeof *dims);
  if (!dims) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  g->dims = dims;
  if (!(dims[g->num_dims].name = wnn_ir_strdup(dim_name)))
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  dims[g->num_dims].default_size = def;
  dims[g->num_dims].max_size = m;
  *index = g->num_dims++;
  *size = def;
  return WNN_OK;
}

/* "[1,3,224,224]" into buf. */
static const char *shape_text(char *buf, size_t cap, int ndim, const int64_t *dims) {
  size_t used = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < ndim && used < cap; d++)
    used += (size_t)snprintf(buf + used, cap - used, d ? ",%lld" : "%lld", (long long)dims[d]);
  if (used < cap) snprintf(buf + used, cap - used, "]");
  return buf;
}

static const wnn_import_const *find_const(const wnn_import_options *opt, const char *name) {
  for (int i = 0; opt && i < opt->num_consts; i++)
    if (!strcmp(opt->consts[i].name, name)) return &opt->consts[i];
  return NULL;
}

/* Graph input `name` (declared dtype dt, declared shape tt->shape) frozen to
 * the caller's tensor c: checked against the declaration (and against
 * --shape, when both are given), then a constant, not a graph input. */
static wnn_status freeze_input(wnn_ir_graph *g, const char *name, wnn_dtype dt,
                               const Onnx__TypeProto__Tensor *tt, const wnn_import_shape *fixed,
                               const wnn_import_const *c) {
  char want[WNN_MAX_DIMS * 22 + 3], got[WNN_MAX_DIMS * 22 + 3];
  if (c->ndim < 0 || c->ndim > WNN_MAX_DIMS || (c->dtype != WNN_DTYPE_F16 && wnn_dtype_size(c->dtype) == 0))
    return wnn_ir_fail(g, WNN_ERR_INVALID_ARGUMENT, false, "--const %s: not a valid tensor", name);
  bool half = c->dtype == WNN_DTYPE_F16 && dt == WNN_DTYPE_F32;
  if (c->dtype != dt && !half)
    return wnn_ir_fail(g, WNN_ERR_DTYPE, false, "--const %s: graph input '%s' is %s, the tensor is %s",
                       name, name, wnn_dtype_name(dt), wnn_dtype_name(c->dtype));
  shape_text(got, sizeof got, c->ndim, c->dims);
  if (fixed) {
    bool same = fixed->ndim == c->ndim;
    for (int d = 0; same && d < c->ndim; d++) same = fixed->dims[d] == c->dims[d];
    if (!same)
      return wnn_ir_fail(g, WNN_ERR_SHAPE, false, "--const %s: the tensor's shape %s is not --shape %s",
                         name, got, shape_text(want, sizeof want, fixed->ndim, fixed->dims));
  }
  if (tt->shape) {
    bool same = tt->shape->n_dim == (size_t)c->ndim;
    for (int d = 0; same && d < c->ndim; d++) {
      const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[d];
      if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && dim->dim_value > 0)
        same = dim->dim_value == c->dims[d];
    }
    if (!same) {
      size_t used = 0;
      want[0] = '\0';
      for (size_t d = 0; d < tt->shape->n_dim && used + 24 < sizeof want; d++) {
        const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[d];
        if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && dim->dim_value > 0)
          used += (size_t)snprintf(want + used, sizeof want - used, "%s%lld", d ? "," : "[",
                                   (long long)dim->dim_value);
        else
          used += (size_t)snprintf(want + used, sizeof want - used, "%s?", d ? "," : "[");
      }
      snprintf(want + used, sizeof want - used, "%s", tt->shape->n_dim ? "]" : "[]");
      return wnn_ir_fail(g, WNN_ERR_SHAPE, false,
                         "--const %s: graph input '%s' is declared with shape %s, the tensor's is %s",
                         name, name, want, got);
    }
  }
  int id;
  wnn_status st = wnn_ir_add_value(g, name, &id);
  if (st) return st;
  if (!half) return wnn_ir_set_const(g, id, dt, c->ndim, c->dims, c->data);
  if ((st = wnn_ir_set_const(g, id, WNN_DTYPE_F32, c->ndim, c->dims, NULL))) return st;
  wnn_ir_value *v = &g->values[id];
  const uint16_t *h = c->data;
  float *f = v->data;
  for (int64_t i = 0, n = wnn_ir_numel(v); i < n; i++) f[i] = wnn_half_to_float(h[i]);
  return WNN_OK;
}

static wnn_status read_input(wnn_ir_graph *g, const Onnx__ValueInfoProto *vi,
                             const wnn_import_options *opt) {
  const char *name = vi->name ? vi->name : "";
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
    return wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true,
                       "graph input '%s' is not a tensor (sequences, maps and optionals are not supported)",
                       name);
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  int type = tt->has_elem_type ? tt->elem_type : 0;
  wnn_dtype dt = dtype_of(type);
  if (dt == WNN_DTYPE_INVALID)
    return wnn_ir_fail(g, WNN_ERR_DTYPE, true, "graph input '%s': data type %s (%d) is not supported",
                       name, onnx_type_name(type), type);
  const wnn_import_shape *fixed = find_shape(opt, name);
  const wnn_import_const *frozen = find_const(opt, name);
  if (frozen) return freeze_input(g, name, dt, tt, fixed, frozen);
  /* What a caller feeds keeps its dtype: float16 and double stay float16
   * and float64 at the boundary (emit.c converts to float32 after it). */
  int id;
  wnn_status st = wnn_ir_add_value(g, name, &id);
  if (st) return st;
  wnn_ir_value *v = &g->values[id];
  v->is_input = true;
  v->dtype = dt;
  v->io_dtype = type == ONNX_FLOAT16  ? WNN_DTYPE_F16
                : type == ONNX_DOUBLE ? WNN_DTYPE_F64
                                      : WNN_DTYPE_INVALID;
  v->known = true;
  if (fixed) {
    if (tt->shape && tt->shape->n_dim != (size_t)fixed->ndim)
      return wnn_ir_fail(g, WNN_ERR_SHAPE, false, "--shape %s: %d dims, but the model's input has %zu",
                         name, fixed->ndim, tt->shape->n_dim);
    for (int d = 0; d < fixed->ndim; d++) {
      const Onnx__TensorShapeProto__Dimension *dim = tt->shape ? tt->shape->dim[d] : NULL;
      if (dim && dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
          dim->dim_value > 0 && dim->dim_value != fixed->dims[d])
        return wnn_ir_fail(g, WNN_ERR_SHAPE, false,
                           "--shape %s: dim %d is %lld, but the model fixes it to %lld", name, d,
                           (long long)fixed->dims[d], (long long)dim->dim_value);
    }
    v->ndim = fixed->ndim;
    memcpy(v->dims, fixed->dims, sizeof fixed->dims);
  } else {
    if (!tt->shape)
      return wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true,
                         "graph input '%s' has no shape: give it with --shape %s=DIMS", name, name);
    if (tt->shape->n_dim > WNN_MAX_DIMS)
      return wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true, "graph input '%s' has %zu dims (at most %d)",
                         name, tt->shape->n_dim, WNN_MAX_DIMS);
    v->ndim = (int)tt->shape->n_dim;
    for (int d = 0; d < v->ndim; d++) {
      const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[d];
      if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && dim->dim_value > 0) {
        v->dims[d] = dim->dim_value;
        continue;
      }
      if (opt && !opt->fix_dims) {
        /* Stays dynamic, under its dim_param (or a name made up for it: some
         * exporters write "?" for every unknown dim, which must not make
         * them one dim). */
        char made[300];
        const bool named = dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
                           dim->dim_param && dim->dim_param[0] && strcmp(dim->dim_param, "?");
        const char *dim_name =
            named ? dim->dim_param : (snprintf(made, sizeof made, "%s_dim%d", name, d), made);
        st = dynamic_dim(g, opt, name, v->ndim, d, dim_name, &v->dims_of[d], &v->dims[d]);
        if (st) return st;
        v = &g->values[id];
        v->dyn_shape = true;
        continue;
      }
      v->dims[d] = 1;
      if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM)
        wnn_ir_warnf(g, "input '%s': dim %d is symbolic ('%s'); using 1 (set it with --shape %s=...)",
                     name, d, dim->dim_param, name);
      else if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
        wnn_ir_warnf(g, "input '%s': dim %d is %lld; using 1 (set it with --shape %s=...)", name, d,
                     (long long)dim->dim_value, name);
      else
        wnn_ir_warnf(g, "input '%s': dim %d is unknown; using 1 (set it with --shape %s=...)", name,
                     d, name);
    }
  }
  int *in = realloc(g->inputs, (size_t)(g->num_inputs + 1) * sizeof *in);
  if (!in) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  g->inputs = in;
  g->inputs[g->num_inputs++] = id;
  return WNN_OK;
}

/* The value a name in a branch refers to: scope (NULL outside branches)
 * maps the branch's renamed names to the graph's. */
static int find_scoped(const wnn_ir_graph *g, const cJSON *scope, const char *name) {
  const cJSON *r = scope && name ? cJSON_GetObjectItemCaseSensitive(scope, name) : NULL;
  return wnn_ir_find(g, cJSON_IsString(r) ? r->valuestring : name);
}

/* A new value for name `name` defined in a branch: under that name when no
 * value has it yet, else under "name:1", "name:2", ... (If's two branches may
 * use the same names; an outer name may be shadowed), recorded in scope. */
static wnn_status add_scoped(wnn_ir_graph *g, cJSON *scope, const char *name, int *id) {
  if (!scope || !name || !*name || wnn_ir_find(g, name) < 0) return wnn_ir_add_value(g, name, id);
  size_t cap = strlen(name) + 24;
  char *fresh = malloc(cap);
  if (!fresh) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  for (int k = 1;; k++) {
    snprintf(fresh, cap, "%s:%d", name, k);
    if (wnn_ir_find(g, fresh) < 0) break;
  }
  wnn_status st = wnn_ir_add_value(g, fresh, id);
  cJSON *r = st ? NULL : cJSON_CreateString(fresh);
  free(fresh);
  if (st) return st;
  cJSON_DeleteItemFromObjectCaseSensitive(scope, name);
  if (!r || !cJSON_AddItemToObject(scope, name, r)) {
    cJSON_Delete(r);
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  }
  return WNN_OK;
}

/* Node np of a graph: its position `index` there for messages (an If's for
 * the nodes of its branches), and for the map its own position src_index in
 * its graph and the branch it is in (origin, NULL for the main graph). */
static wnn_status read_node(wnn_ir_graph *g, const Onnx__NodeProto *np, int index,
                            const char *base_dir, cJSON *scope, int src_index,
                            const char *origin) {
  const char *op_type = np->op_type ? np->op_type : "";
  const char *domain = np->domain ? np->domain : "";
  if (!strcmp(domain, "ai.onnx")) domain = "";
  wnn_ir_node tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.op_type = (char *)op_type;
  tmp.domain = (char *)domain;
  tmp.name = np->name ? np->name : (char *)"";
  tmp.index = index;
  if (*domain && !wnn_contrib_handles(domain, op_type))
    return wnn_ir_node_fail(g, &tmp, WNN_ERR_UNKNOWN_OP, true,
                            "domain '%s' is not supported (only the default ONNX domain is, and "
                            "the com.microsoft ops listed in docs/importer.md)", domain);
  size_t ni = np->n_input, no = np->n_output;
  while (ni && (!np->input[ni - 1] || !*np->input[ni - 1])) ni--;
  while (no && (!np->output[no - 1] || !*np->output[no - 1])) no--;
  if (ni > WNN_MAX_IO || no > WNN_MAX_IO)
    return wnn_ir_node_fail(g, &tmp, WNN_ERR_UNSUPPORTED, true,
                            "%zu inputs and %zu outputs (at most %d each)", ni, no, WNN_MAX_IO);
  int inputs[WNN_MAX_IO], outputs[WNN_MAX_IO];
  for (size_t k = 0; k < ni; k++) {
    const char *s = np->input[k];
    if (!s || !*s) {
      inputs[k] = -1;
      continue;
    }
    inputs[k] = find_scoped(g, scope, s);
    if (inputs[k] < 0)
      return wnn_ir_node_fail(g, &tmp, WNN_ERR_MALFORMED, false,
                              "input %zu '%s' is no graph input, initializer or output of an earlier node",
                              k, s);
  }
  for (size_t k = 0; k < no; k++) {
    const char *s = np->output[k];
    wnn_status st = add_scoped(g, scope, s && *s ? s : NULL, &outputs[k]);
    if (st) {
      char why[sizeof g->msg];
      memcpy(why, g->msg, sizeof why);
      return wnn_ir_node_fail(g, &tmp, st, false, "output %zu: %s", k, why);
    }
  }
  if (!strcmp(op_type, "Constant")) {
    if (no != 1)
      return wnn_ir_node_fail(g, &tmp, WNN_ERR_MALFORMED, false, "has %zu outputs, expected 1", no);
    wnn_status st = read_constant(g, &tmp, np, outputs[0], base_dir);
    int s = st ? -1 : wnn_ir_src_add(g, tmp.name, op_type, src_index, origin);
    if (s >= 0) wnn_ir_src_union(g, &g->values[outputs[0]].src, &g->values[outputs[0]].num_src, &s, 1);
    return st;
  }
  cJSON *attrs = cJSON_CreateObject();
  if (!attrs) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  for (size_t i = 0; i < np->n_attribute; i++) {
    wnn_status st = attr_json(g, &tmp, np->attribute[i], base_dir, attrs);
    if (st) {
      cJSON_Delete(attrs);
      return st;
    }
  }
  int id;
  wnn_status st = wnn_ir_add_node(g, -1, op_type, domain, tmp.name, index, inputs, (int)ni, outputs,
                                  (int)no, attrs, &id);
  if (st) return st;
  int s = wnn_ir_src_add(g, tmp.name, op_type, src_index, origin);
  if (s >= 0) wnn_ir_src_union(g, &g->nodes[id].src, &g->nodes[id].num_src, &s, 1);
  return wnn_legacy_rewrite(g, id);
}

/* An initializer's provenance: itself. */
static void initializer_src(wnn_ir_graph *g, int v, const char *name, const char *origin) {
  int s = wnn_ir_src_add(g, name, NULL, -1, origin);
  if (s >= 0) wnn_ir_src_union(g, &g->values[v].src, &g->values[v].num_src, &s, 1);
}

wnn_status wnn_onnx_read(wnn_ir_graph *g, const void *data, size_t size,
                         const wnn_import_options *opt) {
  Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, size, (const uint8_t *)data);
  if (!m)
    return wnn_ir_fail(g, WNN_ERR_MALFORMED, false,
                       "not an ONNX model (the bytes do not decode as an onnx.ModelProto)");
  wnn_status st = WNN_OK;
  const char *base_dir = opt && opt->base_dir ? opt->base_dir : ".";
  const Onnx__GraphProto *gp = m->graph;
  int opset = -1;
  for (size_t i = 0; i < m->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = m->opset_import[i];
    if (!o->domain || !*o->domain || !strcmp(o->domain, "ai.onnx"))
      opset = o->has_version ? (int)o->version : 1;
  }
  if (!gp) st = wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "the model has no graph");
  else if (opset == 0 || opset > WNN_IR_OPSET_MAX)
    st = wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true, "opset %d is not supported (1 to %d are)", opset,
                     WNN_IR_OPSET_MAX);
  if (!st) g->opset = opset < 0 ? WNN_IR_OPSET_MAX : opset;

  for (size_t i = 0; !st && i < gp->n_initializer; i++) {
    const Onnx__TensorProto *t = gp->initializer[i];
    const char *name = t->name ? t->name : "";
    char what[300];
    snprintf(what, sizeof what, "initializer '%s'", name);
    wnn_dtype dt;
    int ndim, id;
    int64_t dims[WNN_MAX_DIMS];
    void *bytes;
    size_t nbytes;
    st = read_tensor(g, t, what, base_dir, &dt, &ndim, dims, &bytes, &nbytes);
    if (st) break;
    if ((st = wnn_ir_add_value(g, name, &id))) {
      wnn_ir_free_data(bytes);
      break;
    }
    adopt(g, id, dt, ndim, dims, bytes, nbytes);
    initializer_src(g, id, name, NULL);
  }
  for (size_t i = 0; !st && gp && i < gp->n_sparse_initializer; i++)
    st = wnn_ir_fail(g, WNN_ERR_UNSUPPORTED, true, "sparse initializers are not supported");
  /* Initializers are read: a --const naming one is not about a graph input. */
  for (int s = 0; !st && opt && s < opt->num_consts; s++)
    if (wnn_ir_find(g, opt->consts[s].name) >= 0)
      st = wnn_ir_fail(g, WNN_ERR_NOT_FOUND, false,
                       "--const %s: '%s' is an initializer, not a graph input (it is constant already)",
                       opt->consts[s].name, opt->consts[s].name);
  for (size_t i = 0; !st && i < gp->n_input; i++) {
    const char *name = gp->input[i]->name ? gp->input[i]->name : "";
    if (wnn_ir_find(g, name) >= 0) continue; /* an initializer: a param */
    st = read_input(g, gp->input[i], opt);
  }
  for (int s = 0; !st && opt && s < opt->num_consts; s++)
    if (wnn_ir_find(g, opt->consts[s].name) < 0)
      st = wnn_ir_fail(g, WNN_ERR_NOT_FOUND, false, "--const %s: the model has no input named '%s'",
                       opt->consts[s].name, opt->consts[s].name);
  for (int s = 0; !st && opt && s < opt->num_shapes; s++) {
    int id = wnn_ir_find(g, opt->shapes[s].name);
    if (find_const(opt, opt->shapes[s].name)) continue; /* checked against the tensor */
    if (id < 0 || !g->values[id].is_input)
      st = wnn_ir_fail(g, WNN_ERR_NOT_FOUND, false, "--shape %s: the model has no input named '%s'",
                       opt->shapes[s].name, opt->shapes[s].name);
  }
  for (size_t i = 0; !st && i < gp->n_node; i++)
    st = read_node(g, gp->node[i], (int)i, base_dir, NULL, (int)i, NULL);
  for (size_t i = 0; !st && i < gp->n_output; i++) {
    const char *name = gp->output[i]->name ? gp->output[i]->name : "";
    int id = wnn_ir_find(g, name);
    if (id < 0) {
      st = wnn_ir_fail(g, WNN_ERR_MALFORMED, false,
                       "graph output '%s' is no graph input, initializer or node output", name);
      break;
    }
    /* The declared type, when there is one: float16 and double stay float16
     * and float64 for the caller (emit.c converts before it), as for inputs. */
    const Onnx__TypeProto *tp = gp->output[i]->type;
    int type = tp && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && tp->tensor_type &&
                       tp->tensor_type->has_elem_type
                   ? tp->tensor_type->elem_type
                   : 0;
    /* (A graph input's own declaration decides for it.) */
    if ((type == ONNX_FLOAT16 || type == ONNX_DOUBLE) && !g->values[id].is_input)
      g->values[id].io_dtype = type == ONNX_FLOAT16 ? WNN_DTYPE_F16 : WNN_DTYPE_F64;
    int *out = realloc(g->outputs, (size_t)(g->num_outputs + 1) * sizeof *out);
    if (!out) {
      st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
      break;
    }
    g->outputs = out;
    g->outputs[g->num_outputs++] = id;
  }
  if (!st && gp->n_output == 0) st = wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "the graph has no outputs");
  /* If's branches point into the model: the graph keeps it. */
  g->proto = m;
  g->free_proto = free_model;
  g->base_dir = base_dir;
  return st;
}

/* "then_branch of If node 3 'if'" (and ", in the <origin of the If>"), malloc'd. */
static char *branch_origin(const wnn_ir_node *n, const char *which) {
  size_t len = strlen(which) + strlen(n->name) + (n->origin ? strlen(n->origin) : 0) + 64;
  char *s = malloc(len);
  if (s)
    snprintf(s, len, "%s of If node %d '%s'%s%s", which, n->index, n->name,
             n->origin ? ", in the " : "", n->origin ? n->origin : "");
  return s;
}


/* Reads the initializers of graph gp (a branch or a body; origin names it)
 * as constants named through scope. */
static wnn_status append_initializers(wnn_ir_graph *g, const Onnx__GraphProto *gp,
                                      const char *origin, cJSON *scope) {
  const char *base_dir = g->base_dir ? g->base_dir : ".";
  wnn_status st = WNN_OK;
  for (size_t i = 0; !st && i < gp->n_initializer; i++) {
    const Onnx__TensorProto *t = gp->initializer[i];
    char what[300];
    snprintf(what, sizeof what, "the %s initializer '%s'", origin, t->name ? t->name : "");
    wnn_dtype dt;
    int ndim, v;
    int64_t dims[WNN_MAX_DIMS];
    void *bytes;
    size_t nbytes;
    st = read_tensor(g, t, what, base_dir, &dt, &ndim, dims, &bytes, &nbytes);
    if (st) break;
    if ((st = add_scoped(g, scope, t->name, &v))) {
      wnn_ir_free_data(bytes);
      break;
    }
    adopt(g, v, dt, ndim, dims, bytes, nbytes);
    initializer_src(g, v, t->name ? t->name : "", origin);
  }
  return st;
}

/* Appends the nodes of graph gp (a branch or a body, its initializers read
 * already) at the end of g->nodes, names resolved and defined through scope;
 * every node gets parent's guards, then [guard, expect] when guard >= 0,
 * origin, and rt_branch; an If, Loop or Scan among them gets the scope for
 * its own graphs. Writes the values of gp's outputs to outs. */
static wnn_status append_nodes(wnn_ir_graph *g, const wnn_ir_node *parent, const Onnx__GraphProto *gp,
                               const char *origin, cJSON *scope, int guard, bool expect,
                               const char *rt_branch, int *outs) {
  const char *base_dir = g->base_dir ? g->base_dir : ".";
  wnn_status st = WNN_OK;
  int first = g->num_nodes;
  for (size_t i = 0; !st && i < gp->n_node; i++)
    st = read_node(g, gp->node[i], parent->index, base_dir, scope, (int)i, origin);
  for (int i = first; !st && i < g->num_nodes; i++) {
    wnn_ir_node *x = &g->nodes[i];
    x->num_guards = parent->num_guards;
    memcpy(x->guards, parent->guards, sizeof x->guards);
    memcpy(x->guard_expect, parent->guard_expect, sizeof x->guard_expect);
    if (guard >= 0) {
      x->guards[x->num_guards] = guard;
      x->guard_expect[x->num_guards++] = expect;
    }
    x->origin = wnn_ir_strdup(origin);
    x->rt_branch = wnn_ir_strdup(rt_branch);
    if (has_subgraphs(x) && !(x->scope = cJSON_Duplicate(scope, 1)))
      st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  }
  for (size_t k = 0; !st && k < gp->n_output; k++) {
    const char *name = gp->output[k]->name ? gp->output[k]->name : "";
    outs[k] = find_scoped(g, scope, name);
    if (outs[k] < 0)
      st = wnn_ir_fail(g, WNN_ERR_MALFORMED, false, "the %s: output '%s' is never computed",
                       origin, name);
  }
  return st;
}

/* Appends the initializers and nodes of branch `branch` (g->subgraphs; `which`
 * names it: "then_branch" or "else_branch") of If node id at the end of
 * g->nodes, and writes the values of the branch's outputs to outs. Names are
 * resolved through the If's scope; a name the graph has already (the other
 * branch's, or an outer one shadowed) is renamed. Every node read gets the
 * If's guards, then [guard, expect] when guard >= 0, and the branch as its
 * origin; an If among them gets the scope for its own branches. */
static wnn_status append_branch(wnn_ir_graph *g, int id, int branch, const char *which, int guard,
                                bool expect, int *outs) {
  const Onnx__GraphProto *gp = g->subgraphs[branch];
  const wnn_ir_node *n = &g->nodes[id];
  if (gp->n_output != (size_t)n->num_outputs)
    return wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "the %s has %zu outputs, the If %d",
                            which, gp->n_output, n->num_outputs);
  /* What the If gives its branch's nodes: copied, since g->nodes moves. */
  wnn_ir_node parent = *n;
  if (parent.num_guards + (guard >= 0) > WNN_MAX_GUARDS)
    return wnn_ir_node_fail(g, n, WNN_ERR_UNSUPPORTED, true,
                            "Ifs with run-time conditions are nested more than %d deep",
                            WNN_MAX_GUARDS);
  char *origin = branch_origin(n, which);
  cJSON *scope = n->scope ? cJSON_Duplicate(n->scope, 1) : cJSON_CreateObject();
  if (!origin || !scope) {
    free(origin);
    cJSON_Delete(scope);
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  }
  wnn_status st = append_initializers(g, gp, origin, scope);
  if (!st)
    st = append_nodes(g, &parent, gp, origin, scope, guard, expect,
                      guard >= 0 ? origin : parent.rt_branch, outs);
  free(origin);
  cJSON_Delete(scope);
  return st;
}

/* Gives node x the guards of node from. */
static void copy_guards(wnn_ir_node *x, const wnn_ir_node *from) {
  x->num_guards = from->num_guards;
  memcpy(x->guards, from->guards, sizeof x->guards);
  memcpy(x->guard_expect, from->guard_expect, sizeof x->guard_expect);
}

/* Moves nodes [first, g->num_nodes) to just before node id, then recounts. */
static wnn_status move_before(wnn_ir_graph *g, int id, int first) {
  int added = g->num_nodes - first;
  wnn_ir_node *moved = malloc((size_t)(added ? added : 1) * sizeof *moved);
  if (!moved) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  memcpy(moved, &g->nodes[first], (size_t)added * sizeof *moved);
  memmove(&g->nodes[id + added], &g->nodes[id], (size_t)(first - id) * sizeof *moved);
  memcpy(&g->nodes[id], moved, (size_t)added * sizeof *moved);
  free(moved);
  wnn_ir_count_readers(g);
  return WNN_OK;
}

/* Copies branch `branch` of If node id into the graph before it: the
 * branch's initializers and nodes, then an Identity from each branch output
 * to the If's output, all under the If's own guards. The If node dies. */
wnn_status wnn_onnx_inline_branch(wnn_ir_graph *g, int id, int branch) {
  const cJSON *then_b = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(g->nodes[id].attrs, "then_branch"), "graph");
  const char *which = cJSON_IsNumber(then_b) && then_b->valueint == branch ? "then_branch" : "else_branch";
  int outs[WNN_MAX_IO];
  int first = g->num_nodes;
  wnn_status st = append_branch(g, id, branch, which, -1, false, outs);
  for (int k = 0; !st && k < g->nodes[id].num_outputs; k++) {
    wnn_ir_node *n = &g->nodes[id];
    char if_name[256];
    snprintf(if_name, sizeof if_name, "%s", n->name);
    int dst = n->outputs[k], at;
    st = wnn_ir_add_node(g, -1, "Identity", "", if_name, n->index, &outs[k], 1, &dst, 1, NULL, &at);
    if (!st) copy_guards(&g->nodes[at], &g->nodes[id]);
    if (!st) wnn_ir_node_absorb(g, at, id);
  }
  if (st) return st;
  g->nodes[id].dead = true;
  return move_before(g, id, first);
}

/* Whether branch `which` of If node n is in g->pruned. */
static bool pruned(const wnn_ir_graph *g, const wnn_ir_node *n, const char *which) {
  char *origin = branch_origin(n, which);
  bool found = false;
  for (int i = 0; origin && !found && i < g->num_pruned; i++) found = !strcmp(g->pruned[i], origin);
  free(origin);
  return found;
}

/* If node id with one branch pruned: the other under [cond, expect], then an
 * Identity to each If output under the same guards, so that a run whose
 * condition selects the pruned branch leaves the outputs unwritten, which the
 * executor reports. */
static wnn_status inline_one_branch(wnn_ir_graph *g, int id, int branch, const char *which,
                                    bool expect) {
  int cond = g->nodes[id].inputs[0], outs[WNN_MAX_IO];
  int first = g->num_nodes;
  wnn_status st = append_branch(g, id, branch, which, cond, expect, outs);
  if (st) return st;
  char *origin = branch_origin(&g->nodes[id], which);
  if (!origin) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  for (int k = 0; !st && k < g->nodes[id].num_outputs; k++) {
    char if_name[256];
    snprintf(if_name, sizeof if_name, "%s", g->nodes[id].name);
    int dst = g->nodes[id].outputs[k], at;
    st = wnn_ir_add_node(g, -1, "Identity", "", if_name, g->nodes[id].index, &outs[k], 1, &dst, 1,
                         NULL, &at);
    if (st) break;
    wnn_ir_node_absorb(g, at, id);
    wnn_ir_node *x = &g->nodes[at];
    copy_guards(x, &g->nodes[id]);
    x->guards[x->num_guards] = cond;
    x->guard_expect[x->num_guards++] = expect;
    x->origin = wnn_ir_strdup(origin);
    x->rt_branch = wnn_ir_strdup(origin);
  }
  free(origin);
  if (st) return st;
  g->nodes[id].dead = true;
  return move_before(g, id, first);
}

wnn_status wnn_onnx_inline_if(wnn_ir_graph *g, int id, int then_branch, int else_branch) {
  bool no_then = pruned(g, &g->nodes[id], "then_branch");
  bool no_else = pruned(g, &g->nodes[id], "else_branch");
  if (no_then && no_else)
    return wnn_ir_node_fail(g, &g->nodes[id], WNN_ERR_UNSUPPORTED, true,
                            "neither branch can be compiled for these input shapes");
  if (no_then) return inline_one_branch(g, id, else_branch, "else_branch", false);
  if (no_else) return inline_one_branch(g, id, then_branch, "then_branch", true);
  int cond = g->nodes[id].inputs[0];
  int touts[WNN_MAX_IO], eouts[WNN_MAX_IO];
  int first = g->num_nodes;
  wnn_status st = append_branch(g, id, then_branch, "then_branch", cond, true, touts);
  if (!st) st = append_branch(g, id, else_branch, "else_branch", cond, false, eouts);
  if (st) return st;
  char if_name[256];
  snprintf(if_name, sizeof if_name, "%s", g->nodes[id].name);
  int index = g->nodes[id].index, c = cond, at;
  if (g->values[cond].ndim > 0) {
    /* A [1] condition would broadcast a scalar output to [1]: Squeeze it (an
     * alias, no copy). */
    if ((st = wnn_ir_add_value(g, NULL, &c))) return st;
    if ((st = wnn_ir_add_node(g, -1, "Squeeze", "", if_name, index, &cond, 1, &c, 1, NULL, &at)))
      return st;
    copy_guards(&g->nodes[at], &g->nodes[id]);
    wnn_ir_node_absorb(g, at, id);
  }
  for (int k = 0; !st && k < g->nodes[id].num_outputs; k++) {
    int ins[3] = {c, touts[k], eouts[k]}, dst = g->nodes[id].outputs[k];
    st = wnn_ir_add_node(g, -1, "Where", "", if_name, index, ins, 3, &dst, 1, NULL, &at);
    if (st) break;
    wnn_ir_node_absorb(g, at, id);
    wnn_ir_node *w = &g->nodes[at];
    copy_guards(w, &g->nodes[id]);
    w->if_merge = true;
    w->origin = wnn_ir_strdup(g->nodes[id].origin);
    w->rt_branch = wnn_ir_strdup(g->nodes[id].rt_branch);
  }
  if (st) return st;
  g->nodes[id].dead = true;
  return move_before(g, id, first);
}

/* ---- Loop and Scan, unrolled (docs/importer.md, "Loop and Scan") ---- */

/* At most this many iterations, and this many nodes read from a body in
 * all, per Loop or Scan. */
#define UNROLL_MAX_ITERATIONS 4096
#define UNROLL_MAX_NODES 65536

typedef struct unroll {
  wnn_ir_graph *g;
  int id;             /* the Loop or Scan */
  wnn_ir_node parent; /* a copy of it: g->nodes moves */
  char origin[512];   /* "body of Loop node 3 'x'" (and where it is) */
  char tag[300];      /* a prefix for the names of new values */
  int fresh;          /* names made so far */
} unroll;

/* out = op(ins), appended, with the Loop's guards and provenance; an
 * outs[k] < 0 becomes a fresh value. attrs is taken over. */
static wnn_status unroll_node(unroll *u, const char *op, const int *ins, int nin, int *outs,
                              int nout, cJSON *attrs) {
  wnn_ir_graph *g = u->g;
  wnn_status st = wnn_ir_fresh_values(g, outs, nout);
  if (st) {
    cJSON_Delete(attrs);
    return st;
  }
  int at;
  st = wnn_ir_add_node(g, -1, op, "", u->parent.name, u->parent.index, ins, nin, outs,
                                  nout, attrs, &at);
  if (st) return st;
  wnn_ir_node_absorb(g, at, u->id);
  wnn_ir_node *x = &g->nodes[at];
  copy_guards(x, &u->parent);
  x->rewritten = true;
  if ((u->parent.origin && !(x->origin = wnn_ir_strdup(u->parent.origin))) ||
      (u->parent.rt_branch && !(x->rt_branch = wnn_ir_strdup(u->parent.rt_branch))))
    return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  return WNN_OK;
}

/* A named constant (bodies bind their inputs by name). */
static wnn_status unroll_const(unroll *u, wnn_dtype dt, int ndim, const int64_t *dims,
                               const void *data, int *id) {
  char name[400];
  do snprintf(name, sizeof name, "%s:%d", u->tag, u->fresh++);
  while (wnn_ir_find(u->g, name) >= 0);
  return wnn_ir_add_const(u->g, name, dt, ndim, dims, data, id);
}

/* Body input `name` is value v in this iteration: an Identity into a value
 * of that name in scope (an alias at run time). */
static wnn_status bind(unroll *u, cJSON *scope, const char *name, int v) {
  int named;
  wnn_status st = add_scoped(u->g, scope, name, &named);
  return st ? st : unroll_node(u, "Identity", &v, 1, &named, 1, NULL);
}

/* One iteration of body gp (its initializers, read once, named in inits):
 * binds its inputs to values ins, reads its nodes, writes its outputs'
 * values to outs. */
static wnn_status unroll_iteration(unroll *u, const Onnx__GraphProto *gp, const cJSON *inits,
                                   const int *ins, int iteration, int *outs) {
  wnn_ir_graph *g = u->g;
  cJSON *scope = u->parent.scope ? cJSON_Duplicate(u->parent.scope, 1) : cJSON_CreateObject();
  if (!scope) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  const cJSON *e;
  wnn_status st = WNN_OK;
  cJSON_ArrayForEach(e, inits) {
    cJSON_DeleteItemFromObjectCaseSensitive(scope, e->string);
    if (!cJSON_AddStringToObject(scope, e->string, e->valuestring)) {
      st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
      break;
    }
  }
  for (size_t k = 0; !st && k < gp->n_input; k++)
    st = bind(u, scope, gp->input[k]->name ? gp->input[k]->name : "", ins[k]);
  char origin[600];
  snprintf(origin, sizeof origin, "%s, iteration %d", u->origin, iteration);
  if (!st) st = append_nodes(g, &u->parent, gp, origin, scope, -1, false, u->parent.rt_branch, outs);
  cJSON_Delete(scope);
  return st;
}

/* The body's initializers, read once for every iteration: {name in the body:
 * value name}. */
static wnn_status unroll_initializers(unroll *u, const Onnx__GraphProto *gp, cJSON **inits) {
  cJSON *scope = u->parent.scope ? cJSON_Duplicate(u->parent.scope, 1) : cJSON_CreateObject();
  *inits = cJSON_CreateObject();
  if (!scope || !*inits) {
    cJSON_Delete(scope);
    return wnn_ir_fail(u->g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  }
  wnn_status st = append_initializers(u->g, gp, u->origin, scope);
  for (size_t i = 0; !st && i < gp->n_initializer; i++) {
    const char *name = gp->initializer[i]->name ? gp->initializer[i]->name : "";
    const int v = find_scoped(u->g, scope, name);
    if (v < 0 || !cJSON_AddStringToObject(*inits, name, u->g->values[v].name))
      st = wnn_ir_fail(u->g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  }
  cJSON_Delete(scope);
  return st;
}

/* out = the n values in `parts` stacked on a new axis `axis` (Unsqueeze, then
 * Concat in groups of WNN_MAX_IO). */
static wnn_status stack(unroll *u, const int *parts, int n, int64_t axis, int out) {
  wnn_ir_graph *g = u->g;
  int *level = malloc((size_t)(n ? n : 1) * sizeof *level);
  if (!level) return wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  const int64_t one = 1;
  int c_axis;
  wnn_status st = unroll_const(u, WNN_DTYPE_I64, 1, &one, &axis, &c_axis);
  for (int i = 0; !st && i < n; i++) {
    int ins[2] = {parts[i], c_axis};
    level[i] = -1;
    st = unroll_node(u, "Unsqueeze", ins, 2, &level[i], 1, NULL);
  }
  while (!st) {
    const bool last = n <= WNN_MAX_IO;
    int groups = 0;
    for (int i = 0; !st && i < n; i += WNN_MAX_IO) {
      const int count = n - i < WNN_MAX_IO ? n - i : WNN_MAX_IO;
      int dst = last ? out : -1;
      cJSON *a = cJSON_CreateObject();
      if (!a || !cJSON_AddNumberToObject(a, "axis", (double)axis)) {
        cJSON_Delete(a);
        st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
        break;
      }
      st = unroll_node(u, "Concat", &level[i], count, &dst, 1, a);
      level[groups++] = dst;
    }
    if (last) break;
    n = groups;
  }
  free(level);
  return st;
}

/* The one element of constant value v as an int64 (a bool, an integer); false
 * when v is not a one-element constant. */
static bool const_scalar(const wnn_ir_graph *g, int v, int64_t *out) {
  if (v < 0 || !g->values[v].known || !g->values[v].data || g->values[v].dyn_data ||
      wnn_ir_numel(&g->values[v]) != 1)
    return false;
  const void *d = g->values[v].data;
  switch (g->values[v].dtype) {
    case WNN_DTYPE_I64: *out = *(const int64_t *)d; return true;
    case WNN_DTYPE_I32: *out = *(const int32_t *)d; return true;
    case WNN_DTYPE_BOOL: case WNN_DTYPE_U8: *out = *(const uint8_t *)d; return true;
    case WNN_DTYPE_I8: *out = *(const int8_t *)d; return true;
    default: return false;
  }
}

/* Fails the unroll of a Loop or Scan naming why, with the graph inputs behind
 * value v (when it is not constant) to freeze. */
static wnn_status unroll_refuse(unroll *u, int v, const char *why) {
  char hint[700] = "";
  if (v >= 0 && !u->g->values[v].data) wnn_ir_const_hint(u->g, v, hint, sizeof hint);
  return wnn_ir_node_fail(u->g, &u->g->nodes[u->id], WNN_ERR_UNSUPPORTED, true, "%s%s%s", why,
                          hint[0] ? ": it comes from " : "", hint);
}

/* Refuses `iterations` of body gp when they exceed the limits. */
static wnn_status check_size(unroll *u, const Onnx__GraphProto *gp, int64_t iterations) {
  if (iterations <= UNROLL_MAX_ITERATIONS && (int64_t)gp->n_node * iterations <= UNROLL_MAX_NODES)
    return WNN_OK;
  char why[200];
  snprintf(why, sizeof why, "unrolling %lld iterations of a %zu-node body is too large (at most "
           "%d iterations and %d nodes)", (long long)iterations, gp->n_node, UNROLL_MAX_ITERATIONS,
           UNROLL_MAX_NODES);
  return unroll_refuse(u, -1, why);
}

/* Whether the body gives its condition input back unchanged as its condition
 * output (directly or through an Identity): the Loop then runs all its
 * iterations. */
static bool keeps_condition(const Onnx__GraphProto *gp) {
  if (gp->n_input < 2 || gp->n_output < 1 || !gp->input[1]->name || !gp->output[0]->name) return false;
  const char *in = gp->input[1]->name, *out = gp->output[0]->name;
  if (!strcmp(in, out)) return true;
  for (size_t i = 0; i < gp->n_node; i++) {
    const Onnx__NodeProto *np = gp->node[i];
    for (size_t k = 0; k < np->n_output; k++)
      if (np->output[k] && !strcmp(np->output[k], out))
        return np->op_type && !strcmp(np->op_type, "Identity") && np->n_input == 1 &&
               np->input[0] && !strcmp(np->input[0], in);
  }
  return false;
}

static int subgraph_attr(const wnn_ir_graph *g, const wnn_ir_node *n, const char *name) {
  const cJSON *b = cJSON_GetObjectItemCaseSensitive(n->attrs, name);
  const cJSON *index = cJSON_GetObjectItemCaseSensitive(b, "graph");
  if (!cJSON_IsNumber(index) || index->valueint < 0 || index->valueint >= g->num_subgraphs) return -1;
  return index->valueint;
}

static wnn_status unroll_loop(unroll *u, const Onnx__GraphProto *gp, int *outs_final, int **scan_parts,
                              int *num_iter) {
  wnn_ir_graph *g = u->g;
  const wnn_ir_node *n = &u->parent;
  const int carried = n->num_inputs - 2;
  int64_t trips, cond = 1;
  if (n->num_inputs < 2 || carried < 0 || gp->n_input != (size_t)(2 + carried) ||
      gp->n_output < (size_t)(1 + carried) || (size_t)n->num_outputs > gp->n_output - 1)
    return wnn_ir_node_fail(g, &g->nodes[u->id], WNN_ERR_MALFORMED, false,
                            "has %d inputs and %d outputs; its body %zu inputs and %zu outputs",
                            n->num_inputs, n->num_outputs, gp->n_input, gp->n_output);
  if (n->inputs[0] < 0)
    return unroll_refuse(u, -1, "a Loop without a trip count M (a while loop) is not supported: "
                         "wnn unrolls Loops with a constant M");
  if (!const_scalar(g, n->inputs[0], &trips))
    return unroll_refuse(u, n->inputs[0], "its trip count M must be a constant for wnn to unroll "
                         "the Loop");
  if (n->inputs[1] >= 0 && !const_scalar(g, n->inputs[1], &cond))
    return unroll_refuse(u, n->inputs[1], "its condition must be a constant for wnn to unroll the "
                         "Loop");
  if (!keeps_condition(gp))
    return unroll_refuse(u, -1, "its body computes the condition output (an early exit), which "
                         "wnn does not unroll: only Loops that run all M iterations are supported");
  if (!cond || trips < 0) trips = 0;
  wnn_status st = check_size(u, gp, trips);
  if (st) return st;
  const int scans = (int)gp->n_output - 1 - carried;
  if (trips == 0 && scans > 0 && n->num_outputs > carried)
    return unroll_refuse(u, -1, "a Loop of 0 iterations with scan outputs is not supported (their "
                         "element shape is not known)");
  cJSON *inits;
  st = unroll_initializers(u, gp, &inits);
  int cur[WNN_MAX_IO + 2], outs[WNN_MAX_IO + 2];
  for (int k = 0; k < carried; k++) cur[2 + k] = n->inputs[2 + k];
  *scan_parts = scans > 0 ? malloc((size_t)scans * (size_t)(trips ? trips : 1) * sizeof **scan_parts) : NULL;
  if (!st && scans > 0 && !*scan_parts) st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  const uint8_t yes = 1;
  for (int64_t i = 0; !st && i < trips; i++) {
    if ((st = unroll_const(u, WNN_DTYPE_I64, 0, NULL, &i, &cur[0])) ||
        (st = unroll_const(u, WNN_DTYPE_BOOL, 0, NULL, &yes, &cur[1])))
      break;
    if ((st = unroll_iteration(u, gp, inits, cur, (int)i, outs))) break;
    for (int k = 0; k < carried; k++) cur[2 + k] = outs[1 + k];
    for (int k = 0; k < scans; k++) (*scan_parts)[k * trips + i] = outs[1 + carried + k];
  }
  cJSON_Delete(inits);
  for (int k = 0; k < carried; k++) outs_final[k] = cur[2 + k];
  *num_iter = (int)trips;
  return st;
}

/* Scan-9 and later: N state inputs then num_scan_inputs sequences, each
 * sliced on its axis (from the end when its direction is 1); the scan
 * outputs stacked on their axes (prepended when their direction is 1). */
static wnn_status unroll_scan(unroll *u, const Onnx__GraphProto *gp, int *outs_final, int **scan_parts,
                              int *num_iter, int64_t *out_axes, bool *out_reverse) {
  wnn_ir_graph *g = u->g;
  const wnn_ir_node *n = &u->parent;
  if (g->opset < 9)
    return unroll_refuse(u, -1, "Scan before opset 9 (batched, with sequence_lens) is not supported");
  const cJSON *nsi = cJSON_GetObjectItemCaseSensitive(n->attrs, "num_scan_inputs");
  const int m = cJSON_IsNumber(nsi) ? nsi->valueint : -1;
  const int states = n->num_inputs - m;
  if (m < 1 || states < 0 || gp->n_input != (size_t)n->num_inputs ||
      gp->n_output != (size_t)n->num_outputs || (int)gp->n_output < states)
    return wnn_ir_node_fail(g, &g->nodes[u->id], WNN_ERR_MALFORMED, false,
                            "num_scan_inputs %d with %d inputs and %d outputs; its body has %zu "
                            "inputs and %zu outputs", m, n->num_inputs, n->num_outputs, gp->n_input,
                            gp->n_output);
  const int scans = n->num_outputs - states;
  const char *lists[4] = {"scan_input_axes", "scan_input_directions", "scan_output_axes",
                          "scan_output_directions"};
  int64_t vals[4][WNN_MAX_IO];
  for (int l = 0; l < 4; l++) {
    const int count = l < 2 ? m : scans;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(n->attrs, lists[l]);
    if (a && cJSON_GetArraySize(a) != count)
      return wnn_ir_node_fail(g, &g->nodes[u->id], WNN_ERR_BAD_ATTRIBUTE, false,
                              "attribute '%s' has %d values; it needs %d", lists[l],
                              cJSON_GetArraySize(a), count);
    for (int k = 0; k < count; k++) vals[l][k] = a ? wnn_ir_json_int(cJSON_GetArrayItem(a, k), 0) : 0;
  }
  int64_t len = -1;
  for (int j = 0; j < m; j++) {
    const wnn_ir_value *x = &g->values[n->inputs[states + j]];
    int64_t axis = vals[0][j] < 0 ? vals[0][j] + x->ndim : vals[0][j];
    if (!x->known || axis < 0 || axis >= x->ndim)
      return unroll_refuse(u, -1, "a scan input's shape or axis is not known");
    if (x->dyn_shape)
      return unroll_refuse(u, -1, "the sequence length changes with the model's dynamic dims, and "
                           "wnn unrolls Scan for a fixed length: fix it with --shape");
    vals[0][j] = axis;
    if (len >= 0 && x->dims[axis] != len)
      return wnn_ir_node_fail(g, &g->nodes[u->id], WNN_ERR_SHAPE, false,
                              "its scan inputs have %lld and %lld elements on their scan axes",
                              (long long)len, (long long)x->dims[axis]);
    len = x->dims[axis];
  }
  wnn_status st = check_size(u, gp, len);
  if (st) return st;
  if (len == 0 && scans > 0)
    return unroll_refuse(u, -1, "a Scan over 0 elements with scan outputs is not supported");
  for (int k = 0; k < scans; k++) {
    out_axes[k] = vals[2][k];
    out_reverse[k] = vals[3][k] != 0;
  }
  cJSON *inits;
  st = unroll_initializers(u, gp, &inits);
  int cur[WNN_MAX_IO], outs[WNN_MAX_IO];
  for (int k = 0; k < states; k++) cur[k] = n->inputs[k];
  *scan_parts = scans > 0 ? malloc((size_t)scans * (size_t)len * sizeof **scan_parts) : NULL;
  if (!st && scans > 0 && !*scan_parts) st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
  for (int64_t t = 0; !st && t < len; t++) {
    for (int j = 0; !st && j < m; j++) {
      const int64_t at = vals[1][j] ? len - 1 - t : t;
      int c_at, ins[2];
      cJSON *a = cJSON_CreateObject();
      if (!a || !cJSON_AddNumberToObject(a, "axis", (double)vals[0][j])) {
        cJSON_Delete(a);
        st = wnn_ir_fail(g, WNN_ERR_OUT_OF_MEMORY, false, "out of memory");
        break;
      }
      if ((st = unroll_const(u, WNN_DTYPE_I64, 0, NULL, &at, &c_at))) {
        cJSON_Delete(a);
        break;
      }
      ins[0] = u->parent.inputs[states + j];
      ins[1] = c_at;
      cur[states + j] = -1;
      st = unroll_node(u, "Gather", ins, 2, &cur[states + j], 1, a);
    }
    if (!st) st = unroll_iteration(u, gp, inits, cur, (int)t, outs);
    if (st) break;
    for (int k = 0; k < states; k++) cur[k] = outs[k];
    for (int k = 0; k < scans; k++)
      (*scan_parts)[k * len + (out_reverse[k] ? len - 1 - t : t)] = outs[states + k];
  }
  cJSON_Delete(inits);
  for (int k = 0; k < states; k++) outs_final[k] = cur[k];
  *num_iter = (int)len;
  return st;
}

wnn_status wnn_onnx_unroll(wnn_ir_graph *g, int id, bool *done) {
  *done = false;
  const wnn_ir_node *n = &g->nodes[id];
  const bool loop = !strcmp(n->op_type, "Loop");
  if (n->domain[0] || (!loop && strcmp(n->op_type, "Scan"))) return WNN_OK;
  const int body = subgraph_attr(g, n, "body");
  if (body < 0) return wnn_ir_node_fail(g, n, WNN_ERR_MALFORMED, false, "has no body graph");
  unroll u;
  memset(&u, 0, sizeof u);
  u.g = g;
  u.id = id;
  u.parent = *n;
  snprintf(u.origin, sizeof u.origin, "body of %s node %d '%s'%s%s", n->op_type, n->index, n->name,
           n->origin ? ", in the " : "", n->origin ? n->origin : "");
  snprintf(u.tag, sizeof u.tag, "%s_%d/unrolled", n->name[0] ? n->name : n->op_type, n->index);
  const Onnx__GraphProto *gp = g->subgraphs[body];
  int first = g->num_nodes, finals[WNN_MAX_IO + 2], iterations = 0, *parts = NULL;
  int64_t axes[WNN_MAX_IO];
  bool reverse[WNN_MAX_IO];
  int carried;
  wnn_status st;
  if (loop) {
    carried = n->num_inputs - 2;
    memset(axes, 0, sizeof axes);
    st = unroll_loop(&u, gp, finals, &parts, &iterations);
  } else {
    const cJSON *nsi = cJSON_GetObjectItemCaseSensitive(n->attrs, "num_scan_inputs");
    carried = n->num_inputs - (cJSON_IsNumber(nsi) ? nsi->valueint : 0);
    st = unroll_scan(&u, gp, finals, &parts, &iterations, axes, reverse);
  }
  /* The final values to the node's outputs; each scan output stacked. */
  for (int k = 0; !st && k < u.parent.num_outputs; k++) {
    int dst = u.parent.outputs[k];
    if (dst < 0) continue;
    if (k < carried) st = unroll_node(&u, "Identity", &finals[k], 1, &dst, 1, NULL);
    else st = stack(&u, parts + (size_t)(k - carried) * (size_t)iterations, iterations,
                    axes[k - carried], dst);
  }
  free(parts);
  if (st) return st;
  g->nodes[id].dead = true;
  *done = true;
  return move_before(g, id, first);
}
