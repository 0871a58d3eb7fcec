//! Smoke test of scripts/bench-vs-fio.sh: one short round on its own zram device, checking
//! that every line it prints carries real figures from both tools (a renamed JSON field in
//! diskdoc or fio would turn them into zeros). It asserts the format and that both tools
//! measured something, never a speed: the ratios are judged by running the script itself.
//! Needs root, fio, jq and zram; with CI=true a missing prerequisite fails the test.

use std::process::Command;

fn in_ci() -> bool {
    std::env::var("CI").map(|v| v == "true").unwrap_or(false)
}

#[test]
fn bench_vs_fio_script_prints_figures_from_both_tools() {
    let mut missing: Vec<String> = Vec::new();
    if !nix::unistd::geteuid().is_root() {
        missing.push("root".into());
    }
    for t in ["fio", "jq", "losetup"] {
        if which::which(t).is_err() {
            missing.push(t.into());
        }
    }
    if !std::path::Path::new("/sys/class/zram-control/hot_add").exists()
        && !Command::new("modprobe")
            .args(["zram", "num_devices=0"])
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    {
        missing.push("zram".into());
    }
    if !missing.is_empty() {
        let why = format!("bench-vs-fio smoke test needs {}", missing.join(", "));
        assert!(!in_ci(), "CI=true but {why}");
        eprintln!("skipping: {why}");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bench-vs-fio.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg("1")
        .env("TARGETS", "zram write-zram")
        .env("FIO_SECS", "1")
        .env("DISKDOC_BIN", env!("CARGO_BIN_EXE_diskdoc"))
        .output()
        .expect("run bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // 0: every line passed, 1: some ratio missed its target (timing, not judged here);
    // 2 would mean the script could not run.
    assert!(
        matches!(out.status.code(), Some(0) | Some(1)),
        "status {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status.code()
    );
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(" diskdoc=") && !l.starts_with('#'))
        .collect();
    let mut names: Vec<String> = Vec::new();
    for tests in [
        &["seq-1MiB-read", "rand-4KiB-qd1", "rand-4KiB-qd32"][..],
        &[
            "seq-1MiB-q8-write",
            "seq-1MiB-q1-write",
            "rand-4KiB-q32-write",
            "rand-4KiB-q1-write",
        ][..],
    ] {
        for t in tests {
            names.push(if t.starts_with("seq") {
                format!("{t}-MiB/s")
            } else {
                format!("{t}-IOPS")
            });
        }
        for p in ["p50", "p99"] {
            names.extend(tests.iter().map(|t| format!("{p}-{t}-us")));
        }
    }
    assert_eq!(lines.len(), names.len(), "{stdout}\n{stderr}");
    for (line, name) in lines.iter().zip(&names) {
        assert!(line.starts_with(name.as_str()), "{line} is not {name}");
        let field = |k: &str| -> f64 {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(k))
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no {k} in {line}"))
        };
        assert!(field("diskdoc=") > 0.0, "{line}");
        assert!(field("fio=") > 0.0, "{line}");
        assert!(field("ratio=") > 0.0, "{line}");
        assert!(line.ends_with(" PASS") || line.ends_with(" FAIL"), "{line}");
    }
    // The summary counts the lines and names the commit measured.
    let passed = lines.iter().filter(|l| l.ends_with(" PASS")).count();
    let summary = stdout.lines().last().unwrap_or("");
    let want = format!(
        "# {} lines: {passed} PASS, {} FAIL; commit measured: ",
        lines.len(),
        lines.len() - passed
    );
    assert!(summary.starts_with(&want), "{summary:?} is not {want:?}...");
    let commit = summary.trim_start_matches(&want);
    assert!(
        commit.len() >= 7
            && commit
                .trim_end_matches("-dirty")
                .chars()
                .all(|c| c.is_ascii_hexdigit()),
        "{summary}"
    );
    assert!(
        stdout
            .lines()
            .next()
            .unwrap_or("")
            .contains(&format!("(commit {commit})"))
    );
    // The per-round values go to stderr: one round per target, the round number and
    // (value, p50, p99) per test for each tool: 3 read tests, 4 cdm writes.
    let rounds: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("# round 1 "))
        .collect();
    let counts: Vec<usize> = rounds
        .iter()
        .map(|r| {
            r.split_whitespace()
                .filter(|w| w.parse::<f64>().is_ok())
                .count()
        })
        .collect();
    assert_eq!(counts, [1 + 18, 1 + 24], "{stderr}");
}
