//! What a benchmark on a ZFS dataset measured: the dataset's cache, sync and compression
//! properties (`zfs get -H -p -o name,property,value primarycache,sync,logbias,compression,dedup
//! DATASET`, zfsprops(7)), whether its pool has a separate log device (`zpool status POOL`,
//! a "logs" section), the ARC's size and ceiling and the module version
//! ([`crate::sources::arcstats`]), and the dataset's `direct` property (OpenZFS 2.3 and
//! later: whether O_DIRECT bypasses the ARC), asked on its own because an older `zfs get`
//! refuses the whole list when one name in it is unknown ("bad property list"). The benchmark (crates/sys bench::zfs) captures them
//! through the Host, so they are in the bundle; this file holds the argv, the parsers and
//! what each value means for the figures, pure.
//!
//! The name column is asked for (zfs-get(8) `-o name,property,value`) so one reader takes
//! the -H capture and a pasted `zfs get` table alike (zfs_get::property_rows).

use crate::sources::{arcstats, zfs_get, zpool};
use crate::units::bytes_iec1;

/// The properties asked, in zfs-get(8)'s comma list form.
pub const PROPS: &str = "primarycache,sync,logbias,compression,dedup";

/// The Direct I/O property (zfsprops(7) `direct=disabled|standard|always`, OpenZFS 2.3).
const DIRECT_PROP: &str = "direct";

/// `zfs get -H -p -o name,property,value PROPS {pool}`: one tab-separated row per
/// property (`{pool}` stands for the dataset).
macro_rules! zfs_get_template {
    ($props:expr) => {
        [
            "zfs",
            "get",
            "-H",
            "-p",
            "-o",
            "name,property,value",
            $props,
            "{pool}",
        ]
    };
}

/// `zfs get ... direct DATASET`: its own command, so a `zfs get` that does not know the
/// property (OpenZFS before 2.3) fails alone and the other five are still read.
const DIRECT_TEMPLATE: [&str; 8] = zfs_get_template!(DIRECT_PROP);

/// The argv template of the five properties.
const PROPS_TEMPLATE: [&str; 8] = zfs_get_template!(PROPS);

/// A dataset or pool name diskdoc passes to zfs/zpool: a letter first (zfs(8), zpool(8)),
/// then letters, digits and `_ - . : /` (no `@`: never a snapshot), never option-like.
fn name_ok(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.:/".contains(c))
        && !name.contains("//")
        && name.len() <= 256
}

/// A `zfs get` template with its `{pool}` made `dataset`; None for a name that is no
/// dataset name.
fn dataset_argv(template: &[&str; 8], dataset: &str) -> Option<Vec<String>> {
    name_ok(dataset).then(|| {
        template[..7]
            .iter()
            .map(|s| s.to_string())
            .chain(std::iter::once(dataset.to_string()))
            .collect()
    })
}

/// `zfs get ... PROPS DATASET`; None for a name that is no dataset name.
pub fn props_argv(dataset: &str) -> Option<Vec<String>> {
    dataset_argv(&PROPS_TEMPLATE, dataset)
}

/// `zfs get ... direct DATASET`; None for a name that is no dataset name.
pub fn direct_argv(dataset: &str) -> Option<Vec<String>> {
    dataset_argv(&DIRECT_TEMPLATE, dataset)
}

/// `zpool status POOL`; None for a name that is no pool name.
pub fn status_argv(pool: &str) -> Option<Vec<String>> {
    (name_ok(pool) && !pool.contains('/'))
        .then(|| vec!["zpool".into(), "status".into(), pool.to_string()])
}

/// The pool of a dataset: its first component.
pub fn pool_of(dataset: &str) -> &str {
    dataset.split('/').next().unwrap_or(dataset)
}

/// The properties of one dataset; None where the capture did not say.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DatasetProps {
    pub primarycache: Option<String>,
    pub sync: Option<String>,
    pub logbias: Option<String>,
    pub compression: Option<String>,
    pub dedup: Option<String>,
    /// `direct` (OpenZFS 2.3 and later): disabled, standard or always.
    pub direct: Option<String>,
}

