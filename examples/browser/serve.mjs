#!/usr/bin/env node
// A static file server for the browser example. It serves nothing but
//
//   /js/*, /dist/*.wasm     the wnn package's own files: the installed package
//                           (node_modules/wnn), found the way `import 'wnn'`
//                           finds it; inside the repository, the repository's
//                           own package (it resolves 'wnn' to itself)
//   /examples/browser/*     this folder
//   /examples/shared/*      the host-independent helpers the pages import
//   /build/examples/*       the models and inputs: --data DIR (default
//                           ../../build/examples, what examples/prepare.mjs writes)
//
//   node examples/browser/serve.mjs [PORT] [--data DIR] [--isolate]     (PORT default 8080; 0 picks one)
//
// --isolate sends the two headers that make a page cross-origin isolated
// (Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy:
// require-corp): only such a page has SharedArrayBuffer, so only there does
// wnn run on several threads (dist/wnn-mt.wasm); without them it runs on one.
//
// then open http://127.0.0.1:PORT/examples/browser/. Serves .wasm as
// application/wasm, which WebAssembly.compileStreaming requires. Copied into
// a project with `examples/browser/` and `examples/shared/`, it serves that
// project's node_modules/wnn.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json', '.wasm': 'application/wasm', '.css': 'text/css', '.png': 'image/png',
};

/** The folder of the wnn package this file would import. */
export function packageRoot() {
  return path.dirname(createRequire(import.meta.url).resolve('wnn/package.json'));
}

export function startServer(port = 8080, host = '127.0.0.1', { data = path.resolve(here, '../../build/examples'), isolate = false } = {}) {
  const pkg = packageRoot();
  // URL prefix -> folder, and which files of it are served.
  const mounts = [
    ['/js/', path.join(pkg, 'js'), () => true],
    ['/dist/', path.join(pkg, 'dist'), (f) => f.endsWith('.wasm')],
    ['/examples/browser/', here, () => true],
    ['/examples/shared/', path.resolve(here, '../shared'), () => true],
    ['/build/examples/', path.resolve(data), () => true],
  ];
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      rel = req.url;
    }
    if (rel.endsWith('/')) rel += 'index.html';
    const mount = mounts.find(([prefix]) => rel.startsWith(prefix));
    let file = null;
    if (mount) {
      const [prefix, dir, serves] = mount;
      const inside = path.normalize(rel.slice(prefix.length));
      const candidate = path.join(dir, inside);
      const within = path.relative(dir, candidate);
      if (within && !within.startsWith('..') && !path.isAbsolute(within) && serves(candidate)) file = candidate;
    }
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${rel}\n`);
      return;
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-store',
      ...(isolate ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {}),
    });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--data');
  const data = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const isolate = args.includes('--isolate');
  if (isolate) args.splice(args.indexOf('--isolate'), 1);
  const server = await startServer(Number(args[0] ?? 8080), '127.0.0.1', { ...(data ? { data } : {}), isolate });
  console.log(`serving wnn from ${packageRoot()} at http://127.0.0.1:${server.address().port}/examples/browser/`);
}
