/*
 * Helpers for the importer's tests: small ONNX models built in C with the
 * protobuf-c structs generated from onnx.proto, packed to bytes, converted,
 * loaded and run. Everything a model allocates is freed by tm_free.
 */
#ifndef WNN_TEST_IMPORTER_UTIL_H
#define WNN_TEST_IMPORTER_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importer/importer.h"
#include "onnx.pb-c.h"
#include "test.h"
#include "wnn.h"

#define TM_MAX 256

typedef struct tm_model {
  Onnx__ModelProto model;
  Onnx__GraphProto graph;
  Onnx__OperatorSetIdProto opset[2];
  Onnx__OperatorSetIdProto *opsets[2];
  Onnx__NodeProto *nodes[TM_MAX];
  Onnx__TensorProto *inits[TM_MAX];
  Onnx__ValueInfoProto *inputs[16], *outputs[16];
  void *pool[4 * TM_MAX * 8];
  int n_pool;
} tm_model;

static void *tm_alloc(tm_model *m, size_t size) {
  void *p = calloc(1, size ? size : 1);
  if (p && m->n_pool < (int)(sizeof m->pool / sizeof m->pool[0])) m->pool[m->n_pool++] = p;
  return p;
}

static char *tm_str(tm_model *m, const char *s) {
  char *d = tm_alloc(m, strlen(s) + 1);
  memcpy(d, s, strlen(s) + 1);
  return d;
}

static void tm_init(tm_model *m, int opset) {
  memset(m, 0, sizeof *m);
  Onnx__ModelProto mi = ONNX__MODEL_PROTO__INIT;
  Onnx__GraphProto gi = ONNX__GRAPH_PROTO__INIT;
  Onnx__OperatorSetIdProto oi = ONNX__OPERATOR_SET_ID_PROTO__INIT;
  m->model = mi;
  m->graph = gi;
  m->opset[0] = oi;
  m->opset[0].domain = tm_str(m, "");
  m->opset[0].has_version = 1;
  m->opset[0].version = opset;
  m->opsets[0] = &m->opset[0];
  m->model.has_ir_version = 1;
  m->model.ir_version = 8;
  m->model.n_opset_import = 1;
  m->model.opset_import = m->opsets;
  m->model.graph = &m->graph;
  m->graph.name = tm_str(m, "test");
  m->graph.node = m->nodes;
  m->graph.initializer = m->inits;
  m->graph.input = m->inputs;
  m->graph.output = m->outputs;
}

static void tm_free(tm_model *m) {
  for (int i = 0; i < m->n_pool; i++) free(m->pool[i]);
  m->n_pool = 0;
}

/* Splits "a,b,,c" into strings ("" for an omitted input). */
static size_t tm_split(tm_model *m, const char *csv, char ***out) {
  size_t n = 0;
  if (!csv || !*csv) {
    *out = NULL;
    return 0;
  }
  for (const char *p = csv; *p; p++) n += *p == ',';
  n++;
  char **list = tm_alloc(m, n * sizeof *list);
  const char *p = csv;
  for (size_t i = 0; i < n; i++) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    list[i] = tm_alloc(m, len + 1);
    memcpy(list[i], p, len);
    p = e ? e + 1 : p + len;
  }
  *out = list;
  return n;
}

static Onnx__NodeProto *tm_node(tm_model *m, const char *op, const char *name, const char *inputs,
                                const char *outputs) {
  Onnx__NodeProto *n = tm_alloc(m, sizeof *n);
  Onnx__NodeProto ni = ONNX__NODE_PROTO__INIT;
  *n = ni;
  n->op_type = tm_str(m, op);
  n->name = tm_str(m, name);
  n->n_input = tm_split(m, inputs, &n->input);
  n->n_output = tm_split(m, outputs, &n->output);
  n->attribute = tm_alloc(m, 16 * sizeof *n->attribute);
  m->nodes[m->graph.n_node++] = n;
  return n;
}

static Onnx__AttributeProto *tm_attr(tm_model *m, Onnx__NodeProto *n, const char *name,
                                     Onnx__AttributeProto__AttributeType type) {
  Onnx__AttributeProto *a = tm_alloc(m, sizeof *a);
  Onnx__AttributeProto ai = ONNX__ATTRIBUTE_PROTO__INIT;
  *a = ai;
  a->name = tm_str(m, name);
  a->has_type = 1;
  a->type = type;
  n->attribute[n->n_attribute++] = a;
  return a;
}

static void tm_attr_int(tm_model *m, Onnx__NodeProto *n, const char *name, int64_t v) {
  Onnx__AttributeProto *a = tm_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
  a->has_i = 1;
  a->i = v;
}

static inline void tm_attr_float(tm_model *m, Onnx__NodeProto *n, const char *name, float v) {
  Onnx__AttributeProto *a = tm_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
  a->has_f = 1;
  a->f = v;
}

static void tm_attr_ints(tm_model *m, Onnx__NodeProto *n, const char *name, int count,
                         const int64_t *v) {
  Onnx__AttributeProto *a = tm_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
  a->n_ints = (size_t)count;
  a->ints = tm_alloc(m, (size_t)count * sizeof *v);
  memcpy(a->ints, v, (size_t)count * sizeof *v);
}

