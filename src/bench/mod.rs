//! Native read/write tests. Results are plain data stored in the evidence bundle so that a
//! replayed report shows them and the findings derived from them.

use serde::{Deserialize, Serialize};

pub mod cli;
pub mod engine;
pub mod plan;
pub mod progress;
pub mod runner;
pub mod safety;
pub mod scratch;
pub mod stats;
pub mod tests;
pub mod tsc;
#[cfg(target_os = "linux")]
pub mod uring;

/// Latency percentiles of one test, nanoseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchError {
    /// errno name: EIO, ENOSPC, ENODEV, EROFS...
    pub kind: String,
    /// Byte offset of the failing I/O on the target.
    pub offset_bytes: u64,
    pub message: String,
}

/// One measured test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct BenchResult {
    /// seq-read, bs-sweep, rand-read, seq-write, sync-write, layer-cost, raw-write.
    pub test: String,
    /// What was read or written: /dev/sda, /home/u/.diskdoc-scratch-1234.
    pub target: String,
    /// The disk the target lives on (sda), for tying results to facts.
    pub disk: String,
    /// Distinguishes runs of one test: "outer", "middle", "inner", "bs=4096", "qd32",
    /// "buffered bs=512", "layer dm-0".
    pub label: String,
    pub block_size_bytes: u64,
    pub queue_depth: u32,
    /// O_DIRECT (cache bypassed).
    pub direct: bool,
    /// Where the test started on the target.
    pub offset_bytes: u64,
    pub bytes: u64,
    pub ios: u64,
    pub elapsed_ns: u64,
    pub bytes_per_sec: f64,
    pub iops: f64,
    pub latency: Option<LatencySummary>,
    /// Relative spread of per-interval throughput (coefficient of variation, %).
    pub spread_pct: Option<f64>,
    /// Why the test stopped: "stable", "budget", "size", "interrupted", "error".
    pub stop_reason: String,
    pub error: Option<BenchError>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}
