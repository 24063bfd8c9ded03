// One runtime on one model, in a process of its own (bench/run.mjs starts one
// per runtime per model). Prints one JSON object on stdout.
//
//   node bench/runner.mjs RUNTIME MODEL_FILE TEST_DATA_DIR RUNS WARMUPS
//
// RUNTIME: wnn (MODEL_FILE is a .wnn artifact, run by dist/wnn.wasm through
// js/wnn.js), ort-web (onnxruntime-web's wasm backend, 1 thread, SIMD build)
// or ort-node (onnxruntime-node, intraOpNumThreads = 1); both ORT runtimes
// take the .onnx file. TEST_DATA_DIR holds input_<i>.pb and output_<i>.pb.
// A suffix @N runs wnn or ort-web on N threads (wnn@2: dist/wnn-mt.wasm,
// load's threads: 2; ort-web@2: env.wasm.numThreads = 2, its threaded build);
// without it, one thread (bench/threads-web.mjs compares the two).
//
// What is measured:
// - loadMs: from the artifact's bytes in memory to ready to run, the first
//   time in the process (so it includes compiling and instantiating the
//   runtime's wasm): wnn.load + createExecutor; InferenceSession.create for ORT.
//   warmLoadMs: the same a second time in the same process (runtime ready).
// - latency: every run is timed on its own (performance.now) and is one whole
//   inference as a caller sees it: wnn: setInput of every input + run() +
//   getOutput (a copy) of every output; ORT: session.run(feeds), which copies
//   the inputs in and the outputs out. WARMUPS runs first, continued until
//   half a second has passed (not timed), then RUNS.
// - wasmMemoryBytes: the byte length of the wasm linear memory after the
//   first run. Every WebAssembly.Memory the process instantiates is seen by
//   wrapping WebAssembly.instantiate / WebAssembly.Instance before the runtime
//   is imported (ORT-web keeps its Emscripten module private; this finds its
//   memory whether it is exported or imported).
// - rssDeltaBytes: process RSS after the first run minus RSS before loading
//   (the only memory figure onnxruntime-node has).
// - maxAbsDiff: the largest |output - expected| over every output, against
//   the test data set's output_<i>.pb (a check that the runtime computed the model).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseTensorProto } from '../js/io.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Run as a script (bench/pair.mjs imports makeAdapter and readTensors instead).
const isMain = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
const [runtime, modelFile, dataDir, runsArg, warmArg] = isMain ? process.argv.slice(2) : [];
const RUNS = Number(runsArg ?? 20);
const WARMUPS = Number(warmArg ?? 3);
const WARMUP_MS = 500;

// ---------------------------------------------------------- wasm memories
const memories = new Set();
function noteInstance(instance, imports) {
  for (const v of Object.values(instance?.exports ?? {})) if (v instanceof WebAssembly.Memory) memories.add(v);
  for (const ns of Object.values(imports ?? {})) {
    for (const v of Object.values(ns ?? {})) if (v instanceof WebAssembly.Memory) memories.add(v);
  }
}
const origInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (source, imports, ...rest) {
  const r = await origInstantiate.call(this, source, imports, ...rest);
  noteInstance(r instanceof WebAssembly.Instance ? r : r.instance, imports);
  return r;
};
if (WebAssembly.instantiateStreaming) {
  const origStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async function (source, imports, ...rest) {
    const r = await origStreaming.call(this, source, imports, ...rest);
    noteInstance(r.instance, imports);
    return r;
  };
}
const OrigInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(OrigInstance, {
  construct(target, args, newTarget) {
    const inst = Reflect.construct(target, args, newTarget);
    noteInstance(inst, args[1]);
    return inst;
  },
});
// Node itself may instantiate small wasm modules (its own parsers): the
// runtime's memory is the largest one (wnn reports its own as model.memory).
const memorySizes = () => [...memories].map((m) => m.buffer.byteLength).sort((a, b) => b - a);

