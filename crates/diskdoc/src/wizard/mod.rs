//! The guided wizard: welcome, symptoms, pick a disk, inspect, test, answer, save.
//!
//! All questions go through a [`Prompter`], all machine access through a [`Machine`], so a
//! whole run can be replayed from a script and snapshot-tested (tests/it/wizard_transcripts.rs).

pub mod machine;
pub mod prompter;
pub mod render;
pub mod reports;
pub mod sanitize;
pub mod symptoms;

use std::path::{Path, PathBuf};

use diskdoc_core::checks::{self, Finding};
use diskdoc_core::evidence::{EvidenceBundle, SourceKey};
use diskdoc_core::facts::{self, DiskFacts, SystemFacts};
use diskdoc_core::report::{self, Pasted, Report, ReportKind};
use diskdoc_core::sources::{ask_bare, spec::Ask};
pub use machine::{Access, LiveMachine, Machine, Offer, ScratchPlace, TestGroup};
pub use prompter::{
    AutoPrompter, Interrupted, Prompter, Scripted, ScriptedPrompter, TerminalPrompter,
};

/// Flags that shape a run.
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub device: Option<String>,
    pub yes: bool,
    pub no_bench: bool,
    pub quick: bool,
    /// `--report PATH` (`-`: the text report on standard output).
    pub report: Option<PathBuf>,
    pub redact: bool,
    /// Plain ASCII output (non-UTF-8 terminal).
    pub ascii: bool,
    /// `--scratch-dir DIR`: where the write tests' scratch file goes (default: the current
    /// directory), as for `diskdoc bench`.
    pub scratch_dir: Option<PathBuf>,
}

/// What a run ended with.
#[derive(Debug)]
pub struct Outcome {
    /// 0 no finding at warning or above, 1 such findings, 2 error, 128 + the signal's
    /// number when stopped (130 Ctrl-C, 129 SIGHUP, 131 SIGQUIT, 143 SIGTERM).
    pub exit_code: i32,
    pub findings: Vec<Finding>,
    /// The evidence (with benchmark results) the answer was based on.
    pub bundle: Option<EvidenceBundle>,
    /// Files written (reports).
    pub saved: Vec<PathBuf>,
    /// The report of the run (unredacted; what was saved, before redaction).
    pub report: Option<Report>,
}

/// Where a stop came, in the words of what the user saw (the steps carry no numbers on
/// screen, so a message never names one).
const STEPS: [&str; 7] = [
    "at the start",
    "at the question about what feels slow",
    "while choosing the disk",
    "after the inspection",
    "during the tests",
    "at the answer",
    "while saving the report",
];

struct Run<'a> {
    cfg: &'a Config,
    p: &'a mut dyn Prompter,
    m: &'a mut dyn Machine,
    done: Vec<String>,
    saved: Vec<PathBuf>,
    /// A write test made its scratch file (and removed it: scratch files have no name and
    /// are freed when closed, bench/scratch.rs), so a stop never says "no file was written".
    wrote_scratch: bool,
}

/// Run the wizard to the end (or until the user stops it).
pub fn run(cfg: &Config, p: &mut dyn Prompter, m: &mut dyn Machine) -> Outcome {
    let mut r = Run {
        cfg,
        p,
        m,
        done: Vec::new(),
        saved: Vec::new(),
        wrote_scratch: false,
    };
    match r.flow() {
        Ok(o) => o,
        Err((step, Interrupted)) => {
            let what = if r.done.is_empty() {
                "nothing yet".to_string()
            } else {
                r.done.join("; ")
            };
            let left = match (r.wrote_scratch, r.saved.is_empty()) {
                (false, true) => ": no file was written",
                (false, false) => " but the reports you saved",
                (true, true) => {
                    ": the write tests' scratch file was removed, and no other file was written"
                }
                (true, false) => {
                    ": the write tests' scratch file was removed; the reports you saved are kept"
                }
            };
            r.p.say(&format!(
                "\nStopped {}. Done so far: {what}. Nothing was left behind{left}.",
                STEPS.get(step).copied().unwrap_or("before the end"),
            ));
            Outcome {
                // 130 for Ctrl-C at a prompt; a signal during the tests gives its own.
                exit_code: diskdoc_sys::interrupt::exit_status(),
                findings: Vec::new(),
                bundle: None,
                saved: r.saved,
                report: None,
            }
        }
    }
}

