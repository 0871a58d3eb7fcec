//! The HTML report (`--format html`) through the binary: every fixture bundle replays to a
//! well-formed page with no script and nothing fetched, listing the findings the JSON lists;
//! a bench report with every kind of result (tests/fixtures/bench-report) has every chart;
//! strings from a paste or a result label are escaped; redaction holds; every command that
//! takes --format takes html. tests/web/report-html.js draws the pages in Chromium.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::{SupportError, malformed};

const BIN: &str = env!("CARGO_BIN_EXE_diskdoc");

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run diskdoc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Elements HTML defines as void (no content, no end tag); diskdoc closes them `<x/>`.
const VOID: [&str; 6] = ["meta", "br", "img", "input", "link", "hr"];

/// Parse `html` as diskdoc writes it (well-formed XML syntax with an HTML doctype): every
/// tag closed in order, every void element self-closed, attribute values quoted, no bare
/// `<` or `&` in text. Err names the first problem and where.
fn well_formed(html: &str) -> Result<(), SupportError> {
    let b = html.as_bytes();
    let mut stack: Vec<String> = Vec::new();
    let mut i = 0;
    let at = |i: usize| {
        let start = i.saturating_sub(40);
        html.get(start..(i + 40).min(html.len()))
            .unwrap_or("")
            .to_string()
    };
    while i < b.len() {
        match b[i] {
            b'&' => {
                let rest = &html[i..];
                let end = rest
                    .find(';')
                    .ok_or_else(|| malformed!("bare & at {}", at(i)))?;
                let ent = &rest[1..end];
                let ok = ["amp", "lt", "gt", "quot", "#39"].contains(&ent)
                    || (ent.starts_with('#') && ent[1..].chars().all(|c| c.is_ascii_digit()));
                if !ok || end > 8 {
                    return Err(malformed!("unknown reference &{ent}; at {}", at(i)));
                }
                i += end + 1;
            }
            b'<' => {
                let rest = &html[i..];
                if rest.starts_with("<!DOCTYPE html>") {
                    i += "<!DOCTYPE html>".len();
                    continue;
                }
                let end = rest
                    .find('>')
                    .ok_or_else(|| malformed!("unclosed tag at {}", at(i)))?;
                let tag = &rest[1..end];
                if tag.contains('<') {
                    return Err(malformed!("< inside a tag at {}", at(i)));
                }
                if let Some(name) = tag.strip_prefix('/') {
                    let open = stack
                        .pop()
                        .ok_or_else(|| malformed!("</{name}> closes nothing"))?;
                    if open != name {
                        return Err(malformed!("</{name}> closes <{open}> at {}", at(i)));
                    }
                } else {
                    let name: String = tag
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric())
                        .collect();
                    if name.is_empty() {
                        return Err(malformed!("bare < at {}", at(i)));
                    }
                    // Attributes: name="value" pairs, values without a quote inside.
                    let attrs = tag[name.len()..].trim_end_matches('/').trim();
                    let mut a = attrs;
                    while !a.is_empty() {
                        let (key, after) = a
                            .split_once("=\"")
                            .ok_or_else(|| malformed!("unquoted attribute at {}", at(i)))?;
                        if key.trim().is_empty() || key.trim().contains(' ') {
                            return Err(malformed!("bad attribute {key:?} at {}", at(i)));
                        }
                        let (_, next) = after
                            .split_once('"')
                            .ok_or_else(|| malformed!("unterminated value at {}", at(i)))?;
                        a = next.trim_start();
                    }
                    let lower = name.to_ascii_lowercase();
                    if tag.ends_with('/') {
                        // Self-closed.
                    } else if VOID.contains(&lower.as_str()) {
                        return Err(malformed!("<{name}> not self-closed at {}", at(i)));
                    } else {
                        stack.push(name);
                    }
                }
                i += end + 1;
            }
            _ => i += 1,
        }
    }
    if !stack.is_empty() {
        return Err(malformed!("unclosed at the end: {stack:?}"));
    }
    Ok(())
}

