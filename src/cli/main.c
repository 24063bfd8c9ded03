/*
 * The wnn command-line tool: `wnn convert`, `wnn info`, `wnn run`, `wnn bench`
 * (docs/cli.md).
 *
 * One source for the native binary (build/native/wnn) and the WASI commands
 * (dist/wnn-wasi.wasm, dist/wnn-convert.wasm): it uses only the C library's
 * stdio, stdlib, string and time functions. Unlike the library, the CLI
 * prints: results to stdout, errors to stderr as "wnn: <what>: <why>".
 *
 * `convert` needs the ONNX importer (src/importer/, protobuf-c), which the
 * native CLI and dist/wnn-convert.wasm link (WNN_CLI_WITH_IMPORTER);
 * dist/wnn-wasi.wasm answers it with an error.
 *
 * Exit status: 0 success, 1 a model, input or I/O error, 2 a usage error,
 * 3 (convert) the model uses something wnn does not support.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wnn.h"

#ifdef WNN_CLI_WITH_IMPORTER
#include <unistd.h>

#include "builder/params_writer.h"
#include "importer/importer.h"
#endif

#include "bench.h"
#include "map.h"
#include "fileio.h"
#include "host_tensor.h"
#include "npy.h"

enum { EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_UNSUPPORTED = 3 };

#define MAX_INPUT_SPECS 256

static const char usage_text[] =
    "usage: wnn <command> [arguments]\n"
    "\n"
    "commands:\n"
    "  convert MODEL.onnx -o OUT.wnn [--shape NAME=1x3x224x224]... [--const NAME=FILE]...\n"
    "          [--max-memory BYTES] [--report FILE.json]\n"
    "          [--params-out FILE.wnnp | --params-ref FILE.wnnp] [--weights raw|fp16|int8]\n"
    "          [--compress none|lz4|zstd] [--release] [--map FILE.map.json]\n"
    "          [--keep-subnormals]\n"
    "      converts an ONNX model (not in wnn-wasi.wasm); --shape fixes an input's shape,\n"
    "      --const freezes an input to the tensor in FILE (.npy or .pb): the artifact\n"
    "      no longer has that input and is specialized to that value; --max-memory\n"
    "      caps the tensor data held while converting (like 512M or 2G; default 4G);\n"
    "      --report writes the warnings and the outcome (status, message) as JSON;\n"
    "      --params-out writes the weights to a params blob of their own, which\n"
    "      info, run and bench then take as --params FILE.wnnp; --params-ref\n"
    "      refers to a blob written before (the same weights converted at another\n"
    "      shape) and writes none, when it holds every param unchanged; --weights\n"
    "      stores float32 weights as IEEE half or as int8 with per-channel scales;\n"
    "      --compress compresses each weight of 1 KB or more where it saves bytes;\n"
    "      --release leaves out every name but the inputs' and outputs' (nodes and\n"
    "      params go by number); --map writes the map from those numbers to the\n"
    "      ONNX model's nodes and initializers, which info, run and bench take\n"
    "      as --map; --keep-subnormals keeps the weights below FLT_MIN that Conv,\n"
    "      MatMul and Gemm weights otherwise have set to 0 (they slow x86 down)\n"
    "  info MODEL.wnn [--json] [--params FILE.wnnp] [--weights] [--map FILE]\n"
    "      inputs, outputs, params count, arena and weights bytes, metadata;\n"
    "      --map checks that FILE is this artifact's map and lists each node\n"
    "      with the ONNX nodes it computes, and each param's initializers\n"
    "  run MODEL.wnn --input NAME=FILE ... [--output-dir DIR] [--params FILE.wnnp]\n"
    "        [--dump DIR] [--map FILE] [--threads N]\n"
    "      runs the model once; FILE is .npy or an ONNX TensorProto .pb; NAME is an\n"
    "      input name or index; writes DIR/output_<i>.npy (DIR defaults to .) and\n"
    "      prints one JSON line per output; --dump DIR runs a debug executor (no\n"
    "      memory reused) and writes every named value but the weights as\n"
    "      DIR/<name>.npy, listed in DIR/values.json; --threads N (run and bench)\n"
    "      splits the GEMMs of MatMul, Conv and the quantized ops over N threads\n"
    "      (native builds; the results are the same bits)\n"
    "  bench MODEL.wnn [--number N] [--repeat R] [--min-repeat-ms M] [--input NAME=FILE]...\n"
    "        [--profile] [--params FILE.wnnp] [--map FILE] [--threads N]\n"
    "      times runs like TVM's time_evaluator (defaults: N=10, R=1, M=0; one\n"
    "      warm-up run; inputs not given are zeros) and prints JSON; --profile\n"
    "      then times each node over as many more runs: a \"profile\" list in the\n"
    "      JSON, and a table by node and by op type after it\n"
    "  help | --help       this text\n"
    "  --version           the library and artifact format versions\n"
    "\n"
    "exit status: 0 ok, 1 model/input/run error, 2 usage error,\n"
    "             3 (convert) the model uses something wnn does not support\n";

/* ------------------------------------------------------------- reporting */

/* --map FILE of info, run and bench: messages and profiles name the source
 * model's nodes and values through it. */
static wnn_cli_map *the_map;

static int fail(const char *fmt, ...) WNN_CLI_PRINTF(1, 2);
static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (the_map) { /* the message with the map's names added */
    char msg[2048], named[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "wnn: %s\n", wnn_cli_map_translate(the_map, msg, named, sizeof named));
  } else {
    fputs("wnn: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
  }
  va_end(ap);
  return EXIT_FAIL;
}

static int usage_error(const char *fmt, ...) WNN_CLI_PRINTF(1, 2);
static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("wnn: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs("\nRun 'wnn help' for usage.\n", stderr);
  va_end(ap);
  return EXIT_USAGE;
}

/* A JSON string literal. */
static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
      case '"': fputs("\\\"", f); break;
      case '\\': fputs("\\\\", f); break;
      case '\n': fputs("\\n", f); break;
      case '\r': fputs("\\r", f); break;
      case '\t': fputs("\\t", f); break;
      default:
        if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
  }
  fputc('"', f);
}

static void json_shape(FILE *f, int ndim, const int64_t *shape) {
  fputc('[', f);
  for (int i = 0; i < ndim; i++) fprintf(f, i ? ",%lld" : "%lld", (long long)shape[i]);
  fputc(']', f);
}

/* A finite number; JSON has no inf or nan. */
static void json_number(FILE *f, double x) {
  if (x != x || x > 1e300 || x < -1e300) fputs("null", f);
  else fprintf(f, "%.9g", x);
}

static const char *shape_text(char *buf, size_t cap, int ndim, const int64_t *shape) {
  return wnn_shape_str(buf, cap, ndim, shape);
}

/* --------------------------------------------------------- command line */

/* The arguments after the command: one positional (the model) and options. */
typedef struct cli_args {
  const char *model;
  const char *input_specs[MAX_INPUT_SPECS];
  int num_inputs;
  const char *output_dir;
  const char *params; /* --params FILE: the model's params blob */
  const char *dump;   /* run --dump DIR: every value of a debug executor */
  const char *map;    /* --map FILE: the artifact's map file */
  int json, profile, weights; /* weights: info --weights */
  long number, repeat;
  long threads; /* --threads N: the executor's intra-op threads */
  double min_repeat_ms;
} cli_args;

enum { OPT_JSON = 1, OPT_INPUT = 2, OPT_OUTPUT_DIR = 4, OPT_NUMBER = 8, OPT_REPEAT = 16,
       OPT_MIN_REPEAT_MS = 32, OPT_PROFILE = 64,
       OPT_PARAMS = 128, OPT_WEIGHTS = 256, OPT_DUMP = 512, OPT_MAP = 1024, OPT_THREADS = 2048 };

static int parse_long(const char *opt, const char *text, long min, long *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (!*text || *end || errno == ERANGE || v < min || v > INT_MAX)
    return usage_error("%s expects an integer >= %ld, got '%s'", opt, min, text);
  *out = v;
  return 0;
}

static int parse_double(const char *opt, const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (!*text || *end || errno == ERANGE || !(v >= 0.0) || v > 1e9)
    return usage_error("%s expects a number of milliseconds >= 0, got '%s'", opt, text);
  *out = v;
  return 0;
}

/* Parses argv[first..argc) for `command`, accepting the options in `allowed`.
 * Options take their value as the next argument or after '='. Returns 0 or the
 * usage exit status. */
