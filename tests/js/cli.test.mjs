// The wnn CLI end to end, native (build/native/wnn) and as a WASI command
// (dist/wnn-wasi.wasm under wasm/run-wasi.mjs), on the artifacts that
// build/native/make_fixtures writes into a fresh temporary directory:
//   - `run` with .npy and with TensorProto .pb inputs: native outputs match the
//     reference-kernel outputs; WASI outputs match native (bitwise for
//     mnist_like, which uses no transcendental functions);
//   - `info --json`, `info`, `bench`, `--version`, `help`;
//   - error cases: exit status, and a message on stderr naming the problem.
// Whatever binary is not built yet is skipped with the reason.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const nativeDir = path.resolve(root, process.env.WNN_NATIVE_BUILD_DIR || 'build/native');
const NATIVE = path.join(nativeDir, 'wnn');
const MAKE_FIXTURES = path.join(nativeDir, 'make_fixtures');
const WASI = path.join(root, 'dist/wnn-wasi.wasm');
const RUNNER = path.join(root, 'wasm/run-wasi.mjs');

const FIXTURES = [
  {
    name: 'mnist_like',
    inputs: [{ name: 'Input3', shape: [1, 1, 28, 28] }],
    outputs: [{ name: 'Plus214_Output_0', shape: [1, 10] }],
    bitwise: true, // Conv, Add, Relu, MaxPool, MatMul: no libm, so no excuse to differ
  },
  {
    name: 'squeeze_like',
    inputs: [{ name: 'data_0', shape: [1, 3, 64, 64] }],
    outputs: [{ name: 'softmaxout_1', shape: [1, 10] }],
    bitwise: false,
  },
  {
    name: 'two_outputs',
    inputs: [{ name: 'gpu_0/data_0', shape: [2, 8] }],
    outputs: [
      { name: 'gpu_0/softmax_1', shape: [6, 2] },
      { name: 'sigmoid_0.tmp_0', shape: [2, 6] },
    ],
    bitwise: false,
  },
];

const RTOL = 1e-4; // native (shipped kernels) against the reference kernels
const ATOL = 1e-5;
const WASI_MAX_ABS_DIFF = 1e-6; // WASI against native

// ----------------------------------------------------------------- runners

const targets = {
  native: {
    available: () => fs.existsSync(NATIVE),
    missing: `${path.relative(root, NATIVE)} is not built (cmake --preset native && cmake --build build/native)`,
    run: (args, cwd) => spawnSync(NATIVE, args, { cwd, encoding: 'utf8' }),
  },
  wasi: {
    available: () => fs.existsSync(WASI) && fs.existsSync(RUNNER),
    missing: 'dist/wnn-wasi.wasm or wasm/run-wasi.mjs is missing (cmake --preset wasi && cmake --build build/wasi)',
    run: (args, cwd) => spawnSync(process.execPath, [RUNNER, WASI, ...args], { cwd, encoding: 'utf8' }),
  },
};

let tmp = null; // a temporary directory; fixtures in tmp/fixtures
let fixturesError = null;

