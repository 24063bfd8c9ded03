/* wnn_model_load: reads the container, parses the graph, prepares every node
 * and checks the memory plan. Everything that can be wrong with an artifact is
 * found here, so that a model that loads runs. */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "runtime/format.h"
#include "base/status.h"
#include "ops/op.h"
#include "runtime/model.h"
#include "runtime/codec.h"
#include "runtime/params.h"
#include "runtime/plan.h"
#include "runtime/replan.h"

#define MAX_VALUES WNN_MAX_VALUES
#define MAX_NODES WNN_MAX_NODES
#define MAX_DIM WNN_MAX_DIM
/* Arena values and scratch start at multiples of this. */
#define ARENA_ALIGN 16

static wnn_status fail(wnn_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static wnn_status fail(wnn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wnn_vseterr(NULL, 0, status, fmt, ap);
  va_end(ap);
  return status;
}

/* ------------------------------------------------------------ JSON readers */

static int is_int(const cJSON *j) {
  return cJSON_IsNumber(j) && j->valuedouble == floor(j->valuedouble) &&
         fabs(j->valuedouble) <= 9007199254740992.0;
}

/* An integer member in [lo, hi]. */
static wnn_status get_int(const cJSON *obj, const char *key, int64_t lo, int64_t hi,
                          const char *where, int64_t *out) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!j) return fail(WNN_ERR_MALFORMED, "graph: %s has no \"%s\"", where, key);
  if (!is_int(j) || j->valuedouble < (double)lo || j->valuedouble > (double)hi)
    return fail(WNN_ERR_MALFORMED, "graph: %s.%s must be an integer in [%lld, %lld]", where, key,
                (long long)lo, (long long)hi);
  *out = (int64_t)j->valuedouble;
  return WNN_OK;
}

static wnn_status get_size(const cJSON *obj, const char *key, const char *where, size_t *out) {
  int64_t v;
  int64_t hi = (uint64_t)SIZE_MAX / 2 > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(SIZE_MAX / 2);
  wnn_status st = get_int(obj, key, 0, hi, where, &v);
  if (st == WNN_OK) *out = (size_t)v;
  return st;
}

static const cJSON *get_array(const cJSON *obj, const char *key, const char *where) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsArray(j)) {
    fail(WNN_ERR_MALFORMED, "graph: %s.%s must be an array", where, key);
    return NULL;
  }
  return j;
}

/* An optional string member; *out stays NULL when absent. */
static wnn_status get_name(const wnn_allocator *a, const cJSON *obj, const char *where,
                           char **out) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, "name");
  if (!j) return WNN_OK;
  if (!cJSON_IsString(j)) return fail(WNN_ERR_MALFORMED, "graph: %s.name must be a string", where);
  *out = wnn_strndup(a, j->valuestring, strlen(j->valuestring));
  return *out ? WNN_OK : fail(WNN_ERR_OUT_OF_MEMORY, "out of memory copying a name");
}

/* Formats a tensor type as "float32[1, 3, 224, 224]". */
static const char *type_str(char *buf, size_t cap, wnn_dtype dtype, int ndim,
                            const int64_t *dims) {
  char shape[112];
  wnn_fmt(buf, cap, "%s%s", wnn_dtype_name(dtype), wnn_format_dims(shape, sizeof shape, ndim, dims));
  return buf;
}

/* ------------------------------------------------------------------ values */

static wnn_status read_value(wnn_model *m, const cJSON *j, int index, const uint8_t *weights,
                             size_t weights_size) {
  wnn_value *v = &m->values[index];
  char where[48];
  wnn_fmt(where, sizeof where, "values[%d]", index);
  if (!cJSON_IsObject(j)) return fail(WNN_ERR_MALFORMED, "graph: %s must be an object", where);
  wnn_status st = get_name(&m->allocator, j, where, &v->name);
  if (st) return st;

  const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
  const char *k = cJSON_IsString(kind) ? kind->valuestring : "";
  if (!strcmp(k, "input")) v->kind = WNN_VALUE_INPUT;
  else if (!strcmp(k, "param")) v->kind = WNN_VALUE_PARAM;
  else if (!strcmp(k, "arena")) v->kind = WNN_VALUE_ARENA;
  else if (!strcmp(k, "alias")) v->kind = WNN_VALUE_ALIAS;
  else if (!strcmp(k, "shape") && m->dynamic) v->kind = WNN_VALUE_SHAPE;
  else if (!strcmp(k, "shape"))
    return fail(WNN_ERR_MALFORMED,
                "graph: %s is of kind shape, but the artifact does not set the required feature "
                "bit 4 DYNAMIC", where);
  else return fail(WNN_ERR_MALFORMED, "graph: %s.kind must be input, param, arena or alias", where);

  const cJSON *dt = cJSON_GetObjectItemCaseSensitive(j, "dtype");
  v->dtype = wnn_dtype_from_name(cJSON_IsString(dt) ? dt->valuestring : NULL);
  if (v->dtype == WNN_DTYPE_INVALID)
    return fail(WNN_ERR_MALFORMED, "graph: %s.dtype is missing or not a known dtype", where);

  const cJSON *shape = get_array(j, "shape", where);
  if (!shape) return WNN_ERR_MALFORMED;
  int ndim = cJSON_GetArraySize(shape);
  if (ndim > WNN_MAX_DIMS)
    return fail(WNN_ERR_MALFORMED, "graph: %s has %d dims; at most %d", where, ndim, WNN_MAX_DIMS);
  v->ndim = ndim;
  uint64_t numel = 1;
  for (int d = 0; d < ndim; d++) {
    const cJSON *e = cJSON_GetArrayItem(shape, d);
    if (cJSON_IsString(e)) { /* a dim name (docs/dynamic-shapes.md) */
      if (!m->dynamic)
        return fail(WNN_ERR_MALFORMED,
                    "graph: %s.shape[%d] is the dim name \"%s\", but the artifact does not set "
                    "the required feature bit 4 DYNAMIC", where, d, e->valuestring);
      if (v->kind != WNN_VALUE_INPUT)
        return fail(WNN_ERR_MALFORMED,
                    "graph: %s.shape[%d] is the dim name \"%s\"; only inputs name dims", where, d,
                    e->valuestring);
      int found = -1;
      for (int i = 0; i < m->num_dims && found < 0; i++)
        if (!strcmp(m->dims[i].name, e->valuestring)) found = i;
      if (found < 0)
        return fail(WNN_ERR_MALFORMED,
                    "graph: %s.shape[%d] names the dim \"%s\", which graph.dims does not declare",
                    where, d, e->valuestring);
      v->named[d] = (unsigned char)(found + 1);
      v->dims[d] = m->dims[found].default_size; /* the reference plan's */
    } else if (!is_int(e) || e->valuedouble < 0 || e->valuedouble > (double)MAX_DIM)
      return fail(WNN_ERR_MALFORMED, "graph: %s.shape[%d] must be an integer in [0, 2^40]", where,
                  d);
    else v->dims[d] = (int64_t)e->valuedouble;
    if (v->dims[d] && numel > UINT64_MAX / (uint64_t)v->dims[d])
      return fail(WNN_ERR_MALFORMED, "graph: %s: element count overflows", where);
    numel *= (uint64_t)v->dims[d];
  }
  uint64_t esize = wnn_dtype_size(v->dtype);
  if (numel > WNN_MAX_TENSOR_BYTES / esize)
    return fail(WNN_ERR_LIMIT,
                "graph: %s is too large: %llu elements of %u bytes, over the %u-byte limit of a "
                "tensor (WNN_MAX_TENSOR_BYTES)",
                where, (unsigned long long)numel, (unsigned)esize, WNN_MAX_TENSOR_BYTES);
  v->nbytes = (size_t)(numel * esize);
  v->root = index;

  switch (v->kind) {
    case WNN_VALUE_INPUT:
    case WNN_VALUE_ARENA:
      if ((st = get_size(j, "offset", where, &v->offset))) return st;
      if (v->offset % ARENA_ALIGN)
        return fail(WNN_ERR_BAD_PLAN, "graph: %s.offset %zu is not a multiple of %d", where,
                    v->offset, ARENA_ALIGN);
      break;
    case WNN_VALUE_PARAM: {
      const cJSON *ext = cJSON_GetObjectItemCaseSensitive(j, "external");
      if (ext) { /* in the params blob (docs/params.md) */
        const char *pname = v->name ? v->name : where; /* a release artifact: values[N] */
        if (!cJSON_IsString(ext) || !ext->valuestring[0])
          return fail(WNN_ERR_MALFORMED, "graph: %s.external is not a tensor name", where);
        if (!m->bound)
          return fail(WNN_ERR_MALFORMED,
                      "graph: %s (%s) is external, but the artifact does not set feature bit 0 "
                      "(EXTERNAL_PARAMS)", where, pname);
        const char *en = ext->valuestring;
        const wnn_params_tensor *t = wnn_params_find(m->bound, en, strlen(en));
        if (!t)
          return fail(WNN_ERR_NOT_FOUND, "params: the blob has no tensor '%s' (param %s)", en, pname);
        if (t->dtype != v->dtype)
          return fail(WNN_ERR_DTYPE, "params: tensor '%s' is %s in the blob, the model's param %s is %s",
                      en, wnn_dtype_name(t->dtype), pname, wnn_dtype_name(v->dtype));
        int same = t->ndim == v->ndim;
        for (int d = 0; same && d < v->ndim; d++) same = t->dims[d] == v->dims[d];
        if (!same)
          return fail(WNN_ERR_SHAPE, "params: tensor '%s' has another shape (%d dims) in the blob "
                      "than the model's param %s (%d dims)", en, t->ndim, pname, v->ndim);
        if (t->size != v->nbytes)
          return fail(WNN_ERR_SIZE, "params: tensor '%s' has %zu bytes, the model's param %s %zu",
                      en, t->size, pname, v->nbytes);
        v->data = t->data;
        v->codec = WNN_CODEC_RAW;
        v->stored_codec = t->codec;
        v->stored = t->stored;
        break;
      }
      size_t offset, nbytes;
      int64_t codec = 0;
      if ((st = get_size(j, "offset", where, &offset))) return st;
      if ((st = get_size(j, "nbytes", where, &nbytes))) return st;
      if (cJSON_GetObjectItemCaseSensitive(j, "codec") &&
          (st = get_int(j, "codec", 0, UINT32_MAX, where, &codec)))
        return st;
      const char *pname = v->name ? v->name : where; /* a release artifact: values[N] */
      /* nbytes is what WEIGHTS stores: every element for raw, one for a fill,
       * which materialize_fills repeats once all values are read, the encoded
       * bytes for a decoding codec (decode_params). */
      int is_fill = codec == WNN_CODEC_FILL;
      size_t stored = is_fill ? (size_t)esize : v->nbytes;
      if (codec != WNN_CODEC_RAW && !is_fill) {
        char what[300];
        wnn_fmt(what, sizeof what, "graph: %s (param '%s')", where, pname);
        if ((st = wnn_codec_check((unsigned)codec, v->dtype, v->ndim, v->dims, v->nbytes, nbytes,
                                  what)))
          return st;
        stored = nbytes;
      }
      if (is_fill && v->nbytes == 0)
        return fail(WNN_ERR_MALFORMED, "graph: %s (%s) is a fill (codec 3) of no elements", where,
                    pname);
      if (nbytes != stored)
        return fail(WNN_ERR_MALFORMED, "graph: %s.nbytes is %zu but its dtype and shape need %zu%s",
                    where, nbytes, stored, is_fill ? " (one element: codec 3 is a fill)" : "");
      if (offset % WNN_SECTION_ALIGN)
        return fail(WNN_ERR_MALFORMED, "graph: %s.offset %zu is not a multiple of %d", where,
                    offset, WNN_SECTION_ALIGN);
      if (offset > weights_size || nbytes > weights_size - offset)
        return fail(WNN_ERR_MALFORMED,
                    "graph: %s (%s) lies at %zu+%zu, outside the %zu-byte WEIGHTS section", where,
                    pname, offset, nbytes, weights_size);
      v->data = weights ? weights + offset : NULL; /* no WEIGHTS: only empty params */
      v->codec = v->stored_codec = (unsigned)codec;
      v->stored = nbytes;
      break;
    }
    case WNN_VALUE_SHAPE: break; /* its bytes: place_shape_values */
    case WNN_VALUE_ALIAS: {
      int64_t of;
      if ((st = get_int(j, "of", 0, m->num_values - 1, where, &of))) return st;
      if (of == index) return fail(WNN_ERR_MALFORMED, "graph: %s is an alias of itself", where);
      v->root = (int)of;
      break;
    }
  }
  if (!v->name && (v->kind == WNN_VALUE_INPUT || (v->kind == WNN_VALUE_PARAM && !m->integer_names)))
    return fail(WNN_ERR_MALFORMED, "graph: %s is an %s without a name", where, k);
  return WNN_OK;
}

