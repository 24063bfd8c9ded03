/*
 * fuzz_loader_resealed: the input is a .wnn artifact whose checksums the
 * harness recomputes (fuzz_reseal.c) before loading, so that mutations of the
 * graph JSON, the metadata, the weights and the header fields reach the JSON
 * parser, the graph reader, every op's prepare (shape inference, attribute
 * checks), the fill materializer and the memory-plan checker, and, when the
 * model loads, the executor (fuzz_common.c).
 *
 * The resealed copy is borrowed (WNN_LOAD_BORROW) from an odd address, so the
 * loader also takes its "borrowed weights are misaligned: copy them once"
 * path, which fuzz_loader (a copying load) never does.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_reseal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* Exactly size bytes from an odd address: ASan sees any read past the end. */
  uint8_t *block = malloc(size + 1);
  if (!block) return 0;
  uint8_t *buf = block + 1;
  if (size) memcpy(buf, data, size);
  wnn_fuzz_reseal(buf, size);
  wnn_fuzz_load_and_run(buf, size, WNN_LOAD_BORROW);
  free(block);
  return 0;
}
