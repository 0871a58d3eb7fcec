//! `nvme error-log /dev/nvmeN` (nvme-cli): the controller's Error Information log page
//! (NVMe Base spec 2.0, log page 01h, figure 205). nvme-cli prints each entry as
//! " Entry[ N]" between dotted rules, then "name : value" rows: error_count, sqid, cmdid,
//! status_field, phase_tag (2.x only), parm_err_loc, lba, nsid, vs, trtype, cs, ...
//!
//! The status field is the completion's Status Field (spec figure 101: SC bits 7:0, SCT bits
//! 10:8, CRD 12:11, M 13, DNR 14). nvme-cli 2.x prints it shifted past the phase tag and
//! prints the phase tag on its own row ("status_field : 0x2002(Invalid Field in Command...)",
//! "phase_tag : 0x1"); nvme-cli 1.x printed the raw 16 bits with the phase tag in bit 0
//! ("status_field : 0xc502(READ_ERROR: ...)", the name decoded from the value shifted right
//! by one). Status code type 2h is "Media and Data Integrity Errors" (figure 106): 80h write
//! fault, 81h unrecovered read error, 82h-84h end-to-end guard/application/reference tag
//! check errors, 85h compare failure, 86h access denied, 87h deallocated or unwritten block.
//! Generic errors on the admin queue (sqid 0), such as 02h Invalid Field in Command, are
//! commands the drive refused, not data it lost.
//!
//! smartctl prints the same log page as a table (smartmontools nvmeprint.cpp
//! `print_error_log`): "Error Information (NVMe Log 0x01, max 63 entries)" (7.2 and later:
//! "16 of 64 entries"), the header "Num   ErrCount  SQId   CmdId  Status  PELoc          LBA
//! NSID    VS" (7.3 adds "  Message"), one row per entry with "-" for a field the entry
//! does not hold, and the raw 16-bit status with the phase tag in bit 0 ("0x421e": SCT 1h,
//! SC 0Fh, Feature Not Namespace Specific, a refused admin command), or "No Errors Logged".

use crate::sources::spec;
use crate::sources::util::clean_line;

/// One entry of the log as nvme-cli printed it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ErrorEntry {
    /// The drive's running count of errors when this one was logged (error_count).
    pub error_count: Option<u64>,
    /// Submission queue: 0 is the admin queue.
    pub sqid: Option<u64>,
    /// The Status Field without the phase tag (SC, SCT, CRD, M, DNR).
    pub status: Option<u16>,
    /// nvme-cli's decoded name of the status, as printed in parentheses.
    pub status_text: String,
    pub lba: Option<u64>,
    /// The status_field row as printed.
    pub line: String,
}

impl ErrorEntry {
    /// Status Code Type (bits 10:8).
    pub fn sct(&self) -> Option<u16> {
        self.status.map(|s| (s >> 8) & 0x7)
    }

    /// Status Code (bits 7:0).
    pub fn sc(&self) -> Option<u16> {
        self.status.map(|s| s & 0xff)
    }

    /// A media and data integrity error that lost or damaged data: SCT 2h, SC 80h-85h
    /// (86h access denied and 87h deallocated block are not the medium failing).
    pub fn is_media_error(&self) -> bool {
        let by_code =
            self.sct() == Some(2) && self.sc().is_some_and(|c| (0x80..=0x85).contains(&c));
        let t = self.status_text.to_ascii_lowercase();
        let by_name = t.contains("unrecovered read")
            || t.starts_with("read_error")
            || t.starts_with("write_fault")
            || t.contains("write fault")
            || t.contains("could not be recovered from the media");
        by_code || by_name
    }
}

/// The number at the start of a value: hex with 0x, else decimal.
fn number(v: &str) -> Option<u64> {
    let v = v.trim();
    let head: String = v
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    match head.strip_prefix("0x").or_else(|| head.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => head.parse().ok(),
    }
}

/// "name : value" of a row (nvme-cli pads the name with tabs or spaces).
fn row(line: &str) -> Option<(String, String)> {
    let l = clean_line(line);
    let (k, v) = l.split_once(':')?;
    let k = k.trim();
    if k.is_empty() || k.contains(' ') || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    Some((k.to_ascii_lowercase(), v.trim().to_string()))
}

fn is_entry_head(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    t.starts_with("Entry[") && t.ends_with(']')
}

/// smartctl's table header: "Num   ErrCount  SQId   CmdId  Status  PELoc ...".
fn is_table_header(line: &str) -> bool {
    let l = clean_line(line);
    let w: Vec<&str> = l.split_whitespace().collect();
    w.first() == Some(&"Num") && w.contains(&"ErrCount") && w.contains(&"Status")
}

/// A row of smartctl's table: "  0       9503     0  0xb00b  0x421e  0x004   0     1     -
/// Feature Not Namespace Specific" (Num ErrCount SQId CmdId Status PELoc LBA NSID VS, then
/// the message). The status is raw, its phase tag in bit 0.
fn table_row(line: &str) -> Option<ErrorEntry> {
    let l = clean_line(line);
    let w: Vec<&str> = l.split_whitespace().collect();
    if w.len() < 9 || !w.first()?.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let field = |i: usize| w.get(i).filter(|v| **v != "-").and_then(|v| number(v));
    let error_count = Some(field(1)?);
    let status = field(4).and_then(|v| u16::try_from((v >> 1) & 0x7fff).ok());
    Some(ErrorEntry {
        error_count,
        sqid: field(2),
        status,
        status_text: w.get(9..).map(|m| m.join(" ")).unwrap_or_default(),
        lba: field(6),
        line: l.trim().to_string(),
    })
}

