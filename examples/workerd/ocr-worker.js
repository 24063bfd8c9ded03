// A Cloudflare Worker that reads the text in images with PP-OCRv3 (two wnn
// models chained by their names, see examples/shared/ocr.js).
//   GET  /     the detector's and recognizer's inputs and outputs (JSON)
//   POST /ocr  body: an .npy image, uint8 [height, width, 3] RGB, at most
//              MAX_PIXELS pixels; answer:
//              {text: [rows], lines: [{text, score, box, boxScore}], names, timing}
// The wasm arrives as a WebAssembly.Module import and goes to wnn.load as
// options.wasm; the models are data modules (ArrayBuffers), loaded on the
// first request into one wasm instance and kept for the next ones.
//
// Requests are checked as in worker.js (examples/workerd/request.js): 4xx
// with {error, code} for what the client got wrong (400 a body that is not a
// strict .npy of a uint8 [height, width, 3] image, trailing bytes included;
// 413 a body over MAX_PIXELS * 3 bytes plus NPY_HEADER_MAX, refused from its
// Content-Length or while streaming; 415, 405, 404), 500 for server faults.
import * as wnn from 'wnn';
import wasm from './wnn.wasm';
import detBytes from './ppocr-det.wnn';
import recBytes from './ppocr-rec.wnn';
import { imageFromNpy, ocr, textRows } from './ocr.js';
import { ClientError, NPY_HEADER_MAX, afterRequest, errorResponse, json, methodNotAllowed, npyData, parseNpyHeader, readBody } from './request.js';

let served; // Promise<{detector, recognizer, describe, maxPixels}>, made once

async function serve() {
  const [detector, recognizer] = await Promise.all([wnn.load(detBytes, { wasm }), wnn.load(recBytes, { wasm })]);
  const describe = ({ inputs, outputs, numParams }) => ({ inputs, outputs, numParams });
  const [, , h, w] = detector.inputs[0].shape;
  return {
    detector,
    recognizer,
    describe: JSON.stringify({ detector: describe(detector), recognizer: describe(recognizer) }),
    // The detector sees every image scaled into its h x w input: four times
    // its pixels (1280 x 1280 for PP-OCRv3's 640 x 640) is plenty; larger
    // images are scaled down by the client for less upload.
    maxPixels: 4 * h * w,
  };
}

async function read(request, { detector, recognizer, maxPixels }) {
  const body = await readBody(request, maxPixels * 3 + NPY_HEADER_MAX, 'the image');
  const header = parseNpyHeader(body);
  const { dtype, shape } = header;
  if (dtype !== 'uint8' || shape.length !== 3 || shape[2] !== 3) {
    throw new ClientError(400, dtype !== 'uint8' ? 'WNN_ERR_DTYPE' : 'WNN_ERR_SHAPE',
      `the image: want uint8 [height, width, 3] RGB, got ${dtype} [${shape.join(', ')}]`);
  }
  const [height, width] = shape;
  if (height < 1 || width < 1 || height * width > maxPixels) {
    throw new ClientError(400, 'WNN_ERR_SHAPE', `the image: ${height} x ${width} pixels; this endpoint takes 1 to ${maxPixels} pixels`);
  }
  const image = imageFromNpy({ dtype, shape, data: npyData(body, header) }, 'the image');
  const result = ocr(detector, recognizer, image);
  return json({ host: 'workerd', text: textRows(result.lines), ...result });
}

export default {
  async fetch(request) {
    try {
      const url = new URL(request.url);
      served ??= serve();
      const s = await served.catch((e) => { served = undefined; throw e; });
      if (url.pathname === '/') {
        if (request.method !== 'GET' && request.method !== 'HEAD') methodNotAllowed(request.method, '/', 'GET');
        return new Response(s.describe, { headers: { 'content-type': 'application/json' } });
      }
      if (url.pathname === '/ocr') {
        if (request.method !== 'POST') methodNotAllowed(request.method, '/ocr', 'POST');
        return await read(request, s);
      }
      return json({ error: `no route ${request.method} ${url.pathname}`, code: 'WNN_ERR_NOT_FOUND' }, 404);
    } catch (e) {
      return errorResponse(e);
    } finally {
      afterRequest();
    }
  },
};