before(() => {
  if (!fs.existsSync(MAKE_FIXTURES)) {
    fixturesError = `${path.relative(root, MAKE_FIXTURES)} is not built`;
    return;
  }
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-cli-test-')));
  const r = spawnSync(MAKE_FIXTURES, [path.join(tmp, 'fixtures')], { encoding: 'utf8' });
  if (r.status !== 0) fixturesError = `make_fixtures failed (${r.status}): ${r.stderr}`;
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const fx = (...p) => path.join(tmp, 'fixtures', ...p);

let dirCount = 0;
function freshDir(label) {
  const dir = path.join(tmp, `${label}-${dirCount++}`);
  fs.mkdirSync(dir);
  return dir;
}

// Skips the test unless the fixtures and the target exist; returns whether to go on.
function ready(t, target) {
  if (fixturesError) {
    t.skip(fixturesError);
    return false;
  }
  if (target && !targets[target].available()) {
    t.skip(targets[target].missing);
    return false;
  }
  return true;
}

function describe(r) {
  return `exit ${r.status}${r.signal ? ` (signal ${r.signal})` : ''}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
}

function runOk(target, args, cwd = root) {
  const r = targets[target].run(args, cwd);
  assert.equal(r.status, 0, `${target} wnn ${args.join(' ')}: ${describe(r)}`);
  return r;
}

// ---------------------------------------------------------------- .npy files

const NPY_TYPES = {
  '<f4': Float32Array, '<f8': Float64Array, '<i8': BigInt64Array, '<i4': Int32Array,
  '|i1': Int8Array, '|u1': Uint8Array, '|b1': Uint8Array, '<f2': Uint16Array,
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  assert.equal(buf.subarray(0, 6).toString('latin1'), '\x93NUMPY', `${file}: magic`);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.subarray(start, start + hlen).toString('latin1');
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)[1];
  const shape = shapeText.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  assert.equal(fortran, 'False', `${file}: C order`);
  const Type = NPY_TYPES[descr];
  assert.ok(Type, `${file}: dtype ${descr}`);
  const bytes = buf.subarray(start + hlen);
  const count = shape.reduce((a, b) => a * b, 1);
  assert.equal(bytes.length, count * Type.BYTES_PER_ELEMENT, `${file}: data size`);
  const data = new Type(new Uint8Array(bytes).buffer); // copy: aligned
  return { descr, shape, data, bytes };
}

// A version 1.0 .npy file with the given type string, shape and data bytes.
function npyBytes(descr, shape, data, fortran = false) {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': ${shapeText}, }`;
  while ((10 + header.length + 1) % 64) header += ' ';
  header += '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  return Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(data)]);
}

function maxAbsDiff(a, b) {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

function assertAllClose(got, want, rtol, atol, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < got.length; i++) {
    const d = Math.abs(got[i] - want[i]);
    if (!(d <= atol + rtol * Math.abs(want[i]))) {
      assert.fail(`${what}: element ${i}: got ${got[i]}, want ${want[i]} (|diff| ${d})`);
    }
  }
}

// --------------------------------------------------------------------- run

function inputArgs(f, ext, byIndex = false) {
  return f.inputs.flatMap((inp, i) => ['--input', `${byIndex ? i : inp.name}=${fx(`${f.name}.input_${i}.${ext}`)}`]);
}

// Runs a fixture; checks the JSON lines and returns the outputs read back.
function runFixture(target, f, ext, opts = {}) {
  const out = freshDir(`${target}-${f.name}-${ext}`);
  const r = runOk(target, ['run', fx(`${f.name}.wnn`), ...inputArgs(f, ext, opts.byIndex), '--output-dir', out]);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, f.outputs.length, `one JSON line per output: ${r.stdout}`);
  return lines.map((line, i) => {
    assert.deepEqual(Object.keys(line), ['index', 'name', 'shape', 'dtype', 'file']);
    assert.equal(line.index, i);
    assert.equal(line.name, f.outputs[i].name);
    assert.deepEqual(line.shape, f.outputs[i].shape);
    assert.equal(line.dtype, 'float32');
    assert.equal(line.file, path.join(out, `output_${i}.npy`));
    const npy = readNpy(line.file);
    assert.equal(npy.descr, '<f4');
    assert.deepEqual(npy.shape, f.outputs[i].shape);
    return npy;
  });
}

test('make_fixtures writes every fixture and its test data', (t) => {
  if (!ready(t)) return;
  for (const f of FIXTURES) {
    const files = [`${f.name}.wnn`];
    f.inputs.forEach((_, i) => files.push(`${f.name}.input_${i}.npy`, `${f.name}.input_${i}.pb`));
    f.outputs.forEach((o, i) => files.push(`${f.name}.output_${i}.npy`));
    for (const file of files) assert.ok(fs.existsSync(fx(file)), `${file} exists`);
    f.inputs.forEach((inp, i) => assert.deepEqual(readNpy(fx(`${f.name}.input_${i}.npy`)).shape, inp.shape));
    f.outputs.forEach((o, i) => assert.deepEqual(readNpy(fx(`${f.name}.output_${i}.npy`)).shape, o.shape));
  }
});

const nativeResults = new Map(); // fixture name -> outputs of the native .npy run

for (const f of FIXTURES) {
  test(`native run ${f.name} (.npy inputs) matches the reference outputs`, (t) => {
    if (!ready(t, 'native')) return;
    const outs = runFixture('native', f, 'npy');
    nativeResults.set(f.name, outs);
    outs.forEach((o, i) => {
      const want = readNpy(fx(`${f.name}.output_${i}.npy`));
      t.diagnostic(`${f.outputs[i].name}: max |native - reference| = ${maxAbsDiff(o.data, want.data)}`);
      assertAllClose(o.data, want.data, RTOL, ATOL, `${f.name} output ${i}`);
    });
    if (f.name === 'squeeze_like') {
      const sum = outs[0].data.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `softmax sums to 1, got ${sum}`);
    }
  });

  test(`native run ${f.name} (.pb inputs, by index) gives the same bytes as .npy inputs`, (t) => {
    if (!ready(t, 'native')) return;
    const npy = nativeResults.get(f.name) ?? runFixture('native', f, 'npy');
    const pb = runFixture('native', f, 'pb', { byIndex: true });
    pb.forEach((o, i) => assert.ok(o.bytes.equals(npy[i].bytes), `${f.name} output ${i}`));
  });

  for (const ext of ['npy', 'pb']) {
    test(`wasi run ${f.name} (.${ext} inputs) matches native`, (t) => {
      if (!ready(t, 'wasi')) return;
      const outs = runFixture('wasi', f, ext);
      const want = nativeResults.get(f.name) ?? (targets.native.available() ? runFixture('native', f, 'npy') : null);
      outs.forEach((o, i) => {
        const ref = readNpy(fx(`${f.name}.output_${i}.npy`));
        assertAllClose(o.data, ref.data, RTOL, ATOL, `wasi ${f.name} output ${i} vs reference`);
        if (!want) return;
        const diff = maxAbsDiff(o.data, want[i].data);
        t.diagnostic(`${f.outputs[i].name}: max |wasi - native| = ${diff}`);
        assert.ok(diff <= WASI_MAX_ABS_DIFF, `${f.name} output ${i}: max |wasi - native| = ${diff}`);
        if (f.bitwise) assert.ok(o.bytes.equals(want[i].bytes), `${f.name} output ${i}: wasi and native differ bitwise (max diff ${diff})`);
      });
      if (!want) t.diagnostic(`${targets.native.missing}: compared with the reference outputs only`);
    });
  }
}

