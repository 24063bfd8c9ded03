/*
 * The core registry of dist/wnn.wasm: src/ops/registry.c without the WNN_OPX
 * ops of ops.inc (docs/build.md, "Core and full web modules"). Linked into
 * that module only, ahead of the runtime library, whose registry.o it
 * replaces.
 */
#define WNN_CORE_OPS
#include "registry.c"
