// Shared by tests/conformance/run.mjs and tests/js/models.test.mjs: running
// one ONNX backend-test case (a folder with model.onnx and test_data_set_0/)
// through `wnn convert` and `wnn run`, and comparing the outputs.
//
//   - a protobuf wire-format reader for the few ONNX messages needed here
//     (ModelProto -> GraphProto inputs, outputs, initializer names, node op
//     types; TensorProto test data);
//   - a .npy reader (the CLI's outputs) and a float32 .npy writer;
//   - allclose with numpy's semantics (|got - want| <= atol + rtol * |want|,
//     NaN equal to NaN as numpy.testing.assert_allclose does), exact for
//     integer and bool tensors;
//   - runCase(): convert, info, run, compare, classified as
//     pass / fail / unsupported / error.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// ---------------------------------------------------------- protobuf reading

class Reader {
  constructor(buf, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  done() {
    return this.pos >= this.end;
  }

  // A varint as a BigInt (int64 fields may be negative: ten bytes, two's complement).
  varintBig() {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('protobuf: varint runs past the end of the message');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return BigInt.asIntN(64, result);
      shift += 7n;
    }
    throw new Error('protobuf: varint longer than 10 bytes');
  }

  varint() {
    return Number(this.varintBig());
  }

  bytes(n) {
    if (n < 0 || this.pos + n > this.end) throw new Error('protobuf: field runs past the end of the message');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  // Yields [field number, wire type]; the caller reads or skips the value.
  tag() {
    const t = this.varint();
    return [Math.floor(t / 8), t & 7];
  }

  skip(wire) {
    switch (wire) {
      case 0: this.varintBig(); break;
      case 1: this.bytes(8); break;
      case 2: this.bytes(this.varint()); break;
      case 5: this.bytes(4); break;
      default: throw new Error(`protobuf: unsupported wire type ${wire}`);
    }
  }

  sub() {
    const n = this.varint();
    const r = new Reader(this.buf, this.pos, this.pos + n);
    if (r.end > this.end) throw new Error('protobuf: submessage runs past the end of the message');
    this.pos += n;
    return r;
  }

  string() {
    return Buffer.from(this.sub().rest()).toString('utf8');
  }

  rest() {
    return this.bytes(this.end - this.pos);
  }
}

// Repeated scalar field, packed (wire type 2) or not: calls one(reader) per element.
function repeated(r, wire, elemWire, one) {
  if (wire === 2 && elemWire !== 2) {
    const s = r.sub();
    while (!s.done()) one(s);
  } else if (wire === elemWire) {
    one(r);
  } else {
    throw new Error(`protobuf: wire type ${wire} for a field of wire type ${elemWire}`);
  }
}

// ------------------------------------------------------------- TensorProto

// ONNX TensorProto.DataType numbers.
export const ONNX_DTYPES = {
  1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64', 8: 'string',
  9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64', 14: 'complex64',
  15: 'complex128', 16: 'bfloat16',
};

const ELEM = {
  float32: { size: 4, Array: Float32Array, kind: 'float' },
  float64: { size: 8, Array: Float64Array, kind: 'float' },
  float16: { size: 2, Array: Uint16Array, kind: 'float' },
  bfloat16: { size: 2, Array: Uint16Array, kind: 'float' },
  int64: { size: 8, Array: BigInt64Array, kind: 'int' },
  uint64: { size: 8, Array: BigUint64Array, kind: 'int' },
  int32: { size: 4, Array: Int32Array, kind: 'int' },
  uint32: { size: 4, Array: Uint32Array, kind: 'int' },
  int16: { size: 2, Array: Int16Array, kind: 'int' },
  uint16: { size: 2, Array: Uint16Array, kind: 'int' },
  int8: { size: 1, Array: Int8Array, kind: 'int' },
  uint8: { size: 1, Array: Uint8Array, kind: 'int' },
  bool: { size: 1, Array: Uint8Array, kind: 'bool' },
};

function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function bf16ToFloat(h) {
  const f = new Float32Array(1);
  new Uint32Array(f.buffer)[0] = h << 16;
  return f[0];
}

// A typed array of the element type from little-endian bytes (copied, so aligned).
function fromBytes(dtype, bytes) {
  const e = ELEM[dtype];
  if (!e) throw new Error(`tensor dtype ${dtype} is not supported by the test harness`);
  if (bytes.length % e.size) throw new Error(`${bytes.length} data bytes is not a multiple of ${e.size} (${dtype})`);
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new e.Array(copy.buffer, 0, bytes.length / e.size);
}

// Decodes one serialized onnx.TensorProto: {name, dtype, dims, data} where data
// is a typed array (float16 and bfloat16 as their bit patterns in a Uint16Array).
export function decodeTensorProto(buf) {
  const r = new Reader(buf);
  const dims = [];
  let dataType = 0;
  let name = '';
  let raw = null;
  let location = 0;
  const floats = [];
  const int32s = [];
  const int64s = [];
  const doubles = [];
  const uint64s = [];
  let strings = 0;
  while (!r.done()) {
    const [field, wire] = r.tag();
    switch (field) {
      case 1: repeated(r, wire, 0, (s) => dims.push(s.varint())); break;
      case 2: dataType = r.varint(); break;
      case 4: repeated(r, wire, 5, (s) => floats.push(Buffer.from(s.bytes(4)).readFloatLE(0))); break;
      case 5: repeated(r, wire, 0, (s) => int32s.push(Number(BigInt.asIntN(32, s.varintBig())))); break;
      case 6: r.skip(wire); strings++; break;
      case 7: repeated(r, wire, 0, (s) => int64s.push(s.varintBig())); break;
      case 8: name = r.string(); break;
      case 9: raw = r.sub().rest(); break;
      case 10: repeated(r, wire, 1, (s) => doubles.push(Buffer.from(s.bytes(8)).readDoubleLE(0))); break;
      case 11: repeated(r, wire, 0, (s) => uint64s.push(BigInt.asUintN(64, s.varintBig()))); break;
      case 14: location = r.varint(); break;
      default: r.skip(wire);
    }
  }
  const dtype = ONNX_DTYPES[dataType];
  if (!dtype) throw new Error(`TensorProto '${name}': unknown data_type ${dataType}`);
  if (location === 1) throw new Error(`TensorProto '${name}': external data is not supported by the test harness`);
  if (strings || dtype === 'string') throw new Error(`TensorProto '${name}': string tensors are not supported by the test harness`);
  const count = dims.reduce((a, b) => a * b, 1);
  let data;
  if (raw) {
    data = fromBytes(dtype, raw);
  } else {
    const e = ELEM[dtype];
    if (!e) throw new Error(`TensorProto '${name}': dtype ${dtype} is not supported by the test harness`);
    let src;
    if (dtype === 'float32') src = floats;
    else if (dtype === 'float64') src = doubles;
    else if (dtype === 'int64') src = int64s;
    else if (dtype === 'uint64' || dtype === 'uint32') src = uint64s;
    else src = int32s;
    if (dtype === 'uint32') src = src.map(Number);
    if (src.length !== count) {
      throw new Error(`TensorProto '${name}': ${src.length} values for dims [${dims}] (${count} elements)`);
    }
    data = new e.Array(count);
    for (let i = 0; i < count; i++) data[i] = src[i];
  }
  if (data.length !== count) {
    throw new Error(`TensorProto '${name}': ${data.length} elements of ${dtype} for dims [${dims}] (${count} elements)`);
  }
  return { name, dtype, dims, data };
}

export function readTensorProto(file) {
  try {
    return decodeTensorProto(fs.readFileSync(file));
  } catch (e) {
    e.message = `${file}: ${e.message}`;
    throw e;
  }
}

// ------------------------------------------------------------- ModelProto

function decodeShape(r) {
  const dims = [];
  while (!r.done()) {
    const [field, wire] = r.tag();
    if (field !== 1) {
      r.skip(wire);
      continue;
    }
    const d = r.sub();
    let dim = null; // null: neither dim_value nor dim_param
    while (!d.done()) {
      const [f, w] = d.tag();
      if (f === 1) dim = d.varint();
      else if (f === 2) dim = d.string();
      else d.skip(w);
    }
    dims.push(dim);
  }
  return dims;
}

// ValueInfoProto -> {name, kind ('tensor', 'sequence', 'map', 'optional', ...), elemType, dims}
// where dims is null when the shape is absent, and a dim is a number, a
// string (dim_param) or null (unknown).
function decodeValueInfo(r) {
  const v = { name: '', kind: 'unknown', elemType: 0, dims: null };
  while (!r.done()) {
    const [field, wire] = r.tag();
    if (field === 1) {
      v.name = r.string();
    } else if (field === 2) {
      const t = r.sub();
      while (!t.done()) {
        const [f, w] = t.tag();
        if (f === 1) {
          v.kind = 'tensor';
          const tt = t.sub();
          while (!tt.done()) {
            const [g, x] = tt.tag();
            if (g === 1) v.elemType = tt.varint();
            else if (g === 2) v.dims = decodeShape(tt.sub());
            else tt.skip(x);
          }
        } else if (f === 4) {
          v.kind = 'sequence'; t.skip(w);
        } else if (f === 5) {
          v.kind = 'map'; t.skip(w);
        } else if (f === 8) {
          v.kind = 'sparse_tensor'; t.skip(w);
        } else if (f === 9) {
          v.kind = 'optional'; t.skip(w);
        } else {
          t.skip(w);
        }
      }
    } else {
      r.skip(wire);
    }
  }
  return v;
}

function tensorName(r) {
  while (!r.done()) {
    const [field, wire] = r.tag();
    if (field === 8) return r.string();
    r.skip(wire);
  }
  return '';
}

// Adds a NodeProto's op type, and those of the graphs in its attributes
// (If branches, Loop bodies), to the set.
function nodeOpTypes(n, opTypes) {
  let op = '';
  let domain = '';
  while (!n.done()) {
    const [f, w] = n.tag();
    if (f === 4) op = n.string();
    else if (f === 7) domain = n.string();
    else if (f === 5) {
      const a = n.sub();
      while (!a.done()) {
        const [g, x] = a.tag();
        if (g === 6 || g === 11) graphOpTypes(a.sub(), opTypes);
        else a.skip(x);
      }
    } else n.skip(w);
  }
  opTypes.add(domain && domain !== 'ai.onnx' ? `${domain}:${op}` : op);
}

function graphOpTypes(g, opTypes) {
  while (!g.done()) {
    const [f, w] = g.tag();
    if (f === 1) nodeOpTypes(g.sub(), opTypes);
    else g.skip(w);
  }
}

// The parts of an ONNX model this harness needs: graph inputs that are not
// initializers (in order), graph outputs, and the op types used by the main
// graph's nodes and their subgraphs (as "domain:OpType" for non-default
// domains).
export function readOnnxModel(file) {
  const buf = fs.readFileSync(file);
  const r = new Reader(buf);
  let graph = null;
  while (!r.done()) {
    const [field, wire] = r.tag();
    if (field === 7) graph = r.sub();
    else r.skip(wire);
  }
  if (!graph) throw new Error(`${file}: ModelProto has no graph`);
  const inputs = [];
  const outputs = [];
  const initializers = new Set();
  const opTypes = new Set();
  while (!graph.done()) {
    const [field, wire] = graph.tag();
    if (field === 11) inputs.push(decodeValueInfo(graph.sub()));
    else if (field === 12) outputs.push(decodeValueInfo(graph.sub()));
    else if (field === 5) initializers.add(tensorName(graph.sub()));
    else if (field === 15) {
      // SparseTensorProto: values (1) is a TensorProto whose name is the initializer's.
      const s = graph.sub();
      while (!s.done()) {
        const [f, w] = s.tag();
        if (f === 1) initializers.add(tensorName(s.sub()));
        else s.skip(w);
      }
    } else if (field === 1) {
      nodeOpTypes(graph.sub(), opTypes);
    } else {
      graph.skip(wire);
    }
  }
  return { inputs: inputs.filter((v) => !initializers.has(v.name)), outputs, opTypes: [...opTypes] };
}

// ------------------------------------------------------------------- .npy

const NPY_DESCR = {
  '<f4': 'float32', '<f8': 'float64', '<f2': 'float16', '<i8': 'int64', '<u8': 'uint64',
  '<i4': 'int32', '<u4': 'uint32', '<i2': 'int16', '<u2': 'uint16', '|i1': 'int8',
  '|u1': 'uint8', '|b1': 'bool',
};

export function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const hstart = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', hstart, hstart + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*True/.test(header);
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || shapeText === undefined) throw new Error(`${file}: malformed .npy header ${header}`);
  if (fortran) throw new Error(`${file}: fortran_order .npy`);
  const dtype = NPY_DESCR[descr];
  if (!dtype) throw new Error(`${file}: .npy descr ${descr} is not supported by the test harness`);
  const dims = shapeText.split(',').map((s) => s.trim()).filter((s) => s).map((s) => parseInt(s, 10));
  const data = fromBytes(dtype, buf.subarray(hstart + hlen));
  const count = dims.reduce((a, b) => a * b, 1);
  if (data.length !== count) throw new Error(`${file}: ${data.length} elements for shape [${dims}]`);
  return { dtype, dims, data };
}

