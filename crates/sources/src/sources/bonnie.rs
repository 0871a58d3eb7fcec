//! bonnie++'s result table (bonnie++ 1.0x and 1.9x/2.0x, bon_csv2txt's layout, also what
//! bonnie++ prints at the end of a run): a "Version N ------Sequential Output------
//! --Sequential Input- --Random-" header, the "-Per Chr- --Block-- -Rewrite- -Per Chr-
//! --Block-- --Seeks--" and "Name:Size etc /sec %CP ..." (1.0x: "Machine Size K/sec %CP")
//! lines, then one row per run: the machine's name, the file size bonnie++ wrote (-s, "8G"),
//! and for each test its rate and the CPU it used (%CP, the process's user + system time
//! over the test's wall time). Rates are K/sec, printed bare (1.0x) or scaled with a k, m or
//! g suffix (1.9x: "958k", "1.1g", KiB based); "+++++ +++" means the test ran too fast to
//! time. bonnie++ writes the file, rewrites it, then reads it back, through the page cache:
//! a file smaller than the RAM, or a block read that kept the CPU busy all along (it never
//! waited on a device), measured RAM.

use crate::model::UserBenchmark;
use crate::sources::spec;
use crate::sources::util::clean_line;

crate::rx!(
    HEADER,
    r"^Version\s+\S+\s+-+Sequential Output-+\s+-+Sequential Input-+"
);
// The column line may follow the "-Per Chr- --Block-- ... --Seeks--" line on the same line:
// both are as wide as the table (80 columns in 1.9x/2.0x), and a mail client or a
// re-wrapper that joins a full-width line with the next one merges the two headers.
crate::rx!(
    COLUMNS,
    r"^(?:.*-Per Chr-.*--Seeks--\s*)?(?:Name:Size etc|Machine\s+Size)\s+(?:/sec|K/sec)\s+%CP"
);

/// One test's result: KiB/s (None when "+++++") and %CP.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rate {
    pub kib_s: Option<f64>,
    pub cpu_pct: Option<f64>,
}

/// One run's row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Run {
    pub name: String,
    /// The file size as printed ("8G") and in bytes.
    pub size: String,
    pub size_bytes: Option<u64>,
    pub per_chr_out: Rate,
    pub block_out: Rate,
    pub rewrite: Rate,
    pub per_chr_in: Rate,
    pub block_in: Rate,
    pub line: String,
}

/// "958k", "1.1g", "45678" (K/sec) -> KiB/s; "+++++" -> None.
fn kib(v: &str) -> Option<f64> {
    let (num, mult) = match v.chars().last()? {
        'k' | 'K' => (v.get(..v.len().checked_sub(1)?)?, 1.0),
        'm' | 'M' => (v.get(..v.len().checked_sub(1)?)?, 1024.0),
        'g' | 'G' => (v.get(..v.len().checked_sub(1)?)?, 1024.0 * 1024.0),
        _ => (v, 1.0),
    };
    num.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .map(|x| x * mult)
}

/// "8G", "2000M", "16384" (MiB, bonnie++'s -s default unit) -> bytes.
fn size_bytes(s: &str) -> Option<u64> {
    let (num, mult): (&str, u64) = match s.chars().last()? {
        'g' | 'G' => (s.get(..s.len().checked_sub(1)?)?, 1 << 30),
        'm' | 'M' => (s.get(..s.len().checked_sub(1)?)?, 1 << 20),
        'k' | 'K' => (s.get(..s.len().checked_sub(1)?)?, 1 << 10),
        _ => (s, 1 << 20),
    };
    let n: f64 = num.parse().ok()?;
    let b = n * mult as f64;
    (b.is_finite() && b > 0.0 && b < u64::MAX as f64).then_some(b as u64)
}

/// A data row: name, size, then rate/%CP pairs ("+++++ +++" for an untimed test).
fn row(l: &str) -> Option<Run> {
    let w: Vec<&str> = l.split_whitespace().collect();
    let (name, size) = (w.first()?, w.get(1)?);
    let size_b = size_bytes(size)?;
    if name.eq_ignore_ascii_case("latency") || w.len() < 12 {
        return None;
    }
    let rate = |i: usize| -> Option<Rate> {
        let v = w.get(2 + 2 * i)?;
        let c = w.get(3 + 2 * i)?;
        let untimed = v.chars().all(|x| x == '+');
        if !untimed && kib(v).is_none() {
            return None;
        }
        Some(Rate {
            kib_s: if untimed { None } else { kib(v) },
            cpu_pct: c.parse().ok(),
        })
    };
    Some(Run {
        name: name.to_string(),
        size: size.to_string(),
        size_bytes: Some(size_b),
        per_chr_out: rate(0)?,
        block_out: rate(1)?,
        rewrite: rate(2)?,
        per_chr_in: rate(3)?,
        block_in: rate(4)?,
        line: l.trim().to_string(),
    })
}

