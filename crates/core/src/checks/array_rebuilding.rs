//! `array-rebuilding`: an md array resyncing, recovering, reshaping or checking, or a ZFS
//! pool resilvering or scrubbing, competes with every other I/O on its member disks; a
//! degraded array reconstructs reads from parity. References: Documentation/admin-guide/
//! md.rst (md/sync_action, sync_speed_min/max, /proc/sys/dev/raid/speed_limit_min|max),
//! zpool-status(8), zpool-scrub(8) (-p pauses), OpenZFS module parameters
//! zfs_resilver_min_time_ms / zfs_scrub_min_time_ms (FreeBSD vfs.zfs.*).

use crate::checks::{Check, Confidence, Finding, Fix, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{ArrayActivity, Fact, SystemFacts};
use crate::sources::{ask_bare, spec::Ask};

pub const ID: &str = "array-rebuilding";

pub(crate) struct ArrayRebuilding;

impl Check for ArrayRebuilding {
    fn id(&self) -> &'static str {
        ID
    }
    fn label(&self) -> &'static str {
        "Array rebuild"
    }
    fn summary(&self) -> &'static str {
        "md resync/recovery/reshape/check, ZFS resilver/scrub in progress, or a degraded array: the disks are busy rebuilding"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let Fact::Known { value, .. } = &sys.arrays else {
            return Vec::new();
        };
        value.iter().map(|a| judge(sys.platform, a)).collect()
    }
}

fn rebuilding(action: &str) -> bool {
    matches!(
        action,
        "resync" | "recovery" | "reshape" | "resilver" | "recover" | "frozen"
    )
}

fn value(a: &ArrayActivity) -> String {
    let mut v = format!("{} {} action={}", a.kind, a.name, a.action);
    if let Some(p) = a.percent_done {
        v.push_str(&format!(" {p:.1}%"));
    }
    if let Some(s) = a.speed_kib_s {
        v.push_str(&format!(" speed={s}K/sec"));
    }
    if let Some(r) = &a.remaining {
        v.push_str(&format!(" remaining={r}"));
    }
    if let Some(p) = a.peak_speed_kib_s {
        v.push_str(&format!(" earlier_peak={p}K/sec"));
    }
    if a.degraded {
        v.push_str(" degraded");
    }
    if a.not_running.is_some() {
        v.push_str(" inactive");
    }
    v
}

pub(crate) fn judge(platform: Platform, a: &ArrayActivity) -> Finding {
    let active = a.action != "idle" && !a.action.is_empty();
    let mut f = if !active && !a.degraded && a.not_running.is_none() {
        Finding::new(
            ID,
            &a.name,
            Verdict::Pass,
            Severity::Info,
            format!("{}: no resync, rebuild or scrub running", a.name),
        )
    } else {
        let sev = if rebuilding(&a.action) || a.degraded || a.not_running.is_some() {
            Severity::Warning
        } else {
            Severity::Notice
        };
        let what = match a.action.as_str() {
            "resync" => "resynchronising its copies",
            "recovery" | "recover" => "rebuilding onto a replacement disk",
            "reshape" => "reshaping (changing level, layout or size)",
            "check" | "repair" => "checking its redundancy (a scheduled scrub)",
            "scrub" => "scrubbing (reading and verifying every block)",
            "resilver" => "resilvering onto a replacement disk",
            "scan" => {
                "scanning its blocks (a scrub or a resilver: the lines shown do not say which)"
            }
            "initialize" => "initializing (writing every unallocated block once)",
            _ => "running a background operation",
        };
        let mut expl = if active {
            format!(
                "{} ({}) is {what}{}{}. Until it finishes every disk in it ({}) serves the \
                 rebuild as well as you: throughput measured now is lower than normal, and \
                 latency higher. ",
                a.name,
                a.kind,
                a.percent_done
                    .map(|p| format!(", {p:.1} % done"))
                    .unwrap_or_default(),
                a.remaining
                    .as_ref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default(),
                if a.members.is_empty() {
                    "its members".to_string()
                } else {
                    a.members.join(", ")
                },
            )
        } else {
            String::new()
        };
        if let Some(why) = &a.not_running {
            expl.push_str(&format!(
                "The array is not running ({why}): md binds the members it finds and starts \
                 the array only when enough of them are present for its level, or when told \
                 to run it degraded; until then none of its data can be read (which is why \
                 /proc/mdstat prints no RAID level for it). A member that failed or was not found, or an assembly that ran before every \
                 disk appeared, leaves it so. "
            ));
        } else if a.degraded {
            expl.push_str(
                "The array is degraded: members are missing or failed, so reads that hit \
                 them are rebuilt from the others and one more failure can lose data. ",
            );
        }
        if let (Some(s), Some(max)) = (a.speed_kib_s, a.speed_max_kib_s) {
            expl.push_str(&format!(
                "It runs at {s} KiB/s (limits: min {} KiB/s, max {max} KiB/s). ",
                a.speed_min_kib_s
                    .map(|m| m.to_string())
                    .unwrap_or("?".into())
            ));
        }
        if active && let Some(slow) = slowdown(a) {
            expl.push_str(&slow);
        }
        Finding::new(
            ID,
            &a.name,
            Verdict::Problem,
            sev,
            if active {
                format!("{}: {} in progress", a.name, a.action)
            } else if a.not_running.is_some() {
                format!("{}: inactive, not running", a.name)
            } else {
                format!("{}: degraded", a.name)
            },
        )
        .explain(expl)
        .confidence(Confidence::Medium)
        .impact(0.5)
    };
    for k in &a.from {
        f = f.evidence(k.clone(), value(a));
    }
    if f.verdict == Verdict::Problem {
        for x in fixes(platform, a) {
            f = f.fix(x);
        }
    }
    f
}

