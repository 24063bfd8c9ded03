// What the workerd examples do with a request before a model sees it, and how
// they answer when it is wrong. Host-independent (Request/Response/streams).
//
//  - readBody(request, limit): the body, at most `limit` bytes. A declared
//    Content-Length over the limit is refused before a byte is read; without
//    one (or with one that lies) the stream is read chunk by chunk and
//    cancelled as soon as it passes the limit. Never request.arrayBuffer().
//  - parseNpyHeader(bytes) / npyData(bytes, header): a strict .npy reader:
//    magic, version 1.0/2.0/3.0, header length inside the body, a header that
//    is exactly {'descr', 'fortran_order', 'shape'} as NumPy writes it, a
//    little-endian dtype wnn has, C order, and then exactly the data bytes the
//    shape needs: a short body and trailing bytes are both refused.
//  - ClientError and errorResponse(e): every refusal is a 4xx with a JSON body
//    {error, code} where code is a WNN_ERR_* name; only what is not the
//    client's fault is a 500.
import { WnnError } from 'wnn';

/** A refusal of the request: HTTP `status` (4xx), a WNN_ERR_* `code`, a message. */
export class ClientError extends Error {
  constructor(status, code, message, headers = {}) {
    super(message);
    this.name = 'ClientError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const refuse = (status, code, message, headers) => { throw new ClientError(status, code, message, headers); };

export const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

// WnnErrors that mean the request was wrong (a name, a dtype, a shape, a size,
// a data-dependent index at run time); any other is the server's problem.
const CLIENT_CODES = new Set([
  'WNN_ERR_INVALID_ARGUMENT', 'WNN_ERR_NOT_FOUND', 'WNN_ERR_OUT_OF_RANGE', 'WNN_ERR_DTYPE', 'WNN_ERR_SHAPE', 'WNN_ERR_SIZE',
]);

/** The response for an error thrown while serving a request. */
export function errorResponse(e) {
  if (e instanceof ClientError) return json({ error: e.message, code: e.code }, e.status, e.headers);
  if (e instanceof WnnError && CLIENT_CODES.has(e.code)) return json({ error: e.message, code: e.code }, 400);
  // A server fault: the model did not load, wasm memory ran out, a bug.
  console.error(e);
  return json({ error: `internal error: ${e?.message ?? e}`, code: e instanceof WnnError ? e.code : null }, 500);
}

/** 405 for a known path asked with the wrong method. */
export const methodNotAllowed = (method, path, allowed) =>
  refuse(405, 'WNN_ERR_UNSUPPORTED', `${method} ${path}: use ${allowed}`, { allow: allowed });

// Content types a .npy body may come with (none at all is accepted too).
const NPY_TYPES = new Set(['application/octet-stream', 'application/x-npy', 'application/npy']);

/**
 * The request body as a Uint8Array of at most `limit` bytes (a 413 beyond),
 * read chunk by chunk. `what` names the body in messages.
 */
export async function readBody(request, limit, what = 'the request body') {
  const type = request.headers.get('content-type');
  if (type !== null && !NPY_TYPES.has(type.split(';')[0].trim().toLowerCase())) {
    refuse(415, 'WNN_ERR_UNSUPPORTED', `${what}: Content-Type ${type} is not a .npy file; send application/octet-stream (curl: -H 'content-type: application/octet-stream' --data-binary @FILE.npy)`);
  }
  const header = request.headers.get('content-length');
  let declared = null;
  if (header !== null) {
    if (!/^\d{1,15}$/.test(header.trim())) refuse(400, 'WNN_ERR_INVALID_ARGUMENT', `Content-Length "${header}" is not a byte count`);
    declared = Number(header.trim());
    if (declared > limit) refuse(413, 'WNN_ERR_SIZE', `${what} is ${declared} bytes; this endpoint takes at most ${limit}`);
  }
  if (!request.body || declared === 0) refuse(400, 'WNN_ERR_TRUNCATED', `${what} is empty; send a .npy file`);
  const reader = request.body.getReader();
  // With a Content-Length, one buffer of exactly that size; without, chunks
  // until the end or the limit.
  const chunks = [];
  const whole = declared !== null ? new Uint8Array(declared) : null;
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = value instanceof Uint8Array ? value : new Uint8Array(value);
      if (received + chunk.length > (declared ?? limit)) {
        reader.cancel().catch(() => {});
        if (declared !== null) refuse(400, 'WNN_ERR_SIZE', `${what} is longer than its Content-Length (${declared})`);
        refuse(413, 'WNN_ERR_SIZE', `${what} is over ${limit} bytes; this endpoint takes at most ${limit}`);
      }
      if (whole) whole.set(chunk, received);
      else chunks.push(chunk);
      received += chunk.length;
      bytesSinceGc += chunk.length;
    }
  } catch (e) {
    if (e instanceof ClientError) throw e;
    refuse(400, 'WNN_ERR_TRUNCATED', `${what}: reading it failed (${e?.message ?? e})`);
  }
  if (declared !== null && received !== declared) {
    refuse(400, 'WNN_ERR_TRUNCATED', `${what} ended after ${received} of its ${declared} bytes`);
  }
  if (received === 0) refuse(400, 'WNN_ERR_TRUNCATED', `${what} is empty; send a .npy file`);
  if (whole) return whole;
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const c of chunks) { bytes.set(c, at); at += c.length; }
  return bytes;
}

