// The Node example for Bun:
//
//   node_modules/.bin/bun examples/bun/classify.mjs
//
// Reads build/examples/model.wnn and build/examples/input_<i>.npy (written by
// `node examples/prepare.mjs`), writes build/examples/result-bun.json. `wnn`
// resolves to this package through its own package.json "exports".
import * as wnn from 'wnn';
import { parseNpy } from 'wnn/io';
import { formatReport, summarize } from '../shared/report.js';

const [modelFile = 'build/examples/model.wnn', ...inputFiles] = Bun.argv.slice(2);

// Bun.file(...) is a Blob; wnn.load takes its bytes.
const model = await wnn.load(await Bun.file(modelFile).arrayBuffer());
const inputs = {};
for (const [i, info] of model.inputs.entries()) {
  const bytes = await Bun.file(inputFiles[i] ?? `build/examples/input_${i}.npy`).arrayBuffer();
  inputs[info.name] = parseNpy(bytes).data;
}
const outputs = await model.predict(inputs);
model.dispose();

const report = summarize(model, outputs, 'bun');
console.log(formatReport(report));
await Bun.write('build/examples/result-bun.json', JSON.stringify(report, null, 2) + '\n');
console.log('wrote build/examples/result-bun.json');
