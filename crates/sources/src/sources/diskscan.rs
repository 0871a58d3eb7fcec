//! diskscan (https://github.com/baruch/diskscan): a read-only surface scan that times every
//! read. Its log lines carry a level prefix ("E: ", "I: ", "V: ", cli/verbose.c). A read
//! that failed or came back short prints "E: Error when reading at offset N size S read R:
//! %m" (later ", errno=E: TEXT") and "E: Details: error=KIND data=DATA SK/ASC/ASCQ"
//! (libscandisk disk_scan_part; KIND from error_to_str: corrected, uncorrected, need_retry,
//! fatal, unknown); a fatal one ends the scan with "E: Fatal error occurred, bailing out.".
//! On Linux its SG_IO reads log an error without sense data as "E: IO failed with no
//! sense: status=S mask=M driver=D msg=G host=H" (arch/arch-linux.c) before that.
//! With --fix it rewrites a failed region, or zeroes an uncorrectable one ("I: Fixing
//! uncorrectable region by writing zeros", "E: Error while attempting to overwrite
//! uncorrectable data!"), which it does only when the drive reported the read
//! uncorrectable (io_res.error == ERROR_UNCORRECTED): a medium error.

use crate::sources::{spec, util};

/// What a pasted diskscan log shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiskscanRun {
    /// The disk of "Opened disk /dev/sdb ..." or "Scanning disk /dev/sdb ...".
    pub device: Option<String>,
    /// The "Error when reading at offset" lines (reads that failed or came back short).
    pub read_errors: Vec<String>,
    /// "Fatal error occurred, bailing out.": the scan stopped at an error.
    pub fatal: bool,
    /// The drive reported a read uncorrectable ("error=uncorrected", or --fix zeroing an
    /// uncorrectable region).
    pub uncorrectable: bool,
}

/// A line without its level prefix ("E: ", "I: ", "V: ", "W: ").
fn body(raw: &str) -> Option<String> {
    let l = util::clean_line(raw);
    let t = l.trim();
    let (lvl, rest) = t.split_once(": ")?;
    matches!(lvl, "E" | "I" | "V" | "W").then(|| rest.trim().to_string())
}

fn is_error_line(b: &str) -> bool {
    b.starts_with("Error when reading at offset ")
        || b.starts_with("IO failed with ")
        || b.starts_with("Fatal error occurred, bailing out")
        || b.starts_with("Error while attempting to overwrite uncorrectable data")
        || b.starts_with("Error while attempting to rewrite the data")
}

/// The run in `text`, None when it holds no diskscan line.
pub fn parse(text: &str) -> Option<DiskscanRun> {
    let mut run = DiskscanRun::default();
    let mut seen = false;
    for b in text.lines().filter_map(body) {
        if let Some(rest) = b
            .strip_prefix("Opened disk ")
            .or_else(|| b.strip_prefix("Scanning disk "))
        {
            seen = true;
            run.device = rest.split_whitespace().next().map(str::to_string);
        } else if b.starts_with("Error when reading at offset ") {
            seen = true;
            run.read_errors.push(b.clone());
        } else if b.starts_with("Fatal error occurred, bailing out") {
            seen = true;
            run.fatal = true;
        } else if let Some(d) = b.strip_prefix("Details: error=") {
            seen = true;
            run.uncorrectable |= d.starts_with("uncorrected");
        } else if b.contains("uncorrectable region") || b.contains("overwrite uncorrectable data") {
            seen = true;
            run.uncorrectable = true;
        }
    }
    seen.then_some(run)
}

impl DiskscanRun {
    /// The uncorrectable reads as a surface scan of the disk (media errors); None when the
    /// drive called none uncorrectable.
    pub fn scan(&self, from: &str) -> Option<crate::model::SurfaceScan> {
        if !self.uncorrectable {
            return None;
        }
        let n = u64::try_from(self.read_errors.len())
            .unwrap_or(u64::MAX)
            .max(1);
        Some(crate::model::SurfaceScan {
            tool: "diskscan".to_string(),
            bad_blocks: n,
            read_errors: Some(n),
            write_errors: None,
            corruption_errors: None,
            completed: false,
            line: self
                .read_errors
                .first()
                .cloned()
                .unwrap_or_else(|| "uncorrectable data".to_string()),
            from: from.to_string(),
        })
    }
}

// ---- the source spec (see sources::spec) ----

fn is_member(l: &str) -> bool {
    body(l).is_some_and(|b| {
        is_error_line(&b)
            || [
                "Details: error=",
                "Opened disk ",
                "Scanning disk ",
                "Closed disk ",
                "Scan started at",
                "Scan ended at",
                "Scan took ",
                "Fixing ",
                "Conclusion:",
                "Disk scan interrupted",
            ]
            .iter()
            .any(|p| b.starts_with(p))
    })
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "diskscan",
    starts: &[(66, |lines| {
        let first = lines.first().and_then(|l| body(l));
        spec::Start::from(first.is_some_and(|b| {
            is_error_line(&b) || b.starts_with("Opened disk ") || b.starts_with("Scanning disk ")
        }))
    })],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (1, 1),
    classify: |_, _| "diskscan",
    ..spec::Recogniser::NONE
};

/// diskscan: a surface scan people paste, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| usize::from(parse(t).is_some())),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "diskscan")),
    programs: &[spec::Program::new("diskscan", spec::flags_or_node)],
    ..spec::SourceSpec::named("diskscan", "diskscan")
};

#[cfg(test)]
mod tests;
