//! Predictions against real before/after cases (tests/fixtures/effects, README there): each
//! case's "before" outputs go through `diskdoc explain`; where the finding of the case's check
//! carries an expected effect on the case's metric, the range must hold the "after" figure
//! the poster measured. Prints the hit table by kind of fix; fails when fewer than 80 % of
//! the predictions made hold, or when no prediction is made at all.
//!
//! Ignored for now, visibly: on the 37 cases no prediction is made yet (most posts give
//! summary figures, not the link speeds, device class or read figure the models in
//! checks/effect.rs need), so it would fail on "no case got a prediction". Run it with
//! `cargo test --release --test it effects -- --ignored --nocapture` for the table.

use std::path::Path;

use diskdoc_core::explain::{Input, explain};

struct Case {
    file: String,
    fix: String,
    check: String,
    metric: String,
    after_mbps: Option<f64>,
    before: String,
}

/// The first figure of a rate in `s`, as MB/s: "76 MB/s", "388 MiB/sec", "75369073
/// bytes/sec", "1.2 GB/s".
fn rate_mbps(s: &str) -> Option<f64> {
    let re =
        regex::Regex::new(r"(?i)([0-9]+(?:\.[0-9]+)?)\s*(bytes/sec|[KMG]i?B/s(?:ec)?)").ok()?;
    let c = re.captures(s)?;
    let v: f64 = c.get(1)?.as_str().parse().ok()?;
    let unit = c.get(2)?.as_str().to_ascii_lowercase();
    let f = if unit.starts_with("bytes") {
        1e-6
    } else if unit.starts_with("kib") {
        1024.0 / 1e6
    } else if unit.starts_with("kb") {
        1e-3
    } else if unit.starts_with("mib") {
        1.048_576
    } else if unit.starts_with("gib") {
        1_073.741_824
    } else if unit.starts_with("gb") {
        1000.0
    } else {
        1.0
    };
    Some(v * f)
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/effects");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/effects")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    for p in files {
        let text = std::fs::read_to_string(&p).expect("read case");
        let (head, body) = text.split_once("\n---\n").expect("a header and ---");
        let field = |k: &str| {
            head.lines()
                .find_map(|l| l.strip_prefix(&format!("# {k}:")))
                .map(|v| v.trim().to_string())
                .unwrap_or_default()
        };
        out.push(Case {
            file: p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            fix: field("fix"),
            check: field("check"),
            metric: field("metric"),
            after_mbps: rate_mbps(&field("after")),
            before: body.to_string(),
        });
    }
    out
}

#[test]
#[ignore = "scorer: no case of tests/fixtures/effects gets a prediction yet (summary figures, not the facts the models need); run with --ignored for the table"]
fn predicted_ranges_hold_the_measured_after_figures() {
    let cases = cases();
    assert!(cases.len() >= 30, "only {} cases", cases.len());
    let mut rows = Vec::new();
    let (mut made, mut held) = (0, 0);
    for c in &cases {
        let e = explain(&[Input {
            label: c.file.clone(),
            bytes: c.before.clone().into_bytes(),
        }]);
        let Ok(e) = e else {
            rows.push(format!("{:<60} {:<20} not recognised", c.file, c.fix));
            continue;
        };
        let want = if c.metric.starts_with("seq-read") {
            Some("seq_read_mbps")
        } else if c.metric.starts_with("seq-write") {
            Some("seq_write_mbps")
        } else {
            None
        };
        let effect = e
            .findings
            .iter()
            .filter(|f| f.check == c.check)
            .filter_map(|f| f.expected_effect.as_ref())
            .find(|x| {
                serde_json::to_value(x.metric)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .as_deref()
                    == want
            });
        match (effect, c.after_mbps) {
            (Some(x), Some(after)) => {
                made += 1;
                let ok = x.low.is_none_or(|l| after >= l * 0.999) && after <= x.high * 1.001;
                held += usize::from(ok);
                rows.push(format!(
                    "{:<60} {:<20} predicted {}-{:.0}, after {after:.1}: {}",
                    c.file,
                    c.fix,
                    x.low.map_or("?".to_string(), |l| format!("{l:.0}")),
                    x.high,
                    if ok { "held" } else { "MISSED" }
                ));
            }
            (Some(_), None) => rows.push(format!(
                "{:<60} {:<20} predicted; after figure not a rate",
                c.file, c.fix
            )),
            (None, _) => rows.push(format!("{:<60} {:<20} no prediction", c.file, c.fix)),
        }
    }
    for r in &rows {
        eprintln!("effects: {r}");
    }
    eprintln!(
        "effects: {made} predictions over {} cases, {held} held",
        cases.len()
    );
    assert!(made >= 1, "no case got a prediction");
    assert!(
        held * 100 >= made * 80,
        "only {held} of {made} predicted ranges hold the after figure"
    );
}