/* Writes nbytes of elem (esize bytes: 1, 2, 4 or 8) repeated at dst, which is
 * 64-byte aligned. A one-byte pattern (zeros, say) is a memset; any other goes
 * to the fill kernel selected for the model (kernels/xx_fill__*.c). */
static void fill_repeat(wnn_xx_fill_ukernel *fill, uint8_t *dst, const uint8_t *elem, size_t esize,
                        size_t nbytes) {
  int one_byte = 1;
  for (size_t i = 1; i < esize; i++) one_byte &= elem[i] == elem[0];
  if (one_byte) {
    memset(dst, elem[0], nbytes);
    return;
  }
  uint8_t pattern[16]; /* esize divides 16, and dst is aligned: in phase */
  for (size_t i = 0; i < sizeof pattern; i++) pattern[i] = elem[i % esize];
  fill(nbytes, pattern, dst);
}

/* Gives every FILL param its bytes: one model-owned block from the model's
 * allocator, laid out by wnn_fill_layout (fills of the same element share
 * bytes), holding each stored element (v->data until now) repeated. Runs
 * before resolve_aliases copies the data pointers of params to their aliases. */
static wnn_status materialize_fills(wnn_model *m) {
  wnn_fill_layout layout = {0};
  for (int i = 0; i < m->num_values; i++) {
    const wnn_value *v = &m->values[i];
    if (v->kind == WNN_VALUE_PARAM && v->codec == WNN_CODEC_FILL)
      wnn_fill_layout_add(&layout, wnn_dtype_size(v->dtype), v->data, v->nbytes);
  }
  size_t total = wnn_fill_layout_finish(&layout);
  if (layout.overflow)
    return fail(WNN_ERR_MALFORMED, "graph: the fill params add up to more than %zu bytes",
                (size_t)(SIZE_MAX / 2));
  if (!total) return WNN_OK;
  m->fills = wnn_alloc(&m->allocator, total, 64);
  if (!m->fills)
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for the %zu bytes of fill params", total);
  m->fills_size = total;
  wnn_xx_fill_ukernel *fill =
      wnn_select_xx_fill(m->kernels == WNN_KERNELS_REFERENCE ? WNN_KERNELS_SCALAR : m->kernels);
  for (int g = 0; g < layout.num_groups; g++) {
    uint8_t elem[8];
    for (size_t k = 0; k < layout.group[g].esize; k++)
      elem[k] = (uint8_t)(layout.group[g].bits >> (8 * k));
    fill_repeat(fill, m->fills + layout.group[g].offset, elem, layout.group[g].esize,
                layout.group[g].nbytes);
  }
  size_t own = 0;
  for (int i = 0; i < m->num_values; i++) {
    wnn_value *v = &m->values[i];
    if (v->kind != WNN_VALUE_PARAM || v->codec != WNN_CODEC_FILL) continue;
    size_t esize = wnn_dtype_size(v->dtype);
    int g = wnn_fill_layout_find(&layout, esize, v->data);
    if (g >= 0) {
      v->data = m->fills + layout.group[g].offset;
    } else {
      fill_repeat(fill, m->fills + own, v->data, esize, v->nbytes);
      v->data = m->fills + own;
      own += wnn_fill_round(v->nbytes);
    }
  }
  return WNN_OK;
}

/* Decodes the params stored with fp16, int8 or a user codec into one
 * model-owned block (each at a multiple of 64), before anything reads them. */
