// Release artifacts and their map files (issue 11, section 3; docs/format.md,
// "Release artifacts and the map file"), end to end:
//   - JS convert({release: true, onMap}) of mnist: the artifact loads with its
//     map, computes the bits of the named artifact, is smaller, and its
//     profile rows carry the ONNX nodes;
//   - a map of another artifact, a map that is no map, a map that is not
//     JSON: each refused with its own error, and the model not loaded;
//   - a release artifact's run-time error names "node 0 (Reshape)"; given
//     the map, JS and the CLI (native and WASI) add the ONNX node's name;
//   - the CLI's convert --release --map, info --map (text and JSON), bench
//     --profile --map, and a map of another artifact (exit 1).
// The dynamic model is written with python3-onnx at test time (skipped with
// the reason when it is missing).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as wnn from '../../js/wnn.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NATIVE = path.join(root, process.env.WNN_NATIVE_BUILD_DIR || 'build/native', 'wnn');
const WASI = path.join(root, 'dist/wnn-wasi.wasm');
const RUNNER = path.join(root, 'wasm/run-wasi.mjs');
const MNIST = path.resolve(root, '../shared/models/mnist/model.onnx');
const PYTHON = '/usr/bin/python3';

// x [n, 6] -> Reshape '/head/Reshape' to [2, 3] -> Add '/head/Add' bias -> y:
// only n = 1 fits the Reshape.
const MAKE_DYNAMIC = `
import sys, onnx, numpy as np
from onnx import helper, TensorProto, numpy_helper
g = helper.make_graph(
    [helper.make_node('Reshape', ['x', 'to'], ['r'], name='/head/Reshape'),
     helper.make_node('Add', ['r', 'head.bias'], ['y'], name='/head/Add')],
    'g', [helper.make_tensor_value_info('x', TensorProto.FLOAT, ['n', 6])],
    [helper.make_tensor_value_info('y', TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(np.array([2, 3], np.int64), 'to'),
     numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), 'head.bias')])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)]), sys.argv[1])
`;