static int parse_args(const char *command, int argc, char **argv, int first, unsigned allowed,
                      cli_args *a) {
  memset(a, 0, sizeof *a);
  a->output_dir = ".";
  a->number = 10;
  a->repeat = 1;
  a->min_repeat_ms = 0.0;
  for (int i = first; i < argc; i++) {
    const char *arg = argv[i];
    if (arg[0] != '-' || arg[1] == '\0') {
      if (a->model) return usage_error("%s: unexpected argument '%s'", command, arg);
      a->model = arg;
      continue;
    }
    static const struct {
      const char *name;
      unsigned flag;
      int takes_value;
    } opts[] = {{"--json", OPT_JSON, 0},          {"--input", OPT_INPUT, 1},
                {"--output-dir", OPT_OUTPUT_DIR, 1}, {"--number", OPT_NUMBER, 1},
                {"--repeat", OPT_REPEAT, 1},      {"--min-repeat-ms", OPT_MIN_REPEAT_MS, 1},
                {"--profile", OPT_PROFILE, 0},    {"--params", OPT_PARAMS, 1},
                {"--weights", OPT_WEIGHTS, 0},    {"--dump", OPT_DUMP, 1},
                {"--map", OPT_MAP, 1},            {"--threads", OPT_THREADS, 1}};
    size_t k, n = 0;
    const char *eq = strchr(arg, '=');
    size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    for (k = 0; k < sizeof opts / sizeof opts[0]; k++) {
      n = strlen(opts[k].name);
      if (name_len == n && strncmp(arg, opts[k].name, n) == 0) break;
    }
    if (k == sizeof opts / sizeof opts[0] || !(opts[k].flag & allowed))
      return usage_error("%s: unknown option '%.*s'", command, (int)name_len, arg);
    const char *value = NULL;
    if (opts[k].takes_value) {
      if (eq) {
        value = eq + 1;
      } else {
        if (i + 1 >= argc) return usage_error("%s: %s needs a value", command, opts[k].name);
        value = argv[++i];
      }
    } else if (eq) {
      return usage_error("%s: %s takes no value", command, opts[k].name);
    }
    int rc = 0;
    switch (opts[k].flag) {
      case OPT_JSON: a->json = 1; break;
      case OPT_PROFILE: a->profile = 1; break;
      case OPT_WEIGHTS: a->weights = 1; break;
      case OPT_DUMP:
        if (!*value) return usage_error("%s: --dump is empty", command);
        a->dump = value;
        break;
      case OPT_PARAMS:
        if (!*value) return usage_error("%s: --params is empty", command);
        a->params = value;
        break;
      case OPT_MAP:
        if (!*value) return usage_error("%s: --map is empty", command);
        a->map = value;
        break;
      case OPT_INPUT:
        if (a->num_inputs == MAX_INPUT_SPECS)
          return usage_error("%s: more than %d --input options", command, MAX_INPUT_SPECS);
        a->input_specs[a->num_inputs++] = value;
        break;
      case OPT_OUTPUT_DIR:
        if (!*value) return usage_error("%s: --output-dir is empty", command);
        a->output_dir = value;
        break;
      case OPT_NUMBER: rc = parse_long("--number", value, 1, &a->number); break;
      case OPT_THREADS: rc = parse_long("--threads", value, 1, &a->threads); break;
      case OPT_REPEAT: rc = parse_long("--repeat", value, 1, &a->repeat); break;
      case OPT_MIN_REPEAT_MS: rc = parse_double("--min-repeat-ms", value, &a->min_repeat_ms); break;
    }
    if (rc) return rc;
  }
  if (!a->model) return usage_error("%s: no model file given", command);
  return 0;
}

/* ------------------------------------------------------------- the model */

/* The model, bound to the params blob at params_path when one is given. */
/* Loads the model at path (with its params blob, when given), and its map
 * (map_path, may be NULL) into the_map, checked against the artifact. */
static int load_model(const char *path, const char *params_path, const char *map_path,
                      wnn_model **model) {
  void *data;
  size_t size;
  char err[512];
  wnn_params *params = NULL;
  if (params_path) {
    if (wnn_file_read(params_path, &data, &size, err, sizeof err) != WNN_OK)
      return fail("%s: %s", params_path, err);
    wnn_status st = wnn_params_load(data, size, NULL, &params);
    free(data);
    if (st != WNN_OK)
      return fail("%s: cannot load params: %s: %s", params_path, wnn_status_str(st),
                  wnn_last_error());
  }
  if (wnn_file_read(path, &data, &size, err, sizeof err) != WNN_OK) {
    wnn_params_free(params);
    return fail("%s: %s", path, err);
  }
  if (map_path && wnn_cli_map_load(map_path, data, size, &the_map, err, sizeof err) != WNN_OK) {
    free(data);
    wnn_params_free(params);
    return fail("%s: %s", path, err);
  }
  wnn_status st = params ? wnn_model_load_with_params(data, size, params, NULL, model)
                         : wnn_model_load(data, size, NULL, model);
  free(data);
  wnn_params_free(params); /* the model holds its own reference */
  if (st != WNN_OK)
    return fail("%s: cannot load model: %s: %s%s", path, wnn_status_str(st), wnn_last_error(),
                st == WNN_ERR_FEATURE && !params_path && strstr(wnn_last_error(), "params blob")
                    ? " (pass it with --params FILE.wnnp)"
                    : "");
  return 0;
}

/* "'a', 'b'" : the model's input names, for messages. */
static void input_names(const wnn_model *model, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  int n = wnn_model_num_inputs(model);
  for (int i = 0; i < n && used < cap; i++) {
    wnn_tensor_info info;
    if (wnn_model_input_info(model, i, &info) != WNN_OK) continue;
    used += (size_t)snprintf(buf + used, cap - used, "%s'%s'", i ? ", " : "", info.name);
  }
  if (n == 0) snprintf(buf, cap, "none");
}

static int is_decimal(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return 0;
  return 1;
}

/* Reads every --input NAME=FILE into the executor, checking dtype and shape
 * against the model. given[i] is set for each input i set. */
/* Reads the --input files into held[] (their input indices in held_index[]),
 * checking each against the model's input: its dtype, and its dims where the
 * model fixes them (a dynamic dim takes any size: the executor is resized to
 * the files' shapes). */
static int read_inputs(const wnn_model *model, const cli_args *a, unsigned char *given,
                       wnn_host_tensor *held, int *held_index, int *num_held) {
  int num_inputs = wnn_model_num_inputs(model);
  for (int s = 0; s < a->num_inputs; s++) {
    const char *spec = a->input_specs[s];
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
      return usage_error("--input expects NAME=FILE (NAME an input name or index), got '%s'",
                         spec);
    size_t name_len = (size_t)(eq - spec);
    char *name = (char *)malloc(name_len + 1);
    if (!name) return fail("out of memory");
    memcpy(name, spec, name_len);
    name[name_len] = '\0';
    const char *path = eq + 1;

    int index = -1;
    if (wnn_model_input_index(model, name, &index) != WNN_OK) {
      if (is_decimal(name)) {
        long v = name_len <= 9 ? strtol(name, NULL, 10) : LONG_MAX;
        if (v >= num_inputs) {
          int rc = fail("--input %s: input index %s is out of range (the model has %d input%s)",
                        spec, name, num_inputs, num_inputs == 1 ? "" : "s");
          free(name);
          return rc;
        }
        index = (int)v;
      } else {
        char names[1024];
        input_names(model, names, sizeof names);
        int rc = fail("--input %s: the model has no input named '%s' (its inputs: %s)", spec,
                      name, names);
        free(name);
        return rc;
      }
    }
    free(name);
    wnn_tensor_info info;
    wnn_status st = wnn_model_input_info(model, index, &info);
    if (st != WNN_OK) return fail("input %d: %s", index, wnn_last_error());
    if (given[index])
      return fail("--input %s: input '%s' (index %d) is given more than once", spec, info.name,
                  index);

    wnn_host_tensor t;
    char err[512];
    if (wnn_tensor_file_read(path, &t, err, sizeof err) != WNN_OK)
      return fail("%s (input '%s'): %s", path, info.name, err);
    char want[WNN_MAX_DIMS * 22 + 3], got[WNN_MAX_DIMS * 22 + 3];
    if (t.dtype != info.dtype) {
      int rc = fail("%s: input '%s' (index %d) expects %s, the file holds %s", path, info.name,
                    index, wnn_dtype_name(info.dtype), t.dtype_name);
      wnn_host_tensor_free(&t);
      return rc;
    }
    int same = t.ndim == info.ndim;
    for (int d = 0; same && d < t.ndim; d++)
      same = t.shape[d] == info.shape[d] || info.shape[d] == WNN_DIM_DYNAMIC;
    if (!same) {
      int rc = fail("%s: input '%s' (index %d) expects shape %s, the file holds shape %s", path,
                    info.name, index, shape_text(want, sizeof want, info.ndim, info.shape),
                    shape_text(got, sizeof got, t.ndim, t.shape));
      wnn_host_tensor_free(&t);
      return rc;
    }
    held[*num_held] = t;
    held_index[(*num_held)++] = index;
    given[index] = 1;
  }
  return 0;
}

