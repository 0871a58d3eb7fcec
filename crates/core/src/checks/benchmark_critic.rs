//! The benchmark critic: judges the dd/cp/fio/hdparm runs a person pasted
//! (`SystemFacts.user_benchmarks`, filled by `diskdoc explain` and the wizard) for the
//! classic mistakes that make a number measure something other than the disk.
//! References: dd(1) (default bs 512; GNU conv=fdatasync/fsync, oflag=direct), FreeBSD
//! dropped buffered block devices in 5.0 (every /dev/adaN, daN is a raw character device),
//! zfsprops(7) (compression=lz4 default since OpenZFS 2.0 stores runs of zeros as holes),
//! random(4) (the kernel CSPRNG is CPU-bound).

use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::evidence::Platform;
use crate::facts::{SystemFacts, UserBenchmark};

fn mbs(bps: f64) -> String {
    format!("{:.1} MB/s", bps / 1e6)
}

fn human(bytes: u64) -> String {
    crate::units::bytes_iec1(bytes)
}

fn is_pseudo(p: &str) -> bool {
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

fn is_device(p: &str) -> bool {
    p.starts_with("/dev/") && !is_pseudo(p)
}

fn has_flag(b: &UserBenchmark, names: &[&str]) -> bool {
    b.flags.iter().any(|f| names.iter().any(|n| f == n))
}

/// Flags that make a dd write reach the disk before dd stops the clock.
const SYNC_FLAGS: &[&str] = &[
    "conv=fsync",
    "conv=fdatasync",
    "oflag=direct",
    "oflag=dsync",
    "oflag=sync",
];

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

fn what(b: &UserBenchmark) -> String {
    b.command
        .clone()
        .unwrap_or_else(|| format!("{} result", b.tool))
}

fn base(id: &str, b: &UserBenchmark, verdict: Verdict, sev: Severity, title: String) -> Finding {
    let mut f = Finding::new(id, &device_label(b), verdict, sev, title);
    f = f.evidence(b.from.clone(), what(b));
    if let Some(r) = b.bytes_per_sec {
        f = f.evidence(b.from.clone(), mbs(r));
    }
    f
}

/// FreeBSD has had no buffered disk devices since 5.0; a BSD dd result line
/// ("bytes transferred in") or BSD device names tell us the OS when the facts do not.
fn freebsd_raw(sys: &SystemFacts, path: &str) -> bool {
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
fn old_bsd_block(name: &str) -> bool {
    let prefix: String = name
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    matches!(prefix.as_str(), "wd" | "wcd" | "xd" | "od" | "rz" | "ra") && name.len() > prefix.len()
}

/// Whether two runs measured the same thing: the same device read, the same device
/// written, or both wrote files (the same filesystem as far as the text says).
fn same_target(a: &UserBenchmark, b: &UserBenchmark) -> bool {
    let t = |x: &UserBenchmark| -> Option<String> {
        match x.output.as_deref() {
            None | Some("/dev/null") => x.input.clone(),
            Some(o) if is_device(o) => Some(o.to_string()),
            Some(_) => Some(format!(
                "file on {}",
                x.filesystem.as_deref().unwrap_or("?")
            )),
        }
    };
    t(a).is_some() && t(a) == t(b)
}

pub struct PageCache;
impl Check for PageCache {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-page-cache"
    }
    fn summary(&self) -> &'static str {
        "a pasted write test stopped the clock while data was still in RAM (no fsync/direct I/O, or impossibly fast)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = Vec::new();
        for b in &sys.user_benchmarks {
            if b.tool != "dd" {
                continue;
            }
            let Some(output) = b.output.as_deref() else {
                if b.bytes_per_sec.is_some() && b.command.is_none() {
                    out.push(
                        base(self.id(), b, Verdict::Unknown, Severity::Info, "dd result without its command line".into()).explain(
                            "Only dd's summary was pasted. Whether the page cache inflated it depends on the command: \
                             a write without conv=fdatasync (GNU) or conv=fsync, or without oflag=direct, stops the clock \
                             while the data may still be in RAM. Paste the full dd command line.",
                        ),
                    );
                }
                continue;
            };
            if output == "/dev/null" {
                continue;
            }
            let rate = b.bytes_per_sec.unwrap_or(0.0);
            if has_flag(b, SYNC_FLAGS) {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        "write test flushed to the disk".into(),
                    )
                    .explain(format!(
                        "{} uses {}, so dd's time includes getting the data onto the disk.",
                        what(b),
                        b.flags.join(",")
                    )),
                );
                continue;
            }
            let impossible = rate > 2.0e9;
            if is_device(output) && freebsd_raw(sys, output) && !impossible {
                out.push(
                    base(self.id(), b, Verdict::Pass, Severity::Info, "write to a raw FreeBSD disk device".into())
                        .explain("FreeBSD disk devices have no buffer cache (block devices were removed in 5.0), so dd's time is the disk's."),
                );
                continue;
            }
            let bytes = b.bytes.unwrap_or(0);
            let ram = sys.ram_bytes.get();
            let (verdict, sev, conf, why) = if impossible {
                (
                    Verdict::Problem,
                    Severity::Warning,
                    Confidence::High,
                    format!(
                        "{} is faster than any single SATA/SAS disk can write (600 MB/s link) and than most NVMe drives: \
                         the data went into RAM (page cache, ZFS ARC/dirty data) or was compressed away, not onto the disk.",
                        mbs(rate)
                    ),
                )
            } else if ram.is_some_and(|r| bytes > 0 && bytes <= r.saturating_mul(2)) {
                (
                    Verdict::Problem,
                    Severity::Warning,
                    Confidence::Medium,
                    format!(
                        "{} written on a machine with {} of RAM: most of it can sit in the page cache when dd stops the clock.",
                        human(bytes),
                        human(ram.unwrap_or(0))
                    ),
                )
            } else if bytes > 0 && rate > 0.0 && rate < 1.0e9 && bytes as f64 / rate >= 30.0 {
                // Linux throttles a writer once dirty pages reach vm.dirty_ratio (20 % of
                // available memory by default; mm/page-writeback.c balance_dirty_pages), and
                // ZFS throttles at its dirty-data limit: a write that ran half a minute at
                // disk-like speed has been waiting on the disk for most of that time.
                (
                    Verdict::Pass,
                    Severity::Info,
                    Confidence::Low,
                    format!(
                        "{} written over {:.0} s at {}: long enough that writeback throttling made dd wait \
                         for the disk, so the figure is close to the disk's (a little high).",
                        human(bytes),
                        bytes as f64 / rate,
                        mbs(rate)
                    ),
                )
            } else if bytes >= 8 << 30 {
                (
                    Verdict::Pass,
                    Severity::Info,
                    Confidence::Low,
                    format!(
                        "{} written without a final flush: only the last few GiB can still be in RAM, so the figure is \
                         close to the disk's (a little high).",
                        human(bytes)
                    ),
                )
            } else {
                (
                    Verdict::Problem,
                    Severity::Notice,
                    Confidence::Medium,
                    format!(
                        "{} written without a final flush; up to the machine's free RAM of it may still be in the page cache \
                         when dd reports.",
                        if bytes > 0 {
                            human(bytes)
                        } else {
                            "data".to_string()
                        }
                    ),
                )
            };
            let title = if verdict == Verdict::Pass {
                "write test large enough that caching matters little".to_string()
            } else {
                format!("the {} write may measure RAM, not the disk", mbs(rate))
            };
            out.push(
                base(self.id(), b, verdict, sev, title)
                    .explain(format!(
                        "{why} Re-run with GNU dd conv=fdatasync (or oflag=direct), or on FreeBSD write to the raw device \
                         or follow dd with sync inside the timing (time sh -c 'dd ... && sync'), with a size at least twice the RAM."
                    ))
                    .confidence(conf),
            );
        }
        out
    }
}

