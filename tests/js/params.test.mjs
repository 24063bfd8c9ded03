// Params blobs from the CLI (docs/params.md): `wnn convert --params-out`
// writes the graph artifact and the weights apart; info, run and bench take
// the blob as --params, natively and as the WASI command.
//
// - The PP-OCR detector converted at 640x640 and at 960x960 writes the same
//   blob byte for byte, so either artifact runs on either file: one copy of
//   the weights serves both shapes. Its output with the blob is bitwise the
//   self-contained artifact's.
// - --params-ref makes the second conversion refer to the first one's blob
//   (every param must be there unchanged) instead of writing its own.
// - Without --params the CLI names the missing blob; another model's blob is
//   refused (the digest in the artifact's PARAMS_REF).
// - JavaScript: wnn.loadParams and load(graph, {params}); both detector
//   shapes bound to one blob hold the weights once in wasm memory (measured
//   against the two self-contained artifacts, each in a fresh instance);
//   dispose() defers while a model uses the blob, and frees it after.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as wnn from '../../js/wnn.js';
import { parseTensorProto } from '../../js/io.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NATIVE = path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native', 'wnn');
const WASI = path.join(ROOT, 'dist/wnn-wasi.wasm');
const RUNNER = path.join(ROOT, 'wasm/run-wasi.mjs');
const MODELS = path.resolve(ROOT, process.env.WNN_MODELS_DIR || '../shared/models');
const DET = path.join(MODELS, 'ppocr_en_PP-OCRv3_det_infer');
const MNIST = path.join(MODELS, 'mnist');

