/*
 * fuzz_importer: the input is an ONNX ModelProto, converted in memory by
 * wnn_import_onnx (what `wnn convert` calls): protobuf-c's unpacking, the
 * importer's reading of the graph, tensors and attributes, its passes (shape
 * inference, constant folding with the runtime's kernels, fusions, dead-code
 * elimination) and the builder's planning and writing. When it converts, the
 * artifact goes to wnn_model_load and is run once (fuzz_common.c).
 *
 * The importer's contract is that it writes artifacts the runtime accepts, so
 * a conversion that succeeds and then fails to load (for any reason but the
 * harness's memory budget) is a finding: the harness aborts.
 *
 * The conversion may hold at most 256 MB of tensor data (--max-memory).
 * External data is looked up in a folder that does not exist, so a fuzzed
 * model never reads the disk.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "importer/importer.h"
#include "onnx.pb-c.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ------------------------------------------- stepping around a known bug */

/* WNN_FUZZ_AVOID=nonfinite-attr (docs/fuzzing.md, "Findings"): a model with a
 * NaN or infinite float in a node attribute (f, floats, or a tensor in t or
 * tensors, in any subgraph) is skipped, because the importer hands such values
 * to cJSON_CreateNumber, whose (int) conversion of NaN is undefined behaviour,
 * and JSON cannot carry them anyway. Found by this harness; skipping them lets
 * a campaign go on while the importer is fixed. */
static int nonfinite_bits16(unsigned bits, unsigned exp_mask) {
  return (bits & exp_mask) == exp_mask;
}

static int tensor_nonfinite(const Onnx__TensorProto *t) {
  if (!t) return 0;
  for (size_t i = 0; i < t->n_float_data; i++)
    if (!isfinite(t->float_data[i])) return 1;
  for (size_t i = 0; i < t->n_double_data; i++)
    if (!isfinite(t->double_data[i])) return 1;
  /* float16 (10) and bfloat16 (16) travel in int32_data or raw_data. */
  unsigned mask = t->data_type == 10 ? 0x7c00u : t->data_type == 16 ? 0x7f80u : 0;
  for (size_t i = 0; mask && i < t->n_int32_data; i++)
    if (nonfinite_bits16((unsigned)t->int32_data[i] & 0xffffu, mask)) return 1;
  const uint8_t *raw = t->raw_data.data;
  size_t n = t->has_raw_data ? t->raw_data.len : 0;
  for (size_t i = 0; mask && i + 2 <= n; i += 2)
    if (nonfinite_bits16((unsigned)raw[i] | (unsigned)raw[i + 1] << 8, mask)) return 1;
  for (size_t i = 0; t->data_type == 1 && i + 4 <= n; i += 4) {
    float f;
    memcpy(&f, raw + i, 4);
    if (!isfinite(f)) return 1;
  }
  for (size_t i = 0; t->data_type == 11 && i + 8 <= n; i += 8) {
    double d;
    memcpy(&d, raw + i, 8);
    if (!isfinite(d)) return 1;
  }
  return 0;
}

static int graph_nonfinite(const Onnx__GraphProto *g, int depth) {
  if (!g || depth > 64) return depth > 64;
  for (size_t n = 0; n < g->n_node; n++) {
    const Onnx__NodeProto *node = g->node[n];
    for (size_t k = 0; k < node->n_attribute; k++) {
      const Onnx__AttributeProto *a = node->attribute[k];
      if (a->has_f && !isfinite(a->f)) return 1;
      for (size_t i = 0; i < a->n_floats; i++)
        if (!isfinite(a->floats[i])) return 1;
      if (tensor_nonfinite(a->t) || graph_nonfinite(a->g, depth + 1)) return 1;
      for (size_t i = 0; i < a->n_tensors; i++)
        if (tensor_nonfinite(a->tensors[i])) return 1;
      for (size_t i = 0; i < a->n_graphs; i++)
        if (graph_nonfinite(a->graphs[i], depth + 1)) return 1;
    }
  }
  return 0;
}

static int has_nonfinite_attr(const uint8_t *data, size_t size) {
  Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, size, data);
  if (!m) return 0;
  int r = graph_nonfinite(m->graph, 0);
  onnx__model_proto__free_unpacked(m, NULL);
  return r;
}

/* ------------------------------------------------------------- the harness */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (wnn_fuzz_avoid("nonfinite-attr") && has_nonfinite_attr(data, size)) return 0;
  wnn_import_options opt;
  memset(&opt, 0, sizeof opt);
  opt.base_dir = "/nonexistent/wnn-fuzz";
  opt.model_name = "fuzz";
  /* Tensor data the importer may hold while converting (weights, folded
   * constants): far below libFuzzer's -malloc_limit_mb, so that a model asking
   * for more must be refused with WNN_ERR_LIMIT, not allocated. */
  opt.max_memory = (size_t)256 << 20;
  wnn_import_result res;
  memset(&res, 0, sizeof res);
  wnn_status st = wnn_import_onnx(data, size, &opt, &res);
  if (st != WNN_OK) {
    if (res.artifact) wnn_fuzz_die("wnn_import_onnx failed but returned an artifact");
    if (!res.msg[0]) wnn_fuzz_die("wnn_import_onnx failed (%s) without a message",
                                  wnn_status_str(st));
    return 0;
  }
  if (!res.artifact) wnn_fuzz_die("wnn_import_onnx succeeded without an artifact");
  st = wnn_fuzz_load_and_run(res.artifact, res.size, 0);
  if (st != WNN_OK && st != WNN_ERR_OUT_OF_MEMORY)
    wnn_fuzz_die("the importer wrote an artifact the runtime rejects (%s): %s",
                 wnn_status_str(st), wnn_last_error());
  free(res.artifact);
  return 0;
}
