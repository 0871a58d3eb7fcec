//! hd-idle's log (hd-idle 1.x by Christian Mueller, hd-idle.c; its Go port by Andoni del
//! Olmo, hdidle.go): a daemon that spins a disk down after it was idle for a while. The log
//! file (-l) gets one line per spin-up, "date: 2020-07-28, time: 08:00:25, disk: sdc,
//! running: 600, stopped: 73892" (log_spinup: seconds the disk ran before its last
//! spin-down, and seconds it then stayed stopped), or "..., disk: sdc, assuming disk spun up
//! after long sleep" (the Go port, after a system suspend); with -d it prints "probing sdc:
//! reads: 123, writes: 456" and "spindown: sdc" (C), "sdc spindown" / "sdc spinup" and
//! "disk=sdc command=scsi spunDown=false reads=... writes=..." (Go). A record of power
//! management doing what it was told, not of a fault: a disk that sleeps for hours between
//! spin-ups is the configuration working.

use crate::sources::{by_id, spec, util};

crate::rx!(
    LOG,
    r"^date: \d{4}-\d\d-\d\d, time: \d\d:\d\d:\d\d, disk: ([\w/.-]+), (?:running: (\d+), stopped: (\d+)|assuming disk spun up after long sleep)\s*$"
);
crate::rx!(
    DEBUG,
    r"^(?:probing [\w/.-]+: reads: \d+, writes: \d+|disk=[\w/.-]+ command=\w+ spunDown=(?:true|false) reads=\d+ writes=\d+)"
);
crate::rx!(
    EVENT,
    r"^(?:spindown: [\w/.-]+|[\w/.-]+ spin(?:down|up)(?: \(ignoring prior spin down state\))?|symlink \S+ resolved to \S+)\s*$"
);

/// One spin-up the log file recorded.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct SpinUp {
    pub disk: String,
    /// Seconds the disk ran before hd-idle stopped it; None after a long sleep.
    pub running_secs: Option<u64>,
    /// Seconds it then stayed stopped.
    pub stopped_secs: Option<u64>,
}

/// Every spin-up of the log file's lines.
pub(crate) fn parse(text: &str) -> Vec<SpinUp> {
    text.lines()
        .filter_map(|raw| {
            let c = util::clean_line(raw);
            let m = LOG.captures(c.trim())?;
            let num = |i| m.get(i).and_then(|x| x.as_str().parse::<u64>().ok());
            Some(SpinUp {
                disk: m.get(1).map_or("", |x| x.as_str()).to_string(),
                running_secs: num(2),
                stopped_secs: num(3),
            })
        })
        .collect()
}

// ---- the source spec (see sources::spec) ----

fn starts(l: &str) -> bool {
    let c = util::clean_line(l);
    let t = c.trim();
    LOG.is_match(t) || DEBUG.is_match(t)
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "hd-idle",
    starts: &[(126, |l| spec::on_first(l, starts))],
    member: |l, _| spec::Member::from(starts(l) || EVENT.is_match(util::clean_line(l).trim())),
    tolerance: (1, 1),
    classify: |_, _| "hd-idle",
    ..spec::Recogniser::NONE
};

/// hd-idle's log file and debug output: pasted beside a question, not captured by a probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "hd-idle",
    "hd-idle log",
    Some(crate::evidence::Platform::Linux),
    &RECOGNISER,
    parse: |t| {
        let n = parse(t).len();
        if n > 0 { n } else { t.lines().filter(|l| starts(l)).count() }
    },
    // A disk given by its udev link ("-a /dev/disk/by-id/ata-MODEL_SERIAL", logged by the
    // Go port as given and in "symlink ... resolved to sdc") carries the drive's serial.
    secrets: &[spec::Secret::Scan(|t| {
        t.split_whitespace()
            .filter_map(|w| w.split_once("/dev/disk/by-id/").map(|(_, n)| n))
            .flat_map(|n| by_id::secrets(n.trim_end_matches(','), true))
            .collect()
    })],
);

#[cfg(test)]
mod tests;
