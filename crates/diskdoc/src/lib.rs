//! diskdoc: why is my disk slow? The binary's library half: flags, commands, the wizard.
//!
//! ```text
//! diskdoc_sys::probe::collect(host, opts) ->  EvidenceBundle   the ONLY stage that touches the system
//! diskdoc_sys::bench::measure(request)    ->  bundle.benchmarks opt-in, consent first
//! diskdoc_core::facts::derive(&bundle)    ->  SystemFacts       pure parsing, every OS's parsers
//! diskdoc_core::checks::run_all(&facts)   ->  Vec<Finding>      pure, one file per check
//! commands / wizard                       ->  screen, text, JSON presentation only
//! replay: report.json -> bundle -> facts::derive -> checks -> same renderers, no I/O at all
//! ```
//!
//! Imports run down the crate graph only: this crate -> diskdoc-sys -> diskdoc-core.
#![deny(unsafe_code)]

pub mod cli;
pub mod commands;
pub mod error;
pub mod limits;
pub mod out;
pub mod target;
pub mod wizard;
