//! `diskinfo -v [-t] [-c] /dev/X` (diskinfo(8)): "value  # label" lines (sector size, media
//! size, stripe size/offset, ident, rotation rate, TRIM), and the -t seek/transfer and -c
//! command-overhead results as numbers.
//!
//! Values are located by their "# label" markers, not by line, so the seed 003 copy with
//! every newline collapsed into one line parses the same as the real layout.

/// What diskinfo printed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiskInfo {
    /// "/dev/da1" when the device-name line is present.
    pub device: Option<String>,
    pub sector_size: Option<u32>,
    pub media_bytes: Option<u64>,
    pub media_sectors: Option<u64>,
    /// GEOM stripesize: the physical sector (or RAID stripe) size the provider prefers.
    pub stripe_size: Option<u64>,
    /// GEOM stripeoffset: where the first stripe starts, bytes from the provider's start.
    pub stripe_offset: Option<u64>,
    pub fw_cylinders: Option<u64>,
    pub fw_heads: Option<u64>,
    pub fw_sectors: Option<u64>,
    pub descr: Option<String>,
    pub ident: Option<String>,
    pub physical_path: Option<String>,
    pub attachment: Option<String>,
    pub trim: Option<bool>,
    /// "Rotation rate in RPM": Some(0) = non-rotating (diskinfo prints 0 for SSDs).
    pub rotation_rpm: Option<u32>,
    pub zone_mode: Option<String>,
    /// -t seek results: ("Full stroke", msec).
    pub seeks_ms: Vec<(String, f64)>,
    /// -t transfer rates: ("outside", kbytes/sec).
    pub transfers_kbps: Vec<(String, f64)>,
    /// -c "calculated command overhead" in msec per sector.
    pub command_overhead_ms: Option<f64>,
}

/// Labels diskinfo prints after '#', in the forms seen across FreeBSD 9-14.
const LABELS: &[&str] = &[
    "sectorsize",
    "mediasize in bytes",
    "mediasize in sectors",
    "stripesize",
    "stripeoffset",
    "Cylinders according to firmware.",
    "Heads according to firmware.",
    "Sectors according to firmware.",
    "Disk descr.",
    "Disk ident.",
    "Attachment",
    "Physical path",
    "TRIM/UNMAP support",
    "Rotation rate in RPM",
    "Zone Mode",
];

const SEEKS: &[&str] = &[
    "Full stroke",
    "Half stroke",
    "Quarter stroke",
    "Short forward",
    "Short backward",
    "Seq outer",
    "Seq inner",
];
const TRANSFERS: &[&str] = &["outside", "middle", "inside"];

pub fn parse(text: &str) -> DiskInfo {
    let mut d = DiskInfo::default();
    // Positions of '#' markers with a recognised label right after them.
    let mut prev_label_end: Option<usize> = None;
    let mut first_value_pos: Option<usize> = None;
    let mut pos = 0;
    while let Some(off) = text.get(pos..).and_then(|t| t.find('#')) {
        let hash = pos + off;
        let after = text.get(hash + 1..).unwrap_or("");
        let trimmed = after.trim_start();
        let skip = after.len() - trimmed.len();
        let label = LABELS
            .iter()
            .filter(|l| trimmed.starts_with(*l))
            .max_by_key(|l| l.len());
        pos = hash + 1;
        let Some(label) = label else { continue };
        let before = text.get(prev_label_end.unwrap_or(0)..hash).unwrap_or("");
        // Numeric fields: the last token before '#'. Text fields: everything since the
        // previous label (or, without one, the current line).
        let last_tok = before.split_whitespace().last().unwrap_or("");
        let text_val = match prev_label_end {
            Some(_) => before.trim(),
            None => before.lines().last().unwrap_or("").trim(),
        };
        if first_value_pos.is_none() {
            first_value_pos = Some(hash - before.len() + before.rfind(last_tok).unwrap_or(0));
        }
        apply(&mut d, label, last_tok, text_val);
        let mut end = hash + 1 + skip + label.len();
        // "mediasize in bytes (11T)": skip the human-readable size.
        if let Some(rest) = text.get(end..) {
            let r = rest.trim_start_matches([' ', '\t']);
            if r.starts_with('(')
                && let Some(close) = r.find(')')
            {
                end += rest.len() - r.len() + close + 1;
            }
        }
        prev_label_end = Some(end);
        pos = end;
    }
    // Device name: the last "/dev/..." token before the first value.
    let head = text
        .get(..first_value_pos.unwrap_or(text.len()))
        .unwrap_or("");
    d.device = head
        .split_whitespace()
        .rfind(|t| t.starts_with("/dev/"))
        .map(str::to_string);
    for name in SEEKS {
        if let Some(ms) = result_after(text, &format!("{name}:")) {
            d.seeks_ms.push((name.to_string(), ms));
        }
    }
    for name in TRANSFERS {
        if let Some(k) = result_after(text, &format!("{name}:")) {
            d.transfers_kbps.push((name.to_string(), k));
        }
    }
    d.command_overhead_ms = result_after(text, "calculated command overhead");
    d
}

