//! `encryption-layer`: a GELI or dm-crypt/LUKS layer on the disk, its cipher and key
//! length, and whether AES runs in hardware. References: geli(8) (`geli list` "Crypto:
//! hardware / accelerated software / software"), aesni(4), cryptsetup(8), the kernel's
//! /proc/crypto (driver names such as xts-aes-aesni), dm-crypt's admin guide.

use crate::checks::common::{self, cite, cite_keys};
use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{DiskFacts, Layer, LayerKind, SystemFacts};

pub const ID: &str = "encryption-layer";

pub(crate) struct EncryptionLayer;

impl Check for EncryptionLayer {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Encryption"
    }
    fn summary(&self) -> &'static str {
        "GELI or dm-crypt/LUKS on the disk: cipher, key length, hardware AES or not"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        common::disks(sys).map(|d| check_disk(sys, d)).collect()
    }
}

fn is_crypt(l: &Layer) -> bool {
    matches!(
        l.kind,
        Some(LayerKind::Geli | LayerKind::Luks | LayerKind::DmCrypt)
    )
}

fn kind_name(l: &Layer) -> &'static str {
    match l.kind {
        Some(LayerKind::Geli) => "GELI",
        Some(LayerKind::Luks) => "LUKS (dm-crypt)",
        Some(LayerKind::DmCrypt) => "dm-crypt",
        Some(LayerKind::Lvm) => "LVM",
        Some(LayerKind::Md) => "md RAID",
        Some(LayerKind::Zfs) => "ZFS",
        Some(LayerKind::Partition) => "partition",
        Some(LayerKind::Multipath) => "multipath",
        Some(LayerKind::DmCache) => "dm-cache",
        Some(LayerKind::DmOther) => "device-mapper",
        Some(LayerKind::Gmirror) => "gmirror",
        Some(LayerKind::Other) | None => "layer",
    }
}

fn is_aes(l: &Layer) -> Option<bool> {
    l.cipher
        .as_deref()
        .map(|c| c.to_ascii_lowercase().contains("aes"))
}

/// Classify a crypto implementation string: Some(true) hardware or accelerated, Some(false)
/// plain software, None when the words say neither.
fn classify_impl(s: &str) -> Option<bool> {
    let s = s.trim().to_ascii_lowercase();
    if s == "hardware" || s.starts_with("accelerated") {
        return Some(true);
    }
    // Kernel driver names: xts-aes-aesni, aesni_intel, __xts-aes-aesni, xts-aes-vaes-avx2,
    // xts-aes-ce (ARMv8 crypto extensions).
    if s.contains("aesni") || s.contains("aes-ni") || s.contains("vaes") || s.ends_with("-ce") {
        return Some(true);
    }
    if s == "software" || s.contains("generic") || s.contains("aes-asm") {
        return Some(false);
    }
    None
}

/// How AES runs for this layer: (Some(accelerated), the words and where they came from).
fn aes_mode(l: &Layer, sys: &SystemFacts) -> (Option<bool>, String, Vec<String>) {
    if let Some(i) = l.crypto_impl.as_deref()
        && let Some(a) = classify_impl(i)
    {
        return (a.into(), format!("crypto: {i}"), l.from.clone());
    }
    if let Some(drv) = sys.aes_driver.value()
        && let Some(a) = classify_impl(drv)
    {
        return (
            a.into(),
            format!("kernel AES driver: {drv}"),
            sys.aes_driver.sources().to_vec(),
        );
    }
    if sys.aes_ni.get() == Some(false) {
        return (
            Some(false),
            "CPU without AES-NI".to_string(),
            sys.aes_ni.sources().to_vec(),
        );
    }
    (None, String::new(), Vec::new())
}

fn describe(l: &Layer) -> String {
    let mut s = format!(
        "{} {}",
        kind_name(l),
        l.display_name.as_deref().unwrap_or(&l.name)
    );
    if let Some(c) = &l.cipher {
        s.push_str(&format!(": {c}"));
    }
    if let Some(k) = l.key_bits {
        s.push_str(&format!(" {k}-bit key"));
    }
    if let Some(i) = &l.crypto_impl {
        s.push_str(&format!(", crypto {i}"));
    }
    s
}

/// The layers above the disk, bottom first, each with what it sits on ("ada0p1.eli (GELI)
/// on ada0p1; zstorage (ZFS) on ada0p1.eli"). Plain partitions are left out: they are
/// siblings, not a chain.
fn stack(d: &DiskFacts) -> String {
    let parts: Vec<String> = d
        .layers
        .iter()
        .filter(|l| l.kind != Some(LayerKind::Partition))
        .map(|l| {
            let name = l.display_name.as_deref().unwrap_or(&l.name);
            if l.on.is_empty() {
                format!("{name} ({})", kind_name(l))
            } else {
                format!("{name} ({}) on {}", kind_name(l), l.on.join(" + "))
            }
        })
        .collect();
    if parts.is_empty() {
        d.name.clone()
    } else {
        format!("{}: {}", d.name, parts.join("; "))
    }
}

