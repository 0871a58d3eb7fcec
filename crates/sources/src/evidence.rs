//! The evidence bundle: every answer diskdoc got from a machine, keyed by where it came from.
//!
//! The format is documented for hand-writing in docs/evidence-format.md. A failed probe is
//! evidence too: it is stored as `Capture::Unavailable` with a reason, never dropped.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Bumped whenever a field changes meaning; readers refuse newer versions with a clear error.
/// 2: `read:` payloads hold only the partition-table bytes, with zero runs as `z<count>;`;
/// version 1 bundles (plain hex of whole sectors) load unchanged.
pub const SCHEMA_VERSION: u32 = 2;

/// The operating system the evidence was captured on.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash, PartialOrd, Ord, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Platform {
    Linux,
    Freebsd,
    Unknown,
}

impl Platform {
    pub fn name(self) -> &'static str {
        match self {
            Platform::Linux => "Linux",
            Platform::Freebsd => "FreeBSD",
            Platform::Unknown => "unknown OS",
        }
    }
}

/// Where a bundle came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Captured by `diskdoc` on the machine itself.
    #[default]
    Live,
    /// Assembled by `diskdoc explain` from text pasted by a person.
    PastedText,
    /// Written by hand (tests, documentation).
    Hand,
}

/// Why a source could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unavailable {
    /// The file, device or sysctl does not exist.
    NotFound,
    /// EACCES/EPERM: usually "run as root".
    PermissionDenied,
    /// The command is not installed in the fixed system directories.
    ToolMissing,
    /// The command or read took longer than its budget and was killed.
    Timeout,
    /// The interface does not apply here (ioctl on a non-block device, sysctl on Linux...).
    Unsupported,
    /// Any other failure; `detail` says what.
    Failed,
}

/// What a permission-denied reason says instead of "(run as root)" when diskdoc ran as root
/// and the kernel still refused (open(2) EPERM/EACCES for root: kernel lockdown, a security
/// module, a container's device rules, a hypervisor): advice that reads it knows that
/// running as root cannot help.
pub const REFUSED_EVEN_TO_ROOT: &str = "(refused even to root)";

impl Unavailable {
    /// A short phrase for "unknown, because ...".
    pub fn phrase(self) -> &'static str {
        match self {
            Unavailable::NotFound => "not present",
            Unavailable::PermissionDenied => "permission denied (run as root)",
            Unavailable::ToolMissing => "the tool is not installed",
            Unavailable::Timeout => "it timed out",
            Unavailable::Unsupported => "not supported here",
            Unavailable::Failed => "it failed",
        }
    }
}

/// One answer from the machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Capture {
    Ok {
        /// File contents, command stdout, sysctl value, ioctl result (decimal), directory
        /// entries (one per line, sorted), link target, or device bytes (lowercase hex, long zero
        /// runs as `z<count>;`, see [`hex_encode_sparse`]).
        data: String,
        /// Command stderr (commands only).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        stderr: String,
        /// Command exit code (commands only; a non-zero exit is still `ok` when it printed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i32>,
        /// How long the answer took.
        #[serde(default)]
        elapsed_ms: u64,
    },
    Unavailable {
        reason: Unavailable,
        #[serde(default)]
        detail: String,
    },
}

impl Capture {
    pub fn ok(data: impl Into<String>) -> Capture {
        Capture::Ok {
            data: data.into(),
            stderr: String::new(),
            exit_code: None,
            elapsed_ms: 0,
        }
    }
    pub fn unavailable(reason: Unavailable, detail: impl Into<String>) -> Capture {
        Capture::Unavailable {
            reason,
            detail: detail.into(),
        }
    }
    /// The payload when the capture succeeded.
    pub fn data(&self) -> Option<&str> {
        match self {
            Capture::Ok { data, .. } => Some(data),
            Capture::Unavailable { .. } => None,
        }
    }
    /// "unknown, because ..." text for a failed capture.
    pub fn why(&self) -> String {
        match self {
            Capture::Ok { .. } => "it was read".to_string(),
            Capture::Unavailable { reason, detail } if detail.is_empty() => {
                reason.phrase().to_string()
            }
            Capture::Unavailable { reason, detail } => format!("{} ({detail})", reason.phrase()),
        }
    }
}

