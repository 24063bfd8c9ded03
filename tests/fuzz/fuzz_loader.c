/*
 * fuzz_loader: the input is a whole .wnn artifact, handed to wnn_model_load
 * as is (a copying load, checksums verified), then run once when it loads
 * (fuzz_common.c). Most mutations stop at a CRC check: this harness covers the
 * container reader's bounds, version, feature and table checks, and the
 * checksums themselves. fuzz_loader_resealed reaches past them.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wnn_fuzz_load_and_run(data, size, 0);
  return 0;
}
