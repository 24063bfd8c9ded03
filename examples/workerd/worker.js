// A Cloudflare Worker that serves a wnn model over HTTP.
//   GET  /         the model's inputs, outputs, numParams and metadata (JSON)
//   POST /predict  body: an .npy file for the first input (or ?input=NAME);
//                  answer: every output as {name, shape, dtype, data} plus a
//                  summary (argmax, top 5), JSON
// The wasm arrives as a WebAssembly.Module import (Workers forbid compiling
// from bytes) and goes to wnn.load as options.wasm; the model is a data module
// (an ArrayBuffer). One model, loaded on the first request, serves them all.
import * as wnn from 'wnn';
import wasm from './wnn.wasm';
import modelBytes from './model.wnn';
import { parseNpy } from './npy.js';
import { summarize } from './report.js';

let modelPromise;
const json = (body, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export default {
  async fetch(request) {
    const url = new URL(request.url);
    try {
      modelPromise ??= wnn.load(modelBytes, { wasm });
      const model = await modelPromise;
      if (request.method === 'GET' && url.pathname === '/') {
        const { inputs, outputs, numParams, metadata } = model;
        return json({ inputs, outputs, numParams, metadata });
      }
      if (request.method === 'POST' && url.pathname === '/predict') {
        const name = url.searchParams.get('input') ?? model.inputs[0].name;
        const tensor = parseNpy(await request.arrayBuffer());
        const outputs = await model.predict({ [name]: tensor.data });
        const report = summarize(model, outputs, 'workerd');
        const tensors = Object.values(outputs).map((t) => ({ ...t, data: Array.from(t.data, Number) }));
        return json({ report, outputs: tensors });
      }
      return json({ error: `no route ${request.method} ${url.pathname}` }, 404);
    } catch (e) {
      // A WnnError's code (WNN_ERR_DTYPE, ...) says what was wrong with the request.
      return json({ error: e.message, code: e.code ?? null }, e instanceof wnn.WnnError ? 400 : 500);
    }
  },
};
