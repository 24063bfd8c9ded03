/* The artifact builder (include/wnn_builder.h). It prepares every node with the
 * runtime's own op layer, plans memory with the runtime's planner, writes the
 * container described in docs/format.md, and finally loads what it wrote, so
 * it never hands out an artifact the runtime would reject. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "ops/op.h"
#include "runtime/alloc.h"
#include "runtime/format.h"
#include "base/status.h"
#include "runtime/model.h"
#include "runtime/plan.h"
#include "base/half.h"
#include "builder/params_writer.h"
#include "runtime/codec.h"

#ifdef WNN_WITH_LZ4
#include <lz4.h>
#endif
#ifdef WNN_WITH_ZSTD
#include <zstd.h>
#endif

/* zstd level of --compress zstd: close to the best ratio on weights at a
 * conversion speed of a few MB/s per core. */
#define WNN_BUILDER_ZSTD_LEVEL 19
#include "builder/writer.h"
#include "runtime/sha256.h"
#include "wnn_builder.h"

#define PLAN_ALIGN 64

typedef struct bvalue {
  char *name;
  wnn_value_kind kind;
  wnn_dtype dtype;
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  size_t nbytes;
  void *data;       /* PARAM: our copy of its bytes; SHAPE: computed when its
                       shape node was added */
  int root;         /* ALIAS: the value whose bytes it shares */
  int producer;     /* node index, or -1 */
  int first, last;
  size_t offset;    /* arena offset, or weights offset for params */
  unsigned codec;   /* PARAM: WNN_CODEC_RAW, or WNN_CODEC_FILL when finish finds
                       every element equal (WEIGHTS then stores one element) */
  int external;     /* PARAM: written to the params blob (finish_with_params) */
  uint8_t *enc;     /* PARAM stored with a codec (fp16, int8, user): its bytes */
  size_t enc_size, enc_cap; /* stored bytes; bytes allocated */
  unsigned char named[WNN_MAX_DIMS]; /* INPUT: 1 + the dim naming dim d, or 0 */
} bvalue;

typedef struct bnode {
  const wnn_op *op;
  char *name;
  int num_inputs, num_outputs;
  int inputs[WNN_MAX_IO], outputs[WNN_MAX_IO];
  cJSON *attrs;     /* NULL when none */
  size_t scratch_bytes, scratch_offset;
  int num_guards;   /* "when" (wnn_builder_set_node_guards) */
  int guards[WNN_MAX_GUARDS];
  int guard_expect[WNN_MAX_GUARDS];
  bool shape_node;  /* "shape": 1 (wnn_builder_add_shape_node) */
} bnode;

typedef struct bdim {
  char *name;
  int64_t default_size, max_size, multiple;
} bdim;

/* Named dims a builder declares: the loader's limit (WNN_MAX_NAMED_DIMS). */
#define MAX_DIMS_NAMED 64

struct wnn_builder {
  wnn_allocator alloc;
  bvalue *values;
  int num_values, cap_values;
  bnode *nodes;
  int num_nodes, cap_nodes;
  int *inputs, num_inputs, cap_inputs;
  int *outputs, num_outputs, cap_outputs;
  cJSON *meta; /* name, producer, properties */
  bool inplace; /* the plan puts some node's output over one of its inputs */
  bdim dims[MAX_DIMS_NAMED]; /* wnn_builder_add_dim */
  int num_dims;
  bool has_shape_nodes;
  wnn_builder_weights weights; /* wnn_builder_set_weights; codec RAW by default */
  bool integer_names; /* wnn_builder_set_integer_names: a release artifact */
};

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

static const char *kind_name(wnn_value_kind k);

/* Grows *array (of *cap elements of size elem) to hold at least need. */
static int grow(const wnn_allocator *a, void **array, int *cap, int need, size_t elem) {
  if (need <= *cap) return 1;
  int cap2 = *cap ? *cap * 2 : 16;
  while (cap2 < need) cap2 *= 2;
  void *p = wnn_calloc(a, (size_t)cap2, elem, 16);
  if (!p) return 0;
  if (*array) memcpy(p, *array, (size_t)*cap * elem);
  wnn_free(a, *array, (size_t)*cap * elem, 16);
  *array = p;
  *cap = cap2;
  return 1;
}

wnn_status wnn_builder_create(const wnn_allocator *allocator, wnn_builder **out) {
  wnn_clear_error();
  if (!out) return fail(WNN_ERR_INVALID_ARGUMENT, "wnn_builder_create: out is NULL");
  const wnn_allocator *a = allocator ? allocator : &wnn_default_allocator;
  wnn_builder *b = wnn_calloc(a, 1, sizeof *b, 16);
  if (!b) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for a builder");
  b->alloc = *a;
  wnn_json_begin(a);
  b->meta = cJSON_CreateObject();
  wnn_json_end();
  if (!b->meta) {
    wnn_builder_free(b);
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory for a builder");
  }
  *out = b;
  return WNN_OK;
}

void wnn_builder_free(wnn_builder *b) {
  if (!b) return;
  const wnn_allocator a = b->alloc;
  wnn_json_begin(&a);
  for (int i = 0; i < b->num_values; i++) {
    wnn_free_str(&a, b->values[i].name);
    wnn_free(&a, b->values[i].data, b->values[i].nbytes, 64);
    wnn_free(&a, b->values[i].enc, b->values[i].enc_cap, 64);
  }
  for (int i = 0; i < b->num_nodes; i++) {
    wnn_free_str(&a, b->nodes[i].name);
    cJSON_Delete(b->nodes[i].attrs);
  }
  cJSON_Delete(b->meta);
  wnn_json_end();
  for (int i = 0; i < b->num_dims; i++) wnn_free_str(&a, b->dims[i].name);
  wnn_free(&a, b->values, (size_t)b->cap_values * sizeof *b->values, 16);
  wnn_free(&a, b->nodes, (size_t)b->cap_nodes * sizeof *b->nodes, 16);
  wnn_free(&a, b->inputs, (size_t)b->cap_inputs * sizeof(int), 16);
  wnn_free(&a, b->outputs, (size_t)b->cap_outputs * sizeof(int), 16);
  wnn_free(&a, b, sizeof *b, 16);
}

wnn_status wnn_builder_set_metadata(wnn_builder *b, const char *key, const char *value) {
  if (!b || !key || !value) return fail(WNN_ERR_INVALID_ARGUMENT, "set_metadata: NULL argument");
  wnn_json_begin(&b->alloc);
  cJSON *target = b->meta;
  if (strcmp(key, "name") && strcmp(key, "producer")) {
    target = cJSON_GetObjectItemCaseSensitive(b->meta, "properties");
    if (!target) target = cJSON_AddObjectToObject(b->meta, "properties");
  }
  cJSON *s = target ? cJSON_CreateString(value) : NULL;
  int ok = s != NULL;
  if (ok) {
    if (cJSON_GetObjectItemCaseSensitive(target, key))
      ok = cJSON_ReplaceItemInObjectCaseSensitive(target, key, s);
    else
      ok = cJSON_AddItemToObject(target, key, s);
    if (!ok) cJSON_Delete(s);
  }
  wnn_json_end();
  return ok ? WNN_OK : fail(WNN_ERR_OUT_OF_MEMORY, "out of memory setting metadata \"%s\"", key);
}

