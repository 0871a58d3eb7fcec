//! diskdoc: why is my disk slow?
//!
//! ```text
//! probe::collect(opts, host)  ->  EvidenceBundle      the ONLY stage that touches the system
//! bench::run(plan, engine)    ->  bundle.benchmarks   opt-in, consent first
//! facts::derive(&bundle)      ->  SystemFacts         pure parsing, every OS's parsers everywhere
//! checks::run_all(&facts)     ->  Vec<Finding>        pure, one file per check
//! wizard / report             ->  screen, text, JSON  presentation only
//! replay: report.json -> bundle -> facts::derive -> checks -> same renderers, no I/O at all
//! ```
#![deny(unsafe_code)]

pub mod app;
pub mod bench;
pub mod checks;
pub mod cli;
pub mod evidence;
pub mod exec;
pub mod explain;
pub mod facts;
pub mod host;
pub mod interrupt;
pub mod out;
pub mod probe;
pub mod report;
pub mod wizard;
