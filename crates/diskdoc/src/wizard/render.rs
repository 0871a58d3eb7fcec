//! Pure rendering of the wizard's screens: strings in, strings out, so transcripts can be
//! snapshot-tested. Colours are added by the terminal theme, never here. A finding is
//! rendered by diskdoc_core::render (the styles below); this file lays out the screen.

use std::path::Path;

use crate::wizard::machine::TestGroup;
use crate::wizard::sanitize::{policy, sanitize};
use diskdoc_core::checks::{self, Finding, Verdict};
use diskdoc_core::evidence::Platform;
use diskdoc_core::facts::{DeviceClass, DiskFacts, SystemFacts, UserBenchmark};
use diskdoc_core::render::{self, Evidence, Fixes, Headline, TextStyle};
use diskdoc_core::sources::{ask_bare, spec::Ask};
use diskdoc_core::units::wrap_words;
use diskdoc_sys::bench::BenchResult;

pub fn welcome(root: bool, platform: Platform) -> String {
    let mut s = String::from(
        "diskdoc: why is my disk slow?\n\n\
         diskdoc looks at one disk step by step: the controller and how it drives\n\
         the disk, its link (SATA or PCIe), the write cache, command queueing, the\n\
         drive's health and temperature, partition alignment and the layers on top\n\
         (encryption, LVM, RAID, ZFS).\n\
         Then, if you agree, it measures the disk with read tests (always\n\
         read-only) and write tests (only to a scratch file you approve, removed\n\
         afterwards). Nothing is written without asking.\n",
    );
    if root {
        s.push_str("\nRunning as root: diskdoc can read everything it needs.\n");
    } else {
        let miss = match platform {
            Platform::Freebsd => {
                format!("{}, raw device reads and tests", ask_bare(Ask::CamIdentify))
            }
            _ => format!(
                "SMART data ({}), the partition table bytes, raw device reads and tests",
                ask_bare(Ask::SmartProgram)
            ),
        };
        // Broken between words like the paragraph above (the list of what is missed made
        // this line 101 columns, wrapped mid-word by an 80- or 100-column terminal).
        let para = format!(
            "Not running as root: diskdoc will miss {miss}; those facts show as \"unknown\". \
             Run it with sudo (or doas) for a complete answer."
        );
        s.push('\n');
        for l in wrap_words(&para, "", 0, 72, false) {
            s.push_str(&l);
            s.push('\n');
        }
    }
    s.push_str("Press Ctrl-C at any time to stop; nothing is left behind.");
    s
}

pub fn pasted_summary(b: &[UserBenchmark], _ascii: bool) -> String {
    if b.is_empty() {
        return "diskdoc could not read a dd/cp/fio command or a speed from that; it is kept \
                out of the diagnosis."
            .to_string();
    }
    let mut s = String::from("Understood:");
    for u in b {
        // hdparm(8) prints MB/sec in units of 2^20 bytes (hdparm.c: / (1024 * 1024)): say so,
        // with the decimal MB/s every other figure here is in.
        let mib = u.tool.starts_with("hdparm");
        let speed = u
            .bytes_per_sec
            .map(|v| {
                if mib {
                    format!(
                        "{:.2} MiB/s (hdparm's \"MB\") = {:.1} MB/s",
                        v / 1048576.0,
                        v / 1e6
                    )
                } else {
                    format!("{:.1} MB/s", v / 1e6)
                }
            })
            .unwrap_or_else(|| "no speed".into());
        let bs = u
            .block_size_bytes
            .map(|v| format!(", bs={v} bytes"))
            .unwrap_or_default();
        // A reading tool has no output file: no "to ?".
        let to = u
            .output
            .as_deref()
            .map(|o| format!(" to {o}"))
            .unwrap_or_default();
        s.push_str(&format!(
            "\n  {} from {}{to}{bs}: {speed}",
            u.tool,
            u.input.as_deref().unwrap_or("?"),
        ));
    }
    s
}