/* Whether some input dim of the model is named (run-time shapes). */
static int is_dynamic(const wnn_model *model) {
  for (int i = 0; i < wnn_model_num_inputs(model); i++) {
    wnn_tensor_info info;
    if (wnn_model_input_info(model, i, &info) != WNN_OK) continue;
    for (int d = 0; d < info.ndim; d++)
      if (info.shape[d] == WNN_DIM_DYNAMIC) return 1;
  }
  return 0;
}

/* Sets the inputs given on the command line; on a model with run-time
 * shapes, resizes the executor to the files' shapes first. */
static int set_inputs(const wnn_model *model, wnn_executor *exec, const cli_args *a,
                      unsigned char *given) {
  wnn_host_tensor *held = (wnn_host_tensor *)calloc((size_t)a->num_inputs + 1, sizeof *held);
  int *held_index = (int *)calloc((size_t)a->num_inputs + 1, sizeof *held_index);
  wnn_input_shape *shapes = (wnn_input_shape *)calloc((size_t)a->num_inputs + 1, sizeof *shapes);
  int num_held = 0, rc = 0;
  if (!held || !held_index || !shapes) rc = fail("out of memory");
  if (!rc) rc = read_inputs(model, a, given, held, held_index, &num_held);
  if (!rc && num_held && is_dynamic(model)) {
    for (int k = 0; k < num_held; k++)
      shapes[k] = (wnn_input_shape){held_index[k], held[k].ndim, held[k].shape};
    if (wnn_executor_resize(exec, num_held, shapes) != WNN_OK)
      rc = fail("%s: resizing to the inputs' shapes: %s", a->model, wnn_executor_errmsg(exec));
  }
  for (int k = 0; !rc && k < num_held; k++) {
    wnn_tensor_info info;
    wnn_model_input_info(model, held_index[k], &info);
    DLTensor dl;
    memset(&dl, 0, sizeof dl);
    dl.data = held[k].data;
    dl.device.device_type = kDLCPU;
    dl.device.device_id = 0;
    dl.ndim = held[k].ndim;
    dl.dtype = wnn_dtype_to_dl(info.dtype);
    dl.shape = held[k].shape;
    if (wnn_executor_set_input(exec, held_index[k], &dl) != WNN_OK)
      rc = fail("setting input '%s' (index %d): %s", info.name, held_index[k],
                wnn_executor_errmsg(exec));
  }
  for (int k = 0; k < num_held; k++) wnn_host_tensor_free(&held[k]);
  free(held);
  free(held_index);
  free(shapes);
  return rc;
}

/* Creates an executor and sets the inputs given on the command line; with
 * require_all, every input must be given. */
static int prepare(const wnn_model *model, const cli_args *a, int require_all,
                   wnn_executor **exec) {
  wnn_status st = a->dump ? wnn_executor_create_debug(model, exec)
                          : wnn_executor_create(model, exec);
  if (st != WNN_OK)
    return fail("%s: cannot create an executor: %s: %s", a->model, wnn_status_str(st),
                wnn_last_error());
  if (a->threads > 1 && (st = wnn_executor_set_threads(*exec, (int)a->threads)) != WNN_OK)
    return fail("%s: --threads %ld: %s", a->model, a->threads, wnn_executor_errmsg(*exec));
  int n = wnn_model_num_inputs(model);
  unsigned char *given = (unsigned char *)calloc((size_t)n + 1, 1);
  if (!given) return fail("out of memory");
  int rc = set_inputs(model, *exec, a, given);
  for (int i = 0; !rc && require_all && i < n; i++) {
    if (given[i]) continue;
    wnn_tensor_info info;
    if (wnn_model_input_info(model, i, &info) != WNN_OK) continue;
    rc = fail("%s: input '%s' (index %d) was not given; pass --input %s=FILE", a->model,
              info.name, i, info.name);
  }
  free(given);
  return rc;
}

/* ------------------------------------------------------------------ info */

static void print_tensor_json(FILE *f, int index, const wnn_tensor_info *info) {
  fprintf(f, "{\"index\":%d,\"name\":", index);
  json_string(f, info->name);
  fputs(",\"dtype\":", f);
  json_string(f, wnn_dtype_name(info->dtype));
  fputs(",\"shape\":", f);
  json_shape(f, info->ndim, info->shape);
  fputc('}', f);
}

/* An input's shape with the name of each dynamic dim: "[batch,3,48,width]"
 * (json: ["batch",3,48,"width"]). */
static void print_input_shape(FILE *f, const wnn_model *model, int index,
                              const wnn_tensor_info *info, int json) {
  fputc('[', f);
  for (int d = 0; d < info->ndim; d++) {
    wnn_dim_info dim;
    if (d) fputc(',', f);
    if (info->shape[d] == WNN_DIM_DYNAMIC &&
        wnn_model_input_dim(model, index, d, &dim) == WNN_OK && dim.name) {
      if (json) json_string(f, dim.name);
      else fputs(dim.name, f);
    } else {
      fprintf(f, "%lld", (long long)info->shape[d]);
    }
  }
  fputc(']', f);
}

/* The named dims of the inputs, each once: name, default, max (0: none). */
static void print_dims(FILE *f, const wnn_model *model, int json) {
  int count = 0;
  for (int i = 0; i < wnn_model_num_inputs(model); i++) {
    wnn_tensor_info info;
    if (wnn_model_input_info(model, i, &info) != WNN_OK) continue;
    for (int d = 0; d < info.ndim; d++) {
      wnn_dim_info dim;
      if (info.shape[d] != WNN_DIM_DYNAMIC || wnn_model_input_dim(model, i, d, &dim) != WNN_OK ||
          !dim.name)
        continue;
      /* Once per name: skip a dim an earlier input or dim named. */
      int seen = 0;
      for (int j = 0; j <= i && !seen; j++) {
        wnn_tensor_info other;
        if (wnn_model_input_info(model, j, &other) != WNN_OK) continue;
        for (int e = 0; e < (j == i ? d : other.ndim) && !seen; e++) {
          wnn_dim_info o;
          seen = other.shape[e] == WNN_DIM_DYNAMIC && wnn_model_input_dim(model, j, e, &o) == WNN_OK &&
                 o.name && !strcmp(o.name, dim.name);
        }
      }
      if (seen) continue;
      if (json) {
        fputs(count ? "," : "", f);
        json_string(f, dim.name);
        fprintf(f, ":{\"default\":%lld,\"max\":", (long long)dim.default_size);
        if (dim.max_size) fprintf(f, "%lld", (long long)dim.max_size);
        else fputs("null", f);
        fprintf(f, ",\"multiple\":%lld}", (long long)dim.multiple);
      } else {
        fprintf(f, "%s  %s  default %lld, max ", count ? "\n" : "dims:\n", dim.name,
                (long long)dim.default_size);
        if (dim.max_size) fprintf(f, "%lld", (long long)dim.max_size);
        else fputs("none", f);
        if (dim.multiple > 1) fprintf(f, ", multiple of %lld", (long long)dim.multiple);
      }
      count++;
    }
  }
  if (!json && count) fputc('\n', f);
}

/* A param codec's name (docs/format.md, "Param codecs"). */
static const char *codec_name(unsigned codec, char *buf, size_t cap) {
  const unsigned value = codec & 0xffu, lossless = codec >> 8;
  const char *v = value == WNN_CODEC_RAW ? "raw" : value == WNN_CODEC_FILL ? "fill"
                  : value == WNN_CODEC_FP16 ? "fp16" : value == WNN_CODEC_INT8 ? "int8" : NULL;
  const char *l = lossless == 1 ? "lz4" : lossless == 2 ? "zstd" : NULL;
  if (!v) snprintf(buf, cap, "user %u", value);
  else if (!lossless) snprintf(buf, cap, "%s", v);
  else if (value == WNN_CODEC_RAW) snprintf(buf, cap, "%s", l ? l : "?");
  else snprintf(buf, cap, "%s+%s", v, l ? l : "?");
  return buf;
}

/* info --weights: every param with its codec, stored and decoded bytes. */
static void print_weights(const wnn_model *model, int json) {
  const int n = wnn_model_num_params(model);
  char shape[WNN_MAX_DIMS * 22 + 3], cn[32];
  if (json) fputs("\"weights\":[", stdout);
  else printf("weights (%d params: codec, stored bytes, decoded bytes):\n", n);
  for (int i = 0; i < n; i++) {
    wnn_tensor_info info;
    unsigned codec;
    size_t stored;
    if (wnn_model_param_info(model, i, &info) || wnn_model_param_storage(model, i, &codec, &stored))
      continue;
    const char *c = codec_name(codec, cn, sizeof cn);
    /* A release artifact's params have no names: the map's, else "#index". */
    char num[24];
    snprintf(num, sizeof num, "#%d", i);
    const char *name = info.name ? info.name : wnn_cli_map_param(the_map, i);
    if (!name) name = num;
    if (json) {
      fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
      json_string(stdout, name);
      fputs(",\"dtype\":", stdout);
      json_string(stdout, wnn_dtype_name(info.dtype));
      fputs(",\"shape\":", stdout);
      json_shape(stdout, info.ndim, info.shape);
      printf(",\"codec\":\"%s\",\"stored\":%zu,\"size\":%zu}", c, stored, info.nbytes);
    } else {
      printf("  %d  %s  %s  %s  %s  %zu  %zu\n", i, name, wnn_dtype_name(info.dtype),
             shape_text(shape, sizeof shape, info.ndim, info.shape), c, stored, info.nbytes);
    }
  }
  if (json) fputs("],", stdout);
}

