// @ts-self-types="./io.d.ts"
// wnn/io: small readers for test data, dependency-free, in any JavaScript
// host. NumPy's .npy files (read and write) and ONNX TensorProto messages (the
// input_<i>.pb / output_<i>.pb files of ONNX test data sets) become
// {dtype, shape, data}: dtype a wnn dtype name, shape a plain array of numbers,
// data the TypedArray that holds that dtype (its own copy, aligned), so the
// result goes straight into Executor.setInput(name, data, shape).
//
// Bad input (not the format, truncated, lying sizes, a dtype or layout this
// does not read) throws an Error whose message starts with ".npy:" or
// "TensorProto:" and names what is wrong. Nothing is ever read past the end
// of the bytes, and nothing is allocated before the sizes are checked against
// the bytes that are there. docs/js.md ("wnn/io") is the guide.

// The TypedArray of each dtype name: wnn's dtypes, plus float64 (which wnn does
// not run; the readers return it only when asked for nothing else).
const ARRAYS = {
  float32: Float32Array, float16: Uint16Array, float64: Float64Array, int64: BigInt64Array,
  int32: Int32Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
};

// A Uint8Array over the caller's bytes (no copy): an ArrayBuffer, or any
// ArrayBufferView (a Uint8Array, a Node Buffer, a DataView, ...).
function bytesOf(input, who) {
  if (input instanceof ArrayBuffer || Object.prototype.toString.call(input) === '[object ArrayBuffer]') return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const what = input === null ? 'null' : Array.isArray(input) ? 'an Array' : typeof input === 'object' ? input.constructor?.name ?? 'an object' : typeof input;
  throw new TypeError(`${who}: expected the bytes (a Uint8Array, Buffer or ArrayBuffer), got ${what}`);
}

// options.double: what float64 data becomes ('float64', the default, or 'float32').
function doubleOption(options, who) {
  if (options === undefined || options === null) return 'float64';
  if (typeof options !== 'object') throw new TypeError(`${who}: options must be an object, got ${typeof options}`);
  const { double = 'float64' } = options;
  if (double !== 'float64' && double !== 'float32') {
    throw new TypeError(`${who}: options.double must be 'float64' (keep float64) or 'float32' (convert), got ${String(double)}`);
  }
  return double;
}

const showShape = (shape) => `[${shape.join(', ')}]`;

// The element count of a shape (a float, possibly beyond 2^53: it is compared
// with what the bytes hold before anything is allocated), and how to say it.
const countOf = (shape) => shape.reduce((a, b) => a * b, 1);
const showCount = (n) => (Number.isSafeInteger(n) ? String(n) : 'more than 2^53');

// ----------------------------------------------------------------------- npy

// Little-endian dtypes by their type code ('<' or '|' for one byte).
const NPY = { f4: 'float32', f2: 'float16', f8: 'float64', i8: 'int64', i4: 'int32', i1: 'int8', u1: 'uint8', b1: 'bool' };
const NPY_DESCR = { float32: '<f4', float16: '<f2', float64: '<f8', int64: '<i8', int32: '<i4', int8: '|i1', uint8: '|u1', bool: '|b1' };
const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const NPY_HEADER_MAX = 1 << 20; // NumPy itself reads at most 10,000 bytes unless told otherwise

