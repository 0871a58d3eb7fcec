//! The time a command took, as the shell's or the system's `time` prints it after the
//! command's own output:
//! - bash's `time` keyword (bash(1) "Pipelines", TIMEFORMAT unset): three lines
//!   "real\t0m0.179s", "user\t0m0.000s", "sys\t0m0.104s" (a comma where the locale's decimal
//!   point is one; `time -p` prints "real 0.17" with seconds only; BusyBox's ash "real 0m 0.17s");
//! - BSD time(1) (FreeBSD usr.bin/time/time.c, also macOS): one line
//!   "        0.18 real         0.00 user         0.10 sys";
//! - csh/tcsh's `time` builtin (FreeBSD's root shell before 14.0; tcsh(1) "time", format
//!   "%Uu %Ss %E %P %X+%Dk %I+%Oio %Fpf+%Ww"): "0.000u 0.104s 0:00.17 58.8% 10+176k 0+0io 0pf+0w";
//! - GNU time(1) (/usr/bin/time, default format): "0.00user 0.10system 0:00.17elapsed 58%CPU ...".
//!
//! What makes it evidence is the command above it. A copy (cp, mv, rsync, tar, dd without a
//! flush) into the page cache returns when the last write() does, while the kernel writes the
//! dirty pages back afterwards (mm/page-writeback.c: a writer waits only once dirty pages
//! pass vm.dirty_ratio); a `sync` or `umount` timed after it waits for exactly that
//! writeback (sync(2); umount(2) writes the file system's dirty data before detaching it).
//! A short copy followed by a long flush measured the page cache, not the device.

use crate::sources::spec;
use crate::sources::util::clean_line;

/// One `time` report: wall-clock seconds and the CPU seconds (user, system) when printed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeRun {
    pub real_s: f64,
    pub user_s: Option<f64>,
    pub sys_s: Option<f64>,
}

impl TimeRun {
    /// user + sys, when both were printed.
    pub fn cpu_s(&self) -> Option<f64> {
        Some(self.user_s? + self.sys_s?)
    }
}

// bash: "real\t0m0.179s", "real 0m0,179s", BusyBox "real\t0m 0.17s", `time -p` "real 0.17".
crate::rx!(
    BASH_LINE,
    r"^(real|user|sys)\s+(?:(\d{1,6})m\s?)?(\d{1,9}(?:[.,]\d{1,9})?)s?\s*$"
);
// BSD time(1): "        0.18 real         0.00 user         0.10 sys".
crate::rx!(
    BSD_LINE,
    r"^\s*(\d{1,9}\.\d{1,9}) real\s+(\d{1,9}\.\d{1,9}) user\s+(\d{1,9}\.\d{1,9}) sys\s*$"
);
// tcsh/csh: "0.000u 0.104s 0:00.17 58.8% 10+176k 0+0io 0pf+0w" (elapsed [h:]m:ss.ss).
crate::rx!(
    CSH_LINE,
    r"^\s*(\d{1,9}\.\d{1,3})u (\d{1,9}\.\d{1,3})s (?:(\d{1,6}):)?(\d{1,6}):(\d{2}(?:\.\d{1,3})?) \d{1,4}(?:\.\d)?%(?:\s.*)?$"
);
// GNU time: "0.00user 0.10system 0:00.17elapsed 58%CPU (0avgtext+0avgdata 2048maxresident)k".
crate::rx!(
    GNU_LINE,
    r"^\s*(\d{1,9}\.\d{1,3})user (\d{1,9}\.\d{1,3})system (?:(\d{1,6}):)?(\d{1,6}):(\d{2}(?:\.\d{1,3})?)elapsed\b"
);

fn num(s: &str) -> Option<f64> {
    let v: f64 = s.replace(',', ".").parse().ok()?;
    v.is_finite().then_some(v)
}

