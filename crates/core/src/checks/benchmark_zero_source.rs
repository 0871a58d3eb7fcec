//! `benchmark-zero-source`: writes of zeros to a compressing or deduplicating target (ZFS lz4, SSD controllers) that never reach the disk. See pasted_common.rs.

use super::pasted_common::*;
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::facts::SystemFacts;

pub(crate) struct ZeroSource;
impl Check for ZeroSource {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-zero-source"
    }
    fn label(&self) -> &'static str {
        "Your test: /dev/zero"
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
            if is_sink(output) {
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
                        format!(
                            "/dev/zero into {}: {} nothing",
                            if fs.is_empty() { "a file" } else { fs },
                            b.bytes_per_sec.map(|r| format!("the {} measures", mbs(r))).unwrap_or_else(|| "it measures".into())
                        ),
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
