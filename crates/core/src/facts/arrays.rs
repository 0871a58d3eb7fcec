//! ZFS pool activity for array-rebuilding, from `zpool status` on any OS (zpool-status(8):
//! the "scan:" line says scrub or resilver in progress; state DEGRADED/FAULTED/UNAVAIL).

use crate::facts::ArrayActivity;
use crate::sources::zpool;

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