/// What no page may hold: a script, an event handler, or a reference to anything outside
/// the file (the SVG namespace name is a name, not a fetch).
fn self_contained(html: &str) -> Result<(), SupportError> {
    let lower = html.to_ascii_lowercase();
    for bad in [
        "<script",
        "javascript:",
        " onload=",
        " onerror=",
        " src=",
        " href=",
        "url(",
        "@import",
        "<link",
        "<iframe",
        "<object",
        "<embed",
        "nan",
    ] {
        // "nan" only as an SVG number: never inside an attribute value.
        if bad == "nan" {
            if lower.contains("=\"nan") || lower.contains(",nan") {
                return Err(malformed!("NaN in the SVG"));
            }
            continue;
        }
        if lower.contains(bad) {
            return Err(malformed!("the page holds {bad:?}"));
        }
    }
    let without_ns = lower.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    if without_ns.contains("http://") || without_ns.contains("https://") {
        // Text may mention a URL (a fix's link); it is then text, never an attribute.
        if let Some(i) = without_ns.find("=\"http") {
            return Err(malformed!("a URL in an attribute at {i}"));
        }
    }
    if !html.contains("Content-Security-Policy\" content=\"default-src 'none'") {
        return Err(malformed!("no Content-Security-Policy"));
    }
    Ok(())
}

fn check_page(name: &str, html: &str) {
    assert!(
        html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"),
        "{name}"
    );
    assert!(html.ends_with("</html>\n"), "{name}");
    if let Err(e) = well_formed(html) {
        panic!("{name}: not well-formed: {e}");
    }
    if let Err(e) = self_contained(html) {
        panic!("{name}: {e}");
    }
}

const BENCH: &str = "tests/fixtures/bench-report/loop-all-and-cdm.json";

/// The bench fixture with one result's label (`rand-read qd32`, drawn in a latency
/// chart's legend) made a script tag, written to `dir`.
fn hostile_bench(dir: &Path) -> PathBuf {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(manifest(BENCH)).unwrap_or_default())
            .expect("fixture JSON");
    for r in v["evidence"]["benchmarks"]
        .as_array_mut()
        .into_iter()
        .flatten()
    {
        if r["test"] == "rand-read" && r["label"] == "qd32" {
            r["label"] = "<script>x</script>".into();
        }
    }
    let p = dir.join("evil-bench.json");
    std::fs::write(&p, v.to_string()).expect("write");
    p
}

#[test]
fn the_checker_catches_broken_pages() {
    assert!(well_formed("<p>a</p><br/>").is_ok());
    assert!(well_formed("<p>a").is_err());
    assert!(well_formed("<p><b>a</p></b>").is_err());
    assert!(well_formed("<br>").is_err());
    assert!(well_formed("<p>1 < 2</p>").is_err());
    assert!(well_formed("<p>R&D</p>").is_err());
    assert!(well_formed("<p class=x>a</p>").is_err());
    assert!(self_contained("<script>x</script>").is_err());
    assert!(self_contained("<img src=\"http://x\"/>").is_err());
}

/// Every fixture bundle (the ones the other replay tests use) replays to a well-formed,
/// self-contained page that lists exactly the problems and unknowns of the JSON replay,
/// and says "not measured" for each chart (no bundle holds results).
#[test]
fn every_fixture_bundle_replays_to_a_well_formed_page() {
    let bundles = crate::support::fixture_bundles();
    assert!(bundles.len() >= 10, "{bundles:?}");
    for b in &bundles {
        let name = b
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let p = b.to_str().unwrap_or("");
        let (code, html, err) = run(&["replay", p, "--format", "html"]);
        assert!(code == 0 || code == 1, "{name}: {err}");
        check_page(&name, &html);
        let (jcode, json, err) = run(&["replay", p, "--format", "json"]);
        assert_eq!(code, jcode, "{name}: one exit status: {err}");
        let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let listed = v["findings"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|f| f["verdict"] == "problem" || f["verdict"] == "unknown")
                    .count()
            })
            .unwrap_or(0);
        assert_eq!(
            html.matches("<article class=\"finding").count(),
            listed,
            "{name}: the page lists the JSON's problems and unknowns"
        );
        for c in v["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["verdict"] == "problem")
        {
            let check = c["check"].as_str().unwrap_or("");
            assert!(
                html.contains(&format!("<code>{check}</code></h3>")),
                "{name}: {check}"
            );
        }
        assert_eq!(html.matches("not measured").count(), 4, "{name}");
        assert!(!html.contains("<svg"), "{name}: no results, no chart");
    }
}

