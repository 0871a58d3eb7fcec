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
    /// (leaf, top-level vdev) by the config table's indentation: a row two columns right
    /// of the pool row is a top-level vdev ("mirror-0", or a disk that is its own).
    pub tops: Vec<(String, String)>,
}

/// Columns of leading whitespace after zpool's one leading tab.
fn indent_of(raw: &str) -> usize {
    let r = raw.trim_start_matches('>').trim_start_matches(' ');
    let r = r.strip_prefix('\t').unwrap_or(r);
    r.len() - r.trim_start().len()
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
    let mut pool_indent: Option<usize> = None;
    let mut top: Option<String> = None;
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
            pool_indent = None;
            top = None;
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
        let ind = indent_of(raw);
        if name == pool.name && pool_indent.is_none() {
            pool_indent = Some(ind);
        }
        match pool_indent {
            Some(pi) if ind == pi + 2 => top = Some(name.to_string()),
            Some(pi) if ind <= pi => top = None,
            _ => {}
        }
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
        if let Some(t) = &top {
            pool.tops.push((name.to_string(), t.clone()));
        }
    }
    pools
}

#[cfg(test)]
mod tests {
    #[test]
    fn tops_by_indentation() {
        let t = "  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\ttank        ONLINE       0     0     0\n\t  mirror-0  ONLINE       0     0     0\n\t    ada0p3  ONLINE       0     0     0\n\t    ada1p3  ONLINE       0     0     0\n\t  ada2p1    ONLINE       0     0     0\n\tlogs\n\t  nvd0p1    ONLINE       0     0     0\n\nerrors: No known data errors\n";
        let p = &super::parse(t)[0];
        assert_eq!(p.leaves, ["ada0p3", "ada1p3", "ada2p1", "nvd0p1"]);
        let tops: Vec<(&str, &str)> = p
            .tops
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        assert_eq!(
            tops,
            [
                ("ada0p3", "mirror-0"),
                ("ada1p3", "mirror-0"),
                ("ada2p1", "ada2p1"),
                ("nvd0p1", "nvd0p1")
            ]
        );
    }
}
