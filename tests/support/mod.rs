//! Test-only helpers shared by integration tests: materialise a fake sysfs tree
//! (tests/fixtures/sysfs/*.tree, format in its README.md) and capture it into an evidence
//! bundle through the real Linux probe (`LiveHost::with_root` -> `probe::linux::collect`).
//! tests/linux_sysfs.rs drives the same trees through `build_tree`.

#![allow(dead_code)]

pub mod recording;

use std::path::Path;
use std::process::Command;

use diskdoc_core::evidence::{Capture, EvidenceBundle, Origin};
use diskdoc_core::sources::ata_identify::{encode_string, format_sysfs_id};
use diskdoc_sys::host::LiveHost;
use diskdoc_sys::probe::{self, ProbeOptions};

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

/// Run a command that must succeed; its trimmed stdout (stderr in the panic otherwise).
pub fn sh(argv: &[&str]) -> String {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .output()
        .unwrap_or_else(|e| panic!("{argv:?}: {e}"));
    assert!(
        out.status.success(),
        "{argv:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
