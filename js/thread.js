// A worker thread of dist/wnn-mt.wasm (docs/threads.md, "The threaded web
// module"). js/wnn.js starts this file as a worker_threads Worker (Node, Deno,
// Bun) or a Web Worker (browsers) and posts it the compiled module, the
// shared memory and the thread's record and stack, which a running thread
// made for it (wnn_web_thread_new). The worker instantiates the module on that
// memory, becomes a C thread (stack, libc thread record, thread-local
// storage), says so, and parks in wnn_web_thread_serve for good: from then on
// it runs the ranges of wnn_parallel_for that executors' runs hand it, and
// never returns to its event loop. The host ends it (worker.terminate(), the
// page or process going away).
import { threadInstance } from './wnn.js';

function start({ module, memory, thread }, reply) {
  let x;
  try {
    x = threadInstance(module, memory, thread);
  } catch (e) {
    reply({ error: String(e?.stack ?? e) });
    return;
  }
  reply({ ready: true });
  x.wnn_web_thread_serve(); // parks; returns only if there are already 64 serving threads
  reply({ error: 'wnn_web_thread_serve returned: this memory already has as many worker threads as a pool can use' });
}

// A worker_threads Worker (Node, Bun, Deno) has a parentPort; a Web Worker (browsers) has not.
let parentPort = null;
if (typeof process === 'object' || typeof globalThis.Deno === 'object') {
  try {
    const name = 'node:worker_threads'; // not a static specifier: bundlers for the web leave it alone
    ({ parentPort } = await import(/* webpackIgnore: true */ /* @vite-ignore */ name));
  } catch { /* a Web Worker */ }
}
if (parentPort) {
  parentPort.once('message', (data) => start(data, (m) => parentPort.postMessage(m)));
} else {
  globalThis.onmessage = (e) => {
    globalThis.onmessage = null;
    start(e.data, (m) => globalThis.postMessage(m));
  };
}
