//! Native read/write tests. Results are plain data stored in the evidence bundle so that a
//! replayed report shows them and the findings derived from them.

pub mod cdm;
pub mod engine;
pub mod error;
pub mod geometry;
pub mod honesty;
pub mod measure;
pub mod plan;
pub mod preset;
pub mod progress;
pub mod random;
pub mod rawdev;
pub mod runner;
pub mod safety;
pub mod scratch;
pub mod stats;
pub mod suite;
pub mod sustained;
pub mod tsc;
pub mod zfs;

pub use diskdoc_core::evidence::{BenchError, BenchResult, LatencySummary, StopReason, TestName};
