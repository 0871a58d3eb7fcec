//! Test-only helpers shared by integration tests: materialise a fake sysfs tree
//! (tests/fixtures/sysfs/*.tree, format in its README.md) and capture it into an evidence
//! bundle through the real Linux probe (`LiveHost::with_root` -> `probe::linux::collect`).
//! tests/it/linux_sysfs.rs drives the same trees through `build_tree`.

#![allow(dead_code)]

pub mod error;
pub mod pty;
pub mod recording;
pub mod schema;

pub use error::SupportError;
pub(crate) use error::{malformed, mismatch, missing};

/// The check ids issue 17 added (the causes of slowness on today's hardware), for the tests
/// that assert healthy machines stay silent on all of them.
pub const HARDWARE_IDS: [&str; 8] = [
    "pcie-link-limited",
    "nvme-health",
    "thermal-throttling",
    "power-management",
    "trim-unavailable",
    "smr-drive",
    "array-rebuilding",
    "disk-busy",
];

/// NOT A CAPTURE: `nvmecontrol logpage -p 2` in sbin/nvmecontrol/logpage.c
/// print_log_health()'s layout (no public capture was found), with the given critical
/// warning byte ("0x04": reliability degraded) and media error count.
pub fn nvmecontrol_health_log(critical: &str, media_errors: u32) -> String {
    format!(
        "SMART/Health Information Log\n============================\nCritical Warning State:         {critical}\n Available spare:               0\n Temperature:                   0\n Device reliability:            1\n Read only:                     0\n Volatile memory backup:        0\nTemperature:                    318 K, 44.85 C, 112.73 F\nAvailable spare:                100\nAvailable spare threshold:      10\nPercentage used:                3\nMedia errors:                   {media_errors}\n"
    )
}

use std::path::Path;

use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin};
use diskdoc_core::sources::ata_identify::{encode_string, format_sysfs_id};
use diskdoc_sys::host::LiveHost;
use diskdoc_sys::probe::{self, ProbeOptions};

/// Held by every test that changes vm.nr_hugepages (the fio comparison script, the printed
/// fio lines): each raises the count and restores it when done, so two at once would take
/// the pages from under the other's fio (mmap ENOMEM).
pub static HUGE_PAGES: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Take [`HUGE_PAGES`], also after another test panicked while holding it.
pub fn huge_pages_lock() -> std::sync::MutexGuard<'static, ()> {
    HUGE_PAGES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every evidence bundle in tests/fixtures/bundles, sorted: the replay tests' set.
pub fn fixture_bundles() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bundles");
    let mut v: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/bundles")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

pub fn manifest(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn unescape(s: &str) -> String {
    s.replace("\\n", "\n").replace("\\t", "\t")
}

/// Materialise a .tree description under `root` (panics on a malformed tree: test data).
pub fn build_tree(tree: &str, root: &Path) {
    for (no, line) in tree.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, rest) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("line {}: {line}", no + 1));
        let (path, arg) = rest.split_once(' ').unwrap_or((rest, ""));
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        match kind {
            "F" => std::fs::write(&p, format!("{}\n", unescape(arg))).unwrap(),
            "D" => std::fs::create_dir_all(&p).unwrap(),
            "L" => std::os::unix::fs::symlink(arg, &p).unwrap(),
            "W" => {
                let mut w = vec![0u16; 256];
                for tok in arg.split_whitespace() {
                    let (k, v) = tok.split_once('=').unwrap();
                    let text = v.replace('_', " ");
                    match k {
                        "model" => w[27..47].copy_from_slice(&encode_string(&text, 20)),
                        "serial" => w[10..20].copy_from_slice(&encode_string(&text, 10)),
                        "fw" => w[23..27].copy_from_slice(&encode_string(&text, 4)),
                        n => w[n.parse::<usize>().unwrap()] = u16::from_str_radix(v, 16).unwrap(),
                    }
                }
                std::fs::write(&p, format_sysfs_id(&w)).unwrap();
            }
            other => panic!("line {}: unknown kind {other}", no + 1),
        }
    }
}

/// Capture tests/fixtures/sysfs/`tree` through the Linux probe (no tools), normalised so
/// the JSON is stable: no timestamps, no elapsed times, origin `hand`, and no trace of the
/// temporary directory in any recorded detail.
pub fn capture_tree(tree: &str) -> EvidenceBundle {
    let text = std::fs::read_to_string(manifest(&format!("tests/fixtures/sysfs/{tree}"))).unwrap();
    let dir = tempfile::tempdir().unwrap();
    build_tree(&text, dir.path());
    let mut host = LiveHost::with_root(dir.path());
    probe::linux::collect(&mut host, &ProbeOptions::default());
    let mut b = host.into_bundle();
    let root = dir.path().display().to_string();
    b.origin = Origin::Hand;
    b.captured_at_unix = 0;
    b.diskdoc_version = "hand".to_string();
    for cap in b.captures.values_mut() {
        match cap {
            Capture::Ok {
                data,
                stderr,
                elapsed_ms,
                ..
            } => {
                *elapsed_ms = 0;
                *data = data.replace(&root, "");
                *stderr = stderr.replace(&root, "");
            }
            Capture::Unavailable { detail, .. } => *detail = detail.replace(&root, ""),
        }
    }
    b
}

