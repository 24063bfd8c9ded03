// Current ONNX (issue 15): the opset-23/24 transformer ops (Attention,
// RMSNormalization, RotaryEmbedding, Swish), the opset 22-24 headers and
// attributes, and float64 at the boundary: the cases of
// tests/onnx24/make_cases.py (made at test time: every attribute the
// ops define, 3-D and 4-D layouts, GQA, masks, past and present, float16),
// whose expected outputs are numpy references written from the operators'
// definitions. Each case checks
//   1. onnxruntime-node agrees with the reference (so the reference reads the
//      spec as onnxruntime does),
//   2. wnn converts it natively and under WASI (dist/wnn-convert.wasm, the
//      same artifact), and runs it natively (build/native/wnn) and under WASI
//      (dist/wnn-wasi.wasm) within the tolerance, with the model's dtypes.
//
// Skips (saying why) when /usr/bin/python3 with onnx and numpy, the native
// CLI with the importer, or onnxruntime-node is missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  ROOT, nativeCli, wasiCli, pythonModels, seededFloats, runCase, readTensorProto, readNpy, compareTensors, readOnnxModel,
} from '../conformance/lib.mjs';

// float32 against a float64 reference; float16 (onnxruntime computes in
// float16, wnn inside in float32) within a few float16 steps.
const RTOL = 1e-3;
const ATOL = 1e-4;
const tolerance = (dtype) => (dtype === 'float16' ? [1e-2, 2e-3] : [RTOL, ATOL]);
const native = nativeCli(path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native'));

let tmp = null;
let skipReason = null;
let ort = null;
let cases = [];

before(async () => {
  ({ tmp, ort, skipReason } = await pythonModels('tests/onnx24/make_cases.py', native, 'wnn-onnx24-test-'));
  if (!skipReason) cases = JSON.parse(fs.readFileSync(path.join(tmp, 'cases.json'), 'utf8'));
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const ORT_TYPES = { float32: 'float32', float16: 'float16', float64: 'float64', int64: 'int64', bool: 'bool' };

function ortTensor(t) {
  return new ort.Tensor(ORT_TYPES[t.dtype], t.data, t.dims);
}

test('the transformer cases are made', (t) => {
  if (skipReason) return t.skip(skipReason);
  assert.ok(cases.length >= 25, `${cases.length} cases`);
});

// One subtest per case (the list is known once before() ran).
test('each case: onnxruntime-node and wnn (native, WASI) match the reference', async (t) => {
  if (skipReason) return t.skip(skipReason);
  for (const c of cases) await t.test(`${c.name} (opset ${c.opset}, ${c.op})`, (st) => checkCase(st, c.name));
});

async function checkCase(t, name) {
  const dir = path.join(tmp, name);
  assert.ok(fs.existsSync(path.join(dir, 'model.onnx')), `case ${name} was made`);
  const model = readOnnxModel(path.join(dir, 'model.onnx'));
  const data = path.join(dir, 'test_data_set_0');
  const feeds = {};
  model.inputs.forEach((v, i) => { feeds[v.name] = ortTensor(readTensorProto(path.join(data, `input_${i}.pb`))); });
  const c = cases.find((x) => x.name === name);
  if (c.ort !== true) {
    t.diagnostic(`onnxruntime-node not compared: ${c.ort}`);
  } else {
    await checkOrt(name, dir, model, feeds, data);
  }
  await checkWnn(t, name, dir, model, data);
}

async function checkOrt(name, dir, model, feeds, data) {
  const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'), { intraOpNumThreads: 1, interOpNumThreads: 1 });
  const got = await session.run(feeds);
  model.outputs.forEach((v, i) => {
    const want = readTensorProto(path.join(data, `output_${i}.pb`));
    const o = got[v.name];
    const c = compareTensors({ dtype: o.type, dims: [...o.dims], data: o.data }, want, ...tolerance(want.dtype));
    assert.ok(c.ok, `${name}: onnxruntime-node's '${v.name}' against the reference: ${c.why}`);
  });
}

async function checkWnn(t, name, dir, model, data) {
  const half = readTensorProto(path.join(data, 'output_0.pb')).dtype === 'float16';
  const [rtol, atol] = tolerance(half ? 'float16' : 'float32');
  // wnn, natively (converting) and under WASI (the same artifact, converted there too).
  const work = path.join(tmp, `${name}.work`);
  const r = await runCase({ caseDir: dir, native, workDir: work, rtol, atol, timeoutMs: 60000 });
  assert.equal(r.status, 'pass', `${name} natively: ${r.reason}`);
  const artifact = path.join(work, 'model.wnn');
  checkDtypes(name, model, path.join(work, `out-${native.name}`), data);
  const convert = wasiCli(path.join(ROOT, 'dist/wnn-convert.wasm'), [tmp]);
  if (convert.available()) {
    const wout = path.join(work, 'wasi.wnn');
    const w = await convert.exec(['convert', path.join(dir, 'model.onnx'), '-o', wout], { timeoutMs: 120000 });
    assert.equal(w.status, 0, `dist/wnn-convert.wasm convert: ${w.stderr}`);
    assert.ok(fs.readFileSync(wout).equals(fs.readFileSync(artifact)), `${name}: the same artifact natively and under WASI`);
  } else {
    t.diagnostic('dist/wnn-convert.wasm is not built: WASI conversion not checked');
  }
  const wasi = wasiCli(path.join(ROOT, 'dist/wnn-wasi.wasm'), [tmp]);
  if (!wasi.available()) return void t.diagnostic('dist/wnn-wasi.wasm is not built: the WASI run is not checked');
  const rw = await runCase({ caseDir: dir, native, cli: wasi, workDir: work, rtol, atol, timeoutMs: 120000, artifact });
  assert.equal(rw.status, 'pass', `${name} under WASI: ${rw.reason}`);
}

// Outputs keep the model's dtypes (float16 stays float16).
function checkDtypes(name, model, outDir, data) {
  model.outputs.forEach((v, i) => {
    const want = readTensorProto(path.join(data, `output_${i}.pb`));
    const got = readNpy(path.join(outDir, `output_${i}.npy`));
    assert.equal(got.dtype, want.dtype, `${name}: output '${v.name}' dtype`);
  });
}


// The rewrites follow run-time shapes: a decoder block (RMSNormalization,
// RotaryEmbedding, causal GQA Attention with a past, Swish) converted with its
// sequence and past lengths dynamic, run by one wnn model at several lengths
// (a past of 0 keys too) against onnxruntime-node.
test('a decoder block with dynamic sequence and past lengths matches onnxruntime-node at each length', async (t) => {
  if (skipReason) return t.skip(skipReason);
  const onnxFile = path.join(tmp, 'decoder_block.onnx');
  const out = path.join(tmp, 'decoder_block.wnn');
  const c = await native.exec(['convert', onnxFile, '-o', out], { timeoutMs: 60000 });
  assert.equal(c.status, 0, `wnn convert: ${c.stderr}`);
  const { load } = await import('../../js/wnn.js');
  const model = await load(fs.readFileSync(out), { wasm: path.join(ROOT, 'dist/wnn.wasm') });
  assert.deepEqual(model.inputs[0].shape, [1, 'seq', 32], 'the sequence length stays dynamic');
  const session = await ort.InferenceSession.create(onnxFile, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  try {
    // (300 x 302 scores: a mask of that size must never be a shape value or a constant.)
    for (const [seq, past] of [[5, 0], [1, 5], [4, 3], [9, 1], [300, 2]]) {
      const x = seededFloats(seq * 32, seq * 7 + past);
      const pos = BigInt64Array.from({ length: seq }, (_, i) => BigInt(past + i));
      const pk = seededFloats(2 * past * 8, 100 + past);
      const pv = seededFloats(2 * past * 8, 200 + past);
      const want = await session.run({
        x: new ort.Tensor('float32', x, [1, seq, 32]),
        position_ids: new ort.Tensor('int64', pos, [1, seq]),
        past_key: new ort.Tensor('float32', pk, [1, 2, past, 8]),
        past_value: new ort.Tensor('float32', pv, [1, 2, past, 8]),
      });
      const got = await model.predict({
        x: { data: x, shape: [1, seq, 32] },
        position_ids: { data: pos, shape: [1, seq] },
        past_key: { data: pk, shape: [1, 2, past, 8] },
        past_value: { data: pv, shape: [1, 2, past, 8] },
      });
      for (const name of ['y', 'present_key', 'present_value']) {
        assert.deepEqual(got[name].shape, [...want[name].dims], `seq ${seq}, past ${past}: ${name} shape`);
        const r = compareTensors({ dtype: 'float32', dims: got[name].shape, data: got[name].data },
          { dtype: 'float32', dims: [...want[name].dims], data: want[name].data }, RTOL, ATOL);
        assert.ok(r.ok, `seq ${seq}, past ${past}: ${name}: ${r.why}`);
      }
    }
  } finally {
    model.dispose();
  }
});

// float64 at the boundary through the JS package: a DOUBLE input takes a
// Float64Array (and refuses a Float32Array), DOUBLE outputs come back as
// Float64Array, never silently float32.
test('float64 inputs and outputs keep their dtype in the JS package', async (t) => {
  if (skipReason) return t.skip(skipReason);
  const dir = path.join(tmp, 'dtype_float64_io');
  const out = path.join(tmp, 'dtype_float64_io.js.wnn');
  const c = await native.exec(['convert', path.join(dir, 'model.onnx'), '-o', out], { timeoutMs: 60000 });
  assert.equal(c.status, 0, `wnn convert: ${c.stderr}`);
  assert.equal(c.stderr, '', 'no warning: nothing is narrowed at the boundary');
  const { load } = await import('../../js/wnn.js');
  const model = await load(fs.readFileSync(out), { wasm: path.join(ROOT, 'dist/wnn.wasm') });
  try {
    assert.equal(model.inputs[0].dtype, 'float64');
    assert.deepEqual(model.outputs.map((o) => o.dtype), ['float64', 'float64']);
    const x = readTensorProto(path.join(dir, 'test_data_set_0/input_0.pb'));
    assert.ok(x.data instanceof Float64Array);
    const got = await model.predict({ x: x.data });
    for (const [i, name] of ['y', 'sq'].entries()) {
      assert.ok(got[name].data instanceof Float64Array, `${name} is a Float64Array`);
      const want = readTensorProto(path.join(dir, `test_data_set_0/output_${i}.pb`));
      const r = compareTensors({ dtype: 'float64', dims: got[name].shape, data: got[name].data }, want, RTOL, ATOL);
      assert.ok(r.ok, `${name}: ${r.why}`);
    }
    await assert.rejects(model.predict({ x: Float32Array.from(x.data) }), (e) => e.code === 'WNN_ERR_DTYPE' && /float64/.test(e.message));
  } finally {
    model.dispose();
  }
});

// Loops wnn cannot unroll fail the conversion as unsupported (exit 3), saying
// why, and naming the graph input to freeze when that would make it work.
test('Loops that cannot be unrolled are refused with the reason', async (t) => {
  if (skipReason) return t.skip(skipReason);
  const expect = {
    refuse_loop_early_exit: /computes the condition output \(an early exit\)/,
    refuse_loop_input_trips: /trip count M must be a constant.*graph input 'M'.*pass --const M=FILE/,
  };
  for (const [name, why] of Object.entries(expect)) {
    const r = await native.exec(['convert', path.join(tmp, `${name}.onnx`), '-o', path.join(tmp, `${name}.wnn`)], { timeoutMs: 60000 });
    assert.equal(r.status, 3, `${name}: exit 3 (unsupported), got ${r.status}: ${r.stderr}`);
    assert.match(r.stderr, why, name);
    assert.match(r.stderr, /\(Loop, domain/, `${name}: the message names the node`);
  }
});
