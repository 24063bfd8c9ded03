// The Node example for Deno, in TypeScript (types from js/wnn.d.ts):
//
//   node_modules/.bin/deno run --config examples/deno/deno.json --allow-read --allow-write=build/examples examples/deno/classify.ts
//
// Reads build/examples/model.wnn and build/examples/input_<i>.npy (written by
// `node examples/prepare.mjs`), writes build/examples/result-deno.json.
import * as wnn from 'wnn';
import { parseNpy } from '../shared/npy.js';
import { formatReport, summarize } from '../shared/report.js';

const [modelFile = 'build/examples/model.wnn', ...inputFiles] = Deno.args;

const model: wnn.Model = await wnn.load(modelFile);
const inputs: Record<string, wnn.TensorData> = {};
for (const [i, info] of model.inputs.entries()) {
  inputs[info.name] = parseNpy(await Deno.readFile(inputFiles[i] ?? `build/examples/input_${i}.npy`)).data;
}
const outputs: Record<string, wnn.Tensor> = await model.predict(inputs);
model.dispose();

const report = summarize(model, outputs, 'deno');
console.log(formatReport(report));
await Deno.writeTextFile('build/examples/result-deno.json', JSON.stringify(report, null, 2) + '\n');
console.log('wrote build/examples/result-deno.json');
