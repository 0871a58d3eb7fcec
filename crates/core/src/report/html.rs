//! The HTML report (`--format html`): one self-contained page to open in any browser, attach
//! to a ticket or print, the way people share CrystalDiskMark screenshots. Inline CSS and
//! inline SVG ([`super::svg`]) only: no script, no network, no external font; a
//! Content-Security-Policy meta element (CSP Level 3, `default-src 'none'`) makes the browser
//! refuse any script or fetch even if one slipped in. The same blocks as the text and
//! Markdown reports ([`super::view`]), the findings with their evidence and fixes first, and
//! charts drawn from the report's own results: the sequential rate across the disk, the
//! block-size curve, latency percentiles per test and the CrystalDiskMark grid; a chart
//! whose data is absent says "not measured". Every string goes through the HTML policy
//! ([`crate::sanitize::for_html`]), so a model name or a paste label reads as text, never as
//! markup. The output is also well-formed XML (void elements closed, no named entities), so
//! a strict parser and the tests' tag checker read it.

use std::collections::BTreeSet;

use crate::checks::{Finding, Severity, Verdict};
use crate::evidence::{BenchResult, TestName};
use crate::render::{PASS_TAG, verdict_word};
use crate::report::redact::Leak;
use crate::report::svg::{self, Cell, Grid, GridRow, LineChart, Scale, Series};
use crate::report::text::report_summary;
use crate::report::view::{self, Block};
use crate::report::{MessageSeverity, Report, Shared, compare, summarize};
use crate::sanitize::for_html as esc;
use crate::units;

/// Latency series drawn in one chart; more would be a tangle (the table has them all).
const MAX_LATENCY_SERIES: usize = 8;

/// The page's style: readable at a phone's 400 px (tables and raw outputs scroll or wrap
/// inside their box, charts scale to the width) and when printed.
const STYLE: &str = "\
:root{color-scheme:light}\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.45;\
color:#1a1a1a;background:#fafafa;margin:0;padding:0 1rem 2rem}\
main{max-width:60rem;margin:0 auto}\
h1{font-size:1.5rem;margin:1rem 0 .5rem}h2{font-size:1.25rem;margin:1.6rem 0 .6rem;\
border-bottom:1px solid #ccc}h3{font-size:1.05rem;margin:1.1rem 0 .4rem}\
h4{font-size:.95rem;margin:.7rem 0 .2rem}\
code,pre{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.88em}\
code{background:#eee;padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}\
pre{background:#f0f0f0;padding:.6rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}\
pre code{background:none;padding:0}\
.finding{background:#fff;border:1px solid #ddd;border-left:6px solid #888;\
padding:.4rem .9rem;margin:.8rem 0;border-radius:4px}\
.finding h3{margin-top:.4rem;overflow-wrap:anywhere}\
.sev-critical{border-left-color:#b71c1c}.sev-warning{border-left-color:#e65100}\
.sev-notice{border-left-color:#f9a825}.sev-info{border-left-color:#1565c0}\
.sev-unknown{border-left-color:#757575}\
.tag{display:inline-block;font-size:.8rem;font-weight:bold;text-transform:uppercase;\
color:#fff;background:#757575;border-radius:3px;padding:0 .35rem;margin-right:.35rem}\
.sev-critical .tag{background:#b71c1c}.sev-warning .tag{background:#e65100}\
.sev-notice .tag{background:#8d6e00}.sev-info .tag{background:#1565c0}\
.risk{color:#555}.effect{font-style:italic}\
.note{background:#fff8e1;border-left:4px solid #f9a825;padding:.3rem .6rem}\
.error{background:#ffebee;border-left-color:#b71c1c}\
.not-measured{color:#666;font-style:italic}\
figure.chart{background:#fff;border:1px solid #ddd;border-radius:4px;margin:.8rem 0;\
padding:.5rem}\
figure.chart figcaption{font-weight:bold;margin-bottom:.3rem;overflow-wrap:anywhere}\
figure.chart svg{display:block;width:100%;height:auto;max-width:56rem}\
.table-wrap{overflow-x:auto;margin:.4rem 0}\
table{border-collapse:collapse;font-size:.9rem}\
th,td{border:1px solid #ddd;padding:.15rem .45rem;text-align:left;vertical-align:top}\
th{background:#f0f0f0}table.rows th{background:none;font-weight:600;white-space:nowrap}\
td{overflow-wrap:anywhere}\
footer{margin-top:2rem;color:#555;font-size:.9rem}\
@media print{body{background:#fff}figure.chart,.finding{break-inside:avoid}}";