// ------------------------------------------------------------------- memory

// Each request leaves garbage (its Request, Response, headers, streams and
// body buffer) whose memory lives mostly outside the JavaScript heap: V8 sees
// a small heap, postpones the full collection, and the process grows by a
// few kilobytes per request (measured: a worker answering a constant string
// took workerd from 50 to 226 MB over 40,000 requests; with a full collection
// every 1,000 requests it stays at 65 MB). On Cloudflare the platform manages
// isolates; a local workerd can pass v8Flags = ["--expose-gc"] (config.capnp
// does), and then afterRequest() collects after every `GC_REQUESTS` requests
// or `GC_BYTES` bytes of bodies, whichever comes first. Without gc() it does
// nothing.
export const GC_REQUESTS = 1000;
export const GC_BYTES = 64 * 1024 * 1024;
let requestsSinceGc = 0;
let bytesSinceGc = 0;

/** Call once per request, when its answer is ready. */
export function afterRequest() {
  if (typeof globalThis.gc !== 'function') return;
  if (++requestsSinceGc < GC_REQUESTS && bytesSinceGc < GC_BYTES) return;
  requestsSinceGc = 0;
  bytesSinceGc = 0;
  globalThis.gc();
}

// ---------------------------------------------------------------------- .npy

// The .npy dtypes wnn has: descr -> [wnn dtype, TypedArray]. One-byte types
// have no byte order ('|'); NumPy writes the others little-endian here ('<').
const NPY_DTYPES = {
  '<f4': ['float32', Float32Array], '<f2': ['float16', Uint16Array], '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array], '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array], '|b1': ['bool', Uint8Array],
};

/** The largest .npy header these examples read (NumPy's are 118 to 246 bytes). */
export const NPY_HEADER_MAX = 1024;

const malformed = (message) => refuse(400, 'WNN_ERR_MALFORMED', `.npy header: ${message}`);

// The header dictionary, a Python literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 28, 28), }
// parsed exactly: the three keys once each, a string, a bool and a tuple of
// integers, then spaces and the final newline. Nothing is evaluated.
function parseHeaderDict(text) {
  let at = 0;
  const space = () => { while (text[at] === ' ') at++; };
  const expect = (s) => {
    space();
    if (!text.startsWith(s, at)) malformed(`expected ${JSON.stringify(s)} at offset ${at} of ${JSON.stringify(text.trim())}`);
    at += s.length;
  };
  const string = () => {
    space();
    const q = text[at];
    if (q !== "'" && q !== '"') malformed(`expected a string at offset ${at}`);
    const end = text.indexOf(q, at + 1);
    if (end < 0) malformed('unterminated string');
    const s = text.slice(at + 1, end);
    at = end + 1;
    return s;
  };
  const fields = {};
  expect('{');
  for (;;) {
    space();
    if (text[at] === '}') { at++; break; }
    const key = string();
    if (!['descr', 'fortran_order', 'shape'].includes(key)) malformed(`unknown key '${key}'`);
    if (Object.hasOwn(fields, key)) malformed(`key '${key}' twice`);
    expect(':');
    space();
    if (key === 'descr') {
      fields.descr = string();
    } else if (key === 'fortran_order') {
      if (text.startsWith('False', at)) { fields.fortran_order = false; at += 5; } else if (text.startsWith('True', at)) { fields.fortran_order = true; at += 4; } else malformed('fortran_order is not True or False');
    } else {
      expect('(');
      const dims = [];
      for (;;) {
        space();
        if (text[at] === ')') { at++; break; }
        const m = /^(\d{1,15})L?/.exec(text.slice(at, at + 17));
        if (!m) malformed(`shape: expected a dimension at offset ${at}`);
        dims.push(Number(m[1]));
        at += m[0].length;
        space();
        if (text[at] === ',') at++;
        else if (text[at] !== ')') malformed(`shape: expected "," or ")" at offset ${at}`);
      }
      if (dims.length === 1 && !/,\s*\)$/.test(text.slice(0, at))) malformed('shape: a one-element tuple needs its comma');
      fields.shape = dims;
    }
    space();
    if (text[at] === ',') at++;
    else if (text[at] !== '}') malformed(`expected "," or "}" at offset ${at}`);
  }
  if (!/^[ ]*\n?$/.test(text.slice(at))) malformed('bytes after the dictionary');
  for (const key of ['descr', 'fortran_order', 'shape']) if (!Object.hasOwn(fields, key)) malformed(`no '${key}'`);
  return fields;
}

