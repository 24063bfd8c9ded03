// The examples run outside the repository: `npm pack`, a fresh `npm init -y`
// project in a temporary folder that installs the tarball (offline), the
// example files copied into it with the helpers they import, and nothing of
// the repository reachable from there. The Node classifier runs on a builder
// fixture and must print and write what the repository's own package computes;
// the browser example's server must serve the installed package's files (and
// nothing else), and the page, in headless Chromium when it is there, must
// compute the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newChromiumPage } from './chromium.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as wnn from '../../js/wnn.js';
import { parseNpy } from '../../js/io.js';
import { summarize } from '../../examples/shared/report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const fixtures = path.join(root, 'build/fixtures');
const MODEL = 'mnist_like';

function sh(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 180_000, env: { ...process.env, ...env } });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} (in ${cwd}) failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

// The files an example needs besides the package, copied with the layout they
// have in examples/ (the examples import '../shared/...').
function copyExample(app, files) {
  for (const f of files) {
    fs.mkdirSync(path.join(app, 'examples', path.dirname(f)), { recursive: true });
    fs.copyFileSync(path.join(root, 'examples', f), path.join(app, 'examples', f));
  }
}

// Every import of a copied example is the package, a Node built-in or a file
// that was copied.
function assertSelfContained(app, files) {
  for (const f of files.filter((x) => /\.m?js$/.test(x))) {
    const text = fs.readFileSync(path.join(app, 'examples', f), 'utf8');
    for (const [, spec] of text.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)) {
      if (spec === 'wnn' || spec === 'wnn/io' || spec.startsWith('node:')) continue;
      const target = spec.startsWith('/') ? path.join(app, spec) : path.resolve(path.dirname(path.join(app, 'examples', f)), spec);
      assert.ok(fs.existsSync(target), `examples/${f} imports ${spec}, which is neither the package nor a copied file`);
    }
  }
}

// What the repository's own package computes for the fixture.
async function expectedReport(host) {
  const model = await wnn.load(path.join(fixtures, `${MODEL}.wnn`));
  try {
    const inputs = {};
    model.inputs.forEach((info, i) => {
      inputs[info.name] = parseNpy(fs.readFileSync(path.join(fixtures, `${MODEL}.input_${i}.npy`))).data;
    });
    return summarize(model, await model.predict(inputs), host);
  } finally {
    model.dispose();
  }
}

