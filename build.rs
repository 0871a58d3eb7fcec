//! Build-time switches for the test suite, so that a test that cannot run here shows up as
//! "ignored" in cargo's summary instead of passing silently:
//! - `diskdoc_ci`: CI=true (.ci/run). Everything runs and a missing capability is a failure.
//! - `diskdoc_lab`: DISKDOC_LAB=1. The QEMU lab runs outside CI too (it boots guests and
//!   may download a kernel, so it never runs by accident).
//! - `diskdoc_root`: the build runs as root (real loop/zram devices can be made).
//!
//! Cargo reruns this when the variables change, so `CI=true cargo test` rebuilds the tests.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(diskdoc_ci)");
    println!("cargo::rustc-check-cfg=cfg(diskdoc_lab)");
    println!("cargo::rustc-check-cfg=cfg(diskdoc_root)");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=DISKDOC_LAB");
    println!("cargo::rerun-if-changed=build.rs");
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
