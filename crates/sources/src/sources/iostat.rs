//! iostat output: FreeBSD classic columns (`tty ad4 ad6 cpu` / `tin tout KB/t tps MB/s ...`),
//! FreeBSD `-x` and Linux sysstat `-x` tables (old and new column sets), and the
//! `systat -vmstat` "Disks / KB/t / tps / MB/s / %busy" block people paste with them.
//!
//! Reference: FreeBSD iostat(8) (KB/t = kilobytes per transfer, tps, MB/s; -x: r/s w/s kr/s
//! kw/s ms/r ms/w ms/o ms/t qlen %b) and sysstat iostat(1) (r/s w/s rkB/s wkB/s rMB/s wMB/s
//! r_await w_await await aqu-sz/avgqu-sz %util). KB/t tells the transfer size the disk
//! actually sees: 0.50 KB/t means 512-byte transfers (seed 001, dd with the default bs).

use crate::sources::util::{clean_line, is_elision, leading_f64};

/// One device's numbers in one report (interval) of iostat.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IostatSample {
    pub device: String,
    /// 0 for the first report (FreeBSD and sysstat: averages since boot), then 1, 2, ...
    pub report: usize,
    pub kb_per_transfer: Option<f64>,
    pub transfers_per_sec: Option<f64>,
    /// Total (read + write) megabytes per second; iostat's MB is 2^20 bytes on FreeBSD.
    pub mb_per_sec: Option<f64>,
    pub reads_per_sec: Option<f64>,
    pub writes_per_sec: Option<f64>,
    pub read_kb_per_sec: Option<f64>,
    pub write_kb_per_sec: Option<f64>,
    /// Average wait per request, ms (Linux await/r_await/w_await average; FreeBSD ms/t).
    pub await_ms: Option<f64>,
    /// %util (Linux) / %b (FreeBSD) / %busy (systat).
    pub busy_pct: Option<f64>,
    /// Average requests queued or in flight: sysstat avgqu-sz (old) / aqu-sz (>= 11.5.7),
    /// FreeBSD iostat -x qlen (the current queue length).
    pub queue_len: Option<f64>,
    /// Which layout it came from: "classic", "extended", "systat".
    pub layout: &'static str,
}

impl IostatSample {
    /// Throughput in bytes/s from whichever columns are present.
    pub fn bytes_per_sec(&self) -> Option<f64> {
        if let Some(m) = self.mb_per_sec {
            return Some(m * 1024.0 * 1024.0);
        }
        match (self.read_kb_per_sec, self.write_kb_per_sec) {
            (None, None) => None,
            (r, w) => Some((r.unwrap_or(0.0) + w.unwrap_or(0.0)) * 1024.0),
        }
    }
}

/// CAM passthrough devices duplicate the disk they front (pass0 = ada0); skip them.
fn ignored(dev: &str) -> bool {
    dev.starts_with("pass")
}

