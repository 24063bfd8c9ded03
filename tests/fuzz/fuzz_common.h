/*
 * Shared by the libFuzzer harnesses in tests/fuzz (docs/fuzzing.md): an
 * allocator with a budget, and "load an artifact, then run it once".
 */
#ifndef WNN_FUZZ_COMMON_H
#define WNN_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "wnn.h"

/* The allocator every harness hands the runtime (wnn_load_options.allocator;
 * executors inherit it). It refuses (returns NULL) a single request above
 * WNN_FUZZ_ALLOC_MAX or one that would take the outstanding total above
 * WNN_FUZZ_ALLOC_TOTAL, the way a wasm host with a 4 GB address space or a
 * small device would: the runtime must then fail with WNN_ERR_OUT_OF_MEMORY.
 * A lying arena_bytes or a fill of 2^40 elements is a cheap way to ask for
 * memory (docs/format.md); everything the runtime allocates, its cJSON
 * included, goes through this hook, which leaves libFuzzer's -malloc_limit_mb
 * for the code that does not (the importer, the CLI's readers). */
#define WNN_FUZZ_ALLOC_MAX ((size_t)256 << 20)
#define WNN_FUZZ_ALLOC_TOTAL ((size_t)768 << 20)
extern const wnn_allocator wnn_fuzz_allocator;

/* Largest arena wnn_fuzz_load_and_run still creates an executor for and runs:
 * bigger models are only loaded, so that one execution stays fast. */
/* 8 MB: an AveragePool over a 35 MB input (33x3x32x32x87, a mutated node
 * test) ran 3-11 s under ASan at 64 MB, and libFuzzer took it for a hang. */
#define WNN_FUZZ_RUN_ARENA_MAX ((size_t)8 << 20)

/* Loads data[size] with the given WNN_LOAD_* flags through wnn_fuzz_allocator.
 * On success, when the arena is at most WNN_FUZZ_RUN_ARENA_MAX, creates an
 * executor, sets every input to zeros, runs once and copies every output out;
 * then frees everything. Returns the load status. Checks the API's promises
 * on the way (a loaded model reports consistent infos, a failed call leaves a
 * message) and aborts when one is broken. */
wnn_status wnn_fuzz_load_and_run(const void *data, size_t size, unsigned flags);

/* Whether WNN_FUZZ_AVOID (a comma-separated list in the environment) names
 * this known bug, which the harnesses then step around so that a campaign can
 * go on past it (docs/fuzzing.md, "Findings"):
 *   free-size       the allocator tolerates a free with the wrong size (and
 *                   counts the real one);
 *   metadata        the metadata is not checked to start with '{';
 *   empty-output    0-byte outputs are not copied out;
 *   nonfinite-attr  fuzz_importer skips models with a NaN or infinite float
 *                   in a node attribute. */
int wnn_fuzz_avoid(const char *name);

/* Aborts with a message on stderr: a broken invariant is a finding. */
void wnn_fuzz_die(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

#endif /* WNN_FUZZ_COMMON_H */
