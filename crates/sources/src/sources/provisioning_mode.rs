//! The sd driver's `provisioning_mode` attribute of a SCSI disk
//! (`/sys/block/sdX/device/scsi_disk/H:C:T:L/provisioning_mode`, also reached through
//! /sys/class/scsi_disk/ and /sys/devices/): how Linux sends discards to the device. sd.c's
//! lbp_mode table names the modes "full" (the device is fully provisioned: no discard),
//! "unmap" (UNMAP), "writesame_16", "writesame_10", "writesame_zero" (WRITE SAME with the
//! UNMAP bit) and "disabled"; sd_config_discard sets the queue's discard limit to 0 for
//! "full" and "disabled", so `discard_max_bytes` reads 0 and fstrim/blkdiscard are refused.
//! The kernel picks the mode from the Logical Block Provisioning VPD page (sd_discard_mode),
//! which usb-storage never reads (drivers/usb/storage/scsiglue.c sets skip_vpd_pages), so a
//! USB-attached SSD stays at "full" until someone writes "unmap" into the file
//! (provisioning_mode_store; the Arch wiki's udev rule does it). A write the kernel refuses
//! (EINVAL for a device that is no disk or a word it does not know, EACCES without
//! CAP_SYS_ADMIN) leaves the mode as it was.
//!
//! Read from a paste: "PATH:VALUE" (`grep . .../provisioning_mode`), "PATH = VALUE", `cat
//! PATH` with the value on the next line, and a write that failed: a line naming the path
//! with the failure ("Could not write 'unmap' -> PATH", "PATH: Invalid argument"), or the
//! shell's "write error" right after an `echo unmap > PATH`.

use crate::sources::spec;
use crate::sources::util::clean_line;

/// The modes sd.c's lbp_mode table names.
const MODES: [&str; 6] = [
    "full",
    "unmap",
    "writesame_16",
    "writesame_10",
    "writesame_zero",
    "disabled",
];

crate::rx!(
    PATH,
    r"(/sys/\S*?/scsi_disk/(\d+:\d+:\d+:\d+|\*)/provisioning_mode)\b"
);
crate::rx!(BLOCK_DISK, r"/sys/block/([a-z]+)/");

/// What the text shows of one disk's provisioning mode.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Provisioning {
    /// The kernel name the path gives (`/sys/block/sdb/...`).
    pub disk: Option<String>,
    /// The SCSI address the path gives ("8:0:0:0"), for the kernel log to name the disk.
    pub hctl: Option<String>,
    /// The mode read ("full", "unmap", ...).
    pub mode: Option<String>,
    /// The line of a write into the file that failed.
    pub write_failed: Option<String>,
}

impl Provisioning {
    /// The mode sets no discard limit: "full" or "disabled" (sd.c sd_config_discard).
    pub fn no_discard(&self) -> bool {
        matches!(self.mode.as_deref(), Some("full" | "disabled"))
    }
}

/// The lbp mode word a text is, alone.
fn mode_word(t: &str) -> Option<&'static str> {
    let t = t.trim().trim_matches('`').trim();
    MODES.iter().copied().find(|m| *m == t)
}

/// Words of a refused write on the same line as the path, or on the shell's line after it.
fn is_failure(l: &str) -> bool {
    let low = l.to_ascii_lowercase();
    [
        "could not write",
        "couldn't write",
        "cannot write",
        "write error",
        "invalid argument",
        "permission denied",
        "operation not permitted",
    ]
    .iter()
    .any(|w| low.contains(w))
}

/// A shell write into the file: `echo unmap > PATH`, `echo unmap | tee PATH`.
fn is_write(l: &str) -> bool {
    let before = l.split("/sys/").next().unwrap_or("");
    before.contains('>') || before.contains("tee ")
}

/// The value after the path on the same line: "PATH:full", "PATH = full", "PATH is full".
fn value_after(l: &str, end: usize) -> Option<&'static str> {
    let rest = l.get(end..)?.trim_start();
    let rest = rest
        .strip_prefix(':')
        .or_else(|| rest.strip_prefix('='))
        .or_else(|| rest.strip_prefix("is "))
        .unwrap_or(rest);
    let word = rest.split_whitespace().next()?;
    mode_word(word.trim_end_matches(['.', ',']))
}

/// Every provisioning_mode path in the text with what the lines around it say.
pub fn parse(text: &str) -> Vec<Provisioning> {
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    let mut out: Vec<Provisioning> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(c) = PATH.captures(l) else { continue };
        let (Some(path), Some(addr)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let mut p = Provisioning {
            disk: BLOCK_DISK
                .captures(path.as_str())
                .and_then(|c| c.get(1))
                .map(|m| m.as_str().to_string()),
            hctl: (addr.as_str() != "*").then(|| addr.as_str().to_string()),
            ..Provisioning::default()
        };
        let next = lines
            .iter()
            .skip(i + 1)
            .map(|x| x.trim())
            .find(|x| !x.is_empty());
        if is_failure(l) {
            p.write_failed = Some(l.trim().to_string());
        } else if is_write(l) {
            // The shell reports a refused write on the next line, without the path.
            match next {
                Some(n) if is_failure(n) && !PATH.is_match(n) => {
                    p.write_failed = Some(format!("{}: {n}", l.trim()));
                }
                _ => continue,
            }
        } else {
            p.mode = value_after(l, path.end())
                .or_else(|| next.and_then(mode_word))
                .map(str::to_string);
        }
        if p.mode.is_none() && p.write_failed.is_none() {
            continue;
        }
        out.push(p);
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn member(t: &str) -> bool {
    let l = clean_line(t);
    l.contains("provisioning_mode") || mode_word(&l).is_some() || is_failure(&l)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "provisioning-mode",
    starts: &[(66, |l| spec::on_first(l, |t| PATH.is_match(&clean_line(t))))],
    member: |t, _| spec::Member::from(member(t)),
    tolerance: (1, 0),
    classify: |_, _| "provisioning-mode",
    ..spec::Recogniser::NONE
};

/// A SCSI disk's provisioning_mode, pasted (the live probe reads the queue's discard
/// limit, sources::sysfs).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        matches!(p, "cat" | "grep" | "head" | "echo" | "tee") && a.contains("provisioning_mode")
    })),
    ..spec::SourceSpec::named("provisioning-mode", "scsi_disk provisioning_mode")
};

#[cfg(test)]
mod tests;
