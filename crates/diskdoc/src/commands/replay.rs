//! `diskdoc replay FILE [--format text|markdown|json]`: load any report diskdoc wrote (every
//! kind, every schema version) or an evidence bundle, re-derive it with this diskdoc by the
//! rule of the command that wrote it (diskdoc_core::answer::replay_report), render. The exit status is
//! the one the original run would have had. Errors are one line naming the file, the problem
//! and the schema version (exit 2 via `Error`).

use std::path::Path;

use crate::cli::ReplayArgs;
use crate::commands::{AppResult, Error, ExitStatus, emit, select_device};
use crate::limits::InputBudget;
use diskdoc_core::answer;
use diskdoc_core::report::{self, Loaded};

pub(crate) fn load(path: &Path) -> Result<Loaded, Error> {
    load_within(path, &mut InputBudget::new("replay"))
}

/// Load within a command's input budget (the read is capped here, where the file is read).
pub(crate) fn load_within(path: &Path, budget: &mut InputBudget) -> Result<Loaded, Error> {
    let bytes = budget.read_file(path)?;
    diskdoc_core::answer::load(&path.display().to_string(), &bytes).map_err(Error::from)
}

/// `diskdoc replay FILE`.
pub fn replay(args: &ReplayArgs) -> AppResult {
    // Check the format before reading, so a usage error is reported as such.
    args.output.format()?;
    let mut loaded = load(&args.file)?;
    if let Some(dev) = &args.device {
        // FreeBSD's machine-wide captures (dmesg, gpart, zpool status, ...) list every
        // disk: cut them to the one asked for before re-deriving, as `scan --device` does
        // on the machine, so neither the findings nor the embedded evidence speak of the
        // other disks. Linux captures are per device already.
        diskdoc_sys::probe::scope_replay_to_device(&mut loaded.bundle, dev);
    }
    // The web page replays through the same function (without `--device`).
    let mut r = answer::replay_report(loaded, report::current_argv());
    if let Some(dev) = &args.device {
        // A partition, label or path maps to its disk from the replayed captures, as on the
        // machine itself (scan/check resolve the same way); only disks the report covers
        // can be chosen.
        let resolved = crate::commands::resolve_device(&r.bundle, Some(dev.clone()));
        r.facts = select_device(r.facts, resolved.as_deref())?;
        let names: Vec<String> = r.facts.disks.iter().map(|d| d.name.clone()).collect();
        r.findings
            .retain(|f| f.device == "system" || names.contains(&f.device));
        r.exit_status = report::exit_status(r.derivation(), &r.findings, &r.bundle.benchmarks);
        r.scope = names;
    }
    emit(&r, &args.output, answer::replay_text)?;
    Ok(ExitStatus::from_code(r.exit_status))
}
