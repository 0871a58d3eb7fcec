//! Software RAID state changes as the kernel logs them, read from any pasted log line (the
//! arrays' own tools may be absent from the paste): Linux md (drivers/md/raid1.c, raid10.c,
//! raid5.c: "md/raid1:md0: Disk failure on sdb1, disabling device." and "Operation continuing
//! on 1 devices."; md.c md_do_sync: "md: recovery of RAID array md0", "md: md0: recovery
//! done."), FreeBSD gmirror (sys/geom/mirror/g_mirror.c: "GEOM_MIRROR: Device gm0: provider
//! ada1 disconnected.", "Device gm0: rebuilding provider ada1.", "... finished.") and the
//! ataraid(4) driver of FreeBSD 5-8 (sys/dev/ata/ata-raid.c ata_raid_config_changed: "ar0:
//! WARNING - mirror protection lost. RAID1 array in DEGRADED mode", "ar0: FAILURE - RAID1
//! array broken"). Each line updates its array in log order, so a rebuild that finished
//! later in the log leaves the array idle.

use crate::sources::log_prefix::strip_prefixes;
use crate::sources::raid_controller::Task;

crate::rx!(
    MD_FAILED,
    r"md/raid\d*:(md\d+): (?:Disk failure on \S+, disabling device|Operation continuing on \d+ devices)"
);
// The personality's start line: raid5.c raid5_run "md/raid:md3: raid level 6 active with 8
// out of 10 devices, algorithm 2", raid1.c raid1_run "md/raid1:md0: active with 1 out of 2
// mirrors", raid10.c "md/raid10:md0: active with 3 out of 4 devices" (mddev->raid_disks -
// mddev->degraded out of raid_disks), and the 2.6-era "raid1: raid set md0 active with 1 out
// of 2 mirrors". Fewer working than slots: the array runs degraded. Groups: the array (either
// form), working, slots.
crate::rx!(
    MD_ACTIVE,
    r"(?:md/raid\d*:(md\d+): (?:raid level \d+ )?|raid\d+: raid (?:level \d+ )?set (md\d+) )active with (\d+) out of (\d+) (?:devices|mirrors)"
);
crate::rx!(
    MD_SYNC,
    r"md: (recovery|resync|data-check|reshape) of RAID array (md\d+)"
);
crate::rx!(
    MD_DONE,
    r"md: (md\d+): (?:recovery|resync|data-check|reshape) (?:done|interrupted)"
);
crate::rx!(
    GMIRROR,
    r"GEOM_MIRROR: Device ([\w.-]+): (?:provider \S+ disconnected|rebuilding provider [\w/.-]+?( finished)?\.?\s*$)"
);
crate::rx!(
    ATARAID,
    r"(ar\d+): (?:WARNING - (?:mirror|parity) protection lost\. .*array in DEGRADED mode|FAILURE - .*array broken)"
);

/// One array's state after the log's lines about it.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedArray {
    pub name: String,
    /// "md", "gmirror" or "ataraid".
    pub kind: &'static str,
    pub degraded: bool,
    pub task: Option<Task>,
    /// The last line that changed it, and its number among the text's lines (0-based).
    pub line: String,
    pub line_index: usize,
}

/// What one kernel line says of an array: its name, its kind, whether it is degraded (`None`:
/// the line does not say) and its task (`None`: not said; `Some(None)`: the task ended).
type Change = (String, &'static str, Option<bool>, Option<Option<Task>>);

/// The arrays the text's kernel lines report degraded or rebuilding.
pub fn parse(text: &str) -> Vec<LoggedArray> {
    let mut out: Vec<LoggedArray> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = strip_prefixes(raw).trim();
        let change: Option<Change> = if let Some(c) = MD_FAILED.captures(body) {
            Some((c[1].to_string(), "md", Some(true), None))
        } else if let Some(c) = MD_ACTIVE.captures(body) {
            let n = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
            let name = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
            match (n(3), n(4)) {
                (Some(w), Some(all)) => Some((name.to_string(), "md", Some(w < all), None)),
                _ => None,
            }
        } else if let Some(c) = MD_SYNC.captures(body) {
            let task = match &c[1] {
                "recovery" => Task::Recovery,
                "resync" => Task::Resync,
                "reshape" => Task::Reshape,
                _ => Task::Check,
            };
            Some((c[2].to_string(), "md", None, Some(Some(task))))
        } else if let Some(c) = MD_DONE.captures(body) {
            // A recovery that finished rebuilt the missing members (md_do_sync recovers
            // every spare in one pass); an interrupted one left the array as it was.
            let whole = body.ends_with("recovery done.").then_some(false);
            Some((c[1].to_string(), "md", whole, Some(None)))
        } else if let Some(c) = GMIRROR.captures(body) {
            let name = c[1].to_string();
            if !body.contains("rebuilding provider") {
                Some((name, "gmirror", Some(true), None))
            } else if c.get(2).is_some() {
                Some((name, "gmirror", Some(false), Some(None)))
            } else {
                Some((name, "gmirror", None, Some(Some(Task::Recovery))))
            }
        } else {
            ATARAID
                .captures(body)
                .map(|c| (c[1].to_string(), "ataraid", Some(true), None))
        };
        let Some((name, kind, degraded, task)) = change else {
            continue;
        };
        let a = match out.iter_mut().find(|a| a.name == name && a.kind == kind) {
            Some(a) => a,
            None => {
                out.push(LoggedArray {
                    name,
                    kind,
                    degraded: false,
                    task: None,
                    line: String::new(),
                    line_index: i,
                });
                let Some(last) = out.last_mut() else {
                    continue;
                };
                last
            }
        };
        if let Some(d) = degraded {
            a.degraded = d;
        }
        if let Some(t) = task {
            a.task = t;
        }
        a.line = body.to_string();
        a.line_index = i;
    }
    out.retain(|a| a.degraded || a.task.is_some());
    out
}

#[cfg(test)]
mod tests;
