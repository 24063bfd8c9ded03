// The ONNX backend node tests (Debian's libonnx-testdata) through the native
// `wnn convert` and `wnn run` (tests/conformance/run.mjs): the number of
// passing cases must be at least the floor in tests/conformance/floor.json.
// Writes build/conformance/report.json and report.md and prints the counts.
//
// Native only: under WASI (Node's node:wasi) the ~900 cases take several
// times longer, and the real models test (models.test.mjs) already checks
// that WASI matches.
//
// Skips with the reason when the test data, the CLI or its `convert` are
// missing. WNN_NATIVE_BUILD_DIR selects the build dir (default build/native).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { ROOT, nativeCli, hasConvert, decodeTensorProto, compareTensors, constSuggestions, runCase } from '../conformance/lib.mjs';
import { DEFAULT_DATA, runConformance, writeReports, summaryText } from '../conformance/run.mjs';

const buildDir = path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native');
const floor = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/conformance/floor.json'), 'utf8'));

test('ONNX backend node tests: the pass count is at least tests/conformance/floor.json', async (t) => {
  if (!fs.existsSync(DEFAULT_DATA)) return t.skip(`${DEFAULT_DATA} is absent (apt-get install libonnx-testdata)`);
  const native = nativeCli(buildDir);
  if (!native.available()) return t.skip(`${path.relative(ROOT, native.bin)} is not built`);
  if (!(await hasConvert(native))) {
    return t.skip(`${path.relative(ROOT, native.bin)} cannot convert ONNX yet (no importer linked: 'wnn convert' is missing or a usage error)`);
  }
  const report = await runConformance({ data: DEFAULT_DATA, buildDir, jobs: 2, timeoutMs: 20000 });
  const out = path.join(ROOT, 'build/conformance');
  writeReports(report, out);
  for (const line of summaryText(report).split('\n')) t.diagnostic(line);
  t.diagnostic(`per-case table: ${path.relative(ROOT, path.join(out, 'report.md'))}`);
  assert.ok(report.counts.total > 0, `no cases found in ${DEFAULT_DATA}`);
  assert.ok(report.counts.pass >= floor.pass,
    `${report.counts.pass} cases pass, fewer than the floor of ${floor.pass} in tests/conformance/floor.json ` +
    `(see build/conformance/report.md for what fails)`);
  if (report.counts.pass > floor.pass) {
    t.diagnostic(`${report.counts.pass} pass, above the floor of ${floor.pass}: raise tests/conformance/floor.json`);
  }
  // Strictly: each case's own model and inputs, nothing frozen by --const.
  const strict = report.counts.pass - report.counts.passConst;
  assert.ok(strict >= floor.strict,
    `${strict} cases pass strictly (without --const), fewer than the floor of ${floor.strict} in ` +
    'tests/conformance/floor.json');
  if (strict > floor.strict) t.diagnostic(`${strict} pass strictly, above the floor of ${floor.strict}: raise it`);
});

// The harness's own pieces, on hand-made bytes: a wrong decoder or comparison
// would make every count above meaningless.
test('harness: TensorProto decoding (packed floats, unpacked negative int64, raw_data, float16)', () => {
  const f = Buffer.alloc(8);
  f.writeFloatLE(1.5, 0);
  f.writeFloatLE(-2, 4);
  // dims [2], data_type 1 (FLOAT), float_data packed, name "x"
  const floats = Buffer.concat([Buffer.from([0x08, 0x02, 0x10, 0x01, 0x22, 0x08]), f, Buffer.from([0x42, 0x01, 0x78])]);
  const t = decodeTensorProto(floats);
  assert.equal(t.name, 'x');
  assert.equal(t.dtype, 'float32');
  assert.deepEqual(t.dims, [2]);
  assert.deepEqual([...t.data], [1.5, -2]);
  // dims 1 and 2 unpacked, data_type 7 (INT64), int64_data -1 and 300 unpacked
  const minus1 = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
  const ints = Buffer.from([0x08, 0x01, 0x08, 0x02, 0x10, 0x07, 0x38, ...minus1, 0x38, 0xac, 0x02]);
  const u = decodeTensorProto(ints);
  assert.deepEqual(u.dims, [1, 2]);
  assert.deepEqual([...u.data], [-1n, 300n]);
  // scalar, data_type 10 (FLOAT16), raw_data 0x3c00 (1.0)
  const half = decodeTensorProto(Buffer.from([0x10, 0x0a, 0x4a, 0x02, 0x00, 0x3c]));
  assert.deepEqual(half.dims, []);
  assert.equal(half.dtype, 'float16');
  assert.throws(() => decodeTensorProto(Buffer.from([0x08, 0x03, 0x10, 0x01, 0x22, 0x04, 0, 0, 0, 0])),
    /1 values for dims \[3\]/);
  assert.throws(() => decodeTensorProto(Buffer.from([0x08, 0x03, 0x10, 0x01, 0x22, 0x09])), /past the end/);
});