/**
 * The header of a .npy file: {dtype, shape, dataOffset}. Throws a 400
 * ClientError naming what is wrong (WNN_ERR_BAD_MAGIC, _VERSION, _TRUNCATED,
 * _MALFORMED, _DTYPE, _UNSUPPORTED).
 */
export function parseNpyHeader(bytes) {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b)) {
    if (bytes.length < 10 && magic.slice(0, bytes.length).every((b, i) => bytes[i] === b)) refuse(400, 'WNN_ERR_TRUNCATED', `.npy: ${bytes.length} bytes, shorter than its header`);
    refuse(400, 'WNN_ERR_BAD_MAGIC', '.npy: the body does not start with \\x93NUMPY (not a .npy file)');
  }
  const major = bytes[6];
  const minor = bytes[7];
  if (![1, 2, 3].includes(major) || minor !== 0) refuse(400, 'WNN_ERR_VERSION', `.npy: format version ${major}.${minor}; this reads 1.0, 2.0 and 3.0`);
  const start = major === 1 ? 10 : 12;
  if (bytes.length < start) refuse(400, 'WNN_ERR_TRUNCATED', `.npy: ${bytes.length} bytes, shorter than its header`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  if (headerLength > NPY_HEADER_MAX) refuse(400, 'WNN_ERR_MALFORMED', `.npy: a header of ${headerLength} bytes; at most ${NPY_HEADER_MAX} are read`);
  if (start + headerLength > bytes.length) {
    refuse(400, 'WNN_ERR_TRUNCATED', `.npy: the header claims ${headerLength} bytes, the body holds ${bytes.length - start} after the preamble`);
  }
  const raw = bytes.subarray(start, start + headerLength);
  if (raw.some((b) => b > 0x7e || (b < 0x20 && b !== 0x0a))) malformed('not printable ASCII');
  const { descr, fortran_order: fortranOrder, shape } = parseHeaderDict(new TextDecoder('latin1').decode(raw));
  // '<u1' and '|u1' are the same; NumPy writes '|' for one-byte types.
  const key = /^[<|=]([iub]1)$/.test(descr) ? `|${descr.slice(1)}` : descr;
  if (!NPY_DTYPES[key]) {
    refuse(400, 'WNN_ERR_DTYPE', `.npy: dtype '${descr}' is not one wnn takes (little-endian ${Object.keys(NPY_DTYPES).join(', ')})`);
  }
  if (fortranOrder) refuse(400, 'WNN_ERR_UNSUPPORTED', '.npy: fortran_order True; send the array in C order (numpy.ascontiguousarray)');
  const [dtype, T] = NPY_DTYPES[key];
  return { dtype, shape, dataOffset: start + headerLength, T };
}

/**
 * The data of a .npy file whose header check passed: a TypedArray of exactly
 * the elements the shape needs (a copy when the data is not aligned for its
 * type). A body that is shorter is a 400 WNN_ERR_TRUNCATED, one with bytes
 * after the data a 400 WNN_ERR_SIZE.
 */
export function npyData(bytes, header) {
  const { shape, dataOffset, T, dtype } = header;
  const count = shape.reduce((a, b) => a * b, 1);
  const need = count * T.BYTES_PER_ELEMENT;
  const have = bytes.length - dataOffset;
  if (have < need) refuse(400, 'WNN_ERR_TRUNCATED', `.npy: ${dtype} [${shape.join(', ')}] needs ${need} bytes of data; the body holds ${have}`);
  if (have > need) refuse(400, 'WNN_ERR_SIZE', `.npy: ${have - need} bytes after the ${need} bytes of data of ${dtype} [${shape.join(', ')}]`);
  const at = bytes.byteOffset + dataOffset;
  if (at % T.BYTES_PER_ELEMENT === 0) return new T(bytes.buffer, at, count);
  return new T(bytes.slice(dataOffset).buffer, 0, count);
}

/**
 * Throws a 400 naming the input unless every element of float data is
 * finite (NaN or an infinity in an input makes every answer meaningless).
 */
export function requireFinite(data, dtype, name) {
  let bad = -1;
  if (dtype === 'float32') {
    for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i])) { bad = i; break; }
  } else if (dtype === 'float16') {
    for (let i = 0; i < data.length; i++) if ((data[i] & 0x7c00) === 0x7c00) { bad = i; break; }
  }
  if (bad >= 0) {
    const v = dtype === 'float32' ? String(data[bad]) : 'NaN or an infinity';
    refuse(400, 'WNN_ERR_INVALID_ARGUMENT', `input "${name}": element ${bad} is ${v}; every element must be a finite number`);
  }
}
