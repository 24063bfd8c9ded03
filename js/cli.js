#!/usr/bin/env node
// `wnn` from the npm package (`npx wnn convert model.onnx -o model.wnn`): the
// command-line tool of docs/cli.md — convert, info, run, bench — compiled to
// WebAssembly (dist/wnn-convert.wasm, a WASI command) and run under Node's
// node:wasi. Needs only Node (18 or later); the same module runs under any
// WASI host (`wasmtime run --dir . dist/wnn-convert.wasm convert ...`).
//
// Files: the module sees the current directory (as "." and under its own
// path) and the folder of every path on the command line (a relative path
// that climbs out with ".." is passed as an absolute one). Nothing else of
// the file system is visible to it.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runWasi } from './node-wasi.js';

// Node 18 needs a flag for node:wasi; Node 20's V8 can crash while
// its concurrent GC marks a large wasm memory (wasm/run-wasi.mjs); so this
// runs in a child Node with the flags it needs.
const NEEDED = ['--single-threaded-gc'];
if (Number(process.versions.node.split('.')[0]) < 20) NEEDED.push('--experimental-wasi-unstable-preview1');
if (!NEEDED.every((f) => process.execArgv.includes(f))) {
  const r = spawnSync(process.execPath, [...NEEDED, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  if (r.error) {
    process.stderr.write(`wnn: cannot start Node: ${r.error.message}\n`);
    process.exit(1);
  }
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
}

const wasmPath = fileURLToPath(new URL('../dist/wnn-convert.wasm', import.meta.url));
let bytes;
try {
  bytes = fs.readFileSync(wasmPath);
} catch (e) {
  process.stderr.write(`wnn: cannot read ${wasmPath}: ${e.message} (the package is incomplete; in a checkout: npm run build)\n`);
  process.exit(1);
}

// Options whose value is a file or folder, alone or as NAME=PATH.
const PATH_OPTIONS = new Set(['-o', '--output', '--report', '--output-dir', '--input', '--const']);
const cwd = process.cwd();
const preopens = { '.': cwd, [cwd]: cwd };
const args = process.argv.slice(2);

// A path argument as the module should see it, its folder made visible.
function visible(p) {
  if (!p || p === '-') return p;
  const abs = path.resolve(cwd, p);
  let dir = abs;
  try {
    if (!fs.statSync(abs).isDirectory()) dir = path.dirname(abs);
  } catch {
    dir = path.dirname(abs); // an output that does not exist yet
  }
  if (fs.existsSync(dir)) preopens[dir] = dir;
  return path.isAbsolute(p) || p.split(/[\\/]/).includes('..') ? abs : p;
}

for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const eq = a.indexOf('=');
  const opt = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
  if (PATH_OPTIONS.has(opt)) {
    if (opt !== a) {
      args[i] = `${opt}=${pathValue(opt, a.slice(eq + 1))}`;
    } else if (i + 1 < args.length) {
      args[i + 1] = pathValue(opt, args[i + 1]);
      i++;
    }
  } else if (i > 0 && !a.startsWith('-') && (/\.(onnx|wnn)$/i.test(a) || fs.existsSync(path.resolve(cwd, a)))) {
    args[i] = visible(a); // the model
  }
}

// --input and --const take NAME=FILE (split at the last '=', as the CLI does).
function pathValue(opt, value) {
  if (opt !== '--input' && opt !== '--const') return visible(value);
  const eq = value.lastIndexOf('=');
  return eq < 0 ? value : `${value.slice(0, eq)}=${visible(value.slice(eq + 1))}`;
}

process.exitCode = await runWasi(bytes, {
  args: ['wnn', ...args],
  preopens,
  trapPrefix: 'wnn: the WebAssembly module stopped: ',
  trapStatus: 70,
});
