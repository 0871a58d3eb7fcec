//! `gpart show [-p] [-r] [geom...]` (gpart(8)): one block per partitioned geom.
//!
//! Block header "=>  first  size  name  scheme  (human) [CORRUPT]": `first` is the first
//! sector the scheme lets partitions use (34 or 40 for GPT, 63 for old MBR layouts, 0 inside
//! a BSD label), NOT the start of a partition. Rows are "start size index|provider type
//! [attrs] (human)" or "start size - free - (human)". Starts are in sectors of the geom the
//! block describes (a BSD label's rows are relative to its slice).
//!
//! Variants (lib/geom/part/geom_part.c gpart_show_geom(), FreeBSD 12-15):
//! - `-l` prints the partition label where the type goes, "(null)" for none; a value that is
//!   not a gpart(8) type alias is taken as a label ([`Entry::label`]).
//! - `-r` prints the raw type: a GPT GUID, or the MBR/EBR type number in decimal. Without
//!   -r an MBR type with no alias prints as "!N" (g_part_mbr.c g_part_mbr_type()). The
//!   extended-container numbers 5, 15 and 133 (05h, 0Fh, 85h) become "ebr", the alias
//!   g_part_mbr.c gives DOSPTYP_EXT.
//! - Plain `gpart show` of an EBR (the logical partitions inside an extended slice such as
//!   ada0s4) prints gpe_index, which for EBR is a function of the start sector, not the
//!   name. With GEOM_PART_EBR_COMPAT (sys/conf/DEFAULTS) g_part_ebr.c
//!   g_part_ebr_fullname() names them by position from 5 on the parent disk: ada0s5,
//!   ada0s6 (never ada0s4s1).

use super::geom_util::unquote;

/// One row of a block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entry {
    pub start: u64,
    pub size: u64,
    /// A "- free -" row.
    pub free: bool,
    /// Partition index (plain `gpart show`).
    pub index: Option<u32>,
    /// Provider name (`gpart show -p`), or derived from the index and scheme.
    pub provider: Option<String>,
    /// Type name ("freebsd-ufs") or, with -r, the raw type (GPT GUID / MBR number).
    pub type_name: Option<String>,
    /// Bracketed attributes ("active").
    pub attrs: Vec<String>,
    /// The GPT/APM label (`gpart show -l`).
    pub label: Option<String>,
}

/// One "=>" block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Block {
    /// The geom ("da0", "da0s1").
    pub geom: String,
    /// "MBR", "GPT", "BSD", "EBR", ...
    pub scheme: String,
    /// First usable sector of the scheme.
    pub first: u64,
    /// Number of usable sectors from `first`.
    pub size: u64,
    pub corrupt: bool,
    /// The provider's media size as the header prints it ("894G": fmtsize of
    /// pp->lg_mediasize, humanize_number with powers of 1024).
    pub human: Option<String>,
    pub entries: Vec<Entry>,
}

impl Block {
    /// The sector size the block counts in, when its header tells: gpart prints the
    /// usable sectors (last - first + 1) and the provider's media size in bytes, humanised
    /// to three digits; a 4Kn disk's sectors times 512 fall short of that size by 8x, a
    /// 512-byte disk's match it. Only 512 and 4096 are told apart, and only when the
    /// product agrees with the printed size within 10 % (a usable range is a few sectors
    /// short of the media, and humanize_number rounds).
    pub fn sector_size_from_header(&self) -> Option<u32> {
        let media = super::util::parse_human_size(self.human.as_deref()?.trim_end_matches('B'))?;
        if media < 1 << 20 {
            return None;
        }
        let sectors = self.first.checked_add(self.size)?;
        [512u32, 4096].into_iter().find(|sz| {
            let bytes = sectors.saturating_mul(u64::from(*sz)) as f64;
            let m = media as f64;
            (bytes - m).abs() <= m * 0.10
        })
    }

    /// Partition rows only (no free space).
    pub fn partitions(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| !e.free)
    }
}

