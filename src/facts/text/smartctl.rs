//! smartctl output (`smartctl -j -a` JSON preferred, `smartctl -a/-x` text fallback).

use crate::facts::DiskFacts;

/// Fill the disk's SMART summary (and identity, link speeds, write cache, rotation when
/// not known yet) from one smartctl output; `from` is the capture key.
pub fn apply(_disk: &mut DiskFacts, _from: &str, _output: &str) {}
