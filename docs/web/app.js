// The page: a paste goes to explain, a dropped or chosen file to replay (a diskdoc JSON
// report or bundle) or to explain (anything else); the JSON report is shown as findings with
// their evidence and fixes, plus the commands to ask for; the mail reply is the 72-column
// text report. Every answer comes from diskdoc's core compiled to WebAssembly (diskdoc.js).
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  let engine = null;
  let last = null; // { kind: "explain" | "replay", input, label, json, mail }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  async function start() {
    try {
      engine = await DiskdocWasm.load(DISKDOC_WASM);
      // The first answer builds the recognisers' patterns (a second under WebAssembly):
      // do it now, while the reader is still pasting, not on their first click.
      engine.explain("smartctl 7.3\n=== START OF INFORMATION SECTION ===\n", "warm-up", { format: "json" });
      $("explain").disabled = false;
      $("status").textContent = "Ready. Paste tool output or drop a report.";
    } catch (e) {
      $("status").textContent = "diskdoc could not start in this browser: " + e;
    }
  }

  // Run one command; a trap (a bug in diskdoc) is reported and the module loaded again.
  async function run(kind, input, label) {
    const redact = $("redact").checked;
    const t0 = performance.now();
    let r;
    try {
      r = engine[kind](input, label, { format: "json", redact });
    } catch (e) {
      engine = await DiskdocWasm.load(DISKDOC_WASM);
      show({ error: "diskdoc stopped on an internal error (" + e + "); please report it with the input." });
      return;
    }
    if (r.exitStatus === 2) {
      show({ error: r.output.trim() });
      return;
    }
    let report;
    try {
      report = JSON.parse(r.output);
    } catch (e) {
      show({ error: "diskdoc's answer is not JSON: " + e });
      return;
    }
    last = { kind, input, label, redact, json: r.output, mail: null };
    show({ report });
    const ms = performance.now() - t0;
    document.body.dataset.answerMs = ms.toFixed(1);
    $("status").textContent += " Answered in " + Math.round(ms) + " ms, in this browser.";
  }

  function mailText() {
    if (!last) return "";
    if (last.mail === null) {
      const r = engine[last.kind](last.input, last.label, { format: "mail", redact: last.redact });
      last.mail = r.output;
    }
    return last.mail;
  }

  function show({ error, report }) {
    const answer = $("answer");
    if (error) {
      answer.hidden = true;
      $("status").textContent = error;
      $("status").className = "error";
      return;
    }
    $("status").className = "";
    answer.hidden = false;
    $("version").textContent = report.diskdoc_version || "";
    const problems = report.findings.filter((f) => f.verdict === "problem");
    const others = report.findings.filter((f) => f.verdict !== "problem");
    $("status").textContent =
      (problems.length === 0 ? "No problem found." : problems.length + (problems.length === 1 ? " problem" : " problems") + " found.") +
      (report.redacted ? " Serial numbers and names are replaced by tokens." : " Not redacted.");
    const summary = $("summary");
    summary.replaceChildren();
    summary.append(el("p", "", "Platform: " + report.platform + ". Exit status " + report.exit_status + " (" + report.kind + ")."));

    const list = $("findings");
    list.replaceChildren(el("h2", "", "Findings"));
    if (problems.length === 0) list.append(el("p", "", "diskdoc found nothing wrong in this input."));
    for (const f of problems) list.append(findingCard(f));
    if (others.length > 0) {
      const d = el("details");
      d.append(el("summary", "", others.length + " other checks (passed, unknown, not applicable)"));
      const ul = el("ul", "others");
      for (const f of others) ul.append(el("li", "", "[" + f.verdict.replace("_", " ") + "] " + deviceOf(f) + f.title + " (" + f.check + ")"));
      d.append(ul);
      list.append(d);
    }

    const ask = $("ask");
    ask.replaceChildren();
    const ex = report.explanation || {};
    if ((ex.next_commands || []).length > 0) {
      ask.append(el("h2", "", "Ask for these (" + report.platform + ", as root)"));
      ask.append(el("pre", "commands", ex.next_commands.join("\n")));
    }
    if ((ex.missing || []).length > 0) {
      ask.append(el("h3", "", "What the input does not tell"));
      const ul = el("ul");
      for (const m of ex.missing) ul.append(el("li", "", m));
      ask.append(ul);
    }
    const rec = $("recognised");
    rec.replaceChildren();
    if ((ex.recognised || []).length > 0) {
      rec.append(el("h3", "", "Recognised"));
      const ul = el("ul");
      for (const r of ex.recognised) {
        ul.append(el("li", "", r.tool + (r.device ? " (" + r.device + ")" : "") + ", lines " + r.first_line + "-" + r.last_line + (r.superseded ? ", superseded" : "")));
      }
      rec.append(ul);
    }
    $("mail").textContent = "";
    $("mail-box").open = false;
  }

  // The device before a title that does not already start with it.
  function deviceOf(f) {
    return f.device && f.device !== "system" && !f.title.startsWith(f.device) ? f.device + ": " : "";
  }

  function findingCard(f) {
    const card = el("article", "finding " + f.severity);
    const h = el("h3");
    h.append(el("span", "sev", f.severity), " " + deviceOf(f) + f.title + " ", el("code", "", f.check));
    card.append(h, el("p", "", f.explanation));
    if (f.evidence.length > 0) {
      card.append(el("h4", "", "Evidence"));
      const ul = el("ul", "evidence");
      for (const e of f.evidence) {
        const li = el("li");
        li.append(el("code", "", e.source), " = " + e.value);
        ul.append(li);
      }
      card.append(ul);
    }
    for (const x of f.fixes) {
      card.append(el("h4", "", "Fix (" + x.platform + "): " + x.summary));
      if (x.steps.length > 0) {
        const ol = el("ol", "steps");
        for (const s of x.steps) ol.append(el("li", "", s));
        card.append(ol);
      }
      if (x.risk) card.append(el("p", "risk", "Risk: " + x.risk));
    }
    return card;
  }

  // A report or bundle is JSON with an object at the top; anything else is a paste.
  function looksLikeReport(bytes) {
    let i = 0;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
    while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
    return bytes[i] === 0x7b; // "{"
  }

  async function takeFile(file) {
    if (!engine) return;
    $("status").textContent = "Reading " + file.name + "…";
    const bytes = new Uint8Array(await file.arrayBuffer());
    await run(looksLikeReport(bytes) ? "replay" : "explain", bytes, file.name);
  }

  $("explain").addEventListener("click", () => {
    if (engine) run("explain", $("paste").value, "paste");
  });
  $("file").addEventListener("change", (e) => {
    if (e.target.files.length > 0) takeFile(e.target.files[0]);
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files.length > 0) takeFile(e.dataTransfer.files[0]);
  });

  $("copy-mail").addEventListener("click", async () => {
    const text = mailText();
    $("mail").textContent = text;
    $("mail-box").open = true;
    try {
      await navigator.clipboard.writeText(text);
      $("copied").textContent = "Copied: paste it into your reply.";
    } catch (e) {
      // file:// pages and old browsers may refuse the clipboard: the text is shown to copy.
      const range = document.createRange();
      range.selectNodeContents($("mail"));
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      $("copied").textContent = "Selected below: press Ctrl-C (Cmd-C) to copy.";
    }
  });
  $("save-json").addEventListener("click", () => {
    if (!last) return;
    const a = el("a");
    a.href = URL.createObjectURL(new Blob([last.json], { type: "application/json" }));
    a.download = "diskdoc-report.json";
    document.body.append(a);
    a.click();
    a.remove();
  });

  start();
})();
