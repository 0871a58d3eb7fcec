//! diskdoc-core: the pure half of diskdoc. Everything here is a function of data: an
//! evidence bundle in, facts, findings and reports out. No I/O on a machine, no libc, no
//! raw pointers (the forbid below); it compiles and tests on every OS, so FreeBSD bundles
//! are analysed on Linux CI.
//!
//! ```text
//! facts::derive(&bundle)      ->  SystemFacts         pure parsing, every OS's parsers (sources/)
//! checks::run_all(&facts)     ->  Vec<Finding>        pure, one file per check
//! report::Report::new(...)    ->  Report              the envelope every command emits
//! explain::explain(pastes)    ->  the same bundle keys -> the same facts and checks
//! answer::{explain, replay}   ->  the text a front end prints (the binary, the web page)
//! ```
//!
//! Module order is import order: `evidence`, `confidence` <- `plan`, `units`, `model` <- `sources` <-
//! `pasted` <- `facts` <- `checks` <- `explain`, `report` <- `answer` (tests/it/layering.rs keeps it so).
//!
//! Visibility: a module is `pub(crate)` unless another crate uses it, so the compiler
//! reports its dead code. What stays `pub` is what the other crates use: diskdoc-sys (the
//! probes and benchmarks: `evidence`, `plan`, `facts`, `checks`, `safety`, the source specs
//! and parsers the probes fill and read), the binary (`answer`, `report`, `render`,
//! `explain`, `sanitize`, `units`, `model`, `confidence`), crates/web (`answer`), and the
//! test binaries (tests/it; tests/fuzz reaches every parser it mutates through
//! `sources::*`). A module made `pub` for a new caller is a decision, not a default.
#![forbid(unsafe_code)]

// The tool modules and the types they write live in diskdoc-sources (a crate of their own so
// each .crate stays under crates.io's size); their paths here are unchanged.
pub use diskdoc_sources::{confidence, evidence, model, sources, units};
pub(crate) use diskdoc_sources::{rx, sort};

pub mod answer;
pub mod checks;
pub mod explain;
pub mod facts;
pub(crate) mod pasted;
pub mod plan;
pub mod render;
pub mod report;
pub mod safety;
pub mod sanitize;
