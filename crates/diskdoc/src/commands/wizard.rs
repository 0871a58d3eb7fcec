//! The guided wizard (`diskdoc` with no subcommand): flags to [`crate::wizard::Config`], the
//! prompter for this terminal, and the JSON report on stdout with `--json`.

use diskdoc_core::facts;

use crate::error::{AppResult, UserError};

/// The guided wizard (no subcommand).
pub(crate) fn run_wizard(args: &crate::cli::WizardArgs) -> AppResult {
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
    // A signal at a prompt ends the wizard at once (130); during its tests (measure marks
    // itself busy) the tests stop, and the wizard reports where it stopped.
    diskdoc_sys::interrupt::install();
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
        let (_, json) = wizard::reports::reports(b, &sys, &outcome.findings, cfg.redact);
        crate::outln!("{json}");
    }
    Ok(outcome.exit_code)
}