static wnn_status decode_params(wnn_model *m) {
  size_t total = 0;
  for (int i = 0; i < m->num_values; i++) {
    const wnn_value *v = &m->values[i];
    if (v->kind == WNN_VALUE_PARAM && wnn_codec_decodes(v->codec)) {
      if (v->nbytes > SIZE_MAX / 2 - total)
        return fail(WNN_ERR_MALFORMED, "graph: the decoded params add up to too many bytes");
      total += (v->nbytes + 63) & ~(size_t)63;
    }
  }
  if (!total) return WNN_OK;
  m->decoded = wnn_alloc(&m->allocator, total, 64);
  if (!m->decoded)
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for the %zu bytes of decoded params", total);
  m->decoded_size = total;
  size_t at = 0;
  for (int i = 0; i < m->num_values; i++) {
    wnn_value *v = &m->values[i];
    if (v->kind != WNN_VALUE_PARAM || !wnn_codec_decodes(v->codec)) continue;
    char what[300];
    if (v->name) wnn_fmt(what, sizeof what, "param '%s'", v->name);
    else wnn_fmt(what, sizeof what, "param value %d", i); /* a release artifact's */
    wnn_status st = wnn_codec_decode(&m->allocator, v->codec, v->dims, v->data, v->stored,
                                     m->decoded + at, v->nbytes, what);
    if (st) return st;
    v->data = m->decoded + at;
    v->codec = WNN_CODEC_RAW;
    at += (v->nbytes + 63) & ~(size_t)63;
  }
  return WNN_OK;
}

/* Resolves alias chains to their root, rejecting cycles and size changes. */
static wnn_status resolve_aliases(wnn_model *m) {
  for (int i = 0; i < m->num_values; i++) {
    wnn_value *v = &m->values[i];
    if (v->kind != WNN_VALUE_ALIAS) continue;
    int r = v->root, steps = 0;
    while (m->values[r].kind == WNN_VALUE_ALIAS) {
      r = m->values[r].root;
      if (++steps > m->num_values)
        return fail(WNN_ERR_MALFORMED, "graph: values[%d]: aliases form a cycle", i);
    }
    v->root = r;
    if (m->values[r].nbytes != v->nbytes)
      return fail(WNN_ERR_MALFORMED, "graph: values[%d] (%zu bytes) aliases values[%d] (%zu bytes)",
                  i, v->nbytes, r, m->values[r].nbytes);
    if (m->values[r].kind == WNN_VALUE_PARAM || m->values[r].kind == WNN_VALUE_SHAPE)
      v->data = m->values[r].data;
  }
  return WNN_OK;
}

/* "inputs" or "outputs": distinct value indices of named values. */
static wnn_status read_io(wnn_model *m, const cJSON *graph, const char *key, int **list,
                          int *count) {
  const cJSON *arr = get_array(graph, key, "graph");
  if (!arr) return WNN_ERR_MALFORMED;
  int n = cJSON_GetArraySize(arr);
  *list = wnn_calloc(&m->allocator, (size_t)n, sizeof(int), sizeof(int));
  if (!*list) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory reading graph %s", key);
  *count = n;
  int is_input = !strcmp(key, "inputs");
  for (int i = 0; i < n; i++) {
    const cJSON *e = cJSON_GetArrayItem(arr, i);
    if (!is_int(e) || e->valuedouble < 0 || e->valuedouble >= m->num_values)
      return fail(WNN_ERR_MALFORMED, "graph: %s[%d] is not a value index", key, i);
    int v = (int)e->valuedouble;
    const wnn_value *val = &m->values[v];
    if (is_input && val->kind != WNN_VALUE_INPUT)
      return fail(WNN_ERR_MALFORMED, "graph: inputs[%d] is value %d, which is not of kind input",
                  i, v);
    if (!val->name) return fail(WNN_ERR_MALFORMED, "graph: %s[%d] has no name", key, i);
    for (int k = 0; k < i; k++) {
      if ((*list)[k] == v)
        return fail(WNN_ERR_MALFORMED, "graph: value %d is listed twice in %s", v, key);
      if (!strcmp(m->values[(*list)[k]].name, val->name))
        return fail(WNN_ERR_MALFORMED, "graph: two %s are named \"%s\"", key, val->name);
    }
    (*list)[i] = v;
  }
  return WNN_OK;
}

/* ------------------------------------------------------------ dynamic dims */

/* graph.dims (docs/dynamic-shapes.md): {name: {"default": D, "max": M or null,
 * "multiple": K}}, read before the values that name them. */
static wnn_status read_dims(wnn_model *m, const cJSON *g) {
  const cJSON *dims = cJSON_GetObjectItemCaseSensitive(g, "dims");
  if (!dims) return WNN_OK;
  if (!m->dynamic)
    return fail(WNN_ERR_MALFORMED,
                "graph: it declares dims but the artifact does not set the required feature bit 4 "
                "DYNAMIC");
  if (!cJSON_IsObject(dims))
    return fail(WNN_ERR_MALFORMED, "graph: dims must be an object {name: {\"default\": ...}}");
  int n = cJSON_GetArraySize(dims);
  if (n > WNN_MAX_NAMED_DIMS)
    return fail(WNN_ERR_MALFORMED, "graph: dims declares %d names; at most %d", n,
                WNN_MAX_NAMED_DIMS);
  m->dims = wnn_calloc(&m->allocator, (size_t)(n ? n : 1), sizeof *m->dims, 8);
  if (!m->dims) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory reading dims");
  m->cap_dims = n ? n : 1;
  for (const cJSON *e = dims->child; e; e = e->next) {
    wnn_dim *d = &m->dims[m->num_dims];
    const char *name = e->string;
    char where[160];
    wnn_fmt(where, sizeof where, "dims \"%.100s\"", name);
    if (!name[0]) return fail(WNN_ERR_MALFORMED, "graph: dims has an empty name");
    for (int i = 0; i < m->num_dims; i++)
      if (!strcmp(m->dims[i].name, name))
        return fail(WNN_ERR_MALFORMED, "graph: %s is declared twice", where);
    if (!cJSON_IsObject(e))
      return fail(WNN_ERR_MALFORMED, "graph: %s must be an object {\"default\", \"max\"}", where);
    d->name = wnn_strndup(&m->allocator, name, strlen(name));
    if (!d->name) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory reading dims");
    m->num_dims++;
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(e, "default");
    const cJSON *max = cJSON_GetObjectItemCaseSensitive(e, "max");
    const cJSON *mul = cJSON_GetObjectItemCaseSensitive(e, "multiple");
    if (!is_int(def) || def->valuedouble < 0 || def->valuedouble > (double)MAX_DIM)
      return fail(WNN_ERR_MALFORMED, "graph: %s: default must be an integer in [0, 2^40]", where);
    d->default_size = (int64_t)def->valuedouble;
    d->max_size = 0;
    if (max && !cJSON_IsNull(max)) {
      if (!is_int(max) || max->valuedouble < 1 || max->valuedouble > (double)MAX_DIM)
        return fail(WNN_ERR_MALFORMED, "graph: %s: max must be null or an integer in [1, 2^40]",
                    where);
      d->max_size = (int64_t)max->valuedouble;
      if (d->default_size > d->max_size)
        return fail(WNN_ERR_MALFORMED, "graph: %s: default %lld is over its max %lld", where,
                    (long long)d->default_size, (long long)d->max_size);
    }
    d->multiple = 1;
    if (mul) {
      if (!is_int(mul) || mul->valuedouble < 1 || mul->valuedouble > (double)MAX_DIM)
        return fail(WNN_ERR_MALFORMED, "graph: %s: multiple must be an integer in [1, 2^40]",
                    where);
      d->multiple = (int64_t)mul->valuedouble;
      if (d->default_size % d->multiple)
        return fail(WNN_ERR_MALFORMED, "graph: %s: default %lld is not a multiple of %lld", where,
                    (long long)d->default_size, (long long)d->multiple);
    }
  }
  return WNN_OK;
}

/* Dynamic models: every declared dim names some input dim, and the inputs'
 * declared shapes (WNN_DIM_DYNAMIC where named) for wnn_model_input_info. */
static wnn_status check_named_dims(wnn_model *m) {
  for (int i = 0; i < m->num_dims; i++) {
    int used = 0;
    for (int k = 0; k < m->num_inputs && !used; k++)
      for (int d = 0; d < m->values[m->inputs[k]].ndim; d++)
        used |= m->values[m->inputs[k]].named[d] == i + 1;
    if (!used)
      return fail(WNN_ERR_MALFORMED, "graph: dims \"%s\" is named by no input", m->dims[i].name);
  }
  size_t n = (size_t)(m->num_inputs ? m->num_inputs : 1) * WNN_MAX_DIMS;
  m->declared = wnn_calloc(&m->allocator, n, sizeof *m->declared, 8);
  if (!m->declared) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory reading dims");
  for (int k = 0; k < m->num_inputs; k++) {
    const wnn_value *v = &m->values[m->inputs[k]];
    for (int d = 0; d < v->ndim; d++)
      m->declared[k * WNN_MAX_DIMS + d] = v->named[d] ? WNN_DIM_DYNAMIC : v->dims[d];
  }
  return WNN_OK;
}

