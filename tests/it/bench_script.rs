//! Smoke test of scripts/bench-vs-fio.sh: one short round on its own zram device, checking
//! that every line it prints carries real figures from both tools (a renamed JSON field in
//! diskdoc or fio would turn them into zeros). It asserts the format and that both tools
//! measured something, never a speed: the ratios are judged by running the script itself.
//! Needs root, fio, jq, losetup, mkfs.ext4, script and zram; with CI=true a missing prerequisite fails the test.

use std::process::Command;

fn in_ci() -> bool {
    std::env::var("CI").map(|v| v == "true").unwrap_or(false)
}

#[test]
fn bench_vs_fio_script_prints_figures_from_both_tools() {
    let _huge = crate::support::huge_pages_lock();
    let mut missing: Vec<String> = Vec::new();
    if !nix::unistd::geteuid().is_root() {
        missing.push("root".into());
    }
    for t in ["fio", "jq", "losetup", "mkfs.ext4", "script"] {
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
        .env("TARGETS", "zram")
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
    // On raw zram: the three default read tests, the four cdm reads and the four cdm writes
    // (through --destructive on the blank device), each as throughput, p50 and p99.
    let tests = [
        "seq-read-outer",
        "rand-read-qd1",
        "rand-read-qd32",
        "cdm-read-SEQ1M-Q8T1",
        "cdm-read-SEQ1M-Q1T1",
        "cdm-read-RND4K-Q32T1",
        "cdm-read-RND4K-Q1T1",
        "cdm-write-SEQ1M-Q8T1",
        "cdm-write-SEQ1M-Q1T1",
        "cdm-write-RND4K-Q32T1",
        "cdm-write-RND4K-Q1T1",
    ];
    let mut names: Vec<String> = tests.iter().map(|t| t.to_string()).collect();
    for p in ["p50", "p99"] {
        names.extend(tests.iter().map(|t| format!("{p}-{t}")));
    }
    assert_eq!(lines.len(), names.len(), "{stdout}\n{stderr}");
    for (line, name) in lines.iter().zip(&names) {
        assert!(
            line.starts_with(&format!("{name} zram ")),
            "{line} is not {name}"
        );
        let field = |k: &str| -> f64 {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(k))
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no {k} in {line}"))
        };
        // Both tools measured every line, matched fio and fio's defaults alike.
        for k in [
            "diskdoc=",
            "fio=",
            "ratio=",
            "fio_defaults=",
            "ratio_defaults=",
        ] {
            assert!(field(k) > 0.0, "{k} in {line}");
        }
        let unit = line.split_whitespace().nth(2).unwrap_or("");
        let want = if name.starts_with('p') {
            "us"
        } else if name.contains("seq") || name.contains("SEQ") {
            "MB/s"
        } else {
            "IOPS"
        };
        assert_eq!(unit, want, "{line}");
        assert!(line.ends_with(" PASS") || line.ends_with(" FAIL"), "{line}");
    }
    // The header names the load average; the summary counts the lines and names the commit.
    let header = stdout.lines().next().unwrap_or("");
    assert!(header.contains("load average "), "{header}");
    assert!(
        stdout.contains("# throughput lines: 11; median of their ratios vs matched fio "),
        "{stdout}"
    );
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
    assert!(header.contains(&format!("(commit {commit})")), "{header}");
    // The per-round values go to stderr: one record per test and tool (diskdoc, matched
    // fio, fio's defaults) in round 1.
    let records = stderr
        .lines()
        .filter(|l| l.starts_with("# round 1 zram ") && l.contains(" bw="))
        .count();
    assert_eq!(records, 3 * tests.len(), "{stderr}");
}