/// A bench report with results: the zone curve, the block-size curve, latency percentiles
/// per test and the CrystalDiskMark grid, each an SVG with its points.
#[test]
fn a_bench_report_with_results_has_every_chart() {
    let (code, html, err) = run(&[
        "replay",
        manifest(BENCH).to_str().unwrap_or(""),
        "--format",
        "html",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    check_page("bench report", &html);
    assert!(!html.contains("not measured"), "every chart has its data");
    let figure = |kind: &str| -> Vec<&str> {
        html.split(&format!("<figure class=\"chart\" data-chart=\"{kind}\">"))
            .skip(1)
            .map(|s| s.split("</figure>").next().unwrap_or(""))
            .collect()
    };
    let zone = figure("zone");
    assert_eq!(zone.len(), 1);
    assert_eq!(
        zone[0].matches("<circle").count(),
        3,
        "outer, middle, inner"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(manifest(BENCH)).unwrap_or_default())
            .expect("fixture JSON");
    let results: Vec<&serde_json::Value> =
        v["benchmarks"].as_array().into_iter().flatten().collect();
    let sweep = figure("block-size");
    assert_eq!(sweep.len(), 1);
    // Every size of the sweep (512 B .. 4 MiB on this 512-byte-sector loop device: 14),
    // O_DIRECT and buffered, a line each.
    let swept = results.iter().filter(|r| r["test"] == "bs-sweep").count();
    assert_eq!(swept, 28);
    assert_eq!(sweep[0].matches("<circle").count(), swept);
    assert_eq!(sweep[0].matches("<polyline").count(), 2);
    assert!(
        sweep[0].contains(">512 B<") && sweep[0].contains(">2 MiB<"),
        "{}",
        sweep[0]
    );
    let latency = figure("latency");
    // seq-read, rand-read, seq-write, sync-write, cdm-read, cdm-write.
    assert_eq!(latency.len(), 6, "{html}");
    assert!(
        latency.iter().any(|l| l.contains(">qd32<")),
        "rand-read's runs named"
    );
    for l in &latency {
        assert!(l.matches("<circle").count() >= 5, "five percentiles: {l}");
    }
    let cdm = figure("cdm");
    assert_eq!(cdm.len(), 1);
    for row in ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"] {
        assert!(cdm[0].contains(&format!(">{row}<")), "{row}: {}", cdm[0]);
    }
    assert!(cdm[0].contains(">Read (MB/s)<") && cdm[0].contains(">Write (MB/s)<"));
    // Eight cells with a value and its bar; the IOPS under the 4 KiB rows.
    assert_eq!(cdm[0].matches("fill=\"#43a047\"").count(), 8, "{}", cdm[0]);
    assert_eq!(cdm[0].matches(" IOPS<").count(), 4, "{}", cdm[0]);
    // The values are the report's own: SEQ1M Q8T1 read, in MB/s with two decimals.
    let seq = results
        .iter()
        .find(|r| r["test"] == "cdm-read" && r["label"] == "SEQ1M Q8T1")
        .and_then(|r| r["bytes_per_sec"].as_f64())
        .expect("SEQ1M Q8T1 read");
    assert!(
        cdm[0].contains(&format!(">{:.2}<", seq / 1e6)),
        "{}",
        cdm[0]
    );
}

/// A model name and a paste label with markup, and a result label with markup: shown as
/// text, never as elements, whatever the redaction.
#[test]
fn hostile_strings_from_pastes_and_results_are_escaped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let smart = std::fs::read_to_string(manifest(
        "tests/fixtures/corpus-reviewed/fixtures/linux/smartctl/x-sas-hgst-8tb-truenas-writeback-cache-disabled-pi-type1-cmd-echo.txt",
    ))
    .expect("smartctl fixture");
    let evil_model = "<script>alert('model')</script>";
    let pasted = smart
        .lines()
        .map(|l| {
            if l.starts_with("Product:") {
                format!("Product:              {evil_model}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        pasted.contains(evil_model),
        "the fixture has a Product: line"
    );
    let file = dir.path().join("\"><script>alert('label')<.txt");
    std::fs::write(&file, &pasted).expect("write paste");
    for extra in [&[][..], &["--no-redact"][..]] {
        let mut args = vec!["explain", file.to_str().unwrap_or(""), "--format", "html"];
        args.extend_from_slice(extra);
        let (code, html, err) = run(&args);
        assert!(code == 0 || code == 1, "{err}");
        check_page("explain", &html);
        assert!(!html.to_ascii_lowercase().contains("<script"), "{html}");
        assert!(
            html.contains("&quot;&gt;&lt;script&gt;alert(&#39;label&#39;)&lt;.txt"),
            "the label, escaped: {html}"
        );
        assert!(
            html.contains("&lt;script&gt;alert(&#39;model&#39;)&lt;/script&gt;"),
            "the model, escaped: {html}"
        );
        // The findings and the commands to ask for, as the text answer has them.
        assert!(
            html.contains("<code>write-cache-disabled</code></h3>"),
            "{html}"
        );
    }
    // A result label in a chart legend.
    let p = hostile_bench(dir.path());
    let (code, html, err) = run(&["replay", p.to_str().unwrap_or(""), "--format", "html"]);
    assert!(code == 0 || code == 1, "{err}");
    check_page("evil bench", &html);
    assert!(
        html.contains(">&lt;script&gt;x&lt;/script&gt;<"),
        "the legend, escaped"
    );
}

/// The page is made from the same redacted report as every other output: the serial the
/// unredacted JSON shows is absent by default and present with --no-redact.
#[test]
fn the_page_is_redacted_unless_no_redact() {
    let b = manifest("tests/fixtures/bundles/linux-ahci-sata-ssd.json");
    let b = b.to_str().unwrap_or("");
    let (_, json, _) = run(&["replay", b, "--json", "--no-redact"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let serial = v["system"]["disks"][0]["serial"]["value"]
        .as_str()
        .or_else(|| v["system"]["disks"][0]["serial"].as_str())
        .map(str::to_string);
    let serial = serial.unwrap_or_else(|| {
        // Where the envelope files it: search the facts for the key.
        json.split("\"serial\"")
            .nth(1)
            .and_then(|r| r.split('"').nth(3))
            .unwrap_or_default()
            .to_string()
    });
    assert!(serial.len() >= 4, "a serial in the fixture: {serial:?}");
    let (_, red, _) = run(&["replay", b, "--format", "html"]);
    let (_, raw, _) = run(&["replay", b, "--format", "html", "--no-redact"]);
    assert!(!red.contains(&serial), "redacted page holds {serial}");
    assert!(red.contains("SERIAL-1"), "the token instead");
    assert!(raw.contains(&serial), "--no-redact shows {serial}");
    assert!(raw.contains("Not redacted"));
}

/// One flag, one meaning: every command that takes --format takes html (the commands that
/// read files here; check, scan and bench on a device in the device tests).
#[test]
fn every_reporting_command_takes_html() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bundles = crate::support::fixture_bundles();
    let (a, b) = (
        bundles[0].to_str().unwrap_or(""),
        bundles[0].to_str().unwrap_or(""),
    );
    let out = dir.path().join("report.html");
    let seed = manifest("tests/fixtures/seeds/000_8e1bfe3e625b3ba9.txt");
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("compare", vec!["compare", a, b, "--format", "html"]),
        (
            "summarize",
            vec!["summarize", "tests/fixtures/bundles", "--format", "html"],
        ),
        (
            "explain",
            vec!["explain", seed.to_str().unwrap_or(""), "--format", "html"],
        ),
        (
            "replay --output",
            vec![
                "replay",
                a,
                "--format",
                "html",
                "--output",
                out.to_str().unwrap_or(""),
            ],
        ),
    ];
    for (name, args) in cases {
        let o = Command::new(BIN)
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .output()
            .expect("run");
        let code = o.status.code().unwrap_or(-1);
        assert!(
            code == 0 || code == 1,
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let html = if name == "replay --output" {
            assert!(o.stdout.is_empty());
            std::fs::read_to_string(&out).expect("the file")
        } else {
            String::from_utf8_lossy(&o.stdout).into_owned()
        };
        check_page(name, &html);
        match name {
            "compare" => assert!(html.contains("<section id=\"comparison\">"), "{html}"),
            "summarize" => assert!(html.contains("<section id=\"summary\">"), "{html}"),
            "explain" => assert!(html.contains("<section id=\"findings\">"), "{html}"),
            _ => {}
        }
    }
    // A format a command lacks is still a usage error naming the ones it has.
    let (code, _, err) = run(&["--list-checks", "--format", "html"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("text, json"), "{err}");
}

/// The chart files a Markdown report links (`![caption](file)` in its Charts section).
fn chart_links(md: &str) -> Vec<String> {
    md.split("\n## Charts\n")
        .nth(1)
        .unwrap_or("")
        .lines()
        .filter_map(|l| l.strip_prefix("![")?.split("](").nth(1)?.strip_suffix(')'))
        .map(str::to_string)
        .collect()
}

/// `--format markdown --output FILE` writes the page's charts as SVG files beside FILE and
/// links each from a Charts section: as many as the page draws, each a well-formed SVG
/// with nothing to fetch, escaped like the page; printed Markdown (no file to put charts
/// beside) and a report without measurements link none.
#[test]
fn markdown_written_to_a_file_links_every_chart_as_an_svg_beside_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = hostile_bench(dir.path());
    let input = input.to_str().unwrap_or("");
    let md_path = dir.path().join("my report (disk 1).md");
    let (code, out, err) = run(&[
        "replay",
        input,
        "--format",
        "markdown",
        "--output",
        md_path.to_str().unwrap_or(""),
    ]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(out.is_empty(), "written to the file, not printed: {out}");
    let md = std::fs::read_to_string(&md_path).expect("the Markdown file");
    let links = chart_links(&md);
    let (_, html, _) = run(&["replay", input, "--format", "html"]);
    let drawn = html.matches("<figure class=\"chart\"").count();
    assert!(drawn >= 9, "the fixture draws every kind of chart: {drawn}");
    assert_eq!(
        links.len(),
        drawn,
        "one link per chart the page draws: {md}"
    );
    for kind in ["cdm", "zone", "block-size", "latency"] {
        assert!(
            links.iter().any(|l| l.ends_with(&format!("-{kind}.svg"))),
            "a {kind} chart: {links:?}"
        );
    }
    for name in &links {
        // A link destination CommonMark reads without <...> or escapes.
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)),
            "{name}"
        );
        assert!(name.starts_with("my_report__disk_1_-"), "{name}");
        let svg = std::fs::read_to_string(dir.path().join(name)).expect("the linked file");
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{name}: {svg}"
        );
        assert!(svg.trim_end().ends_with("</svg>"), "{name}");
        if let Err(e) = well_formed(&svg) {
            panic!("{name}: not well-formed: {e}");
        }
        let lower = svg.to_ascii_lowercase();
        for bad in ["<script", " href=", " src=", "url(", "javascript:"] {
            assert!(!lower.contains(bad), "{name} holds {bad}");
        }
    }
    let legends: String = links
        .iter()
        .map(|n| std::fs::read_to_string(dir.path().join(n)).unwrap_or_default())
        .collect();
    assert!(
        legends.contains(">&lt;script&gt;x&lt;/sc"),
        "the hostile label, escaped in a legend (cut to the legend's width)"
    );
    // Printed Markdown has nowhere to put files; a bundle without measurements has no chart.
    let (_, printed, _) = run(&["replay", input, "--format", "markdown"]);
    assert!(!printed.contains("## Charts"), "{printed}");
    let plain = dir.path().join("plain.md");
    let b = manifest("tests/fixtures/bundles/linux-ahci-sata-ssd.json");
    let (code, _, err) = run(&[
        "replay",
        b.to_str().unwrap_or(""),
        "--format",
        "markdown",
        "--output",
        plain.to_str().unwrap_or(""),
    ]);
    assert!(code == 0 || code == 1, "{err}");
    let md = std::fs::read_to_string(&plain).expect("written");
    assert!(!md.contains("## Charts"), "{md}");
    let svgs = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("plain"))
        .count();
    assert_eq!(svgs, 1, "only plain.md itself");
}
