#!/usr/bin/env bash
# The wnn CLI compiled to WASI (dist/wnn-wasi.wasm) on the example model and
# inputs, under Node's WASI (wasm/run-wasi.mjs):
#
#   bash examples/wasi/run.sh [MODEL.wnn]
#
# Inputs are build/examples/input_<i>.npy (node examples/prepare.mjs); outputs
# go to build/examples/wasi/output_<i>.npy, one JSON line per output on stdout.
# The same with Wasmtime instead of Node:
#
#   wasmtime run --dir . dist/wnn-wasi.wasm run build/examples/model.wnn \
#     --input 0=build/examples/input_0.npy --output-dir build/examples/wasi
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

model=${1:-build/examples/model.wnn}
inputs=()
for f in build/examples/input_*.npy; do
  [ -e "$f" ] || { echo "no build/examples/input_*.npy: run node examples/prepare.mjs" >&2; exit 1; }
  i=${f##*input_}
  inputs+=(--input "${i%.npy}=$f")
done
mkdir -p build/examples/wasi
node wasm/run-wasi.mjs dist/wnn-wasi.wasm info "$model"
node wasm/run-wasi.mjs dist/wnn-wasi.wasm run "$model" "${inputs[@]}" --output-dir build/examples/wasi