// The header, a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 224, 224), }
// read strictly: string keys, values that are strings, True/False or tuples of
// integers; nothing is evaluated. Returns {descr, fortran_order, shape}.
function parseNpyHeader(text) {
  let at = 0;
  const bad = (why) => { throw new Error(`.npy: malformed header (${why}): ${JSON.stringify(text.slice(0, 200))}`); };
  const space = () => { while (at < text.length && ' \t\r\n'.includes(text[at])) at++; };
  const expect = (c) => { space(); if (text[at] !== c) bad(`expected "${c}" at offset ${at}`); at++; };
  const string = () => {
    space();
    const q = text[at];
    if (q !== "'" && q !== '"') bad(`expected a string at offset ${at}`);
    const end = text.indexOf(q, at + 1);
    if (end < 0) bad('an unterminated string');
    const s = text.slice(at + 1, end);
    if (s.includes('\\')) bad('an escape in a string');
    at = end + 1;
    return s;
  };
  const value = (key) => {
    space();
    if (text[at] === "'" || text[at] === '"') return string();
    if (text.startsWith('True', at)) { at += 4; return true; }
    if (text.startsWith('False', at)) { at += 5; return false; }
    if (text[at] === '(') {
      at++;
      const dims = [];
      let commas = 0;
      for (;;) {
        space();
        if (text[at] === ')') { at++; break; }
        const m = /^(\d+)L?/.exec(text.slice(at, at + 24));
        if (!m) bad(`${key}: expected a non-negative integer at offset ${at}`);
        const d = Number(m[1]);
        if (!Number.isSafeInteger(d)) bad(`${key}: dimension ${m[1]} is too large`);
        dims.push(d);
        at += m[0].length;
        space();
        if (text[at] === ',') { at++; commas++; } else if (text[at] !== ')') bad(`${key}: expected "," or ")" at offset ${at}`);
      }
      if (dims.length === 1 && commas === 0) bad(`${key}: (n) is not a tuple; a one-element tuple is (n,)`);
      return dims;
    }
    if (text[at] === '[') bad(`${key}: a list (a structured dtype?) is not read`);
    return bad(`${key}: unexpected value at offset ${at}`);
  };
  const fields = {};
  expect('{');
  for (;;) {
    space();
    if (text[at] === '}') { at++; break; }
    const key = string();
    expect(':');
    if (Object.hasOwn(fields, key)) bad(`'${key}' twice`);
    fields[key] = value(key);
    space();
    if (text[at] === ',') at++;
    else if (text[at] !== '}') bad(`expected "," or "}" at offset ${at}`);
  }
  space();
  if (at !== text.length) bad(`bytes after the dictionary at offset ${at}`);
  for (const key of Object.keys(fields)) if (!['descr', 'fortran_order', 'shape'].includes(key)) bad(`unknown key '${key}'`);
  for (const key of ['descr', 'fortran_order', 'shape']) if (!Object.hasOwn(fields, key)) bad(`no '${key}'`);
  if (typeof fields.descr !== 'string') bad("'descr' is not a string");
  if (typeof fields.fortran_order !== 'boolean') bad("'fortran_order' is not True or False");
  if (!Array.isArray(fields.shape)) bad("'shape' is not a tuple");
  return fields;
}

/**
 * A .npy file (format 1.0, 2.0 or 3.0; little-endian float32, float16,
 * float64, int64, int32, int8, uint8 or bool; C order) as {dtype, shape, data}.
 * float64 stays float64 (a Float64Array) unless options.double is 'float32'.
 * The file must end where its data ends.
 */
export function parseNpy(input, options) {
  const bytes = bytesOf(input, 'parseNpy');
  const double = doubleOption(options, 'parseNpy');
  if (bytes.length < 10 || NPY_MAGIC.some((b, i) => bytes[i] !== b)) {
    if (bytes.length < 10 && NPY_MAGIC.slice(0, bytes.length).every((b, i) => bytes[i] === b)) {
      throw new Error(`.npy: truncated: ${bytes.length} bytes, shorter than the preamble`);
    }
    throw new Error('.npy: not a .npy file (it does not start with \\x93NUMPY)');
  }
  const major = bytes[6];
  const minor = bytes[7];
  if (![1, 2, 3].includes(major) || minor !== 0) throw new Error(`.npy: format version ${major}.${minor}; this reads 1.0, 2.0 and 3.0`);
  const start = major === 1 ? 10 : 12;
  if (bytes.length < start) throw new Error(`.npy: truncated: ${bytes.length} bytes, shorter than the version ${major}.0 preamble (${start})`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  if (headerLength > NPY_HEADER_MAX) throw new Error(`.npy: a header of ${headerLength} bytes; at most ${NPY_HEADER_MAX} are read`);
  if (start + headerLength > bytes.length) {
    throw new Error(`.npy: truncated: the header claims ${headerLength} bytes, ${bytes.length - start} follow the preamble`);
  }
  // 1.0 and 2.0 headers are latin-1 (NumPy writes ASCII), 3.0 headers UTF-8.
  const text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLength));
  const header = parseNpyHeader(text);
  const { descr } = header;
  const m = /^([<>|=])([a-zA-Z])(\d*)$/.exec(descr);
  if (!m) throw new Error(`.npy: dtype '${descr}' is not read (little-endian ${Object.keys(NPY).join(', ')} are)`);
  const [, order, kind, size] = m;
  const code = kind + size;
  if (kind === 'O') throw new Error(`.npy: dtype '${descr}' is an object array (pickled Python objects), which is never read`);
  if (order === '>' && size !== '1') throw new Error(`.npy: dtype '${descr}' is big-endian; save it little-endian (array.astype('<${code}'))`);
  if (order === '=' && size !== '1') throw new Error(`.npy: dtype '${descr}' is in the writer's native byte order, which is unknown; save it with '<${code}'`);
  const name = NPY[code];
  if (!name) throw new Error(`.npy: dtype '${descr}' is not read (little-endian ${Object.keys(NPY).join(', ')} are)`);
  if (header.fortran_order) {
    throw new Error(`.npy: fortran_order is True (column-major ${name} ${showShape(header.shape)}); save it in C order (numpy.ascontiguousarray)`);
  }
  const shape = header.shape;
  const T = ARRAYS[name];
  const dataOffset = start + headerLength;
  const have = bytes.length - dataOffset;
  const count = countOf(shape);
  const need = count * T.BYTES_PER_ELEMENT;
  if (have < need) throw new Error(`.npy: truncated: ${name} ${showShape(shape)} needs ${showCount(need)} bytes of data; ${have} follow the header`);
  if (have > need) throw new Error(`.npy: ${have - need} bytes after the ${need} bytes of data of ${name} ${showShape(shape)}`);
  // A copy: aligned for T whatever the header length, and the caller's bytes
  // may be reused.
  const data = new T(bytes.slice(dataOffset).buffer, 0, count);
  if (name === 'float64' && double === 'float32') return { dtype: 'float32', shape, data: Float32Array.from(data) };
  return { dtype: name, shape, data };
}