test('harness: allclose semantics (rtol, atol, NaN, shape, exact integers, the same dtype)', () => {
  const f32 = (dims, v) => ({ dtype: 'float32', dims, data: Float32Array.from(v) });
  const f64 = (dims, v) => ({ dtype: 'float64', dims, data: Float64Array.from(v) });
  assert.ok(compareTensors(f64([2], [1, 100.05]), f64([2], [1, 100]), 1e-3, 1e-7).ok);
  assert.match(compareTensors(f32([2], [1, 100]), f64([2], [1, 100]), 1e-3, 1e-7).why,
    /dtype float32 but expected float64/, 'a float32 answer to a float64 question fails');
  const off = compareTensors(f32([2], [1, 100.2]), f32([2], [1, 100]), 1e-3, 1e-7);
  assert.ok(!off.ok);
  assert.match(off.why, /1 of 2 elements outside/);
  assert.ok(Math.abs(off.maxAbs - 0.2) < 1e-4);
  assert.ok(compareTensors(f32([1], [5e-8]), f32([1], [0]), 1e-3, 1e-7).ok, 'atol alone covers a zero');
  assert.ok(!compareTensors(f32([1], [2e-7]), f32([1], [0]), 1e-3, 1e-7).ok);
  assert.ok(compareTensors(f32([2], [NaN, Infinity]), f32([2], [NaN, Infinity]), 1e-3, 1e-7).ok);
  assert.ok(!compareTensors(f32([1], [NaN]), f32([1], [0]), 1e-3, 1e-7).ok);
  assert.ok(!compareTensors(f32([1], [-Infinity]), f32([1], [Infinity]), 1e-3, 1e-7).ok);
  assert.match(compareTensors(f32([2, 1], [1, 2]), f32([2], [1, 2]), 1e-3, 1e-7).why, /shape \[2,1\] but expected \[2\]/);
  const i64 = (v) => ({ dtype: 'int64', dims: [v.length], data: BigInt64Array.from(v) });
  assert.ok(compareTensors(i64([1n, -2n]), i64([1n, -2n]), 1e-3, 1e-7).ok);
  assert.ok(!compareTensors(i64([1n, -3n]), i64([1n, -2n]), 1e-3, 1e-7).ok);
  const b = { dtype: 'bool', dims: [1], data: Uint8Array.from([1]) };
  assert.match(compareTensors(b, i64([1n]), 1e-3, 1e-7).why, /dtype bool but expected int64/);
});

test('harness: the graph inputs an importer message suggests freezing with --const', () => {
  assert.deepEqual(constSuggestions("node 0 '' (Reshape, domain 'ai.onnx'): Reshape: input 1 (shape) must be a constant: " +
    "input 1 of Reshape comes from graph input 'shape', which must be constant: pass --const shape=FILE"), ['shape']);
  assert.deepEqual(constSuggestions("... from graph inputs 'a', 'b/c', which must be constant: pass --const a=FILE --const b/c=FILE"),
    ['a', 'b/c']);
  assert.deepEqual(constSuggestions("node 3 'x' (Foo, domain 'ai.onnx'): op type 'Foo' is not supported by the wnn runtime"), []);
  assert.deepEqual(constSuggestions(undefined), []);
});

// `wnn convert --const` on one case of the suite: without it the message
// names the graph input and suggests --const (exit 3); the runner's retry
// freezes exactly that input from the case's test data and passes.
test('wnn convert --const: a Reshape whose shape is a graph input', async (t) => {
  const caseDir = path.join(DEFAULT_DATA, 'test_reshape_reduced_dims');
  if (!fs.existsSync(caseDir)) return t.skip(`${caseDir} is absent (apt-get install libonnx-testdata)`);
  const native = nativeCli(buildDir);
  if (!native.available()) return t.skip(`${path.relative(ROOT, native.bin)} is not built`);
  if (!(await hasConvert(native))) return t.skip(`${path.relative(ROOT, native.bin)} cannot convert ONNX (no importer linked)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-const-'));
  try {
    const model = path.join(caseDir, 'model.onnx');
    const out = path.join(tmp, 'm.wnn');
    const plain = await native.exec(['convert', model, '-o', out], { timeoutMs: 20000 });
    assert.equal(plain.status, 3, plain.stderr);
    assert.match(plain.stderr, /input 1 of Reshape comes from graph input 'shape', which must be constant: pass --const shape=FILE/);
    const shapeFile = path.join(caseDir, 'test_data_set_0', 'input_1.pb');
    const frozen = await native.exec(['convert', model, '-o', out, '--const', `shape=${shapeFile}`], { timeoutMs: 20000 });
    assert.equal(frozen.status, 0, frozen.stderr);
    const info = JSON.parse((await native.exec(['info', '--json', out], { timeoutMs: 20000 })).stdout);
    assert.deepEqual(info.inputs.map((v) => v.name), ['data']);
    const wrong = await native.exec(['convert', model, '-o', out, '--const', `shape=${path.join(caseDir, 'test_data_set_0', 'input_0.pb')}`], { timeoutMs: 20000 });
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /--const shape: graph input 'shape' is int64, the tensor is float32/);
    const unknown = await native.exec(['convert', model, '-o', out, '--const', `nope=${shapeFile}`], { timeoutMs: 20000 });
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no input named 'nope'/);
    const twice = await native.exec(['convert', model, '-o', out, '--const', `shape=${shapeFile}`, `--const=shape=${shapeFile}`], { timeoutMs: 20000 });
    assert.equal(twice.status, 2);
    const r = await runCase({ caseDir, native, workDir: path.join(tmp, 'case'), rtol: 1e-3, atol: 1e-7 });
    assert.equal(r.status, 'pass', r.reason);
    assert.deepEqual(r.consts, ['shape']);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