pub struct SmallBlocks;
impl Check for SmallBlocks {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-small-blocks"
    }
    fn summary(&self) -> &'static str {
        "a pasted dd used a tiny block size (default 512 bytes): it measures per-request overhead, not the disk"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = Vec::new();
        for b in &sys.user_benchmarks {
            if b.tool != "dd" {
                continue;
            }
            let Some(bs) = b.block_size_bytes else {
                continue;
            };
            let derived = b.command.as_deref().is_none_or(|c| !c.contains("bs="));
            let how = if b.command.as_deref().is_some_and(|c| !c.contains("bs=")) {
                "no bs= given, so dd used its default of 512 bytes".to_string()
            } else if b.command.is_none() {
                format!(
                    "block size {} derived from {} bytes / {} records",
                    bs,
                    b.bytes.unwrap_or(0),
                    b.records_out
                        .as_deref()
                        .or(b.records_in.as_deref())
                        .unwrap_or("?")
                )
            } else {
                format!("bs={bs} bytes")
            };
            if bs >= 65536 {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        format!("block size {} is large enough", human(bs)),
                    )
                    .explain(format!(
                        "{} moves {} per request: per-request overhead is small.",
                        what(b),
                        human(bs)
                    )),
                );
                continue;
            }
            // The same target (the device read, or the device/filesystem written) with a
            // bigger block elsewhere in the text.
            let better = sys
                .user_benchmarks
                .iter()
                .filter(|o| {
                    o.tool == "dd" && same_target(o, b) && o.block_size_bytes.unwrap_or(0) >= 65536
                })
                .filter_map(|o| Some((o.bytes_per_sec?, o.block_size_bytes?)))
                .max_by(|x, y| x.0.partial_cmp(&y.0).unwrap_or(std::cmp::Ordering::Equal));
            let rate = b.bytes_per_sec;
            let cmp = match (better, rate) {
                (Some((r2, bs2)), Some(r1)) => format!(
                    " The same source with bs={} reached {} against {} here ({:.0}x).",
                    human(bs2),
                    mbs(r2),
                    mbs(r1),
                    r2 / r1.max(1.0)
                ),
                _ => String::new(),
            };
            let ios = rate.map(|r| r / bs as f64).unwrap_or(0.0);
            if let (Some((r2, bs2)), Some(r1)) = (better, rate) {
                if bs < 4096 && r2 < r1 * 1.15 {
                    out.push(
                        base(
                            self.id(),
                            b,
                            Verdict::Problem,
                            Severity::Notice,
                            format!("dd moved {bs} bytes per request: same rate, much more CPU"),
                        )
                        .explain(format!(
                            "{how}. Here the disk is slow enough ({}) that the same target with bs={} was no faster ({}), \
                             but every request still costs a system call and a disk command: on a faster disk or a \
                             busier CPU this block size becomes the limit. Use bs=1m (FreeBSD) or bs=1M (GNU).",
                            mbs(r1),
                            human(bs2),
                            mbs(r2)
                        )),
                    );
                    continue;
                }
                if bs >= 4096 && r2 < r1 * 1.15 {
                    out.push(
                        base(self.id(), b, Verdict::Pass, Severity::Info, format!("block size {} is not the limit here", human(bs)))
                            .explain(format!(
                                "{} moves {} per request at {}; the same target with bs={} reached only {}, so per-request \
                                 overhead does not limit this test.",
                                what(b),
                                human(bs),
                                mbs(r1),
                                human(bs2),
                                mbs(r2)
                            )),
                    );
                    continue;
                }
            }
            // Proof that per-request overhead is not what limits a 4 KiB+ run: it already
            // completes 100k requests a second, or another dd in the text with blocks no
            // larger ran at least twice as fast (then the source or the target is the limit).
            let quicker = sys
                .user_benchmarks
                .iter()
                .filter(|o| o.tool == "dd" && o.block_size_bytes.is_some_and(|x| x <= bs))
                .filter_map(|o| o.bytes_per_sec)
                .fold(0.0_f64, f64::max);
            if bs >= 4096
                && let Some(r1) = rate
                && (ios >= 100_000.0 || quicker >= 2.0 * r1)
            {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        format!("block size {} is not the limit here", human(bs)),
                    )
                    .explain(if ios >= 100_000.0 {
                        format!(
                            "{} moves {} per request and still completes {ios:.0} requests a \
                             second ({}): per-request overhead does not limit it.",
                            what(b),
                            human(bs),
                            mbs(r1)
                        )
                    } else {
                        format!(
                            "{} moves {} per request at {}, but another dd in the text with \
                             blocks no larger reached {}: the limit is elsewhere (the source, \
                             the target or a cache), not the block size.",
                            what(b),
                            human(bs),
                            mbs(r1),
                            mbs(quicker)
                        )
                    }),
                );
                continue;
            }
            let sev = if bs < 4096 {
                Severity::Warning
            } else {
                Severity::Notice
            };
            out.push(
                base(
                    self.id(),
                    b,
                    Verdict::Problem,
                    sev,
                    format!(
                        "dd moved {} per request{}",
                        if bs < 1024 { format!("{bs} bytes") } else { human(bs) },
                        rate.map(|r| format!(" ({})", mbs(r))).unwrap_or_default()
                    ),
                )
                .explain(format!(
                    "{how}. Each request costs a system call and a disk command (tens of microseconds), so {} \
                     requests per second cap the rate long before the disk does.{cmp} Use bs=1m (FreeBSD) or bs=1M \
                     (GNU) to measure sequential throughput.",
                    if ios > 0.0 { format!("{ios:.0}") } else { "thousands of".to_string() }
                ))
                .confidence(if derived && b.command.is_none() { Confidence::Medium } else { Confidence::High }),
            );
        }
        out
    }
}