/// Reset and remove zram device `id` (the number in zramN) that a test hot-added. udev may
/// hold the device open for a moment after the test's last close (the "change" event a write
/// or mkfs triggers), so reset fails with EBUSY: retry for up to a second rather than leave
/// the device behind.
pub fn remove_zram(id: &str) {
    for _ in 0..20 {
        if !Path::new(&format!("/sys/block/zram{id}")).exists() {
            return; // removed (hot_remove resets a device it can remove)
        }
        let reset = std::fs::write(format!("/sys/block/zram{id}/reset"), "1");
        let removed = std::fs::write("/sys/class/zram-control/hot_remove", id);
        if reset.is_ok() && removed.is_ok() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    eprintln!("warning: could not remove zram{id} (still busy)");
}

/// Run a command that must succeed (argv form); its trimmed stdout (see [`run`]).
pub fn sh(argv: &[&str]) -> String {
    run(argv[0], &argv[1..]).trim().to_string()
}

/// CI=true: a missing capability fails a device test instead of skipping it.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// True when `why` is None; otherwise the test prints why it skips (or panics under CI).
pub fn capable(test: &str, why: Option<&str>) -> bool {
    match why {
        None => true,
        Some(w) if ci() => panic!("{test}: CI=true but {w}"),
        Some(w) => {
            eprintln!("skipping {test}: {w}");
            false
        }
    }
}

/// `bin args` in a new UTS namespace whose host name is `host` (unshare(1) --uts, then
/// hostname(1) inside it; needs root), not yet run.
pub fn in_uts(host: &str, bin: &str, args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new("unshare");
    cmd.args([
        "--uts",
        "--",
        "sh",
        "-c",
        "hostname \"$0\" && exec \"$@\"",
        host,
    ])
    .arg(bin)
    .args(args);
    cmd
}

/// Run a diskdoc command that must exit 0 or 1 (1: findings); its stdout, or a panic with
/// the command, the status and stderr.
pub fn stdout_of_0_or_1(cmd: &mut std::process::Command) -> String {
    let out = cmd.output().unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "{cmd:?} exited {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every `.txt` file below `dirs`, sorted.
pub fn txt_files(dirs: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = dirs.to_vec();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("fixture dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "txt") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Run a helper tool; its stdout, or a panic naming the command and its stderr.
pub fn run(cmd: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(cmd)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
    assert!(
        out.status.success(),
        "{cmd} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Hot-add a zram device of `size` (e.g. "64M") and return its number; `None` when zram is
/// not available. Remove it with [`remove_zram`].
pub fn add_zram(size: &str) -> Option<u32> {
    if !Path::new("/sys/class/zram-control/hot_add").exists() {
        let _ = std::process::Command::new("modprobe")
            .args(["zram", "num_devices=0"])
            .status();
    }
    let id: u32 = std::fs::read_to_string("/sys/class/zram-control/hot_add")
        .ok()?
        .trim()
        .parse()
        .ok()?;
    if std::fs::write(format!("/sys/block/zram{id}/disksize"), size).is_err() {
        remove_zram(&id.to_string());
        return None;
    }
    Some(id)
}

/// Write a GPT with two 24 MiB partitions into the image file `img` (sfdisk(8) script).
pub fn write_gpt_two_partitions(img: &Path) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut sf = Command::new("sfdisk")
        .args(["-q", img.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    writeln!(
        sf.stdin.take().unwrap(),
        "label: gpt\nsize=24MiB\nsize=24MiB"
    )
    .unwrap();
    assert!(sf.wait().unwrap().success());
}

/// Wait up to half a second for partition node `last` of loop device `dev` (attached with
/// -P); a kernel built without partition parsers (CONFIG_EFI_PARTITION unset, as on the VMs
/// here) scans nothing, so then partx(8) reads the table and adds the partitions (BLKPG).
pub fn partitions_of(dev: &str, last: &str) {
    let t0 = std::time::Instant::now();
    while !Path::new(last).exists() && t0.elapsed() < std::time::Duration::from_millis(500) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if !Path::new(last).exists() {
        sh(&["partx", "-a", dev]);
    }
}

/// `diskdoc explain` of one pasted text (panics with the text when explain refuses it).
pub fn explain_text(text: &str) -> diskdoc_core::explain::Explanation {
    diskdoc_core::explain::explain(&[diskdoc_core::explain::Input {
        label: "paste".into(),
        bytes: text.as_bytes().to_vec(),
    }])
    .unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// The checks with a problem at notice or above in an explanation (the corpus's strict
/// rule).
pub fn problem_ids(ex: &diskdoc_core::explain::Explanation) -> std::collections::BTreeSet<String> {
    ex.findings
        .iter()
        .filter(|f| {
            f.verdict == diskdoc_core::checks::Verdict::Problem
                && f.severity >= diskdoc_core::checks::Severity::Notice
        })
        .map(|f| f.check.clone())
        .collect()
}

/// The cases of `cases` (a fixture under `tests/fixtures/{dir}`, the problem ids at notice
/// or above it must give, exactly) whose answer differs, read plain and quoted ("> ") as a
/// mail reply carries them: one line per wrong answer.
pub fn wrong_expert_answers(dir: &str, cases: &[(&str, &[&str])]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (rel, want) in cases {
        let want: std::collections::BTreeSet<String> = want.iter().map(|s| s.to_string()).collect();
        let path = manifest(&format!("tests/fixtures/{dir}{rel}"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let quoted: String = text.lines().map(|l| format!("> {l}\n")).collect();
        for (mode, t) in [("plain", text.clone()), ("quoted", quoted)] {
            let got = problem_ids(&explain_text(&t));
            if got != want {
                wrong.push(format!("{rel} ({mode}): want {want:?}, got {got:?}"));
            }
        }
    }
    wrong
}
