/* Map files of release artifacts (map.h). */
#include "map.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "runtime/sha256.h"

struct wnn_cli_map {
  cJSON *root;
  const cJSON **nodes;  /* by node index */
  int num_nodes;
  const cJSON **values; /* by value index (NULL: not in the map) */
  int num_values;
  const cJSON **params; /* by param index */
  int num_params;
};

void wnn_cli_map_free(wnn_cli_map *m) {
  if (!m) return;
  cJSON_Delete(m->root);
  free(m->nodes);
  free(m->values);
  free(m->params);
  free(m);
}

static wnn_status bad(char *err, size_t cap, const char *path, const char *why) {
  snprintf(err, cap, "--map %s: %s", path, why);
  return WNN_ERR_INVALID_ARGUMENT;
}

/* An integer field in [0, limit), or -1. */
static int index_of(const cJSON *o, const char *key, int limit) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
  /* written so that NaN fails too before the cast */
  if (!cJSON_IsNumber(j) || !(j->valuedouble >= 0 && j->valuedouble < limit) ||
      j->valuedouble != (double)(int)j->valuedouble)
    return -1;
  return (int)j->valuedouble;
}

/* Fills table[index] from the entries of list that have `key` (a map's
 * indices are below its entry count plus the graph's other values: bounded
 * by `limit`). */
static const cJSON **table(const cJSON *list, const char *key, int limit, int *count) {
  int n = 0;
  for (const cJSON *e = list ? list->child : NULL; e; e = e->next) {
    int i = index_of(e, key, limit);
    if (i + 1 > n) n = i + 1;
  }
  const cJSON **t = calloc((size_t)n + 1, sizeof *t);
  if (!t) return NULL;
  for (const cJSON *e = list ? list->child : NULL; e; e = e->next) {
    int i = index_of(e, key, limit);
    if (i >= 0) t[i] = e;
  }
  *count = n;
  return t;
}

wnn_status wnn_cli_map_load(const char *path, const void *artifact, size_t size,
                            wnn_cli_map **out, char *err, size_t cap) {
  *out = NULL;
  void *data;
  size_t n;
  char why[512];
  if (wnn_file_read(path, &data, &n, why, sizeof why) != WNN_OK) {
    snprintf(err, cap, "--map %s: %s", path, why);
    return WNN_ERR_IO;
  }
  wnn_status st = wnn_cli_map_parse(data, n, path, artifact, size, out, err, cap);
  free(data);
  return st;
}

wnn_status wnn_cli_map_parse(const void *text, size_t n, const char *path, const void *artifact,
                             size_t size, wnn_cli_map **out, char *err, size_t cap) {
  *out = NULL;
  cJSON *root = cJSON_ParseWithLength(text, n);
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "wnn_map");
  if (!root || !cJSON_IsObject(root) || !cJSON_IsNumber(version)) {
    cJSON_Delete(root);
    return bad(err, cap, path, "not a wnn map file (JSON with \"wnn_map\": 1)");
  }
  if (version->valuedouble != 1) {
    cJSON_Delete(root);
    return bad(err, cap, path, "map format version is not 1");
  }
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "artifact");
  const cJSON *sha = cJSON_GetObjectItemCaseSensitive(a, "sha256");
  const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(a, "bytes");
  char hex[65];
  wnn_sha256_hex(artifact, size, hex);
  if (!cJSON_IsString(sha) || !cJSON_IsNumber(bytes)) {
    cJSON_Delete(root);
    return bad(err, cap, path, "has no artifact digest (\"artifact\": {\"sha256\", \"bytes\"})");
  }
  if (strcmp(sha->valuestring, hex) || bytes->valuedouble != (double)size) {
    snprintf(err, cap,
             "--map %s is the map of another artifact (SHA-256 %.64s, %.0f bytes); this one's is "
             "%s (%zu bytes)",
             path, sha->valuestring, bytes->valuedouble, hex, size);
    cJSON_Delete(root);
    return WNN_ERR_INVALID_ARGUMENT;
  }
  wnn_cli_map *m = calloc(1, sizeof *m);
  const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
  const cJSON *values = cJSON_GetObjectItemCaseSensitive(root, "values");
  if (m) {
    m->root = root;
    m->nodes = table(nodes, "node", WNN_MAX_NODES, &m->num_nodes);
    m->values = table(values, "value", WNN_MAX_VALUES, &m->num_values);
    m->params = table(values, "param", WNN_MAX_VALUES, &m->num_params);
  }
  if (!m || !m->nodes || !m->values || !m->params) {
    if (m) wnn_cli_map_free(m);
    else cJSON_Delete(root);
    snprintf(err, cap, "--map %s: out of memory", path);
    return WNN_ERR_OUT_OF_MEMORY;
  }
  *out = m;
  return WNN_OK;
}

