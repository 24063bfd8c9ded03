// Threads in wasm (issue 13, docs/threads.md "The threaded web module"):
// dist/wnn-mt.wasm on a shared memory with worker threads js/wnn.js starts.
//   - Every model gives the bits of the single-threaded module at 1, 2, 3 and
//     4 threads (the splits are by output, so any count computes each output
//     element the same way).
//   - N worker_threads attach one model (share()/attach()): one copy of the
//     weights, outputs bitwise those of the main thread; the memory each
//     worker adds is measured and must stay below a copy of the weights.
//   - Options and refusals; the single-threaded fallback.
//   - Headless Chromium: a cross-origin isolated page runs threaded (its main
//     thread drives the run and spins while the workers compute: it never
//     blocks in Atomics.wait), and a plain page falls back to one thread.
// Models: the shared PP-OCRv3 detector and MNIST, converted by the native CLI.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as wnn from '../../js/wnn.js';
import { newChromiumPage } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rel = (...p) => path.join(root, ...p);
const out = rel('build/threads');
const MODELS = path.resolve(root, process.env.WNN_MODELS_DIR || '../shared/models');
const cli = rel('build/native/wnn');

let missing = null; // why the models are unavailable
const models = {}; // name -> .wnn path
before(() => {
  if (!fs.existsSync(rel('dist/wnn-mt.wasm'))) return void (missing = 'no dist/wnn-mt.wasm (npm run build)');
  if (!fs.existsSync(cli)) return void (missing = 'no build/native/wnn (npm run build)');
  fs.mkdirSync(out, { recursive: true });
  for (const [name, dir] of [['det', 'ppocr_en_PP-OCRv3_det_infer'], ['mnist', 'mnist']]) {
    const onnx = path.join(MODELS, dir, 'model.onnx');
    if (!fs.existsSync(onnx)) return void (missing = `${onnx} is absent`);
    const file = path.join(out, `${name}.wnn`);
    const r = spawnSync(cli, ['convert', onnx, '-o', file], { encoding: 'utf8' });
    if (r.status !== 0) return void (missing = `wnn convert ${onnx}: ${r.stderr}`);
    models[name] = file;
  }
});

// A deterministic input for the model's first input at `size` (named dims:
// batch 1, the others `size`).
function inputFor(model, size) {
  const info = model.inputs[0];
  const shape = info.shape.map((d, i) => (typeof d === 'string' ? (i === 0 ? 1 : size) : d));
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = Math.sin(i * 0.37) * 0.5 + 0.25;
  return { name: info.name, shape, data };
}

const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const sameBits = (a, b) => a.length === b.length && Buffer.compare(bits(a), bits(b)) === 0;

