//! Build script: the git commit of this build for `diskdoc --version` (ripgrep's build.rs
//! does the same; without git, a crates.io tarball, the hash is "unknown"), and the
//! test-suite switches, so that a test that cannot run here shows up as "ignored" in cargo's
//! summary instead of passing silently:
//! - `diskdoc_ci`: CI=true (.ci/run). Everything runs and a missing capability is a failure.
//! - `diskdoc_lab`: DISKDOC_LAB=1. The QEMU lab runs outside CI too (it boots guests and
//!   may download a kernel, so it never runs by accident).
//! - `diskdoc_root`: the build runs as root (real loop/zram devices can be made).
//!
//! Cargo reruns this when the variables change, so `CI=true cargo test` rebuilds the tests.

use std::process::Command;

fn main() {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let hash = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=DISKDOC_GIT_HASH={hash}");
    // Rebuild when HEAD moves (a worktree's git dir is elsewhere: ask git where).
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/refs");
    }
    println!("cargo:rerun-if-changed=crates/diskdoc/build.rs");
    test_switches();
}

fn test_switches() {
    println!("cargo::rustc-check-cfg=cfg(diskdoc_ci)");
    println!("cargo::rustc-check-cfg=cfg(diskdoc_lab)");
    println!("cargo::rustc-check-cfg=cfg(diskdoc_root)");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=DISKDOC_LAB");
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        println!("cargo::rustc-cfg=diskdoc_ci");
    }
    if std::env::var("DISKDOC_LAB").is_ok_and(|v| v == "1") {
        println!("cargo::rustc-cfg=diskdoc_lab");
    }
    // /proc/self/status "Uid: real effective saved fs" (proc(5)); no libc needed here.
    let root = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|e| e == "0"))
        })
        .unwrap_or(false);
    if root {
        println!("cargo::rustc-cfg=diskdoc_root");
    }
}
