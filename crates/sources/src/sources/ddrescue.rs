//! GNU ddrescue's status screen (ddrescue(1), "ddrescue [options] infile outfile
//! [mapfile]": it copies a file or block device to another, reading the good parts first
//! and then retrying the areas that failed). Since 1.20 the screen reads
//!
//! ```text
//!      ipos:   32212 MB, non-trimmed:        0 B,  current rate:    533 MB/s
//!      opos:   32212 MB, non-scraped:        0 B,  average rate:    657 MB/s
//! non-tried:        0 B,  bad-sector:        0 B,    error rate:       0 B/s
//!   rescued:   32212 MB,   bad areas:        0,        run time:         48s
//! pct rescued:  100.00%, read errors:        0,  remaining time:         n/a
//!                               time since last successful read:         n/a
//! Finished
//! ```
//!
//! and before it "rescued: X, errsize: Y, current rate: ..." / "ipos: X, errors: N, average
//! rate: ..." / "opos: X, time since last successful read: ..." (1.14-1.19). The manual
//! (GNU ddrescue manual, "Invoking ddrescue" and the mapfile's block statuses) names what
//! the counters are: "bad-sector" (older "errsize") the bytes ddrescue found unreadable
//! sector by sector, "bad areas" (older "errors") the number of those failed areas, "read
//! errors" the failed read attempts; "non-trimmed" and "non-scraped" are failed blocks not
//! yet retried sector by sector. A run with none of them read every byte of its input:
//! the input is readable end to end; a run with any of them met reads the device failed.

use crate::sources::{spec, util};

/// What a ddrescue status screen shows (the last screen of the paste).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DdrescueStatus {
    /// "bad-sector:" (or "errsize:") in bytes.
    pub bad_sector_bytes: Option<u64>,
    /// "bad areas:" (or "errors:").
    pub bad_areas: Option<u64>,
    /// "read errors:" (1.20 and later).
    pub read_errors: Option<u64>,
    /// "non-trimmed:" plus "non-scraped:" in bytes: failed blocks not yet split.
    pub failed_unsplit_bytes: Option<u64>,
    /// "Finished" after the screen.
    pub finished: bool,
    /// The status lines that hold the counters, as pasted.
    pub lines: Vec<String>,
}

impl DdrescueStatus {
    /// Whether the run met reads its input failed.
    pub(crate) fn found_errors(&self) -> bool {
        [
            self.bad_sector_bytes,
            self.bad_areas,
            self.read_errors,
            self.failed_unsplit_bytes,
        ]
        .iter()
        .any(|v| v.is_some_and(|n| n > 0))
    }
}

/// The status fields of a line: "name: value" pairs separated by ", " ("ipos:   32212
/// MB, non-trimmed:        0 B,  current rate:    533 MB/s").
fn fields(t: &str) -> Vec<(String, String)> {
    t.split(", ")
        .filter_map(|f| {
            let (k, v) = f.split_once(':')?;
            Some((k.trim().to_ascii_lowercase(), v.trim().to_string()))
        })
        .collect()
}

/// A size as ddrescue prints it: "0 B", "21504 B", "5377 kB", "32212 MB", "3000 GB"
/// (SI multipliers by default, binary ones with -B: "KiB", "MiB").
fn size_bytes(v: &str) -> Option<u64> {
    let mut w = v.split_whitespace();
    let n: u64 = w.next()?.parse().ok()?;
    let mult: u64 = match w.next()? {
        "B" => 1,
        "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        "TiB" => 1 << 40,
        _ => return None,
    };
    n.checked_mul(mult)
}

const KEYS: &[&str] = &[
    "ipos",
    "opos",
    "non-tried",
    "rescued",
    "pct rescued",
    "percent rescued",
    "time since last successful read",
    "time from last successful read",
];

/// Whether a line is one of the status screen's ([`KEYS`] first, as ddrescue lays it out).
fn is_status_line(t: &str) -> bool {
    let low = t.trim().to_ascii_lowercase();
    KEYS.iter().any(|k| {
        low.strip_prefix(k)
            .is_some_and(|r| r.trim_start().starts_with(':'))
    })
}