static inline void tm_attr_string(tm_model *m, Onnx__NodeProto *n, const char *name, const char *s) {
  Onnx__AttributeProto *a = tm_attr(m, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
  a->has_s = 1;
  a->s.data = (uint8_t *)tm_str(m, s);
  a->s.len = strlen(s);
}

/* A tensor: FLOAT with raw_data, INT64 with int64_data. */
static Onnx__TensorProto *tm_tensor(tm_model *m, const char *name, int type, int ndim,
                                    const int64_t *dims, const void *data) {
  Onnx__TensorProto *t = tm_alloc(m, sizeof *t);
  Onnx__TensorProto ti = ONNX__TENSOR_PROTO__INIT;
  *t = ti;
  t->name = tm_str(m, name);
  t->has_data_type = 1;
  t->data_type = type;
  t->n_dims = (size_t)ndim;
  t->dims = tm_alloc(m, (size_t)ndim * sizeof(int64_t) + 1);
  size_t n = 1;
  for (int d = 0; d < ndim; d++) {
    t->dims[d] = dims[d];
    n *= (size_t)dims[d];
  }
  if (type == 7) {
    t->n_int64_data = n;
    t->int64_data = tm_alloc(m, n * 8);
    if (data) memcpy(t->int64_data, data, n * 8);
  } else {
    size_t es = type == 10 ? 2 : type == 11 ? 8 : type == 1 || type == 6 ? 4 : 1;
    t->has_raw_data = 1;
    t->raw_data.len = n * es;
    t->raw_data.data = tm_alloc(m, n * es);
    if (data) memcpy(t->raw_data.data, data, n * es);
  }
  return t;
}

static void tm_initializer(tm_model *m, const char *name, int type, int ndim, const int64_t *dims,
                           const void *data) {
  m->inits[m->graph.n_initializer++] = tm_tensor(m, name, type, ndim, dims, data);
}

static Onnx__ValueInfoProto *tm_value_info(tm_model *m, const char *name, int type, int ndim,
                                           const int64_t *dims) {
  Onnx__ValueInfoProto *v = tm_alloc(m, sizeof *v);
  Onnx__ValueInfoProto vi = ONNX__VALUE_INFO_PROTO__INIT;
  *v = vi;
  v->name = tm_str(m, name);
  if (type == 0) return v;
  Onnx__TypeProto *tp = tm_alloc(m, sizeof *tp);
  Onnx__TypeProto tpi = ONNX__TYPE_PROTO__INIT;
  *tp = tpi;
  Onnx__TypeProto__Tensor *tt = tm_alloc(m, sizeof *tt);
  Onnx__TypeProto__Tensor tti = ONNX__TYPE_PROTO__TENSOR__INIT;
  *tt = tti;
  tt->has_elem_type = 1;
  tt->elem_type = type;
  tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  tp->tensor_type = tt;
  v->type = tp;
  if (ndim < 0) return v; /* no shape at all */
  Onnx__TensorShapeProto *sp = tm_alloc(m, sizeof *sp);
  Onnx__TensorShapeProto spi = ONNX__TENSOR_SHAPE_PROTO__INIT;
  *sp = spi;
  sp->n_dim = (size_t)ndim;
  sp->dim = tm_alloc(m, (size_t)ndim * sizeof *sp->dim + 1);
  for (int d = 0; d < ndim; d++) {
    Onnx__TensorShapeProto__Dimension *dim = tm_alloc(m, sizeof *dim);
    Onnx__TensorShapeProto__Dimension di = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
    *dim = di;
    if (dims[d] == -2) {
      dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
      dim->dim_param = tm_str(m, "batch");
    } else {
      dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
      dim->dim_value = dims[d];
    }
    sp->dim[d] = dim;
  }
  tt->shape = sp;
  return v;
}

/* A graph input; a dim of -2 is symbolic ("batch"), -1 is stored as -1;
 * ndim -1 means no shape. */
static void tm_input(tm_model *m, const char *name, int type, int ndim, const int64_t *dims) {
  m->inputs[m->graph.n_input++] = tm_value_info(m, name, type, ndim, dims);
}

static void tm_output(tm_model *m, const char *name) {
  m->outputs[m->graph.n_output++] = tm_value_info(m, name, 0, 0, NULL);
}

/* Packs the model into malloc'd bytes. */
static uint8_t *tm_pack(tm_model *m, size_t *size) {
  *size = onnx__model_proto__get_packed_size(&m->model);
  uint8_t *buf = malloc(*size ? *size : 1);
  onnx__model_proto__pack(&m->model, buf);
  return buf;
}

/* Warnings collected by a conversion. */
typedef struct tm_warnings {
  char text[4096];
  int count;
} tm_warnings;

static void tm_warn(void *ctx, const char *msg) {
  tm_warnings *w = ctx;
  size_t used = strlen(w->text);
  snprintf(w->text + used, sizeof w->text - used, "%s\n", msg);
  w->count++;
}

/* Converts m with opt (its base_dir set to "build"); returns the status and
 * fills res (the artifact is the caller's). */
static inline wnn_status tm_convert_opt(tm_model *m, wnn_import_options *opt, wnn_import_result *res) {
  size_t size;
  uint8_t *bytes = tm_pack(m, &size);
  opt->base_dir = "build";
  wnn_status st = wnn_import_onnx(bytes, size, opt, res);
  free(bytes);
  return st;
}

/* Converts m; returns the status and fills res (the artifact is the caller's). */
static wnn_status tm_convert(tm_model *m, const wnn_import_shape *shapes, int num_shapes,
                             tm_warnings *warnings, wnn_import_result *res) {
  wnn_import_options opt;
  memset(&opt, 0, sizeof opt);
  opt.shapes = shapes;
  opt.num_shapes = num_shapes;
  if (warnings) {
    memset(warnings, 0, sizeof *warnings);
    opt.warn = tm_warn;
    opt.warn_ctx = warnings;
  }
  return tm_convert_opt(m, &opt, res);
}

/* Converts m with or without the quantized rewrites (pass_qdq.c); prints the
 * importer's message and returns false on failure. */
static inline bool tm_convert_rewrites(tm_model *m, bool rewrites, wnn_import_result *res) {
  wnn_import_options opt;
  memset(&opt, 0, sizeof opt);
  opt.no_quant_rewrites = !rewrites;
  const wnn_status st = tm_convert_opt(m, &opt, res);
  if (st)
    printf("  %s: convert (%s rewrites): %s\n", test_current_, rewrites ? "with" : "without",
           res->msg);
  return st == WNN_OK;
}

/* Runs an artifact with the given kernels on inputs (in model input order,
 * each read as the input's declared dtype) and copies outputs first .. first
 * + num_outputs - 1 into ys[k] (bytes[k] bytes). Returns the status. */
static inline wnn_status tm_run_all_k(const void *artifact, size_t size, wnn_kernels kernels,
                                      int num_inputs, const void *const *xs, int first,
                                      int num_outputs, void *const *ys, const size_t *bytes) {
  wnn_load_options lo;
  memset(&lo, 0, sizeof lo);
  lo.kernels = kernels;
  wnn_model *model = NULL;
  wnn_status st = wnn_model_load(artifact, size, &lo, &model);
  if (st) return st;
  wnn_executor *ex = NULL;
  st = wnn_executor_create(model, &ex);
  for (int i = 0; !st && i < num_inputs; i++) {
    wnn_tensor_info info;
    st = wnn_model_input_info(model, i, &info);
    if (st) break;
    DLTensor t;
    memset(&t, 0, sizeof t);
    t.data = (void *)xs[i];
    t.device.device_type = kDLCPU;
    t.ndim = info.ndim;
    t.dtype = wnn_dtype_to_dl(info.dtype);
    t.shape = (int64_t *)info.shape;
    st = wnn_executor_set_input(ex, i, &t);
  }
  if (!st) st = wnn_executor_run(ex);
  for (int k = 0; !st && k < num_outputs; k++)
    st = wnn_executor_copy_output(ex, first + k, ys[k], bytes[k]);
  wnn_executor_destroy(ex);
  wnn_model_free(model);
  return st;
}

/* tm_run_all_k with the default (fastest) kernels. */
static inline wnn_status tm_run_all(const void *artifact, size_t size, int num_inputs,
                                    const void *const *xs, int first, int num_outputs,
                                    void *const *ys, const size_t *bytes) {
  return tm_run_all_k(artifact, size, WNN_KERNELS_AUTO, num_inputs, xs, first, num_outputs, ys,
                      bytes);
}

/* tm_run_all for one float32 output `out` into y (ycap floats). */
static wnn_status tm_run(const void *artifact, size_t size, int num_inputs, const float *const *xs,
                         int out, float *y, size_t ycap) {
  const size_t bytes = ycap * sizeof(float);
  void *const ys[1] = {y};
  return tm_run_all(artifact, size, num_inputs, (const void *const *)xs, out, 1, ys, &bytes);
}

/* A branch graph (for If) of one node op(x) -> out. */
static inline Onnx__GraphProto *tm_branch(tm_model *m, const char *op, const char *out) {
  Onnx__GraphProto *g = tm_alloc(m, sizeof *g);
  Onnx__GraphProto gi = ONNX__GRAPH_PROTO__INIT;
  *g = gi;
  g->name = tm_str(m, op);
  Onnx__NodeProto *n = tm_alloc(m, sizeof *n);
  Onnx__NodeProto ni = ONNX__NODE_PROTO__INIT;
  *n = ni;
  n->op_type = tm_str(m, op);
  n->name = tm_str(m, op);
  n->n_input = tm_split(m, "x", &n->input);
  n->n_output = tm_split(m, out, &n->output);
  g->n_node = 1;
  g->node = tm_alloc(m, sizeof *g->node);
  g->node[0] = n;
  g->n_output = 1;
  g->output = tm_alloc(m, sizeof *g->output);
  g->output[0] = tm_value_info(m, out, 0, 0, NULL);
  return g;
}

#endif /* WNN_TEST_IMPORTER_UTIL_H */