/* Appends a value; returns its index or -1 (out of memory, or a bad shape). */
static wnn_status new_value(wnn_builder *b, const char *name, wnn_value_kind kind,
                            wnn_dtype dtype, int ndim, const int64_t *dims, int *index) {
  if (wnn_dtype_size(dtype) == 0) return fail(WNN_ERR_DTYPE, "value \"%s\": invalid dtype %d", name ? name : "", (int)dtype);
  if (ndim < 0 || ndim > WNN_MAX_DIMS || (ndim && !dims))
    return fail(WNN_ERR_SHAPE, "value \"%s\": %d dims (at most %d)", name ? name : "", ndim,
                WNN_MAX_DIMS);
  uint64_t numel = 1;
  for (int d = 0; d < ndim; d++) {
    if (dims[d] < 0 || dims[d] > (INT64_C(1) << 40))
      return fail(WNN_ERR_SHAPE, "value \"%s\": dim %d is %lld", name ? name : "", d,
                  (long long)dims[d]);
    if (dims[d] && numel > UINT64_MAX / (uint64_t)dims[d])
      return fail(WNN_ERR_SHAPE, "value \"%s\": element count overflows", name ? name : "");
    numel *= (uint64_t)dims[d];
  }
  if (numel > (uint64_t)(SIZE_MAX / 2) / wnn_dtype_size(dtype))
    return fail(WNN_ERR_SHAPE, "value \"%s\" is too large", name ? name : "");
  if (!grow(&b->alloc, (void **)&b->values, &b->cap_values, b->num_values + 1, sizeof(bvalue)))
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory adding a value");
  bvalue *v = &b->values[b->num_values];
  memset(v, 0, sizeof *v);
  if (name && !(v->name = wnn_strndup(&b->alloc, name, strlen(name))))
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory adding a value");
  v->kind = kind;
  v->dtype = dtype;
  v->ndim = ndim;
  if (ndim) memcpy(v->dims, dims, (size_t)ndim * sizeof *dims);
  v->nbytes = (size_t)numel * wnn_dtype_size(dtype);
  v->root = b->num_values;
  v->producer = -1;
  *index = b->num_values++;
  return WNN_OK;
}

static int push_int(wnn_builder *b, int **list, int *count, int *cap, int v) {
  if (!grow(&b->alloc, (void **)list, cap, *count + 1, sizeof(int))) return 0;
  (*list)[(*count)++] = v;
  return 1;
}

wnn_status wnn_builder_add_input(wnn_builder *b, const char *name, wnn_dtype dtype, int ndim,
                                 const int64_t *shape, int *value) {
  wnn_clear_error();
  if (!b || !name || !value) return fail(WNN_ERR_INVALID_ARGUMENT, "add_input: NULL argument");
  for (int i = 0; i < b->num_inputs; i++)
    if (!strcmp(b->values[b->inputs[i]].name, name))
      return fail(WNN_ERR_INVALID_ARGUMENT, "add_input: an input is already named \"%s\"", name);
  int v;
  wnn_status st = new_value(b, name, WNN_VALUE_INPUT, dtype, ndim, shape, &v);
  if (st) return st;
  if (!push_int(b, &b->inputs, &b->num_inputs, &b->cap_inputs, v))
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory adding an input");
  *value = v;
  return WNN_OK;
}

wnn_status wnn_builder_add_dynamic_input(wnn_builder *b, const char *name, wnn_dtype dtype,
                                         int ndim, const int64_t *shape,
                                         const char *const *dim_names, int *value) {
  wnn_clear_error();
  if (!b || !name || !value || (ndim > 0 && !shape))
    return fail(WNN_ERR_INVALID_ARGUMENT, "add_dynamic_input: NULL argument");
  if (ndim < 0 || ndim > WNN_MAX_DIMS)
    return fail(WNN_ERR_SHAPE, "add_dynamic_input \"%s\": %d dims (at most %d)", name, ndim,
                WNN_MAX_DIMS);
  int64_t dims[WNN_MAX_DIMS];
  unsigned char named[WNN_MAX_DIMS] = {0};
  for (int d = 0; d < ndim; d++) {
    dims[d] = shape[d];
    if (!dim_names || !dim_names[d]) continue;
    int found = -1;
    for (int i = 0; i < b->num_dims && found < 0; i++)
      if (!strcmp(b->dims[i].name, dim_names[d])) found = i;
    if (found < 0)
      return fail(WNN_ERR_INVALID_ARGUMENT,
                  "add_dynamic_input \"%s\": dim %d is named \"%s\", which no add_dim declared",
                  name, d, dim_names[d]);
    named[d] = (unsigned char)(found + 1);
    dims[d] = b->dims[found].default_size; /* the reference plan */
  }
  wnn_status st = wnn_builder_add_input(b, name, dtype, ndim, dims, value);
  if (!st) memcpy(b->values[*value].named, named, sizeof named);
  return st;
}

wnn_status wnn_builder_add_param(wnn_builder *b, const char *name, wnn_dtype dtype, int ndim,
                                 const int64_t *shape, const void *data, int *value) {
  wnn_clear_error();
  if (!b || !name || !value) return fail(WNN_ERR_INVALID_ARGUMENT, "add_param: NULL argument");
  int v;
  wnn_status st = new_value(b, name, WNN_VALUE_PARAM, dtype, ndim, shape, &v);
  if (st) return st;
  bvalue *p = &b->values[v];
  if (p->nbytes && !data) return fail(WNN_ERR_INVALID_ARGUMENT, "add_param \"%s\": data is NULL", name);
  p->data = wnn_alloc(&b->alloc, p->nbytes, 64);
  if (!p->data) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory copying param \"%s\"", name);
  if (p->nbytes) memcpy(p->data, data, p->nbytes);
  *value = v;
  return WNN_OK;
}

/* Prepares a node with the given kernel variant into ctx's outputs. */
static wnn_status prepare(const wnn_builder *b, const bnode *n, wnn_kernels kernels,
                          wnn_tdesc *out, size_t *scratch, char *msg, size_t cap,
                          unsigned char *params_out) {
  wnn_tdesc in[WNN_MAX_IO];
  memset(in, 0, sizeof in);
  for (int k = 0; k < n->num_inputs; k++) {
    if (n->inputs[k] < 0) continue;
    const bvalue *v = &b->values[n->inputs[k]], *root = &b->values[v->root];
    in[k].dtype = v->dtype;
    in[k].ndim = v->ndim;
    memcpy(in[k].dims, v->dims, sizeof v->dims);
    in[k].data = root->kind == WNN_VALUE_PARAM || root->kind == WNN_VALUE_SHAPE ? root->data : NULL;
  }
  _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
  memset(params, 0, sizeof params);
  memset(out, 0, sizeof(wnn_tdesc) * WNN_MAX_IO);
  wnn_prepare_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.attrs = wnn_attrs_from_json(n->attrs);
  ctx.num_inputs = n->num_inputs;
  ctx.inputs = in;
  ctx.num_outputs = n->num_outputs;
  ctx.outputs = out;
  ctx.params = params;
  ctx.kernels = kernels;
  ctx.msg = msg;
  ctx.msg_cap = cap;
  msg[0] = '\0';
  wnn_status st = n->op->prepare(&ctx);
  *scratch = ctx.scratch_bytes;
  if (params_out) memcpy(params_out, params, sizeof params);
  return st;
}

/* Runs shape node n (prepared: params, out) on its inputs' bytes into its
 * SHAPE outputs' data, which it allocates. */