/// A fall of the sync speed by this factor or more over the progress lines is worth
/// saying: md's own pacing does not explain it (see [`slowdown`]).
const SLOWDOWN_FACTOR: u64 = 4;

/// What a sync whose speed fell steeply over the pasted progress lines says. md paces a
/// resync between sync_speed_min and sync_speed_max: md_do_sync (drivers/md/md.c) sleeps
/// while the rate is above the minimum and is_mddev_idle sees other I/O on the members, so
/// a busy system holds it near the minimum (1000 KiB/s by default, speed_limit_min in
/// Documentation/admin-guide/md.rst). A fall by a large factor is then either that
/// competing I/O or a member that reads or writes slowly: the disk being rebuilt onto, or
/// the one read from, retrying errors.
fn slowdown(a: &ArrayActivity) -> Option<String> {
    let (peak, now) = (a.peak_speed_kib_s?, a.speed_kib_s?);
    if now == 0 || peak < now.checked_mul(SLOWDOWN_FACTOR)? {
        return None;
    }
    Some(format!(
        "Over the progress lines given its speed fell from as much as {peak} KiB/s on an \
         earlier line to {now} KiB/s ({}x slower). md slows a rebuild down to its minimum (sync_speed_min, 1000 KiB/s unless \
         set) while other I/O uses the members; with no such load, a fall like this is a \
         member that reads or writes slowly, often the new disk or the one being read \
         retrying errors: look for I/O errors of the members in the kernel log (`dmesg`) and \
         read each member's SMART (`{}`). ",
        peak.checked_div(now).unwrap_or(0),
        ask_bare(Ask::SmartExtended)
    ))
}

