// Weight codecs (docs/format.md, "Param codecs"; docs/params.md section 2):
// - a user codec end to end in JavaScript: build/fixtures/codec/xor200.wnn
//   stores its weights with codec 200 (every byte XOR 0x5a, written by
//   make_fixtures through the builder's encode hook); wnn.registerCodec
//   supplies the decoder, and every failure names the codec and the tensor;
// - `wnn convert --weights fp16|int8` (native, and convert() in JS through
//   dist/wnn-convert.wasm): what `wnn info --weights` shows, outputs against
//   the raw artifact's, the same bytes from both converters, blobs too;
// - `--compress lz4|zstd`: decoded in JS by dist/wnn-codecs.wasm, fetched on
//   first use (a bad `codecs` option is a named error), bitwise the values of
//   the uncompressed artifact; a corrupt stream is refused by name;
// - the OCR example reads the same text with fp16 weights as with float32.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as wnn from '../../js/wnn.js';
import { parseNpy, parseTensorProto } from '../../js/io.js';
import { imageFromNpy, ocr, textRows } from '../../examples/shared/ocr.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NATIVE = path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native', 'wnn');
const FIXTURES = path.join(ROOT, 'build/fixtures');
const MODELS = path.resolve(ROOT, process.env.WNN_MODELS_DIR || '../shared/models');
const MNIST = path.join(MODELS, 'mnist');
const EXAMPLES = path.join(ROOT, 'build/examples');
const missing = (...files) => files.map((f) => (fs.existsSync(f) ? null : `${path.relative(ROOT, f)} is absent`)).find(Boolean) ?? null;

