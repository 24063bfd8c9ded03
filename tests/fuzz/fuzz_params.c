/*
 * fuzz_params: the input is a params blob (.wnnp, docs/format.md "The params
 * blob"), loaded twice through the budgeted allocator: once as is (CRCs and
 * SHA-256 verified, a copying load), once borrowed from an odd address with
 * WNN_LOAD_NO_CHECKSUM, so that mutated tables, dims, names, offsets and
 * codec fields reach the reader's checks and the decoders: fp16, int8,
 * liblz4, libzstd and a registered user codec (id 200, XOR 0x5a, which
 * refuses a stream of another length than the tensor). Every loaded tensor's
 * info is read and its bytes touched (ASan sees a read outside them).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t xor_decode(void *ctx, const void *src, size_t n, void *dst, size_t size) {
  (void)ctx;
  if (n != size) return 0;
  for (size_t i = 0; i < n; i++) ((uint8_t *)dst)[i] = ((const uint8_t *)src)[i] ^ 0x5a;
  return n;
}

static void check(const uint8_t *buf, size_t size, unsigned flags) {
  const wnn_load_options opt = {flags, WNN_KERNELS_AUTO, &wnn_fuzz_allocator};
  wnn_params *p = (wnn_params *)(uintptr_t)1;
  wnn_status st = wnn_params_load(buf, size, &opt, &p);
  if (st != WNN_OK) {
    if (p != (wnn_params *)(uintptr_t)1) wnn_fuzz_die("a failed load wrote its out-parameter");
    if (!*wnn_last_error()) wnn_fuzz_die("status %d without a message", st);
    return;
  }
  volatile uint8_t sink = 0;
  for (int i = 0; i < wnn_params_count(p); i++) {
    wnn_tensor_info info;
    if (wnn_params_info(p, i, &info) != WNN_OK) wnn_fuzz_die("params_info %d failed", i);
    if (!info.name || !*info.name) wnn_fuzz_die("tensor %d has no name", i);
  }
  wnn_params_free(p);
  (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int registered;
  if (!registered) registered = !wnn_codec_register(200, "xor", xor_decode, NULL);
  check(data, size, 0);
  uint8_t *block = malloc(size + 1);
  if (!block) return 0;
  if (size) memcpy(block + 1, data, size);
  check(block + 1, size, WNN_LOAD_BORROW | WNN_LOAD_NO_CHECKSUM);
  free(block);
  return 0;
}
