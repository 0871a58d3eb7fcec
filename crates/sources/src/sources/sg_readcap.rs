//! `sg_readcap` (sg3_utils src/sg_readcap.c): a SCSI disk's READ CAPACITY answer. "Read
//! Capacity results:" heads indented rows: with READ CAPACITY (16) (`-l`, `-16`, or when the
//! 10-byte command overflows) "Protection: prot_en=0, ...", "Logical block provisioning:
//! lbpme=0, lbprz=0", "Last LBA=N (0x..), Number of logical blocks=N", "Logical block
//! length=512 bytes", "Logical blocks per physical block exponent=3 [so physical block
//! length=4096 bytes]", "Lowest aligned LBA=0"; READ CAPACITY (10) gives the size rows only.
//! LBPME (SBC-4 5.20.2, parameter data byte 14 bit 7) says the logical unit implements
//! logical block provisioning. Linux's sd driver reads the unmap limits only when it is set
//! (drivers/scsi/sd.c sd_read_block_limits: `if (!sdkp->lbpme) goto out`; from 6.10
//! sd_discard_mode returns SD_LBP_FULL), so with lbpme=0 discards stay off whatever the VPD
//! pages offer (sources::sg_vpd), until someone writes `unmap` into provisioning_mode.

use crate::sources::spec;
use crate::sources::util::{clean_line, sg3_arg};

crate::rx!(
    ROW,
    r"^(?:Protection: prot_en=|Logical block provisioning: lbpme=|Last (?:LBA|logical block address)=|Logical block length=|Logical blocks per physical block exponent=|Lowest aligned (?:LBA|logical block address)=|Device size: |Hence:$|length=\d+ bytes\]$|blocks=\d+$|READ CAPACITY \(10\) indicates|now trying 16 byte)"
);
crate::rx!(NUM, r"([A-Za-z ]+?)=(\d+)");

/// What one READ CAPACITY answer shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SgReadcap {
    /// LBPME: the logical unit implements logical block provisioning (thin, takes UNMAP).
    pub lbpme: Option<bool>,
    /// Logical block length, bytes.
    pub logical_bytes: Option<u32>,
    /// Logical block length times 2^exponent, bytes.
    pub physical_bytes: Option<u32>,
    /// The lowest LBA on a physical block boundary (0 on almost every disk; SBC-4
    /// 5.20.2: a 512e disk with 7 has its physical blocks start at LBA 7).
    pub lowest_aligned: Option<u64>,
    /// Number of logical blocks times the logical block length.
    pub size_bytes: Option<u64>,
    /// Rows read.
    pub rows: usize,
}

pub fn parse(text: &str) -> SgReadcap {
    let mut out = SgReadcap::default();
    let (mut exponent, mut blocks) = (None::<u32>, None::<u64>);
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if !ROW.is_match(t) {
            continue;
        }
        out.rows += 1;
        for c in NUM.captures_iter(t) {
            let key = c.get(1).map_or("", |m| m.as_str()).trim();
            let Some(n) = c.get(2).and_then(|m| m.as_str().parse::<u64>().ok()) else {
                continue;
            };
            match key {
                "lbpme" => out.lbpme = Some(n != 0),
                "Logical block length" => out.logical_bytes = u32::try_from(n).ok(),
                "Logical blocks per physical block exponent" => {
                    exponent = u32::try_from(n).ok();
                }
                "Lowest aligned LBA" | "Lowest aligned logical block address" => {
                    out.lowest_aligned = Some(n);
                }
                "Number of logical blocks" | "Number of blocks" => blocks = Some(n),
                _ => {}
            }
        }
    }
    // The exponent is a 4-bit field (SBC-4 table 110): anything larger is not this output.
    out.physical_bytes = match (out.logical_bytes, exponent) {
        (Some(l), Some(e)) if e <= 15 => l.checked_shl(e).filter(|p| *p >= l),
        _ => None,
    };
    out.size_bytes = blocks
        .zip(out.logical_bytes)
        .and_then(|(b, l)| b.checked_mul(u64::from(l)));
    out
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sg-readcap",
    starts: &[(63, |lines| {
        let first = lines.first().map(|l| clean_line(l)).unwrap_or_default();
        let t = first.trim();
        spec::Start::from(
            t == "Read Capacity results:" || t.starts_with("READ CAPACITY (10) indicates"),
        )
    })],
    member: |t, _| {
        let l = clean_line(t);
        let t = l.trim();
        spec::Member::from(t == "Read Capacity results:" || ROW.is_match(t))
    },
    tolerance: (2, 0),
    classify: |_, _| "sg-readcap",
    ..spec::Recogniser::NONE
};

/// sg_readcap: pasted, not captured.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    // sg3_utils builds on FreeBSD too (sysutils/sg3_utils) and prints the same text.
    platform: None,
    parse: Some(|t| parse(t).rows),
    paste: Some(spec::Paste {
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "sg_readcap")
    }),
    programs: &[spec::Program::new("sg_readcap", sg3_arg)],
    mention: Some(r"sg_readcap\s+-"),
    ..spec::SourceSpec::named("sg-readcap", "sg_readcap (SCSI READ CAPACITY)")
};

#[cfg(test)]
mod tests;