// A fresh project with the packed tarball installed, and data/ holding the
// fixture under the names examples/prepare.mjs gives it.
function freshProject(t) {
  for (const f of ['dist/wnn.wasm', 'dist/wnn-relaxed.wasm', 'dist/wnn-scalar.wasm']) assert.ok(fs.existsSync(path.join(root, f)), `${f} missing: npm run build`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-examples-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const env = { npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false' };
  const packed = JSON.parse(sh(npm, ['pack', '--json', '--pack-destination', tmp], root, env));
  const files = packed[0].files.map((f) => f.path);
  for (const f of ['js/io.js', 'js/io.d.ts']) assert.ok(files.includes(f), `the tarball lacks ${f}`);
  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  sh(npm, ['init', '-y'], app, env);
  // The examples' helpers (examples/shared/*.js) are ES modules, as .js files
  // are in a project of "type": "module" (npm init -y writes "commonjs").
  sh(npm, ['pkg', 'set', 'type=module'], app, env);
  sh(npm, ['install', '--offline', '--no-audit', '--no-fund', path.join(tmp, packed[0].filename)], app, env);
  fs.mkdirSync(path.join(app, 'data'));
  fs.copyFileSync(path.join(fixtures, `${MODEL}.wnn`), path.join(app, 'data/model.wnn'));
  fs.copyFileSync(path.join(fixtures, `${MODEL}.input_0.npy`), path.join(app, 'data/input_0.npy'));
  return app;
}

function sameReport(got, want) {
  assert.equal(got.model, want.model);
  assert.equal(got.outputs.length, want.outputs.length);
  got.outputs.forEach((o, i) => {
    const w = want.outputs[i];
    assert.deepEqual([o.name, o.shape, o.dtype, o.argmax], [w.name, w.shape, w.dtype, w.argmax]);
    assert.deepEqual(o.top.map((x) => x.index), w.top.map((x) => x.index));
    o.top.forEach((x, k) => assert.ok(Math.abs(x.value - w.top[k].value) <= 1e-5 * Math.max(1, Math.abs(w.top[k].value)), `${o.name} top ${k}`));
  });
}

const NO_FIXTURE = `no build/fixtures/${MODEL}.wnn (npm test writes it with build/native/make_fixtures)`;

test('examples/node/classify.mjs runs in a fresh project that installed the tarball', async (t) => {
  if (!fs.existsSync(path.join(fixtures, `${MODEL}.wnn`))) { t.skip(NO_FIXTURE); return; }
  const app = freshProject(t);
  const files = ['node/classify.mjs', 'shared/report.js'];
  copyExample(app, files);
  assertSelfContained(app, files);
  // Nothing above the project is a package that could resolve 'wnn'.
  assert.ok(!fs.existsSync(path.join(app, '..', 'node_modules')));

  const out = sh(process.execPath, ['examples/node/classify.mjs', 'data/model.wnn', 'data/input_0.npy', '--out', 'result.json'], app);
  const want = await expectedReport('node');
  const got = JSON.parse(fs.readFileSync(path.join(app, 'result.json'), 'utf8'));
  assert.equal(got.host, 'node');
  sameReport(got, want);
  assert.match(out, new RegExp(`^wnn on node: model ${want.model}$`, 'm'));
  assert.match(out, new RegExp(`^  ${want.outputs[0].name} \\[${want.outputs[0].shape.join(', ')}\\] float32: argmax ${want.outputs[0].argmax}$`, 'm'));
  assert.match(out, /^  run: \d+\.\d{3} ms \(median of 3\)$/m);
  assert.match(out, /^wrote result\.json$/m);

  // A missing input file fails loudly, naming it.
  const bad = spawnSync(process.execPath, ['examples/node/classify.mjs', 'data/model.wnn', 'data/nothing.npy', '--out', 'r.json'], { cwd: app, encoding: 'utf8' });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /nothing\.npy/);

  // TypeScript users get js/io.d.ts through the exports map's "types" of './io'.
  const deno = path.join(root, 'node_modules/.bin/deno');
  if (!fs.existsSync(deno) || spawnSync(deno, ['--version']).status !== 0) {
    t.diagnostic('node_modules/.bin/deno does not run: wnn/io declarations were not type-checked');
    return;
  }
  fs.writeFileSync(path.join(app, 'check.ts'), `
import { formatNpy, parseNpy, parseTensorProto } from 'wnn/io';
const t = parseNpy(new Uint8Array(0), { double: 'float32' });
if (t.dtype === 'int64') { const big: BigInt64Array = t.data; console.log(big); }
const p: { name: string; shape: number[] } = parseTensorProto(new ArrayBuffer(0));
const bytes: Uint8Array = formatNpy({ dtype: 'float32', shape: [1], data: new Float32Array(1) });
export { p, bytes };
`);
  fs.writeFileSync(path.join(app, 'bad.ts'), `
import { parseNpy } from 'wnn/io';
parseNpy(new Uint8Array(0), { double: 'float16' });
`);
  const denoEnv = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
  const ok = spawnSync(deno, ['check', 'check.ts'], { cwd: app, encoding: 'utf8', env: denoEnv });
  assert.equal(ok.status, 0, `deno check of a correct use failed:\n${ok.stderr}`);
  const wrong = spawnSync(deno, ['check', 'bad.ts'], { cwd: app, encoding: 'utf8', env: denoEnv });
  assert.notEqual(wrong.status, 0, "double: 'float16' type-checked");
  assert.match(wrong.stderr, /float16/);
});

test('examples/browser serves the installed package and runs from it', async (t) => {
  if (!fs.existsSync(path.join(fixtures, `${MODEL}.wnn`))) { t.skip(NO_FIXTURE); return; }
  const app = freshProject(t);
  const files = ['browser/index.html', 'browser/main.js', 'browser/serve.mjs', 'shared/report.js'];
  copyExample(app, files);
  assertSelfContained(app, files.filter((f) => f !== 'browser/main.js'));
  // main.js imports '/examples/shared/report.js', a URL path the server maps to examples/shared.
  assert.match(fs.readFileSync(path.join(app, 'examples/browser/main.js'), 'utf8'), /from '\/examples\/shared\/report\.js'/);

  // As a user starts it: its own process, port 0, the data folder by argument.
  const server = spawn(process.execPath, ['examples/browser/serve.mjs', '0', '--data', 'data'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => server.kill());
  const banner = await new Promise((resolve, reject) => {
    let text = '';
    server.stdout.on('data', (b) => { text += b; if (text.includes('\n')) resolve(text); });
    server.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
    setTimeout(() => reject(new Error(`serve.mjs printed no address: ${text}`)), 20_000);
  });
  const installed = fs.realpathSync(path.join(app, 'node_modules/wnn'));
  assert.match(banner, new RegExp(`^serving wnn from ${installed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at http://127\\.0\\.0\\.1:\\d+/examples/browser/`));
  const base = banner.match(/http:\/\/127\.0\.0\.1:\d+/)[0];
  const get = async (p) => {
    const r = await fetch(base + p);
    return { status: r.status, type: r.headers.get('content-type'), body: new Uint8Array(await r.arrayBuffer()) };
  };
  for (const f of ['js/wnn.js', 'js/io.js', 'dist/wnn.wasm', 'dist/wnn-relaxed.wasm', 'dist/wnn-scalar.wasm']) {
    const r = await get(`/${f}`);
    assert.equal(r.status, 200, f);
    assert.deepEqual(r.body, new Uint8Array(fs.readFileSync(path.join(installed, f))), `/${f} is the installed package's ${f}`);
  }
  assert.equal((await get('/dist/wnn.wasm')).type, 'application/wasm');
  assert.equal((await get('/examples/browser/')).status, 200);
  assert.equal((await get('/build/examples/model.wnn')).status, 200);
  for (const p of ['/package.json', '/node_modules/wnn/package.json', '/js/../package.json', '/examples/browser/..%2F..%2Fpackage.json',
    '/examples/browser/%2e%2e/%2e%2e/data/model.wnn', '/data/model.wnn', '/examples/node/classify.mjs']) {
    assert.equal((await get(p)).status, 404, `${p} is not served`);
  }

  // The page itself, when Debian's Chromium and playwright-core are there.
  const opened = await newChromiumPage(t);
  if (opened.skip) { t.diagnostic(`${opened.skip}: the page was not opened`); return; }
  const { page, problems, requested } = opened;
  await page.goto(`${base}/examples/browser/`);
  await page.waitForSelector('body[data-status]', { timeout: 60_000 });
  const [status, text, report] = await page.evaluate(() => [document.body.dataset.status, document.getElementById('result').textContent, window.wnnReport]);
  assert.equal(status, 'done', `${text}\n${problems.join('\n')}`);
  assert.deepEqual(problems, []);
  // Chromium has relaxed SIMD: load() picks dist/wnn-relaxed.wasm there.
  for (const p of ['/js/wnn.js', '/js/io.js', '/dist/wnn-relaxed.wasm', '/build/examples/model.wnn', '/build/examples/input_0.npy']) {
    assert.ok(requested.includes(p), `the page fetched ${p}: ${requested.join(' ')}`);
  }
  sameReport(report, await expectedReport('browser'));
});
