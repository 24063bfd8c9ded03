// onnxruntime for tests/quant/quantize.py, which has no onnxruntime for
// Python: runs one ONNX model on a list of input sets with the graph as
// written (graphOptimizationLevel 'disabled', 1 thread), with
// onnxruntime-node or (runtime 'web') onnxruntime-web's wasm backend, and either collects
// the min and max of every output over all the sets (calibration: the
// quantizer makes every tensor it needs a graph output) or writes each set's
// outputs as .npy files (the reference outputs of a quantized model).
//
//   node tests/quant/ort.mjs JOB.json
//
// JOB.json: {"model": FILE, "runtime": "node" (default) or "web", "sets": [{"inputs": {NAME: FILE.npy, ...},
//            "outDir": DIR (optional: write output_<i>.npy there, i in
//            the session's output order)}, ...],
//            "minmax": FILE (optional: write {NAME: [min, max], ...} there,
//            over every float output of every set; NaN ignored)}
// Prints one line per set on stderr; exit 1 with the error on failure.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseNpy, formatNpy } from '../../js/io.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// An InferenceSession of either runtime, by default with the graph as
// written (its ort module as session.ort, for the Tensor constructor).
export async function createSession(model, runtime, graphOptimizationLevel = 'disabled') {
  let ort;
  let session;
  if (runtime === 'node') {
    ort = createRequire(path.join(ROOT, 'package.json'))('onnxruntime-node');
    session = await ort.InferenceSession.create(model, {
      executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel,
    });
  } else if (runtime === 'web') {
    ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmPaths = path.join(ROOT, 'node_modules/onnxruntime-web/dist') + path.sep;
    session = await ort.InferenceSession.create(new Uint8Array(fs.readFileSync(model)), {
      executionProviders: ['wasm'], graphOptimizationLevel,
    });
  } else {
    throw new Error(`runtime '${runtime}': expected node or web`);
  }
  session.ort = ort;
  return session;
}

async function main() {
  const jobFile = process.argv[2];
  if (!jobFile) throw new Error('usage: node tests/quant/ort.mjs JOB.json');
  const job = JSON.parse(fs.readFileSync(jobFile, 'utf8'));
  const session = await createSession(job.model, job.runtime ?? 'node');
  const ort = session.ort;
  const ranges = {};
  try {
    for (const [k, set] of job.sets.entries()) {
      const feeds = {};
      for (const [name, file] of Object.entries(set.inputs)) {
        const t = parseNpy(fs.readFileSync(file));
        feeds[name] = new ort.Tensor(t.dtype, t.data, t.shape);
      }
      const t0 = performance.now();
      const out = await session.run(feeds);
      process.stderr.write(`ort.mjs: set ${k}: ${(performance.now() - t0).toFixed(0)} ms\n`);
      if (set.outDir) {
        fs.mkdirSync(set.outDir, { recursive: true });
        session.outputNames.forEach((n, i) => {
          const o = out[n];
          fs.writeFileSync(path.join(set.outDir, `output_${i}.npy`), formatNpy({ dtype: o.type, shape: o.dims.map(Number), data: o.data }));
        });
      }
      if (job.minmax) {
        for (const n of session.outputNames) {
          const o = out[n];
          if (o.type !== 'float32') continue;
          let lo = Infinity;
          let hi = -Infinity;
          for (const v of o.data) {
            if (v < lo) lo = v;
            if (v > hi) hi = v;
          }
          const r = ranges[n];
          ranges[n] = r ? [Math.min(r[0], lo), Math.max(r[1], hi)] : [lo, hi];
        }
      }
      // The outputs of a calibration model are large: let them go.
      for (const o of Object.values(out)) o.dispose?.();
    }
  } finally {
    await session.release();
  }
  if (job.minmax) fs.writeFileSync(job.minmax, JSON.stringify(ranges));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write(`ort.mjs: ${e?.stack ?? e}\n`);
    process.exit(1);
  });
}