static wnn_status run_shape_node(wnn_builder *b, const bnode *n, const unsigned char *params,
                                 char *msg, size_t cap) {
  for (int k = 0; k < n->num_outputs; k++) {
    bvalue *v = &b->values[n->outputs[k]];
    if (v->kind != WNN_VALUE_SHAPE) continue;
    if (!(v->data = wnn_calloc(&b->alloc, 1, v->nbytes, 64)))
      return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory running a shape node");
  }
  if (n->op->flags & WNN_OP_ALIAS) return WNN_OK;
  wnn_tensor in[WNN_MAX_IO], out[WNN_MAX_IO];
  for (int k = 0; k < n->num_inputs; k++) {
    if (n->inputs[k] < 0) {
      in[k] = (wnn_tensor){NULL, WNN_DTYPE_INVALID, 0, NULL};
      continue;
    }
    const bvalue *v = &b->values[n->inputs[k]], *root = &b->values[v->root];
    void *data = root->kind == WNN_VALUE_PARAM || root->kind == WNN_VALUE_SHAPE ? root->data : NULL;
    in[k] = (wnn_tensor){data, v->dtype, v->ndim, v->dims};
  }
  for (int k = 0; k < n->num_outputs; k++) {
    const bvalue *v = &b->values[n->outputs[k]];
    out[k] = (wnn_tensor){v->data, v->dtype, v->ndim, v->dims};
  }
  msg[0] = '\0';
  wnn_run_ctx ctx = {params, n->num_inputs, in, n->num_outputs, out, NULL, msg, cap};
  wnn_status st = n->op->run(&ctx);
  return st ? fail(st, "%s (a shape node): %s", n->op->name, msg) : WNN_OK;
}

static wnn_status add_node(wnn_builder *b, const char *op_type, const char *name,
                           const int *inputs, int num_inputs, const char *attrs_json,
                           int num_outputs, int *outputs, bool shape_node) {
  wnn_clear_error();
  if (!b || !op_type || (num_inputs && !inputs) || (num_outputs && !outputs))
    return fail(WNN_ERR_INVALID_ARGUMENT, "add_node: NULL argument");
  const wnn_op *op = wnn_op_by_name(op_type);
  if (!op) return fail(WNN_ERR_UNKNOWN_OP, "add_node %s: op type \"%s\" is not supported", name ? name : "", op_type);
  if (num_inputs < 0 || num_inputs > WNN_MAX_IO || num_outputs < 1 || num_outputs > WNN_MAX_IO)
    return fail(WNN_ERR_INVALID_ARGUMENT, "add_node %s: %d inputs and %d outputs", op_type,
                num_inputs, num_outputs);
  for (int k = 0; k < num_inputs; k++)
    if (inputs[k] < -1 || inputs[k] >= b->num_values)
      return fail(WNN_ERR_OUT_OF_RANGE, "add_node %s: input %d is value %d, which does not exist",
                  op_type, k, inputs[k]);

  bnode n;
  memset(&n, 0, sizeof n);
  n.op = op;
  n.shape_node = shape_node;
  n.num_inputs = num_inputs;
  n.num_outputs = num_outputs;
  if (num_inputs) memcpy(n.inputs, inputs, (size_t)num_inputs * sizeof *inputs);
  char msg[256];
  wnn_status st = WNN_OK;
  if (attrs_json) {
    wnn_json_begin(&b->alloc);
    n.attrs = cJSON_Parse(attrs_json);
    wnn_json_end();
    if (!n.attrs && wnn_json_out_of_memory())
      st = fail(WNN_ERR_OUT_OF_MEMORY, "add_node %s: out of memory parsing attributes", op_type);
    else if (!cJSON_IsObject(n.attrs))
      st = fail(WNN_ERR_BAD_ATTRIBUTE, "add_node %s: attributes are not a JSON object", op_type);
  }
  if (!st && (st = wnn_op_check_node(op, wnn_attrs_from_json(n.attrs), num_inputs, num_outputs, msg, sizeof msg)))
    fail(st, "%s%s%s: %s", op_type, name ? " " : "", name ? name : "", msg);

  /* Prepare with each variant; the plan must fit the largest scratch. */
  wnn_tdesc out[WNN_MAX_IO], out2[WNN_MAX_IO];
  size_t scratch = 0, scratch2 = 0;
  _Alignas(16) unsigned char params[WNN_MAX_PARAMS];
  if (!st && (st = prepare(b, &n, WNN_KERNELS_SCALAR, out, &scratch, msg, sizeof msg, params)))
    fail(st, "%s%s%s: %s", op_type, name ? " " : "", name ? name : "", msg);
  if (!st && (st = prepare(b, &n, WNN_KERNELS_AUTO, out2, &scratch2, msg, sizeof msg, NULL)))
    fail(st, "%s%s%s: %s", op_type, name ? " " : "", name ? name : "", msg);
  n.scratch_bytes = scratch > scratch2 ? scratch : scratch2;
  if (!st && shape_node) {
    /* Run at build time, as the loader will at load: its inputs' bytes must
     * be known then (params, shape values) unless it reads only shapes. */
    if (n.scratch_bytes)
      st = fail(WNN_ERR_UNSUPPORTED, "add_shape_node %s: it needs scratch memory", op_type);
    for (int k = 0; !st && k < num_inputs; k++) {
      if (inputs[k] < 0) continue;
      const bvalue *r = &b->values[b->values[inputs[k]].root];
      if (r->kind != WNN_VALUE_PARAM && r->kind != WNN_VALUE_SHAPE &&
          !(op->flags & WNN_OP_READS_SHAPE_ONLY))
        st = fail(WNN_ERR_INVALID_ARGUMENT,
                  "add_shape_node %s: input %d (value %d) is computed only by a run; a shape node "
                  "reads params and shape values (or only shapes: Shape, Size)",
                  op_type, k, inputs[k]);
    }
  }

  if (!st && name && !(n.name = wnn_strndup(&b->alloc, name, strlen(name))))
    st = fail(WNN_ERR_OUT_OF_MEMORY, "out of memory adding a node");
  int first_new = b->num_values;
  for (int k = 0; !st && k < num_outputs; k++) {
    int alias = k == 0 && (op->flags & WNN_OP_ALIAS);
    int v;
    st = new_value(b, NULL, alias ? WNN_VALUE_ALIAS : shape_node ? WNN_VALUE_SHAPE : WNN_VALUE_ARENA,
                   out[k].dtype, out[k].ndim, out[k].dims, &v);
    if (st) break;
    if (alias) b->values[v].root = b->values[inputs[0]].root;
    b->values[v].producer = b->num_nodes;
    n.outputs[k] = v;
  }
  if (!st && shape_node) st = run_shape_node(b, &n, params, msg, sizeof msg);
  if (!st && !grow(&b->alloc, (void **)&b->nodes, &b->cap_nodes, b->num_nodes + 1, sizeof(bnode)))
    st = fail(WNN_ERR_OUT_OF_MEMORY, "out of memory adding a node");
  if (st) {
    /* Leave the builder as it was. */
    while (b->num_values > first_new) {
      bvalue *v = &b->values[--b->num_values];
      wnn_free_str(&b->alloc, v->name);
      wnn_free(&b->alloc, v->data, v->nbytes, 64);
    }
    wnn_free_str(&b->alloc, n.name);
    wnn_json_begin(&b->alloc);
    cJSON_Delete(n.attrs);
    wnn_json_end();
    return st;
  }
  b->nodes[b->num_nodes++] = n;
  b->has_shape_nodes |= shape_node;
  for (int k = 0; k < num_outputs; k++) outputs[k] = n.outputs[k];
  return WNN_OK;
}

wnn_status wnn_builder_add_node(wnn_builder *b, const char *op_type, const char *name,
                                const int *inputs, int num_inputs, const char *attrs_json,
                                int num_outputs, int *outputs) {
  return add_node(b, op_type, name, inputs, num_inputs, attrs_json, num_outputs, outputs, false);
}

wnn_status wnn_builder_add_shape_node(wnn_builder *b, const char *op_type, const char *name,
                                      const int *inputs, int num_inputs, const char *attrs_json,
                                      int num_outputs, int *outputs) {
  return add_node(b, op_type, name, inputs, num_inputs, attrs_json, num_outputs, outputs, true);
}