/**
 * {dtype, shape, data} as the bytes of a .npy file (format 1.0, or 2.0 for a
 * header over 64 KiB; data in C order). data must be the TypedArray of dtype
 * (a Float16Array is taken for float16) with exactly the shape's element count.
 */
export function formatNpy(tensor) {
  if (tensor === null || typeof tensor !== 'object') throw new TypeError(`formatNpy: expected {dtype, shape, data}, got ${tensor === null ? 'null' : typeof tensor}`);
  const { dtype, shape, data } = tensor;
  const descr = NPY_DESCR[dtype];
  if (!descr) throw new TypeError(`formatNpy: dtype ${String(dtype)} is not written (${Object.keys(NPY_DESCR).join(', ')} are)`);
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new TypeError(`formatNpy: shape must be an array of non-negative integers, got ${String(shape)}`);
  }
  const T = ARRAYS[dtype];
  const type = ArrayBuffer.isView(data) ? data.constructor : null;
  if (!type || !(data instanceof T || (dtype === 'float16' && type.name === 'Float16Array'))) {
    throw new TypeError(`formatNpy: ${dtype} data must be a ${T.name}, got ${type?.name ?? typeof data}`);
  }
  const count = shape.reduce((a, b) => a * b, 1);
  if (data.length !== count) throw new RangeError(`formatNpy: shape ${showShape(shape)} has ${count} elements; data has ${data.length}`);
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  // Version 1.0 has a 16-bit header length; the data starts 64-byte aligned.
  const major = header.length + 1 + 10 + 63 <= 0xffff ? 1 : 2;
  const start = major === 1 ? 10 : 12;
  header += ' '.repeat(63 - ((start + header.length) % 64)) + '\n';
  const out = new Uint8Array(start + header.length + data.byteLength);
  out.set(NPY_MAGIC);
  out[6] = major;
  const dv = new DataView(out.buffer);
  if (major === 1) dv.setUint16(8, header.length, true); else dv.setUint32(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[start + i] = header.charCodeAt(i);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), start + header.length);
  return out;
}

// --------------------------------------------------------------- TensorProto

