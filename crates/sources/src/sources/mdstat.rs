//! Linux `/proc/mdstat` (drivers/md/md.c md_seq_show; Documentation/admin-guide/md.rst):
//! "md0 : active raid1 sdb1[1] sda1[0](F)" then a status line "... [2/1] [U_]" and, while
//! the array syncs, a progress line "[=>....]  recovery =  8.5% (...) finish=182.7min
//! speed=163031K/sec" (action: resync, recovery, reshape, check, repair; "resync=DELAYED"
//! or "=PENDING" while waiting). Also md's sysfs: md/sync_action ("idle", "resync", ...),
//! md/sync_speed (KiB/s), md/sync_speed_min|max ("1000 (system)" when the system-wide
//! /proc/sys/dev/raid/speed_limit_min|max applies).
//!
//! A paste may hold only progress lines, copied from `watch cat /proc/mdstat` or from a
//! loop that printed the file again and again: status_resync (md.c) writes each as
//! "[" + '=' per 5 % done + ">" + '.' for the rest + "]", then " %s =%3u.%u%% (%llu/%llu)
//! finish=%lu.%lumin speed=%ldK/sec" where the word is "reshape", "check", "resync" or
//! "recovery" (a "repair" requested through md/sync_action shows as "resync": action_store
//! sets MD_RECOVERY_CHECK only for "check"). They are one array whose name the paste does
//! not give ([`UNNAMED`]); the last line is where it is now.

use crate::sources::util::{clean_line, leading_f64, leading_u64, tokens};

/// The name of an array known only from its progress lines (no "mdN : active" line pasted).
pub const UNNAMED: &str = "an md array";

crate::rx!(
    PROGRESS,
    r"^\[[=>.]{4,}\]\s+(resync|recovery|reshape|check|repair)\s*=\s*\d{1,3}(\.\d+)?%"
);

