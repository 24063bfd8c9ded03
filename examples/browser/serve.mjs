#!/usr/bin/env node
// A static file server for the browser example, rooted at the repository
// (so the page reaches /js/wnn.js, /dist/wnn.wasm and /build/examples/*):
//
//   node examples/browser/serve.mjs [PORT]        (default 8080; 0 picks one)
//
// then open http://127.0.0.1:PORT/examples/browser/. Serves .wasm as
// application/wasm, which WebAssembly.compileStreaming requires.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json', '.wasm': 'application/wasm', '.css': 'text/css', '.png': 'image/png',
};

export function startServer(port = 8080, host = '127.0.0.1') {
  const server = http.createServer((req, res) => {
    let rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${rel}\n`);
      return;
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-store',
    });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startServer(Number(process.argv[2] ?? 8080));
  console.log(`serving ${root} at http://127.0.0.1:${server.address().port}/examples/browser/`);
}
