// Params blobs from the CLI (docs/params.md): `wnn convert --params-out`
// writes the graph artifact and the weights apart; info, run and bench take
// the blob as --params, natively and as the WASI command.
//
// - The PP-OCR detector converted at 640x640 and at 960x960 writes the same
//   blob byte for byte, so either artifact runs on either file: one copy of
//   the weights serves both shapes. Its output with the blob is bitwise the
//   self-contained artifact's.
// - Without --params the CLI names the missing blob; another model's blob is
//   refused (the digest in the artifact's PARAMS_REF).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
  const skip = missing(NATIVE, DET);
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
