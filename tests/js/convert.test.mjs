// The converter compiled to WebAssembly (dist/wnn-convert.wasm) behind the JS
// API: wnn.convert() and wnn.load() of ONNX bytes, in Node, Deno, Bun and
// headless Chromium (a page fetches an ONNX model, converts it, runs it), and
// the package's `npx wnn` from a packed tarball.
//
// - Every real model in ../shared/models that the native CLI converts gives
//   the same artifact bytes through wnn.convert() (same shapes).
// - External data: found next to a model given by path or URL, taken from
//   options.externalData for bytes, and a clear error naming the file when
//   missing.
// - Errors carry the C status (WNN_ERR_...) and the importer's message;
//   warnings reach options.onWarning.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as wnn from '../../js/wnn.js';
import { formatNpy } from '../../js/io.js';
import { ROOT, readOnnxModel, readTensorProto } from '../conformance/lib.mjs';

const MODELS = path.resolve(ROOT, process.env.WNN_MODELS_DIR || '../shared/models');
const NATIVE = path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native', 'wnn');
const CONVERTER = path.join(ROOT, 'dist/wnn-convert.wasm');
const MNIST = path.join(MODELS, 'mnist');
const PYTHON = '/usr/bin/python3';

let tmp;
before(() => { tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-convert-test-'))); });
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const noConverter = () => (fs.existsSync(CONVERTER) ? null : `${path.relative(ROOT, CONVERTER)} is not built (cmake --preset wasi && cmake --build build/wasi)`);
const noMnist = () => noConverter() ?? (fs.existsSync(MNIST) ? null : `${MNIST} is absent`);

// The --shape arguments the models test uses: the test data's dims for each
// input whose declared shape is not fully fixed.
function shapesOf(dir) {
  const model = readOnnxModel(path.join(dir, 'model.onnx'));
  const shapes = {};
  model.inputs.forEach((v, i) => {
    const fixed = v.dims !== null && v.dims.every((d) => typeof d === 'number' && d > 0);
    if (fixed) return;
    const t = readTensorProto(path.join(dir, 'test_data_set_0', `input_${i}.pb`));
    if (t.dims.length) shapes[v.name] = t.dims;
  });
  return shapes;
}

async function runMnist(artifact) {
  const model = await wnn.load(artifact);
  const x = readTensorProto(path.join(MNIST, 'test_data_set_0/input_0.pb'));
  const out = await model.predict({ [model.inputs[0].name]: x.data });
  model.dispose();
  return Object.values(out)[0];
}

test('wnn.convert gives the native converter\'s bytes on every real model', async (t) => {
  const skip = noConverter() ?? (fs.existsSync(NATIVE) ? null : `${NATIVE} is not built`) ?? (fs.existsSync(MODELS) ? null : `${MODELS} is absent`);
  if (skip) return t.skip(skip);
  // The light_* models take seconds each to fold (the same natively): three of them.
  const names = fs.readdirSync(MODELS).filter((n) => fs.existsSync(path.join(MODELS, n, 'model.onnx')))
    .filter((n) => !n.startsWith('light_') || ['light_squeezenet', 'light_shufflenet', 'light_inception_v1'].includes(n)).sort();
  assert.ok(names.length >= 8, `only ${names.length} models in ${MODELS}`);
  for (const name of names) {
    const dir = path.join(MODELS, name);
    const shapes = shapesOf(dir);
    const out = path.join(tmp, `${name}.wnn`);
    const args = ['convert', path.join(dir, 'model.onnx'), '-o', out];
    for (const [n, d] of Object.entries(shapes)) args.push('--shape', `${n}=${d.join('x')}`);
    const t0 = Date.now();
    const r = spawnSync(NATIVE, args, { encoding: 'utf8' });
    const nativeMs = Date.now() - t0;
    const t1 = Date.now();
    let artifact;
    let error;
    try {
      artifact = await wnn.convert(path.join(dir, 'model.onnx'), { shapes });
    } catch (e) {
      error = e;
    }
    const wasmMs = Date.now() - t1;
    if (r.status !== 0) {
      assert.ok(error instanceof wnn.WnnError, `${name}: the native CLI failed (${r.stderr.trim()}) but wnn.convert did not`);
      assert.equal(error.code === 'WNN_ERR_UNSUPPORTED' || r.status !== 3 || /unsupported|not supported/.test(error.message), true);
      t.diagnostic(`${name}: both refuse: ${error.message.slice(0, 120)}`);
      continue;
    }
    assert.ok(!error, `${name}: wnn.convert failed: ${error?.message}`);
    assert.ok(Buffer.from(artifact).equals(fs.readFileSync(out)), `${name}: wnn.convert's artifact differs from the native CLI's`);
    t.diagnostic(`${name}: ${artifact.length} bytes; native ${nativeMs} ms, wnn.convert ${wasmMs} ms`);
  }
});

test('wnn.load of ONNX bytes converts first; the outputs equal the artifact\'s', async (t) => {
  const skip = noMnist();
  if (skip) return t.skip(skip);
  const onnx = fs.readFileSync(path.join(MNIST, 'model.onnx'));
  const artifact = await wnn.convert(onnx);
  assert.deepEqual([...artifact.subarray(0, 4)], [0x89, 0x57, 0x4e, 0x4e]);
  const a = await runMnist(artifact);
  const b = await runMnist(onnx);
  assert.deepEqual(b.shape, [1, 10]);
  assert.deepEqual([...b.data], [...a.data]);
  const want = readTensorProto(path.join(MNIST, 'test_data_set_0/output_0.pb'));
  want.data.forEach((w, i) => assert.ok(Math.abs(b.data[i] - w) <= 1e-5 + 1e-3 * Math.abs(w), `output ${i}: ${b.data[i]} vs ${w}`));
  // load() passes options.convert on.
  const m = await wnn.load(onnx, { convert: { maxMemory: 1 << 20 } });
  m.dispose();
  await assert.rejects(wnn.load(onnx, { convert: { maxMemory: 16 } }), (e) => e.code === 'WNN_ERR_LIMIT' && /max-memory|memory/i.test(e.message));
});

test('wnn.convert: options, warnings and errors', async (t) => {
  const skip = noMnist();
  if (skip) return t.skip(skip);
  const onnx = fs.readFileSync(path.join(MNIST, 'model.onnx'));
  // Garbage that looks like protobuf: the importer's message, WNN_ERR_MALFORMED.
  await assert.rejects(wnn.convert(new Uint8Array([8, 7, 1, 2, 3])), (e) => e instanceof wnn.WnnError && e.code === 'WNN_ERR_MALFORMED' && /ONNX/.test(e.message));
  // An artifact is not converted again.
  const artifact = await wnn.convert(onnx);
  await assert.rejects(wnn.convert(artifact), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /already a \.wnn/.test(e.message));
  // Options are checked before anything runs.
  await assert.rejects(wnn.convert(onnx, { shapes: { Input3: [1, -1] } }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /Input3/.test(e.message));
  await assert.rejects(wnn.convert(onnx, { shapes: 'x' }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT');
  await assert.rejects(wnn.convert(onnx, { maxMemory: -1 }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /maxMemory/.test(e.message));
  await assert.rejects(wnn.convert(onnx, { onWarning: 3 }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /onWarning/.test(e.message));
  // A shape the model's own fixed dims contradict: the importer's message names the input.
  await assert.rejects(wnn.convert(onnx, { shapes: { Input3: [1, 1, 30, 30] } }), (e) => e instanceof wnn.WnnError && /Input3/.test(e.message));
  await assert.rejects(wnn.convert(onnx, { shapes: { nosuch: [1] } }), (e) => e instanceof wnn.WnnError && /nosuch/.test(e.message));
  // Warnings reach onWarning: with fixDims, a symbolic batch dim set to 1
  // (the detector's [N,3,H,W]); without it the dims stay dynamic, silently.
  const det = path.join(MODELS, 'ppocr_en_PP-OCRv3_det_infer/model.onnx');
  if (fs.existsSync(det)) {
    const warnings = [];
    await wnn.convert(det, { fixDims: true, onWarning: (w) => warnings.push(w) }).catch(() => {});
    assert.ok(warnings.some((w) => /input 'x': dim 0 is symbolic/.test(w)), `warnings: ${JSON.stringify(warnings)}`);
    const quiet = [];
    await wnn.convert(det, { defaultShapes: { x: [1, 3, 640, 640] }, onWarning: (w) => quiet.push(w) });
    assert.deepEqual(quiet, []);
    await assert.rejects(wnn.convert(det, { defaultShapes: { x: [1, 3, 640, 640] }, maxShapes: { x: [1, 3, 320, 320] } }),
      (e) => e.code === 'WNN_ERR_SHAPE' && /max/.test(e.message));
    await assert.rejects(wnn.convert(det, { fixDims: 'yes' }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /fixDims/.test(e.message));
  }
  // consts: a graph input frozen to a tensor given as .npy bytes.
  const npy = formatNpy({ dtype: 'float32', shape: [1, 1, 28, 28], data: Float32Array.from(readTensorProto(path.join(MNIST, 'test_data_set_0/input_0.pb')).data) });
  const frozen = await wnn.load(await wnn.convert(onnx, { consts: { Input3: npy } }));
  assert.equal(frozen.inputs.length, 0, 'the frozen input is gone');
  frozen.dispose();
});

// mnist re-saved with its weights in a side file (onnx.save_model with
// save_as_external_data), into dir/model.onnx + dir/weights.bin.
function externalDataModel(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync(PYTHON, ['-c', `
import onnx, sys
from onnx import numpy_helper
m = onnx.load(sys.argv[1])
# Only raw_data moves to a side file: store every initializer that way.
for t in m.graph.initializer:
    t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t), t.name))
onnx.save_model(m, sys.argv[2], save_as_external_data=True, all_tensors_to_one_file=True, location='weights.bin', size_threshold=64)
`, path.join(MNIST, 'model.onnx'), path.join(dir, 'model.onnx')], { encoding: 'utf8' });
  return r.status === 0 ? null : `${PYTHON} with python3-onnx could not write an external-data model: ${r.stderr.trim().split('\n').at(-1)}`;
}

test('wnn.convert: external data next to a path, in options.externalData, or a named error', async (t) => {
  const skip = noMnist() ?? (fs.existsSync(PYTHON) ? null : `no ${PYTHON}`);
  if (skip) return t.skip(skip);
  const dir = path.join(tmp, 'ext');
  const why = externalDataModel(dir);
  if (why) return t.skip(why);
  const onnx = fs.readFileSync(path.join(dir, 'model.onnx'));
  assert.ok(onnx.length < 4096, `the weights left model.onnx (${onnx.length} bytes)`);
  const reference = await runMnist(await wnn.convert(path.join(MNIST, 'model.onnx')));
  // A path: weights.bin is read from the model's folder.
  const byPath = await runMnist(await wnn.convert(path.join(dir, 'model.onnx')));
  assert.deepEqual([...byPath.data], [...reference.data]);
  // Bytes: the side file comes in options.externalData.
  const byBytes = await runMnist(await wnn.convert(onnx, { externalData: { 'weights.bin': fs.readFileSync(path.join(dir, 'weights.bin')) } }));
  assert.deepEqual([...byBytes.data], [...reference.data]);
  // Bytes without it: the error names the file and says what to do.
  await assert.rejects(wnn.convert(onnx), (e) => e instanceof wnn.WnnError && /weights\.bin/.test(e.message) && /externalData/.test(e.message));
  // A URL: fetched next to the model (a local HTTP server).
  const server = await serve({ '/m/ext/model.onnx': onnx, '/m/ext/weights.bin': fs.readFileSync(path.join(dir, 'weights.bin')) });
  t.after(() => server.close());
  const byUrl = await runMnist(await wnn.convert(`http://127.0.0.1:${server.address().port}/m/ext/model.onnx`));
  assert.deepEqual([...byUrl.data], [...reference.data]);
});

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

// Serves the given {path: bytes} and, under /js/ and /dist/, the package's files.
function serve(extra) {
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let body = extra[p];
    if (!body && /^\/(js|dist)\/[\w.-]+$/.test(p) && fs.existsSync(path.join(ROOT, p))) body = fs.readFileSync(path.join(ROOT, p));
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(p)] ?? 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('browser: a page fetches an ONNX model, converts it with wnn.convert and runs it (headless Chromium)', async (t) => {
  const skip = noMnist() ?? (fs.existsSync('/usr/bin/chromium') ? null : 'no /usr/bin/chromium (Debian package chromium)');
  if (skip) return t.skip(skip);
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    return t.skip(`playwright-core not installed (npm install): ${e.message}`);
  }
  const x = readTensorProto(path.join(MNIST, 'test_data_set_0/input_0.pb'));
  const page = `<!doctype html><meta charset="utf-8"><title>convert</title><script type="module">
import * as wnn from '/js/wnn.js';
try {
  const t0 = performance.now();
  const artifact = await wnn.convert('/m/mnist/model.onnx');
  const ms = performance.now() - t0;
  const model = await wnn.load(artifact);
  const out = await model.predict({ Input3: new Float32Array(${JSON.stringify([...x.data])}) });
  const y = Object.values(out)[0];
  const fromOnnx = await wnn.load('/m/mnist/model.onnx');
  const y2 = Object.values(await fromOnnx.predict({ Input3: new Float32Array(${JSON.stringify([...x.data])}) }))[0];
  // dist/wnn.wasm named: the module Node 20 runs by default, for an exact comparison.
  const plain = await wnn.load(artifact, { wasm: '/dist/wnn.wasm' });
  const y3 = Object.values(await plain.predict({ Input3: new Float32Array(${JSON.stringify([...x.data])}) }))[0];
  window.result = { bytes: artifact.length, ms, shape: y.shape, data: [...y.data], plain: [...y3.data], isa: model.isa, same: y2.data.every((v, i) => v === y.data[i]) };
} catch (e) {
  window.result = { error: String(e && e.stack || e) };
}
document.body.dataset.done = '1';
</script><body></body>`;
  const server = await serve({ '/index.html': Buffer.from(page), '/m/mnist/model.onnx': fs.readFileSync(path.join(MNIST, 'model.onnx')) });
  t.after(() => server.close());
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  t.after(() => browser.close());
  const tab = await browser.newPage();
  const problems = [];
  tab.on('pageerror', (e) => problems.push(e.message));
  await tab.goto(`http://127.0.0.1:${server.address().port}/index.html`);
  await tab.waitForSelector('body[data-done]', { state: 'attached', timeout: 60_000 });
  const result = await tab.evaluate(() => window.result);
  assert.ok(!result.error, result.error);
  assert.deepEqual(problems, []);
  const node = await wnn.convert(path.join(MNIST, 'model.onnx'));
  assert.equal(result.bytes, node.length, 'the page converted to the same artifact size as Node');
  const want = await runMnist(node);
  assert.deepEqual(result.shape, [1, 10]);
  assert.deepEqual(result.plain, [...want.data], 'same wasm, same numbers');
  // The page's default module (dist/wnn-relaxed.wasm in a Chromium with
  // relaxed SIMD) agrees within its tolerance (tests/js/relaxed.test.mjs).
  t.diagnostic(`page's default module: ${result.isa}`);
  result.data.forEach((v, i) => assert.ok(Math.abs(v - want.data[i]) <= 1e-5 + 1e-3 * Math.abs(want.data[i]), `output ${i}: ${v} vs ${want.data[i]}`));
  assert.ok(result.same, 'load() of the ONNX URL gave the same outputs');
  t.diagnostic(`Chromium: wnn.convert of mnist in ${result.ms.toFixed(0)} ms (compile of wnn-convert.wasm included)`);
});

// `npx wnn convert` from the packed tarball in a fresh project: the package's
// bin runs dist/wnn-convert.wasm under node:wasi (only Node needed), and
// `import { convert } from 'wnn'` converts too; both give the native bytes.
test('npm pack -> fresh project -> npx wnn convert / info / run, and wnn.convert from the package', async (t) => {
  const skip = noMnist();
  if (skip) return t.skip(skip);
  const npm = 'npm';
  const env = { ...process.env, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false' };
  const sh = (cmd, args, cwd) => {
    const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env, timeout: 180_000 });
    if (r.error) throw r.error;
    return r;
  };
  const ok = (r, what) => { assert.equal(r.status, 0, `${what}: exit ${r.status}\n${r.stdout}\n${r.stderr}`); return r.stdout; };
  const packed = JSON.parse(ok(sh(npm, ['pack', '--json', '--pack-destination', tmp], ROOT), 'npm pack'));
  const files = packed[0].files.map((f) => f.path);
  for (const f of ['dist/wnn-convert.wasm', 'js/cli.js', 'js/wasi.js']) assert.ok(files.includes(f), `the tarball lacks ${f}`);
  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  ok(sh(npm, ['init', '-y'], app), 'npm init');
  ok(sh(npm, ['install', '--offline', '--no-audit', '--no-fund', path.join(tmp, packed[0].filename)], app), 'npm install');
  // The model in a folder of its own, outside the project (the bin makes the
  // folders of the paths it is given visible to the module).
  const models = path.join(tmp, 'models', 'mnist');
  fs.mkdirSync(models, { recursive: true });
  fs.copyFileSync(path.join(MNIST, 'model.onnx'), path.join(models, 'model.onnx'));
  fs.copyFileSync(path.join(MNIST, 'test_data_set_0/input_0.pb'), path.join(app, 'x.pb'));
  const npx = (...args) => sh('npx', ['--offline', '--no-install', 'wnn', ...args], app);
  ok(npx('convert', '../models/mnist/model.onnx', '-o', 'mnist.wnn'), 'npx wnn convert');
  const want = spawnSync(NATIVE, ['convert', path.join(models, 'model.onnx'), '-o', path.join(tmp, 'native.wnn')]);
  if (want.status === 0) {
    assert.ok(fs.readFileSync(path.join(app, 'mnist.wnn')).equals(fs.readFileSync(path.join(tmp, 'native.wnn'))), 'npx wnn convert gave other bytes than the native CLI');
  }
  const info = JSON.parse(ok(npx('info', 'mnist.wnn', '--json'), 'npx wnn info'));
  assert.deepEqual(info.inputs.map((i) => [i.name, i.shape]), [['Input3', [1, 1, 28, 28]]]);
  fs.mkdirSync(path.join(app, 'out'));
  const line = JSON.parse(ok(npx('run', 'mnist.wnn', '--input', 'Input3=x.pb', '--output-dir', 'out'), 'npx wnn run').trim().split('\n')[0]);
  assert.deepEqual(line.shape, [1, 10]);
  assert.ok(fs.existsSync(path.join(app, 'out/output_0.npy')));
  // Errors keep the CLI's exit statuses: 2 usage, 1 an unreadable model.
  const usage = npx('convert');
  assert.equal(usage.status, 2, usage.stderr);
  const missing = npx('convert', 'nosuch.onnx', '-o', 'x.wnn');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /nosuch\.onnx/);
  // The JS API of the installed package.
  fs.writeFileSync(path.join(app, 'main.mjs'), `
import { convert, load } from 'wnn';
import fs from 'node:fs';
const artifact = await convert(fs.readFileSync(process.argv[2]));
const model = await load(artifact);
console.log(JSON.stringify({ bytes: artifact.length, inputs: model.inputs.map((i) => i.name) }));
`);
  const got = JSON.parse(ok(sh(process.execPath, ['main.mjs', path.join(models, 'model.onnx')], app), 'wnn.convert in the app'));
  assert.deepEqual(got.inputs, ['Input3']);
  assert.ok(got.bytes > 20000);
});

// The same in Deno and Bun (their binaries come with the npm packages).
for (const host of ['deno', 'bun']) {
  test(`${host}: wnn.convert then load and run`, async (t) => {
    const skip = noMnist();
    if (skip) return t.skip(skip);
    const bin = path.join(ROOT, 'node_modules/.bin', host);
    if (!fs.existsSync(bin) || spawnSync(bin, ['--version']).status !== 0) return t.skip(`node_modules/.bin/${host} does not run (npm install)`);
    const script = path.join(tmp, `convert-${host}.mjs`);
    fs.writeFileSync(script, `
import * as wnn from ${JSON.stringify(path.join(ROOT, 'js/wnn.js'))};
const artifact = await wnn.convert(${JSON.stringify(path.join(MNIST, 'model.onnx'))});
// dist/wnn.wasm named: the host's default may be dist/wnn-relaxed.wasm (other last bits).
const model = await wnn.load(artifact, { wasm: ${JSON.stringify(path.join(ROOT, 'dist/wnn.wasm'))} });
const y = Object.values(await model.predict({ Input3: new Float32Array(784).fill(0.5) }))[0];
console.log(JSON.stringify({ bytes: artifact.length, data: Array.from(y.data) }));
`);
    const args = host === 'deno' ? ['run', '--allow-read', script] : [script];
    const r = spawnSync(bin, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }, timeout: 120_000 });
    assert.equal(r.status, 0, `${host}: ${r.stderr}`);
    const got = JSON.parse(r.stdout.trim().split('\n').at(-1));
    const artifact = await wnn.convert(path.join(MNIST, 'model.onnx'));
    const model = await wnn.load(artifact);
    const want = Object.values(await model.predict({ Input3: new Float32Array(784).fill(0.5) }))[0];
    model.dispose();
    assert.equal(got.bytes, artifact.length);
    assert.deepEqual(got.data, Array.from(want.data));
  });
}
