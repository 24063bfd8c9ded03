// A Cloudflare Worker that reads the text in images with PP-OCRv3 (two wnn
// models chained by their names, see examples/shared/ocr.js).
//   GET  /     the detector's and recognizer's inputs and outputs (JSON)
//   POST /ocr  body: an .npy image, uint8 [height, width, 3] RGB; answer:
//              {text: [rows], lines: [{text, score, box, boxScore}], names, timing}
// The wasm arrives as a WebAssembly.Module import and goes to wnn.load as
// options.wasm; the models are data modules (ArrayBuffers), loaded on the
// first request into one wasm instance and kept for the next ones.
import * as wnn from 'wnn';
import wasm from './wnn.wasm';
import detBytes from './ppocr-det.wnn';
import recBytes from './ppocr-rec.wnn';
import { parseNpy } from './npy.js';
import { imageFromNpy, ocr, textRows } from './ocr.js';

let models;
const json = (body, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export default {
  async fetch(request) {
    const url = new URL(request.url);
    try {
      models ??= Promise.all([wnn.load(detBytes, { wasm }), wnn.load(recBytes, { wasm })]);
      const [detector, recognizer] = await models;
      if (request.method === 'GET' && url.pathname === '/') {
        const describe = ({ inputs, outputs, numParams }) => ({ inputs, outputs, numParams });
        return json({ detector: describe(detector), recognizer: describe(recognizer) });
      }
      if (request.method === 'POST' && url.pathname === '/ocr') {
        let image;
        try {
          image = imageFromNpy(parseNpy(await request.arrayBuffer()), 'the request body');
        } catch (e) {
          return json({ error: e.message, code: null }, 400);
        }
        const result = ocr(detector, recognizer, image);
        return json({ host: 'workerd', text: textRows(result.lines), ...result });
      }
      return json({ error: `no route ${request.method} ${url.pathname}` }, 404);
    } catch (e) {
      // A WnnError's code (WNN_ERR_...) says what went wrong in the runtime.
      return json({ error: e.message, code: e.code ?? null }, e instanceof wnn.WnnError ? 400 : 500);
    }
  },
};