wnn_status wnn_builder_add_dim(wnn_builder *b, const char *name, int64_t default_size,
                               int64_t max_size, int64_t multiple) {
  wnn_clear_error();
  if (!b || !name) return fail(WNN_ERR_INVALID_ARGUMENT, "add_dim: NULL argument");
  if (!name[0]) return fail(WNN_ERR_INVALID_ARGUMENT, "add_dim: the name is empty");
  for (int i = 0; i < b->num_dims; i++)
    if (!strcmp(b->dims[i].name, name))
      return fail(WNN_ERR_INVALID_ARGUMENT, "add_dim: a dim is already named \"%s\"", name);
  if (b->num_dims == MAX_DIMS_NAMED)
    return fail(WNN_ERR_LIMIT, "add_dim \"%s\": at most %d dims", name, MAX_DIMS_NAMED);
  if (default_size < 0 || default_size > (INT64_C(1) << 40) || max_size < 0 ||
      max_size > (INT64_C(1) << 40) || multiple < 1 || multiple > (INT64_C(1) << 40))
    return fail(WNN_ERR_INVALID_ARGUMENT,
                "add_dim \"%s\": default %lld, max %lld, multiple %lld out of range", name,
                (long long)default_size, (long long)max_size, (long long)multiple);
  if (max_size && default_size > max_size)
    return fail(WNN_ERR_INVALID_ARGUMENT, "add_dim \"%s\": default %lld is over its max %lld",
                name, (long long)default_size, (long long)max_size);
  if (default_size % multiple)
    return fail(WNN_ERR_INVALID_ARGUMENT, "add_dim \"%s\": default %lld is not a multiple of %lld",
                name, (long long)default_size, (long long)multiple);
  bdim *d = &b->dims[b->num_dims];
  if (!(d->name = wnn_strndup(&b->alloc, name, strlen(name))))
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory adding a dim");
  d->default_size = default_size;
  d->max_size = max_size;
  d->multiple = multiple;
  b->num_dims++;
  return WNN_OK;
}

wnn_status wnn_builder_set_node_guards(wnn_builder *b, int node, int count, const int *values,
                                       const int *expect) {
  wnn_clear_error();
  if (!b || (count && (!values || !expect)))
    return fail(WNN_ERR_INVALID_ARGUMENT, "set_node_guards: NULL argument");
  if (node < 0 || node >= b->num_nodes)
    return fail(WNN_ERR_OUT_OF_RANGE, "set_node_guards: node %d does not exist (%d nodes)", node,
                b->num_nodes);
  bnode *n = &b->nodes[node];
  if (count < 0 || count > WNN_MAX_GUARDS)
    return fail(WNN_ERR_INVALID_ARGUMENT, "set_node_guards: node %d (%s): %d guards; at most %d",
                node, n->op->name, count, WNN_MAX_GUARDS);
  for (int k = 0; k < count; k++) {
    int v = values[k];
    if (v < 0 || v >= b->num_values)
      return fail(WNN_ERR_OUT_OF_RANGE, "set_node_guards: node %d (%s): guard %d is value %d, which does not exist",
                  node, n->op->name, k, v);
    const bvalue *x = &b->values[v];
    if (x->producer >= node)
      return fail(WNN_ERR_INVALID_ARGUMENT,
                  "set_node_guards: node %d (%s): guard %d is value %d, produced by node %d, not before it",
                  node, n->op->name, k, v, x->producer);
    if (x->dtype == WNN_DTYPE_F16 || x->nbytes != wnn_dtype_size(x->dtype))
      return fail(WNN_ERR_INVALID_ARGUMENT,
                  "set_node_guards: node %d (%s): guard %d is value %d (%s, %zu bytes); a guard is "
                  "one element of bool, uint8, int8, int32, int64 or float32",
                  node, n->op->name, k, v, wnn_dtype_name(x->dtype), x->nbytes);
    if (expect[k] != 0 && expect[k] != 1)
      return fail(WNN_ERR_INVALID_ARGUMENT, "set_node_guards: node %d (%s): guard %d expects %d, not 0 or 1",
                  node, n->op->name, k, expect[k]);
  }
  n->num_guards = count;
  for (int k = 0; k < count; k++) {
    n->guards[k] = values[k];
    n->guard_expect[k] = expect[k];
  }
  return WNN_OK;
}

wnn_status wnn_builder_set_value_name(wnn_builder *b, int value, const char *name) {
  wnn_clear_error();
  if (!b || !name || !*name) return fail(WNN_ERR_INVALID_ARGUMENT, "set_value_name: no name");
  if (value < 0 || value >= b->num_values)
    return fail(WNN_ERR_OUT_OF_RANGE, "set_value_name \"%s\": value %d does not exist", name, value);
  bvalue *v = &b->values[value];
  if (v->kind == WNN_VALUE_INPUT || v->kind == WNN_VALUE_PARAM)
    return fail(WNN_ERR_INVALID_ARGUMENT, "set_value_name \"%s\": value %d is an %s, named when added",
                name, value, kind_name(v->kind));
  if (v->name) {
    if (!strcmp(v->name, name)) return WNN_OK;
    return fail(WNN_ERR_INVALID_ARGUMENT, "set_value_name \"%s\": value %d is already named \"%s\"",
                name, value, v->name);
  }
  if (!(v->name = wnn_strndup(&b->alloc, name, strlen(name))))
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory naming a value");
  return WNN_OK;
}

wnn_status wnn_builder_set_integer_names(wnn_builder *b, int on) {
  wnn_clear_error();
  if (!b) return fail(WNN_ERR_INVALID_ARGUMENT, "set_integer_names: NULL builder");
  b->integer_names = on != 0;
  return WNN_OK;
}

wnn_status wnn_builder_add_output(wnn_builder *b, int value, const char *name) {
  wnn_clear_error();
  if (!b || !name) return fail(WNN_ERR_INVALID_ARGUMENT, "add_output: NULL argument");
  if (value < 0 || value >= b->num_values)
    return fail(WNN_ERR_OUT_OF_RANGE, "add_output \"%s\": value %d does not exist", name, value);
  bvalue *v = &b->values[value];
  for (int i = 0; i < b->num_outputs; i++) {
    if (b->outputs[i] == value)
      return fail(WNN_ERR_INVALID_ARGUMENT, "add_output \"%s\": value %d is already an output", name, value);
    if (!strcmp(b->values[b->outputs[i]].name, name))
      return fail(WNN_ERR_INVALID_ARGUMENT, "add_output: an output is already named \"%s\"", name);
  }
  if (v->name && strcmp(v->name, name))
    return fail(WNN_ERR_INVALID_ARGUMENT, "add_output \"%s\": value %d is already named \"%s\"",
                name, value, v->name);
  if (!v->name && !(v->name = wnn_strndup(&b->alloc, name, strlen(name))))
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory adding an output");
  if (!push_int(b, &b->outputs, &b->num_outputs, &b->cap_outputs, value))
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory adding an output");
  return WNN_OK;
}

/* ---------------------------------------------------------------- planning */