/* info --map: each node with the ONNX nodes it computes, each param with its
 * source name (in JSON, a "map" field). */
static void print_map(const wnn_model *model, int json) {
  const int n = wnn_model_num_nodes(model), np = wnn_model_num_params(model);
  char names[2048];
  if (json) fputs("\"map\":{\"nodes\":[", stdout);
  else printf("nodes (%d) and the ONNX nodes each computes (from the map):\n", n);
  for (int i = 0; i < n; i++) {
    const char *op = wnn_cli_map_node_op(the_map, i);
    wnn_cli_map_node(the_map, i, names, sizeof names);
    if (json) {
      printf("%s{\"node\":%d,\"op\":", i ? "," : "", i);
      json_string(stdout, op ? op : "");
      fputs(",\"onnx\":", stdout);
      json_string(stdout, names);
      fputc('}', stdout);
    } else {
      printf("  %d  %s  <- %s\n", i, op ? op : "?", names[0] ? names : "(not in the map)");
    }
  }
  if (json) fputs("],\"params\":[", stdout);
  else printf("params (%d) by their names in the source model:\n", np);
  for (int i = 0; i < np; i++) {
    const char *name = wnn_cli_map_param(the_map, i);
    if (json) {
      printf("%s{\"param\":%d,\"name\":", i ? "," : "", i);
      if (name) json_string(stdout, name);
      else fputs("null", stdout);
      fputc('}', stdout);
    } else {
      printf("  #%d  %s\n", i, name ? name : "(not in the map)");
    }
  }
  if (json) fputs("]},", stdout);
}

static int cmd_info(int argc, char **argv) {
  cli_args a;
  int rc = parse_args("info", argc, argv, 2, OPT_JSON | OPT_PARAMS | OPT_WEIGHTS | OPT_MAP, &a);
  if (rc) return rc;
  wnn_model *model;
  if ((rc = load_model(a.model, a.params, a.map, &model))) return rc;
  int ni = wnn_model_num_inputs(model), no = wnn_model_num_outputs(model);
  const char *meta = wnn_model_metadata(model);
  if (!meta || !*meta) meta = "null";
  char shape[WNN_MAX_DIMS * 22 + 3];
  if (a.json) {
    fputs("{\"file\":", stdout);
    json_string(stdout, a.model);
    fputs(",\"inputs\":[", stdout);
    for (int i = 0; i < ni; i++) {
      wnn_tensor_info info;
      if (wnn_model_input_info(model, i, &info) != WNN_OK) continue;
      if (i) fputc(',', stdout);
      fprintf(stdout, "{\"index\":%d,\"name\":", i);
      json_string(stdout, info.name);
      fputs(",\"dtype\":", stdout);
      json_string(stdout, wnn_dtype_name(info.dtype));
      fputs(",\"shape\":", stdout);
      print_input_shape(stdout, model, i, &info, 1);
      fputc('}', stdout);
    }
    fputs("],\"dims\":{", stdout);
    print_dims(stdout, model, 1);
    fputs("},\"outputs\":[", stdout);
    for (int i = 0; i < no; i++) {
      wnn_tensor_info info;
      if (wnn_model_output_info(model, i, &info) != WNN_OK) continue;
      if (i) fputc(',', stdout);
      print_tensor_json(stdout, i, &info);
    }
    printf("],\"params\":%d,\"arena_bytes\":%zu,\"weights_bytes\":%zu,",
           wnn_model_num_params(model), wnn_model_arena_bytes(model),
           wnn_model_weights_bytes(model));
    if (a.weights) print_weights(model, 1);
    if (the_map) print_map(model, 1);
    printf("\"metadata\":%s}\n", meta);
  } else {
    printf("model: %s\n", a.model);
    printf("inputs (%d):\n", ni);
    for (int i = 0; i < ni; i++) {
      wnn_tensor_info info;
      if (wnn_model_input_info(model, i, &info) != WNN_OK) continue;
      printf("  %d  %s  %s  ", i, info.name, wnn_dtype_name(info.dtype));
      print_input_shape(stdout, model, i, &info, 0);
      fputc('\n', stdout);
    }
    print_dims(stdout, model, 0);
    printf("outputs (%d):\n", no);
    for (int i = 0; i < no; i++) {
      wnn_tensor_info info;
      if (wnn_model_output_info(model, i, &info) != WNN_OK) continue;
      printf("  %d  %s  %s  %s\n", i, info.name, wnn_dtype_name(info.dtype),
             shape_text(shape, sizeof shape, info.ndim, info.shape));
    }
    printf("params: %d\n", wnn_model_num_params(model));
    printf("arena bytes: %zu\n", wnn_model_arena_bytes(model));
    printf("weights bytes: %zu\n", wnn_model_weights_bytes(model));
    if (a.weights) print_weights(model, 0);
    printf("metadata: %s\n", meta);
  }
  if (the_map && !a.json) print_map(model, 0);
  wnn_model_free(model);
  return 0;
}

/* ------------------------------------------------------------------- run */

static int write_outputs(const wnn_model *model, wnn_executor *exec, const char *dir) {
  int no = wnn_model_num_outputs(model);
  size_t dlen = strlen(dir);
  const char *sep = dlen && dir[dlen - 1] == '/' ? "" : "/";
  for (int i = 0; i < no; i++) {
    wnn_tensor_info info;
    DLTensor view;
    if (wnn_executor_output_info(exec, i, &info) != WNN_OK)
      return fail("output %d: %s", i, wnn_last_error());
    if (wnn_executor_get_output(exec, i, &view) != WNN_OK)
      return fail("output %d ('%s'): %s", i, info.name, wnn_executor_errmsg(exec));
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s%soutput_%d.npy", dir, sep, i) >= sizeof path)
      return fail("--output-dir %s: path too long", dir);
    void *file;
    size_t size;
    char err[512];
    const uint8_t *data = (const uint8_t *)view.data + view.byte_offset;
    if (wnn_npy_encode(info.dtype, info.ndim, info.shape, data, info.nbytes, &file, &size, err,
                       sizeof err) != WNN_OK)
      return fail("output %d ('%s'): %s", i, info.name, err);
    wnn_status st = wnn_file_write(path, file, size, err, sizeof err);
    free(file);
    if (st != WNN_OK) return fail("%s: %s", path, err);
    printf("{\"index\":%d,\"name\":", i);
    json_string(stdout, info.name);
    fputs(",\"shape\":", stdout);
    json_shape(stdout, info.ndim, info.shape);
    fputs(",\"dtype\":", stdout);
    json_string(stdout, wnn_dtype_name(info.dtype));
    fputs(",\"file\":", stdout);
    json_string(stdout, path);
    fputs("}\n", stdout);
  }
  return 0;
}

/* run --dump DIR: every named value but the params (inputs, intermediates,
 * outputs) of the debug executor's run as DIR/<name>.npy (characters other
 * than letters, digits, '.', '-' and '_' made '_'; a name that clashes gets
 * "~<value index>"), and DIR/values.json listing name, file, dtype, shape. */