pub fn parse(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for raw in text.lines() {
        let line = unquote(raw);
        if let Some(rest) = line.strip_prefix("=>") {
            let toks: Vec<&str> = rest.split_whitespace().collect();
            let (Some(first), Some(size), Some(geom), Some(scheme)) = (
                toks.first().and_then(|t| t.parse().ok()),
                toks.get(1).and_then(|t| t.parse().ok()),
                toks.get(2),
                toks.get(3),
            ) else {
                continue;
            };
            out.push(Block {
                geom: geom.to_string(),
                scheme: scheme.to_string(),
                first,
                size,
                corrupt: line.contains("[CORRUPT]"),
                human: toks
                    .iter()
                    .find_map(|t| t.strip_prefix('(').and_then(|t| t.strip_suffix(')')))
                    .map(str::to_string),
                entries: Vec::new(),
            });
            continue;
        }
        let Some(block) = out.last_mut() else {
            continue;
        };
        if let Some(e) = parse_row(line, block) {
            block.entries.push(e);
        }
    }
    out
}

fn parse_row(line: &str, block: &Block) -> Option<Entry> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let start: u64 = toks.first()?.parse().ok()?;
    let size: u64 = toks.get(1)?.parse().ok()?;
    let third = *toks.get(2)?;
    let mut e = Entry {
        start,
        size,
        ..Default::default()
    };
    if third == "-" && toks.get(3) == Some(&"free") {
        e.free = true;
        return Some(e);
    }
    if let Ok(idx) = third.parse::<u32>() {
        e.index = Some(idx);
        e.provider = if block.scheme.eq_ignore_ascii_case("EBR") {
            ebr_name(&block.geom, block.partitions().count())
        } else {
            provider_name(&block.geom, &block.scheme, idx)
        };
    } else {
        e.provider = Some(third.to_string());
        e.index = index_from_provider(third, &block.geom);
    }
    for t in toks.get(3..).unwrap_or(&[]) {
        if t.starts_with('(') {
            break; // human-readable size, last column
        }
        if let Some(a) = t.strip_prefix('[').and_then(|a| a.strip_suffix(']')) {
            e.attrs.push(a.to_string());
        } else if e.type_name.is_none() && e.label.is_none() {
            let mbr = matches!(block.scheme.to_ascii_uppercase().as_str(), "MBR" | "EBR");
            match classify_type(t, mbr) {
                Column::Type(ty) => e.type_name = Some(ty),
                Column::Label(l) => e.label = Some(l),
                Column::NullLabel => {}
            }
        }
    }
    Some(e)
}

enum Column {
    Type(String),
    Label(String),
    NullLabel,
}

/// Type aliases of sys/geom/part/g_part.c g_part_alias_list (FreeBSD 14), exact names;
/// families are matched by prefix below.
const TYPE_ALIASES: &[&str] = &[
    "bios-boot",
    "ebr",
    "efi",
    "fat16",
    "fat32",
    "fat32lba",
    "freebsd",
    "freebsd-boot",
    "freebsd-nandfs",
    "freebsd-swap",
    "freebsd-ufs",
    "freebsd-vinum",
    "freebsd-zfs",
    "mbr",
    "ntfs",
    "openbsd-data",
    "prep-boot",
    "u-boot-env",
];
const TYPE_FAMILIES: &[&str] = &[
    "apple-",
    "chromeos-",
    "dragonfly-",
    "hifive-",
    "linux-",
    "ms-",
    "netbsd-",
    "solaris-",
    "vmware-",
];

/// What the type column holds: a type (alias, "!N", a raw number or GUID), a label
/// (`-l`), or "(null)" (`-l` on an unlabelled partition).
fn classify_type(t: &str, mbr: bool) -> Column {
    if t == "(null)" {
        return Column::NullLabel;
    }
    let raw = t.strip_prefix('!').unwrap_or(t);
    if mbr && let Ok(n) = raw.parse::<u32>() {
        return Column::Type(match n {
            5 | 15 | 133 => "ebr".to_string(),
            _ => t.to_string(),
        });
    }
    let guid = t.len() == 36 && t.chars().filter(|c| *c == '-').count() == 4;
    if t.starts_with('!')
        || guid
        || TYPE_ALIASES.contains(&t)
        || TYPE_FAMILIES.iter().any(|f| t.starts_with(f))
    {
        Column::Type(t.to_string())
    } else {
        Column::Label(t.to_string())
    }
}

