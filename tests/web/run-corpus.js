// Run a list of jobs through diskdoc's WebAssembly build exactly as the page loads it
// (docs/web/diskdoc-wasm.js + docs/web/diskdoc.js), for tests/it/web.rs, which compares each
// answer with the native binary's. Usage: node run-corpus.js JOBS.json STATUSES.json, where
// JOBS.json is [{mode: "explain"|"replay", form, label, input, output}]; each answer is
// written to `output` and the exit statuses, in order, to STATUSES.json (-1: the module
// trapped; the message is the output).
"use strict";
const fs = require("fs");
const path = require("path");
const web = path.join(__dirname, "..", "..", "docs", "web");
const api = require(path.join(web, "diskdoc.js"));
const b64 = require(path.join(web, "diskdoc-wasm.js"));

async function main() {
  const [jobsFile, statusFile] = process.argv.slice(2);
  const jobs = JSON.parse(fs.readFileSync(jobsFile, "utf8"));
  let engine = await api.load(b64);
  const statuses = [];
  const t0 = Date.now();
  for (const job of jobs) {
    const input = new Uint8Array(fs.readFileSync(job.input));
    try {
      const r = engine[job.mode](input, job.label, { format: job.form, redact: true });
      fs.writeFileSync(job.output, r.output);
      statuses.push(r.exitStatus);
    } catch (e) {
      fs.writeFileSync(job.output, "trap: " + e + "\n");
      statuses.push(-1);
      engine = await api.load(b64);
    }
  }
  fs.writeFileSync(statusFile, JSON.stringify(statuses));
  console.log(`run-corpus: ${jobs.length} jobs through the wasm build in ${Date.now() - t0} ms`);
}
main().catch((e) => {
  console.error("run-corpus: " + (e && e.stack ? e.stack : e));
  process.exit(2);
});
