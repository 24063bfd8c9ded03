// The JS package (js/wnn.js) against the real dist/wnn.wasm and
// dist/wnn-scalar.wasm: every way to load, the model and executor API, predict,
// timeEvaluator, disposal, every error path, and memory reuse. Models are the
// builder fixtures of build/fixtures (written by build/native/make_fixtures in
// npm test) and, when `wnn convert` exists, real ONNX models converted with it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as wnn from '../../js/wnn.js';
import { parseNpy, parseTensorProto } from '../../js/io.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rel = (...p) => path.join(root, ...p);
const fixtures = rel('build/fixtures');
const haveFixtures = fs.existsSync(path.join(fixtures, 'mnist_like.wnn'));
const NO_FIXTURES = 'no build/fixtures/mnist_like.wnn (npm test writes it with build/native/make_fixtures)';
const fixture = (name) => new Uint8Array(fs.readFileSync(path.join(fixtures, `${name}.wnn`)));
const fixtureNames = haveFixtures
  ? fs.readdirSync(fixtures).filter((f) => f.endsWith('.wnn')).map((f) => f.slice(0, -4)).sort()
  : [];

// Expects `fn` (sync or async) to throw a WnnError with this code and a
// message matching `pattern`.
async function rejects(fn, code, pattern) {
  let error;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected a ${code} error, nothing was thrown`);
  assert.ok(error instanceof wnn.WnnError, `expected a WnnError, got ${error}`);
  assert.ok(error instanceof Error);
  assert.equal(error.code, code, error.message);
  if (pattern) assert.match(error.message, pattern);
  return error;
}

function close(label, got, want, rtol = 1e-4, atol = 1e-5) {
  assert.equal(got.length, want.length, `${label}: length`);
  for (let i = 0; i < want.length; i++) {
    const ok = Math.abs(got[i] - want[i]) <= atol + rtol * Math.abs(want[i]);
    if (!ok) assert.fail(`${label}: element ${i}: got ${got[i]}, want ${want[i]}`);
  }
}

// A local HTTP server for URL and Request sources: /fixtures/NAME is
// build/fixtures/NAME with a Content-Length, /chunked/NAME the same without
// one, anything else 404.
let server;
let base;
before(async () => {
  server = http.createServer((req, res) => {
    const m = /^\/(fixtures|chunked)\/([\w.-]+)$/.exec(req.url);
    const file = m && path.join(fixtures, m[2]);
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = fs.readFileSync(file);
    if (m[1] === 'fixtures') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
      res.end(body);
    } else {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      // Several chunks so that progress is reported more than once.
      const step = Math.ceil(body.length / 4);
      for (let i = 0; i < body.length; i += step) res.write(body.subarray(i, i + step));
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server?.close());

test('SIMD is detected and the C version comes through', async () => {
  assert.equal(wnn.simdSupported(), true, 'Node 20 runs SIMD128');
  const hdr = fs.readFileSync(rel('include/wnn.h'), 'utf8');
  const v = ['MAJOR', 'MINOR', 'PATCH'].map((k) => new RegExp(`#define WNN_VERSION_${k} (\\d+)`).exec(hdr)[1]);
  assert.equal(await wnn.version(), v.join('.'));
  assert.equal(await wnn.version({ wasm: rel('dist/wnn-scalar.wasm') }), v.join('.'));
});

