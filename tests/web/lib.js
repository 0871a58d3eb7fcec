// What the browser tests share (browser.js: the web page; report-html.js: the HTML report):
// the binary under test, Debian's headless Chromium through puppeteer-core (no browser is
// downloaded), the pixels of a screenshot, and the pass/fail counter that prints
// "NAME: N passed, N failed" last and sets the exit status.
"use strict";
const path = require("path");
const { execFileSync } = require("child_process");
const puppeteer = require("puppeteer-core");

const repo = path.join(__dirname, "..", "..");
// The binary: the first argument, else the release build of this checkout.
const bin = process.argv[2] || path.join(repo, "target", "release", "diskdoc");
const shots = path.join(repo, "target", "web-screenshots");

// diskdoc's output for `args`; exit status 0 and 1 are both answers (1: findings).
function diskdoc(args) {
  try {
    return execFileSync(bin, args, { encoding: "utf8", maxBuffer: 64 << 20 });
  } catch (e) {
    if (e.status === 1) return e.stdout;
    throw e;
  }
}

// /usr/bin/chromium (or $CHROMIUM), headless. As root (CI) Chromium's sandbox cannot start;
// the pages are our own, from file:// or the loopback address.
function launch() {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

// A PNG's pixels, decoded in a blank page: distinct colours, the share of the commonest
// one (a blank screenshot is one colour), and the share that differs from the top-left
// (background) colour by more than 60 in the sum of R, G and B (drawn ink).
async function pixels(browser, png) {
  const p = await browser.newPage();
  const r = await p.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const bg = [d[0], d[1], d[2]];
    const counts = new Map();
    let drawn = 0;
    for (let i = 0; i < d.length; i += 4) {
      const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      counts.set(k, (counts.get(k) || 0) + 1);
      if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 60) drawn++;
    }
    const n = d.length / 4;
    return { distinct: counts.size, top: Math.max(...counts.values()) / n, drawn: drawn / n, width: c.width, height: c.height };
  }, png.toString("base64"));
  await p.close();
  return r;
}

// Run `main` with a counter: `main(check)` calls check(name, ok, detail) per assertion; an
// exception counts as one failure. Prints "NAME: N passed, N failed" last; exit status 1
// on any failure.
function run(name, main) {
  let passed = 0;
  let failed = 0;
  function check(what, ok, detail) {
    if (ok) {
      passed++;
      console.log("ok   " + what);
    } else {
      failed++;
      console.log("FAIL " + what + (detail ? ": " + detail : ""));
    }
  }
  main(check)
    .catch((e) => {
      failed++;
      console.log(`FAIL ${name} test: ` + (e && e.stack ? e.stack : e));
    })
    .finally(() => {
      console.log(`${name}: ${passed} passed, ${failed} failed`);
      process.exitCode = failed === 0 ? 0 : 1;
    });
}

module.exports = { repo, bin, shots, diskdoc, launch, pixels, run };
