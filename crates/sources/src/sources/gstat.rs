//! FreeBSD gstat(8) output: per-GEOM-provider queue length, ops, read/write rates, service
//! times and %busy.
//!
//! Reference: gstat(8): columns "L(q) ops/s r/s kBps ms/r w/s kBps ms/w [d/s kBps ms/d]
//! [o/s ms/o] %busy Name"; kBps and ms/x belong to the rate column before them. %busy is
//! the share of the interval with at least one request outstanding and can exceed 100 on a
//! first short sample (dT 0.057s in the fixture). Each disk appears again as its partitions
//! and labels (ada0, ada0p1, gpt/...), so consumers should pick the whole-disk rows.

use crate::sources::util::{clean_line, leading_f64};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct GstatRow {
    /// Provider name: ada0, ada0p1, gpt/raidz2disk2, md0.
    pub name: String,
    /// 0 for the first screen, counting "dT:" headers.
    pub sample: usize,
    pub queue_len: Option<f64>,
    pub ops_per_sec: Option<f64>,
    pub reads_per_sec: Option<f64>,
    pub read_kbps: Option<f64>,
    pub ms_per_read: Option<f64>,
    pub writes_per_sec: Option<f64>,
    pub write_kbps: Option<f64>,
    pub ms_per_write: Option<f64>,
    pub busy_pct: Option<f64>,
    /// The sample interval from "dT: 0.057s", seconds.
    pub interval_secs: Option<f64>,
}

impl GstatRow {
    /// Kilobytes per transfer (read + write kBps over r/s + w/s).
    pub fn kb_per_transfer(&self) -> Option<f64> {
        let ops = self.reads_per_sec.unwrap_or(0.0) + self.writes_per_sec.unwrap_or(0.0);
        let kb = self.read_kbps.unwrap_or(0.0) + self.write_kbps.unwrap_or(0.0);
        (ops > 0.0).then(|| kb / ops)
    }
    /// Whether this is a whole disk rather than a partition or label (ada0, da12, nvd0).
    pub fn is_whole_disk(&self) -> bool {
        let n = &self.name;
        if n.contains('/') {
            return false;
        }
        let alpha: String = n.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let rest = n.get(alpha.len()..).unwrap_or("");
        !alpha.is_empty()
            && !rest.is_empty()
            && rest.chars().all(|c| c.is_ascii_digit())
            && matches!(
                alpha.as_str(),
                "ada"
                    | "da"
                    | "ad"
                    | "nvd"
                    | "nda"
                    | "mmcsd"
                    | "sdda"
                    | "mfid"
                    | "mfisyspd"
                    | "vtbd"
                    | "xbd"
            )
    }
}

/// Every provider row of every screen in the text: the screen form (interactive, "%busy|
/// name"), batch form (`-b`/`-B`: "%busy  name", gstat.c prints " " where the screen has
/// "|"), the `-s`/`-d`/`-o` extra columns and `-C` CSV. gstat prints with printf in the C
/// locale (it never calls setlocale), so numbers always have a decimal point. A row whose
/// number of numeric fields does not match its header is skipped: it is not gstat(8)'s
/// layout (gstat-rs, a different tool, names its columns "kB/s r", with spaces).
pub fn parse(text: &str) -> Vec<GstatRow> {
    let mut out = Vec::new();
    let mut cols: Vec<String> = Vec::new();
    let mut csv: Vec<String> = Vec::new();
    let mut sample: Option<usize> = None;
    let mut interval = None;
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("dT:") {
            interval = leading_f64(rest);
            sample = Some(sample.map_or(0, |s| s + 1));
            continue;
        }
        if t.starts_with("L(q)") {
            cols = t.split_whitespace().map(str::to_string).collect();
            csv.clear();
            if sample.is_none() {
                sample = Some(0);
            }
            continue;
        }
        // gstat -C: "timestamp,name,q-depth,total_ops/s,read/s,..." once, then one row per
        // provider and interval, each starting with its timestamp.
        if t.starts_with("timestamp,name,") {
            csv = t.split(',').map(|c| c.trim().to_string()).collect();
            cols.clear();
            continue;
        }
        if !csv.is_empty() {
            if let Some(r) = csv_row(&csv, t) {
                out.push(r);
            }
            continue;
        }
        if cols.is_empty() {
            continue;
        }
        if let Some(mut r) = screen_row(&cols, t) {
            r.sample = sample.unwrap_or(0);
            r.interval_secs = interval;
            out.push(r);
        }
    }
    out
}