static int dump_values(const wnn_model *model, wnn_executor *exec, const char *dir) {
  const int nv = wnn_executor_num_values(exec), np = wnn_model_num_params(model);
  size_t dlen = strlen(dir);
  const char *sep = dlen && dir[dlen - 1] == '/' ? "" : "/";
  char path[4096], err[512];
  if ((size_t)snprintf(path, sizeof path, "%s%svalues.json", dir, sep) >= sizeof path)
    return fail("--dump %s: path too long", dir);
  FILE *index = fopen(path, "w");
  if (!index) return fail("--dump %s: %s", path, strerror(errno));
  char **files = (char **)calloc((size_t)nv + 1, sizeof *files);
  int rc = files ? 0 : fail("out of memory"), written = 0;
  fputc('[', index);
  for (int v = 0; !rc && v < nv; v++) {
    wnn_tensor_info info;
    DLTensor view;
    if (wnn_executor_get_value(exec, v, &info, &view) != WNN_OK || !info.name) continue;
    int is_param = 0;
    for (int p = 0; p < np && !is_param; p++) {
      wnn_tensor_info pi;
      is_param = !wnn_model_param_info(model, p, &pi) && !strcmp(pi.name, info.name);
    }
    if (is_param) continue;
    char file[300];
    size_t k = 0;
    for (const char *c = info.name; *c && k < 200; c++, k++)
      file[k] = (isalnum((unsigned char)*c) || *c == '.' || *c == '-' || *c == '_') ? *c : '_';
    file[k] = 0;
    for (int j = 0; j < written; j++)
      if (!strcmp(files[j], file)) {
        snprintf(file + k, sizeof file - k, "~%d", v);
        break;
      }
    files[written] = (char *)malloc(strlen(file) + 1);
    if (!files[written]) {
      rc = fail("out of memory");
      break;
    }
    strcpy(files[written++], file);
    if ((size_t)snprintf(path, sizeof path, "%s%s%s.npy", dir, sep, file) >= sizeof path) {
      rc = fail("--dump %s: path too long", dir);
      break;
    }
    void *npy;
    size_t size;
    const uint8_t *data = (const uint8_t *)view.data + view.byte_offset;
    if (wnn_npy_encode(info.dtype, info.ndim, info.shape, data, info.nbytes, &npy, &size, err,
                       sizeof err) != WNN_OK) {
      rc = fail("value %d ('%s'): %s", v, info.name, err);
      break;
    }
    wnn_status st = wnn_file_write(path, npy, size, err, sizeof err);
    free(npy);
    if (st != WNN_OK) {
      rc = fail("%s: %s", path, err);
      break;
    }
    fputs(written > 1 ? ",\n{\"name\":" : "{\"name\":", index);
    json_string(index, info.name);
    fprintf(index, ",\"file\":\"%s.npy\",\"dtype\":", file);
    json_string(index, wnn_dtype_name(info.dtype));
    fputs(",\"shape\":", index);
    json_shape(index, info.ndim, info.shape);
    fputc('}', index);
  }
  fputs("]\n", index);
  if (fclose(index) != 0 && !rc) rc = fail("--dump %s/values.json: cannot write", dir);
  for (int j = 0; files && j < written; j++) free(files[j]);
  free(files);
  return rc;
}

static int cmd_run(int argc, char **argv) {
  cli_args a;
  int rc = parse_args("run", argc, argv, 2,
                      OPT_INPUT | OPT_OUTPUT_DIR | OPT_PARAMS | OPT_DUMP | OPT_MAP | OPT_THREADS, &a);
  if (rc) return rc;
  wnn_model *model;
  if ((rc = load_model(a.model, a.params, a.map, &model))) return rc;
  wnn_executor *exec = NULL;
  rc = prepare(model, &a, 1, &exec);
  if (!rc && wnn_executor_run(exec) != WNN_OK)
    rc = fail("%s: run failed: %s", a.model, wnn_executor_errmsg(exec));
  if (!rc) rc = write_outputs(model, exec, a.output_dir);
  if (!rc && a.dump) rc = dump_values(model, exec, a.dump);
  wnn_executor_destroy(exec);
  wnn_model_free(model);
  return rc;
}

/* ----------------------------------------------------------------- bench */

static wnn_status bench_once(void *exec) { return wnn_executor_run((wnn_executor *)exec); }

/* bench --profile: `runs` more runs with per-node timing, after the timed
 * ones. rows[i] is node i's entry; order[] the nodes that ran, slowest
 * first. */
typedef struct profile_row {
  wnn_node_profile p;
  double ms; /* per run */
} profile_row;

static int cmp_rows(const void *x, const void *y) {
  const profile_row *a = *(profile_row *const *)x, *b = *(profile_row *const *)y;
  if (a->ms != b->ms) return a->ms < b->ms ? 1 : -1;
  return a->p.node - b->p.node;
}

/* One op type's nodes, summed. */
typedef struct op_sum {
  const char *op;
  double ms;
  int nodes;
} op_sum;

static int cmp_sums(const void *x, const void *y) {
  const op_sum *a = x, *b = y;
  if (a->ms != b->ms) return a->ms < b->ms ? 1 : -1;
  return strcmp(a->op, b->op);
}

static int bench_profile(const char *file, const wnn_model *model, wnn_executor *exec, long runs) {
  const int n = wnn_model_num_nodes(model);
  profile_row *rows = (profile_row *)calloc((size_t)n + 1, sizeof *rows);
  profile_row **order = (profile_row **)calloc((size_t)n + 1, sizeof *order);
  op_sum *sums = (op_sum *)calloc((size_t)n + 1, sizeof *sums);
  int rc = 0, count = 0;
  if (!rows || !order || !sums) rc = fail("out of memory for the profile of %d nodes", n);
  if (!rc && wnn_executor_set_profiling(exec, 1) != WNN_OK)
    rc = fail("%s: %s", file, wnn_executor_errmsg(exec));
  for (long r = 0; !rc && r < runs; r++)
    if (wnn_executor_run(exec) != WNN_OK) rc = fail("%s: run failed: %s", file, wnn_executor_errmsg(exec));
  if (!rc) wnn_executor_set_profiling(exec, 0);
  double total = 0;
  for (int i = 0; !rc && i < n; i++) {
    if (wnn_executor_profile(exec, i, &rows[i].p) != WNN_OK) {
      rc = fail("%s: %s", file, wnn_last_error());
      break;
    }
    if (!rows[i].p.runs) continue;
    rows[i].ms = rows[i].p.total_ms / (double)rows[i].p.runs;
    total += rows[i].ms;
    order[count++] = &rows[i];
  }
  if (!rc) {
    qsort(order, (size_t)count, sizeof *order, cmp_rows);
    fputs(",\"profile\":[", stdout);
    for (int k = 0; k < count; k++) {
      const profile_row *r = order[k];
      printf("%s{\"node\":%d,\"op\":", k ? "," : "", r->p.node);
      json_string(stdout, r->p.op);
      fputs(",\"name\":", stdout);
      json_string(stdout, r->p.name);
      if (the_map) { /* --map: the ONNX nodes it computes */
        char names[2048];
        fputs(",\"onnx\":", stdout);
        json_string(stdout, wnn_cli_map_node(the_map, r->p.node, names, sizeof names));
      }
      fputs(",\"shape\":", stdout);
      json_shape(stdout, r->p.ndim, r->p.shape);
      fputs(",\"ms\":", stdout);
      json_number(stdout, r->ms);
      fputs(",\"share\":", stdout);
      json_number(stdout, total > 0 ? r->ms / total : 0);
      fputc('}', stdout);
    }
    printf("],\"profile_runs\":%ld}\n", runs);
    /* The same, for people: node by node, then summed by op type. */
    printf("\n%10s %6s %5s  %-22s %s\n", "ms/run", "share", "node", "op", "name [output shape]");
    for (int k = 0; k < count; k++) {
      const profile_row *r = order[k];
      char names[2048] = "";
      if (the_map) wnn_cli_map_node(the_map, r->p.node, names, sizeof names);
      printf("%10.4f %5.1f%% %5d  %-22s %s [", r->ms, total > 0 ? 100 * r->ms / total : 0.0,
             r->p.node, r->p.op, names[0] ? names : r->p.name);
      for (int d = 0; d < r->p.ndim; d++) printf("%s%lld", d ? "x" : "", (long long)r->p.shape[d]);
      fputs("]\n", stdout);
    }
    printf("\n%10s %6s %5s  %s\n", "ms/run", "share", "nodes", "op");
    int kinds = 0;
    for (int k = 0; k < count; k++) {
      int j = 0;
      while (j < kinds && strcmp(sums[j].op, order[k]->p.op) != 0) j++;
      if (j == kinds) sums[kinds++].op = order[k]->p.op;
      sums[j].ms += order[k]->ms, sums[j].nodes++;
    }
    qsort(sums, (size_t)kinds, sizeof *sums, cmp_sums);
    for (int k = 0; k < kinds; k++)
      printf("%10.4f %5.1f%% %5d  %s\n", sums[k].ms, total > 0 ? 100 * sums[k].ms / total : 0.0,
             sums[k].nodes, sums[k].op);
    printf("%10.4f %5.1f%% %5d  (all nodes)\n", total, total > 0 ? 100.0 : 0.0, count);
  }
  free(rows);
  free(order);
  free(sums);
  return rc;
}