async function rejects(fn, code, pattern) {
  await assert.rejects(fn, (e) => {
    assert.equal(e.code, code, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

test('the threaded module: same bits as dist/wnn.wasm at 1, 2, 3 and 4 threads; executors choose their count', { timeout: 300_000 }, async (t) => {
  if (missing) return t.skip(missing);
  assert.ok(await wnn.threadsSupported(), 'Node 20 has shared memory and worker_threads');
  for (const [name, size] of [['det', 320], ['det', 96], ['mnist', 28]]) {
    const single = await wnn.load(models[name], { threads: 1 });
    assert.equal(single.threads, 1);
    const threaded = await wnn.load(models[name], { threads: 4 });
    assert.equal(threaded.threads, 4);
    assert.notEqual(threaded.memory, single.memory, 'another instance');
    assert.ok(threaded.memory.buffer instanceof SharedArrayBuffer, 'the threaded module runs on shared memory');
    const { name: input, shape, data } = inputFor(single, size);
    const want = Object.values(await single.predict({ [input]: { data, shape } }))[0].data;
    for (const threads of [1, 2, 3, 4]) {
      const ex = threaded.createExecutor({ threads });
      assert.equal(ex.threads, threads);
      if (threaded.inputs[0].dims) ex.resize({ [input]: shape });
      ex.setInput(input, data);
      for (let run = 0; run < 2; run++) {
        ex.run();
        assert.ok(sameBits(ex.getOutput(0).data, want), `${name} at ${size}: ${threads} threads, run ${run}: not the bits of one thread`);
      }
      ex.dispose();
    }
    // The model's own count drives predict().
    const got = Object.values(await threaded.predict({ [input]: { data, shape } }))[0].data;
    assert.ok(sameBits(got, want), `${name}: predict() with 4 threads`);
    single.dispose();
    threaded.dispose();
  }
});

test('threads: options are checked; share() and attach() refuse what they cannot do', async (t) => {
  if (missing) return t.skip(missing);
  for (const bad of [0, 65, 1.5, '2', -1, NaN]) {
    await rejects(() => wnn.load(models.mnist, { threads: bad }), 'WNN_ERR_INVALID_ARGUMENT', /options\.threads must be an integer from 1 to 64/);
  }
  const m = await wnn.load(models.mnist, { threads: 2 });
  assert.throws(() => m.createExecutor({ threads: 0 }), /createExecutor: options\.threads must be an integer from 1 to 64/);
  const single = await wnn.load(models.mnist, { threads: 1 });
  assert.throws(() => single.share(), (e) => e.code === 'WNN_ERR_UNSUPPORTED' && /single-threaded module/.test(e.message));
  // The single-threaded module: an executor asking for more gets one, and says so.
  const one = single.createExecutor({ threads: 2 });
  assert.equal(one.threads, 1);
  one.dispose();
  for (const bad of [null, {}, { wnnSharedModel: 1 }, 42]) {
    await rejects(() => wnn.attach(bad), 'WNN_ERR_INVALID_ARGUMENT', /expected the object of a model's share\(\)/);
  }
  // Executors asking for more threads than were started run on those there are, with the same bits.
  const { name, shape, data } = inputFor(m, 28);
  const want = Object.values(await single.predict({ [name]: { data, shape } }))[0].data;
  const many = m.createExecutor({ threads: 16 });
  assert.equal(many.threads, 16);
  many.setInput(name, data);
  many.run();
  assert.ok(sameBits(many.getOutput(0).data, want));
  m.dispose();
  assert.throws(() => m.share(), (e) => e.code === 'WNN_ERR_DISPOSED');
  single.dispose();
});

// A worker that attaches a shared model, runs it once on the input it is
// given and reports the output and the memory's size.
const WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
const wnn = await import(workerData.wnn);
const m = await wnn.attach(workerData.shared, { threads: workerData.threads });
const ex = m.createExecutor();
if (m.inputs[0].dims) ex.resize({ [workerData.input]: workerData.shape });
ex.setInput(workerData.input, workerData.data);
ex.run();
const out = ex.getOutput(0).data;
parentPort.postMessage({ out, used: m.heapUsed, weights: m.weightsBytes });
// Wait until told, so that every worker holds its executor while the memory is measured.
parentPort.once('message', () => { m.dispose(); parentPort.postMessage('done'); });
`;

test('worker_threads: N workers share one copy of the weights and compute the bits of the single-threaded module', { timeout: 300_000 }, async (t) => {
  if (missing) return t.skip(missing);
  const size = 64; // small activations: the weights dominate what a copy would cost
  const rows = [];
  for (const n of [1, 2, 4]) {
    const m = await wnn.load(models.det, { threads: 2 });
    const { name, shape, data } = inputFor(m, size);
    // The single-threaded module's answer.
    const single = await wnn.load(models.det, { threads: 1 });
    const want = Object.values(await single.predict({ [name]: { data, shape } }))[0].data;
    single.dispose();
    const before = m.heapUsed;
    const workers = Array.from({ length: n }, () => new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER)}`), {
      workerData: { wnn: pathToFileURL(rel('js/wnn.js')).href, shared: m.share(), threads: 2, input: name, shape, data },
    }));
    const results = await Promise.all(workers.map((w) => new Promise((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    })));
    const after = m.heapUsed;
    // The owner may go first: the model lives until the last handle goes.
    m.dispose();
    await Promise.all(workers.map((w) => new Promise((resolve) => {
      w.once('message', resolve);
      w.postMessage('dispose');
    })));
    for (const [i, r] of results.entries()) {
      assert.ok(sameBits(r.out, want), `worker ${i} of ${n}: not the bits of the single-threaded module`);
      assert.equal(r.weights, m.weightsBytes);
    }
    const perWorker = (after - before) / n;
    rows.push(`${n} worker(s): heap in use ${(before / 1048576).toFixed(2)} -> ${(after / 1048576).toFixed(2)} MiB, ${(perWorker / 1048576).toFixed(2)} MiB per worker (its executor, stack and thread-local storage); weights ${(m.weightsBytes / 1048576).toFixed(2)} MiB`);
    // What each worker adds is its own: executor, stack, TLS. A copy of the weights would add at least their size.
    assert.ok(perWorker > 0, 'each worker allocated its executor');
    assert.ok(after - before < n * m.weightsBytes, `${n} workers added ${after - before} bytes: as much as ${n} copies of the ${m.weightsBytes} bytes of weights`);
    await Promise.all(workers.map((w) => w.terminate()));
  }
  t.diagnostic(rows.join('; '));
});

