# A Cloudflare Worker serving PP-OCRv3 text recognition, for the local workerd
# runtime:
#
#   node_modules/.bin/workerd serve examples/workerd/ocr.capnp
#
# then GET http://127.0.0.1:8788/ (the two models) and POST an image (.npy,
# uint8 [height, width, 3] RGB, Content-Type application/octet-stream or none)
# to http://127.0.0.1:8788/ocr. A bad request is answered 4xx with {error,
# code} (see ocr-worker.js).
# `--socket-addr http=127.0.0.1:PORT` picks another port. The models are
# build/examples/ppocr-det.wnn and ppocr-rec.wnn (node examples/prepare.mjs
# fetches and converts them). Paths are relative to this file. The wasm is a
# "wasm" module: workerd hands the worker a compiled WebAssembly.Module.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  # gc() for the worker: it collects every 1,000 requests (or 64 MB of
  # bodies), which keeps this process's memory level under load (see
  # afterRequest in request.js). Cloudflare manages memory itself; there the
  # worker finds no gc() and skips it. (With v8Flags set, workerd warns at
  # start that its bootstrap compile cache is not used: harmless.)
  v8Flags = ["--expose-gc"],
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:8788", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "ocr-worker.js"),
    (name = "wnn", esModule = embed "../../js/wnn.js"),
    (name = "request.js", esModule = embed "request.js"),
    (name = "ocr.js", esModule = embed "../shared/ocr.js"),
    (name = "wnn.wasm", wasm = embed "../../dist/wnn.wasm"),
    (name = "ppocr-det.wnn", data = embed "../../build/examples/ppocr-det.wnn"),
    (name = "ppocr-rec.wnn", data = embed "../../build/examples/ppocr-rec.wnn"),
  ],
  compatibilityDate = "2025-09-01",
);