// TensorProto.DataType values: the dtype each is read as, or its name to say
// what is not read.
const ONNX_DTYPES = { 1: 'float32', 2: 'uint8', 3: 'int8', 6: 'int32', 7: 'int64', 9: 'bool', 10: 'float16', 11: 'float64' };
const ONNX_OTHER = {
  0: 'UNDEFINED', 4: 'UINT16', 5: 'INT16', 8: 'STRING', 12: 'UINT32', 13: 'UINT64', 14: 'COMPLEX64',
  15: 'COMPLEX128', 16: 'BFLOAT16', 17: 'FLOAT8E4M3FN', 18: 'FLOAT8E4M3FNUZ', 19: 'FLOAT8E5M2',
  20: 'FLOAT8E5M2FNUZ', 21: 'UINT4', 22: 'INT4', 23: 'FLOAT4E2M1',
};
// The range of each dtype stored in int32_data.
const INT32_RANGE = { int32: [-0x80000000, 0x7fffffff], int8: [-128, 127], uint8: [0, 255], bool: [0, 1], float16: [0, 0xffff] };
// TensorProto fields read (field number -> name and the wire type of one element).
const FIELDS = {
  1: ['dims', 0], 2: ['data_type', 0], 3: ['segment', 2], 4: ['float_data', 5], 5: ['int32_data', 0],
  6: ['string_data', 2], 7: ['int64_data', 0], 8: ['name', 2], 9: ['raw_data', 2], 10: ['double_data', 1],
  11: ['uint64_data', 0], 12: ['doc_string', 2], 13: ['external_data', 2], 14: ['data_location', 0],
};
// The typed field each dtype's values are in when there is no raw_data.
const TYPED_FIELD = { float32: 'float_data', float64: 'double_data', int64: 'int64_data', int32: 'int32_data', int8: 'int32_data', uint8: 'int32_data', bool: 'int32_data', float16: 'int32_data' };

/**
 * One serialized onnx.TensorProto as {name, dtype, shape, data}: dims,
 * data_type, name, and the values from raw_data or from the typed field of
 * that dtype (float_data, int32_data, int64_data, double_data; packed or not).
 * data_type FLOAT, FLOAT16, DOUBLE, INT64, INT32, INT8, UINT8 and BOOL are
 * read; DOUBLE stays float64 (a Float64Array) unless options.double is
 * 'float32'. Segmented tensors and external data are refused.
 */
