//! `sysctl name...` / `sysctl -a` output (sysctl(8)): "name: value" lines. Some values span
//! many lines (kern.geom.confxml is an XML document, kern.geom.confdot a graph), so a new
//! entry starts only on a line that begins with a dotted OID name followed by ':'; every
//! other line continues the previous value.

use super::geom_util::unquote;

/// Parse into (name, value) pairs in order. Values are trimmed; multi-line values keep
/// their inner newlines.
pub fn parse(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for raw in text.lines() {
        let line = unquote(raw);
        if let Some((name, value)) = split_entry(line) {
            out.push((name.to_string(), value.trim().to_string()));
        } else if let Some((_, v)) = out.last_mut() {
            if !v.is_empty() {
                v.push('\n');
            }
            v.push_str(raw.trim_end());
        }
    }
    out
}

/// The value of `name` in parsed output.
pub fn get<'a>(entries: &'a [(String, String)], name: &str) -> Option<&'a str> {
    entries
        .iter()
        .rev()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// A value captured by the Host's `sysctl` (the bare value), or a "name: value" line if a
/// person pasted it. Returns the trimmed value.
pub fn bare_value<'a>(text: &'a str, name: &str) -> &'a str {
    let t = text.trim();
    t.strip_prefix(name)
        .and_then(|r| r.trim_start().strip_prefix(['=', ':']))
        .map(str::trim)
        .unwrap_or(t)
}

/// "kern.disks: ada0 cd0" -> ("kern.disks", " ada0 cd0"). OID names are dotted
/// components of letters, digits, '_', '-' and a leading '%' (dev.ahci.0.%desc).
fn split_entry(line: &str) -> Option<(&str, &str)> {
    let (name, value) = line.split_once(':')?;
    if name.is_empty() || !name.contains('.') || name.starts_with('.') {
        return None;
    }
    // Jail parameter nodes really end in '.' ("security.jail.param.ip4.: 0").
    let ok = name.strip_suffix('.').unwrap_or(name).split('.').all(|c| {
        !c.is_empty()
            && c.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "_-%".contains(ch))
    });
    if !ok || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    if !(value.is_empty() || value.starts_with(' ') || value.starts_with('\t')) {
        return None;
    }
    Some((name, value))
}

/// kern.disks value -> disk names, newest first as the kernel lists them.
pub fn disk_names(value: &str) -> Vec<String> {
    value.split_whitespace().map(str::to_string).collect()
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    SYSCTL_LINE,
    r"^((?:kern|dev|hw|vfs|vm|net|security|debug|machdep|user|p1003_1b|compat|kstat|sysctl)\.[\w.%-]+)(?::\s?(.*)|=(.*))$"
);

/// A "name: value" / "name=value" line of a known sysctl tree.
pub fn is_line(t: &str) -> bool {
    SYSCTL_LINE.is_match(t)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sysctl",
    starts: &[(100, |l| spec::on_first(l, is_line))],
    member: |t, _| spec::Member::from(is_line(t) || t.starts_with([' ', '\t', '<'])),
    tolerance: (1, 40),
    classify: |_, _| "sysctl",
    ..spec::Recogniser::NONE
};

/// kern.disks: the disk names, space-separated.
pub const KERN_DISKS: spec::Live = spec::Live::Sysctl("kern.disks");
/// kern.hostname (a secret: redacted).
pub const KERN_HOSTNAME: spec::Live = spec::Live::Sysctl("kern.hostname");
/// ata(4)'s write cache tunable (FreeBSD <= 8; 1: on).
pub const HW_ATA_WC: spec::Live = spec::Live::Sysctl("hw.ata.wc");
/// ada(4)'s per-disk write cache setting (-1: the drive's, 0 off, 1 on).
pub const ADA_WRITE_CACHE: spec::Live = spec::Live::Sysctl("kern.cam.ada.{unit}.write_cache");
/// ada(4)'s rotating flag (0: an SSD, from the drive's identify data).
pub const ADA_ROTATING: spec::Live = spec::Live::Sysctl("kern.cam.ada.{unit}.rotating");
/// da(4)'s BIO_DELETE method (NONE, ATA_TRIM, UNMAP, WS16 ...).
pub const DA_DELETE_METHOD: spec::Live = spec::Live::Sysctl("kern.cam.da.{unit}.delete_method");
/// The newbus parent of an nvd(4) namespace: its nvme(4) controller.
pub const NVD_PARENT: spec::Live = spec::Live::Sysctl("dev.nvd.{unit}.%parent");
/// The newbus parent of an mfi(4) system physical drive: its controller.
pub const MFISYSPD_PARENT: spec::Live = spec::Live::Sysctl("dev.mfisyspd.{unit}.%parent");

/// sysctl(8): the machine-wide names and the per-disk CAM ones of plan.rs, and the
/// dev.ahci/ahcich/atapci/ata trees captured as `sysctl dev.X` output. A pasted block is
/// split by name (explain::bundle), so it has no single key.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    live: &[
        KERN_DISKS,
        spec::Live::Sysctl("kern.ostype"),
        spec::Live::Sysctl("kern.osrelease"),
        KERN_HOSTNAME,
        spec::Live::Sysctl("hw.model"),
        spec::Live::Sysctl("hw.physmem"),
        spec::Live::Sysctl("kern.cam.ada.write_cache"),
        HW_ATA_WC,
        ADA_WRITE_CACHE,
        ADA_ROTATING,
        spec::Live::Sysctl("kern.cam.ada.{unit}.delete_method"),
        DA_DELETE_METHOD,
        NVD_PARENT,
        MFISYSPD_PARENT,
        spec::Live::Cmd(&["sysctl", "dev.ahci"]),
        spec::Live::Cmd(&["sysctl", "dev.ahcich"]),
        spec::Live::Cmd(&["sysctl", "dev.atapci"]),
        spec::Live::Cmd(&["sysctl", "dev.ata"]),
    ],
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "sysctl")),
    programs: &[spec::Program::new("sysctl", spec::listing_args)],
    ..spec::SourceSpec::named("sysctl", "sysctl")
};