/// Disks worth offering: whole disks first (not partitions, which are not in `disks`),
/// then loop/zram/dm/md devices that are set up (size > 0).
pub fn candidate_disks(sys: &SystemFacts) -> Vec<String> {
    let mut v: Vec<&DiskFacts> = sys
        .disks
        .iter()
        .filter(|d| d.size_bytes.get() != Some(0))
        .collect();
    let rank = |d: &DiskFacts| match d.class.get() {
        Some(DeviceClass::Hdd) | Some(DeviceClass::Ssd) | Some(DeviceClass::Nvme) => 0,
        Some(DeviceClass::Usb)
        | Some(DeviceClass::Virtual)
        | Some(DeviceClass::RaidVolume)
        | Some(DeviceClass::Mmc) => 1,
        Some(DeviceClass::Raid) | Some(DeviceClass::DeviceMapper) => 2,
        _ => 3,
    };
    v.sort_by_key(|d| (rank(d), d.name.clone()));
    v.into_iter().map(|d| d.name.clone()).collect()
}

/// The disk whose mounts hold `path` (the one rule, in crate::target).
pub fn disk_holding(sys: &SystemFacts, path: &Path) -> Option<String> {
    crate::target::disk_holding(sys, path)
}

fn size(d: &DiskFacts) -> String {
    match d.size_bytes.get() {
        Some(b) if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        Some(b) => format!("{:.1} MB", b as f64 / 1e6),
        None => "?".into(),
    }
}

fn model(d: &DiskFacts, ascii: bool) -> String {
    let m = d
        .model
        .value()
        .map(|m| sanitize(m, ascii))
        .unwrap_or_else(|| "-".into());
    if m.chars().count() > 24 {
        m.chars().take(23).collect::<String>() + "~"
    } else {
        m
    }
}

fn mounted(d: &DiskFacts) -> String {
    let v: Vec<&str> = d.mounts.iter().map(|m| m.mountpoint.as_str()).collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(",")
    }
}

fn class(d: &DiskFacts) -> &'static str {
    d.class.get().map(DeviceClass::label).unwrap_or("unknown")
}

pub fn disk_line(sys: &SystemFacts, name: &str, ascii: bool) -> String {
    match sys.disk(name) {
        Some(d) => format!(
            "{:<10} {:<24} {:>9}  {:<8} {}",
            d.name,
            model(d, ascii),
            size(d),
            class(d),
            mounted(d)
        ),
        None => name.to_string(),
    }
}

pub fn disk_table(sys: &SystemFacts, names: &[String], ascii: bool) -> String {
    let mut s = format!(
        "\n{:<10} {:<24} {:>9}  {:<8} {}\n",
        "DISK", "MODEL", "SIZE", "TYPE", "MOUNTED"
    );
    for n in names {
        s.push_str(&disk_line(sys, n, ascii));
        s.push('\n');
    }
    s
}

/// The wizard's finding screens as styles of the one findings renderer
/// (`diskdoc_core::render`): within 80 columns, a line per explanation line, long words
/// broken, every string from a finding through the terminal policy.
fn style(headline: Headline, lead: &'static str, body: usize, ascii: bool) -> TextStyle {
    TextStyle {
        headline,
        lead,
        body,
        width: PROSE_WIDTH,
        wrap_headline: true,
        break_long: true,
        explanation: true,
        blank_line_paragraphs: false,
        evidence: Evidence::None,
        fixes: Fixes::None,
        clean: policy(ascii),
    }
}

/// Columns the inspect step's rows may fill: one less than the 80 of a terminal, so that
/// the last column never makes the terminal wrap on its own.
const ROW_WIDTH: usize = 79;

/// Columns of the wizard's paragraphs (a finding's explanation, evidence and fixes, the
/// answer): two less than the terminal, so prose keeps a margin on the right.
const PROSE_WIDTH: usize = 78;

/// Columns of a verdict line's label and its dots (after the two-space lead).
const LABEL_COLUMN: usize = 26;

/// Where a verdict line puts the verdict: two spaces, the label column, one space.
const VALUE_COLUMN: usize = 2 + LABEL_COLUMN + 1;