export function parseTensorProto(input, options) {
  const bytes = bytesOf(input, 'parseTensorProto');
  const double = doubleOption(options, 'parseTensorProto');
  const bad = (why) => { throw new Error(`TensorProto: ${why}`); };
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length;
  let at = 0;

  // A varint as a BigInt (at most 10 bytes, 64 bits).
  const varint = (what) => {
    let v = 0n;
    for (let k = 0; k < 10; k++) {
      if (at >= end) bad(`truncated: ${what} ends at byte ${end}, inside a varint`);
      const b = bytes[at++];
      v |= BigInt(b & 0x7f) << BigInt(7 * k);
      if (!(b & 0x80)) return BigInt.asUintN(64, v);
    }
    return bad(`${what}: a varint longer than 10 bytes at byte ${at - 10}`);
  };
  // A varint that must fit a JavaScript number (keys, lengths, enums).
  const small = (what) => {
    const v = varint(what);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) bad(`${what}: ${v} is out of range`);
    return Number(v);
  };
  const length = (what) => {
    const n = small(`the length of ${what}`);
    if (n > end - at) bad(`truncated: ${what} claims ${n} bytes at byte ${at}, ${end - at} remain`);
    return n;
  };

  const t = {
    dims: [], data_type: 0, name: '', raw_data: null, data_location: 0,
    float_data: [], int32_data: [], int64_data: [], double_data: [], uint64_data: [],
  };
  const seen = new Set();
  // One element of a repeated numeric field, by its wire type.
  const element = (field, wire) => {
    if (wire === 5) { if (end - at < 4) bad(`truncated: ${field} at byte ${at}`); at += 4; return dv.getFloat32(at - 4, true); }
    if (wire === 1) { if (end - at < 8) bad(`truncated: ${field} at byte ${at}`); at += 8; return dv.getFloat64(at - 8, true); }
    return varint(field);
  };
  while (at < end) {
    const keyAt = at;
    const key = small('a field key');
    const number = Math.floor(key / 8);
    const wire = key % 8;
    if (number === 0) bad(`field number 0 at byte ${keyAt} (not a TensorProto?)`);
    const [field, elementWire] = FIELDS[number] ?? [`field ${number}`, -1];
    const label = FIELDS[number] ? `${field} (field ${number})` : field;
    if (elementWire >= 0) seen.add(field);
    if (Array.isArray(t[field])) {
      // Repeated numbers: one element (its own wire type) or a packed run (wire type 2).
      if (wire === 2) {
        const n = length(field);
        const stop = at + n;
        const size = elementWire === 5 ? 4 : elementWire === 1 ? 8 : 0;
        if (size && n % size) bad(`${field}: a packed run of ${n} bytes is not a multiple of ${size}`);
        while (at < stop) t[field].push(element(field, elementWire));
        if (at !== stop) bad(`${field}: a varint runs past its packed run at byte ${stop}`);
      } else if (wire === elementWire) {
        t[field].push(element(field, wire));
      } else {
        bad(`${label} has wire type ${wire} at byte ${keyAt}`);
      }
      continue;
    }
    if (elementWire >= 0 && wire !== elementWire) bad(`${label} has wire type ${wire} at byte ${keyAt}, not ${elementWire}`);
    if (field === 'data_type' || field === 'data_location') t[field] = small(field);
    else if (field === 'name' || field === 'raw_data') {
      const n = length(field);
      const payload = bytes.subarray(at, at + n);
      at += n;
      if (field === 'name') t.name = new TextDecoder().decode(payload);
      else t.raw_data = payload;
    } else if (wire === 0) varint(field); // doc_string, string_data, ... and unknown fields are skipped
    else if (wire === 1) { if (end - at < 8) bad(`truncated: ${field} at byte ${at}`); at += 8; }
    else if (wire === 2) { const n = length(field); at += n; }
    else if (wire === 5) { if (end - at < 4) bad(`truncated: ${field} at byte ${at}`); at += 4; }
    else bad(`${label} has wire type ${wire} at byte ${keyAt}, which a TensorProto never has (not a TensorProto?)`);
  }

  if (seen.has('segment')) bad('a segmented tensor (segment is set) is not read');
  if (t.data_location === 1 || seen.has('external_data')) bad(`tensor "${t.name}" keeps its data in an external file, which is not read`);
  if (!seen.has('data_type')) bad('no data_type');
  const dtype = ONNX_DTYPES[t.data_type];
  if (!dtype) bad(`data_type ${t.data_type} (${ONNX_OTHER[t.data_type] ?? 'unknown'}) is not read (FLOAT, FLOAT16, DOUBLE, INT64, INT32, INT8, UINT8, BOOL are)`);
  const shape = t.dims.map((d) => {
    const v = BigInt.asIntN(64, d);
    if (v < 0n || v > BigInt(Number.MAX_SAFE_INTEGER)) bad(`dims: ${v} is not a dimension`);
    return Number(v);
  });
  const T = ARRAYS[dtype];
  const typed = TYPED_FIELD[dtype];
  const stray = ['float_data', 'int32_data', 'int64_data', 'double_data', 'uint64_data', 'string_data'].filter((f) => seen.has(f) && f !== typed);
  if (stray.length) bad(`${dtype} tensor "${t.name}" has ${stray.join(', ')}, which hold another data type`);
  if (t.raw_data && seen.has(typed)) bad(`tensor "${t.name}" has both raw_data and ${typed}`);
  const have = t.raw_data ? t.raw_data.length / T.BYTES_PER_ELEMENT : t[typed].length;
  const count = countOf(shape);
  if (count !== have) {
    bad(`tensor "${t.name}": ${dtype} ${showShape(shape)} has ${showCount(count)} elements; ${t.raw_data ? `raw_data holds ${t.raw_data.length} bytes` : `${typed} holds ${have}`}`);
  }
  let data;
  if (t.raw_data) {
    data = new T(t.raw_data.slice().buffer, 0, count);
  } else if (dtype === 'int64') {
    data = BigInt64Array.from(t.int64_data, (v) => BigInt.asIntN(64, v));
  } else if (typed === 'int32_data') {
    const [lo, hi] = INT32_RANGE[dtype];
    data = T.from(t.int32_data, (v, k) => {
      const x = Number(BigInt.asIntN(64, v));
      if (x < lo || x > hi) bad(`tensor "${t.name}": int32_data[${k}] = ${x} is out of range for ${dtype}`);
      return x;
    });
  } else {
    data = T.from(t[typed]);
  }
  if (dtype === 'float64' && double === 'float32') return { name: t.name, dtype: 'float32', shape, data: Float32Array.from(data) };
  return { name: t.name, dtype, shape, data };
}