test('without SIMD128 the package loads dist/wnn-scalar.wasm', { skip: !haveFixtures && NO_FIXTURES }, () => {
  // A child process whose engine claims no SIMD: WebAssembly.validate says no
  // to the package's probe, and compile records what it is given.
  const script = `
    const validate = WebAssembly.validate;
    WebAssembly.validate = (bytes) => !new Uint8Array(bytes).includes(0x7b) && validate(bytes);
    const compile = WebAssembly.compile;
    const sizes = [];
    WebAssembly.compile = (bytes) => { sizes.push(bytes.byteLength); return compile(bytes); };
    const wnn = await import(${JSON.stringify(pathToFileURL(rel('js/wnn.js')).href)});
    const m = await wnn.load(${JSON.stringify(path.join(fixtures, 'mnist_like.wnn'))});
    const out = await m.predict({ Input3: new Float32Array(784).fill(1) });
    console.log(JSON.stringify({ simd: wnn.simdSupported(), sizes, argmax: out.Plus214_Output_0.data.indexOf(Math.max(...out.Plus214_Output_0.data)) }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  assert.equal(got.simd, false);
  // (Node compiles wasm of its own too, such as its HTTP parser.)
  assert.ok(got.sizes.includes(fs.statSync(rel('dist/wnn-scalar.wasm')).size), `compiled dist/wnn-scalar.wasm: ${got.sizes}`);
  assert.ok(!got.sizes.includes(fs.statSync(rel('dist/wnn.wasm')).size), `compiled dist/wnn.wasm: ${got.sizes}`);
  assert.ok(got.argmax >= 0 && got.argmax < 10);
});

test('load: every kind of source gives the same model', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const file = path.join(fixtures, 'mnist_like.wnn');
  const bytes = fixture('mnist_like');
  const sources = {
    'file path': file,
    'file: URL string': pathToFileURL(file).href,
    'file: URL': pathToFileURL(file),
    Uint8Array: bytes,
    'Uint8Array at an offset': (() => { const b = new Uint8Array(bytes.length + 3); b.set(bytes, 3); return b.subarray(3); })(),
    ArrayBuffer: bytes.slice().buffer,
    'Node Buffer': fs.readFileSync(file),
    Response: new Response(bytes),
    'promise of a Response': Promise.resolve(new Response(bytes)),
    'http URL string': `${base}/fixtures/mnist_like.wnn`,
    'http URL': new URL(`${base}/fixtures/mnist_like.wnn`),
    Request: new Request(`${base}/fixtures/mnist_like.wnn`),
    'promise of fetch()': fetch(`${base}/fixtures/mnist_like.wnn`),
  };
  for (const [kind, source] of Object.entries(sources)) {
    const model = await wnn.load(source);
    assert.deepEqual(model.inputs, [{ name: 'Input3', shape: [1, 1, 28, 28], dtype: 'float32' }], kind);
    assert.deepEqual(model.outputs, [{ name: 'Plus214_Output_0', shape: [1, 10], dtype: 'float32' }], kind);
    model.dispose();
  }
});

test('load: onProgress reports streamed bytes', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const size = fixture('mnist_like').length;
  for (const [route, total] of [['fixtures', size], ['chunked', 0]]) {
    const calls = [];
    const model = await wnn.load(`${base}/${route}/mnist_like.wnn`, { onProgress: (l, t) => calls.push([l, t]) });
    model.dispose();
    assert.ok(calls.length >= 1, `${route}: no progress reported`);
    for (let i = 1; i < calls.length; i++) assert.ok(calls[i][0] >= calls[i - 1][0], `${route}: loaded went down`);
    assert.equal(calls.at(-1)[0], size, `${route}: last loaded`);
    for (const [, t] of calls) assert.equal(t, total, `${route}: total`);
  }
  const fromBytes = [];
  (await wnn.load(fixture('mnist_like'), { onProgress: (l, t) => fromBytes.push([l, t]) })).dispose();
  assert.deepEqual(fromBytes, [], 'bytes in hand: nothing streamed, nothing reported');
  const fromFile = [];
  (await wnn.load(path.join(fixtures, 'mnist_like.wnn'), { onProgress: (l, t) => fromFile.push([l, t]) })).dispose();
  assert.deepEqual(fromFile, [[size, size]], 'a file is reported once, whole');
});

test('load: options.wasm as a precompiled Module, a URL, a path and bytes; instances are shared', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const scalarBytes = fs.readFileSync(rel('dist/wnn-scalar.wasm'));
  const module = await WebAssembly.compile(scalarBytes);
  const a = await wnn.load(fixture('mnist_like'), { wasm: module });
  const b = await wnn.load(fixture('two_outputs'), { wasm: module });
  assert.equal(a.memory, b.memory, 'two models of one Module share one instance');
  const byUrl = await wnn.load(fixture('mnist_like'), { wasm: pathToFileURL(rel('dist/wnn-scalar.wasm')) });
  const byPath = await wnn.load(fixture('mnist_like'), { wasm: rel('dist/wnn-scalar.wasm') });
  assert.equal(byUrl.memory, byPath.memory, 'one URL, one instance');
  assert.notEqual(byUrl.memory, a.memory);
  const defaults = await wnn.load(fixture('mnist_like'));
  const defaults2 = await wnn.load(fixture('squeeze_like'));
  assert.equal(defaults.memory, defaults2.memory, 'the default runtime is shared');
  assert.notEqual(defaults.memory, a.memory);
  const byBytes = await wnn.load(fixture('mnist_like'), { wasm: scalarBytes });
  const scalarKernels = await wnn.load(fixture('mnist_like'), { kernels: 'scalar' });
  // kernels: 'scalar' runs in dist/wnn-scalar.wasm's instance (dist/wnn.wasm
  // has SIMD128 kernels only, and refuses it with a message that says so).
  assert.equal(scalarKernels.memory, byUrl.memory, "kernels: 'scalar' loads dist/wnn-scalar.wasm");
  if (wnn.simdSupported()) {
    await rejects(() => wnn.load(fixture('mnist_like'), { kernels: 'scalar', wasm: rel('dist/wnn.wasm') }),
      'WNN_ERR_UNSUPPORTED', /SIMD128 kernels only.*wnn-scalar\.wasm/);
  }
  // Every runtime computes the same numbers.
  const input = parseNpy(fs.readFileSync(path.join(fixtures, 'mnist_like.input_0.npy'))).data;
  const want = parseNpy(fs.readFileSync(path.join(fixtures, 'mnist_like.output_0.npy'))).data;
  for (const [label, m] of Object.entries({ a, byUrl, byPath, defaults, byBytes, scalarKernels })) {
    const out = await m.predict({ Input3: input });
    close(label, out.Plus214_Output_0.data, want);
  }
  for (const m of [a, b, byUrl, byPath, defaults, defaults2, byBytes, scalarKernels]) m.dispose();
});

// build/fixtures/full/trig.wnn: x -> Atan (an op dist/wnn.wasm leaves out) and
// x -> Sigmoid.
test('load: an op dist/wnn.wasm leaves out loads in dist/wnn-full.wasm; an explicit module is never replaced', { skip: (!haveFixtures && NO_FIXTURES) || (!wnn.simdSupported() && 'no SIMD128: the default module is dist/wnn-scalar.wasm, which has every op') }, async () => {
  const trig = fixture('full/trig');
  // One thread: the threaded module (the default where threads exist) has every op.
  const core = await wnn.load(fixture('two_outputs'), { threads: 1 });
  const full = await wnn.load(trig, { threads: 1 });
  assert.notEqual(full.memory, core.memory, 'the artifact with Atan runs in another instance');
  const byFull = await wnn.load(trig, { wasm: rel('dist/wnn-full.wasm') });
  assert.equal(byFull.memory, full.memory, 'that instance is dist/wnn-full.wasm');
  await rejects(() => wnn.load(trig, { wasm: rel('dist/wnn.wasm') }), 'WNN_ERR_UNKNOWN_OP',
    /op code 164 \(atan\), which this module leaves out.*dist\/wnn-full\.wasm/);
  const x = parseNpy(fs.readFileSync(path.join(fixtures, 'full/trig.input_0.npy'))).data;
  const out = await full.predict({ x });
  close('atan', out.atan_out.data, parseNpy(fs.readFileSync(path.join(fixtures, 'full/trig.output_0.npy'))).data);
  close('sigmoid', out.sigmoid_out.data, parseNpy(fs.readFileSync(path.join(fixtures, 'full/trig.output_1.npy'))).data);
  for (let i = 0; i < x.length; i++) assert.ok(Math.abs(out.atan_out.data[i] - Math.atan(x[i])) < 1e-6, `atan(${x[i]})`);
  for (const m of [core, full, byFull]) m.dispose();
});

test('load: bad sources and options are rejected with a code and a message', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const good = fixture('mnist_like');
  const garbage = new Uint8Array(512).map((_, i) => (i * 131 + 7) & 0xff);
  // The C library's own message comes through after what was being done.
  await rejects(() => wnn.load(garbage), 'WNN_ERR_BAD_MAGIC', /^loading the model: .*magic/);
  const truncated = await rejects(() => wnn.load(good.subarray(0, good.length >> 1)), 'WNN_ERR_TRUNCATED',
    new RegExp(`${good.length} bytes .*${good.length >> 1}`));
  assert.equal(truncated.status, 3);
  for (const n of [0, 3, 16]) {
    const e = await rejects(() => wnn.load(good.subarray(0, n)), 'WNN_ERR_TRUNCATED');
    assert.ok(e.message.length > 'loading the model: '.length, `${n} bytes: ${e.message}`);
  }
  // One flipped byte near the end (inside a section): caught by the CRC-32.
  const flipped = good.slice();
  flipped[flipped.length - 5] ^= 0x55;
  await rejects(() => wnn.load(flipped), 'WNN_ERR_CHECKSUM', /crc|checksum/i);
  await rejects(() => wnn.load(42), 'WNN_ERR_INVALID_ARGUMENT', /got number/);
  await rejects(() => wnn.load({}), 'WNN_ERR_INVALID_ARGUMENT', /got Object/);
  await rejects(() => wnn.load(`${base}/fixtures/missing.wnn`), 'WNN_ERR_IO', /HTTP 404/);
  await rejects(() => wnn.load(new Response('nope', { status: 500, statusText: 'Server Error' })), 'WNN_ERR_IO', /HTTP 500/);
  await rejects(() => wnn.load('http://127.0.0.1:1/x.wnn'), 'WNN_ERR_IO', /fetching/);
  await rejects(() => wnn.load(path.join(os.tmpdir(), 'no-such-dir-wnn', 'x.wnn')), 'WNN_ERR_IO', /reading/);
  await rejects(() => wnn.load(good, { kernels: 'fast' }), 'WNN_ERR_INVALID_ARGUMENT', /kernels/);
  await assert.rejects(() => wnn.load(good, { wasm: new Uint8Array([0, 97, 115, 109]) }), WebAssembly.CompileError);
  // After all of that the runtime still loads and runs models.
  const m = await wnn.load(good);
  assert.equal(m.outputs.length, 1);
  m.dispose();
});

test('model: inputs, outputs, numParams, metadata', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const m = await wnn.load(fixture('two_outputs'));
  assert.deepEqual(m.inputs, [{ name: 'gpu_0/data_0', shape: [2, 8], dtype: 'float32' }]);
  assert.deepEqual(m.outputs.map((o) => o.name), ['gpu_0/softmax_1', 'sigmoid_0.tmp_0']);
  assert.deepEqual(m.outputs.map((o) => o.shape), [[6, 2], [2, 6]]);
  assert.equal(m.numParams, 2);
  assert.equal(Object.getPrototypeOf(m.metadata), Object.prototype, 'metadata is a plain object');
  assert.equal(m.metadata.name, 'two_outputs');
  assert.equal(m.metadata.num_params, m.numParams);
  assert.deepEqual(m.metadata.inputs, m.inputs);
  assert.ok(m.arenaBytes > 0 && m.weightsBytes > 0);
  assert.ok(Object.isFrozen(m.inputs) && Object.isFrozen(m.inputs[0]) && Object.isFrozen(m.inputs[0].shape));
  assert.equal(m.inputIndex('gpu_0/data_0'), 0);
  assert.equal(m.outputIndex('sigmoid_0.tmp_0'), 1);
  assert.equal(m.outputIndex(1), 1);
  await rejects(() => m.outputIndex('sigmoid_0'), 'WNN_ERR_NOT_FOUND', /"sigmoid_0".*"gpu_0\/softmax_1", "sigmoid_0.tmp_0"/);
  await rejects(() => m.inputIndex(1), 'WNN_ERR_OUT_OF_RANGE', /input index 1 .*1 input/);
  await rejects(() => m.inputIndex(-1), 'WNN_ERR_OUT_OF_RANGE');
  await rejects(() => m.inputIndex(0.5), 'WNN_ERR_OUT_OF_RANGE');
  await rejects(() => m.inputIndex(null), 'WNN_ERR_INVALID_ARGUMENT', /got null/);
  m.dispose();
});

for (const variant of ['wnn.wasm', 'wnn-scalar.wasm']) {
  test(`${variant}: every fixture through the executor and predict gives the expected outputs`, { skip: !haveFixtures && NO_FIXTURES }, async () => {
    const wasm = await WebAssembly.compile(fs.readFileSync(rel('dist', variant)));
    for (const name of fixtureNames) {
      const m = await wnn.load(fixture(name), { wasm });
      const inputs = {};
      m.inputs.forEach((info, i) => {
        const npy = parseNpy(fs.readFileSync(path.join(fixtures, `${name}.input_${i}.npy`)));
        assert.equal(npy.dtype, info.dtype);
        assert.deepEqual(npy.shape, info.shape);
        inputs[info.name] = npy.data;
      });
      const want = m.outputs.map((_, i) => parseNpy(fs.readFileSync(path.join(fixtures, `${name}.output_${i}.npy`))));
      const ex = m.createExecutor();
      for (const [k, v] of Object.entries(inputs)) assert.equal(ex.setInput(k, v), ex, 'setInput chains');
      assert.equal(ex.run(), ex, 'run chains');
      m.outputs.forEach((info, i) => {
        for (const key of [i, info.name]) {
          const out = ex.getOutput(key);
          assert.equal(out.name, info.name);
          assert.deepEqual(out.shape, info.shape);
          assert.equal(out.dtype, want[i].dtype);
          close(`${name} output ${key}`, out.data, want[i].data);
        }
      });
      const predicted = await m.predict(inputs);
      assert.deepEqual(Object.keys(predicted), m.outputs.map((o) => o.name));
      m.outputs.forEach((info, i) => close(`${name} predict ${info.name}`, predicted[info.name].data, want[i].data));
      m.dispose();
    }
  });
}

test('executor: setInput checks name, index, dtype and length before touching memory', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const m = await wnn.load(fixture('two_outputs'));
  const ex = m.createExecutor();
  const good = Float32Array.from({ length: 16 }, (_, i) => i / 4);
  ex.setInput('gpu_0/data_0', good);
  const bytesBefore = m.memory.buffer.byteLength;
  await rejects(() => ex.setInput('data_0', good), 'WNN_ERR_NOT_FOUND', /setInput: no input named "data_0" \(the model's inputs: "gpu_0\/data_0"\)/);
  await rejects(() => ex.setInput(1, good), 'WNN_ERR_OUT_OF_RANGE', /input index 1/);
  await rejects(() => ex.setInput(0, new Int32Array(16)), 'WNN_ERR_DTYPE', /"gpu_0\/data_0" is float32, which takes Float32Array; got Int32Array/);
  await rejects(() => ex.setInput(0, new Float64Array(16)), 'WNN_ERR_DTYPE', /got Float64Array/);
  await rejects(() => ex.setInput(0, Array.from(good)), 'WNN_ERR_DTYPE', /got Array/);
  await rejects(() => ex.setInput(0, new Uint8Array(64)), 'WNN_ERR_DTYPE', /got Uint8Array/);
  await rejects(() => ex.setInput(0, new Float32Array(15)), 'WNN_ERR_SIZE', /shape \[2, 8\] takes 16 elements; got 15/);
  await rejects(() => ex.setInput(0, new Float32Array(17)), 'WNN_ERR_SIZE', /got 17/);
  await rejects(() => ex.setInput(0, undefined), 'WNN_ERR_DTYPE', /got undefined/);
  assert.equal(m.memory.buffer.byteLength, bytesBefore);
  assert.deepEqual(ex.getInput(0).data, good, 'a rejected setInput left the input as it was');
  // A subarray (non-zero byteOffset) is copied from the right place.
  const big = new Float32Array(20).map((_, i) => i * 10);
  ex.setInput(0, big.subarray(4, 20));
  assert.deepEqual(ex.getInput('gpu_0/data_0').data, big.slice(4, 20));
  m.dispose();
});

test('executor: getOutput copies by default, views on request; getInput too', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const m = await wnn.load(fixture('two_outputs'));
  const ex = m.createExecutor();
  ex.setInput(0, new Float32Array(16).fill(0.25)).run();
  const copy = ex.getOutput('sigmoid_0.tmp_0');
  const view = ex.getOutput('sigmoid_0.tmp_0', { view: true });
  assert.deepEqual(view.data, copy.data);
  assert.equal(view.data.buffer, m.memory.buffer, 'a view is over wasm memory');
  assert.notEqual(copy.data.buffer, m.memory.buffer, 'a copy is not');
  const first = copy.data.slice();
  ex.setInput(0, new Float32Array(16).fill(-3)).run();
  assert.deepEqual(copy.data, first, 'a copy keeps its values after the next run');
  assert.notDeepEqual(view.data, first, 'a view shows the next run');
  assert.deepEqual(view.data, ex.getOutput(1).data);
  const inView = ex.getInput(0, { view: true });
  assert.equal(inView.data[0], -3);
  assert.deepEqual({ ...ex.getInput(0), data: null }, { name: 'gpu_0/data_0', shape: [2, 8], dtype: 'float32', data: null });
  await rejects(() => ex.getOutput('nope'), 'WNN_ERR_NOT_FOUND', /getOutput: no output named "nope"/);
  await rejects(() => ex.getOutput(2), 'WNN_ERR_OUT_OF_RANGE', /output index 2 out of range \(the model has 2 outputs\)/);
  await rejects(() => ex.getInput('nope'), 'WNN_ERR_NOT_FOUND', /getInput/);
  // Each executor owns its activations.
  const other = m.createExecutor();
  other.setInput(0, new Float32Array(16).fill(0.25)).run();
  assert.deepEqual(other.getOutput(1).data, first);
  assert.deepEqual(ex.getOutput(1).data, view.data);
  m.dispose();
});

test('predict: chosen outputs, and its errors', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const m = await wnn.load(fixture('two_outputs'));
  const x = new Float32Array(16).fill(0.5);
  const all = await m.predict({ 'gpu_0/data_0': x });
  const one = await m.predict({ 'gpu_0/data_0': x }, { outputs: ['sigmoid_0.tmp_0'] });
  assert.deepEqual(Object.keys(one), ['sigmoid_0.tmp_0']);
  assert.deepEqual(one['sigmoid_0.tmp_0'], all['sigmoid_0.tmp_0']);
  await rejects(() => m.predict({}), 'WNN_ERR_NOT_FOUND', /no value for input "gpu_0\/data_0"/);
  await rejects(() => m.predict({ 'gpu_0/data_0': x, extra: x }), 'WNN_ERR_NOT_FOUND', /no input named "extra"/);
  await rejects(() => m.predict({ 'gpu_0/data_0': x }, { outputs: ['softmax'] }), 'WNN_ERR_NOT_FOUND', /no output named "softmax"/);
  await rejects(() => m.predict({ 'gpu_0/data_0': new Int8Array(16) }), 'WNN_ERR_DTYPE', /predict/);
  await rejects(() => m.predict({ 'gpu_0/data_0': new Float32Array(1) }), 'WNN_ERR_SIZE', /predict/);
  await rejects(() => m.predict(null), 'WNN_ERR_INVALID_ARGUMENT', /inputs must be an object/);
  // Concurrent calls do not disturb each other.
  const inputs = Array.from({ length: 8 }, (_, i) => new Float32Array(16).fill(i - 4));
  const results = await Promise.all(inputs.map((v) => m.predict({ 'gpu_0/data_0': v })));
  for (let i = 0; i < inputs.length; i++) {
    const ex = m.createExecutor().setInput(0, inputs[i]).run();
    assert.deepEqual(results[i]['gpu_0/softmax_1'].data, ex.getOutput(0).data);
    ex.dispose();
  }
  m.dispose();
});

test('timeEvaluator: TVM-shaped results and argument checks', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const m = await wnn.load(fixture('mnist_like'));
  const ex = m.createExecutor();
  for (const opts of [undefined, { number: 3, repeat: 5 }, { number: 1, repeat: 3, minRepeatMs: 2 }]) {
    const r = ex.timeEvaluator(opts);
    assert.deepEqual(Object.keys(r), ['mean', 'median', 'std', 'min', 'max', 'results']);
    assert.equal(r.results.length, opts?.repeat ?? 1);
    for (const v of r.results) assert.ok(Number.isFinite(v) && v >= 0, `result ${v}`);
    assert.equal(r.min, Math.min(...r.results));
    assert.equal(r.max, Math.max(...r.results));
    assert.ok(r.min <= r.median && r.median <= r.max);
    assert.ok(r.min <= r.mean + 1e-12 && r.mean <= r.max + 1e-12);
    assert.ok(r.std >= 0);
  }
  const r = ex.timeEvaluator({ repeat: 4 });
  const mean = r.results.reduce((a, b) => a + b) / 4;
  assert.ok(Math.abs(r.mean - mean) < 1e-9);
  const sorted = [...r.results].sort((a, b) => a - b);
  assert.ok(Math.abs(r.median - (sorted[1] + sorted[2]) / 2) < 1e-9);
  await rejects(() => ex.timeEvaluator({ number: 0 }), 'WNN_ERR_INVALID_ARGUMENT', /number must be an integer >= 1, got 0/);
  await rejects(() => ex.timeEvaluator({ repeat: 1.5 }), 'WNN_ERR_INVALID_ARGUMENT', /repeat/);
  await rejects(() => ex.timeEvaluator({ minRepeatMs: -1 }), 'WNN_ERR_INVALID_ARGUMENT', /minRepeatMs/);
  await rejects(() => ex.timeEvaluator({ minRepeatMs: Infinity }), 'WNN_ERR_INVALID_ARGUMENT', /minRepeatMs must be a finite number/);
  await rejects(() => ex.timeEvaluator({ number: '3' }), 'WNN_ERR_INVALID_ARGUMENT', /number must be an integer >= 1, got string/);
  m.dispose();
});

test('profile: each node that ran, slowest first, with op, name, shape; outputs unchanged', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const m = await wnn.load(fixture('mnist_like'));
  const ex = m.createExecutor();
  const x = new Float32Array(784).map((_, i) => Math.sin(i));
  ex.setInput(0, x).run();
  const want = ex.getOutput(0).data;
  const rows = ex.profile({ runs: 3 });
  assert.ok(rows.length >= 4, `${rows.length} nodes`);
  for (const r of rows) {
    assert.deepEqual(Object.keys(r), ['node', 'op', 'name', 'shape', 'ms', 'share']);
    assert.ok(Number.isInteger(r.node) && typeof r.op === 'string' && typeof r.name === 'string');
    assert.ok(r.ms >= 0 && r.share >= 0 && r.share <= 1);
  }
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].ms >= rows[i].ms);
  assert.ok(Math.abs(rows.reduce((t, r) => t + r.share, 0) - 1) < 1e-9);
  assert.ok(rows.reduce((t, r) => t + r.ms, 0) > 0, 'the clock advanced');
  const ops = rows.map((r) => r.op);
  assert.ok(ops.includes('Conv') && ops.includes('MatMul'), ops.join());
  assert.ok(!ops.includes('Reshape'), 'an alias never runs');
  const last = rows.find((r) => r.op === 'Add' && r.shape.join() === '1,10');
  assert.ok(last, 'the output Add with its shape [1, 10]');
  assert.deepEqual(ex.getOutput(0).data, want); // profiling runs compute the same
  const t = ex.timeEvaluator({ number: 2, repeat: 2, profile: true });
  assert.deepEqual(Object.keys(t), ['mean', 'median', 'std', 'min', 'max', 'results', 'profile']);
  assert.deepEqual(t.profile.map((r) => r.node).sort(), rows.map((r) => r.node).sort());
  assert.ok(!('profile' in ex.timeEvaluator({ profile: false })));
  await rejects(() => ex.profile({ runs: 0 }), 'WNN_ERR_INVALID_ARGUMENT', /profile: runs must be an integer >= 1, got 0/);
  await rejects(() => ex.profile({ runs: '2' }), 'WNN_ERR_INVALID_ARGUMENT', /runs must be an integer >= 1, got string/);
  await rejects(() => ex.timeEvaluator({ profile: 1 }), 'WNN_ERR_INVALID_ARGUMENT', /profile must be true or false/);
  ex.dispose();
  await rejects(() => ex.profile(), 'WNN_ERR_DISPOSED', /^profile: the executor was disposed$/);
  m.dispose();
});

test('dispose: disposed objects throw WNN_ERR_DISPOSED; dispose is idempotent', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const m = await wnn.load(fixture('mnist_like'));
  const ex = m.createExecutor();
  const kept = m.createExecutor();
  ex.dispose();
  ex.dispose();
  assert.equal(ex.disposed, true);
  const x = new Float32Array(784);
  for (const [what, fn] of Object.entries({
    setInput: () => ex.setInput(0, x), run: () => ex.run(), getOutput: () => ex.getOutput(0),
    getInput: () => ex.getInput(0), timeEvaluator: () => ex.timeEvaluator(),
  })) {
    await rejects(fn, 'WNN_ERR_DISPOSED', new RegExp(`^${what}: the executor was disposed$`));
  }
  kept.setInput(0, x).run();
  m.dispose();
  m.dispose();
  assert.equal(m.disposed, true);
  assert.equal(kept.disposed, true, "disposing a model disposes its executors");
  await rejects(() => kept.run(), 'WNN_ERR_DISPOSED', /executor was disposed/);
  await rejects(() => m.createExecutor(), 'WNN_ERR_DISPOSED', /^createExecutor: the model was disposed$/);
  await rejects(() => m.predict({ Input3: x }), 'WNN_ERR_DISPOSED', /^predict: the model was disposed$/);
  assert.equal(m.inputs[0].name, 'Input3', 'descriptions stay readable');
  if (typeof Symbol.dispose === 'symbol') assert.equal(m[Symbol.dispose], m.dispose);
});

// ------------------------------------------ hostile arguments (issue 18, item 5)
//
// A caller's object can run code when wnn reads it: a getter (a TypedArray
// subclass's `length`), a Proxy trap, a valueOf. Such code can dispose the
// executor or its model; the freed arena is then reused by another model's
// executor. wnn reads every argument before it checks that the executor is
// alive, and reads typed arrays through the built-in getters, so nothing it
// writes or reads can land in memory another executor owns.

// Two models in one wasm instance (the same artifact, mnist_like: the
// allocator gives the second model's next executor memory that overlaps the
// input of the first one's, freed) and an executor of the first. hijack() is
// what a hostile getter does: dispose the first model, create an executor of
// the second and set its input to -1s. victimUntouched() checks that
// executor's input afterwards.
const N = 784; // mnist_like's input, Input3 [1, 1, 28, 28]
async function hijackSetup() {
  const wasm = await WebAssembly.compile(fs.readFileSync(rel('dist/wnn.wasm')));
  const a = await wnn.load(fixture('mnist_like'), { wasm });
  const b = await wnn.load(fixture('mnist_like'), { wasm });
  const s = { a, b, exA: a.createExecutor(), exB: null, calls: 0 };
  const minusOnes = new Float32Array(N).fill(-1);
  s.hijack = () => {
    s.calls++;
    if (s.exB) return;
    a.dispose();
    s.exB = b.createExecutor().setInput(0, minusOnes);
  };
  s.victimUntouched = () => {
    if (!s.exB) return;
    assert.deepEqual(s.exB.getInput(0).data, minusOnes, "another model's executor was written through a disposed one");
  };
  s.done = () => { a.dispose(); b.dispose(); };
  return s;
}

// Runs fn and returns what it threw (or undefined).
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

const filled = (v, n = N) => new Float32Array(n).fill(v);

test('hostile: setInput reads a typed array through the built-in getters, never its own length/buffer/byteOffset', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const s = await hijackSetup();
  // A subclass whose length getter disposes the model (and so the executor).
  class Disposing extends Float32Array {
    get length() { s.hijack(); return super.length; }
  }
  const e = thrown(() => s.exA.setInput(0, new Disposing(N).fill(7)));
  s.victimUntouched();
  assert.equal(s.calls, 0, 'setInput called the overridden length getter');
  assert.equal(e, undefined, `setInput threw ${e}`);
  assert.deepEqual(s.exA.getInput(0).data, filled(7));
  // The same getter defined on an instance.
  const own = filled(3);
  Object.defineProperty(own, 'length', { get() { s.hijack(); return N; } });
  s.exA.setInput(0, own);
  s.victimUntouched();
  assert.equal(s.calls, 0);
  assert.deepEqual(s.exA.getInput(0).data, filled(3));
  // An array-like object whose length getter disposes: not a typed array, refused unread.
  const arrayLike = { get length() { s.hijack(); return N; }, buffer: new ArrayBuffer(N * 4), byteOffset: 0 };
  await rejects(() => s.exA.setInput(0, arrayLike), 'WNN_ERR_DTYPE', /takes Float32Array; got Object/);
  s.victimUntouched();
  assert.equal(s.calls, 0);
  // buffer and byteOffset that lie (pointing at another executor's memory)
  // are not believed: the array's own elements are copied.
  const other = s.b.createExecutor().setInput(0, filled(42));
  const otherAt = other.getInput(0, { view: true }).data.byteOffset;
  class Lying extends Float32Array {
    get buffer() { return s.b.memory.buffer; }
    get byteOffset() { return otherAt; }
  }
  s.exA.setInput(0, new Lying(N).fill(5));
  assert.deepEqual(s.exA.getInput(0).data, filled(5), 'copied from where buffer/byteOffset claimed');
  // A lying length makes a wrong-sized array neither fit nor a right one misfit.
  class Long extends Float32Array { get length() { return N; } }
  await rejects(() => s.exA.setInput(0, new Long(N - 1)), 'WNN_ERR_SIZE', new RegExp(`takes ${N} elements; got ${N - 1}`));
  class Short extends Float32Array { get length() { return 3; } }
  s.exA.setInput(0, new Short(N).fill(1));
  assert.deepEqual(s.exA.getInput(0).data, filled(1));
  s.done();
});

test('hostile: a Proxy, a shape or an options object whose code disposes gets WNN_ERR_DISPOSED, never a write or read of freed memory', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  // A Proxy of a Float32Array whose traps dispose: not a typed array.
  let s = await hijackSetup();
  const proxy = new Proxy(filled(9), {
    get(target, key) { s.hijack(); const v = Reflect.get(target, key); return typeof v === 'function' ? v.bind(target) : v; },
    getPrototypeOf(target) { s.hijack(); return Reflect.getPrototypeOf(target); },
  });
  let e = thrown(() => s.exA.setInput(0, proxy));
  s.victimUntouched();
  assert.ok(e instanceof wnn.WnnError, `setInput(proxy) threw ${e}`);
  assert.ok(['WNN_ERR_DISPOSED', 'WNN_ERR_DTYPE'].includes(e.code), e.message);
  s.done();
  // A live executor gets the DTYPE error saying what it got.
  s = await hijackSetup();
  await rejects(() => s.exA.setInput(0, new Proxy(filled(0), {})), 'WNN_ERR_DTYPE', /takes Float32Array; got a Float32Array look-alike, not a TypedArray/);
  s.done();

  // A shape whose element getter disposes: read first, so the executor is
  // found disposed before anything is copied.
  s = await hijackSetup();
  const shape = new Proxy([1, 1, 28, 28], { get(target, key) { if (key === '0') s.hijack(); return Reflect.get(target, key); } });
  e = thrown(() => s.exA.setInput(0, filled(8), shape));
  s.victimUntouched();
  assert.equal(s.calls, 1, 'the shape was read once');
  assert.ok(e instanceof wnn.WnnError && e.code === 'WNN_ERR_DISPOSED', `setInput with a disposing shape: ${e}`);
  assert.match(e.message, /^setInput: the executor was disposed$/);
  s.done();

  // getOutput / getInput options whose `view` getter disposes: read before
  // the pointer is used, so another executor's data is not handed out.
  for (const method of ['getOutput', 'getInput']) {
    s = await hijackSetup();
    s.exA.setInput(0, filled(0.5)).run();
    const options = { get view() { s.hijack(); s.exB.run(); return false; } };
    e = thrown(() => s.exA[method](0, options));
    assert.ok(e instanceof wnn.WnnError && e.code === 'WNN_ERR_DISPOSED', `${method} with a disposing option returned ${e ?? 'data'}`);
    s.done();
  }

  // timeEvaluator: a minRepeatMs whose valueOf disposes is refused uncoerced
  // (it used to be coerced after the liveness check, then the freed executor run).
  s = await hijackSetup();
  const sneaky = { valueOf() { s.hijack(); return 0; } };
  await rejects(() => s.exA.timeEvaluator({ minRepeatMs: sneaky }), 'WNN_ERR_INVALID_ARGUMENT', /minRepeatMs must be a finite number >= 0/);
  await rejects(() => s.exA.timeEvaluator({ number: sneaky }), 'WNN_ERR_INVALID_ARGUMENT', /number must be an integer/);
  assert.equal(s.calls, 0);
  assert.equal(s.exA.disposed, false);
  // Options getters run once, before the liveness check.
  const timing = { get number() { s.hijack(); return 1; } };
  await rejects(() => s.exA.timeEvaluator(timing), 'WNN_ERR_DISPOSED', /^timeEvaluator: the executor was disposed$/);
  s.victimUntouched();
  s.done();

  // An index or name is never coerced: an object with valueOf/toString is refused as it is.
  s = await hijackSetup();
  const key = { valueOf() { s.hijack(); return 0; }, toString() { s.hijack(); return 'Input3'; } };
  await rejects(() => s.exA.setInput(key, filled(0)), 'WNN_ERR_INVALID_ARGUMENT', /input must be a name or an index, got Object/);
  await rejects(() => s.exA.getOutput(key), 'WNN_ERR_INVALID_ARGUMENT', /output must be a name or an index/);
  assert.equal(s.calls, 0);
  s.done();
});

test('hostile: predict reads each input once; load reads bytes through the built-in getters; dispose cannot be skipped', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  let s = await hijackSetup();
  // An input getter is read exactly once (it used to be read a second time,
  // after predict had checked the model alive and made its executor).
  let reads = 0;
  class Disposing extends Float32Array {
    get length() { s.hijack(); return super.length; }
  }
  const inputs = { get Input3() { reads++; return reads === 1 ? filled(0.5) : new Disposing(N); } };
  const e = await s.a.predict(inputs).then(() => undefined, (err) => err);
  s.victimUntouched();
  assert.equal(reads, 1, 'predict read the input getter more than once');
  assert.equal(e, undefined, `predict threw ${e}`);
  // A getter that disposes the model: WNN_ERR_DISPOSED.
  const disposing = { get Input3() { s.hijack(); return filled(0); } };
  await rejects(() => s.a.predict(disposing), 'WNN_ERR_DISPOSED', /^predict: the model was disposed$/);
  s.victimUntouched();
  s.done();
  // options.outputs is read once, before the liveness check.
  s = await hijackSetup();
  await rejects(() => s.a.predict({ Input3: filled(0) }, { get outputs() { s.hijack(); return [0]; } }), 'WNN_ERR_DISPOSED');
  s.victimUntouched();
  s.done();

  // load: a Uint8Array whose length lies (short) used to size the allocation
  // but not the copy: a heap overflow in wasm memory.
  const good = fixture('mnist_like');
  const keep = await wnn.load(good);
  const x = filled(0.25);
  const before = (await keep.predict({ Input3: x })).Plus214_Output_0.data;
  class ShortBytes extends Uint8Array { get length() { return 16; } get byteLength() { return 16; } }
  const lying = new ShortBytes(good.length);
  lying.set(good);
  const m = await wnn.load(lying);
  assert.deepEqual(m.inputs, keep.inputs, 'the whole artifact was read');
  assert.deepEqual((await keep.predict({ Input3: x })).Plus214_Output_0.data, before, 'another model in the instance is intact');
  m.dispose();
  // A DataView at an offset is read exactly.
  const padded = new Uint8Array(good.length + 8);
  padded.set(good, 8);
  (await wnn.load(new DataView(padded.buffer, 8, good.length))).dispose();
  // load options: read once, validated without coercion.
  await rejects(() => wnn.load(good, { kernels: 'toString' }), 'WNN_ERR_INVALID_ARGUMENT', /options.kernels: "toString"/);
  await rejects(() => wnn.load(good, { kernels: { toString: () => 'auto' } }), 'WNN_ERR_INVALID_ARGUMENT', /options.kernels: Object/);
  await rejects(() => wnn.load(good, { onProgress: 42 }), 'WNN_ERR_INVALID_ARGUMENT', /onProgress/);
  let optionReads = 0;
  (await wnn.load(good, { get kernels() { optionReads++; return 'scalar'; } })).dispose();
  assert.equal(optionReads, 1);
  keep.dispose();

  // Disposing a model disposes its executors even if a caller replaced their dispose().
  const model = await wnn.load(good);
  const stubborn = model.createExecutor();
  // The hostile caller's override under test (not a placeholder): a dispose()
  // that does nothing. model.dispose() must free the executor without calling it.
  stubborn.dispose = function noOpDisposeOverride() {};
  model.dispose();
  assert.equal(stubborn.disposed, true, "the model's dispose went through the executor's replaceable dispose()");
  await rejects(() => stubborn.run(), 'WNN_ERR_DISPOSED');
});

test('setInput(name, data, shape) and predict({name: {data, shape}}) check the shape exactly', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const m = await wnn.load(fixture('two_outputs'));
  const ex = m.createExecutor();
  const x = Float32Array.from({ length: 16 }, (_, i) => i / 8);
  assert.equal(ex.setInput('gpu_0/data_0', x, [2, 8]), ex);
  ex.setInput(0, x, m.inputs[0].shape); // the frozen shape of the model's own description
  ex.setInput(0, x, Int32Array.from([2, 8]));
  ex.setInput(0, x, undefined);
  ex.setInput(0, x, null);
  const kept = ex.getInput(0).data;
  // Same element count, other shape: WNN_ERR_SHAPE naming the input, the expected and the given shape.
  for (const shape of [[16], [8, 2], [1, 2, 8], [2, 8, 1], []]) {
    const e = await rejects(() => ex.setInput(0, new Float32Array(16).fill(1), shape), 'WNN_ERR_SHAPE',
      new RegExp(`^setInput: input "gpu_0/data_0" has shape \\[2, 8\\]; got shape \\[${shape.join(', ')}\\]$`));
    assert.equal(e.status, 16, 'WNN_ERR_SHAPE is status 16 in include/wnn.h');
  }
  // The right shape with the wrong element count is a size error.
  await rejects(() => ex.setInput(0, new Float32Array(15), [2, 8]), 'WNN_ERR_SIZE', /takes 16 elements; got 15/);
  // Not a shape.
  for (const bad of ['2,8', [2, '8'], [2, -8], [2, 8.5], [2, NaN], [2n, 8n], { 0: 2, 1: 8, length: 2 }, new Array(1000).fill(1)]) {
    await rejects(() => ex.setInput(0, x, bad), 'WNN_ERR_INVALID_ARGUMENT', /setInput: shape must be an array of non-negative integers/);
  }
  assert.deepEqual(ex.getInput(0).data, kept, 'rejected calls left the input as it was');
  // Without a shape only the element count is checked (as before).
  ex.setInput(0, new Float32Array(16));
  // predict: a TypedArray, or {data, shape}.
  const plain = await m.predict({ 'gpu_0/data_0': x });
  const shaped = await m.predict({ 'gpu_0/data_0': { data: x, shape: [2, 8] } });
  assert.deepEqual(shaped, plain);
  assert.deepEqual(await m.predict({ 'gpu_0/data_0': { data: x } }), plain, 'the shape is optional');
  await rejects(() => m.predict({ 'gpu_0/data_0': { data: x, shape: [16] } }), 'WNN_ERR_SHAPE', /^predict: input "gpu_0\/data_0" has shape \[2, 8\]; got shape \[16\]$/);
  await rejects(() => m.predict({ 'gpu_0/data_0': { data: new Int32Array(16), shape: [2, 8] } }), 'WNN_ERR_DTYPE', /got Int32Array/);
  await rejects(() => m.predict({ 'gpu_0/data_0': { shape: [2, 8] } }), 'WNN_ERR_DTYPE', /got undefined/);
  await rejects(() => m.predict({ 'gpu_0/data_0': { data: x, shape: 'x' } }), 'WNN_ERR_INVALID_ARGUMENT', /predict: shape must be/);
  await rejects(() => m.predict({ 'gpu_0/data_0': Array.from(x) }), 'WNN_ERR_DTYPE', /got Array/);
  await rejects(() => m.predict({ 'gpu_0/data_0': new DataView(x.buffer) }), 'WNN_ERR_DTYPE', /got DataView/);
  assert.deepEqual(Object.keys(await m.predict({ 'gpu_0/data_0': x }, { outputs: [1] })), ['sigmoid_0.tmp_0'], 'outputs by index');
  m.dispose();
});

test('many models in one instance, chained by name', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const wasm = await WebAssembly.compile(fs.readFileSync(rel('dist/wnn.wasm')));
  const models = await Promise.all(fixtureNames.map((n) => wnn.load(fixture(n), { wasm })));
  assert.ok(models.every((m) => m.memory === models[0].memory));
  const byName = Object.fromEntries(models.map((m) => [m.metadata.name, m]));
  // One executor's output (by name) feeds another's input (by name): the
  // 12 values of two_outputs's softmax, zero-padded to its 16 inputs.
  const first = byName.two_outputs.createExecutor();
  const second = byName.two_outputs.createExecutor();
  first.setInput('gpu_0/data_0', new Float32Array(16).fill(1)).run();
  const mid = new Float32Array(16);
  mid.set(first.getOutput('gpu_0/softmax_1').data);
  second.setInput('gpu_0/data_0', mid).run();
  const direct = await byName.two_outputs.predict({ 'gpu_0/data_0': mid });
  assert.deepEqual(second.getOutput('sigmoid_0.tmp_0').data, direct['sigmoid_0.tmp_0'].data);
  // Interleaved use of all models in one instance, then disposal in any order.
  const x = new Float32Array(784).fill(0.1);
  const a = await byName.mnist_like.predict({ Input3: x });
  for (const m of models) if (m !== byName.mnist_like) m.dispose();
  const b = await byName.mnist_like.predict({ Input3: x });
  assert.deepEqual(a, b);
  byName.mnist_like.dispose();
});

test('1,000 load/dispose cycles do not grow wasm memory', { skip: !haveFixtures && NO_FIXTURES }, async () => {
  const wasm = await WebAssembly.compile(fs.readFileSync(rel('dist/wnn.wasm')));
  const bytes = fixture('mnist_like');
  const x = new Float32Array(784).fill(0.5);
  let afterWarmup = 0;
  for (let i = 0; i < 1000; i++) {
    const m = await wnn.load(bytes, { wasm });
    const ex = m.createExecutor();
    ex.setInput(0, x).run();
    ex.getOutput(0);
    if (i % 2) await m.predict({ Input3: x });
    m.dispose();
    if (i === 9) afterWarmup = m.memory.buffer.byteLength;
    if (i === 999) assert.equal(m.memory.buffer.byteLength, afterWarmup, 'memory grew after 10 cycles');
  }
  // Several models alive at once, then all freed, repeatedly: bounded too.
  let peak = 0;
  for (let round = 0; round < 50; round++) {
    const ms = await Promise.all(Array.from({ length: 8 }, () => wnn.load(bytes, { wasm })));
    ms.forEach((m) => m.createExecutor().setInput(0, x).run());
    peak = round === 5 ? ms[0].memory.buffer.byteLength : peak;
    if (round > 5) assert.equal(ms[0].memory.buffer.byteLength, peak, `round ${round}: memory grew`);
    ms.forEach((m) => m.dispose());
  }
});

// ------------------------------------------- artifacts written here (format 1.0)

// CRC-32 (zlib/IEEE), for the header and section checksums.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(...parts) {
  let c = 0xffffffff;
  for (const bytes of parts) for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A .wnn artifact (docs/format.md) with a GRAPH and a METADATA section and no
// weights, from their JSON objects.
function artifact(graph, metadata) {
  const sections = [[1, new TextEncoder().encode(JSON.stringify(graph))], [3, new TextEncoder().encode(JSON.stringify(metadata))]];
  const align = (n) => Math.ceil(n / 64) * 64;
  let at = align(64 + 40 * sections.length);
  const placed = sections.map(([kind, bytes]) => { const p = { kind, bytes, offset: at }; at = align(at + bytes.length); return p; });
  const buf = new Uint8Array(at);
  const dv = new DataView(buf.buffer);
  buf.set([0x89, 0x57, 0x4e, 0x4e, 0x0d, 0x0a, 0x1a, 0x0a]);
  dv.setUint16(8, 1, true);
  dv.setUint16(10, 0, true);
  dv.setUint32(12, 64, true);
  dv.setBigUint64(16, BigInt(buf.length), true);
  dv.setUint32(40, sections.length, true);
  dv.setUint32(44, 40, true);
  placed.forEach(({ kind, bytes, offset }, i) => {
    const e = 64 + 40 * i;
    dv.setUint32(e, kind, true);
    dv.setBigUint64(e + 8, BigInt(offset), true);
    dv.setBigUint64(e + 16, BigInt(bytes.length), true);
    dv.setBigUint64(e + 24, BigInt(bytes.length), true);
    dv.setUint32(e + 32, crc32(bytes), true);
    dv.setUint32(e + 36, 1, true); // REQUIRED
    buf.set(bytes, offset);
  });
  dv.setUint32(48, crc32(buf.subarray(0, 48), buf.subarray(64, 64 + 40 * sections.length)), true);
  return buf;
}

// Every dtype the JS API maps to a TypedArray, through ops that take any
// dtype (Add for int64/int32, Transpose and Concat for the rest).
const DTYPES_GRAPH = {
  values: [
    { name: 'a', kind: 'input', dtype: 'int64', shape: [2, 3], offset: 0 },
    { name: 'b', kind: 'input', dtype: 'int64', shape: [2, 3], offset: 64 },
    { name: 'sum', kind: 'arena', dtype: 'int64', shape: [2, 3], offset: 128 },
    { name: 'n', kind: 'input', dtype: 'int32', shape: [4], offset: 192 },
    { name: 'twice', kind: 'arena', dtype: 'int32', shape: [4], offset: 256 },
    { name: 'flags', kind: 'input', dtype: 'bool', shape: [1, 5], offset: 320 },
    { name: 'flags_t', kind: 'arena', dtype: 'bool', shape: [5, 1], offset: 384 },
    { name: 'pixels', kind: 'input', dtype: 'uint8', shape: [2, 2], offset: 448 },
    { name: 'pixels_t', kind: 'arena', dtype: 'uint8', shape: [2, 2], offset: 512 },
    { name: 'small', kind: 'input', dtype: 'int8', shape: [3], offset: 576 },
    { name: 'small_2', kind: 'arena', dtype: 'int8', shape: [6], offset: 640 },
  ],
  inputs: [0, 1, 3, 5, 7, 9],
  outputs: [2, 4, 6, 8, 10],
  nodes: [
    { op: 4, name: 'add', inputs: [0, 1], outputs: [2], attrs: {} },
    { op: 4, name: 'double', inputs: [3, 3], outputs: [4], attrs: {} },
    { op: 16, name: 't1', inputs: [5], outputs: [6], attrs: { perm: [1, 0] } },
    { op: 16, name: 't2', inputs: [7], outputs: [8], attrs: { perm: [1, 0] } },
    { op: 17, name: 'cat', inputs: [9, 9], outputs: [10], attrs: { axis: 0 } },
  ],
  arena_bytes: 704,
};
const DTYPES_META = { format_version: '1.0', name: 'dtypes', producer: 'tests/js/api.test.mjs' };

test('an artifact written here: int64, int32, bool, uint8 and int8 tensors', async () => {
  const m = await wnn.load(artifact(DTYPES_GRAPH, DTYPES_META));
  assert.deepEqual(m.inputs.map((i) => [i.name, i.dtype]),
    [['a', 'int64'], ['b', 'int64'], ['n', 'int32'], ['flags', 'bool'], ['pixels', 'uint8'], ['small', 'int8']]);
  assert.equal(m.numParams, 0);
  assert.equal(m.metadata.producer, 'tests/js/api.test.mjs');
  const inputs = {
    a: BigInt64Array.from([1n, -2n, 3n, 2n ** 40n, 5n, -(2n ** 62n)]),
    b: BigInt64Array.from([10n, 20n, 30n, 1n, 50n, 1n]),
    n: Int32Array.from([1, -7, 2 ** 30 - 1, 0]),
    flags: Uint8Array.from([1, 0, 0, 1, 1]),
    pixels: Uint8Array.from([0, 255, 128, 7]),
    small: Int8Array.from([-128, 0, 127]),
  };
  const ex = m.createExecutor();
  for (const [k, v] of Object.entries(inputs)) ex.setInput(k, v);
  ex.run();
  const sum = ex.getOutput('sum');
  assert.equal(sum.dtype, 'int64');
  assert.ok(sum.data instanceof BigInt64Array);
  assert.deepEqual(sum.data, BigInt64Array.from([11n, 18n, 33n, 2n ** 40n + 1n, 55n, -(2n ** 62n) + 1n]));
  assert.ok(ex.getOutput('sum', { view: true }).data instanceof BigInt64Array);
  assert.deepEqual(ex.getOutput('twice').data, Int32Array.from([2, -14, 2 ** 31 - 2, 0]));
  const flags = ex.getOutput('flags_t');
  assert.equal(flags.dtype, 'bool');
  assert.deepEqual(flags.shape, [5, 1]);
  assert.deepEqual(flags.data, Uint8Array.from([1, 0, 0, 1, 1]));
  assert.deepEqual(ex.getOutput('pixels_t').data, Uint8Array.from([0, 128, 255, 7]));
  assert.deepEqual(ex.getOutput('small_2').data, Int8Array.from([-128, 0, 127, -128, 0, 127]));
  assert.deepEqual(ex.getInput('a').data, inputs.a);
  // Each dtype takes exactly its TypedArray.
  await rejects(() => ex.setInput('a', new Float32Array(6)), 'WNN_ERR_DTYPE', /"a" is int64, which takes BigInt64Array; got Float32Array/);
  await rejects(() => ex.setInput('a', new BigUint64Array(6)), 'WNN_ERR_DTYPE', /got BigUint64Array/);
  await rejects(() => ex.setInput('n', new Uint32Array(4)), 'WNN_ERR_DTYPE', /"n" is int32, which takes Int32Array; got Uint32Array/);
  await rejects(() => ex.setInput('flags', new Int8Array(5)), 'WNN_ERR_DTYPE', /bool, which takes Uint8Array/);
  await rejects(() => ex.setInput('small', new Uint8Array(3)), 'WNN_ERR_DTYPE', /int8, which takes Int8Array/);
  await rejects(() => ex.setInput('pixels', new Uint8ClampedArray(4)), 'WNN_ERR_DTYPE', /got Uint8ClampedArray/);
  const predicted = await m.predict(inputs, { outputs: ['small_2', 'sum'] });
  assert.deepEqual(Object.keys(predicted), ['small_2', 'sum']);
  assert.deepEqual(predicted.sum.data, sum.data);
  m.dispose();
});

test('artifacts the C loader rejects: its status and message come through', async () => {
  const cases = [
    ['an unknown op', { ...DTYPES_GRAPH, nodes: [{ ...DTYPES_GRAPH.nodes[0], op: 999 }, ...DTYPES_GRAPH.nodes.slice(1)] }, 'WNN_ERR_UNKNOWN_OP', /999/],
    ['an unknown attribute', { ...DTYPES_GRAPH, nodes: [...DTYPES_GRAPH.nodes.slice(0, 4), { ...DTYPES_GRAPH.nodes[4], attrs: { axis: 0, colour: 1 } }] }, 'WNN_ERR_BAD_ATTRIBUTE', /colour/],
    ['overlapping live values', { ...DTYPES_GRAPH, values: DTYPES_GRAPH.values.map((v, i) => (i === 1 ? { ...v, offset: 0 } : v)) }, 'WNN_ERR_BAD_PLAN', /./],
    ['a recorded shape that is wrong', { ...DTYPES_GRAPH, values: DTYPES_GRAPH.values.map((v, i) => (i === 2 ? { ...v, shape: [3, 2] } : v)) }, 'WNN_ERR_MALFORMED', /./],
  ];
  for (const [what, graph, code, pattern] of cases) {
    const e = await rejects(() => wnn.load(artifact(graph, DTYPES_META)), code, pattern);
    assert.match(e.message, /^loading the model: ./, what);
  }
  const notJson = artifact(DTYPES_GRAPH, DTYPES_META);
  await rejects(() => wnn.load(notJson.subarray(0, 100)), 'WNN_ERR_TRUNCATED');
});

test('a run-time failure in C (Gather index out of range) surfaces with its message', async (t) => {
  const graph = {
    values: [
      { name: 'data', kind: 'input', dtype: 'float32', shape: [4], offset: 0 },
      { name: 'indices', kind: 'input', dtype: 'int64', shape: [2], offset: 64 },
      { name: 'picked', kind: 'arena', dtype: 'float32', shape: [2], offset: 128 },
    ],
    inputs: [0, 1],
    outputs: [2],
    nodes: [{ op: 87, name: 'pick', inputs: [0, 1], outputs: [2], attrs: { axis: 0 } }],
    arena_bytes: 192,
  };
  let m;
  try {
    m = await wnn.load(artifact(graph, { format_version: '1.0', name: 'gather' }));
  } catch (e) {
    if (e.code === 'WNN_ERR_UNKNOWN_OP') return t.skip(`dist/wnn.wasm has no Gather (op 87) yet: ${e.message}`);
    throw e;
  }
  const ex = m.createExecutor();
  const data = Float32Array.from([10, 20, 30, 40]);
  ex.setInput('data', data).setInput('indices', BigInt64Array.from([3n, -4n])).run();
  assert.deepEqual(ex.getOutput('picked').data, Float32Array.from([40, 10]), 'negative indices wrap');
  ex.setInput('indices', BigInt64Array.from([1n, 9n]));
  const e = await rejects(() => ex.run(), 'WNN_ERR_OUT_OF_RANGE', /^run: .*\b9\b/);
  assert.equal(e.status, 14);
  await rejects(() => ex.timeEvaluator(), 'WNN_ERR_OUT_OF_RANGE', /^timeEvaluator: .*\b9\b/);
  await rejects(() => m.predict({ data, indices: BigInt64Array.from([-5n, 0n]) }), 'WNN_ERR_OUT_OF_RANGE', /-5/);
  // The executor still works after the failure.
  ex.setInput('indices', BigInt64Array.from([2n, 2n])).run();
  assert.deepEqual(ex.getOutput(0).data, Float32Array.from([30, 30]));
  m.dispose();
});

// ------------------------------------------------- real ONNX models (convert)

const cli = rel('build/native/wnn');
const hasConvert = fs.existsSync(cli) && /\bconvert\b/.test(spawnSync(cli, ['help'], { encoding: 'utf8' }).stdout ?? '');
const modelsDir = path.resolve(root, '../shared/models');
// Small real models with test data: mnist (trained weights), ultraface
// (trained weights), squeezenet (real topology, constant weights).
const REAL_MODELS = ['mnist', 'ultraface_rfb320', 'light_squeezenet'];

test('real ONNX models converted with `wnn convert` match their test data', {
  skip: !hasConvert ? 'build/native/wnn has no convert command yet' : !fs.existsSync(modelsDir) && `no ${modelsDir}`,
}, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-js-convert-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const name of REAL_MODELS.filter((n) => fs.existsSync(path.join(modelsDir, n, 'model.onnx')))) {
    await t.test(name, async (st) => {
      const out = path.join(dir, `${name}.wnn`);
      const r = spawnSync(cli, ['convert', path.join(modelsDir, name, 'model.onnx'), '-o', out], { encoding: 'utf8' });
      if (r.status === 3) { st.skip(`unsupported by the importer: ${(r.stderr || r.stdout).trim().split('\n')[0]}`); return; }
      assert.equal(r.status, 0, `convert: ${r.stderr}`);
      const data = path.join(modelsDir, name, 'test_data_set_0');
      const m = await wnn.load(out);
      try {
        const inputs = {};
        m.inputs.forEach((info, i) => {
          const t = parseTensorProto(fs.readFileSync(path.join(data, `input_${i}.pb`)));
          inputs[info.name] = t.data;
        });
        const got = await m.predict(inputs);
        m.outputs.forEach((info, i) => {
          const file = path.join(data, `output_${i}.pb`);
          if (!fs.existsSync(file)) return;
          const want = parseTensorProto(fs.readFileSync(file));
          close(`${name} ${info.name}`, got[info.name].data, want.data, 1e-3, 1e-5);
        });
      } finally {
        m.dispose();
      }
    });
  }
});
