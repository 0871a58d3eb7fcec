//! The CLI matrix (issue 13): every subcommand with every `--format`, on the fixture
//! bundles and, as root, on a real loop device. For every run: the JSON is the report
//! envelope with the right `kind`; `replay` and `compare` accept it; a replay reproduces
//! the findings and the exit status; the JSON validates against `diskdoc schema` (boon, a
//! JSON Schema validator); the text of a report stays within 72 columns.
//!
//! The live part needs root and losetup: with CI=true it must run, elsewhere it is skipped
//! and says so (the skip is printed in the matrix and on stderr).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as V;

use crate::support::{self, SupportError};

const FORMATS: [&str; 3] = ["text", "markdown", "json"];

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_diskdoc")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = Command::new(bin())
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run diskdoc");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The matrix printed at the end: one row per command line.
#[derive(Default)]
struct Matrix {
    rows: Vec<String>,
}

impl Matrix {
    fn row(&mut self, what: &str, format: &str, code: i32, note: &str) {
        self.rows
            .push(format!("{what:<44} {format:<9} exit {code:<3} {note}"));
    }
    fn print(&self, title: &str) {
        println!("--- CLI matrix: {title} ---");
        for r in &self.rows {
            println!("{r}");
        }
    }
}

/// JSON output: the envelope of `kind`, loadable by the library loader `replay` uses.
fn envelope(label: &str, r: &Run, kind: &str) -> V {
    let v: V = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{label}: not JSON ({e}): {}{}", r.stdout, r.stderr));
    assert_eq!(v["kind"], kind, "{label}: kind");
    if let Err(e) = support::schema::validate(&v) {
        panic!("{label}: the JSON does not match `diskdoc schema`:\n{e}");
    }
    assert_eq!(
        v["schema_version"],
        V::from(diskdoc_core::report::REPORT_SCHEMA_VERSION),
        "{label}"
    );
    assert!(v["evidence"].is_object(), "{label}: evidence");
    assert!(v["findings"].is_array(), "{label}: findings");
    assert_eq!(
        v["exit_status"],
        V::from(r.code),
        "{label}: exit status recorded"
    );
    diskdoc_core::report::load::parse(label, &r.stdout)
        .unwrap_or_else(|e| panic!("{label}: the loader refuses it: {e}"));
    v
}