/* Gives the shape values (kind "shape") their bytes at the defaults: one
 * model-owned block, written by the shape nodes as they are prepared. */
static wnn_status place_shape_values(wnn_model *m) {
  size_t total = 0;
  for (int v = 0; v < m->num_values; v++) {
    if (m->values[v].kind != WNN_VALUE_SHAPE) continue;
    total = (total + 15) & ~(size_t)15;
    if (m->values[v].nbytes > WNN_MAX_SHAPE_BYTES ||
        total + m->values[v].nbytes > WNN_MAX_SHAPE_BYTES)
      return fail(WNN_ERR_LIMIT, "graph: the shape values add up to more than %d bytes",
                  WNN_MAX_SHAPE_BYTES);
    total += m->values[v].nbytes;
  }
  if (!total) return WNN_OK;
  m->shape_data = wnn_calloc(&m->allocator, 1, total, 16);
  if (!m->shape_data) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for shape values");
  m->shape_bytes = total;
  size_t at = 0;
  for (int v = 0; v < m->num_values; v++) {
    if (m->values[v].kind != WNN_VALUE_SHAPE) continue;
    at = (at + 15) & ~(size_t)15;
    m->values[v].data = m->shape_data + at;
    at += m->values[v].nbytes;
  }
  return WNN_OK;
}

/* ------------------------------------------------------------------- nodes */

static const char *node_label(char *buf, size_t cap, const wnn_model *m, int i) {
  const wnn_node *n = &m->nodes[i];
  wnn_fmt(buf, cap, "node %d (%s%s%s%s)", i, n->op ? n->op->name : "?", n->name ? " '" : "",
           n->name ? n->name : "", n->name ? "'" : "");
  return buf;
}

/* A node's optional "when": a list of at most WNN_MAX_GUARDS [value, 0|1]
 * pairs; each value holds one element of an integer, bool or float32 dtype and
 * is an input, a param or the output of an earlier node. */
static wnn_status read_guards(wnn_model *m, const cJSON *j, wnn_node *n, const char *label,
                              const int *producer) {
  const cJSON *when = cJSON_GetObjectItemCaseSensitive(j, "when");
  if (!when) return WNN_OK;
  if (!cJSON_IsArray(when))
    return fail(WNN_ERR_MALFORMED, "graph: %s.when must be an array of [value, 0 or 1] pairs",
                label);
  int count = cJSON_GetArraySize(when);
  if (count > WNN_MAX_GUARDS)
    return fail(WNN_ERR_MALFORMED, "graph: %s has %d guards in \"when\"; at most %d", label,
                count, WNN_MAX_GUARDS);
  int k = 0;
  for (const cJSON *e = when->child; e; e = e->next, k++) {
    const cJSON *v = cJSON_GetArrayItem(e, 0), *x = cJSON_GetArrayItem(e, 1);
    if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !is_int(v) || !is_int(x))
      return fail(WNN_ERR_MALFORMED, "graph: %s.when[%d] must be a pair [value, 0 or 1]", label,
                  k);
    if (v->valuedouble < 0 || v->valuedouble >= m->num_values)
      return fail(WNN_ERR_MALFORMED, "graph: %s.when[%d] names value %.0f; the graph has %d values",
                  label, k, v->valuedouble, m->num_values);
    if (x->valuedouble != 0 && x->valuedouble != 1)
      return fail(WNN_ERR_MALFORMED, "graph: %s.when[%d] expects %.0f; it must be 0 or 1", label, k,
                  x->valuedouble);
    int g = (int)v->valuedouble;
    const wnn_value *val = &m->values[g];
    if ((val->kind == WNN_VALUE_ARENA || val->kind == WNN_VALUE_ALIAS ||
         val->kind == WNN_VALUE_SHAPE) && producer[g] < 0)
      return fail(WNN_ERR_MALFORMED, "graph: %s.when[%d] reads value %d before any node produces it",
                  label, k, g);
    switch (val->dtype) {
      case WNN_DTYPE_BOOL: case WNN_DTYPE_U8: case WNN_DTYPE_I8: case WNN_DTYPE_I32:
      case WNN_DTYPE_I64: case WNN_DTYPE_F32: break;
      default:
        return fail(WNN_ERR_MALFORMED,
                    "graph: %s.when[%d]: value %d is %s; a guard is bool, uint8, int8, int32, "
                    "int64 or float32", label, k, g, wnn_dtype_name(val->dtype));
    }
    if (val->nbytes != wnn_dtype_size(val->dtype)) {
      char shape[112];
      return fail(WNN_ERR_MALFORMED, "graph: %s.when[%d]: value %d has shape %s; a guard has one element",
                  label, k, g, wnn_format_dims(shape, sizeof shape, val->ndim, val->dims));
    }
    n->guards[k] = g;
    n->guard_expect[k] = (unsigned char)x->valuedouble;
  }
  n->num_guards = count;
  return WNN_OK;
}

/* Runs shape node i (prepared: in and out are its inputs and outputs at the
 * defaults) into the model's shape_data, where later prepares read it. */
static wnn_status run_shape_node(wnn_model *m, int i, const wnn_tdesc *in, const wnn_tdesc *out,
                                 const char *label) {
  wnn_node *n = &m->nodes[i];
  if (n->scratch_bytes)
    return fail(WNN_ERR_MALFORMED, "graph: %s is a shape node with scratch", label);
  if (!n->run) return WNN_OK; /* an alias op: its output shares its input's bytes */
  wnn_tensor tin[WNN_MAX_IO], tout[WNN_MAX_IO];
  for (int k = 0; k < n->num_inputs; k++)
    tin[k] = (wnn_tensor){(void *)in[k].data, in[k].dtype, in[k].ndim, in[k].dims};
  for (int k = 0; k < n->num_outputs; k++) {
    const wnn_value *v = &m->values[n->outputs[k]];
    tout[k] = (wnn_tensor){(void *)v->data, out[k].dtype, out[k].ndim, out[k].dims};
  }
  char msg[256];
  msg[0] = '\0';
  wnn_run_ctx ctx = {n->params, n->num_inputs, tin, n->num_outputs, tout, NULL, msg, sizeof msg};
  wnn_status st = n->run(&ctx);
  return st ? fail(st, "graph: %s (a shape node): %s", label, msg) : WNN_OK;
}

/* Prepares node i: checks it, infers its outputs and compares them with the
 * recorded values, and keeps the params the op filled. */
