//! etcd's disk-latency histograms from its Prometheus `/metrics` endpoint (the text
//! exposition format: `name_bucket{le="0.008"} 529`, cumulative counts per upper bound in
//! seconds, then `_sum` and `_count`): `etcd_disk_wal_fsync_duration_seconds` (etcd 3.x,
//! server/storage/wal/metrics.go), `etcd_disk_backend_commit_duration_seconds` (the
//! bbolt commit), and etcd 2.x's `etcd_wal_fsync_durations_seconds`. Counts may be
//! printed in Go's %g form ("2.7211701e+07").
//!
//! What they mean (etcd docs, "Hardware recommendations" and "Tuning"/FAQ "What does the
//! etcd warning 'failed to send out heartbeat on time' mean?"): etcd fsyncs its WAL before
//! acknowledging each write, so the disk's sync latency is etcd's; the 99th percentile of
//! the WAL fsync should stay under 10 ms and that of the backend commit under 25 ms.

use crate::sources::{spec, util};

/// One histogram: its metric name and (upper bound s, cumulative count) in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Histogram {
    /// "etcd_disk_wal_fsync_duration_seconds".
    pub name: String,
    pub buckets: Vec<(f64, f64)>,
}

/// etcd's own guidance for each histogram's 99th percentile, in seconds.
pub fn p99_limit(name: &str) -> Option<f64> {
    if name.contains("wal_fsync") {
        Some(0.010)
    } else if name.contains("backend_commit") {
        Some(0.025)
    } else {
        None
    }
}

impl Histogram {
    /// All observations: the +Inf bucket, else the last bound's (an excerpt cut before it).
    pub fn total(&self) -> f64 {
        self.buckets.last().map(|b| b.1).unwrap_or(0.0)
    }

    /// The upper bound of the bucket holding quantile `q` (0..1): Prometheus'
    /// histogram_quantile without its interpolation, so a bound the quantile is under.
    pub fn quantile_bound(&self, q: f64) -> Option<f64> {
        let want = self.total() * q;
        self.buckets
            .iter()
            .find(|(_, c)| *c >= want)
            .map(|(le, _)| *le)
    }

    /// The largest bucket bound that `keep` accepts (bounds are in rising order).
    pub fn last_bound(&self, keep: impl Fn(f64) -> bool) -> Option<f64> {
        self.buckets.iter().rev().map(|b| b.0).find(|le| keep(*le))
    }

    /// Observations above `bound` seconds (the total less the count at that bound).
    pub fn above(&self, bound: f64) -> f64 {
        let at = self
            .buckets
            .iter()
            .rev()
            .find(|(le, _)| *le <= bound)
            .map(|b| b.1)
            .unwrap_or(0.0);
        (self.total() - at).max(0.0)
    }
}

crate::rx!(
    BUCKET,
    r#"^(etcd_(?:disk_wal_fsync_duration_seconds|disk_backend_commit_duration_seconds|wal_fsync_durations_seconds|disk_backend_defrag_duration_seconds|snap_db_fsync_duration_seconds|snap_fsync_duration_seconds))_bucket\{(?:[^}]*,)?le="([^"]+)"[^}]*\}\s+([0-9.eE+-]+)\s*$"#
);
crate::rx!(
    OTHER,
    r"^(?:# (?:HELP|TYPE) etcd_|etcd_[a-z_]+(?:_sum|_count)(?:\{[^}]*\})?\s+[0-9.eE+-]+\s*$)"
);

/// The histograms of a paste, in the order they first appear.
pub fn parse(text: &str) -> Vec<Histogram> {
    let mut out: Vec<Histogram> = Vec::new();
    for raw in text.lines() {
        let c = util::clean_line(raw);
        let Some(cap) = BUCKET.captures(c.trim()) else {
            continue;
        };
        let (Some(name), Some(le), Some(n)) = (cap.get(1), cap.get(2), cap.get(3)) else {
            continue;
        };
        let le = match le.as_str() {
            "+Inf" => f64::INFINITY,
            v => match v.parse::<f64>() {
                Ok(v) => v,
                Err(_) => continue,
            },
        };
        let Ok(n) = n.as_str().parse::<f64>() else {
            continue;
        };
        if !n.is_finite() || n < 0.0 {
            continue;
        }
        let name = name.as_str();
        match out.iter_mut().find(|h| h.name == name) {
            Some(h) => h.buckets.push((le, n)),
            None => out.push(Histogram {
                name: name.to_string(),
                buckets: vec![(le, n)],
            }),
        }
    }
    for h in &mut out {
        h.buckets
            .sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    }
    out
}

// ---- the source spec (see sources::spec) ----

fn clean(t: &str) -> String {
    util::clean_line(t).trim().to_string()
}

fn start(lines: &[&str]) -> spec::Start {
    // Two bucket lines in a row (a HELP/TYPE comment may open the block).
    let is = |i: usize| lines.get(i).is_some_and(|l| BUCKET.is_match(&clean(l)));
    let first = lines.first().map(|l| clean(l)).unwrap_or_default();
    spec::Start::from(
        (is(0) && is(1))
            || (first.starts_with("# HELP etcd_") && is(1) && is(2))
            || (first.starts_with("# HELP etcd_")
                && lines
                    .get(1)
                    .is_some_and(|l| clean(l).starts_with("# TYPE etcd_"))
                && is(2)),
    )
}

fn member(l: &str, _: &spec::BlockState) -> spec::Member {
    let t = clean(l);
    spec::Member::from(BUCKET.is_match(&t) || OTHER.is_match(&t))
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "etcd-metrics",
    starts: &[(60, start)],
    member,
    tolerance: (1, 1),
    classify: |_, _| "etcd-metrics",
    ..spec::Recogniser::NONE
};

/// etcd's `/metrics`, pasted from `curl` (often through `grep`): the sync latency of
/// the disk under etcd.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        (p == "curl" || p == "wget") && a.contains("metrics")
    })),
    programs: &[spec::Program {
        names_device: false,
        ..spec::Program::new("curl", |a| a.contains("/metrics"))
    }],
    ..spec::SourceSpec::named("etcd-metrics", "etcd /metrics disk histograms")
};

#[cfg(test)]
mod tests;
