//! Command dispatch: turns parsed flags into calls of the library and an exit code
//! (0 no finding at warning or above, 1 such findings, 2 usage or runtime error).

use std::ffi::OsString;
use std::path::Path;

use clap::Parser;

use crate::checks;
use crate::cli::{Cli, Command};
use crate::evidence::EvidenceBundle;
use crate::facts::{self, Fact, SystemFacts};
use crate::probe::{self, ProbeOptions};

/// A user-facing error: one line, exit code 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl std::fmt::Display for UserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub type AppResult = Result<i32, UserError>;

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
    match cli.command {
        Some(Command::Scan { evidence_out }) => {
            let bundle = probe_live(device.as_deref())?;
            save_bundle(&bundle, evidence_out.as_deref())?;
            let device = resolve_device(&bundle, device);
            let sys = select_live_device(&bundle, facts::derive(&bundle), device.as_deref())?;
            print_facts(&sys, json);
            Ok(0)
        }
        Some(Command::Check { evidence_out }) => {
            let bundle = probe_live(device.as_deref())?;
            save_bundle(&bundle, evidence_out.as_deref())?;
            let device = resolve_device(&bundle, device);
            let sys = select_live_device(&bundle, facts::derive(&bundle), device.as_deref())?;
            let findings = checks::run_all(&sys);
            print_findings(&findings, json);
            Ok(checks::exit_code(&findings))
        }
        Some(Command::Replay { file, format }) => crate::report::cli::replay(
            &file,
            &format,
            device.as_deref(),
            json,
            cli.wizard.no_redact,
        ),
        Some(Command::Bench(args)) => crate::bench::cli::run(&args, device.as_deref(), json),
        Some(Command::Explain { files, format }) => {
            let format = if json { "json".to_string() } else { format };
            crate::explain::cli::run(&files, &format).map_err(UserError)
        }
        Some(Command::Compare { before, after }) => {
            crate::report::cli::compare(&before, &after, json, cli.wizard.no_redact)
        }
        None => run_wizard(&cli.wizard),
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
        crate::evidence::Platform::Linux => {
            device.map(|d| facts::linux::resolve_target(bundle, &d))
        }
        _ => device,
    }
}

pub fn load_bundle(path: &Path) -> Result<EvidenceBundle, UserError> {
    EvidenceBundle::load(path).map_err(|e| UserError(e.to_string()))
}

fn save_bundle(bundle: &EvidenceBundle, out: Option<&Path>) -> Result<(), UserError> {
    if let Some(p) = out {
        std::fs::write(p, bundle.to_json())
            .map_err(|e| UserError(format!("cannot write {}: {e}", p.display())))?;
    }
    Ok(())
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

fn show<T: std::fmt::Display>(f: &Fact<T>) -> String {
    match f {
        Fact::Known { value, .. } => value.to_string(),
        Fact::Unknown { why } => format!("unknown ({why})"),
    }
}

fn show_with<T>(f: &Fact<T>, fmt: impl Fn(&T) -> String) -> String {
    match f {
        Fact::Known { value, .. } => fmt(value),
        Fact::Unknown { why } => format!("unknown ({why})"),
    }
}

/// Human-readable facts, one block per disk.
pub fn render_facts(sys: &SystemFacts) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "{} {} on {}\n",
        show(&sys.os_name),
        show(&sys.os_release),
        show(&sys.cpu_model)
    ));
    for d in &sys.disks {
        s.push_str(&format!("\n{} ({})\n", d.name, d.dev_path));
        let rows: Vec<(&str, String)> = vec![
            ("class", show_with(&d.class, |c| c.label().to_string())),
            ("model", show(&d.model)),
            ("firmware", show(&d.firmware)),
            (
                "size",
                show_with(&d.size_bytes, |b| {
                    format!("{b} bytes ({})", human_bytes(*b))
                }),
            ),
            (
                "sectors",
                format!(
                    "logical {}, physical {}, alignment offset {}",
                    show(&d.logical_sector_bytes),
                    show(&d.physical_sector_bytes),
                    show(&d.alignment_offset_bytes)
                ),
            ),
            ("rotational", show(&d.rotational)),
            (
                "rotation rate",
                show_with(&d.rotation_rpm, |r| {
                    if *r == 0 {
                        "non-rotating".into()
                    } else {
                        format!("{r} rpm")
                    }
                }),
            ),
            (
                "transport",
                show_with(&d.transport, |t| format!("{t:?}").to_lowercase()),
            ),
            (
                "controller",
                show_with(&d.controller, |c| {
                    let mut parts = Vec::new();
                    if let Some(m) = c.mode {
                        parts.push(format!("{m:?}"));
                    }
                    if let Some(dr) = &c.driver {
                        parts.push(format!("driver {dr}"));
                    }
                    if let Some(cl) = c.pci_class {
                        parts.push(format!("class 0x{cl:06x}"));
                    }
                    if let Some(desc) = &c.description {
                        parts.push(desc.clone());
                    }
                    parts.join(", ")
                }),
            ),
            (
                "SATA link",
                format!(
                    "current {}, drive max {}, port max {}",
                    show_with(&d.link_current_gbps, |g| format!("{g:.1} Gb/s")),
                    show_with(&d.link_drive_max_gbps, |g| format!("{g:.1} Gb/s")),
                    show_with(&d.link_port_max_gbps, |g| format!("{g:.1} Gb/s"))
                ),
            ),
            (
                "NCQ",
                format!(
                    "supported {}, drive depth {}, queue depth in use {}",
                    show(&d.ncq_supported),
                    show(&d.ncq_drive_depth),
                    show(&d.queue_depth)
                ),
            ),
            (
                "write cache",
                format!(
                    "supported {}, enabled {}",
                    show(&d.write_cache_supported),
                    show(&d.write_cache_enabled)
                ),
            ),
            ("scheduler", show(&d.scheduler)),
            (
                "partitions",
                show_with(&d.partition_table, |t| {
                    let parts: Vec<String> = t
                        .partitions
                        .iter()
                        .map(|p| {
                            format!("{} start {} ({} B)", p.name, p.start_sector, p.start_bytes)
                        })
                        .collect();
                    format!("{} [{}]", t.scheme, parts.join("; "))
                }),
            ),
        ];
        for (k, v) in rows {
            s.push_str(&format!("  {k:<14} {v}\n"));
        }
        for l in &d.layers {
            let kind = l
                .kind
                .map_or("unknown".to_string(), |k| format!("{k:?}").to_lowercase());
            let mut extra = Vec::new();
            if let Some(n) = &l.display_name {
                extra.push(n.clone());
            }
            if let Some(lv) = &l.level {
                extra.push(lv.clone());
            }
            if let Some(c) = &l.cipher {
                extra.push(match l.key_bits {
                    Some(b) => format!("{c} {b}-bit key"),
                    None => c.clone(),
                });
            }
            if let Some(i) = &l.crypto_impl {
                extra.push(format!("driver {i}"));
            }
            let extra = if extra.is_empty() {
                String::new()
            } else {
                format!(" ({})", extra.join(", "))
            };
            s.push_str(&format!(
                "  {:<14} {} {kind} on {}{extra}\n",
                "layer",
                l.name,
                l.on.join(",")
            ));
        }
        if let Fact::Known { value: t, .. } = &d.partition_table {
            for p in t.partitions.iter().filter(|p| !p.children.is_empty()) {
                for c in &p.children {
                    s.push_str(&format!(
                        "  {:<14} {} in {} start {} ({} B)\n",
                        "label entry", c.name, p.name, c.start_sector, c.start_bytes
                    ));
                }
            }
            for n in &t.notes {
                s.push_str(&format!("  {:<14} {n}\n", "table note"));
            }
        }
        for n in &d.notes {
            s.push_str(&format!("  {:<14} {n}\n", "note"));
        }
        for m in &d.mounts {
            s.push_str(&format!(
                "  {:<14} {} on {} ({})\n",
                "mount", m.source, m.mountpoint, m.fstype
            ));
        }
    }
    s
}

pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i < UNITS.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[i])
    }
}

pub(crate) fn print_facts(sys: &SystemFacts, json: bool) {
    if json {
        crate::outln!("{}", serde_json::to_string_pretty(sys).unwrap_or_default());
    } else {
        crate::out!("{}", render_facts(sys));
    }
}

pub(crate) fn print_findings(findings: &[checks::Finding], json: bool) {
    if json {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(findings).unwrap_or_default()
        );
        return;
    }
    let problems: Vec<_> = findings.iter().filter(|f| f.is_problem()).collect();
    if problems.is_empty() {
        crate::outln!("No problems found ({} checks looked).", findings.len());
    }
    for f in problems {
        crate::outln!(
            "[{}] {} {}: {}",
            f.severity.label(),
            f.device,
            f.check,
            f.title
        );
        for line in f.explanation.lines() {
            crate::outln!("    {line}");
        }
    }
    for f in findings
        .iter()
        .filter(|f| f.verdict == checks::Verdict::Unknown)
    {
        crate::outln!("[unknown] {} {}: {}", f.device, f.check, f.title);
    }
}

/// The guided wizard (no subcommand).
fn run_wizard(args: &crate::cli::WizardArgs) -> AppResult {
    use crate::wizard::{self, Config};
    use std::io::IsTerminal;
    let ascii = !wizard::sanitize::locale_is_utf8();
    let cfg = Config {
        device: args.device.clone(),
        yes: args.yes,
        no_bench: args.no_bench,
        quick: args.quick,
        report: args.report.clone(),
        json: args.json,
        redact: !args.no_redact,
        ascii,
    };
    let tty = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    wizard::check_interactive(&cfg, tty).map_err(UserError)?;
    if std::env::var_os("NO_COLOR").is_some() {
        console::set_colors_enabled(false);
    }
    crate::interrupt::install();
    let mut machine = wizard::LiveMachine;
    let outcome = if cfg.yes || !tty {
        let mut p = if cfg.json {
            wizard::AutoPrompter {
                out: Box::new(std::io::stderr()),
            }
        } else {
            wizard::AutoPrompter::stdout()
        };
        wizard::run(&cfg, &mut p, &mut machine)
    } else {
        let mut p = wizard::TerminalPrompter::new(console::colors_enabled() && !ascii, cfg.json);
        wizard::run(&cfg, &mut p, &mut machine)
    };
    // --json: the conversation went to stderr; stdout carries only the JSON report.
    if let (true, Some(b)) = (cfg.json, &outcome.bundle) {
        let sys = facts::derive(b);
        let (_, json) = wizard::engine_glue::reports(b, &sys, &outcome.findings, cfg.redact);
        crate::outln!("{json}");
    }
    Ok(outcome.exit_code)
}
