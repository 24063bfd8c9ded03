/*
 * Map files of release artifacts (docs/format.md, "Release artifacts and the
 * map file"): read one, check that it belongs to the artifact, and turn the
 * node and value numbers of messages and profiles back into the source
 * model's names. Only stdio and cJSON, so it builds for wasm32-wasi too.
 */
#ifndef WNN_CLI_MAP_H
#define WNN_CLI_MAP_H

#include <stddef.h>

#include "wnn.h"

typedef struct wnn_cli_map wnn_cli_map;

/* Reads the map file at path and checks it against the artifact bytes at
 * artifact[size]: its version, its SHA-256 and size. A map of another
 * artifact, or a file that is no map, fails with a message in err that says
 * which (WNN_ERR_INVALID_ARGUMENT; WNN_ERR_IO when the file cannot be read). */
wnn_status wnn_cli_map_load(const char *path, const void *artifact, size_t size,
                            wnn_cli_map **out, char *err, size_t errcap);
/* The same for the map's text[n] in hand (path names it in messages). */
wnn_status wnn_cli_map_parse(const void *text, size_t n, const char *path, const void *artifact,
                             size_t size, wnn_cli_map **out, char *err, size_t cap);
void wnn_cli_map_free(wnn_cli_map *map);

/* Node `node`'s ONNX nodes as "Conv '/c1/Conv' + Relu '/r1/Relu'" into buf
 * ("" for a node the map does not know; "(added: why)" for a node the
 * converter added). Returns buf. */
const char *wnn_cli_map_node(const wnn_cli_map *map, int node, char *buf, size_t cap);
/* Node `node`'s op as the map gives it, or NULL. */
const char *wnn_cli_map_node_op(const wnn_cli_map *map, int node);
/* Value `value`'s name in the source model, or NULL. */
const char *wnn_cli_map_value(const wnn_cli_map *map, int value);
/* The name of the param with index `param` (its rank among params), or NULL. */
const char *wnn_cli_map_param(const wnn_cli_map *map, int param);
/* The counts of the map's nodes and values entries. */
int wnn_cli_map_num_nodes(const wnn_cli_map *map);

/* msg with the source names added after each "node N (Op...)" (as
 * " [ONNX ...]") and each "value N" or "values[N]" (as " ['name']") that the
 * map knows, into out[cap] (cut to fit). Returns out. */
const char *wnn_cli_map_translate(const wnn_cli_map *map, const char *msg, char *out, size_t cap);

#endif /* WNN_CLI_MAP_H */