// ------------------------------------------------------------- test data
export function readTensors(dir, prefix) {
  const out = [];
  for (let i = 0; fs.existsSync(path.join(dir, `${prefix}_${i}.pb`)); i++) {
    out.push(parseTensorProto(fs.readFileSync(path.join(dir, `${prefix}_${i}.pb`))));
  }
  return out;
}
const inputs = isMain ? readTensors(dataDir, 'input') : [];
const expected = isMain ? readTensors(dataDir, 'output') : [];

// input_<i>.pb goes to the runtime's input of the same name when the files
// name every input the runtime has, else to input i (the test-data layout's
// rule: graph.input order). -1: the runtime has no such input (wnn, for an
// input frozen into the artifact with `wnn convert --const`).
function byName(names, inputs) {
  const fileNames = inputs.map((t) => t.name);
  const named = names.every((n) => fileNames.includes(n));
  return inputs.map((t, i) => (named ? names.indexOf(t.name) : i));
}

function maxAbsDiff(outs) {
  let worst = 0;
  for (let i = 0; i < Math.min(outs.length, expected.length); i++) {
    const a = outs[i], b = expected[i].data;
    if (!a || a.length !== b.length) return Infinity;
    for (let k = 0; k < a.length; k++) {
      const d = Math.abs(Number(a[k]) - Number(b[k]));
      if (!(d <= worst)) worst = Number.isNaN(d) ? Infinity : d;
    }
  }
  return worst;
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return {
    medianMs: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2,
    minMs: s[0],
    maxMs: s[s.length - 1],
    runs: s.length,
  };
};

// --------------------------------------------------- one runtime adapter
// Each adapter: load(bytes) -> session; infer(session) -> array of outputs' data.
// WNN_BENCH_WASM=FILE runs another build of wnn.wasm (a kernel experiment)
// instead of dist/wnn.wasm; npm run bench never sets it.
const WASM = process.env.WNN_BENCH_WASM ? fs.readFileSync(process.env.WNN_BENCH_WASM) : null;