type Step<T> = Result<T, (usize, Interrupted)>;

fn at<T>(step: usize, a: prompter::Answer<T>) -> Step<T> {
    a.map_err(|e| (step, e))
}

impl Run<'_> {
    /// Ask, or under --yes take the default and say so (so a --yes run never blocks).
    fn select(
        &mut self,
        step: usize,
        prompt: &str,
        items: &[String],
        default: usize,
    ) -> Step<usize> {
        if self.cfg.yes {
            let shown = items.get(default).map(String::as_str).unwrap_or("?");
            self.p
                .say(&format!("{prompt} {} (--yes)", shown.trim_end()));
            return Ok(default);
        }
        at(step, self.p.select(prompt, items, default))
    }
    /// `default`: None for a question whose yes writes (a blank line is no answer there;
    /// under --yes it is a no).
    fn confirm(&mut self, step: usize, prompt: &str, default: Option<bool>) -> Step<bool> {
        if self.cfg.yes {
            let v = default.unwrap_or(false);
            self.p.say(&format!(
                "{prompt} {} (--yes)",
                if v { "yes" } else { "no" }
            ));
            return Ok(v);
        }
        at(step, self.p.confirm(prompt, default))
    }
    fn input(&mut self, step: usize, prompt: &str, default: &str) -> Step<String> {
        if self.cfg.yes {
            self.p.say(&format!("{prompt} {default} (--yes)"));
            return Ok(default.to_string());
        }
        at(step, self.p.input(prompt, default))
    }

    /// A multi-line paste; under --yes nothing is pasted.
    fn paste(&mut self, step: usize, prompt: &str) -> Step<String> {
        if self.cfg.yes {
            self.p.say(&format!("{prompt} (skipped: --yes)"));
            return Ok(String::new());
        }
        at(step, self.p.paste(prompt))
    }

    fn stop(&self, bundle: EvidenceBundle) -> Outcome {
        Outcome {
            exit_code: 2,
            findings: Vec::new(),
            bundle: Some(bundle),
            saved: Vec::new(),
            report: None,
        }
    }

    fn flow(&mut self) -> Step<Outcome> {
        // 1. Welcome
        let root = self.m.is_root();
        self.p.say(&render::welcome(root, self.m.platform()));
        if diskdoc_sys::interrupt::requested() {
            return Err((0, Interrupted));
        }
        // A named disk is resolved before any question, so a wrong name fails at once. With
        // --device only that disk and its stack are captured (nothing about the machine's
        // other disks goes into the report); when the scoped probe cannot resolve the name,
        // everything is probed so the answer can list the disks there are.
        let mut bundle = self.m.probe(self.cfg.device.as_deref());
        let mut probed = facts::derive(&bundle);
        if let Some(dev) = &self.cfg.device {
            let scoped_ok = crate::target::resolve_in(&bundle, &probed, dev)
                .is_ok_and(|r| render::candidate_disks(&probed).contains(&r.disk));
            if !scoped_ok {
                let scoped = std::mem::replace(&mut bundle, self.m.probe(None));
                // What the path is and where it leads, as the scoped probe recorded them:
                // the target is resolved from the bundle alone.
                for key in [
                    SourceKey::Stat(dev.clone()),
                    SourceKey::RealPath(dev.clone()),
                ] {
                    if let Some(c) = scoped.get(&key) {
                        bundle.captures.entry(key.to_string()).or_insert(c.clone());
                    }
                }
                probed = facts::derive(&bundle);
            }
        }
        let candidates = render::candidate_disks(&probed);
        if candidates.is_empty() {
            self.p.say("diskdoc found no block devices to look at. Run as root, or check that /sys is mounted.");
            return Ok(self.stop(bundle));
        }
        let named = match &self.cfg.device {
            Some(dev) => match crate::target::resolve_in(&bundle, &probed, dev) {
                Ok(r) if candidates.contains(&r.disk) => Some(r),
                Ok(r) => {
                    self.p.say(&format!(
                        "diskdoc: --device {dev:?} is {}, which has no medium to diagnose \
                         (size 0). Disks: {}.",
                        r.disk,
                        candidates.join(", ")
                    ));
                    return Ok(self.stop(bundle));
                }
                Err(e) => {
                    self.p.say(&format!("diskdoc: {e}"));
                    return Ok(self.stop(bundle));
                }
            },
            None => None,
        };

        // 2. Symptoms
        let symptom_items: Vec<String> = symptoms::SYMPTOMS.iter().map(|s| s.to_string()).collect();
        let skip = symptom_items.len() - 1;
        let symptom = self.select(1, "What feels slow?", &symptom_items, skip)?;
        let symptom_text = (symptom != skip)
            .then(|| symptoms::SYMPTOMS.get(symptom).map(|s| s.to_string()))
            .flatten();
        if let Some(t) = &symptom_text {
            self.done.push(format!("symptom: {t}"));
        }
        let pasted = self.paste(
            1,
            &format!(
                "Paste a command you ran and its whole output (dd, hdparm -t, fio,\n\
                 {} ...), then an empty line; or just Enter to skip:",
                ask_bare(Ask::SmartProgram)
            ),
        )?;
        let mut user_benchmarks = symptoms::parse_pasted(&pasted);
        if !pasted.trim().is_empty() {
            self.p
                .say(&render::pasted_summary(&user_benchmarks, self.cfg.ascii));
        }

        // 3. Pick the disk
        let mut sys = probed;
        sys.user_benchmarks = user_benchmarks.clone();
        let (disk_name, why) = match named {
            Some(r) => (r.disk, r.why),
            None => {
                let (default, why) = match pasted_disk(&bundle, &sys, &user_benchmarks, &candidates)
                {
                    Some(chosen) => chosen,
                    None => self.default_disk(&sys, &candidates),
                };
                // A --yes run prints a transcript people paste: its disk list (mount points
                // under homes) is redacted like a report. An interactive chooser is not.
                let shown = if self.cfg.redact && self.cfg.yes {
                    diskdoc_core::report::redact::redact_facts(&bundle, &sys, &sys)
                        .unwrap_or_else(|| SystemFacts::empty(sys.platform))
                } else {
                    sys.clone()
                };
                // The column headings only: the menu below lists the disks (once).
                self.p
                    .say(render::disk_table(&shown, &[], self.cfg.ascii).trim_end());
                let items: Vec<String> = candidates
                    .iter()
                    .map(|n| render::disk_line(&shown, n, self.cfg.ascii))
                    .collect();
                let idx = self.select(2, "Which disk?", &items, default)?;
                let why = if idx == default {
                    why
                } else {
                    "you chose it".to_string()
                };
                let name = candidates
                    .get(idx)
                    .cloned()
                    .unwrap_or_else(|| candidates[0].clone());
                (name, why)
            }
        };
        let Some(disk) = sys.disk(&disk_name).cloned() else {
            self.p.say(&format!(
                "The disk {disk_name} vanished between steps; run diskdoc again."
            ));
            return Ok(self.stop(bundle));
        };
        self.done.push(format!("disk {}", disk.name));
        // The pasted runs' files, placed on this machine's filesystems and disks.
        let placed = symptoms::locate_pasted(&bundle, &sys, &disk.name, &mut user_benchmarks);
        sys.user_benchmarks = user_benchmarks.clone();
        for n in &placed {
            self.p.say(&render::note(n));
        }

        // 4. Inspect
        self.p
            .say(&format!("\nInspecting {} ({why}) ...", disk.dev_path));
        let scope = vec![disk.name.clone()];
        let mut findings =
            report::derive_findings(ReportKind::Wizard, &one_disk(&sys, &disk.name), &scope);
        // Step by step in the registry's order (controller first), not by rank.
        findings.sort_by_key(|f| {
            checks::CHECKS
                .iter()
                .position(|c| c.id() == f.check)
                .unwrap_or(usize::MAX)
        });
        for l in render::inspect_lines(&disk, &findings, self.cfg.ascii) {
            self.p.say(&l);
        }
        if findings.is_empty() {
            let class = disk.class.get().map(|c| c.label()).unwrap_or("unknown");
            self.p.say(&format!(
                "  No hardware check applies to a {class} device: it has no controller, link \
                 or drive of its own. The tests below still measure it."
            ));
        }
        let problems: Vec<&Finding> = findings.iter().filter(|f| f.is_problem()).collect();
        if !problems.is_empty() && !self.cfg.yes {
            let why = self.confirm(
                3,
                "Show the why and the evidence for the problems?",
                Some(false),
            )?;
            if why {
                for f in &problems {
                    self.p.say(&render::finding_detail(f, self.cfg.ascii));
                }
            }
        }
        self.done.push("inspection (read-only)".into());

        // 5. Tests
        let mut stopped_in: Option<&'static str> = None;
        if !self.cfg.no_bench {
            let place = ScratchPlace {
                dir: self.cfg.scratch_dir.clone().unwrap_or_else(|| self.m.cwd()),
                named: self.cfg.scratch_dir.is_some(),
            };
            let Offer {
                mut groups,
                withheld,
            } = self.m.test_groups(&sys, &disk, self.cfg.quick, &place);
            // The symptom decides what is offered first, and says why.
            if let Some((first, why)) = symptoms::focus(symptom) {
                self.p.say(&format!("\n{}", render::note(why)));
                if let Some(i) = groups.iter().position(|g| g.id == first) {
                    let g = groups.remove(i);
                    groups.insert(0, g);
                }
            }
            // What is not offered is said, with the way to get it, before the questions.
            if !withheld.is_empty() {
                self.p.say("");
            }
            for w in &withheld {
                self.p.say(&render::note(w));
            }
            for g in &groups {
                let prompt = render::test_prompt(g);
                // --yes accepts read-only tests only; writes always need an explicit yes,
                // typed: their question has no default, so a blank line never starts them.
                let default = g.read_only;
                let go = if self.cfg.yes {
                    self.p.say(&format!(
                        "{prompt} {}",
                        if default {
                            "yes (--yes)"
                        } else {
                            "skipped: --yes never writes"
                        }
                    ));
                    default
                } else {
                    self.confirm(4, &prompt, default.then_some(true))?
                };
                if !go {
                    self.done.push(format!("skipped the {} tests", g.id));
                    continue;
                }
                if !g.read_only {
                    self.wrote_scratch = true;
                }
                match self.m.run_group(&sys, &disk, g, self.cfg.quick) {
                    Ok(results) => {
                        self.p
                            .say(&render::results_table(&results, self.p.columns()));
                        self.done
                            .push(format!("{} tests ({} results)", g.id, results.len()));
                        bundle.benchmarks.extend(results);
                    }
                    Err(msg) => {
                        self.p
                            .say(&format!("The {} tests did not run: {msg}", g.id));
                        self.done.push(format!("{} tests failed to run", g.id));
                    }
                }
                if diskdoc_sys::interrupt::requested() {
                    diskdoc_sys::interrupt::clear();
                    // Ctrl-C stops the tests; what was measured is answered and may be
                    // saved. Any other signal (the terminal closed, SIGTERM) ends the run.
                    if diskdoc_sys::interrupt::cause() != "Ctrl-C" {
                        return Err((4, Interrupted));
                    }
                    stopped_in = Some(g.id);
                    break;
                }
            }
        }
        if let Some(id) = stopped_in {
            self.p.say(&render::note(&format!(
                "Stopped by Ctrl-C during the {id} tests. {}The answer below uses what was \
                 measured until then, and you can save it.",
                if self.wrote_scratch {
                    "The write tests' scratch file was removed. "
                } else {
                    ""
                }
            )));
        }

        // 6. Answer: the one derivation `diskdoc replay` repeats on the saved report.
        let mut rep = Report::derive(
            ReportKind::Wizard,
            bundle.clone(),
            user_benchmarks,
            scope,
            report::current_argv(),
        );
        rep.symptom = symptom_text;
        if !pasted.trim().is_empty() {
            rep.pasted = vec![Pasted {
                label: "wizard paste".into(),
                text: pasted,
            }];
        }
        let findings = rep.findings.clone();
        let shown = rep.facts.disk(&disk.name).cloned().unwrap_or(disk.clone());
        self.p.say(&render::answer(
            &rep.facts,
            &shown,
            &findings,
            self.cfg.ascii,
        ));
        let mut exit_code = rep.exit_status;
        if stopped_in.is_some() {
            exit_code = diskdoc_sys::interrupt::exit_status();
        }

        // 7. Save
        if !self.save_step(&rep, &disk.name)? {
            exit_code = 2;
        }
        Ok(Outcome {
            exit_code,
            findings,
            bundle: Some(bundle),
            saved: std::mem::take(&mut self.saved),
            report: Some(rep),
        })
    }

    /// Step 7. False when a report was to be saved and could not be (the run then ends with
    /// exit status 2, never 0): non-interactive runs stop there with the reason, interactive
    /// ones are asked for another path first.
    fn save_step(&mut self, rep: &Report, disk: &str) -> Step<bool> {
        if self.cfg.report.as_deref() == Some(Path::new("-")) {
            // `--report -`: the text report on standard output (the conversation went to
            // stderr, see commands/wizard.rs).
            match rep.share(self.cfg.redact).render(report::text::render) {
                // A closed pipe is remembered (crate::out::closed): exit status 141.
                Ok(text) => {
                    let _ = crate::out!("{text}");
                }
                Err(leak) => {
                    self.p.say(&format!("diskdoc: {leak}"));
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        // The name offered is one that is free (an earlier run's report keeps its name), in
        // a directory this user may write (a user who is not root, started from `/`, was
        // offered /diskdoc-loop0.txt).
        let default_path = match &self.cfg.report {
            Some(p) => Some(p.clone()),
            None if self.cfg.yes => None,
            None => {
                let (dir, why) = self.report_dir();
                if let Some(why) = why {
                    self.p.say(&render::note(&why));
                }
                dir.map(|d| free_report_name(&d.join(format!("diskdoc-{disk}.txt"))))
            }
        };
        let save = if self.cfg.report.is_some() {
            true
        } else if self.cfg.yes {
            false
        } else {
            let q = match &default_path {
                Some(p) => format!(
                    "Save the report (text for a mailing list, plus JSON) as {}?",
                    p.display()
                ),
                None => "Save the report (text for a mailing list, plus JSON)? You will be \
                         asked where."
                    .to_string(),
            };
            self.confirm(6, &q, Some(true))?
        };
        if !save {
            return Ok(true);
        }
        let interactive = self.cfg.report.is_none() && !self.cfg.yes;
        let mut path = if interactive {
            let shown = default_path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            let typed = self.input(6, "Report file", &shown)?;
            if typed.trim().is_empty() {
                self.p.say("No file name given: the report was not saved.");
                return Ok(true);
            }
            PathBuf::from(typed)
        } else {
            // Not interactive: --report named the path (checked above).
            default_path.unwrap_or_default()
        };
        // Both texts pass the final check before any file is made; a leak is no matter of
        // the path, so no other path is asked for.
        let shared = rep.share(self.cfg.redact);
        let texts = shared
            .render(report::text::render)
            .and_then(|t| Ok((t, shared.render(report::json::render)?)));
        let (text, json) = match texts {
            Ok(t) => t,
            Err(leak) => {
                self.p.say(&format!("diskdoc: {leak}"));
                return Ok(false);
            }
        };
        loop {
            match self.save_reports(&path, &text, &json) {
                Ok(()) => return Ok(true),
                Err(e) if interactive => {
                    self.p.say(&format!("Could not save the report: {e}"));
                    let again =
                        self.input(6, "Another report file (Enter alone: do not save)", "")?;
                    if again.trim().is_empty() {
                        return Ok(false);
                    }
                    path = PathBuf::from(again);
                }
                Err(e) => {
                    self.p.say(&format!(
                        "diskdoc: could not save the report: {e}. Choose another path with \
                         --report PATH."
                    ));
                    return Ok(false);
                }
            }
        }
    }

    /// Where the save question offers the report: the current directory when this user
    /// may create a file there, else their home directory when they may, with a sentence
    /// saying so; else no directory, and the sentence asks for a path.
    fn report_dir(&self) -> (Option<PathBuf>, Option<String>) {
        let cwd = self.m.cwd();
        if self.m.may_create_in(&cwd) {
            return (Some(cwd), None);
        }
        match self.m.home().filter(|h| self.m.may_create_in(h)) {
            Some(home) => {
                let why = format!(
                    "You cannot create files in the current directory {}: the report is \
                     offered in your home directory {} instead.",
                    cwd.display(),
                    home.display()
                );
                (Some(home), Some(why))
            }
            None => (
                None,
                Some(format!(
                    "You cannot create files in the current directory {} nor in a home \
                     directory: type a path where you can write (under /tmp, for example).",
                    cwd.display()
                )),
            ),
        }
    }

    /// The disk --device did not name: the one holding the current directory, else the
    /// first real disk; and why, for the "Inspecting" line.
    fn default_disk(&self, sys: &SystemFacts, candidates: &[String]) -> (usize, String) {
        let cwd = self.m.cwd();
        match render::disk_holding(sys, &cwd).and_then(|d| candidates.iter().position(|c| *c == d))
        {
            Some(i) => (
                i,
                format!("it holds the current directory {}", cwd.display()),
            ),
            None => (0, "the first disk diskdoc found".to_string()),
        }
    }

    /// Write the text report and the JSON beside it ([`report::report_paths`]), both new
    /// files: an existing name gets the next free `-2`, `-3` ... instead (never an
    /// overwrite, never a failure for that reason).
    fn save_reports(
        &mut self,
        path: &Path,
        text: &str,
        json: &str,
    ) -> Result<(), crate::error::Error> {
        let paths = report::report_paths(path);
        let mut n = 1;
        let text_path = loop {
            let (t, j) = (
                report::numbered(&paths.text, n),
                report::numbered(&paths.json, n),
            );
            if n < 1000 && (taken(&t) || taken(&j)) {
                n += 1;
                continue;
            }
            match self.m.save(&t, text) {
                Ok(()) => break t,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                Err(source) => return Err(crate::error::Error::Save { path: t, source }),
            }
        };
        self.p.say(&format!("Saved {}", text_path.display()));
        self.saved.push(text_path);
        let json_path = loop {
            // Same number as the text when free (a race can only push it further).
            let j = report::numbered(&paths.json, n);
            match self.m.save(&j, json) {
                Ok(()) => break j,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                Err(source) => return Err(crate::error::Error::Save { path: j, source }),
            }
        };
        self.p.say(&format!("Saved {}", json_path.display()));
        self.saved.push(json_path);
        if self.cfg.redact {
            self.p
                .say("Serial numbers, WWNs, host and user names, labels and UUIDs are redacted; --no-redact keeps them.");
        }
        Ok(())
    }
}

/// Whether a report name is taken (any file, even a dangling link, counts).
fn taken(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok()
}

/// `path` when neither it nor its JSON twin exists, else the first free `-2`, `-3` ...
/// name ([`report::numbered`], the numbering the save itself uses).
fn free_report_name(path: &Path) -> PathBuf {
    let paths = report::report_paths(path);
    (1..1000)
        .map(|n| {
            (
                report::numbered(&paths.text, n),
                report::numbered(&paths.json, n),
            )
        })
        .find(|(t, j)| !taken(t) && !taken(j))
        .map_or_else(|| path.to_path_buf(), |(t, _)| t)
}

/// The disk a paste names, as the menu's default (its index in `candidates`) with why: the
/// first device path the pasted runs read or wrote (`hdparm -t /dev/loop1`, `dd
/// of=/dev/sdb`) that resolves to a candidate disk (a partition or layer counts for its
/// disk), else the disk holding the first absolute file path they name (`of=/srv/x` on a
/// mounted filesystem). /dev/zero, /dev/null and names of no disk here are passed over.
fn pasted_disk(
    bundle: &EvidenceBundle,
    sys: &SystemFacts,
    pasted: &[diskdoc_core::facts::UserBenchmark],
    candidates: &[String],
) -> Option<(usize, String)> {
    let paths: Vec<&str> = pasted
        .iter()
        .flat_map(|b| [b.input.as_deref(), b.output.as_deref()])
        .flatten()
        .collect();
    let index = |disk: &str| candidates.iter().position(|c| c == disk);
    let device = paths
        .iter()
        .filter(|p| p.starts_with("/dev/"))
        .find_map(|p| {
            let disk = match bundle.platform {
                diskdoc_core::evidence::Platform::Freebsd => {
                    facts::freebsd::target::resolve_target(bundle, p)
                }
                _ => facts::linux::resolve_target(bundle, p),
            };
            index(&disk).map(|i| (i, format!("the pasted output names {p}")))
        });
    device.or_else(|| {
        paths
            .iter()
            .filter(|p| p.starts_with('/') && !p.starts_with("/dev/"))
            .find_map(|p| {
                let disk = render::disk_holding(sys, Path::new(p))?;
                index(&disk).map(|i| {
                    (
                        i,
                        format!("the pasted output names {p}, which is on {disk}"),
                    )
                })
            })
    })
}

/// The facts of one disk (the wizard's scope).
fn one_disk(sys: &SystemFacts, disk: &str) -> SystemFacts {
    let mut one = sys.clone();
    one.disks.retain(|d| d.name == disk);
    one
}

/// Whether the wizard may run: it needs a terminal unless --yes.
pub fn check_interactive(cfg: &Config, stdin_is_tty: bool) -> Result<(), crate::error::UsageError> {
    if stdin_is_tty || cfg.yes {
        Ok(())
    } else {
        Err(crate::error::UsageError::NoTerminal)
    }
}

/// Facts for a disk, for callers outside the wizard.
pub fn disk<'a>(sys: &'a SystemFacts, name: &str) -> Option<&'a DiskFacts> {
    sys.disk(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The save question offers a name that is free: a second run in the same directory is
    /// offered `-2`, not the first run's report (which is never overwritten).
    #[test]
    fn the_save_question_offers_a_free_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = dir.path().join("diskdoc-loop0.txt");
        assert_eq!(free_report_name(&first), first);
        std::fs::write(&first, "earlier run").expect("write");
        assert_eq!(
            free_report_name(&first),
            dir.path().join("diskdoc-loop0-2.txt")
        );
        // The JSON twin alone takes the name too (the pair is saved under one number).
        std::fs::write(dir.path().join("diskdoc-loop0-2.json"), "{}").expect("write");
        assert_eq!(
            free_report_name(&first),
            dir.path().join("diskdoc-loop0-3.txt")
        );
    }
}
