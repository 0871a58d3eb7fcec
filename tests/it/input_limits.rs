//! Issue 14: the total input cap of `replay`, `compare` and `explain`: over the cap is one
//! clear error naming the cap and the flag (exit 2), before gigabytes are read; the flag
//! raises it; an endless standard input ends too.

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_diskdoc");
const MIB: u64 = 1 << 20;

/// A sparse file of `len` zero bytes (no disk space used).
fn sparse(dir: &std::path::Path, name: &str, len: u64) -> String {
    let p = dir.join(name);
    std::fs::File::create(&p).unwrap().set_len(len).unwrap();
    p.display().to_string()
}

fn run(args: &[&str], stdin: Stdio) -> (Option<i32>, String) {
    let out = Command::new(BIN).args(args).stdin(stdin).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_capped(code: Option<i32>, err: &str, what: &str) {
    assert_eq!(code, Some(2), "{what}: {err}");
    assert!(err.contains("input cap"), "{what}: {err}");
    assert!(err.contains("64 MiB"), "{what}: {err}");
    assert!(err.contains("--max-input-mib"), "{what}: {err}");
}

#[test]
fn replay_compare_and_explain_stop_at_the_input_cap() {
    let dir = tempfile::tempdir().unwrap();
    let big = sparse(dir.path(), "big.json", 65 * MIB);
    let (code, err) = run(&["replay", &big], Stdio::null());
    assert_capped(code, &err, "replay");
    assert!(err.contains(&big), "{err}");
    // Raised: the file is read and judged on its content (zeros are not JSON).
    let (code, err) = run(&["replay", &big, "--max-input-mib", "100"], Stdio::null());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not valid JSON"), "{err}");
    assert!(!err.contains("input cap"), "{err}");
    // compare: the cap is the total of both files (a real bundle padded with whitespace,
    // which JSON allows, to 40 MiB: each one alone loads).
    let fixture = format!(
        "{}/tests/fixtures/bundles/linux-ahci-sata-ssd.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut text = std::fs::read(&fixture).unwrap();
    text.resize((40 * MIB) as usize, b' ');
    let half = dir.path().join("half.json");
    std::fs::write(&half, &text).unwrap();
    let half = half.display().to_string();
    let (code, err) = run(&["replay", &half], Stdio::null());
    assert!(code == Some(0) || code == Some(1), "{err}");
    let (code, err) = run(&["compare", &half, &half], Stdio::null());
    assert_capped(code, &err, "compare");
    let (code, err) = run(
        &["compare", &half, &half, "--max-input-mib", "81"],
        Stdio::null(),
    );
    assert!(code == Some(0) || code == Some(1), "{err}");
    // explain: thirty inputs of 3 MiB are 90 MiB in total.
    let small = sparse(dir.path(), "paste.txt", 3 * MIB);
    let mut args = vec!["explain"];
    args.extend(std::iter::repeat_n(small.as_str(), 30));
    let (code, err) = run(&args, Stdio::null());
    assert_capped(code, &err, "explain files");
    // An endless standard input ends at the cap, not at the end of time.
    let t0 = std::time::Instant::now();
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let (code, err) = run(&["explain"], Stdio::from(zero));
    assert_capped(code, &err, "explain stdin");
    assert!(err.contains("standard input"), "{err}");
    assert!(t0.elapsed() < std::time::Duration::from_secs(60));
}

/// Run diskdoc with `stdin` and a deadline: a run that is still going after `secs` is
/// killed and fails the test (it waited on its input).
fn run_within(args: &[&str], stdin: Stdio, secs: u64) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > std::time::Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("diskdoc {args:?} still waits after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A FIFO nobody writes to, given as an input file, is refused at once (it used to block
/// in open(2) forever) with the fix: its content on standard input. Standard input (`-`)
/// keeps working for explain and now replay, and a FIFO with a writer (what `<(cmd)` gives)
/// is still read.
#[test]
fn a_fifo_without_a_writer_returns_at_once_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let f = fifo.display().to_string();
    let bundle = format!(
        "{}/tests/fixtures/bundles/linux-ahci-sata-ssd.json",
        env!("CARGO_MANIFEST_DIR")
    );
    for args in [
        vec!["replay", &f],
        vec!["explain", &f],
        vec!["compare", &bundle, &f],
        vec!["summarize", &f],
    ] {
        let t0 = std::time::Instant::now();
        let (code, _, err) = run_within(&args, Stdio::null(), 10);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("named pipe (FIFO)"), "{args:?}: {err}");
        let fix = format!("diskdoc {} - < {f}", args[0]);
        assert!(err.contains(&fix), "{args:?} should name {fix:?}: {err}");
        assert!(t0.elapsed() < std::time::Duration::from_secs(5), "{args:?}");
    }
    // Character devices too: a terminal or /dev/zero is not a saved file.
    let (code, _, err) = run_within(&["replay", "/dev/zero"], Stdio::null(), 10);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("character device"), "{err}");
    // `-` is standard input, for replay as for explain.
    let (code, out, err) = run_within(
        &["replay", "-"],
        Stdio::from(std::fs::File::open(&bundle).unwrap()),
        30,
    );
    assert!(code == Some(0) || code == Some(1), "{err}");
    assert!(out.contains("sda"), "{out}");
    let dd = format!(
        "{}/tests/fixtures/linux/dd/gnu-dd-write-usb-bs1M-305MBps-page-cache.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, out, err) = run_within(
        &["explain", "-"],
        Stdio::from(std::fs::File::open(&dd).unwrap()),
        30,
    );
    assert!(code == Some(0) || code == Some(1), "{err}");
    assert!(out.contains("Recognised (1)"), "{out}");
    // With a writer that opens first and writes late, the FIFO is read to its end.
    let (w, text) = (fifo.clone(), std::fs::read(&dd).unwrap());
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut p = std::fs::OpenOptions::new().write(true).open(w).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        p.write_all(&text).unwrap();
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (code, out, err) = run_within(&["explain", &f], Stdio::null(), 30);
    writer.join().unwrap();
    assert!(code == Some(0) || code == Some(1), "{err}");
    assert!(out.contains("Recognised (1)"), "{out}");
}