/// Minutes and seconds as `time` prints them; `None` on a number no clock gives.
fn min_sec(m: Option<&str>, s: &str) -> Option<f64> {
    let m = match m {
        Some(m) => num(m)?,
        None => 0.0,
    };
    let v = m * 60.0 + num(s)?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// [h:]m:ss.ss as csh and GNU time print the elapsed time.
fn clock(h: Option<&str>, m: &str, s: &str) -> Option<f64> {
    let h = match h {
        Some(h) => num(h)?,
        None => 0.0,
    };
    let v = h * 3600.0 + num(m)? * 60.0 + num(s)?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// A one-line report (BSD, csh, GNU).
fn one_line(t: &str) -> Option<TimeRun> {
    if let Some(c) = BSD_LINE.captures(t) {
        return Some(TimeRun {
            real_s: num(c.get(1)?.as_str())?,
            user_s: num(c.get(2)?.as_str()),
            sys_s: num(c.get(3)?.as_str()),
        });
    }
    let c = CSH_LINE.captures(t).or_else(|| GNU_LINE.captures(t))?;
    Some(TimeRun {
        real_s: clock(
            c.get(3).map(|m| m.as_str()),
            c.get(4)?.as_str(),
            c.get(5)?.as_str(),
        )?,
        user_s: num(c.get(1)?.as_str()),
        sys_s: num(c.get(2)?.as_str()),
    })
}

/// bash's line: which one ("real", "user", "sys") and its seconds.
fn bash_line(t: &str) -> Option<(&'static str, f64)> {
    let c = BASH_LINE.captures(t)?;
    let which = match c.get(1)?.as_str() {
        "real" => "real",
        "user" => "user",
        _ => "sys",
    };
    Some((
        which,
        min_sec(c.get(2).map(|m| m.as_str()), c.get(3)?.as_str())?,
    ))
}

/// Every `time` report in `text`, in order. bash's three lines make one report, opened by
/// its "real" line.
pub fn parse(text: &str) -> Vec<TimeRun> {
    let mut out: Vec<TimeRun> = Vec::new();
    let mut open = false;
    for raw in text.lines() {
        let l = clean_line(raw);
        let t = l.trim();
        if let Some(r) = one_line(t) {
            out.push(r);
            open = false;
            continue;
        }
        match bash_line(t) {
            Some(("real", s)) => {
                out.push(TimeRun {
                    real_s: s,
                    user_s: None,
                    sys_s: None,
                });
                open = true;
            }
            Some((which, s)) if open => {
                if let Some(r) = out.last_mut() {
                    if which == "user" {
                        r.user_s = Some(s);
                    } else {
                        r.sys_s = Some(s);
                        open = false;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether a timed command flushes the page cache to the device and nothing else: `sync`
/// (sync(2)), `umount`/`eject` of a file system (umount(2) writes its dirty data first).
pub fn is_flush_command(command: &str) -> bool {
    let mut w = command.split_whitespace();
    matches!(w.next(), Some("sync" | "umount" | "eject"))
}

// ---- the source spec (see sources::spec) ----

fn is_member(t: &str) -> bool {
    let l = clean_line(t);
    let t = l.trim();
    bash_line(t).is_some() || one_line(t).is_some()
}

fn start(lines: &[&str]) -> spec::Start {
    let Some(first) = lines.first() else {
        return spec::Start::No;
    };
    let l = clean_line(first);
    let t = l.trim();
    // bash's report opens with "real" and, unless cut, a "user" line follows at once: a
    // lone "real 2" in prose starts nothing.
    let bash = bash_line(t).is_some_and(|(w, _)| w == "real")
        && lines
            .get(1)
            .is_some_and(|n| bash_line(clean_line(n).trim()).is_some_and(|(w, _)| w == "user"));
    spec::Start::from(bash || one_line(t).is_some())
}

static RECOGNISER: spec::Recogniser = spec::Recogniser {
    name: "shell-time",
    starts: &[(95, start)],
    member: |t, _| spec::Member::from(is_member(t)),
    tolerance: (0, 0),
    classify: |_, _| "shell-time",
    ..spec::Recogniser::NONE
};

/// The programs a `time` report is read for: copies and the flushes after them. Their own
/// output, if any, is no tool's: only the `time` lines below them are read.
fn copy_or_flush(program: &str) -> bool {
    matches!(
        program,
        "cp" | "mv" | "rsync" | "tar" | "dd" | "sync" | "umount" | "eject"
    )
}

/// Operands of sync(1) and umount(8) as typed: at most three, each a flag ("-f", "-l",
/// "--data") or a path or device ("/media", "/dev/sdb1", "./mnt", "usb"), never a
/// "key:" or "(unit):" of another tool's output (fio prints "  sync (usec): min=...").
fn flush_args(a: &str, need_one: bool) -> bool {
    let words: Vec<&str> = a.split_whitespace().collect();
    (!need_one || !words.is_empty())
        && words.len() <= 3
        && words.iter().all(|w| {
            w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./~".contains(c))
        })
}

/// The shell's `time`: how long a typed command took, captured by no probe.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    parse: Some(|t| parse(t).len()),
    paste: Some(spec::Paste::new(&RECOGNISER, |p, _| copy_or_flush(p))),
    programs: &[
        // `sync` alone, or with files (coreutils 8.24+ `sync FILE`, `sync -f`).
        spec::Program {
            names_device: false,
            ..spec::Program::new("sync", |a| flush_args(a, false))
        },
        // `umount /media`, `umount -l /dev/sdb1`.
        spec::Program {
            names_device: false,
            ..spec::Program::new("umount", |a| flush_args(a, true))
        },
    ],
    ..spec::SourceSpec::named("shell-time", "the shell's time")
};

#[cfg(test)]
mod tests;
