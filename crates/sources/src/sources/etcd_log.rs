//! etcd's own warnings that a write to its disk took too long, as its log carries them
//! (journal or syslog of etcd, k3s or a kubelet pod log). etcd server/storage/wal/wal.go
//! (wal/wal.go before 3.5) `sync()`: when the WAL's fdatasync took longer than
//! warnSyncDuration (1 s) it logs zap's `"msg":"slow fdatasync","took":"7.45s",
//! "expected-duration":"1s"` (3.4+), capnslog's "sync duration of 7.45s, expected less than
//! 1s" (3.3 and older). etcdserver/util.go warnOfExpensiveRequest logs "apply request took
//! too long" (and "read-only range request ... took too long") with `took` and
//! `expected-duration` (100 ms); 3.3 printed "apply entries took too long [1.2s for 1
//! entries]" and "read-only range request ... took too long (1.2s) to execute". Durations
//! are Go's time.Duration strings ("680.988822ms", "1m2.5s", "950µs").

use crate::sources::{spec, util};

/// What etcd waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// The WAL's fdatasync: the disk's own sync latency.
    Fsync,
    /// Applying or serving a request: disk, CPU and locks together.
    Request,
}

/// One warning: what took how long against what etcd expected (seconds).
#[derive(Debug, Clone, PartialEq)]
pub struct Slow {
    pub wait: Wait,
    pub took_s: f64,
    pub expected_s: f64,
    pub line: String,
}

crate::rx!(
    ZAP,
    r#""msg":\s*"(slow fdatasync|apply request took too long|read-only range request took too long)"|\b(slow fdatasync|apply request took too long)\b.*"took":"#
);
crate::rx!(TOOK, r#""took":\s*"([^"]+)""#);
crate::rx!(EXPECTED, r#""expected-duration":\s*"([^"]+)""#);
crate::rx!(
    CAPNS,
    r"sync duration of ([\d.]+[a-zµ]+), expected less than ([\d.]+[a-zµ]+)"
);
crate::rx!(
    CAPNS_REQ,
    r"(?:apply entries took too long \[([\d.hmµnus]+) for \d+ entries\]|read-only range request .* took too long \(([\d.hmµnus]+)\) to execute)"
);

/// A Go time.Duration string in seconds: "7.454439372s", "680.988822ms", "1m2.5s".
pub(crate) fn duration_s(s: &str) -> Option<f64> {
    let mut total = 0.0;
    let mut rest = s.trim();
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let v: f64 = rest.get(..n)?.parse().ok()?;
        let tail = rest.get(n..)?;
        let (mul, len) = [
            ("ms", 1e-3),
            ("µs", 1e-6),
            ("us", 1e-6),
            ("ns", 1e-9),
            ("h", 3600.0),
            ("m", 60.0),
            ("s", 1.0),
        ]
        .iter()
        .find(|(u, _)| tail.starts_with(u))
        .map(|(u, m)| (*m, u.len()))?;
        total += v * mul;
        rest = tail.get(len..)?;
    }
    total.is_finite().then_some(total)
}

/// The slow-write warning of one line, if it is one.
pub(crate) fn slow(line: &str) -> Option<Slow> {
    let t = util::clean_line(line);
    let t = t.trim();
    let wait = |m: &str| {
        if m.contains("fdatasync") {
            Wait::Fsync
        } else {
            Wait::Request
        }
    };
    let (wait, took, expected) = if let Some(c) = ZAP.captures(t) {
        let m = c.get(1).or(c.get(2))?.as_str();
        let took = duration_s(TOOK.captures(t)?.get(1)?.as_str())?;
        let default = if wait(m) == Wait::Fsync { 1.0 } else { 0.1 };
        let exp = EXPECTED
            .captures(t)
            .and_then(|c| duration_s(c.get(1)?.as_str()))
            .unwrap_or(default);
        (wait(m), took, exp)
    } else if let Some(c) = CAPNS.captures(t) {
        let took = duration_s(c.get(1)?.as_str())?;
        (Wait::Fsync, took, duration_s(c.get(2)?.as_str())?)
    } else {
        let c = CAPNS_REQ.captures(t)?;
        (
            Wait::Request,
            duration_s(c.get(1).or(c.get(2))?.as_str())?,
            0.1,
        )
    };
    Some(Slow {
        wait,
        took_s: took,
        expected_s: expected,
        line: t.to_string(),
    })
}

/// Every slow-write warning of a paste, in order.
pub fn parse(text: &str) -> Vec<Slow> {
    text.lines().filter_map(slow).collect()
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "etcd-log",
    // Before the JSON documents (30): zap's lines are JSON objects behind a log prefix.
    starts: &[(25, |l| spec::on_first(l, |t| slow(t).is_some()))],
    member: |t, _| spec::Member::from(slow(t).is_some()),
    // Other lines of the same service (leader elections, client errors) between them.
    tolerance: (1, 4),
    classify: |_, _| "etcd-log",
    ..spec::Recogniser::NONE
};

/// etcd's warnings in its log (`journalctl -u k3s`, `kubectl logs etcd-...`): the sync
/// latency of the disk under etcd, as etcd timed it.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, a| {
        matches!(p, "grep" | "egrep" | "cat")
            || (matches!(p, "journalctl" | "kubectl") && (a.contains("etcd") || a.contains("k3s")))
    })),
    ..spec::SourceSpec::named("etcd-log", "etcd slow-write warnings (log)")
};

#[cfg(test)]
mod tests;