export async function makeAdapter(runtimeName, inputs) {
  const [runtime, threadsText] = runtimeName.split('@');
  const threads = threadsText === undefined ? 1 : Number(threadsText);
  if (!(Number.isInteger(threads) && threads >= 1) || (threadsText !== undefined && runtime === 'ort-node')) {
    throw new Error(`runtime '${runtimeName}': a thread count @N is for wnn and ort-web`);
  }
  // wnn-relaxed: js/wnn.js's default where the engine has relaxed SIMD,
  // dist/wnn-relaxed.wasm (bench/run.mjs starts Node 20 with
  // --experimental-wasm-relaxed-simd for it); wnn: dist/wnn.wasm.
  if (runtime === 'wnn' || runtime === 'wnn-relaxed') {
    const wnn = await import(pathToFileURL(path.join(ROOT, 'js/wnn.js')).href);
    if (!wnn.simdSupported()) throw new Error('this engine has no WebAssembly SIMD128: js/wnn.js would pick dist/wnn-scalar.wasm');
    const relaxed = runtime === 'wnn-relaxed';
    if (relaxed && !wnn.relaxedSimdSupported()) throw new Error('this engine has no relaxed SIMD (Node 20: --experimental-wasm-relaxed-simd)');
    const isa = relaxed ? 'relaxed-simd' : 'simd128';
    return {
      // Asked after the measurements: the first load compiles dist/wnn.wasm.
      version: () => wnn.version().catch(() => 'unknown'),
      // The default wasm (dist/wnn.wasm, read and compiled by the first load
      // and cached), as ORT-web reads and compiles its .wasm in its first create.
      async load(bytes) {
        // The default module: dist/wnn.wasm in a Node without relaxed SIMD
        // (dist/wnn-full.wasm for a model using an op it leaves out),
        // dist/wnn-relaxed.wasm with it (which has no full-op twin: such a
        // model is an error in that column).
        const model = await wnn.load(bytes, WASM ? { wasm: WASM } : { threads });
        if (model.threads !== threads) throw new Error(`wnn ran ${model.threads} threads, not ${threads}`);
        if (!WASM && model.isa !== isa) throw new Error(`${runtime} ran ${model.isa} (an op only dist/wnn-full.wasm has?), not ${isa}`);
        const exec = model.createExecutor();
        const names = model.inputs.map((t) => t.name);
        const slot = byName(names, inputs);
        const nOut = model.outputs.length;
        return { model, exec, slot, nOut };
      },
      infer(s) {
        for (let i = 0; i < inputs.length; i++) if (s.slot[i] >= 0) s.exec.setInput(s.slot[i], inputs[i].data);
        s.exec.run();
        const outs = [];
        for (let i = 0; i < s.nOut; i++) outs.push(s.exec.getOutput(i).data);
        return outs;
      },
      memoryBytes: (s) => s.model.memory.buffer.byteLength,
      dispose(s) { s.exec.dispose(); s.model.dispose(); },
    };
  }
  const require = createRequire(import.meta.url);
  let ort, opts;
  if (runtime === 'ort-web') {
    ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = threads;
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmPaths = path.join(ROOT, 'node_modules/onnxruntime-web/dist') + path.sep;
    opts = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  } else if (runtime === 'ort-node') {
    ort = require('onnxruntime-node');
    opts = {
      executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1,
      executionMode: 'sequential', graphOptimizationLevel: 'all',
    };
  } else {
    throw new Error(`runtime '${runtime}': expected wnn, ort-web or ort-node`);
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', `onnxruntime-${runtime.slice(4)}`, 'package.json'), 'utf8'));
  return {
    version: () => pkg.version,
    async load(bytes) {
      const session = await ort.InferenceSession.create(bytes, opts);
      const feeds = {};
      const slot = byName(session.inputNames, inputs);
      inputs.forEach((t, i) => { if (slot[i] >= 0) feeds[session.inputNames[slot[i]]] = new ort.Tensor(t.dtype, t.data, t.shape); });
      return { session, feeds };
    },
    async infer(s) {
      const r = await s.session.run(s.feeds);
      return s.session.outputNames.map((n) => r[n].data);
    },
    dispose(s) { return s.session.release(); },
  };
}

// ----------------------------------------------------------------- measure
async function main() {
  const a = await makeAdapter(runtime, inputs);
  const bytes = new Uint8Array(fs.readFileSync(modelFile));
  const rss0 = process.memoryUsage().rss;
  let t = performance.now();
  const s = await a.load(bytes);
  const loadMs = performance.now() - t;

  const first = await a.infer(s);
  const memAfterFirst = a.memoryBytes?.(s) ?? memorySizes()[0] ?? null;
  const allMemories = memorySizes();
  const rssDelta = process.memoryUsage().rss - rss0;
  const diff = maxAbsDiff(first);

  // Warm-up: WARMUPS runs, and more until WARMUP_MS have passed. V8 first
  // runs wasm in its baseline compiler and moves hot functions to its
  // optimizing one in the background; on a sub-millisecond model three runs
  // end long before that, and the timed runs then mix both tiers (mnist's
  // median moved between 0.08 and 0.21 ms from one process to the next).
  const warmStart = performance.now();
  for (let i = 1; i < WARMUPS || (performance.now() - warmStart < WARMUP_MS && i < 10000); i++) await a.infer(s);
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    await a.infer(s);
    times.push(performance.now() - t);
  }

  // A second load, with the runtime already instantiated.
  t = performance.now();
  const s2 = await a.load(bytes);
  const warmLoadMs = performance.now() - t;
  await a.dispose(s2);
  await a.dispose(s);

  process.stdout.write(JSON.stringify({
    runtime, version: await a.version(), model: path.basename(modelFile), modelBytes: bytes.length,
    loadMs, warmLoadMs, ...stats(times), times,
    wasmMemoryBytes: memAfterFirst, wasmMemories: allMemories, rssDeltaBytes: rssDelta,
    maxAbsDiff: Number.isFinite(diff) ? diff : null,
  }) + '\n');
}

if (isMain) {
  main().catch((e) => {
    process.stdout.write(JSON.stringify({ runtime, error: String(e?.message ?? e).split('\n')[0].slice(0, 300) }) + '\n');
    process.exitCode = 1;
  });
}