static wnn_status read_node(wnn_model *m, const cJSON *j, int i, int *producer) {
  wnn_node *n = &m->nodes[i];
  char where[48], label[160], msg[256];
  wnn_fmt(where, sizeof where, "nodes[%d]", i);
  if (!cJSON_IsObject(j)) return fail(WNN_ERR_MALFORMED, "graph: %s must be an object", where);
  wnn_status st = get_name(&m->allocator, j, where, &n->name);
  if (st) return st;
  int64_t code;
  if ((st = get_int(j, "op", 0, INT32_MAX, where, &code))) return st;
  n->op = wnn_op_by_code((int)code);
  if (!n->op) {
    const char *left_out = wnn_op_left_out((int)code);
    return fail(WNN_ERR_UNKNOWN_OP, "graph: %s%s%s%s has op code %lld%s%s%s", where,
                n->name ? " ('" : "", n->name ? n->name : "", n->name ? "')" : "",
                (long long)code, left_out ? " (" : ", unknown to this library",
                left_out ? left_out : "",
                left_out ? "), which this module leaves out: dist/wnn.wasm carries the common "
                           "ops, dist/wnn-full.wasm every op"
                         : "");
  }
  node_label(label, sizeof label, m, i);

  const cJSON *ins = get_array(j, "inputs", where), *outs = get_array(j, "outputs", where);
  if (!ins || !outs) return WNN_ERR_MALFORMED;
  n->num_inputs = cJSON_GetArraySize(ins);
  n->num_outputs = cJSON_GetArraySize(outs);
  if (n->num_inputs > WNN_MAX_IO || n->num_outputs > WNN_MAX_IO)
    return fail(WNN_ERR_MALFORMED, "graph: %s has more than %d inputs or outputs", label,
                WNN_MAX_IO);
  const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(j, "attrs");
  if (attrs && !cJSON_IsObject(attrs))
    return fail(WNN_ERR_MALFORMED, "graph: %s.attrs must be an object", label);
  if ((st = wnn_op_check_node(n->op, wnn_attrs_from_json(attrs), n->num_inputs, n->num_outputs, msg, sizeof msg)))
    return fail(st, "%s: %s", label, msg);
  const cJSON *is_shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
  if (is_shape) {
    if (!is_int(is_shape) || (is_shape->valuedouble != 0 && is_shape->valuedouble != 1))
      return fail(WNN_ERR_MALFORMED, "graph: %s.shape must be 0 or 1", label);
    if (is_shape->valuedouble == 1 && !m->dynamic)
      return fail(WNN_ERR_MALFORMED,
                  "graph: %s is a shape node, but the artifact does not set the required feature "
                  "bit 4 DYNAMIC", label);
    n->shape_node = is_shape->valuedouble == 1;
    if (n->shape_node && cJSON_GetObjectItemCaseSensitive(j, "when"))
      return fail(WNN_ERR_MALFORMED, "graph: %s is a shape node with guards (\"when\")", label);
  }

  wnn_tdesc in[WNN_MAX_IO], out[WNN_MAX_IO];
  memset(in, 0, sizeof in);
  memset(out, 0, sizeof out);
  for (int k = 0; k < n->num_inputs; k++) {
    const cJSON *e = cJSON_GetArrayItem(ins, k);
    if (!is_int(e) || e->valuedouble < -1 || e->valuedouble >= m->num_values)
      return fail(WNN_ERR_MALFORMED, "graph: %s input %d is not a value index or -1", label, k);
    int v = n->inputs[k] = (int)e->valuedouble;
    if (v < 0) continue;
    const wnn_value *val = &m->values[v];
    if ((val->kind == WNN_VALUE_ARENA || val->kind == WNN_VALUE_ALIAS ||
         val->kind == WNN_VALUE_SHAPE) && producer[v] < 0)
      return fail(WNN_ERR_MALFORMED, "graph: %s reads value %d before any node produces it", label,
                  v);
    in[k].dtype = val->dtype;
    in[k].ndim = val->ndim;
    memcpy(in[k].dims, val->dims, sizeof in[k].dims);
    in[k].data = val->data; /* non-NULL for params, shape values and their aliases */
    if (n->shape_node && !val->data && !(n->op->flags & WNN_OP_READS_SHAPE_ONLY))
      return fail(WNN_ERR_MALFORMED,
                  "graph: %s is a shape node but reads the bytes of value %d (%s), which only a "
                  "run computes", label, v, val->name ? val->name : "unnamed");
  }
  if ((st = read_guards(m, j, n, label, producer))) return st;
  for (int k = 0; k < n->num_outputs; k++) {
    const cJSON *e = cJSON_GetArrayItem(outs, k);
    if (!is_int(e) || e->valuedouble < 0 || e->valuedouble >= m->num_values)
      return fail(WNN_ERR_MALFORMED, "graph: %s output %d is not a value index", label, k);
    int v = n->outputs[k] = (int)e->valuedouble;
    const wnn_value *val = &m->values[v];
    int want_alias = k == 0 && (n->op->flags & WNN_OP_ALIAS);
    wnn_value_kind want = want_alias ? WNN_VALUE_ALIAS
                          : n->shape_node ? WNN_VALUE_SHAPE : WNN_VALUE_ARENA;
    if (val->kind != want)
      return fail(WNN_ERR_MALFORMED, "graph: %s output %d (value %d) must be of kind %s", label, k,
                  v, want_alias ? "alias" : n->shape_node ? "shape" : "arena");
    if (want_alias && (n->inputs[0] < 0 || val->root != m->values[n->inputs[0]].root))
      return fail(WNN_ERR_MALFORMED, "graph: %s output %d must alias the node's input 0", label,
                  k);
    if (producer[v] >= 0)
      return fail(WNN_ERR_MALFORMED, "graph: value %d is produced by nodes %d and %d", v,
                  producer[v], i);
    producer[v] = i;
  }
  for (int k = 0; k < n->num_inputs + n->num_outputs && !(n->op->flags & WNN_OP_FLOAT64); k++) {
    const int v = k < n->num_inputs ? n->inputs[k] : n->outputs[k - n->num_inputs];
    if (v >= 0 && m->values[v].dtype == WNN_DTYPE_F64)
      return fail(WNN_ERR_DTYPE, "graph: %s %s value %d (%s), which is float64: only Cast and "
                  "CastLike read or write float64", label, k < n->num_inputs ? "reads" : "writes",
                  v, m->values[v].name ? m->values[v].name : "unnamed");
  }

  wnn_prepare_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.attrs = wnn_attrs_from_json(attrs);
  ctx.num_inputs = n->num_inputs;
  ctx.inputs = in;
  ctx.num_outputs = n->num_outputs;
  ctx.outputs = out;
  ctx.params = n->params;
  ctx.kernels = m->kernels == WNN_KERNELS_REFERENCE ? WNN_KERNELS_SCALAR : m->kernels;
  ctx.msg = msg;
  ctx.msg_cap = sizeof msg;
  msg[0] = '\0';
  if (cJSON_GetObjectItemCaseSensitive(j, "scratch_bytes")) {
    if ((st = get_size(j, "scratch_bytes", where, &n->scratch_bytes)) ||
        (st = get_size(j, "scratch_offset", where, &n->scratch_offset)))
      return st;
  }
  ctx.scratch_capped = true;
  ctx.scratch_cap = n->scratch_bytes;
  if ((st = n->op->prepare(&ctx))) return fail(st, "%s: %s", label, msg);

  for (int k = 0; k < n->num_outputs; k++) {
    const wnn_value *val = &m->values[n->outputs[k]];
    if (out[k].dtype != val->dtype ||
        !wnn_shape_equal(out[k].ndim, out[k].dims, val->ndim, val->dims)) {
      char got[128], want[128];
      return fail(WNN_ERR_MALFORMED, "graph: %s output %d is recorded as %s but the op gives %s",
                  label, k, type_str(want, sizeof want, val->dtype, val->ndim, val->dims),
                  type_str(got, sizeof got, out[k].dtype, out[k].ndim, out[k].dims));
    }
  }
  if (n->scratch_bytes < ctx.scratch_bytes)
    return fail(WNN_ERR_BAD_PLAN, "graph: %s plans %zu scratch bytes but needs %zu", label,
                n->scratch_bytes, ctx.scratch_bytes);
  if (n->scratch_offset % ARENA_ALIGN)
    return fail(WNN_ERR_BAD_PLAN, "graph: %s scratch offset %zu is not a multiple of %d", label,
                n->scratch_offset, ARENA_ALIGN);

  if (n->op->flags & WNN_OP_ALIAS) {
    n->run = NULL;
  } else {
    n->run = m->kernels == WNN_KERNELS_REFERENCE ? n->op->reference : n->op->run;
    if (!n->run)
      return fail(WNN_ERR_UNSUPPORTED, "%s: this build has no %s kernel for it", label,
                  m->kernels == WNN_KERNELS_REFERENCE ? "reference" : "shipped");
  }
  if (n->shape_node) return run_shape_node(m, i, in, out, label);
  return WNN_OK;
}

/* --------------------------------------------------------------- the plan */