/* Lifetimes as docs/format.md defines them, then the greedy plan. */
static wnn_status plan(wnn_builder *b, size_t *arena_bytes) {
  int end = b->num_nodes;
  for (int i = 0; i < b->num_values; i++) {
    bvalue *v = &b->values[i];
    v->first = v->kind == WNN_VALUE_INPUT ? 0 : v->producer >= 0 ? v->producer : 0;
    v->last = v->kind == WNN_VALUE_INPUT ? end : v->first;
  }
  for (int i = 0; i < b->num_nodes; i++)
    for (int k = 0; k < b->nodes[i].num_inputs; k++) {
      int v = b->nodes[i].inputs[k];
      if (v >= 0 && b->values[b->values[v].root].last < i) b->values[b->values[v].root].last = i;
    }
  for (int i = 0; i < b->num_nodes; i++) /* guards are read too */
    for (int k = 0; k < b->nodes[i].num_guards; k++) {
      bvalue *root = &b->values[b->values[b->nodes[i].guards[k]].root];
      if (root->last < i) root->last = i;
    }
  for (int i = 0; i < b->num_values; i++) {
    bvalue *v = &b->values[i], *root = &b->values[v->root];
    if (v->kind == WNN_VALUE_ALIAS && root->last < v->last) root->last = v->last;
  }
  for (int k = 0; k < b->num_outputs; k++) b->values[b->values[b->outputs[k]].root].last = end;

  /* In place (docs/format.md): output 0 of an in-place node without scratch
   * takes the bytes of an input of its size that dies there. Such values
   * form groups (chains of in-place nodes), each planned as one block over
   * the union of its members' lifetimes; group[v] is v's group leader. */
  int *group = wnn_calloc(&b->alloc, (size_t)b->num_values + 1, sizeof(int), 16);
  if (!group) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory planning memory");
  for (int i = 0; i < b->num_values; i++) group[i] = i;
  for (int i = 0; i < b->num_nodes; i++) {
    const bnode *nd = &b->nodes[i];
    if (!(nd->op->flags & WNN_OP_INPLACE) || nd->scratch_bytes || nd->num_outputs < 1) continue;
    bvalue *o = &b->values[nd->outputs[0]];
    if (o->kind != WNN_VALUE_ARENA) continue;
    for (int k = 0; k < nd->num_inputs; k++) {
      if (nd->inputs[k] < 0) continue;
      const int r = b->values[nd->inputs[k]].root;
      const bvalue *rv = &b->values[r];
      if (rv->kind != WNN_VALUE_ARENA || rv->last != i || rv->nbytes != o->nbytes || !o->nbytes)
        continue;
      group[nd->outputs[0]] = group[r]; /* r's leader: leaders precede their members */
      b->inplace = true;
      break;
    }
  }
  for (int i = 0; i < b->num_values; i++) { /* each leader spans its group */
    bvalue *v = &b->values[i], *lead = &b->values[group[i]];
    if (group[i] == i) continue;
    if (v->first < lead->first) lead->first = v->first;
    if (v->last > lead->last) lead->last = v->last;
  }

  int max_blocks = b->num_values + b->num_nodes;
  wnn_plan_block *blocks = wnn_calloc(&b->alloc, (size_t)max_blocks + 1, sizeof *blocks, 16);
  int *owner = wnn_calloc(&b->alloc, (size_t)max_blocks + 1, sizeof(int), 16);
  int *scratch = wnn_calloc(&b->alloc, 2 * (size_t)max_blocks + 1, sizeof(int), 16);
  wnn_status st = WNN_OK;
  if (!blocks || !owner || !scratch) {
    st = fail(WNN_ERR_OUT_OF_MEMORY, "out of memory planning memory");
  } else {
    int n = 0;
    for (int i = 0; i < b->num_values; i++) {
      bvalue *v = &b->values[i];
      if ((v->kind != WNN_VALUE_INPUT && v->kind != WNN_VALUE_ARENA) || group[i] != i) continue;
      blocks[n] = (wnn_plan_block){v->nbytes, v->first, v->last, 0};
      owner[n++] = i;
    }
    for (int i = 0; i < b->num_nodes; i++) {
      if (!b->nodes[i].scratch_bytes) continue;
      blocks[n] = (wnn_plan_block){b->nodes[i].scratch_bytes, i, i, 0};
      owner[n++] = -1 - i;
    }
    if (wnn_plan_greedy(blocks, n, PLAN_ALIGN, scratch, arena_bytes))
      st = fail(WNN_ERR_OUT_OF_RANGE, "the memory plan overflows size_t");
    for (int k = 0; !st && k < n; k++) {
      if (owner[k] >= 0) b->values[owner[k]].offset = blocks[k].offset;
      else b->nodes[-1 - owner[k]].scratch_offset = blocks[k].offset;
    }
    for (int i = 0; !st && i < b->num_values; i++)
      if (group[i] != i) b->values[i].offset = b->values[group[i]].offset;
  }
  wnn_free(&b->alloc, group, ((size_t)b->num_values + 1) * sizeof(int), 16);
  wnn_free(&b->alloc, blocks, ((size_t)max_blocks + 1) * sizeof *blocks, 16);
  wnn_free(&b->alloc, owner, ((size_t)max_blocks + 1) * sizeof(int), 16);
  wnn_free(&b->alloc, scratch, (2 * (size_t)max_blocks + 1) * sizeof(int), 16);
  return st;
}

/* -------------------------------------------------------------- serializing */

/* Attach item to obj under key, or to an array; either way the container owns
 * item afterwards, so a failure (cJSON copies keys, which can run out of
 * memory) cannot leak it. */
static int put(cJSON *obj, const char *key, cJSON *item) {
  if (!item) return 0;
  if (cJSON_AddItemToObject(obj, key, item)) return 1;
  cJSON_Delete(item);
  return 0;
}

static int push(cJSON *array, cJSON *item) {
  if (!item) return 0;
  if (cJSON_AddItemToArray(array, item)) return 1;
  cJSON_Delete(item);
  return 0;
}

/* A value's shape, with the dim names of a dynamic input. */
static cJSON *value_shape_json(const wnn_builder *b, const bvalue *v) {
  cJSON *a = cJSON_CreateArray();
  for (int d = 0; a && d < v->ndim; d++) {
    cJSON *e = v->named[d] ? cJSON_CreateString(b->dims[v->named[d] - 1].name)
                           : cJSON_CreateNumber((double)v->dims[d]);
    if (!push(a, e)) {
      cJSON_Delete(a);
      return NULL;
    }
  }
  return a;
}

/* graph.dims: {name: {"default": D, "max": M or null, "multiple": K}}. */
static cJSON *dims_json(const wnn_builder *b) {
  cJSON *o = cJSON_CreateObject();
  int ok = o != NULL;
  for (int i = 0; ok && i < b->num_dims; i++) {
    const bdim *d = &b->dims[i];
    cJSON *e = cJSON_CreateObject();
    ok = put(o, d->name, e) && cJSON_AddNumberToObject(e, "default", (double)d->default_size);
    if (ok && d->max_size) ok = cJSON_AddNumberToObject(e, "max", (double)d->max_size) != NULL;
    else if (ok) ok = cJSON_AddNullToObject(e, "max") != NULL;
    if (ok && d->multiple > 1)
      ok = cJSON_AddNumberToObject(e, "multiple", (double)d->multiple) != NULL;
  }
  if (!ok) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

static cJSON *ints_json(const int *v, int n) {
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; a && i < n; i++)
    if (!push(a, cJSON_CreateNumber(v[i]))) {
      cJSON_Delete(a);
      return NULL;
    }
  return a;
}

static const char *kind_name(wnn_value_kind k) {
  switch (k) {
    case WNN_VALUE_INPUT: return "input";
    case WNN_VALUE_PARAM: return "param";
    case WNN_VALUE_ARENA: return "arena";
    case WNN_VALUE_ALIAS: return "alias";
    case WNN_VALUE_SHAPE: return "shape";
  }
  return "";
}

/* A param of at least this many bytes whose elements are all bytewise equal is
 * written as a FILL (docs/format.md): one element in WEIGHTS. Smaller ones stay
 * raw: the saving would not pay for the entry in the fill block. */
#define FILL_MIN_BYTES 64

static unsigned param_codec(const bvalue *v) {
  size_t esize = wnn_dtype_size(v->dtype);
  if (v->nbytes < FILL_MIN_BYTES) return WNN_CODEC_RAW;
  /* Equal to itself shifted by one element: every element is the first. */
  const uint8_t *p = v->data;
  return memcmp(p, p + esize, v->nbytes - esize) ? WNN_CODEC_RAW : WNN_CODEC_FILL;
}

/* Bytes of a param in WEIGHTS. */
static size_t stored_bytes(const bvalue *v) {
  if (v->enc) return v->enc_size;
  return v->codec == WNN_CODEC_FILL ? wnn_dtype_size(v->dtype) : v->nbytes;
}

