//! diskdoc-sources: the lowest layer of diskdoc's pure core. One module per tool under
//! `sources` (how to capture it, recognise it in a paste, parse it, the facts it yields,
//! where its secrets are), and the vocabulary those parsers write: `evidence` (what was
//! captured and how), `model` (the typed facts), `units`, `confidence` (intervals of measured
//! rates) and `sort`. No I/O on a machine, no libc, no raw pointers (the forbid below).
//!
//! diskdoc-core re-exports every module here under its old path (`diskdoc_core::sources`,
//! `diskdoc_core::evidence`, ...), so the split is invisible to the other crates; it exists
//! so each crate stays a size crates.io takes (scripts/package-check.sh, 1 MiB).
//!
//! Module order is import order: `evidence`, `confidence`, `units`, `sort` <- `model` <-
//! `sources` (tests/it/layering.rs keeps it so, together with diskdoc-core's modules above).
#![forbid(unsafe_code)]

pub mod confidence;
pub mod evidence;
pub mod model;
pub mod sort;
pub mod sources;
pub mod units;