/// The inspect step's lines for one disk, in the order of `findings`: a verdict line per
/// check ("  Controller ............ good: AHCI, native mode"), and under the PCIe, NVMe
/// health and temperature verdicts the values they were judged on (current vs maximum link
/// per hop; critical warning, spare, wear, media errors; temperature vs the drive's
/// thresholds). On an NVMe drive the checks that do not apply (SATA link, controller mode,
/// NCQ, ATA link errors: an NVMe controller has none of them) are left out and counted
/// instead, so the screen talks about what the drive has.
pub fn inspect_lines(disk: &DiskFacts, findings: &[Finding], ascii: bool) -> Vec<String> {
    let nvme = disk.class.get() == Some(DeviceClass::Nvme);
    let verdict = TextStyle {
        width: ROW_WIDTH,
        explanation: false,
        ..style(
            Headline::Verdict {
                column: LABEL_COLUMN,
            },
            "  ",
            0,
            ascii,
        )
    };
    let mut out = Vec::new();
    let mut hidden = 0usize;
    for f in findings {
        if nvme && f.verdict == Verdict::NotApplicable {
            hidden += 1;
            continue;
        }
        out.push(render::text(f, &verdict).join("\n"));
        for d in value_lines(disk, &f.check) {
            let pad = " ".repeat(VALUE_COLUMN);
            let lines = wrap_words(&sanitize(&d, ascii), &pad, VALUE_COLUMN, ROW_WIDTH, true);
            out.push(lines.join("\n"));
        }
    }
    if hidden > 0 {
        out.push(format!(
            "  ({hidden} other check{} do{} not apply to an NVMe drive; the report lists them.)",
            if hidden == 1 { "" } else { "s" },
            if hidden == 1 { "es" } else { "" }
        ));
    }
    out
}

