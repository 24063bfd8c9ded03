/*
 * The artifact builder: writes .wnn artifacts (docs/format.md).
 *
 * Used by the tests now and by the ONNX importer next. It links the runtime's
 * op layer, so every node added is checked and its output shapes inferred
 * exactly as the runtime will at load time, and it computes the static memory
 * plan. It is not part of the runtime wasm.
 *
 * Values are named by small integers returned by the add_* calls.
 */
#ifndef WNN_BUILDER_H
#define WNN_BUILDER_H

#include "wnn.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wnn_builder wnn_builder;

/* allocator may be NULL (the C library's). Errors: wnn_last_error(). */
wnn_status wnn_builder_create(const wnn_allocator *allocator, wnn_builder **out);
void wnn_builder_free(wnn_builder *builder);

/* Sets a metadata field: "name", "producer", or any other key (stored under
 * "properties" in the metadata JSON). Both strings are copied. */
wnn_status wnn_builder_set_metadata(wnn_builder *builder, const char *key, const char *value);

/* A real graph input, in order of addition. name is copied. */
wnn_status wnn_builder_add_input(wnn_builder *builder, const char *name, wnn_dtype dtype,
                                 int ndim, const int64_t *shape, int *value);

/* Run-time shapes (docs/dynamic-shapes.md). Declares the dim `name` (copied)
 * that inputs may name: default_size is the size the artifact's plan is made
 * for (the reference plan, what wnn_builder_finish computes), max_size bounds
 * it (0: unbounded), and a size must be a multiple of `multiple` (1: any).
 * An artifact with dims or shape nodes sets the required feature bit DYNAMIC;
 * one without is exactly what the builder wrote before. */
wnn_status wnn_builder_add_dim(wnn_builder *builder, const char *name, int64_t default_size,
                               int64_t max_size, int64_t multiple);

/* A graph input whose dim d is the dim dim_names[d] (declared with
 * wnn_builder_add_dim; shape[d] is then ignored and the dim's default used),
 * or fixed at shape[d] where dim_names[d] is NULL. dim_names may be NULL (no
 * names: wnn_builder_add_input). */
wnn_status wnn_builder_add_dynamic_input(wnn_builder *builder, const char *name, wnn_dtype dtype,
                                         int ndim, const int64_t *shape,
                                         const char *const *dim_names, int *value);

/* Like wnn_builder_add_node, but a shape node ("shape": 1): the runtime runs
 * it when it loads the artifact and when an executor is resized, never in a
 * run, and later nodes' prepare read its outputs as constants (a Reshape
 * target computed from Shape, Gather and Concat). It runs here too, at the
 * defaults. Its inputs are params, outputs of shape nodes, or anything when
 * its op reads only shapes (Shape, Size); it may not need scratch memory. */
wnn_status wnn_builder_add_shape_node(wnn_builder *builder, const char *op_type,
                                      const char *name, const int *inputs, int num_inputs,
                                      const char *attrs_json, int num_outputs, int *outputs);

/* A param (weight): its bytes are copied now. name is copied. */
wnn_status wnn_builder_add_param(wnn_builder *builder, const char *name, wnn_dtype dtype,
                                 int ndim, const int64_t *shape, const void *data, int *value);

/* A node. op_type is the ONNX name ("Conv"); attrs_json is a JSON object of
 * attributes or NULL; an input id of -1 is an omitted optional input. The node
 * is prepared at once: a bad attribute or shape fails here. The ids of its
 * num_outputs new values are written to outputs. name may be NULL. */
wnn_status wnn_builder_add_node(wnn_builder *builder, const char *op_type, const char *name,
                                const int *inputs, int num_inputs, const char *attrs_json,
                                int num_outputs, int *outputs);

/* Gives node `node` (nodes are numbered from 0 in order of add_node calls)
 * `count` guards, replacing any it had: it will run only if, for every k,
 * value values[k] is nonzero when expect[k] is 1 and zero when expect[k] is 0
 * (docs/format.md, "when"). Each value holds one element of bool, uint8, int8,
 * int32, int64 or float32 and is an input, a param or the output of an earlier
 * node; at most 8 guards (the If nesting depth). A node that does not run
 * leaves its outputs unwritten: only a Where that selects the other branch may
 * read them. An artifact with guards sets the GUARDS required feature bit. */