/// The key under which a capture is stored. Its string form is the JSON map key:
/// `cmd:<argv joined by single spaces>`, `file:<path>`, `dir:<path>`, `realpath:<path>`,
/// `sysctl:<name>`, `ioctl:<device>:<REQUEST>`, `read:<device>:<offset>:<length>`,
/// `pasted:<label>`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SourceKey {
    Command(Vec<String>),
    File(String),
    Dir(String),
    RealPath(String),
    /// The target of one symbolic link, unresolved (readlink(2)): the mount namespace a
    /// process lives in, /proc/PID/ns/mnt -> "mnt:[4026531841]" (namespaces(7)).
    Link(String),
    /// What kind of file a path names, symlinks followed (stat(2) `st_mode`, inode(7) "The
    /// file type and mode"), as a [`FileKind`] word. How `--device PATH` is told apart: a
    /// disk, a directory or file on one, or something that names no disk.
    Stat(String),
    Sysctl(String),
    Ioctl {
        device: String,
        request: String,
    },
    DeviceRead {
        device: String,
        offset: u64,
        len: u64,
    },
    Pasted(String),
}

/// The payload of a `stat:` capture: the file type of stat(2)'s `st_mode` (inode(7)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Block,
    Char,
    Dir,
    File,
    /// A FIFO, socket or anything else that is neither a device nor holds data.
    Other,
}

impl FileKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Block => "block",
            FileKind::Char => "char",
            FileKind::Dir => "dir",
            FileKind::File => "file",
            FileKind::Other => "other",
        }
    }
    /// The kind a `stat:` payload names; None for a word diskdoc never writes.
    pub fn parse(s: &str) -> Option<FileKind> {
        Some(match s.trim() {
            "block" => FileKind::Block,
            "char" => FileKind::Char,
            "dir" => FileKind::Dir,
            "file" => FileKind::File,
            "other" => FileKind::Other,
            _ => return None,
        })
    }
}

impl SourceKey {
    pub fn cmd(argv: &[&str]) -> SourceKey {
        SourceKey::Command(argv.iter().map(|s| s.to_string()).collect())
    }
    pub fn file(p: &str) -> SourceKey {
        SourceKey::File(p.to_string())
    }
    /// Parse the string form; `None` for an unknown prefix.
    pub fn parse(s: &str) -> Option<SourceKey> {
        let (kind, rest) = s.split_once(':')?;
        Some(match kind {
            "cmd" => SourceKey::Command(rest.split(' ').map(str::to_string).collect()),
            "file" => SourceKey::File(rest.to_string()),
            "dir" => SourceKey::Dir(rest.to_string()),
            "realpath" => SourceKey::RealPath(rest.to_string()),
            "link" => SourceKey::Link(rest.to_string()),
            "stat" => SourceKey::Stat(rest.to_string()),
            "sysctl" => SourceKey::Sysctl(rest.to_string()),
            "ioctl" => {
                let (device, request) = rest.rsplit_once(':')?;
                SourceKey::Ioctl {
                    device: device.to_string(),
                    request: request.to_string(),
                }
            }
            "read" => {
                let mut it = rest.rsplitn(3, ':');
                let len = it.next()?.parse().ok()?;
                let offset = it.next()?.parse().ok()?;
                let device = it.next()?.to_string();
                SourceKey::DeviceRead {
                    device,
                    offset,
                    len,
                }
            }
            "pasted" => SourceKey::Pasted(rest.to_string()),
            _ => return None,
        })
    }
}

