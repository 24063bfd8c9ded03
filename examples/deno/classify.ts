// The Node example for Deno, in TypeScript (types from js/wnn.d.ts):
//
//   node_modules/.bin/deno run --config examples/deno/deno.json --allow-read --allow-write=build/examples examples/deno/classify.ts
//
// Reads build/examples/model.wnn and build/examples/input_<i>.npy (written by
// `node examples/prepare.mjs`), writes build/examples/result-deno.json.
import * as wnn from 'wnn';
import { parseNpy } from 'wnn/io';
import { formatReport, summarize } from '../shared/report.js';

const [modelFile = 'build/examples/model.wnn', ...inputFiles] = Deno.args;

const model: wnn.Model = await wnn.load(modelFile);
const inputs: Record<string, wnn.TensorData> = {};
for (const [i, info] of model.inputs.entries()) {
  const file = inputFiles[i] ?? `build/examples/input_${i}.npy`;
  const npy = parseNpy(await Deno.readFile(file));
  // wnn runs no float64; parseNpy(bytes, { double: 'float32' }) would convert.
  if (npy.dtype === 'float64') throw new Error(`${file} is float64; input "${info.name}" is ${info.dtype}`);
  inputs[info.name] = npy.data;
}
const outputs: Record<string, wnn.Tensor> = await model.predict(inputs);
model.dispose();

const report = summarize(model, outputs, 'deno');
console.log(formatReport(report));
await Deno.writeTextFile('build/examples/result-deno.json', JSON.stringify(report, null, 2) + '\n');
console.log('wrote build/examples/result-deno.json');
