// wnn/io (js/io.js): .npy files written by NumPy read back exactly, .npy files
// it writes read back exactly by NumPy, ONNX TensorProto files of Debian's
// libonnx-testdata read as onnx.numpy_helper.to_array reads them, the typed
// fields (packed and not) of hand-made messages, every refusal with its
// message, and truncated or bit-flipped inputs that must throw an Error or
// return a consistent tensor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { formatNpy, parseNpy, parseTensorProto } from 'wnn/io';
import * as wnn from 'wnn';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const python = '/usr/bin/python3';
const ARRAYS = {
  float32: Float32Array, float16: Uint16Array, float64: Float64Array, int64: BigInt64Array,
  int32: Int32Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
};

// Runs a Python program with numpy (and onnx when asked); null (and why) when
// either is missing.
function havePython(modules) {
  const r = spawnSync(python, ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8' });
  if (r.error) return `${python} does not run (${r.error.code})`;
  if (r.status !== 0) return `${python} lacks ${modules.join(' or ')}: ${r.stderr.trim().split('\n').pop()}`;
  return null;
}
function py(program, args = [], input = undefined) {
  const r = spawnSync(python, ['-c', program, ...args], { encoding: 'utf8', input, maxBuffer: 1 << 26 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `python failed:\n${r.stderr}`);
  return r.stdout;
}
const tempDir = (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-io-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const bytesOf = (data) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

// A tensor must be what it says it is.
function assertConsistent(t, what) {
  assert.ok(Object.hasOwn(ARRAYS, t.dtype), `${what}: dtype ${t.dtype}`);
  assert.ok(Array.isArray(t.shape) && t.shape.every((d) => Number.isSafeInteger(d) && d >= 0), `${what}: shape ${t.shape}`);
  assert.ok(t.data instanceof ARRAYS[t.dtype], `${what}: ${t.dtype} data is a ${t.data?.constructor?.name}`);
  assert.equal(t.data.length, t.shape.reduce((a, b) => a * b, 1), `${what}: element count`);
}

// ---------------------------------------------------------------------- .npy

// Each case: the file NumPy writes (np.save, or write_array with a version)
// and the C-order little-endian bytes of the same array.
const NPY_CASES = `
import json, sys, os, numpy as np
out = sys.argv[1]
rng = np.random.default_rng(7)
cases = {
  'f4': rng.standard_normal((2, 3, 4)).astype('<f4'),
  'f2': np.array([0, 1, -2.5, 65504, 6e-8], dtype='<f2'),
  'f8': np.array([[1 / 3, -1e300], [5e-324, 2.0], [np.pi, 0]], dtype='<f8'),
  'i8': np.array([0, -1, 2**62, -2**63, 2**63 - 1], dtype='<i8'),
  'i4': np.array([[-2**31, 2**31 - 1], [7, -7]], dtype='<i4'),
  'i1': np.array([-128, 127, 0, -1, 5, 6], dtype='i1'),
  'u1': np.arange(6, dtype='u1').reshape(3, 1, 2),
  'b1': np.array([True, False, True, True, False, False, True]),
  'scalar': np.array(1.5, dtype='<f4'),
  'empty': np.zeros((0, 3), dtype='<f4'),
  'ones': np.ones((1,), dtype='<i8'),
}
meta = {}
for name, a in cases.items():
    np.save(os.path.join(out, name + '.npy'), a)
    meta[name] = {'shape': list(a.shape), 'descr': a.dtype.str}
    open(os.path.join(out, name + '.bin'), 'wb').write(a.tobytes())
for v in [(1, 0), (2, 0), (3, 0)]:
    a = cases['f4']
    with open(os.path.join(out, 'v%d.npy' % v[0]), 'wb') as f:
        np.lib.format.write_array(f, a, version=v)
    meta['v%d' % v[0]] = {'shape': list(a.shape), 'descr': a.dtype.str}
    open(os.path.join(out, 'v%d.bin' % v[0]), 'wb').write(a.tobytes())
# What is refused.
np.save(os.path.join(out, 'fortran.npy'), np.asfortranarray(np.arange(6, dtype='<f4').reshape(2, 3)))
np.save(os.path.join(out, 'big.npy'), np.arange(4, dtype='>f4'))
np.save(os.path.join(out, 'object.npy'), np.array([1, 'a'], dtype=object), allow_pickle=True)
np.save(os.path.join(out, 'int16.npy'), np.arange(4, dtype='<i2'))
np.save(os.path.join(out, 'complex.npy'), np.arange(4, dtype='<c8'))
np.save(os.path.join(out, 'structured.npy'), np.zeros(2, dtype=[('a', '<f4'), ('b', '<i4')]))
json.dump(meta, sys.stdout)
`;
const DESCR = { '<f4': 'float32', '<f2': 'float16', '<f8': 'float64', '<i8': 'int64', '<i4': 'int32', '|i1': 'int8', '|u1': 'uint8', '|b1': 'bool' };

test('.npy written by NumPy: every dtype, versions 1.0-3.0, scalars and empty arrays', (t) => {
  const why = havePython(['numpy']);
  if (why) { t.skip(why); return; }
  const dir = tempDir(t);
  const meta = JSON.parse(py(NPY_CASES, [dir]));
  for (const [name, { shape, descr }] of Object.entries(meta)) {
    const file = fs.readFileSync(path.join(dir, `${name}.npy`));
    const got = parseNpy(file);
    assertConsistent(got, name);
    assert.equal(got.dtype, DESCR[descr], name);
    assert.deepEqual(got.shape, shape, name);
    assert.deepEqual(bytesOf(got.data), new Uint8Array(fs.readFileSync(path.join(dir, `${name}.bin`))), `${name}: the data`);
    // An ArrayBuffer, and bytes at an odd offset, read the same.
    const odd = new Uint8Array(file.length + 1);
    odd.set(file, 1);
    assert.deepEqual(parseNpy(odd.subarray(1)).data, got.data, `${name} at an odd offset`);
    assert.deepEqual(parseNpy(odd.slice(1).buffer).data, got.data, `${name} from an ArrayBuffer`);
  }
  // float64 stays float64 unless converting is asked for.
  const f8 = fs.readFileSync(path.join(dir, 'f8.npy'));
  assert.equal(parseNpy(f8).data[0], 1 / 3);
  const f32 = parseNpy(f8, { double: 'float32' });
  assert.equal(f32.dtype, 'float32');
  assert.ok(f32.data instanceof Float32Array);
  assert.deepEqual(f32.data, Float32Array.from(parseNpy(f8).data));
  assert.deepEqual(parseNpy(fs.readFileSync(path.join(dir, 'i8.npy'))).data, BigInt64Array.from([0n, -1n, 2n ** 62n, -(2n ** 63n), 2n ** 63n - 1n]));

  const refused = {
    fortran: /fortran_order is True .*C order/,
    big: /dtype '>f4' is big-endian/,
    object: /dtype '\|O' is an object array/,
    int16: /dtype '<i2' is not read \(little-endian f4, f2, f8, i8, i4, i1, u1, b1 are\)/,
    complex: /dtype '<c8' is not read/,
    structured: /descr: a list \(a structured dtype\?\) is not read/,
  };
  for (const [name, message] of Object.entries(refused)) {
    assert.throws(() => parseNpy(fs.readFileSync(path.join(dir, `${name}.npy`))), (e) => e instanceof Error && message.test(e.message), name);
  }
});

test('.npy written by formatNpy reads back in NumPy, and in parseNpy', (t) => {
  const tensors = [
    { dtype: 'float32', shape: [2, 3], data: Float32Array.from([0, 1.5, -2, 1e-30, 3e38, -0]) },
    { dtype: 'float16', shape: [3], data: Uint16Array.from([0x3c00, 0xc000, 0x7bff]) },
    { dtype: 'float64', shape: [1, 2], data: Float64Array.from([1 / 3, -1e300]) },
    { dtype: 'int64', shape: [3], data: BigInt64Array.from([-(2n ** 63n), 0n, 2n ** 63n - 1n]) },
    { dtype: 'int32', shape: [2, 1, 1], data: Int32Array.from([-5, 2 ** 31 - 1]) },
    { dtype: 'int8', shape: [2], data: Int8Array.from([-128, 127]) },
    { dtype: 'uint8', shape: [1, 1, 4], data: Uint8Array.from([0, 1, 254, 255]) },
    { dtype: 'bool', shape: [3], data: Uint8Array.from([1, 0, 1]) },
    { dtype: 'float32', shape: [], data: Float32Array.from([7]) },
    { dtype: 'int32', shape: [0, 5], data: new Int32Array(0) },
  ];
  const files = tensors.map(formatNpy);
  for (const [k, want] of tensors.entries()) {
    assert.equal((files[k].indexOf(0x0a, 10) + 1) % 64, 0, 'the data starts 64-byte aligned');
    assert.deepEqual(parseNpy(files[k]), want);
  }
  // A header over 64 KiB needs format 2.0 (NumPy itself takes at most 32 dimensions).
  const long = { dtype: 'uint8', shape: Array(25000).fill(1), data: Uint8Array.from([9]) };
  assert.equal(formatNpy(long)[6], 2, 'version 2.0 for a long header');
  assert.deepEqual(parseNpy(formatNpy(long)), long);
  const why = havePython(['numpy']);
  if (why) { t.skip(`not read by NumPy: ${why}`); return; }
  const dir = tempDir(t);
  files.forEach((f, k) => fs.writeFileSync(path.join(dir, `${k}.npy`), f));
  const read = JSON.parse(py(`
import json, sys, os, numpy as np
out = []
for k in range(int(sys.argv[2])):
    a = np.load(os.path.join(sys.argv[1], '%d.npy' % k))
    out.append({'descr': a.dtype.str, 'shape': list(a.shape), 'bytes': a.tobytes().hex()})
json.dump(out, sys.stdout)
`, [dir, String(files.length)]));
  for (const [k, want] of tensors.entries()) {
    assert.equal(DESCR[read[k].descr], want.dtype, `tensor ${k}`);
    assert.deepEqual(read[k].shape, want.shape, `tensor ${k}`);
    assert.equal(read[k].bytes, Buffer.from(bytesOf(want.data)).toString('hex'), `tensor ${k}`);
  }
});

test('formatNpy refuses what it cannot write faithfully', () => {
  const cases = [
    [{ dtype: 'int16', shape: [1], data: new Int16Array(1) }, /dtype int16 is not written/],
    [{ dtype: 'float32', shape: [2], data: new Float64Array(2) }, /float32 data must be a Float32Array, got Float64Array/],
    [{ dtype: 'float32', shape: [2, 2], data: new Float32Array(3) }, /shape \[2, 2\] has 4 elements; data has 3/],
    [{ dtype: 'float32', shape: [-1], data: new Float32Array(1) }, /shape must be an array of non-negative integers/],
    [{ dtype: 'float32', shape: '2', data: new Float32Array(2) }, /shape must be an array/],
    [null, /expected \{dtype, shape, data\}/],
  ];
  for (const [tensor, message] of cases) assert.throws(() => formatNpy(tensor), message);
});

test('parseNpy refuses malformed headers, naming what is wrong', () => {
  const npy = (header, data = new Uint8Array(0), major = 1) => {
    const start = major === 1 ? 10 : 12;
    const out = new Uint8Array(start + header.length + data.length);
    out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
    const dv = new DataView(out.buffer);
    if (major === 1) dv.setUint16(8, header.length, true); else dv.setUint32(8, header.length, true);
    out.set(new TextEncoder().encode(header), start);
    out.set(data, start + header.length);
    return out;
  };
  const ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n";
  assert.deepEqual(parseNpy(npy(ok, new Uint8Array(8))).shape, [2]);
  assert.deepEqual(parseNpy(npy("{'descr': '|u1', 'fortran_order': False, 'shape': (2L, 3L), }", new Uint8Array(6))).shape, [2, 3], 'Python 2 longs');
  assert.deepEqual(parseNpy(npy('{"descr": "<f4", "shape": (), "fortran_order": False}', new Uint8Array(4), 3)).shape, [], 'any key order, double quotes, 3.0');
  const cases = [
    [new Uint8Array(0), /truncated: 0 bytes, shorter than the preamble/],
    [new TextEncoder().encode('PK\x03\x04 a zip file'), /not a \.npy file/],
    [npy(ok, new Uint8Array(8), 4), /format version 4\.0; this reads 1\.0, 2\.0 and 3\.0/],
    [npy(ok, new Uint8Array(7)), /truncated: float32 \[2\] needs 8 bytes of data; 7 follow the header/],
    [npy(ok, new Uint8Array(9)), /1 bytes after the 8 bytes of data of float32 \[2\]/],
    [npy(ok).subarray(0, 30), /truncated: the header claims 58 bytes, 20 follow the preamble/],
    [npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999, 99999999, 99999999), }"), /truncated: float32 \[99999999, 99999999, 99999999\] needs more than 2\^53 bytes of data; 0 follow the header/],
    [npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2), }", new Uint8Array(8)), /\(n\) is not a tuple/],
    [npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }"), /shape: expected a non-negative integer/],
    [npy("{'descr': '<f4', 'fortran_order': False}"), /no 'shape'/],
    [npy("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'extra': 1}"), /unexpected value|unknown key/],
    [npy("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}"), /fortran_order: unexpected value/],
    [npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}"), /'descr' twice/],
    [npy("{'descr': '<f4', 'fortran_order': False, 'shape': ()} junk"), /bytes after the dictionary/],
    [npy("__import__('os').system('true')"), /expected "\{" at offset 0/],
    [npy("{'descr': '=f4', 'fortran_order': False, 'shape': ()}", new Uint8Array(4)), /native byte order, which is unknown/],
    [npy("{'descr': 'float32', 'fortran_order': False, 'shape': ()}", new Uint8Array(4)), /dtype 'float32' is not read/],
  ];
  for (const [bytes, message] of cases) {
    assert.throws(() => parseNpy(bytes), (e) => e instanceof Error && message.test(e.message), `${message}: ${(() => { try { parseNpy(bytes); return 'no error'; } catch (e) { return e.message; } })()}`);
  }
  assert.throws(() => parseNpy('x.npy'), /expected the bytes \(a Uint8Array, Buffer or ArrayBuffer\), got string/);
  assert.throws(() => parseNpy([0x93]), /got an Array/);
  assert.throws(() => parseNpy(npy(ok, new Uint8Array(8)), { double: 'half' }), /options\.double must be 'float64' \(keep float64\) or 'float32' \(convert\), got half/);
});

// --------------------------------------------------------------- TensorProto

// The .pb files of libonnx-testdata, each read by onnx.numpy_helper.to_array
// and saved with np.save (or the reason it could not be).
const ONNX_DUMP = `
import sys, json, os, numpy as np, onnx
from onnx import numpy_helper
out = sys.argv[1]
man = []
for k, f in enumerate(l.strip() for l in sys.stdin if l.strip()):
    rec = {'file': f}
    try:
        t = onnx.TensorProto()
        with open(f, 'rb') as fh:
            t.ParseFromString(fh.read())
        rec['data_type'] = onnx.TensorProto.DataType.Name(t.data_type)
        rec['name'] = t.name
        a = numpy_helper.to_array(t)
        if a.dtype.kind in 'fiub':
            np.save(os.path.join(out, '%d.npy' % k), np.array(a, dtype=a.dtype.newbyteorder('<'), order='C'))
            rec['npy'] = '%d.npy' % k
    except Exception as e:
        rec['error'] = '%s: %s' % (type(e).__name__, str(e)[:200])
    man.append(rec)
json.dump(man, sys.stdout)
`;
const READ = ['FLOAT', 'FLOAT16', 'DOUBLE', 'INT64', 'INT32', 'INT8', 'UINT8', 'BOOL'];

test('TensorProto: every .pb of libonnx-testdata as onnx.numpy_helper.to_array reads it', (t) => {
  const list = spawnSync('dpkg', ['-L', 'libonnx-testdata'], { encoding: 'utf8' });
  if (list.status !== 0) { t.skip('libonnx-testdata is not installed (apt-get install libonnx-testdata)'); return; }
  const why = havePython(['numpy', 'onnx']);
  if (why) { t.skip(why); return; }
  const files = list.stdout.split('\n').filter((f) => f.endsWith('.pb'));
  assert.ok(files.length > 1000, `${files.length} .pb files`);
  const dir = tempDir(t);
  const manifest = JSON.parse(py(ONNX_DUMP, [dir], files.join('\n')));
  const counts = {};
  for (const rec of manifest) {
    const bytes = fs.readFileSync(rec.file);
    const what = path.relative('/usr/share/libonnx-testdata/data', rec.file);
    if (rec.npy && READ.includes(rec.data_type)) {
      const want = parseNpy(fs.readFileSync(path.join(dir, rec.npy)));
      {
        const got = parseTensorProto(bytes);
        assertConsistent(got, what);
        assert.equal(got.name, rec.name, what);
        assert.equal(got.dtype, want.dtype, what);
        assert.deepEqual(got.shape, want.shape, what);
        assert.deepEqual(bytesOf(got.data), bytesOf(want.data), `${what}: the data`);
        counts[rec.data_type] = (counts[rec.data_type] ?? 0) + 1;
        if (rec.data_type === 'DOUBLE') {
          const f32 = parseTensorProto(bytes, { double: 'float32' });
          assert.equal(f32.dtype, 'float32');
          assert.deepEqual(f32.data, Float32Array.from(want.data), what);
        }
        continue;
      }
    }
    // Another data type (INT16, UINT32, STRING, ...), a sequence or optional
    // (not a TensorProto), or a tensor NumPy could not read: refused by name.
    assert.throws(() => parseTensorProto(bytes), (e) => e instanceof Error && /^TensorProto: /.test(e.message), `${what}: ${JSON.stringify(rec)}`);
    counts.refused = (counts.refused ?? 0) + 1;
  }
  t.diagnostic(`read like numpy_helper: ${JSON.stringify(counts)}`);
  for (const dt of READ) assert.ok(counts[dt] > 0, `no ${dt} tensor was compared`);
});

// A protobuf writer for hand-made messages: (field, wire type, payload).
const varint = (v) => {
  const out = [];
  let x = BigInt.asUintN(64, BigInt(v));
  do { out.push(Number(x & 0x7fn) | (x > 0x7fn ? 0x80 : 0)); x >>= 7n; } while (x > 0n);
  return out;
};
const key = (field, wire) => varint(field * 8 + wire);
const f32 = (v) => [...new Uint8Array(Float32Array.of(v).buffer)];
const f64 = (v) => [...new Uint8Array(Float64Array.of(v).buffer)];
const lengthDelimited = (field, bytes) => [...key(field, 2), ...varint(bytes.length), ...bytes];
const message = (...parts) => Uint8Array.from(parts.flat(Infinity));
const dims = (...ds) => ds.map((d) => [...key(1, 0), ...varint(d)]);
const dataType = (v) => [...key(2, 0), ...varint(v)];
const nameField = (s) => lengthDelimited(8, [...new TextEncoder().encode(s)]);

test('TensorProto: typed fields packed and unpacked, in any order, unknown fields skipped', (t) => {
  const unpacked = message(nameField('x'), [...key(4, 5), ...f32(1.5)], dims(2), dataType(1), [...key(4, 5), ...f32(-2)], [...key(99, 0), 5]);
  assert.deepEqual(parseTensorProto(unpacked), { name: 'x', dtype: 'float32', shape: [2], data: Float32Array.of(1.5, -2) });
  const packed = message(lengthDelimited(1, [...varint(1), ...varint(2)]), dataType(1), lengthDelimited(4, [...f32(1), ...f32(2)]));
  assert.deepEqual(parseTensorProto(packed), { name: '', dtype: 'float32', shape: [1, 2], data: Float32Array.of(1, 2) });
  const int64 = message(dims(3), dataType(7), lengthDelimited(7, [...varint(-1), ...varint(2n ** 62n)]), [...key(7, 0), ...varint(-(2n ** 63n))]);
  assert.deepEqual(parseTensorProto(int64).data, BigInt64Array.of(-1n, 2n ** 62n, -(2n ** 63n)));
  const int32 = message(dims(2), dataType(6), [...key(5, 0), ...varint(-7)], [...key(5, 0), ...varint(2 ** 31 - 1)]);
  assert.deepEqual(parseTensorProto(int32).data, Int32Array.of(-7, 2 ** 31 - 1));
  const int8 = message(dims(2), dataType(3), lengthDelimited(5, [...varint(-128), ...varint(127)]));
  assert.deepEqual(parseTensorProto(int8).data, Int8Array.of(-128, 127));
  const half = message(dims(1), dataType(10), [...key(5, 0), ...varint(0x3c00)]);
  assert.deepEqual(parseTensorProto(half), { name: '', dtype: 'float16', shape: [1], data: Uint16Array.of(0x3c00) });
  const bool = message(dims(2), dataType(9), lengthDelimited(5, [1, 0]));
  assert.deepEqual(parseTensorProto(bool).data, Uint8Array.of(1, 0));
  const double = message(dims(2), dataType(11), lengthDelimited(10, [...f64(0.1), ...f64(-3)]), [...key(12, 2), 1, 0x41]);
  assert.deepEqual(parseTensorProto(double), { name: '', dtype: 'float64', shape: [2], data: Float64Array.of(0.1, -3) });
  assert.deepEqual(parseTensorProto(double, { double: 'float32' }), { name: '', dtype: 'float32', shape: [2], data: Float32Array.of(0.1, -3) });
  const scalar = message(dataType(1), lengthDelimited(9, f32(4)));
  assert.deepEqual(parseTensorProto(scalar), { name: '', dtype: 'float32', shape: [], data: Float32Array.of(4) });
  const empty = message(dims(0, 3), dataType(7));
  assert.deepEqual(parseTensorProto(empty), { name: '', dtype: 'int64', shape: [0, 3], data: new BigInt64Array(0) });

  // The same numbers from python3-onnx's make_tensor (typed fields, not raw).
  const why = havePython(['numpy', 'onnx']);
  if (why) { t.skip(`make_tensor not compared: ${why}`); return; }
  const made = JSON.parse(py(`
import json, sys, numpy as np
from onnx import helper, mapping, TensorProto
cases = [
  (TensorProto.FLOAT, [2, 2], [1.5, -2, 0, 3e38]), (TensorProto.DOUBLE, [3], [0.1, -1e300, 2]),
  (TensorProto.INT64, [2], [-2**63, 2**63 - 1]), (TensorProto.INT32, [3], [-2**31, 0, 2**31 - 1]),
  (TensorProto.INT8, [2], [-128, 127]), (TensorProto.UINT8, [2], [0, 255]), (TensorProto.BOOL, [3], [True, False, True]),
  (TensorProto.FLOAT16, [2], np.array([1, -0.5], dtype=np.float16)),
]
out = []
for dt, shape, vals in cases:
    t = helper.make_tensor('t%d' % dt, dt, shape, vals, raw=False)
    out.append({'pb': t.SerializeToString().hex(), 'descr': mapping.TENSOR_TYPE_TO_NP_TYPE[dt].str, 'shape': shape,
                'bytes': np.asarray(vals, dtype=mapping.TENSOR_TYPE_TO_NP_TYPE[dt]).tobytes().hex()})
json.dump(out, sys.stdout)
`));
  for (const m of made) {
    const got = parseTensorProto(Buffer.from(m.pb, 'hex'));
    assert.equal(got.dtype, DESCR[m.descr.replace(/^[=]/, '<')] ?? DESCR[m.descr], m.descr);
    assert.deepEqual(got.shape, m.shape);
    assert.equal(Buffer.from(bytesOf(got.data)).toString('hex'), m.bytes, `${got.name}`);
  }
});

test('TensorProto: refusals name what is wrong', () => {
  const cases = [
    [message(dims(2), dataType(5), lengthDelimited(9, [0, 0, 0, 0])), /data_type 5 \(INT16\) is not read \(FLOAT, FLOAT16, DOUBLE, INT64, INT32, INT8, UINT8, BOOL are\)/],
    [message(dims(1), dataType(8), lengthDelimited(6, [0x61])), /data_type 8 \(STRING\) is not read/],
    [message(dims(2)), /no data_type/],
    [message(dims(3), dataType(1), lengthDelimited(9, f32(1))), /float32 \[3\] has 3 elements; raw_data holds 4 bytes/],
    [message(dims(2), dataType(1), [...key(4, 5), ...f32(1)]), /float32 \[2\] has 2 elements; float_data holds 1/],
    [message(dims(1), dataType(1), [...key(4, 5), ...f32(1)], lengthDelimited(9, f32(1))), /both raw_data and float_data/],
    [message(dims(1), dataType(1), [...key(7, 0), 1]), /float32 tensor "" has int64_data, which hold another data type/],
    [message(dims(1), dataType(3), [...key(5, 0), ...varint(200)]), /int32_data\[0\] = 200 is out of range for int8/],
    [message(dims(-1), dataType(1)), /dims: -1 is not a dimension/],
    [message(dims(1e9, 1e9, 1e9), dataType(1), lengthDelimited(9, f32(1))), /has more than 2\^53 elements; raw_data holds 4 bytes/],
    [message(nameField('w'), dims(1), dataType(1), [...key(14, 0), 1], lengthDelimited(13, [])), /tensor "w" keeps its data in an external file/],
    [message(lengthDelimited(3, [8, 0, 16, 1]), dims(1), dataType(1), [...key(4, 5), ...f32(1)]), /a segmented tensor/],
    [message(dims(1), dataType(1), lengthDelimited(9, f32(1))).subarray(0, 9), /truncated: raw_data claims 4 bytes at byte 6, 3 remain/],
    [message(dims(1), [...key(2, 0), 0x81]), /truncated: data_type ends at byte 4, inside a varint/],
    [message(dims(1), dataType(1), lengthDelimited(4, [0, 0, 0])), /float_data: a packed run of 3 bytes is not a multiple of 4/],
    [message(dims(1), dataType(1), [...key(4, 0), 1]), /float_data \(field 4\) has wire type 0/],
    [message(dims(1), [...key(2, 2), 0]), /data_type \(field 2\) has wire type 2 at byte 2, not 0/],
    [message([...key(20, 3)]), /field 20 has wire type 3 at byte 0, which a TensorProto never has/],
    [message([0]), /field number 0 at byte 0/],
    [message([...key(1, 0), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), /dims: a varint longer than 10 bytes/],
  ];
  for (const [bytes, pattern] of cases) {
    let error;
    try { parseTensorProto(bytes); } catch (e) { error = e; }
    assert.ok(error instanceof Error, `${pattern}: nothing was thrown`);
    assert.match(error.message, /^TensorProto: /);
    assert.match(error.message, pattern);
  }
  assert.throws(() => parseTensorProto({ length: 3 }), /parseTensorProto: expected the bytes/);
});

// -------------------------------------------------------------------- fuzzing

// A seeded generator (mulberry32), so a failure repeats.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

test('truncated and bit-flipped inputs throw an Error or read as a consistent tensor', () => {
  const seeds = {
    npy: [
      formatNpy({ dtype: 'float32', shape: [2, 3], data: Float32Array.from([1, 2, 3, 4, 5, 6]) }),
      formatNpy({ dtype: 'int64', shape: [2], data: BigInt64Array.of(-1n, 5n) }),
      formatNpy({ dtype: 'bool', shape: [], data: Uint8Array.of(1) }),
    ],
    pb: [
      message(nameField('input'), dims(2, 2), dataType(1), lengthDelimited(9, [...f32(1), ...f32(2), ...f32(3), ...f32(4)])),
      message(dims(3), dataType(7), lengthDelimited(7, [...varint(-1), ...varint(300), ...varint(2)])),
      message(dims(2), dataType(11), [...key(10, 1), ...f64(0.5)], [...key(10, 1), ...f64(-1)]),
      message(dims(2), dataType(10), lengthDelimited(5, [...varint(0x3c00), ...varint(0)])),
    ],
  };
  const parse = { npy: parseNpy, pb: parseTensorProto };
  const next = rng(12);
  let threw = 0;
  let read = 0;
  const tryOne = (kind, bytes, what) => {
    let got;
    try {
      got = parse[kind](bytes);
    } catch (e) {
      assert.ok(e instanceof Error, `${what}: threw ${e}`);
      assert.ok(!(e instanceof RangeError && /offset|bounds/i.test(e.message)), `${what}: an out-of-range read: ${e.message}`);
      threw++;
      return;
    }
    assertConsistent(got, what);
    read++;
  };
  for (const [kind, list] of Object.entries(seeds)) {
    for (const [s, seed] of list.entries()) {
      // Every truncation.
      for (let n = 0; n < seed.length; n++) tryOne(kind, seed.slice(0, n), `${kind} ${s} cut at ${n}`);
      // Random bit flips (1 to 4 per try) and random bytes appended.
      for (let k = 0; k < 1500; k++) {
        const bytes = seed.slice();
        for (let f = 1 + Math.floor(next() * 4); f > 0; f--) bytes[Math.floor(next() * bytes.length)] ^= 1 << Math.floor(next() * 8);
        tryOne(kind, bytes, `${kind} ${s} flipped (try ${k})`);
      }
      for (let k = 0; k < 100; k++) {
        const extra = Uint8Array.from({ length: 1 + Math.floor(next() * 12) }, () => Math.floor(next() * 256));
        const bytes = new Uint8Array(seed.length + extra.length);
        bytes.set(seed);
        bytes.set(extra, seed.length);
        tryOne(kind, bytes, `${kind} ${s} with bytes appended (try ${k})`);
      }
    }
  }
  // Random garbage.
  for (let k = 0; k < 2000; k++) {
    const bytes = Uint8Array.from({ length: Math.floor(next() * 64) }, () => Math.floor(next() * 256));
    tryOne('pb', bytes, `garbage ${k}`);
    tryOne('npy', bytes, `garbage ${k}`);
  }
  assert.ok(threw > 1000 && read > 100, `threw ${threw}, read ${read}`);
});

// --------------------------------------------------------- with the runtime

test('outputs carry name, shape and dtype, and go out through formatNpy', async (t) => {
  const file = path.join(root, 'build/fixtures/two_outputs.wnn');
  if (!fs.existsSync(file)) { t.skip('no build/fixtures/two_outputs.wnn (npm test writes it with build/native/make_fixtures)'); return; }
  const model = await wnn.load(file);
  t.after(() => model.dispose());
  const input = model.inputs[0];
  const data = new Float32Array(input.shape.reduce((a, b) => a * b, 1)).map((_, i) => i / 16 - 0.5);
  const predicted = await model.predict({ [input.name]: data });
  const ex = model.createExecutor().setInput(input.name, data).run();
  for (const info of model.outputs) {
    for (const tensor of [predicted[info.name], ex.getOutput(info.name), ex.getOutput(info.name, { view: true })]) {
      assert.equal(tensor.name, info.name);
      assert.deepEqual(tensor.shape, [...info.shape]);
      assert.equal(tensor.dtype, info.dtype);
      const back = parseNpy(formatNpy(tensor));
      assert.deepEqual(back.shape, tensor.shape);
      assert.deepEqual(back.data, Float32Array.from(tensor.data));
    }
  }
  const held = ex.getInput(input.name);
  assert.deepEqual([held.name, held.shape, held.dtype], [input.name, [...input.shape], input.dtype]);
});