impl std::fmt::Display for SourceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceKey::Command(argv) => write!(f, "cmd:{}", argv.join(" ")),
            SourceKey::File(p) => write!(f, "file:{p}"),
            SourceKey::Dir(p) => write!(f, "dir:{p}"),
            SourceKey::RealPath(p) => write!(f, "realpath:{p}"),
            SourceKey::Link(p) => write!(f, "link:{p}"),
            SourceKey::Stat(p) => write!(f, "stat:{p}"),
            SourceKey::Sysctl(n) => write!(f, "sysctl:{n}"),
            SourceKey::Ioctl { device, request } => write!(f, "ioctl:{device}:{request}"),
            SourceKey::DeviceRead {
                device,
                offset,
                len,
            } => write!(f, "read:{device}:{offset}:{len}"),
            SourceKey::Pasted(l) => write!(f, "pasted:{l}"),
        }
    }
}

/// Everything captured from one machine (or one pasted message).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceBundle {
    /// Format version; see [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The diskdoc version that wrote the bundle.
    #[serde(default)]
    pub diskdoc_version: String,
    pub platform: Platform,
    #[serde(default)]
    pub origin: Origin,
    /// Seconds since the Unix epoch when capture started (0 when unknown).
    #[serde(default)]
    pub captured_at_unix: u64,
    /// An anonymous, stable name of the machine captured (32 hex digits): its machine ID
    /// (machine-id(5); FreeBSD's hostuuid) put through a keyed hash as
    /// sd_id128_get_machine_app_specific(3) does, so neither the ID nor the host name can be
    /// recovered from it. It lets `diskdoc summarize` put the reports of one host on one row
    /// when redaction has named every host `HOST-1`. Absent for pasted text and for a machine
    /// without a machine ID.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_id: Option<String>,
    /// The answers, keyed by the string form of [`SourceKey`].
    #[serde(default)]
    pub captures: BTreeMap<String, Capture>,
    /// Read/write test results, if tests were run. A rate that is not a finite number is
    /// written and read as 0, with a note in the result saying so.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "finite_results"
    )]
    #[schemars(with = "Vec<BenchResult>")]
    pub benchmarks: Vec<BenchResult>,
    /// For pasted text: which line ranges each capture came from, and what was ignored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Errors loading a bundle.
#[derive(Debug)]
pub enum BundleError {
    Io(String, std::io::Error),
    Json(String, serde_json::Error),
    FutureVersion(String, u32),
}

impl std::fmt::Display for BundleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BundleError::Io(p, e) => write!(f, "cannot read {p}: {e}"),
            BundleError::Json(p, e) => write!(
                f,
                "{p} is not a diskdoc evidence bundle or report ({e}); \
                 was it truncated or edited?"
            ),
            BundleError::FutureVersion(p, v) => write!(
                f,
                "{p} uses evidence schema version {v}, but this diskdoc understands up to \
                 {SCHEMA_VERSION}; upgrade diskdoc to read it"
            ),
        }
    }
}
impl std::error::Error for BundleError {}

/// The wall clock a front end installed with [`set_clock`], if any.
static CLOCK: std::sync::OnceLock<fn() -> u64> = std::sync::OnceLock::new();

/// Give bundles their capture time from `now` (seconds since the Unix epoch) instead of
/// std's clock. For front ends whose target has no clock in std: on
/// wasm32-unknown-unknown `SystemTime::now()` panics ("time not implemented on this
/// platform", std's `sys/pal/unsupported/time.rs`), so the web page passes the browser's
/// `Date.now()`. The first call wins; false when a clock was already installed.
pub fn set_clock(now: fn() -> u64) -> bool {
    CLOCK.set(now).is_ok()
}

/// Seconds since the Unix epoch: the installed clock, else std's (0 before 1970).
fn now_unix() -> u64 {
    match CLOCK.get() {
        Some(now) => now(),
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
    }
}

