//! Every fixture under tests/fixtures/{linux,other} and the FreeBSD smartctl, dd, fio,
//! zpool-status, iostat and gstat fixtures through its parser, with exact asserts on the
//! INDEX.md labels. Plus a proptest feeding mutated/truncated fixture text to every parser.

use std::path::{Path, PathBuf};

use diskdoc::facts::text::{kernel_log, smartctl};
use diskdoc::facts::{DiskFacts, KernelEventKind};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fx(rel: &str) -> String {
    let p = root().join(rel);
    match std::fs::read(&p) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => panic!("fixture {} unreadable: {e}", p.display()),
    }
}

fn smart(rel: &str) -> DiskFacts {
    let mut d = DiskFacts::new("sda", "/dev/sda");
    smartctl::apply(&mut d, "cmd:smartctl", &fx(rel));
    d
}

fn count(ev: &[diskdoc::facts::KernelEvent], k: KernelEventKind) -> usize {
    ev.iter().filter(|e| e.kind == k).count()
}

// ------------------------------------------------------------------ smartctl text

#[test]
fn smartctl_hgst_pending_8_sata26_3g_512e() {
    let d = smart("freebsd/smartctl/x-hdd-5400rpm-hgst-apple-sata2.6-3gbps-512e-fbsd13.1.txt");
    let s = d.smart.value().cloned().unwrap_or_default();
    assert_eq!(s.pending_sectors, Some(8));
    assert_eq!(s.reallocated_sectors, Some(0));
    assert_eq!(s.udma_crc_errors, Some(0));
    assert_eq!(s.power_on_hours, Some(4465));
    assert_eq!(s.health_passed, Some(true));
    assert_eq!(s.error_log_count, Some(1));
    assert_eq!(
        d.model.value().map(String::as_str),
        Some("APPLE HDD HTS541010A9E632")
    );
    assert!(
        !d.serial.is_known(),
        "anonymised serial '--' must stay unknown"
    );
    assert_eq!(d.firmware.value().map(String::as_str), Some("JA0AB5N0"));
    assert_eq!(d.rotation_rpm.get(), Some(5400));
    assert_eq!(d.rotational.get(), Some(true));
    assert_eq!(d.logical_sector_bytes.get(), Some(512));
    assert_eq!(d.physical_sector_bytes.get(), Some(4096));
    assert_eq!(d.link_drive_max_gbps.get(), Some(3.0));
    assert_eq!(d.link_current_gbps.get(), Some(3.0));
    assert_eq!(d.write_cache_enabled.get(), Some(true));
    assert_eq!(d.size_bytes.get(), Some(1_000_204_886_016));
    assert_eq!(d.smart.sources(), ["cmd:smartctl".to_string()]);
}
