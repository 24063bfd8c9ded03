#!/usr/bin/env node
// Runs a WASI command (a preview1 module with _start) under Node's node:wasi.
//
//   node wasm/run-wasi.mjs [--dir HOST[:GUEST]]... [--env NAME=VALUE]... MODULE.wasm [ARGS...]
//
// The process exits with the module's exit code. argv[0] inside the module is
// the module's file name.
//
// Directories: by default the current directory is visible as "." (so
// relative paths work) and under its own absolute path, and so is the
// temporary directory (os.tmpdir()). Each --dir HOST[:GUEST] adds HOST,
// visible as GUEST (default: HOST as given). wasi-libc resolves paths against
// one root: it strips a leading "/" or "./" from paths and preopen names
// alike, so "/" and "." would name the same directory; that is why the
// host's "/" is not preopened as a whole. Paths outside the preopened
// directories, or escaping them with "..", fail with ENOENT or ENOTCAPABLE.
//
// The same as `wasmtime run --dir . MODULE.wasm ARGS...` (docs/build.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { importWasi, runWasi } from '../js/node-wasi.js';

// Node 20's V8 can crash (SIGSEGV) inside wasi.start when a module's memory
// is large while the garbage collector marks concurrently: the WASI CLI on
// yolox_nano crashed in 4 runs of 4 here, and in none of 4 with a
// single-threaded GC. So this runner always runs with one.
if (!process.execArgv.includes('--single-threaded-gc')) {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath,
    ['--single-threaded-gc', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
}

function usage(msg) {
  if (msg) process.stderr.write(`run-wasi: ${msg}\n`);
  process.stderr.write(
    'usage: node wasm/run-wasi.mjs [--dir HOST[:GUEST]]... [--env NAME=VALUE]... MODULE.wasm [ARGS...]\n');
  process.exit(2);
}

try {
  await importWasi();
} catch (e) {
  // Node 18 has node:wasi only behind a flag: run again with it.
  if (process.execArgv.includes('--experimental-wasi-unstable-preview1')) throw e;
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath,
    ['--experimental-wasi-unstable-preview1', ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const argv = process.argv.slice(2);
const dirs = [];
const env = {};
while (argv.length && argv[0].startsWith('--')) {
  const opt = argv.shift();
  if (opt === '--') break;
  if (opt === '--help' || opt === '-h') usage();
  const value = argv.shift();
  if (value === undefined) usage(`${opt} needs a value`);
  if (opt === '--dir') {
    const i = value.indexOf(':');
    const host = i < 0 ? value : value.slice(0, i);
    const guest = i < 0 ? value : value.slice(i + 1);
    dirs.push([guest, path.resolve(host)]);
  } else if (opt === '--env') {
    const i = value.indexOf('=');
    if (i <= 0) usage(`--env wants NAME=VALUE, got ${value}`);
    env[value.slice(0, i)] = value.slice(i + 1);
  } else {
    usage(`unknown option ${opt}`);
  }
}
const modulePath = argv.shift();
if (!modulePath) usage('no module given');

// Guest name -> host directory; later entries replace earlier ones with the
// same guest name.
const cwd = process.cwd();
const preopens = {};
const add = (guest, host) => {
  if (fs.existsSync(host)) preopens[guest] = host;
};
add('.', cwd);
add(cwd, cwd);
const tmp = fs.realpathSync(os.tmpdir());
add(tmp, tmp);
if (tmp !== os.tmpdir()) add(os.tmpdir(), tmp);
for (const [guest, host] of dirs) {
  if (!fs.existsSync(host)) usage(`--dir ${host}: no such directory`);
  preopens[guest] = host;
}

let bytes;
try {
  bytes = fs.readFileSync(modulePath);
} catch (e) {
  usage(`cannot read ${modulePath}: ${e.message}`);
}

process.exitCode = await runWasi(bytes, {
  args: [path.basename(modulePath), ...argv],
  env,
  preopens,
  trapPrefix: `run-wasi: ${path.basename(modulePath)}: `,
  trapStatus: 134,
});