int wnn_cli_map_num_nodes(const wnn_cli_map *m) { return m ? m->num_nodes : 0; }

static const char *str(const cJSON *o, const char *key) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(j) ? j->valuestring : NULL;
}

const char *wnn_cli_map_node(const wnn_cli_map *m, int node, char *buf, size_t cap) {
  buf[0] = '\0';
  if (!m || node < 0 || node >= m->num_nodes || !m->nodes[node]) return buf;
  const cJSON *e = m->nodes[node];
  const char *added = str(e, "added");
  size_t used = 0;
  if (added) {
    snprintf(buf, cap, "(added: %s)", added);
    return buf;
  }
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(e, "onnx");
  for (const cJSON *s = list ? list->child : NULL; s && used < cap; s = s->next) {
    const char *op = str(s, "op"), *name = str(s, "name");
    used += (size_t)snprintf(buf + used, cap - used, "%s%s '%s'", used ? " + " : "", op ? op : "?",
                             name ? name : "");
  }
  return buf;
}

const char *wnn_cli_map_node_op(const wnn_cli_map *m, int node) {
  if (!m || node < 0 || node >= m->num_nodes || !m->nodes[node]) return NULL;
  return str(m->nodes[node], "op");
}

const char *wnn_cli_map_value(const wnn_cli_map *m, int value) {
  if (!m || value < 0 || value >= m->num_values || !m->values[value]) return NULL;
  return str(m->values[value], "name");
}

const char *wnn_cli_map_param(const wnn_cli_map *m, int param) {
  if (!m || param < 0 || param >= m->num_params || !m->params[param]) return NULL;
  return str(m->params[param], "name");
}

/* Whether msg[at] starts the word `word`. */
static bool word_at(const char *msg, size_t at, const char *word) {
  if (at > 0 && (isalnum((unsigned char)msg[at - 1]) || msg[at - 1] == '_')) return false;
  return !strncmp(msg + at, word, strlen(word));
}

/* Appends text to out[cap] at *used (cut to fit). */
static void emit(char *out, size_t cap, size_t *used, const char *text, size_t len) {
  if (*used + 1 >= cap) return;
  if (len > cap - 1 - *used) len = cap - 1 - *used;
  memcpy(out + *used, text, len);
  *used += len;
  out[*used] = '\0';
}

const char *wnn_cli_map_translate(const wnn_cli_map *m, const char *msg, char *out, size_t cap) {
  size_t used = 0, at = 0;
  if (!cap) return out;
  out[0] = '\0';
  while (msg[at]) {
    /* "node N (Op)", "value N", "values[N]": the number, and where the note goes. */
    static const char *const kinds[3] = {"node ", "values[", "value "};
    int kind = -1;
    for (int k = 0; k < 3 && kind < 0; k++)
      if (word_at(msg, at, kinds[k])) kind = k;
    if (kind < 0) {
      emit(out, cap, &used, msg + at, 1);
      at++;
      continue;
    }
    size_t p = at + strlen(kinds[kind]);
    size_t digits = 0;
    while (isdigit((unsigned char)msg[p + digits]) && digits < 9) digits++;
    if (!digits || isdigit((unsigned char)msg[p + digits])) {
      emit(out, cap, &used, msg + at, 1);
      at++;
      continue;
    }
    const int index = atoi(msg + p);
    size_t end = p + digits; /* the note goes after msg[end - 1] */
    char note[700] = "";
    if (kind == 0) {
      if (msg[end] == ' ' && msg[end + 1] == '(') {
        const char *close = strchr(msg + end, ')');
        if (close) end = (size_t)(close - msg) + 1;
      }
      char names[600];
      wnn_cli_map_node(m, index, names, sizeof names);
      if (names[0]) snprintf(note, sizeof note, " [ONNX %s]", names);
    } else {
      if (kind == 1 && msg[end] == ']') end++;
      const char *name = wnn_cli_map_value(m, index);
      if (name) snprintf(note, sizeof note, " ['%.600s']", name);
    }
    emit(out, cap, &used, msg + at, end - at);
    emit(out, cap, &used, note, strlen(note));
    at = end;
  }
  return out;
}
