// diskdoc's WebAssembly module (crates/web) for the page and for Node: decode the module that
// diskdoc-wasm.js embeds as base64 (browsers refuse fetch() of file:// addresses, so the page
// cannot load a .wasm file beside it), instantiate it, and call it through the protocol
// documented in crates/web/src/lib.rs. A classic script, not an ES module: Chromium also
// refuses module scripts from file://. Nothing here touches the network.
(function (root) {
  "use strict";
  const FORMS = { text: 0, markdown: 1, json: 2, prometheus: 3, mail: 4 };

  function bytesOf(b64) {
    if (typeof Buffer !== "undefined") return new Uint8Array(Buffer.from(b64, "base64"));
    const s = atob(b64);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  // The module ships gzip-compressed (scripts/build-web.sh): what a reader downloads is a
  // third of the module's size. DecompressionStream is in every current browser and in
  // Node 18+ (Compression Streams, WHATWG); a module that is not gzip (no 1f 8b magic,
  // RFC 1952 2.3.1) is used as it is.
  async function inflate(bytes) {
    if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // load(base64) -> Promise of { explain, replay }; each takes (input, label, options)
  // with input a string or a Uint8Array, options { format: "json", redact: true }, and
  // returns { exitStatus, output }: exit status 0/1 as the command's, 2 with the error
  // message as output.
  async function load(b64) {
    const { instance } = await WebAssembly.instantiate(await inflate(bytesOf(b64)), {});
    const w = instance.exports;
    const enc = new TextEncoder();
    const dec = new TextDecoder();
    function put(slot, bytes) {
      const at = w.diskdoc_buffer(slot, bytes.length) >>> 0;
      // 0: over the input cap (the call that follows answers with the cap's message).
      if (at !== 0) new Uint8Array(w.memory.buffer, at, bytes.length).set(bytes);
    }
    function call(fn, input, label, opts) {
      const o = Object.assign({ format: "json", redact: true }, opts || {});
      const form = FORMS[o.format];
      if (form === undefined) throw new Error("unknown format " + o.format);
      w.diskdoc_set_time(Date.now() / 1000);
      put(1, enc.encode(label || "paste"));
      put(0, typeof input === "string" ? enc.encode(input) : input);
      const exitStatus = fn(form, o.redact ? 1 : 0);
      // A fresh view: the call may have grown (and so detached) the memory.
      const at = w.diskdoc_output_ptr() >>> 0;
      const output = dec.decode(new Uint8Array(w.memory.buffer, at, w.diskdoc_output_len() >>> 0));
      return { exitStatus, output };
    }
    return {
      explain: (input, label, opts) => call(w.diskdoc_explain, input, label, opts),
      replay: (input, label, opts) => call(w.diskdoc_replay, input, label, opts),
    };
  }

  const api = { load, FORMS };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.DiskdocWasm = api;
})(this);