let tmp;
before(() => { tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-codec-test-'))); });
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const native = (args) => spawnSync(NATIVE, args, { encoding: 'utf8', cwd: tmp, maxBuffer: 1 << 26 });
function ok(r, what) {
  assert.equal(r.status, 0, `${what}: exit ${r.status}\n${r.stderr}`);
  return r;
}
const xor = (src) => src.map((b) => b ^ 0x5a);
const code = (c, re) => (e) => { assert.equal(e.code, c, e.message); if (re) assert.match(e.message, re); return true; };

test('a user codec decoded in JavaScript: wnn.registerCodec end to end', async (t) => {
  const file = path.join(FIXTURES, 'codec/xor200.wnn');
  const skip = missing(file);
  if (skip) return t.skip(skip);
  const input = parseNpy(fs.readFileSync(path.join(FIXTURES, 'codec/xor200.input_0.npy')));
  const want = parseNpy(fs.readFileSync(path.join(FIXTURES, 'codec/xor200.output_0.npy')));
  // Each case in a fresh instance, so registration order across instances is covered too.
  const fresh = () => WebAssembly.compile(fs.readFileSync(path.join(ROOT, 'dist/wnn.wasm')));
  try {
    await assert.rejects(wnn.load(file, { wasm: await fresh() }),
      code('WNN_ERR_FEATURE', /param 'w'\) uses codec 200, which is not registered.*wnn\.registerCodec/));
    const early = await fresh(); // instantiated before the codec is registered
    const before = await wnn.load(path.join(FIXTURES, 'mnist_like.wnn'), { wasm: early });
    wnn.registerCodec(200, xor, { name: 'xor' });
    for (const wasm of [early, await fresh()]) {
      const m = await wnn.load(file, { wasm });
      const out = await m.predict({ x: input.data });
      assert.ok(Buffer.from(out.y.data.buffer).equals(Buffer.from(want.data.buffer)), 'output differs from the C decoder\'s');
      m.dispose();
    }
    before.dispose();
    // Decoders that fail: the codec, its name and the tensor are named.
    wnn.registerCodec(200, (src) => src.subarray(1), { name: 'short' });
    await assert.rejects(wnn.load(file), code('WNN_ERR_MALFORMED', /param 'w': codec 200 \(short\) failed to decode it \(wrote 1599 of 1600 bytes\)/));
    wnn.registerCodec(200, () => { throw new Error('bad stream'); });
    await assert.rejects(wnn.load(file), code('WNN_ERR_MALFORMED', /codec 200 \(js-200\) failed.*the decoder of codec 200 threw: bad stream/));
    wnn.registerCodec(200, () => 'text');
    await assert.rejects(wnn.load(file), code('WNN_ERR_MALFORMED', /returned string, not bytes/));
    // Bad registrations.
    for (const id of [127, 256, 1.5, '200']) {
      assert.throws(() => wnn.registerCodec(id, xor), code('WNN_ERR_INVALID_ARGUMENT', /id must be an integer from 128 to 255/));
    }
    assert.throws(() => wnn.registerCodec(200, 'xor'), code('WNN_ERR_INVALID_ARGUMENT', /decode must be a function or null/));
    assert.throws(() => wnn.registerCodec(200, xor, { name: '' }), code('WNN_ERR_INVALID_ARGUMENT', /options\.name/));
  } finally {
    wnn.registerCodec(200, null);
  }
  await assert.rejects(wnn.load(file), code('WNN_ERR_FEATURE', /not registered/));
});

test('convert --weights fp16|int8: smaller artifacts, per-param codecs in info, outputs near the raw ones, the same bytes from the JS converter', { timeout: 300000 }, async (t) => {
  const skip = missing(NATIVE, MNIST, path.join(ROOT, 'dist/wnn-convert.wasm'));
  if (skip) return t.skip(skip);
  const onnx = path.join(MNIST, 'model.onnx');
  const input = parseTensorProto(fs.readFileSync(path.join(MNIST, 'test_data_set_0/input_0.pb')));
  const sizes = {};
  const outputs = {};
  for (const w of ['raw', 'fp16', 'int8']) {
    const r = ok(native(['convert', onnx, '-o', `${w}.wnn`, '--weights', w, '--report', `${w}.json`]), `convert ${w}`);
    const report = JSON.parse(fs.readFileSync(path.join(tmp, `${w}.json`), 'utf8'));
    const bytes = fs.readFileSync(path.join(tmp, `${w}.wnn`));
    sizes[w] = bytes.length;
    // The JS converter writes the same artifact.
    const js = await wnn.convert(onnx, { weights: w });
    assert.ok(Buffer.from(js).equals(bytes), `${w}: wnn.convert differs from the native converter`);
    const info = JSON.parse(ok(native(['info', `${w}.wnn`, '--json', '--weights']), `info ${w}`).stdout);
    const coded = info.weights.filter((p) => p.codec === w);
    if (w === 'raw') {
      assert.equal(report.weights.length, 0);
      assert.ok(info.weights.every((p) => p.codec === 'raw' || p.codec === 'fill'));
    } else {
      // The two big tensors (Conv 16x8x5x5 and the 256x10 MatMul) are coded; small ones stay raw.
      assert.deepEqual(coded.map((p) => p.name).sort(), report.weights.map((p) => p.name).sort());
      assert.equal(coded.length, 2, JSON.stringify(info.weights));
      for (const p of coded) {
        const numel = p.shape.reduce((a, b) => a * b, 1);
        assert.equal(p.size, 4 * numel);
        assert.equal(p.stored, w === 'fp16' ? 2 * numel : 4 * p.shape[0] + numel);
      }
      for (const p of report.weights) assert.ok(p.max_rel_error > 0 && p.max_rel_error < (w === 'fp16' ? 1 / 2048 : 1 / 254 + 1e-6), JSON.stringify(p));
      assert.match(r.stderr, new RegExp(`--weights ${w} --compress none: 2 params`));
    }
    const m = await wnn.load(bytes);
    outputs[w] = (await m.predict({ Input3: input.data })).Plus214_Output_0.data;
    m.dispose();
  }
  assert.ok(sizes.fp16 < sizes.raw && sizes.int8 < sizes.fp16, JSON.stringify(sizes));
  const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
  const scale = Math.max(...outputs.raw.map(Math.abs));
  t.diagnostic(`mnist sizes ${JSON.stringify(sizes)}; max |output - raw output| / max |raw output|: fp16 ${maxDiff(outputs.fp16, outputs.raw) / scale}, int8 ${maxDiff(outputs.int8, outputs.raw) / scale}`);
  assert.ok(maxDiff(outputs.fp16, outputs.raw) < 1e-3 * scale);
  assert.ok(maxDiff(outputs.int8, outputs.raw) < 2e-2 * scale);
  const argmax = (a) => a.indexOf(Math.max(...a));
  assert.equal(argmax(outputs.fp16), argmax(outputs.raw));
  assert.equal(argmax(outputs.int8), argmax(outputs.raw));
  // A params blob with fp16 tensors: the same outputs as the fp16 artifact.
  ok(native(['convert', onnx, '-o', 'split.wnn', '--params-out', 'split.wnnp', '--weights', 'fp16']), 'convert split fp16');
  const params = await wnn.loadParams(path.join(tmp, 'split.wnnp'));
  const m = await wnn.load(path.join(tmp, 'split.wnn'), { params });
  const out = (await m.predict({ Input3: input.data })).Plus214_Output_0.data;
  assert.ok(Buffer.from(out.buffer).equals(Buffer.from(outputs.fp16.buffer)));
  m.dispose();
  params.dispose();
  // Bad flag values.
  const r = native(['convert', onnx, '-o', 'x.wnn', '--weights', 'bf16']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--weights expects raw, fp16 or int8, got 'bf16'/);
  await assert.rejects(wnn.convert(onnx, { weights: 'bf16' }), code('WNN_ERR_INVALID_ARGUMENT', /options\.weights/));
});

test('lz4 and zstd weights: dist/wnn-codecs.wasm fetched on first use, values bitwise the uncompressed ones, corrupt streams named', { timeout: 300000 }, async (t) => {
  const skip = missing(NATIVE, MNIST, path.join(ROOT, 'dist/wnn-codecs.wasm'), path.join(FIXTURES, 'codec/lz4.wnn'), path.join(ROOT, 'dist/wnn-convert.wasm'));
  if (skip) return t.skip(skip);
  // Before anything loaded the decoders: a codecs module that is not there is a named error.
  const lz4 = path.join(FIXTURES, 'codec/lz4.wnn');
  await assert.rejects(wnn.load(lz4, { codecs: path.join(tmp, 'no-such.wasm') }),
    code('WNN_ERR_IO', /weights stored with lz4 or zstd need dist\/wnn-codecs\.wasm \(options\.codecs\), which did not load/));
  // lz4 (the fixture, written by make_fixtures): its output is the C reference's.
  const input = parseNpy(fs.readFileSync(path.join(FIXTURES, 'codec/lz4.input_0.npy')));
  const want = parseNpy(fs.readFileSync(path.join(FIXTURES, 'codec/lz4.output_0.npy')));
  const m1 = await wnn.load(lz4);
  const out1 = await m1.predict({ x: input.data });
  assert.ok(Buffer.from(out1.y.data.buffer).equals(Buffer.from(want.data.buffer)));
  m1.dispose();
  // zstd, alone and after fp16, from both converters; outputs bitwise the uncompressed artifacts'.
  const onnx = path.join(MNIST, 'model.onnx');
  const x = parseTensorProto(fs.readFileSync(path.join(MNIST, 'test_data_set_0/input_0.pb')));
  for (const w of ['raw', 'fp16']) {
    ok(native(['convert', onnx, '-o', `${w}.wnn`, '--weights', w]), `convert ${w}`);
    ok(native(['convert', onnx, '-o', `${w}-zstd.wnn`, '--weights', w, '--compress', 'zstd']), `convert ${w} zstd`);
    const bytes = fs.readFileSync(path.join(tmp, `${w}-zstd.wnn`));
    assert.ok(bytes.length < fs.statSync(path.join(tmp, `${w}.wnn`)).size);
    assert.ok(Buffer.from(await wnn.convert(onnx, { weights: w, compress: 'zstd' })).equals(bytes), `${w}+zstd: wnn.convert differs`);
    const info = JSON.parse(ok(native(['info', `${w}-zstd.wnn`, '--json', '--weights']), 'info').stdout);
    assert.ok(info.weights.some((p) => p.codec === (w === 'raw' ? 'zstd' : 'fp16+zstd')), JSON.stringify(info.weights));
    const outs = [];
    for (const f of [`${w}.wnn`, `${w}-zstd.wnn`]) {
      const m = await wnn.load(path.join(tmp, f));
      outs.push((await m.predict({ Input3: x.data })).Plus214_Output_0.data);
      m.dispose();
    }
    assert.ok(Buffer.from(outs[0].buffer).equals(Buffer.from(outs[1].buffer)), `${w}: zstd changed the output`);
  }
  // A params blob with zstd tensors, and one with a stream changed (CRCs off, so the decoder refuses).
  ok(native(['convert', onnx, '-o', 'split.wnn', '--params-out', 'split.wnnp', '--compress', 'zstd']), 'convert split zstd');
  const blob = fs.readFileSync(path.join(tmp, 'split.wnnp'));
  const params = await wnn.loadParams(blob);
  const m = await wnn.load(path.join(tmp, 'split.wnn'), { params });
  m.dispose();
  params.dispose();
  const view = new DataView(blob.buffer, blob.byteOffset, blob.length);
  const table = Number(view.getBigUint64(40, true));
  let zstd = null;
  for (let i = 0; i < view.getUint32(32, true) && !zstd; i++) {
    const e = table + 64 * i;
    if (view.getUint32(e + 20, true) === 0x200) zstd = { off: Number(view.getBigUint64(e + 24, true)), n: Number(view.getBigUint64(e + 32, true)) };
  }
  assert.ok(zstd, 'no zstd tensor in the blob');
  const bad = Uint8Array.from(blob);
  for (let k = 0; k < 8; k++) bad[zstd.off + (zstd.n >> 1) + k] ^= 0x55;
  await assert.rejects(wnn.loadParams(bad, { verifyChecksum: false }), code('WNN_ERR_MALFORMED', /tensor '.*': its zstd stream \(codec 0x200, zstd\) is corrupt/));
  await assert.rejects(wnn.loadParams(bad), code('WNN_ERR_CHECKSUM', /does not match its CRC-32/));
  // Bad flag values.
  const r = native(['convert', onnx, '-o', 'x.wnn', '--compress', 'gzip']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--compress expects none, lz4 or zstd, got 'gzip'/);
  await assert.rejects(wnn.convert(onnx, { compress: 'gzip' }), code('WNN_ERR_INVALID_ARGUMENT', /options\.compress/));
});

test('the OCR example reads the same text with fp16 weights as with float32', { timeout: 600000 }, async (t) => {
  const det = path.join(EXAMPLES, 'ppocr/en_PP-OCRv3_det_infer.onnx');
  const rec = path.join(EXAMPLES, 'ppocr/en_PP-OCRv3_rec_infer.onnx');
  const skip = missing(NATIVE, det, rec, path.join(EXAMPLES, 'ocr-image.npy'), path.join(EXAMPLES, 'ppocr-det.wnn'));
  if (skip) return t.skip(`${skip} (node examples/prepare.mjs makes it)`);
  const info = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'ocr.json'), 'utf8'));
  ok(native(['convert', det, '-o', 'det16.wnn', '--shape', 'x=1x3x640x640', '--weights', 'fp16']), 'det fp16');
  ok(native(['convert', rec, '-o', 'rec16.wnn', '--default-shape', 'x=1x3x48x320', '--weights', 'fp16']), 'rec fp16');
  const image = imageFromNpy(parseNpy(fs.readFileSync(path.join(EXAMPLES, 'ocr-image.npy'))));
  const read = async (d, r) => {
    const [dm, rm] = [await wnn.load(d), await wnn.load(r)];
    const rows = textRows(ocr(dm, rm, image).lines);
    dm.dispose();
    rm.dispose();
    return rows;
  };
  const f32 = await read(path.join(EXAMPLES, 'ppocr-det.wnn'), path.join(EXAMPLES, 'ppocr-rec.wnn'));
  const f16 = await read(path.join(tmp, 'det16.wnn'), path.join(tmp, 'rec16.wnn'));
  t.diagnostic(`rendered ${JSON.stringify(info.text)}; float32 reads ${JSON.stringify(f32)}; fp16 reads ${JSON.stringify(f16)}`);
  assert.deepEqual(f16, f32);
  assert.deepEqual(f16, info.text, "fp16 weights read the rendered text exactly");
  const sizes = ['det16.wnn', 'rec16.wnn'].map((f) => fs.statSync(path.join(tmp, f)).size);
  const raw = ['ppocr-det.wnn', 'ppocr-rec.wnn'].map((f) => fs.statSync(path.join(EXAMPLES, f)).size);
  t.diagnostic(`artifact bytes float32 ${raw.join(' + ')}, fp16 ${sizes.join(' + ')}`);
  assert.ok(sizes[0] < 0.6 * raw[0] && sizes[1] < 0.6 * raw[1]);
});
