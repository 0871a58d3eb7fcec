//! progress (Xfennec/progress, "Coreutils Viewer"): for each running cp, mv, dd, cat,
//! sha256sum ... it prints the biggest file the process has open and how far it got,
//! `[  PID] NAME FILE` then `\tPCT% (POS / SIZE)` and, with -w / -m, ` RATE/s remaining
//! H:MM:SS` (progress.c monitor_processes; sizes by sizes.c format_size, "%.1f %s" in
//! 1024-based B, KiB, MiB, GiB, TiB). The rate is how fast that file's offset advanced:
//! for a copy (cp, mv across filesystems, rsync, dd) the file is the source it reads and
//! writes to the destination, so the copy's rate, which the writing side bounds; for cat
//! or a checksum program it is a read.

use crate::model::UserBenchmark;
use crate::sources::spec;

const SIZE: &str = r"(\d+(?:\.\d+)?) (B|KiB|MiB|GiB|TiB|PiB)";

crate::rx!(HEADER, r"^\[\s*(\d+)\] (\S+) (.+)$");
crate::rx!(
    STATUS,
    &format!(r"^\s*(\d+(?:\.\d+)?)% \({SIZE} / {SIZE}\)(?: {SIZE}/s)?")
);

fn size(n: Option<regex::Match>, unit: Option<regex::Match>) -> Option<f64> {
    let n: f64 = n?.as_str().parse().ok()?;
    let unit = unit?.as_str();
    let p = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        .iter()
        .position(|u| *u == unit)?;
    Some(n * 1024f64.powi(i32::try_from(p).ok()?))
}

/// What a monitored program does with the file progress shows: "write" for a copy (the
/// rate is bounded by writing the destination), "read" for a program that only reads it.
fn direction(program: &str) -> Option<&'static str> {
    match program {
        "cp" | "mv" | "rsync" | "dd" => Some("write"),
        "cat" | "cksum" | "md5sum" | "sha1sum" | "sha224sum" | "sha256sum" | "sha384sum"
        | "sha512sum" | "b2sum" | "grep" => Some("read"),
        _ => None,
    }
}

/// Every monitored process with its rate, in order; `rw=read` / `rw=write` in the flags
/// when [`direction`] knows the program.
pub fn parse(text: &str) -> Vec<UserBenchmark> {
    let mut out = Vec::new();
    let mut head: Option<(String, String)> = None;
    for l in text.lines() {
        let t = l.trim_end();
        if let Some(c) = HEADER.captures(t) {
            let g = |i| c.get(i).map_or("", |m| m.as_str()).to_string();
            head = Some((g(2), g(3)));
            continue;
        }
        let (Some(c), Some((prog, file))) = (STATUS.captures(t), head.take()) else {
            continue;
        };
        out.push(UserBenchmark {
            tool: "progress".into(),
            command: Some(format!("{prog} {file}")),
            input: Some(file),
            bytes: size(c.get(2), c.get(3)).map(|b| b as u64),
            bytes_per_sec: size(c.get(6), c.get(7)),
            flags: direction(&prog)
                .map(|d| format!("rw={d}"))
                .into_iter()
                .collect(),
            ..Default::default()
        });
    }
    out
}

// ---- the source spec (see sources::spec) ----

static RECOGNISER: spec::Recogniser = spec::Recogniser::table(
    "progress",
    // The header, with its status line next.
    &[(68, |l| {
        spec::Start::from(
            l.first().is_some_and(|h| HEADER.is_match(h.trim_end()))
                && l.get(1).is_some_and(|s| STATUS.is_match(s)),
        )
    })],
    |t, _| spec::Member::from(HEADER.is_match(t.trim_end()) || STATUS.is_match(t)),
    |_, _| "progress",
);

/// progress: the rates of running copies people paste, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::pasted_only!(
    "progress",
    "progress",
    None,
    &RECOGNISER,
    parse: |t| parse(t).len(),
    secrets: &[],
);

#[cfg(test)]
mod tests;
