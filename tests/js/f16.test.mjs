// float16 at a model's boundary through the JS package (docs/importer.md,
// "dtypes"; docs/js.md): an ONNX model with a float16 input and float16
// outputs, written here with protobufjs from Debian's onnx.proto, converted by
// the native CLI (WNN_NATIVE_BUILD_DIR, default build/native) and loaded with
// wnn.load from dist/:
//   - info says float16; setInput takes a Uint16Array of half bits (and a
//     Float16Array where the engine has one); outputs come back as a
//     Float16Array where globalThis.Float16Array exists, else a Uint16Array,
//     with the right shape;
//   - y = Relu(x * w) is bitwise the product of the halves rounded to half
//     (the product of two halves is exact in float32, so one rounding);
//   - skipped, saying why, without the CLI, dist/wnn.wasm, onnx.proto or
//     protobufjs (which comes with onnxruntime-web);
//   - onnxruntime-node, when installed, gives the same bits on the same model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as wnn from '../../js/wnn.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const NATIVE = path.join(path.resolve(root, process.env.WNN_NATIVE_BUILD_DIR || 'build/native'), 'wnn');
const ONNX_PROTO = '/usr/include/onnx/onnx.proto';
const FLOAT16 = 10;

// The half nearest to x (ties to even), written from the definition; x is a
// double holding the exact value.
function toHalf(x) {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00;
  const rne = (v) => {
    const f = Math.floor(v), r = v - f;
    return r > 0.5 || (r === 0.5 && f % 2 === 1) ? f + 1 : f;
  };
  if (a < 2 ** -14) return sign | rne(a * 2 ** 24);
  const e = Math.floor(Math.log2(a));
  const exp = a >= 2 ** (e + 1) ? e + 1 : a < 2 ** e ? e - 1 : e; // log2 may be off by one
  return sign | (((exp + 14) << 10) + rne(a * 2 ** (10 - exp)));
}
function fromHalf(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  if (e === 31) return m ? NaN : s * Infinity;
  return e === 0 ? s * m * 2 ** -24 : s * (1 + m / 1024) * 2 ** (e - 15);
}

const SHAPE = [2, 4];
const W = [0.5, -3, 1000, 2 ** -10].map(toHalf);
const X = Uint16Array.from([1, 2.5, 70, 1e-3, -1, 0.1, 65504, -(2 ** -14)].map(toHalf));

// The ONNX model: y = Relu(x * w), x, w and y float16; x also an output.
function onnxModel() {
  const protobuf = require('protobufjs');
  const onnx = protobuf.loadSync(ONNX_PROTO);
  const ModelProto = onnx.lookupType('onnx.ModelProto');
  const vi = (name, shape) => ({
    name,
    type: { tensorType: { elemType: FLOAT16, shape: { dim: shape.map((d) => ({ dimValue: d })) } } },
  });
  const model = ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'f16',
      node: [
        { opType: 'Mul', name: 'mul', input: ['x', 'w'], output: ['t'] },
        { opType: 'Relu', name: 'relu', input: ['t'], output: ['y'] },
      ],
      initializer: [{ name: 'w', dataType: FLOAT16, dims: [4], rawData: new Uint8Array(Uint16Array.from(W).buffer) }],
      input: [vi('x', SHAPE)],
      output: [vi('y', SHAPE), vi('x', SHAPE)],
    },
  });
  return ModelProto.encode(model).finish();
}

const expected = () => Uint16Array.from(X, (h, i) => {
  const t = fromHalf(h) * fromHalf(W[i % 4]); // exact in double
  return toHalf(t > 0 ? t : 0);
});
const bits = (data) => new Uint16Array(data.buffer, data.byteOffset, data.length);

// protobufjs is not a dependency of its own: it comes with onnxruntime-web.
const resolves = (name) => {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
};
const skip = !fs.existsSync(NATIVE) ? `${path.relative(root, NATIVE)} is not built`
  : !resolves('protobufjs') ? 'protobufjs is not installed (it comes with onnxruntime-web)'
  : !fs.existsSync(ONNX_PROTO) ? `${ONNX_PROTO} is missing (Debian's libonnx-dev)`
  : !fs.existsSync(path.join(root, 'dist/wnn.wasm')) ? 'dist/wnn.wasm is not built' : false;

test('float16 input and outputs through the JS package', { skip }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-f16-'));
  try {
    const onnxFile = path.join(dir, 'f16.onnx'), wnnFile = path.join(dir, 'f16.wnn');
    fs.writeFileSync(onnxFile, onnxModel());
    const conv = spawnSync(NATIVE, ['convert', onnxFile, '-o', wnnFile], { encoding: 'utf8' });
    assert.equal(conv.status, 0, conv.stderr);
    assert.equal(conv.stderr.trim(), ''); // no warning: nothing changed dtype
    const info = spawnSync(NATIVE, ['info', wnnFile], { encoding: 'utf8' });
    assert.match(info.stdout, /0 {2}x {2}float16 {2}\[2,4\]/);
    assert.match(info.stdout, /0 {2}y {2}float16 {2}\[2,4\]/);

    const model = await wnn.load(fs.readFileSync(wnnFile));
    try {
      assert.deepEqual(model.inputs.map((t) => [t.name, t.dtype, t.shape]), [['x', 'float16', SHAPE]]);
      assert.deepEqual(model.outputs.map((t) => [t.name, t.dtype, t.shape]),
        [['y', 'float16', SHAPE], ['x', 'float16', SHAPE]]);
      const Half = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : Uint16Array;
      const out = await model.predict({ x: X });
      assert.ok(out.y.data instanceof Half, `y is a ${out.y.data.constructor.name}`);
      assert.deepEqual(out.y.shape, SHAPE);
      assert.deepEqual([...bits(out.y.data)], [...expected()]);
      assert.deepEqual([...bits(out.x.data)], [...X]);
      // A Float16Array in, where the engine has one.
      if (typeof globalThis.Float16Array === 'function') {
        const y2 = (await model.predict({ x: new globalThis.Float16Array(X.buffer.slice(0)) })).y;
        assert.deepEqual([...bits(y2.data)], [...expected()]);
      }
      // The wrong array type is refused by name.
      const ex = model.createExecutor();
      assert.throws(() => ex.setInput('x', new Float32Array(8)), /input "x" is float16, which takes Uint16Array/);
      // With a Float16Array on the global (a stand-in here when the engine has
      // none), outputs come back as one: copies and views.
      const had = Object.getOwnPropertyDescriptor(globalThis, 'Float16Array');
      class Float16Array extends Uint16Array {}
      if (!had) globalThis.Float16Array = Float16Array;
      try {
        ex.setInput('x', X).run();
        const F = globalThis.Float16Array;
        const y = ex.getOutput('y'), v = ex.getOutput(0, { view: true });
        assert.ok(y.data instanceof F && v.data instanceof F);
        assert.deepEqual([...bits(y.data)], [...expected()]);
        assert.deepEqual([...bits(v.data)], [...expected()]);
      } finally {
        if (!had) delete globalThis.Float16Array;
        ex.dispose();
      }
    } finally {
      model.dispose();
    }

    // onnxruntime-node on the same model, when it is installed.
    let ort;
    try {
      ort = require('onnxruntime-node');
    } catch {
      return;
    }
    const session = await ort.InferenceSession.create(onnxModel(), { intraOpNumThreads: 1 });
    const res = await session.run({ x: new ort.Tensor('float16', X, SHAPE) });
    assert.deepEqual([...bits(res.y.data)], [...expected()], 'onnxruntime-node');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
