//! `nvme list` (nvme-cli): one row per NVMe namespace with its controller's serial, model
//! and firmware. nvme-cli's simple list (nvme-print.c `nvme_show_list_items` in 1.x,
//! nvme-print-stdout.c `stdout_simple_list` in 2.x) prints the header
//! "Node SN Model Namespace Usage Format FW Rev" (2.x adds a "Generic" column after
//! "Node", the /dev/ngXnY character device), a row of dashes, then per namespace
//! "%-21s %-21s %-20s %-40s 0x%-8x %-26s %-16s %-.8s": the node, the generic node, the
//! serial, the model, the namespace id (decimal in 1.x), the usage "%6.2f %2sB / %6.2f
//! %2sB" (used and total, decimal units), the format "%3.0f %2sB + %2d B" (the LBA size
//! and its metadata bytes) and the firmware revision. The list names drives; it says
//! nothing about their health, so a list alone shows no problem.

use crate::sources::{spec, util};

/// One namespace row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NvmeListRow {
    /// The block device ("/dev/nvme0n1").
    pub node: String,
    pub serial: String,
    pub model: String,
    pub firmware: Option<String>,
    /// The namespace's size in bytes (the total of "Usage", decimal units).
    pub size_bytes: Option<u64>,
    /// The LBA data size of the namespace's format ("512   B + 0 B" is 512).
    pub lba_bytes: Option<u64>,
}

/// "1.92" "TB" -> bytes: nvme-cli's suffix_si_get (powers of 1000) for the usage, and
/// suffix_binary_get ("4 KiB", powers of 1024) for the format in 2.x.
fn si_bytes(n: &str, unit: &str) -> Option<u64> {
    let v: f64 = n.parse().ok()?;
    let (base, p) = match unit {
        "B" => (1000f64, 0),
        "kB" | "KB" => (1000f64, 1),
        "MB" => (1000f64, 2),
        "GB" => (1000f64, 3),
        "TB" => (1000f64, 4),
        "PB" => (1000f64, 5),
        "KiB" => (1024f64, 1),
        "MiB" => (1024f64, 2),
        "GiB" => (1024f64, 3),
        "TiB" => (1024f64, 4),
        _ => return None,
    };
    let b = v * base.powi(p);
    // A float to integer cast saturates; a negative or absurd value is no size.
    (b.is_finite() && (0.0..1e20).contains(&b)).then_some(b as u64)
}

/// One row, read from both ends: the node, optional generic node and serial on the left,
/// "used unit / total unit lba unit + meta B firmware" on the right, the model (which may
/// hold blanks, "M.2 (P80) 3TE6") between them.
fn row(l: &str) -> Option<NvmeListRow> {
    let t = util::tokens(l);
    let node = t.first().filter(|n| n.starts_with("/dev/nvme"))?;
    let mut i = 1;
    if t.get(1).is_some_and(|g| g.starts_with("/dev/ng")) {
        i = 2;
    }
    let serial = t.get(i)?;
    let slash = t.iter().position(|w| *w == "/")?;
    let plus = t.iter().skip(slash).position(|w| *w == "+")? + slash;
    // ... ns used unit / total unit lba unit + meta B fw
    let ns_at = slash.checked_sub(3)?;
    if ns_at <= i {
        return None;
    }
    let model = t.get(i + 1..ns_at)?.join(" ");
    let size_bytes = si_bytes(t.get(slash + 1)?, t.get(slash + 2)?);
    let lba_bytes = si_bytes(t.get(plus.checked_sub(2)?)?, t.get(plus.checked_sub(1)?)?);
    let firmware = t
        .get(plus + 3..)
        .map(|f| f.join(" "))
        .filter(|f| !f.is_empty());
    Some(NvmeListRow {
        node: node.to_string(),
        serial: serial.to_string(),
        model,
        firmware,
        size_bytes,
        lba_bytes,
    })
}

/// Every namespace row of the list.
pub fn parse(text: &str) -> Vec<NvmeListRow> {
    text.lines()
        .filter_map(|l| row(&util::clean_line(l)))
        .collect()
}

// ---- the source spec (see sources::spec) ----

fn is_header(l: &str) -> bool {
    let t = util::tokens(l);
    t.first() == Some(&"Node")
        && ["SN", "Model", "Namespace", "Usage", "Format"]
            .iter()
            .all(|w| t.contains(w))
}

fn is_dashes(l: &str) -> bool {
    !l.is_empty() && l.chars().all(|c| c == '-' || c == ' ')
}

/// The tail of the header line when a mail client re-wrapped it (the header is about 150
/// columns wide, nvme-cli's nvme-print.c column widths): only header words.
fn is_header_tail(l: &str) -> bool {
    let t = util::tokens(l);
    !t.is_empty()
        && t.iter()
            .all(|w| ["SN", "Model", "Namespace", "Usage", "Format", "FW", "Rev"].contains(w))
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first().map(|l| util::clean_line(l)) else {
        return spec::Start::No;
    };
    let line = |i: usize| {
        lines
            .get(i)
            .map(|l| util::clean_line(l))
            .unwrap_or_default()
    };
    let next = line(1);
    let body = |l: &str| is_dashes(l) || row(l).is_some();
    if is_header(&first) {
        return spec::Start::from(body(&next));
    }
    // Re-wrapped at 72 columns: "Node SN Model ... Namespace" then "Usage Format FW Rev".
    spec::Start::from(
        util::tokens(&first).first() == Some(&"Node")
            && is_header_tail(&next)
            && is_header(&format!("{first} {next}"))
            && body(&line(2)),
    )
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let l = util::clean_line(l);
    spec::Member::from(is_dashes(&l) || is_header_tail(&l) || row(&l).is_some())
}

/// `nvme list` with its newlines lost (a web page that ran the table into one line): the
/// header, the row of dashes (one run per column, nvme-print.c prints them with the
/// column widths) and each namespace row from its /dev/nvmeXnY node. The header is needed,
/// so prose that names two namespaces is left alone.
pub(crate) const FLAT: spec::Flat = spec::Flat {
    starts: &[
        r"\b(Node\s+(?:Generic\s+)?SN\s+Model\b)",
        r"(?:^|\s)(-{4,}(?:\s+-{4,}){3,})",
        r"(?:^|\s)(/dev/nvme\d+n\d+\s+(?:/dev/ng\d+n\d+\s+)?\S)",
    ],
    need: r"\bNode\s+(?:Generic\s+)?SN\s+Model\s+Namespace\s+Usage\b",
    min: 3,
};

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "nvme-list",
    starts: &[(40, start)],
    member,
    tolerance: (0, 0),
    classify: |_, _| "nvme-list",
    ..spec::Recogniser::NONE
};

/// `nvme list`: pasted beside a question, not captured by a probe (sysfs names the drives).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    secrets: &[spec::Secret::Scan(|t| {
        parse(t)
            .iter()
            .map(|r| spec::Found::sure(spec::SecretKind::Serial, &r.serial))
            .collect()
    })],
    paste: Some(spec::Paste {
        flat: &[FLAT],
        ..spec::Paste::new(&RECOGNISER, |p, a| {
            p == "nvme" && a.trim_start().starts_with("list")
        })
    }),
    ..spec::SourceSpec::named("nvme-list", "nvme list")
};

#[cfg(test)]
mod tests;
