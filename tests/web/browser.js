// The page in a real browser: Debian's headless Chromium (/usr/bin/chromium, or $CHROMIUM)
// driven by puppeteer-core over the DevTools protocol; no browser is downloaded. The page is
// opened from file://, a real smartctl output and a real dmesg are pasted, and the problems
// shown must be the ones `diskdoc explain` finds; a saved report is chosen in the file picker
// and the mail reply must be what `diskdoc replay` prints; a 1 MB paste is timed; screenshots
// at desktop and phone widths must not be blank. Run by .ci/run after scripts/build-web.sh:
//   node tests/web/browser.js [path/to/diskdoc]
// Exits non-zero on any failure; prints "N passed, N failed" last.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { repo, shots, diskdoc: native, launch, pixels, run } = require("./lib");

const fixture = (rel) => path.join(repo, "tests", "fixtures", rel);
const SMARTCTL = fixture("corpus-reviewed/fixtures/linux/smartctl/x-sas-hgst-8tb-truenas-writeback-cache-disabled-pi-type1-cmd-echo.txt");
const DMESG = fixture("corpus-reviewed/fixtures/linux/dmesg/ahci-lpm-dipm-link-downshift-6-3-1.5-io-errors-ro-remount.txt");
const BUNDLE = fixture("bundles/linux-sda-ata1-dmesg-link-limited-smart-pending.json");

function nativeProblems(file) {
  const r = JSON.parse(native(["explain", "--format", "json", file]));
  return r.findings.filter((f) => f.verdict === "problem").map((f) => f.check).sort();
}

async function shownProblems(page) {
  return (await page.$$eval("#findings article.finding h3 code", (cs) => cs.map((c) => c.textContent))).sort();
}

// Paste `text` as a person would (the textarea's value, then an input event) and explain.
async function explainPaste(page, text) {
  await page.$eval("#paste", (t, v) => {
    t.value = v;
    t.dispatchEvent(new Event("input", { bubbles: true }));
  }, text);
  await page.$eval("body", (b) => delete b.dataset.answerMs);
  await page.click("#explain");
  await page.waitForFunction(() => document.body.dataset.answerMs || document.querySelector("#status.error"), { timeout: 60000 });
  return page.$eval("body", (b) => Number(b.dataset.answerMs));
}

