// The HTML report (`diskdoc replay FILE --format html`) in a real browser: Debian's headless
// Chromium (/usr/bin/chromium, or $CHROMIUM) through puppeteer-core, as browser.js drives the
// web page. The bench report with every kind of result (tests/fixtures/bench-report) is
// rendered at a desktop's 1000 px and a phone's 400 px; each chart is found by its element's
// bounding box and screenshotted alone, and must hold drawn pixels (axes, lines, bars: many
// pixels off the background, several colours); the page must not scroll sideways, run no
// script and fetch nothing. Then every fixture bundle's page must load with no request and
// no console error. Writes target/web-screenshots/report-html-{1000,400}.png.
//   node tests/web/report-html.js [path/to/diskdoc]
// Exits non-zero on any failure; prints "N passed, N failed" last.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { repo, shots, diskdoc, launch, pixels, run } = require("./lib");

const BENCH = path.join(repo, "tests", "fixtures", "bench-report", "loop-all-and-cdm.json");
const BUNDLES = path.join(repo, "tests", "fixtures", "bundles");

// The page diskdoc writes for `file`.
function page(file) {
  return diskdoc(["replay", file, "--format", "html"]);
}

// Open `file` (a page on disk) in `p` at `width`, recording requests and errors.
async function open(p, file, width, height) {
  await p.setViewport({ width, height, deviceScaleFactor: 1, isMobile: width < 600 });
  await p.goto("file://" + file, { waitUntil: "load" });
}

async function main(check) {
  fs.mkdirSync(shots, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "diskdoc-report-html-"));
  const browser = await launch();
  try {
    const file = path.join(tmp, "bench.html");
    fs.writeFileSync(file, page(BENCH));
    for (const width of [1000, 400]) {
      const p = await browser.newPage();
      const errors = [];
      const requests = [];
      p.on("pageerror", (e) => errors.push(String(e)));
      p.on("console", (m) => errors.push(m.type() + ": " + m.text()));
      p.on("request", (r) => {
        if (!r.url().startsWith("file://" + file)) requests.push(r.url());
      });
      await open(p, file, width, 1400);
      const charts = await p.$$eval("figure.chart", (fs) =>
        fs.map((f) => {
          const s = f.querySelector("svg").getBoundingClientRect();
          return { kind: f.dataset.chart, x: s.x + window.scrollX, y: s.y + window.scrollY, w: s.width, h: s.height };
        })
      );
      const kinds = [...new Set(charts.map((c) => c.kind))].sort();
      check(`${width} px: every chart is on the page`, JSON.stringify(kinds) === JSON.stringify(["block-size", "cdm", "latency", "zone"]), JSON.stringify(kinds));
      for (const [i, c] of charts.entries()) {
        const name = `${width} px: ${c.kind} chart ${i}`;
        check(`${name} fits the width`, c.w > 0 && c.x >= 0 && c.x + c.w <= width + 0.5, JSON.stringify(c));
        const png = await p.screenshot({ clip: { x: c.x, y: c.y, width: c.w, height: c.h }, captureBeyondViewport: true });
        const r = await pixels(browser, png);
        // Axes, grid, lines and labels (or the grid's boxes and bars): a few per cent of
        // the pixels at least, in several colours; a blank or failed SVG is one colour.
        check(`${name} is drawn`, r.drawn > 0.02 && r.distinct >= 8, JSON.stringify(r));
        if (i === 0) console.log(`  ${width} px ${c.kind}: ${r.width}x${r.height}, ${(r.drawn * 100).toFixed(1)} % drawn, ${r.distinct} colours`);
      }
      const cdm = charts.find((c) => c.kind === "cdm");
      if (cdm) {
        const png = await p.screenshot({ clip: { x: cdm.x, y: cdm.y, width: cdm.w, height: cdm.h }, captureBeyondViewport: true });
        fs.writeFileSync(path.join(shots, `report-html-cdm-${width}.png`), png);
      }
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      check(`${width} px: no sideways scrolling`, overflow <= 0, `${overflow} px too wide`);
      const scripts = await p.$$eval("script", (s) => s.length);
      check(`${width} px: no script element`, scripts === 0, String(scripts));
      const findings = await p.$$eval("#findings article.finding", (a) => a.length);
      check(`${width} px: the findings are shown`, findings > 0, String(findings));
      await p.screenshot({ path: path.join(shots, `report-html-${width}.png`), fullPage: false });
      check(`${width} px: no request left the page`, requests.length === 0, requests.join(" "));
      check(`${width} px: no script error or console message`, errors.length === 0, errors.join(" | "));
      await p.close();
    }

    // Every fixture bundle's page loads cleanly (no results: "not measured", no chart).
    const names = fs.readdirSync(BUNDLES).filter((n) => n.endsWith(".json")).sort();
    let clean = 0;
    const bad = [];
    for (const n of names) {
      const f = path.join(tmp, n + ".html");
      fs.writeFileSync(f, page(path.join(BUNDLES, n)));
      const p = await browser.newPage();
      const problems = [];
      p.on("pageerror", (e) => problems.push(String(e)));
      p.on("console", (m) => problems.push(m.text()));
      p.on("request", (r) => {
        if (!r.url().startsWith("file://" + f)) problems.push("request " + r.url());
      });
      await open(p, f, 400, 900);
      const notMeasured = await p.$$eval("p.not-measured", (ps) => ps.length);
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (notMeasured === 4 && overflow <= 0 && problems.length === 0) clean++;
      else bad.push(`${n}: ${notMeasured} not-measured, ${overflow} px too wide, ${problems.join(" | ")}`);
      await p.close();
    }
    check(`every fixture bundle's page (${names.length}) renders at 400 px, no request, no error`, clean === names.length && names.length >= 10, bad.join("\n  "));
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

run("report-html", main);