/// The facts behind a check's verdict, one line each, for the checks whose title alone
/// would not show them.
fn value_lines(d: &DiskFacts, check: &str) -> Vec<String> {
    use diskdoc_core::report::view;
    match check {
        "pcie-link-limited" => d
            .pcie
            .value()
            .map(|links| {
                links
                    .iter()
                    .map(|l| {
                        let who = if l.hop == 0 { "device" } else { "port" };
                        // lspci's short form (domain 0000 left out) keeps the line within
                        // the 80 columns under the verdict.
                        let mut l = l.clone();
                        if let Some(short) = l.address.strip_prefix("0000:") {
                            l.address = short.to_string();
                        }
                        format!("{who} {}", view::pcie_line(&l))
                    })
                    .collect()
            })
            .unwrap_or_default(),
        "nvme-health" => d
            .nvme_health
            .value()
            .map(|h| {
                // The temperature has its own line under thermal-throttling.
                let mut h = h.clone();
                h.temperature_c = None;
                view::nvme_health_line(&h)
            })
            .filter(|l| !l.is_empty())
            .into_iter()
            .collect(),
        "thermal-throttling" => d
            .nvme_health
            .value()
            .and_then(view::nvme_temperature_line)
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// A paragraph of the conversation, wrapped to fit 80 columns.
pub fn note(text: &str) -> String {
    para(text, 0).trim_end().to_string()
}

/// The wizard's own prose (not a finding's), a line each of `text`, wrapped for an
/// 80-column terminal.
fn para(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut s = String::new();
    for l in text.lines() {
        for w in diskdoc_core::report::text::wrap(l, &pad, indent, PROSE_WIDTH) {
            s.push_str(&w);
            s.push('\n');
        }
    }
    s
}

/// The why-and-evidence screen for one problem: the check's label and id, its explanation
/// and its evidence as read.
pub fn finding_detail(f: &Finding, ascii: bool) -> String {
    let st = TextStyle {
        wrap_headline: false,
        evidence: Evidence::Block {
            bullet: "  ",
            wrap: false,
        },
        ..style(Headline::Labelled, "", 2, ascii)
    };
    format!("\n{}\n", render::text(f, &st).join("\n"))
}

pub fn test_prompt(g: &TestGroup) -> String {
    if g.read_only {
        format!("{} -- read-only, about {} s. Run them?", g.title, g.seconds)
    } else {
        // The size is the one the test keeps to: on a nearly full filesystem, 10 % of the
        // free space (bench::scratch::size_cap), and the prompt says so.
        let fits = g
            .scratch_free
            .map(|f| format!(" (10 % of the {} free)", diskdoc_core::units::bytes_iec(f)))
            .unwrap_or_default();
        format!(
            "{} -- WRITES a scratch file of up to {}{fits} under {} (removed afterwards), about {} s. Run them?",
            g.title,
            diskdoc_core::units::bytes_iec(g.writes_bytes),
            g.scratch_dir
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "?".into()),
            g.seconds
        )
    }
}

/// Columns the results table's rows take (two of lead, then the eight columns).
const RESULTS_ROW: usize = 79;

/// The wizard's results screen, within 80 columns: one row per test, saying with each figure
/// how sure it is (+-%, the 95 % interval the stop rule judged, drift included), how long it
/// ran and how much it moved (issue 29: a short run states what it rests on); a label too long
/// for its column on a line of its own, and an error (with its message) on the lines under
/// its row rather than past the right edge. On a terminal `cols` wide that the rows do
/// not fit (a 40-column one), each test is a block instead: its name and label, then
/// "MB/s: 123.4, IOPS: 118, ..." wrapped between values, so no row is broken mid-column.
pub fn results_table(results: &[BenchResult], cols: Option<u16>) -> String {
    let width = cols.map(|c| usize::from(c).saturating_sub(1).max(20));
    if let Some(width) = width.filter(|w| *w < RESULTS_ROW) {
        return results_blocks(results, width);
    }
    let row = |test: &str, label: &str, cols: [&str; 6]| {
        format!(
            "  {test:<11} {label:<18} {:>9} {:>5} {:>8} {:>6} {:>4} {:>9}",
            cols[0], cols[1], cols[2], cols[3], cols[4], cols[5]
        )
        .trim_end()
        .to_string()
            + "\n"
    };
    let mut s = row("TEST", "RUN", RESULT_HEADERS);
    for r in results {
        let test = r.test.to_string();
        let (test, label) = if r.label.chars().count() > 18 || test.chars().count() > 11 {
            s.push_str(&format!("  {test} {}\n", r.label));
            (String::new(), String::new())
        } else {
            (test, r.label.clone())
        };
        let [a, b, c, d, e, f] = result_cells(r);
        s.push_str(&row(&test, &label, [&a, &b, &c, &d, &e, &f]));
        s.push_str(&result_error(r, 78));
    }
    s
}

/// The results' columns after the test and its label.
const RESULT_HEADERS: [&str; 6] = ["MB/s", "+-%", "IOPS", "p50 ms", "secs", "bytes"];

/// The cells of one result row ([`RESULT_HEADERS`]): MB/s, its 95 % interval in % ("-" when
/// too few intervals ran to know it), IOPS, p50 in ms, seconds, bytes moved.
fn result_cells(r: &BenchResult) -> [String; 6] {
    let p50 = r
        .latency
        .as_ref()
        .map(|l| format!("{:.3}", l.p50_ns as f64 / 1e6))
        .unwrap_or_else(|| "-".into());
    let ci = r
        .ci95_pct
        .filter(|c| c.is_finite())
        .map(|c| format!("{c:.1}"))
        .unwrap_or_else(|| "-".into());
    let secs = r.elapsed_ns as f64 / 1e9;
    [
        format!("{:.1}", r.bytes_per_sec / 1e6),
        ci,
        format!("{:.0}", r.iops),
        p50,
        // Two decimals under 10 s: the default budgets are 0.2-0.9 s.
        if secs < 10.0 {
            format!("{secs:.2}")
        } else {
            format!("{secs:.1}")
        },
        diskdoc_core::units::bytes_iec(r.bytes),
    ]
}

/// An error under its result, wrapped within `width`.
fn result_error(r: &BenchResult, width: usize) -> String {
    let mut s = String::new();
    if let Some(e) = &r.error {
        let text = format!("{} at byte {}: {}", e.kind, e.offset_bytes, e.message);
        for l in diskdoc_core::report::text::wrap(&text, "    ", 6, width) {
            s.push_str(&l);
            s.push('\n');
        }
    }
    s
}

/// [`results_table`] stacked for a narrow terminal (the text report's form,
/// `diskdoc_core::report::text::stacked`).
fn results_blocks(results: &[BenchResult], width: usize) -> String {
    let headers: Vec<String> = std::iter::once("RUN")
        .chain(RESULT_HEADERS)
        .map(|h| h.to_string())
        .collect();
    let mut s = String::new();
    for r in results {
        let mut row = vec![format!("{} {}", r.test, r.label)];
        row.extend(result_cells(r));
        for l in diskdoc_core::report::text::stacked(&headers, &[row], 2, width) {
            s.push_str(&l);
            s.push('\n');
        }
        s.push_str(&result_error(r, width));
    }
    s
}

/// Step 6: the ranked answer.
pub fn answer(sys: &SystemFacts, disk: &DiskFacts, findings: &[Finding], ascii: bool) -> String {
    let problems: Vec<&Finding> = findings.iter().filter(|f| f.is_problem()).collect();
    let mut s = format!("\nThe answer for {}:\n", disk.dev_path);
    if problems.is_empty() {
        // Name only what was checked: a check that did not run (a loop device has no link)
        // never "looks right".
        let mut passed: Vec<&str> = Vec::new();
        let measured = !sys.benchmarks.is_empty() || !sys.user_benchmarks.is_empty();
        for f in findings.iter().filter(|f| f.verdict == Verdict::Pass) {
            // A check of test results with no results passed vacuously: not "fine".
            if !measured && checks::measured_checks().any(|c| c.id() == f.check.as_str()) {
                continue;
            }
            let l = checks::label_of(&f.check);
            if !passed.contains(&l) {
                passed.push(l);
            }
        }
        if passed.is_empty() {
            s.push_str(&para(
                "No problem found, but no check could confirm anything on this device either \
                 (none of them applies to it or could read what it needs).",
                2,
            ));
        } else {
            s.push_str(&para(
                &format!(
                    "No likely cause found. Checked and fine: {} (see the report for the checks \
                     that do not apply).",
                    passed.join(", ")
                ),
                2,
            ));
        }
    }
    let cause = |n| TextStyle {
        evidence: Evidence::Inline {
            wrap: true,
            limit: 4,
        },
        fixes: Fixes::Steps { only: sys.platform },
        ..style(Headline::Ranked(n), "", 3, ascii)
    };
    for (i, f) in problems.iter().enumerate() {
        s.push('\n');
        s.push_str(&render::text(f, &cause(i + 1)).join("\n"));
        s.push('\n');
    }
    // The user's own figure stays beside the answer (the newcomer's hdparm -t result was
    // read, then missing from it), in the words of the "Understood" lines.
    if !sys.user_benchmarks.is_empty() {
        s.push_str("\nWhat you measured (from your paste):\n");
        for l in pasted_summary(&sys.user_benchmarks, ascii).lines().skip(1) {
            s.push_str(l);
            s.push('\n');
        }
    }
    let unknown: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.verdict == Verdict::Unknown)
        .collect();
    if !unknown.is_empty() {
        s.push_str("\nNot known (and how to find out):\n");
        let how = TextStyle {
            wrap_headline: false,
            ..style(Headline::Bullet, "  ", 4, ascii)
        };
        for f in unknown {
            s.push_str(&render::text(f, &how).join("\n"));
            s.push('\n');
        }
    }
    if problems.is_empty() {
        s.push('\n');
        s.push_str(&para(
            &format!(
                "To compare with a later run: save this report, run `diskdoc --device {} \
                 --report later.txt` then, and `diskdoc compare diskdoc-{}.json later.json`.",
                disk.name, disk.name
            ),
            0,
        ));
        return s;
    }
    // What the first fix should bring, said before the user is asked to apply it, so that
    // the later compare has a prediction to check.
    let expect = match (
        &problems[0].expected_effect,
        &problems[0].expected_effect_unknown,
    ) {
        (Some(e), _) => format!(" It should bring {}.", e.range_words()),
        (None, Some(_)) => " diskdoc gives no range for what it brings (the answer above \
                            says why)."
            .to_string(),
        (None, None) => String::new(),
    };
    s.push('\n');
    s.push_str(&para(
        &format!(
            "What next: apply the first fix.{expect} Then run diskdoc again with the same tests \
             and compare: `diskdoc --device {} --report after.txt`, then `diskdoc compare \
             diskdoc-{}.json after.json`.",
            disk.name, disk.name
        ),
        0,
    ));
    s
}