/// A sysstat number: "0.88", or "0,88" in a decimal-comma locale; a word is none.
pub(crate) fn num(t: &str) -> Option<f64> {
    // Linux sysstat in de_DE prints "0,88".
    if t.chars().any(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    leading_f64(t)
}

/// Every sample in the text, in order. Empty when no iostat table is recognised.
pub fn parse(text: &str) -> Vec<IostatSample> {
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    let mut out = Vec::new();
    let mut reports_by_layout = [0usize; 3];
    let mut i = 0;
    while i < lines.len() {
        let l = lines.get(i).map(String::as_str).unwrap_or("");
        let tk: Vec<&str> = l.split_whitespace().collect();
        // Classic FreeBSD: device-name line followed by the column header line.
        if tk.first() == Some(&"tin") && tk.contains(&"KB/t") {
            let names: Vec<String> = i
                .checked_sub(1)
                .and_then(|p| lines.get(p))
                .map(|n| {
                    n.split_whitespace()
                        .filter(|w| *w != "tty" && *w != "cpu")
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            let cols = tk.clone();
            let mut report = 0;
            i += 1;
            while let Some(row) = lines.get(i) {
                let mut vals: Vec<Option<f64>> = row.split_whitespace().map(num).collect();
                if vals.len() < 3 || vals.iter().any(Option::is_none) {
                    break;
                }
                // Mail clients re-wrap long rows ("... 0 0 12" / "2 86"): join numeric
                // continuation lines until the row has as many values as the header.
                while vals.len() < cols.len() {
                    let Some(next) = lines.get(i + 1) else { break };
                    let more: Vec<Option<f64>> = next.split_whitespace().map(num).collect();
                    if more.is_empty()
                        || more.iter().any(Option::is_none)
                        || vals.len() + more.len() > cols.len()
                    {
                        break;
                    }
                    vals.extend(more);
                    i += 1;
                }
                // Columns: tin tout, then KB/t tps MB/s per device in name order.
                let mut dev_idx = 0;
                let mut c = 0;
                while c < cols.len() {
                    if cols.get(c) == Some(&"KB/t") {
                        let name = names
                            .get(dev_idx)
                            .cloned()
                            .unwrap_or_else(|| format!("disk{dev_idx}"));
                        dev_idx += 1;
                        if !ignored(&name) {
                            out.push(IostatSample {
                                device: name,
                                report,
                                kb_per_transfer: vals.get(c).copied().flatten(),
                                transfers_per_sec: vals.get(c + 1).copied().flatten(),
                                mb_per_sec: vals.get(c + 2).copied().flatten(),
                                layout: "classic",
                                ..Default::default()
                            });
                        }
                        c += 3;
                    } else {
                        c += 1;
                    }
                }
                report += 1;
                i += 1;
            }
            reports_by_layout[0] += 1;
            continue;
        }
        // Extended tables: a header whose first word is "device"/"Device:".
        let first = tk
            .first()
            .map(|w| w.trim_end_matches(':').to_ascii_lowercase());
        // A header whose device column the poster relabelled or cut ("   rrqm/s wrqm/s r/s
        // w/s ..." over rows they named themselves): the same table, device column implied.
        let bare = bare_header(&tk);
        if (first.as_deref() == Some("device") || bare) && tk.iter().any(|w| w.ends_with("/s")) {
            let mut cols: Vec<String> = tk.iter().map(|w| w.to_string()).collect();
            if bare {
                cols.insert(0, "Device".to_string());
            }
            // A mail client wraps the ~130-column header too: a next line of column names
            // only ("await r_await w_await svctm %util") continues it.
            while let Some(nt) = lines.get(i + 1).and_then(|n| names_line(n)) {
                cols.extend(nt.iter().map(|w| w.to_string()));
                i += 1;
            }
            let report = reports_by_layout[1];
            reports_by_layout[1] += 1;
            if let Some(t) = split_table(&lines, i + 1, &cols) {
                for (label, vals) in &t.rows {
                    let vals: Vec<&str> = vals.iter().map(String::as_str).collect();
                    if !ignored(label) {
                        out.push(extended_row(label, &t.cols, &vals, report));
                    }
                }
                i = t.next;
                continue;
            }
            i += 1;
            while let Some(row) = lines.get(i) {
                // A poster's elision of the devices they left out ("...", "…", "[...]")
                // sits between rows: the table goes on after it.
                if is_elision(row) {
                    i += 1;
                    continue;
                }
                let mut rt: Vec<&str> = row.split_whitespace().collect();
                // ... and each row: numeric continuation lines complete it.
                while rt.len() < cols.len() {
                    let Some(next) = lines.get(i + 1) else { break };
                    let more: Vec<&str> = next.split_whitespace().collect();
                    if more.is_empty()
                        || more.iter().any(|v| num(v).is_none())
                        || rt.len() + more.len() > cols.len()
                    {
                        break;
                    }
                    rt.extend(more);
                    i += 1;
                }
                // A row label of several words ("HA Start-up"): the words before the
                // numbers make up its name.
                let extra = rt.len().saturating_sub(cols.len());
                let label = rt.get(..=extra).map(|w| w.join(" ")).unwrap_or_default();
                let vals = rt.get(extra..).unwrap_or_default();
                if label.is_empty()
                    || vals.len() != cols.len()
                    || vals.iter().skip(1).any(|v| num(v).is_none())
                    || (extra > 0 && rt.iter().take(extra + 1).any(|w| num(w).is_some()))
                {
                    break;
                }
                if !ignored(&label) {
                    out.push(extended_row(&label, &cols, vals, report));
                }
                i += 1;
            }
            continue;
        }
        // systat -vmstat disk block: "Disks ad4 ad6 ..." then KB/t, tps, MB/s, %busy rows.
        if tk.first() == Some(&"Disks") && tk.len() > 1 {
            // systat puts memory figures ("119912 wire") after the disk names.
            let names: Vec<&str> = tk
                .iter()
                .skip(1)
                .copied()
                .take_while(|n| {
                    n.starts_with(|c: char| c.is_ascii_alphabetic())
                        && n.ends_with(|c: char| c.is_ascii_digit())
                })
                .collect();
            let report = reports_by_layout[2];
            reports_by_layout[2] += 1;
            let mut rows: Vec<IostatSample> = names
                .iter()
                .map(|n| IostatSample {
                    device: n.to_string(),
                    report,
                    layout: "systat",
                    ..Default::default()
                })
                .collect();
            let mut j = i + 1;
            while let Some(row) = lines.get(j) {
                let rt: Vec<&str> = row.split_whitespace().collect();
                let label = rt.first().copied().unwrap_or("");
                let slot: fn(&mut IostatSample) -> &mut Option<f64> = match label {
                    "KB/t" => |s| &mut s.kb_per_transfer,
                    "tps" => |s| &mut s.transfers_per_sec,
                    "MB/s" => |s| &mut s.mb_per_sec,
                    "%busy" => |s| &mut s.busy_pct,
                    _ => {
                        // Pasted systat output carries unrelated lines in between.
                        if j > i + 6 {
                            break;
                        }
                        j += 1;
                        continue;
                    }
                };
                for (k, s) in rows.iter_mut().enumerate() {
                    *slot(s) = rt.get(k + 1).and_then(|v| num(v));
                }
                j += 1;
            }
            out.extend(rows.into_iter().filter(|s| !ignored(&s.device)));
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

/// Whether a line is column names only ("wMB/s avgrq-sz avgqu-sz await ... %util"): no
/// number, and a unit mark (/, %, _, -) in at least one of them.
fn names_line(t: &str) -> Option<Vec<&str>> {
    let nt: Vec<&str> = t.split_whitespace().collect();
    let names = !nt.is_empty()
        && nt
            .iter()
            .all(|w| num(w).is_none() && w.chars().any(|c| c.is_ascii_alphabetic() || c == '%'))
        && nt.iter().any(|w| w.contains(['/', '%', '_', '-']));
    names.then_some(nt)
}

/// A table [`split_table`] joined: every column, each device's name and values, and the
/// line after the table.
struct SplitTable {
    cols: Vec<String>,
    rows: Vec<(String, Vec<String>)>,
    next: usize,
}

/// A table a book or a narrow page split in two: the header's first part, the devices'
/// rows of as many values, then the rest of the header and the same number of lines of the
/// rest of the values, in the same order ("Device: rrqm/s ... rMB/s" / "sda 0.00 ..." /
/// "wMB/s ... %util" / "81.09 ... 100.00"). The joined rows with their device names, and the
/// line after the second part; None for any other layout.
fn split_table(lines: &[String], start: usize, cols: &[String]) -> Option<SplitTable> {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut j = start;
    while let Some(l) = lines.get(j) {
        let rt: Vec<&str> = l.split_whitespace().collect();
        let numeric = rt.iter().skip(1).all(|v| num(v).is_some());
        if rt.len() != cols.len() || !numeric || rt.first().is_none_or(|w| num(w).is_some()) {
            break;
        }
        rows.push((
            rt.first()?.to_string(),
            rt.iter().map(|w| w.to_string()).collect(),
        ));
        j += 1;
    }
    let rest = names_line(lines.get(j)?)?;
    if rows.is_empty() {
        return None;
    }
    j += 1;
    for row in rows.iter_mut() {
        let more: Vec<&str> = lines.get(j)?.split_whitespace().collect();
        if more.len() != rest.len() || more.iter().any(|v| num(v).is_none()) {
            return None;
        }
        row.1.extend(more.iter().map(|w| w.to_string()));
        j += 1;
    }
    let mut all = cols.to_vec();
    all.extend(rest.iter().map(|w| w.to_string()));
    Some(SplitTable {
        cols: all,
        rows,
        next: j,
    })
}

/// A sysstat -x column header without its "Device" word: sysstat prints the device column
/// first (iostat.c write_ext_stat), then rrqm/s (up to 11.x) or r/s (12.x); a poster who
/// relabels the rows blanks or drops the word over them.
fn bare_header(tk: &[&str]) -> bool {
    let known = |w: &&str| {
        matches!(
            *w,
            "rrqm/s" | "wrqm/s" | "r/s" | "w/s" | "rkB/s" | "wkB/s" | "rMB/s" | "wMB/s"
        )
    };
    tk.len() >= 4
        && matches!(tk.first(), Some(&"rrqm/s") | Some(&"r/s"))
        && tk.iter().take(3).all(known)
        && tk.iter().all(|w| num(w).is_none())
}

fn extended_row(dev: &str, cols: &[String], vals: &[&str], report: usize) -> IostatSample {
    let mut s = IostatSample {
        device: dev.to_string(),
        report,
        layout: "extended",
        ..Default::default()
    };
    // (kind, await ms) of sysstat's per-direction columns, weighted below by their rates.
    let mut awaits: Vec<(char, f64)> = Vec::new();
    let mut discards: Option<f64> = None;
    for (c, v) in cols.iter().zip(vals.iter()).skip(1) {
        let n = num(v);
        match c.as_str() {
            "r/s" => s.reads_per_sec = n,
            "w/s" => s.writes_per_sec = n,
            "kr/s" | "rkB/s" => s.read_kb_per_sec = n,
            "kw/s" | "wkB/s" => s.write_kb_per_sec = n,
            "rMB/s" => s.read_kb_per_sec = n.map(|x| x * 1024.0),
            "wMB/s" => s.write_kb_per_sec = n.map(|x| x * 1024.0),
            // sysstat without -x (iostat.c write_basic_stat): "tps kB_read/s kB_wrtn/s
            // [kB_dscd/s] kB_read kB_wrtn [kB_dscd]", in MB with -m.
            "kB_read/s" => s.read_kb_per_sec = n,
            "kB_wrtn/s" => s.write_kb_per_sec = n,
            "MB_read/s" => s.read_kb_per_sec = n.map(|x| x * 1024.0),
            "MB_wrtn/s" => s.write_kb_per_sec = n.map(|x| x * 1024.0),
            "tps" => s.transfers_per_sec = n,
            "ms/t" | "await" | "svc_t" => s.await_ms = n,
            "r_await" => awaits.extend(n.map(|a| ('r', a))),
            "w_await" => awaits.extend(n.map(|a| ('w', a))),
            "d_await" => awaits.extend(n.map(|a| ('d', a))),
            "d/s" => discards = n,
            "%util" | "%b" => s.busy_pct = n,
            "avgqu-sz" | "aqu-sz" | "qlen" => s.queue_len = n,
            _ => {}
        }
    }
    if s.await_ms.is_none() && !awaits.is_empty() {
        s.await_ms = Some(mean_await(
            &awaits,
            s.reads_per_sec,
            s.writes_per_sec,
            discards,
        ));
    }
    if s.transfers_per_sec.is_none()
        && let (Some(r), Some(w)) = (s.reads_per_sec, s.writes_per_sec)
    {
        s.transfers_per_sec = Some(r + w);
    }
    if let (Some(t), Some(r), Some(w)) =
        (s.transfers_per_sec, s.read_kb_per_sec, s.write_kb_per_sec)
        && t > 0.0
    {
        s.kb_per_transfer = Some((r + w) / t);
    }
    s
}

/// The average wait of all requests from sysstat's per-direction columns. sysstat computes
/// r_await as read ticks over reads and w_await as write ticks over writes (iostat.c,
/// common.c compute_ext_disk_stats), and the old single "await" as all ticks over all
/// requests, so the whole is the rate-weighted mean: 0.7 reads/s at 77 ms beside 1312
/// writes/s at 4.3 ms wait 4.4 ms on average, not 40. Without the rates, the plain mean.
fn mean_await(awaits: &[(char, f64)], r: Option<f64>, w: Option<f64>, d: Option<f64>) -> f64 {
    let rate = |k: char| match k {
        'r' => r,
        'w' => w,
        _ => d,
    };
    let weighted = awaits
        .iter()
        .map(|&(k, a)| rate(k).map(|n| (n.max(0.0), a)))
        .collect::<Option<Vec<(f64, f64)>>>();
    if let Some(pairs) = weighted {
        let total: f64 = pairs.iter().map(|(n, _)| n).sum();
        if total > 0.0 {
            return pairs.iter().map(|(n, a)| n * a).sum::<f64>() / total;
        }
    }
    awaits.iter().map(|(_, a)| a).sum::<f64>() / awaits.len() as f64
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

// sysstat's -x table starts with "Device" and its first column, which is r/s or rrqm/s in
// full, but a poster who trims the columns they do not need (a write test: "Device w/s
// wkB/s wrqm/s %wrqm w_await wareq-sz aqu-sz %util", the write half of sysstat 12's
// r/w/d/f column groups, iostat.c write_ext_stat) keeps the write, discard (d/s, dkB/s) or
// flush (f/s) group first.
crate::rx!(
    IOSTAT_START,
    r"^\s*(tty\s+(\S+\s+)*cpu\s*$|tin\s+tout\s+KB/t|extended device statistics|device\s+r/s\s+w/s|avg-cpu:|Device:?\s+(rrqm/s|wrqm/s|[rwdf]/s|[rwd]kB/s|[rwd]MB/s|tps)|(rrqm/s\s+wrqm/s|r/s\s+(w/s|rkB/s|rMB/s))\s+\S+/s\s)"
);
// sysstat's banner, printed first by iostat as by sar (sysstat common.c print_gal_header):
// "Linux 5.2.0-rc1+ (host)  07/24/2019  _x86_64_  (112 CPU)". sar's recogniser claims it
// when a sar header follows (sources::sar).
crate::rx!(pub SYSSTAT_BANNER, r"^\s*Linux \d+\.\S+ \(\S+\)\s+\S+\s+_\S+_");
// A row's numbers carry the locale's decimal mark: sysstat prints them with printf's
// "%.2f" under the user's LC_NUMERIC, "0,88" in de_DE (see `num`).
crate::rx!(
    IOSTAT_MEMBER,
    r"^\s*(tty\s|tin\s+tout|extended device|device\s+r/s|avg-cpu:|Device:?\s|(rrqm/s\s+wrqm/s|r/s\s+(w/s|rkB/s|rMB/s))\s|[\w./-]+(\s+[A-Za-z][\w./-]*){0,3}(\s+-?[\d.,]+){3,}\s*$|[\d.,]+(\s+[\d.,]+)*\s*$)"
);

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "iostat",
    starts: &[(130, |l| {
        spec::on_first(l, |t| {
            IOSTAT_START.is_match(t) || SYSSTAT_BANNER.is_match(t)
        })
    })],
    member: |t, _| {
        spec::Member::from(
            IOSTAT_START.is_match(t) || SYSSTAT_BANNER.is_match(t) || IOSTAT_MEMBER.is_match(t),
        )
    },
    tolerance: (1, 1),
    classify: |_, _| "iostat",
    ..spec::Recogniser::NONE
};

/// iostat(8) of FreeBSD and sysstat: a measurement.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| p == "iostat")),
    programs: &[spec::Program::new("iostat", spec::listing_args)],
    ..spec::SourceSpec::named("iostat", "iostat")
};

#[cfg(test)]
mod tests;