pub(crate) fn check_disk(sys: &SystemFacts, d: &DiskFacts) -> Finding {
    let crypts: Vec<&Layer> = d.layers.iter().filter(|l| is_crypt(l)).collect();
    if crypts.is_empty() {
        let mut f = common::pass(ID, d, "no encryption layer").explain(
            if d.layers
                .iter()
                .all(|l| l.kind == Some(LayerKind::Partition))
            {
                "No GELI or dm-crypt layer was found on this disk.".to_string()
            } else {
                format!("Layers on {}; none of them encrypts.", stack(d))
            },
        );
        for l in &d.layers {
            f = cite_keys(f, &l.from, &describe(l));
        }
        return f;
    }
    let mut software = Vec::new();
    let mut unknown_impl = Vec::new();
    let mut non_aes = Vec::new();
    let mut notes = Vec::new();
    let mut ev: Vec<(String, String)> = Vec::new();
    for l in &crypts {
        for k in &l.from {
            ev.push((k.clone(), describe(l)));
        }
        if is_aes(l) == Some(false) {
            non_aes.push(describe(l));
            continue;
        }
        let (acc, words, from) = aes_mode(l, sys);
        for k in from {
            if !ev.iter().any(|(s, _)| s == &k) {
                ev.push((k, words.clone()));
            }
        }
        match acc {
            Some(true) => notes.push(format!("{} ({words})", describe(l))),
            Some(false) => software.push(format!("{} ({words})", describe(l))),
            None => unknown_impl.push(describe(l)),
        }
    }
    let warn = !software.is_empty();
    // The layer shown costing nothing visible: a read through it pasted at
    // [`FAST_THROUGH`] or more (what AES-XTS with AES-NI reaches on one core, and beyond
    // what software AES manages on a few), with no cipher lacking AES-NI help: then it is
    // said for reading the numbers (info). Without a measurement the layer stays a notice,
    // hardware AES or not: the speed to read against it is not known.
    let fast = fast_read_through(sys, &crypts);
    let costless = non_aes.is_empty() && !warn && fast.is_some();
    let first = crypts.first().map(|l| describe(l)).unwrap_or_default();
    let title = if warn {
        format!("{}: encrypted with AES in software ({first})", d.name)
    } else {
        format!("{}: encrypted ({first})", d.name)
    };
    let mut expl = format!(
        "This disk carries an encryption layer ({}): every block read or written is \
         encrypted or decrypted by the CPU on the way. ",
        stack(d)
    );
    expl.push_str(
        "With AES-NI, AES-XTS runs at well over 1 GB/s per core, more than an HDD or a SATA \
         SSD delivers, so the cost is mostly CPU time: seed 002's WD4002FYYZ HDD wrote 191 MB/s \
         through GELI AES-XTS with hardware crypto, about what the bare drive manages. \
         Without AES-NI, software AES-XTS manages very roughly 100-200 MB/s per core, which \
         caps an SSD and can cap a fast HDD. ",
    );
    if !notes.is_empty() {
        expl.push_str(&format!(
            "AES runs accelerated here: {}. ",
            notes.join("; ")
        ));
    }
    if !software.is_empty() {
        expl.push_str(&format!(
            "AES runs in plain software here: {}. ",
            software.join("; ")
        ));
        if sys.aes_ni.get() == Some(true) {
            expl.push_str("The CPU has AES-NI, so loading the AES-NI driver should fix it. ");
        } else if sys.aes_ni.get() == Some(false) {
            expl.push_str("The CPU has no AES-NI: only a different cipher or a faster CPU helps. ");
        }
    }
    if !unknown_impl.is_empty() {
        expl.push_str(&format!(
            "Whether AES runs in hardware is unknown for {} ({}); {}. ",
            unknown_impl.join("; "),
            sys.aes_ni
                .why()
                .map(|w| format!("CPU AES-NI: unknown, {w}"))
                .unwrap_or_else(
                    || "the CPU has AES-NI but the driver in use was not read".to_string()
                ),
            match sys.platform {
                Platform::Freebsd => "`geli list` shows it on its Crypto: line",
                _ => "/proc/crypto shows the driver for xts(aes)",
            }
        ));
    }
    if !non_aes.is_empty() {
        expl.push_str(&format!(
            "Not AES, so no AES-NI help: {}. ",
            non_aes.join("; ")
        ));
    }
    if let Some(r) = fast {
        expl.push_str(&format!(
            "A read through the layer ran at {:.0} MB/s: the layer does not hold this disk \
             back. ",
            r / 1e6
        ));
    }
    expl.push_str(
        "Encryption is a choice, not a fault: this is reported so that the measured speed can \
         be read against it.",
    );
    let mut f = Finding::new(
        ID,
        &d.name,
        Verdict::Problem,
        if warn {
            Severity::Warning
        } else if costless {
            Severity::Info
        } else {
            Severity::Notice
        },
        title,
    )
    .explain(expl)
    .confidence(Confidence::Medium)
    .impact(if warn { 0.5 } else { 0.05 });
    for (s, v) in ev {
        f = f.evidence(s, v);
    }
    if sys.aes_ni.is_known() {
        f = cite(
            f,
            &sys.aes_ni,
            format!(
                "aes_ni={}",
                if sys.aes_ni.get() == Some(true) {
                    "yes"
                } else {
                    "no"
                }
            ),
        );
    }
    if warn {
        for fix in fixes(sys, &crypts) {
            f = f.fix(fix);
        }
    }
    f
}

