//! `encryption-bound`: reading through a dm-crypt/LUKS/GELI layer is much slower than
//! reading the disk below it, so the cipher (CPU) and not the disk sets the speed. Without
//! AES-NI, software AES-XTS manages only on the order of 100-200 MB/s per core.

use super::measured_common::{CiteResult, mbps, pass, per_disk, problem};
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::evidence::TestName;
use crate::facts::SystemFacts;

pub(crate) struct EncryptionBound;

fn is_crypt_label(label: &str) -> bool {
    let l = label.to_ascii_lowercase();
    l.starts_with("luks")
        || l.starts_with("dm-crypt")
        || l.starts_with("dmcrypt")
        || l.starts_with("geli")
        || l.contains(".eli")
}

impl Check for EncryptionBound {
    fn input(&self) -> CheckInput {
        CheckInput::Measured
    }
    fn id(&self) -> &'static str {
        "encryption-bound"
    }
    fn summary(&self) -> &'static str {
        "Reads through the encryption layer are much slower than from the disk: the cipher is the bottleneck"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = measured(self, sys);
        out.extend(pasted_mapping_reads(self.id(), sys));
        out.extend(pasted_cipher_speed(self.id(), sys));
        out.extend(software_aes(self.id(), sys));
        out
    }
}

/// Below this share of the disk's read, a read through an encryption layer is held back by
/// its cipher: the layer then costs more than a disk's own variation between runs and the
/// layer's bookkeeping explain (diskdoc's own layer-cost runs and pasted reads alike).
const CRYPT_SHARE: f64 = 0.7;

/// Pasted sequential reads (hdparm -t, a large-block dd; `below_expected_for_class::
/// best_pasted_reads`) of a device-mapper node that only an encrypting tool names
/// (sources::dmsetup::is_crypt_mapping_name: truecryptN, veracryptN, luks-UUID,
/// sdXN_crypt) beside pasted reads of whole disks: the mapping sits on one of those disks (or
/// on a partition or LVM volume of one), so reading it at well under the slowest of them is
/// the cipher's cost, decrypting every block on the CPU.
fn pasted_mapping_reads(id: &str, sys: &SystemFacts) -> Vec<Finding> {
    use super::below_expected_for_class::best_pasted_reads;
    let crypt = best_pasted_reads(sys, |d| {
        d.strip_prefix("mapper/")
            .is_some_and(crate::sources::dmsetup::is_crypt_mapping_name)
    });
    let disks = best_pasted_reads(sys, |d| crate::facts::device_names::whole_disk(d) == d);
    let Some(slowest) = disks
        .iter()
        .min_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (dev, rate, b) in crypt {
        let share = rate / slowest.1;
        let name = dev.trim_start_matches("mapper/");
        if share >= CRYPT_SHARE {
            continue;
        }
        let others: Vec<String> = disks
            .iter()
            .map(|(d, r, _)| format!("/dev/{d} {}", mbps(*r)))
            .collect();
        out.push(
            Finding::new(
                id,
                name,
                Verdict::Problem,
                Severity::Warning,
                format!(
                    "the encrypted mapping {name} reads at {}, {:.0} % of the slowest disk here ({})",
                    mbps(rate),
                    share * 100.0,
                    mbps(slowest.1)
                ),
            )
            .explain(format!(
                "/dev/mapper/{name} is a dm-crypt mapping (its name is the one an encrypting tool \
                 gives: TrueCrypt/VeraCrypt, LUKS via udisks or systemd, or the installer's \
                 _crypt). It read at {} while the whole disks of the same paste read at {}: \
                 whichever of them holds it, reading through the mapping costs 30 % or more of \
                 the disk's speed, which is the CPU decrypting every block. A CPU without AES \
                 instructions (or a kernel not using them), a cascade of ciphers (TrueCrypt's \
                 AES-Twofish-Serpent) or an old single-threaded dm-crypt (before Linux 2.6.38) \
                 does that. `cryptsetup benchmark` shows what the CPU deciphers per second; \
                 /proc/crypto shows whether an accelerated xts(aes) driver is in use.",
                mbps(rate),
                others.join(", ")
            ))
            .confidence(Confidence::Medium)
            .evidence(b.from.clone(), format!("{}: {}", b.tool, mbps(rate)))
            .evidence(
                slowest.2.from.clone(),
                format!("{}: {}", slowest.2.tool, mbps(slowest.1)),
            )
            .impact((1.0 - share).clamp(0.0, 1.0)),
        );
    }
    out
}

