# A Cloudflare Worker serving wnn inference, for the local workerd runtime:
#
#   node_modules/.bin/workerd serve examples/workerd/config.capnp
#
# then GET http://127.0.0.1:8787/ (the model) and POST an .npy to
# http://127.0.0.1:8787/predict (Content-Type application/octet-stream or
# none: curl -H 'content-type: application/octet-stream' --data-binary @FILE.npy).
# A bad request is answered 4xx with {error, code} (see worker.js). `--socket-addr http=127.0.0.1:PORT` picks
# another port. The model is build/examples/model.wnn (node examples/prepare.mjs).
# Paths are relative to this file. The wasm is a "wasm" module: workerd hands
# the worker a compiled WebAssembly.Module, as Cloudflare does (Workers may not
# compile wasm from bytes at run time).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  # gc() for the worker: it collects every 1,000 requests (or 64 MB of
  # bodies), which keeps this process's memory level under load (see
  # afterRequest in request.js). Cloudflare manages memory itself; there the
  # worker finds no gc() and skips it. (With v8Flags set, workerd warns at
  # start that its bootstrap compile cache is not used: harmless.)
  v8Flags = ["--expose-gc"],
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "wnn", esModule = embed "../../js/wnn.js"),
    (name = "request.js", esModule = embed "request.js"),
    (name = "report.js", esModule = embed "../shared/report.js"),
    (name = "wnn.wasm", wasm = embed "../../dist/wnn.wasm"),
    (name = "model.wnn", data = embed "../../build/examples/model.wnn"),
  ],
  compatibilityDate = "2025-09-01",
);