impl EvidenceBundle {
    pub fn new(platform: Platform, origin: Origin) -> EvidenceBundle {
        EvidenceBundle {
            schema_version: SCHEMA_VERSION,
            diskdoc_version: env!("CARGO_PKG_VERSION").to_string(),
            platform,
            origin,
            captured_at_unix: now_unix(),
            host_id: None,
            captures: BTreeMap::new(),
            benchmarks: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn insert(&mut self, key: &SourceKey, cap: Capture) {
        self.captures.insert(key.to_string(), cap);
    }

    pub fn get(&self, key: &SourceKey) -> Option<&Capture> {
        self.captures.get(&key.to_string())
    }

    /// The payload of a successful capture.
    pub fn data(&self, key: &SourceKey) -> Option<&str> {
        self.get(key).and_then(Capture::data)
    }

    /// Convenience: a file's trimmed contents.
    pub fn file(&self, path: &str) -> Option<&str> {
        self.data(&SourceKey::File(path.to_string())).map(str::trim)
    }

    /// Why a source is unknown (missing from the bundle, or a recorded failure).
    pub fn why(&self, key: &SourceKey) -> String {
        match self.get(key) {
            Some(c) => c.why(),
            None => "it was not captured".to_string(),
        }
    }

    /// Parse a bundle from JSON text, checking the schema version first so a future
    /// bundle gets a version message rather than a field error.
    pub fn from_json(label: &str, text: &str) -> Result<EvidenceBundle, BundleError> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| BundleError::Json(label.to_string(), e))?;
        if let Some(ver) = v.get("schema_version").and_then(|x| x.as_u64())
            && ver > SCHEMA_VERSION as u64
        {
            return Err(BundleError::FutureVersion(label.to_string(), ver as u32));
        }
        serde_json::from_value(v).map_err(|e| BundleError::Json(label.to_string(), e))
    }

    pub fn load(path: &std::path::Path) -> Result<EvidenceBundle, BundleError> {
        let label = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| BundleError::Io(label.clone(), e))?;
        EvidenceBundle::from_json(&label, &text)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

// ---- benchmark results (written by diskdoc-sys bench, read by checks and reports) ----

/// A closed vocabulary that is a string in every JSON diskdoc writes: one variant per name
/// this diskdoc writes, serialised to exactly that name, plus `Other` for a name written
/// by another version, kept as read (so loading an older or newer report never fails on
/// a name it does not know, and writing it again gives the same bytes).
macro_rules! vocabulary {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $var:ident => $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vmeta])* $var,)+
            /// A name this diskdoc does not write, kept as read.
            Other(String),
        }

        impl $name {
            /// Every name this diskdoc writes.
            #[cfg(test)]
            const KNOWN: &'static [$name] = &[$($name::$var),+];
            /// The name in the JSON.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$var => $text,)+
                    $name::Other(s) => s,
                }
            }
            /// The variant of a name; `Other` when this diskdoc does not know it.
            pub fn parse(s: &str) -> $name {
                match s {
                    $($text => $name::$var,)+
                    other => $name::Other(other.to_string()),
                }
            }
        }

        impl Default for $name {
            fn default() -> $name {
                $name::Other(String::new())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                String::deserialize(d).map(|s| $name::parse(&s))
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                // Any string: a name from another version loads as `Other`.
                schemars::json_schema!({
                    "type": "string",
                    "examples": [$($text),+]
                })
            }
        }
    };
}

vocabulary! {
    /// Which read/write test a [`BenchResult`] is (`BenchResult.test`).
    TestName {
        /// Sequential 1 MiB reads at the outer, middle and inner zones.
        SeqRead => "seq-read",
        /// The block-size sweep, direct and buffered.
        BsSweep => "bs-sweep",
        /// Random 4 KiB reads at QD1 and QD32.
        RandRead => "rand-read",
        /// Sequential writes to a scratch file.
        SeqWrite => "seq-write",
        /// 4 KiB writes with an fsync each.
        SyncWrite => "sync-write",
        /// The same reads through the disk and each layer above it.
        LayerCost => "layer-cost",
        /// Writes to a raw device the user typed the name of.
        RawWrite => "raw-write",
        /// The CrystalDiskMark-style preset's reads.
        CdmRead => "cdm-read",
        /// The CrystalDiskMark-style preset's writes.
        CdmWrite => "cdm-write",
        /// Sequential writes until a budget.
        SustainedWrite => "sustained-write",
        /// One point of the sustained write's throughput curve.
        SustainedWriteCurve => "sustained-write-curve",
    }
}