static wnn_status check_plan(wnn_model *m, const int *producer) {
  int end = m->num_nodes; /* a step after the last node: "live until the run ends" */
  for (int v = 0; v < m->num_values; v++) {
    wnn_value *val = &m->values[v];
    val->first = val->kind == WNN_VALUE_INPUT ? 0 : producer[v] >= 0 ? producer[v] : 0;
    val->last = val->kind == WNN_VALUE_INPUT ? end : val->first;
    if ((val->kind == WNN_VALUE_ARENA || val->kind == WNN_VALUE_ALIAS ||
         val->kind == WNN_VALUE_SHAPE) && producer[v] < 0)
      return fail(WNN_ERR_MALFORMED, "graph: value %d (%s) is never produced by a node", v,
                  val->name ? val->name : "unnamed");
  }
  /* Readers and aliases extend their root's life; outputs live to the end. */
  for (int i = 0; i < m->num_nodes; i++)
    for (int k = 0; k < m->nodes[i].num_inputs; k++) {
      int v = m->nodes[i].inputs[k];
      if (v >= 0 && m->values[m->values[v].root].last < i) m->values[m->values[v].root].last = i;
    }
  /* A guard is read when its node is about to run. */
  for (int i = 0; i < m->num_nodes; i++)
    for (int k = 0; k < m->nodes[i].num_guards; k++) {
      int v = m->values[m->nodes[i].guards[k]].root;
      if (m->values[v].last < i) m->values[v].last = i;
    }
  for (int v = 0; v < m->num_values; v++) {
    wnn_value *val = &m->values[v], *root = &m->values[val->root];
    if (val->kind == WNN_VALUE_ALIAS && root->last < val->last) root->last = val->last;
  }
  for (int k = 0; k < m->num_outputs; k++) m->values[m->values[m->outputs[k]].root].last = end;
  /* In place: output 0 of an in-place op without scratch may take exactly
   * the bytes (same offset, same size) of an input that no later node reads;
   * that input's life then ends before the node. */
  for (int i = 0; i < m->num_nodes; i++) {
    const wnn_node *nd = &m->nodes[i];
    if (!(nd->op->flags & WNN_OP_INPLACE) || nd->scratch_bytes || nd->num_outputs < 1) continue;
    const wnn_value *o = &m->values[nd->outputs[0]];
    if (o->kind != WNN_VALUE_ARENA || !o->nbytes) continue;
    for (int k = 0; k < nd->num_inputs; k++) {
      if (nd->inputs[k] < 0) continue;
      wnn_value *r = &m->values[m->values[nd->inputs[k]].root];
      if (r->kind == WNN_VALUE_ARENA && r->last == i && r->first < i && r->nbytes == o->nbytes &&
          r->offset == o->offset) {
        r->last = i - 1;
        break;
      }
    }
  }

  int nblocks = m->num_values + m->num_nodes;
  wnn_plan_block *blocks = wnn_calloc(&m->allocator, (size_t)nblocks, sizeof *blocks, 8);
  int *owner = wnn_calloc(&m->allocator, (size_t)nblocks, sizeof *owner, sizeof(int));
  wnn_status st = WNN_OK;
  if (!blocks || !owner) {
    st = fail(WNN_ERR_OUT_OF_MEMORY, "out of memory checking the memory plan");
    goto done;
  }
  int n = 0;
  for (int v = 0; v < m->num_values; v++) {
    const wnn_value *val = &m->values[v];
    if (val->kind != WNN_VALUE_INPUT && val->kind != WNN_VALUE_ARENA) continue;
    blocks[n] = (wnn_plan_block){val->nbytes, val->first, val->last, val->offset};
    owner[n++] = v;
  }
  for (int i = 0; i < m->num_nodes; i++) {
    const wnn_node *node = &m->nodes[i];
    if (!node->scratch_bytes) continue;
    blocks[n] = (wnn_plan_block){node->scratch_bytes, i, i, node->scratch_offset};
    owner[n++] = -1 - i;
  }
  int a, b;
  if (wnn_plan_check(blocks, n, m->arena_bytes, &a, &b) != WNN_OK) {
    char da[200], db[200], label[160];
    int who[2] = {owner[a], b >= 0 ? owner[b] : 0};
    char *desc[2] = {da, db};
    for (int k = 0; k < (b >= 0 ? 2 : 1); k++) {
      if (who[k] >= 0)
        wnn_fmt(desc[k], 200, "value %d (%s, bytes %zu..%zu, live over nodes %d..%d)", who[k],
                 m->values[who[k]].name ? m->values[who[k]].name : "unnamed",
                 m->values[who[k]].offset, m->values[who[k]].offset + m->values[who[k]].nbytes,
                 m->values[who[k]].first, m->values[who[k]].last);
      else
        wnn_fmt(desc[k], 200, "the scratch of %s",
                 node_label(label, sizeof label, m, -1 - who[k]));
    }
    if (b < 0)
      st = fail(WNN_ERR_BAD_PLAN, "graph: %s lies outside the %zu-byte arena", da, m->arena_bytes);
    else
      st = fail(WNN_ERR_BAD_PLAN, "graph: %s overlaps %s while both are live", da, db);
  }
done:
  wnn_free(&m->allocator, blocks, (size_t)nblocks * sizeof *blocks, 8);
  wnn_free(&m->allocator, owner, (size_t)nblocks * sizeof *owner, sizeof(int));
  return st;
}

/* ------------------------------------------------------------------- load */

static wnn_status read_graph(wnn_model *m, const cJSON *g, const uint8_t *weights,
                             size_t weights_size) {
  if (!cJSON_IsObject(g)) return fail(WNN_ERR_MALFORMED, "graph: the GRAPH section is not a JSON object");
  const cJSON *values = get_array(g, "values", "graph");
  const cJSON *nodes = get_array(g, "nodes", "graph");
  if (!values || !nodes) return WNN_ERR_MALFORMED;
  int64_t arena;
  wnn_status st = get_int(g, "arena_bytes", 0, INT64_MAX, "graph", &arena);
  if (st) return st;
  if (arena > (int64_t)WNN_MAX_ARENA_BYTES)
    return fail(WNN_ERR_LIMIT, "graph: arena_bytes %lld is too large (WNN_MAX_ARENA_BYTES is %u)",
                (long long)arena, WNN_MAX_ARENA_BYTES);
  m->arena_bytes = (size_t)arena;
  int nv = cJSON_GetArraySize(values), nn = cJSON_GetArraySize(nodes);
  if (nv > MAX_VALUES || nn > MAX_NODES)
    return fail(WNN_ERR_MALFORMED, "graph: %d values and %d nodes exceed the limits (%d, %d)", nv,
                nn, MAX_VALUES, MAX_NODES);

  m->values = wnn_calloc(&m->allocator, (size_t)nv, sizeof *m->values, 16);
  m->nodes = wnn_calloc(&m->allocator, (size_t)nn, sizeof *m->nodes, 16);
  int *producer = wnn_calloc(&m->allocator, (size_t)nv, sizeof(int), sizeof(int));
  if (!m->values || !m->nodes || !producer) {
    wnn_free(&m->allocator, producer, (size_t)nv * sizeof(int), sizeof(int));
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for %d values and %d nodes", nv, nn);
  }
  m->num_values = nv;
  m->num_nodes = nn;
  for (int v = 0; v < nv; v++) producer[v] = -1;

  st = read_dims(m, g);
  int i = 0;
  for (const cJSON *e = values->child; e && !st; e = e->next)
    st = read_value(m, e, i++, weights, weights_size);
  if (!st) st = materialize_fills(m);
  if (!st) st = decode_params(m);
  if (!st) st = place_shape_values(m);
  if (!st) st = resolve_aliases(m);
  if (!st) st = read_io(m, g, "inputs", &m->inputs, &m->num_inputs);
  if (!st) st = read_io(m, g, "outputs", &m->outputs, &m->num_outputs);
  if (!st && m->dynamic) st = check_named_dims(m);
  if (!st) {
    int listed = 0;
    for (int v = 0; v < nv; v++) {
      if (m->values[v].kind == WNN_VALUE_INPUT) listed++;
      if (m->values[v].kind == WNN_VALUE_PARAM) m->num_params++;
    }
    if (listed != m->num_inputs)
      st = fail(WNN_ERR_MALFORMED, "graph: %d values are of kind input but inputs lists %d",
                listed, m->num_inputs);
  }
  if (!st) {
    m->params = wnn_calloc(&m->allocator, (size_t)m->num_params, sizeof(int), sizeof(int));
    if (!m->params) st = fail(WNN_ERR_OUT_OF_MEMORY, "out of memory listing params");
    for (int v = 0, k = 0; !st && v < nv; v++)
      if (m->values[v].kind == WNN_VALUE_PARAM) m->params[k++] = v;
  }
  i = 0;
  for (const cJSON *e = nodes->child; e && !st; e = e->next) st = read_node(m, e, i++, producer);
  if (!st) st = check_plan(m, producer);
  wnn_free(&m->allocator, producer, (size_t)nv * sizeof(int), sizeof(int));
  return st;
}

/* A dynamic model keeps its nodes' attributes for resize: each node's
 * "attrs" object moves from the parsed graph to m->attrs_json. */
static wnn_status keep_attrs(wnn_model *m, cJSON *g) {
  cJSON *keep = cJSON_CreateArray();
  if (!keep) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory keeping attributes");
  m->attrs_json = keep;
  cJSON *nodes = cJSON_GetObjectItemCaseSensitive(g, "nodes");
  int i = 0;
  for (cJSON *e = nodes->child; e; e = e->next, i++) {
    cJSON *attrs = cJSON_DetachItemFromObjectCaseSensitive(e, "attrs");
    if (!attrs) continue;
    cJSON_AddItemToArray(keep, attrs); /* links, never allocates */
    m->nodes[i].attrs = wnn_attrs_from_json(attrs);
  }
  return WNN_OK;
}