export function writeNpyFloat32(file, dims, values) {
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const f = Float32Array.from(values);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(f.buffer)]));
}

// Values as plain numbers for a float comparison (float16/bfloat16 decoded).
function asNumbers(t) {
  if (t.dtype === 'float16') return Float64Array.from(t.data, halfToFloat);
  if (t.dtype === 'bfloat16') return Float64Array.from(t.data, bf16ToFloat);
  if (t.data instanceof BigInt64Array || t.data instanceof BigUint64Array) return Float64Array.from(t.data, Number);
  return t.data;
}

// ---------------------------------------------------------------- compare

// Compares got (from .npy) with want (from .pb). Float tensors: numpy
// allclose, |g - w| <= atol + rtol * |w|, with NaN == NaN and equal infinities
// equal; integer and bool tensors: exact. The dtypes must be the same: a
// float32 output where a float64 or float16 one is expected is a failure (a
// silently changed dtype is a wrong answer).
// Returns {ok, why, maxAbs, maxRel, count, bad} (bad: elements outside the tolerance).
export function compareTensors(got, want, rtol, atol) {
  const res = { ok: false, why: '', maxAbs: 0, maxRel: 0, count: 0, bad: 0 };
  if (got.dims.length !== want.dims.length || got.dims.some((d, i) => d !== want.dims[i])) {
    res.why = `shape [${got.dims}] but expected [${want.dims}]`;
    return res;
  }
  const gk = ELEM[got.dtype].kind;
  const wk = ELEM[want.dtype].kind;
  if (gk !== wk || got.dtype !== want.dtype) {
    res.why = `dtype ${got.dtype} but expected ${want.dtype}`;
    return res;
  }
  const n = want.data.length;
  res.count = n;
  if (wk !== 'float') {
    if (got.dtype !== want.dtype) {
      res.why = `dtype ${got.dtype} but expected ${want.dtype}`;
      return res;
    }
    let bad = 0;
    let first = -1;
    for (let i = 0; i < n; i++) {
      if (got.data[i] !== want.data[i]) {
        if (first < 0) first = i;
        bad++;
        const d = Math.abs(Number(got.data[i]) - Number(want.data[i]));
        if (d > res.maxAbs) res.maxAbs = d;
      }
    }
    res.bad = bad;
    if (bad) {
      res.why = `${bad} of ${n} ${want.dtype} elements differ (first at flat index ${first}: got ${got.data[first]}, expected ${want.data[first]})`;
      return res;
    }
    res.ok = true;
    return res;
  }
  const g = asNumbers(got);
  const w = asNumbers(want);
  let bad = 0;
  let worst = -1;
  let worstRatio = -1;
  let nanMismatch = 0;
  for (let i = 0; i < n; i++) {
    const a = g[i];
    const b = w[i];
    if (Number.isNaN(a) || Number.isNaN(b)) {
      if (Number.isNaN(a) && Number.isNaN(b)) continue;
      bad++;
      nanMismatch++;
      if (worstRatio < Infinity) { worst = i; worstRatio = Infinity; }
      continue;
    }
    if (a === b) continue; // also equal infinities
    const d = Math.abs(a - b);
    res.maxAbs = Math.max(res.maxAbs, d);
    if (b !== 0) res.maxRel = Math.max(res.maxRel, d / Math.abs(b));
    const ratio = d / (atol + rtol * Math.abs(b));
    if (!(ratio <= 1)) {
      bad++;
      if (ratio > worstRatio) { worst = i; worstRatio = ratio; }
    }
  }
  res.bad = bad;
  if (bad) {
    res.why = `${bad} of ${n} elements outside rtol ${rtol} atol ${atol}${nanMismatch ? ` (${nanMismatch} NaN where the other is not)` : ''}; max abs error ${fmt(res.maxAbs)}, ` +
      `max rel error ${fmt(res.maxRel)}; worst at flat index ${worst}: got ${g[worst]}, expected ${w[worst]}`;
    return res;
  }
  res.ok = true;
  return res;
}

