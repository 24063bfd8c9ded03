// Reading and writing NumPy .npy files (format 1.0-3.0, little-endian, C
// order) as {shape, dtype, data} with data a TypedArray, in any JavaScript
// host. Used by the examples and the tests.

const TYPES = {
  '<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array], '<i4': ['int32', Int32Array],
  '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array], '|b1': ['bool', Uint8Array],
  '<f2': ['float16', Uint16Array],
};
const DESCR = Object.fromEntries(Object.entries(TYPES).map(([d, [name]]) => [name, d]));

export function parseNpy(bytes) {
  // A plain Uint8Array even for a Node Buffer, whose slice() would not copy.
  bytes = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
  const magic = String.fromCharCode(...bytes.subarray(0, 6));
  if (magic !== '\x93NUMPY') throw new Error('not a .npy file');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = bytes[6];
  const headerLen = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  const header = new TextDecoder('latin1').decode(bytes.subarray(start, start + headerLen));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error('.npy in Fortran order is not supported');
  if (!TYPES[descr]) throw new Error(`.npy dtype ${descr} is not supported`);
  const [dtype, T] = TYPES[descr];
  const shape = (/'shape':\s*\(([^)]*)\)/.exec(header)?.[1] ?? '')
    .split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const body = bytes.slice(start + headerLen, start + headerLen + count * T.BYTES_PER_ELEMENT);
  if (body.length !== count * T.BYTES_PER_ELEMENT) throw new Error('.npy file is truncated');
  return { shape, dtype, data: new T(body.buffer) };
}

export function formatNpy({ shape, dtype, data }) {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${DESCR[dtype]}', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set([0x93, 78, 85, 77, 80, 89, 1, 0, header.length & 0xff, header.length >> 8]);
  out.set(new TextEncoder().encode(header), 10);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 10 + header.length);
  return out;
}