/// The kernel's xts(aes) is the plain C or assembler implementation: crypto/aes_generic.c
/// registers "aes-generic" (priority 100) and the xts template wraps it as
/// "xts(ecb(aes-generic))"; the old x86 assembler one is "aes-asm" (priority 200). An
/// accelerated driver (aesni_intel's "xts-aes-aesni", priority 401; ARMv8's "xts-aes-ce")
/// would outrank both, so this choice means the CPU (often a VM whose CPU model hides the
/// aes flag) offers none. xts(aes) appears in /proc/crypto once dm-crypt or another user
/// has instantiated it, so some volume uses it, and software AES-XTS decrypts only some
/// 100-200 MB/s per core.
fn software_aes(id: &str, sys: &SystemFacts) -> Option<Finding> {
    let drv = sys.aes_driver.value()?;
    if !(drv.contains("aes-generic") || drv.contains("aes-asm")) {
        return None;
    }
    Some(
        Finding::new(
            id,
            "system",
            Verdict::Problem,
            Severity::Notice,
            format!("AES-XTS runs in software ({drv}): encrypted volumes are CPU-bound"),
        )
        .explain(
            "The kernel encrypts xts(aes) with its generic implementation, not with AES \
             instructions: every dm-crypt/LUKS volume on this machine is limited by the CPU to \
             roughly 100-200 MB/s per core, below what an SSD delivers. On a virtual machine, \
             pass the host CPU's aes flag to the guest (libvirt `<cpu mode='host-passthrough'>`, \
             QEMU `-cpu host`); on bare metal, load aesni_intel (x86) or the CPU's crypto \
             extension module, or use a cipher the CPU does well (adiantum).",
        )
        .evidence(
            sys.aes_driver
                .sources()
                .first()
                .cloned()
                .unwrap_or_else(|| crate::sources::proc_crypto::LIVE.key_for("")),
            format!("xts(aes) driver: {drv}"),
        )
        .confidence(Confidence::Medium),
    )
}

/// A pasted `cryptsetup benchmark`: the cipher's speed in memory caps every dm-crypt/LUKS
/// volume of that machine, whatever the disk under it. LUKS2 formats with aes-xts-plain64
/// by default (cryptsetup(8)); a SATA SSD reads about 550 MB/s and a hard disk 100-250 MB/s,
/// so a cipher below those figures is what sets the volume's speed.
fn pasted_cipher_speed(id: &str, sys: &SystemFacts) -> Option<Finding> {
    let rows: Vec<&crate::facts::UserBenchmark> = sys
        .user_benchmarks
        .iter()
        .filter(|u| u.tool == "cryptsetup benchmark" && u.bytes_per_sec.is_some_and(|r| r > 0.0))
        .collect();
    let rate = |u: &&crate::facts::UserBenchmark| u.bytes_per_sec.unwrap_or(0.0);
    let xts: Vec<&&crate::facts::UserBenchmark> = rows
        .iter()
        .filter(|u| {
            u.command
                .as_deref()
                .is_some_and(|c| c.contains("(aes-xts "))
        })
        .collect();
    let pick = if xts.is_empty() {
        rows.iter().collect::<Vec<_>>()
    } else {
        xts
    };
    let best = pick.into_iter().max_by(|a, b| {
        rate(a)
            .partial_cmp(&rate(b))
            .unwrap_or(std::cmp::Ordering::Equal)
    })?;
    let r = rate(best);
    let what = best.command.clone().unwrap_or_default();
    // Several tables in one paste (a post comparing machines): the same row (cipher, key
    // size, direction) more than once. The slowest and fastest rate of the row seen most.
    let mut by_row: Vec<(&str, Vec<f64>)> = Vec::new();
    for u in &rows {
        let label = u.command.as_deref().unwrap_or("");
        match by_row.iter_mut().find(|(k, _)| *k == label) {
            Some((_, v)) => v.push(rate(u)),
            None => by_row.push((label, vec![rate(u)])),
        }
    }
    let (slowest, fastest_other) = by_row
        .iter()
        .filter(|(k, v)| v.len() >= 2 && (k.contains("(aes-xts ") || pick_all_rows(&rows)))
        .map(|(_, v)| {
            (
                v.iter().copied().fold(f64::INFINITY, f64::min),
                v.iter().copied().fold(0.0_f64, f64::max),
            )
        })
        .next()
        .unwrap_or((0.0, 0.0));
    // The post's own comparison: the same cipher at least twice as fast on another machine.
    let compared = slowest > 0.0 && fastest_other >= 2.0 * slowest;
    // A cipher table alone says what the CPU can do, not that anything is slow: with no disk,
    // disk measurement or layer in the paste, and no other machine to compare with, whether
    // this rate limits anything depends on the disk nobody showed.
    let disk_shown = !sys.disks.is_empty()
        || sys
            .user_benchmarks
            .iter()
            .any(|u| u.tool != "cryptsetup benchmark");
    // Slower than any disk: below what the slowest storage anyone encrypts delivers. A USB 2
    // link carries 480 Mbit/s and its mass-storage protocol moves some 30-40 MB/s of it; an
    // SD card in a UHS-I (SDR50/DDR50) reader tops out near 40-50 MB/s (SD Physical Layer
    // Simplified Specification, bus speed modes); every hard disk reads more. A cipher at
    // 30-60 MB/s may be no slower than the SD card or USB 2 disk under it, so only a cipher
    // below 30 MB/s is known to cap whatever volume it is put on.
    let slower_than_any_disk = r < 3.0e7;
    // (A cipher faster than a SATA SSD reads is a pass whatever the disk.)
    if !compared && !disk_shown && !slower_than_any_disk && r < 5.5e8 {
        let f = Finding::new(
            id,
            "system",
            Verdict::Unknown,
            Severity::Info,
            format!(
                "the cipher runs at {} in memory; whether it limits a volume depends on the disk",
                mbps(r)
            ),
        )
        .explain(format!(
            "cryptsetup measured the cipher in memory, no disk involved ({what}). A dm-crypt/LUKS \
             volume on this machine cannot read faster than {}, but the paste shows no disk, \
             volume or disk measurement to compare with: a disk slower than that is not held back \
             by the cipher. Paste `cryptsetup status NAME` and a direct read of the disk under it \
             (`dd if=/dev/DISK of=/dev/null bs=1M count=2000 iflag=direct`) to know.",
            mbps(r)
        ))
        .evidence(best.from.clone(), format!("{what} = {}", mbps(r)))
        .confidence(Confidence::Medium);
        return Some(f);
    }
    let r = if compared { slowest } else { r };
    let (verdict, sev, title) = if compared {
        (
            Verdict::Problem,
            Severity::Warning,
            format!(
                "the cipher runs at {} here and at {} on the other machine the paste shows",
                mbps(r),
                mbps(fastest_other)
            ),
        )
    } else if r < 2.0e8 {
        (
            Verdict::Problem,
            Severity::Warning,
            format!(
                "the CPU deciphers at only {}: every encrypted volume here is capped there",
                mbps(r)
            ),
        )
    } else if r < 5.5e8 {
        (
            Verdict::Problem,
            Severity::Notice,
            format!(
                "the cipher runs at {}, below what a SATA SSD reads",
                mbps(r)
            ),
        )
    } else {
        (
            Verdict::Pass,
            Severity::Info,
            format!("the cipher runs at {}, faster than a SATA disk", mbps(r)),
        )
    };
    let f = Finding::new(id, "system", verdict, sev, title)
        .explain(format!(
            "cryptsetup measured the cipher in memory, no disk involved ({what}). A dm-crypt/LUKS volume can \
             never read faster than its CPU decrypts, so{} Faster options: a CPU or SoC with AES instructions \
             (check /proc/crypto for an accelerated xts(aes) driver), a cipher the CPU does well (the table's \
             fastest row; adiantum on CPUs without AES), or the drive's own encryption.",
            if verdict == Verdict::Problem {
                " this figure, not the disk, is the limit of any encrypted volume on this machine."
            } else {
                " at this speed the cipher is not what limits a hard disk or a SATA SSD."
            }
        ))
        .evidence(best.from.clone(), format!("{what} = {}", mbps(r)))
        .confidence(Confidence::High);
    Some(f)
}

