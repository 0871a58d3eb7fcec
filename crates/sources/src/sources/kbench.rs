//! Longhorn kbench (https://github.com/longhorn/kbench): fio jobs run in a Kubernetes pod
//! on a volume, whose log people paste (often from `kubectl logs --timestamps`, each line
//! behind an RFC 3339 time). Its run log names the test ("TEST_FILE: /volume1/test",
//! "TEST_SIZE: 60G", "Benchmarking iops.fio into Local-Path-iops.json") and its summary
//! gives each metric as "Random: R / W" and "Sequential: R / W" (read / write) under
//! "IOPS (Read/Write)", "Bandwidth in KiB/sec (Read/Write)" and "Latency in ns
//! (Read/Write)" (kbench's fio/func.sh). The figures are the volume's under the storage
//! stack of the cluster, with no device named.

use crate::sources::spec;

crate::rx!(
    STAMP,
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) "
);
crate::rx!(
    HEAD,
    r"^(?:FIO Benchmark Summary|(?:IOPS|Bandwidth in KiB/sec|Latency in ns) \(Read/Write\)|TEST_FILE: \S|Benchmarking \S+\.fio into \S+\.json)"
);
crate::rx!(
    MEMBER,
    r"^(?:TEST_[A-Z_]+: |(?:Random|Sequential): +[\d,]+ / [\d,]+\s*$|CPU Idleness(?: Profiling)?: |For: |Size: |Quick Mode: |=+\s*$)"
);
crate::rx!(ROW, r"^(Random|Sequential): +([\d,]+) / ([\d,]+)\s*$");

/// A line without the timestamp `kubectl logs --timestamps` puts before it.
fn body(l: &str) -> &str {
    let t = l.trim();
    STAMP
        .find(t)
        .map_or(t, |m| t.get(m.end()..).unwrap_or(t))
        .trim()
}

/// One summary figure: the metric heading above it ("IOPS", "Bandwidth in KiB/sec",
/// "Latency in ns"), "Random" or "Sequential", and the read and write values.
#[derive(Debug, Clone, PartialEq)]
pub struct KbenchFigure {
    pub metric: String,
    pub pattern: String,
    pub read: u64,
    pub write: u64,
}

/// The summary figures of `text`, in order.
pub fn parse(text: &str) -> Vec<KbenchFigure> {
    let mut out = Vec::new();
    let mut metric: Option<String> = None;
    for l in text.lines() {
        let b = body(l);
        if let Some((m, _)) = b.split_once(" (Read/Write)") {
            metric = Some(m.to_string());
            continue;
        }
        let (Some(c), Some(m)) = (ROW.captures(b), metric.as_ref()) else {
            continue;
        };
        let num = |i| {
            c.get(i)
                .and_then(|v| v.as_str().replace(',', "").parse::<u64>().ok())
        };
        if let (Some(read), Some(write)) = (num(2), num(3)) {
            out.push(KbenchFigure {
                metric: m.clone(),
                pattern: c.get(1).map_or("", |v| v.as_str()).to_string(),
                read,
                write,
            });
        }
    }
    out
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser::table(
    "kbench",
    &[(66, |l| spec::on_first(l, |t| HEAD.is_match(body(t))))],
    |t, _| {
        let b = body(t);
        spec::Member::from(HEAD.is_match(b) || MEMBER.is_match(b))
    },
    |_, _| "kbench",
);

/// kbench: a volume benchmark's log people paste, run by no command of its own.
pub const SPEC: spec::SourceSpec =
    spec::SourceSpec::measurement("kbench", "Longhorn kbench", &RECOGNISER, |t| parse(t).len());

#[cfg(test)]
mod tests;
