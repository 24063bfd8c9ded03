/*
 * fuzz_map: the input is a map file (docs/format.md, "Release artifacts and
 * the map file") for the CLI's reader (src/cli/map.c), checked against a
 * fixed 3-byte artifact: "@SHA@" in the input stands for that artifact's
 * SHA-256 (so mutations get past the digest check and reach the node and
 * value tables). A map that loads answers every lookup and translates a few
 * messages and the input itself; a map that does not says why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/map.h"
#include "fuzz_common.h"
#include "runtime/sha256.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char artifact[3] = {'w', 'n', 'n'};
  char hex[65];
  wnn_sha256_hex(artifact, sizeof artifact, hex);
  /* The input with each "@SHA@" replaced, and a terminated copy for the
   * translation. */
  char *text = malloc(size * 13 + 1);
  size_t n = 0;
  for (size_t i = 0; i < size;) {
    if (size - i >= 5 && !memcmp(data + i, "@SHA@", 5)) {
      memcpy(text + n, hex, 64);
      n += 64, i += 5;
    } else {
      text[n++] = (char)data[i++];
    }
  }
  text[n] = '\0';
  wnn_cli_map *map = NULL;
  char err[512] = "";
  wnn_status st = wnn_cli_map_parse(text, n, "fuzz", artifact, sizeof artifact, &map, err, sizeof err);
  if (st != WNN_OK) {
    if (!err[0] || map) wnn_fuzz_die("a refused map (%s) without a message, or with a map", wnn_status_str(st));
    free(text);
    return 0;
  }
  char buf[300], out[700];
  for (int i = -2; i < 70; i++) {
    wnn_cli_map_node(map, i, buf, sizeof buf);
    if (strlen(buf) >= sizeof buf) wnn_fuzz_die("node text overran");
    (void)wnn_cli_map_node_op(map, i);
    (void)wnn_cli_map_value(map, i);
    (void)wnn_cli_map_param(map, i);
  }
  static const char *const msgs[] = {"node 0 (Conv): x", "values[1] and value 2", "node 3", "value ",
                                     "node 99999999999 (A", "values[", ""};
  for (size_t k = 0; k < sizeof msgs / sizeof msgs[0]; k++) {
    wnn_cli_map_translate(map, msgs[k], out, sizeof out);
    if (strlen(out) >= sizeof out) wnn_fuzz_die("translation overran");
  }
  /* The input as a message, translated into a small buffer and a large one. */
  char small[16];
  wnn_cli_map_translate(map, text, small, sizeof small);
  char *large = malloc(n + 4096);
  wnn_cli_map_translate(map, text, large, n + 4096);
  if (strlen(small) >= sizeof small) wnn_fuzz_die("translation overran");
  free(large);
  (void)wnn_cli_map_num_nodes(map);
  wnn_cli_map_free(map);
  free(text);
  return 0;
}
