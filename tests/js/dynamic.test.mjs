// Run-time shapes on real models (issue 12, docs/dynamic-shapes.md). Each
// model is converted once WITHOUT --shape: its symbolic dims stay dynamic
// (the PP-OCRv3 recognizer's width, the detector's height and width, the
// torchvision exports' batch, the transformer encoder's sequence length).
// Then, at every size listed:
//   - one executor of the JS package (dist/wnn.wasm) runs them all in turn,
//     resized by setInput(name, data, shape), and ex.resize() back to an
//     earlier size (the plan cache) gives the same bits again;
//   - the native CLI (`wnn run`, which resizes its executor to the input
//     file's shape) and the WASI CLI (dist/wnn-wasi.wasm) run each size;
// and every output is compared with onnxruntime-node's on the same input
// (rtol 1e-3, atol 1e-5), the two CLIs' with the JS one's too.
//
// Inputs: seeded pseudo-random data, and for the classifiers a batch of the
// export's photograph in variations. The torchvision models come from
// tests/torch/export.py (model_dynamic.onnx: batch or sequence dim symbolic),
// which this test runs (it skips models that are up to date).
//
// Environment: WNN_MODELS_DIR, WNN_TORCHVISION_DIR, WNN_NATIVE_BUILD_DIR,
// WNN_WASI_CLI, WNN_PYTHON as for models.test.mjs and torchvision.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as wnn from '../../js/wnn.js';
import { formatNpy, parseNpy } from '../../js/io.js';
import { ROOT, exec, nativeCli, wasiCli, hasConvert, readTensorProto } from '../conformance/lib.mjs';

const RTOL = 1e-3;
const ATOL = 1e-5;
const TIMEOUT_MS = 240_000; // per command: a hang guard
const MODELS = path.resolve(ROOT, process.env.WNN_MODELS_DIR || '../shared/models');
const TORCHVISION = path.resolve(ROOT, process.env.WNN_TORCHVISION_DIR || 'build/torchvision');
const PYTHON = process.env.WNN_PYTHON || '/usr/bin/python3';
const native = nativeCli(path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native'));
const wasi = wasiCli(path.resolve(ROOT, process.env.WNN_WASI_CLI || 'dist/wnn-wasi.wasm'));

const CASES = [
  { name: 'PP-OCRv3 recognizer, width', onnx: path.join(MODELS, 'ppocr_en_PP-OCRv3_rec_infer/model.onnx'),
    defaults: { x: [1, 3, 48, 320] }, shapes: [[1, 3, 48, 80], [1, 3, 48, 160], [1, 3, 48, 320], [1, 3, 48, 640]] },
  { name: 'PP-OCRv3 detector, height x width', onnx: path.join(MODELS, 'ppocr_en_PP-OCRv3_det_infer/model.onnx'),
    defaults: { x: [1, 3, 640, 640] }, shapes: [[1, 3, 640, 640], [1, 3, 736, 1280], [1, 3, 960, 960]] },
  ...['resnet18', 'squeezenet1_1', 'mobilenet_v2', 'efficientnet_b0'].map((m) => ({
    name: `torchvision ${m}, batch`, onnx: path.join(TORCHVISION, m, 'model_dynamic.onnx'), torch: true,
    photo: path.join(TORCHVISION, m, 'test_data_set_0/input_0.pb'),
    shapes: [[1, 3, 224, 224], [2, 3, 224, 224], [4, 3, 224, 224]],
  })),
  { name: 'transformer encoder, sequence length', onnx: path.join(TORCHVISION, 'transformer_encoder/model_dynamic.onnx'), torch: true,
    shapes: [[1, 7, 128], [1, 32, 128], [1, 128, 128]] },
];

let tmp;
let skipReason = null;
let exportProblem = null;
let ort = null;

before(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-dynamic-test-')));
  try {
    ort = createRequire(import.meta.url)('onnxruntime-node');
  } catch (e) {
    skipReason = `onnxruntime-node is not installed (npm install): ${e.message}`;
    return;
  }
  if (!native.available() || !(await hasConvert(native))) {
    skipReason = `${path.relative(ROOT, native.bin)} is not built with the importer (cmake --preset native && cmake --build build/native)`;
    return;
  }
  if (!fs.existsSync(path.join(ROOT, 'dist/wnn.wasm'))) skipReason = 'dist/wnn.wasm is not built (npm run build)';
  if (fs.existsSync(PYTHON)) {
    const r = await exec(PYTHON, [path.join(ROOT, 'tests/torch/export.py'), TORCHVISION], { cwd: ROOT, timeoutMs: 20 * 60_000 });
    if (r.status !== 0) exportProblem = `tests/torch/export.py failed: ${r.stderr.trim().split('\n').at(-1)}`;
  } else {
    exportProblem = `no ${PYTHON}`;
  }
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// A batch of the export's photograph (normalized, [1, 3, H, W]) in four
// variations: as is, mirrored left-right, darker, upside down. Random data
// is no input for an ImageNet classifier with random weights: deep in
// efficientnet_b0 its float32 rounding alone exceeds the tolerance on
// noise (wnn's dynamic and fixed artifacts agree bit for bit there).
function photoBatch(photo, shape) {
  const [b, ch, h, w] = shape;
  const plane = h * w;
  const out = new Float32Array(b * ch * plane);
  for (let n = 0; n < b; n++) {
    for (let c = 0; c < ch; c++) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const sy = n === 3 ? h - 1 - y : y;
          const sx = n === 1 ? w - 1 - x : x;
          const v = photo[c * plane + sy * w + sx];
          out[((n * ch + c) * h + y) * w + x] = n === 2 ? v * 0.8 : v;
        }
      }
    }
  }
  return out;
}