// A static file server for `dir` on 127.0.0.1 (an ephemeral port), as any web host serves
// the page: files by name, a content type by extension, nothing else.
function serveStatic(dir) {
  const http = require("http");
  const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
  const server = http.createServer((req, res) => {
    const name = path.basename(new URL(req.url, "http://x").pathname) || "index.html";
    fs.readFile(path.join(dir, name), (err, body) => {
      if (err) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": types[path.extname(name)] || "application/octet-stream" });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function main(check) {
  fs.mkdirSync(shots, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "diskdoc-web-"));
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    const requests = [];
    page.on("request", (r) => {
      if (!/^(file|data|blob):/.test(r.url())) requests.push(r.url());
    });
    await page.setViewport({ width: 1280, height: 900 });
    const url = "file://" + path.join(repo, "docs", "web", "index.html");
    const t0 = Date.now();
    await page.goto(url);
    await page.waitForSelector("#explain:not([disabled])", { timeout: 60000 });
    console.log(`page ready in ${Date.now() - t0} ms (${url})`);

    // A real smartctl output.
    const smart = fs.readFileSync(SMARTCTL, "utf8");
    let ms = await explainPaste(page, smart);
    let shown = await shownProblems(page);
    let want = nativeProblems(SMARTCTL);
    check("smartctl paste: the problems shown are diskdoc explain's", JSON.stringify(shown) === JSON.stringify(want), `page ${shown} vs native ${want}`);
    check("smartctl paste: write-cache-disabled is shown", shown.includes("write-cache-disabled"), String(shown));
    const evidence = await page.$$eval("#findings ul.evidence li", (l) => l.length);
    check("smartctl paste: findings carry their evidence", evidence > 0, `${evidence} evidence lines`);
    const asks = await page.$eval("#ask", (a) => a.textContent);
    check("smartctl paste: the commands to ask for are shown", /smartctl|dmesg|lsblk|cat \/sys/.test(asks), asks.slice(0, 200));
    console.log(`smartctl paste answered in ${ms.toFixed(1)} ms`);

    // A real dmesg.
    const dmesg = fs.readFileSync(DMESG, "utf8");
    ms = await explainPaste(page, dmesg);
    shown = await shownProblems(page);
    want = nativeProblems(DMESG);
    check("dmesg paste: the problems shown are diskdoc explain's", JSON.stringify(shown) === JSON.stringify(want), `page ${shown} vs native ${want}`);
    check("dmesg paste: link-errors is shown", shown.includes("link-errors"), String(shown));
    await page.screenshot({ path: path.join(shots, "desktop.png"), fullPage: false });
    const desktop = await pixels(browser, fs.readFileSync(path.join(shots, "desktop.png")));
    check("desktop screenshot is not blank", desktop.distinct >= 50 && desktop.top < 0.95, JSON.stringify(desktop));
    console.log(`screenshot desktop ${desktop.width}x${desktop.height}: ${desktop.distinct} colours, commonest ${(desktop.top * 100).toFixed(1)} %`);

    // The mail reply of a paste: 72 columns, ASCII, with the findings.
    await page.click("#copy-mail");
    let mail = await page.$eval("#mail", (m) => m.textContent);
    const lines = mail.split("\n");
    check("mail reply: at most 72 columns, ASCII", lines.every((l) => l.length <= 72 && /^[\x20-\x7e]*$/.test(l)), lines.find((l) => l.length > 72 || !/^[\x20-\x7e]*$/.test(l)));
    check("mail reply: names the finding", mail.includes("link-errors"), mail.slice(0, 300));

    // A saved report, chosen in the file picker: replayed as `diskdoc replay` does.
    const report = path.join(tmp, "report.json");
    fs.writeFileSync(report, native(["replay", "--format", "json", BUNDLE]));
    const input = await page.$("#file");
    await page.$eval("body", (b) => delete b.dataset.answerMs);
    await input.uploadFile(report);
    await page.waitForFunction(() => document.body.dataset.answerMs || document.querySelector("#status.error"), { timeout: 60000 });
    shown = await shownProblems(page);
    const nat = JSON.parse(native(["replay", "--format", "json", report]));
    want = nat.findings.filter((f) => f.verdict === "problem").map((f) => f.check).sort();
    check("saved report: the problems shown are diskdoc replay's", JSON.stringify(shown) === JSON.stringify(want) && shown.length > 0, `page ${shown} vs native ${want}`);
    await page.click("#copy-mail");
    mail = await page.$eval("#mail", (m) => m.textContent);
    const nativeMail = native(["replay", report]);
    check("saved report: the mail reply is diskdoc replay's text, byte for byte", mail === nativeMail, `page ${mail.length} bytes, native ${nativeMail.length}`);
    const copied = await page.$eval("#copied", (c) => c.textContent);
    check("copy as mail reply: copied or selected for copying", /Copied|Selected/.test(copied), copied);

    // The same report dropped on the drop zone (a DragEvent carrying the file, as a drag
    // from the file manager delivers it).
    await page.$eval("body", (b) => delete b.dataset.answerMs);
    await page.$eval("#drop", (zone, text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], "report.json", { type: "application/json" }));
      zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, fs.readFileSync(report, "utf8"));
    await page.waitForFunction(() => document.body.dataset.answerMs || document.querySelector("#status.error"), { timeout: 60000 });
    const dropped = await shownProblems(page);
    check("dropped report: the problems shown are diskdoc replay's", JSON.stringify(dropped) === JSON.stringify(want), `page ${dropped} vs native ${want}`);

    // The phone width (a mobile viewport reloads the page): the dmesg answer again.
    await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 2, isMobile: true });
    await page.waitForSelector("#explain:not([disabled])", { timeout: 60000 });
    await explainPaste(page, dmesg);
    shown = await shownProblems(page);
    check("phone width: the dmesg problems are shown", shown.includes("link-errors"), String(shown));
    await page.$eval("#status", (s) => s.scrollIntoView());
    await page.screenshot({ path: path.join(shots, "phone.png"), fullPage: false });
    const phone = await pixels(browser, fs.readFileSync(path.join(shots, "phone.png")));
    check("phone screenshot is not blank", phone.distinct >= 50 && phone.top < 0.95, JSON.stringify(phone));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check("phone width: no sideways scrolling", overflow <= 0, `${overflow} px too wide`);
    console.log(`screenshot phone ${phone.width}x${phone.height}: ${phone.distinct} colours, commonest ${(phone.top * 100).toFixed(1)} %`);
    await page.setViewport({ width: 1280, height: 900, isMobile: false });
    await page.waitForSelector("#explain:not([disabled])", { timeout: 60000 });

    // A 1 MB paste: the smartctl output and the dmesg, repeated.
    let big = "";
    while (big.length < 1000000) big += smart + "\n" + dmesg + "\n";
    ms = await explainPaste(page, big);
    const status = await page.$eval("#status", (s) => s.textContent);
    check("1 MB paste is answered", !Number.isNaN(ms) && /Answered/.test(status), status);
    console.log(`1 MB paste (${big.length} bytes) answered in ${ms.toFixed(0)} ms in the page`);

    // Errors are shown, not thrown.
    await explainPaste(page, "");
    const err = await page.$eval("#status", (s) => s.className + ": " + s.textContent);
    check("an empty paste says what is wrong", /^error: diskdoc: paste: the input is empty/.test(err), err);

    // From a static web server (on the loopback address, stopped below): the same page.
    const server = await serveStatic(path.join(repo, "docs", "web"));
    try {
      const port = server.address().port;
      const p2 = await browser.newPage();
      p2.on("pageerror", (e) => errors.push(String(e)));
      await p2.goto(`http://127.0.0.1:${port}/index.html`);
      await p2.waitForSelector("#explain:not([disabled])", { timeout: 60000 });
      await explainPaste(p2, dmesg);
      const served = await shownProblems(p2);
      check("from a static web server: the dmesg problems are shown", served.includes("link-errors"), String(served));
      await p2.close();
    } finally {
      server.close();
    }

    check("no script error on the page", errors.length === 0, errors.join(" | "));
    check("no request left the page", requests.length === 0, requests.join(" "));
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

run("browser", main);
