//! Array activity for array-rebuilding: md arrays from /proc/mdstat and md sysfs, and from
//! `mdadm --detail` (its State line and device table, Detail.c), and ZFS pools from `zpool
//! status` on any OS (zpool-status(8): the "scan:" line says scrub or resilver in progress;
//! state DEGRADED/FAULTED/UNAVAIL).

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::linux::sysfs::{fkey, text};
use crate::facts::{ArrayActivity, Fact};
use crate::sources::{btrfs_scrub, mdadm_detail, mdstat, zpool, zpool_list};

/// Every array the bundle shows: md arrays from /proc/mdstat (with their sysfs sync state,
/// which only Linux has) and ZFS pools from `zpool status` (any OS). It reads no
/// platform-specific key beyond those two sources, so it also serves a bundle whose OS is
/// unknown: a bare pasted `zpool status` still says which pool resilvers or is degraded.
pub fn derive(b: &EvidenceBundle) -> Fact<Vec<ArrayActivity>> {
    let md = with_md_details(md_arrays(b), b);
    let zk = SourceKey::cmd(&["zpool", "status"]);
    let mut zfs = b.data(&zk).map(|t| zfs_arrays(t, &zk.to_string()));
    // `zpool list` tells a pool's health (not its scan): pools zpool status did not show.
    for (key, cap) in &b.captures {
        if !zpool_list::SPEC.captures(key) {
            continue;
        }
        let Some(text) = cap.data() else { continue };
        for a in zfs_list_arrays(text, key) {
            let v = zfs.get_or_insert_with(Vec::new);
            if !v.iter().any(|x| x.kind == "zfs" && x.name == a.name) {
                v.push(a);
            }
        }
    }
    // The keys the pools came from, each once.
    let zfs_from = |z: &[ArrayActivity]| {
        let mut keys: Vec<String> = Vec::new();
        for k in z.iter().flat_map(|a| a.from.iter()) {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
        if keys.is_empty() {
            keys.push(zk.to_string());
        }
        keys
    };
    match (md, zfs) {
        (
            Fact::Known {
                mut value,
                mut from,
            },
            z,
        ) => {
            if let Some(z) = z {
                from.extend(zfs_from(&z));
                value.extend(z);
            }
            Fact::known_from(value, from)
        }
        (_, Some(z)) => {
            let from = zfs_from(&z);
            Fact::known_from(z, from)
        }
        (u, None) => u,
    }
}

/// btrfs filesystems from `btrfs scrub status` (sources::btrfs_scrub): scrubbing while its
/// Status is running (the old format's "running for"); the blocks a device failed to return
/// (read and super errors) as the filesystem's failed I/O, and blocks whose checksum or
/// header did not match as its lost or repaired data, each with the line that counts them.
pub(crate) fn btrfs_arrays(text: &str, key: &str) -> Vec<ArrayActivity> {
    let per_report = btrfs_scrub::parse(text).into_iter().map(|s| {
        let counts = |what: &str, n: u64| {
            let fixed = match (s.corrected, s.uncorrectable) {
                (Some(c), Some(u)) => format!(" (corrected {c}, uncorrectable {u})"),
                _ => String::new(),
            };
            format!("btrfs scrub: {what}={n}{fixed}")
        };
        let unexplained = s.unexplained_errors();
        ArrayActivity {
            name: s
                .uuid
                .clone()
                .or_else(|| s.device.clone())
                .unwrap_or_else(|| btrfs_scrub::UNNAMED.to_string()),
            kind: "btrfs".into(),
            action: if s.state == btrfs_scrub::State::Running {
                "scrub".into()
            } else {
                "idle".into()
            },
            members: s.device.iter().cloned().collect(),
            io_failure: (s.failed_reads() > 0 || unexplained > 0).then(|| {
                if s.failed_reads() > 0 {
                    counts("read", s.failed_reads())
                } else {
                    counts("errors", unexplained)
                }
            }),
            data_errors: (s.bad_data() > 0).then(|| counts("csum", s.bad_data())),
            from: vec![key.to_string()],
            ..Default::default()
        }
    });
    // `btrfs scrub status -d` prints one report per device under the filesystem's UUID:
    // one filesystem, its devices the members.
    let mut out: Vec<ArrayActivity> = Vec::new();
    for a in per_report {
        match out.iter_mut().find(|x| x.name == a.name) {
            Some(x) => {
                x.members.extend(a.members);
                if a.action != "idle" {
                    x.action = a.action;
                }
                x.io_failure = x.io_failure.take().or(a.io_failure);
                x.data_errors = x.data_errors.take().or(a.data_errors);
            }
            None => out.push(a),
        }
    }
    out
}

/// ZFS pools scrubbing, resilvering or degraded, from `zpool status` (any OS).
pub(crate) fn zfs_arrays(text: &str, key: &str) -> Vec<ArrayActivity> {
    zpool::parse(text)
        .into_iter()
        .map(|p| {
            let scan = p.scan.clone().unwrap_or_default();
            let state = p.state.clone().unwrap_or_default();
            // `zpool initialize` runs per leaf, shown in its row's note as "(12%
            // initialized, started at ...)" (cmd/zpool/zpool_main.c
            // print_status_initialize; "(initialized, completed at ...)" once done,
            // "suspended" when paused): every free block is written once, so the disks
            // are as busy as in a resilver until it ends.
            let initializing: Option<f64> = p
                .leaves()
                .iter()
                .filter_map(|v| v.note.as_deref())
                .filter(|n| n.contains("% initialized") && !n.contains("suspended"))
                .filter_map(|n| {
                    let i = n.find('%')?;
                    let head = n.get(..i)?;
                    let from = head
                        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
                        .map_or(0, |k| k.saturating_add(1));
                    head.get(from..)?.parse::<f64>().ok()
                })
                .filter(|x| (0.0..100.0).contains(x))
                .reduce(f64::min);
            let (action, percent) = if scan.in_progress {
                // A progress line alone ("1.08T scanned at 52.5G/s, 552K issued at
                // 26.3K/s, 21.3T total", `zpool status | grep scanned`) does not say
                // whether a scrub or a resilver runs; print_scan_status prints it only while
                // one does (DSS_SCANNING), so a scan of either kind is in progress.
                let kind = if scan.kind.is_empty() {
                    "scan".to_string()
                } else {
                    scan.kind.clone()
                };
                (kind, scan.percent_done)
            } else if let Some(pct) = initializing {
                ("initialize".to_string(), Some(pct))
            } else if p.scan.is_none()
                && (p
                    .status
                    .as_deref()
                    .is_some_and(zpool::status_says_resilvering)
                    || zpool::tree_says_resilvering(&p))
            {
                // The paste kept the status text or the vdev tree and lost the scan line:
                // a resilver of unknown progress.
                ("resilver".to_string(), None)
            } else {
                ("idle".to_string(), None)
            };
            ArrayActivity {
                name: if p.pool.is_empty() {
                    zpool::UNNAMED.to_string()
                } else {
                    p.pool.clone()
                },
                kind: "zfs".into(),
                action,
                // SUSPENDED: ZFS stopped all I/O to the pool after failures
                // (zpool-status(8), ZFS-8000-HC/-MM): worse than degraded.
                degraded: matches!(
                    state.as_str(),
                    "DEGRADED" | "FAULTED" | "UNAVAIL" | "SUSPENDED"
                ),
                percent_done: percent,
                speed_kib_s: scan.issued_bytes_per_sec.map(|b| b / 1024),
                remaining: scan.remaining.clone(),
                members: p.leaves().iter().map(|v| v.name.clone()).collect(),
                data_errors: zpool::data_errors(&p),
                io_failure: zpool::unattributed_io_failure(&p),
                from: vec![key.to_string()],
                ..Default::default()
            }
        })
        .collect()
}

/// ZFS pools and their health from `zpool list [-v]`: a pool DEGRADED, FAULTED, UNAVAIL or
/// SUSPENDED is degraded; the table shows no scrub or resilver.
fn zfs_list_arrays(text: &str, key: &str) -> Vec<ArrayActivity> {
    zpool_list::parse(text)
        .into_iter()
        .map(|p| ArrayActivity {
            name: p.name.clone(),
            kind: "zfs".into(),
            action: "idle".into(),
            degraded: matches!(
                p.health.as_deref(),
                Some("DEGRADED" | "FAULTED" | "UNAVAIL" | "SUSPENDED")
            ),
            members: p
                .leaves()
                .iter()
                .filter_map(|v| zpool::DeviceNaming::Linux.device_name(&v.name))
                .collect(),
            from: vec![key.to_string()],
            ..Default::default()
        })
        .collect()
}

/// One /proc/mdstat array as an [`ArrayActivity`].
pub(crate) fn md_activity(a: &mdstat::MdArray, from: Vec<String>) -> ArrayActivity {
    ArrayActivity {
        name: a.name.clone(),
        kind: "md".into(),
        action: a.action.clone().unwrap_or_else(|| "idle".into()),
        degraded: a.degraded(),
        percent_done: a.percent,
        speed_kib_s: a.speed_kib_s,
        peak_speed_kib_s: a.peak_speed_kib_s,
        remaining: a.finish.clone().or_else(|| a.waiting.clone()),
        members: a.members.clone(),
        not_running: a.stopped().then(|| {
            let missing = a.missing_slots();
            let n = a.members.len();
            match missing.as_slice() {
                [] => format!("md lists it inactive with {n} member(s) bound"),
                m => format!(
                    "md lists it inactive with {n} member(s) bound and none in slot {}",
                    m.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                ),
            }
        }),
        from,
        ..Default::default()
    }
}

/// One `mdadm --detail` array as an [`ArrayActivity`]; `name` is the array's kernel name
/// when the output or its command names one.
pub(crate) fn md_detail_activity(
    d: &mdadm_detail::MdDetail,
    name: Option<&str>,
    from: Vec<String>,
) -> ArrayActivity {
    ArrayActivity {
        name: name
            .or(d.device.as_deref())
            .unwrap_or("the md array")
            .to_string(),
        kind: "md".into(),
        action: d.action().unwrap_or_else(|| "idle".into()),
        degraded: d.degraded(),
        percent_done: d.percent,
        remaining: d.waiting(),
        members: d.member_devices(),
        from,
        ..Default::default()
    }
}

/// Add what `detail` says to the arrays: an array /proc/mdstat already lists (same name)
/// takes its degraded state, action and progress where mdstat had none; another is added.
pub(crate) fn merge_md_detail(arrays: &mut Vec<ArrayActivity>, detail: ArrayActivity) {
    match arrays
        .iter_mut()
        .find(|a| a.kind == "md" && a.name == detail.name)
    {
        Some(a) => {
            a.degraded |= detail.degraded;
            if a.action == "idle" {
                a.action = detail.action;
            }
            a.percent_done = a.percent_done.or(detail.percent_done);
            a.remaining = a.remaining.take().or(detail.remaining);
            if a.members.is_empty() {
                a.members = detail.members;
            }
            for f in detail.from {
                if !a.from.contains(&f) {
                    a.from.push(f);
                }
            }
        }
        None => arrays.push(detail),
    }
}

/// The md arrays with those of every `mdadm --detail` capture of the bundle.
fn with_md_details(md: Fact<Vec<ArrayActivity>>, b: &EvidenceBundle) -> Fact<Vec<ArrayActivity>> {
    let mut found: Vec<(String, ArrayActivity)> = Vec::new();
    for (key, cap) in &b.captures {
        if !mdadm_detail::SPEC.captures(key) {
            continue;
        }
        let Some(text) = cap.data() else { continue };
        // The device the command names (crate::sources::mdadm_detail::LIVE.key_for("md0")).
        let dev = key
            .rsplit(' ')
            .next()
            .map(|d| d.trim_start_matches("/dev/"));
        for d in mdadm_detail::parse(text) {
            found.push((key.clone(), md_detail_activity(&d, dev, vec![key.clone()])));
        }
    }
    if found.is_empty() {
        return md;
    }
    let (mut value, mut from) = match md {
        Fact::Known { value, from } => (value, from),
        Fact::Unknown { .. } => (Vec::new(), Vec::new()),
    };
    for (key, a) in found {
        merge_md_detail(&mut value, a);
        if !from.contains(&key) {
            from.push(key);
        }
    }
    Fact::known_from(value, from)
}

/// md arrays from /proc/mdstat and md sysfs.
fn md_arrays(b: &EvidenceBundle) -> Fact<Vec<ArrayActivity>> {
    let Some(t) = b.file(crate::plan::device_state::MDSTAT) else {
        return Fact::unknown(b.why(&SourceKey::file(crate::plan::device_state::MDSTAT)));
    };
    let mut out = Vec::new();
    for a in mdstat::parse(t) {
        let base = format!("/sys/block/{}/md", a.name);
        let mut from = vec![fkey(crate::plan::device_state::MDSTAT)];
        let mut act = md_activity(&a, Vec::new());
        if let Some(sa) = text(b, &format!("{base}/sync_action")) {
            let sa = sa.trim();
            if sa != "idle" && !sa.is_empty() && act.action == "idle" {
                act.action = sa.to_string();
            }
            from.push(fkey(&format!("{base}/sync_action")));
        }
        let lim =
            |f: &str| text(b, &format!("{base}/{f}")).and_then(crate::sources::util::leading_u64);
        act.speed_min_kib_s = lim("sync_speed_min");
        act.speed_max_kib_s = lim("sync_speed_max");
        if act.speed_kib_s.is_none() {
            act.speed_kib_s = lim("sync_speed");
        }
        act.from = from;
        out.push(act);
    }
    Fact::known(out, fkey(crate::plan::device_state::MDSTAT))
}

#[cfg(test)]
mod tests;