/// Every entry of the text. An entry starts at its "Entry[N]" heading, or at its
/// error_count row when a paste cut the heading off; smartctl's table gives one per row.
pub fn parse(text: &str) -> Vec<ErrorEntry> {
    let mut out: Vec<ErrorEntry> = Vec::new();
    let mut in_table = false;
    let mut cur: Option<ErrorEntry> = None;
    // Raw status rows wait for the end of the entry: nvme-cli 2.x prints phase_tag after
    // status_field, and only its presence says the value is already shifted.
    let mut raw: Option<u64> = None;
    let mut phase_row = false;
    let finish = |cur: &mut Option<ErrorEntry>,
                  raw: &mut Option<u64>,
                  phase: &mut bool,
                  out: &mut Vec<ErrorEntry>| {
        if let Some(mut e) = cur.take() {
            e.status = raw.take().and_then(|v| {
                let v = if *phase { v } else { v >> 1 };
                u16::try_from(v & 0x7fff).ok()
            });
            out.push(e);
        }
        *phase = false;
    };
    for line in text.lines() {
        if is_table_header(line) {
            in_table = true;
            continue;
        }
        if in_table {
            match table_row(line) {
                Some(e) => {
                    out.push(e);
                    continue;
                }
                None => in_table = false,
            }
        }
        if is_entry_head(line) {
            finish(&mut cur, &mut raw, &mut phase_row, &mut out);
            cur = Some(ErrorEntry::default());
            continue;
        }
        let Some((k, v)) = row(line) else { continue };
        if k == "error_count" && cur.as_ref().is_some_and(|e| e.error_count.is_some()) {
            finish(&mut cur, &mut raw, &mut phase_row, &mut out);
        }
        let e = cur.get_or_insert_with(ErrorEntry::default);
        match k.as_str() {
            "error_count" => e.error_count = number(&v),
            "sqid" => e.sqid = number(&v),
            "status_field" => {
                raw = number(&v);
                e.status_text = v
                    .split_once('(')
                    .map(|(_, r)| r.trim_end_matches(')').trim().to_string())
                    .unwrap_or_default();
                e.line = clean_line(line).trim().to_string();
            }
            "phase_tag" => phase_row = true,
            "lba" => e.lba = number(&v),
            _ => {}
        }
    }
    finish(&mut cur, &mut raw, &mut phase_row, &mut out);
    out.retain(|e| e.error_count.is_some() || e.status.is_some());
    out
}

// ---- the source spec (see sources::spec) ----

const ROWS: &[&str] = &[
    "error_count",
    "sqid",
    "cmdid",
    "status_field",
    "phase_tag",
    "parm_err_loc",
    "lba",
    "nsid",
    "vs",
    "trtype",
    "csi",
    "opcode",
    "cs",
    "trtype_spec_info",
    "log_page_version",
];

fn is_member(line: &str) -> bool {
    let l = clean_line(line);
    let t = l.trim();
    is_entry_head(line)
        || is_table_header(line)
        || table_row(line).is_some()
        || t == "No Errors Logged"
        || (!t.is_empty() && t.chars().all(|c| c == '.'))
        || t.starts_with("Error Log Entries for device:")
        || row(line).is_some_and(|(k, _)| ROWS.contains(&k.as_str()))
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    let t = l.trim();
    if t.starts_with("Error Log Entries for device:") {
        return spec::Start::Yes;
    }
    // smartctl: the title, then its table header (or "No Errors Logged").
    if t.starts_with("Error Information (NVMe Log 0x01") {
        return spec::Start::from(
            lines
                .get(1)
                .is_some_and(|n| is_table_header(n) || clean_line(n).trim() == "No Errors Logged"),
        );
    }
    if is_table_header(first) && lines.get(1).is_some_and(|n| table_row(n).is_some()) {
        return spec::Start::Yes;
    }
    // A dotted rule or an entry heading with the entry's rows close below; or the first
    // row itself when the paste begins there.
    let rows_follow = lines
        .iter()
        .take(5)
        .any(|x| row(x).is_some_and(|(k, _)| k == "error_count" || k == "status_field"));
    let dotted = !t.is_empty() && t.len() >= 8 && t.chars().all(|c| c == '.');
    let starts_entry =
        is_entry_head(first) || dotted || row(first).is_some_and(|(k, _)| k == "error_count");
    spec::Start::from(starts_entry && rows_follow)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "nvme-error-log",
    starts: &[(64, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 0),
    classify: |_, _| "nvme-error-log",
    ..spec::Recogniser::NONE
};

/// "Error Log Entries for device:nvme1 entries:16" names the controller.
fn text_device(text: &str) -> Option<String> {
    text.lines().map(clean_line).find_map(|l| {
        let rest = l.trim().strip_prefix("Error Log Entries for device:")?;
        let d = rest.split_whitespace().next()?;
        (!d.is_empty()).then(|| d.to_string())
    })
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste {
        device: Some(text_device),
        ..spec::Paste::new(&RECOGNISER, |p, a| {
            p == "nvme" && a.trim_start().starts_with("error-log")
        })
    }),
    mention: Some(r"nvme\s+error-log"),
    ..spec::SourceSpec::named(
        "nvme-error-log",
        "nvme error-log (NVMe error information log)",
    )
};

#[cfg(test)]
mod tests;
