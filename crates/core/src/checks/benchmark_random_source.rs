//! `benchmark-random-source`: dd from /dev/urandom or /dev/random, which measures the kernel CSPRNG, not the disk (random(4)). See pasted_common.rs.

use super::pasted_common::*;
use super::{Check, CheckInput, Confidence, Finding, Severity, Verdict};
use crate::facts::SystemFacts;

pub(crate) struct RandomSource;
impl Check for RandomSource {
    fn input(&self) -> CheckInput {
        CheckInput::Pasted
    }
    fn id(&self) -> &'static str {
        "benchmark-random-source"
    }
    fn label(&self) -> &'static str {
        "Your test: /dev/random"
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