/// The name of the `ordinal`-th (0-based) logical partition of EBR geom `geom` ("ada0s4"):
/// g_part_ebr_fullname() prints the parent name without its last character, then 5 +
/// ordinal ("ada0s5").
pub fn ebr_name(geom: &str, ordinal: usize) -> Option<String> {
    let mut base = geom.to_string();
    base.pop()?;
    let n = ordinal.checked_add(5)?;
    Some(format!("{base}{n}"))
}

/// Provider names per scheme (gpart(8) / g_part_*.c naming): MBR and EBR slices "s<n>",
/// BSD label entries "<letter>", everything else "p<n>".
pub fn provider_name(geom: &str, scheme: &str, idx: u32) -> Option<String> {
    match scheme.to_ascii_uppercase().as_str() {
        "MBR" | "EBR" => Some(format!("{geom}s{idx}")),
        "BSD" | "BSD64" => {
            // A pasted index can be any u32 (gpart show's index column as typed).
            let letter = char::from_u32(('a' as u32).checked_add(idx.checked_sub(1)?)?)?;
            Some(format!("{geom}{letter}"))
        }
        _ => Some(format!("{geom}p{idx}")),
    }
}

fn index_from_provider(provider: &str, geom: &str) -> Option<u32> {
    let suffix = provider.strip_prefix(geom)?;
    let digits: String = suffix.chars().filter(|c| c.is_ascii_digit()).collect();
    if !digits.is_empty() {
        return digits.parse().ok();
    }
    let c = suffix.chars().next()?;
    c.is_ascii_lowercase()
        .then(|| (c as u32) - ('a' as u32) + 1)
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    GPART_HDR,
    r"^=>\s+\d+\s+\d+\s+(\S+)\s+(MBR|GPT|BSD|EBR|VTOC8|APM|LDM|BSD64|PC98)\b"
);
crate::rx!(
    GPART_ROW,
    r"^\s*\d+\s+\d+\s+(\S+\s+)?(\S+|- free -)(\s+\[[^\]]*\])?\s+\([\d.]+\s*[KMGTPEkmgtpe]?B?\)(\s+\[[^\]]*\])?\s*$"
);
crate::rx!(GPART_ROW_FREE, r"^\s*\d+\s+\d+\s+(\S+\s+)?- free -");

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "gpart-show",
    starts: &[(10, |l| {
        spec::on_first(l, |t| GPART_HDR.is_match(t.trim_start()))
    })],
    member: |t, _| {
        spec::Member::from(
            GPART_HDR.is_match(t.trim()) || GPART_ROW.is_match(t) || GPART_ROW_FREE.is_match(t),
        )
    },
    tolerance: (1, 0),
    classify: |_, _| "gpart-show",
    ..spec::Recogniser::NONE
};

/// gpart(8) show: the provider is on the header line ("=> 63 1953525105 ada0 MBR").
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    live: &[spec::Live::Cmd(&["gpart", "show", "-p"])],
    pasted_as: Some(spec::Live::Cmd(&["gpart", "show", "-p"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste {
        device: Some(|text| spec::first_line_capture(&GPART_HDR, text, 1)),
        device_in_text_first: true,

        ..spec::Paste::new(&RECOGNISER, |p, t| p == "gpart" && t.contains("show"))
    }),
    programs: &[
        spec::Program::new("gpart", |a| spec::starts_with_any(a, &["show", "list"]))
            .deciding_platform(),
    ],
    mention: Some(r"gpart\s+(?:show|list)(?:\s+-\w+)?"),
    // A block's geom may be a GEOM label provider: "diskid/DISK-SERIAL", "iso9660/VOLUME",
    // "gpt/NAME" (gpart prints every geom the disk's table is tasted through).
    secrets: &[spec::Secret::Scan(secrets)],
    ..spec::SourceSpec::named("gpart-show", "gpart show")
};

/// The secrets the geom names of the blocks carry (geom_util::geom_label_secret).
fn secrets(text: &str) -> Vec<spec::Found> {
    parse(text)
        .iter()
        .filter_map(|b| super::geom_util::geom_label_secret(&b.geom))
        .collect()
}

#[cfg(test)]
mod tests;