/* A model whose every dim has a max: the plan at the maxima, which every
 * executor's arena is sized for (docs/dynamic-shapes.md). Checked here, at
 * load: a model that loads runs at its maxima. */
static wnn_status plan_maxima(wnn_model *m) {
  if (!m->num_dims) return WNN_OK;
  for (int i = 0; i < m->num_dims; i++)
    if (!m->dims[i].max_size) return WNN_OK;
  size_t klen = wnn_replan_key_len(m);
  int64_t *key = wnn_calloc(&m->allocator, klen ? klen : 1, sizeof *key, 8);
  if (!key) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory planning the maxima");
  wnn_replan_reference_key(m, key);
  int64_t *k = key;
  for (int i = 0; i < m->num_inputs; i++) {
    const wnn_value *v = &m->values[m->inputs[i]];
    for (int d = 0; d < v->ndim; d++)
      if (v->named[d]) k[d] = m->dims[v->named[d] - 1].max_size;
    k += v->ndim;
  }
  wnn_shape_plan *p = NULL;
  wnn_status st = wnn_replan(m, key, &p);
  if (!st) m->max_arena_bytes = p->arena_bytes;
  wnn_replan_free(m, p);
  wnn_free(&m->allocator, key, (klen ? klen : 1) * sizeof *key, 8);
  if (st) {
    char why[400];
    wnn_fmt(why, sizeof why, "%s", wnn_last_error());
    return fail(st == WNN_ERR_OUT_OF_MEMORY ? st : WNN_ERR_MALFORMED,
                "graph: at every dim's max: %s", why);
  }
  return WNN_OK;
}

/* Parses a JSON section strictly: cJSON takes any byte up to 32, NUL
 * included, for white space and ignores what follows the value, so a section
 * with a raw control character anywhere (never valid JSON text: inside strings
 * they must be escaped) or with bytes after the value is refused here. The
 * metadata is handed to the caller as a C string, which a NUL would cut. */
static wnn_status parse_section(const wnn_section *s, const char *what, const char *section,
                                cJSON **out) {
  const unsigned char *p = s->data;
  for (size_t i = 0; i < s->size; i++)
    if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
      return fail(WNN_ERR_MALFORMED, "%s: the %s section holds the control byte 0x%02x at byte %zu",
                  what, section, p[i], i);
  const char *end = NULL;
  cJSON *j = cJSON_ParseWithLengthOpts((const char *)p, s->size, &end, 0);
  if (!j && wnn_json_out_of_memory())
    return fail(WNN_ERR_OUT_OF_MEMORY, "%s: out of memory parsing the %s section", what, section);
  if (!j) {
    const char *at = cJSON_GetErrorPtr();
    return fail(WNN_ERR_MALFORMED, "%s: the %s section is not valid JSON (near byte %zu)", what,
                section, at ? (size_t)(at - (const char *)p) : (size_t)0);
  }
  size_t used = end ? (size_t)(end - (const char *)p) : s->size;
  for (size_t i = used; i < s->size; i++)
    if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r') {
      cJSON_Delete(j);
      return fail(WNN_ERR_MALFORMED, "%s: bytes follow the JSON value of the %s section (from byte %zu)",
                  what, section, i);
    }
  *out = j;
  return WNN_OK;
}

static wnn_status read_metadata(wnn_model *m, const wnn_section *s) {
  cJSON *meta = NULL;
  wnn_status st = parse_section(s, "metadata", "METADATA", &meta);
  if (st) return st;
  int ok = cJSON_IsObject(meta);
  cJSON_Delete(meta);
  if (!ok) return fail(WNN_ERR_MALFORMED, "metadata: the METADATA section is not a JSON object");
  m->metadata = wnn_strndup(&m->allocator, (const char *)s->data, s->size);
  return m->metadata ? WNN_OK : fail(WNN_ERR_OUT_OF_MEMORY, "out of memory copying metadata");
}

static wnn_status load(const void *data, size_t size, wnn_params *params,
                       const wnn_load_options *options, wnn_model **out) {
  wnn_clear_error();
  if (!out) return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_model_load: out is NULL");
  wnn_load_options opt = {0, WNN_KERNELS_AUTO, NULL};
  if (options) opt = *options;
  if (opt.flags & ~(unsigned)(WNN_LOAD_BORROW | WNN_LOAD_NO_CHECKSUM))
    return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_model_load: unknown flags 0x%x", opt.flags);
  if (opt.kernels != WNN_KERNELS_AUTO && opt.kernels != WNN_KERNELS_SCALAR &&
      opt.kernels != WNN_KERNELS_REFERENCE)
    return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_model_load: unknown kernels option %d",
                (int)opt.kernels);
#if defined(WNN_SIMD_ONLY)
  if (opt.kernels == WNN_KERNELS_SCALAR)
    return fail(WNN_ERR_UNSUPPORTED,
                "this build has SIMD128 kernels only (dist/wnn.wasm); WNN_KERNELS_SCALAR needs the "
                "portable build, dist/wnn-scalar.wasm");
#endif
#ifndef WNN_WITH_REFERENCE
  if (opt.kernels == WNN_KERNELS_REFERENCE)
    return fail(WNN_ERR_UNSUPPORTED, "this build has no reference kernels (WNN_WITH_REFERENCE)");
#endif
  const wnn_allocator *a = opt.allocator ? opt.allocator : &wnn_default_allocator;
  if (!a->alloc || !a->free)
    return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_model_load: allocator lacks alloc or free");

  /* Validate the container on the caller's bytes first: a garbage buffer
   * costs no copy. */
  wnn_container c;
  int verify = !(opt.flags & WNN_LOAD_NO_CHECKSUM);
  wnn_status st = wnn_container_read(data, size, verify, &c);
  if (st) return st;

  if (c.params_ref.data && !params)
    return fail(WNN_ERR_FEATURE,
                "the artifact's weights are in a params blob (feature bit 0, EXTERNAL_PARAMS): "
                "load it with its params (wnn_model_load_with_params; in JavaScript, "
                "load(graph, {params}))");
  if (params && !c.params_ref.data)
    return fail(WNN_ERR_INVALID_ARGUMENT,
                "the artifact is self-contained (no PARAMS_REF): load it without params");
  if (params) { /* the blob the converter wrote the artifact against */
    const uint8_t *ref = c.params_ref.data, *digest = wnn_params_digest(params);
    if (wnn_rd64(ref + 32) != wnn_params_file_size(params) || (digest && memcmp(digest, ref, 32)))
      return fail(WNN_ERR_CHECKSUM,
                  "params: the blob (%zu bytes) is not the one the artifact was converted with "
                  "(%llu bytes, SHA-256 %02x%02x%02x%02x...)",
                  wnn_params_file_size(params), (unsigned long long)wnn_rd64(ref + 32), ref[0],
                  ref[1], ref[2], ref[3]);
  }

  wnn_model *m = wnn_calloc(a, 1, sizeof *m, 16);
  if (!m) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for the model");
  if (params) {
    wnn_params_retain(params);
    m->bound = params;
  }
  m->allocator = *a;
  m->kernels = opt.kernels;
  m->dynamic = (c.required_features & WNN_FEATURE_DYNAMIC) != 0;
  m->integer_names = (c.required_features & WNN_FEATURE_INTEGER_NAMES) != 0;

  const uint8_t *base = data;
  if (!(opt.flags & WNN_LOAD_BORROW)) {
    size_t file_size = (size_t)wnn_rd64(base + 16);
    m->copy = wnn_alloc(a, file_size, 64);
    if (!m->copy) {
      wnn_model_free(m);
      return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory copying a %zu-byte artifact", file_size);
    }
    memcpy(m->copy, data, file_size);
    m->copy_size = file_size;
    ptrdiff_t shift = m->copy - base;
    c.graph.data += shift;
    c.metadata.data += shift;
    if (c.weights.data) c.weights.data += shift;
  }
  const uint8_t *weights = c.weights.data;
  if (weights && (uintptr_t)weights % 8 != 0) {
    /* Borrowed and misaligned for int64/float64 loads: copy the weights once. */
    m->weights_copy = wnn_alloc(a, c.weights.size, 64);
    if (!m->weights_copy) {
      wnn_model_free(m);
      return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory realigning %zu bytes of weights",
                  c.weights.size);
    }
    memcpy(m->weights_copy, weights, c.weights.size);
    weights = m->weights_copy;
  }
  m->weights_size = c.weights.size;

  wnn_json_begin(a);
  st = read_metadata(m, &c.metadata);
  if (!st) {
    cJSON *graph = NULL;
    st = parse_section(&c.graph, "graph", "GRAPH", &graph);
    if (!st) st = read_graph(m, graph, weights, c.weights.size);
    if (!st && m->dynamic) st = keep_attrs(m, graph);
    cJSON_Delete(graph);
  }
  wnn_json_end();
  if (!st && m->dynamic) st = plan_maxima(m);
  if (st) {
    char saved[512];
    wnn_fmt(saved, sizeof saved, "%s", wnn_last_error());
    wnn_model_free(m);
    return fail(st, "%s", saved);
  }
  *out = m;
  return WNN_OK;
}