/// The last status screen in the text, None when it has none.
pub fn parse(text: &str) -> Option<DdrescueStatus> {
    let mut out: Option<DdrescueStatus> = None;
    let mut last_fresh = false;
    for raw in text.lines() {
        let l = util::clean_line(raw);
        // A terminal redraws the screen in place; a paste keeps the last drawing.
        let t = l.rsplit('\r').next().unwrap_or(&l).trim();
        if t == "Finished" {
            if let Some(s) = out.as_mut() {
                s.finished = true;
            }
            continue;
        }
        if !is_status_line(t) {
            continue;
        }
        let fs = fields(t);
        // "ipos:" (or the old "rescued:" first line) opens a new screen.
        let opens = fs.first().is_some_and(|(k, _)| {
            k == "ipos" || (k == "rescued" && fs.iter().any(|(k, _)| k == "errsize"))
        });
        if out.is_none() || (opens && !last_fresh) {
            out = Some(DdrescueStatus::default());
        }
        last_fresh = opens;
        let Some(s) = out.as_mut() else { continue };
        let mut counted = false;
        for (k, v) in &fs {
            match k.as_str() {
                "bad-sector" | "errsize" => {
                    s.bad_sector_bytes = size_bytes(v);
                    counted = true;
                }
                "bad areas" | "errors" => {
                    s.bad_areas = util::leading_u64(v);
                    counted = true;
                }
                "read errors" => {
                    s.read_errors = util::leading_u64(v);
                    counted = true;
                }
                "non-trimmed" | "non-scraped" => {
                    if let Some(b) = size_bytes(v) {
                        s.failed_unsplit_bytes =
                            Some(s.failed_unsplit_bytes.unwrap_or(0).saturating_add(b));
                    }
                }
                _ => {}
            }
        }
        if counted {
            s.lines.push(t.to_string());
        }
    }
    out
}

/// What the run found, as a surface scan of its input (checks::media_errors reads it):
/// the bad areas (or, without any, the read errors) as its bad blocks. None without
/// counters.
pub fn scan(s: &DdrescueStatus) -> Option<crate::model::SurfaceScan> {
    if s.bad_areas.is_none() && s.read_errors.is_none() && s.bad_sector_bytes.is_none() {
        return None;
    }
    // Failed blocks not yet trimmed or scraped are failed reads too: at least one.
    let bad = s
        .bad_areas
        .unwrap_or(0)
        .max(s.read_errors.unwrap_or(0))
        .max(u64::from(s.found_errors()));
    Some(crate::model::SurfaceScan {
        tool: "ddrescue".to_string(),
        bad_blocks: bad,
        read_errors: s.read_errors.or(s.bad_areas),
        write_errors: None,
        corruption_errors: None,
        completed: s.finished,
        line: s.lines.join(" / "),
        from: String::new(),
    })
}

// ---- the source spec (see sources::spec) ----

fn is_member(t: &str) -> bool {
    let t = t.trim();
    is_status_line(t)
        || t == "Finished"
        || t == "Press Ctrl-C to interrupt"
        || t.starts_with("GNU ddrescue ")
        || t.starts_with("Initial status (read from ")
        || t == "Current status"
        || (t.starts_with("Copying non-tried blocks")
            || t.starts_with("Trimming failed blocks")
            || t.starts_with("Scraping failed blocks")
            || t.starts_with("Splitting failed blocks")
            || t.starts_with("Retrying bad sectors"))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "ddrescue",
    starts: &[(40, |lines| {
        let Some(first) = lines.first().map(|l| util::clean_line(l)) else {
            return spec::Start::No;
        };
        let t = first.trim();
        // The banner ("GNU ddrescue 1.24") or the screen's first line.
        let banner = t
            .strip_prefix("GNU ddrescue ")
            .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()));
        let screen = is_status_line(t) && (t.contains("non-trimmed:") || t.contains("errsize:"));
        spec::Start::from(banner || screen)
    })],
    member: |l, _| spec::Member::from(is_member(&util::clean_line(l))),
    tolerance: (1, 0),
    classify: |_, _| "ddrescue",
    ..spec::Recogniser::NONE
};

/// GNU ddrescue: a rescue copy people paste, captured by no probe. Its operands are an
/// input and an output that are files as often as disks, so no argument names the device.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| usize::from(parse(t).is_some())),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "ddrescue")),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("ddrescue", spec::flags_or_node)
    }],
    ..spec::SourceSpec::named("ddrescue", "GNU ddrescue")
};

#[cfg(test)]
mod tests;