pub struct ZeroSource;
impl Check for ZeroSource {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-zero-source"
    }
    fn summary(&self) -> &'static str {
        "a pasted write test copied /dev/zero into ZFS or another compressing filesystem, which stores nothing"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = Vec::new();
        for b in &sys.user_benchmarks {
            if b.input.as_deref() != Some("/dev/zero") {
                continue;
            }
            let Some(output) = b.output.as_deref() else {
                continue;
            };
            if output == "/dev/null" {
                continue;
            }
            let rate = b.bytes_per_sec.unwrap_or(0.0);
            if is_device(output) {
                out.push(
                    base(self.id(), b, Verdict::Pass, Severity::Info, "zeros written to a raw device".into()).explain(
                        "A raw device stores every zero, so the source does not matter (except on SSDs whose controller \
                         compresses, such as SandForce ones).",
                    ),
                );
                continue;
            }
            let fs = b.filesystem.as_deref().unwrap_or("");
            let compressing = matches!(fs, "zfs" | "btrfs");
            if compressing || rate > 2.0e9 {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Problem,
                        Severity::Warning,
                        format!("/dev/zero into {}: the {} measures nothing", if fs.is_empty() { "a file" } else { fs }, mbs(rate)),
                    )
                    .explain(format!(
                        "{} copies zeros into a file{}. ZFS with compression on (lz4 is the default since OpenZFS 2.0 / \
                         FreeBSD 13) and btrfs with compress store a run of zeros as a hole, so nearly nothing reaches \
                         the disk and the rate is that of the CPU and RAM. Use incompressible data written beforehand \
                         (e.g. a file made once from /dev/random, on a tmpfs) or fio with refill_buffers, or test a \
                         dataset with compression=off.",
                        what(b),
                        if fs.is_empty() { String::new() } else { format!(" on {fs} (as the text says)") }
                    ))
                    .confidence(if compressing { Confidence::High } else { Confidence::Medium }),
                );
            } else if fs.is_empty() {
                out.push(
                    base(self.id(), b, Verdict::Unknown, Severity::Info, "zeros written to a file on an unknown filesystem".into())
                        .explain(
                            "If that filesystem compresses (ZFS with compression on, btrfs with compress), zeros never reach \
                             the disk. Say which filesystem holds the file (zfs get compression, mount).",
                        ),
                );
            } else {
                out.push(
                    base(
                        self.id(),
                        b,
                        Verdict::Pass,
                        Severity::Info,
                        format!("zeros written to {fs}, which stores them"),
                    )
                    .explain(format!("{fs} does not compress, so zeros are real writes.")),
                );
            }
        }
        out
    }
}