export function fmt(x) {
  return Number.isFinite(x) ? x.toExponential(2) : String(x);
}

// --------------------------------------------------------------- processes

// Runs a command; resolves {status, signal, stdout, stderr, timedOut}.
export function exec(cmd, args, { cwd, timeoutMs = 0 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    let timedOut = false;
    let timer = null;
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
    }
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', (e) => {
      if (timer) clearTimeout(timer);
      resolve({ status: null, signal: null, stdout: '', stderr: String(e), timedOut });
    });
    child.on('close', (status, signal) => {
      if (timer) clearTimeout(timer);
      resolve({
        status, signal, timedOut,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

// The two ways to run the CLI. `native` is build dir's wnn; `wasi` is the WASI
// command under wasm/run-wasi.mjs, which sees the extra directories given.
export function nativeCli(buildDir) {
  const bin = path.join(buildDir, 'wnn');
  return {
    name: 'native',
    bin,
    available: () => fs.existsSync(bin),
    exec: (args, opts) => exec(bin, args, opts),
  };
}

// Node 20's concurrent GC marking crashes the process (SIGSEGV or SIGTRAP
// inside V8, after the command has printed its results) when a WASI command
// with a large linear memory (tens of MB: yolox_nano, the light_* models)
// runs under node:wasi; with a single-threaded GC it does not.
export const WASI_NODE_FLAGS = ['--single-threaded-gc'];

export function wasiCli(wasm, dirs = []) {
  const runner = path.join(ROOT, 'wasm/run-wasi.mjs');
  const pre = [...WASI_NODE_FLAGS, runner];
  for (const d of dirs) pre.push('--dir', d);
  return {
    name: 'wasi',
    bin: wasm,
    available: () => fs.existsSync(wasm) && fs.existsSync(runner),
    exec: (args, opts) => exec(process.execPath, [...pre, wasm, ...args], opts),
  };
}

// Whether this wnn can convert: `wnn convert` of a file that does not exist
// fails with exit 1 (cannot read it) when the importer is linked, and with
// exit 2 (usage) when it is not (an older CLI, or the WASI one).
export async function hasConvert(cli) {
  if (!cli.available()) return false;
  const missing = path.join(os.tmpdir(), `wnn-no-such-model-${process.pid}.onnx`);
  const r = await cli.exec(['convert', missing, '-o', `${missing}.wnn`], { timeoutMs: 20000 });
  return r.status === 1;
}

// The first line of a CLI's stderr that is not a warning or progress, without
// the "wnn: " and "convert: " prefixes or "FILE: " when FILE is one of the
// paths given (they are long and say nothing).
function firstLine(s, paths = []) {
  const lines = s.split(/[\r\n]+/).map((l) => l.trim())
    .filter((l) => l && !/^wnn: (convert: )?warning:/.test(l) && !/^wnn: convert: \d+\/\d+ nodes$/.test(l));
  let line = lines[0] ?? '';
  for (const prefix of ['wnn: ', 'convert: ', ...paths.map((p) => `${p}: `)]) {
    if (line.startsWith(prefix)) line = line.slice(prefix.length);
  }
  return line;
}

function describeExit(r) {
  if (r.timedOut) return 'timed out';
  if (r.signal) return `killed by ${r.signal}`;
  return `exit ${r.status}`;
}

// The op type an unsupported-conversion message names: the one in
// "(OpType, domain '...')", else the first of the graph's op types that
// appears in it as a word, else null.
export function unsupportedOp(stderr, opTypes) {
  // The importer's form: node 3 'name' (OpType, domain 'x'): why
  const m = /\(([A-Za-z_][A-Za-z0-9_]*), domain '([^']*)'\)/.exec(stderr);
  if (m) return m[2] && m[2] !== 'ai.onnx' ? `${m[2]}:${m[1]}` : m[1];
  let best = null;
  let bestAt = Infinity;
  for (const op of opTypes) {
    const bare = op.includes(':') ? op.slice(op.lastIndexOf(':') + 1) : op;
    const m = new RegExp(`(^|[^A-Za-z0-9_])${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_])`).exec(stderr);
    if (m && m.index < bestAt) {
      best = op;
      bestAt = m.index;
    }
  }
  return best;
}

// Converts model.onnx natively: {status: 'ok'|'unsupported'|'error', reason, op, ms, args}.
// --shape is passed for every input whose declared shape is not fully fixed,
// with the dims of the test data's input tensor.
// consts maps graph input names to files passed as --const NAME=FILE (those
// inputs get no --shape: the file fixes it).
export async function convertCase(native, caseDir, outFile, { timeoutMs = 20000, model, inputs, consts = {} } = {}) {
  model ??= readOnnxModel(path.join(caseDir, 'model.onnx'));
  const args = ['convert', path.join(caseDir, 'model.onnx'), '-o', outFile];
  for (const [name, file] of Object.entries(consts)) args.push('--const', `${name}=${file}`);
  model.inputs.forEach((v, i) => {
    if (Object.hasOwn(consts, v.name)) return;
    // A dim_value of 0 is passed too: the importer reads non-positive dims as unknown.
    const fixed = v.dims !== null && v.dims.every((d) => typeof d === 'number' && d > 0);
    if (!fixed && inputs?.[i]?.dims?.length > 0) {
      args.push('--shape', `${v.name}=${inputs[i].dims.join('x')}`);
    }
  });
  const t0 = Date.now();
  const r = await native.exec(args, { timeoutMs });
  const ms = Date.now() - t0;
  if (r.status === 0 && fs.existsSync(outFile)) return { status: 'ok', ms, args };
  if (r.status === 3) {
    return { status: 'unsupported', reason: firstLine(r.stderr, [args[1]]), op: unsupportedOp(r.stderr, model.opTypes), ms, args };
  }
  return { status: 'error', reason: `convert ${describeExit(r)}: ${firstLine(r.stderr, [args[1]]) || '(no message)'}`, ms, args };
}

// The graph input names an importer message suggests freezing, in order:
// "... pass --const a=FILE --const b=FILE".
export function constSuggestions(reason) {
  return [...String(reason ?? '').matchAll(/--const (\S+)=FILE/g)].map((m) => m[1]);
}

// Runs one case: convert (natively, unless `artifact` is given), then for the
// given CLI: info --json, run, compare. Resolves
//   {status: 'pass'|'fail'|'unsupported'|'error', reason, op, outputs: [{name, maxAbs, maxRel, ok, why}], ...}
export async function runCase({
  caseDir, native, cli = native, workDir, rtol, atol, timeoutMs = 20000, artifact = null,
}) {
  const result = { status: 'error', reason: '', op: null, outputs: [] };
  let model;
  let inputs;
  const dataDir = path.join(caseDir, 'test_data_set_0');
  try {
    model = readOnnxModel(path.join(caseDir, 'model.onnx'));
    // An unreadable input (a sequence, an optional, strings) matters only if
    // the model converts: then the case is an error with the reason.
    inputs = model.inputs.map((_, i) => {
      const f = path.join(dataDir, `input_${i}.pb`);
      if (!fs.existsSync(f)) return { file: f, error: `no test data file ${f}` };
      try {
        return { file: f, ...readTensorProto(f) };
      } catch (e) {
        return { file: f, error: e.message };
      }
    });
  } catch (e) {
    result.reason = `harness: ${e.message}`;
    return result;
  }
  fs.mkdirSync(workDir, { recursive: true });
  // timeoutMs bounds the whole case: each command gets what is left.
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const wnnFile = artifact ?? path.join(workDir, 'model.wnn');
  if (!artifact) {
    let c = await convertCase(native, caseDir, wnnFile, { timeoutMs: left(), model, inputs });
    result.convertMs = c.ms;
    // Unsupported because a shape-deciding input is a graph input: the
    // importer's message names it and suggests --const. Retry with exactly
    // the graph inputs it names frozen to this case's own test data, until
    // it converts or fails for another reason.
    const consts = {};
    for (let tries = 0; c.status === 'unsupported' && tries < model.inputs.length; tries++) {
      const names = constSuggestions(c.reason);
      const fresh = names.filter((n) => !Object.hasOwn(consts, n));
      const usable = fresh.length > 0 && fresh.every((n) => {
        const i = model.inputs.findIndex((v) => v.name === n);
        return i >= 0 && inputs[i] && !inputs[i].error;
      });
      if (!usable) break;
      for (const n of fresh) consts[n] = inputs[model.inputs.findIndex((v) => v.name === n)].file;
      c = await convertCase(native, caseDir, wnnFile, { timeoutMs: left(), model, inputs, consts });
      result.convertMs += c.ms;
      result.consts = Object.keys(consts);
    }
    if (c.status !== 'ok') {
      result.status = c.status;
      result.reason = c.reason;
      result.op = c.op ?? null;
      return result;
    }
  }

  const info = await cli.exec(['info', '--json', wnnFile], { timeoutMs: left() });
  let meta;
  try {
    if (info.status !== 0) throw new Error(`${describeExit(info)}: ${firstLine(info.stderr)}`);
    meta = JSON.parse(info.stdout);
  } catch (e) {
    result.reason = `info: ${e.message}`;
    return result;
  }

  const args = ['run', wnnFile];
  for (const inp of meta.inputs) {
    const i = model.inputs.findIndex((v) => v.name === inp.name);
    if (i < 0) {
      result.reason = `the artifact's input '${inp.name}' is not a graph input of model.onnx`;
      return result;
    }
    const t = inputs[i];
    if (t.error) {
      result.reason = `test data for input ${i} '${inp.name}': ${t.error}`;
      return result;
    }
    let file = t.file;
    if (t.dtype !== inp.dtype) {
      if (inp.dtype === 'float32' && ELEM[t.dtype]?.kind === 'float') {
        // The importer takes a float64 graph input as float32 (with a warning;
        // float16 inputs stay float16): so do we.
        file = path.join(workDir, `input_${i}.npy`);
        writeNpyFloat32(file, t.dims, asNumbers(t));
      } else {
        result.reason = `input '${inp.name}' is ${inp.dtype} in the artifact but the test data is ${t.dtype}`;
        return result;
      }
    }
    args.push('--input', `${inp.index}=${file}`);
  }
  const outDir = path.join(workDir, `out-${cli.name}`);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  args.push('--output-dir', outDir);
  const t0 = Date.now();
  const run = await cli.exec(args, { timeoutMs: left() });
  result.runMs = Date.now() - t0;
  if (run.status !== 0) {
    result.reason = `run ${describeExit(run)}: ${firstLine(run.stderr, [wnnFile]) || '(no message)'}`;
    return result;
  }

  const lines = run.stdout.split('\n').filter((l) => l.trim());
  if (lines.length !== model.outputs.length) {
    result.status = 'fail';
    result.reason = `${lines.length} outputs, model.onnx has ${model.outputs.length}`;
    return result;
  }
  const problems = [];
  for (let i = 0; i < lines.length; i++) {
    const name = model.outputs[i].name;
    const o = { name, ok: false, why: '', maxAbs: NaN, maxRel: NaN };
    result.outputs.push(o);
    try {
      const line = JSON.parse(lines[i]);
      if (line.name !== name) throw new Error(`output ${i} is named '${line.name}', model.onnx says '${name}'`);
      const want = readTensorProto(path.join(dataDir, `output_${i}.pb`));
      const got = readNpy(path.join(outDir, `output_${i}.npy`));
      const c = compareTensors(got, want, rtol, atol);
      Object.assign(o, c);
    } catch (e) {
      o.why = e.message;
    }
    if (!o.ok) problems.push(`output ${i} '${name}': ${o.why}`);
  }
  if (problems.length) {
    result.status = 'fail';
    result.reason = problems.join('; ');
    return result;
  }
  result.status = 'pass';
  return result;
}

// The setup of the tests that make ONNX models at test time with python3 and
// compare wnn with onnxruntime-node: a fresh temporary folder (prefix), then
// `python3 SCRIPT FOLDER` (SCRIPT relative to ROOT). Resolves {tmp, ort,
// skipReason}: skipReason says what is missing (python3, the native CLI's
// importer, onnxruntime-node) and then nothing was run; a failing script
// throws with its output.
export async function pythonModels(script, native, prefix, python = process.env.WNN_PYTHON || '/usr/bin/python3') {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const skip = (skipReason) => ({ tmp, ort: null, skipReason });
  if (!fs.existsSync(python)) return skip(`${python} is missing`);
  if (!(await hasConvert(native))) return skip(`${path.relative(ROOT, native.bin)} is not built with the importer`);
  let ort;
  try {
    ort = createRequire(import.meta.url)('onnxruntime-node');
  } catch (e) {
    return skip(`onnxruntime-node cannot be loaded: ${e.message.split('\n')[0]}`);
  }
  const r = await exec(python, [path.join(ROOT, script), tmp], { cwd: ROOT, timeoutMs: 120000 });
  if (r.status !== 0) throw new Error(`${script} failed:\n${r.stdout}\n${r.stderr}`);
  return { tmp, ort, skipReason: null };
}

// n deterministic float32 values in [-1, 1) from seed (a linear congruential
// generator), for inputs made at test time.
export function seededFloats(n, seed) {
  const x = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = (s >>> 8) / 8388608 - 1;
  }
  return x;
}