let tmp;
before(() => { tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-params-test-'))); });
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const native = (args) => spawnSync(NATIVE, args, { encoding: 'utf8', cwd: tmp });
const wasi = (args) => spawnSync(process.execPath, [RUNNER, WASI, ...args], { encoding: 'utf8', cwd: tmp });
function ok(r, what) {
  assert.equal(r.status, 0, `${what}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
}
const missing = (...files) => files.map((f) => (fs.existsSync(f) ? null : `${path.relative(ROOT, f)} is absent`)).find(Boolean) ?? null;

test('convert --params-out: PP-OCR det at 640 and 960 share one blob; outputs bitwise the self-contained artifact\'s', { timeout: 600000 }, (t) => {
  const skip = missing(NATIVE, DET, MNIST);
  if (skip) return t.skip(skip);
  const onnx = path.join(DET, 'model.onnx');
  ok(native(['convert', onnx, '--shape', 'x=1x3x640x640', '-o', 'whole640.wnn']), 'convert whole');
  ok(native(['convert', onnx, '--shape', 'x=1x3x640x640', '-o', 'det640.wnn', '--params-out', 'det640.wnnp']), 'convert 640');
  ok(native(['convert', onnx, '--shape', 'x=1x3x960x960', '-o', 'det960.wnn', '--params-out=det960.wnnp']), 'convert 960');
  const b640 = fs.readFileSync(path.join(tmp, 'det640.wnnp')), b960 = fs.readFileSync(path.join(tmp, 'det960.wnnp'));
  assert.ok(b640.equals(b960), 'the same weights at both shapes make the same blob');
  const whole = fs.statSync(path.join(tmp, 'whole640.wnn')).size, graph = fs.statSync(path.join(tmp, 'det640.wnn')).size;
  assert.ok(graph < 100000 && b640.length > 2000000 && graph + b640.length < whole + 70000,
    `graph ${graph} B + blob ${b640.length} B against ${whole} B whole`);
  // --params-ref: the 960 graph refers to the 640 conversion's blob and writes none.
  ok(native(['convert', onnx, '--shape', 'x=1x3x960x960', '-o', 'det960ref.wnn', '--params-ref', 'det640.wnnp']), 'convert 960 --params-ref');
  assert.ok(fs.readFileSync(path.join(tmp, 'det960ref.wnn')).equals(fs.readFileSync(path.join(tmp, 'det960.wnn'))));
  let r = native(['convert', path.join(MNIST, 'model.onnx'), '-o', 'mnist-ref.wnn', '--params-ref', 'det640.wnnp']);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /--params-ref det640\.wnnp: tensor '.*' is not in the blob/);
  assert.ok(!fs.existsSync(path.join(tmp, 'mnist-ref.wnn')), 'nothing written on a mismatch');
  r = native(['convert', onnx, '-o', 'x.wnn', '--params-ref', 'det640.wnnp', '--params-out', 'x.wnnp']);
  assert.equal(r.status, 2, r.stderr);
  const info = JSON.parse(ok(native(['info', 'det960.wnn', '--json', '--params', 'det640.wnnp']), 'info 960'));
  assert.deepEqual(info.inputs[0].shape, [1, 3, 960, 960]);
  const input = path.join(DET, 'test_data_set_0/input_0.pb');
  for (const [dir, args] of [['o-whole', ['whole640.wnn']], ['o-split', ['det640.wnn', '--params', 'det960.wnnp']]]) {
    fs.mkdirSync(path.join(tmp, dir));
    ok(native(['run', ...args, '--input', `0=${input}`, '--output-dir', dir]), `run ${dir}`);
  }
  assert.ok(fs.readFileSync(path.join(tmp, 'o-whole/output_0.npy')).equals(fs.readFileSync(path.join(tmp, 'o-split/output_0.npy'))));
});

test('run / info / bench --params natively and under WASI; a missing or foreign blob is a named error', (t) => {
  const skip = missing(NATIVE, MNIST);
  if (skip) return t.skip(skip);
  const onnx = path.join(MNIST, 'model.onnx');
  ok(native(['convert', onnx, '-o', 'mnist.wnn', '--params-out', 'mnist.wnnp']), 'convert mnist');
  ok(native(['convert', onnx, '-o', 'mnist-whole.wnn']), 'convert mnist whole');
  fs.copyFileSync(path.join(MNIST, 'test_data_set_0/input_0.pb'), path.join(tmp, 'mnist_in.pb'));
  const input = 'mnist_in.pb'; // inside the WASI command's preopened folder
  const targets = [['native', native]];
  if (!missing(WASI, RUNNER)) targets.push(['wasi', wasi]);
  else t.diagnostic(`WASI part skipped: ${missing(WASI, RUNNER)}`);
  for (const [name, cli] of targets) {
    fs.mkdirSync(path.join(tmp, `${name}-a`));
    fs.mkdirSync(path.join(tmp, `${name}-b`));
    ok(cli(['run', 'mnist.wnn', '--params', 'mnist.wnnp', '--input', `0=${input}`, '--output-dir', `${name}-a`]), `${name} run split`);
    ok(cli(['run', 'mnist-whole.wnn', '--input', `0=${input}`, '--output-dir', `${name}-b`]), `${name} run whole`);
    assert.ok(fs.readFileSync(path.join(tmp, `${name}-a/output_0.npy`)).equals(fs.readFileSync(path.join(tmp, `${name}-b/output_0.npy`))), name);
    const bench = JSON.parse(ok(cli(['bench', 'mnist.wnn', '--params', 'mnist.wnnp', '--number', '2']), `${name} bench`));
    assert.equal(bench.results_ms.length, 1);
    const r = cli(['info', 'mnist.wnn']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /params blob.*--params FILE\.wnnp/);
  }
  // Another model's blob: refused by the digest the artifact holds.
  const det = path.join(tmp, 'det640.wnnp');
  if (fs.existsSync(det)) {
    const r = native(['info', 'mnist.wnn', '--params', det]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /not the one the artifact was converted with/);
  }
  const r = native(['info', 'mnist.wnn', '--params', 'mnist-whole.wnn']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /model artifact \(\.wnn\), not a params blob/);
});

// The detector's artifacts, converted once for the tests below that need them.
function detArtifacts() {
  const onnx = path.join(DET, 'model.onnx');
  const want = [['whole640.wnn', ['--shape', 'x=1x3x640x640']], ['whole960.wnn', ['--shape', 'x=1x3x960x960']],
    ['det640.wnn', ['--shape', 'x=1x3x640x640', '--params-out', 'det640.wnnp']],
    ['det960.wnn', ['--shape', 'x=1x3x960x960', '--params-out', 'det960.wnnp']]];
  for (const [file, args] of want) {
    if (!fs.existsSync(path.join(tmp, file))) ok(native(['convert', onnx, '-o', file, ...args]), `convert ${file}`);
  }
  return (file) => path.join(tmp, file);
}

// A fresh instance of dist/wnn.wasm (models loaded with it share nothing with other tests').
const freshWasm = () => WebAssembly.compile(fs.readFileSync(path.join(ROOT, 'dist/wnn.wasm')));

async function runOnce(model, input) {
  const ex = model.createExecutor();
  ex.setInput(0, input.data, input.shape);
  const out = ex.run().getOutput(0);
  ex.dispose();
  return out;
}

test('JS: loadParams + load(graph, {params}): two shapes on one blob, bitwise the self-contained output, weights once in memory', { timeout: 600000 }, async (t) => {
  const skip = missing(NATIVE, DET, path.join(ROOT, 'dist/wnn.wasm'));
  if (skip) return t.skip(skip);
  const file = detArtifacts();
  const blob = fs.statSync(file('det640.wnnp')).size;
  const pb = parseTensorProto(fs.readFileSync(path.join(DET, 'test_data_set_0/input_0.pb')));
  // Two self-contained artifacts in a fresh instance.
  const wasmA = await freshWasm();
  const a640 = await wnn.load(file('whole640.wnn'), { wasm: wasmA });
  const a960 = await wnn.load(file('whole960.wnn'), { wasm: wasmA });
  const loadedWhole = a640.memory.buffer.byteLength;
  const exA = [a640.createExecutor(), a960.createExecutor()];
  const memWhole = a640.memory.buffer.byteLength;
  // One blob and two graphs in another.
  const wasmB = await freshWasm();
  const progress = [];
  const params = await wnn.loadParams(file('det640.wnnp'), { wasm: wasmB, onProgress: (n, total) => progress.push([n, total]) });
  assert.equal(params.byteLength, blob);
  assert.ok(params.count > 50, `${params.count} tensors`);
  assert.deepEqual(progress.at(-1), [blob, blob]);
  const b640 = await wnn.load(file('det640.wnn'), { wasm: wasmB, params });
  const b960 = await wnn.load(fs.readFileSync(file('det960.wnn')), { params }); // the params' instance by default
  assert.equal(b960.memory, b640.memory);
  const loadedShared = b640.memory.buffer.byteLength;
  const exB = [b640.createExecutor(), b960.createExecutor()];
  const memShared = b640.memory.buffer.byteLength;
  t.diagnostic(`wasm memory with both shapes loaded: two self-contained artifacts ${loadedWhole} B, one shared blob ${loadedShared} B; `
    + `with an executor each: ${memWhole} B and ${memShared} B (blob ${blob} B)`);
  for (const [whole, shared] of [[loadedWhole, loadedShared], [memWhole, memShared]]) {
    assert.ok(shared + 0.8 * blob <= whole, `shared ${shared} B is not one blob (${blob} B) below self-contained ${whole} B`);
  }
  [...exA, ...exB].forEach((ex) => ex.dispose());

  // Outputs: bitwise the self-contained artifact's at 640.
  const want = await runOnce(a640, pb);
  const got = await runOnce(b640, pb);
  assert.deepEqual(got.shape, [1, 1, 640, 640]);
  assert.ok(Buffer.from(got.data.buffer).equals(Buffer.from(want.data.buffer)), '640: outputs differ');
  // 960: the same weights, a larger input (the 640 image padded with zeros).
  const big = new Float32Array(3 * 960 * 960);
  for (let c = 0; c < 3; c++) for (let y = 0; y < 640; y++) big.set(pb.data.subarray((c * 640 + y) * 640, (c * 640 + y + 1) * 640), (c * 960 + y) * 960);
  const in960 = { data: big, shape: [1, 3, 960, 960] };
  const want960 = await runOnce(a960, in960);
  const got960 = await runOnce(b960, in960);
  assert.ok(Buffer.from(got960.data.buffer).equals(Buffer.from(want960.data.buffer)), '960: outputs differ');

  // dispose() defers: the models keep working, new loads are refused.
  params.dispose();
  assert.equal(params.disposed, true);
  params.dispose(); // idempotent
  const again = await runOnce(b640, pb);
  assert.ok(Buffer.from(again.data.buffer).equals(Buffer.from(want.data.buffer)), 'after params.dispose()');
  await assert.rejects(wnn.load(file('det640.wnn'), { params }), (e) => e.code === 'WNN_ERR_DISPOSED' && /params was disposed/.test(e.message));
  // After the last model goes, the blob is freed: loading everything again
  // fits in the memory the first load grew to.
  b640.dispose();
  b960.dispose();
  const before = b640.memory.buffer.byteLength;
  const p2 = await wnn.loadParams(file('det960.wnnp'), { wasm: wasmB });
  const c640 = await wnn.load(file('det640.wnn'), { params: p2 });
  const c960 = await wnn.load(file('det960.wnn'), { params: p2 });
  c640.createExecutor();
  c960.createExecutor();
  assert.equal(c640.memory.buffer.byteLength, before, 'the disposed blob was not freed');
  p2.dispose();
  c960.dispose();
  const last = await runOnce(c640, pb);
  assert.ok(Buffer.from(last.data.buffer).equals(Buffer.from(want.data.buffer)), 'with the other shape disposed');
  c640.dispose();
  a640.dispose();
  a960.dispose();
});

test('JS: params errors name what is wrong', { timeout: 600000 }, async (t) => {
  const skip = missing(NATIVE, DET, MNIST, path.join(ROOT, 'dist/wnn.wasm'));
  if (skip) return t.skip(skip);
  const file = detArtifacts();
  if (!fs.existsSync(file('mnist.wnnp'))) ok(native(['convert', path.join(MNIST, 'model.onnx'), '-o', 'mnist.wnn', '--params-out', 'mnist.wnnp']), 'convert mnist');
  const wasm = await freshWasm();
  const params = await wnn.loadParams(file('det640.wnnp'), { wasm });
  const code = (c, re) => (e) => { assert.equal(e.code, c, e.message); if (re) assert.match(e.message, re); return true; };
  // A graph without its params; a self-contained artifact with params; another model's blob.
  await assert.rejects(wnn.load(file('det640.wnn'), { wasm }), code('WNN_ERR_FEATURE', /params blob.*load\(graph, \{params\}\)/));
  await assert.rejects(wnn.load(file('whole640.wnn'), { params }), code('WNN_ERR_INVALID_ARGUMENT', /self-contained/));
  await assert.rejects(wnn.load(file('mnist.wnn'), { params }), code('WNN_ERR_CHECKSUM', /not the one the artifact was converted with/));
  // Not a Params; params of another wasm instance than options.wasm.
  await assert.rejects(wnn.load(file('det640.wnn'), { params: {} }), code('WNN_ERR_INVALID_ARGUMENT', /options\.params: expected the Params/));
  await assert.rejects(wnn.load(file('det640.wnn'), { params, wasm: await freshWasm() }), code('WNN_ERR_INVALID_ARGUMENT', /another wasm module/));
  // Not a blob, a truncated blob, a damaged one.
  await assert.rejects(wnn.loadParams(file('det640.wnn'), { wasm }), code('WNN_ERR_BAD_MAGIC'));
  const bytes = fs.readFileSync(file('det640.wnnp'));
  await assert.rejects(wnn.loadParams(bytes.subarray(0, bytes.length - 1), { wasm }), code('WNN_ERR_TRUNCATED'));
  // One bit of the largest tensor's data (its offset and size from the table, docs/format.md).
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const table = Number(view.getBigUint64(40, true));
  let largest = { off: 0, size: 0 };
  for (let i = 0; i < view.getUint32(32, true); i++) {
    const e = table + 64 * i;
    const size = Number(view.getBigUint64(e + 32, true));
    if (size > largest.size) largest = { off: Number(view.getBigUint64(e + 24, true)), size };
  }
  const damaged = Uint8Array.from(bytes);
  damaged[largest.off + (largest.size >> 1)] ^= 1;
  await assert.rejects(wnn.loadParams(damaged, { wasm }), code('WNN_ERR_CHECKSUM', /tensor '.*' does not match its CRC-32/));
  const unchecked = await wnn.loadParams(damaged, { wasm, verifyChecksum: false });
  unchecked.dispose();
  await assert.rejects(wnn.loadParams(bytes, { onProgress: 1 }), code('WNN_ERR_INVALID_ARGUMENT', /onProgress/));
  // The failed loads left the params usable.
  const m = await wnn.load(file('det640.wnn'), { params });
  assert.equal(m.inputs[0].shape.join('x'), '1x3x640x640');
  m.dispose();
  params.dispose();
});