#[cfg(test)]
mod prompt_tests {
    use super::*;

    /// The size offered is the one the test keeps to: 10 % of a nearly full filesystem's
    /// free space, said with the free space; with room, the plan's size alone.
    #[test]
    fn the_write_prompt_promises_what_fits() {
        let mut w = TestGroup {
            id: "write",
            title: "Write tests".into(),
            read_only: false,
            seconds: 20,
            writes_bytes: 38 << 20,
            scratch_dir: Some("/mnt/a/x".into()),
            scratch_free: Some(399_000_000),
        };
        let prompt = test_prompt(&w);
        assert!(
            prompt.contains("WRITES a scratch file of up to 38 MiB (10 % of the 380.5 MiB free)"),
            "{prompt}"
        );
        w.writes_bytes = 256 << 20;
        w.scratch_free = None;
        w.scratch_dir = Some("/mnt/a".into());
        let prompt = test_prompt(&w);
        assert!(prompt.contains("up to 256 MiB under /mnt/a"), "{prompt}");
    }
}

#[cfg(test)]
mod results_tests {
    use diskdoc_core::evidence::{BenchResult, LatencySummary, TestName};

    fn result(test: TestName, label: &str, mb_s: f64) -> BenchResult {
        BenchResult {
            test,
            label: label.into(),
            block_size_bytes: 4096,
            queue_depth: 1,
            elapsed_ns: 1_200_000_000,
            bytes: 1_500_000_000,
            ci95_pct: Some(2.5),
            bytes_per_sec: mb_s * 1e6,
            iops: mb_s * 1e6 / 4096.0,
            latency: Some(LatencySummary {
                p50_ns: 512_000,
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// The newcomer's 40-column terminal (and a 72-column one): the results are blocks
    /// whose values are never broken from their names, within the width; at 80 columns
    /// and without a terminal, the table with its header row.
    #[test]
    fn results_fit_a_narrow_terminal_as_blocks() {
        let rs = vec![
            result(TestName::SeqRead, "1 MiB Q8T1", 431.04),
            result(
                TestName::SyncWrite,
                "4 KiB fsync (RAM (sync=disabled))",
                812.4,
            ),
        ];
        for cols in [40u16, 72] {
            let t = super::results_table(&rs, Some(cols));
            assert!(
                t.lines().all(|l| l.chars().count() < usize::from(cols)),
                "{cols}:\n{t}"
            );
            assert!(!t.contains("TEST"), "{t}");
            for whole in [
                "seq-read 1 MiB Q8T1",
                "sync-write 4 KiB fsync",
                "MB/s: 431.0",
                "p50 ms: 0.512",
                "secs: 1.20",
                "+-%: 2.5",
                "bytes: 1.4 GiB",
                "(RAM (sync=disabled))",
                "MB/s: 812.4",
            ] {
                assert!(t.lines().any(|l| l.contains(whole)), "{cols}: {whole}\n{t}");
            }
        }
        for cols in [Some(80), None] {
            let t = super::results_table(&rs, cols);
            assert!(t.starts_with("  TEST"), "{t}");
            assert!(t.lines().all(|l| l.chars().count() <= 79), "{t}");
        }
    }
}