static int cmd_bench(int argc, char **argv) {
  cli_args a;
  int rc = parse_args("bench", argc, argv, 2,
                      OPT_INPUT | OPT_NUMBER | OPT_REPEAT | OPT_MIN_REPEAT_MS | OPT_PROFILE |
                          OPT_PARAMS | OPT_MAP | OPT_THREADS,
                      &a);
  if (rc) return rc;
  wnn_model *model;
  if ((rc = load_model(a.model, a.params, a.map, &model))) return rc;
  wnn_executor *exec = NULL;
  double *results = NULL;
  rc = prepare(model, &a, 0, &exec);
  if (!rc) {
    results = (double *)malloc(sizeof(double) * (size_t)a.repeat);
    if (!results) rc = fail("out of memory for %ld results", a.repeat);
  }
  int number = (int)a.number;
  if (!rc) {
    wnn_status st = wnn_bench_run(bench_once, exec, wnn_bench_monotonic_ms, NULL, (int)a.number,
                                  (int)a.repeat, a.min_repeat_ms, results, &number);
    if (st != WNN_OK) rc = fail("%s: run failed: %s", a.model, wnn_executor_errmsg(exec));
  }
  wnn_bench_stats s;
  if (!rc && wnn_bench_stats_compute(results, (int)a.repeat, &s) != WNN_OK)
    rc = fail("out of memory");
  if (!rc) {
    fputs("{\"mean_ms\":", stdout);
    json_number(stdout, s.mean);
    fputs(",\"median_ms\":", stdout);
    json_number(stdout, s.median);
    fputs(",\"std_ms\":", stdout);
    json_number(stdout, s.std);
    fputs(",\"min_ms\":", stdout);
    json_number(stdout, s.min);
    fputs(",\"max_ms\":", stdout);
    json_number(stdout, s.max);
    fputs(",\"results_ms\":[", stdout);
    for (long r = 0; r < a.repeat; r++) {
      if (r) fputc(',', stdout);
      json_number(stdout, results[r]);
    }
    printf("],\"number\":%d,\"repeat\":%ld", number, a.repeat);
    if (a.profile) rc = bench_profile(a.model, model, exec, (long)number * a.repeat);
    else fputs("}\n", stdout);
  }
  free(results);
  wnn_executor_destroy(exec);
  wnn_model_free(model);
  return rc;
}

/* --------------------------------------------------------------- convert */

#define MAX_SHAPE_SPECS 64

#ifdef WNN_CLI_WITH_IMPORTER
/* "1x3x224x224" (also with commas). */
static int parse_dims(const char *spec, const char *text, wnn_import_shape *out) {
  out->ndim = 0;
  const char *p = text;
  while (*p) {
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (end == p || errno == ERANGE || v < 0 || v > (1LL << 40))
      return usage_error("--shape %s: '%s' is not a list of dims like 1x3x224x224", spec, text);
    if (out->ndim == WNN_MAX_DIMS)
      return usage_error("--shape %s: more than %d dims", spec, WNN_MAX_DIMS);
    out->dims[out->ndim++] = v;
    p = end;
    if (*p == 'x' || *p == 'X' || *p == ',') {
      p++;
      if (!*p) return usage_error("--shape %s: '%s' ends with a separator", spec, text);
    } else if (*p) {
      return usage_error("--shape %s: '%s' is not a list of dims like 1x3x224x224", spec, text);
    }
  }
  return 0;
}

/* Reads every --const NAME=FILE (split at the last '=', as --shape): the
 * names are malloc'd into consts[], the tensors into data[]; float64 becomes
 * float32 (a double graph input is float32 inside the model). On failure what was
 * read so far is freed. */
static int read_consts(const char *const *specs, int n, wnn_import_const *consts,
                       wnn_host_tensor *data) {
  int rc = 0, s = 0;
  for (; !rc && s < n; s++) {
    const char *spec = specs[s];
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) {
      rc = usage_error("--const expects NAME=FILE (FILE a .npy or .pb tensor), got '%s'", spec);
      break;
    }
    size_t len = (size_t)(eq - spec);
    char *name = (char *)malloc(len + 1);
    if (!name) {
      rc = fail("out of memory");
      break;
    }
    memcpy(name, spec, len);
    name[len] = '\0';
    consts[s].name = name;
    for (int t = 0; !rc && t < s; t++)
      if (!strcmp(consts[t].name, name))
        rc = usage_error("--const: input '%s' is given more than once", name);
    char err[512];
    wnn_host_tensor *t = &data[s];
    if (!rc && wnn_tensor_file_read(eq + 1, t, err, sizeof err) != WNN_OK)
      rc = fail("convert: --const %s: %s: %s", name, eq + 1, err);
    if (!rc && t->dtype == WNN_DTYPE_F64) {
      const double *d = (const double *)t->data;
      float *f = (float *)malloc(t->count ? t->count * sizeof *f : 1);
      if (!f) {
        rc = fail("out of memory");
        break;
      }
      for (size_t k = 0; k < t->count; k++) f[k] = (float)d[k];
      free(t->data);
      t->data = f;
      t->dtype = WNN_DTYPE_F32;
      t->dtype_name = "float32";
      t->elem_size = 4;
      t->nbytes = t->count * 4;
    }
    if (!rc && t->dtype == WNN_DTYPE_INVALID)
      rc = fail("convert: --const %s: %s holds %s, which wnn has no dtype for", name, eq + 1,
                t->dtype_name);
    if (rc) break;
    consts[s].dtype = t->dtype;
    consts[s].ndim = t->ndim;
    memcpy(consts[s].dims, t->shape, sizeof consts[s].dims);
    consts[s].data = t->data;
  }
  if (rc)
    for (int k = 0; k <= s && k < n; k++) {
      free((char *)consts[k].name);
      consts[k].name = NULL;
      wnn_host_tensor_free(&data[k]);
    }
  return rc;
}

static void free_shape_names(wnn_import_shape *shapes, int count) {
  for (int s = 0; s < count; s++) free((char *)shapes[s].name);
}

/* NAME=DIMS options (--shape, --default-shape, --max-shape; split at the last
 * '=') into out[] with malloc'd names; each input at most once. */
static int parse_shape_specs(const char *option, const char *const *specs, int count,
                             wnn_import_shape *out) {
  for (int s = 0; s < count; s++) {
    const char *spec = specs[s];
    const char *eq = strrchr(spec, '=');
    int rc = 0;
    if (!eq || eq == spec || !eq[1])
      rc = usage_error("%s expects NAME=DIMS (like data=1x3x224x224), got '%s'", option, spec);
    if (!rc) rc = parse_dims(spec, eq + 1, &out[s]);
    if (rc) {
      free_shape_names(out, s);
      return rc;
    }
    size_t len = (size_t)(eq - spec);
    char *name = (char *)malloc(len + 1);
    if (!name) {
      free_shape_names(out, s);
      return fail("out of memory");
    }
    memcpy(name, spec, len);
    name[len] = '\0';
    out[s].name = name;
    for (int t = 0; t < s; t++)
      if (!strcmp(out[t].name, name)) {
        free_shape_names(out, s + 1);
        return usage_error("%s: input '%.*s' is given more than once", option, (int)len, spec);
      }
  }
  return 0;
}

/* What `convert --report FILE` writes: the warnings, as they come, and the
 * outcome. */
typedef struct convert_report {
  FILE *f;      /* NULL: no report */
  int warnings; /* written so far */
  /* --weights: the params the builder encoded (wnn_builder_weights.report),
   * for the report, and totals for the summary line. */
  struct coded_param {
    char *name;
    unsigned codec;
    size_t stored, size;
    double err;
  } *coded;
  int num_coded, cap_coded;
  size_t stored, size;
  double worst;
  const char *worst_name;
} convert_report;

static void convert_coded(void *ctx, const char *name, unsigned codec, size_t stored, size_t size,
                          double err) {
  convert_report *r = (convert_report *)ctx;
  if (r->num_coded == r->cap_coded) {
    int cap = r->cap_coded ? 2 * r->cap_coded : 64;
    struct coded_param *p = realloc(r->coded, (size_t)cap * sizeof *p);
    if (!p) return; /* the summary then undercounts; the artifact is unaffected */
    r->coded = p, r->cap_coded = cap;
  }
  struct coded_param *c = &r->coded[r->num_coded];
  const size_t len = strlen(name ? name : "");
  c->name = malloc(len + 1);
  if (!c->name) return;
  memcpy(c->name, name ? name : "", len + 1);
  c->codec = codec, c->stored = stored, c->size = size, c->err = err;
  r->num_coded++;
  r->stored += stored, r->size += size;
  if (err >= r->worst) r->worst = err, r->worst_name = c->name;
}

static void convert_coded_free(convert_report *r) {
  for (int i = 0; i < r->num_coded; i++) free(r->coded[i].name);
  free(r->coded);
  r->coded = NULL;
  r->num_coded = r->cap_coded = 0;
}

static void convert_warn(void *ctx, const char *msg) {
  convert_report *r = (convert_report *)ctx;
  fprintf(stderr, "wnn: convert: warning: %s\n", msg);
  if (r->f) {
    fputs(r->warnings++ ? "," : "", r->f);
    json_string(r->f, msg);
  }
}

/* Ends the report: {"warnings": [...], "ok": ..., "status": N, "status_name":
 * "WNN_...", "unsupported": ..., "message": "...", "nodes": N, "quant_rewrites": N}.
 * The status is
 * the C library's wnn_status number (include/wnn.h). Returns rc, or
 * EXIT_FAIL when the report cannot be written. */
