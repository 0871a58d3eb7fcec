//! `sg_vpd` (sg3_utils src/sg_vpd.c): a SCSI device's Vital Product Data pages, one heading
//! per page ("Block limits VPD page (SBC):", "Logical block provisioning VPD page (SBC):",
//! "Block device characteristics VPD page (SBC):", "Unit serial number VPD page:") and one
//! indented "Name (FIELD): value" row per field. diskdoc reads the fields SBC-4 defines for
//! discards and media: the Logical Block Provisioning page B2h (SBC-4 6.6.4: LBPU, the
//! device takes UNMAP; LBPWS/LBPWS10, WRITE SAME with the UNMAP bit; LBPRZ; the
//! provisioning type), the Block Limits page B0h (6.6.3: maximum unmap LBA count and
//! descriptor count, optimal unmap granularity) and the Block Device Characteristics page
//! B1h (6.6.2: nominal rotation rate, 1 = non-rotating medium). Behind a USB bridge these
//! are the bridge's answers: they say what it passes on, not what Linux does with it (sd.c
//! reads the provisioning page only where the transport lets it, sources::provisioning_mode).

use crate::sources::spec::{self, SecretKind};
use crate::sources::util::{clean_line, sg3_arg};

crate::rx!(
    HEADING,
    r"^[A-Z][A-Za-z0-9 ()/,-]*? VPD page(?: \([A-Z]+\))?:?\s*$"
);
// Older sg_vpd (sg3_utils 1.4x) prints the heading without its colon and the bits as
// "  LBPU=1" rows (linux-scsi 2026-04, a StarTech bridge's provisioning page).
crate::rx!(SHORT, r"^\s+([A-Z][A-Z_0-9]+)=(\S+)\s*$");
crate::rx!(ROW, r"^\s+([A-Za-z][^:]*?)(?: \(([A-Z_0-9]+)\))?:\s*(.*)$");

/// What the text shows of one device's pages.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SgVpd {
    /// LBPU: the device takes the UNMAP command.
    pub unmap_supported: Option<bool>,
    /// LBPWS (WRITE SAME (16) with UNMAP) or LBPWS10.
    pub write_same_unmap: Option<bool>,
    /// "Maximum unmap LBA count": -1 is unbounded, 0 none.
    pub max_unmap_lba: Option<i64>,
    /// "Nominal rotation rate": Some(0) for a non-rotating medium, rpm otherwise.
    pub rotation_rpm: Option<u32>,
    /// Rows read.
    pub rows: usize,
}

fn leading_i64(v: &str) -> Option<i64> {
    let t = v.trim();
    let end = t
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || (*i == 0 && *c == '-')))
        .map_or(t.len(), |(i, _)| i);
    t.get(..end)?.parse().ok()
}

pub fn parse(text: &str) -> SgVpd {
    let mut out = SgVpd::default();
    let mut in_page = false;
    for raw in text.lines() {
        let l = clean_line(raw);
        if HEADING.is_match(l.trim_start()) {
            in_page = true;
            continue;
        }
        if !in_page {
            continue;
        }
        let short = SHORT.captures(&l);
        let Some(c) = ROW.captures(&l).or(short) else {
            if !l.trim().is_empty() && !l.starts_with(char::is_whitespace) {
                in_page = false;
            }
            continue;
        };
        // A short row is "FIELD=value": its field is the first group, its value the second.
        let is_short = c.len() == 3;
        let name = c.get(1).map_or("", |m| m.as_str()).trim();
        let field = if is_short {
            name
        } else {
            c.get(2).map_or("", |m| m.as_str())
        };
        let value = c
            .get(if is_short { 2 } else { 3 })
            .map_or("", |m| m.as_str());
        out.rows += 1;
        let bit = || leading_i64(value).map(|n| n != 0);
        match field {
            "LBPU" => out.unmap_supported = bit(),
            "LBPWS" | "LBPWS10" => {
                out.write_same_unmap =
                    Some(out.write_same_unmap.unwrap_or(false) || bit() == Some(true));
            }
            _ => {}
        }
        if name == "Maximum unmap LBA count" {
            out.max_unmap_lba = leading_i64(value);
        } else if name == "Nominal rotation rate" {
            // SBC-4 table 237: 0 not reported, 1 non-rotating, 0401h-FFFEh the rpm.
            out.rotation_rpm = match leading_i64(value) {
                Some(1) => Some(0),
                Some(n) if (0x401..0xffff).contains(&n) => u32::try_from(n).ok(),
                _ => None,
            };
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn is_heading(t: &str) -> bool {
    HEADING.is_match(clean_line(t).trim_start())
}

fn member(t: &str) -> bool {
    let l = clean_line(t);
    is_heading(t) || ROW.is_match(&l) || SHORT.is_match(&l) || l.trim_start().starts_with('[')
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sg-vpd",
    starts: &[(63, |lines| {
        let Some(first) = lines.first() else {
            return spec::Start::No;
        };
        let row_follows = lines.get(1).is_some_and(|n| {
            let n = clean_line(n);
            ROW.is_match(&n) || SHORT.is_match(&n)
        });
        spec::Start::from(is_heading(first) && row_follows)
    })],
    member: |t, _| spec::Member::from(member(t)),
    tolerance: (1, 0),
    classify: |_, _| "sg-vpd",
    ..spec::Recogniser::NONE
};

/// sg_vpd: pasted, not captured.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Linux),
    parse: Some(|t| parse(t).rows),
    secrets: &[spec::Secret::After(
        "Unit serial number:",
        SecretKind::Serial,
    )],
    paste: Some(spec::Paste {
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "sg_vpd")
    }),
    programs: &[spec::Program::new("sg_vpd", sg3_arg)],
    mention: Some(r"sg_vpd\s+(?:-p|--page)"),
    ..spec::SourceSpec::named("sg-vpd", "sg_vpd (SCSI VPD pages)")
};

#[cfg(test)]
mod tests;