/// Whether a line (quote marks and indentation removed) is md's sync progress line:
/// "[==>..................]  recovery = 12.6% (...) finish=... speed=...K/sec".
pub(crate) fn is_progress_line(t: &str) -> bool {
    t.starts_with('[') && PROGRESS.is_match(t)
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct MdArray {
    pub name: String,
    /// "active", "inactive".
    pub state: String,
    /// "raid1", "raid5".
    pub level: Option<String>,
    /// Member kernel names without the [n] slot and (F)/(S) marks.
    pub members: Vec<String>,
    pub failed_members: Vec<String>,
    /// [n/m]: n wanted, m working.
    pub wanted: Option<u32>,
    pub working: Option<u32>,
    /// resync, recovery, reshape, check, repair; None when idle.
    pub action: Option<String>,
    /// DELAYED / PENDING when the action waits.
    pub waiting: Option<String>,
    pub percent: Option<f64>,
    pub finish: Option<String>,
    pub speed_kib_s: Option<u64>,
    /// Progress lines read for this array: more than one when the file was printed again
    /// and again (the last gives `percent`, `finish` and `speed_kib_s`).
    pub progress_lines: u32,
    /// The highest speed of the earlier progress lines, when there were several.
    pub peak_speed_kib_s: Option<u64>,
    /// The status line says "super external:imsm" (or ddf): an Intel RST / DDF container,
    /// which md always lists as inactive; its volumes are the arrays that run.
    pub container: bool,
    /// Each member's "[n]" number (md.c md_seq_show prints rdev->desc_nr), in line order.
    pub slots: Vec<u32>,
}

impl MdArray {
    /// An array md lists as "inactive" that is not a metadata container: md_seq_show
    /// prints "inactive" for an array whose members were bound but which was never run
    /// (mddev->pers is NULL: too few members for its level at assembly, or assembly stopped
    /// before `--run`); no personality serves I/O from it, so its level is not printed either.
    pub fn stopped(&self) -> bool {
        self.state == "inactive" && !self.container && !self.members.is_empty()
    }

    /// The slot numbers below the highest listed that no member holds ("sdb1[1] sda1[0]
    /// sdd1[2] sde1[4]": 3): on a stopped array, the members md did not find.
    pub fn missing_slots(&self) -> Vec<u32> {
        let Some(max) = self.slots.iter().copied().max() else {
            return Vec::new();
        };
        (0..max).filter(|n| !self.slots.contains(n)).collect()
    }

    /// Fewer working members than wanted, or a failed member.
    pub fn degraded(&self) -> bool {
        matches!((self.wanted, self.working), (Some(w), Some(k)) if k < w)
            || !self.failed_members.is_empty()
    }
}

const ACTIONS: &[&str] = &["resync", "recovery", "reshape", "check", "repair"];

/// Every array in the text.
pub fn parse(text: &str) -> Vec<MdArray> {
    let mut out: Vec<MdArray> = Vec::new();
    for raw in text.lines() {
        let line = clean_line(raw);
        let t = line.trim();
        let tk = tokens(t);
        if let Some((name, state, rest)) = md_line(&tk) {
            let mut a = MdArray {
                name: name.to_string(),
                state: state.to_string(),
                ..Default::default()
            };
            for r in rest {
                if let Some((dev, mark)) = r.split_once('[')
                    && !dev.is_empty()
                {
                    let failed = mark.contains("(F)");
                    if let Some(n) = leading_u64(mark).and_then(|n| u32::try_from(n).ok()) {
                        a.slots.push(n);
                    }
                    if failed {
                        a.failed_members.push(dev.to_string());
                    }
                    a.members.push(dev.to_string());
                } else if r.starts_with("(F)")
                    && let Some(last) = a.members.last()
                {
                    // "sde[3] (F)": the flag parted from its member by a poster's markup
                    // ("**sde[3] (F)**") or retyping; md_seq_show prints "sde[3](F)".
                    if !a.failed_members.contains(last) {
                        a.failed_members.push(last.clone());
                    }
                } else if r.starts_with("raid") || *r == "linear" || *r == "multipath" {
                    a.level = Some(r.to_string());
                }
                // "(auto-read-only)", "(read-only)" and the like are ignored.
            }
            out.push(a);
            // Kernels before 2.6 printed the status and the sync progress on the md line
            // itself ("md0 : active raid1 sdb2[1] sda2[0] 9940 blocks [2/2] [UU]
            // resync=1% finish=12.3min", 2.4's drivers/md/md.c status_resync), as do
            // pages that ran the lines together: read them below like a status line.
        }
        if out.is_empty() && is_progress_line(t) {
            // Progress lines with no array line before them: the array is unnamed.
            out.push(MdArray {
                name: UNNAMED.to_string(),
                state: "active".to_string(),
                ..Default::default()
            });
        }
        let Some(a) = out.last_mut() else { continue };
        if t.contains("super external:") {
            a.container = true;
        }
        if is_progress_line(t) {
            // A later progress line of the same array: keep the fastest earlier speed, so a
            // rebuild that slowed down over the lines can be told from a steady one.
            if a.progress_lines > 0 {
                a.peak_speed_kib_s = a.peak_speed_kib_s.max(a.speed_kib_s);
            }
            a.progress_lines = a.progress_lines.saturating_add(1);
        }
        // "[2/1] [U_]"
        for w in &tk {
            if let Some(inner) = w.strip_prefix('[').and_then(|x| x.strip_suffix(']'))
                && let Some((n, m)) = inner.split_once('/')
                && let (Some(n), Some(m)) = (leading_u64(n), leading_u64(m))
            {
                a.wanted = u32::try_from(n).ok();
                a.working = u32::try_from(m).ok();
            }
        }
        for act in ACTIONS {
            // "recovery =  8.5% (...)", "resync=DELAYED", "check = 12.0%".
            let Some(pos) = t.find(act) else { continue };
            let after = t.get(pos + act.len()..).unwrap_or("").trim_start();
            let Some(v) = after.strip_prefix('=') else {
                continue;
            };
            let v = v.trim_start();
            a.action = Some(act.to_string());
            if v.starts_with("DELAYED") || v.starts_with("PENDING") {
                a.waiting = v.split_whitespace().next().map(str::to_string);
            } else {
                a.percent = leading_f64(v).filter(|p| (0.0..=100.0).contains(p));
            }
            break;
        }
        for w in &tk {
            if let Some(v) = w.strip_prefix("finish=") {
                a.finish = Some(v.to_string());
            } else if let Some(v) = w.strip_prefix("speed=") {
                a.speed_kib_s = leading_u64(v);
            }
        }
    }
    out
}

/// The md line's name, state and the words after them: "md0 : active raid1 ..." (md.c
/// md_seq_show), also "md0: active" as old documentation prints it.
fn md_line<'a>(tk: &'a [&'a str]) -> Option<(&'a str, &'a str, &'a [&'a str])> {
    let (name, state, rest) = match tk {
        [name, ":", state, rest @ ..] => (*name, *state, rest),
        [name, state, rest @ ..] => (name.strip_suffix(':')?, *state, rest),
        _ => return None,
    };
    let digits = name.strip_prefix("md")?;
    (!digits.is_empty()
        // md127, and the partitionable md_d0 of md(4).
        && digits.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && matches!(state, "active" | "inactive"))
    .then_some((name, state, rest))
}

/// The line starts of /proc/mdstat run together on one line (a mail archive that lost the
/// newlines): "Personalities :", 2.4's "read_ahead 1024 sectors", each "mdN : active"
/// line, its "N blocks" status line and "[==>...]" progress bar, "unused devices:".
pub(crate) const FLAT: crate::sources::spec::Flat = crate::sources::spec::Flat {
    starts: &[
        r"\b(Personalities\s*:)",
        r"\b(read_ahead\s+(?:\d+\s+sectors|not\s+set))",
        // Not the kernel's "md/raid1:md0: active with 2 out of 2 mirrors" (drivers/md/raid1.c
        // raid1_run): an mdstat array line starts a line or follows a space.
        r"(?:^|\s)(md\d+\s?:\s+(?:active|inactive)\s)",
        r"(?:^|\s)(\d+\s+blocks\s)",
        r"(?:^|\s)(\[[=>.]{4,}\])",
        r"\b(bitmap:\s)",
        r"\b(unused\s+devices:)",
    ],
    need: r"\bPersonalities\s*:|(?:^|\s)md\d+\s?:\s+(?:active|inactive)\s",
    min: 3,
};

/// Whether the text is /proc/mdstat (for `explain`).
pub fn recognize(text: &str) -> bool {
    text.lines()
        .any(|l| clean_line(l).trim_start().starts_with("Personalities :"))
        || !parse(text).is_empty()
}

#[cfg(test)]
mod tests;