/// Odd files a newcomer hands over: a paste and a report saved as UTF-16 (Notepad,
/// PowerShell `>`), an empty .json, and a log past the 4 MiB per-input cap, whose header
/// must say at once how much was not read.
#[test]
fn utf16_empty_and_oversized_inputs_read_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/corpus-reviewed/fixtures/linux/smartctl-json/",
        "a-usbjmicron-hitachi-7200-link-1.5-of-6.0-failed.txt"
    );
    let text = std::fs::read_to_string(fixture).unwrap();
    let findings = |args: &[&str]| {
        let out = Command::new(BIN).args(args).output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let ids: Vec<String> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| format!("{}:{}:{}", f["device"], f["check"], f["severity"]))
            .collect();
        (out.status.code(), ids)
    };
    let plain = findings(&["explain", fixture, "--format", "json"]);
    assert!(!plain.1.is_empty(), "the fixture has findings");
    let le = dir.path().join("le.txt");
    let be = dir.path().join("be.txt");
    let mut bytes = vec![0xff, 0xfe];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(&le, &bytes).unwrap();
    std::fs::write(
        &be,
        text.encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    for p in [&le, &be] {
        let p = p.to_str().unwrap();
        assert_eq!(findings(&["explain", p, "--format", "json"]), plain, "{p}");
    }
    let out = Command::new(BIN)
        .args(["explain", le.to_str().unwrap()])
        .output()
        .unwrap();
    let t = String::from_utf8_lossy(&out.stdout);
    assert!(t.contains("read as UTF-16LE text"), "{t}");
    // A report saved as UTF-16 replays too.
    let report = Command::new(BIN)
        .args(["explain", fixture, "--format", "json"])
        .output()
        .unwrap()
        .stdout;
    let r16 = dir.path().join("r16.json");
    let mut b = vec![0xff, 0xfe];
    b.extend(
        String::from_utf8(report)
            .unwrap()
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    std::fs::write(&r16, b).unwrap();
    let (code, err) = run(&["replay", r16.to_str().unwrap()], Stdio::null());
    assert_eq!(code, plain.0, "{err}");
    // An empty JSON file is empty, not "truncated".
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "\n").unwrap();
    let (code, err) = run(&["replay", empty.to_str().unwrap()], Stdio::null());
    assert_eq!(code, Some(2));
    assert!(
        err.contains("is empty") && !err.contains("truncated"),
        "{err}"
    );
    // 8 MiB of kernel lines: the header names the lines past the cap.
    let big = dir.path().join("big.log");
    let line = "Dec  3 10:00:00 host kernel: ata1.00: status: { DRDY ERR }\n";
    let n = (8 * MIB as usize) / line.len() + 1;
    std::fs::write(&big, line.repeat(n)).unwrap();
    let out = Command::new(BIN)
        .args(["explain", big.to_str().unwrap()])
        .output()
        .unwrap();
    let t = String::from_utf8_lossy(&out.stdout);
    let head: String = t
        .lines()
        .take(3)
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        head.contains("more past the 4 MiB input cap not read"),
        "{head}"
    );
}
