// The memory of N worker_threads running one model (bench/threads-web.mjs
// runs this once per N, each in a fresh process): N workers attach the model
// of this thread (share()/attach() on dist/wnn-mt.wasm, an executor each, one
// run), then N workers each load a copy of their own (dist/wnn.wasm, one wasm
// memory each). Prints {sharedBytes, ownBytes, weightsBytes, arenaBytes}: the
// shared wasm memory, and the copies' memories summed.
//
//   node bench/threads-memory.mjs MODEL.wnn N
import { Worker } from 'node:worker_threads';
import * as wnn from '../js/wnn.js';

const [file, nText] = process.argv.slice(2);
const n = Number(nText);
const WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
const wnn = await import(workerData.wnn);
const m = workerData.shared ? await wnn.attach(workerData.shared, { threads: 1 }) : await wnn.load(workerData.file, { threads: 1 });
const ex = m.createExecutor();
ex.run();
parentPort.postMessage(m.memory.buffer.byteLength);
parentPort.once('message', () => process.exit(0));
`;
const start = (data) => {
  const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER)}`), { workerData: { wnn: new URL('../js/wnn.js', import.meta.url).href, ...data } });
  return new Promise((resolve, reject) => { w.once('message', (b) => resolve([w, b])); w.once('error', reject); });
};
const m = await wnn.load(file, { threads: 2 });
const shared = await Promise.all(Array.from({ length: n }, () => start({ shared: m.share() })));
const sharedBytes = m.memory.buffer.byteLength;
for (const [w] of shared) w.postMessage(0);
const own = await Promise.all(Array.from({ length: n }, () => start({ file })));
const ownBytes = own.reduce((a, [, b]) => a + b, 0);
for (const [w] of own) w.postMessage(0);
console.log(JSON.stringify({ sharedBytes, ownBytes, weightsBytes: m.weightsBytes, arenaBytes: m.arenaBytes }));
process.exit(0);
