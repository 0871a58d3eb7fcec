//! `gpart show [-p] [-r] [geom...]` (gpart(8)): one block per partitioned geom.
//!
//! Block header "=>  first  size  name  scheme  (human) [CORRUPT]": `first` is the first
//! sector the scheme lets partitions use (34 or 40 for GPT, 63 for old MBR layouts, 0 inside
//! a BSD label), NOT the start of a partition. Rows are "start size index|provider type
//! [attrs] (human)" or "start size - free - (human)". Starts are in sectors of the geom the
//! block describes (a BSD label's rows are relative to its slice).

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
    pub entries: Vec<Entry>,
}

impl Block {
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
        e.provider = provider_name(&block.geom, &block.scheme, idx);
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
        } else if e.type_name.is_none() {
            e.type_name = Some(t.to_string());
        }
    }
    Some(e)
}

/// Provider names per scheme (gpart(8) / g_part_*.c naming): MBR and EBR slices "s<n>",
/// BSD label entries "<letter>", everything else "p<n>".
pub fn provider_name(geom: &str, scheme: &str, idx: u32) -> Option<String> {
    match scheme.to_ascii_uppercase().as_str() {
        "MBR" | "EBR" => Some(format!("{geom}s{idx}")),
        "BSD" | "BSD64" => {
            let letter = char::from_u32(('a' as u32) + idx.checked_sub(1)?)?;
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