impl TestName {
    /// Whether the test writes (a name from another version: whether it says "write",
    /// the rule every version has followed in naming them).
    pub fn is_write(&self) -> bool {
        match self {
            TestName::SeqWrite
            | TestName::SyncWrite
            | TestName::RawWrite
            | TestName::CdmWrite
            | TestName::SustainedWrite
            | TestName::SustainedWriteCurve => true,
            TestName::SeqRead
            | TestName::BsSweep
            | TestName::RandRead
            | TestName::LayerCost
            | TestName::CdmRead => false,
            TestName::Other(s) => s.contains("write"),
        }
    }
}

vocabulary! {
    /// Why a test stopped (`BenchResult.stop_reason`).
    StopReason {
        /// The rate was known closely enough (its 95 % confidence interval within the
        /// job's limit, +-3 % by default) after the minimum time.
        Stable => "stable",
        /// The time budget ran out.
        Budget => "budget",
        /// The size cap was reached.
        Size => "size",
        /// Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT).
        Interrupted => "interrupted",
        /// An I/O error ended it (`error` says which).
        Error => "error",
        /// A point of a throughput curve, not a test of its own.
        Curve => "curve",
    }
}

impl StopReason {
    /// `self`, noting that the test ran on one thread because the engine could not be
    /// cloned: "budget (FALLBACK)". Such a reason is `Other` (it is written as one string,
    /// the form every version has written).
    pub fn with_fallback(&self, fallback: &str) -> StopReason {
        StopReason::Other(format!("{} ({fallback})", self.as_str()))
    }
}

/// Latency percentiles of one test, nanoseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct LatencySummary {
    pub min_ns: u64,
    pub mean_ns: u64,
    pub p50_ns: u64,
    pub p90_ns: u64,
    pub p99_ns: u64,
    pub p999_ns: u64,
    pub max_ns: u64,
}

/// An I/O error met during a test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BenchError {
    /// errno name: EIO, ENOSPC, ENODEV, EROFS...
    pub kind: String,
    /// Byte offset of the failing I/O on the target.
    pub offset_bytes: u64,
    pub message: String,
}

