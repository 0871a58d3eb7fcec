//! Command dispatch: turns parsed flags into calls of the libraries and an exit code
//! (0 no finding at warning or above, 1 such findings, 2 usage or runtime error). One file
//! per subcommand below; what several commands share (probing, `--device` selection) is here.

pub mod bench;
pub mod check;
pub mod compare;
pub mod explain;
pub mod replay;
pub mod scan;
pub mod wizard;

pub use crate::error::{AppResult, UserError};

use std::ffi::OsString;
use std::path::Path;

use clap::Parser;

use crate::cli::{Cli, Command};
use diskdoc_core::checks;
use diskdoc_core::evidence::EvidenceBundle;
use diskdoc_core::facts::{self, SystemFacts};
use diskdoc_core::report::redact;
use diskdoc_sys::probe::{self, ProbeOptions};

pub fn main_with_args(args: Vec<OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => 2,
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("diskdoc: {e}");
            2
        }
    }
}

pub fn run(cli: Cli) -> AppResult {
    if cli.list_checks {
        crate::out!("{}", list_checks());
        return Ok(0);
    }
    let json = cli.wizard.json;
    let device = cli.wizard.device.clone();
    let redact = !cli.wizard.no_redact;
    match cli.command {
        Some(Command::Scan { evidence_out }) => {
            let bundle = probe_live(device.as_deref())?;
            save_bundle(&bundle, evidence_out.as_deref(), redact)?;
            let device = resolve_device(&bundle, device);
            let all = facts::derive(&bundle);
            let sys = select_live_device(&bundle, all.clone(), device.as_deref())?;
            scan::print_facts(&private_facts(&bundle, &all, sys, redact)?, json);
            Ok(0)
        }
        Some(Command::Check { evidence_out }) => {
            let bundle = probe_live(device.as_deref())?;
            save_bundle(&bundle, evidence_out.as_deref(), redact)?;
            let device = resolve_device(&bundle, device);
            let all = facts::derive(&bundle);
            let sys = select_live_device(&bundle, all.clone(), device.as_deref())?;
            let findings = checks::run_all(&sys);
            let code = checks::exit_code(&findings);
            check::print_findings(
                &private_findings(&bundle, &all, &sys, findings, redact)?,
                json,
            );
            Ok(code)
        }
        Some(Command::Replay { file, format }) => replay::replay(
            &file,
            &format,
            device.as_deref(),
            json,
            cli.wizard.no_redact,
        ),
        Some(Command::Bench(args)) => bench::run(&args, device.as_deref(), json, redact),
        Some(Command::Explain { files, format }) => {
            let format = if json { "json".to_string() } else { format };
            explain::run(&files, &format, redact).map_err(UserError)
        }
        Some(Command::Compare { before, after }) => {
            compare::compare(&before, &after, json, cli.wizard.no_redact)
        }
        None => wizard::run_wizard(&cli.wizard),
    }
}

/// Probe this machine (only the named device when given).
pub fn probe_live(device: Option<&str>) -> Result<EvidenceBundle, UserError> {
    let opts = ProbeOptions {
        device: device.map(str::to_string),
        with_tools: true,
    };
    Ok(probe::live(&opts))
}

/// Map a partition, /dev/mapper or by-id link, or a path on a mounted filesystem to the
/// disk name the facts use (Linux bundles; others keep the name as given).
pub fn resolve_device(bundle: &EvidenceBundle, device: Option<String>) -> Option<String> {
    match bundle.platform {
        diskdoc_core::evidence::Platform::Linux => {
            device.map(|d| facts::linux::resolve_target(bundle, &d))
        }
        _ => device,
    }
}

pub fn load_bundle(path: &Path) -> Result<EvidenceBundle, UserError> {
    EvidenceBundle::load(path).map_err(|e| UserError(e.to_string()))
}

/// Write `--evidence-out`: redacted (secrets as tokens) unless `--no-redact`.
pub fn save_bundle(
    bundle: &EvidenceBundle,
    out: Option<&Path>,
    redact: bool,
) -> Result<(), UserError> {
    if let Some(p) = out {
        let text = if redact {
            redact::redact_bundle(bundle).to_json()
        } else {
            bundle.to_json()
        };
        std::fs::write(p, text)
            .map_err(|e| UserError(format!("cannot write {}: {e}", p.display())))?;
    }
    Ok(())
}

const UNREDACTABLE: &str = "redaction could not rewrite the output; --no-redact prints it as found";

/// The facts to print: redacted with the tokens of the whole run unless `--no-redact`.
fn private_facts(
    bundle: &EvidenceBundle,
    all: &SystemFacts,
    sys: SystemFacts,
    redact: bool,
) -> Result<SystemFacts, UserError> {
    if !redact {
        return Ok(sys);
    }
    redact::redact_facts(bundle, all, &sys).ok_or_else(|| UserError(UNREDACTABLE.into()))
}

/// The findings to print: redacted with the tokens of the whole run unless `--no-redact`.
fn private_findings(
    bundle: &EvidenceBundle,
    all: &SystemFacts,
    sys: &SystemFacts,
    findings: Vec<checks::Finding>,
    redact: bool,
) -> Result<Vec<checks::Finding>, UserError> {
    if !redact {
        return Ok(findings);
    }
    redact::redact_findings(bundle, all, sys, &findings)
        .ok_or_else(|| UserError(UNREDACTABLE.into()))
}

/// Keep only the named device; an unknown name is a usage error listing what exists.
pub fn select_device(mut sys: SystemFacts, device: Option<&str>) -> Result<SystemFacts, UserError> {
    let Some(dev) = device else { return Ok(sys) };
    let name = dev.trim_start_matches("/dev/");
    if sys.disks.iter().any(|d| d.name == name) {
        sys.disks.retain(|d| d.name == name);
        Ok(sys)
    } else {
        let names: Vec<&str> = sys.disks.iter().map(|d| d.name.as_str()).collect();
        Err(UserError(format!(
            "no block device named {dev:?}; known devices: {}",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )))
    }
}

/// Like [`select_device`] for a live probe: a `--device` probe captured only that device,
/// so an unknown name is answered with the block devices the machine lists.
pub fn select_live_device(
    bundle: &EvidenceBundle,
    sys: SystemFacts,
    device: Option<&str>,
) -> Result<SystemFacts, UserError> {
    select_device(sys, device).map_err(|e| match device {
        Some(dev) => UserError(facts::device_names::unknown_device_message(
            dev,
            &facts::device_names::listed(bundle),
        )),
        None => e,
    })
}

pub fn list_checks() -> String {
    let mut s = String::new();
    for c in checks::CHECKS {
        s.push_str(&format!("{:<28} {}\n", c.id(), c.summary()));
    }
    s
}
