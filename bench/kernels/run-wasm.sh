#!/bin/sh
# Builds bench_kernels.c as a WASI module with SIMD128 and runs it under Node:
# the scalar and the SIMD128 GEMM variants and the SIMD128 mul+add peak, as
# docs/kernels.md reports them. Usage: bench/kernels/run-wasm.sh [OUT.wasm [PART]]
# With WNN_BENCH_SIMD=0 it builds without -msimd128, as dist/wnn-scalar.wasm
# is built: the scalar variants only, and clang cannot auto-vectorize them.
set -eu
cd "$(dirname "$0")/../.."
out=${1:-${TMPDIR:-/tmp}/bench_kernels.wasm}
[ $# -gt 0 ] && shift
simd=-msimd128
[ "${WNN_BENCH_SIMD:-1}" = 0 ] && simd=
clang --target=wasm32-wasi -nostdlibinc -isystem /usr/include/wasm32-wasi \
  -O3 $simd -ffp-contract=off -std=c11 -Iinclude -Isrc -isystem .deps/include \
  -Wl,-z,stack-size=1048576 \
  bench/kernels/bench_kernels.c src/ops/gemm_driver.c src/ops/qgemm_driver.c src/ops/select.c \
  $(ls src/kernels/[fqsx]*_*.c | grep -v __wasmsimd) \
  $([ -n "$simd" ] && ls src/kernels/[fqsx]*_*__wasmsimd.c) -lm -o "$out"
# --no-liftoff: V8 compiles with its optimizing tier from the start, so short
# cases are not timed in baseline code (the default tiers up during a run).
node --no-liftoff wasm/run-wasi.mjs "$out" "$@"
