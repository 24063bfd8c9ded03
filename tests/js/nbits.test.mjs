// MatMulNBits (com.microsoft weight-only block quantization, the format web
// LLM exports ship): the models of tests/quant/nbits.py (4-, 8- and 2-bit,
// with and without zero points and bias, 3-D and 2-D activations, one token
// and several, K ending inside a block), converted by the native CLI and by
// dist/wnn-convert.wasm under WASI (the same bytes), run through the JS
// package (dist/wnn.wasm, SIMD128; and dist/wnn-scalar.wasm) and compared
// with onnxruntime-node on the same ONNX file and the same random input.
// Both compute in float32 (wnn dequantizes each panel of B and runs its
// float GEMM; onnxruntime's CPU kernel at accuracy_level 0 likewise), summing
// in different orders: they agree within RTOL/ATOL, not bitwise.
//
// Skips (saying why) when /usr/bin/python3 with onnx and numpy, the native
// CLI with the importer, or onnxruntime-node is missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as wnn from '../../js/wnn.js';
import { ROOT, nativeCli, wasiCli, pythonModels, seededFloats } from '../conformance/lib.mjs';

const RTOL = 1e-4;
const ATOL = 1e-5;
const native = nativeCli(path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native'));
const MODELS = ['nbits_mlp_q4', 'nbits_q8_ragged', 'nbits_decode_q4', 'nbits_q2'];

let tmp = null;
let skipReason = null;
let ort = null;

before(async () => {
  ({ tmp, ort, skipReason } = await pythonModels('tests/quant/nbits.py', native, 'wnn-nbits-test-'));
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});


for (const [mi, name] of MODELS.entries()) {
  test(`MatMulNBits ${name}: native and WASI convert the same bytes; wnn matches onnxruntime-node`, async (t) => {
    if (skipReason) return t.skip(skipReason);
    const onnxFile = path.join(tmp, `${name}.onnx`);
    const out = path.join(tmp, `${name}.wnn`);
    const c = await native.exec(['convert', onnxFile, '-o', out], { timeoutMs: 60000 });
    assert.equal(c.status, 0, `wnn convert: ${c.stderr}`);
    const wasiConvert = wasiCli(path.join(ROOT, 'dist/wnn-convert.wasm'), [tmp]);
    if (wasiConvert.available()) {
      const wout = path.join(tmp, `${name}.wasi.wnn`);
      const w = await wasiConvert.exec(['convert', onnxFile, '-o', wout], { timeoutMs: 120000 });
      assert.equal(w.status, 0, `dist/wnn-convert.wasm convert: ${w.stderr}`);
      assert.ok(fs.readFileSync(wout).equals(fs.readFileSync(out)), 'the same artifact natively and under WASI');
    }
    const bytes = fs.readFileSync(out);
    const session = await ort.InferenceSession.create(onnxFile, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    for (const wasm of ['dist/wnn.wasm', 'dist/wnn-scalar.wasm']) {
      const model = await wnn.load(bytes, { wasm: path.join(ROOT, wasm) });
      try {
        const info = model.inputs[0];
        const x = seededFloats(info.shape.reduce((a, b) => a * b, 1), 7 + mi);
        const want = (await session.run({ x: new ort.Tensor('float32', x, info.shape) })).y;
        const got = (await model.predict({ x: { data: x, shape: info.shape } })).y;
        assert.deepEqual(got.shape, [...want.dims], `${wasm}: output shape`);
        let worst = 0;
        for (let i = 0; i < want.data.length; i++) {
          const err = Math.abs(got.data[i] - want.data[i]);
          assert.ok(err <= ATOL + RTOL * Math.abs(want.data[i]),
            `${wasm}: y[${i}] = ${got.data[i]}, onnxruntime-node ${want.data[i]}`);
          worst = Math.max(worst, err);
        }
        t.diagnostic(`${wasm}: ${want.data.length} outputs, largest difference ${worst.toExponential(2)}`);
      } finally {
        model.dispose();
      }
    }
  });
}