/// Text with `` `code` `` spans (fix steps and explanations carry the backticks their
/// authors wrote) as `<code>`; everything escaped. An unpaired backtick stays a backtick.
fn inline(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        // Odd number of backticks: no pairing can be trusted.
        return esc(s);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", esc(p))
            } else {
                esc(p)
            }
        })
        .collect()
}

/// Leading spaces (a nested partition under its slice) as no-break spaces, so they show.
fn keep_indent(s: &str) -> String {
    let rest = s.trim_start_matches(' ');
    let n = s.len() - rest.len();
    format!("{}{}", "\u{a0}".repeat(n), esc(rest))
}

fn table(out: &mut String, headers: &[String], rows: &[Vec<String>]) {
    out.push_str("<div class=\"table-wrap\"><table><thead><tr>");
    for h in headers {
        out.push_str(&format!("<th>{}</th>", esc(h)));
    }
    out.push_str("</tr></thead><tbody>\n");
    for r in rows {
        out.push_str("<tr>");
        for i in 0..headers.len() {
            let c = r.get(i).map(String::as_str).unwrap_or("");
            out.push_str(&format!("<td>{}</td>", keep_indent(c)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}

/// The CSS class of a finding: its severity when it is a problem, else its verdict.
fn class_of(f: &Finding) -> &'static str {
    match f.verdict {
        Verdict::Problem => match f.severity {
            Severity::Critical => "sev-critical",
            Severity::Warning => "sev-warning",
            Severity::Notice => "sev-notice",
            Severity::Info => "sev-info",
        },
        _ => "sev-unknown",
    }
}

/// "device: title", escaped; some checks already start their title with the device ("ad4:
/// write cache disabled"), which is not said twice.
fn titled(f: &Finding) -> String {
    let prefixed = f
        .title
        .strip_prefix(f.device.as_str())
        .is_some_and(|rest| rest.starts_with(':'));
    if prefixed {
        esc(&f.title)
    } else {
        format!("{}: {}", esc(&f.device), esc(&f.title))
    }
}

fn finding(out: &mut String, n: usize, f: &Finding) {
    out.push_str(&format!(
        "<article class=\"finding {}\" id=\"finding-{n}\">\n<h3>{n}. <span class=\"tag\">{}</span>",
        class_of(f),
        esc(verdict_word(f, PASS_TAG))
    ));
    out.push_str(&titled(f));
    out.push_str(&format!(" <code>{}</code></h3>\n", esc(&f.check)));
    for para in f.explanation.split("\n\n").filter(|p| !p.trim().is_empty()) {
        out.push_str(&format!("<p>{}</p>\n", inline(para)));
    }
    if let Some(line) = crate::checks::effect::effect_line(f) {
        out.push_str(&format!("<p class=\"effect\">{}</p>\n", inline(&line)));
    }
    if !f.evidence.is_empty() {
        out.push_str("<h4>Evidence</h4>\n<ul class=\"evidence\">\n");
        for e in &f.evidence {
            out.push_str(&format!(
                "<li><code>{}</code> = {}</li>\n",
                esc(&e.source),
                esc(&e.value)
            ));
        }
        out.push_str("</ul>\n");
    }
    for fix in &f.fixes {
        out.push_str(&format!(
            "<div class=\"fix\"><h4>Fix ({}): {}</h4>\n",
            esc(fix.platform.name()),
            inline(&fix.summary)
        ));
        if !fix.steps.is_empty() {
            out.push_str("<ol>\n");
            for s in &fix.steps {
                out.push_str(&format!("<li>{}</li>\n", inline(s)));
            }
            out.push_str("</ol>\n");
        }
        if !fix.risk.is_empty() {
            out.push_str(&format!(
                "<p class=\"risk\">Risk: {}</p>\n",
                inline(&fix.risk)
            ));
        }
        out.push_str("</div>\n");
    }
    out.push_str("</article>\n");
}

fn blocks(out: &mut String, blocks: &[Block]) {
    for b in blocks {
        match b {
            Block::Heading(level, t) => {
                let h = if *level <= 1 { "h2" } else { "h3" };
                out.push_str(&format!("<{h}>{}</{h}>\n", esc(t)));
            }
            Block::Rows(rows) => {
                if rows.iter().all(|(k, _)| k.is_empty()) {
                    // Raw lines (kernel log): copyable, one per line.
                    out.push_str("<pre>");
                    for (_, v) in rows {
                        out.push_str(&esc(v));
                        out.push('\n');
                    }
                    out.push_str("</pre>\n");
                    continue;
                }
                out.push_str("<div class=\"table-wrap\"><table class=\"rows\"><tbody>\n");
                for (k, v) in rows {
                    out.push_str(&format!(
                        "<tr><th scope=\"row\">{}</th><td>{}</td></tr>\n",
                        esc(k),
                        esc(v)
                    ));
                }
                out.push_str("</tbody></table></div>\n");
            }
            Block::Para(p) => out.push_str(&format!("<p>{}</p>\n", inline(p))),
            Block::Table { headers, rows } => table(out, headers, rows),
            // The text charts: drawn as SVG in the Charts section instead.
            Block::Chart { .. } => {}
        }
    }
}

/// One chart of a report: `kind` names it for the browser test, for readers of the page's
/// source and in the file names Markdown links (`zone`, `block-size`, `latency`, `cdm`,
/// `sustained`); `svg` is `None` when the data held no finite value to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub kind: &'static str,
    pub caption: String,
    pub svg: Option<String>,
}

fn figure(out: &mut Vec<Figure>, kind: &'static str, caption: &str, svg: Option<String>) {
    out.push(Figure {
        kind,
        caption: caption.to_string(),
        svg,
    });
}

/// A figure around one chart, or the sentence that says why there is none.
fn figure_html(out: &mut String, f: &Figure) {
    match &f.svg {
        Some(svg) => {
            out.push_str(&format!(
                "<figure class=\"chart\" data-chart=\"{}\"><figcaption>{}</figcaption>\n{svg}</figure>\n",
                esc(f.kind),
                esc(&f.caption)
            ));
        }
        None => out.push_str(&format!(
            "<p class=\"not-measured\" data-chart=\"{}\">{}: no finite value to draw (see \
             the table under Test results).</p>\n",
            esc(f.kind),
            esc(&f.caption)
        )),
    }
}

fn mb(v: f64) -> f64 {
    v / 1e6
}

/// The disks that have results, in the order their first result was recorded.
fn disks_with(results: &[BenchResult], test: impl Fn(&TestName) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in results.iter().filter(|r| test(&r.test)) {
        if !out.contains(&r.disk) {
            out.push(r.disk.clone());
        }
    }
    out
}

fn disk_name(d: &str) -> &str {
    if d.is_empty() { "?" } else { d }
}

/// The sequential rate across the disk: one point per zone read (or written raw), x = where
/// on the disk (GB from LBA 0, the outer edge of a hard disk's platters), over the disk's
/// whole size when known, so the curve shows how far in the zones lie.
fn zone_charts(r: &Report, out: &mut Vec<Figure>) -> bool {
    let rs = &r.facts.benchmarks;
    let disks = disks_with(rs, |t| matches!(t, TestName::SeqRead | TestName::RawWrite));
    for d in &disks {
        let series: Vec<Series> = [(TestName::SeqRead, "read"), (TestName::RawWrite, "write")]
            .iter()
            .map(|(t, name)| Series {
                name: name.to_string(),
                points: rs
                    .iter()
                    .filter(|x| &x.test == t && &x.disk == d)
                    .map(|x| (x.offset_bytes as f64 / 1e9, mb(x.bytes_per_sec)))
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        let size = r
            .facts
            .disks
            .iter()
            .find(|x| &x.name == d)
            .and_then(|x| x.size_bytes.get());
        let target = rs
            .iter()
            .find(|x| &x.disk == d && x.test == TestName::SeqRead)
            .map(|x| x.target.clone())
            .unwrap_or_default();
        let c = LineChart {
            title: format!("Sequential rate across {}", disk_name(d)),
            x_label: "position on the disk, GB from the start (outer edge first)".into(),
            y_label: "MB/s".into(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            x_ticks: Vec::new(),
            x_extent: size.map(|s| (0.0, s as f64 / 1e9)),
            series,
        };
        let caption = if target.is_empty() {
            format!(
                "Sequential rate across {}, outer to inner (MB/s)",
                disk_name(d)
            )
        } else {
            format!(
                "Sequential rate across {} ({target}), outer to inner (MB/s)",
                disk_name(d)
            )
        };
        figure(out, "zone", &caption, svg::line_chart(&c));
    }
    !disks.is_empty()
}

/// Throughput by block size, O_DIRECT and buffered, on a log axis of sizes.
fn block_size_charts(r: &Report, out: &mut Vec<Figure>) -> bool {
    let rs = &r.facts.benchmarks;
    let disks = disks_with(rs, |t| *t == TestName::BsSweep);
    for d in &disks {
        let mine: Vec<&BenchResult> = rs
            .iter()
            .filter(|x| x.test == TestName::BsSweep && &x.disk == d)
            .collect();
        let series: Vec<Series> = [(true, "O_DIRECT"), (false, "buffered")]
            .iter()
            .map(|(direct, name)| Series {
                name: name.to_string(),
                points: mine
                    .iter()
                    .filter(|x| x.direct == *direct)
                    .map(|x| (x.block_size_bytes as f64, mb(x.bytes_per_sec)))
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        let sizes: BTreeSet<u64> = mine
            .iter()
            .map(|x| x.block_size_bytes)
            .filter(|b| *b > 0)
            .collect();
        let c = LineChart {
            title: format!("Throughput by block size on {}", disk_name(d)),
            x_label: "block size".into(),
            y_label: "MB/s".into(),
            x_scale: Scale::Log,
            y_scale: Scale::Linear,
            x_ticks: sizes
                .iter()
                .map(|b| (*b as f64, units::block_size(*b)))
                .collect(),
            x_extent: None,
            series,
        };
        figure(
            out,
            "block-size",
            &format!(
                "Block-size curve on {}: throughput by request size (MB/s)",
                disk_name(d)
            ),
            svg::line_chart(&c),
        );
    }
    !disks.is_empty()
}

/// Latency percentiles per test: one line per run (qd1, qd32, a zone...), p50 to max, on
/// a log axis of milliseconds (a max can be a thousand times the median).
fn latency_charts(r: &Report, out: &mut Vec<Figure>) -> bool {
    let mut any = false;
    for ((d, test), rs) in view::groups(&r.facts.benchmarks) {
        // The sweep's per-size latencies follow from its sizes, and a curve point is not a
        // test: their tables hold them.
        if matches!(test, TestName::BsSweep | TestName::SustainedWriteCurve) {
            continue;
        }
        let with: Vec<&&BenchResult> = rs.iter().filter(|x| x.latency.is_some()).collect();
        if with.is_empty() {
            continue;
        }
        any = true;
        let series: Vec<Series> = with
            .iter()
            .take(MAX_LATENCY_SERIES)
            .filter_map(|x| {
                let l = x.latency.as_ref()?;
                let ps = [l.p50_ns, l.p90_ns, l.p99_ns, l.p999_ns, l.max_ns];
                Some(Series {
                    name: view::human_label(&x.label),
                    points: ps
                        .iter()
                        .enumerate()
                        .map(|(i, ns)| (i as f64, *ns as f64 / 1e6))
                        .collect(),
                })
            })
            .collect();
        let c = LineChart {
            title: format!("Latency percentiles, {test} on {}", disk_name(&d)),
            x_label: "percentile".into(),
            y_label: "ms".into(),
            x_scale: Scale::Linear,
            y_scale: Scale::Log,
            x_ticks: ["p50", "p90", "p99", "p99.9", "max"]
                .iter()
                .enumerate()
                .map(|(i, s)| (i as f64, s.to_string()))
                .collect(),
            x_extent: None,
            series,
        };
        let more = if with.len() > MAX_LATENCY_SERIES {
            format!(
                "; the first {MAX_LATENCY_SERIES} of {} runs drawn",
                with.len()
            )
        } else {
            String::new()
        };
        figure(
            out,
            "latency",
            &format!(
                "Latency percentiles, {test} on {} (ms, log scale{more})",
                disk_name(&d)
            ),
            svg::line_chart(&c),
        );
    }
    any
}

/// The CrystalDiskMark grid: the preset's tests down, read and write across, MB/s with the
/// IOPS of small-block tests, a bar scaled to the fastest cell.
fn cdm_grids(r: &Report, out: &mut Vec<Figure>) -> bool {
    let rs = &r.facts.benchmarks;
    let is_cdm = |t: &TestName| matches!(t, TestName::CdmRead | TestName::CdmWrite);
    let disks = disks_with(rs, is_cdm);
    for d in &disks {
        let mine: Vec<&BenchResult> = rs
            .iter()
            .filter(|x| is_cdm(&x.test) && &x.disk == d)
            .collect();
        let mut labels: Vec<&str> = Vec::new();
        for x in &mine {
            if !labels.contains(&x.label.as_str()) {
                labels.push(&x.label);
            }
        }
        let cell = |label: &str, test: TestName| {
            mine.iter()
                .find(|x| x.label == label && x.test == test)
                .map(|x| Cell {
                    value: mb(x.bytes_per_sec),
                    // CrystalDiskMark's form: MB/s with two decimals.
                    shown: if x.bytes_per_sec.is_finite() && x.bytes_per_sec >= 0.0 {
                        format!("{:.2}", mb(x.bytes_per_sec))
                    } else {
                        "n/a".into()
                    },
                    note: if x.block_size_bytes < (1 << 20) && x.iops.is_finite() {
                        format!("{:.0} IOPS", x.iops)
                    } else {
                        String::new()
                    },
                })
        };
        let g = Grid {
            title: format!("CrystalDiskMark-style results on {}", disk_name(d)),
            columns: vec!["Read (MB/s)".into(), "Write (MB/s)".into()],
            rows: labels
                .iter()
                .map(|l| GridRow {
                    label: l.to_string(),
                    cells: vec![cell(l, TestName::CdmRead), cell(l, TestName::CdmWrite)],
                })
                .collect(),
        };
        figure(
            out,
            "cdm",
            &format!(
                "CrystalDiskMark-style grid on {} (bench --preset cdm): MB/s",
                disk_name(d)
            ),
            svg::grid(&g),
        );
    }
    !disks.is_empty()
}

/// The sustained write's throughput over the amount written (labels "@ 2.0 GiB").
fn sustained_charts(r: &Report, out: &mut Vec<Figure>) {
    let rs = &r.facts.benchmarks;
    for d in disks_with(rs, |t| *t == TestName::SustainedWriteCurve) {
        let points: Vec<(f64, f64)> = rs
            .iter()
            .filter(|x| x.test == TestName::SustainedWriteCurve && x.disk == d)
            .enumerate()
            .map(|(i, x)| {
                let gib = x
                    .label
                    .trim_start_matches('@')
                    .trim()
                    .trim_end_matches("GiB")
                    .trim()
                    .parse::<f64>()
                    .unwrap_or((i + 1) as f64);
                (gib, mb(x.bytes_per_sec))
            })
            .collect();
        let c = LineChart {
            title: format!("Sustained write on {}", disk_name(&d)),
            x_label: "GiB written".into(),
            y_label: "MB/s".into(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            x_ticks: Vec::new(),
            x_extent: None,
            series: vec![Series {
                name: String::new(),
                points,
            }],
        };
        figure(
            out,
            "sustained",
            &format!(
                "Sustained write on {}: throughput as the cache fills (MB/s)",
                disk_name(&d)
            ),
            svg::line_chart(&c),
        );
    }
}

fn not_measured(out: &mut String, kind: &str, what: &str, how: &str) {
    out.push_str(&format!(
        "<p class=\"not-measured\" data-chart=\"{kind}\">{what}: not measured \
         (<code>{how}</code> measures it).</p>\n"
    ));
}

/// What a chart section says when its tests did not run: its kind, what it is, and the
/// command that measures it.
type Missing = (&'static str, &'static str, &'static str);

/// The report's charts in the page's order, each group with what to say when it is empty.
fn chart_groups(r: &Report) -> Vec<(Vec<Figure>, Option<Missing>)> {
    let mut groups = Vec::new();
    let mut group = |draw: fn(&Report, &mut Vec<Figure>) -> bool, missing: Option<Missing>| {
        let mut figs = Vec::new();
        draw(r, &mut figs);
        groups.push((figs, missing));
    };
    // The grid first: the picture people know from CrystalDiskMark.
    group(
        cdm_grids,
        Some((
            "cdm",
            "CrystalDiskMark-style grid",
            "diskdoc bench --preset cdm",
        )),
    );
    group(
        zone_charts,
        Some((
            "zone",
            "Sequential rate across the disk",
            "diskdoc bench --tests seq",
        )),
    );
    group(
        block_size_charts,
        Some((
            "block-size",
            "Block-size curve",
            "diskdoc bench --tests sweep",
        )),
    );
    group(
        latency_charts,
        Some((
            "latency",
            "Latency percentiles",
            "diskdoc bench --tests rand",
        )),
    );
    group(
        |r, out| {
            sustained_charts(r, out);
            true
        },
        None,
    );
    groups
}

/// Every chart the report's measurements give, in the page's order (the Markdown report
/// written to a file links them as SVG files).
pub fn figures(r: &Report) -> Vec<Figure> {
    chart_groups(r).into_iter().flat_map(|(f, _)| f).collect()
}

fn charts(r: &Report, out: &mut String) {
    out.push_str("<section id=\"charts\">\n<h2>Charts</h2>\n");
    for (figs, missing) in chart_groups(r) {
        match missing {
            Some((kind, what, how)) if figs.is_empty() => not_measured(out, kind, what, how),
            _ => figs.iter().for_each(|f| figure_html(out, f)),
        }
    }
    out.push_str("</section>\n");
}

/// The strings of a JSON array field of the explanation (`missing`, `next_commands`).
fn strings<'a>(v: Option<&'a serde_json::Value>, key: &str) -> Vec<&'a str> {
    v.and_then(|v| v.get(key))
        .and_then(serde_json::Value::as_array)
        .map(|a| a.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default()
}

/// explain: what the paste did not tell and the commands to ask the poster for.
fn ask_for(r: &Report, out: &mut String) {
    let missing = strings(r.explanation.as_ref(), "missing");
    let commands = strings(r.explanation.as_ref(), "next_commands");
    if missing.is_empty() && commands.is_empty() {
        return;
    }
    out.push_str("<section id=\"ask\">\n<h2>What to ask for</h2>\n");
    if !missing.is_empty() {
        out.push_str("<p>Not known from the text:</p>\n<ul>\n");
        for m in missing {
            out.push_str(&format!("<li>{}</li>\n", inline(m)));
        }
        out.push_str("</ul>\n");
    }
    if !commands.is_empty() {
        out.push_str("<p>The output of these commands would tell:</p>\n<pre><code>");
        for c in commands {
            out.push_str(&esc(c));
            out.push('\n');
        }
        out.push_str("</code></pre>\n");
    }
    out.push_str("</section>\n");
}

/// Raw outputs the findings cite, so a reader can check the reading (collapsed).
fn raw_outputs(r: &Report, out: &mut String) {
    let Some(raw) = view::raw_outputs(r).filter(|v| !v.is_empty()) else {
        return;
    };
    out.push_str("<section id=\"raw\">\n<h2>Raw outputs cited</h2>\n");
    for (key, body) in raw {
        out.push_str(&format!(
            "<details><summary><code>{}</code></summary>\n<pre>{}</pre>\n</details>\n",
            esc(key),
            esc(&body)
        ));
    }
    out.push_str("</section>\n");
}

fn head(out: &mut String, title: &str) {
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; img-src data:\"/>\n",
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n");
    out.push_str("<meta name=\"generator\" content=\"diskdoc\"/>\n");
    out.push_str(&format!("<title>{}</title>\n", esc(title)));
    out.push_str(&format!(
        "<style>{STYLE}</style>\n</head>\n<body>\n<main>\n"
    ));
}

/// The page's text with the five character references [`crate::sanitize::for_html`]
/// writes turned back into characters: what a reader of the page sees, so the final check
/// for leaked secrets reads that too (`O&#39;Brien` is `O'Brien` on the screen).
pub fn decoded(page: &str) -> String {
    page.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// What the final check reads of a page: the text between tags and every quoted attribute
/// value (an alt text, a title, a data: image), without the page's own markup: tag and
/// attribute names and the fixed style sheet, whose words ("main", "header", "table",
/// "code") are the page's, not anyone's pool, host or label name. A ZFS pool named "main"
/// (a TrueNAS forum post of batch 22) otherwise stopped every page at `<main>`.
fn checked_view(page: &str) -> String {
    let page = page.replacen(&format!("<style>{STYLE}</style>"), "", 1);
    let mut out = String::with_capacity(page.len());
    let mut rest = page.as_str();
    while let Some(i) = rest.find('<') {
        out.push_str(rest.get(..i).unwrap_or(""));
        let tag = rest.get(i..).unwrap_or("");
        let end = tag.find('>').map_or(tag.len(), |e| e + 1);
        for (k, v) in tag.get(..end).unwrap_or("").split('"').enumerate() {
            if k % 2 == 1 {
                out.push(' ');
                out.push_str(v);
            }
        }
        out.push(' ');
        rest = tag.get(end..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Render the shared (redacted unless --no-redact) report as a page, after the final
/// check for leaked secrets on what the page shows and holds ([`checked_view`]), raw and
/// with its character references decoded.
pub fn render_shared(shared: &Shared) -> Result<String, Leak> {
    let page = render(&shared.report);
    let view = checked_view(&page);
    shared.check(decoded(&view))?;
    shared.check(view)?;
    Ok(page)
}

/// Render the report as one HTML page.
pub fn render(r: &Report) -> String {
    let title = format!(
        "diskdoc {} report, {}",
        env!("CARGO_PKG_VERSION"),
        r.facts.platform.name()
    );
    let mut out = String::new();
    head(&mut out, &title);
    out.push_str(&format!("<header>\n<h1>{}</h1>\n", esc(&title)));
    let summary_report = r.summary();
    if summary_report.is_none() {
        out.push_str(&format!(
            "<p><strong>Findings:</strong> {}</p>\n",
            esc(&report_summary(r))
        ));
    }
    out.push_str(&format!(
        "<p><strong>Exit status:</strong> {}. {}</p>\n",
        r.exit_status,
        if r.redacted {
            "Serial numbers, WWNs, host names, user names, MAC addresses, labels and UUIDs \
             are replaced by tokens (SERIAL-1, HOST-1...)."
        } else {
            "Not redacted: serial numbers, host and user names, labels and UUIDs are shown \
             as found."
        }
    ));
    if let Some(sym) = &r.symptom {
        out.push_str(&format!(
            "<p><strong>What feels slow:</strong> {}</p>\n",
            esc(sym)
        ));
    }
    if !r.pasted.is_empty() {
        let labels: Vec<String> = r.pasted.iter().map(|p| esc(&p.label)).collect();
        out.push_str(&format!(
            "<p><strong>Read from:</strong> {}</p>\n",
            labels.join(", ")
        ));
    }
    for m in &r.messages {
        let (class, word) = match m.severity {
            MessageSeverity::Information => ("note", "Note"),
            MessageSeverity::Warning => ("note", "Warning"),
            MessageSeverity::Error => ("note error", "Error"),
        };
        out.push_str(&format!(
            "<p class=\"{class}\"><strong>{word}:</strong> {}</p>\n",
            esc(&m.text)
        ));
    }
    out.push_str("</header>\n");

    if let Some(s) = summary_report {
        // A fleet summary has no disk of its own: its table is the report.
        out.push_str(&format!(
            "<section id=\"summary\">\n<h2>Summary</h2>\n<pre>{}</pre>\n</section>\n",
            esc(&summarize::render_text(&s, &[]))
        ));
        footer(&mut out);
        return out;
    }
    if let Some(c) = r.comparison() {
        out.push_str(&format!(
            "<section id=\"comparison\">\n<h2>Comparison</h2>\n<pre>{}</pre>\n</section>\n",
            esc(&compare::render_text(&c))
        ));
    }

    out.push_str("<section id=\"findings\">\n<h2>Findings (problems first)</h2>\n");
    let (shown, passes) = view::shown_and_passed(r);
    if shown.is_empty() {
        out.push_str("<p>No problems and no unknowns.</p>\n");
    }
    for (i, f) in shown.iter().enumerate() {
        finding(&mut out, i + 1, f);
    }
    if !passes.is_empty() {
        out.push_str("<h3>Passed</h3>\n<ul class=\"passed\">\n");
        for f in passes {
            out.push_str(&format!(
                "<li>{} <code>{}</code></li>\n",
                titled(f),
                esc(&f.check)
            ));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
    ask_for(r, &mut out);
    charts(r, &mut out);
    out.push_str("<section id=\"details\">\n");
    blocks(&mut out, &view::blocks(r));
    out.push_str("</section>\n");
    raw_outputs(r, &mut out);
    footer(&mut out);
    out
}

fn footer(out: &mut String) {
    out.push_str(&format!(
        "<footer><p>Generated by diskdoc {}. Sizes in SI units (MB = 10^6 bytes) unless \
         marked KiB/MiB/GiB; throughput in MB/s. The JSON report replays with \
         <code>diskdoc replay report.json</code>.</p></footer>\n</main>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    ));
}

#[cfg(test)]
mod tests;