/// One measured test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default, JsonSchema)]
pub struct BenchResult {
    pub test: TestName,
    /// What was read or written: /dev/sda, /home/u/.diskdoc-scratch-1234.
    pub target: String,
    /// The disk the target lives on (sda), for tying results to facts.
    pub disk: String,
    /// Distinguishes runs of one test: "outer", "middle", "inner", "bs=4096", "qd32",
    /// "buffered bs=512", "layer dm-0".
    pub label: String,
    pub block_size_bytes: u64,
    pub queue_depth: u32,
    /// Threads that ran the test together, each with `queue_depth` in flight (fio's
    /// numjobs, CrystalDiskMark's "T"). Reports written before it was recorded ran one
    /// thread, so a missing field reads as 1.
    #[serde(default = "one_thread")]
    pub threads: u32,
    /// O_DIRECT (cache bypassed).
    pub direct: bool,
    /// What answered the I/O instead of the disk, when diskdoc knows it: "ARC (RAM)" for
    /// reads of a ZFS scratch file the ARC holds, "RAM (sync=disabled)" for fsync(2) on a
    /// dataset with sync=disabled (sources::zfs_bench). None: the disk, or not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<String>,
    /// Where the test started on the target.
    pub offset_bytes: u64,
    pub bytes: u64,
    pub ios: u64,
    pub elapsed_ns: u64,
    /// Always a finite number when diskdoc writes it (a NaN or infinity is written as 0
    /// with a note); older reports wrote one as `null`, which still loads (as 0, with the
    /// same note), so the schema allows null.
    #[schemars(with = "Option<f64>")]
    #[serde(deserialize_with = "f64_or_null")]
    pub bytes_per_sec: f64,
    #[schemars(with = "Option<f64>")]
    #[serde(deserialize_with = "f64_or_null")]
    pub iops: f64,
    pub latency: Option<LatencySummary>,
    /// Relative spread of per-interval throughput (coefficient of variation, %).
    pub spread_pct: Option<f64>,
    /// How sure `bytes_per_sec` (and `iops`) is: the half-width of its 95 % confidence
    /// interval in % of it, from the per-interval rates by the method of batch means
    /// ([`crate::confidence`]). None with fewer than three intervals, and in results written
    /// before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci95_pct: Option<f64>,
    pub stop_reason: StopReason,
    pub error: Option<BenchError>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

fn one_thread() -> u32 {
    1
}

/// A number, or `null` (what serde_json writes for NaN and infinities) as NaN, so a report
/// holding one still loads and [`BenchResult::finite`] can say what happened.
fn f64_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

impl BenchResult {
    /// This result with every measured number finite: a NaN or infinite `bytes_per_sec`
    /// or `iops` (a run of 0 ns, a corrupted clock, a `null` in an old report) becomes 0
    /// and a non-finite `spread_pct` becomes none, each with a note naming the field and
    /// the raw counts, so no consumer (JSON, replay, compare, the checks) ever meets one
    /// and no reader is left guessing why a rate is 0.
    pub fn finite(mut self) -> BenchResult {
        let raw = format!(
            "{} bytes, {} I/Os in {} ns",
            self.bytes, self.ios, self.elapsed_ns
        );
        let fix = |name: &str, v: &mut f64, notes: &mut Vec<String>| {
            if !v.is_finite() {
                notes.push(format!(
                    "{name} was not a finite number ({}; {raw}): recorded as 0",
                    describe_non_finite(*v)
                ));
                *v = 0.0;
            }
        };
        fix("bytes_per_sec", &mut self.bytes_per_sec, &mut self.notes);
        fix("iops", &mut self.iops, &mut self.notes);
        if let Some(s) = self.spread_pct.filter(|s| !s.is_finite()) {
            self.notes.push(format!(
                "spread_pct was not a finite number ({}): left out",
                describe_non_finite(s)
            ));
            self.spread_pct = None;
        }
        if let Some(c) = self.ci95_pct.filter(|c| !c.is_finite()) {
            self.notes.push(format!(
                "ci95_pct was not a finite number ({}): left out",
                describe_non_finite(c)
            ));
            self.ci95_pct = None;
        }
        self
    }
}

fn describe_non_finite(v: f64) -> &'static str {
    if v.is_nan() {
        "NaN, or null in the file"
    } else if v > 0.0 {
        "infinite"
    } else {
        "minus infinite"
    }
}

/// Serde for a list of results that makes a non-finite number impossible to emit or load
/// silently: each result passes through [`BenchResult::finite`] on the way out and in.
pub(crate) mod finite_results {
    use super::BenchResult;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &[BenchResult], s: S) -> Result<S::Ok, S::Error> {
        if v.iter().all(is_finite) {
            return v.serialize(s);
        }
        let fixed: Vec<BenchResult> = v.iter().cloned().map(BenchResult::finite).collect();
        fixed.serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<BenchResult>, D::Error> {
        Ok(Vec::<BenchResult>::deserialize(d)?
            .into_iter()
            .map(BenchResult::finite)
            .collect())
    }

    fn is_finite(r: &BenchResult) -> bool {
        r.bytes_per_sec.is_finite()
            && r.iops.is_finite()
            && r.spread_pct.is_none_or(f64::is_finite)
            && r.ci95_pct.is_none_or(f64::is_finite)
    }
}

