#!/bin/sh
# Builds bench_kernels.c as a WASI module with SIMD128 and runs it under Node:
# the scalar and the SIMD128 GEMM variants and the SIMD128 mul+add peak, as
# docs/kernels.md reports them. Usage: bench/kernels/run-wasm.sh [OUT.wasm [PART]]
# With WNN_BENCH_SIMD=0 it builds without -msimd128, as dist/wnn-scalar.wasm
# is built: the scalar variants only, and clang cannot auto-vectorize them.
# With WNN_BENCH_RELAXED=1 it builds with clang-19 and -mrelaxed-simd, as
# dist/wnn-relaxed.wasm's kernels are built, adds the relaxed multiply-add
# peak (the GEMM lines are then fractions of it) and runs Node with
# --experimental-wasm-relaxed-simd.
set -eu
cd "$(dirname "$0")/../.."
out=${1:-${TMPDIR:-/tmp}/bench_kernels.wasm}
[ $# -gt 0 ] && shift
simd=-msimd128
cc=${WNN_BENCH_CC:-clang}
node_flags=--no-liftoff
[ "${WNN_BENCH_SIMD:-1}" = 0 ] && simd=
if [ "${WNN_BENCH_RELAXED:-0}" = 1 ]; then
  simd="-msimd128 -mrelaxed-simd"
  cc=clang-19
  node_flags="$node_flags --experimental-wasm-relaxed-simd"
fi
srcs="bench/kernels/bench_kernels.c src/ops/gemm_driver.c src/ops/qgemm_driver.c src/ops/select.c
  $(ls src/kernels/[fqsx]*_*.c | grep -v __wasmsimd)
  $([ -n "$simd" ] && ls src/kernels/[fqsx]*_*__wasmsimd.c)"
flags="--target=wasm32-wasi -nostdlibinc -isystem /usr/include/wasm32-wasi
  -O3 $simd -ffp-contract=off -std=c11 -Iinclude -Isrc -isystem .deps/include"
if [ "$cc" = clang ]; then
  $cc $flags -Wl,-z,stack-size=1048576 $srcs -lm -o "$out"
else
  # clang-19 runs binaryen's wasm-opt after an optimized link, and Debian's
  # (108) cannot read the final relaxed SIMD opcodes: compile, then link
  # without -O.
  objs=$(mktemp -d)
  trap 'rm -rf "$objs"' EXIT
  for f in $srcs; do $cc $flags -c "$f" -o "$objs/$(basename "$f" .c).o"; done
  $cc --target=wasm32-wasi -Wl,-z,stack-size=1048576 "$objs"/*.o -lm -o "$out"
fi
# --no-liftoff: V8 compiles with its optimizing tier from the start, so short
# cases are not timed in baseline code (the default tiers up during a run).
node $node_flags wasm/run-wasi.mjs "$out" "$@"
