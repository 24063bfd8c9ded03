// Run by tests/js/relaxed.test.mjs in a host of its choosing (Node with or
// without --experimental-wasm-relaxed-simd, Deno): loads each case twice,
// with load()'s default module and with dist/wnn.wasm named explicitly, runs
// it on its inputs and prints one JSON line: what the host supports, the isa
// each load got, and each output of both runs as plain arrays.
//
//   node tests/js/relaxed-child.mjs CASES.json
//   CASES.json: [{name, model, inputs: [.npy], outputs: [.npy]}]
import fs from 'node:fs';
import * as wnn from '../../js/wnn.js';
import { parseNpy } from '../../js/io.js';

const args = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(args[0], 'utf8'));
const plainWasm = new URL('../../dist/wnn.wasm', import.meta.url);

async function runWith(c, options) {
  const model = await wnn.load(new Uint8Array(fs.readFileSync(c.model)), options);
  const feeds = {};
  model.inputs.forEach((info, i) => {
    feeds[info.name] = parseNpy(new Uint8Array(fs.readFileSync(c.inputs[i]))).data;
  });
  const out = await model.predict(feeds);
  const result = { isa: model.isa, outputs: model.outputs.map((o) => Array.from(out[o.name].data)) };
  model.dispose();
  return result;
}

const report = { relaxed: wnn.relaxedSimdSupported(), simd: wnn.simdSupported(), cases: [] };
for (const c of cases) {
  report.cases.push({ name: c.name, default: await runWith(c, { threads: 1 }), plain: await runWith(c, { wasm: plainWasm }) });
}
console.log(JSON.stringify(report));
