//! Issue 17 on replayed bundles: the PCIe bench-ceiling tie from real `diskdoc bench` numbers
//! (tests/fixtures/bench-link/README.md says how they were made), and the healthy NVMe and
//! SATA SSD guests of the QEMU lab (tests/fixtures/qemu-sysfs) silent on all eight ids.

use std::path::Path;

use diskdoc_core::checks::{self, Confidence, Finding, Severity, Verdict};
use diskdoc_core::evidence::{Capture, EvidenceBundle, Unavailable};
use diskdoc_core::facts;

use crate::support;
use support::HARDWARE_IDS as IDS;

fn findings(rel: &str) -> Vec<Finding> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    let b = EvidenceBundle::load(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    checks::run_all(&facts::derive(&b))
}

fn one<'a>(fs: &'a [Finding], id: &str, dev: &str) -> &'a Finding {
    fs.iter()
        .find(|f| f.check == id && f.device == dev)
        .unwrap_or_else(|| panic!("no {id} on {dev}: {fs:#?}"))
}

#[test]
fn reads_at_the_slow_link_are_tied_to_it() {
    let fs = findings("bench-link/nvme-slow-link-reads-at-ceiling.json");
    let f = one(&fs, "pcie-link-limited", "nvme0n1");
    assert_eq!(
        (f.verdict, f.severity),
        (Verdict::Problem, Severity::Warning)
    );
    assert_eq!(
        f.title,
        "nvme0n1: reads stop at 237.3 MB/s, the 2.5 GT/s x1 link's ceiling (250.0 MB/s)"
    );
    assert!(
        f.explanation.contains("95 % of the 250.0 MB/s"),
        "{}",
        f.explanation
    );
    assert!(f.explanation.contains("the measurement hit the link"));
    assert_eq!(f.confidence, Confidence::High);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == "benchmark:seq-read" && e.value == "237.3 MB/s"),
        "{:?}",
        f.evidence
    );
}

#[test]
fn reads_faster_than_the_link_are_not_blamed_on_it() {
    let fs = findings("bench-link/nvme-slow-link-reads-past-ceiling.json");
    let f = one(&fs, "pcie-link-limited", "nvme0n1");
    assert_eq!(
        (f.verdict, f.severity),
        (Verdict::Problem, Severity::Warning)
    );
    assert!(f.title.contains("far below an NVMe drive"), "{}", f.title);
    assert!(
        f.explanation
            .contains("measured 381.4 MB/s, more than the 250.0 MB/s this link can carry"),
        "{}",
        f.explanation
    );
    assert!(!f.explanation.contains("hit the link"));
    assert_eq!(f.confidence, Confidence::Medium);
}

#[test]
fn without_a_benchmark_the_link_rule_alone_speaks() {
    // The lab bundle the two above were built from.
    let fs = findings("qemu-sysfs/nvme-slow-link/nvme0n1/evidence.json");
    let f = one(&fs, "pcie-link-limited", "nvme0n1");
    assert!(f.title.contains("far below an NVMe drive"), "{}", f.title);
    assert!(!f.explanation.contains("read test"), "{}", f.explanation);
}

#[test]
fn healthy_nvme_and_sata_ssd_guests_are_silent() {
    // nonsata/nvme0n1: QEMU's nvme on pcie.0 (no link of its own); sata-ssd-alpm: two AHCI
    // SSDs (rotation_rate=1) with ALPM med_power_with_dipm and discard reaching the guest.
    for (rel, dev) in [
        ("qemu-sysfs/nonsata/nvme0n1/evidence.json", "nvme0n1"),
        ("qemu-sysfs/sata-ssd-alpm/sda/evidence.json", "sda"),
        ("qemu-sysfs/sata-ssd-alpm/sdb/evidence.json", "sdb"),
    ] {
        let fs = findings(rel);
        let mine: Vec<&Finding> = fs.iter().filter(|f| f.device == dev).collect();
        assert!(!mine.is_empty(), "{rel}: no finding about {dev} at all");
        for f in &mine {
            if IDS.contains(&f.check.as_str()) {
                assert!(
                    f.verdict != Verdict::Problem,
                    "{rel}: {} fired: {}",
                    f.check,
                    f.title
                );
            }
        }
        // Silent because they looked, not because nothing ran: these pass on every SSD.
        let looked: &[&str] = if dev.starts_with("nvme") {
            &[
                "trim-unavailable",
                "power-management",
                "nvme-health",
                "thermal-throttling",
            ]
        } else {
            &["trim-unavailable", "power-management"]
        };
        for id in looked {
            assert!(
                mine.iter()
                    .any(|f| f.check == *id && f.verdict == Verdict::Pass),
                "{rel}: no {id} pass: {mine:#?}"
            );
        }
    }
}

/// linux-ahci-sata-ssd.json with the fstrim.timer capture replaced: `edit` gets the bundle.
fn ahci_ssd_findings(edit: impl FnOnce(&mut EvidenceBundle)) -> Vec<Finding> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bundles/linux-ahci-sata-ssd.json");
    let mut b = EvidenceBundle::load(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    edit(&mut b);
    checks::run_all(&facts::derive(&b))
}

const WANTS: &str = "file:/etc/systemd/system/timers.target.wants/fstrim.timer";