/// A sequential read through an encryption layer this fast shows the layer costing
/// nothing visible: AES-XTS with AES-NI runs at well over 1 GB/s per core (cryptsetup
/// benchmark), software AES-XTS at some 100-200 MB/s per core.
const FAST_THROUGH: f64 = 1.0e9;

/// The fastest pasted sequential read (hdparm -t, or dd to /dev/null) of one of `crypts`'
/// devices (/dev/mapper/NAME), at [`FAST_THROUGH`] or more.
fn fast_read_through(sys: &SystemFacts, crypts: &[&Layer]) -> Option<f64> {
    sys.user_benchmarks
        .iter()
        .filter(|b| {
            b.tool.starts_with("hdparm -t")
                || (b.tool == "dd"
                    && b.output
                        .as_deref()
                        .is_some_and(super::pasted_common::is_sink))
        })
        .filter(|b| {
            b.input.as_deref().is_some_and(|i| {
                let node = i.trim_start_matches("/dev/mapper/");
                node != i
                    && crypts.iter().any(|l| {
                        l.name == node
                            || l.display_name.as_deref().is_some_and(|n| n.ends_with(node))
                    })
            })
        })
        .filter_map(|b| b.bytes_per_sec)
        .filter(|r| *r >= FAST_THROUGH)
        .reduce(f64::max)
}

fn fixes(sys: &SystemFacts, crypts: &[&Layer]) -> Vec<Fix> {
    let platform = sys.platform;
    let no_aesni = sys.aes_ni.get() == Some(false);
    let name = crypts
        .first()
        .map(|l| l.display_name.clone().unwrap_or_else(|| l.name.clone()))
        .unwrap_or_default();
    match platform {
        Platform::Freebsd if !no_aesni => vec![Fix {
            platform,
            summary: "load aesni(4) so GELI uses the CPU's AES instructions".to_string(),
            steps: vec![
                "`kldload aesni` and add `aesni_load=\"YES\"` to /boot/loader.conf".to_string(),
                format!(
                    "GELI picks its crypto engine when the provider is attached: reboot (or \
                     unmount, `geli detach {name}` and attach again)"
                ),
                "Check: `geli list | grep Crypto` shows hardware or accelerated software"
                    .to_string(),
            ],
            risk: "none for loading the module; detaching needs the filesystem unmounted"
                .to_string(),
        }],
        Platform::Linux if !no_aesni => vec![Fix {
            platform,
            summary: "load the AES-NI driver so dm-crypt uses it".to_string(),
            steps: vec![
                "`modprobe aesni_intel` (x86; usually built in or loaded automatically)"
                    .to_string(),
                "Check: `grep -B1 -A2 'xts(aes)' /proc/crypto` lists driver xts-aes-aesni (or \
                 vaes) with a higher priority than the generic one"
                    .to_string(),
                "`cryptsetup benchmark -c aes-xts-plain64` shows the speed now available"
                    .to_string(),
            ],
            risk: "none; already-open mappings pick up the faster driver only after they \
                   are closed and reopened (reboot)"
                .to_string(),
        }],
        Platform::Linux => vec![Fix {
            platform,
            summary: "on a CPU without AES instructions, Adiantum is faster than AES".to_string(),
            steps: vec![
                "`cryptsetup benchmark -c xchacha12,aes-adiantum-plain64` compares it".to_string(),
                "Re-encrypting means a new LUKS volume (`cryptsetup luksFormat --cipher \
                 xchacha12,aes-adiantum-plain64 ...`) and restoring the data"
                    .to_string(),
            ],
            risk: "creating a new LUKS volume destroys its data: back up and restore first"
                .to_string(),
        }],
        Platform::Freebsd => vec![Fix {
            platform,
            summary: "the CPU has no AES-NI: software AES is the ceiling".to_string(),
            steps: vec![
                "Check the ceiling: `geli list` shows the cipher; a CPU with AES-NI removes it"
                    .to_string(),
            ],
            risk: "none".to_string(),
        }],
        Platform::Unknown => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