/// The runs of the result table(s), the rows under a "Name:Size" / "Machine Size" line.
pub fn parse(text: &str) -> Vec<Run> {
    let mut out = Vec::new();
    let mut under = false;
    for raw in text.lines() {
        let c = clean_line(raw);
        let t = c.trim();
        if COLUMNS.is_match(t) {
            under = true;
            continue;
        }
        if under && let Some(r) = row(t) {
            out.push(r);
            continue;
        }
        under = false;
    }
    out
}

/// Each run's block read as a pasted benchmark: its file size, rate, and the wall and CPU
/// time the %CP stands for (bonnie++ computes %CP as CPU time over wall time, so a second
/// of wall time per GiB read keeps the ratio), for benchmark-page-cache to judge.
pub fn block_reads(text: &str, from: &str) -> Vec<UserBenchmark> {
    parse(text)
        .into_iter()
        .filter_map(|r| {
            let rate = r.block_in.kib_s? * 1024.0;
            let bytes = r.size_bytes?;
            let real = bytes as f64 / rate;
            (rate > 0.0 && real.is_finite()).then(|| UserBenchmark {
                tool: "bonnie++".into(),
                input: Some(format!("bonnie++'s {} test file", r.size)),
                output: Some("/dev/null".into()),
                bytes: Some(bytes),
                seconds: Some(real),
                bytes_per_sec: Some(rate),
                time_real_s: Some(real),
                time_cpu_s: r.block_in.cpu_pct.map(|c| real * c / 100.0),
                from: from.to_string(),
                ..Default::default()
            })
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----

fn is_member(l: &str) -> bool {
    let c = clean_line(l);
    let t = c.trim();
    HEADER.is_match(t)
        || COLUMNS.is_match(t)
        || row(t).is_some()
        || t.starts_with("Latency")
        || t.starts_with("files")
        || t.contains("-Per Chr-")
        || t.contains("Sequential Create")
        || t.contains("-Create--")
        || t.split_whitespace()
            .all(|w| w.chars().all(|x| x == '+' || x.is_ascii_digit()))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "bonnie",
    starts: &[(64, |l| {
        spec::on_first(l, |t| HEADER.is_match(clean_line(t).trim()))
    })],
    member: |l, _| spec::Member::from(is_member(l)),
    tolerance: (1, 0),
    classify: |_, _| "bonnie",
    ..spec::Recogniser::NONE
};

/// bonnie++'s table: pasted, not captured.
/// The machine's name bonnie++ prints (its -m, by default the host name, cut to the
/// column's width): first in each result row ("heckler.unix 66000M ..."), first before the
/// file-creation columns ("heckler.unixathome. -Create-- ..."), and third in its CSV line
/// ("1.97,1.97,heckler.unixathome.org,1,...", bon_csv2html's format): a host name.
fn hosts(t: &str) -> Vec<spec::Found> {
    let mut out = Vec::new();
    for raw in t.lines() {
        let c = clean_line(raw);
        let l = c.trim();
        let name = if let Some(r) = row(l) {
            Some(r.name)
        } else if l.contains("-Create--") {
            l.split_whitespace()
                .next()
                .filter(|w| !w.starts_with('-'))
                .map(str::to_string)
        } else {
            let f: Vec<&str> = l.split(',').collect();
            let version =
                |s: &str| !s.is_empty() && s.chars().all(|x| x.is_ascii_digit() || x == '.');
            (f.len() > 4 && version(f[0]) && version(f[1])).then(|| f[2].to_string())
        };
        if let Some(n) = name.filter(|n| !n.is_empty() && n != "Name:Size" && n != "files") {
            out.push(spec::Found::sure(spec::SecretKind::Host, &n));
        }
    }
    out
}

pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    platform: None,
    parse: Some(|t| parse(t).len()),
    secrets: &[spec::Secret::Scan(hosts)],
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| {
        p == "bonnie++" || p == "bonnie"
    })),
    ..spec::SourceSpec::named("bonnie", "bonnie++")
};

#[cfg(test)]
mod tests;