// Seeded pseudo-random floats in [-1, 1) (an LCG: the same inputs every run).
function randomInput(shape, seed) {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = s / 2 ** 31 - 1;
  }
  return data;
}

function compare(got, want, what) {
  assert.deepEqual([...got.shape], [...want.shape], `${what}: shape`);
  let bad = 0;
  let maxAbs = 0;
  let worst = -1;
  for (let i = 0; i < want.data.length; i++) {
    const d = Math.abs(got.data[i] - want.data[i]);
    if (!(d <= ATOL + RTOL * Math.abs(want.data[i]))) {
      bad++;
      if (worst < 0) worst = i;
    }
    if (d > maxAbs || Number.isNaN(d)) maxAbs = d;
  }
  assert.equal(bad, 0, `${what}: ${bad} of ${want.data.length} elements outside rtol ${RTOL} atol ${ATOL} ` +
    `(first at ${worst}: ${got.data[worst]} vs ${want.data[worst]}); max abs error ${maxAbs}`);
  return maxAbs;
}

for (const c of CASES) {
  test(`${c.name}: one dynamic artifact at ${c.shapes.map((s) => s.join('x')).join(', ')}`, async (t) => {
    if (skipReason) return t.skip(skipReason);
    if (c.torch && exportProblem) return t.skip(exportProblem);
    if (!fs.existsSync(c.onnx)) return t.skip(`${c.onnx} is absent`);
    const dir = fs.mkdtempSync(path.join(tmp, 'case-'));
    const artifact = path.join(dir, 'model.wnn');
    const args = ['convert', c.onnx, '-o', artifact];
    for (const [n, d] of Object.entries(c.defaults ?? {})) args.push('--default-shape', `${n}=${d.join('x')}`);
    const conv = await native.exec(args, { timeoutMs: TIMEOUT_MS });
    assert.equal(conv.status, 0, `wnn ${args.join(' ')}: ${conv.stderr}`);
    assert.equal(conv.stderr, '', 'no warning: no dim was fixed behind the user\'s back');

    const model = await wnn.load(artifact);
    const input = model.inputs[0];
    assert.ok(input.dims && input.shape.some((d) => typeof d === 'string'),
      `the artifact's input shows its dynamic dims by name: ${JSON.stringify(input.shape)}`);
    const session = await ort.InferenceSession.create(c.onnx, { intraOpNumThreads: 1 });
    const photo = c.photo ? Float32Array.from(readTensorProto(c.photo).data) : null;
    const inputOf = (shape, k) => (photo ? photoBatch(photo, shape) : randomInput(shape, 1000 + k));
    const ex = model.createExecutor();
    const outputs = [];
    try {
      for (const [k, shape] of c.shapes.entries()) {
        const x = inputOf(shape, k);
        // ORT's answer.
        const ref = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', x, shape) });
        const want = ref[session.outputNames[0]];
        // One executor, resized by setInput's shape.
        ex.setInput(input.name, x, shape).run();
        const got = ex.getOutput(0);
        outputs.push(got);
        const err = compare(got, { shape: want.dims, data: want.data }, `JS at ${shape.join('x')}`);
        t.diagnostic(`${shape.join('x')}: output ${got.shape.join('x')}, max abs error vs ORT ${err.toExponential(2)}, arena ${ex.arenaBytes} B`);
        assert.deepEqual(ex.inputs[0].shape, shape);
        // Both CLIs on the same input, each resizing its own executor.
        const npy = path.join(dir, `x${k}.npy`);
        fs.writeFileSync(npy, formatNpy({ dtype: 'float32', shape, data: x }));
        for (const cli of [native, wasi]) {
          if (!cli.available()) {
            t.diagnostic(`${cli.bin} is not built: no ${cli.name} run`);
            continue;
          }
          const outDir = path.join(dir, `${cli.name}${k}`);
          fs.mkdirSync(outDir);
          const r = await cli.exec(['run', artifact, '--input', `${input.name}=${npy}`, '--output-dir', outDir], { timeoutMs: TIMEOUT_MS });
          assert.equal(r.status, 0, `${cli.name} wnn run at ${shape.join('x')}: ${r.stderr}`);
          const out = parseNpy(fs.readFileSync(path.join(outDir, 'output_0.npy')));
          compare(out, { shape: want.dims, data: want.data }, `${cli.name} CLI at ${shape.join('x')}`);
        }
      }
      // Back to the first size with resize(): the cached plan, the same bits.
      const first = c.shapes[0];
      ex.resize({ [input.name]: first }).setInput(input.name, inputOf(first, 0)).run();
      assert.deepEqual([...ex.getOutput(0).data], [...outputs[0].data], 'resized back: the same bits');
      // predict with {data, shape} resizes its private executor too.
      const last = c.shapes.at(-1);
      const p = await model.predict({ [input.name]: { data: inputOf(last, c.shapes.length - 1), shape: last } });
      assert.deepEqual([...Object.values(p)[0].data], [...outputs.at(-1).data], 'predict at the last size');
    } finally {
      model.dispose();
      await session.release?.();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('JS: a dynamic input refuses a shape its fixed dims contradict, and a plain array needs a shape in predict', async (t) => {
  if (skipReason) return t.skip(skipReason);
  const onnx = CASES[0].onnx;
  if (!fs.existsSync(onnx)) return t.skip(`${onnx} is absent`);
  const artifact = path.join(tmp, 'rec.wnn');
  const r = await native.exec(['convert', onnx, '-o', artifact, '--default-shape', 'x=1x3x48x320'], { timeoutMs: TIMEOUT_MS });
  assert.equal(r.status, 0, r.stderr);
  const model = await wnn.load(artifact);
  try {
    const ex = model.createExecutor();
    const before = ex.arenaBytes;
    // Channel 3 is fixed: 4 channels are refused and the executor keeps its shape.
    assert.throws(() => ex.setInput('x', new Float32Array(4 * 48 * 100), [1, 4, 48, 100]), (e) => e.code === 'WNN_ERR_SHAPE');
    assert.deepEqual(ex.inputs[0].shape, [1, 3, 48, 320]);
    assert.equal(ex.arenaBytes, before);
    // A length that does not match the shape given: refused before any resize.
    assert.throws(() => ex.setInput('x', new Float32Array(10), [1, 3, 48, 100]), (e) => e.code === 'WNN_ERR_SIZE');
    assert.deepEqual(ex.inputs[0].shape, [1, 3, 48, 320]);
    await assert.rejects(model.predict({ x: new Float32Array(3 * 48 * 320) }), (e) => e.code === 'WNN_ERR_SHAPE' && /pass \{data, shape\}/.test(e.message));
    assert.throws(() => ex.resize({ nosuch: [1] }), (e) => e.code === 'WNN_ERR_NOT_FOUND');
    assert.throws(() => ex.resize({ x: [1, 3, -48, 320] }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT');
  } finally {
    model.dispose();
  }
});