wnn_status wnn_builder_set_weights(wnn_builder *b, const wnn_builder_weights *w) {
  wnn_clear_error();
  if (!b || !w) return fail(WNN_ERR_INVALID_ARGUMENT, "set_weights: NULL argument");
  const int user = w->codec >= WNN_CODEC_USER_FIRST && w->codec <= WNN_CODEC_USER_LAST;
  if (w->codec != WNN_CODEC_RAW && w->codec != WNN_CODEC_FP16 && w->codec != WNN_CODEC_INT8 && !user)
    return fail(WNN_ERR_INVALID_ARGUMENT,
                "set_weights: codec %u; the builder writes raw (0), fp16 (4), int8 (5) or a user "
                "codec (128-255)", w->codec);
  if (w->compress > 2)
    return fail(WNN_ERR_INVALID_ARGUMENT, "set_weights: compress %u; 0 none, 1 lz4 or 2 zstd",
                w->compress);
#ifndef WNN_WITH_LZ4
  if (w->compress == 1)
    return fail(WNN_ERR_UNSUPPORTED, "set_weights: this build has no lz4 compressor");
#endif
#ifndef WNN_WITH_ZSTD
  if (w->compress == 2)
    return fail(WNN_ERR_UNSUPPORTED, "set_weights: this build has no zstd compressor");
#endif
  if (user && (!w->encode || !strcmp(wnn_codec_name(w->codec), "?")))
    return fail(WNN_ERR_INVALID_ARGUMENT,
                "set_weights: user codec %u needs an encoder and a decoder registered with "
                "wnn_codec_register (the builder loads what it wrote)", w->codec);
  b->weights = *w;
  return WNN_OK;
}

/* Encodes float32 param v with codec (FP16 or INT8) into v->enc; returns the
 * largest error relative to the param's largest magnitude, or -1 (v stays
 * raw) when out of memory or when fp16 cannot hold a value (past 65504). */
static double encode_param(const wnn_builder *b, bvalue *v, unsigned codec) {
  const size_t numel = v->nbytes / 4;
  const float *x = v->data;
  const size_t channels = codec == WNN_CODEC_INT8 ? (size_t)v->dims[0] : 0;
  size_t size = codec == WNN_CODEC_FP16 ? numel * 2
                : codec == WNN_CODEC_INT8 ? channels * 4 + numel : v->nbytes;
  uint8_t *e = wnn_alloc(&b->alloc, size, 64);
  if (!e) return -1;
  double max_abs = 0, max_err = 0;
  for (size_t i = 0; i < numel; i++) max_abs = fmax(max_abs, fabs((double)x[i]));
  if (codec >= WNN_CODEC_USER_FIRST) { /* the user's encoder, checked with its decoder */
    const size_t n = b->weights.encode(b->weights.ctx, v->data, v->nbytes, e, size);
    float *back = n && n <= size ? wnn_alloc(&b->alloc, v->nbytes, 64) : NULL;
    const int ok = back && !wnn_codec_decode(&b->alloc, codec, v->dims, e, n, back, v->nbytes, "builder");
    for (size_t i = 0; ok && i < numel; i++) max_err = fmax(max_err, fabs((double)back[i] - x[i]));
    if (back) wnn_free(&b->alloc, back, v->nbytes, 64);
    if (!ok) {
      wnn_free(&b->alloc, e, size, 64);
      return -1;
    }
    /* keep the allocation's size for the free; enc_size is what is stored */
    v->enc = e;
    v->enc_size = n;
    v->enc_cap = size;
    return max_abs > 0 ? max_err / max_abs : 0;
  }
  if (codec == WNN_CODEC_FP16) {
    for (size_t i = 0; i < numel; i++) {
      const uint16_t h = wnn_f32_to_f16(x[i]);
      const float back = wnn_f16_to_f32(h);
      if (isfinite(x[i]) && !isfinite(back)) {
        wnn_free(&b->alloc, e, size, 64);
        return -1;
      }
      e[2 * i] = (uint8_t)h, e[2 * i + 1] = (uint8_t)(h >> 8);
      max_err = fmax(max_err, fabs((double)back - (double)x[i]));
    }
  } else {
    const size_t per = numel / channels;
    int8_t *q = (int8_t *)(e + 4 * channels);
    for (size_t c = 0; c < channels; c++) {
      float m = 0;
      for (size_t k = 0; k < per; k++) m = fmaxf(m, fabsf(x[c * per + k]));
      const float scale = m / 127.0f;
      memcpy(e + 4 * c, &scale, 4);
      for (size_t k = 0; k < per; k++) {
        const float r = scale > 0 ? nearbyintf(x[c * per + k] / scale) : 0.0f;
        const int8_t qi = (int8_t)(r > 127 ? 127 : r < -127 ? -127 : r);
        q[c * per + k] = qi;
        max_err = fmax(max_err, fabs((double)((float)qi * scale) - (double)x[c * per + k]));
      }
    }
  }
  v->enc = e;
  v->enc_size = v->enc_cap = size;
  return max_abs > 0 ? max_err / max_abs : 0;
}

/* The value codec for raw float32 param v under the builder's weights
 * setting: big enough (min_elements), and for int8 a tensor of rank >= 2
 * (per-channel scales on a vector would cost more than they save). */
static double choose_value_codec(wnn_builder *b, bvalue *v) {
  const wnn_builder_weights *w = &b->weights;
  if (w->codec == WNN_CODEC_RAW || v->codec != WNN_CODEC_RAW || v->dtype != WNN_DTYPE_F32) return 0;
  const size_t min = w->min_elements ? w->min_elements : WNN_BUILDER_WEIGHTS_MIN_ELEMENTS;
  if (v->nbytes / 4 < min || (w->codec == WNN_CODEC_INT8 && (v->ndim < 2 || v->dims[0] < 1)))
    return 0;
  const double err = encode_param(b, v, w->codec);
  if (err < 0) return 0;
  v->codec = w->codec;
  return err;
}

/* Params of at least this many stored bytes are compressed (--compress). */
#define COMPRESS_MIN_BYTES 1024

/* Compresses v's stored bytes with the builder's lossless codec when that
 * saves bytes; the codec's second byte says which (docs/format.md). */
static void compress_param(wnn_builder *b, bvalue *v) {
  const unsigned lossless = b->weights.compress;
  if (!lossless || v->codec == WNN_CODEC_FILL || v->codec >= WNN_CODEC_USER_FIRST) return;
  const size_t n = stored_bytes(v);
  if (n < COMPRESS_MIN_BYTES) return;
  const uint8_t *src = v->enc ? v->enc : v->data;
  size_t cap = 0, got = 0;
#ifdef WNN_WITH_LZ4
  if (lossless == 1 && n <= LZ4_MAX_INPUT_SIZE) cap = (size_t)LZ4_compressBound((int)n);
#endif
#ifdef WNN_WITH_ZSTD
  if (lossless == 2) cap = ZSTD_compressBound(n);
#endif
  uint8_t *c = cap ? wnn_alloc(&b->alloc, cap, 64) : NULL;
  if (!c) return;
#ifdef WNN_WITH_LZ4
  if (lossless == 1) {
    const int r = LZ4_compress_default((const char *)src, (char *)c, (int)n, (int)cap);
    got = r > 0 ? (size_t)r : 0;
  }
#endif
#ifdef WNN_WITH_ZSTD
  if (lossless == 2) {
    const size_t r = ZSTD_compress(c, cap, src, n, WNN_BUILDER_ZSTD_LEVEL);
    got = ZSTD_isError(r) ? 0 : r;
  }
#endif
  if (!got || got >= n) { /* nothing saved: stored as it was */
    wnn_free(&b->alloc, c, cap, 64);
    return;
  }
  wnn_free(&b->alloc, v->enc, v->enc_cap, 64);
  v->enc = c;
  v->enc_size = got;
  v->enc_cap = cap;
  v->codec |= lossless << 8;
}

