#!/usr/bin/env node
// Runs a .wnn model on .npy inputs with the `wnn` package and prints, then
// writes, what came out. It imports only 'wnn', 'wnn/io' and
// ../shared/report.js: copy this file and examples/shared/report.js into your
// project as examples/node/ and examples/shared/ (npm install wnn; report.js is
// an ES module, so the project's package.json has "type": "module") and give
// it your files (tests/js/examples-pack.test.mjs does exactly that).
//
//   node examples/node/classify.mjs [MODEL.wnn [INPUT_0.npy ...]] [--out RESULT.json]
//
// Paths are relative to the working directory. Defaults: build/examples/model.wnn
// and build/examples/input_<i>.npy, written by `node examples/prepare.mjs`; the
// result goes to build/examples/result-node.json.
import * as wnn from 'wnn';
import fs from 'node:fs/promises';
import { parseNpy } from 'wnn/io';
import { summarize, formatReport } from '../shared/report.js';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const outFile = outAt >= 0 ? args.splice(outAt, 2)[1] : 'build/examples/result-node.json';
const [modelFile = 'build/examples/model.wnn', ...inputFiles] = args;

// A path (or URL, Response, bytes) in; the package finds its own wasm.
const model = await wnn.load(modelFile);
const inputs = {};
for (const [i, info] of model.inputs.entries()) {
  const npy = parseNpy(await fs.readFile(inputFiles[i] ?? `build/examples/input_${i}.npy`));
  inputs[info.name] = npy.data; // a Float32Array for a float32 input
}

// Stateless: one call, every output by its name in the source model.
const outputs = await model.predict(inputs);

// Or the stateful way, for repeated runs without allocation:
const ex = model.createExecutor();
for (const [name, data] of Object.entries(inputs)) ex.setInput(name, data);
ex.run();
const first = model.outputs[0].name;
if (ex.getOutput(first).data.some((v, k) => v !== outputs[first].data[k])) throw new Error('executor and predict disagree');
const timing = ex.timeEvaluator({ number: 10, repeat: 3 });
model.dispose(); // frees the executor too

const report = summarize(model, outputs, 'node');
console.log(formatReport(report));
console.log(`  run: ${timing.median.toFixed(3)} ms (median of ${timing.results.length})`);
await fs.writeFile(outFile, JSON.stringify(report, null, 2) + '\n');
console.log(`wrote ${outFile}`);
