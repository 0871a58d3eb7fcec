//! What the five pasted-benchmark checks share (benchmark_page_cache.rs,
//! benchmark_small_blocks.rs, benchmark_zero_source.rs, benchmark_buffered_device.rs,
//! benchmark_random_source.rs): they judge the dd/cp/fio/hdparm runs a person pasted
//! (`SystemFacts.user_benchmarks`, filled by `diskdoc explain` and the wizard) for the
//! classic mistakes that make a number measure something other than the disk.
//! References: dd(1) (default bs 512; GNU conv=fdatasync/fsync, oflag=direct), FreeBSD
//! dropped buffered block devices in 5.0 (every /dev/adaN, daN is a raw character device),
//! zfsprops(7) (compression=lz4 default since OpenZFS 2.0 stores runs of zeros as holes),
//! random(4) (the kernel CSPRNG is CPU-bound).

use super::{Finding, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{SystemFacts, UserBenchmark};

pub(crate) fn mbs(bps: f64) -> String {
    format!("{:.1} MB/s", bps / 1e6)
}

pub(crate) fn human(bytes: u64) -> String {
    crate::units::bytes_iec1(bytes)
}

pub(crate) fn is_pseudo(p: &str) -> bool {
    matches!(
        p,
        "/dev/null"
            | "/dev/zero"
            | "/dev/random"
            | "/dev/urandom"
            | "/dev/stdout"
            | "/dev/stdin"
            | "-"
    )
}

/// Where a read test sends its data to be thrown away: /dev/null, and /dev/zero, whose write
/// is /dev/null's (drivers/char/mem.c: `#define write_zero write_null`), so `dd if=FILE
/// of=/dev/zero` is a read of FILE too.
pub(crate) fn is_sink(p: &str) -> bool {
    matches!(p, "/dev/null" | "/dev/zero")
}

pub(crate) fn is_device(p: &str) -> bool {
    p.starts_with("/dev/") && !is_pseudo(p)
}

pub(crate) fn has_flag(b: &UserBenchmark, names: &[&str]) -> bool {
    b.flags.iter().any(|f| names.iter().any(|n| f == n))
}

/// Flags that make a dd write reach the disk before dd stops the clock.
pub(crate) const SYNC_FLAGS: &[&str] = &[
    "conv=fsync",
    "conv=fdatasync",
    "oflag=direct",
    "oflag=dsync",
    "oflag=sync",
];

/// A buffered write (command known, no flag of [`SYNC_FLAGS`]) of a few MiB to a file that
/// ran slower than this cannot have been absorbed by the page cache: copying into RAM runs
/// at tens of MB/s even on the smallest boards. A write that small stays under the kernel's
/// dirty limits (Linux vm.dirty_ratio, 20 % of RAM; mm/page-writeback.c), so nothing made
/// dd wait for writeback: each write() waited for the disk itself, as on a filesystem
/// mounted `sync` (mount(8): "All I/O to the filesystem should be done synchronously")
/// or an output opened O_SYNC.
const UNCACHED_WRITE_BYTES_PER_SEC: f64 = 2.0e6;
/// Writes up to this size fit under the dirty limits of any machine with 128 MiB of RAM.
const UNCACHED_WRITE_MAX_BYTES: u64 = 16 << 20;

/// A buffered dd write to a file that each call waited for the disk (see
/// [`UNCACHED_WRITE_BYTES_PER_SEC`]): the page cache did not answer it.
pub(crate) fn buffered_write_waited_for_disk(b: &UserBenchmark) -> bool {
    b.tool == "dd"
        && b.command.is_some()
        && !has_flag(b, SYNC_FLAGS)
        && b.output
            .as_deref()
            .is_some_and(|o| !is_pseudo(o) && !o.starts_with("/dev/"))
        && b.bytes
            .is_some_and(|n| n > 0 && n <= UNCACHED_WRITE_MAX_BYTES)
        && b.bytes_per_sec
            .is_some_and(|r| r > 0.0 && r < UNCACHED_WRITE_BYTES_PER_SEC)
}

fn device_label(b: &UserBenchmark) -> String {
    for p in [b.output.as_deref(), b.input.as_deref()]
        .into_iter()
        .flatten()
    {
        if is_device(p) {
            return p.trim_start_matches("/dev/").to_string();
        }
    }
    "system".to_string()
}

pub(crate) fn what(b: &UserBenchmark) -> String {
    b.command
        .clone()
        .unwrap_or_else(|| format!("{} result", b.tool))
}

pub(crate) fn base(
    id: &str,
    b: &UserBenchmark,
    verdict: Verdict,
    sev: Severity,
    title: String,
) -> Finding {
    let mut f = Finding::new(id, &device_label(b), verdict, sev, title);
    f = f.evidence(b.from.clone(), what(b));
    if let Some(r) = b.bytes_per_sec {
        f = f.evidence(b.from.clone(), mbs(r));
    }
    f
}

/// A pasted run whose figure a cache made, not the device: a notice of medium confidence,
/// `title` with `why` as its explanation.
pub(crate) fn cache_made(id: &str, b: &UserBenchmark, title: String, why: String) -> Finding {
    base(id, b, Verdict::Problem, Severity::Notice, title)
        .explain(why)
        .confidence(super::Confidence::Medium)
}

/// FreeBSD has had no buffered disk devices since 5.0; a BSD dd result line
/// ("bytes transferred in") or BSD device names tell us the OS when the facts do not.
pub(crate) fn freebsd_raw(sys: &SystemFacts, path: &str) -> bool {
    let name = path.trim_start_matches("/dev/");
    let bsd_name = [
        "ada", "da", "ad", "nvd", "nda", "mmcsd", "md", "ar", "gpt/", "diskid/", "label/", "zvol/",
    ]
    .iter()
    .any(|p| name.starts_with(p));
    (sys.platform == Platform::Freebsd && !old_bsd_block(name))
        || (bsd_name && sys.platform != Platform::Linux)
}

/// Old BSD block devices with a raw twin: wd0 vs rwd0, sd0 vs rsd0 (FreeBSD < 5, 4.4BSD).
pub(crate) fn old_bsd_block(name: &str) -> bool {
    let prefix: String = name
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    matches!(prefix.as_str(), "wd" | "wcd" | "xd" | "od" | "rz" | "ra") && name.len() > prefix.len()
}

/// Whether two runs measured the same thing: the same device read, the same device
/// written, or both wrote files (the same filesystem as far as the text says).
pub(crate) fn same_target(a: &UserBenchmark, b: &UserBenchmark) -> bool {
    let t = |x: &UserBenchmark| -> Option<String> {
        match x.output.as_deref() {
            None => x.input.clone(),
            Some(o) if is_sink(o) => x.input.clone(),
            Some(o) if is_device(o) => Some(o.to_string()),
            Some(_) => Some(format!(
                "file on {}",
                x.filesystem.as_deref().unwrap_or("?")
            )),
        }
    };
    t(a).is_some() && t(a) == t(b)
}