static int convert_report_end(convert_report *r, const char *path, int rc, wnn_status st,
                              const char *msg, bool unsupported, int nodes, int quant_rewrites,
                              int subnormal_tensors, long long subnormal_values) {
  if (!r->f) return rc;
  fprintf(r->f, "],\"ok\":%s,\"status\":%d,\"unsupported\":%s,\"message\":", rc ? "false" : "true",
          (int)st, unsupported ? "true" : "false");
  json_string(r->f, msg);
  fprintf(r->f, ",\"nodes\":%d,\"quant_rewrites\":%d,\"subnormal_weights\":{\"tensors\":%d,\"values\":%lld},\"weights\":[",
          nodes, quant_rewrites, subnormal_tensors, subnormal_values);
  for (int i = 0; !rc && i < r->num_coded; i++) {
    const struct coded_param *c = &r->coded[i];
    fprintf(r->f, "%s{\"name\":", i ? "," : "");
    json_string(r->f, c->name);
    char cn[32];
    fprintf(r->f, ",\"codec\":\"%s\",\"stored\":%zu,\"size\":%zu,\"max_rel_error\":%.6g}",
            codec_name(c->codec, cn, sizeof cn), c->stored, c->size, c->err);
  }
  fputs("]}\n", r->f);
  const bool bad = ferror(r->f) != 0;
  if (fclose(r->f) != 0 || bad) {
    r->f = NULL;
    return rc ? rc : fail("convert: --report %s: cannot write", path);
  }
  r->f = NULL;
  return rc;
}

/* Shown on a terminal only, for models with many nodes. */
static void convert_progress(void *ctx, int done, int total) {
  (void)ctx;
  if (total < 200) return;
  fprintf(stderr, "\rwnn: convert: %d/%d nodes", done, total);
  if (done == total) fputc('\n', stderr);
  fflush(stderr);
}
#endif

#ifdef WNN_CLI_WITH_IMPORTER
/* --params-ref FILE: the artifact just converted (with its own blob in
 * res->params) is pointed at the blob in FILE instead, which must hold every
 * one of its params unchanged (wnn_params_refer); nothing is written on a
 * mismatch. */
static int refer_params(const char *path, wnn_import_result *res, wnn_status *st, char *msg,
                        size_t cap) {
  void *ref = NULL;
  size_t ref_size = 0;
  char err[512];
  if ((*st = wnn_file_read(path, &ref, &ref_size, err, sizeof err)) != WNN_OK) {
    snprintf(msg, cap, "--params-ref %s: %s", path, err);
    return fail("convert: %s", msg);
  }
  *st = wnn_params_refer(res->artifact, res->size, res->params, res->params_size, ref, ref_size);
  free(ref);
  if (*st == WNN_OK) return 0;
  snprintf(msg, cap, "--params-ref %s: %s", path, wnn_last_error());
  return fail("convert: %s", msg);
}
#endif

static int cmd_convert(int argc, char **argv) {
  const char *model = NULL, *out = NULL, *report_path = NULL;
  const char *shape_specs[MAX_SHAPE_SPECS];
  int num_shapes = 0;
  /* --default-shape and --max-shape (run-time shapes) */
  const char *default_specs[MAX_SHAPE_SPECS], *max_specs[MAX_SHAPE_SPECS];
  int num_defaults = 0, num_maxes = 0;
  bool fix_dims = false, no_quant_rewrites = false, keep_subnormals = false, release = false;
  const char *map_path = NULL;
  const char *const_specs[MAX_SHAPE_SPECS];
  int num_consts = 0;
  size_t max_memory = 0;
  const char *params_out = NULL, *params_ref = NULL;
  unsigned weights_codec = WNN_CODEC_RAW, compress = 0;
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i];
    const char *value = NULL;
    if (!strcmp(arg, "--fix-dims")) {
      fix_dims = true;
      continue;
    }
    if (!strcmp(arg, "--release")) {
      release = true;
      continue;
    }
    if (!strcmp(arg, "--no-quant-rewrites")) {
      no_quant_rewrites = true;
      continue;
    }
    if (!strcmp(arg, "--keep-subnormals")) {
      keep_subnormals = true;
      continue;
    }
    if (!strcmp(arg, "-o") || !strcmp(arg, "--output") || !strcmp(arg, "--shape") ||
        !strcmp(arg, "--const") || !strcmp(arg, "--max-memory") || !strcmp(arg, "--report") ||
        !strcmp(arg, "--default-shape") || !strcmp(arg, "--max-shape") ||
        !strcmp(arg, "--params-out") || !strcmp(arg, "--params-ref") || !strcmp(arg, "--weights") ||
        !strcmp(arg, "--compress") || !strcmp(arg, "--map")) {
      if (i + 1 >= argc) return usage_error("convert: %s needs a value", arg);
      value = argv[++i];
    } else if (!strncmp(arg, "--output=", 9) || !strncmp(arg, "--shape=", 8) ||
               !strncmp(arg, "--const=", 8) || !strncmp(arg, "--max-memory=", 13) ||
               !strncmp(arg, "--report=", 9) || !strncmp(arg, "--default-shape=", 16) ||
               !strncmp(arg, "--max-shape=", 12) || !strncmp(arg, "--params-out=", 13) ||
               !strncmp(arg, "--params-ref=", 13) || !strncmp(arg, "--weights=", 10) ||
               !strncmp(arg, "--compress=", 11) || !strncmp(arg, "--map=", 6)) {
      value = strchr(arg, '=') + 1;
    } else if (arg[0] == '-' && arg[1]) {
      return usage_error("convert: unknown option '%s'", arg);
    } else {
      if (model) return usage_error("convert: unexpected argument '%s'", arg);
      model = arg;
      continue;
    }
    if (!strncmp(arg, "--max-memory", 12)) {
      /* BYTES, or a count with a K, M or G suffix (powers of 1024). */
      char *end;
      errno = 0;
      unsigned long long v = strtoull(value, &end, 10);
      unsigned shift = 0;
      if (*end == 'K' || *end == 'k') shift = 10, end++;
      else if (*end == 'M' || *end == 'm') shift = 20, end++;
      else if (*end == 'G' || *end == 'g') shift = 30, end++;
      if (!*value || *value == '-' || *end || errno || v == 0 || v > (SIZE_MAX >> shift))
        return usage_error("convert: --max-memory expects a byte count like 512M or 2G, got '%s'",
                           value);
      max_memory = (size_t)v << shift;
    } else if (!strncmp(arg, "--default-shape", 15) || !strncmp(arg, "--max-shape", 11)) {
      const bool dflt = arg[2] == 'd';
      int *count = dflt ? &num_defaults : &num_maxes;
      if (*count == MAX_SHAPE_SPECS)
        return usage_error("convert: more than %d %s options", MAX_SHAPE_SPECS,
                           dflt ? "--default-shape" : "--max-shape");
      (dflt ? default_specs : max_specs)[(*count)++] = value;
    } else if (!strncmp(arg, "--shape", 7)) {
      if (num_shapes == MAX_SHAPE_SPECS)
        return usage_error("convert: more than %d --shape options", MAX_SHAPE_SPECS);
      shape_specs[num_shapes++] = value;
    } else if (!strncmp(arg, "--const", 7)) {
      if (num_consts == MAX_SHAPE_SPECS)
        return usage_error("convert: more than %d --const options", MAX_SHAPE_SPECS);
      const_specs[num_consts++] = value;
    } else if (!strncmp(arg, "--params-out", 12)) {
      if (!*value) return usage_error("convert: the --params-out path is empty");
      params_out = value;
    } else if (!strncmp(arg, "--compress", 10)) {
      if (!strcmp(value, "none")) compress = 0;
      else if (!strcmp(value, "lz4")) compress = 1;
      else if (!strcmp(value, "zstd")) compress = 2;
      else return usage_error("convert: --compress expects none, lz4 or zstd, got '%s'", value);
    } else if (!strncmp(arg, "--weights", 9)) {
      if (!strcmp(value, "raw")) weights_codec = WNN_CODEC_RAW;
      else if (!strcmp(value, "fp16")) weights_codec = WNN_CODEC_FP16;
      else if (!strcmp(value, "int8")) weights_codec = WNN_CODEC_INT8;
      else return usage_error("convert: --weights expects raw, fp16 or int8, got '%s'", value);
    } else if (!strncmp(arg, "--params-ref", 12)) {
      if (!*value) return usage_error("convert: the --params-ref path is empty");
      params_ref = value;
    } else if (!strncmp(arg, "--report", 8)) {
      if (!*value) return usage_error("convert: the --report path is empty");
      report_path = value;
    } else if (!strncmp(arg, "--map", 5)) {
      if (!*value) return usage_error("convert: the --map path is empty");
      map_path = value;
    } else {
      if (!*value) return usage_error("convert: the output path is empty");
      out = value;
    }
  }
  if (!model) return usage_error("convert: no model file given");
  if (!out) return usage_error("convert: no output file given (-o OUT.wnn)");
  if (params_out && params_ref)
    return usage_error("convert: --params-out writes a new blob, --params-ref refers to one: "
                       "give one of them");