wnn_status wnn_builder_set_node_guards(wnn_builder *builder, int node, int count,
                                       const int *values, const int *expect);

/* Names an intermediate value (a node's output) `name` (copied), as in the
 * source model: debug executors (wnn_executor_get_value_by_name) find it by
 * that name. A value has one name: naming it again differently, or naming an
 * input or param, is WNN_ERR_INVALID_ARGUMENT. */
wnn_status wnn_builder_set_value_name(wnn_builder *builder, int value, const char *name);

/* A release artifact (wnn convert --release; required feature bit 1,
 * INTEGER_NAMES, docs/format.md) when on != 0: finish leaves out the names of
 * nodes, params and intermediates, so the runtime names them by index; graph
 * inputs and outputs keep theirs, and params in a params blob their
 * "external" names. The names given to the builder are still checked. */
wnn_status wnn_builder_set_integer_names(wnn_builder *builder, int on);

/* Marks a value as a graph output named `name` (copied), in order of calls. */
wnn_status wnn_builder_add_output(wnn_builder *builder, int value, const char *name);

/* How finish stores float32 params (docs/format.md, "Param codecs"):
 * WNN_CODEC_RAW (the default), WNN_CODEC_FP16 (IEEE half, widened at load),
 * WNN_CODEC_INT8 (symmetric int8 per slice along axis 0 with a float32
 * scale each, max |x| / 127, round half to even; rank >= 2 only), or a user
 * codec id (128-255) registered with wnn_codec_register, whose bytes
 * `encode` writes: at most `cap` bytes (the param's size) of the `size`
 * bytes at src into dst, returning the count (0 leaves the param raw). Params
 * with fewer than min_elements elements (0: WNN_BUILDER_WEIGHTS_MIN_ELEMENTS),
 * fills, and those fp16 cannot hold (beyond 65504) stay raw. report, when
 * set, is called for every param finish encodes: its name, codec, stored and
 * decoded bytes, and its largest error relative to its largest magnitude
 * (max |x - decoded| / max |x|). Applies to the artifact's WEIGHTS and to a
 * params blob alike; report is also called for params only compressed
 * (their error 0). */
#define WNN_BUILDER_WEIGHTS_MIN_ELEMENTS 256
typedef struct wnn_builder_weights {
  unsigned codec; /* wnn_codec */
  size_t min_elements;
  void (*report)(void *ctx, const char *name, unsigned codec, size_t stored, size_t size,
                 double max_rel_error);
  void *ctx;
  size_t (*encode)(void *ctx, const void *src, size_t size, void *dst, size_t cap);
  /* Lossless compression of the stored bytes of every param of at least
   * 1,024 stored bytes (any dtype; not fills, not user codecs), kept only
   * where it saves bytes: 0 none, 1 lz4, 2 zstd (the codec's second byte,
   * docs/format.md). In a build without that library finish fails. */
  unsigned compress;
} wnn_builder_weights;
wnn_status wnn_builder_set_weights(wnn_builder *builder, const wnn_builder_weights *weights);

/* Plans memory and serializes. *data is allocated with the builder's allocator
 * and owned by the caller, who releases it with wnn_builder_free_artifact. */
wnn_status wnn_builder_finish(wnn_builder *builder, void **data, size_t *size);
void wnn_builder_free_artifact(wnn_builder *builder, void *data, size_t size);

/* As wnn_builder_finish, but every param stored raw (not a fill, not empty)
 * goes to a params blob (*params, *params_size; docs/params.md) under its
 * name, and the artifact refers to it (feature bit 0, a PARAMS_REF section
 * with the blob's SHA-256). Param names must then be unique
 * (WNN_ERR_INVALID_ARGUMENT names a repeated one). Free both with
 * wnn_builder_free_artifact. */
wnn_status wnn_builder_finish_with_params(wnn_builder *builder, void **data, size_t *size,
                                          void **params, size_t *params_size);

#ifdef __cplusplus
}
#endif
#endif /* WNN_BUILDER_H */