wnn_status wnn_model_load(const void *data, size_t size, const wnn_load_options *options,
                          wnn_model **out) {
  return load(data, size, NULL, options, out);
}

wnn_status wnn_model_load_with_params(const void *data, size_t size, wnn_params *params,
                                      const wnn_load_options *options, wnn_model **out) {
  if (!params) {
    wnn_clear_error();
    return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_model_load_with_params: params is NULL");
  }
  return load(data, size, params, options, out);
}

void wnn_model_free(wnn_model *m) {
  if (!m) return;
  const wnn_allocator a = m->allocator;
  for (int v = 0; m->values && v < m->num_values; v++) wnn_free_str(&a, m->values[v].name);
  for (int i = 0; m->nodes && i < m->num_nodes; i++) wnn_free_str(&a, m->nodes[i].name);
  wnn_free(&a, m->values, (size_t)m->num_values * sizeof *m->values, 16);
  wnn_free(&a, m->nodes, (size_t)m->num_nodes * sizeof *m->nodes, 16);
  wnn_free(&a, m->inputs, (size_t)m->num_inputs * sizeof(int), sizeof(int));
  wnn_free(&a, m->outputs, (size_t)m->num_outputs * sizeof(int), sizeof(int));
  wnn_free(&a, m->params, (size_t)m->num_params * sizeof(int), sizeof(int));
  wnn_free_str(&a, m->metadata);
  for (int i = 0; m->dims && i < m->num_dims; i++) wnn_free_str(&a, m->dims[i].name);
  if (m->dims) wnn_free(&a, m->dims, (size_t)m->cap_dims * sizeof *m->dims, 8);
  if (m->declared)
    wnn_free(&a, m->declared,
             (size_t)(m->num_inputs ? m->num_inputs : 1) * WNN_MAX_DIMS * sizeof *m->declared, 8);
  if (m->shape_data) wnn_free(&a, m->shape_data, m->shape_bytes, 16);
  if (m->attrs_json) {
    wnn_json_begin(&a);
    cJSON_Delete(m->attrs_json);
    wnn_json_end();
  }
  wnn_free(&a, m->weights_copy, m->weights_size, 64);
  if (m->fills) wnn_free(&a, m->fills, m->fills_size, 64);
  if (m->decoded) wnn_free(&a, m->decoded, m->decoded_size, 64);
  wnn_free(&a, m->copy, m->copy_size, 64);
  wnn_params_free(m->bound);
  wnn_free(&a, m, sizeof *m, 16);
}

/* ----------------------------------------------------------------- queries */

int wnn_model_num_inputs(const wnn_model *m) { return m ? m->num_inputs : 0; }
int wnn_model_num_outputs(const wnn_model *m) { return m ? m->num_outputs : 0; }
int wnn_model_num_params(const wnn_model *m) { return m ? m->num_params : 0; }
int wnn_model_num_nodes(const wnn_model *m) { return m ? m->num_nodes : 0; }
/* A bounded dynamic model's executors are sized for the maxima. */
size_t wnn_model_arena_bytes(const wnn_model *m) {
  if (!m) return 0;
  return m->max_arena_bytes > m->arena_bytes ? m->max_arena_bytes : m->arena_bytes;
}
/* The WEIGHTS section plus the materialized fills (docs/format.md). */
size_t wnn_model_weights_bytes(const wnn_model *m) {
  return m ? m->weights_size + m->fills_size + m->decoded_size : 0;
}
const char *wnn_model_metadata(const wnn_model *m) { return m ? m->metadata : "{}"; }

static wnn_status info(const wnn_model *m, const int *list, int count, const char *what,
                       int index, wnn_tensor_info *out) {
  if (!m || !out) return fail(WNN_ERR_INVALID_ARGUMENT, "%s info: model or info is NULL", what);
  if (index < 0 || index >= count)
    return fail(WNN_ERR_OUT_OF_RANGE, "%s index %d is out of range: the model has %d %ss", what,
                index, count, what);
  const wnn_value *v = &m->values[list[index]];
  out->name = v->name;
  out->dtype = v->dtype;
  out->ndim = v->ndim;
  out->shape = v->dims;
  /* A dynamic model's inputs: WNN_DIM_DYNAMIC where a dim is named. */
  if (list == m->inputs && m->declared) out->shape = m->declared + (size_t)index * WNN_MAX_DIMS;
  out->nbytes = v->nbytes;
  return WNN_OK;
}

wnn_status wnn_model_input_info(const wnn_model *m, int index, wnn_tensor_info *out) {
  return info(m, m ? m->inputs : NULL, m ? m->num_inputs : 0, "input", index, out);
}
wnn_status wnn_model_output_info(const wnn_model *m, int index, wnn_tensor_info *out) {
  return info(m, m ? m->outputs : NULL, m ? m->num_outputs : 0, "output", index, out);
}
wnn_status wnn_model_param_info(const wnn_model *m, int index, wnn_tensor_info *out) {
  return info(m, m ? m->params : NULL, m ? m->num_params : 0, "param", index, out);
}

wnn_status wnn_model_param_storage(const wnn_model *m, int index, unsigned *codec,
                                   size_t *stored_bytes) {
  if (!m || !codec || !stored_bytes)
    return fail(WNN_ERR_INVALID_ARGUMENT, "param storage: model, codec or stored_bytes is NULL");
  if (index < 0 || index >= m->num_params)
    return fail(WNN_ERR_OUT_OF_RANGE, "param index %d is out of range: the model has %d params",
                index, m->num_params);
  const wnn_value *v = &m->values[m->params[index]];
  *codec = v->stored_codec;
  *stored_bytes = v->stored;
  return WNN_OK;
}

static wnn_status find(const wnn_model *m, const int *list, int count, const char *what,
                       const char *name, int *index) {
  if (!m || !name || !index)
    return fail(WNN_ERR_INVALID_ARGUMENT, "%s index: model, name or index is NULL", what);
  for (int i = 0; i < count; i++)
    if (!strcmp(m->values[list[i]].name, name)) {
      *index = i;
      return WNN_OK;
    }
  /* Name the candidates: the usual cause is a typo or a mangled name. */
  char known[320];
  size_t n = 0;
  known[0] = '\0';
  for (int i = 0; i < count && n < sizeof known - 8; i++)
    n += (size_t)wnn_fmt(known + n, sizeof known - n, "%s\"%s\"", i ? ", " : "",
                          m->values[list[i]].name);
  return fail(WNN_ERR_NOT_FOUND, "no %s is named \"%s\"; the model's %ss are: %s", what, name,
              what, count ? known : "(none)");
}

wnn_status wnn_model_input_index(const wnn_model *m, const char *name, int *index) {
  return find(m, m ? m->inputs : NULL, m ? m->num_inputs : 0, "input", name, index);
}
wnn_status wnn_model_output_index(const wnn_model *m, const char *name, int *index) {
  return find(m, m ? m->outputs : NULL, m ? m->num_outputs : 0, "output", name, index);
}

wnn_status wnn_model_input_dim(const wnn_model *m, int input, int d, wnn_dim_info *out) {
  if (!m || !out) return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_model_input_dim: model or info is NULL");
  if (input < 0 || input >= m->num_inputs)
    return fail(WNN_ERR_OUT_OF_RANGE, "input index %d is out of range: the model has %d inputs",
                input, m->num_inputs);
  const wnn_value *v = &m->values[m->inputs[input]];
  if (d < 0 || d >= v->ndim)
    return fail(WNN_ERR_OUT_OF_RANGE, "input %d (%s) has %d dims; dim %d is out of range", input,
                v->name, v->ndim, d);
  wnn_dim_info info = {v->dims[d], NULL, v->dims[d], v->dims[d], 1};
  if (v->named[d]) {
    const wnn_dim *dim = &m->dims[v->named[d] - 1];
    info = (wnn_dim_info){WNN_DIM_DYNAMIC, dim->name, dim->default_size, dim->max_size,
                          dim->multiple};
  }
  *out = info;
  return WNN_OK;
}
