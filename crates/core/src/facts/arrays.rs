//! ZFS pool activity for array-rebuilding, from `zpool status` on any OS (zpool-status(8):
//! the "scan:" line says scrub or resilver in progress; state DEGRADED/FAULTED/UNAVAIL).

use crate::evidence::{EvidenceBundle, SourceKey};
use crate::facts::linux::sysfs::{fkey, text};
use crate::facts::{ArrayActivity, Fact};
use crate::sources::{mdstat, zpool};

/// Every array the bundle shows: md arrays from /proc/mdstat (with their sysfs sync state,
/// which only Linux has) and ZFS pools from `zpool status` (any OS). It reads no
/// platform-specific key beyond those two sources, so it also serves a bundle whose OS is
/// unknown: a bare pasted `zpool status` still says which pool resilvers or is degraded.
pub fn derive(b: &EvidenceBundle) -> Fact<Vec<ArrayActivity>> {
    let md = md_arrays(b);
    let zk = SourceKey::cmd(&["zpool", "status"]);
    let zfs = b.data(&zk).map(|t| zfs_arrays(t, &zk.to_string()));
    match (md, zfs) {
        (
            Fact::Known {
                mut value,
                mut from,
            },
            z,
        ) => {
            if let Some(z) = z {
                value.extend(z);
                from.push(zk.to_string());
            }
            Fact::known_from(value, from)
        }
        (_, Some(z)) => Fact::known(z, zk.to_string()),
        (u, None) => u,
    }
}

/// ZFS pools scrubbing, resilvering or degraded, from `zpool status` (any OS).
pub fn zfs_arrays(text: &str, key: &str) -> Vec<ArrayActivity> {
    zpool::parse(text)
        .into_iter()
        .map(|p| {
            let scan = p.scan.clone().unwrap_or_default();
            let state = p.state.clone().unwrap_or_default();
            ArrayActivity {
                name: p.pool.clone(),
                kind: "zfs".into(),
                action: if scan.in_progress {
                    scan.kind.clone()
                } else {
                    "idle".into()
                },
                degraded: matches!(state.as_str(), "DEGRADED" | "FAULTED" | "UNAVAIL"),
                percent_done: scan.in_progress.then_some(scan.percent_done).flatten(),
                speed_kib_s: scan.issued_bytes_per_sec.map(|b| b / 1024),
                remaining: scan.remaining.clone(),
                members: p.leaves().iter().map(|v| v.name.clone()).collect(),
                from: vec![key.to_string()],
                ..Default::default()
            }
        })
        .collect()
}

/// One /proc/mdstat array as an [`ArrayActivity`].
pub fn md_activity(a: &mdstat::MdArray, from: Vec<String>) -> ArrayActivity {
    ArrayActivity {
        name: a.name.clone(),
        kind: "md".into(),
        action: a.action.clone().unwrap_or_else(|| "idle".into()),
        degraded: a.degraded(),
        percent_done: a.percent,
        speed_kib_s: a.speed_kib_s,
        remaining: a.finish.clone().or_else(|| a.waiting.clone()),
        members: a.members.clone(),
        from,
        ..Default::default()
    }
}

/// md arrays from /proc/mdstat and md sysfs.
pub fn md_arrays(b: &EvidenceBundle) -> Fact<Vec<ArrayActivity>> {
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