/// Whether a paste's tables have no AES-XTS row at all (then every row counts).
fn pick_all_rows(rows: &[&crate::facts::UserBenchmark]) -> bool {
    !rows.iter().any(|u| {
        u.command
            .as_deref()
            .is_some_and(|c| c.contains("(aes-xts "))
    })
}

fn measured(check: &EncryptionBound, sys: &SystemFacts) -> Vec<Finding> {
    {
        per_disk(sys, |_, dev, rs| {
            let layer_rs: Vec<_> = rs
                .iter()
                .copied()
                .filter(|r| r.test == TestName::LayerCost && r.error.is_none())
                .collect();
            let base = layer_rs.iter().copied().find(|r| r.label == "disk")?;
            let crypt = layer_rs
                .iter()
                .copied()
                .find(|r| is_crypt_label(&r.label))?;
            if base.bytes_per_sec <= 0.0 {
                return None;
            }
            let share = crypt.bytes_per_sec / base.bytes_per_sec;
            if share < CRYPT_SHARE {
                let aes = match sys.aes_ni.get() {
                    Some(false) => {
                        " The CPU does not advertise AES-NI, so AES runs in plain software."
                    }
                    Some(true) => {
                        " The CPU has AES-NI; check that the kernel uses it (/proc/crypto: aesni_intel or an xts(aes) driver with priority above the generic one)."
                    }
                    None => "",
                };
                Some(
                    problem(check.id(), dev, Severity::Warning, format!(
                        "{dev}: {} reads at {} vs {} from the disk ({:.0}% lost to encryption)",
                        crypt.label, mbps(crypt.bytes_per_sec), mbps(base.bytes_per_sec), (1.0 - share) * 100.0
                    ), format!(
                        "The same sequential reads ran at {} straight from the disk and {} through the \
                         encryption layer: the cipher, not the disk, limits throughput.{aes} Faster options: \
                         a CPU with AES acceleration, a cheaper cipher mode for the layer, or the drive's own \
                         encryption (SED) if you trust it.",
                        mbps(base.bytes_per_sec),
                        mbps(crypt.bytes_per_sec)
                    ))
                    .cite(base)
                    .cite(crypt)
                    .impact(1.0 - share),
                )
            } else {
                Some(pass(
                    check.id(),
                    dev,
                    format!(
                        "{dev}: encryption costs {:.0}% of read throughput",
                        ((1.0 - share) * 100.0).max(0.0)
                    ),
                    Confidence::High,
                    crypt,
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests;
