// Every example under examples/ run the way its documentation says, on the
// model and inputs examples/prepare.mjs writes to build/examples: Node, Deno,
// Bun, Cloudflare workerd (real HTTP requests), headless Chromium (a screenshot
// goes to build/examples/browser.png) and WASI. Each host's result must match
// what this process computes with js/wnn.js on the same files.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as wnn from '../../js/wnn.js';
import { parseNpy } from '../../examples/shared/npy.js';
import { summarize } from '../../examples/shared/report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rel = (...p) => path.join(root, ...p);
const examples = rel('build/examples');
const bin = (name) => rel('node_modules/.bin', name);

let prepared = null; // why the examples cannot run, or null
let expected; // summarize() of this process's own run

before(async () => {
  const r = spawnSync(process.execPath, [rel('examples/prepare.mjs')], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    prepared = `examples/prepare.mjs failed: ${r.stderr.trim().split('\n').at(-1)}`;
    return;
  }
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

test('workerd: examples/workerd serves inference over HTTP', async (t) => {
  if (prepared) return t.skip(prepared);
  const problem = binaryProblem('workerd');
  if (problem) return t.skip(problem);
  const port = await freePort();
  const child = spawn(bin('workerd'), ['serve', 'examples/workerd/config.capnp', '--socket-addr', `http=127.0.0.1:${port}`],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  t.after(() => child.kill());
  const base = `http://127.0.0.1:${port}`;
  let info;
  for (let i = 0; i < 300 && !info; i++) {
    if (child.exitCode !== null) assert.fail(`workerd exited with ${child.exitCode}: ${log}`);
    try {
      info = await (await fetch(`${base}/`)).json();
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  assert.ok(info, `workerd did not answer within 30 s: ${log}`);
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

  // Errors come back as HTTP 400 with the WnnError's code.
  const bad = await fetch(`${base}/predict`, { method: 'POST', body: fs.readFileSync(path.join(examples, 'input_0.npy')).subarray(0, 200) });
  assert.equal(bad.status, 500, 'a truncated .npy is not a wnn error');
  const wrongName = await fetch(`${base}/predict?input=nope`, { method: 'POST', body });
  assert.equal(wrongName.status, 400);
  assert.equal((await wrongName.json()).code, 'WNN_ERR_NOT_FOUND');
  assert.equal((await fetch(`${base}/nowhere`)).status, 404);
  child.kill();
  await exited;
});

test('browser: examples/browser in headless Chromium', async (t) => {
  if (prepared) return t.skip(prepared);
  if (!fs.existsSync('/usr/bin/chromium')) return t.skip('no /usr/bin/chromium (Debian package chromium; scripts/setup.sh installs it)');
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    return t.skip(`playwright-core not installed (npm install): ${e.message}`);
  }
  const { startServer } = await import('../../examples/browser/serve.mjs');
  const server = await startServer(0);
  t.after(() => server.close());
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  t.after(() => browser.close());
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
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
  assert.ok(requested.includes('/dist/wnn.wasm'), `the page fetched the SIMD wasm: ${requested.join(' ')}`);
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