/// The properties of `dataset` in a `zfs get` output (-H or the table).
pub fn parse_props(text: &str, dataset: &str) -> DatasetProps {
    let mut p = DatasetProps::default();
    for (name, prop, value) in zfs_get::property_rows(text) {
        if name != dataset || value == "-" {
            continue;
        }
        let slot = match prop {
            "primarycache" => &mut p.primarycache,
            "sync" => &mut p.sync,
            "logbias" => &mut p.logbias,
            "compression" => &mut p.compression,
            "dedup" => &mut p.dedup,
            DIRECT_PROP => &mut p.direct,
            _ => continue,
        };
        *slot = Some(value.to_string());
    }
    p
}

/// Whether `zpool status` of the pool lists a "logs" section (a separate intent log,
/// SLOG); None when the output names no such pool.
pub fn has_slog(status_text: &str, pool: &str) -> Option<bool> {
    let pools = zpool::parse(status_text);
    let p = pools.iter().find(|p| p.pool == pool)?;
    Some(p.vdevs.iter().any(|v| v.section == "logs"))
}

/// What answered the reads of a scratch file the ARC holds.
pub const ANSWERED_BY_ARC: &str = "ARC (RAM)";
/// What answered fsync(2) on a dataset with sync=disabled.
pub const ANSWERED_BY_NO_SYNC: &str = "RAM (sync=disabled)";

/// Everything the benchmark learnt about the dataset its scratch file is on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ZfsBench {
    pub dataset: String,
    pub props: DatasetProps,
    /// Why the properties are unknown (the capture failed).
    pub props_why: Option<String>,
    /// Why `direct` is unknown (before OpenZFS 2.3 `zfs get` does not know it).
    pub direct_why: Option<String>,
    /// The pool has a separate log device.
    pub slog: Option<bool>,
    pub slog_why: Option<String>,
    pub arc: arcstats::Arc,
    pub arc_why: Option<String>,
    /// OpenZFS module (major, minor).
    pub version: Option<(u32, u32)>,
}

/// A read or write figure's verdict: what answered instead of the disks (None: the disks,
/// or unknown) and the note that says why.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub answered_by: Option<&'static str>,
    pub note: String,
}

fn or_unknown(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("unknown")
}

impl ZfsBench {
    pub fn pool(&self) -> &str {
        pool_of(&self.dataset)
    }

    /// Whether a read issued with O_DIRECT (diskdoc's scratch reads) bypasses the ARC
    /// (zfsprops(7) `direct`, OpenZFS 2.3 and later): with direct=standard (the default)
    /// or always, an aligned O_DIRECT read is not cached and comes from the disks; with
    /// direct=disabled, O_DIRECT "is silently ignored and all direct requests will be
    /// handled by the ARC", as in every release before 2.3. A dataset that has the property
    /// runs 2.3 or later even when the module version was not read. None: unknown.
    fn o_direct_bypasses_arc(&self) -> Option<bool> {
        match self.props.direct.as_deref() {
            Some("disabled") => Some(false),
            Some("standard" | "always") => Some(true),
            _ => self.version.map(|v| v >= (2, 3)),
        }
    }

    /// The version and `direct` value behind [`Self::o_direct_bypasses_arc`], as words.
    fn direct_words(&self) -> String {
        let version = self
            .version
            .map(|(a, b)| format!("OpenZFS {a}.{b}"))
            .unwrap_or_else(|| "this OpenZFS".into());
        match self.props.direct.as_deref() {
            Some(d) => format!("{version} with direct={d}"),
            None => version,
        }
    }