/* Whether value i is a graph input or output (names kept in a release artifact). */
static bool is_io(const wnn_builder *b, int i) {
  if (b->values[i].kind == WNN_VALUE_INPUT) return true;
  for (int k = 0; k < b->num_outputs; k++)
    if (b->outputs[k] == i) return true;
  return false;
}

/* The GRAPH JSON; NULL when out of memory. Weights offsets are set already. */
static cJSON *graph_json(const wnn_builder *b, size_t arena_bytes) {
  cJSON *g = cJSON_CreateObject();
  int ok = g != NULL;
  if (ok && b->num_dims) ok = put(g, "dims", dims_json(b));
  cJSON *values = ok ? cJSON_AddArrayToObject(g, "values") : NULL;
  ok = ok && values;
  for (int i = 0; ok && i < b->num_values; i++) {
    const bvalue *v = &b->values[i];
    cJSON *o = cJSON_CreateObject();
    ok = push(values, o);
    if (ok && v->name && (!b->integer_names || is_io(b, i)))
      ok = cJSON_AddStringToObject(o, "name", v->name) != NULL;
    ok = ok && cJSON_AddStringToObject(o, "kind", kind_name(v->kind));
    ok = ok && cJSON_AddStringToObject(o, "dtype", wnn_dtype_name(v->dtype));
    ok = ok && put(o, "shape", value_shape_json(b, v));
    if (v->kind == WNN_VALUE_ALIAS) ok = ok && cJSON_AddNumberToObject(o, "of", v->root);
    else if (v->external) ok = ok && cJSON_AddStringToObject(o, "external", v->name);
    else if (v->kind != WNN_VALUE_SHAPE)
      ok = ok && cJSON_AddNumberToObject(o, "offset", (double)v->offset);
    if (v->kind == WNN_VALUE_PARAM && !v->external) {
      ok = ok && cJSON_AddNumberToObject(o, "nbytes", (double)stored_bytes(v));
      ok = ok && cJSON_AddNumberToObject(o, "codec", v->codec);
    }
  }
  ok = ok && put(g, "inputs", ints_json(b->inputs, b->num_inputs));
  ok = ok && put(g, "outputs", ints_json(b->outputs, b->num_outputs));
  cJSON *nodes = ok ? cJSON_AddArrayToObject(g, "nodes") : NULL;
  ok = ok && nodes;
  for (int i = 0; ok && i < b->num_nodes; i++) {
    const bnode *n = &b->nodes[i];
    cJSON *o = cJSON_CreateObject();
    ok = push(nodes, o);
    ok = ok && cJSON_AddNumberToObject(o, "op", n->op->code);
    if (ok && n->name && !b->integer_names)
      ok = cJSON_AddStringToObject(o, "name", n->name) != NULL;
    ok = ok && put(o, "inputs", ints_json(n->inputs, n->num_inputs));
    ok = ok && put(o, "outputs", ints_json(n->outputs, n->num_outputs));
    if (ok && n->attrs) ok = put(o, "attrs", cJSON_Duplicate(n->attrs, 1));
    if (ok && n->shape_node) ok = cJSON_AddNumberToObject(o, "shape", 1) != NULL;
    if (ok && n->num_guards) {
      cJSON *when = cJSON_CreateArray();
      ok = put(o, "when", when);
      for (int k = 0; ok && k < n->num_guards; k++) {
        int pair[2] = {n->guards[k], n->guard_expect[k]};
        ok = push(when, ints_json(pair, 2));
      }
    }
    if (ok && n->scratch_bytes) {
      ok = cJSON_AddNumberToObject(o, "scratch_offset", (double)n->scratch_offset) != NULL;
      ok = ok && cJSON_AddNumberToObject(o, "scratch_bytes", (double)n->scratch_bytes);
    }
  }
  ok = ok && cJSON_AddNumberToObject(g, "arena_bytes", (double)arena_bytes);
  if (!ok) {
    cJSON_Delete(g);
    return NULL;
  }
  return g;
}

static cJSON *io_json(const wnn_builder *b, const int *list, int n) {
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; a && i < n; i++) {
    const bvalue *v = &b->values[list[i]];
    cJSON *o = cJSON_CreateObject();
    int ok = push(a, o) && cJSON_AddStringToObject(o, "name", v->name) &&
             cJSON_AddStringToObject(o, "dtype", wnn_dtype_name(v->dtype)) &&
             put(o, "shape", value_shape_json(b, v));
    if (!ok) {
      cJSON_Delete(a);
      return NULL;
    }
  }
  return a;
}

/* The METADATA JSON: the caller's fields plus what an integrator needs. */
static cJSON *metadata_json(const wnn_builder *b, size_t arena_bytes, size_t weights_bytes) {
  cJSON *m = cJSON_Duplicate(b->meta, 1);
  int ok = m != NULL;
  int num_params = 0;
  for (int i = 0; i < b->num_values; i++) num_params += b->values[i].kind == WNN_VALUE_PARAM;
  char version[16];
  snprintf(version, sizeof version, "%d.%d", WNN_FORMAT_MAJOR, WNN_FORMAT_MINOR);
  ok = ok && cJSON_AddStringToObject(m, "format_version", version);
  if (ok && !cJSON_GetObjectItemCaseSensitive(m, "producer")) {
    char producer[48];
    snprintf(producer, sizeof producer, "wnn-builder %s", wnn_version());
    ok = cJSON_AddStringToObject(m, "producer", producer) != NULL;
  }
  if (ok && b->num_dims) ok = put(m, "dims", dims_json(b));
  ok = ok && put(m, "inputs", io_json(b, b->inputs, b->num_inputs));
  ok = ok && put(m, "outputs", io_json(b, b->outputs, b->num_outputs));
  ok = ok && cJSON_AddNumberToObject(m, "num_params", num_params);
  ok = ok && cJSON_AddNumberToObject(m, "num_nodes", b->num_nodes);
  ok = ok && cJSON_AddNumberToObject(m, "arena_bytes", (double)arena_bytes);
  ok = ok && cJSON_AddNumberToObject(m, "weights_bytes", (double)weights_bytes);
  cJSON *ops = ok ? cJSON_AddObjectToObject(m, "ops") : NULL;
  ok = ok && ops;
  for (int i = 0; ok && i < b->num_nodes; i++) {
    cJSON *c = cJSON_GetObjectItemCaseSensitive(ops, b->nodes[i].op->name);
    if (c) cJSON_SetNumberValue(c, c->valuedouble + 1);
    else ok = cJSON_AddNumberToObject(ops, b->nodes[i].op->name, 1) != NULL;
  }
  if (!ok) {
    cJSON_Delete(m);
    return NULL;
  }
  return m;
}

static size_t align_up(size_t x) { return (x + WNN_SECTION_ALIGN - 1) & ~(size_t)(WNN_SECTION_ALIGN - 1); }

/* Gathers every param's stored bytes into one weights blob at its planned
 * offset. */
static uint8_t *weights_blob(const wnn_builder *b, size_t weights_bytes) {
  uint8_t *w = wnn_calloc(&b->alloc, 1, weights_bytes, 64);
  for (int v = 0; w && v < b->num_values; v++)
    if (b->values[v].kind == WNN_VALUE_PARAM && b->values[v].nbytes && !b->values[v].external)
      memcpy(w + b->values[v].offset, b->values[v].enc ? b->values[v].enc : b->values[v].data,
             stored_bytes(&b->values[v]));
  return w;
}

/* The params blob of the external params (every raw param with bytes), and
 * the PARAMS_REF section's bytes for it. */
