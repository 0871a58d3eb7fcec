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
                "ada" | "da" | "ad" | "nvd" | "nda" | "mmcsd" | "vtbd" | "xbd"
            )
    }
}

/// Every provider row of every screen in the text.
pub fn parse(text: &str) -> Vec<GstatRow> {
    let mut out = Vec::new();
    let mut cols: Vec<String> = Vec::new();
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
            if sample.is_none() {
                sample = Some(0);
            }
            continue;
        }
        if cols.is_empty() {
            continue;
        }
        // Rows: numbers, then "|", then the name ("    0.0| md0").
        let Some((nums, name)) = t.split_once('|') else {
            continue;
        };
        let name = name.trim();
        let vals: Vec<Option<f64>> = nums.split_whitespace().map(leading_f64).collect();
        if name.is_empty() || vals.is_empty() || vals.iter().any(Option::is_none) {
            continue;
        }
        let mut r = GstatRow {
            name: name.to_string(),
            sample: sample.unwrap_or(0),
            interval_secs: interval,
            ..Default::default()
        };
        let mut last_rate = "";
        for (c, v) in cols.iter().zip(vals.iter()) {
            let v = *v;
            match c.as_str() {
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
        out.push(r);
    }
    out
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

crate::rx!(GSTAT_START, r"^\s*(dT: [\d.]+s\s+w: |L\(q\)\s+ops/s)");
crate::rx!(GSTAT_ROW, r"^\s*\d+\s+\d+(\s+[\d.]+)+\s*\|?\s*\S+\s*$");

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
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "gstat")),
    programs: &[spec::Program::new("gstat", spec::listing_args).deciding_platform()],
    ..spec::SourceSpec::named("gstat", "gstat")
};