// ---- ioctl vocabulary (the plan names them; diskdoc-sys issues them) ----

/// ioctl requests diskdoc knows. Values are returned as decimal strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IoctlRequest {
    /// Linux: device size in bytes (linux/fs.h).
    BlkGetSize64,
    /// Linux: logical sector size.
    BlkSszGet,
    /// Linux: physical sector size.
    BlkPbszGet,
    /// FreeBSD: media size in bytes (sys/disk.h).
    DiocgMediaSize,
    /// FreeBSD: sector size.
    DiocgSectorSize,
    /// FreeBSD: stripe (physical sector) size.
    DiocgStripeSize,
    /// FreeBSD: stripe offset.
    DiocgStripeOffset,
}

impl IoctlRequest {
    pub fn name(self) -> &'static str {
        match self {
            IoctlRequest::BlkGetSize64 => "BLKGETSIZE64",
            IoctlRequest::BlkSszGet => "BLKSSZGET",
            IoctlRequest::BlkPbszGet => "BLKPBSZGET",
            IoctlRequest::DiocgMediaSize => "DIOCGMEDIASIZE",
            IoctlRequest::DiocgSectorSize => "DIOCGSECTORSIZE",
            IoctlRequest::DiocgStripeSize => "DIOCGSTRIPESIZE",
            IoctlRequest::DiocgStripeOffset => "DIOCGSTRIPEOFFSET",
        }
    }
}

// ---- payload encoding of device reads ----

/// Lowercase hex, the payload form of device reads.
pub fn hex_encode(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Zero runs at least this long are written as `z<count>;` by [`hex_encode_sparse`].
const ZERO_RUN: usize = 16;

/// The stored form of device reads: lowercase hex, with every run of 16 or more zero bytes
/// written as `z<count>;` ("z17344;"). A read keeps only the partition-table bytes (see
/// `sources::partition_table::minimize`), so it is mostly zeros; this keeps a 4Kn disk's
/// 136 KiB table read to a few KiB of text. [`hex_decode`] reads both forms, so bundles
/// written before the runs existed load unchanged.
pub fn hex_encode_sparse(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let run = bytes[i..].iter().take_while(|&&b| b == 0).count();
        if run >= ZERO_RUN {
            let _ = write!(s, "z{run};");
            i += run;
        } else {
            let _ = write!(s, "{:02x}", bytes[i]);
            i += 1;
        }
    }
    s
}

/// Inverse of [`hex_encode`] and [`hex_encode_sparse`]; None on a stray digit, an odd
/// number of digits or a malformed zero run.
pub fn hex_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    let mut out = Vec::with_capacity(s.len() / 2);
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('z') {
            let (n, after) = r.split_once(';')?;
            let n: usize = n.parse().ok()?;
            // A run never exceeds what one device read may hold (1 MiB, os::read_device).
            if n > (1 << 20) || out.len() + n > (1 << 21) {
                return None;
            }
            out.resize(out.len() + n, 0);
            rest = after;
        } else {
            let pair = rest.get(..2)?;
            out.push(u8::from_str_radix(pair, 16).ok()?);
            rest = rest.get(2..)?;
        }
    }
    Some(out)
}

/// Fill a capture template with a disk's parts: `{dev}` the node (/dev/ada0), `{disk}` the
/// kernel name (ada0), `{pool}` a pool name given in its place, `{unit}` the unit number
/// (0). Shared by the capture plan and the source specs so both spell a key the same way.
pub fn fill_template(t: &str, disk: &str) -> String {
    let unit: String = disk.chars().skip_while(|c| !c.is_ascii_digit()).collect();
    t.replace("{dev}", &format!("/dev/{disk}"))
        .replace("{disk}", disk)
        .replace("{pool}", disk)
        .replace("{unit}", &unit)
}

#[cfg(test)]
mod tests;