    /// The one line that goes on every result of the dataset: the properties, the SLOG and
    /// the ARC, as captured.
    pub fn summary(&self) -> String {
        let p = &self.props;
        let props = match &self.props_why {
            Some(why) => format!("properties unknown ({why})"),
            None => format!(
                "primarycache={}, sync={}, logbias={}, compression={}, dedup={}, direct={}",
                or_unknown(&p.primarycache),
                or_unknown(&p.sync),
                or_unknown(&p.logbias),
                or_unknown(&p.compression),
                or_unknown(&p.dedup),
                match (&p.direct, self.version) {
                    (Some(d), _) => d.as_str(),
                    // The property came with Direct I/O.
                    (None, Some(v)) if v < (2, 3) => "none (before OpenZFS 2.3)",
                    (None, _) => "unknown",
                }
            ),
        };
        let slog = match (self.slog, &self.slog_why) {
            (Some(true), _) => "a separate log device (SLOG)".to_string(),
            (Some(false), _) => "no separate log device".to_string(),
            (None, Some(why)) => format!("separate log device unknown ({why})"),
            (None, None) => "separate log device unknown".to_string(),
        };
        let arc = match (self.arc.size, self.arc.c_max, &self.arc_why) {
            (Some(s), Some(m), _) => {
                format!("ARC {} now, at most {}", bytes_iec1(s), bytes_iec1(m))
            }
            (None, Some(m), _) => format!("ARC at most {}", bytes_iec1(m)),
            (Some(s), None, _) => format!("ARC {} now, ceiling unknown", bytes_iec1(s)),
            (None, None, Some(why)) => format!("ARC size unknown ({why})"),
            (None, None, None) => "ARC size unknown".to_string(),
        };
        let version = self
            .version
            .map(|(a, b)| format!("; OpenZFS {a}.{b}"))
            .unwrap_or_default();
        format!(
            "ZFS dataset {} (pool {}): {props}; {slog}; {arc}{version}",
            self.dataset,
            self.pool()
        )
    }

    /// What a read of a scratch file of `region` bytes, just written, measured.
    pub fn read_verdict(&self, region: u64) -> Verdict {
        let size = bytes_iec1(region);
        if let Some(pc @ ("none" | "metadata")) = self.props.primarycache.as_deref() {
            return Verdict {
                answered_by: None,
                note: format!(
                    "primarycache={pc}: ZFS keeps no file data of {} in the ARC \
                     (include/sys/dbuf.h DBUF_IS_CACHEABLE), so these reads came from the \
                     pool's disks, through ZFS's checksums and records",
                    self.dataset
                ),
            };
        }
        if self.o_direct_bypasses_arc() == Some(true) {
            return Verdict {
                answered_by: None,
                note: format!(
                    "{} honours O_DIRECT (zfsprops(7) direct: standard, the default, and \
                     always bypass the ARC): aligned reads of the {size} scratch file bypass \
                     the ARC and come from the pool's disks",
                    self.direct_words()
                ),
            };
        }
        let pc = match &self.props.primarycache {
            Some(pc) => format!("primarycache={pc}"),
            None => "primarycache unknown, all by default".to_string(),
        };
        match self.arc.c_max {
            Some(max) if region > max => Verdict {
                answered_by: None,
                note: format!(
                    "the {size} scratch region is larger than the ARC's ceiling ({}), so most \
                     of these reads came from the pool's disks ({pc})",
                    bytes_iec1(max)
                ),
            },
            max => Verdict {
                answered_by: Some(ANSWERED_BY_ARC),
                note: format!(
                    "labelled {ANSWERED_BY_ARC}: the {size} scratch file was written just \
                     before, ZFS keeps what it writes in the ARC ({pc}) and the ARC {}, so \
                     these reads came from RAM, not the disks ({}). diskdoc labels them rather \
                     than writing a file larger than the ARC, which would fill {} of the pool \
                     and take minutes; name the disk with --device to read the disk itself",
                    match max {
                        Some(m) => format!("may hold up to {}", bytes_iec1(m)),
                        None => "ceiling is unknown (by default half the RAM or more)".into(),
                    },
                    if self.props.direct.as_deref() == Some("disabled") {
                        format!(
                            "direct=disabled: {} ignores O_DIRECT on this dataset and the ARC \
                             answers, zfsprops(7); `zfs set direct=standard {}` lets the reads \
                             bypass it",
                            self.direct_words(),
                            self.dataset
                        )
                    } else {
                        "O_DIRECT does not bypass the ARC before OpenZFS 2.3".to_string()
                    },
                    max.map_or("that much".to_string(), bytes_iec1)
                ),
            },
        }
    }