fn fixes(platform: Platform, a: &ArrayActivity) -> Vec<Fix> {
    // Progress lines alone do not name the array: the commands take a placeholder.
    let n = if a.name == crate::sources::mdstat::UNNAMED {
        "mdN"
    } else if a.name == crate::sources::zpool::UNNAMED {
        "POOL"
    } else {
        a.name.as_str()
    };
    let trade = "a faster rebuild takes I/O from your workload; a slower one leaves the \
                 array without full redundancy for longer"
        .to_string();
    match (platform, a.kind.as_str()) {
        (Platform::Linux, "md") => {
            let mut steps = Vec::new();
            if a.name == crate::sources::mdstat::UNNAMED {
                steps.push(
                    "`cat /proc/mdstat` names the array (its \"mdN : active\" line): use that \
                     name for mdN below"
                        .to_string(),
                );
            }
            steps.extend([
                format!("Watch it: `cat /proc/mdstat` or `cat /sys/block/{n}/md/sync_speed`"),
                format!(
                    "Finish sooner: `echo 200000 | sudo tee /sys/block/{n}/md/sync_speed_min` \
                     (KiB/s; `echo system` restores the default of \
                     /proc/sys/dev/raid/speed_limit_min)"
                ),
                format!(
                    "Leave room for your work: `echo 20000 | sudo tee \
                     /sys/block/{n}/md/sync_speed_max` (or sysctl dev.raid.speed_limit_max)"
                ),
            ]);
            if matches!(a.action.as_str(), "check" | "repair") {
                steps.push(format!(
                    "A scheduled check can be stopped and rerun later: `echo idle | sudo tee \
                     /sys/block/{n}/md/sync_action`"
                ));
            }
            if a.not_running.is_some() {
                steps = vec![
                    "`sudo mdadm --examine /dev/sdX1` on each member (and on the disk that is \
                     not listed) shows each one's slot, event count and state"
                        .to_string(),
                    format!(
                        "If every member is present and healthy, stop and reassemble it: \
                         `sudo mdadm --stop /dev/{n}` then `sudo mdadm --assemble --scan`"
                    ),
                    format!(
                        "If one is missing or failed, start it degraded from the others: \
                         `sudo mdadm --assemble --run /dev/{n} /dev/sdX1 ...`, copy off what \
                         matters, then add a replacement with `sudo mdadm /dev/{n} --add \
                         /dev/sdY1`"
                    ),
                ];
            } else if a.degraded && a.action == "idle" {
                steps = vec![
                    format!("`sudo mdadm --detail /dev/{n}` shows which member is missing"),
                    format!("Replace it: `sudo mdadm /dev/{n} --add /dev/sdX1`"),
                ];
            }
            vec![Fix {
                platform,
                summary: if a.not_running.is_some() {
                    "find the missing member, then start the array".into()
                } else {
                    "let the rebuild finish, at the rate you choose".into()
                },
                steps,
                risk: if a.not_running.is_some() {
                    "an array started degraded has no redundancy until the replacement has \
                     synced; forcing members whose event counts differ (--force) can lose the \
                     last writes"
                        .into()
                } else {
                    trade
                },
            }]
        }
        (Platform::Linux | Platform::Freebsd, "zfs") => {
            let tun = if platform == Platform::Linux {
                "`echo 5000 | sudo tee /sys/module/zfs/parameters/zfs_resilver_min_time_ms` \
                 (default 3000: more time per txg for the resilver)"
            } else {
                "`sysctl vfs.zfs.resilver_min_time_ms=5000` (default 3000)"
            };
            let mut steps = Vec::new();
            if a.name == crate::sources::zpool::UNNAMED {
                steps.push(
                    "`zpool list -H -o name` names the pools: use the one being scanned for \
                     POOL below"
                        .to_string(),
                );
            }
            steps.extend([format!("Watch it: `zpool status {n}`"), tun.to_string()]);
            if a.action == "scrub" {
                steps.push(format!(
                    "Pause a scrub during busy hours: `zpool scrub -p {n}` (resume with \
                     `zpool scrub {n}`)"
                ));
            }
            vec![Fix {
                platform,
                summary: "let the resilver or scrub finish, or pause a scrub".into(),
                steps,
                risk: trade,
            }]
        }
        (Platform::Linux | Platform::Unknown, "btrfs") => vec![Fix {
            platform: Platform::Linux,
            summary: "let the scrub finish, or pause it for busy hours".into(),
            steps: vec![
                "Watch it: `btrfs scrub status MOUNTPOINT`".to_string(),
                "Pause it: `btrfs scrub cancel MOUNTPOINT` (its progress is kept), later \
                 `btrfs scrub resume MOUNTPOINT`"
                    .to_string(),
                "Run it in the idle I/O class so your work comes first: `btrfs scrub start \
                 -c 3 MOUNTPOINT` (btrfs-scrub(8); honoured by the BFQ scheduler)"
                    .to_string(),
            ],
            risk: trade,
        }],
        (_, kind) => match controller_tool(kind) {
            Some(show) => vec![Fix {
                platform,
                summary: if a.action == "idle" {
                    "replace the missing or failed member; the controller rebuilds by itself".into()
                } else {
                    "let the controller finish, at the rebuild priority you choose".into()
                },
                steps: vec![
                    format!("Watch it and find the failed member: {show}"),
                    "A degraded array with no rebuild running needs a replacement drive (or a \
                     hot spare): the controller starts the rebuild when one is inserted"
                        .to_string(),
                    "The controller's rebuild priority (HPE \"Rebuild Priority\", LSI \
                     \"rebuild rate\", Adaptec \"task priority\") trades rebuild time \
                     against your workload"
                        .to_string(),
                ],
                risk: trade,
            }],
            None => Vec::new(),
        },
    }
}

/// The command that shows a hardware RAID array's state, by the source that reported it
/// (sources::raid_controller's tools).
fn controller_tool(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "ssacli" => "`ssacli ctrl all show config detail`",
        "arcconf" => "`arcconf getconfig 1` and `arcconf getstatus 1`",
        "megacli" | "megaclisas-status" => {
            "`MegaCli64 -LDInfo -Lall -aALL` and `MegaCli64 -PDList -aALL` (or `storcli64 /c0 \
             show`)"
        }
        "areca-cli" => "`cli64 rsf info`, `cli64 vsf info` and `cli64 disk info`",
        "tw-cli" => "`tw_cli /c0 show`",
        "check-raid" => "the RAID tool check_raid ran (its name is before the \"[\")",
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