#ifndef WNN_CLI_WITH_IMPORTER
  (void)release;
  (void)map_path;
  (void)params_ref;
  (void)weights_codec;
  (void)compress;
  (void)report_path;
  (void)shape_specs;
  (void)default_specs;
  (void)max_specs;
  (void)fix_dims;
  (void)no_quant_rewrites;
  (void)keep_subnormals;
  (void)max_memory;
  (void)const_specs;
  (void)params_out;
  fputs("wnn: convert: this command has no ONNX importer (dist/wnn-wasi.wasm runs models only):\n"
        "  convert with dist/wnn-convert.wasm (the same CLI with the importer; `npx wnn convert`\n"
        "  in the npm package) or the native build/native/wnn, then run the .wnn artifact here.\n",
        stderr);
  return EXIT_USAGE;
#else
  wnn_import_shape shapes[MAX_SHAPE_SPECS], defaults[MAX_SHAPE_SPECS], maxes[MAX_SHAPE_SPECS];
  int rc = parse_shape_specs("--shape", shape_specs, num_shapes, shapes);
  if (!rc && (rc = parse_shape_specs("--default-shape", default_specs, num_defaults, defaults)))
    free_shape_names(shapes, num_shapes);
  if (!rc && (rc = parse_shape_specs("--max-shape", max_specs, num_maxes, maxes))) {
    free_shape_names(shapes, num_shapes);
    free_shape_names(defaults, num_defaults);
  }
  if (rc) return rc;
  convert_report report;
  memset(&report, 0, sizeof report);
  if (report_path) {
    report.f = fopen(report_path, "w");
    if (!report.f) {
      free_shape_names(shapes, num_shapes);
      free_shape_names(defaults, num_defaults);
      free_shape_names(maxes, num_maxes);
      return fail("convert: --report %s: %s", report_path, strerror(errno));
    }
    fputs("{\"warnings\":[", report.f);
  }
  wnn_import_const consts[MAX_SHAPE_SPECS];
  wnn_host_tensor const_data[MAX_SHAPE_SPECS];
  memset(consts, 0, sizeof consts);
  memset(const_data, 0, sizeof const_data);
  rc = read_consts(const_specs, num_consts, consts, const_data);
  void *data = NULL;
  size_t size = 0;
  char err[512];
  /* What the report says when something fails before the importer runs. */
  wnn_status st = !rc ? WNN_OK : rc == EXIT_USAGE ? WNN_ERR_INVALID_ARGUMENT : WNN_ERR_IO;
  char msg[1100] = ""; /* empty: the message is only on stderr */
  if (!rc && (st = wnn_file_read(model, &data, &size, err, sizeof err)) != WNN_OK) {
    rc = fail("convert: %s: %s", model, err);
    snprintf(msg, sizeof msg, "%s: %s", model, err);
  }
  /* The model's folder, for external data. */
  char dir[4096];
  const char *slash = strrchr(model, '/');
  if (!slash) snprintf(dir, sizeof dir, ".");
  else if (slash == model) snprintf(dir, sizeof dir, "/");
  else snprintf(dir, sizeof dir, "%.*s", (int)(slash - model), model);
  const char *base = strrchr(model, '/') ? strrchr(model, '/') + 1 : model;
  char name[256];
  snprintf(name, sizeof name, "%s", base);
  char *dot = strrchr(name, '.');
  if (dot && dot != name) *dot = '\0';
  /* model.onnx says little: use its folder's name. */
  if (!strcmp(name, "model") && slash && slash != model) {
    const char *start = slash;
    while (start > model && start[-1] != '/') start--;
    if (start < slash) snprintf(name, sizeof name, "%.*s", (int)(slash - start), start);
  }
  wnn_import_options opt;
  memset(&opt, 0, sizeof opt);
  opt.shapes = shapes;
  opt.num_shapes = num_shapes;
  opt.default_shapes = defaults;
  opt.num_default_shapes = num_defaults;
  opt.max_shapes = maxes;
  opt.num_max_shapes = num_maxes;
  opt.fix_dims = fix_dims;
  opt.no_quant_rewrites = no_quant_rewrites;
  opt.keep_subnormals = keep_subnormals;
  opt.base_dir = dir;
  opt.warn = convert_warn;
  opt.warn_ctx = &report;
  if (isatty(2)) opt.progress = convert_progress;
  opt.model_name = name;
  opt.consts = consts;
  opt.num_consts = num_consts;
  opt.max_memory = max_memory;
  opt.split_params = params_out || params_ref;
  opt.release = release;
  opt.map = map_path != NULL;
  const wnn_builder_weights weights = {weights_codec, 0, convert_coded, &report, NULL, compress};
  opt.weights = &weights;
  wnn_import_result res;
  res.unsupported = false;
  res.num_nodes = 0;
  res.num_quant_rewrites = 0;
  res.num_subnormal_tensors = 0;
  res.num_subnormal_values = 0;
  res.map = NULL;
  if (!rc) {
    st = wnn_import_onnx(data, size, &opt, &res);
    if (st != WNN_OK) {
      fprintf(stderr, "wnn: convert: %s\n", res.msg);
      snprintf(msg, sizeof msg, "%s", res.msg);
      rc = res.unsupported ? EXIT_UNSUPPORTED : EXIT_FAIL;
    } else {
      if (params_ref) rc = refer_params(params_ref, &res, &st, msg, sizeof msg);
      if (rc) {
        /* refer_params said why */
      } else if (params_out &&
          (st = wnn_file_write(params_out, res.params, res.params_size, err, sizeof err)) != WNN_OK) {
        rc = fail("convert: %s: %s", params_out, err);
        snprintf(msg, sizeof msg, "%s: %s", params_out, err);
      } else if ((st = wnn_file_write(out, res.artifact, res.size, err, sizeof err)) != WNN_OK) {
        rc = fail("convert: %s: %s", out, err);
        snprintf(msg, sizeof msg, "%s: %s", out, err);
      } else if (map_path) {
        /* The map of the artifact as written (after --params-ref). */
        char *text = wnn_import_map_print(res.map, res.artifact, res.size);
        if (!text) {
          st = WNN_ERR_OUT_OF_MEMORY;
          rc = fail("convert: out of memory writing the map");
          snprintf(msg, sizeof msg, "out of memory writing the map");
        } else if ((st = wnn_file_write(map_path, text, strlen(text), err, sizeof err)) != WNN_OK) {
          rc = fail("convert: %s: %s", map_path, err);
          snprintf(msg, sizeof msg, "%s: %s", map_path, err);
        }
        free(text);
      }
      wnn_import_map_free(res.map);
      free(res.artifact);
      free(res.params);
    }
  }
  rc = convert_report_end(&report, report_path, rc, st, msg, rc == EXIT_UNSUPPORTED, rc ? 0 : res.num_nodes,
                          rc ? 0 : res.num_quant_rewrites, rc ? 0 : res.num_subnormal_tensors,
                          rc ? 0 : (long long)res.num_subnormal_values);
  if (!rc && release && !map_path)
    fputs("wnn: convert: --release without --map: nothing will trace this artifact's node and "
          "param numbers back to the source model\n", stderr);
  if (!rc && (weights_codec != WNN_CODEC_RAW || compress)) /* what they did, in one line */
    fprintf(stderr,
            "wnn: convert: --weights %s --compress %s: %d params, %zu bytes stored for %zu; "
            "largest relative error %.3g (%s)%s\n",
            weights_codec == WNN_CODEC_FP16 ? "fp16" : weights_codec == WNN_CODEC_INT8 ? "int8" : "raw",
            compress == 1 ? "lz4" : compress == 2 ? "zstd" : "none", report.num_coded,
            report.stored, report.size, report.worst, report.worst_name ? report.worst_name : "none",
            report_path ? "; per param in the --report file" : "");
  convert_coded_free(&report);
  free(data);
  free_shape_names(shapes, num_shapes);
  free_shape_names(defaults, num_defaults);
  free_shape_names(maxes, num_maxes);
  for (int s = 0; s < num_consts; s++) {
    free((char *)consts[s].name);
    wnn_host_tensor_free(&const_data[s]);
  }
  return rc;
#endif
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  int rc;
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    fputs(usage_text, stdout);
    rc = 0;
  } else if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
    printf("wnn %s (artifact format %d.%d)\n", wnn_version(), WNN_FORMAT_MAJOR, WNN_FORMAT_MINOR);
    rc = 0;
  } else if (strcmp(cmd, "convert") == 0) {
    rc = cmd_convert(argc, argv);
  } else if (strcmp(cmd, "info") == 0) {
    rc = cmd_info(argc, argv);
  } else if (strcmp(cmd, "run") == 0) {
    rc = cmd_run(argc, argv);
  } else if (strcmp(cmd, "bench") == 0) {
    rc = cmd_bench(argc, argv);
  } else {
    rc = usage_error("unknown command '%s'", cmd);
  }
  if (fflush(stdout) != 0 && rc == 0) rc = fail("cannot write to standard output");
  return rc;
}