static wnn_status params_blob(wnn_builder *b, uint8_t **blob, size_t *blob_size,
                              uint8_t ref[WNN_PARAMS_REF_SIZE]) {
  int n = 0;
  for (int i = 0; i < b->num_values; i++) n += b->values[i].external;
  wnn_params_entry *e = wnn_alloc(&b->alloc, sizeof *e * (size_t)(n ? n : 1), 8);
  if (!e) return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory writing the params blob");
  n = 0;
  for (int i = 0; i < b->num_values; i++) {
    const bvalue *v = &b->values[i];
    if (v->external)
      e[n++] = (wnn_params_entry){v->name, v->dtype, v->ndim, v->dims, v->data,
                                  v->enc ? v->codec : WNN_CODEC_RAW, v->enc, v->enc_size};
  }
  wnn_status st = wnn_params_write(&b->alloc, e, n, blob, blob_size);
  wnn_free(&b->alloc, e, sizeof *e * (size_t)(n ? n : 1), 8);
  if (st) return fail(st, "finish: params blob: %s", wnn_last_error());
  wnn_sha256_of(*blob, *blob_size, ref);
  wnn_wr64(ref + 32, *blob_size);
  return WNN_OK;
}

static wnn_status finish(wnn_builder *b, void **data, size_t *size, void **pdata, size_t *psize);

wnn_status wnn_builder_finish(wnn_builder *b, void **data, size_t *size) {
  return finish(b, data, size, NULL, NULL);
}

wnn_status wnn_builder_finish_with_params(wnn_builder *b, void **data, size_t *size,
                                          void **params, size_t *params_size) {
  if (!params || !params_size) {
    wnn_clear_error();
    return fail(WNN_ERR_INVALID_ARGUMENT, "finish: NULL argument");
  }
  return finish(b, data, size, params, params_size);
}

static wnn_status finish(wnn_builder *b, void **data, size_t *size, void **pdata, size_t *psize) {
  wnn_clear_error();
  if (!b || !data || !size) return fail(WNN_ERR_INVALID_ARGUMENT, "finish: NULL argument");
  if (b->num_outputs == 0) return fail(WNN_ERR_INVALID_ARGUMENT, "finish: the graph has no outputs");
  size_t arena_bytes = 0, weights_bytes = 0, decoded_bytes = 0;
  wnn_status st = plan(b, &arena_bytes);
  if (st) return st;
  if (arena_bytes > WNN_MAX_ARENA_BYTES)
    return fail(WNN_ERR_LIMIT,
                "finish: the memory plan needs a %zu-byte arena, over the %u bytes an artifact "
                "may plan (WNN_MAX_ARENA_BYTES)", arena_bytes, WNN_MAX_ARENA_BYTES);
  wnn_fill_layout fills = {0}; /* what the loader materializes for FILL params */
  for (int i = 0; i < b->num_values; i++)
    if (b->values[i].kind == WNN_VALUE_PARAM) {
      bvalue *v = &b->values[i];
      wnn_free(&b->alloc, v->enc, v->enc_cap, 64); /* from an earlier finish */
      v->enc = NULL, v->enc_size = v->enc_cap = 0;
      v->codec = param_codec(v);
      const double err = choose_value_codec(b, v);
      compress_param(b, v);
      if (v->enc && b->weights.report)
        b->weights.report(b->weights.ctx, v->name, v->codec, v->enc_size, v->nbytes, err);
      if (v->codec == WNN_CODEC_FILL)
        wnn_fill_layout_add(&fills, wnn_dtype_size(v->dtype), v->data, v->nbytes);
      /* Fills (one element) and empty params stay in the artifact. */
      v->external = pdata && v->codec != WNN_CODEC_FILL && v->nbytes > 0;
      if (v->external) continue;
      if (v->enc) decoded_bytes += align_up(v->nbytes); /* the loader's decode block */
      v->offset = weights_bytes;
      weights_bytes = align_up(weights_bytes + stored_bytes(v));
    }
  size_t fill_bytes = wnn_fill_layout_finish(&fills);

  uint8_t *blob = NULL, ref[WNN_PARAMS_REF_SIZE];
  size_t blob_size = 0;
  if (pdata && (st = params_blob(b, &blob, &blob_size, ref))) return st;

  wnn_json_begin(&b->alloc);
  cJSON *g = graph_json(b, arena_bytes);
  cJSON *m = metadata_json(b, arena_bytes, weights_bytes + fill_bytes + decoded_bytes);
  char *gs = g ? cJSON_PrintUnformatted(g) : NULL, *ms = m ? cJSON_PrintUnformatted(m) : NULL;
  uint8_t *weights = weights_bytes ? weights_blob(b, weights_bytes) : NULL;
  uint8_t *buf = NULL;
  if (gs && ms && (weights || !weights_bytes)) {
    wnn_section_data sec[4] = {{WNN_SECTION_GRAPH, gs, strlen(gs)},
                               {WNN_SECTION_METADATA, ms, strlen(ms)},
                               {WNN_SECTION_PARAMS_REF, ref, sizeof ref},
                               {WNN_SECTION_WEIGHTS, weights, weights_bytes}};
    if (!pdata) sec[2] = sec[3];
    buf = wnn_container_write(&b->alloc, sec, 2 + (pdata != NULL) + (weights_bytes > 0), size);
  }
  int guarded = 0, f64 = 0;
  for (int i = 0; i < b->num_nodes; i++) guarded |= b->nodes[i].num_guards > 0;
  for (int i = 0; i < b->num_values; i++) f64 |= b->values[i].dtype == WNN_DTYPE_F64;
  uint64_t features = (guarded ? WNN_FEATURE_GUARDS : 0) | (b->inplace ? WNN_FEATURE_INPLACE : 0) |
                      (f64 ? WNN_FEATURE_FLOAT64 : 0) |
                      (b->num_dims || b->has_shape_nodes ? WNN_FEATURE_DYNAMIC : 0) |
                      (pdata ? WNN_FEATURE_EXTERNAL_PARAMS : 0) |
                      (b->integer_names ? WNN_FEATURE_INTEGER_NAMES : 0);
  if (buf && features) { /* see format.h: why each bit is required */
    wnn_wr64(buf + 24, wnn_rd64(buf + 24) | features);
    wnn_container_reseal(buf);
  }
  wnn_free(&b->alloc, weights, weights_bytes, 64);
  cJSON_free(gs);
  cJSON_free(ms);
  cJSON_Delete(g);
  cJSON_Delete(m);
  wnn_json_end();
  if (!buf) {
    if (blob) wnn_free(&b->alloc, blob, blob_size, 64);
    return fail(WNN_ERR_OUT_OF_MEMORY, "out of memory serializing the artifact");
  }

  /* Load what we wrote: the runtime's checks are the builder's self-test. */
  wnn_load_options opt = {WNN_LOAD_BORROW, WNN_KERNELS_AUTO, &b->alloc};
  wnn_model *check = NULL;
  wnn_params *bound = NULL;
  st = blob ? wnn_params_load(blob, blob_size, &opt, &bound) : WNN_OK;
  if (!st)
    st = blob ? wnn_model_load_with_params(buf, *size, bound, &opt, &check)
              : wnn_model_load(buf, *size, &opt, &check);
  wnn_model_free(check);
  wnn_params_free(bound);
  if (st) {
    char why[512];
    snprintf(why, sizeof why, "%s", wnn_last_error());
    wnn_free(&b->alloc, buf, *size, 64);
    if (blob) wnn_free(&b->alloc, blob, blob_size, 64);
    return fail(st, "the builder wrote an artifact the runtime rejects: %s", why);
  }
  if (pdata) *pdata = blob, *psize = blob_size;
  *data = buf;
  return WNN_OK;
}

void wnn_builder_free_artifact(wnn_builder *b, void *data, size_t size) {
  if (b && data) wnn_free(&b->alloc, data, size, 64);
}
