//! The chipset pages of Linux 2.4/2.6's IDE drivers under /proc/ide/ (`cat /proc/ide/amd74xx`,
//! `/proc/ide/via`): drivers/ide/pci/amd74xx.c and via82cxxx.c `*_get_info` print
//! "----------AMD BusMastering IDE Configuration----------------", "Highest DMA rate:
//! UDMA100", then per channel "-----Primary IDE-------Secondary IDE------" rows such as
//! "Cable Type:   40w   80w" (the driver's 80-conductor detection, bit per channel), and per
//! drive "-------------------drive0----drive1----drive2----drive3-----" rows "Transfer Mode:
//! UDMA UDMA UDMA PIO" and "Transfer Rate: 33.3MB/s ..." (the mode in use). drive0/1 are
//! the primary channel's master and slave (hda, hdb), drive2/3 the secondary's (hdc, hdd:
//! Documentation/ide/ide.txt). UDMA modes above 2 (33 MB/s) need the 80-conductor cable
//! (ATA/ATAPI-5 section 9.13), so a 40w channel holds its drives at UDMA/33.

use crate::sources::spec;

/// One drive position the page lists.
#[derive(Debug, Clone, PartialEq)]
pub struct IdeDrive {
    /// 0-3: drive0..drive3.
    pub index: usize,
    /// The kernel name of the position (hda..hdd).
    pub name: String,
    /// "UDMA", "DMA", "PIO".
    pub mode: String,
    /// The UDMA rate in use, MB/s as libata names modes (33 for "33.3MB/s"), when in UDMA.
    pub udma_mb_s: Option<u32>,
    /// The drive's channel was detected with an 80-conductor cable.
    pub cable_80w: Option<bool>,
}

/// One chipset page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProcIde {
    /// "AMD", "VIA".
    pub chipset: String,
    /// "Highest DMA rate: UDMA100" -> 100.
    pub host_max_udma_mb_s: Option<u32>,
    pub drives: Vec<IdeDrive>,
    /// The "Cable Type:" row as printed, for evidence.
    pub cable_line: Option<String>,
}

fn clean(raw: &str) -> &str {
    let mut s = raw.trim();
    while let Some(r) = s.strip_prefix('>') {
        s = r.trim_start();
    }
    s
}

/// "----------AMD BusMastering IDE Configuration----------------" -> "AMD".
fn title(l: &str) -> Option<String> {
    let t = l.trim_matches('-').trim();
    let name = t.strip_suffix("IDE Configuration")?.trim();
    let name = name.strip_suffix("BusMastering").unwrap_or(name).trim();
    (l.starts_with("---") && !name.is_empty()).then(|| name.to_string())
}

/// A UDMA rate as the page prints it ("33.3MB/s", "100.0MB/s") -> 33, 100.
fn udma_rate(s: &str) -> Option<u32> {
    let n: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: u32 = n.parse().ok()?;
    [16, 25, 33, 44, 66, 100, 133].contains(&n).then_some(n)
}

/// "Key:   a   b   c" -> the values after the colon.
fn row<'a>(l: &'a str, key: &str) -> Option<Vec<&'a str>> {
    let rest = l.strip_prefix(key)?.trim_start().strip_prefix(':')?;
    Some(rest.split_whitespace().collect())
}

pub fn parse(text: &str) -> Vec<ProcIde> {
    let mut out: Vec<ProcIde> = Vec::new();
    let mut modes: Vec<String> = Vec::new();
    let mut cables: Vec<bool> = Vec::new();
    for raw in text.lines() {
        let l = clean(raw);
        if let Some(chipset) = title(l) {
            out.push(ProcIde {
                chipset,
                ..ProcIde::default()
            });
            modes.clear();
            cables.clear();
            continue;
        }
        let Some(p) = out.last_mut() else { continue };
        if let Some(v) = row(l, "Highest DMA rate") {
            p.host_max_udma_mb_s = v
                .first()
                .and_then(|m| m.strip_prefix("UDMA"))
                .and_then(udma_rate);
        } else if let Some(v) = row(l, "Cable Type") {
            cables = v.iter().map(|c| *c == "80w").collect();
            p.cable_line = Some(l.to_string());
        } else if let Some(v) = row(l, "Transfer Mode") {
            modes = v.iter().map(|m| m.to_string()).collect();
        } else if let Some(v) = row(l, "Transfer Rate") {
            for (i, (mode, rate)) in modes.iter().zip(v.iter()).enumerate().take(4) {
                let name = ["hda", "hdb", "hdc", "hdd"]
                    .get(i)
                    .copied()
                    .unwrap_or("hd?");
                p.drives.push(IdeDrive {
                    index: i,
                    name: name.to_string(),
                    mode: mode.clone(),
                    udma_mb_s: (mode == "UDMA").then(|| udma_rate(rate)).flatten(),
                    cable_80w: cables.get(i / 2).copied(),
                });
            }
        }
    }
    out.retain(|p| !p.drives.is_empty() || p.host_max_udma_mb_s.is_some());
    out
}

// ---- the source spec (see sources::spec) ----

fn is_member(raw: &str) -> bool {
    let l = clean(raw);
    if l.starts_with("---") {
        return true;
    }
    // "Key:   value ..." rows: a capitalised label of words, a colon, values.
    l.split_once(':').is_some_and(|(k, v)| {
        !k.is_empty()
            && k.len() <= 28
            && k.starts_with(|c: char| c.is_ascii_uppercase())
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || " -/".contains(c))
            && !v.trim().is_empty()
    }) || l.starts_with('[')
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "proc-ide",
    starts: &[(40, |lines| {
        spec::on_first(lines, |l| title(clean(l)).is_some())
    })],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (1, 1),
    classify: |_, _| "proc-ide",
    ..spec::Recogniser::NONE
};

/// /proc/ide/<chipset>: pasted, not captured (the old IDE driver is gone since Linux 4.x).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        p == "cat" && a.contains("/proc/ide/")
    })),
    ..spec::SourceSpec::named("proc-ide", "/proc/ide chipset page")
};

#[cfg(test)]
mod tests;