pub struct BufferedDevice;
impl Check for BufferedDevice {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-buffered-device"
    }
    fn summary(&self) -> &'static str {
        "a pasted test went through a buffered block device instead of the raw one (or without O_DIRECT)"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = Vec::new();
        for b in &sys.user_benchmarks {
            if b.tool != "dd" {
                continue;
            }
            for (path, is_read) in [(b.input.as_deref(), true), (b.output.as_deref(), false)] {
                let Some(path) = path else { continue };
                if !is_device(path) {
                    continue;
                }
                let name = path.trim_start_matches("/dev/");
                if old_bsd_block(name) {
                    let raw = format!("/dev/r{name}");
                    let twin = sys.user_benchmarks.iter().find(|o| {
                        o.input.as_deref() == Some(raw.as_str())
                            || o.output.as_deref() == Some(raw.as_str())
                    });
                    let mut cmp = twin
                        .and_then(|t| {
                            Some(format!(
                                " The raw {raw} in the same text: {}.",
                                mbs(t.bytes_per_sec?)
                            ))
                        })
                        .unwrap_or_default();
                    // Report what the text says: a comment calling this device raw
                    // contradicts the device name (seed 004's "# raw, pessimized").
                    if b.command
                        .as_deref()
                        .and_then(|c| c.split_once('#'))
                        .is_some_and(|(_, c)| c.contains("raw"))
                    {
                        cmp.push_str(&format!(
                            " (The poster's comment calls this run raw, but the command names {path}, not {raw}: check which one ran.)"
                        ));
                    }
                    out.push(
                        base(
                            self.id(),
                            b,
                            Verdict::Problem,
                            Severity::Warning,
                            format!("{path} is the buffered block device; {raw} is the raw disk"),
                        )
                        .explain(format!(
                            "{} {} {path}, which goes through the buffer cache in small blocks (2 KiB here) and costs a \
                             lot of CPU time; the rate can be close to the raw device's while the system time is many \
                             times higher, or it can be cache hits.{cmp} Measure the disk with {raw}.",
                            what(b),
                            if is_read { "reads" } else { "writes" }
                        ))
                        .confidence(Confidence::High),
                    );
                } else if !freebsd_raw(sys, path)
                    && (sys.platform == Platform::Linux
                        || name.starts_with("sd")
                        || name.starts_with("mapper/")
                        || name.starts_with("nvme"))
                {
                    let direct = if is_read {
                        "iflag=direct"
                    } else {
                        "oflag=direct"
                    };
                    if has_flag(b, &[direct]) {
                        continue;
                    }
                    out.push(
                        base(
                            self.id(),
                            b,
                            Verdict::Problem,
                            if is_read { Severity::Notice } else { Severity::Warning },
                            format!("{path} was {} through the page cache", if is_read { "read" } else { "written" }),
                        )
                        .explain(format!(
                            "On Linux a block device such as {path} is buffered by the page cache unless dd is given \
                             {direct}: {} Add {direct} (and a bs that is a multiple of the sector size).",
                            if is_read {
                                "a re-read can be served from RAM, and read-ahead changes the request size."
                            } else {
                                "dd returns when the data is in RAM, not on the disk."
                            }
                        )),
                    );
                }
            }
        }
        out
    }
}

