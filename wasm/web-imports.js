// What dist/wnn.wasm imports from JavaScript beyond Emscripten's own
// (wasm/web.c): declared here so that emcc accepts the undefined symbol. The
// modules are standalone: js/wnn.js supplies the real function when it
// instantiates them (env.wnn_js_decode, the user codecs of wnn.registerCodec).
mergeInto(LibraryManager.library, {
  wnn_js_decode: function () { return 0; },
});