#[test]
fn an_enabled_fstrim_timer_keeps_the_ssd_silent() {
    // The tree is a Debian 12 machine: util-linux's fstrim.timer is enabled there.
    let fs = ahci_ssd_findings(|_| {});
    let f = one(&fs, "trim-unavailable", "sda");
    assert_eq!(f.verdict, Verdict::Pass, "{}", f.title);
    assert!(
        f.explanation
            .contains("Trimmed by: fstrim.timer enabled (timers.target wants it)"),
        "{}",
        f.explanation
    );
}

#[test]
fn without_the_timer_the_ssd_filesystem_was_never_trimmed() {
    // What the probe records on a machine without the link: NotFound.
    let fs = ahci_ssd_findings(|b| {
        b.captures.insert(
            WANTS.into(),
            Capture::unavailable(Unavailable::NotFound, "No such file or directory"),
        );
    });
    let f = one(&fs, "trim-unavailable", "sda");
    assert_eq!(
        (f.verdict, f.severity),
        (Verdict::Problem, Severity::Notice)
    );
    assert_eq!(f.title, "sda: filesystems never trimmed (/data)");
    assert!(f.fixes.iter().any(|x| {
        x.steps
            .iter()
            .any(|s| s.contains("systemctl enable --now fstrim.timer"))
    }));
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == WANTS && e.value == "fstrim.timer not enabled")
    );
    // An ext4 mounted with discard (a superblock option in mountinfo) is trimmed online.
    let fs = ahci_ssd_findings(|b| {
        b.captures.insert(
            WANTS.into(),
            Capture::unavailable(Unavailable::NotFound, "No such file or directory"),
        );
        let key = "file:/proc/self/mountinfo";
        let mi = b
            .captures
            .get(key)
            .and_then(|c| c.data())
            .unwrap_or_default()
            .to_string();
        assert!(mi.contains(" /data rw,noatime - ext4 /dev/sda1 rw"), "{mi}");
        b.captures.insert(
            key.into(),
            Capture::ok(mi.replace("/dev/sda1 rw", "/dev/sda1 rw,discard")),
        );
    });
    let f = one(&fs, "trim-unavailable", "sda");
    assert_eq!(f.verdict, Verdict::Pass, "{}: {}", f.title, f.explanation);
    assert!(
        f.explanation.contains("online discard on /data"),
        "{}",
        f.explanation
    );
}

#[test]
fn a_systemctl_answer_wins_over_the_wants_link() {
    // `systemctl is-enabled fstrim.timer` printing "disabled" (exit 1): not enabled, even
    // though the link file was captured (a stale link systemctl does not count).
    let fs = ahci_ssd_findings(|b| {
        b.captures.insert(
            "cmd:systemctl is-enabled fstrim.timer".into(),
            Capture::Ok {
                data: "disabled\n".into(),
                stderr: String::new(),
                exit_code: Some(1),
                elapsed_ms: 0,
            },
        );
    });
    let f = one(&fs, "trim-unavailable", "sda");
    assert_eq!(f.verdict, Verdict::Problem, "{}", f.explanation);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.source == "cmd:systemctl is-enabled fstrim.timer")
    );
}

/// The Linux probe asks `zpool get autotrim` (trim-unavailable's ZFS gap) only with
/// `--tools` and only when the zfs module is loaded, next to `zpool status`.
#[test]
fn linux_probe_asks_zpool_autotrim_only_with_zfs_loaded() {
    use diskdoc_core::evidence::{Origin, Platform, SourceKey};
    use diskdoc_sys::probe::ProbeOptions;
    let autotrim = "cmd:zpool get -H -o name,property,value autotrim".to_string();
    let mut b = EvidenceBundle::new(Platform::Linux, Origin::Hand);
    let tools = ProbeOptions {
        device: None,
        with_tools: true,
    };
    let asked = support::recording::asked_keys(&b, &tools);
    assert!(
        !asked.iter().any(|k| k.starts_with("cmd:zpool")),
        "{asked:?}"
    );
    // The module's version file (made-up content: the probe only asks that it exists).
    b.insert(
        &SourceKey::File("/sys/module/zfs/version".into()),
        Capture::ok("2.1.11-1\n"),
    );
    let asked = support::recording::asked_keys(&b, &tools);
    let zpool: Vec<&String> = asked
        .iter()
        .filter(|k| k.starts_with("cmd:zpool"))
        .collect();
    assert_eq!(zpool, [&"cmd:zpool status".to_string(), &autotrim]);
    let plain = support::recording::asked_keys(
        &b,
        &ProbeOptions {
            device: None,
            with_tools: false,
        },
    );
    assert!(!plain.contains(&autotrim));
    // With a pool in zpool status, its OpenZFS trim timers' links are looked for.
    b.insert(
        &SourceKey::cmd(&["zpool", "status"]),
        Capture::ok(
            "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  sdb       ONLINE       0     0     0\n",
        ),
    );
    let asked = support::recording::asked_keys(&b, &tools);
    for every in ["weekly", "monthly"] {
        let k = format!("file:/etc/systemd/system/timers.target.wants/zfs-trim-{every}@tank.timer");
        assert!(asked.contains(&k), "{k} not asked: {asked:?}");
    }
}