pub struct RandomSource;
impl Check for RandomSource {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-random-source"
    }
    fn summary(&self) -> &'static str {
        "a pasted write test read /dev/random or /dev/urandom: it measures the CPU's random generator"
    }
    fn run(&self, sys: &SystemFacts) -> Vec<Finding> {
        let mut out = Vec::new();
        for b in &sys.user_benchmarks {
            let Some(input) = b.input.as_deref() else {
                continue;
            };
            if input != "/dev/random" && input != "/dev/urandom" {
                continue;
            }
            out.push(
                base(
                    self.id(),
                    b,
                    Verdict::Problem,
                    Severity::Warning,
                    format!("{input} as the source: the {} is the random generator's speed", b.bytes_per_sec.map(mbs).unwrap_or_default()),
                )
                .explain(format!(
                    "{} reads {input}, which the kernel fills with a cryptographic generator on one CPU core \
                     (a few hundred MB/s at best), so a fast disk waits for it. Generate the data once into a file \
                     on tmpfs (or RAM disk) and copy that, or use fio, which fills its buffers with fast pseudo-random data.",
                    what(b)
                ))
                .confidence(Confidence::High),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sys(platform: Platform, b: Vec<UserBenchmark>) -> SystemFacts {
        let mut s = SystemFacts::empty(platform);
        s.user_benchmarks = b;
        s
    }

    fn dd(cmd: &str, bytes: u64, rate: f64) -> UserBenchmark {
        let mut b = UserBenchmark {
            tool: "dd".into(),
            command: Some(cmd.to_string()),
            bytes: Some(bytes),
            bytes_per_sec: Some(rate),
            from: "pasted:dd lines 1-3".into(),
            ..Default::default()
        };
        for w in cmd.split_whitespace() {
            match w.split_once('=') {
                Some(("if", v)) => b.input = Some(v.into()),
                Some(("of", v)) => b.output = Some(v.into()),
                Some(("bs", v)) => b.block_size_bytes = crate::sources::util::parse_size(v),
                Some((k @ ("conv" | "oflag" | "iflag"), v)) => b.flags.push(format!("{k}={v}")),
                _ => {}
            }
        }
        b
    }

    fn verdicts(c: &dyn Check, s: &SystemFacts) -> Vec<(Verdict, Severity)> {
        c.run(s).iter().map(|f| (f.verdict, f.severity)).collect()
    }

    #[test]
    fn page_cache_flags_unflushed_writes_and_passes_honest_ones() {
        let s = sys(
            Platform::Linux,
            vec![
                dd("dd if=img of=/dev/sdn bs=1M", 2_000_683_008, 305e6),
                dd(
                    "dd if=/dev/zero of=t bs=1M count=100 conv=fdatasync",
                    100_000_000,
                    9e6,
                ),
                dd(
                    "dd if=/dev/zero of=/tmp/foo bs=10M count=1000",
                    10_485_760_000,
                    5_523_418_767.0,
                ),
            ],
        );
        assert_eq!(
            verdicts(&PageCache, &s),
            vec![
                (Verdict::Problem, Severity::Notice),
                (Verdict::Pass, Severity::Info),
                (Verdict::Problem, Severity::Warning),
            ]
        );
        // FreeBSD disks are raw: a write to /dev/da0 is the disk's own speed.
        let s = sys(
            Platform::Freebsd,
            vec![dd(
                "dd if=/dev/zero of=/dev/da0 bs=1m",
                9_830_400_000,
                183e6,
            )],
        );
        assert_eq!(
            verdicts(&PageCache, &s),
            vec![(Verdict::Pass, Severity::Info)]
        );
    }

    #[test]
    fn small_blocks_by_size_and_by_comparison() {
        let s = sys(
            Platform::Freebsd,
            vec![
                dd("dd if=/dev/ad8 of=/dev/null bs=512", 0, 3.65 * 1048576.0),
                dd("dd if=/dev/ad8 of=/dev/null bs=128k", 0, 57.07 * 1048576.0),
            ],
        );
        let f = SmallBlocks.run(&s);
        assert_eq!(
            (f[0].verdict, f[0].severity),
            (Verdict::Problem, Severity::Warning)
        );
        assert!(f[0].explanation.contains("(16x)"), "{}", f[0].explanation);
        assert_eq!(f[1].verdict, Verdict::Pass);
    }

    #[test]
    fn four_k_blocks_are_not_blamed_when_the_text_proves_overhead_is_not_the_limit() {
        // EttusResearch/uhd#829: the same 8 KiB blocks reached 1.6 GB/s from /dev/zero and
        // 287 MB/s from /dev/random: the source limits the second, not the block size.
        let s = sys(
            Platform::Linux,
            vec![
                dd(
                    "dd if=/dev/zero of=test.dat bs=8k count=10k",
                    83886080,
                    1.6365e9,
                ),
                dd(
                    "dd if=/dev/random of=test.dat bs=8k count=10k",
                    83886080,
                    2.865e8,
                ),
            ],
        );
        let f = SmallBlocks.run(&s);
        assert_eq!(f.len(), 2);
        assert!(f.iter().all(|x| x.verdict == Verdict::Pass), "{f:#?}");
        assert!(f[0].explanation.contains("requests a second"));
        assert!(f[1].explanation.contains("another dd"));
        // Alone and slow, 8 KiB is still a notice.
        let s = sys(
            Platform::Linux,
            vec![dd("dd if=/dev/sda of=/dev/null bs=8k", 0, 60e6)],
        );
        let f = SmallBlocks.run(&s);
        assert_eq!(
            (f[0].verdict, f[0].severity),
            (Verdict::Problem, Severity::Notice)
        );
    }

    #[test]
    fn a_long_write_at_disk_speed_is_not_ram() {
        // openzfs/zfs#9690: 4.4 GB copied onto ZFS in 69 s at 63.8 MB/s, no fsync.
        let s = sys(
            Platform::Linux,
            vec![dd(
                "dd if=x.tar of=/mnt/zfs/y.tar bs=4M",
                4430673920,
                63.8e6,
            )],
        );
        let f = PageCache.run(&s);
        assert_eq!(f[0].verdict, Verdict::Pass, "{f:#?}");
        // The same size in 3 s is RAM.
        let s = sys(
            Platform::Linux,
            vec![dd("dd if=/dev/zero of=t bs=1M", 4430673920, 1.4e9)],
        );
        assert_eq!(PageCache.run(&s)[0].verdict, Verdict::Problem);
    }

    #[test]
    fn zero_source_depends_on_the_filesystem() {
        let mut zfs = dd("dd if=/dev/zero of=/tmp/foo bs=10M", 10_485_760_000, 191e6);
        zfs.filesystem = Some("zfs".into());
        let mut ufs = zfs.clone();
        ufs.filesystem = Some("ufs".into());
        let mut unknown = zfs.clone();
        unknown.filesystem = None;
        let raw = dd("dd if=/dev/zero of=/dev/da0 bs=1m", 1 << 30, 180e6);
        let s = sys(Platform::Freebsd, vec![zfs, ufs, unknown, raw]);
        let v: Vec<Verdict> = ZeroSource.run(&s).iter().map(|f| f.verdict).collect();
        assert_eq!(
            v,
            vec![
                Verdict::Problem,
                Verdict::Pass,
                Verdict::Unknown,
                Verdict::Pass
            ]
        );
    }

    #[test]
    fn buffered_devices_old_bsd_and_linux() {
        let s = sys(
            Platform::Freebsd,
            vec![
                dd(
                    "dd if=/dev/wd2 of=/dev/null bs=1m",
                    1_342_177_280,
                    9_859_716.0,
                ),
                dd(
                    "dd if=/dev/rwd2 of=/dev/null bs=1m",
                    1_342_177_280,
                    9_827_465.0,
                ),
                dd("dd if=/dev/ada0 of=/dev/null bs=1m", 1 << 30, 500e6),
            ],
        );
        let f = BufferedDevice.run(&s);
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].device.as_str(), f[0].severity),
            ("wd2", Severity::Warning)
        );
        assert!(
            f[0].explanation.contains("9.8 MB/s"),
            "{}",
            f[0].explanation
        );
        let s = sys(
            Platform::Linux,
            vec![
                dd("dd if=/dev/sda of=/dev/null bs=1M", 1 << 30, 200e6),
                dd(
                    "dd if=/dev/sda of=/dev/null bs=1M iflag=direct",
                    1 << 30,
                    190e6,
                ),
            ],
        );
        assert_eq!(
            verdicts(&BufferedDevice, &s),
            vec![(Verdict::Problem, Severity::Notice)]
        );
    }

    #[test]
    fn random_source_is_cpu_bound() {
        let s = sys(
            Platform::Linux,
            vec![dd("dd if=/dev/urandom of=/tmp/x bs=1M", 1 << 30, 250e6)],
        );
        assert_eq!(
            verdicts(&RandomSource, &s),
            vec![(Verdict::Problem, Severity::Warning)]
        );
        assert!(
            RandomSource
                .run(&sys(Platform::Linux, Vec::new()))
                .is_empty()
        );
    }
}