    /// What a write that ends in fsync(2) (the 4 KiB + fsync test) measured.
    pub fn sync_verdict(&self) -> Verdict {
        let pool = self.pool();
        if self.props.sync.as_deref() == Some("disabled") {
            return Verdict {
                answered_by: Some(ANSWERED_BY_NO_SYNC),
                note: format!(
                    "labelled {ANSWERED_BY_NO_SYNC}: with sync=disabled ZFS returns from \
                         fsync(2) without writing anything (module/zfs/zil.c zil_commit returns \
                         at once), so this figure is RAM's, not the disks'; a crash loses the \
                         last seconds of writes"
                ),
            };
        }
        let always = if self.props.sync.as_deref() == Some("always") {
            "sync=always: every write is committed to the ZFS intent log before it returns. "
        } else {
            ""
        };
        let log = match (self.slog, self.props.logbias.as_deref()) {
            (Some(true), Some("throughput")) => format!(
                "pool {pool} has a separate log device, but logbias=throughput sends \
                 synchronous writes to the pool's own disks (module/zfs/zil.c zil_write_state: \
                 WR_INDIRECT), so this measures the data disks"
            ),
            (Some(true), _) => format!(
                "pool {pool} has a separate log device (SLOG): each fsync waits for the intent \
                 log block on that device (zil_write_state never writes indirect with slogs), so \
                 this measures the SLOG's latency, not the pool's data disks"
            ),
            (Some(false), _) => format!(
                "pool {pool} has no separate log device: each fsync writes the intent log to the \
                 pool's own disks"
            ),
            (None, _) => format!(
                "whether pool {pool} has a separate log device is unknown{}, so whether this \
                 measures a SLOG or the data disks is unknown",
                self.slog_why
                    .as_ref()
                    .map(|w| format!(" ({w})"))
                    .unwrap_or_default()
            ),
        };
        Verdict {
            answered_by: None,
            note: format!("{always}{log}"),
        }
    }

    /// Notes for every write test: compression and dedup against diskdoc's data.
    pub fn write_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let d = &self.dataset;
        if let Some(c) = self.props.compression.as_deref().filter(|c| *c != "off") {
            notes.push(format!(
                "ZFS dataset {d} has compression={c}: diskdoc writes incompressible random data, \
                 so ZFS stores it as written and the figure is the disks'; zeros (dd from \
                 /dev/zero) would be compressed to almost nothing and seem far faster"
            ));
        }
        if let Some(v) = self.props.dedup.as_deref().filter(|v| *v != "off") {
            notes.push(format!(
                "ZFS dataset {d} has dedup={v}: repeated blocks would not be written; diskdoc \
                 makes every 4 KiB block unique, so each is written (and looked up in the dedup \
                 table, which costs RAM and time)"
            ));
        }
        if self.props.sync.as_deref() == Some("disabled") {
            notes.push(format!(
                "ZFS dataset {d} has sync=disabled: the final fsync(2) of the write tests \
                 returned without waiting for the disks"
            ));
        }
        notes
    }
}

// ---- the source spec (see sources::spec) ----
use crate::sources::spec;

const STATUS_TEMPLATE: [&str; 3] = ["zpool", "status", "{pool}"];

/// Captured live by the benchmark on a ZFS scratch directory (crates/sys bench::zfs);
/// `{pool}` is the dataset for `zfs get`, the pool for `zpool status`.
pub const SPEC: spec::SourceSpec = spec::SourceSpec {
    fixture_dirs: &["bench-zfs/zfs-get"],
    live: &[
        spec::Live::Cmd(&PROPS_TEMPLATE),
        spec::Live::Cmd(&DIRECT_TEMPLATE),
        spec::Live::Cmd(&STATUS_TEMPLATE),
    ],
    parse: Some(|t| zfs_get::property_rows(t).len()),
    secrets: &[spec::Secret::Scan(zfs_get::property_secrets)],
    ..spec::SourceSpec::named("zfs-get-bench", "zfs get primarycache,sync,logbias")
};

#[cfg(test)]
mod tests;
