//! `sg_inq` (sg3_utils src/sg_inq.c): a SCSI device's standard INQUIRY data. "standard
//! INQUIRY:" heads the bit fields ("PQual=0  Device_type=0  RMB=0 ...", "... CmdQue=1"), then
//! " Vendor identification: ", " Product identification: ", " Product revision level: " and,
//! from the Unit Serial Number VPD page, " Unit serial number: " (SPC-5 6.7.2: T10 vendor,
//! product and revision are ASCII fields padded with spaces). Behind a SATA translation layer
//! (libata, a USB bridge) the vendor is "ATA" and the product the drive's model; behind a USB
//! bridge it may be the enclosure's own name ("Portable SSD T5").

use crate::sources::spec::{self, SecretKind};
use crate::sources::util::{clean_line, sg3_arg};

crate::rx!(
    ROW,
    r"^(?:standard INQUIRY:|PQual=|\[?AERC=|SCCS=|EncServ=|\[RelAdr=|\[SPI:|length=\d+ \(0x[0-9a-f]+\)|(?:Vendor|Product) identification:|Product revision level:|Unit serial number:)"
);

/// The identification fields of one INQUIRY answer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SgInq {
    pub vendor: Option<String>,
    pub product: Option<String>,
    pub revision: Option<String>,
    /// CmdQue: the device takes tagged (queued) commands (SPC-5 table 148).
    pub cmd_que: Option<bool>,
    pub rows: usize,
}

impl SgInq {
    /// The drive's model as other tools print it: "ATA" is libata's or a bridge's vendor
    /// field for every SATA drive (SAT-4 12.4.2), so the product alone is the model.
    pub fn model(&self) -> Option<String> {
        let p = self.product.as_deref()?;
        Some(match self.vendor.as_deref() {
            Some(v) if !v.eq_ignore_ascii_case("ATA") => format!("{v} {p}"),
            _ => p.to_string(),
        })
    }
}

fn field(t: &str, name: &str) -> Option<String> {
    let v = t.strip_prefix(name)?.trim();
    (!v.is_empty()).then(|| v.to_string())
}

pub fn parse(text: &str) -> SgInq {
    let mut out = SgInq::default();
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if !ROW.is_match(t) {
            continue;
        }
        out.rows += 1;
        if let Some(v) = field(t, "Vendor identification:") {
            out.vendor = Some(v);
        } else if let Some(v) = field(t, "Product identification:") {
            out.product = Some(v);
        } else if let Some(v) = field(t, "Product revision level:") {
            out.revision = Some(v);
        } else if let Some(i) = t.find("CmdQue=") {
            out.cmd_que = t.get(i + 7..i + 8).map(|b| b == "1");
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "sg-inq",
    starts: &[(63, |lines| {
        let first = lines.first().map(|l| clean_line(l)).unwrap_or_default();
        spec::Start::from(first.trim() == "standard INQUIRY:")
    })],
    member: |t, _| spec::Member::from(ROW.is_match(clean_line(t).trim())),
    tolerance: (1, 0),
    classify: |_, _| "sg-inq",
    ..spec::Recogniser::NONE
};

/// sg_inq: pasted, not captured. sg3_utils builds on FreeBSD too and prints the same text.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: None,
    parse: Some(|t| parse(t).rows),
    secrets: &[spec::Secret::After(
        "Unit serial number:",
        SecretKind::Serial,
    )],
    paste: Some(spec::Paste {
        one_drive: true,
        ..spec::Paste::new(&RECOGNISER, |p, _| p == "sg_inq")
    }),
    programs: &[spec::Program::new("sg_inq", sg3_arg)],
    mention: Some(r"sg_inq\s+-"),
    ..spec::SourceSpec::named("sg-inq", "sg_inq (SCSI INQUIRY)")
};

#[cfg(test)]
mod tests;