/// (check, device, verdict, severity) of every finding, the part a replay must reproduce.
fn finding_keys(v: &V) -> Vec<(String, String, String, String)> {
    v["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    (
                        f["check"].to_string(),
                        f["device"].to_string(),
                        f["verdict"].to_string(),
                        f["severity"].to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn disk_names(v: &V) -> Vec<String> {
    v["system"]["disks"]
        .as_array()
        .map(|a| a.iter().map(|d| d["name"].to_string()).collect())
        .unwrap_or_default()
}

fn text_is_a_report(label: &str, s: &str) {
    fits(label, s, 72);
}

/// Every line of `s` within `width` columns.
fn fits(label: &str, s: &str, width: usize) {
    for l in s.lines() {
        assert!(
            l.chars().count() <= width,
            "{label}: line over {width} columns: {l:?}"
        );
    }
}

/// `diskdoc compare BEFORE AFTER EXTRA...`: when the two cover no common disk, the refusal
/// (exit 2, the reason, the flag that overrides it) and then the run with `--force`.
/// Returns the run and whether it was refused first.
fn compare_run(before: &str, after: &str, extra: &[&str]) -> (Run, bool) {
    let mut args = vec!["compare", before, after];
    args.extend_from_slice(extra);
    let r = run(&args);
    if r.code != 2 {
        return (r, false);
    }
    assert!(
        r.stderr.contains("no common disk") && r.stderr.contains("--force"),
        "compare {before} {after}: exit 2 without the no-common-disk reason: {}",
        r.stderr
    );
    assert!(r.stdout.is_empty(), "a refused compare prints no report");
    args.push("--force");
    (run(&args), true)
}

/// Write `json` to DIR/NAME, then: replay it in every format (same findings, same exit
/// status, same disks), replay the replay, and compare it with itself and with `other`.
fn round_trip(m: &mut Matrix, dir: &Path, name: &str, json: &V, code: i32, other: &Path) {
    let p = dir.join(name);
    std::fs::write(&p, json.to_string()).expect("write");
    let ps = p.to_str().unwrap_or("");
    let comparison = json["comparison"].is_object();
    for f in FORMATS {
        let r = run(&["replay", ps, "--format", f, "--no-redact"]);
        assert_eq!(r.code, code, "replay {name} --format {f}: {}", r.stderr);
        match f {
            "json" => {
                let v = envelope(&format!("replay {name}"), &r, "replay");
                assert_eq!(
                    finding_keys(&v),
                    finding_keys(json),
                    "replay {name}: findings"
                );
                assert_eq!(disk_names(&v), disk_names(json), "replay {name}: disks");
                assert_eq!(v["comparison"].is_object(), comparison, "{name}");
                // A replay of the replay derives the same way again.
                let again = dir.join(format!("replayed-{name}"));
                std::fs::write(&again, &r.stdout).expect("write");
                let r2 = run(&[
                    "replay",
                    again.to_str().unwrap_or(""),
                    "--json",
                    "--no-redact",
                ]);
                assert_eq!(r2.code, code, "replay of replay {name}: {}", r2.stderr);
                let v2 = envelope(&format!("replay replayed-{name}"), &r2, "replay");
                assert_eq!(
                    finding_keys(&v2),
                    finding_keys(json),
                    "{name}: replay twice"
                );
            }
            "text" if !comparison => text_is_a_report(&format!("replay {name}"), &r.stdout),
            _ => assert!(!r.stdout.is_empty(), "replay {name} --format {f}"),
        }
        m.row(&format!("replay {name}"), f, r.code, "= original exit");
    }
    let mut refused_other = false;
    for (i, (b, a)) in [(ps, ps), (other.to_str().unwrap_or(""), ps)]
        .into_iter()
        .enumerate()
    {
        let (r, refused) = compare_run(b, a, &["--json"]);
        assert!(
            !(i == 0 && refused),
            "{name} compared with itself is never refused"
        );
        refused_other |= refused;
        assert_eq!(r.code, code, "compare ... {name}: {}", r.stderr);
        let v = envelope(&format!("compare {name}"), &r, "compare");
        assert!(v["comparison"]["before_label"].is_string(), "{name}");
        assert!(v["before"].is_object(), "{name}: the earlier report inside");
    }
    let note = if refused_other {
        "accepted (with another disk: refused, then --force)"
    } else {
        "accepted"
    };
    m.row(&format!("compare X {name}"), "json", code, note);
}

#[test]
fn matrix_on_fixture_bundles() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut m = Matrix::default();
    let bundles = support::fixture_bundles();
    assert!(bundles.len() >= 10, "fixture bundles: {bundles:?}");
    let first = bundles[0].clone();
    for b in &bundles {
        let name = b
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bs = b.to_str().unwrap_or("");
        let raw: V = serde_json::from_str(&std::fs::read_to_string(b).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{name}: not JSON: {e}"));
        if let Err(e) = support::schema::validate_bundle(&raw) {
            panic!("{name}: the bundle does not match the bundle schema:\n{e}");
        }
        // The bare bundle, every format.
        let mut code = None;
        for f in FORMATS {
            let r = run(&["replay", bs, "--format", f]);
            assert!(r.code == 0 || r.code == 1, "{name} {f}: {}", r.stderr);
            assert_eq!(
                *code.get_or_insert(r.code),
                r.code,
                "{name}: one exit status"
            );
            m.row(&format!("replay {name}.json (bundle)"), f, r.code, "");
        }
        let code = code.unwrap_or(-1);
        let r = run(&["replay", bs, "--json", "--no-redact"]);
        let v = envelope(&name, &r, "replay");
        round_trip(
            &mut m,
            dir.path(),
            &format!("{name}.replay.json"),
            &v,
            code,
            &first,
        );
        // compare of two bundles, every format; its JSON goes round again.
        for f in FORMATS {
            let (r, refused) = compare_run(first.to_str().unwrap_or(""), bs, &["--format", f]);
            assert_eq!(r.code, code, "compare {name} {f}: {}", r.stderr);
            if f == "json" {
                let v = envelope(&format!("compare {name}"), &r, "compare");
                round_trip(
                    &mut m,
                    dir.path(),
                    &format!("{name}.compare.json"),
                    &v,
                    code,
                    &first,
                );
            }
            let note = if refused { "refused, then --force" } else { "" };
            m.row(&format!("compare first {name}"), f, r.code, note);
        }
    }
    // explain on a pasted forum post, every format; its JSON replays to the same findings.
    let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seeds");
    let mut posts: Vec<PathBuf> = std::fs::read_dir(&seed)
        .expect("seeds")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    posts.sort();
    let post = posts.first().expect("a seed post").clone();
    let ps = post.to_str().unwrap_or("");
    let mut code = None;
    for f in FORMATS {
        let r = run(&["explain", ps, "--format", f]);
        assert!(r.code == 0 || r.code == 1, "explain {f}: {}", r.stderr);
        assert_eq!(
            *code.get_or_insert(r.code),
            r.code,
            "explain: one exit status"
        );
        m.row("explain seed post", f, r.code, "");
    }
    let code = code.unwrap_or(-1);
    let r = run(&["explain", ps, "--json", "--no-redact"]);
    let v = envelope("explain", &r, "explain");
    assert!(v["pasted"][0]["text"].is_string(), "the paste is kept");
    round_trip(&mut m, dir.path(), "explain.json", &v, code, &first);
    m.print("fixture bundles");
}

// ---------------------------------------------------------------- live, on a loop device

struct Loop {
    dev: String,
    _dir: tempfile::TempDir,
}

impl Drop for Loop {
    fn drop(&mut self) {
        let _ = Command::new("losetup").args(["-d", &self.dev]).status();
    }
}

fn skip_or_fail(reason: &str) {
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("the live CLI matrix must run in CI but cannot: {reason}");
    }
    eprintln!("SKIPPED: live CLI matrix on a loop device: {reason}");
    println!("--- CLI matrix: live loop device SKIPPED ({reason}) ---");
}

fn loop_device() -> Result<Loop, SupportError> {
    if !nix::unistd::geteuid().is_root() {
        return Err(SupportError::CannotRun("needs root for losetup".into()));
    }
    let dir = tempfile::tempdir()?;
    let img = dir.path().join("disk.img");
    let f = std::fs::File::create(&img)?;
    f.set_len(64 << 20)?;
    let out = Command::new("losetup")
        .args(["--find", "--show"])
        .arg(&img)
        .output()
        .map_err(|e| SupportError::Command {
            cmd: "losetup".into(),
            detail: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(SupportError::Command {
            cmd: "losetup".into(),
            detail: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(Loop {
        dev: String::from_utf8_lossy(&out.stdout).trim().to_string(),
        _dir: dir,
    })
}

/// Our own zram device, removed on drop.
struct Zram(u32);

impl Drop for Zram {
    fn drop(&mut self) {
        support::remove_zram(&self.0.to_string());
    }
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real devices (loop, zram, tmux): runs as root or with CI=true"
)]
fn matrix_on_a_loop_device() {
    let l = match loop_device() {
        Ok(l) => l,
        Err(e) => return skip_or_fail(&e.to_string()),
    };
    live_matrix(&l.dev);
    // A few usage errors (exit 2 everywhere).
    let mut m = Matrix::default();
    for args in [
        vec!["check", "--device", "/dev/null"],
        vec!["scan", "--device", "/dev/diskdoc-nope"],
        vec!["bench", "--device", "/dev/null", "--tests", "seq"],
        vec!["--yes", "--no-bench", "--device", "/dev/null"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        m.row(&args.join(" "), "-", r.code, "usage error");
    }
    m.print("usage errors");
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real devices (loop, zram, tmux): runs as root or with CI=true"
)]
fn matrix_on_a_zram_device() {
    if !nix::unistd::geteuid().is_root() {
        return skip_or_fail("needs root for zram");
    }
    let Some(id) = support::add_zram("64M") else {
        return skip_or_fail("zram hot_add is not available");
    };
    let z = Zram(id);
    live_matrix(&format!("/dev/zram{}", z.0));
}

/// Every command with every format on one real device.
fn live_matrix(dev: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let first = support::fixture_bundles()[0].clone();
    let mut m = Matrix::default();
    let name = Path::new(dev)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let runs: Vec<(&str, Vec<&str>)> = vec![
        ("scan", vec!["scan", "--device", dev]),
        ("check", vec!["check", "--device", dev]),
        (
            "bench",
            vec![
                "bench", "--device", dev, "--tests", "seq", "--quick", "--budget", "1",
            ],
        ),
        ("wizard", vec!["--yes", "--no-bench", "--device", dev]),
    ];
    for (kind, args) in &runs {
        let label = format!("{} --device {name}", args[0]);
        for f in FORMATS {
            let mut a = args.clone();
            a.extend(["--format", f]);
            let r = run(&a);
            assert!(
                r.code == 0 || r.code == 1,
                "{label} {f}: exit {}: {}",
                r.code,
                r.stderr
            );
            if f == "text" {
                // scan, check and bench print a report; the wizard, a conversation for an
                // 80-column terminal.
                let width = if *kind == "wizard" { 80 } else { 72 };
                fits(&format!("{label} text"), &r.stdout, width);
            }
            if f == "json" {
                let mut a = args.clone();
                a.extend(["--json", "--no-redact"]);
                let r = run(&a);
                let v = envelope(&label, &r, kind);
                assert_eq!(v["scope"], V::from(vec![name.clone()]), "{label}: scope");
                assert_eq!(
                    disk_names(&v),
                    vec![format!("\"{name}\"")],
                    "{label}: one disk"
                );
                round_trip(
                    &mut m,
                    dir.path(),
                    &format!("{kind}.json"),
                    &v,
                    r.code,
                    &first,
                );
            }
            m.row(&label, f, r.code, "");
        }
    }
    // The device as a positional argument means --device (smartctl's habit).
    let r = run(&["check", dev, "--json", "--no-redact"]);
    let v = envelope("check DEVICE", &r, "check");
    assert_eq!(v["scope"], V::from(vec![name.clone()]), "positional device");
    m.row(&format!("check {name}"), "json", r.code, "= --device");
    m.print(&format!("live device {dev}"));
}

/// Saving never loses a report: a second run in the same directory gets new names, the
/// JSON goes beside the text whatever the extension, `-` is standard output, an unwritable
/// place is exit status 2 with the reason, and `--yes` works in a pipe (`| tee`).
#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real devices (loop, zram, tmux): runs as root or with CI=true"
)]
fn wizard_saving_never_loses_a_report() {
    let l = match loop_device() {
        Ok(l) => l,
        Err(e) => return skip_or_fail(&e.to_string()),
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let base = ["--yes", "--no-bench", "--device", l.dev.as_str()];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        run(&a)
    };
    let report = d.join("r.txt");
    let rs = report.to_str().unwrap_or("");
    let first = with(&["--report", rs]);
    let second = with(&["--report", rs]);
    for (i, r) in [&first, &second].iter().enumerate() {
        assert!(
            r.code == 0 || r.code == 1,
            "run {i}: {}{}",
            r.stdout,
            r.stderr
        );
    }
    assert_eq!(first.code, second.code);
    for f in ["r.txt", "r.json", "r-2.txt", "r-2.json"] {
        assert!(d.join(f).is_file(), "{f} written: {}", second.stdout);
    }
    assert!(second.stdout.contains("Saved"), "{}", second.stdout);
    // The saved JSON replays to the run's exit status.
    let rep = run(&[
        "replay",
        d.join("r-2.json").to_str().unwrap_or(""),
        "--json",
    ]);
    assert_eq!(rep.code, second.code, "{}", rep.stderr);
    let v = envelope("r-2.json replay", &rep, "replay");
    assert_eq!(v["derived_as"], "wizard");
    // --report x.json: the text goes to x.txt, the JSON to x.json.
    let xj = d.join("x.json");
    let r = with(&["--report", xj.to_str().unwrap_or("")]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    let json = std::fs::read_to_string(&xj).expect("x.json");
    let saved = serde_json::from_str::<V>(&json).expect("x.json holds the JSON report");
    assert_eq!(saved["kind"], "wizard");
    if let Err(e) = support::schema::validate(&saved) {
        panic!("the wizard's saved report does not match the schema:\n{e}");
    }
    let text = std::fs::read_to_string(d.join("x.txt")).expect("x.txt");
    assert!(text.starts_with("diskdoc "), "x.txt holds the text report");
    // --report -: the text report on stdout, the conversation on stderr, no file.
    let r = with(&["--report", "-"]);
    assert!(r.stdout.starts_with("diskdoc "), "{}", r.stdout);
    text_is_a_report("--report -", &r.stdout);
    assert!(r.stderr.contains("Inspecting"), "{}", r.stderr);
    assert!(!Path::new("-").exists() || Path::new("-").is_dir());
    // A directory that does not exist: exit 2 with the reason, before anything runs.
    let r = with(&["--report", "/proc/diskdoc-no/r.txt"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("the directory /proc/diskdoc-no does not exist"),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.contains("Inspecting"), "{}", r.stdout);
    // A directory that exists but takes no file (procfs, even for root): exit 2 with the
    // reason after the run.
    let r = with(&["--report", "/proc/diskdoc-r.txt"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("could not save the report"),
        "{}",
        r.stdout
    );
    // In a pipe.
    let log = d.join("log");
    let sh = format!(
        "NO_COLOR=1 {} --yes --no-bench --device {} | tee {} >/dev/null",
        bin(),
        l.dev,
        log.display()
    );
    let st = Command::new("sh").args(["-c", &sh]).status().expect("sh");
    assert!(st.success());
    let logged = std::fs::read_to_string(&log).expect("log");
    assert!(logged.contains("The answer for"), "{logged}");
    println!("--- saving: {:?} ---", {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .expect("ls")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    });
}

/// Flags belong to the commands that use them; `--help` names the exit statuses.
#[test]
fn flags_are_scoped_and_help_names_exit_statuses() {
    let bundle = support::fixture_bundles()[0].clone();
    let b = bundle.to_str().unwrap_or("");
    for args in [
        vec!["--quick", "check"],
        vec!["--no-bench", "bench", "--device", "loop0"],
        vec!["--report", "x.txt", "replay", b],
        vec!["--yes", "scan"],
        vec!["--json", "replay", b],
        vec!["explain", "--device", "sda"],
        vec!["replay", b, "--json", "--format", "markdown"],
        vec!["replay", b, "--format", "findings"],
        vec!["bench", "--budget", "0", "--tests", "seq"],
        vec!["bench", "--budget", "-1", "--tests", "seq"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?} must be a usage error: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?} printed: {}", r.stdout);
    }
    let r = run(&["--help"]);
    assert_eq!(r.code, 0);
    for want in [
        "Exit status:",
        "0    no finding",
        "2    usage or runtime error",
        "130",
        "143  stopped by SIGTERM",
        "129  stopped by SIGHUP",
    ] {
        assert!(
            r.stdout.contains(want),
            "--help lacks {want:?}:\n{}",
            r.stdout
        );
    }
    let r = run(&["--version"]);
    assert!(
        r.stdout
            .starts_with(&format!("diskdoc {} (git ", env!("CARGO_PKG_VERSION"))),
        "{}",
        r.stdout
    );
    let r = run(&["--list-checks", "--json"]);
    let v: V = serde_json::from_str(&r.stdout).expect("--list-checks --json is JSON");
    assert!(v[0]["id"].is_string());
}

/// A format a command cannot produce is a usage error (exit 2) naming the formats it has,
/// before anything runs; the wizard with `--format prometheus` used to print nothing and
/// exit 0. The commands that have a format keep printing it.
#[test]
fn a_format_a_command_lacks_is_refused_naming_the_ones_it_has() {
    let bundle = support::fixture_bundles()[0].clone();
    let b = bundle.to_str().unwrap_or("");
    for (args, has) in [
        (
            vec!["--yes", "--no-bench", "--format", "prometheus"],
            "its formats are text, markdown, json",
        ),
        (
            vec!["--list-checks", "--format", "markdown"],
            "its formats are text, json",
        ),
        (
            vec!["--list-checks", "--format", "prometheus"],
            "its formats are text, json",
        ),
        (
            vec!["summarize", b, "--format", "prometheus"],
            "its formats are text, markdown, json",
        ),
    ] {
        let out = assert_cmd::Command::new(bin())
            .args(&args)
            .env("NO_COLOR", "1")
            .write_stdin("")
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .expect("run diskdoc");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?} printed: {stdout}");
        let asked = args[args.len() - 1];
        assert!(
            stderr.contains(&format!("has no {asked} output")) && stderr.contains(has),
            "{args:?}: {stderr}"
        );
    }
    // What a command has still works: every format of replay, --list-checks as text and
    // JSON.
    for f in ["text", "markdown", "json", "prometheus"] {
        let out = assert_cmd::Command::new(bin())
            .args(["replay", b, "--format", f])
            .output()
            .expect("run diskdoc");
        let code = out.status.code();
        assert!(
            code == Some(0) || code == Some(1),
            "replay --format {f}: {code:?}"
        );
        assert!(
            !out.stdout.is_empty(),
            "replay --format {f} printed nothing"
        );
    }
    for f in ["text", "json"] {
        assert_cmd::Command::new(bin())
            .args(["--list-checks", "--format", f])
            .assert()
            .success();
    }
}

/// docs/report.schema.json is `diskdoc schema`, and the schema is strict enough to refuse a
/// real report with one thing wrong: no `kind`, a wrong type, an unknown kind, a field
/// nobody writes, a finding without its severity.
#[test]
fn the_schema_is_in_docs_and_refuses_broken_reports() {
    let r = run(&["schema"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json"),
    )
    .expect("docs/report.schema.json");
    assert!(
        doc == r.stdout,
        "docs/report.schema.json is stale: regenerate it with `diskdoc schema > docs/report.schema.json`"
    );
    let schema: V = serde_json::from_str(&r.stdout).expect("the schema is JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );

    let bundle = support::fixture_bundles()
        .into_iter()
        .find(|b| b.to_string_lossy().contains("piix"))
        .expect("the piix fixture bundle");
    let r = run(&["replay", bundle.to_str().unwrap_or(""), "--json"]);
    let good: V = serde_json::from_str(&r.stdout).expect("replay --json");
    assert!(
        !good["findings"]
            .as_array()
            .map(Vec::is_empty)
            .unwrap_or(true),
        "the piix replay has findings to break"
    );
    support::schema::validate(&good).expect("the real report validates");

    type Break = fn(&mut V);
    let broken: [(&str, Break); 7] = [
        ("no kind", |v| {
            v.as_object_mut().map(|o| o.remove("kind"));
        }),
        ("exit_status a string", |v| v["exit_status"] = "1".into()),
        ("an unknown kind", |v| v["kind"] = "benchmark".into()),
        ("an unknown top-level field", |v| v["extra"] = true.into()),
        ("a finding without severity", |v| {
            v["findings"][0]
                .as_object_mut()
                .map(|o| o.remove("severity"));
        }),
        ("a finding with an unknown verdict", |v| {
            v["findings"][0]["verdict"] = "maybe".into()
        }),
        ("a negative evidence schema_version", |v| {
            v["evidence"]["schema_version"] = (-1).into()
        }),
    ];
    for (what, f) in broken {
        let mut v = good.clone();
        f(&mut v);
        assert_ne!(v, good, "{what}: the document changed");
        let e = support::schema::validate(&v).expect_err(what);
        assert!(!e.to_string().is_empty(), "{what}: the validator says why");
    }
    // The bundle schema: the fixture validates, and without its platform it does not.
    let mut raw: V = serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap_or_default())
        .expect("the fixture is JSON");
    support::schema::validate_bundle(&raw).expect("the fixture bundle validates");
    raw.as_object_mut().map(|o| o.remove("platform"));
    support::schema::validate_bundle(&raw).expect_err("a bundle without platform");
}

/// compare refuses two reports with no disk in common (exit 2, the reason and `--force`),
/// and compares with a loud warning when the machines differ but the disk is the same.
#[test]
fn compare_refuses_unrelated_reports_and_warns_on_other_machines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bundles = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bundles");
    let ssd = bundles.join("linux-ahci-sata-ssd.json");
    let hdd = bundles.join("linux-piix-ide-sata-hdd.json");
    let (ssd_s, hdd_s) = (ssd.to_str().unwrap_or(""), hdd.to_str().unwrap_or(""));
    // Two different sda: refused, whatever the format.
    for f in FORMATS {
        let r = run(&["compare", ssd_s, hdd_s, "--format", f]);
        assert_eq!(r.code, 2, "{f}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains("no common disk"), "{}", r.stderr);
        assert!(r.stderr.contains("--force"), "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
    // --force compares them, and says they are different disks.
    let r = run(&["compare", ssd_s, hdd_s, "--force"]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    assert!(r.stdout.contains("different disks"), "{}", r.stdout);
    // The same disk seen from two machine names: compared, with the warning.
    let v: V =
        serde_json::from_str(&std::fs::read_to_string(&ssd).expect("fixture")).expect("JSON");
    let key = "file:/proc/sys/kernel/hostname";
    assert!(
        v["captures"][key].is_object(),
        "the fixture has the host name's key"
    );
    let named = |host: &str| {
        let mut w = v.clone();
        w["captures"][key] = serde_json::json!({"status": "ok", "data": format!("{host}\n")});
        let p = dir.path().join(format!("{host}.json"));
        std::fs::write(&p, w.to_string()).expect("write");
        p.to_string_lossy().into_owned()
    };
    let (a, b) = (named("machine-a"), named("machine-b"));
    let r = run(&["compare", &a, &b]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    assert!(r.stdout.contains("different machines"), "{}", r.stdout);
    assert!(!r.stdout.contains("different disks"), "{}", r.stdout);
}

/// `diskdoc completions SHELL` prints a script, committed in contrib/completions/ under the
/// name each shell loads (the .deb installs them from there); docs/diskdoc.1 is
/// `diskdoc manpage`.
#[test]
fn completions_and_the_manual_page() {
    for (shell, file) in [
        ("bash", "diskdoc.bash"),
        ("zsh", "_diskdoc"),
        ("fish", "diskdoc.fish"),
    ] {
        let r = run(&["completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        assert!(
            r.stdout.contains("replay"),
            "{shell} completes the subcommands"
        );
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("contrib/completions")
            .join(file);
        let committed = std::fs::read_to_string(&path).expect("contrib/completions");
        assert!(
            committed == r.stdout,
            "{} is stale: regenerate it with `diskdoc completions {shell} > {}`",
            path.display(),
            path.display()
        );
    }
    let r = run(&["manpage"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains(".TH diskdoc 1") && r.stdout.contains(".TH diskdoc-replay 1"));
    // man-pages(7) sections: EXIT STATUS and EXAMPLES, not clap_mangen's "EXTRA".
    assert!(
        r.stdout.contains(".SH \"EXIT STATUS\"\n.TP\n0\n"),
        "exit status section"
    );
    assert!(!r.stdout.contains(".SH EXTRA"), "no EXTRA section");
    let examples: Vec<String> = r
        .stdout
        .split(".SH EXAMPLES\n")
        .nth(1)
        .expect("an EXAMPLES section")
        .lines()
        .take_while(|l| !l.starts_with(".SH"))
        .filter_map(|l| l.strip_prefix("\\fB")?.strip_suffix("\\fR"))
        .map(|l| l.replace("\\-", "-"))
        .collect();
    assert!(examples.len() >= 6, "{examples:?}");
    // Every example is a command line diskdoc accepts: with --help appended clap parses the
    // arguments before it (an unknown flag or value fails) and runs nothing.
    for e in &examples {
        let mut argv: Vec<&str> = e.split_whitespace().skip(1).collect();
        argv.push("--help");
        let h = run(&argv);
        assert_eq!(h.code, 0, "example `{e}` does not parse: {}", h.stderr);
    }
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diskdoc.1"))
        .expect("docs/diskdoc.1");
    assert!(
        doc == r.stdout,
        "docs/diskdoc.1 is stale: regenerate it with `diskdoc manpage > docs/diskdoc.1`"
    );
}