test('without shared memory (a child Node without SharedArrayBuffer) threads fall back to one, with no error', (t) => {
  if (missing) return t.skip(missing);
  const code = `
    const wnn = await import(${JSON.stringify(pathToFileURL(rel('js/wnn.js')).href)});
    const m = await wnn.load(${JSON.stringify(models.mnist)}, { threads: 4 });
    const x = new Float32Array(784).fill(0.5);
    const r = await m.predict({ [m.inputs[0].name]: x });
    console.log(JSON.stringify({ supported: await wnn.threadsSupported(), threads: m.threads, shared: typeof SharedArrayBuffer, n: Object.values(r)[0].data.length }));`;
  const r = spawnSync(process.execPath, ['--no-harmony-sharedarraybuffer', '--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { supported: false, threads: 1, shared: 'undefined', n: 10 });
});

// ------------------------------------------------------------------ Chromium

async function openPage(t, isolate) {
  const opened = await newChromiumPage(t);
  if (opened.skip) return opened;
  const { page, problems, requested } = opened;
  const { startServer } = await import('../../examples/browser/serve.mjs');
  const server = await startServer(0, '127.0.0.1', { data: out, isolate });
  t.after(() => server.close());
  // An empty page (the data folder is served as /build/examples/): the test runs its own code in it.
  fs.writeFileSync(path.join(out, 'blank.html'), '<!doctype html><link rel="icon" href="data:,"><title>wnn threads</title>\n');
  await page.goto(`http://127.0.0.1:${server.address().port}/build/examples/blank.html`);
  return { page, problems, requested };
}

// In the page: the detector at 1 thread and at the default count, on the
// page's main thread, and whether the bits agree.
const IN_PAGE = async () => {
  const wnn = await import('/js/wnn.js');
  const url = '/build/examples/det.wnn';
  const one = await wnn.load(url, { threads: 1 });
  const dflt = await wnn.load(url);
  const info = one.inputs[0];
  const shape = [1, 3, 160, 160];
  const data = new Float32Array(3 * 160 * 160).map((_, i) => Math.sin(i * 0.37) * 0.5 + 0.25);
  const a = Object.values(await one.predict({ [info.name]: { data, shape } }))[0].data;
  const ex = dflt.createExecutor({ threads: Math.max(2, dflt.threads) });
  ex.resize({ [info.name]: shape });
  ex.setInput(info.name, data);
  ex.run();
  const b = ex.getOutput(0).data;
  let same = a.length === b.length;
  for (let i = 0; same && i < a.length; i++) same = Object.is(a[i], b[i]);
  // The recommended way: the runs in a Web Worker (which may block), itself threaded.
  const fromWorker = await new Promise((resolve, reject) => {
    const w = new Worker('/build/examples/run-worker.mjs', { type: 'module' });
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(new Error(e.message));
    w.postMessage({ url, shape, data });
  });
  let sameInWorker = fromWorker.out.length === a.length;
  for (let i = 0; sameInWorker && i < a.length; i++) sameInWorker = Object.is(a[i], fromWorker.out[i]);
  return {
    isolated: globalThis.crossOriginIsolated, supported: await wnn.threadsSupported(),
    threads: dflt.threads, executorThreads: ex.threads, same, n: a.length,
    workerThreads: fromWorker.threads, sameInWorker,
  };
};

const RUN_WORKER = `
import * as wnn from '/js/wnn.js';
onmessage = async (e) => {
  const { url, shape, data } = e.data;
  const m = await wnn.load(url, { threads: 2 });
  const r = await m.predict({ [m.inputs[0].name]: { data, shape } });
  postMessage({ threads: m.threads, out: Object.values(r)[0].data });
};
`;

test('Chromium, cross-origin isolated: the page runs the threaded module (dist/wnn-mt-relaxed.wasm there) on several threads, the bits of one', { timeout: 180_000 }, async (t) => {
  if (missing) return t.skip(missing);
  fs.copyFileSync(models.det, path.join(out, 'det.wnn'));
  fs.writeFileSync(path.join(out, 'run-worker.mjs'), RUN_WORKER);
  const opened = await openPage(t, true);
  if (opened.skip) return t.skip(opened.skip);
  const { page, problems, requested } = opened;
  const r = await page.evaluate(IN_PAGE);
  assert.deepEqual(problems, []);
  assert.equal(r.isolated, true);
  assert.equal(r.supported, true);
  assert.ok(r.threads >= 2 || (await page.evaluate(() => navigator.hardwareConcurrency)) < 2, `model.threads ${r.threads}`);
  assert.ok(r.executorThreads >= 2);
  assert.equal(r.same, true, 'threaded output differs from one thread');
  assert.equal(r.workerThreads, 2, 'a Web Worker runs threaded too');
  assert.equal(r.sameInWorker, true, 'threaded output in a Web Worker differs from one thread');
  // Chromium has relaxed SIMD: the threaded module with it.
  assert.ok(requested.includes('/dist/wnn-mt-relaxed.wasm'), requested.join(' '));
  assert.ok(requested.includes('/js/thread.js'), 'workers were started');
});

test('Chromium, a plain page (no COOP/COEP): threads fall back to one with no error', { timeout: 180_000 }, async (t) => {
  if (missing) return t.skip(missing);
  fs.copyFileSync(models.det, path.join(out, 'det.wnn'));
  const opened = await openPage(t, false);
  if (opened.skip) return t.skip(opened.skip);
  const { page, problems, requested } = opened;
  const r = await page.evaluate(async () => {
    const wnn = await import('/js/wnn.js');
    const m = await wnn.load('/build/examples/det.wnn', { threads: 4 });
    const ex = m.createExecutor({ threads: 2 });
    return { isolated: globalThis.crossOriginIsolated, supported: await wnn.threadsSupported(), threads: m.threads, executorThreads: ex.threads };
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(r, { isolated: false, supported: false, threads: 1, executorThreads: 1 });
  assert.ok(!requested.some((p) => p.startsWith('/dist/wnn-mt')), 'a threaded module was fetched');
});

// ------------------------------------------------------------- Deno and Bun

// The detector at 1 and 2 threads in another host: its threads, and whether
// the bits agree with each other and with this process's single thread.
function hostScript(wnnUrl, model) {
  return `
import * as wnn from ${JSON.stringify(wnnUrl)};
const shape = [1, 3, 128, 128];
const data = new Float32Array(3 * 128 * 128).map((_, i) => Math.sin(i * 0.37) * 0.5 + 0.25);
const one = await wnn.load(${JSON.stringify(model)}, { threads: 1 });
const two = await wnn.load(${JSON.stringify(model)}, { threads: 2 });
const name = one.inputs[0].name;
const a = Object.values(await one.predict({ [name]: { data, shape } }))[0].data;
const b = Object.values(await two.predict({ [name]: { data, shape } }))[0].data;
let same = a.length === b.length;
for (let i = 0; same && i < a.length; i++) same = Object.is(a[i], b[i]);
// dist/wnn.wasm named (the host's default may be dist/wnn-relaxed.wasm, whose
// last bits differ): the same wasm as the test's own process runs.
const plain = await wnn.load(${JSON.stringify(model)}, { wasm: new URL('../dist/wnn.wasm', ${JSON.stringify(wnnUrl)}) });
let sum = 0;
for (const v of Object.values(await plain.predict({ [name]: { data, shape } }))[0].data) sum += v;
console.log(JSON.stringify({ supported: await wnn.threadsSupported(), threads: two.threads, same, sum, isa: two.isa }));
`;
}

for (const host of ['deno', 'bun']) {
  test(`${host}: threads through worker_threads, the bits of one thread, and the process exits`, { timeout: 120_000 }, async (t) => {
    if (missing) return t.skip(missing);
    const bin = rel('node_modules/.bin', host);
    if (!fs.existsSync(bin)) return t.skip(`no ${host} (npm install)`);
    const script = path.join(out, `threads-${host}.mjs`);
    fs.writeFileSync(script, hostScript(pathToFileURL(rel('js/wnn.js')).href, models.det));
    const args = host === 'deno' ? ['run', '--allow-read', script] : [script];
    const r = spawnSync(bin, args, { encoding: 'utf8', timeout: 100_000, env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.error, undefined, `${host} did not exit (parked workers must not keep it alive): ${r.error}`);
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout.trim().split('\n').at(-1));
    // This process's single-threaded answer, in dist/wnn.wasm.
    t.diagnostic(`${host}: 2 threads in ${got.isa === 'relaxed-simd' ? 'dist/wnn-mt-relaxed.wasm' : 'dist/wnn-mt.wasm'}`);
    delete got.isa;
    const one = await wnn.load(models.det, { wasm: rel('dist/wnn.wasm') });
    const shape = [1, 3, 128, 128];
    const data = new Float32Array(3 * 128 * 128).map((_, i) => Math.sin(i * 0.37) * 0.5 + 0.25);
    const a = Object.values(await one.predict({ [one.inputs[0].name]: { data, shape } }))[0].data;
    let sum = 0;
    for (const v of a) sum += v;
    one.dispose();
    assert.deepEqual(got, { supported: true, threads: 2, same: true, sum });
  });
}
