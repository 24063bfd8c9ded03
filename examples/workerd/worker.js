// A Cloudflare Worker that serves a wnn model over HTTP.
//   GET  /         the model's inputs, outputs, numParams and metadata (JSON)
//   POST /predict  body: an .npy file for the model's input (?input=NAME picks
//                  it by name); answer: every output as {name, shape, dtype,
//                  data} plus a summary (argmax, top 5), JSON
// The wasm arrives as a WebAssembly.Module import (Workers forbid compiling
// from bytes) and goes to wnn.load as options.wasm; the model is a data module
// (an ArrayBuffer). One model and one executor, made on the first request,
// serve them all: a request is served synchronously from setInput to
// getOutput, so requests never interleave inside the executor, and nothing of
// one request outlives its response.
//
// What a client can get wrong is answered 4xx with {error, code}, code a
// WNN_ERR_* name (examples/workerd/request.js): 400 for a body that is not a
// strict .npy of exactly the input's dtype and shape (trailing bytes
// included) or that holds NaN or an infinity, 413 for a body over the input's
// size plus NPY_HEADER_MAX (refused from its Content-Length before reading,
// or as soon as the stream passes it), 415 for another Content-Type, 405 for
// another method, 404 for another path. 500 is left for server faults.
import * as wnn from 'wnn';
import wasm from './wnn.wasm';
import modelBytes from './model.wnn';
import { summarize } from './report.js';
import { ClientError, NPY_HEADER_MAX, afterRequest, errorResponse, json, methodNotAllowed, npyData, parseNpyHeader, readBody, requireFinite } from './request.js';

let served; // Promise<{model, executor, describe}>, made once

async function serve() {
  const model = await wnn.load(modelBytes, { wasm });
  const { inputs, outputs, numParams, metadata } = model;
  return { model, executor: model.createExecutor(), describe: JSON.stringify({ inputs, outputs, numParams, metadata }) };
}

async function predict(request, url, { model, executor }) {
  const name = url.searchParams.get('input') ?? model.inputs[0].name;
  const info = model.inputs.find((i) => i.name === name);
  if (!info) {
    throw new ClientError(400, 'WNN_ERR_NOT_FOUND', `?input=${name}: the model has no input of that name (its inputs: ${model.inputs.map((i) => `"${i.name}"`).join(', ')})`);
  }
  if (model.inputs.length !== 1) {
    throw new ClientError(400, 'WNN_ERR_NOT_FOUND', `the model has ${model.inputs.length} inputs; this endpoint takes one .npy and so serves one-input models`);
  }
  // The most a valid body can be: the input's bytes and a header.
  const body = await readBody(request, bytesOf(info) + NPY_HEADER_MAX);
  // Strict .npy: the header first, checked against the input before any data is looked at.
  const header = parseNpyHeader(body);
  if (header.dtype !== info.dtype) {
    throw new ClientError(400, 'WNN_ERR_DTYPE', `input "${info.name}" is ${info.dtype} [${info.shape.join(', ')}]; the .npy holds ${header.dtype}`);
  }
  if (header.shape.length !== info.shape.length || header.shape.some((d, k) => d !== info.shape[k])) {
    throw new ClientError(400, 'WNN_ERR_SHAPE', `input "${info.name}" has shape [${info.shape.join(', ')}]; the .npy has shape [${header.shape.join(', ')}]`);
  }
  const data = npyData(body, header);
  requireFinite(data, info.dtype, info.name);
  // From setInput to the last getOutput nothing awaits: the one executor is ours.
  executor.setInput(info.name, data, header.shape).run();
  const result = {};
  for (const o of model.outputs) result[o.name] = executor.getOutput(o.name);
  const report = summarize(model, result, 'workerd');
  const tensors = Object.values(result).map((t) => ({ ...t, data: Array.from(t.data, Number) }));
  return json({ report, outputs: tensors });
}

// Bytes per element of each dtype wnn has.
const ITEM = { float32: 4, float16: 2, int64: 8, int32: 4, int8: 1, uint8: 1, bool: 1 };
const bytesOf = (info) => info.shape.reduce((a, b) => a * b, 1) * ITEM[info.dtype];

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
      if (url.pathname === '/predict') {
        if (request.method !== 'POST') methodNotAllowed(request.method, '/predict', 'POST');
        return await predict(request, url, s);
      }
      return json({ error: `no route ${request.method} ${url.pathname}`, code: 'WNN_ERR_NOT_FOUND' }, 404);
    } catch (e) {
      return errorResponse(e);
    } finally {
      afterRequest();
    }
  },
};
