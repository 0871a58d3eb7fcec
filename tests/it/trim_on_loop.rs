//! Issue 17 on a real device: an ext4 filesystem on a loop device over an image file
//! (loop devices take discards: drivers/block/loop.c punches holes in the backing file),
//! mounted without and then with `discard`, scanned by the built binary. The trim facts
//! must say what this machine says about its own fstrim.timer (asked here with systemctl
//! directly) and what mountinfo says about the mount.
//!
//! Needs root, losetup, mkfs.ext4 and mount; without them the test prints why it skips,
//! unless CI=true, where a missing capability is a failure.

use crate::support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_diskdoc");

fn need(test: &str) -> bool {
    let have = |t: &str| {
        ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
            .iter()
            .any(|d| Path::new(d).join(t).is_file())
    };
    let why = if !nix::unistd::geteuid().is_root() {
        Some("not root")
    } else if !Path::new("/dev/loop-control").exists() {
        Some("no /dev/loop-control (loop module not loaded)")
    } else if !have("losetup") || !have("mkfs.ext4") || !have("mount") {
        Some("losetup, mkfs.ext4 or mount is not installed")
    } else {
        None
    };
    support::capable(test, why)
}

/// The loop device, its image and the mount point; unmounted and detached on drop.
struct Mounted {
    dev: String,
    mnt: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Mounted {
    fn new() -> Mounted {
        let dir = tempfile::tempdir().expect("temp dir");
        let img = dir.path().join("fs.img");
        std::fs::File::create_new(&img)
            .and_then(|f| f.set_len(64 << 20))
            .expect("image file");
        let dev = support::sh(&["losetup", "--find", "--show", img.to_str().unwrap_or("")]);
        assert!(dev.starts_with("/dev/loop"), "{dev}");
        let mnt = dir.path().join("mnt");
        std::fs::create_dir(&mnt).expect("mount point");
        let m = Mounted {
            dev,
            mnt,
            _dir: dir,
        };
        support::sh(&["mkfs.ext4", "-q", "-F", &m.dev]);
        m
    }
    fn mount(&self, opts: &str) {
        let _ = Command::new("umount").arg(&self.mnt).output();
        support::sh(&[
            "mount",
            "-t",
            "ext4",
            "-o",
            opts,
            &self.dev,
            self.mnt.to_str().unwrap_or(""),
        ]);
    }
    fn name(&self) -> &str {
        self.dev.trim_start_matches("/dev/")
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.mnt).output();
        let _ = Command::new("losetup").args(["-d", &self.dev]).output();
    }
}

fn fs_trim(m: &Mounted) -> Value {
    let out = Command::new(BIN)
        .args(["scan", "--json", "--device", &m.dev])
        .output()
        .expect("run diskdoc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("scan JSON");
    let disk = v["system"]["disks"]
        .as_array()
        .and_then(|ds| ds.iter().find(|d| d["name"] == m.name()))
        .unwrap_or_else(|| panic!("no {} in the scan", m.name()))
        .clone();
    // The loop device reports discard support, so the trim path itself is there.
    assert_eq!(
        disk["trim"]["discard_max_bytes"]["state"], "known",
        "{disk}"
    );
    assert!(
        disk["trim"]["discard_max_bytes"]["value"].as_u64() > Some(0),
        "{disk}"
    );
    assert_eq!(
        disk["trim"]["fs_trim"]["state"], "known",
        "{}",
        disk["trim"]["fs_trim"]
    );
    disk["trim"]["fs_trim"]["value"].clone()
}

#[test]
#[cfg_attr(
    not(any(diskdoc_ci, diskdoc_root)),
    ignore = "needs root and real devices (loop, zram, tmux): runs as root or with CI=true"
)]
fn loop_ext4_trim_paths_are_read_live() {
    if !need("loop_ext4_trim_paths_are_read_live") {
        return;
    }
    let m = Mounted::new();
    let mnt = m.mnt.to_string_lossy().to_string();
    // This machine's own answer, asked directly (systemctl(1) is-enabled).
    let timer = Command::new("systemctl")
        .args(["is-enabled", "fstrim.timer"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let cron = ["daily", "weekly", "monthly"]
        .iter()
        .any(|p| Path::new(&format!("/etc/cron.{p}/fstrim")).exists())
        || Path::new("/etc/cron.d/fstrim").exists();

    m.mount("rw,noatime");
    let t = fs_trim(&m);
    let list = |k: &str| -> Vec<String> {
        t[k].as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(list("without_discard"), vec![mnt.clone()], "{t}");
    assert!(list("online").is_empty(), "{t}");
    let periodic = t["periodic"].as_array().cloned().unwrap_or_default();
    let says = |w: &str| {
        periodic
            .iter()
            .any(|p| p["what"].as_str().is_some_and(|s| s.contains(w)))
    };
    assert_eq!(
        says("fstrim.timer enabled"),
        timer == "enabled" || timer == "enabled-runtime",
        "systemctl says {timer:?}; diskdoc: {t}"
    );
    assert_eq!(says("cron job"), cron, "{t}");
    eprintln!("without discard: {t}");

    m.mount("rw,noatime,discard");
    let t = fs_trim(&m);
    let online: Vec<String> = t["online"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(online, vec![mnt], "{t}");
    eprintln!("with discard: {t}");
}