/// One provider row under a "L(q) ops/s ..." header: its numbers, then "|" (screen) or
/// blanks (batch), then the name.
fn screen_row(cols: &[String], t: &str) -> Option<GstatRow> {
    let numeric: Vec<&str> = cols
        .iter()
        .map(String::as_str)
        .take_while(|c| *c != "Name")
        .collect();
    let flat = t.replacen('|', " ", 1);
    let toks: Vec<&str> = flat.split_whitespace().collect();
    if toks.len() <= numeric.len() {
        return None;
    }
    let vals: Vec<f64> = toks
        .get(..numeric.len())?
        .iter()
        .map(|v| v.parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect::<Option<Vec<f64>>>()?;
    let name = toks.get(numeric.len()..)?.join(" ");
    let mut r = GstatRow {
        name,
        ..Default::default()
    };
    let mut last_rate = "";
    for (c, v) in numeric.iter().zip(vals) {
        let v = Some(v);
        match *c {
            "L(q)" => r.queue_len = v,
            "ops/s" => r.ops_per_sec = v,
            "r/s" => {
                r.reads_per_sec = v;
                last_rate = "r";
            }
            "w/s" => {
                r.writes_per_sec = v;
                last_rate = "w";
            }
            "d/s" | "o/s" => last_rate = "other",
            "kBps" => match last_rate {
                "r" => r.read_kbps = v,
                "w" => r.write_kbps = v,
                _ => {}
            },
            "ms/r" => r.ms_per_read = v,
            "ms/w" => r.ms_per_write = v,
            "%busy" => r.busy_pct = v,
            _ => {}
        }
    }
    Some(r)
}

/// One `gstat -C` row under its header (gstat.c: "timestamp,name,q-depth,total_ops/s",
/// "read/s,read-KiB/s,ms/read", "write/s,write-KiB/s,ms/write", ..., "%busy").
fn csv_row(header: &[String], t: &str) -> Option<GstatRow> {
    let fields: Vec<&str> = t.split(',').map(str::trim).collect();
    if fields.len() != header.len() {
        return None;
    }
    let mut r = GstatRow::default();
    for (c, v) in header.iter().zip(&fields) {
        let num = || v.parse::<f64>().ok().filter(|x| x.is_finite());
        match c.as_str() {
            "name" => r.name = v.to_string(),
            "q-depth" => r.queue_len = num(),
            "total_ops/s" => r.ops_per_sec = num(),
            "read/s" => r.reads_per_sec = num(),
            "read-KiB/s" => r.read_kbps = num(),
            "ms/read" => r.ms_per_read = num(),
            "write/s" => r.writes_per_sec = num(),
            "write-KiB/s" => r.write_kbps = num(),
            "ms/write" => r.ms_per_write = num(),
            "%busy" => r.busy_pct = num(),
            _ => {}
        }
    }
    (!r.name.is_empty() && r.busy_pct.is_some()).then_some(r)
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(
    GSTAT_START,
    r"^\s*(dT: [\d.]+s\s+w: |L\(q\)\s+ops/s|timestamp,name,q-depth,)"
);
// A provider row: numbers, "|" (screen) or blanks (batch), the name; a "*" row (a provider
// whose statistics changed while read, gstat.c); a `-C` row ("2024-05-01 10:00:00.123,ada0,...").
crate::rx!(
    GSTAT_ROW,
    r"^\s*(\d+\s+\d+(\s+[\d.]+)+\s*\|?\s*\S+\s*|\*|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?,[^,\s]+(,[\d.]+)+)$"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "gstat",
    starts: &[(120, |l| spec::on_first(l, |t| GSTAT_START.is_match(t)))],
    member: |t, _| spec::Member::from(GSTAT_START.is_match(t) || GSTAT_ROW.is_match(t)),
    tolerance: (1, 0),
    classify: |_, _| "gstat",
    ..spec::Recogniser::NONE
};

/// gstat(8): a measurement (the bench's disk-busy screen, run apart from the scan).
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: Some(crate::evidence::Platform::Freebsd),
    // One screen after a second, run by the bench before its tests (plan::GSTAT_BUSY).
    live: &[spec::Live::Cmd(&["gstat", "-b", "-I", "1s"])],
    // A pasted screen is read as the bench's busy sample (facts::freebsd::device_state).
    pasted_as: Some(spec::Live::Cmd(&["gstat", "-b", "-I", "1s"])),
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "gstat")),
    programs: &[spec::Program::new("gstat", spec::listing_args).deciding_platform()],
    ..spec::SourceSpec::named("gstat", "gstat")
};

#[cfg(test)]
mod tests;