/// The number after the first '=' that follows `label` ("... sec =   18.365 msec").
fn result_after(text: &str, label: &str) -> Option<f64> {
    let i = text.find(label)?;
    let rest = text.get(i + label.len()..)?;
    let eq = rest.find('=')?;
    // The '=' must belong to this result, not a later one: no other label in between.
    let between = rest.get(..eq)?;
    if between.contains(':') {
        return None;
    }
    super::geom_util::leading_digits_f64(rest.get(eq + 1..)?)
}

fn apply(d: &mut DiskInfo, label: &str, tok: &str, text_val: &str) {
    let num = || tok.parse::<u64>().ok();
    let txt = || (!text_val.is_empty()).then(|| text_val.to_string());
    match label {
        "sectorsize" => d.sector_size = num().and_then(|n| u32::try_from(n).ok()),
        "mediasize in bytes" => d.media_bytes = num(),
        "mediasize in sectors" => d.media_sectors = num(),
        "stripesize" => d.stripe_size = num(),
        "stripeoffset" => d.stripe_offset = num(),
        "Cylinders according to firmware." => d.fw_cylinders = num(),
        "Heads according to firmware." => d.fw_heads = num(),
        "Sectors according to firmware." => d.fw_sectors = num(),
        "Disk descr." => d.descr = txt(),
        "Disk ident." => d.ident = txt(),
        "Attachment" => d.attachment = txt(),
        "Physical path" => d.physical_path = txt(),
        "TRIM/UNMAP support" => {
            d.trim = match tok.to_ascii_lowercase().as_str() {
                "yes" => Some(true),
                "no" => Some(false),
                _ => None,
            }
        }
        "Rotation rate in RPM" => d.rotation_rpm = num().and_then(|n| u32::try_from(n).ok()),
        "Zone Mode" => d.zone_mode = txt(),
        _ => {}
    }
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    DISKINFO_ROW,
    r"^\s*\S.*?\s#\s(sectorsize|mediasize in (bytes|sectors)|stripesize|stripeoffset|Cylinders according|Heads according|Sectors according|Disk descr|Disk ident|Attachment|Physical path|TRIM/UNMAP support|Rotation rate|Zone Mode)"
);
crate::rx!(
    DISKINFO_T,
    r"^\s*(Seek times:|Full stroke:|Half stroke:|Quarter stroke:|Short forward:|Short backward:|Seq outer:|Seq inner:|Transfer rates:|outside:|middle:|inside:|I/O command overhead:|time to read 10MB block|time to read 20480 sectors|calculated command overhead|Asynchronous random reads:|Synchronous random writes:|sectorsize:\s+\d+\s+ops|\d+(\.\d+)? kbytes:)"
);
crate::rx!(DISK_HEADER, r"^(/dev/)?([a-zA-Z]+[\dX][\w.]*)$");

fn start_row(lines: &[&str]) -> spec::Start {
    let t = lines.first().copied().unwrap_or("");
    spec::Start::from(
        DISKINFO_ROW.is_match(t)
            || (DISKINFO_T.is_match(t) && t.trim_start().starts_with(['S', 'T', 'I'])),
    )
}

/// "/dev/ada0" on its own line, then the "# sectorsize" rows.
fn start_header(lines: &[&str]) -> spec::Start {
    let t = lines.first().copied().unwrap_or("");
    spec::Start::from(
        DISK_HEADER.is_match(t.trim())
            && spec::next_nonblank(lines, 1, 1)
                .and_then(|n| lines.get(n))
                .is_some_and(|l| DISKINFO_ROW.is_match(l)),
    )
}

fn member(t: &str, st: &spec::BlockState) -> spec::Member {
    if DISK_HEADER.is_match(t.trim()) && st.rows > 0 {
        return spec::Member::NewBlock;
    }
    spec::Member::from(DISKINFO_ROW.is_match(t) || DISKINFO_T.is_match(t))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "diskinfo",
    starts: &[(60, start_row), (61, start_header)],
    member,
    tolerance: (1, 0),
    classify: |_, _| "diskinfo",
    ..spec::Recogniser::NONE
};

/// diskinfo(8) -v: the disk ident (serial) is the value before "# Disk ident.".
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["diskinfo", "-v", "{dev}"])],
    pasted_as: Some(spec::Live::Cmd(&["diskinfo", "-v", "{dev}"])),
    parse: Some(|t| spec::found(parse(t))),
    secrets: &[spec::Secret::Before(
        "# disk ident",
        spec::SecretKind::Serial,
    )],
    paste: Some(spec::Paste {
        device: Some(|text| spec::first_line_capture(&DISK_HEADER, text, 2)),

        ..spec::Paste::new(&RECOGNISER, |p, _| p == "diskinfo")
    }),
    programs: &[spec::Program::new("diskinfo", |a| {
        spec::flags_or_node(a) || spec::DEV_ARG.is_match(a)
    })
    .deciding_platform()],
    mention: Some(r"diskinfo(?:\s+-\w+)*"),
    ..spec::SourceSpec::named("diskinfo", "diskinfo")
};