for (const target of Object.keys(targets)) {
  test(`${target}: relative paths work from the current directory`, (t) => {
    if (!ready(t, target)) return;
    const out = freshDir(`${target}-relative`);
    fs.copyFileSync(fx('mnist_like.wnn'), path.join(out, 'm.wnn'));
    fs.copyFileSync(fx('mnist_like.input_0.npy'), path.join(out, 'x.npy'));
    fs.mkdirSync(path.join(out, 'res'));
    const r = runOk(target, ['run', 'm.wnn', '--input', 'Input3=x.npy', '--output-dir', 'res'], out);
    assert.equal(JSON.parse(r.stdout).file, 'res/output_0.npy');
    const want = readNpy(fx('mnist_like.output_0.npy'));
    assertAllClose(readNpy(path.join(out, 'res/output_0.npy')).data, want.data, RTOL, ATOL, 'relative run');
  });

  // --------------------------------------------------------------- info
  test(`${target}: info --json describes every fixture`, (t) => {
    if (!ready(t, target)) return;
    for (const f of FIXTURES) {
      const r = runOk(target, ['info', fx(`${f.name}.wnn`), '--json']);
      const info = JSON.parse(r.stdout);
      assert.equal(info.file, fx(`${f.name}.wnn`));
      assert.deepEqual(info.inputs, f.inputs.map((x, i) => ({ index: i, name: x.name, dtype: 'float32', shape: x.shape })));
      assert.deepEqual(info.outputs, f.outputs.map((x, i) => ({ index: i, name: x.name, dtype: 'float32', shape: x.shape })));
      assert.ok(Number.isInteger(info.params) && info.params > 0, `params ${info.params}`);
      assert.ok(info.arena_bytes > 0 && info.weights_bytes > 0);
      assert.equal(typeof info.metadata, 'object');
      assert.equal(info.metadata.name, f.name);
    }
  });

  test(`${target}: info prints a readable summary`, (t) => {
    if (!ready(t, target)) return;
    const r = runOk(target, ['info', fx('two_outputs.wnn')]);
    assert.match(r.stdout, /inputs \(1\):\n {2}0 {2}gpu_0\/data_0 {2}float32 {2}\[2,8\]/);
    assert.match(r.stdout, /outputs \(2\):\n {2}0 {2}gpu_0\/softmax_1 {2}float32 {2}\[6,2\]\n {2}1 {2}sigmoid_0\.tmp_0 {2}float32 {2}\[2,6\]/);
    assert.match(r.stdout, /params: 2\n/);
  });

  // -------------------------------------------------------------- bench
  test(`${target}: bench --number 2 --repeat 3 prints the timing JSON`, (t) => {
    if (!ready(t, target)) return;
    const r = runOk(target, ['bench', fx('squeeze_like.wnn'), '--number', '2', '--repeat', '3',
      '--input', `data_0=${fx('squeeze_like.input_0.npy')}`]);
    const b = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(b), ['mean_ms', 'median_ms', 'std_ms', 'min_ms', 'max_ms', 'results_ms', 'number', 'repeat']);
    assert.equal(b.results_ms.length, 3);
    assert.equal(b.number, 2);
    assert.equal(b.repeat, 3);
    for (const x of b.results_ms) assert.ok(x > 0, `result ${x} > 0`);
    assert.ok(b.min_ms <= b.median_ms && b.median_ms <= b.max_ms);
    assert.equal(b.min_ms, Math.min(...b.results_ms));
    assert.equal(b.max_ms, Math.max(...b.results_ms));
    assert.ok(b.std_ms >= 0);
  });

  test(`${target}: bench --min-repeat-ms grows number (inputs default to zeros)`, (t) => {
    if (!ready(t, target)) return;
    const r = runOk(target, ['bench', fx('two_outputs.wnn'), '--number=1', '--repeat=2', '--min-repeat-ms=20']);
    const b = JSON.parse(r.stdout);
    assert.ok(b.number > 1, `number grew from 1 to ${b.number}`);
    assert.ok(b.mean_ms * b.number >= 20 * 0.99, `a repeat lasts >= 20 ms: ${b.mean_ms} ms x ${b.number}`);
  });

  test(`${target}: bench --profile adds each node's time, slowest first, and a table`, (t) => {
    if (!ready(t, target)) return;
    const r = runOk(target, ['bench', fx('mnist_like.wnn'), '--number', '3', '--repeat', '2', '--profile']);
    const [first, ...rest] = r.stdout.split('\n');
    const b = JSON.parse(first);
    assert.equal(b.number, 3);
    assert.equal(b.profile_runs, 6);
    assert.ok(b.profile.length >= 4, `${b.profile.length} nodes ran`);
    const ops = new Set(b.profile.map((p) => p.op));
    for (const op of ['Conv', 'MaxPool', 'MatMul']) assert.ok(ops.has(op), `${op} in ${[...ops]}`);
    assert.ok(!ops.has('Reshape'), 'an alias never runs, so it has no row');
    for (let i = 1; i < b.profile.length; i++) assert.ok(b.profile[i - 1].ms >= b.profile[i].ms, 'sorted by time');
    for (const p of b.profile) {
      assert.deepEqual(Object.keys(p), ['node', 'op', 'name', 'shape', 'ms', 'share']);
      assert.ok(p.ms >= 0 && p.share >= 0 && p.share <= 1);
      assert.ok(Array.isArray(p.shape) && p.shape.every((d) => Number.isInteger(d)));
    }
    const share = b.profile.reduce((s, p) => s + p.share, 0);
    assert.ok(Math.abs(share - 1) < 1e-6, `shares sum to ${share}`);
    const conv = b.profile.find((p) => p.op === 'Conv');
    assert.equal(conv.shape.length, 4);
    const table = rest.join('\n');
    assert.match(table, /ms\/run +share +node +op +name \[output shape\]/);
    assert.match(table, new RegExp(`\\s${conv.node}\\s+Conv\\s.*\\[${conv.shape.join('x')}\\]`));
    assert.match(table, /\(all nodes\)/);
  });

  // ------------------------------------------------------- version, help
  test(`${target}: --version and help`, (t) => {
    if (!ready(t, target)) return;
    assert.match(runOk(target, ['--version']).stdout, /^wnn \d+\.\d+\.\d+ \(artifact format \d+\.\d+\)\n$/);
    assert.match(runOk(target, ['help']).stdout, /usage: wnn <command>/);
  });

  // -------------------------------------------------------------- errors
  const errorCases = [
    {
      what: 'a missing input file',
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${fx('no_such_file.npy')}`],
      status: 1,
      message: [/no_such_file\.npy/, /Input3/, /cannot open/],
    },
    {
      what: 'an unknown input name',
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input4=${fx('mnist_like.input_0.npy')}`],
      status: 1,
      message: [/no input named 'Input4'/, /its inputs: 'Input3'/],
    },
    {
      what: 'an input index out of range',
      args: () => ['run', fx('mnist_like.wnn'), '--input', `1=${fx('mnist_like.input_0.npy')}`],
      status: 1,
      message: [/input index 1 is out of range/],
    },
    {
      what: 'a .npy of the wrong shape',
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${fx('squeeze_like.input_0.npy')}`],
      status: 1,
      message: [/squeeze_like\.input_0\.npy/, /expects shape \[1,1,28,28\], the file holds shape \[1,3,64,64\]/],
    },
    {
      what: 'a .pb of the wrong shape',
      args: () => ['run', fx('two_outputs.wnn'), '--input', `0=${fx('mnist_like.input_0.pb')}`],
      status: 1,
      message: [/mnist_like\.input_0\.pb/, /expects shape \[2,8\], the file holds shape \[1,1,28,28\]/],
    },
    {
      what: 'a .npy of the wrong dtype',
      setup: () => fs.writeFileSync(path.join(tmp, 'f64.npy'), npyBytes('<f8', [1, 1, 28, 28], new Float64Array(784).buffer)),
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${path.join(tmp, 'f64.npy')}`],
      status: 1,
      message: [/f64\.npy/, /input 'Input3' \(index 0\) expects float32, the file holds float64/],
    },
    {
      what: 'a .npy in Fortran order',
      setup: () => fs.writeFileSync(path.join(tmp, 'fortran.npy'), npyBytes('<f4', [1, 1, 28, 28], new Float32Array(784).buffer, true)),
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${path.join(tmp, 'fortran.npy')}`],
      status: 1,
      message: [/fortran\.npy \(input 'Input3'\): \.npy array is in Fortran order/],
    },
    {
      what: 'a .npy with less data than its shape',
      setup: () => fs.writeFileSync(path.join(tmp, 'short.npy'), npyBytes('<f4', [1, 1, 28, 28], new Float32Array(700).buffer)),
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${path.join(tmp, 'short.npy')}`],
      status: 1,
      message: [/short\.npy \(input 'Input3'\): \.npy data truncated: shape \[1,1,28,28\] of float32 needs 3136 bytes, the file has 2800/],
    },
    {
      what: 'a truncated .pb',
      setup: () => {
        const bytes = fs.readFileSync(fx('mnist_like.input_0.pb'));
        fs.writeFileSync(path.join(tmp, 'short.pb'), bytes.subarray(0, bytes.length - 100));
      },
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${path.join(tmp, 'short.pb')}`],
      status: 1,
      message: [/short\.pb \(input 'Input3'\): TensorProto: field 9 \(raw_data\) .* is past the end of the message/],
    },
    {
      what: 'an input given twice',
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${fx('mnist_like.input_0.npy')}`,
        '--input', `0=${fx('mnist_like.input_0.pb')}`],
      status: 1,
      message: [/'Input3' \(index 0\) is given more than once/],
    },
    {
      what: 'an input not given',
      args: () => ['run', fx('mnist_like.wnn')],
      status: 1,
      message: [/'Input3' \(index 0\) was not given/],
    },
    {
      what: 'an input file that is neither .npy nor .pb',
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${fx('mnist_like.wnn')}`],
      status: 1,
      message: [/unknown tensor file format/],
    },
    {
      what: 'a garbage model file',
      setup: () => fs.writeFileSync(path.join(tmp, 'garbage.wnn'), Buffer.from('this is not a model, just text\n'.repeat(20))),
      args: () => ['info', path.join(tmp, 'garbage.wnn')],
      status: 1,
      message: [/garbage\.wnn: cannot load model: not a wnn artifact/],
    },
    {
      what: 'a truncated model file',
      setup: () => {
        const bytes = fs.readFileSync(fx('mnist_like.wnn'));
        fs.writeFileSync(path.join(tmp, 'truncated.wnn'), bytes.subarray(0, Math.floor(bytes.length / 2)));
      },
      args: () => ['run', path.join(tmp, 'truncated.wnn'), '--input', `0=${fx('mnist_like.input_0.npy')}`],
      status: 1,
      message: [/truncated\.wnn: cannot load model: artifact truncated/],
    },
    {
      what: 'a missing model file',
      args: () => ['info', fx('no_such_model.wnn')],
      status: 1,
      message: [/no_such_model\.wnn: cannot open/],
    },
    {
      what: 'an unwritable output directory',
      args: () => ['run', fx('mnist_like.wnn'), '--input', `Input3=${fx('mnist_like.input_0.npy')}`,
        '--output-dir', fx('no_such_dir')],
      status: 1,
      message: [/no_such_dir\/output_0\.npy: cannot create/],
    },
    { what: 'an unknown command', args: () => ['frobnicate'], status: 2, message: [/unknown command 'frobnicate'/] },
    { what: 'no model', args: () => ['info'], status: 2, message: [/no model file given/] },
    { what: 'an unknown option', args: () => ['info', fx('mnist_like.wnn'), '--verbose'], status: 2, message: [/unknown option '--verbose'/] },
    { what: '--input without =', args: () => ['run', fx('mnist_like.wnn'), '--input', 'Input3'], status: 2, message: [/--input expects NAME=FILE/] },
    { what: 'a bad --number', args: () => ['bench', fx('mnist_like.wnn'), '--number', '0'], status: 2, message: [/--number expects an integer >= 1, got '0'/] },
    { what: 'a bad --min-repeat-ms', args: () => ['bench', fx('mnist_like.wnn'), '--min-repeat-ms', '-5'], status: 2, message: [/--min-repeat-ms expects a number/] },
  ];

  for (const c of errorCases) {
    test(`${target}: ${c.what} fails with exit ${c.status} and says why`, (t) => {
      if (!ready(t, target)) return;
      if (c.setup) c.setup();
      const r = targets[target].run(c.args(), root);
      assert.equal(r.status, c.status, describe(r));
      assert.equal(r.stdout, '', 'nothing on stdout');
      assert.match(r.stderr, /^wnn: /);
      for (const m of c.message) assert.match(r.stderr, m);
      assert.doesNotMatch(r.stderr, /run-wasi:|RuntimeError|unreachable/, 'no trap');
    });
  }
}