let tmp;
before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-release-test-')); });
after(() => { if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

const hasPythonOnnx = () => spawnSync(PYTHON, ['-c', 'import onnx'], { encoding: 'utf8' }).status === 0;
function dynamicOnnx() {
  const file = path.join(tmp, 'dyn.onnx');
  if (!fs.existsSync(file)) {
    const r = spawnSync(PYTHON, ['-c', MAKE_DYNAMIC, file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  return file;
}

test('JS: a release artifact with its map computes what the named one computes', async (t) => {
  if (!fs.existsSync(MNIST)) return t.skip(`${MNIST} is missing (../shared/models)`);
  const onnx = fs.readFileSync(MNIST);
  let map = null;
  const release = await wnn.convert(onnx, { release: true, onMap: (m) => { map = m; } });
  const named = await wnn.convert(onnx);
  assert.ok(map, 'onMap was called');
  assert.equal(map.wnn_map, 1);
  assert.equal(map.artifact.bytes, release.length);
  assert.ok(release.length < named.length, `${release.length} < ${named.length}`);
  assert.ok(map.nodes.every((n, i) => n.node === i && Array.isArray(n.onnx)));
  // Every runtime node names at least one ONNX node.
  assert.ok(map.nodes.every((n) => n.onnx.length >= 1));
  const text = new TextDecoder().decode(release);
  assert.ok(!text.includes('Parameter193'), 'no initializer name in a release artifact');
  assert.ok(new TextDecoder().decode(named).includes('Parameter193'));

  const m1 = await wnn.load(release, { map });
  const m0 = await wnn.load(named);
  assert.deepEqual(m1.map, map);
  assert.equal(m0.map, null);
  assert.deepEqual(m1.inputs, m0.inputs);
  const x = new Float32Array(784).map((_, i) => ((i * 37) % 255) / 255);
  const [y0, y1] = [await m0.predict({ Input3: x }), await m1.predict({ Input3: x })];
  assert.deepEqual(Array.from(y1.Plus214_Output_0.data), Array.from(y0.Plus214_Output_0.data));
  const rows = m1.createExecutor().profile({ runs: 1 });
  assert.ok(rows.length > 0 && rows.every((r) => Array.isArray(r.onnx) && r.onnx.length > 0 && r.name === ''));
  assert.ok(rows.some((r) => r.onnx.some((s) => s.op === 'Conv')));
  // The map also as JSON text, as bytes and as a path.
  for (const source of [JSON.stringify(map), new TextEncoder().encode(JSON.stringify(map))]) {
    const m = await wnn.load(release, { map: source });
    assert.equal(m.map.artifact.sha256, map.artifact.sha256);
    m.dispose();
  }
  const mapFile = path.join(tmp, 'mnist.map.json');
  fs.writeFileSync(mapFile, JSON.stringify(map));
  (await wnn.load(release, { map: mapFile })).dispose();

  // Maps that do not fit: each its own error.
  await assert.rejects(wnn.load(named, { map }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /map of another artifact \(SHA-256 [0-9a-f]{64}, \d+ bytes\); this one's is [0-9a-f]{64}/.test(e.message));
  await assert.rejects(wnn.load(release, { map: { ...map, wnn_map: 2 } }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /not a wnn map file/.test(e.message));
  await assert.rejects(wnn.load(release, { map: { ...map, artifact: undefined } }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /no artifact digest/.test(e.message));
  await assert.rejects(wnn.load(release, { map: '{"wnn_map": 1,' }), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /not JSON/.test(e.message));
  await assert.rejects(wnn.load(release, { map: { ...map, artifact: { ...map.artifact, bytes: map.artifact.bytes + 1 } } }), /map of another artifact/);
  await assert.rejects(wnn.convert(onnx, { release: 'yes' }), /options.release: expected a boolean/);
  await assert.rejects(wnn.convert(onnx, { onMap: 1 }), /options.onMap: expected a function/);
  m0.dispose();
  m1.dispose();
});

test('JS: a release artifact\'s error names the node by number, and the map names its source', async (t) => {
  if (!hasPythonOnnx()) return t.skip('python3-onnx is not installed');
  const onnx = fs.readFileSync(dynamicOnnx());
  let map = null;
  const release = await wnn.convert(onnx, { release: true, onMap: (m) => { map = m; } });
  const named = await wnn.convert(onnx);
  assert.deepEqual(map.nodes.map((n) => n.onnx.map((s) => s.name)), [['/head/Reshape'], ['/head/Add']]);
  assert.deepEqual(map.values.filter((v) => v.kind === 'param').map((v) => v.name), ['to', 'head.bias']);
  const cases = [
    [await wnn.load(release, { map }), /node 0 \(Reshape\) \[ONNX Reshape '\/head\/Reshape'\]/],
    [await wnn.load(release), /node 0 \(Reshape\)(?! \[)/],
    [await wnn.load(named), /node 0 \(Reshape '\/head\/Reshape'\)/],
  ];
  for (const [model, want] of cases) {
    const ex = model.createExecutor();
    assert.throws(() => ex.resize({ x: [2, 6] }), (e) => e.code === 'WNN_ERR_SHAPE' && want.test(e.message), `${want}`);
    ex.dispose();
    model.dispose();
  }
});

// ------------------------------------------------------------------- CLI

const runners = {
  native: { ok: () => fs.existsSync(NATIVE), why: `${path.relative(root, NATIVE)} is not built`, run: (args) => spawnSync(NATIVE, args, { cwd: tmp, encoding: 'utf8' }) },
  wasi: { ok: () => fs.existsSync(WASI), why: 'dist/wnn-wasi.wasm is not built', run: (args) => spawnSync(process.execPath, [RUNNER, WASI, ...args], { cwd: tmp, encoding: 'utf8' }) },
};

function npy(shape, values) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((10 + header.length + 1) % 64) header += ' ';
  header += '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre.writeUInt16LE(header.length, 8);
  return Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(new Float32Array(values).buffer)]);
}

for (const [name, cli] of Object.entries(runners)) {
  test(`CLI (${name}): convert --release --map, info --map, bench --profile --map, translated errors`, async (t) => {
    if (!fs.existsSync(NATIVE)) return t.skip(`${path.relative(root, NATIVE)} is not built (it converts)`);
    if (!cli.ok()) return t.skip(cli.why);
    if (!hasPythonOnnx()) return t.skip('python3-onnx is not installed');
    const onnx = dynamicOnnx();
    // Converted natively (the WASI command has no importer).
    let r = runners.native.run(['convert', onnx, '-o', 'rel.wnn', '--release', '--map', 'rel.map.json']);
    assert.equal(r.status, 0, r.stderr);
    r = runners.native.run(['convert', onnx, '-o', 'named.wnn']);
    assert.equal(r.status, 0, r.stderr);
    r = runners.native.run(['convert', onnx, '-o', 'nomap.wnn', '--release']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /--release without --map/);
    // Writing the map changes nothing in the artifact.
    assert.ok(fs.readFileSync(path.join(tmp, 'nomap.wnn')).equals(fs.readFileSync(path.join(tmp, 'rel.wnn'))));

    r = cli.run(['info', 'rel.wnn', '--map', 'rel.map.json']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /0 {2}Reshape {2}<- Reshape '\/head\/Reshape'/);
    assert.match(r.stdout, /#1 {2}head\.bias/);
    r = cli.run(['info', 'rel.wnn', '--map', 'rel.map.json', '--json', '--weights']);
    assert.equal(r.status, 0, r.stderr);
    const info = JSON.parse(r.stdout);
    assert.deepEqual(info.map.nodes.map((n) => n.onnx), ["Reshape '/head/Reshape'", "Add '/head/Add'"]);
    assert.deepEqual(info.weights.map((w) => w.name), ['to', 'head.bias']);
    r = cli.run(['info', 'rel.wnn', '--json', '--weights']); // no map: params by number
    assert.deepEqual(JSON.parse(r.stdout).weights.map((w) => w.name), ['#0', '#1']);

    r = cli.run(['bench', 'rel.wnn', '--profile', '--map', 'rel.map.json', '--number', '1']);
    assert.equal(r.status, 0, r.stderr);
    const profile = JSON.parse(r.stdout.split('\n')[0]).profile;
    assert.ok(profile.some((row) => row.onnx === "Add '/head/Add'"), r.stdout);

    fs.writeFileSync(path.join(tmp, 'x2.npy'), npy([2, 6], Array(12).fill(1)));
    r = cli.run(['run', 'rel.wnn', '--input', 'x=x2.npy', '--map', 'rel.map.json']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /node 0 \(Reshape\) \[ONNX Reshape '\/head\/Reshape'\]/);
    r = cli.run(['run', 'rel.wnn', '--input', 'x=x2.npy']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /node 0 \(Reshape\)/);
    assert.doesNotMatch(r.stderr, /ONNX/);

    // A map of another artifact, a map file that is no map, one that is missing.
    for (const cmd of [['info', 'named.wnn'], ['run', 'named.wnn', '--input', 'x=x2.npy'], ['bench', 'named.wnn']]) {
      r = cli.run([...cmd, '--map', 'rel.map.json']);
      assert.equal(r.status, 1, `${cmd.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /rel\.map\.json is the map of another artifact \(SHA-256 [0-9a-f]{64}/);
    }
    fs.writeFileSync(path.join(tmp, 'bad.json'), '{"wnn_map": 3}');
    r = cli.run(['info', 'rel.wnn', '--map', 'bad.json']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /map format version is not 1/);
    r = cli.run(['info', 'rel.wnn', '--map', 'missing.json']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /missing\.json/);
  });
}
