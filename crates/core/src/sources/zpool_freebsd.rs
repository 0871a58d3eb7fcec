//! Just enough of `zpool status` (zpool-status(8)) to tie pools to the GEOM providers they
//! sit on: pool names and their leaf vdevs from the config table. The full status parser
//! (scrub/resilver, errors) belongs to the shared text parsers.

use super::geom_util::unquote;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pool {
    pub name: String,
    pub state: Option<String>,
    /// Leaf vdevs as printed ("ada0p3", "gpt/zfs0", "ada0p1.eli", "nvd0").
    pub leaves: Vec<String>,
}

/// Grouping rows that are not devices.
fn is_group(name: &str) -> bool {
    let base = name.split('-').next().unwrap_or(name);
    matches!(
        base,
        "mirror"
            | "raidz1"
            | "raidz2"
            | "raidz3"
            | "raidz"
            | "draid"
            | "draid1"
            | "draid2"
            | "draid3"
            | "replacing"
            | "spare"
            | "spares"
            | "logs"
            | "cache"
            | "special"
            | "dedup"
    ) || name.starts_with("draid")
}

pub fn parse(text: &str) -> Vec<Pool> {
    let mut pools: Vec<Pool> = Vec::new();
    let mut in_config = false;
    for raw in text.lines() {
        let line = unquote(raw);
        if let Some(n) = line.strip_prefix("pool:") {
            pools.push(Pool {
                name: n.trim().to_string(),
                ..Default::default()
            });
            in_config = false;
            continue;
        }
        if let Some(s) = line.strip_prefix("state:") {
            if let Some(p) = pools.last_mut() {
                p.state = Some(s.trim().to_string());
            }
            continue;
        }
        if line.starts_with("NAME") && line.contains("STATE") {
            in_config = true;
            continue;
        }
        if line.starts_with("errors:") || line.is_empty() {
            if line.starts_with("errors:") {
                in_config = false;
            }
            continue;
        }
        if !in_config {
            continue;
        }
        let Some(pool) = pools.last_mut() else {
            continue;
        };
        let Some(name) = line.split_whitespace().next() else {
            continue;
        };
        // Skip the pool row, grouping rows, GUIDs of missing devices, and anything that is
        // not a device name (user-inserted "~~~ trimmed ~~~" lines, elision markers).
        let device_like = name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "/._-:".contains(c));
        if name == pool.name
            || is_group(name)
            || !device_like
            || name.chars().all(|c| c.is_ascii_digit())
        {
            continue;
        }
        pool.leaves.push(name.to_string());
    }
    pools
}
