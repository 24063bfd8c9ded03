/*
 * The ONNX importer: ONNX ModelProto bytes in, a .wnn artifact out
 * (docs/importer.md). Native only: it links protobuf-c, which is not built for
 * wasm here. The runtime never links it.
 */
#ifndef WNN_IMPORTER_H
#define WNN_IMPORTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wnn.h"
#include "wnn_builder.h"

/* --shape NAME=1x3x224x224: the whole shape of a graph input. */
typedef struct wnn_import_shape {
  const char *name;
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
} wnn_import_shape;

/* --const NAME=FILE: graph input NAME frozen to this tensor. It must match the
 * input's declared dtype (float16 data is accepted for a float32 input and
 * converted; an input declared float16 or double is float32 here) and its
 * declared dims (symbolic dims take the tensor's). The input becomes a
 * constant that folds, and the artifact no longer has it: the artifact is
 * specialized to this value. data is copied; the caller keeps it. */
typedef struct wnn_import_const {
  const char *name;
  wnn_dtype dtype;
  int ndim;
  int64_t dims[WNN_MAX_DIMS];
  const void *data; /* numel * wnn_dtype_size(dtype) bytes */
} wnn_import_const;

typedef struct wnn_import_options {
  const wnn_import_shape *shapes; /* fixed input shapes, may be NULL */
  int num_shapes;
  const char *base_dir;           /* folder of the model file, for external data; NULL: "." */
  /* Called with each warning (a symbolic dim set to 1, ...); may be NULL. */
  void (*warn)(void *ctx, const char *msg);
  void *warn_ctx;
  /* Called now and then while nodes are processed; may be NULL. */
  void (*progress)(void *ctx, int done, int total);
  void *progress_ctx;
  const char *model_name;         /* metadata "name"; may be NULL */
  const wnn_import_const *consts; /* frozen graph inputs, may be NULL */
  int num_consts;
  /* --max-memory: the most bytes of tensor data (weights read from the file
   * and constants folded from them) held at once; past it the conversion
   * fails with WNN_ERR_LIMIT naming the node. 0: WNN_IMPORT_DEFAULT_MAX_MEMORY.
   * Whatever this is, no tensor may exceed WNN_MAX_TENSOR_BYTES, which is
   * checked from shapes before anything is allocated. */
  size_t max_memory;
  /* Run-time shapes (docs/dynamic-shapes.md). A graph input dim that is
   * symbolic or unknown and not fixed by `shapes` stays dynamic: it becomes
   * a named dim of the artifact (its dim_param, or "<input>_dim<d>"). Its
   * default size (what the reference plan is made for) comes from
   * default_shapes (the input's whole shape; dims the model fixes must
   * agree), else from max_shapes, else 1; its bound from max_shapes (none:
   * unbounded). fix_dims restores the old behaviour: such dims become their
   * default with a warning, and the artifact is fixed. */
  const wnn_import_shape *default_shapes;
  int num_default_shapes;
  const wnn_import_shape *max_shapes;
  int num_max_shapes;
  bool fix_dims;
  /* Leaves quantized patterns as they are (docs/quantization.md): QDQ Conv,
   * MatMul and Gemm run in float between QuantizeLinear and
   * DequantizeLinear, the dynamic chain as its ONNX ops, QLinearMatMul's B
   * unpacked. For comparisons and debugging. */
  bool no_quant_rewrites;
  /* --keep-subnormals: the float32 weights of Conv, ConvTranspose, MatMul
   * and Gemm keep their subnormal values (below FLT_MIN), which slow every
   * product they enter on x86; by default they are set to 0
   * (docs/importer.md, "Subnormal weights"). */
  bool keep_subnormals;
  /* --params-out: the weights go to a params blob of their own
   * (result->params; docs/params.md) and the artifact refers to it. */
  bool split_params;
  /* --weights fp16|int8: how float32 weights are stored (the builder's
   * wnn_builder_set_weights, with its report); NULL: raw. */
  const wnn_builder_weights *weights;
  /* --release: a release artifact (required feature bit INTEGER_NAMES, the
   * builder's wnn_builder_set_integer_names): no names but the graph
   * inputs' and outputs'. */
  bool release;
  /* --map: result->map gets the map file (docs/format.md): per node its
   * ONNX nodes (those merged into it too), per param its initializers and
   * the nodes folded into it. */
  bool map;
} wnn_import_options;

struct cJSON;

#define WNN_IMPORT_DEFAULT_MAX_MEMORY ((size_t)4 << 30)

typedef struct wnn_import_result {
  void *artifact;                 /* malloc'd; the caller frees it */
  size_t size;
  void *params;                   /* split_params: the blob, malloc'd; else NULL */
  size_t params_size;
  /* On failure: a message (no "wnn:" prefix) and whether the cause is
   * something wnn does not support (an op, attribute value, dtype or
   * feature) rather than a bad file or model. */
  char msg[1024];
  bool unsupported;
  int num_nodes;                  /* nodes in the artifact */
  /* Quantized patterns rewritten into integer ops, and QLinearMatMul /
   * DynamicQuantizeMatMul weights packed (docs/quantization.md). */
  int num_quant_rewrites;
  /* Weights whose subnormal values were set to 0 (keep_subnormals off):
   * tensors, and values changed. */
  int num_subnormal_tensors;
  int64_t num_subnormal_values;
  /* options.map: the map's tree, without its "artifact" digest (the caller
   * may still change the artifact: --params-ref); wnn_import_map_print
   * writes it, wnn_import_map_free frees it. */
  struct cJSON *map;
} wnn_import_result;

/* The map file's text for the artifact at artifact[size] (its SHA-256 and
 * size go into "artifact"), malloc'd; NULL when out of memory. */
char *wnn_import_map_print(struct cJSON *map, const void *artifact, size_t size);
void wnn_import_map_free(struct cJSON *map);

/* Converts the ONNX model in data[size]. On success result->artifact holds
 * the .wnn bytes. Never prints. */
wnn_status wnn_import_onnx(const void *data, size_t size, const wnn_import_options *opt,
                           wnn_import_result *result);

#endif /* WNN_IMPORTER_H */
