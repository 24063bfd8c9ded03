// Two runtime/model pairs in one process, their runs alternating (A B, then
// B A, ...): the ratio of their medians is what a change in the machine's
// speed touches least (on a shared VM the speed drifts by tens of percent
// between the separate processes bench/runner.mjs uses). bench/run.mjs pairs
// each quantized model with onnxruntime-web on the same file and with wnn on
// its float model. Prints one JSON object on stdout.
//
//   node bench/pair.mjs RUNS WARMUPS RUNTIME_A MODEL_A DATA_A RUNTIME_B MODEL_B DATA_B
//
// RUNTIME and MODEL as for bench/runner.mjs (wnn takes a .wnn artifact, the
// ORT runtimes the .onnx file); DATA a test data set directory whose inputs
// feed that model. Each side is warmed up as runner.mjs does (WARMUPS runs,
// and more until half a second has passed), then RUNS timed runs of each.
import { makeAdapter, readTensors } from './runner.mjs';
import fs from 'node:fs';

const [runsArg, warmArg, ...rest] = process.argv.slice(2);
const RUNS = Number(runsArg), WARMUPS = Number(warmArg), WARMUP_MS = 500;
if (rest.length !== 6 || !(RUNS >= 1) || !(WARMUPS >= 0)) {
  console.error('usage: node bench/pair.mjs RUNS WARMUPS RUNTIME_A MODEL_A DATA_A RUNTIME_B MODEL_B DATA_B');
  process.exit(2);
}
const median = (x) => {
  const s = [...x].sort((p, q) => p - q), mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

async function side(runtime, file, dir) {
  const a = await makeAdapter(runtime, readTensors(dir, 'input'));
  const s = await a.load(new Uint8Array(fs.readFileSync(file)));
  const start = performance.now();
  for (let i = 0; i < WARMUPS || (performance.now() - start < WARMUP_MS && i < 10000); i++) await a.infer(s);
  return { runtime, model: file.split('/').pop(), a, s, times: [] };
}

try {
  const sides = [await side(rest[0], rest[1], rest[2]), await side(rest[3], rest[4], rest[5])];
  for (let r = 0; r < RUNS; r++) {
    for (const x of r % 2 ? [sides[1], sides[0]] : sides) {
      const t = performance.now();
      await x.a.infer(x.s);
      x.times.push(performance.now() - t);
    }
  }
  const out = sides.map((x) => ({ runtime: x.runtime, model: x.model, medianMs: median(x.times), minMs: Math.min(...x.times) }));
  for (const x of sides) await x.a.dispose(x.s);
  process.stdout.write(JSON.stringify({ a: out[0], b: out[1], runs: RUNS, ratio: out[0].medianMs / out[1].medianMs }) + '\n');
} catch (e) {
  process.stdout.write(JSON.stringify({ error: String(e?.message ?? e).split('\n')[0].slice(0, 300) }) + '\n');
  process.exitCode = 1;
}
